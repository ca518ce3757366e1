//! The game model: one core trait, [`Game`], that every engine implements,
//! and views by capability that searches ask for.
//!
//! The core covers what the papers' games need between them: n roles, scores
//! per role on GDL's 0–100 scale (win, draw and loss are 100, 50 and 0),
//! random initial states (a deal, a board drawn from a seed), chance events (a
//! chance role whose moves have probabilities) and simultaneous joint moves.
//! Who acts in a state is its [`Turn`].
//!
//! The views add what one kind of search needs and no more:
//! - [`TwoPlayer`]: two players alternating, zero sum, perfect information;
//!   what α-β, the match players and evolution by games need.
//! - `Puzzle` (`puzzle.rs`): one role, a goal test and step costs; what
//!   IDA* and staged deepening need.
//! - [`Observe`]: what a role sees, for games of imperfect information; GP
//!   features of such a game are computed from the observation only.
//!
//! The core is built for search speed: states are small values that are
//! copied and changed (`apply` returns the new state, no undo stack), legal
//! moves are written into a caller-owned `Vec` that is reused from node to
//! node, and "no legal moves" and "over" are the same thing, so a search needs
//! one call per node to know both.

use std::fmt::Debug;
use std::ops::{ControlFlow, Range};

use rand::{Rng, RngExt};

/// A role index, in the order [`Game::role_name`] lists them. In two-player
/// games role 0 moves first.
pub type Role = u8;

/// A player of a two-player game (a [`Role`] that is 0 or 1).
pub type Player = Role;

/// Scores on the GDL scale.
pub const WIN: u8 = 100;
pub const DRAW: u8 = 50;
pub const LOSS: u8 = 0;

/// How a playout on the clock ended ([`Game::random_playout_scores_until`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutEnd {
    /// Played to the end of the game.
    Over,
    /// Stopped after the most plies allowed, scored by the engine's judgement
    /// of the state reached.
    Cut,
    /// Given up at the deadline after this many plies; no scores.
    Late(u32),
}

/// Who acts in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// One role moves: its moves are [`Game::legal_moves`].
    Role(Role),
    /// Every role moves at once: each chooses from [`Game::legal_moves_of`],
    /// and [`Game::apply_joint`] plays them together.
    Simultaneous,
    /// Chance moves: [`Game::legal_moves`] lists the outcomes and
    /// [`Game::chance_weights`] their probabilities.
    Chance,
    /// The game is over: [`Game::score`] gives every role's score.
    Over,
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

/// A game: roles, states, moves, scores and the text formats of positions and
/// moves.
///
/// Invariant: `legal_moves` (and `legal_moves_of` for every role, in a
/// simultaneous turn) leaves the vector empty exactly when the turn is
/// [`Turn::Over`].
pub trait Game {
    /// A position, including who acts and any counters the rules need.
    type State: Clone + Debug;
    /// One move of one role (a whole multi-jump, a placement with its
    /// removal), or one outcome of a chance event.
    type Move: Clone + Eq + Debug;

    /// The name the CLI, the REPL and experiments use (`lose-checkers`).
    fn name(&self) -> &str;

    /// How many roles play (chance is not a role).
    fn n_roles(&self) -> usize;

    /// The name of `role` (`white`, `black`), as GDL files and records write it.
    fn role_name(&self, role: Role) -> &str;

    /// The standard initial state.
    fn initial_state(&self) -> Self::State;

    /// A random initial state: a deal or a board drawn from `rng`. Games with
    /// one fixed start return it.
    fn random_initial_state<R: Rng + ?Sized>(&self, rng: &mut R) -> Self::State {
        let _ = rng;
        self.initial_state()
    }

    /// Who acts in `state`.
    fn turn(&self, state: &Self::State) -> Turn;

    /// Clears `moves` and writes the moves of the role to act (or, in a
    /// chance turn, the outcomes); empty iff the game is over.
    fn legal_moves(&self, state: &Self::State, moves: &mut Vec<Self::Move>);

    /// Clears `moves` and writes the legal moves of `role`: all of them in a
    /// simultaneous turn, none when another role acts (or, in a game whose
    /// waiting roles still make a move, as GDL's `noop`, that one forced
    /// move: [`Game::apply`] plays it for them).
    fn legal_moves_of(&self, state: &Self::State, role: Role, moves: &mut Vec<Self::Move>) {
        match self.turn(state) {
            Turn::Role(r) if r == role => self.legal_moves(state, moves),
            _ => moves.clear(),
        }
    }

    /// The state after `mv`, one of `legal_moves(state)`.
    fn apply(&self, state: &Self::State, mv: &Self::Move) -> Self::State;

    /// The state after a joint move, one move per role in role order, in a
    /// simultaneous turn. Games that never have one play the acting role's
    /// move of `joint`.
    fn apply_joint(&self, state: &Self::State, joint: &[Self::Move]) -> Self::State {
        match self.turn(state) {
            Turn::Role(r) => joint.get(usize::from(r)).map_or_else(|| state.clone(), |mv| self.apply(state, mv)),
            _ => state.clone(),
        }
    }

    /// The probabilities of chance outcomes `moves` (what `legal_moves`
    /// listed in a chance turn), written into `weights`; they need not sum
    /// to 1. Uniform unless the game says otherwise.
    fn chance_weights(&self, state: &Self::State, moves: &[Self::Move], weights: &mut Vec<f64>) {
        let _ = state;
        weights.clear();
        weights.resize(moves.len(), 1.0);
    }

    /// A random move of the acting role (or a chance outcome drawn with its
    /// probability), or `None` when the game is over or every role moves at
    /// once. Every legal move has a positive chance; a role's moves are drawn
    /// uniformly from `legal_moves` (written into `scratch`) unless the game
    /// draws differently, and faster, and says so (Morris draws as
    /// OpenSpiel's random player does).
    fn random_move<R: Rng + ?Sized>(
        &self,
        state: &Self::State,
        rng: &mut R,
        scratch: &mut Vec<Self::Move>,
    ) -> Option<Self::Move> {
        let turn = self.turn(state);
        if !matches!(turn, Turn::Role(_) | Turn::Chance) {
            return None;
        }
        self.legal_moves(state, scratch);
        if scratch.is_empty() {
            return None;
        }
        let index = if turn == Turn::Chance {
            let mut weights = Vec::with_capacity(scratch.len());
            self.chance_weights(state, scratch, &mut weights);
            weighted_index(&weights, rng.random::<f64>())
        } else {
            rng.random_range(0..scratch.len())
        };
        scratch.get(index).cloned()
    }

    /// Every role's score (0–100, in role order) at the end of a game
    /// played on from `state` with uniformly random moves (chance outcomes
    /// drawn by their weights), written into `scores`: what Monte Carlo
    /// players sample (UCT in `search::uct`). Engines that play faster on
    /// a representation of their own (a compiled GDL game, on bit sets)
    /// override it; the result must be a game of this distribution.
    fn random_playout_scores<R: Rng>(&self, state: &Self::State, rng: &mut R, scores: &mut Vec<u8>)
    where
        Self: Sized,
    {
        let end = super::playout::random_joint_playout(self, state, rng);
        scores.clear();
        scores.extend(end.scores);
    }

    /// [`Game::random_playout_scores`] within a deadline and, where the
    /// engine can score a state before the end, `max_plies` moves. Late
    /// (`scores` untouched) when `deadline` passes before the game ends (a
    /// search on the clock keeps its answer in time on engines that take
    /// milliseconds a state); cut when the game is stopped after `max_plies`
    /// and scored as the engine judges the state it reached (GDL: its goal
    /// values). Engines whose playouts take microseconds may ignore both.
    fn random_playout_scores_until<R: Rng>(
        &self,
        state: &Self::State,
        rng: &mut R,
        scores: &mut Vec<u8>,
        deadline: std::time::Instant,
        _max_plies: u32,
    ) -> PlayoutEnd
    where
        Self: Sized,
    {
        match super::playout::random_joint_playout_within(self, state, rng, Some(deadline), u32::MAX) {
            Ok(end) => {
                scores.clear();
                scores.extend(end.scores);
                PlayoutEnd::Over
            }
            Err(plies) => PlayoutEnd::Late(plies),
        }
    }

    /// The score of `role` (0–100) once the game is over; `None` before.
    fn score(&self, state: &Self::State, role: Role) -> Option<u8>;

    fn is_over(&self, state: &Self::State) -> bool {
        self.turn(state) == Turn::Over
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

    /// Reads a joint move of a simultaneous turn: one move per role, in role
    /// order, separated by white space, each one of [`Game::legal_moves_of`]
    /// that role as [`Game::format_move`] writes it. Games whose move text
    /// holds spaces read it their own way.
    fn parse_joint_move(&self, state: &Self::State, text: &str) -> Result<Vec<Self::Move>, ParseError> {
        let mut joint = Vec::with_capacity(self.n_roles());
        let mut legal = Vec::new();
        let mut words = text.split_whitespace().map(|w| {
            let start = w.as_ptr() as usize - text.as_ptr() as usize;
            (w, start..start + w.len())
        });
        for role in 0..self.n_roles() {
            let name = self.role_name(role as Role);
            let Some((word, span)) = words.next() else {
                return Err(ParseError::new(format!("no move for {name}"), text.len()..text.len())
                    .with_help(format!("give one move per role, in role order ({} roles)", self.n_roles())));
            };
            self.legal_moves_of(state, role as Role, &mut legal);
            match legal.iter().find(|m| self.format_move(state, m) == word) {
                Some(mv) => joint.push(mv.clone()),
                None => return Err(ParseError::new(format!("`{word}` is not a legal move of {name}"), span)),
            }
        }
        if let Some((_, span)) = words.next() {
            return Err(ParseError::new("more moves than roles", span.start..text.len()));
        }
        Ok(joint)
    }

    /// The first error of an engine that can fail, since the last call, and
    /// forgets it. A game interpreted from rules (GDL) can run past a limit
    /// of its reasoner or meet rules that break the model (a role without a
    /// legal move in a state that is not terminal); it then treats that state
    /// as over, every role scoring 0, and the command that ran it reports the
    /// error found here instead of a result. Native engines never fail.
    fn take_error(&self) -> Option<String> {
        None
    }

    /// Asks the engine to give up reasoning still running at `deadline`
    /// (`None`: no limit), recording an error as [`Game::take_error`]
    /// reports: a search on the clock then drops what it was doing. Engines
    /// that answer in microseconds ignore it (the default).
    fn set_deadline(&self, _deadline: Option<std::time::Instant>) {}
}

/// The index that `u` (uniform in [0, 1)) falls on when `weights` are laid
/// end to end; the last positive weight when rounding runs past the end.
fn weighted_index(weights: &[f64], u: f64) -> usize {
    let total: f64 = weights.iter().filter(|w| **w > 0.0).sum();
    let mut target = u * total;
    let mut last = 0;
    for (i, &w) in weights.iter().enumerate() {
        if w > 0.0 {
            if target < w {
                return i;
            }
            target -= w;
            last = i;
        }
    }
    last
}

/// The final result of a two-player game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Winner(Player),
    Draw,
}

/// The result of a two-player game from one player's point of view.
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

    /// `player`'s score on the GDL scale.
    pub fn score_for(self, player: Player) -> u8 {
        match self.outcome_for(player) {
            Outcome::Win => WIN,
            Outcome::Draw => DRAW,
            Outcome::Loss => LOSS,
        }
    }
}

/// Two players alternating, zero sum, perfect information: the view α-β
/// search, the match players and evolution by games need.
///
/// Invariants: `n_roles` is 2; `turn` is `Role(to_move)` while the game goes
/// on and `Over` once `result` is `Some`; `score` is 100/50/0 for a
/// win/draw/loss. [`alternating_turn`] and [`zero_sum_score`] implement the
/// core's methods from this view.
pub trait TwoPlayer: Game {
    /// The player whose turn it is.
    fn to_move(&self, state: &Self::State) -> Player;

    /// `None` while the game goes on; the result once it is over.
    fn result(&self, state: &Self::State) -> Option<GameResult>;

    /// How `player` fared, once the game is over.
    fn outcome(&self, state: &Self::State, player: Player) -> Option<Outcome> {
        self.result(state).map(|r| r.outcome_for(player))
    }

    /// [`TwoPlayer::result`], and while the game goes on its legal moves,
    /// written into `moves` (cleared first): what a search asks of every
    /// node it expands. A game whose end test finds the moves anyway
    /// (checkers: the side without moves decides the game) answers both
    /// with one move generation.
    fn result_or_moves(&self, state: &Self::State, moves: &mut Vec<Self::Move>) -> Option<GameResult> {
        moves.clear();
        let result = self.result(state);
        if result.is_none() {
            self.legal_moves(state, moves);
        }
        result
    }

    /// `state` encoded exactly in fewer than 120 bits (equal keys, equal
    /// states), for caches of position values; `None` for a game without
    /// such an encoding (no cache).
    fn position_key(&self, _state: &Self::State) -> Option<u128> {
        None
    }

    /// [`TwoPlayer::result_or_moves`] for a node whose children are valued,
    /// not expanded (the last ply of a search): the result if the game is
    /// over, else `visit` called on each child in the order of the legal
    /// moves until it says stop. `moves` is scratch space. Checkers visits
    /// its steps straight off the bitboards, without writing a move list.
    fn result_or_children<F>(
        &self,
        state: &Self::State,
        moves: &mut Vec<Self::Move>,
        mut visit: F,
    ) -> Option<GameResult>
    where
        Self: Sized,
        F: FnMut(&Self::State) -> ControlFlow<()>,
    {
        let result = self.result_or_moves(state, moves);
        if result.is_none() {
            for m in moves.iter() {
                if visit(&self.apply(state, m)).is_break() {
                    break;
                }
            }
        }
        result
    }
}

/// [`Game::turn`] of a two-player game.
pub fn alternating_turn<G: TwoPlayer>(game: &G, state: &G::State) -> Turn {
    if game.result(state).is_some() { Turn::Over } else { Turn::Role(game.to_move(state)) }
}

/// [`Game::score`] of a two-player game.
pub fn zero_sum_score<G: TwoPlayer>(game: &G, state: &G::State, role: Role) -> Option<u8> {
    game.result(state).map(|r| r.score_for(role))
}

/// What a role sees of a state, for games of imperfect information (an ant
/// sees a window of the board around it).
pub trait Observe: Game {
    type Observation;

    fn observe(&self, state: &Self::State, role: Role) -> Self::Observation;
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    /// Matching pennies over three rounds: both roles show heads or tails at
    /// once; role 0 scores a point when they match. Simultaneous moves, two
    /// roles, scores on 0–100.
    struct Pennies;

    #[derive(Clone, Debug, PartialEq)]
    struct Round {
        played: u8,
        matched: u8,
    }

    impl Game for Pennies {
        type State = Round;
        type Move = bool;

        fn name(&self) -> &str {
            "pennies"
        }
        fn n_roles(&self) -> usize {
            2
        }
        fn role_name(&self, role: Role) -> &str {
            if role == 0 { "matcher" } else { "mismatcher" }
        }
        fn initial_state(&self) -> Round {
            Round { played: 0, matched: 0 }
        }
        fn turn(&self, state: &Round) -> Turn {
            if state.played == 3 { Turn::Over } else { Turn::Simultaneous }
        }
        fn legal_moves(&self, _: &Round, moves: &mut Vec<bool>) {
            moves.clear();
        }
        fn legal_moves_of(&self, state: &Round, _: Role, moves: &mut Vec<bool>) {
            moves.clear();
            if state.played < 3 {
                moves.extend([false, true]);
            }
        }
        fn apply(&self, state: &Round, _: &bool) -> Round {
            state.clone()
        }
        fn apply_joint(&self, state: &Round, joint: &[bool]) -> Round {
            let matched = u8::from(joint.first() == joint.get(1));
            Round { played: state.played + 1, matched: state.matched + matched }
        }
        fn score(&self, state: &Round, role: Role) -> Option<u8> {
            let share = (u32::from(state.matched) * 100 / 3) as u8;
            (state.played == 3).then_some(if role == 0 { share } else { 100 - share })
        }
        fn parse_state(&self, text: &str) -> Result<Round, ParseError> {
            Err(ParseError::new("no text format", 0..text.len()))
        }
        fn format_state(&self, state: &Round) -> String {
            format!("{state:?}")
        }
        fn parse_move(&self, _: &Round, text: &str) -> Result<bool, ParseError> {
            Err(ParseError::new("no text format", 0..text.len()))
        }
        fn format_move(&self, _: &Round, mv: &bool) -> String {
            mv.to_string()
        }
    }

    /// A die is rolled (1 weighted 5, 2 weighted 1); the one role then keeps
    /// or doubles it; 100 points for reaching 2 or more.
    struct LoadedDie;

    impl Game for LoadedDie {
        type State = (u8, bool);
        type Move = u8;

        fn name(&self) -> &str {
            "loaded-die"
        }
        fn n_roles(&self) -> usize {
            1
        }
        fn role_name(&self, _: Role) -> &str {
            "player"
        }
        fn initial_state(&self) -> (u8, bool) {
            (0, false)
        }
        fn turn(&self, &(die, done): &(u8, bool)) -> Turn {
            match (die, done) {
                (0, _) => Turn::Chance,
                (_, false) => Turn::Role(0),
                _ => Turn::Over,
            }
        }
        fn legal_moves(&self, state: &(u8, bool), moves: &mut Vec<u8>) {
            moves.clear();
            match self.turn(state) {
                Turn::Chance => moves.extend([1, 2]),
                Turn::Role(_) => moves.extend([1, 2]),
                _ => {}
            }
        }
        fn chance_weights(&self, _: &(u8, bool), moves: &[u8], weights: &mut Vec<f64>) {
            weights.clear();
            weights.extend(moves.iter().map(|&m| if m == 1 { 5.0 } else { 1.0 }));
        }
        fn apply(&self, &(die, _): &(u8, bool), mv: &u8) -> (u8, bool) {
            if die == 0 { (*mv, false) } else { (die * mv, true) }
        }
        fn score(&self, state: &(u8, bool), _: Role) -> Option<u8> {
            (self.turn(state) == Turn::Over).then_some(if state.0 >= 2 { WIN } else { LOSS })
        }
        fn parse_state(&self, text: &str) -> Result<(u8, bool), ParseError> {
            Err(ParseError::new("no text format", 0..text.len()))
        }
        fn format_state(&self, state: &(u8, bool)) -> String {
            format!("{state:?}")
        }
        fn parse_move(&self, _: &(u8, bool), text: &str) -> Result<u8, ParseError> {
            Err(ParseError::new("no text format", 0..text.len()))
        }
        fn format_move(&self, _: &(u8, bool), mv: &u8) -> String {
            mv.to_string()
        }
    }

    #[test]
    fn simultaneous_games_play_joint_moves_and_score_every_role() {
        let game = Pennies;
        let mut rng = SmallRng::seed_from_u64(7);
        let end = crate::games::playout::random_joint_playout(&game, &game.initial_state(), &mut rng);
        assert_eq!(end.state.played, 3);
        let scores = end.scores;
        assert_eq!(scores.len(), 2);
        assert_eq!(u32::from(scores[0]) + u32::from(scores[1]), 100, "zero sum on the 0–100 scale");
        assert!(game.random_move(&game.initial_state(), &mut rng, &mut Vec::new()).is_none(), "nobody moves alone");
    }

    #[test]
    fn chance_outcomes_follow_their_weights() {
        let game = LoadedDie;
        let mut rng = SmallRng::seed_from_u64(1);
        let mut ones = 0;
        for _ in 0..6000 {
            let roll = game.random_move(&game.initial_state(), &mut rng, &mut Vec::new());
            ones += u32::from(roll == Some(1));
        }
        assert!((4700..5300).contains(&ones), "weight 5 of 6 gave {ones} ones in 6000");
        let end = crate::games::playout::random_joint_playout(&game, &game.initial_state(), &mut rng);
        assert_eq!(end.scores.len(), 1);
    }

    #[test]
    fn weighted_index_skips_zero_weights_and_absorbs_rounding() {
        assert_eq!(weighted_index(&[0.0, 1.0, 0.0], 0.0), 1);
        assert_eq!(weighted_index(&[1.0, 1.0], 0.999_999_999), 1);
        assert_eq!(weighted_index(&[1.0, 3.0], 0.3), 1);
        assert_eq!(weighted_index(&[1.0, 3.0, 0.0], 1.0), 1);
    }
}
