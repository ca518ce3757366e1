//! The two-player view of a GDL game: what α-β, the match players and `play`
//! need of a game whose two roles take turns.
//!
//! Negamax needs the player to move in every state, terminal and forced ones
//! included, and a GDL state does not say who moved last. So a position here
//! is a state with the role to move: the role with a choice, or, where no
//! role has one (a terminal state, or every role with a single legal move),
//! the opponent of the role that moved into it. A state where both roles
//! have a choice, or where the role that just moved has the only choice
//! again, is not alternating: the game records the error (see
//! [`Game::take_error`]) and the position is over.
//!
//! The result compares the roles' goal values at a terminal state: the
//! higher wins, equal values draw. Both roles need a goal value there; a
//! missing one is an error, since α-β would score it as a loss.

use super::{GdlGame, GdlRules, text};
use crate::games::domain::{FeatureDef, GpDomain, NativeDef};
use crate::games::{Game, GameResult, ParseError, Player, Role, Turn, TwoPlayer};
use crate::gdl::State;
use crate::gdl::term::Term;

/// A state and the role to move in it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GdlPosition {
    pub state: State,
    pub to_move: Player,
}

/// A two-player alternating GDL game (see the module's documentation).
pub struct GdlTwoPlayer {
    game: GdlGame,
}

impl GdlTwoPlayer {
    pub fn new(rules: &'static GdlRules) -> GdlTwoPlayer {
        GdlTwoPlayer { game: GdlGame::new(rules) }
    }

    /// The position of `state` when no move led to it: the role with a
    /// choice, else the first role.
    fn position(&self, state: State) -> GdlPosition {
        let to_move = match self.game.turn(&state) {
            Turn::Role(r) => r,
            _ => 0,
        };
        GdlPosition { state, to_move }
    }

    fn not_alternating(&self, pos: &GdlPosition, why: &str) -> String {
        format!(
            "this is not a two-player alternating game: {why} in {}",
            super::brief(&text::format_state(&pos.state, &self.game.machine().symbols))
        )
    }
}

impl Game for GdlTwoPlayer {
    type State = GdlPosition;
    type Move = Term;

    fn name(&self) -> &str {
        self.game.name()
    }

    fn n_roles(&self) -> usize {
        2
    }

    fn role_name(&self, role: Role) -> &str {
        self.game.role_name(role)
    }

    fn initial_state(&self) -> GdlPosition {
        self.position(self.game.initial_state())
    }

    fn turn(&self, pos: &GdlPosition) -> Turn {
        self.game
            .with_facts(&pos.state, |f| match f.turn {
                Turn::Over => Ok(Turn::Over),
                _ if f.counts.iter().all(|&n| n == 1) => Ok(Turn::Role(pos.to_move)),
                Turn::Role(r) if r == pos.to_move => Ok(Turn::Role(r)),
                Turn::Role(r) => Err(self.not_alternating(
                    pos,
                    &format!("{} has the choice where {} is to move", self.role_name(r), self.role_name(pos.to_move)),
                )),
                _ => Err(self.not_alternating(pos, "both roles have a choice")),
            })
            .unwrap_or(Turn::Over)
    }

    fn legal_moves(&self, pos: &GdlPosition, moves: &mut Vec<Term>) {
        moves.clear();
        if let Turn::Role(r) = self.turn(pos) {
            self.game.legal_moves_of(&pos.state, r, moves);
        }
    }

    fn apply(&self, pos: &GdlPosition, mv: &Term) -> GdlPosition {
        let Some(state) = self.game.apply_mover(&pos.state, pos.to_move, mv) else {
            return pos.clone();
        };
        let mover = pos.to_move;
        let to_move = self.game.with_facts(&state, |f| match f.turn {
            Turn::Role(r) if r == mover && f.counts.iter().any(|&n| n > 1) => Err(format!(
                "this is not a two-player alternating game: {} moves twice in a row, into {}",
                self.role_name(mover),
                super::brief(&text::format_state(&state, &self.game.machine().symbols))
            )),
            Turn::Role(r) if f.counts.iter().any(|&n| n > 1) => Ok(r),
            _ => Ok(1 - mover),
        });
        match to_move {
            Some(to_move) => GdlPosition { state, to_move },
            None => pos.clone(),
        }
    }

    fn score(&self, pos: &GdlPosition, role: Role) -> Option<u8> {
        self.game.score(&pos.state, role)
    }

    /// The inner game's playout (on the compiled engine when it has one).
    fn random_playout_scores<R: rand::Rng>(&self, pos: &GdlPosition, rng: &mut R, scores: &mut Vec<u8>) {
        self.game.random_playout_scores(&pos.state, rng, scores);
    }

    fn random_playout_scores_until<R: rand::Rng>(
        &self,
        pos: &GdlPosition,
        rng: &mut R,
        scores: &mut Vec<u8>,
        deadline: std::time::Instant,
        max_plies: u32,
    ) -> crate::games::PlayoutEnd {
        self.game.random_playout_scores_until(&pos.state, rng, scores, deadline, max_plies)
    }

    fn parse_state(&self, text: &str) -> Result<GdlPosition, ParseError> {
        self.game.parse_state(text).map(|state| self.position(state))
    }

    fn format_state(&self, pos: &GdlPosition) -> String {
        self.game.format_state(&pos.state)
    }

    fn render(&self, pos: &GdlPosition) -> String {
        self.game.render(&pos.state)
    }

    fn parse_move(&self, pos: &GdlPosition, text: &str) -> Result<Term, ParseError> {
        let joint = self.game.parse_joint(&pos.state, text)?;
        joint.get(usize::from(pos.to_move)).cloned().ok_or_else(|| ParseError::new("no move", 0..text.len()))
    }

    fn format_move(&self, pos: &GdlPosition, mv: &Term) -> String {
        self.game.format_move(&pos.state, mv)
    }

    fn take_error(&self) -> Option<String> {
        self.game.take_error()
    }

    fn set_deadline(&self, deadline: Option<std::time::Instant>) {
        self.game.set_deadline(deadline);
    }
}

impl TwoPlayer for GdlTwoPlayer {
    fn to_move(&self, pos: &GdlPosition) -> Player {
        pos.to_move
    }

    fn result(&self, pos: &GdlPosition) -> Option<GameResult> {
        if self.turn(pos) != Turn::Over {
            return None;
        }
        let goals = self.game.with_slot(&pos.state, |slot| {
            let goals = slot.goals(self.game.rules, &pos.state)?;
            match goals.as_slice() {
                [Some(a), Some(b)] => Ok((*a, *b)),
                _ => {
                    let missing = goals.iter().position(Option::is_none).unwrap_or(0);
                    Err(format!(
                        "{} has no goal value in the terminal state {}; α-β needs goal values at terminal states",
                        self.role_name(missing as Role),
                        super::brief(&text::format_state(&pos.state, &self.game.machine().symbols))
                    ))
                }
            }
        });
        // A game that failed is over; the command reports the error.
        Some(match goals {
            Some((a, b)) if a > b => GameResult::Winner(0),
            Some((a, b)) if a < b => GameResult::Winner(1),
            _ => GameResult::Draw,
        })
    }
}

impl GpDomain for GdlTwoPlayer {
    fn domain(&self) -> &str {
        super::DOMAIN
    }

    fn features(&self) -> Vec<FeatureDef<GdlPosition>> {
        super::features::definitions(&self.game, |p: &GdlPosition| &p.state).0
    }

    fn natives(&self) -> Vec<NativeDef<GdlPosition>> {
        super::features::definitions(&self.game, |p: &GdlPosition| &p.state).1
    }

    /// The goal margin of [`GdlGame`]'s `material`.
    fn material(&self, pos: &GdlPosition, me: Player) -> f64 {
        self.game.goal_margin(&pos.state, me)
    }
}
