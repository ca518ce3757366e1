//! The server: accepts connections, answers each on a thread of its own
//! within the bound of [`connections`](super::connections), and keeps the
//! one match being played.
//!
//! It listens on `127.0.0.1` unless told otherwise (`--bind`): anyone who
//! can reach the port can start a match, so a remote game server's address
//! is opened on purpose, not by default.
//!
//! Deadlines are counted from the moment a connection is accepted, before
//! its request is read, so reading and parsing come out of the player's
//! time; the player thinks until the deadline less the margin (a second by
//! default, what GGP-Base's sample players keep), which leaves the reply,
//! the network and a loaded machine their share. GGP-Base's server allows
//! PLAY the play clock plus a second, START the start clock.
//!
//! One match at a time: a START while one is played gets `busy`, unless
//! that match has had no message for longer than its clocks allow (a game
//! server that went away without STOP or ABORT), which is then dropped.
//! STOP and ABORT of a match not being played are acknowledged anyway;
//! a PLAY of one is a 400.

use std::net::{IpAddr, TcpListener, TcpStream};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::connections::{Connections, MAX_CONNECTIONS, Ticket};
use super::http::{self, Bodies, HttpError, Limits};
use super::message::{self, Message};
use super::player::PlayerKind;
use super::session::{self, Envelope, Request, Setup};
use crate::gdl::EngineChoice;

/// How the server plays.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on: `127.0.0.1` for a game server on this
    /// machine, `0.0.0.0` for any.
    pub bind: IpAddr,
    /// 0 picks a free port; the log says which.
    pub port: u16,
    pub player: PlayerKind,
    pub engine: EngineChoice,
    pub margin: Duration,
    pub seed: u64,
    /// Learn an evaluator within each start clock (`--learn`); the player
    /// plays where none is learnt.
    pub learn: bool,
    /// Requests longer than this are refused (the `input-size` limit).
    pub max_body: usize,
}

/// The match being played.
struct Active {
    id: String,
    requests: Sender<Envelope>,
    play_clock: Duration,
    last_message: Instant,
    /// A match silent for longer than this is given up.
    idle: Duration,
}

struct Shared {
    config: Config,
    limits: Limits,
    /// Large bodies being read, at most `max_body` bytes in all.
    bodies: Bodies,
    active: Mutex<Option<Active>>,
}

/// A request's thread needs little stack: messages are read without
/// recursion, and the match has a thread of its own.
const REQUEST_STACK: usize = 256 << 10;

/// Listens on the configured address and port and serves until the process
/// ends; an error only if the port cannot be bound.
pub fn serve(config: Config) -> Result<(), String> {
    let listener = TcpListener::bind((config.bind, config.port))
        .map_err(|e| format!("cannot listen on {} port {}: {e}", config.bind, config.port))?;
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(config.port);
    eprintln!(
        "ggp: listening on port {port} of {} (player {}{}, engine {}, margin {:.2} s)",
        config.bind,
        if config.learn { "learnt in the start clock, else " } else { "" },
        config.player.name(),
        engine_name(config.engine),
        config.margin.as_secs_f64()
    );
    let limits =
        Limits { max_body: config.max_body, head_timeout: http::HEAD_TIMEOUT, request_timeout: http::REQUEST_TIMEOUT };
    let bodies = Bodies::new(config.max_body);
    let shared = Arc::new(Shared { config, limits, bodies, active: Mutex::new(None) });
    let connections = Connections::new(MAX_CONNECTIONS);
    let mut last_failure: Option<Instant> = None;
    for stream in listener.incoming() {
        match stream {
            Ok(stream) => {
                let accepted = Instant::now();
                let Some(ticket) = connections.admit(&stream, accepted) else {
                    http::refuse(&stream);
                    continue;
                };
                let shared = shared.clone();
                let spawned = std::thread::Builder::new()
                    .name("ggp-request".into())
                    .stack_size(REQUEST_STACK)
                    .spawn(move || handle(&shared, &stream, accepted, &ticket));
                if let Err(e) = spawned {
                    eprintln!("ggp: a request was dropped: no thread for it ({e})");
                }
            }
            Err(e) => {
                // Out of file descriptors, say: said once a minute, and a
                // pause so that the loop does not spin.
                if last_failure.is_none_or(|t| t.elapsed() > Duration::from_secs(60)) {
                    eprintln!("ggp: a connection failed: {e}");
                    last_failure = Some(Instant::now());
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
    Ok(())
}

fn engine_name(engine: EngineChoice) -> &'static str {
    match engine {
        EngineChoice::Compiled => "compiled",
        EngineChoice::Prover => "prover",
        EngineChoice::Auto => "auto",
    }
}

/// Reads one request and answers it. A request refused before it was read
/// in full is closed gently (what the client still sends is drained for a
/// moment, so the reply is not lost to a reset); one read in full no longer
/// makes room for newcomers while it is answered.
fn handle(shared: &Shared, stream: &TcpStream, accepted: Instant, ticket: &Ticket) {
    let message = match http::read_request(stream, accepted, ticket.heard(), &shared.limits, &shared.bodies) {
        Ok(body) => message::parse(&body.text).map_err(HttpError::bad),
        Err(e) => {
            http::write_error(stream, &e);
            http::close_after_refusal(stream);
            return;
        }
    };
    ticket.answering();
    match message.and_then(|message| respond(shared, message, accepted)) {
        Ok(body) => http::write_reply(stream, 200, &body),
        Err(e) => http::write_error(stream, &e),
    }
}

/// The answer to one message.
fn respond(shared: &Shared, message: Message, received: Instant) -> Result<String, HttpError> {
    match message {
        Message::Info => {
            let busy = lock(shared).is_some();
            Ok(format!("( ( name stratagem ) ( status {} ) )", if busy { "busy" } else { "available" }))
        }
        Message::Start { id, role, rules, start_clock, play_clock } => {
            let start_deadline = received + Duration::from_secs(u64::from(start_clock));
            let play_clock = Duration::from_secs(u64::from(play_clock));
            start(
                shared,
                received,
                Setup {
                    id,
                    role,
                    rules,
                    start_deadline,
                    // The first PLAY comes at the start deadline: half its
                    // clock may still go to loading, half to the move.
                    compiled_by: (start_deadline + play_clock / 2)
                        .checked_sub(shared.config.margin)
                        .unwrap_or(received),
                    margin: shared.config.margin,
                    player: shared.config.player.clone(),
                    engine: shared.config.engine,
                    seed: shared.config.seed,
                    learn: shared.config.learn,
                },
                play_clock,
            )
        }
        Message::Play { id, moves } => {
            let Some((requests, play_clock)) = find(shared, &id) else {
                return Err(HttpError::bad(format!("no match `{id}` is being played")));
            };
            let deadline = received + play_clock;
            let answer = ask(&requests, Request::Play { moves, deadline }, deadline);
            Ok(answer.unwrap_or_else(|| "nil".to_owned()))
        }
        Message::Stop { id, moves } => {
            end(shared, &id, Request::Stop { moves }, received);
            Ok("done".to_owned())
        }
        Message::Abort { id } => {
            end(shared, &id, Request::Abort, received);
            Ok("aborted".to_owned())
        }
    }
}

fn lock(shared: &Shared) -> std::sync::MutexGuard<'_, Option<Active>> {
    shared.active.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts a match unless one is being played; `ready` or `busy`.
fn start(shared: &Shared, received: Instant, setup: Setup, play_clock: Duration) -> Result<String, HttpError> {
    let (ready_tx, ready_rx) = mpsc::channel();
    let start_deadline = setup.start_deadline;
    let margin = setup.margin;
    {
        let mut active = lock(shared);
        if let Some(current) = active.as_ref() {
            if current.last_message.elapsed() < current.idle {
                return Ok("busy".to_owned());
            }
            eprintln!("ggp: match {}: given up, no message for {} s", current.id, current.idle.as_secs());
        }
        let (requests, inbox) = mpsc::channel();
        let id = setup.id.clone();
        let spawned = std::thread::Builder::new()
            .name("ggp-match".into())
            .stack_size(64 << 20)
            .spawn(move || session::run(setup, inbox, ready_tx));
        if let Err(e) = spawned {
            return Err(HttpError { status: 503, message: format!("no thread for the match: {e}") });
        }
        let start_clock = start_deadline.saturating_duration_since(received);
        *active = Some(Active {
            id,
            requests,
            play_clock,
            last_message: received,
            idle: start_clock + play_clock + Duration::from_secs(30),
        });
    }
    // The rules are compiled and the first position thought about until the
    // deadline less the margin; `ready` goes out by then whatever happened.
    let wait = start_deadline.checked_sub(margin / 2).unwrap_or(received).saturating_duration_since(Instant::now());
    let _ = ready_rx.recv_timeout(wait);
    Ok("ready".to_owned())
}

/// The match `id`'s inbox and play clock, if it is the one being played.
fn find(shared: &Shared, id: &str) -> Option<(Sender<Envelope>, Duration)> {
    let mut active = lock(shared);
    let current = active.as_mut().filter(|a| a.id.eq_ignore_ascii_case(id))?;
    current.last_message = Instant::now();
    Some((current.requests.clone(), current.play_clock))
}

/// Sends `request` to the match and waits for its answer until `deadline`
/// (and a little more: the match thread answers at the deadline less the
/// margin); `None` if it did not answer.
fn ask(requests: &Sender<Envelope>, request: Request, deadline: Instant) -> Option<String> {
    let (reply, answer) = mpsc::channel();
    requests.send(Envelope { request, reply }).ok()?;
    answer.recv_timeout(deadline.saturating_duration_since(Instant::now()) + Duration::from_millis(500)).ok()
}

/// Ends match `id` with STOP or ABORT, if it is the one being played. The
/// server's deadline for the reply is the play clock (not the play clock and
/// a second, as for PLAY), so the match thread gets until a second before it
/// (and `ask`'s half second): one still loading its rules is left to finish
/// on its own.
fn end(shared: &Shared, id: &str, request: Request, received: Instant) {
    let Some((requests, play_clock)) = find(shared, id) else { return };
    let _ = ask(&requests, request, received + play_clock.saturating_sub(Duration::from_secs(1)));
    let mut active = lock(shared);
    if active.as_ref().is_some_and(|a| a.id.eq_ignore_ascii_case(id)) {
        *active = None;
    }
}
