//! `stratagem moves --game G [--position P] [--player SPEC] [--format
//! text|json] [--seed S]`: the legal moves of a position, each in the
//! game's notation with the position it leads to (`games::listing`: chance
//! outcomes with their probabilities; in a simultaneous turn each role's
//! moves and the joint moves); with `--player`, the move that player
//! chooses and its value of each move where it has them
//! (`players::choice`).
//!
//! Text is one line a move, `MOVE  ->  POSITION`, then `probability W/T`
//! for a chance outcome or `value V` for a valued move; JSON is one object:
//! `game`, `position`, `to_move` (a role, `chance`, `simultaneous` or
//! `over`), `moves` (`move`, `position`, `probability` and `weight`,
//! `value`), `roles` where other roles have moves, `joint_moves` in a
//! simultaneous turn, `scores` once over, and with `--player` its spec,
//! the seed and `chosen` (null where no role chooses).

use super::perft::parse_position;
use super::{Engine, Failure, Format, Outcome, engine_error, game_entry, out};
use crate::games::domain::{GpDomain, GpGame};
use crate::games::listing::{Listing, MAX_JOINT_MOVES, list_moves};
use crate::games::registry::{Entry, GameTask, Kind, TwoPlayerTask};
use crate::games::{Game, Role, Turn};
use crate::players::choice::{Choice, choose_role, choose_two_player};

pub struct MovesArgs {
    pub game: String,
    pub position: Option<String>,
    pub player: Option<String>,
    pub seed: u64,
    pub engine: Engine,
    pub format: Format,
}

pub fn run(args: &MovesArgs) -> Outcome {
    struct AnyGame<'a>(&'static Entry, &'a MovesArgs);
    impl GameTask for AnyGame<'_> {
        type Output = Outcome;
        fn run<G: GpDomain + Send + 'static>(self, game: G) -> Outcome
        where
            G::State: Send + Sync + 'static,
            G::Move: Send + Sync + 'static,
        {
            let AnyGame(entry, args) = self;
            report(&game, args, |state| match &args.player {
                Some(spec) => choose_role(entry, &game, state, spec, args.seed, args.engine).map(Some),
                None => Ok(None),
            })
        }
    }
    struct TwoPlayerGame<'a>(&'a MovesArgs, &'a str);
    impl TwoPlayerTask for TwoPlayerGame<'_> {
        type Output = Outcome;
        fn run<G: GpGame>(self, game: G) -> Outcome {
            let TwoPlayerGame(args, spec) = self;
            report(&game, args, |state| choose_two_player(&game, state, spec, args.seed, args.engine).map(Some))
        }
    }
    let entry = game_entry(&args.game)?;
    match args.player.as_deref() {
        Some(spec) if entry.kind == Kind::TwoPlayer => {
            entry.run_two_player("`moves --player`", TwoPlayerGame(args, spec)).map_err(Failure::from)?
        }
        _ => entry.run(AnyGame(entry, args)),
    }
}

/// Lists the moves of the position asked for, asks `choose` for the
/// player's choice, and prints both.
fn report<G: Game>(
    game: &G,
    args: &MovesArgs,
    choose: impl FnOnce(&G::State) -> Result<Option<Choice>, Failure>,
) -> Outcome {
    let state = parse_position(game, args.position.as_deref())?;
    let listing = list_moves(game, &state);
    engine_error(game)?;
    let choice = choose(&state)?;
    engine_error(game)?;
    let position = game.format_state(&state);
    let text = match args.format {
        Format::Json => format!("{}\n", json(game, args, &position, &listing, choice.as_ref())),
        Format::Text => text(game, args, &position, &listing, choice.as_ref()),
    };
    out(&text);
    Ok(())
}

/// The player's value of move `i`, if it gave one.
fn value(choice: Option<&Choice>, i: usize) -> Option<f64> {
    choice.and_then(|c| c.values.as_ref()).and_then(|vs| vs.get(i).copied().flatten())
}

fn json<G: Game>(game: &G, args: &MovesArgs, position: &str, listing: &Listing, choice: Option<&Choice>) -> String {
    let number =
        |x: f64| if x.is_finite() { serde_json::Value::from(x) } else { serde_json::Value::from(x.to_string()) };
    let moves: Vec<serde_json::Value> = listing
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let mut object = serde_json::Map::new();
            object.insert("move".into(), m.text.clone().into());
            object.insert("position".into(), m.position.clone().into());
            if let (Some(p), Some(w)) = (m.probability, m.weight) {
                object.insert("probability".into(), number(p));
                object.insert("weight".into(), number(w));
            }
            if let Some(v) = value(choice, i) {
                object.insert("value".into(), number(v));
            }
            serde_json::Value::Object(object)
        })
        .collect();
    let mut report = serde_json::Map::new();
    report.insert("game".into(), game.name().into());
    report.insert("position".into(), position.into());
    report.insert("to_move".into(), listing.to_move(game).into());
    report.insert("moves".into(), moves.into());
    if !listing.roles.is_empty() {
        let roles: Vec<serde_json::Value> =
            listing.roles.iter().map(|r| serde_json::json!({ "role": r.name, "moves": r.moves })).collect();
        report.insert("roles".into(), roles.into());
    }
    if listing.turn == Turn::Simultaneous {
        report.insert("joint_moves".into(), listing.joint_moves.into());
    }
    if listing.turn == Turn::Over {
        let scores: serde_json::Map<String, serde_json::Value> = listing
            .scores
            .iter()
            .enumerate()
            .map(|(r, s)| (game.role_name(r as Role).to_owned(), (*s).into()))
            .collect();
        report.insert("scores".into(), scores.into());
    }
    if let (Some(spec), Some(choice)) = (&args.player, choice) {
        report.insert("player".into(), spec.clone().into());
        report.insert("seed".into(), args.seed.into());
        report.insert("chosen".into(), choice.chosen.clone().into());
    }
    serde_json::Value::Object(report).to_string()
}

fn text<G: Game>(game: &G, args: &MovesArgs, position: &str, listing: &Listing, choice: Option<&Choice>) -> String {
    let n = listing.moves.len();
    let mut text = format!("{} {position}\n", game.name());
    let plural = |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    match listing.turn {
        Turn::Role(r) => text.push_str(&format!("{} to move: {}\n", game.role_name(r), plural(n as u64, "move"))),
        Turn::Chance => text.push_str(&format!("chance to move: {}\n", plural(n as u64, "outcome"))),
        Turn::Simultaneous if listing.joint_moves > MAX_JOINT_MOVES => text.push_str(&format!(
            "every role moves at once: {} (more than {MAX_JOINT_MOVES}, not listed)\n",
            plural(listing.joint_moves, "joint move")
        )),
        Turn::Simultaneous => text.push_str(&format!(
            "every role moves at once: {} (one move per role, in role order)\n",
            plural(listing.joint_moves, "joint move")
        )),
        Turn::Over => {
            let scores: Vec<String> =
                listing.scores.iter().enumerate().map(|(r, s)| format!("{} {s}", game.role_name(r as Role))).collect();
            text.push_str(&format!("the game is over: {}\n", scores.join(", ")));
        }
    }
    for r in &listing.roles {
        let forced = if listing.turn == Turn::Simultaneous { "" } else { " (no choice)" };
        text.push_str(&format!("{}: {}{forced}\n", r.name, r.moves.join(", ")));
    }
    let total: f64 = listing.moves.iter().filter_map(|m| m.weight).filter(|w| *w > 0.0).sum();
    for (i, m) in listing.moves.iter().enumerate() {
        text.push_str(&format!("{}  ->  {}", m.text, m.position));
        if let (Some(p), Some(w)) = (m.probability, m.weight) {
            text.push_str(&format!("  probability {}", probability(p, w, total)));
        }
        if let Some(v) = value(choice, i) {
            text.push_str(&format!("  value {}", short(v)));
        }
        text.push('\n');
    }
    if let (Some(spec), Some(choice)) = (&args.player, choice) {
        match &choice.chosen {
            Some(mv) => text.push_str(&format!("{spec} chooses {mv} (seed {})\n", args.seed)),
            None => text.push_str(&format!("{spec} chooses nothing: no role chooses here\n")),
        }
    }
    text
}

/// A probability as the weights give it, `2/36` where they are whole
/// numbers, else to four places.
fn probability(p: f64, weight: f64, total: f64) -> String {
    let whole = |x: f64| x.fract() == 0.0 && x.abs() < 1e15;
    if whole(weight) && whole(total) && total > 0.0 { format!("{weight}/{total}") } else { format!("{p:.4}") }
}

/// A value to four places, without trailing zeros.
fn short(v: f64) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".to_owned() } else { s.to_owned() }
}
