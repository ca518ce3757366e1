//! Backgammon without the doubling cube (docs/BACKGAMMON.md), the game of
//! GP-Gammon (Azaria and Sipper 2005) and of Tesauro's Pubeval.
//!
//! A turn is two events: a chance event, the roll (21 outcomes, a double
//! weighted 1 and the others 2), then the player's play of it
//! ([`movegen`]). The game starts with the opening roll as in real play:
//! each side throws one die, ties are thrown again, and the side with the
//! higher die plays both dice; as one chance event that is 30 equally
//! likely outcomes, each of the 15 non-double rolls for either side.
//!
//! A game is won by bearing off all fifteen checkers: a single game (1
//! point), a gammon (2: the loser has borne none off) or a backgammon (3:
//! the loser also has a checker on the bar or in the winner's home board).
//! The scores on the model's 0–100 scale keep both the winner and the
//! points: 50 ± 50·points/3, rounded (67/33, 83/17, 100/0).
//!
//! Players: `random`, `pubeval` and GP-Gammon's two-tree individuals over
//! the `backgammon` primset ([`features`]), at one ply or two
//! ([`players`]); as a game of named players ([`playing`]) double-games
//! throw the same dice both ways.
//!
//! Text: positions as GNU Backgammon writes them ([`position_id`]), with
//! the dice to play as `ID:65`; plays in gnubg's notation ([`notation`]).

pub mod board;
pub mod dice;
mod domain;
pub mod features;
pub mod movegen;
pub mod notation;
pub mod players;
mod playing;
pub mod position_id;
pub mod pubeval;

use rand::{Rng, RngExt};

use crate::games::{Game, ParseError, Role, Turn};
use board::{BAR, Board, CHECKERS};
use dice::{OPENING_ROLLS, ROLLS, Roll};
use movegen::{AsPlay, Play};

/// The backgammon engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct Backgammon;

/// What happens next in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The opening roll decides who starts.
    Opening,
    /// The side on roll rolls.
    ToRoll,
    /// The side on roll plays this roll.
    ToPlay(Roll),
    /// `winner` has borne off its last checker, for `points` (1–3).
    Over { winner: Role, points: u8 },
}

/// A position: the board from the side on roll's point of view, who that
/// is, and what happens next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub board: Board,
    pub on_roll: Role,
    pub phase: Phase,
}

/// A chance outcome or a play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// The opening roll: `starter` won it and plays `roll`.
    Opening { starter: Role, roll: Roll },
    /// The roll of the side on roll.
    Roll(Roll),
    /// The side on roll's play.
    Play(Play),
}

impl From<Play> for Move {
    fn from(play: Play) -> Move {
        Move::Play(play)
    }
}

impl AsPlay for Move {
    fn as_play(&self) -> Option<&Play> {
        match self {
            Move::Play(p) => Some(p),
            _ => None,
        }
    }
}

/// Scores (winner, loser) by points won.
const SCORES: [(u8, u8); 3] = [(67, 33), (83, 17), (100, 0)];

/// The role names, in role order.
pub const ROLES: [&str; 2] = ["white", "black"];

/// What the opening position is written as.
pub const OPENING: &str = "opening";

/// The points the side that just bore off its last checker wins; `loser`
/// is the other side's counts.
pub fn points_won(loser: &[u8; 25]) -> u8 {
    if Board::borne_off(loser) > 0 {
        1
    } else if loser[BAR] > 0 || loser[18..24].iter().any(|&n| n > 0) {
        3
    } else {
        2
    }
}

impl Backgammon {
    /// The position after `mv`, a legal move of `pos`.
    pub fn play(&self, pos: &Position, mv: &Move) -> Position {
        match *mv {
            Move::Opening { starter, roll } => {
                Position { board: Board::initial(), on_roll: starter, phase: Phase::ToPlay(roll) }
            }
            Move::Roll(roll) => Position { phase: Phase::ToPlay(roll), ..*pos },
            Move::Play(play) => {
                let after = play.after;
                let phase = if Board::borne_off(&after.me) == CHECKERS {
                    Phase::Over { winner: pos.on_roll, points: points_won(&after.them) }
                } else {
                    Phase::ToRoll
                };
                Position { board: after.swapped(), on_roll: pos.on_roll ^ 1, phase }
            }
        }
    }

    /// The pip count of the side on roll and of the other side.
    pub fn pips(board: &Board) -> (u32, u32) {
        let count = |side: &[u8; 25]| side.iter().enumerate().map(|(i, &n)| (i as u32 + 1) * u32::from(n)).sum();
        (count(&board.me), count(&board.them))
    }
}

impl Game for Backgammon {
    type State = Position;
    type Move = Move;

    fn name(&self) -> &str {
        "backgammon"
    }

    fn n_roles(&self) -> usize {
        2
    }

    fn role_name(&self, role: Role) -> &str {
        ROLES[usize::from(role & 1)]
    }

    fn initial_state(&self) -> Position {
        Position { board: Board::initial(), on_roll: 0, phase: Phase::Opening }
    }

    fn turn(&self, pos: &Position) -> Turn {
        match pos.phase {
            Phase::Opening | Phase::ToRoll => Turn::Chance,
            Phase::ToPlay(_) => Turn::Role(pos.on_roll),
            Phase::Over { .. } => Turn::Over,
        }
    }

    fn legal_moves(&self, pos: &Position, moves: &mut Vec<Move>) {
        moves.clear();
        match pos.phase {
            Phase::Opening => {
                for starter in 0..2 {
                    moves.extend(OPENING_ROLLS.iter().map(|&roll| Move::Opening { starter, roll }));
                }
            }
            Phase::ToRoll => moves.extend(ROLLS.iter().map(|&r| Move::Roll(r))),
            Phase::ToPlay(roll) => movegen::generate(&pos.board, roll, moves),
            Phase::Over { .. } => {}
        }
    }

    fn chance_weights(&self, _: &Position, moves: &[Move], weights: &mut Vec<f64>) {
        weights.clear();
        weights.extend(moves.iter().map(|m| match m {
            Move::Roll(r) => r.weight(),
            _ => 1.0,
        }));
    }

    /// Rolls are drawn as two dice (a number below 36), openings as one of
    /// the 30 outcomes, plays uniformly from the legal ones.
    fn random_move<R: Rng + ?Sized>(&self, pos: &Position, rng: &mut R, _: &mut Vec<Move>) -> Option<Move> {
        match pos.phase {
            Phase::Opening => {
                let i = rng.random_range(0..30usize);
                Some(Move::Opening { starter: (i / 15) as Role, roll: OPENING_ROLLS[i % 15] })
            }
            Phase::ToRoll => {
                let i = rng.random_range(0..36u8);
                Some(Move::Roll(Roll::new(i / 6 + 1, i % 6 + 1)))
            }
            Phase::ToPlay(roll) => Some(Move::Play(movegen::nth_play(&pos.board, roll, |n| rng.random_range(0..n)))),
            Phase::Over { .. } => None,
        }
    }

    fn apply(&self, pos: &Position, mv: &Move) -> Position {
        self.play(pos, mv)
    }

    fn score(&self, pos: &Position, role: Role) -> Option<u8> {
        match pos.phase {
            Phase::Over { winner, points } => {
                let (win, lose) = SCORES[usize::from(points.clamp(1, 3)) - 1];
                Some(if role == winner { win } else { lose })
            }
            _ => None,
        }
    }

    fn parse_state(&self, text: &str) -> Result<Position, ParseError> {
        let trimmed = text.trim();
        let at = text.len() - text.trim_start().len();
        if trimmed.eq_ignore_ascii_case(OPENING) {
            return Ok(self.initial_state());
        }
        let (id, dice) = match trimmed.split_once(':') {
            Some((id, dice)) => (id, Some(dice)),
            None => (trimmed, None),
        };
        let board = position_id::parse_id(id, at)?;
        let phase = match dice {
            None => Phase::ToRoll,
            Some(d) => Phase::ToPlay(parse_dice(d, at + id.len() + 1)?),
        };
        Ok(Position { board, on_roll: 0, phase })
    }

    fn format_state(&self, pos: &Position) -> String {
        match pos.phase {
            Phase::Opening => OPENING.to_owned(),
            Phase::ToPlay(roll) => format!("{}:{}{}", position_id::format_id(&pos.board), roll.0, roll.1),
            Phase::ToRoll | Phase::Over { .. } => position_id::format_id(&pos.board),
        }
    }

    fn render(&self, pos: &Position) -> String {
        let (mine, theirs) = Backgammon::pips(&pos.board);
        format!(
            "{}\n{} on roll, pips {mine} to {theirs}, off {} to {}\n",
            self.format_state(pos),
            self.role_name(pos.on_roll),
            Board::borne_off(&pos.board.me),
            Board::borne_off(&pos.board.them)
        )
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, ParseError> {
        let whole = 0..text.len();
        match pos.phase {
            Phase::ToPlay(roll) => {
                let mut moves = Vec::new();
                self.legal_moves(pos, &mut moves);
                let plays: Vec<Play> = moves.iter().filter_map(|m| m.as_play().copied()).collect();
                notation::parse_play(&pos.board, roll, &plays, text).map(Move::Play)
            }
            Phase::ToRoll => parse_dice(text.trim(), text.len() - text.trim_start().len()).map(Move::Roll),
            Phase::Opening => {
                let (role, dice) = text.trim().split_once(':').ok_or_else(|| {
                    ParseError::new("an opening roll is written `ROLE:DICE`, e.g. `white:31`", whole.clone())
                })?;
                let starter =
                    ROLES.iter().position(|r| *r == role).ok_or_else(|| {
                        ParseError::new(format!("`{role}` is not a role (white or black)"), whole.clone())
                    })? as Role;
                let roll = parse_dice(dice, text.len() - dice.len())?;
                if roll.is_double() {
                    return Err(ParseError::new("an opening roll is never a double (ties are thrown again)", whole));
                }
                Ok(Move::Opening { starter, roll })
            }
            Phase::Over { .. } => Err(ParseError::new("the game is over", whole)),
        }
    }

    fn format_move(&self, pos: &Position, mv: &Move) -> String {
        match mv {
            Move::Opening { starter, roll } => format!("{}:{}{}", self.role_name(*starter), roll.0, roll.1),
            Move::Roll(roll) => format!("{}{}", roll.0, roll.1),
            Move::Play(play) => notation::format_play(&pos.board, play),
        }
    }
}

/// Reads two dice (`65`); spans start at `at`.
pub fn parse_dice(text: &str, at: usize) -> Result<Roll, ParseError> {
    let span = at..at + text.len();
    let digits: Vec<u8> = text.bytes().collect();
    match digits.as_slice() {
        [a @ b'1'..=b'6', b @ b'1'..=b'6'] => Ok(Roll::new(a - b'0', b - b'0')),
        _ => Err(ParseError::new(format!("`{text}` is not a roll of two dice"), span)
            .with_help("write the dice as two digits from 1 to 6, e.g. `ID:65`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    #[test]
    fn random_games_end_with_a_winner_and_points() {
        let game = Backgammon;
        let mut rng = SmallRng::seed_from_u64(3);
        for _ in 0..200 {
            let end = crate::games::playout::random_joint_playout(&game, &game.initial_state(), &mut rng);
            let s = end.scores;
            assert_eq!(u32::from(s[0]) + u32::from(s[1]), 100);
            assert!(s[0] != s[1]);
        }
    }

    #[test]
    fn positions_round_trip_through_text() {
        let game = Backgammon;
        let pos = game.parse_state("4HPwATDgc/ABMA:31").expect("valid");
        assert_eq!(game.format_state(&pos), "4HPwATDgc/ABMA:31");
        let mv = game.parse_move(&pos, "8/5 6/5").expect("legal");
        assert_eq!(game.format_move(&pos, &mv), "8/5 6/5");
        assert!(game.parse_state("4HPwATDgc/ABMA:70").is_err());
        assert!(game.parse_state("4HPwATDgc/ABMA:6").is_err());
    }

    #[test]
    fn gammons_and_backgammons_are_counted() {
        let mut loser = [0u8; 25];
        loser[5] = 15;
        assert_eq!(points_won(&loser), 2);
        loser[5] = 14;
        assert_eq!(points_won(&loser), 1);
        loser[20] = 1;
        assert_eq!(points_won(&loser), 3);
    }
}
