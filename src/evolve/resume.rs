//! Resuming a run: reading its checkpoint back and checking that it holds
//! a state of this very run (the text form of what it keeps is
//! `genome_text.rs`'s).

use super::engine::State;
use super::experiment::{ChampionRule, Experiment};
use super::finalists::{FinalRound, Finalist};
use super::genome::{Genome, Representation};
use super::genome_text::{load_neat, parse_genome};
use super::neat::NeatState;
use super::output::{self, Checkpoint, LogRecord, SavedNeat, SavedProblems};
use super::prepared::PreparedRun;
use super::run_fitness::RunFitness;
use crate::diagnostic::Diagnostic;

/// Where a run starts: a fresh population, or a checkpoint's state.
pub(super) struct Start<P> {
    pub(super) state: State,
    /// The problem population (Hillis coevolution), else empty.
    pub(super) problems: Vec<P>,
    pub(super) log: Vec<LogRecord>,
    pub(super) fittest: Option<Genome>,
    pub(super) finalists: Vec<Finalist>,
    pub(super) final_round: Option<FinalRound>,
}

/// A refusal of the checkpoint, its message completed with "; it is not used".
type Refusal = Vec<Diagnostic>;

fn refuse(message: String) -> Refusal {
    vec![
        Diagnostic::error("stratagem::evolve::checkpoint", format!("{message}; it is not used"))
            .with_help("resume with the same experiment file and seed, or start afresh in another --out directory"),
    ]
}

/// Reads the run's checkpoint and checks it holds a state of this very
/// run: every program checks against the primset, the population and the
/// generation fit the experiment. `None` when the directory holds nothing
/// but the run's own outputs: the run was killed before its first
/// checkpoint, and starts afresh.
pub(super) fn resume<F: RunFitness>(
    run: &PreparedRun,
    fitness: &F,
) -> Result<Option<Start<F::Problem>>, Vec<Diagnostic>> {
    let (out, exp) = (&run.opts.out, &run.exp);
    let path = run.checkpoint_path();
    if !out.is_dir() {
        return Err(vec![
            Diagnostic::error(
                "stratagem::evolve::resume",
                format!("`{}` is not the output directory of a run: nothing to resume", out.display()),
            )
            .with_help("start a run with --out DIR, then continue it with --resume DIR"),
        ]);
    }
    output::remove_stale_temporaries(out, &format!("{}.sg", exp.name));
    if std::fs::symlink_metadata(&path).is_err() {
        if output::holds_only_outputs(out, &output::OUTPUT_FILES) {
            eprintln!(
                "note: `{}` holds no checkpoint yet (the run stopped before its first); starting afresh",
                out.display()
            );
            return Ok(None);
        }
        return Err(vec![
            Diagnostic::error(
                "stratagem::evolve::resume",
                format!("`{}` holds no checkpoint (`{}`): nothing to resume", out.display(), path.display()),
            )
            .with_help("start a run with --out DIR, then continue it with --resume DIR"),
        ]);
    }
    let cp = output::load_checkpoint(out).map_err(|e| vec![Diagnostic::error("stratagem::evolve::checkpoint", e)])?;
    let at = path.display().to_string();
    check_fits(&cp, run, &at)?;
    let ps = run.primset();
    let rep = &exp.representation;
    let genome = |what: &str, text: &str| {
        parse_genome(ps, exp.primset, rep, text)
            .map_err(|e| refuse(format!("the checkpoint `{at}` holds {what} that does not check: {e}")))
    };
    let population = cp
        .population
        .iter()
        .enumerate()
        .map(|(i, t)| genome(&format!("a program (population member {i})"), t))
        .collect::<Result<Vec<_>, _>>()?;
    let fittest = cp.champion.as_deref().map(|t| genome("a champion", t)).transpose()?;
    for f in &cp.finalists {
        genome("a finalist", &f.program)?;
    }
    let problems = read_problems(exp, cp.problems, fitness, &at)?;
    let neat = read_neat(run, cp.neat, &at)?;
    Ok(Some(Start {
        state: State { generation: cp.generation, population, neat },
        problems,
        log: cp.log,
        fittest,
        finalists: cp.finalists,
        final_round: cp.final_round,
    }))
}

/// Refuses a checkpoint (at `at`) of another experiment or seed, or one
/// whose generation, population, finalists or final round the experiment
/// does not have.
fn check_fits(cp: &Checkpoint, run: &PreparedRun, at: &str) -> Result<(), Refusal> {
    let exp = &run.exp;
    if cp.experiment != run.fingerprint || cp.seed != exp.seed {
        return Err(refuse(format!("the checkpoint `{at}` was written by another experiment or seed")));
    }
    let total = exp.generations as u64;
    if cp.generation > total {
        return Err(refuse(format!(
            "the checkpoint `{at}` is at generation {}, past the experiment's {total}",
            cp.generation
        )));
    }
    if cp.population.len() != exp.population {
        return Err(refuse(format!(
            "the checkpoint `{at}` holds {} individuals, but the experiment's population is {}",
            cp.population.len(),
            exp.population
        )));
    }
    let (capacity, final_games) = match exp.champion {
        ChampionRule::Last | ChampionRule::RoundRobin { .. } => (0, 0),
        ChampionRule::Validate { finalists, final_games, .. } => (finalists, final_games),
    };
    if cp.finalists.len() > capacity {
        return Err(refuse(format!(
            "the checkpoint `{at}` holds {} finalists, but the experiment keeps {capacity}",
            cp.finalists.len()
        )));
    }
    if let Some(round) = &cp.final_round
        && (cp.generation < total || round.games != final_games)
    {
        return Err(refuse(format!("the checkpoint `{at}` holds a final round the experiment does not play")));
    }
    Ok(())
}

/// The problem population the checkpoint kept, if the experiment coevolves one.
fn read_problems<F: RunFitness>(
    exp: &Experiment,
    saved: Option<SavedProblems>,
    fitness: &F,
    at: &str,
) -> Result<Vec<F::Problem>, Refusal> {
    match (exp.hillis(), saved) {
        (None, None) => Ok(Vec::new()),
        (Some(h), Some(problems)) => {
            if problems.len() != h.problems {
                return Err(refuse(format!(
                    "the checkpoint `{at}` holds {} problems, but the experiment's problem population is {}",
                    problems.len(),
                    h.problems
                )));
            }
            fitness.load_problems(&h, problems).map_err(|e| refuse(format!("the checkpoint `{at}` holds {e}")))
        }
        (Some(_), None) => {
            Err(refuse(format!("the checkpoint `{at}` holds no problems, but the experiment coevolves them")))
        }
        (None, Some(_)) => Err(refuse(format!("the checkpoint `{at}` holds problems, but the experiment has none"))),
    }
}

/// NEAT's state the checkpoint kept, if the experiment evolves networks.
fn read_neat(run: &PreparedRun, saved: Option<SavedNeat>, at: &str) -> Result<Option<NeatState>, Refusal> {
    let (ps, exp) = (run.primset(), &run.exp);
    let rep = &exp.representation;
    match (rep, saved) {
        (Representation::Network(_), Some(saved)) => Ok(Some(
            load_neat(saved, |t| parse_genome(ps, exp.primset, rep, t))
                .map_err(|e| refuse(format!("the checkpoint `{at}` holds {e}")))?,
        )),
        (Representation::Network(_), None) => {
            Err(refuse(format!("the checkpoint `{at}` holds no species, but the experiment evolves networks")))
        }
        (_, Some(_)) => {
            Err(refuse(format!("the checkpoint `{at}` holds species, but the experiment evolves no networks")))
        }
        (_, None) => Ok(None),
    }
}
