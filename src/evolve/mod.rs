//! Evolution: typed GP initialisation and variation operators over any
//! primitive set, the fitness of each kind of game, the generational loop
//! and the runners that put them together for an experiment.
//!
//! Layers, each importing only those before it: the experiment, engine,
//! fitness and output files; `prepared.rs` (the run ready to start);
//! `runner.rs` (the trait of a way to run); `run_fitness.rs`,
//! `champion.rs`, `resume.rs` and `generations.rs` (the generational
//! loop), `cca_game.rs` and `cca_generation.rs` (covering coevolution's);
//! the runners (`game_run.rs`, `puzzle_run.rs`, `duel_run.rs`,
//! `cca_run.rs`); and `run.rs`, which chooses among them.

pub mod cca;
mod cca_game;
mod cca_generation;
mod cca_plot;
pub mod cca_report;
mod cca_run;
mod cca_sampled;
pub mod cca_versus;
pub mod champion;
pub mod deal_sets;
mod duel_run;
pub mod engine;
pub mod experiment;
pub mod finalists;
pub mod ga;
pub mod game_fitness;
mod game_run;
mod generations;
pub mod genome;
mod genome_text;
pub mod hard_puzzles;
pub mod hillis;
pub mod init;
pub mod learn;
pub mod neat;
pub mod openings;
pub mod ops;
pub mod output;
pub mod policy_ops;
pub mod prepared;
pub mod puzzle_fitness;
mod puzzle_run;
mod resume;
pub mod run;
mod run_fitness;
pub mod runner;
pub mod select;
pub mod shape;
pub mod simplify;

/// What a covering run's checkpoint holds, read as `--resume` reads it.
pub use cca_run::CcaCheckpoint;
