//! The compiled engine: a game's optimised propositional network turned into
//! native code by the JIT's circuit compiler, over a bit-set state.
//!
//! A state is a bit set over the game's fluents (every fluent `init`, `true`
//! or `next` can name, sorted as the prover sorts them, so converting a bit
//! set to the prover's [`State`] needs no sort). The network's gates are cut
//! into routines by what they serve and what they read:
//! - `STATE`: legal, terminal, and every gate `next` needs that does not read
//!   a move (or whose value with no move played is not constant), run once
//!   when a state is loaded;
//! - `GOALS`: the gates only goals need, run when goals are asked for;
//! - one routine per move input: its cone, the gates a played move changes;
//! - `EMIT`: gates shared by too many cones, then the next state as bits.
//!
//! That is the *packed* circuit, for one state at a time. The *sliced*
//! circuit evaluates 64 states at once (state, goals, and a `next` routine
//! recomputing every gate that reads a move, since the 64 lanes play
//! different moves); `gdl::batch` runs playouts on it. Both were measured
//! against full recomputation one state at a time (docs/PERFORMANCE.md).
//!
//! The parts, each using only those listed before it: `game` (the compiled
//! game, its tables and the numbering of routines), `assemble` (network to
//! routines to native code), `reasoner` (one state at a time). This file
//! grounds and optimises a game's network within a budget ([`Network`]) and
//! hands it to the assembler.

mod assemble;
mod game;
mod reasoner;

use std::time::{Duration, Instant};

use self::assemble::assemble;
pub use self::assemble::{MAX_CYCLE, MAX_WIRES};
pub use self::game::{CompileReport, CompiledGame, LegalMove};
pub(super) use self::game::{ProverGoals, SLICED_GOALS, SLICED_NEXT, SLICED_STATE};
pub use self::reasoner::NetReasoner;
use super::description::Description;
use super::ground::ground_until;
use super::propnet::{Propnet, Size};
use super::state::State;
use super::term::{Symbols, Term};

/// Edges of the optimised network above which the game is not compiled
/// (code generation would take longer than the budget of a few seconds).
pub const MAX_EDGES: usize = 3_000_000;

/// A generous estimate of code generation's time, to tell whether it would
/// end before a deadline: a quarter second and 2 µs an edge of the
/// optimised network (across the corpus it took 0.6–2 µs an edge in large
/// networks, up to 2 s in all).
const COMPILE_BASE_MILLIS: u64 = 250;
const COMPILE_NANOS_PER_EDGE: u64 = 2_000;

/// Drops `value` on another thread: freeing a large game's ground program
/// or raw network takes tenths of a second that compiling need not wait for.
fn free_elsewhere<T: Send + 'static>(value: T) {
    // If no thread can be started, the closure and `value` are dropped here.
    let _ = std::thread::Builder::new().name("free".to_owned()).spawn(move || drop(value));
}

/// A game's optimised propositional network, ready to compile. Building it
/// needs neither the roles nor the initial state, so it runs while the
/// prover is being set up; [`Network::compile`] makes the [`CompiledGame`].
pub struct Network {
    net: Propnet,
    /// Why goals were left out of the network, if they were.
    goals_left_out: Option<String>,
    raw: Size,
    grounding: Duration,
    optimisation: Duration,
}

impl Network {
    /// Grounds and optimises `desc`; or says why it cannot be compiled.
    pub fn of(desc: &Description) -> Result<Network, String> {
        Network::of_until(desc, None)
    }

    /// [`Network::of`], giving up when grounding, optimisation and the
    /// compilation to follow (estimated from the network's edges) would not
    /// be done by `until`.
    pub fn of_until(desc: &Description, until: Option<Instant>) -> Result<Network, String> {
        let started = Instant::now();
        let grounding = ground_until(desc, until).map_err(|diags| {
            diags.first().map_or_else(|| "the game cannot be grounded".to_owned(), |d| d.message.clone())
        })?;
        let grounded = started.elapsed();
        let started = Instant::now();
        let goals_left_out = grounding.goals_left_out.clone();
        let out_of_time = || "it would not be compiled in the time left to load the game".to_owned();
        if until.is_some_and(|until| Instant::now() >= until) {
            return Err(out_of_time());
        }
        let raw = Propnet::new(&grounding);
        free_elsewhere(grounding);
        let net = raw.optimised();
        let raw_size = raw.size();
        free_elsewhere(raw);
        let size = net.size();
        if size.edges > MAX_EDGES {
            return Err(format!(
                "its propositional network has {} edges, more than the {MAX_EDGES} the compiler takes",
                size.edges
            ));
        }
        let compilation = Duration::from_millis(COMPILE_BASE_MILLIS)
            + Duration::from_nanos(COMPILE_NANOS_PER_EDGE * size.edges as u64);
        if until.is_some_and(|until| Instant::now() + compilation >= until) {
            return Err(out_of_time());
        }
        Ok(Network { net, goals_left_out, raw: raw_size, grounding: grounded, optimisation: started.elapsed() })
    }

    /// Compiles the network to native code for a game whose roles and
    /// initial state are `roles` and `initial` (the prover's).
    pub fn compile(self, roles: &[Term], initial: &State, symbols: &Symbols) -> Result<CompiledGame, String> {
        let started = Instant::now();
        let mut game = assemble(&self.net, roles, initial, symbols)?;
        game.goals_left_out = self.goals_left_out;
        game.report = CompileReport {
            grounding: self.grounding,
            optimisation: self.optimisation,
            compilation: started.elapsed(),
            raw: self.raw,
            optimised: self.net.size(),
            fluents: game.fluents.len(),
            functions: game.circuit.n_functions,
        };
        free_elsewhere(self.net);
        Ok(game)
    }
}
