//! Rush Hour (Hauptman et al., GP-Rush; seeds/000 section 4) on n×n boards
//! (6×6 and 8×8), a puzzle of the game model.
//!
//! - Cars cover 2 cells and trucks 3; each slides along its own row or
//!   column and never passes through another vehicle or a wall.
//! - A move slides one vehicle any number of free cells (the slide metric),
//!   written `B+2` (vehicle `B`, two cells towards the higher row or column)
//!   or `B-1` (one cell towards the lower).
//! - The goal: the red car's right end on the board's right edge, in the
//!   exit row. The red car's slide to the exit is a move and counts: a
//!   board whose red car has a clear path needs one move, as Fogleman's
//!   database (a length-1 puzzle) and the published card lengths say
//!   (tests/rushhour.rs checks all 40 cards and a sample of the database).
//! - A board with no legal move (possible only with walls) is over and lost.
//!
//! Boards and their formats are in [`board`]; the paper's hand-crafted
//! heuristics in [`heuristics`]; hard boards generated in [`generate`] and
//! varied in `mutate` (for coevolving them with policies); the searches (BFS, iterative deepening,
//! IDA*) are generic, in the search layer above the games (`search::puzzle`).

pub mod board;
mod domain;
pub mod generate;
pub mod heuristics;
mod mutate;

pub use board::{Board, Layout, format_board, parse_board};

use rand::Rng;

use crate::games::{Game, Generate, Instance, ParseError, Puzzle, Role, Turn, WIN};

/// Card 1 of the 40 original cards: the initial state of `games`' REPL and
/// `perft`.
const CARD_1: &str = "AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR.";

/// The Rush Hour engine; every puzzle's layout travels with its boards.
#[derive(Clone, Copy, Debug, Default)]
pub struct RushHour;

/// A slide: vehicle `vehicle` (its index in the layout) to position `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slide {
    pub vehicle: u8,
    pub to: u8,
}

/// Writes every slide of `board` into `moves`: vehicle by vehicle (the red
/// car first), towards the lower coordinate then the higher, nearest first.
pub fn slides(board: &Board, moves: &mut Vec<Slide>) {
    moves.clear();
    if !board.is_goal() {
        every_slide(board, moves);
    }
}

/// Every slide of `board`, the solved ones included (a cluster of boards,
/// all those slides connect, goes on past its goals), appended to `moves`.
pub fn every_slide(board: &Board, moves: &mut Vec<Slide>) {
    let layout = board.layout();
    let occupied = board.occupied();
    let n = layout.size;
    for (v, vehicle) in layout.vehicles.iter().enumerate() {
        let p = board.pos(v);
        let mut q = p;
        while q > 0 && occupied & layout.cell(v, q - 1) == 0 {
            q -= 1;
            moves.push(Slide { vehicle: v as u8, to: q });
        }
        let mut end = p + vehicle.len;
        while end < n && occupied & layout.cell(v, end) == 0 {
            end += 1;
            moves.push(Slide { vehicle: v as u8, to: end - vehicle.len });
        }
    }
}

impl Game for RushHour {
    type State = Board;
    type Move = Slide;

    fn name(&self) -> &str {
        "rush-hour"
    }

    fn n_roles(&self) -> usize {
        1
    }

    fn role_name(&self, _: Role) -> &str {
        "solver"
    }

    fn initial_state(&self) -> Board {
        // A constant board that the tests read.
        parse_board(CARD_1).unwrap_or_else(|e| unreachable!("card 1 reads: {e}"))
    }

    fn turn(&self, board: &Board) -> Turn {
        let mut moves = Vec::new();
        slides(board, &mut moves);
        if moves.is_empty() { Turn::Over } else { Turn::Role(0) }
    }

    fn legal_moves(&self, board: &Board, moves: &mut Vec<Slide>) {
        slides(board, moves);
    }

    fn apply(&self, board: &Board, mv: &Slide) -> Board {
        board.with(usize::from(mv.vehicle), mv.to)
    }

    fn score(&self, board: &Board, _: Role) -> Option<u8> {
        if board.is_goal() { Some(WIN) } else { (self.turn(board) == Turn::Over).then_some(0) }
    }

    fn parse_state(&self, text: &str) -> Result<Board, ParseError> {
        let offset = text.len() - text.trim_start().len();
        parse_board(text.trim()).map_err(|e| shifted(e, offset))
    }

    fn format_state(&self, board: &Board) -> String {
        format_board(board)
    }

    fn render(&self, board: &Board) -> String {
        let text = format_board(board);
        let n = usize::from(board.layout().size);
        let exit = usize::from(board.layout().exit_row());
        let mut out = String::new();
        for (r, row) in text.as_bytes().chunks(n).enumerate() {
            out.push_str(&String::from_utf8_lossy(row));
            out.push_str(if r == exit { " <- exit\n" } else { "\n" });
        }
        out
    }

    fn parse_move(&self, board: &Board, text: &str) -> Result<Slide, ParseError> {
        let bad = || {
            ParseError::new(format!("`{text}` is not a slide"), 0..text.len())
                .with_help("a slide is a vehicle's letter, `+` (towards the higher row or column) or `-`, and a number of cells: `B+2`")
        };
        let mut chars = text.chars();
        let (Some(letter), Some(sign)) = (chars.next(), chars.next()) else {
            return Err(bad());
        };
        let cells: u8 = chars.as_str().parse().map_err(|_| bad())?;
        if !letter.is_ascii_uppercase() {
            return Err(bad());
        }
        let letter = letter as u8;
        let layout = board.layout();
        let v = layout
            .vehicle_of(letter)
            .ok_or_else(|| ParseError::new(format!("no vehicle `{}` on this board", char::from(letter)), 0..1))?;
        let p = board.pos(v);
        let to = match sign {
            '+' => p.checked_add(cells),
            '-' => p.checked_sub(cells),
            _ => None,
        }
        .ok_or_else(bad)?;
        let mut moves = Vec::new();
        slides(board, &mut moves);
        let mv = Slide { vehicle: v as u8, to };
        if moves.contains(&mv) {
            Ok(mv)
        } else {
            Err(ParseError::new(format!("`{text}` is not a legal slide here"), 0..text.len())
                .with_help("a vehicle slides only through free cells and stays on the board"))
        }
    }

    fn format_move(&self, board: &Board, mv: &Slide) -> String {
        let v = usize::from(mv.vehicle);
        let letter = board.layout().vehicles.get(v).map_or('?', |veh| char::from(veh.letter));
        let from = board.pos(v);
        let sign = if mv.to >= from { '+' } else { '-' };
        format!("{letter}{sign}{}", mv.to.abs_diff(from))
    }
}

fn shifted(e: ParseError, offset: usize) -> ParseError {
    ParseError { span: e.span.start + offset..e.span.end + offset, ..e }
}

impl Puzzle for RushHour {
    fn is_goal(&self, board: &Board) -> bool {
        board.is_goal()
    }

    fn heuristic_names(&self) -> &'static [&'static str] {
        &heuristics::NAMES
    }

    fn heuristic(&self, index: usize, board: &Board) -> u32 {
        match index {
            0 => heuristics::blockers_lower_bound(board),
            1 => heuristics::goal_distance(board),
            _ => heuristics::hybrid(board),
        }
    }

    /// The red car towards the exit first, then the moves of the vehicles
    /// that block its path, then the rest, each group in generation order.
    fn order_moves(&self, board: &Board, moves: &mut [Slide]) {
        let path = heuristics::path(board);
        let layout = board.layout();
        moves.sort_by_key(|mv| {
            let v = usize::from(mv.vehicle);
            if v == 0 {
                u8::from(mv.to < board.pos(0))
            } else if layout.mask(v, board.pos(v)) & path != 0 {
                2
            } else {
                3
            }
        });
    }

    /// A line is a board alone, `<length> <board>`, or three fields with the
    /// board in the middle: the cards' `<card> <board> <length>` (their
    /// boards use `.` for empty cells) or Fogleman's `<length> <board>
    /// <cluster size>` (`o`).
    fn parse_instance(&self, line: &str) -> Result<Option<Instance<Board>>, ParseError> {
        let fields: Vec<(usize, &str)> =
            line.split_whitespace().map(|w| (w.as_ptr() as usize - line.as_ptr() as usize, w)).collect();
        let (board_at, length_at) = match fields.as_slice() {
            [] => return Ok(None),
            [(_, first), ..] if first.starts_with('#') => return Ok(None),
            [_] => (0, None),
            [_, _] => (1, Some(0)),
            [_, (_, board), _] => (1, Some(if board.contains('.') { 2 } else { 0 })),
            [_, _, _, (at, _), ..] => {
                return Err(ParseError::new("more than three fields", *at..line.len()).with_help(
                    "a puzzle line is a board, `<length> <board>`, `<card> <board> <length>` (the cards) or \
                     `<length> <board> <cluster size>` (Fogleman's database)",
                ));
            }
        };
        let (at, text) = fields[board_at];
        let state = parse_board(text).map_err(|e| shifted(e, at))?;
        let optimal_cost =
            match length_at {
                None => None,
                Some(i) => {
                    let (at, text) = fields[i];
                    Some(text.parse::<u32>().map_err(|_| {
                        ParseError::new(format!("`{text}` is not a number of moves"), at..at + text.len())
                    })?)
                }
            };
        Ok(Some(Instance { state, optimal_cost }))
    }

    /// Some vehicles slid, or one added, removed or moved elsewhere
    /// (`mutate.rs`).
    fn vary_instance<R: Rng + ?Sized>(&self, board: &Board, rng: &mut R) -> Option<Board> {
        mutate::vary(board, rng)
    }

    /// A generated board of `like`'s size ([`generate::generate`], 20 climbs).
    fn random_instance<R: Rng + ?Sized>(&self, like: &Board, min_cost: u32, mut rng: &mut R) -> Option<Board> {
        let found = generate::generate(like.layout().size, min_cost, &mut rng, 20)?;
        parse_board(&found.board).ok()
    }

    /// Boards of 6×6 or 8×8 (the default) as lines of Fogleman's format
    /// (`<length> <board> <cluster size>`), which `solve` reads back.
    fn generate_line<R: Rng + ?Sized>(&self, settings: &Generate, mut rng: &mut R) -> Result<Option<String>, String> {
        let size = match settings.size {
            None | Some(8) => 8,
            Some(6) => 6,
            Some(other) => return Err(format!("`--size {other}`: Rush Hour boards are 6×6 or 8×8")),
        };
        let found = generate::generate(size, settings.min_cost, &mut rng, settings.attempts);
        Ok(found.map(|g| format!("{:02} {} {}", g.length, g.board, g.cluster)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slides_and_their_text() {
        let game = RushHour;
        let board = game.initial_state();
        let mut moves = Vec::new();
        game.legal_moves(&board, &mut moves);
        let text: Vec<String> = moves.iter().map(|m| game.format_move(&board, m)).collect();
        assert_eq!(text, ["A+1", "A+2", "A+3", "C-1", "C-2", "C-3", "O+1", "Q-1", "Q+1", "R-1", "R+1"]);
        for (mv, t) in moves.iter().zip(&text) {
            assert_eq!(game.parse_move(&board, t).as_ref(), Ok(mv));
        }
        assert!(game.parse_move(&board, "X+1").is_err(), "Q blocks the red car");
        assert!(game.parse_move(&board, "Z+1").is_err());
        assert!(game.parse_move(&board, "é+1").is_err());
        let solved = parse_board("ooooooooooooooooAAoooooooooooooooooo").expect("at the exit");
        assert!(game.is_goal(&solved) && game.is_over(&solved));
        assert_eq!(game.score(&solved, 0), Some(WIN));
    }

    #[test]
    fn instances_read_both_files_line_formats() {
        let game = RushHour;
        let card = game.parse_instance("1 AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR. 8").expect("a card");
        assert_eq!(card.map(|i| i.optimal_cost), Some(Some(8)));
        let db = game.parse_instance("02 ooBoooooBoooAABooooooooooooooooooooo 14").expect("a database line");
        assert_eq!(db.map(|i| i.optimal_cost), Some(Some(2)));
        assert!(game.parse_instance("# comment").expect("a comment").is_none());
        assert!(game.parse_instance("   ").expect("blank").is_none());
        let err = game.parse_instance("02 ooBoooooBoooAABoooooooo 14").expect_err("short board");
        assert_eq!(err.span, 3..26);
        let err = game.parse_instance("two ooBoooooBoooAABooooooooooooooooooooo 14").expect_err("length");
        assert_eq!(err.span, 0..3);
    }
}
