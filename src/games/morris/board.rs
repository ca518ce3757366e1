//! Geometry of the Nine Men's Morris board in the 3×8 representation of
//! Benbassat & Sipper 2012 (seeds/002, §2): three concentric squares (rings
//! 0 = outer, 1 = middle, 2 = inner) of 8 points each, numbered clockwise from
//! the top-left corner, so even points are corners and odd points are the
//! middles of the sides, where the spokes join the rings. Point `8·ring + p`
//! is bit `8·ring + p` of a 24-bit bitboard.
//!
//! Names are the usual coordinates of a 7×7 grid, columns a–g and rows 1–7
//! from White's side: the outer ring is a7 d7 g7 g4 g1 d1 a1 a4, the middle
//! ring b6 d6 f6 f4 f2 d2 b2 b4, the inner ring c5 d5 e5 e4 e3 d3 c3 c4.

use crate::games::Bits;

/// All 24 points.
pub const ALL: u32 = (1 << 24) - 1;

/// The 12 points where a spoke meets a ring (odd points), the board's
/// intersections of three or four lines.
pub const INTERSECTIONS: u32 = 0x00AA_AAAA;

/// Point index of ring `r`, position `p`.
pub const fn point(r: u32, p: u32) -> u32 {
    8 * r + p
}

/// `ADJACENT[pt]`: the points one line segment away.
pub static ADJACENT: [u32; 24] = {
    let mut t = [0u32; 24];
    let mut pt = 0;
    while pt < 24 {
        let (r, p) = (pt / 8, pt % 8);
        let mut m = (1 << point(r, (p + 1) % 8)) | (1 << point(r, (p + 7) % 8));
        if p % 2 == 1 {
            if r > 0 {
                m |= 1 << point(r - 1, p);
            }
            if r < 2 {
                m |= 1 << point(r + 1, p);
            }
        }
        t[pt as usize] = m;
        pt += 1;
    }
    t
};

/// The 16 mills: four sides of each ring, and the four spokes.
pub static MILLS: [u32; 16] = {
    let mut t = [0u32; 16];
    let mut i = 0;
    let mut r = 0;
    while r < 3 {
        let mut p = 0;
        while p < 8 {
            t[i] = (1 << point(r, p)) | (1 << point(r, p + 1)) | (1 << point(r, (p + 2) % 8));
            i += 1;
            p += 2;
        }
        r += 1;
    }
    let mut p = 1;
    while p < 8 {
        t[i] = (1 << point(0, p)) | (1 << point(1, p)) | (1 << point(2, p));
        i += 1;
        p += 2;
    }
    t
};

/// `MILLS_AT[pt]`: the two mills through a point.
pub static MILLS_AT: [[u32; 2]; 24] = {
    let mut t = [[0u32; 2]; 24];
    let mut pt = 0;
    while pt < 24 {
        let mut k = 0;
        let mut i = 0;
        while i < 16 {
            if MILLS[i] & (1 << pt) != 0 && k < 2 {
                t[pt][k] = MILLS[i];
                k += 1;
            }
            i += 1;
        }
        pt += 1;
    }
    t
};

/// Whether `men` forms a mill through `pt`.
#[inline(always)]
pub fn in_mill(men: u32, pt: u32) -> bool {
    let [a, b] = MILLS_AT[pt as usize];
    men & a == a || men & b == b
}

/// Every point's successor on its ring: bit `8r + p` of the result is bit
/// `8r + (p + 1) % 8` of `x`.
#[inline]
pub fn ring_next(x: u32) -> u32 {
    ((x >> 1) & 0x7F_7F7F) | ((x & 0x01_0101) << 7)
}

/// The 16 lines at once, each as one bit: ring side `k` of ring `r` (points
/// `2k`, `2k + 1`, `2k + 2` mod 8 of the ring) as bit `8r + 2k`, spoke `p`
/// (point `p` of each ring, `p` odd) as bit `p`. Terminals are read at every
/// leaf of every search, so they test all lines in a few word operations
/// rather than one line at a time.
const RING_SIDES: u32 = 0x55_5555;
const SPOKES: u32 = 0xAA;

/// `MILLS` indexed by the bit that stands for the line (0 elsewhere).
pub static LINE_AT_BIT: [u32; 24] = {
    let mut t = [0u32; 24];
    let mut i = 0;
    while i < 16 {
        let bit = if i < 12 { 8 * (i / 4) + 2 * (i % 4) } else { 2 * (i - 12) + 1 };
        t[bit] = MILLS[i];
        i += 1;
    }
    t
};

/// The lines where `keep(a, b, c)` holds, with `a`, `b`, `c` the line's
/// three points in each of `xs` (bits of the points of a set of points).
#[inline]
pub fn lines<const N: usize>(xs: [u32; N], keep: impl Fn([[u32; N]; 3]) -> u32) -> u32 {
    let first = xs;
    let second = xs.map(ring_next);
    let third = second.map(ring_next);
    let ring = keep([first, second, third]) & RING_SIDES;
    let spoke = keep([xs, xs.map(|x| x >> 8), xs.map(|x| x >> 16)]) & SPOKES;
    ring | spoke
}

/// The men of `men` that stand in a mill.
#[inline]
pub fn men_in_mills(men: u32) -> u32 {
    Bits(lines([men], |[[a], [b], [c]]| a & b & c)).fold(0, |acc, line| acc | LINE_AT_BIT[line as usize])
}

/// Every point's predecessor on its ring: bit `8r + p` of the result is bit
/// `8r + (p + 7) % 8` of `x`.
#[inline]
pub fn ring_prev(x: u32) -> u32 {
    ((x << 1) & 0xFE_FEFE) | ((x >> 7) & 0x01_0101)
}

/// The men of `men` next to an empty point (of `empty`): those that can step.
#[inline]
pub fn steppers(men: u32, empty: u32) -> u32 {
    men & (ring_next(empty)
        | ring_prev(empty)
        | ((empty >> 8) & SPOKES_OF_OUTER_RINGS)
        | ((empty << 8) & (SPOKES_OF_OUTER_RINGS << 8)))
}

/// How many (man, adjacent empty point) pairs there are: the steps of a
/// player who neither places nor flies, counted along the four kinds of
/// segment at once (ring successor, ring predecessor, spoke outwards and
/// inwards) instead of man by man.
#[inline]
pub fn n_steps(men: u32, empty: u32) -> u32 {
    (men & ring_next(empty)).count_ones()
        + (men & ring_prev(empty)).count_ones()
        + (men & (empty >> 8) & SPOKES_OF_OUTER_RINGS).count_ones()
        + (men & (empty << 8) & (SPOKES_OF_OUTER_RINGS << 8)).count_ones()
}

/// The spoke points (odd points) of the outer and middle rings.
const SPOKES_OF_OUTER_RINGS: u32 = 0xAAAA;

/// Column (0 = a) and row (0 = 1) of a point on the 7×7 grid.
pub const fn grid(pt: u32) -> (u32, u32) {
    let (r, p) = (pt / 8, pt % 8);
    let (lo, mid, hi) = (r, 3, 6 - r);
    match p {
        0 => (lo, hi),
        1 => (mid, hi),
        2 => (hi, hi),
        3 => (hi, mid),
        4 => (hi, lo),
        5 => (mid, lo),
        6 => (lo, lo),
        _ => (lo, mid),
    }
}

/// The name of a point, e.g. `a7`.
pub fn point_name(pt: u32) -> String {
    let (c, r) = grid(pt);
    format!("{}{}", (b'a' + c as u8) as char, r + 1)
}

/// The point with a name such as `d2`.
pub fn parse_point(name: &str) -> Option<u32> {
    let b = name.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let c = u32::from(b[0].to_ascii_lowercase().checked_sub(b'a')?);
    let r = u32::from(b[1].checked_sub(b'1')?);
    (0..24).find(|&pt| grid(pt) == (c, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_shape() {
        // 32 line segments: 24 along the rings, 8 along the spokes.
        let degree: u32 = ADJACENT.iter().map(|m| m.count_ones()).sum();
        assert_eq!(degree, 2 * 32);
        for pt in 0..24u32 {
            for q in 0..24u32 {
                assert_eq!(ADJACENT[pt as usize] & (1 << q) != 0, ADJACENT[q as usize] & (1 << pt) != 0);
            }
            assert_eq!(MILLS_AT[pt as usize].iter().filter(|m| **m != 0).count(), 2);
            assert_eq!(parse_point(&point_name(pt)), Some(pt));
        }
        assert_eq!(point_name(0), "a7");
        assert_eq!(point_name(13), "d2");
        assert_eq!(point_name(23), "c4");
        assert_eq!(INTERSECTIONS.count_ones(), 12);
        for pt in 0..24u32 {
            assert_eq!(INTERSECTIONS & (1 << pt) != 0, ADJACENT[pt as usize].count_ones() >= 3);
        }
    }

    #[test]
    fn word_operations_agree_with_the_tables() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            // xorshift: two random point sets, made disjoint.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (men, other) = ((x as u32) & ALL, ((x >> 32) as u32) & ALL);
            let empty = ALL & !men & !other;
            let steps: u32 = Bits(men).map(|f| (ADJACENT[f as usize] & empty).count_ones()).sum();
            assert_eq!(n_steps(men, empty), steps, "men {men:#x} empty {empty:#x}");
            let can: u32 = Bits(men).filter(|&f| ADJACENT[f as usize] & empty != 0).fold(0, |acc, f| acc | 1 << f);
            assert_eq!(steppers(men, empty), can, "men {men:#x} empty {empty:#x}");
            let in_mills = MILLS.iter().filter(|&&m| men & m == m).fold(0, |acc, &m| acc | m);
            assert_eq!(men_in_mills(men), in_mills, "men {men:#x}");
            for pt in 0..24 {
                assert_eq!(ring_prev(ring_next(1 << pt)), 1 << pt);
            }
        }
    }
}
