//! Hillis-style two-population coevolution: solvers evolve against an
//! evolving set of problems (GA-FreeCell coevolves solvers against deals).
//! A solver scores a point for each problem of its sample it solves; a problem
//! scores a point for each solver of its sample that fails it, so problems
//! drift towards what the solvers cannot yet do.
//!
//! Problems are any type with a [`ProblemSpace`] to draw and vary them; the
//! solver population is an ordinary [`Engine`] population.

use rand::RngExt;
use rayon::prelude::*;

use super::engine::{Engine, Evaluation, Fitness, GenerationStats, State};
use super::genome::Genome;
use super::select;
use crate::rng::{GpRng, stream};

/// How problems are drawn and varied.
pub trait ProblemSpace: Sync {
    type Problem: Clone + Send + Sync;
    fn random(&self, rng: &mut GpRng) -> Self::Problem;
    fn mutate(&self, p: &Self::Problem, rng: &mut GpRng) -> Self::Problem;
}

/// Whether a solver solves a problem (its randomness from `rng`).
pub trait Contest<P>: Sync {
    /// Whether member `solver` of `solvers` solves `problem`. The index lets
    /// a contest use what it prepared for the whole population (compiled
    /// players, say).
    fn solves(&self, solvers: &[Genome], solver: usize, problem: &P, rng: &mut GpRng) -> bool;
}

/// Settings of the problem population.
#[derive(Debug, Clone, Copy)]
pub struct HillisParams {
    pub problems: usize,
    /// Problems each solver meets per generation (and solvers each problem meets).
    pub sample: usize,
    pub mutation: f64,
    pub tournament: usize,
}

/// The stream purpose of coevolution: (seed, HILLIS, generation, 0, solver)
/// for a solver's sample, (.., 1, problem) for a problem's, (.., 2) for
/// breeding the problems, and (seed, HILLIS, u64::MAX) for the first ones.
pub const HILLIS: u64 = 10;

/// Fitness of both populations for one generation.
pub struct Scores {
    pub solvers: Vec<f64>,
    pub problems: Vec<f64>,
}

/// Scores every solver against a sample of problems and every problem against
/// a sample of solvers, in parallel, with a stream per task.
pub fn score<P: Clone + Send + Sync>(
    contest: &dyn Contest<P>,
    solvers: &[Genome],
    problems: &[P],
    sample: usize,
    generation: u64,
    seed: u64,
) -> Scores {
    let solver_scores = (0..solvers.len())
        .into_par_iter()
        .map(|i| {
            let mut rng = stream(seed, &[HILLIS, generation, 0, i as u64]);
            (0..sample)
                .filter(|_| {
                    let p = rng.random_range(0..problems.len());
                    contest.solves(solvers, i, &problems[p], &mut rng)
                })
                .count() as f64
        })
        .collect();
    let problem_scores = (0..problems.len())
        .into_par_iter()
        .map(|j| {
            let mut rng = stream(seed, &[HILLIS, generation, 1, j as u64]);
            (0..sample)
                .filter(|_| {
                    let s = rng.random_range(0..solvers.len());
                    !contest.solves(solvers, s, &problems[j], &mut rng)
                })
                .count() as f64
        })
        .collect();
    Scores { solvers: solver_scores, problems: problem_scores }
}

/// The next problem population: tournament selection on problem scores and mutation.
pub fn breed_problems<S: ProblemSpace>(
    space: &S,
    problems: &[S::Problem],
    scores: &[f64],
    params: &HillisParams,
    generation: u64,
    seed: u64,
) -> Vec<S::Problem> {
    let mut rng = stream(seed, &[HILLIS, generation, 2]);
    (0..params.problems)
        .map(|_| {
            let parent = &problems[select::tournament(&mut rng, scores, params.tournament)];
            if rng.random_bool(params.mutation.clamp(0.0, 1.0)) {
                space.mutate(parent, &mut rng)
            } else {
                parent.clone()
            }
        })
        .collect()
}

/// A fitness that credits solvers by a fixed table of scores (the engine's
/// `step` takes a `Fitness`; coevolution computes the scores itself).
struct Precomputed(Vec<f64>);

impl Fitness for Precomputed {
    fn evaluate(&self, population: &[Genome], _generation: u64, _seed: u64) -> Evaluation {
        Evaluation { fitness: self.0.iter().copied().take(population.len()).collect(), games: population.len() as u64 }
    }

    fn beats(&self, _population: &[Genome], _a: usize, _b: usize, rng: &mut GpRng) -> bool {
        rng.random_bool(0.5)
    }
}

/// One generation of both populations.
pub fn step<S: ProblemSpace>(
    engine: &Engine,
    space: &S,
    contest: &dyn Contest<S::Problem>,
    params: &HillisParams,
    solvers: &State,
    problems: &[S::Problem],
) -> (State, Vec<S::Problem>, GenerationStats, Scores) {
    let seed = engine.params.seed;
    let scores = score(contest, &solvers.population, problems, params.sample, solvers.generation, seed);
    let (next, stats, _) = engine.step(solvers, &Precomputed(scores.solvers.clone()));
    let next_problems = breed_problems(space, problems, &scores.problems, params, solvers.generation, seed);
    (next, next_problems, stats, scores)
}

/// The initial problem population.
pub fn initial_problems<S: ProblemSpace>(space: &S, params: &HillisParams, seed: u64) -> Vec<S::Problem> {
    let mut rng = stream(seed, &[HILLIS, u64::MAX]);
    (0..params.problems).map(|_| space.random(&mut rng)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::interp::{Interp, Slots};
    use crate::evolve::engine::{EngineParams, Selection};
    use crate::evolve::genome::{Representation, Variation};
    use crate::evolve::init::Builder;
    use crate::lang::library::load_primset;
    use crate::lang::{PrimSet, TypeId};

    /// Problems are points x in [-4, 4]; a solver solves x when its tree is
    /// within 0.25 of x² there.
    struct Points;

    impl ProblemSpace for Points {
        type Problem = f64;
        fn random(&self, rng: &mut GpRng) -> f64 {
            rng.random_range(-4.0..4.0)
        }
        fn mutate(&self, p: &f64, rng: &mut GpRng) -> f64 {
            (p + rng.random_range(-0.5..0.5)).clamp(-4.0, 4.0)
        }
    }

    struct Square(PrimSet);

    impl Contest<f64> for Square {
        fn solves(&self, solvers: &[Genome], solver: usize, x: &f64, _rng: &mut GpRng) -> bool {
            let Genome::Trees(ts) = &solvers[solver] else { return false };
            let mut slots = [0u64; 10];
            slots[0] = x.to_bits();
            let y = Interp::new(&self.0, &mut Slots(&slots)).eval_tree(&ts[0]).as_f64();
            (y - x * x).abs() < 0.25
        }
    }

    fn run(threads: usize) -> (Vec<GenerationStats>, Vec<f64>) {
        let ps = load_primset("arith").expect("arith");
        let builder = Builder::new(&ps, &[TypeId::F]).expect("buildable");
        let params = EngineParams {
            population: 40,
            generations: 5,
            crossover: 0.8,
            mutation: 0.2,
            selection: Selection::Tournament(2),
            elitism: 1,
            seed: 3,
            variation: Variation::default(),
        };
        let engine = Engine::new(params, Representation::Trees(vec![("eval".into(), TypeId::F)]), builder);
        let hp = HillisParams { problems: 20, sample: 10, mutation: 0.5, tournament: 2 };
        let contest = Square(ps.clone());
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
        pool.install(|| {
            let mut solvers = engine.initial();
            let mut problems = initial_problems(&Points, &hp, 3);
            let mut log = Vec::new();
            for _ in 0..5 {
                let (s, p, stats, scores) = step(&engine, &Points, &contest, &hp, &solvers, &problems);
                assert_eq!(scores.problems.len(), 20);
                assert!(scores.solvers.iter().all(|&f| (0.0..=10.0).contains(&f)));
                log.push(stats);
                solvers = s;
                problems = p;
            }
            (log, problems)
        })
    }

    #[test]
    fn coevolution_is_deterministic_across_threads() {
        let (a, pa) = run(1);
        let (b, pb) = run(3);
        assert_eq!(a, b);
        assert_eq!(
            pa.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            pb.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
    }
}
