//! A compiled game: the packed circuit compiled to native code, the sliced
//! circuit ready to compile, and the tables that read them (fluents as
//! bits, legal moves, goals, terminal, what each move input changes).
//!
//! The routines are numbered here, for the assembler that makes them
//! (assemble.rs), the reasoner that runs them one state at a time
//! (reasoner.rs) and the batches of 64 (`gdl::batch`).

use std::sync::Arc;
use std::time::Duration;

use rustc_hash::FxHashMap;

use super::super::plan::Plan;
use super::super::propnet::Size;
use super::super::prover::Workspace;
use super::super::state::State;
use super::super::term::{Symbols, Term};
use crate::eval::jit::circuit::{Circuit, CompiledCircuit, Layout, Wire};

/// The routines: what holds in a state, goals, the next state's bits from
/// gate values, then one per input.
pub(super) const STATE: usize = 0;
pub(super) const GOALS: usize = 1;
pub(super) const EMIT: usize = 2;
pub(super) const FIRST_INPUT: usize = 3;

/// The routines of the sliced circuit (64 states at once): what holds in
/// the states, goals, and the next states of the moves set as inputs.
pub(in crate::gdl) const SLICED_STATE: usize = 0;
pub(in crate::gdl) const SLICED_GOALS: usize = 1;
pub(in crate::gdl) const SLICED_NEXT: usize = 2;

/// A legal move of a role: the move, the gate saying whether it is legal,
/// and the input its `does` sets (none when no rule reads it).
#[derive(Clone, Debug)]
pub struct LegalMove {
    pub mv: Term,
    pub(in crate::gdl) wire: Wire,
    pub(in crate::gdl) input: Option<u32>,
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
pub(super) struct GatesByKind {
    /// How many are constantly on.
    pub(super) on: usize,
    pub(super) values: Vec<u32>,
    pub(super) state_bits: Vec<u32>,
    pub(super) inputs: Vec<u32>,
}

impl GatesByKind {
    pub(super) fn of(wires: &[Wire]) -> GatesByKind {
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
    pub(super) id: usize,
    pub(super) circuit: CompiledCircuit,
    /// The state's bits: fluent `i` is bit `i`, sorted.
    pub(super) fluents: Arc<[Term]>,
    pub(super) bit_of: FxHashMap<Term, u32>,
    /// Per role, in the order of the game's roles.
    pub(super) legal: Vec<Vec<LegalMove>>,
    /// Per role, each legal move's gate alone, in `legal`'s order: listing
    /// a state's legal moves reads a dense array (a game can have hundreds
    /// of moves a role, few of them legal at a time).
    pub(super) legal_wires: Vec<Vec<Wire>>,
    /// Per role, the legal moves' gates by kind, to count them with a loop
    /// per kind instead of a dispatch per move.
    pub(super) legal_gates: Vec<GatesByKind>,
    /// Per role, the input of each move a rule reads.
    pub(super) input_of: Vec<FxHashMap<Term, u32>>,
    /// Per role, the goal values with the gate of each.
    pub(super) goals: Vec<Vec<(Option<u32>, Wire)>>,
    pub(super) terminal: Wire,
    pub(super) initial: Vec<u64>,
    /// Gate values before any state is loaded: the constant baselines.
    pub(super) initial_values: Vec<u8>,
    /// What playing each input does, and the gate values it changes.
    pub(super) input_routine: Vec<Cone>,
    pub(super) cone_slots: Vec<Vec<u32>>,
    /// The sliced circuit, compiled on first use (only batches of playouts
    /// need it, and it costs as much compilation again).
    pub(super) sliced_circuit: Circuit,
    pub(super) sliced: std::sync::OnceLock<Result<CompiledCircuit, String>>,
    /// Why goals are not in the network (their relations did not ground
    /// within their budget), and the prover that answers them instead.
    pub(super) goals_left_out: Option<String>,
    pub(super) prover_goals: Option<ProverGoals>,
    pub report: CompileReport,
}

/// The prover's tables for goals, where the network has none: a state's
/// goals are asked once a game, so the prover's speed there costs little.
#[derive(Debug)]
pub(in crate::gdl) struct ProverGoals {
    pub plan: Plan,
    pub base: Workspace,
    pub roles: Vec<Term>,
    pub symbols: Symbols,
}

/// What playing a move input changes: nothing (no gate reads it), its
/// cone's gates recomputed by a routine, or its cone's gates all set to 1.
#[derive(Clone, Copy, Debug)]
pub(super) enum Cone {
    Empty,
    Routine(usize),
    Raise,
}

impl CompiledGame {
    /// Why the network has no goals, if it has none: the prover answers them
    /// (once [`CompiledGame::answer_goals_by`] gave it).
    pub fn goals_left_out(&self) -> Option<&str> {
        self.goals_left_out.as_deref()
    }

    /// Has the prover of `plan` (tables `base`) answer goals, for a game whose
    /// network has none.
    pub(in crate::gdl) fn answer_goals_by(&mut self, goals: ProverGoals) {
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
    pub(in crate::gdl) fn sliced_circuit(&self) -> Result<&CompiledCircuit, String> {
        self.sliced
            .get_or_init(|| CompiledCircuit::new(&self.sliced_circuit, Layout::Sliced).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(Clone::clone)
    }

    pub(in crate::gdl) fn terminal_wire(&self) -> Wire {
        self.terminal
    }

    /// Per role, the goal values with the gate of each.
    pub(in crate::gdl) fn goal_wires(&self) -> &[Vec<(Option<u32>, Wire)>] {
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
