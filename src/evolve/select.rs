//! Selection: tournament, fitness-proportionate, elitism, and fitnessless
//! selection (a single-elimination tournament decided by playing matches).
//!
//! Fitness is "higher is better" throughout. Ties are broken by the lower
//! index, so selection depends only on the random stream, never on sort
//! stability or thread timing.

use rand::RngExt;

use crate::rng::GpRng;

/// Tournament selection: the best of `k` individuals drawn with replacement.
pub fn tournament(rng: &mut GpRng, fitness: &[f64], k: usize) -> usize {
    let mut best = rng.random_range(0..fitness.len());
    for _ in 1..k.max(1) {
        let c = rng.random_range(0..fitness.len());
        if better(fitness, c, best) {
            best = c;
        }
    }
    best
}

fn better(fitness: &[f64], a: usize, b: usize) -> bool {
    fitness[a] > fitness[b] || (fitness[a] == fitness[b] && a < b)
}

/// Fitness-proportionate (roulette-wheel) selection. Fitness values are shifted
/// so the worst is 0; if all are equal the choice is uniform.
pub fn proportionate(rng: &mut GpRng, fitness: &[f64]) -> usize {
    let min = fitness.iter().copied().fold(f64::INFINITY, f64::min);
    let total: f64 = fitness.iter().map(|f| f - min).sum();
    if total <= 0.0 || !total.is_finite() {
        return rng.random_range(0..fitness.len());
    }
    let mut ball = rng.random_range(0.0..total);
    for (i, f) in fitness.iter().enumerate() {
        ball -= f - min;
        if ball < 0.0 {
            return i;
        }
    }
    fitness.len() - 1
}

/// The indices of the `n` fittest individuals, best first (elitism).
pub fn elite(fitness: &[f64], n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fitness.len()).collect();
    order.sort_by(|&a, &b| fitness[b].total_cmp(&fitness[a]).then(a.cmp(&b)));
    order.truncate(n);
    order
}

/// Fitnessless selection (Jaśkowski, Krawiec and Wieloch): `k` individuals are
/// drawn and play a single-elimination tournament; the winner is selected.
/// `play(a, b)` returns true when `a` wins the match (it decides draws itself).
pub fn single_elimination(rng: &mut GpRng, n: usize, k: usize, mut play: impl FnMut(usize, usize) -> bool) -> usize {
    let mut round: Vec<usize> = (0..k.max(1)).map(|_| rng.random_range(0..n)).collect();
    while round.len() > 1 {
        let mut next = Vec::with_capacity(round.len().div_ceil(2));
        for pair in round.chunks(2) {
            match *pair {
                [a, b] => next.push(if play(a, b) { a } else { b }),
                [a] => next.push(a),
                _ => {}
            }
        }
        round = next;
    }
    round[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::stream;

    #[test]
    fn tournament_prefers_the_fit() {
        let fitness: Vec<f64> = (0..10).map(f64::from).collect();
        let mut rng = stream(1, &[]);
        let picks: Vec<usize> = (0..2000).map(|_| tournament(&mut rng, &fitness, 3)).collect();
        let mean = picks.iter().sum::<usize>() as f64 / picks.len() as f64;
        assert!(mean > 6.0, "mean pick {mean}");
        assert_eq!(tournament(&mut stream(5, &[]), &fitness, 1000), 9);
    }

    #[test]
    fn proportionate_follows_fitness() {
        let fitness = [0.0, 0.0, 10.0];
        let mut rng = stream(2, &[]);
        assert!((0..100).all(|_| proportionate(&mut rng, &fitness) == 2));
        let flat = [1.0, 1.0];
        assert!((0..100).any(|_| proportionate(&mut rng, &flat) == 0));
    }

    #[test]
    fn elite_orders_best_first_with_stable_ties() {
        assert_eq!(elite(&[1.0, 3.0, 3.0, 2.0], 3), vec![1, 2, 3]);
    }

    #[test]
    fn single_elimination_returns_the_strongest_drawn() {
        let mut rng = stream(3, &[]);
        for _ in 0..50 {
            let winner = single_elimination(&mut rng, 100, 5, |a, b| a > b);
            assert!(winner < 100);
        }
        // With everyone drawn often enough, the strongest usually emerges.
        let wins = (0..200).filter(|_| single_elimination(&mut rng, 4, 16, |a, b| a > b) == 3).count();
        assert!(wins > 150, "{wins}");
    }
}
