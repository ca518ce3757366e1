//! Backgammon as a GP domain: no terminals yet (the GP-Gammon primset is
//! its own work); the benchmark evaluation is the pip count.

use super::{Backgammon, Position};
use crate::games::Player;
use crate::games::domain::{FeatureDef, GpDomain, NativeDef};

impl GpDomain for Backgammon {
    fn features(&self) -> Vec<FeatureDef<Position>> {
        Vec::new()
    }

    fn natives(&self) -> Vec<NativeDef<Position>> {
        Vec::new()
    }

    /// The pip lead of `me` (fewer pips to bear off is better).
    fn material(&self, pos: &Position, me: Player) -> f64 {
        let (on_roll, other) = Backgammon::pips(&pos.board);
        let lead = f64::from(other) - f64::from(on_roll);
        if me == pos.on_roll { lead } else { -lead }
    }
}
