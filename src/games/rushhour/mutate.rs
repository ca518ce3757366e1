//! Small changes to a board, for coevolving hard boards with the policies
//! that solve them (GP-Rush evolved "difficult 8x8 boards", seeds/000
//! section 4; Hillis coevolution, `(fitness (hillis ...))` on a puzzle).
//!
//! A change is one of four, drawn uniformly:
//! - one to three slides, each of any vehicle (never onto the goal): the
//!   board stays in its cluster, its optimal length moves by at most three;
//! - one vehicle other than the red car removed;
//! - one vehicle added on free cells (a car, or a truck one time in four;
//!   never a horizontal one on the exit row, which the red car could not
//!   pass);
//! - one vehicle other than the red car moved elsewhere (removed, then one
//!   added with its letter).
//!
//! Walls, letters and the board's format are kept. A changed board may
//! have no solution, or a short one: the caller checks it (by BFS) and
//! keeps the parent when it fails. Each new set of vehicles is a new
//! layout, interned for the process (a few kilobytes each).

use rand::{Rng, RngExt};

use super::board::{Board, format_board, parse_board};
use super::generate::LETTERS;
use super::{Slide, every_slide};

/// Tries at placing a vehicle before giving up.
const PLACEMENT_TRIES: usize = 50;

/// A board a small change away from `board`, drawn from `rng`; `None` when
/// the change drawn found nothing to do (no slide, no vehicle to remove, no
/// room or letter for one more).
pub fn vary<R: Rng + ?Sized>(board: &Board, rng: &mut R) -> Option<Board> {
    match rng.random_range(0..4) {
        0 => slide_some(board, rng),
        1 => {
            let mut grid = Grid::of(board);
            let v = grid.random_vehicle(rng)?;
            grid.remove(v);
            grid.board()
        }
        2 => {
            let mut grid = Grid::of(board);
            let letter = grid.free_letter()?;
            grid.add(letter, rng).then(|| grid.board())?
        }
        _ => {
            let mut grid = Grid::of(board);
            let v = grid.random_vehicle(rng)?;
            grid.remove(v);
            grid.add(v, rng).then(|| grid.board())?
        }
    }
}

/// One to three random slides from `board`, none of them onto the goal.
fn slide_some<R: Rng + ?Sized>(board: &Board, rng: &mut R) -> Option<Board> {
    let mut current = *board;
    let mut moves: Vec<Slide> = Vec::new();
    for _ in 0..rng.random_range(1..=3) {
        moves.clear();
        every_slide(&current, &mut moves);
        moves.retain(|m| !current.with(usize::from(m.vehicle), m.to).is_goal());
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        current = current.with(usize::from(m.vehicle), m.to);
    }
    (current != *board).then_some(current)
}

/// A board as its characters, to remove and add vehicles.
struct Grid {
    cells: Vec<u8>,
    n: u8,
    empty: u8,
    red: u8,
}

impl Grid {
    fn of(board: &Board) -> Grid {
        let layout = board.layout();
        Grid {
            cells: format_board(board).into_bytes(),
            n: layout.size,
            empty: layout.empty,
            red: layout.vehicles[0].letter,
        }
    }

    /// The letter of a vehicle other than the red car, drawn at random.
    fn random_vehicle<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<u8> {
        let mut letters: Vec<u8> =
            self.cells.iter().copied().filter(|c| c.is_ascii_uppercase() && *c != self.red).collect();
        letters.sort_unstable();
        letters.dedup();
        (!letters.is_empty()).then(|| letters[rng.random_range(0..letters.len())])
    }

    /// A letter no vehicle uses (never `A` or `X`, either of which may
    /// name the red car).
    fn free_letter(&self) -> Option<u8> {
        LETTERS.iter().copied().find(|l| !self.cells.contains(l))
    }

    fn remove(&mut self, letter: u8) {
        for c in self.cells.iter_mut().filter(|c| **c == letter) {
            *c = self.empty;
        }
    }

    /// Places a vehicle written `letter` on free cells; false if none of
    /// the tries found room.
    fn add<R: Rng + ?Sized>(&mut self, letter: u8, rng: &mut R) -> bool {
        let n = usize::from(self.n);
        let exit_row = n / 2 - 1;
        for _ in 0..PLACEMENT_TRIES {
            let len = if rng.random_range(0..4) == 0 { 3 } else { 2 };
            let horizontal = rng.random_bool(0.5);
            let line = rng.random_range(0..n);
            let at = rng.random_range(0..=n - len);
            if horizontal && line == exit_row {
                continue;
            }
            let cells: Vec<usize> =
                (at..at + len).map(|k| if horizontal { line * n + k } else { k * n + line }).collect();
            if cells.iter().all(|&i| self.cells[i] == self.empty) {
                cells.iter().for_each(|&i| self.cells[i] = letter);
                return true;
            }
        }
        false
    }

    fn board(&self) -> Option<Board> {
        parse_board(std::str::from_utf8(&self.cells).ok()?).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::rushhour::RushHour;
    use crate::games::{Game, Puzzle};
    use crate::rng::stream;
    use crate::search::puzzle::bfs;

    /// Every change gives a board that reads back, of the same size, with
    /// the red car, walls and format kept; changes keep coming from boards
    /// already changed; each kind of change happens.
    #[test]
    fn changed_boards_stay_valid_boards() {
        let starts = [
            "AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR.",
            "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM",
            "oYIICZoooYoHCZoBFFFHJoDBVAAHJoDGVNUEKKKGoNUERWLPMMOTRWLPooOTSSQQ",
        ];
        let mut rng = stream(4, &[]);
        let (mut slid, mut fewer, mut more) = (0, 0, 0);
        for text in starts {
            let start = parse_board(text).expect("a board");
            let mut board = start;
            for _ in 0..300 {
                let Some(next) = vary(&board, &mut rng) else { continue };
                let layout = next.layout();
                assert_eq!(layout.size, start.layout().size);
                assert_eq!(layout.walls, start.layout().walls, "walls stay");
                assert_eq!(layout.empty, start.layout().empty, "the format stays");
                assert_eq!(layout.vehicles[0].letter, start.layout().vehicles[0].letter, "the red car stays");
                assert!(!next.is_goal(), "{next:?}");
                assert_eq!(parse_board(&format_board(&next)).ok(), Some(next), "it reads back");
                match layout.vehicles.len().cmp(&board.layout().vehicles.len()) {
                    std::cmp::Ordering::Less => fewer += 1,
                    std::cmp::Ordering::Greater => more += 1,
                    std::cmp::Ordering::Equal if std::ptr::eq(layout, board.layout()) => slid += 1,
                    std::cmp::Ordering::Equal => {}
                }
                board = next;
            }
        }
        assert!(slid > 50 && fewer > 50 && more > 50, "{slid} {fewer} {more}");
    }

    /// Slides keep a board in its cluster: BFS's length moves by at most
    /// the three slides made, and the board stays solvable.
    #[test]
    fn slides_keep_a_board_solvable() {
        let start = parse_board("AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR.").expect("card 1");
        let length = |b: &Board| bfs(&RushHour, b, 1_000_000).moves.map(|m| m.len());
        let before = length(&start).expect("card 1 is solvable");
        let mut rng = stream(9, &[]);
        for _ in 0..100 {
            if let Some(next) = slide_some(&start, &mut rng) {
                let after = length(&next).expect("a slide keeps a board solvable");
                assert!(after.abs_diff(before) <= 3, "{before} -> {after}: {next:?}");
            }
        }
        // The trait's entry points are these functions.
        assert!(RushHour.vary_instance(&RushHour.initial_state(), &mut rng).is_some());
    }
}
