//! Stratagem: a language and toolkit for evolved game-playing programs.
//!
//! The pipeline: `syntax` (text to S-expressions) → `lang` (forms, types,
//! checking) → `eval` (interpreter). See ARCHITECTURE.md.
//!
//! Loading a program and evaluating an individual on one row of features:
//!
//! ```
//! use stratagem::eval::interp::{Interp, Slots};
//! use stratagem::lang::{Loader, Value};
//!
//! let mut loader = Loader::new();
//! loader.load_text("demo.sg", "(import arith)
//!     (individual half-sum (primset arith) (tree eval (* 0.5 (+ x0 x1))))");
//! assert!(loader.diags.is_empty());
//!
//! let ind = loader.module.find_individual("half-sum").unwrap();
//! let ps = loader.module.primset(ind.primset);
//! // Feature slots hold f64 bit patterns, in the primset's terminal order (x0, x1, ...).
//! let slots: Vec<u64> = [3.0f64, 5.0].iter().map(|x| x.to_bits()).chain([0; 8]).collect();
//! let value = Interp::new(ps, &mut Slots(&slots)).eval_tree(&ind.trees[0].tree);
//! assert_eq!(value, Value::F(4.0));
//! ```

pub mod cli;
pub mod cluster;
pub mod codegen;
pub mod diagnostic;
pub mod eval;
pub mod evolve;
pub mod export;
pub mod files;
pub mod foreign;
pub mod games;
pub mod gdl;
pub mod ggp;
pub mod lang;
pub mod limits;
pub mod players;
pub mod repl;
pub mod rng;
pub mod search;
pub mod solve;
pub mod spelling;
pub mod syntax;
