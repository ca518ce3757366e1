//! GA-FreeCell's Hillis coevolution (seeds/001 section 3.4): solvers
//! evolve against a population of deal sets, `(fitness (hillis (deals 6)
//! (meet 2) (every 5) ...))` on a puzzle with numbered training instances.
//!
//! A problem is a set of `deals` training deals (by their index in the
//! training list, kept in the checkpoint as deal numbers). Each generation
//! every solver meets `meet` sets drawn for it and scores the mean of
//! [`reduction_score`] over their deals (staged deepening against HSDH,
//! `puzzle_fitness.rs`). A set's fitness is the mean, over its deals, of
//! the nodes the solvers that met it needed (a deal none of them solved
//! counts [`UNSOLVED_NODES`]), divided by the mean of HSDH's nodes on its
//! deals: sets that are hard for the solvers, relative to HSDH, score high.
//! A search that passes twice HSDH's nodes stops (its score is 0 either
//! way), so "solved" means solved within that bound. A set no solver met
//! scores 0.
//!
//! Every `every` solver generations the sets breed, from the scores of the
//! generation just played: fitness-proportionate selection of two parents,
//! uniform crossover of their deals, then each deal replaced by a random
//! training deal with probability `mutation`; the fittest set is kept.
//! Their random decisions draw from (seed, HILLIS, generation, ...), so a
//! run is the same at any thread count and across a resume.

use std::hash::Hash;
use std::sync::Mutex;

use rand::RngExt;
use rayon::prelude::*;

use super::engine::{Engine, Evaluation, Fitness, GenerationStats, ProblemStats, State};
use super::experiment::{DealSetSpec, HillisSpec};
use super::genome::Genome;
use super::hillis::HILLIS;
use super::output::SavedProblems;
use super::puzzle_fitness::{PuzzleFitness, UNSOLVED_NODES};
use super::select;
use crate::games::Puzzle;
use crate::rng::{GpRng, stream};

/// A deal set: indices into the training deals.
pub type DealSet = Vec<u32>;

/// Stream sub-purposes under HILLIS.
const MEET: u64 = 4;
const BREED: u64 = 5;

/// The solver fitness with deal sets coevolving, over the plain puzzle
/// fitness of `puzzle_fitness.rs`, whose training deals the sets index.
pub struct DealSetFitness<G: Puzzle> {
    pub inner: PuzzleFitness<G>,
    /// The training deals' numbers, in the order of the inner fitness's puzzles.
    pub numbers: Vec<u32>,
    pub spec: DealSetSpec,
}

/// What the solvers did against the sets in one generation.
#[derive(Debug, Clone, PartialEq)]
pub struct SetScores {
    pub solvers: Vec<f64>,
    pub sets: Vec<f64>,
    /// Share of the solvers' deal runs that solved the deal.
    pub solved: f64,
}

/// The sets of one generation, as a solver fitness (kept for breeding the sets).
struct Meeting<'a, G: Puzzle> {
    fitness: &'a DealSetFitness<G>,
    sets: &'a [DealSet],
    scores: Mutex<Option<SetScores>>,
}

impl<G> DealSetFitness<G>
where
    G: Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync> + Sync,
{
    /// The first sets: each of `spec.deals` training deals drawn uniformly
    /// (seed, HILLIS, u64::MAX).
    pub fn initial(&self, h: &HillisSpec, seed: u64) -> Vec<DealSet> {
        let mut rng = stream(seed, &[HILLIS, u64::MAX]);
        (0..h.problems).map(|_| self.random_set(&mut rng)).collect()
    }

    fn random_set(&self, rng: &mut GpRng) -> DealSet {
        (0..self.spec.deals).map(|_| self.random_deal(rng)).collect()
    }

    fn random_deal(&self, rng: &mut GpRng) -> u32 {
        rng.random_range(0..self.numbers.len() as u32)
    }

    /// The `meet` sets (distinct when there are enough) solver `solver`
    /// meets in `generation`.
    fn met_by(&self, n_sets: usize, generation: u64, solver: usize, seed: u64) -> Vec<usize> {
        let mut rng = stream(seed, &[HILLIS, generation, MEET, solver as u64]);
        let meet = self.spec.meet.min(n_sets);
        rand::seq::index::sample(&mut rng, n_sets, meet).into_vec()
    }

    /// Scores every solver on its sets, and every set by its solvers.
    pub fn score(&self, population: &[Genome], sets: &[DealSet], generation: u64, seed: u64) -> SetScores {
        let programs = self.inner.compile(population);
        let meetings: Vec<Vec<usize>> =
            (0..population.len()).map(|s| self.met_by(sets.len(), generation, s, seed)).collect();
        // Every deal's yardstick first, once each.
        let mut deals: Vec<u32> = sets.iter().flatten().copied().collect();
        deals.sort_unstable();
        deals.dedup();
        deals.par_iter().for_each(|&d| {
            self.inner.yardstick(d as usize);
        });
        let jobs: Vec<(usize, usize, u32)> = meetings
            .iter()
            .enumerate()
            .flat_map(|(s, met)| met.iter().flat_map(move |&k| sets[k].iter().map(move |&d| (s, k, d))))
            .collect();
        let runs: Vec<(Option<u64>, f64)> =
            jobs.par_iter().map(|&(s, _, d)| self.inner.staged_meeting(&programs[s], d as usize)).collect();
        let mut solver_sum = vec![(0.0, 0usize); population.len()];
        // Per set and deal position: the nodes of the solvers that solved it, and how many met it.
        let mut set_nodes: Vec<Vec<(f64, usize)>> = sets.iter().map(|s| vec![(0.0, 0); s.len()]).collect();
        let mut met = vec![0usize; sets.len()];
        let mut solved = 0usize;
        let mut j = 0;
        for (s, ks) in meetings.iter().enumerate() {
            for &k in ks {
                met[k] += 1;
                for deal in set_nodes[k].iter_mut() {
                    let (nodes, score) = runs[j];
                    j += 1;
                    solver_sum[s].0 += score;
                    solver_sum[s].1 += 1;
                    if let Some(n) = nodes {
                        deal.0 += n as f64;
                        deal.1 += 1;
                        solved += 1;
                    }
                }
            }
        }
        let solvers = solver_sum.iter().map(|&(sum, n)| if n == 0 { 0.0 } else { sum / n as f64 }).collect();
        let sets_fitness = sets
            .iter()
            .enumerate()
            .map(|(k, set)| {
                if met[k] == 0 || set.is_empty() {
                    return 0.0;
                }
                let needed: f64 = set_nodes[k]
                    .iter()
                    .map(|&(sum, n)| if n == 0 { UNSOLVED_NODES as f64 } else { sum / n as f64 })
                    .sum::<f64>()
                    / set.len() as f64;
                let hsdh: f64 =
                    set.iter().map(|&d| self.inner.yardstick(d as usize) as f64).sum::<f64>() / set.len() as f64;
                set_fitness(needed, hsdh)
            })
            .collect();
        SetScores {
            solvers,
            sets: sets_fitness,
            solved: if jobs.is_empty() { 0.0 } else { solved as f64 / jobs.len() as f64 },
        }
    }

    /// The next sets, bred from `fitness` (see the module's comment).
    pub fn breed(&self, sets: &[DealSet], fitness: &[f64], h: &HillisSpec, generation: u64, seed: u64) -> Vec<DealSet> {
        let mut rng = stream(seed, &[HILLIS, generation, BREED]);
        let mut next: Vec<DealSet> = select::elite(fitness, 1).into_iter().map(|i| sets[i].clone()).collect();
        while next.len() < sets.len() {
            let a = &sets[select::proportionate(&mut rng, fitness)];
            let b = &sets[select::proportionate(&mut rng, fitness)];
            let child = a
                .iter()
                .zip(b)
                .map(|(&x, &y)| {
                    let gene = if rng.random_bool(0.5) { x } else { y };
                    if rng.random_bool(h.mutation) { self.random_deal(&mut rng) } else { gene }
                })
                .collect();
            next.push(child);
        }
        next
    }

    /// One solver generation against `sets`; the sets breed after every
    /// `every`-th generation.
    pub fn coevolve(
        &self,
        engine: &Engine,
        state: &State,
        h: &HillisSpec,
        sets: &mut Vec<DealSet>,
        seed: u64,
    ) -> Option<(State, GenerationStats, Evaluation)> {
        let meeting = Meeting { fitness: self, sets, scores: Mutex::new(None) };
        let (next, mut stats, eval) = engine.step(state, &meeting);
        let scores = meeting.scores.lock().ok()?.take()?;
        let n = scores.sets.len().max(1) as f64;
        stats.problems = Some(ProblemStats {
            solved: scores.solved,
            best: scores.sets.iter().copied().fold(0.0, f64::max),
            mean: scores.sets.iter().sum::<f64>() / n,
            mean_length: self.spec.deals as f64,
        });
        if (state.generation + 1).is_multiple_of(u64::from(self.spec.every)) {
            *sets = self.breed(sets, &scores.sets, h, state.generation, seed);
        }
        Some((next, stats, eval))
    }

    /// The sets as deal numbers.
    pub fn save(&self, sets: &[DealSet]) -> SavedProblems {
        let numbers = |set: &DealSet| set.iter().map(|&i| self.numbers[i as usize]).collect();
        SavedProblems::DealSets { deal_sets: sets.iter().map(numbers).collect() }
    }

    /// The sets a checkpoint kept: each of `deals` training deals. The error
    /// completes "the checkpoint holds ...".
    pub fn load(&self, saved: SavedProblems) -> Result<Vec<DealSet>, String> {
        let SavedProblems::DealSets { deal_sets } = saved else {
            return Err("problems that are not deal sets, but the experiment's problems are deal sets".into());
        };
        deal_sets
            .iter()
            .enumerate()
            .map(|(k, set)| {
                if set.len() != self.spec.deals {
                    return Err(format!("deal set {k} of {} deals, not {}", set.len(), self.spec.deals));
                }
                set.iter()
                    .map(|d| {
                        self.numbers
                            .binary_search(d)
                            .map(|i| i as u32)
                            .map_err(|_| format!("deal set {k} with deal {d}, which is not a training deal"))
                    })
                    .collect()
            })
            .collect()
    }
}

/// A set's fitness: the mean nodes its solvers needed over HSDH's mean
/// nodes on its deals (0 when HSDH's mean is 0).
pub fn set_fitness(needed: f64, hsdh: f64) -> f64 {
    if hsdh > 0.0 { needed / hsdh } else { 0.0 }
}

impl<G> Fitness for Meeting<'_, G>
where
    G: Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync> + Sync,
{
    fn evaluate(&self, population: &[Genome], generation: u64, seed: u64) -> Evaluation {
        let scores = self.fitness.score(population, self.sets, generation, seed);
        let fitness = scores.solvers.clone();
        let games = (population.len() * self.fitness.spec.meet.min(self.sets.len()) * self.fitness.spec.deals) as u64;
        if let Ok(mut slot) = self.scores.lock() {
            *slot = Some(scores);
        }
        Evaluation { fitness, games }
    }

    /// A match is one deal of a set drawn from `rng`: the better score
    /// wins, a tie is decided by `rng`.
    fn beats(&self, population: &[Genome], a: usize, b: usize, rng: &mut GpRng) -> bool {
        let programs = self.fitness.inner.compile(&[population[a].clone(), population[b].clone()]);
        let deal = match self.sets.get(rng.random_range(0..self.sets.len().max(1))) {
            Some(set) if !set.is_empty() => set[rng.random_range(0..set.len())] as usize,
            _ => return rng.random_bool(0.5),
        };
        let (sa, sb) = (self.fitness.inner.staged_meeting(&programs[0], deal).1, {
            self.fitness.inner.staged_meeting(&programs[1], deal).1
        });
        if sa == sb { rng.random_bool(0.5) } else { sa > sb }
    }
}

/// Without the sets (a run's champion and validation), the plain puzzle
/// fitness on the training deals.
impl<G> Fitness for DealSetFitness<G>
where
    G: Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync> + Sync,
{
    fn evaluate(&self, population: &[Genome], generation: u64, seed: u64) -> Evaluation {
        self.inner.evaluate(population, generation, seed)
    }

    fn beats(&self, population: &[Genome], a: usize, b: usize, rng: &mut GpRng) -> bool {
        self.inner.beats(population, a, b, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::puzzle_fitness::reduction_score;

    /// A set's fitness is its solvers' mean nodes over HSDH's, a deal no
    /// solver solved counting 1000M.
    #[test]
    fn set_fitness_is_the_ratio_of_mean_nodes() {
        assert_eq!(set_fitness(500.0, 1000.0), 0.5);
        let unsolved = (UNSOLVED_NODES as f64 + 1000.0) / 2.0;
        assert_eq!(set_fitness(unsolved, 1000.0), unsolved / 1000.0);
        assert_eq!(set_fitness(10.0, 0.0), 0.0);
        assert_eq!(reduction_score(Some(10), 20), 0.5);
    }
}
