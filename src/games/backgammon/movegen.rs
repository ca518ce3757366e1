//! Move generation: every play of a roll, one per position it reaches.
//!
//! The rules: checkers on the bar enter first; a checker may land on a point
//! with at most one opposing checker (a blot, which it hits to the bar);
//! checkers bear off once all fifteen are in the home board, with the exact
//! die or a higher die from the highest occupied point. A player uses both
//! dice (four times a double's) when any sequence allows it, else as many as
//! it can; when only one die of a roll can be used, the larger must be if
//! it can. Plays reaching the same position are one play, as gnubg lists
//! them; without a legal step the only play is the empty one (a pass).
//!
//! Generation writes into the caller's vector; it allocates only when a
//! roll has more plays than any before on the thread.

use std::cell::RefCell;

use super::board::{BAR, Board};
use super::dice::Roll;

/// Steps of a play: up to four (a double).
pub const MAX_STEPS: usize = 4;
/// The point a checker on the bar moves from.
pub const BAR_POINT: u8 = 25;
/// The point a checker borne off moves to.
pub const OFF_POINT: u8 = 0;

/// One play of a roll: the checkers moved (in the order found) and the
/// board it leaves, still from the mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Play {
    /// `(from, to)` on the mover's points: [`BAR_POINT`] from the bar,
    /// [`OFF_POINT`] off.
    pub steps: [(u8, u8); MAX_STEPS],
    pub n_steps: u8,
    /// The die the first step used (what the larger-die rule looks at).
    pub first_die: u8,
    pub after: Board,
}

impl Play {
    /// The steps played.
    pub fn steps(&self) -> &[(u8, u8)] {
        &self.steps[..usize::from(self.n_steps)]
    }
}

/// The board after one checker of the side on roll moves `die` pips from
/// `from` (1–24, or [`BAR_POINT`]), and the point it reaches; `None` if
/// the rules forbid it. Entering before anything else is the caller's.
pub fn step(board: &Board, from: u8, die: u8) -> Option<(Board, u8)> {
    let from_idx = usize::from(from) - 1;
    if board.me[from_idx] == 0 {
        return None;
    }
    let to = i32::from(from) - i32::from(die);
    let mut after = *board;
    after.me[from_idx] -= 1;
    if to >= 1 {
        let to = to as usize;
        let theirs = 24 - to;
        match board.them[theirs] {
            0 => {}
            1 => {
                after.them[theirs] = 0;
                after.them[BAR] += 1;
            }
            _ => return None,
        }
        after.me[to - 1] += 1;
        return Some((after, to as u8));
    }
    // Bearing off: everyone home, and with a higher die only from the
    // highest point occupied.
    if board.me[6..].iter().any(|&n| n > 0) {
        return None;
    }
    if to < 0 && board.me[from_idx + 1..6].iter().any(|&n| n > 0) {
        return None;
    }
    Some((after, OFF_POINT))
}

/// What a list of plays holds: plays, or moves of which some are plays (the
/// game's moves, so that plays are written straight into the caller's list).
pub trait AsPlay: From<Play> {
    fn as_play(&self) -> Option<&Play>;
}

impl AsPlay for Play {
    fn as_play(&self) -> Option<&Play> {
        Some(self)
    }
}

/// Clears `plays` and writes the legal plays of `roll` on `board` (the side
/// on roll's), one per position reached.
pub fn generate<T: From<Play>>(board: &Board, roll: Roll, plays: &mut Vec<T>) {
    plays.clear();
    search(board, roll, |found| plays.extend(found.iter().map(|f| T::from(f.play(board)))));
}

/// The play of index `pick(n)` among the `n` that [`generate`] lists, made
/// without making the others (what random playouts need).
pub fn nth_play(board: &Board, roll: Roll, pick: impl FnOnce(usize) -> usize) -> Play {
    search(board, roll, |found| found[pick(found.len())].play(board))
}

/// Finds the plays of `roll` and hands them to `then`.
fn search<R>(board: &Board, roll: Roll, then: impl FnOnce(&[Found]) -> R) -> R {
    SEEN.with_borrow_mut(|seen| {
        seen.clear();
        let mut search = Search::new(board, seen);
        if roll.is_double() {
            search.dice = [roll.0; MAX_STEPS];
            search.n_dice = MAX_STEPS;
            search.descending = true;
            // More than four checkers outside the home board: none can
            // bear off in this play.
            search.distinct = board.me[6..].iter().sum::<u8>() > 4;
            search.extend(0, BAR as u32);
        } else {
            search.dice[..2].copy_from_slice(&[roll.0, roll.1]);
            search.extend(0, BAR as u32);
            search.dice[..2].copy_from_slice(&[roll.1, roll.0]);
            search.second_order = true;
            search.extend(0, BAR as u32);
            // One die only: the larger if it can be played.
            let best = search.best;
            let larger = |f: &Found| f.first_die == roll.0;
            if best == 1 && seen.found.iter().any(larger) {
                seen.found.retain(larger);
            }
        }
        then(&seen.found)
    })
}

thread_local! {
    /// The positions found by one search, kept between calls so that
    /// searching allocates only when a roll has more plays than any before.
    static SEEN: RefCell<Seen> = RefCell::new(Seen::default());
}

/// A play found: the position it reaches (as [`Search::key`]) and its steps
/// (indexes, as the search keeps them; those past `n_steps` are stale).
#[derive(Clone, Copy)]
struct Found {
    key: u128,
    steps: [(u8, u8); MAX_STEPS],
    n_steps: u8,
    first_die: u8,
}

impl Found {
    /// The play on `board`, the board the search started from.
    fn play(&self, board: &Board) -> Play {
        let mut steps = [(0, 0); MAX_STEPS];
        for (step, &(from, to)) in steps.iter_mut().zip(&self.steps[..usize::from(self.n_steps)]) {
            *step = (from + 1, if to == OFF { OFF_POINT } else { to + 1 });
        }
        let mut after = *board;
        let (low, high) = (self.key as u64, (self.key >> 64) as u64);
        for (w, nibbles) in [low, low >> 32, high].into_iter().enumerate() {
            after.me[8 * w..8 * w + 8].copy_from_slice(&bytes(nibbles).to_le_bytes());
        }
        after.me[BAR] = (high >> 32) as u8 & 15;
        let mut hit = (self.key >> 100) as u32;
        while hit != 0 {
            after.them[23 - hit.trailing_zeros() as usize] = 0;
            after.them[BAR] += 1;
            hit &= hit - 1;
        }
        Play { steps, n_steps: self.n_steps, first_die: self.first_die, after }
    }
}

/// The positions found so far, with a hash table over their keys (open
/// addressing). A slot holds the generation that filled it and an index
/// into `found`, so clearing is a new generation. (Linear scans of the
/// plays found were 40% of the time random games took.)
#[derive(Default)]
struct Seen {
    found: Vec<Found>,
    slots: Vec<(u32, u32)>,
    generation: u32,
}

impl Seen {
    fn clear(&mut self) {
        self.found.clear();
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 || self.slots.is_empty() {
            self.slots = vec![(0, 0); self.slots.len().max(256)];
            self.generation = 1;
        }
    }

    fn slot(&self, key: u128) -> usize {
        let folded = (key as u64) ^ ((key >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mixed = folded.wrapping_mul(0xff51_afd7_ed55_8ccd);
        (mixed >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    /// Adds `found` unless its position is there; a `distinct` one is not
    /// looked for (nor entered in the table).
    #[inline(always)]
    fn insert(&mut self, found: Found, distinct: bool) {
        if distinct {
            return self.found.push(found);
        }
        let mask = self.slots.len() - 1;
        let mut i = self.slot(found.key);
        while self.slots[i].0 == self.generation {
            if self.found[self.slots[i].1 as usize].key == found.key {
                return;
            }
            i = (i + 1) & mask;
        }
        self.slots[i] = (self.generation, self.found.len() as u32);
        self.found.push(found);
        if self.found.len() * 2 > self.slots.len() {
            self.grow();
        }
    }

    #[cold]
    fn grow(&mut self) {
        self.slots = vec![(0, 0); self.slots.len() * 2];
        let mask = self.slots.len() - 1;
        for (n, found) in self.found.iter().enumerate() {
            let mut i = self.slot(found.key);
            while self.slots[i].0 == self.generation {
                i = (i + 1) & mask;
            }
            self.slots[i] = (self.generation, n as u32);
        }
    }
}

/// `1 << (4 * i)`: one checker of the side on roll on index `i` (point
/// `i + 1`, or the bar) in a position's key, four bits a point, 100 in all.
/// (32 entries, read at `i & 31`, so that reading needs no bounds check.)
const ONE: [u128; 32] = {
    let mut one = [0u128; 32];
    let mut i = 0;
    while i < 25 {
        one[i] = 1 << (4 * i);
        i += 1;
    }
    one
};

/// The bit of a position's key that says the other side's blot on the side
/// on roll's index `i` was hit: the other side's board after a play is its
/// board before with those blots on the bar, so counts and hits name the
/// position.
const fn hit_bit(i: usize) -> u128 {
    // Shifted in the high word (bit 36 + i of it), which is cheaper.
    ((1u64 << ((36 + i) & 63)) as u128) << 64
}

/// The side on roll's indexes outside its home board, the bar included:
/// bearing off waits until it has no checker there.
const OUTSIDE: u32 = ((1 << 25) - 1) & !((1 << 6) - 1);

/// The `to` of a step that bears a checker off.
const OFF: u8 = u8::MAX;

/// Bit `i` set where byte `i` of `word` is at least `n` (1 or 2; a
/// point's count is at most 15, so adding never carries across bytes).
fn at_least(word: u64, n: u8) -> u32 {
    let high = word.wrapping_add(u64::from(0x80 - n) * 0x0101_0101_0101_0101) & 0x8080_8080_8080_8080;
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// The eight low nibbles of `nibbles` as eight bytes, in order (the
/// inverse of [`nibbles`]).
fn bytes(nibbles: u64) -> u64 {
    let x = nibbles & 0xffff_ffff;
    let x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    let x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f
}

/// The eight bytes of `word` (each below 16) as eight nibbles, in order.
fn nibbles(word: u64) -> u64 {
    let x = (word | word >> 4) & 0x00ff_00ff_00ff_00ff;
    let x = (x | x >> 8) & 0x0000_ffff_0000_ffff;
    (x | x >> 16) & 0xffff_ffff
}

/// A depth-first search over the orders of the dice, moving checkers on
/// one board in place and restoring it after each step's subtree. Points
/// are the side on roll's indexes (point − 1, the bar 24); sets of them are
/// bits of a `u32`, so the points a die can move from are found at once.
/// The last die's steps are not made: the positions they reach are keys.
struct Search<'a> {
    me: [u8; 25],
    /// The position as a number: counts and hits (see [`ONE`]).
    key: u128,
    /// Indexes where the side on roll has checkers.
    occupied: u32,
    /// Indexes the other side holds with two or more.
    blocked: u32,
    /// Indexes where the other side has a blot not hit yet.
    blots: u32,
    dice: [u8; MAX_STEPS],
    n_dice: usize,
    /// A double: every order of the same steps reaches the same board, so
    /// each step starts no higher than the last and each set is tried once.
    descending: bool,
    /// Playing a roll's dice in the second order (the lower die first).
    second_order: bool,
    /// Every sequence of steps reaches a position of its own, so none is
    /// looked up: a double's search without bearing off. Its sequences are
    /// the multisets of points moved from; a step from `f` moves a checker
    /// to `f - d`, so a play changes the counts by `(x^-d - 1)·F(x)` as
    /// polynomials (point `i` the coefficient of `x^i`, `F` the sum of
    /// `x^f` over its steps), which tells `F`, the multiset, back.
    distinct: bool,
    /// `(from, to)` indexes, `to` [`OFF`] for a checker borne off.
    steps: [(u8, u8); MAX_STEPS],
    n_steps: usize,
    /// The most steps of any sequence found so far.
    best: usize,
    seen: &'a mut Seen,
}

impl<'a> Search<'a> {
    fn new(board: &Board, seen: &'a mut Seen) -> Self {
        let words = |side: &[u8; 25]| {
            let word = |i: usize| u64::from_le_bytes(side[i..i + 8].try_into().expect("8 bytes"));
            [word(0), word(8), word(16)]
        };
        let (me, them) = (words(&board.me), words(&board.them));
        let set = |words: [u64; 3], n: u8| (0..3).fold(0, |set, w| set | at_least(words[w], n) << (8 * w));
        let low = nibbles(me[0]) | nibbles(me[1]) << 32;
        let high = nibbles(me[2]) | u64::from(board.me[BAR]) << 32;
        let occupied = set(me, 1) | u32::from(board.me[BAR] > 0) << BAR;
        // The other side's index 23 - i is the side on roll's index i.
        let (two, one) = (set(them, 2), set(them, 1));
        let (blocked, blots) = (two.reverse_bits() >> 8, (one & !two).reverse_bits() >> 8);
        Search {
            me: board.me,
            key: u128::from(low) | u128::from(high) << 64,
            occupied,
            blocked,
            blots,
            dice: [0; MAX_STEPS],
            n_dice: 2,
            descending: false,
            second_order: false,
            distinct: false,
            steps: [(0, 0); MAX_STEPS],
            n_steps: 0,
            best: 0,
            seen,
        }
    }

    /// The indexes a checker may move `die` pips from by the rules of
    /// [`step`] (the bar's checkers first), within the board and off.
    fn sources(&self, die: u8) -> (u32, u32) {
        let die = u32::from(die);
        // Within the board (entering too): a checker on `i >= die` to `i - die`.
        let within = self.occupied & !(self.blocked << die) & !((1 << die) - 1);
        if self.me[BAR] > 0 {
            return (within & 1 << BAR, 0);
        }
        let mut off = 0;
        if self.occupied & OUTSIDE == 0 && self.occupied != 0 {
            // Exactly, or with a higher die from the highest point.
            off = self.occupied & (1 << (die - 1));
            let highest = 31 - self.occupied.leading_zeros();
            if highest < die - 1 {
                off |= 1 << highest;
            }
        }
        (within, off)
    }

    /// In the second order of a roll's dice, after a first step within the
    /// board, the second steps worth trying: the checker just moved (moving
    /// another within the board reaches a position the first order found,
    /// where that step came first: it was legal then, as the other step was
    /// after it, since no step within the board changes what another may do
    /// and the bar was empty). As the same plays would be found again, the
    /// plays and their order are what trying every step gives.
    fn continuing(&self) -> u32 {
        match self.steps[0] {
            (from, to) if usize::from(from) != BAR && to != OFF => 1 << to,
            _ => !0,
        }
    }

    /// Plays the dice from `depth` on; `highest` is the index the last step
    /// started from.
    fn extend(&mut self, depth: usize, highest: u32) {
        let die = self.dice[depth];
        let (within, off) = self.sources(die);
        let mut sources = within | off;
        if self.descending {
            sources &= (2 << highest) - 1;
        }
        if sources == 0 {
            return self.record(self.key);
        }
        if self.second_order && depth == 1 {
            sources &= off | self.continuing();
        }
        if depth + 1 == self.n_dice {
            return self.leaves(sources, die);
        }
        while sources != 0 {
            let from = 31 - sources.leading_zeros();
            sources ^= 1 << from;
            let to = from.checked_sub(u32::from(die)).map_or(OFF, |to| to as u8);
            self.steps[self.n_steps] = (from as u8, to);
            self.n_steps += 1;
            // Taken back by restoring what the step changes.
            let (key, occupied, blots, me) = (self.key, self.occupied, self.blots, self.me);
            self.step(from as usize, to);
            self.extend(depth + 1, from);
            (self.key, self.occupied, self.blots, self.me) = (key, occupied, blots, me);
            self.n_steps -= 1;
        }
    }

    /// Records the positions the last die's steps from `sources` reach,
    /// without making the steps: each is a key.
    fn leaves(&mut self, mut sources: u32, die: u8) {
        let n_steps = self.n_steps + 1;
        if n_steps < self.best {
            return;
        }
        if n_steps > self.best {
            self.best = n_steps;
            self.seen.clear();
        }
        let mut found = Found { key: 0, steps: self.steps, n_steps: n_steps as u8, first_die: self.dice[0] };
        while sources != 0 {
            let from = 31 - sources.leading_zeros();
            sources ^= 1 << from;
            let to = from.checked_sub(u32::from(die)).map_or(OFF, |to| to as u8);
            found.steps[n_steps - 1] = (from as u8, to);
            found.key = self.key_after(from as usize, to);
            self.seen.insert(found, self.distinct);
        }
    }

    /// The key of the position one more step (`from`, `to`) reaches.
    #[inline(always)]
    fn key_after(&self, from: usize, to: u8) -> u128 {
        let mut key = self.key - ONE[from & 31];
        if to != OFF {
            let to = usize::from(to);
            key += ONE[to & 31];
            if self.blots & 1 << to != 0 {
                key |= hit_bit(to);
            }
        }
        key
    }

    /// Makes the step just pushed: a checker from index `from` to `to` (or
    /// off), hitting a blot there.
    fn step(&mut self, from: usize, to: u8) {
        self.key = self.key_after(from, to);
        self.me[from] -= 1;
        if self.me[from] == 0 {
            self.occupied &= !(1 << from);
        }
        if to != OFF {
            let to = usize::from(to);
            self.me[to] += 1;
            self.occupied |= 1 << to;
            self.blots &= !(1 << to);
        }
    }

    /// Notes the position `key` the steps pushed reach.
    #[inline(always)]
    fn record(&mut self, key: u128) {
        if self.n_steps < self.best {
            return;
        }
        if self.n_steps > self.best {
            self.best = self.n_steps;
            self.seen.clear();
        }
        let first_die = if self.n_steps > 0 { self.dice[0] } else { 0 };
        self.seen.insert(Found { key, steps: self.steps, n_steps: self.n_steps as u8, first_die }, self.distinct);
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;

    /// The rules as plainly as they can be written: both orders of the dice
    /// (a double's steps from ever lower points), a board copied a step,
    /// duplicates found by scanning. (Generation was this until it was 4×
    /// faster.)
    fn reference(board: &Board, roll: Roll) -> Vec<Play> {
        fn extend(plays: &mut Vec<Play>, best: &mut u8, play: Play, dice: &[u8], highest: u8, descending: bool) {
            let Some((&die, rest)) = dice.split_first() else {
                return record(plays, best, play);
            };
            let board = play.after;
            let top = if descending { highest.min(24) } else { 24 };
            let from_points = if board.me[BAR] > 0 { vec![BAR_POINT] } else { (1..=top).rev().collect() };
            let mut moved = false;
            for from in from_points {
                if let Some((after, to)) = step(&board, from, die) {
                    moved = true;
                    let mut next = play;
                    next.steps[usize::from(play.n_steps)] = (from, to);
                    next.n_steps += 1;
                    next.first_die = if play.n_steps == 0 { die } else { play.first_die };
                    next.after = after;
                    extend(plays, best, next, rest, from, descending);
                }
            }
            if !moved {
                record(plays, best, play);
            }
        }
        fn record(plays: &mut Vec<Play>, best: &mut u8, play: Play) {
            if play.n_steps > *best {
                *best = play.n_steps;
                plays.clear();
            }
            if play.n_steps == *best && !plays.iter().any(|p| p.after == play.after) {
                plays.push(play);
            }
        }
        let mut plays = Vec::new();
        let mut best = 0;
        let empty = Play { steps: [(0, 0); MAX_STEPS], n_steps: 0, first_die: 0, after: *board };
        if roll.is_double() {
            extend(&mut plays, &mut best, empty, &[roll.0; MAX_STEPS], BAR_POINT, true);
        } else {
            extend(&mut plays, &mut best, empty, &[roll.0, roll.1], BAR_POINT, false);
            extend(&mut plays, &mut best, empty, &[roll.1, roll.0], BAR_POINT, false);
            if best == 1 && plays.iter().any(|p| p.first_die == roll.0) {
                plays.retain(|p| p.first_die == roll.0);
            }
        }
        plays
    }

    /// The generator finds the plays the plain rules find, in the same order
    /// and by the same steps (so seeded games stay as they were).
    #[test]
    fn generation_equals_the_plain_rules_on_random_games() {
        let mut rng = StdRng::seed_from_u64(61);
        let mut plays: Vec<Play> = Vec::new();
        let mut positions = 0;
        for _ in 0..300 {
            let mut board = Board::initial();
            loop {
                let roll = Roll::new(rng.random_range(1..=6), rng.random_range(1..=6));
                generate(&board, roll, &mut plays);
                assert_eq!(plays, reference(&board, roll), "{board:?} {roll:?}");
                positions += 1;
                board = plays[rng.random_range(0..plays.len())].after;
                if Board::on_board(&board.me) == 0 {
                    break;
                }
                board = board.swapped();
            }
        }
        assert!(positions > 25_000, "{positions}");
    }

    fn n_plays(board: &Board, roll: Roll) -> usize {
        let mut plays: Vec<Play> = Vec::new();
        generate(board, roll, &mut plays);
        plays.len()
    }

    #[test]
    fn opening_rolls_have_gnubgs_counts() {
        let start = Board::initial();
        // gnubg lists 7 plays of an opening 65 and 15 of 31.
        assert_eq!(n_plays(&start, Roll(6, 5)), 7);
        assert_eq!(n_plays(&start, Roll(3, 1)), 16);
    }

    #[test]
    fn a_closed_board_leaves_only_the_pass() {
        let mut board = Board::initial();
        board.me[23] = 1;
        board.me[BAR] = 1;
        board.them = [0; 25];
        for p in 0..6 {
            board.them[p] = 2;
        }
        board.them[12] = 3;
        let mut plays: Vec<Play> = Vec::new();
        generate(&board, Roll(6, 6), &mut plays);
        assert_eq!(plays.len(), 1);
        assert_eq!(plays[0].n_steps, 0);
    }
}
