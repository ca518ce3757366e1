//! Running covering competitive coevolution (`(fitness (cca ...))`): the
//! generations of `cca_generation.rs` on the experiment's game, the log of
//! teacher sets and disengagement, the plot of teacher-set sizes (the
//! paper's figure 3), a champion per role and the measures against random
//! evaluation (`cca_versus.rs`). The games are a [`CcaGame`]'s: α-β on two
//! players taking turns ([`GameFitness`]), or the sampled search on other
//! GDL games (simultaneous moves, more roles: `cca_sampled.rs`).
//!
//! Each role's engine breeds from a seed of its own derived from the
//! run's, so a seed gives the same log at any thread count. After every
//! generation the run writes a checkpoint (checkpoint.json: each role's
//! population, NEAT state and teachers, the dominated role, the log), then
//! the log and plot derived from it; a `--resume` goes on from it and gives
//! the uninterrupted run's files.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::cca::{Teachers, undominated_counts};
use super::cca_game::CcaGame;
use super::cca_generation::{CcaRecord, Coevolution, Teacher};
use super::cca_plot::{Axes, RoleLine, role_lines};
use super::cca_sampled::SampledGames;
use super::cca_versus::{VERSUS_RANDOM, VERSUS_RANDOM_PLOT, versus_random, versus_random_plot};
use super::champion::write_champion;
use super::engine::{Engine, State};
use super::experiment::{CcaSpec, Experiment};
use super::game_fitness::GameFitness;
use super::genome::{Genome, Representation};
use super::genome_text::{genome_text, load_neat, parse_genome, save_neat};
use super::output::{self, SavedNeat, io_error};
use super::prepared::PreparedRun;
use super::runner::{RunReport, Runner, unsupported};
use crate::diagnostic::Diagnostic;
use crate::games::Player;
use crate::games::domain::{Binding, GpDomain, GpGame};
use crate::games::registry::{GameTask, Kind, TwoPlayerTask};
use crate::lang::PrimSet;
use crate::rng::stream;
use crate::search::sampled::SampledParams;

/// Stream purpose of the roles' breeding seeds.
const ROLE_SEED: u64 = 0xcca2;

/// The plot of teacher-set sizes, beside log.jsonl.
pub const TEACHERS_PLOT: &str = "teachers.svg";
/// The end of the run: per role, its teachers and undominated generations.
pub const SUMMARY: &str = "cca.json";

#[derive(Debug, Clone, Serialize)]
struct RoleSummary {
    role: String,
    teachers: usize,
    /// Generations its teacher set was undominated (the paper's figure 6).
    undominated_generations: u64,
    /// When its top-ranked teacher (the champion) joined.
    #[serde(skip_serializing_if = "Option::is_none")]
    top_teacher_generation: Option<u64>,
    /// When each teacher joined, in rank order.
    joined: Vec<u64>,
}

#[derive(Debug, Clone, Serialize)]
struct Summary {
    generations: u64,
    roles: Vec<RoleSummary>,
}

/// The checkpoint's format: a run resumes only its own.
const FORMAT: u32 = 1;

/// The state of a covering run after a generation: all it needs to go on.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CcaCheckpoint {
    cca_format: u32,
    experiment: String,
    seed: u64,
    generation: u64,
    dominated: usize,
    roles: Vec<SavedRole>,
    log: Vec<CcaRecord>,
    /// Per generation, per role: undominated.
    flags: Vec<Vec<bool>>,
    timing: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedRole {
    population: Vec<String>,
    neat: Option<SavedNeat>,
    /// Programs and the generations they joined, in rank order.
    teachers: Vec<(String, u64)>,
}

impl CcaCheckpoint {
    /// Reads a checkpoint's text as `--resume` does before checking it
    /// against the run (the fuzz target `cca_checkpoint` starts here).
    pub fn parse(text: &str) -> Result<CcaCheckpoint, String> {
        serde_json::from_str(text).map_err(|e| format!("is not a checkpoint of covering coevolution ({e})"))
    }

    /// The checkpoint as written.
    pub fn to_text(&self) -> Result<String, String> {
        serde_json::to_string(self).map_err(|e| e.to_string())
    }

    /// The program texts it holds (members, teachers, species'
    /// representatives), which a resumed run parses with its primset.
    pub fn programs(&self) -> impl Iterator<Item = &str> {
        self.roles.iter().flat_map(|role| {
            let members = role.population.iter().map(String::as_str);
            let teachers = role.teachers.iter().map(|(t, _)| t.as_str());
            let species = role.neat.iter().flat_map(|n| n.species.iter().map(|s| s.representative.as_str()));
            members.chain(teachers).chain(species)
        })
    }
}

/// Runs experiments of covering coevolution on games of two or more roles.
pub(super) struct CcaRunner;

impl Runner for CcaRunner {
    fn runs(&self, exp: &Experiment) -> bool {
        exp.cca().is_some() && exp.game.kind != Kind::Puzzle && !exp.game.plays_duels()
    }

    fn run(&self, run: &PreparedRun) -> Result<RunReport, Vec<Diagnostic>> {
        let Some(spec) = run.exp.cca() else { return Err(unsupported_fitness()) };
        if run.exp.game.kind == Kind::General {
            return run.exp.game.run(OnSampled(run, spec));
        }
        run.exp.game.run_two_player("evolution by games", OnAlphaBeta(run, spec)).map_err(unsupported)?
    }
}

/// Never given: the runner runs only experiments of covering coevolution.
fn unsupported_fitness() -> Vec<Diagnostic> {
    vec![Diagnostic::error("stratagem::experiment::fitness", "the experiment's fitness is not covering coevolution")]
}

/// Two players taking turns: games by α-β.
struct OnAlphaBeta<'a>(&'a PreparedRun, CcaSpec);

impl TwoPlayerTask for OnAlphaBeta<'_> {
    type Output = Result<RunReport, Vec<Diagnostic>>;
    fn run<G: GpGame>(self, game: G) -> Self::Output {
        let fitness = GameFitness::for_experiment(game, self.0.primset(), &self.0.exp)?;
        run_cca(&fitness, self.1, self.0)
    }
}

/// A game of two roles that are not played in turns (a GDL game, run
/// through the registry): games by the sampled search (`cca_sampled.rs`).
struct OnSampled<'a>(&'a PreparedRun, CcaSpec);

impl GameTask for OnSampled<'_> {
    type Output = Result<RunReport, Vec<Diagnostic>>;
    fn run<G: GpDomain + Send + 'static>(self, game: G) -> Self::Output
    where
        G::State: Send + Sync + 'static,
        G::Move: Send + Sync + 'static,
    {
        let OnSampled(run, spec) = self;
        let (exp, ps) = (&run.exp, run.primset());
        let binding = Arc::new(Binding::new(&game, ps)?);
        let games = SampledGames {
            game,
            ps: Arc::new(ps.clone()),
            binding,
            rep: exp.representation.clone(),
            eval_slot: exp.trees().iter().position(|(n, _)| n == "eval").unwrap_or(0),
            params: SampledParams { depth: exp.player.depth, samples: exp.player.samples },
            engine: exp.engine,
            fallbacks: Mutex::new(Vec::new()),
        };
        run_cca(&games, spec, run)
    }
}

/// Runs covering coevolution of the prepared run on `fitness`'s game.
fn run_cca<F: CcaGame>(fitness: &F, spec: CcaSpec, run: &PreparedRun) -> Result<RunReport, Vec<Diagnostic>> {
    let (exp, opts) = (&run.exp, &run.opts);
    let from_checkpoint = check_directory(run)?;
    let covering = Covering::new(fitness, run)?;
    let total = exp.generations as u64;
    let mut at = if from_checkpoint { covering.resume()? } else { Progress::fresh(&covering.engines) };
    let first = at.co.states[0].generation;
    let end = opts.stop_after.map_or(total, |k| total.min(first.saturating_add(k as u64)));
    crate::cluster::barrier();
    covering.derive(&at.log, &at.timing)?;
    for generation in first..end {
        covering.generation(spec, generation, &mut at)?;
    }
    if end < total {
        let notes = vec![format!(
            "experiment {} (seed {}): covering coevolution, {end} of {total} generations; stopped early, continue \
             with --resume {}",
            exp.name,
            exp.seed,
            opts.out.display()
        )];
        return Ok(RunReport { log: Vec::new(), finished: false, champion: None, already_complete: false, notes });
    }
    let notes = covering.finish(spec, &at)?;
    Ok(RunReport { log: Vec::new(), finished: true, champion: None, already_complete: false, notes })
}

/// The files a covering run writes.
const CCA_FILES: [&str; 7] =
    ["checkpoint.json", "log.jsonl", "timing.jsonl", SUMMARY, TEACHERS_PLOT, VERSUS_RANDOM, VERSUS_RANDOM_PLOT];

/// Refuses to resume a directory without a checkpoint (unless it holds
/// only what the run writes before its first: then the run starts afresh),
/// or to start afresh in one that holds a run; then makes the directory.
/// Whether the run goes on from its checkpoint. Under MPI every rank has
/// looked at the directory before rank 0 writes.
fn check_directory(run: &PreparedRun) -> Result<bool, Vec<Diagnostic>> {
    let opts = &run.opts;
    let cp_path = run.checkpoint_path();
    let log_path = opts.out.join("log.jsonl");
    let mut from_checkpoint = opts.resume;
    if opts.resume && !cp_path.exists() && output::holds_only_outputs(&opts.out, &CCA_FILES) {
        eprintln!(
            "note: `{}` holds no checkpoint yet (the run stopped before its first); starting afresh",
            opts.out.display()
        );
        from_checkpoint = false;
    } else if opts.resume {
        if !cp_path.exists() {
            return Err(vec![
                Diagnostic::error(
                    "stratagem::evolve::resume",
                    format!(
                        "`{}` holds no checkpoint (`{}`): nothing to resume",
                        opts.out.display(),
                        cp_path.display()
                    ),
                )
                .with_help("start a run with --out DIR, then continue it with --resume DIR"),
            ]);
        }
    } else if log_path.exists() || cp_path.exists() {
        return Err(vec![
            Diagnostic::error(
                "stratagem::evolve::exists",
                format!("`{}` already holds a run; it is left untouched", opts.out.display()),
            )
            .with_help("continue it with --resume, or choose another --out directory"),
        ]);
    }
    std::fs::create_dir_all(&opts.out).map_err(|e| io_error("create", &opts.out, e))?;
    crate::cluster::barrier();
    Ok(from_checkpoint)
}

/// Where a covering run is: the populations and teachers, the log, the
/// undominated flags and the timing lines so far.
struct Progress {
    co: Coevolution,
    log: Vec<CcaRecord>,
    flags: Vec<Vec<bool>>,
    timing: String,
}

impl Progress {
    fn fresh(engines: &[Engine]) -> Progress {
        Progress { co: Coevolution::new(engines), log: Vec::new(), flags: Vec::new(), timing: String::new() }
    }
}

/// A covering run on one game: what every step reads.
struct Covering<'a, F: CcaGame> {
    fitness: &'a F,
    run: &'a PreparedRun,
    ps: &'a PrimSet,
    rep: &'a Representation,
    role_names: Vec<String>,
    /// One engine per role, each with its own breeding seed.
    engines: Vec<Engine<'a>>,
}

impl<'a, F: CcaGame> Covering<'a, F> {
    fn new(fitness: &'a F, run: &'a PreparedRun) -> Result<Covering<'a, F>, Vec<Diagnostic>> {
        let (exp, ps) = (&run.exp, run.primset());
        let roles = fitness.n_roles();
        let role_names: Vec<String> = (0..roles).map(|r| fitness.role_name(r as Player)).collect();
        let mut engines = Vec::new();
        for r in 0..roles {
            engines.push(exp.population_engine(ps, stream(exp.seed, &[ROLE_SEED, r as u64]).random())?);
        }
        Ok(Covering { fitness, run, ps, rep: &exp.representation, role_names, engines })
    }

    fn roles(&self) -> usize {
        self.role_names.len()
    }

    /// Rewrites the log, the timing and the plot derived from the checkpoint.
    fn derive(&self, log: &[CcaRecord], timing: &str) -> Result<(), Vec<Diagnostic>> {
        let out = &self.run.opts.out;
        write_log(out, log, timing)?;
        let plot = out.join(TEACHERS_PLOT);
        let svg = teachers_plot(&self.run.exp.name, &self.role_names, log).map_err(|e| io_error("draw", &plot, e))?;
        output::write_output(&plot, svg.as_bytes()).map_err(|e| io_error("write", &plot, e))?;
        Ok(())
    }

    /// Generation `generation`, then the checkpoint and the files derived from it.
    fn generation(&self, spec: CcaSpec, generation: u64, at: &mut Progress) -> Result<(), Vec<Diagnostic>> {
        let seed = self.run.exp.seed;
        let clock = Instant::now();
        let (record, undominated) =
            at.co.generation(self.fitness, spec, &self.engines, seed, generation, &self.role_names);
        at.flags.push(undominated);
        at.log.push(record);
        let seconds = clock.elapsed().as_secs_f64();
        let games = at.log.last().map_or(0, |r| r.games);
        at.timing.push_str(&format!("{{\"generation\":{generation},\"seconds\":{seconds:.3},\"games\":{games}}}\n"));
        let cp = self.checkpoint(generation + 1, at);
        let text = serde_json::to_string(&cp).map_err(|e| io_error("write", &self.run.checkpoint_path(), e))?;
        self.run.write_checkpoint(&text)?;
        self.derive(&at.log, &at.timing)
    }

    /// The checkpoint of the run at `at`, at the start of generation `generation`.
    fn checkpoint(&self, generation: u64, at: &Progress) -> CcaCheckpoint {
        let (ps, rep, co) = (self.ps, self.rep, &at.co);
        CcaCheckpoint {
            cca_format: FORMAT,
            experiment: self.run.fingerprint.clone(),
            seed: self.run.exp.seed,
            generation,
            dominated: co.teachers.dominated,
            roles: (0..self.roles())
                .map(|r| SavedRole {
                    population: co.states[r]
                        .population
                        .iter()
                        .enumerate()
                        .map(|(i, g)| genome_text(g, &format!("g{i}"), ps, rep))
                        .collect(),
                    neat: co.states[r].neat.as_ref().map(|n| save_neat(n, ps, rep)),
                    teachers: co.teachers.sets[r]
                        .iter()
                        .enumerate()
                        .map(|(k, t)| (genome_text(&t.genome, &format!("t{k}"), ps, rep), t.generation))
                        .collect(),
                })
                .collect(),
            log: at.log.clone(),
            flags: at.flags.clone(),
            timing: at.timing.clone(),
        }
    }

    /// The run as its checkpoint left it, refused unless it is a state of
    /// this very run.
    fn resume(&self) -> Result<Progress, Vec<Diagnostic>> {
        let exp = &self.run.exp;
        let at = self.run.checkpoint_path().display().to_string();
        let refuse = |message: String| {
            vec![
                Diagnostic::error(
                    "stratagem::evolve::checkpoint",
                    format!("the checkpoint `{at}` {message}; it is not used"),
                )
                .with_help("resume with the same experiment file and seed, or start afresh in another --out directory"),
            ]
        };
        let text = self.run.read_checkpoint()?;
        let cp = CcaCheckpoint::parse(&text).map_err(refuse)?;
        if cp.cca_format != FORMAT || cp.experiment != self.run.fingerprint || cp.seed != exp.seed {
            return Err(refuse("was written by another experiment, seed or version".into()));
        }
        let generation = cp.generation;
        let consistent = generation <= exp.generations as u64
            && cp.roles.len() == self.roles()
            && cp.dominated < self.roles()
            && cp.log.len() as u64 == generation
            && cp.flags.len() as u64 == generation
            && cp.roles.iter().all(|r| r.population.len() == exp.population);
        if !consistent {
            return Err(refuse("does not fit the experiment (generations, roles or population)".into()));
        }
        let mut states = Vec::new();
        let mut sets = Vec::new();
        for (r, role) in cp.roles.into_iter().enumerate() {
            let (state, set) = self.read_role(r, role, generation).map_err(refuse)?;
            states.push(state);
            sets.push(set);
        }
        let co = Coevolution::resumed(states, Teachers { sets, dominated: cp.dominated });
        Ok(Progress { co, log: cp.log, flags: cp.flags, timing: cp.timing })
    }

    /// Role `r`'s population and teachers as the checkpoint kept them; the
    /// error completes "the checkpoint ...".
    fn read_role(&self, r: usize, role: SavedRole, generation: u64) -> Result<(State, Vec<Teacher>), String> {
        let (ps, rep, exp) = (self.ps, self.rep, &self.run.exp);
        let parse = |what: &str, t: &str| {
            parse_genome(ps, exp.primset, rep, t).map_err(|e| format!("holds {what} that does not check: {e}"))
        };
        let population = role
            .population
            .iter()
            .enumerate()
            .map(|(i, t)| parse(&format!("a program (role {r}, member {i})"), t))
            .collect::<Result<Vec<_>, _>>()?;
        let neat = match (rep, role.neat) {
            (Representation::Network(_), Some(saved)) => {
                Some(load_neat(saved, |t| parse_genome(ps, exp.primset, rep, t)).map_err(|e| format!("holds {e}"))?)
            }
            (Representation::Network(_), None) | (_, Some(_)) => {
                return Err("holds species that do not fit what the experiment evolves".into());
            }
            (_, None) => None,
        };
        let set = role
            .teachers
            .iter()
            .map(|(t, g)| parse(&format!("a teacher (role {r})"), t).map(|genome| Teacher { genome, generation: *g }))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((State { generation, population, neat }, set))
    }

    /// The end of the finished run: the summary, a champion per role and
    /// the games against random evaluation; the lines that report them.
    fn finish(&self, spec: CcaSpec, at: &Progress) -> Result<Vec<String>, Vec<Diagnostic>> {
        let (exp, out) = (&self.run.exp, &self.run.opts.out);
        let summary = self.summary(at);
        let summary_path = out.join(SUMMARY);
        let text = serde_json::to_string_pretty(&summary).map_err(|e| io_error("write", &summary_path, e))?;
        output::write_output(&summary_path, format!("{text}\n").as_bytes())
            .map_err(|e| io_error("write", &summary_path, e))?;
        let mut notes = vec![format!(
            "experiment {} (seed {}): covering coevolution, {} generations",
            exp.name, exp.seed, exp.generations
        )];
        for (r, s) in summary.roles.iter().enumerate() {
            notes.push(self.write_role_champion(s, &at.co.teachers.sets[r])?);
        }
        if spec.versus_random > 0 {
            notes.extend(self.versus_random(spec, &at.co.teachers.sets)?);
        }
        notes.push(format!(
            "log: {}\nplot: {}\nsummary: {}",
            out.join("log.jsonl").display(),
            out.join(TEACHERS_PLOT).display(),
            summary_path.display()
        ));
        Ok(notes)
    }

    /// Per role, its teachers and undominated generations.
    fn summary(&self, at: &Progress) -> Summary {
        let roles = self.roles();
        let counts = undominated_counts(&at.flags, roles);
        let sets = &at.co.teachers.sets;
        Summary {
            generations: self.run.exp.generations as u64,
            roles: (0..roles)
                .map(|r| RoleSummary {
                    role: self.role_names[r].clone(),
                    teachers: sets[r].len(),
                    undominated_generations: counts[r],
                    top_teacher_generation: sets[r].last().map(|t| t.generation),
                    joined: sets[r].iter().map(|t| t.generation).collect(),
                })
                .collect(),
        }
    }

    /// Writes the champion of the role `s` sums up, its top teacher in `set` (if it has one); the
    /// role's line of the report.
    fn write_role_champion(&self, s: &RoleSummary, set: &[Teacher]) -> Result<String, Vec<Diagnostic>> {
        let exp = &self.run.exp;
        let mut line = format!(
            "role {}: {} teachers, undominated {} of {} generations",
            s.role, s.teachers, s.undominated_generations, exp.generations
        );
        if let Some(top) = set.last() {
            let rank = set.len();
            let origin = format!("role {}, top teacher (rank {rank}, joined at generation {})", s.role, top.generation);
            let mut role_exp = exp.clone();
            role_exp.name = format!("{}-{}", exp.name, s.role);
            let path = write_champion(&top.genome, &origin, &role_exp, self.run)?;
            line.push_str(&format!("; champion: {}", path.display()));
        }
        Ok(line)
    }

    /// Each role's teachers against random evaluation (`cca_versus.rs`),
    /// written with their plot; the lines that report them.
    fn versus_random(&self, spec: CcaSpec, sets: &[Vec<Teacher>]) -> Result<Vec<String>, Vec<Diagnostic>> {
        let (exp, out) = (&self.run.exp, &self.run.opts.out);
        let teachers: Vec<Vec<(Genome, u64)>> =
            sets.iter().map(|set| set.iter().map(|t| (t.genome.clone(), t.generation)).collect()).collect();
        let v = versus_random(self.fitness, &teachers, spec.versus_random, exp.player.depth, exp.seed);
        let path = out.join(VERSUS_RANDOM);
        let text = serde_json::to_string_pretty(&v).map_err(|e| io_error("write", &path, e))?;
        output::write_output(&path, format!("{text}\n").as_bytes()).map_err(|e| io_error("write", &path, e))?;
        let plot = out.join(VERSUS_RANDOM_PLOT);
        let svg = versus_random_plot(&exp.name, &v).map_err(|e| io_error("draw", &plot, e))?;
        output::write_output(&plot, svg.as_bytes()).map_err(|e| io_error("write", &plot, e))?;
        let mut notes = Vec::new();
        for role in &v.roles {
            if let Some(top) = role.by_rank.last() {
                let depths: Vec<String> =
                    role.top_by_depth.iter().map(|d| format!("{:.1}% at depth {}", d.tally.score, d.depth)).collect();
                notes.push(format!(
                    "role {}: top teacher against random evaluation (depth {}, {} games): {:.1}% (p = {:.2e}); {}",
                    role.role,
                    v.depth,
                    v.games,
                    top.tally.score,
                    top.tally.p,
                    depths.join(", ")
                ));
            }
        }
        notes.push(format!("against random evaluation: {} and {}", path.display(), plot.display()));
        Ok(notes)
    }
}

/// Rewrites log.jsonl (deterministic) and timing.jsonl (wall times).
fn write_log(dir: &Path, log: &[CcaRecord], timing: &str) -> Result<(), Vec<Diagnostic>> {
    let mut text = String::new();
    for r in log {
        let line = serde_json::to_string(r).map_err(|e| io_error("write the log in", dir, e))?;
        text.push_str(&line);
        text.push('\n');
    }
    let path = dir.join("log.jsonl");
    output::write_output(&path, text.as_bytes()).map_err(|e| io_error("write", &path, e))?;
    let path = dir.join("timing.jsonl");
    output::write_output(&path, timing.as_bytes()).map_err(|e| io_error("write", &path, e))?;
    Ok(())
}

/// Teacher-set sizes per generation, a line per role (the paper's figure 3).
fn teachers_plot(title: &str, roles: &[String], log: &[CcaRecord]) -> Result<String, String> {
    let last = log.last().map_or(1, |r| r.generation.max(1));
    let most = log.iter().flat_map(CcaRecord::teacher_counts).max().unwrap_or(1).max(1);
    let lines: Vec<RoleLine> = roles
        .iter()
        .enumerate()
        .map(|(r, name)| RoleLine {
            name: name.clone(),
            points: log
                .iter()
                .filter_map(|g| g.teacher_counts().nth(r).map(|teachers| (g.generation as f64, teachers as f64)))
                .collect(),
            band: Vec::new(),
        })
        .collect();
    let axes = Axes {
        caption: format!("{title}: teacher-set size"),
        x: (0.0, last as f64),
        y: (0.0, most as f64 + 1.0),
        x_desc: "generation",
        y_desc: "teachers",
        dots: false,
        reference: None,
    };
    role_lines(&axes, &lines)
}
