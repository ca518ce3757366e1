//! `stratagem export`: a program written out for use outside Stratagem.
//!
//! - `sexp` ([`sexp`]): simplified, in the canonical layout, with its primset;
//! - `c` and `rust`: an ant (of the `antwars` or `antwars-humant` primset)
//!   as a whole contest player ([`ant`]); a program of any other primset as
//!   functions over its feature values ([`features`]). Both share [`expr`],
//!   the translation of trees with the interpreter's semantics.
//!
//! What cannot be exported (natives outside Ant Wars, an ant without its
//! two trees) is a diagnostic, never a panic.

pub mod activation;
pub mod ant;
pub mod expr;
pub mod features;
mod humant_code;
pub mod sexp;

use crate::diagnostic::{Diagnostic, Sources, did_you_mean};
use crate::evolve::simplify::simplify;
use crate::lang::{Individual, Module, Network, Policy, PrimKind, PrimSet, Tree, Weights};
use expr::Lang;
use features::Body;

/// The contest's limit on a player's source ("under 5 kB", read as 5,000
/// bytes), which a C export over it is warned against.
pub const CONTEST_SIZE: usize = 5000;

/// What to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Sexp,
    C,
    Rust,
}

/// A program of a module, by kind.
pub enum Program<'a> {
    Individual(&'a Individual),
    Policy(&'a Policy),
    Weights(&'a Weights),
    Network(&'a Network),
}

impl Program<'_> {
    pub fn name(&self) -> &str {
        match self {
            Program::Individual(i) => &i.name,
            Program::Policy(p) => &p.name,
            Program::Weights(w) => &w.name,
            Program::Network(n) => &n.name,
        }
    }

    fn primset<'m>(&self, m: &'m Module) -> &'m PrimSet {
        m.primset(match self {
            Program::Individual(i) => i.primset,
            Program::Policy(p) => p.primset,
            Program::Weights(w) => w.primset,
            Program::Network(n) => n.primset,
        })
    }
}

/// An export's text, and whether it is an Ant Wars contest player in C (the
/// one whose size the contest limited).
pub struct Exported {
    pub text: String,
    pub contest_c: bool,
}

/// The program `name` of module `m` (read from `origin`) as `format`.
pub fn export(m: &Module, sources: &Sources, origin: &str, name: &str, format: Format) -> Result<Exported, Diagnostic> {
    let program = find(m, origin, name)?;
    let ps = program.primset(m);
    let lang = match format {
        Format::Sexp => return Ok(Exported { text: sexp::to_sexp(sources, ps, &program, origin), contest_c: false }),
        Format::C => Lang::C,
        Format::Rust => Lang::Rust,
    };
    let cannot = |problems: Vec<String>| {
        Diagnostic::error(
            "stratagem::export::unsupported",
            format!("`{name}` of `{origin}` cannot be exported as {}", if lang == Lang::C { "C" } else { "Rust" }),
        )
        .with_help(format!(
            "it uses {}; only the natives of the antwars and antwars-humant primsets are written out (natives are the game's own code)",
            problems.join(", ")
        ))
    };
    if ps.domain.as_deref() == Some("antwars") {
        let Program::Individual(ind) = program else {
            return Err(Diagnostic::error(
                "stratagem::export::ant",
                format!("`{name}` of `{origin}` is not an individual: an ant is an individual of two trees"),
            ));
        };
        let trees = ant_trees(ps, ind, origin)?;
        let text = match lang {
            Lang::C => ant::to_c(ps, name, [&trees[0], &trees[1]]),
            Lang::Rust => ant::to_rust(ps, name, [&trees[0], &trees[1]]),
        }
        .map_err(cannot)?;
        return Ok(Exported { text, contest_c: lang == Lang::C });
    }
    let simplified: Vec<(String, Tree, crate::lang::TypeId)>;
    let funcs: Vec<(String, Body)> = match &program {
        Program::Individual(ind) => {
            simplified =
                ind.trees.iter().map(|t| (format!("{name}_{}", t.name), simplify(ps, &t.tree, t.ty), t.ty)).collect();
            simplified.iter().map(|(n, t, ty)| (n.clone(), Body::Tree(t, *ty))).collect()
        }
        Program::Policy(p) => {
            let rules = p.rules.iter().map(|r| (&r.condition, &r.value)).collect();
            vec![(name.to_owned(), Body::Policy(rules, &p.default))]
        }
        Program::Weights(w) => {
            let terms = w
                .terms
                .iter()
                .filter_map(|&(id, x)| match ps.prim(id).kind {
                    PrimKind::Feature(slot) => Some((slot, x)),
                    _ => None,
                })
                .collect();
            vec![(name.to_owned(), Body::Weights(terms))]
        }
        Program::Network(n) => vec![(name.to_owned(), Body::Network(n))],
    };
    let what = format!("`{name}` of `{origin}`");
    let text = features::to_source(ps, lang, &what, &funcs).map_err(cannot)?;
    Ok(Exported { text, contest_c: false })
}

/// The program `name`, or a diagnostic with a suggestion.
fn find<'m>(m: &'m Module, origin: &str, name: &str) -> Result<Program<'m>, Diagnostic> {
    if let Some(i) = m.individuals.iter().find(|i| i.name == name) {
        return Ok(Program::Individual(i));
    }
    if let Some(p) = m.policies.iter().find(|p| p.name == name) {
        return Ok(Program::Policy(p));
    }
    if let Some(w) = m.weights.iter().find(|w| w.name == name) {
        return Ok(Program::Weights(w));
    }
    if let Some(n) = m.networks.iter().find(|n| n.name == name) {
        return Ok(Program::Network(n));
    }
    let names = m.program_names();
    let help = match did_you_mean(name, names.iter().copied()) {
        Some(s) => format!("did you mean `{s}`?"),
        None if names.is_empty() => "it defines no individuals, policies, weight vectors or networks".to_owned(),
        None => format!("it defines: {}", names.join(", ")),
    };
    Err(Diagnostic::error("stratagem::export::unknown", format!("`{origin}` defines no program `{name}`"))
        .with_help(help))
}

/// An ant's trees `[straight, diagonal]`, simplified, or why it is no ant.
fn ant_trees(ps: &PrimSet, ind: &Individual, origin: &str) -> Result<[Tree; 2], Diagnostic> {
    let mut out = [Tree::default(), Tree::default()];
    for (slot, tree) in crate::games::antwars::gp_ant::TREES.iter().zip(out.iter_mut()) {
        let Some(t) = ind.trees.iter().find(|t| t.name == *slot) else {
            return Err(Diagnostic::error(
                "stratagem::export::ant",
                format!("ant `{}` of `{origin}` has no `{slot}` tree", ind.name),
            )
            .with_help("an ant has two trees: `straight` (N, E, S, W) and `diagonal` (NE, SE, SW, NW)"));
        };
        *tree = simplify(ps, &t.tree, t.ty);
    }
    Ok(out)
}
