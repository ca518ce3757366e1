//! `stratagem play` on games that are not two-player alternating (GDL games
//! of n roles, simultaneous moves): one player per role, in role order, from
//! `--players`, or A for the first role, B for the second and random players
//! for the others. Random and UCT players (`uct:N`, `uct:ms=M`) play such
//! games (α-β needs two players taking turns). Roles keep their players from
//! game to game; game `i` draws every random move from the stream (seed, i)
//! and each UCT role searches with its own stream (seed, i, role), a fresh
//! tree per move, so with UCT budgets in iterations the result is the same
//! at any thread count.
//!
//! Each role gets its mean score and how often it won (the highest score
//! alone) or shared the highest score; `--record` writes each game as a JSON
//! line: the scores, each turn's moves by role, and the final state.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;

use super::perft::parse_position;
use super::play::PlayArgs;
use super::{Failure, Format, Outcome, engine_error, out, unsupported};
use crate::files::AtomicFile;
use crate::games::domain::GpDomain;
use crate::games::registry::{Entry, GameTask, Kind, Unsupported};
use crate::games::{Game, Role, Turn};
use crate::limits::Limit;
use crate::rng::{GpRng, stream};
use crate::search::players::PlayerSpec;
use crate::search::uct::{Think, Uct, UctParams};

/// A game that has not ended after this many turns is reported, not played on.
const MAX_TURNS: u32 = 100_000;

/// Games are played in parallel a chunk at a time, so memory stays flat.
const CHUNK: u64 = 1 << 12;

pub fn run(entry: &'static Entry, args: &PlayArgs) -> Outcome {
    let (specs, players) = role_specs(entry, args)?;
    struct Play<'a>(&'a PlayArgs, &'a [String], &'a [RolePlayer]);
    impl GameTask for Play<'_> {
        type Output = Outcome;
        fn run<G: GpDomain + Send + 'static>(self, game: G) -> Outcome
        where
            G::State: Send + Sync + 'static,
            G::Move: Send + Sync + 'static,
        {
            run_game(&game, self.0, self.1, self.2)
        }
    }
    entry.run(Play(args, &specs, &players))
}

/// A role's player: random, or UCT with its settings.
type RolePlayer = Option<(UctParams, Think)>;

/// Each role's player spec, checked: one per role, each `random` or `uct:...`.
fn role_specs(entry: &'static Entry, args: &PlayArgs) -> Result<(Vec<String>, Vec<RolePlayer>), Failure> {
    let n = entry.roles.len();
    let specs: Vec<String> = match &args.players {
        Some(specs) if specs.len() != n => {
            return Err(Failure::message(
                "stratagem::play::players",
                format!(
                    "--players gives {} players, and `{}` has {n} roles ({})",
                    specs.len(),
                    entry.name,
                    entry.roles.join(", ")
                ),
            ));
        }
        Some(specs) => specs.clone(),
        None => {
            [args.a.clone(), args.b.clone()].into_iter().chain(std::iter::repeat("random".to_owned())).take(n).collect()
        }
    };
    let mut players = Vec::with_capacity(n);
    for (role, spec) in entry.roles.iter().zip(&specs) {
        match PlayerSpec::parse(spec) {
            Ok(PlayerSpec::Random) => players.push(None),
            Ok(PlayerSpec::Uct { params, think }) => players.push(Some((params, think))),
            Ok(PlayerSpec::Search { .. }) => {
                return Err(unsupported(Unsupported {
                    game: entry.name,
                    kind: entry.kind,
                    request: format!("`{spec}` (the player of {role})"),
                    needs: Kind::TwoPlayer,
                }));
            }
            Err(e) => return Err(Failure::message("stratagem::play::spec", format!("{role}: {spec}: {e}"))),
        }
    }
    Ok((specs, players))
}

/// The stream tag of a UCT role's search.
const UCT_STREAM: u64 = 0x0075_6374;

/// Role `role`'s move by its UCT player, if it has one.
fn uct_move<G: Game>(
    game: &G,
    state: &G::State,
    role: Role,
    searches: &mut [Option<(Uct<G>, Think)>],
) -> Option<G::Move> {
    let (uct, think) = searches.get_mut(usize::from(role))?.as_mut()?;
    uct.reset();
    let mv = uct.choose(game, state, role, think.budget());
    uct.reset();
    mv
}

/// One game: every role's score, the turns, and the record line if asked.
struct Played {
    scores: Vec<u8>,
    turns: u32,
    line: Option<String>,
}

/// Plays one game from `start`: random players, and UCT players where
/// `players` says so (searching with streams of `seed`).
fn play_one<G: Game>(
    game: &G,
    start: &G::State,
    (rng, seed): (&mut GpRng, u64),
    players: &[RolePlayer],
    i: u64,
    record: bool,
) -> Result<Played, String> {
    let mut searches: Vec<Option<(Uct<G>, Think)>> = players
        .iter()
        .enumerate()
        .map(|(r, p)| p.map(|(params, think)| (Uct::new(params, stream(seed, &[i, UCT_STREAM, r as u64])), think)))
        .collect();
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
                match uct_move(game, &state, role as Role, &mut searches) {
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
                Turn::Role(r) => uct_move(game, &state, r, &mut searches),
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
struct RoleStats {
    score_sum: u64,
    /// Games where the role had the highest score alone.
    wins: u64,
    /// Games where it shared the highest score.
    shared: u64,
}

fn run_game<G: GpDomain>(game: &G, args: &PlayArgs, specs: &[String], players: &[RolePlayer]) -> Outcome
where
    G::State: Send + Sync,
    G::Move: Send + Sync,
{
    Limit::Games
        .check(args.games, &format!("`--games {}`", args.games))
        .map_err(|e| Failure::message("stratagem::limit", e))?;
    let start = parse_position(game, args.position.as_deref())?;
    let cannot_write = |path: &Path, e: std::io::Error| {
        Failure::message("stratagem::io", format!("cannot write `{}`: {e}", path.display()))
    };
    let mut record = match &args.record {
        Some(path) => Some((AtomicFile::create(path).map_err(|e| cannot_write(path, e))?, path)),
        None => None,
    };
    let n = game.n_roles();
    let mut stats = vec![RoleStats::default(); n];
    let mut turns = 0u64;
    let clock = Instant::now();
    for first in (0..args.games).step_by(CHUNK as usize) {
        let played: Vec<Result<Played, String>> = (first..args.games.min(first.saturating_add(CHUNK)))
            .into_par_iter()
            .map(|i| play_one(game, &start, (&mut stream(args.seed, &[i]), args.seed), players, i, record.is_some()))
            .collect();
        engine_error(game)?;
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
            if let (Some((file, path)), Some(line)) = (record.as_mut(), p.line) {
                file.write_all(line.as_bytes()).map_err(|e| cannot_write(path, e))?;
            }
        }
    }
    let seconds = clock.elapsed().as_secs_f64();
    if let Some((file, path)) = record {
        file.commit().map_err(|e| cannot_write(path, e))?;
    }
    let games = args.games.max(1) as f64;
    let games_per_s = if seconds > 0.0 { args.games as f64 / seconds } else { 0.0 };
    let mean = |s: &RoleStats| s.score_sum as f64 / games;
    let text = match args.format {
        Format::Json => {
            let roles: Vec<serde_json::Value> = stats
                .iter()
                .enumerate()
                .map(|(r, s)| {
                    serde_json::json!({
                        "role": game.role_name(r as Role), "player": specs[r], "mean_score": mean(s),
                        "wins": s.wins, "shared": s.shared,
                    })
                })
                .collect();
            format!(
                "{}\n",
                serde_json::json!({
                    "game": game.name(), "games": args.games, "seed": args.seed, "roles": roles,
                    "turns_mean": turns as f64 / games, "games_per_s": games_per_s,
                })
            )
        }
        Format::Text => {
            let mut text = format!("{} games of {} (seed {})\n", args.games, game.name(), args.seed);
            for (r, s) in stats.iter().enumerate() {
                text.push_str(&format!(
                    "{}: {}\n   mean score {:.1} wins {} shared {}\n",
                    game.role_name(r as Role),
                    specs[r],
                    mean(s),
                    s.wins,
                    s.shared
                ));
            }
            text.push_str(&format!("turns/game: {:.1}\ngames/s: {games_per_s:.1}\n", turns as f64 / games));
            text
        }
    };
    out(&text);
    Ok(())
}
