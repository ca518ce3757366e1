//! GDL: game descriptions in the Game Description Language, read from `.kif`
//! files as they are, validated, and reasoned over.
//!
//! The pipeline: text ──src/syntax──▶ S-expressions ──[`description`]──▶
//! rules ──[`plan`]──▶ strata of join plans ──[`prover`]──▶ per-state facts
//! ──[`machine`]──▶ the state machine (roles, initial state, legal moves,
//! next state, terminal, goals).

pub mod description;
pub mod machine;
mod magic;
pub mod perft;
pub mod plan;
pub mod playouts;
pub mod prover;
pub mod term;
pub mod trace;
pub mod validate;

pub use description::Description;
pub use machine::{Machine, Reasoner, State};

use crate::diagnostic::{Diagnostic, FileId};

/// Reads and compiles a description from `text` (file `file` of the caller's
/// sources). Errors are diagnostics; warnings come with the machine.
pub fn compile(file: FileId, text: &str) -> Result<(Machine, Vec<Diagnostic>), Vec<Diagnostic>> {
    let (forms, mut diags) = crate::syntax::read(file, text);
    if crate::diagnostic::has_errors(&diags) {
        return Err(diags);
    }
    let (desc, read_diags) = Description::read(file, &forms);
    diags.extend(read_diags);
    if crate::diagnostic::has_errors(&diags) {
        return Err(diags);
    }
    let machine = Machine::new(&desc).map_err(|mut errors| {
        diags.append(&mut errors);
        std::mem::take(&mut diags)
    })?;
    let mut warnings = diags;
    warnings.extend(machine.warnings.iter().cloned());
    Ok((machine, warnings))
}
