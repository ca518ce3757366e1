//! Ant Wars, the GECCO 2007 contest game (seeds/003, Jaśkowski, Krawiec and
//! Wieloch; docs/ANTWARS.md): two ants on an 11×11 torus with 15 pieces of
//! food, 35 king moves each, alternating, Ant 1 first. Food scores 1; moving
//! onto the opponent kills it (no points), and the survivor goes on alone;
//! the higher score wins and a tie goes to Ant 1.
//!
//! The game is of imperfect information: an ant sees only the 5×5 window
//! around it ([`View`], the [`Observe`] view of the model), so players are
//! not searches over the state but named players ([`players`]) that read a
//! view: built-in ones, contest players written in C ([`c_player`]) and,
//! later, evolved ants. Memory is the player's: a view carries the ant's
//! absolute position, as the contest's `Move(grid, row, column)` does, so a
//! player can keep what it saw in board coordinates.
//!
//! The state is a 32-byte `Copy` value (food as a 121-bit set), and the
//! board's geometry (neighbours and windows on the torus) is computed once at
//! compile time, so a playout is a few hundred nanoseconds.

pub mod area;
pub mod c_player;
pub mod c_sandbox;
pub mod domain;
pub mod export;
mod exported_senses;
pub mod gp_ant;
pub mod humant;
mod library_copies;
mod lockstep;
pub mod memory;
pub mod planning;
pub mod players;
pub mod playing;
pub mod sight;
mod text;

use rand::{Rng, RngExt};

use super::duel::GameEnd;
use super::{Game, GameResult, Observe, ParseError, Player, Role, Turn, TwoPlayer, alternating_turn, zero_sum_score};

/// The side of the square board.
pub const SIZE: usize = 11;
/// The cells of the board, numbered `row * SIZE + col`.
pub const CELLS: usize = SIZE * SIZE;
/// Food placed before a game.
pub const N_FOOD: u32 = 15;
/// Moves each ant makes in a game.
pub const MOVES_PER_ANT: u8 = 35;
/// Plies of a game: both ants' moves (a dead ant's turns are skipped).
pub const PLIES: u8 = 2 * MOVES_PER_ANT;
/// Where Ant 1 and Ant 2 start: (row 5, col 2) and (row 5, col 8).
pub const START: [u8; 2] = [5 * SIZE as u8 + 2, 5 * SIZE as u8 + 8];
/// The half side of an ant's view: it sees cells up to 2 rows and 2 columns away.
pub const REACH: i32 = 2;
/// A dead ant's cell.
const DEAD: u8 = u8::MAX;

/// The eight directions, in the contest's order: 0 north (row − 1), then
/// clockwise; the (row, column) step of each.
pub const STEPS: [(i32, i32); 8] = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)];

/// The directions' names, short and long, in the order of [`STEPS`].
pub const DIRECTION_NAMES: [(&str, &str); 8] = [
    ("n", "north"),
    ("ne", "north-east"),
    ("e", "east"),
    ("se", "south-east"),
    ("s", "south"),
    ("sw", "south-west"),
    ("w", "west"),
    ("nw", "north-west"),
];

/// A move: a direction 0–7 (see [`STEPS`]).
pub type Dir = u8;

/// The cell `(row + dr, col + dc)` on the torus.
pub const fn cell_at(cell: usize, dr: i32, dc: i32) -> usize {
    let n = SIZE as i32;
    let row = ((cell / SIZE) as i32 + dr).rem_euclid(n);
    let col = ((cell % SIZE) as i32 + dc).rem_euclid(n);
    (row * n + col) as usize
}

/// Each cell's cells at every offset: `RELATIVE[cell][relative_index(dr,
/// dc)]` is [`cell_at`]`(cell, dr, dc)`, one load instead of two divisions
/// (the ants' area functions ask for thousands of cells per game).
static RELATIVE: [[u8; CELLS]; CELLS] = {
    let mut table = [[0u8; CELLS]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut i = 0;
        while i < CELLS {
            table[cell][i] = cell_at(cell, (i / SIZE) as i32, (i % SIZE) as i32) as u8;
            i += 1;
        }
        cell += 1;
    }
    table
};

/// The cells of `set`, in increasing order.
pub fn cells_of(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let cell = set.trailing_zeros() as usize;
            set &= set - 1;
            cell
        })
    })
}

/// Whether `cell` is in the set of cells `set`: a shift of the 64-bit half
/// that holds it, cheaper than shifting all 128 bits by a variable amount.
#[inline]
pub fn contains(set: u128, cell: usize) -> bool {
    let half = if cell < 64 { set as u64 } else { (set >> 64) as u64 };
    (half >> (cell & 63)) & 1 == 1
}

/// The index of offset (dr, dc) in a row of [`RELATIVE`]: the offset
/// taken modulo the board, which is the same cell on the torus.
pub const fn relative_index(dr: i32, dc: i32) -> u8 {
    let n = SIZE as i32;
    (dr.rem_euclid(n) * n + dc.rem_euclid(n)) as u8
}

/// The cells of a board, as a set.
const BOARD: u128 = (1u128 << CELLS) - 1;

/// Per column `c0`, the cells of every row in columns `c0..SIZE` (the ones
/// a column rotation by `c0` moves left, to lower columns).
static COLUMNS_FROM: [u128; SIZE] = {
    let mut table = [0u128; SIZE];
    let mut c0 = 0;
    while c0 < SIZE {
        let mut cell = 0;
        while cell < CELLS {
            if cell % SIZE >= c0 {
                table[c0] |= 1u128 << cell;
            }
            cell += 1;
        }
        c0 += 1;
    }
    table
};

/// The set of cells `set` seen from `cell`: cell `x` becomes bit
/// [`relative_index`] of `x`'s offset from `cell`, so a set of offsets
/// fixed once (an area's cells) is tested against it with one AND. The
/// rows turn as one 121-bit rotation, then the columns of every row at once.
#[inline]
pub fn to_relative(set: u128, cell: u8) -> u128 {
    let (r0, c0) = (usize::from(cell) / SIZE, usize::from(cell) % SIZE);
    let rows = match r0 * SIZE {
        0 => set,
        k => ((set >> k) | (set << (CELLS - k))) & BOARD,
    };
    match c0 {
        0 => rows,
        _ => ((rows & COLUMNS_FROM[c0]) >> c0) | ((rows & !COLUMNS_FROM[c0] & BOARD) << (SIZE - c0)),
    }
}

/// The 5×5 window as a set of [`relative_index`]es (the window seen from
/// any cell).
pub const WINDOW_RELATIVE: u128 = {
    let mut set = 0u128;
    let mut dr = -REACH;
    while dr <= REACH {
        let mut dc = -REACH;
        while dc <= REACH {
            set |= 1u128 << relative_index(dr, dc);
            dc += 1;
        }
        dr += 1;
    }
    set
};

/// The cell at the offset of [`relative_index`] `index` from `cell`.
#[inline]
pub fn relative_cell(cell: u8, index: u8) -> usize {
    usize::from(RELATIVE[usize::from(cell)][usize::from(index)])
}

/// Each cell's neighbour in each direction.
static NEIGHBOUR: [[u8; 8]; CELLS] = {
    let mut table = [[0u8; 8]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut d = 0;
        while d < 8 {
            table[cell][d] = cell_at(cell, STEPS[d].0, STEPS[d].1) as u8;
            d += 1;
        }
        cell += 1;
    }
    table
};

/// Each cell's 5×5 window, centre included, as a set of cells.
static WINDOW: [u128; CELLS] = {
    let mut table = [0u128; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut dr = -REACH;
        while dr <= REACH {
            let mut dc = -REACH;
            while dc <= REACH {
                table[cell] |= 1u128 << cell_at(cell, dr, dc);
                dc += 1;
            }
            dr += 1;
        }
        cell += 1;
    }
    table
};

/// Each cell's 5×5 window as a list of cells, row by row: the C players'
/// grid is filled from it, 25 writes instead of a pass over the board with
/// 128-bit shifts (which took most of a C player's time).
static WINDOW_CELLS: [[u8; 25]; CELLS] = {
    let mut table = [[0u8; 25]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut i = 0;
        while i < 25 {
            table[cell][i] = cell_at(cell, i as i32 / 5 - REACH, i as i32 % 5 - REACH) as u8;
            i += 1;
        }
        cell += 1;
    }
    table
};

/// A position: the food, both ants, their scores and the plies played.
///
/// Invariants: food never lies on an ant's cell (an ant eats what it steps
/// on); at least one ant is alive; when the game is not over, the ant to move
/// (`ply % 2`) is alive (a dead ant's turns are skipped as the game goes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    food: u128,
    ants: [u8; 2],
    scores: [u8; 2],
    ply: u8,
}

impl Board {
    /// The start of a game with food on `food` (a set of cells, never the
    /// start cells).
    pub fn with_food(food: u128) -> Board {
        let starts = (1u128 << START[0]) | (1u128 << START[1]);
        Board { food: food & !starts & all_cells(), ants: START, scores: [0, 0], ply: 0 }
    }

    /// The cells holding food.
    pub fn food(&self) -> u128 {
        self.food
    }

    /// Whether `cell` holds food.
    pub fn has_food(&self, cell: usize) -> bool {
        cell < CELLS && (self.food >> cell) & 1 == 1
    }

    /// Ant `role`'s cell, `None` once it has been killed.
    pub fn ant(&self, role: Role) -> Option<usize> {
        let cell = self.ants[usize::from(role & 1)];
        (cell != DEAD).then_some(usize::from(cell))
    }

    /// The food ant `role` has eaten.
    pub fn score(&self, role: Role) -> u8 {
        self.scores[usize::from(role & 1)]
    }

    /// Plies played (a dead ant's skipped turns count).
    pub fn ply(&self) -> u8 {
        self.ply
    }

    /// The moves ant `role` has left (whether or not it is alive).
    pub fn moves_left(&self, role: Role) -> u8 {
        let ply = self.ply.min(PLIES);
        (PLIES - ply + u8::from(ply % 2 == (role & 1))) / 2
    }

    pub fn is_over(&self) -> bool {
        self.ply >= PLIES
    }

    /// Whether the scores, and so the winner, can no longer change: the
    /// game is over or no food is left.
    pub fn is_settled(&self) -> bool {
        self.is_over() || self.food == 0
    }

    /// The ant to move (meaningless once the game is over).
    pub fn to_move(&self) -> Role {
        self.ply & 1
    }

    /// The winner once the game is over: the higher score, a tie to Ant 1.
    pub fn winner(&self) -> Option<Player> {
        self.is_over().then(|| self.leader())
    }

    /// The ant that wins if the scores stay as they are: the higher score,
    /// a tie to Ant 1 (the winner once the game [`is_settled`](Board::is_settled)).
    pub fn leader(&self) -> Player {
        u8::from(self.scores[1] > self.scores[0])
    }

    /// How the game that reached this board, settled or forfeited by the
    /// role `forfeit`, went: a forfeit is lost, whatever the score.
    pub fn end(&self, forfeit: Option<Player>) -> GameEnd {
        let killed = (0..2).find(|&r| self.ant(r).is_none());
        let winner = match forfeit {
            Some(role) => 1 - role,
            None => self.leader(),
        };
        GameEnd { points: [0, 1].map(|r| u32::from(self.score(r))), winner: Some(winner), killed, forfeit }
    }

    /// The position after the ant to move steps in direction `dir` (0–7):
    /// it eats the food there or kills the opponent there; then the turn
    /// passes, skipping a dead ant. A finished game is returned unchanged.
    #[inline]
    pub fn step(&self, dir: Dir) -> Board {
        let mut next = *self;
        let me = usize::from(self.ply & 1);
        // Only a finished game has no living ant to move; it stays as it is.
        if self.ants[me] == DEAD || self.is_over() {
            return next;
        }
        let from = usize::from(self.ants[me]);
        let to = NEIGHBOUR[from][usize::from(dir & 7)];
        let bit = 1u128 << to;
        if self.ants[1 - me] == to {
            next.ants[1 - me] = DEAD;
        } else if self.food & bit != 0 {
            next.food &= !bit;
            next.scores[me] += 1;
        }
        next.ants[me] = to;
        next.ply += 1;
        if next.ply < PLIES && next.ants[usize::from(next.ply & 1)] == DEAD {
            next.ply += 1;
        }
        next
    }

    /// What ant `role` sees.
    pub fn view(&self, role: Role) -> View {
        let r = usize::from(role & 1);
        let me = self.ants[r];
        let cell = if me == DEAD { START[r] } else { me };
        let window = WINDOW[usize::from(cell)];
        let enemy = self.ants[1 - r];
        let enemy = (enemy != DEAD && (window >> enemy) & 1 == 1).then_some(enemy);
        View { cell, food: self.food & window, enemy, score: self.scores[r], moves_left: self.moves_left(role) }
    }
}

/// Every cell of the board as a set.
pub const fn all_cells() -> u128 {
    (1u128 << CELLS) - 1
}

/// What one ant sees before it moves: its 5×5 window (food and the opponent
/// if it is there), its own cell in board coordinates, and what it could
/// count for itself (its score, its moves left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// The ant's cell, `row * SIZE + col`.
    pub cell: u8,
    /// The food inside the window, as a set of cells.
    pub food: u128,
    /// The opponent's cell when it is inside the window.
    pub enemy: Option<u8>,
    pub score: u8,
    pub moves_left: u8,
}

/// What a cell of the window holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    Empty,
    Food,
    Enemy,
}

impl View {
    pub fn row(&self) -> usize {
        usize::from(self.cell) / SIZE
    }

    pub fn col(&self) -> usize {
        usize::from(self.cell) % SIZE
    }

    /// The cell `dr` rows and `dc` columns away (each within ±2).
    pub fn at(&self, dr: i32, dc: i32) -> Seen {
        let cell = cell_at(usize::from(self.cell), dr, dc);
        if self.enemy == Some(cell as u8) {
            Seen::Enemy
        } else if (self.food >> cell) & 1 == 1 {
            Seen::Food
        } else {
            Seen::Empty
        }
    }

    /// The contest's grid: for every cell, −1 outside the window, 0 empty, 1
    /// food, 2 the opponent (the ant's own cell reads 0).
    pub fn grid(&self) -> [[i32; SIZE]; SIZE] {
        let mut grid = [[-1; SIZE]; SIZE];
        let flat = grid.as_flattened_mut();
        for &cell in &WINDOW_CELLS[usize::from(self.cell)] {
            let cell = usize::from(cell);
            flat[cell] = i32::from((self.food >> cell) & 1 == 1);
        }
        if let Some(enemy) = self.enemy {
            flat[usize::from(enemy)] = 2;
        }
        grid
    }
}

/// Ant Wars as a game of the model.
#[derive(Clone, Copy, Debug, Default)]
pub struct AntWars;

impl AntWars {
    /// A board drawn from `rng`: 15 pieces of food on distinct cells,
    /// uniformly among the cells other than the two start cells.
    pub fn random_board<R: Rng + ?Sized>(rng: &mut R) -> Board {
        let starts = (1u128 << START[0]) | (1u128 << START[1]);
        let mut food = 0u128;
        let mut placed = 0;
        while placed < N_FOOD {
            let bit = 1u128 << rng.random_range(0..CELLS);
            if (food | starts) & bit == 0 {
                food |= bit;
                placed += 1;
            }
        }
        Board::with_food(food)
    }
}

impl Game for AntWars {
    type State = Board;
    type Move = Dir;

    fn name(&self) -> &str {
        "antwars"
    }

    fn n_roles(&self) -> usize {
        2
    }

    fn role_name(&self, role: Role) -> &str {
        if role == 0 { "ant1" } else { "ant2" }
    }

    /// A board without food: the start cells only. Games are played on
    /// [`Game::random_initial_state`]'s boards.
    fn initial_state(&self) -> Board {
        Board::with_food(0)
    }

    fn random_initial_state<R: Rng + ?Sized>(&self, rng: &mut R) -> Board {
        AntWars::random_board(rng)
    }

    fn turn(&self, state: &Board) -> Turn {
        alternating_turn(self, state)
    }

    fn legal_moves(&self, state: &Board, moves: &mut Vec<Dir>) {
        moves.clear();
        if !state.is_over() {
            moves.extend(0..8);
        }
    }

    fn apply(&self, state: &Board, mv: &Dir) -> Board {
        state.step(*mv)
    }

    fn random_move<R: Rng + ?Sized>(&self, state: &Board, rng: &mut R, _: &mut Vec<Dir>) -> Option<Dir> {
        (!state.is_over()).then(|| rng.random_range(0..8u8))
    }

    fn score(&self, state: &Board, role: Role) -> Option<u8> {
        zero_sum_score(self, state, role)
    }

    fn parse_state(&self, text: &str) -> Result<Board, ParseError> {
        text::parse_board(text)
    }

    fn format_state(&self, state: &Board) -> String {
        text::format_board(state)
    }

    fn render(&self, state: &Board) -> String {
        text::render_board(state)
    }

    fn parse_move(&self, state: &Board, text: &str) -> Result<Dir, ParseError> {
        if state.is_over() {
            return Err(ParseError::new("the game is over", 0..text.len()));
        }
        text::parse_direction(text)
    }

    fn format_move(&self, _: &Board, mv: &Dir) -> String {
        DIRECTION_NAMES[usize::from(mv & 7)].0.to_owned()
    }
}

impl TwoPlayer for AntWars {
    fn to_move(&self, state: &Board) -> Player {
        state.to_move()
    }

    fn result(&self, state: &Board) -> Option<GameResult> {
        state.winner().map(GameResult::Winner)
    }
}

impl Observe for AntWars {
    type Observation = View;

    fn observe(&self, state: &Board, role: Role) -> View {
        state.view(role)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::stream;

    fn cell(row: usize, col: usize) -> usize {
        row * SIZE + col
    }

    /// A board with food on `food` cells and the ants on `ants`.
    fn board(food: &[(usize, usize)], ants: [(usize, usize); 2]) -> Board {
        let mut b = Board::with_food(food.iter().fold(0, |f, &(r, c)| f | 1u128 << cell(r, c)));
        b.ants = [cell(ants[0].0, ants[0].1) as u8, cell(ants[1].0, ants[1].1) as u8];
        b
    }

    #[test]
    fn sets_seen_from_a_cell_put_each_cell_at_its_offset() {
        use rand::RngExt;
        let mut rng = stream(4, &[23]);
        for (from, &window) in WINDOW.iter().enumerate() {
            for _ in 0..20 {
                let set = rng.random::<u128>() & BOARD;
                let mut expected = 0u128;
                for x in (0..CELLS).filter(|&x| contains(set, x)) {
                    let (dr, dc) = ((x / SIZE) as i32 - (from / SIZE) as i32, (x % SIZE) as i32 - (from % SIZE) as i32);
                    assert_eq!(relative_cell(from as u8, relative_index(dr, dc)), x);
                    expected |= 1u128 << relative_index(dr, dc);
                }
                assert_eq!(to_relative(set, from as u8), expected, "from {from}");
            }
            assert_eq!(to_relative(window, from as u8), WINDOW_RELATIVE);
        }
    }

    #[test]
    fn the_state_is_small() {
        assert_eq!(std::mem::size_of::<Board>(), 32);
    }

    #[test]
    fn random_boards_have_fifteen_food_off_the_start_cells() {
        for i in 0..500 {
            let b = AntWars::random_board(&mut stream(3, &[i]));
            assert_eq!(b.food().count_ones(), N_FOOD);
            assert!(!b.has_food(START[0].into()) && !b.has_food(START[1].into()));
            assert_eq!(b.food() >> CELLS, 0);
            assert_eq!((b.ant(0), b.ant(1), b.ply()), (Some(cell(5, 2)), Some(cell(5, 8)), 0));
        }
        let a = AntWars::random_board(&mut stream(3, &[1]));
        assert_eq!(a, AntWars::random_board(&mut stream(3, &[1])), "seeded");
    }

    #[test]
    fn moves_wrap_around_the_torus() {
        assert_eq!(cell_at(cell(0, 0), -1, 0), cell(10, 0));
        assert_eq!(cell_at(cell(0, 0), -1, -1), cell(10, 10));
        assert_eq!(cell_at(cell(10, 10), 1, 1), cell(0, 0));
        let b = board(&[(0, 10)], [(0, 0), (5, 5)]);
        let after = b.step(6);
        assert_eq!(after.ant(0), Some(cell(0, 10)), "west of column 0 is column 10");
        assert_eq!(after.score(0), 1);
        let b = board(&[], [(10, 3), (5, 5)]).step(4);
        assert_eq!(b.ant(0), Some(cell(0, 3)), "south of row 10 is row 0");
    }

    #[test]
    fn directions_follow_the_contest_order() {
        let from = cell(5, 5);
        let expected = [(4, 5), (4, 6), (5, 6), (6, 6), (6, 5), (6, 4), (5, 4), (4, 4)];
        for (d, (r, c)) in expected.into_iter().enumerate() {
            assert_eq!(usize::from(NEIGHBOUR[from][d]), cell(r, c), "direction {d}");
        }
    }

    #[test]
    fn food_scores_once_and_is_removed() {
        let b = board(&[(5, 3)], [(5, 2), (5, 8)]);
        let b = b.step(2);
        assert_eq!((b.score(0), b.food().count_ones(), b.to_move()), (1, 0, 1));
        let b = b.step(0).step(6).step(4).step(2);
        assert_eq!(b.score(0), 1, "stepping back onto an eaten cell scores nothing");
    }

    #[test]
    fn killing_gives_no_points_and_the_survivor_moves_alone() {
        let b = board(&[(3, 3), (9, 9)], [(5, 2), (5, 3)]);
        let b = b.step(2);
        assert_eq!((b.ant(1), b.score(0), b.ant(0)), (None, 0, Some(cell(5, 3))));
        assert_eq!(b.to_move(), 0, "the dead ant's turn is skipped");
        assert_eq!(b.ply(), 2);
        let mut b = b;
        let mut turns = 1;
        while !b.is_over() {
            assert_eq!(b.to_move(), 0);
            b = b.step(0);
            turns += 1;
        }
        assert_eq!(turns, MOVES_PER_ANT, "the survivor makes all its 35 moves");
        // Ant 2 kills Ant 1 on its first move: Ant 2 moves on alone.
        let b = board(&[], [(5, 2), (5, 8)]).step(2).step(6).step(2).step(6);
        assert_eq!((b.ant(0), b.ant(1)), (Some(cell(5, 4)), Some(cell(5, 6))));
        let b = b.step(2).step(6);
        assert_eq!((b.ant(0), b.ant(1), b.to_move()), (None, Some(cell(5, 5)), 1));
        assert_eq!(b.moves_left(1), 32);
    }

    #[test]
    fn a_game_lasts_35_moves_each_and_a_tie_goes_to_ant_1() {
        let game = AntWars;
        let mut b = board(&[], [(0, 0), (5, 5)]);
        let mut moves = Vec::new();
        let mut plies = 0;
        while !game.is_over(&b) {
            game.legal_moves(&b, &mut moves);
            assert_eq!(moves.len(), 8);
            b = game.apply(&b, &(plies % 8));
            plies += 1;
        }
        assert_eq!(plies, 70);
        assert_eq!(b.step(3), b, "a finished game does not change");
        assert_eq!((b.score(0), b.score(1)), (0, 0));
        assert_eq!(game.result(&b), Some(GameResult::Winner(0)), "a tie goes to Ant 1");
        assert_eq!(game.score(&b, 1), Some(0));
        let mut b = board(&[(5, 6)], [(0, 0), (5, 5)]);
        b = b.step(0).step(2);
        while !b.is_over() {
            b = b.step(0);
        }
        assert_eq!(game.result(&b), Some(GameResult::Winner(1)), "the higher score wins");
    }

    #[test]
    fn an_ant_sees_its_five_by_five_window_only() {
        let b = board(&[(3, 0), (7, 4), (2, 2), (5, 5)], [(5, 2), (6, 3)]);
        let v = b.view(0);
        assert_eq!((v.row(), v.col()), (5, 2));
        assert_eq!(v.at(-2, -2), Seen::Food, "(3, 0)");
        assert_eq!(v.at(2, 2), Seen::Food, "(7, 4)");
        assert_eq!(v.at(1, 1), Seen::Enemy);
        assert_eq!(v.food.count_ones(), 2, "(2, 2) and (5, 5) are out of sight");
        let grid = v.grid();
        assert_eq!(grid[3][0], 1);
        assert_eq!(grid[6][3], 2);
        assert_eq!(grid[5][2], 0, "the ant's own cell");
        assert_eq!(grid[2][2], -1);
        assert_eq!(grid[5][5], -1);
        assert_eq!(grid.as_flattened().iter().filter(|&&g| g >= 0).count(), 25);
        // The window wraps: an ant in the corner sees the far rows and columns.
        let v = board(&[(10, 10), (9, 1)], [(0, 0), (5, 5)]).view(0);
        assert_eq!((v.at(-1, -1), v.at(-2, 1)), (Seen::Food, Seen::Food));
        assert_eq!(v.grid()[10][10], 1);
        assert_eq!(v.grid()[2][9], 0);
        assert_eq!(v.grid()[3][0], -1);
        let v = board(&[], [(0, 0), (5, 5)]).view(1);
        assert_eq!(v.enemy, None, "the opponent three rows away is unseen");
    }
}
