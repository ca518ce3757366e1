//! Lose checkers (and American checkers, which differs only in who wins):
//! 8×8 board, men move one square diagonally forward, kings one square in any
//! diagonal direction, captures are mandatory (any capture may be chosen, not
//! necessarily the longest), a multi-jump is one move and must be continued
//! to the end, and a man that reaches the last row is crowned and ends the
//! move there, even in the middle of a multi-jump. Captured pieces leave the
//! board as they are jumped, as in OpenSpiel.
//!
//! End of the game (the same as OpenSpiel's `checkers`, with the objective
//! reversed for lose checkers, Sipper 2011 §3):
//! - a player who has no legal move on its turn (no pieces, or all blocked)
//!   WINS lose checkers (and loses American checkers);
//! - after [`DRAW_PLIES`] = 40 consecutive plies without a capture (man moves
//!   do not reset the count; a multi-jump is one ply and resets it) the game is
//!   a draw. This check comes first: a position at 40 is drawn even if the
//!   side to move is blocked. There is no repetition rule.
//!
//! Text formats are in [`text`]; the paper's terminals in [`features`].

mod board;
mod domain;
pub mod features;
mod movegen;
mod text;

pub use board::{row_col, square_at};

use std::ops::ControlFlow;

use rand::Rng;

use super::{Game, GameResult, ParseError, Player, Role, Turn, TwoPlayer, alternating_turn, zero_sum_score};

/// Plies without a capture after which the game is drawn (OpenSpiel's
/// `kMaxMovesWithoutCapture`).
pub const DRAW_PLIES: u8 = 40;

/// The most pieces a side can have; positions with more are refused, which
/// also bounds a multi-jump to 12 jumps.
pub const MAX_PIECES: u32 = 12;

/// Which player wins when the side to move has no legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Lose (giveaway) checkers: the blocked or piece-less side wins.
    Lose,
    /// American checkers: the blocked or piece-less side loses.
    American,
}

/// The checkers engine.
#[derive(Clone, Copy, Debug)]
pub struct Checkers {
    pub variant: Variant,
}

impl Checkers {
    pub fn lose() -> Checkers {
        Checkers { variant: Variant::Lose }
    }

    pub fn american() -> Checkers {
        Checkers { variant: Variant::American }
    }
}

/// Player 0: Black, starts on squares 1–12 and moves first.
pub const BLACK: Player = 0;
/// Player 1: White, starts on squares 21–32.
pub const WHITE: Player = 1;

/// A checkers position (see [`board`](self) for the square numbering).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// `pieces[p]`: the squares of player `p`'s men and kings.
    pub pieces: [u32; 2],
    /// The squares holding kings, of either colour.
    pub kings: u32,
    /// The player to move.
    pub side: Player,
    /// Plies since the last capture; drawn at [`DRAW_PLIES`].
    pub quiet: u8,
}

impl Position {
    /// The starting position: Black on 1–12, White on 21–32, Black to move.
    pub fn initial() -> Position {
        Position { pieces: [0x0000_0FFF, 0xFFF0_0000], kings: 0, side: BLACK, quiet: 0 }
    }

    pub fn empty_squares(&self) -> u32 {
        !(self.pieces[0] | self.pieces[1])
    }

    pub fn men(&self, p: Player) -> u32 {
        self.pieces[p as usize] & !self.kings
    }

    pub fn kings_of(&self, p: Player) -> u32 {
        self.pieces[p as usize] & self.kings
    }
}

/// One turn: a step, or a whole multi-jump.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Square index (0..32) the piece leaves.
    pub from: u8,
    /// Square index where it ends.
    pub to: u8,
    /// Number of jumps; 0 for a step.
    pub n_jumps: u8,
    /// The captured pieces.
    pub captured: u32,
    /// The landing square of jump `k` in bits `5k..5k+5` (the last is `to`).
    /// Two multi-jumps with the same ends and captures can differ in path.
    pub path: u64,
}

impl Move {
    pub fn is_capture(&self) -> bool {
        self.n_jumps > 0
    }

    /// The landing squares of the jumps, in order (empty for a step).
    pub fn landings(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.n_jumps as u32).map(move |k| ((self.path >> (5 * k)) & 31) as u32)
    }
}

impl Game for Checkers {
    type State = Position;
    type Move = Move;

    fn render(&self, state: &Position) -> String {
        render(state)
    }

    fn name(&self) -> &str {
        match self.variant {
            Variant::Lose => "lose-checkers",
            Variant::American => "checkers",
        }
    }

    fn n_roles(&self) -> usize {
        2
    }

    fn role_name(&self, role: Role) -> &str {
        if role == BLACK { "black" } else { "white" }
    }

    fn initial_state(&self) -> Position {
        Position::initial()
    }

    fn turn(&self, state: &Position) -> Turn {
        alternating_turn(self, state)
    }

    fn score(&self, state: &Position, role: Role) -> Option<u8> {
        zero_sum_score(self, state, role)
    }

    #[inline]
    fn legal_moves(&self, state: &Position, moves: &mut Vec<Move>) {
        state.generate(moves);
    }

    #[inline]
    fn apply(&self, state: &Position, mv: &Move) -> Position {
        state.apply(mv)
    }

    /// The default's draw (uniform over the legal moves, one number from
    /// `rng`), without listing the moves when there is no capture.
    fn random_move<R: Rng + ?Sized>(&self, state: &Position, rng: &mut R, scratch: &mut Vec<Move>) -> Option<Move> {
        state.random_move(rng, scratch)
    }

    fn parse_state(&self, text: &str) -> Result<Position, ParseError> {
        text::parse_position(text)
    }

    fn format_state(&self, state: &Position) -> String {
        text::format_position(state)
    }

    fn parse_move(&self, state: &Position, text: &str) -> Result<Move, ParseError> {
        text::parse_move(state, text)
    }

    fn format_move(&self, _state: &Position, mv: &Move) -> String {
        text::format_move(mv)
    }
}

impl TwoPlayer for Checkers {
    #[inline]
    fn to_move(&self, state: &Position) -> Player {
        state.side
    }

    #[inline(always)]
    fn result(&self, state: &Position) -> Option<GameResult> {
        if state.quiet >= DRAW_PLIES {
            return Some(GameResult::Draw);
        }
        if state.has_moves() {
            return None;
        }
        Some(self.blocked(state))
    }

    #[inline]
    fn result_or_moves(&self, state: &Position, moves: &mut Vec<Move>) -> Option<GameResult> {
        state.generate(moves);
        if state.quiet >= DRAW_PLIES {
            return Some(GameResult::Draw);
        }
        if moves.is_empty() {
            return Some(self.blocked(state));
        }
        None
    }

    #[inline]
    fn result_or_children<F>(&self, state: &Position, moves: &mut Vec<Move>, visit: F) -> Option<GameResult>
    where
        F: FnMut(&Position) -> ControlFlow<()>,
    {
        if state.quiet >= DRAW_PLIES {
            return Some(GameResult::Draw);
        }
        if state.visit_children(moves, visit) {
            return None;
        }
        Some(self.blocked(state))
    }
}

impl Checkers {
    /// The result when the side to move has no legal move.
    fn blocked(&self, state: &Position) -> GameResult {
        match self.variant {
            Variant::Lose => GameResult::Winner(state.side),
            Variant::American => GameResult::Winner(state.side ^ 1),
        }
    }
}

/// A diagram of the board, White's side at the bottom: `b`/`B` Black man/king,
/// `w`/`W` White man/king, `.` an empty dark square; then the side to move
/// and the plies since the last capture.
pub fn render(pos: &Position) -> String {
    let mut out = String::new();
    for row in 0..8u32 {
        out.push_str(&format!("{} ", 8 - row));
        for col in 0..8u32 {
            let c = match square_at(row, col) {
                None => ' ',
                Some(sq) => {
                    let bit = 1u32 << sq;
                    let king = pos.kings & bit != 0;
                    match (pos.pieces[0] & bit != 0, pos.pieces[1] & bit != 0, king) {
                        (true, _, false) => 'b',
                        (true, _, true) => 'B',
                        (_, true, false) => 'w',
                        (_, true, true) => 'W',
                        _ => '.',
                    }
                }
            };
            out.push(c);
            out.push(' ');
        }
        out.push('\n');
    }
    out.push_str("  a b c d e f g h\n");
    let side = if pos.side == BLACK { "Black" } else { "White" };
    out.push_str(&format!("{side} to move; plies since the last capture: {}\n", pos.quiet));
    out
}
