//! `stratagem solve GAME (--puzzles FILE | --deals LIST) [--search
//! bfs|id|ida|hsd] [--heuristic NAME|FILE:NAME]... [--max-nodes N]
//! [--time-limit S] [--format text|json] [--check]`: solves every puzzle of a
//! file (one per line, in the game's puzzle-line format) or every numbered
//! instance of a list (a game's numbered deals) and prints, per puzzle, whether it
//! was solved, the solution's length and moves, the nodes and the time; in
//! text, a summary line. Moves are written step by step as the game lists
//! them (automatic moves too, where the game makes them). `--check`
//! replays every solution from its text, step by step, and fails on an
//! illegal one.

use std::collections::BTreeMap;
use std::hash::Hash;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use clap::ValueEnum;

use super::perft::text_failure;
use super::{Failure, Format, Outcome, game_entry, out, unsupported};
use crate::diagnostic::{Diagnostic, Sources, suggest_or_list};
use crate::eval::Engine;
use crate::games::domain::{Binding, GpDomain};
use crate::games::instances::parse_instances;
use crate::games::registry::PuzzleTask;
use crate::games::{Instance, Puzzle};
use crate::limits::Limit;
use crate::players::programs::{compile_programs, read_programs};
use crate::search::guided::{NodeProgram, difficulties, program_ida, program_staged};
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
    fn guided(self) -> bool {
        matches!(self, SearchKind::Ida | SearchKind::Hsd)
    }
}

/// Where the puzzles come from.
pub enum PuzzleSource {
    /// A file, one puzzle a line.
    File(PathBuf),
    /// Numbered instances (a game's deals), as `--deals` lists them.
    Numbers(String),
}

pub struct SolveArgs {
    pub game: String,
    pub puzzles: PuzzleSource,
    /// The game's preferred search when `None`: staged deepening or BFS.
    pub search: Option<SearchKind>,
    /// Tried in turn on a puzzle the ones before left unsolved; none: the
    /// puzzle's first.
    pub heuristics: Vec<String>,
    pub engine: Engine,
    pub threads: usize,
    pub max_nodes: u64,
    /// A portfolio's first round's nodes per heuristic (see [`solve_one`]).
    pub round_nodes: Option<u64>,
    /// Seconds each puzzle's search may take.
    pub time_limit: Option<f64>,
    pub staged: StagedSettings,
    /// `--stage-depth`'s depths: with staged deepening, each guide is
    /// searched at each, in turn (its `depth` is the first).
    pub stage_depths: Vec<u32>,
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

/// A guide for puzzle `G`.
type GuideOf<G> = Guide<<G as crate::games::Game>::State, <G as crate::games::Game>::Move>;

/// One puzzle's search.
struct Solved<M> {
    moves: Option<Vec<M>>,
    nodes: u64,
    ms: f64,
}

/// What a result line names a puzzle by.
#[derive(Clone, Copy)]
enum Label {
    /// Its line's place among the file's puzzles, from 1.
    Index(usize),
    /// Its number (a deal).
    Number(u32),
}

/// The puzzles to solve, read ahead of time (a file) or made as they are
/// reached (numbered instances, so `1-32000` costs nothing up front).
enum Puzzles<S> {
    File(Vec<Instance<S>>, Vec<f64>),
    Numbers(Vec<RangeInclusive<u32>>),
}

impl<S> Puzzles<S> {
    fn len(&self) -> u64 {
        match self {
            Puzzles::File(p, _) => p.len() as u64,
            Puzzles::Numbers(ranges) => ranges.iter().map(|r| u64::from(r.end() - r.start()) + 1).sum(),
        }
    }

    /// Puzzle `i` (from 0) with its label and difficulty, made when asked
    /// for; `None` past the end, or for a number the game has no instance
    /// of.
    fn get<G: Puzzle<State = S>>(&self, game: &G, mut i: u64) -> Option<(Label, Instance<S>, f64)>
    where
        S: Clone,
    {
        match self {
            Puzzles::File(puzzles, difficulty) => {
                let at = usize::try_from(i).ok()?;
                let p = puzzles.get(at)?;
                Some((
                    Label::Index(at),
                    Instance { state: p.state.clone(), optimal_cost: p.optimal_cost },
                    difficulty[at],
                ))
            }
            Puzzles::Numbers(ranges) => {
                for r in ranges {
                    let size = u64::from(r.end() - r.start()) + 1;
                    if i < size {
                        let n = r.start() + i as u32;
                        let state = game.numbered_instance(n)?;
                        return Some((Label::Number(n), Instance { state, optimal_cost: None }, 0.0));
                    }
                    i -= size;
                }
                None
            }
        }
    }
}

/// How far ahead of the first puzzle whose result is not yet printed the
/// threads may go (per thread), so a slow puzzle does not make the results
/// after it pile up without bound.
const AHEAD: u64 = 4096;

fn solve<G>(game: &G, args: &SolveArgs) -> Outcome
where
    G: GpDomain + Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync>,
{
    let search = args.search.unwrap_or(if game.prefers_staged_deepening() { SearchKind::Hsd } else { SearchKind::Bfs });
    let guides = choose_guides(game, args, search)?;
    let puzzles = read_puzzles(game, args)?;
    let threads = args.threads.max(1);
    let started = Instant::now();
    let (mut n_solved, mut total_nodes, mut total_steps) = (0u64, 0u64, 0u64);
    let n = puzzles.len();
    // Each thread takes the next puzzle as it finishes one; this thread
    // prints the results in order as they come in.
    let next = AtomicU64::new(0);
    let printed = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let printing = std::thread::scope(|scope| -> Outcome {
        let (sender, results) = mpsc::channel();
        for _ in 0..threads {
            let sender = sender.clone();
            let (next, printed, stop, puzzles, guides) = (&next, &printed, &stop, &puzzles, &guides);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    while i >= printed.load(Ordering::Acquire) + AHEAD * threads as u64 && !stop.load(Ordering::Relaxed)
                    {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    // Solved, written out step by step and (with `--check`)
                    // replayed here, so the printing thread only prints.
                    let result = puzzles.get(game, i).map(|(label, instance, difficulty)| {
                        let Solved { moves, nodes, ms } =
                            solve_one(game, args, search, guides, &instance.state, difficulty);
                        let steps = moves.map(|moves| solution_steps(game, &instance.state, &moves));
                        let checked = match (&steps, args.check) {
                            (Some(steps), true) => game.check_steps(&instance.state, steps),
                            _ => Ok(()),
                        };
                        (label, instance, steps, nodes, ms, checked)
                    });
                    if sender.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut pending = BTreeMap::new();
        let mut want = 0;
        for (i, result) in results {
            pending.insert(i, result);
            while let Some(result) = pending.remove(&want) {
                want += 1;
                printed.store(want, Ordering::Release);
                let Some((label, instance, steps, nodes, ms, checked)) = result else { continue };
                total_nodes += nodes;
                if let (Err((at, why)), Some(steps)) = (checked, &steps) {
                    stop.store(true, Ordering::Relaxed);
                    let name = match label {
                        Label::Index(i) => format!("puzzle {}", i + 1),
                        Label::Number(n) => format!("deal {n}"),
                    };
                    return Err(Failure::message(
                        "stratagem::solve::check",
                        format!("{name}: the solution is not legal at step {} of {}: {why}", at + 1, steps.len()),
                    ));
                }
                n_solved += u64::from(steps.is_some());
                total_steps += steps.as_ref().map_or(0, |s| s.len() as u64);
                let line = result_line(game, args.format, label, &instance, steps, nodes, ms);
                out(&format!("{line}\n"));
            }
        }
        Ok(())
    });
    printing?;
    if args.format == Format::Text {
        let seconds = started.elapsed().as_secs_f64().max(1e-9);
        let n = puzzles.len();
        out(&format!(
            "solved {n_solved} of {n} puzzles, {total_nodes} nodes in {seconds:.3} s: {:.1} puzzles/s, {:.0} nodes/s, \
             mean length {:.1}\n",
            n as f64 / seconds,
            total_nodes as f64 / seconds,
            if n_solved == 0 { 0.0 } else { total_steps as f64 / n_solved as f64 },
        ));
    }
    Ok(())
}

/// One puzzle's result as `--format` writes it.
fn result_line<G: Puzzle>(
    game: &G,
    format: Format,
    label: Label,
    instance: &Instance<G::State>,
    steps: Option<Vec<String>>,
    nodes: u64,
    ms: f64,
) -> String {
    let start = &instance.state;
    let ms = (ms * 1000.0).round() / 1000.0;
    match format {
        Format::Json => {
            let mut line = serde_json::Map::new();
            match label {
                Label::Index(i) => {
                    line.insert("index".into(), (i + 1).into());
                    line.insert("board".into(), game.format_instance(start).into());
                }
                Label::Number(n) => {
                    line.insert("deal".into(), n.into());
                }
            }
            line.insert("solved".into(), steps.is_some().into());
            line.insert("length".into(), steps.as_ref().map(Vec::len).into());
            line.insert("nodes".into(), nodes.into());
            line.insert("ms".into(), ms.into());
            line.insert("moves".into(), steps.unwrap_or_default().into());
            serde_json::Value::Object(line).to_string()
        }
        Format::Text => {
            let result = match (&steps, instance.optimal_cost) {
                (None, _) => "unsolved".to_owned(),
                (Some(t), Some(best)) if t.len() as u32 != best => format!("length {} (published {best})", t.len()),
                (Some(t), _) => format!("length {}", t.len()),
            };
            let steps = steps.map(|t| t.join(" ")).unwrap_or_default();
            match label {
                Label::Index(i) => {
                    format!("{:>5} {} {result} nodes {nodes} {ms:.2} ms  {steps}", i + 1, game.format_instance(start))
                }
                Label::Number(n) => format!("deal {n:>5} {result} nodes {nodes} {ms:.2} ms  {steps}"),
            }
        }
    }
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
fn solve_one<G>(
    game: &G,
    args: &SolveArgs,
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
        SearchKind::Hsd if !args.stage_depths.is_empty() => &args.stage_depths[..],
        _ => std::slice::from_ref(&args.staged.depth),
    };
    let entries: Vec<(&GuideOf<G>, StagedSettings)> = guides
        .iter()
        .flat_map(|guide| depths.iter().map(move |&depth| (guide, StagedSettings { depth, ..args.staged })))
        .collect();
    let mut limit = match args.round_nodes {
        Some(first) if entries.len() > 1 => first.min(args.max_nodes),
        _ => args.max_nodes,
    };
    let mut ended = vec![false; entries.len()];
    loop {
        for (&entry, ended) in entries.iter().zip(&mut ended).filter(|(_, ended)| !**ended) {
            let found = search_once(game, args, search, entry, start, difficulty, limit);
            nodes += found.nodes;
            if found.moves.is_some() {
                return Solved { moves: found.moves, nodes, ms: begun.elapsed().as_secs_f64() * 1000.0 };
            }
            *ended = found.nodes < limit;
        }
        if limit >= args.max_nodes || ended.iter().all(|&e| e) {
            return Solved { moves: None, nodes, ms: begun.elapsed().as_secs_f64() * 1000.0 };
        }
        limit = limit.saturating_mul(ROUND_GROWTH).min(args.max_nodes);
    }
}

/// One search of `start` guided by `guide` (staged deepening with `staged`), within the limits.
fn search_once<G>(
    game: &G,
    args: &SolveArgs,
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
        deadline: args.time_limit.and_then(|s| Instant::now().checked_add(Duration::from_secs_f64(s))),
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
fn choose_guides<G: GpDomain + Puzzle>(
    game: &G,
    args: &SolveArgs,
    search: SearchKind,
) -> Result<Vec<GuideOf<G>>, Failure> {
    if args.heuristics.is_empty() {
        return choose_guide(game, args, search, None).map(|g| vec![g]);
    }
    args.heuristics.iter().map(|name| choose_guide(game, args, search, Some(name))).collect()
}

/// The heuristic `name` names: one of the puzzle's, or `FILE:NAME`, a
/// program of a file; `None`: the puzzle's first.
fn choose_guide<G: GpDomain + Puzzle>(
    game: &G,
    args: &SolveArgs,
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
            load_guide(game, Path::new(file), program, args.engine).map(|p| Guide::Program(Box::new(p)))
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

/// Every puzzle of `--puzzles`, or a diagnostic for each line that is not
/// one; or the numbers `--deals` lists, or a diagnostic pointing into the
/// list.
fn read_puzzles<G: Puzzle>(game: &G, args: &SolveArgs) -> Result<Puzzles<G::State>, Failure> {
    let mut sources = Sources::new();
    match &args.puzzles {
        PuzzleSource::File(path) => {
            let file = sources.load_within(path, Limit::InputSize).map_err(|e| {
                Failure::message("stratagem::solve::file", format!("cannot read `{}`: {e}", path.display()))
            })?;
            let text = sources.get(file).text.clone();
            let puzzles = parse_instances(game, file, &text).map_err(|diags| Failure::new(sources, diags))?;
            let difficulty = difficulties(&puzzles);
            Ok(Puzzles::File(puzzles, difficulty))
        }
        PuzzleSource::Numbers(list) => match game.parse_numbers(list) {
            None => Err(Failure::message(
                "stratagem::solve::deals",
                format!("{} has no numbered puzzles: give a file with `--puzzles FILE`", game.name()),
            )),
            Some(Ok(ranges)) => Ok(Puzzles::Numbers(ranges)),
            Some(Err(e)) => Err(text_failure("stratagem::solve::deals", "--deals", list, e)),
        },
    }
}

/// The solution written out step by step, each step in the state it is
/// played in.
fn solution_steps<G: Puzzle>(game: &G, start: &G::State, moves: &[G::Move]) -> Vec<String> {
    let mut state = start.clone();
    moves
        .iter()
        .flat_map(|mv| {
            let steps = game.move_steps(&state, mv);
            state = game.apply(&state, mv);
            steps
        })
        .collect()
}
