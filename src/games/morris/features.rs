//! The Nine Men's Morris terminals of Benbassat & Sipper 2012 (seeds/002,
//! table 2), as functions of a position and the player it is evaluated for
//! ("friendly"; the other player is the "enemy").
//!
//! The paper names the terminals but does not define them; our reading:
//! - a *mill* is one of the 16 lines with all three points held by the player;
//! - a *possible mill* is a line with two of the player's men and the third
//!   point empty;
//! - an *almost certain mill* is a possible mill the player can close on its
//!   next turn (it has a man in hand, may fly, or has a man outside the line
//!   next to the empty point) and the enemy cannot block on its next turn (it
//!   has no man in hand, cannot fly, and has no man next to the empty point);
//! - an *intersection* is one of the 12 points where a spoke meets a ring
//!   (three or four lines meet there).

use super::Position;
use super::board::{ADJACENT, INTERSECTIONS, MILLS};
use crate::games::Player;

fn lines_where(pos: &Position, me: Player, keep: impl Fn(u32, u32, u32) -> bool) -> f64 {
    let own = pos.men[me as usize];
    let empty = pos.empty_points();
    MILLS.iter().filter(|&&m| keep(m, m & own, m & empty)).count() as f64
}

/// Whether `p` could put a man on `pt` on its next turn, not using the men of `line`.
fn can_reach(pos: &Position, p: Player, pt: u32, line: u32) -> bool {
    let own = pos.men[p as usize] & !line;
    pos.is_placing(p) || (pos.is_flying(p) && own != 0) || ADJACENT[pt as usize] & own != 0
}

fn almost_mills(pos: &Position, me: Player) -> f64 {
    lines_where(pos, me, |m, own, empty| {
        if own.count_ones() != 2 || empty.count_ones() != 1 {
            return false;
        }
        let pt = empty.trailing_zeros();
        can_reach(pos, me, pt, m) && !can_reach(pos, me ^ 1, pt, 0)
    })
}

/// FriendlyMillCount (table 2): the number of mills the player has.
pub fn friendly_mill_count(pos: &Position, me: Player) -> f64 {
    lines_where(pos, me, |m, own, _| own == m)
}

/// EnemyMillCount (table 2): the number of mills the enemy has.
pub fn enemy_mill_count(pos: &Position, me: Player) -> f64 {
    friendly_mill_count(pos, me ^ 1)
}

/// TotalMillCount (table 2): FriendlyMillCount − EnemyMillCount.
pub fn total_mill_count(pos: &Position, me: Player) -> f64 {
    friendly_mill_count(pos, me) - enemy_mill_count(pos, me)
}

/// FriendlyAlmostMillCount (table 2): the player's almost certain mills.
pub fn friendly_almost_mill_count(pos: &Position, me: Player) -> f64 {
    almost_mills(pos, me)
}

/// EnemyAlmostMillCount (table 2): the enemy's almost certain mills.
pub fn enemy_almost_mill_count(pos: &Position, me: Player) -> f64 {
    almost_mills(pos, me ^ 1)
}

/// FriendlyPossibleMillCount (table 2): the player's possible mills.
pub fn friendly_possible_mill_count(pos: &Position, me: Player) -> f64 {
    lines_where(pos, me, |_, own, empty| own.count_ones() == 2 && empty.count_ones() == 1)
}

/// EnemyPossibleMillCount (table 2): the enemy's possible mills.
pub fn enemy_possible_mill_count(pos: &Position, me: Player) -> f64 {
    friendly_possible_mill_count(pos, me ^ 1)
}

/// FriendlyIntersectionCount (table 2): intersections the player holds.
pub fn friendly_intersection_count(pos: &Position, me: Player) -> f64 {
    f64::from((pos.men[me as usize] & INTERSECTIONS).count_ones())
}

/// EnemyIntersectionCount (table 2): intersections the enemy holds.
pub fn enemy_intersection_count(pos: &Position, me: Player) -> f64 {
    friendly_intersection_count(pos, me ^ 1)
}

/// FirstPhaseCheck (table 2): true iff the game is in the placing phase
/// (either player still has men in hand).
pub fn first_phase_check(pos: &Position, _me: Player) -> bool {
    pos.in_hand != [0, 0]
}

/// FriendlyPieceCount, the generic board terminal of seeds/000 table 1-3 read
/// for Morris: the player's men, on the board and in hand.
pub fn friendly_piece_count(pos: &Position, me: Player) -> f64 {
    f64::from(pos.n_men(me))
}

/// EnemyPieceCount (seeds/000 table 1-3): the enemy's men, on the board and in hand.
pub fn enemy_piece_count(pos: &Position, me: Player) -> f64 {
    friendly_piece_count(pos, me ^ 1)
}

/// PieceCount (seeds/000 table 1-3): FriendlyPieceCount − EnemyPieceCount.
pub fn piece_count(pos: &Position, me: Player) -> f64 {
    friendly_piece_count(pos, me) - enemy_piece_count(pos, me)
}

/// A numeric terminal of a position for a player.
pub type NumberTerminal = fn(&Position, Player) -> f64;
/// A boolean terminal of a position for a player.
pub type BoolTerminal = fn(&Position, Player) -> bool;

/// The F-typed terminals of table 2, in the paper's order, then the generic
/// piece counts of the board-game system (seeds/000 table 1-3).
pub const NUMBER_TERMINALS: [(&str, NumberTerminal); 12] = [
    ("FriendlyMillCount", friendly_mill_count),
    ("EnemyMillCount", enemy_mill_count),
    ("TotalMillCount", total_mill_count),
    ("FriendlyAlmostMillCount", friendly_almost_mill_count),
    ("EnemyAlmostMillCount", enemy_almost_mill_count),
    ("FriendlyPossibleMillCount", friendly_possible_mill_count),
    ("EnemyPossibleMillCount", enemy_possible_mill_count),
    ("FriendlyIntersectionCount", friendly_intersection_count),
    ("EnemyIntersectionCount", enemy_intersection_count),
    ("FriendlyPieceCount", friendly_piece_count),
    ("EnemyPieceCount", enemy_piece_count),
    ("PieceCount", piece_count),
];

/// The B-typed terminals of table 2.
pub const BOOL_TERMINALS: [(&str, BoolTerminal); 1] = [("FirstPhaseCheck", first_phase_check)];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::games::morris::Morris;

    #[test]
    fn counts_on_a_small_position() {
        // White: mill a7 d7 g7, and a1 a4 with a7 already used; Black: d2 d3, d1 empty.
        let pos = Morris.parse_state("B:Wa7,d7,g7,a1,f4:Bd2,d3,g1,b4:T20").expect("valid position");
        assert_eq!(friendly_mill_count(&pos, 0), 1.0);
        assert_eq!(enemy_mill_count(&pos, 1), 1.0);
        assert_eq!(total_mill_count(&pos, 0), 1.0);
        // a7 a4 a1: a4 empty, two White men → possible for White; Black's b4 is next to a4.
        // d1 d2 d3 (spoke d1-d2-d3): d1 empty, two Black men → possible for Black.
        assert_eq!(friendly_possible_mill_count(&pos, 0), 1.0);
        assert_eq!(friendly_possible_mill_count(&pos, 1), 1.0);
        // White can close a4 only from a7/a1 (in the line) – not at all; Black blocks with b4.
        assert_eq!(friendly_almost_mill_count(&pos, 0), 0.0);
        // Black closes d1 from g1 (outside the line); White's a1 is next to d1, so it can block.
        assert_eq!(friendly_almost_mill_count(&pos, 1), 0.0);
        assert_eq!(friendly_intersection_count(&pos, 0), 2.0); // d7, f4
        assert_eq!(enemy_intersection_count(&pos, 0), 3.0); // d2, d3, b4
        assert!(!first_phase_check(&pos, 0));
        assert!(first_phase_check(&Morris.initial_state(), 0));
    }
}
