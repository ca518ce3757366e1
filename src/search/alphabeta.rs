//! α-β search in negamax form, with forward pruning (seeds/002, section 3):
//!
//! - *SelectiveSearchRatio* r in (0, 1]: of the n children of a node that
//!   would be expanded further, only the best ⌈r·n⌉ are;
//! - *MaxBranchingFactor* m: at most m children are expanded further;
//! - *FullSearchDepth* f: nodes less than f plies below the root are never pruned.
//!
//! Children are ranked by a second evaluation function (an individual's
//! `order` tree, or its `eval` tree), from the point of view of the player
//! choosing among them. Children at the last ply are evaluated, not expanded,
//! so pruning applies only where the remaining depth is at least 2.
//!
//! "States expanded" counts the states whose successors the search generates
//! (the root and every interior node); leaves are evaluated, not expanded.

use crate::games::{Game, GameResult, Player};

/// Evaluates positions: higher is better for `me`.
pub trait Evaluator<G: Game> {
    fn evaluate(&mut self, game: &G, state: &G::State, me: Player) -> f64;
}

/// Depth and forward-pruning settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchParams {
    /// Plies searched (1 = evaluate each legal move's result).
    pub depth: u32,
    pub selective_ratio: Option<f64>,
    pub max_branching: Option<usize>,
    pub full_search_depth: u32,
}

impl SearchParams {
    pub fn full(depth: u32) -> SearchParams {
        SearchParams { depth, selective_ratio: None, max_branching: None, full_search_depth: 0 }
    }

    pub fn is_selective(&self) -> bool {
        self.selective_ratio.is_some() || self.max_branching.is_some()
    }

    /// How many of `n` children are expanded further.
    pub fn keep(&self, n: usize) -> usize {
        let by_ratio = self.selective_ratio.map_or(n, |r| ((r * n as f64).ceil() as usize).max(1));
        let by_cap = self.max_branching.map_or(n, |m| m.max(1));
        by_ratio.min(by_cap).min(n)
    }
}

/// The value of a won position; a win found sooner scores higher.
pub const WIN: f64 = 1.0e9;
/// Evaluations are kept below decided positions: NaN counts as 0 and
/// anything beyond ±1e8 is clamped, so an evolved function cannot outrank a win.
const EVAL_LIMIT: f64 = 1.0e8;

fn sane(v: f64) -> f64 {
    if v.is_nan() { 0.0 } else { v.clamp(-EVAL_LIMIT, EVAL_LIMIT) }
}

/// The evaluator of leaves and, optionally, a separate one ranking siblings.
pub struct Evals<'a, G: Game> {
    pub eval: &'a mut dyn Evaluator<G>,
    pub order: Option<&'a mut dyn Evaluator<G>>,
}

impl<G: Game> Evals<'_, G> {
    /// The evaluator that ranks siblings: `order` if given, else `eval`.
    fn ranker(&mut self) -> &mut dyn Evaluator<G> {
        match self.order.as_mut() {
            Some(o) => &mut **o,
            None => &mut *self.eval,
        }
    }
}

/// A reusable α-β searcher: move buffers per ply are kept between searches.
pub struct AlphaBeta<G: Game> {
    pub params: SearchParams,
    buffers: Vec<Vec<G::Move>>,
    /// States visited by the last call of [`AlphaBeta::choose`].
    pub expanded: u64,
}

impl<G: Game> AlphaBeta<G> {
    pub fn new(params: SearchParams) -> AlphaBeta<G> {
        AlphaBeta { params, buffers: (0..=params.depth).map(|_| Vec::new()).collect(), expanded: 0 }
    }

    /// The index in `moves` (the legal moves of `state`) of the best move.
    /// Ties go to the earlier move, so the choice is deterministic.
    pub fn choose(&mut self, game: &G, state: &G::State, moves: &[G::Move], evals: &mut Evals<G>) -> usize {
        self.expanded = 1;
        let me = game.to_move(state);
        let children: Vec<G::State> = moves.iter().map(|m| game.apply(state, m)).collect();
        let mut candidates: Vec<usize> = (0..moves.len()).collect();
        if self.params.is_selective() && self.params.depth >= 2 && self.params.full_search_depth == 0 {
            candidates = self.rank(game, &children, me, evals.ranker());
        }
        let (mut best, mut alpha) = (candidates.first().copied().unwrap_or(0), f64::NEG_INFINITY);
        for &i in &candidates {
            let v = -self.search(game, &children[i], self.params.depth - 1, 1, f64::NEG_INFINITY, -alpha, evals);
            if v > alpha {
                alpha = v;
                best = i;
            }
        }
        best
    }

    /// Ranks children best first for `mover`; returns the indices kept.
    fn rank(&mut self, game: &G, children: &[G::State], mover: Player, order: &mut dyn Evaluator<G>) -> Vec<usize> {
        let mut scored: Vec<(f64, usize)> =
            children.iter().enumerate().map(|(i, c)| (sane(order.evaluate(game, c, mover)), i)).collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.truncate(self.params.keep(children.len()));
        scored.into_iter().map(|(_, i)| i).collect()
    }

    /// Negamax value of `state` for the player to move.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        game: &G,
        state: &G::State,
        depth: u32,
        ply: u32,
        mut alpha: f64,
        beta: f64,
        evals: &mut Evals<G>,
    ) -> f64 {
        let me = game.to_move(state);
        if let Some(result) = game.result(state) {
            return match result {
                GameResult::Draw => 0.0,
                GameResult::Winner(w) if w == me => WIN - f64::from(ply),
                GameResult::Winner(_) => -(WIN - f64::from(ply)),
            };
        }
        if depth == 0 {
            return sane(evals.eval.evaluate(game, state, me));
        }
        self.expanded += 1;
        let mut moves = std::mem::take(&mut self.buffers[ply as usize]);
        game.legal_moves(state, &mut moves);
        let children: Vec<G::State> = moves.iter().map(|m| game.apply(state, m)).collect();
        self.buffers[ply as usize] = moves;
        let prune = self.params.is_selective() && depth >= 2 && ply >= self.params.full_search_depth;
        let candidates: Vec<usize> =
            if prune { self.rank(game, &children, me, evals.ranker()) } else { (0..children.len()).collect() };
        let mut best = f64::NEG_INFINITY;
        for i in candidates {
            let v = -self.search(game, &children[i], depth - 1, ply + 1, -beta, -alpha, evals);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}
