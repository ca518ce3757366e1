//! Learning an evaluator for a game met at run time (`ggp serve --learn`),
//! as nnrg.hazel did before its matches (seeds/004): covering coevolution
//! of NEAT networks over the `gdl` primset, one population per role, games
//! by 1-ply search (`cca_sampled.rs`), generation after generation until
//! the deadline. The evaluator is the learner's role's top teacher, else
//! its fittest student of the last generation.
//!
//! Generations are those of `cca_generation.rs`, so a seed gives the same
//! evaluator after the same number of generations; how many fit before the
//! deadline depends on the machine.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::RngExt;

use super::cca_generation::Coevolution;
use super::cca_sampled::SampledGames;
use super::engine::Engine;
use super::experiment::lower_experiment_on;
use crate::games::domain::{Binding, GpDomain};
use crate::games::registry::Entry;
use crate::games::{Player, Role};
use crate::lang::{Loader, PrimSet};
use crate::rng::stream;
use crate::search::programs::Program;
use crate::search::sampled::SampledParams;

/// The experiment a match learns by: the paper's networks and fitness at a
/// size that plays a generation in a fraction of a second on small board
/// games (population 20 a role, 10 bouts). Its game is the match's.
const EXPERIMENT: &str = "(import gdl)
(experiment ggp-learn
  (primset gdl)
  (individual network
    (inputs P0 P1 P2 P3 P4 P5 P6 P7 P8 P9 P10 P11 P12 P13 P14 P15 P16 P17 P18
      P19 P20 P21 P22 P23 P24 P25 P26 P27 P28 P29 P30 P31 P32 P33 P34 P35 P36
      P37 P38 P39)
    (threshold 0.5))
  (population 20)
  (generations 1000000)
  (player (alphabeta 1))
  (fitness (cca (bouts 10))))
";

/// The stream purpose of the roles' breeding seeds.
const ROLE_SEED: u64 = 0x1ea7;

/// An evaluator learnt for one role of a game.
pub struct Learned {
    pub ps: PrimSet,
    pub program: Program,
    /// Generations played, and the role's teachers at the end.
    pub generations: u64,
    pub teachers: usize,
}

/// Coevolves evaluators for `game` (registered as `entry`) until `until`,
/// and gives back the game with role `role`'s evaluator, or why there is
/// none (a game of one role, no generation within the time).
pub fn learn<G>(game: G, entry: &'static Entry, role: Role, until: Instant, seed: u64) -> (G, Result<Learned, String>)
where
    G: GpDomain + Sync,
    G::State: Send + Sync + 'static,
{
    let roles = game.n_roles();
    if roles < 2 {
        return (game, Err(format!("covering coevolution takes games of two or more roles, this one has {roles}")));
    }
    let mut loader = Loader::new();
    loader.load_text("(ggp serve --learn)", EXPERIMENT);
    let exp = match lower_experiment_on(&loader.module, 0, entry) {
        Ok(exp) if loader.diags.is_empty() => exp,
        Ok(_) | Err(_) => {
            let why = loader.diags.first().map_or_else(|| "it does not fit the game".to_owned(), |d| d.message.clone());
            return (game, Err(format!("the learning experiment does not load: {why}")));
        }
    };
    let Some(spec) = exp.cca() else {
        return (game, Err("the learning experiment has no covering coevolution".to_owned()));
    };
    let ps: &PrimSet = loader.module.primset(exp.primset);
    let binding = match Binding::new(&game, ps) {
        Ok(b) => Arc::new(b),
        Err(diags) => {
            let why = diags.first().map_or_else(String::new, |d| d.message.clone());
            return (game, Err(format!("the gdl primset does not bind to the game: {why}")));
        }
    };
    let mut engines: Vec<Engine> = Vec::new();
    for r in 0..roles {
        match exp.population_engine(ps, stream(seed, &[ROLE_SEED, r as u64]).random()) {
            Ok(engine) => engines.push(engine),
            Err(diags) => {
                let why = diags.first().map_or_else(String::new, |d| d.message.clone());
                return (game, Err(format!("no engine for the learners: {why}")));
            }
        }
    }
    let games = SampledGames {
        game,
        ps: Arc::new(ps.clone()),
        binding,
        rep: exp.representation.clone(),
        eval_slot: 0,
        params: SampledParams { depth: exp.player.depth, samples: exp.player.samples },
        engine: exp.engine,
        fallbacks: Mutex::new(Vec::new()),
    };
    let role_names: Vec<String> = (0..roles).map(|r| games.game.role_name(r as Player).to_owned()).collect();
    let mut co = Coevolution::new(&engines);
    let mut generation = 0u64;
    // A generation is started only if the slowest so far would end in time.
    let mut slowest = Duration::ZERO;
    while generation < exp.generations as u64 && Instant::now() + slowest < until {
        let clock = Instant::now();
        co.generation(&games, spec, &engines, seed, generation, &role_names);
        slowest = slowest.max(clock.elapsed());
        generation += 1;
    }
    let r = usize::from(role);
    let learned = match co.champion(r) {
        Some(genome) => Ok(Learned {
            program: genome.program(&exp.representation, ps, 0),
            ps: ps.clone(),
            generations: generation,
            teachers: co.teachers(r),
        }),
        None => Err("no generation fitted in the start clock".to_owned()),
    };
    (games.game, learned)
}
