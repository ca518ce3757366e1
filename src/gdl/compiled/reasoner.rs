//! One thread's view of a compiled game: one state loaded at a time, its
//! gate values kept, and a joint move played by running the cones of its
//! inputs and restoring the values they changed.

use super::super::goals::{goal_values, single_goal};
use super::super::prover::{ProverError, Workspace};
use super::game::{CompiledGame, Cone, EMIT, GOALS, STATE};
use crate::eval::jit::circuit::Wire;

impl CompiledGame {
    /// A reasoner over this game, for one thread.
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
