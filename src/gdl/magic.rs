//! Demand: the magic-sets rewrite, so that bottom-up evaluation derives
//! only the facts a query can use.
//!
//! Bottom-up evaluation computes a relation for every argument, even where
//! every use of it fixes some: merrills counts pieces with
//! `(count_loop inner ne 0 0 ?w ?b)`, a recursion over the board whose full
//! table (every start square and every starting count) is tens of thousands
//! of facts per state; crisscross counts stones with
//! `(count e3 e4 f3 f4 red ?p)` over a relation of all 4-tuples of cells. A
//! call with bound arguments (constants, or variables bound by the positive
//! literals before it, as written) is rewritten to an adorned copy of the
//! relation (`count_loop^bbbbff`), whose rules first read a magic relation
//! holding the bound arguments that calls can ask for; magic rules derive
//! those from the caller's own magic relation and the literals before the
//! call. Relations that change with the state are rewritten; static ones
//! only when they are too large to compute whole (sudoku). Calls with no
//! bound argument keep the original relation.
//!
//! Negated calls are rewritten too: chess asks
//! `(not (threatened ?player ?kx ?ky ?u ?v))` of one square at a time, and
//! the whole `threatened` (every square, with every square ignored) is
//! millions of facts per state. The adorned relation holds every fact of
//! the original one with the bound arguments asked for, so its absence
//! reads the same. But the magic relation of a negated call depends on the
//! caller's literals, which can close a cycle through the negation; where
//! the rewrite would leave a relation depending on its own negation, the
//! negated calls keep the original relation instead.

use rustc_hash::{FxHashMap, FxHashSet};

use super::description::{self as d, Pattern, Sentence, Var};
use super::normal_form::{FlatRule, Lit};
use super::term::{Sym, Symbols};

/// Rewrites `rules` for the relations in `rewritable` (name, arity).
pub(super) fn rewrite(
    rules: Vec<FlatRule>,
    rewritable: &FxHashSet<(Sym, usize)>,
    symbols: &mut Symbols,
) -> Vec<FlatRule> {
    // Games whose relations negate themselves (split by constants when
    // planned) keep their negated calls as written.
    if !negates_itself(&rules) {
        let mut attempt = symbols.clone();
        let out = rewrite_calls(&rules, rewritable, &mut attempt, true);
        if !negates_itself(&out) {
            *symbols = attempt;
            return out;
        }
    }
    rewrite_calls(&rules, rewritable, symbols, false)
}

/// Whether some relation of `rules` depends on its own negation.
fn negates_itself(rules: &[FlatRule]) -> bool {
    let mut ids: FxHashMap<(Sym, usize), usize> = FxHashMap::default();
    let mut id = |s: &Sentence| {
        let n = ids.len();
        *ids.entry((s.relation, s.args.len())).or_insert(n)
    };
    let mut edges: Vec<(usize, usize, bool)> = Vec::new();
    for rule in rules {
        let h = id(&rule.head);
        for lit in &rule.body {
            match lit {
                Lit::Pos(s) => edges.push((h, id(s), true)),
                Lit::Neg(s) => edges.push((h, id(s), false)),
                _ => {}
            }
        }
    }
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); ids.len()];
    for &(h, r, _) in &edges {
        out[h].push(r);
    }
    let mut component = vec![0; ids.len()];
    let mut c = 0;
    super::scc::each_component(
        out.len(),
        |v, k| out[v].get(k).copied(),
        |members| {
            for &m in members {
                component[m] = c;
            }
            c += 1;
        },
    );
    edges.iter().any(|&(h, r, positive)| !positive && component[h] == component[r])
}

/// The rewrite, with negated calls adorned or not.
fn rewrite_calls(
    rules: &[FlatRule],
    rewritable: &FxHashSet<(Sym, usize)>,
    symbols: &mut Symbols,
    negated_calls: bool,
) -> Vec<FlatRule> {
    let mut by_relation: FxHashMap<(Sym, usize), Vec<usize>> = FxHashMap::default();
    for (i, rule) in rules.iter().enumerate() {
        by_relation.entry((rule.head.relation, rule.head.args.len())).or_default().push(i);
    }
    let mut r = Rewriter {
        rewritable,
        symbols,
        adorned: FxHashMap::default(),
        queue: Vec::new(),
        plain: FxHashSet::default(),
        plain_queue: Vec::new(),
        out: Vec::new(),
        negated_calls,
    };
    // Rules are written only for what the rules of the other relations
    // (reserved and static ones) call, so that original rules no query needs
    // cannot feed the magic relations.
    for rule in rules {
        if !rewritable.contains(&(rule.head.relation, rule.head.args.len())) {
            r.process(rule.clone());
        }
    }
    loop {
        if let Some(key) = r.plain_queue.pop() {
            for &i in by_relation.get(&key).map_or(&[][..], Vec::as_slice) {
                r.process(rules[i].clone());
            }
            continue;
        }
        let Some((name, arity, adornment, adorned, magic)) = r.queue.pop() else { break };
        for &i in by_relation.get(&(name, arity)).map_or(&[][..], Vec::as_slice) {
            let original = &rules[i];
            let bound_args: Vec<Pattern> =
                original.head.args.iter().zip(&adornment).filter(|(_, b)| **b).map(|(a, _)| a.clone()).collect();
            let mut body = vec![Lit::Pos(Sentence { relation: magic, args: bound_args, span: original.head.span })];
            body.extend(original.body.iter().cloned());
            let head = Sentence { relation: adorned, args: original.head.args.clone(), span: original.head.span };
            r.process(FlatRule { head, body, n_vars: original.n_vars, span: original.span });
        }
    }
    r.out
}

/// What the rewriter has made: adorned relations by (name, arity, adornment).
struct Rewriter<'a> {
    rewritable: &'a FxHashSet<(Sym, usize)>,
    symbols: &'a mut Symbols,
    adorned: FxHashMap<(Sym, usize, Vec<bool>), (Sym, Sym)>,
    /// Adorned relations whose rules are still to be written.
    queue: Vec<(Sym, usize, Vec<bool>, Sym, Sym)>,
    /// Rewritable relations called as they are, and those whose rules are
    /// still to be written.
    plain: FxHashSet<(Sym, usize)>,
    plain_queue: Vec<(Sym, usize)>,
    out: Vec<FlatRule>,
    /// Whether negated calls are adorned as positive ones are.
    negated_calls: bool,
}

impl Rewriter<'_> {
    /// Rewrites the calls in `rule`'s body and adds it, with a magic rule per
    /// rewritten call (an adorned rule's own magic literal comes first in
    /// its body, so it heads every magic rule it makes).
    fn process(&mut self, mut rule: FlatRule) {
        let mut bound: FxHashSet<Var> = FxHashSet::default();
        // Positive literals so far, for the bodies of magic rules.
        let mut before: Vec<Lit> = Vec::new();
        for lit in rule.body.iter_mut() {
            let (sentence, positive) = match lit {
                Lit::Pos(s) => (s, true),
                Lit::Neg(s) => (s, false),
                _ => continue,
            };
            let key = (sentence.relation, sentence.args.len());
            if (positive || self.negated_calls) && self.rewritable.contains(&key) {
                let adornment: Vec<bool> = sentence.args.iter().map(|a| all_bound(a, &bound)).collect();
                if adornment.iter().any(|b| *b) {
                    let (adorned, magic_rel) = self.adorn(key.0, key.1, &adornment);
                    let call_args: Vec<Pattern> =
                        sentence.args.iter().zip(&adornment).filter(|(_, b)| **b).map(|(a, _)| a.clone()).collect();
                    self.out.push(FlatRule {
                        head: Sentence { relation: magic_rel, args: call_args, span: sentence.span },
                        body: before.clone(),
                        n_vars: rule.n_vars,
                        span: rule.span,
                    });
                    sentence.relation = adorned;
                } else if self.plain.insert(key) {
                    self.plain_queue.push(key);
                }
            } else if self.rewritable.contains(&key) && self.plain.insert(key) {
                self.plain_queue.push(key);
            }
            if positive {
                for a in &sentence.args {
                    a.for_each_var(&mut |v| {
                        bound.insert(v);
                    });
                }
                before.push(Lit::Pos(sentence.clone()));
            }
        }
        self.out.push(rule);
    }

    /// The adorned relation and its magic relation for a call pattern.
    fn adorn(&mut self, name: Sym, arity: usize, adornment: &[bool]) -> (Sym, Sym) {
        if let Some(&pair) = self.adorned.get(&(name, arity, adornment.to_vec())) {
            return pair;
        }
        let pattern: String = adornment.iter().map(|&b| if b { 'b' } else { 'f' }).collect();
        let base = format!("{}^{arity}^{pattern}", self.symbols.name(name));
        let adorned = self.symbols.intern(&base);
        let magic = self.symbols.intern(&format!("magic^{base}"));
        self.adorned.insert((name, arity, adornment.to_vec()), (adorned, magic));
        self.queue.push((name, arity, adornment.to_vec(), adorned, magic));
        (adorned, magic)
    }
}

fn all_bound(p: &Pattern, bound: &FxHashSet<Var>) -> bool {
    let mut ok = true;
    p.for_each_var(&mut |v| ok &= bound.contains(&v));
    ok
}

/// Relations worth rewriting: derived by rules (not only facts), not
/// reserved, and changing with the state unless `include_static`.
pub(super) fn rewritable(rules: &[FlatRule], include_static: bool) -> FxHashSet<(Sym, usize)> {
    let reserved = [d::ROLE, d::INIT, d::TRUE, d::NEXT, d::LEGAL, d::DOES, d::GOAL, d::TERMINAL];
    let mut dynamic: FxHashSet<(Sym, usize)> = FxHashSet::default();
    dynamic.insert((d::TRUE, 1));
    dynamic.insert((d::DOES, 2));
    if include_static {
        for rule in rules {
            if !rule.body.is_empty() {
                dynamic.insert((rule.head.relation, rule.head.args.len()));
            }
        }
    }
    loop {
        let before = dynamic.len();
        for rule in rules {
            let key = (rule.head.relation, rule.head.args.len());
            if dynamic.contains(&key) {
                continue;
            }
            let reads_dynamic = rule.body.iter().any(|l| match l {
                Lit::Pos(s) | Lit::Neg(s) => dynamic.contains(&(s.relation, s.args.len())),
                _ => false,
            });
            if reads_dynamic {
                dynamic.insert(key);
            }
        }
        if dynamic.len() == before {
            break;
        }
    }
    dynamic.retain(|(name, _)| !reserved.contains(name) && !symbols_reserved(*name));
    dynamic
}

fn symbols_reserved(name: Sym) -> bool {
    name <= d::IMPLIES
}
