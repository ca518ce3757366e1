//! Cards as one byte each: `rank * 4 + suit`, rank 0..13 (ace to king) and
//! suit 0..4 in the order clubs, diamonds, hearts, spades. This is the order
//! of Microsoft's deck (ace of clubs 0, king of spades 51), so the deal
//! generator indexes cards directly, and a card's suit and rank are a mask
//! and a shift away.

/// How many cards a deck holds.
pub const DECK: usize = 52;

/// A free cell with no card, and the unused tail of the cascade buffer.
pub const NO_CARD: u8 = 0xFF;

/// Ranks as the layouts write them, ace first.
pub const RANKS: &[u8; 13] = b"A23456789TJQK";

/// Suits as the layouts write them, in card order.
pub const SUITS: &[u8; 4] = b"CDHS";

/// The card of `rank` (0 = ace) and `suit` (0 = clubs).
pub const fn card(rank: u8, suit: u8) -> u8 {
    rank * 4 + suit
}

/// 0 = ace .. 12 = king.
pub const fn rank(card: u8) -> u8 {
    card >> 2
}

pub const fn suit(card: u8) -> u8 {
    card & 3
}

/// Diamonds and hearts are red.
pub const fn is_red(card: u8) -> bool {
    matches!(suit(card), 1 | 2)
}

/// Whether `card` may lie on `below` in a cascade: one rank lower, the
/// other colour.
pub const fn fits_on(card: u8, below: u8) -> bool {
    rank(card) + 1 == rank(below) && is_red(card) != is_red(below)
}

/// The two suits of the other colour than `suit`.
pub const fn opposite_suits(suit: u8) -> [u8; 2] {
    if matches!(suit, 1 | 2) { [0, 3] } else { [1, 2] }
}

/// A rank character (`A`, `2`..`9`, `T`, `J`, `Q`, `K`, any case), or
/// `None`. `10` is read by [`parse_card`].
pub fn parse_rank(c: u8) -> Option<u8> {
    RANKS.iter().position(|&r| r == c.to_ascii_uppercase()).map(|r| r as u8)
}

pub fn parse_suit(c: u8) -> Option<u8> {
    SUITS.iter().position(|&s| s == c.to_ascii_uppercase()).map(|s| s as u8)
}

/// A card written as rank and suit (`4C`, `TD`, `10d`), or `None`.
pub fn parse_card(text: &str) -> Option<u8> {
    let (r, s) = match text.as_bytes() {
        [b'1', b'0', s] => (Some(9), *s),
        [r, s] => (parse_rank(*r), *s),
        _ => return None,
    };
    Some(card(r?, parse_suit(s)?))
}

/// `card` as the layouts write it (`TD`); `??` for a byte that is no card.
pub fn card_name(card: u8) -> String {
    if usize::from(card) >= DECK {
        return "??".to_owned();
    }
    let mut s = String::with_capacity(2);
    s.push(char::from(RANKS[usize::from(rank(card))]));
    s.push(char::from(SUITS[usize::from(suit(card))]));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_read_and_write_back() {
        for c in 0..DECK as u8 {
            assert_eq!(parse_card(&card_name(c)), Some(c));
        }
        assert_eq!(parse_card("AC"), Some(0));
        assert_eq!(parse_card("KS"), Some(51));
        assert_eq!(parse_card("10h"), parse_card("TH"));
        for bad in ["", "A", "1C", "AX", "TDX", "é"] {
            assert_eq!(parse_card(bad), None, "{bad}");
        }
    }

    #[test]
    fn colours_and_stacking() {
        let (nine_h, eight_s, eight_d) = (card(8, 2), card(7, 3), card(7, 1));
        assert!(fits_on(eight_s, nine_h));
        assert!(!fits_on(eight_d, nine_h), "same colour");
        assert!(!fits_on(nine_h, eight_s), "wrong way round");
        assert_eq!(opposite_suits(2), [0, 3]);
        assert_eq!(opposite_suits(0), [1, 2]);
    }
}
