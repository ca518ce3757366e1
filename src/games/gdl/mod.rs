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
use super::{Game, ParseError, Player, PlayoutEnd, Role, Turn};
use crate::diagnostic::{Diagnostic, FileId, Sources};
use crate::gdl::playouts::MAX_PLAYOUT_STEPS;
use crate::gdl::term::Term;
use crate::gdl::{Machine, Reasoner, State};

/// The domain of every GDL game: the terminals and natives of the `gdl`
/// primset ([`features`]), computed for each game from its rules.
pub const DOMAIN: &str = "gdl";

/// Reasoners kept for reuse, at most (one per thread is what a game needs).
const POOL: usize = 64;

/// Idle reasoners below which a state held by none gets a new one rather
/// than taking the least recently used. A search makes a state's children
/// (each reasoned, for its turn) before it evaluates them, so the root and
/// every child must fit, or least-recently-used reuse takes each child's
/// reasoner just before it is asked again: compiled reasoners are small
/// (a byte a gate), so those games keep enough for most branching factors.
const SPARE: usize = 4;
const SPARE_COMPILED: usize = 48;

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
        GdlRules::compile_with(name, sources, file, crate::gdl::EngineChoice::Auto, crate::gdl::Case::Insensitive, None)
    }

    /// [`GdlRules::compile`] with the engine chosen (`ggp serve --engine`),
    /// names compared by `case` (`ggp serve` reads rules as GGP-Base does)
    /// and the compiled engine wanted by `until` (the start clock).
    pub fn compile_with(
        name: &str,
        sources: Sources,
        file: FileId,
        engine: crate::gdl::EngineChoice,
        case: crate::gdl::Case,
        until: Option<std::time::Instant>,
    ) -> Result<GdlRules, (Sources, Vec<Diagnostic>)> {
        let text = sources.get(file).text.clone();
        // Games run where GGP-Base's prover runs them, as `gdl perft` does.
        let (machine, warnings) =
            match crate::gdl::compile_as(file, &text, crate::gdl::Validation::Lenient, engine, case, until) {
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
    Ok(turn_of(&legal.iter().map(Vec::len).collect::<Vec<_>>()))
}

/// The turn of a state that is not terminal, from how many legal moves
/// each role has (every role at least one): the rule of the module's
/// documentation.
fn turn_of(counts: &[usize]) -> Turn {
    let mut choosers = counts.iter().enumerate().filter(|&(_, &n)| n > 1).map(|(r, _)| r);
    match (choosers.next(), choosers.next()) {
        (Some(r), None) => Turn::Role(r as Role),
        (None, _) if counts.len() == 1 => Turn::Role(0),
        _ => Turn::Simultaneous,
    }
}

/// What the prover said about one state.
struct Facts {
    state: State,
    /// [`pool_key`] of the state.
    key: u64,
    turn: Turn,
    /// How many legal moves each role has (none in a terminal state).
    counts: Vec<usize>,
    /// Each role's legal moves, once asked: the compiled engine tells the
    /// turn from the counts, and a search that only evaluates a state never
    /// builds its moves as terms.
    legal: Option<Vec<Vec<Term>>>,
    /// Each role's goal value, once asked.
    goals: Option<Vec<Option<u32>>>,
}

/// A reasoner and the answers for the state it holds.
struct Slot {
    reasoner: Reasoner<'static>,
    facts: Option<Facts>,
    /// [`pool_key`] of the state the slot was taken for, hashed once by
    /// [`GdlGame::with_slot`].
    asked_key: u64,
}

impl Slot {
    /// The answers for `state` (the state the slot was taken for, whose
    /// key it holds), reasoned now unless the slot holds them.
    fn facts(&mut self, rules: &GdlRules, state: &State) -> Result<&mut Facts, String> {
        if !self.facts.as_ref().is_some_and(|f| f.state == *state) {
            // The counts' allocation serves the next state.
            let mut counts = self.facts.take().map(|f| f.counts).unwrap_or_default();
            counts.clear();
            self.reasoner.load(state);
            let terminal = self.reasoner.is_terminal().map_err(|e| e.0)?;
            let (counts, legal) = if terminal {
                (counts, Some(Vec::new()))
            } else if self.reasoner.legal_counts(&mut counts) {
                (counts, None)
            } else {
                let legal = self.legal_moves_sorted()?;
                (legal.iter().map(Vec::len).collect(), Some(legal))
            };
            if let Some(r) = counts.iter().position(|&n| n == 0) {
                return Err(format!(
                    "role {} has no legal move in a state that is not terminal: {}",
                    rules.roles.get(r).map_or("?", String::as_str),
                    brief(&text::format_state(state, &rules.machine.symbols))
                ));
            }
            let turn = if terminal { Turn::Over } else { turn_of(&counts) };
            let key = self.asked_key;
            self.facts = Some(Facts { state: state.clone(), key, turn, counts, legal, goals: None });
        }
        self.facts.as_mut().ok_or_else(|| "the prover's answers went missing".to_owned())
    }

    /// The answers for `state` with every role's legal moves.
    fn facts_with_moves(&mut self, rules: &GdlRules, state: &State) -> Result<(&Facts, &[Vec<Term>]), String> {
        if self.facts(rules, state)?.legal.is_none() {
            // Moves played from the state (`next`) leave it loaded; this
            // reloads only if something moved the reasoner off it.
            self.reasoner.load(state);
            let legal = self.legal_moves_sorted()?;
            if let Some(facts) = self.facts.as_mut() {
                facts.legal = Some(legal);
            }
        }
        match &self.facts {
            Some(facts @ Facts { legal: Some(legal), .. }) => Ok((facts, legal)),
            _ => Err("the prover's answers went missing".to_owned()),
        }
    }

    /// Each role's legal moves in canonical text order, whichever engine
    /// answers (each derives them in its own), so a seed plays the same game
    /// on both, and users see them sorted.
    fn legal_moves_sorted(&mut self) -> Result<Vec<Vec<Term>>, String> {
        self.reasoner.legal_moves_sorted().map_err(|e| e.0)
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
    fn next(&mut self, state: &State, joint: &[Term]) -> Result<State, String> {
        // Playing a move needs the state loaded, not its answers.
        if !self.facts.as_ref().is_some_and(|f| f.state == *state) {
            self.facts = None;
            self.reasoner.load(state);
        }
        self.reasoner.next_state(joint).map_err(|e| e.0)
    }
}

/// A hash of a state of the compiled engine (0 for other states), so a
/// lookup among many pooled reasoners compares whole states only where the
/// keys agree.
fn pool_key(rules: &GdlRules, state: &State) -> u64 {
    use std::hash::Hasher;
    let Some(words) = rules.machine.compiled().and_then(|game| state.bits_in(game.id())) else { return 0 };
    let mut h = rustc_hash::FxHasher::default();
    words.iter().for_each(|&w| h.write_u64(w));
    h.finish()
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
    /// Boxed: the pool moves slots in and out on every call, and a slot
    /// holds its reasoner inline (copying them cost a coevolution run a
    /// tenth of its time).
    ///
    /// Shared with the games its features reason through
    /// ([`GdlGame::sharing_pool`]), so that a state the search reasoned
    /// about is not reasoned about again to evaluate it.
    #[allow(clippy::vec_box)]
    pool: Arc<Mutex<Vec<Box<Slot>>>>,
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
            pool: Arc::new(Mutex::new(Vec::new())),
            failed: AtomicBool::new(false),
            error: Mutex::new(None),
            deadline: Mutex::new(None),
        }
    }

    /// A game of the same rules that reasons with this one's pool (and
    /// records its own errors and deadline): the `gdl` primset's features
    /// ask about the states a search has just made.
    pub(super) fn sharing_pool(&self) -> GdlGame {
        GdlGame { pool: Arc::clone(&self.pool), ..GdlGame::new(self.rules) }
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
        let spare = if self.machine().compiled().is_some() { SPARE_COMPILED } else { SPARE };
        let key = pool_key(self.rules, state);
        let taken = {
            let mut pool = self.pool.lock().unwrap_or_else(PoisonError::into_inner);
            let at = pool.iter().rposition(|s| s.facts.as_ref().is_some_and(|f| f.key == key && f.state == *state));
            match at {
                Some(i) => Some(pool.remove(i)),
                // A fresh slot while few wait, so that a state asked about
                // again and again (a search's root, between its children)
                // keeps its answers; else the least recently used.
                None if pool.len() < spare => None,
                None => Some(pool.remove(0)),
            }
        };
        let mut slot =
            taken.unwrap_or_else(|| Box::new(Slot { reasoner: self.machine().reasoner(), facts: None, asked_key: 0 }));
        slot.asked_key = key;
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

    /// Runs `f` on the answers for `state` and every role's legal moves.
    fn with_moves<R>(&self, state: &State, f: impl FnOnce(&Facts, &[Vec<Term>]) -> Result<R, String>) -> Option<R> {
        self.with_slot(state, |slot| {
            let (facts, legal) = slot.facts_with_moves(self.rules, state)?;
            f(facts, legal)
        })
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
            let (_, legal) = slot.facts_with_moves(self.rules, state)?;
            let joint = forced_joint(self.rules, legal, mover, mv)?;
            slot.next(state, &joint)
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
        if let Some(answer) = self.with_moves(state, |f, legal| Ok((f.turn, legal.to_vec()))) {
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
        self.with_moves(state, |f, legal| {
            if let Turn::Role(r) = f.turn {
                moves.extend(legal[usize::from(r)].iter().cloned());
            }
            Ok(())
        });
    }

    fn legal_moves_of(&self, state: &State, role: Role, moves: &mut Vec<Term>) {
        moves.clear();
        self.with_moves(state, |_, legal| {
            moves.extend(legal.get(usize::from(role)).into_iter().flatten().cloned());
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
        self.with_slot(state, |slot| slot.next(state, joint)).unwrap_or_else(|| state.clone())
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
            scores.extend(goals.iter().map(|&g| score_of(g)));
        } else if self.failed.load(Ordering::Relaxed) {
            scores.resize(n, 0);
        } else {
            let end = crate::games::playout::random_joint_playout(self, state, rng);
            scores.extend(end.scores);
        }
    }

    /// The compiled engine's playouts take microseconds and ignore the
    /// deadline and the cap; the prover's are checked move by move, and one
    /// cut after `max_plies` is scored by the goal values of the state it
    /// reached (0 for a role the rules give none there): in many games
    /// they say who is ahead (a piece count, a partial line), elsewhere all
    /// roles score alike.
    fn random_playout_scores_until<R: Rng>(
        &self,
        state: &State,
        rng: &mut R,
        scores: &mut Vec<u8>,
        deadline: std::time::Instant,
        max_plies: u32,
    ) -> PlayoutEnd {
        scores.clear();
        if let Some(goals) = self.compiled_playout(state, rng) {
            scores.extend(goals.iter().map(|&g| score_of(g)));
            return PlayoutEnd::Over;
        }
        if self.failed.load(Ordering::Relaxed) {
            scores.resize(self.n_roles(), 0);
            return PlayoutEnd::Over;
        }
        let end = match crate::games::playout::random_joint_playout_within(self, state, rng, Some(deadline), max_plies)
        {
            Ok(end) => end,
            Err(plies) => return PlayoutEnd::Late(plies),
        };
        if end.turns < max_plies || self.turn(&end.state) == Turn::Over {
            scores.extend(end.scores);
            return PlayoutEnd::Over;
        }
        let goals = self.goals(&end.state).unwrap_or_default();
        scores.extend((0..self.n_roles()).map(|r| score_of(goals.get(r).copied().flatten())));
        PlayoutEnd::Cut
    }

    fn score(&self, state: &State, role: Role) -> Option<u8> {
        if self.failed.load(Ordering::Relaxed) {
            return Some(0);
        }
        if self.turn(state) != Turn::Over {
            return None;
        }
        let goals = self.goals(state)?;
        Some(score_of(goals.get(usize::from(role)).copied().flatten()))
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

/// A goal value as a score of the model: 0 where the rules give none, at
/// most 100.
fn score_of(goal: Option<u32>) -> u8 {
    goal.map_or(0, |v| v.min(100) as u8)
}

impl GpDomain for GdlGame {
    fn domain(&self) -> &str {
        DOMAIN
    }

    fn features(&self) -> Vec<FeatureDef<State>> {
        features::definitions(self, |s| s).0
    }

    fn natives(&self) -> Vec<NativeDef<State>> {
        features::definitions(self, |s| s).1
    }

    /// GDL games have no material: the goal values of the state (many
    /// games define them before the end), `me`'s minus the best other
    /// role's, in hundredths; a missing goal value counts 0.
    fn material(&self, state: &State, me: Player) -> f64 {
        self.goal_margin(state, me)
    }
}

#[cfg(test)]
mod tests;
