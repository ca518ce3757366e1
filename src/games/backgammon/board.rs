//! The checkers of a backgammon position, seen from one side: what move
//! generation, the Position ID and Pubeval all read.
//!
//! Each side's checkers are counted on its own points, as GNU Backgammon
//! keeps them: index 0 is the side's 1-point (the last point of its home
//! board), index 23 its 24-point, [`BAR`] its checkers on the bar; checkers
//! borne off are the rest of [`CHECKERS`]. A side's point `p` (1–24) is the
//! other side's point `25 - p`.

/// Checkers each side plays with.
pub const CHECKERS: u8 = 15;
/// The index of the bar in a side's counts.
pub const BAR: usize = 24;

/// Both sides' checkers, the side on roll first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The side on roll's counts (points 1–24, then the bar).
    pub me: [u8; 25],
    /// The other side's counts, on its own points.
    pub them: [u8; 25],
}

impl Board {
    /// The standard starting position (symmetric).
    pub fn initial() -> Board {
        let mut side = [0u8; 25];
        side[23] = 2;
        side[12] = 5;
        side[7] = 3;
        side[5] = 5;
        Board { me: side, them: side }
    }

    /// The board as the other side sees it (it is on roll next).
    pub fn swapped(&self) -> Board {
        Board { me: self.them, them: self.me }
    }

    /// Checkers of `side` still on the board (points and bar).
    pub fn on_board(side: &[u8; 25]) -> u8 {
        side.iter().sum()
    }

    /// Checkers of `side` borne off.
    pub fn borne_off(side: &[u8; 25]) -> u8 {
        CHECKERS - Board::on_board(side)
    }

    /// Whether the sides can still hit each other: some checker of the side
    /// on roll stands behind (on a higher point of its own than) some
    /// checker of the other side. Otherwise the game is a race.
    pub fn is_contact(&self) -> bool {
        // My rearmost checker, on my points (the bar counts as 25).
        let my_back = (0..25).rev().find(|&i| self.me[i] > 0).map_or(0, |i| i + 1);
        // Their rearmost checker, on their points; on mine it is 25 - that.
        let their_back = (0..25).rev().find(|&i| self.them[i] > 0).map_or(0, |i| i + 1);
        my_back > 0 && their_back > 0 && my_back + their_back > 25
    }
}
