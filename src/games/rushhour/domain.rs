//! Rush Hour as a GP domain: the paper's three heuristics (table 1-6's upper
//! part) as F terminals. The rest of table 1-6 (IsMoveToSecluded, g,
//! NumberOfSiblings, ...) describes a node of a search rather than a board
//! and will come with the rush-hour primset.

use super::{Board, RushHour, heuristics};
use crate::games::Player;
use crate::games::domain::{Compute, FeatureDef, GpDomain, NativeDef};

impl GpDomain for RushHour {
    fn features(&self) -> Vec<FeatureDef<Board>> {
        type Terminal = fn(&Board, Player) -> f64;
        let terminals: [(&str, Terminal); 3] = [
            ("BlockersLowerBound", |b, _| f64::from(heuristics::blockers_lower_bound(b))),
            ("GoalDistance", |b, _| f64::from(heuristics::goal_distance(b))),
            ("Hybrid", |b, _| f64::from(heuristics::hybrid(b))),
        ];
        terminals.into_iter().map(|(name, f)| FeatureDef { name: name.to_owned(), compute: Compute::F(f) }).collect()
    }

    fn natives(&self) -> Vec<NativeDef<Board>> {
        Vec::new()
    }

    /// Fewer blockers is better.
    fn material(&self, board: &Board, _: Player) -> f64 {
        -f64::from(heuristics::blockers_lower_bound(board))
    }
}
