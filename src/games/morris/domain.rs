//! Nine Men's Morris as a GP domain (both rule sets share it): the
//! terminals of seeds/002 (`features.rs`) and the square predicates as
//! natives `(NAME (X Y) B)`.

use super::{Morris, Position, features};
use crate::games::Player;
use crate::games::domain::{Compute, FeatureDef, GpDomain, NativeDef, square_args, square_natives};
use crate::lang::Value;

impl GpDomain for Morris {
    fn domain(&self) -> &str {
        "morris"
    }

    fn features(&self) -> Vec<FeatureDef<Position>> {
        let numbers = features::NUMBER_TERMINALS
            .iter()
            .map(|&(name, f)| FeatureDef { name: name.to_owned(), compute: Compute::F(f) });
        let bools = features::BOOL_TERMINALS
            .iter()
            .map(|&(name, f)| FeatureDef { name: name.to_owned(), compute: Compute::B(f) });
        numbers.chain(bools).collect()
    }

    fn natives(&self) -> Vec<NativeDef<Position>> {
        fn square<const K: usize>(pos: &Position, me: Player, args: &[Value]) -> Value {
            let (x, y) = square_args(args);
            Value::B((features::SQUARE_TERMINALS[K].1)(pos, me, x, y))
        }
        square_natives(&features::SQUARE_TERMINALS, [square::<0>, square::<1>])
    }

    /// Men difference, counting men still in hand.
    fn material(&self, pos: &Position, me: Player) -> f64 {
        f64::from(pos.n_men(me)) - f64::from(pos.n_men(me ^ 1))
    }
}
