//! What evolves: `(individual tree)` (the default), `(individual policy ...)`,
//! `(individual weights ...)` or `(individual network ...)`, with the
//! settings of their operators, and the experiment settings that make sense
//! only for some of them.
//!
//! ```text
//! (individual tree)                                   ; the trees of (trees ...)
//! (individual policy (max-rules 8) (reorder 0.2))     ; ordered IF-THEN rules
//! (individual weights (terms T...) (range -1.0 1.0) (gene-rate 0.1) (step 0.1 | replace))
//! (individual network (inputs T...) (add-node 0.03) ...)  ; NEAT (network.rs)
//! ```

use super::clauses::{Clauses, probability, usage};
use super::lower_trees;
use super::network::{NETWORK_OPTIONS, lower_neat};
use crate::diagnostic::{Diagnostic, did_you_mean, suggest_or_list};
use crate::evolve::ga::GaParams;
use crate::evolve::genome::{PolicyParams, Representation};
use crate::lang::forms::weighable_terminals;
use crate::lang::primset::PrimSet;
use crate::lang::syntax_helpers::Cx;
use crate::lang::{PrimId, TypeId};
use crate::syntax::Sexp;

/// The kinds of individual and the options each takes.
const KINDS: [(&str, &[&str]); 4] = [
    ("tree", &[]),
    ("policy", &["max-rules", "reorder"]),
    ("weights", &["terms", "range", "gene-rate", "step"]),
    ("network", &NETWORK_OPTIONS),
];

/// Settings of the engine's own breeding, which NEAT replaces by speciation
/// and its operators.
const BREEDING_SETTINGS: [&str; 8] =
    ["selection", "elitism", "crossover", "mutation", "reproduction", "erc-mutation", "islands", "match-games"];

/// Experiment settings that shape trees, which weight vectors do not have.
const TREE_SETTINGS: [&str; 6] = ["init", "max-depth", "mutation-depth", "max-size", "local-mutation", "introns"];

const USAGE: &str = "(individual tree), (individual policy (max-rules N) (reorder P)), \
                     (individual weights (terms T...) (range LO HI) (gene-rate P) (step S|replace)) or \
                     (individual network (inputs T...) ...)";

/// The default weight range: signed, so a term can count for or against.
const DEFAULT_GA: GaParams = GaParams { lo: -1.0, hi: 1.0, gene_rate: 0.1, step: 0.1, replace: false };

/// `(individual ...)` of an experiment over primset `ps`, and the trees of a
/// tree experiment (`(trees ...)`); reports settings the representation has
/// no use for. `None` after an error that leaves no representation.
pub(super) fn lower_representation(cx: &mut Cx, ps: &PrimSet, clauses: &Clauses) -> Option<Representation> {
    let Some(items) = clauses.get("individual") else {
        return Some(Representation::Trees(lower_trees(cx, ps, clauses)));
    };
    let Some((kind, options)) = items.split_first() else {
        clauses.malformed(cx, "individual", USAGE);
        return None;
    };
    let Some(name) = kind.as_symbol() else {
        cx.error("stratagem::experiment::individual", kind, "expected tree, policy, weights or network", "not a kind");
        return None;
    };
    let Some(&(name, allowed)) = KINDS.iter().find(|(k, _)| *k == name) else {
        let kinds = KINDS.map(|(k, _)| k);
        let help = suggest_or_list(name, kinds, "kinds");
        cx.push(
            Diagnostic::error("stratagem::experiment::individual", format!("unknown kind of individual `{name}`"))
                .at(cx.file, kind.span, "not a kind")
                .with_help(help),
        );
        return None;
    };
    let options = check_options(cx, name, allowed, options);
    check_settings_fit(cx, name, clauses);
    let get = |key: &str| options.iter().copied().find(|o| o.head() == Some(key));
    match name {
        "policy" => Some(Representation::Policy(lower_policy(cx, get("max-rules"), get("reorder")))),
        "weights" => {
            let terms = lower_terms(cx, ps, get("terms"), clauses)?;
            let ga = lower_ga(cx, get("range"), get("gene-rate"), get("step"));
            Some(Representation::Weights { terms, ga })
        }
        "network" => {
            let inputs = lower_terms(cx, ps, get("inputs"), clauses)?;
            Some(Representation::Network(lower_neat(cx, inputs, &get)))
        }
        _ => Some(Representation::Trees(lower_trees(cx, ps, clauses))),
    }
}

/// The options `(KEY VALUE...)` of an individual of kind `kind`, after
/// reporting any that is malformed, unknown for the kind or given twice.
fn check_options<'a>(cx: &mut Cx, kind: &str, allowed: &[&str], options: &'a [Sexp]) -> Vec<&'a Sexp> {
    let mut kept: Vec<&Sexp> = Vec::new();
    for opt in options {
        let Some(key) = opt.head() else {
            cx.error("stratagem::experiment::individual", opt, "expected `(OPTION VALUE...)`", "not an option");
            continue;
        };
        if !allowed.contains(&key) {
            let elsewhere = KINDS.iter().find(|(k, opts)| *k != kind && opts.contains(&key)).map(|(k, _)| *k);
            let help = match (elsewhere, did_you_mean(key, allowed.iter().copied())) {
                (_, Some(s)) => format!("did you mean `{s}`?"),
                (Some(other), None) => format!("`{key}` is an option of (individual {other} ...)"),
                (None, None) if allowed.is_empty() => format!("(individual {kind}) takes no options"),
                (None, None) => format!("options of (individual {kind} ...): {}", allowed.join(", ")),
            };
            cx.push(
                Diagnostic::error(
                    "stratagem::experiment::individual",
                    format!("unknown option `{key}` of (individual {kind})"),
                )
                .at(cx.file, opt.span, "not an option here")
                .with_help(help),
            );
        } else if kept.iter().any(|o| o.head() == Some(key)) {
            cx.error("stratagem::experiment::duplicate", opt, format!("`{key}` is given twice"), "second setting");
        } else {
            kept.push(opt);
        }
    }
    kept
}

/// Reports experiment settings that mean nothing for individuals of `kind`.
fn check_settings_fit(cx: &mut Cx, kind: &str, clauses: &Clauses) {
    let mut unfit = |key: &str, why: String| {
        if clauses.get(key).is_some() {
            cx.push(
                Diagnostic::error(
                    "stratagem::experiment::individual",
                    format!("`({key} ...)` has no meaning for (individual {kind})"),
                )
                .at(cx.file, clauses.span(key), "not for this representation")
                .with_help(why),
            );
        }
    };
    if kind != "tree" {
        unfit(
            "trees",
            "(trees ...) names the trees of tree individuals; remove it, or evolve (individual tree)".into(),
        );
    }
    if kind == "weights" {
        for key in TREE_SETTINGS {
            unfit(key, "weight vectors have no trees; the GA's settings go in (individual weights ...)".into());
        }
    }
    if kind == "network" {
        for key in TREE_SETTINGS {
            unfit(key, "networks have no trees; NEAT's settings go in (individual network ...)".into());
        }
        for key in BREEDING_SETTINGS {
            unfit(
                key,
                "networks breed by NEAT: species, shared fitness and their champions replace selection, \
                 elitism and islands; NEAT's rates are options of (individual network ...)"
                    .into(),
            );
        }
    }
    if !matches!(kind, "tree" | "network")
        && matches!(clauses.get("crossover"), Some([_, k]) if k.as_symbol() == Some("one-way"))
    {
        let why = if kind == "policy" {
            "rule crossover exchanges the rules after a cut in each parent; write (crossover P)"
        } else {
            "single-point crossover swaps the parents' tails; write (crossover P)"
        };
        cx.push(
            Diagnostic::error(
                "stratagem::experiment::individual",
                format!("one-way crossover is for trees, not (individual {kind})"),
            )
            .at(cx.file, clauses.span("crossover"), "one-way")
            .with_help(why),
        );
    }
}

/// `(max-rules N)` and `(reorder P)` of a policy.
fn lower_policy(cx: &mut Cx, max_rules: Option<&Sexp>, reorder: Option<&Sexp>) -> PolicyParams {
    let mut p = PolicyParams::default();
    if let Some(opt) = max_rules {
        match opt.as_list().unwrap_or_default() {
            [_, n] => match cx.expect_int(n, "a number of rules") {
                Some(k) if (1..=1000).contains(&k) => p.max_rules = k as usize,
                Some(k) => cx.error(
                    "stratagem::experiment::range",
                    n,
                    format!("`max-rules` must be between 1 and 1000, not {k}"),
                    "out of range",
                ),
                None => {}
            },
            _ => usage(cx, opt, "(max-rules N)"),
        }
    }
    if let Some(opt) = reorder {
        match opt.as_list().unwrap_or_default() {
            [_, v] => p.reorder = probability(cx, v, "reorder"),
            _ => usage(cx, opt, "(reorder P)"),
        }
    }
    p
}

/// `(terms T...)` of weight vectors or `(inputs T...)` of networks: the F
/// terminals that evolve weights, by default all of the primset's. `None`
/// when there are none to weigh.
fn lower_terms(cx: &mut Cx, ps: &PrimSet, terms: Option<&Sexp>, clauses: &Clauses) -> Option<Vec<PrimId>> {
    let weighable = weighable_terminals(ps);
    let Some(opt) = terms else {
        if weighable.is_empty() {
            cx.push(
                Diagnostic::error(
                    "stratagem::experiment::individual",
                    format!("primset `{}` has no F terminal to weigh", ps.name),
                )
                .at(cx.file, clauses.span("individual"), "nothing to weigh")
                .with_help("weight vectors weigh, and networks take as inputs, the primset's terminals of type F"),
            );
            return None;
        }
        return Some(weighable);
    };
    let items = opt.as_list().unwrap_or_default();
    if items.len() < 2 {
        usage(cx, opt, &format!("({} TERMINAL...)", opt.head().unwrap_or("terms")));
        return None;
    }
    let mut out: Vec<PrimId> = Vec::new();
    for t in &items[1..] {
        let Some(name) = cx.expect_symbol(t, "a terminal name") else { continue };
        match ps.lookup(name).filter(|id| weighable.contains(id)) {
            Some(id) if out.contains(&id) => {
                cx.error("stratagem::experiment::duplicate", t, format!("`{name}` is listed twice"), "duplicate");
            }
            Some(id) => out.push(id),
            None => {
                let names = weighable.iter().map(|id| ps.prim(*id).name.as_str());
                let help = suggest_or_list(name, names, "its F terminals");
                cx.push(
                    Diagnostic::error(
                        "stratagem::experiment::individual",
                        format!("`{name}` is not an F terminal of primset `{}`", ps.name),
                    )
                    .at(cx.file, t.span, "cannot be weighted")
                    .with_help(help),
                );
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// `(range LO HI)`, `(gene-rate P)` and `(step S)` of the weight GA;
/// `(step replace)` replaces a mutated gene by a fresh draw from the range
/// (GA-FreeCell's mutation).
fn lower_ga(cx: &mut Cx, range: Option<&Sexp>, gene_rate: Option<&Sexp>, step: Option<&Sexp>) -> GaParams {
    let mut ga = DEFAULT_GA;
    if let Some(opt) = range {
        match opt.as_list().unwrap_or_default() {
            [_, lo, hi] => match (cx.expect_number(lo, "a weight"), cx.expect_number(hi, "a weight")) {
                (Some(a), Some(b)) if a.is_finite() && b.is_finite() && a < b => (ga.lo, ga.hi) = (a, b),
                (Some(_), Some(_)) => {
                    cx.error("stratagem::experiment::range", opt, "a weight range needs LO < HI", "empty range")
                }
                _ => {}
            },
            _ => usage(cx, opt, "(range LO HI)"),
        }
    }
    if let Some(opt) = gene_rate {
        match opt.as_list().unwrap_or_default() {
            [_, v] => ga.gene_rate = probability(cx, v, "gene-rate"),
            _ => usage(cx, opt, "(gene-rate P)"),
        }
    }
    if let Some(opt) = step {
        match opt.as_list().unwrap_or_default() {
            [_, v] if v.as_symbol() == Some("replace") => ga.replace = true,
            [_, v] => match cx.expect_number(v, "a step") {
                Some(s) if s > 0.0 && s <= 10.0 => ga.step = s,
                Some(s) => cx.error(
                    "stratagem::experiment::range",
                    v,
                    format!("`step` (a fraction of the range) must be in (0, 10], not {s}"),
                    "out of range",
                ),
                None => {}
            },
            _ => usage(cx, opt, "(step S) or (step replace)"),
        }
    }
    ga
}

/// The trees generation and variation build for `rep`, with names for
/// diagnostics about limits: the listed trees, a policy's conditions (B) and
/// values (F), nothing for weight vectors.
pub(super) fn shaped_trees(rep: &Representation) -> Vec<(String, TypeId)> {
    match rep {
        Representation::Trees(slots) => slots.clone(),
        Representation::Policy(_) => vec![("condition".into(), TypeId::B), ("value".into(), TypeId::F)],
        Representation::Weights { .. } | Representation::Network(_) => Vec::new(),
    }
}
