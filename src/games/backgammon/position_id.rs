//! GNU Backgammon's Position ID: the 80-bit position key in base64, 14
//! characters.
//!
//! The key lists, for each side in turn and for each of its points 1–24
//! and then its bar, as many 1 bits as it has checkers there followed by a
//! 0 bit; the bits fill ten bytes from the lowest bit of the first byte up.
//! The side not on roll comes first, as gnubg writes it (its `anBoard[0]`;
//! the side on roll is `anBoard[1]`). The ten bytes are written in standard
//! base64 without the padding.

use super::board::{Board, CHECKERS};
use crate::games::ParseError;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Characters of a Position ID.
pub const ID_LEN: usize = 14;

/// The 80-bit key of `board` (in the low bits), as ten bytes.
pub fn key_bytes(board: &Board) -> [u8; 10] {
    let mut key = [0u8; 10];
    let mut bit = 0usize;
    for side in [&board.them, &board.me] {
        for &n in side.iter() {
            for _ in 0..n {
                key[bit / 8] |= 1 << (bit % 8);
                bit += 1;
            }
            bit += 1;
        }
    }
    key
}

/// The key as one number: equal keys, equal boards.
pub fn key(board: &Board) -> u128 {
    key_bytes(board).iter().rev().fold(0u128, |k, &b| (k << 8) | u128::from(b))
}

/// The Position ID of `board`.
pub fn format_id(board: &Board) -> String {
    let key = key_bytes(board);
    let mut bits = key.iter().fold(0u128, |acc, &b| (acc << 8) | u128::from(b));
    // 80 bits, read six at a time from the top: pad to 84.
    bits <<= 4;
    (0..ID_LEN).map(|i| ALPHABET[((bits >> (6 * (ID_LEN - 1 - i))) & 63) as usize] as char).collect()
}

/// Reads a Position ID (`text` is the ID alone; spans are offsets into it
/// plus `at`).
pub fn parse_id(text: &str, at: usize) -> Result<Board, ParseError> {
    let whole = at..at + text.len();
    if text.len() != ID_LEN {
        return Err(ParseError::new(
            format!("a Position ID has {ID_LEN} characters, `{text}` has {}", text.chars().count()),
            whole,
        )
        .with_help("write the position as GNU Backgammon does, e.g. `4HPwATDgc/ABMA` (the starting position)"));
    }
    let mut bits = 0u128;
    for (i, c) in text.bytes().enumerate() {
        let Some(v) = ALPHABET.iter().position(|&a| a == c) else {
            return Err(ParseError::new(
                format!("`{}` is not a base64 character of a Position ID", text[i..].chars().next().unwrap_or('?')),
                at + i..at + i + 1,
            ));
        };
        bits = (bits << 6) | v as u128;
    }
    if bits & 0xf != 0 {
        return Err(ParseError::new(
            "the last character of a Position ID carries 2 bits; its last 4 must be 0",
            at + 13..at + 14,
        ));
    }
    bits >>= 4;
    let mut key = [0u8; 10];
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = (bits >> (8 * (9 - i))) as u8;
    }
    let bit = |k: usize| key[k / 8] >> (k % 8) & 1 == 1;
    let mut sides = [[0u8; 25]; 2];
    let mut k = 0usize;
    for (s, side) in sides.iter_mut().enumerate() {
        let name = if s == 0 { "the side not on roll" } else { "the side on roll" };
        let mut total = 0u8;
        for count in side.iter_mut() {
            while k < 80 && bit(k) {
                *count += 1;
                total += 1;
                k += 1;
                if total > CHECKERS {
                    return Err(ParseError::new(
                        format!("{name} has more than {CHECKERS} checkers; each side has {CHECKERS}"),
                        whole,
                    ));
                }
            }
            if k >= 80 {
                return Err(ParseError::new("the Position ID's key ends before both sides' 50 points and bars", whole));
            }
            k += 1;
        }
        if total == 0 {
            return Err(ParseError::new(format!("{name} has no checker left: the game is over"), whole)
                .with_help("a position to play has checkers of both sides on the board"));
        }
    }
    if (k..80).any(bit) {
        return Err(ParseError::new("the Position ID sets bits past the end of its key", whole));
    }
    let board = Board { them: sides[0], me: sides[1] };
    for p in 1..=24usize {
        if board.me[p - 1] > 0 && board.them[24 - p] > 0 {
            return Err(ParseError::new(
                format!("the point {p} of the side on roll holds checkers of both sides"),
                whole,
            ));
        }
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starting_position_is_gnubgs() {
        assert_eq!(format_id(&Board::initial()), "4HPwATDgc/ABMA");
        assert_eq!(parse_id("4HPwATDgc/ABMA", 0), Ok(Board::initial()));
    }

    #[test]
    fn malformed_ids_are_refused() {
        assert!(parse_id("4HPwATDgc/ABM", 0).is_err());
        assert!(parse_id("4HPwATDgc/AB!A", 0).is_err());
        assert!(parse_id("//////////////", 0).is_err(), "too many checkers");
        assert!(parse_id("AAAAAAAAAAAAAA", 0).is_err(), "no checkers");
    }
}
