//! Plays in the standard notation gnubg writes: `24/18 13/8`, `bar/22*`,
//! `6/off`, a checker moved twice as one segment (`24/13`, or `24/18*/13`
//! when it hits on the way), and repeated segments counted (`8/2(2)`).
//! Segments come highest point first. A roll without a legal step is the
//! empty play, written `pass`.
//!
//! Reading accepts any order and split of the same checker moves: a play is
//! named by the position it reaches, so `24/18 18/13`, `24/13` and
//! `18/13 24/18` name one play.

use super::board::{BAR, Board};
use super::dice::Roll;
use super::movegen::{BAR_POINT, OFF_POINT, Play};
use crate::games::ParseError;

/// How the empty play is written.
pub const PASS: &str = "pass";

fn point_text(p: u8) -> String {
    match p {
        BAR_POINT => "bar".to_owned(),
        OFF_POINT => "off".to_owned(),
        p => p.to_string(),
    }
}

/// `play` (one of `board`'s) in gnubg's notation.
pub fn format_play(board: &Board, play: &Play) -> String {
    if play.n_steps == 0 {
        return PASS.to_owned();
    }
    // Which steps hit, replayed in the order found.
    let mut hops: Vec<(u8, u8, bool)> = Vec::with_capacity(4);
    let mut b = *board;
    for &(from, to) in play.steps() {
        let hit = to != OFF_POINT && b.them[24 - usize::from(to)] == 1;
        let die = if to == OFF_POINT { from } else { from - to };
        if let Some((after, _)) = super::movegen::step(&b, from, die) {
            b = after;
        } else {
            // A bear-off with a higher die: move the checker off by hand.
            b.me[usize::from(from) - 1] -= 1;
        }
        hops.push((from, to, hit));
    }
    hops.sort_by_key(|&(from, to, _)| std::cmp::Reverse((from, to)));
    // Chain a hop onto the segment that ends where it starts.
    let mut segments: Vec<Vec<(u8, bool)>> = Vec::new();
    for (from, to, hit) in hops {
        match segments.iter_mut().find(|s| s.last().is_some_and(|&(p, _)| p == from)) {
            Some(segment) => segment.push((to, hit)),
            None => segments.push(vec![(from, false), (to, hit)]),
        }
    }
    let texts: Vec<String> = segments
        .iter()
        .map(|s| {
            let mut text = point_text(s[0].0);
            for (i, &(p, hit)) in s.iter().enumerate().skip(1) {
                // An intermediate point is written only where it hit.
                if i + 1 < s.len() && !hit {
                    continue;
                }
                text.push('/');
                text.push_str(&point_text(p));
                if hit {
                    text.push('*');
                }
            }
            text
        })
        .collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < texts.len() {
        let n = texts[i..].iter().take_while(|t| **t == texts[i]).count();
        out.push(if n > 1 { format!("{}({n})", texts[i]) } else { texts[i].clone() });
        i += n;
    }
    out.join(" ")
}

/// Reads a point: 1–24, `bar` (or 25) or `off` (or 0).
fn parse_point(text: &str, span: std::ops::Range<usize>) -> Result<u8, ParseError> {
    match text.to_ascii_lowercase().as_str() {
        "bar" => Ok(BAR_POINT),
        "off" => Ok(OFF_POINT),
        t => match t.parse::<u8>() {
            Ok(p) if p <= 25 => Ok(p),
            _ => Err(ParseError::new(format!("`{text}` is not a point (1–24, `bar` or `off`)"), span)),
        },
    }
}

/// Reads the play `text` names among `plays` (the legal plays of `roll`
/// on `board`).
pub fn parse_play(board: &Board, roll: Roll, plays: &[Play], text: &str) -> Result<Play, ParseError> {
    let whole = 0..text.len();
    let trimmed = text.trim();
    if trimmed.eq_ignore_ascii_case(PASS) || trimmed.is_empty() {
        return plays.iter().find(|p| p.n_steps == 0).copied().ok_or_else(|| {
            ParseError::new(
                format!("a checker can move with {}{}: passing is not allowed", roll.0, roll.1),
                whole.clone(),
            )
            .with_help(legal_help(board, plays))
        });
    }
    let mut after = *board;
    for word in text.split_whitespace() {
        let start = word.as_ptr() as usize - text.as_ptr() as usize;
        let span = start..start + word.len();
        let (segment, times) = match word.find('(') {
            Some(open) => {
                let count = word[open + 1..].strip_suffix(')').and_then(|n| n.parse::<usize>().ok());
                match count {
                    Some(n @ 1..=4) => (&word[..open], n),
                    _ => return Err(ParseError::new(format!("`{word}`: a count is written `(2)` to `(4)`"), span)),
                }
            }
            None => (word, 1),
        };
        let mut points = Vec::new();
        let mut offset = start;
        for part in segment.split('/') {
            let name = part.trim_end_matches('*');
            points.push(parse_point(name, offset..offset + part.len())?);
            offset += part.len() + 1;
        }
        if points.len() < 2 {
            return Err(ParseError::new(format!("`{word}` is not a move: write `FROM/TO`, e.g. `24/18`"), span));
        }
        for _ in 0..times {
            for hop in points.windows(2) {
                let (from, to) = (hop[0], hop[1]);
                if from == OFF_POINT || to == BAR_POINT || (to != OFF_POINT && to >= from) {
                    return Err(ParseError::new(format!("`{word}`: checkers move from higher points to lower"), span));
                }
                if after.me[usize::from(from) - 1] == 0 {
                    return Err(ParseError::new(
                        format!("`{word}`: no checker of the side on roll on {}", point_text(from)),
                        span,
                    ));
                }
                after.me[usize::from(from) - 1] -= 1;
                if to != OFF_POINT {
                    let theirs = 24 - usize::from(to);
                    if after.them[theirs] >= 2 {
                        return Err(ParseError::new(format!("`{word}`: point {to} is blocked"), span)
                            .with_help(legal_help(board, plays)));
                    }
                    if after.them[theirs] == 1 {
                        after.them[theirs] = 0;
                        after.them[BAR] += 1;
                    }
                    after.me[usize::from(to) - 1] += 1;
                }
            }
        }
    }
    plays.iter().find(|p| p.after == after).copied().ok_or_else(|| {
        ParseError::new(format!("`{}` is not a legal play of {}{}", trimmed, roll.0, roll.1), whole)
            .with_help(legal_help(board, plays))
    })
}

/// The legal plays, for a diagnostic's help.
fn legal_help(board: &Board, plays: &[Play]) -> String {
    const SHOWN: usize = 12;
    let mut names: Vec<String> = plays.iter().take(SHOWN).map(|p| format_play(board, p)).collect();
    if plays.len() > SHOWN {
        names.push(format!("and {} more", plays.len() - SHOWN));
    }
    format!("legal plays: {}", names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::backgammon::movegen::generate;

    fn names(board: &Board, roll: Roll) -> Vec<String> {
        let mut plays: Vec<Play> = Vec::new();
        generate(board, roll, &mut plays);
        let mut names: Vec<String> = plays.iter().map(|p| format_play(board, p)).collect();
        names.sort();
        names
    }

    #[test]
    fn opening_plays_are_written_as_gnubg_writes_them() {
        let start = Board::initial();
        let n = names(&start, Roll(6, 5));
        assert!(n.contains(&"24/13".to_owned()), "{n:?}");
        assert!(n.contains(&"24/18 13/8".to_owned()), "{n:?}");
        let n = names(&start, Roll(6, 6));
        assert!(n.contains(&"24/18(2) 13/7(2)".to_owned()), "{n:?}");
        assert!(n.contains(&"13/1(2)".to_owned()) || n.contains(&"24/18(2) 13/7(2)".to_owned()), "{n:?}");
    }

    #[test]
    fn plays_are_read_in_any_order_and_split() {
        let start = Board::initial();
        let mut plays: Vec<Play> = Vec::new();
        generate(&start, Roll(6, 5), &mut plays);
        let a = parse_play(&start, Roll(6, 5), &plays, "24/13").expect("legal");
        let b = parse_play(&start, Roll(6, 5), &plays, "24/18 18/13").expect("legal");
        assert_eq!(a.after, b.after);
        assert!(parse_play(&start, Roll(6, 5), &plays, "13/8 24/18").is_ok());
        assert!(parse_play(&start, Roll(6, 5), &plays, "24/18").is_err(), "both dice must be used");
        assert!(parse_play(&start, Roll(6, 5), &plays, "6/1").is_err(), "the 1-point is the opponent's");
        assert!(parse_play(&start, Roll(6, 5), &plays, "12/6").is_err(), "no checker there");
    }
}
