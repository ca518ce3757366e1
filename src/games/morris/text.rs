//! Text formats for Nine Men's Morris positions and moves, with points named
//! by their grid coordinates (`a1` … `g7`, see [`board`](super::board)).
//!
//! A position is `TURN:W<points>:B<points>[:H<white>,<black>][:T<turns>]`,
//! e.g. `B:Wa1,d2:Bg7:H8,8:T3`: the side to move (`W` or `B`), each player's
//! men on the board (comma-separated, possibly none), the men each still has
//! in hand (default 0, the moving phase), and the turns played so far (default
//! 0; the game is drawn at 200). The start is `W:W:B:H9,9`.
//!
//! A move is a placement `d2`, a slide or flight `a1-a4`, either followed by
//! `x` and the opposing man it removes when it closes a mill: `d2xg7`,
//! `a1-a4xg7`.

use super::board::{ALL, parse_point, point_name};
use super::{BLACK, MAX_TURNS, MEN, Move, Position, WHITE};
use crate::games::{Bits, ParseError, Player};
use std::ops::Range;

const USAGE: &str = "a position looks like `W:Wa1,d2:Bg7:H8,8:T3` (side to move, White's men, Black's men, \
                     men in hand, turns played)";

/// Parses a position under the standard rules; a game sets its own.
pub fn parse_position(text: &str) -> Result<Position, ParseError> {
    let fields = split_spans(text, 0, ':');
    let (turn, turn_span) = &fields[0];
    let side = match turn.trim() {
        "W" | "w" => WHITE,
        "B" | "b" => BLACK,
        "" => return Err(ParseError::new("missing side to move", turn_span.clone()).with_help(USAGE)),
        other => {
            return Err(ParseError::new(
                format!("expected `W` or `B` for the side to move, found `{other}`"),
                turn_span.clone(),
            )
            .with_help(USAGE));
        }
    };
    let mut pos = Position { men: [0, 0], in_hand: [0, 0], side, turns: 0, flying: true };
    let mut seen = [false; 4];
    for (field, span) in &fields[1..] {
        let Some(first) = field.chars().next() else {
            return Err(ParseError::new("empty field", span.clone()).with_help(USAGE));
        };
        let rest = &field[first.len_utf8()..];
        let rest_start = span.start + first.len_utf8();
        let kind = match first.to_ascii_uppercase() {
            'W' => 0,
            'B' => 1,
            'H' => 2,
            'T' => 3,
            _ => {
                return Err(ParseError::new(format!("unknown field `{field}`"), span.clone())
                    .with_help("fields after the side to move start with `W`, `B`, `H` or `T`"));
            }
        };
        if seen[kind] {
            return Err(ParseError::new(format!("field `{first}` given twice"), span.clone()));
        }
        seen[kind] = true;
        match kind {
            0 | 1 => {
                if !rest.is_empty() {
                    for (name, nspan) in split_spans(rest, rest_start, ',') {
                        let pt = parse_point(name).ok_or_else(|| {
                            ParseError::new(format!("`{name}` is not a point"), nspan.clone()).with_help(
                                "points are a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7",
                            )
                        })?;
                        if (pos.men[0] | pos.men[1]) & (1 << pt) != 0 {
                            return Err(ParseError::new(format!("point {name} is listed twice"), nspan));
                        }
                        pos.men[kind] |= 1 << pt;
                    }
                }
            }
            2 => {
                let parts = split_spans(rest, rest_start, ',');
                let [(w, wspan), (b, bspan)] = parts.as_slice() else {
                    return Err(ParseError::new("expected `H<white>,<black>`, e.g. `H9,9`", span.clone()));
                };
                pos.in_hand = [parse_count(w, wspan)?, parse_count(b, bspan)?];
            }
            _ => {
                pos.turns = match rest.parse::<u16>() {
                    Ok(n) if n <= MAX_TURNS => n,
                    _ => {
                        return Err(ParseError::new(
                            format!("the turn count must be a number from 0 to {MAX_TURNS}"),
                            rest_start..span.end,
                        ));
                    }
                }
            }
        }
    }
    for p in [WHITE, BLACK] {
        if pos.n_men(p) > u32::from(MEN) {
            return Err(ParseError::new(
                format!(
                    "{} has {} men on the board and in hand; a player has at most {MEN}",
                    player_name(p),
                    pos.n_men(p)
                ),
                0..text.len(),
            ));
        }
    }
    Ok(pos)
}

fn parse_count(text: &str, span: &Range<usize>) -> Result<u8, ParseError> {
    match text.parse::<u8>() {
        Ok(n) if n <= MEN => Ok(n),
        _ => Err(ParseError::new(format!("`{text}` is not a number of men from 0 to {MEN}"), span.clone())),
    }
}

/// Splits `text` (which starts at byte `base` of the whole input) at `sep`,
/// trimming spaces, keeping each piece's byte range in the whole input.
fn split_spans(text: &str, base: usize, sep: char) -> Vec<(&str, Range<usize>)> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut push = |start: usize, end: usize| {
        let piece = &text[start..end];
        let lead = piece.len() - piece.trim_start().len();
        let trimmed = piece.trim();
        out.push((trimmed, base + start + lead..base + start + lead + trimmed.len()));
    };
    for (i, c) in text.char_indices() {
        if c == sep {
            push(start, i);
            start = i + c.len_utf8();
        }
    }
    push(start, text.len());
    out
}

fn points(b: u32) -> String {
    Bits(b & ALL).map(point_name).collect::<Vec<_>>().join(",")
}

pub fn format_position(pos: &Position) -> String {
    let mut out =
        format!("{}:W{}:B{}", if pos.side == WHITE { "W" } else { "B" }, points(pos.men[0]), points(pos.men[1]));
    if pos.in_hand != [0, 0] {
        out.push_str(&format!(":H{},{}", pos.in_hand[0], pos.in_hand[1]));
    }
    if pos.turns > 0 {
        out.push_str(&format!(":T{}", pos.turns));
    }
    out
}

pub fn format_move(mv: &Move) -> String {
    let mut out = match mv.from {
        Some(from) => format!("{}-{}", point_name(from.into()), point_name(mv.to.into())),
        None => point_name(mv.to.into()),
    };
    if let Some(r) = mv.remove {
        out.push('x');
        out.push_str(&point_name(r.into()));
    }
    out
}

/// Reads a move and returns the legal move of `pos` it names.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, ParseError> {
    let lead = text.len() - text.trim_start().len();
    let body = text.trim();
    let whole = lead..lead + body.len();
    let named = |name: &str, start: usize| -> Result<u8, ParseError> {
        parse_point(name)
            .map(|p| p as u8)
            .ok_or_else(|| ParseError::new(format!("`{name}` is not a point"), start..start + name.len()))
    };
    let (main, remove) = match body.split_once(['x', 'X']) {
        Some((m, r)) => (m, Some(named(r, lead + m.len() + 1)?)),
        None => (body, None),
    };
    let (from, to) = match main.split_once('-') {
        Some((f, t)) => (Some(named(f, lead)?), named(t, lead + f.len() + 1)?),
        None => (None, named(main, lead)?),
    };
    let mut legal = Vec::new();
    pos.generate(&mut legal);
    let wanted = Move { from, to, remove };
    if legal.contains(&wanted) {
        return Ok(wanted);
    }
    let listing = || {
        let all: Vec<String> = legal.iter().map(format_move).collect();
        if all.is_empty() { "there are no legal moves".to_string() } else { format!("legal moves: {}", all.join(" ")) }
    };
    let same_step: Vec<&Move> = legal.iter().filter(|m| m.from == from && m.to == to).collect();
    let why = match (remove, same_step.first()) {
        (None, Some(m)) if m.remove.is_some() => {
            format!("`{body}` closes a mill: name the man to remove, e.g. `{body}x…`")
        }
        (Some(_), Some(m)) if m.remove.is_none() => format!("`{main}` closes no mill, so nothing is removed"),
        (Some(r), Some(_)) => format!("{} may not be removed", point_name(r.into())),
        _ => format!("`{body}` is not a legal move here"),
    };
    Err(ParseError::new(why, whole).with_help(listing()))
}

/// The player name used in messages.
fn player_name(p: Player) -> &'static str {
    if p == WHITE { "White" } else { "Black" }
}
