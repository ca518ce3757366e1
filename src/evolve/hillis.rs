//! Hillis-style two-population coevolution: solvers evolve against an
//! evolving set of problems (GA-FreeCell coevolves solvers against deals).
//! A solver scores a point for each problem of its sample it solves; a problem
//! scores a point for each solver of its sample that fails it, so problems
//! drift towards what the solvers cannot yet do.
//!
//! Problems are any type with a [`ProblemSpace`] to draw and vary them; the
//! solver population is an ordinary [`Engine`] population. A meeting is
//! won or lost ([`Contest`], openings of a two-player game) or graded
//! ([`Graded`], puzzles: the share of nodes a program saves, the puzzle
//! scoring the rest).

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
/// breeding the problems (or (.., 3, child) for each child bred apart), and
/// (seed, HILLIS, u64::MAX) for the first ones.
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
    (0..params.problems).map(|_| child(space, problems, scores, params, &mut rng)).collect()
}

/// One bred problem: a parent by tournament, mutated with the mutation
/// rate's probability.
fn child<S: ProblemSpace>(
    space: &S,
    problems: &[S::Problem],
    scores: &[f64],
    params: &HillisParams,
    rng: &mut GpRng,
) -> S::Problem {
    let parent = &problems[select::tournament(rng, scores, params.tournament)];
    if rng.random_bool(params.mutation.clamp(0.0, 1.0)) { space.mutate(parent, rng) } else { parent.clone() }
}

/// The breeding of [`breed_problems`], but each child draws its parent and
/// its variation from its own stream, (seed, HILLIS, generation, 3, child),
/// and the children are bred in parallel: for problems whose variation is
/// costly (a puzzle's is checked by a search).
pub fn breed_problems_apart<S: ProblemSpace>(
    space: &S,
    problems: &[S::Problem],
    scores: &[f64],
    params: &HillisParams,
    generation: u64,
    seed: u64,
) -> Vec<S::Problem> {
    (0..params.problems)
        .into_par_iter()
        .map(|index| child(space, problems, scores, params, &mut stream(seed, &[HILLIS, generation, 3, index as u64])))
        .collect()
}

/// The points of a graded meeting, shared between solver and problem.
pub const FULL: f64 = 100.0;

/// A contest whose meetings are graded rather than won or lost: the
/// solver's share of [`FULL`] points (on a puzzle, the percentage of
/// iterative deepening's nodes a program saves), the problem taking the
/// rest. A grade depends only on the solver and the problem.
pub trait Graded<P>: Sync {
    /// The grade of member `solver` of the population on `problem`, 0 to [`FULL`].
    fn grade(&self, solver: usize, problem: &P) -> f64;
}

/// Fitness of both populations from graded meetings.
pub struct GradedScores {
    /// Each solver's mean grade over its sample; each problem's mean of
    /// [`FULL`] less the grade over its sample.
    pub scores: Scores,
    /// The share of the solvers' meetings graded above 0.
    pub positive: f64,
}

/// Scores as [`score`] does, with a grade for each meeting: every solver
/// meets `sample` problems drawn from (seed, HILLIS, generation, 0,
/// solver), every problem `sample` solvers drawn from (.., 1, problem).
/// Each distinct meeting is graded once, all of them in parallel, so the
/// scores do not depend on the thread count.
pub fn score_graded<P: Sync>(
    contest: &dyn Graded<P>,
    solvers: usize,
    problems: &[P],
    sample: usize,
    generation: u64,
    seed: u64,
) -> GradedScores {
    if solvers == 0 || problems.is_empty() {
        let scores = Scores { solvers: vec![0.0; solvers], problems: vec![0.0; problems.len()] };
        return GradedScores { scores, positive: 0.0 };
    }
    let draw = |tag: u64, who: usize, among: usize| -> Vec<usize> {
        let mut rng = stream(seed, &[HILLIS, generation, tag, who as u64]);
        (0..sample).map(|_| rng.random_range(0..among)).collect()
    };
    let solver_samples: Vec<Vec<usize>> = (0..solvers).map(|i| draw(0, i, problems.len())).collect();
    let problem_samples: Vec<Vec<usize>> = (0..problems.len()).map(|j| draw(1, j, solvers)).collect();
    let by_solver = solver_samples.iter().enumerate().flat_map(|(i, js)| js.iter().map(move |&j| (i, j)));
    let by_problem = problem_samples.iter().enumerate().flat_map(|(j, is)| is.iter().map(move |&i| (i, j)));
    let mut meetings: Vec<(usize, usize)> = by_solver.chain(by_problem).collect();
    meetings.sort_unstable();
    meetings.dedup();
    let grades: Vec<f64> = meetings.par_iter().map(|&(i, j)| contest.grade(i, &problems[j])).collect();
    let grade = |i: usize, j: usize| meetings.binary_search(&(i, j)).map_or(0.0, |k| grades[k]);
    let mean = |xs: &mut dyn Iterator<Item = f64>| xs.sum::<f64>() / sample.max(1) as f64;
    let solver_scores = solver_samples.iter().enumerate().map(|(i, js)| mean(&mut js.iter().map(|&j| grade(i, j))));
    let problem_scores =
        problem_samples.iter().enumerate().map(|(j, is)| mean(&mut is.iter().map(|&i| FULL - grade(i, j))));
    let positive = solver_samples
        .iter()
        .enumerate()
        .map(|(i, js)| js.iter().filter(|&&j| grade(i, j) > 0.0).count())
        .sum::<usize>() as f64
        / (solvers * sample).max(1) as f64;
    GradedScores { scores: Scores { solvers: solver_scores.collect(), problems: problem_scores.collect() }, positive }
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
            erc_mutation: 0.0,
            islands: Default::default(),
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

    /// A graded meeting: 100 when the tree is exact at x, less the further off.
    struct Closeness(PrimSet, Vec<Genome>);

    impl Graded<f64> for Closeness {
        fn grade(&self, solver: usize, x: &f64) -> f64 {
            let Genome::Trees(ts) = &self.1[solver] else { return 0.0 };
            let mut slots = [0u64; 10];
            slots[0] = x.to_bits();
            let y = Interp::new(&self.0, &mut Slots(&slots)).eval_tree(&ts[0]).as_f64();
            let off = (y - x * x).abs();
            if off.is_nan() { 0.0 } else { FULL / (1.0 + off) }
        }
    }

    /// Graded scores and problems bred apart are the same on any thread
    /// count; scores are means of grades, a problem's of what its solvers
    /// left.
    #[test]
    fn graded_coevolution_is_deterministic_across_threads() {
        let ps = load_primset("arith").expect("arith");
        let builder = Builder::new(&ps, &[TypeId::F]).expect("buildable");
        let mut rng = stream(5, &[]);
        let solvers: Vec<Genome> = (0..12)
            .map(|_| Genome::Trees(vec![builder.tree(&mut rng, TypeId::F, crate::evolve::init::Method::Grow, 4)]))
            .collect();
        let problems: Vec<f64> = (0..9).map(|_| Points.random(&mut rng)).collect();
        let contest = Closeness(ps.clone(), solvers.clone());
        let hp = HillisParams { problems: 9, sample: 4, mutation: 0.7, tournament: 2 };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
            pool.install(|| {
                let graded = score_graded(&contest, solvers.len(), &problems, 4, 3, 11);
                let next = breed_problems_apart(&Points, &problems, &graded.scores.problems, &hp, 3, 11);
                (graded, next)
            })
        };
        let ((a, pa), (b, pb)) = (run(1), run(3));
        let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&a.scores.solvers), bits(&b.scores.solvers));
        assert_eq!(bits(&a.scores.problems), bits(&b.scores.problems));
        assert_eq!(a.positive.to_bits(), b.positive.to_bits());
        assert_eq!(bits(&pa), bits(&pb));
        assert_eq!(pa.len(), 9);
        assert!(a.scores.solvers.iter().chain(&a.scores.problems).all(|s| (0.0..=FULL).contains(s)));
        // Solver 0's score, recomputed from its own sample.
        let mut rng = stream(11, &[HILLIS, 3, 0, 0]);
        let mine: f64 =
            (0..4).map(|_| contest.grade(0, &problems[rng.random_range(0..problems.len())])).sum::<f64>() / 4.0;
        assert_eq!(mine.to_bits(), a.scores.solvers[0].to_bits());
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
