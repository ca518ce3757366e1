//! Ant Wars as a GP domain. The paper's primset (seeds/003 tables 1–2,
//! programs/primsets/antwars.sg) reads an ant's view and memory, not the
//! board: it binds to [`AntSight`](super::sight::AntSight)s
//! ([`super::sight::bind`]), so the domain declares no terminals over
//! boards and checks primsets against sights. Material is the score
//! difference, the only thing the full state gives away fairly.

use super::{AntWars, Board};
use crate::diagnostic::Diagnostic;
use crate::games::Player;
use crate::games::domain::{FeatureDef, GpDomain, NativeDef};
use crate::lang::PrimSet;

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

    fn check_primset(&self, ps: &PrimSet) -> Result<(), Vec<Diagnostic>> {
        super::sight::bind(ps).map(|_| ())
    }
}
