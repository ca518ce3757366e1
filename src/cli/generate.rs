//! `stratagem generate --game G`: hard puzzles of a game that can generate
//! them, one per line in the game's puzzle-line format, which `solve`
//! reads back (`stratagem games` says which games can).

use clap::Args;

use super::{Failure, Outcome, game_entry, out};
use crate::games::domain::GpDomain;
use crate::games::instances::generate_lines;
use crate::games::registry::PuzzleTask;
use crate::games::{Generate, Puzzle};

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// The puzzle (`stratagem games` lists them).
    #[arg(long)]
    pub game: String,
    /// The board's side, for puzzles of several sizes (default: the puzzle's own).
    #[arg(long)]
    pub size: Option<u32>,
    /// Puzzles to generate.
    #[arg(long, default_value_t = 10)]
    pub count: usize,
    /// Fewest steps of a puzzle's optimal solution.
    #[arg(long, value_name = "L", default_value_t = 30)]
    pub min_length: u32,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Tries each puzzle may take before it is given up (a climb from a
    /// fresh random board of up to 400 changes, where puzzles are climbed to).
    #[arg(long, default_value_t = 50)]
    pub attempts: usize,
    /// Threads (0: all cores). Puzzle i depends only on the seed and i.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

pub fn run(args: &GenerateArgs) -> Outcome {
    struct Task<'a>(&'a GenerateArgs);
    impl PuzzleTask for Task<'_> {
        type Output = Outcome;
        fn run<G: GpDomain + Puzzle + Send + 'static>(self, game: G) -> Outcome
        where
            G::State: Send + Sync + 'static,
            G::Move: Send + Sync + 'static,
        {
            generate(&game, self.0)
        }
    }
    let entry = game_entry(&args.game)?;
    entry.run_puzzle("`generate`", Task(args)).map_err(Failure::from)?
}

fn generate<G: Puzzle + Sync>(game: &G, args: &GenerateArgs) -> Outcome {
    let settings = Generate { size: args.size, min_cost: args.min_length, attempts: args.attempts };
    let lines = generate_lines(game, &settings, (args.count, args.seed), args.threads)
        .map_err(|e| Failure::message("stratagem::generate", e))?;
    let mut text = String::new();
    let mut missing = 0;
    for line in &lines {
        match line {
            Some(line) => {
                text.push_str(line);
                text.push('\n');
            }
            None => missing += 1,
        }
    }
    out(&text);
    if missing > 0 {
        return Err(Failure::message(
            "stratagem::generate::missing",
            format!(
                "{missing} of {} puzzles reached no {} steps in {} attempts: ask for fewer steps or more `--attempts`",
                args.count, args.min_length, args.attempts
            ),
        ));
    }
    Ok(())
}
