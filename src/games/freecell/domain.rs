//! FreeCell as a GP domain: the nine heuristics of GA-FreeCell (seeds/001
//! table 1), normalised to [0, 1] as distances ([`heuristics::normalised`]),
//! as terminals of a position and of a search node. The freecell primset
//! declares them; a `weights` individual over them is the paper's genome.

use std::cell::Cell;

use super::heuristics::{self, NAMES};
use super::{FreeCell, Move, Position};
use crate::games::Player;
use crate::games::domain::{Compute, FeatureDef, GpDomain, NativeDef, SearchNode};

impl GpDomain for FreeCell {
    fn features(&self) -> Vec<FeatureDef<Position>> {
        terminals()
    }

    fn natives(&self) -> Vec<NativeDef<Position>> {
        Vec::new()
    }

    /// Fewer cards out is better.
    fn material(&self, p: &Position, _: Player) -> f64 {
        -f64::from(p.cards_out())
    }

    /// The same nine terminals, of the node's position.
    fn node_features(&self) -> Vec<FeatureDef<SearchNode<Position, Move>>> {
        terminals()
    }
}

/// The nine terminals over anything that holds a position.
fn terminals<S: HoldsPosition>() -> Vec<FeatureDef<S>> {
    // A function pointer per heuristic: `Compute::F` takes plain `fn`s.
    let computes: [fn(&S, Player) -> f64; 9] = [
        |s, _| value(s.position(), 0),
        |s, _| value(s.position(), 1),
        |s, _| value(s.position(), 2),
        |s, _| value(s.position(), 3),
        |s, _| value(s.position(), 4),
        |s, _| value(s.position(), 5),
        |s, _| value(s.position(), 6),
        |s, _| value(s.position(), 7),
        |s, _| value(s.position(), 8),
    ];
    NAMES
        .iter()
        .zip(computes)
        .map(|(name, f)| FeatureDef { name: (*name).to_owned(), compute: Compute::F(f) })
        .collect()
}

/// What the terminals read a position from.
trait HoldsPosition {
    fn position(&self) -> &Position;
}

impl HoldsPosition for Position {
    fn position(&self) -> &Position {
        self
    }
}

impl HoldsPosition for SearchNode<Position, Move> {
    fn position(&self) -> &Position {
        &self.state
    }
}

thread_local! {
    /// The last position's values, by its digest: a program's terminals are
    /// computed one by one, and a weight vector reads all nine of one
    /// position. Every heuristic is the same for positions that differ only
    /// in which slot holds what, as positions of one digest do.
    static LAST: (Cell<Option<u64>>, [Cell<f64>; 9]) = const { (Cell::new(None), [const { Cell::new(0.0) }; 9]) };
}

/// Heuristic `k` of [`heuristics::normalised`], all nine computed once for
/// consecutive calls on one position.
fn value(p: &Position, k: usize) -> f64 {
    LAST.with(|(digest, values)| {
        if digest.get() != Some(p.digest()) {
            for (cell, v) in values.iter().zip(heuristics::normalised(p)) {
                cell.set(v);
            }
            digest.set(Some(p.digest()));
        }
        values[k].get()
    })
}
