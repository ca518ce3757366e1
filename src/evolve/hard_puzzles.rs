//! Hillis coevolution on a puzzle (`(fitness (hillis ...))` on Rush Hour):
//! hard puzzles evolve with the programs that solve them. GP-Rush followed
//! its 6×6 success by evolving "difficult 8x8 boards" (seeds/000 section 4);
//! here the boards evolve against the current policies, as GA-FreeCell's
//! deals do (Hillis 1990).
//!
//! A problem is a puzzle and the length of its optimal solution (BFS), at
//! least the experiment's `min-length`. A meeting of a program and a puzzle
//! is graded by the puzzle fitness: the percentage of iterative deepening's
//! nodes the program saves IDA* (0 when it does not solve it within ID's
//! count); the puzzle scores the rest, 100 less the saving. A program's
//! fitness is its mean saving over the puzzles it meets, a puzzle's its
//! mean hardness over the programs it meets ([`hillis::score_graded`]).
//!
//! The first problems are the training puzzles of at least `min-length`
//! moves, drawn in random order (repeated and varied when there are fewer
//! than the population), or puzzles generated afresh. A child is its parent
//! varied by the puzzle ([`Puzzle::vary_instance`]: Rush Hour slides, adds,
//! removes or moves a vehicle) and checked by BFS within the node budget: a
//! change without a solution, or shorter than `min-length`, is drawn again,
//! up to [`TRIES`] times, and then the parent is kept. ID's count, the
//! yardstick, is computed once per puzzle and shared by its copies.
//! DifficultyLevel is a puzzle's length over the longest of the population.

use std::hash::Hash;
use std::sync::{Arc, Mutex, OnceLock};

use rand::RngExt;
use rayon::prelude::*;

use super::engine::{Engine, Evaluation, Fitness, GenerationStats, ProblemStats, State};
use super::experiment::{HillisSpec, ProblemStart};
use super::genome::Genome;
use super::hillis::{self, FULL, Graded, GradedScores, HILLIS, HillisParams, ProblemSpace};
use super::output::SavedProblems;
use super::puzzle_fitness::{Population, PuzzleFitness};
use crate::diagnostic::Diagnostic;
use crate::games::Puzzle;
use crate::rng::{GpRng, stream};
use crate::search::guided::NodeProgram;
use crate::search::puzzle::bfs;

/// Changes drawn for a child before its parent is kept.
pub const TRIES: usize = 10;

/// A problem: a puzzle and its optimal length, with iterative deepening's
/// nodes on it, computed once and shared by its copies.
#[derive(Clone, Debug)]
pub struct HardPuzzle<S> {
    pub state: S,
    /// The length of an optimal solution (BFS).
    pub length: u32,
    yardstick: Arc<OnceLock<u64>>,
}

impl<S> HardPuzzle<S> {
    fn new(state: S, length: u32) -> HardPuzzle<S> {
        HardPuzzle { state, length, yardstick: Arc::new(OnceLock::new()) }
    }
}

/// The length of an optimal solution of `state`, by BFS within `max_nodes`.
fn optimal_length<G>(game: &G, state: &G::State, max_nodes: u64) -> Option<u32>
where
    G: Puzzle<State: Hash + Eq>,
{
    bfs(game, state, max_nodes).moves.map(|m| m.len() as u32)
}

/// Puzzles of at least `min_length` moves, varied by the puzzle and
/// checked by BFS within `max_nodes`.
pub struct HardPuzzles<'a, G: Puzzle> {
    game: &'a G,
    min_length: u32,
    max_nodes: u64,
    /// What [`ProblemSpace::random`] varies: never empty.
    starts: Vec<HardPuzzle<G::State>>,
}

impl<'a, G> HardPuzzles<'a, G>
where
    G: Puzzle<State: Hash + Eq + Send + Sync> + Sync,
{
    /// `None` when `starts` is empty.
    fn new(game: &'a G, min_length: u32, max_nodes: u64, starts: Vec<HardPuzzle<G::State>>) -> Option<Self> {
        (!starts.is_empty()).then_some(HardPuzzles { game, min_length, max_nodes, starts })
    }

    /// `state` as a problem, if BFS solves it in at least `min_length` moves.
    fn checked(&self, state: G::State) -> Option<HardPuzzle<G::State>> {
        let length = optimal_length(self.game, &state, self.max_nodes)?;
        (length >= self.min_length).then(|| HardPuzzle::new(state, length))
    }
}

impl<G> ProblemSpace for HardPuzzles<'_, G>
where
    G: Puzzle<State: Hash + Eq + Send + Sync> + Sync,
{
    type Problem = HardPuzzle<G::State>;

    /// A starting puzzle drawn at random, varied.
    fn random(&self, rng: &mut GpRng) -> Self::Problem {
        let start = &self.starts[rng.random_range(0..self.starts.len())];
        self.mutate(start, rng)
    }

    fn mutate(&self, p: &Self::Problem, rng: &mut GpRng) -> Self::Problem {
        (0..TRIES)
            .find_map(|_| self.game.vary_instance(&p.state, rng).and_then(|child| self.checked(child)))
            .unwrap_or_else(|| p.clone())
    }
}

/// The settings of the problem population's breeding.
fn params(h: &HillisSpec) -> HillisParams {
    HillisParams { problems: h.problems, sample: h.sample as usize, mutation: h.mutation, tournament: h.tournament }
}

fn error(message: String, help: &str) -> Diagnostic {
    Diagnostic::error("stratagem::experiment::hillis", message).with_help(help.to_owned())
}

/// The least length of a problem: the experiment's `min-length`, else the
/// shortest of the training puzzles BFS solves.
fn min_length<G>(fitness: &PuzzleFitness<G>, h: &HillisSpec) -> Result<u32, Diagnostic>
where
    G: Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync> + Sync,
{
    if let Some(min) = h.min_length {
        return Ok(min);
    }
    let (_, lengths) = fitness.training();
    lengths.iter().flatten().copied().min().ok_or_else(|| {
        error(
            format!("BFS solves none of the training puzzles within {} nodes", fitness.max_nodes()),
            "raise (max-nodes N), or choose other puzzles",
        )
    })
}

/// The first problem population of `h` (see the module's comment); its
/// random decisions draw from (seed, HILLIS, u64::MAX), and a generated
/// puzzle i from (seed, HILLIS, u64::MAX, i).
pub fn initial_problems<G>(
    fitness: &PuzzleFitness<G>,
    h: &HillisSpec,
    seed: u64,
) -> Result<Vec<HardPuzzle<G::State>>, Vec<Diagnostic>>
where
    G: Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync> + Sync,
{
    let min = min_length(fitness, h).map_err(|d| vec![d])?;
    let (game, max_nodes) = (fitness.game(), fitness.max_nodes());
    let (training, lengths) = fitness.training();
    match h.start {
        ProblemStart::Puzzles => {
            let starts: Vec<HardPuzzle<G::State>> = training
                .iter()
                .zip(lengths)
                .filter_map(|(p, l)| l.filter(|&l| l >= min).map(|l| HardPuzzle::new(p.state.clone(), l)))
                .collect();
            let longest = lengths.iter().flatten().max().copied().unwrap_or(0);
            let space = HardPuzzles::new(game, min, max_nodes, starts).ok_or_else(|| {
                vec![error(
                    format!("no training puzzle is {min} moves long or more (the longest BFS solves is {longest})"),
                    "lower (min-length L), or start from generated puzzles: (start generated)",
                )]
            })?;
            let mut rng = stream(seed, &[HILLIS, u64::MAX]);
            let distinct = h.problems.min(space.starts.len());
            let order = rand::seq::index::sample(&mut rng, space.starts.len(), distinct).into_vec();
            let mut problems: Vec<_> = order.iter().map(|&i| space.starts[i].clone()).collect();
            while problems.len() < h.problems {
                problems.push(space.random(&mut rng));
            }
            Ok(problems)
        }
        ProblemStart::Generated => {
            let like = &training.first().ok_or_else(|| vec![error("no training puzzle".into(), "")])?.state;
            let generated: Vec<Option<HardPuzzle<G::State>>> = (0..h.problems)
                .into_par_iter()
                .map(|i| {
                    let mut rng = stream(seed, &[HILLIS, u64::MAX, i as u64]);
                    let state = game.random_instance(like, min, &mut rng)?;
                    let length = optimal_length(game, &state, max_nodes)?;
                    (length >= min).then(|| HardPuzzle::new(state, length))
                })
                .collect();
            let found: Vec<HardPuzzle<G::State>> = generated.into_iter().flatten().collect();
            if found.len() < h.problems {
                return Err(vec![error(
                    format!(
                        "{} of {} puzzles of {min} moves or more could not be generated",
                        h.problems - found.len(),
                        h.problems
                    ),
                    "lower (min-length L), or start from the training puzzles: (start puzzles)",
                )]);
            }
            Ok(found)
        }
    }
}

/// One generation of the programs against `problems`, then the problems'
/// breeding from their scores (each child apart, [`hillis::breed_problems_apart`]).
pub fn coevolve<G>(
    fitness: &PuzzleFitness<G>,
    engine: &Engine,
    state: &State,
    h: &HillisSpec,
    problems: &mut Vec<HardPuzzle<G::State>>,
    seed: u64,
) -> Option<(State, GenerationStats, Evaluation)>
where
    G: Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync> + Sync,
{
    let co = Coevolution {
        fitness,
        problems,
        sample: h.sample as usize,
        scores: Mutex::new(None),
        programs: Mutex::new(None),
    };
    let (next, mut stats, eval) = engine.step(state, &co);
    let graded = co.scores.lock().ok()?.take()?;
    stats.problems = Some(problem_stats(&graded, problems));
    let min = min_length(fitness, h).ok()?;
    let space = HardPuzzles::new(fitness.game(), min, fitness.max_nodes(), problems.clone())?;
    *problems =
        hillis::breed_problems_apart(&space, problems, &graded.scores.problems, &params(h), state.generation, seed);
    Some((next, stats, eval))
}

/// What the puzzles did in one generation: the share of meetings in which
/// the program saved nodes, the puzzles' best and mean hardness, their mean
/// length.
fn problem_stats<S>(graded: &GradedScores, problems: &[HardPuzzle<S>]) -> ProblemStats {
    let mean = |xs: &mut dyn ExactSizeIterator<Item = f64>| {
        let n = xs.len();
        if n == 0 { 0.0 } else { xs.sum::<f64>() / n as f64 }
    };
    let scores = &graded.scores.problems;
    ProblemStats {
        solved: graded.positive,
        best: scores.iter().copied().fold(0.0, f64::max),
        mean: mean(&mut scores.iter().copied()),
        mean_length: mean(&mut problems.iter().map(|p| f64::from(p.length))),
    }
}

/// The problems as the checkpoint keeps them: `<length> <puzzle>` lines.
pub fn save<G: Puzzle>(game: &G, problems: &[HardPuzzle<G::State>]) -> SavedProblems {
    SavedProblems::Puzzles(problems.iter().map(|p| format!("{} {}", p.length, game.format_state(&p.state))).collect())
}

/// The problems a checkpoint kept: each line must read as a puzzle with
/// its length, which BFS must confirm, of at least the experiment's least
/// length. The error completes "the checkpoint holds ...".
pub fn load<G>(
    fitness: &PuzzleFitness<G>,
    h: &HillisSpec,
    saved: SavedProblems,
) -> Result<Vec<HardPuzzle<G::State>>, String>
where
    G: Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync> + Sync,
{
    let SavedProblems::Puzzles(lines) = saved else {
        return Err("openings, but the experiment's problems are puzzles".into());
    };
    let min = min_length(fitness, h).map_err(|d| d.message)?;
    let game = fitness.game();
    let read = |(i, line): (usize, &String)| {
        let instance =
            game.parse_instance(line).map_err(|e| format!("problem {i}, which is not a puzzle: {}", e.message))?;
        let Some(instance) = instance else { return Err(format!("problem {i}, which is not a puzzle")) };
        let Some(length) = instance.optimal_cost else { return Err(format!("problem {i} without its length")) };
        match optimal_length(game, &instance.state, fitness.max_nodes()) {
            Some(l) if l != length => Err(format!("problem {i} of {length} moves, which BFS solves in {l}")),
            None => Err(format!("problem {i}, which BFS does not solve within {} nodes", fitness.max_nodes())),
            Some(_) if length < min => Err(format!("problem {i} of {length} moves, below the experiment's {min}")),
            Some(_) => Ok(HardPuzzle::new(instance.state, length)),
        }
    };
    // The first bad line is reported, whatever the thread count.
    let read: Vec<Result<_, String>> = lines.iter().enumerate().collect::<Vec<_>>().into_par_iter().map(read).collect();
    read.into_iter().collect()
}

/// The text of the run's boards file ([`super::output::BOARDS_FILE`]):
/// the problems after `generation` generations, `<length> <puzzle>` a line.
pub fn boards_text<G: Puzzle>(game: &G, name: &str, generation: u64, problems: &[HardPuzzle<G::State>]) -> String {
    let mut text = format!(
        "# The coevolved puzzles of `{name}` after {generation} generations: <optimal length> <puzzle>\n\
         # (stratagem solve {} --puzzles FILE reads them)\n",
        game.name()
    );
    for p in problems {
        text.push_str(&format!("{} {}\n", p.length, game.format_state(&p.state)));
    }
    text
}

/// One generation's fitness with puzzles coevolving: each program's mean
/// saving on the puzzles it meets. The grades are kept for breeding the
/// puzzles.
struct Coevolution<'a, G: Puzzle> {
    fitness: &'a PuzzleFitness<G>,
    problems: &'a [HardPuzzle<G::State>],
    sample: usize,
    scores: Mutex<Option<GradedScores>>,
    /// The programs last evaluated, for fitnessless matches.
    programs: Mutex<Option<Population<G>>>,
}

impl<G> Coevolution<'_, G>
where
    G: Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync> + Sync,
{
    /// The saving of `program` on `p`.
    fn grade(&self, program: &NodeProgram<G::State, G::Move>, p: &HardPuzzle<G::State>, longest: u32) -> f64 {
        let id = *p.yardstick.get_or_init(|| self.fitness.id_nodes(&p.state));
        let difficulty = if longest > 0 { f64::from(p.length) / f64::from(longest) } else { 0.0 };
        self.fitness.saving(program, &p.state, difficulty, id).min(FULL)
    }

    fn longest(&self) -> u32 {
        self.problems.iter().map(|p| p.length).max().unwrap_or(0)
    }
}

/// The grades of one population's programs.
struct Grader<'a, 'b, G: Puzzle> {
    co: &'b Coevolution<'a, G>,
    programs: &'b [NodeProgram<G::State, G::Move>],
    longest: u32,
}

impl<G> Graded<HardPuzzle<G::State>> for Grader<'_, '_, G>
where
    G: Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync> + Sync,
{
    fn grade(&self, solver: usize, problem: &HardPuzzle<G::State>) -> f64 {
        self.co.grade(&self.programs[solver], problem, self.longest)
    }
}

impl<G> Fitness for Coevolution<'_, G>
where
    G: Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync> + Sync,
{
    fn evaluate(&self, population: &[Genome], generation: u64, seed: u64) -> Evaluation {
        let programs = Arc::new(self.fitness.compile(population));
        // Each new puzzle's yardstick, all at once.
        self.problems.par_iter().for_each(|p| {
            p.yardstick.get_or_init(|| self.fitness.id_nodes(&p.state));
        });
        let grader = Grader { co: self, programs: &programs, longest: self.longest() };
        let graded = hillis::score_graded(&grader, population.len(), self.problems, self.sample, generation, seed);
        let fitness = graded.scores.solvers.clone();
        if let Ok(mut slot) = self.scores.lock() {
            *slot = Some(graded);
        }
        if let Ok(mut slot) = self.programs.lock() {
            *slot = Some(programs);
        }
        Evaluation { fitness, games: ((population.len() + self.problems.len()) * self.sample) as u64 }
    }

    /// A match is one of the puzzles, drawn from `rng`: the program saving
    /// more nodes wins, a tie is decided by `rng`.
    fn beats(&self, population: &[Genome], a: usize, b: usize, rng: &mut GpRng) -> bool {
        let cached = self.programs.lock().ok().and_then(|p| p.clone()).filter(|p| p.len() == population.len());
        let programs = cached.unwrap_or_else(|| Arc::new(self.fitness.compile(population)));
        if self.problems.is_empty() {
            return rng.random_bool(0.5);
        }
        let p = &self.problems[rng.random_range(0..self.problems.len())];
        let longest = self.longest();
        let (sa, sb) = (self.grade(&programs[a], p, longest), self.grade(&programs[b], p, longest));
        if sa == sb { rng.random_bool(0.5) } else { sa > sb }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::rushhour::{RushHour, parse_board};

    /// Every board a mutation gives is solved by BFS in exactly its stated
    /// length, at least the least length; a parent no change keeps long
    /// enough is kept; a chain of mutations wanders off its start.
    #[test]
    fn mutated_boards_keep_their_stated_length_and_the_least_length() {
        let start = parse_board("IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM").expect("a board");
        let length = optimal_length(&RushHour, &start, 1_000_000).expect("solvable");
        let min = length.saturating_sub(2);
        let space = HardPuzzles::new(&RushHour, min, 1_000_000, vec![HardPuzzle::new(start, length)]).expect("starts");
        let mut rng = stream(8, &[]);
        let mut p = space.random(&mut rng);
        let mut changed = 0;
        for _ in 0..60 {
            let child = space.mutate(&p, &mut rng);
            assert_eq!(optimal_length(&RushHour, &child.state, 1_000_000), Some(child.length), "{:?}", child.state);
            assert!(child.length >= min, "{} < {min}", child.length);
            changed += usize::from(child.state != p.state);
            p = child;
        }
        assert!(changed > 20, "{changed} of 60 mutations changed the board");
        // No board of at least 1,000 moves is near: the parent is kept.
        let strict =
            HardPuzzles::new(&RushHour, 1000, 1_000_000, vec![HardPuzzle::new(start, length)]).expect("starts");
        let kept = strict.mutate(&HardPuzzle::new(start, length), &mut rng);
        assert_eq!((kept.state, kept.length), (start, length));
        assert!(HardPuzzles::new(&RushHour, 1, 1000, Vec::new()).is_none(), "random needs a start");
    }
}
