//! The command line: argument parsing and the subcommands. Only this module
//! turns diagnostics into exit codes: 0 on success, 1 on any error in the input
//! (diagnostics on stderr), never a panic.

pub mod batch;
mod cca_report;
mod check;
mod eval;
mod evolve;
mod export;
mod fmt;
mod games;
mod gdl;
mod generate;
mod ggp;
mod moves;
mod perft;
mod play;
mod play_roles;
mod solve;
mod tournament;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

pub use crate::diagnostic::Failure;
use crate::diagnostic::{Diagnostic, Sources, has_errors};
pub use crate::eval::Engine;
use crate::games::registry;
use crate::search::staged::StagedSettings;

#[derive(Parser, Debug)]
#[command(name = "stratagem", version, about = "A language and toolkit for evolved game-playing programs")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Raise or lower a resource limit for this run, e.g. `--limit input-size=256M`
    /// (repeatable). Limits: input-size, csv-size, nesting, games, search-depth,
    /// perft-depth, games-per-generation, foreign-time, foreign-memory,
    /// ggp-message (docs/RELIABILITY.md).
    #[arg(long = "limit", value_name = "NAME=VALUE", global = true, value_parser = crate::limits::parse_setting)]
    pub limits: Vec<crate::limits::LimitSetting>,
    /// Load contest players written in C (`c:FILE.c`) into this process, for
    /// speed, instead of running each in a sandboxed child process: only for
    /// code you trust (docs/RELIABILITY.md, "Foreign programs").
    #[arg(long, global = true)]
    pub trust_c_players: bool,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Type-check programs and print one summary line per form.
    Check {
        /// Program files (.sg).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Rewrite programs in the canonical layout (comments are kept).
    Fmt {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// List the files that would change and exit 1 if any, without writing.
        #[arg(long)]
        check: bool,
    },
    /// Write a program out for use outside Stratagem: simplified S-expressions,
    /// or C or Rust source (a whole player program where the game has a
    /// contest format for one; other programs as functions over their
    /// feature values).
    Export {
        /// The program file that defines NAME.
        file: PathBuf,
        /// The individual, policy or weight vector to export.
        #[arg(long = "individual", value_name = "NAME")]
        name: String,
        /// `sexp`, `c` or `rust` (anything else is a diagnostic with a suggestion).
        #[arg(long, value_name = "sexp|c|rust")]
        format: String,
        /// Write here (atomically) instead of to stdout.
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
    },
    /// Evaluate an individual, policy or weight vector on each row of a CSV table.
    Eval {
        /// The program file that defines NAME.
        file: PathBuf,
        /// The individual, policy or weight vector to evaluate.
        #[arg(long = "individual", value_name = "NAME")]
        name: String,
        /// CSV table; its header names the terminals.
        #[arg(long, value_name = "ROWS.csv")]
        rows: PathBuf,
        /// Evaluate only this tree of a multi-tree individual.
        #[arg(long)]
        tree: Option<String>,
        #[arg(long, value_enum, default_value_t = Engine::Auto)]
        engine: Engine,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Run an experiment: evolve players, with a progress bar, a JSON-lines log,
    /// an SVG plot, checkpoints, and champions as readable programs. Without a
    /// file, runs the shipped quickstart experiment.
    Evolve {
        /// The program file holding the (experiment ...) form.
        file: Option<PathBuf>,
        /// Which experiment of the file, when it holds several.
        #[arg(long)]
        experiment: Option<String>,
        /// Overrides the experiment's seed.
        #[arg(long)]
        seed: Option<u64>,
        /// Output directory (default: runs/NAME).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Worker threads (default: one per core); results do not depend on it.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
        threads: Option<u64>,
        /// Continue the run saved in DIR.
        #[arg(long, value_name = "DIR")]
        resume: Option<PathBuf>,
        /// Stop after N generations (continue later with --resume).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        stop_after: Option<u64>,
    },
    /// An interactive session: positions, moves, and programs evaluated on them.
    Repl {
        /// Program files to load first.
        files: Vec<PathBuf>,
    },
    /// Evaluate every tree of a gpbench file (`<set> <size> <index> <sexp>` lines,
    /// over the `arith` primset) on a CSV table; print sums and throughput.
    Batch {
        #[arg(long, value_name = "TREES.sexp")]
        trees: PathBuf,
        #[arg(long, value_name = "ROWS.csv")]
        rows: PathBuf,
        #[arg(long, value_enum, default_value_t = Engine::Auto)]
        engine: Engine,
        /// Evaluate every tree this many times (for timing); sums come from the first pass.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        repeat: u32,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Compare covering runs (`(fitness (cca ...))`) of one experiment across
    /// seeds, as seeds/004 reports them: means with 95% confidence intervals
    /// of teacher-set sizes (figure 3), of scores against random evaluation
    /// by teacher rank and depth (figures 4 and 5, from runs with
    /// `(versus-random G)`), and undominated generations per role with
    /// Student's t-test between the roles (figure 6).
    CcaReport {
        /// Run folders written by `stratagem evolve`.
        #[arg(required = true)]
        runs: Vec<PathBuf>,
        /// Write figures 3 and 4 here as teachers.svg and versus-random.svg.
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// List the games: name, kind, roles and the shipped primsets that bind to each.
    Games {
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// GDL games (.kif files): check, perft, trace, playouts.
    #[command(subcommand)]
    Gdl(gdl::GdlCommand),
    /// General Game Playing: `ggp serve` plays matches for a GGP game server.
    #[command(subcommand)]
    Ggp(ggp::GgpCommand),
    /// Count the leaves of a game's tree at depths 1..=D and print them as JSON.
    Perft {
        /// The game (`stratagem games` lists them), or a GDL file GAME.kif.
        #[arg(long, value_name = "GAME")]
        game: String,
        /// The start position in the game's text format (default: the initial position).
        #[arg(long, value_name = "TEXT")]
        position: Option<String>,
        /// The deepest level to count (at most the `perft-depth` limit, 40 by default).
        #[arg(long)]
        depth: u32,
    },
    /// List the legal moves of a position: each move in the game's notation
    /// and the position it leads to; a chance turn's outcomes with their
    /// probabilities; in a simultaneous turn, each role's moves and the joint
    /// moves. With --player, the move that player chooses, and its value of
    /// each move where it has them (a searching player's search, a game's own
    /// player's scores).
    Moves {
        /// The game (`stratagem games` lists them), or a GDL file GAME.kif.
        #[arg(long, value_name = "GAME")]
        game: String,
        /// The position in the game's text format (default: the initial position).
        #[arg(long, value_name = "TEXT")]
        position: Option<String>,
        /// A player (docs/PLAYERS.md) whose choice to show: `play`'s specs
        /// and the game's own players.
        #[arg(long, value_name = "SPEC")]
        player: Option<String>,
        /// How evolved programs of `gp:` players are evaluated (auto: the JIT).
        #[arg(long, value_enum, default_value_t = Engine::Auto)]
        engine: Engine,
        /// Names the random streams of the player's choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Play a match between two players: wins, draws, losses, score, states
    /// expanded per turn, games/s. Players (docs/PLAYERS.md): random |
    /// alphabeta:D:material | alphabeta:D:random | gp:FILE:NAME:alphabeta:D |
    /// gp:FILE:NAME:select:D:ratio=R | gp:FILE:NAME:select:D:maxbranch=M[:full=F] |
    /// uct:N | uct:ms=M[:c=C] (Monte Carlo tree search of N iterations or M ms a
    /// move). Games that are not two-player alternating (GDL games of n roles,
    /// simultaneous moves) take a player per role. A game of named players
    /// (kind `observed`) takes its own, as `tournament` does, and N games are
    /// ⌈N/2⌉ double-games.
    Play {
        /// The game (`stratagem games` lists them), or a GDL file GAME.kif.
        #[arg(long, value_name = "GAME")]
        game: String,
        #[arg(long, value_name = "SPEC", default_value = "random")]
        a: String,
        #[arg(long, value_name = "SPEC", default_value = "random")]
        b: String,
        /// One player per role, in role order, comma-separated: the players of
        /// a game of n roles (without it, A plays the first role, B the second
        /// and random players the others). On a two-player alternating game,
        /// two specs stand for --a and --b.
        #[arg(long, value_name = "SPEC,...", value_delimiter = ',', num_args = 1..)]
        players: Option<Vec<String>>,
        /// How evolved trees are evaluated (auto: the JIT).
        #[arg(long, value_enum, default_value_t = Engine::Auto)]
        engine: Engine,
        #[arg(long, default_value_t = 100)]
        games: u64,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The start position of every game (default: the initial position).
        #[arg(long, value_name = "TEXT")]
        position: Option<String>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Write every game to FILE, one JSON line each: the winner (a, b or
        /// draw), the moves and the final position.
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
    },
    /// A round robin of N double-games per pair (one random board, the roles
    /// swapped): matches, games and scores per player, and per pair the games
    /// won with a two-sided binomial p. Players (docs/PLAYERS.md): on a game
    /// of named players (kind `observed`) the game's own, such as random or
    /// c:FILE.c (a contest player in C); on two-player games of perfect
    /// information, `play`'s specs.
    Tournament {
        /// The game (`stratagem games` lists them): an `observed` or a two-player game.
        #[arg(long, value_name = "GAME")]
        game: String,
        /// The players, comma-separated (2 or more).
        #[arg(long, value_name = "SPEC,...", value_delimiter = ',', num_args = 1.., required = true)]
        players: Vec<String>,
        /// How evolved programs of `gp:` players are evaluated (auto: the JIT).
        #[arg(long, value_enum, default_value_t = Engine::Auto)]
        engine: Engine,
        /// Double-games per pair (at most the `games` limit).
        #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Worker threads (default: one per core); results do not depend on it.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
        threads: Option<u64>,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Write the dominance graph (an arrow from a to b when a is better
        /// at 0.01) to FILE as SVG.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// Generate hard puzzles of a game that can (`stratagem games` says
    /// which), one a line in its puzzle format, which `solve` reads; the
    /// same puzzles at any thread count. Also spelt `stratagem GAME generate`.
    Generate(generate::GenerateArgs),
    /// Solve every puzzle of a file, or numbered deals, with BFS, iterative
    /// deepening, IDA* or staged deepening: length, moves, nodes and time per
    /// puzzle.
    #[command(group = clap::ArgGroup::new("source").required(true).args(["puzzles", "deals"]))]
    Solve {
        /// The puzzle (`stratagem games` lists them).
        game: String,
        /// One puzzle a line, in the game's puzzle-line format (each game's
        /// docs say which; a line may give the optimal length).
        #[arg(long, value_name = "FILE")]
        puzzles: Option<PathBuf>,
        /// Numbered puzzles (for a game that numbers its deals), numbers and
        /// ranges separated by commas: `1-100,617,11982`.
        #[arg(long, value_name = "LIST")]
        deals: Option<String>,
        /// The search (default: hsd for a game that prefers staged deepening,
        /// bfs otherwise).
        #[arg(long, value_enum)]
        search: Option<solve::SearchKind>,
        /// The heuristic of IDA* and staged deepening: one of the game's (an
        /// unknown name lists them; default: the first), or FILE:NAME, a
        /// policy, individual or weight vector of a .sg file over the game's
        /// primset. Given more
        /// than once, a portfolio: each is tried in turn on a puzzle the ones
        /// before left unsolved, each within the limits.
        #[arg(long, value_name = "NAME|FILE:NAME")]
        heuristic: Vec<String>,
        /// How a program heuristic is evaluated (the same values either way;
        /// auto: the JIT).
        #[arg(long, value_enum, default_value_t = Engine::Auto)]
        engine: Engine,
        /// Puzzles solved at once (results are the same, in order).
        #[arg(long, value_name = "T", default_value_t = 1)]
        threads: usize,
        /// Nodes each search may count before it gives up on a puzzle.
        #[arg(long, value_name = "N", default_value_t = 10_000_000)]
        max_nodes: u64,
        /// A portfolio (`--heuristic` given more than once) in rounds: the
        /// first round gives each heuristic N nodes, each next round 4 times
        /// as many, up to `--max-nodes`, so one heuristic's hard puzzle does
        /// not hold up the others. Without it, one round at the full limits.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        round_nodes: Option<u64>,
        /// Seconds each search may take before it gives up on a puzzle (no
        /// limit unless given; BFS has none).
        #[arg(long, value_name = "S", value_parser = positive_seconds)]
        time_limit: Option<f64>,
        /// Staged deepening: the depth of each stage's depth-first search (k).
        /// A list (`2,3,1`) makes each heuristic a portfolio of searches at
        /// those depths, tried in turn (or in rounds, `--round-nodes`).
        #[arg(long, value_name = "K[,K...]", value_delimiter = ',', num_args = 1,
              default_values_t = [StagedSettings::default().depth],
              value_parser = clap::value_parser!(u32).range(1..=64))]
        stage_depth: Vec<u32>,
        /// Staged deepening: the transposition table is emptied when it holds
        /// this many states (N).
        #[arg(long, value_name = "N", default_value_t = StagedSettings::default().table_size)]
        table_size: usize,
        /// Staged deepening: how many of the states the open list replaced
        /// (by a state of the same value) are kept to go on from when it runs
        /// empty; 0 is Algorithm 1 exactly, which then gives up.
        #[arg(long, value_name = "N", default_value_t = StagedSettings::default().reserve)]
        reserve: usize,
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Replay every solution step by step from its text and fail on an
        /// illegal one.
        #[arg(long)]
        check: bool,
    },
}

/// A time limit: a positive number of seconds.
fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() && s <= 1e9 => Ok(s),
        Ok(_) => Err("a time limit is a positive number of seconds".to_owned()),
        Err(_) => Err(format!("`{text}` is not a number of seconds")),
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// What `play` is asked for (also `tournament` of an observed game's two players).
#[derive(Clone)]
pub struct PlayArgs {
    pub game: String,
    pub a: String,
    pub b: String,
    /// One player per role (`--players`), if given.
    pub players: Option<Vec<String>>,
    pub games: u64,
    pub seed: u64,
    pub position: Option<String>,
    pub format: Format,
    /// How evolved programs are evaluated (the JIT by default).
    pub engine: Engine,
    /// Where to write every game (JSON lines), if anywhere.
    pub record: Option<PathBuf>,
}

/// Exit code 1 for a failed command.
pub type Outcome = Result<(), Failure>;

/// The command line with older spellings in today's: `GAME generate ...`
/// (for any registered game) is `generate --game GAME ...`.
fn older_spellings(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let game = args.get(1).and_then(|a| a.to_str()).filter(|g| registry::GAMES.iter().any(|e| e.name == *g));
    if let (Some(game), Some("generate")) = (game.map(str::to_owned), args.get(2).and_then(|a| a.to_str())) {
        args.splice(1..3, ["generate".into(), "--game".into(), game.into()]);
    }
    args
}

/// Runs the command on a thread with a generous stack: checking and
/// evaluation recurse over trees as deep as the reader allows.
pub fn main() -> ExitCode {
    // A child serving a foreign program, before anything else starts.
    if let Some((kind, args)) = crate::foreign::child_request() {
        return ExitCode::from(crate::games::registry::serve_foreign_child(&kind, &args));
    }
    let worker = std::thread::Builder::new().stack_size(64 << 20).spawn(run);
    match worker.map(std::thread::JoinHandle::join) {
        Ok(Ok(code)) => code,
        _ => ExitCode::from(2),
    }
}

fn run() -> ExitCode {
    let cli = match Cli::try_parse_from(older_spellings(std::env::args_os().collect())) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(1) } else { ExitCode::SUCCESS };
        }
    };
    let mut limits = crate::limits::Limits::default();
    for setting in &cli.limits {
        limits.set(setting.limit, setting.value);
    }
    limits.install();
    crate::foreign::trust_in_process(cli.trust_c_players);
    let outcome = match cli.command {
        Command::Check { files } => check::run(&files),
        Command::Fmt { files, check } => fmt::run(&files, check),
        Command::Eval { file, name, rows, tree, engine, format } => {
            eval::run(&eval::EvalArgs { file, name, rows, tree, engine, format })
        }
        Command::Export { file, name, format, out } => export::run(&export::ExportArgs { file, name, format, out }),
        Command::Repl { files } => return crate::repl::run(&files),
        Command::Evolve { file, experiment, seed, out, threads, resume, stop_after } => {
            evolve::run(&evolve::EvolveArgs {
                file,
                experiment,
                seed,
                out,
                threads: threads.map(|t| t as usize),
                resume,
                stop_after: stop_after.map(|n| n as usize),
            })
        }
        Command::Batch { trees, rows, engine, repeat, format } => {
            batch::run(&batch::BatchArgs { trees, rows, engine, repeat, format })
        }
        Command::CcaReport { runs, out, format } => cca_report::run(&runs, out.as_ref(), format),
        Command::Games { format } => games::run(format),
        Command::Gdl(command) => gdl::run(command),
        Command::Ggp(command) => ggp::run(command),
        Command::Generate(args) => generate::run(&args),
        Command::Perft { game, position, depth } => perft::run(&perft::PerftArgs { game, position, depth }),
        Command::Moves { game, position, player, engine, seed, format } => {
            moves::run(&moves::MovesArgs { game, position, player, seed, engine, format })
        }
        Command::Play { game, a, b, players, engine, games, seed, position, format, record } => {
            play::run(&PlayArgs { game, a, b, players, games, seed, position, format, engine, record })
        }
        Command::Tournament { game, players, engine, games, seed, threads, format, svg } => {
            tournament::run(&tournament::TournamentArgs {
                game,
                players,
                engine,
                games,
                seed,
                threads: threads.map(|t| t as usize),
                format,
                svg,
            })
        }
        Command::Solve {
            game,
            puzzles,
            deals,
            search,
            heuristic,
            engine,
            threads,
            max_nodes,
            round_nodes,
            time_limit,
            stage_depth,
            table_size,
            reserve,
            format,
            check,
        } => {
            let puzzles = match (puzzles, deals) {
                (Some(file), _) => solve::PuzzleSource::File(file),
                (None, list) => solve::PuzzleSource::Numbers(list.unwrap_or_default()),
            };
            let settings = crate::solve::portfolio::Settings {
                search,
                heuristics: heuristic,
                engine,
                max_nodes,
                round_nodes,
                time_limit,
                staged: StagedSettings {
                    depth: stage_depth.first().copied().unwrap_or(StagedSettings::default().depth),
                    table_size: table_size.max(1),
                    reserve,
                },
                stage_depths: stage_depth,
            };
            solve::run(&solve::SolveArgs { game, puzzles, settings, threads, format, check })
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            let rendered = failure.sources.render_for_terminal(&failure.diags);
            let _ = std::io::stderr().write_all(rendered.as_bytes());
            if has_errors(&failure.diags) { ExitCode::from(1) } else { ExitCode::SUCCESS }
        }
    }
}

/// The registered game named `text` (`--game`), or a diagnostic with the
/// list of games and a suggestion; for a GDL file that does not compile, its
/// diagnostics. A GDL game's warnings go to stderr.
pub(crate) fn game_entry(text: &str) -> Result<&'static crate::games::registry::Entry, Failure> {
    match crate::games::registry::lookup(text) {
        Ok(entry) => {
            if let Some((sources, warnings)) = entry.warnings() {
                print_warnings(sources, warnings);
            }
            if let Some(note) = entry.engine_note() {
                eprintln!("{text}: engine: {note}");
            }
            Ok(entry)
        }
        Err(e) => {
            let summary = e.diagnostic("stratagem::game::unknown");
            match e.file {
                Some((sources, mut diags)) => {
                    diags.push(summary);
                    Err(Failure::new(sources, diags))
                }
                None => Err(Failure::new(Sources::new(), vec![summary])),
            }
        }
    }
}

/// The error a game's engine met while a command ran it (a GDL game's
/// prover past its budget), as a failure.
pub(crate) fn engine_error<G: crate::games::Game>(game: &G) -> Result<(), Failure> {
    match game.take_error() {
        Some(e) => Err(Failure::message("stratagem::game::engine", e)),
        None => Ok(()),
    }
}

/// Prints warnings (diagnostics that are not errors) to stderr.
pub(crate) fn print_warnings(sources: &Sources, diags: &[Diagnostic]) {
    let warnings: Vec<Diagnostic> = diags.iter().filter(|d| !d.is_error()).cloned().collect();
    if !warnings.is_empty() {
        let _ = std::io::stderr().write_all(sources.render_for_terminal(&warnings).as_bytes());
    }
}

/// Writes to stdout, ignoring a closed pipe (`stratagem eval ... | head`).
pub(crate) fn out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}

/// A value as JSON; non-finite floats, which JSON cannot hold, become strings.
pub fn json_value(v: crate::lang::Value) -> serde_json::Value {
    use crate::lang::Value;
    match v {
        Value::F(x) if x.is_finite() => serde_json::Value::from(x),
        Value::F(x) => serde_json::Value::String(crate::syntax::sexp::format_float(x)),
        Value::I(i) => serde_json::Value::from(i),
        Value::B(b) => serde_json::Value::from(b),
    }
}

/// A note on stderr: how many programs the interpreter evaluated instead of
/// the JIT, and why (each distinct reason with its count).
pub(crate) fn report_fallbacks(n: usize, reasons: &[crate::eval::jit::JitError]) {
    let mut counted: Vec<(String, usize)> = Vec::new();
    for r in reasons {
        let r = r.to_string();
        match counted.iter_mut().find(|(s, _)| *s == r) {
            Some((_, c)) => *c += 1,
            None => counted.push((r, 1)),
        }
    }
    let why: Vec<String> = counted.iter().map(|(r, c)| format!("{r} (×{c})")).collect();
    eprintln!("note: {n} program(s) evaluated by the interpreter instead of the JIT: {}", why.join("; "));
}
