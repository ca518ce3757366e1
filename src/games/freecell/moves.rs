//! Moves, their legality, the automatic moves to the foundations, and move
//! text.
//!
//! Places are numbered: cascades 0..8, free cells 8..12, the foundations 12
//! (the foundation of the card's suit). A [`Move`] is the player's move
//! (from, to, how many cards) followed by the automatic moves it set off,
//! so [`apply`] replays a record exactly and a solution can be written out
//! card by card ([`steps_text`]).
//!
//! Rules:
//! - One card moves from a cascade's top or a free cell to a foundation (its
//!   suit's next rank), to an empty free cell, or onto a cascade whose top is
//!   one rank higher and of the other colour, or onto an empty cascade.
//! - A sequence move takes the top `n` cards of a cascade, alternating
//!   colours and descending, as one move (a macro of single-card moves
//!   through free cells and empty cascades): `n` ≤ (empty free cells + 1) ×
//!   2^(empty cascades, not counting the destination).
//! - Automatic moves: after every player move, a card goes to its
//!   foundation when it is safe there: its rank is 1 or 2 (ace, two), or
//!   both cards of the other colour one rank lower are already up, so no
//!   card still out could want to go on it. Free cells are looked at
//!   first (left to right), then cascades (left to right), again from the
//!   start after each automatic move, until none is safe. A deal's own
//!   position is left as dealt: automatic moves follow moves.
//!
//! Moves generated, to keep symmetric duplicates out without reordering the
//! position: a card goes only to the first empty free cell and, from a free
//! cell or a cascade, only to the first empty cascade; moving a whole
//! cascade to an empty one (which only renames it) is not a move. To an
//! empty cascade every sequence length the rule allows is a move.
//!
//! Text, as Freecell Solver's "standard notation": cascades `1`..`8`, free
//! cells `a`..`d`, the foundations `h`; a move is source and destination,
//! `3a`, `a8`, `1h`, `ah`, `38`, and `/n` after a sequence move of n > 1
//! cards: `38/4`.

use super::cards::{DECK, NO_CARD, card, fits_on, opposite_suits, rank, suit};
use super::position::{CASCADES, CELLS, Position};

/// The first free cell's place.
pub const CELL: u8 = CASCADES as u8;
/// The foundations' place.
pub const FOUNDATION: u8 = (CASCADES + CELLS) as u8;

/// Automatic moves to the foundations: their sources, four bits each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AutoMoves {
    len: u8,
    packed: [u8; DECK / 2],
}

impl AutoMoves {
    fn push(&mut self, from: u8) {
        let i = usize::from(self.len);
        self.packed[i / 2] |= from << (4 * (i % 2));
        self.len += 1;
    }

    /// The sources in the order played.
    pub fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        (0..usize::from(self.len)).map(|i| (self.packed[i / 2] >> (4 * (i % 2))) & 0xF)
    }

    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A player's move and the automatic moves after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u8,
    pub to: u8,
    /// Cards moved: more than 1 only from cascade to cascade.
    pub count: u8,
    pub autos: AutoMoves,
}

/// How many cards a sequence move to a cascade may carry.
pub fn capacity(p: &Position, to_empty: bool) -> usize {
    let empty = p.empty_cascades() - usize::from(to_empty);
    (p.empty_cells() + 1) << empty
}

/// How many cards on top of `cascade` alternate colours and descend.
pub fn run_len(cascade: &[u8]) -> usize {
    match cascade.len() {
        0 => 0,
        n => 1 + cascade.windows(2).rev().take_while(|w| fits_on(w[1], w[0])).count().min(n - 1),
    }
}

/// Whether `card` may go up now and is safe there (the module doc's rule).
pub fn safe_to_foundation(p: &Position, card: u8) -> bool {
    let r = rank(card);
    p.foundation(suit(card)) == r && (r <= 1 || opposite_suits(suit(card)).iter().all(|&s| p.foundation(s) >= r))
}

/// Writes every legal move of `p` into `moves` (none once it is solved),
/// each with its automatic moves.
pub fn legal_moves(p: &Position, moves: &mut Vec<Move>) {
    moves.clear();
    generate(p, |mv, _| moves.push(mv));
}

/// The legal moves of `p` in [`order`]'s order, each with the position it
/// leads to (built once, as the move generator finds the automatic moves).
pub fn successors(p: &Position, out: &mut Vec<(Move, Position)>) {
    out.clear();
    generate(p, |mv, q| out.push((mv, q)));
    out.sort_by_key(|(mv, _)| order_key(p, mv));
}

/// Hands every legal move of `p`, with the position after it, to `sink`.
fn generate(p: &Position, mut sink: impl FnMut(Move, Position)) {
    if p.is_solved() {
        return;
    }
    // The safe cards depend on the foundations only: a move that puts
    // nothing up leaves the parent's.
    let parents_safe = safe_cards(p);
    let mut add = |from: u8, to: u8, count: usize| {
        let mut q = *p;
        play(&mut q, from, to, count);
        let safe = if to == FOUNDATION { safe_cards(&q) } else { parents_safe };
        let autos = auto_play_from(&mut q, safe);
        sink(Move { from, to, count: count as u8, autos }, q);
    };
    // Each cascade's top card (or none) and how many cards on top of it
    // alternate colours and descend, read once.
    let mut tops = [NO_CARD; CASCADES];
    let mut runs = [0usize; CASCADES];
    let mut at = 0;
    for i in 0..CASCADES {
        let cascade = &p.cards[at..at + usize::from(p.lens[i])];
        at += cascade.len();
        if let Some(&top) = cascade.last() {
            tops[i] = top;
            runs[i] = run_len(cascade);
        }
    }
    let first_empty_cell = (0..CELLS).find(|&i| p.cell(i).is_none());
    let first_empty_cascade = (0..CASCADES).find(|&i| p.lens[i] == 0);
    let to_card = capacity(p, false);
    let to_empty = if first_empty_cascade.is_some() { capacity(p, true) } else { 0 };
    let next_up = |c: u8| p.foundation(suit(c)) == rank(c);
    // To the foundations.
    for i in 0..CELLS {
        if p.cell(i).is_some_and(next_up) {
            add(CELL + i as u8, FOUNDATION, 1);
        }
    }
    for (i, &top) in tops.iter().enumerate() {
        if top != NO_CARD && next_up(top) {
            add(i as u8, FOUNDATION, 1);
        }
    }
    // Cascade to cascade.
    for (from, cascade) in p.cascades().enumerate() {
        let run = runs[from];
        if run == 0 {
            continue;
        }
        for (to, &below) in tops.iter().enumerate() {
            if to == from {
                continue;
            }
            if below != NO_CARD {
                // Only one length of the run can fit: the run's ranks rise
                // by one from the top, so the card one rank under `below`
                // is `rank(below) − rank(top)` cards down, if in the run.
                let n = usize::from(rank(below)).wrapping_sub(usize::from(rank(tops[from])));
                if (1..=run.min(to_card)).contains(&n) && fits_on(cascade[cascade.len() - n], below) {
                    add(from as u8, to as u8, n);
                }
            } else if Some(to) == first_empty_cascade {
                let most = run.min(to_empty).min(cascade.len() - 1);
                for n in (1..=most).rev() {
                    add(from as u8, to as u8, n);
                }
            }
        }
    }
    // Free cell to cascade.
    for i in 0..CELLS {
        let Some(c) = p.cell(i) else { continue };
        for (to, &below) in tops.iter().enumerate() {
            let fits = if below == NO_CARD { Some(to) == first_empty_cascade } else { fits_on(c, below) };
            if fits {
                add(CELL + i as u8, to as u8, 1);
            }
        }
    }
    // Cascade to free cell.
    if let Some(cell) = first_empty_cell {
        for (from, &top) in tops.iter().enumerate() {
            if top != NO_CARD {
                add(from as u8, CELL + cell as u8, 1);
            }
        }
    }
}

/// Plays `count` cards from `from` to `to` on `p` (no checks: the move is
/// legal).
fn play(p: &mut Position, from: u8, to: u8, count: usize) {
    // A sequence descends: 13 cards at most.
    let mut run = [NO_CARD; 13];
    if from < CELL {
        p.take(usize::from(from), count, &mut run);
    } else {
        run[0] = p.take_cell(usize::from(from - CELL));
    }
    if to < CELL {
        p.put(usize::from(to), &run[..count]);
    } else if to < FOUNDATION {
        p.put_cell(usize::from(to - CELL), run[0]);
    } else {
        p.put_up(run[0]);
    }
}

/// Plays every safe automatic move on `p` and returns them.
pub fn auto_play(p: &mut Position) -> AutoMoves {
    auto_play_from(p, safe_cards(p))
}

/// The cards safe to put up on `p`'s foundations now, as card bits: at
/// most one a suit.
fn safe_cards(p: &Position) -> u64 {
    (0..4u8)
        .filter(|&s| p.foundation(s) < 13)
        .map(|s| card(p.foundation(s), s))
        .filter(|&c| safe_to_foundation(p, c))
        .fold(0u64, |set, c| set | 1 << c)
}

/// [`auto_play`], given `p`'s [`safe_cards`].
fn auto_play_from(p: &mut Position, mut safe: u64) -> AutoMoves {
    let mut autos = AutoMoves::default();
    let mut first = true;
    'again: loop {
        if !first {
            safe = safe_cards(p);
        }
        first = false;
        if safe == 0 {
            return autos;
        }
        for i in 0..CELLS {
            if p.cell(i).is_some_and(|c| safe >> c & 1 != 0) {
                play(p, CELL + i as u8, FOUNDATION, 1);
                autos.push(CELL + i as u8);
                continue 'again;
            }
        }
        let mut end = 0;
        for i in 0..CASCADES {
            end += usize::from(p.lens[i]);
            if p.lens[i] > 0 && safe >> p.cards[end - 1] & 1 != 0 {
                play(p, i as u8, FOUNDATION, 1);
                autos.push(i as u8);
                continue 'again;
            }
        }
        return autos;
    }
}

/// The position after `mv`, one of `legal_moves(p)`: its player move, then
/// its automatic moves as recorded.
pub fn apply(p: &Position, mv: &Move) -> Position {
    let mut q = *p;
    play(&mut q, mv.from, mv.to, usize::from(mv.count));
    for from in mv.autos.iter() {
        play(&mut q, from, FOUNDATION, 1);
    }
    q
}

/// A place as move text writes it.
pub fn place_char(place: u8) -> char {
    match place {
        p if p < CELL => char::from(b'1' + p),
        p if p < FOUNDATION => char::from(b'a' + p - CELL),
        _ => 'h',
    }
}

/// The player's move as text: `3a`, `a8`, `1h`, `38`, `38/4`.
pub fn move_text(mv: &Move) -> String {
    let mut s = format!("{}{}", place_char(mv.from), place_char(mv.to));
    if mv.count > 1 {
        s.push_str(&format!("/{}", mv.count));
    }
    s
}

/// The move card by card: the player's move, then each automatic move
/// (`2h`, `bh`).
pub fn steps_text(mv: &Move) -> Vec<String> {
    let mut steps = vec![move_text(mv)];
    steps.extend(mv.autos.iter().map(|from| format!("{}h", place_char(from))));
    steps
}

/// Reads a step's place: `1`..`8`, `a`..`d`, `h`.
fn parse_place(c: u8) -> Option<u8> {
    match c {
        b'1'..=b'8' => Some(c - b'1'),
        b'a'..=b'd' => Some(CELL + c - b'a'),
        b'h' => Some(FOUNDATION),
        _ => None,
    }
}

/// Replays `steps` (as [`steps_text`] writes them: `3a`, `a8`, `1h`,
/// `38/4`) from `start` one by one, each checked under the rules on its
/// own, with no automatic moves but those the steps list: the position at
/// the end, or the first bad step's index and why it is bad.
pub fn replay_steps(start: &Position, steps: &[String]) -> Result<Position, (usize, String)> {
    let mut p = *start;
    for (at, step) in steps.iter().enumerate() {
        let bad = |why: String| (at, format!("step `{step}`: {why}"));
        let bytes = step.as_bytes();
        let (from, to) = match bytes {
            [a, b, ..] => (parse_place(*a), parse_place(*b)),
            _ => (None, None),
        };
        let count = match step.get(2..) {
            Some("") => Some(1),
            Some(rest) => rest.strip_prefix('/').and_then(|n| n.parse::<usize>().ok()).filter(|&n| n >= 2),
            None => None,
        };
        let (Some(from), Some(to), Some(count)) = (from, to, count) else {
            return Err(bad("not a move".to_owned()));
        };
        let moving = if from < CELL {
            let cascade = p.cascade(usize::from(from));
            if count > run_len(cascade) {
                return Err(bad(format!("cascade {} has no sequence of {count} cards on top", from + 1)));
            }
            cascade[cascade.len() - count]
        } else if from < FOUNDATION {
            match p.cell(usize::from(from - CELL)) {
                Some(c) if count == 1 => c,
                Some(_) => return Err(bad("a free cell holds one card".to_owned())),
                None => return Err(bad("the free cell is empty".to_owned())),
            }
        } else {
            return Err(bad("cards never leave the foundations".to_owned()));
        };
        if to == from {
            return Err(bad("a move goes somewhere else".to_owned()));
        }
        if to == FOUNDATION {
            if count != 1 || p.foundation(suit(moving)) != rank(moving) {
                return Err(bad("the card is not the next of its foundation".to_owned()));
            }
        } else if to >= CELL {
            if count != 1 || p.cell(usize::from(to - CELL)).is_some() {
                return Err(bad("one card goes to an empty free cell".to_owned()));
            }
        } else {
            let limit = match p.top(usize::from(to)) {
                Some(below) if !fits_on(moving, below) => {
                    return Err(bad(format!("the card does not fit on cascade {}", to + 1)));
                }
                Some(_) => capacity(&p, false),
                None => capacity(&p, true),
            };
            if count > limit {
                return Err(bad(format!("{count} cards move only with more free cells or cascades (at most {limit})")));
            }
        }
        play(&mut p, from, to, count);
    }
    Ok(p)
}

/// Puts foundation moves first, then moves onto a card of a cascade
/// (longer sequences first, from cascades before free cells), then moves to
/// an empty cascade, then moves to a free cell; the sort is stable, so each
/// group keeps generation order.
pub fn order(p: &Position, moves: &mut [Move]) {
    moves.sort_by_key(|mv| order_key(p, mv));
}

/// [`order`]'s key of a move: its group, then longer sequences first.
fn order_key(p: &Position, mv: &Move) -> (u8, u8) {
    match mv.to {
        FOUNDATION => (0, 0),
        to if to < CELL && p.lens[usize::from(to)] > 0 => (1 + u8::from(mv.from >= CELL), u8::MAX - mv.count),
        to if to < CELL => (3, u8::MAX - mv.count),
        _ => (4, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::super::cards::{card_name, parse_card};
    use super::super::position::{format_layout, is_consistent, parse_layout};
    use super::*;

    fn texts(p: &Position) -> Vec<String> {
        let mut moves = Vec::new();
        legal_moves(p, &mut moves);
        moves.iter().map(move_text).collect()
    }

    /// A position from its foundations line, free cells and first 7
    /// cascades; cascade 8 holds every other card, lowest first (so a king
    /// is on top, out of the way).
    fn position(found: &str, cells: &str, cascades: [&str; 7]) -> Position {
        let head =
            format!("Foundations: {found}\nFreecells: {cells}\n{}", cascades.map(|c| format!(": {c}\n")).concat());
        let mut rest = String::from(":");
        for c in 0..DECK as u8 {
            let name = card_name(c);
            let up = found.split_whitespace().any(|f| {
                let (s, r) = f.split_at(1);
                let top = r.trim_start_matches('-').bytes().next().and_then(super::super::cards::parse_rank);
                s.as_bytes()[0] == b"CDHS"[usize::from(suit(c))] && top.is_some_and(|t| rank(c) <= t)
            });
            if !up && !head[head.find('\n').unwrap_or(0)..].split_whitespace().any(|w| w == name) {
                rest.push(' ');
                rest.push_str(&name);
            }
        }
        let text = format!("{head}{rest}\n");
        parse_layout(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    #[test]
    fn sequence_moves_follow_the_capacity_rule() {
        // A run of 5 (9H 8S 7D 6C 5H) that goes onto TS only whole.
        let run = "KC QD 9H 8S 7D 6C 5H";
        let zero = "C-0 D-0 H-0 S-0";
        // 2 empty free cells, no empty cascade: (2 + 1) × 1 = 3.
        let p = position(zero, "3C 3D - -", [run, "KH TS", "KD", "KS", "QC QH", "JC JD", "TC TD"]);
        assert_eq!(capacity(&p, false), 3);
        assert!(!texts(&p).iter().any(|t| t.starts_with("12")), "{:?}", texts(&p));
        // 4 empty free cells: 5.
        let p = position(zero, "- - - -", [run, "KH TS", "KD", "KS", "QC QH", "JC JD", "TC TD"]);
        assert_eq!(capacity(&p, false), 5);
        assert!(texts(&p).contains(&"12/5".to_owned()), "{:?}", texts(&p));
        // 1 empty free cell and an empty cascade: (1 + 1) × 2 = 4 onto a
        // card, (1 + 1) × 1 = 2 into the empty cascade.
        let p = position(zero, "3C 3D QC -", [run, "KH TS", "KD", "KS", "", "JC JD", "TC TD"]);
        assert_eq!((capacity(&p, false), capacity(&p, true)), (4, 2));
        let moves = texts(&p);
        assert!(!moves.iter().any(|t| t.starts_with("12")), "{moves:?}");
        assert!(moves.contains(&"15/2".to_owned()) && moves.contains(&"15".to_owned()), "{moves:?}");
        assert!(!moves.contains(&"15/3".to_owned()), "{moves:?}");
        // A free cell's card goes to the empty cascade; cards go to the
        // empty free cell.
        assert!(moves.contains(&"a5".to_owned()) && moves.contains(&"1d".to_owned()), "{moves:?}");
        assert!(!moves.iter().any(|t| t.len() == 2 && t.ends_with(['a', 'b', 'c'])), "{moves:?}");
    }

    #[test]
    fn safe_cards_go_up_by_themselves() {
        let found = "C-A D-A H-A S-0";
        // AS, the twos, then 3H (both black twos are up).
        let mut p = position(found, "3H - - -", ["AS", "2C", "2S", "2H", "", "", ""]);
        assert_eq!(auto_play(&mut p).iter().collect::<Vec<_>>(), [0, 1, 2, 3, 8]);
        assert!(is_consistent(&p));
        // With 2S under KH, 3H waits.
        let p = position(found, "3H - - -", ["AS", "2C", "2S KH", "2H", "", "", ""]);
        let mut q = p;
        assert_eq!(auto_play(&mut q).iter().collect::<Vec<_>>(), [0, 1, 3]);
        assert_eq!(q.cell(0), parse_card("3H"));
        // Moving KH away sets 2S and then 3H off; the move records them.
        let mut moves = Vec::new();
        legal_moves(&q, &mut moves);
        let mv = moves.iter().find(|m| move_text(m) == "3b").expect("KH to a free cell");
        assert_eq!(steps_text(mv), ["3b", "3h", "ah"]);
        let after = apply(&q, mv);
        assert_eq!((after.foundation(2), after.foundation(3), after.cell(0)), (3, 2, None));
        assert!(is_consistent(&after));
    }

    #[test]
    fn moves_of_deal_1_replay() {
        let p = parse_layout(&format_layout(&Position::from_cascades(&super::super::deal::deal(1)).expect("a deal")))
            .expect("deal 1");
        let mut moves = Vec::new();
        legal_moves(&p, &mut moves);
        let text: Vec<String> = moves.iter().map(move_text).collect();
        // No top card fits on another, no ace is on top.
        assert_eq!(text, ["1a", "2a", "3a", "4a", "5a", "6a", "7a", "8a"]);
        for mv in &moves {
            assert!(is_consistent(&apply(&p, mv)), "{}", move_text(mv));
        }
    }

    #[test]
    fn the_digest_kept_by_moves_is_the_canonical_positions() {
        // Random walks from many deals: after every move the digest kept
        // step by step equals the one computed from the cards, and equals
        // the canonical position's.
        let mut moves = Vec::new();
        let mut digests = std::collections::HashMap::new();
        let mut walk = 1u64;
        // Walks end where no move is left (often soon: free cells fill up).
        for number in (1..=100).chain([617, 11982, 31999]) {
            let mut p = Position::from_cascades(&super::super::deal::deal(number)).expect("a deal");
            for step in 0..300usize {
                assert_eq!(p.digest(), p.full_digest(), "deal {number} step {step}");
                assert_eq!(p.digest(), p.canonical().full_digest(), "deal {number} step {step}");
                // Different canonical positions, different digests.
                let canonical = p.canonical();
                assert_eq!(*digests.entry(p.digest()).or_insert(canonical), canonical);
                legal_moves(&p, &mut moves);
                walk = walk.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let Some(mv) = moves.get((walk >> 33) as usize % moves.len().max(1)) else { break };
                p = apply(&p, mv);
            }
        }
        assert!(digests.len() > 500, "{} positions met", digests.len());
        // A renamed position (cells and cascades swapped) has the digest.
        let p = position("C-0 D-0 H-0 S-0", "5D - 7S -", ["AC", "KH TS", "6C", "9H", "", "2D", "3S"]);
        let q = position("C-0 D-0 H-0 S-0", "- 7S - 5D", ["KH TS", "AC", "6C", "", "9H", "3S", "2D"]);
        assert_ne!(p, q);
        assert_eq!(p.digest(), q.digest());
    }

    #[test]
    fn moves_are_ordered_foundations_first() {
        let p = position("C-0 D-0 H-0 S-0", "5D - - -", ["AC", "KH TS", "6C", "9H", "", "2D", "3S"]);
        let mut moves = Vec::new();
        legal_moves(&p, &mut moves);
        order(&p, &mut moves);
        let text: Vec<String> = moves.iter().map(move_text).collect();
        assert_eq!(&text[..5], ["1h", "16", "42", "67", "a3"], "{text:?}");
        assert_eq!(text.last().map(String::as_str), Some("8b"), "{text:?}");
    }

    #[test]
    fn run_lengths() {
        let cards = |s: &str| s.split_whitespace().filter_map(parse_card).collect::<Vec<_>>();
        assert_eq!(run_len(&[]), 0);
        assert_eq!(run_len(&cards("KC")), 1);
        assert_eq!(run_len(&cards("2C KC QH JS")), 3);
        assert_eq!(run_len(&cards("QH JS TD 9D")), 1);
    }
}
