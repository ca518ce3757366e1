//! The prover: bottom-up evaluation of a [`Plan`] over the facts of one state.
//!
//! Each relation's facts live in a [`Table`]: a flat vector of terms (one
//! tuple after another), a hash set of tuples, and the hash indexes the plan
//! asked for, kept up to date as facts arrive. A stratum is evaluated by
//! nested-loop joins over those indexes; a recursive stratum semi-naively
//! (each round joins one literal against the facts the previous round added,
//! which, since facts are only appended, is a range of the table).
//!
//! A [`Workspace`] holds every table: the static ones filled once per game,
//! the state and move ones refilled for each state and joint move, and only
//! the strata a query needs are evaluated.

use hashbrown::HashTable;
use std::time::Instant;

use rustc_hash::FxHashMap;

use super::description::Pattern;
use super::plan::{Dep, IndexSpec, Plan, PlannedRule, Probe, Query, Step};
use super::term::{Term, hash_tuple, mix};

/// More facts than this in one evaluation stop it: a game whose rules blow
/// up is refused with a message instead of exhausting memory.
pub const FACT_BUDGET: usize = 5_000_000;

/// The prover gave up on a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProverError(pub String);

impl std::fmt::Display for ProverError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProverError {}

/// A hash index: key hash → chain of fact numbers in insertion order.
#[derive(Clone, Debug, Default)]
struct Index {
    heads: FxHashMap<u64, (u32, u32)>,
    next: Vec<u32>,
}

const END: u32 = u32::MAX;

/// The facts of one relation.
#[derive(Clone, Debug)]
pub struct Table {
    arity: usize,
    terms: Vec<Term>,
    len: usize,
    set: HashTable<u32>,
    specs: Vec<IndexSpec>,
    indexes: Vec<Index>,
}

impl Table {
    fn new(arity: usize, specs: Vec<IndexSpec>) -> Table {
        let indexes = vec![Index::default(); specs.len()];
        Table { arity, terms: Vec::new(), len: 0, set: HashTable::new(), specs, indexes }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The arguments of fact `i`.
    #[inline]
    pub fn fact(&self, i: usize) -> &[Term] {
        &self.terms[i * self.arity..(i + 1) * self.arity]
    }

    pub fn facts(&self) -> impl Iterator<Item = &[Term]> {
        (0..self.len).map(|i| self.fact(i))
    }

    fn clear(&mut self) {
        self.terms.clear();
        self.len = 0;
        self.set.clear();
        for index in &mut self.indexes {
            index.heads.clear();
            index.next.clear();
        }
    }

    pub fn contains(&self, args: &[Term]) -> bool {
        let hash = hash_tuple(args);
        let (terms, arity) = (&self.terms, self.arity);
        self.set.find(hash, |&i| &terms[i as usize * arity..(i as usize + 1) * arity] == args).is_some()
            || (arity == 0 && self.len > 0)
    }

    /// Adds a fact; false if it was there.
    fn insert(&mut self, args: &[Term]) -> bool {
        if self.arity == 0 {
            if self.len > 0 {
                return false;
            }
            self.len = 1;
            return true;
        }
        let hash = hash_tuple(args);
        let (terms, arity) = (&self.terms, self.arity);
        if self.set.find(hash, |&i| &terms[i as usize * arity..(i as usize + 1) * arity] == args).is_some() {
            return false;
        }
        let i = self.len as u32;
        let terms = &self.terms;
        self.set.insert_unique(hash, i, |&j| hash_tuple(&terms[j as usize * arity..(j as usize + 1) * arity]));
        self.terms.extend_from_slice(args);
        self.len += 1;
        for (spec, index) in self.specs.iter().zip(&mut self.indexes) {
            index.next.push(END);
            if let Some(key) = fact_key(spec, args) {
                match index.heads.get_mut(&key) {
                    Some((_, last)) => {
                        index.next[*last as usize] = i;
                        *last = i;
                    }
                    None => {
                        index.heads.insert(key, (i, i));
                    }
                }
            }
        }
        true
    }
}

/// The key of a fact under `spec`, or `None` when the fact lacks the
/// function terms the spec looks into (so no literal using it can match).
fn fact_key(spec: &IndexSpec, args: &[Term]) -> Option<u64> {
    let mut h = 0x243F_6A88_85A3_08D3;
    for Probe { path, shape } in spec {
        let mut t = args.get(usize::from(*path.first()?))?;
        for &step in &path[1..] {
            t = t.args().get(usize::from(step))?;
        }
        match shape {
            Some((name, arity)) => match t {
                Term::Fn(c) if c.functor == *name && c.args.len() == *arity => h = mix(h, u64::from(*name)),
                _ => return None,
            },
            None => h = mix(h, t.hash64()),
        }
    }
    Some(h)
}

/// The key a literal looks up: the same walk over its pattern, with bound
/// variables replaced by their values.
fn pattern_key(spec: &IndexSpec, args: &[Pattern], binds: &[Option<Term>]) -> Option<u64> {
    let mut h = 0x243F_6A88_85A3_08D3;
    for Probe { path, shape } in spec {
        let mut p = args.get(usize::from(*path.first()?))?;
        for &step in &path[1..] {
            match p {
                Pattern::Fn(_, a) => p = a.get(usize::from(step))?,
                _ => return None,
            }
        }
        match shape {
            Some((name, _)) => h = mix(h, u64::from(*name)),
            None => h = mix(h, build(p, binds)?.hash64()),
        }
    }
    Some(h)
}

/// The ground term `p` denotes under `binds`; `None` if a variable is unbound.
pub(super) fn build(p: &Pattern, binds: &[Option<Term>]) -> Option<Term> {
    match p {
        Pattern::Const(s) => Some(Term::Const(*s)),
        Pattern::Var(v) => binds.get(*v as usize)?.clone(),
        Pattern::Fn(name, args) => {
            let args = args.iter().map(|a| build(a, binds)).collect::<Option<Box<[Term]>>>()?;
            Some(Term::compound(*name, args))
        }
    }
}

/// Unifies pattern `p` with ground `t`, binding free variables (recorded on
/// `trail` so the caller can undo them).
fn unify(p: &Pattern, t: &Term, binds: &mut [Option<Term>], trail: &mut Vec<u32>) -> bool {
    match p {
        Pattern::Const(s) => matches!(t, Term::Const(c) if c == s),
        Pattern::Var(v) => match &binds[*v as usize] {
            Some(b) => b == t,
            None => {
                binds[*v as usize] = Some(t.clone());
                trail.push(*v);
                true
            }
        },
        Pattern::Fn(name, args) => match t {
            Term::Fn(c) if c.functor == *name && c.args.len() == args.len() => {
                args.iter().zip(c.args.iter()).all(|(a, t)| unify(a, t, binds, trail))
            }
            _ => false,
        },
    }
}

fn undo(binds: &mut [Option<Term>], trail: &mut Vec<u32>, mark: usize) {
    for v in trail.drain(mark..) {
        binds[v as usize] = None;
    }
}

/// Every table of a game, and which strata are up to date.
#[derive(Clone, Debug)]
pub struct Workspace {
    tables: Vec<Table>,
    done: Vec<bool>,
    facts_made: usize,
    /// Facts derived since the workspace was made (static ones included).
    pub total_facts: usize,
    /// The most facts one state may derive.
    pub budget: usize,
    /// When evaluation gives up, if it has a time limit (grounding has).
    deadline: Option<Instant>,
    /// Join steps tried since the workspace was made: the work evaluation
    /// did, which the facts it derived do not bound.
    pub joins: u64,
    /// The most join steps evaluation may try in all before giving up: a
    /// clock that reads the same on any machine (choosing a plan uses it).
    join_budget: u64,
}

impl Workspace {
    /// Empty tables for `plan`, with the static strata evaluated.
    pub fn new(plan: &Plan) -> Result<Workspace, ProverError> {
        Workspace::with_budget(plan, FACT_BUDGET)
    }

    /// Like [`Workspace::new`], with at most `budget` facts per evaluation.
    pub fn with_budget(plan: &Plan, budget: usize) -> Result<Workspace, ProverError> {
        Workspace::with_limits(plan, budget, None)
    }

    /// Gives up evaluations still running at `deadline` (none: no limit).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Like [`Workspace::with_budget`], giving up at `deadline` too.
    pub fn with_limits(plan: &Plan, budget: usize, deadline: Option<Instant>) -> Result<Workspace, ProverError> {
        Workspace::with_static_strata(plan, budget, deadline, |_| true)
    }

    /// Gives up evaluations once [`Workspace::joins`] reaches `joins`.
    pub fn set_join_budget(&mut self, joins: u64) {
        self.join_budget = joins;
    }

    /// Like [`Workspace::with_limits`], evaluating only the static strata
    /// for which `wanted` holds; [`Workspace::evaluate_other_statics`] may
    /// evaluate the rest later, under a limit of their own.
    pub fn with_static_strata(
        plan: &Plan,
        budget: usize,
        deadline: Option<Instant>,
        wanted: impl Fn(usize) -> bool,
    ) -> Result<Workspace, ProverError> {
        let tables = plan.relations.iter().map(|r| Table::new(r.arity, r.specs.clone())).collect();
        let mut ws = Workspace {
            tables,
            done: vec![false; plan.strata.len()],
            facts_made: 0,
            total_facts: 0,
            budget,
            deadline,
            joins: 0,
            join_budget: u64::MAX,
        };
        for s in 0..plan.strata.len() {
            if plan.strata[s].dep == Dep::Static && wanted(s) {
                ws.evaluate(plan, s)?;
            }
        }
        Ok(ws)
    }

    /// Evaluates the static strata [`Workspace::with_static_strata`] left
    /// out, giving up at `deadline`.
    pub fn evaluate_other_statics(&mut self, plan: &Plan, deadline: Instant) -> Result<(), ProverError> {
        let kept = self.deadline.replace(self.deadline.map_or(deadline, |d| d.min(deadline)));
        let mut result = Ok(());
        for s in 0..plan.strata.len() {
            if plan.strata[s].dep == Dep::Static && !self.done[s] {
                result = self.evaluate(plan, s);
                if result.is_err() {
                    break;
                }
            }
        }
        self.deadline = kept;
        result
    }

    pub fn table(&self, rel: usize) -> &Table {
        &self.tables[rel]
    }

    /// Forgets everything that depends on the state (and on moves), and sets
    /// the state's fluents.
    pub fn set_state(&mut self, plan: &Plan, fluents: &[Term]) {
        self.clear_from(plan, Dep::State);
        let truth = &mut self.tables[plan.truth];
        for f in fluents {
            truth.insert(std::slice::from_ref(f));
        }
    }

    /// Forgets what depends on moves and sets the joint move (`(does role move)`).
    pub fn set_moves(&mut self, plan: &Plan, joint: &[(Term, Term)]) {
        self.clear_from(plan, Dep::Move);
        let does = &mut self.tables[plan.does];
        for (role, mv) in joint {
            does.insert(&[role.clone(), mv.clone()]);
        }
    }

    fn clear_from(&mut self, plan: &Plan, level: Dep) {
        for (rel, r) in plan.relations.iter().enumerate() {
            if r.dep >= level || (level == Dep::State && rel == plan.truth) || rel == plan.does {
                self.tables[rel].clear();
            }
        }
        for (s, stratum) in plan.strata.iter().enumerate() {
            if stratum.dep >= level {
                self.done[s] = false;
            }
        }
        self.facts_made = 0;
    }

    /// Evaluates every stratum, as if every relation were static (grounding's
    /// relaxed game, where `true` and `does` are derived by rules).
    pub fn evaluate_all(&mut self, plan: &Plan) -> Result<(), ProverError> {
        for s in 0..plan.strata.len() {
            if !self.done[s] {
                self.evaluate(plan, s)?;
            }
        }
        Ok(())
    }

    /// Evaluates the strata `query` needs that are not up to date.
    pub fn answer(&mut self, plan: &Plan, query: Query) -> Result<(), ProverError> {
        for &s in &plan.needs[query as usize] {
            if !self.done[s] {
                self.evaluate(plan, s)?;
            }
        }
        Ok(())
    }

    fn evaluate(&mut self, plan: &Plan, s: usize) -> Result<(), ProverError> {
        let stratum = &plan.strata[s];
        let mut out: Vec<(usize, Vec<Term>)> = Vec::new();
        let mut joiner = self.joiner(&mut out);
        for &r in &stratum.rules {
            let rule = &plan.rules[r];
            joiner.run(rule, &rule.body, None);
        }
        let outcome = joiner.outcome();
        self.account(outcome)?;
        let mut added = self.insert_all(&mut out)?;
        if stratum.recursive {
            // Rounds: each in-stratum literal reads the last round's facts,
            // first in its rule's body (`PlannedRule::deltas`).
            let mut previous: FxHashMap<usize, usize> = FxHashMap::default();
            for &rel in &stratum.relations {
                previous.insert(rel, 0);
            }
            while added > 0 {
                let ranges: Vec<(usize, usize, usize)> =
                    stratum.relations.iter().map(|&rel| (rel, previous[&rel], self.tables[rel].len())).collect();
                for &(rel, _, end) in &ranges {
                    previous.insert(rel, end);
                }
                let mut joiner = self.joiner(&mut out);
                for &r in &stratum.rules {
                    let rule = &plan.rules[r];
                    for body in &rule.deltas {
                        if let Some(Step::Scan { rel, .. }) = body.first()
                            && let Some(&(_, lo, hi)) = ranges.iter().find(|(x, _, _)| x == rel)
                            && lo < hi
                        {
                            joiner.run(rule, body, Some((0, lo, hi)));
                        }
                    }
                }
                let outcome = joiner.outcome();
                self.account(outcome)?;
                added = self.insert_all(&mut out)?;
            }
        }
        self.done[s] = true;
        Ok(())
    }

    fn over_budget(&self) -> ProverError {
        ProverError(format!(
            "the rules derived more than {} facts for one state; the game is too large for the prover",
            self.budget
        ))
    }

    /// A joiner over the tables, within what is left of the budgets.
    fn joiner<'a>(&'a self, out: &'a mut Vec<(usize, Vec<Term>)>) -> Joiner<'a> {
        Joiner::new(&self.tables, self.budget, self.deadline, self.join_budget.saturating_sub(self.joins), out)
    }

    /// Counts a joiner's work; an error if it stopped short of a budget.
    fn account(&mut self, outcome: JoinOutcome) -> Result<(), ProverError> {
        self.joins += outcome.joins;
        let JoinOutcome { exhausted, late, overworked, .. } = outcome;
        if late {
            return Err(ProverError("the evaluation ran past its time limit".to_owned()));
        }
        if overworked {
            return Err(ProverError(format!("the evaluation tried more than {} joins", self.join_budget)));
        }
        if exhausted {
            return Err(self.over_budget());
        }
        Ok(())
    }

    fn insert_all(&mut self, out: &mut Vec<(usize, Vec<Term>)>) -> Result<usize, ProverError> {
        let mut added = 0;
        for (rel, args) in out.drain(..) {
            if self.tables[rel].insert(&args) {
                added += 1;
            }
        }
        self.facts_made += added;
        self.total_facts += added;
        if self.facts_made > self.budget {
            return Err(self.over_budget());
        }
        Ok(added)
    }
}

/// How a joiner's run went.
struct JoinOutcome {
    joins: u64,
    /// It made as many derivations as it was allowed.
    exhausted: bool,
    late: bool,
    overworked: bool,
}

/// One rule's nested-loop join.
struct Joiner<'a> {
    tables: &'a [Table],
    /// Derivations (repeats included) this joiner may still make; at 0 it
    /// stops, and the evaluation fails with the fact budget's message.
    allowance: usize,
    deadline: Option<Instant>,
    /// Joins tried since the clock was last read.
    ticks: u32,
    /// Whether the deadline passed (the allowance is then 0).
    late: bool,
    /// Joins tried by this joiner.
    joins: u64,
    /// Joins it may still try.
    joins_left: u64,
    /// Whether it wanted more joins than that (the allowance is then 0).
    overworked: bool,
    binds: Vec<Option<Term>>,
    trail: Vec<u32>,
    out: &'a mut Vec<(usize, Vec<Term>)>,
}

impl<'a> Joiner<'a> {
    fn new(
        tables: &'a [Table],
        allowance: usize,
        deadline: Option<Instant>,
        joins_left: u64,
        out: &'a mut Vec<(usize, Vec<Term>)>,
    ) -> Joiner<'a> {
        Joiner {
            tables,
            allowance,
            deadline,
            ticks: 0,
            late: false,
            joins: 0,
            joins_left,
            overworked: false,
            binds: Vec::new(),
            trail: Vec::new(),
            out,
        }
    }

    fn outcome(&self) -> JoinOutcome {
        JoinOutcome { joins: self.joins, exhausted: self.allowance == 0, late: self.late, overworked: self.overworked }
    }

    /// Derives the rule's head for every way the body holds; with `delta`
    /// `(position, lo, hi)`, the literal at `position` only reads facts lo..hi.
    fn run(&mut self, rule: &PlannedRule, body: &[Step], delta: Option<(usize, usize, usize)>) {
        self.binds.clear();
        self.binds.resize(rule.n_vars, None);
        self.trail.clear();
        self.join(rule, body, 0, delta);
    }

    fn join(&mut self, rule: &PlannedRule, body: &[Step], pos: usize, delta: Option<(usize, usize, usize)>) {
        if self.allowance == 0 {
            return;
        }
        if self.joins_left == 0 {
            self.overworked = true;
            self.allowance = 0;
            return;
        }
        self.joins += 1;
        self.joins_left -= 1;
        if let Some(deadline) = self.deadline {
            self.ticks += 1;
            if self.ticks >= 1 << 16 {
                self.ticks = 0;
                if Instant::now() > deadline {
                    self.late = true;
                    self.allowance = 0;
                    return;
                }
            }
        }
        let Some(step) = body.get(pos) else {
            if let Some(args) = rule.head_args.iter().map(|a| build(a, &self.binds)).collect::<Option<Vec<_>>>() {
                self.out.push((rule.head, args));
                self.allowance -= 1;
            }
            return;
        };
        match step {
            Step::Scan { rel, args, index } => {
                let table = &self.tables[*rel];
                let (lo, hi) = match delta {
                    Some((p, lo, hi)) if p == pos => (lo, hi),
                    _ => (0, table.len()),
                };
                let mark = self.trail.len();
                match index {
                    Some(slot) => {
                        let Some(key) = pattern_key(&table.specs[*slot], args, &self.binds) else { return };
                        let index = &table.indexes[*slot];
                        let Some(&(first, _)) = index.heads.get(&key) else { return };
                        let mut i = first;
                        while i != END {
                            let fact = i as usize;
                            i = index.next[fact];
                            if fact < lo {
                                continue;
                            }
                            if fact >= hi {
                                break;
                            }
                            self.try_fact(rule, body, pos, delta, args, table.fact(fact), mark);
                        }
                    }
                    None => {
                        for fact in lo..hi {
                            self.try_fact(rule, body, pos, delta, args, table.fact(fact), mark);
                        }
                    }
                }
            }
            Step::Absent { rel, args } => {
                let Some(tuple) = args.iter().map(|a| build(a, &self.binds)).collect::<Option<Vec<_>>>() else {
                    return;
                };
                if !self.tables[*rel].contains(&tuple) {
                    self.join(rule, body, pos + 1, delta);
                }
            }
            Step::Distinct(a, b) => {
                if let (Some(x), Some(y)) = (build(a, &self.binds), build(b, &self.binds))
                    && x != y
                {
                    self.join(rule, body, pos + 1, delta);
                }
            }
            Step::Same(a, b) => {
                let (ground, other) = match build(a, &self.binds) {
                    Some(x) => (x, b),
                    None => match build(b, &self.binds) {
                        Some(y) => (y, a),
                        None => return,
                    },
                };
                let mark = self.trail.len();
                if unify(other, &ground, &mut self.binds, &mut self.trail) {
                    self.join(rule, body, pos + 1, delta);
                }
                undo(&mut self.binds, &mut self.trail, mark);
            }
        }
    }

    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn try_fact(
        &mut self,
        rule: &PlannedRule,
        body: &[Step],
        pos: usize,
        delta: Option<(usize, usize, usize)>,
        args: &[Pattern],
        fact: &[Term],
        mark: usize,
    ) {
        if args.iter().zip(fact).all(|(p, t)| unify(p, t, &mut self.binds, &mut self.trail)) {
            self.join(rule, body, pos + 1, delta);
        }
        undo(&mut self.binds, &mut self.trail, mark);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::FileId;
    use crate::gdl::description::Description;
    use crate::gdl::plan::{Demand, Query};

    /// `legal` joins 20 × 20 × 20 ways and derives nothing.
    const BUSY: &str = "(role r)
        (n 1) (n 2) (n 3) (n 4) (n 5) (n 6) (n 7) (n 8) (n 9) (n 10)
        (n 11) (n 12) (n 13) (n 14) (n 15) (n 16) (n 17) (n 18) (n 19) (n 20)
        (<= (init (on ?x)) (n ?x))
        (<= (triple ?x ?y ?z) (n ?x) (n ?y) (n ?z))
        (<= (legal r (go ?x)) (true (on ?x)) (true (on ?y)) (true (on ?z)) (not (triple ?x ?y ?z)))
        (<= (next (on ?x)) (does r (go ?x)))
        (<= terminal (true (on 2)))
        (goal r 100)";

    #[test]
    fn a_join_budget_stops_work_that_derives_nothing() {
        let (forms, _) = crate::syntax::read(FileId(0), BUSY);
        let (desc, diags) = Description::read(FileId(0), &forms);
        assert!(diags.is_empty(), "{diags:?}");
        let (plan, _) = Plan::new(&desc, None, Demand::Off).expect("a plan");
        let legal = |join_budget: Option<u64>| {
            let mut ws = Workspace::new(&plan).expect("statics");
            if let Some(joins) = join_budget {
                ws.set_join_budget(ws.joins + joins);
            }
            let before = ws.joins;
            let initial: Vec<Term> = ws.table(plan.init).facts().map(|f| f[0].clone()).collect();
            ws.set_state(&plan, &initial);
            ws.answer(&plan, Query::Legal).map(|()| ws.joins - before)
        };
        let joins = legal(None).expect("no limit");
        assert!(joins > 400, "{joins} joins");
        assert_eq!(legal(Some(joins)).expect("enough"), joins);
        let e = legal(Some(joins / 2)).expect_err("half the joins");
        assert!(e.0.contains("joins"), "{}", e.0);
    }
}
