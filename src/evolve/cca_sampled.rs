//! Covering coevolution on GDL games that are not two players taking turns
//! (simultaneous moves, as seeds/004's Blocker and Double Tic-Tac-Toe, or
//! more than two roles): the games of `cca_generation.rs` played by the sampled
//! search of `search::sampled`, each member's evaluator searching for its
//! own role, the other roles' moves at a simultaneous turn sampled.
//!
//! A game's result compares the roles' goal values at its end
//! (`cca::points`: the highest wins, a shared highest draws), as the
//! two-player view of a GDL game does with two roles.
//! The search's random streams are named by the run's seed and the game's
//! tags, so a seed gives the same run at any thread count.

use std::sync::{Arc, Mutex};

use rand::RngExt;

use super::cca::points;
use super::cca_game::CcaGame;
use super::genome::{Genome, Representation};
use crate::eval::Engine;
use crate::games::domain::Binding;
use crate::games::{Game, Player, Role, Turn};
use crate::lang::PrimSet;
use crate::rng::{GpRng, stream};
use crate::search::programs::GpProgram;
use crate::search::sampled::{SampledParams, SampledSearch};

/// A game that has not ended after this many turns is a draw.
const MAX_TURNS: u32 = 10_000;

/// The stream tag of a player's search (samples and ties).
const SEARCH: u64 = 0x5a3e;

/// The stream tag of the baseline's random evaluation.
const RANDOM_EVALUATION: u64 = 0x7a4d;

/// Games of a GDL game (through the registry) between evolved evaluators.
pub(super) struct SampledGames<G: Game> {
    pub game: G,
    pub ps: Arc<PrimSet>,
    pub binding: Arc<Binding<G::State>>,
    pub rep: Representation,
    /// Index of the `eval` tree in a tree genome.
    pub eval_slot: usize,
    pub params: SampledParams,
    pub engine: Engine,
    /// Programs the JIT could not compile, with the reason.
    pub fallbacks: Mutex<Vec<String>>,
}

impl<G: Game + Sync> CcaGame for SampledGames<G>
where
    G::State: Send + Sync + 'static,
{
    type Player = Arc<GpProgram<G::State>>;

    fn n_roles(&self) -> usize {
        self.game.n_roles()
    }

    fn role_name(&self, role: Player) -> String {
        self.game.role_name(role).to_owned()
    }

    fn players(&self, population: &[Genome]) -> Vec<Self::Player> {
        let programs = population.iter().map(|g| g.program(&self.rep, &self.ps, self.eval_slot)).collect();
        GpProgram::population(&self.ps, &self.binding, programs, self.engine, &self.fallbacks)
            .into_iter()
            .map(Arc::new)
            .collect()
    }

    fn bout(&self, seats: &[&Self::Player], role: Player, seed: u64, tags: &[u64]) -> f64 {
        let evaluators = seats.iter().map(|&p| Evaluator::program(p)).collect();
        self.game(evaluators, role, self.params, seed, tags)
    }

    fn against_random(&self, me: &Self::Player, role: Player, depth: u32, seed: u64, tags: &[u64]) -> f64 {
        let evaluators = (0..self.game.n_roles())
            .map(|r| match seat_stream(r, role) {
                0 => Evaluator::program(me),
                k => Evaluator::Random(stream(seed, &[tags, &[k, RANDOM_EVALUATION]].concat())),
            })
            .collect();
        let params = SampledParams { depth, ..self.params };
        self.game(evaluators, role, params, seed, tags)
    }
}

/// What evaluates a player's leaves: an evolved program, or the paper's
/// baseline, a random value.
enum Evaluator<'p, S> {
    /// The program and its feature slots, kept from leaf to leaf.
    Program(&'p Arc<GpProgram<S>>, Vec<u64>),
    Random(GpRng),
}

impl<'p, S> Evaluator<'p, S> {
    fn program(p: &'p Arc<GpProgram<S>>) -> Evaluator<'p, S> {
        Evaluator::Program(p, vec![0; p.binding.features.len()])
    }

    fn value(&mut self, state: &S, who: Role) -> f64 {
        match self {
            Evaluator::Program(p, slots) => p.value_with(state, who, slots),
            Evaluator::Random(rng) => rng.random(),
        }
    }
}

impl<G: Game + Sync> SampledGames<G>
where
    G::State: Send + Sync + 'static,
{
    /// One game from the start: `evaluators[r]` plays role `r`, every one
    /// searching with `params`; the points of the player of `role`.
    fn game(
        &self,
        evaluators: Vec<Evaluator<'_, G::State>>,
        role: Player,
        params: SampledParams,
        seed: u64,
        tags: &[u64],
    ) -> f64 {
        let search = |who: u64| SampledSearch::new(params, stream(seed, &[tags, &[who, SEARCH]].concat()));
        let n = evaluators.len();
        let mut players: Vec<_> =
            evaluators.into_iter().enumerate().map(|(r, e)| (e, search(seat_stream(r, role)))).collect();
        let game = &self.game;
        let mut state = game.initial_state();
        let mut legal = Vec::new();
        let mut joint = Vec::with_capacity(n);
        for _ in 0..MAX_TURNS {
            if game.turn(&state) == Turn::Over {
                break;
            }
            joint.clear();
            for (r, (program, search)) in players.iter_mut().enumerate() {
                let r = r as Role;
                game.legal_moves_of(&state, r, &mut legal);
                let i = match legal.len() {
                    0 => break,
                    1 => 0,
                    _ => search.choose(game, &state, r, &mut |s, who| program.value(s, who)).unwrap_or(0),
                };
                joint.push(legal.swap_remove(i.min(legal.len() - 1)));
            }
            if joint.len() < n {
                break;
            }
            state = game.apply_joint(&state, &joint);
        }
        let over = game.turn(&state) == Turn::Over;
        let goals: Vec<i64> =
            (0..n).map(|r| if over { i64::from(game.score(&state, r as Role).unwrap_or(0)) } else { 50 }).collect();
        points(&goals, usize::from(role))
    }
}

/// The number that names the streams of the player of role `r` in a game
/// played for `role`: 0 for that player, 1, 2, … for the others in role
/// order (with two roles, 1 for the opponent).
fn seat_stream(r: usize, role: Player) -> u64 {
    let role = usize::from(role);
    match r.cmp(&role) {
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Less => r as u64 + 1,
        std::cmp::Ordering::Greater => r as u64,
    }
}
