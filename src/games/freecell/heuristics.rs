//! The nine heuristics of GA-FreeCell (seeds/001, section 3.2 and table 1),
//! each an estimate of the distance to the goal, and each normalised to
//! [0, 1] for the weight vectors that combine them (section 3.3.1).
//!
//! Values are card values, ace 1 to king 13; a foundation with no card up
//! is 0. The raw heuristics are the paper's definitions. Normalised, each
//! is oriented as a distance (0 at the goal where the definition allows,
//! larger when further), because the weights are non-negative and staged
//! deepening takes the least value first: a count that grows towards the
//! goal (well-placed cards, free cells, the highest home card) is
//! subtracted from its maximum. docs/FREECELL.md lists each normalisation.

use super::cards::{DECK, card, fits_on, rank};
use super::position::{CASCADES, CELLS, Position};

/// The heuristics, in table 1's order (the order of a weight vector's genes).
pub const NAMES: [&str; 9] = [
    "HSDH",
    "NumberWellPlaced",
    "NumCardsNotAtFoundations",
    "FreeCells",
    "DifferenceFromTop",
    "LowestHomeCard",
    "HighestHomeCard",
    "DifferenceHome",
    "SumOfBottomCards",
];

/// What HSDH is divided by: twice the deck. Higher values (most of the deck
/// stacked on the next cards, and no free cell or cascade) count as 1.
const HSDH_SCALE: f64 = 2.0 * DECK as f64;

/// The highest sum of the bottom cards of the 8 cascades: four kings and
/// four queens.
const BOTTOM_SUM_MAX: u32 = 4 * 13 + 4 * 12;

/// Heineman's staged deepening heuristic: for each suit, the cards on top
/// of the next card it needs (0 when that card is in a free cell or the suit
/// is complete), summed; doubled when no free cell and no cascade is empty.
pub fn hsdh(p: &Position) -> u32 {
    let sum = cards_on_next(p);
    if p.empty_cells() == 0 && p.empty_cascades() == 0 { 2 * sum } else { sum }
}

/// For each suit not complete, the cards on top of the next card its
/// foundation needs (0 when that card is in a free cell), summed.
fn cards_on_next(p: &Position) -> u32 {
    (0..4u8).filter(|&s| p.foundation(s) < 13).filter_map(|s| p.cards_on(card(p.foundation(s), s))).sum()
}

/// The cards of the cascades that lie well placed: a card is when it and
/// every card under it descend in alternating colours from the cascade's
/// bottom.
pub fn well_placed(p: &Position) -> u32 {
    p.cascades().map(well_placed_in).sum()
}

fn well_placed_in(cascade: &[u8]) -> u32 {
    match cascade.len() {
        0 => 0,
        n => 1 + cascade.windows(2).take_while(|w| fits_on(w[1], w[0])).count().min(n - 1) as u32,
    }
}

/// A card's value: ace 1 .. king 13.
fn value(c: u8) -> u32 {
    u32::from(rank(c)) + 1
}

/// The average value of the cascades' top cards minus the average value of
/// the foundations' top cards (0 for an empty foundation; no cascade: 0).
pub fn difference_from_top(p: &Position) -> f64 {
    let (mut sum, mut count) = (0u32, 0u32);
    for top in (0..CASCADES).filter_map(|i| p.top(i)) {
        sum += value(top);
        count += 1;
    }
    let cascades = if count == 0 { 0.0 } else { f64::from(sum) / f64::from(count) };
    let foundations = (0..4u8).map(|s| f64::from(p.foundation(s))).sum::<f64>() / 4.0;
    cascades - foundations
}

/// The highest value of a cascade bottom card in every cascade (100) minus
/// the values actually there (an empty cascade counts 0).
pub fn sum_of_bottom_cards(p: &Position) -> u32 {
    let sum: u32 = (0..CASCADES).filter_map(|i| p.cascade(i).first().copied()).map(value).sum();
    BOTTOM_SUM_MAX.saturating_sub(sum)
}

/// Every heuristic of [`NAMES`] normalised to [0, 1] as a distance. One
/// pass over the cascades gathers what the nine need (the functions above
/// compute the same values one by one; a test holds them equal).
pub fn normalised(p: &Position) -> [f64; 9] {
    let above = cards_on_next(p);
    let (mut well, mut tops, mut top_sum, mut bottom_sum) = (0, 0u32, 0, 0);
    for cascade in p.cascades() {
        let (Some(&bottom), Some(&top)) = (cascade.first(), cascade.last()) else { continue };
        well += well_placed_in(cascade);
        tops += 1;
        top_sum += value(top);
        bottom_sum += value(bottom);
    }
    let free = p.empty_cells() + p.empty_cascades();
    let hsdh = if free == 0 { 2 * above } else { above };
    let up = [0u8, 1, 2, 3].map(|s| p.foundation(s));
    let lowest = f64::from(up.iter().copied().min().unwrap_or(0));
    let highest = f64::from(up.iter().copied().max().unwrap_or(0));
    let deck = DECK as f64;
    let out = f64::from(p.cards_out());
    let cascades_top = if tops == 0 { 0.0 } else { f64::from(top_sum) / f64::from(tops) };
    let difference_from_top = cascades_top - up.iter().map(|&n| f64::from(n)).sum::<f64>() / 4.0;
    [
        (f64::from(hsdh) / HSDH_SCALE).min(1.0),
        1.0 - (f64::from(well) + deck - out) / deck,
        out / deck,
        1.0 - free as f64 / (CELLS + CASCADES) as f64,
        (difference_from_top + 13.0) / 26.0,
        (13.0 - lowest) / 13.0,
        (13.0 - highest) / 13.0,
        (highest - lowest) / 13.0,
        f64::from(BOTTOM_SUM_MAX.saturating_sub(bottom_sum)) / f64::from(BOTTOM_SUM_MAX),
    ]
}

/// [`normalised`] from the functions one by one, for the test that holds
/// the two equal.
#[cfg(test)]
fn normalised_one_by_one(p: &Position) -> [f64; 9] {
    let up = [0u8, 1, 2, 3].map(|s| p.foundation(s));
    let lowest = f64::from(up.iter().copied().min().unwrap_or(0));
    let highest = f64::from(up.iter().copied().max().unwrap_or(0));
    let deck = DECK as f64;
    let free = (p.empty_cells() + p.empty_cascades()) as f64;
    let out = f64::from(p.cards_out());
    [
        (f64::from(hsdh(p)) / HSDH_SCALE).min(1.0),
        1.0 - (f64::from(well_placed(p)) + deck - out) / deck,
        out / deck,
        1.0 - free / (CELLS + CASCADES) as f64,
        (difference_from_top(p) + 13.0) / 26.0,
        (13.0 - lowest) / 13.0,
        (13.0 - highest) / 13.0,
        (highest - lowest) / 13.0,
        f64::from(sum_of_bottom_cards(p)) / f64::from(BOTTOM_SUM_MAX),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::position::parse_layout;
    use super::super::{FreeCell, deal_position};
    use super::*;
    use crate::games::{Game, Puzzle};

    /// Deal 1 (ms32k.txt): `JD KD 2S 4C 3S 6D 6S | 2D KC KS 5C TD 8S 9C |
    /// 9H 9S 9D TS 4S 8D 2H | JC 5S QD QH TH QS 6H | 5D AD JS 4H 8H 6C |
    /// 7H QC AS AC 2C 3D | 7C KH AH 4D JH 8C | 5H 3H 3C 7S 7D TC`.
    #[test]
    fn deal_one_by_hand() {
        let p = deal_position(1);
        // Aces: AC has 2C 3D on top (2), AD has JS 4H 8H 6C (4), AH has 4D JH
        // 8C (3), AS has AC 2C 3D (3).
        assert_eq!(hsdh(&p), 12);
        // Well placed: no cascade's second card fits on its bottom card.
        assert_eq!(well_placed(&p), 8);
        // Bottom cards: JD 2D 9H JC 5D 7H 7C 5H = 11+2+9+11+5+7+7+5 = 57.
        assert_eq!(sum_of_bottom_cards(&p), 43);
        // Tops: 6S 9C 2H 6H 6C 3D 8C TC = 6+9+2+6+6+3+8+10 = 50, over 8.
        assert_eq!(difference_from_top(&p), 50.0 / 8.0);
        let n = normalised(&p);
        assert_eq!(n[2], 1.0);
        assert_eq!(n[3], 1.0 - 4.0 / 12.0, "4 free cells, no empty cascade");
        assert_eq!((n[5], n[6], n[7]), (1.0, 1.0, 0.0));
    }

    #[test]
    fn the_goal_is_near_zero_and_values_stay_in_range() {
        let solved = parse_layout(&format!("Foundations: H-K C-K D-K S-K\n{}", ":\n".repeat(8))).expect("the goal");
        let n = normalised(&solved);
        assert_eq!(n[..8], [0.0; 8]);
        assert_eq!(n[8], 1.0, "SumOfBottomCards counts empty cascades as 0, so it is not 0 at the goal");
        // Along a random walk from several deals every value stays in [0, 1].
        let game = FreeCell;
        let mut moves = Vec::new();
        for number in [1, 617, 11982, 31999] {
            let mut p = deal_position(number);
            for step in 0..200 {
                assert_eq!(normalised(&p), normalised_one_by_one(&p), "deal {number} step {step}");
                for v in normalised(&p) {
                    assert!((0.0..=1.0).contains(&v), "deal {number} step {step}: {v}");
                }
                game.legal_moves(&p, &mut moves);
                let Some(mv) = moves.get((step * 7 + number as usize) % moves.len().max(1)) else { break };
                p = game.apply(&p, mv);
            }
        }
        assert_eq!(game.heuristic(0, &solved), 0);
    }

    #[test]
    fn hsdh_doubles_without_a_free_cell_or_cascade() {
        let text = "Foundations: H-0 C-0 D-0 S-0\nFreecells: KC KD KH KS\n\
                    : AC 2C\n: AD 2D\n: AH 2H\n: AS 2S\n: 3C 3D 3H 3S 4C 4D 4H 4S\n\
                    : 5C 5D 5H 5S 6C 6D 6H 6S 7C\n: 7D 7H 7S 8C 8D 8H 8S 9C 9D 9H 9S TC TD\n\
                    : TH TS JC JD JH JS QC QD QH QS\n";
        let p = parse_layout(text).expect("a full layout");
        assert_eq!(hsdh(&p), 2 * 4);
        assert_eq!(well_placed(&p), 8);
        let run = parse_layout(&text.replace(": AC 2C\n: AD 2D", ": 2D AC\n: 2C AD")).expect("swapped aces");
        assert_eq!(well_placed(&run), 8 + 2, "2D under AC and 2C under AD descend in alternating colours");
    }
}
