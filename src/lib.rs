//! Stratagem: a language and toolkit for evolved game-playing programs.
//!
//! The pipeline: `syntax` (text to S-expressions) → `lang` (forms, types,
//! checking) → `eval` (interpreter, JIT). See ARCHITECTURE.md.

pub mod cli;
pub mod diagnostic;
pub mod eval;
pub mod games;
pub mod lang;
pub mod syntax;
