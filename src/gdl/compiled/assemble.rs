//! Assembling a compiled game: the optimised network's gates cut into
//! routines (state, goals, one per move input, emit) and handed to the
//! circuit compiler, with the fluents, legal moves and goals that read them.

use std::time::Duration;

use rustc_hash::FxHashMap;

use super::super::propnet::{Gate, GateId, Propnet, Size, goal_value};
use super::super::state::State;
use super::super::term::{Symbols, Term};
use super::game::{
    CompileReport, CompiledGame, Cone, EMIT, FIRST_INPUT, GOALS, GatesByKind, LegalMove, SLICED_GOALS, SLICED_NEXT,
    SLICED_STATE, STATE,
};
use crate::eval::jit::circuit::{Assign, Block, Circuit, CompiledCircuit, Layout, Op, Routine, Wire};

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

/// Wires of the compiled code, at most.
pub const MAX_WIRES: usize = 2_000_000;

/// Gates of one cyclic component, at most: the compiled code evaluates a
/// cycle by repeating it until nothing changes, which is slow for a large
/// recursion (hex's connectivity); the prover's semi-naive evaluation is
/// better there.
pub const MAX_CYCLE: usize = 2_000;

/// The routines, fluents, legal moves, goals and terminal of `net`.
pub(super) fn assemble(
    net: &Propnet,
    roles: &[Term],
    initial: &State,
    symbols: &Symbols,
) -> Result<CompiledGame, String> {
    let (fluents, bit_of) = fluents_of(net, initial);
    let gates = Gates::new(net, &bit_of)?;
    let mut routines = Routines::of(&gates, &bit_of)?;
    let (input_routine, cone_slots) = routines.add_input_cones(&gates);
    let initial_values = initial_values(&gates, &routines.baseline);

    let circuit = Circuit {
        n_values: gates.n_values as usize,
        n_state_bits: fluents.len().max(1),
        n_inputs: net.inputs.len(),
        routines: routines.packed,
    };
    check_size(&circuit)?;
    // The tables of moves and goals are made while the circuit compiles.
    let (compiled, tables) =
        compile_beside_tables(&circuit, || MoveTables::of(net, roles, symbols, &|g| gates.wire(g)));
    let compiled = compiled?;
    let MoveTables { input_of, legal, goals, terminal } = tables;
    let sliced_circuit = Circuit { routines: routines.sliced, ..circuit };
    if std::env::var_os("STRATAGEM_CIRCUIT_SIZES").is_some() {
        eprintln!("sliced circuit: {:?}", sliced_circuit.size());
    }
    static GAMES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let legal_wires: Vec<Vec<Wire>> = legal.iter().map(|moves| moves.iter().map(|m| m.wire).collect()).collect();
    let mut game = CompiledGame {
        id: GAMES.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        initial: Vec::new(),
        initial_values,
        input_routine,
        cone_slots,
        sliced_circuit,
        sliced: std::sync::OnceLock::new(),
        goals_left_out: None,
        prover_goals: None,
        circuit: compiled,
        fluents: fluents.into(),
        bit_of,
        legal_gates: legal_wires.iter().map(|wires| GatesByKind::of(wires)).collect(),
        legal_wires,
        legal,
        input_of,
        goals,
        terminal,
        report: CompileReport {
            grounding: Duration::ZERO,
            optimisation: Duration::ZERO,
            compilation: Duration::ZERO,
            raw: Size::default(),
            optimised: Size::default(),
            fluents: 0,
            functions: 0,
        },
    };
    game.initial = game.bits_of(initial).ok_or("the initial state has a fluent outside the network")?;
    Ok(game)
}

/// The fluents (every base and next proposition, and the initial state's),
/// sorted, and the bit of each.
fn fluents_of(net: &Propnet, initial: &State) -> (Vec<Term>, FxHashMap<Term, u32>) {
    let mut fluents: Vec<Term> = net.base.iter().chain(net.next.iter().map(|(f, _)| f)).cloned().collect();
    fluents.extend(initial.fluents().iter().cloned());
    fluents.sort_unstable();
    fluents.dedup();
    let bit_of: FxHashMap<Term, u32> = fluents.iter().enumerate().map(|(i, f)| (f.clone(), i as u32)).collect();
    (fluents, bit_of)
}

/// The network's gates as the assembler sees them: where each is read
/// from, what it serves, whether it reads a move, and how it is computed
/// when a move is played (in its inputs' cones, or shared).
struct Gates<'n> {
    net: &'n Propnet,
    /// Each gate's value slot: only AND, OR and NOT gates have one
    /// (`u32::MAX` for the others).
    slot: Vec<u32>,
    n_values: u32,
    /// The state bit of each base proposition.
    base_bits: Vec<u32>,
    /// Whether a gate depends on a move.
    reads_move: Vec<bool>,
    /// The gates legal and terminal need, goals need, and `next` needs.
    for_state: Vec<bool>,
    for_goals: Vec<bool>,
    for_next: Vec<bool>,
    /// ORs that read moves straight from their inputs only: playing a move
    /// sets them to 1, which needs no code however many cones they are in
    /// (amazons' "a queen lands here": ~900 moves each).
    raised_only: Vec<bool>,
    /// The readers of each gate that read moves, serve `next` and are not
    /// shared: the only gates the walks from the inputs visit.
    fanout: Vec<Vec<GateId>>,
    /// How many inputs' cones each gate is in (at least `ALWAYS_SHARED`
    /// when it is in more).
    in_cones: Vec<u32>,
    /// Cones a gate that costs code may be in and not be shared.
    share_limit: u32,
}

impl<'n> Gates<'n> {
    /// Sorts the gates of `net`, whose base propositions are the bits in
    /// `bit_of`; or says why the compiler refuses the network.
    fn new(net: &'n Propnet, bit_of: &FxHashMap<Term, u32>) -> Result<Gates<'n>, String> {
        let base_bits: Vec<u32> = net.base.iter().map(|f| bit_of[f]).collect();
        let (slot, n_values) = value_slots(net);
        let reads_move = reads_move(net);
        let for_state = reached_from(net, net.legal.iter().map(|l| l.2).chain(net.terminal));
        if let Some(g) = (0..net.gates.len()).find(|&g| for_state[g] && reads_move[g]) {
            return Err(format!("legal or terminal depends on a move (gate {g}); the compiler refuses such a network"));
        }
        let for_goals = reached_from(net, net.goals.iter().map(|g| g.2));
        if (0..net.gates.len()).any(|g| for_goals[g] && reads_move[g]) {
            return Err("a goal depends on a move; the compiler refuses such a network".to_owned());
        }
        let for_next = reached_from(net, net.next.iter().map(|n| n.1));
        let mut gates = Gates {
            net,
            slot,
            n_values,
            base_bits,
            reads_move,
            for_state,
            for_goals,
            for_next,
            raised_only: Vec::new(),
            fanout: Vec::new(),
            in_cones: Vec::new(),
            share_limit: u32::MAX,
        };
        gates.raised_only = gates.raised_only();
        gates.fanout = gates.move_fanout();
        gates.share_gates();
        Ok(gates)
    }

    /// The wire gate `g` is read through.
    fn wire(&self, g: GateId) -> Wire {
        match &self.net.gates[g] {
            Gate::Const(v) => Wire::Const(*v),
            Gate::Base(b) => Wire::StateBit(self.base_bits[*b]),
            Gate::Input(x) => Wire::Input(*x as u32),
            _ => Wire::Value(self.slot[g]),
        }
    }

    fn inputs_of(&self, g: GateId) -> &'n [GateId] {
        self.net.gates[g].inputs()
    }

    /// Whether gate `g` serves `next` and reads a move: what playing a
    /// move changes.
    fn moved(&self, g: GateId) -> bool {
        self.for_next[g] && self.reads_move[g]
    }

    /// Whether gate `g` needs code when a move is played.
    fn costs(&self, g: GateId) -> bool {
        self.moved(g) && !self.raised_only[g]
    }

    /// Whether gate `g` is recomputed once per joint move after the cones
    /// instead of in each cone it is in.
    fn shared(&self, g: GateId) -> bool {
        self.costs(g) && self.in_cones[g] > self.share_limit
    }

    fn raised_only(&self) -> Vec<bool> {
        let net = self.net;
        let mut raised_only = vec![false; net.gates.len()];
        for (members, _) in net.components().iter().filter(|(_, cyclic)| !cyclic) {
            for &g in members {
                if let Gate::Or(ins) = &net.gates[g] {
                    raised_only[g] = self.moved(g)
                        && ins.iter().all(|&x| matches!(net.gates[x], Gate::Input(_)) || !self.reads_move[x]);
                }
            }
        }
        raised_only
    }

    /// The readers of each gate that read moves and serve `next`.
    fn move_fanout(&self) -> Vec<Vec<GateId>> {
        let mut fanout: Vec<Vec<GateId>> = vec![Vec::new(); self.net.gates.len()];
        for g in (0..self.net.gates.len()).filter(|&g| self.moved(g)) {
            for &x in self.inputs_of(g) {
                fanout[x].push(g);
            }
        }
        fanout
    }

    /// How many inputs' cones each gate is in, and which gates are shared.
    /// A gate downstream of many moves (checkers' "a piece was captured")
    /// is copied into every one of their routines, and everything below it.
    /// When the copies would exceed `CONE_ASSIGNMENTS`, the gates in the
    /// most cones are `shared` instead: recomputed once per joint move
    /// after the cones (slower per move than a cone's update, but compiled
    /// once), and so are gates in `ALWAYS_SHARED` cones or more. Being in
    /// more cones passes down to a gate's readers, so no gate of a cone
    /// reads a shared one. Only gates that are not shared are in cones.
    fn share_gates(&mut self) {
        self.in_cones = cone_counts(self.net, &self.fanout, ALWAYS_SHARED);
        self.share_limit = share_limit(self.net, &self.in_cones, &|g| self.costs(g)).min(ALWAYS_SHARED - 1);
        let mut fanout = std::mem::take(&mut self.fanout);
        for readers in &mut fanout {
            readers.retain(|&z| !self.shared(z));
        }
        self.fanout = fanout;
    }
}

/// The value slot of each gate (only AND, OR and NOT gates have one, the
/// others `u32::MAX`), and how many there are.
fn value_slots(net: &Propnet) -> (Vec<u32>, u32) {
    let mut slot = vec![u32::MAX; net.gates.len()];
    let mut n_values = 0u32;
    for (g, gate) in net.gates.iter().enumerate() {
        if matches!(gate, Gate::And(_) | Gate::Or(_) | Gate::Not(_)) {
            slot[g] = n_values;
            n_values += 1;
        }
    }
    (slot, n_values)
}

/// Whether each gate depends on a move, component by component.
fn reads_move(net: &Propnet) -> Vec<bool> {
    let mut reads_move = vec![false; net.gates.len()];
    for (members, _) in net.components() {
        let any = members
            .iter()
            .any(|&g| matches!(net.gates[g], Gate::Input(_)) || net.gates[g].inputs().iter().any(|&x| reads_move[x]));
        for &g in members {
            reads_move[g] = any;
        }
    }
    reads_move
}

/// The gates `roots` read, directly or not, and the roots.
fn reached_from(net: &Propnet, roots: impl Iterator<Item = GateId>) -> Vec<bool> {
    let mut seen = vec![false; net.gates.len()];
    let mut stack: Vec<GateId> = roots.collect();
    while let Some(g) = stack.pop() {
        if !std::mem::replace(&mut seen[g], true) {
            stack.extend_from_slice(net.gates[g].inputs());
        }
    }
    seen
}

/// The routines of both circuits, and what the cones of the inputs need
/// to know of the components.
///
/// The gates that read moves are split in two. Their baseline, their
/// values when no move is played, is mostly constant (an AND with a
/// `does` is false): the rest is a function of the state, computed with
/// it. A played move changes only the gates downstream of its input: each
/// input gets a routine that recomputes its cone, run with the moves set
/// (giving the next state) and again with them cleared (restoring the
/// baseline).
struct Routines {
    /// The packed circuit's: state, goals, emit, then one per input cone.
    packed: Vec<Routine>,
    /// The sliced circuit's: state, goals, next.
    sliced: Vec<Routine>,
    /// The constant values of gates that read moves, when no move is played.
    baseline: Vec<Option<bool>>,
    /// The component of each gate, in evaluation order.
    position: Vec<usize>,
    /// Whether each gate's component is cyclic.
    cyclic_of: Vec<bool>,
}

impl Routines {
    /// Every component's assignments, sorted into the routines they
    /// belong to, and the next state's bits (fluent bits `bit_of`); or why
    /// the network cannot be compiled.
    fn of(gates: &Gates, bit_of: &FxHashMap<Term, u32>) -> Result<Routines, String> {
        let net = gates.net;
        let mut r = Routines {
            packed: vec![Routine::default(); FIRST_INPUT],
            sliced: vec![Routine::default(); 3],
            baseline: vec![None; net.gates.len()],
            position: vec![usize::MAX; net.gates.len()],
            cyclic_of: vec![false; net.gates.len()],
        };
        for (k, (members, cyclic)) in net.components().iter().enumerate() {
            r.add_component(gates, k, members, *cyclic)?;
        }
        r.packed[EMIT].outputs = net.next.iter().map(|(f, g)| (bit_of[f], gates.wire(*g))).collect();
        r.sliced[SLICED_NEXT].outputs = r.packed[EMIT].outputs.clone();
        Ok(r)
    }

    /// The assignments of component `k` (`members`), in each routine.
    fn add_component(&mut self, gates: &Gates, k: usize, members: &[GateId], cyclic: bool) -> Result<(), String> {
        let net = gates.net;
        let slot = &gates.slot;
        let mut state_assigns = Vec::new();
        let mut goal_assigns = Vec::new();
        let mut sliced_state_assigns = Vec::new();
        let mut next_assigns = Vec::new();
        let mut shared_assigns = Vec::new();
        for &g in members {
            self.position[g] = k;
            self.cyclic_of[g] = cyclic;
            let Some(op) = op_of(&net.gates[g], |x| gates.wire(x)) else { continue };
            if cyclic && matches!(op, Op::Not(_)) {
                return Err("negation inside a cycle of the network (not stratified)".to_owned());
            }
            if gates.shared(g) {
                next_assigns.push(Assign { target: slot[g], op: op.clone() });
                shared_assigns.push(Assign { target: slot[g], op });
            } else if gates.moved(g) {
                next_assigns.push(Assign { target: slot[g], op: op.clone() });
                let folded = op_of(&net.gates[g], |x| self.folded_wire(gates, x)).map(fold);
                match folded {
                    Some(Err(c)) if !cyclic => {
                        self.baseline[g] = Some(c);
                        continue;
                    }
                    Some(Err(c)) => state_assigns.push(Assign { target: slot[g], op: constant(c) }),
                    Some(Ok(op)) => state_assigns.push(Assign { target: slot[g], op }),
                    None => {}
                }
            } else if gates.for_state[g] || gates.for_next[g] {
                sliced_state_assigns.push(Assign { target: slot[g], op: op.clone() });
                state_assigns.push(Assign { target: slot[g], op });
            } else if gates.for_goals[g] {
                goal_assigns.push(Assign { target: slot[g], op });
            }
        }
        push_block(&mut self.packed[STATE], state_assigns, cyclic);
        push_block(&mut self.sliced[SLICED_GOALS], goal_assigns.clone(), cyclic);
        push_block(&mut self.packed[GOALS], goal_assigns, cyclic);
        push_block(&mut self.sliced[SLICED_STATE], sliced_state_assigns, cyclic);
        push_block(&mut self.sliced[SLICED_NEXT], next_assigns, cyclic);
        push_block(&mut self.packed[EMIT], shared_assigns, cyclic);
        Ok(())
    }

    /// The wire of gate `g` with no move played: inputs are off, and a
    /// gate that reads moves is its baseline where that is constant.
    fn folded_wire(&self, gates: &Gates, g: GateId) -> Wire {
        match (&gates.net.gates[g], self.baseline[g]) {
            (Gate::Input(_), _) => Wire::Const(false),
            (_, Some(c)) if gates.moved(g) => Wire::Const(c),
            _ => gates.wire(g),
        }
    }

    /// Finds every input's cone and adds the routines of those that need
    /// code: what playing each input does, and the slots of its cone.
    fn add_input_cones(&mut self, gates: &Gates) -> (Vec<Cone>, Vec<Vec<u32>>) {
        let net = gates.net;
        let (input_gates, found) = find_cones(gates, &self.position, &self.cyclic_of);
        let mut input_routine = vec![Cone::Empty; net.inputs.len()];
        let mut cone_slots = vec![Vec::new(); net.inputs.len()];
        for (&(_, x), (slots, routine)) in input_gates.iter().zip(found) {
            if slots.is_empty() {
                continue;
            }
            cone_slots[x] = slots;
            input_routine[x] = match routine {
                None => Cone::Raise,
                Some(routine) => {
                    self.packed.push(routine);
                    Cone::Routine(self.packed.len() - 1)
                }
            };
        }
        (input_routine, cone_slots)
    }
}

/// Gate values before any state is loaded: the constant baselines.
fn initial_values(gates: &Gates, baseline: &[Option<bool>]) -> Vec<u8> {
    let slot = &gates.slot;
    let mut initial_values = vec![0u8; gates.n_values as usize];
    for (g, c) in baseline.iter().enumerate() {
        if let (Some(c), true) = (c, slot[g] != u32::MAX) {
            initial_values[slot[g] as usize] = u8::from(*c);
        }
    }
    initial_values
}

// Each input's cone, in evaluation order. Playing a move raises its input
// from 0 to 1 in a state whose values are all correct, so a gate that every
// path from the input reaches without negation (`UP`) can only rise: an OR
// whose inputs in the cone all rise is updated from those alone, which
// keeps wide ORs (GDL's frame axioms) cheap. An AND whose inputs in the
// cone all fall (`DOWN`) likewise.
const UP: u8 = 1;
const DOWN: u8 = 2;
const MIXED: u8 = 3;

/// The cone of the input gate `g`: its gates' slots, and its routine unless
/// it only raises them. Gates of the cone that a played move surely sets
/// (ORs that read the input, or another such OR) are `raised`; a cone of
/// such gates only (amazons' "a piece lands here") needs no code: its slots
/// are set to 1. `polarity` and `raised` are all clear between calls.
fn input_cone(
    gates: &Gates,
    position: &[usize],
    cyclic_of: &[bool],
    g: GateId,
    polarity: &mut [u8],
    raised: &mut [bool],
) -> FoundCone {
    let net = gates.net;
    let mut cone = Vec::new();
    // Each cone gate's inputs in the cone, as (gate, input) pairs: a
    // wide OR's other inputs are not looked at.
    let mut reads = Vec::new();
    let mut stack = vec![g];
    polarity[g] = UP;
    while let Some(y) = stack.pop() {
        for &z in &gates.fanout[y] {
            reads.push((z, y));
            if polarity[z] == 0 {
                polarity[z] = MIXED;
                cone.push(z);
                stack.push(z);
            }
        }
    }
    cone.sort_unstable_by_key(|&z| (position[z], z));
    reads.sort_unstable();
    let mut routine = Routine::default();
    let mut all_raised = true;
    for same in cone.chunk_by(|a, b| position[*a] == position[*b]) {
        let cyclic = cyclic_of[same[0]];
        let mut assigns = Vec::new();
        for &z in same {
            let from = reads.partition_point(|&(r, _)| r < z);
            let to = reads.partition_point(|&(r, _)| r <= z);
            // In the order of the gate's inputs, which are sorted.
            let in_cone: Vec<GateId> = reads[from..to].iter().map(|&(_, i)| i).collect();
            let mut p = 0;
            for &i in &in_cone {
                let q = match (&net.gates[z], polarity[i]) {
                    (Gate::Not(_), UP) => DOWN,
                    (Gate::Not(_), DOWN) => UP,
                    (_, q) => q,
                };
                p = if p == 0 || p == q { q } else { MIXED };
            }
            polarity[z] = if cyclic { MIXED } else { p };
            let target = gates.slot[z];
            let all = |want: u8| in_cone.iter().all(|&i| polarity[i] == want);
            raised[z] = matches!(net.gates[z], Gate::Or(_))
                && !cyclic
                && all(UP)
                && in_cone.iter().any(|&i| i == g || raised[i]);
            all_raised &= raised[z];
            let op = match &net.gates[z] {
                Gate::Or(_) if !cyclic && all(UP) => {
                    Op::Or(std::iter::once(Wire::Value(target)).chain(in_cone.iter().map(|&i| gates.wire(i))).collect())
                }
                Gate::And(_) if !cyclic && all(DOWN) => Op::And(
                    std::iter::once(Wire::Value(target)).chain(in_cone.iter().map(|&i| gates.wire(i))).collect(),
                ),
                other => match op_of(other, |x| gates.wire(x)) {
                    Some(op) => op,
                    None => continue,
                },
            };
            assigns.push(Assign { target, op });
        }
        push_block(&mut routine, assigns, cyclic);
    }
    polarity[g] = 0;
    for &z in &cone {
        polarity[z] = 0;
        raised[z] = false;
    }
    let slots = cone.iter().map(|&z| gates.slot[z]).collect();
    (slots, (!all_raised).then_some(routine))
}

/// The input gates (with their input numbers) and the cone of each, in
/// input order. Cones are found apart from each other, so threads take
/// blocks of inputs in turn; the routines are numbered after.
fn find_cones(gates: &Gates, position: &[usize], cyclic_of: &[bool]) -> (Vec<(GateId, usize)>, Vec<FoundCone>) {
    let net = gates.net;
    let input_gates: Vec<(GateId, usize)> = net
        .gates
        .iter()
        .enumerate()
        .filter_map(|(g, gate)| if let Gate::Input(x) = gate { Some((g, *x)) } else { None })
        .collect();
    let blocks: Vec<&[(GateId, usize)]> = input_gates.chunks(CONE_BLOCK).collect();
    let next_block = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let (mut polarity, mut raised) = (vec![0u8; net.gates.len()], vec![false; net.gates.len()]);
        let mut done = Vec::new();
        loop {
            let b = next_block.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(block) = blocks.get(b) else { return done };
            let cones =
                block.iter().map(|&(g, _)| input_cone(gates, position, cyclic_of, g, &mut polarity, &mut raised));
            done.push((b, cones.collect::<Vec<_>>()));
        }
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(blocks.len()).max(1);
    let mut found: Vec<(usize, Vec<FoundCone>)> = std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
        let mut found = work();
        for h in helpers {
            match h.join() {
                Ok(done) => found.extend(done),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        found
    });
    found.sort_unstable_by_key(|(b, _)| *b);
    let cones = found.into_iter().flat_map(|(_, cones)| cones).collect();
    (input_gates, cones)
}

/// Refuses a circuit too large for the compiler, or with a cycle too large
/// to evaluate by rounds.
fn check_size(circuit: &Circuit) -> Result<(), String> {
    let (_, wires, largest_cycle) = circuit.size();
    if std::env::var_os("STRATAGEM_CIRCUIT_SIZES").is_some() {
        eprintln!("circuit: {:?}", circuit.size());
    }
    if wires > MAX_WIRES {
        return Err(format!(
            "its compiled code would read {wires} wires, more than the {MAX_WIRES} the compiler takes"
        ));
    }
    if largest_cycle > MAX_CYCLE {
        return Err(format!(
            "its rules recurse through {largest_cycle} ground rules at once, more than the {MAX_CYCLE} the compiled engine evaluates by rounds"
        ));
    }
    Ok(())
}

/// Compiles the packed `circuit` while another thread makes `tables`.
fn compile_beside_tables(
    circuit: &Circuit,
    tables: impl Fn() -> MoveTables + Send + Copy,
) -> (Result<CompiledCircuit, String>, MoveTables) {
    std::thread::scope(|s| {
        let helper = std::thread::Builder::new().name("tables".to_owned()).spawn_scoped(s, tables);
        let compiled = CompiledCircuit::new(circuit, Layout::Packed).map_err(|e| e.to_string());
        let tables = match helper {
            Ok(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => tables(),
        };
        (compiled, tables)
    })
}

/// What the compiled game reads the circuit's values through: each role's
/// move inputs by move, legal moves (in canonical text order), goals, and
/// terminal.
struct MoveTables {
    input_of: Vec<FxHashMap<Term, u32>>,
    legal: Vec<Vec<LegalMove>>,
    goals: Vec<Vec<(Option<u32>, Wire)>>,
    terminal: Wire,
}

impl MoveTables {
    fn of(net: &Propnet, roles: &[Term], symbols: &Symbols, wire: &(impl Fn(GateId) -> Wire + Sync)) -> MoveTables {
        let role_index = |r: &Term| roles.iter().position(|x| x == r);
        let mut input_of = vec![FxHashMap::default(); roles.len()];
        for (x, (r, m)) in net.inputs.iter().enumerate() {
            if let Some(r) = role_index(r) {
                input_of[r].insert(m.clone(), x as u32);
            }
        }
        let mut legal: Vec<Vec<LegalMove>> = vec![Vec::new(); roles.len()];
        for (r, m, g) in &net.legal {
            let w = wire(*g);
            if let (Some(ri), false) = (role_index(r), w == Wire::Const(false)) {
                legal[ri].push(LegalMove { mv: m.clone(), wire: w, input: input_of[ri].get(m).copied() });
            }
        }
        // In canonical text order, as users see moves: the machine's sorted
        // answers then need no sorting per state.
        for moves in &mut legal {
            moves.sort_by_cached_key(|m| m.mv.text(symbols));
        }
        let mut goals: Vec<Vec<(Option<u32>, Wire)>> = vec![Vec::new(); roles.len()];
        for (r, v, g) in &net.goals {
            let w = wire(*g);
            if let (Some(ri), false) = (role_index(r), w == Wire::Const(false)) {
                goals[ri].push((goal_value(symbols, v), w));
            }
        }
        let terminal = net.terminal.map_or(Wire::Const(false), wire);
        MoveTables { input_of, legal, goals, terminal }
    }
}

/// An input's cone: the slots of its gates, and its routine unless playing
/// the input only raises them.
type FoundCone = (Vec<u32>, Option<Routine>);

/// How many inputs' cones each gate is in, given the readers of each gate
/// that read moves (`fanout`):
/// exact below `cap`, at least `cap` otherwise. A walk from an input does not
/// go below a gate already in `cap` cones: every input reaching a gate
/// reaches its readers, so they are already in `cap` cones or more.
fn cone_counts(net: &Propnet, fanout: &[Vec<GateId>], cap: u32) -> Vec<u32> {
    let mut in_cones = vec![0u32; net.gates.len()];
    let mut seen = vec![usize::MAX; net.gates.len()];
    let mut stack = Vec::new();
    for (g, gate) in net.gates.iter().enumerate() {
        let Gate::Input(_) = gate else { continue };
        stack.push(g);
        while let Some(y) = stack.pop() {
            for &z in &fanout[y] {
                if seen[z] != g {
                    seen[z] = g;
                    in_cones[z] = in_cones[z].saturating_add(1);
                    if in_cones[z] <= cap {
                        stack.push(z);
                    }
                }
            }
        }
    }
    in_cones
}

/// The number of cones above which a gate is shared: the gates in the
/// fewest cones stay in their cones' routines while their copies add up to
/// at most `CONE_ASSIGNMENTS`.
fn share_limit(net: &Propnet, in_cones: &[u32], moved: &dyn Fn(GateId) -> bool) -> u32 {
    let mut counts: Vec<u32> = (0..net.gates.len()).filter(|&g| moved(g)).map(|g| in_cones[g]).collect();
    counts.sort_unstable();
    let mut total = 0usize;
    for &c in &counts {
        total += c as usize;
        if total > CONE_ASSIGNMENTS {
            // Every gate in `c` or more cones is shared.
            return c.saturating_sub(1);
        }
    }
    u32::MAX
}

/// The operation of an AND, OR or NOT gate, with wires from `wire`.
fn op_of(gate: &Gate, wire: impl Fn(GateId) -> Wire) -> Option<Op> {
    match gate {
        Gate::And(ins) => Some(Op::And(ins.iter().map(|&x| wire(x)).collect())),
        Gate::Or(ins) => Some(Op::Or(ins.iter().map(|&x| wire(x)).collect())),
        Gate::Not(x) => Some(Op::Not(wire(*x))),
        _ => None,
    }
}

/// An operation with its constant wires folded: the simpler operation, or
/// the constant it always gives.
fn fold(op: Op) -> Result<Op, bool> {
    let (ws, and) = match op {
        Op::Not(Wire::Const(c)) => return Err(!c),
        Op::Not(w) => return Ok(Op::Not(w)),
        Op::And(ws) => (ws, true),
        Op::Or(ws) => (ws, false),
    };
    // An AND is decided by a false input, an OR by a true one.
    if ws.contains(&Wire::Const(!and)) {
        return Err(!and);
    }
    let kept: Vec<Wire> = ws.into_iter().filter(|w| !matches!(w, Wire::Const(_))).collect();
    match (kept.is_empty(), and) {
        (true, _) => Err(and),
        (false, true) => Ok(Op::And(kept)),
        (false, false) => Ok(Op::Or(kept)),
    }
}

fn constant(c: bool) -> Op {
    if c { Op::And(Vec::new()) } else { Op::Or(Vec::new()) }
}

/// Appends assignments to a routine: a cyclic component is a block of its
/// own, straight ones join the block before.
fn push_block(routine: &mut Routine, assigns: Vec<Assign>, cyclic: bool) {
    if assigns.is_empty() {
        return;
    }
    match (routine.blocks.last_mut(), cyclic) {
        (_, true) => routine.blocks.push(Block::Fixpoint(assigns)),
        (Some(Block::Straight(run)), false) => run.extend(assigns),
        (_, false) => routine.blocks.push(Block::Straight(assigns)),
    }
}
