//! The dice: the 21 distinct rolls of a turn with their chances, and the
//! opening roll, where each side throws one die (ties thrown again) and the
//! higher die's side starts by playing both dice.

/// A roll of two dice, the higher first (`Roll(6, 5)` is written `65`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Roll(pub u8, pub u8);

impl Roll {
    /// The roll of dice `a` and `b` (1–6), in either order.
    pub fn new(a: u8, b: u8) -> Roll {
        if a >= b { Roll(a, b) } else { Roll(b, a) }
    }

    pub fn is_double(self) -> bool {
        self.0 == self.1
    }

    /// Its chance in 36: 1 for a double, 2 for the others.
    pub fn weight(self) -> f64 {
        if self.is_double() { 1.0 } else { 2.0 }
    }
}

/// The 21 distinct rolls, 11 to 66, each written higher die first.
pub const ROLLS: [Roll; 21] = rolls(true);

/// The 15 opening rolls: never a double, each as likely (each side's die
/// shows a different number, 30 equal outcomes, half of them each side's).
pub const OPENING_ROLLS: [Roll; 15] = rolls(false);

/// The distinct rolls, higher die first, in order of the higher then the
/// lower die; the doubles among them if `doubles`.
const fn rolls<const N: usize>(doubles: bool) -> [Roll; N] {
    let mut rolls = [Roll(0, 0); N];
    let mut i = 0;
    let mut high = 1;
    while high <= 6 {
        let mut low = 1;
        while low < high || (doubles && low == high) {
            rolls[i] = Roll(high, low);
            i += 1;
            low += 1;
        }
        high += 1;
    }
    rolls
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_have_their_chances() {
        let total: f64 = ROLLS.iter().map(|r| r.weight()).sum();
        assert_eq!(total, 36.0);
        assert_eq!(ROLLS.iter().filter(|r| r.is_double()).count(), 6);
        assert!(OPENING_ROLLS.iter().all(|r| !r.is_double() && r.0 > r.1));
    }
}
