//! Ant Wars games played many at once, in lockstep (a sandboxed C player
//! answering a batch of moves a round trip), are the games played one at
//! a time: the same tallies, the forfeits of a player that misbehaves in
//! some games only on exactly those games. Through the library, so that
//! the two ways can be set side by side on the same boards.

use stratagem::games::antwars::AntWars;
use stratagem::games::duel::{Duel, NamedPlayers, Tally, double_games_in_turn};
use stratagem::limits::{Limit, Limits};
use stratagem::rng::stream;

const SOMETIMES: &str = "c:tests/data/antwars/hostile/sometimes.c";

fn both_ways(a: &str, b: &str, double_games: u64, seed: u64) -> (Tally, Tally) {
    let game = AntWars;
    let (a, b) = (game.parse_player(a).expect(a), game.parse_player(b).expect(b));
    let keys: Vec<[u64; 2]> = (0..double_games).map(|i| [3, i]).collect();
    let starts: Vec<_> = keys.iter().map(|k| game.random_start(&mut stream(seed, k))).collect();
    let players = || (game.new_player(&a).expect("a player"), game.new_player(&b).expect("a player"));
    let (mut pa, mut pb) = players();
    let in_turn = double_games_in_turn(&game, &starts, &keys, (&mut pa, &mut pb), seed).expect("in turn");
    let (mut pa, mut pb) = players();
    let lockstep = game.double_games(&starts, &keys, (&mut pa, &mut pb), seed).expect("in lockstep");
    (in_turn, lockstep)
}

#[test]
fn games_in_lockstep_are_the_games_played_one_at_a_time_forfeits_included() {
    stratagem::foreign::use_executable(env!("CARGO_BIN_EXE_stratagem").into());
    let mut limits = Limits::default();
    limits.set(Limit::ForeignTime, 200);
    limits.install();
    let forager = "gp:programs/examples/antwars-ant.sg:forager";
    for (a, b) in [(SOMETIMES, "greedy"), (forager, SOMETIMES), (SOMETIMES, SOMETIMES)] {
        let (in_turn, lockstep) = both_ways(a, b, 30, 11);
        assert_eq!(in_turn, lockstep, "{a} against {b}");
        let forfeits = lockstep.forfeits[0] + lockstep.forfeits[1];
        assert!(forfeits > 0 && forfeits < lockstep.games, "{a} against {b}: {lockstep:?}");
    }
    let (in_turn, lockstep) = both_ways("c:tests/data/antwars/greedy.c", "c:tests/data/antwars/counter.c", 200, 5);
    assert_eq!(in_turn, lockstep);
    assert_eq!(lockstep.forfeits, [0, 0], "counter.c checks that every game is reset and at most 35 moves long");
}
