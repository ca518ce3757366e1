//! Hard boards, generated: `stratagem rush-hour generate`. Slides are
//! reversible, so the boards one slide apart form clusters; the hardest
//! puzzle of a cluster is its board farthest from every solved board
//! (Fogleman's database is built the same way). A generated board is found
//! by hill climbing over layouts: start from random vehicles, take the
//! hardest board of its cluster, change one vehicle (add, remove or move
//! one) and keep the change when the new cluster's hardest board is at least
//! as long, until it reaches the length asked for.

use std::collections::VecDeque;

use rand::{Rng, RngExt};
use rustc_hash::FxHashMap;

use super::board::{Board, format_board, parse_board};
use super::{Slide, every_slide};

/// Boards of one cluster, at most: a larger cluster is left for another
/// (long puzzles live in small clusters: the longest 6×6 one, 51 slides, in
/// one of 24,132 boards; a large cluster is loose and short).
pub const CLUSTER_LIMIT: usize = 100_000;

/// Changes tried from one start before starting again.
const CLIMB_STEPS: usize = 400;

/// Vehicle letters besides the red car `A`: `X` is left out, since the
/// cards' format reads it as the red car.
pub(super) const LETTERS: &[u8] = b"BCDEFGHIJKLMNOPQRSTUVWYZ";

/// A generated puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// In Fogleman's format: `o` empty, `A` the red car.
    pub board: String,
    /// Its optimal solution's length (slides, the exit included).
    pub length: u32,
    /// Boards of its cluster.
    pub cluster: usize,
}

/// A vehicle to place: horizontal or not, its length, its row (horizontal)
/// or column (vertical), and its first cell along that line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    horizontal: bool,
    len: u8,
    line: u8,
    at: u8,
}

impl Piece {
    fn cells(self, n: u8) -> impl Iterator<Item = usize> {
        (self.at..self.at + self.len).map(move |k| {
            let (r, c) = if self.horizontal { (self.line, k) } else { (k, self.line) };
            usize::from(r) * usize::from(n) + usize::from(c)
        })
    }
}

/// A board of size `n` (6 or 8) whose optimal solution is at least
/// `min_length` slides, drawn by `rng`; `None` if `attempts` climbs found
/// none.
pub fn generate(n: u8, min_length: u32, rng: &mut impl Rng, attempts: usize) -> Option<Generated> {
    let exit_row = n / 2 - 1;
    let mut best: Option<Generated> = None;
    for _ in 0..attempts {
        let red = Piece { horizontal: true, len: 2, line: exit_row, at: rng.random_range(0..n - 2) };
        let mut pieces = vec![red];
        let target = rng.random_range(usize::from(n) + 2..usize::from(n) * 2 + 2);
        while pieces.len() < target {
            if !add_random(&mut pieces, n, rng) {
                break;
            }
        }
        // A loose board's cluster is over the limit: more vehicles tighten it.
        let mut start = hardest(&pieces, n);
        while start.is_none() && add_random(&mut pieces, n, rng) {
            start = hardest(&pieces, n);
        }
        let Some(mut current) = start else { continue };
        for _ in 0..CLIMB_STEPS {
            if current.1.length >= min_length {
                return Some(current.1);
            }
            let mut changed = current.0.clone();
            match rng.random_range(0..3) {
                0 => {
                    add_random(&mut changed, n, rng);
                }
                1 if changed.len() > 1 => {
                    changed.remove(rng.random_range(1..changed.len()));
                }
                _ if changed.len() > 1 => {
                    changed.remove(rng.random_range(1..changed.len()));
                    add_random(&mut changed, n, rng);
                }
                _ => continue,
            }
            if let Some(next) = hardest(&changed, n)
                && next.1.length >= current.1.length
            {
                current = next;
            }
        }
        if best.as_ref().is_none_or(|b| current.1.length > b.length) {
            best = Some(current.1);
        }
    }
    best.filter(|b| b.length >= min_length)
}

/// Adds a vehicle at random free cells (never a horizontal one on the exit
/// row, which could not pass the red car); false if 50 tries found no room.
fn add_random(pieces: &mut Vec<Piece>, n: u8, rng: &mut impl Rng) -> bool {
    if pieces.len() > LETTERS.len() {
        return false;
    }
    let mut taken = vec![false; usize::from(n) * usize::from(n)];
    for p in pieces.iter() {
        p.cells(n).for_each(|c| taken[c] = true);
    }
    for _ in 0..50 {
        let len = if rng.random_range(0..4) == 0 { 3 } else { 2 };
        let piece = Piece {
            horizontal: rng.random_bool(0.5),
            len,
            line: rng.random_range(0..n),
            at: rng.random_range(0..=n - len),
        };
        if piece.horizontal && piece.line == n / 2 - 1 {
            continue;
        }
        if piece.cells(n).all(|c| !taken[c]) {
            pieces.push(piece);
            return true;
        }
    }
    false
}

/// The pieces as a board in Fogleman's format.
fn board_text(pieces: &[Piece], n: u8) -> String {
    let mut cells = vec![b'o'; usize::from(n) * usize::from(n)];
    for (k, p) in pieces.iter().enumerate() {
        let letter = if k == 0 { b'A' } else { LETTERS[k - 1] };
        p.cells(n).for_each(|c| cells[c] = letter);
    }
    String::from_utf8_lossy(&cells).into_owned()
}

/// The pieces of a board (the red car first, as the layout lists it).
fn pieces_of(board: &Board) -> Vec<Piece> {
    let layout = board.layout();
    layout
        .vehicles
        .iter()
        .enumerate()
        .map(|(v, vehicle)| Piece {
            horizontal: vehicle.horizontal,
            len: vehicle.len,
            line: vehicle.line,
            at: board.pos(v),
        })
        .collect()
}

/// The hardest board of the cluster of the pieces' board, with its pieces;
/// `None` when the cluster has no solved board (unsolvable) or is over
/// [`CLUSTER_LIMIT`].
fn hardest(pieces: &[Piece], n: u8) -> Option<(Vec<Piece>, Generated)> {
    let start = parse_board(&board_text(pieces, n)).ok()?;
    // Every board of the cluster, by breadth-first search from the start.
    let mut index: FxHashMap<Board, u32> = FxHashMap::default();
    let mut boards = vec![start];
    index.insert(start, 0);
    let mut moves: Vec<Slide> = Vec::new();
    let mut k = 0;
    while k < boards.len() {
        let board = boards[k];
        k += 1;
        moves.clear();
        every_slide(&board, &mut moves);
        for m in &moves {
            let next = board.with(usize::from(m.vehicle), m.to);
            if let std::collections::hash_map::Entry::Vacant(slot) = index.entry(next) {
                if boards.len() >= CLUSTER_LIMIT {
                    return None;
                }
                slot.insert(boards.len() as u32);
                boards.push(next);
            }
        }
    }
    // Distances to the nearest solved board, by breadth-first search from
    // all of them at once.
    let mut distance = vec![u32::MAX; boards.len()];
    let mut queue: VecDeque<usize> = VecDeque::new();
    for (i, b) in boards.iter().enumerate() {
        if b.is_goal() {
            distance[i] = 0;
            queue.push_back(i);
        }
    }
    queue.front()?;
    while let Some(i) = queue.pop_front() {
        moves.clear();
        every_slide(&boards[i], &mut moves);
        for m in &moves {
            let j = index[&boards[i].with(usize::from(m.vehicle), m.to)] as usize;
            if distance[j] == u32::MAX {
                distance[j] = distance[i] + 1;
                queue.push_back(j);
            }
        }
    }
    let (far, &length) = distance.iter().enumerate().max_by_key(|&(i, d)| (*d, std::cmp::Reverse(i)))?;
    let board = boards[far];
    Some((pieces_of(&board), Generated { board: format_board(&board), length, cluster: boards.len() }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::puzzle::bfs;

    #[test]
    fn generated_boards_are_as_long_as_bfs_says() {
        let mut rng = crate::rng::stream(3, &[0]);
        let g = generate(6, 12, &mut rng, 20).expect("a 6×6 board of 12 slides");
        assert!(g.length >= 12, "{g:?}");
        let board = parse_board(&g.board).expect("a generated board reads back");
        let solution = bfs(&super::super::RushHour, &board, 10_000_000);
        assert_eq!(solution.moves.as_ref().map(Vec::len), Some(g.length as usize), "{g:?}");
    }
}
