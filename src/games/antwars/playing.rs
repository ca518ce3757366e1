//! Games between Ant Wars players, as double-games, matches and
//! tournaments play them ([`Duel`]): one at a time, each ant in turn moving
//! where its player says, or many at once in lockstep when a player runs in
//! a child process ([`super::lockstep`]).

use super::gp_ant::GpAnt;
use super::lockstep;
use super::players::{AntPlayer, AntSpec};
use super::{AntWars, Board};
use crate::games::Player;
use crate::games::duel::{Duel, GameEnd, PlayerError, Tally, double_games_in_turn};
use crate::rng::GpRng;

impl Duel for AntWars {
    type State = Board;
    type Spec = AntSpec;
    type Player = AntPlayer;

    fn name(&self) -> &str {
        "antwars"
    }

    fn random_start(&self, rng: &mut GpRng) -> Board {
        AntWars::random_board(rng)
    }

    fn new_player(&self, spec: &AntSpec) -> Result<AntPlayer, PlayerError> {
        Ok(match spec {
            AntSpec::Random => AntPlayer::Random,
            AntSpec::Greedy => AntPlayer::Greedy,
            AntSpec::C(source) if crate::foreign::trusted() => AntPlayer::C(source.load()?),
            AntSpec::C(source) => AntPlayer::Sandboxed(source.start()?),
            AntSpec::Gp(program) => AntPlayer::Gp(Box::new(GpAnt::new(program.clone()))),
        })
    }

    fn play(&self, start: &Board, players: [&mut AntPlayer; 2], rngs: [&mut GpRng; 2]) -> Result<GameEnd, PlayerError> {
        play_plies(start, players, rngs, Board::is_over).map(|end| end.board.end(end.forfeit))
    }

    fn play_for_result(
        &self,
        start: &Board,
        players: [&mut AntPlayer; 2],
        rngs: [&mut GpRng; 2],
    ) -> Result<GameEnd, PlayerError> {
        let done = stop_at(players[0], players[1]);
        play_plies(start, players, rngs, done).map(|end| end.board.end(end.forfeit))
    }

    fn double_games(
        &self,
        starts: &[Board],
        keys: &[[u64; 2]],
        (a, b): (&mut AntPlayer, &mut AntPlayer),
        seed: u64,
    ) -> Result<Tally, PlayerError> {
        if !lockstep::pays(a, b) {
            return double_games_in_turn(self, starts, keys, (a, b), seed);
        }
        let done = stop_at(a, b);
        lockstep::double_games(starts, keys, (a, b), seed, done)
    }
}

/// Where games between `a` and `b` played for their result stop: plies
/// after the last food is eaten change neither score, unless a player
/// carries statics from game to game and must see every ply.
pub fn stop_at(a: &AntPlayer, b: &AntPlayer) -> fn(&Board) -> bool {
    if a.forgets_between_games() && b.forgets_between_games() { Board::is_settled } else { Board::is_over }
}

/// Where a game stopped: its last board, and the role that forfeited it.
pub struct Ended {
    pub board: Board,
    pub forfeit: Option<Player>,
}

/// Plays a game from `start` to its end: both players are reset, then each
/// ant in turn moves where its player says, seeing its view. The final
/// board, or the board where a player forfeited.
pub fn play_game(start: &Board, players: [&mut AntPlayer; 2], rngs: [&mut GpRng; 2]) -> Result<Ended, PlayerError> {
    play_plies(start, players, rngs, Board::is_over)
}

/// [`play_game`] until `done` says the board is where to stop. A player's
/// forfeit ends the game there; any other error stops the run.
fn play_plies(
    start: &Board,
    players: [&mut AntPlayer; 2],
    rngs: [&mut GpRng; 2],
    done: fn(&Board) -> bool,
) -> Result<Ended, PlayerError> {
    let [p0, p1] = players;
    let [r0, r1] = rngs;
    let forfeit = |role: Player, e: PlayerError, board: Board| {
        if e.forfeit { Ok(Ended { board, forfeit: Some(role) }) } else { Err(e) }
    };
    let mut board = *start;
    for (role, p) in [(0, &mut *p0), (1, &mut *p1)] {
        if let Err(e) = p.reset() {
            return forfeit(role, e, board);
        }
    }
    while !done(&board) {
        let role = board.to_move();
        let view = board.view(role);
        let dir = if role == 0 { p0.choose(&view, r0) } else { p1.choose(&view, r1) };
        match dir {
            Ok(dir) => board = board.step(dir),
            Err(e) => return forfeit(role, e, board),
        }
    }
    Ok(Ended { board, forfeit: None })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::stream;

    #[test]
    fn games_are_reproducible_from_their_streams() {
        let start = AntWars::random_board(&mut stream(9, &[]));
        let play = || {
            let (mut a, mut b) = (AntPlayer::Random, AntPlayer::Greedy);
            let (mut r0, mut r1) = (stream(1, &[0]), stream(1, &[1]));
            play_game(&start, [&mut a, &mut b], [&mut r0, &mut r1]).expect("built-in players").board
        };
        assert_eq!(play(), play());
        assert!(play().is_over());
    }

    #[test]
    fn games_played_for_their_result_stop_when_the_food_is_gone_with_the_same_result() {
        let mut stopped_early = 0;
        for i in 0..300 {
            let start = AntWars::random_board(&mut stream(3, &[i]));
            let (mut a, mut b) = (AntPlayer::Greedy, AntPlayer::Greedy);
            let rngs = || (stream(4, &[i, 0]), stream(4, &[i, 1]));
            let (mut r0, mut r1) = rngs();
            let whole = AntWars.play(&start, [&mut a, &mut b], [&mut r0, &mut r1]).expect("built-in players");
            let (mut r0, mut r1) = rngs();
            let settled =
                play_plies(&start, [&mut a, &mut b], [&mut r0, &mut r1], Board::is_settled).expect("built-in").board;
            let (mut r0, mut r1) = rngs();
            let result = AntWars.play_for_result(&start, [&mut a, &mut b], [&mut r0, &mut r1]).expect("built-in");
            assert_eq!((result.points, result.winner), (whole.points, whole.winner), "board {i}");
            assert!(settled.is_settled());
            stopped_early += usize::from(!settled.is_over());
        }
        assert!(stopped_early > 30, "{stopped_early} of 300 games ended before the last ply");
    }
}
