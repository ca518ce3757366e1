//! Lose checkers as a GP domain: the terminals of seeds/001 (`features.rs`)
//! and the square predicates as natives `(NAME (X Y) B)`.

use super::{Checkers, Position, Variant, features};
use crate::games::Player;
use crate::games::domain::{Compute, FeatureDef, GpDomain, NativeDef, square_args, square_natives};
use crate::lang::Value;

impl GpDomain for Checkers {
    fn features(&self) -> Vec<FeatureDef<Position>> {
        features::BOARD_TERMINALS
            .iter()
            .map(|&(name, f)| FeatureDef { name: name.to_owned(), compute: Compute::F(f) })
            .collect()
    }

    fn natives(&self) -> Vec<NativeDef<Position>> {
        fn square<const K: usize>(pos: &Position, me: Player, args: &[Value]) -> Value {
            let (x, y) = square_args(args);
            Value::B((features::SQUARE_TERMINALS[K].1)(pos, me, x, y))
        }
        square_natives(&features::SQUARE_TERMINALS, [square::<0>, square::<1>, square::<2>, square::<3>])
    }

    /// Piece difference with kings weighted by `KING_FACTOR`; in lose checkers
    /// the side with less material is ahead, so the sign is reversed there.
    fn material(&self, pos: &Position, me: Player) -> f64 {
        let k = features::KING_FACTOR;
        let score = |p: Player| f64::from(pos.men(p).count_ones()) + k * f64::from(pos.kings_of(p).count_ones());
        let diff = score(me) - score(me ^ 1);
        match self.variant {
            Variant::Lose => -diff,
            Variant::American => diff,
        }
    }
}
