//! FreeCell (docs/FREECELL.md, seeds/001): 8 cascades, 4 free cells, 4 foundations,
//! a puzzle of the game model.
//!
//! - [`cards`]: cards as bytes.
//! - [`deal`]: Microsoft's deal generator and lists of deal numbers
//!   (`1-100,617,11982`).
//! - [`position`]: the compact, hashable position and the text layout
//!   (Freecell Solver's board format) with its diagnostics.
//! - [`moves`]: legal moves (sequence moves as macros under the capacity
//!   rule), the automatic safe moves to the foundations that every move
//!   carries, move text, move ordering.
//!
//! A move is the player's move and the automatic moves after it, at a cost
//! of one. The goal: all 52 cards on the foundations. A position with no legal
//! move is over and lost. docs/FREECELL.md gives the rules chosen.

pub mod cards;
pub mod deal;
mod domain;
pub mod heuristics;
pub mod moves;
pub mod position;

pub use moves::Move;
pub use position::{Position, format_layout, parse_layout};

use std::ops::RangeInclusive;

use rand::{Rng, RngExt};

use crate::games::{Game, Instance, ParseError, Puzzle, Role, Turn, WIN};

/// The FreeCell engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct FreeCell;

/// Microsoft deal `number` as a position.
pub fn deal_position(number: u32) -> Position {
    // A deal holds every card once, so this always succeeds.
    Position::from_cascades(&deal::deal(number)).unwrap_or_else(|| unreachable!("deal {number} is a deck"))
}

impl Game for FreeCell {
    type State = Position;
    type Move = Move;

    fn name(&self) -> &str {
        "freecell"
    }

    fn n_roles(&self) -> usize {
        1
    }

    fn role_name(&self, _: Role) -> &str {
        "solver"
    }

    /// Deal 1.
    fn initial_state(&self) -> Position {
        deal_position(1)
    }

    /// One of the original 32,000 deals.
    fn random_initial_state<R: Rng + ?Sized>(&self, rng: &mut R) -> Position {
        deal_position(rng.random_range(1..=32_000))
    }

    fn turn(&self, p: &Position) -> Turn {
        let mut moves = Vec::new();
        moves::legal_moves(p, &mut moves);
        if moves.is_empty() { Turn::Over } else { Turn::Role(0) }
    }

    fn legal_moves(&self, p: &Position, moves: &mut Vec<Move>) {
        moves::legal_moves(p, moves);
    }

    fn apply(&self, p: &Position, mv: &Move) -> Position {
        moves::apply(p, mv)
    }

    fn score(&self, p: &Position, _: Role) -> Option<u8> {
        if p.is_solved() { Some(WIN) } else { (self.turn(p) == Turn::Over).then_some(0) }
    }

    fn parse_state(&self, text: &str) -> Result<Position, ParseError> {
        parse_layout(text)
    }

    fn format_state(&self, p: &Position) -> String {
        format_layout(p)
    }

    fn render(&self, p: &Position) -> String {
        format_layout(p)
    }

    fn parse_move(&self, p: &Position, text: &str) -> Result<Move, ParseError> {
        let mut legal = Vec::new();
        moves::legal_moves(p, &mut legal);
        let word = text.trim();
        if let Some(mv) = legal.iter().find(|m| moves::move_text(m) == word) {
            return Ok(*mv);
        }
        let shape = word.len() >= 2
            && word.as_bytes()[..2].iter().all(|b| matches!(b, b'1'..=b'8' | b'a'..=b'd' | b'h'))
            && (word.len() == 2 || word[2..].strip_prefix('/').is_some_and(|n| n.parse::<u8>().is_ok()));
        let message =
            if shape { format!("`{word}` is not a legal move here") } else { format!("`{word}` is not a move") };
        Err(ParseError::new(message, 0..text.len()).with_help(
            "a move is its source and destination, cascades 1-8, free cells a-d, foundations h, and /N for a \
             sequence of N > 1 cards: `3a`, `a8`, `1h`, `38/4`",
        ))
    }

    fn format_move(&self, _: &Position, mv: &Move) -> String {
        moves::move_text(mv)
    }
}

impl Puzzle for FreeCell {
    fn is_goal(&self, p: &Position) -> bool {
        p.is_solved()
    }

    /// Heineman's staged deepening heuristic ([`heuristics::hsdh`]); not
    /// admissible (no FreeCell heuristic used here is).
    fn heuristic_names(&self) -> &'static [&'static str] {
        &["hsdh"]
    }

    fn heuristic(&self, _: usize, p: &Position) -> u32 {
        heuristics::hsdh(p)
    }

    /// Free cells sorted, cascades ordered by their bottom cards.
    fn transposition_key(&self, p: &Position) -> Position {
        p.canonical()
    }

    /// [`Position::digest`]: the canonical position's digest without
    /// building it.
    fn transposition_digest(&self, p: &Position) -> u64 {
        p.digest()
    }

    /// Microsoft's deal numbers ([`deal::parse_deals`]).
    fn parse_numbers(&self, list: &str) -> Option<Result<Vec<RangeInclusive<u32>>, ParseError>> {
        Some(deal::parse_deals(list))
    }

    fn numbered_instance(&self, number: u32) -> Option<Position> {
        (1..=deal::MAX_DEAL).contains(&number).then(|| deal_position(number))
    }

    /// The cascades as a line of ms32k.txt writes them (a deal has nothing
    /// elsewhere); the full layout when free cells or foundations hold cards.
    fn format_instance(&self, p: &Position) -> String {
        if p.cards_out() == 52 && p.empty_cells() == 4 {
            position::format_cascades_line(p)
        } else {
            format_layout(p).trim_end().replace('\n', " / ")
        }
    }

    fn prefers_staged_deepening(&self) -> bool {
        true
    }

    /// The player's move, then each automatic move to the foundations.
    fn move_steps(&self, _: &Position, mv: &Move) -> Vec<String> {
        moves::steps_text(mv)
    }

    /// Replays the steps card by card under the rules, automatic moves
    /// included as the steps give them.
    fn check_steps(&self, start: &Position, steps: &[String]) -> Result<(), (usize, String)> {
        let end = moves::replay_steps(start, steps)?;
        if end.is_solved() {
            Ok(())
        } else {
            Err((steps.len(), format!("{} cards are still out at the end", end.cards_out())))
        }
    }

    /// [`moves::order`]: foundation moves, then moves onto a card, then to an
    /// empty cascade, then to a free cell.
    fn order_moves(&self, p: &Position, moves: &mut [Move]) {
        moves::order(p, moves);
    }

    fn successors(&self, p: &Position, out: &mut Vec<(Move, Position)>) {
        moves::successors(p, out);
    }

    /// A line of ms32k.txt, `N: col1 | ... | col8` (each cascade bottom card
    /// first), or a deal number alone. A multi-line layout is read by
    /// [`Game::parse_state`], not from a file of puzzles.
    fn parse_instance(&self, line: &str) -> Result<Option<Instance<Position>>, ParseError> {
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            return Ok(None);
        }
        let offset = line.len() - line.trim_start().len();
        if !text.contains('|') {
            let ranges = deal::parse_deals(text).map_err(|e| shifted(e, offset))?;
            return match ranges.as_slice() {
                [r] if r.start() == r.end() => {
                    Ok(Some(Instance { state: deal_position(*r.start()), optimal_cost: None }))
                }
                _ => Err(ParseError::new("one deal number per line", offset..offset + text.len())),
            };
        }
        let (body, body_at) = match text.split_once(':') {
            Some((head, body)) if head.trim().bytes().all(|b| b.is_ascii_digit()) => (body, offset + head.len() + 1),
            _ => (text, offset),
        };
        let columns: Vec<&str> = body.split('|').collect();
        if columns.len() != position::CASCADES {
            return Err(ParseError::new(
                format!("{} cascades; a deal line has 8", columns.len()),
                body_at..body_at + body.len(),
            )
            .with_help("a deal line is `N: col1 | ... | col8`, each cascade bottom card first"));
        }
        let layout: String = columns.iter().map(|c| format!(":{c}\n")).collect();
        // The layout is the line with each `|` turned into a line break, so
        // spans map back by adding the line's start.
        parse_layout(&layout).map(|state| Some(Instance { state, optimal_cost: None })).map_err(|e| {
            let end = body_at + body.len();
            let at = |i: usize| {
                let k = layout.get(..i).map_or(0, |before| before.matches('\n').count());
                (body_at + i.saturating_sub(k + 1)).min(end)
            };
            ParseError { span: at(e.span.start)..at(e.span.end).max(at(e.span.start)), ..e }
        })
    }
}

fn shifted(e: ParseError, offset: usize) -> ParseError {
    ParseError { span: e.span.start + offset..e.span.end + offset, ..e }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_read_back_and_bad_ones_are_refused() {
        let game = FreeCell;
        let p = game.initial_state();
        let mut moves = Vec::new();
        game.legal_moves(&p, &mut moves);
        for mv in &moves {
            assert_eq!(game.parse_move(&p, &game.format_move(&p, mv)), Ok(*mv));
        }
        assert_eq!(game.parse_move(&p, "1h").map_err(|e| e.message), Err("`1h` is not a legal move here".to_owned()));
        assert_eq!(game.parse_move(&p, "9z").map_err(|e| e.message), Err("`9z` is not a move".to_owned()));
        assert!(game.parse_move(&p, "é").is_err());
        assert_eq!(game.turn(&p), Turn::Role(0));
        assert_eq!(game.score(&p, 0), None);
    }

    #[test]
    fn instances_are_deal_lines_or_numbers() {
        let game = FreeCell;
        let line = "1: JD KD 2S 4C 3S 6D 6S | 2D KC KS 5C TD 8S 9C | 9H 9S 9D TS 4S 8D 2H | JC 5S QD QH TH QS 6H | \
                    5D AD JS 4H 8H 6C | 7H QC AS AC 2C 3D | 7C KH AH 4D JH 8C | 5H 3H 3C 7S 7D TC";
        let from_line = game.parse_instance(line).expect("a deal line").map(|i| i.state);
        assert_eq!(from_line, Some(deal_position(1)));
        let from_number = game.parse_instance(" 1 ").expect("a number").map(|i| i.state);
        assert_eq!(from_number, Some(deal_position(1)));
        assert!(game.parse_instance("# deals").expect("a comment").is_none());
        let bad = line.replacen("KD", "KX", 1);
        let err = game.parse_instance(&bad).expect_err("no such card");
        assert_eq!(&bad[err.span.clone()], "KX");
        let err = game.parse_instance("1: AC | 2C").expect_err("two cascades");
        assert_eq!(err.message, "2 cascades; a deal line has 8");
        assert!(game.parse_instance("5-7").is_err());
        assert!(game.parse_instance("0").is_err());
    }
}
