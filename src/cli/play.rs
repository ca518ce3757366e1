//! `stratagem play --game G --a PLAYER --b PLAYER --games N --seed S`: plays
//! N games between two players, alternating who moves first (A moves first in
//! even-numbered games), and prints the score as JSON. Only the uniformly
//! random player exists so far; evolved players come with the GP binding.

use std::time::Instant;

use clap::ValueEnum;
use rand::SeedableRng;
use rand::rngs::SmallRng;

use super::perft::{GameName, parse_position};
use super::{Outcome, out};
use crate::games::checkers::Checkers;
use crate::games::morris::Morris;
use crate::games::playout::random_playout;
use crate::games::{Game, GameResult};

/// Who plays.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// A uniformly random legal move each turn.
    Random,
}

pub struct PlayArgs {
    pub game: GameName,
    pub a: PlayerKind,
    pub b: PlayerKind,
    pub games: u64,
    pub seed: u64,
    pub position: Option<String>,
}

pub fn run(args: &PlayArgs) -> Outcome {
    match args.game {
        GameName::LoseCheckers => run_game(&Checkers::lose(), args),
        GameName::Morris => run_game(&Morris, args),
    }
}

fn run_game<G: Game>(game: &G, args: &PlayArgs) -> Outcome {
    let start_state = parse_position(game, args.position.as_deref())?;
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let mut moves = Vec::with_capacity(64);
    let (mut a_wins, mut b_wins, mut draws, mut plies) = (0u64, 0u64, 0u64, 0u64);
    let start = Instant::now();
    for i in 0..args.games {
        let playout = match (args.a, args.b) {
            // Both players random: one random playout is the whole game.
            (PlayerKind::Random, PlayerKind::Random) => random_playout(game, &start_state, &mut rng, &mut moves),
        };
        let a_player = (i % 2) as u8;
        plies += u64::from(playout.plies);
        match playout.result {
            GameResult::Draw => draws += 1,
            GameResult::Winner(w) if w == a_player => a_wins += 1,
            GameResult::Winner(_) => b_wins += 1,
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let report = serde_json::json!({
        "game": game.name(),
        "games": args.games,
        "seed": args.seed,
        "a": { "player": "random", "wins": a_wins },
        "b": { "player": "random", "wins": b_wins },
        "draws": draws,
        "mean_plies": if args.games > 0 { plies as f64 / args.games as f64 } else { 0.0 },
        "seconds": seconds,
        "games_per_second": if seconds > 0.0 { args.games as f64 / seconds } else { 0.0 },
    });
    out(&format!("{report}\n"));
    Ok(())
}
