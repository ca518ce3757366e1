//! `stratagem perft --game G [--position TEXT] --depth D`: counts the leaves of
//! the game tree at each depth 1..=D (a multi-jump, or a mill with its
//! removal, is one move; in a simultaneous turn, a joint move) and prints
//! them as JSON, to check a move generator against reference counts and to
//! time it.

use std::time::Instant;

use super::{Failure, Outcome, engine_error, game_entry, out};
use crate::games::domain::GpDomain;
use crate::games::registry::GameTask;
use crate::games::{Game, ParseError, perft};
use crate::limits::Limit;

pub struct PerftArgs {
    pub game: String,
    pub position: Option<String>,
    pub depth: u32,
}

pub fn run(args: &PerftArgs) -> Outcome {
    struct Perft<'a>(&'a PerftArgs);
    impl GameTask for Perft<'_> {
        type Output = Outcome;
        fn run<G: GpDomain + Send + 'static>(self, game: G) -> Outcome
        where
            G::State: Send + Sync + 'static,
            G::Move: Send + Sync + 'static,
        {
            run_game(&game, self.0)
        }
    }
    game_entry(&args.game)?.run(Perft(args))
}

fn run_game<G: Game>(game: &G, args: &PerftArgs) -> Outcome {
    Limit::PerftDepth
        .check(u64::from(args.depth), &format!("`--depth {}`", args.depth))
        .map_err(|e| Failure::message("stratagem::limit", e))?;
    let state = parse_position(game, args.position.as_deref())?;
    let mut depths = Vec::new();
    for depth in 1..=args.depth {
        let start = Instant::now();
        let nodes = perft(game, &state, depth);
        let seconds = start.elapsed().as_secs_f64();
        engine_error(game)?;
        depths.push(serde_json::json!({ "depth": depth, "nodes": nodes, "seconds": round3(seconds) }));
    }
    let report = serde_json::json!({
        "game": game.name(),
        "position": game.format_state(&state),
        "depths": depths,
    });
    out(&format!("{report}\n"));
    Ok(())
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The position given with `--position`, or the initial one; bad text
/// becomes a diagnostic pointing into it.
pub(crate) fn parse_position<G: Game>(game: &G, text: Option<&str>) -> Result<G::State, Failure> {
    let Some(text) = text else {
        return Ok(game.initial_state());
    };
    game.parse_state(text).map_err(|e| text_failure("stratagem::game::position", "--position", text, e))
}

/// Turns a [`ParseError`] in text given on the command line (`flag`) into a
/// failure whose diagnostic shows that text.
pub(crate) fn text_failure(code: &'static str, flag: &str, text: &str, e: ParseError) -> Failure {
    let (sources, diag) = e.diagnose(code, flag, text);
    Failure::new(sources, vec![diag])
}
