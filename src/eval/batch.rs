//! The gpbench workload (`stratagem batch`): many trees over the shipped
//! `arith` primset, each evaluated on every row of a table, on the
//! interpreter or as one JIT-compiled population, timed per pass.
//!
//! Each line of a trees file is `<set> <size> <index> <sexp>`; every tree is
//! checked over `arith`. A tree's sum is the left-to-right f64 sum of its
//! outputs in row order, the same bits on either engine.

use std::time::Instant;

use crate::diagnostic::{Diagnostic, Failure, FileId, Sources};
use crate::eval::engine::Engine;
use crate::eval::interp::{Interp, Slots};
use crate::eval::jit::{BatchFn, FnHandle, JitCompiler, JitConfig, JitError, JitProgram, Mode};
use crate::eval::table::BoundRows;
use crate::lang::check::{TreeEnv, check_tree};
use crate::lang::program::MAX_DIAGNOSTICS_LOWERING;
use crate::lang::{Part, PrimSet, Tree, TypeId, Value};
use crate::syntax::{Sexp, Span, read};

/// One line of a gpbench trees file.
pub struct BenchTree {
    pub set: String,
    pub size: i64,
    pub index: i64,
    pub tree: Tree,
}

/// The shipped `arith` primset, loaded from the binary's library.
pub fn arith_primset() -> Result<PrimSet, Failure> {
    crate::lang::library::load_primset("arith")
        .ok_or_else(|| Failure::message("stratagem::batch::arith", "the shipped arith primset does not load (a bug)"))
}

/// Reads and checks a trees file: every line must be `SET SIZE INDEX TREE`.
pub fn read_bench_trees(sources: &Sources, file: FileId, ps: &PrimSet) -> Result<Vec<BenchTree>, Vec<Diagnostic>> {
    let text = sources.get(file).text.clone();
    let (items, mut diags) = read(file, &text);
    if !diags.is_empty() {
        return Err(diags);
    }
    // Group the S-expressions by the line they start on (items come in
    // order, so newlines are counted once, from one item to the next).
    let mut lines: Vec<(usize, Vec<&Sexp>)> = Vec::new();
    let (mut line, mut counted_to) = (0, 0);
    for item in &items {
        let start = item.span.start.min(text.len()).max(counted_to);
        line += text.as_bytes()[counted_to..start].iter().filter(|&&b| b == b'\n').count();
        counted_to = start;
        match lines.last_mut() {
            Some((l, group)) if *l == line => group.push(item),
            _ => lines.push((line, vec![item])),
        }
    }
    let env = TreeEnv { ps, file, params: &[], any_literal: false, part: Some(Part::Value) };
    let mut trees = Vec::new();
    for (_, group) in &lines {
        if diags.len() >= MAX_DIAGNOSTICS_LOWERING {
            let at = Span::new(group[0].span.start, group[0].span.start);
            diags.push(
                Diagnostic::error(
                    "stratagem::batch::stopped",
                    format!("checking stopped after {} problems", diags.len()),
                )
                .at(file, at, "the rest of the file is not checked"),
            );
            break;
        }
        let span = Span::new(group[0].span.start, group[group.len() - 1].span.end);
        let fields = match group.as_slice() {
            [set, size, index, tree] => {
                set.as_symbol().zip(int(size)).zip(int(index)).map(|((s, z), i)| (s, z, i, *tree))
            }
            _ => None,
        };
        let Some((set, size, index, sexp)) = fields else {
            diags.push(
                Diagnostic::error("stratagem::batch::line", "expected `<set> <size> <index> <sexp>`")
                    .at(file, span, format!("this line has {} item(s)", group.len()))
                    .with_help("e.g. `arith 31 0 (+ x0 (* x1 0.5))`"),
            );
            continue;
        };
        if let Some(tree) = check_tree(&env, sexp, TypeId::F, &mut diags) {
            trees.push(BenchTree { set: set.to_owned(), size, index, tree });
        }
    }
    if diags.is_empty() { Ok(trees) } else { Err(diags) }
}

fn int(sexp: &Sexp) -> Option<i64> {
    match sexp.kind {
        crate::syntax::SexpKind::Atom(crate::syntax::Atom::Int(i)) => Some(i),
        _ => None,
    }
}

/// The left-to-right sum of a tree's outputs over all rows, in row order.
pub fn sum_rows(ps: &PrimSet, tree: &Tree, rows: &BoundRows) -> f64 {
    let mut sum = 0.0;
    for r in 0..rows.n_rows {
        let mut ctx = Slots(rows.row(r));
        sum += Interp::new(ps, &mut ctx).eval_tree(tree).as_f64();
    }
    sum
}

/// The JIT's outputs summed left to right in row order, as `sum_rows` sums
/// the interpreter's.
fn sum_outputs(f: &BatchFn, out_bits: &[u64]) -> f64 {
    let mut sum = 0.0;
    for &bits in out_bits {
        sum += Value::from_bits(f.ret(), bits).as_f64();
    }
    sum
}

/// How one tree is evaluated.
enum Evaluator<'c> {
    Interp,
    Jit(&'c BatchFn),
}

/// What evaluating a batch of trees gave: per tree its sum, its engine,
/// compile time and fastest pass; the totals.
pub struct BatchRun {
    /// The left-to-right sum of each tree's outputs in row order.
    pub sums: Vec<f64>,
    /// Whether each tree ran as JIT code (else the interpreter).
    pub jit: Vec<bool>,
    /// Each tree's translation and code generation time in µs (0 when interpreted).
    pub compile_us: Vec<f64>,
    /// Each tree's fastest pass in seconds.
    pub best_secs: Vec<f64>,
    /// The whole population's compile time, and every pass of every tree.
    pub compile_secs: f64,
    pub total_secs: f64,
    /// Trees the JIT was asked for and could not compile, and why.
    pub fallbacks: (usize, Vec<JitError>),
}

impl BatchRun {
    /// Nodes × rows per second over all passes.
    pub fn rate(&self, trees: &[BenchTree], n_rows: usize, repeat: u32) -> f64 {
        let node_evals: f64 =
            trees.iter().map(|t| t.tree.len() as f64).sum::<f64>() * n_rows as f64 * f64::from(repeat);
        if self.total_secs > 0.0 { node_evals / self.total_secs } else { 0.0 }
    }

    /// Nodes × rows per second of tree `t`'s fastest pass.
    pub fn tree_rate(&self, trees: &[BenchTree], n_rows: usize, t: usize) -> f64 {
        let evals = trees[t].tree.len() as f64 * n_rows as f64;
        if self.best_secs[t] > 0.0 && self.best_secs[t].is_finite() { evals / self.best_secs[t] } else { 0.0 }
    }
}

/// Evaluates every tree on every row, `repeat` times, on `engine` (`auto`
/// decides for the batch as a whole: its trees share one population, so the
/// fixed cost of compiling is paid once). Only the evaluation is timed: each
/// pass of each tree on its own (the fastest pass is the tree's figure, as a
/// benchmark harness takes it), the sum of the outputs after the clock stops.
pub fn run_batch(ps: &PrimSet, trees: &[BenchTree], rows: &BoundRows, engine: Engine, repeat: u32) -> BatchRun {
    // Compile the trees the engine wants compiled, as one population.
    // `auto` decides for the file as a whole: its trees share one population,
    // so the fixed cost of compiling is paid once.
    let total_nodes: usize = trees.iter().map(|t| t.tree.len()).sum();
    let jit = engine.compiles(total_nodes, rows.n_rows);
    let wants_jit = vec![jit; trees.len()];
    let mut fallbacks: Vec<JitError> = Vec::new();
    let mut handles: Vec<Option<FnHandle>> = vec![None; trees.len()];
    let mut compiled = None;
    let compile_start = Instant::now();
    if wants_jit.iter().any(|w| *w) {
        match JitCompiler::new(ps, JitConfig::default()) {
            Ok(mut compiler) => {
                for (t, bt) in trees.iter().enumerate().filter(|(t, _)| wants_jit[*t]) {
                    match compiler.add(JitProgram::Tree(&bt.tree), Mode::Batch) {
                        Ok(h) => handles[t] = Some(h),
                        Err(e) => fallbacks.push(e),
                    }
                }
                match compiler.finish() {
                    Ok(c) => compiled = Some(c),
                    Err(e) => fallbacks.push(e),
                }
            }
            Err(e) => fallbacks.push(e),
        }
    }
    let compile_secs = compile_start.elapsed().as_secs_f64();
    let evaluators: Vec<Evaluator> = handles
        .iter()
        .map(|h| match (h, &compiled) {
            (Some(h), Some(c)) => c.batch(*h).map_or(Evaluator::Interp, Evaluator::Jit),
            _ => Evaluator::Interp,
        })
        .collect();
    let n_jit = evaluators.iter().filter(|e| matches!(e, Evaluator::Jit(_))).count();
    let n_fallback = wants_jit.iter().filter(|w| **w).count() - n_jit;
    let compile_us: Vec<f64> = handles
        .iter()
        .map(|h| match (h, &compiled) {
            (Some(h), Some(c)) => c.compile_ns(*h) as f64 / 1e3,
            _ => 0.0,
        })
        .collect();

    let cols = if n_jit > 0 { Some(rows.columns()) } else { None };
    let (mut out_bits, mut aux) = (Vec::new(), Vec::new());
    // Only the evaluation is timed: each pass of each tree on its own (the
    // fastest pass is the tree's figure, as a benchmark harness takes it),
    // the sum of the outputs after the clock stops.
    let mut best_secs = vec![f64::INFINITY; trees.len()];
    let mut total_secs = 0.0;
    let mut sums = vec![0.0; trees.len()];
    for pass in 0..repeat {
        for (t, bt) in trees.iter().enumerate() {
            let start = Instant::now();
            let s = match (&evaluators[t], &cols) {
                (Evaluator::Jit(f), Some(cols)) => {
                    f.run(cols, &mut out_bits, &mut aux);
                    None
                }
                _ => Some(sum_rows(ps, &bt.tree, rows)),
            };
            let secs = start.elapsed().as_secs_f64();
            best_secs[t] = best_secs[t].min(secs);
            total_secs += secs;
            if pass == 0 {
                sums[t] = s.unwrap_or_else(|| match &evaluators[t] {
                    Evaluator::Jit(f) => sum_outputs(f, &out_bits[..rows.n_rows]),
                    Evaluator::Interp => 0.0,
                });
            }
        }
    }
    let jit = evaluators.iter().map(|e| matches!(e, Evaluator::Jit(_))).collect();
    BatchRun { sums, jit, compile_us, best_secs, compile_secs, total_secs, fallbacks: (n_fallback, fallbacks) }
}
