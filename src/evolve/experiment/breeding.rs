//! How an experiment breeds: the initial ramp, crossover and mutation rates,
//! depth and size limits, and selection.

use super::clauses::{Clauses, probability};
use crate::diagnostic::Diagnostic;
use crate::evolve::engine::Selection;
use crate::evolve::init::{Builder, Introns};
use crate::lang::TypeId;
use crate::lang::primset::PrimSet;
use crate::lang::syntax_helpers::Cx;
use crate::syntax::{Sexp, Span};

/// `(init MIN MAX)`: the depths of ramped half-and-half, (2, 6) by default.
pub(super) fn lower_init(cx: &mut Cx, clauses: &Clauses) -> (usize, usize) {
    match clauses.get("init") {
        None => (2, 6),
        Some([a, b]) => match (cx.expect_int(a, "a depth"), cx.expect_int(b, "a depth")) {
            (Some(a), Some(b)) if 1 <= a && a <= b => (a as usize, b as usize),
            (Some(_), Some(_)) => {
                cx.error(
                    "stratagem::experiment::range",
                    &Sexp::list(vec![], clauses.span("init")),
                    "init depths must satisfy 1 <= MIN <= MAX",
                    "bad ramp",
                );
                (2, 6)
            }
            _ => (2, 6),
        },
        Some(_) => {
            clauses.malformed(cx, "init", "(init MIN-DEPTH MAX-DEPTH)");
            (2, 6)
        }
    }
}

/// How children are made, from the rate clauses.
pub(super) struct Rates {
    pub crossover: f64,
    pub one_way: bool,
    pub mutation: f64,
    pub local_mutation: f64,
    pub erc_mutation: f64,
    /// `(erc-mutation P (scale SD))`: the deviation of the log-normal step.
    pub erc_scale: Option<f64>,
}

/// `(crossover P [one-way])`, `(mutation P)`, `(erc-mutation P [(scale
/// SD)])`, `(reproduction P)` and `(local-mutation P)`: the crossover
/// probability, whether it is one-way, the mutation probabilities and the
/// share of local mutations. Each child is made by crossover, mutation, ERC
/// mutation or copying (reproduction), so reproduction is what the others
/// leave; `(reproduction P)` states it (GA-FreeCell's 0.2, 0.7, 0.1) and is
/// refused when they do not add up to 1.
pub(super) fn lower_rates(cx: &mut Cx, clauses: &Clauses) -> Rates {
    let (crossover, one_way) = match clauses.get("crossover") {
        None => (0.8, false),
        Some([p]) => (probability(cx, p, "crossover"), false),
        Some([p, kind]) if kind.as_symbol() == Some("one-way") => (probability(cx, p, "crossover"), true),
        Some(_) => {
            clauses.malformed(cx, "crossover", "(crossover P) or (crossover P one-way)");
            (0.8, false)
        }
    };
    let mutation = clauses.probability(cx, "mutation", 0.2);
    let local_mutation = clauses.probability(cx, "local-mutation", 0.5);
    let (erc_mutation, erc_scale) = lower_erc_mutation(cx, clauses);
    if crossover + mutation + erc_mutation > 1.0 + 1e-12 {
        let (message, at) = if erc_mutation > 0.0 {
            (
                format!("crossover {crossover} + mutation {mutation} + erc-mutation {erc_mutation} exceed 1"),
                "erc-mutation",
            )
        } else {
            (format!("crossover {crossover} + mutation {mutation} exceed 1"), "mutation")
        };
        cx.push(
            Diagnostic::error("stratagem::experiment::range", message)
                .at(cx.file, clauses.span(at), "too likely")
                .with_help(
                    "each child is made by crossover, mutation, ERC mutation or copying; the probabilities share 1",
                ),
        );
    }
    if let Some(items) = clauses.get("reproduction") {
        match items {
            [p] => {
                let reproduction = probability(cx, p, "reproduction");
                let rest = 1.0 - crossover - mutation - erc_mutation;
                if (reproduction - rest).abs() > 1e-9 {
                    cx.push(
                        Diagnostic::error(
                            "stratagem::experiment::range",
                            format!(
                                "reproduction {reproduction} + crossover {crossover} + mutation {mutation} \
                                 do not add up to 1"
                            ),
                        )
                        .at(cx.file, p.span, "not what crossover and mutation leave")
                        .with_help(format!(
                            "a child is made by crossover, mutation or copying; with these rates copying \
                             has probability {rest:.4}: write (reproduction {rest:.4}) or change the others"
                        )),
                    );
                }
            }
            _ => clauses.malformed(cx, "reproduction", "(reproduction P)"),
        }
    }
    Rates { crossover, one_way, mutation, local_mutation, erc_mutation, erc_scale }
}

/// `(erc-mutation P)` or `(erc-mutation P (scale SD))`: the probability of
/// an ERC mutation, and whether its float constants move by a factor
/// e^N(0, SD) instead of as their ERCs declare (a step relative to the
/// value, for tuning weights of any size).
fn lower_erc_mutation(cx: &mut Cx, clauses: &Clauses) -> (f64, Option<f64>) {
    const FORM: &str = "(erc-mutation P) or (erc-mutation P (scale SD))";
    match clauses.get("erc-mutation") {
        None => (0.0, None),
        Some([p]) => (probability(cx, p, "erc-mutation"), None),
        Some([p, how]) => {
            let rate = probability(cx, p, "erc-mutation");
            match how.as_list() {
                Some([kind, sd]) if kind.as_symbol() == Some("scale") => match cx.expect_number(sd, "a deviation") {
                    Some(sd) if sd.is_finite() && sd > 0.0 => (rate, Some(sd)),
                    Some(sd) => {
                        cx.error(
                            "stratagem::experiment::range",
                            sd_span(how),
                            format!("a scale's deviation is a positive number, not {sd}"),
                            "not positive",
                        );
                        (rate, None)
                    }
                    None => (rate, None),
                },
                _ => {
                    clauses.malformed(cx, "erc-mutation", FORM);
                    (rate, None)
                }
            }
        }
        Some(_) => {
            clauses.malformed(cx, "erc-mutation", FORM);
            (0.0, None)
        }
    }
}

/// The deviation of a `(scale SD)` form, for diagnostics.
fn sd_span(how: &Sexp) -> &Sexp {
    how.as_list().and_then(|l| l.get(1)).unwrap_or(how)
}

/// Reports trees that cannot be built from the primset's primitives, or not
/// within the limits `(max-depth, init max, max-size)`; `at` is where to
/// point for a depth limit, which may be a default.
pub(super) fn check_limits(
    cx: &mut Cx,
    ps: &PrimSet,
    trees: &[(String, TypeId)],
    introns: Introns,
    limits: (usize, usize, Option<usize>),
    clauses: &Clauses,
    at: Span,
) {
    let needed: Vec<TypeId> = trees.iter().map(|(_, t)| *t).collect();
    let builder = match Builder::with_introns(ps, &needed, introns) {
        Ok(b) => b,
        Err(d) => {
            cx.push(d);
            return;
        }
    };
    let (max_depth, init_max, max_size) = limits;
    for (tree, ty) in trees {
        let need = builder.min_depth(*ty).unwrap_or(1);
        if max_depth < need || init_max < need {
            cx.push(
                Diagnostic::error(
                    "stratagem::experiment::depth",
                    format!(
                        "tree `{tree}` of type {} needs depth {need}, but the limit is {}",
                        ps.type_name(*ty),
                        max_depth.min(init_max)
                    ),
                )
                .at(cx.file, at, "impossible depth limit")
                .with_help(format!("raise (max-depth ...) and (init ...) to at least {need}")),
            );
        }
        let need = builder.min_size(*ty).unwrap_or(1);
        if let Some(max_size) = max_size.filter(|&m| m < need) {
            cx.push(
                Diagnostic::error(
                    "stratagem::experiment::size",
                    format!(
                        "tree `{tree}` of type {} needs {need} nodes, but the limit is {max_size}",
                        ps.type_name(*ty)
                    ),
                )
                .at(cx.file, clauses.span("max-size"), "impossible size limit")
                .with_help(format!("raise (max-size ...) to at least {need}")),
            );
        }
    }
}

pub(super) fn lower_selection(cx: &mut Cx, s: &Sexp) -> Selection {
    let k = |cx: &mut Cx, items: &[Sexp]| match items.get(1).and_then(|v| cx.expect_int(v, "a tournament size")) {
        Some(k) if k >= 1 => k as usize,
        _ => {
            cx.error("stratagem::experiment::range", s, "a tournament needs a size of at least 1", "bad size");
            2
        }
    };
    match (s.as_symbol(), s.head(), s.as_list()) {
        (Some("proportionate"), _, _) => Selection::Proportionate,
        (_, Some("tournament"), Some(items)) if items.len() == 2 => Selection::Tournament(k(cx, items)),
        (_, Some("fitnessless"), Some(items)) if items.len() == 2 => Selection::Fitnessless(k(cx, items)),
        _ => {
            cx.error(
                "stratagem::experiment::selection",
                s,
                "unknown selection",
                "expected (tournament K), proportionate or (fitnessless K)",
            );
            Selection::Tournament(2)
        }
    }
}
