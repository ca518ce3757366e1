//! Evaluation throughput on gpbench (../shared/gpbench, read at run time):
//! the interpreter, the JIT looping over rows itself, the JIT called once per
//! row, and hand-written straight-line Rust (benches/handwritten.rs), for
//! tree 0 of each set and size; then the JIT's compile cost for a population
//! of 1,000 trees. Throughput is in node evaluations (nodes × rows).
//!
//! Run: `cargo bench --bench eval` (docs/PERFORMANCE.md has the results).

#[rustfmt::skip]
mod handwritten;

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use stratagem::diagnostic::Sources;
use stratagem::eval::batch::{BenchTree, arith_primset, read_bench_trees};
use stratagem::eval::interp::{Interp, Slots};
use stratagem::eval::jit::{JitCompiler, JitConfig, JitProgram, Mode};
use stratagem::eval::table::{BoundRows, bind, read_csv};
use stratagem::lang::{Node, PrimSet, Tree, Value};
use stratagem::syntax::Span;

const GPBENCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/gpbench");

struct Bench {
    ps: PrimSet,
    trees: Vec<BenchTree>,
    rows: BoundRows,
}

fn load() -> Bench {
    let ps = arith_primset().unwrap_or_else(|_| panic!("the arith primset loads"));
    let mut sources = Sources::new();
    let dir = Path::new(GPBENCH);
    let trees_file = sources.load(&dir.join("trees.sexp")).expect("../shared/gpbench/trees.sexp");
    let trees = read_bench_trees(&sources, trees_file, &ps).expect("gpbench trees check");
    let rows_file = sources.load(&dir.join("rows.csv")).expect("../shared/gpbench/rows.csv");
    let (table, _) = read_csv(&sources, rows_file).expect("rows.csv reads");
    let used: Vec<u32> = (0..ps.features.len() as u32).collect();
    let rows = bind(&table, &ps, &used, Span::new(0, 0), trees_file).expect("rows bind");
    Bench { ps, trees, rows }
}

fn evaluation(c: &mut Criterion) {
    let b = load();
    let cols = b.rows.columns();
    let n = b.rows.n_rows;
    let f64_cols: Vec<Vec<f64>> = (0..10)
        .map(|s| cols.data[s * cols.stride..s * cols.stride + n].iter().map(|x| f64::from_bits(*x)).collect())
        .collect();
    let col_refs: [&[f64]; 10] = std::array::from_fn(|s| f64_cols[s].as_slice());
    for &(set, size, handwritten) in handwritten::TREES {
        let Some(bt) = b.trees.iter().find(|t| t.set == set && t.size as usize == size && t.index == 0) else {
            continue;
        };
        let tree = &bt.tree;
        let mut compiler = JitCompiler::new(&b.ps, JitConfig::default()).expect("compiler");
        let batch = compiler.add(JitProgram::Tree(tree), Mode::Batch).expect("compiles");
        let position = compiler.add(JitProgram::Tree(tree), Mode::Position).expect("compiles");
        let compiled = compiler.finish().expect("finalises");
        let batch = compiled.batch(batch).expect("batch fn");
        let position = compiled.position(position).expect("position fn");
        let mut compiler = JitCompiler::new(&b.ps, JitConfig::fast_compile()).expect("compiler");
        let fast_batch = compiler.add(JitProgram::Tree(tree), Mode::Batch).expect("compiles");
        let fast_position = compiler.add(JitProgram::Tree(tree), Mode::Position).expect("compiles");
        let fast = compiler.finish().expect("finalises");
        let fast_batch = fast.batch(fast_batch).expect("batch fn");
        let fast_position = fast.position(fast_position).expect("position fn");

        // All four compute the same outputs.
        let (mut out, mut aux) = (Vec::new(), Vec::new());
        batch.run(&cols, &mut out, &mut aux);
        let mut hand = vec![0.0; n];
        handwritten(&col_refs, &mut hand);
        for r in 0..n {
            let mut ctx = Slots(b.rows.row(r));
            let interp = Interp::new(&b.ps, &mut ctx).eval_tree(tree).to_bits();
            assert_eq!(interp, out[r], "{set} {size}: batch JIT differs at row {r}");
            assert_eq!(interp, position.call(b.rows.row(r), None).0.to_bits(), "{set} {size}: per-row JIT");
            assert_eq!(interp, hand[r].to_bits(), "{set} {size}: hand-written differs at row {r}");
        }

        let mut g = c.benchmark_group(format!("{set}-{size}"));
        g.throughput(Throughput::Elements((tree.len() * n) as u64));
        g.bench_function("interp", |bch| {
            bch.iter(|| {
                let mut sum = 0.0;
                for r in 0..n {
                    let mut ctx = Slots(b.rows.row(r));
                    sum += Interp::new(&b.ps, &mut ctx).eval_tree(tree).as_f64();
                }
                black_box(sum)
            })
        });
        g.bench_function("jit-batch", |bch| bch.iter(|| batch.run(black_box(&cols), &mut out, &mut aux)));
        g.bench_function("jit-per-row", |bch| {
            bch.iter(|| {
                let mut sum = 0.0;
                for r in 0..n {
                    sum += position.call(b.rows.row(r), None).0.as_f64();
                }
                black_box(sum)
            })
        });
        g.bench_function("jit-batch-fast-compile", |bch| {
            bch.iter(|| fast_batch.run(black_box(&cols), &mut out, &mut aux))
        });
        g.bench_function("jit-per-row-fast-compile", |bch| {
            bch.iter(|| {
                let mut sum = 0.0;
                for r in 0..n {
                    sum += fast_position.call(b.rows.row(r), None).0.as_f64();
                }
                black_box(sum)
            })
        });
        g.bench_function("handwritten", |bch| bch.iter(|| handwritten(black_box(&col_refs), &mut hand)));
        g.finish();
    }
}

/// 1,000 distinct trees: the 120 gpbench trees in turn, each as
/// `(+ TREE k)` with a constant `k` unique to the copy.
fn population(b: &Bench) -> Vec<Tree> {
    let plus = b.ps.lookup("+").expect("arith has +");
    (0..1000)
        .map(|i| {
            let mut nodes = vec![Node::Prim(plus)];
            nodes.extend(&b.trees[i % b.trees.len()].tree.nodes);
            nodes.push(Node::Const(Value::F(i as f64 + 0.5)));
            Tree { nodes, spans: Vec::new() }
        })
        .collect()
}

fn compilation(c: &mut Criterion) {
    let b = load();
    let trees = population(&b);
    let n_nodes: usize = trees.iter().map(Tree::len).sum();
    let mut g = c.benchmark_group("compile-1000");
    g.throughput(Throughput::Elements(n_nodes as u64));
    g.sample_size(10);
    for (name, mode, optimize, fast_regalloc) in [
        ("position-speed", Mode::Position, true, false),
        ("position-none", Mode::Position, false, false),
        ("position-speed-single-pass", Mode::Position, true, true),
        ("position-none-single-pass", Mode::Position, false, true),
        ("batch-speed", Mode::Batch, true, false),
        ("batch-none-single-pass", Mode::Batch, false, true),
    ] {
        let config = JitConfig { optimize, fast_regalloc, ..JitConfig::default() };
        g.bench_function(name, |bch| {
            bch.iter(|| {
                let mut compiler = JitCompiler::new(&b.ps, config).expect("compiler");
                for t in &trees {
                    compiler.add(JitProgram::Tree(t), mode).expect("compiles");
                }
                black_box(compiler.finish().expect("finalises"))
            })
        });
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! { name = benches; config = config(); targets = evaluation, compilation }
criterion_main!(benches);
