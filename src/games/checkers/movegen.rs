//! Checkers move generation and move application on bitboards.
//!
//! Steps are generated for all pieces at once by shifting bitboards; captures
//! are found the same way, then each capturing piece's multi-jumps are
//! enumerated by depth-first search, removing each captured piece as it is
//! jumped (so a later jump may land where an earlier captured piece stood,
//! as in OpenSpiel; a piece is never jumped twice).

use super::board::{BOTTOM_ROW, Bits, DIRS, Dir, NEIGHBOR, TOP_ROW, step};
use super::{BLACK, DRAW_PLIES, Move, Position};
use crate::games::Player;

/// The two directions a man of `side` moves in.
#[inline(always)]
fn forward(side: Player) -> [Dir; 2] {
    if side == BLACK { [Dir::DownLeft, Dir::DownRight] } else { [Dir::UpLeft, Dir::UpRight] }
}

/// The row where men of `side` are crowned.
#[inline(always)]
fn crown_row(side: Player) -> u32 {
    if side == BLACK { BOTTOM_ROW } else { TOP_ROW }
}

/// Whether `dir` is a forward direction for men of `side`.
#[inline(always)]
fn is_forward(side: Player, dir: Dir) -> bool {
    (side == BLACK) == matches!(dir, Dir::DownLeft | Dir::DownRight)
}

impl Position {
    /// The pieces of `side` that move in `dir`: all of them forwards, kings only backwards.
    #[inline(always)]
    fn movers(&self, side: Player, dir: Dir) -> u32 {
        let own = self.pieces[side as usize];
        if is_forward(side, dir) { own } else { own & self.kings }
    }

    /// The pieces of `side` that have a capture, whatever the side to move.
    #[inline]
    pub(crate) fn jumpers(&self, side: Player) -> u32 {
        let opp = self.pieces[(side ^ 1) as usize];
        let empty = self.empty_squares();
        let mut jumpers = 0;
        for dir in DIRS {
            let land = step(dir, step(dir, self.movers(side, dir)) & opp) & empty;
            let back = dir.opposite();
            jumpers |= step(back, step(back, land));
        }
        jumpers
    }

    /// Whether `side` could step somewhere (ignoring captures).
    #[inline]
    fn can_step(&self, side: Player) -> bool {
        let empty = self.empty_squares();
        DIRS.iter().any(|&dir| step(dir, self.movers(side, dir)) & empty != 0)
    }

    /// Whether the side to move has a legal move (the draw counter aside).
    #[inline]
    pub fn has_moves(&self) -> bool {
        self.can_step(self.side) || self.jumpers(self.side) != 0
    }

    /// Clears `moves` and writes the legal moves of the side to move; none
    /// once the draw counter has run out.
    pub fn generate(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.quiet >= DRAW_PLIES {
            return;
        }
        self.generate_for(self.side, moves);
    }

    /// Writes the moves `side` would have if it were its turn (used for
    /// Mobility of either player), without clearing `moves`.
    pub(crate) fn generate_for(&self, side: Player, moves: &mut Vec<Move>) {
        let jumpers = self.jumpers(side);
        if jumpers != 0 {
            for from in Bits(jumpers) {
                self.generate_jumps(side, from, moves);
            }
            return;
        }
        let empty = self.empty_squares();
        for dir in DIRS {
            let back = dir.opposite() as usize;
            for to in Bits(step(dir, self.movers(side, dir)) & empty) {
                let from = NEIGHBOR[back][to as usize].trailing_zeros();
                moves.push(Move { from: from as u8, to: to as u8, n_jumps: 0, captured: 0, path: 0 });
            }
        }
    }

    fn generate_jumps(&self, side: Player, from: u32, moves: &mut Vec<Move>) {
        let jump = Jump {
            side,
            from,
            king: self.kings & (1 << from) != 0,
            opp: self.pieces[(side ^ 1) as usize],
            empty: self.empty_squares() | (1 << from),
        };
        jump.extend(from, 0, 0, 0, moves);
    }

    /// The position after `mv`, a legal move of the side to move.
    #[inline]
    pub fn apply(&self, mv: &Move) -> Position {
        let side = self.side as usize;
        let from = 1u32 << mv.from;
        let to = 1u32 << mv.to;
        let mut next = *self;
        // `from` may equal `to` (a king's closed multi-jump), so clear before setting.
        next.pieces[side] = (next.pieces[side] & !from) | to;
        next.pieces[side ^ 1] &= !mv.captured;
        let king = self.kings & from != 0 || to & crown_row(self.side) != 0;
        next.kings &= !(from | mv.captured);
        if king {
            next.kings |= to;
        }
        next.quiet = if mv.captured != 0 { 0 } else { self.quiet.saturating_add(1) };
        next.side ^= 1;
        next
    }
}

/// The fixed facts of one piece's multi-jump search.
struct Jump {
    side: Player,
    from: u32,
    king: bool,
    opp: u32,
    /// Empty squares with the jumping piece lifted off its origin.
    empty: u32,
}

impl Jump {
    /// Continues a multi-jump from `cur` after `n` jumps that captured
    /// `captured`; pushes every maximal continuation. Returns whether any
    /// jump was possible from `cur`.
    fn extend(&self, cur: u32, n: u32, captured: u32, path: u64, moves: &mut Vec<Move>) -> bool {
        let mut any = false;
        let fwd = forward(self.side);
        let dirs: &[Dir] = if self.king { &DIRS } else { &fwd };
        for &dir in dirs {
            let d = dir as usize;
            let over = NEIGHBOR[d][cur as usize] & self.opp & !captured;
            if over == 0 {
                continue;
            }
            let land = NEIGHBOR[d][over.trailing_zeros() as usize] & (self.empty | captured);
            if land == 0 {
                continue;
            }
            any = true;
            let to = land.trailing_zeros();
            let captured = captured | over;
            let path = path | (u64::from(to) << (5 * n));
            let crowned = !self.king && land & crown_row(self.side) != 0;
            if crowned || !self.extend(to, n + 1, captured, path, moves) {
                moves.push(Move { from: self.from as u8, to: to as u8, n_jumps: (n + 1) as u8, captured, path });
            }
        }
        any
    }
}
