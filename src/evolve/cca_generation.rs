//! One generation of covering competitive coevolution (the bookkeeping in
//! `cca.rs`): one population per role, each bred by its own engine (NEAT
//! for networks) from fitness scored here against the other roles' teacher
//! sets and populations, and the dominated role's inductee. The games are
//! a [`CcaGame`]'s. `cca_run.rs` runs generations with checkpoints and a
//! log; `ggp serve --learn` (`learn.rs`) until a deadline.
//!
//! Every game draws its randomness from a stream named by (seed, purpose,
//! generation, role, student, ...), so a seed gives the same generation at
//! any thread count.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::cca::{Teachers, beaten_in_order, cca_fitness, inductee};
use super::cca_game::CcaGame;
use super::engine::{Engine, Evaluation, Fitness, GenerationStats, State};
use super::experiment::CcaSpec;
use super::genome::Genome;
use crate::games::Player;
use crate::rng::{GpRng, stream};

/// Stream purposes of the generation's games.
const TEACHER_GAME: u64 = 0xcca0;
const BOUT: u64 = 0xcca1;

/// A teacher: the member that joined and when.
#[derive(Debug, Clone)]
pub(super) struct Teacher {
    pub(super) genome: Genome,
    pub(super) generation: u64,
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
    pub(super) generation: u64,
    pub(super) games: u64,
    roles: Vec<RoleRecord>,
}

impl CcaRecord {
    /// Each role's teacher-set size after the generation.
    pub(super) fn teacher_counts(&self) -> impl Iterator<Item = usize> + '_ {
        self.roles.iter().map(|r| r.teachers)
    }
}

/// What one student scored: teachers beaten in rank order, points from
/// the bouts, games played.
type StudentScore = (usize, f64, u64);

/// The populations (one per role) and the teacher sets between
/// generations.
pub(super) struct Coevolution {
    pub(super) states: Vec<State>,
    pub(super) teachers: Teachers<Teacher>,
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

    /// The populations and teachers a checkpoint kept (no fittest student:
    /// a champion comes from the teachers once generations are played).
    pub(super) fn resumed(states: Vec<State>, teachers: Teachers<Teacher>) -> Coevolution {
        let roles = states.len();
        Coevolution { states, teachers, fittest: vec![None; roles] }
    }

    /// Generation `generation`: every student's games against the other
    /// roles' teachers and populations, the dominated role's inductee, each
    /// role's next population; the generation's record and which roles are
    /// undominated.
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
        let jobs: Vec<(usize, usize)> =
            (0..n_roles).flat_map(|r| (0..self.states[r].population.len()).map(move |i| (r, i))).collect();
        let scores = self.play_students(fitness, spec, &jobs, seed, generation);
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

    /// The games of every student `jobs` names (role, population index), a
    /// task each of the generation's farm: the threads, and under MPI the
    /// ranks (src/cluster).
    ///
    /// A game has a seat per role. In a teacher's game the student and the
    /// teacher take their roles' seats; with more than two roles, each other
    /// seat goes to its role's top teacher, or, while the role has none, to a
    /// member of its population drawn for the game. In a bout every other
    /// seat goes to a member of its role's population drawn at random.
    fn play_students<F: CcaGame>(
        &self,
        fitness: &F,
        spec: CcaSpec,
        jobs: &[(usize, usize)],
        seed: u64,
        generation: u64,
    ) -> Vec<StudentScore> {
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
        crate::cluster::map(jobs.len(), |j| {
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
        })
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
