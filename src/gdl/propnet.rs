//! The propositional network of a ground program: one gate per ground atom
//! (an OR of its rules) and per rule (an AND of its literals, negative ones
//! through NOT), with `true` atoms as base inputs and `does` atoms as move
//! inputs. Optimised by constant propagation (static facts, and what follows
//! from them), removal of gates no output reads (legal, goal, terminal,
//! next), and merging of identical gates.
//!
//! Ground recursion makes cycles; gates are evaluated in strongly connected
//! components, in dependency order, a cyclic component until nothing
//! changes (GDL's least fixpoint, since its negations are stratified).

use rustc_hash::FxHashMap;

use super::description as d;
use super::ground::Grounding;
use super::term::{Sym, Term};

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
    /// Gates in components, dependency order, with whether each is cyclic.
    order: Vec<(Vec<GateId>, bool)>,
}

impl Propnet {
    /// The network of `g`, as grounded (no optimisation).
    pub fn new(g: &Grounding) -> Propnet {
        let mut gates: Vec<Gate> = Vec::with_capacity(g.atoms.len() * 2);
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
        for rule in &g.rules {
            if !matches!(gates[rule.head], Gate::Or(_)) {
                continue;
            }
            let mut ins: Vec<GateId> = rule.positive.clone();
            for &n in &rule.negative {
                gates.push(Gate::Not(n));
                ins.push(gates.len() - 1);
            }
            gates.push(Gate::And(ins));
            let and = gates.len() - 1;
            if let Gate::Or(ins) = &mut gates[rule.head] {
                ins.push(and);
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
            order: Vec::new(),
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
        net.order = components(&net.gates);
        net
    }

    /// Gates in strongly connected components of the gate graph, in
    /// dependency order, with whether each component is cyclic.
    pub fn components(&self) -> &[(Vec<GateId>, bool)] {
        &self.order
    }

    pub fn size(&self) -> Size {
        let mut s = Size::default();
        for gate in &self.gates {
            s.gates += 1;
            match gate {
                Gate::And(ins) => {
                    s.and += 1;
                    s.edges += ins.len();
                }
                Gate::Or(ins) => {
                    s.or += 1;
                    s.edges += ins.len();
                }
                Gate::Not(_) => {
                    s.not += 1;
                    s.edges += 1;
                }
                _ => {}
            }
        }
        s
    }

    /// Constant propagation, merging of identical gates and removal of gates
    /// no output reads; returns the optimised network.
    pub fn optimised(&self) -> Propnet {
        // Constant propagation to a fixpoint (cyclic gates stay as they are
        // unless a constant decides them).
        let mut gates = self.gates.clone();
        loop {
            let mut changed = false;
            for i in 0..gates.len() {
                let simpler = match &gates[i] {
                    Gate::And(ins) => fold(&gates, ins, false, Gate::And),
                    Gate::Or(ins) => fold(&gates, ins, true, Gate::Or),
                    Gate::Not(x) => match gates[*x] {
                        Gate::Const(v) => Some(Gate::Const(!v)),
                        _ => None,
                    },
                    _ => None,
                };
                if let Some(g) = simpler {
                    gates[i] = g;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // Merge identical gates (same kind, same inputs) until none are left.
        let mut alias: Vec<GateId> = (0..gates.len()).collect();
        loop {
            let mut seen: FxHashMap<Gate, GateId> = FxHashMap::default();
            let mut merged = false;
            for i in 0..gates.len() {
                let root = |mut x: GateId| {
                    while alias[x] != x {
                        x = alias[x];
                    }
                    x
                };
                let canonical = match &gates[i] {
                    Gate::And(ins) => Gate::And(sorted_unique(ins.iter().map(|&x| root(x)))),
                    Gate::Or(ins) => Gate::Or(sorted_unique(ins.iter().map(|&x| root(x)))),
                    Gate::Not(x) => Gate::Not(root(*x)),
                    other => other.clone(),
                };
                gates[i] = canonical.clone();
                match seen.get(&canonical) {
                    Some(&j) if alias[i] == i && j != i && !matches!(canonical, Gate::Base(_) | Gate::Input(_)) => {
                        alias[i] = j;
                        merged = true;
                    }
                    Some(_) => {}
                    None => {
                        seen.insert(canonical, i);
                    }
                }
            }
            if !merged {
                break;
            }
        }
        let resolve = |x: GateId| {
            let mut x = x;
            while alias[x] != x {
                x = alias[x];
            }
            x
        };
        // Keep what the outputs read.
        let outputs: Vec<GateId> = self
            .legal
            .iter()
            .map(|l| l.2)
            .chain(self.goals.iter().map(|g| g.2))
            .chain(self.terminal)
            .chain(self.next.iter().map(|n| n.1))
            .map(resolve)
            .collect();
        let mut keep = vec![false; gates.len()];
        let mut stack = outputs.clone();
        while let Some(x) = stack.pop() {
            if keep[x] {
                continue;
            }
            keep[x] = true;
            match &gates[x] {
                Gate::And(ins) | Gate::Or(ins) => stack.extend(ins.iter().map(|&y| resolve(y))),
                Gate::Not(y) => stack.push(resolve(*y)),
                _ => {}
            }
        }
        // Renumber.
        let mut new_id = vec![usize::MAX; gates.len()];
        let mut kept = Vec::new();
        for i in 0..gates.len() {
            if keep[i] {
                new_id[i] = kept.len();
                kept.push(i);
            }
        }
        let map = |x: GateId| new_id[resolve(x)];
        let new_gates: Vec<Gate> = kept
            .iter()
            .map(|&i| match &gates[i] {
                Gate::And(ins) => Gate::And(sorted_unique(ins.iter().map(|&x| map(x)))),
                Gate::Or(ins) => Gate::Or(sorted_unique(ins.iter().map(|&x| map(x)))),
                Gate::Not(x) => Gate::Not(map(*x)),
                other => other.clone(),
            })
            .collect();
        let mut net = Propnet {
            gates: new_gates,
            base: self.base.clone(),
            inputs: self.inputs.clone(),
            legal: self.legal.iter().map(|(r, m, g)| (r.clone(), m.clone(), map(*g))).collect(),
            goals: self.goals.iter().map(|(r, v, g)| (r.clone(), v.clone(), map(*g))).collect(),
            terminal: self.terminal.map(map),
            next: self.next.iter().map(|(f, g)| (f.clone(), map(*g))).collect(),
            order: Vec::new(),
        };
        net.order = components(&net.gates);
        net
    }

    /// Evaluates every gate for a state (which base fluents hold) and the
    /// moves played (which inputs hold), into `values`.
    pub fn evaluate(&self, base: &[bool], inputs: &[bool], values: &mut Vec<bool>) {
        values.clear();
        values.resize(self.gates.len(), false);
        for (members, cyclic) in &self.order {
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

/// Constant propagation through an AND (`absorbing` false) or an OR
/// (`absorbing` true): an absorbing input decides the gate, identity inputs
/// are dropped; `None` when nothing changes.
fn fold(gates: &[Gate], ins: &[GateId], absorbing: bool, make: fn(Vec<GateId>) -> Gate) -> Option<Gate> {
    if ins.iter().any(|&x| gates[x] == Gate::Const(absorbing)) {
        return Some(Gate::Const(absorbing));
    }
    let kept: Vec<GateId> = ins.iter().copied().filter(|&x| gates[x] != Gate::Const(!absorbing)).collect();
    match kept.len() {
        0 => Some(Gate::Const(!absorbing)),
        n if n < ins.len() => Some(make(kept)),
        _ => None,
    }
}

fn sorted_unique(ids: impl Iterator<Item = GateId>) -> Vec<GateId> {
    let mut v: Vec<GateId> = ids.collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Gates in strongly connected components, dependency order.
fn components(gates: &[Gate]) -> Vec<(Vec<GateId>, bool)> {
    let edges: Vec<Vec<(usize, bool)>> = gates
        .iter()
        .map(|g| match g {
            Gate::And(ins) | Gate::Or(ins) => ins.iter().map(|&x| (x, true)).collect(),
            Gate::Not(x) => vec![(*x, false)],
            _ => Vec::new(),
        })
        .collect();
    super::plan::strongly_connected(&edges)
        .into_iter()
        .map(|members| {
            let cyclic = members.len() > 1 || edges[members[0]].iter().any(|&(x, _)| x == members[0]);
            (members, cyclic)
        })
        .collect()
}

/// What `name` is as a symbol of the game (goal values are constants).
pub fn goal_value(symbols: &super::term::Symbols, value: &Term) -> Option<u32> {
    let sym: Sym = value.head();
    matches!(value, Term::Const(_)).then(|| symbols.name(sym).parse::<u32>().ok()).flatten()
}
