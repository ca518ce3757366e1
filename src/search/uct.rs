//! UCT: Monte Carlo tree search with UCB1 selection, for any game of the
//! model (n roles, turns of one role, simultaneous moves, chance), as
//! general game players run it.
//!
//! Each iteration walks down the tree, choosing at each node by UCB1 (the
//! mean score of a move plus `C·sqrt(ln N / n)`, on the 0–100 scale, so `C`
//! ≈ 40 is the classic `sqrt(2)` on [0, 1]), adds the first node it steps
//! off the tree to, plays a random game from there
//! ([`Game::random_playout_scores`], which a compiled GDL game plays on bit
//! sets), and adds every role's score to the moves on the path.
//!
//! - In a turn of one role, that role chooses by its own scores: in a game
//!   of n roles each role maximises its own goal (max^n), which for two
//!   players of a zero-sum game is minimax.
//! - In a simultaneous turn every role chooses on its own, with statistics
//!   of its own moves only (decoupled UCT, as CadiaPlayer and most GGP
//!   players do); the joint move the choices make names the child.
//! - Chance outcomes are drawn with their weights.
//!
//! Moves never tried are tried first, in an order drawn from the player's
//! random stream; so with a budget of iterations a seed fixes the search, and
//! the move, for a deterministic game. The tree can be kept between moves:
//! [`Uct::advance`] makes the child of the joint move played the new root
//! and drops the rest.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use rand::RngExt;
use rustc_hash::FxHashMap;

use crate::games::{Game, PlayoutEnd, Role, Turn};
use crate::rng::GpRng;

/// UCB1's exploration constant on the 0–100 scale (`sqrt(2)` on [0, 1] is
/// about 41).
pub const DEFAULT_EXPLORATION: f64 = 40.0;

/// Nodes kept at most; past it, iterations go on with playouts from the
/// leaves but add no node (a node is a few hundred bytes with its state).
pub const DEFAULT_MAX_NODES: usize = 2_000_000;

/// How long a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A number of iterations: the same search for a seed, on any machine.
    Iterations(u64),
    /// Iterations until a moment: at least one is started, and a playout
    /// still going at that moment is given up (not counted), so that a slow
    /// engine still answers on the clock.
    Until(Instant),
}

/// A search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UctParams {
    /// UCB1's `C`, on the 0–100 scale of scores.
    pub exploration: f64,
    pub max_nodes: usize,
}

impl Default for UctParams {
    fn default() -> UctParams {
        UctParams { exploration: DEFAULT_EXPLORATION, max_nodes: DEFAULT_MAX_NODES }
    }
}

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    pub iterations: u64,
    /// Nodes in the tree after the search.
    pub nodes: usize,
    /// Iterations the root had seen before this search (kept from earlier moves).
    pub reused: u64,
    pub elapsed: Duration,
    /// States where the engine failed (scored 0 for every role), in this
    /// search.
    pub dead_ends: u64,
}

type NodeId = u32;

/// One role's choice at a node: its moves and their statistics.
struct Chooser<M> {
    role: Role,
    moves: Vec<M>,
    visits: Vec<u32>,
    /// The sum of the role's scores over the iterations through each move.
    sums: Vec<f64>,
    /// Iterations that chose here (the sum of `visits`).
    total: u32,
}

impl<M> Chooser<M> {
    fn new(role: Role, moves: Vec<M>) -> Chooser<M> {
        let n = moves.len();
        Chooser { role, moves, visits: vec![0; n], sums: vec![0.0; n], total: 0 }
    }

    /// UCB1's pick: a random move never tried if there is one, else the
    /// highest mean plus exploration bonus (the first on ties).
    fn select(&self, exploration: f64, rng: &mut GpRng) -> u32 {
        let untried = self.visits.iter().filter(|&&v| v == 0).count();
        if untried > 0 {
            let k = rng.random_range(0..untried);
            let i = self.visits.iter().enumerate().filter(|(_, v)| **v == 0).nth(k).map_or(0, |(i, _)| i);
            return i as u32;
        }
        let log_total = f64::from(self.total.max(1)).ln();
        let mut best = (0, f64::NEG_INFINITY);
        for (i, (&n, &sum)) in self.visits.iter().zip(&self.sums).enumerate() {
            let n = f64::from(n);
            let value = sum / n + exploration * (log_total / n).sqrt();
            if value > best.1 {
                best = (i, value);
            }
        }
        best.0 as u32
    }

    /// The most visited move, ties to the higher mean: the robust choice
    /// at the root.
    fn most_visited(&self) -> Option<usize> {
        let key = |i: usize| (self.visits[i], self.mean(i));
        (0..self.moves.len()).max_by(|&a, &b| key(a).partial_cmp(&key(b)).unwrap_or(std::cmp::Ordering::Equal))
    }

    fn mean(&self, i: usize) -> f64 {
        if self.visits[i] == 0 { 0.0 } else { self.sums[i] / f64::from(self.visits[i]) }
    }
}

/// What acts at a node.
enum Kind<M> {
    /// The game is over: every role's score.
    Over(Vec<u8>),
    /// One role chooses (a single chooser), or every role at once
    /// (`simultaneous`: one chooser per role, in role order).
    Choice { simultaneous: bool, choosers: Vec<Chooser<M>> },
    /// A chance event: outcomes and their weights.
    Chance(Vec<M>, Vec<f64>),
}

struct Node<S, M> {
    state: S,
    kind: Kind<M>,
    /// Iterations through this node (its own playout included).
    visits: u64,
    /// Children by the choice that leads to them: one index per chooser,
    /// or the chance outcome's index.
    children: FxHashMap<Box<[u32]>, NodeId>,
}

/// A UCT search tree and its random stream.
pub struct Uct<G: Game> {
    params: UctParams,
    rng: GpRng,
    /// The tree; the root is node 0 (none while empty).
    nodes: Vec<Node<G::State, G::Move>>,
    scores: Vec<u8>,
    path: Vec<(NodeId, Box<[u32]>)>,
    scratch: Vec<G::Move>,
    dead_ends: u64,
    /// The search's deadline, when it runs on the clock: a playout still
    /// going then is given up and its iteration not counted.
    deadline: Option<Instant>,
    /// The most plies a playout on the clock may play before the engine
    /// scores the state it reached (no limit at first). Halved (and put
    /// below the depth a given-up playout had reached) when a search on the
    /// clock completes fewer than [`FEW_ITERATIONS`], doubled when one completes
    /// [`MANY_ITERATIONS`]: on an engine that takes a play clock for one
    /// game (the prover on a large game) the search still samples.
    playout_plies: u32,
    /// The plies a playout given up at the deadline had played, in this
    /// search.
    given_up_at: Option<u32>,
}

/// Searches on the clock that complete fewer iterations than this shorten
/// the playouts of the next.
pub const FEW_ITERATIONS: u64 = 4;

/// Searches on the clock that complete this many iterations lengthen the
/// playouts of the next, when they are cut.
pub const MANY_ITERATIONS: u64 = 32;

/// Past this many plies a playout cap is lifted.
const LONGEST_CUT: u32 = 1 << 12;

impl<G: Game> Uct<G> {
    pub fn new(params: UctParams, rng: GpRng) -> Uct<G> {
        Uct {
            params,
            rng,
            nodes: Vec::new(),
            scores: Vec::new(),
            path: Vec::new(),
            scratch: Vec::new(),
            dead_ends: 0,
            deadline: None,
            playout_plies: u32::MAX,
            given_up_at: None,
        }
    }

    /// The most plies a playout on the clock plays before it is scored
    /// (`u32::MAX`: no limit).
    pub fn playout_plies(&self) -> u32 {
        self.playout_plies
    }

    /// Forgets the tree.
    pub fn reset(&mut self) {
        self.nodes.clear();
    }

    /// Nodes in the tree.
    pub fn n_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Keeps the subtree under the joint move `joint` (one move per role, in
    /// role order, as [`Game::apply_joint`] takes them; in a turn of one
    /// role, the others' are ignored) as the tree for the next search, from
    /// the state that move leads to. Returns whether there was such a
    /// subtree; the tree is empty otherwise.
    pub fn advance(&mut self, joint: &[G::Move]) -> bool {
        let child = self.nodes.first().and_then(|root| {
            let key: Option<Box<[u32]>> = match &root.kind {
                Kind::Choice { choosers, .. } => choosers
                    .iter()
                    .map(|c| {
                        let mv = joint.get(usize::from(c.role))?;
                        c.moves.iter().position(|m| m == mv).map(|i| i as u32)
                    })
                    .collect(),
                Kind::Over(_) | Kind::Chance(..) => None,
            };
            root.children.get(&key?).copied()
        });
        match child {
            Some(id) => {
                self.reroot(id);
                true
            }
            None => {
                self.reset();
                false
            }
        }
    }

    /// Makes node `id` the root, keeping only its subtree (renumbered).
    fn reroot(&mut self, id: NodeId) {
        let mut old: Vec<Option<Node<G::State, G::Move>>> =
            std::mem::take(&mut self.nodes).into_iter().map(Some).collect();
        let Some(root) = old.get_mut(id as usize).and_then(Option::take) else { return };
        let mut kept = vec![root];
        let mut queue = VecDeque::from([0usize]);
        while let Some(at) = queue.pop_front() {
            let children = std::mem::take(&mut kept[at].children);
            let mut renumbered = FxHashMap::with_capacity_and_hasher(children.len(), Default::default());
            for (key, child) in children {
                if let Some(node) = old.get_mut(child as usize).and_then(Option::take) {
                    renumbered.insert(key, kept.len() as NodeId);
                    queue.push_back(kept.len());
                    kept.push(node);
                }
            }
            kept[at].children = renumbered;
        }
        self.nodes = kept;
    }

    /// Searches from `state` within `budget`. The tree kept by
    /// [`Uct::advance`] is used when there is one: it must be `state`'s.
    pub fn search(&mut self, game: &G, state: &G::State, budget: Budget) -> SearchStats {
        let started = Instant::now();
        self.dead_ends = 0;
        self.deadline = match budget {
            Budget::Iterations(_) => None,
            Budget::Until(deadline) => Some(deadline),
        };
        game.set_deadline(self.deadline);
        self.given_up_at = None;
        if self.nodes.is_empty() {
            match self.make_node(game, state.clone()) {
                Some(root) => self.nodes.push(root),
                None => {
                    game.set_deadline(None);
                    return SearchStats {
                        iterations: 0,
                        nodes: 0,
                        reused: 0,
                        elapsed: started.elapsed(),
                        dead_ends: 0,
                    };
                }
            }
        }
        let reused = self.nodes[0].visits;
        let mut iterations = 0u64;
        loop {
            let done = match budget {
                Budget::Iterations(n) => iterations >= n,
                Budget::Until(deadline) => iterations > 0 && Instant::now() >= deadline,
            };
            if done || !self.iterate(game) {
                break;
            }
            iterations += 1;
        }
        game.set_deadline(None);
        if self.deadline.is_some() {
            self.adapt_playout_plies(iterations);
        }
        SearchStats {
            iterations,
            nodes: self.nodes.len(),
            reused,
            elapsed: started.elapsed(),
            dead_ends: self.dead_ends,
        }
    }

    /// The move of `role` the search recommends at the root (the most
    /// visited), with its mean score; `None` when `role` has no choice there
    /// or there is no tree.
    pub fn best_move(&self, role: Role) -> Option<(G::Move, f64)> {
        let Kind::Choice { choosers, .. } = &self.nodes.first()?.kind else { return None };
        let chooser = choosers.iter().find(|c| c.role == role)?;
        let i = chooser.most_visited()?;
        Some((chooser.moves[i].clone(), chooser.mean(i)))
    }

    /// Searches `state` within `budget` and returns `role`'s move: the best
    /// one found, or its only legal move when it has no choice; `None` when
    /// it has no legal move (the game is over).
    pub fn choose(&mut self, game: &G, state: &G::State, role: Role, budget: Budget) -> Option<G::Move> {
        self.search(game, state, budget);
        if let Some((mv, _)) = self.best_move(role) {
            return Some(mv);
        }
        game.legal_moves_of(state, role, &mut self.scratch);
        self.scratch.first().cloned()
    }

    /// Shortens or lengthens the playouts of the next search on the clock
    /// by how many iterations this one completed.
    fn adapt_playout_plies(&mut self, iterations: u64) {
        if iterations < FEW_ITERATIONS {
            // The deadline may pass in the tree before a playout starts (the
            // engine is slow at every ply): the cap is halved then too.
            let reached = self.given_up_at.filter(|&p| p >= 2).map(|p| p / 2);
            let capped = (self.playout_plies != u32::MAX).then_some(self.playout_plies / 2);
            if let Some(plies) = reached.into_iter().chain(capped).min() {
                self.playout_plies = self.playout_plies.min(plies.max(1));
            }
        } else if iterations >= MANY_ITERATIONS && self.playout_plies != u32::MAX {
            self.playout_plies = if self.playout_plies >= LONGEST_CUT { u32::MAX } else { self.playout_plies * 2 };
        }
    }

    /// A random game from `state`: every role's score into `self.scores`
    /// (all 0 where the engine failed on the way, as at a dead end); `false`
    /// when the deadline came first.
    fn play_out(&mut self, game: &G, state: &G::State) -> bool {
        match self.deadline {
            Some(deadline) => {
                let end = game.random_playout_scores_until(
                    state,
                    &mut self.rng,
                    &mut self.scores,
                    deadline,
                    self.playout_plies,
                );
                if let PlayoutEnd::Late(plies) = end {
                    self.given_up_at = Some(self.given_up_at.map_or(plies, |p| p.max(plies)));
                    return false;
                }
            }
            None => game.random_playout_scores(state, &mut self.rng, &mut self.scores),
        }
        if game.take_error().is_some() {
            if self.late() {
                return false;
            }
            self.dead_ends += 1;
            self.scores.clear();
        }
        true
    }

    /// Whether the search's deadline has passed: an engine error then is
    /// the engine giving up on the clock, not a dead end of the game.
    fn late(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// A node for `state`, with its legal moves; `None` when the engine gave
    /// up on the clock.
    fn make_node(&mut self, game: &G, state: G::State) -> Option<Node<G::State, G::Move>> {
        let n_roles = game.n_roles();
        let over =
            |state: &G::State| Kind::Over((0..n_roles).map(|r| game.score(state, r as Role).unwrap_or(0)).collect());
        let kind = match game.turn(&state) {
            Turn::Over => over(&state),
            Turn::Role(r) => {
                let mut moves = Vec::new();
                game.legal_moves(&state, &mut moves);
                if moves.is_empty() {
                    over(&state)
                } else {
                    Kind::Choice { simultaneous: false, choosers: vec![Chooser::new(r, moves)] }
                }
            }
            Turn::Simultaneous => {
                let mut choosers = Vec::with_capacity(n_roles);
                for r in 0..n_roles {
                    let mut moves = Vec::new();
                    game.legal_moves_of(&state, r as Role, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    choosers.push(Chooser::new(r as Role, moves));
                }
                if choosers.len() < n_roles { over(&state) } else { Kind::Choice { simultaneous: true, choosers } }
            }
            Turn::Chance => {
                let mut moves = Vec::new();
                game.legal_moves(&state, &mut moves);
                if moves.is_empty() {
                    over(&state)
                } else {
                    let mut weights = Vec::new();
                    game.chance_weights(&state, &moves, &mut weights);
                    Kind::Chance(moves, weights)
                }
            }
        };
        // An engine that failed on this state (GDL rules where a role has no
        // legal move) makes it a dead end that scores 0 for every role: a
        // search reaches states no match may ever reach, so the error is
        // counted here instead of ending the caller's game.
        let kind = match game.take_error() {
            Some(_) if self.late() => return None,
            Some(_) => {
                self.dead_ends += 1;
                Kind::Over(vec![0; n_roles])
            }
            None => kind,
        };
        Some(Node { state, kind, visits: 0, children: FxHashMap::default() })
    }

    /// One iteration: select, expand one node, play out, back up; `false`
    /// when the deadline stopped the playout (nothing is backed up).
    fn iterate(&mut self, game: &G) -> bool {
        self.path.clear();
        let mut id: NodeId = 0;
        let mut leaf = None;
        loop {
            let node = &self.nodes[id as usize];
            let key: Box<[u32]> = match &node.kind {
                Kind::Over(scores) => {
                    self.scores.clone_from(scores);
                    leaf = Some(id);
                    break;
                }
                Kind::Choice { choosers, .. } => {
                    choosers.iter().map(|c| c.select(self.params.exploration, &mut self.rng)).collect()
                }
                Kind::Chance(_, weights) => Box::new([weighted_index(weights, self.rng.random::<f64>())]),
            };
            if let Some(&child) = node.children.get(&key) {
                self.path.push((id, key));
                id = child;
                continue;
            }
            let next = match &node.kind {
                Kind::Choice { simultaneous: false, choosers } => {
                    game.apply(&node.state, &choosers[0].moves[key[0] as usize])
                }
                Kind::Choice { simultaneous: true, choosers } => {
                    let joint: Vec<G::Move> =
                        choosers.iter().zip(key.iter()).map(|(c, &i)| c.moves[i as usize].clone()).collect();
                    game.apply_joint(&node.state, &joint)
                }
                Kind::Chance(outcomes, _) => game.apply(&node.state, &outcomes[key[0] as usize]),
                Kind::Over(scores) => {
                    // Not reached: an ended game stops the walk above.
                    self.scores.clone_from(scores);
                    leaf = Some(id);
                    break;
                }
            };
            self.path.push((id, key.clone()));
            if self.nodes.len() < self.params.max_nodes {
                let Some(child) = self.make_node(game, next) else { return false };
                let played = match &child.kind {
                    Kind::Over(scores) => {
                        self.scores.clone_from(scores);
                        true
                    }
                    _ => self.play_out(game, &child.state),
                };
                let child_id = self.nodes.len() as NodeId;
                self.nodes.push(child);
                self.nodes[id as usize].children.insert(key, child_id);
                if !played {
                    return false;
                }
                leaf = Some(child_id);
            } else if !self.play_out(game, &next) {
                return false;
            }
            break;
        }
        self.scores.resize(game.n_roles(), 0);
        for (id, key) in &self.path {
            let node = &mut self.nodes[*id as usize];
            node.visits += 1;
            if let Kind::Choice { choosers, .. } = &mut node.kind {
                for (c, &i) in choosers.iter_mut().zip(key.iter()) {
                    c.visits[i as usize] += 1;
                    c.sums[i as usize] += f64::from(self.scores[usize::from(c.role)]);
                    c.total += 1;
                }
            }
        }
        if let Some(leaf) = leaf {
            self.nodes[leaf as usize].visits += 1;
        }
        true
    }
}

/// The index that `u` (uniform in [0, 1)) falls on when `weights` are laid
/// end to end.
fn weighted_index(weights: &[f64], u: f64) -> u32 {
    let total: f64 = weights.iter().filter(|w| **w > 0.0).sum();
    let mut target = u * total;
    let mut last = 0;
    for (i, &w) in weights.iter().enumerate() {
        if w > 0.0 {
            if target < w {
                return i as u32;
            }
            target -= w;
            last = i as u32;
        }
    }
    last
}

/// How long a [`UctPlayer`] thinks per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Think {
    Iterations(u64),
    Time(Duration),
}

impl Think {
    /// The budget of a search that starts now.
    pub fn budget(self) -> Budget {
        match self {
            Think::Iterations(n) => Budget::Iterations(n),
            Think::Time(d) => Budget::Until(Instant::now() + d),
        }
    }
}

#[cfg(test)]
mod tests;
