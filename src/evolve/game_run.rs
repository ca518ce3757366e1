//! Evolution by games: a population of players of a two-player game,
//! scored by the games of the experiment's `(fitness ...)` (`game_fitness.rs`),
//! optionally coevolving openings (Hillis, `openings.rs`); the generational
//! loop is `generations.rs`'s.

use super::engine::{Engine, Evaluation, GenerationStats, ProblemStats, State};
use super::experiment::{Experiment, HillisSpec, Opponent};
use super::game_fitness::GameFitness;
use super::generations::run_generations;
use super::genome::Genome;
use super::hillis::{self, Scores};
use super::openings::{self, Coevolution, Opening};
use super::output::SavedProblems;
use super::prepared::PreparedRun;
use super::run_fitness::RunFitness;
use super::runner::{RunReport, Runner, unsupported};
use crate::diagnostic::Diagnostic;
use crate::games::domain::GpGame;
use crate::games::registry::TwoPlayerTask;

/// Runs every experiment no other runner takes, on a two-player game
/// (the registry refuses any other).
pub(super) struct GameRunner;

impl Runner for GameRunner {
    fn runs(&self, _: &Experiment) -> bool {
        true
    }

    fn run(&self, run: &PreparedRun) -> Result<RunReport, Vec<Diagnostic>> {
        run.exp.game.run_two_player("evolution by games", OnGame(run)).map_err(unsupported)?
    }
}

/// The run on the game the registry finds.
struct OnGame<'a>(&'a PreparedRun);

impl TwoPlayerTask for OnGame<'_> {
    type Output = Result<RunReport, Vec<Diagnostic>>;
    fn run<G: GpGame>(self, game: G) -> Self::Output {
        let fitness = GameFitness::for_experiment(game, self.0.primset(), &self.0.exp)?;
        run_generations(&fitness, self.0)
    }
}

impl<G: GpGame> RunFitness for GameFitness<G> {
    type Problem = Opening;

    fn validate(
        &self,
        candidates: &[(u64, &Genome)],
        opponent: &Opponent,
        games: u32,
        round: u64,
        seed: u64,
    ) -> Vec<f64> {
        GameFitness::validate(self, candidates, opponent, games, round, seed)
    }

    fn initial_problems(&self, h: &HillisSpec, seed: u64) -> Result<Vec<Opening>, Vec<Diagnostic>> {
        Ok(hillis::initial_problems(&openings::space(h), &openings::params(h), seed))
    }

    /// The players' step against a sample of the problems, then the
    /// problems' own breeding from their scores.
    fn coevolve(
        &self,
        engine: &Engine,
        state: &State,
        h: &HillisSpec,
        problems: &mut Vec<Opening>,
        seed: u64,
    ) -> Option<(State, GenerationStats, Evaluation)> {
        let co = Coevolution::new(self, *h, problems);
        let (next, mut stats, eval) = engine.step(state, &co);
        let scores = co.scores()?;
        stats.problems = Some(problem_stats(&scores, problems, h.sample));
        let (space, params) = (openings::space(h), openings::params(h));
        *problems = hillis::breed_problems(&space, problems, &scores.problems, &params, state.generation, seed);
        Some((next, stats, eval))
    }

    fn save_problems(&self, problems: &[Opening]) -> SavedProblems {
        SavedProblems::Openings(problems.to_vec())
    }

    fn load_problems(&self, h: &HillisSpec, saved: SavedProblems) -> Result<Vec<Opening>, String> {
        let SavedProblems::Openings(problems) = saved else {
            return Err("puzzles, but the experiment's problems are openings".into());
        };
        let (min, max) = (h.opening.0 as usize, h.opening.1 as usize);
        if let Some((i, p)) = problems.iter().enumerate().find(|(_, p)| !(min..=max).contains(&p.len())) {
            return Err(format!("problem {i} of {} plies, outside the experiment's {min} to {max}", p.len()));
        }
        Ok(problems)
    }

    fn problems_file(&self, _: &str, _: u64, _: &[Opening]) -> Option<String> {
        None
    }
}

/// What the problem population did in one generation.
fn problem_stats(scores: &Scores, problems: &[Opening], sample: u32) -> ProblemStats {
    let mean = |xs: &[f64]| if xs.is_empty() { 0.0 } else { xs.iter().sum::<f64>() / xs.len() as f64 };
    let meetings = (scores.solvers.len() as f64 * f64::from(sample)).max(1.0);
    let lengths: Vec<f64> = problems.iter().map(|p| p.len() as f64).collect();
    ProblemStats {
        solved: scores.solvers.iter().sum::<f64>() / meetings,
        best: scores.problems.iter().copied().fold(0.0, f64::max),
        mean: mean(&scores.problems),
        mean_length: mean(&lengths),
    }
}
