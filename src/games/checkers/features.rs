//! The lose-checkers terminals of Sipper 2011 (seeds/000, §3), as functions
//! of a position and the player it is evaluated for ("friendly"; the other
//! player is the "enemy"). The GP binding fills feature slots from
//! [`BOARD_TERMINALS`] and calls [`SQUARE_TERMINALS`] as natives.
//!
//! The paper spells the enemy terminals `EnemeyKingCount` etc.; we use the
//! corrected spelling. Square terminals take X (row) and Y (column), 0–7,
//! seen from the evaluated player's side: row 0 is that player's own back row
//! and column 0 is on its left, so an evolved function means the same for
//! both colours. Coordinates off the board, and light squares, hold no piece:
//! `IsEmptySquare` is true there and the others false.

use super::board::square_at;
use super::{Move, Position};
use crate::games::Player;

/// The value of a king counted in men, returned by `KingFactor` (table 1-3).
/// The paper gives no number; 1.5 is a common material weight in checkers
/// programs. An open question to settle with the GP binding.
pub const KING_FACTOR: f64 = 1.5;

fn count(b: u32) -> f64 {
    f64::from(b.count_ones())
}

/// EnemeyKingCount (table 1-3): the enemy's kings.
pub fn enemy_king_count(pos: &Position, me: Player) -> f64 {
    count(pos.kings_of(me ^ 1))
}

/// EnemeyManCount (table 1-3): the enemy's men.
pub fn enemy_man_count(pos: &Position, me: Player) -> f64 {
    count(pos.men(me ^ 1))
}

/// EnemeyPieceCount (table 1-3): the enemy's pieces.
pub fn enemy_piece_count(pos: &Position, me: Player) -> f64 {
    count(pos.pieces[(me ^ 1) as usize])
}

/// FriendlyKingCount (table 1-3): the player's kings.
pub fn friendly_king_count(pos: &Position, me: Player) -> f64 {
    count(pos.kings_of(me))
}

/// FriendlyManCount (table 1-3): the player's men.
pub fn friendly_man_count(pos: &Position, me: Player) -> f64 {
    count(pos.men(me))
}

/// FriendlyPieceCount (table 1-3): the player's pieces.
pub fn friendly_piece_count(pos: &Position, me: Player) -> f64 {
    count(pos.pieces[me as usize])
}

/// KingCount (table 1-3): FriendlyKingCount − EnemeyKingCount.
pub fn king_count(pos: &Position, me: Player) -> f64 {
    friendly_king_count(pos, me) - enemy_king_count(pos, me)
}

/// KingFactor (table 1-3): the king factor value, [`KING_FACTOR`].
pub fn king_factor(_pos: &Position, _me: Player) -> f64 {
    KING_FACTOR
}

/// ManCount (table 1-3): FriendlyManCount − EnemeyManCount.
pub fn man_count(pos: &Position, me: Player) -> f64 {
    friendly_man_count(pos, me) - enemy_man_count(pos, me)
}

/// Mobility (table 1-3): the number of moves (plies) available to the
/// player, counted as if it were the player's turn (a multi-jump is one move;
/// the draw counter is ignored).
pub fn mobility(pos: &Position, me: Player) -> f64 {
    let mut moves: Vec<Move> = Vec::with_capacity(32);
    pos.generate_for(me, &mut moves);
    moves.len() as f64
}

/// PieceCount (table 1-3): FriendlyPieceCount − EnemeyPieceCount.
pub fn piece_count(pos: &Position, me: Player) -> f64 {
    friendly_piece_count(pos, me) - enemy_piece_count(pos, me)
}

/// A board terminal: a number about the whole position for a player.
pub type BoardTerminal = fn(&Position, Player) -> f64;

/// Table 1-3 in the paper's order, with the names primsets use.
pub const BOARD_TERMINALS: [(&str, BoardTerminal); 11] = [
    ("EnemyKingCount", enemy_king_count),
    ("EnemyManCount", enemy_man_count),
    ("EnemyPieceCount", enemy_piece_count),
    ("FriendlyKingCount", friendly_king_count),
    ("FriendlyManCount", friendly_man_count),
    ("FriendlyPieceCount", friendly_piece_count),
    ("KingCount", king_count),
    ("KingFactor", king_factor),
    ("ManCount", man_count),
    ("Mobility", mobility),
    ("PieceCount", piece_count),
];

/// The square at player-relative row `x` and column `y`, if it is a dark
/// square on the board.
fn square_bit(me: Player, x: i64, y: i64) -> u32 {
    if !(0..8).contains(&x) || !(0..8).contains(&y) {
        return 0;
    }
    let (x, y) = (x as u32, y as u32);
    // Black's back row is the top row (row 0) and its left is column h;
    // White's back row is row 7 and its left is column a.
    let (row, col) = if me == super::BLACK { (x, 7 - y) } else { (7 - x, y) };
    square_at(row, col).map_or(0, |sq| 1 << sq)
}

/// IsEmptySquare(X,Y) (table 1-4): true iff the square holds no piece.
pub fn is_empty_square(pos: &Position, me: Player, x: i64, y: i64) -> bool {
    square_bit(me, x, y) & (pos.pieces[0] | pos.pieces[1]) == 0
}

/// IsFriendlyPiece(X,Y) (table 1-4): true iff a friendly piece is on the square.
pub fn is_friendly_piece(pos: &Position, me: Player, x: i64, y: i64) -> bool {
    square_bit(me, x, y) & pos.pieces[me as usize] != 0
}

/// IsKingPiece(X,Y) (table 1-4): true iff a king (of either side) is on the square.
pub fn is_king_piece(pos: &Position, me: Player, x: i64, y: i64) -> bool {
    square_bit(me, x, y) & pos.kings != 0
}

/// IsManPiece(X,Y) (table 1-4): true iff a man (of either side) is on the square.
pub fn is_man_piece(pos: &Position, me: Player, x: i64, y: i64) -> bool {
    square_bit(me, x, y) & (pos.pieces[0] | pos.pieces[1]) & !pos.kings != 0
}

/// A square terminal: a property of the square at row X, column Y.
pub type SquareTerminal = fn(&Position, Player, i64, i64) -> bool;

/// Table 1-4 in the paper's order.
pub const SQUARE_TERMINALS: [(&str, SquareTerminal); 4] = [
    ("IsEmptySquare", is_empty_square),
    ("IsFriendlyPiece", is_friendly_piece),
    ("IsKingPiece", is_king_piece),
    ("IsManPiece", is_man_piece),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_position_counts() {
        let pos = Position::initial();
        for me in [0, 1] {
            assert_eq!(friendly_piece_count(&pos, me), 12.0);
            assert_eq!(enemy_man_count(&pos, me), 12.0);
            assert_eq!(king_count(&pos, me), 0.0);
            assert_eq!(mobility(&pos, me), 7.0);
            // Each player has a dark square in its near-left corner (a1 for
            // White, h8 for Black); (0, 1) is a light square.
            assert!(is_friendly_piece(&pos, me, 0, 0));
            assert!(is_empty_square(&pos, me, 0, 1));
            assert!(is_man_piece(&pos, me, 7, 1));
            assert!(!is_friendly_piece(&pos, me, 7, 1));
            assert!(is_empty_square(&pos, me, 3, 0) || is_empty_square(&pos, me, 3, 1));
            assert!(is_empty_square(&pos, me, -1, 9));
        }
    }
}
