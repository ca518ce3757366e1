//! Checkers move generation and move application on bitboards.
//!
//! Steps are generated for all pieces at once by shifting bitboards; captures
//! are found the same way, then each capturing piece's multi-jumps are
//! enumerated by depth-first search, removing each captured piece as it is
//! jumped (so a later jump may land where an earlier captured piece stood,
//! as in OpenSpiel; a piece is never jumped twice).

use std::ops::ControlFlow;

use rand::Rng;

use super::board::{BOTTOM_ROW, Bits, DIRS, Dir, NEIGHBOR, TOP_ROW, step};
use super::{BLACK, DRAW_PLIES, Move, Position};
use crate::games::{Player, nth_set_bit};
use crate::rng::draw_below;

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
    /// This position's pieces on the padded board, as `side` sees them.
    #[inline(always)]
    fn padded(&self, side: Player) -> Padded {
        let own = pad(self.pieces[side as usize]);
        let opp = pad(self.pieces[(side ^ 1) as usize]);
        Padded { side, own, opp, kings: pad(self.kings), empty: ON_BOARD & !(own | opp) }
    }

    /// Whether the side to move has a legal move (the draw counter aside).
    /// Usually some piece can step, found on the first direction tried, so
    /// steps are looked for on the board as it is, before padding it.
    #[inline(always)]
    pub fn has_moves(&self) -> bool {
        let empty = self.empty_squares();
        let own = self.pieces[self.side as usize];
        let kings = own & self.kings;
        let can_step = DIRS.iter().any(|&dir| {
            let movers = if is_forward(self.side, dir) { own } else { kings };
            step(dir, movers) & empty != 0
        });
        can_step || self.padded(self.side).jumpers() != 0
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
        let board = self.padded(side);
        let jumpers = board.jumpers();
        if jumpers != 0 {
            self.generate_jumps(side, jumpers, moves);
            return;
        }
        let _ = board.each_step(|step| {
            moves.push(step);
            ControlFlow::Continue(())
        });
    }

    /// Calls `visit` on the position after each legal move of the side to
    /// move (the draw counter aside), in [`Position::generate`]'s order,
    /// until it says stop; whether there was a move. Steps are made straight
    /// from the bitboards: at the last ply of a search, most of whose nodes
    /// stop at their first children, writing the whole list cost more than
    /// the children visited.
    #[inline(always)]
    pub(crate) fn visit_children<F>(&self, scratch: &mut Vec<Move>, mut visit: F) -> bool
    where
        F: FnMut(&Position) -> ControlFlow<()>,
    {
        let board = self.padded(self.side);
        let jumpers = board.jumpers();
        if jumpers != 0 {
            scratch.clear();
            self.generate_jumps(self.side, jumpers, scratch);
            for m in scratch.iter() {
                if visit(&self.apply(m)).is_break() {
                    break;
                }
            }
            return true;
        }
        let mut any = false;
        let _ = board.each_step(|step| {
            any = true;
            visit(&self.apply(&step))
        });
        any
    }

    /// A legal move of the side to move drawn uniformly by `rng`: the move
    /// [`Position::generate`] would list at index `rng.random_range(0..n)`,
    /// found without writing the list when no capture is possible (a random
    /// playout's every turn). `None` once the game is over.
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R, scratch: &mut Vec<Move>) -> Option<Move> {
        if self.quiet >= DRAW_PLIES {
            return None;
        }
        let board = self.padded(self.side);
        let jumpers = board.jumpers();
        if jumpers != 0 {
            scratch.clear();
            self.generate_jumps(self.side, jumpers, scratch);
            return scratch.get(draw_below(rng, scratch.len() as u32) as usize).copied();
        }
        let targets = DIRS.map(|dir| shift(dir, board.movers(dir)) & board.empty);
        let counts = targets.map(u64::count_ones);
        let before = [0, counts[0], counts[0] + counts[1], counts[0] + counts[1] + counts[2]];
        let total = before[3] + counts[3];
        if total == 0 {
            return None;
        }
        // The move at `index` of the list `generate` writes (direction by
        // direction, targets in bit order), picked without branching on it.
        let index = draw_below(rng, total);
        let d = (index >= before[1]) as usize + (index >= before[2]) as usize + (index >= before[3]) as usize;
        let to = nth_set_bit(targets[d], index - before[d]);
        let from = (to as i32 - step_of(DIRS[d])) as u32;
        Some(Move { from: square(from), to: square(to), n_jumps: 0, captured: 0, path: 0 })
    }

    /// Writes every multi-jump of the pieces `jumpers` (a padded board's
    /// bits), piece by piece in square order.
    fn generate_jumps(&self, side: Player, jumpers: u64, moves: &mut Vec<Move>) {
        for from in Bits(unpad(jumpers)) {
            let jump =
                Jump { side, from, opp: self.pieces[(side ^ 1) as usize], empty: self.empty_squares() | (1 << from) };
            if self.kings & (1 << from) != 0 {
                jump.extend::<true>(from, 0, 0, 0, moves);
            } else {
                jump.extend::<false>(from, 0, 0, 0, moves);
            }
        }
    }

    /// The position after `mv`, a legal move of the side to move.
    #[inline]
    pub fn apply(&self, mv: &Move) -> Position {
        let from = 1u32 << mv.from;
        let to = 1u32 << mv.to;
        // `from` may equal `to` (a king's closed multi-jump), so clear before setting.
        let own = (self.pieces[self.side as usize] & !from) | to;
        let opp = self.pieces[(self.side ^ 1) as usize] & !mv.captured;
        // Built from values, not by patching a copy in place: indexing into a
        // copy just stored on the stack stalled the load at every child made.
        let pieces = if self.side == BLACK { [own, opp] } else { [opp, own] };
        let crowned = self.kings & from != 0 || to & crown_row(self.side) != 0;
        let kings = (self.kings & !(from | mv.captured)) | if crowned { to } else { 0 };
        let quiet = if mv.captured != 0 { 0 } else { self.quiet.saturating_add(1) };
        Position { pieces, kings, side: self.side ^ 1, quiet }
    }
}

/// The squares on the padded board: bit `s + s / 8` holds square `s`, so a
/// gap ("ghost" bits 8, 17 and 26) follows every two rows. There a diagonal
/// step is one shift on every row, down-left +4, down-right +5, up-left −5,
/// up-right −4, where the 32-bit layout's shift depends on the row's parity;
/// a step off the board's side lands on a ghost bit and leaves [`ON_BOARD`].
const ON_BOARD: u64 = ((1 << 35) - 1) & !((1 << 8) | (1 << 17) | (1 << 26));

#[inline(always)]
fn pad(b: u32) -> u64 {
    let b = u64::from(b);
    (b & 0xFF) | ((b & 0xFF00) << 1) | ((b & 0xFF_0000) << 2) | ((b & 0xFF00_0000) << 3)
}

#[inline(always)]
fn unpad(p: u64) -> u32 {
    ((p & 0xFF) | ((p >> 1) & 0xFF00) | ((p >> 2) & 0xFF_0000) | ((p >> 3) & 0xFF00_0000)) as u32
}

/// The square at bit `p` of the padded board: `p − p / 9` (the division
/// as a multiplication, exact for every bit of the board).
#[inline(always)]
fn square(p: u32) -> u8 {
    (p - ((p * 57) >> 9)) as u8
}

/// How far a step in `dir` moves a bit of the padded board.
#[inline(always)]
const fn step_of(dir: Dir) -> i32 {
    match dir {
        Dir::UpLeft => -5,
        Dir::UpRight => -4,
        Dir::DownLeft => 4,
        Dir::DownRight => 5,
    }
}

/// Moves every square of a padded board one diagonal step in `dir`.
#[inline(always)]
fn shift(dir: Dir, p: u64) -> u64 {
    ON_BOARD
        & match dir {
            Dir::UpLeft => p >> 5,
            Dir::UpRight => p >> 4,
            Dir::DownLeft => p << 4,
            Dir::DownRight => p << 5,
        }
}

/// One side's view of a position on the padded board.
struct Padded {
    side: Player,
    own: u64,
    opp: u64,
    kings: u64,
    empty: u64,
}

impl Padded {
    /// The pieces that move in `dir`: all of them forwards, kings only backwards.
    #[inline(always)]
    fn movers(&self, dir: Dir) -> u64 {
        if is_forward(self.side, dir) { self.own } else { self.own & self.kings }
    }

    /// Calls `f` on each step (a move without capture), direction by
    /// direction and in square order within one, until it says stop.
    #[inline(always)]
    fn each_step<F: FnMut(Move) -> ControlFlow<()>>(&self, mut f: F) -> ControlFlow<()> {
        for dir in DIRS {
            let mut targets = shift(dir, self.movers(dir)) & self.empty;
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let from = (to as i32 - step_of(dir)) as u32;
                f(Move { from: square(from), to: square(to), n_jumps: 0, captured: 0, path: 0 })?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The pieces that have a capture.
    #[inline(always)]
    fn jumpers(&self) -> u64 {
        let mut jumpers = 0;
        for dir in DIRS {
            let land = shift(dir, shift(dir, self.movers(dir)) & self.opp) & self.empty;
            let back = dir.opposite();
            jumpers |= shift(back, shift(back, land));
        }
        jumpers
    }
}

/// The fixed facts of one piece's multi-jump search.
struct Jump {
    side: Player,
    from: u32,
    opp: u32,
    /// Empty squares with the jumping piece lifted off its origin.
    empty: u32,
}

impl Jump {
    /// Continues a multi-jump from `cur` after `n` jumps that captured
    /// `captured`; pushes every maximal continuation. Returns whether any
    /// jump was possible from `cur`. A king's four directions and a man's two
    /// are unrolled loops (`KING` is the piece's kind): a loop over either
    /// list mispredicted its end.
    fn extend<const KING: bool>(&self, cur: u32, n: u32, captured: u32, path: u64, moves: &mut Vec<Move>) -> bool {
        let mut any = false;
        if KING {
            for dir in DIRS {
                any |= self.jump::<KING>(dir, cur, n, captured, path, moves);
            }
        } else {
            for dir in forward(self.side) {
                any |= self.jump::<KING>(dir, cur, n, captured, path, moves);
            }
        }
        any
    }

    /// The jump from `cur` in `dir` and its continuations, if there is one.
    #[inline(always)]
    fn jump<const KING: bool>(
        &self,
        dir: Dir,
        cur: u32,
        n: u32,
        captured: u32,
        path: u64,
        moves: &mut Vec<Move>,
    ) -> bool {
        let d = dir as usize;
        let over = NEIGHBOR[d][cur as usize] & self.opp & !captured;
        if over == 0 {
            return false;
        }
        let land = NEIGHBOR[d][over.trailing_zeros() as usize] & (self.empty | captured);
        if land == 0 {
            return false;
        }
        let to = land.trailing_zeros();
        let captured = captured | over;
        let path = path | (u64::from(to) << (5 * n));
        let crowned = !KING && land & crown_row(self.side) != 0;
        if crowned || !self.extend::<KING>(to, n + 1, captured, path, moves) {
            moves.push(Move { from: self.from as u8, to: to as u8, n_jumps: (n + 1) as u8, captured, path });
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::stream;
    use rand::RngExt;

    /// Along random games, the drawn move is the listed move at the drawn
    /// index, for the same random stream.
    #[test]
    fn random_moves_are_the_listed_moves_at_the_drawn_index() {
        let mut moves = Vec::new();
        let mut scratch = Vec::new();
        for game in 0..300 {
            let mut pos = Position::initial();
            let mut walk = stream(game, &[1]);
            for ply in 0.. {
                pos.generate(&mut moves);
                let (mut a, mut b) = (stream(game, &[2, ply]), stream(game, &[2, ply]));
                let listed = (!moves.is_empty()).then(|| moves[a.random_range(0..moves.len())]);
                assert_eq!(pos.random_move(&mut b, &mut scratch), listed, "game {game} ply {ply}");
                if moves.is_empty() {
                    break;
                }
                pos = pos.apply(&moves[walk.random_range(0..moves.len())]);
            }
        }
    }

    #[test]
    fn padded_steps_are_the_board_steps() {
        for sq in 0..32 {
            let bit = 1u32 << sq;
            assert_eq!(unpad(pad(bit)), bit);
            assert_eq!(u32::from(square(pad(bit).trailing_zeros())), sq);
            assert_eq!(pad(bit) & !ON_BOARD, 0);
            for dir in DIRS {
                assert_eq!(unpad(shift(dir, pad(bit))), step(dir, bit), "square {} {dir:?}", sq + 1);
                assert_eq!(shift(dir, pad(bit)) & !ON_BOARD, 0);
                if shift(dir, pad(bit)) != 0 {
                    assert_eq!(
                        shift(dir, pad(bit)).trailing_zeros() as i32,
                        pad(bit).trailing_zeros() as i32 + step_of(dir)
                    );
                }
            }
        }
    }
}
