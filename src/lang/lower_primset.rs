//! Lowering of `(primset ...)` forms into [`PrimSet`]s.
//!
//! ```text
//! (primset NAME
//!   (extends OTHER)                      ; start from another primset
//!   (domain GAME)                        ; who supplies terminals and natives
//!   (type NAME BASE)                     ; BASE is F, I or B
//!   (terminal NAME TYPE)                 ; a feature slot filled by the domain
//!   (function NAME (TYPE...) TYPE [(builtin OP)])   ; native unless builtin
//!   (erc NAME TYPE (uniform LO HI) | (int LO HI) | (choice V...))
//!   (literals TYPE)                      ; any literal of TYPE may appear in trees
//!   (define NAME TYPE BODY)              ; a derived terminal
//!   (define NAME ((P TYPE)...) TYPE BODY); a derived function
//!   (tree NAME TYPE [optional])          ; a tree individuals have (or may have)
//!   (condition-only NAME...)             ; only in a policy's conditions
//!   (value-only NAME...))                ; only in values (never in a condition)
//! ```

use super::builtin::Builtin;
use super::check::{TreeEnv, check_tree, min_depths, used_types};
use super::primset::Node;
use super::primset::{Derived, Erc, ErcGen, ErcMutation, Part, PrimId, PrimKind, PrimSet, Primitive, TreeSlot};
use super::syntax_helpers::Cx;
use super::types::{Base, TypeDef, TypeId, Value};
use crate::diagnostic::{Diagnostic, did_you_mean};
use crate::syntax::{Atom, Sexp, SexpKind};

const USAGE: &str = "(primset NAME (type ...) (terminal ...) (function ...) (erc ...) (define ...) ...)";

/// Lowers a primset form. `known` holds the primsets defined before it, for `extends`.
pub fn lower_primset(cx: &mut Cx, form: &Sexp, known: &[PrimSet]) -> Option<PrimSet> {
    let items = form.as_list()?;
    let Some(name_sexp) = items.get(1) else {
        cx.usage(form, USAGE);
        return None;
    };
    let name = cx.expect_symbol(name_sexp, "the primset's name")?;
    let errors_before = cx.diags.len();
    let mut ps = PrimSet::new(name, cx.file, form.span);
    let clauses = &items[2..];

    // Inheritance, domain and types first, so clauses may use types declared later.
    for clause in clauses {
        match clause.head() {
            Some("extends") => extend(cx, &mut ps, clause, known),
            Some("domain") => {
                if let Some(d) = cx.expect_len(clause, 2, "(domain NAME)").and_then(|it| it[1].as_symbol()) {
                    ps.domain = Some(d.to_owned());
                }
            }
            Some("type") => declare_type(cx, &mut ps, clause),
            _ => {}
        }
    }
    for clause in clauses {
        match clause.head() {
            Some("extends" | "domain" | "type" | "condition-only" | "value-only") => {}
            Some("terminal") => declare_terminal(cx, &mut ps, clause),
            Some("function") => declare_function(cx, &mut ps, clause),
            Some("erc") => declare_erc(cx, &mut ps, clause),
            Some("literals") => {
                if let Some(items) = cx.expect_len(clause, 2, "(literals TYPE)")
                    && let Some(ty) = resolve_type(cx, &ps, &items[1])
                {
                    ps.literal_types.push(ty);
                }
            }
            Some("define") => declare_define(cx, &mut ps, clause),
            Some("tree") => {
                let items = match clause.as_list() {
                    Some(items)
                        if items.len() == 3 || (items.len() == 4 && items[3].as_symbol() == Some("optional")) =>
                    {
                        items
                    }
                    _ => {
                        cx.usage(clause, "(tree NAME TYPE [optional])");
                        continue;
                    }
                };
                if let Some(slot) = cx.expect_symbol(&items[1], "a tree name")
                    && let Some(ty) = resolve_type(cx, &ps, &items[2])
                {
                    ps.tree_slots.push(TreeSlot { name: slot.to_owned(), ty, optional: items.len() == 4 });
                }
            }
            _ => {
                let found = clause.head().map_or_else(|| clause.describe(), |h| format!("`({h} ...)`"));
                let clauses = [
                    "extends",
                    "domain",
                    "type",
                    "terminal",
                    "function",
                    "erc",
                    "literals",
                    "define",
                    "tree",
                    "condition-only",
                    "value-only",
                ];
                let mut d = Diagnostic::error("stratagem::lower::clause", format!("unknown primset clause {found}"))
                    .at(cx.file, clause.span, "not a primset clause")
                    .with_help(format!("a primset holds {}", clauses.map(|c| format!("`({c} ...)`")).join(", ")));
                if let Some(h) = clause.head()
                    && let Some(s) = did_you_mean(h, clauses)
                {
                    d = d.with_help(format!("did you mean `({s} ...)`?"));
                }
                cx.push(d);
            }
        }
    }
    // Marks last, so they may name primitives declared anywhere in the form.
    for clause in clauses {
        match clause.head() {
            Some("condition-only") => mark_part(cx, &mut ps, clause, Part::Condition),
            Some("value-only") => mark_part(cx, &mut ps, clause, Part::Value),
            _ => {}
        }
    }
    propagate_parts(cx, &mut ps);
    check_reachability(cx, &ps, form);
    (cx.diags[errors_before..].iter().all(|d| !d.is_error())).then_some(ps)
}

fn extend(cx: &mut Cx, ps: &mut PrimSet, clause: &Sexp, known: &[PrimSet]) {
    let Some(items) = cx.expect_len(clause, 2, "(extends PRIMSET)") else {
        return;
    };
    let Some(parent_name) = cx.expect_symbol(&items[1], "a primset name") else {
        return;
    };
    match known.iter().rev().find(|p| p.name == parent_name) {
        Some(parent) => {
            let name = std::mem::take(&mut ps.name);
            let (file, span) = (ps.file, ps.span);
            *ps = parent.clone();
            ps.name = name;
            ps.file = file;
            ps.span = span;
        }
        None => {
            let mut d = Diagnostic::error(
                "stratagem::lower::unknown-primset",
                format!("unknown primset `{parent_name}`"),
            )
            .at(cx.file, items[1].span, "not defined before this point");
            d = match did_you_mean(parent_name, known.iter().map(|p| p.name.as_str())) {
                Some(s) => d.with_help(format!("did you mean `{s}`?")),
                None => {
                    d.with_help(format!("define it earlier in the file or import it, e.g. `(import {parent_name})`"))
                }
            };
            cx.push(d);
        }
    }
}

fn declare_type(cx: &mut Cx, ps: &mut PrimSet, clause: &Sexp) {
    let Some(items) = cx.expect_len(clause, 3, "(type NAME BASE) where BASE is F, I or B") else {
        return;
    };
    let Some(name) = cx.expect_symbol(&items[1], "a type name") else {
        return;
    };
    let base = match items[2].as_symbol() {
        Some("F") => Base::F,
        Some("I") => Base::I,
        Some("B") => Base::B,
        _ => {
            cx.push(Diagnostic::error("stratagem::lower::base", "a type's base must be F, I or B").at(
                cx.file,
                items[2].span,
                format!("found {}", items[2].describe()),
            ));
            return;
        }
    };
    if ps.type_id(name).is_some() {
        cx.error(
            "stratagem::lower::duplicate",
            &items[1],
            format!("type `{name}` is declared twice"),
            "already declared",
        );
        return;
    }
    ps.types.push(TypeDef { name: name.to_owned(), base });
}

fn resolve_type(cx: &mut Cx, ps: &PrimSet, sexp: &Sexp) -> Option<TypeId> {
    let name = cx.expect_symbol(sexp, "a type name")?;
    match ps.type_id(name) {
        Some(t) => Some(t),
        None => {
            let mut d = Diagnostic::error("stratagem::lower::unknown-type", format!("unknown type `{name}`")).at(
                cx.file,
                sexp.span,
                "not declared",
            );
            d = match did_you_mean(name, ps.types.iter().map(|t| t.name.as_str())) {
                Some(s) => d.with_help(format!("did you mean `{s}`?")),
                None => d.with_help(format!("declare it with `(type {name} F)` (or I, B)")),
            };
            cx.push(d);
            None
        }
    }
}

/// Checks that a primitive name is new; reports a duplicate otherwise.
fn fresh_name<'s>(cx: &mut Cx, ps: &PrimSet, sexp: &'s Sexp) -> Option<&'s str> {
    let name = cx.expect_symbol(sexp, "a primitive name")?;
    if name == "true" || name == "false" || name.starts_with('?') {
        cx.error("stratagem::lower::reserved", sexp, format!("`{name}` cannot name a primitive"), "reserved");
        return None;
    }
    if ps.lookup(name).is_some() {
        cx.error(
            "stratagem::lower::duplicate",
            sexp,
            format!("primitive `{name}` is declared twice"),
            "already declared",
        );
        return None;
    }
    Some(name)
}

fn declare_terminal(cx: &mut Cx, ps: &mut PrimSet, clause: &Sexp) {
    let Some(items) = cx.expect_len(clause, 3, "(terminal NAME TYPE)") else {
        return;
    };
    let (Some(name), Some(ty)) = (fresh_name(cx, ps, &items[1]), resolve_type(cx, ps, &items[2])) else {
        return;
    };
    let slot = ps.features.len() as u32;
    ps.features.push(name.to_owned());
    ps.add_prim(Primitive {
        name: name.to_owned(),
        args: vec![],
        ret: ty,
        kind: PrimKind::Feature(slot),
        file: cx.file,
        span: clause.span,
    });
}

fn declare_function(cx: &mut Cx, ps: &mut PrimSet, clause: &Sexp) {
    const USAGE: &str = "(function NAME (ARG-TYPE...) RESULT-TYPE [(builtin OP)])";
    let items = match clause.as_list() {
        Some(items) if items.len() == 4 || items.len() == 5 => items,
        _ => return cx.usage(clause, USAGE),
    };
    let name = fresh_name(cx, ps, &items[1]);
    let Some(arg_sexps) = cx.expect_list(&items[2], "a list of argument types, e.g. `(F F)`") else {
        return;
    };
    let args: Vec<Option<TypeId>> = arg_sexps.iter().map(|a| resolve_type(cx, ps, a)).collect();
    let ret = resolve_type(cx, ps, &items[3]);
    let (Some(name), Some(args), Some(ret)) = (name, args.into_iter().collect::<Option<Vec<_>>>(), ret) else {
        return;
    };
    let kind = match items.get(4) {
        None => {
            let n = ps.natives.len() as u32;
            ps.natives.push(name.to_owned());
            PrimKind::Native(n)
        }
        Some(imp) => {
            let Some(op_sexp) = cx
                .expect_len(imp, 2, "(builtin OP)")
                .filter(|it| it[0].as_symbol() == Some("builtin"))
                .map(|it| &it[1])
            else {
                return cx.usage(imp, "(builtin OP)");
            };
            let op_name = op_sexp.as_symbol().unwrap_or("");
            let Some(op) = Builtin::from_name(op_name) else {
                let mut d = Diagnostic::error("stratagem::lower::builtin", format!("unknown builtin `{}`", op_sexp))
                    .at(cx.file, op_sexp.span, "not a builtin operation");
                d = match did_you_mean(op_name, Builtin::ALL.iter().map(|b| b.name())) {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None => d.with_help(format!("builtins: {}", Builtin::ALL.map(|b| b.name()).join(" "))),
                };
                return cx.push(d);
            };
            let bases: Vec<Base> = args.iter().map(|t| ps.base(*t)).collect();
            if !op.accepts(&bases, ps.base(ret)) {
                return cx.push(
                    Diagnostic::error(
                        "stratagem::lower::builtin-signature",
                        format!("builtin `{}` cannot have this signature", op.name()),
                    )
                    .at(cx.file, clause.span, "signature does not fit the builtin")
                    .with_help(format!("`{}` has signature {}", op.name(), op.shape())),
                );
            }
            PrimKind::Builtin(op)
        }
    };
    ps.add_prim(Primitive { name: name.to_owned(), args, ret, kind, file: cx.file, span: clause.span });
}

fn declare_erc(cx: &mut Cx, ps: &mut PrimSet, clause: &Sexp) {
    const USAGE: &str = "(erc NAME TYPE (uniform LO HI) | (int LO HI) | (choice VALUE...) [(mutate ...)])";
    let Some(items) = clause.as_list().filter(|items| items.len() == 4 || items.len() == 5) else {
        return cx.usage(clause, USAGE);
    };
    let Some(name) = cx.expect_symbol(&items[1], "the ERC's name") else {
        return;
    };
    if ps.ercs.iter().any(|e| e.name == name) {
        return cx.error(
            "stratagem::lower::duplicate",
            &items[1],
            format!("ERC `{name}` is declared twice"),
            "already declared",
        );
    }
    let Some(ty) = resolve_type(cx, ps, &items[2]) else {
        return;
    };
    let base = ps.base(ty);
    let spec = &items[3];
    let generator = match (spec.head(), spec.as_list().map(<[Sexp]>::len), base) {
        (Some("uniform"), Some(3), Base::F) => {
            let list = spec.as_list().unwrap_or_default();
            let (Some(lo), Some(hi)) = (cx.expect_number(&list[1], "a number"), cx.expect_number(&list[2], "a number"))
            else {
                return;
            };
            if lo > hi {
                return cx.error("stratagem::lower::erc-range", spec, "empty range: LO is above HI", "LO > HI");
            }
            ErcGen::Uniform(lo, hi)
        }
        (Some("int"), Some(3), Base::I) => {
            let list = spec.as_list().unwrap_or_default();
            let (Some(lo), Some(hi)) = (cx.expect_int(&list[1], "an integer"), cx.expect_int(&list[2], "an integer"))
            else {
                return;
            };
            if lo > hi {
                return cx.error("stratagem::lower::erc-range", spec, "empty range: LO is above HI", "LO > HI");
            }
            ErcGen::Int(lo, hi)
        }
        (Some("choice"), Some(n), _) if n >= 2 => {
            let mut values = Vec::new();
            for v in &spec.as_list().unwrap_or_default()[1..] {
                match literal_value(v) {
                    Some(val) if val.base() == base => values.push(val),
                    _ => {
                        return cx.error(
                            "stratagem::lower::erc-choice",
                            v,
                            format!("a choice of type {} must list {} literals", ps.type_name(ty), base.name()),
                            format!("found {}", v.describe()),
                        );
                    }
                }
            }
            ErcGen::Choice(values)
        }
        (Some("uniform" | "int"), Some(3), _) => {
            let want = if spec.head() == Some("uniform") { "F" } else { "I" };
            return cx.push(
                Diagnostic::error(
                    "stratagem::lower::erc-type",
                    format!(
                        "`{}` generates {want} values, but `{}` is over {}",
                        spec.head().unwrap_or(""),
                        ps.type_name(ty),
                        base.name()
                    ),
                )
                .at(cx.file, spec.span, "generator does not fit the type")
                .with_help("use (uniform LO HI) for F types, (int LO HI) for I types, (choice ...) for any"),
            );
        }
        _ => return cx.usage(clause, USAGE),
    };
    let mutation = match items.get(4) {
        Some(spec) => match erc_mutation(cx, spec, &generator) {
            Some(m) => Some(m),
            None => return,
        },
        None => None,
    };
    ps.ercs.push(Erc { name: name.to_owned(), ty, generator, mutation, span: clause.span });
}

/// An ERC's `(mutate ...)` clause, checked against its generator.
fn erc_mutation(cx: &mut Cx, spec: &Sexp, generator: &ErcGen) -> Option<ErcMutation> {
    const USAGE: &str = "(mutate (gauss SD)) for uniform, (mutate (step N)) for int or choice, \
                         (mutate (step N) (digits RADIX...)) for int";
    let items = spec.as_list().filter(|items| spec.head() == Some("mutate") && (2..=3).contains(&items.len()));
    let Some(items) = items else {
        cx.usage(spec, USAGE);
        return None;
    };
    let misfit = |cx: &mut Cx, what: &str| {
        cx.push(
            Diagnostic::error(
                "stratagem::lower::erc-mutate",
                format!("{what} does not fit the generator {}", generator.describe()),
            )
            .at(cx.file, spec.span, "mutation does not fit the generator")
            .with_help(USAGE),
        );
        None
    };
    let op = &items[1];
    match (op.head(), list_of_two_or_more(op), generator, items.get(2)) {
        (Some("gauss"), Some(l), ErcGen::Uniform(..), None) if l.len() == 2 => {
            let sd = cx.expect_number(&l[1], "a standard deviation")?;
            if !(sd.is_finite() && sd >= 0.0) {
                cx.error("stratagem::lower::erc-mutate", &l[1], "the deviation must be 0 or more", "not a deviation");
                return None;
            }
            Some(ErcMutation::Gauss(sd))
        }
        (Some("step"), Some(l), ErcGen::Int(..) | ErcGen::Choice(_), None) if l.len() == 2 => {
            Some(ErcMutation::Step(step_size(cx, &l[1])?))
        }
        (Some("step"), Some(l), ErcGen::Int(lo, hi), Some(digits)) if l.len() == 2 => {
            let n = step_size(cx, &l[1])?;
            let Some(d) = list_of_two_or_more(digits).filter(|_| digits.head() == Some("digits")) else {
                cx.usage(spec, USAGE);
                return None;
            };
            let mut radices = Vec::new();
            for r in &d[1..] {
                let r_value = cx.expect_int(r, "a radix")?;
                if r_value < 1 {
                    cx.error("stratagem::lower::erc-mutate", r, "a radix must be 1 or more", "not a radix");
                    return None;
                }
                radices.push(r_value);
            }
            let product = radices.iter().try_fold(1i64, |p, &r| p.checked_mul(r));
            if product != hi.checked_sub(*lo).and_then(|w| w.checked_add(1)) {
                cx.push(
                    Diagnostic::error(
                        "stratagem::lower::erc-mutate",
                        format!("the digits' radices do not cover the range {lo}..{hi}"),
                    )
                    .at(cx.file, digits.span, "radices")
                    .with_help(format!(
                        "their product must be {}, the number of values of the range",
                        i128::from(*hi) - i128::from(*lo) + 1
                    )),
                );
                return None;
            }
            Some(ErcMutation::Digits(n, radices))
        }
        (Some("gauss"), ..) => misfit(cx, "`gauss`"),
        (Some("step"), _, _, Some(_)) if !matches!(generator, ErcGen::Int(..)) => misfit(cx, "`digits`"),
        (Some("step"), ..) if matches!(generator, ErcGen::Uniform(..)) => misfit(cx, "`step`"),
        _ => {
            cx.usage(spec, USAGE);
            None
        }
    }
}

fn list_of_two_or_more(sexp: &Sexp) -> Option<&[Sexp]> {
    sexp.as_list().filter(|l| l.len() >= 2)
}

/// The N of `(step N)`: a whole number of 1 or more.
fn step_size(cx: &mut Cx, sexp: &Sexp) -> Option<i64> {
    let n = cx.expect_int(sexp, "a step (a whole number)")?;
    if n < 1 {
        cx.error("stratagem::lower::erc-mutate", sexp, "a step must be 1 or more", "not a step");
        return None;
    }
    Some(n)
}

/// The value of a literal atom: a number or `true`/`false`.
pub fn literal_value(sexp: &Sexp) -> Option<Value> {
    match &sexp.kind {
        SexpKind::Atom(Atom::Int(i)) => Some(Value::I(*i)),
        SexpKind::Atom(Atom::Float(x)) => Some(Value::F(*x)),
        SexpKind::Atom(Atom::Symbol(s)) if s == "true" => Some(Value::B(true)),
        SexpKind::Atom(Atom::Symbol(s)) if s == "false" => Some(Value::B(false)),
        _ => None,
    }
}

fn declare_define(cx: &mut Cx, ps: &mut PrimSet, clause: &Sexp) {
    const USAGE: &str = "(define NAME TYPE BODY) or (define NAME ((PARAM TYPE)...) TYPE BODY)";
    let items = match clause.as_list() {
        Some(items) if items.len() == 4 || items.len() == 5 => items,
        _ => return cx.usage(clause, USAGE),
    };
    let Some(name) = fresh_name(cx, ps, &items[1]) else {
        return;
    };
    let mut params: Vec<(String, TypeId)> = Vec::new();
    let (ret_sexp, body) = if items.len() == 5 {
        let Some(param_list) = cx.expect_list(&items[2], "a parameter list, e.g. `((a F) (b F))`") else {
            return;
        };
        for p in param_list {
            let Some(pair) = cx.expect_len(p, 2, "(PARAM TYPE)") else {
                return;
            };
            let (Some(pname), Some(pty)) =
                (cx.expect_symbol(&pair[0], "a parameter name"), resolve_type(cx, ps, &pair[1]))
            else {
                return;
            };
            if params.iter().any(|(n, _)| n == pname) {
                return cx.error(
                    "stratagem::lower::duplicate",
                    &pair[0],
                    format!("parameter `{pname}` is declared twice"),
                    "duplicate",
                );
            }
            params.push((pname.to_owned(), pty));
        }
        (&items[3], &items[4])
    } else {
        (&items[2], &items[3])
    };
    let Some(ret) = resolve_type(cx, ps, ret_sexp) else {
        return;
    };
    let env = TreeEnv { ps, file: cx.file, params: &params, any_literal: true, part: None };
    let Some(body) = check_tree(&env, body, ret, cx.diags) else {
        return;
    };
    let derived = Derived { params: params.iter().map(|(n, _)| n.clone()).collect(), body };
    let prim = Primitive {
        name: name.to_owned(),
        args: params.iter().map(|(_, t)| *t).collect(),
        ret,
        kind: PrimKind::Derived(derived),
        file: cx.file,
        span: clause.span,
    };
    ps.add_prim(prim);
}

/// `(condition-only NAME...)` or `(value-only NAME...)`: keeps primitives to
/// one part of a policy (seeds/000 table 1-6: the lower part of the terminal
/// set is for conditions only).
fn mark_part(cx: &mut Cx, ps: &mut PrimSet, clause: &Sexp, part: Part) {
    let items = clause.as_list().unwrap_or_default();
    let usage = format!("({}-only NAME...)", part.name());
    if items.len() < 2 {
        return cx.usage(clause, &usage);
    }
    for item in &items[1..] {
        let Some(name) = cx.expect_symbol(item, "a primitive name") else {
            continue;
        };
        let Some(id) = ps.lookup(name) else {
            let mut d = Diagnostic::error("stratagem::lower::unknown", format!("unknown primitive `{name}`")).at(
                cx.file,
                item.span,
                format!("not in primset `{}`", ps.name),
            );
            if let Some(s) = did_you_mean(name, ps.prim_names()) {
                d = d.with_help(format!("did you mean `{s}`?"));
            }
            cx.push(d);
            continue;
        };
        match ps.only_in(id) {
            Some(p) if p == part => {
                cx.error("stratagem::lower::duplicate", item, format!("`{name}` is marked twice"), "duplicate")
            }
            Some(p) => cx.error(
                "stratagem::lower::part",
                item,
                format!("`{name}` is already `{}-only`", p.name()),
                "a primitive is kept to one part at most",
            ),
            None => ps.only.push((id, part)),
        }
    }
}

/// A definition whose body uses a primitive kept to one part is kept to that
/// part too; one that uses both parts' primitives fits nowhere.
fn propagate_parts(cx: &mut Cx, ps: &mut PrimSet) {
    for i in 0..ps.prims.len() {
        let id = PrimId(i as u32);
        let PrimKind::Derived(d) = &ps.prims[i].kind else {
            continue;
        };
        if ps.only_in(id).is_some() {
            continue;
        }
        let mut parts: Vec<Part> = d
            .body
            .nodes
            .iter()
            .filter_map(|n| match n {
                Node::Prim(p) => ps.only_in(*p),
                _ => None,
            })
            .collect();
        parts.dedup();
        match parts.as_slice() {
            [] => {}
            [part] => ps.only.push((id, *part)),
            _ => cx.push(
                Diagnostic::error(
                    "stratagem::lower::part",
                    format!("definition `{}` uses both condition-only and value-only primitives", ps.prims[i].name),
                )
                .at(ps.prims[i].file, ps.prims[i].span, "fits in no part of a policy")
                .with_help("split it, or mark fewer primitives"),
            ),
        }
    }
}

/// Reports used types from which no finite tree can be built, before any
/// generation can fail on them (DEAP's typed generation fails at run time).
fn check_reachability(cx: &mut Cx, ps: &PrimSet, form: &Sexp) {
    let depths = min_depths(ps);
    for ty in used_types(ps) {
        if depths[ty.0 as usize].is_none() {
            let tname = ps.type_name(ty);
            cx.push(
                Diagnostic::error("stratagem::check::unreachable-type", format!("no tree of type {tname} can be built in primset `{}`", ps.name))
                    .at(cx.file, form.span.first_byte(), format!("type {tname} has no terminal reachable"))
                    .with_help(format!(
                        "add a terminal, an ERC or `(literals {tname})` of type {tname}, or a function returning {tname} whose argument types all have terminals"
                    )),
            );
        }
    }
}
