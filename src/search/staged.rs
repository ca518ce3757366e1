//! Heineman's staged deepening (HSD; seeds/001, Algorithm 1): a best-first
//! search whose steps are depth-first searches of a fixed depth.
//!
//! The open list holds states by heuristic value, the least first, and at
//! most one state per value: a state that arrives with a value already held
//! replaces the one there (the paper's "merge overwrites nodes in T with
//! newer nodes from U of equal heuristic value"), which is what keeps the
//! list small. Each stage takes the best state off the list and searches
//! depth-first from it, without the heuristic, to exactly `depth` moves;
//! the states it reaches at that depth are evaluated and merged into the
//! list. A transposition table of every state met keeps the depth-first
//! searches out of loops and away from states already searched; when it
//! holds `table_size` states it is emptied (only the open list stays in
//! memory). The table holds 64-bit digests of the states' transposition
//! keys ([`Puzzle::transposition_digest`]), not the states. The goal ends
//! the search wherever a depth-first search meets it, so a solution is found as soon as it is generated.
//!
//! Nodes: every state the depth-first searches meet that the table did not
//! hold (the start included). Solutions are not optimal.
//!
//! Paths: each state in the open list keeps its moves as a chain of records
//! (a move and the record before it) that states reached through the same
//! moves share; records no state in the list needs are dropped whenever
//! the table is emptied.

use std::cell::Cell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hash::Hash;

use rustc_hash::{FxHashMap, FxHashSet};

use super::puzzle::{Budget, Solution};
use crate::games::Puzzle;

/// Algorithm 1's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StagedSettings {
    /// k: how deep each stage's depth-first search goes.
    pub depth: u32,
    /// N: the transposition table's size when it is emptied.
    pub table_size: usize,
    /// How many of the states the open list let go of (replaced by a state
    /// of the same value) are kept, best first, to go on from once the list
    /// is empty; 0 ends the search there, as Algorithm 1 does.
    pub reserve: usize,
}

impl Default for StagedSettings {
    /// k = 3 (the paper leaves k open; docs/FREECELL.md gives the
    /// measurements behind the choice), Heineman's N = 200,000, and a
    /// reserve of a million states.
    fn default() -> StagedSettings {
        StagedSettings { depth: 3, table_size: 200_000, reserve: 1_000_000 }
    }
}

/// No record: the start's chain.
const ROOT: u32 = u32::MAX;

/// The open list's order for a heuristic value: the least first, NaN last.
fn order_key(value: f64) -> i64 {
    let value = if value.is_nan() { f64::INFINITY } else { value };
    let bits = value.to_bits() as i64;
    // Negative floats order backwards as integers: flip their other bits.
    bits ^ (((bits >> 63) as u64) >> 1) as i64
}

/// Staged deepening from `start` guided by `h` (of a state and the length
/// of the path that reached it; lower is nearer the goal), within `budget`.
pub fn staged_deepening<G, H>(
    game: &G,
    start: &G::State,
    mut h: H,
    settings: StagedSettings,
    budget: impl Into<Budget>,
) -> Solution<G::Move>
where
    G: Puzzle,
    G::State: Hash + Eq,
    H: FnMut(&G::State, u32) -> f64,
{
    let mut search = Stages {
        game,
        depth: settings.depth.max(1) as usize,
        budget: budget.into(),
        table: SPARE_TABLE.with(|spare| spare.take()),
        records: Vec::new(),
        path: Vec::new(),
        chain: Vec::new(),
        spare_moves: Vec::new(),
        nodes: 1,
        leaves: Vec::new(),
    };
    if game.is_goal(start) {
        return Solution { moves: Some(Vec::new()), nodes: 1 };
    }
    search.table.insert(game.transposition_digest(start));
    let mut open = OpenList::default();
    open.insert(order_key(h(start, 0)), Open { state: start.clone(), record: ROOT, g: 0 });
    let mut reserve = Reserve::new(settings.reserve);
    while let Some(Open { state, record, g }) = open.pop_first().or_else(|| reserve.pop_first()) {
        search.path.clear();
        search.chain.clear();
        match search.dfs(&state, record) {
            Stage::Found => {
                let mut moves = search.moves_to(record);
                moves.append(&mut search.path);
                return Solution { moves: Some(moves), nodes: search.nodes };
            }
            Stage::Limit => return Solution { moves: None, nodes: search.nodes },
            Stage::Done => {}
        }
        let g = g + search.depth as u32;
        // The first leaf found of each value stays: leaves go in last first.
        for (leaf, leaf_record) in search.leaves.drain(..).rev() {
            let key = order_key(h(&leaf, g));
            if let Some(old) = open.insert(key, Open { state: leaf, record: leaf_record, g }) {
                reserve.push(key, old);
            }
        }
        if search.table.len() >= settings.table_size {
            search.table.clear();
            // The reserve's order does not depend on records: out and back.
            let mut reserved = std::mem::take(&mut reserve.heap).into_vec();
            let records = open.by_key.values_mut().chain(reserved.iter_mut().map(|r| &mut r.open));
            search.compact(records.map(|o| &mut o.record));
            reserve.heap = BinaryHeap::from(reserved);
        }
    }
    Solution { moves: None, nodes: search.nodes }
}

/// A state of the open list: its record and the length of its path.
struct Open<S> {
    state: S,
    record: u32,
    g: u32,
}

/// The open list: at most one state per value (a state of a value already
/// held replaces the one there, which is handed back), the least first.
struct OpenList<S> {
    by_key: FxHashMap<i64, Open<S>>,
    /// Every key of `by_key` once, the least on top.
    keys: BinaryHeap<Reverse<i64>>,
}

impl<S> Default for OpenList<S> {
    fn default() -> OpenList<S> {
        OpenList { by_key: FxHashMap::default(), keys: BinaryHeap::new() }
    }
}

impl<S> OpenList<S> {
    fn insert(&mut self, key: i64, open: Open<S>) -> Option<Open<S>> {
        let old = self.by_key.insert(key, open);
        if old.is_none() {
            self.keys.push(Reverse(key));
        }
        old
    }

    fn pop_first(&mut self) -> Option<Open<S>> {
        let Reverse(key) = self.keys.pop()?;
        self.by_key.remove(&key)
    }
}

/// The states the open list let go of, least value and then oldest first;
/// the best `cap` are kept (the rest are dropped in batches, once `cap`
/// plus a quarter more are held).
struct Reserve<S> {
    heap: BinaryHeap<Reserved<S>>,
    cap: usize,
    /// How many states have come in: the age that breaks ties.
    arrived: u64,
}

/// A state of the reserve, ordered so that the heap's top is the least
/// (value, age).
struct Reserved<S> {
    key: (i64, u64),
    open: Open<S>,
}

impl<S> PartialEq for Reserved<S> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl<S> Eq for Reserved<S> {}

impl<S> PartialOrd for Reserved<S> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<S> Ord for Reserved<S> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.key.cmp(&self.key)
    }
}

impl<S> Reserve<S> {
    fn new(cap: usize) -> Reserve<S> {
        Reserve { heap: BinaryHeap::new(), cap, arrived: 0 }
    }

    fn push(&mut self, key: i64, open: Open<S>) {
        if self.cap == 0 {
            return;
        }
        self.heap.push(Reserved { key: (key, self.arrived), open });
        self.arrived += 1;
        if self.heap.len() > self.cap + self.cap / 4 {
            // Sorted by the order above: the greatest (value, age) first.
            let mut sorted = std::mem::take(&mut self.heap).into_sorted_vec();
            sorted.drain(..sorted.len() - self.cap);
            self.heap = BinaryHeap::from(sorted);
        }
    }

    fn pop_first(&mut self) -> Option<Open<S>> {
        self.heap.pop().map(|r| r.open)
    }
}

thread_local! {
    /// A table a search on this thread has finished with, emptied: the next
    /// search starts with its memory instead of growing a table again.
    static SPARE_TABLE: Cell<FxHashSet<u64>> = Cell::new(FxHashSet::default());
}

enum Stage {
    Done,
    Found,
    Limit,
}

struct Stages<'g, G: Puzzle> {
    game: &'g G,
    depth: usize,
    budget: Budget,
    /// The digests of the states met since the table was last emptied.
    table: FxHashSet<u64>,
    /// Move records: the record before (or [`ROOT`]) and the move.
    records: Vec<(u32, G::Move)>,
    /// The moves from the stage's state to the state being visited.
    path: Vec<G::Move>,
    /// The record of each move of `path`, once some leaf below needed one.
    chain: Vec<u32>,
    /// Successor lists of finished depth-first calls, to reuse.
    spare_moves: Vec<Vec<(G::Move, G::State)>>,
    nodes: u64,
    /// The states at the stage's depth, with their records.
    leaves: Vec<(G::State, u32)>,
}

impl<G: Puzzle> Drop for Stages<'_, G> {
    fn drop(&mut self) {
        let mut table = std::mem::take(&mut self.table);
        table.clear();
        SPARE_TABLE.with(|spare| spare.set(table));
    }
}

impl<G> Stages<'_, G>
where
    G: Puzzle,
    G::State: Hash + Eq,
{
    /// The depth-first search of one stage from `state` (whose moves are
    /// `record`'s chain), `path.len()` moves into it.
    fn dfs(&mut self, state: &G::State, record: u32) -> Stage {
        let mut successors = self.spare_moves.pop().unwrap_or_default();
        self.game.successors(state, &mut successors);
        let mut outcome = Stage::Done;
        for (mv, child) in successors.drain(..) {
            if !self.table.insert(self.game.transposition_digest(&child)) {
                continue;
            }
            if self.budget.spent(self.nodes) {
                outcome = Stage::Limit;
                break;
            }
            self.nodes += 1;
            self.path.push(mv);
            if self.game.is_goal(&child) {
                outcome = Stage::Found;
                break;
            }
            if self.path.len() == self.depth {
                let leaf = self.record_path(record);
                self.leaves.push((child, leaf));
            } else {
                match self.dfs(&child, record) {
                    Stage::Done => {}
                    found_or_limit => {
                        outcome = found_or_limit;
                        break;
                    }
                }
            }
            self.path.pop();
            self.chain.truncate(self.path.len());
        }
        successors.clear();
        self.spare_moves.push(successors);
        outcome
    }

    /// The record of the last move of `path`, adding records for the moves
    /// of `path` that have none yet.
    fn record_path(&mut self, record: u32) -> u32 {
        while self.chain.len() < self.path.len() {
            let before = self.chain.last().copied().unwrap_or(record);
            let mv = self.path[self.chain.len()].clone();
            self.chain.push(self.records.len() as u32);
            self.records.push((before, mv));
        }
        self.chain.last().copied().unwrap_or(record)
    }

    /// The moves of `record`'s chain, first first.
    fn moves_to(&self, mut record: u32) -> Vec<G::Move> {
        let mut moves = Vec::new();
        while record != ROOT {
            let (before, mv) = &self.records[record as usize];
            moves.push(mv.clone());
            record = *before;
        }
        moves.reverse();
        moves
    }

    /// Keeps only the records the open list's states need, renumbered.
    fn compact<'a>(&mut self, open: impl Iterator<Item = &'a mut u32>) {
        let mut kept: Vec<(u32, G::Move)> = Vec::new();
        let mut renumbered: FxHashMap<u32, u32> = FxHashMap::default();
        for record in open {
            // The chain up to the first record already kept.
            let mut chain = Vec::new();
            let mut at = *record;
            while at != ROOT && !renumbered.contains_key(&at) {
                chain.push(at);
                at = self.records[at as usize].0;
            }
            let mut before = if at == ROOT { ROOT } else { renumbered[&at] };
            for &old in chain.iter().rev() {
                let new = kept.len() as u32;
                kept.push((before, self.records[old as usize].1.clone()));
                renumbered.insert(old, new);
                before = new;
            }
            if *record != ROOT {
                *record = renumbered[record];
            }
        }
        self.records = kept;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::puzzle::tests::Graph;

    #[test]
    fn order_keys_sort_as_the_values() {
        let values = [f64::NEG_INFINITY, -2.5, -0.0, 0.0, 1e-300, 0.25, 7.0, f64::INFINITY];
        for w in values.windows(2) {
            assert!(order_key(w[0]) <= order_key(w[1]), "{} {}", w[0], w[1]);
        }
        assert_eq!(order_key(f64::NAN), order_key(f64::INFINITY));
    }

    /// 0 → 1 → 3 → 5 (the goal) and 0 → 2 → 4, a dead end.
    fn two_branches() -> Graph {
        Graph(vec![vec![1, 2], vec![3], vec![4], vec![5], vec![], vec![]])
    }

    #[test]
    fn stages_search_to_their_depth_then_the_best_leaf_on() {
        let settings = StagedSettings { depth: 2, table_size: 100, reserve: 0 };
        // Leaves 3 and 4 at depth 2; 3 is better, and its stage meets 5.
        let found = staged_deepening(&two_branches(), &0, |&v, _| f64::from(5 - v.min(5)), settings, 100);
        assert_eq!(found.moves, Some(vec![1, 3, 5]));
        assert_eq!(found.nodes, 6, "0, 1, 3, 2, 4, 5");
    }

    /// The same graph with the dead end tried first.
    fn dead_end_first() -> Graph {
        Graph(vec![vec![2, 1], vec![3], vec![4], vec![5], vec![], vec![]])
    }

    #[test]
    fn the_first_leaf_of_a_value_stays_in_the_list() {
        let settings = StagedSettings { depth: 2, table_size: 100, reserve: 0 };
        // Every state is worth 0: leaf 3, found first, stays and leads on.
        let found = staged_deepening(&two_branches(), &0, |_, _| 0.0, settings, 100);
        assert_eq!((found.moves, found.nodes), (Some(vec![1, 3, 5]), 6));
        // Dead end first: leaf 4 stays, 3 is let go of, and Algorithm 1 ends.
        let found = staged_deepening(&dead_end_first(), &0, |_, _| 0.0, settings, 100);
        assert_eq!((found.moves, found.nodes), (None, 5));
    }

    #[test]
    fn the_reserve_goes_on_from_a_state_the_list_let_go_of() {
        let settings = StagedSettings { depth: 2, table_size: 100, reserve: 10 };
        let found = staged_deepening(&dead_end_first(), &0, |_, _| 0.0, settings, 100);
        assert_eq!((found.moves, found.nodes), (Some(vec![1, 3, 5]), 6));
    }

    #[test]
    fn the_node_limit_stops_the_search() {
        let settings = StagedSettings { depth: 2, table_size: 100, reserve: 0 };
        let found = staged_deepening(&two_branches(), &0, |_, _| 0.0, settings, 3);
        assert_eq!((found.moves, found.nodes), (None, 3));
    }
}
