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
//! different moves); `super::batch` runs playouts on it. Both were measured
//! against full recomputation one state at a time (docs/PERFORMANCE.md).

mod assemble;

use std::sync::Arc;
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

use self::assemble::assemble;
use super::description::Description;
use super::ground::ground_until;
use super::machine::{State, goal_values};
use super::plan::Plan;
use super::propnet::{Gate, GateId, Propnet, Size, goal_value};
use super::prover::{ProverError, Workspace};
use super::term::{Symbols, Term};
use crate::eval::jit::circuit::{Assign, Block, Circuit, CompiledCircuit, Layout, Op, Routine, Wire};

/// The routines: what holds in a state, goals, the next state's bits from
/// gate values, then one per input.
const STATE: usize = 0;
const GOALS: usize = 1;
const EMIT: usize = 2;
const FIRST_INPUT: usize = 3;

/// The routines of the sliced circuit (64 states at once): what holds in
/// the states, goals, and the next states of the moves set as inputs.
pub(super) const SLICED_STATE: usize = 0;
pub(super) const SLICED_GOALS: usize = 1;
pub(super) const SLICED_NEXT: usize = 2;

/// Assignments of all the inputs' cones together, at most: compilation
/// time grows with them (see `assemble`).
const CONE_ASSIGNMENTS: usize = 200_000;

/// Cones a gate is in from which it is shared whatever the total: its
/// copies would cost more code than recomputing it once per joint move. It
/// also caps the counting (`cone_counts`): amazons has 700 gates in each of
/// its 174 K cones.
const ALWAYS_SHARED: u32 = 4096;

/// Inputs a thread takes at a time when their cones are found.
const CONE_BLOCK: usize = 512;

/// Edges of the optimised network above which the game is not compiled
/// (code generation would take longer than the budget of a few seconds).
pub const MAX_EDGES: usize = 3_000_000;

/// A generous estimate of code generation's time, to tell whether it would
/// end before a deadline: a quarter second and 2 µs an edge of the
/// optimised network (across the corpus it took 0.6–2 µs an edge in large
/// networks, up to 2 s in all).
const COMPILE_BASE_MILLIS: u64 = 250;
const COMPILE_NANOS_PER_EDGE: u64 = 2_000;

/// Wires of the compiled code, at most.
pub const MAX_WIRES: usize = 2_000_000;

/// Gates of one cyclic component, at most: the compiled code evaluates a
/// cycle by repeating it until nothing changes, which is slow for a large
/// recursion (hex's connectivity); the prover's semi-naive evaluation is
/// better there.
pub const MAX_CYCLE: usize = 2_000;

/// A legal move of a role: the move, the gate saying whether it is legal,
/// and the input its `does` sets (none when no rule reads it).
#[derive(Clone, Debug)]
pub struct LegalMove {
    pub mv: Term,
    pub(super) wire: Wire,
    pub(super) input: Option<u32>,
}

/// How long each phase of compilation took, and the sizes.
#[derive(Clone, Debug)]
pub struct CompileReport {
    pub grounding: Duration,
    pub optimisation: Duration,
    pub compilation: Duration,
    pub raw: Size,
    pub optimised: Size,
    pub fluents: usize,
    pub functions: usize,
}

impl CompileReport {
    pub fn total(&self) -> Duration {
        self.grounding + self.optimisation + self.compilation
    }

    /// One line for users: what the engine is made of and what it cost.
    pub fn summary(&self) -> String {
        format!(
            "compiled engine: {} gates, {} edges ({} before optimisation), {} fluents; grounding {:.2} s, optimisation {:.2} s, compilation {:.2} s",
            self.optimised.gates,
            self.optimised.edges,
            self.raw.edges,
            self.fluents,
            self.grounding.as_secs_f64(),
            self.optimisation.as_secs_f64(),
            self.compilation.as_secs_f64()
        )
    }
}

/// Wires sorted by where they read from.
#[derive(Debug, Default)]
struct GatesByKind {
    /// How many are constantly on.
    on: usize,
    values: Vec<u32>,
    state_bits: Vec<u32>,
    inputs: Vec<u32>,
}

impl GatesByKind {
    fn of(wires: &[Wire]) -> GatesByKind {
        let mut gates = GatesByKind::default();
        for &wire in wires {
            match wire {
                Wire::Value(v) => gates.values.push(v),
                Wire::StateBit(b) => gates.state_bits.push(b),
                Wire::Input(i) => gates.inputs.push(i),
                Wire::Const(on) => gates.on += usize::from(on),
            }
        }
        gates
    }
}

/// A game compiled to native code. Immutable; every thread reasons through
/// its own [`NetReasoner`].
#[derive(Debug)]
pub struct CompiledGame {
    /// A number of its own in the process, which the states it makes carry
    /// with their bits.
    id: usize,
    circuit: CompiledCircuit,
    /// The state's bits: fluent `i` is bit `i`, sorted.
    fluents: Arc<[Term]>,
    bit_of: FxHashMap<Term, u32>,
    /// Per role, in the order of the game's roles.
    legal: Vec<Vec<LegalMove>>,
    /// Per role, each legal move's gate alone, in `legal`'s order: listing
    /// a state's legal moves reads a dense array (a game can have hundreds
    /// of moves a role, few of them legal at a time).
    legal_wires: Vec<Vec<Wire>>,
    /// Per role, the legal moves' gates by kind, to count them with a loop
    /// per kind instead of a dispatch per move.
    legal_gates: Vec<GatesByKind>,
    /// Per role, the input of each move a rule reads.
    input_of: Vec<FxHashMap<Term, u32>>,
    /// Per role, the goal values with the gate of each.
    goals: Vec<Vec<(Option<u32>, Wire)>>,
    terminal: Wire,
    initial: Vec<u64>,
    /// Gate values before any state is loaded: the constant baselines.
    initial_values: Vec<u8>,
    /// What playing each input does, and the gate values it changes.
    input_routine: Vec<Cone>,
    cone_slots: Vec<Vec<u32>>,
    /// The sliced circuit, compiled on first use (only batches of playouts
    /// need it, and it costs as much compilation again).
    sliced_circuit: Circuit,
    sliced: std::sync::OnceLock<Result<CompiledCircuit, String>>,
    /// Why goals are not in the network (their relations did not ground
    /// within their budget), and the prover that answers them instead.
    goals_left_out: Option<String>,
    prover_goals: Option<ProverGoals>,
    pub report: CompileReport,
}

/// The prover's tables for goals, where the network has none: a state's
/// goals are asked once a game, so the prover's speed there costs little.
#[derive(Debug)]
pub(super) struct ProverGoals {
    pub plan: Plan,
    pub base: Workspace,
    pub roles: Vec<Term>,
    pub symbols: Symbols,
}

/// Drops `value` on another thread: freeing a large game's ground program
/// or raw network takes tenths of a second that compiling need not wait for.
fn free_elsewhere<T: Send + 'static>(value: T) {
    // If no thread can be started, the closure and `value` are dropped here.
    let _ = std::thread::Builder::new().name("free".to_owned()).spawn(move || drop(value));
}

/// What playing a move input changes: nothing (no gate reads it), its
/// cone's gates recomputed by a routine, or its cone's gates all set to 1.
#[derive(Clone, Copy, Debug)]
enum Cone {
    Empty,
    Routine(usize),
    Raise,
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

impl CompiledGame {
    pub fn reasoner(&self) -> NetReasoner<'_> {
        let words = self.circuit.state_words();
        NetReasoner {
            game: self,
            values: self.initial_values.clone(),
            inputs: vec![0; self.circuit.n_inputs()],
            state: vec![0; words],
            next: vec![0; words],
            played: Vec::new(),
            saved: Vec::new(),
            backup: Vec::new(),
            goals_current: false,
            prover: None,
        }
    }

    /// Why the network has no goals, if it has none: the prover answers them
    /// (once [`CompiledGame::answer_goals_by`] gave it).
    pub fn goals_left_out(&self) -> Option<&str> {
        self.goals_left_out.as_deref()
    }

    /// Has the prover of `plan` (tables `base`) answer goals, for a game whose
    /// network has none.
    pub(super) fn answer_goals_by(&mut self, goals: ProverGoals) {
        self.prover_goals = Some(goals);
    }

    /// The initial state's bits.
    pub fn initial_bits(&self) -> &[u64] {
        &self.initial
    }

    pub fn legal_moves_of(&self, role: usize) -> &[LegalMove] {
        &self.legal[role]
    }

    pub fn n_roles(&self) -> usize {
        self.legal.len()
    }

    /// The bits of a state given as fluents; `None` if one of them is no
    /// fluent of the game (no rule can produce or read it).
    pub fn bits_of(&self, state: &State) -> Option<Vec<u64>> {
        if let Some(words) = state.bits_in(self.id) {
            return Some(words.to_vec());
        }
        let mut bits = vec![0u64; self.circuit.state_words()];
        for f in state.fluents() {
            let b = *self.bit_of.get(f)?;
            bits[(b / 64) as usize] |= 1 << (b % 64);
        }
        Some(bits)
    }

    /// The state of a bit set, as the prover would give it.
    pub fn state_of(&self, bits: &[u64]) -> State {
        State::of_bits(self.id, bits, &self.fluents)
    }

    /// This game's number, which the bits a [`State`] carries name.
    pub(crate) fn id(&self) -> usize {
        self.id
    }

    /// The fluents, fluent `i` being bit `i` of a state.
    pub fn fluents(&self) -> &[Term] {
        &self.fluents
    }

    /// The sliced circuit, compiled the first time it is asked for.
    pub(super) fn sliced_circuit(&self) -> Result<&CompiledCircuit, String> {
        self.sliced
            .get_or_init(|| CompiledCircuit::new(&self.sliced_circuit, Layout::Sliced).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(Clone::clone)
    }

    pub(super) fn terminal_wire(&self) -> Wire {
        self.terminal
    }

    /// Per role, the goal values with the gate of each.
    pub(super) fn goal_wires(&self) -> &[Vec<(Option<u32>, Wire)>] {
        &self.goals
    }

    /// Fluents of the game: the bits of a state.
    pub fn n_fluents(&self) -> usize {
        self.fluents.len()
    }

    /// The input of role `role` playing `mv`, if a rule reads it.
    pub fn input_of(&self, role: usize, mv: &Term) -> Option<u32> {
        self.input_of.get(role)?.get(mv).copied()
    }
}

/// One thread's view of a compiled game: one state at a time, with the
/// gate values of that state.
pub struct NetReasoner<'g> {
    game: &'g CompiledGame,
    values: Vec<u8>,
    inputs: Vec<u8>,
    state: Vec<u64>,
    next: Vec<u64>,
    /// The inputs of the joint move being played.
    played: Vec<u32>,
    /// Gate values to restore after a joint move.
    saved: Vec<(u32, u8)>,
    /// All gate values, kept instead of `saved` when the cones to run are
    /// large: one copy of the array costs less than saving slot by slot.
    backup: Vec<u8>,
    goals_current: bool,
    /// The prover's tables, for a game whose goals it answers.
    prover: Option<Workspace>,
}

impl NetReasoner<'_> {
    /// Makes `bits` the current state.
    pub fn load(&mut self, bits: &[u64]) {
        let n = self.state.len();
        self.state.copy_from_slice(&bits[..n]);
        self.game.circuit.run(STATE, &mut self.values, &self.state, &self.inputs, &mut self.next);
        self.goals_current = false;
    }

    pub fn state(&self) -> &[u64] {
        &self.state
    }

    fn read(&self, wire: Wire) -> bool {
        match wire {
            Wire::Value(i) => self.values[i as usize] != 0,
            Wire::StateBit(b) => self.state[(b / 64) as usize] >> (b % 64) & 1 != 0,
            Wire::Input(i) => self.inputs[i as usize] != 0,
            Wire::Const(c) => c,
        }
    }

    pub fn is_terminal(&self) -> bool {
        self.read(self.game.terminal)
    }

    /// The indices of role `role`'s legal moves in the current state, in
    /// the order of its list ([`CompiledGame::legal_moves_of`]).
    pub fn legal(&self, role: usize) -> impl Iterator<Item = usize> + '_ {
        let wires = &self.game.legal_wires[role];
        wires.iter().enumerate().filter(|&(_, &w)| self.read(w)).map(|(i, _)| i)
    }

    /// How many moves role `role` has in the current state.
    pub fn legal_count(&self, role: usize) -> usize {
        let gates = &self.game.legal_gates[role];
        let values: usize = gates.values.iter().map(|&v| usize::from(self.values[v as usize] != 0)).sum();
        let bits: usize = gates.state_bits.iter().map(|&b| usize::from(self.read(Wire::StateBit(b)))).sum();
        let inputs: usize = gates.inputs.iter().map(|&i| usize::from(self.inputs[i as usize] != 0)).sum();
        gates.on + values + bits + inputs
    }

    /// Indices of role `role`'s legal moves, into `out`.
    pub fn legal_indices(&self, role: usize, out: &mut Vec<u32>) {
        out.clear();
        out.extend(self.legal(role).map(|i| i as u32));
    }

    /// The next state when each role plays the move at its index in
    /// `choices` (into its list of moves).
    pub fn next_by_index(&mut self, choices: &[u32]) -> &[u64] {
        let game = self.game;
        self.played.clear();
        self.played.extend(choices.iter().enumerate().filter_map(|(r, &i)| game.legal[r][i as usize].input));
        self.next_of_played()
    }

    /// The next state when the inputs `inputs` (one per role, or none) are set.
    pub fn next_by_inputs(&mut self, inputs: impl IntoIterator<Item = Option<u32>>) -> &[u64] {
        self.played.clear();
        self.played.extend(inputs.into_iter().flatten());
        self.next_of_played()
    }

    /// Plays `choices` (as [`NetReasoner::next_by_index`]) and makes the
    /// next state the current one: a playout's step.
    pub fn play(&mut self, choices: &[u32]) {
        self.next_by_index(choices);
        std::mem::swap(&mut self.state, &mut self.next);
        self.game.circuit.run(STATE, &mut self.values, &self.state, &self.inputs, &mut self.next);
        self.goals_current = false;
    }

    /// Raises the inputs in `played` one at a time, each followed by its
    /// cone's routine (so each routine starts from correct values), takes
    /// the next state's bits, then restores the values the routines changed
    /// and clears the inputs.
    fn next_of_played(&mut self) -> &[u64] {
        let game = self.game;
        self.played.sort_unstable();
        self.played.dedup();
        self.saved.clear();
        // Saving a slot and restoring it costs about as much as copying
        // eight bytes of the whole array twice.
        let slots: usize = self.played.iter().map(|&x| game.cone_slots[x as usize].len()).sum();
        let whole = slots * 8 >= self.values.len();
        if whole {
            self.backup.clone_from(&self.values);
        }
        for &x in &self.played {
            self.inputs[x as usize] = 1;
            let slots = &game.cone_slots[x as usize];
            match game.input_routine[x as usize] {
                Cone::Empty => {}
                Cone::Routine(routine) => {
                    if !whole {
                        self.saved.extend(slots.iter().map(|&v| (v, self.values[v as usize])));
                    }
                    game.circuit.run(routine, &mut self.values, &self.state, &self.inputs, &mut self.next);
                }
                Cone::Raise => {
                    for &v in slots {
                        let old = std::mem::replace(&mut self.values[v as usize], 1);
                        if !whole {
                            self.saved.push((v, old));
                        }
                    }
                }
            }
        }
        game.circuit.run(EMIT, &mut self.values, &self.state, &self.inputs, &mut self.next);
        if whole {
            self.values.copy_from_slice(&self.backup);
        }
        for &(v, old) in self.saved.iter().rev() {
            self.values[v as usize] = old;
        }
        for &x in &self.played {
            self.inputs[x as usize] = 0;
        }
        &self.next
    }

    /// Each role's goal value: `None` unless exactly one goal value, an
    /// integer, holds (GGP-Base's rule, as the prover's). Only a game whose
    /// goals the prover answers can fail (its fact budget).
    pub fn goals(&mut self) -> Result<Vec<Option<u32>>, ProverError> {
        if let Some(p) = &self.game.prover_goals {
            let ws = self.prover.get_or_insert_with(|| p.base.clone());
            ws.set_state(&p.plan, self.game.state_of(&self.state).fluents());
            return goal_values(&p.plan, ws, &p.roles, &p.symbols);
        }
        if !self.goals_current {
            self.game.circuit.run(GOALS, &mut self.values, &self.state, &self.inputs, &mut self.next);
            self.goals_current = true;
        }
        Ok(self.game.goals.iter().map(|values| single_goal(values.iter().filter(|(_, w)| self.read(*w)))).collect())
    }
}

/// A role's goal value from the goals that hold: `None` unless exactly one
/// holds and it is an integer (GGP-Base's rule, as the prover's).
pub(super) fn single_goal<'a>(mut holding: impl Iterator<Item = &'a (Option<u32>, Wire)>) -> Option<u32> {
    match (holding.next(), holding.next()) {
        (Some((v, _)), None) => *v,
        _ => None,
    }
}
