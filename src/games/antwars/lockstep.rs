//! Many games at once, in lockstep, so that a player in a child process (a
//! sandboxed C player, [`super::c_sandbox`]) is asked for its moves in all
//! the games where it is to move in one round trip, instead of one each:
//! a round trip costs microseconds, a contest player's move far less.
//!
//! Each game in flight has a *lane*: a copy of each in-process player (an
//! evolved ant's memory is per game) and, in each child, a copy of the
//! library. Every round, each game plays one ply: in-process players move
//! at once, a child's moves are batched, and the batches of both players
//! are sent before either is awaited, so two children think at the same
//! time. A game is exactly the one [`crate::games::duel::double_game`]
//! would play (the same streams, `Reset` before it, the same plies), so
//! results do not change; only a C player without `Reset`, whose statics
//! carry over, meets its games in another order (docs/ANTWARS.md).
//!
//! A child's fault kills every lane it held. The game the fault happened in
//! (the shared progress count names the entry) is forfeited, and every
//! other game is restored on a fresh child by replaying what that child
//! was sent in it, its pending move last; a fault during the replay
//! forfeits the game replayed, and the rest are replayed again.

use super::Board;
use super::c_sandbox::{Batch, BatchFault, SandboxedC};
use super::players::AntPlayer;
use crate::foreign::child::Fault;
use crate::games::Player;
use crate::games::duel::{PlayerError, Tally};
use crate::rng::{GpRng, stream};

/// Games in flight at once: enough to spread a round trip thin over the
/// moves, few enough that a child holds a library copy for each cheaply.
const LANES: usize = 128;

/// Whether lockstep pays: a player runs in a child process, and every
/// in-process player can be copied for each game in flight.
pub fn pays(a: &AntPlayer, b: &AntPlayer) -> bool {
    let batched = |p: &AntPlayer| matches!(p, AntPlayer::Sandboxed(_));
    (batched(a) || batched(b)) && [a, b].iter().all(|p| batched(p) || p.copies())
}

/// Where a player sits: a child asked in batches, or in-process copies.
enum Seat<'a> {
    Batched {
        player: &'a mut SandboxedC,
        /// This round's entries.
        batch: Batch,
        /// Per lane, everything the child was sent in the game there.
        history: Vec<Batch>,
    },
    Copied(Vec<AntPlayer>),
}

/// A batch sent to a child, and what came of sending it or of awaiting
/// its answers (nothing for a player that was not asked).
type Call<T> = Option<(Batch, Result<T, BatchFault>)>;

/// A game in flight.
struct Lane {
    /// The role A plays (0 in a double-game's first game, 1 in its second).
    a_role: u8,
    board: Board,
    /// Each role's stream.
    rngs: [GpRng; 2],
}

impl Lane {
    /// The role side `side` (0 for A, 1 for B) plays.
    fn role(&self, side: usize) -> Player {
        side as u8 ^ self.a_role
    }
}

struct Lockstep<'a> {
    seats: [Seat<'a>; 2],
    lanes: Vec<Option<Lane>>,
    starts: &'a [Board],
    keys: &'a [[u64; 2]],
    seed: u64,
    done: fn(&Board) -> bool,
    /// The next game to start: double-game `next / 2`, its game `next % 2`.
    next: usize,
    tally: Tally,
}

/// [`crate::games::duel::Duel::double_games`] in lockstep, each game
/// played until `done` (or a forfeit).
pub fn double_games(
    starts: &[Board],
    keys: &[[u64; 2]],
    (a, b): (&mut AntPlayer, &mut AntPlayer),
    seed: u64,
    done: fn(&Board) -> bool,
) -> Result<Tally, PlayerError> {
    let n_lanes = (2 * starts.len().min(keys.len())).min(LANES);
    let seats = [seat(a, n_lanes), seat(b, n_lanes)];
    let mut run = Lockstep { seats, lanes: Vec::new(), starts, keys, seed, done, next: 0, tally: Tally::default() };
    run.lanes = (0..n_lanes).map(|_| None).collect();
    for lane in 0..n_lanes {
        run.start(lane)?;
    }
    while run.lanes.iter().any(Option::is_some) {
        run.round()?;
    }
    Ok(run.tally)
}

/// Where `player` sits for `n_lanes` games in flight.
fn seat(player: &mut AntPlayer, n_lanes: usize) -> Seat<'_> {
    match player {
        AntPlayer::Sandboxed(player) => {
            let lanes = player.hold_lanes(n_lanes);
            Seat::Batched { player, batch: Batch::default(), history: vec![Batch::default(); lanes] }
        }
        other => Seat::Copied((0..n_lanes).filter_map(|_| other.copy()).collect()),
    }
}

impl Lockstep<'_> {
    /// Starts the next game in `lane`, or leaves it empty when none is left.
    fn start(&mut self, lane: usize) -> Result<(), PlayerError> {
        let games = 2 * self.starts.len().min(self.keys.len());
        if self.next >= games {
            self.lanes[lane] = None;
            return Ok(());
        }
        let (double, game) = (self.next / 2, (self.next % 2) as u64);
        self.next += 1;
        let key = self.keys[double];
        let rngs = [0, 1].map(|role| stream(self.seed, &[key[0], key[1], game, role]));
        let new = Lane { a_role: game as u8, board: self.starts[double], rngs };
        let mut forfeit = None;
        for side in 0..2 {
            match &mut self.seats[side] {
                Seat::Copied(players) => {
                    if let Err(e) = players[lane].reset() {
                        if !e.forfeit {
                            return Err(e);
                        }
                        forfeit = forfeit.or(Some(new.role(side)));
                    }
                }
                Seat::Batched { player, batch, history } => {
                    history[lane].clear();
                    if player.resets() {
                        batch.reset(lane);
                        history[lane].reset(lane);
                    }
                }
            }
        }
        self.lanes[lane] = Some(new);
        match forfeit {
            Some(role) => self.finish(lane, Some(role)),
            None => Ok(()),
        }
    }

    /// Counts the game in `lane`, ended (by `forfeit`, if any), and starts
    /// the next there.
    fn finish(&mut self, lane: usize, forfeit: Option<Player>) -> Result<(), PlayerError> {
        if let Some(game) = self.lanes[lane].take() {
            self.tally.record(&game.board.end(forfeit), usize::from(game.a_role));
        }
        self.start(lane)
    }

    /// One ply in every game in flight.
    fn round(&mut self) -> Result<(), PlayerError> {
        for lane in 0..self.lanes.len() {
            let Some(game) = &mut self.lanes[lane] else { continue };
            if (self.done)(&game.board) {
                self.finish(lane, None)?;
                continue;
            }
            let role = game.board.to_move();
            let view = game.board.view(role);
            match &mut self.seats[usize::from(role ^ game.a_role)] {
                Seat::Copied(players) => match players[lane].choose(&view, &mut game.rngs[usize::from(role)]) {
                    Ok(dir) => game.board = game.board.step(dir),
                    Err(e) if e.forfeit => self.finish(lane, Some(role))?,
                    Err(e) => return Err(e),
                },
                Seat::Batched { batch, history, .. } => {
                    batch.ask(lane, &view);
                    history[lane].ask(lane, &view);
                }
            }
        }
        // Both children think at once: every batch is sent before any is awaited.
        let mut sent: [Call<()>; 2] = [None, None];
        for (side, seat) in self.seats.iter_mut().enumerate() {
            if let Seat::Batched { player, batch, .. } = seat
                && !batch.is_empty()
            {
                let mut out = std::mem::take(batch);
                let result = player.send(&mut out);
                sent[side] = Some((out, result));
            }
        }
        let mut answered: [Call<Vec<i32>>; 2] = [None, None];
        for (side, entry) in sent.into_iter().enumerate() {
            let Some((out, result)) = entry else { continue };
            let Seat::Batched { player, .. } = &mut self.seats[side] else { continue };
            let answers = result.and_then(|()| player.receive(&out));
            answered[side] = Some((out, answers));
        }
        for (side, entry) in answered.into_iter().enumerate() {
            match entry {
                Some((out, Ok(answers))) => {
                    for (i, answer) in answers.into_iter().enumerate() {
                        let (lane, asked) = out.entry(i);
                        if asked {
                            self.apply(side, lane, answer)?;
                        }
                    }
                }
                Some((out, Err(fault))) => self.recover(side, &out, fault)?,
                None => {}
            }
        }
        Ok(())
    }

    /// Plays the move `answer` side `side`'s child gave in `lane`, or
    /// forfeits the game if it is no direction.
    fn apply(&mut self, side: usize, lane: usize, answer: i32) -> Result<(), PlayerError> {
        let Some(game) = &mut self.lanes[lane] else { return Ok(()) };
        let Seat::Batched { player, .. } = &mut self.seats[side] else { return Ok(()) };
        let role = game.board.to_move();
        match player.direction(answer, &game.board.view(role)) {
            Ok(dir) => {
                game.board = game.board.step(dir);
                Ok(())
            }
            Err(_) => self.finish(lane, Some(role)),
        }
    }

    /// After side `side`'s child faulted on `out`: the game it faulted in
    /// is forfeited, the others are replayed on a fresh child and their
    /// pending moves played.
    fn recover(&mut self, side: usize, out: &Batch, first: BatchFault) -> Result<(), PlayerError> {
        let pending: Vec<usize> =
            (0..out.len()).filter_map(|i| Some(out.entry(i)).filter(|e| e.1).map(|e| e.0)).collect();
        let Seat::Batched { player, history, .. } = &mut self.seats[side] else { return Ok(()) };
        // The lanes forfeited, with what their player did there.
        let mut culprits: Vec<(usize, Fault, &str)> = Vec::new();
        let mut no_child = None;
        match culprit(out, first) {
            Ok(c) => culprits.push(c),
            Err(fault) => no_child = Some(fault),
        }
        let mut answers = Vec::new();
        let mut replay = Batch::default();
        // Where in the replay each pending lane's move is answered.
        let mut asked_at: Vec<(usize, usize)> = Vec::new();
        while no_child.is_none() {
            replay.clear();
            asked_at.clear();
            for (lane, game) in self.lanes.iter().enumerate() {
                if game.is_none() || culprits.iter().any(|c| c.0 == lane) || history[lane].is_empty() {
                    continue;
                }
                replay.extend(&history[lane]);
                if pending.contains(&lane) {
                    asked_at.push((lane, replay.len() - 1));
                }
            }
            if replay.is_empty() {
                break;
            }
            match player.send(&mut replay).and_then(|()| player.receive(&replay)) {
                Ok(got) => {
                    answers = got;
                    break;
                }
                Err(fault) => match culprit(&replay, fault) {
                    Ok(c) => culprits.push(c),
                    Err(fault) => no_child = Some(fault),
                },
            }
        }
        if let Some(fault) = no_child {
            // No child to replay on: every game it held is lost.
            for (lane, game) in self.lanes.iter().enumerate() {
                let held = pending.contains(&lane) || !history[lane].is_empty();
                if game.is_some() && held && !culprits.iter().any(|c| c.0 == lane) {
                    culprits.push((lane, fault.clone(), "while starting a game"));
                }
            }
            asked_at.clear();
        }
        for (_, fault, when) in &culprits {
            player.forfeit_after(fault, when);
        }
        let culprit_lanes: Vec<usize> = culprits.iter().map(|c| c.0).collect();
        for (lane, at) in asked_at {
            if let Some(&answer) = answers.get(at) {
                self.apply(side, lane, answer)?;
            }
        }
        for lane in culprit_lanes {
            if let Some(game) = &self.lanes[lane] {
                let role = game.role(side);
                self.finish(lane, Some(role))?;
            }
        }
        Ok(())
    }
}

/// The lane of the entry of `batch` a fault names, the fault and when in
/// the game it happened; the fault itself when it names none (no child
/// could be started).
fn culprit(batch: &Batch, fault: BatchFault) -> Result<(usize, Fault, &'static str), Fault> {
    let entry = fault.entry.ok_or_else(|| fault.fault.clone())?;
    let (lane, asked) = batch.entry(entry.min(batch.len().saturating_sub(1)));
    Ok((lane, fault.fault, if asked { "during `Move`" } else { "while starting a game" }))
}
