//! Fitness from solving puzzles, as GP-Rush scores it (seeds/000 section 4):
//! "for each solved board we assigned to the individual a score equal to the
//! percentage of nodes reduced, compared to searching with no heuristics.
//! For unsolved boards this score was 0. Scores were averaged over 10
//! randomly selected boards from the training set."
//!
//! Each generation draws N training puzzles (the same for every member, so
//! members compete on equal terms); a member's program guides IDA* on each
//! within the node budget, and scores 100 × (1 − its nodes ÷ ID's nodes),
//! at least 0 (a search that expands more than ID saves nothing), 0 when
//! unsolved. Iterative deepening's counts, the yardstick, are computed once
//! per puzzle; a puzzle ID does not solve within the budget counts the
//! budget as ID's nodes. A search stops at ID's count: past it, it scores 0
//! whether it solves the puzzle or not, so stopping changes no score and
//! bounds each generation's work.
//!
//! With `(fitness (hillis ...))` the puzzles coevolve instead
//! (`hard_puzzles.rs`); this fitness lends them its programs and searches.

use std::hash::Hash;
use std::sync::{Arc, Mutex, OnceLock};

use rand::RngExt;
use rayon::prelude::*;

use super::engine::{Evaluation, Fitness, PUZZLES, VALIDATE};
use super::genome::{Genome, Representation};
use crate::games::domain::{Binding, SearchNode};
use crate::games::{Instance, Puzzle};
use crate::lang::PrimSet;
use crate::rng::{GpRng, stream};
use crate::search::guided::{NodeProgram, difficulties, program_ida};
use crate::search::programs::{GpProgram, ProgramEngine};
use crate::search::puzzle::{bfs, iterative_deepening};

/// What evolves and how its programs are evaluated.
pub struct NodePrograms<S, M> {
    pub ps: Arc<PrimSet>,
    pub binding: Arc<Binding<SearchNode<S, M>>>,
    pub rep: Representation,
    /// Index of the `eval` tree in a tree genome.
    pub eval_slot: usize,
    pub engine: ProgramEngine,
}

/// The programs of one population, shared with fitnessless matches.
pub(super) type Population<G> =
    Arc<Vec<NodeProgram<<G as crate::games::Game>::State, <G as crate::games::Game>::Move>>>;

/// Scores a population by the nodes its programs save IDA*.
pub struct PuzzleFitness<G: Puzzle> {
    game: G,
    programs: NodePrograms<G::State, G::Move>,
    puzzles: Vec<Instance<G::State>>,
    /// Each puzzle's DifficultyLevel within the training set.
    difficulty: Vec<f64>,
    /// Puzzles drawn per generation.
    per_generation: usize,
    max_nodes: u64,
    /// Iterative deepening's nodes per puzzle, computed on first use.
    yardstick: Vec<OnceLock<u64>>,
    /// BFS's optimal length per puzzle, computed on first use (coevolution).
    lengths: OnceLock<Vec<Option<u32>>>,
    /// The programs of the population last evaluated (for fitnessless matches).
    last: Mutex<Option<Population<G>>>,
    /// Programs the JIT could not compile, with the reason (they are interpreted).
    pub fallbacks: Mutex<Vec<String>>,
}

impl<G> PuzzleFitness<G>
where
    G: Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync> + Sync,
{
    /// `puzzles` must not be empty (the experiment's file holds at least one).
    pub fn new(
        game: G,
        programs: NodePrograms<G::State, G::Move>,
        puzzles: Vec<Instance<G::State>>,
        per_generation: usize,
        max_nodes: u64,
    ) -> Self {
        let difficulty = difficulties(&puzzles);
        let yardstick = puzzles.iter().map(|_| OnceLock::new()).collect();
        PuzzleFitness {
            game,
            programs,
            puzzles,
            difficulty,
            per_generation,
            max_nodes,
            yardstick,
            lengths: OnceLock::new(),
            last: Mutex::new(None),
            fallbacks: Mutex::new(Vec::new()),
        }
    }

    /// The training puzzles.
    pub fn puzzles(&self) -> usize {
        self.puzzles.len()
    }

    /// The puzzle.
    pub(super) fn game(&self) -> &G {
        &self.game
    }

    /// Nodes each search may expand.
    pub(super) fn max_nodes(&self) -> u64 {
        self.max_nodes
    }

    /// The training puzzles and their optimal lengths by BFS (`None` when
    /// BFS does not solve one within the budget), computed on first use.
    pub(super) fn training(&self) -> (&[Instance<G::State>], &[Option<u32>]) {
        let lengths = self.lengths.get_or_init(|| {
            self.puzzles
                .par_iter()
                .map(|p| bfs(&self.game, &p.state, self.max_nodes).moves.map(|m| m.len() as u32))
                .collect()
        });
        (&self.puzzles, lengths)
    }

    /// The programs of `population`, JIT-compiled as one population when enabled.
    pub(super) fn compile(&self, population: &[Genome]) -> Vec<NodeProgram<G::State, G::Move>> {
        let p = &self.programs;
        let programs = population.iter().map(|g| g.program(&p.rep, &p.ps, p.eval_slot)).collect();
        GpProgram::population(&p.ps, &p.binding, programs, p.engine, &self.fallbacks)
    }

    /// `count` distinct puzzles (all of them when there are fewer), drawn from `rng`.
    fn draw(&self, rng: &mut GpRng, count: usize) -> Vec<usize> {
        let n = self.puzzles.len();
        if count >= n {
            return (0..n).collect();
        }
        rand::seq::index::sample(rng, n, count).into_vec()
    }

    /// Iterative deepening's nodes on puzzle `i` (the budget when unsolved).
    fn yardstick(&self, i: usize) -> u64 {
        *self.yardstick[i].get_or_init(|| self.id_nodes(&self.puzzles[i].state))
    }

    /// Iterative deepening's nodes on `state` (the budget when unsolved).
    pub(super) fn id_nodes(&self, state: &G::State) -> u64 {
        let found = iterative_deepening(&self.game, state, self.max_nodes);
        if found.moves.is_some() { found.nodes } else { self.max_nodes }
    }

    /// The percentage of ID's nodes `program` saves on puzzle `i`.
    fn score(&self, program: &NodeProgram<G::State, G::Move>, i: usize) -> f64 {
        self.saving(program, &self.puzzles[i].state, self.difficulty[i], self.yardstick(i))
    }

    /// The percentage of ID's `id` nodes `program` saves on `state`, whose
    /// DifficultyLevel is `difficulty`: 0 when it does not solve it.
    pub(super) fn saving(
        &self,
        program: &NodeProgram<G::State, G::Move>,
        state: &G::State,
        difficulty: f64,
        id: u64,
    ) -> f64 {
        // A search that expands as many nodes as ID saves nothing, solved or
        // not: it stops there, which bounds a generation's work by ID's.
        let limit = self.max_nodes.min(id);
        let found = program_ida(&self.game, state, program, difficulty, limit);
        match found.moves {
            Some(_) if id > 0 => (100.0 * (1.0 - found.nodes as f64 / id as f64)).max(0.0),
            _ => 0.0,
        }
    }

    /// The mean score of each of `programs` on `puzzles`.
    fn mean_scores(&self, programs: &[NodeProgram<G::State, G::Move>], puzzles: &[usize]) -> Vec<f64> {
        puzzles.par_iter().for_each(|&i| {
            self.yardstick(i);
        });
        let jobs: Vec<(usize, usize)> =
            (0..programs.len()).flat_map(|m| puzzles.iter().map(move |&i| (m, i))).collect();
        let scores: Vec<f64> = jobs.par_iter().map(|&(m, i)| self.score(&programs[m], i)).collect();
        scores.chunks(puzzles.len().max(1)).map(|c| c.iter().sum::<f64>() / c.len() as f64).collect()
    }

    /// The mean score of `candidates` on `count` puzzles drawn for round `round`.
    pub fn validate(&self, candidates: &[(u64, &Genome)], count: u32, round: u64, seed: u64) -> Vec<f64> {
        let chosen: Vec<Genome> = candidates.iter().map(|&(_, g)| g.clone()).collect();
        let programs = self.compile(&chosen);
        let puzzles = self.draw(&mut stream(seed, &[VALIDATE, round]), count as usize);
        self.mean_scores(&programs, &puzzles)
    }
}

impl<G> Fitness for PuzzleFitness<G>
where
    G: Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync> + Sync,
{
    fn evaluate(&self, population: &[Genome], generation: u64, seed: u64) -> Evaluation {
        let programs = self.compile(population);
        let puzzles = self.draw(&mut stream(seed, &[PUZZLES, generation]), self.per_generation);
        let fitness = self.mean_scores(&programs, &puzzles);
        if let Ok(mut last) = self.last.lock() {
            *last = Some(Arc::new(programs));
        }
        Evaluation { fitness, games: (population.len() * puzzles.len()) as u64 }
    }

    /// A match is one puzzle drawn from `rng`: the program saving more
    /// nodes wins, a tie is decided by `rng`.
    fn beats(&self, population: &[Genome], a: usize, b: usize, rng: &mut GpRng) -> bool {
        let cached = self.last.lock().ok().and_then(|l| l.clone()).filter(|p| p.len() == population.len());
        let programs = cached.unwrap_or_else(|| Arc::new(self.compile(population)));
        let i = self.draw(rng, 1)[0];
        let (sa, sb) = (self.score(&programs[a], i), self.score(&programs[b], i));
        if sa == sb { rng.random_bool(0.5) } else { sa > sb }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::init::{Builder, Method};
    use crate::games::rushhour::{RushHour, parse_board};
    use crate::lang::TypeId;
    use crate::lang::library::load_primset;
    use crate::search::puzzle::iterative_deepening;

    /// A fitness is the mean over the drawn puzzles of the nodes saved
    /// against ID, in percent, computed here the long way.
    #[test]
    fn fitness_is_the_mean_percentage_of_nodes_saved() {
        let boards = [
            "ooBoooooBoooAABoooooCoooooCooooooooo",
            "BBBCCIoDDDHIoFAAHooFoGHooFoGEEoooooo",
            "BBBCCHoooGoHAAoGooFDDEEEFoooooFooooo",
        ];
        let puzzles: Vec<Instance<_>> =
            boards.iter().map(|b| Instance { state: parse_board(b).expect("board"), optimal_cost: None }).collect();
        let ps = Arc::new(load_primset("rush-hour").expect("shipped primset"));
        let binding = Arc::new(Binding::for_search(&RushHour, &ps).expect("binds"));
        let rep = Representation::Trees(vec![("eval".into(), TypeId::F)]);
        let builder = Builder::new(&ps, &[TypeId::F]).expect("buildable");
        let mut rng = stream(11, &[]);
        let population: Vec<Genome> =
            (0..6).map(|_| Genome::Trees(vec![builder.tree(&mut rng, TypeId::F, Method::Grow, 4)])).collect();
        let programs =
            NodePrograms { ps: ps.clone(), binding, rep: rep.clone(), eval_slot: 0, engine: ProgramEngine::Jit };
        let fitness = PuzzleFitness::new(RushHour, programs, puzzles.clone(), 10, 100_000);
        let got = fitness.evaluate(&population, 0, 1);
        assert_eq!(got.games, 6 * 3, "every program on every puzzle (fewer than 10)");
        let difficulty = difficulties(&puzzles);
        for (g, &f) in population.iter().zip(&got.fitness) {
            let program = GpProgram::new(ps.clone(), fitness.programs.binding.clone(), g.program(&rep, &ps, 0));
            let expected: f64 = puzzles
                .iter()
                .zip(&difficulty)
                .map(|(p, &d)| {
                    let id = iterative_deepening(&RushHour, &p.state, 100_000).nodes as f64;
                    let found = program_ida(&RushHour, &p.state, &program, d, 100_000);
                    if found.moves.is_some() { (100.0 * (1.0 - found.nodes as f64 / id)).max(0.0) } else { 0.0 }
                })
                .sum::<f64>()
                / 3.0;
            assert_eq!(f.to_bits(), expected.to_bits(), "{g:?}");
        }
        assert!(got.fitness.iter().any(|&f| f > 0.0), "some program saves nodes: {:?}", got.fitness);
    }
}
