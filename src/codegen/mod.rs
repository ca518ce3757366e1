//! The language's semantics as C and Rust source: trees as expressions with
//! the interpreter's bits ([`expr`]) and the network activations
//! ([`activation`]); C from a subset of Rust ([`c_subset`]), so that code
//! an exported player carries is written once, in Rust the crate runs; and
//! the contract of a game's exporter of whole players ([`player`]).
//!
//! It knows no game and no file format, and imports only `lang`: it sits
//! below `games` and `export`, so the generic exporter (src/export: programs
//! as functions over feature values) and a game's own exporter of whole
//! players (under its folder in src/games) translate trees with one
//! translator.

pub mod activation;
pub mod c_subset;
pub mod expr;
pub mod player;
