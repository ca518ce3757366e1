//! FreeCell as a GP domain: no terminals or natives yet (they come with the
//! evolved solvers of GA-FreeCell); the registry needs the domain to list the
//! game and run `solve` on it.

use super::{FreeCell, Position};
use crate::games::Player;
use crate::games::domain::{FeatureDef, GpDomain, NativeDef};

impl GpDomain for FreeCell {
    fn features(&self) -> Vec<FeatureDef<Position>> {
        Vec::new()
    }

    fn natives(&self) -> Vec<NativeDef<Position>> {
        Vec::new()
    }

    /// Fewer cards out is better.
    fn material(&self, p: &Position, _: Player) -> f64 {
        -f64::from(p.cards_out())
    }
}
