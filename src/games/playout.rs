//! Random playouts, for speed measurements and as the simplest player: at
//! each turn [`Game::random_move`] draws a legal move from a seeded RNG, so a
//! seed fixes the whole game.

use rand::Rng;

use super::{Game, GameResult};

/// What one playout ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    pub result: GameResult,
    /// Turns played (one turn = one [`Game::Move`]).
    pub plies: u32,
}

/// Plays random moves from `state` to the end of the game.
/// `moves` is scratch space, reused between calls.
pub fn random_playout<G: Game, R: Rng>(game: &G, state: &G::State, rng: &mut R, moves: &mut Vec<G::Move>) -> Playout {
    let mut state = state.clone();
    let mut plies = 0;
    loop {
        let Some(mv) = game.random_move(&state, rng, moves) else {
            // By the trait's invariant the game is over; a result of `None`
            // here would be an engine bug, scored as a draw rather than a panic.
            let result = game.result(&state).unwrap_or(GameResult::Draw);
            return Playout { result, plies };
        };
        state = game.apply(&state, &mv);
        plies += 1;
    }
}

/// Totals over many playouts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayoutStats {
    pub games: u64,
    /// Wins of player 0 and player 1, and draws.
    pub wins: [u64; 2],
    pub draws: u64,
    pub plies: u64,
}

/// Plays `n_games` random playouts from the initial state.
pub fn random_playouts<G: Game, R: Rng>(game: &G, n_games: u64, rng: &mut R) -> PlayoutStats {
    let start = game.initial_state();
    let mut moves = Vec::with_capacity(64);
    let mut stats = PlayoutStats::default();
    for _ in 0..n_games {
        let p = random_playout(game, &start, rng, &mut moves);
        stats.games += 1;
        stats.plies += u64::from(p.plies);
        match p.result {
            GameResult::Winner(w) => stats.wins[w as usize & 1] += 1,
            GameResult::Draw => stats.draws += 1,
        }
    }
    stats
}
