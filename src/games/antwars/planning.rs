//! What the humants' natives compute (`humant.rs` binds them to the
//! `antwars-humant` primset): the 5-move planner, the pulls and the counts,
//! over any [`Senses`] of an ant's view and memory.
//!
//! This file is their one definition, for three uses: the `gp:` ants run it
//! over an [`AntSight`](super::sight::AntSight) (`humant.rs`); exported Rust
//! ants carry its items as they are written here; exported C ants carry
//! them translated by [`crate::codegen::c_subset`] (`export.rs` chooses the
//! items the trees read). So it keeps to that subset: consts, the trait,
//! structs of numbers and arrays, and functions whose every `let` has its
//! type, looping over ranges or over the [`Senses`]' cells, without closures
//! or `Option`s, and reading the board only through the [`Senses`].
//!
//! Every double operation is done in one order, the same in the three: sums
//! from +0.0 over cells in increasing order, `fall`^d as `powi`'s products,
//! survival by `powf` and `ln` (which call the C library's `pow` and `log`).

use super::memory::DECAY;
use super::{MOVES_PER_ANT, REACH, START};

/// How far ahead the planners look: HyperHumant's 5 moves.
pub const HORIZON: u32 = 5;
/// The weight of food eaten on the planned path's t-th move is
/// `PLAN_DISCOUNT^(t − 1)`: sooner is better (the opponent may come first).
pub const PLAN_DISCOUNT: f64 = 0.9;
/// The probability that a piece of food remembered outside the view is still
/// there after one more move of the ant (the probabilistic memory model).
pub const SURVIVAL: f64 = 0.97;
/// What food is worth when the opponent, in view, reaches it first.
pub const RACE_LOST: f64 = 0.25;
/// The fall-off of the pulls ([`food_pull`], [`unseen_pull`]) per step of
/// king distance from the cell ahead.
pub const PULL: f64 = 0.75;
/// At most this many pieces of food enter a plan (the nearest).
pub const MAX_PLANNED: usize = 16;
/// A distance beyond any on the board (the largest king distance is 5).
pub const FAR: u32 = 6;

/// What the natives read of an ant: its view, its memory and the cell the
/// scored step goes to. Cells are numbered row by row, 0–120.
pub trait Senses {
    /// The cell the direction being scored steps onto.
    fn ahead(&self) -> usize;
    /// The memory's belief B in `cell`: 1 in view, 0.9^age once seen, 0
    /// never seen.
    fn belief(&self, cell: usize) -> f64;
    /// The opponent's cell while it is in view, else −1.
    fn enemy(&self) -> i32;
    /// The ant's moves left in the game.
    fn moves_left(&self) -> u32;
    /// The ant's cell at its first move, −1 when unknown.
    fn start(&self) -> i32;
    /// The number of king moves from `a` to `b` on the torus
    /// ([`torus_distance`]).
    fn distance(&self, a: usize, b: usize) -> u32;
    /// The cells where the memory holds food, in increasing order.
    fn food_cells(&self) -> impl Iterator<Item = usize> + '_;
    /// The cells never seen (belief exactly 0), in increasing order.
    fn unseen_cells(&self) -> impl Iterator<Item = usize> + '_;
    /// The 25 cells of the view an ant standing on `cell` has.
    fn window_cells(&self, cell: usize) -> impl Iterator<Item = usize> + '_;
}

/// The number of king moves from cell `a` to cell `b` on the 11 × 11 torus.
pub const fn torus_distance(a: usize, b: usize) -> u32 {
    let mut rows: i32 = (a / 11) as i32 - (b / 11) as i32;
    let mut columns: i32 = (a % 11) as i32 - (b % 11) as i32;
    if rows < 0 {
        rows = -rows;
    }
    if columns < 0 {
        columns = -columns;
    }
    if rows > 5 {
        rows = 11 - rows;
    }
    if columns > 5 {
        columns = 11 - columns;
    }
    if rows > columns { rows as u32 } else { columns as u32 }
}

/// The probability that food remembered at `cell` is still there: 1 in
/// view, else `keep` (the chance it survives a move, [`SURVIVAL`] by
/// default) to the power of the memory's age, read from B = DECAY^age.
pub fn survival<S: Senses>(senses: &S, cell: usize, keep: f64) -> f64 {
    let belief: f64 = senses.belief(cell);
    if belief >= 1.0 {
        1.0
    } else if belief <= 0.0 || keep.is_nan() || keep <= 0.0 {
        0.0
    } else {
        belief.powf(keep.min(1.0).ln() / DECAY.ln())
    }
}

/// What PlanFood weighs remembered food by: the paper's F·B.
pub fn belief_weight<S: Senses>(senses: &S, cell: usize, _keep: f64) -> f64 {
    senses.belief(cell)
}

/// The food a plan may visit, nearest first (in cell order at one
/// distance), and how the plan counts it.
pub struct Plan {
    /// The targets' cells.
    cell: [usize; MAX_PLANNED],
    /// Their worths when the ant comes first.
    weight: [f64; MAX_PLANNED],
    /// The opponent reaches a target on its move `race` (it moves after the
    /// ant, so the ant comes first arriving on its own move `race` or
    /// sooner); [`FAR`] when the opponent is not in view.
    race: [u32; MAX_PLANNED],
    /// How many targets there are.
    len: usize,
    /// The moves the plan may make.
    horizon: u32,
    /// The discount of food eaten on move t, at index t − 1.
    discount: [f64; HORIZON as usize],
    /// What food the opponent reaches first is worth, as a share.
    race_lost: f64,
}

/// What target `i` of `plan` is worth when the ant arrives on its move `t`.
fn worth(plan: &Plan, i: usize, t: u32) -> f64 {
    if t > plan.race[i] { plan.weight[i] * plan.race_lost } else { plan.weight[i] }
}

/// The best discounted worth of the targets not in `eaten` reachable from
/// `at`, where the ant stands after its move `t`: a depth-first search over
/// visiting orders, each target reached by a shortest king path (a path
/// over other food is the order that includes it).
fn search<S: Senses>(senses: &S, plan: &Plan, at: usize, t: u32, eaten: u32) -> f64 {
    let mut best: f64 = 0.0;
    for i in 0..plan.len {
        if (eaten >> i) & 1 == 1 {
            continue;
        }
        let arrive: u32 = t + senses.distance(at, plan.cell[i]);
        if arrive > plan.horizon {
            continue;
        }
        let gain: f64 = worth(plan, i, arrive) * plan.discount[(arrive - 1) as usize];
        best = best.max(gain + search(senses, plan, plan.cell[i], arrive, eaten | (1 << i)));
    }
    best
}

/// Puts into `plan` the remembered food within reach from `first`, weighted
/// by `weigh` (pieces of weight 0 or NaN left out), the nearest
/// [`MAX_PLANNED`] of them.
fn gather<S: Senses>(senses: &S, plan: &mut Plan, first: usize, weigh: fn(&S, usize, f64) -> f64, keep: f64) {
    let enemy: i32 = senses.enemy();
    for d in 0..plan.horizon {
        for c in senses.food_cells() {
            if senses.distance(first, c) == d {
                let weight: f64 = weigh(senses, c, keep);
                if weight > 0.0 {
                    if plan.len == MAX_PLANNED {
                        return;
                    }
                    plan.cell[plan.len] = c;
                    plan.weight[plan.len] = weight;
                    plan.race[plan.len] = if enemy < 0 { FAR } else { senses.distance(enemy as usize, c) };
                    plan.len += 1;
                }
            }
        }
    }
}

/// The best plan of up to 5 moves (fewer when fewer are left) starting with
/// the step being scored: remembered food weighted by `weigh` (with `keep`),
/// food the opponent reaches first worth `race_lost` of it, and food eaten
/// on move t worth `per_move`^(t − 1).
fn best_plan<S: Senses>(senses: &S, weigh: fn(&S, usize, f64) -> f64, keep: f64, race_lost: f64, per_move: f64) -> f64 {
    let horizon: u32 = HORIZON.min(senses.moves_left());
    if horizon == 0 {
        return 0.0;
    }
    let first: usize = senses.ahead();
    let mut plan: Plan = Plan {
        cell: [0; MAX_PLANNED],
        weight: [0.0; MAX_PLANNED],
        race: [0; MAX_PLANNED],
        len: 0,
        horizon,
        discount: [0.0; HORIZON as usize],
        race_lost,
    };
    plan.discount[0] = 1.0;
    for t in 1..HORIZON as usize {
        plan.discount[t] = plan.discount[t - 1] * per_move;
    }
    gather(senses, &mut plan, first, weigh, keep);
    // The food on the first cell is eaten on move 1.
    let mut start: f64 = 0.0;
    let mut eaten: u32 = 0;
    if plan.len > 0 && plan.cell[0] == first {
        start = worth(&plan, 0, 1);
        eaten = 1;
    }
    start + search(senses, &plan, first, 1, eaten)
}

/// PlanFood (SuperHumant's planner): the best food on a path of up to 5
/// moves, each piece weighted by the paper's F·B and by 0.9^(t − 1) for a
/// piece eaten on move t.
pub fn plan_food<S: Senses>(senses: &S) -> f64 {
    best_plan(senses, belief_weight, 0.0, 1.0, PLAN_DISCOUNT)
}

/// PlanHope(keep, race) (HyperHumant's planner) and PlanHopeDiscount(keep,
/// race, per_move): PlanFood under the probabilistic memory model:
/// remembered food weighted by its survival, `keep` per move of its age,
/// not by B; food the opponent (in view) reaches first worth `race` of a
/// piece; food eaten on move t worth `per_move`^(t − 1) (PlanHope's 0.9).
pub fn plan_hope<S: Senses>(senses: &S, keep: f64, race: f64, per_move: f64) -> f64 {
    best_plan(senses, survival, keep, race, per_move)
}

/// EnemyDist: the king distance from the cell ahead to the opponent when it
/// is in view, else [`FAR`]. Danger is distance 1 (the opponent could step
/// onto the cell ahead next and kill the ant there), Kill distance 0.
pub fn enemy_distance<S: Senses>(senses: &S) -> u32 {
    let enemy: i32 = senses.enemy();
    if enemy < 0 { FAR } else { senses.distance(enemy as usize, senses.ahead()) }
}

/// `fall`^d for the king distances d = 0..=5 into `falloff`: the products
/// `powi` forms (compiler-rt's `__powidf2`: x³ = x·x², x⁴ = x²·x², x⁵ =
/// x·x⁴), written out so that no compiler folds a constant `fall` into
/// other bits (LLVM folds `powi` of constants with the host's `pow`).
fn falloffs(fall: f64, falloff: &mut [f64; FAR as usize]) {
    let square: f64 = fall * fall;
    falloff[0] = 1.0;
    falloff[1] = fall;
    falloff[2] = square;
    falloff[3] = fall * square;
    falloff[4] = square * square;
    falloff[5] = fall * (square * square);
}

/// FoodPull(keep, fall): all the food remembered, each piece weighted by its
/// survival (`keep` per move of its age) and by `fall`^d at king distance d
/// from the cell ahead; it draws the ant towards food beyond the plan's
/// reach, and towards clusters. FoodKnown, the food the ant expects to be
/// left, is FoodPull(0.97, 1) (× 1^d changes no bit).
pub fn food_pull<S: Senses>(senses: &S, keep: f64, fall: f64) -> f64 {
    let ahead: usize = senses.ahead();
    let mut falloff: [f64; FAR as usize] = [0.0; FAR as usize];
    falloffs(fall, &mut falloff);
    let mut sum: f64 = 0.0;
    for c in senses.food_cells() {
        sum += survival(senses, c, keep) * falloff[senses.distance(ahead, c) as usize];
    }
    sum
}

/// UnseenPull(fall): the cells the ant has never seen, each weighted by
/// `fall`^d at king distance d from the cell ahead; it draws the ant towards
/// unexplored parts of the board (cells seen empty stay empty: food never
/// appears).
pub fn unseen_pull<S: Senses>(senses: &S, fall: f64) -> f64 {
    let ahead: usize = senses.ahead();
    let mut falloff: [f64; FAR as usize] = [0.0; FAR as usize];
    falloffs(fall, &mut falloff);
    let mut sum: f64 = 0.0;
    for c in senses.unseen_cells() {
        sum += falloff[senses.distance(ahead, c) as usize];
    }
    sum
}

/// UnseenPullRival(fall, factor, spread): UnseenPull, but a never-seen cell
/// the opponent has probably explored counts `factor` instead of 1: one
/// within king distance 2 + `spread`·m of the opponent's start, after the
/// ant's m moves (radius 2 is the opponent's first view, which the ant never
/// saw but the opponent ate from first). The opponent's start is the other
/// start cell when the ant started on one of the two (the rules fix them),
/// else unknown (a position set up by hand: every cell counts 1).
pub fn unseen_pull_rival<S: Senses>(senses: &S, fall: f64, factor: f64, spread: f64) -> f64 {
    let ahead: usize = senses.ahead();
    let left: u32 = senses.moves_left();
    let mut moves: f64 = 0.0;
    if left < MOVES_PER_ANT as u32 {
        moves = (MOVES_PER_ANT as u32 - left) as f64;
    }
    let radius: f64 = REACH as f64 + spread * moves;
    let start: i32 = senses.start();
    let mut rival: i32 = -1;
    if start == START[0] as i32 {
        rival = START[1] as i32;
    } else if start == START[1] as i32 {
        rival = START[0] as i32;
    }
    let mut falloff: [f64; FAR as usize] = [0.0; FAR as usize];
    falloffs(fall, &mut falloff);
    let mut sum: f64 = 0.0;
    for c in senses.unseen_cells() {
        let mut share: f64 = 1.0;
        if rival >= 0 && senses.distance(rival as usize, c) as f64 <= radius {
            share = factor;
        }
        sum += falloff[senses.distance(ahead, c) as usize] * share;
    }
    sum
}

/// NewCells: the cells never seen that come into view when the ant steps
/// ahead (5 for a straight step, 9 for a diagonal one, into the unknown).
pub fn new_cells<S: Senses>(senses: &S) -> f64 {
    let ahead: usize = senses.ahead();
    let mut count: u32 = 0;
    for c in senses.window_cells(ahead) {
        if senses.belief(c) == 0.0 {
            count += 1;
        }
    }
    count as f64
}
