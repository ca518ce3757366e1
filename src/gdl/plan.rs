//! Rules compiled for bottom-up evaluation: relations numbered, `or` and
//! `not` normalised away, rules grouped into strata (strongly connected
//! components in dependency order), body literals ordered so that each
//! positive literal is looked up by what is already bound, and the strata each
//! query (legal, goal, terminal, next) needs.
//!
//! Relations are classified by what they depend on: static (computed once per
//! game), state (`true`: once per state) and move (`does`: once per joint move).

use rustc_hash::{FxHashMap, FxHashSet};

use super::description::{self as d, Description, Pattern, Sentence, Var};
use super::normal_form::{FlatRule, Lit, bind_role_argument, dnf, pattern_vars};
pub use super::stats::{SAMPLE, Stats};
use super::term::{Path, Sym};
use crate::diagnostic::Diagnostic;

pub type RelId = usize;

/// What a relation's facts depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dep {
    Static,
    State,
    Move,
}

/// One part of an index key: the function name and arity found at `path`
/// (`shape`), or the whole term there.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Probe {
    pub path: Path,
    pub shape: Option<(Sym, usize)>,
}

/// The parts of a fact an index hashes; literals with the same bound parts
/// share one index.
pub type IndexSpec = Vec<Probe>;

#[derive(Clone, Debug)]
pub struct Relation {
    pub name: Sym,
    pub arity: usize,
    pub dep: Dep,
    pub specs: Vec<IndexSpec>,
}

/// A body literal ready for joining.
#[derive(Clone, Debug)]
pub enum Step {
    /// Facts of `rel` that unify with `args`, found through index `index`
    /// (a slot in the relation's specs) or by a scan.
    Scan {
        rel: RelId,
        args: Vec<Pattern>,
        index: Option<usize>,
    },
    /// No fact of `rel` equals `args` (all bound).
    Absent {
        rel: RelId,
        args: Vec<Pattern>,
    },
    Distinct(Pattern, Pattern),
    /// `(not (distinct a b))`: the two unify (binding the unbound side).
    Same(Pattern, Pattern),
}

#[derive(Clone, Debug)]
pub struct PlannedRule {
    pub head: RelId,
    pub head_args: Vec<Pattern>,
    pub body: Vec<Step>,
    pub n_vars: usize,
    /// For a recursive rule, the body again once per literal of its own
    /// component, that literal first: a semi-naive round drives the join
    /// from the last round's facts (a few) rather than finding them at the
    /// end of a join over whole tables (gt_two_thirds_4p's arithmetic, 400
    /// rounds over tables of 10⁵ facts).
    pub deltas: Vec<Vec<Step>>,
}

#[derive(Clone, Debug)]
pub struct Stratum {
    pub relations: Vec<RelId>,
    pub rules: Vec<usize>,
    pub recursive: bool,
    pub dep: Dep,
}

/// Which relations the magic-sets rewrite (src/gdl/magic.rs) may make
/// demand-driven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Demand {
    /// The rules as written.
    Off,
    /// Relations that change with the state.
    Dynamic,
    /// Static relations too, for games whose static relations are too large
    /// to compute whole (sudoku's 10-ary `exactlyOne`).
    All,
}

/// The queries a state machine asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    Legal = 0,
    Goal = 1,
    Terminal = 2,
    Next = 3,
}

pub const QUERIES: [Query; 4] = [Query::Legal, Query::Goal, Query::Terminal, Query::Next];

#[derive(Clone, Debug)]
pub struct Plan {
    pub relations: Vec<Relation>,
    pub rules: Vec<PlannedRule>,
    /// In dependency order: a stratum only reads relations of earlier ones.
    pub strata: Vec<Stratum>,
    /// For each query, the non-static strata it needs, in order.
    pub needs: [Vec<usize>; 4],
    /// The relation of `true/1`, `does/2`, `next/1`, `legal/2`, `goal/2`,
    /// `terminal/0`, `init/1`, `role/1`.
    pub truth: RelId,
    pub does: RelId,
    pub next: RelId,
    pub legal: RelId,
    pub goal: RelId,
    pub terminal: RelId,
    pub init: RelId,
}

impl Plan {
    /// Compiles the rules of `desc`. Rules the prover cannot evaluate bottom-up
    /// (variables bound by no positive literal) are left out with a warning;
    /// unstratifiable negation is an error.
    pub fn new(
        desc: &Description,
        stats: Option<&Stats>,
        demand: Demand,
    ) -> Result<(Plan, Vec<Diagnostic>), Vec<Diagnostic>> {
        let mut b = Builder {
            rel_ids: FxHashMap::default(),
            relations: Vec::new(),
            warnings: Vec::new(),
            stats,
            symbols: desc.symbols.clone(),
            derived: Vec::new(),
        };
        for (name, arity) in [(d::TRUE, 1), (d::DOES, 2), (d::NEXT, 1), (d::LEGAL, 2), (d::GOAL, 2), (d::TERMINAL, 0)] {
            b.rel(name, arity);
        }
        let (truth, does, next, legal, goal, terminal) = (0, 1, 2, 3, 4, 5);
        let init = b.rel(d::INIT, 1);
        b.rel(d::ROLE, 1);

        let flat = normalise(desc, demand, &mut b.symbols);
        b.number_relations(&flat);
        let edges = b.dependency_edges(&flat);
        let components = strongly_connected(&edges);
        let mut component_of = vec![0; b.relations.len()];
        for (c, members) in components.iter().enumerate() {
            for &r in members {
                component_of[r] = c;
            }
        }
        b.classify(&components, &edges, truth, does);

        // Plan each rule's body.
        let mut rules_of: Vec<Vec<usize>> = vec![Vec::new(); b.relations.len()];
        let mut rules = Vec::new();
        for FlatRule { head, body, n_vars, span } in flat {
            let h = b.rel_ids[&(head.relation, head.args.len())];
            let in_component = |r: RelId| component_of[r] == component_of[h];
            if let Some(rule) = b.plan_rule(desc, &head, body, n_vars, span, &in_component) {
                rules_of[h].push(rules.len());
                rules.push(rule);
            }
        }

        let strata = b.strata(&components, &edges, &rules_of, &rules)?;
        let needs = QUERIES.map(|q| {
            let target = match q {
                Query::Legal => legal,
                Query::Goal => goal,
                Query::Terminal => terminal,
                Query::Next => next,
            };
            strata_needed(target, &edges, &strata)
        });

        let plan =
            Plan { relations: b.relations, rules, strata, needs, truth, does, next, legal, goal, terminal, init };
        Ok((plan, b.warnings))
    }
}

/// The rules of `desc` in normal form (`or` expanded, `not` pushed inward),
/// with unbound roles bound and, unless `demand` is off, rewritten for
/// demand (magic sets), whose new relations are named in `symbols`.
fn normalise(desc: &Description, demand: Demand, symbols: &mut super::term::Symbols) -> Vec<FlatRule> {
    let mut flat: Vec<FlatRule> = Vec::new();
    for rule in &desc.rules {
        for body in dnf(&rule.body) {
            flat.push(FlatRule { head: rule.head.clone(), body, n_vars: rule.vars.len(), span: rule.span });
        }
    }
    for rule in &mut flat {
        bind_role_argument(&rule.head, &mut rule.body);
    }
    if demand != Demand::Off {
        let rewritable = super::magic::rewritable(&flat, demand == Demand::All);
        flat = super::magic::rewrite(flat, &rewritable, symbols);
    }
    flat
}

/// The non-static strata that relation `target` reads, directly or not
/// (through `edges`), in order.
fn strata_needed(target: RelId, edges: &[Vec<(RelId, bool)>], strata: &[Stratum]) -> Vec<usize> {
    let mut seen = vec![false; edges.len()];
    let mut stack = vec![target];
    seen[target] = true;
    while let Some(r) = stack.pop() {
        for &(s, _) in &edges[r] {
            if !seen[s] {
                seen[s] = true;
                stack.push(s);
            }
        }
    }
    (0..strata.len())
        .filter(|&s| strata[s].dep != Dep::Static && strata[s].relations.iter().any(|&r| seen[r]))
        .collect()
}

/// Orders the rules of a component that negates its own relations into
/// parts evaluated one after the other, by the constants at the argument
/// places where every head of a relation has one: `(goal ?r 100)` read as
/// `(not (goal ?r 0))` is stratified once `goal` is split by its value. Fails
/// with the (head, negated) relations of a cycle through negation that
/// remains.
fn split_by_constants(
    members: &[RelId],
    rule_ids: &[usize],
    rules: &[PlannedRule],
) -> Result<Vec<Vec<usize>>, (RelId, RelId)> {
    // Key places of each relation: a constant in every head.
    let mut keys: FxHashMap<RelId, Vec<usize>> = FxHashMap::default();
    for &i in rule_ids {
        let rule = &rules[i];
        let constant = |p: &usize| matches!(rule.head_args.get(*p), Some(Pattern::Const(_)));
        keys.entry(rule.head)
            .and_modify(|k| k.retain(constant))
            .or_insert_with(|| (0..rule.head_args.len()).filter(constant).collect());
    }
    let node_of = |rel: RelId, args: &[Pattern]| -> (RelId, Vec<Option<Sym>>) {
        let places = keys.get(&rel).map_or(&[][..], Vec::as_slice);
        let values = places
            .iter()
            .map(|&p| match args.get(p) {
                Some(Pattern::Const(c)) => Some(*c),
                _ => None,
            })
            .collect();
        (rel, values)
    };
    // Nodes: the distinct heads.
    let mut nodes: Vec<(RelId, Vec<Option<Sym>>)> = Vec::new();
    let mut head_node = Vec::with_capacity(rule_ids.len());
    for &i in rule_ids {
        let node = node_of(rules[i].head, &rules[i].head_args);
        let n = nodes.iter().position(|x| *x == node).unwrap_or_else(|| {
            nodes.push(node);
            nodes.len() - 1
        });
        head_node.push(n);
    }
    // Edges: from a head to every node a body literal of the component may read.
    let mut edges: Vec<Vec<(usize, bool)>> = vec![Vec::new(); nodes.len()];
    for (k, &i) in rule_ids.iter().enumerate() {
        for step in &rules[i].body {
            let (rel, args, positive) = match step {
                Step::Scan { rel, args, .. } => (*rel, args, true),
                Step::Absent { rel, args } => (*rel, args, false),
                _ => continue,
            };
            if !members.contains(&rel) {
                continue;
            }
            let (_, wanted) = node_of(rel, args);
            for (n, (r, values)) in nodes.iter().enumerate() {
                let compatible =
                    *r == rel && values.iter().zip(&wanted).all(|(v, w)| w.is_none() || v.is_none() || v == w);
                if compatible {
                    edges[head_node[k]].push((n, positive));
                }
            }
        }
    }
    let parts = strongly_connected(&edges);
    let mut part_of = vec![0; nodes.len()];
    for (p, members) in parts.iter().enumerate() {
        for &n in members {
            part_of[n] = p;
        }
    }
    for (n, out) in edges.iter().enumerate() {
        if let Some(&(m, _)) = out.iter().find(|&&(m, positive)| !positive && part_of[m] == part_of[n]) {
            return Err((nodes[n].0, nodes[m].0));
        }
    }
    Ok(parts
        .iter()
        .map(|members| {
            rule_ids.iter().enumerate().filter(|(k, _)| members.contains(&head_node[*k])).map(|(_, &i)| i).collect()
        })
        .collect())
}

struct Builder<'s> {
    rel_ids: FxHashMap<(Sym, usize), RelId>,
    relations: Vec<Relation>,
    warnings: Vec<Diagnostic>,
    stats: Option<&'s Stats>,
    /// The game's symbols and the names of relations the rewrite adds.
    symbols: super::term::Symbols,
    /// Per relation, whether a rule with a body derives it (else its facts
    /// are written out: usually few, like `succ`'s).
    derived: Vec<bool>,
}

impl Builder<'_> {
    fn rel(&mut self, name: Sym, arity: usize) -> RelId {
        if let Some(&id) = self.rel_ids.get(&(name, arity)) {
            return id;
        }
        let id = self.relations.len();
        self.relations.push(Relation { name, arity, dep: Dep::Static, specs: Vec::new() });
        self.rel_ids.insert((name, arity), id);
        id
    }

    /// Numbers every relation the rules name, in the order met, and marks
    /// those a rule with a body derives.
    fn number_relations(&mut self, flat: &[FlatRule]) {
        for rule in flat {
            self.rel(rule.head.relation, rule.head.args.len());
            for lit in &rule.body {
                if let Lit::Pos(s) | Lit::Neg(s) = lit {
                    self.rel(s.relation, s.args.len());
                }
            }
        }
        self.derived = vec![false; self.relations.len()];
        for rule in flat {
            if !rule.body.is_empty() {
                self.derived[self.rel_ids[&(rule.head.relation, rule.head.args.len())]] = true;
            }
        }
    }

    /// The dependency graph: from each relation to those its rules read,
    /// positively (`true`) or through negation.
    fn dependency_edges(&self, flat: &[FlatRule]) -> Vec<Vec<(RelId, bool)>> {
        let mut edges: Vec<Vec<(RelId, bool)>> = vec![Vec::new(); self.relations.len()];
        for rule in flat {
            let h = self.rel_ids[&(rule.head.relation, rule.head.args.len())];
            for lit in &rule.body {
                match lit {
                    Lit::Pos(s) => edges[h].push((self.rel_ids[&(s.relation, s.args.len())], true)),
                    Lit::Neg(s) => edges[h].push((self.rel_ids[&(s.relation, s.args.len())], false)),
                    _ => {}
                }
            }
        }
        edges
    }

    /// What each relation depends on, in component order: `true` makes a
    /// state relation, `does` a move relation, and a relation depends on
    /// whatever the relations it reads depend on.
    fn classify(&mut self, components: &[Vec<RelId>], edges: &[Vec<(RelId, bool)>], truth: RelId, does: RelId) {
        for members in components {
            let mut dep = Dep::Static;
            for &h in members {
                if h == truth {
                    dep = dep.max(Dep::State);
                }
                if h == does {
                    dep = dep.max(Dep::Move);
                }
                for &(r, _) in &edges[h] {
                    if !members.contains(&r) {
                        dep = dep.max(self.relations[r].dep);
                    }
                }
            }
            for &h in members {
                self.relations[h].dep = dep;
            }
        }
    }

    /// The strata, one per component; a component that negates one of its
    /// own relations is split by constant arguments, or refused.
    fn strata(
        &self,
        components: &[Vec<RelId>],
        edges: &[Vec<(RelId, bool)>],
        rules_of: &[Vec<usize>],
        rules: &[PlannedRule],
    ) -> Result<Vec<Stratum>, Vec<Diagnostic>> {
        let mut strata: Vec<Stratum> = Vec::new();
        for members in components {
            let recursive = members.len() > 1 || edges[members[0]].iter().any(|&(r, _)| r == members[0]);
            let rules_here: Vec<usize> = members.iter().flat_map(|&r| rules_of[r].iter().copied()).collect();
            let dep = self.relations[members[0]].dep;
            let negates_itself =
                members.iter().any(|&h| edges[h].iter().any(|&(r, positive)| !positive && members.contains(&r)));
            if !negates_itself {
                strata.push(Stratum { relations: members.clone(), rules: rules_here, recursive, dep });
                continue;
            }
            match split_by_constants(members, &rules_here, rules) {
                Ok(parts) => {
                    for part in parts {
                        strata.push(Stratum { relations: members.clone(), rules: part, recursive: true, dep });
                    }
                }
                Err((h, r)) => {
                    return Err(vec![
                        Diagnostic::error(
                            "stratagem::gdl::stratify",
                            format!(
                                "negation is not stratified: `{}` depends on the negation of `{}`, which depends on it",
                                self.symbols.name(self.relations[h].name),
                                self.symbols.name(self.relations[r].name)
                            ),
                        )
                        .with_help("GDL requires that no relation depend on its own negation"),
                    ]);
                }
            }
        }
        Ok(strata)
    }

    /// Orders the body greedily: tests as soon as their variables are bound,
    /// then the positive literal with the most bound parts (static relations
    /// first on ties, then relations written out as facts rather than
    /// derived, then the written order).
    fn plan_rule(
        &mut self,
        desc: &Description,
        head: &Sentence,
        body: Vec<Lit>,
        n_vars: usize,
        span: crate::syntax::Span,
        in_component: &dyn Fn(RelId) -> bool,
    ) -> Option<PlannedRule> {
        let h = self.rel_ids[&(head.relation, head.args.len())];
        let recursive: Vec<usize> = (0..body.len())
            .filter(|&i| matches!(&body[i], Lit::Pos(s) if in_component(self.rel_ids[&(s.relation, s.args.len())])))
            .collect();
        let deltas = recursive
            .into_iter()
            .filter_map(|i| {
                let mut rest = body.clone();
                let first = rest.remove(i);
                // The body as written warns once, below.
                let warned = self.warnings.len();
                let steps = self.order(desc, head, Some(first), rest, span, in_component);
                self.warnings.truncate(warned);
                steps
            })
            .collect();
        let body = self.order(desc, head, None, body, span, in_component)?;
        Some(PlannedRule { head: h, head_args: head.args.clone(), body, n_vars, deltas })
    }

    /// The body's steps in the greedy order (after `first`, if given), or
    /// `None` with a warning when a variable is bound by no positive literal.
    fn order(
        &mut self,
        desc: &Description,
        head: &Sentence,
        mut first: Option<Lit>,
        body: Vec<Lit>,
        span: crate::syntax::Span,
        in_component: &dyn Fn(RelId) -> bool,
    ) -> Option<Vec<Step>> {
        let mut bound: FxHashSet<Var> = FxHashSet::default();
        let mut steps = Vec::with_capacity(body.len() + 1);
        let mut remaining = body;
        while first.is_some() || !remaining.is_empty() {
            if let Some(Lit::Pos(s)) = first.take() {
                steps.push(self.scan(s, &mut bound));
                continue;
            }
            // Tests whose variables are all bound go first.
            if let Some(i) = remaining.iter().position(|l| match l {
                Lit::Neg(s) => pattern_vars(&s.args).iter().all(|v| bound.contains(v)),
                Lit::Distinct(a, b) => all_bound(a, &bound) && all_bound(b, &bound),
                Lit::Same(a, b) => all_bound(a, &bound) || all_bound(b, &bound),
                Lit::Pos(_) => false,
            }) {
                let lit = remaining.remove(i);
                steps.push(match lit {
                    Lit::Neg(s) => Step::Absent { rel: self.rel_ids[&(s.relation, s.args.len())], args: s.args },
                    Lit::Distinct(a, b) => Step::Distinct(a, b),
                    Lit::Same(a, b) => {
                        a.for_each_var(&mut |v| {
                            bound.insert(v);
                        });
                        b.for_each_var(&mut |v| {
                            bound.insert(v);
                        });
                        Step::Same(a, b)
                    }
                    Lit::Pos(s) => {
                        Step::Scan { rel: self.rel_ids[&(s.relation, s.args.len())], args: s.args, index: None }
                    }
                });
                continue;
            }
            let best = match self.stats {
                Some(stats) => remaining
                    .iter()
                    .enumerate()
                    .filter_map(|(i, l)| match l {
                        Lit::Pos(s) => Some((i, stats.estimate(s.relation, &s.args, &bound))),
                        _ => None,
                    })
                    .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
                    .map(|(i, _)| i),
                None => remaining
                    .iter()
                    .enumerate()
                    .filter_map(|(i, l)| match l {
                        Lit::Pos(s) => {
                            let rel = self.rel_ids[&(s.relation, s.args.len())];
                            let (bound_parts, free) = boundness(&s.args, &bound);
                            let is_static = self.relations[rel].dep == Dep::Static && !in_component(rel);
                            let written = !self.derived.get(rel).copied().unwrap_or(true);
                            Some((i, (bound_parts, is_static, written, std::cmp::Reverse(free), std::cmp::Reverse(i))))
                        }
                        _ => None,
                    })
                    .max_by_key(|(_, score)| *score)
                    .map(|(i, _)| i),
            };
            let Some(i) = best else {
                let names = unbound_names(&remaining, &bound, &desc_vars(desc, span));
                self.warnings.push(Diagnostic::warning(
                    "stratagem::gdl::unsafe",
                    format!(
                        "a rule for `{}` is left out: {names} bound by no positive literal",
                        self.symbols.name(head.relation)
                    ),
                ));
                return None;
            };
            let Lit::Pos(s) = remaining.remove(i) else { return None };
            steps.push(self.scan(s, &mut bound));
        }
        if let Some(v) = pattern_vars(&head.args).into_iter().find(|v| !bound.contains(v)) {
            let vars = desc_vars(desc, span);
            let name = vars.get(v as usize).cloned().unwrap_or_else(|| format!("variable {v}"));
            self.warnings.push(Diagnostic::warning(
                "stratagem::gdl::unsafe",
                format!(
                    "a rule for `{}` is left out: its head variable `{name}` is bound by no positive literal",
                    self.symbols.name(head.relation)
                ),
            ));
            return None;
        }
        Some(steps)
    }

    /// The scan of positive literal `s` with the variables `bound` before
    /// it (through an index of them, if any), which then binds its own.
    fn scan(&mut self, s: Sentence, bound: &mut FxHashSet<Var>) -> Step {
        let rel = self.rel_ids[&(s.relation, s.args.len())];
        let spec = index_spec(&s.args, bound);
        let index = if spec.is_empty() {
            None
        } else {
            let specs = &mut self.relations[rel].specs;
            Some(specs.iter().position(|x| *x == spec).unwrap_or_else(|| {
                specs.push(spec);
                specs.len() - 1
            }))
        };
        for v in pattern_vars(&s.args) {
            bound.insert(v);
        }
        Step::Scan { rel, args: s.args, index }
    }
}

/// The variable names of the rule read at `span`.
fn desc_vars(desc: &Description, span: crate::syntax::Span) -> Vec<String> {
    desc.rules.iter().find(|r| r.span == span).map(|r| r.vars.clone()).unwrap_or_default()
}

fn unbound_names(lits: &[Lit], bound: &FxHashSet<Var>, names: &[String]) -> String {
    let mut vars = Vec::new();
    for lit in lits {
        let mut add = |v: Var| {
            if !bound.contains(&v) && !vars.contains(&v) {
                vars.push(v);
            }
        };
        match lit {
            Lit::Pos(s) | Lit::Neg(s) => s.for_each_var(&mut add),
            Lit::Distinct(a, b) | Lit::Same(a, b) => {
                a.for_each_var(&mut add);
                b.for_each_var(&mut add);
            }
        }
    }
    let shown: Vec<String> =
        vars.iter().map(|&v| names.get(v as usize).cloned().unwrap_or_else(|| format!("variable {v}"))).collect();
    match shown.len() {
        1 => format!("`{}` is", shown[0]),
        _ => format!("`{}` are", shown.join("`, `")),
    }
}

fn all_bound(p: &Pattern, bound: &FxHashSet<Var>) -> bool {
    let mut ok = true;
    p.for_each_var(&mut |v| ok &= bound.contains(&v));
    ok
}

/// How many parts of `args` are known (constants, bound variables, function
/// names) and how many variables are still free.
fn boundness(args: &[Pattern], bound: &FxHashSet<Var>) -> (usize, usize) {
    fn walk(p: &Pattern, bound: &FxHashSet<Var>, known: &mut usize, free: &mut usize) {
        match p {
            Pattern::Const(_) => *known += 1,
            Pattern::Var(v) if bound.contains(v) => *known += 1,
            Pattern::Var(_) => *free += 1,
            Pattern::Fn(_, args) => {
                *known += 1;
                args.iter().for_each(|a| walk(a, bound, known, free));
            }
        }
    }
    let (mut known, mut free) = (0, 0);
    args.iter().for_each(|a| walk(a, bound, &mut known, &mut free));
    (known, free)
}

/// The index a literal is looked up by: whole terms where they are known,
/// function names and arities where they are partly known.
fn index_spec(args: &[Pattern], bound: &FxHashSet<Var>) -> IndexSpec {
    fn walk(p: &Pattern, path: &mut Path, bound: &FxHashSet<Var>, spec: &mut IndexSpec) {
        if all_bound(p, bound) {
            spec.push(Probe { path: path.clone(), shape: None });
            return;
        }
        if let Pattern::Fn(name, args) = p {
            spec.push(Probe { path: path.clone(), shape: Some((*name, args.len())) });
            for (i, a) in args.iter().enumerate() {
                path.push(i as u8);
                walk(a, path, bound, spec);
                path.pop();
            }
        }
    }
    let mut spec = Vec::new();
    let mut path = Vec::new();
    for (i, a) in args.iter().enumerate().take(256) {
        path.push(i as u8);
        walk(a, &mut path, bound, &mut spec);
        path.pop();
    }
    spec
}

/// Strongly connected components, dependencies first: the edges go from a
/// relation to those it reads, so a component comes after every component
/// it reads.
pub(super) fn strongly_connected(edges: &[Vec<(RelId, bool)>]) -> Vec<Vec<RelId>> {
    let mut components = Vec::new();
    super::scc::each_component(edges.len(), |v, k| edges[v].get(k).map(|e| e.0), |c| components.push(c.to_vec()));
    components
}

#[cfg(test)]
mod tests;
