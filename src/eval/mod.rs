//! Evaluation: the reference interpreter and batch evaluation over tables.

pub mod batch;
pub mod interp;
pub mod jit;
pub mod run;
pub mod table;
