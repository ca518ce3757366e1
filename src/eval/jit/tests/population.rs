//! Population compilation: hash-consing, sharing across threads, and memory
//! that comes back when populations are dropped.

use super::random::{self, Rng};
use crate::eval::jit::{Compiled, JitCompiler, JitConfig, JitProgram, Mode, PositionFn};
use crate::lang::{Node, PrimSet, Tree, TypeId, Value};

fn arith() -> PrimSet {
    random::load_primset("(import arith)", "arith")
}

fn compile_population(ps: &PrimSet, trees: &[Tree]) -> (Compiled, Vec<crate::eval::jit::FnHandle>) {
    let mut c = JitCompiler::new(ps, JitConfig::default()).expect("compiler");
    let handles = trees.iter().map(|t| c.add(JitProgram::Tree(t), Mode::Position).expect("compiles")).collect();
    (c.finish().expect("finalises"), handles)
}

#[test]
fn identical_trees_are_compiled_once() {
    let ps = arith();
    let mut rng = Rng(11);
    let a = random::random_tree(&mut rng, &ps, TypeId::F, 5);
    let b = random::random_tree(&mut rng, &ps, TypeId::F, 5);
    let (compiled, handles) = compile_population(&ps, &[a.clone(), b, a.clone()]);
    assert_eq!(compiled.n_distinct(), 2);
    assert_eq!(compiled.compile_ns(handles[2]), 0);
    let row = random::random_row(&mut rng, &ps);
    let (x, _) = compiled.position(handles[0]).expect("fn").call(&row, None);
    let (y, _) = compiled.position(handles[2]).expect("fn").call(&row, None);
    assert_eq!(x, y);

    // Constants are part of the structure, by bits: 0.0 and -0.0 differ.
    let zero = |z: f64| Tree { nodes: vec![crate::lang::Node::Const(Value::F(z))], spans: Vec::new() };
    let (compiled, _) = compile_population(&ps, &[zero(0.0), zero(-0.0)]);
    assert_eq!(compiled.n_distinct(), 2);
}

#[test]
fn compiled_functions_are_shared_across_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<PositionFn>();
    send_sync::<crate::eval::jit::BatchFn>();
    let ps = arith();
    let mut rng = Rng(12);
    let trees: Vec<Tree> = (0..8).map(|_| random::random_tree(&mut rng, &ps, TypeId::F, 6)).collect();
    let rows: Vec<Vec<u64>> = (0..50).map(|_| random::random_row(&mut rng, &ps)).collect();
    let (compiled, handles) = compile_population(&ps, &trees);
    let fns: Vec<PositionFn> = handles.iter().map(|h| compiled.position(*h).expect("fn").clone()).collect();
    drop(compiled); // the functions keep the code alive
    let expected: Vec<Vec<u64>> =
        fns.iter().map(|f| rows.iter().map(|r| f.call(r, None).0.to_bits()).collect()).collect();
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for (f, exp) in fns.iter().zip(&expected) {
                    let got: Vec<u64> = rows.iter().map(|r| f.call(r, None).0.to_bits()).collect();
                    assert_eq!(&got, exp);
                }
            });
        }
    });
}

/// Resident memory of this process in MiB, from /proc/self/statm.
fn resident_mib() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0.0);
    pages * 4096.0 / (1024.0 * 1024.0)
}

/// Set in the process that measures resident memory alone.
const ALONE: &str = "STRATAGEM_TEST_MEMORY_ALONE";

#[test]
fn compiling_and_dropping_100_000_individuals_frees_their_code() {
    // Resident memory is the whole process's: other tests running beside
    // this one would move it. So the measurement runs in a process of its
    // own, this test binary running this test alone.
    if std::env::var_os(ALONE).is_none() {
        let name = "eval::jit::tests::population::compiling_and_dropping_100_000_individuals_frees_their_code";
        let exe = std::env::current_exe().expect("the test binary");
        let out = std::process::Command::new(exe)
            .args(["--exact", name, "--test-threads=1", "--nocapture"])
            .env(ALONE, "1")
            .output()
            .expect("run the test alone");
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && text.contains("1 passed"), "{text}");
        return;
    }
    // 100 generations of 1,000 distinct individuals, each compiled as one
    // population and dropped: without `free_memory` every generation would
    // leave its executable pages behind.
    let ps = arith();
    let mut rng = Rng(13);
    let mut after_first = 0.0;
    let mut n_compiled = 0;
    for generation in 0..100 {
        // `(+ <random tree> <unique constant>)`: every individual distinct.
        let plus = ps.lookup("+").expect("arith has +");
        let trees: Vec<Tree> = (0..1000)
            .map(|i| {
                let mut nodes = vec![Node::Prim(plus)];
                nodes.extend(random::random_tree(&mut rng, &ps, TypeId::F, 4).nodes);
                nodes.push(Node::Const(Value::F((generation * 1000 + i) as f64)));
                Tree { nodes, spans: Vec::new() }
            })
            .collect();
        let (compiled, handles) = compile_population(&ps, &trees);
        n_compiled += compiled.n_distinct();
        let row = random::random_row(&mut rng, &ps);
        let f = compiled.position(handles[generation % handles.len()]).expect("fn");
        let _ = f.call(&row, None);
        drop(compiled);
        if generation == 0 {
            after_first = resident_mib();
        }
    }
    let end = resident_mib();
    eprintln!("resident memory: {after_first:.1} MiB after the first generation, {end:.1} MiB after the last");
    assert_eq!(n_compiled, 100_000, "only {n_compiled} distinct trees compiled");
    assert!(end < 200.0, "resident memory {end:.1} MiB after 100,000 individuals");
    // Leaking the code (forgetting the module instead of freeing it) grows
    // resident memory by about 30 MiB here; freeing it keeps it flat.
    assert!(end - after_first < 16.0, "resident memory grew from {after_first:.1} to {end:.1} MiB");
}
