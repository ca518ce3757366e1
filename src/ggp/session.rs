//! One match, on a thread of its own: the rules compiled through the
//! registry, the state followed move by move, and each PLAY answered by the
//! player before its deadline.
//!
//! The match thread owns the game and the player's search tree (generic
//! over the game, as a [`GameTask`]), so the HTTP threads only pass it
//! requests and wait for the answer. A game that does not load, or a role
//! the game lacks, still gets answers that keep the match going (`nil`
//! moves, which the server replaces by random legal ones), with a log line
//! that says why.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use rand::RngExt;

use super::player::{Evaluator, PlayerKind};
use crate::evolve::learn::learn;
use crate::games::domain::{Binding, GpDomain};
use crate::games::registry::{self, GameTask};
use crate::games::{Game, Role, Turn};
use crate::gdl::EngineChoice;
use crate::limits::Limit;
use crate::rng::{GpRng, stream};
use crate::search::programs::GpProgram;
use crate::search::sampled::{DEFAULT_SAMPLES, SampledParams, SampledSearch};
use crate::search::uct::{Budget, Uct, UctParams};

/// What a match starts with.
pub struct Setup {
    pub id: String,
    pub role: String,
    pub rules: String,
    pub start_deadline: Instant,
    /// When the compiled engine must be ready; a game that would take
    /// longer to ground and compile is played on the prover rather than
    /// answered late.
    pub compiled_by: Instant,
    /// Time kept back from every deadline for the network and the reply.
    pub margin: Duration,
    pub player: PlayerKind,
    pub engine: EngineChoice,
    pub seed: u64,
    /// Coevolve an evaluator until the start deadline (`--learn`).
    pub learn: bool,
}

/// A request for the match thread.
pub enum Request {
    /// The last joint move (none on the first PLAY) and when the answer is due.
    Play {
        moves: Option<String>,
        deadline: Instant,
    },
    Stop {
        moves: Option<String>,
    },
    Abort,
}

/// A request and where its answer goes.
pub struct Envelope {
    pub request: Request,
    pub reply: Sender<String>,
}

/// The answer when no move can be made (rules that did not load): GGP-Base's
/// server counts it illegal and plays a random legal move instead.
const NO_MOVE: &str = "nil";

/// Plays the match: loads the rules, says `ready` on `ready` (after thinking
/// about the first position until the start deadline), then answers
/// requests until STOP, ABORT, or the server dropping the match.
pub fn run(setup: Setup, requests: Receiver<Envelope>, ready: Sender<()>) {
    let name = format!("match {}", setup.id);
    let size = format!("{} bytes of rules", setup.rules.len());
    match registry::gdl_from_text(&name, &setup.rules, setup.engine, Some(setup.compiled_by)) {
        Ok(entry) => {
            let engine = entry.engine_name().unwrap_or("?");
            let header = format!("ggp: match {}: role {}, {size}, engine {engine}", setup.id, setup.role);
            entry.run(Match { setup, entry, requests, ready, header });
        }
        Err(e) => {
            let first = e.file.as_ref().and_then(|(_, diags)| diags.iter().find(|d| d.is_error()));
            let why = first.map_or_else(|| e.message.clone(), |d| d.message.clone());
            let _ = ready.send(());
            let result = answer_blindly(&requests);
            eprintln!("ggp: match {}: role {}, {size}, the rules do not load ({why}); {result}", setup.id, setup.role);
        }
    }
}

/// Answers every request without a game: `nil` moves; the result.
fn answer_blindly(requests: &Receiver<Envelope>) -> &'static str {
    while let Ok(envelope) = requests.recv() {
        match envelope.request {
            Request::Play { .. } => {
                let _ = envelope.reply.send(NO_MOVE.to_owned());
            }
            Request::Stop { .. } => {
                let _ = envelope.reply.send("done".to_owned());
                return "stopped, moves were nil";
            }
            Request::Abort => {
                let _ = envelope.reply.send("aborted".to_owned());
                return "aborted, moves were nil";
            }
        }
    }
    "abandoned by the server"
}

/// The match as a task on the game's engine.
struct Match {
    setup: Setup,
    /// The game's registry entry (what `--learn` coevolves on).
    entry: &'static registry::Entry,
    requests: Receiver<Envelope>,
    ready: Sender<()>,
    /// The start of the log line.
    header: String,
}

impl GameTask for Match {
    type Output = ();

    fn run<G: GpDomain + Send + 'static>(self, game: G)
    where
        G::State: Send + Sync + 'static,
        G::Move: Send + Sync + 'static,
    {
        let Match { mut setup, entry, requests, ready, header } = self;
        let n = game.n_roles();
        let Some(role) = (0..n).map(|r| r as Role).find(|&r| game.role_name(r).eq_ignore_ascii_case(&setup.role))
        else {
            let _ = ready.send(());
            let roles: Vec<&str> = (0..n).map(|r| game.role_name(r as Role)).collect();
            let result = answer_blindly(&requests);
            eprintln!("{header}: the game has no such role (its roles: {}); {result}", roles.join(", "));
            return;
        };
        let tag = setup.id.bytes().fold(0u64, |h, b| h.wrapping_mul(0x100_0000_01b3) ^ u64::from(b));
        let mut learning = None;
        let game = if setup.learn {
            // Learning stops a tenth of the start window early: the
            // evaluator still has to be compiled before `ready`.
            let end = setup.start_deadline.checked_sub(setup.margin).unwrap_or_else(Instant::now);
            let until = end.checked_sub(end.saturating_duration_since(Instant::now()) / 10).unwrap_or(end);
            let (game, learned) = learn(game, entry, role, until, stream(setup.seed, &[tag, 4]).random());
            match learned {
                Ok(l) => {
                    setup.player = PlayerKind::Evaluator(Arc::new(Evaluator {
                        spec: format!("learnt ({} generations, {} teachers)", l.generations, l.teachers),
                        ps: l.ps,
                        program: l.program,
                        max_depth: u32::try_from(Limit::SearchDepth.get()).unwrap_or(u32::MAX),
                        samples: DEFAULT_SAMPLES,
                    }));
                }
                Err(why) => learning = Some(format!("nothing learnt ({why}); {} plays", setup.player.name())),
            }
            game
        } else {
            game
        };
        let mut player = Player {
            game: &game,
            role,
            kind: setup.player.clone(),
            evaluator: None,
            uct: Uct::new(UctParams::default(), stream(setup.seed, &[tag, 1])),
            rng: stream(setup.seed, &[tag, 2]),
            state: game.initial_state(),
            steps: 0,
            iterations: 0,
            searches: 0,
            depths: 0,
            dead_ends: 0,
            trouble: learning.into_iter().collect(),
        };
        if let PlayerKind::Evaluator(e) = &setup.player {
            match Binding::new(&game, &e.ps) {
                Ok(binding) => {
                    let program = GpProgram::compile_all(
                        Arc::new(e.ps.clone()),
                        Arc::new(binding),
                        vec![e.program.clone()],
                        crate::eval::jit::JitConfig::default(),
                    )
                    .0
                    .pop();
                    let params = SampledParams { depth: e.max_depth, samples: e.samples };
                    player.evaluator =
                        program.map(|p| (Arc::new(p), SampledSearch::new(params, stream(setup.seed, &[tag, 3]))));
                }
                Err(diags) => {
                    let why = diags.first().map_or_else(String::new, |d| d.message.clone());
                    player.note(format!("the evaluator does not bind to the game ({why}); first legal moves"));
                }
            }
        }
        let pending = player.ponder(setup.start_deadline.checked_sub(setup.margin), &requests);
        let _ = ready.send(());
        let result = player.answer(&requests, pending, setup.margin);
        let searched = match (player.searches, &setup.player) {
            (0, _) => String::new(),
            (k, PlayerKind::Evaluator(_)) => {
                format!(", {k} searches, mean depth {:.1}", player.depths as f64 / k as f64)
            }
            (k, _) => match player.uct.playout_plies() {
                u32::MAX => format!(", uct {} iterations in {k} searches", player.iterations),
                plies => {
                    format!(", uct {} iterations in {k} searches, playouts cut at {plies} plies", player.iterations)
                }
            },
        };
        let searched = match player.dead_ends {
            0 => searched,
            d => format!("{searched} ({d} states where the engine failed, scored 0)"),
        };
        let trouble =
            if player.trouble.is_empty() { String::new() } else { format!("; {}", player.trouble.join("; ")) };
        eprintln!("{header}, player {}, {} steps{searched}: {result}{trouble}", setup.player.name(), player.steps);
    }
}

/// A player following the match.
struct Player<'g, G: Game> {
    game: &'g G,
    role: Role,
    kind: PlayerKind,
    /// The evaluator bound to the game, and its search.
    evaluator: Option<(Arc<GpProgram<G::State>>, SampledSearch)>,
    uct: Uct<G>,
    rng: GpRng,
    state: G::State,
    steps: u32,
    /// UCT iterations over all searches, and the searches.
    iterations: u64,
    searches: u64,
    /// The depths the evaluator's searches finished, summed.
    depths: u64,
    /// States of the searches where the engine failed (scored 0).
    dead_ends: u64,
    /// What went wrong on the way (moves that could not be followed, a
    /// game that failed), for the log line.
    trouble: Vec<String>,
}

impl<G: Game> Player<'_, G> {
    /// Thinks about the current state until `until`, or until a request
    /// arrives (returned). Only UCT thinks ahead.
    fn ponder(&mut self, until: Option<Instant>, requests: &Receiver<Envelope>) -> Option<Envelope> {
        let until = until?;
        if !matches!(self.kind, PlayerKind::Uct) {
            return None;
        }
        const SLICE: Duration = Duration::from_millis(20);
        while Instant::now() < until {
            match requests.try_recv() {
                Ok(envelope) => return Some(envelope),
                Err(std::sync::mpsc::TryRecvError::Empty) => {}
                Err(std::sync::mpsc::TryRecvError::Disconnected) => return None,
            }
            let slice_end = (Instant::now() + SLICE).min(until);
            let stats = self.uct.search(self.game, &self.state, Budget::Until(slice_end));
            self.iterations += stats.iterations;
            self.dead_ends += stats.dead_ends;
        }
        None
    }

    /// Answers requests until the match ends; the result for the log.
    fn answer(&mut self, requests: &Receiver<Envelope>, mut pending: Option<Envelope>, margin: Duration) -> String {
        loop {
            let envelope = match pending.take() {
                Some(e) => e,
                None => match requests.recv_timeout(Duration::from_secs(3600)) {
                    Ok(e) => e,
                    Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                        return "abandoned by the server".to_owned();
                    }
                },
            };
            match envelope.request {
                Request::Play { moves, deadline } => {
                    if let Some(text) = moves {
                        self.follow(&text);
                    }
                    let until = deadline.checked_sub(margin).unwrap_or_else(Instant::now);
                    let _ = envelope.reply.send(self.choose(until));
                }
                Request::Stop { moves } => {
                    if let Some(text) = moves {
                        self.follow(&text);
                    }
                    let _ = envelope.reply.send("done".to_owned());
                    return self.result();
                }
                Request::Abort => {
                    let _ = envelope.reply.send("aborted".to_owned());
                    return "aborted".to_owned();
                }
            }
        }
    }

    /// Plays the joint move `text` (one move per role, in role order).
    fn follow(&mut self, text: &str) {
        match self.game.parse_joint_move(&self.state, text) {
            Ok(joint) => {
                if matches!(self.kind, PlayerKind::Uct) {
                    self.uct.advance(&joint);
                }
                self.state = self.game.apply_joint(&self.state, &joint);
                self.steps += 1;
            }
            Err(e) => {
                self.uct.reset();
                self.note(format!(
                    "step {}: the moves `{}` could not be followed: {}",
                    self.steps + 1,
                    text.trim(),
                    e.message
                ));
            }
        }
        if let Some(e) = self.game.take_error() {
            self.note(format!("the game failed: {e}"));
        }
    }

    fn note(&mut self, what: String) {
        if self.trouble.len() < 3 {
            self.trouble.push(what);
        }
    }

    /// The move to answer, chosen by `until`.
    fn choose(&mut self, until: Instant) -> String {
        let mut legal = Vec::new();
        self.game.legal_moves_of(&self.state, self.role, &mut legal);
        let Some(first) = legal.first().cloned() else { return NO_MOVE.to_owned() };
        let mv = match self.kind {
            PlayerKind::Legal => first,
            // A forced move (a `noop` while another role moves) needs no search.
            PlayerKind::Evaluator(_) if legal.len() == 1 => first,
            PlayerKind::Evaluator(_) => match self.evaluator.as_mut() {
                Some((program, search)) => {
                    let (choice, depth) =
                        search.choose_by(self.game, &self.state, self.role, until, &mut |s, me| program.value(s, me));
                    self.searches += 1;
                    self.depths += u64::from(depth);
                    choice.and_then(|i| legal.get(i).cloned()).unwrap_or(first)
                }
                None => first,
            },
            PlayerKind::Random => legal[self.rng.random_range(0..legal.len())].clone(),
            PlayerKind::Uct => {
                let stats = self.uct.search(self.game, &self.state, Budget::Until(until));
                self.iterations += stats.iterations;
                self.dead_ends += stats.dead_ends;
                self.searches += 1;
                match self.uct.best_move(self.role) {
                    Some((mv, _)) if legal.contains(&mv) => mv,
                    _ => first,
                }
            }
        };
        if let Some(e) = self.game.take_error() {
            self.note(format!("the game failed: {e}"));
        }
        self.game.format_move(&self.state, &mv)
    }

    /// Every role's score at the end, and ours.
    fn result(&self) -> String {
        if self.game.turn(&self.state) != Turn::Over {
            return "stopped before the game was over (as we followed it)".to_owned();
        }
        let n = self.game.n_roles();
        let scores: Vec<String> = (0..n)
            .map(|r| {
                let name = self.game.role_name(r as Role);
                format!("{name} {}", self.game.score(&self.state, r as Role).map_or("-".to_owned(), |s| s.to_string()))
            })
            .collect();
        let ours = self.game.score(&self.state, self.role).map_or("-".to_owned(), |s| s.to_string());
        format!("goals {} (ours {ours})", scores.join(", "))
    }
}
