//! GDL: game descriptions in the Game Description Language, read from `.kif`
//! files as they are, validated, and reasoned over.
//!
//! The pipeline: text ──src/syntax──▶ S-expressions ──[`description`]──▶
//! rules ──[`plan`]──▶ strata of join plans ──[`prover`]──▶ per-state facts
//! ──[`machine`]──▶ the state machine (roles, initial state, legal moves,
//! next state, terminal, goals).

pub mod batch;
pub mod compiled;
mod decompose;
mod demand;
pub mod description;
mod goals;
pub mod ground;
pub mod machine;
mod magic;
mod normal_form;
pub mod perft;
pub mod plan;
pub mod playouts;
pub mod propnet;
pub mod prover;
mod relaxed;
mod scc;
pub mod state;
mod stats;
pub mod term;
pub mod trace;
pub mod validate;

pub use description::Description;
pub use machine::{Engine, EngineChoice, Machine, Reasoner};
pub use state::{State, ones};
pub use term::Case;

use crate::diagnostic::{Diagnostic, FileId, Severity, has_errors};

/// What the validator's errors do to a compilation: see [`compile`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Validation {
    /// Every validation error is fatal: the game is one the GDL
    /// specification and GGP-Base's validator accept (`stratagem gdl check`).
    Strict,
    /// The game runs where GGP-Base's prover runs it, though its validator
    /// rejects it (`stratagem gdl perft|trace|playouts`): errors of the kinds
    /// in [`RUNS_ANYWAY`] become warnings.
    Lenient,
}

/// The kinds of validation error GGP-Base's validator rejects a game for
/// while its prover plays the game anyway (test_case_3b, 3e and 3f, unsafe,
/// and test_clean_not_distinct, a negated `distinct`, have reference results
/// from it): unsafe rules (our prover leaves out a rule it cannot bind, and
/// says so), `not` applied to a non-sentence, and names spelled with
/// different capitalizations (names are read case-insensitively).
pub const RUNS_ANYWAY: [&str; 3] = [validate::UNSAFE, validate::NEGATION, validate::CASE];

/// The code of the note that comes with the warnings of a game run under
/// [`Validation::Lenient`] that [`Validation::Strict`] rejects.
pub const REJECTED_BUT_RUN: &str = "stratagem::gdl::rejected";

/// Reads, validates and compiles the description in `text` (file `file` of
/// the caller's sources): the machine and its warnings, or the diagnostics
/// that stop it (with the warnings found before).
///
/// The policy, in one place:
/// - reader errors (the text, or a form that is not GDL) are always fatal;
/// - validation errors ([`validate::validate`]) are all fatal under
///   [`Validation::Strict`]; under [`Validation::Lenient`], errors of the
///   kinds in [`RUNS_ANYWAY`] are returned as warnings, followed by a
///   one-line note ([`REJECTED_BUT_RUN`]) that `gdl check` rejects the game
///   and that it runs as GGP-Base's prover would, while any other
///   validation error (stratification, recursion, reserved relations,
///   arities, a missing role, `legal`, `goal` or `terminal`, a report cut
///   short) stops the compilation with all validation diagnostics as they
///   are;
/// - what the prover cannot compile (a negation it cannot stratify, no
///   roles, a size limit) is fatal in both modes;
/// - `engine` says whether the game is also compiled to native code
///   ([`Machine::with_engine`]); the machine's `engine_note` says which
///   engine it got and why.
///
/// Warnings come in order: the reader's, the validator's (with the demoted
/// errors), the note, then the prover's (rules it leaves out).
pub fn compile(
    file: FileId,
    text: &str,
    validation: Validation,
    engine: EngineChoice,
) -> Result<(Machine, Vec<Diagnostic>), Vec<Diagnostic>> {
    compile_as(file, text, validation, engine, Case::Insensitive, None)
}

/// [`compile`] with names compared by `case` (`ggp serve` reads the rules
/// a game server sends as GGP-Base does, case and all) and the compiled
/// engine wanted by `until` ([`Machine::with_engine_until`]).
pub fn compile_as(
    file: FileId,
    text: &str,
    validation: Validation,
    engine: EngineChoice,
    case: Case,
    until: Option<std::time::Instant>,
) -> Result<(Machine, Vec<Diagnostic>), Vec<Diagnostic>> {
    let (forms, mut diags) = crate::syntax::read(file, text);
    if has_errors(&diags) {
        return Err(diags);
    }
    let (desc, read_diags) = Description::read_as(file, &forms, case);
    diags.extend(read_diags);
    if has_errors(&diags) {
        return Err(diags);
    }
    let mut checked = validate::validate(&desc);
    if has_errors(&checked) {
        let runs_anyway = |d: &Diagnostic| !d.is_error() || RUNS_ANYWAY.contains(&d.code);
        if validation == Validation::Strict || !checked.iter().all(runs_anyway) {
            diags.append(&mut checked);
            return Err(diags);
        }
        let demoted = checked.iter().filter(|d| d.is_error()).count();
        for d in &mut checked {
            d.severity = Severity::Warning;
        }
        let errors = if demoted == 1 { "error" } else { "errors" };
        checked.push(Diagnostic::warning(
            REJECTED_BUT_RUN,
            format!("`gdl check` rejects this game ({demoted} {errors} below); it is run as GGP-Base's prover would"),
        ));
    }
    diags.append(&mut checked);
    let machine = Machine::with_engine_until(&desc, engine, until).map_err(|mut errors| {
        diags.append(&mut errors);
        std::mem::take(&mut diags)
    })?;
    let mut warnings = diags;
    warnings.extend(machine.warnings.iter().cloned());
    Ok((machine, warnings))
}
