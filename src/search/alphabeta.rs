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

use std::ops::ControlFlow;

use rand::RngExt;

use crate::games::{GameResult, Player, TwoPlayer};
use crate::rng::GpRng;

/// Evaluates positions: higher is better for `me`.
pub trait Evaluator<G: TwoPlayer> {
    fn evaluate(&mut self, game: &G, state: &G::State, me: Player) -> f64;
    /// Whether the value is a function of the position and the player
    /// alone (not drawn at random), so that it is worth showing.
    fn deterministic(&self) -> bool {
        true
    }
}

/// Depth and forward-pruning settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchParams {
    /// Plies searched (1 = evaluate each legal move's result).
    pub depth: u32,
    pub selective_ratio: Option<f64>,
    pub max_branching: Option<usize>,
    pub full_search_depth: u32,
    /// How a player using these settings chooses among equally valued moves.
    pub ties: Ties,
    /// Whose point of view leaves are evaluated from.
    pub perspective: Perspective,
    /// Opposing joint moves sampled at a simultaneous turn, by the search
    /// of games that have them (`search::sampled`); α-β has no use for it.
    pub samples: u32,
}

/// Whose point of view the evaluation function takes at the leaves. The two
/// agree for an antisymmetric function such as material (f(s, me) = −f(s, other)),
/// not for an evolved one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Perspective {
    /// The player to move at the leaf (negamax): "friendly" is the side to move.
    #[default]
    Mover,
    /// The searching player, whoever moves at the leaf: "friendly" is always the
    /// player whose move is being chosen.
    Root,
}

/// How a searching player chooses among equally valued root moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Ties {
    /// Uniformly at random, from the player's own seeded stream, so that two
    /// deterministic evaluators do not replay one game over and over.
    #[default]
    Random,
    /// The first in the game's move order: classical α-β, deterministic.
    First,
}

impl SearchParams {
    pub fn full(depth: u32) -> SearchParams {
        SearchParams {
            depth,
            selective_ratio: None,
            max_branching: None,
            full_search_depth: 0,
            ties: Ties::Random,
            perspective: Perspective::Mover,
            samples: super::sampled::DEFAULT_SAMPLES,
        }
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

/// The value of a decided game for `me`, `ply` plies below the root: a win
/// found sooner scores higher.
fn decided(result: GameResult, me: Player, ply: u32) -> f64 {
    match result {
        GameResult::Draw => 0.0,
        GameResult::Winner(w) if w == me => WIN - f64::from(ply),
        GameResult::Winner(_) => -(WIN - f64::from(ply)),
    }
}

/// Raises `best` and `alpha` to a child's value `v`; whether α has reached
/// β. Values are never NaN (leaves pass through `sane`), so plain
/// comparisons do what `f64::max` would, without its NaN handling.
#[inline(always)]
fn cut_off(best: &mut f64, alpha: &mut f64, v: f64, beta: f64) -> bool {
    if v > *best {
        *best = v;
    }
    if v > *alpha {
        *alpha = v;
    }
    *alpha >= beta
}

/// The evaluator of leaves and, optionally, a separate one ranking siblings.
/// The leaf evaluator's type is a parameter so that a player whose evaluator
/// is known (material) gets a search with it inlined: a `dyn` call per leaf
/// was a tenth of a checkers search.
pub struct Evals<'a, G: TwoPlayer, E: Evaluator<G> + ?Sized = dyn Evaluator<G>> {
    pub eval: &'a mut E,
    pub order: Option<&'a mut dyn Evaluator<G>>,
}

/// A reusable α-β searcher: move buffers per ply are kept between searches.
pub struct AlphaBeta<G: TwoPlayer> {
    pub params: SearchParams,
    buffers: Vec<Vec<G::Move>>,
    /// States visited by the last call of [`AlphaBeta::choose`].
    pub expanded: u64,
    /// Breaks ties between equally good moves at random when set; without it
    /// the earlier legal move wins.
    pub tie_break: Option<GpRng>,
    /// The player whose move the current search chooses.
    root: Player,
}

impl<G: TwoPlayer> AlphaBeta<G> {
    pub fn new(params: SearchParams) -> AlphaBeta<G> {
        AlphaBeta {
            params,
            buffers: (0..=params.depth).map(|_| Vec::new()).collect(),
            expanded: 0,
            tie_break: None,
            root: 0,
        }
    }

    /// A searcher that breaks ties at random, from `rng`: players do, so that
    /// two deterministic players do not replay the same game over and over.
    pub fn with_tie_break(params: SearchParams, rng: GpRng) -> AlphaBeta<G> {
        AlphaBeta { tie_break: Some(rng), ..AlphaBeta::new(params) }
    }

    /// The index in `moves` (the legal moves of `state`) of the best move.
    /// Root moves are searched in a random order when ties are broken at
    /// random (the first best move of a uniformly shuffled order is uniform
    /// among the best), else in the order given, the earlier winning ties.
    pub fn choose<E: Evaluator<G> + ?Sized>(
        &mut self,
        game: &G,
        state: &G::State,
        moves: &[G::Move],
        evals: &mut Evals<G, E>,
    ) -> usize {
        self.search_root(game, state, moves, evals, None)
    }

    /// [`AlphaBeta::choose`], and the value of each move of `moves` for the
    /// player to move, searched to the full depth with a full window (exact
    /// where `choose` stops at a bound, so it costs more): a decided game is
    /// worth about ±[`WIN`], an evaluation at most ±10⁸. A move that forward
    /// pruning drops at the root has none. With an evaluation that draws no
    /// random numbers the move chosen is `choose`'s: the first best in the
    /// same order.
    pub fn choose_with_values<E: Evaluator<G> + ?Sized>(
        &mut self,
        game: &G,
        state: &G::State,
        moves: &[G::Move],
        evals: &mut Evals<G, E>,
    ) -> (usize, Vec<Option<f64>>) {
        let mut values = vec![None; moves.len()];
        let best = self.search_root(game, state, moves, evals, Some(&mut values));
        (best, values)
    }

    /// The root of a search: the index of the best move, and with `values`
    /// every candidate's exact value written there.
    fn search_root<E: Evaluator<G> + ?Sized>(
        &mut self,
        game: &G,
        state: &G::State,
        moves: &[G::Move],
        evals: &mut Evals<G, E>,
        mut values: Option<&mut Vec<Option<f64>>>,
    ) -> usize {
        self.expanded = 1;
        let me = game.to_move(state);
        self.root = me;
        let children: Vec<G::State> = moves.iter().map(|m| game.apply(state, m)).collect();
        let mut candidates: Vec<usize> = (0..moves.len()).collect();
        if self.params.is_selective() && self.params.depth >= 2 && self.params.full_search_depth == 0 {
            candidates = self.rank(game, &children, me, evals);
            // Ties between kept moves go to the earlier legal move, as without pruning.
            candidates.sort_unstable();
        }
        if let Some(rng) = self.tie_break.as_mut() {
            for i in (1..candidates.len()).rev() {
                candidates.swap(i, rng.random_range(0..=i));
            }
        }
        let (mut best, mut alpha) = (candidates.first().copied().unwrap_or(0), f64::NEG_INFINITY);
        for &i in &candidates {
            let beta = if values.is_some() { f64::INFINITY } else { -alpha };
            let v = -self.search(game, &children[i], self.params.depth - 1, 1, f64::NEG_INFINITY, beta, evals);
            if let Some(slot) = values.as_deref_mut().and_then(|vs| vs.get_mut(i)) {
                *slot = Some(v);
            }
            if v > alpha {
                alpha = v;
                best = i;
            }
        }
        best
    }

    /// Ranks children best first for `mover` by `order` if given, else by
    /// `eval`; returns the indices kept.
    fn rank<E: Evaluator<G> + ?Sized>(
        &mut self,
        game: &G,
        children: &[G::State],
        mover: Player,
        evals: &mut Evals<G, E>,
    ) -> Vec<usize> {
        match evals.order.as_mut() {
            Some(order) => self.rank_by(game, children, mover, &mut **order),
            None => self.rank_by(game, children, mover, &mut *evals.eval),
        }
    }

    fn rank_by<R: Evaluator<G> + ?Sized>(
        &mut self,
        game: &G,
        children: &[G::State],
        mover: Player,
        order: &mut R,
    ) -> Vec<usize> {
        let mut scored: Vec<(f64, usize)> =
            children.iter().enumerate().map(|(i, c)| (sane(order.evaluate(game, c, mover)), i)).collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.truncate(self.params.keep(children.len()));
        scored.into_iter().map(|(_, i)| i).collect()
    }

    /// The value of a leaf for the player to move there: its result if the
    /// game is over, else its evaluation from the searcher's perspective.
    #[inline(always)]
    fn leaf<E: Evaluator<G> + ?Sized>(&self, game: &G, state: &G::State, ply: u32, evals: &mut Evals<G, E>) -> f64 {
        let me = game.to_move(state);
        if let Some(result) = game.result(state) {
            return decided(result, me, ply);
        }
        match self.params.perspective {
            Perspective::Mover => sane(evals.eval.evaluate(game, state, me)),
            Perspective::Root if me == self.root => sane(evals.eval.evaluate(game, state, me)),
            Perspective::Root => -sane(evals.eval.evaluate(game, state, self.root)),
        }
    }

    /// Negamax value of `state` for the player to move.
    #[allow(clippy::too_many_arguments)]
    fn search<E: Evaluator<G> + ?Sized>(
        &mut self,
        game: &G,
        state: &G::State,
        depth: u32,
        ply: u32,
        mut alpha: f64,
        beta: f64,
        evals: &mut Evals<G, E>,
    ) -> f64 {
        if depth == 0 {
            return self.leaf(game, state, ply, evals);
        }
        let me = game.to_move(state);
        if depth == 1 {
            // The leaves' parents, most of a search's interior nodes: the
            // leaves are valued as the game visits them, without a call per
            // leaf, and the rest are never made once one cuts off.
            let mut moves = std::mem::take(&mut self.buffers[ply as usize]);
            let mut best = f64::NEG_INFINITY;
            let over = game.result_or_children(state, &mut moves, |child| {
                let v = -self.leaf(game, child, ply + 1, evals);
                if cut_off(&mut best, &mut alpha, v, beta) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            });
            self.buffers[ply as usize] = moves;
            if let Some(result) = over {
                return decided(result, me, ply);
            }
            self.expanded += 1;
            return best;
        }
        let mut moves = std::mem::take(&mut self.buffers[ply as usize]);
        if let Some(result) = game.result_or_moves(state, &mut moves) {
            self.buffers[ply as usize] = moves;
            return decided(result, me, ply);
        }
        self.expanded += 1;
        let prune = self.params.is_selective() && depth >= 2 && ply >= self.params.full_search_depth;
        let mut best = f64::NEG_INFINITY;
        if prune {
            let children: Vec<G::State> = moves.iter().map(|m| game.apply(state, m)).collect();
            for i in self.rank(game, &children, me, evals) {
                let v = -self.search(game, &children[i], depth - 1, ply + 1, -beta, -alpha, evals);
                if cut_off(&mut best, &mut alpha, v, beta) {
                    break;
                }
            }
        } else {
            // Children are made one at a time: a cut-off spares the rest. (One
            // loop over a chain of both kinds of children measured a third slower.)
            for m in &moves {
                let v = -self.search(game, &game.apply(state, m), depth - 1, ply + 1, -beta, -alpha, evals);
                if cut_off(&mut best, &mut alpha, v, beta) {
                    break;
                }
            }
        }
        self.buffers[ply as usize] = moves;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::games::checkers::Checkers;
    use crate::games::domain::GpDomain;
    use crate::games::morris::Morris;
    use crate::rng::stream;
    use rand::RngExt;

    /// Material plus a position-dependent tie-breaker, so that values differ.
    struct Noisy;

    impl<G: GpDomain + TwoPlayer> Evaluator<G> for Noisy
    where
        G::State: std::fmt::Debug,
    {
        fn evaluate(&mut self, game: &G, state: &G::State, me: Player) -> f64 {
            let h = format!("{state:?}").bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
            game.material(state, me) + (h % 1000) as f64 / 1000.0
        }
    }

    /// Plain negamax without pruning: the reference α-β must agree with.
    fn minimax<G: GpDomain + TwoPlayer>(game: &G, state: &G::State, depth: u32, ply: u32) -> f64
    where
        G::State: std::fmt::Debug,
    {
        let me = game.to_move(state);
        if let Some(r) = game.result(state) {
            return decided(r, me, ply);
        }
        if depth == 0 {
            return Noisy.evaluate(game, state, me);
        }
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        moves
            .iter()
            .map(|m| -minimax(game, &game.apply(state, m), depth - 1, ply + 1))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    fn root_choice<G: GpDomain + TwoPlayer>(game: &G, state: &G::State, depth: u32) -> usize
    where
        G::State: std::fmt::Debug,
    {
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        let values: Vec<f64> = moves.iter().map(|m| -minimax(game, &game.apply(state, m), depth - 1, 1)).collect();
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        values.iter().position(|v| *v == best).unwrap_or(0)
    }

    fn positions<G: GpDomain + TwoPlayer>(game: &G, n: u64) -> Vec<G::State> {
        let mut out = Vec::new();
        for seed in 0..n {
            let mut rng = stream(seed, &[77]);
            let mut state = game.initial_state();
            let mut moves = Vec::new();
            let plies = rng.random_range(0..30);
            for _ in 0..plies {
                game.legal_moves(&state, &mut moves);
                if moves.is_empty() {
                    break;
                }
                state = game.apply(&state, &moves[rng.random_range(0..moves.len())]);
            }
            game.legal_moves(&state, &mut moves);
            if !moves.is_empty() {
                out.push(state);
            }
        }
        out
    }

    fn agrees_with_minimax<G: GpDomain + TwoPlayer>(game: &G)
    where
        G::State: std::fmt::Debug,
    {
        for state in positions(game, 25) {
            let mut moves = Vec::new();
            game.legal_moves(&state, &mut moves);
            for depth in 1..=3 {
                let mut ab = AlphaBeta::<G>::new(SearchParams::full(depth));
                let mut eval = Noisy;
                let chosen = ab.choose(game, &state, &moves, &mut Evals { eval: &mut eval, order: None });
                assert_eq!(chosen, root_choice(game, &state, depth), "depth {depth} at {state:?}");
                // A ratio of 1 prunes nothing: the same move.
                let mut sel =
                    AlphaBeta::<G>::new(SearchParams { selective_ratio: Some(1.0), ..SearchParams::full(depth) });
                assert_eq!(sel.choose(game, &state, &moves, &mut Evals { eval: &mut Noisy, order: None }), chosen);
                // The values shown beside the moves are negamax's, and the move is the same.
                let (valued, values) = AlphaBeta::<G>::new(SearchParams::full(depth)).choose_with_values(
                    game,
                    &state,
                    &moves,
                    &mut Evals { eval: &mut Noisy, order: None },
                );
                assert_eq!(valued, chosen, "depth {depth} at {state:?}");
                let exact: Vec<Option<f64>> =
                    moves.iter().map(|m| Some(-minimax(game, &game.apply(&state, m), depth - 1, 1))).collect();
                assert_eq!(values, exact, "depth {depth} at {state:?}");
                // With random ties, the same move as `choose` from the same stream.
                let tie = |seed| AlphaBeta::<G>::with_tie_break(SearchParams::full(depth), stream(seed, &[5]));
                for seed in 0..3 {
                    let plain = tie(seed).choose(game, &state, &moves, &mut Evals { eval: &mut Noisy, order: None });
                    let (with_values, _) = tie(seed).choose_with_values(
                        game,
                        &state,
                        &moves,
                        &mut Evals { eval: &mut Noisy, order: None },
                    );
                    assert_eq!(plain, with_values, "seed {seed}, depth {depth}");
                }
            }
        }
    }

    /// An evaluator that is not antisymmetric: the evaluated player's men plus the noise.
    struct Lopsided;

    impl Evaluator<Morris> for Lopsided {
        fn evaluate(&mut self, game: &Morris, state: &<Morris as Game>::State, me: Player) -> f64 {
            f64::from(state.n_men(me)) * 3.0 + Noisy.evaluate(game, state, me)
        }
    }

    /// Max/min search of the root player's values (no negation of evaluations).
    fn root_minimax(game: &Morris, state: &<Morris as Game>::State, depth: u32, ply: u32, root: Player) -> f64 {
        if let Some(r) = game.result(state) {
            return decided(r, root, ply);
        }
        if depth == 0 {
            return Lopsided.evaluate(game, state, root);
        }
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        let values = moves.iter().map(|m| root_minimax(game, &game.apply(state, m), depth - 1, ply + 1, root));
        if game.to_move(state) == root {
            values.fold(f64::NEG_INFINITY, f64::max)
        } else {
            values.fold(f64::INFINITY, f64::min)
        }
    }

    #[test]
    fn root_perspective_evaluates_every_leaf_for_the_searching_player() {
        let game = Morris::standard();
        let mut differs = false;
        for state in positions(&game, 25) {
            let mut moves = Vec::new();
            game.legal_moves(&state, &mut moves);
            let root = game.to_move(&state);
            for depth in 1..=3 {
                let values: Vec<f64> =
                    moves.iter().map(|m| root_minimax(&game, &game.apply(&state, m), depth - 1, 1, root)).collect();
                let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let expected = values.iter().position(|v| *v == best).unwrap_or(0);
                let params = SearchParams { perspective: Perspective::Root, ..SearchParams::full(depth) };
                let mut ab = AlphaBeta::<Morris>::new(params);
                let chosen = ab.choose(&game, &state, &moves, &mut Evals { eval: &mut Lopsided, order: None });
                assert_eq!(chosen, expected, "depth {depth} at {state:?}");
                let mut mover = AlphaBeta::<Morris>::new(SearchParams::full(depth));
                differs |=
                    mover.choose(&game, &state, &moves, &mut Evals { eval: &mut Lopsided, order: None }) != chosen;
            }
        }
        assert!(differs, "the two perspectives should disagree somewhere with a lopsided evaluator");
    }

    #[test]
    fn alphabeta_chooses_what_minimax_chooses() {
        agrees_with_minimax(&Checkers::lose());
        agrees_with_minimax(&Morris::standard());
    }

    /// What a game answers for a node (`result_or_moves`, the children
    /// `result_or_children` visits, up to where the visitor stops) is what
    /// `result`, `legal_moves` and `apply` say, in the same order, along
    /// random games to their ends.
    fn answers_nodes_as_the_defaults<G: TwoPlayer>(game: &G, n_games: u64)
    where
        G::State: std::fmt::Debug + PartialEq,
        G::Move: std::fmt::Debug,
    {
        let (mut moves, mut listed) = (Vec::new(), Vec::new());
        for seed in 0..n_games {
            let mut rng = stream(seed, &[78]);
            let mut state = game.initial_state();
            for ply in 0usize.. {
                let result = game.result(&state);
                moves.clear();
                if result.is_none() {
                    game.legal_moves(&state, &mut moves);
                }
                assert_eq!(game.result_or_moves(&state, &mut listed), result, "{state:?}");
                if result.is_none() {
                    assert_eq!(listed, moves, "{state:?}");
                }
                let children: Vec<G::State> = moves.iter().map(|m| game.apply(&state, m)).collect();
                let stop_after = ply % (children.len() + 1);
                let mut visited = Vec::new();
                let over = game.result_or_children(&state, &mut listed, |child| {
                    visited.push(child.clone());
                    if visited.len() > stop_after { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
                });
                assert_eq!(over, result, "{state:?}");
                assert_eq!(visited, children[..children.len().min(stop_after + 1)], "{state:?}");
                if result.is_some() {
                    break;
                }
                state = children[rng.random_range(0..children.len())].clone();
            }
        }
    }

    #[test]
    fn games_answer_nodes_as_the_defaults_do() {
        answers_nodes_as_the_defaults(&Checkers::lose(), 200);
        answers_nodes_as_the_defaults(&Checkers::american(), 50);
        answers_nodes_as_the_defaults(&Morris::standard(), 100);
        answers_nodes_as_the_defaults(&Morris::no_flying(), 50);
    }

    #[test]
    fn forward_pruning_expands_fewer_states() {
        let game = Morris::standard();
        let mut full_total = 0;
        let mut pruned_total = 0;
        for state in positions(&game, 20) {
            let mut moves = Vec::new();
            game.legal_moves(&state, &mut moves);
            let mut full = AlphaBeta::<Morris>::new(SearchParams::full(3));
            full.choose(&game, &state, &moves, &mut Evals { eval: &mut Noisy, order: None });
            let params = SearchParams { max_branching: Some(2), ..SearchParams::full(3) };
            let mut pruned = AlphaBeta::<Morris>::new(params);
            pruned.choose(&game, &state, &moves, &mut Evals { eval: &mut Noisy, order: None });
            // Root, at most 2 children, at most 2 grandchildren each are expanded.
            assert!(pruned.expanded <= 1 + 2 + 4, "{}", pruned.expanded);
            full_total += full.expanded;
            pruned_total += pruned.expanded;
        }
        assert!(pruned_total < full_total);
    }
}
