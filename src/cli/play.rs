//! `stratagem play --game G --a SPEC --b SPEC --games N [--seed S]`: a match
//! between two players (see `search::players` for the specs). Colours
//! alternate: A moves first in even-numbered games. Games run in parallel,
//! each with random streams named by (seed, game, side), so the result is the
//! same at any thread count. Games that are not two-player alternating are
//! played by random players, one per role (`play_roles`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use super::perft::parse_position;
use super::{Failure, Format, Outcome, engine_error, game_entry, out, unsupported};
use crate::diagnostic::{Diagnostic, did_you_mean};
use crate::eval::jit::JitConfig;
use crate::files::AtomicFile;
use crate::games::domain::{Binding, GpGame};
use crate::games::playout::random_playout;
use crate::games::registry::{Kind, TwoPlayerTask};
use crate::games::{GameResult, Player};
use crate::lang::{Loader, PrimSet, PrimSetId};
use crate::limits::Limit;
use crate::rng::stream;
use crate::search::alphabeta::SearchParams;
use crate::search::players::{EvalSpec, GameRecord, GpPrograms, PlayerFactory, PlayerSpec, a_colour, play_game};
use crate::search::programs::{GpProgram, Program, ProgramEngine};

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
    pub engine: ProgramEngine,
    /// Where to write every game (JSON lines), if anywhere.
    pub record: Option<PathBuf>,
}

pub fn run(args: &PlayArgs) -> Outcome {
    struct Play<'a>(&'a PlayArgs);
    impl TwoPlayerTask for Play<'_> {
        type Output = Outcome;
        fn run<G: GpGame>(self, game: G) -> Outcome {
            run_game(&game, self.0)
        }
    }
    let entry = game_entry(&args.game)?;
    if entry.kind == Kind::Observed {
        return super::tournament::play(args);
    }
    if entry.kind != Kind::TwoPlayer {
        return super::play_roles::run(entry, args);
    }
    let two;
    let args = match args.players.as_deref() {
        None => args,
        Some([a, b]) => {
            two = PlayArgs { a: a.clone(), b: b.clone(), players: None, ..args.clone() };
            &two
        }
        Some(specs) => {
            return Err(Failure::message(
                "stratagem::play::players",
                format!("--players gives {} players, and `{}` has 2 roles", specs.len(), entry.name),
            ));
        }
    };
    entry.run_two_player("`play`", Play(args)).map_err(unsupported)?
}

/// Builds the factory for a player spec, loading and binding GP programs.
pub fn factory<G: GpGame>(
    game: &G,
    flag: &str,
    text: &str,
    engine: ProgramEngine,
) -> Result<PlayerFactory<G::State>, Failure> {
    let spec = PlayerSpec::parse(text)
        .map_err(|e| Failure::message("stratagem::play::spec", format!("{flag} {text}: {e}")))?;
    Ok(match spec {
        PlayerSpec::Random => PlayerFactory::Random,
        PlayerSpec::Uct { params, think } => PlayerFactory::Uct(params, think),
        PlayerSpec::Search { eval: EvalSpec::Material, params } => PlayerFactory::Material(params),
        PlayerSpec::Search { eval: EvalSpec::Random, params } => PlayerFactory::RandomGuide(params),
        PlayerSpec::Search { eval: EvalSpec::Gp { file, name }, params } => {
            PlayerFactory::Gp(load_programs(game, Path::new(&file), &name, &params, engine)?, params)
        }
    })
}

/// Loads program `name` from `file` and binds its primset to `game`. An
/// individual's `eval` tree evaluates, and its `order` tree (if `search` is
/// selective and the tree present) ranks siblings; a policy or a weight
/// vector evaluates (and ranks). With the JIT, they are compiled (a program
/// the JIT cannot compile is interpreted, with a note on stderr).
pub fn load_programs<G: GpGame>(
    game: &G,
    file: &Path,
    name: &str,
    search: &SearchParams,
    engine: ProgramEngine,
) -> Result<GpPrograms<G::State>, Failure> {
    let (loader, ps_id, programs) = read_programs(file, name, search.is_selective())?;
    let m = &loader.module;
    let ps = Arc::new(m.primset(ps_id).clone());
    let binding = Arc::new(Binding::new(game, &ps).map_err(|d| Failure::new(loader.sources.clone(), d))?);
    let has_order = programs.len() == 2;
    let mut programs: Vec<Arc<GpProgram<G::State>>> =
        compile_programs(ps, binding, programs, engine, name).into_iter().map(Arc::new).collect();
    let order = if has_order { programs.pop() } else { None };
    let eval = programs.remove(0);
    Ok(GpPrograms { eval, order })
}

/// Programs bound by `binding`, JIT-compiled (those the JIT cannot compile
/// interpreted, with a note on stderr) or interpreted.
pub(crate) fn compile_programs<S>(
    ps: Arc<PrimSet>,
    binding: Arc<Binding<S>>,
    programs: Vec<Program>,
    engine: ProgramEngine,
    name: &str,
) -> Vec<GpProgram<S>> {
    if engine == ProgramEngine::Jit {
        let (programs, fallbacks) = GpProgram::compile_all(ps, binding, programs, JitConfig::default());
        if !fallbacks.is_empty() {
            eprintln!("note: {} program(s) of `{name}` are interpreted: {}", fallbacks.len(), fallbacks.join("; "));
        }
        programs
    } else {
        programs.into_iter().map(|p| GpProgram::new(ps.clone(), binding.clone(), p)).collect()
    }
}

/// Reads `file` and finds program `name` in it: an individual's `eval` tree
/// (or its first) and, when `with_order`, its `order` tree if it has one; a
/// policy; a weight vector; or a network. The loader is returned for its sources.
pub(crate) fn read_programs(
    file: &Path,
    name: &str,
    with_order: bool,
) -> Result<(Loader, PrimSetId, Vec<Program>), Failure> {
    let mut loader = Loader::new();
    loader.load_path(file);
    if loader.diags.iter().any(|d| d.is_error()) {
        return Err(Failure::new(loader.sources, loader.diags));
    }
    let m = &loader.module;
    let (ps_id, programs) = if let Some(ind) = m.find_individual(name) {
        let tree = |slot: &str| ind.trees.iter().find(|t| t.name == slot).map(|t| t.tree.clone());
        let Some(eval) = tree("eval").or_else(|| ind.trees.first().map(|t| t.tree.clone())) else {
            return Err(Failure::message("stratagem::play::tree", format!("individual `{name}` has no tree")));
        };
        let order = if with_order { tree("order") } else { None };
        (ind.primset, std::iter::once(eval).chain(order).map(Program::Tree).collect::<Vec<_>>())
    } else if let Some(p) = m.policies.iter().find(|p| p.name == name) {
        (p.primset, vec![Program::Policy(p.clone())])
    } else if let Some(w) = m.weights.iter().find(|w| w.name == name) {
        (w.primset, vec![Program::Weights(w.clone())])
    } else if let Some(n) = m.networks.iter().find(|n| n.name == name) {
        (n.primset, vec![Program::Network(n.clone())])
    } else {
        let names = m.program_names();
        let mut d = Diagnostic::error(
            "stratagem::play::unknown",
            format!("`{}` defines no individual, policy, weights or network `{name}`", file.display()),
        );
        d = match did_you_mean(name, names.iter().copied()) {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None => d.with_help(format!(
                "it defines: {}",
                if names.is_empty() {
                    "no individuals, policies, weights or networks".into()
                } else {
                    names.join(", ")
                }
            )),
        };
        return Err(Failure::new(loader.sources, vec![d]));
    };
    Ok((loader, ps_id, programs))
}

/// Totals of one side of a match. Sums are integers, so they do not depend
/// on the order games finish in.
#[derive(Debug, Default, Clone)]
pub struct SideStats {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub turns: u64,
    expanded_sum: u128,
    expanded_sq: u128,
}

impl SideStats {
    pub fn score(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    pub fn states_mean(&self) -> f64 {
        if self.turns == 0 { 0.0 } else { self.expanded_sum as f64 / self.turns as f64 }
    }

    pub fn states_sd(&self) -> f64 {
        if self.turns < 2 {
            return 0.0;
        }
        let n = self.turns as f64;
        let mean = self.expanded_sum as f64 / n;
        ((self.expanded_sq as f64 - n * mean * mean) / (n - 1.0)).max(0.0).sqrt()
    }

    /// Turns of a player that does not search: one state each.
    fn add_random_turns(&mut self, turns: u32) {
        self.turns += u64::from(turns);
        self.expanded_sum += u128::from(turns);
        self.expanded_sq += u128::from(turns);
    }

    fn add_turns(&mut self, expanded: &[u64]) {
        for &e in expanded {
            self.turns += 1;
            self.expanded_sum += u128::from(e);
            self.expanded_sq += u128::from(e) * u128::from(e);
        }
    }
}

/// Games are played in parallel a chunk at a time and folded into the
/// totals in game order, so memory stays flat however many games a match has.
const CHUNK: u64 = 1 << 14;

/// Receives each game of a match: its index, the colour A played, the game.
pub type RecordSink<'a, M> = &'a mut dyn FnMut(u64, Player, &GameRecord<M>) -> std::io::Result<()>;

/// Plays `n` games between A and B, in parallel; returns A's and B's totals.
/// `record`, if given, receives each game (its index, and the colour A
/// played) in game order.
pub fn play_match<G: GpGame>(
    game: &G,
    start: &G::State,
    (a, b): (&PlayerFactory<G::State>, &PlayerFactory<G::State>),
    n: u64,
    seed: u64,
    mut record: Option<RecordSink<'_, G::Move>>,
) -> std::io::Result<(SideStats, SideStats)> {
    if record.is_none() && matches!((a, b), (PlayerFactory::Random, PlayerFactory::Random)) {
        return Ok(random_match(game, start, n, seed));
    }
    let (mut sa, mut sb) = (SideStats::default(), SideStats::default());
    for first in (0..n).step_by(CHUNK as usize) {
        let records: Vec<_> = (first..n.min(first.saturating_add(CHUNK)))
            .into_par_iter()
            .map(|i| {
                let mut pa = a.make::<G>(seed, &[i, 0]);
                let mut pb = b.make::<G>(seed, &[i, 1]);
                let colour = a_colour(i);
                let record = if colour == 0 {
                    play_game(game, start, [pa.as_mut(), pb.as_mut()])
                } else {
                    play_game(game, start, [pb.as_mut(), pa.as_mut()])
                };
                (colour, record)
            })
            .collect();
        for (i, (colour, game_record)) in (first..).zip(&records) {
            let (ca, cb) = (*colour as usize, 1 - *colour as usize);
            score_game(&mut sa, &mut sb, game_record.result, *colour);
            sa.add_turns(&game_record.expanded[ca]);
            sb.add_turns(&game_record.expanded[cb]);
            if let Some(sink) = record.as_mut() {
                sink(i, *colour, game_record)?;
            }
        }
    }
    Ok((sa, sb))
}

/// One JSON line for a game: who won, the moves in the game's notation, and
/// the final position, so that a match can be replayed and inspected.
fn game_line<G: GpGame>(game: &G, start: &G::State, i: u64, colour: Player, record: &GameRecord<G::Move>) -> String {
    let mut state = start.clone();
    let mut moves = Vec::with_capacity(record.moves.len());
    for mv in &record.moves {
        moves.push(game.format_move(&state, mv));
        state = game.apply(&state, mv);
    }
    let winner = match record.result {
        GameResult::Draw => "draw",
        GameResult::Winner(w) if w == colour => "a",
        GameResult::Winner(_) => "b",
    };
    let line = serde_json::json!({
        "game": i, "a_moves_first": colour == game.to_move(start), "winner": winner,
        "turns": moves.len(), "moves": moves, "final": game.format_state(&state),
    });
    format!("{line}\n")
}

/// Counts one game for A (who played `colour`) and B.
fn score_game(sa: &mut SideStats, sb: &mut SideStats, result: GameResult, colour: Player) {
    match result {
        GameResult::Draw => {
            sa.draws += 1;
            sb.draws += 1;
        }
        GameResult::Winner(w) if w == colour => {
            sa.wins += 1;
            sb.losses += 1;
        }
        GameResult::Winner(_) => {
            sa.losses += 1;
            sb.wins += 1;
        }
    }
}

/// Random against random: each game is one random playout, without the
/// player machinery (the speed benchmark of the engines).
fn random_match<G: GpGame>(game: &G, start: &G::State, n: u64, seed: u64) -> (SideStats, SideStats) {
    let (mut sa, mut sb) = (SideStats::default(), SideStats::default());
    for first in (0..n).step_by(CHUNK as usize) {
        let results: Vec<(Player, GameResult, u32)> = (first..n.min(first.saturating_add(CHUNK)))
            .into_par_iter()
            .map_init(Vec::new, |moves, i| {
                let mut rng = stream(seed, &[i]);
                let p = random_playout(game, start, &mut rng, moves);
                (a_colour(i), p.result, p.plies)
            })
            .collect();
        for (colour, result, plies) in results {
            let (a_turns, b_turns) =
                if colour == 0 { (plies.div_ceil(2), plies / 2) } else { (plies / 2, plies.div_ceil(2)) };
            sa.add_random_turns(a_turns);
            sb.add_random_turns(b_turns);
            score_game(&mut sa, &mut sb, result, colour);
        }
    }
    (sa, sb)
}

fn run_game<G: GpGame>(game: &G, args: &PlayArgs) -> Outcome {
    Limit::Games
        .check(args.games, &format!("`--games {}`", args.games))
        .map_err(|e| Failure::message("stratagem::limit", e))?;
    let start = parse_position(game, args.position.as_deref())?;
    let a = factory(game, "--a", &args.a, args.engine)?;
    let b = factory(game, "--b", &args.b, args.engine)?;
    let cannot_write = |path: &Path, e: std::io::Error| {
        Failure::message("stratagem::io", format!("cannot write `{}`: {e}", path.display()))
    };
    // The record file is opened before the match, so a bad target is
    // reported at once, and it appears only when every game is in it.
    let mut record_file = match &args.record {
        Some(path) => Some(AtomicFile::create(path).map_err(|e| cannot_write(path, e))?),
        None => None,
    };
    let mut write_game = |i: u64, colour: Player, record: &GameRecord<G::Move>| -> std::io::Result<()> {
        match record_file.as_mut() {
            Some(file) => file.write_all(game_line(game, &start, i, colour, record).as_bytes()),
            None => Ok(()),
        }
    };
    let sink: Option<RecordSink<'_, G::Move>> = if args.record.is_some() { Some(&mut write_game) } else { None };
    let clock = Instant::now();
    let played = play_match(game, &start, (&a, &b), args.games, args.seed, sink);
    let seconds = clock.elapsed().as_secs_f64();
    let record_path = args.record.as_deref().unwrap_or(Path::new(""));
    let (sa, sb) = played.map_err(|e| cannot_write(record_path, e))?;
    engine_error(game)?;
    if let Some(file) = record_file {
        file.commit().map_err(|e| cannot_write(record_path, e))?;
    }
    let games_per_s = if seconds > 0.0 { args.games as f64 / seconds } else { 0.0 };
    let side = |s: &SideStats, spec: &str| {
        serde_json::json!({
            "player": spec, "wins": s.wins, "draws": s.draws, "losses": s.losses, "score": s.score(),
            "states_per_turn_mean": s.states_mean(), "states_per_turn_sd": s.states_sd(),
        })
    };
    let text = match args.format {
        Format::Json => format!(
            "{}\n",
            serde_json::json!({
                "game": game.name(), "games": args.games, "seed": args.seed,
                "a": side(&sa, &args.a), "b": side(&sb, &args.b), "games_per_s": games_per_s,
            })
        ),
        Format::Text => {
            let line = |who: &str, s: &SideStats, spec: &str| {
                format!(
                    "{who}: {spec}\n   wins {} draws {} losses {} score {} states/turn {:.2} ± {:.2}\n",
                    s.wins,
                    s.draws,
                    s.losses,
                    s.score(),
                    s.states_mean(),
                    s.states_sd()
                )
            };
            format!(
                "{} games of {} (seed {})\n{}{}games/s: {games_per_s:.1}\n",
                args.games,
                game.name(),
                args.seed,
                line("a", &sa, &args.a),
                line("b", &sb, &args.b)
            )
        }
    };
    out(&text);
    Ok(())
}
