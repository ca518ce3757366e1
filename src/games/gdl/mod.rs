//! GDL games as games of the model: a [`GdlGame`] answers the core
//! [`Game`] over a compiled [`Machine`], and [`GdlTwoPlayer`] is its
//! [`TwoPlayer`](crate::games::TwoPlayer) view for two-player alternating
//! games (α-β, `play` with searching players).
//!
//! Roles are the file's, in the order it declares them; states are the
//! prover's [`State`]s (sorted fluents); moves are ground [`Term`]s. Whose
//! turn it is comes from the legal moves, by GDL's `noop` convention:
//!
//! - a terminal state is [`Turn::Over`];
//! - when exactly one role has more than one legal move and every other role
//!   has exactly one (its `noop`, whatever the game calls it), that role
//!   acts: [`Turn::Role`], and [`Game::apply`] plays its move with the
//!   others' forced ones; a game of one role is always its turn;
//! - otherwise every role chooses at once: [`Turn::Simultaneous`], played
//!   with [`Game::apply_joint`] (a state where every role has a single legal
//!   move is such a turn too, with one joint move).
//!
//! Scores are goal values clamped to 0–100; a role without exactly one goal
//! value in a terminal state (GGP-Base's rule) scores 0.
//!
//! The prover answers one state at a time through a [`Reasoner`], whose
//! tables are worth keeping: a game keeps a small pool of them, each with the
//! answers (terminal, legal moves, goals) for the state it holds, so that the
//! calls a search makes on one state (`turn`, `legal_moves`, `apply`,
//! `score`) reason once. Threads take a reasoner from the pool and give it
//! back, so a game is shared between threads without holding a lock while
//! it reasons.
//!
//! The prover can fail (a state that derives more facts than its budget),
//! and a description can break the model (a role without a legal move in a
//! state that is not terminal). The game then records the first error, from
//! then on reports every state as over (so every loop that plays it ends),
//! and [`Game::take_error`] hands the error to the command, which reports it
//! instead of a result.

mod alternating;
pub mod features;
pub mod text;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rand::{Rng, RngExt};

pub use alternating::{GdlPosition, GdlTwoPlayer};

use super::domain::{FeatureDef, GpDomain, NativeDef};
use super::{Game, ParseError, Player, Role, Turn};
use crate::diagnostic::{Diagnostic, FileId, Sources};
use crate::gdl::playouts::MAX_PLAYOUT_STEPS;
use crate::gdl::term::Term;
use crate::gdl::{Machine, Reasoner, State};

/// The domain of every GDL game: the terminals and natives of the `gdl`
/// primset ([`features`]), computed for each game from its rules.
pub const DOMAIN: &str = "gdl";

/// Reasoners kept for reuse, at most (one per thread is what a game needs).
const POOL: usize = 64;

/// A GDL game compiled once, with what the registry shows of it. It lives as
/// long as the process, like the built-in games: the registry keeps one per
/// file it loaded.
#[derive(Debug)]
pub struct GdlRules {
    machine: Machine,
    name: String,
    roles: Vec<String>,
    /// The file the rules were read from, for the warnings.
    pub sources: Sources,
    /// The description as read, so the registry can tell a changed file.
    pub text: Arc<str>,
    /// Rules the prover leaves out, and other warnings of the compiler.
    pub warnings: Vec<Diagnostic>,
    /// Two roles, and one of them alone has a choice in the initial state.
    alternating: bool,
}

impl GdlRules {
    /// Which engine reasons over the game, and why (the machine's note).
    pub fn engine_note(&self) -> &str {
        &self.machine.engine_note
    }

    /// The engine that reasons over the game: `compiled` or `prover`.
    pub fn engine_name(&self) -> &'static str {
        self.machine.engine().name()
    }

    /// Compiles file `file` of `sources` as the game named `name` (the path
    /// as the user wrote it). Errors come with the sources they point into.
    pub fn compile(name: &str, sources: Sources, file: FileId) -> Result<GdlRules, (Sources, Vec<Diagnostic>)> {
        GdlRules::compile_with(name, sources, file, crate::gdl::EngineChoice::Auto)
    }

    /// [`GdlRules::compile`] with the engine chosen (`ggp serve --engine`).
    pub fn compile_with(
        name: &str,
        sources: Sources,
        file: FileId,
        engine: crate::gdl::EngineChoice,
    ) -> Result<GdlRules, (Sources, Vec<Diagnostic>)> {
        let text = sources.get(file).text.clone();
        // Games run where GGP-Base's prover runs them, as `gdl perft` does.
        let (machine, warnings) = match crate::gdl::compile(file, &text, crate::gdl::Validation::Lenient, engine) {
            Ok(compiled) => compiled,
            Err(diags) => return Err((sources, diags)),
        };
        let roles = machine.role_names();
        if roles.len() > usize::from(Role::MAX) {
            let message = format!("`{name}` declares {} roles; games have at most {}", roles.len(), Role::MAX);
            return Err((sources, vec![Diagnostic::error("stratagem::gdl::roles", message)]));
        }
        let alternating = match initial_turn(&machine) {
            Ok(turn) => roles.len() == 2 && matches!(turn, Turn::Role(_)),
            Err(e) => {
                let message = format!("`{name}`: the initial state cannot be reasoned about: {e}");
                return Err((sources, vec![Diagnostic::error("stratagem::gdl::prover", message)]));
            }
        };
        Ok(GdlRules { machine, name: name.to_owned(), roles, sources, text, warnings, alternating })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn roles(&self) -> &[String] {
        &self.roles
    }

    /// Whether the game can be played as a two-player alternating game: two
    /// roles, and in the initial state one of them alone has a choice. Play
    /// checks every later state ([`GdlTwoPlayer`]).
    pub fn is_alternating(&self) -> bool {
        self.alternating
    }
}

/// The turn of the initial state.
fn initial_turn(machine: &Machine) -> Result<Turn, String> {
    let mut reasoner = machine.reasoner();
    reasoner.load(machine.initial_state());
    if reasoner.is_terminal().map_err(|e| e.0)? {
        return Ok(Turn::Over);
    }
    let legal = reasoner.legal_moves().map_err(|e| e.0)?;
    Ok(turn_of(&legal))
}

/// The turn of a state that is not terminal, from each role's legal moves
/// (every role has at least one): the rule of the module's documentation.
fn turn_of(legal: &[Vec<Term>]) -> Turn {
    let mut choosers = legal.iter().enumerate().filter(|(_, moves)| moves.len() > 1).map(|(r, _)| r);
    match (choosers.next(), choosers.next()) {
        (Some(r), None) => Turn::Role(r as Role),
        (None, _) if legal.len() == 1 => Turn::Role(0),
        _ => Turn::Simultaneous,
    }
}

/// What the prover said about one state.
struct Facts {
    state: State,
    turn: Turn,
    /// Each role's legal moves (none in a terminal state).
    legal: Vec<Vec<Term>>,
    /// Each role's goal value, once asked.
    goals: Option<Vec<Option<u32>>>,
}

/// A reasoner and the answers for the state it holds.
struct Slot {
    reasoner: Reasoner<'static>,
    facts: Option<Facts>,
}

impl Slot {
    /// The answers for `state`, reasoned now unless the slot holds them.
    fn facts(&mut self, rules: &GdlRules, state: &State) -> Result<&mut Facts, String> {
        if !self.facts.as_ref().is_some_and(|f| f.state == *state) {
            self.facts = None;
            self.reasoner.load(state);
            let terminal = self.reasoner.is_terminal().map_err(|e| e.0)?;
            let (turn, legal) = if terminal {
                (Turn::Over, Vec::new())
            } else {
                // Moves in canonical text order whichever engine answers
                // (each derives them in its own), so a seed plays the same
                // game on both, and users see them sorted.
                let legal = self.reasoner.legal_moves_sorted().map_err(|e| e.0)?;
                if let Some(r) = legal.iter().position(Vec::is_empty) {
                    return Err(format!(
                        "role {} has no legal move in a state that is not terminal: {}",
                        rules.roles.get(r).map_or("?", String::as_str),
                        brief(&text::format_state(state, &rules.machine.symbols))
                    ));
                }
                (turn_of(&legal), legal)
            };
            self.facts = Some(Facts { state: state.clone(), turn, legal, goals: None });
        }
        self.facts.as_mut().ok_or_else(|| "the prover's answers went missing".to_owned())
    }

    /// Each role's goal value in `state`.
    fn goals(&mut self, rules: &GdlRules, state: &State) -> Result<Vec<Option<u32>>, String> {
        if let Some(goals) = &self.facts(rules, state)?.goals {
            return Ok(goals.clone());
        }
        let goals = self.reasoner.goals().map_err(|e| e.0)?;
        if let Some(facts) = self.facts.as_mut() {
            facts.goals = Some(goals.clone());
        }
        Ok(goals)
    }

    /// The state after `joint` from `state`.
    fn next(&mut self, rules: &GdlRules, state: &State, joint: &[Term]) -> Result<State, String> {
        self.facts(rules, state)?;
        self.reasoner.next_state(joint).map_err(|e| e.0)
    }
}

/// Long states are cut in messages.
fn brief(text: &str) -> String {
    const MAX: usize = 300;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{} ...", &text[..at]),
        None => text.to_owned(),
    }
}

/// A GDL game of the model (see the module's documentation).
pub struct GdlGame {
    rules: &'static GdlRules,
    pool: Mutex<Vec<Slot>>,
    /// Set with the first error; every state is over until it is taken.
    failed: AtomicBool,
    error: Mutex<Option<String>>,
    /// When the prover gives up ([`Game::set_deadline`]).
    deadline: Mutex<Option<std::time::Instant>>,
}

impl GdlGame {
    pub fn new(rules: &'static GdlRules) -> GdlGame {
        GdlGame {
            rules,
            pool: Mutex::new(Vec::new()),
            failed: AtomicBool::new(false),
            error: Mutex::new(None),
            deadline: Mutex::new(None),
        }
    }

    pub fn rules(&self) -> &'static GdlRules {
        self.rules
    }

    fn machine(&self) -> &'static Machine {
        &self.rules.machine
    }

    /// Runs `f` on a reasoner from the pool, one holding `state` if there is
    /// one. An error is recorded (and the reasoner, whose tables it left
    /// half done, dropped); `None` then, and once the game has failed.
    fn with_slot<R>(&self, state: &State, f: impl FnOnce(&mut Slot) -> Result<R, String>) -> Option<R> {
        if self.failed.load(Ordering::Relaxed) {
            return None;
        }
        let taken = {
            let mut pool = self.pool.lock().unwrap_or_else(PoisonError::into_inner);
            let at = pool.iter().rposition(|s| s.facts.as_ref().is_some_and(|f| f.state == *state));
            match at {
                Some(i) => Some(pool.swap_remove(i)),
                None => pool.pop(),
            }
        };
        let mut slot = taken.unwrap_or_else(|| Slot { reasoner: self.machine().reasoner(), facts: None });
        slot.reasoner.set_deadline(*self.deadline.lock().unwrap_or_else(PoisonError::into_inner));
        match f(&mut slot) {
            Ok(r) => {
                let mut pool = self.pool.lock().unwrap_or_else(PoisonError::into_inner);
                if pool.len() < POOL {
                    pool.push(slot);
                }
                Some(r)
            }
            Err(e) => {
                self.fail(e);
                None
            }
        }
    }

    /// Runs `f` on the answers for `state`.
    fn with_facts<R>(&self, state: &State, f: impl FnOnce(&Facts) -> Result<R, String>) -> Option<R> {
        self.with_slot(state, |slot| f(slot.facts(self.rules, state)?))
    }

    /// Records `error` unless one is already waiting.
    fn fail(&self, error: String) {
        let mut slot = self.error.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(format!("{}: {error}", self.rules.name));
        }
        self.failed.store(true, Ordering::Relaxed);
    }

    /// Each role's goal value in `state` (terminal or not).
    fn goals(&self, state: &State) -> Option<Vec<Option<u32>>> {
        self.with_slot(state, |slot| slot.goals(self.rules, state))
    }

    /// The state after the acting role's `mv`, the other roles playing their
    /// one legal move.
    fn apply_mover(&self, state: &State, mover: Role, mv: &Term) -> Option<State> {
        self.with_slot(state, |slot| {
            let facts = slot.facts(self.rules, state)?;
            let joint = forced_joint(self.rules, &facts.legal, mover, mv)?;
            slot.next(self.rules, state, &joint)
        })
    }

    /// The goal values at the end of a uniformly random game from `state`,
    /// played on the compiled engine's bits; `None` without a compiled
    /// engine for this state.
    fn compiled_playout<R: Rng>(&self, state: &State, rng: &mut R) -> Option<Vec<Option<u32>>> {
        let game = self.machine().compiled()?;
        let bits = game.bits_of(state)?;
        let n = self.n_roles();
        self.with_slot(state, |slot| {
            // The playout moves the reasoner off the state whose answers the
            // slot keeps.
            slot.facts = None;
            let Some(net) = slot.reasoner.net() else { return Ok(None) };
            net.load(&bits);
            let mut legal = Vec::new();
            let mut choices = vec![0u32; n];
            for _ in 0..MAX_PLAYOUT_STEPS {
                if net.is_terminal() {
                    break;
                }
                let mut stuck = false;
                for (r, choice) in choices.iter_mut().enumerate() {
                    net.legal_indices(r, &mut legal);
                    if legal.is_empty() {
                        stuck = true;
                        break;
                    }
                    *choice = legal[rng.random_range(0..legal.len())];
                }
                if stuck {
                    // A role without a legal move (a flaw of some rules, as
                    // in 3pttc): the random game ends there, with the goals
                    // that hold, rather than failing the game for a state
                    // no real match may ever reach.
                    break;
                }
                net.play(&choices);
            }
            Ok(Some(net.goals().map_err(|e| e.0)?))
        })
        .flatten()
    }

    /// `mover`'s goal value minus the best of the other roles', in hundredths.
    fn goal_margin(&self, state: &State, mover: Player) -> f64 {
        let Some(goals) = self.goals(state) else { return 0.0 };
        let value = |g: Option<u32>| f64::from(g.unwrap_or(0).min(100));
        let mine = goals.get(usize::from(mover)).copied().flatten();
        let best_other = goals
            .iter()
            .enumerate()
            .filter(|(r, _)| *r != usize::from(mover))
            .map(|(_, g)| value(*g))
            .fold(0.0, f64::max);
        (value(mine) - best_other) / 100.0
    }

    /// The legal moves of every role and the turn, or the error as a
    /// [`ParseError`] over `text` (for the parsers of moves).
    fn legal_for_parsing(&self, state: &State, text: &str) -> Result<(Turn, Vec<Vec<Term>>), ParseError> {
        if let Some(answer) = self.with_facts(state, |f| Ok((f.turn, f.legal.clone()))) {
            return Ok(answer);
        }
        let error = self.take_error().unwrap_or_else(|| "the game has failed".to_owned());
        Err(ParseError::new(error, 0..text.len()))
    }

    /// Reads one move per role, or the acting role's move alone in a turn of
    /// one role; returns the joint move.
    fn parse_joint(&self, state: &State, text: &str) -> Result<Vec<Term>, ParseError> {
        let (turn, legal) = self.legal_for_parsing(state, text)?;
        let terms = text::parse_terms(text, &self.machine().symbols)?;
        let n = self.rules.roles.len();
        let all = self.rules.roles.join(", ");
        match (turn, terms.len()) {
            (Turn::Over, _) => Err(ParseError::new("the game is over: no role has a move", 0..text.len())),
            (_, 0) => Err(ParseError::new("no move", 0..text.len())),
            (Turn::Role(mover), 1) => {
                let (term, span) = &terms[0];
                self.check_legal(&legal, mover, term, span.clone())?;
                forced_joint(self.rules, &legal, mover, term).map_err(|e| ParseError::new(e, span.clone()))
            }
            (_, k) if k == n => {
                for (role, (term, span)) in terms.iter().enumerate() {
                    self.check_legal(&legal, role as Role, term, span.clone())?;
                }
                Ok(terms.into_iter().map(|(t, _)| t).collect())
            }
            // No role has a choice: one role's only move names the joint move.
            (Turn::Simultaneous, 1) if legal.iter().all(|m| m.len() == 1) => {
                let (term, span) = &terms[0];
                match legal.iter().position(|m| m.contains(term)) {
                    Some(_) => Ok(legal.iter().map(|m| m[0].clone()).collect()),
                    None => Err(ParseError::new(
                        format!("`{}` is no role's move", term.text(&self.machine().symbols)),
                        span.clone(),
                    )
                    .with_help(format!(
                        "no role has a choice; the moves are {}",
                        legal.iter().map(|m| m[0].text(&self.machine().symbols)).collect::<Vec<_>>().join(" ")
                    ))),
                }
            }
            (Turn::Role(mover), _) => Err(ParseError::new(
                format!("give the move of {}, or one move per role", self.role_name(mover)),
                0..text.len(),
            )
            .with_help(format!("roles, in order: {all}"))),
            _ => Err(ParseError::new(format!("every role moves at once: give {n} moves, one per role"), 0..text.len())
                .with_help(format!("roles, in order: {all}"))),
        }
    }

    fn check_legal(
        &self,
        legal: &[Vec<Term>],
        role: Role,
        term: &Term,
        span: std::ops::Range<usize>,
    ) -> Result<(), ParseError> {
        let moves = legal.get(usize::from(role)).map_or(&[][..], Vec::as_slice);
        if moves.contains(term) {
            return Ok(());
        }
        let symbols = &self.machine().symbols;
        let mut texts: Vec<String> = moves.iter().take(12).map(|m| m.text(symbols)).collect();
        if moves.len() > texts.len() {
            texts.push(format!("... ({} in all)", moves.len()));
        }
        Err(ParseError::new(format!("`{}` is not a legal move of {}", term.text(symbols), self.role_name(role)), span)
            .with_help(format!("its legal moves: {}", texts.join(" "))))
    }
}

/// The joint move where `mover` plays `mv` and every other role its one
/// legal move.
fn forced_joint(rules: &GdlRules, legal: &[Vec<Term>], mover: Role, mv: &Term) -> Result<Vec<Term>, String> {
    legal
        .iter()
        .enumerate()
        .map(|(r, moves)| match moves.as_slice() {
            _ if r == usize::from(mover) => Ok(mv.clone()),
            [only] => Ok(only.clone()),
            _ => Err(format!(
                "{} has {} legal moves where {} alone should choose",
                rules.roles.get(r).map_or("?", String::as_str),
                moves.len(),
                rules.roles.get(usize::from(mover)).map_or("?", String::as_str)
            )),
        })
        .collect()
}

impl Game for GdlGame {
    type State = State;
    type Move = Term;

    fn name(&self) -> &str {
        &self.rules.name
    }

    fn n_roles(&self) -> usize {
        self.rules.roles.len()
    }

    fn role_name(&self, role: Role) -> &str {
        self.rules.roles.get(usize::from(role)).map_or("?", String::as_str)
    }

    fn initial_state(&self) -> State {
        self.machine().initial_state().clone()
    }

    fn turn(&self, state: &State) -> Turn {
        self.with_facts(state, |f| Ok(f.turn)).unwrap_or(Turn::Over)
    }

    fn legal_moves(&self, state: &State, moves: &mut Vec<Term>) {
        moves.clear();
        self.with_facts(state, |f| {
            if let Turn::Role(r) = f.turn {
                moves.extend(f.legal[usize::from(r)].iter().cloned());
            }
            Ok(())
        });
    }

    fn legal_moves_of(&self, state: &State, role: Role, moves: &mut Vec<Term>) {
        moves.clear();
        self.with_facts(state, |f| {
            moves.extend(f.legal.get(usize::from(role)).into_iter().flatten().cloned());
            Ok(())
        });
    }

    fn apply(&self, state: &State, mv: &Term) -> State {
        let mover = match self.turn(state) {
            Turn::Role(r) => r,
            _ => return state.clone(),
        };
        self.apply_mover(state, mover, mv).unwrap_or_else(|| state.clone())
    }

    fn apply_joint(&self, state: &State, joint: &[Term]) -> State {
        if joint.len() != self.n_roles() {
            return state.clone();
        }
        self.with_slot(state, |slot| slot.next(self.rules, state, joint)).unwrap_or_else(|| state.clone())
    }

    /// On the compiled engine, the game is played on bit sets by the
    /// reasoner's own circuit, with no terms built on the way: an order of
    /// magnitude faster than stepping through [`Game::apply_joint`]. Other
    /// games (the prover, a state with a fluent the network does not know)
    /// take the model's playout.
    fn random_playout_scores<R: Rng>(&self, state: &State, rng: &mut R, scores: &mut Vec<u8>) {
        let n = self.n_roles();
        scores.clear();
        if let Some(goals) = self.compiled_playout(state, rng) {
            scores.extend(goals.iter().map(|g| g.map_or(0, |v| v.min(100) as u8)));
        } else if self.failed.load(Ordering::Relaxed) {
            scores.resize(n, 0);
        } else {
            let end = crate::games::playout::random_joint_playout(self, state, rng);
            scores.extend(end.scores);
        }
    }

    /// The compiled engine's playouts take microseconds and ignore the
    /// deadline; the prover's are checked move by move.
    fn random_playout_scores_until<R: Rng>(
        &self,
        state: &State,
        rng: &mut R,
        scores: &mut Vec<u8>,
        deadline: std::time::Instant,
    ) -> bool {
        if let Some(goals) = self.compiled_playout(state, rng) {
            scores.clear();
            scores.extend(goals.iter().map(|g| g.map_or(0, |v| v.min(100) as u8)));
            return true;
        }
        if self.failed.load(Ordering::Relaxed) {
            scores.clear();
            scores.resize(self.n_roles(), 0);
            return true;
        }
        let Some(end) = crate::games::playout::random_joint_playout_until(self, state, rng, Some(deadline)) else {
            return false;
        };
        scores.clear();
        scores.extend(end.scores);
        true
    }

    fn score(&self, state: &State, role: Role) -> Option<u8> {
        if self.failed.load(Ordering::Relaxed) {
            return Some(0);
        }
        if self.turn(state) != Turn::Over {
            return None;
        }
        let goals = self.goals(state)?;
        Some(goals.get(usize::from(role)).copied().flatten().map_or(0, |g| g.min(100) as u8))
    }

    fn parse_state(&self, text: &str) -> Result<State, ParseError> {
        text::parse_state(text, &self.machine().symbols)
    }

    fn format_state(&self, state: &State) -> String {
        text::format_state(state, &self.machine().symbols)
    }

    fn render(&self, state: &State) -> String {
        text::render_state(state, &self.machine().symbols)
    }

    /// A move of the acting role, or one move per role in role order (the
    /// others' must be their forced moves); returns the acting role's move.
    fn parse_move(&self, state: &State, text: &str) -> Result<Term, ParseError> {
        match self.legal_for_parsing(state, text)?.0 {
            Turn::Role(r) => Ok(self.parse_joint(state, text)?.swap_remove(usize::from(r))),
            Turn::Simultaneous => Err(ParseError::new(
                format!("every role moves at once: give {} moves, one per role", self.n_roles()),
                0..text.len(),
            )
            .with_help(format!("roles, in order: {}", self.rules.roles.join(", ")))),
            Turn::Over | Turn::Chance => Err(ParseError::new("the game is over: no role has a move", 0..text.len())),
        }
    }

    /// Moves are written as the rules spell them (a GGP game server checks
    /// them case and all); they are read in any case.
    fn format_move(&self, _state: &State, mv: &Term) -> String {
        mv.spelled(&self.machine().symbols)
    }

    /// Moves are S-expressions: `(mark 1 1) noop`. In a turn of one role, its
    /// move alone also reads, completed with the others' forced moves.
    fn parse_joint_move(&self, state: &State, text: &str) -> Result<Vec<Term>, ParseError> {
        self.parse_joint(state, text)
    }

    fn set_deadline(&self, deadline: Option<std::time::Instant>) {
        *self.deadline.lock().unwrap_or_else(PoisonError::into_inner) = deadline;
    }

    fn take_error(&self) -> Option<String> {
        let error = self.error.lock().unwrap_or_else(PoisonError::into_inner).take();
        self.failed.store(false, Ordering::Relaxed);
        error
    }
}

impl GpDomain for GdlGame {
    fn domain(&self) -> &str {
        DOMAIN
    }

    fn features(&self) -> Vec<FeatureDef<State>> {
        features::definitions(self.rules, |s| s).0
    }

    fn natives(&self) -> Vec<NativeDef<State>> {
        features::definitions(self.rules, |s| s).1
    }

    /// GDL games have no material: the goal values of the state (many
    /// games define them before the end), `me`'s minus the best other
    /// role's, in hundredths; a missing goal value counts 0.
    fn material(&self, state: &State, me: Player) -> f64 {
        self.goal_margin(state, me)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{GameResult, TwoPlayer};

    /// Compiles `text` as a game for the life of the test process.
    fn rules(text: &str) -> &'static GdlRules {
        let mut sources = Sources::new();
        let file = sources.add("test.kif", None, text.to_owned());
        match GdlRules::compile("test.kif", sources, file) {
            Ok(rules) => Box::leak(Box::new(rules)),
            Err((sources, diags)) => panic!("{}", sources.render_plain(&diags)),
        }
    }

    /// Two roles; `a` chooses at step 0, both at step 1, nobody at step 2,
    /// then it ends at step 3 with a goal value for `a` and none for `b`.
    const STEPS: &str = "(role a) (role b) (init (step 0)) (succ 0 1) (succ 1 2) (succ 2 3)
        (<= (legal a (go ?n)) (true (step 0)) (succ ?n ?m))
        (<= (legal b wait) (true (step 0)))
        (<= (legal ?r left) (role ?r) (true (step 1)))
        (<= (legal ?r right) (role ?r) (true (step 1)))
        (<= (legal ?r last) (role ?r) (true (step 2)))
        (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
        (<= terminal (true (step 3)))
        (<= (goal a 100) (true (step 3)))";

    fn moves(game: &GdlGame, state: &State, role: Role) -> Vec<String> {
        let mut moves = Vec::new();
        game.legal_moves_of(state, role, &mut moves);
        moves.iter().map(|m| game.format_move(state, m)).collect()
    }

    #[test]
    fn turns_follow_the_noop_convention() {
        let game = GdlGame::new(rules(STEPS));
        let s0 = game.initial_state();
        assert_eq!(game.turn(&s0), Turn::Role(0));
        assert_eq!(moves(&game, &s0, 1), ["wait"], "the waiting role's forced move is listed");
        let mut legal = Vec::new();
        game.legal_moves(&s0, &mut legal);
        assert_eq!(legal.len(), 3);
        let s1 = game.apply(&s0, &legal[0]);
        assert_eq!(game.format_state(&s1), "((step 1))");
        assert_eq!(game.turn(&s1), Turn::Simultaneous);
        game.legal_moves(&s1, &mut legal);
        assert!(legal.is_empty(), "no single role acts");
        let joint = game.parse_joint_move(&s1, "LEFT right").expect("a joint move");
        let s2 = game.apply_joint(&s1, &joint);
        assert_eq!(game.turn(&s2), Turn::Simultaneous, "nobody has a choice: one joint move");
        let joint = game.parse_joint_move(&s2, "last").expect("the only joint move, named by one move");
        assert_eq!(joint.len(), 2);
        let s3 = game.apply_joint(&s2, &joint);
        assert_eq!(game.turn(&s3), Turn::Over);
        assert_eq!((game.score(&s3, 0), game.score(&s3, 1)), (Some(100), Some(0)), "a missing goal value is 0");
        assert_eq!(game.score(&s2, 0), None);
        assert_eq!(crate::games::perft(&game, &s0, 3), 3 * 4);
        assert_eq!(game.take_error(), None);
    }

    #[test]
    fn a_search_on_the_clock_gives_up_states_the_prover_is_still_reasoning_about() {
        // Each step doubles what `legal` costs (2^k facts at step k), so from
        // step 17 on a state takes the prover a large part of a second.
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/gdl/games/ruleDepthExponential.kif");
        let text = std::fs::read_to_string(path).expect("the corpus game");
        let game = GdlGame::new(rules(&text));
        let late = game.parse_state("((step 17))").expect("a state");
        let mut search = crate::search::uct::Uct::new(Default::default(), crate::rng::stream(1, &[1]));
        let started = std::time::Instant::now();
        let deadline = started + std::time::Duration::from_millis(100);
        search.search(&game, &late, crate::search::uct::Budget::Until(deadline));
        assert!(started.elapsed() < std::time::Duration::from_millis(500), "took {:?}", started.elapsed());
        assert_eq!(game.take_error(), None, "what the clock stopped is not an error of the game");
        // Off the clock the prover reasons on.
        let mut legal = Vec::new();
        game.legal_moves(&late, &mut legal);
        assert_eq!(legal.len(), 2);
    }

    #[test]
    fn an_evaluator_search_on_the_clock_gives_up_slow_states_too() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/gdl/games/ruleDepthExponential.kif");
        let text = std::fs::read_to_string(path).expect("the corpus game");
        let game = GdlGame::new(rules(&text));
        let late = game.parse_state("((step 17))").expect("a state");
        // The player knows its legal moves before it searches.
        let mut legal = Vec::new();
        game.legal_moves(&late, &mut legal);
        let params = crate::search::sampled::SampledParams::new(4);
        let mut search = crate::search::sampled::SampledSearch::new(params, crate::rng::stream(1, &[2]));
        let started = std::time::Instant::now();
        let deadline = started + std::time::Duration::from_millis(100);
        let (choice, _) = search.choose_by(&game, &late, 0, deadline, &mut |_, _| 0.0);
        assert!(started.elapsed() < std::time::Duration::from_millis(500), "took {:?}", started.elapsed());
        assert!(choice.is_some());
        assert_eq!(game.take_error(), None);
    }

    #[test]
    fn moves_are_written_as_the_rules_spell_them_and_read_in_any_case() {
        let game = GdlGame::new(rules(
            "(role ship) (init (t 0)) (legal ship (do thrustThrust))
             (<= (next (t 1)) (does ship (do thrustthrust))) (<= terminal (true (t 1))) (goal ship 100)",
        ));
        let s0 = game.initial_state();
        let mv = game.parse_move(&s0, "(DO THRUSTTHRUST)").expect("any case reads");
        assert_eq!(game.format_move(&s0, &mv), "(do thrustThrust)", "the spelling of its first appearance");
    }

    #[test]
    fn moves_are_read_for_the_acting_role_or_as_a_joint_move() {
        let game = GdlGame::new(rules(STEPS));
        let s0 = game.initial_state();
        assert_eq!(game.format_move(&s0, &game.parse_move(&s0, "(go 1)").expect("a's move")), "(go 1)");
        assert_eq!(game.format_move(&s0, &game.parse_move(&s0, "(go 2) wait").expect("joint")), "(go 2)");
        let e = game.parse_move(&s0, "(go 1) (go 2)").expect_err("b only waits");
        assert_eq!((e.message.as_str(), e.span), ("`(go 2)` is not a legal move of b", 7..13));
        assert_eq!(e.help.as_deref(), Some("its legal moves: wait"));
        let e = game.parse_move(&s0, "(go 3)").expect_err("no such move");
        assert!(e.message.contains("not a legal move of a"), "{}", e.message);
        let s1 = game.apply(&s0, &game.parse_move(&s0, "(go 0)").expect("a move"));
        let e = game.parse_move(&s1, "left").expect_err("both choose");
        assert!(e.message.starts_with("every role moves at once"), "{}", e.message);
        let e = game.parse_joint_move(&s1, "left").expect_err("one move for two roles");
        assert!(e.message.starts_with("every role moves at once"), "{}", e.message);
    }

    #[test]
    fn a_broken_state_is_reported_and_ends_play() {
        let game = GdlGame::new(rules(
            "(role a) (init (step 0)) (succ 0 1) (<= (legal a go) (true (step 0)))
             (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y)) (<= terminal (true (step 5))) (goal a 0)",
        ));
        let s0 = game.initial_state();
        let mut legal = Vec::new();
        game.legal_moves(&s0, &mut legal);
        let s1 = game.apply(&s0, &legal[0]);
        assert_eq!(game.turn(&s1), Turn::Over, "a failed game is over");
        assert_eq!(game.turn(&s0), Turn::Over, "every state, until the error is taken");
        assert_eq!(game.score(&s1, 0), Some(0));
        let e = game.take_error().expect("the error");
        assert_eq!(e, "test.kif: role a has no legal move in a state that is not terminal: ((step 1))");
        assert_eq!(game.take_error(), None);
        assert_eq!(game.turn(&s0), Turn::Role(0));
    }

    #[test]
    fn the_two_player_view_needs_alternation_and_goals() {
        let rules = rules(STEPS);
        assert!(rules.is_alternating());
        let game = GdlTwoPlayer::new(rules);
        let p0 = game.initial_state();
        assert_eq!((game.to_move(&p0), game.result(&p0)), (0, None));
        let mut legal = Vec::new();
        game.legal_moves(&p0, &mut legal);
        let p1 = game.apply(&p0, &legal[0]);
        assert_eq!(game.turn(&p1), Turn::Over, "both roles choose at step 1");
        let e = game.take_error().expect("not alternating");
        assert_eq!(e, "test.kif: this is not a two-player alternating game: both roles have a choice in ((step 1))");

        // Alternating, but `b` has no goal value at the end.
        let game = GdlTwoPlayer::new(self::rules(
            "(role a) (role b) (init (control a)) (init (step 0)) (succ 0 1) (succ 1 2)
             (<= (legal ?r (mark ?n)) (true (control ?r)) (succ ?n ?m))
             (<= (legal a noop) (true (control b))) (<= (legal b noop) (true (control a)))
             (<= (next (control a)) (true (control b))) (<= (next (control b)) (true (control a)))
             (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
             (<= terminal (true (step 2))) (goal a 100)",
        ));
        let mut p = game.initial_state();
        for mover in [0, 1] {
            assert_eq!(game.to_move(&p), mover);
            game.legal_moves(&p, &mut legal);
            assert_eq!(legal.len(), 2);
            p = game.apply(&p, &legal[1]);
        }
        assert_eq!((game.to_move(&p), game.turn(&p)), (0, Turn::Over), "the opponent of the last mover");
        assert_eq!(game.result(&p), Some(GameResult::Draw));
        let e = game.take_error().expect("no goal for b");
        assert!(e.starts_with("test.kif: b has no goal value in the terminal state"), "{e}");
    }
}
