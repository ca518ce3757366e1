//! Grounding: every rule instantiated with the values its variables can take
//! in some reachable state, the first step towards a propositional network.
//!
//! The values come from a relaxed game: every fluent that `init` or `next`
//! can ever produce is `true` at once, every legal move is played (`does`
//! from `legal`), and negations are dropped, so the relaxed facts
//! over-approximate every reachable state's. Relations that do not depend on
//! `true` or `does` are static: the prover evaluates them once, exactly; their
//! ground atoms are constants, their rules are not grounded, and literals on
//! them are simplified away (`--propnet` reports the sizes before and after).
//! The rest of the relaxed game is evaluated over interned terms
//! (src/gdl/relaxed.rs): the assignments that satisfy each rule
//! alternative's positive literals there (its instances) are its ground
//! rules, and the head's relaxed facts are their projections (the body is
//! joined once). Relations whose calls bind some arguments are grounded only
//! for the values asked for (src/gdl/demand.rs).

use rustc_hash::{FxHashMap, FxHashSet};

use std::time::{Duration, Instant};

use super::demand;
use super::description::{self as d, Description, Pattern};
use super::normal_form::{Lit, dnf};
use super::plan::{Demand, Dep, Plan};
use super::prover::{ProverError, Workspace};
use super::relaxed::{BodyLit, Fixpoint, Instances, NONE, Optional, P, Relation, RelaxedRule, Stop, Terms};
use super::term::{Sym, Term};
use crate::diagnostic::Diagnostic;

/// Facts the relaxed game may derive before grounding gives up.
pub const GROUND_BUDGET: usize = 2_000_000;

/// Time the relaxed game may take before grounding gives up.
pub const GROUND_SECONDS: u64 = 4;

/// Time the relations only goals need may take to ground (static ones
/// evaluated, the relaxed game's instances found) before grounding leaves
/// them out and the prover answers goals: goals are asked once a game, so a
/// game whose goals alone do not ground (sudoku's nine-cell permutations)
/// is still compiled for everything else.
pub const GOAL_GROUND_MILLIS: u64 = 500;

/// A ground atom: a relation name and ground arguments.
pub type Atom = (Sym, Vec<Term>);

/// A rule with no variables: `head` holds when every atom of its positive
/// literals holds and none of its negative ones does
/// ([`Grounding::positive`], [`Grounding::negative`]). The literals of all
/// rules are kept in one vector of the grounding: a game of a million ground
/// rules would otherwise allocate two million small vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroundRule {
    pub head: usize,
    start: usize,
    positive: u32,
    negative: u32,
}

/// The ground program of a game.
#[derive(Clone, Debug, Default)]
pub struct Grounding {
    /// Every ground atom, numbered.
    pub atoms: Vec<Atom>,
    pub rules: Vec<GroundRule>,
    /// For atoms of static relations, whether they hold (in every state);
    /// `None` for atoms that change with the state.
    pub static_value: Vec<Option<bool>>,
    /// Why the rules of `goal` (and the relations only they need) were left
    /// out, if they were: the program then answers everything but goals.
    pub goals_left_out: Option<String>,
    /// The ranges of `rules` that instantiate one rule alternative each:
    /// their literals come in the same order, relation by relation.
    pub groups: Vec<std::ops::Range<usize>>,
    /// The rules' literals, rule after rule, positive ones first.
    literals: Vec<usize>,
}

/// Sizes of a ground program, before and after static facts are folded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    pub atoms: usize,
    pub rules: usize,
    pub literals: usize,
}

impl Grounding {
    /// Adds the rule `head <= positive, not negative`.
    pub fn push_rule(&mut self, head: usize, positive: &[usize], negative: &[usize]) {
        let start = self.literals.len();
        self.literals.extend_from_slice(positive);
        self.literals.extend_from_slice(negative);
        self.rules.push(GroundRule { head, start, positive: positive.len() as u32, negative: negative.len() as u32 });
    }

    /// The atoms `rule` needs to hold.
    pub fn positive(&self, rule: &GroundRule) -> &[usize] {
        &self.literals[rule.start..rule.start + rule.positive as usize]
    }

    /// The atoms `rule` needs not to hold.
    pub fn negative(&self, rule: &GroundRule) -> &[usize] {
        let from = rule.start + rule.positive as usize;
        &self.literals[from..from + rule.negative as usize]
    }

    pub fn sizes(&self) -> Sizes {
        Sizes { atoms: self.atoms.len(), rules: self.rules.len(), literals: self.literals.len() }
    }

    /// The program after constant propagation of static facts: literals on
    /// static atoms are dropped when they hold, their rules dropped when they
    /// fail, and rules whose head is static are dropped (the head is a
    /// constant); atoms no rule mentions any more are not counted.
    pub fn folded_sizes(&self) -> Sizes {
        let mut used = vec![false; self.atoms.len()];
        let (mut rules, mut literals) = (0, 0);
        for rule in &self.rules {
            if self.static_value[rule.head].is_some() {
                continue;
            }
            let fails = self.positive(rule).iter().any(|&a| self.static_value[a] == Some(false))
                || self.negative(rule).iter().any(|&a| self.static_value[a] == Some(true));
            if fails {
                continue;
            }
            rules += 1;
            used[rule.head] = true;
            for &a in self.positive(rule).iter().chain(self.negative(rule)) {
                if self.static_value[a].is_none() {
                    literals += 1;
                    used[a] = true;
                }
            }
        }
        Sizes { atoms: used.iter().filter(|u| **u).count(), rules, literals }
    }
}

/// Reads, and grounds, the game at `path` (already checked by the caller).
pub fn ground_file(path: &std::path::Path) -> Result<Grounding, Vec<Diagnostic>> {
    let mut sources = crate::diagnostic::Sources::new();
    let file = sources
        .load_within(path, crate::limits::Limit::InputSize)
        .map_err(|e| vec![Diagnostic::error("stratagem::io", format!("cannot read `{}`: {e}", path.display()))])?;
    let text = sources.get(file).text.clone();
    let (forms, diags) = crate::syntax::read(file, &text);
    if crate::diagnostic::has_errors(&diags) {
        return Err(diags);
    }
    let (desc, diags) = Description::read(file, &forms);
    if crate::diagnostic::has_errors(&diags) {
        return Err(diags);
    }
    ground(&desc)
}

/// Grounds `desc`, or says why it cannot within the budget.
pub fn ground(desc: &Description) -> Result<Grounding, Vec<Diagnostic>> {
    ground_until(desc, None)
}

/// [`ground`], giving up at `until` too if it comes before the time budget
/// ends (a game server's start clock).
pub fn ground_until(desc: &Description, until: Option<Instant>) -> Result<Grounding, Vec<Diagnostic>> {
    // Bodies split where a variable can be projected away (decompose.rs).
    let split = super::decompose::decompose(desc);
    let desc = &split;
    let (real, _) = Plan::new(desc, None, Demand::Off)?;
    let is_static: FxHashSet<(Sym, usize)> =
        real.relations.iter().filter(|r| r.dep == Dep::Static).map(|r| (r.name, r.arity)).collect();
    let limits = Limits::new(until);
    let needed = needed_without_goals(desc);
    let only_for_goals = |name: Sym, arity: usize| !needed.contains(&(name, arity));
    let Statics { ws, mut goals_left_out, goal_deadline } = evaluate_statics(&real, &limits, &only_for_goals)?;
    let without_goals;
    let desc = if goals_left_out.is_some() {
        let mut kept = desc.clone();
        kept.rules.retain(|r| !only_for_goals(r.head.relation, r.head.args.len()));
        without_goals = kept;
        &without_goals
    } else {
        desc
    };
    let mut terms = Terms::default();
    let mut relations = RelaxedRelations::default();
    relations.add_statics(&real, &ws, &mut terms);
    drop(ws);
    let (rules, alternatives, demanded) = relaxed_game(desc, &is_static, &mut terms, &mut relations);
    let mut instances = instance_tables(desc, &alternatives, &demanded);
    // What only goals need, in the relaxed game: relations the others reach
    // neither as written nor through demand are left out if they stop.
    let optional = optional_relations(&rules, relations.relations.len(), |rel| {
        relations.ids.iter().any(|(&(name, arity), &r)| r == rel && !only_for_goals(name, arity))
    });
    let mut fixpoint = Fixpoint {
        terms: &mut terms,
        relations: &mut relations.relations,
        rules: &rules,
        instances: &mut instances,
        budget: GROUND_BUDGET,
        deadline: limits.deadline,
    };
    let stopped = fixpoint
        .run(&Optional { relations: optional.clone(), deadline: goal_deadline })
        .map_err(|stop| limits.error_of(stop))?;
    if let Some(stop) = stopped {
        goals_left_out = Some(goals_over(matches!(stop, Stop::Time)));
    }
    let left_out = |rule: &RelaxedRule| goals_left_out.is_some() && optional[rule.head_rel];

    let mut program = GroundProgram {
        grounding: Grounding { goals_left_out: goals_left_out.clone(), ..Grounding::default() },
        ids: Vec::new(),
        memo: Vec::new(),
        is_static: &is_static,
        relations: &relations,
    };
    program.add_static_outputs(&terms, |relation, arity| goals_left_out.is_some() && only_for_goals(relation, arity));
    let mut dropped = vec![false; alternatives.len()];
    for rule in rules.iter().filter(|r| left_out(r)) {
        if let Some(index) = rule.instances {
            dropped[index] = true;
        }
    }
    for (index, (alternative, found)) in alternatives.iter().zip(&instances).enumerate() {
        if !dropped[index] {
            program.add_alternative(&desc.rules[alternative.rule], alternative, found, &mut terms);
        }
    }
    Ok(program.grounding)
}

/// Grounding's clock (its own budget, or the caller's deadline if sooner)
/// and what running out of it or of facts is called.
struct Limits {
    budget_end: Instant,
    deadline: Instant,
}

impl Limits {
    fn new(until: Option<Instant>) -> Limits {
        let budget_end = Instant::now() + Duration::from_secs(GROUND_SECONDS);
        Limits { budget_end, deadline: until.map_or(budget_end, |until| until.min(budget_end)) }
    }

    fn over_time(&self) -> String {
        if self.deadline < self.budget_end {
            "grounding takes longer than the time left to load the game".to_owned()
        } else {
            format!("grounding takes longer than {GROUND_SECONDS} s, its time budget")
        }
    }

    fn over_budget() -> String {
        format!("grounding needs more than {GROUND_BUDGET} facts, the budget of the relaxed game")
    }

    fn error(why: String) -> Vec<Diagnostic> {
        vec![Diagnostic::error("stratagem::gdl::ground", why)]
    }

    /// The error of the relaxed game stopping at `stop`.
    fn error_of(&self, stop: Stop) -> Vec<Diagnostic> {
        Limits::error(match stop {
            Stop::Budget => Limits::over_budget(),
            Stop::Time => self.over_time(),
        })
    }
}

/// Why goals are left out: the relations only they need ran out of time
/// (`over_time`) or of facts.
fn goals_over(over_time: bool) -> String {
    if over_time {
        format!("the relations legal, next and terminal do not need take longer than {GOAL_GROUND_MILLIS} ms to ground")
    } else {
        format!("the relations legal, next and terminal do not need derive more than {GROUND_BUDGET} facts")
    }
}

/// The static relations, evaluated by the prover.
struct Statics {
    ws: Workspace,
    /// Why the static relations only goals need are left out, if they are.
    goals_left_out: Option<String>,
    /// When the relations only goals need must be done grounding.
    goal_deadline: Instant,
}

/// Static relations are the same in every state: the prover evaluates
/// them exactly, once; those only goals need last, within a limit.
fn evaluate_statics(
    real: &Plan,
    limits: &Limits,
    only_for_goals: &impl Fn(Sym, usize) -> bool,
) -> Result<Statics, Vec<Diagnostic>> {
    let mut ws = Workspace::with_static_strata(real, GROUND_BUDGET, Some(limits.deadline), |s| {
        real.strata[s].relations.iter().any(|&r| !only_for_goals(real.relations[r].name, real.relations[r].arity))
    })
    .map_err(|e: ProverError| {
        Limits::error(if e.0.contains("time limit") { limits.over_time() } else { Limits::over_budget() })
    })?;
    let goal_deadline = (Instant::now() + Duration::from_millis(GOAL_GROUND_MILLIS)).min(limits.deadline);
    let goals_left_out =
        ws.evaluate_other_statics(real, goal_deadline).err().map(|e| goals_over(e.0.contains("time limit")));
    Ok(Statics { ws, goals_left_out, goal_deadline })
}

/// The relaxed game's relations, numbered by name and arity as they are
/// first met.
#[derive(Default)]
struct RelaxedRelations {
    relations: Vec<Relation>,
    ids: FxHashMap<(Sym, usize), usize>,
}

impl RelaxedRelations {
    /// The number of relation `name` of `arity`, added if new.
    fn id(&mut self, name: Sym, arity: usize) -> usize {
        *self.ids.entry((name, arity)).or_insert_with(|| {
            self.relations.push(Relation::default());
            self.relations.len() - 1
        })
    }

    /// Fills the static relations with the facts the prover found (`ws`).
    fn add_statics(&mut self, real: &Plan, ws: &Workspace, terms: &mut Terms) {
        for (i, r) in real.relations.iter().enumerate() {
            if r.dep == Dep::Static {
                let rel = self.id(r.name, r.arity);
                for fact in ws.table(i).facts() {
                    let a = terms.intern_atom(r.name, fact);
                    self.relations[rel].insert(a);
                }
            }
        }
    }
}

/// Per alternative, the table of its instances: a row holds its variables'
/// values, then the atoms its positive literals matched, then a demanded
/// head's demand literal's atom, and the head's own atom last.
fn instance_tables(
    desc: &Description,
    alternatives: &[Alternative],
    demanded: &FxHashSet<(Sym, usize)>,
) -> Vec<Instances> {
    alternatives
        .iter()
        .map(|a| {
            let n_pos = a.literals.iter().filter(|l| matches!(l, Lit::Pos(_))).count();
            let head = &desc.rules[a.rule].head;
            let demand = usize::from(demanded.contains(&(head.relation, head.args.len())));
            Instances::new(desc.rules[a.rule].vars.len() + n_pos + demand + 1)
        })
        .collect()
}

/// The ground program as it is written: atoms numbered as they are first
/// met, each instance of an alternative a ground rule.
struct GroundProgram<'a> {
    grounding: Grounding,
    /// The ground program's number of each atom's term, `usize::MAX` if none yet.
    ids: Vec<usize>,
    memo: Vec<Option<Term>>,
    is_static: &'a FxHashSet<(Sym, usize)>,
    relations: &'a RelaxedRelations,
}

impl GroundProgram<'_> {
    /// The number of the atom of term `id`, added if new. Static relations
    /// are evaluated exactly: their atoms are constants.
    fn atom(&mut self, terms: &Terms, id: u32) -> usize {
        let slot = id as usize;
        if slot >= self.ids.len() {
            self.ids.resize(slot + 1, usize::MAX);
        }
        if self.ids[slot] != usize::MAX {
            return self.ids[slot];
        }
        let (relation, args) = terms.atom(id, &mut self.memo);
        let key = (relation, args.len());
        let relations = self.relations;
        let value = self
            .is_static
            .contains(&key)
            .then(|| relations.ids.get(&key).is_some_and(|&rel| relations.relations[rel].contains(id)));
        let g = &mut self.grounding;
        let a = g.atoms.len();
        g.static_value.push(value);
        g.atoms.push((relation, args));
        self.ids[slot] = a;
        a
    }

    /// Outputs that are static hold without a rule: their atoms, except
    /// those of the relations `left_out`.
    fn add_static_outputs(&mut self, terms: &Terms, left_out: impl Fn(Sym, usize) -> bool) {
        for (relation, arity) in [(d::LEGAL, 2), (d::GOAL, 2), (d::TERMINAL, 0), (d::NEXT, 1)] {
            if self.is_static.contains(&(relation, arity))
                && !left_out(relation, arity)
                && let Some(&rel) = self.relations.ids.get(&(relation, arity))
            {
                for &fact in &self.relations.relations[rel].facts {
                    self.atom(terms, fact);
                }
            }
        }
    }

    /// The ground rules of `alternative` (of `rule`), one per instance in
    /// `found`, as one group.
    fn add_alternative(&mut self, rule: &d::Rule, alternative: &Alternative, found: &Instances, terms: &mut Terms) {
        // Positive literals' atoms come with the instance; negative ones
        // are built from its variables' values.
        let negated: Vec<Option<P>> = alternative
            .literals
            .iter()
            .filter_map(|lit| match lit {
                Lit::Pos(_) => Some(None),
                Lit::Neg(s) => Some(Some(P::atom(s.relation, &s.args, terms))),
                Lit::Distinct(..) | Lit::Same(..) => None,
            })
            .collect();
        let n_vars = rule.vars.len();
        let first = self.grounding.rules.len();
        let (mut positive, mut negative) = (Vec::new(), Vec::new());
        'rows: for i in 0..found.len() {
            let row = found.row(i);
            let (binds, matched) = row.split_at(n_vars);
            let Some((&h, matched)) = matched.split_last() else { continue };
            if h == NONE {
                continue;
            }
            positive.clear();
            negative.clear();
            let mut matched = matched.iter();
            for literal in &negated {
                match literal {
                    None => {
                        let Some(&a) = matched.next() else { continue 'rows };
                        positive.push(self.atom(terms, a));
                    }
                    Some(p) => {
                        // A variable no positive literal binds (an unsafe
                        // rule) leaves the instance out, as the prover does.
                        let Some(a) = terms.build(p, binds) else { continue 'rows };
                        negative.push(self.atom(terms, a));
                    }
                }
            }
            let head = self.atom(terms, h);
            self.grounding.push_rule(head, &positive, &negative);
        }
        let g = &mut self.grounding;
        g.groups.push(first..g.rules.len());
    }
}

/// The relations the rules of `legal`, `next` and `terminal` need (and
/// `init` and `role`), through positive and negative literals alike: what
/// the game needs without its goals.
fn needed_without_goals(desc: &Description) -> FxHashSet<(Sym, usize)> {
    let mut reads: FxHashMap<(Sym, usize), Vec<(Sym, usize)>> = FxHashMap::default();
    for rule in &desc.rules {
        let body = reads.entry((rule.head.relation, rule.head.args.len())).or_default();
        fn walk(lit: &d::Literal, out: &mut Vec<(Sym, usize)>) {
            match lit {
                d::Literal::Pos(s) => out.push((s.relation, s.args.len())),
                d::Literal::Not(l, _) => walk(l, out),
                d::Literal::Or(ls, _) => ls.iter().for_each(|l| walk(l, out)),
                d::Literal::Distinct(..) => {}
            }
        }
        rule.body.iter().for_each(|l| walk(l, body));
    }
    // `true` and `does` read `next`, `init` and `legal` in the relaxed game.
    let mut needed: FxHashSet<(Sym, usize)> = FxHashSet::default();
    let mut stack =
        vec![(d::LEGAL, 2), (d::NEXT, 1), (d::TERMINAL, 0), (d::INIT, 1), (d::ROLE, 1), (d::TRUE, 1), (d::DOES, 2)];
    while let Some(rel) = stack.pop() {
        if needed.insert(rel) {
            stack.extend(reads.get(&rel).into_iter().flatten().copied());
        }
    }
    needed
}

/// The relations of the relaxed game no needed relation reaches (by
/// relation number): the part grounding may leave out.
fn optional_relations(rules: &[RelaxedRule], n: usize, needed: impl Fn(usize) -> bool) -> Vec<bool> {
    let mut reads: Vec<Vec<usize>> = vec![Vec::new(); n];
    for rule in rules {
        for lit in &rule.body {
            if let BodyLit::Pos { rel, .. } = lit {
                reads[rule.head_rel].push(*rel);
            }
        }
    }
    let mut reached = vec![false; n];
    let mut stack: Vec<usize> = (0..n).filter(|&r| needed(r)).collect();
    while let Some(r) = stack.pop() {
        if !std::mem::replace(&mut reached[r], true) {
            stack.extend(reads[r].iter().copied());
        }
    }
    reached.iter().map(|r| !r).collect()
}

/// One alternative of a rule whose head is not static: its instances are
/// its ground rules.
struct Alternative {
    rule: usize,
    literals: Vec<Lit>,
}

/// The rules of the relaxed game over `relations` (static ones are already
/// filled, exactly): every fluent `init` or `next` can produce is `true`,
/// every legal move is played, negations are dropped. Each alternative of a
/// rule whose head is not static keeps its instances. Also returns the
/// relations whose calls are restricted to what is demanded of them.
fn relaxed_game(
    desc: &Description,
    is_static: &FxHashSet<(Sym, usize)>,
    terms: &mut Terms,
    relations: &mut RelaxedRelations,
) -> (Vec<RelaxedRule>, Vec<Alternative>, FxHashSet<(Sym, usize)>) {
    let mut rules = Vec::new();
    for (head, body, arity) in [(d::TRUE, d::INIT, 1), (d::TRUE, d::NEXT, 1), (d::DOES, d::LEGAL, 2)] {
        rules.push(bridge(head, body, arity, terms, relations));
    }
    let alternatives = alternatives_of(desc, is_static);
    let demand = DemandRelations::of(desc, &alternatives, is_static);
    for (index, alternative) in alternatives.iter().enumerate() {
        add_alternative_rules(&mut rules, &desc.rules[alternative.rule], index, alternative, &demand, terms, relations);
    }
    let demanded = demand.adorn.into_keys().collect();
    (rules, alternatives, demanded)
}

/// The relaxed rule `head(?0 .. ?arity) <= body(?0 .. ?arity)`.
fn bridge(head: Sym, body: Sym, arity: usize, terms: &mut Terms, relations: &mut RelaxedRelations) -> RelaxedRule {
    let args: Vec<Pattern> = (0..arity as u32).map(Pattern::Var).collect();
    let head_rel = relations.id(head, arity);
    let rel = relations.id(body, arity);
    RelaxedRule {
        head_rel,
        head: P::atom(head, &args, terms),
        body: vec![BodyLit::Pos { rel, pat: P::atom(body, &args, terms) }],
        n_vars: arity,
        instances: None,
    }
}

/// The alternatives of the rules whose heads are not static, rule by rule.
fn alternatives_of(desc: &Description, is_static: &FxHashSet<(Sym, usize)>) -> Vec<Alternative> {
    let mut alternatives = Vec::new();
    for (i, original) in desc.rules.iter().enumerate() {
        if is_static.contains(&(original.head.relation, original.head.args.len())) {
            continue;
        }
        for mut literals in dnf(&original.body) {
            // As the prover does: an unbound role of a legal or goal head
            // ranges over the roles.
            super::normal_form::bind_role_argument(&original.head, &mut literals);
            alternatives.push(Alternative { rule: i, literals });
        }
    }
    alternatives
}

/// The relations whose calls bind some arguments (demand.rs): the places
/// each call binds, and the demand relation of each.
struct DemandRelations {
    adorn: FxHashMap<(Sym, usize), Vec<bool>>,
    magic: FxHashMap<(Sym, usize), (Sym, usize)>,
}

impl DemandRelations {
    fn of(desc: &Description, alternatives: &[Alternative], is_static: &FxHashSet<(Sym, usize)>) -> DemandRelations {
        let calls: Vec<(&d::Sentence, &[Lit])> =
            alternatives.iter().map(|a| (&desc.rules[a.rule].head, a.literals.as_slice())).collect();
        let adorn = demand::adornments(&calls, is_static);
        // Demand relations get names the game cannot use: past its symbols.
        let mut magic: FxHashMap<(Sym, usize), (Sym, usize)> = FxHashMap::default();
        let mut keys: Vec<&(Sym, usize)> = adorn.keys().collect();
        keys.sort();
        for (k, &&key) in keys.iter().enumerate() {
            let arity = adorn[&key].iter().filter(|&&b| b).count();
            magic.insert(key, (desc.symbols.len() as Sym + k as Sym, arity));
        }
        DemandRelations { adorn, magic }
    }

    /// `magic(R)(demanded args)` for a sentence on a restricted relation.
    fn demand_of(&self, s: &d::Sentence) -> Option<d::Sentence> {
        let k = (s.relation, s.args.len());
        let (&(name, _), places) = (self.magic.get(&k)?, &self.adorn[&k]);
        Some(d::Sentence { relation: name, args: demand::demanded_args(s, places), span: s.span })
    }
}

/// The relaxed rules of alternative `index` of `original`: a demand rule for
/// each call on a restricted relation, then the alternative itself, which
/// keeps its instances.
fn add_alternative_rules(
    rules: &mut Vec<RelaxedRule>,
    original: &d::Rule,
    index: usize,
    alternative: &Alternative,
    demand: &DemandRelations,
    terms: &mut Terms,
    relations: &mut RelaxedRelations,
) {
    let head_demand = demand.demand_of(&original.head);
    let mut body = Vec::new();
    let mut before: Vec<BodyLit> = Vec::new();
    if let Some(m) = &head_demand {
        let rel = relations.id(m.relation, m.args.len());
        before.push(BodyLit::Pos { rel, pat: P::atom(m.relation, &m.args, terms) });
    }
    for lit in &alternative.literals {
        match lit {
            Lit::Pos(s) => {
                // What this call asks for: the demanded arguments, given
                // the head's demand and the positive literals before it.
                if let Some(m) = demand.demand_of(s) {
                    rules.push(RelaxedRule {
                        head_rel: relations.id(m.relation, m.args.len()),
                        head: P::atom(m.relation, &m.args, terms),
                        body: before.clone(),
                        n_vars: original.vars.len(),
                        instances: None,
                    });
                }
                let rel = relations.id(s.relation, s.args.len());
                let literal = BodyLit::Pos { rel, pat: P::atom(s.relation, &s.args, terms) };
                before.push(literal.clone());
                body.push(literal);
            }
            Lit::Distinct(a, b) => body.push(BodyLit::Distinct(P::of(a, terms), P::of(b, terms))),
            Lit::Same(a, b) => body.push(BodyLit::Same(P::of(a, terms), P::of(b, terms))),
            Lit::Neg(_) => {}
        }
    }
    // The head's demand goes last: grounding reads the atoms matched by
    // the rule's own positive literals, in order, and ignores it.
    if head_demand.is_some() {
        body.push(before.swap_remove(0));
    }
    let head = &original.head;
    rules.push(RelaxedRule {
        head_rel: relations.id(head.relation, head.args.len()),
        head: P::atom(head.relation, &head.args, terms),
        body,
        n_vars: original.vars.len(),
        instances: Some(index),
    });
}

/// A reference evaluator of a ground program, state by state: the oracle
/// that grounding is checked against (the prover's answers must come out).
pub struct GroundEvaluator<'g> {
    grounding: &'g Grounding,
    /// Rules by strongly connected component of the atom graph, in
    /// dependency order, with whether the component is recursive.
    order: Vec<(Vec<usize>, bool)>,
    index: FxHashMap<(Sym, Vec<Term>), usize>,
    value: Vec<bool>,
}

impl<'g> GroundEvaluator<'g> {
    /// Orders the rules; fails if negation is not stratified among ground atoms.
    pub fn new(grounding: &'g Grounding) -> Result<GroundEvaluator<'g>, String> {
        let n = grounding.atoms.len();
        let mut edges: Vec<Vec<(usize, bool)>> = vec![Vec::new(); n];
        let mut rules_of: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, rule) in grounding.rules.iter().enumerate() {
            rules_of[rule.head].push(i);
            edges[rule.head].extend(grounding.positive(rule).iter().map(|&a| (a, true)));
            edges[rule.head].extend(grounding.negative(rule).iter().map(|&a| (a, false)));
        }
        let components = super::plan::strongly_connected(&edges);
        let mut component_of = vec![0; n];
        for (c, members) in components.iter().enumerate() {
            for &a in members {
                component_of[a] = c;
            }
        }
        let mut order = Vec::new();
        for members in &components {
            let recursive = members.len() > 1 || edges[members[0]].iter().any(|&(b, _)| b == members[0]);
            for &a in members {
                if edges[a].iter().any(|&(b, positive)| !positive && component_of[b] == component_of[a]) {
                    return Err(format!("ground atom {a} depends on its own negation"));
                }
            }
            order.push((members.iter().flat_map(|&a| rules_of[a].iter().copied()).collect(), recursive));
        }
        let index = grounding.atoms.iter().enumerate().map(|(i, a)| (a.clone(), i)).collect();
        Ok(GroundEvaluator { grounding, order, index, value: vec![false; n] })
    }

    /// Evaluates every atom for a state (its fluents) and a joint move
    /// (`(role, move)` pairs, or none). A fluent or move without an atom is
    /// one that no rule reads, so it changes nothing.
    pub fn evaluate(&mut self, fluents: &[Term], joint: &[(Term, Term)]) {
        let g = self.grounding;
        for (v, s) in self.value.iter_mut().zip(&g.static_value) {
            *v = s.unwrap_or(false);
        }
        for f in fluents {
            if let Some(&a) = self.index.get(&(d::TRUE, vec![f.clone()])) {
                self.value[a] = true;
            }
        }
        for (r, m) in joint {
            if let Some(&a) = self.index.get(&(d::DOES, vec![r.clone(), m.clone()])) {
                self.value[a] = true;
            }
        }
        for (rules, recursive) in &self.order {
            loop {
                let mut changed = false;
                for &i in rules {
                    let rule = &g.rules[i];
                    if !self.value[rule.head]
                        && g.positive(rule).iter().all(|&a| self.value[a])
                        && g.negative(rule).iter().all(|&a| !self.value[a])
                    {
                        self.value[rule.head] = true;
                        changed = true;
                    }
                }
                if !*recursive || !changed {
                    break;
                }
            }
        }
    }

    /// The arguments of the atoms of `relation` (with `arity`) that hold.
    pub fn holding(&self, relation: Sym, arity: usize) -> Vec<Vec<Term>> {
        let g = self.grounding;
        (0..g.atoms.len())
            .filter(|&a| self.value[a] && g.atoms[a].0 == relation && g.atoms[a].1.len() == arity)
            .map(|a| g.atoms[a].1.clone())
            .collect()
    }
}
