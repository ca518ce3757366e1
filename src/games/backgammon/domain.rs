//! Backgammon as a GP domain: no terminals yet (the GP-Gammon primset is
//! its own work); the benchmark evaluation is the pip count; `pubeval`,
//! the game's own player.

use super::movegen::{Play, generate};
use super::{Backgammon, Move, Phase, Position, pubeval};
use crate::games::Player;
use crate::games::domain::{FeatureDef, GpDomain, NativeDef};

impl GpDomain for Backgammon {
    fn features(&self) -> Vec<FeatureDef<Position>> {
        Vec::new()
    }

    fn natives(&self) -> Vec<NativeDef<Position>> {
        Vec::new()
    }

    fn builtin_players(&self) -> &'static [&'static str] {
        &["pubeval"]
    }

    /// `pubeval`: the play Tesauro's Pubeval scores highest.
    fn builtin_player_move(&self, _: usize, pos: &Position) -> Option<Move> {
        let Phase::ToPlay(roll) = pos.phase else { return None };
        let mut plays: Vec<Play> = Vec::new();
        generate(&pos.board, roll, &mut plays);
        pubeval::best_play(&pos.board, &plays).map(|i| Move::Play(plays[i]))
    }

    /// Pubeval's score of each play, as `pubeval` compares them.
    fn builtin_player_values(&self, _: usize, pos: &Position) -> Option<Vec<f64>> {
        let Phase::ToPlay(roll) = pos.phase else { return None };
        let mut plays: Vec<Play> = Vec::new();
        generate(&pos.board, roll, &mut plays);
        let race = !pos.board.is_contact();
        Some(plays.iter().map(|p| f64::from(pubeval::score(race, &p.after))).collect())
    }

    /// The pip lead of `me` (fewer pips to bear off is better).
    fn material(&self, pos: &Position, me: Player) -> f64 {
        let (on_roll, other) = Backgammon::pips(&pos.board);
        let lead = f64::from(other) - f64::from(on_roll);
        if me == pos.on_roll { lead } else { -lead }
    }
}
