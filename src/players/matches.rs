//! Matches between two players of a two-player game: games in parallel, a
//! chunk at a time, each with random streams named by (seed, game, side), so
//! the result is the same at any thread count. Colours alternate: A moves
//! first in even-numbered games.

use rayon::prelude::*;

use crate::games::domain::GpGame;
use crate::games::playout::random_playout;
use crate::games::{GameResult, Player};
use crate::rng::stream;
use crate::search::players::{GameRecord, PlayerFactory, a_colour, play_game};

/// Totals of one side of a match. Sums are integers, so they do not depend
/// on the order games finish in.
#[derive(Debug, Default, Clone)]
pub struct SideStats {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub turns: u64,
    expanded_sum: u128,
    expanded_sq: u128,
}

impl SideStats {
    pub fn score(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    pub fn states_mean(&self) -> f64 {
        if self.turns == 0 { 0.0 } else { self.expanded_sum as f64 / self.turns as f64 }
    }

    pub fn states_sd(&self) -> f64 {
        if self.turns < 2 {
            return 0.0;
        }
        let n = self.turns as f64;
        let mean = self.expanded_sum as f64 / n;
        ((self.expanded_sq as f64 - n * mean * mean) / (n - 1.0)).max(0.0).sqrt()
    }

    /// Turns of a player that does not search: one state each.
    fn add_random_turns(&mut self, turns: u32) {
        self.turns += u64::from(turns);
        self.expanded_sum += u128::from(turns);
        self.expanded_sq += u128::from(turns);
    }

    fn add_turns(&mut self, expanded: &[u64]) {
        for &e in expanded {
            self.turns += 1;
            self.expanded_sum += u128::from(e);
            self.expanded_sq += u128::from(e) * u128::from(e);
        }
    }
}

/// Games are played in parallel a chunk at a time and folded into the
/// totals in game order, so memory stays flat however many games a match has.
const CHUNK: u64 = 1 << 14;

/// Receives each game of a match: its index, the colour A played, the game.
pub type RecordSink<'a, M> = &'a mut dyn FnMut(u64, Player, &GameRecord<M>) -> std::io::Result<()>;

/// Plays `n` games between A and B, in parallel; returns A's and B's totals.
/// `record`, if given, receives each game (its index, and the colour A
/// played) in game order.
pub fn play_match<G: GpGame>(
    game: &G,
    start: &G::State,
    (a, b): (&PlayerFactory<G::State>, &PlayerFactory<G::State>),
    n: u64,
    seed: u64,
    mut record: Option<RecordSink<'_, G::Move>>,
) -> std::io::Result<(SideStats, SideStats)> {
    if record.is_none() && matches!((a, b), (PlayerFactory::Random, PlayerFactory::Random)) {
        return Ok(random_match(game, start, n, seed));
    }
    let (mut sa, mut sb) = (SideStats::default(), SideStats::default());
    for first in (0..n).step_by(CHUNK as usize) {
        let records: Vec<_> = (first..n.min(first.saturating_add(CHUNK)))
            .into_par_iter()
            .map(|i| {
                let mut pa = a.make::<G>(seed, &[i, 0]);
                let mut pb = b.make::<G>(seed, &[i, 1]);
                let colour = a_colour(i);
                let record = if colour == 0 {
                    play_game(game, start, [pa.as_mut(), pb.as_mut()])
                } else {
                    play_game(game, start, [pb.as_mut(), pa.as_mut()])
                };
                (colour, record)
            })
            .collect();
        for (i, (colour, game_record)) in (first..).zip(&records) {
            let (ca, cb) = (*colour as usize, 1 - *colour as usize);
            score_game(&mut sa, &mut sb, game_record.result, *colour);
            sa.add_turns(&game_record.expanded[ca]);
            sb.add_turns(&game_record.expanded[cb]);
            if let Some(sink) = record.as_mut() {
                sink(i, *colour, game_record)?;
            }
        }
    }
    Ok((sa, sb))
}

/// One JSON line for a game: who won, the moves in the game's notation, and
/// the final position, so that a match can be replayed and inspected.
pub fn game_line<G: GpGame>(
    game: &G,
    start: &G::State,
    i: u64,
    colour: Player,
    record: &GameRecord<G::Move>,
) -> String {
    let mut state = start.clone();
    let mut moves = Vec::with_capacity(record.moves.len());
    for mv in &record.moves {
        moves.push(game.format_move(&state, mv));
        state = game.apply(&state, mv);
    }
    let winner = match record.result {
        GameResult::Draw => "draw",
        GameResult::Winner(w) if w == colour => "a",
        GameResult::Winner(_) => "b",
    };
    let line = serde_json::json!({
        "game": i, "a_moves_first": colour == game.to_move(start), "winner": winner,
        "turns": moves.len(), "moves": moves, "final": game.format_state(&state),
    });
    format!("{line}\n")
}

/// Counts one game for A (who played `colour`) and B.
fn score_game(sa: &mut SideStats, sb: &mut SideStats, result: GameResult, colour: Player) {
    match result {
        GameResult::Draw => {
            sa.draws += 1;
            sb.draws += 1;
        }
        GameResult::Winner(w) if w == colour => {
            sa.wins += 1;
            sb.losses += 1;
        }
        GameResult::Winner(_) => {
            sa.losses += 1;
            sb.wins += 1;
        }
    }
}

/// Random against random: each game is one random playout, without the
/// player machinery (the speed benchmark of the engines).
fn random_match<G: GpGame>(game: &G, start: &G::State, n: u64, seed: u64) -> (SideStats, SideStats) {
    let (mut sa, mut sb) = (SideStats::default(), SideStats::default());
    for first in (0..n).step_by(CHUNK as usize) {
        let results: Vec<(Player, GameResult, u32)> = (first..n.min(first.saturating_add(CHUNK)))
            .into_par_iter()
            .map_init(Vec::new, |moves, i| {
                let mut rng = stream(seed, &[i]);
                let p = random_playout(game, start, &mut rng, moves);
                (a_colour(i), p.result, p.plies)
            })
            .collect();
        for (colour, result, plies) in results {
            let (a_turns, b_turns) =
                if colour == 0 { (plies.div_ceil(2), plies / 2) } else { (plies / 2, plies.div_ceil(2)) };
            sa.add_random_turns(a_turns);
            sb.add_random_turns(b_turns);
            score_game(&mut sa, &mut sb, result, colour);
        }
    }
    (sa, sb)
}
