//! What a generational run needs of its fitness besides scoring each
//! generation: validation, the problems of Hillis coevolution and how the
//! checkpoint keeps them, a monitor, and a final choice of champion. Every
//! fitness `generations.rs` runs implements it.

use super::engine::{Engine, Evaluation, Fitness, GenerationStats, MonitorStats, State};
use super::experiment::{HillisSpec, Opponent};
use super::genome::Genome;
use super::output::SavedProblems;
use crate::diagnostic::Diagnostic;

/// What a run needs of its fitness besides scoring each generation.
pub(super) trait RunFitness: Fitness {
    /// A problem of Hillis coevolution on this fitness: an opening of a
    /// two-player game, or a puzzle.
    type Problem: Clone + Send + Sync;

    /// Validation points of `candidates` (population index, genome) in
    /// `games` games against `opponent`, for round (generation) `round`.
    fn validate(
        &self,
        candidates: &[(u64, &Genome)],
        opponent: &Opponent,
        games: u32,
        round: u64,
        seed: u64,
    ) -> Vec<f64>;

    /// The first problems of Hillis coevolution.
    fn initial_problems(&self, h: &HillisSpec, seed: u64) -> Result<Vec<Self::Problem>, Vec<Diagnostic>>;

    /// One generation of Hillis coevolution of `problems`; `None` when it
    /// scored nothing.
    fn coevolve(
        &self,
        engine: &Engine,
        state: &State,
        h: &HillisSpec,
        problems: &mut Vec<Self::Problem>,
        seed: u64,
    ) -> Option<(State, GenerationStats, Evaluation)>;

    /// The problems as the checkpoint keeps them.
    fn save_problems(&self, problems: &[Self::Problem]) -> SavedProblems;

    /// The problems a checkpoint kept (as many as the experiment's problem
    /// population), checked against the experiment; the error completes
    /// "the checkpoint holds ...".
    fn load_problems(&self, h: &HillisSpec, saved: SavedProblems) -> Result<Vec<Self::Problem>, String>;

    /// The text of the file of problems a run writes beside its log (the
    /// problems after `generation` generations), if it writes one.
    fn problems_file(&self, name: &str, generation: u64, problems: &[Self::Problem]) -> Option<String>;

    /// The games of a generation's best member against the experiment's
    /// monitor, if it has one (evolution by duels).
    fn monitor(&self, _best: &Genome, _generation: u64, _seed: u64) -> Option<MonitorStats> {
        None
    }

    /// The champion among the final population, when the fitness chooses
    /// it (a round robin of duels): its index and how it was chosen.
    fn final_choice(&self, _population: &[Genome], _seed: u64) -> Option<(usize, String)> {
        None
    }
}
