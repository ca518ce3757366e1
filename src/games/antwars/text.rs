//! Ant Wars positions and moves as text.
//!
//! A position is one line, so that `--position` and the REPL can take it:
//! the 11 rows from north to south separated by `/`, each 11 cells (`.`
//! empty, `f` food, `1` Ant 1, `2` Ant 2; a dead ant is absent), then the
//! plies played and the two scores:
//!
//! ```text
//! ...f......./.........../...f......./.........../.....f...../..1.....2../ ... 0 0 0
//! ```
//!
//! A move is a direction: its short or long name (`n`, `north-east`, ...) or
//! its number 0–7 in the contest's order. Bad text is a [`ParseError`] with
//! the span of the offending part, never a panic.

use super::{Board, CELLS, DEAD, DIRECTION_NAMES, Dir, PLIES, SIZE, all_cells};
use crate::games::ParseError;

/// Reads a position in the one-line format.
pub(super) fn parse_board(text: &str) -> Result<Board, ParseError> {
    let words: Vec<(usize, &str)> =
        text.split_whitespace().map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w)).collect();
    let usage = "a position is 11 rows of 11 cells separated by `/` (`.` empty, `f` food, `1` and `2` the ants), \
                 then the plies played and the two scores: `<rows> 0 0 0`";
    let Some(&(rows_at, rows)) = words.first() else {
        return Err(ParseError::new("empty position", 0..text.len()).with_help(usage));
    };
    if words.len() != 4 {
        return Err(
            ParseError::new(format!("expected 4 fields, found {}", words.len()), 0..text.len()).with_help(usage)
        );
    }
    let mut food = 0u128;
    let mut ants = [DEAD; 2];
    let mut row = 0;
    let mut col = 0;
    let mut row_start = rows_at;
    for (i, c) in rows.char_indices() {
        let at = rows_at + i;
        if c == '/' {
            if col != SIZE {
                return Err(ParseError::new(format!("row {row} has {col} cells, not 11"), row_start..at));
            }
            row += 1;
            col = 0;
            row_start = at + 1;
            continue;
        }
        if row >= SIZE || col >= SIZE {
            let what = if row >= SIZE { "more than 11 rows" } else { "a row of more than 11 cells" };
            return Err(ParseError::new(what, at..at + c.len_utf8()).with_help(usage));
        }
        let cell = row * SIZE + col;
        match c {
            '.' => {}
            'f' => food |= 1u128 << cell,
            '1' | '2' => {
                let ant = usize::from(c == '2');
                if ants[ant] != DEAD {
                    return Err(ParseError::new(format!("Ant {c} appears twice"), at..at + 1));
                }
                ants[ant] = cell as u8;
            }
            _ => {
                return Err(ParseError::new(format!("`{c}` is not a cell"), at..at + c.len_utf8())
                    .with_help("cells are `.` (empty), `f` (food), `1` and `2` (the ants)"));
            }
        }
        col += 1;
    }
    if row != SIZE - 1 || col != SIZE {
        return Err(ParseError::new(
            format!("the board has {} rows (the last of {col} cells); it needs 11 rows of 11", row + 1),
            rows_at..rows_at + rows.len(),
        )
        .with_help(usage));
    }
    if ants == [DEAD; 2] {
        return Err(ParseError::new("no ant on the board", rows_at..rows_at + rows.len())
            .with_help("at least one ant is alive: `1` and `2` mark them"));
    }
    let number = |k: usize, what: &str, max: u8| -> Result<u8, ParseError> {
        let (at, word) = words[k];
        match word.parse::<u8>() {
            Ok(n) if n <= max => Ok(n),
            _ => Err(ParseError::new(format!("`{word}` is not {what} (0–{max})"), at..at + word.len())),
        }
    };
    let ply = number(1, "a number of plies", PLIES)?;
    // Scores at most the cells of the board, so no game from here overflows them.
    let scores = [number(2, "a score", CELLS as u8)?, number(3, "a score", CELLS as u8)?];
    let mut board = Board { food: food & all_cells(), ants, scores, ply };
    // A dead ant's turn is skipped, as the game skips it.
    if board.ply < PLIES && board.ants[usize::from(board.ply & 1)] == DEAD {
        board.ply += 1;
    }
    Ok(board)
}

/// The cell characters of `board`, row by row.
fn cells(board: &Board) -> [[char; SIZE]; SIZE] {
    let mut grid = [['.'; SIZE]; SIZE];
    for (cell, c) in grid.as_flattened_mut().iter_mut().enumerate() {
        if board.has_food(cell) {
            *c = 'f';
        }
    }
    for (ant, mark) in [(0, '1'), (1, '2')] {
        if let Some(cell) = board.ant(ant) {
            grid[cell / SIZE][cell % SIZE] = mark;
        }
    }
    grid
}

/// Writes a position in the one-line format [`parse_board`] reads.
pub(super) fn format_board(board: &Board) -> String {
    let rows: Vec<String> = cells(board).iter().map(|r| r.iter().collect()).collect();
    format!("{} {} {} {}", rows.join("/"), board.ply, board.scores[0], board.scores[1])
}

/// The board as a picture, with whose turn it is and the scores.
pub(super) fn render_board(board: &Board) -> String {
    let mut text = String::new();
    for row in cells(board) {
        let line: Vec<String> = row.iter().map(char::to_string).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    let turn = if board.is_over() {
        "game over".to_owned()
    } else {
        format!("Ant {} to move, {} moves left", board.to_move() + 1, board.moves_left(board.to_move()))
    };
    text.push_str(&format!("ply {}: {turn}; scores {} {}\n", board.ply, board.scores[0], board.scores[1]));
    text
}

/// Reads a direction: `n`..`nw`, `north`..`north-west`, or 0–7.
pub(super) fn parse_direction(text: &str) -> Result<Dir, ParseError> {
    let word = text.trim();
    let lower = word.to_ascii_lowercase();
    if let Ok(n) = lower.parse::<u8>()
        && n < 8
    {
        return Ok(n);
    }
    match DIRECTION_NAMES.iter().position(|(short, long)| lower == *short || lower == *long) {
        Some(d) => Ok(d as Dir),
        None => Err(ParseError::new(format!("`{word}` is not a direction"), 0..text.len())
            .with_help("directions: n ne e se s sw w nw (or north, north-east, ...), or 0–7 clockwise from north")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::games::antwars::AntWars;
    use crate::rng::stream;

    #[test]
    fn positions_round_trip_along_random_games() {
        let game = AntWars;
        for seed in 0..50 {
            let mut rng = stream(seed, &[]);
            let mut b = game.random_initial_state(&mut rng);
            loop {
                let text = game.format_state(&b);
                assert_eq!(game.parse_state(&text), Ok(b), "{text}");
                let Some(mv) = game.random_move(&b, &mut rng, &mut Vec::new()) else { break };
                let mv_text = game.format_move(&b, &mv);
                assert_eq!(game.parse_move(&b, &mv_text), Ok(mv));
                b = game.apply(&b, &mv);
            }
        }
    }

    #[test]
    fn bad_positions_are_diagnosed_with_spans() {
        let row = "...........";
        let good = format!("{row}/{row}/{row}/{row}/{row}/..1.....2../{row}/{row}/{row}/{row}/{row} 0 0 0");
        assert!(parse_board(&good).is_ok());
        let cases = [
            ("", "empty position"),
            ("x 0 0", "expected 4 fields"),
            (&good.replacen("..1", "..x", 1) as &str, "`x` is not a cell"),
            (&good.replacen("..1", "..2", 1), "Ant 2 appears twice"),
            (&good.replacen("..1.....2..", "...........", 1), "no ant"),
            (&good.replacen("/..1", "/.1", 1), "row 5 has 10 cells"),
            (&good.replacen("/..1", "/...1", 1), "a row of more than 11 cells"),
            (&good.replacen(" 0 0 0", "/. 0 0 0", 1), "more than 11 rows"),
            (&good.replacen(" 0 0 0", " 71 0 0", 1), "`71` is not a number of plies"),
            (&good.replacen(" 0 0 0", " 0 -1 0", 1), "`-1` is not a score"),
            (&good.replacen(" 0 0 0", " 0 0 122", 1), "`122` is not a score (0–121)"),
            (&good.replacen("/...........", "", 1), "the board has 10 rows"),
            (&good.replacen("..1", "..é", 1), "`é` is not a cell"),
        ];
        for (text, expected) in cases {
            let err = parse_board(text).expect_err(text);
            assert!(err.message.contains(expected), "{text}: {}", err.message);
            assert!(err.span.end <= text.len() && text.is_char_boundary(err.span.start), "{text}: {err}");
        }
    }

    #[test]
    fn directions_read_names_and_numbers() {
        assert_eq!(parse_direction("n"), Ok(0));
        assert_eq!(parse_direction("South-West"), Ok(5));
        assert_eq!(parse_direction("7"), Ok(7));
        assert!(parse_direction("8").is_err());
        assert!(parse_direction("up").is_err());
    }
}
