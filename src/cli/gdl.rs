//! `stratagem gdl check|perft|trace|playouts GAME.kif`: GDL games read as
//! they are, checked, and reasoned over with the prover. Output formats are
//! those of the reference data (../shared/gdl/README.md in the workspace).
//!
//! `check` fails on any validation error; `perft`, `trace` and `playouts`
//! also run the games GGP-Base's validator rejects but its prover runs, with
//! those errors shown as warnings ([`gdl::compile`] holds the policy).

use std::path::{Path, PathBuf};

use clap::{Subcommand, ValueEnum};

use super::{Failure, Format, Outcome, out, print_warnings};
use crate::diagnostic::Sources;
use crate::gdl::{self, EngineChoice, Machine, Validation};
use crate::limits::Limit;

#[derive(Subcommand, Debug)]
pub enum GdlCommand {
    /// Read and validate a game: roles, relations, rules and strata, or diagnostics.
    Check {
        game: PathBuf,
        /// The engine to build as well as the prover (default: the prover
        /// alone; with `--propnet`, auto).
        #[arg(long, value_enum)]
        engine: Option<EngineChoice>,
        /// Also ground the game and report the size of its ground program
        /// (atoms, rules, literals) before and after static facts are folded.
        #[arg(long)]
        propnet: bool,
    },
    /// Count joint-move sequences, distinct and terminal states at depths 0..=D (JSON).
    Perft {
        game: PathBuf,
        #[arg(long)]
        depth: u32,
        #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
        engine: EngineChoice,
        /// How names are compared: `insensitive` as the GDL specification
        /// says, `sensitive` as GGP-Base (and `ggp serve`) reads a game.
        #[arg(long, value_enum, default_value_t = GdlCase::Insensitive)]
        case: GdlCase,
    },
    /// Deterministic playouts as JSON lines (the reference trace format).
    Trace {
        game: PathBuf,
        /// Seeds, as A-B or a single number.
        #[arg(long, value_name = "A-B", value_parser = parse_seeds)]
        seeds: (u64, u64),
        #[arg(long, default_value_t = 500)]
        max_steps: usize,
        #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
        engine: EngineChoice,
        /// How names are compared: `insensitive` as the GDL specification
        /// says, `sensitive` as GGP-Base (and `ggp serve`) reads a game.
        #[arg(long, value_enum, default_value_t = GdlCase::Insensitive)]
        case: GdlCase,
    },
    /// Uniformly random playouts for S seconds: playouts/s, expansions/s, mean length and goals.
    Playouts {
        game: PathBuf,
        /// How long to play, in seconds (0 or more).
        #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
        seconds: f64,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
        engine: EngineChoice,
        /// How names are compared: `insensitive` as the GDL specification
        /// says, `sensitive` as GGP-Base (and `ggp serve`) reads a game.
        #[arg(long, value_enum, default_value_t = GdlCase::Insensitive)]
        case: GdlCase,
        /// On the compiled engine, play one game at a time rather than 64 at once
        /// (bit-sliced): the speed of single-state reasoning, as search uses it.
        #[arg(long)]
        one_at_a_time: bool,
    },
}

/// How a game's names are compared ([`gdl::Case`]).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GdlCase {
    /// `timeOut` and `timeout` are one name (the GDL specification).
    Insensitive,
    /// `timeOut` and `timeout` are two names (GGP-Base; `ggp serve`).
    Sensitive,
}

impl GdlCase {
    fn case(self) -> gdl::Case {
        match self {
            GdlCase::Insensitive => gdl::Case::Insensitive,
            GdlCase::Sensitive => gdl::Case::Sensitive,
        }
    }
}

fn parse_seeds(text: &str) -> Result<(u64, u64), String> {
    let (a, b) = text.split_once('-').unwrap_or((text, text));
    let parse = |s: &str| s.trim().parse::<u64>().map_err(|_| format!("`{s}` is not a seed (expected A-B, e.g. 1-20)"));
    let (a, b) = (parse(a)?, parse(b)?);
    if a > b {
        return Err(format!("the range {a}-{b} is empty"));
    }
    Ok((a, b))
}

/// Loads and compiles the game at `path`; warnings, and which engine it
/// runs on, go to stderr. `check` validates strictly, the commands that run
/// the game run what GGP-Base's prover runs ([`gdl::compile`] has the policy).
fn load(path: &Path, validation: Validation, engine: EngineChoice, case: GdlCase) -> Result<Machine, Failure> {
    let mut sources = Sources::new();
    let file = sources
        .load_within(path, Limit::InputSize)
        .map_err(|e| Failure::message("stratagem::io", format!("cannot read `{}`: {e}", path.display())))?;
    let text = sources.get(file).text.clone();
    match gdl::compile_as(file, &text, validation, engine, case.case(), None) {
        Ok((machine, warnings)) => {
            print_warnings(&sources, &warnings);
            if engine != EngineChoice::Prover {
                eprintln!("{}: engine: {}", path.display(), machine.engine_note);
            }
            Ok(machine)
        }
        Err(diags) => Err(Failure::new(sources, diags)),
    }
}

fn prover_failure(path: &Path, e: gdl::prover::ProverError) -> Failure {
    Failure::message("stratagem::gdl::prover", format!("{}: {e}", path.display()))
}

pub fn run(command: GdlCommand) -> Outcome {
    match command {
        GdlCommand::Check { game, engine, propnet } => check(&game, engine, propnet),
        GdlCommand::Perft { game, depth, engine, case } => perft(&game, depth, engine, case),
        GdlCommand::Trace { game, seeds, max_steps, engine, case } => trace(&game, seeds, max_steps, engine, case),
        GdlCommand::Playouts { game, seconds, seed, format, engine, case, one_at_a_time } => {
            playouts(&game, seconds, seed, format, engine, case, one_at_a_time)
        }
    }
}

/// `gdl check`: the game validated strictly, and its sizes.
fn check(game: &Path, engine: Option<EngineChoice>, propnet: bool) -> Outcome {
    let engine = engine.unwrap_or(if propnet { EngineChoice::Auto } else { EngineChoice::Prover });
    let machine = load(game, Validation::Strict, engine, GdlCase::Insensitive)?;
    let plan = machine.plan();
    let recursive = plan.strata.iter().filter(|s| s.recursive).count();
    out(&format!(
        "{}: {} roles ({}), {} relations, {} rules, {} strata ({} recursive)\n",
        game.display(),
        machine.roles().len(),
        machine.role_names().join(" "),
        plan.relations.len(),
        plan.rules.len(),
        plan.strata.len(),
        recursive
    ));
    if propnet {
        print_propnet_sizes(game)?;
    }
    Ok(())
}

/// `gdl check --propnet`: the sizes of the ground program and of the
/// propositional network, before and after optimisation.
fn print_propnet_sizes(game: &Path) -> Outcome {
    let started = std::time::Instant::now();
    let grounding = gdl::ground::ground_file(game).map_err(|diags| Failure::new(Sources::new(), diags))?;
    let (before, after) = (grounding.sizes(), grounding.folded_sizes());
    let grounded = started.elapsed().as_secs_f64();
    let net = gdl::propnet::Propnet::new(&grounding);
    let optimised = net.optimised();
    let (raw, small) = (net.size(), optimised.size());
    out(&format!(
        "ground program: {} atoms, {} rules, {} literals; static facts folded: {} atoms, {} rules, {} literals ({grounded:.2} s)\n\
         propnet: {} gates ({} and, {} or, {} not), {} edges; optimised: {} gates ({} and, {} or, {} not), {} edges ({:.2} s in all)\n",
        before.atoms,
        before.rules,
        before.literals,
        after.atoms,
        after.rules,
        after.literals,
        raw.gates,
        raw.and,
        raw.or,
        raw.not,
        raw.edges,
        small.gates,
        small.and,
        small.or,
        small.not,
        small.edges,
        started.elapsed().as_secs_f64()
    ));
    if let Some(why) = &grounding.goals_left_out {
        out(&format!("goals: not in the network, the prover answers them ({why})\n"));
    }
    Ok(())
}

/// `gdl perft`: the states and joint moves at each depth, as JSON.
fn perft(game: &Path, depth: u32, engine: EngineChoice, case: GdlCase) -> Outcome {
    Limit::PerftDepth
        .check(u64::from(depth), &format!("`--depth {depth}`"))
        .map_err(|e| Failure::message("stratagem::limit", e))?;
    let machine = load(game, Validation::Lenient, engine, case)?;
    let (depths, stop_reason) =
        gdl::perft::perft(&machine, depth as usize, 50_000_000).map_err(|e| prover_failure(game, e))?;
    let report = gdl::perft::Perft {
        game: game.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
        source: game.display().to_string(),
        roles: machine.role_names(),
        depths,
        stop_reason,
    };
    out(&format!("{}\n", serde_json::to_string(&report).unwrap_or_default()));
    Ok(())
}

/// `gdl trace`: one random game per seed of `seeds`.
fn trace(game: &Path, (a, b): (u64, u64), max_steps: usize, engine: EngineChoice, case: GdlCase) -> Outcome {
    let machine = load(game, Validation::Lenient, engine, case)?;
    for seed in a..=b {
        let mut text = String::new();
        gdl::trace::trace(&machine, seed, max_steps, &mut text).map_err(|e| prover_failure(game, e))?;
        out(&text);
    }
    Ok(())
}

/// `gdl playouts`: random games for `seconds`, and the engine's speed.
fn playouts(
    game: &Path,
    seconds: f64,
    seed: u64,
    format: Format,
    engine: EngineChoice,
    case: GdlCase,
    one_at_a_time: bool,
) -> Outcome {
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(Failure::message(
            "stratagem::gdl::seconds",
            format!("`--seconds {seconds}` is not a duration: give a number of seconds, 0 or more"),
        ));
    }
    let machine = load(game, Validation::Lenient, engine, case)?;
    let speed =
        gdl::playouts::playouts(&machine, seconds, seed, !one_at_a_time).map_err(|e| prover_failure(game, e))?;
    if let Some(note) = &speed.note {
        eprintln!("{}: {note}", game.display());
    }
    match format {
        Format::Json => out(&format!("{}\n", serde_json::to_string(&speed).unwrap_or_default())),
        Format::Text => out(&format!(
            "{}: {} playouts in {seconds} s ({} at a time): {:.1} playouts/s, {:.0} expansions/s, mean length {:.1}, mean goals {}\n",
            game.display(),
            speed.playouts,
            speed.lanes,
            speed.playouts_per_s,
            speed.expansions_per_s,
            speed.mean_length,
            speed
                .mean_goals
                .iter()
                .map(|g| g.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}")))
                .collect::<Vec<_>>()
                .join(" ")
        )),
    }
    Ok(())
}
