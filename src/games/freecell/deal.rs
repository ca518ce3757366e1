//! Microsoft FreeCell deals and lists of deal numbers.
//!
//! The generator is the one of the original game: the C library's linear
//! congruential generator (state × 214013 + 2531011 modulo 2³¹, each draw
//! the state's bits 16..31), seeded with the deal number. A deal draws from
//! a deck in card order ([`super::cards`]): each draw takes the card at the
//! drawn index modulo the cards left, and the last card left takes its
//! place. Dealt cards go round the 8 cascades from the left, each on top of
//! the one before, so cascades 1–4 get 7 cards and 5–8 get 6.
//!
//! Deals 1..=32000 are the original game's (tests/freecell.rs compares all
//! of them with ms32k.txt). Larger numbers up to 2³¹ − 1 run the same
//! generator, as Freecell Solver does for them; only 1..=32000 are checked.

use std::ops::{Range, RangeInclusive};

use super::cards::DECK;
use crate::games::ParseError;

/// The largest deal number: the generator's state has 31 bits.
pub const MAX_DEAL: u32 = (1 << 31) - 1;

/// The cascades of deal `number`, each bottom card first (the order the
/// cards were dealt), as card bytes.
pub fn deal(number: u32) -> [Vec<u8>; 8] {
    let mut deck: [u8; DECK] = std::array::from_fn(|i| i as u8);
    let mut state = number & MAX_DEAL;
    let mut cascades: [Vec<u8>; 8] = Default::default();
    for (k, left) in (1..=DECK).rev().enumerate() {
        state = state.wrapping_mul(214_013).wrapping_add(2_531_011) & MAX_DEAL;
        let j = (state >> 16) as usize % left;
        cascades[k % 8].push(deck[j]);
        deck[j] = deck[left - 1];
    }
    cascades
}

/// Reads a list of deal numbers: comma-separated numbers and inclusive
/// ranges, `1-100,617,11982`, spaces allowed around the parts. Ranges are
/// kept as ranges, so `1-2000000` costs nothing until it is walked.
pub fn parse_deals(text: &str) -> Result<Vec<RangeInclusive<u32>>, ParseError> {
    const HELP: &str = "a deal list is numbers and ranges separated by commas, e.g. `1-100,617,11982`";
    let mut deals = Vec::new();
    let mut at = 0;
    for part in text.split(',') {
        let span = trimmed_span(part, at);
        at += part.len() + 1;
        let item = &text[span.clone()];
        if item.is_empty() {
            let what = if text.trim().is_empty() { "no deal numbers" } else { "an empty item in the deal list" };
            return Err(ParseError::new(what, span).with_help(HELP));
        }
        let range = match item.split_once('-') {
            None => {
                let n = number(item, span)?;
                n..=n
            }
            Some((lo, hi)) => {
                let lo_span = trimmed_span(lo, span.start);
                let hi_span = trimmed_span(hi, span.start + lo.len() + 1);
                let (a, b) = (number(&text[lo_span.clone()], lo_span)?, number(&text[hi_span.clone()], hi_span)?);
                if a > b {
                    return Err(ParseError::new(format!("the range `{item}` runs backwards"), span)
                        .with_help(format!("write the smaller number first: `{b}-{a}`")));
                }
                a..=b
            }
        };
        deals.push(range);
    }
    Ok(deals)
}

/// The span of `part` (which starts at byte `at`) without its spaces.
fn trimmed_span(part: &str, at: usize) -> Range<usize> {
    let start = at + part.len() - part.trim_start().len();
    start..start + part.trim().len()
}

/// One deal number, 1..=[`MAX_DEAL`].
fn number(text: &str, span: Range<usize>) -> Result<u32, ParseError> {
    let bad =
        |what: String| ParseError::new(what, span.clone()).with_help(format!("deal numbers run from 1 to {MAX_DEAL}"));
    if text.is_empty() {
        return Err(bad("a range needs a deal number at each end".to_owned()));
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(format!("`{text}` is not a deal number")));
    }
    match text.parse::<u32>() {
        Ok(0) => Err(bad("there is no deal 0".to_owned())),
        Ok(n) if n <= MAX_DEAL => Ok(n),
        _ => Err(bad(format!("deal `{text}` is past the last deal"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::freecell::cards::card_name;

    #[test]
    fn deal_1_is_the_published_one() {
        // The first dealt row of deal 1, as the Rosetta Code task shows it.
        let cascades = deal(1);
        let row: Vec<String> = cascades.iter().map(|c| card_name(c[0])).collect();
        assert_eq!(row.join(" "), "JD 2D 9H JC 5D 7H 7C 5H");
        assert_eq!(cascades.iter().map(Vec::len).collect::<Vec<_>>(), [7, 7, 7, 7, 6, 6, 6, 6]);
    }

    #[test]
    fn deal_lists_read_ranges_and_numbers() {
        assert_eq!(parse_deals("1-100,617,11982"), Ok(vec![1..=100, 617..=617, 11982..=11982]));
        assert_eq!(parse_deals(" 5 , 7 - 9 "), Ok(vec![5..=5, 7..=9]));
        assert_eq!(parse_deals("2147483647"), Ok(vec![MAX_DEAL..=MAX_DEAL]));
    }

    #[test]
    fn bad_deal_lists_point_at_the_problem() {
        let cases: [(&str, &str, Range<usize>); 9] = [
            ("", "no deal numbers", 0..0),
            ("1,,3", "an empty item in the deal list", 2..2),
            ("0", "there is no deal 0", 0..1),
            ("1,10-5", "the range `10-5` runs backwards", 2..6),
            ("1,x7", "`x7` is not a deal number", 2..4),
            ("3-", "a range needs a deal number at each end", 2..2),
            ("1-2-3", "`2-3` is not a deal number", 2..5),
            ("99999999999", "deal `99999999999` is past the last deal", 0..11),
            ("-5", "a range needs a deal number at each end", 0..0),
        ];
        for (text, message, span) in cases {
            let err = parse_deals(text).expect_err(text);
            assert_eq!((err.message.as_str(), err.span), (message, span), "{text}");
        }
    }
}
