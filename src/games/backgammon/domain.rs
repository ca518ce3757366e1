//! Backgammon as a GP domain: GP-Gammon's terminals ([`super::features`]);
//! the benchmark evaluation is the pip count; the players it reads itself
//! (`pubeval`, two-tree individuals, `:ply=2`: [`super::players`]).

use std::sync::Arc;

use super::movegen::{Play, generate};
use super::players::{BgPlayer, BgSpec};
use super::{Backgammon, Move, Phase, Position, features};
use crate::games::Player;
use crate::games::domain::{FeatureDef, GpDomain, NativeDef, OwnPlayer};
use crate::games::duel::PlayerError;
use crate::rng::GpRng;

impl GpDomain for Backgammon {
    fn features(&self) -> Vec<FeatureDef<Position>> {
        features::features()
    }

    fn natives(&self) -> Vec<NativeDef<Position>> {
        features::natives()
    }

    /// Every backgammon player is read by the game (players.rs).
    fn own_player(&self, text: &str) -> Option<Result<Arc<dyn OwnPlayer<Backgammon>>, PlayerError>> {
        Some(BgSpec::parse(text).map(|spec| Arc::new(spec) as Arc<dyn OwnPlayer<Backgammon>>))
    }

    /// The pip lead of `me` (fewer pips to bear off is better).
    fn material(&self, pos: &Position, me: Player) -> f64 {
        let (on_roll, other) = Backgammon::pips(&pos.board);
        let lead = f64::from(other) - f64::from(on_roll);
        if me == pos.on_roll { lead } else { -lead }
    }
}

impl OwnPlayer<Backgammon> for BgSpec {
    fn choose(&self, _: &Backgammon, pos: &Position, rng: &mut GpRng) -> Option<Move> {
        let Phase::ToPlay(roll) = pos.phase else { return None };
        Some(Move::Play(BgPlayer::new(self.clone()).play(pos, roll, rng)))
    }

    /// The one-ply scores of the plays (a two-ply player's too: it looks
    /// further only at the best of them).
    fn values(&self, _: &Backgammon, pos: &Position) -> Option<Vec<f64>> {
        let Phase::ToPlay(roll) = pos.phase else { return None };
        let mut plays: Vec<Play> = Vec::new();
        generate(&pos.board, roll, &mut plays);
        BgPlayer::new(self.clone()).one_ply_scores(&pos.board, pos.on_roll, &plays)
    }
}
