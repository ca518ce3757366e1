//! The propositional network of a ground program: one gate per ground atom
//! (an OR of its rules), per rule of two literals or more (an AND of them; a
//! rule of one is that literal) and per atom read negatively (a NOT), with
//! `true` atoms as base inputs and `does` atoms as move inputs; static atoms
//! are constants and the rules they decide are left out. Optimised in one
//! pass over the gates in dependency order: constants propagate,
//! single-input gates and double negations become their input, ANDs under
//! an OR that share inputs are factored, and each gate is made once
//! (identical gates merge); gates no output (legal, goal, terminal, next)
//! reads are dropped.
//!
//! Ground recursion makes cycles; gates are evaluated in strongly connected
//! components, in dependency order, a cyclic component until nothing
//! changes (GDL's least fixpoint, since its negations are stratified).

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

mod simplify;

use super::description as d;
use super::ground::Grounding;
use super::term::{Sym, Term};
use simplify::Simplifier;

pub type GateId = usize;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Gate {
    Const(bool),
    /// A fluent of the state (`(true X)`), by its index in `base`.
    Base(usize),
    /// A move of a role (`(does R M)`), by its index in `inputs`.
    Input(usize),
    And(Vec<GateId>),
    Or(Vec<GateId>),
    Not(GateId),
}

/// Gate counts by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    pub gates: usize,
    pub and: usize,
    pub or: usize,
    pub not: usize,
    pub edges: usize,
}

#[derive(Clone, Debug)]
pub struct Propnet {
    pub gates: Vec<Gate>,
    pub base: Vec<Term>,
    pub inputs: Vec<(Term, Term)>,
    pub legal: Vec<(Term, Term, GateId)>,
    pub goals: Vec<(Term, Term, GateId)>,
    pub terminal: Option<GateId>,
    pub next: Vec<(Term, GateId)>,
    /// Gates in components, dependency order, with whether each is cyclic;
    /// found on first use (a network as grounded is usually only optimised).
    order: OnceLock<Vec<(Vec<GateId>, bool)>>,
}

impl Propnet {
    /// The network of `g`, as grounded (static atoms are constants, and the
    /// rules they falsify are left out).
    pub fn new(g: &Grounding) -> Propnet {
        // At most a NOT per atom and a shared prefix per rule beside the
        // atoms and rules: room for all, so the vector is never moved.
        let mut gates: Vec<Gate> = Vec::with_capacity(2 * (g.atoms.len() + g.rules.len()));
        let mut base = Vec::new();
        let mut inputs = Vec::new();
        // Atom gates first (ids = atom ids), filled in below.
        for (atom, value) in g.atoms.iter().zip(&g.static_value) {
            let gate = match (value, atom.0) {
                (Some(v), _) => Gate::Const(*v),
                (None, d::TRUE) if atom.1.len() == 1 => {
                    base.push(atom.1[0].clone());
                    Gate::Base(base.len() - 1)
                }
                (None, d::DOES) if atom.1.len() == 2 => {
                    inputs.push((atom.1[0].clone(), atom.1[1].clone()));
                    Gate::Input(inputs.len() - 1)
                }
                _ => Gate::Or(Vec::new()),
            };
            gates.push(gate);
        }
        // One NOT per atom read negatively, shared by its readers.
        let mut negation: Vec<Option<GateId>> = vec![None; g.atoms.len()];
        let mut rows: Vec<(GateId, Vec<GateId>)> = Vec::new();
        for group in groups(g) {
            rows.clear();
            for rule in &g.rules[group] {
                let decided = |a: &usize, holds: bool| g.static_value[*a] == Some(!holds);
                if !matches!(gates[rule.head], Gate::Or(_))
                    || g.positive(rule).iter().any(|a| decided(a, true))
                    || g.negative(rule).iter().any(|a| decided(a, false))
                {
                    continue;
                }
                let open = |a: &&usize| g.static_value[**a].is_none();
                let mut ins: Vec<GateId> = g.positive(rule).iter().filter(open).copied().collect();
                for &n in g.negative(rule).iter().filter(open) {
                    let not = *negation[n].get_or_insert_with(|| {
                        gates.push(Gate::Not(n));
                        gates.len() - 1
                    });
                    ins.push(not);
                }
                rows.push((rule.head, ins));
            }
            // The rules' conjunctions, a shared prefix made once.
            let shared = shared_prefix(&rows);
            let mut prefix_gate: Vec<GateId> = vec![usize::MAX; shared.as_ref().map_or(0, |s| s.count)];
            for (r, (head, mut ins)) in rows.drain(..).enumerate() {
                if let Some(s) = &shared {
                    let p = &mut prefix_gate[s.id[r] as usize];
                    if *p == usize::MAX {
                        gates.push(Gate::And(ins[..s.len].to_vec()));
                        *p = gates.len() - 1;
                    }
                    ins.splice(..s.len, [*p]);
                }
                // A rule of one literal is that literal: no AND for it.
                let body = match ins.as_slice() {
                    &[one] => one,
                    _ => {
                        gates.push(Gate::And(ins));
                        gates.len() - 1
                    }
                };
                if let Gate::Or(ins) = &mut gates[head] {
                    ins.push(body);
                }
            }
        }
        let mut net = Propnet {
            gates,
            base,
            inputs,
            legal: Vec::new(),
            goals: Vec::new(),
            terminal: None,
            next: Vec::new(),
            order: OnceLock::new(),
        };
        for (a, atom) in g.atoms.iter().enumerate() {
            match (atom.0, atom.1.as_slice()) {
                (d::LEGAL, [r, m]) => net.legal.push((r.clone(), m.clone(), a)),
                (d::GOAL, [r, v]) => net.goals.push((r.clone(), v.clone(), a)),
                (d::TERMINAL, []) => net.terminal = Some(a),
                (d::NEXT, [f]) => net.next.push((f.clone(), a)),
                _ => {}
            }
        }
        net
    }

    /// Gates in strongly connected components of the gate graph, in
    /// dependency order, with whether each component is cyclic.
    pub fn components(&self) -> &[(Vec<GateId>, bool)] {
        self.order.get_or_init(|| components(&self.gates))
    }

    pub fn size(&self) -> Size {
        let mut s = Size::default();
        for gate in &self.gates {
            s.gates += 1;
            s.edges += inputs(gate).len();
            match gate {
                Gate::And(_) => s.and += 1,
                Gate::Or(_) => s.or += 1,
                Gate::Not(_) => s.not += 1,
                _ => {}
            }
        }
        s
    }

    /// Constant propagation, factoring of shared inputs, merging of
    /// identical gates and removal of gates no output reads; returns the
    /// optimised network, its gates numbered in dependency order.
    pub fn optimised(&self) -> Propnet {
        let mut s = Simplifier::new(self.gates.len());
        let mut visit = |members: &[GateId], cyclic: bool| {
            if cyclic {
                s.cyclic(&self.gates, members);
            } else {
                let id = s.acyclic(&self.gates[members[0]]);
                s.rep[members[0]] = id;
            }
        };
        match self.order.get() {
            Some(order) => order.iter().for_each(|(members, cyclic)| visit(members, *cyclic)),
            None => each_component(&self.gates, visit),
        }
        let outputs = self
            .legal
            .iter()
            .map(|l| l.2)
            .chain(self.goals.iter().map(|g| g.2))
            .chain(self.terminal)
            .chain(self.next.iter().map(|n| n.1))
            .map(|x| s.rep[x]);
        let (gates, new_id) = live(std::mem::take(&mut s.gates), outputs);
        let map = |x: GateId| new_id[s.rep[x]];
        Propnet {
            base: self.base.clone(),
            inputs: self.inputs.clone(),
            legal: self.legal.iter().map(|(r, m, g)| (r.clone(), m.clone(), map(*g))).collect(),
            goals: self.goals.iter().map(|(r, v, g)| (r.clone(), v.clone(), map(*g))).collect(),
            terminal: self.terminal.map(map),
            next: self.next.iter().map(|(f, g)| (f.clone(), map(*g))).collect(),
            order: OnceLock::from(components(&gates)),
            gates,
        }
    }

    /// Evaluates every gate for a state (which base fluents hold) and the
    /// moves played (which inputs hold), into `values`.
    pub fn evaluate(&self, base: &[bool], inputs: &[bool], values: &mut Vec<bool>) {
        values.clear();
        values.resize(self.gates.len(), false);
        for (members, cyclic) in self.components() {
            loop {
                let mut changed = false;
                for &i in members {
                    let v = match &self.gates[i] {
                        Gate::Const(v) => *v,
                        Gate::Base(b) => base.get(*b).copied().unwrap_or(false),
                        Gate::Input(x) => inputs.get(*x).copied().unwrap_or(false),
                        Gate::And(ins) => ins.iter().all(|&x| values[x]),
                        Gate::Or(ins) => ins.iter().any(|&x| values[x]),
                        Gate::Not(x) => !values[*x],
                    };
                    if v != values[i] {
                        values[i] = v;
                        changed = true;
                    }
                }
                if !*cyclic || !changed {
                    break;
                }
            }
        }
    }

    /// The base vector of a state given as fluents (fluents no gate reads
    /// are ignored).
    pub fn base_of(&self, fluents: &[Term]) -> Vec<bool> {
        let index: FxHashMap<&Term, usize> = self.base.iter().enumerate().map(|(i, t)| (t, i)).collect();
        let mut v = vec![false; self.base.len()];
        for f in fluents {
            if let Some(&i) = index.get(f) {
                v[i] = true;
            }
        }
        v
    }

    /// The input vector of a joint move.
    pub fn inputs_of(&self, joint: &[(Term, Term)]) -> Vec<bool> {
        self.inputs.iter().map(|i| joint.contains(i)).collect()
    }
}

/// The ranges of rules that instantiate one rule alternative each (every
/// rule on its own where the grounding does not say).
fn groups(g: &Grounding) -> Vec<std::ops::Range<usize>> {
    if g.groups.iter().map(|r| r.len()).sum::<usize>() == g.rules.len() {
        g.groups.clone()
    } else {
        (0..g.rules.len()).map(|i| i..i + 1).collect()
    }
}

/// Rules sharing a conjunction prefix: fewer than this and none is made.
const PREFIX_MIN_RULES: usize = 64;

/// A prefix of the conjunctions of a group of rules, made once: its length,
/// how many distinct ones there are and each rule's.
struct SharedPrefix {
    len: usize,
    count: usize,
    id: Vec<u32>,
}

/// The prefix length that saves the most edges when each distinct prefix of
/// the rules' conjunctions (`rows`: each rule's head and inputs, in literal
/// order) is one AND that the rules read instead (amazons' legal moves: the
/// queen's move is shared by the ~30 arrows after it), if it saves at least
/// half an edge a rule.
fn shared_prefix(rows: &[(GateId, Vec<GateId>)]) -> Option<SharedPrefix> {
    let shortest = rows.iter().map(|r| r.1.len()).min()?;
    if rows.len() < PREFIX_MIN_RULES || shortest < 3 {
        return None;
    }
    // Rules with the same head are ORed, and the optimiser factors what
    // their conjunctions share itself: a prefix gate would hide it.
    let mut heads: Vec<GateId> = rows.iter().map(|r| r.0).collect();
    heads.sort_unstable();
    heads.dedup();
    if heads.len() < rows.len() {
        return None;
    }
    let mut id = vec![0u32; rows.len()];
    let mut ids: FxHashMap<(u32, GateId), u32> = FxHashMap::default();
    let mut best: Option<SharedPrefix> = None;
    let mut best_saving = rows.len() / 2;
    // After position k, `id` numbers the distinct prefixes of length k + 1.
    for k in 0..shortest - 1 {
        ids.clear();
        for (r, (_, ins)) in rows.iter().enumerate() {
            let n = ids.len() as u32;
            id[r] = *ids.entry((id[r], ins[k])).or_insert(n);
        }
        let (len, count) = (k + 1, ids.len());
        let saving = (rows.len() * (len - 1)).saturating_sub(count * len);
        if len >= 2 && saving > best_saving {
            best_saving = saving;
            best = Some(SharedPrefix { len, count, id: id.clone() });
        }
    }
    best
}

/// The gates a gate reads.
fn inputs(gate: &Gate) -> &[GateId] {
    gate.inputs()
}

impl Gate {
    /// The gates this one reads.
    pub fn inputs(&self) -> &[GateId] {
        match self {
            Gate::And(ins) | Gate::Or(ins) => ins,
            Gate::Not(x) => std::slice::from_ref(x),
            _ => &[],
        }
    }
}

/// The gate with its inputs renamed by `f`.
fn renamed(gate: &Gate, f: impl Fn(GateId) -> GateId) -> Gate {
    match gate {
        Gate::And(ins) => Gate::And(ins.iter().map(|&x| f(x)).collect()),
        Gate::Or(ins) => Gate::Or(ins.iter().map(|&x| f(x)).collect()),
        Gate::Not(x) => Gate::Not(f(*x)),
        other => other.clone(),
    }
}

/// The gates `outputs` read, directly or not, renumbered in their order;
/// and the new number of each old gate (`usize::MAX` for dropped ones).
fn live(gates: Vec<Gate>, outputs: impl Iterator<Item = GateId>) -> (Vec<Gate>, Vec<GateId>) {
    let mut keep = vec![false; gates.len()];
    let mut stack: Vec<GateId> = outputs.collect();
    while let Some(x) = stack.pop() {
        if !keep[x] {
            keep[x] = true;
            stack.extend(inputs(&gates[x]).iter().filter(|&&y| !keep[y]));
        }
    }
    let mut new_id = vec![usize::MAX; gates.len()];
    let mut count = 0;
    for (i, _) in keep.iter().enumerate().filter(|(_, k)| **k) {
        new_id[i] = count;
        count += 1;
    }
    // Renaming keeps inputs sorted: new numbers follow the old order.
    let mut kept = Vec::with_capacity(count);
    for (i, mut gate) in gates.into_iter().enumerate() {
        if keep[i] {
            match &mut gate {
                Gate::And(ins) | Gate::Or(ins) => ins.iter_mut().for_each(|x| *x = new_id[*x]),
                Gate::Not(x) => *x = new_id[*x],
                _ => {}
            }
            kept.push(gate);
        }
    }
    (kept, new_id)
}

/// Gates in strongly connected components, dependency order, with whether
/// each is cyclic.
fn components(gates: &[Gate]) -> Vec<(Vec<GateId>, bool)> {
    let mut out = Vec::new();
    each_component(gates, |members, cyclic| out.push((members.to_vec(), cyclic)));
    out
}

/// Tarjan's strongly connected components of the gate graph, inputs first,
/// each (members sorted) with whether it is cyclic. Iterative, so long
/// chains of gates cannot overflow the stack; gates numbered in dependency
/// order are each their own component, found without the search.
fn each_component(gates: &[Gate], mut f: impl FnMut(&[GateId], bool)) {
    if gates.iter().enumerate().all(|(i, g)| inputs(g).iter().all(|&x| x < i)) {
        (0..gates.len()).for_each(|i| f(&[i], false));
        return;
    }
    if let Some(order) = acyclic_order(gates) {
        order.into_iter().for_each(|g| f(&[g], false));
        return;
    }
    super::scc::each_component(
        gates.len(),
        |v, k| inputs(&gates[v]).get(k).copied(),
        |members| f(members, members.len() > 1 || inputs(&gates[members[0]]).contains(&members[0])),
    );
}

/// The gates in dependency order when the gate graph has no cycle (the
/// usual case, even for recursive rules): a depth-first search's post-order,
/// the order in which Tarjan's search would find them, without its
/// bookkeeping; `None` at the first cycle.
fn acyclic_order(gates: &[Gate]) -> Option<Vec<GateId>> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; gates.len()];
    let mut order = Vec::with_capacity(gates.len());
    let mut stack: Vec<(GateId, usize)> = Vec::new();
    for root in 0..gates.len() {
        if state[root] != NEW {
            continue;
        }
        state[root] = OPEN;
        stack.push((root, 0));
        while let Some((v, next)) = stack.last_mut() {
            match inputs(&gates[*v]).get(*next) {
                Some(&w) => {
                    *next += 1;
                    match state[w] {
                        NEW => {
                            state[w] = OPEN;
                            stack.push((w, 0));
                        }
                        OPEN => return None,
                        _ => {}
                    }
                }
                None => {
                    state[*v] = DONE;
                    order.push(*v);
                    stack.pop();
                }
            }
        }
    }
    Some(order)
}

/// What `name` is as a symbol of the game (goal values are constants).
pub fn goal_value(symbols: &super::term::Symbols, value: &Term) -> Option<u32> {
    let sym: Sym = value.head();
    matches!(value, Term::Const(_)).then(|| symbols.name(sym).parse::<u32>().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A network over four base fluents (gates 0 to 3) whose every gate is
    /// an output.
    fn network(mut more: Vec<Gate>) -> Propnet {
        let mut gates: Vec<Gate> = (0..4).map(Gate::Base).collect();
        gates.append(&mut more);
        Propnet {
            base: (0..4).map(Term::Const).collect(),
            inputs: Vec::new(),
            legal: Vec::new(),
            goals: Vec::new(),
            terminal: None,
            next: (0..gates.len()).map(|g| (Term::Const(g as Sym), g)).collect(),
            gates,
            order: OnceLock::new(),
        }
    }

    /// The optimised network's outputs equal the network's in every state.
    fn check(more: Vec<Gate>) -> Size {
        let net = network(more);
        let small = net.optimised();
        let (mut raw, mut opt) = (Vec::new(), Vec::new());
        for state in 0..16 {
            let base: Vec<bool> = (0..4).map(|b| state >> b & 1 == 1).collect();
            net.evaluate(&base, &[], &mut raw);
            small.evaluate(&base, &[], &mut opt);
            for ((_, g), (_, h)) in net.next.iter().zip(&small.next) {
                assert_eq!(raw[*g], opt[*h], "state {state:04b}, gate {g}");
            }
        }
        small.size()
    }

    #[test]
    fn cycles_keep_their_least_fixpoint() {
        use Gate::{And, Not, Or};
        // X = b0 or Y, Y = X: both are b0 (no gate beside the four bases).
        assert_eq!(check(vec![Or(vec![0, 5]), Or(vec![4])]).gates, 4);
        // X = b0 and Y, Y = X or b1.
        check(vec![And(vec![0, 5]), Or(vec![4, 1])]);
        // Unsupported cycles are false.
        assert_eq!(check(vec![Or(vec![5]), Or(vec![4])]).gates, 5);
        check(vec![And(vec![5, 0]), Or(vec![4, 1])]);
        // Identical members merge: X1 = X2 = b0 or Z, Z = X1 and X2 and b1.
        check(vec![Or(vec![0, 6]), Or(vec![0, 6]), And(vec![4, 5, 1])]);
        // Reachability: R1 = b0 or (b1 and R2), R2 = b2 or (b3 and R1), and
        // a NOT above the cycle.
        check(vec![Or(vec![0, 6]), Or(vec![2, 7]), And(vec![1, 5]), And(vec![3, 4]), Not(4), And(vec![8, 3])]);
    }

    #[test]
    fn shared_inputs_are_factored() {
        use Gate::{And, Not, Or};
        // (b0 and b1) or (b0 and b2) or b3.
        check(vec![And(vec![0, 1]), And(vec![0, 2]), Or(vec![4, 5, 3])]);
        // Groups within groups, an input that is the shared one itself, and
        // a negation that meets its input once factored:
        // (b0 b1 b2) or (b0 b1 b3) or (b0 not-b1) or b0 or (b2 b3).
        check(vec![
            And(vec![0, 1, 2]),
            And(vec![0, 1, 3]),
            Not(1),
            And(vec![0, 6]),
            And(vec![2, 3]),
            Or(vec![4, 5, 7, 0, 8]),
            Or(vec![4, 5, 7, 8]),
        ]);
    }

    /// A ground program of 64 rules `next(h_xyz) <= true(a_x) true(b_y)
    /// true(c_z) not true(d_z)` for x, y in 0..2 and z in 0..16: four
    /// prefixes `a_x b_y` shared by 16 rules each.
    fn prefixed(grouped: bool) -> Grounding {
        let mut g = Grounding::default();
        for i in 0..40 {
            g.atoms.push((d::TRUE, vec![Term::Const(100 + i)]));
        }
        let (a, b, c, nd) = (0, 2, 4, 20);
        for x in 0..2 {
            for y in 0..2 {
                for z in 0..16 {
                    g.atoms.push((d::NEXT, vec![Term::Const((200 + g.rules.len()) as Sym)]));
                    let head = g.atoms.len() - 1;
                    g.push_rule(head, &[a + x, b + y, c + z], &[nd + z]);
                }
            }
        }
        g.static_value = vec![None; g.atoms.len()];
        if grouped {
            g.groups.push(0..g.rules.len());
        }
        g
    }

    #[test]
    fn rules_share_their_conjunctions_prefixes() {
        let (shared, apart) = (Propnet::new(&prefixed(true)), Propnet::new(&prefixed(false)));
        // Each rule reads its prefix, c_z and not d_z instead of four gates.
        assert_eq!(apart.size().edges - shared.size().edges, 64 - 4 * 2, "{:?} {:?}", apart.size(), shared.size());
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for state in [0u64, u64::MAX, 0x5555_5555_5555, 0x0F0F_3C3C_A5A5, 0xFFFF_0000_FFFF, 0x1234_5678_9ABC] {
            let base: Vec<bool> = (0..40).map(|i| state >> i & 1 == 1).collect();
            shared.evaluate(&base, &[], &mut x);
            apart.evaluate(&base, &[], &mut y);
            for ((_, g), (_, h)) in shared.next.iter().zip(&apart.next) {
                assert_eq!(x[*g], y[*h], "state {state:x}");
            }
        }
    }

    #[test]
    fn many_moves_of_an_or_are_gathered_apart() {
        use Gate::{And, Input, Or};
        // next = m0 or ... or m9 or (b0 and b1): the moves in an OR of their own.
        let mut more: Vec<Gate> = (0..10).map(Input).collect();
        more.push(And(vec![0, 1]));
        more.push(Or((4..15).collect()));
        let mut net = network(more);
        net.inputs = (0..10).map(|i| (Term::Const(0), Term::Const(i))).collect();
        net.next = vec![(Term::Const(0), 15)];
        let small = net.optimised();
        let ors: Vec<&Vec<GateId>> =
            small.gates.iter().filter_map(|g| if let Or(ins) = g { Some(ins) } else { None }).collect();
        assert_eq!(ors.len(), 2, "{:?}", small.gates);
        assert!(ors.iter().any(|ins| ins.len() == 10 && ins.iter().all(|&i| matches!(small.gates[i], Input(_)))));
        let (mut raw, mut opt) = (Vec::new(), Vec::new());
        for state in 0..16u32 {
            for played in [None, Some(0), Some(7)] {
                let base: Vec<bool> = (0..4).map(|b| state >> b & 1 == 1).collect();
                let inputs: Vec<bool> = (0..10).map(|i| Some(i) == played).collect();
                net.evaluate(&base, &inputs, &mut raw);
                small.evaluate(&base, &inputs, &mut opt);
                assert_eq!(raw[15], opt[small.next[0].1], "state {state:04b}, move {played:?}");
            }
        }
    }

    #[test]
    fn acyclic_networks_are_ordered_as_tarjan_orders_them() {
        // A network whose gates read gates on either side of them.
        let n = 2000;
        let mut gates: Vec<Gate> = (0..n).map(|_| Gate::Or(Vec::new())).collect();
        let mut state = 12345u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        let rank: Vec<usize> = {
            let mut r: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                r.swap(i, next() % (i + 1));
            }
            r
        };
        // Gate g reads gates of lower rank only: no cycle.
        for g in 0..n {
            let mut ins: Vec<GateId> = (0..next() % 4).map(|_| next() % n).filter(|&x| rank[x] < rank[g]).collect();
            ins.sort_unstable();
            ins.dedup();
            gates[g] = if ins.is_empty() { Gate::Base(g) } else { Gate::And(ins) };
        }
        let fast = acyclic_order(&gates).expect("no cycle");
        let mut tarjan = Vec::new();
        super::super::scc::each_component(n, |v, k| inputs(&gates[v]).get(k).copied(), |c| tarjan.extend_from_slice(c));
        assert_eq!(fast, tarjan);
        // A cycle is found.
        gates[0] = Gate::Or(vec![1]);
        gates[1] = Gate::Or(vec![0]);
        assert!(acyclic_order(&gates).is_none());
    }

    #[test]
    fn constants_aliases_and_merges() {
        use Gate::{And, Const, Not, Or};
        let size = check(vec![
            Const(true),
            And(vec![0, 4]),    // b0
            Or(vec![1, 1]),     // b1
            Not(0),             // not b0
            Not(7),             // b0
            And(vec![0, 7]),    // false
            Or(vec![2, 3, 5]),  // b0 or b2 or b3
            Or(vec![3, 8, 2]),  // the same
            Or(vec![5, 6, 11]), // b0 or b1 or (b0 or b2 or b3)
        ]);
        assert_eq!(size.gates, 9, "{size:?}");
    }
}
