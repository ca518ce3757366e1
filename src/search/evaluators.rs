//! Position evaluators for α-β: material (the papers' benchmark), random (the
//! papers' guide: random except for decided positions, which the search
//! itself scores), and evolved trees.

use std::sync::Arc;

use rand::RngExt;

use super::alphabeta::Evaluator;
use crate::eval::interp::Interp;
use crate::eval::jit::{FnHandle, JitCompiler, JitConfig, JitProgram, Mode, PositionFn};
use crate::games::domain::{Binding, GpDomain, PositionContext};
use crate::games::{Player, TwoPlayer};
use crate::lang::{PrimSet, Tree};
use crate::rng::GpRng;

/// Material from `me`'s side, as the game defines it.
pub struct Material;

impl<G: GpDomain + TwoPlayer> Evaluator<G> for Material {
    fn evaluate(&mut self, game: &G, state: &G::State, me: Player) -> f64 {
        game.material(state, me)
    }
}

/// A uniformly random value in [-1, 1] for every undecided position.
pub struct RandomEval(pub GpRng);

impl<G: TwoPlayer> Evaluator<G> for RandomEval {
    fn evaluate(&mut self, _game: &G, _state: &G::State, _me: Player) -> f64 {
        self.0.random_range(-1.0..=1.0)
    }
}

/// An evolved tree bound to a game: the primset, its binding, the tree, the
/// feature slots it reads (filled per position, nothing more), and its
/// compiled code when it has been JIT-compiled.
pub struct TreeProgram<S> {
    pub ps: Arc<PrimSet>,
    pub binding: Arc<Binding<S>>,
    pub tree: Tree,
    pub used: Vec<u32>,
    pub jit: Option<PositionFn>,
    uses_natives: bool,
}

impl<S> TreeProgram<S> {
    /// A program evaluated by the interpreter.
    pub fn new(ps: Arc<PrimSet>, binding: Arc<Binding<S>>, tree: Tree) -> TreeProgram<S> {
        let used = tree.features_used(&ps);
        let uses_natives = tree.uses_natives(&ps);
        TreeProgram { ps, binding, tree, used, jit: None, uses_natives }
    }

    /// Programs for `trees`, JIT-compiled as one population (structurally equal
    /// trees share code). A tree the JIT cannot compile keeps the interpreter;
    /// the reasons are returned, one per such tree.
    pub fn compile_all(
        ps: Arc<PrimSet>,
        binding: Arc<Binding<S>>,
        trees: Vec<Tree>,
        config: JitConfig,
    ) -> (Vec<TreeProgram<S>>, Vec<String>) {
        let mut programs: Vec<TreeProgram<S>> =
            trees.into_iter().map(|t| TreeProgram::new(ps.clone(), binding.clone(), t)).collect();
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
            .map(|p| match compiler.add(JitProgram::Tree(&p.tree), Mode::Position) {
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

    /// The tree's value on `state` for `me`.
    pub fn value(&self, state: &S, me: Player) -> f64 {
        let mut ctx = PositionContext::new(&self.binding, state, me, &self.used);
        match &self.jit {
            Some(f) if self.uses_natives => {
                let slots = ctx.slots.clone();
                f.call(slots.as_slice(), Some(&mut ctx)).0.as_f64()
            }
            Some(f) => f.call(ctx.slots.as_slice(), None).0.as_f64(),
            None => Interp::new(&self.ps, &mut ctx).eval_tree(&self.tree).as_f64(),
        }
    }
}

/// Evaluates with an evolved tree.
pub struct TreeEval<S>(pub Arc<TreeProgram<S>>);

impl<G: TwoPlayer> Evaluator<G> for TreeEval<G::State> {
    fn evaluate(&mut self, _game: &G, state: &G::State, me: Player) -> f64 {
        self.0.value(state, me)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::init::{Builder, Method};
    use crate::games::GameResult;
    use crate::games::checkers::Checkers;
    use crate::games::morris::Morris;
    use crate::lang::TypeId;
    use crate::lang::library::load_primset;
    use crate::rng::stream;
    use rand::RngExt;

    /// Random trees of a game's shipped primset, evaluated on positions from
    /// random games by the interpreter and by the JIT: the same bits.
    fn jit_matches_interpreter<G: GpDomain + TwoPlayer>(game: &G, primset: &str) {
        let ps = Arc::new(load_primset(primset).expect("shipped primset"));
        let binding = Arc::new(Binding::new(game, &ps).expect("binds"));
        let builder = Builder::new(&ps, &[TypeId::F]).expect("buildable");
        let mut rng = stream(11, &[]);
        let trees: Vec<Tree> = (0..60)
            .map(|i| builder.tree(&mut rng, TypeId::F, if i % 2 == 0 { Method::Grow } else { Method::Full }, 6))
            .collect();
        let interp: Vec<TreeProgram<G::State>> =
            trees.iter().map(|t| TreeProgram::new(ps.clone(), binding.clone(), t.clone())).collect();
        let (jit, fallbacks) = TreeProgram::compile_all(ps.clone(), binding.clone(), trees, JitConfig::fast_compile());
        assert!(fallbacks.is_empty(), "{fallbacks:?}");
        assert!(jit.iter().all(|p| p.jit.is_some()));
        let mut state = game.initial_state();
        let mut moves = Vec::new();
        for _ in 0..60 {
            for (a, b) in interp.iter().zip(&jit) {
                for me in [0, 1] {
                    let (x, y) = (a.value(&state, me), b.value(&state, me));
                    assert!(x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()), "{x} vs {y}");
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
}
