//! `stratagem solve GAME (--puzzles FILE | --deals LIST) [--search
//! bfs|id|ida|hsd] [--heuristic NAME|FILE:NAME]... [--max-nodes N]
//! [--time-limit S] [--format text|json] [--check]`: solves every puzzle of a
//! file (one per line, in the game's puzzle-line format) or every numbered
//! instance of a list (a game's numbered deals) and prints, per puzzle, whether it
//! was solved, the solution's length and moves, the nodes and the time; in
//! text, a summary line. Moves are written step by step as the game lists
//! them (automatic moves too, where the game makes them). `--check`
//! replays every solution from its text, step by step, and fails on an
//! illegal one.

use std::hash::Hash;

use super::{Failure, Format, Outcome, game_entry, out};
use crate::games::domain::GpDomain;
use crate::games::registry::PuzzleTask;
use crate::games::{Instance, Puzzle};
pub use crate::solve::portfolio::SearchKind;
use crate::solve::portfolio::Settings;
use crate::solve::puzzles::Label;
pub use crate::solve::puzzles::PuzzleSource;
use crate::solve::{PuzzleResult, Totals, solve_puzzles};

pub struct SolveArgs {
    pub game: String,
    pub puzzles: PuzzleSource,
    /// How each puzzle is searched.
    pub settings: Settings,
    /// Puzzles solved at once (results are the same, in order).
    pub threads: usize,
    pub format: Format,
    pub check: bool,
}

pub fn run(args: &SolveArgs) -> Outcome {
    struct Solve<'a>(&'a SolveArgs);
    impl PuzzleTask for Solve<'_> {
        type Output = Outcome;
        fn run<
            G: GpDomain + Puzzle<State: Hash + Eq + Send + Sync + 'static, Move: Send + Sync + 'static> + Send + 'static,
        >(
            self,
            game: G,
        ) -> Outcome {
            solve(&game, self.0)
        }
    }
    game_entry(&args.game)?.run_puzzle("`solve`", Solve(args)).map_err(Failure::from)?
}

fn solve<G>(game: &G, args: &SolveArgs) -> Outcome
where
    G: GpDomain + Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync>,
{
    let print = |r: PuzzleResult<G::State>| {
        let line = result_line(game, args.format, r.label, &r.instance, r.steps, r.nodes, r.ms);
        out(&format!("{line}\n"));
    };
    let totals = solve_puzzles(game, &args.settings, &args.puzzles, (args.threads, args.check), print)?;
    if args.format == Format::Text {
        let Totals { puzzles: n, solved: n_solved, nodes: total_nodes, steps: total_steps, seconds } = totals;
        let seconds = seconds.max(1e-9);
        out(&format!(
            "solved {n_solved} of {n} puzzles, {total_nodes} nodes in {seconds:.3} s: {:.1} puzzles/s, {:.0} nodes/s, \
             mean length {:.1}\n",
            n as f64 / seconds,
            total_nodes as f64 / seconds,
            if n_solved == 0 { 0.0 } else { total_steps as f64 / n_solved as f64 },
        ));
    }
    Ok(())
}

/// One puzzle's result as `--format` writes it.
fn result_line<G: Puzzle>(
    game: &G,
    format: Format,
    label: Label,
    instance: &Instance<G::State>,
    steps: Option<Vec<String>>,
    nodes: u64,
    ms: f64,
) -> String {
    let start = &instance.state;
    let ms = (ms * 1000.0).round() / 1000.0;
    match format {
        Format::Json => {
            let mut line = serde_json::Map::new();
            match label {
                Label::Index(i) => {
                    line.insert("index".into(), (i + 1).into());
                    line.insert("board".into(), game.format_instance(start).into());
                }
                Label::Number(n) => {
                    line.insert("deal".into(), n.into());
                }
            }
            line.insert("solved".into(), steps.is_some().into());
            line.insert("length".into(), steps.as_ref().map(Vec::len).into());
            line.insert("nodes".into(), nodes.into());
            line.insert("ms".into(), ms.into());
            line.insert("moves".into(), steps.unwrap_or_default().into());
            serde_json::Value::Object(line).to_string()
        }
        Format::Text => {
            let result = match (&steps, instance.optimal_cost) {
                (None, _) => "unsolved".to_owned(),
                (Some(t), Some(best)) if t.len() as u32 != best => format!("length {} (published {best})", t.len()),
                (Some(t), _) => format!("length {}", t.len()),
            };
            let steps = steps.map(|t| t.join(" ")).unwrap_or_default();
            match label {
                Label::Index(i) => {
                    format!("{:>5} {} {result} nodes {nodes} {ms:.2} ms  {steps}", i + 1, game.format_instance(start))
                }
                Label::Number(n) => format!("deal {n:>5} {result} nodes {nodes} {ms:.2} ms  {steps}"),
            }
        }
    }
}
