//! The checks that need the dependency graph between relations: stratified
//! negation, the recursion restriction, what `init`, `base`, `input`,
//! `legal`, `goal` and `terminal` may depend on, and relations defined but
//! never used or used but never defined.
//!
//! A relation is a name with an arity. A rule with head `p` has an edge from
//! `p` to every relation of its body, negative when the literal is under a
//! `not`. `true` and `does` are base relations: no rule defines them (that is
//! an error of its own), so no edge leaves them. The graph is stored as
//! adjacency arrays and its strongly connected components are found once
//! (Tarjan, iteratively), so every check is linear in the rules.
//!
//! Stratification is checked on a finer graph, split by constant arguments
//! (see [`Graph::build`]): `(<= (goal robot 100) (not (goal robot 0)))` is
//! not stratified by relations, but its ground instances are, and GGP-Base
//! plays the 15 games of the public repository written this way (queens,
//! futoshiki, hidato, majorities, the pie-rule variants of hex and
//! nine-board tic-tac-toe).

use rustc_hash::{FxHashMap, FxHashSet};

use super::{Cx, PatKey, for_each_sentence, is_connective, is_ground};
use crate::diagnostic::did_you_mean;
use crate::gdl::description::{DOES, GOAL, INIT, LEGAL, Literal, NEXT, Pattern, Rule, Sentence, TERMINAL, TRUE};
use crate::gdl::term::Sym;
use crate::syntax::Span;

const STRATIFY: &str = "stratagem::gdl::stratify";
const RECURSION: &str = "stratagem::gdl::recursion";
const RESERVED: &str = "stratagem::gdl::reserved";
const UNUSED: &str = "stratagem::gdl::unused";
const UNDEFINED: &str = "stratagem::gdl::undefined";

/// Cycles through negation spelled out step by step (each a search within
/// its component); later ones name only the negated relation.
const MAX_CYCLES_SHOWN: usize = 8;
/// Undefined relations for which a close defined name is looked for.
const MAX_SUGGESTIONS: usize = 32;

type RelId = u32;
const UNREACHED: RelId = RelId::MAX;

/// A node: a relation (name and arity), with the constants at its key
/// positions for a part of it in the split graph.
type NodeKey = (Sym, usize, Option<Box<[Sym]>>);

struct Rel {
    sym: Sym,
    arity: usize,
    /// In the graph split by constant arguments, the constants this node's
    /// sentences have at the relation's key positions; `None` for the whole
    /// relation.
    values: Option<Box<[Sym]>>,
    /// The first head that defines it, and the first body literal using it.
    defined: Option<Span>,
    used: Option<Span>,
}

#[derive(Clone, Copy)]
struct Edge {
    to: RelId,
    negative: bool,
    /// The body sentence the edge comes from.
    span: Span,
}

struct Graph {
    rels: Vec<Rel>,
    ids: FxHashMap<NodeKey, RelId>,
    /// In the split graph, the argument positions that hold a constant in
    /// every head of each relation.
    keys: FxHashMap<(Sym, usize), Vec<usize>>,
    /// The head relation of each rule.
    heads: Vec<RelId>,
    /// The edges leaving relation `r` are `edges[start[r]..start[r + 1]]`.
    start: Vec<usize>,
    edges: Vec<Edge>,
    /// The strongly connected component of each relation.
    comp: Vec<u32>,
}

impl Graph {
    /// The graph between relations, or with `split`, between the parts of
    /// relations that their constant arguments tell apart: for each relation,
    /// the positions where every head has a constant are its key; a sentence
    /// with constants at all key positions is a node of its own, `(goal robot
    /// 100)`, and any other sentence of the relation is the whole relation,
    /// which has a positive edge to each of its parts. A ground instance of a
    /// body literal that some rule derives lies in the part the literal names
    /// or, through the whole relation, in one of its parts; so every cycle of
    /// ground dependencies is a cycle of the split graph with the same signs,
    /// and a split graph without negative cycles is stratified on ground
    /// sentences.
    fn build(rules: &[Rule], split: bool) -> Graph {
        let mut g = Graph {
            rels: Vec::new(),
            ids: FxHashMap::default(),
            keys: FxHashMap::default(),
            heads: Vec::with_capacity(rules.len()),
            start: Vec::new(),
            edges: Vec::new(),
            comp: Vec::new(),
        };
        if split {
            g.keys = key_positions(rules);
        }
        let mut raw: Vec<(RelId, Edge)> = Vec::new();
        for rule in rules {
            let head = g.intern(&rule.head, &mut raw);
            g.rels[head as usize].defined.get_or_insert(rule.head.span);
            g.heads.push(head);
            for lit in &rule.body {
                for_each_sentence(lit, false, &mut |s, negative| {
                    let to = g.intern(s, &mut raw);
                    g.rels[to as usize].used.get_or_insert(s.span);
                    raw.push((head, Edge { to, negative, span: s.span }));
                });
            }
        }
        // Counting sort of the edges by their source.
        let n = g.rels.len();
        let mut start = vec![0usize; n + 1];
        for (from, _) in &raw {
            start[*from as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut edges = vec![Edge { to: 0, negative: false, span: Span::new(0, 0) }; raw.len()];
        for (from, e) in raw {
            edges[next[from as usize]] = e;
            next[from as usize] += 1;
        }
        g.start = start;
        g.edges = edges;
        g.comp = g.components();
        g
    }

    /// The node of a sentence, added if new; a new part of a relation gets
    /// its edge from the whole relation.
    fn intern(&mut self, s: &Sentence, raw: &mut Vec<(RelId, Edge)>) -> RelId {
        let values = self.values(s);
        let key = (s.relation, s.args.len(), values);
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let (relation, arity, values) = key;
        let whole = values.as_ref().map(|_| {
            let key = (relation, arity, None);
            match self.ids.get(&key) {
                Some(&id) => id,
                None => self.add(key),
            }
        });
        let id = self.add((relation, arity, values));
        if let Some(whole) = whole {
            raw.push((whole, Edge { to: id, negative: false, span: s.span }));
        }
        id
    }

    fn add(&mut self, key: NodeKey) -> RelId {
        let id = self.rels.len() as RelId;
        let (sym, arity, values) = key.clone();
        self.rels.push(Rel { sym, arity, values, defined: None, used: None });
        self.ids.insert(key, id);
        id
    }

    /// The constants of a sentence at its relation's key positions, when it
    /// has constants at all of them.
    fn values(&self, s: &Sentence) -> Option<Box<[Sym]>> {
        let positions = self.keys.get(&(s.relation, s.args.len())).filter(|p| !p.is_empty())?;
        positions
            .iter()
            .map(|&i| match s.args.get(i) {
                Some(Pattern::Const(c)) => Some(*c),
                _ => None,
            })
            .collect()
    }

    /// The relation of a sentence in the graph between whole relations.
    fn id(&self, s: &Sentence) -> RelId {
        self.ids.get(&(s.relation, s.args.len(), None)).copied().unwrap_or(UNREACHED)
    }

    fn comp_of(&self, r: RelId) -> u32 {
        self.comp.get(r as usize).copied().unwrap_or(u32::MAX)
    }

    fn out(&self, r: RelId) -> &[Edge] {
        &self.edges[self.start[r as usize]..self.start[r as usize + 1]]
    }

    /// Tarjan's strongly connected components, with an explicit stack so
    /// that a long chain of rules cannot overflow the call stack.
    fn components(&self) -> Vec<u32> {
        let n = self.rels.len();
        let mut index = vec![UNREACHED; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut comp = vec![u32::MAX; n];
        let mut stack: Vec<RelId> = Vec::new();
        let mut calls: Vec<(RelId, usize)> = Vec::new();
        let (mut counter, mut n_comps) = (0u32, 0u32);
        for root in 0..n as RelId {
            if index[root as usize] != UNREACHED {
                continue;
            }
            index[root as usize] = counter;
            low[root as usize] = counter;
            counter += 1;
            stack.push(root);
            on_stack[root as usize] = true;
            calls.push((root, self.start[root as usize]));
            while let Some(&mut (v, ref mut pos)) = calls.last_mut() {
                let vi = v as usize;
                if *pos < self.start[vi + 1] {
                    let w = self.edges[*pos].to;
                    *pos += 1;
                    let wi = w as usize;
                    if index[wi] == UNREACHED {
                        index[wi] = counter;
                        low[wi] = counter;
                        counter += 1;
                        stack.push(w);
                        on_stack[wi] = true;
                        calls.push((w, self.start[wi]));
                    } else if on_stack[wi] {
                        low[vi] = low[vi].min(index[wi]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(u, _)) = calls.last() {
                    low[u as usize] = low[u as usize].min(low[vi]);
                }
                if low[vi] == index[vi] {
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        comp[w as usize] = n_comps;
                        if w == v {
                            break;
                        }
                    }
                    n_comps += 1;
                }
            }
        }
        comp
    }

    /// A shortest path of edges from `from` to `to` within their component.
    fn path(&self, from: RelId, to: RelId) -> Vec<RelId> {
        let c = self.comp_of(from);
        let mut parent: FxHashMap<RelId, RelId> = FxHashMap::default();
        parent.insert(from, from);
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(v) = queue.pop_front() {
            if v == to {
                break;
            }
            for e in self.out(v) {
                if self.comp_of(e.to) == c && !parent.contains_key(&e.to) {
                    parent.insert(e.to, v);
                    queue.push_back(e.to);
                }
            }
        }
        let mut path = vec![to];
        let mut v = to;
        while v != from {
            match parent.get(&v) {
                Some(&p) => {
                    path.push(p);
                    v = p;
                }
                None => break,
            }
        }
        path.reverse();
        path
    }

    /// For every relation that depends (through any chain of rules) on one
    /// of `sources`, the next relation on a shortest such chain; a source
    /// maps to itself and an independent relation to `UNREACHED`.
    fn toward(&self, sources: impl Fn(Sym) -> bool) -> Vec<RelId> {
        let n = self.rels.len();
        // The reversed edges, as adjacency arrays.
        let mut rev_start = vec![0usize; n + 1];
        for e in &self.edges {
            rev_start[e.to as usize + 1] += 1;
        }
        for i in 0..n {
            rev_start[i + 1] += rev_start[i];
        }
        let mut fill = rev_start.clone();
        let mut rev = vec![0 as RelId; self.edges.len()];
        for from in 0..n {
            for e in self.out(from as RelId) {
                rev[fill[e.to as usize]] = from as RelId;
                fill[e.to as usize] += 1;
            }
        }
        let mut next = vec![UNREACHED; n];
        let mut queue = std::collections::VecDeque::new();
        for (r, rel) in self.rels.iter().enumerate() {
            if sources(rel.sym) {
                next[r] = r as RelId;
                queue.push_back(r as RelId);
            }
        }
        while let Some(v) = queue.pop_front() {
            for &u in &rev[rev_start[v as usize]..rev_start[v as usize + 1]] {
                if next[u as usize] == UNREACHED {
                    next[u as usize] = v;
                    queue.push_back(u);
                }
            }
        }
        next
    }
}

/// For each relation, the argument positions where every head (of a rule or
/// a fact) has a constant.
fn key_positions(rules: &[Rule]) -> FxHashMap<(Sym, usize), Vec<usize>> {
    let mut keys: FxHashMap<(Sym, usize), Vec<usize>> = FxHashMap::default();
    for rule in rules {
        let head = &rule.head;
        let constant = |i: &usize| matches!(head.args.get(*i), Some(Pattern::Const(_)));
        keys.entry((head.relation, head.args.len()))
            .and_modify(|positions| positions.retain(constant))
            .or_insert_with(|| (0..head.args.len()).filter(constant).collect());
    }
    keys
}

pub(super) fn check(cx: &mut Cx) {
    check_stratified(cx, &Graph::build(&cx.desc.rules, true));
    let g = Graph::build(&cx.desc.rules, false);
    check_recursion(cx, &g);
    check_dependencies(cx, &g);
    check_use(cx, &g);
}

/// A relation's name, or for a part of a relation, the sentence it stands
/// for with `_` at the positions that are not its key: `(goal _ 100)`.
fn rel_name(cx: &Cx, g: &Graph, r: RelId) -> String {
    let Some(rel) = g.rels.get(r as usize) else { return "?".to_owned() };
    let name = cx.name(rel.sym);
    let Some(values) = &rel.values else { return name.to_owned() };
    let positions = g.keys.get(&(rel.sym, rel.arity)).map_or(&[][..], Vec::as_slice);
    let mut text = format!("({name}");
    for i in 0..rel.arity {
        text.push(' ');
        match positions.iter().position(|&p| p == i).and_then(|k| values.get(k)) {
            Some(&c) => text.push_str(cx.name(c)),
            None => text.push('_'),
        }
    }
    text.push(')');
    text
}

/// Stratified negation (the specification's definition of a stratified
/// rule set): no relation depends on the negation of a relation in its own
/// cycle, i.e. no negative edge joins two relations of one component.
fn check_stratified(cx: &mut Cx, g: &Graph) {
    let mut shown = 0;
    for from in 0..g.rels.len() as RelId {
        for e in g.out(from) {
            if !e.negative || g.comp_of(from) != g.comp_of(e.to) {
                continue;
            }
            let (p, q) = (rel_name(cx, g, from), rel_name(cx, g, e.to));
            let message = if from == e.to {
                format!("`{p}` depends on its own negation")
            } else if shown < MAX_CYCLES_SHOWN {
                shown += 1;
                let back = g.path(e.to, from);
                // A whole relation followed by one of its parts is one step:
                // name the part.
                let part_of = |whole: RelId, part: RelId| {
                    let (a, b) = (&g.rels[whole as usize], &g.rels[part as usize]);
                    a.values.is_none() && b.values.is_some() && (a.sym, a.arity) == (b.sym, b.arity)
                };
                let rest: Vec<String> = (1..back.len())
                    .filter(|&i| back.get(i + 1).is_none_or(|&next| !part_of(back[i], next)))
                    .map(|i| rel_name(cx, g, back[i]))
                    .collect();
                format!("`{p}` depends on its own negation: {p} → not {q} → {}", rest.join(" → "))
            } else {
                format!("`{p}` depends on the negation of `{q}`, which depends on `{p}`")
            };
            let d = cx
                .error(STRATIFY, message, e.span, "negated inside the cycle")
                .with_help(format!(
                    "GDL requires stratified negation: a relation cannot depend on its own negation, or its meaning would \
                     be circular; define `{q}` without `{p}`, or restructure the rules so that the negation is outside the cycle"
                ));
            cx.push(d);
        }
    }
}

/// The recursion restriction (the specification's restriction on recursion
/// with function constants, which keeps games finite): in a rule with head
/// `p(t1..tn)`, every argument `s` of a positive literal `q(s1..sk)` with `q`
/// in a cycle with `p` is ground, or one of `t1..tn`, or an argument of a
/// positive literal whose relation is not in a cycle with `p`. Terms are
/// compared whole, as the specification and GGP-Base do. Inside an `or`, a
/// term counts as an argument outside the cycle when every branch has it.
fn check_recursion(cx: &mut Cx, g: &Graph) {
    for (rule, &head) in cx.desc.rules.iter().zip(&g.heads) {
        let c = g.comp_of(head);
        let cyclic = |s: &Sentence| g.comp_of(g.id(s)) == c;
        let mut recursive = Vec::new();
        for lit in &rule.body {
            collect_recursive(lit, &cyclic, &mut recursive);
        }
        if recursive.is_empty() {
            continue;
        }
        let head_terms: FxHashSet<PatKey> = rule.head.args.iter().map(PatKey).collect();
        let mut outside: FxHashSet<PatKey> = FxHashSet::default();
        for lit in &rule.body {
            outside.extend(outside_terms(lit, &cyclic));
        }
        for s in recursive {
            let bad: Vec<&Pattern> = s
                .args
                .iter()
                .filter(|a| !is_ground(a) && !head_terms.contains(&PatKey(a)) && !outside.contains(&PatKey(a)))
                .collect();
            if bad.is_empty() {
                continue;
            }
            let terms =
                bad.iter().map(|a| format!("`{}`", cx.pattern_text(a, &rule.vars))).collect::<Vec<_>>().join(", ");
            let (q, p) = (cx.name(s.relation).to_owned(), cx.name(rule.head.relation).to_owned());
            let d = cx
                .error(
                    RECURSION,
                    format!("the recursive use of `{q}` breaks GDL's recursion restriction at {terms}"),
                    s.span,
                    format!("{terms} not restricted"),
                )
                .also(rule.head.span, format!("`{q}` is in a cycle with `{p}`"))
                .with_help(
                    "each argument of a literal in a cycle with the rule's head must be ground, an argument of the head, \
                     or an argument of a positive literal outside the cycle, so that recursion cannot build ever larger \
                     terms; bind it with a relation outside the cycle (such as a domain relation `(index ?x)`)",
                );
            cx.push(d);
        }
    }
}

/// The positive sentences of a literal (through `or`) in the head's cycle.
fn collect_recursive<'r>(lit: &'r Literal, cyclic: &impl Fn(&Sentence) -> bool, out: &mut Vec<&'r Sentence>) {
    match lit {
        Literal::Pos(s) if cyclic(s) => out.push(s),
        Literal::Or(ls, _) => ls.iter().for_each(|l| collect_recursive(l, cyclic, out)),
        Literal::Pos(_) | Literal::Not(..) | Literal::Distinct(..) => {}
    }
}

/// The terms a literal surely has as arguments of a positive sentence
/// outside the head's cycle: those of such a sentence, those every branch
/// of an `or` has (counted, so a wide `or` stays linear).
fn outside_terms<'r>(lit: &'r Literal, cyclic: &impl Fn(&Sentence) -> bool) -> FxHashSet<PatKey<'r>> {
    match lit {
        Literal::Pos(s) if !cyclic(s) => s.args.iter().map(PatKey).collect(),
        Literal::Or(branches, _) => {
            let mut counts: FxHashMap<PatKey, usize> = FxHashMap::default();
            for b in branches {
                for t in outside_terms(b, cyclic) {
                    *counts.entry(t).or_default() += 1;
                }
            }
            counts.into_iter().filter(|&(_, n)| n == branches.len()).map(|(t, _)| t).collect()
        }
        Literal::Pos(_) | Literal::Not(..) | Literal::Distinct(..) => FxHashSet::default(),
    }
}

/// The specification's restrictions on what keywords depend on: `init`
/// (and `base` and `input`, which describe the game before it starts) on
/// none of `true`, `does`, `next`, `legal`, `goal`, `terminal`; `legal`,
/// `goal` and `terminal` not on `does`.
fn check_dependencies(cx: &mut Cx, g: &Graph) {
    let (base, input) = (cx.base, cx.input);
    let timeless_heads = |sym: Sym| sym == INIT || Some(sym) == base || Some(sym) == input;
    let needs_timeless = cx.desc.rules.iter().any(|r| timeless_heads(r.head.relation));
    let needs_moveless = cx.desc.rules.iter().any(|r| matches!(r.head.relation, LEGAL | GOAL | TERMINAL));
    let toward_turn = if needs_timeless {
        g.toward(|s| matches!(s, TRUE | DOES | NEXT | LEGAL | GOAL | TERMINAL))
    } else {
        Vec::new()
    };
    let toward_does = if needs_moveless { g.toward(|s| s == DOES) } else { Vec::new() };
    for rule in &cx.desc.rules {
        let head = rule.head.relation;
        let (toward, what, help) = if timeless_heads(head) {
            (
                &toward_turn,
                "the state or the moves",
                "it describes the game before it starts: compute it from facts and relations that use none of `true`, \
                 `does`, `next`, `legal`, `goal` and `terminal`",
            )
        } else if matches!(head, LEGAL | GOAL | TERMINAL) {
            (
                &toward_does,
                "the moves being made",
                "legal moves, goals and the end of the game are properties of a state: test the state with `true`; to \
                 remember a move, record it in the next state with `next`",
            )
        } else {
            continue;
        };
        let mut found: Vec<(Span, String)> = Vec::new();
        for lit in &rule.body {
            for_each_sentence(lit, false, &mut |s, _| {
                let r = g.id(s);
                if toward.get(r as usize).is_some_and(|&n| n != UNREACHED) {
                    found.push((s.span, chain(cx, g, toward, r)));
                }
            });
        }
        let h = cx.name(head).to_owned();
        for (span, chain) in found {
            let d = cx
                .error(
                    RESERVED,
                    format!("`{h}` must not depend on {what}, but this literal does: {chain}"),
                    span,
                    "depends on it",
                )
                .also(rule.head.span, format!("a rule for `{h}`"))
                .with_help(format!("`{h}` {help}"));
            cx.push(d);
        }
    }
}

/// The chain of relations from `r` to the keyword it depends on.
fn chain(cx: &Cx, g: &Graph, toward: &[RelId], r: RelId) -> String {
    let mut names = vec![rel_name(cx, g, r)];
    let mut v = r;
    // A path in a shortest-path tree has fewer steps than there are relations.
    for _ in 0..g.rels.len() {
        let n = toward[v as usize];
        if n == v || n == UNREACHED {
            break;
        }
        names.push(rel_name(cx, g, n));
        v = n;
    }
    names.join(" → ")
}

/// Relations defined and never used, or used and never defined (warnings,
/// as in GGP-Base): the first has no effect on the game, the second is never
/// true.
fn check_use(cx: &mut Cx, g: &Graph) {
    let mut arities: FxHashMap<Sym, usize> = FxHashMap::default();
    for rel in &g.rels {
        *arities.entry(rel.sym).or_default() += 1;
    }
    let defined: Vec<&str> = {
        let mut names: Vec<&str> = g.rels.iter().filter(|r| r.defined.is_some()).map(|r| cx.name(r.sym)).collect();
        names.sort_unstable();
        names.dedup();
        names
    };
    let mut suggestions = 0;
    for rel in &g.rels {
        if cx.is_keyword(rel.sym) || is_connective(rel.sym) {
            continue;
        }
        let name = cx.name(rel.sym).to_owned();
        let shown = if arities.get(&rel.sym).is_some_and(|&n| n > 1) {
            let n = rel.arity;
            format!("`{name}` with {n} argument{}", if n == 1 { "" } else { "s" })
        } else {
            format!("`{name}`")
        };
        match (rel.defined, rel.used) {
            (Some(span), None) => {
                let d = cx
                    .warning(UNUSED, format!("{shown} is defined but never used"), span, "defined here")
                    .with_help("it has no effect on the game: remove it, or use it in a rule");
                cx.push(d);
            }
            (None, Some(span)) => {
                let help = if arities.get(&rel.sym).is_some_and(|&n| n > 1) {
                    Some(format!("`{name}` is defined with another number of arguments"))
                } else if suggestions < MAX_SUGGESTIONS {
                    suggestions += 1;
                    did_you_mean(&name, defined.iter().copied()).map(|s| format!("did you mean `{s}`?"))
                } else {
                    None
                };
                let help = help.unwrap_or_else(|| "define it with a fact or a rule, or check its spelling".to_owned());
                let d = cx
                    .warning(
                        UNDEFINED,
                        format!("{shown} is used but never defined, so it is never true"),
                        span,
                        "never defined",
                    )
                    .with_help(help);
                cx.push(d);
            }
            _ => {}
        }
    }
}
