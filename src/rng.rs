//! Random streams, for evolution, searches and matches. Every random
//! decision draws from a stream derived from a seed and the decision's place
//! (generation, slot, game, side), never from a shared generator, so a run is
//! the same on 1 and on N threads.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, SeedableRng};

/// The generator every stream uses: small, fast, and a documented algorithm whose
/// output does not change between releases.
pub type GpRng = Xoshiro256PlusPlus;

/// A generator for the stream named by `seed` and `tags`.
pub fn stream(seed: u64, tags: &[u64]) -> GpRng {
    let mut h = splitmix(seed);
    for &t in tags {
        h = splitmix(h ^ t.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    }
    GpRng::seed_from_u64(h)
}

/// A number uniformly drawn from `0..n` (`n` > 0): the very number
/// `rng.random_range(0..n)` gives, and the same draws from the stream (rand's
/// widening multiply of one 32-bit draw, with a second draw on the rare
/// biased low half), written out so that a playout's every move inlines it:
/// rand's call was a tenth of a random checkers playout.
#[inline(always)]
pub fn draw_below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    debug_assert!(n > 0);
    let wide = u64::from(rng.next_u32()) * u64::from(n);
    let (mut result, low) = ((wide >> 32) as u32, wide as u32);
    if low > n.wrapping_neg() {
        let next_high = ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
        result += u32::from(low.checked_add(next_high).is_none());
    }
    result
}

/// SplitMix64's finaliser: a bijective mix of 64 bits.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: u64 = stream(7, &[1, 2]).random();
        assert_eq!(a, stream(7, &[1, 2]).random::<u64>());
        assert_ne!(a, stream(7, &[2, 1]).random::<u64>());
        assert_ne!(a, stream(8, &[1, 2]).random::<u64>());
    }

    /// Games replay only if every draw matches rand's, bound for bound and
    /// draw for draw (the streams stay in step after each).
    #[test]
    fn draws_below_are_rands_draws() {
        let bounds = (1..=300u32).chain([1 << 20, 3 << 29, u32::MAX / 3, u32::MAX - 1, u32::MAX]);
        for (k, n) in bounds.enumerate() {
            let (mut ours, mut rands) = (stream(k as u64, &[9]), stream(k as u64, &[9]));
            for _ in 0..200 {
                assert_eq!(draw_below(&mut ours, n), rands.random_range(0..n), "bound {n}");
                assert_eq!(draw_below(&mut ours, n) as usize, rands.random_range(0..n as usize), "bound {n}");
                assert_eq!(ours.random::<u64>(), rands.random::<u64>(), "bound {n}");
            }
        }
    }
}
