//! `(seed-population NAME ...)`: programs of the module that join generation
//! 0 as they are, so that a run can start from earlier champions (an
//! evolved 6×6 policy trained further on 8×8 boards, say) instead of from
//! random programs alone. The rest of generation 0 is drawn as usual, from
//! the same stream, so a run without the clause is unchanged.
//!
//! Each name is an individual (for `(individual tree)`: the same trees by
//! name and type), a policy or a weight vector, over the experiment's
//! primset and within its limits (rules, depth, size); networks are bred
//! by NEAT from its own first genome and cannot be named.

use super::clauses::Clauses;
use crate::evolve::genome::{Genome, Representation, Variation};
use crate::evolve::policy_ops::RuleList;
use crate::lang::Tree;
use crate::lang::forms::PrimSetId;
use crate::lang::program::Module;
use crate::lang::syntax_helpers::Cx;
use crate::syntax::Sexp;

const CODE: &str = "stratagem::experiment::seed-population";

/// The experiment's founders, in the order named; `population` bounds
/// their number.
pub(super) fn lower_founders(
    cx: &mut Cx,
    module: &Module,
    clauses: &Clauses,
    (primset, rep, variation, population): (PrimSetId, &Representation, &Variation, usize),
) -> Vec<Genome> {
    let Some(names) = clauses.get("seed-population") else { return Vec::new() };
    if names.is_empty() {
        clauses.malformed(cx, "seed-population", "(seed-population NAME ...)");
        return Vec::new();
    }
    if names.len() > population {
        cx.error(
            CODE,
            &names[population],
            format!("{} programs do not fit in a population of {population}", names.len()),
            "one too many",
        );
        return Vec::new();
    }
    let mut founders = Vec::new();
    for sexp in names {
        if let Some(genome) = lower_founder(cx, module, sexp, (primset, rep, variation)) {
            founders.push(genome);
        }
    }
    founders
}

/// The founder `sexp` names, if it is a program of the experiment's
/// representation over its primset, within its limits; `None` after
/// reporting why not.
fn lower_founder(
    cx: &mut Cx,
    module: &Module,
    sexp: &Sexp,
    (primset, rep, variation): (PrimSetId, &Representation, &Variation),
) -> Option<Genome> {
    let ps = module.primset(primset);
    let Some(name) = sexp.as_symbol() else {
        cx.error(CODE, sexp, "expected the name of an individual, policy or weight vector", "not a name");
        return None;
    };
    let fits_depth = |cx: &mut Cx, tree: &Tree| {
        let depth = tree.depth(ps);
        let max = variation.limits.max_depth;
        let too_big = variation.max_size.is_some_and(|m| tree.len() > m);
        if depth > max || too_big {
            let what = if too_big { "nodes over max-size" } else { "depth over max-depth" };
            cx.error(CODE, sexp, format!("`{name}` has a tree beyond the experiment's limits ({what})"), what);
            return false;
        }
        true
    };
    // Whether a program of `kind` was found by that name (`found`: its
    // primset), over the experiment's primset; if not, says why.
    let usable = |cx: &mut Cx, found: Option<PrimSetId>, (kind, label): (&str, &str)| match found {
        None => {
            cx.error(CODE, sexp, missing(module, name, kind), label);
            false
        }
        Some(theirs) if theirs != primset => {
            let (mine, theirs) = (&ps.name, &module.primset(theirs).name);
            let msg = format!("`{name}` is over primset `{theirs}`, the experiment over `{mine}`");
            cx.error(CODE, sexp, msg, "another primset");
            false
        }
        Some(_) => true,
    };
    let genome = match rep {
        Representation::Policy(pp) => {
            let found = module.policies.iter().find(|p| p.name == name);
            if !usable(cx, found.map(|x| x.primset), ("policy", "not a policy")) {
                return None;
            }
            let p = found?;
            if p.rules.len() > pp.max_rules {
                let msg = format!("`{name}` has {} rules, more than max-rules {}", p.rules.len(), pp.max_rules);
                cx.error(CODE, sexp, msg, "too many rules");
                return None;
            }
            let mut list = RuleList::of(p);
            let trees = list.rules.iter_mut().flat_map(|r| [&mut r.condition, &mut r.value]);
            let trees: Vec<&mut Tree> = trees.chain(std::iter::once(&mut list.default)).collect();
            if !trees.iter().all(|t| fits_depth(cx, t)) {
                return None;
            }
            trees.into_iter().for_each(|t| t.spans.clear());
            Genome::Policy(list)
        }
        Representation::Trees(slots) => {
            let found = module.find_individual(name);
            if !usable(cx, found.map(|x| x.primset), ("individual", "not an individual")) {
                return None;
            }
            let ind = found?;
            let same_shape = ind.trees.len() == slots.len()
                && ind.trees.iter().zip(slots).all(|(t, (slot, ty))| t.name == *slot && t.ty == *ty);
            if !same_shape {
                let wanted: Vec<&str> = slots.iter().map(|(s, _)| s.as_str()).collect();
                let msg = format!("`{name}` does not have the experiment's trees ({})", wanted.join(", "));
                cx.error(CODE, sexp, msg, "other trees");
                return None;
            }
            if !ind.trees.iter().all(|t| fits_depth(cx, &t.tree)) {
                return None;
            }
            Genome::Trees(ind.trees.iter().map(|t| Tree { nodes: t.tree.nodes.clone(), spans: Vec::new() }).collect())
        }
        Representation::Weights { terms, .. } => {
            let found = module.weights.iter().find(|w| w.name == name);
            if !usable(cx, found.map(|x| x.primset), ("weight vector", "not weights")) {
                return None;
            }
            let w = found?;
            if let Some((term, _)) = w.terms.iter().find(|(t, _)| !terms.contains(t)) {
                let term = &ps.prim(*term).name;
                let msg = format!("`{name}` weighs `{term}`, which the experiment's (terms ...) leave out");
                cx.error(CODE, sexp, msg, "other terms");
                return None;
            }
            let weight = |t| w.terms.iter().find(|(u, _)| *u == t).map_or(0.0, |(_, x)| *x);
            Genome::Weights(terms.iter().map(|&t| weight(t)).collect())
        }
        Representation::Network(_) => {
            cx.error(CODE, sexp, "networks start from NEAT's own first genome", "not for networks");
            return None;
        }
    };
    Some(genome)
}

/// Why `name` is not a founder of the `wanted` kind: another kind of
/// program by that name, or none at all.
fn missing(module: &Module, name: &str, wanted: &str) -> String {
    let other = if module.find_individual(name).is_some() {
        Some("an individual")
    } else if module.policies.iter().any(|p| p.name == name) {
        Some("a policy")
    } else if module.weights.iter().any(|w| w.name == name) {
        Some("a weight vector")
    } else if module.networks.iter().any(|n| n.name == name) {
        Some("a network")
    } else {
        None
    };
    match other {
        Some(kind) => format!("`{name}` is {kind}, but the experiment evolves each member as a {wanted}"),
        None => format!("no {wanted} `{name}` is defined or imported"),
    }
}
