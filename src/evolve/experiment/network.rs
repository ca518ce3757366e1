//! `(individual network ...)`: NEAT's settings (src/evolve/neat), each with
//! Stanley and Miikkulainen's default (2002) when left out.
//!
//! ```text
//! (individual network
//!   (inputs T...)              ; F terminals of the primset (default: all, in order)
//!   (range -1.0 1.0)           ; first weights, new links and replaced weights: uniform
//!   (perturb 0.5)              ; a perturbed weight moves uniformly by at most this
//!   (weight-mutation 0.8) (replace 0.1)
//!   (add-node 0.03) (add-link 0.05)        ; 0.3 for large populations (the paper)
//!   (keep-disabled 0.75) (mutation-only 0.25) (interspecies 0.001)
//!   (compatibility 1.0 1.0 0.4) (threshold 3.0)   ; c1 c2 c3 and δt
//!   (stagnation 15) (survival 0.2))
//! ```

use super::clauses::{probability, usage};
use crate::evolve::neat::NeatParams;
use crate::lang::PrimId;
use crate::lang::syntax_helpers::Cx;
use crate::syntax::Sexp;

/// The options of `(individual network ...)`.
pub(super) const NETWORK_OPTIONS: [&str; 14] = [
    "inputs",
    "range",
    "perturb",
    "weight-mutation",
    "replace",
    "add-node",
    "add-link",
    "keep-disabled",
    "mutation-only",
    "interspecies",
    "compatibility",
    "threshold",
    "stagnation",
    "survival",
];

/// NEAT's settings over `inputs` from the options `get` finds (each
/// already checked to be given at most once).
pub(super) fn lower_neat<'a>(cx: &mut Cx, inputs: Vec<PrimId>, get: &dyn Fn(&str) -> Option<&'a Sexp>) -> NeatParams {
    let mut p = NeatParams::new(inputs);
    let probabilities: [(&str, &mut f64); 8] = [
        ("weight-mutation", &mut p.weight_mutation),
        ("replace", &mut p.replace),
        ("add-node", &mut p.add_node),
        ("add-link", &mut p.add_link),
        ("keep-disabled", &mut p.keep_disabled),
        ("mutation-only", &mut p.mutation_only),
        ("interspecies", &mut p.interspecies),
        ("survival", &mut p.survival),
    ];
    for (key, value) in probabilities {
        if let Some(opt) = get(key) {
            match opt.as_list().unwrap_or_default() {
                [_, v] => *value = probability(cx, v, key),
                _ => usage(cx, opt, &format!("({key} P)")),
            }
        }
    }
    if let Some(opt) = get("range") {
        match opt.as_list().unwrap_or_default() {
            [_, lo, hi] => match (cx.expect_number(lo, "a weight"), cx.expect_number(hi, "a weight")) {
                (Some(a), Some(b)) if a.is_finite() && b.is_finite() && a < b => p.weight_range = (a, b),
                (Some(_), Some(_)) => {
                    cx.error("stratagem::experiment::range", opt, "a weight range needs LO < HI", "empty range")
                }
                _ => {}
            },
            _ => usage(cx, opt, "(range LO HI)"),
        }
    }
    if let Some(v) = positive(cx, get("perturb"), "perturb", 100.0) {
        p.perturb = v;
    }
    if let Some(v) = positive(cx, get("threshold"), "threshold", 1e6) {
        p.threshold = v;
    }
    if let Some(opt) = get("compatibility") {
        match opt.as_list().unwrap_or_default() {
            [_, c1, c2, c3] => {
                let cs: Vec<Option<f64>> = [c1, c2, c3].iter().map(|c| cx.expect_number(c, "a coefficient")).collect();
                match cs.as_slice() {
                    [Some(a), Some(b), Some(c)] if [a, b, c].iter().all(|x| x.is_finite() && **x >= 0.0) => {
                        p.coefficients = (*a, *b, *c)
                    }
                    [Some(_), Some(_), Some(_)] => cx.error(
                        "stratagem::experiment::range",
                        opt,
                        "compatibility coefficients are finite and not negative",
                        "out of range",
                    ),
                    _ => {}
                }
            }
            _ => usage(cx, opt, "(compatibility C1 C2 C3)"),
        }
    }
    if let Some(opt) = get("stagnation") {
        match opt.as_list().unwrap_or_default() {
            [_, v] => match cx.expect_int(v, "a number of generations") {
                Some(g) if g >= 1 => p.stagnation = g as u64,
                Some(g) => cx.error(
                    "stratagem::experiment::range",
                    v,
                    format!("`stagnation` is at least 1 generation, not {g}"),
                    "out of range",
                ),
                None => {}
            },
            _ => usage(cx, opt, "(stagnation GENERATIONS)"),
        }
    }
    p
}

/// The value of `(KEY X)` with 0 < X ≤ `max`, or `None` (reported unless absent).
fn positive(cx: &mut Cx, opt: Option<&Sexp>, key: &str, max: f64) -> Option<f64> {
    let opt = opt?;
    match opt.as_list().unwrap_or_default() {
        [_, v] => match cx.expect_number(v, "a number") {
            Some(x) if x > 0.0 && x <= max => Some(x),
            Some(x) => {
                cx.error(
                    "stratagem::experiment::range",
                    v,
                    format!("`{key}` must be in (0, {max}], not {x}"),
                    "out of range",
                );
                None
            }
            None => None,
        },
        _ => {
            usage(cx, opt, &format!("({key} X)"));
            None
        }
    }
}
