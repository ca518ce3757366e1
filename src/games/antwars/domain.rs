//! Ant Wars as a GP domain. The paper's primset (seeds/003 tables 1–2,
//! programs/primsets/antwars.sg) reads an ant's view and memory, not the
//! board: it binds to [`AntSight`]s ([`bind`]), so the domain declares no
//! terminals over boards and checks primsets against sights. Material is the
//! score difference, the only thing the full state gives away fairly.
//!
//! The binding joins the two sets of terminals and natives over sights:
//! tables 1–2 ([`super::sight`]) and the humants' ([`super::humant`]). It
//! lives here, above both, so that neither of them imports the other's list.

use super::sight::AntSight;
use super::{AntWars, Board};
use crate::diagnostic::Diagnostic;
use crate::games::Player;
use crate::games::domain::{Binding, FeatureDef, GpDomain, NativeDef};
use crate::lang::PrimSet;

/// Binds a primset of domain `antwars` to ant sights: trees of ants read
/// their view and memory, never the board.
pub fn bind(ps: &PrimSet) -> Result<Binding<AntSight>, Vec<Diagnostic>> {
    // The humants' primset (antwars-humant) adds its own (humant.rs).
    let features = super::sight::features().into_iter().chain(super::humant::features()).collect();
    let natives = super::sight::natives().into_iter().chain(super::humant::natives()).collect();
    Binding::from_defs(ps, "antwars", "antwars", features, natives)
}

impl AntWars {
    /// [`bind`], for callers that hold the game.
    pub fn bind_sight(&self, ps: &PrimSet) -> Result<Binding<AntSight>, Vec<Diagnostic>> {
        bind(ps)
    }
}

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
        bind(ps).map(|_| ())
    }
}
