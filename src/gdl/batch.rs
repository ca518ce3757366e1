//! Random playouts 64 at a time on the compiled engine's sliced circuit:
//! every gate value is a word whose bit `l` belongs to the game in lane `l`,
//! so one pass of the network advances 64 independent games. A lane whose
//! game ends takes the next playout at once, so the lanes stay full until
//! no more playouts are wanted. This is what Monte Carlo players and
//! `gdl playouts` need: many games from one state, each with its own random
//! moves, where only the goals at the end matter.

use rand::{Rng, RngExt};

use super::compiled::{CompiledGame, SLICED_GOALS, SLICED_NEXT, SLICED_STATE};
use super::goals::single_goal;
use crate::eval::jit::circuit::{CompiledCircuit, LANES, Wire};

/// Playouts stop after this many joint moves even if no terminal state comes.
pub const MAX_PLAYOUT_STEPS: usize = 10_000;

/// A role with no legal move in a state that is not terminal (a bug of the
/// game's rules): the index of the role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoLegalMove(pub usize);

/// What a lane of [`Batch::expand`] answers about its state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneAnswer {
    pub terminal: bool,
    /// Per role, the indices of its legal moves (into
    /// [`CompiledGame::legal_moves_of`]).
    pub legal: Vec<Vec<u32>>,
    /// Per role, as [`super::compiled::NetReasoner::goals`].
    pub goals: Vec<Option<u32>>,
    /// The next state's bits, for a lane given a joint move.
    pub next: Option<Vec<u64>>,
}

/// One thread's batch of 64 lanes over a compiled game.
pub struct Batch<'g> {
    game: &'g CompiledGame,
    circuit: &'g CompiledCircuit,
    values: Vec<u64>,
    /// One word per fluent: bit `l` says whether the fluent holds in lane `l`.
    state: Vec<u64>,
    next: Vec<u64>,
    inputs: Vec<u64>,
    /// Joint moves played so far in each lane's game.
    steps: [u32; LANES],
    /// Per lane, the indices of the legal moves of the role being chosen for.
    legal: Vec<Vec<u32>>,
    /// Finished games whose goals are still to be read, as lanes of a state
    /// of their own: goals can cost far more than a step (othello counts
    /// discs), so they are read 64 games at a time.
    ended: Ended,
    /// Per lane and role, how many goal values hold and the last one.
    goals: Vec<(u8, Option<u32>)>,
}

/// Finished games waiting for their goals.
struct Ended {
    values: Vec<u64>,
    state: Vec<u64>,
    lanes: u64,
    steps: [u32; LANES],
}

impl<'g> Batch<'g> {
    /// A batch over `game`, compiling its sliced circuit if that has not
    /// been done; or why it cannot be compiled, or why its lanes could not
    /// read goals (a game whose goals the prover answers).
    pub fn new(game: &'g CompiledGame) -> Result<Batch<'g>, String> {
        if let Some(why) = game.goals_left_out() {
            return Err(format!("the prover answers its goals: {why}"));
        }
        let circuit = game.sliced_circuit()?;
        Ok(Batch {
            game,
            circuit,
            values: vec![0; circuit.n_values()],
            state: vec![0; circuit.n_state_bits()],
            next: vec![0; circuit.n_state_bits()],
            inputs: vec![0; circuit.n_inputs()],
            steps: [0; LANES],
            legal: vec![Vec::new(); LANES],
            ended: Ended {
                values: vec![0; circuit.n_values()],
                state: vec![0; circuit.n_state_bits()],
                lanes: 0,
                steps: [0; LANES],
            },
            goals: vec![(0, None); LANES * game.n_roles()],
        })
    }

    /// Plays uniformly random games from the state `start` (a packed bit
    /// set, as [`CompiledGame::initial_bits`]), asking `more` before each
    /// one whether another is wanted, and calls `finished` with each game's
    /// goal values (per role, `None` unless exactly one integer goal holds)
    /// and length. A game that reaches [`MAX_PLAYOUT_STEPS`] joint moves
    /// ends there. Returns the joint moves played over all games.
    pub fn playouts(
        &mut self,
        start: &[u64],
        rng: &mut impl Rng,
        mut more: impl FnMut() -> bool,
        mut finished: impl FnMut(&[Option<u32>], u32),
    ) -> Result<u64, NoLegalMove> {
        let n_roles = self.game.n_roles();
        let start_bits: Vec<usize> = (0..self.state.len()).filter(|&b| start[b / 64] >> (b % 64) & 1 != 0).collect();
        let mut expansions = 0u64;
        let mut active = 0u64;
        let mut fresh = start_lanes(u64::MAX, &mut more);
        let mut touched: Vec<u32> = Vec::new();
        loop {
            if fresh != 0 {
                for word in &mut self.state {
                    *word &= !fresh;
                }
                for &b in &start_bits {
                    self.state[b] |= fresh;
                }
                for l in lanes(fresh) {
                    self.steps[l] = 0;
                }
                active |= fresh;
            }
            if active == 0 {
                self.read_ended(&mut finished);
                return Ok(expansions);
            }
            self.circuit.run_sliced(SLICED_STATE, &mut self.values, &self.state, &self.inputs, &mut self.next);
            let mut done = word(self.game.terminal_wire(), &self.values, &self.state) & active;
            for l in lanes(active) {
                if self.steps[l] as usize >= MAX_PLAYOUT_STEPS {
                    done |= 1 << l;
                }
            }
            for l in lanes(done) {
                self.end(l, &mut finished);
            }
            active &= !done;
            if active != 0 {
                for r in 0..n_roles {
                    self.choose(r, active, rng, &mut touched)?;
                }
                self.circuit.run_sliced(SLICED_NEXT, &mut self.values, &self.state, &self.inputs, &mut self.next);
                for &x in &touched {
                    self.inputs[x as usize] = 0;
                }
                touched.clear();
                std::mem::swap(&mut self.state, &mut self.next);
                for l in lanes(active) {
                    self.steps[l] += 1;
                }
                expansions += u64::from(active.count_ones());
            }
            fresh = if done != 0 { start_lanes(done, &mut more) } else { 0 };
        }
    }

    /// Answers, for up to 64 states at once (packed bit sets), whether each
    /// is terminal, its legal moves and goals, and the next state of the
    /// joint move given for it (move indices per role, as
    /// [`super::compiled::NetReasoner::next_by_index`]).
    ///
    /// # Panics
    /// If more than 64 states are given, or `joint` is not as long as
    /// `states` (bugs of the caller).
    pub fn expand(&mut self, states: &[&[u64]], joint: &[Option<&[u32]>]) -> Vec<LaneAnswer> {
        assert!(
            states.len() <= LANES && joint.len() == states.len(),
            "{} states, {} joint moves",
            states.len(),
            joint.len()
        );
        let game = self.game;
        self.state.fill(0);
        for (l, bits) in states.iter().enumerate() {
            for (b, word) in self.state.iter_mut().enumerate() {
                *word |= (bits[b / 64] >> (b % 64) & 1) << l;
            }
        }
        self.circuit.run_sliced(SLICED_STATE, &mut self.values, &self.state, &self.inputs, &mut self.next);
        let mut answers: Vec<LaneAnswer> = (0..states.len())
            .map(|l| LaneAnswer {
                terminal: word(game.terminal_wire(), &self.values, &self.state) >> l & 1 != 0,
                legal: (0..game.n_roles())
                    .map(|r| {
                        let moves = game.legal_moves_of(r).iter().enumerate();
                        moves
                            .filter(|(_, m)| word(m.wire, &self.values, &self.state) >> l & 1 != 0)
                            .map(|(i, _)| i as u32)
                            .collect()
                    })
                    .collect(),
                goals: Vec::new(),
                next: None,
            })
            .collect();
        self.circuit.run_sliced(SLICED_GOALS, &mut self.values, &self.state, &self.inputs, &mut self.next);
        for (l, answer) in answers.iter_mut().enumerate() {
            answer.goals = game
                .goal_wires()
                .iter()
                .map(|values| {
                    single_goal(values.iter().filter(|(_, w)| word(*w, &self.values, &self.state) >> l & 1 != 0))
                })
                .collect();
        }
        let mut moved = 0u64;
        for (l, choices) in joint.iter().enumerate() {
            let Some(choices) = choices else { continue };
            moved |= 1 << l;
            for (r, &i) in choices.iter().enumerate() {
                if let Some(x) = game.legal_moves_of(r)[i as usize].input {
                    self.inputs[x as usize] |= 1 << l;
                }
            }
        }
        if moved != 0 {
            self.circuit.run_sliced(SLICED_NEXT, &mut self.values, &self.state, &self.inputs, &mut self.next);
            self.inputs.fill(0);
            for l in lanes(moved) {
                let mut bits = vec![0u64; self.next.len().div_ceil(64)];
                for (b, word) in self.next.iter().enumerate() {
                    bits[b / 64] |= (word >> l & 1) << (b % 64);
                }
                answers[l].next = Some(bits);
            }
        }
        answers
    }

    /// Moves lane `l`'s finished game to the games waiting for goals,
    /// reading theirs first if all 64 places are taken.
    fn end(&mut self, l: usize, finished: &mut impl FnMut(&[Option<u32>], u32)) {
        if self.ended.lanes == u64::MAX {
            self.read_ended(finished);
        }
        let place = (!self.ended.lanes).trailing_zeros() as usize;
        for (to, from) in self.ended.state.iter_mut().zip(&self.state) {
            *to = (*to & !(1 << place)) | ((from >> l & 1) << place);
        }
        self.ended.lanes |= 1 << place;
        self.ended.steps[place] = self.steps[l];
    }

    /// Reads the goals of the games waiting for them and reports each game.
    fn read_ended(&mut self, finished: &mut impl FnMut(&[Option<u32>], u32)) {
        let done = std::mem::take(&mut self.ended.lanes);
        if done == 0 {
            return;
        }
        let ended = &mut self.ended;
        self.circuit.run_sliced(SLICED_STATE, &mut ended.values, &ended.state, &self.inputs, &mut self.next);
        self.circuit.run_sliced(SLICED_GOALS, &mut ended.values, &ended.state, &self.inputs, &mut self.next);
        let n_roles = self.game.n_roles();
        for l in lanes(done) {
            self.goals[l * n_roles..(l + 1) * n_roles].fill((0, None));
        }
        for (r, values) in self.game.goal_wires().iter().enumerate() {
            for &(v, w) in values {
                for l in lanes(word(w, &ended.values, &ended.state) & done) {
                    let slot = &mut self.goals[l * n_roles + r];
                    // A goal whose value is no integer holds but gives no
                    // value, as in the packed engine.
                    *slot = (slot.0.saturating_add(1), v);
                }
            }
        }
        let mut outcome = vec![None; n_roles];
        for l in lanes(done) {
            for (r, slot) in outcome.iter_mut().enumerate() {
                *slot = match self.goals[l * n_roles + r] {
                    (1, v) => v,
                    _ => None,
                };
            }
            finished(&outcome, ended.steps[l]);
        }
    }

    /// Picks a uniformly random legal move of role `role` in each lane of
    /// `live` and raises its input in that lane.
    fn choose(
        &mut self,
        role: usize,
        live: u64,
        rng: &mut impl Rng,
        touched: &mut Vec<u32>,
    ) -> Result<(), NoLegalMove> {
        for l in lanes(live) {
            self.legal[l].clear();
        }
        let moves = self.game.legal_moves_of(role);
        for (i, m) in moves.iter().enumerate() {
            for l in lanes(word(m.wire, &self.values, &self.state) & live) {
                self.legal[l].push(i as u32);
            }
        }
        for l in lanes(live) {
            let list = &self.legal[l];
            if list.is_empty() {
                return Err(NoLegalMove(role));
            }
            let i = list[rng.random_range(0..list.len())];
            if let Some(x) = moves[i as usize].input {
                if self.inputs[x as usize] == 0 {
                    touched.push(x);
                }
                self.inputs[x as usize] |= 1 << l;
            }
        }
        Ok(())
    }
}

/// The lanes of `free`, lowest first, that get a new game while `more`
/// wants one.
fn start_lanes(free: u64, more: &mut impl FnMut() -> bool) -> u64 {
    let mut started = 0;
    for l in lanes(free) {
        if !more() {
            break;
        }
        started |= 1 << l;
    }
    started
}

/// A wire's lanes, with gate values `values` of the state `state`. Legal,
/// terminal and goal wires never read an input.
fn word(wire: Wire, values: &[u64], state: &[u64]) -> u64 {
    match wire {
        Wire::Value(i) => values[i as usize],
        Wire::StateBit(b) => state[b as usize],
        Wire::Input(_) => 0,
        Wire::Const(c) => 0u64.wrapping_sub(u64::from(c)),
    }
}

/// The lanes whose bits are set in `mask`, lowest first.
fn lanes(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let l = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            l
        })
    })
}
