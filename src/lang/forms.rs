//! The program forms that use a primitive set: individuals, policies and
//! weight vectors, and their lowering.
//!
//! ```text
//! (individual NAME (primset P) (tree NAME EXPR)...)
//! (policy NAME (primset P) (rule CONDITION VALUE)... (default VALUE))
//! (weights NAME (primset P) (TERMINAL WEIGHT)...)
//! ```

use super::check::{TreeEnv, check_tree};
use super::primset::Tree;
use super::primset::{Part, PrimId, PrimKind, PrimSet};
use super::syntax_helpers::Cx;
use super::types::{Base, TypeId};
use crate::diagnostic::{Diagnostic, FileId, did_you_mean};
use crate::syntax::{Sexp, Span};

/// Index of a primset in a program's `Module`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PrimSetId(pub usize);

#[derive(Debug, Clone)]
pub struct NamedTree {
    pub name: String,
    pub ty: TypeId,
    pub tree: Tree,
}

/// A GP individual: one or more named trees (`eval`; `eval` + `order`; ...).
#[derive(Debug, Clone)]
pub struct Individual {
    pub name: String,
    pub primset: PrimSetId,
    pub trees: Vec<NamedTree>,
    pub file: FileId,
    pub span: Span,
}

/// An ordered IF-THEN policy: the value of the first rule whose condition
/// holds, else the default.
#[derive(Debug, Clone)]
pub struct Policy {
    pub name: String,
    pub primset: PrimSetId,
    pub rules: Vec<Rule>,
    pub default: Tree,
    pub file: FileId,
    pub span: Span,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Rule {
    pub condition: Tree,
    pub value: Tree,
}

/// A linear combination of terminals: Σ weight × terminal, summed in the
/// order written (GA-FreeCell's heuristic form).
#[derive(Debug, Clone)]
pub struct Weights {
    pub name: String,
    pub primset: PrimSetId,
    pub terms: Vec<(PrimId, f64)>,
    pub file: FileId,
    pub span: Span,
}

/// The name and the `(primset P)` clause shared by all three forms.
pub(crate) fn lower_header<'s>(cx: &mut Cx, form: &'s Sexp, usage: &str) -> Option<(&'s str, &'s Sexp, &'s [Sexp])> {
    let items = form.as_list()?;
    if items.len() < 3 {
        cx.usage(form, usage);
        return None;
    }
    let name = cx.expect_symbol(&items[1], "a name")?;
    let ps_clause = &items[2];
    if ps_clause.head() != Some("primset") || ps_clause.as_list().map(<[Sexp]>::len) != Some(2) {
        cx.push(
            Diagnostic::error("stratagem::lower::primset-clause", "expected `(primset NAME)` after the name")
                .at(cx.file, ps_clause.span, format!("found {}", ps_clause.describe()))
                .with_help(format!("usage: {usage}")),
        );
        return None;
    }
    Some((name, &ps_clause.as_list()?[1], &items[3..]))
}

pub fn lower_individual(cx: &mut Cx, form: &Sexp, ps: &PrimSet, ps_id: PrimSetId) -> Option<Individual> {
    const USAGE: &str = "(individual NAME (primset P) (tree NAME EXPR)...)";
    let (name, _, clauses) = lower_header(cx, form, USAGE)?;
    let errors_before = cx.diags.len();
    let mut trees: Vec<NamedTree> = Vec::new();
    for clause in clauses {
        let items = match clause.as_list() {
            Some(items) if items.len() == 3 && clause.head() == Some("tree") => items,
            _ => {
                cx.usage(clause, "(tree NAME EXPR)");
                continue;
            }
        };
        let Some(tree_name) = cx.expect_symbol(&items[1], "a tree name") else {
            continue;
        };
        if trees.iter().any(|t| t.name == tree_name) {
            cx.error(
                "stratagem::lower::duplicate",
                &items[1],
                format!("tree `{tree_name}` is given twice"),
                "duplicate",
            );
            continue;
        }
        let ty = if ps.tree_slots.is_empty() {
            TypeId::F
        } else if let Some(slot) = ps.tree_slots.iter().find(|s| s.name == tree_name) {
            slot.ty
        } else {
            let names: Vec<&str> = ps.tree_slots.iter().map(|s| s.name.as_str()).collect();
            let mut d = Diagnostic::error(
                "stratagem::check::tree-slot",
                format!("primset `{}` has no tree `{tree_name}`", ps.name),
            )
            .at(cx.file, items[1].span, "unknown tree")
            .with_help(format!("its individuals have the trees: {}", names.join(", ")));
            if let Some(s) = did_you_mean(tree_name, names) {
                d = d.with_help(format!("did you mean `{s}`?"));
            }
            cx.push(d);
            continue;
        };
        let env = TreeEnv { ps, file: cx.file, params: &[], any_literal: false, part: Some(Part::Value) };
        if let Some(tree) = check_tree(&env, &items[2], ty, cx.diags) {
            trees.push(NamedTree { name: tree_name.to_owned(), ty, tree });
        }
    }
    for slot in ps.tree_slots.iter().filter(|s| !s.optional && !clauses.is_empty()) {
        if !clauses
            .iter()
            .any(|c| c.as_list().and_then(|l| l.get(1)).and_then(Sexp::as_symbol) == Some(slot.name.as_str()))
        {
            cx.push(
                Diagnostic::error(
                    "stratagem::check::tree-slot",
                    format!("individual `{name}` has no `{}` tree", slot.name),
                )
                .at(cx.file, form.span.first_byte(), "missing tree")
                .with_help(format!(
                    "primset `{}` requires `(tree {} EXPR)` of type {}",
                    ps.name,
                    slot.name,
                    ps.type_name(slot.ty)
                )),
            );
        }
    }
    if clauses.is_empty() {
        cx.push(
            Diagnostic::error("stratagem::lower::usage", format!("individual `{name}` has no tree"))
                .at(cx.file, form.span, "no `(tree ...)` clause")
                .with_help(format!("usage: {USAGE}")),
        );
    }
    let ok = cx.diags[errors_before..].iter().all(|d| !d.is_error());
    ok.then(|| Individual { name: name.to_owned(), primset: ps_id, trees, file: cx.file, span: form.span })
}

pub fn lower_policy(cx: &mut Cx, form: &Sexp, ps: &PrimSet, ps_id: PrimSetId) -> Option<Policy> {
    const USAGE: &str = "(policy NAME (primset P) (rule CONDITION VALUE)... (default VALUE))";
    let (name, _, clauses) = lower_header(cx, form, USAGE)?;
    let errors_before = cx.diags.len();
    let env = TreeEnv { ps, file: cx.file, params: &[], any_literal: false, part: Some(Part::Value) };
    let conditions = TreeEnv { part: Some(Part::Condition), ..env };
    let mut rules = Vec::new();
    let mut default = None;
    for (i, clause) in clauses.iter().enumerate() {
        match clause.head() {
            Some("rule") => {
                let Some(items) = cx.expect_len(clause, 3, "(rule CONDITION VALUE)") else {
                    continue;
                };
                let condition = check_tree(&conditions, &items[1], TypeId::B, cx.diags);
                let value = check_tree(&env, &items[2], TypeId::F, cx.diags);
                if let (Some(condition), Some(value)) = (condition, value) {
                    rules.push(Rule { condition, value });
                }
            }
            Some("default") => {
                let Some(items) = cx.expect_len(clause, 2, "(default VALUE)") else {
                    continue;
                };
                if i + 1 != clauses.len() {
                    cx.error(
                        "stratagem::lower::default",
                        clause,
                        "`(default ...)` must be the last clause of a policy",
                        "rules after it would never fire",
                    );
                }
                default = check_tree(&env, &items[1], TypeId::F, cx.diags);
            }
            _ => cx.push(
                Diagnostic::error(
                    "stratagem::lower::clause",
                    "a policy holds `(rule CONDITION VALUE)` clauses and one `(default VALUE)`",
                )
                .at(cx.file, clause.span, format!("found {}", clause.describe()))
                .with_help(format!("usage: {USAGE}")),
            ),
        }
    }
    if !clauses.iter().any(|c| c.head() == Some("default")) {
        cx.push(
            Diagnostic::error("stratagem::lower::default", format!("policy `{name}` has no `(default VALUE)`"))
                .at(cx.file, form.span.first_byte(), "no default")
                .with_help("the default gives the value when no rule's condition holds"),
        );
    }
    let ok = cx.diags[errors_before..].iter().all(|d| !d.is_error());
    match (ok, default) {
        (true, Some(default)) => {
            Some(Policy { name: name.to_owned(), primset: ps_id, rules, default, file: cx.file, span: form.span })
        }
        _ => None,
    }
}

/// The terminals a weight vector of `ps` weighs: its F terminals that may
/// appear in values (not `condition-only`), in the order the primset
/// declares them.
pub fn weighable_terminals(ps: &PrimSet) -> Vec<PrimId> {
    (0..ps.prims.len() as u32)
        .map(PrimId)
        .filter(|id| {
            let p = ps.prim(*id);
            matches!(p.kind, PrimKind::Feature(_)) && ps.base(p.ret) == Base::F && ps.allowed_in(*id, Some(Part::Value))
        })
        .collect()
}

pub fn lower_weights(cx: &mut Cx, form: &Sexp, ps: &PrimSet, ps_id: PrimSetId) -> Option<Weights> {
    const USAGE: &str = "(weights NAME (primset P) (TERMINAL WEIGHT)...)";
    let (name, _, clauses) = lower_header(cx, form, USAGE)?;
    let errors_before = cx.diags.len();
    let weighable = weighable_terminals(ps);
    let mut terms: Vec<(PrimId, f64)> = Vec::new();
    for clause in clauses {
        let Some(items) = cx.expect_len(clause, 2, "(TERMINAL WEIGHT)") else {
            continue;
        };
        let Some(term) = cx.expect_symbol(&items[0], "a terminal name") else {
            continue;
        };
        let Some(weight) = cx.expect_number(&items[1], "a weight") else {
            continue;
        };
        match ps.lookup(term).filter(|id| weighable.contains(id)) {
            Some(id) if terms.iter().any(|(t, _)| *t == id) => {
                cx.error("stratagem::lower::duplicate", &items[0], format!("`{term}` is weighted twice"), "duplicate");
            }
            Some(id) => terms.push((id, weight)),
            None if ps.lookup(term).is_some_and(|id| ps.only_in(id) == Some(Part::Condition)) => cx.push(
                Diagnostic::error(
                    "stratagem::check::part",
                    format!("`{term}` may appear only in a policy's conditions, so it cannot be weighted"),
                )
                .at(cx.file, items[0].span, "a condition-only terminal")
                .with_help(format!("primset `{}` marks `{term}` `(condition-only ...)`", ps.name)),
            ),
            None => {
                let mut d = Diagnostic::error(
                    "stratagem::check::weight-term",
                    format!("`{term}` is not an F terminal of primset `{}`", ps.name),
                )
                .at(cx.file, items[0].span, "cannot be weighted");
                if let Some(s) = did_you_mean(term, weighable.iter().map(|id| ps.prim(*id).name.as_str())) {
                    d = d.with_help(format!("did you mean `{s}`?"));
                }
                cx.push(d);
            }
        }
    }
    let missing: Vec<&str> = weighable
        .iter()
        .filter(|id| !terms.iter().any(|(t, _)| t == *id))
        .map(|id| ps.prim(*id).name.as_str())
        .collect();
    if !missing.is_empty() && cx.diags[errors_before..].iter().all(|d| !d.is_error()) {
        cx.push(
            Diagnostic::error(
                "stratagem::check::weight-missing",
                format!("weights `{name}` give no weight to {}", missing.join(", ")),
            )
            .at(cx.file, form.span.first_byte(), "incomplete weight vector")
            .with_help(
                "a weight vector has one weight per F terminal of its primset; write `(NAME 0.0)` to ignore one",
            ),
        );
    }
    let ok = cx.diags[errors_before..].iter().all(|d| !d.is_error());
    ok.then(|| Weights { name: name.to_owned(), primset: ps_id, terms, file: cx.file, span: form.span })
}
