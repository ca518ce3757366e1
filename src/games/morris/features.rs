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
use super::board::{ADJACENT, INTERSECTIONS, LINE_AT_BIT, lines, point};
use crate::games::{Bits, Player};

/// The lines where `me` holds two points and the third is empty.
#[inline]
fn possible_lines(pos: &Position, me: Player) -> u32 {
    lines([pos.men[me as usize], pos.empty_points()], |[[o0, e0], [o1, e1], [o2, e2]]| {
        (o0 & o1 & e2) | (o0 & e1 & o2) | (e0 & o1 & o2)
    })
}

/// The lines where `me` holds two points and the third is empty, as masks.
#[inline]
fn possible_mills(pos: &Position, me: Player) -> impl Iterator<Item = u32> {
    Bits(possible_lines(pos, me)).map(|b| LINE_AT_BIT[b as usize])
}

fn almost_mills(pos: &Position, me: Player) -> f64 {
    let (own, enemy) = (pos.men[me as usize], pos.men[(me ^ 1) as usize]);
    // Where the player can put a man next turn, not using the men of the line;
    // where the enemy can (to block). Placing and flying reach any empty point.
    let (me_placing, me_flying) = (pos.is_placing(me), pos.is_flying(me));
    let enemy_anywhere = pos.is_placing(me ^ 1) || (pos.is_flying(me ^ 1) && enemy != 0);
    if enemy_anywhere {
        // The enemy can block any line: no mill is almost certain.
        return 0.0;
    }
    possible_mills(pos, me)
        .filter(|&m| {
            let pt = (m & !own).trailing_zeros() as usize;
            let rest = own & !m;
            let reach = me_placing || (me_flying && rest != 0) || ADJACENT[pt] & rest != 0;
            reach && ADJACENT[pt] & enemy == 0
        })
        .count() as f64
}

/// FriendlyMillCount (table 2): the number of mills the player has.
pub fn friendly_mill_count(pos: &Position, me: Player) -> f64 {
    f64::from(lines([pos.men[me as usize]], |[[a], [b], [c]]| a & b & c).count_ones())
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
    f64::from(possible_lines(pos, me).count_ones())
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

/// Mobility (seeds/000 table 1-3, "the number of plies available to the
/// player") read for Morris: the placements, slides or flights `me` could make
/// on its turn, counting a mill-closing one once whatever it removes (as
/// OpenSpiel counts its actions). Blocking wins in Morris, so this is the
/// measure of it.
pub fn mobility(pos: &Position, me: Player) -> f64 {
    let empty = pos.empty_points();
    let own = pos.men[me as usize];
    let n = if pos.is_placing(me) {
        empty.count_ones()
    } else if pos.is_flying(me) {
        own.count_ones() * empty.count_ones()
    } else {
        Bits(own).map(|from| (ADJACENT[from as usize] & empty).count_ones()).sum()
    };
    f64::from(n)
}

/// A numeric terminal of a position for a player.
pub type NumberTerminal = fn(&Position, Player) -> f64;
/// A boolean terminal of a position for a player.
pub type BoolTerminal = fn(&Position, Player) -> bool;

/// The F-typed terminals of table 2, in the paper's order, then the generic
/// piece counts and mobility of the board-game system (seeds/000 table 1-3).
pub const NUMBER_TERMINALS: [(&str, NumberTerminal); 13] = [
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
    ("Mobility", mobility),
];

/// The B-typed terminals of table 2.
pub const BOOL_TERMINALS: [(&str, BoolTerminal); 1] = [("FirstPhaseCheck", first_phase_check)];

/// The point at ring `x` (0 outer, 2 inner) and position `y` (0–7, clockwise
/// from the top-left corner) of the paper's 3×8 board, if there is one. The
/// board has no forward direction, so the coordinates are the same for both
/// players.
fn point_bit(x: i64, y: i64) -> u32 {
    if (0..3).contains(&x) && (0..8).contains(&y) { 1 << point(x as u32, y as u32) } else { 0 }
}

/// IsEmptySquare(X,Y), the generic square terminal of seeds/000 table 1-4 on
/// the 3×8 board: true iff no man stands on the point (and off the board).
pub fn is_empty_square(pos: &Position, _me: Player, x: i64, y: i64) -> bool {
    point_bit(x, y) & (pos.men[0] | pos.men[1]) == 0
}

/// IsFriendlyPiece(X,Y) (seeds/000 table 1-4): true iff one of the player's
/// men stands on the point.
pub fn is_friendly_piece(pos: &Position, me: Player, x: i64, y: i64) -> bool {
    point_bit(x, y) & pos.men[me as usize] != 0
}

/// A square terminal: a property of the point at ring X, position Y.
pub type SquareTerminal = fn(&Position, Player, i64, i64) -> bool;

/// The square terminals of seeds/000 table 1-4 that have a meaning in Morris
/// (it has no kings).
pub const SQUARE_TERMINALS: [(&str, SquareTerminal); 2] =
    [("IsEmptySquare", is_empty_square), ("IsFriendlyPiece", is_friendly_piece)];

#[cfg(test)]
mod tests {
    use super::super::board::MILLS;
    use super::*;
    use crate::games::Game;
    use crate::games::morris::Morris;

    /// The terminals as the module comment defines them, line by line.
    fn reference(pos: &Position, me: Player) -> [f64; 3] {
        let (own, empty) = (pos.men[me as usize], pos.empty_points());
        let can_reach = |p: Player, pt: u32, line: u32| {
            let own = pos.men[p as usize] & !line;
            pos.is_placing(p) || (pos.is_flying(p) && own != 0) || ADJACENT[pt as usize] & own != 0
        };
        let possible = |m: u32| (m & own).count_ones() == 2 && (m & empty).count_ones() == 1;
        let count = |keep: &dyn Fn(u32) -> bool| MILLS.iter().filter(|&&m| keep(m)).count() as f64;
        [
            count(&|m| m & own == m),
            count(&possible),
            count(&|m| {
                let pt = (m & empty).trailing_zeros();
                possible(m) && can_reach(me, pt, m) && !can_reach(me ^ 1, pt, 0)
            }),
        ]
    }

    #[test]
    fn fast_counts_and_mobility_agree_with_the_definitions_on_random_games_under_both_rules() {
        use crate::rng::stream;
        use rand::RngExt;
        let mut moves = Vec::new();
        let (mut checked, mut almost) = (0, 0);
        for (seed, game) in (0..300).flat_map(|seed| [(seed, Morris::standard()), (seed, Morris::no_flying())]) {
            let mut rng = stream(seed, &[5]);
            let mut pos = game.initial_state();
            while !game.is_over(&pos) {
                for me in [0, 1] {
                    let mut own_moves = Vec::new();
                    pos.generate_for(me, &mut own_moves);
                    let mut placements: Vec<_> = own_moves.iter().map(|m| (m.from, m.to)).collect();
                    placements.dedup();
                    assert_eq!(mobility(&pos, me), placements.len() as f64, "{}", game.format_state(&pos));
                    let fast =
                        [friendly_mill_count(&pos, me), friendly_possible_mill_count(&pos, me), almost_mills(&pos, me)];
                    assert_eq!(fast, reference(&pos, me), "{}", game.format_state(&pos));
                    checked += 1;
                    almost += usize::from(fast[2] > 0.0);
                }
                game.legal_moves(&pos, &mut moves);
                pos = game.apply(&pos, &moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(checked > 10_000, "{checked}");
        assert!(almost > 100, "positions with almost certain mills are among them: {almost}");
    }

    #[test]
    fn counts_on_a_small_position() {
        // White: mill a7 d7 g7, and a1 a4 with a7 already used; Black: d2 d3, d1 empty.
        let pos = Morris::standard().parse_state("B:Wa7,d7,g7,a1,f4:Bd2,d3,g1,b4:T20").expect("valid position");
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
        assert!(first_phase_check(&Morris::standard().initial_state(), 0));
        // a7 is ring 0, position 0; f4 is ring 1, position 3; c4 is ring 2, position 7.
        assert!(is_friendly_piece(&pos, 0, 0, 0) && !is_friendly_piece(&pos, 1, 0, 0));
        assert!(is_friendly_piece(&pos, 0, 1, 3) && is_friendly_piece(&pos, 1, 1, 7));
        assert!(is_empty_square(&pos, 0, 2, 7) && !is_empty_square(&pos, 1, 0, 0));
        assert!(is_empty_square(&pos, 0, 3, 0) && !is_friendly_piece(&pos, 0, 0, -8), "off the board");
    }
}
