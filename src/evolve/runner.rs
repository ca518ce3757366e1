//! The one shape of every way to run an experiment. A runner serves a kind
//! of game and fitness (games, puzzles, duels, covering coevolution): it
//! finds the experiment's game through the registry, builds its fitness
//! and evolves, from a [`PreparedRun`] and the generational loop below it
//! (`generations.rs`, or `cca_generation.rs` for covering coevolution).
//! Runners know nothing of one another; `run.rs` asks them in turn which
//! one runs an experiment.

use std::path::PathBuf;

use super::experiment::Experiment;
use super::output::LogRecord;
use super::prepared::PreparedRun;
use crate::diagnostic::Diagnostic;
use crate::games::registry::Unsupported;

/// A way to run an experiment.
pub trait Runner: Sync {
    /// Whether this runner runs `exp` (the first runner of `run.rs`'s list
    /// that does, runs it).
    fn runs(&self, exp: &Experiment) -> bool;

    /// Runs the prepared run (or a chunk of it, with `--stop-after`).
    fn run(&self, run: &PreparedRun) -> Result<RunReport, Vec<Diagnostic>>;
}

/// What a run (or a chunk of it) did.
pub struct RunReport {
    pub log: Vec<LogRecord>,
    pub finished: bool,
    pub champion: Option<PathBuf>,
    /// Resumed a finished run whose files were all in place: nothing was written.
    pub already_complete: bool,
    /// Lines that replace the usual summary (covering coevolution: a
    /// line per role and its champion).
    pub notes: Vec<String>,
}

/// The error of an experiment whose game the runner's kind of game does not serve.
pub(super) fn unsupported(e: Unsupported) -> Vec<Diagnostic> {
    vec![e.diagnostic("stratagem::experiment::game")]
}
