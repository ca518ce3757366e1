//! Export as S-expressions: the program simplified as champions are
//! (src/evolve/simplify.rs), in the canonical layout (src/syntax/pretty.rs),
//! preceded by its primset: `(import NAME)` for a shipped one, else the
//! primset's own form copied from its file, so the output reads by itself
//! and evaluates as the original does.

use crate::diagnostic::Sources;
use crate::evolve::policy_ops::RuleList;
use crate::evolve::simplify::{simplify, simplify_policy};
use crate::lang::{PrimSet, Tree};
use crate::syntax::pretty::print_forms;
use crate::syntax::{Atom, Sexp, Span, read};

use super::Program;

fn sym(s: &str) -> Sexp {
    Sexp::atom(Atom::Symbol(s.to_owned()), Span::default())
}

fn list(items: Vec<Sexp>) -> Sexp {
    Sexp::list(items, Span::default())
}

/// The exported text of `program`, whose primset is `ps`.
pub fn to_sexp(sources: &Sources, ps: &PrimSet, program: &Program, origin: &str) -> String {
    let name = program.name();
    let header = vec![sym(name), list(vec![sym("primset"), sym(&ps.name)])];
    let tree = |t: &Tree| t.to_sexp(ps, &[]);
    let form = match program {
        Program::Individual(ind) => {
            let trees =
                ind.trees.iter().map(|t| list(vec![sym("tree"), sym(&t.name), tree(&simplify(ps, &t.tree, t.ty))]));
            list([sym("individual")].into_iter().chain(header).chain(trees).collect())
        }
        Program::Policy(p) => {
            let p = simplify_policy(ps, &RuleList::of(p));
            let rules = p.rules.iter().map(|r| list(vec![sym("rule"), tree(&r.condition), tree(&r.value)]));
            let default = list(vec![sym("default"), tree(&p.default)]);
            list([sym("policy")].into_iter().chain(header).chain(rules).chain([default]).collect())
        }
        Program::Weights(w) => {
            let pairs = w.terms.iter().map(|&(t, x)| list(vec![sym(&ps.prim(t).name), Sexp::float(x)]));
            list([sym("weights")].into_iter().chain(header).chain(pairs).collect())
        }
        // A network is written as it is: its genes are what NEAT evolves.
        Program::Network(n) => n.to_sexp(ps),
    };
    let file = sources.get(ps.file);
    let primset = if file.path.is_none() && crate::lang::library::primset_source(&ps.name).is_some() {
        format!("(import {})\n", ps.name)
    } else {
        // The primset's own form, re-read from its file and laid out.
        let text = file.text.get(ps.span.start..ps.span.end).unwrap_or("");
        let (forms, _) = read(Default::default(), text);
        print_forms(&forms)
    };
    format!("; `{name}` of {origin}, simplified (stratagem export).\n\n{primset}\n{}", print_forms(&[form]))
}
