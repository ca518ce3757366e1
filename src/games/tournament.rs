//! Round robins between named players (seeds/003 table 3 and figure 1):
//! every pair plays N double-games, each on its own random board; per pair
//! the games won, the points scored, the two-sided binomial p of the games
//! won and the match winner (the match rule of [`super::duel`]); per player
//! the matches won, games won and total score.
//!
//! Determinism: board i of pair p is drawn from the stream (seed, p, i), its
//! players' choices from streams under the same key, and the totals are
//! integer sums, so a tournament gives the same result at any thread count.
//! Each worker thread makes its own players (a C player loads its own copy
//! of its library) the first time it needs them and keeps them for the rest
//! of the run.

use std::sync::{Mutex, PoisonError};

use rayon::prelude::*;

use super::duel::{Duel, PlayerError, Tally, binomial_two_sided, match_winner};
use crate::rng::stream;

/// How a round robin is played.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Double-games per pair.
    pub double_games: u64,
    pub seed: u64,
    /// Worker threads (1 or more).
    pub threads: usize,
}

/// One pair's games: A is the earlier player of the list.
#[derive(Clone, Debug, PartialEq)]
pub struct PairResult {
    pub a: usize,
    pub b: usize,
    pub tally: Tally,
    pub p_value: f64,
    /// The match winner, 0 for A and 1 for B.
    pub winner: usize,
}

impl PairResult {
    /// Whether `side` (0 for A) is better at significance level `alpha`:
    /// more games won, and p below `alpha`.
    pub fn better(&self, side: usize, alpha: f64) -> bool {
        self.tally.wins[side] > self.tally.wins[1 - side] && self.p_value < alpha
    }
}

/// One player's totals over the round robin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub matches_won: u64,
    pub games_won: u64,
    pub total_score: u64,
    /// Games lost because the player's program failed (a foreign program
    /// that crashed, hung or answered nonsense).
    pub forfeits: u64,
}

/// The result of a round robin.
#[derive(Clone, Debug, PartialEq)]
pub struct Tournament {
    pub pairs: Vec<PairResult>,
    pub standings: Vec<Standing>,
}

/// The pairs (a, b), a < b, in the order they are numbered.
pub fn pairs(n_players: usize) -> Vec<(usize, usize)> {
    (0..n_players).flat_map(|a| (a + 1..n_players).map(move |b| (a, b))).collect()
}

/// Boards a worker plays before its tally is added in: big enough to
/// amortise the bookkeeping, small enough to balance the threads.
const CHUNK: u64 = 256;

/// Plays the round robin of `specs` on `game`.
pub fn round_robin<G: Duel>(game: &G, specs: &[G::Spec], settings: Settings) -> Result<Tournament, PlayerError> {
    let pairs = pairs(specs.len());
    let n = settings.double_games;
    let chunks = n.div_ceil(CHUNK);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads.max(1))
        .build()
        .map_err(|e| PlayerError::new(format!("cannot start {} threads: {e}", settings.threads)))?;
    // Per worker thread, its players (made on first use).
    let workers: Vec<Mutex<Vec<Option<G::Player>>>> =
        (0..pool.current_num_threads()).map(|_| Mutex::new(specs.iter().map(|_| None).collect())).collect();
    let work: Vec<(usize, u64)> = (0..pairs.len()).flat_map(|p| (0..chunks).map(move |c| (p, c))).collect();
    let tallies: Vec<Result<(usize, Tally), PlayerError>> = pool.install(|| {
        work.par_iter()
            .map(|&(p, chunk)| {
                let worker = rayon::current_thread_index().unwrap_or(0) % workers.len();
                let mut players = workers[worker].lock().unwrap_or_else(PoisonError::into_inner);
                let (a, b) = pairs[p];
                let mut pa = take_player(game, specs, &mut players, a)?;
                let mut pb = take_player(game, specs, &mut players, b)?;
                let games = chunk * CHUNK..((chunk + 1) * CHUNK).min(n);
                let keys: Vec<[u64; 2]> = games.map(|i| [p as u64, i]).collect();
                let starts: Vec<G::State> =
                    keys.iter().map(|key| game.random_start(&mut stream(settings.seed, key))).collect();
                let outcome = game.double_games(&starts, &keys, (&mut pa, &mut pb), settings.seed);
                players[a] = Some(pa);
                players[b] = Some(pb);
                outcome.map(|tally| (p, tally))
            })
            .collect()
    });
    let mut totals = vec![Tally::default(); pairs.len()];
    for result in tallies {
        let (p, tally) = result?;
        totals[p].add(&tally);
    }
    let mut standings = vec![Standing::default(); specs.len()];
    let results = pairs
        .iter()
        .zip(totals)
        .enumerate()
        .map(|(p, (&(a, b), tally))| {
            let coin = rand::RngExt::random::<bool>(&mut stream(settings.seed, &[p as u64, u64::MAX]));
            let winner = match_winner(&tally, n, coin);
            for (side, player) in [(0, a), (1, b)] {
                standings[player].games_won += tally.wins[side];
                standings[player].total_score += tally.points[side];
                standings[player].forfeits += tally.forfeits[side];
            }
            standings[if winner == 0 { a } else { b }].matches_won += 1;
            PairResult { a, b, tally, p_value: binomial_two_sided(tally.wins[0], tally.wins[1]), winner }
        })
        .collect();
    Ok(Tournament { pairs: results, standings })
}

/// Player `index` of this worker, made now if it has none yet; the caller
/// puts it back.
fn take_player<G: Duel>(
    game: &G,
    specs: &[G::Spec],
    players: &mut [Option<G::Player>],
    index: usize,
) -> Result<G::Player, PlayerError> {
    match players[index].take() {
        Some(p) => Ok(p),
        None => game.new_player(&specs[index]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::antwars::AntWars;
    use crate::games::duel::NamedPlayers;

    #[test]
    fn results_do_not_depend_on_the_thread_count() {
        let game = AntWars;
        let specs: Vec<_> =
            ["greedy", "random", "greedy"].iter().map(|s| game.parse_player(s).expect("built-in")).collect();
        let run = |threads| {
            round_robin(&game, &specs, Settings { double_games: 600, seed: 11, threads }).expect("built-in players")
        };
        let one = run(1);
        assert_eq!(one, run(3));
        assert_eq!(one.pairs.len(), 3);
        assert_eq!(one.pairs.iter().map(|p| p.tally.games).sum::<u64>(), 3 * 1200);
        let greedy_random = &one.pairs[0];
        assert!(greedy_random.better(0, 0.01), "{greedy_random:?}");
        assert_eq!(one.standings[1].matches_won, 0, "random loses both matches");
        assert_eq!(one.standings.iter().map(|s| s.matches_won).sum::<u64>(), 3);
        assert_eq!(one.standings.iter().map(|s| s.games_won).sum::<u64>(), 3 * 1200, "no draws");
    }
}
