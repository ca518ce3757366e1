//! The moves of a position, listed for people and programs (`stratagem
//! moves`): who acts, and each legal move in the game's notation with the
//! position it leads to in the game's position text, for any game of the
//! model.
//!
//! - A turn of one role lists that role's moves ([`Game::legal_moves`]);
//!   the other roles' forced moves, where a game has them (GDL's `noop`),
//!   are listed beside them, and [`Game::apply`] plays them.
//! - A chance turn lists the outcomes with their probabilities
//!   ([`Game::chance_weights`] scaled to sum to 1, and the weights
//!   themselves, so that a reader can write 2/36 rather than 0.0556).
//! - A simultaneous turn lists each role's moves ([`Game::legal_moves_of`])
//!   without positions, since no one role's move leads anywhere alone, and
//!   the joint moves (one move per role, in role order, as
//!   [`Game::parse_joint_move`] reads them) with their positions while
//!   there are at most [`MAX_JOINT_MOVES`] of them; past that the joint
//!   moves are counted, not listed (ten roles of ten moves would be ten
//!   billion lines).
//! - An ended game lists nothing and gives every role's score.

use super::{Game, Role, Turn, each_joint_move, moves_by_role};

/// The most joint moves of a simultaneous turn that are listed one by one.
pub const MAX_JOINT_MOVES: u64 = 256;

/// One listed move: its text, where it leads, and in a chance turn its
/// probability and weight.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedMove {
    /// The move in the game's notation ([`Game::format_move`]); a joint
    /// move is its roles' moves in role order, separated by spaces.
    pub text: String,
    /// The position after the move ([`Game::format_state`] of
    /// [`Game::apply`], or of [`Game::apply_joint`]).
    pub position: String,
    /// In a chance turn, the outcome's probability (its weight over the
    /// sum of the weights).
    pub probability: Option<f64>,
    /// In a chance turn, the weight the game gives the outcome.
    pub weight: Option<f64>,
}

/// One role's legal moves, in the game's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoleMoves {
    pub role: Role,
    pub name: String,
    pub moves: Vec<String>,
}

/// The moves of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Listing {
    /// Who acts.
    pub turn: Turn,
    /// The moves of the role to act, the chance outcomes, or the joint
    /// moves of a simultaneous turn (when [`Listing::joint_moves`] is at
    /// most [`MAX_JOINT_MOVES`]); empty once the game is over.
    pub moves: Vec<ListedMove>,
    /// In a simultaneous turn, every role's moves; in a turn of one role,
    /// the other roles that still make a (forced) move.
    pub roles: Vec<RoleMoves>,
    /// In a simultaneous turn, how many joint moves there are (listed or
    /// not); 0 otherwise.
    pub joint_moves: u64,
    /// Every role's score, once the game is over.
    pub scores: Vec<u8>,
}

impl Listing {
    /// Who acts, as a word: the role's name, `chance`, `simultaneous` or
    /// `over`.
    pub fn to_move<G: Game>(&self, game: &G) -> String {
        match self.turn {
            Turn::Role(r) => game.role_name(r).to_owned(),
            Turn::Chance => "chance".to_owned(),
            Turn::Simultaneous => "simultaneous".to_owned(),
            Turn::Over => "over".to_owned(),
        }
    }
}

/// Every legal move of `state` (or chance outcome, or joint move) with the
/// position it leads to.
pub fn list_moves<G: Game>(game: &G, state: &G::State) -> Listing {
    let turn = game.turn(state);
    let mut listing = Listing { turn, moves: Vec::new(), roles: Vec::new(), joint_moves: 0, scores: Vec::new() };
    let mut moves = Vec::new();
    match turn {
        Turn::Role(mover) => {
            game.legal_moves(state, &mut moves);
            listing.moves = moves.iter().map(|mv| listed(game, state, mv, None)).collect();
            listing.roles = role_moves(game, state).into_iter().filter(|r| r.role != mover).collect();
        }
        Turn::Chance => {
            game.legal_moves(state, &mut moves);
            let mut weights = Vec::with_capacity(moves.len());
            game.chance_weights(state, &moves, &mut weights);
            let total: f64 = weights.iter().filter(|w| **w > 0.0).sum();
            listing.moves = moves
                .iter()
                .zip(&weights)
                .map(|(mv, &w)| {
                    let probability = if total > 0.0 { w.max(0.0) / total } else { 0.0 };
                    listed(game, state, mv, Some((probability, w)))
                })
                .collect();
        }
        Turn::Simultaneous => {
            listing.roles = role_moves(game, state);
            let by_role: Vec<&[String]> = listing.roles.iter().map(|r| r.moves.as_slice()).collect();
            let counts: Vec<u64> = by_role.iter().map(|m| m.len() as u64).collect();
            listing.joint_moves = counts.iter().try_fold(1u64, |acc, &n| acc.checked_mul(n)).unwrap_or(u64::MAX);
            if listing.joint_moves <= MAX_JOINT_MOVES && listing.roles.len() == game.n_roles() {
                listing.moves = joint_moves(game, state);
            }
        }
        Turn::Over => {
            listing.scores = (0..game.n_roles()).map(|r| game.score(state, r as Role).unwrap_or(0)).collect();
        }
    }
    listing
}

/// `mv` of `state` as listed, with its chance probability and weight if any.
fn listed<G: Game>(game: &G, state: &G::State, mv: &G::Move, chance: Option<(f64, f64)>) -> ListedMove {
    ListedMove {
        text: game.format_move(state, mv),
        position: game.format_state(&game.apply(state, mv)),
        probability: chance.map(|(p, _)| p),
        weight: chance.map(|(_, w)| w),
    }
}

/// The roles that have legal moves in `state`, with them.
fn role_moves<G: Game>(game: &G, state: &G::State) -> Vec<RoleMoves> {
    let mut moves = Vec::new();
    (0..game.n_roles() as Role)
        .filter_map(|role| {
            game.legal_moves_of(state, role, &mut moves);
            let texts: Vec<String> = moves.iter().map(|m| game.format_move(state, m)).collect();
            (!texts.is_empty()).then(|| RoleMoves { role, name: game.role_name(role).to_owned(), moves: texts })
        })
        .collect()
}

/// Every joint move of a simultaneous turn, as perft counts them, with its
/// position.
fn joint_moves<G: Game>(game: &G, state: &G::State) -> Vec<ListedMove> {
    let by_role = moves_by_role(game, state);
    let mut listed = Vec::new();
    each_joint_move(&by_role, |joint| {
        let text: Vec<String> = joint.iter().map(|m| game.format_move(state, m)).collect();
        listed.push(ListedMove {
            text: text.join(" "),
            position: game.format_state(&game.apply_joint(state, joint)),
            probability: None,
            weight: None,
        });
    });
    listed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Sources;
    use crate::games::gdl::{GdlGame, GdlRules};

    /// `n` roles each pick one of `k` numbers at once; then the game ends.
    fn picks(n: usize, k: usize) -> GdlGame {
        let roles: String = (0..n).map(|r| format!("(role r{r}) ")).collect();
        let nums: String = (1..=k).map(|i| format!("(num {i}) ")).collect();
        let text = format!(
            "{roles}{nums}(init start)
             (<= (legal ?r (pick ?n)) (role ?r) (true start) (num ?n))
             (<= (next (picked ?r ?n)) (does ?r (pick ?n)))
             (<= terminal (true (picked r0 ?x)))
             (<= (goal ?r 50) (role ?r))"
        );
        let mut sources = Sources::new();
        let file = sources.add("picks.kif", None, text);
        match GdlRules::compile("picks.kif", sources, file) {
            Ok(rules) => GdlGame::new(Box::leak(Box::new(rules))),
            Err((sources, diags)) => panic!("{}", sources.render_plain(&diags)),
        }
    }

    #[test]
    fn joint_moves_are_listed_up_to_the_limit_and_counted_past_it() {
        let game = picks(2, 3);
        let listing = list_moves(&game, &game.initial_state());
        assert_eq!(listing.turn, Turn::Simultaneous);
        assert_eq!((listing.joint_moves, listing.moves.len()), (9, 9));
        assert_eq!(listing.roles.iter().map(|r| r.moves.len()).collect::<Vec<_>>(), [3, 3]);
        assert_eq!(listing.moves[1].text, "(pick 1) (pick 2)", "the last role's move turns fastest");
        let after = game.parse_state(&listing.moves[1].position).expect("a position");
        let over = list_moves(&game, &after);
        assert_eq!((over.turn, over.scores.as_slice(), over.moves.len()), (Turn::Over, &[50, 50][..], 0));

        let game = picks(3, 7);
        let listing = list_moves(&game, &game.initial_state());
        assert!(listing.joint_moves > MAX_JOINT_MOVES);
        assert_eq!((listing.joint_moves, listing.moves.len(), listing.roles.len()), (343, 0, 3));
    }
}
