//! Syntax: lexing, reading and printing S-expressions. Knows nothing of forms,
//! types or evaluation.

pub mod lexer;
pub mod pretty;
pub mod reader;
pub mod sexp;

pub use crate::diagnostic::Span;
pub use reader::read;
pub use sexp::{Atom, Sexp, SexpKind};
