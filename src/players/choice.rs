//! One move chosen by a player named by text ([`super::spec`]) in one
//! position, and the values the player gives the moves where it has them:
//! what `stratagem moves --player` shows beside the listed moves.
//!
//! A two-player alternating game's player is made as `play` makes it
//! ([`super::two_player`]) and chooses as it does in a match; its values
//! are its search's, each move searched to the player's depth with a full
//! window ([`GamePlayer::choose_with_values`]). Any other game's player is
//! one of a game of n roles ([`super::roles`], as `play --players` reads
//! it), and chooses as there ([`roles::choose_once`]): in a simultaneous
//! turn, one move for every role, which together make the joint move
//! chosen. A chance turn and an ended game have no choice to make. The
//! players of a game of named players (kind `observed`, Ant Wars) play
//! whole games, seeing part of the board and remembering what they saw,
//! so no position alone tells them what to do: such a game is refused.
//!
//! Random choices come from streams named by the seed, so a seed fixes the
//! choice.

use crate::diagnostic::Failure;
use crate::eval::Engine;
use crate::games::domain::{GpDomain, GpGame};
use crate::games::registry::{Entry, Kind};
use crate::games::{Role, Turn};
use crate::search::players::GamePlayer;

use super::roles::{self, RolePlayer};

/// The stream tag of a two-player game's player choosing once.
const CHOICE_STREAM: u64 = 0xc401;

/// What a player chose in a position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Choice {
    /// The move chosen, in the game's notation (in a simultaneous turn, the
    /// joint move: every role's move in role order, separated by spaces);
    /// `None` when no role chooses (a chance turn, an ended game).
    pub chosen: Option<String>,
    /// The player's value of each legal move of the role to move, in the
    /// order of [`crate::games::Game::legal_moves`], where it values moves (`None` for a
    /// move it did not value: forward pruning at the root); `None` for a
    /// player that does not (random, UCT, a random evaluation) and in a
    /// simultaneous turn.
    pub values: Option<Vec<Option<f64>>>,
}

/// The move the player `spec` (given as `--player`) chooses in `state` of a
/// two-player alternating game, with its values.
pub fn choose_two_player<G: GpGame>(
    game: &G,
    state: &G::State,
    spec: &str,
    seed: u64,
    engine: Engine,
) -> Result<Choice, Failure> {
    let factory = super::two_player(game, "--player", spec, engine)?;
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    if moves.is_empty() {
        return Ok(Choice::default());
    }
    let mut player: Box<dyn GamePlayer<G>> = factory.make(seed, &[CHOICE_STREAM]);
    let (i, values) = player.choose_with_values(game, state, &moves);
    let chosen = moves.get(i).or(moves.first()).map(|mv| game.format_move(state, mv));
    Ok(Choice { chosen, values })
}

/// The move the player `spec` (given as `--player`) chooses in `state` of
/// any game but a game of named players, as a player of a game of n roles
/// chooses it, with its values.
pub fn choose_role<G: GpDomain>(
    entry: &Entry,
    game: &G,
    state: &G::State,
    spec: &str,
    seed: u64,
    engine: Engine,
) -> Result<Choice, Failure> {
    if entry.kind == Kind::Observed {
        return Err(Failure::message(
            "stratagem::moves::player",
            format!(
                "`--player` needs a game whose players choose a move from a position, and `{}` is {}: its players \
                 play whole games, seeing part of the board and remembering what they saw",
                entry.name,
                entry.kind.describe()
            ),
        ));
    }
    let player = RolePlayer::parse(entry, "--player", spec)?;
    let bound = roles::bind(game, &[player], engine)?;
    let Some(bound) = bound.first() else { return Ok(Choice::default()) };
    match game.turn(state) {
        Turn::Role(role) => {
            let Some((mv, values)) = roles::choose_once(game, state, role, bound, seed) else {
                return Ok(Choice::default());
            };
            let values = values.map(|vs| vs.into_iter().map(Some).collect());
            Ok(Choice { chosen: Some(game.format_move(state, &mv)), values })
        }
        Turn::Simultaneous => {
            let mut joint = Vec::with_capacity(game.n_roles());
            for role in 0..game.n_roles() as Role {
                match roles::choose_once(game, state, role, bound, seed) {
                    Some((mv, _)) => joint.push(game.format_move(state, &mv)),
                    None => return Ok(Choice::default()),
                }
            }
            Ok(Choice { chosen: Some(joint.join(" ")), values: None })
        }
        Turn::Chance | Turn::Over => Ok(Choice::default()),
    }
}
