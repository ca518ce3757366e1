//! Running an experiment: the generational loop with a progress bar, the log,
//! the plot, a checkpoint after every generation, resumption, and champions.
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

use std::hash::Hash;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use super::champion::{Ending, Outputs, write_final_champion};
use super::duel_run::run_duels;
use super::engine::Fitness;
use super::engine::ProblemStats;
use super::engine::{Engine, EngineParams, Evaluation, GenerationStats, MonitorStats, State, Validation};
use super::experiment::{ChampionRule, Experiment, HillisSpec, Opponent};
use super::finalists::{self, FinalRound, Finalist};
use super::game_fitness::{EvolvedPrograms, GameFitness, MatchSettings};
use super::genome::{Genome, Representation};
use super::hillis::{self, Scores};
use super::init::Builder;
use super::openings::{self, Coevolution, Opening};
use super::output::{self, BOARDS_FILE, CHECKPOINT_FORMAT, Checkpoint, LogRecord, SavedProblems};
use super::puzzle_run::run_puzzle;
use super::resume::{Start, genome_text, resume, save_neat};
use super::select;
use crate::cluster;
use crate::diagnostic::Diagnostic;
use crate::games::Puzzle;
use crate::games::domain::{Binding, GpDomain, GpGame};
use crate::games::duel::NamedPlayers;
use crate::games::registry::{DuelTask, GameTask, Kind, PuzzleTask, TwoPlayerTask};
use crate::lang::{Module, PrimSet};
use crate::search::sampled::SampledParams;
use crate::syntax::Sexp;

pub struct RunOptions {
    pub out: PathBuf,
    pub resume: bool,
    /// Stop after this many generations in this invocation (to run in chunks;
    /// `--resume` continues).
    pub stop_after: Option<usize>,
    pub progress: bool,
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

pub(super) fn io_error(what: &str, path: &Path, e: impl std::fmt::Display) -> Vec<Diagnostic> {
    vec![Diagnostic::error("stratagem::evolve::io", format!("cannot {what} `{}`: {e}", path.display()))]
}

/// A fingerprint of the experiment text and seed: a checkpoint is resumed only
/// by the experiment that wrote it.
pub fn fingerprint(form: &Sexp, seed: u64) -> String {
    let text = format!("{form} seed={seed}");
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Runs experiment `exp` (whose form is `form`, defined in `module`).
/// `primset_import` is what a champion writes to import its primset:
/// `(import NAME)` for a shipped one, or `(import "PATH")` relative to the champions folder.
pub fn run_experiment(
    module: &Module,
    form: &Sexp,
    exp: &Experiment,
    primset_import: &PrimsetImport,
    opts: &RunOptions,
) -> Result<RunReport, Vec<Diagnostic>> {
    struct Run<'a> {
        module: &'a Module,
        form: &'a Sexp,
        exp: &'a Experiment,
        primset_import: &'a PrimsetImport,
        opts: &'a RunOptions,
    }
    impl TwoPlayerTask for Run<'_> {
        type Output = Result<RunReport, Vec<Diagnostic>>;
        fn run<G: GpGame>(self, game: G) -> Self::Output {
            run_game(game, self.module, self.form, self.exp, self.primset_import, self.opts)
        }
    }
    impl PuzzleTask for Run<'_> {
        type Output = Result<RunReport, Vec<Diagnostic>>;
        fn run<
            G: GpDomain + Puzzle<State: Hash + Eq + Send + Sync + 'static, Move: Send + Sync + 'static> + Send + 'static,
        >(
            self,
            game: G,
        ) -> Self::Output {
            run_puzzle(game, self.module, self.form, self.exp, self.primset_import, self.opts)
        }
    }
    impl DuelTask for Run<'_> {
        type Output = Result<RunReport, Vec<Diagnostic>>;
        fn run<G: NamedPlayers + Send + 'static>(self, game: G) -> Self::Output {
            run_duels(game, self.module, self.form, self.exp, self.primset_import, self.opts)
        }
    }
    if exp.game.kind == Kind::General
        && let Some(spec) = exp.cca()
    {
        return exp.game.run(SampledCca { spec, source: (module, form), exp, primset_import, opts });
    }
    let task = Run { module, form, exp, primset_import, opts };
    let ran = match exp.game.kind {
        Kind::Puzzle => exp.game.run_puzzle("evolution by solving", task),
        Kind::Observed => exp.game.run_duel("evolution by duels", task),
        _ => exp.game.run_two_player("evolution by games", task),
    };
    ran.map_err(|e| vec![e.diagnostic("stratagem::experiment::game")])?
}

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

fn run_game<G>(
    game: G,
    module: &Module,
    form: &Sexp,
    exp: &Experiment,
    primset_import: &PrimsetImport,
    opts: &RunOptions,
) -> Result<RunReport, Vec<Diagnostic>>
where
    G: GpGame,
{
    let ps: &PrimSet = module.primset(exp.primset);
    let binding = Arc::new(Binding::new(&game, ps)?);
    let rep = exp.representation.clone();
    let slot = |name: &str| exp.trees().iter().position(|(n, _)| n == name);
    let programs = EvolvedPrograms {
        ps: Arc::new(ps.clone()),
        binding,
        rep,
        eval_slot: slot("eval").unwrap_or(0),
        order_slot: if exp.player.is_selective() { slot("order") } else { None },
    };
    let settings = MatchSettings {
        player: exp.player,
        parts: exp.fitness.clone(),
        match_games: exp.match_games,
        engine: exp.engine,
    };
    let fitness = GameFitness::new(game, programs, settings);
    if let Some(spec) = exp.cca() {
        return super::cca_run::run_cca(&fitness, spec, (module, form), exp, primset_import, opts);
    }
    run_generations(&fitness, module, form, exp, primset_import, opts)
}

/// Covering coevolution on a game of two roles that are not played in
/// turns (a GDL game, run through the registry): games by the sampled
/// search (`cca_sampled.rs`).
struct SampledCca<'a> {
    spec: super::experiment::CcaSpec,
    source: (&'a Module, &'a Sexp),
    exp: &'a Experiment,
    primset_import: &'a PrimsetImport,
    opts: &'a RunOptions,
}

impl GameTask for SampledCca<'_> {
    type Output = Result<RunReport, Vec<Diagnostic>>;
    fn run<G: GpDomain + Send + 'static>(self, game: G) -> Self::Output
    where
        G::State: Send + Sync + 'static,
        G::Move: Send + Sync + 'static,
    {
        let SampledCca { spec, source, exp, primset_import, opts } = self;
        let ps: &PrimSet = source.0.primset(exp.primset);
        let binding = Arc::new(Binding::new(&game, ps)?);
        let games = super::cca_sampled::SampledGames {
            game,
            ps: Arc::new(ps.clone()),
            binding,
            rep: exp.representation.clone(),
            eval_slot: exp.trees().iter().position(|(n, _)| n == "eval").unwrap_or(0),
            params: SampledParams { depth: exp.player.depth, samples: exp.player.samples },
            engine: exp.engine,
            fallbacks: std::sync::Mutex::new(Vec::new()),
        };
        super::cca_run::run_cca(&games, spec, source, exp, primset_import, opts)
    }
}

/// The generational loop of any run, with its checkpoints, log, plot and
/// champion, over the run's fitness.
pub(super) fn run_generations<F: RunFitness>(
    fitness: &F,
    module: &Module,
    form: &Sexp,
    exp: &Experiment,
    primset_import: &PrimsetImport,
    opts: &RunOptions,
) -> Result<RunReport, Vec<Diagnostic>> {
    let ps: &PrimSet = module.primset(exp.primset);
    let rep = exp.representation.clone();
    let hillis = exp.hillis();
    let engine = engine_of(ps, exp, exp.seed)?;
    let print = fingerprint(form, exp.seed);
    let total = exp.generations as u64;
    let cp_path = output::checkpoint_path(&opts.out);
    let writes_before = output::writes();

    // The checkpoint is the source of truth: it is written first, and the
    // log, the plot, final.json and the champion are derived from it. A
    // resumed run rewrites whichever of them a kill left stale or missing
    // (each only if it differs), so any kill followed by --resume gives the
    // uninterrupted run's files.
    let snapshot = |state: &State,
                    problems: &[F::Problem],
                    log: &[LogRecord],
                    fittest: &Option<Genome>,
                    finalists: &[Finalist],
                    round: Option<&FinalRound>| Checkpoint {
        format: CHECKPOINT_FORMAT,
        experiment: print.clone(),
        seed: exp.seed,
        generation: state.generation,
        population: state
            .population
            .iter()
            .enumerate()
            .map(|(i, g)| genome_text(g, &format!("g{i}"), ps, &rep))
            .collect(),
        log: log.to_vec(),
        champion: fittest.as_ref().map(|g| genome_text(g, "champion", ps, &rep)),
        finalists: finalists.to_vec(),
        final_round: round.cloned(),
        problems: hillis.is_some().then(|| fitness.save_problems(problems)),
        neat: state.neat.as_ref().map(|n| save_neat(n, ps, &rep)),
    };
    let save = |cp: &Checkpoint| output::save_checkpoint(&opts.out, cp).map_err(|e| io_error("write", &cp_path, e));
    let derive = |log: &[LogRecord], problems: &[F::Problem]| -> Result<(), Vec<Diagnostic>> {
        output::write_log(&opts.out, log).map_err(|e| io_error("write the log in", &opts.out, e))?;
        let plot = opts.out.join("fitness.svg");
        output::write_plot(&opts.out, &exp.name, log).map_err(|e| io_error("write", &plot, e))?;
        let text = hillis.and_then(|_| fitness.problems_file(&exp.name, log.len() as u64, problems));
        if let Some(text) = text {
            let boards = opts.out.join(BOARDS_FILE);
            output::write_output(&boards, text.as_bytes()).map_err(|e| io_error("write", &boards, e))?;
        }
        Ok(())
    };

    // Under MPI every rank reads the output directory before rank 0 writes
    // to it, and every rank has its start before the first generation.
    let existed = cp_path.exists();
    cluster::barrier();
    let resumed = if opts.resume { resume(&opts.out, &print, exp, ps, &rep, fitness)? } else { None };
    let was_complete = resumed.as_ref().is_some_and(|r| r.state.generation >= total);
    let Start { mut state, mut problems, mut log, mut fittest, mut finalists, final_round } = match resumed {
        Some(start) => {
            derive(&start.log, &start.problems)?;
            start
        }
        None => {
            if !opts.resume && existed {
                return Err(vec![
                    Diagnostic::error(
                        "stratagem::evolve::exists",
                        format!("`{}` already holds a run; it is left untouched", opts.out.display()),
                    )
                    .with_help("continue it with --resume, or choose another --out directory"),
                ]);
            }
            let problems = match &hillis {
                Some(h) => fitness.initial_problems(h, exp.seed)?,
                None => Vec::new(),
            };
            std::fs::create_dir_all(&opts.out).map_err(|e| io_error("create", &opts.out, e))?;
            let state = engine.initial_with(&exp.founders);
            save(&snapshot(&state, &problems, &[], &None, &[], None))?;
            Start { state, problems, log: Vec::new(), fittest: None, finalists: Vec::new(), final_round: None }
        }
    };
    if !cluster::agrees(&(&print, state.generation, log.len())) {
        return Err(vec![
            Diagnostic::error(
                "stratagem::evolve::ranks",
                "this rank of the MPI job read another experiment, seed or checkpoint than rank 0",
            )
            .with_help("every rank must see the same experiment file and output directory (a shared file system)"),
        ]);
    }
    cluster::barrier();

    let bar = if opts.progress { ProgressBar::new(total) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{spinner} gen {pos}/{len} [{bar:30}] {msg} ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_position(state.generation);
    let mut done_here = 0;
    while state.generation < total && opts.stop_after.is_none_or(|n| done_here < n) {
        let clock = Instant::now();
        let (next, mut stats, eval) = match &hillis {
            None => engine.step(&state, fitness),
            Some(h) => fitness
                .coevolve(&engine, &state, h, &mut problems, exp.seed)
                .ok_or_else(|| io_error("run", &opts.out, "coevolution scored nothing"))?,
        };
        fittest = state.population.get(stats.best_index).cloned();
        if let Some(best) = &fittest {
            stats.monitor = fitness.monitor(best, state.generation, exp.seed);
        }
        if let ChampionRule::Validate { opponent, games, top, finalists: capacity, .. } = exp.champion {
            let candidates = select::elite(&eval.fitness, top);
            let genomes = candidate_genomes(&state, &candidates);
            let points = fitness.validate(&genomes, &opponent, games, state.generation, exp.seed);
            offer_finalists(&mut finalists, capacity, &state, &candidates, &points, (ps, &rep));
            stats.validation = Some(Validation { candidates, points, games });
        }
        let seconds = clock.elapsed().as_secs_f64();
        let games_per_s = if seconds > 0.0 { stats.games as f64 / seconds } else { 0.0 };
        bar.set_message(format!("best {:.2} mean {:.2} {:.0} games/s", stats.best, stats.mean, games_per_s));
        log.push(LogRecord { stats, seconds, games_per_s });
        state = next;
        done_here += 1;
        bar.set_position(state.generation);
        save(&snapshot(&state, &problems, &log, &fittest, &finalists, None))?;
        derive(&log, &problems)?;
    }
    bar.finish_and_clear();
    let finished = state.generation >= total;
    let record_round = |round: &FinalRound| save(&snapshot(&state, &problems, &log, &fittest, &finalists, Some(round)));
    let champion_path = if finished {
        let (mut chosen, mut origin) = (None, None);
        if let ChampionRule::RoundRobin { .. } = exp.champion
            && let Some((i, how)) = fitness.final_choice(&state.population, exp.seed)
        {
            chosen = state.population.get(i);
            origin = Some(how);
        }
        let fittest = chosen.or(fittest.as_ref());
        let ending = Ending { log: &log, fittest, finalists: &finalists, final_round, origin };
        write_final_champion(&Outputs { exp, ps, rep: &rep, primset_import, opts }, fitness, ending, &record_round)?
    } else {
        None
    };
    let already_complete = was_complete && output::writes() == writes_before;
    Ok(RunReport { log, finished, champion: champion_path, already_complete, notes: Vec::new() })
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

/// Where a champion finds its primset.
pub enum PrimsetImport {
    /// A primset shipped with Stratagem: `(import NAME)`.
    Library,
    /// A primset defined in this file.
    File(PathBuf),
}

/// The engine of an experiment's population, its random streams seeded by
/// `seed` (the experiment's, or one per role under covering coevolution).
pub(super) fn engine_of<'p>(ps: &'p PrimSet, exp: &Experiment, seed: u64) -> Result<Engine<'p>, Vec<Diagnostic>> {
    let builder = Builder::with_introns(ps, &exp.representation.needed_types(), exp.introns)
        .map_err(|d| vec![d])?
        .with_max_size(exp.variation.max_size);
    let params = EngineParams {
        population: exp.population,
        generations: exp.generations,
        crossover: exp.crossover,
        mutation: exp.mutation,
        selection: exp.selection,
        elitism: exp.elitism,
        seed,
        variation: exp.variation,
        erc_mutation: exp.erc_mutation,
        islands: exp.islands,
    };
    Ok(Engine::new(params, exp.representation.clone(), builder))
}
