//! Rush Hour boards: the fixed layout of a puzzle (size, walls, each
//! vehicle's letter, orientation, length and line) and the compact state that
//! searches copy and hash (the vehicles' positions along their lines, four
//! bits each, in one `u128`).
//!
//! Both published text formats are read as they are: a board is n×n
//! characters, row by row from the top (36 for 6×6, 64 for 8×8).
//! - The 40 cards (`cards40.txt`): `.` empty, `X` the red car, other letters
//!   cars and trucks.
//! - Fogleman's database (`rush_12k.txt`): `o` empty, `x` a wall, `A` the red
//!   car, other letters cars and trucks.
//!
//! The red car is `X` when the board holds an `X`, otherwise `A`. It lies
//! horizontally on the exit row (row n/2 − 1 from the top: the third row of
//! 6×6, the fourth of 8×8) and leaves by the right edge. A board is written
//! back with the empty character it was read with.
//!
//! Layouts are interned: every board read with the same layout shares one
//! `&'static Layout`, so a state is `Copy`. Distinct layouts stay for the
//! process (a few kilobytes each).

use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::sync::{LazyLock, Mutex, PoisonError};

use crate::games::ParseError;

/// Positions are four bits each in a `u128`.
pub const MAX_VEHICLES: usize = 32;

/// One vehicle of a layout.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Vehicle {
    /// The letter the board writes it with.
    pub letter: u8,
    pub horizontal: bool,
    /// 2 for a car, 3 for a truck.
    pub len: u8,
    /// The row of a horizontal vehicle, the column of a vertical one.
    pub line: u8,
}

/// What does not change while a puzzle is solved.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// n: the board is n×n (6 or 8).
    pub size: u8,
    /// One bit per cell (row × n + column).
    pub walls: u64,
    /// The red car first, then the other vehicles by letter.
    pub vehicles: Vec<Vehicle>,
    /// The empty cell's character as read: `.` or `o`.
    pub empty: u8,
    /// Per vehicle, per coordinate along its line, the cell's bit.
    cells: Vec<[u64; 8]>,
    /// Per vehicle, per position, the cells it covers.
    masks: Vec<[u64; 8]>,
    /// Per vehicle, every cell it can ever cover: its line's stretch between
    /// walls where it was read (a vehicle never crosses a wall, so boards of
    /// one puzzle share it; boards with a vehicle on either side of a wall
    /// have distinct layouts).
    tracks: Vec<u64>,
    /// Per vehicle, the union of the other vehicles' tracks.
    others_tracks: Vec<u64>,
    /// Per cell, one bit per vehicle whose line runs through it.
    lines_through: [u32; 64],
}

impl Layout {
    /// The row the red car leaves by.
    pub fn exit_row(&self) -> u8 {
        self.size / 2 - 1
    }

    /// The red car's position at the goal: its right end at the exit.
    pub fn goal_pos(&self) -> u8 {
        self.size - self.vehicles[0].len
    }

    /// The bit of the cell at coordinate `q` along vehicle `v`'s line.
    #[inline]
    pub fn cell(&self, v: usize, q: u8) -> u64 {
        self.cells[v][usize::from(q)]
    }

    /// The cells vehicle `v` covers at position `p`.
    #[inline]
    pub fn mask(&self, v: usize, p: u8) -> u64 {
        self.masks[v][usize::from(p)]
    }

    /// The cells any vehicle but `v` can ever cover.
    #[inline]
    pub fn others_track(&self, v: usize) -> u64 {
        self.others_tracks[v]
    }

    /// One bit per vehicle whose line runs through a cell of `cells`.
    #[inline]
    pub fn lines_through(&self, cells: u64) -> u32 {
        let mut vehicles = 0;
        let mut rest = cells;
        while rest != 0 {
            vehicles |= self.lines_through[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        vehicles
    }

    /// The index of the vehicle written with `letter`.
    pub fn vehicle_of(&self, letter: u8) -> Option<usize> {
        self.vehicles.iter().position(|v| v.letter == letter)
    }
}

/// A position: where each vehicle of its layout stands.
#[derive(Clone, Copy)]
pub struct Board {
    pos: u128,
    layout: &'static Layout,
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.pos == other.pos && std::ptr::eq(self.layout, other.layout)
    }
}

impl Eq for Board {}

impl Hash for Board {
    /// Only the positions: the boards a search meets share one layout.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.pos.hash(state);
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_board(self))
    }
}

impl Board {
    pub fn layout(&self) -> &'static Layout {
        self.layout
    }

    /// Vehicle `v`'s position: the column of a horizontal vehicle's left
    /// end, the row of a vertical vehicle's top end.
    #[inline]
    pub fn pos(&self, v: usize) -> u8 {
        ((self.pos >> (4 * v)) & 0xf) as u8
    }

    /// The board with vehicle `v` at `p`.
    #[inline]
    pub fn with(&self, v: usize, p: u8) -> Board {
        debug_assert_eq!(self.layout.mask(v, p) & !self.layout.tracks[v], 0, "a vehicle never crosses a wall");
        let shift = 4 * v;
        Board { pos: (self.pos & !(0xf << shift)) | (u128::from(p) << shift), layout: self.layout }
    }

    /// Every cell a wall or a vehicle covers.
    #[inline]
    pub fn occupied(&self) -> u64 {
        (0..self.layout.vehicles.len()).fold(self.layout.walls, |occ, v| occ | self.layout.mask(v, self.pos(v)))
    }

    /// The red car stands at the exit.
    #[inline]
    pub fn is_goal(&self) -> bool {
        self.pos(0) == self.layout.goal_pos()
    }
}

static LAYOUTS: LazyLock<Mutex<HashSet<&'static Layout>>> = LazyLock::new(|| Mutex::new(HashSet::new()));

/// The one shared copy of `layout`.
fn intern(layout: Layout) -> &'static Layout {
    let mut set = LAYOUTS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = set.get(&layout) {
        return known;
    }
    let leaked: &'static Layout = Box::leak(Box::new(layout));
    set.insert(leaked);
    leaked
}

const CELLS_HELP: &str = "a board is one character per cell, row by row from the top: `.` or `o` empty, \
                          `x` a wall, a capital letter a vehicle; the red car is `X` (the cards) or `A` \
                          (Fogleman's boards)";

/// Reads a board in either format; `text` is the board alone.
pub fn parse_board(text: &str) -> Result<Board, ParseError> {
    if let Some((at, c)) = text.char_indices().find(|&(_, c)| !matches!(c, '.' | 'o' | 'x' | 'A'..='Z')) {
        return Err(ParseError::new(format!("`{c}` is not a cell of a Rush Hour board"), at..at + c.len_utf8())
            .with_help(CELLS_HELP));
    }
    let bytes = text.as_bytes();
    let size: u8 = match bytes.len() {
        36 => 6,
        64 => 8,
        n => {
            return Err(ParseError::new(
                format!("a Rush Hour board has 36 cells (6×6) or 64 (8×8), and this one has {n}"),
                0..n,
            )
            .with_help(CELLS_HELP));
        }
    };
    let n = usize::from(size);
    let red = if bytes.contains(&b'X') { b'X' } else { b'A' };
    let empty = bytes.iter().copied().find(|&c| c == b'.' || c == b'o').unwrap_or(b'o');
    let mut walls = 0u64;
    let mut cells_of: [Vec<usize>; 26] = Default::default();
    for (i, &c) in bytes.iter().enumerate() {
        match c {
            b'x' => walls |= 1 << i,
            b'A'..=b'Z' => cells_of[usize::from(c - b'A')].push(i),
            _ => {}
        }
    }
    let mut vehicles = Vec::new();
    let mut positions = Vec::new();
    let letters = std::iter::once(red).chain((b'A'..=b'Z').filter(|&c| c != red));
    for letter in letters {
        let cells = &cells_of[usize::from(letter - b'A')];
        let (Some(&first), Some(&last)) = (cells.first(), cells.last()) else {
            if letter == red {
                return Err(ParseError::new(format!("the board has no red car `{}`", char::from(red)), 0..bytes.len())
                    .with_help(CELLS_HELP));
            }
            continue;
        };
        let span = first..last + 1;
        let name = char::from(letter);
        let len = cells.len();
        if len == 1 {
            return Err(ParseError::new(format!("vehicle `{name}` covers 1 cell"), span)
                .with_help("cars cover 2 cells and trucks 3"));
        }
        let (r0, c0) = (first / n, first % n);
        let horizontal = cells.iter().enumerate().all(|(k, &i)| i / n == r0 && i % n == c0 + k);
        let vertical = cells.iter().enumerate().all(|(k, &i)| i % n == c0 && i / n == r0 + k);
        if !horizontal && !vertical {
            return Err(ParseError::new(format!("vehicle `{name}` is not a straight line of adjacent cells"), span)
                .with_help("a vehicle lies along one row or one column; two vehicles cannot share a letter"));
        }
        if len > 3 {
            return Err(ParseError::new(format!("vehicle `{name}` covers {len} cells"), span)
                .with_help("cars cover 2 cells and trucks 3"));
        }
        if letter == red && !(horizontal && r0 == usize::from(size / 2 - 1)) {
            return Err(ParseError::new(
                format!("the red car `{name}` must lie across row {} from the top, the exit row", size / 2),
                span,
            )
            .with_help("the red car leaves by the right edge of the exit row"));
        }
        let (line, pos) = if horizontal { (r0, c0) } else { (c0, r0) };
        vehicles.push(Vehicle { letter, horizontal, len: len as u8, line: line as u8 });
        positions.push(pos as u8);
    }
    if vehicles.len() > MAX_VEHICLES {
        return Err(ParseError::new(format!("more than {MAX_VEHICLES} vehicles"), 0..bytes.len()));
    }
    let cells: Vec<[u64; 8]> = vehicles
        .iter()
        .map(|v| {
            let mut bits = [0u64; 8];
            for (q, bit) in bits.iter_mut().enumerate().take(n) {
                let (r, c) = if v.horizontal { (usize::from(v.line), q) } else { (q, usize::from(v.line)) };
                *bit = 1 << (r * n + c);
            }
            bits
        })
        .collect();
    let masks: Vec<[u64; 8]> = vehicles
        .iter()
        .zip(&cells)
        .map(|(v, bits)| {
            let mut masks = [0u64; 8];
            for (p, mask) in masks.iter_mut().enumerate().take(n + 1 - usize::from(v.len)) {
                *mask = bits[p..p + usize::from(v.len)].iter().fold(0, |m, b| m | b);
            }
            masks
        })
        .collect();
    let tracks: Vec<u64> = masks
        .iter()
        .zip(&vehicles)
        .zip(&positions)
        .map(|((masks, v), &p)| {
            let open = |p: &u8| masks[usize::from(*p)] & walls == 0;
            let lo = (0..p).rev().take_while(open).last().unwrap_or(p);
            let hi = (p + 1..=size - v.len).take_while(open).last().unwrap_or(p);
            (lo..=hi).fold(0, |track, p| track | masks[usize::from(p)])
        })
        .collect();
    let others_tracks = (0..vehicles.len())
        .map(|v| tracks.iter().enumerate().filter(|&(w, _)| w != v).fold(0, |others, (_, t)| others | t))
        .collect();
    let mut lines_through = [0u32; 64];
    for (v, bits) in cells.iter().enumerate() {
        for bit in &bits[..n] {
            lines_through[bit.trailing_zeros() as usize] |= 1 << v;
        }
    }
    let layout = intern(Layout { size, walls, vehicles, empty, cells, masks, tracks, others_tracks, lines_through });
    let pos = positions.iter().enumerate().fold(0u128, |acc, (v, &p)| acc | (u128::from(p) << (4 * v)));
    Ok(Board { pos, layout })
}

/// Writes `board` in the format it was read in.
pub fn format_board(board: &Board) -> String {
    let layout = board.layout;
    let n = usize::from(layout.size);
    let mut cells = vec![layout.empty; n * n];
    for (i, cell) in cells.iter_mut().enumerate() {
        if layout.walls >> i & 1 == 1 {
            *cell = b'x';
        }
    }
    for (v, vehicle) in layout.vehicles.iter().enumerate() {
        let mask = layout.mask(v, board.pos(v));
        for (i, cell) in cells.iter_mut().enumerate() {
            if mask >> i & 1 == 1 {
                *cell = vehicle.letter;
            }
        }
    }
    String::from_utf8_lossy(&cells).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_read_and_write_back_in_their_format() {
        for text in ["AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR.", "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM"] {
            let board = parse_board(text).expect("a board");
            assert_eq!(format_board(&board), text);
        }
        let card = parse_board("AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR.").expect("card 1");
        let layout = card.layout();
        assert_eq!(layout.vehicles[0].letter, b'X');
        assert_eq!((card.pos(0), layout.goal_pos()), (1, 4));
        let again = parse_board("AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR.").expect("card 1");
        assert!(std::ptr::eq(again.layout(), layout), "layouts are shared");
    }

    #[test]
    fn malformed_boards_are_refused_with_a_span() {
        let cases = [
            ("AA..", "36 cells (6×6) or 64", 0..4),
            ("AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR!", "`!` is not a cell", 35..36),
            ("AA...OP..Q.OPXXQ.OP..Q..B...CCB.RR.R", "`R` is not a straight line", 32..36),
            ("AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRRR", "`R` covers 4 cells", 32..36),
            ("AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRRZ", "`Z` covers 1 cell", 35..36),
            ("BB...OP..Q.OP..Q.OP..Q..C...DDC.RRR.", "no red car `A`", 0..36),
            ("AA...OP.XQ.OP.XQ.OP..Q..B...CCB.RRR.", "the red car `X` must lie across row 3", 8..15),
            ("XX...OP..Q.OP..Q.OP..Q..B...CCB.RRR.", "the red car `X` must lie across row 3", 0..2),
        ];
        for (text, message, span) in cases {
            let err = parse_board(text).expect_err(text);
            assert!(err.message.contains(message), "{text}: {}", err.message);
            assert_eq!(err.span, span, "{text}: {}", err.message);
        }
    }
}
