//! Rule bodies split before grounding, so that a variable the head does
//! not need is projected away where it is used instead of multiplying the
//! rule's instances.
//!
//! A ground rule is made for every satisfying assignment of its body, so a
//! body that joins independent parts grounds to the product of their sizes.
//! chess_200's `(<= multipleCheckSources (checkSource ?x1 ?y1 ?dir1)
//! (checkSource ?x2 ?y2 ?dir2) (or (distinct ?x1 ?x2) (distinct ?y1 ?y2)))`
//! grounds to 493 K rules, though `?dir1` and `?dir2` only say that some
//! direction exists. Eliminating such a variable `v` moves the literals
//! that mention it into a rule of their own, `part^N(S) :- those literals`,
//! where `S` are their other variables, and puts `part^N(S)` in their place
//! (the usual join–project decomposition of conjunctive queries): the body
//! means the same (`v` occurs nowhere else), and its ground instances are
//! counted over `S` instead of `S` and `v`. Here the pairs become pairs of
//! squares, 4 K rules.
//!
//! A variable `v` is eliminated only when
//! - its literals are not the whole body (that would only rename the rule);
//! - a positive literal among them binds every variable they mention, so
//!   the part is a safe rule;
//! - one positive literal among them holds every variable the part keeps,
//!   so the part has no more atoms than that literal matches: the relaxed
//!   game (which ignores the literals outside the part) cannot make it
//!   larger than what is already there. Without this, a part joining a
//!   move with a static relation of board squares can outgrow the rule it
//!   came from (checkers' frame axioms did: 2 M facts).
//!
//! Among the variables that may go, the one whose part keeps the fewest
//! variables goes first, and again until none may. The part takes the place
//! of its first literal, since the literals before a call decide what it is
//! asked for (demand.rs). Rules that nothing changes are kept as written.

use rustc_hash::FxHashSet;

use super::description::{Description, Literal, Pattern, Rule, Sentence, Var};
use super::normal_form::{Lit, bind_role_argument, dnf};

/// `desc` with its rule bodies split; the new relations are named
/// `part^N`, a name no game can use.
pub(super) fn decompose(desc: &Description) -> Description {
    let mut out = desc.clone();
    out.rules.clear();
    out.spellings.clear();
    let mut parts = 0usize;
    for rule in &desc.rules {
        if rule.body.is_empty() {
            out.rules.push(rule.clone());
            continue;
        }
        let alternatives = dnf(&rule.body);
        let mut split: Vec<Rule> = Vec::new();
        let mut changed = false;
        for mut body in alternatives {
            bind_role_argument(&rule.head, &mut body);
            changed |= eliminate(rule, &mut body, &mut out, &mut parts, &mut split);
            split.push(flat_rule(rule, &rule.head, &body));
        }
        if changed {
            out.rules.extend(split);
        } else {
            out.rules.push(rule.clone());
        }
    }
    out
}

fn lit_vars(lit: &Lit, f: &mut impl FnMut(Var)) {
    match lit {
        Lit::Pos(s) | Lit::Neg(s) => s.for_each_var(f),
        Lit::Distinct(a, b) | Lit::Same(a, b) => {
            a.for_each_var(f);
            b.for_each_var(f);
        }
    }
}

fn var_set(lit: &Lit) -> FxHashSet<Var> {
    let mut vars = FxHashSet::default();
    lit_vars(lit, &mut |v| {
        vars.insert(v);
    });
    vars
}

/// Eliminates variables of `body` (an alternative of `rule`) one part at a
/// time, pushing each part's rule to `split`; whether any was.
fn eliminate(
    rule: &Rule,
    body: &mut Vec<Lit>,
    out: &mut Description,
    parts: &mut usize,
    split: &mut Vec<Rule>,
) -> bool {
    let mut head_vars = FxHashSet::default();
    rule.head.for_each_var(&mut |v| {
        head_vars.insert(v);
    });
    let mut changed = false;
    loop {
        let vars: Vec<FxHashSet<Var>> = body.iter().map(var_set).collect();
        let mut candidates: Vec<Var> = vars.iter().flatten().copied().filter(|v| !head_vars.contains(v)).collect();
        candidates.sort_unstable();
        candidates.dedup();
        // The best part: (its other variables, its literals, the eliminated).
        let mut best: Option<(Vec<Var>, Vec<usize>)> = None;
        for &v in &candidates {
            let members: Vec<usize> = (0..body.len()).filter(|&i| vars[i].contains(&v)).collect();
            if members.len() == body.len() {
                continue;
            }
            let mentioned: FxHashSet<Var> = members.iter().flat_map(|&i| vars[i].iter().copied()).collect();
            let bound: FxHashSet<Var> = members
                .iter()
                .filter(|&&i| matches!(body[i], Lit::Pos(_)))
                .flat_map(|&i| vars[i].iter().copied())
                .collect();
            if !mentioned.is_subset(&bound) {
                continue;
            }
            // Variables used elsewhere (or by the head) stay; the rest go.
            let mut kept: Vec<Var> = mentioned
                .iter()
                .copied()
                .filter(|w| {
                    head_vars.contains(w) || (0..body.len()).any(|i| !members.contains(&i) && vars[i].contains(w))
                })
                .collect();
            kept.sort_unstable();
            // The part's relation is no larger than one of its literals'.
            let covered =
                members.iter().any(|&i| matches!(body[i], Lit::Pos(_)) && kept.iter().all(|w| vars[i].contains(w)));
            if !covered {
                continue;
            }
            if best.as_ref().is_none_or(|(k, _)| kept.len() < k.len()) {
                best = Some((kept, members));
            }
        }
        let Some((kept, members)) = best else { return changed };
        let name = out.symbols.intern(&format!("part^{parts}"));
        *parts += 1;
        let head =
            Sentence { relation: name, args: kept.iter().map(|&v| Pattern::Var(v)).collect(), span: rule.head.span };
        let part_body: Vec<Lit> = members.iter().map(|&i| body[i].clone()).collect();
        split.push(flat_rule(rule, &head, &part_body));
        // The part stands where its first literal stood: literals before
        // a call decide what it is asked for (demand), so order matters.
        let mut rest: Vec<Lit> = Vec::with_capacity(body.len() - members.len() + 1);
        for (i, lit) in body.iter().enumerate() {
            if i == members[0] {
                rest.push(Lit::Pos(head.clone()));
            } else if !members.contains(&i) {
                rest.push(lit.clone());
            }
        }
        *body = rest;
        changed = true;
    }
}

/// A rule of `head` and `body` (variables of `rule`), its variables
/// numbered anew in order of first appearance.
fn flat_rule(rule: &Rule, head: &Sentence, body: &[Lit]) -> Rule {
    let mut r = Renumber { number: vec![None; rule.vars.len()], names: &rule.vars, vars: Vec::new() };
    let span = rule.span;
    let head = r.sentence(head);
    let body = body
        .iter()
        .map(|lit| match lit {
            Lit::Pos(s) => Literal::Pos(r.sentence(s)),
            Lit::Neg(s) => Literal::Not(Box::new(Literal::Pos(r.sentence(s))), span),
            Lit::Distinct(a, b) => Literal::Distinct(r.pattern(a), r.pattern(b), span),
            Lit::Same(a, b) => Literal::Not(Box::new(Literal::Distinct(r.pattern(a), r.pattern(b), span)), span),
        })
        .collect();
    Rule { head, body, vars: r.vars, span }
}

/// Variables numbered anew in order of first appearance.
struct Renumber<'r> {
    number: Vec<Option<Var>>,
    names: &'r [String],
    vars: Vec<String>,
}

impl Renumber<'_> {
    fn pattern(&mut self, p: &Pattern) -> Pattern {
        match p {
            Pattern::Var(v) => {
                let (names, vars) = (self.names, &mut self.vars);
                Pattern::Var(*self.number[*v as usize].get_or_insert_with(|| {
                    vars.push(names[*v as usize].clone());
                    (vars.len() - 1) as Var
                }))
            }
            Pattern::Const(c) => Pattern::Const(*c),
            Pattern::Fn(name, args) => Pattern::Fn(*name, args.iter().map(|a| self.pattern(a)).collect()),
        }
    }

    fn sentence(&mut self, s: &Sentence) -> Sentence {
        Sentence { relation: s.relation, args: s.args.iter().map(|a| self.pattern(a)).collect(), span: s.span }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::FileId;

    fn split(text: &str) -> (Description, Description) {
        let (forms, diags) = crate::syntax::read(FileId(0), text);
        assert!(diags.is_empty(), "{diags:?}");
        let (desc, diags) = Description::read(FileId(0), &forms);
        assert!(diags.is_empty(), "{diags:?}");
        let out = decompose(&desc);
        (desc, out)
    }

    /// The relations a rule's body reads, by name.
    fn body_relations(d: &Description, rule: &Rule) -> Vec<String> {
        rule.body
            .iter()
            .map(|l| match l {
                Literal::Pos(s) => d.symbols.name(s.relation).to_owned(),
                Literal::Not(inner, _) => match &**inner {
                    Literal::Pos(s) => format!("not {}", d.symbols.name(s.relation)),
                    _ => "not distinct".to_owned(),
                },
                Literal::Distinct(..) => "distinct".to_owned(),
                Literal::Or(..) => "or".to_owned(),
            })
            .collect()
    }

    #[test]
    fn a_variable_used_once_is_projected_away() {
        let (_, out) =
            split("(<= many (source ?x1 ?y1 ?d1) (source ?x2 ?y2 ?d2) (or (distinct ?x1 ?x2) (distinct ?y1 ?y2)))");
        let is_part = |r: &&Rule| out.symbols.name(r.head.relation).starts_with("part^");
        let parts: Vec<&Rule> = out.rules.iter().filter(is_part).collect();
        assert!(!parts.is_empty());
        for part in &parts {
            assert!(part.head.args.len() <= 2, "the direction is gone: {part:?}");
        }
        // One rule per `or` alternative, over parts: pairs of squares.
        let many: Vec<&Rule> = out.rules.iter().filter(|r| out.symbols.name(r.head.relation) == "many").collect();
        assert_eq!(many.len(), 2);
        for rule in many {
            let reads = body_relations(&out, rule);
            assert_eq!(reads.iter().filter(|r| r.starts_with("part^")).count(), 2, "{reads:?}");
            assert!(!reads.contains(&"source".to_owned()), "{reads:?}");
            assert!(rule.vars.len() <= 4, "{:?}", rule.vars);
        }
    }

    #[test]
    fn a_part_larger_than_its_literals_is_not_made() {
        // Eliminating ?m would make `part(?x ?z) :- (a ?x ?m) (b ?m ?z)`, a
        // join no literal bounds (in the relaxed game, `c` would not
        // restrict it), so the rule stays as it is.
        let (desc, out) = split("(<= (h ?x ?z) (c ?x ?z) (a ?x ?m) (b ?m ?z))");
        assert_eq!(out.rules.len(), 1, "{:?}", out.rules);
        assert_eq!(body_relations(&out, &out.rules[0]), body_relations(&desc, &desc.rules[0]));
    }

    #[test]
    fn rules_without_a_variable_to_spare_are_kept_as_written() {
        let text = "(<= (legal ?r (mark ?x)) (role ?r) (true (cell ?x b)) (not (distinct ?r white)))
                    (<= (goal ?r 100) (or (line ?r) (full)))";
        let (desc, out) = split(text);
        assert_eq!(out.rules.len(), desc.rules.len());
        for (a, b) in desc.rules.iter().zip(&out.rules) {
            assert_eq!(body_relations(&desc, a), body_relations(&out, b));
        }
    }

    #[test]
    fn a_variable_only_a_negation_binds_stays() {
        // `?y` is bound by `q` only: a part of `(not (p ?x ?y))` alone would
        // be unsafe, and a part with `q` is the whole body but the head.
        let (desc, out) = split("(<= (h ?x) (r ?x) (q ?y) (not (p ?x ?y)))");
        assert_eq!(out.rules.len(), desc.rules.len(), "{:?}", out.rules);
    }
}
