//! Position evaluators for α-β: material (the papers' benchmark), random (the
//! papers' guide: random except for decided positions, which the search
//! itself scores), and evolved trees.

use std::sync::Arc;

use rand::RngExt;

use super::alphabeta::Evaluator;
use crate::eval::interp::Interp;
use crate::evolve::rng::GpRng;
use crate::games::domain::{Binding, GpDomain, PositionContext};
use crate::games::{Game, Player};
use crate::lang::{PrimSet, Tree};

/// Material from `me`'s side, as the game defines it.
pub struct Material;

impl<G: GpDomain> Evaluator<G> for Material {
    fn evaluate(&mut self, game: &G, state: &G::State, me: Player) -> f64 {
        game.material(state, me)
    }
}

/// A uniformly random value in [-1, 1] for every undecided position.
pub struct RandomEval(pub GpRng);

impl<G: Game> Evaluator<G> for RandomEval {
    fn evaluate(&mut self, _game: &G, _state: &G::State, _me: Player) -> f64 {
        self.0.random_range(-1.0..=1.0)
    }
}

/// An evolved tree bound to a game: the primset, its binding, the tree and the
/// feature slots it reads (filled per position, nothing more).
pub struct TreeProgram<S> {
    pub ps: Arc<PrimSet>,
    pub binding: Arc<Binding<S>>,
    pub tree: Tree,
    pub used: Vec<u32>,
}

impl<S> TreeProgram<S> {
    pub fn new(ps: Arc<PrimSet>, binding: Arc<Binding<S>>, tree: Tree) -> TreeProgram<S> {
        let used = tree.features_used(&ps);
        TreeProgram { ps, binding, tree, used }
    }

    /// The tree's value on `state` for `me`.
    pub fn value(&self, state: &S, me: Player) -> f64 {
        let mut ctx = PositionContext::new(&self.binding, state, me, &self.used);
        Interp::new(&self.ps, &mut ctx).eval_tree(&self.tree).as_f64()
    }
}

/// Evaluates with an evolved tree.
pub struct TreeEval<S>(pub Arc<TreeProgram<S>>);

impl<G: Game> Evaluator<G> for TreeEval<G::State> {
    fn evaluate(&mut self, _game: &G, state: &G::State, me: Player) -> f64 {
        self.0.value(state, me)
    }
}
