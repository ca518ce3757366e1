//! The generational loop of a run on one population, over any
//! [`RunFitness`]: a progress bar, the log, the plot, a checkpoint after
//! every generation, resumption, validation and the champion.
//!
//! A checkpoint holds the population at the start of the next generation and
//! the log so far. Since every random decision is named by (seed, generation,
//! ...), continuing from it gives exactly the run an uninterrupted process
//! would have given.
//!
//! Write order, so that a kill anywhere loses nothing: a fresh run writes
//! its generation-0 checkpoint first; each generation writes the checkpoint,
//! then the log, timing and plot derived from it; after the last, the final
//! round (if any) goes into the checkpoint before final.json and the
//! champion are written. `--resume` rewrites every derived file from the
//! checkpoint (only those that differ) before it goes on.

use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use super::champion::{Ending, write_final_champion};
use super::engine::{Engine, State, Validation};
use super::experiment::{ChampionRule, HillisSpec};
use super::finalists::{self, FinalRound, Finalist};
use super::genome::{Genome, Representation};
use super::genome_text::{genome_text, save_neat};
use super::output::{self, BOARDS_FILE, CHECKPOINT_FORMAT, Checkpoint, LogRecord, io_error};
use super::prepared::PreparedRun;
use super::resume::{Start, resume};
use super::run_fitness::RunFitness;
use super::runner::RunReport;
use super::select;
use crate::cluster;
use crate::diagnostic::Diagnostic;
use crate::lang::PrimSet;

/// Runs the generations of `run` on `fitness`, with their checkpoints,
/// log, plot and champion.
pub(super) fn run_generations<F: RunFitness>(fitness: &F, run: &PreparedRun) -> Result<RunReport, Vec<Diagnostic>> {
    let exp = &run.exp;
    let ps = run.primset();
    let engine = exp.population_engine(ps, exp.seed)?;
    let loop_ = Generations { fitness, run, ps, rep: &exp.representation, hillis: exp.hillis() };
    let writes_before = output::writes();
    let (mut at, was_complete) = loop_.start(&engine)?;
    if !cluster::agrees(&(&run.fingerprint, at.state.generation, at.log.len())) {
        return Err(vec![
            Diagnostic::error(
                "stratagem::evolve::ranks",
                "this rank of the MPI job read another experiment, seed or checkpoint than rank 0",
            )
            .with_help("every rank must see the same experiment file and output directory (a shared file system)"),
        ]);
    }
    cluster::barrier();
    loop_.run_until_stop(&engine, &mut at)?;
    let finished = at.state.generation >= loop_.total();
    let champion = if finished { loop_.champion(&mut at)? } else { None };
    let already_complete = was_complete && output::writes() == writes_before;
    Ok(RunReport { log: at.log, finished, champion, already_complete, notes: Vec::new() })
}

/// One run's generational loop: what every step reads.
struct Generations<'a, F: RunFitness> {
    fitness: &'a F,
    run: &'a PreparedRun,
    ps: &'a PrimSet,
    rep: &'a Representation,
    hillis: Option<HillisSpec>,
}

impl<F: RunFitness> Generations<'_, F> {
    fn total(&self) -> u64 {
        self.run.exp.generations as u64
    }

    /// The checkpoint of the run at `at`, with the final round `round` if one was played.
    ///
    /// The checkpoint is the source of truth: it is written first, and the
    /// log, the plot, final.json and the champion are derived from it. A
    /// resumed run rewrites whichever of them a kill left stale or missing
    /// (each only if it differs), so any kill followed by --resume gives the
    /// uninterrupted run's files.
    fn snapshot(&self, at: &Start<F::Problem>, round: Option<&FinalRound>) -> Checkpoint {
        let (ps, rep) = (self.ps, self.rep);
        Checkpoint {
            format: CHECKPOINT_FORMAT,
            experiment: self.run.fingerprint.clone(),
            seed: self.run.exp.seed,
            generation: at.state.generation,
            population: at
                .state
                .population
                .iter()
                .enumerate()
                .map(|(i, g)| genome_text(g, &format!("g{i}"), ps, rep))
                .collect(),
            log: at.log.to_vec(),
            champion: at.fittest.as_ref().map(|g| genome_text(g, "champion", ps, rep)),
            finalists: at.finalists.to_vec(),
            final_round: round.cloned(),
            problems: self.hillis.is_some().then(|| self.fitness.save_problems(&at.problems)),
            neat: at.state.neat.as_ref().map(|n| save_neat(n, ps, rep)),
        }
    }

    fn save(&self, cp: &Checkpoint) -> Result<(), Vec<Diagnostic>> {
        let text = output::checkpoint_text(cp).map_err(|e| io_error("write", &self.run.checkpoint_path(), e))?;
        self.run.write_checkpoint(&text)
    }

    /// Writes the log, the plot and the problems file derived from the checkpoint.
    fn derive(&self, log: &[LogRecord], problems: &[F::Problem]) -> Result<(), Vec<Diagnostic>> {
        let (out, name) = (&self.run.opts.out, &self.run.exp.name);
        output::write_log(out, log).map_err(|e| io_error("write the log in", out, e))?;
        let plot = out.join("fitness.svg");
        output::write_plot(out, name, log).map_err(|e| io_error("write", &plot, e))?;
        let text = self.hillis.and_then(|_| self.fitness.problems_file(name, log.len() as u64, problems));
        if let Some(text) = text {
            let boards = out.join(BOARDS_FILE);
            output::write_output(&boards, text.as_bytes()).map_err(|e| io_error("write", &boards, e))?;
        }
        Ok(())
    }

    /// Where the loop starts: the checkpoint's state on `--resume` (its
    /// derived files rewritten), else generation 0, whose checkpoint is
    /// written first; and whether the resumed run was already complete.
    /// Under MPI every rank reads the output directory before rank 0
    /// writes to it.
    fn start(&self, engine: &Engine) -> Result<(Start<F::Problem>, bool), Vec<Diagnostic>> {
        let (exp, opts) = (&self.run.exp, &self.run.opts);
        let existed = self.run.checkpoint_path().exists();
        cluster::barrier();
        let resumed = if opts.resume { resume(self.run, self.fitness)? } else { None };
        let was_complete = resumed.as_ref().is_some_and(|r| r.state.generation >= self.total());
        if let Some(start) = resumed {
            self.derive(&start.log, &start.problems)?;
            return Ok((start, was_complete));
        }
        if !opts.resume && existed {
            return Err(vec![
                Diagnostic::error(
                    "stratagem::evolve::exists",
                    format!("`{}` already holds a run; it is left untouched", opts.out.display()),
                )
                .with_help("continue it with --resume, or choose another --out directory"),
            ]);
        }
        let problems = match &self.hillis {
            Some(h) => self.fitness.initial_problems(h, exp.seed)?,
            None => Vec::new(),
        };
        std::fs::create_dir_all(&opts.out).map_err(|e| io_error("create", &opts.out, e))?;
        let state = engine.initial_with(&exp.founders);
        let start = Start { state, problems, log: Vec::new(), fittest: None, finalists: Vec::new(), final_round: None };
        self.save(&self.snapshot(&start, None))?;
        Ok((start, was_complete))
    }

    /// Runs generations until the last, or until `--stop-after` of them in
    /// this invocation, each followed by its checkpoint and derived files.
    fn run_until_stop(&self, engine: &Engine, at: &mut Start<F::Problem>) -> Result<(), Vec<Diagnostic>> {
        let opts = &self.run.opts;
        let bar = progress_bar(opts.progress, self.total());
        bar.set_position(at.state.generation);
        let mut done_here = 0;
        while at.state.generation < self.total() && opts.stop_after.is_none_or(|n| done_here < n) {
            let record = self.generation(engine, at)?;
            bar.set_message(format!(
                "best {:.2} mean {:.2} {:.0} games/s",
                record.stats.best, record.stats.mean, record.games_per_s
            ));
            at.log.push(record);
            done_here += 1;
            bar.set_position(at.state.generation);
            self.save(&self.snapshot(at, None))?;
            self.derive(&at.log, &at.problems)?;
        }
        bar.finish_and_clear();
        Ok(())
    }

    /// One generation: scored and bred (against the problems, under Hillis
    /// coevolution), its best monitored and its elite validated; `at`
    /// moves on to the next population, and the generation's log record
    /// is returned.
    fn generation(&self, engine: &Engine, at: &mut Start<F::Problem>) -> Result<LogRecord, Vec<Diagnostic>> {
        let (exp, fitness) = (&self.run.exp, self.fitness);
        let clock = Instant::now();
        let (next, mut stats, eval) = match &self.hillis {
            None => engine.step(&at.state, fitness),
            Some(h) => fitness
                .coevolve(engine, &at.state, h, &mut at.problems, exp.seed)
                .ok_or_else(|| io_error("run", &self.run.opts.out, "coevolution scored nothing"))?,
        };
        let state = &at.state;
        at.fittest = state.population.get(stats.best_index).cloned();
        if let Some(best) = &at.fittest {
            stats.monitor = fitness.monitor(best, state.generation, exp.seed);
        }
        if let ChampionRule::Validate { opponent, games, top, finalists: capacity, .. } = exp.champion {
            let candidates = select::elite(&eval.fitness, top);
            let genomes = candidate_genomes(state, &candidates);
            let points = fitness.validate(&genomes, &opponent, games, state.generation, exp.seed);
            offer_finalists(&mut at.finalists, capacity, state, &candidates, &points, (self.ps, self.rep));
            stats.validation = Some(Validation { candidates, points, games });
        }
        let seconds = clock.elapsed().as_secs_f64();
        let games_per_s = if seconds > 0.0 { stats.games as f64 / seconds } else { 0.0 };
        at.state = next;
        Ok(LogRecord { stats, seconds, games_per_s })
    }

    /// The champion of the finished run at `at`, chosen by the experiment's
    /// rule (or by the fitness, a round robin of duels) and written.
    fn champion(&self, at: &mut Start<F::Problem>) -> Result<Option<PathBuf>, Vec<Diagnostic>> {
        let exp = &self.run.exp;
        let final_round = at.final_round.take();
        let at = &*at;
        let record_round = |round: &FinalRound| self.save(&self.snapshot(at, Some(round)));
        let (mut chosen, mut origin) = (None, None);
        if let ChampionRule::RoundRobin { .. } = exp.champion
            && let Some((i, how)) = self.fitness.final_choice(&at.state.population, exp.seed)
        {
            chosen = at.state.population.get(i);
            origin = Some(how);
        }
        let fittest = chosen.or(at.fittest.as_ref());
        let ending = Ending { log: &at.log, fittest, finalists: &at.finalists, final_round, origin };
        write_final_champion(self.run, self.fitness, ending, &record_round)
    }
}

/// The progress bar of a run of `total` generations (hidden unless `shown`).
fn progress_bar(shown: bool, total: u64) -> ProgressBar {
    let bar = if shown { ProgressBar::new(total) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{spinner} gen {pos}/{len} [{bar:30}] {msg} ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar
}

/// The validated candidates, offered to the run's finalists, from the least
/// fit up, so that the fitter candidate wins a tie.
fn offer_finalists(
    finalists: &mut Vec<Finalist>,
    capacity: usize,
    state: &State,
    candidates: &[usize],
    points: &[f64],
    (ps, rep): (&PrimSet, &Representation),
) {
    let genomes = candidate_genomes(state, candidates);
    for (rank, (&(_, g), &p)) in genomes.iter().zip(points).enumerate().rev() {
        let program = genome_text(g, "finalist", ps, rep);
        finalists::offer(finalists, capacity, Finalist { program, generation: state.generation, rank, points: p });
    }
}

/// The population members at `candidates`, with their indices.
fn candidate_genomes<'a>(state: &'a State, candidates: &[usize]) -> Vec<(u64, &'a Genome)> {
    candidates.iter().filter_map(|&i| state.population.get(i).map(|g| (i as u64, g))).collect()
}
