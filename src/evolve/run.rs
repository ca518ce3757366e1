//! Running an experiment: the runner that serves its game and fitness,
//! chosen from [`RUNNERS`] (`runner.rs` says what a runner is). A runner
//! for a new kind of game is one new file and one line here.

use super::cca_run::CcaRunner;
use super::duel_run::DuelRunner;
use super::game_run::GameRunner;
use super::prepared::PreparedRun;
use super::puzzle_run::PuzzleRunner;
use super::runner::{RunReport, Runner};
use crate::diagnostic::Diagnostic;

/// The runners, asked in this order which one runs an experiment: covering
/// coevolution first (it runs on two-player and other GDL games alike),
/// evolution by games last (it takes every experiment the others leave).
const RUNNERS: [&dyn Runner; 4] = [&CcaRunner, &PuzzleRunner, &DuelRunner, &GameRunner];

/// Runs the prepared run (or a chunk of it, with `--stop-after`).
pub fn run_experiment(run: &PreparedRun) -> Result<RunReport, Vec<Diagnostic>> {
    let runner = RUNNERS.iter().copied().find(|r| r.runs(&run.exp)).unwrap_or(&GameRunner);
    runner.run(run)
}
