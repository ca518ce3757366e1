//! Text formats for checkers positions and moves.
//!
//! Positions use the PDN FEN tag's format: `TURN:COLOUR LIST:COLOUR LIST`,
//! e.g. the start is `B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12`.
//! TURN is `B` (Black, player 0, moving down from 1–12) or `W`. Each list is a
//! colour letter and comma-separated squares 1–32, a `K` before a square for
//! a king, and ranges such as `1-12` or `K29-32`. Either list may be empty
//! (`W` alone). One extension: an optional last field `H<n>`, the plies since
//! the last capture (0–40, default 0), for the draw rule; it is printed only
//! when not 0.
//!
//! Moves use the standard numbers: a step `11-15`, a jump `15x24`, a
//! multi-jump with every landing square `11x18x25`. A multi-jump may also be
//! given by its ends (`11x25`) when that names only one legal move.

use super::board::Bits;
use super::{BLACK, DRAW_PLIES, MAX_PIECES, Move, Position, WHITE};
use crate::games::{ParseError, Player};

/// Reads a position in the FEN format of the module docs.
pub fn parse_position(text: &str) -> Result<Position, ParseError> {
    let fields = split_spans(text, ':');
    let usage = "a position looks like `B:W21,22,23:B1,2,K3` (side to move, White's squares, Black's squares)";
    let (turn, turn_span) = &fields[0];
    let side = match turn.trim() {
        "B" | "b" => BLACK,
        "W" | "w" => WHITE,
        "" => return Err(ParseError::new("missing side to move", turn_span.clone()).with_help(usage)),
        other => {
            return Err(ParseError::new(format!("expected `B` or `W` for the side to move, found `{other}`"), {
                trimmed_span(text, turn_span)
            })
            .with_help(usage));
        }
    };
    let mut pos = Position { pieces: [0, 0], kings: 0, side, quiet: 0 };
    let mut seen = [false, false];
    let mut seen_clock = false;
    for (field, span) in &fields[1..] {
        let lead = field.len() - field.trim_start().len();
        let field = field.trim();
        let span = span.start + lead..span.start + lead + field.len();
        let Some(first) = field.chars().next() else {
            return Err(ParseError::new("empty field", span).with_help(usage));
        };
        let rest_start = span.start + first.len_utf8();
        let rest = &field[first.len_utf8()..];
        match first.to_ascii_uppercase() {
            'W' | 'B' => {
                let colour = if first.eq_ignore_ascii_case(&'B') { BLACK } else { WHITE };
                if seen[colour as usize] {
                    return Err(ParseError::new(format!("{} pieces listed twice", colour_name(colour)), span));
                }
                seen[colour as usize] = true;
                parse_piece_list(&mut pos, colour, rest, rest_start)?;
            }
            'H' => {
                if seen_clock {
                    return Err(ParseError::new("the ply clock is given twice", span));
                }
                seen_clock = true;
                pos.quiet = match rest.parse::<u8>() {
                    Ok(n) if n <= DRAW_PLIES => n,
                    _ => {
                        return Err(ParseError::new(
                            format!("the ply clock must be a number from 0 to {DRAW_PLIES}"),
                            rest_start..span.end,
                        ));
                    }
                };
            }
            _ => {
                return Err(ParseError::new(format!("unknown field `{field}`"), span)
                    .with_help("fields after the side to move start with `W`, `B` or `H`"));
            }
        }
    }
    if !seen[0] && !seen[1] {
        return Err(ParseError::new("no pieces listed", 0..text.len()).with_help(usage));
    }
    for p in [BLACK, WHITE] {
        let n = pos.pieces[p as usize].count_ones();
        if n > MAX_PIECES {
            return Err(ParseError::new(
                format!("{} has {n} pieces; a side has at most {MAX_PIECES}", colour_name(p)),
                0..text.len(),
            ));
        }
    }
    Ok(pos)
}

fn parse_piece_list(pos: &mut Position, colour: Player, list: &str, start: usize) -> Result<(), ParseError> {
    if list.trim().is_empty() {
        return Ok(());
    }
    for (item, span) in split_spans(list, ',') {
        let lead = item.len() - item.trim_start().len();
        let item = item.trim();
        let span = start + span.start + lead..start + span.start + lead + item.len();
        let (king, body, body_start) = match item.strip_prefix(['K', 'k']) {
            Some(b) => (true, b, span.start + 1),
            None => (false, item, span.start),
        };
        let (lo, hi) = match body.split_once('-') {
            Some((a, b)) => {
                let lo = parse_square(a, body_start)?;
                let hi = parse_square(b, body_start + a.len() + 1)?;
                if hi < lo {
                    return Err(ParseError::new(format!("empty range {}-{}", lo + 1, hi + 1), span));
                }
                (lo, hi)
            }
            None => {
                let sq = parse_square(body, body_start)?;
                (sq, sq)
            }
        };
        for sq in lo..=hi {
            let bit = 1u32 << sq;
            if (pos.pieces[0] | pos.pieces[1]) & bit != 0 {
                return Err(ParseError::new(format!("square {} is listed twice", sq + 1), span));
            }
            let crown = if colour == BLACK { super::board::BOTTOM_ROW } else { super::board::TOP_ROW };
            if !king && crown & bit != 0 {
                return Err(ParseError::new(
                    format!("a {} man on square {} would have been crowned", colour_name(colour), sq + 1),
                    span,
                )
                .with_help(format!("write K{} for a king", sq + 1)));
            }
            pos.pieces[colour as usize] |= bit;
            if king {
                pos.kings |= bit;
            }
        }
    }
    Ok(())
}

/// Parses a square number 1–32 into an index 0..32.
fn parse_square(text: &str, start: usize) -> Result<u32, ParseError> {
    let span = start..start + text.len();
    match text.parse::<u32>() {
        Ok(n @ 1..=32) if text.bytes().all(|b| b.is_ascii_digit()) => Ok(n - 1),
        _ if text.is_empty() => Err(ParseError::new("missing square number", span)),
        _ => Err(ParseError::new(format!("`{text}` is not a square number from 1 to 32"), span)),
    }
}

fn colour_name(p: Player) -> &'static str {
    if p == BLACK { "Black" } else { "White" }
}

/// Splits `text` at `sep`, keeping each piece's byte range.
fn split_spans(text: &str, sep: char) -> Vec<(&str, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if c == sep {
            out.push((&text[start..i], start..i));
            start = i + c.len_utf8();
        }
    }
    out.push((&text[start..], start..text.len()));
    out
}

fn trimmed_span(text: &str, span: &std::ops::Range<usize>) -> std::ops::Range<usize> {
    let s = &text[span.clone()];
    let lead = s.len() - s.trim_start().len();
    span.start + lead..span.start + lead + s.trim().len()
}

/// Writes a position in the FEN format of the module docs.
pub fn format_position(pos: &Position) -> String {
    let mut out = String::from(if pos.side == BLACK { "B" } else { "W" });
    for (letter, p) in [('W', WHITE), ('B', BLACK)] {
        out.push(':');
        out.push(letter);
        let squares: Vec<String> = Bits(pos.pieces[p as usize])
            .map(|sq| if pos.kings & (1 << sq) != 0 { format!("K{}", sq + 1) } else { (sq + 1).to_string() })
            .collect();
        out.push_str(&squares.join(","));
    }
    if pos.quiet > 0 {
        out.push_str(&format!(":H{}", pos.quiet));
    }
    out
}

/// Writes a move: `11-15`, or every landing square of a jump, `11x18x25`.
pub fn format_move(mv: &Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from + 1, mv.to + 1);
    }
    let mut out = (mv.from + 1).to_string();
    for sq in mv.landings() {
        out.push_str(&format!("x{}", sq + 1));
    }
    out
}

/// Reads a move and returns the legal move of `pos` it names.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, ParseError> {
    let whole = trimmed_span(text, &(0..text.len()));
    let body = &text[whole.clone()];
    let jump = body.contains(['x', 'X']);
    if jump && body.contains('-') {
        return Err(ParseError::new("a move uses `-` (a step) or `x` (a jump), not both", whole));
    }
    let sep = if jump { if body.contains('x') { 'x' } else { 'X' } } else { '-' };
    let mut squares = Vec::new();
    for (part, span) in split_spans(body, sep) {
        squares.push(parse_square(part.trim(), whole.start + span.start)?);
    }
    if squares.len() < 2 {
        return Err(ParseError::new("a move names at least two squares, e.g. `11-15` or `15x24`", whole));
    }
    if !jump && squares.len() > 2 {
        return Err(ParseError::new("a step names two squares; write jumps with `x`", whole));
    }
    let mut legal = Vec::new();
    pos.generate(&mut legal);
    let (first, last) = (squares[0], squares[squares.len() - 1]);
    let ends = |m: &&Move| m.is_capture() == jump && u32::from(m.from) == first && u32::from(m.to) == last;
    // The move with exactly these landings is the one named (as `format_move`
    // writes it); failing that, two squares are the shorthand for any jump
    // between them. So `19x12` is the single jump even when a king can also
    // loop from 19 back to 12.
    let exact: Vec<Move> =
        legal.iter().filter(ends).filter(|m| m.landings().eq(squares[1..].iter().copied())).copied().collect();
    let matches =
        if exact.is_empty() && squares.len() == 2 { legal.iter().filter(ends).copied().collect() } else { exact };
    let listing = || {
        let all: Vec<String> = legal.iter().map(format_move).collect();
        if all.is_empty() { "there are no legal moves".to_string() } else { format!("legal moves: {}", all.join(" ")) }
    };
    match matches.as_slice() {
        [one] => Ok(*one),
        [] => {
            let why = if !jump && legal.iter().any(Move::is_capture) {
                format!("`{body}` is not legal: a capture is mandatory")
            } else {
                format!("`{body}` is not a legal move here")
            };
            Err(ParseError::new(why, whole).with_help(listing()))
        }
        many => {
            let names: Vec<String> = many.iter().map(format_move).collect();
            Err(ParseError::new(format!("`{body}` names {} moves", many.len()), whole)
                .with_help(format!("give every landing square: {}", names.join(" "))))
        }
    }
}
