//! Grounding: every rule instantiated with the values its variables can take
//! in some reachable state, the first step towards a propositional network.
//!
//! The values come from a relaxed game evaluated by the prover itself: every
//! fluent that `init` or `next` can ever produce is `true` at once, every
//! legal move is played (`does` from `legal`), and negations are dropped, so
//! the relaxed facts over-approximate every reachable state's. Each rule (one
//! alternative of its `or`s) gets an instance relation whose facts are the
//! assignments of its variables that satisfy its positive literals in the
//! relaxed game; each assignment is a ground rule, and the head's relaxed
//! facts are the instances' projections (the body is joined once).
//! Relations that do not depend on `true` or `does` are static: the relaxed
//! game keeps their rules as written, so their facts are exact; their ground
//! atoms are constants, their rules are not grounded, and literals on them
//! are simplified away (`--propnet` reports the sizes before and after).

use rustc_hash::{FxHashMap, FxHashSet};

use super::description::{self as d, Description, Literal, Pattern, Rule, Sentence};
use super::plan::{Demand, Dep, Lit, Plan, dnf};
use super::prover::{ProverError, Workspace, build};
use super::term::{Sym, Term};
use crate::diagnostic::Diagnostic;

/// Facts the relaxed game may derive before grounding gives up.
pub const GROUND_BUDGET: usize = 2_000_000;

/// Time the relaxed game may take before grounding gives up.
pub const GROUND_SECONDS: u64 = 4;

/// A ground atom: a relation name and ground arguments.
pub type Atom = (Sym, Vec<Term>);

/// A rule with no variables: `head` holds when every atom of `positive`
/// holds and none of `negative` does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroundRule {
    pub head: usize,
    pub positive: Vec<usize>,
    pub negative: Vec<usize>,
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
}

/// Sizes of a ground program, before and after static facts are folded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    pub atoms: usize,
    pub rules: usize,
    pub literals: usize,
}

impl Grounding {
    pub fn sizes(&self) -> Sizes {
        Sizes {
            atoms: self.atoms.len(),
            rules: self.rules.len(),
            literals: self.rules.iter().map(|r| r.positive.len() + r.negative.len()).sum(),
        }
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
            let fails = rule.positive.iter().any(|&a| self.static_value[a] == Some(false))
                || rule.negative.iter().any(|&a| self.static_value[a] == Some(true));
            if fails {
                continue;
            }
            rules += 1;
            used[rule.head] = true;
            for &a in rule.positive.iter().chain(&rule.negative) {
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
    let (real, _) = Plan::new(desc, None, Demand::Off)?;
    let is_static: FxHashSet<(Sym, usize)> =
        real.relations.iter().filter(|r| r.dep == Dep::Static).map(|r| (r.name, r.arity)).collect();
    let (relaxed, instances) = relaxed_game(desc, &is_static);
    let fail = |e: ProverError| {
        let why = if e.0.contains("time limit") {
            format!("grounding takes longer than {GROUND_SECONDS} s, its time budget")
        } else {
            format!("grounding needs more than {GROUND_BUDGET} facts, the budget of the relaxed game")
        };
        vec![Diagnostic::error("stratagem::gdl::ground", why)]
    };
    let deadline = Some(std::time::Instant::now() + std::time::Duration::from_secs(GROUND_SECONDS));
    // Literal orders from the initial state's facts, when it can be evaluated.
    let stats = super::machine::initial_statistics(desc, deadline);
    let (plan, _) = Plan::new(&relaxed, stats.as_ref(), Demand::Off)?;
    let mut ws = Workspace::with_limits(&plan, GROUND_BUDGET, deadline).map_err(fail)?;
    ws.evaluate_all(&plan).map_err(fail)?;
    let relation_of: FxHashMap<(Sym, usize), usize> =
        plan.relations.iter().enumerate().map(|(i, r)| ((r.name, r.arity), i)).collect();
    let table = |relation: Sym, arity: usize| relation_of.get(&(relation, arity)).map(|&rel| ws.table(rel));

    let mut g = Grounding::default();
    let mut ids: FxHashMap<Atom, usize> = FxHashMap::default();
    // Static relations are evaluated exactly: their atoms are constants.
    let mut atom = |g: &mut Grounding, relation: Sym, args: Vec<Term>| -> usize {
        let key = (relation, args);
        if let Some(&id) = ids.get(&key) {
            return id;
        }
        let id = g.atoms.len();
        let value = is_static
            .contains(&(key.0, key.1.len()))
            .then(|| table(key.0, key.1.len()).is_some_and(|t| t.contains(&key.1)));
        g.static_value.push(value);
        g.atoms.push(key.clone());
        ids.insert(key, id);
        id
    };
    // Outputs that are static hold without a rule.
    for (relation, arity) in [(d::LEGAL, 2), (d::GOAL, 2), (d::TERMINAL, 0), (d::NEXT, 1)] {
        if let Some(t) = table(relation, arity).filter(|_| is_static.contains(&(relation, arity))) {
            for fact in t.facts() {
                atom(&mut g, relation, fact.to_vec());
            }
        }
    }
    for instance in &instances {
        if let Some(t) = table(instance.name, instance.vars.len()) {
            instantiate(&mut g, &desc.rules[instance.rule], instance, t.facts(), &mut atom);
        }
    }
    Ok(g)
}

/// The ground rules of an instance relation's facts.
fn instantiate<'f>(
    g: &mut Grounding,
    rule: &Rule,
    instance: &Instance,
    facts: impl Iterator<Item = &'f [Term]>,
    atom: &mut impl FnMut(&mut Grounding, Sym, Vec<Term>) -> usize,
) {
    let mut head = Slot::new(&rule.head);
    let mut slots: Vec<Slot> = instance
        .alternative
        .iter()
        .filter_map(|lit| match lit {
            Lit::Pos(s) | Lit::Neg(s) => Some(Slot::new(s)),
            Lit::Distinct(..) | Lit::Same(..) => None,
        })
        .collect();
    let mut binds: Vec<Option<Term>> = vec![None; rule.vars.len()];
    let mut key = Vec::new();
    'facts: for fact in facts {
        for (&v, t) in instance.vars.iter().zip(fact) {
            binds[v as usize] = Some(t.clone());
        }
        if head.vars.iter().any(|&v| binds[v as usize].is_none()) {
            continue;
        }
        let (mut positive, mut negative) = (Vec::new(), Vec::new());
        let mut slot = slots.iter_mut();
        for lit in &instance.alternative {
            let holds = match lit {
                Lit::Pos(_) | Lit::Neg(_) => {
                    let Some(a) = slot.next().and_then(|s| s.atom(g, &binds, &mut key, atom)) else { continue 'facts };
                    if matches!(lit, Lit::Pos(_)) {
                        positive.push(a)
                    } else {
                        negative.push(a)
                    }
                    true
                }
                Lit::Distinct(x, y) => build(x, &binds) != build(y, &binds),
                Lit::Same(x, y) => build(x, &binds) == build(y, &binds),
            };
            if !holds {
                continue 'facts;
            }
        }
        if let Some(head) = head.atom(g, &binds, &mut key, atom) {
            g.rules.push(GroundRule { head, positive, negative });
        }
    }
}

/// A sentence of a rule, the variables it reads, and the atoms it has
/// stood for by their values: an atom met again is found without building
/// its terms. A slot whose values rarely repeat (its variables determine
/// the rule's) stops remembering them, which would only cost.
struct Slot<'r> {
    sentence: &'r Sentence,
    vars: Vec<u32>,
    atoms: FxHashMap<Vec<Term>, usize>,
    remember: bool,
    lookups: usize,
    hits: usize,
}

/// Lookups after which a slot that found fewer than a quarter of its atoms
/// stops remembering.
const TRIAL: usize = 1024;

impl<'r> Slot<'r> {
    fn new(sentence: &'r Sentence) -> Slot<'r> {
        let mut vars = Vec::new();
        sentence.for_each_var(&mut |v| {
            if !vars.contains(&v) {
                vars.push(v);
            }
        });
        Slot { sentence, vars, atoms: FxHashMap::default(), remember: true, lookups: 0, hits: 0 }
    }

    /// The atom under `binds` (`None` if a variable is unbound); `key` is
    /// scratch space.
    fn atom(
        &mut self,
        g: &mut Grounding,
        binds: &[Option<Term>],
        key: &mut Vec<Term>,
        atom: &mut impl FnMut(&mut Grounding, Sym, Vec<Term>) -> usize,
    ) -> Option<usize> {
        if self.remember {
            key.clear();
            for &v in &self.vars {
                key.push(binds[v as usize].clone()?);
            }
            self.lookups += 1;
            if let Some(&a) = self.atoms.get(key.as_slice()) {
                self.hits += 1;
                return Some(a);
            }
            if self.lookups == TRIAL && self.hits * 4 < TRIAL {
                self.remember = false;
                self.atoms = FxHashMap::default();
            }
        }
        let args = self.sentence.args.iter().map(|p| build(p, binds)).collect::<Option<Vec<_>>>()?;
        let a = atom(g, self.sentence.relation, args);
        if self.remember {
            self.atoms.insert(key.clone(), a);
        }
        Some(a)
    }
}

/// One alternative of a rule as a relation of the relaxed game: its facts
/// are the values of `vars` (the variables its positive literals bind).
struct Instance {
    rule: usize,
    alternative: Vec<Lit>,
    name: Sym,
    vars: Vec<u32>,
}

/// The relaxed game of `desc` and the instance relations of its rules whose
/// heads are not static. Rules of static relations are kept as written, so
/// the relaxed game has their exact facts (they are the same in every state).
fn relaxed_game(desc: &Description, is_static: &FxHashSet<(Sym, usize)>) -> (Description, Vec<Instance>) {
    let mut relaxed = Description {
        file: desc.file,
        symbols: desc.symbols.clone(),
        rules: Vec::new(),
        spellings: desc.spellings.clone(),
    };
    let span = crate::syntax::Span::default();
    let var = |v: u32| Pattern::Var(v);
    let rule = |head: Sentence, body: Vec<Literal>, n: usize| Rule {
        head,
        body,
        vars: (0..n).map(|i| format!("?v{i}")).collect(),
        span,
    };
    let sentence = |relation: Sym, args: Vec<Pattern>| Sentence { relation, args, span };
    relaxed.rules.push(rule(sentence(d::TRUE, vec![var(0)]), vec![Literal::Pos(sentence(d::INIT, vec![var(0)]))], 1));
    relaxed.rules.push(rule(sentence(d::TRUE, vec![var(0)]), vec![Literal::Pos(sentence(d::NEXT, vec![var(0)]))], 1));
    relaxed.rules.push(rule(
        sentence(d::DOES, vec![var(0), var(1)]),
        vec![Literal::Pos(sentence(d::LEGAL, vec![var(0), var(1)]))],
        2,
    ));
    // One instance relation per rule alternative, over all its variables.
    let mut instances = Vec::new();
    for (i, original) in desc.rules.iter().enumerate() {
        if is_static.contains(&(original.head.relation, original.head.args.len())) {
            relaxed.rules.push(original.clone());
            continue;
        }
        let mut projected = true;
        for (k, mut alternative) in dnf(&original.body).into_iter().enumerate() {
            // As the prover does: an unbound role of a legal or goal head
            // ranges over the roles.
            super::plan::bind_role_argument(&original.head, &mut alternative);
            // The instance is over the variables its positive literals bind.
            let mut here: Vec<u32> = Vec::new();
            for lit in &alternative {
                if let Lit::Pos(s) = lit {
                    s.for_each_var(&mut |v| {
                        if !here.contains(&v) {
                            here.push(v);
                        }
                    });
                }
            }
            let name = relaxed.symbols.intern(&format!("instance^{i}^{k}"));
            let mut body = Vec::new();
            for lit in &alternative {
                match lit {
                    Lit::Pos(s) => body.push(Literal::Pos(s.clone())),
                    Lit::Distinct(a, b) => body.push(Literal::Distinct(a.clone(), b.clone(), span)),
                    Lit::Neg(_) | Lit::Same(..) => {}
                }
            }
            let instance = sentence(name, here.iter().map(|&v| var(v)).collect());
            let mut r = rule(instance.clone(), body, original.vars.len());
            r.vars = original.vars.clone();
            relaxed.rules.push(r);
            // The head's facts are projections of the instances, so the
            // body is joined once.
            let mut bound = true;
            original.head.for_each_var(&mut |v| bound &= here.contains(&v));
            if bound {
                let mut r = rule(original.head.clone(), vec![Literal::Pos(instance)], original.vars.len());
                r.vars = original.vars.clone();
                relaxed.rules.push(r);
            }
            projected &= bound;
            instances.push(Instance { rule: i, alternative, name, vars: here });
        }
        if !projected {
            relaxed.rules.extend(relax(original));
        }
    }
    (relaxed, instances)
}

/// The rule with its negations dropped (an over-approximation), or `None`
/// when nothing is left to say.
fn relax(rule: &Rule) -> Option<Rule> {
    fn relax_literal(lit: &Literal) -> Option<Literal> {
        match lit {
            Literal::Pos(_) | Literal::Distinct(..) => Some(lit.clone()),
            Literal::Not(..) => None,
            Literal::Or(ls, span) => {
                let kept: Vec<Literal> = ls.iter().map(relax_literal).collect::<Option<Vec<_>>>()?;
                Some(Literal::Or(kept, *span))
            }
        }
    }
    let body = rule.body.iter().filter_map(relax_literal).collect();
    Some(Rule { body, ..rule.clone() })
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
            edges[rule.head].extend(rule.positive.iter().map(|&a| (a, true)));
            edges[rule.head].extend(rule.negative.iter().map(|&a| (a, false)));
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
                        && rule.positive.iter().all(|&a| self.value[a])
                        && rule.negative.iter().all(|&a| !self.value[a])
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
