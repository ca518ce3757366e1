//! Positions and their text layout.
//!
//! A [`Position`] is 76 bytes, `Copy` and hashed as it stands: the cards up
//! per suit, the 4 free cells, the 8 cascades laid end to end in one
//! buffer, and a digest of the position up to renaming
//! ([`Position::digest`]) kept up to date by every change. Free cells and
//! cascades keep their places (no canonical reordering), so a move such as
//! `3a` or `a8` means the same slot when a solution is replayed or written
//! out. Transposition tables key positions by the digest; the move
//! generator, which moves to the first empty free cell and the first empty
//! cascade only, keeps most renamed duplicates from being generated.
//!
//! The layout is Freecell Solver's board format, which `ms_deal.py --fcs`
//! writes:
//!
//! ```text
//! Foundations: H-0 C-2 D-A S-0
//! Freecells: 8H - - -
//! : 4C 2C 9C 8C QS 4S 2H
//! : 5H QH 3C AC 3H 4H QD
//! ...
//! ```
//!
//! - `Foundations:` gives, per suit, the highest card up (`0` for none), in
//!   any order; suits left out have none. The line may be left out.
//! - `Freecells:` lists up to 4 cards, `-` for an empty cell. The line may
//!   be left out.
//! - Then 8 cascade lines, each bottom card first (so the card that moves is
//!   last), with or without a leading `:`; an empty cascade is a line `:`.
//!   Blank lines are skipped.
//!
//! Cards are rank and suit (`TD`; `10D` and lower case are read too). Every
//! card must be somewhere exactly once. [`format_layout`] writes every line,
//! all 4 cells and `:` before each cascade, so it reads back to the same
//! position.

use super::cards::{DECK, NO_CARD, RANKS, SUITS, card, card_name, parse_card, parse_rank, parse_suit, suit};
use crate::games::ParseError;

/// How many cascades and free cells the game has.
pub const CASCADES: usize = 8;
pub const CELLS: usize = 4;

/// A FreeCell position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Per suit, how many cards are up (the top one is `count − 1`'s rank).
    pub(crate) foundations: [u8; 4],
    /// The free cells; [`NO_CARD`] when empty.
    pub(crate) cells: [u8; CELLS],
    /// The cascades' lengths.
    pub(crate) lens: [u8; CASCADES],
    /// The cascades one after another, each bottom card first; the rest is
    /// [`NO_CARD`], so equal positions are equal bytes.
    pub(crate) cards: [u8; DECK],
    /// [`Position::digest`], kept up to date by every change.
    digest: u64,
}

impl Position {
    /// The position with `cascades` (bottom first), nothing else out.
    /// `None` unless the cascades hold every card once.
    pub fn from_cascades(cascades: &[Vec<u8>; CASCADES]) -> Option<Position> {
        let mut p = Position::EMPTY;
        let mut seen = 0u64;
        let mut n = 0;
        for (i, cascade) in cascades.iter().enumerate() {
            for &c in cascade {
                if usize::from(c) >= DECK || seen & (1 << c) != 0 {
                    return None;
                }
                seen |= 1 << c;
                p.cards[n] = c;
                n += 1;
            }
            p.lens[i] = cascade.len() as u8;
        }
        p.digest = p.full_digest();
        (n == DECK).then_some(p)
    }

    /// Cascade `i`, bottom card first.
    pub fn cascade(&self, i: usize) -> &[u8] {
        let start = self.start(i);
        &self.cards[start..start + usize::from(self.lens[i])]
    }

    /// The cascades in order, each bottom card first.
    pub fn cascades(&self) -> impl Iterator<Item = &[u8]> + '_ {
        let mut at = 0;
        self.lens.iter().map(move |&len| {
            let cascade = &self.cards[at..at + usize::from(len)];
            at += usize::from(len);
            cascade
        })
    }

    /// How many cards lie on `c` in its cascade; `None` when it is not in
    /// one. The cards are searched eight at a time (a byte equal to `c` is a
    /// zero byte of the word exclusive-or `c` in every byte), since the
    /// heuristics ask this of every leaf of a search.
    pub fn cards_on(&self, c: u8) -> Option<u32> {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        let mut at = None;
        for (k, chunk) in self.cards.chunks(8).enumerate() {
            let mut bytes = [NO_CARD; 8];
            bytes[..chunk.len()].copy_from_slice(chunk);
            let x = u64::from_le_bytes(bytes) ^ (ONES * u64::from(c));
            // The lowest byte flagged is the first zero byte exactly.
            let zeros = x.wrapping_sub(ONES) & !x & HIGHS;
            if zeros != 0 {
                at = Some(8 * k + (zeros.trailing_zeros() / 8) as usize);
                break;
            }
        }
        let at = at?;
        let mut end = 0;
        for &len in &self.lens {
            end += usize::from(len);
            if at < end {
                return Some((end - 1 - at) as u32);
            }
        }
        None
    }

    /// The card that moves from cascade `i`.
    pub fn top(&self, i: usize) -> Option<u8> {
        self.cascade(i).last().copied()
    }

    pub fn cell(&self, i: usize) -> Option<u8> {
        self.cells.get(i).copied().filter(|&c| c != NO_CARD)
    }

    /// How many cards of `suit` are up.
    pub fn foundation(&self, suit: u8) -> u8 {
        self.foundations[usize::from(suit)]
    }

    pub fn empty_cells(&self) -> usize {
        self.cells.iter().filter(|&&c| c == NO_CARD).count()
    }

    pub fn empty_cascades(&self) -> usize {
        self.lens.iter().filter(|&&n| n == 0).count()
    }

    /// Every card is on the foundations.
    pub fn is_solved(&self) -> bool {
        self.foundations == [13; 4]
    }

    /// How many cards are not on the foundations yet.
    pub fn cards_out(&self) -> u32 {
        52 - self.foundations.iter().map(|&n| u32::from(n)).sum::<u32>()
    }

    /// The position with its free cells sorted and its cascades ordered by
    /// their bottom cards (empty ones last): the same for every position
    /// that differs from this one only in which slot holds what, so
    /// transposition tables meet renamed positions as one.
    pub fn canonical(&self) -> Position {
        let mut q = *self;
        q.cells.sort_unstable();
        // Each cascade's start, and a sort key: its bottom card, then its
        // index (cards are distinct, so only empty cascades tie).
        let mut starts = [0usize; CASCADES];
        let mut keys = [0u16; CASCADES];
        let mut at = 0;
        for i in 0..CASCADES {
            starts[i] = at;
            let bottom = if self.lens[i] == 0 { NO_CARD } else { self.cards[at] };
            keys[i] = u16::from(bottom) << 8 | i as u16;
            at += usize::from(self.lens[i]);
        }
        keys.sort_unstable();
        let mut n = 0;
        for (k, key) in keys.iter().enumerate() {
            let i = usize::from(key & 0xFF);
            let len = usize::from(self.lens[i]);
            q.cards[n..n + len].copy_from_slice(&self.cards[starts[i]..starts[i] + len]);
            q.lens[k] = self.lens[i];
            n += len;
        }
        q
    }

    /// No card anywhere, the digest not yet set: what the readers fill.
    const EMPTY: Position = Position {
        foundations: [0; 4],
        cells: [NO_CARD; CELLS],
        lens: [0; CASCADES],
        cards: [NO_CARD; DECK],
        digest: 0,
    };

    /// A digest of [`Position::canonical`]: the canonical position is
    /// known from what lies directly under each card (another card, a
    /// cascade's bottom, or a free cell; every other card is up), so the
    /// digest is the exclusive or of one random number per card and what is
    /// under it, whatever slot each card is in. A move changes what lies
    /// under one card only, so [`Position::take`] and the other changes
    /// keep it up to date in a step or two.
    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// [`Position::digest`] from the cards.
    pub(crate) fn full_digest(&self) -> u64 {
        let mut digest = 0;
        let mut at = 0;
        for &len in &self.lens {
            let mut under = UNDER_BOTTOM;
            for &c in &self.cards[at..at + usize::from(len)] {
                digest ^= DIGEST_PARTS[usize::from(c)][under];
                under = usize::from(c);
            }
            at += usize::from(len);
        }
        for &c in &self.cells {
            if c != NO_CARD {
                digest ^= DIGEST_PARTS[usize::from(c)][UNDER_CELL];
            }
        }
        digest
    }

    /// Where cascade `i` starts: the lengths before it summed, all eight
    /// bytes at once (a multiply adds every byte into the top one; the sum
    /// is at most 52, so no byte carries).
    fn start(&self, i: usize) -> usize {
        // `i` < 8: a cascade's index.
        let before = u64::from_le_bytes(self.lens) & ((1u64 << (8 * i)) - 1);
        (before.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
    }

    fn total(&self) -> usize {
        (u64::from_le_bytes(self.lens).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
    }

    /// Takes the top `n` cards of cascade `i` off, bottom first, into `out`.
    pub(crate) fn take(&mut self, i: usize, n: usize, out: &mut [u8]) {
        let end = self.start(i) + usize::from(self.lens[i]);
        let total = self.total();
        out[..n].copy_from_slice(&self.cards[end - n..end]);
        let under = if usize::from(self.lens[i]) > n { usize::from(self.cards[end - n - 1]) } else { UNDER_BOTTOM };
        self.digest ^= DIGEST_PARTS[usize::from(out[0])][under];
        self.cards.copy_within(end..total, end - n);
        self.cards[total - n..total].fill(NO_CARD);
        self.lens[i] -= n as u8;
    }

    /// Puts `run` (bottom first) on top of cascade `i`.
    pub(crate) fn put(&mut self, i: usize, run: &[u8]) {
        let end = self.start(i) + usize::from(self.lens[i]);
        let total = self.total();
        let under = if self.lens[i] > 0 { usize::from(self.cards[end - 1]) } else { UNDER_BOTTOM };
        self.digest ^= DIGEST_PARTS[usize::from(run[0])][under];
        self.cards.copy_within(end..total, end + run.len());
        self.cards[end..end + run.len()].copy_from_slice(run);
        self.lens[i] += run.len() as u8;
    }

    /// Takes the card out of free cell `i` (which holds one).
    pub(crate) fn take_cell(&mut self, i: usize) -> u8 {
        let c = self.cells[i];
        self.digest ^= DIGEST_PARTS[usize::from(c)][UNDER_CELL];
        self.cells[i] = NO_CARD;
        c
    }

    /// Puts `c` in free cell `i` (which is empty).
    pub(crate) fn put_cell(&mut self, i: usize, c: u8) {
        self.digest ^= DIGEST_PARTS[usize::from(c)][UNDER_CELL];
        self.cells[i] = c;
    }

    /// Puts `c` up on its foundation (it is the next card there).
    pub(crate) fn put_up(&mut self, c: u8) {
        self.foundations[usize::from(suit(c))] += 1;
    }
}

/// What may lie under a card in [`Position::digest`]: one of the cards, a
/// cascade's bottom or a free cell.
const UNDER_BOTTOM: usize = DECK;
const UNDER_CELL: usize = DECK + 1;

/// Random numbers for [`Position::digest`], one per card and what lies
/// under it (SplitMix64 from a fixed seed, so every run has the same).
static DIGEST_PARTS: [[u64; DECK + 2]; DECK] = {
    let mut parts = [[0; DECK + 2]; DECK];
    let mut state: u64 = 0x5EED_F4EE_CE11_0001;
    let mut c = 0;
    while c < DECK {
        let mut under = 0;
        while under < DECK + 2 {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            parts[c][under] = z ^ (z >> 31);
            under += 1;
        }
        c += 1;
    }
    parts
};

/// Reads a layout (the module doc gives the format).
pub fn parse_layout(text: &str) -> Result<Position, ParseError> {
    let mut p = Position::EMPTY;
    // Where each card was met, for duplicates.
    let mut where_: [Option<std::ops::Range<usize>>; DECK] = std::array::from_fn(|_| None);
    let mut place = |c: u8, span: std::ops::Range<usize>| -> Result<(), ParseError> {
        if let Some(first) = &where_[usize::from(c)] {
            return Err(ParseError::new(format!("{} is in the layout twice", card_name(c)), span)
                .with_help(format!("it is already at bytes {}..{}", first.start, first.end)));
        }
        where_[usize::from(c)] = Some(span);
        Ok(())
    };
    let (mut n_cascades, mut n_cards) = (0, 0);
    let mut line_start = 0;
    let mut last_line = 0..0;
    for line in text.split('\n') {
        let at = line_start;
        line_start += line.len() + 1;
        let line = line.trim_end_matches('\r');
        let body = line.trim_start();
        let body_at = at + line.len() - body.len();
        if body.trim().is_empty() {
            continue;
        }
        last_line = at..at + line.len();
        if let Some(rest) = strip_keyword(body, "foundations:") {
            let rest_at = body_at + body.len() - rest.len();
            for (word, span) in words(rest, rest_at) {
                let (s, top) = parse_foundation(word, span.clone())?;
                if p.foundations[usize::from(s)] != 0 {
                    return Err(ParseError::new(
                        format!("the {} foundation is given twice", char::from(SUITS[usize::from(s)])),
                        span,
                    ));
                }
                for r in 0..top {
                    place(card(r, s), span.clone())?;
                }
                p.foundations[usize::from(s)] = top;
            }
        } else if let Some(rest) = strip_keyword(body, "freecells:") {
            let rest_at = body_at + body.len() - rest.len();
            for (k, (word, span)) in words(rest, rest_at).enumerate() {
                if k >= CELLS {
                    return Err(ParseError::new("more than 4 free cells", span)
                        .with_help("FreeCell has 4 free cells; `-` is an empty one"));
                }
                if word != "-" {
                    let c = parse_card_at(word, span.clone())?;
                    place(c, span)?;
                    p.cells[k] = c;
                }
            }
        } else {
            if n_cascades == CASCADES {
                return Err(ParseError::new("more than 8 cascades", last_line.clone())
                    .with_help("a layout has 8 cascade lines; an empty cascade is a line `:`"));
            }
            let (rest, rest_at) = match body.strip_prefix(':') {
                Some(rest) => (rest, body_at + 1),
                None => (body, body_at),
            };
            for (word, span) in words(rest, rest_at) {
                let c = parse_card_at(word, span.clone())?;
                place(c, span)?;
                p.cards[n_cards] = c;
                n_cards += 1;
                p.lens[n_cascades] += 1;
            }
            n_cascades += 1;
        }
    }
    if n_cascades < CASCADES {
        return Err(ParseError::new(format!("{n_cascades} cascades; a layout has 8"), text.len()..text.len())
            .with_help("write an empty cascade as a line `:`"));
    }
    let missing: Vec<String> = (0..DECK as u8).filter(|&c| where_[usize::from(c)].is_none()).map(card_name).collect();
    if !missing.is_empty() {
        let s = if missing.len() == 1 { "" } else { "s" };
        return Err(ParseError::new(
            format!("{} card{s} missing: {}", missing.len(), missing.join(" ")),
            0..text.len(),
        )
        .with_help("every one of the 52 cards is on a foundation, in a free cell or in a cascade"));
    }
    p.digest = p.full_digest();
    Ok(p)
}

/// `body` after `keyword` (any case), or `None`.
fn strip_keyword<'a>(body: &'a str, keyword: &str) -> Option<&'a str> {
    let head = body.get(..keyword.len())?;
    head.eq_ignore_ascii_case(keyword).then(|| &body[keyword.len()..])
}

/// The words of `text`, which starts at byte `at`, with their spans.
fn words(text: &str, at: usize) -> impl Iterator<Item = (&str, std::ops::Range<usize>)> {
    text.split_whitespace().map(move |w| {
        let start = at + (w.as_ptr() as usize - text.as_ptr() as usize);
        (w, start..start + w.len())
    })
}

fn parse_card_at(word: &str, span: std::ops::Range<usize>) -> Result<u8, ParseError> {
    parse_card(word).ok_or_else(|| {
        ParseError::new(format!("`{word}` is not a card"), span)
            .with_help("a card is a rank (A 2-9 T J Q K) and a suit (C D H S), e.g. `TD`")
    })
}

/// A foundation entry `H-5` (suit, dash, the top card's rank or `0`).
fn parse_foundation(word: &str, span: std::ops::Range<usize>) -> Result<(u8, u8), ParseError> {
    let bad = || {
        ParseError::new(format!("`{word}` is not a foundation"), span.clone())
            .with_help("a foundation is a suit, `-` and its top card's rank, `0` for none: `H-5`, `S-K`, `D-0`")
    };
    let (s, r) = word.split_once('-').ok_or_else(bad)?;
    let s = match s.as_bytes() {
        [c] => parse_suit(*c).ok_or_else(bad)?,
        _ => return Err(bad()),
    };
    let top = match r.as_bytes() {
        [b'0'] => 0,
        [b'1', b'0'] => 10,
        [c] => parse_rank(*c).ok_or_else(bad)? + 1,
        _ => return Err(bad()),
    };
    Ok((s, top))
}

/// Writes `p` in the layout format, every line included.
pub fn format_layout(p: &Position) -> String {
    let mut out = String::from("Foundations:");
    for s in [2u8, 0, 1, 3] {
        let n = p.foundation(s);
        let top = if n == 0 { '0' } else { char::from(RANKS[usize::from(n - 1)]) };
        out.push_str(&format!(" {}-{top}", char::from(SUITS[usize::from(s)])));
    }
    out.push_str("\nFreecells:");
    for i in 0..CELLS {
        out.push(' ');
        out.push_str(&p.cell(i).map_or("-".to_owned(), card_name));
    }
    out.push('\n');
    for i in 0..CASCADES {
        out.push(':');
        for &c in p.cascade(i) {
            out.push(' ');
            out.push_str(&card_name(c));
        }
        out.push('\n');
    }
    out
}

/// `p`'s cascades on one line as ms32k.txt writes a deal, `col1 | ... | col8`
/// (the `N: ` before it is the caller's).
pub fn format_cascades_line(p: &Position) -> String {
    let cols: Vec<String> =
        (0..CASCADES).map(|i| p.cascade(i).iter().map(|&c| card_name(c)).collect::<Vec<_>>().join(" ")).collect();
    cols.join(" | ")
}

/// Sanity of the unused buffer tail, for tests: every card once, the tail
/// [`NO_CARD`].
#[cfg(test)]
pub(crate) fn is_consistent(p: &Position) -> bool {
    use super::cards::{rank, suit};
    let mut seen = 0u64;
    let mut count = 0;
    let mut mark = |c: u8| {
        if usize::from(c) < DECK && seen & (1 << c) == 0 {
            seen |= 1 << c;
            count += 1;
        }
    };
    for s in 0..4u8 {
        (0..p.foundation(s)).for_each(|r| mark(card(r, s)));
    }
    p.cells.iter().filter(|&&c| c != NO_CARD).for_each(|&c| mark(c));
    let total = p.total();
    p.cards[..total].iter().for_each(|&c| mark(c));
    count == DECK
        && p.cards[total..].iter().all(|&c| c == NO_CARD)
        && p.cards[..total].iter().all(|&c| rank(c) < 13 && suit(c) < 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEAL_1: &str = "\
: JD KD 2S 4C 3S 6D 6S
: 2D KC KS 5C TD 8S 9C
: 9H 9S 9D TS 4S 8D 2H
: JC 5S QD QH TH QS 6H
: 5D AD JS 4H 8H 6C
: 7H QC AS AC 2C 3D
: 7C KH AH 4D JH 8C
: 5H 3H 3C 7S 7D TC
";

    #[test]
    fn deals_read_as_ms_deal_writes_them_and_round_trip() {
        let p = parse_layout(DEAL_1).expect("deal 1");
        assert_eq!(p, Position::from_cascades(&super::super::deal::deal(1)).expect("a deal"));
        assert_eq!(p.top(0), parse_card("6S"));
        let text = format_layout(&p);
        assert!(text.starts_with("Foundations: H-0 C-0 D-0 S-0\nFreecells: - - - -\n: JD KD"), "{text}");
        assert_eq!(parse_layout(&text), Ok(p));
        assert!(is_consistent(&p));
    }

    #[test]
    fn foundations_cells_and_empty_cascades_round_trip() {
        let text = "Foundations: H-2 C-A D-0 S-K\nFreecells: - 3H - TD\n\
                    : 4C 2C\n:\n3C\n: 5C 6C 7C 8C 9C TC JC QC KC\n: AD 2D 3D 4D 5D 6D 7D 8D 9D\n\
                    : JD QD KD\n: 4H 5H 6H 7H 8H 9H TH JH QH KH\n:\n";
        let p = parse_layout(text).expect("a position");
        assert_eq!((p.foundation(2), p.foundation(0), p.foundation(3)), (2, 1, 13));
        assert_eq!((p.empty_cells(), p.empty_cascades()), (2, 2));
        assert_eq!(p.cascade(2), [parse_card("3C").unwrap_or(NO_CARD)]);
        assert_eq!(parse_layout(&format_layout(&p)), Ok(p));
        assert!(is_consistent(&p));
    }

    #[test]
    fn bad_layouts_say_what_is_wrong_and_where() {
        let dup = DEAL_1.replacen("6S\n", "JD\n", 1);
        let err = parse_layout(&dup).expect_err("JD twice");
        assert_eq!(err.message, "JD is in the layout twice");
        assert_eq!(&dup[err.span.clone()], "JD");
        assert!(err.span.start > 2);

        let bad = DEAL_1.replacen("KD", "KX", 1);
        let err = parse_layout(&bad).expect_err("no such card");
        assert_eq!((err.message.as_str(), &bad[err.span.clone()]), ("`KX` is not a card", "KX"));

        let short = DEAL_1.replacen(" 6S", "", 1);
        let err = parse_layout(&short).expect_err("6S missing");
        assert_eq!(err.message, "1 card missing: 6S");

        let cells = format!("Freecells: - - - - -\n{DEAL_1}");
        let err = parse_layout(&cells).expect_err("five cells");
        assert_eq!((err.message.as_str(), err.span.clone()), ("more than 4 free cells", 19..20));

        let seven: String = DEAL_1.lines().take(7).map(|l| format!("{l}\n")).collect();
        assert_eq!(parse_layout(&seven).expect_err("7 cascades").message, "7 cascades; a layout has 8");
        let nine = format!("{DEAL_1}:\n");
        assert_eq!(parse_layout(&nine).expect_err("9 cascades").message, "more than 8 cascades");

        let found = format!("Foundations: H-X\n{DEAL_1}");
        assert_eq!(parse_layout(&found).expect_err("bad foundation").message, "`H-X` is not a foundation");
        let up = format!("Foundations: S-2\n{DEAL_1}");
        assert_eq!(parse_layout(&up).expect_err("2S twice").message, "2S is in the layout twice");
        assert!(parse_layout("").is_err());
        assert!(parse_layout("Foundations:é\n").is_err());
    }
}
