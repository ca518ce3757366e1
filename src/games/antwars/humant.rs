//! The terminals and natives of the `antwars-humant` primset
//! (programs/primsets/antwars-humant.sg): what the hand-written opponents of
//! seeds/003 section 4 (the *humants*, table 3) need beyond tables 1–2.
//! HyperHumant "memorizes the states of board cells observed in the past,
//! plans 5 moves ahead, uses a probabilistic memory model, and implements
//! several end-game rules"; the memory is the ant's F, B and V tables
//! ([`super::memory`]), and this module adds the planning, the probabilistic
//! model and the facts the end-game rules read. The rules themselves are
//! written in the humants' trees (programs/champions/antwars-humants.sg).
//!
//! Every terminal is computed for one direction, the one the tree scores
//! (the cell "ahead" of the [`AntSight`]), from the ant's view and memory
//! only: nothing here reads the board.
//!
//! The probabilistic memory model: food never appears during a game, so a
//! cell once seen empty stays empty, and food remembered outside the view is
//! gone only if the opponent ate it. The paper's belief B fades by 10% per
//! move (`DECAY`), which makes remembered food worthless after a dozen moves;
//! an opponent eats about a piece every five moves among a dozen, so a piece
//! survives a move with a probability nearer [`SURVIVAL`]. The age of a
//! memory is read back from B (B = DECAY^age). Food in view is certain, but
//! when the opponent is in view and can reach it before the ant, it is worth
//! [`RACE_LOST`] of a piece.
//!
//! What the natives compute is written once, in `planning.rs`, over the
//! [`Senses`] this module gives them of an [`AntSight`]; exported ants carry
//! the same code (`export.rs`).

use super::CELLS;
use super::planning::{self, Senses};
use super::sight::AntSight;
use crate::games::Player;
use crate::games::domain::{Compute, FeatureDef, NativeCall, NativeDef, NativeFn};
use crate::lang::{Base, Value};

pub use super::planning::{HORIZON, PLAN_DISCOUNT, PULL, RACE_LOST, SURVIVAL};

/// The king distance between every two cells of the torus.
static DISTANCE: [[u8; CELLS]; CELLS] = {
    let mut table = [[0u8; CELLS]; CELLS];
    let mut a = 0;
    while a < CELLS {
        let mut b = 0;
        while b < CELLS {
            table[a][b] = planning::torus_distance(a, b) as u8;
            b += 1;
        }
        a += 1;
    }
    table
};

/// The number of king moves from cell `a` to cell `b` on the torus.
#[inline]
pub fn distance(a: usize, b: usize) -> u32 {
    u32::from(DISTANCE[a][b])
}

/// The sight's view and memory as the planner reads them: the memory's bit
/// sets walked where the exported players scan the 121 cells (the same
/// cells in the same order), distances from a table.
impl Senses for AntSight {
    fn ahead(&self) -> usize {
        self.ahead_cell()
    }

    #[inline]
    fn belief(&self, cell: usize) -> f64 {
        self.memory.belief(cell)
    }

    fn enemy(&self) -> i32 {
        self.view.enemy.map_or(-1, i32::from)
    }

    fn moves_left(&self) -> u32 {
        u32::from(self.view.moves_left)
    }

    fn start(&self) -> i32 {
        self.memory.start().map_or(-1, |c| c as i32)
    }

    #[inline]
    fn distance(&self, a: usize, b: usize) -> u32 {
        distance(a, b)
    }

    fn food_cells(&self) -> impl Iterator<Item = usize> + '_ {
        super::cells_of(self.memory.food_set())
    }

    /// Outside the set of cells ever in view, B is exactly 0.
    fn unseen_cells(&self) -> impl Iterator<Item = usize> + '_ {
        super::cells_of(!self.memory.seen_set() & super::all_cells()).filter(|&c| self.memory.belief(c) == 0.0)
    }

    fn window_cells(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        super::WINDOW_CELLS[cell].iter().map(|&c| usize::from(c))
    }
}

/// Argument `i` of a native as a float, `default` when missing.
fn arg(args: &[Value], i: usize, default: f64) -> f64 {
    args.get(i).map_or(default, |v| v.as_f64())
}

/// PlanFood ([`planning::plan_food`]).
fn plan_food(s: &AntSight, _: Player) -> f64 {
    planning::plan_food(s)
}

/// PlanHope(keep, race) ([`planning::plan_hope`] at the 0.9 discount).
fn plan_hope(s: &AntSight, _: Player, args: &[Value]) -> Value {
    Value::F(planning::plan_hope(s, arg(args, 0, SURVIVAL), arg(args, 1, RACE_LOST), PLAN_DISCOUNT))
}

/// PlanHopeDiscount(keep, race, discount) ([`planning::plan_hope`]).
fn plan_hope_discount(s: &AntSight, _: Player, args: &[Value]) -> Value {
    Value::F(planning::plan_hope(s, arg(args, 0, SURVIVAL), arg(args, 1, RACE_LOST), arg(args, 2, PLAN_DISCOUNT)))
}

/// Danger: the opponent, in view, could step onto the cell ahead on its next
/// move (and kill the ant there).
fn danger(s: &AntSight, _: Player) -> bool {
    planning::enemy_distance(s) == 1
}

/// Kill: the cell ahead holds the opponent; stepping there kills it.
fn kill(s: &AntSight, _: Player) -> bool {
    planning::enemy_distance(s) == 0
}

/// EnemyDist ([`planning::enemy_distance`]).
fn enemy_dist(s: &AntSight, _: Player) -> f64 {
    f64::from(planning::enemy_distance(s))
}

/// FoodPull(keep, fall) ([`planning::food_pull`]).
fn food_pull(s: &AntSight, _: Player, args: &[Value]) -> Value {
    Value::F(planning::food_pull(s, arg(args, 0, SURVIVAL), arg(args, 1, PULL)))
}

/// UnseenPull(fall) ([`planning::unseen_pull`]).
fn unseen_pull(s: &AntSight, _: Player, args: &[Value]) -> Value {
    Value::F(planning::unseen_pull(s, arg(args, 0, PULL)))
}

/// UnseenPullRival(fall, factor, spread) ([`planning::unseen_pull_rival`]).
fn unseen_pull_rival(s: &AntSight, _: Player, args: &[Value]) -> Value {
    Value::F(planning::unseen_pull_rival(s, arg(args, 0, PULL), arg(args, 1, 1.0), arg(args, 2, 0.0)))
}

/// NewCells ([`planning::new_cells`]).
fn new_cells(s: &AntSight, _: Player) -> f64 {
    planning::new_cells(s)
}

/// FoodKnown: the food the ant expects to be left where it remembers food,
/// Σ survival over F, which is FoodPull(0.97, 1).
fn food_known(s: &AntSight, _: Player) -> f64 {
    planning::food_pull(s, SURVIVAL, 1.0)
}

/// NUnseen(A): the cells of area A the ant has never seen.
fn n_unseen(s: &AntSight, _: Player, args: &[Value]) -> Value {
    let a = super::area::Area::decode(args.first().map_or(0, |v| v.as_i64()));
    Value::F(s.cells(a).filter(|&c| s.memory.belief(c) == 0.0).count() as f64)
}

/// The terminals of the humants' primset beyond tables 1–2.
pub fn features() -> Vec<FeatureDef<AntSight>> {
    let f = |name: &str, compute| FeatureDef { name: name.to_owned(), compute: Compute::F(compute) };
    let b = |name: &str, compute| FeatureDef { name: name.to_owned(), compute: Compute::B(compute) };
    vec![
        f("PlanFood", plan_food),
        b("Danger", danger),
        b("Kill", kill),
        f("EnemyDist", enemy_dist),
        f("NewCells", new_cells),
        f("FoodKnown", food_known),
    ]
}

/// The native functions of the humants' primset beyond table 2.
pub fn natives() -> Vec<NativeDef<AntSight>> {
    let native = |name: &str, args: Vec<Base>, call: NativeFn<AntSight>| NativeDef {
        name: name.to_owned(),
        args,
        ret: Base::F,
        call: NativeCall::Fn(call),
    };
    vec![
        native("PlanHope", vec![Base::F, Base::F], plan_hope),
        native("FoodPull", vec![Base::F, Base::F], food_pull),
        native("UnseenPull", vec![Base::F], unseen_pull),
        native("NUnseen", vec![Base::I], n_unseen),
        native("PlanHopeDiscount", vec![Base::F, Base::F, Base::F], plan_hope_discount),
        native("UnseenPullRival", vec![Base::F, Base::F, Base::F], unseen_pull_rival),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::antwars::SIZE;
    use crate::games::antwars::memory::AntMemory;
    use crate::games::antwars::planning::survival;
    use crate::games::antwars::{View, WINDOW, cell_at};

    fn cell(row: usize, col: usize) -> usize {
        row * SIZE + col
    }

    fn view(at: usize, food: &[usize], enemy: Option<usize>, moves_left: u8) -> View {
        let food = food.iter().fold(0u128, |f, &c| f | 1u128 << c) & WINDOW[at];
        View { cell: at as u8, food, enemy: enemy.map(|e| e as u8), score: 3, moves_left }
    }

    /// A sight of one view, the memory having seen only it.
    fn sight(at: usize, food: &[usize], enemy: Option<usize>, moves_left: u8) -> AntSight {
        let v = view(at, food, enemy, moves_left);
        let mut memory = AntMemory::new();
        memory.observe(&v);
        AntSight::new(memory, v)
    }

    /// `s` turned to score direction `dir` (0–7, the contest's order).
    fn towards(s: &AntSight, dir: u8) -> AntSight {
        AntSight { turns: dir / 2, diagonal: dir % 2 == 1, ..s.clone() }
    }

    fn native(f: fn(&AntSight, Player, &[Value]) -> Value, s: &AntSight, args: &[Value]) -> f64 {
        f(s, 0, args).as_f64()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn distances_are_king_moves_around_the_torus() {
        assert_eq!(distance(cell(0, 0), cell(10, 10)), 1);
        assert_eq!(distance(START_1, START_2), 5, "the ants start five moves apart");
        assert_eq!(distance(cell(5, 5), cell(5, 5)), 0);
        assert_eq!(distance(cell(2, 3), cell(7, 3)), 5);
        assert!((0..CELLS).all(|a| (0..CELLS).all(|b| distance(a, b) == distance(b, a) && distance(a, b) <= 5)));
    }

    const START_1: usize = 5 * SIZE + 2;
    const START_2: usize = 5 * SIZE + 8;

    #[test]
    fn plan_food_finds_the_best_path_within_the_moves_left() {
        // Food one and two cells north of the ant (both in view).
        let s = sight(cell(5, 5), &[cell(4, 5), cell(3, 5)], None, 20);
        assert!(close(plan_food(&towards(&s, 0), 0), 1.0 + 0.9), "north: moves 1 and 2");
        assert!(close(plan_food(&towards(&s, 4), 0), 0.81 + 0.729), "south, then back: moves 3 and 4");
        assert!(close(plan_food(&towards(&s, 1), 0), 0.9 + 0.81), "north-east: one on move 2, the other on 3");
        // With two moves left, going south eats nothing; with one, north
        // eats only the first piece.
        let two = sight(cell(5, 5), &[cell(4, 5), cell(3, 5)], None, 2);
        assert!(close(plan_food(&towards(&two, 0), 0), 1.0 + 0.9));
        assert_eq!(plan_food(&towards(&two, 4), 0), 0.0);
        let last = sight(cell(5, 5), &[cell(4, 5), cell(3, 5)], None, 1);
        assert!(close(plan_food(&towards(&last, 0), 0), 1.0));
        let none = sight(cell(5, 5), &[], None, 20);
        assert_eq!(plan_food(&none, 0), 0.0);
    }

    #[test]
    fn plans_prefer_the_order_that_eats_the_most() {
        // A row of food going east and one piece west: east eats three.
        let s = sight(cell(5, 5), &[cell(5, 6), cell(5, 7), cell(4, 7), cell(5, 3)], None, 35);
        let east = plan_food(&towards(&s, 2), 0);
        assert!(close(east, 1.0 + 0.9 + 0.81), "{east}");
        assert!(east > plan_food(&towards(&s, 6), 0));
    }

    #[test]
    fn danger_and_kill_read_the_opponent_in_view() {
        // The opponent two cells north: stepping north, north-east or
        // north-west puts the ant next to it.
        let s = sight(cell(5, 5), &[], Some(cell(3, 5)), 20);
        let dangerous: Vec<u8> = (0..8).filter(|&d| danger(&towards(&s, d), 0)).collect();
        assert_eq!(dangerous, [0, 1, 7]);
        assert!((0..8).all(|d| !kill(&towards(&s, d), 0)));
        assert_eq!(enemy_dist(&towards(&s, 0), 0), 1.0);
        assert_eq!(enemy_dist(&towards(&s, 4), 0), 3.0);
        // Next to it: north kills; north-east and north-west stay next to it.
        let s = sight(cell(5, 5), &[], Some(cell(4, 5)), 20);
        assert!(kill(&towards(&s, 0), 0) && !danger(&towards(&s, 0), 0));
        assert!(danger(&towards(&s, 1), 0) && danger(&towards(&s, 2), 0) && !danger(&towards(&s, 3), 0));
        let alone = sight(cell(5, 5), &[], None, 20);
        assert!(!danger(&alone, 0) && !kill(&alone, 0));
        assert_eq!(enemy_dist(&alone, 0), 6.0);
    }

    #[test]
    fn plan_hope_discounts_food_the_opponent_reaches_first() {
        // Food at (3, 4); the ant reaches it on its second move going north,
        // the opponent at (3, 3) on its first.
        let args = [Value::F(0.97), Value::F(0.5)];
        let s = sight(cell(5, 5), &[cell(3, 4)], Some(cell(3, 3)), 20);
        assert!(close(native(plan_hope, &towards(&s, 0), &args), 0.5 * 0.9));
        assert!(close(plan_food(&towards(&s, 0), 0), 0.9), "PlanFood ignores the opponent");
        // Without the opponent the piece is worth all of it.
        let s = sight(cell(5, 5), &[cell(3, 4)], None, 20);
        assert!(close(native(plan_hope, &towards(&s, 0), &args), 0.9));
    }

    #[test]
    fn remembered_food_survives_by_the_probabilistic_model_not_by_belief() {
        // Food at (5, 3), seen from the start; then the ant walks north,
        // out of view of it after its third step.
        let food = [cell(5, 3)];
        let mut m = AntMemory::new();
        m.observe(&view(cell(5, 2), &food, None, 35));
        let mut at = cell(5, 2);
        for moves_left in [34, 33, 32, 31, 30] {
            at = cell_at(at, -1, 0);
            m.observe(&view(at, &food, None, moves_left));
        }
        // Now at (0, 2); the food is five rows south, unseen for 3 moves.
        let s = AntSight::new(m, view(at, &food, None, 30));
        assert!(close(s.memory.belief(cell(5, 3)), 0.9f64.powi(3)));
        assert!((survival(&s, cell(5, 3), 0.97) - 0.97f64.powi(3)).abs() < 1e-9);
        assert!((food_known(&s, 0) - 0.97f64.powi(3)).abs() < 1e-9);
        // South reaches (5, 3) on move 5: PlanFood weighs it by B, PlanHope
        // by its survival.
        let south = towards(&s, 4);
        assert!((plan_food(&south, 0) - 0.729 * 0.9f64.powi(4)).abs() < 1e-9);
        let hope = native(plan_hope, &south, &[Value::F(0.97), Value::F(0.25)]);
        assert!((hope - 0.97f64.powi(3) * 0.9f64.powi(4)).abs() < 1e-9, "{hope}");
        let pull = native(food_pull, &south, &[Value::F(0.97), Value::F(0.5)]);
        assert!((pull - 0.97f64.powi(3) * 0.5f64.powi(4)).abs() < 1e-9, "4 moves from (1, 2): {pull}");
    }

    #[test]
    fn unexplored_cells_are_counted_and_pull() {
        let s = sight(cell(5, 5), &[], None, 35);
        assert_eq!(new_cells(&towards(&s, 0), 0), 5.0, "a straight step shows a new row of five");
        assert_eq!(new_cells(&towards(&s, 1), 0), 9.0, "a diagonal step shows nine");
        // A 3x3 area centred three cells ahead: the row two ahead was seen.
        let area = super::super::area::Area::encode(3, 3, -3, 0);
        assert_eq!(native(n_unseen, &s, &[Value::I(area)]), 6.0);
        // 96 cells unseen, each pulling by 1 (fall-off 1).
        assert_eq!(native(unseen_pull, &s, &[Value::F(1.0)]), 96.0);
        let pull = |d| native(unseen_pull, &towards(&s, d), &[Value::F(0.75)]);
        assert!(pull(1) > pull(0), "diagonals reach more of the unknown");
        assert!((0..8).all(|d| close(pull(d % 2), pull(d))), "every straight (diagonal) direction alike");
    }

    #[test]
    fn the_discounted_plan_is_plan_hope_at_the_default_discount() {
        let s = sight(cell(5, 5), &[cell(4, 5), cell(3, 5), cell(5, 7), cell(2, 2)], Some(cell(3, 3)), 20);
        for d in 0..8 {
            let s = towards(&s, d);
            let hope = native(plan_hope, &s, &[Value::F(0.97), Value::F(0.25)]);
            let same = native(plan_hope_discount, &s, &[Value::F(0.97), Value::F(0.25), Value::F(PLAN_DISCOUNT)]);
            assert_eq!(hope.to_bits(), same.to_bits(), "direction {d}");
        }
        // Food one and two cells north: moves 1 and 2, the second worth 0.5.
        let s = sight(cell(5, 5), &[cell(4, 5), cell(3, 5)], None, 20);
        let north = native(plan_hope_discount, &towards(&s, 0), &[Value::F(0.97), Value::F(0.25), Value::F(0.5)]);
        assert!(close(north, 1.5), "{north}");
    }

    #[test]
    fn the_rival_pull_discounts_the_unseen_cells_near_the_opponents_start() {
        // Ant 1 on its start: the opponent started at (5, 8), whose 5x5
        // view (columns 6-10) this ant has never seen.
        let s = sight(START_1, &[], None, 35);
        let pull = |s: &AntSight, factor: f64, spread: f64| {
            native(unseen_pull_rival, s, &[Value::F(1.0), Value::F(factor), Value::F(spread)])
        };
        let unseen = native(unseen_pull, &s, &[Value::F(1.0)]);
        assert_eq!(pull(&s, 1.0, 0.0).to_bits(), unseen.to_bits(), "factor 1 is UnseenPull");
        // 121 cells, 25 seen; the opponent's view: columns 6..=10 of rows 3..=7
        // minus column 0's overlap (none: the ant sees columns 0-4).
        assert_eq!(unseen, 96.0);
        assert_eq!(pull(&s, 0.0, 0.0), 96.0 - 25.0, "the opponent's first view counts nothing");
        assert_eq!(pull(&s, 0.5, 0.0), 96.0 - 12.5);
        // Ant 2's start mirrors it, and a spread widens the region with the moves made.
        let two = sight(START_2, &[], None, 35);
        assert_eq!(pull(&two, 0.0, 0.0), 71.0);
        let later = sight(START_1, &[], None, 25);
        assert!(pull(&later, 0.0, 0.1) < pull(&later, 0.0, 0.0), "radius 3 after 10 moves");
        // An ant that did not start on a start cell knows nothing of the opponent.
        let elsewhere = sight(cell(0, 0), &[], None, 35);
        assert_eq!(pull(&elsewhere, 0.0, 0.0), native(unseen_pull, &elsewhere, &[Value::F(1.0)]));
    }

    #[test]
    fn natives_take_any_arguments_without_panicking() {
        // Evolution hands natives whatever its subtrees compute: missing
        // arguments fall back to the defaults, odd numbers give numbers (or
        // NaN), and area indices out of range are clamped.
        let s = sight(cell(5, 5), &[cell(4, 5), cell(2, 5), cell(5, 7)], Some(cell(3, 3)), 9);
        let odd = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -1.0, 0.0, 1.0, 2.0, 1e300];
        for d in 0..8 {
            let s = towards(&s, d);
            for &x in &odd {
                for &y in &odd {
                    let args = [Value::F(x), Value::F(y)];
                    let _ = native(plan_hope, &s, &args);
                    let _ = native(food_pull, &s, &args);
                    let _ = native(unseen_pull, &s, &args[..1]);
                    for &z in &odd {
                        let three = [Value::F(x), Value::F(y), Value::F(z)];
                        let _ = native(plan_hope_discount, &s, &three);
                        let _ = native(unseen_pull_rival, &s, &three);
                    }
                }
            }
            for area in [i64::MIN, -1, 0, 4355, 4356, i64::MAX] {
                let n = native(n_unseen, &s, &[Value::I(area)]);
                assert!((0.0..=36.0).contains(&n), "{area}: {n}");
            }
            assert!(close(
                native(plan_hope, &s, &[]),
                native(plan_hope, &s, &[Value::F(SURVIVAL), Value::F(RACE_LOST)])
            ));
            assert!(close(native(food_pull, &s, &[]), native(food_pull, &s, &[Value::F(SURVIVAL), Value::F(PULL)])));
            assert!(close(native(unseen_pull, &s, &[]), native(unseen_pull, &s, &[Value::F(PULL)])));
            assert_eq!(native(n_unseen, &s, &[]), native(n_unseen, &s, &[Value::I(0)]));
        }
        // Food in view is certain whatever the keep.
        assert_eq!(survival(&s, cell(4, 5), f64::NAN), 1.0);
        // The last move: a plan of one move eats only the food ahead.
        let last = sight(cell(5, 5), &[cell(4, 5), cell(3, 5)], None, 1);
        assert!(close(plan_food(&towards(&last, 0), 0), 1.0));
        let over = sight(cell(5, 5), &[cell(4, 5)], None, 0);
        assert_eq!(plan_food(&towards(&over, 0), 0), 0.0, "no moves left, no plan");
    }
}
