//! Board geometry of 8×8 checkers on 32-bit bitboards.
//!
//! Bit `i` (0..32) is square `i + 1` of the standard (PDN) numbering: squares
//! 1–4 form the top row, where Black (player 0) starts on 1–12 and moves down
//! towards 29–32; White (player 1) starts on 21–32 and moves up. Row `i / 4`
//! counts from the top; even rows hold their dark squares in columns b, d, f, h
//! (1, 3, 5, 7), odd rows in columns a, c, e, g (0, 2, 4, 6). So square 29 is
//! a1 and square 4 is h8, with White's side at the bottom as in printed
//! diagrams.
//!
//! A diagonal step is a shift by 3, 4 or 5 depending on the row's parity,
//! with masks for the squares on the board's edge columns.

pub use crate::games::Bits;

/// Rows 0, 2, 4, 6 (squares 1–4, 9–12, 17–20, 25–28).
pub const EVEN_ROWS: u32 = 0x0F0F_0F0F;
/// Rows 1, 3, 5, 7.
pub const ODD_ROWS: u32 = 0xF0F0_F0F0;
/// Column a: squares 5, 13, 21, 29.
pub const COL_A: u32 = 0x1010_1010;
/// Column h: squares 4, 12, 20, 28.
pub const COL_H: u32 = 0x0808_0808;
/// Row 0 (squares 1–4): where White men are crowned.
pub const TOP_ROW: u32 = 0x0000_000F;
/// Row 7 (squares 29–32): where Black men are crowned.
pub const BOTTOM_ROW: u32 = 0xF000_0000;

/// The four diagonal directions. Black men move `DownLeft`/`DownRight`,
/// White men `UpLeft`/`UpRight`, kings all four.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    UpLeft = 0,
    UpRight = 1,
    DownLeft = 2,
    DownRight = 3,
}

pub const DIRS: [Dir; 4] = [Dir::UpLeft, Dir::UpRight, Dir::DownLeft, Dir::DownRight];

impl Dir {
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::UpLeft => Dir::DownRight,
            Dir::UpRight => Dir::DownLeft,
            Dir::DownLeft => Dir::UpRight,
            Dir::DownRight => Dir::UpLeft,
        }
    }
}

/// Moves every square of `b` one diagonal step in `dir`; squares that would
/// leave the board vanish.
#[inline(always)]
pub const fn step(dir: Dir, b: u32) -> u32 {
    match dir {
        Dir::UpLeft => ((b & EVEN_ROWS) >> 4) | ((b & ODD_ROWS & !COL_A) >> 5),
        Dir::UpRight => ((b & EVEN_ROWS & !COL_H) >> 3) | ((b & ODD_ROWS) >> 4),
        Dir::DownLeft => ((b & EVEN_ROWS) << 4) | ((b & ODD_ROWS & !COL_A) << 3),
        Dir::DownRight => ((b & EVEN_ROWS & !COL_H) << 5) | ((b & ODD_ROWS) << 4),
    }
}

/// `NEIGHBOR[dir][sq]`: the one-bit mask of the square next to `sq` in
/// `dir`, or 0 at the edge.
pub static NEIGHBOR: [[u32; 32]; 4] = {
    let mut t = [[0u32; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 32 {
            t[d][sq] = step(DIRS[d], 1 << sq);
            sq += 1;
        }
        d += 1;
    }
    t
};

/// Row (0 = top, squares 1–4) and column (0 = a) of a square index.
pub const fn row_col(sq: u32) -> (u32, u32) {
    let row = sq / 4;
    let col = 2 * (sq % 4) + if row.is_multiple_of(2) { 1 } else { 0 };
    (row, col)
}

/// The square index at a row and column, if that is a dark square on the board.
pub const fn square_at(row: u32, col: u32) -> Option<u32> {
    if row >= 8 || col >= 8 || (row + col).is_multiple_of(2) {
        return None;
    }
    Some(row * 4 + col / 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_matches_the_numbering() {
        // Square 1 is b8, 5 is a7, 29 is a1, 32 is g1.
        assert_eq!(row_col(0), (0, 1));
        assert_eq!(row_col(4), (1, 0));
        assert_eq!(row_col(28), (7, 0));
        assert_eq!(row_col(31), (7, 6));
        for sq in 0..32 {
            let (r, c) = row_col(sq);
            assert_eq!(square_at(r, c), Some(sq));
            for (d, (dr, dc)) in [(-1i32, -1i32), (-1, 1), (1, -1), (1, 1)].into_iter().enumerate() {
                let (nr, nc) = (r as i32 + dr, c as i32 + dc);
                let expect = if (0..8).contains(&nr) && (0..8).contains(&nc) {
                    square_at(nr as u32, nc as u32).map_or(0, |s| 1 << s)
                } else {
                    0
                };
                assert_eq!(NEIGHBOR[d][sq as usize], expect, "square {} dir {d}", sq + 1);
            }
        }
    }
}
