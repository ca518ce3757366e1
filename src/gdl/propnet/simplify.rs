//! The optimiser's one pass: gates made in dependency order, each once
//! (a hash table of gates merges identical ones), constants propagated,
//! single-input gates and double negations replaced by their input, and
//! ANDs under an OR that share inputs factored.

use std::cmp::Reverse;
use std::hash::BuildHasher;

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;
use rustc_hash::{FxBuildHasher, FxHashMap};

use super::{Gate, GateId, inputs, renamed};

/// How many levels of ORs factoring reaches into, one inside another (it
/// recurses: a bound keeps the stack small).
const FACTOR_DEPTH: usize = 8;

/// How many times its own conjuncts factoring one OR may count (it counts
/// them anew for each group it makes).
const FACTOR_WORK: usize = 64;

/// Move inputs of an OR beside other inputs that are gathered in an OR of
/// their own ([`Simplifier::or_of`]): at least this many.
const MOVE_GROUP: usize = 8;

/// The inputs of an AND, or the gate itself.
fn conjuncts<'a>(gates: &'a [Gate], x: &'a GateId) -> &'a [GateId] {
    match &gates[*x] {
        Gate::And(a) => a,
        _ => std::slice::from_ref(x),
    }
}

/// A gate's input while its cyclic component is simplified: a gate already
/// made, or a member of the component (by its place in it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Ref {
    Made(GateId),
    Member(usize),
}

/// A member of a cyclic component: an AND or OR (`or`) of its inputs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Junction {
    or: bool,
    ins: Vec<Ref>,
}

/// The optimised network as it is made: new gates in dependency order, each
/// made once, so a gate identical to one made before is that gate.
pub(super) struct Simplifier {
    /// The new gates, in dependency order.
    pub(super) gates: Vec<Gate>,
    /// The new gates by content, with their hashes (kept, so that growing
    /// the table does not hash every gate again).
    table: HashTable<(u64, GateId)>,
    /// The new gate computing each old gate's value.
    pub(super) rep: Vec<GateId>,
    /// Scratch space for a gate's inputs.
    ins: Vec<GateId>,
}

/// What a gate is, apart from its inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Const(bool),
    Base(usize),
    Input(usize),
    And,
    Or,
    Not,
}

fn kind(gate: &Gate) -> Kind {
    match gate {
        Gate::Const(v) => Kind::Const(*v),
        Gate::Base(b) => Kind::Base(*b),
        Gate::Input(x) => Kind::Input(*x),
        Gate::And(_) => Kind::And,
        Gate::Or(_) => Kind::Or,
        Gate::Not(_) => Kind::Not,
    }
}

impl Simplifier {
    pub(super) fn new(old: usize) -> Simplifier {
        Simplifier {
            gates: Vec::with_capacity(old),
            table: HashTable::with_capacity(old),
            rep: vec![usize::MAX; old],
            ins: Vec::new(),
        }
    }

    /// The new gate of `kind` over `ins`, made unless one like it was.
    fn make(&mut self, kind_: Kind, ins: &[GateId]) -> GateId {
        let hash = FxBuildHasher.hash_one((kind_, ins));
        let gates = &mut self.gates;
        let same = |&(h, i): &(u64, GateId)| h == hash && kind(&gates[i]) == kind_ && inputs(&gates[i]) == ins;
        match self.table.entry(hash, same, |&(h, _)| h) {
            Entry::Occupied(e) => e.get().1,
            Entry::Vacant(e) => {
                gates.push(match kind_ {
                    Kind::Const(v) => Gate::Const(v),
                    Kind::Base(b) => Gate::Base(b),
                    Kind::Input(x) => Gate::Input(x),
                    Kind::And => Gate::And(ins.to_vec()),
                    Kind::Or => Gate::Or(ins.to_vec()),
                    Kind::Not => Gate::Not(ins[0]),
                });
                e.insert((hash, gates.len() - 1));
                gates.len() - 1
            }
        }
    }

    fn constant(&mut self, v: bool) -> GateId {
        self.make(Kind::Const(v), &[])
    }

    /// The new gate for `gate`, whose inputs all have theirs.
    pub(super) fn acyclic(&mut self, gate: &Gate) -> GateId {
        match gate {
            Gate::And(old) | Gate::Or(old) => {
                let mut ins = std::mem::take(&mut self.ins);
                ins.clear();
                ins.extend(old.iter().map(|&x| self.rep[x]));
                let id = self.junction(&mut ins, matches!(gate, Gate::Or(_)));
                self.ins = ins;
                id
            }
            Gate::Not(x) => {
                let x = self.rep[*x];
                match self.gates[x] {
                    Gate::Const(v) => self.constant(!v),
                    Gate::Not(y) => y,
                    _ => self.make(Kind::Not, &[x]),
                }
            }
            other => self.make(kind(other), &[]),
        }
    }

    /// An AND (`absorbing` false) or OR (`absorbing` true) of new gates: an
    /// absorbing constant, or an input and its negation, decide it; identity
    /// constants and repeated inputs are dropped; no input is the identity,
    /// one input the gate itself; an OR's shared inputs are factored out.
    fn junction(&mut self, ins: &mut Vec<GateId>, absorbing: bool) -> GateId {
        self.combine(ins, absorbing, FACTOR_DEPTH)
    }

    /// [`Simplifier::junction`], factoring ORs at most `depth` levels deep.
    fn combine(&mut self, ins: &mut Vec<GateId>, absorbing: bool, depth: usize) -> GateId {
        let gates = &self.gates;
        ins.retain(|&x| gates[x] != Gate::Const(!absorbing));
        ins.sort_unstable();
        ins.dedup();
        let decided = ins.iter().any(|&x| match gates[x] {
            Gate::Const(v) => v == absorbing,
            Gate::Not(y) => ins.binary_search(&y).is_ok(),
            _ => false,
        });
        match ins.len() {
            _ if decided => self.constant(absorbing),
            0 => self.constant(!absorbing),
            1 => ins[0],
            _ if absorbing && depth > 0 => match self.factored(ins, depth) {
                Some(id) => id,
                None => self.or_of(ins),
            },
            _ if absorbing => self.or_of(ins),
            _ => self.make(Kind::And, ins),
        }
    }

    /// The OR of `ins` (sorted, two or more, no constants), its move inputs
    /// in an OR of their own when there are many and something else: the
    /// compiled engine sets that OR to 1 when one of them is played, which
    /// needs no code, and leaves little for the rest to recompute (amazons'
    /// "a queen lands here, or one was here and another moved": ~700 moves
    /// and one AND).
    fn or_of(&mut self, ins: &[GateId]) -> GateId {
        let is_move = |x: &GateId| matches!(self.gates[*x], Gate::Input(_));
        let moves = ins.iter().filter(|x| is_move(x)).count();
        if moves < MOVE_GROUP || moves == ins.len() {
            return self.make(Kind::Or, ins);
        }
        let (moves, mut rest): (Vec<GateId>, Vec<GateId>) = ins.iter().partition(|x| is_move(x));
        let moves = self.make(Kind::Or, &moves);
        rest.push(moves);
        rest.sort_unstable();
        self.make(Kind::Or, &rest)
    }

    /// An OR of ANDs that share inputs, the ANDs that share the most shared
    /// input grouped into an AND of what they share and the OR of the rest
    /// ((s and x) or (s and y) is s and (x or y)), again and again on what
    /// is left: rules with a common literal (often the step counter) leave
    /// ORs of the rest that are identical for each of its values, and merge.
    /// `None` if no input is shared. An input that is no AND counts as an AND
    /// of itself. Each round counts the conjuncts anew; the rounds stop when
    /// they have counted [`FACTOR_WORK`] times as many as the OR has.
    fn factored(&mut self, ins: &[GateId], depth: usize) -> Option<GateId> {
        let mut ins = ins.to_vec();
        let budget = FACTOR_WORK * ins.iter().map(|x| conjuncts(&self.gates, x).len()).sum::<usize>();
        let (mut all, mut work, mut grouped) = (Vec::new(), 0, false);
        while work < budget {
            all.clear();
            all.extend(ins.iter().flat_map(|x| conjuncts(&self.gates, x)));
            work += all.len();
            all.sort_unstable();
            let Some(shared) = all
                .chunk_by(|a, b| a == b)
                .filter(|run| run.len() > 1)
                .max_by_key(|run| (run.len(), Reverse(run[0])))
                .map(|run| run[0])
            else {
                break;
            };
            let (group, mut rest): (Vec<GateId>, Vec<GateId>) =
                ins.iter().partition(|x| conjuncts(&self.gates, x).binary_search(&shared).is_ok());
            rest.push(self.shared(&group, depth));
            rest.sort_unstable();
            rest.dedup();
            ins = rest;
            grouped = true;
        }
        grouped.then(|| self.combine(&mut ins, true, 0))
    }

    /// The OR of `group`, ANDs that share inputs: an AND of what they share
    /// and the OR of the rest.
    fn shared(&mut self, group: &[GateId], depth: usize) -> GateId {
        let gates = &self.gates;
        let mut common: Vec<GateId> = conjuncts(gates, &group[0]).to_vec();
        for x in &group[1..] {
            let c = conjuncts(gates, x);
            common.retain(|y| c.binary_search(y).is_ok());
        }
        let rest: Vec<Vec<GateId>> = group
            .iter()
            .map(|x| conjuncts(gates, x).iter().filter(|y| common.binary_search(y).is_err()).copied().collect())
            .collect();
        let mut rest: Vec<GateId> = rest.into_iter().map(|mut r| self.junction(&mut r, false)).collect();
        common.push(self.combine(&mut rest, true, depth - 1));
        self.junction(&mut common, false)
    }

    /// A cyclic component. When it is monotone (ANDs and ORs only, as with
    /// stratified negation), its least fixpoint decides the members that are
    /// constant, then single-input members become their input and identical
    /// members merge until nothing changes, which keeps the least fixpoint;
    /// what is left is made as it is, cycles and all.
    pub(super) fn cyclic(&mut self, old: &[Gate], members: &[GateId]) {
        let local: FxHashMap<GateId, usize> = members.iter().enumerate().map(|(i, &m)| (m, i)).collect();
        let refer = |x: &GateId| local.get(x).map_or(Ref::Made(self.rep[*x]), |&i| Ref::Member(i));
        let eqs: Option<Vec<Junction>> = members
            .iter()
            .map(|&m| match &old[m] {
                Gate::And(ins) => Some(Junction { or: false, ins: ins.iter().map(refer).collect() }),
                Gate::Or(ins) => Some(Junction { or: true, ins: ins.iter().map(refer).collect() }),
                _ => None,
            })
            .collect();
        let Some(mut eqs) = eqs else {
            // Not monotone: copied as it is.
            let first = self.gates.len();
            for (k, &m) in members.iter().enumerate() {
                self.rep[m] = first + k;
            }
            for &m in members {
                let gate = renamed(&old[m], |x| self.rep[x]);
                self.gates.push(gate);
            }
            return;
        };
        let mut fate: Vec<Option<Ref>> = vec![None; members.len()];
        let (lower, upper) = (self.least(&eqs, false), self.least(&eqs, true));
        for i in 0..members.len() {
            if lower[i] || !upper[i] {
                fate[i] = Some(Ref::Made(self.constant(lower[i])));
            }
        }
        while self.settle(&mut eqs, &mut fate) {}
        // Make the members left, cycles and all.
        let first = self.gates.len();
        let mut id = vec![usize::MAX; members.len()];
        for (i, _) in fate.iter().enumerate().filter(|(_, f)| f.is_none()) {
            id[i] = self.gates.len();
            self.gates.push(Gate::Const(false));
        }
        let made = |r: Ref| match resolve(&fate, r) {
            Ref::Made(x) => x,
            Ref::Member(j) => id[j],
        };
        for (i, eq) in eqs.iter().enumerate().filter(|(i, _)| fate[*i].is_none()) {
            let mut ins: Vec<GateId> = eq.ins.iter().map(|&r| made(r)).collect();
            ins.sort_unstable();
            self.gates[id[i]] = if eq.or { Gate::Or(ins) } else { Gate::And(ins) };
        }
        for (i, &m) in members.iter().enumerate() {
            self.rep[m] = made(Ref::Member(i));
        }
        for x in first..self.gates.len() {
            let hash = FxBuildHasher.hash_one((kind(&self.gates[x]), inputs(&self.gates[x])));
            self.table.insert_unique(hash, (hash, x), |&(h, _)| h);
        }
    }

    /// Which members of a monotone component hold in its least fixpoint when
    /// the inputs that are not constants hold (`unknown` true) or not.
    fn least(&self, eqs: &[Junction], unknown: bool) -> Vec<bool> {
        let mut value = vec![false; eqs.len()];
        loop {
            let mut changed = false;
            for (i, eq) in eqs.iter().enumerate() {
                let holds = |r: &Ref| match *r {
                    Ref::Member(j) => value[j],
                    Ref::Made(x) => match self.gates[x] {
                        Gate::Const(v) => v,
                        _ => unknown,
                    },
                };
                let v = if eq.or { eq.ins.iter().any(holds) } else { eq.ins.iter().all(holds) };
                if v && !value[i] {
                    value[i] = true;
                    changed = true;
                }
            }
            if !changed {
                return value;
            }
        }
    }

    /// One round of simplification of the open members (`fate` none) of a
    /// cyclic component; whether any was decided or merged. A member that
    /// reads itself through an OR drops that input (X = X or Y is Y in the
    /// least fixpoint) and one that reads itself through an AND is false.
    fn settle(&mut self, eqs: &mut [Junction], fate: &mut [Option<Ref>]) -> bool {
        let mut changed = false;
        for i in 0..eqs.len() {
            if fate[i].is_some() {
                continue;
            }
            let or = eqs[i].or;
            let mut ins: Vec<Ref> = Vec::with_capacity(eqs[i].ins.len());
            let mut decided = None;
            for &r in &eqs[i].ins {
                match resolve(fate, r) {
                    Ref::Member(j) if j == i => {
                        if !or {
                            decided = Some(false);
                        }
                    }
                    Ref::Made(x) if self.gates[x] == Gate::Const(or) => decided = Some(or),
                    Ref::Made(x) if self.gates[x] == Gate::Const(!or) => {}
                    r => ins.push(r),
                }
            }
            ins.sort_unstable();
            ins.dedup();
            let result = match (decided, ins.as_slice()) {
                (Some(v), _) => Some(Ref::Made(self.constant(v))),
                (None, []) => Some(Ref::Made(self.constant(!or))),
                (None, [one]) => Some(*one),
                (None, _) if ins.iter().all(|r| matches!(r, Ref::Made(_))) => {
                    let mut made = ins.iter().map(|r| if let Ref::Made(x) = r { *x } else { usize::MAX }).collect();
                    Some(Ref::Made(self.junction(&mut made, or)))
                }
                (None, _) => None,
            };
            eqs[i].ins = ins;
            if result.is_some() {
                fate[i] = result;
                changed = true;
            }
        }
        // Identical open members merge.
        let mut seen: FxHashMap<&Junction, usize> = FxHashMap::default();
        for (i, eq) in eqs.iter().enumerate() {
            if fate[i].is_none() {
                match seen.get(eq) {
                    Some(&j) => {
                        fate[i] = Some(Ref::Member(j));
                        changed = true;
                    }
                    None => {
                        seen.insert(eq, i);
                    }
                }
            }
        }
        changed
    }
}

/// Where a reference leads once decided members are followed.
fn resolve(fate: &[Option<Ref>], mut r: Ref) -> Ref {
    while let Ref::Member(j) = r
        && let Some(next) = fate[j]
    {
        r = next;
    }
    r
}
