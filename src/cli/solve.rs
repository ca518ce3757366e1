//! `stratagem solve GAME --puzzles FILE [--search bfs|id|ida] [--heuristic
//! NAME] [--max-nodes N] [--format text|json] [--check]`: solves every
//! puzzle of a file (one per line, in the game's puzzle-line format) and
//! prints, per puzzle, whether it was solved, the solution's length and
//! moves, the nodes expanded and the time; in text, a summary line with
//! puzzles/s and nodes/s. `--check` replays every solution and fails on an
//! illegal one.

use std::hash::Hash;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use clap::ValueEnum;
use rayon::prelude::*;

use super::play::{compile_programs, read_programs};
use super::{Failure, Format, Outcome, game_entry, out, unsupported};
use crate::diagnostic::{Diagnostic, Sources, suggest_or_list};
use crate::games::domain::{Binding, GpDomain};
use crate::games::instances::parse_instances;
use crate::games::registry::PuzzleTask;
use crate::games::{Instance, Puzzle};
use crate::limits::Limit;
use crate::search::guided::{NodeProgram, difficulties, program_ida};
use crate::search::programs::ProgramEngine;
use crate::search::puzzle::{NodeView, Solution, bfs, ida_star, iterative_deepening, replay};

/// Which search solves the puzzles.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// Breadth-first search (optimal).
    Bfs,
    /// Iterative deepening with a transposition table and move ordering (optimal).
    Id,
    /// IDA* guided by `--heuristic`.
    Ida,
}

pub struct SolveArgs {
    pub game: String,
    pub puzzles: PathBuf,
    pub search: SearchKind,
    pub heuristic: Option<String>,
    pub engine: ProgramEngine,
    pub threads: usize,
    pub max_nodes: u64,
    pub format: Format,
    pub check: bool,
}

pub fn run(args: &SolveArgs) -> Outcome {
    struct Solve<'a>(&'a SolveArgs);
    impl PuzzleTask for Solve<'_> {
        type Output = Outcome;
        fn run<
            G: GpDomain + Puzzle<State: Hash + Eq + Send + Sync + 'static, Move: Send + Sync + 'static> + Send + 'static,
        >(
            self,
            game: G,
        ) -> Outcome {
            solve(&game, self.0)
        }
    }
    game_entry(&args.game)?.run_puzzle("`solve`", Solve(args)).map_err(unsupported)?
}

/// What guides IDA*.
enum Guide<S, M> {
    /// One of the puzzle's own heuristics, by index.
    Builtin(usize),
    /// A program over the game's primset, evaluated on search nodes.
    Program(Box<NodeProgram<S, M>>),
}

/// One puzzle's search.
struct Solved<M> {
    moves: Option<Vec<M>>,
    nodes: u64,
    ms: f64,
}

fn solve<G>(game: &G, args: &SolveArgs) -> Outcome
where
    G: GpDomain + Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync>,
{
    let guide = choose_guide(game, args)?;
    let puzzles = read_puzzles(game, args)?;
    let difficulty = difficulties(&puzzles);
    let threads = args.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::message("stratagem::solve::threads", format!("cannot start {threads} threads: {e}")))?;
    let started = Instant::now();
    let (mut n_solved, mut total_nodes) = (0, 0);
    let indexed: Vec<(usize, &Instance<G::State>)> = puzzles.iter().enumerate().collect();
    // Chunks of a few puzzles per thread: results print in file order as
    // each chunk ends.
    for chunk in indexed.chunks(threads * 4) {
        let results: Vec<Solved<G::Move>> = pool.install(|| {
            chunk
                .par_iter()
                .map(|&(index, instance)| solve_one(game, args, &guide, &instance.state, difficulty[index]))
                .collect()
        });
        for (&(index, instance), Solved { moves, nodes, ms }) in chunk.iter().zip(results) {
            let start = &instance.state;
            total_nodes += nodes;
            let texts = moves.as_ref().map(|moves| move_texts(game, start, moves));
            if let (true, Some(moves)) = (args.check, &moves)
                && let Err(at) = replay(game, start, moves)
            {
                return Err(Failure::message(
                    "stratagem::solve::check",
                    format!(
                        "puzzle {}: the solution is not legal at move {} ({})",
                        index + 1,
                        at + 1,
                        texts.as_ref().and_then(|t| t.get(at)).map_or("the goal is not reached", String::as_str)
                    ),
                ));
            }
            n_solved += usize::from(moves.is_some());
            let board = game.format_state(start);
            let line = match args.format {
                Format::Json => serde_json::json!({
                    "index": index + 1,
                    "board": board,
                    "solved": moves.is_some(),
                    "length": texts.as_ref().map(Vec::len),
                    "nodes": nodes,
                    "ms": (ms * 1000.0).round() / 1000.0,
                    "moves": texts.clone().unwrap_or_default(),
                })
                .to_string(),
                Format::Text => {
                    let result = match (&texts, instance.optimal_cost) {
                        (None, _) => "unsolved".to_owned(),
                        (Some(t), Some(best)) if t.len() as u32 != best => {
                            format!("length {} (published {best})", t.len())
                        }
                        (Some(t), _) => format!("length {}", t.len()),
                    };
                    let moves = texts.map(|t| t.join(" ")).unwrap_or_default();
                    format!("{:>5} {board} {result} nodes {nodes} {ms:.2} ms  {moves}", index + 1)
                }
            };
            out(&format!("{line}\n"));
        }
    }
    if args.format == Format::Text {
        let seconds = started.elapsed().as_secs_f64().max(1e-9);
        out(&format!(
            "solved {n_solved} of {} puzzles, {total_nodes} nodes in {seconds:.3} s: {:.1} puzzles/s, {:.0} nodes/s\n",
            puzzles.len(),
            puzzles.len() as f64 / seconds,
            total_nodes as f64 / seconds,
        ));
    }
    Ok(())
}

/// Solves one puzzle with the chosen search.
fn solve_one<G>(
    game: &G,
    args: &SolveArgs,
    guide: &Guide<G::State, G::Move>,
    start: &G::State,
    difficulty: f64,
) -> Solved<G::Move>
where
    G: GpDomain + Puzzle<State: Hash + Eq>,
{
    let begun = Instant::now();
    let Solution { moves, nodes } = match (args.search, guide) {
        (SearchKind::Bfs, _) => bfs(game, start, args.max_nodes),
        (SearchKind::Id, _) => iterative_deepening(game, start, args.max_nodes),
        (SearchKind::Ida, Guide::Builtin(h)) => {
            ida_star(game, start, |n: NodeView<'_, _, _>| game.heuristic(*h, n.state), args.max_nodes)
        }
        (SearchKind::Ida, Guide::Program(program)) => program_ida(game, start, program, difficulty, args.max_nodes),
    };
    Solved { moves, nodes, ms: begun.elapsed().as_secs_f64() * 1000.0 }
}

/// The heuristic `--heuristic` names (IDA* only; the puzzle's first by
/// default): one of the puzzle's, or `FILE:NAME`, a program of a file.
fn choose_guide<G: GpDomain + Puzzle>(game: &G, args: &SolveArgs) -> Result<Guide<G::State, G::Move>, Failure> {
    let names = game.heuristic_names();
    match (&args.heuristic, args.search) {
        (Some(_), SearchKind::Bfs | SearchKind::Id) => Err(Failure::message(
            "stratagem::solve::heuristic",
            "`--heuristic` guides IDA* only: add `--search ida`, or leave the heuristic out",
        )),
        (Some(name), SearchKind::Ida) if !names.contains(&name.as_str()) && name.contains(':') => {
            let (file, program) = name.rsplit_once(':').unwrap_or((name, ""));
            load_guide(game, Path::new(file), program, args.engine).map(|p| Guide::Program(Box::new(p)))
        }
        (Some(name), SearchKind::Ida) => names.iter().position(|n| n == name).map(Guide::Builtin).ok_or_else(|| {
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
        (None, SearchKind::Ida) if names.is_empty() => Err(Failure::message(
            "stratagem::solve::heuristic",
            format!("{} offers no heuristic for IDA*", game.name()),
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
    engine: ProgramEngine,
) -> Result<NodeProgram<G::State, G::Move>, Failure> {
    let (loader, ps_id, programs) = read_programs(file, name, false)?;
    let ps = Arc::new(loader.module.primset(ps_id).clone());
    let binding = Arc::new(Binding::for_search(game, &ps).map_err(|d| Failure::new(loader.sources.clone(), d))?);
    let mut programs = compile_programs(ps, binding, programs, engine, name);
    Ok(programs.remove(0))
}

/// Every puzzle of `--puzzles`, or a diagnostic for each line that is not one.
fn read_puzzles<G: Puzzle>(game: &G, args: &SolveArgs) -> Result<Vec<Instance<G::State>>, Failure> {
    let mut sources = Sources::new();
    let file = sources.load_within(&args.puzzles, Limit::InputSize).map_err(|e| {
        Failure::message("stratagem::solve::file", format!("cannot read `{}`: {e}", args.puzzles.display()))
    })?;
    let text = sources.get(file).text.clone();
    parse_instances(game, file, &text).map_err(|diags| Failure::new(sources, diags))
}

/// The moves in the game's move text, each written in the state it is played in.
fn move_texts<G: Puzzle>(game: &G, start: &G::State, moves: &[G::Move]) -> Vec<String> {
    let mut state = start.clone();
    moves
        .iter()
        .map(|mv| {
            let text = game.format_move(&state, mv);
            state = game.apply(&state, mv);
            text
        })
        .collect()
}
