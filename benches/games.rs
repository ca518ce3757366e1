//! Speed of the native game engines: perft (move generation and apply,
//! reported as nodes/s) and uniformly random playouts from the initial
//! position (games/s), for lose checkers and Nine Men's Morris. The numbers
//! and how they compare with OpenSpiel are in docs/PERFORMANCE.md.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use stratagem::games::checkers::Checkers;
use stratagem::games::morris::Morris;
use stratagem::games::playout::random_playouts;
use stratagem::games::{Game, TwoPlayer, perft};

fn bench_perft<G: Game>(c: &mut Criterion, game: &G, depth: u32) {
    let start = game.initial_state();
    let nodes = perft(game, &start, depth);
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    group.bench_function(format!("{}/depth{depth}", game.name()), |b| {
        b.iter(|| perft(black_box(game), black_box(&start), depth))
    });
    group.finish();
}

fn bench_playouts<G: TwoPlayer>(c: &mut Criterion, game: &G) {
    const GAMES: u64 = 1000;
    let mut group = c.benchmark_group("random_playouts");
    group.throughput(Throughput::Elements(GAMES));
    group.sample_size(10);
    group.bench_function(game.name(), |b| {
        let mut rng = SmallRng::seed_from_u64(1);
        b.iter(|| random_playouts(black_box(game), GAMES, &mut rng))
    });
    group.finish();
}

fn games(c: &mut Criterion) {
    bench_perft(c, &Checkers::lose(), 7);
    bench_perft(c, &Morris::standard(), 4);
    bench_playouts(c, &Checkers::lose());
    bench_playouts(c, &Morris::standard());
}

criterion_group!(benches, games);
criterion_main!(benches);
