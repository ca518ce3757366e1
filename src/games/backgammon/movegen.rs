//! Move generation: every play of a roll, one per position it reaches.
//!
//! The rules: checkers on the bar enter first; a checker may land on a point
//! with at most one opposing checker (a blot, which it hits to the bar);
//! checkers bear off once all fifteen are in the home board, with the exact
//! die or a higher die from the highest occupied point. A player uses both
//! dice (four times a double's) when any sequence allows it, else as many as
//! it can; when only one die of a roll can be used, the larger must be if
//! it can. Plays reaching the same position are one play, as gnubg lists
//! them; without a legal step the only play is the empty one (a pass).
//!
//! Generation writes into the caller's vector and allocates nothing else.

use super::board::{BAR, Board};
use super::dice::Roll;

/// Steps of a play: up to four (a double).
pub const MAX_STEPS: usize = 4;
/// The point a checker on the bar moves from.
pub const BAR_POINT: u8 = 25;
/// The point a checker borne off moves to.
pub const OFF_POINT: u8 = 0;

/// One play of a roll: the checkers moved (in the order found) and the
/// board it leaves, still from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Play {
    /// `(from, to)` on the mover's points: [`BAR_POINT`] from the bar,
    /// [`OFF_POINT`] off.
    pub steps: [(u8, u8); MAX_STEPS],
    pub n_steps: u8,
    /// The die the first step used (what the larger-die rule looks at).
    pub first_die: u8,
    pub after: Board,
}

impl Play {
    /// The steps played.
    pub fn steps(&self) -> &[(u8, u8)] {
        &self.steps[..usize::from(self.n_steps)]
    }
}

/// The board after one checker of the side on roll moves `die` pips from
/// `from` (1–24, or [`BAR_POINT`]), and the point it reaches; `None` if
/// the rules forbid it. Entering before anything else is the caller's.
pub fn step(board: &Board, from: u8, die: u8) -> Option<(Board, u8)> {
    let from_idx = usize::from(from) - 1;
    if board.me[from_idx] == 0 {
        return None;
    }
    let to = i32::from(from) - i32::from(die);
    let mut after = *board;
    after.me[from_idx] -= 1;
    if to >= 1 {
        let to = to as usize;
        let theirs = 24 - to;
        match board.them[theirs] {
            0 => {}
            1 => {
                after.them[theirs] = 0;
                after.them[BAR] += 1;
            }
            _ => return None,
        }
        after.me[to - 1] += 1;
        return Some((after, to as u8));
    }
    // Bearing off: everyone home, and with a higher die only from the
    // highest point occupied.
    if board.me[6..].iter().any(|&n| n > 0) {
        return None;
    }
    if to < 0 && board.me[from_idx + 1..6].iter().any(|&n| n > 0) {
        return None;
    }
    Some((after, OFF_POINT))
}

/// What a list of plays holds: plays, or moves of which some are plays (the
/// game's moves, so that plays are written straight into the caller's list).
pub trait AsPlay: From<Play> {
    fn as_play(&self) -> Option<&Play>;
}

impl AsPlay for Play {
    fn as_play(&self) -> Option<&Play> {
        Some(self)
    }
}

/// Clears `plays` and writes the legal plays of `roll` on `board` (the side
/// on roll's), one per position reached.
pub fn generate<T: AsPlay>(board: &Board, roll: Roll, plays: &mut Vec<T>) {
    plays.clear();
    let mut search = Search { plays, best: 0 };
    let empty = Play { steps: [(0, 0); MAX_STEPS], n_steps: 0, first_die: 0, after: *board };
    if roll.is_double() {
        let dice = [roll.0; MAX_STEPS];
        search.extend(empty, &dice, BAR_POINT, true);
    } else {
        search.extend(empty, &[roll.0, roll.1], BAR_POINT, false);
        search.extend(empty, &[roll.1, roll.0], BAR_POINT, false);
        let larger = |p: &T| p.as_play().is_some_and(|p| p.first_die == roll.0);
        if search.best == 1 && search.plays.iter().any(larger) {
            search.plays.retain(larger);
        }
    }
}

struct Search<'a, T> {
    plays: &'a mut Vec<T>,
    /// The most steps of any sequence found so far.
    best: u8,
}

impl<T: AsPlay> Search<'_, T> {
    /// Plays `dice` in order on from `play`; with `descending` (a double:
    /// every order of the same steps reaches the same board) each step
    /// starts no higher than the last, so each set of steps is tried once.
    fn extend(&mut self, play: Play, dice: &[u8], highest: u8, descending: bool) {
        let Some((&die, rest)) = dice.split_first() else {
            self.record(play);
            return;
        };
        let board = &play.after;
        let mut moved = false;
        let from_points =
            if board.me[BAR] > 0 { BAR_POINT..=BAR_POINT } else { 1..=if descending { highest.min(24) } else { 24 } };
        for from in from_points.rev() {
            if board.me[usize::from(from) - 1] == 0 {
                continue;
            }
            if let Some((after, to)) = step(board, from, die) {
                moved = true;
                let mut next = play;
                next.steps[usize::from(play.n_steps)] = (from, to);
                next.n_steps += 1;
                if play.n_steps == 0 {
                    next.first_die = die;
                }
                next.after = after;
                self.extend(next, rest, from, descending);
            }
        }
        if !moved {
            self.record(play);
        }
    }

    fn record(&mut self, play: Play) {
        if play.n_steps < self.best {
            return;
        }
        if play.n_steps > self.best {
            self.best = play.n_steps;
            self.plays.clear();
        }
        if !self.plays.iter().any(|p| p.as_play().is_some_and(|p| p.after == play.after)) {
            self.plays.push(play.into());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n_plays(board: &Board, roll: Roll) -> usize {
        let mut plays: Vec<Play> = Vec::new();
        generate(board, roll, &mut plays);
        plays.len()
    }

    #[test]
    fn opening_rolls_have_gnubgs_counts() {
        let start = Board::initial();
        // gnubg lists 7 plays of an opening 65 and 15 of 31.
        assert_eq!(n_plays(&start, Roll(6, 5)), 7);
        assert_eq!(n_plays(&start, Roll(3, 1)), 16);
    }

    #[test]
    fn a_closed_board_leaves_only_the_pass() {
        let mut board = Board::initial();
        board.me[23] = 1;
        board.me[BAR] = 1;
        board.them = [0; 25];
        for p in 0..6 {
            board.them[p] = 2;
        }
        board.them[12] = 3;
        let mut plays: Vec<Play> = Vec::new();
        generate(&board, Roll(6, 6), &mut plays);
        assert_eq!(plays.len(), 1);
        assert_eq!(plays[0].n_steps, 0);
    }
}
