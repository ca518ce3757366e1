//! Hillis coevolution for two-player games (`(fitness (hillis ...))`): the
//! problems are openings, sequences of move choices played from the initial
//! position, and a solver solves one when, playing the side to move at the
//! position it leads to, it beats (or does not lose to) a fixed opponent.
//!
//! Choice `c` at a position with `k` legal moves plays move `c mod k`, so
//! every sequence is an opening and a changed choice early on changes the
//! rest of the line. An opening stops before a move that would end the game,
//! so every problem is a position with a game left to play. Problems mutate
//! by changing one choice, or by playing one ply more or one fewer, within
//! the experiment's bounds on their length.
//!
//! Games draw their randomness from the stream of the task that plays them
//! ([`hillis::score`]), so the scores do not depend on the thread count.

use std::sync::{Arc, Mutex};

use rand::RngExt;

use super::engine::{Evaluation, Fitness};
use super::experiment::{Goal, HillisSpec, Opponent};
use super::game_fitness::GameFitness;
use super::genome::Genome;
use super::hillis::{self, Contest, HillisParams, ProblemSpace};
use crate::games::TwoPlayer;
use crate::games::domain::GpGame;
use crate::rng::GpRng;
use crate::search::players::PlayerFactory;

/// An opening: the move choices played from the initial position.
pub type Opening = Vec<u32>;

/// Openings of `min` to `max` plies.
pub struct Openings {
    pub min: usize,
    pub max: usize,
}

impl ProblemSpace for Openings {
    type Problem = Opening;

    fn random(&self, rng: &mut GpRng) -> Opening {
        let len = rng.random_range(self.min..=self.max.max(self.min));
        (0..len).map(|_| rng.random()).collect()
    }

    fn mutate(&self, p: &Opening, rng: &mut GpRng) -> Opening {
        let mut out = p.clone();
        let (can_grow, can_shrink) = (out.len() < self.max, out.len() > self.min);
        match rng.random_range(0..3) {
            1 if can_grow => out.push(rng.random()),
            2 if can_shrink => {
                out.pop();
            }
            _ if !out.is_empty() => {
                let i = rng.random_range(0..out.len());
                out[i] = rng.random();
            }
            _ if can_grow => out.push(rng.random()),
            _ => {}
        }
        out
    }
}

/// The position `opening` leads to from `game`'s initial position.
pub fn start_position<G: TwoPlayer>(game: &G, opening: &[u32]) -> G::State {
    let mut state = game.initial_state();
    let (mut moves, mut next_moves) = (Vec::new(), Vec::new());
    game.legal_moves(&state, &mut moves);
    for &choice in opening {
        if moves.is_empty() {
            break;
        }
        let next = game.apply(&state, &moves[choice as usize % moves.len()]);
        game.legal_moves(&next, &mut next_moves);
        if next_moves.is_empty() {
            break;
        }
        state = next;
        std::mem::swap(&mut moves, &mut next_moves);
    }
    state
}

/// The settings of the problem population's breeding.
pub fn params(spec: &HillisSpec) -> HillisParams {
    HillisParams {
        problems: spec.problems,
        sample: spec.sample as usize,
        mutation: spec.mutation,
        tournament: spec.tournament,
    }
}

/// The problem space of `spec`.
pub fn space(spec: &HillisSpec) -> Openings {
    Openings { min: spec.opening.0 as usize, max: spec.opening.1 as usize }
}

/// The fixed opponent of the solvers.
pub fn opponent<S>(o: &Opponent) -> PlayerFactory<S> {
    match *o {
        Opponent::Random => PlayerFactory::Random,
        Opponent::Material(p) => PlayerFactory::Material(p),
        Opponent::Guide(p) => PlayerFactory::RandomGuide(p),
    }
}

/// One game per (solver, opening) meeting, with the generation's players.
struct OpeningContest<'a, G: GpGame> {
    fitness: &'a GameFitness<G>,
    players: &'a [PlayerFactory<G::State>],
    opponent: PlayerFactory<G::State>,
    goal: Goal,
}

/// The tag of a coevolution game's player streams (after the game's own seed).
const CONTEST_GAME: u64 = 0xC0E7;

impl<G> Contest<Opening> for OpeningContest<'_, G>
where
    G: GpGame,
{
    fn solves(&self, _solvers: &[Genome], solver: usize, opening: &Opening, rng: &mut GpRng) -> bool {
        let game = &self.fitness.game;
        let start = start_position(game, opening);
        let colour = game.to_move(&start);
        let seed: u64 = rng.random();
        let points =
            self.fitness.game_from(&start, &self.players[solver], &self.opponent, colour, seed, &[CONTEST_GAME]);
        match self.goal {
            Goal::Win => points >= 1.0,
            Goal::NotLose => points >= 0.5,
        }
    }
}

/// One generation's fitness with Hillis coevolution: the game fitness's
/// points plus a point for each problem solved. The problems' own points are
/// kept for breeding them ([`Coevolution::problem_scores`]).
pub struct Coevolution<'a, G: GpGame> {
    fitness: &'a GameFitness<G>,
    spec: HillisSpec,
    problems: &'a [Opening],
    scores: Mutex<Option<hillis::Scores>>,
}

impl<'a, G> Coevolution<'a, G>
where
    G: GpGame,
{
    pub fn new(fitness: &'a GameFitness<G>, spec: HillisSpec, problems: &'a [Opening]) -> Coevolution<'a, G> {
        Coevolution { fitness, spec, problems, scores: Mutex::new(None) }
    }

    /// The scores of the last evaluation: solvers' problems solved, and
    /// problems' solvers failed.
    pub fn scores(&self) -> Option<hillis::Scores> {
        self.scores.lock().ok().and_then(|mut s| s.take())
    }
}

impl<G> Fitness for Coevolution<'_, G>
where
    G: GpGame,
{
    fn evaluate(&self, population: &[Genome], generation: u64, seed: u64) -> Evaluation {
        let players = Arc::new(self.fitness.players(population));
        let mut evaluation = self.fitness.evaluate_players(&players, generation, seed);
        let contest = OpeningContest {
            fitness: self.fitness,
            players: &players,
            opponent: opponent(&self.spec.opponent),
            goal: self.spec.goal,
        };
        let sample = self.spec.sample as usize;
        let scores = hillis::score(&contest, population, self.problems, sample, generation, seed);
        evaluation.fitness.iter_mut().zip(&scores.solvers).for_each(|(f, s)| *f += s);
        evaluation.games += ((population.len() + self.problems.len()) * sample) as u64;
        if let Ok(mut slot) = self.scores.lock() {
            *slot = Some(scores);
        }
        self.fitness.remember(players);
        evaluation
    }

    fn beats(&self, population: &[Genome], a: usize, b: usize, rng: &mut GpRng) -> bool {
        self.fitness.match_won(population, a, b, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::games::morris::Morris;
    use crate::rng::stream;

    #[test]
    fn openings_lead_to_live_positions_and_mutate_within_bounds() {
        let game = Morris::standard();
        let space = Openings { min: 1, max: 30 };
        let mut rng = stream(2, &[]);
        let mut moves = Vec::new();
        for _ in 0..200 {
            let mut p = space.random(&mut rng);
            for _ in 0..10 {
                p = space.mutate(&p, &mut rng);
                assert!((1..=30).contains(&p.len()), "{p:?}");
            }
            let start = start_position(&game, &p);
            game.legal_moves(&start, &mut moves);
            assert!(!moves.is_empty(), "an opening leaves a game to play");
        }
        // The empty opening is the initial position; the same opening, the same position.
        assert_eq!(game.format_state(&start_position(&game, &[])), game.format_state(&game.initial_state()));
        let p = space.random(&mut rng);
        assert_eq!(game.format_state(&start_position(&game, &p)), game.format_state(&start_position(&game, &p)));
    }
}
