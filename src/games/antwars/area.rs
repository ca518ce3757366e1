//! The area type A of BrilliAnt's primset (seeds/003, section 3): a
//! rectangle given by its dimensions and its midpoint relative to the ant
//! (modulo the board), with a genotype→phenotype mapping that keeps the sum
//! of the dimensions at most 6 ("(2, 5) in the genotype are effectively
//! mapped to (1, 4)").
//!
//! Stratagem's types have three bases (F, I, B), so an area is an `I`: the
//! index of its genotype among all [`N_AREAS`] of them, in mixed radix
//! (width, height, row offset, column offset) — see [`Area::decode`] and
//! docs/ANTWARS.md. The `Rect` ERC draws that index uniformly, which draws
//! each of the four genes uniformly.

/// The largest genotype dimension (width or height).
pub const MAX_DIM: i64 = 6;
/// The largest sum of the phenotype's dimensions.
pub const MAX_DIM_SUM: i64 = 6;
/// The midpoint's offsets run over −5..=5: every cell of the 11-wide torus once.
pub const MAX_OFFSET: i64 = 5;
const OFFSETS: i64 = 2 * MAX_OFFSET + 1;
/// How many area genotypes there are: the `Rect` ERC is `(int 0 N_AREAS−1)`.
pub const N_AREAS: i64 = MAX_DIM * MAX_DIM * OFFSETS * OFFSETS;

/// An area as trees use it (the phenotype): `width` columns by `height`
/// rows around the midpoint `(row, col)`, in the tree's frame, relative to
/// the ant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Area {
    pub width: i32,
    pub height: i32,
    pub row: i32,
    pub col: i32,
}

impl Area {
    /// The area of genotype `index` (clamped to 0..N_AREAS, so a literal
    /// written by hand outside the range still means some area):
    /// `index = ((w − 1)·6 + (h − 1))·121 + (row + 5)·11 + (col + 5)`.
    pub fn decode(index: i64) -> Area {
        let i = index.clamp(0, N_AREAS - 1);
        let col = i % OFFSETS - MAX_OFFSET;
        let row = (i / OFFSETS) % OFFSETS - MAX_OFFSET;
        let h = (i / (OFFSETS * OFFSETS)) % MAX_DIM + 1;
        let w = i / (OFFSETS * OFFSETS * MAX_DIM) + 1;
        let (width, height) = phenotype_dims(w, h);
        Area { width: width as i32, height: height as i32, row: row as i32, col: col as i32 }
    }

    /// The genotype index of width `w`, height `h` (1..=6) and midpoint
    /// offsets (−5..=5): the inverse of [`Area::decode`] before the mapping.
    pub fn encode(w: i64, h: i64, row: i64, col: i64) -> i64 {
        ((w - 1) * MAX_DIM + (h - 1)) * OFFSETS * OFFSETS + (row + MAX_OFFSET) * OFFSETS + (col + MAX_OFFSET)
    }

    /// The cells of the area as (row, column) offsets from the ant, in the
    /// tree's frame. An even dimension extends one more cell after the
    /// midpoint than before it.
    pub fn offsets(self) -> impl Iterator<Item = (i32, i32)> {
        let top = self.row - (self.height - 1) / 2;
        let left = self.col - (self.width - 1) / 2;
        (0..self.height).flat_map(move |r| (0..self.width).map(move |c| (top + r, left + c)))
    }
}

/// The paper's mapping of genotype dimensions to phenotype ones: when their
/// sum exceeds 6 both are scaled by 6 / sum and rounded down (so (2, 5)
/// becomes (1, 4), the paper's example), and a dimension is at least 1.
fn phenotype_dims(w: i64, h: i64) -> (i64, i64) {
    let sum = w + h;
    if sum <= MAX_DIM_SUM {
        return (w, h);
    }
    ((w * MAX_DIM_SUM / sum).max(1), (h * MAX_DIM_SUM / sum).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_papers_example_maps_2_5_to_1_4() {
        assert_eq!(phenotype_dims(2, 5), (1, 4));
        assert_eq!(phenotype_dims(3, 3), (3, 3));
        assert_eq!(phenotype_dims(1, 6), (1, 5));
        assert_eq!(phenotype_dims(6, 6), (3, 3));
    }

    #[test]
    fn every_genotype_decodes_to_an_area_of_dimension_sum_at_most_6() {
        for index in 0..N_AREAS {
            let a = Area::decode(index);
            assert!(a.width >= 1 && a.height >= 1 && a.width + a.height <= 6, "{index}: {a:?}");
            assert!(a.row.abs() <= 5 && a.col.abs() <= 5);
            assert_eq!(a.offsets().count() as i32, a.width * a.height);
        }
    }

    #[test]
    fn encode_and_decode_agree_and_out_of_range_indices_clamp() {
        let i = Area::encode(2, 3, -1, 4);
        assert_eq!(Area::decode(i), Area { width: 2, height: 3, row: -1, col: 4 });
        assert_eq!(Area::decode(-7), Area::decode(0));
        assert_eq!(Area::decode(i64::MAX), Area::decode(N_AREAS - 1));
        assert_eq!(Area::decode(Area::encode(1, 1, 0, 0)).offsets().collect::<Vec<_>>(), vec![(0, 0)]);
        let cells: Vec<_> = Area::decode(Area::encode(2, 1, -1, 0)).offsets().collect();
        assert_eq!(cells, vec![(-1, 0), (-1, 1)], "an even width extends after the midpoint");
    }
}
