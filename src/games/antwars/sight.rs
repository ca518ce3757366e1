//! What a tree of the `antwars` primset evaluates: an ant's view and memory
//! seen in one orientation (seeds/003, section 3, tables 1–2), and the Rust
//! side of the primset's terminals and functions.
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
use super::{AntWars, N_FOOD, View, cell_at};
use crate::diagnostic::Diagnostic;
use crate::games::Player;
use crate::games::domain::{Binding, Compute, FeatureDef, NativeDef};
use crate::lang::{Base, PrimSet, Value};

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
        match self.turns & 3 {
            0 => (dr, dc),
            1 => (dc, -dr),
            2 => (-dr, -dc),
            _ => (-dc, dr),
        }
    }

    /// The board cell at tree-frame offset (dr, dc) from the ant.
    #[inline]
    fn cell(&self, dr: i32, dc: i32) -> usize {
        let (r, c) = self.board_offset(dr, dc);
        cell_at(usize::from(self.view.cell), r, c)
    }

    /// The board cells of area `a`.
    fn cells(&self, a: Area) -> impl Iterator<Item = usize> + '_ {
        a.offsets().map(|(dr, dc)| self.cell(dr, dc))
    }

    /// The tree-frame step "ahead".
    fn ahead(&self) -> (i32, i32) {
        if self.diagonal { (-1, 1) } else { (-1, 0) }
    }

    /// Food in view at `cell` (inside the view F is what is there now).
    fn food_in_view(&self, cell: usize) -> bool {
        (self.view.food >> cell) & 1 == 1
    }
}

// Sums start from +0.0 with `fold`: `Iterator::sum` of no floats is −0.0,
// and values are compared by their bits.

/// The area argument of a native (its genotype index; see [`Area::decode`]).
fn area(args: &[Value]) -> Area {
    Area::decode(args.first().map_or(0, |v| v.as_i64()))
}

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
    let (ar, ac) = s.ahead();
    let first = u8::from(s.food_in_view(s.cell(ar, ac)));
    let second = super::STEPS
        .iter()
        .filter(|&&(r, c)| (ar + r, ac + c) != (0, 0))
        .map(|&(r, c)| u8::from(s.food_in_view(s.cell(ar + r, ac + c))))
        .max()
        .unwrap_or(0);
    f64::from(first + second)
}

/// IsFood(A): whether the food memory F holds food in some cell of A (inside
/// the view that is the food there now).
fn is_food(s: &AntSight, _: Player, args: &[Value]) -> Value {
    Value::B(s.cells(area(args)).any(|c| s.memory.food(c)))
}

/// IsEnemy(A): whether the opponent is in A; the ant knows where it is only
/// while it is in view.
fn is_enemy(s: &AntSight, _: Player, args: &[Value]) -> Value {
    let enemy = s.view.enemy.map(usize::from);
    Value::B(enemy.is_some_and(|e| s.cells(area(args)).any(|c| c == e)))
}

/// NFood(A): the scalar product of F and B over A (the paper's example).
fn n_food(s: &AntSight, _: Player, args: &[Value]) -> Value {
    Value::F(s.cells(area(args)).filter(|&c| s.memory.food(c)).map(|c| s.memory.belief(c)).fold(0.0, |a, b| a + b))
}

/// NEmpty(A): the empty cells of A weighted by belief, as NFood counts food:
/// Σ (1 − F)·B, the opponent's cell (when in view) not counted as empty.
fn n_empty(s: &AntSight, _: Player, args: &[Value]) -> Value {
    let enemy = s.view.enemy.map(usize::from);
    Value::F(
        s.cells(area(args))
            .filter(|&c| !s.memory.food(c) && Some(c) != enemy)
            .map(|c| s.memory.belief(c))
            .fold(0.0, |a, b| a + b),
    )
}

/// NVisited(A): the cells of A the ant has stood on (V summed over A).
fn n_visited(s: &AntSight, _: Player, args: &[Value]) -> Value {
    Value::F(s.cells(area(args)).filter(|&c| s.memory.visited(c)).count() as f64)
}

/// The terminals the `antwars` primset may declare (table 1, less the ERCs).
pub fn features() -> Vec<FeatureDef<AntSight>> {
    let f = |name: &str, compute| FeatureDef { name: name.to_owned(), compute: Compute::F(compute) };
    vec![f("TimeLeft", time_left), f("Points", points), f("PointsLeft", points_left), f("FoodHope", food_hope)]
}

/// The native functions the `antwars` primset may declare (table 2, less
/// the logic and arithmetic the language has as builtins).
pub fn natives() -> Vec<NativeDef<AntSight>> {
    let native = |name: &str, ret, call| NativeDef { name: name.to_owned(), args: vec![Base::I], ret, call };
    vec![
        native("IsFood", Base::B, is_food),
        native("IsEnemy", Base::B, is_enemy),
        native("NFood", Base::F, n_food),
        native("NEmpty", Base::F, n_empty),
        native("NVisited", Base::F, n_visited),
    ]
}

/// Binds a primset of domain `antwars` to ant sights: trees of ants read
/// their view and memory, never the board.
pub fn bind(ps: &PrimSet) -> Result<Binding<AntSight>, Vec<Diagnostic>> {
    // The humants' primset (antwars-humant) adds its own (humant.rs).
    let features = features().into_iter().chain(super::humant::features()).collect();
    let natives = natives().into_iter().chain(super::humant::natives()).collect();
    Binding::from_defs(ps, "antwars", "antwars", features, natives)
}

impl AntWars {
    /// [`bind`], for callers that hold the game.
    pub fn bind_sight(&self, ps: &PrimSet) -> Result<Binding<AntSight>, Vec<Diagnostic>> {
        bind(ps)
    }
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
                let (r, c) = s.ahead();
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
        assert!(bind(&ps).is_ok());
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
        let binding = bind(ps).expect("binds");
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
}
