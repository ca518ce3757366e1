//! Searches for a puzzle's goal ([`Puzzle`]): breadth-first search,
//! iterative deepening and IDA* with any heuristic. Each counts the nodes it
//! expands (a node is expanded when its successors are generated) and stops,
//! unsolved, when the next expansion would pass its node limit. Node counts
//! depend only on the puzzle and the settings, never on timing: they are the
//! yardstick the GP-Rush fitness compares heuristics by.
//!
//! - [`bfs`]: optimal for unit step costs. The goal is tested when a state
//!   is generated; the start counts as one expansion unless it is the goal.
//! - [`ida_star`]: depth-first searches under a growing bound on f = g + h.
//!   Its enhancements, which [`iterative_deepening`] (IDA* with h = 0)
//!   shares:
//!   - a transposition table per iteration, the least g at which each
//!     expanded state was met: a state met again no closer to the start is
//!     not searched again; met closer, it is searched again only if the
//!     bound cut something off below it the first time (a search that ran
//!     to its end without a cut-off met every state in reach, so a smaller
//!     g adds nothing). The table is cleared between iterations, so counts
//!     are deterministic. The second rule leaves iterative deepening and
//!     BlockersLowerBound as they were (cut-offs are everywhere); it matters
//!     when an estimate far above every path cost makes an iteration a
//!     depth-first search without cut-offs, which meets the same states
//!     from closer again and again (evolved policies do this);
//!   - move ordering by [`Puzzle::order_moves`] (Rush Hour: the red car
//!     towards the exit, then the vehicles in its path), which decides how
//!     soon the last iteration meets the goal;
//!   - node ordering: a node's children are visited by increasing h, ties
//!     in move order (with h = 0, move order alone);
//!   - learned estimates (the transposition table of Reinefeld and
//!     Marsland's enhanced IDA*, kept across iterations): when the search
//!     below a state ends without the goal, the least f on its frontier
//!     (the nodes the bound cut off, and transpositions at their own g + h)
//!     less the state's g becomes its estimate, if more than the
//!     heuristic's. The next iteration then cuts a state off as soon as
//!     what was learned below it exceeds the bound, instead of searching
//!     its subtree again. Learned estimates are lower bounds whenever the
//!     heuristic is (h = 0 included), so ID's solutions stay shortest;
//!   - a node at g = bound is not expanded (every child would have f >
//!     bound, since steps cost at least 1); the next bound is then at most
//!     g + 1, so no bound is skipped.
//!
//!   With an admissible heuristic (and h = 0) the first solution is a
//!   shortest one; an inadmissible heuristic (GoalDistance, Hybrid) may give
//!   a longer one.

use std::hash::Hash;
use std::time::Instant;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::games::Puzzle;

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// The moves from the start to the goal; `None` when the node limit was
    /// reached or the goal cannot be reached.
    pub moves: Option<Vec<M>>,
    /// Nodes expanded.
    pub nodes: u64,
}

/// How much a search may spend: nodes, and time when a deadline is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub max_nodes: u64,
    pub deadline: Option<Instant>,
}

impl Budget {
    /// Whether a search that has counted `nodes` must stop. The clock is
    /// read once every 1,024 nodes.
    pub fn spent(&self, nodes: u64) -> bool {
        nodes >= self.max_nodes || (nodes.is_multiple_of(1024) && self.deadline.is_some_and(|d| Instant::now() >= d))
    }
}

impl From<u64> for Budget {
    /// A node limit alone.
    fn from(max_nodes: u64) -> Budget {
        Budget { max_nodes, deadline: None }
    }
}

/// Breadth-first search from `start`, expanding at most `max_nodes` nodes.
pub fn bfs<G>(game: &G, start: &G::State, max_nodes: u64) -> Solution<G::Move>
where
    G: Puzzle,
    G::State: Hash + Eq,
{
    if game.is_goal(start) {
        return Solution { moves: Some(Vec::new()), nodes: 0 };
    }
    // Every state met, in the order met: its parent's index and the move.
    let mut met: Vec<(G::State, u32, Option<G::Move>)> = vec![(start.clone(), 0, None)];
    let mut seen: FxHashSet<G::State> = FxHashSet::default();
    seen.insert(start.clone());
    let mut moves = Vec::new();
    let mut nodes = 0;
    let mut next = 0;
    while next < met.len() {
        if nodes >= max_nodes {
            return Solution { moves: None, nodes };
        }
        nodes += 1;
        let state = met[next].0.clone();
        game.legal_moves(&state, &mut moves);
        for mv in &moves {
            let child = game.apply(&state, mv);
            if seen.contains(&child) {
                continue;
            }
            let goal = game.is_goal(&child);
            seen.insert(child.clone());
            met.push((child, next as u32, Some(mv.clone())));
            if goal {
                return Solution { moves: Some(path_to(&met, met.len() - 1)), nodes };
            }
        }
        next += 1;
    }
    Solution { moves: None, nodes }
}

/// The moves that led to `met[index]`.
fn path_to<S, M: Clone>(met: &[(S, u32, Option<M>)], mut index: usize) -> Vec<M> {
    let mut moves = Vec::new();
    while let Some(mv) = &met[index].2 {
        moves.push(mv.clone());
        index = met[index].1 as usize;
    }
    moves.reverse();
    moves
}

/// What IDA*'s heuristic sees of a node: the state, the state before and
/// the move that reached it (none at the start), the cost of the path from
/// the start, and how many children the search generated at the parent (the
/// node's siblings and itself; 0 at the start). GP-Rush's terminals read
/// them (seeds/000 table 1-6).
pub struct NodeView<'a, S, M> {
    pub state: &'a S,
    pub parent: Option<(&'a S, &'a M)>,
    pub g: u32,
    pub siblings: u32,
}

/// Iterative deepening: [`ida_star`] with h = 0, so every bound is a depth.
pub fn iterative_deepening<G>(game: &G, start: &G::State, budget: impl Into<Budget>) -> Solution<G::Move>
where
    G: Puzzle,
    G::State: Hash + Eq,
{
    ida_star(game, start, |_: NodeView<'_, G::State, G::Move>| 0, budget)
}

/// IDA* guided by `h` (an estimate of the cost to the goal), within
/// `budget` over all its iterations.
pub fn ida_star<G, H>(game: &G, start: &G::State, h: H, budget: impl Into<Budget>) -> Solution<G::Move>
where
    G: Puzzle,
    G::State: Hash + Eq,
    H: Fn(NodeView<'_, G::State, G::Move>) -> u32,
{
    let mut dfs = Dfs {
        game,
        h,
        table: FxHashMap::default(),
        learned: FxHashMap::default(),
        path: Vec::new(),
        spare_moves: Vec::new(),
        spare_children: Vec::new(),
        nodes: 0,
        budget: budget.into(),
        bound: 0,
    };
    let h_start = (dfs.h)(NodeView { state: start, parent: None, g: 0, siblings: 0 });
    dfs.bound = h_start;
    loop {
        dfs.table.clear();
        let mut next_bound = u32::MAX;
        let h = dfs.estimate(start, h_start);
        match dfs.iterate(start, h, &mut next_bound) {
            Flow::Found => return Solution { moves: Some(dfs.path), nodes: dfs.nodes },
            Flow::Limit => return Solution { moves: None, nodes: dfs.nodes },
            Flow::Continue if next_bound == u32::MAX => return Solution { moves: None, nodes: dfs.nodes },
            Flow::Continue => dfs.bound = next_bound,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Found,
    Limit,
}

/// A child generated by an expansion: the state, the move to it, its
/// path cost and its estimate.
struct Child<S, M> {
    state: S,
    mv: M,
    g: u32,
    h: u32,
}

/// One IDA* iteration's depth-first search.
struct Dfs<'g, G: Puzzle, H> {
    game: &'g G,
    h: H,
    /// The least g at which each expanded state was met in this iteration,
    /// and how the search below it went.
    table: FxHashMap<G::State, Met>,
    /// What earlier iterations learned of each expanded state's distance
    /// to the goal: the least f on the frontier below it, less its g.
    learned: FxHashMap<G::State, u32>,
    /// The moves from the start to the state being visited.
    path: Vec<G::Move>,
    /// Move and child lists to reuse, one per level.
    spare_moves: Vec<Vec<G::Move>>,
    spare_children: Vec<Vec<Child<G::State, G::Move>>>,
    nodes: u64,
    budget: Budget,
    bound: u32,
}

impl<G, H> Dfs<'_, G, H>
where
    G: Puzzle,
    G::State: Hash + Eq,
    H: Fn(NodeView<'_, G::State, G::Move>) -> u32,
{
    /// The estimate for `state`: the heuristic's, or what an earlier
    /// iteration learned if that is more.
    fn estimate(&self, state: &G::State, h: u32) -> u32 {
        self.learned.get(state).map_or(h, |&l| l.max(h))
    }

    /// One iteration: searches from `start` (estimate `h`) under the bound,
    /// depth first, with an explicit stack of frames rather than recursion,
    /// so that a bound of thousands of steps (an inadmissible estimate) needs
    /// no deeper call stack. On `Found`, `path` holds the moves to the goal.
    fn iterate(&mut self, start: &G::State, h: u32, next_bound: &mut u32) -> Flow {
        let mut frames: Vec<Frame<G::State, G::Move>> = Vec::new();
        match self.enter(start, 0, h, next_bound) {
            Entered::Done(flow, ..) => return flow,
            Entered::Expanded(children) => frames.push(Frame::new(0, h, children)),
        }
        while let Some(top) = frames.last_mut() {
            if let Some(child) = top.children.get(top.next) {
                top.next += 1;
                self.path.push(child.mv.clone());
                match self.enter(&child.state, child.g, child.h, next_bound) {
                    Entered::Done(Flow::Continue, frontier, complete) => {
                        top.frontier = top.frontier.min(frontier);
                        top.complete &= complete;
                        self.path.pop();
                    }
                    Entered::Done(flow, ..) => return flow,
                    Entered::Expanded(children) => {
                        let (g, h) = (child.g, child.h);
                        frames.push(Frame::new(g, h, children));
                    }
                }
                continue;
            }
            // Every child searched without the goal: learn from the frontier.
            let Some(done) = frames.pop() else { break };
            let state = frames.last().map_or(start, |parent| &parent.children[parent.next - 1].state);
            let learned = done.frontier.saturating_sub(done.g);
            if learned > done.h {
                self.learned.insert(state.clone(), learned);
            }
            if let Some(met) = self.table.get_mut(state) {
                met.below = if done.complete { Below::Complete } else { Below::Cut };
            }
            self.spare_children.push(done.children);
            match frames.last_mut() {
                Some(parent) => {
                    parent.frontier = parent.frontier.min(done.frontier);
                    parent.complete &= done.complete;
                    self.path.pop();
                }
                None => break,
            }
        }
        Flow::Continue
    }

    /// Enters `state`, reached at cost `g`, whose estimate is `h`: either
    /// done with it at once (the goal, a cut-off, a transposition or the node
    /// limit; with the least f of its frontier, which the table of learned
    /// estimates keeps) or expands it, returning its children, the most
    /// promising first.
    fn enter(&mut self, state: &G::State, g: u32, h: u32, next_bound: &mut u32) -> Entered<G::State, G::Move> {
        if self.game.is_goal(state) {
            return Entered::Done(Flow::Found, g, true);
        }
        let f = g.saturating_add(h);
        if f > self.bound {
            *next_bound = (*next_bound).min(f);
            return Entered::Done(Flow::Continue, f, false);
        }
        if g >= self.bound {
            *next_bound = (*next_bound).min(g + 1);
            return Entered::Done(Flow::Continue, g + 1, false);
        }
        match self.table.get_mut(state) {
            Some(met) if met.g <= g || met.below == Below::Complete => {
                return Entered::Done(Flow::Continue, f, met.below != Below::Cut);
            }
            Some(met) => *met = Met { g, below: Below::Searching },
            None => {
                self.table.insert(state.clone(), Met { g, below: Below::Searching });
            }
        }
        if self.budget.spent(self.nodes) {
            return Entered::Done(Flow::Limit, f, false);
        }
        self.nodes += 1;
        let mut moves = self.spare_moves.pop().unwrap_or_default();
        self.game.legal_moves(state, &mut moves);
        self.game.order_moves(state, &mut moves);
        let siblings = moves.len() as u32;
        let mut children = self.spare_children.pop().unwrap_or_default();
        children.clear();
        for mv in moves.drain(..) {
            let child = self.game.apply(state, &mv);
            let child_g = g + self.game.step_cost(state, &mv);
            let h = (self.h)(NodeView { state: &child, parent: Some((state, &mv)), g: child_g, siblings });
            let h = self.estimate(&child, h);
            children.push(Child { state: child, mv, g: child_g, h });
        }
        self.spare_moves.push(moves);
        // Node ordering: the most promising child first; ties keep the
        // puzzle's move order (so with h = 0 the order is the puzzle's).
        children.sort_by_key(|c| c.h);
        Entered::Expanded(children)
    }
}

/// A node being searched: its path cost and estimate, its children, the
/// next child to search, the least f met on the frontier below it so far,
/// and whether the bound has cut nothing off below it yet.
struct Frame<S, M> {
    g: u32,
    h: u32,
    children: Vec<Child<S, M>>,
    next: usize,
    frontier: u32,
    complete: bool,
}

impl<S, M> Frame<S, M> {
    fn new(g: u32, h: u32, children: Vec<Child<S, M>>) -> Self {
        Frame { g, h, children, next: 0, frontier: u32::MAX, complete: true }
    }
}

/// A state expanded in this iteration: the least g it was met at, and how
/// the search below it went.
struct Met {
    g: u32,
    below: Below,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Below {
    /// Still being searched (the state is on the current path).
    Searching,
    /// Searched to the end with nothing cut off by the bound.
    Complete,
    /// Searched, and the bound cut something off.
    Cut,
}

/// What entering a node gave: done with it (the flow, its frontier's least
/// f, and whether nothing below it was cut off), or its children to search.
enum Entered<S, M> {
    Done(Flow, u32, bool),
    Expanded(Vec<Child<S, M>>),
}

/// Plays `moves` from `start`: `Ok` with the final state if each is legal
/// where it is played and the last reaches the goal, else the index of the
/// first illegal move (or `moves.len()` when the goal is not reached).
pub fn replay<G: Puzzle>(game: &G, start: &G::State, moves: &[G::Move]) -> Result<G::State, usize> {
    let mut state = start.clone();
    let mut legal = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        game.legal_moves(&state, &mut legal);
        if !legal.contains(mv) {
            return Err(i);
        }
        state = game.apply(&state, mv);
    }
    if game.is_goal(&state) { Ok(state) } else { Err(moves.len()) }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::games::{Game, ParseError, Role, Turn};

    /// A puzzle on an undirected graph: a state is a vertex, a move goes to
    /// a neighbour (in the listed order), the goal is the last vertex.
    pub(in crate::search) struct Graph(pub Vec<Vec<u32>>);

    impl Game for Graph {
        type State = u32;
        type Move = u32;

        fn name(&self) -> &str {
            "graph"
        }
        fn n_roles(&self) -> usize {
            1
        }
        fn role_name(&self, _: Role) -> &str {
            "solver"
        }
        fn initial_state(&self) -> u32 {
            0
        }
        fn turn(&self, state: &u32) -> Turn {
            if self.is_goal(state) { Turn::Over } else { Turn::Role(0) }
        }
        fn legal_moves(&self, state: &u32, moves: &mut Vec<u32>) {
            moves.clear();
            moves.extend(&self.0[*state as usize]);
        }
        fn apply(&self, _: &u32, mv: &u32) -> u32 {
            *mv
        }
        fn score(&self, _: &u32, _: Role) -> Option<u8> {
            None
        }
        fn parse_state(&self, text: &str) -> Result<u32, ParseError> {
            Err(ParseError::new("no text format", 0..text.len()))
        }
        fn format_state(&self, state: &u32) -> String {
            state.to_string()
        }
        fn parse_move(&self, _: &u32, text: &str) -> Result<u32, ParseError> {
            Err(ParseError::new("no text format", 0..text.len()))
        }
        fn format_move(&self, _: &u32, mv: &u32) -> String {
            mv.to_string()
        }
    }

    impl Puzzle for Graph {
        fn is_goal(&self, state: &u32) -> bool {
            *state as usize == self.0.len() - 1
        }
    }

    /// From 0, the chain 0-1-2-3 reaches the dead end 3-4-5 at g = 3; the
    /// edge 0-3 reaches it again at g = 1; the goal 8 lies behind 0-6-7.
    fn dead_end_met_twice() -> Graph {
        Graph(vec![
            vec![1, 3, 6],
            vec![0, 2],
            vec![1, 3],
            vec![2, 4, 0],
            vec![3, 5],
            vec![4],
            vec![0, 7],
            vec![6, 8],
            vec![7],
        ])
    }

    #[test]
    fn a_state_searched_to_the_end_is_not_searched_again_from_closer() {
        // An estimate far above every path: nothing is cut off, so the dead
        // end met again at g = 1 holds nothing new and is skipped: 0 1 2 3
        // 4 5 6 7 expanded once each.
        let far = |view: NodeView<'_, u32, u32>| if view.g == 0 { 100 } else { 0 };
        let found = ida_star(&dead_end_met_twice(), &0, far, 1000);
        assert_eq!(found.moves, Some(vec![6, 7, 8]));
        assert_eq!(found.nodes, 8);
    }

    #[test]
    fn a_state_whose_search_was_cut_off_is_searched_again_from_closer() {
        // Bound 4: met at g = 3, the dead end is cut off at 4 (g = 4), so met
        // again at g = 1 it is searched again: 0 1 2 3, then 3 4 5, then 6 7.
        let near = |view: NodeView<'_, u32, u32>| if view.g == 0 { 4 } else { 0 };
        let found = ida_star(&dead_end_met_twice(), &0, near, 1000);
        assert_eq!(found.moves, Some(vec![6, 7, 8]));
        assert_eq!(found.nodes, 9);
    }
}
