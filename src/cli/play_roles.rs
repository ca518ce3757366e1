//! `stratagem play` on games that are not two-player alternating (GDL games
//! of n roles, simultaneous moves): one player per role, in role order, from
//! `--players`, or A for the first role, B for the second and random players
//! for the others, played by `players::roles`.
//!
//! Each role gets its mean score and how often it won (the highest score
//! alone) or shared the highest score; `--record` writes each game as a JSON
//! line: the scores, each turn's moves by role, and the final state.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use super::perft::parse_position;
use super::{Failure, Format, Outcome, PlayArgs, out};
use crate::files::AtomicFile;
use crate::games::Role;
use crate::games::domain::GpDomain;
use crate::games::registry::{Entry, GameTask};
use crate::limits::Limit;
use crate::players::roles::{LineSink, RolePlayer, RoleStats, RoleTotals, bind, play_games};

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

/// Each role's player spec, checked: one per role.
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
    let players: Result<Vec<RolePlayer>, Failure> =
        entry.roles.iter().zip(&specs).map(|(role, spec)| RolePlayer::parse(entry, role, spec)).collect();
    Ok((specs, players?))
}

fn run_game<G: GpDomain>(game: &G, args: &PlayArgs, specs: &[String], players: &[RolePlayer]) -> Outcome
where
    G::State: Send + Sync,
    G::Move: Send + Sync,
{
    let players = bind(game, players, args.engine)?;
    let players = players.as_slice();
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
    let clock = Instant::now();
    let mut write_line = |line: &str| match record.as_mut() {
        Some((file, path)) => file.write_all(line.as_bytes()).map_err(|e| cannot_write(path, e)),
        None => Ok(()),
    };
    let sink: Option<LineSink<'_>> = if args.record.is_some() { Some(&mut write_line) } else { None };
    let RoleTotals { stats, turns } = play_games(game, &start, players, (args.games, args.seed), sink)?;
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
