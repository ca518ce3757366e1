//! The relaxed game's fixpoint, computed for grounding over interned terms.
//!
//! Every ground term is a number ([`Terms`]: a constant, or a function and
//! its arguments' numbers, hash-consed), and so is every ground atom (a
//! compound whose function is the relation). A relation's facts are atom
//! numbers; a rule body is joined literal by literal, each literal through a
//! hash index on the variables bound before it (built from the facts that
//! match its pattern), in a greedy order: tests (`distinct`, equality) as
//! soon as they can run, then the literal expected to match fewest facts.
//! Relations are evaluated by strongly connected components of their
//! dependency graph, a recursive component semi-naively: a round joins each
//! rule with one literal on the previous round's new facts, scanned first,
//! the component's literals before it on older facts only and those after
//! it on all, so each assignment is found in exactly one round and place.
//!
//! Each rule alternative's satisfying assignments (its instances) are kept
//! as rows of variable values, each once without a hash set (the joins
//! never find one twice): grounding makes a ground rule of each.

use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHashSet};
use std::time::Instant;

use super::description::Pattern;
use super::term::{Sym, Term, mix};

/// An unbound variable, or no term.
pub(super) const NONE: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Node {
    functor: Sym,
    compound: bool,
    start: u32,
    len: u32,
}

/// Ground terms and atoms, each numbered once.
#[derive(Default)]
pub(super) struct Terms {
    nodes: Vec<Node>,
    children: Vec<u32>,
    /// Each term's number with 32 bits of its hash: the table grows (and
    /// lookups pass over most other terms) without reading the terms.
    table: HashTable<(u32, u32)>,
}

fn node_hash(functor: Sym, compound: bool, children: &[u32]) -> u32 {
    let tag = if compound { children.len() as u64 } else { u64::MAX };
    let mut h = mix(u64::from(functor) ^ 0x5851_F42D_4C95_7F2D, tag);
    for &c in children {
        h = mix(h, u64::from(c));
    }
    (h >> 32) as u32
}

/// The table's 64-bit hash of a term's 32 bits, spread over both the high
/// bits (the table's tags) and the low ones (its buckets).
fn spread(h: u32) -> u64 {
    u64::from(h).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Terms {
    fn kids(&self, n: &Node) -> &[u32] {
        &self.children[n.start as usize..(n.start + n.len) as usize]
    }

    /// The number of the term `functor(children)` (a constant when not
    /// `compound`), added if new.
    pub(super) fn intern(&mut self, functor: Sym, compound: bool, children: &[u32]) -> u32 {
        let h = node_hash(functor, compound, children);
        let Terms { nodes, children: pool, table } = self;
        let same = |&(id, hash): &(u32, u32)| {
            hash == h && {
                let n = nodes[id as usize];
                n.functor == functor
                    && n.compound == compound
                    && &pool[n.start as usize..(n.start + n.len) as usize] == children
            }
        };
        if let Some(&(id, _)) = table.find(spread(h), same) {
            return id;
        }
        let id = nodes.len() as u32;
        nodes.push(Node { functor, compound, start: pool.len() as u32, len: children.len() as u32 });
        pool.extend_from_slice(children);
        table.insert_unique(spread(h), (id, h), |&(_, hash)| spread(hash));
        id
    }

    pub(super) fn intern_term(&mut self, t: &Term) -> u32 {
        match t {
            Term::Const(s) => self.intern(*s, false, &[]),
            Term::Fn(c) => {
                let kids: Vec<u32> = c.args.iter().map(|a| self.intern_term(a)).collect();
                self.intern(c.functor, true, &kids)
            }
        }
    }

    /// The number of the atom `relation(args)`.
    pub(super) fn intern_atom(&mut self, relation: Sym, args: &[Term]) -> u32 {
        let kids: Vec<u32> = args.iter().map(|a| self.intern_term(a)).collect();
        self.intern(relation, true, &kids)
    }

    /// The term numbered `id`, built once and remembered in `memo` (by
    /// number).
    pub(super) fn term(&self, id: u32, memo: &mut Vec<Option<Term>>) -> Term {
        if let Some(Some(t)) = memo.get(id as usize) {
            return t.clone();
        }
        let n = self.nodes[id as usize];
        let t = if n.compound {
            let args: Vec<Term> = self.kids(&n).iter().map(|&k| self.term(k, memo)).collect();
            Term::compound(n.functor, args.into_boxed_slice())
        } else {
            Term::Const(n.functor)
        };
        if memo.len() <= id as usize {
            memo.resize(self.nodes.len().max(id as usize + 1), None);
        }
        memo[id as usize] = Some(t.clone());
        t
    }

    /// The relation and arguments of the atom numbered `id`.
    pub(super) fn atom(&self, id: u32, memo: &mut Vec<Option<Term>>) -> (Sym, Vec<Term>) {
        let n = self.nodes[id as usize];
        (n.functor, self.kids(&n).iter().map(|&k| self.term(k, memo)).collect())
    }

    fn unify(&self, p: &P, t: u32, binds: &mut [u32], trail: &mut Vec<u32>) -> bool {
        match p {
            P::Var(v) => {
                let b = binds[*v as usize];
                if b == NONE {
                    binds[*v as usize] = t;
                    trail.push(*v);
                    true
                } else {
                    b == t
                }
            }
            P::Id(i) => *i == t,
            P::Fn(f, args) => {
                let n = self.nodes[t as usize];
                n.compound
                    && n.functor == *f
                    && n.len as usize == args.len()
                    && args.iter().zip(self.kids(&n)).all(|(a, &k)| self.unify(a, k, binds, trail))
            }
        }
    }

    /// The term `p` stands for under `binds`, `None` if a variable is unbound.
    pub(super) fn build(&mut self, p: &P, binds: &[u32]) -> Option<u32> {
        match p {
            P::Var(v) => Some(binds[*v as usize]).filter(|&b| b != NONE),
            P::Id(i) => Some(*i),
            P::Fn(f, args) => {
                let mut kids = Vec::with_capacity(args.len());
                for a in args {
                    kids.push(self.build(a, binds)?);
                }
                Some(self.intern(*f, true, &kids))
            }
        }
    }
}

/// A pattern over interned terms: ground parts are numbers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum P {
    Var(u32),
    Id(u32),
    Fn(Sym, Vec<P>),
}

impl P {
    pub(super) fn of(p: &Pattern, terms: &mut Terms) -> P {
        match p {
            Pattern::Var(v) => P::Var(*v),
            Pattern::Const(s) => P::Id(terms.intern(*s, false, &[])),
            Pattern::Fn(f, args) => {
                let args: Vec<P> = args.iter().map(|a| P::of(a, terms)).collect();
                if let Some(kids) =
                    args.iter().map(|a| if let P::Id(i) = a { Some(*i) } else { None }).collect::<Option<Vec<u32>>>()
                {
                    P::Id(terms.intern(*f, true, &kids))
                } else {
                    P::Fn(*f, args)
                }
            }
        }
    }

    /// The pattern of the atom `relation(args)`.
    pub(super) fn atom(relation: Sym, args: &[Pattern], terms: &mut Terms) -> P {
        P::of(&Pattern::Fn(relation, args.to_vec()), terms)
    }

    fn vars(&self, out: &mut Vec<u32>) {
        match self {
            P::Var(v) => {
                if !out.contains(v) {
                    out.push(*v)
                }
            }
            P::Id(_) => {}
            P::Fn(_, args) => args.iter().for_each(|a| a.vars(out)),
        }
    }

    /// Ground parts: each constrains the facts a literal can match.
    fn n_ground(&self) -> usize {
        match self {
            P::Var(_) => 0,
            P::Id(_) => 1,
            P::Fn(_, args) => args.iter().map(P::n_ground).sum(),
        }
    }
}

/// A body literal of a relaxed rule.
#[derive(Clone, Debug)]
pub(super) enum BodyLit {
    Pos { rel: usize, pat: P },
    Distinct(P, P),
    Same(P, P),
}

/// A rule of the relaxed game; `instances` is where its satisfying
/// assignments go, if they are grounded.
pub(super) struct RelaxedRule {
    pub head_rel: usize,
    pub head: P,
    pub body: Vec<BodyLit>,
    pub n_vars: usize,
    pub instances: Option<usize>,
}

/// A relation's facts (atom numbers), in order of arrival, and as a set.
#[derive(Default)]
pub(super) struct Relation {
    pub facts: Vec<u32>,
    set: FxHashSet<u32>,
}

impl Relation {
    pub(super) fn insert(&mut self, atom: u32) -> bool {
        let new = self.set.insert(atom);
        if new {
            self.facts.push(atom);
        }
        new
    }

    pub(super) fn contains(&self, atom: u32) -> bool {
        self.set.contains(&atom)
    }
}

/// A rule's satisfying assignments, without repeats: rows of its variables'
/// values (`NONE` for a variable no literal binds) followed by the atoms its
/// positive literals matched, in body order, and its head's atom (`NONE`
/// if a head variable is unbound): grounding reads them instead of
/// building them again.
pub(super) struct Instances {
    /// Values in a row.
    pub width: usize,
    /// Rows in blocks of `per_block`: a block is never moved once made,
    /// where one growing vector of a million rows would be copied again
    /// and again.
    blocks: Vec<Vec<u32>>,
    per_block: usize,
    /// Rows kept (a row may be empty, so not counted by its values).
    n: usize,
}

/// Values in a block of rows, at most (a row wider than this has a block).
const BLOCK_VALUES: usize = 1 << 16;

impl Instances {
    pub(super) fn new(width: usize) -> Instances {
        Instances { width, blocks: Vec::new(), per_block: (BLOCK_VALUES / width.max(1)).max(1), n: 0 }
    }

    pub(super) fn len(&self) -> usize {
        self.n
    }

    pub(super) fn row(&self, i: usize) -> &[u32] {
        let at = i % self.per_block * self.width;
        &self.blocks[i / self.per_block][at..at + self.width]
    }

    /// Adds a row: the fixpoint's joins find each assignment once (hashing
    /// rows to catch repeats was a tenth of amazons' grounding).
    fn push(&mut self, row: &[u32]) {
        if self.n.is_multiple_of(self.per_block) {
            self.blocks.push(Vec::with_capacity(self.per_block * self.width));
        }
        if let Some(block) = self.blocks.last_mut() {
            block.extend_from_slice(row);
        }
        self.n += 1;
    }
}

/// A hash index on a literal: facts matching its pattern, by the values of
/// the variables bound before it.
struct Index {
    rel: usize,
    pat: P,
    key_vars: Vec<u32>,
    n_vars: usize,
    upto: usize,
    /// The first and last entry of each key's chain, linked through `next`:
    /// facts come only at the end, so a chain needs no vector of its own
    /// (thousands of small vectors growing on large relations).
    chains: FxHashMap<u64, (u32, u32)>,
    /// The facts the pattern matches, in the order they came, and the entry
    /// after each in its key's chain (`NONE` at a chain's end).
    facts: Vec<u32>,
    next: Vec<u32>,
}

/// What identifies an index: the relation, the literal's pattern with its
/// variables numbered in order, and the places of its key's variables.
type IndexKey = (usize, P, Vec<u32>);

/// `p` with each variable numbered by its place in `vars`.
fn renamed(p: &P, vars: &[u32]) -> P {
    match p {
        P::Var(v) => P::Var(vars.iter().position(|x| x == v).map_or(*v, |i| i as u32)),
        P::Id(i) => P::Id(*i),
        P::Fn(f, args) => P::Fn(*f, args.iter().map(|a| renamed(a, vars)).collect()),
    }
}

fn key_of(vars: &[u32], binds: &[u32]) -> u64 {
    vars.iter().fold(0x9E37_79B9_7F4A_7C15, |h, &v| mix(h, u64::from(binds[v as usize])))
}

#[derive(Clone, Copy)]
enum JStep {
    /// The literal's facts in `lo..hi` of its relation (a delta), scanned.
    Delta(usize),
    /// The literal's facts through an index, keyed by the rule's variables
    /// at a place of the component's list of keys.
    Probe(usize, usize, usize),
    Test(usize),
}

/// Why the fixpoint stopped.
pub(super) enum Stop {
    Budget,
    Time,
}

/// The relaxed game's fixpoint.
pub(super) struct Fixpoint<'a> {
    pub terms: &'a mut Terms,
    pub relations: &'a mut [Relation],
    pub rules: &'a [RelaxedRule],
    pub instances: &'a mut [Instances],
    pub budget: usize,
    pub deadline: Instant,
}

/// The part of the relaxed game [`Fixpoint::run`] may leave
/// out: its relations (true for optional ones, by relation number) and the
/// deadline of their evaluation.
pub(super) struct Optional {
    pub relations: Vec<bool>,
    pub deadline: Instant,
}

struct Joiner<'j> {
    terms: &'j mut Terms,
    relations: &'j [Relation],
    indexes: &'j [Index],
    rule: &'j RelaxedRule,
    steps: &'j [JStep],
    /// The rule variables each probe's key is made of.
    keys: &'j [Vec<u32>],
    delta: (usize, usize),
    binds: Vec<u32>,
    trail: Vec<u32>,
    /// The atom each positive literal matched, by its place in the body.
    matched: Vec<u32>,
    row: Vec<u32>,
    instances: Option<&'j mut Instances>,
    /// Per body literal, the facts of its relation it may match: those
    /// numbered below the limit (older facts, for a literal of the
    /// component before the delta literal), else all.
    limits: Vec<u32>,
    out: &'j mut Vec<(usize, u32)>,
    made: usize,
    ticks: u32,
    stop: Option<Stop>,
    allowance: usize,
    deadline: Instant,
}

impl Joiner<'_> {
    fn join(&mut self, pos: usize) {
        if self.stop.is_some() {
            return;
        }
        self.ticks += 1;
        if self.ticks >= 1 << 16 {
            self.ticks = 0;
            if Instant::now() > self.deadline {
                self.stop = Some(Stop::Time);
                return;
            }
        }
        let Some(&step) = self.steps.get(pos) else {
            self.emit();
            return;
        };
        let mark = self.trail.len();
        let (rule, relations, indexes) = (self.rule, self.relations, self.indexes);
        match step {
            JStep::Delta(lit) => {
                let BodyLit::Pos { rel, pat } = &rule.body[lit] else { return };
                for f in self.delta.0..self.delta.1 {
                    let t = relations[*rel].facts[f];
                    self.matched[lit] = t;
                    if self.terms.unify(pat, t, &mut self.binds, &mut self.trail) {
                        self.join(pos + 1);
                    }
                    self.undo(mark);
                }
            }
            JStep::Probe(lit, ix, key) => {
                let BodyLit::Pos { pat, .. } = &rule.body[lit] else { return };
                let index = &indexes[ix];
                let Some(&(first, _)) = index.chains.get(&key_of(&self.keys[key], &self.binds)) else { return };
                let facts = &relations[index.rel].facts;
                let limit = self.limits[lit];
                // Chains list facts in the order they came.
                let mut entry = first;
                while entry != NONE {
                    let f = index.facts[entry as usize];
                    if f >= limit {
                        break;
                    }
                    let t = facts[f as usize];
                    self.matched[lit] = t;
                    if self.terms.unify(pat, t, &mut self.binds, &mut self.trail) {
                        self.join(pos + 1);
                    }
                    self.undo(mark);
                    entry = index.next[entry as usize];
                }
            }
            JStep::Test(lit) => {
                let ok = match &rule.body[lit] {
                    BodyLit::Distinct(a, b) => {
                        matches!((self.terms.build(a, &self.binds), self.terms.build(b, &self.binds)), (Some(x), Some(y)) if x != y)
                    }
                    BodyLit::Same(a, b) => match self.terms.build(a, &self.binds) {
                        Some(x) => self.terms.unify(b, x, &mut self.binds, &mut self.trail),
                        None => match self.terms.build(b, &self.binds) {
                            Some(y) => self.terms.unify(a, y, &mut self.binds, &mut self.trail),
                            None => false,
                        },
                    },
                    BodyLit::Pos { .. } => false,
                };
                if ok {
                    self.join(pos + 1);
                }
                self.undo(mark);
            }
        }
    }

    fn undo(&mut self, mark: usize) {
        for v in self.trail.drain(mark..) {
            self.binds[v as usize] = NONE;
        }
    }

    fn emit(&mut self) {
        let head = self.terms.build(&self.rule.head, &self.binds);
        if let Some(instances) = self.instances.as_deref_mut() {
            self.row.clear();
            self.row.extend_from_slice(&self.binds);
            for (lit, &atom) in self.rule.body.iter().zip(&self.matched) {
                if let BodyLit::Pos { .. } = lit {
                    self.row.push(atom);
                }
            }
            self.row.push(head.unwrap_or(NONE));
            instances.push(&self.row);
        }
        if let Some(head) = head {
            self.out.push((self.rule.head_rel, head));
        }
        self.made += 1;
        if self.made > self.allowance {
            self.stop = Some(Stop::Budget);
        }
    }
}

impl Fixpoint<'_> {
    /// Evaluates every rule to the least fixpoint; fails past the budget
    /// (facts and instances together) or the deadline.
    ///
    /// The components of `optional` relations are evaluated last, until
    /// `optional.deadline`: if they stop (budget or time), the rest is
    /// complete and `Ok(Some(why))` says why they stopped. An optional
    /// relation must be one no other relation needs.
    pub(super) fn run(&mut self, optional: &Optional) -> Result<Option<Stop>, Stop> {
        let n = self.relations.len();
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut rules_of: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (r, rule) in self.rules.iter().enumerate() {
            rules_of[rule.head_rel].push(r);
            for lit in &rule.body {
                if let BodyLit::Pos { rel, .. } = lit
                    && !edges[rule.head_rel].contains(rel)
                {
                    edges[rule.head_rel].push(*rel);
                }
            }
        }
        let mut components = Vec::new();
        super::scc::each_component(n, |v, k| edges[v].get(k).copied(), |c| components.push(c.to_vec()));
        let mut made = 0usize;
        // Nothing needed elsewhere depends on an optional relation, so the
        // other components, in their order, come first.
        let is_optional = |members: &[usize]| members.iter().any(|&m| optional.relations.get(m) == Some(&true));
        let (optional_components, needed): (Vec<Vec<usize>>, Vec<Vec<usize>>) =
            components.into_iter().partition(|c| is_optional(c));
        let needed_deadline = self.deadline;
        for (is_optional, members) in
            needed.into_iter().map(|c| (false, c)).chain(optional_components.into_iter().map(|c| (true, c)))
        {
            let rules: Vec<usize> = members.iter().flat_map(|&m| rules_of[m].iter().copied()).collect();
            if rules.is_empty() {
                continue;
            }
            if is_optional {
                self.deadline = needed_deadline.min(optional.deadline);
            }
            let recursive = members.len() > 1 || edges[members[0]].contains(&members[0]);
            let result = self.component(&members, &rules, recursive, &mut made);
            self.deadline = needed_deadline;
            match result {
                Ok(()) => {}
                Err(stop) if is_optional => return Ok(Some(stop)),
                Err(stop) => return Err(stop),
            }
        }
        Ok(None)
    }

    fn component(&mut self, members: &[usize], rules: &[usize], recursive: bool, made: &mut usize) -> Result<(), Stop> {
        let mut indexes: Vec<Index> = Vec::new();
        let mut index_ids: FxHashMap<IndexKey, usize> = FxHashMap::default();
        let mut keys: Vec<Vec<u32>> = Vec::new();
        let mut plans: FxHashMap<(usize, Option<usize>), Vec<JStep>> = FxHashMap::default();
        let mut out: Vec<(usize, u32)> = Vec::new();
        // Facts of each member before the last round (the delta starts there).
        let mut seen: Vec<usize> = members.iter().map(|&m| self.relations[m].facts.len()).collect();
        let mut first = true;
        loop {
            let ends: Vec<usize> = members.iter().map(|&m| self.relations[m].facts.len()).collect();
            // (rule, delta literal, delta range) of this round.
            let mut work: Vec<(usize, Option<usize>, (usize, usize))> = Vec::new();
            for &r in rules {
                if first {
                    work.push((r, None, (0, 0)));
                    continue;
                }
                for (k, lit) in self.rules[r].body.iter().enumerate() {
                    if let BodyLit::Pos { rel, .. } = lit
                        && let Some(m) = members.iter().position(|x| x == rel)
                        && seen[m] < ends[m]
                    {
                        work.push((r, Some(k), (seen[m], ends[m])));
                    }
                }
            }
            if work.is_empty() {
                break;
            }
            for &(r, d, _) in &work {
                if let std::collections::hash_map::Entry::Vacant(e) = plans.entry((r, d)) {
                    e.insert(self.plan(r, d, &mut indexes, &mut index_ids, &mut keys));
                }
            }
            for index in &mut indexes {
                self.catch_up(index);
            }
            let all_rules = self.rules;
            for &(r, d, delta) in &work {
                let rule = &all_rules[r];
                let mut limits = vec![u32::MAX; rule.body.len()];
                if let Some(d) = d {
                    for (k, lit) in rule.body.iter().enumerate().take(d) {
                        if let BodyLit::Pos { rel, .. } = lit
                            && let Some(m) = members.iter().position(|x| x == rel)
                        {
                            limits[k] = seen[m] as u32;
                        }
                    }
                }
                let instances = match rule.instances {
                    Some(i) => Some(&mut self.instances[i]),
                    None => None,
                };
                let mut joiner = Joiner {
                    terms: &mut *self.terms,
                    relations: &*self.relations,
                    indexes: &indexes,
                    rule,
                    steps: &plans[&(r, d)],
                    keys: &keys,
                    delta,
                    binds: vec![NONE; rule.n_vars],
                    trail: Vec::new(),
                    matched: vec![NONE; rule.body.len()],
                    row: Vec::new(),
                    instances,
                    limits,
                    out: &mut out,
                    made: 0,
                    ticks: 0,
                    stop: None,
                    allowance: self.budget.saturating_sub(*made),
                    deadline: self.deadline,
                };
                joiner.join(0);
                *made += joiner.made;
                if let Some(stop) = joiner.stop {
                    return Err(stop);
                }
            }
            for (rel, atom) in out.drain(..) {
                if self.relations[rel].insert(atom) {
                    *made += 1;
                }
            }
            if *made > self.budget {
                return Err(Stop::Budget);
            }
            seen = ends;
            first = false;
            if !recursive {
                break;
            }
        }
        Ok(())
    }

    /// Brings an index up to date with its relation's facts.
    fn catch_up(&self, index: &mut Index) {
        let facts = &self.relations[index.rel].facts;
        let mut binds = vec![NONE; index.n_vars];
        let mut trail = Vec::new();
        for (f, &t) in facts.iter().enumerate().skip(index.upto) {
            if self.terms.unify(&index.pat, t, &mut binds, &mut trail) {
                let entry = index.facts.len() as u32;
                index.facts.push(f as u32);
                index.next.push(NONE);
                match index.chains.entry(key_of(&index.key_vars, &binds)) {
                    std::collections::hash_map::Entry::Occupied(mut e) => {
                        let (_, last) = e.get_mut();
                        index.next[*last as usize] = entry;
                        *last = entry;
                    }
                    std::collections::hash_map::Entry::Vacant(e) => {
                        e.insert((entry, entry));
                    }
                }
            }
            for v in trail.drain(..) {
                binds[v as usize] = NONE;
            }
        }
        index.upto = facts.len();
    }

    /// The join order of rule `r`, starting with its literal `delta` if any:
    /// tests as soon as they can run, then the literal expected to match
    /// the fewest facts given the variables bound so far.
    fn plan(
        &self,
        r: usize,
        delta: Option<usize>,
        indexes: &mut Vec<Index>,
        index_ids: &mut FxHashMap<IndexKey, usize>,
        keys: &mut Vec<Vec<u32>>,
    ) -> Vec<JStep> {
        let rule = &self.rules[r];
        let mut bound = vec![false; rule.n_vars];
        let mut steps = Vec::new();
        let mut left: Vec<usize> = (0..rule.body.len()).collect();
        let bind = |p: &P, bound: &mut Vec<bool>| {
            let mut vs = Vec::new();
            p.vars(&mut vs);
            for v in vs {
                bound[v as usize] = true;
            }
        };
        let all_bound = |p: &P, bound: &[bool]| {
            let mut vs = Vec::new();
            p.vars(&mut vs);
            vs.iter().all(|&v| bound[v as usize])
        };
        if let Some(d) = delta {
            steps.push(JStep::Delta(d));
            if let BodyLit::Pos { pat, .. } = &rule.body[d] {
                bind(pat, &mut bound);
            }
            left.retain(|&k| k != d);
        }
        loop {
            // Tests that can run now.
            let mut k = 0;
            while k < left.len() {
                let ready = match &rule.body[left[k]] {
                    BodyLit::Distinct(a, b) => all_bound(a, &bound) && all_bound(b, &bound),
                    BodyLit::Same(a, b) => all_bound(a, &bound) || all_bound(b, &bound),
                    BodyLit::Pos { .. } => false,
                };
                if ready {
                    if let BodyLit::Same(a, b) = &rule.body[left[k]] {
                        bind(a, &mut bound);
                        bind(b, &mut bound);
                    }
                    steps.push(JStep::Test(left.remove(k)));
                } else {
                    k += 1;
                }
            }
            let mut best: Option<(f64, usize)> = None;
            for (i, &l) in left.iter().enumerate() {
                if let BodyLit::Pos { rel, pat } = &rule.body[l] {
                    let mut vs = Vec::new();
                    pat.vars(&mut vs);
                    let n_bound = vs.iter().filter(|&&v| bound[v as usize]).count();
                    let size = self.relations[*rel].facts.len() as f64 + 1.0;
                    let mut cost = size / 8f64.powi((n_bound + pat.n_ground()) as i32);
                    if n_bound == vs.len() {
                        cost = cost.min(1.0);
                    }
                    if best.is_none_or(|(c, _)| cost < c) {
                        best = Some((cost, i));
                    }
                }
            }
            let Some((_, i)) = best else { break };
            let l = left.remove(i);
            let BodyLit::Pos { rel, pat } = &rule.body[l] else { break };
            let mut vs = Vec::new();
            pat.vars(&mut vs);
            // The key's variables in their order in the pattern: literals
            // alike but for their variables' names share an index.
            let key_vars: Vec<u32> = vs.iter().copied().filter(|&v| bound[v as usize]).collect();
            let places: Vec<u32> = (0..vs.len() as u32).filter(|&i| bound[vs[i as usize] as usize]).collect();
            let shape = renamed(pat, &vs);
            let id = *index_ids.entry((*rel, shape.clone(), places.clone())).or_insert_with(|| {
                indexes.push(Index {
                    rel: *rel,
                    pat: shape,
                    key_vars: places,
                    n_vars: vs.len(),
                    upto: 0,
                    chains: FxHashMap::default(),
                    facts: Vec::new(),
                    next: Vec::new(),
                });
                indexes.len() - 1
            });
            keys.push(key_vars);
            steps.push(JStep::Probe(l, id, keys.len() - 1));
            bind(pat, &mut bound);
        }
        // Tests that never could run fail when they are reached.
        steps.extend(left.into_iter().map(JStep::Test));
        steps
    }
}
