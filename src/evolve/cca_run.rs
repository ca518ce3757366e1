//! Running covering competitive coevolution (`(fitness (cca ...))`, the
//! bookkeeping in `cca.rs`): one population per role of a game of two or
//! more roles, each bred by its own engine (NEAT for networks) from fitness
//! scored here, the log of teacher sets and disengagement, the plot of
//! teacher-set sizes (the paper's figure 3) and a champion per role. The
//! games are a [`CcaGame`]'s: α-β on two players taking turns
//! ([`GameFitness`]), or the sampled search on other GDL games
//! (simultaneous moves, more roles: `cca_sampled.rs`).
//!
//! Every game draws its randomness from a stream named by (seed, purpose,
//! generation, role, student, ...), and each role's engine breeds from a
//! seed of its own derived from the run's, so a seed gives the same log at
//! any thread count. After every generation the run writes a checkpoint
//! (checkpoint.json: each role's population, NEAT state and teachers, the
//! dominated role, the log), then the log and plot derived from it; a
//! `--resume` goes on from it and gives the uninterrupted run's files.

use std::path::Path;
use std::time::Instant;

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::cca::{Teachers, beaten_in_order, cca_fitness, inductee, undominated_counts};
use super::cca_plot::{Axes, RoleLine, role_lines};
use super::cca_versus::{VERSUS_RANDOM, VERSUS_RANDOM_PLOT, versus_random, versus_random_plot};
use super::champion::write_champion;
use super::engine::{Engine, Evaluation, Fitness, GenerationStats, State};
use super::experiment::{CcaSpec, Experiment};
use super::game_fitness::GameFitness;
use super::genome::Genome;
use super::output::{self, SavedNeat};
use super::resume::{genome_text, load_neat, parse_genome, save_neat};
use super::run::{PrimsetImport, RunOptions, RunReport, fingerprint, io_error};
use crate::diagnostic::Diagnostic;
use crate::games::Player;
use crate::games::domain::GpGame;
use crate::lang::{Module, PrimSet};
use crate::rng::{GpRng, stream};
use crate::search::alphabeta::SearchParams;
use crate::search::players::PlayerFactory;
use crate::syntax::Sexp;

/// Stream purposes of the run's games and the roles' breeding seeds.
const TEACHER_GAME: u64 = 0xcca0;
const BOUT: u64 = 0xcca1;
const ROLE_SEED: u64 = 0xcca2;

/// The plot of teacher-set sizes, beside log.jsonl.
pub const TEACHERS_PLOT: &str = "teachers.svg";
/// The end of the run: per role, its teachers and undominated generations.
pub const SUMMARY: &str = "cca.json";

/// A teacher: the member that joined and when.
#[derive(Debug, Clone)]
struct Teacher {
    genome: Genome,
    generation: u64,
}

/// Fitness already scored for a role's population this generation.
struct Scored(Evaluation);

impl Fitness for Scored {
    fn evaluate(&self, _: &[Genome], _: u64, _: u64) -> Evaluation {
        self.0.clone()
    }

    /// Never asked: covering coevolution refuses fitnessless selection.
    fn beats(&self, _: &[Genome], _: usize, _: usize, _: &mut GpRng) -> bool {
        false
    }
}

/// One role in one generation, as log.jsonl records it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct RoleRecord {
    role: String,
    /// The teacher-set size after this generation's joining.
    teachers: usize,
    /// Whether the role's set is undominated after it (`cca.rs`).
    undominated: bool,
    /// The population index of the student that joined, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    joined: Option<usize>,
    /// Teachers the students had to beat to cover; the most any beat.
    to_cover: usize,
    most_beaten: usize,
    #[serde(flatten)]
    stats: GenerationStats,
}

/// One line of log.jsonl.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct CcaRecord {
    generation: u64,
    games: u64,
    roles: Vec<RoleRecord>,
}

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
struct CcaCheckpoint {
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
struct SavedRole {
    population: Vec<String>,
    neat: Option<SavedNeat>,
    /// Programs and the generations they joined, in rank order.
    teachers: Vec<(String, u64)>,
}

/// What one student scored: teachers beaten in rank order, points from
/// the bouts, games played.
type StudentScore = (usize, f64, u64);

/// What covering coevolution needs of a game: its roles and their names,
/// the players of a population, and games between players.
pub(super) trait CcaGame: Sync {
    /// A member's player, shared by the games it plays.
    type Player: Send + Sync;

    fn n_roles(&self) -> usize;

    fn role_name(&self, role: Player) -> String;

    /// The players of `population` (compiled together).
    fn players(&self, population: &[Genome]) -> Vec<Self::Player>;

    /// One game from the start, `seats[r]` playing role `r`; the points of
    /// the player of `role` (see `cca::points`). Each player's streams are
    /// named by `seed` and `tags` with 0 (for the player of `role`) or 1,
    /// 2, … (the others, in role order) appended.
    fn bout(&self, seats: &[&Self::Player], role: Player, seed: u64, tags: &[u64]) -> f64;

    /// One game from the start, `me` playing `role` with a search of
    /// `depth` and every other role the paper's baseline: the same search
    /// with a random evaluation (goal values at terminal states); `me`'s
    /// points.
    fn against_random(&self, me: &Self::Player, role: Player, depth: u32, seed: u64, tags: &[u64]) -> f64;
}

/// Two players taking turns (α-β).
impl<G: GpGame> CcaGame for GameFitness<G> {
    type Player = PlayerFactory<G::State>;

    fn n_roles(&self) -> usize {
        2
    }

    fn role_name(&self, role: Player) -> String {
        self.game.role_name(role).to_owned()
    }

    fn players(&self, population: &[Genome]) -> Vec<Self::Player> {
        GameFitness::players(self, population)
    }

    fn bout(&self, seats: &[&Self::Player], role: Player, seed: u64, tags: &[u64]) -> f64 {
        let r = usize::from(role);
        self.game_from(&self.game.initial_state(), seats[r], seats[1 - r], role, seed, tags)
    }

    fn against_random(&self, me: &Self::Player, role: Player, depth: u32, seed: u64, tags: &[u64]) -> f64 {
        let params = SearchParams { depth, ..self.player };
        let me = match me {
            PlayerFactory::Gp(programs, _) => PlayerFactory::Gp(programs.clone(), params),
            PlayerFactory::Material(_) => PlayerFactory::Material(params),
            PlayerFactory::RandomGuide(_) => PlayerFactory::RandomGuide(params),
            PlayerFactory::Random => PlayerFactory::Random,
            PlayerFactory::Uct(p, t) => PlayerFactory::Uct(*p, *t),
        };
        let baseline = PlayerFactory::RandomGuide(params);
        self.game_from(&self.game.initial_state(), &me, &baseline, role, seed, tags)
    }
}

/// The populations (one per role) and the teacher sets between
/// generations.
pub(super) struct Coevolution {
    states: Vec<State>,
    teachers: Teachers<Teacher>,
    /// Per role, the fittest student of the last generation played.
    fittest: Vec<Option<Genome>>,
}

impl Coevolution {
    /// Fresh populations from `engines` (one per role) and no teachers.
    pub(super) fn new(engines: &[Engine]) -> Coevolution {
        Coevolution {
            states: engines.iter().map(Engine::initial).collect(),
            teachers: Teachers::new(engines.len()),
            fittest: vec![None; engines.len()],
        }
    }

    /// Generation `generation`: every student's games against the other
    /// roles' teachers and populations, the dominated role's inductee, each
    /// role's next population; the generation's record and which roles are
    /// undominated.
    ///
    /// A game has a seat per role. In a teacher's game the student and the
    /// teacher take their roles' seats; with more than two roles, each other
    /// seat goes to its role's top teacher, or, while the role has none, to a
    /// member of its population drawn for the game. In a bout every other
    /// seat goes to a member of its role's population drawn at random.
    pub(super) fn generation<F: CcaGame>(
        &mut self,
        fitness: &F,
        spec: CcaSpec,
        engines: &[Engine],
        seed: u64,
        generation: u64,
        role_names: &[String],
    ) -> (CcaRecord, Vec<bool>) {
        let n_roles = self.states.len();
        let students: Vec<Vec<F::Player>> = self.states.iter().map(|s| fitness.players(&s.population)).collect();
        let teacher_players: Vec<Vec<F::Player>> = self
            .teachers
            .sets
            .iter()
            .map(|set| {
                let genomes: Vec<Genome> = set.iter().map(|t| t.genome.clone()).collect();
                if genomes.is_empty() { Vec::new() } else { fitness.players(&genomes) }
            })
            .collect();
        let jobs: Vec<(usize, usize)> =
            (0..n_roles).flat_map(|r| (0..self.states[r].population.len()).map(move |i| (r, i))).collect();
        // A student's games are a task of the generation's farm: the
        // threads, and under MPI the ranks (src/cluster).
        let scores: Vec<StudentScore> = crate::cluster::map(jobs.len(), |j| {
            let (r, i) = jobs[j];
            let opponents: Vec<(usize, usize)> = self.teachers.opponents_of(r).map(|(o, k, _)| (o, k)).collect();
            let me = &students[r][i];
            let mut games = 0u64;
            let mut seats: Vec<&F::Player> = vec![me; n_roles];
            let beaten = beaten_in_order(opponents.len(), |j| {
                let (o, k) = opponents[j];
                games += 1;
                let tags = [TEACHER_GAME, generation, r as u64, i as u64, o as u64, k as u64];
                let mut draws = stream(seed, &tags);
                for q in 0..n_roles {
                    seats[q] = if q == r {
                        me
                    } else if q == o {
                        &teacher_players[o][k]
                    } else if let Some(top) = teacher_players[q].last() {
                        top
                    } else {
                        &students[q][draws.random_range(0..students[q].len())]
                    };
                }
                fitness.bout(&seats, r as Player, seed, &tags) == 1.0
            });
            // Bouts against members of the other roles drawn at random.
            let mut rng = stream(seed, &[BOUT, generation, r as u64, i as u64]);
            let mut points = 0.0;
            for j in 0..u64::from(spec.bouts) {
                for q in 0..n_roles {
                    seats[q] = if q == r { me } else { &students[q][rng.random_range(0..students[q].len())] };
                }
                let tags = [BOUT, generation, r as u64, i as u64, j];
                points += fitness.bout(&seats, r as Player, seed, &tags);
                games += 1;
            }
            (beaten, points, games)
        });
        let mut per_role: Vec<Vec<StudentScore>> = vec![Vec::new(); n_roles];
        for (&(r, _), s) in jobs.iter().zip(&scores) {
            per_role[r].push(*s);
        }
        let games: u64 = scores.iter().map(|s| s.2).sum();
        let evals: Vec<Evaluation> = per_role
            .iter()
            .map(|role| Evaluation {
                fitness: role.iter().map(|&(b, p, _)| cca_fitness(spec.alpha, b, p)).collect(),
                games: role.iter().map(|s| s.2).sum(),
            })
            .collect();
        let to_cover: Vec<usize> = (0..n_roles).map(|r| self.teachers.to_cover(r)).collect();
        // The dominated role's fittest coverer joins its teachers.
        let d = self.teachers.dominated;
        let beaten: Vec<usize> = per_role[d].iter().map(|s| s.0).collect();
        let joined = inductee(&beaten, to_cover[d], &evals[d].fitness);
        if let Some(i) = joined {
            self.teachers.induct(Teacher { genome: self.states[d].population[i].clone(), generation });
        }
        let undominated = self.teachers.undominated();
        let mut roles = Vec::new();
        let mut next_states = Vec::new();
        for r in 0..n_roles {
            let (next, stats, _) = engines[r].step(&self.states[r], &Scored(evals[r].clone()));
            self.fittest[r] = self.states[r].population.get(stats.best_index).cloned();
            next_states.push(next);
            roles.push(RoleRecord {
                role: role_names[r].clone(),
                teachers: self.teachers.sets[r].len(),
                undominated: undominated[r],
                joined: joined.filter(|_| r == d),
                to_cover: to_cover[r],
                most_beaten: per_role[r].iter().map(|s| s.0).max().unwrap_or(0),
                stats,
            });
        }
        self.states = next_states;
        (CcaRecord { generation, games, roles }, undominated)
    }

    /// Role `r`'s best so far: its top teacher, else the fittest student
    /// of the last generation played.
    pub(super) fn champion(&self, r: usize) -> Option<&Genome> {
        self.teachers.sets.get(r)?.last().map(|t| &t.genome).or(self.fittest.get(r)?.as_ref())
    }

    /// How many teachers role `r` has.
    pub(super) fn teachers(&self, r: usize) -> usize {
        self.teachers.sets.get(r).map_or(0, Vec::len)
    }
}

/// Runs covering coevolution of `exp` on `fitness`'s game.
pub(super) fn run_cca<F: CcaGame>(
    fitness: &F,
    spec: CcaSpec,
    (module, form): (&Module, &Sexp),
    exp: &Experiment,
    primset_import: &PrimsetImport,
    opts: &RunOptions,
) -> Result<RunReport, Vec<Diagnostic>> {
    let print = fingerprint(form, exp.seed);
    let cp_path = output::checkpoint_path(&opts.out);
    let log_path = opts.out.join("log.jsonl");
    if opts.resume {
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
    // Under MPI every rank has looked at the directory before rank 0 writes.
    crate::cluster::barrier();

    let ps: &PrimSet = module.primset(exp.primset);
    let rep = exp.representation.clone();
    let roles = fitness.n_roles();
    let role_names: Vec<String> = (0..roles).map(|r| fitness.role_name(r as Player)).collect();
    let mut engines = Vec::new();
    for r in 0..roles {
        engines.push(super::run::engine_of(ps, exp, stream(exp.seed, &[ROLE_SEED, r as u64]).random())?);
    }
    let total = exp.generations as u64;
    let (mut co, mut log, mut flags, mut timing) = if opts.resume {
        let at = cp_path.display().to_string();
        let refuse = |message: String| {
            vec![
                Diagnostic::error(
                    "stratagem::evolve::checkpoint",
                    format!("the checkpoint `{at}` {message}; it is not used"),
                )
                .with_help("resume with the same experiment file and seed, or start afresh in another --out directory"),
            ]
        };
        let text = std::fs::read_to_string(&cp_path).map_err(|e| io_error("read", &cp_path, e))?;
        let cp: CcaCheckpoint = serde_json::from_str(&text)
            .map_err(|e| refuse(format!("is not a checkpoint of covering coevolution ({e})")))?;
        if cp.cca_format != FORMAT || cp.experiment != print || cp.seed != exp.seed {
            return Err(refuse("was written by another experiment, seed or version".into()));
        }
        let generation = cp.generation;
        let consistent = generation <= total
            && cp.roles.len() == roles
            && cp.dominated < roles
            && cp.log.len() as u64 == generation
            && cp.flags.len() as u64 == generation
            && cp.roles.iter().all(|r| r.population.len() == exp.population);
        if !consistent {
            return Err(refuse("does not fit the experiment (generations, roles or population)".into()));
        }
        let parse = |what: &str, t: &str| {
            parse_genome(ps, exp.primset, &rep, t).map_err(|e| refuse(format!("holds {what} that does not check: {e}")))
        };
        let mut states = Vec::new();
        let mut sets = Vec::new();
        for (r, role) in cp.roles.into_iter().enumerate() {
            let population = role
                .population
                .iter()
                .enumerate()
                .map(|(i, t)| parse(&format!("a program (role {r}, member {i})"), t))
                .collect::<Result<Vec<_>, _>>()?;
            let neat = match (&rep, role.neat) {
                (super::genome::Representation::Network(_), Some(saved)) => Some(
                    load_neat(saved, |t| parse_genome(ps, exp.primset, &rep, t))
                        .map_err(|e| refuse(format!("holds {e}")))?,
                ),
                (super::genome::Representation::Network(_), None) | (_, Some(_)) => {
                    return Err(refuse("holds species that do not fit what the experiment evolves".into()));
                }
                (_, None) => None,
            };
            states.push(State { generation, population, neat });
            let set = role
                .teachers
                .iter()
                .map(|(t, g)| {
                    parse(&format!("a teacher (role {r})"), t).map(|genome| Teacher { genome, generation: *g })
                })
                .collect::<Result<Vec<_>, _>>()?;
            sets.push(set);
        }
        let co =
            Coevolution { states, teachers: Teachers { sets, dominated: cp.dominated }, fittest: vec![None; roles] };
        (co, cp.log, cp.flags, cp.timing)
    } else {
        (Coevolution::new(&engines), Vec::new(), Vec::new(), String::new())
    };
    let seed = exp.seed;
    let first = co.states[0].generation;
    let end = opts.stop_after.map_or(total, |k| total.min(first.saturating_add(k as u64)));
    let derive = |log: &[CcaRecord], timing: &str| -> Result<(), Vec<Diagnostic>> {
        write_log(&opts.out, log, timing)?;
        let plot = opts.out.join(TEACHERS_PLOT);
        let svg = teachers_plot(&exp.name, &role_names, log).map_err(|e| io_error("draw", &plot, e))?;
        output::write_output(&plot, svg.as_bytes()).map_err(|e| io_error("write", &plot, e))?;
        Ok(())
    };
    crate::cluster::barrier();
    derive(&log, &timing)?;

    for generation in first..end {
        let clock = Instant::now();
        let (record, undominated) = co.generation(fitness, spec, &engines, seed, generation, &role_names);
        flags.push(undominated);
        log.push(record);
        let seconds = clock.elapsed().as_secs_f64();
        let games = log.last().map_or(0, |r| r.games);
        timing.push_str(&format!("{{\"generation\":{generation},\"seconds\":{seconds:.3},\"games\":{games}}}\n"));
        let cp = CcaCheckpoint {
            cca_format: FORMAT,
            experiment: print.clone(),
            seed,
            generation: generation + 1,
            dominated: co.teachers.dominated,
            roles: (0..roles)
                .map(|r| SavedRole {
                    population: co.states[r]
                        .population
                        .iter()
                        .enumerate()
                        .map(|(i, g)| genome_text(g, &format!("g{i}"), ps, &rep))
                        .collect(),
                    neat: co.states[r].neat.as_ref().map(|n| save_neat(n, ps, &rep)),
                    teachers: co.teachers.sets[r]
                        .iter()
                        .enumerate()
                        .map(|(k, t)| (genome_text(&t.genome, &format!("t{k}"), ps, &rep), t.generation))
                        .collect(),
                })
                .collect(),
            log: log.clone(),
            flags: flags.clone(),
            timing: timing.clone(),
        };
        let text = serde_json::to_string(&cp).map_err(|e| io_error("write", &cp_path, e))?;
        output::write_output(&cp_path, text.as_bytes()).map_err(|e| io_error("write", &cp_path, e))?;
        derive(&log, &timing)?;
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

    let counts = undominated_counts(&flags, roles);
    let summary = Summary {
        generations: exp.generations as u64,
        roles: (0..roles)
            .map(|r| RoleSummary {
                role: role_names[r].clone(),
                teachers: co.teachers.sets[r].len(),
                undominated_generations: counts[r],
                top_teacher_generation: co.teachers.sets[r].last().map(|t| t.generation),
                joined: co.teachers.sets[r].iter().map(|t| t.generation).collect(),
            })
            .collect(),
    };
    let summary_path = opts.out.join(SUMMARY);
    let text = serde_json::to_string_pretty(&summary).map_err(|e| io_error("write", &summary_path, e))?;
    output::write_output(&summary_path, format!("{text}\n").as_bytes())
        .map_err(|e| io_error("write", &summary_path, e))?;

    let mut notes = vec![format!(
        "experiment {} (seed {}): covering coevolution, {} generations",
        exp.name, exp.seed, exp.generations
    )];
    for (r, s) in summary.roles.iter().enumerate() {
        let mut line = format!(
            "role {}: {} teachers, undominated {} of {} generations",
            s.role, s.teachers, s.undominated_generations, exp.generations
        );
        if let Some(top) = co.teachers.sets[r].last() {
            let rank = co.teachers.sets[r].len();
            let origin = format!("role {}, top teacher (rank {rank}, joined at generation {})", s.role, top.generation);
            let mut role_exp = exp.clone();
            role_exp.name = format!("{}-{}", exp.name, s.role);
            let path = write_champion(&top.genome, &origin, &role_exp, ps, &rep, primset_import, opts)?;
            line.push_str(&format!("; champion: {}", path.display()));
        }
        notes.push(line);
    }
    if spec.versus_random > 0 {
        let teachers: Vec<Vec<(Genome, u64)>> =
            co.teachers.sets.iter().map(|set| set.iter().map(|t| (t.genome.clone(), t.generation)).collect()).collect();
        let v = versus_random(fitness, &teachers, spec.versus_random, exp.player.depth, seed);
        let path = opts.out.join(VERSUS_RANDOM);
        let text = serde_json::to_string_pretty(&v).map_err(|e| io_error("write", &path, e))?;
        output::write_output(&path, format!("{text}\n").as_bytes()).map_err(|e| io_error("write", &path, e))?;
        let plot = opts.out.join(VERSUS_RANDOM_PLOT);
        let svg = versus_random_plot(&exp.name, &v).map_err(|e| io_error("draw", &plot, e))?;
        output::write_output(&plot, svg.as_bytes()).map_err(|e| io_error("write", &plot, e))?;
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
    }
    notes.push(format!(
        "log: {}\nplot: {}\nsummary: {}",
        log_path.display(),
        opts.out.join(TEACHERS_PLOT).display(),
        summary_path.display()
    ));
    Ok(RunReport { log: Vec::new(), finished: true, champion: None, already_complete: false, notes })
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
    let most = log.iter().flat_map(|r| r.roles.iter().map(|x| x.teachers)).max().unwrap_or(1).max(1);
    let lines: Vec<RoleLine> = roles
        .iter()
        .enumerate()
        .map(|(r, name)| RoleLine {
            name: name.clone(),
            points: log
                .iter()
                .filter_map(|g| g.roles.get(r).map(|x| (g.generation as f64, x.teachers as f64)))
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
