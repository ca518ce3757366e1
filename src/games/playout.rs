//! Random playouts, for speed measurements and as the simplest player: at
//! each turn [`Game::random_move`] draws a legal move from a seeded RNG, so a
//! seed fixes the whole game. [`random_playout`] is the two-player fast path;
//! [`random_joint_playout`] plays any game of the model (n roles, chance,
//! simultaneous moves).

use std::time::Instant;

use rand::{Rng, RngExt};

use super::{Game, GameResult, Turn, TwoPlayer};

/// What one playout ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    pub result: GameResult,
    /// Turns played (one turn = one [`Game::Move`]).
    pub plies: u32,
}

/// Plays random moves from `state` to the end of the game.
/// `moves` is scratch space, reused between calls.
pub fn random_playout<G: TwoPlayer, R: Rng>(
    game: &G,
    state: &G::State,
    rng: &mut R,
    moves: &mut Vec<G::Move>,
) -> Playout {
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
pub fn random_playouts<G: TwoPlayer, R: Rng>(game: &G, n_games: u64, rng: &mut R) -> PlayoutStats {
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

/// Where a playout of any game ended: the final state and every role's score.
#[derive(Clone, Debug)]
pub struct JointPlayout<S> {
    pub state: S,
    pub scores: Vec<u8>,
    /// Turns played, chance events included.
    pub turns: u32,
}

/// Plays any game of the model from `state` to its end: one role's random
/// move, a chance outcome drawn with its probability, or a joint move of
/// uniformly drawn moves, one per role.
pub fn random_joint_playout<G: Game, R: Rng>(game: &G, state: &G::State, rng: &mut R) -> JointPlayout<G::State> {
    match random_joint_playout_within(game, state, rng, None, u32::MAX) {
        Ok(end) => end,
        // Not reached: without a deadline or a cap the playout runs to the end.
        Err(_) => JointPlayout { state: state.clone(), scores: vec![0; game.n_roles()], turns: 0 },
    }
}

/// [`random_joint_playout`], given up (`None`) at the first move made after
/// `deadline`: on an engine that takes tens of milliseconds a state (the
/// prover on amazonsTorus), one playout can outlast a play clock.
pub fn random_joint_playout_until<G: Game, R: Rng>(
    game: &G,
    state: &G::State,
    rng: &mut R,
    deadline: Option<Instant>,
) -> Option<JointPlayout<G::State>> {
    random_joint_playout_within(game, state, rng, deadline, u32::MAX).ok()
}

/// [`random_joint_playout_until`], stopped after `max_turns` turns: the
/// state reached then may not be over, and its scores are 0 (the caller
/// scores it). `Err(turns)` when the deadline came first, after `turns`.
pub fn random_joint_playout_within<G: Game, R: Rng>(
    game: &G,
    state: &G::State,
    rng: &mut R,
    deadline: Option<Instant>,
    max_turns: u32,
) -> Result<JointPlayout<G::State>, u32> {
    let mut state = state.clone();
    let mut scratch = Vec::new();
    let mut turns = 0;
    while turns < max_turns {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(turns);
        }
        match game.turn(&state) {
            Turn::Over => break,
            Turn::Simultaneous => {
                let mut joint = Vec::with_capacity(game.n_roles());
                for role in 0..game.n_roles() {
                    game.legal_moves_of(&state, role as u8, &mut scratch);
                    if scratch.is_empty() {
                        break;
                    }
                    joint.push(scratch[rng.random_range(0..scratch.len())].clone());
                }
                if joint.len() < game.n_roles() {
                    break;
                }
                state = game.apply_joint(&state, &joint);
            }
            Turn::Role(_) | Turn::Chance => match game.random_move(&state, rng, &mut scratch) {
                Some(mv) => state = game.apply(&state, &mv),
                None => break,
            },
        }
        turns += 1;
    }
    // By the model's invariant a state without moves is over; a missing score
    // would be an engine bug (or a playout cut short), scored as 0 rather
    // than a panic.
    let scores = (0..game.n_roles()).map(|r| game.score(&state, r as u8).unwrap_or(0)).collect();
    Ok(JointPlayout { state, scores, turns })
}
