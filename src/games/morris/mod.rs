//! Nine Men's Morris (Benbassat & Sipper 2012, seeds/002), with the rules of
//! OpenSpiel's `nine_mens_morris` (../shared/domains/openspiel/RULES_NOTES.md):
//!
//! - White (player 0) moves first. While a player has men in hand it places
//!   one on any empty point (9 men each); then it slides a man along a line to
//!   an adjacent empty point; a player with exactly 3 men (and none in hand)
//!   flies: it may move a man to any empty point.
//! - A placement or move that closes a mill of the mover's (through the point
//!   moved to) removes one opposing man, which must not stand in a mill unless
//!   all of them do; one removal even when two mills close at once. The move
//!   and its removal are one [`Move`].
//! - The game ends, in this order of precedence: the player to move has no
//!   legal move and loses; a player with 2 men or fewer (on the board plus in
//!   hand) loses; after [`MAX_TURNS`] = 200 turns (a turn = one `Move`) it is
//!   a draw.
//! - One deliberate difference: when a mill closes while the opponent has no
//!   man on the board (possible only in the placing phase), the move stands
//!   without a removal; OpenSpiel scores that position as a loss for the mover.
//!
//! [`Morris::no_flying`] (the CLI's `morris-no-flying`) plays the game as
//! seeds/002 describes it, in "two distinct stages", placing and moving: a
//! player with three men slides like any other, so a blocked three-man
//! player loses. Everything else is the same.
//!
//! Text formats are in [`text`]; the paper's terminals (table 2) in [`features`].

mod board;
mod domain;
pub mod features;
mod text;

pub use board::{parse_point, point_name};

use std::ops::ControlFlow;

use board::{ADJACENT, ALL, in_mill, men_in_mills, n_steps, steppers};

use rand::{Rng, RngExt};

use super::{
    Bits, Game, GameResult, ParseError, Player, Role, Turn, TwoPlayer, alternating_turn, nth_set_bit, zero_sum_score,
};

/// Turns after which the game is drawn (OpenSpiel's `kMaxNumTurns`).
pub const MAX_TURNS: u16 = 200;
/// Men each player starts with, all in hand.
pub const MEN: u8 = 9;

/// Player 0, moves first.
pub const WHITE: Player = 0;
/// Player 1.
pub const BLACK: Player = 1;

/// The Nine Men's Morris engine, under one of two rule sets.
#[derive(Clone, Copy, Debug)]
pub struct Morris {
    /// Whether a player down to three men flies.
    flying: bool,
}

impl Morris {
    /// The standard rules (OpenSpiel's): a player down to three men flies.
    pub const fn standard() -> Morris {
        Morris { flying: true }
    }

    /// The two-stage game of seeds/002: no flying.
    pub const fn no_flying() -> Morris {
        Morris { flying: false }
    }
}

/// A position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// `men[p]`: the points of player `p`'s men on the board.
    pub men: [u32; 2],
    /// Men each player still has to place.
    pub in_hand: [u8; 2],
    /// The player to move.
    pub side: Player,
    /// Turns played so far; drawn at [`MAX_TURNS`].
    pub turns: u16,
    /// The rules: whether a player down to three men flies. Carried by the
    /// position so that move generation and the terminals see them.
    pub flying: bool,
}

impl Position {
    /// The start under the standard rules.
    pub fn initial() -> Position {
        Position { men: [0, 0], in_hand: [MEN, MEN], side: WHITE, turns: 0, flying: true }
    }

    /// Men on the board plus in hand (OpenSpiel's `num_men`).
    #[inline(always)]
    pub fn n_men(&self, p: Player) -> u32 {
        self.men[p as usize].count_ones() + u32::from(self.in_hand[p as usize])
    }

    pub fn empty_points(&self) -> u32 {
        ALL & !(self.men[0] | self.men[1])
    }

    /// Whether `p` is in the placing phase.
    pub fn is_placing(&self, p: Player) -> bool {
        self.in_hand[p as usize] > 0
    }

    /// Whether `p` may fly: the rules allow it and it has exactly three
    /// men, none in hand.
    pub fn is_flying(&self, p: Player) -> bool {
        self.flying && self.in_hand[p as usize] == 0 && self.n_men(p) == 3
    }

    /// Whether the rules end the game whatever the moves (men or turns).
    #[inline]
    fn over_by_count(&self) -> bool {
        self.turns >= MAX_TURNS || self.n_men(0) <= 2 || self.n_men(1) <= 2
    }

    /// Whether `p` could place or move somewhere, ignoring the end rules.
    #[inline]
    pub fn can_move(&self, p: Player) -> bool {
        let empty = self.empty_points();
        if self.is_placing(p) || self.is_flying(p) {
            return empty != 0 && self.n_men(p) > 0;
        }
        steppers(self.men[p as usize], empty) != 0
    }

    /// Clears `moves` and writes the legal moves of the side to move; none
    /// if the game is over.
    pub fn generate(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.over_by_count() {
            return;
        }
        self.generate_for(self.side, moves);
    }

    /// Writes the moves `p` would have on its turn, without clearing `moves`
    /// and ignoring the end rules.
    pub(crate) fn generate_for(&self, p: Player, moves: &mut Vec<Move>) {
        let _ = self.each_move(p, |mv| {
            moves.push(mv);
            ControlFlow::Continue(())
        });
    }

    /// Calls `f` on each move `p` would have on its turn, in the order of
    /// [`Position::generate`] (one move per removable man when a mill
    /// closes), until it says stop; ignores the end rules.
    #[inline(always)]
    fn each_move<F: FnMut(Move) -> ControlFlow<()>>(&self, p: Player, mut f: F) -> ControlFlow<()> {
        let own = self.men[p as usize];
        let opp = self.men[(p ^ 1) as usize];
        let empty = self.empty_points();
        // The opposing men that may be removed: those outside mills, or any
        // if all stand in mills. Computed at the first mill only.
        let mut removable = None;
        let mut emit = |from: Option<u8>, to: u32, after: u32| {
            if opp != 0 && in_mill(after, to) {
                let removable = *removable.get_or_insert_with(|| {
                    let free = opp & !men_in_mills(opp);
                    if free != 0 { free } else { opp }
                });
                for r in Bits(removable) {
                    f(Move { from, to: to as u8, remove: Some(r as u8) })?;
                }
                ControlFlow::Continue(())
            } else {
                f(Move { from, to: to as u8, remove: None })
            }
        };
        if self.is_placing(p) {
            for to in Bits(empty) {
                emit(None, to, own | (1 << to))?;
            }
            return ControlFlow::Continue(());
        }
        let flying = self.is_flying(p);
        for from in Bits(own) {
            let targets = if flying { empty } else { ADJACENT[from as usize] & empty };
            let rest = own & !(1 << from);
            for to in Bits(targets) {
                emit(Some(from as u8), to, rest | (1 << to))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// A random legal move drawn as OpenSpiel's random player draws it: a
    /// placement or move uniformly among the distinct (from, to) pairs, then,
    /// if it closes a mill, the man to remove uniformly among the removable
    /// ones; `None` if the game is over. A uniform draw over whole [`Move`]s
    /// would favour mill-closing moves (one `Move` per removable man) and make
    /// random games shorter. Works without generating the move list.
    pub fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        let n_men = [self.n_men(0), self.n_men(1)];
        if self.turns >= MAX_TURNS || n_men[0] <= 2 || n_men[1] <= 2 {
            return None;
        }
        let p = self.side as usize;
        let own = self.men[p];
        let opp = self.men[p ^ 1];
        let empty = self.empty_points();
        let pick = |rng: &mut R, b: u32| nth_set_bit(u64::from(b), rng.random_range(0..b.count_ones()));
        let (from, to) = if self.is_placing(self.side) {
            if empty == 0 {
                return None;
            }
            (None, pick(rng, empty))
        } else if self.is_flying(self.side) {
            // Flying: every man may go to every empty point.
            if empty == 0 || own == 0 {
                return None;
            }
            (Some(pick(rng, own)), pick(rng, empty))
        } else {
            let total = n_steps(own, empty);
            if total == 0 {
                return None;
            }
            let mut r = rng.random_range(0..total);
            let mut chosen = None;
            for f in Bits(own) {
                let targets = ADJACENT[f as usize] & empty;
                let n = targets.count_ones();
                if r < n {
                    chosen = Some((Some(f), nth_set_bit(u64::from(targets), r)));
                    break;
                }
                r -= n;
            }
            chosen?
        };
        let after = from.map_or(own, |f| own & !(1 << f)) | (1 << to);
        let remove = if opp != 0 && in_mill(after, to) {
            let free = opp & !men_in_mills(opp);
            Some(pick(rng, if free != 0 { free } else { opp }) as u8)
        } else {
            None
        };
        Some(Move { from: from.map(|f| f as u8), to: to as u8, remove })
    }

    /// The position after `mv`, a legal move of the side to move.
    #[inline]
    pub fn apply(&self, mv: &Move) -> Position {
        let side = self.side as usize;
        let mut own = self.men[side];
        let mut hand = self.in_hand[side];
        match mv.from {
            Some(from) => own &= !(1 << from),
            None => hand -= 1,
        }
        own |= 1 << mv.to;
        let opp = mv.remove.map_or(self.men[side ^ 1], |r| self.men[side ^ 1] & !(1 << r));
        // Built from values, not by patching a copy in place: indexing into a
        // copy just stored on the stack stalls the load at every child made.
        let (men, in_hand) =
            if side == 0 { ([own, opp], [hand, self.in_hand[1]]) } else { ([opp, own], [self.in_hand[0], hand]) };
        Position { men, in_hand, side: self.side ^ 1, turns: self.turns + 1, flying: self.flying }
    }

    /// The result, if the game is over (see the module docs for the order).
    #[inline(always)]
    pub fn result(&self) -> Option<GameResult> {
        if !self.can_move(self.side) {
            return Some(GameResult::Winner(self.side ^ 1));
        }
        if self.n_men(WHITE) <= 2 {
            return Some(GameResult::Winner(BLACK));
        }
        if self.n_men(BLACK) <= 2 {
            return Some(GameResult::Winner(WHITE));
        }
        if self.turns >= MAX_TURNS {
            return Some(GameResult::Draw);
        }
        None
    }
}

/// One turn: a placement or a move, with the man it removes if it closes a mill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The point the man leaves; `None` for a placement.
    pub from: Option<u8>,
    /// The point it goes to.
    pub to: u8,
    /// The opposing man removed.
    pub remove: Option<u8>,
}

impl Game for Morris {
    type State = Position;
    type Move = Move;

    fn render(&self, state: &Position) -> String {
        render(state)
    }

    fn name(&self) -> &str {
        if self.flying { "morris" } else { "morris-no-flying" }
    }

    fn n_roles(&self) -> usize {
        2
    }

    fn role_name(&self, role: Role) -> &str {
        if role == WHITE { "white" } else { "black" }
    }

    fn initial_state(&self) -> Position {
        Position { flying: self.flying, ..Position::initial() }
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

    fn random_move<R: Rng + ?Sized>(&self, state: &Position, rng: &mut R, _scratch: &mut Vec<Move>) -> Option<Move> {
        state.random_move(rng)
    }

    fn parse_state(&self, text: &str) -> Result<Position, ParseError> {
        text::parse_position(text).map(|pos| Position { flying: self.flying, ..pos })
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

impl TwoPlayer for Morris {
    #[inline]
    fn to_move(&self, state: &Position) -> Player {
        state.side
    }

    #[inline(always)]
    fn result(&self, state: &Position) -> Option<GameResult> {
        state.result()
    }

    #[inline]
    fn result_or_moves(&self, state: &Position, moves: &mut Vec<Move>) -> Option<GameResult> {
        state.generate(moves);
        if moves.is_empty() {
            // No moves: over by the counts, or the side to move is blocked.
            return state.result();
        }
        // Moves while the counts go on: the side to move can move, the game goes on.
        None
    }

    /// Keyed, so evolved evaluators cache their values: Morris' terminals
    /// scan lines and moves, dearer than a lookup. (Lose checkers' are a few
    /// bit counts; caching them measured 4% slower, so checkers has no key.)
    fn position_key(&self, s: &Position) -> Option<u128> {
        Some(
            u128::from(s.men[0])
                | u128::from(s.men[1]) << 32
                | u128::from(s.in_hand[0]) << 64
                | u128::from(s.in_hand[1]) << 72
                | u128::from(s.side) << 80
                | u128::from(s.turns) << 88
                | u128::from(s.flying) << 104,
        )
    }

    #[inline]
    fn result_or_children<F>(&self, state: &Position, _moves: &mut Vec<Move>, mut visit: F) -> Option<GameResult>
    where
        F: FnMut(&Position) -> ControlFlow<()>,
    {
        if state.over_by_count() {
            return state.result();
        }
        let mut any = false;
        let _ = state.each_move(state.side, |mv| {
            any = true;
            visit(&state.apply(&mv))
        });
        if any { None } else { state.result() }
    }
}

/// A diagram of the board: `W`/`B` men, `.` empty points, then the side to
/// move, men in hand and the turn count.
pub fn render(pos: &Position) -> String {
    let mut grid = [[' '; 7]; 7];
    for pt in 0..24 {
        let (c, r) = board::grid(pt);
        let bit = 1 << pt;
        grid[6 - r as usize][c as usize] = if pos.men[0] & bit != 0 {
            'W'
        } else if pos.men[1] & bit != 0 {
            'B'
        } else {
            '.'
        };
    }
    let mut out = String::new();
    for (i, row) in grid.iter().enumerate() {
        out.push_str(&format!("{} ", 7 - i));
        out.extend(row.iter().flat_map(|&c| [c, ' ']));
        out.push('\n');
    }
    out.push_str("  a b c d e f g\n");
    out.push_str(&format!(
        "{} to move; in hand W {} B {}; turn {}\n",
        if pos.side == WHITE { "White" } else { "Black" },
        pos.in_hand[0],
        pos.in_hand[1],
        pos.turns
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::{Morris, Position};
    use crate::games::{Game, TwoPlayer};
    use crate::rng::stream;
    use rand::RngExt;

    /// Equal keys only for equal positions (evaluators cache values by
    /// key), along random games of both rule sets; keys stay below bit 120.
    #[test]
    fn position_keys_are_exact() {
        let mut seen = std::collections::HashMap::new();
        let mut moves = Vec::new();
        for (game, seed) in [Morris::standard(), Morris::no_flying()].into_iter().zip([1, 2]) {
            let mut rng = stream(seed, &[5]);
            for _ in 0..200 {
                let mut state = game.initial_state();
                loop {
                    let key = game.position_key(&state).expect("Morris keys its positions");
                    assert_eq!(key >> 120, 0);
                    let known: &Position = seen.entry(key).or_insert(state);
                    assert_eq!(*known, state, "two positions with key {key:#x}");
                    game.legal_moves(&state, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    state = game.apply(&state, &moves[rng.random_range(0..moves.len())]);
                }
            }
        }
        assert!(seen.len() > 10_000, "{} positions", seen.len());
    }
}
