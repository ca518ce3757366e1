//! Speciation (Stanley and Miikkulainen 2002, section 3.3): the
//! compatibility distance δ = c1·E/N + c2·D/N + c3·W̄ between two genomes,
//! species formed against the previous generation's representatives, and
//! explicit fitness sharing: a species' offspring are in proportion to the
//! sum of its members' fitness divided by its size.

use super::NeatParams;
use super::genes::keyed_links;
use crate::lang::network::NetGenes;

/// A species as it carries over from one generation to the next.
#[derive(Debug, Clone, PartialEq)]
pub struct Species {
    /// Numbered in order of creation over the run.
    pub id: u64,
    /// A member of the previous generation, which new genomes are compared with.
    pub representative: NetGenes,
    /// The best fitness any member has had.
    pub best: f64,
    /// The generation in which `best` was last raised.
    pub improved: u64,
}

/// The compatibility distance of `a` and `b`: E excess and D disjoint
/// genes (by innovation number), W̄ the mean weight difference of matching
/// genes (disabled ones included), N the larger genome's gene count, or 1
/// when both have fewer than `small_genome` genes.
pub fn distance(a: &NetGenes, b: &NetGenes, p: &NeatParams) -> f64 {
    let (x, y) = (keyed_links(a), keyed_links(b));
    let (mut i, mut j) = (0, 0);
    let (mut disjoint, mut matching, mut weight_diff) = (0usize, 0usize, 0.0);
    while i < x.len() && j < y.len() {
        match x[i].innovation.cmp(&y[j].innovation) {
            std::cmp::Ordering::Equal => {
                matching += 1;
                weight_diff += (x[i].weight - y[j].weight).abs();
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => {
                disjoint += 1;
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                disjoint += 1;
                j += 1;
            }
        }
    }
    // What is left of either list lies beyond the other's last gene.
    let excess = (x.len() - i) + (y.len() - j);
    let larger = x.len().max(y.len());
    let n = if larger < p.small_genome { 1.0 } else { larger as f64 };
    let mean_diff = if matching == 0 { 0.0 } else { weight_diff / matching as f64 };
    let (c1, c2, c3) = p.coefficients;
    c1 * excess as f64 / n + c2 * disjoint as f64 / n + c3 * mean_diff
}

/// The members of each species: every genome, in population order, joins
/// the first species (in `species` order) whose representative is within
/// the threshold, else founds a new species with itself as representative
/// (numbered from `next_id`, which is advanced). Returns the members of
/// every species in `species` order; species nobody joined have none.
pub fn speciate(
    population: &[NetGenes],
    species: &mut Vec<Species>,
    next_id: &mut u64,
    generation: u64,
    p: &NeatParams,
) -> Vec<Vec<usize>> {
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); species.len()];
    for (i, g) in population.iter().enumerate() {
        match species.iter().position(|s| distance(&s.representative, g, p) < p.threshold) {
            Some(s) => members[s].push(i),
            None => {
                species.push(Species {
                    id: *next_id,
                    representative: g.clone(),
                    best: f64::NEG_INFINITY,
                    improved: generation,
                });
                *next_id += 1;
                members.push(vec![i]);
            }
        }
    }
    members
}

/// Splits `total` offspring in proportion to `shares` by largest
/// remainders (ties to the earlier species), so the counts add up to
/// `total` exactly and do not depend on rounding order. All shares zero:
/// in proportion to `sizes`.
pub fn allot(total: usize, shares: &[f64], sizes: &[usize]) -> Vec<usize> {
    let clean: Vec<f64> = shares.iter().map(|&s| if s.is_finite() && s > 0.0 { s } else { 0.0 }).collect();
    let sum: f64 = clean.iter().sum();
    let weights: Vec<f64> = if sum > 0.0 { clean } else { sizes.iter().map(|&n| n as f64).collect() };
    let sum: f64 = weights.iter().sum();
    if sum <= 0.0 || weights.is_empty() {
        return vec![0; shares.len()];
    }
    let exact: Vec<f64> = weights.iter().map(|w| total as f64 * w / sum).collect();
    let mut counts: Vec<usize> = exact.iter().map(|e| e.floor() as usize).collect();
    let given: usize = counts.iter().sum();
    let mut order: Vec<usize> = (0..exact.len()).collect();
    order.retain(|&s| weights[s] > 0.0);
    order.sort_by(|&a, &b| (exact[b] - exact[b].floor()).total_cmp(&(exact[a] - exact[a].floor())).then(a.cmp(&b)));
    for &s in order.iter().cycle().take(total.saturating_sub(given)) {
        counts[s] += 1;
    }
    counts
}
