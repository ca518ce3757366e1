//! The hand-crafted heuristics of GP-Rush (Hauptman et al. 2009; seeds/000
//! section 4, table 1-6), each an estimate of the moves from a board to the
//! goal.
//!
//! The *path* is the cells of the exit row from the red car's right end to
//! the right edge; its *blockers* are the vehicles that cover a path cell.
//!
//! - `blockers` (BlockersLowerBound): "a lower bound on the number of moves
//!   required to remove blocking vehicles out of the red car's path": the
//!   number of blockers, plus one if any blocker cannot leave the path in a
//!   single slide (every way out is covered by a vehicle or a wall, runs off
//!   the board, or it lies along the exit row), since then another vehicle
//!   must move first. Admissible: every blocker moves at least once, and the
//!   red car's own slide (which counts here) is not even included.
//! - `goal-distance` (GoalDistance): the sum of every vehicle's distance, in
//!   cells, to its place on the *deduced-goal board*: the red car at the
//!   exit; each blocker at the nearest position out of the path (up or down,
//!   whichever is fewer cells; on a tie, the one with fewer vehicles in the
//!   way, then up), a way out through a wall or off the board not counting
//!   unless no way out is left (then the nearer one on the board, or none);
//!   every other vehicle where it stands. Not admissible.
//! - `hybrid` (Hybrid): GoalDistance plus, for each vehicle, the number of
//!   other vehicles between it and its deduced-goal place (covering a cell
//!   it must cross or end on). Not admissible.
//!
//! Walls on the path make a board unsolvable; the heuristics do not count
//! them.

use super::board::Board;

/// The names `--heuristic` takes, in [`Puzzle::heuristic`](crate::games::Puzzle::heuristic) order.
pub const NAMES: [&str; 3] = ["blockers", "goal-distance", "hybrid"];

/// The path's cells: the exit row right of the red car.
pub fn path(board: &Board) -> u64 {
    let layout = board.layout();
    let end = board.pos(0) + layout.vehicles[0].len;
    (end..layout.size).fold(0, |path, q| path | layout.cell(0, q))
}

/// The way a blocker leaves the path: how far it slides and how many
/// vehicles stand in the cells it crosses or ends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WayOut {
    distance: u32,
    in_the_way: u32,
    /// No wall on the way.
    open: bool,
}

/// A blocker `v`'s ways out of the exit row, up then down (none for a
/// vehicle along the exit row).
fn ways_out(board: &Board, v: usize) -> [Option<WayOut>; 2] {
    let layout = board.layout();
    let vehicle = &layout.vehicles[v];
    if vehicle.horizontal {
        return [None, None];
    }
    let (row, top, len, n) = (layout.exit_row(), board.pos(v), vehicle.len, layout.size);
    let way = |to: u8| {
        let crossed = if to < top {
            (to..top).fold(0, |m, q| m | layout.cell(v, q))
        } else {
            (top + len..to + len).fold(0, |m, q| m | layout.cell(v, q))
        };
        // Only vehicles whose line runs through a crossed cell can cover one
        // (the red car never does: the crossed cells are off the exit row).
        let mut candidates = layout.lines_through(crossed) & !(1 << v) & !1;
        let mut in_the_way = 0;
        while candidates != 0 {
            let w = candidates.trailing_zeros() as usize;
            in_the_way += u32::from(layout.mask(w, board.pos(w)) & crossed != 0);
            candidates &= candidates - 1;
        }
        WayOut { distance: u32::from(to.abs_diff(top)), in_the_way, open: layout.walls & crossed == 0 }
    };
    let up = (row >= len).then(|| way(row - len));
    let down = (row + len < n).then(|| way(row + 1));
    [up, down]
}

/// A way out needs no other vehicle to move.
fn is_free(way: &Option<WayOut>) -> bool {
    way.is_some_and(|w| w.open && w.in_the_way == 0)
}

/// The deduced-goal way out among a blocker's `ways`, if it has one on the
/// board.
fn deduced_way(ways: &[Option<WayOut>; 2]) -> Option<WayOut> {
    let key = |w: &WayOut| (w.distance, w.in_the_way);
    let open = ways.iter().flatten().filter(|w| w.open).min_by_key(|w| key(w));
    open.or_else(|| ways.iter().flatten().min_by_key(|w| key(w))).copied()
}

/// The three heuristics of one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimates {
    pub blockers_lower_bound: u32,
    pub goal_distance: u32,
    pub hybrid: u32,
}

/// BlockersLowerBound, GoalDistance and Hybrid in one pass over the
/// blockers, whose ways out all three read.
pub fn estimates(board: &Board) -> Estimates {
    let layout = board.layout();
    let path = path(board);
    let red = u32::from(layout.goal_pos() - board.pos(0));
    let (mut count, mut any_stuck, mut distance, mut in_the_way) = (0, false, 0, 0);
    let mut candidates = layout.lines_through(path) & !1;
    while candidates != 0 {
        let v = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        if layout.mask(v, board.pos(v)) & path == 0 {
            continue;
        }
        let ways = ways_out(board, v);
        count += 1;
        any_stuck |= !ways.iter().any(is_free);
        if let Some(way) = deduced_way(&ways) {
            distance += way.distance;
            in_the_way += way.in_the_way;
        }
    }
    Estimates {
        blockers_lower_bound: count + u32::from(any_stuck),
        goal_distance: red + distance,
        hybrid: red + count + distance + in_the_way,
    }
}

/// BlockersLowerBound.
pub fn blockers_lower_bound(board: &Board) -> u32 {
    estimates(board).blockers_lower_bound
}

/// GoalDistance.
pub fn goal_distance(board: &Board) -> u32 {
    estimates(board).goal_distance
}

/// Hybrid.
pub fn hybrid(board: &Board) -> u32 {
    estimates(board).hybrid
}

/// The heuristics as first written, one walk over the blockers each: the
/// reference the tests hold [`estimates`] to.
#[cfg(test)]
pub(super) mod reference {
    use super::super::board::Board;
    use super::{WayOut, is_free, path};

    /// The three, in [`Puzzle::heuristic`](crate::games::Puzzle::heuristic) order.
    pub const ALL: [fn(&Board) -> u32; 3] = [blockers_lower_bound, goal_distance, hybrid];

    fn ways_out(board: &Board, v: usize) -> [Option<WayOut>; 2] {
        let layout = board.layout();
        let vehicle = &layout.vehicles[v];
        if vehicle.horizontal {
            return [None, None];
        }
        let (row, top, len, n) = (layout.exit_row(), board.pos(v), vehicle.len, layout.size);
        let way = |to: u8| {
            let crossed = if to < top {
                (to..top).fold(0, |m, q| m | layout.cell(v, q))
            } else {
                (top + len..to + len).fold(0, |m, q| m | layout.cell(v, q))
            };
            let in_the_way = (1..layout.vehicles.len())
                .filter(|&w| w != v && layout.mask(w, board.pos(w)) & crossed != 0)
                .count() as u32;
            WayOut { distance: u32::from(to.abs_diff(top)), in_the_way, open: layout.walls & crossed == 0 }
        };
        let up = (row >= len).then(|| way(row - len));
        let down = (row + len < n).then(|| way(row + 1));
        [up, down]
    }

    fn blockers(board: &Board) -> impl Iterator<Item = usize> + '_ {
        let path = path(board);
        let layout = board.layout();
        (1..layout.vehicles.len()).filter(move |&v| layout.mask(v, board.pos(v)) & path != 0)
    }

    pub fn blockers_lower_bound(board: &Board) -> u32 {
        let mut count = 0;
        let mut any_stuck = false;
        for v in blockers(board) {
            count += 1;
            any_stuck |= !ways_out(board, v).iter().any(is_free);
        }
        count + u32::from(any_stuck)
    }

    fn deduced_way(board: &Board, v: usize) -> Option<WayOut> {
        let ways = ways_out(board, v);
        let key = |w: &WayOut| (w.distance, w.in_the_way);
        let open = ways.iter().flatten().filter(|w| w.open).min_by_key(|w| key(w));
        open.or_else(|| ways.iter().flatten().min_by_key(|w| key(w))).copied()
    }

    fn deduced_goal(board: &Board) -> (u32, u32, impl Iterator<Item = Option<WayOut>> + '_) {
        let red = u32::from(board.layout().goal_pos() - board.pos(0));
        let n_blockers = blockers(board).count() as u32;
        (red, n_blockers, blockers(board).map(move |v| deduced_way(board, v)))
    }

    pub fn goal_distance(board: &Board) -> u32 {
        let (red, _, ways) = deduced_goal(board);
        red + ways.flatten().map(|w| w.distance).sum::<u32>()
    }

    pub fn hybrid(board: &Board) -> u32 {
        let (red, n_blockers, ways) = deduced_goal(board);
        red + n_blockers + ways.flatten().map(|w| w.distance + w.in_the_way).sum::<u32>()
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse_board;
    use super::*;

    #[test]
    fn heuristics_of_small_boards() {
        // A clear path: no blockers; the red car is four cells away.
        let clear = parse_board("ooooooooooooAAoooooooooooooooooooooo").expect("board");
        assert_eq!((blockers_lower_bound(&clear), goal_distance(&clear), hybrid(&clear)), (0, 4, 4));
        // B (rows 1-2, column 2) blocks; it leaves up by one cell, freely.
        let one = parse_board("ooooooooBoooAABooooooooooooooooooooo").expect("board");
        assert_eq!((blockers_lower_bound(&one), goal_distance(&one), hybrid(&one)), (1, 4 + 1, 4 + 1 + 1));
        // B (rows 0-2) can only leave down (3 cells), and C (rows 3-4) is in the way.
        let stuck = parse_board("ooBoooooBoooAABoooooCoooooCooooooooo").expect("board");
        assert_eq!(blockers_lower_bound(&stuck), 2);
        assert_eq!(goal_distance(&stuck), 4 + 3);
        assert_eq!(hybrid(&stuck), 4 + 3 + 1 + 1);
        let at_exit = parse_board("ooooooooooooooooAAoooooooooooooooooo").expect("board");
        assert_eq!((blockers_lower_bound(&at_exit), goal_distance(&at_exit), hybrid(&at_exit)), (0, 0, 0));
    }
}
