//! Players of two-player games and the games between them: the
//! [`GamePlayer`] trait, random, searching and UCT players, and
//! [`PlayerFactory`], which makes fresh players for each game of a match.
//! The text that names them is parsed in the players module above the
//! search (one grammar for every command).
//!
//! Searching players break ties between equally valued moves at random (from
//! their own seeded stream), so a match between two deterministic evaluators
//! is not one game replayed; with `ties=first` they take the first best move
//! in the game's move order, as textbook α-β does.

use std::sync::Arc;

use rand::RngExt;

use super::alphabeta::{AlphaBeta, Evals, Evaluator, SearchParams, Ties};
use super::evaluators::{Material, RandomEval};
use super::programs::{GpProgram, ProgramEval};
use super::uct::{Think, Uct, UctParams};
use crate::games::{Game, GameResult, Player, TwoPlayer};
use crate::rng::{GpRng, stream};

/// Something that picks moves.
pub trait GamePlayer<G: TwoPlayer>: Send {
    /// The index of the chosen move in `moves`, the legal moves of `state` (never empty).
    fn choose(&mut self, game: &G, state: &G::State, moves: &[G::Move]) -> usize;
    /// States expanded for the last choice.
    fn expanded(&self) -> u64;
    /// [`GamePlayer::choose`], and the value the player gives each of
    /// `moves`, where it values them (a searching player whose evaluation
    /// draws no random numbers: [`AlphaBeta::choose_with_values`]); `None`
    /// for a player that does not.
    fn choose_with_values(
        &mut self,
        game: &G,
        state: &G::State,
        moves: &[G::Move],
    ) -> (usize, Option<Vec<Option<f64>>>) {
        (self.choose(game, state, moves), None)
    }
}

/// Draws moves as the game's own random player does (for Morris, as
/// OpenSpiel: a placement or step first, then a man to remove).
pub struct RandomPlayer<M>(pub GpRng, pub Vec<M>);

impl<G: TwoPlayer> GamePlayer<G> for RandomPlayer<G::Move>
where
    G::Move: Send,
{
    fn choose(&mut self, game: &G, state: &G::State, moves: &[G::Move]) -> usize {
        match game.random_move(state, &mut self.0, &mut self.1) {
            Some(mv) => moves.iter().position(|m| *m == mv).unwrap_or(0),
            None => self.0.random_range(0..moves.len()),
        }
    }

    fn expanded(&self) -> u64 {
        1
    }
}

/// A UCT player for `play` and `tournament` (`uct:N`, `uct:ms=M`): a fresh
/// tree per move, so a seed and a number of iterations fix its games.
pub struct UctPlayer<G: Game> {
    uct: Uct<G>,
    think: Think,
    iterations: u64,
}

impl<G: Game> UctPlayer<G> {
    pub fn new(params: UctParams, think: Think, rng: GpRng) -> UctPlayer<G> {
        UctPlayer { uct: Uct::new(params, rng), think, iterations: 0 }
    }
}

impl<G: TwoPlayer> GamePlayer<G> for UctPlayer<G>
where
    G::State: Send,
    G::Move: Send,
{
    fn choose(&mut self, game: &G, state: &G::State, moves: &[G::Move]) -> usize {
        let budget = self.think.budget();
        let mover: Player = game.to_move(state);
        self.uct.reset();
        let stats = self.uct.search(game, state, budget);
        self.iterations = stats.iterations;
        let best = self.uct.best_move(mover);
        self.uct.reset();
        best.and_then(|(mv, _)| moves.iter().position(|m| *m == mv)).unwrap_or(0)
    }

    /// Iterations of the last search.
    fn expanded(&self) -> u64 {
        self.iterations
    }
}

/// α-β with an evaluator, and optionally a separate evaluator ranking
/// siblings. A player of a known evaluator names its type (`Material`), so
/// its search is compiled with the evaluation inlined.
pub struct SearchPlayer<G: TwoPlayer, E: Evaluator<G> + Send + ?Sized = dyn Evaluator<G> + Send> {
    pub search: AlphaBeta<G>,
    pub eval: Box<E>,
    pub order: Option<Box<dyn Evaluator<G> + Send>>,
}

impl<G: TwoPlayer, E: Evaluator<G> + Send + ?Sized> GamePlayer<G> for SearchPlayer<G, E>
where
    G::Move: Send,
{
    fn choose(&mut self, game: &G, state: &G::State, moves: &[G::Move]) -> usize {
        let order: Option<&mut dyn Evaluator<G>> = match self.order.as_mut() {
            Some(o) => Some(o.as_mut()),
            None => None,
        };
        let mut evals = Evals { eval: self.eval.as_mut(), order };
        self.search.choose(game, state, moves, &mut evals)
    }

    fn expanded(&self) -> u64 {
        self.search.expanded
    }

    fn choose_with_values(
        &mut self,
        game: &G,
        state: &G::State,
        moves: &[G::Move],
    ) -> (usize, Option<Vec<Option<f64>>>) {
        if !self.eval.deterministic() {
            return (self.choose(game, state, moves), None);
        }
        let order: Option<&mut dyn Evaluator<G>> = match self.order.as_mut() {
            Some(o) => Some(o.as_mut()),
            None => None,
        };
        let mut evals = Evals { eval: self.eval.as_mut(), order };
        let (best, values) = self.search.choose_with_values(game, state, moves, &mut evals);
        (best, Some(values))
    }
}

/// The programs a GP player needs, loaded and bound once, shared by every
/// game it plays: what evaluates leaves (an individual's `eval` tree, a
/// policy or a weight vector) and, for a selective player, the individual's
/// `order` tree if it has one.
pub struct GpPrograms<S> {
    pub eval: Arc<GpProgram<S>>,
    pub order: Option<Arc<GpProgram<S>>>,
}

impl<S> Clone for GpPrograms<S> {
    fn clone(&self) -> Self {
        GpPrograms { eval: self.eval.clone(), order: self.order.clone() }
    }
}

/// The stream tag of a searching player's tie-breaking.
const TIES: u64 = 0x7135;

/// Makes fresh players for each game (players hold RNGs and buffers).
pub enum PlayerFactory<S> {
    Random,
    Material(SearchParams),
    RandomGuide(SearchParams),
    Gp(GpPrograms<S>, SearchParams),
    Uct(UctParams, Think),
}

impl<S: Send + Sync + 'static> PlayerFactory<S> {
    /// A player for one game; `seed` and `tags` name its random stream.
    pub fn make<G: TwoPlayer<State = S> + crate::games::domain::GpDomain + 'static>(
        &self,
        seed: u64,
        tags: &[u64],
    ) -> Box<dyn GamePlayer<G>>
    where
        G::Move: Send,
    {
        match self {
            PlayerFactory::Random => Box::new(RandomPlayer(stream(seed, tags), Vec::new())),
            PlayerFactory::Material(p) => Box::new(SearchPlayer::<G, Material> {
                search: searcher(*p, seed, tags),
                eval: Box::new(Material),
                order: None,
            }),
            PlayerFactory::RandomGuide(p) => Box::new(SearchPlayer {
                search: searcher(*p, seed, tags),
                eval: Box::new(RandomEval(stream(seed, tags))),
                order: None,
            }),
            PlayerFactory::Uct(params, think) => Box::new(UctPlayer::new(*params, *think, stream(seed, tags))),
            PlayerFactory::Gp(programs, p) => Box::new(SearchPlayer {
                search: searcher(*p, seed, tags),
                eval: Box::new(ProgramEval::new(programs.eval.clone())),
                order: programs.order.clone().map(|o| Box::new(ProgramEval::new(o)) as Box<dyn Evaluator<G> + Send>),
            }),
        }
    }
}

/// A searcher for `params`; with random ties, its stream is named by `seed` and `tags`.
fn searcher<G: TwoPlayer>(params: SearchParams, seed: u64, tags: &[u64]) -> AlphaBeta<G> {
    match params.ties {
        Ties::Random => AlphaBeta::with_tie_break(params, stream(seed, &[tags, &[TIES]].concat())),
        Ties::First => AlphaBeta::new(params),
    }
}

/// What one game produced.
#[derive(Debug, Clone)]
pub struct GameRecord<M> {
    pub result: GameResult,
    /// States expanded on each turn, per player (by player index).
    pub expanded: [Vec<u64>; 2],
    /// The moves played, in order.
    pub moves: Vec<M>,
}

/// Plays one game from `start`; `players[p]` moves for player `p`.
pub fn play_game<G: TwoPlayer>(
    game: &G,
    start: &G::State,
    players: [&mut dyn GamePlayer<G>; 2],
) -> GameRecord<G::Move> {
    let mut state = start.clone();
    let mut moves = Vec::with_capacity(64);
    let mut expanded: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
    let mut played = Vec::new();
    loop {
        game.legal_moves(&state, &mut moves);
        if moves.is_empty() {
            let result = game.result(&state).unwrap_or(GameResult::Draw);
            return GameRecord { result, expanded, moves: played };
        }
        let p = game.to_move(&state) as usize & 1;
        let i = players[p].choose(game, &state, &moves).min(moves.len() - 1);
        expanded[p].push(players[p].expanded());
        state = game.apply(&state, &moves[i]);
        played.push(moves.swap_remove(i));
    }
}

/// Whose colour player A has in game `i` of a match: colours alternate.
pub fn a_colour(i: u64) -> Player {
    (i % 2) as Player
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selective_keep_counts() {
        let p = SearchParams { selective_ratio: Some(0.25), ..SearchParams::full(3) };
        assert_eq!(p.keep(4), 1);
        assert_eq!(p.keep(5), 2);
        let p = SearchParams { max_branching: Some(5), selective_ratio: None, ..p };
        assert_eq!((p.keep(20), p.keep(3)), (5, 3));
    }
}
