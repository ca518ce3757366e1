//! The prover against GGP-Base: every game of ../shared/gdl that has both
//! reference files, `perft/NAME.json` and `traces/NAME.jsonl` (the game is
//! `games/NAME.kif` or `tests/NAME.kif`), is compiled through the library as
//! `stratagem gdl perft|trace` compile it, and its perft rows (depth, nodes,
//! distinct_states, terminal, terminal_distinct; not ms) and its traces (byte
//! for byte, seed by seed) are compared with the reference. A new pair of
//! reference files is a new case.
//!
//! What is compared fits a time budget per game, from measured costs: perft
//! depth 0 (one evaluation of the initial state) always, then depth after
//! depth while the time of the previous one and the reference's growth in
//! states say the next fits, then seeds in order while the time per step
//! measured so far says the next one fits. Cheap games are compared in full,
//! expensive ones as far as the budget goes; one line per game says what was
//! compared (`-- --nocapture` shows them). `STRATAGEM_GDL_REFERENCE=full`
//! compares everything, best in a release build:
//! `STRATAGEM_GDL_REFERENCE=full cargo test --release --test gdl_reference -- --nocapture`;
//! `STRATAGEM_GDL_GAMES=hex,peg` compares only those games.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;
use stratagem::diagnostic::Sources;
use stratagem::gdl::perft::Depth;
use stratagem::gdl::{EngineChoice, Machine, Validation};

const GDL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/gdl");

/// Time per game for perft, and for traces.
const PERFT_BUDGET: Duration = Duration::from_millis(500);
const TRACE_BUDGET: Duration = Duration::from_millis(800);
/// States one perft call may hold per depth (the CLI's bound).
const MAX_STATES: usize = 50_000_000;
/// Differing seeds shown line by line, per game; the others are listed.
const SEEDS_SHOWN: usize = 3;
/// As `stratagem gdl trace` and the reference.
const MAX_STEPS: usize = 500;

/// Games not compiled in a debug build, with the cost measured there.
const SKIPPED_IN_DEBUG: &[(&str, &str)] =
    &[("sudoku", "loading it takes about 8 s in a debug build (1.2 s in release), a third of the whole test's time")];

/// Games whose traces are known to differ from GGP-Base's, and why
/// (docs/GDL.md). The test fails when one of them matches, so that it is
/// taken off this list.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[(
    "test_case_3f",
    "the unsafe `(<= (goal ?p 100) (on_list ?p))`: GGP-Base reports goals [null, 0, null], Stratagem binds \
         ?p to each role and reports [100, 0, 100]",
)];

struct Game {
    name: String,
    kif: PathBuf,
    perft: Vec<Depth>,
    perft_stop: String,
    /// The reference lines of each seed, newline-terminated, in order.
    seeds: BTreeMap<u64, Vec<String>>,
    /// Seeds the reference trace stops in the middle of (not compared).
    incomplete: Vec<u64>,
}

/// The games with both reference files, sorted by name.
fn games() -> Vec<Game> {
    let root = Path::new(GDL);
    let mut names: Vec<String> = std::fs::read_dir(root.join("perft"))
        .expect("../shared/gdl/perft")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_owned))
        .filter(|name| root.join("traces").join(format!("{name}.jsonl")).is_file())
        .collect();
    names.sort();
    names.into_iter().map(|name| load(root, name)).collect()
}

fn load(root: &Path, name: String) -> Game {
    let kif = ["games", "tests"]
        .iter()
        .map(|dir| root.join(dir).join(format!("{name}.kif")))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{name}: reference files but no games/{name}.kif or tests/{name}.kif"));
    let text = std::fs::read_to_string(root.join("perft").join(format!("{name}.json"))).expect("perft file");
    let json: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: perft file: {e}"));
    let field = |row: &Value, key: &str| {
        row[key].as_u64().unwrap_or_else(|| panic!("{name}: perft row without `{key}`: {row}"))
    };
    let perft = json["depths"]
        .as_array()
        .unwrap_or_else(|| panic!("{name}: perft file without depths"))
        .iter()
        .map(|row| Depth {
            depth: field(row, "depth") as usize,
            nodes: field(row, "nodes"),
            distinct_states: field(row, "distinct_states") as usize,
            terminal: field(row, "terminal"),
            terminal_distinct: field(row, "terminal_distinct") as usize,
            ms: field(row, "ms"),
        })
        .collect();
    let perft_stop = json["stop_reason"].as_str().unwrap_or_default().to_owned();
    let text = std::fs::read_to_string(root.join("traces").join(format!("{name}.jsonl"))).expect("trace file");
    let mut seeds: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let json: Value = match serde_json::from_str(line) {
            Ok(json) => json,
            // GGP-Base's time ran out while it wrote the last line.
            Err(_) if i + 1 == lines.len() => break,
            Err(e) => panic!("{name}: trace line {}: {e}\n{line}", i + 1),
        };
        let seed = json["seed"].as_u64().unwrap_or_else(|| panic!("{name}: trace line without seed: {line}"));
        seeds.entry(seed).or_default().push(format!("{line}\n"));
    }
    // A seed is whole when it has its final line; a cut one is left out.
    let mut incomplete = Vec::new();
    seeds.retain(|seed, lines| {
        let whole = lines.last().is_some_and(|l| l.contains("\"terminal\":"));
        if !whole {
            incomplete.push(*seed);
        }
        whole
    });
    Game { name, kif, perft, perft_stop, seeds, incomplete }
}

fn full() -> bool {
    std::env::var("STRATAGEM_GDL_REFERENCE").is_ok_and(|v| v == "full")
}

/// Compiles `path` as the running commands do (what GGP-Base's prover runs).
fn compile(path: &Path, engine: EngineChoice) -> Result<Machine, String> {
    let mut sources = Sources::new();
    let file = sources.load(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = sources.get(file).text.clone();
    stratagem::gdl::compile(file, &text, Validation::Lenient, engine)
        .map(|(machine, _warnings)| machine)
        .map_err(|diags| sources.render_plain(&diags))
}

/// The perft row as the reference writes it, without the time.
fn row_text(d: &Depth) -> String {
    format!(
        "depth {}: nodes {}, distinct_states {}, terminal {}, terminal_distinct {}",
        d.depth, d.nodes, d.distinct_states, d.terminal, d.terminal_distinct
    )
}

/// Work to count depths 0..=`depth`, in state evaluations: every distinct
/// state is loaded and tested for terminal, and every joint move of a
/// non-terminal one gives a next state (estimated from the node counts).
fn perft_work(reference: &[Depth], depth: usize) -> f64 {
    let mut work = 0.0;
    for k in 0..=depth.min(reference.len() - 1) {
        let row = &reference[k];
        work += row.distinct_states as f64;
        if k < depth
            && let Some(next) = reference.get(k + 1)
        {
            let open = (row.nodes - row.terminal).max(1) as f64;
            let open_distinct = (row.distinct_states - row.terminal_distinct) as f64;
            work += open_distinct * next.nodes as f64 / open;
        }
    }
    work.max(1.0)
}

/// What was compared for one game, and what differed.
#[derive(Default)]
struct Outcome {
    compared: Vec<String>,
    failures: Vec<String>,
}

/// Compares perft depths 0, 1, ... while the next depth is predicted to fit
/// the budget; returns the measured time per state evaluation.
fn compare_perft(game: &Game, machine: &Machine, out: &mut Outcome) -> Option<f64> {
    let reference = &game.perft;
    let started = Instant::now();
    let (mut per_unit, mut measured) = (0.0, None);
    let (mut compared, mut stop) = (0, String::new());
    for depth in 0..reference.len() {
        // Depth 0 always: one evaluation of the initial state, which costs
        // at most about the compile time (compiling evaluates it too).
        let predicted = per_unit * perft_work(reference, depth);
        if depth > 0 && !full() && started.elapsed().as_secs_f64() + predicted > PERFT_BUDGET.as_secs_f64() {
            break;
        }
        let clock = Instant::now();
        let ours = match stratagem::gdl::perft::perft(machine, depth, MAX_STATES) {
            Ok((rows, reason)) => {
                stop = reason;
                rows
            }
            Err(e) => {
                out.failures.push(format!("perft --depth {depth}: prover error: {e}"));
                break;
            }
        };
        per_unit = clock.elapsed().as_secs_f64() / perft_work(reference, depth);
        measured = Some(per_unit);
        for (i, theirs) in reference.iter().take(depth + 1).enumerate() {
            match ours.get(i) {
                Some(row) if row_text(row) == row_text(theirs) => {}
                Some(row) => out.failures.push(format!(
                    "perft depth {i} differs:\n  reference: {}\n  ours:      {}",
                    row_text(theirs),
                    row_text(row)
                )),
                None => out.failures.push(format!(
                    "perft stops before depth {i}:\n  reference: {}\n  ours:      (no row)",
                    row_text(theirs)
                )),
            }
        }
        if ours.len() > depth + 1 {
            out.failures.push(format!("perft --depth {depth} gives {} rows", ours.len()));
        }
        compared = depth + 1;
        if !out.failures.is_empty() {
            break;
        }
    }
    // Where every node of the reference's last depth is terminal, so must
    // every node of ours be.
    if compared == reference.len() && game.perft_stop.starts_with("exhausted") && stop != game.perft_stop {
        out.failures.push(format!(
            "perft --depth {} stops differently:\n  reference: {}\n  ours:      {stop}",
            compared - 1,
            game.perft_stop
        ));
    }
    out.compared.push(match compared {
        0 => "perft: none".to_owned(),
        n if n == reference.len() => format!("perft: all {n} depths"),
        n => format!("perft: depths 0-{} of 0-{}", n - 1, reference.len() - 1),
    });
    measured
}

/// Compares seeds in order while the next one is predicted to fit.
fn compare_traces(game: &Game, machine: &Machine, per_state: f64, out: &mut Outcome) {
    let started = Instant::now();
    // A trace step evaluates a state and its next state.
    let mut per_step = 2.0 * per_state;
    let (mut seeds, mut steps, mut differing) = (Vec::new(), 0usize, Vec::new());
    for (&seed, lines) in &game.seeds {
        let predicted = per_step * lines.len() as f64;
        if !full() && started.elapsed().as_secs_f64() + predicted > TRACE_BUDGET.as_secs_f64() {
            break;
        }
        let mut ours = String::new();
        if let Err(e) = stratagem::gdl::trace::trace(machine, seed, MAX_STEPS, &mut ours) {
            out.failures.push(format!("seed {seed}: prover error: {e}"));
            break;
        }
        seeds.push(seed);
        steps += lines.len();
        per_step = started.elapsed().as_secs_f64() / steps as f64;
        let theirs = lines.concat();
        if ours != theirs {
            differing.push(seed);
        }
        if ours != theirs && differing.len() <= SEEDS_SHOWN {
            let ours_lines: Vec<&str> = ours.lines().collect();
            let (i, reference_line) = lines
                .iter()
                .map(|l| l.trim_end())
                .enumerate()
                .find(|(i, l)| ours_lines.get(*i) != Some(l))
                .unwrap_or((lines.len(), "(end of the trace)"));
            let our_line = ours_lines.get(i).copied().unwrap_or("(end of the trace)");
            out.failures.push(format!(
                "seed {seed}: line {} of the seed differs:\n  reference: {reference_line}\n  ours:      {our_line}",
                i + 1
            ));
        }
    }
    if differing.len() > SEEDS_SHOWN {
        out.failures.push(format!("seeds {:?} differ too", &differing[SEEDS_SHOWN..]));
    }
    out.compared.push(match seeds.as_slice() {
        [] => "traces: none".to_owned(),
        s if s.len() == game.seeds.len() => format!("traces: all {} seeds ({steps} lines)", s.len()),
        s => format!("traces: seeds {}-{} of {} ({steps} lines)", s[0], s[s.len() - 1], game.seeds.len()),
    });
    if !game.incomplete.is_empty() {
        out.compared.push(format!("the reference stops inside seed {:?}", game.incomplete));
    }
}

#[test]
fn perft_and_traces_match_ggp_base() {
    compare_with_reference(EngineChoice::Prover);
}

/// The same comparison on the compiled engine, for every game that grounds
/// and compiles within the budgets (the others are listed as not compiled).
#[test]
fn compiled_engine_matches_ggp_base() {
    compare_with_reference(EngineChoice::Compiled);
}

fn compare_with_reference(engine: EngineChoice) {
    let started = Instant::now();
    let games = games();
    assert!(games.len() >= 50, "only {} games with reference files in {GDL}", games.len());
    let only = std::env::var("STRATAGEM_GDL_GAMES").unwrap_or_default();
    let only: Vec<&str> = only.split(',').filter(|s| !s.is_empty()).collect();
    let known: BTreeMap<&str, &str> = KNOWN_DIFFERENCES.iter().copied().collect();
    let mut report = String::new();
    let (mut failed, mut known_failed, mut now_match) = (Vec::new(), Vec::new(), Vec::new());
    for game in games.iter().filter(|g| only.is_empty() || only.contains(&g.name.as_str())) {
        let clock = Instant::now();
        if cfg!(debug_assertions)
            && !full()
            && let Some((_, why)) = SKIPPED_IN_DEBUG.iter().find(|(name, _)| *name == game.name)
        {
            let _ = writeln!(report, "{:<38} skipped: {why}", game.name);
            continue;
        }
        let machine = match compile(&game.kif, engine) {
            Ok(machine) => machine,
            Err(diags) if engine == EngineChoice::Compiled && diags.contains("cannot be compiled") => {
                let why = diags.lines().find(|l| l.contains("cannot be compiled")).unwrap_or_default().trim();
                let _ = writeln!(report, "{:<38} not compiled: {why}", game.name);
                continue;
            }
            Err(diags) => {
                failed.push(format!("{}: does not compile:\n{diags}", game.name));
                let _ = writeln!(report, "{:<38} DOES NOT COMPILE", game.name);
                continue;
            }
        };
        let compiled = clock.elapsed();
        let mut outcome = Outcome::default();
        let per_state = compare_perft(game, &machine, &mut outcome);
        compare_traces(game, &machine, per_state.unwrap_or(compiled.as_secs_f64()), &mut outcome);
        let verdict = match (outcome.failures.is_empty(), known.get(game.name.as_str())) {
            (true, None) => "ok",
            (true, Some(_)) => {
                now_match.push(game.name.clone());
                "MATCHES (listed as a known difference)"
            }
            (false, Some(why)) => {
                known_failed.push(format!("{}: {why}", game.name));
                "known difference"
            }
            (false, None) => {
                failed.push(format!("{}: {}", game.name, outcome.failures.join(&format!("\n{}: ", game.name))));
                "DIFFERS"
            }
        };
        let _ = writeln!(
            report,
            "{:<38} {verdict}: compiled in {:.2} s; {}; {:.2} s in all",
            game.name,
            compiled.as_secs_f64(),
            outcome.compared.join("; "),
            clock.elapsed().as_secs_f64()
        );
    }
    eprintln!("{report}{} games in {:.1} s", games.len(), started.elapsed().as_secs_f64());
    if !known_failed.is_empty() {
        eprintln!("known differences from GGP-Base:\n  {}", known_failed.join("\n  "));
    }
    assert!(failed.is_empty(), "{} games differ from GGP-Base:\n\n{}", failed.len(), failed.join("\n\n"));
    assert!(now_match.is_empty(), "these games now match GGP-Base; take them off KNOWN_DIFFERENCES: {now_match:?}");
}
