//! `stratagem export`: a program written out for use outside Stratagem.
//!
//! - `sexp` ([`sexp`]): simplified, in the canonical layout, with its primset;
//! - `c` and `rust`: an individual of a game that writes its own players
//!   out (the registry's `Entry::player_exporter` for the primset's domain)
//!   as that game's whole player program, its trees simplified first; a
//!   program of any other primset as functions over its feature values
//!   ([`features`]). Both translate trees with `crate::codegen`, with the
//!   interpreter's semantics.
//!
//! No game is named here: which programs become players, and what a player
//! is, are the game's. What cannot be exported (natives of a game that does
//! not write them out, a program that is not the game's player) is a
//! diagnostic, never a panic.

pub mod features;
pub mod sexp;

use crate::codegen::expr::Lang;
use crate::codegen::player::Refusal;
use crate::diagnostic::{Diagnostic, Sources};
use crate::evolve::simplify::simplify;
use crate::games::registry;
use crate::lang::{Individual, Module, NamedTree, PrimKind, PrimSet, Tree};
use features::Body;

/// What to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Sexp,
    C,
    Rust,
}

/// A program of a module, by kind.
pub use crate::lang::ProgramRef as Program;

/// An export's text, and the warnings it comes with (a game's limit on a
/// player's size exceeded), which the caller prints.
pub struct Exported {
    pub text: String,
    pub warnings: Vec<Diagnostic>,
}

/// The program `name` of module `m` (read from `origin`) as `format`.
pub fn export(m: &Module, sources: &Sources, origin: &str, name: &str, format: Format) -> Result<Exported, Diagnostic> {
    let program = find(m, origin, name)?;
    let ps = m.primset(program.primset());
    let lang = match format {
        Format::Sexp => {
            return Ok(Exported { text: sexp::to_sexp(sources, ps, &program, origin), warnings: Vec::new() });
        }
        Format::C => Lang::C,
        Format::Rust => Lang::Rust,
    };
    let cannot = |problems: Vec<String>| {
        Diagnostic::error(
            "stratagem::export::unsupported",
            format!("`{name}` of `{origin}` cannot be exported as {}", if lang == Lang::C { "C" } else { "Rust" }),
        )
        .with_help(format!(
            "it uses {}; only the natives of the {} primsets are written out (natives are the game's own code)",
            problems.join(", "),
            player_primsets()
        ))
    };
    let exporter = ps.domain.as_deref().and_then(registry::by_domain).and_then(|e| e.player_exporter());
    if let Some(exporter) = exporter {
        let simplified = match &program {
            Program::Individual(ind) => Some(simplified(ps, ind)),
            _ => None,
        };
        return match exporter.export(ps, simplified.as_ref(), lang, origin, name) {
            Ok(player) => Ok(Exported { text: player.text, warnings: player.warnings }),
            Err(Refusal::NotAPlayer(d)) => Err(d),
            Err(Refusal::Untranslatable(problems)) => Err(cannot(problems)),
        };
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
    Ok(Exported { text, warnings: Vec::new() })
}

/// The program `name`, or a diagnostic with a suggestion.
fn find<'m>(m: &'m Module, origin: &str, name: &str) -> Result<Program<'m>, Diagnostic> {
    m.program(name).ok_or_else(|| m.unknown_program("stratagem::export::unknown", origin, name))
}

/// `ind` with its trees simplified, as a game's player exporter reads it.
fn simplified(ps: &PrimSet, ind: &Individual) -> Individual {
    let trees = ind
        .trees
        .iter()
        .map(|t| NamedTree { name: t.name.clone(), ty: t.ty, tree: simplify(ps, &t.tree, t.ty) })
        .collect();
    Individual { trees, ..ind.clone() }
}

/// The shipped primsets whose natives are written out, "a, b and c": those
/// of the games that export whole players.
fn player_primsets() -> String {
    let names: Vec<&str> =
        registry::GAMES.iter().filter(|e| e.player_exporter().is_some()).flat_map(|e| e.primsets()).collect();
    match names.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => "no".to_owned(),
    }
}
