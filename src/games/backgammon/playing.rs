//! Backgammon as a game of named players (`games::duel`): what tournaments
//! and evolution by matches play. A start is a stream of dice, so the two
//! games of a double-game throw the same dice turn by turn with the sides
//! swapped (duplicate backgammon: a lucky roll helps each player once).
//! A game's points are the winner's 1, 2 or 3 (a single game, a gammon, a
//! backgammon), the loser's 0.

use super::players::{BgPlayer, BgSpec, Evaluator, GammonProgram, TREES};
use super::{Backgammon, Move, Phase};
use crate::games::Game;
use crate::games::duel::{Duel, GameEnd, NamedPlayers, PlayerError};
use crate::lang::{PrimSet, Tree};
use crate::rng::{GpRng, stream};
use std::sync::Arc;

/// A game that has not ended after this many turns is an engine's fault.
const MAX_TURNS: u32 = 10_000;

impl Duel for Backgammon {
    /// The seed of the game's dice.
    type State = u64;
    type Spec = BgSpec;
    type Player = BgPlayer;

    fn name(&self) -> &str {
        "backgammon"
    }

    fn random_start(&self, rng: &mut GpRng) -> u64 {
        rand::RngExt::random(rng)
    }

    fn new_player(&self, spec: &BgSpec) -> Result<BgPlayer, PlayerError> {
        Ok(BgPlayer::new(spec.clone()))
    }

    /// The opening roll and every roll after it come from the start's
    /// dice; each player's own random choices from its stream.
    fn play(&self, start: &u64, players: [&mut BgPlayer; 2], rngs: [&mut GpRng; 2]) -> Result<GameEnd, PlayerError> {
        let mut dice = stream(*start, &[]);
        let mut pos = self.initial_state();
        let mut scratch = Vec::new();
        let [p0, p1] = players;
        let [r0, r1] = rngs;
        for _ in 0..MAX_TURNS {
            let mv = match pos.phase {
                Phase::Over { winner, points } => {
                    let mut won = [0, 0];
                    won[usize::from(winner & 1)] = u32::from(points);
                    return Ok(GameEnd { points: won, winner: Some(winner), killed: None, forfeit: None });
                }
                Phase::ToPlay(roll) => {
                    let play = if pos.on_roll == 0 { p0.play(&pos, roll, r0) } else { p1.play(&pos, roll, r1) };
                    Move::Play(play)
                }
                Phase::Opening | Phase::ToRoll => match self.random_move(&pos, &mut dice, &mut scratch) {
                    Some(mv) => mv,
                    None => break,
                },
            };
            pos = self.play(&pos, &mv);
        }
        Err(PlayerError::new(format!("a backgammon game did not end in {MAX_TURNS} turns")))
    }
}

impl NamedPlayers for Backgammon {
    fn parse_player(&self, text: &str) -> Result<BgSpec, PlayerError> {
        BgSpec::parse(text)
    }

    fn evolved_trees(&self) -> &'static [&'static str] {
        &TREES
    }

    /// An evolved individual plays at one ply, as the paper's did.
    fn evolved_player(&self, name: &str, ps: &PrimSet, trees: &[Tree]) -> Result<BgSpec, PlayerError> {
        let [contact, race] = trees else {
            return Err(PlayerError::new(format!("individual `{name}` has {} trees, not 2", trees.len())));
        };
        let program = GammonProgram::from_trees(name, ps.clone(), &[contact.clone(), race.clone()])
            .map_err(|_| PlayerError::new(format!("individual `{name}`'s primset does not bind to backgammon")))?;
        Ok(BgSpec { evaluator: Evaluator::Gp(Arc::new(program)), ply: 1 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::duel::double_game;

    #[test]
    fn pubeval_beats_random_with_the_same_dice_both_ways() {
        let game = Backgammon;
        let spec = |t: &str| game.parse_player(t).expect("a player");
        let (mut a, mut b) = (BgPlayer::new(spec("pubeval")), BgPlayer::new(spec("random")));
        let mut wins = 0;
        for board in 0..20 {
            let t = double_game(&game, &(board * 7919), (&mut a, &mut b), 5, [0, board]).expect("games end");
            assert_eq!(t.games, 2);
            wins += t.wins[0];
        }
        assert!(wins >= 36, "pubeval won {wins} of 40 against random");
        // The same dice and players give the same games.
        let again = double_game(&game, &3, (&mut a, &mut b), 5, [0, 1]).expect("games end");
        assert_eq!(again, double_game(&game, &3, (&mut a, &mut b), 5, [0, 1]).expect("games end"));
    }
}
