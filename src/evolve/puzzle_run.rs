//! Runs on a puzzle: programs guide a search over the experiment's
//! training puzzles (a file, or numbered deals drawn by seed, whose split
//! the run writes beside its log), scored by the nodes they save
//! (src/evolve/puzzle_fitness.rs) or coevolved against hard puzzles or deal
//! sets; the generational loop is `generations.rs`'s.

use std::hash::Hash;
use std::path::Path;
use std::sync::Arc;

use super::deal_sets::{DealSet, DealSetFitness};
use super::engine::{Engine, Evaluation, GenerationStats, State};
use super::experiment::{Experiment, FitnessPart, HillisSpec, Numbered, Opponent};
use super::generations::run_generations;
use super::genome::Genome;
use super::hard_puzzles::{self, HardPuzzle};
use super::output::{self, SavedProblems, io_error};
use super::prepared::PreparedRun;
use super::puzzle_fitness::{NodePrograms, PuzzleFitness};
use super::run_fitness::RunFitness;
use super::runner::{RunReport, Runner, unsupported};
use crate::diagnostic::{Diagnostic, FileId};
use crate::games::domain::{Binding, GpDomain};
use crate::games::instances::parse_instances;
use crate::games::registry::{Kind, PuzzleTask};
use crate::games::{Instance, Puzzle};
use crate::lang::PrimSet;
use crate::search::staged::StagedSettings;
use crate::syntax::Span;

/// Runs experiments on puzzles.
pub(super) struct PuzzleRunner;

impl Runner for PuzzleRunner {
    fn runs(&self, exp: &Experiment) -> bool {
        exp.game.kind == Kind::Puzzle
    }

    fn run(&self, run: &PreparedRun) -> Result<RunReport, Vec<Diagnostic>> {
        run.exp.game.run_puzzle("evolution by solving", OnPuzzle(run)).map_err(unsupported)?
    }
}

/// The run on the puzzle the registry finds.
struct OnPuzzle<'a>(&'a PreparedRun);

impl PuzzleTask for OnPuzzle<'_> {
    type Output = Result<RunReport, Vec<Diagnostic>>;
    fn run<
        G: GpDomain + Puzzle<State: Hash + Eq + Send + Sync + 'static, Move: Send + Sync + 'static> + Send + 'static,
    >(
        self,
        game: G,
    ) -> Self::Output {
        run_puzzle(game, self.0)
    }
}

/// On a puzzle, validation solves `games` puzzles (the opponent plays no
/// part; lowering refuses validation on a puzzle, so a checked experiment
/// never reaches it), and Hillis coevolution evolves hard puzzles
/// (src/evolve/hard_puzzles.rs).
impl<G> RunFitness for PuzzleFitness<G>
where
    G: Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync> + Sync,
{
    type Problem = HardPuzzle<G::State>;

    fn validate(&self, candidates: &[(u64, &Genome)], _: &Opponent, games: u32, round: u64, seed: u64) -> Vec<f64> {
        PuzzleFitness::validate(self, candidates, games, round, seed)
    }

    fn initial_problems(&self, h: &HillisSpec, seed: u64) -> Result<Vec<Self::Problem>, Vec<Diagnostic>> {
        hard_puzzles::initial_problems(self, h, seed)
    }

    fn coevolve(
        &self,
        engine: &Engine,
        state: &State,
        h: &HillisSpec,
        problems: &mut Vec<Self::Problem>,
        seed: u64,
    ) -> Option<(State, GenerationStats, Evaluation)> {
        hard_puzzles::coevolve(self, engine, state, h, problems, seed)
    }

    fn save_problems(&self, problems: &[Self::Problem]) -> SavedProblems {
        hard_puzzles::save(self.game(), problems)
    }

    fn load_problems(&self, h: &HillisSpec, saved: SavedProblems) -> Result<Vec<Self::Problem>, String> {
        hard_puzzles::load(self, h, saved)
    }

    fn problems_file(&self, name: &str, generation: u64, problems: &[Self::Problem]) -> Option<String> {
        Some(hard_puzzles::boards_text(self.game(), name, generation, problems))
    }
}

/// A run on a puzzle: programs guide IDA* on the experiment's training
/// puzzles (`(solve N)`, src/evolve/puzzle_fitness.rs).
fn run_puzzle<G>(game: G, run: &PreparedRun) -> Result<RunReport, Vec<Diagnostic>>
where
    G: GpDomain + Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync> + Sync,
{
    let (exp, opts) = (&run.exp, &run.opts);
    let ps: &PrimSet = run.primset();
    let binding = Arc::new(Binding::for_search(&game, ps)?);
    let source = exp.puzzles.as_ref().ok_or_else(|| {
        vec![Diagnostic::error("stratagem::experiment::puzzle", "the experiment names no training puzzles")]
    })?;
    let puzzles: Vec<_> = match &source.numbered {
        Some(numbered) => {
            let puzzles = numbered_instances(&game, numbered, exp.file, source.span)?;
            write_deal_split(numbered, &opts.out)?;
            puzzles
        }
        None => {
            let (file, text) = source.loaded.clone().ok_or_else(|| {
                vec![Diagnostic::error(
                    "stratagem::experiment::puzzle",
                    format!("the puzzles file `{}` was not read", source.path),
                )]
            })?;
            let all = parse_instances(&game, file, &text)?;
            all.into_iter().enumerate().filter(|(i, p)| source.keeps(*i, p.optimal_cost)).map(|(_, p)| p).collect()
        }
    };
    if puzzles.is_empty() {
        return Err(vec![
            Diagnostic::error(
                "stratagem::experiment::puzzle",
                format!("no puzzle of `{}` passes the experiment's selection", source.path),
            )
            .at(exp.file, source.span, "no training puzzle")
            .with_help("widen `(every K O)` or `(lengths MIN MAX)`"),
        ]);
    }
    let per_generation = exp
        .fitness
        .iter()
        .find_map(|p| match p {
            FitnessPart::Solve(n) => Some(*n as usize),
            _ => None,
        })
        .unwrap_or(10);
    let slot = exp.trees().iter().position(|(n, _)| n == "eval");
    let programs = NodePrograms {
        ps: Arc::new(ps.clone()),
        binding,
        rep: exp.representation.clone(),
        eval_slot: slot.unwrap_or(0),
        engine: exp.engine,
    };
    let numbers = source.numbered.map(|n| n.training_numbers());
    let fitness = PuzzleFitness::new(
        game,
        programs,
        puzzles,
        per_generation,
        source.max_nodes,
        StagedSettings { depth: source.stage_depth, ..StagedSettings::default() },
    );
    match (exp.hillis().map(|h| h.deal_sets), numbers) {
        (Some(None), Some(_)) => Err(vec![
            Diagnostic::error(
                "stratagem::experiment::hillis",
                "numbered training puzzles coevolve as deal sets, which `(hillis ...)` does not set up",
            )
            .at(exp.file, source.span, "numbered puzzles")
            .with_help("add (deals K) to (hillis ...): each problem is K training deals (GA-FreeCell: (deals 6))"),
        ]),
        (None | Some(None), _) => run_generations(&fitness, run),
        (Some(Some(spec)), Some(numbers)) => {
            let fitness = DealSetFitness { inner: fitness, numbers, spec };
            run_generations(&fitness, run)
        }
        (Some(Some(_)), None) => Err(vec![
            Diagnostic::error(
                "stratagem::experiment::hillis",
                "deal sets `(hillis (deals K) ...)` are sets of numbered training puzzles",
            )
            .at(exp.file, source.span, "a file of puzzles")
            .with_help("name the training puzzles with (puzzles (numbered FIRST LAST) (training K) (seed S))"),
        ]),
    }
}

/// GA-FreeCell's coevolution: the problems are sets of training deals
/// (src/evolve/deal_sets.rs); validation is the plain puzzle fitness's.
impl<G> RunFitness for DealSetFitness<G>
where
    G: Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync> + Sync,
{
    type Problem = DealSet;

    fn validate(&self, candidates: &[(u64, &Genome)], _: &Opponent, games: u32, round: u64, seed: u64) -> Vec<f64> {
        self.inner.validate(candidates, games, round, seed)
    }

    fn initial_problems(&self, h: &HillisSpec, seed: u64) -> Result<Vec<DealSet>, Vec<Diagnostic>> {
        Ok(self.initial(h, seed))
    }

    fn coevolve(
        &self,
        engine: &Engine,
        state: &State,
        h: &HillisSpec,
        problems: &mut Vec<DealSet>,
        seed: u64,
    ) -> Option<(State, GenerationStats, Evaluation)> {
        DealSetFitness::coevolve(self, engine, state, h, problems, seed)
    }

    fn save_problems(&self, problems: &[DealSet]) -> SavedProblems {
        self.save(problems)
    }

    fn load_problems(&self, _: &HillisSpec, saved: SavedProblems) -> Result<Vec<DealSet>, String> {
        self.load(saved)
    }

    fn problems_file(&self, _: &str, _: u64, _: &[DealSet]) -> Option<String> {
        None
    }
}

/// Writes the run's training deals and the rest of the range, its test
/// set, as deal lists (the same every time for one experiment).
fn write_deal_split(numbered: &Numbered, out: &Path) -> Result<(), Vec<Diagnostic>> {
    let training = numbered.training_numbers();
    let mut drawn = training.iter().peekable();
    let test: Vec<u32> = (numbered.first..=numbered.last)
        .filter(|n| {
            while drawn.next_if(|&&d| d < *n).is_some() {}
            drawn.peek() != Some(&n)
        })
        .collect();
    std::fs::create_dir_all(out).map_err(|e| io_error("create", out, e))?;
    for (name, numbers) in [(output::TRAINING_DEALS_FILE, &training), (output::TEST_DEALS_FILE, &test)] {
        let path = out.join(name);
        output::write_output(&path, output::deal_list(numbers).as_bytes()).map_err(|e| io_error("write", &path, e))?;
    }
    Ok(())
}

/// The training instances `numbered` draws ([`Numbered::training_numbers`]),
/// refused when the puzzle has no instance of one of the numbers.
fn numbered_instances<G: Puzzle>(
    game: &G,
    numbered: &Numbered,
    file: FileId,
    span: Span,
) -> Result<Vec<Instance<G::State>>, Vec<Diagnostic>> {
    numbered
        .training_numbers()
        .into_iter()
        .map(|n| {
            game.numbered_instance(n).map(|state| Instance { state, optimal_cost: None }).ok_or_else(|| {
                vec![
                    Diagnostic::error(
                        "stratagem::experiment::puzzle",
                        format!("the puzzle has no instance numbered {n}"),
                    )
                    .at(file, span, "numbered instances")
                    .with_help("numbered instances are for puzzles with numbered deals (FreeCell: Microsoft deal numbers); give a file of puzzles instead"),
                ]
            })
        })
        .collect()
}
