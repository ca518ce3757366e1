//! Ant Wars as a GP domain. The paper's primset (seeds/003 tables 1–2:
//! memory F, B, V, areas, NFood, ...) reads an ant's view and its memory, not
//! the board, and comes with the evolved ants (issue 23, items 2–3); until
//! then the domain declares no terminals, so no primset binds, and material
//! is the score difference, the only thing the full state gives away fairly.

use super::{AntWars, Board};
use crate::games::Player;
use crate::games::domain::{FeatureDef, GpDomain, NativeDef};

impl GpDomain for AntWars {
    fn features(&self) -> Vec<FeatureDef<Board>> {
        Vec::new()
    }

    fn natives(&self) -> Vec<NativeDef<Board>> {
        Vec::new()
    }

    fn material(&self, board: &Board, me: Player) -> f64 {
        f64::from(board.score(me)) - f64::from(board.score(1 - (me & 1)))
    }
}
