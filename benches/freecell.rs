//! Speed of FreeCell's staged deepening: Microsoft deals 1–20 solved with
//! HSDH and with the nine heuristics' weighted sum (the champion's
//! weights, computed natively here so the bench times the search, not the
//! program call), k = 2, reported as nodes/s. docs/PERFORMANCE.md has the
//! `solve` figures on the 32K next to Freecell Solver.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use stratagem::games::freecell::heuristics::{hsdh, normalised};
use stratagem::games::freecell::{FreeCell, Position, deal_position};
use stratagem::search::staged::{StagedSettings, staged_deepening};

/// programs/champions/ga-freecell.sg's weights, in table 1's order.
const CHAMPION: [f64; 9] = [0.5249, 0.8654, 0.3661, 0.0259, 0.0348, 0.8594, 0.6685, 0.2236, 0.7137];

fn solve_all(deals: &[Position], h: impl Fn(&Position) -> f64 + Copy) -> u64 {
    let settings = StagedSettings { depth: 2, ..StagedSettings::default() };
    deals.iter().map(|p| staged_deepening(&FreeCell, p, |s, _| h(s), settings, 3_000_000).nodes).sum()
}

fn staged(c: &mut Criterion) {
    let deals: Vec<Position> = (1..=20).map(deal_position).collect();
    let weighted = |p: &Position| normalised(p).iter().zip(CHAMPION).map(|(v, w)| v * w).sum::<f64>();
    let mut group = c.benchmark_group("freecell_staged_k2");
    group.sample_size(10);
    for (name, h) in [("hsdh", (|p: &Position| f64::from(hsdh(p))) as fn(&Position) -> f64), ("weights", weighted)] {
        group.throughput(Throughput::Elements(solve_all(&deals, h)));
        group.bench_function(format!("deals1-20/{name}"), |b| b.iter(|| solve_all(black_box(&deals), h)));
    }
    group.finish();
}

criterion_group!(benches, staged);
criterion_main!(benches);
