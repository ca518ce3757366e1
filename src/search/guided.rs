//! IDA* and staged deepening guided by an evolved program: a policy, a tree or a weight vector
//! over a puzzle's primset, evaluated on each search node. `solve` and the
//! puzzle fitness of evolution share it, so a champion is judged by exactly
//! the search it was evolved with.

use std::hash::Hash;

use super::programs::GpProgram;
use super::puzzle::{Budget, NodeView, Solution, ida_star};
use super::staged::{StagedSettings, staged_deepening};
use crate::games::domain::SearchNode;
use crate::games::{Instance, Puzzle};

/// A program evaluated on a puzzle's search nodes.
pub type NodeProgram<S, M> = GpProgram<SearchNode<S, M>>;

/// A program's value as IDA*'s estimate: rounded to the nearest integer
/// (halves away from zero), 0 for negative values and NaN, at most 10⁶.
pub fn estimate(value: f64) -> u32 {
    if value.is_nan() || value <= 0.0 { 0 } else { value.round().min(1e6) as u32 }
}

/// Each puzzle's DifficultyLevel: its published optimal length divided by
/// the longest in the set (0 for a puzzle without one).
pub fn difficulties<S>(puzzles: &[Instance<S>]) -> Vec<f64> {
    let longest = puzzles.iter().filter_map(|p| p.optimal_cost).max().unwrap_or(0);
    puzzles
        .iter()
        .map(|p| match p.optimal_cost {
            Some(cost) if longest > 0 => f64::from(cost) / f64::from(longest),
            _ => 0.0,
        })
        .collect()
}

/// IDA* from `start` guided by `program` (the puzzle's difficulty in its
/// set is `difficulty`), within `budget`.
pub fn program_ida<G>(
    game: &G,
    start: &G::State,
    program: &NodeProgram<G::State, G::Move>,
    difficulty: f64,
    budget: impl Into<Budget>,
) -> Solution<G::Move>
where
    G: Puzzle,
    G::State: Hash + Eq,
{
    let h = |n: NodeView<'_, G::State, G::Move>| {
        let node = SearchNode {
            state: n.state.clone(),
            parent: n.parent.map(|(s, m)| (s.clone(), m.clone())),
            g: n.g,
            siblings: n.siblings,
            difficulty,
        };
        estimate(program.value(&node, 0))
    };
    ida_star(game, start, h, budget)
}

/// Staged deepening from `start` guided by `program`'s value of each node
/// (its state and path length; staged deepening keeps no parent and counts
/// no siblings), within `budget`.
pub fn program_staged<G>(
    game: &G,
    start: &G::State,
    program: &NodeProgram<G::State, G::Move>,
    difficulty: f64,
    settings: StagedSettings,
    budget: impl Into<Budget>,
) -> Solution<G::Move>
where
    G: Puzzle,
    G::State: Hash + Eq,
{
    let h = |state: &G::State, g: u32| {
        let node = SearchNode { state: state.clone(), parent: None, g, siblings: 0, difficulty };
        program.value(&node, 0)
    };
    staged_deepening(game, start, h, settings, budget)
}
