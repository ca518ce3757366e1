//! Speed of Ant Wars between evolved ants (issue 23's target: 100,000
//! double-games per second on 2 cores): double-games on one thread, each a
//! random board played twice with the roles swapped, for the fitnessless
//! champion (the paper's primset) against itself and against HyperHumant,
//! the shipped champion (a tuned HyperHumant) against itself, and the
//! hand-written example ant. The numbers are in docs/PERFORMANCE.md ("Ant Wars").

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use stratagem::games::antwars::AntWars;
use stratagem::games::duel::{Duel, NamedPlayers, double_game};
use stratagem::rng::stream;

const BRILLIANT: &str = "gp:programs/champions/brilliant.sg:brilliant-champion";
const CHAMPION: &str = "gp:programs/champions/antwars.sg:antwars-champion";
const HYPER: &str = "gp:programs/champions/antwars-humants.sg:hyper-humant";
const FORAGER: &str = "gp:programs/examples/antwars-ant.sg:forager";

fn bench_pair(c: &mut Criterion, label: &str, a: &str, b: &str) {
    const DOUBLE_GAMES: u64 = 1000;
    let game = AntWars;
    let spec = |text: &str| game.parse_player(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let (a, b) = (spec(a), spec(b));
    let mut pa = game.new_player(&a).expect("a player");
    let mut pb = game.new_player(&b).expect("a player");
    let boards: Vec<_> = (0..DOUBLE_GAMES).map(|i| game.random_start(&mut stream(1, &[i]))).collect();
    let mut group = c.benchmark_group("antwars_double_games");
    group.throughput(Throughput::Elements(DOUBLE_GAMES));
    group.sample_size(10);
    group.bench_function(label, |bench| {
        bench.iter(|| {
            for (i, board) in boards.iter().enumerate() {
                let tally = double_game(&game, board, (&mut pa, &mut pb), 1, [0, i as u64]).expect("a game");
                black_box(tally);
            }
        })
    });
    group.finish();
}

fn antwars(c: &mut Criterion) {
    bench_pair(c, "brilliant-vs-brilliant", BRILLIANT, BRILLIANT);
    bench_pair(c, "brilliant-vs-hyper-humant", BRILLIANT, HYPER);
    bench_pair(c, "champion-vs-champion", CHAMPION, CHAMPION);
    bench_pair(c, "forager-vs-forager", FORAGER, FORAGER);
}

criterion_group!(benches, antwars);
criterion_main!(benches);
