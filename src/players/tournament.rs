//! Round robins of players named by text on any game that has two sides:
//! a game of named players (kind `observed`) reads the names itself
//! ([`NamedPlayers`]: its built-in players and `c:FILE.c`); a two-player
//! game of the model takes the players of [`super::two_player`] (random,
//! α-β, evolved programs) through [`SearchDuel`]. Other games are refused
//! with a diagnostic.

use std::sync::Arc;
use std::time::Instant;

use crate::diagnostic::{Diagnostic, Failure, Sources};
use crate::eval::Engine;
use crate::games::domain::GpGame;
use crate::games::duel::{Duel, NamedPlayers, PlayerError};
use crate::games::registry::{DuelTask, Entry, Kind, TwoPlayerTask, names_of};
use crate::games::tournament::{Settings, Tournament, round_robin};
use crate::search::duel::SearchDuel;

/// A round robin's result, the game's name and the seconds its games took.
pub struct RoundRobin {
    pub result: Tournament,
    pub game: String,
    pub seconds: f64,
}

/// The round robin of `players` (specs, as `--players` names them) on the
/// game of `entry`, `gp:` programs evaluated on `engine`.
pub fn round_robin_of(
    entry: &Entry,
    players: &[String],
    engine: Engine,
    settings: Settings,
) -> Result<RoundRobin, Failure> {
    /// A game of named players: it reads the names itself.
    struct Named<'a>(&'a [String], Settings);
    impl DuelTask for Named<'_> {
        type Output = Result<RoundRobin, Failure>;
        fn run<G: NamedPlayers + Send + 'static>(self, game: G) -> Self::Output {
            let specs = self.0.iter().map(|p| game.parse_player(p)).collect::<Result<Vec<_>, _>>();
            play_round_robin(&game, specs.map_err(player_failure)?, self.1)
        }
    }
    /// A two-player game of the model: `play`'s players, read as `play` reads them.
    struct Searched<'a>(&'a [String], Engine, Settings);
    impl TwoPlayerTask for Searched<'_> {
        type Output = Result<RoundRobin, Failure>;
        fn run<G: GpGame>(self, game: G) -> Self::Output {
            let specs = self
                .0
                .iter()
                .map(|p| super::two_player(&game, "--players", p, self.1).map(Arc::new))
                .collect::<Result<Vec<_>, _>>()?;
            play_round_robin(&SearchDuel(game), specs, self.2)
        }
    }
    if entry.plays_duels() {
        return entry.run_duel("`tournament`", Named(players, settings)).map_err(Failure::from)?;
    }
    match entry.kind {
        Kind::TwoPlayer => {
            entry.run_two_player("`tournament`", Searched(players, engine, settings)).map_err(Failure::from)?
        }
        kind => {
            let games = [names_of(Kind::TwoPlayer), names_of(Kind::Observed)].concat().join(", ");
            Err(Failure::new(
                Sources::new(),
                vec![
                    Diagnostic::error(
                        "stratagem::game::kind",
                        format!(
                            "`tournament` needs a game of two players, and `{}` is {}",
                            entry.name,
                            kind.describe()
                        ),
                    )
                    .with_help(format!("games of two players: {games}, or a two-player GDL game (GAME.kif)")),
                ],
            ))
        }
    }
}

fn play_round_robin<G: Duel>(game: &G, specs: Vec<G::Spec>, settings: Settings) -> Result<RoundRobin, Failure> {
    let start = Instant::now();
    let result = round_robin(game, &specs, settings).map_err(player_failure)?;
    Ok(RoundRobin { result, game: game.name().to_owned(), seconds: start.elapsed().as_secs_f64() })
}

/// A player's problem as a failure.
fn player_failure(e: PlayerError) -> Failure {
    let mut d = Diagnostic::error("stratagem::player", e.message);
    if let Some(help) = e.help {
        d = d.with_help(help);
    }
    Failure::new(Sources::new(), vec![d])
}
