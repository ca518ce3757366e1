//! The portfolio of searches `solve` runs on one puzzle: the chosen search
//! (BFS, iterative deepening, IDA*, staged deepening) with each guide (one
//! of the puzzle's heuristics, or an evolved program over its primset) in
//! turn, or in rounds of growing node limits.

use std::hash::Hash;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::ValueEnum;

use crate::diagnostic::{Diagnostic, Failure, Sources, suggest_or_list};
use crate::eval::Engine;
use crate::games::Puzzle;
use crate::games::domain::{Binding, GpDomain};
use crate::players::programs::{compile_programs, read_programs};
use crate::search::guided::{NodeProgram, program_ida, program_staged};
use crate::search::puzzle::{Budget, NodeView, Solution, bfs, ida_star, iterative_deepening};
use crate::search::staged::{StagedSettings, staged_deepening};

/// Which search solves the puzzles.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// Breadth-first search (optimal).
    Bfs,
    /// Iterative deepening with a transposition table and move ordering (optimal).
    Id,
    /// IDA* guided by `--heuristic`.
    Ida,
    /// Heineman's staged deepening guided by `--heuristic` (not optimal):
    /// depth-first stages of `--stage-depth` moves from the best state of a
    /// list kept by heuristic value.
    Hsd,
}

impl SearchKind {
    pub fn guided(self) -> bool {
        matches!(self, SearchKind::Ida | SearchKind::Hsd)
    }
}

/// How each puzzle is searched.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The game's preferred search when `None`: staged deepening or BFS.
    pub search: Option<SearchKind>,
    /// Tried in turn on a puzzle the ones before left unsolved; none: the
    /// puzzle's first.
    pub heuristics: Vec<String>,
    pub engine: Engine,
    pub max_nodes: u64,
    /// A portfolio's first round's nodes per heuristic (see [`solve_one`]).
    pub round_nodes: Option<u64>,
    /// Seconds each puzzle's search may take.
    pub time_limit: Option<f64>,
    pub staged: StagedSettings,
    /// `--stage-depth`'s depths: with staged deepening, each guide is
    /// searched at each, in turn (its `depth` is the first).
    pub stage_depths: Vec<u32>,
}

impl Settings {
    /// The search asked for, else the game's preferred one.
    pub fn search_for<G: Puzzle>(&self, game: &G) -> SearchKind {
        self.search.unwrap_or(if game.prefers_staged_deepening() { SearchKind::Hsd } else { SearchKind::Bfs })
    }
}

/// What guides IDA*.
pub enum Guide<S, M> {
    /// One of the puzzle's own heuristics, by index.
    Builtin(usize),
    /// A program over the game's primset, evaluated on search nodes.
    Program(Box<NodeProgram<S, M>>),
}

/// A guide for puzzle `G`.
pub type GuideOf<G> = Guide<<G as crate::games::Game>::State, <G as crate::games::Game>::Move>;

/// One puzzle's search.
pub struct Solved<M> {
    pub moves: Option<Vec<M>>,
    pub nodes: u64,
    pub ms: f64,
}

/// How much larger each round of a portfolio's node limit is than the last.
const ROUND_GROWTH: u64 = 4;

/// Solves one puzzle with the chosen search, with each guide (at each of
/// `--stage-depth`'s depths, for staged deepening) in turn until one solves
/// it (each within the limits); nodes and time add up. With `--round-nodes`
/// and more than one entry, the entries take turns in rounds
/// of growing node limits (a guide whose search ended below its limit, out
/// of states or of time, is not tried again), so an easy solution
/// for a later guide is found before an earlier guide's hard search runs
/// to the end: restarts of the kind that tame heavy-tailed search times.
pub fn solve_one<G>(
    game: &G,
    settings: &Settings,
    search: SearchKind,
    guides: &[Guide<G::State, G::Move>],
    start: &G::State,
    difficulty: f64,
) -> Solved<G::Move>
where
    G: GpDomain + Puzzle<State: Hash + Eq>,
{
    let begun = Instant::now();
    let mut nodes = 0;
    // The portfolio: each guide at each stage depth (one entry a guide
    // unless staged deepening is given several depths).
    let depths = match search {
        SearchKind::Hsd if !settings.stage_depths.is_empty() => &settings.stage_depths[..],
        _ => std::slice::from_ref(&settings.staged.depth),
    };
    let entries: Vec<(&GuideOf<G>, StagedSettings)> = guides
        .iter()
        .flat_map(|guide| depths.iter().map(move |&depth| (guide, StagedSettings { depth, ..settings.staged })))
        .collect();
    let mut limit = match settings.round_nodes {
        Some(first) if entries.len() > 1 => first.min(settings.max_nodes),
        _ => settings.max_nodes,
    };
    let mut ended = vec![false; entries.len()];
    loop {
        for (&entry, ended) in entries.iter().zip(&mut ended).filter(|(_, ended)| !**ended) {
            let found = search_once(game, settings, search, entry, start, difficulty, limit);
            nodes += found.nodes;
            if found.moves.is_some() {
                return Solved { moves: found.moves, nodes, ms: begun.elapsed().as_secs_f64() * 1000.0 };
            }
            *ended = found.nodes < limit;
        }
        if limit >= settings.max_nodes || ended.iter().all(|&e| e) {
            return Solved { moves: None, nodes, ms: begun.elapsed().as_secs_f64() * 1000.0 };
        }
        limit = limit.saturating_mul(ROUND_GROWTH).min(settings.max_nodes);
    }
}

/// One search of `start` guided by `guide` (staged deepening with `staged`), within the limits.
fn search_once<G>(
    game: &G,
    settings: &Settings,
    search: SearchKind,
    (guide, staged): (&GuideOf<G>, StagedSettings),
    start: &G::State,
    difficulty: f64,
    max_nodes: u64,
) -> Solution<G::Move>
where
    G: GpDomain + Puzzle<State: Hash + Eq>,
{
    let budget = Budget {
        max_nodes,
        deadline: settings.time_limit.and_then(|s| Instant::now().checked_add(Duration::from_secs_f64(s))),
    };
    match (search, guide) {
        (SearchKind::Bfs, _) => bfs(game, start, budget.max_nodes),
        (SearchKind::Id, _) => iterative_deepening(game, start, budget),
        (SearchKind::Ida, Guide::Builtin(h)) => {
            ida_star(game, start, |n: NodeView<'_, _, _>| game.heuristic(*h, n.state), budget)
        }
        (SearchKind::Ida, Guide::Program(program)) => program_ida(game, start, program, difficulty, budget),
        (SearchKind::Hsd, Guide::Builtin(h)) => {
            staged_deepening(game, start, |s, _| f64::from(game.heuristic(*h, s)), staged, budget)
        }
        (SearchKind::Hsd, Guide::Program(program)) => program_staged(game, start, program, difficulty, staged, budget),
    }
}

/// The heuristics `--heuristic` names, in order (IDA* and staged
/// deepening; the puzzle's first by default).
pub fn choose_guides<G: GpDomain + Puzzle>(
    game: &G,
    settings: &Settings,
    search: SearchKind,
) -> Result<Vec<GuideOf<G>>, Failure> {
    if settings.heuristics.is_empty() {
        return choose_guide(game, settings, search, None).map(|g| vec![g]);
    }
    settings.heuristics.iter().map(|name| choose_guide(game, settings, search, Some(name))).collect()
}

/// The heuristic `name` names: one of the puzzle's, or `FILE:NAME`, a
/// program of a file; `None`: the puzzle's first.
fn choose_guide<G: GpDomain + Puzzle>(
    game: &G,
    settings: &Settings,
    search: SearchKind,
    name: Option<&String>,
) -> Result<Guide<G::State, G::Move>, Failure> {
    let names = game.heuristic_names();
    match (name, search.guided()) {
        (Some(_), false) => Err(Failure::message(
            "stratagem::solve::heuristic",
            "`--heuristic` guides IDA* and staged deepening only: add `--search ida` or `--search hsd`, or leave \
             the heuristic out",
        )),
        (Some(name), true) if !names.contains(&name.as_str()) && name.contains(':') => {
            let (file, program) = name.rsplit_once(':').unwrap_or((name, ""));
            load_guide(game, Path::new(file), program, settings.engine).map(|p| Guide::Program(Box::new(p)))
        }
        (Some(name), true) => names.iter().position(|n| n == name).map(Guide::Builtin).ok_or_else(|| {
            Failure::new(
                Sources::new(),
                vec![
                    Diagnostic::error(
                        "stratagem::solve::heuristic",
                        format!("{} has no heuristic `{name}`", game.name()),
                    )
                    .with_help(format!(
                        "{}; or a program, FILE:NAME",
                        suggest_or_list(name, names.iter().copied(), "heuristics")
                    )),
                ],
            )
        }),
        (None, true) if names.is_empty() => Err(Failure::message(
            "stratagem::solve::heuristic",
            format!("{} offers no heuristic of its own: give `--heuristic FILE:NAME`", game.name()),
        )),
        (None, _) => Ok(Guide::Builtin(0)),
    }
}

/// Program `name` of `file` (a policy, an individual's `eval` tree or a
/// weight vector), bound to the game's search nodes.
fn load_guide<G: GpDomain>(
    game: &G,
    file: &Path,
    name: &str,
    engine: Engine,
) -> Result<NodeProgram<G::State, G::Move>, Failure> {
    let (loader, ps_id, programs) = read_programs(file, name, false)?;
    let ps = Arc::new(loader.module.primset(ps_id).clone());
    let binding = Arc::new(Binding::for_search(game, &ps).map_err(|d| Failure::new(loader.sources.clone(), d))?);
    let mut programs = compile_programs(ps, binding, programs, engine, name);
    Ok(programs.remove(0))
}
