//! Position evaluators for α-β: material (the papers' benchmark) and random
//! (the papers' guide: random except for decided positions, which the search
//! itself scores). Evolved programs evaluate through `search::programs`.

use rand::RngExt;

use super::alphabeta::Evaluator;
use crate::games::domain::GpDomain;
use crate::games::{Player, TwoPlayer};
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

    fn deterministic(&self) -> bool {
        false
    }
}
