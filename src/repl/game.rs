//! The game a REPL session is looking at: a position with its history, and
//! evaluation of programs on it. Object-safe, so the session can hold any game.

use crate::diagnostic::Diagnostic;
use crate::eval::interp::Context;
use crate::games::domain::{Binding, GpDomain, PositionContext};
use crate::games::{ParseError, Role, Turn};
use crate::lang::PrimSet;

pub trait ReplGame {
    /// The domain its primsets declare.
    fn domain(&self) -> String;
    fn board(&self) -> String;
    fn position(&self) -> String;
    fn set_position(&mut self, text: &str) -> Result<(), ParseError>;
    /// The legal moves of the role to move, in the game's move text.
    fn moves(&self) -> Vec<String>;
    /// The moves of the other roles: in a turn of one role, those that still
    /// make a forced move (GDL's `noop`); in a simultaneous turn, every role.
    fn other_moves(&self) -> Vec<(String, Vec<String>)>;
    /// Plays a move given as text or as its number in `moves` (from 1), or,
    /// in a simultaneous turn, one move per role. Returns the move's text.
    fn play(&mut self, text: &str) -> Result<String, ParseError>;
    /// The error the game's engine met since the last call (a GDL prover
    /// past its budget), if any.
    fn take_error(&self) -> Option<String>;
    fn undo(&mut self) -> bool;
    fn reset(&mut self);
    /// "Black wins", "draw", ... once the game is over.
    fn result(&self) -> Option<String>;
    /// The player to move, as a name.
    fn to_move(&self) -> String;
    /// Runs `f` with a context for the current position (`child = None`) or
    /// for the position after legal move `child`, seen by the player to move
    /// now. `used` are the feature slots to fill.
    fn with_context(
        &self,
        ps: &PrimSet,
        used: &[u32],
        child: Option<usize>,
        f: &mut dyn FnMut(&mut dyn Context),
    ) -> Result<(), Vec<Diagnostic>>;
}

/// A game and a position with the moves that led to it.
pub struct Session<G: GpDomain> {
    pub game: G,
    pub history: Vec<G::State>,
}

impl<G: GpDomain> Session<G> {
    pub fn new(game: G) -> Session<G> {
        let start = game.initial_state();
        Session { game, history: vec![start] }
    }

    fn state(&self) -> &G::State {
        // The history always holds the start position.
        &self.history[self.history.len() - 1]
    }

    fn legal(&self) -> Vec<G::Move> {
        let mut moves = Vec::new();
        self.game.legal_moves(self.state(), &mut moves);
        moves
    }

    /// A role's name as a sentence starts it: `Black`.
    fn player_name(&self, role: Role) -> String {
        let name = self.game.role_name(role);
        let mut chars = name.chars();
        chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
    }

    /// The role whose view programs evaluate: the one to move, else the first.
    fn viewer(&self) -> Role {
        match self.game.turn(self.state()) {
            Turn::Role(r) => r,
            _ => 0,
        }
    }
}

impl<G: GpDomain + 'static> ReplGame for Session<G> {
    fn domain(&self) -> String {
        self.game.domain().to_owned()
    }

    fn board(&self) -> String {
        let mut out = self.game.render(self.state());
        if let Some(r) = self.result() {
            out.push_str(&format!("game over: {r}\n"));
        }
        out
    }

    fn position(&self) -> String {
        self.game.format_state(self.state())
    }

    fn set_position(&mut self, text: &str) -> Result<(), ParseError> {
        let state = self.game.parse_state(text)?;
        self.history = vec![state];
        Ok(())
    }

    fn moves(&self) -> Vec<String> {
        self.legal().iter().map(|m| self.game.format_move(self.state(), m)).collect()
    }

    fn other_moves(&self) -> Vec<(String, Vec<String>)> {
        let state = self.state();
        let mover = match self.game.turn(state) {
            Turn::Role(r) => Some(r),
            Turn::Simultaneous => None,
            Turn::Chance | Turn::Over => return Vec::new(),
        };
        let mut moves = Vec::new();
        (0..self.game.n_roles() as Role)
            .filter(|r| Some(*r) != mover)
            .filter_map(|r| {
                self.game.legal_moves_of(state, r, &mut moves);
                let texts: Vec<String> = moves.iter().map(|m| self.game.format_move(state, m)).collect();
                (!texts.is_empty()).then(|| (self.game.role_name(r).to_owned(), texts))
            })
            .collect()
    }

    fn play(&mut self, text: &str) -> Result<String, ParseError> {
        if self.game.turn(self.state()) == Turn::Simultaneous {
            let joint = self.game.parse_joint_move(self.state(), text)?;
            let shown: Vec<String> = joint.iter().map(|m| self.game.format_move(self.state(), m)).collect();
            let next = self.game.apply_joint(self.state(), &joint);
            self.history.push(next);
            return Ok(shown.join(" "));
        }
        let moves = self.legal();
        let mv = match text.parse::<usize>() {
            Ok(n) if (1..=moves.len()).contains(&n) => moves[n - 1].clone(),
            Ok(n) => {
                return Err(ParseError::new(format!("there is no move number {n}"), 0..text.len())
                    .with_help(format!("`:moves` lists {} legal move(s), numbered from 1", moves.len())));
            }
            Err(_) => self.game.parse_move(self.state(), text)?,
        };
        let shown = self.game.format_move(self.state(), &mv);
        let next = self.game.apply(self.state(), &mv);
        self.history.push(next);
        Ok(shown)
    }

    fn take_error(&self) -> Option<String> {
        self.game.take_error()
    }

    fn undo(&mut self) -> bool {
        if self.history.len() > 1 {
            self.history.pop();
            true
        } else {
            false
        }
    }

    fn reset(&mut self) {
        self.history = vec![self.game.initial_state()];
    }

    fn result(&self) -> Option<String> {
        let state = self.state();
        if !self.game.is_over(state) {
            return None;
        }
        let n = self.game.n_roles() as u8;
        let scores: Vec<u8> = (0..n).map(|r| self.game.score(state, r).unwrap_or(0)).collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        let winners: Vec<Role> = (0..n).filter(|&r| scores[usize::from(r)] == best).collect();
        Some(match winners.as_slice() {
            [w] if n == 2 => format!("{} wins", self.player_name(*w)),
            _ if n == 2 => "the game is drawn".to_owned(),
            _ => {
                let each: Vec<String> =
                    (0..n).map(|r| format!("{} {}", self.player_name(r), scores[usize::from(r)])).collect();
                format!("scores: {}", each.join(", "))
            }
        })
    }

    fn to_move(&self) -> String {
        match self.game.turn(self.state()) {
            Turn::Role(r) => self.player_name(r),
            Turn::Simultaneous => "every role".to_owned(),
            Turn::Chance => "chance".to_owned(),
            Turn::Over => "nobody".to_owned(),
        }
    }

    fn with_context(
        &self,
        ps: &PrimSet,
        used: &[u32],
        child: Option<usize>,
        f: &mut dyn FnMut(&mut dyn Context),
    ) -> Result<(), Vec<Diagnostic>> {
        let binding = Binding::new(&self.game, ps)?;
        let me = self.viewer();
        let state = match child {
            None => self.state().clone(),
            Some(i) => {
                let moves = self.legal();
                self.game.apply(self.state(), &moves[i])
            }
        };
        let mut ctx = PositionContext::new(&binding, &state, me, used);
        f(&mut ctx);
        Ok(())
    }
}
