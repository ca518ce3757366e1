//! Rules in normal form: each `or` expanded into alternatives and each
//! `not` pushed down to a sentence (De Morgan), so that a body is a plain
//! conjunction of positive and negative sentences and (in)equalities.
//!
//! The planner (plan.rs), the magic-sets rewrite (magic.rs), the body
//! decomposition before grounding (decompose.rs) and the relaxed game's
//! demand (demand.rs) all read rules in this form.

use super::description::{self as d, Literal, Pattern, Sentence, Var};

/// A rule after normalisation: one alternative of its `or`s.
#[derive(Clone, Debug)]
pub(super) struct FlatRule {
    pub head: Sentence,
    pub body: Vec<Lit>,
    pub n_vars: usize,
    pub span: crate::syntax::Span,
}

/// A literal after normalisation.
#[derive(Clone, Debug)]
pub(super) enum Lit {
    Pos(Sentence),
    Neg(Sentence),
    Distinct(Pattern, Pattern),
    Same(Pattern, Pattern),
}

/// The disjunctive normal form of a body: `or` expanded into alternatives,
/// `not` pushed inside `or` (De Morgan), `(not (distinct a b))` as equality.
pub(super) fn dnf(body: &[Literal]) -> Vec<Vec<Lit>> {
    let mut alternatives: Vec<Vec<Lit>> = vec![Vec::new()];
    for lit in body {
        let options = literal_options(lit, false);
        let mut next = Vec::with_capacity(alternatives.len() * options.len());
        for alt in &alternatives {
            for opt in &options {
                let mut a = alt.clone();
                a.extend(opt.iter().cloned());
                next.push(a);
            }
        }
        alternatives = next;
    }
    alternatives
}

/// The conjunctions any one of which makes `lit` (negated if `negated`) true.
fn literal_options(lit: &Literal, negated: bool) -> Vec<Vec<Lit>> {
    match (lit, negated) {
        (Literal::Pos(s), false) => vec![vec![Lit::Pos(s.clone())]],
        (Literal::Pos(s), true) => vec![vec![Lit::Neg(s.clone())]],
        (Literal::Distinct(a, b, _), false) => vec![vec![Lit::Distinct(a.clone(), b.clone())]],
        (Literal::Distinct(a, b, _), true) => vec![vec![Lit::Same(a.clone(), b.clone())]],
        (Literal::Not(inner, _), _) => literal_options(inner, !negated),
        (Literal::Or(ls, _), false) => ls.iter().flat_map(|l| literal_options(l, false)).collect(),
        (Literal::Or(ls, _), true) => dnf_of_conjunction(ls.iter().map(|l| literal_options(l, true)).collect()),
    }
}

fn dnf_of_conjunction(parts: Vec<Vec<Vec<Lit>>>) -> Vec<Vec<Lit>> {
    let mut out: Vec<Vec<Lit>> = vec![Vec::new()];
    for options in parts {
        let mut next = Vec::new();
        for alt in &out {
            for opt in &options {
                let mut a = alt.clone();
                a.extend(opt.iter().cloned());
                next.push(a);
            }
        }
        out = next;
    }
    out
}

/// GGP-Base answers `(legal ?r ?m)` and `(goal ?r ?v)` for each role, so a
/// role variable of such a head that no positive literal binds is bound by
/// `(role ?r)`, added first.
pub(super) fn bind_role_argument(head: &Sentence, body: &mut Vec<Lit>) {
    if (head.relation == d::LEGAL || head.relation == d::GOAL)
        && let Some(Pattern::Var(v)) = head.args.first()
    {
        let bound_by_body = body.iter().any(|l| matches!(l, Lit::Pos(s) if pattern_vars(&s.args).contains(v)));
        if !bound_by_body {
            let role = Sentence { relation: d::ROLE, args: vec![Pattern::Var(*v)], span: head.span };
            body.insert(0, Lit::Pos(role));
        }
    }
}

/// The variables of `args`, in order, with repeats.
pub(super) fn pattern_vars(args: &[Pattern]) -> Vec<Var> {
    let mut vars = Vec::new();
    for a in args {
        a.for_each_var(&mut |v| vars.push(v));
    }
    vars
}
