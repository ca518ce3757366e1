//! Depth-limited search for one role of any game, simultaneous moves and
//! more than two roles included: nnrg.hazel's search (seeds/004, section
//! III-B), as docs/GDL.md ("Search in any game") reads it.
//!
//! The searching role `me` maximises its own value; every other role is
//! assumed to play against it (the paranoid reduction of n players to two,
//! robust against coalitions). In a turn of one role, that role's moves are
//! searched in full with α-β pruning. In a simultaneous turn, the other
//! roles' joint moves are not all searched: a sample of `samples` of them is
//! drawn once for the node (each role's move uniformly at random), and each
//! of `me`'s moves is worth the least it gets against the sample, so the
//! move chosen is the best response to that subset of the opponents' moves.
//! When the opponents have no more joint moves than the sample's size, all
//! of them are searched, in order, and the search is exact.
//!
//! Leaves are evaluated for `me` whoever is to move (the evaluator of a
//! role, as the paper evolves one per role); terminal states score `me`'s
//! goal value, beyond any evaluation: (goal − 50) × 10⁷, a decided
//! result sooner counting more. Evaluations are clamped to ±10⁶ (NaN is 0).

use std::time::Instant;

use rand::RngExt;

use crate::games::{Game, Role, Turn};
use crate::rng::GpRng;

/// How deep to search and how many opposing joint moves to sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SampledParams {
    /// Turns searched (1 = evaluate the state after each of `me`'s moves).
    pub depth: u32,
    /// Opposing joint moves sampled at a simultaneous turn.
    pub samples: u32,
}

/// The sample size when none is given: the paper does not state its own.
pub const DEFAULT_SAMPLES: u32 = 4;

impl SampledParams {
    pub fn new(depth: u32) -> SampledParams {
        SampledParams { depth, samples: DEFAULT_SAMPLES }
    }
}

/// The value of one goal point at a terminal state.
const GOAL_UNIT: f64 = 1.0e7;
/// Evaluations are kept within this, below every decided result but a draw.
const EVAL_LIMIT: f64 = 1.0e6;

fn sane(v: f64) -> f64 {
    if v.is_nan() { 0.0 } else { v.clamp(-EVAL_LIMIT, EVAL_LIMIT) }
}

/// The search ran past its deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfTime;

/// A reusable search: its random stream draws the samples and breaks ties
/// between equally valued moves at the root.
pub struct SampledSearch {
    pub params: SampledParams,
    rng: GpRng,
    /// States whose successors the last search generated.
    pub expanded: u64,
    deadline: Option<Instant>,
    me: Role,
}

impl SampledSearch {
    pub fn new(params: SampledParams, rng: GpRng) -> SampledSearch {
        SampledSearch { params, rng, expanded: 0, deadline: None, me: 0 }
    }

    /// The index, in `me`'s legal moves of `state` ([`Game::legal_moves_of`]),
    /// of the move the search chooses; `None` when `me` has none.
    pub fn choose<G: Game>(
        &mut self,
        game: &G,
        state: &G::State,
        me: Role,
        eval: &mut dyn FnMut(&G::State, Role) -> f64,
    ) -> Option<usize> {
        self.deadline = None;
        self.root(game, state, me, self.params.depth, eval, None).ok().flatten()
    }

    /// [`SampledSearch::choose`], and the value of each of `me`'s legal
    /// moves for `me`, searched to the full depth with a full window (exact
    /// where `choose` stops at a bound): a decided game is worth its goal
    /// value's distance from 50 times 10⁷, an evaluation at most ±10⁶.
    /// With an evaluation that draws no random numbers, and no simultaneous
    /// turn below the root (where the sample drawn depends on what was
    /// searched before), the move is `choose`'s.
    pub fn choose_with_values<G: Game>(
        &mut self,
        game: &G,
        state: &G::State,
        me: Role,
        eval: &mut dyn FnMut(&G::State, Role) -> f64,
    ) -> Option<(usize, Vec<f64>)> {
        self.deadline = None;
        let mut values = Vec::new();
        let best = self.root(game, state, me, self.params.depth, eval, Some(&mut values)).ok().flatten()?;
        Some((best, values))
    }

    /// Iterative deepening from depth 1 to `params.depth` until `deadline`:
    /// the move of the deepest search that finished, or of depth 1's
    /// partial search (the first legal move if not even one child was
    /// valued). Also the depth finished (0 if none).
    pub fn choose_by<G: Game>(
        &mut self,
        game: &G,
        state: &G::State,
        me: Role,
        deadline: Instant,
        eval: &mut dyn FnMut(&G::State, Role) -> f64,
    ) -> (Option<usize>, u32) {
        let mut legal = Vec::new();
        game.legal_moves_of(state, me, &mut legal);
        self.deadline = Some(deadline);
        // The engine gives up a state still being reasoned about at the
        // deadline, as the search does (its error then says so only).
        game.set_deadline(Some(deadline));
        let mut best = None;
        let mut finished = 0;
        for depth in 1..=self.params.depth.max(1) {
            match self.root(game, state, me, depth, eval, None) {
                Ok(choice) => {
                    best = choice;
                    finished = depth;
                }
                Err(OutOfTime) => break,
            }
            if Instant::now() >= deadline {
                break;
            }
        }
        self.deadline = None;
        game.set_deadline(None);
        if Instant::now() >= deadline {
            let _ = game.take_error();
        }
        (best.or((!legal.is_empty()).then_some(0)), finished)
    }

    fn check_time(&self) -> Result<(), OutOfTime> {
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(OutOfTime),
            _ => Ok(()),
        }
    }

    /// The root: `me`'s moves in a random order (the first best of a
    /// uniformly shuffled order is uniform among the best). With `values`,
    /// every move is searched with a full window and its value written
    /// there, in the order of the legal moves.
    fn root<G: Game>(
        &mut self,
        game: &G,
        state: &G::State,
        me: Role,
        depth: u32,
        eval: &mut dyn FnMut(&G::State, Role) -> f64,
        mut values: Option<&mut Vec<f64>>,
    ) -> Result<Option<usize>, OutOfTime> {
        self.expanded = 1;
        self.me = me;
        let mut mine = Vec::new();
        game.legal_moves_of(state, me, &mut mine);
        if mine.is_empty() || (mine.len() == 1 && values.is_none()) {
            return Ok((!mine.is_empty()).then_some(0));
        }
        if let Some(values) = values.as_deref_mut() {
            values.clear();
            values.resize(mine.len(), f64::NEG_INFINITY);
        }
        let turn = game.turn(state);
        let sample = match turn {
            Turn::Simultaneous => self.sample(game, state),
            _ => Vec::new(),
        };
        let mut order: Vec<usize> = (0..mine.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, self.rng.random_range(0..=i));
        }
        let (mut best, mut alpha) = (order[0], f64::NEG_INFINITY);
        let mut joint = Vec::new();
        for &i in &order {
            let floor = if values.is_some() { f64::NEG_INFINITY } else { alpha };
            let v = match turn {
                Turn::Simultaneous => {
                    let opposing = (&sample[..], &mut joint);
                    self.against(game, state, &mine[i], opposing, depth, 1, (floor, f64::INFINITY), eval)?
                }
                _ => self.value(game, &game.apply(state, &mine[i]), depth - 1, 1, floor, f64::INFINITY, eval)?,
            };
            if let Some(slot) = values.as_deref_mut().and_then(|vs| vs.get_mut(i)) {
                *slot = v;
            }
            if v > alpha {
                alpha = v;
                best = i;
            }
        }
        Ok(Some(best))
    }

    /// The opposing joint moves of a simultaneous turn to search: all of
    /// them when there are at most `samples`, else `samples` drawn with
    /// each role's move uniform. A joint move holds a move for every role;
    /// `me`'s place is filled in by [`SampledSearch::against`].
    fn sample<G: Game>(&mut self, game: &G, state: &G::State) -> Vec<Vec<G::Move>> {
        let n = game.n_roles();
        let mut legal: Vec<Vec<G::Move>> = vec![Vec::new(); n];
        for (r, moves) in legal.iter_mut().enumerate() {
            game.legal_moves_of(state, r as Role, moves);
        }
        let others = || (0..n).filter(|&r| r != usize::from(self.me));
        let combinations = others().try_fold(1u64, |acc, r| acc.checked_mul(legal[r].len().max(1) as u64));
        let placeholder = |r: usize| legal[r].first().cloned();
        if combinations.is_some_and(|c| c <= u64::from(self.params.samples.max(1))) {
            // Every combination, in order (an odometer over the roles).
            let mut all = Vec::new();
            let mut digits = vec![0usize; n];
            loop {
                let joint: Option<Vec<G::Move>> = (0..n)
                    .map(|r| if r == usize::from(self.me) { placeholder(r) } else { legal[r].get(digits[r]).cloned() })
                    .collect();
                match joint {
                    Some(j) => all.push(j),
                    None => return all,
                }
                let mut r = 0;
                loop {
                    if r == n {
                        return all;
                    }
                    if r != usize::from(self.me) {
                        digits[r] += 1;
                        if digits[r] < legal[r].len() {
                            break;
                        }
                        digits[r] = 0;
                    }
                    r += 1;
                }
            }
        }
        (0..self.params.samples.max(1))
            .filter_map(|_| {
                (0..n)
                    .map(|r| {
                        if r == usize::from(self.me) {
                            placeholder(r)
                        } else {
                            let k = self.rng.random_range(0..legal[r].len().max(1));
                            legal[r].get(k).cloned()
                        }
                    })
                    .collect::<Option<Vec<_>>>()
            })
            .collect()
    }

    /// The least value of `mv` (`me`'s move) against the opposing joint
    /// moves `sample`, within the window (`alpha`, `beta`); stops as soon
    /// as it is at most `alpha`. With no sample (an opponent without a
    /// legal move: a failed engine) the state is a leaf. `joint` is the
    /// caller's scratch for the joint move, so a node allocates it once.
    #[allow(clippy::too_many_arguments)]
    fn against<G: Game>(
        &mut self,
        game: &G,
        state: &G::State,
        mv: &G::Move,
        (sample, joint): (&[Vec<G::Move>], &mut Vec<G::Move>),
        depth: u32,
        ply: u32,
        (alpha, beta): (f64, f64),
        eval: &mut dyn FnMut(&G::State, Role) -> f64,
    ) -> Result<f64, OutOfTime> {
        if sample.is_empty() {
            return Ok(sane(eval(state, self.me)));
        }
        let mut worst = f64::INFINITY;
        for opposing in sample {
            joint.clone_from(opposing);
            if let Some(place) = joint.get_mut(usize::from(self.me)) {
                *place = mv.clone();
            }
            let child = game.apply_joint(state, joint);
            let v = self.value(game, &child, depth - 1, ply, alpha, worst.min(beta), eval)?;
            worst = worst.min(v);
            if worst <= alpha {
                break;
            }
        }
        Ok(worst)
    }

    /// The value of `state` for `me`, `depth` turns deep, `ply` turns below
    /// the root, within the window (`alpha`, `beta`).
    #[allow(clippy::too_many_arguments)]
    fn value<G: Game>(
        &mut self,
        game: &G,
        state: &G::State,
        depth: u32,
        ply: u32,
        mut alpha: f64,
        mut beta: f64,
        eval: &mut dyn FnMut(&G::State, Role) -> f64,
    ) -> Result<f64, OutOfTime> {
        self.check_time()?;
        let me = self.me;
        let turn = game.turn(state);
        if turn == Turn::Over {
            let goal = f64::from(game.score(state, me).unwrap_or(0));
            // Sooner is better when winning, later when losing.
            return Ok((goal - 50.0) * GOAL_UNIT - (goal - 50.0).signum() * f64::from(ply));
        }
        if depth == 0 {
            return Ok(sane(eval(state, me)));
        }
        self.expanded += 1;
        match turn {
            Turn::Role(r) => {
                let mut moves = Vec::new();
                game.legal_moves(state, &mut moves);
                if r == me {
                    let mut best = f64::NEG_INFINITY;
                    for mv in &moves {
                        let v = self.value(game, &game.apply(state, mv), depth - 1, ply + 1, alpha, beta, eval)?;
                        best = best.max(v);
                        alpha = alpha.max(v);
                        if alpha >= beta {
                            break;
                        }
                    }
                    Ok(best)
                } else {
                    let mut worst = f64::INFINITY;
                    for mv in &moves {
                        let v = self.value(game, &game.apply(state, mv), depth - 1, ply + 1, alpha, beta, eval)?;
                        worst = worst.min(v);
                        beta = beta.min(v);
                        if alpha >= beta {
                            break;
                        }
                    }
                    Ok(worst)
                }
            }
            Turn::Simultaneous => {
                let sample = self.sample(game, state);
                let mut mine = Vec::new();
                game.legal_moves_of(state, me, &mut mine);
                let mut best = f64::NEG_INFINITY;
                let mut joint = Vec::new();
                for mv in &mine {
                    let opposing = (&sample[..], &mut joint);
                    let v = self.against(game, state, mv, opposing, depth, ply + 1, (alpha, beta), eval)?;
                    best = best.max(v);
                    alpha = alpha.max(v);
                    if alpha >= beta {
                        break;
                    }
                }
                Ok(best)
            }
            // No GDL game has chance turns: such a state is a leaf.
            Turn::Chance | Turn::Over => Ok(sane(eval(state, me))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Sources;
    use crate::games::gdl::{GdlGame, GdlRules};
    use crate::rng::stream;

    /// Compiles GDL `text` for the life of the test process.
    fn rules(name: &str, text: &str) -> &'static GdlRules {
        let mut sources = Sources::new();
        let file = sources.add(name, None, text.to_owned());
        match GdlRules::compile(name, sources, file) {
            Ok(rules) => Box::leak(Box::new(rules)),
            Err((sources, diags)) => panic!("{}", sources.render_plain(&diags)),
        }
    }

    fn corpus(name: &str) -> &'static GdlRules {
        let path = format!("../shared/gdl/games/{name}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        rules(&path, &text)
    }

    /// Both roles pick a number at once; `a` wins when its number is not
    /// below `b`'s.
    const PICK: &str = "(role a) (role b) (num 1) (num 2) (num 3) (lt 1 2) (lt 1 3) (lt 2 3)
        (init start)
        (<= (legal ?r (pick ?n)) (role ?r) (true start) (num ?n))
        (<= (next (picked ?r ?n)) (does ?r (pick ?n)))
        (<= done (true (picked a ?x)))
        (<= terminal done)
        (<= (lower a) (true (picked a ?x)) (true (picked b ?y)) (lt ?x ?y))
        (<= (goal a 0) (lower a)) (<= (goal b 100) (lower a))
        (<= (goal a 100) done (not (lower a))) (<= (goal b 0) done (not (lower a)))";

    fn pick(game: &GdlGame, seed: u64, samples: u32) -> String {
        let mut search = SampledSearch::new(SampledParams { depth: 1, samples }, stream(seed, &[]));
        let state = game.initial_state();
        let mut rng = stream(seed, &[1]);
        let mut eval = |_: &_, _| rand::RngExt::random_range(&mut rng, -1.0..=1.0);
        let i = search.choose(game, &state, 0, &mut eval).expect("a move");
        let mut legal = Vec::new();
        game.legal_moves_of(&state, 0, &mut legal);
        game.format_move(&state, &legal[i])
    }

    /// Values beside the choice: each move's least goal against every
    /// opposing move (the game decided at once, one turn below the root),
    /// and the move `choose` makes from the same stream.
    #[test]
    fn values_are_each_moves_worst_case_and_the_choice_is_the_same() {
        let game = GdlGame::new(rules("pick.kif", PICK));
        let state = game.initial_state();
        let mut legal = Vec::new();
        game.legal_moves_of(&state, 0, &mut legal);
        let texts: Vec<String> = legal.iter().map(|m| game.format_move(&state, m)).collect();
        let decided = |goal: f64| (goal - 50.0) * GOAL_UNIT - (goal - 50.0).signum();
        for seed in 0..5 {
            let params = SampledParams { depth: 1, samples: 3 };
            let mut eval = |_: &_, _| 0.0;
            let plain = SampledSearch::new(params, stream(seed, &[])).choose(&game, &state, 0, &mut eval);
            let (best, values) = SampledSearch::new(params, stream(seed, &[]))
                .choose_with_values(&game, &state, 0, &mut eval)
                .expect("a move");
            assert_eq!(Some(best), plain, "seed {seed}");
            assert_eq!(texts[best], "(pick 3)");
            let expected: Vec<f64> = texts.iter().map(|t| decided(if t == "(pick 3)" { 100.0 } else { 0.0 })).collect();
            assert_eq!(values, expected, "{texts:?}");
        }
    }

    /// With a sample as large as the opponent's moves every one of them is
    /// searched: the only move safe against all of them is chosen, whatever
    /// the seed. With one sampled move, other moves can look as good.
    #[test]
    fn a_sample_of_every_opposing_move_is_exact() {
        let game = GdlGame::new(rules("pick.kif", PICK));
        for seed in 0..20 {
            assert_eq!(pick(&game, seed, 3), "(pick 3)", "seed {seed}");
            assert_eq!(pick(&game, seed, 100), "(pick 3)", "seed {seed}");
        }
        let chosen: std::collections::BTreeSet<String> = (0..40).map(|seed| pick(&game, seed, 1)).collect();
        assert!(chosen.len() > 1, "{chosen:?}");
    }

    /// At tic-tac-toe (its GDL rules, the roles taking turns) the search
    /// takes a win and blocks the opponent's, with a random evaluation.
    #[test]
    fn takes_the_win_and_blocks_at_tic_tac_toe() {
        let game = GdlGame::new(corpus("ticTacToe.kif"));
        let choose = |text: &str, role: Role, depth: u32, seed: u64| {
            let state = game.parse_state(text).expect("a state");
            let mut search = SampledSearch::new(SampledParams::new(depth), stream(seed, &[]));
            let mut rng = stream(seed, &[1]);
            let mut eval = |_: &_, _| rand::RngExt::random_range(&mut rng, -1.0..=1.0);
            let i = search.choose(&game, &state, role, &mut eval).expect("a move");
            let mut legal = Vec::new();
            game.legal_moves_of(&state, role, &mut legal);
            game.format_move(&state, &legal[i])
        };
        // x to move, with 1 1 and 1 2: (mark 1 3) wins.
        let win = "((cell 1 1 x) (cell 1 2 x) (cell 1 3 b) (cell 2 1 o) (cell 2 2 o) (cell 2 3 b) (cell 3 1 b) \
                   (cell 3 2 b) (cell 3 3 b) (control xplayer))";
        // o to move; x threatens 1 3 and o cannot win at once.
        let block = "((cell 1 1 x) (cell 1 2 x) (cell 1 3 b) (cell 2 1 b) (cell 2 2 o) (cell 2 3 b) (cell 3 1 b) \
                     (cell 3 2 b) (cell 3 3 b) (control oplayer))";
        for seed in 0..10 {
            assert_eq!(choose(win, 0, 1, seed), "(mark 1 3)", "seed {seed}");
            assert_eq!(choose(win, 0, 3, seed), "(mark 1 3)", "seed {seed}");
            assert_eq!(choose(block, 1, 2, seed), "(mark 1 3)", "seed {seed}");
        }
        // The waiting role has one move (noop), found without a search.
        let state = game.parse_state(win).expect("a state");
        let mut search = SampledSearch::new(SampledParams::new(2), stream(0, &[]));
        assert_eq!(search.choose(&game, &state, 1, &mut |_: &_, _| 0.0), Some(0));
    }

    /// A game of Blocker (simultaneous moves) between two searching players
    /// is the same for the same seeds, and another for other seeds; a
    /// deadline already past still gives a legal move.
    #[test]
    fn blocker_is_deterministic_for_a_seed_and_deadlines_give_a_move() {
        let game = GdlGame::new(corpus("blocker.kif"));
        let play = |seed: u64| {
            let mut searches: Vec<SampledSearch> = (0..2)
                .map(|r| SampledSearch::new(SampledParams { depth: 2, samples: 3 }, stream(seed, &[r])))
                .collect();
            let mut rng = stream(seed, &[9]);
            let mut state = game.initial_state();
            let mut record = Vec::new();
            while game.turn(&state) != Turn::Over {
                let joint: Vec<_> = (0..2)
                    .map(|r| {
                        let mut eval = |_: &_, _| rand::RngExt::random_range(&mut rng, -1.0..=1.0);
                        let i = searches[r].choose(&game, &state, r as Role, &mut eval).expect("a move");
                        let mut legal = Vec::new();
                        game.legal_moves_of(&state, r as Role, &mut legal);
                        legal[i].clone()
                    })
                    .collect();
                record.push(joint.iter().map(|m| game.format_move(&state, m)).collect::<Vec<_>>().join(" "));
                state = game.apply_joint(&state, &joint);
            }
            assert!(game.score(&state, 0).is_some());
            record
        };
        assert_eq!(play(5), play(5));
        assert!((0..5).any(|s| play(s) != play(5)));

        let state = game.initial_state();
        let mut search = SampledSearch::new(SampledParams::new(6), stream(0, &[]));
        let past = Instant::now();
        let (choice, depth) = search.choose_by(&game, &state, 1, past, &mut |_: &_, _| 0.0);
        assert_eq!((choice, depth), (Some(0), 0));
        let soon = Instant::now() + std::time::Duration::from_millis(200);
        let (choice, depth) = search.choose_by(&game, &state, 1, soon, &mut |_: &_, _| 0.0);
        assert!(choice.is_some_and(|i| i < 16) && depth >= 1, "{choice:?} {depth}");
        assert!(Instant::now() < soon + std::time::Duration::from_millis(50), "the deadline is kept");
    }
}
