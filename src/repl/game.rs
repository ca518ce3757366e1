//! The game a REPL session is looking at: a position with its history, and
//! evaluation of programs on it. Object-safe, so the session can hold any game.

use crate::diagnostic::Diagnostic;
use crate::eval::interp::Context;
use crate::games::domain::{Binding, GpDomain, PositionContext};
use crate::games::{ParseError, Player};
use crate::lang::PrimSet;

pub trait ReplGame {
    /// The domain its primsets declare.
    fn domain(&self) -> &'static str;
    fn board(&self) -> String;
    fn position(&self) -> String;
    fn set_position(&mut self, text: &str) -> Result<(), ParseError>;
    /// The legal moves in the game's move text.
    fn moves(&self) -> Vec<String>;
    /// Plays a move given as text or as its number in `moves` (from 1).
    /// Returns the move's text.
    fn play(&mut self, text: &str) -> Result<String, ParseError>;
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
    player_names: [&'static str; 2],
}

impl<G: GpDomain> Session<G> {
    pub fn new(game: G, player_names: [&'static str; 2]) -> Session<G> {
        let start = game.initial_state();
        Session { game, history: vec![start], player_names }
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

    fn player_name(&self, p: Player) -> String {
        self.player_names[p as usize & 1].to_owned()
    }
}

impl<G: GpDomain + 'static> ReplGame for Session<G> {
    fn domain(&self) -> &'static str {
        self.game.domain()
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

    fn play(&mut self, text: &str) -> Result<String, ParseError> {
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
        self.game.result(self.state()).map(|r| match r {
            crate::games::GameResult::Draw => "the game is drawn".to_owned(),
            crate::games::GameResult::Winner(p) => format!("{} wins", self.player_name(p)),
        })
    }

    fn to_move(&self) -> String {
        self.player_name(self.game.to_move(self.state()))
    }

    fn with_context(
        &self,
        ps: &PrimSet,
        used: &[u32],
        child: Option<usize>,
        f: &mut dyn FnMut(&mut dyn Context),
    ) -> Result<(), Vec<Diagnostic>> {
        let binding = Binding::new(&self.game, ps)?;
        let me = self.game.to_move(self.state());
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
