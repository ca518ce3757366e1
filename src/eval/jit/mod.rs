//! The Cranelift JIT engine: compiles trees, policies and weight vectors to
//! machine code that computes, bit for bit, what the reference interpreter
//! (`eval::interp`) computes.
//!
//! The pipeline is: [`analysis`] decides what a program needs (its result
//! base, feature slots, natives, whether f64x2 lanes can hold every value)
//! and the structural key used for hash-consing; [`compiler`] owns one
//! `JITModule` per population and defines one function per distinct program;
//! [`shell`] builds the function around a program (one call per position, or
//! a loop over the rows of a column-major table); [`translate`] emits the
//! program itself, one `translate_*` per node kind, with [`lower`] holding
//! the builtins for scalar and f64x2 lanes; [`code`] owns the finalised
//! machine code and frees it when the last handle to it is dropped;
//! [`native`] is the trampoline through which compiled code calls domain
//! functions.
//!
//! Invariant: this module is the only place in the crate with `unsafe`.

pub mod analysis;
pub mod circuit;
pub mod code;
pub mod compiler;
pub(crate) mod lower;
mod native;
mod network;
mod shell;
mod translate;

#[cfg(test)]
mod tests;

use std::fmt;

pub use analysis::JitProgram;
pub use code::{BatchFn, Columns, PositionFn};
pub use compiler::{Compiled, FnHandle, JitCompiler, JitConfig, Mode};

/// Why a program was not compiled. The caller falls back to the interpreter
/// and reports the reason; none of these is a bug in the program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JitError {
    /// The program needs something this engine does not do in this mode,
    /// e.g. natives in a batch over a table.
    Unsupported(String),
    /// The tree does not have the shape its primset promises (a checker bug
    /// or a hand-built tree); the interpreter decides what it means.
    Malformed(String),
    /// Cranelift refused the function or could not allocate memory.
    Codegen(String),
}

impl fmt::Display for JitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JitError::Unsupported(s) => write!(f, "not supported by the JIT: {s}"),
            JitError::Malformed(s) => write!(f, "malformed program: {s}"),
            JitError::Codegen(s) => write!(f, "code generation failed: {s}"),
        }
    }
}

impl std::error::Error for JitError {}
