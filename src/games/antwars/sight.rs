//! What a tree of the `antwars` primset evaluates: an ant's view and memory
//! seen in one orientation (seeds/003, section 3, tables 1–2), and the Rust
//! side of the primset's terminals and functions (bound, with the humants', in
//! `domain.rs`).
//!
//! BrilliAnt presents the board to its trees rotated by a multiple of 90° so
//! that the direction being scored points "ahead" (north in the tree's
//! frame): the straight tree scores N, E, S, W, the diagonal tree NE, SE, SW,
//! NW. Rather than rotating the tables, a sight rotates the offsets a tree
//! asks about into board offsets ([`AntSight::board_offset`]), the same thing
//! seen from the other side.
//!
//! The paper's functions read the current view (IsEnemy, FoodHope) or the
//! memory (IsFood, NFood, NEmpty, NVisited); where the paper is silent on a
//! detail the choice is written on the function (and in docs/ANTWARS.md).

use super::area::Area;
use super::memory::AntMemory;
use super::{N_FOOD, View, WINDOW_RELATIVE, relative_cell, relative_index, to_relative};
use crate::games::Player;
use crate::games::domain::{Compute, FeatureDef, NativeCall, NativeDef, NativeFn};
use crate::lang::{Base, Value};

/// An ant's view and memory in one orientation.
#[derive(Clone, Debug)]
pub struct AntSight {
    pub memory: AntMemory,
    pub view: View,
    /// Quarter turns clockwise from the tree's frame to the board's: the
    /// tree's "ahead" is the board's N (straight) or NE (diagonal) turned
    /// this many times.
    pub turns: u8,
    /// Whether the diagonal tree is evaluated ("ahead" is NE in its frame).
    pub diagonal: bool,
}

impl AntSight {
    /// A sight of `view` with `memory`, unrotated, for the straight tree.
    pub fn new(memory: AntMemory, view: View) -> AntSight {
        AntSight { memory, view, turns: 0, diagonal: false }
    }

    /// The board offset of the tree-frame offset (dr, dc): turned clockwise
    /// `turns` times ((dr, dc) → (dc, −dr) per quarter turn).
    #[inline]
    pub fn board_offset(&self, dr: i32, dc: i32) -> (i32, i32) {
        turned(self.turns, dr, dc)
    }

    /// The board cell at tree-frame offset (dr, dc) from the ant.
    #[inline]
    pub fn cell(&self, dr: i32, dc: i32) -> usize {
        let (r, c) = self.board_offset(dr, dc);
        relative_cell(self.view.cell, relative_index(r, c))
    }

    /// The board cell the direction being scored steps onto.
    pub fn ahead_cell(&self) -> usize {
        let (dr, dc) = ahead(self.diagonal);
        self.cell(dr, dc)
    }

    /// The board cells of area `a`, in its order.
    pub fn cells(&self, a: Area) -> impl Iterator<Item = usize> + '_ {
        a.offsets().map(|(dr, dc)| self.cell(dr, dc))
    }
}

// Sums start from +0.0 with `fold`: `Iterator::sum` of no floats is −0.0,
// and values are compared by their bits.

/// The area argument of a native: its genotype index (see [`Area::decode`]).
fn area_index(args: &[Value]) -> i64 {
    args.first().map_or(0, |v| v.as_i64())
}

/// The terminals of the ant's state, the same whichever direction is scored
/// (an evolved ant computes them once a move).
pub const STATE_FEATURES: [&str; 3] = ["TimeLeft", "Points", "PointsLeft"];

/// TimeLeft: the ant's moves left, this one included.
fn time_left(s: &AntSight, _: Player) -> f64 {
    f64::from(s.view.moves_left)
}

/// Points: the food the ant has eaten.
fn points(s: &AntSight, _: Player) -> f64 {
    f64::from(s.view.score)
}

/// PointsLeft: 15 − Points (the paper's definition; the opponent's food is
/// not subtracted, as the ant cannot know it).
fn points_left(s: &AntSight, _: Player) -> f64 {
    f64::from(N_FOOD) - f64::from(s.view.score)
}

/// FoodHope: the most food the ant can eat in two moves, the first straight
/// ahead (the direction being scored) and the second in any direction. Both
/// cells lie within two steps, inside the view.
fn food_hope(s: &AntSight, _: Player) -> f64 {
    let cells = FOOD_HOPE_CELLS[usize::from(s.view.cell)][usize::from(s.turns & 3) * 2 + usize::from(s.diagonal)];
    hope(cells, s.view.food)
}

/// FoodHope of its two cell sets (the cell ahead, the cells after it)
/// with `food` in view.
#[inline]
fn hope((ahead, second): (u128, u128), food: u128) -> f64 {
    f64::from(u8::from(food & ahead != 0) + u8::from(food & second != 0))
}

/// FoodHope's name in the primset: the one terminal of tables 1–2 that
/// depends on the direction scored, which an evolved ant computes for the
/// eight directions at once ([`food_hopes`]).
pub const FOOD_HOPE: &str = "FoodHope";

/// FoodHope in the eight orientations, `turns * 2 + diagonal` (the
/// contest's order of directions).
pub fn food_hopes(s: &AntSight) -> [f64; 8] {
    let cells = &FOOD_HOPE_CELLS[usize::from(s.view.cell)];
    std::array::from_fn(|o| hope(cells[o], s.view.food))
}

/// FoodHope's cells from each cell in each orientation (`turns * 2 +
/// diagonal`) as sets: the cell ahead, and the seven cells one step from it
/// other than the ant's own.
static FOOD_HOPE_CELLS: [[(u128, u128); 8]; super::CELLS] = {
    let mut table = [[(0u128, 0u128); 8]; super::CELLS];
    let mut cell = 0;
    while cell < super::CELLS {
        let mut o = 0;
        while o < 8 {
            let turns = (o / 2) as u8;
            let (ar, ac) = ahead(o % 2 == 1);
            let (r, c) = turned(turns, ar, ac);
            table[cell][o].0 = 1u128 << super::cell_at(cell, r, c);
            let mut d = 0;
            while d < 8 {
                let (sr, sc) = super::STEPS[d];
                if ar + sr != 0 || ac + sc != 0 {
                    let (r, c) = turned(turns, ar + sr, ac + sc);
                    table[cell][o].1 |= 1u128 << super::cell_at(cell, r, c);
                }
                d += 1;
            }
            o += 1;
        }
        cell += 1;
    }
    table
};

/// The tree-frame step "ahead" of the straight or the diagonal tree.
const fn ahead(diagonal: bool) -> (i32, i32) {
    if diagonal { (-1, 1) } else { (-1, 0) }
}

/// Offset (dr, dc) turned clockwise `turns` times ((dr, dc) → (dc, −dr)
/// per quarter turn).
const fn turned(turns: u8, dr: i32, dc: i32) -> (i32, i32) {
    match turns & 3 {
        0 => (dr, dc),
        1 => (dc, -dr),
        2 => (-dr, -dc),
        _ => (-dc, dr),
    }
}

/// The area functions of table 2: each folds the cells of an area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AreaFn {
    /// IsFood(A): whether the food memory F holds food in some cell of A
    /// (inside the view that is the food there now).
    IsFood,
    /// IsEnemy(A): whether the opponent is in A; the ant knows where it is
    /// only while it is in view.
    IsEnemy,
    /// NFood(A): the scalar product of F and B over A (the paper's example).
    NFood,
    /// NEmpty(A): the empty cells of A weighted by belief, as NFood counts
    /// food: Σ (1 − F)·B, the opponent's cell (when in view) not counted as
    /// empty.
    NEmpty,
    /// NVisited(A): the cells of A the ant has stood on (V summed over A).
    NVisited,
}

impl AreaFn {
    /// The area functions by their names in the primset.
    pub const ALL: [(&'static str, AreaFn); 5] = [
        ("IsFood", AreaFn::IsFood),
        ("IsEnemy", AreaFn::IsEnemy),
        ("NFood", AreaFn::NFood),
        ("NEmpty", AreaFn::NEmpty),
        ("NVisited", AreaFn::NVisited),
    ];

    /// The function of `name`, if it is one of table 2's area functions.
    pub fn named(name: &str) -> Option<AreaFn> {
        AreaFn::ALL.iter().find(|(n, _)| *n == name).map(|&(_, f)| f)
    }

    /// The function over `cells`, in the area's order (sums are of floats,
    /// so the order is part of the value).
    #[inline]
    fn fold(self, s: &AntSight, mut cells: impl Iterator<Item = usize>) -> Value {
        let m = &s.memory;
        let enemy = s.view.enemy.map(usize::from);
        match self {
            AreaFn::IsFood => Value::B(cells.any(|c| m.food(c))),
            // Most of the time the opponent is out of view: no cell to visit.
            AreaFn::IsEnemy => Value::B(enemy.is_some_and(|e| cells.any(|c| c == e))),
            AreaFn::NFood => Value::F(cells.filter(|&c| m.food(c)).map(|c| m.belief(c)).fold(0.0, |a, b| a + b)),
            AreaFn::NEmpty => {
                Value::F(cells.filter(|&c| !m.food(c) && Some(c) != enemy).map(|c| m.belief(c)).fold(0.0, |a, b| a + b))
            }
            AreaFn::NVisited => Value::F(cells.filter(|&c| m.visited(c)).count() as f64),
        }
    }

    /// A sum's value over `cells` (NFood, NEmpty, NVisited).
    fn sum(self, s: &AntSight, cells: impl Iterator<Item = usize>) -> f64 {
        self.fold(s, cells).as_f64()
    }

    /// The function on area genotype `index` as `s` sees it.
    pub fn eval(self, s: &AntSight, index: i64) -> Value {
        self.fold(s, s.cells(Area::decode(index)))
    }
}

/// The most cells an area has: its dimensions sum to at most 6, so 3×3.
const MAX_AREA_CELLS: usize = 9;

/// The cells of a fixed area (a `Rect` constant, as evolved trees have
/// them) worked out once for each orientation.
#[derive(Clone, Copy, Debug)]
struct AreaCells {
    len: u8,
    /// Per quarter turn, the area's cells as [`relative_index`]es, in the
    /// area's order.
    cells: [[u8; MAX_AREA_CELLS]; 4],
}

impl AreaCells {
    fn new(index: i64) -> AreaCells {
        let area = Area::decode(index);
        let mut cells = [[0u8; MAX_AREA_CELLS]; 4];
        let mut len = 0;
        for (turns, row) in cells.iter_mut().enumerate() {
            len = 0;
            for (slot, (dr, dc)) in row.iter_mut().zip(area.offsets()) {
                let (r, c) = turned(turns as u8, dr, dc);
                *slot = relative_index(r, c);
                len += 1;
            }
        }
        AreaCells { len, cells }
    }

    /// The board cells of the area turned `turns` times, seen from `s`'s
    /// cell, in the area's order.
    #[inline]
    fn on<'s>(&'s self, s: &'s AntSight, turns: usize) -> impl Iterator<Item = usize> + 's {
        let cells = &self.cells[turns & 3][..usize::from(self.len)];
        cells.iter().map(|&i| relative_cell(s.view.cell, i))
    }
}

/// An ant's memory and view seen from its cell this move, as sets of
/// [`relative_index`]es ([`to_relative`]): an [`AreaTable`] tests an area's
/// cells against them with a few 128-bit operations instead of visiting
/// the cells one by one.
#[derive(Clone, Copy, Debug, Default)]
pub struct Frame {
    food: u128,
    visited: u128,
    /// The cells ever in view (belief above 0).
    seen: u128,
    /// The opponent's cell while it is in view.
    enemy: u128,
}

impl Frame {
    /// The frame of `s`'s view and memory (its orientation does not matter:
    /// the area table turns the areas).
    pub fn of(s: &AntSight) -> Frame {
        let (m, cell) = (&s.memory, s.view.cell);
        Frame {
            food: to_relative(m.food_set(), cell),
            visited: to_relative(m.visited_set(), cell),
            seen: to_relative(m.seen_set(), cell),
            enemy: s.view.enemy.map_or(0, |e| to_relative(1u128 << e, cell)),
        }
    }
}

/// A fixed area seen in the four quarter turns: its cells, and the slot
/// its function's value goes to.
#[derive(Clone, Debug)]
struct TurnedArea {
    /// Per quarter turn, the area's cells as a set of relative indices.
    masks: [u128; 4],
    cells: AreaCells,
    slot: usize,
}

/// The area functions a program reads (of fixed areas: `Rect` constants),
/// computed in the four quarter turns at once from the cells as sets
/// ([`Frame`]), a list per function so each is a tight loop.
///
/// Every value has the bits [`AreaFn::eval`] gives it. The tests, IsFood,
/// IsEnemy and NVisited are set operations. The sums are of floats in the
/// area's order, and the set operations compute them only where the order
/// cannot matter: where every term is 1 (inside the view) or +0 (cells never
/// seen), the sum is a count; two terms or fewer add up the same either way
/// (0 + a is a). Other sums (NEmpty of a remembered area, NFood of three
/// remembered pieces) visit the cells in order.
#[derive(Clone, Debug, Default)]
pub struct AreaTable {
    /// Per function, in the order of [`AreaFn::ALL`], its areas.
    calls: [Vec<TurnedArea>; 5],
}

impl AreaTable {
    /// Also computes `f` of area genotype `index`, into `slot`.
    pub fn want(&mut self, f: AreaFn, index: i64, slot: usize) {
        let cells = AreaCells::new(index);
        let masks = cells.cells.map(|turned| turned[..usize::from(cells.len)].iter().fold(0, |m, &i| m | 1u128 << i));
        self.calls[f as usize].push(TurnedArea { masks, cells, slot });
    }

    /// Writes each wanted function's value on `s` (seen as `frame`, the
    /// frame of its view and memory) in each of the four quarter turns into
    /// `table`, slot-major: the value for slot `k` turned `t` times goes to
    /// `table[4k + t]`.
    pub fn eval_turns(&self, s: &AntSight, frame: &Frame, table: &mut [u64]) {
        let [is_food, is_enemy, n_food, n_empty, n_visited] = &self.calls;
        fill(is_food, table, |a, t| u64::from(frame.food & a.masks[t] != 0));
        if frame.enemy == 0 {
            // The opponent out of view, as it mostly is.
            is_enemy.iter().for_each(|a| table[4 * a.slot..4 * a.slot + 4].fill(0));
        } else {
            fill(is_enemy, table, |a, t| u64::from(frame.enemy & a.masks[t] != 0));
        }
        fill(n_visited, table, |a, t| f64::from((frame.visited & a.masks[t]).count_ones()).to_bits());
        fill(n_food, table, |a, t| n_food_of(a, s, frame, t).to_bits());
        fill(n_empty, table, |a, t| n_empty_of(a, s, frame, t).to_bits());
    }
}

/// Writes `value` of each of `calls` in each quarter turn into its row of
/// `table`.
#[inline]
fn fill(calls: &[TurnedArea], table: &mut [u64], value: impl Fn(&TurnedArea, usize) -> u64) {
    for call in calls {
        let row = &mut table[4 * call.slot..4 * call.slot + 4];
        for (t, out) in row.iter_mut().enumerate() {
            *out = value(call, t);
        }
    }
}

/// NFood of `a` turned `t` times.
#[inline]
fn n_food_of(a: &TurnedArea, s: &AntSight, frame: &Frame, t: usize) -> f64 {
    let food = frame.food & a.masks[t];
    if food & !WINDOW_RELATIVE == 0 {
        return f64::from(food.count_ones());
    }
    let belief = |bit: u32| s.memory.belief(relative_cell(s.view.cell, bit as u8));
    match food.count_ones() {
        1 => belief(food.trailing_zeros()),
        2 => belief(food.trailing_zeros()) + belief(127 - food.leading_zeros()),
        _ => AreaFn::NFood.sum(s, a.cells.on(s, t)),
    }
}

/// NEmpty of `a` turned `t` times: the cells that add to it are the empty
/// ones seen (B is +0 elsewhere).
#[inline]
fn n_empty_of(a: &TurnedArea, s: &AntSight, frame: &Frame, t: usize) -> f64 {
    let adding = a.masks[t] & !frame.food & !frame.enemy & frame.seen;
    if adding & !WINDOW_RELATIVE == 0 {
        return f64::from(adding.count_ones());
    }
    let (low, high) = (adding as u64, (adding >> 64) as u64);
    let mut sum = 0.0;
    for &i in &a.cells.cells[t][..usize::from(a.cells.len)] {
        let half = if i < 64 { low } else { high };
        if (half >> (i & 63)) & 1 == 1 {
            sum += s.memory.belief(relative_cell(s.view.cell, i));
        }
    }
    sum
}

fn is_food(s: &AntSight, _: Player, args: &[Value]) -> Value {
    AreaFn::IsFood.eval(s, area_index(args))
}

fn is_enemy(s: &AntSight, _: Player, args: &[Value]) -> Value {
    AreaFn::IsEnemy.eval(s, area_index(args))
}

fn n_food(s: &AntSight, _: Player, args: &[Value]) -> Value {
    AreaFn::NFood.eval(s, area_index(args))
}

fn n_empty(s: &AntSight, _: Player, args: &[Value]) -> Value {
    AreaFn::NEmpty.eval(s, area_index(args))
}

fn n_visited(s: &AntSight, _: Player, args: &[Value]) -> Value {
    AreaFn::NVisited.eval(s, area_index(args))
}

/// The terminals the `antwars` primset may declare (table 1, less the ERCs).
pub fn features() -> Vec<FeatureDef<AntSight>> {
    let f = |name: &str, compute| FeatureDef { name: name.to_owned(), compute: Compute::F(compute) };
    vec![f("TimeLeft", time_left), f("Points", points), f("PointsLeft", points_left), f("FoodHope", food_hope)]
}

/// The native functions the `antwars` primset may declare (table 2, less
/// the logic and arithmetic the language has as builtins).
pub fn natives() -> Vec<NativeDef<AntSight>> {
    let native = |name: &str, ret, call: NativeFn<AntSight>| NativeDef {
        name: name.to_owned(),
        args: vec![Base::I],
        ret,
        call: NativeCall::Fn(call),
    };
    vec![
        native("IsFood", Base::B, is_food),
        native("IsEnemy", Base::B, is_enemy),
        native("NFood", Base::F, n_food),
        native("NEmpty", Base::F, n_empty),
        native("NVisited", Base::F, n_visited),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::antwars::{SIZE, WINDOW};

    fn cell(row: usize, col: usize) -> usize {
        row * SIZE + col
    }

    fn sight(at: usize, food: &[usize], enemy: Option<usize>) -> AntSight {
        let food = food.iter().fold(0u128, |f, &c| f | 1u128 << c) & WINDOW[at];
        let view = View { cell: at as u8, food, enemy: enemy.map(|e| e as u8), score: 4, moves_left: 20 };
        let mut memory = AntMemory::new();
        memory.observe(&view);
        AntSight::new(memory, view)
    }

    fn call(f: fn(&AntSight, Player, &[Value]) -> Value, s: &AntSight, a: i64) -> Value {
        f(s, 0, &[Value::I(a)])
    }

    #[test]
    fn turning_maps_ahead_to_each_direction_in_contest_order() {
        let mut s = sight(cell(5, 5), &[], None);
        let mut dirs = Vec::new();
        for turns in 0..4 {
            for diagonal in [false, true] {
                s.turns = turns;
                s.diagonal = diagonal;
                let (r, c) = ahead(s.diagonal);
                let step = s.board_offset(r, c);
                dirs.push(super::super::STEPS.iter().position(|&d| d == step));
            }
        }
        assert_eq!(dirs, (0..8).map(Some).collect::<Vec<_>>(), "N, NE, E, SE, S, SW, W, NW");
    }

    #[test]
    fn areas_count_food_enemy_and_visits_in_the_turned_frame() {
        // Food one cell east of the ant; the enemy two cells south.
        let at = cell(5, 5);
        let mut s = sight(at, &[cell(5, 6)], Some(cell(7, 5)));
        let ahead_one = Area::encode(1, 1, -1, 0);
        assert_eq!(call(is_food, &s, ahead_one), Value::B(false), "north of the ant is empty");
        s.turns = 1; // ahead is east
        assert_eq!(call(is_food, &s, ahead_one), Value::B(true));
        assert_eq!(call(n_food, &s, ahead_one), Value::F(1.0));
        assert_eq!(call(n_empty, &s, ahead_one), Value::F(0.0));
        s.turns = 2; // ahead is south
        let ahead_two = Area::encode(1, 1, -2, 0);
        assert_eq!(call(is_enemy, &s, ahead_two), Value::B(true));
        assert_eq!(call(n_empty, &s, ahead_two), Value::F(0.0), "the enemy's cell is not empty");
        let around = Area::encode(3, 3, 0, 0);
        assert_eq!(call(n_visited, &s, around), Value::F(1.0), "only the ant's own cell");
        assert_eq!(call(n_empty, &s, around), Value::F(8.0), "9 cells, one with food");
    }

    #[test]
    fn food_hope_counts_two_moves_ahead() {
        // Food north of the ant and two cells north-east.
        let s0 = sight(cell(5, 5), &[cell(4, 5), cell(3, 6)], None);
        assert_eq!(food_hope(&s0, 0), 2.0, "north then north-east");
        let mut s = s0.clone();
        s.turns = 2;
        assert_eq!(food_hope(&s, 0), 0.0, "south: nothing within two moves that way");
        s.turns = 0;
        s.diagonal = true;
        assert_eq!(food_hope(&s, 0), 1.0, "north-east then any: (3, 6) or (4, 5), not both");
        assert_eq!(points_left(&s0, 0), 11.0);
        assert_eq!(time_left(&s0, 0), 20.0);
    }

    #[test]
    fn the_shipped_primset_binds_to_sights_and_its_trees_evaluate() {
        use crate::eval::interp::Interp;
        use crate::games::domain::PositionContext;
        let ps = crate::lang::library::load_primset("antwars").expect("antwars primset");
        assert!(crate::games::antwars::domain::bind(&ps).is_ok());
        // A 1×1 area one cell ahead.
        let ahead = Area::encode(1, 1, -1, 0);
        let mut loader = crate::lang::Loader::new();
        loader.load_text(
            "t.sg",
            &format!(
                "(import antwars) (individual t (primset antwars)
                   (tree straight (If (IsFood {ahead}) (Add FoodHope 1.0) (Sub (NVisited {ahead}) PointsLeft)))
                   (tree diagonal 0.5))"
            ),
        );
        assert!(loader.diags.is_empty(), "{}", loader.sources.render_plain(&loader.diags));
        let ind = &loader.module.individuals[0];
        let ps = loader.module.primset(ind.primset);
        let binding = crate::games::antwars::domain::bind(ps).expect("binds");
        let tree = &ind.trees[0].tree;
        let mut s = sight(cell(5, 5), &[cell(4, 5), cell(3, 6)], None);
        let mut value = |turns| {
            s.turns = turns;
            let mut ctx = PositionContext::new(&binding, &s, 0, &tree.features_used(ps));
            Interp::new(ps, &mut ctx).eval_tree(tree)
        };
        assert_eq!(value(0), Value::F(3.0), "food ahead (north): FoodHope 2 + 1");
        assert_eq!(value(1), Value::F(-11.0), "east: not visited, 11 points left");
    }

    /// The sights of both ants along random games (random moves), each
    /// turned every way.
    fn sights_along_games(games: u64) -> Vec<AntSight> {
        use crate::games::antwars::{AntWars, STEPS};
        use rand::RngExt;
        let mut out = Vec::new();
        for seed in 0..games {
            let mut rng = crate::rng::stream(seed, &[23, 1]);
            let mut board = AntWars::random_board(&mut rng);
            let mut memories = [AntMemory::new(), AntMemory::new()];
            while !board.is_over() {
                let role = board.to_move();
                let view = board.view(role);
                memories[usize::from(role)].observe(&view);
                for o in 0..8u8 {
                    let mut s = AntSight::new(memories[usize::from(role)].clone(), view);
                    (s.turns, s.diagonal) = (o / 2, o % 2 == 1);
                    out.push(s);
                }
                board = board.step(rng.random_range(0..STEPS.len()) as u8);
            }
        }
        out
    }

    /// Tables of random functions of random areas against the functions'
    /// definitions, bit for bit, in every quarter turn.
    #[test]
    fn area_tables_give_the_bits_of_the_area_functions() {
        use rand::RngExt;
        // One sight a move, unturned: the table turns the areas.
        let sights: Vec<AntSight> = sights_along_games(4).into_iter().step_by(8).collect();
        let mut rng = crate::rng::stream(5, &[23, 2]);
        for _ in 0..100 {
            let mut table = AreaTable::default();
            let mut calls = Vec::new();
            for slot in 0..12 {
                // Half of them near the ant, where most are inside the view.
                let index = match rng.random_bool(0.5) {
                    true => rng.random_range(0..super::super::area::N_AREAS),
                    false => Area::encode(
                        rng.random_range(1..=4),
                        rng.random_range(1..=4),
                        rng.random_range(-2..=2),
                        rng.random_range(-2..=2),
                    ),
                };
                let f = AreaFn::ALL[rng.random_range(0..AreaFn::ALL.len())].1;
                table.want(f, index, slot);
                calls.push((f, index));
            }
            let mut values = vec![0u64; 4 * calls.len()];
            for s in &sights {
                table.eval_turns(s, &Frame::of(s), &mut values);
                let mut turned = s.clone();
                for t in 0..4 {
                    turned.turns = t as u8;
                    for (slot, &(f, index)) in calls.iter().enumerate() {
                        let expected = f.eval(&turned, index).to_bits();
                        assert_eq!(values[4 * slot + t], expected, "{f:?} of area {index} turned {t} times");
                    }
                }
            }
        }
    }

    #[test]
    fn every_area_has_at_most_nine_cells() {
        for index in 0..super::super::area::N_AREAS {
            assert!(Area::decode(index).offsets().count() <= MAX_AREA_CELLS, "area {index}");
        }
    }

    #[test]
    fn food_hope_from_its_tables_is_the_definition() {
        use crate::games::antwars::{STEPS, cell_at};
        for s in sights_along_games(3) {
            let (ar, ac) = ahead(s.diagonal);
            let food = |dr, dc| {
                let (r, c) = s.board_offset(dr, dc);
                (s.view.food >> cell_at(usize::from(s.view.cell), r, c)) & 1 == 1
            };
            let second = STEPS.iter().any(|&(r, c)| (ar + r, ac + c) != (0, 0) && food(ar + r, ac + c));
            let expected = f64::from(u8::from(food(ar, ac)) + u8::from(second));
            assert_eq!(food_hope(&s, 0), expected);
            assert_eq!(food_hopes(&s)[usize::from(s.turns) * 2 + usize::from(s.diagonal)], expected);
        }
    }
}
