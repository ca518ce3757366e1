//! Evaluation: the reference interpreter and batch evaluation over tables.

pub mod batch;
pub mod engine;
pub mod interp;
pub mod jit;
pub mod run;
pub mod table;

pub use engine::Engine;
