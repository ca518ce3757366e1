//! Differential tests: seeded random programs evaluated by the interpreter
//! and by the JIT (per position, batch in f64x2 lanes, batch scalar,
//! unoptimised), compared by bits, values, fired rules and the sequence of
//! native calls. A failure names its seed; `planted_fault_is_caught` shows
//! that the harness can fail.
//!
//! One thing is compared loosely: which NaN a NaN result is. IEEE 754 and
//! Rust leave the payload and sign of a NaN produced from NaN operands
//! unspecified (x86 keeps the first operand's, and both LLVM and Cranelift
//! may commute operands), so the interpreter itself gives different NaN bits
//! in debug and release builds. No builtin can turn a NaN's bits into a
//! non-NaN result, so every observable value is still compared by bits.

use super::random::{self, Rng};
use crate::eval::interp::{Context, Interp};
use crate::eval::jit::code::rule_index;
use crate::eval::jit::lower::PLANTED_FAULT;
use crate::eval::jit::{Columns, JitCompiler, JitConfig, JitError, JitProgram, Mode};
use crate::eval::table::COLUMN_PAD;
use crate::lang::{Base, Network, Policy, PrimSet, Tree, TypeId, Value, Weights};

enum Owned {
    Tree(Tree),
    Policy(Policy),
    Weights(Weights),
    Network(Network),
}

impl Owned {
    fn as_jit(&self) -> JitProgram<'_> {
        match self {
            Owned::Tree(t) => JitProgram::Tree(t),
            Owned::Policy(p) => JitProgram::Policy(p),
            Owned::Weights(w) => JitProgram::Weights(w),
            Owned::Network(n) => JitProgram::Network(n),
        }
    }

    fn describe(&self, ps: &PrimSet) -> String {
        let show = |t: &Tree| t.to_sexp(ps, &[]).to_string();
        match self {
            Owned::Tree(t) => show(t),
            Owned::Policy(p) => {
                let rules: Vec<String> =
                    p.rules.iter().map(|r| format!("(rule {} {})", show(&r.condition), show(&r.value))).collect();
                format!("(policy {} (default {}))", rules.join(" "), show(&p.default))
            }
            Owned::Weights(w) => format!("(weights {:?})", w.terms),
            Owned::Network(n) => n.to_sexp(ps).to_string(),
        }
    }
}

/// Feature slots plus deterministic natives that log their calls.
struct TestCtx<'a> {
    slots: &'a [u64],
    log: Vec<(u32, Vec<u64>)>,
}

impl Context for TestCtx<'_> {
    fn feature(&self, slot: u32) -> u64 {
        self.slots[slot as usize]
    }

    fn native(&mut self, native: u32, args: &[Value]) -> Value {
        self.log.push((native, args.iter().map(|a| canonical(*a)).collect()));
        match (native, args) {
            (0, [Value::F(a), Value::I(k)]) => Value::F(a * 0.5 + *k as f64),
            (1, [Value::F(a)]) => Value::B(*a > 0.25),
            (2, [Value::I(k)]) => Value::I(k.wrapping_mul(3) ^ 5),
            _ => panic!("unexpected native call {native} {args:?}"),
        }
    }
}

/// A value's bits, with every NaN mapped to one (see the module comment).
fn canonical(v: Value) -> u64 {
    match v {
        Value::F(x) if x.is_nan() => f64::NAN.to_bits(),
        v => v.to_bits(),
    }
}

pub(super) fn canonical_bits(bits: u64) -> u64 {
    let x = f64::from_bits(bits);
    if x.is_nan() { f64::NAN.to_bits() } else { bits }
}

/// What one evaluation produced.
#[derive(Debug, PartialEq)]
struct Outcome {
    bits: u64,
    rule: Option<usize>,
    natives: Vec<(u32, Vec<u64>)>,
}

fn interp_outcome(ps: &PrimSet, program: &Owned, row: &[u64]) -> Outcome {
    let mut ctx = TestCtx { slots: row, log: Vec::new() };
    let mut interp = Interp::new(ps, &mut ctx);
    let (v, rule) = match program {
        Owned::Tree(t) => (interp.eval_tree(t), None),
        Owned::Policy(p) => interp.eval_policy(p),
        Owned::Weights(w) => (interp.eval_weights(w), None),
        Owned::Network(n) => (interp.eval_network(n), None),
    };
    Outcome { bits: canonical(v), rule, natives: ctx.log }
}

pub(super) fn columns(ps: &PrimSet, rows: &[Vec<u64>]) -> Columns {
    let n_slots = ps.features.len();
    let stride = rows.len().div_ceil(COLUMN_PAD) * COLUMN_PAD;
    let mut data = vec![0u64; n_slots * stride];
    for (r, row) in rows.iter().enumerate() {
        for (s, bits) in row.iter().enumerate() {
            data[s * stride + r] = *bits;
        }
    }
    Columns { n_slots, n_rows: rows.len(), stride, data }
}

/// Runs every program on every row with every JIT variant; the first
/// difference from the interpreter is the error.
fn compare(seed: u64, ps: &PrimSet, programs: &[Owned], rows: &[Vec<u64>]) -> Result<(), String> {
    let expected: Vec<Vec<Outcome>> =
        programs.iter().map(|p| rows.iter().map(|r| interp_outcome(ps, p, r)).collect()).collect();
    let fail = |variant: &str, k: usize, r: usize, got: &Outcome| {
        Err(format!(
            "seed {seed}, {variant}: program {k} {}\nrow {r} {:?}\ninterp {:?} ({:?})\njit    {:?} ({:?})",
            programs[k].describe(ps),
            rows[r].iter().map(|b| f64::from_bits(*b)).collect::<Vec<_>>(),
            expected[k][r],
            f64::from_bits(expected[k][r].bits),
            got,
            f64::from_bits(got.bits),
        ))
    };
    let err = |e: JitError| format!("seed {seed}: {e}");

    // Per position, natives included.
    let mut c = JitCompiler::new(ps, JitConfig::default()).map_err(err)?;
    let handles: Vec<_> = programs.iter().map(|p| c.add(p.as_jit(), Mode::Position)).collect();
    let compiled = c.finish().map_err(err)?;
    for (k, h) in handles.into_iter().enumerate() {
        let f = compiled.position(h.map_err(err)?).ok_or("no position fn")?;
        for (r, row) in rows.iter().enumerate() {
            let mut ctx = TestCtx { slots: row, log: Vec::new() };
            let (v, rule) = f.call(row, Some(&mut ctx));
            let got = Outcome { bits: canonical(v), rule, natives: ctx.log };
            if got != expected[k][r] {
                return fail("per position", k, r, &got);
            }
        }
    }

    // Batch over columns, in each configuration.
    let cols = columns(ps, rows);
    let configs = [
        ("batch simd", JitConfig::default()),
        ("batch scalar", JitConfig { simd: false, ..JitConfig::default() }),
        ("batch opt none", JitConfig { optimize: false, verify: true, ..JitConfig::default() }),
        ("batch single-pass regalloc", JitConfig { optimize: false, fast_regalloc: true, ..JitConfig::default() }),
    ];
    for (variant, config) in configs {
        let mut c = JitCompiler::new(ps, config).map_err(err)?;
        let handles: Vec<_> = programs.iter().map(|p| c.add(p.as_jit(), Mode::Batch)).collect();
        let compiled = c.finish().map_err(err)?;
        let (mut out, mut aux) = (Vec::new(), Vec::new());
        for (k, h) in handles.into_iter().enumerate() {
            let h = match h {
                Ok(h) => h,
                Err(JitError::Unsupported(_)) if expected[k].iter().any(|o| !o.natives.is_empty()) => continue,
                Err(JitError::Unsupported(_)) if matches!(programs[k].as_jit(), JitProgram::Tree(t) if t.uses_natives(ps)) =>
                {
                    continue;
                }
                Err(JitError::Unsupported(_)) if matches!(&programs[k], Owned::Policy(p) if policy_uses_natives(ps, p)) =>
                {
                    continue;
                }
                Err(e) => return Err(err(e)),
            };
            let f = compiled.batch(h).ok_or("no batch fn")?;
            f.run(&cols, &mut out, &mut aux);
            for r in 0..rows.len() {
                let rule = if matches!(programs[k], Owned::Policy(_)) { rule_index(aux[r]) } else { None };
                let bits = if f.ret() == Base::F { canonical_bits(out[r]) } else { out[r] };
                let got = Outcome { bits, rule, natives: expected[k][r].natives.clone() };
                if got != expected[k][r] {
                    return fail(variant, k, r, &got);
                }
            }
        }
    }
    Ok(())
}

fn policy_uses_natives(ps: &PrimSet, p: &Policy) -> bool {
    p.rules.iter().any(|r| r.condition.uses_natives(ps) || r.value.uses_natives(ps)) || p.default.uses_natives(ps)
}

/// One seed's programs: trees of each base, a policy, a weight vector.
fn programs_for(rng: &mut Rng, ps: &PrimSet) -> Vec<Owned> {
    let mut programs = Vec::new();
    for _ in 0..4 {
        let depth = 2 + rng.below(6);
        programs.push(Owned::Tree(random::random_tree(rng, ps, TypeId::F, depth)));
    }
    for ty in [TypeId::B, TypeId::I] {
        if ps.prims.iter().any(|p| p.ret == ty) {
            let depth = 2 + rng.below(5);
            programs.push(Owned::Tree(random::random_tree(rng, ps, ty, depth)));
        }
    }
    if let Some(cnt) = ps.type_id("Cnt") {
        let depth = 2 + rng.below(5);
        programs.push(Owned::Tree(random::random_tree(rng, ps, cnt, depth)));
    }
    if ps.prims.iter().any(|p| p.ret == TypeId::B) {
        programs.push(Owned::Policy(random::random_policy(rng, ps, 4)));
    }
    programs.push(Owned::Weights(random::random_weights(rng, ps)));
    if ps.prims.iter().any(|p| p.name == "x0") {
        programs.push(Owned::Network(random::random_network(rng, ps)));
    }
    programs
}

fn run_seeds(ps: &PrimSet, seeds: std::ops::Range<u64>) -> Result<(), String> {
    for seed in seeds {
        let mut rng = Rng(seed);
        let programs = programs_for(&mut rng, ps);
        let rows: Vec<Vec<u64>> = (0..1 + rng.below(12)).map(|_| random::random_row(&mut rng, ps)).collect();
        compare(seed, ps, &programs, &rows)?;
    }
    Ok(())
}

fn arith() -> PrimSet {
    random::load_primset("(import arith)", "arith")
}

fn full() -> PrimSet {
    random::load_primset(random::FULL_PRIMSET, "full")
}

fn natives() -> PrimSet {
    random::load_primset(&format!("{}{}", random::FULL_PRIMSET, random::NATIVE_PRIMSET), "nat")
}

#[test]
fn jit_matches_interpreter_on_arith() {
    if let Err(e) = run_seeds(&arith(), 0..400) {
        panic!("{e}");
    }
}

#[test]
fn jit_matches_interpreter_on_all_builtins_and_definitions() {
    if let Err(e) = run_seeds(&full(), 1000..1600) {
        panic!("{e}");
    }
}

#[test]
fn jit_matches_interpreter_with_natives() {
    if let Err(e) = run_seeds(&natives(), 2000..2500) {
        panic!("{e}");
    }
}

/// Networks only, many of them, on rows of moderate values (where the
/// activations are not flat) as well as the corner cases.
fn run_network_seeds(seeds: std::ops::Range<u64>) -> Result<(), String> {
    let ps = arith();
    for seed in seeds {
        let mut rng = Rng(seed);
        let programs: Vec<Owned> = (0..4).map(|_| Owned::Network(random::random_network(&mut rng, &ps))).collect();
        let rows: Vec<Vec<u64>> = (0..16)
            .map(|r| {
                let mut row = random::random_row(&mut rng, &ps);
                if r % 2 == 0 {
                    for x in &mut row {
                        *x = ((rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 6.0 - 3.0).to_bits();
                    }
                }
                row
            })
            .collect();
        compare(seed, &ps, &programs, &rows)?;
    }
    Ok(())
}

#[test]
fn jit_matches_interpreter_on_networks() {
    if let Err(e) = run_network_seeds(3000..3400) {
        panic!("{e}");
    }
}

#[test]
fn planted_network_fault_is_caught() {
    // Links summed in reverse order round differently; the harness must notice.
    PLANTED_FAULT.with(|f| f.set(true));
    let result = run_network_seeds(3000..3100);
    PLANTED_FAULT.with(|f| f.set(false));
    let message = result.expect_err("the harness missed a planted bug");
    assert!(message.contains("seed"), "{message}");
}

#[test]
fn planted_fault_is_caught() {
    // `min` lowered to Cranelift's `fmin` differs on NaN and ±0 operands; the
    // harness must notice within a few seeds.
    let ps = full();
    PLANTED_FAULT.with(|f| f.set(true));
    let result = run_seeds(&ps, 1000..1200);
    PLANTED_FAULT.with(|f| f.set(false));
    let message = result.expect_err("the harness missed a planted bug");
    assert!(message.contains("seed"), "{message}");
    run_seeds(&ps, 1000..1010).expect("the fault is off again");
}

#[test]
fn base_of_results_round_trips() {
    // Results come back with the program's base.
    let ps = full();
    let mut rng = Rng(7);
    let tree = random::random_tree(&mut rng, &ps, TypeId::B, 3);
    let mut c = JitCompiler::new(&ps, JitConfig::default()).expect("compiler");
    let h = c.add(JitProgram::Tree(&tree), Mode::Position).expect("compiles");
    let compiled = c.finish().expect("finalises");
    let f = compiled.position(h).expect("position fn");
    assert_eq!(f.ret(), Base::B);
}
