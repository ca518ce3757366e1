//! Games: the [`Game`] trait that searches, players and the CLI are generic
//! over, and the native engines that implement it (lose checkers, Nine Men's
//! Morris). GDL games are meant to implement the same trait later.
//!
//! The trait is built for α-β search and random playouts: states are small
//! values that are copied and changed (`apply` returns the new state, no undo
//! stack), legal moves are written into a caller-owned `Vec` that is reused
//! from node to node, and "no legal moves" and "terminal" are the same thing
//! (a terminal state has no legal moves, and every state without legal moves
//! is terminal), so a search needs one call per node to know both.
//!
//! Text formats for positions and moves are part of the trait: parsing never
//! panics and reports a [`ParseError`] with a byte range into the text, which
//! the CLI turns into a miette diagnostic.

pub mod checkers;
pub mod domain;
pub mod morris;
pub mod playout;

use std::fmt::Debug;

use rand::{Rng, RngExt};
use std::ops::Range;

/// A player index: 0 moves first, 1 second.
pub type Player = u8;

/// The native games, by the names the CLI, the REPL and experiments use.
pub const GAMES: [&str; 3] = ["lose-checkers", "morris", "morris-no-flying"];

/// The final result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Winner(Player),
    Draw,
}

/// The result of a game from one player's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

impl GameResult {
    /// How `player` fared.
    pub fn outcome_for(self, player: Player) -> Outcome {
        match self {
            GameResult::Draw => Outcome::Draw,
            GameResult::Winner(w) if w == player => Outcome::Win,
            GameResult::Winner(_) => Outcome::Loss,
        }
    }
}

/// A problem in position or move text: a message, the byte range of the text
/// it is about, and optional help.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub message: String,
    pub span: Range<usize>,
    pub help: Option<String>,
}

impl ParseError {
    pub fn new(message: impl Into<String>, span: Range<usize>) -> ParseError {
        ParseError { message: message.into(), span, help: None }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> ParseError {
        self.help = Some(help.into());
        self
    }
}

impl ParseError {
    /// The error as a diagnostic over `text`, which is registered in a new
    /// [`Sources`](crate::diagnostic::Sources) under the name `<name>`
    /// (positions and moves are typed on a command line or in the REPL).
    pub fn diagnose(
        self,
        code: &'static str,
        name: &str,
        text: &str,
    ) -> (crate::diagnostic::Sources, crate::diagnostic::Diagnostic) {
        let mut sources = crate::diagnostic::Sources::new();
        let file = sources.add(format!("<{name}>"), None, text.to_owned());
        let span = self.span.start.min(text.len())..self.span.end.min(text.len());
        let mut d = crate::diagnostic::Diagnostic::error(code, self.message).at(file, span.into(), "here");
        if let Some(help) = self.help {
            d = d.with_help(help);
        }
        (sources, d)
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (bytes {}..{})", self.message, self.span.start, self.span.end)
    }
}

impl std::error::Error for ParseError {}

/// A two-player, deterministic, perfect-information game.
///
/// Invariant: `legal_moves` leaves the vector empty exactly when `result`
/// is `Some`.
pub trait Game {
    /// A position, including whose turn it is and any counters the rules need.
    type State: Clone + Debug;
    /// One turn of a player (a whole multi-jump, a placement with its removal).
    type Move: Clone + Eq + Debug;

    /// The name the CLI uses (`lose-checkers`, `morris`).
    fn name(&self) -> &'static str;

    fn initial_state(&self) -> Self::State;

    /// The player whose turn it is.
    fn to_move(&self, state: &Self::State) -> Player;

    /// Clears `moves` and writes the legal moves of `state` into it; empty
    /// iff the state is terminal.
    fn legal_moves(&self, state: &Self::State, moves: &mut Vec<Self::Move>);

    /// A random legal move, or `None` when the game is over: the random
    /// player and playouts use it. Every legal move has a positive chance;
    /// the default draws uniformly from `legal_moves` (written into
    /// `scratch`), and a game may draw differently, and faster, if it says so
    /// (Morris draws as OpenSpiel's random player does).
    fn random_move<R: Rng + ?Sized>(
        &self,
        state: &Self::State,
        rng: &mut R,
        scratch: &mut Vec<Self::Move>,
    ) -> Option<Self::Move> {
        self.legal_moves(state, scratch);
        if scratch.is_empty() { None } else { Some(scratch[rng.random_range(0..scratch.len())].clone()) }
    }

    /// The state after `mv`, which must be one of `legal_moves(state)`.
    fn apply(&self, state: &Self::State, mv: &Self::Move) -> Self::State;

    /// `None` while the game goes on; the result once it is over.
    fn result(&self, state: &Self::State) -> Option<GameResult>;

    fn is_terminal(&self, state: &Self::State) -> bool {
        self.result(state).is_some()
    }

    /// How `player` fared, once the game is over.
    fn outcome(&self, state: &Self::State, player: Player) -> Option<Outcome> {
        self.result(state).map(|r| r.outcome_for(player))
    }

    /// Reads a position in the game's text format.
    fn parse_state(&self, text: &str) -> Result<Self::State, ParseError>;

    /// Writes a position in the text format `parse_state` reads.
    fn format_state(&self, state: &Self::State) -> String;

    /// A picture of the position for people (the REPL's `:board`).
    fn render(&self, state: &Self::State) -> String {
        format!("{}\n", self.format_state(state))
    }

    /// Reads a move in the game's text format and returns the legal move of
    /// `state` it names.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, ParseError>;

    /// Writes a legal move of `state` in the text format `parse_move` reads.
    fn format_move(&self, state: &Self::State, mv: &Self::Move) -> String;
}

/// Iterates the set bits of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u32);

impl Iterator for Bits {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(bit)
    }
}

/// Counts the leaves of the game tree at exactly `depth` plies from `state`
/// (one ply = one [`Game::Move`]); terminal states before that depth count 0.
pub fn perft<G: Game>(game: &G, state: &G::State, depth: u32) -> u64 {
    let mut stack: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    perft_rec(game, state, depth, &mut stack)
}

fn perft_rec<G: Game>(game: &G, state: &G::State, depth: u32, stack: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((moves, rest)) = stack.split_first_mut() else {
        return 1;
    };
    game.legal_moves(state, moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for mv in moves.iter() {
        nodes += perft_rec(game, &game.apply(state, mv), depth - 1, rest);
    }
    nodes
}
