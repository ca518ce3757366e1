//! Players named by text, for any game of the registry: the one grammar
//! ([`spec`]), the programs a `gp:` player evaluates with ([`programs`]),
//! and the games they play: matches of two players ([`matches`]), games
//! of any number of roles, a player per role ([`roles`]), and round robins
//! on any game of two sides ([`tournament`]), where a game of named players
//! (kind `observed`) reads its own names behind its registry entry; and the
//! move a player chooses in one position, with its values of the moves
//! ([`choice`]). `play`, `tournament`, `moves --player` and `ggp serve`
//! come here, and `solve` for its programs; an experiment's `(versus
//! "PLAYER" ...)` on a game of named players is read by the game, as
//! `tournament` reads it.

pub mod choice;
pub mod matches;
pub mod programs;
pub mod roles;
pub mod spec;
pub mod tournament;

use std::path::Path;

pub use spec::{EvalSpec, PlayerSpec};

use crate::diagnostic::Failure;
use crate::eval::Engine;
use crate::games::domain::GpGame;
use crate::search::players::PlayerFactory;

/// The player `text` names (given as `flag` on the command line) for a
/// two-player game, its programs loaded, bound to `game` and compiled.
pub fn two_player<G: GpGame>(
    game: &G,
    flag: &str,
    text: &str,
    engine: Engine,
) -> Result<PlayerFactory<G::State>, Failure> {
    let spec = PlayerSpec::parse(text)
        .map_err(|e| Failure::message("stratagem::play::spec", format!("{flag} {text}: {e}")))?;
    Ok(match spec {
        PlayerSpec::Random => PlayerFactory::Random,
        PlayerSpec::Uct { params, think } => PlayerFactory::Uct(params, think),
        PlayerSpec::Search { eval: EvalSpec::Material, params } => PlayerFactory::Material(params),
        PlayerSpec::Search { eval: EvalSpec::Random, params } => PlayerFactory::RandomGuide(params),
        PlayerSpec::Search { eval: EvalSpec::Gp { file, name }, params } => {
            PlayerFactory::Gp(programs::load_programs(game, Path::new(&file), &name, &params, engine)?, params)
        }
        PlayerSpec::UctOnTheClock | PlayerSpec::Legal => return Err(only_on_the_clock(flag, text)),
    })
}

/// `uct` without a budget and `legal` play where a game server sets the clock.
fn only_on_the_clock(flag: &str, text: &str) -> Failure {
    Failure::message(
        "stratagem::play::spec",
        format!(
            "{flag} {text}: `{text}` plays only in `ggp serve`; give a budget here (uct:N iterations or uct:ms=M a \
             move)"
        ),
    )
}
