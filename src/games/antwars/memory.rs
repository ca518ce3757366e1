//! An ant's memory, as BrilliAnt keeps it (seeds/003, section 3): three
//! tables overlaid on the board, in board coordinates (a view carries the
//! ant's absolute cell, as the contest's `Move(grid, row, column)` does).
//!
//! - food memory F: what the ant last saw in each cell. Inside the current
//!   view F is overwritten by what is there now; outside it is left as it was.
//! - belief B: how much the ant trusts F. 1 inside the view; outside, it
//!   fades by 10% with each of the ant's moves (×0.9), since the opponent may
//!   have eaten what the ant remembers. Initially 0 everywhere.
//! - visited V: the ant's "pheromone track", 1 on every cell it has stood on.
//!
//! Beyond the paper's tables it keeps the cell of its first view, its start:
//! which start the ant had tells it where the opponent started (the humants'
//! `UnseenPullRival`).
//!
//! The paper updates the tables "after each move"; an ant observes once per
//! move, before choosing it, so [`AntMemory::observe`] is called once per
//! decision and the decay counts the ant's own moves.

use super::{CELLS, View, WINDOW, WINDOW_CELLS};

/// The fade of belief per move outside the view (the paper's 10%).
pub const DECAY: f64 = 0.9;

/// An ant's memory tables F, B and V (see the module's doc).
#[derive(Clone, Debug, PartialEq)]
pub struct AntMemory {
    /// F as a set of cells: the cells last seen holding food.
    food: u128,
    /// B, per cell.
    belief: [f64; CELLS],
    /// V as a set of cells.
    visited: u128,
    /// The cells ever in view: where B is above 0 (0 × 0.9 stays 0).
    seen: u128,
    /// The ant's cell at its first view this game.
    start: Option<u8>,
}

impl Default for AntMemory {
    fn default() -> Self {
        AntMemory::new()
    }
}

impl AntMemory {
    /// The memory of an ant before its first move: all three tables zero.
    pub fn new() -> AntMemory {
        AntMemory { food: 0, belief: [0.0; CELLS], visited: 0, seen: 0, start: None }
    }

    /// Forgets everything (before a new game).
    pub fn reset(&mut self) {
        *self = AntMemory::new();
    }

    /// Takes in what the ant sees before a move: F is overwritten inside the
    /// view, B is 1 there and fades outside, and the ant's cell is visited.
    ///
    /// B fades everywhere first (one pass the compiler vectorises), then the
    /// 25 cells of the view are set to 1: what a tree reads is a load.
    pub fn observe(&mut self, view: &View) {
        let window = WINDOW[usize::from(view.cell)];
        self.food = (self.food & !window) | (view.food & window);
        for belief in &mut self.belief {
            *belief *= DECAY;
        }
        for &cell in &WINDOW_CELLS[usize::from(view.cell)] {
            self.belief[usize::from(cell)] = 1.0;
        }
        self.visited |= 1u128 << view.cell;
        self.seen |= window;
        self.start.get_or_insert(view.cell);
    }

    /// F as a set of cells.
    pub fn food_set(&self) -> u128 {
        self.food
    }

    /// V as a set of cells.
    pub fn visited_set(&self) -> u128 {
        self.visited
    }

    /// The cells ever in view: B is 0 exactly on the others.
    pub fn seen_set(&self) -> u128 {
        self.seen
    }

    /// The ant's cell when it first observed this game (`None` before).
    pub fn start(&self) -> Option<usize> {
        self.start.map(usize::from)
    }

    /// F at `cell`: whether food was there when the ant last saw it.
    #[inline]
    pub fn food(&self, cell: usize) -> bool {
        super::contains(self.food, cell)
    }

    /// B at `cell`.
    #[inline]
    pub fn belief(&self, cell: usize) -> f64 {
        self.belief[cell]
    }

    /// V at `cell`.
    #[inline]
    pub fn visited(&self, cell: usize) -> bool {
        super::contains(self.visited, cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::antwars::{SIZE, cell_at};

    fn cell(row: usize, col: usize) -> usize {
        row * SIZE + col
    }

    /// A view from `at` with food on `food` (only those inside the window count).
    fn view(at: usize, food: &[usize]) -> View {
        let food = food.iter().fold(0u128, |f, &c| f | 1u128 << c) & WINDOW[at];
        View { cell: at as u8, food, enemy: None, score: 0, moves_left: 35 }
    }

    #[test]
    fn a_new_memory_is_all_zero() {
        let m = AntMemory::new();
        assert!((0..CELLS).all(|c| !m.food(c) && m.belief(c) == 0.0 && !m.visited(c)));
    }

    #[test]
    fn food_is_overwritten_inside_the_view_and_kept_outside() {
        let mut m = AntMemory::new();
        m.observe(&view(cell(5, 2), &[cell(5, 4), cell(3, 2)]));
        assert!(m.food(cell(5, 4)) && m.food(cell(3, 2)));
        // One step east: (5, 4) is still in view and now empty (eaten by
        // someone); (3, 2) is still in view too; (5, 0) leaves the view.
        m.observe(&view(cell(5, 3), &[cell(3, 2)]));
        assert!(!m.food(cell(5, 4)), "seen empty now");
        assert!(m.food(cell(3, 2)));
        // Far away: nothing of the old window is in view, and F keeps it.
        m.observe(&view(cell(0, 8), &[]));
        assert!(m.food(cell(3, 2)), "outside the view F stays as it was");
    }

    #[test]
    fn belief_is_one_inside_the_view_and_decays_by_a_tenth_per_move_outside() {
        let mut m = AntMemory::new();
        let start = cell(5, 2);
        m.observe(&view(start, &[]));
        assert_eq!(m.belief(cell(3, 0)), 1.0);
        assert_eq!(m.belief(cell(5, 8)), 0.0, "never seen: 0, and 0 × 0.9 stays 0");
        // Three moves far from the start window.
        for at in [cell(0, 8), cell(1, 8), cell(2, 8)] {
            m.observe(&view(at, &[]));
        }
        assert!((m.belief(cell(3, 0)) - 0.9f64.powi(3)).abs() < 1e-12);
        assert_eq!(m.belief(cell(2, 8)), 1.0);
        assert_eq!(m.belief(cell(0, 6)), 1.0, "inside the last window again");
    }

    #[test]
    fn visited_marks_every_cell_the_ant_stood_on() {
        let mut m = AntMemory::new();
        let path = [cell(5, 2), cell(4, 3), cell(4, 4)];
        for &at in &path {
            m.observe(&view(at, &[]));
        }
        assert!(path.iter().all(|&c| m.visited(c)));
        assert_eq!((0..CELLS).filter(|&c| m.visited(c)).count(), 3);
        m.reset();
        assert_eq!(m, AntMemory::new());
    }

    #[test]
    fn the_view_wraps_around_the_torus() {
        let mut m = AntMemory::new();
        let corner = cell(0, 0);
        // Food two cells north-west of the corner lies at (9, 9).
        let wrapped = cell_at(corner, -2, -2);
        assert_eq!(wrapped, cell(9, 9));
        m.observe(&view(corner, &[wrapped, cell(1, 10)]));
        assert!(m.food(wrapped) && m.food(cell(1, 10)));
        assert_eq!(m.belief(cell(10, 1)), 1.0, "(−1, +1) of the corner is in view");
        assert_eq!(m.belief(cell(8, 0)), 0.0, "three rows up is not");
        let in_view = (0..CELLS).filter(|&c| m.belief(c) == 1.0).count();
        assert_eq!(in_view, 25);
    }

    #[test]
    fn belief_is_faded_move_by_move_outside_the_view() {
        use rand::RngExt;
        let mut rng = crate::rng::stream(3, &[23, 3]);
        for _ in 0..20 {
            let mut m = AntMemory::new();
            let mut faded = [0.0f64; CELLS];
            // Longer than a game.
            for _ in 0..300 {
                let at = rng.random_range(0..CELLS);
                m.observe(&view(at, &[]));
                for (c, b) in faded.iter_mut().enumerate() {
                    *b = if (WINDOW[at] >> c) & 1 == 1 { 1.0 } else { *b * DECAY };
                }
                assert!((0..CELLS).all(|c| m.belief(c).to_bits() == faded[c].to_bits()));
                assert!((0..CELLS).all(|c| (m.belief(c) > 0.0) == super::super::contains(m.seen_set(), c)));
            }
        }
    }
}
