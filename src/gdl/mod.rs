//! GDL: game descriptions in the Game Description Language, read from `.kif`
//! files as they are, validated, and reasoned over.
//!
//! The pipeline: text ──src/syntax──▶ S-expressions ──[`description`]──▶
//! rules ──[`validate`]──▶ checked rules ──[`plan`]──▶ strata of join plans
//! ──[`prover`]──▶ per-state facts ──[`machine`]──▶ the state machine
//! (roles, initial state, legal moves, next state, terminal, goals).

pub mod description;
pub mod term;
