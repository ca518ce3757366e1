//! A genetic algorithm over weight vectors (GA-FreeCell's representation):
//! uniform initialisation, single-point crossover, and per-gene mutation
//! with probability p: a Gaussian step, or (GA-FreeCell, seeds/001 section
//! 3.4: "each gene is replaced by a new random value") a fresh value drawn
//! uniformly from the range.

use rand::RngExt;

use crate::rng::GpRng;

/// Bounds and rates of the GA.
#[derive(Debug, Clone, Copy)]
pub struct GaParams {
    /// Genes are drawn from and kept within `[lo, hi]`.
    pub lo: f64,
    pub hi: f64,
    /// Probability that each gene mutates.
    pub gene_rate: f64,
    /// Standard deviation of a mutation step, as a fraction of `hi - lo`.
    pub step: f64,
    /// A mutated gene is replaced by a uniform draw from `[lo, hi)` instead
    /// of stepped (`(step replace)`).
    pub replace: bool,
}

impl Default for GaParams {
    fn default() -> GaParams {
        GaParams { lo: 0.0, hi: 1.0, gene_rate: 0.1, step: 0.1, replace: false }
    }
}

pub fn random_genome(rng: &mut GpRng, n: usize, p: &GaParams) -> Vec<f64> {
    (0..n).map(|_| if p.lo < p.hi { rng.random_range(p.lo..=p.hi) } else { p.lo }).collect()
}

/// Single-point crossover: the children swap tails after a random cut.
pub fn single_point(rng: &mut GpRng, a: &[f64], b: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let n = a.len().min(b.len());
    if n < 2 {
        return (a.to_vec(), b.to_vec());
    }
    let cut = rng.random_range(1..n);
    let mut c = a[..cut].to_vec();
    c.extend_from_slice(&b[cut..]);
    let mut d = b[..cut].to_vec();
    d.extend_from_slice(&a[cut..]);
    (c, d)
}

/// Mutates each gene with probability `gene_rate` by a Gaussian step, clamped to the bounds.
pub fn mutate(rng: &mut GpRng, genome: &[f64], p: &GaParams) -> Vec<f64> {
    genome
        .iter()
        .map(|&g| {
            if !rng.random_bool(p.gene_rate.clamp(0.0, 1.0)) {
                return g;
            }
            if p.replace {
                return if p.lo < p.hi { rng.random_range(p.lo..p.hi) } else { p.lo };
            }
            let (u1, u2): (f64, f64) = (rng.random_range(f64::EPSILON..1.0), rng.random());
            let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
            (g + z * p.step * (p.hi - p.lo)).clamp(p.lo, p.hi)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::stream;

    #[test]
    fn crossover_preserves_genes_by_position() {
        let mut rng = stream(1, &[]);
        let (a, b) = (vec![0.0; 6], vec![1.0; 6]);
        let (c, d) = single_point(&mut rng, &a, &b);
        for i in 0..6 {
            assert_eq!(c[i] + d[i], 1.0);
        }
        assert!(c[0] == 0.0 && c[5] == 1.0);
    }

    #[test]
    fn mutation_stays_in_bounds_and_respects_rate() {
        let mut rng = stream(2, &[]);
        let p = GaParams { lo: -1.0, hi: 1.0, gene_rate: 1.0, step: 5.0, replace: false };
        let g = mutate(&mut rng, &[0.5; 100], &p);
        assert!(g.iter().all(|x| (-1.0..=1.0).contains(x)));
        let none = mutate(&mut rng, &[0.5; 100], &GaParams { gene_rate: 0.0, ..p });
        assert!(none.iter().all(|x| *x == 0.5));
    }

    #[test]
    fn replacement_draws_fresh_values_in_the_half_open_range() {
        let mut rng = stream(3, &[]);
        let p = GaParams { lo: 0.0, hi: 1.0, gene_rate: 1.0, step: 0.1, replace: true };
        let g = mutate(&mut rng, &[2.0; 200], &p);
        assert!(g.iter().all(|x| (0.0..1.0).contains(x)), "{g:?}");
        let some = mutate(&mut rng, &[2.0; 1000], &GaParams { gene_rate: 0.1, ..p });
        let changed = some.iter().filter(|&&x| x != 2.0).count();
        assert!((50..150).contains(&changed), "about 10% of genes replaced: {changed}");
    }
}
