//! Games of any number of roles (GDL games of n roles, simultaneous moves),
//! one player per role in role order. Random and UCT players (`uct:N`,
//! `uct:ms=M`) play such games, and so do searching players
//! (`alphabeta:D:random`, `alphabeta:D:material`, `gp:FILE:NAME:alphabeta:D`,
//! each with `:samples=K`), which search as `search::sampled` does: the
//! opponents' moves at a simultaneous turn sampled, as seeds/004 does. Game
//! `i` draws every random move from the stream (seed, i) and each UCT or
//! searching role searches with its own streams (seed, i, role), a fresh
//! tree per move, so with UCT budgets in iterations the result is the same
//! at any thread count.

use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use super::PlayerSpec;
use super::programs::{compile_programs, read_programs};
use super::spec::EvalSpec;
use crate::diagnostic::Failure;
use crate::eval::Engine;
use crate::games::domain::{Binding, GpDomain, OwnPlayer};
use crate::games::registry::{Entry, Kind, Unsupported};
use crate::games::{Role, Turn};
use crate::rng::{GpRng, stream};
use crate::search::alphabeta::SearchParams;
use crate::search::programs::GpProgram;
use crate::search::sampled::{SampledParams, SampledSearch};
use crate::search::uct::{Think, Uct, UctParams};

/// A game that has not ended after this many turns is reported, not played on.
const MAX_TURNS: u32 = 100_000;

/// A role's player as its spec says.
#[derive(Clone)]
pub enum RolePlayer {
    Random,
    /// A player the game reads itself (`GpDomain::own_player`: backgammon's).
    Own(String),
    Uct(UctParams, Think),
    Search(EvalSpec, SearchParams),
}

impl RolePlayer {
    /// The player `spec` names for `role` of the game of `entry`.
    pub fn parse(entry: &Entry, role: &str, spec: &str) -> Result<RolePlayer, Failure> {
        let parsed = PlayerSpec::parse(spec);
        // A game of named players reads its players itself (random and
        // UCT players are every game's).
        if entry.plays_duels() && !matches!(parsed, Ok(PlayerSpec::Uct { .. } | PlayerSpec::Random)) {
            return Ok(RolePlayer::Own(spec.to_owned()));
        }
        match parsed {
            Ok(PlayerSpec::Random) => Ok(RolePlayer::Random),
            Ok(PlayerSpec::Uct { params, think }) => Ok(RolePlayer::Uct(params, think)),
            Ok(PlayerSpec::Search { params, .. }) if params.is_selective() => Err(Unsupported {
                game: entry.name,
                kind: entry.kind,
                request: format!("`{spec}` (the player of {role}; forward pruning)"),
                needs: Kind::TwoPlayer,
            }
            .into()),
            Ok(PlayerSpec::Search { eval, params }) => Ok(RolePlayer::Search(eval, params)),
            Ok(PlayerSpec::UctOnTheClock | PlayerSpec::Legal) => Err(super::only_on_the_clock(role, spec)),
            Err(e) => Err(Failure::message("stratagem::play::spec", format!("{role}: {spec}: {e}"))),
        }
    }
}

/// The stream tags of a role's search: UCT's, and a searching player's
/// samples and ties, and its random evaluation.
const UCT_STREAM: u64 = 0x0075_6374;
const SEARCH_STREAM: u64 = 0x5eac;
const RANDOM_EVAL: u64 = 0x5eae;
const OWN_STREAM: u64 = 0x776e;
/// The stream tag of a random player's move chosen once ([`choose_once`]).
const RANDOM_MOVE: u64 = 0x7a4d;

/// How a searching role evaluates states, bound to the game.
pub enum Evaluation<S> {
    Random,
    Material,
    Program(Arc<GpProgram<S>>),
}

/// A role's player bound to the game (programs loaded and compiled once).
pub enum Bound<G: GpDomain> {
    Random,
    /// A player the game read itself.
    Own(Arc<dyn OwnPlayer<G>>),
    Uct(UctParams, Think),
    Search(SampledParams, Evaluation<G::State>),
}

/// Binds each role's player to `game`: loads and compiles the programs of
/// `gp:` players.
pub fn bind<G: GpDomain>(game: &G, players: &[RolePlayer], engine: Engine) -> Result<Vec<Bound<G>>, Failure> {
    players
        .iter()
        .map(|p| {
            Ok(match p {
                RolePlayer::Random => Bound::Random,
                RolePlayer::Own(text) => match game.own_player(text) {
                    Some(Ok(player)) => Bound::Own(player),
                    Some(Err(e)) => {
                        let mut d = crate::diagnostic::Diagnostic::error("stratagem::play::spec", e.message);
                        if let Some(help) = e.help {
                            d = d.with_help(help);
                        }
                        return Err(Failure::new(crate::diagnostic::Sources::new(), vec![d]));
                    }
                    None => {
                        return Err(Failure::message(
                            "stratagem::play::spec",
                            format!("`{text}` is not a player of `{}`", game.name()),
                        ));
                    }
                },
                RolePlayer::Uct(params, think) => Bound::Uct(*params, *think),
                RolePlayer::Search(eval, params) => {
                    let sampled = SampledParams { depth: params.depth, samples: params.samples };
                    let eval = match eval {
                        EvalSpec::Random => Evaluation::Random,
                        EvalSpec::Material => Evaluation::Material,
                        EvalSpec::Gp { file, name } => {
                            let (loader, ps_id, programs) = read_programs(Path::new(file), name, false)?;
                            let ps = Arc::new(loader.module.primset(ps_id).clone());
                            let binding =
                                Arc::new(Binding::new(game, &ps).map_err(|d| Failure::new(loader.sources.clone(), d))?);
                            let mut compiled = compile_programs(ps, binding, programs, engine, name);
                            Evaluation::Program(Arc::new(compiled.remove(0)))
                        }
                    };
                    Bound::Search(sampled, eval)
                }
            })
        })
        .collect()
}

/// A role's player in one game.
enum Mover<'p, G: GpDomain> {
    Random,
    Own(&'p dyn OwnPlayer<G>, GpRng),
    Uct(Box<Uct<G>>, Think),
    Search(SampledSearch, &'p Evaluation<G::State>, GpRng),
}

/// The mover of `player`, its streams named by `tags` (a stream tag to a stream).
fn mover<G: GpDomain>(player: &Bound<G>, tags: impl Fn(u64) -> GpRng) -> Mover<'_, G> {
    match player {
        Bound::Random => Mover::Random,
        Bound::Own(player) => Mover::Own(player.as_ref(), tags(OWN_STREAM)),
        Bound::Uct(params, think) => Mover::Uct(Box::new(Uct::new(*params, tags(UCT_STREAM))), *think),
        Bound::Search(params, eval) => {
            Mover::Search(SampledSearch::new(*params, tags(SEARCH_STREAM)), eval, tags(RANDOM_EVAL))
        }
    }
}

/// A searching role's value of `s` for `me`.
fn evaluate<G: GpDomain>(game: &G, eval: &Evaluation<G::State>, rng: &mut GpRng, s: &G::State, me: Role) -> f64 {
    match eval {
        Evaluation::Random => rand::RngExt::random_range(rng, -1.0..=1.0),
        Evaluation::Material => game.material(s, me),
        Evaluation::Program(p) => p.value(s, me),
    }
}

/// Role `role`'s move by its player, unless it plays at random.
fn chosen_move<G: GpDomain>(game: &G, state: &G::State, role: Role, mover: &mut Mover<G>) -> Option<G::Move> {
    match mover {
        Mover::Random => None,
        Mover::Own(player, rng) => player.choose(game, state, rng),
        Mover::Uct(uct, think) => {
            uct.reset();
            let mv = uct.choose(game, state, role, think.budget());
            uct.reset();
            mv
        }
        Mover::Search(search, eval, rng) => {
            let mut value = |s: &G::State, me: Role| evaluate(game, eval, rng, s, me);
            let i = search.choose(game, state, role, &mut value)?;
            let mut legal = Vec::new();
            game.legal_moves_of(state, role, &mut legal);
            legal.get(i).cloned()
        }
    }
}

/// The move `player` chooses for `role` in `state` (a turn of that role,
/// or a simultaneous turn), its random choices drawn from streams of
/// `seed`, and the value it gives each of the role's legal moves (in the
/// order of [`Game::legal_moves_of`]) where it has them: a searching player
/// whose evaluation is not random ([`SampledSearch::choose_with_values`]),
/// or a game's own player that scores moves. A random player draws the
/// game's random move (in a simultaneous turn, one of the role's moves
/// uniformly). `None` when the role has no move.
pub fn choose_once<G: GpDomain>(
    game: &G,
    state: &G::State,
    role: Role,
    player: &Bound<G>,
    seed: u64,
) -> Option<(G::Move, Option<Vec<f64>>)> {
    let tags = |tag: u64| stream(seed, &[tag, u64::from(role)]);
    let mut legal = Vec::new();
    game.legal_moves_of(state, role, &mut legal);
    if legal.is_empty() {
        return None;
    }
    let mut m = mover::<G>(player, tags);
    match &mut m {
        Mover::Random => {
            let mut rng = tags(RANDOM_MOVE);
            let drawn = match game.turn(state) {
                Turn::Role(r) if r == role => game.random_move(state, &mut rng, &mut Vec::new()),
                _ => None,
            };
            let mv = drawn.unwrap_or_else(|| legal.swap_remove(rand::RngExt::random_range(&mut rng, 0..legal.len())));
            Some((mv, None))
        }
        Mover::Own(player, rng) => {
            let mv = player.choose(game, state, rng)?;
            Some((mv, player.values(game, state)))
        }
        Mover::Search(search, eval, rng) if !matches!(eval, Evaluation::Random) => {
            let mut value = |s: &G::State, me: Role| evaluate(game, eval, rng, s, me);
            let (i, values) = search.choose_with_values(game, state, role, &mut value)?;
            Some((legal.get(i)?.clone(), Some(values)))
        }
        _ => chosen_move(game, state, role, &mut m).map(|mv| (mv, None)),
    }
}

/// One game: every role's score, the turns, and the record line if asked.
struct Played {
    scores: Vec<u8>,
    turns: u32,
    line: Option<String>,
}

/// Plays one game from `start`: each role by its player in `players`
/// (searching with streams of `seed`), random moves where it has none.
fn play_one<G: GpDomain>(
    game: &G,
    start: &G::State,
    (rng, seed): (&mut GpRng, u64),
    players: &[Bound<G>],
    i: u64,
    record: bool,
) -> Result<Played, String> {
    let mut movers: Vec<Mover<G>> =
        players.iter().enumerate().map(|(r, p)| mover(p, |tag| stream(seed, &[i, tag, r as u64]))).collect();
    let mut state = start.clone();
    let mut scratch = Vec::new();
    let mut joint = Vec::with_capacity(game.n_roles());
    let mut moves = Vec::new();
    let mut turns = 0;
    let role_name = |r: usize| game.role_name(r as Role).to_owned();
    loop {
        let turn = game.turn(&state);
        if turn == Turn::Over {
            break;
        }
        if turns == MAX_TURNS {
            return Err(format!("game {i} of `{}` has not ended after {MAX_TURNS} turns", game.name()));
        }
        let mut shown = serde_json::Map::new();
        if turn == Turn::Simultaneous {
            joint.clear();
            for role in 0..game.n_roles() {
                game.legal_moves_of(&state, role as Role, &mut scratch);
                if scratch.is_empty() {
                    break;
                }
                match movers.get_mut(role).and_then(|m| chosen_move(game, &state, role as Role, m)) {
                    Some(mv) => joint.push(mv),
                    None => joint.push(scratch.swap_remove(rand::RngExt::random_range(&mut *rng, 0..scratch.len()))),
                }
            }
            if joint.len() < game.n_roles() {
                break;
            }
            if record {
                for (r, mv) in joint.iter().enumerate() {
                    shown.insert(role_name(r), game.format_move(&state, mv).into());
                }
            }
            state = game.apply_joint(&state, &joint);
        } else {
            let searched = match turn {
                Turn::Role(r) => movers.get_mut(usize::from(r)).and_then(|m| chosen_move(game, &state, r, m)),
                _ => None,
            };
            let Some(mv) = searched.or_else(|| game.random_move(&state, &mut *rng, &mut scratch)) else { break };
            if record {
                let who = match turn {
                    Turn::Role(r) => role_name(usize::from(r)),
                    _ => "chance".to_owned(),
                };
                shown.insert(who, game.format_move(&state, &mv).into());
            }
            state = game.apply(&state, &mv);
        }
        if record {
            moves.push(serde_json::Value::Object(shown));
        }
        turns += 1;
    }
    // By the model's invariant a state without moves is over; a missing score
    // (an engine that failed) counts 0, and the command reports the error.
    let scores: Vec<u8> = (0..game.n_roles()).map(|r| game.score(&state, r as Role).unwrap_or(0)).collect();
    let line = record.then(|| {
        let by_role: serde_json::Map<String, serde_json::Value> =
            scores.iter().enumerate().map(|(r, s)| (role_name(r), (*s).into())).collect();
        let line = serde_json::json!({
            "game": i, "scores": by_role, "turns": turns, "moves": moves, "final": game.format_state(&state),
        });
        format!("{line}\n")
    });
    Ok(Played { scores, turns, line })
}

/// Totals of one role.
#[derive(Clone, Default)]
pub struct RoleStats {
    pub score_sum: u64,
    /// Games where the role had the highest score alone.
    pub wins: u64,
    /// Games where it shared the highest score.
    pub shared: u64,
}

/// Receives each game's JSON line, in game order.
pub type LineSink<'a> = &'a mut dyn FnMut(&str) -> Result<(), Failure>;

/// What the games of a match gave each role, and their turns.
pub struct RoleTotals {
    pub stats: Vec<RoleStats>,
    pub turns: u64,
}

/// Games are played in parallel a chunk at a time, so memory stays flat.
const CHUNK: u64 = 1 << 12;

/// Plays `games` games from `start`, each role by its player in `players`
/// (random where it has none); game `i` draws random moves from the stream
/// (seed, i). `record`, if given, receives each game's JSON line in game order.
pub fn play_games<G: GpDomain>(
    game: &G,
    start: &G::State,
    players: &[Bound<G>],
    (games, seed): (u64, u64),
    mut record: Option<LineSink<'_>>,
) -> Result<RoleTotals, Failure>
where
    G::State: Send + Sync,
    G::Move: Send + Sync,
{
    let mut stats = vec![RoleStats::default(); game.n_roles()];
    let mut turns = 0u64;
    let recording = record.is_some();
    for first in (0..games).step_by(CHUNK as usize) {
        let played: Vec<Result<Played, String>> = (first..games.min(first.saturating_add(CHUNK)))
            .into_par_iter()
            .map(|i| play_one(game, start, (&mut stream(seed, &[i]), seed), players, i, recording))
            .collect();
        if let Some(e) = game.take_error() {
            return Err(Failure::message("stratagem::game::engine", e));
        }
        for p in played {
            let p = p.map_err(|e| Failure::message("stratagem::play::endless", e))?;
            turns += u64::from(p.turns);
            let best = p.scores.iter().copied().max().unwrap_or(0);
            let at_best = p.scores.iter().filter(|s| **s == best).count();
            for (s, &score) in stats.iter_mut().zip(&p.scores) {
                s.score_sum += u64::from(score);
                if score == best && at_best == 1 {
                    s.wins += 1;
                } else if score == best {
                    s.shared += 1;
                }
            }
            if let (Some(sink), Some(line)) = (record.as_mut(), p.line) {
                sink(&line)?;
            }
        }
    }
    Ok(RoleTotals { stats, turns })
}
