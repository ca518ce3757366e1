//! The players of `play` (random, α-β with material, random or evolved
//! evaluators) as a [`Duel`], so that `tournament` runs round robins of
//! double-games on perfect-information games too. The CLI reads the specs
//! (loading and binding programs, with their diagnostics) into
//! [`PlayerFactory`]s; each game makes fresh players from them, seeded from
//! the game's streams, as `play` does.
//!
//! A game's points are its score on the model's 0–100 scale (100 a win, 50
//! a draw, 0 a loss), so a total score is 100 per game won plus 50 per draw.

use std::sync::Arc;

use rand::RngExt;

use super::players::{PlayerFactory, play_game};
use crate::games::GameResult;
use crate::games::domain::GpGame;
use crate::games::duel::{Duel, GameEnd, PlayerError};
use crate::rng::GpRng;

/// A two-player game of the model whose players are search players.
pub struct SearchDuel<G>(pub G);

impl<G: GpGame> Duel for SearchDuel<G> {
    type State = G::State;
    type Spec = Arc<PlayerFactory<G::State>>;
    /// Players hold per-game state (random streams, search buffers), so a
    /// thread keeps the factory and makes a player for each game.
    type Player = Arc<PlayerFactory<G::State>>;

    fn name(&self) -> &str {
        self.0.name()
    }

    fn random_start(&self, rng: &mut GpRng) -> G::State {
        self.0.random_initial_state(rng)
    }

    fn new_player(&self, spec: &Self::Spec) -> Result<Self::Player, PlayerError> {
        Ok(spec.clone())
    }

    fn play(
        &self,
        start: &G::State,
        [a, b]: [&mut Self::Player; 2],
        [ra, rb]: [&mut GpRng; 2],
    ) -> Result<GameEnd, PlayerError> {
        let mut pa = a.make::<G>(ra.random::<u64>(), &[]);
        let mut pb = b.make::<G>(rb.random::<u64>(), &[]);
        let record = play_game(&self.0, start, [pa.as_mut(), pb.as_mut()]);
        if let Some(e) = self.0.take_error() {
            return Err(PlayerError::new(format!("the game's engine failed: {e}")));
        }
        let winner = match record.result {
            GameResult::Winner(w) => Some(w),
            GameResult::Draw => None,
        };
        Ok(GameEnd {
            points: [0, 1].map(|p| u32::from(record.result.score_for(p))),
            winner,
            killed: None,
            forfeit: None,
        })
    }
}
