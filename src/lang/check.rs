//! The type checker for trees: resolves names against a primitive set, checks
//! arity, argument types and literal values, and builds the typed prefix-order
//! [`Tree`]. It reports every problem it finds, not just the first.

use super::primset::{Node, Tree};
use super::primset::{Part, PrimSet, TreeSlot};
use super::types::{Base, TypeId, Value};
use crate::diagnostic::{Diagnostic, FileId, did_you_mean};
use crate::syntax::{Atom, Sexp, SexpKind, Span};

/// What a tree is checked against.
pub struct TreeEnv<'a> {
    pub ps: &'a PrimSet,
    pub file: FileId,
    /// Parameters in scope (inside a definition), with their types.
    pub params: &'a [(String, TypeId)],
    /// Definitions in a primset may use any literal; evolved trees only the
    /// literals the primset's ERCs (or `literals` declarations) allow.
    pub any_literal: bool,
    /// The part of a policy the tree is (values include individuals' trees);
    /// `None` where any primitive may appear (definitions, the REPL).
    pub part: Option<Part>,
}

/// Checks `sexp` as a tree of type `expected`. Returns the tree when it is well
/// typed; otherwise `None`, with the problems pushed to `diags`.
pub fn check_tree(env: &TreeEnv, sexp: &Sexp, expected: TypeId, diags: &mut Vec<Diagnostic>) -> Option<Tree> {
    let mut tree = Tree::default();
    let before = diags.iter().filter(|d| d.is_error()).count();
    check_node(env, sexp, Some(expected), &mut tree, diags);
    let after = diags.iter().filter(|d| d.is_error()).count();
    (after == before).then_some(tree)
}

fn type_name(env: &TreeEnv, ty: TypeId) -> String {
    env.ps.type_name(ty).to_owned()
}

fn mismatch(env: &TreeEnv, span: Span, expected: TypeId, found: TypeId, what: &str) -> Diagnostic {
    let mut d = Diagnostic::error(
        "stratagem::check::type",
        format!("type mismatch: expected {}, found {}", type_name(env, expected), type_name(env, found)),
    )
    .at(env.file, span, format!("{what} has type {}", type_name(env, found)));
    if env.ps.base(expected) == env.ps.base(found) {
        d = d.with_help(format!(
            "{} and {} share a representation but are distinct types; there are no implicit conversions",
            type_name(env, expected),
            type_name(env, found)
        ));
    }
    d
}

/// Checks one node; `expected` is `None` where the position is already in
/// error (extra arguments), so that only the node's own problems are reported.
fn check_node(env: &TreeEnv, sexp: &Sexp, expected: Option<TypeId>, tree: &mut Tree, diags: &mut Vec<Diagnostic>) {
    match &sexp.kind {
        SexpKind::Atom(Atom::Symbol(name)) if name == "true" || name == "false" => {
            check_literal(env, sexp, Value::B(name == "true"), expected, tree, diags)
        }
        SexpKind::Atom(Atom::Int(i)) => check_literal(env, sexp, Value::I(*i), expected, tree, diags),
        SexpKind::Atom(Atom::Float(x)) => check_literal(env, sexp, Value::F(*x), expected, tree, diags),
        SexpKind::Atom(Atom::Str(_)) => {
            diags.push(
                Diagnostic::error("stratagem::check::string", "strings cannot appear in trees")
                    .at(env.file, sexp.span, "a string")
                    .with_help("trees are built from primitives, numbers and `true`/`false`"),
            );
        }
        SexpKind::Atom(Atom::Symbol(name)) => check_call(env, sexp, name, sexp.span, &[], expected, tree, diags),
        SexpKind::List(items) => match items.split_first() {
            None => diags.push(Diagnostic::error("stratagem::check::empty", "empty list in a tree").at(
                env.file,
                sexp.span,
                "expected `(PRIMITIVE ARG...)`",
            )),
            Some((head, args)) => match head.as_symbol() {
                Some(name) => check_call(env, sexp, name, head.span, args, expected, tree, diags),
                None => diags.push(
                    Diagnostic::error("stratagem::check::head", "a call must start with a primitive name").at(
                        env.file,
                        head.span,
                        format!("found {}", head.describe()),
                    ),
                ),
            },
        },
    }
}

fn check_literal(
    env: &TreeEnv,
    sexp: &Sexp,
    v: Value,
    expected: Option<TypeId>,
    tree: &mut Tree,
    diags: &mut Vec<Diagnostic>,
) {
    tree.nodes.push(Node::Const(v));
    tree.spans.push(sexp.span);
    let Some(expected) = expected else { return };
    let base = env.ps.base(expected);
    if base != v.base() {
        let mut d = Diagnostic::error(
            "stratagem::check::literal-type",
            format!("expected a value of type {}, found {}", type_name(env, expected), sexp.describe()),
        )
        .at(
            env.file,
            sexp.span,
            match v.base() {
                Base::F => "a float literal",
                Base::I => "an integer literal",
                Base::B => "a boolean literal",
            },
        );
        if let (Base::F, Value::I(i)) = (base, v) {
            d = d.with_help(format!("float literals have a `.` or an exponent: write `{i}.0`"));
        }
        diags.push(d);
        return;
    }
    if env.any_literal || env.ps.literal_allowed(expected, v) {
        return;
    }
    let ercs: Vec<String> =
        env.ps.ercs_of(expected).map(|e| format!("`{}` {}", e.name, e.generator.describe())).collect();
    let help = if ercs.is_empty() {
        format!(
            "the primset `{}` has no ERC of type {} and no `(literals {})` declaration",
            env.ps.name,
            type_name(env, expected),
            type_name(env, expected)
        )
    } else {
        format!("constants of type {} come from {}", type_name(env, expected), ercs.join(", "))
    };
    diags.push(
        Diagnostic::error(
            "stratagem::check::erc-range",
            format!("constant `{v}` is not a value of type {} in primset `{}`", type_name(env, expected), env.ps.name),
        )
        .at(env.file, sexp.span, "out of range")
        .with_help(help),
    );
}

#[allow(clippy::too_many_arguments)]
fn check_call(
    env: &TreeEnv,
    sexp: &Sexp,
    name: &str,
    name_span: Span,
    args: &[Sexp],
    expected: Option<TypeId>,
    tree: &mut Tree,
    diags: &mut Vec<Diagnostic>,
) {
    if let Some(p) = env.params.iter().position(|(n, _)| n == name) {
        let ty = env.params[p].1;
        tree.nodes.push(Node::Param(p as u16));
        tree.spans.push(sexp.span);
        if !args.is_empty() {
            diags.push(
                Diagnostic::error("stratagem::check::arity", format!("parameter `{name}` takes no arguments")).at(
                    env.file,
                    sexp.span,
                    format!("called with {}", args.len()),
                ),
            );
        }
        if let Some(e) = expected
            && e != ty
        {
            diags.push(mismatch(env, sexp.span, e, ty, &format!("parameter `{name}`")));
        }
        return;
    }
    let Some(id) = env.ps.lookup(name) else {
        let candidates = env.ps.prim_names().chain(env.params.iter().map(|(n, _)| n.as_str()));
        let mut d = Diagnostic::error("stratagem::check::unknown", format!("unknown primitive `{name}`")).at(
            env.file,
            name_span,
            format!("not in primset `{}`", env.ps.name),
        );
        if let Some(s) = did_you_mean(name, candidates) {
            d = d.with_help(format!("did you mean `{s}`?"));
        }
        diags.push(d);
        tree.nodes.push(Node::Const(Value::F(f64::NAN)));
        tree.spans.push(sexp.span);
        for arg in args {
            check_node(env, arg, None, tree, diags);
        }
        return;
    };
    let prim = env.ps.prim(id);
    if !env.ps.allowed_in(id, env.part)
        && let (Some(only), Some(part)) = (env.ps.only_in(id), env.part)
    {
        let (kept, here) = match only {
            Part::Condition => ("a policy's conditions", "a value tree (a rule's value, a default or a tree)"),
            Part::Value => ("value trees", "a policy's condition"),
        };
        diags.push(
            Diagnostic::error("stratagem::check::part", format!("`{name}` may appear only in {kept}"))
                .at(env.file, name_span, format!("in {here}"))
                .with_help(format!(
                    "primset `{}` marks `{name}` `({}-only ...)`; this tree is a {}",
                    env.ps.name,
                    only.name(),
                    part.name()
                )),
        );
    }
    tree.nodes.push(Node::Prim(id));
    tree.spans.push(sexp.span);
    if let Some(e) = expected
        && e != prim.ret
    {
        diags.push(mismatch(env, sexp.span, e, prim.ret, &format!("`{name}`")));
    }
    if args.len() != prim.arity() {
        let sig = env.ps.signature(id);
        let usage = if prim.arity() == 0 {
            format!("`{name}` is a {} of type {}: write it as `{name}`", prim.kind_name(), type_name(env, prim.ret))
        } else {
            let placeholders: Vec<&str> = prim.args.iter().map(|t| env.ps.type_name(*t)).collect();
            format!("usage: ({name} {}) with signature {sig}", placeholders.join(" "))
        };
        diags.push(
            Diagnostic::error(
                "stratagem::check::arity",
                format!("`{name}` takes {} argument{}, found {}", prim.arity(), plural(prim.arity()), args.len()),
            )
            .at(env.file, sexp.span, "wrong number of arguments")
            .with_help(usage),
        );
    }
    for (i, arg) in args.iter().enumerate() {
        check_node(env, arg, prim.args.get(i).copied(), tree, diags);
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Minimal depth of a tree of each type, or `None` when no finite tree of the
/// type exists (no terminal is reachable). Typed GP initialisation relies on it.
pub fn min_depths(ps: &PrimSet) -> Vec<Option<usize>> {
    let mut depth: Vec<Option<usize>> = vec![None; ps.types.len()];
    for (t, d) in depth.iter_mut().enumerate() {
        let ty = TypeId(t as u16);
        if ps.literal_types.contains(&ty) || ps.ercs.iter().any(|e| e.ty == ty) {
            *d = Some(1);
        }
    }
    loop {
        let mut changed = false;
        for prim in &ps.prims {
            let args: Option<Vec<usize>> = prim.args.iter().map(|a| depth[a.0 as usize]).collect();
            if let Some(args) = args {
                let d = 1 + args.into_iter().max().unwrap_or(0);
                let slot = &mut depth[prim.ret.0 as usize];
                if slot.is_none_or(|old| d < old) {
                    *slot = Some(d);
                    changed = true;
                }
            }
        }
        if !changed {
            return depth;
        }
    }
}

/// The types a primset actually uses: as argument or result of a primitive,
/// as an ERC type, or as a tree slot type.
pub fn used_types(ps: &PrimSet) -> Vec<TypeId> {
    let mut used: Vec<TypeId> = ps
        .prims
        .iter()
        .flat_map(|p| p.args.iter().copied().chain([p.ret]))
        .chain(ps.tree_slots.iter().map(|s: &TreeSlot| s.ty))
        .collect();
    used.sort();
    used.dedup();
    used
}
