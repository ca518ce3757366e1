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
//! A puzzle that prefers staged deepening ([`Puzzle::prefers_staged_deepening`],
//! FreeCell) is scored as GA-FreeCell scores deals (seeds/001 section
//! 3.3.4): each program guides staged deepening, and the yardstick is the
//! same search guided by the puzzle's own heuristic 0 (HSDH), its nodes
//! computed once per puzzle; an unsolved search counts as
//! [`UNSOLVED_NODES`]. See [`reduction_score`].
//!
//! With `(fitness (hillis ...))` the puzzles coevolve instead
//! (`hard_puzzles.rs`); this fitness lends them its programs and searches.

use std::hash::Hash;
use std::sync::{Arc, Mutex, OnceLock};

use rand::RngExt;
use rayon::prelude::*;

use super::engine::{Evaluation, Fitness, PUZZLES, VALIDATE};
use super::genome::{Genome, Representation};
use crate::cluster;
use crate::eval::Engine;
use crate::games::domain::{Binding, SearchNode};
use crate::games::{Instance, Puzzle};
use crate::lang::PrimSet;
use crate::rng::{GpRng, stream};
use crate::search::guided::{NodeProgram, difficulties, program_ida, program_staged};
use crate::search::programs::GpProgram;
use crate::search::puzzle::{bfs, iterative_deepening};
use crate::search::staged::{StagedSettings, staged_deepening};

/// The nodes an unsolved search counts as (GA-FreeCell: "a value of 1000M
/// nodes was assigned to it").
pub const UNSOLVED_NODES: u64 = 1_000_000_000;

/// GA-FreeCell's score of one deal (seeds/001 section 3.3.4), from the
/// program's nodes (`None` when it did not solve the deal) and the
/// yardstick's (HSDH's, [`UNSOLVED_NODES`] when it did not solve it):
///
/// - solved with fewer nodes: the node-reduction ratio, 1 − nodes ÷ yardstick;
/// - solved without reduction: max{(1 − FractionExcessNodes) ÷ 1000, 0},
///   FractionExcessNodes = (nodes − yardstick) ÷ yardstick truncated to 1,
///   so a program that solves, however slowly, still beats one that does
///   not, and never a program that reduces;
/// - unsolved: 0.
pub fn reduction_score(nodes: Option<u64>, yardstick: u64) -> f64 {
    let Some(nodes) = nodes else { return 0.0 };
    if yardstick == 0 {
        return 0.0;
    }
    let (n, y) = (nodes as f64, yardstick as f64);
    if n < y {
        1.0 - n / y
    } else {
        let excess = ((n - y) / y).min(1.0);
        ((1.0 - excess) / 1000.0).max(0.0)
    }
}

/// How a meeting of a program and a puzzle is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// GP-Rush: IDA* guided by the program against iterative deepening, in
    /// percent of ID's nodes saved.
    IdaSavings,
    /// GA-FreeCell: staged deepening guided by the program against staged
    /// deepening guided by the puzzle's heuristic 0 ([`reduction_score`]).
    StagedReduction,
}

/// What evolves and how its programs are evaluated.
pub struct NodePrograms<S, M> {
    pub ps: Arc<PrimSet>,
    pub binding: Arc<Binding<SearchNode<S, M>>>,
    pub rep: Representation,
    /// Index of the `eval` tree in a tree genome.
    pub eval_slot: usize,
    pub engine: Engine,
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
    /// Staged deepening's settings (k from the experiment).
    staged: StagedSettings,
    scoring: Scoring,
    /// The yardstick's nodes per puzzle (iterative deepening's, or HSDH's
    /// under [`Scoring::StagedReduction`]), computed on first use.
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
        staged: StagedSettings,
    ) -> Self {
        let difficulty = difficulties(&puzzles);
        let yardstick = puzzles.iter().map(|_| OnceLock::new()).collect();
        let scoring = if game.prefers_staged_deepening() { Scoring::StagedReduction } else { Scoring::IdaSavings };
        PuzzleFitness {
            scoring,
            game,
            programs,
            puzzles,
            difficulty,
            per_generation,
            max_nodes,
            staged,
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

    /// How meetings are scored.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The yardstick's nodes on puzzle `i` (see [`PuzzleFitness::yardstick_nodes`]).
    pub(super) fn yardstick(&self, i: usize) -> u64 {
        *self.yardstick[i].get_or_init(|| self.yardstick_nodes(&self.puzzles[i].state))
    }

    /// The yardstick's nodes on `state`: iterative deepening's (the budget
    /// when unsolved), or under [`Scoring::StagedReduction`] staged
    /// deepening's guided by the puzzle's heuristic 0 ([`UNSOLVED_NODES`]
    /// when unsolved).
    pub(super) fn yardstick_nodes(&self, state: &G::State) -> u64 {
        match self.scoring {
            Scoring::IdaSavings => self.id_nodes(state),
            Scoring::StagedReduction => {
                let h = |s: &G::State, _: u32| f64::from(self.game.heuristic(0, s));
                let found = staged_deepening(&self.game, state, h, self.staged, self.max_nodes);
                if found.moves.is_some() { found.nodes } else { UNSOLVED_NODES }
            }
        }
    }

    /// Iterative deepening's nodes on `state` (the budget when unsolved).
    pub(super) fn id_nodes(&self, state: &G::State) -> u64 {
        let found = iterative_deepening(&self.game, state, self.max_nodes);
        if found.moves.is_some() { found.nodes } else { self.max_nodes }
    }

    /// The score of `program` on puzzle `i`.
    fn score(&self, program: &NodeProgram<G::State, G::Move>, i: usize) -> f64 {
        match self.scoring {
            Scoring::IdaSavings => self.saving(program, &self.puzzles[i].state, self.difficulty[i], self.yardstick(i)),
            Scoring::StagedReduction => {
                let nodes = self.staged_nodes(program, &self.puzzles[i].state, self.yardstick(i));
                reduction_score(nodes, self.yardstick(i))
            }
        }
    }

    /// Staged deepening guided by `program` on training puzzle `i`: its
    /// nodes (`None` when it did not solve it, or not within twice the
    /// yardstick's nodes) and its score ([`reduction_score`]).
    pub(super) fn staged_meeting(&self, program: &NodeProgram<G::State, G::Move>, i: usize) -> (Option<u64>, f64) {
        let yard = self.yardstick(i);
        let nodes = self.staged_nodes(program, &self.puzzles[i].state, yard).filter(|&n| n < yard.saturating_mul(2));
        (nodes, reduction_score(nodes, yard))
    }

    /// The nodes of staged deepening guided by `program` on `state`, `None`
    /// when it does not solve it within the budget. It stops at twice the
    /// yardstick's `hsdh` nodes: past them a solution scores 0 as no
    /// solution does (FractionExcessNodes is 1), so stopping changes no
    /// score and bounds each generation's work.
    pub(super) fn staged_nodes(
        &self,
        program: &NodeProgram<G::State, G::Move>,
        state: &G::State,
        hsdh: u64,
    ) -> Option<u64> {
        let limit = self.max_nodes.min(hsdh.saturating_mul(2));
        let found = program_staged(&self.game, state, program, 0.0, self.staged, limit);
        found.moves.map(|_| found.nodes)
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
        // The searches are the generation's work, spread over the threads
        // and, under MPI, the ranks (src/cluster); every rank keeps every
        // yardstick, as one process does.
        let missing: Vec<usize> = puzzles.iter().copied().filter(|&i| self.yardstick[i].get().is_none()).collect();
        let counts: Vec<u64> = cluster::map(missing.len(), |j| self.yardstick(missing[j]));
        for (&i, nodes) in missing.iter().zip(counts) {
            let _ = self.yardstick[i].set(nodes);
        }
        let jobs: Vec<(usize, usize)> =
            (0..programs.len()).flat_map(|m| puzzles.iter().map(move |&i| (m, i))).collect();
        let scores: Vec<f64> = cluster::map(jobs.len(), |j| self.score(&programs[jobs[j].0], jobs[j].1));
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
        let programs = NodePrograms { ps: ps.clone(), binding, rep: rep.clone(), eval_slot: 0, engine: Engine::Jit };
        let fitness = PuzzleFitness::new(RushHour, programs, puzzles.clone(), 10, 100_000, StagedSettings::default());
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

    /// GA-FreeCell's per-deal score (seeds/001 section 3.3.4), case by case.
    #[test]
    fn reduction_score_follows_the_paper() {
        // Fewer nodes than HSDH: the reduction ratio.
        assert_eq!(reduction_score(Some(250), 1000), 0.75);
        // HSDH unsolved (1000M) and the program solves in 500M: 50%.
        assert_eq!(reduction_score(Some(500_000_000), UNSOLVED_NODES), 0.5);
        // Solved, no reduction: (1 − FractionExcessNodes) / 1000.
        assert_eq!(reduction_score(Some(1000), 1000), 1.0 / 1000.0);
        assert_eq!(reduction_score(Some(1500), 1000), 0.5 / 1000.0);
        // FractionExcessNodes is truncated to 1: twice HSDH's nodes or more score 0.
        assert_eq!(reduction_score(Some(2000), 1000), 0.0);
        assert_eq!(reduction_score(Some(9000), 1000), 0.0);
        // Unsolved: 0, whatever HSDH did.
        assert_eq!(reduction_score(None, 1000), 0.0);
        assert_eq!(reduction_score(None, UNSOLVED_NODES), 0.0);
        // Any reduction beats any partial score.
        assert!(reduction_score(Some(999), 1000) > reduction_score(Some(1000), 1000));
    }

    /// On FreeCell a program is scored by staged deepening against HSDH,
    /// each deal as [`reduction_score`] says, computed here the long way;
    /// HSDH as a program scores exactly what HSDH does (no reduction).
    #[test]
    fn freecell_fitness_is_the_mean_reduction_against_hsdh() {
        use crate::games::freecell::FreeCell;
        let game = FreeCell;
        let deals: Vec<Instance<_>> = [1u32, 2, 3]
            .iter()
            .map(|&n| Instance { state: game.numbered_instance(n).expect("a deal"), optimal_cost: None })
            .collect();
        let ps = Arc::new(load_primset("freecell").expect("shipped primset"));
        let binding = Arc::new(Binding::for_search(&game, &ps).expect("binds"));
        let terms = crate::lang::forms::weighable_terminals(&ps);
        let rep = Representation::Weights { terms: terms.clone(), ga: crate::evolve::ga::GaParams::default() };
        let mut hsdh = vec![0.0; terms.len()];
        hsdh[0] = 1.0;
        let population = vec![Genome::Weights(hsdh), Genome::Weights(vec![0.5; terms.len()])];
        let programs = NodePrograms { ps: ps.clone(), binding, rep: rep.clone(), eval_slot: 0, engine: Engine::Interp };
        let max_nodes = 10_000;
        let fitness = PuzzleFitness::new(game, programs, deals.clone(), 10, max_nodes, StagedSettings::default());
        assert_eq!(fitness.scoring(), Scoring::StagedReduction);
        let got = fitness.evaluate(&population, 0, 1);
        for (g, &f) in population.iter().zip(&got.fitness) {
            let program = GpProgram::new(ps.clone(), fitness.programs.binding.clone(), g.program(&rep, &ps, 0));
            let expected: f64 = deals
                .iter()
                .map(|d| {
                    let h = |s: &_, _: u32| f64::from(game.heuristic(0, s));
                    let base = staged_deepening(&game, &d.state, h, StagedSettings::default(), max_nodes);
                    let yard = if base.moves.is_some() { base.nodes } else { UNSOLVED_NODES };
                    let found = program_staged(&game, &d.state, &program, 0.0, StagedSettings::default(), max_nodes);
                    let nodes = found.moves.map(|_| found.nodes).filter(|&n| n < 2 * yard);
                    reduction_score(nodes, yard)
                })
                .sum::<f64>()
                / 3.0;
            assert_eq!(f.to_bits(), expected.to_bits(), "{g:?}");
        }
    }
}
