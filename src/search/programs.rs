//! Evolved programs as position evaluators: an individual's tree, an ordered
//! IF-THEN policy, a weight vector or a network, bound to a game and evaluated for the
//! player `me` by the interpreter or by JIT-compiled code, which give the
//! same bits. One type serves evolution (a population compiled at once),
//! `stratagem play` and validation games.

use std::sync::Arc;

use super::alphabeta::Evaluator;
use crate::eval::Engine;
use crate::eval::interp::Interp;
use crate::eval::jit::{FnHandle, JitCompiler, JitConfig, JitProgram, Mode, PositionFn};
use crate::games::domain::{Binding, PositionContext, Slots};
use crate::games::{Player, TwoPlayer};
use crate::lang::{Network, Policy, Weights};
use crate::lang::{PrimKind, PrimSet, Tree};

/// What an evolved evaluator computes.
#[derive(Debug, Clone)]
pub enum Program {
    /// One tree of an individual (its `eval` or its `order` tree).
    Tree(Tree),
    /// The value of the first rule whose condition holds, else the default.
    Policy(Policy),
    /// Σ weight × terminal, in the order written.
    Weights(Weights),
    /// A feed-forward network's output.
    Network(Network),
}

impl Program {
    /// The feature slots the program reads, sorted.
    pub fn features_used(&self, ps: &PrimSet) -> Vec<u32> {
        let mut used = match self {
            Program::Tree(t) => t.features_used(ps),
            Program::Policy(p) => p.rules.iter().flat_map(|r| [&r.condition, &r.value]).chain([&p.default]).fold(
                Vec::new(),
                |mut acc, t| {
                    acc.extend(t.features_used(ps));
                    acc
                },
            ),
            Program::Weights(w) => w
                .terms
                .iter()
                .filter_map(|&(id, _)| match ps.prim(id).kind {
                    PrimKind::Feature(slot) => Some(slot),
                    _ => None,
                })
                .collect(),
            Program::Network(n) => n.features_used(),
        };
        used.sort_unstable();
        used.dedup();
        used
    }

    /// Whether the program calls a native function anywhere.
    pub fn uses_natives(&self, ps: &PrimSet) -> bool {
        match self {
            Program::Tree(t) => t.uses_natives(ps),
            Program::Policy(p) => {
                p.rules.iter().flat_map(|r| [&r.condition, &r.value]).chain([&p.default]).any(|t| t.uses_natives(ps))
            }
            Program::Weights(_) | Program::Network(_) => false,
        }
    }

    fn jit(&self) -> JitProgram<'_> {
        match self {
            Program::Tree(t) => JitProgram::Tree(t),
            Program::Policy(p) => JitProgram::Policy(p),
            Program::Weights(w) => JitProgram::Weights(w),
            Program::Network(n) => JitProgram::Network(n),
        }
    }
}

/// An evolved program bound to a game: the primset, its binding, the
/// program, the feature slots it reads (filled per position, nothing more),
/// and its compiled code when it has been JIT-compiled.
pub struct GpProgram<S> {
    pub ps: Arc<PrimSet>,
    pub binding: Arc<Binding<S>>,
    pub program: Program,
    pub used: Vec<u32>,
    pub jit: Option<PositionFn>,
    uses_natives: bool,
}

impl<S> GpProgram<S> {
    /// A program evaluated by the interpreter.
    pub fn new(ps: Arc<PrimSet>, binding: Arc<Binding<S>>, program: Program) -> GpProgram<S> {
        let used = program.features_used(&ps);
        let uses_natives = program.uses_natives(&ps);
        GpProgram { ps, binding, program, used, jit: None, uses_natives }
    }

    /// Programs for `programs`, JIT-compiled as one population (structurally
    /// equal programs share code). A program the JIT cannot compile keeps the
    /// interpreter; the reasons are returned, one per such program.
    pub fn compile_all(
        ps: Arc<PrimSet>,
        binding: Arc<Binding<S>>,
        programs: Vec<Program>,
        config: JitConfig,
    ) -> (Vec<GpProgram<S>>, Vec<String>) {
        let mut programs: Vec<GpProgram<S>> =
            programs.into_iter().map(|p| GpProgram::new(ps.clone(), binding.clone(), p)).collect();
        let mut fallbacks = Vec::new();
        let mut compiler = match JitCompiler::new(&ps, config) {
            Ok(c) => c,
            Err(e) => {
                let reasons = vec![e.to_string(); programs.len()];
                return (programs, reasons);
            }
        };
        let handles: Vec<Option<FnHandle>> = programs
            .iter()
            .map(|p| match compiler.add(p.program.jit(), Mode::Position) {
                Ok(h) => Some(h),
                Err(e) => {
                    fallbacks.push(e.to_string());
                    None
                }
            })
            .collect();
        match compiler.finish() {
            Ok(compiled) => {
                for (p, h) in programs.iter_mut().zip(handles) {
                    p.jit = h.and_then(|h| compiled.position(h).cloned());
                }
            }
            Err(e) => fallbacks = vec![e.to_string(); programs.len()],
        }
        (programs, fallbacks)
    }

    /// Programs for a population on `engine`: JIT-compiled as one
    /// population ([`GpProgram::compile_all`], with the fallbacks' reasons
    /// added to `fallbacks`), or interpreted.
    pub fn population(
        ps: &Arc<PrimSet>,
        binding: &Arc<Binding<S>>,
        programs: Vec<Program>,
        engine: Engine,
        fallbacks: &std::sync::Mutex<Vec<String>>,
    ) -> Vec<GpProgram<S>> {
        if engine.compiles_for_games() {
            {
                let (programs, reasons) =
                    GpProgram::compile_all(ps.clone(), binding.clone(), programs, JitConfig::fast_compile());
                if !reasons.is_empty()
                    && let Ok(mut all) = fallbacks.lock()
                {
                    all.extend(reasons);
                }
                programs
            }
        } else {
            programs.into_iter().map(|p| GpProgram::new(ps.clone(), binding.clone(), p)).collect()
        }
    }

    /// The program's value on `state` for `me`.
    pub fn value(&self, state: &S, me: Player) -> f64 {
        let mut slots = Slots::zeroed(self.binding.features.len());
        self.value_with(state, me, slots.as_mut_slice())
    }

    /// [`GpProgram::value`] with the feature slots in `scratch`, which holds
    /// a slot for each of the binding's features and is kept by the caller
    /// between calls: only the slots the program reads are written, and
    /// only those are read, so nothing is zeroed per leaf (zeroing a slot
    /// array at every leaf was a tenth of a lose-checkers search).
    pub fn value_with(&self, state: &S, me: Player, scratch: &mut [u64]) -> f64 {
        match &self.jit {
            Some(f) if scratch.len() >= self.binding.features.len() => {
                self.binding.fill(state, me, &self.used, scratch);
                if self.uses_natives {
                    // Compiled code reads the slots from `scratch`; the
                    // context only answers native calls.
                    let mut ctx = PositionContext::for_natives(&self.binding, state, me);
                    f.call(scratch, Some(&mut ctx)).0.as_f64()
                } else {
                    f.call(scratch, None).0.as_f64()
                }
            }
            _ => self.value_in_context(state, me),
        }
    }

    /// The value through a [`PositionContext`]: natives or the interpreter.
    fn value_in_context(&self, state: &S, me: Player) -> f64 {
        let mut ctx = PositionContext::new(&self.binding, state, me, &self.used);
        match &self.jit {
            Some(f) => {
                let slots = ctx.slots.clone();
                f.call(slots.as_slice(), Some(&mut ctx)).0.as_f64()
            }
            None => {
                let mut interp = Interp::new(&self.ps, &mut ctx);
                match &self.program {
                    Program::Tree(t) => interp.eval_tree(t).as_f64(),
                    Program::Policy(p) => interp.eval_policy(p).0.as_f64(),
                    Program::Weights(w) => interp.eval_weights(w).as_f64(),
                    Program::Network(n) => interp.eval_network(n).as_f64(),
                }
            }
        }
    }
}

/// Evaluates positions with an evolved program, its feature slots kept
/// between leaves, and the values of recent positions kept in a cache when
/// the game keys its positions ([`TwoPlayer::position_key`]): a program's
/// value is a function of the position and the player alone, and α-β meets
/// the same leaf again and again (moves that commute, the next turn's search
/// over the last one's leaves: half of the leaves of a Morris game at depth 3).
pub struct ProgramEval<S> {
    program: Arc<GpProgram<S>>,
    slots: Vec<u64>,
    /// Direct-mapped: (key with the player in bit 120, value); made at the
    /// first keyed evaluation.
    cache: Vec<(u128, f64)>,
}

/// log2 of the cache's entries (32 bytes each).
const CACHE_BITS: u32 = 12;
/// An empty entry's key: no position key reaches bit 120.
const NO_KEY: u128 = u128::MAX;

impl<S> ProgramEval<S> {
    pub fn new(program: Arc<GpProgram<S>>) -> ProgramEval<S> {
        let slots = vec![0; program.binding.features.len()];
        ProgramEval { program, slots, cache: Vec::new() }
    }
}

impl<G: TwoPlayer> Evaluator<G> for ProgramEval<G::State> {
    fn evaluate(&mut self, game: &G, state: &G::State, me: Player) -> f64 {
        let Some(key) = game.position_key(state) else {
            return self.program.value_with(state, me, &mut self.slots);
        };
        debug_assert!(key >> 120 == 0, "position keys stay below bit 120");
        let key = key | u128::from(me & 1) << 120;
        if self.cache.is_empty() {
            self.cache = vec![(NO_KEY, 0.0); 1 << CACHE_BITS];
        }
        let mixed = ((key as u64) ^ ((key >> 64) as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let entry = &mut self.cache[(mixed >> (64 - CACHE_BITS)) as usize];
        if entry.0 == key {
            return entry.1;
        }
        let value = self.program.value_with(state, me, &mut self.slots);
        *entry = (key, value);
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::FileId;
    use crate::evolve::init::{Builder, Method};
    use crate::evolve::policy_ops::random_policy;
    use crate::games::GameResult;
    use crate::games::checkers::Checkers;
    use crate::games::domain::GpDomain;
    use crate::games::morris::Morris;
    use crate::lang::forms::weighable_terminals;
    use crate::lang::library::load_primset;
    use crate::lang::{PrimSetId, TypeId};
    use crate::rng::stream;
    use crate::syntax::Span;
    use rand::RngExt;

    /// Random trees, policies and weight vectors of a game's shipped primset,
    /// evaluated on positions from random games by the interpreter and by the
    /// JIT: the same bits.
    fn jit_matches_interpreter<G: GpDomain + TwoPlayer>(game: &G, primset: &str) {
        let ps = Arc::new(load_primset(primset).expect("shipped primset"));
        let binding = Arc::new(Binding::new(game, &ps).expect("binds"));
        let builder = Builder::new(&ps, &[TypeId::F, TypeId::B]).expect("buildable");
        let mut rng = stream(11, &[]);
        let mut programs: Vec<Program> = (0..60)
            .map(|i| {
                let method = if i % 2 == 0 { Method::Grow } else { Method::Full };
                Program::Tree(builder.tree(&mut rng, TypeId::F, method, 6))
            })
            .collect();
        for n_rules in 0..20 {
            let rules = random_policy(&builder, &mut rng, n_rules % 6, 4);
            programs.push(unnamed_policy(rules));
        }
        let terms = weighable_terminals(&ps);
        for _ in 0..10 {
            let terms = terms.iter().map(|&t| (t, rng.random_range(-3.0..3.0))).collect();
            programs.push(Program::Weights(Weights {
                name: "w".into(),
                primset: PrimSetId(0),
                terms,
                file: FileId::default(),
                span: Span::default(),
            }));
        }
        let interp: Vec<GpProgram<G::State>> =
            programs.iter().map(|p| GpProgram::new(ps.clone(), binding.clone(), p.clone())).collect();
        let (jit, fallbacks) = GpProgram::compile_all(ps.clone(), binding.clone(), programs, JitConfig::fast_compile());
        assert!(fallbacks.is_empty(), "{fallbacks:?}");
        assert!(jit.iter().all(|p| p.jit.is_some()));
        let jit: Vec<Arc<GpProgram<G::State>>> = jit.into_iter().map(Arc::new).collect();
        // α-β's evaluators, whose cache (for a game that keys its positions)
        // must give back the bits it was given.
        let mut evals: Vec<ProgramEval<G::State>> = jit.iter().map(|p| ProgramEval::new(p.clone())).collect();
        let mut state = game.initial_state();
        let mut moves = Vec::new();
        for _ in 0..60 {
            for ((a, b), eval) in interp.iter().zip(&jit).zip(&mut evals) {
                for me in [0, 1] {
                    let (x, y) = (a.value(&state, me), b.value(&state, me));
                    assert!(x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()), "{x} vs {y}");
                    for _ in 0..2 {
                        let z = eval.evaluate(game, &state, me);
                        assert!(x.to_bits() == z.to_bits() || (x.is_nan() && z.is_nan()), "{x} vs {z}");
                    }
                }
            }
            game.legal_moves(&state, &mut moves);
            if moves.is_empty() || matches!(game.result(&state), Some(GameResult::Draw | GameResult::Winner(_))) {
                state = game.initial_state();
                continue;
            }
            state = game.apply(&state, &moves[rng.random_range(0..moves.len())]);
        }
    }

    #[test]
    fn jit_evaluates_positions_like_the_interpreter() {
        jit_matches_interpreter(&Checkers::lose(), "lose-checkers");
        jit_matches_interpreter(&Morris::standard(), "morris");
    }

    /// Random policies (each part from its own primitives), trees and weight
    /// vectors of the rush-hour primset on random search nodes (random walks
    /// from card 1, with parents, g, siblings and difficulty): the
    /// interpreter and the JIT give the same bits.
    #[test]
    fn jit_evaluates_rush_hour_search_nodes_like_the_interpreter() {
        use crate::games::Game;
        use crate::games::domain::SearchNode;
        use crate::games::rushhour::RushHour;
        let ps = Arc::new(load_primset("rush-hour").expect("shipped primset"));
        let binding = Arc::new(Binding::for_search(&RushHour, &ps).expect("binds"));
        let builder = Builder::new(&ps, &[TypeId::F, TypeId::B]).expect("buildable");
        let mut rng = stream(21, &[]);
        let mut programs: Vec<Program> =
            (0..20).map(|_| Program::Tree(builder.tree(&mut rng, TypeId::F, Method::Grow, 5))).collect();
        for _ in 0..40 {
            let rules = random_policy(&builder, &mut rng, 5, 5);
            programs.push(unnamed_policy(rules));
        }
        let terms = weighable_terminals(&ps);
        assert_eq!(terms.len(), 3, "the upper part only");
        programs.push(Program::Weights(Weights {
            name: "w".into(),
            primset: PrimSetId(0),
            terms: terms.iter().map(|&t| (t, rng.random_range(-3.0..3.0))).collect(),
            file: FileId::default(),
            span: Span::default(),
        }));
        let interp: Vec<_> = programs.iter().map(|p| GpProgram::new(ps.clone(), binding.clone(), p.clone())).collect();
        let (jit, fallbacks) = GpProgram::compile_all(ps.clone(), binding.clone(), programs, JitConfig::fast_compile());
        assert!(fallbacks.is_empty(), "{fallbacks:?}");
        let game = RushHour;
        let mut state = game.initial_state();
        let mut moves = Vec::new();
        let mut node = SearchNode { state, parent: None, g: 0, siblings: 0, difficulty: 0.5 };
        for step in 0..80 {
            for (a, b) in interp.iter().zip(&jit) {
                let (x, y) = (a.value(&node, 0), b.value(&node, 0));
                assert!(x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()), "step {step}: {x} vs {y}");
            }
            game.legal_moves(&state, &mut moves);
            if moves.is_empty() {
                state = game.initial_state();
                node = SearchNode { state, parent: None, g: 0, siblings: 0, difficulty: 0.5 };
                continue;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let next = game.apply(&state, &mv);
            node = SearchNode {
                state: next,
                parent: Some((state, mv)),
                g: node.g + 1,
                siblings: moves.len() as u32,
                difficulty: f64::from(step % 10) / 10.0,
            };
            state = next;
        }
    }

    /// A random rule list as a policy of primset 0.
    fn unnamed_policy(rules: crate::evolve::policy_ops::RuleList) -> Program {
        Program::Policy(Policy {
            name: "p".into(),
            primset: PrimSetId(0),
            rules: rules.rules,
            default: rules.default,
            file: FileId::default(),
            span: Span::default(),
        })
    }
}
