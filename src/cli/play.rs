//! `stratagem play --game G --a SPEC --b SPEC --games N [--seed S]`: a match
//! between two players (see `search::players` for the specs). Colours
//! alternate: A moves first in even-numbered games. Games run in parallel,
//! each with random streams named by (seed, game, side), so the result is the
//! same at any thread count. Games that are not two-player alternating are
//! played by random players, one per role (`play_roles`).

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use super::perft::parse_position;
use super::{Failure, Format, Outcome, PlayArgs, engine_error, game_entry, out};
use crate::files::AtomicFile;
use crate::games::Player;
use crate::games::domain::GpGame;
use crate::games::registry::{Kind, TwoPlayerTask};
use crate::limits::Limit;
use crate::players::matches::{RecordSink, SideStats, game_line, play_match};
use crate::search::players::GameRecord;

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
    entry.run_two_player("`play`", Play(args)).map_err(Failure::from)?
}

fn run_game<G: GpGame>(game: &G, args: &PlayArgs) -> Outcome {
    Limit::Games
        .check(args.games, &format!("`--games {}`", args.games))
        .map_err(|e| Failure::message("stratagem::limit", e))?;
    let start = parse_position(game, args.position.as_deref())?;
    let a = crate::players::two_player(game, "--a", &args.a, args.engine)?;
    let b = crate::players::two_player(game, "--b", &args.b, args.engine)?;
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
