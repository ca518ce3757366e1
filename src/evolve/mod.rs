//! Evolution: typed GP initialisation and variation operators over any
//! primitive set (selection, fitness and the generational loop build on these).

pub mod cca;
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
pub mod genome;
pub mod hard_puzzles;
pub mod hillis;
pub mod init;
pub mod learn;
pub mod neat;
pub mod openings;
pub mod ops;
pub mod output;
pub mod policy_ops;
pub mod puzzle_fitness;
mod puzzle_run;
mod resume;
pub mod run;
pub mod select;
pub mod shape;
pub mod simplify;
