//! `stratagem batch --trees TREES.sexp --rows ROWS.csv`: the gpbench workload.
//!
//! Each line of the trees file is `<set> <size> <index> <sexp>`; every tree is
//! checked over the shipped `arith` primset and evaluated on every row. For each
//! tree it prints `set size index nodes sum compile_us node_evals_per_s`,
//! where `sum` is the left-to-right f64 sum of the outputs in row order,
//! `compile_us` the JIT's translation and code generation time for the tree
//! (0 when the interpreter evaluated it) and `node_evals_per_s` nodes × rows
//! over the tree's fastest pass (`--repeat`), then `node-evals/s: N` over all
//! passes. Only evaluation is timed: not compilation, not the sums.

use std::path::PathBuf;
use std::time::Instant;

use super::{Engine, Failure, Format, Outcome, out};
use crate::diagnostic::{Diagnostic, FileId, Sources};
use crate::eval::interp::{Interp, Slots};
use crate::eval::jit::{BatchFn, FnHandle, JitCompiler, JitConfig, JitError, JitProgram, Mode};
use crate::eval::run::auto_uses_jit;
use crate::eval::table::{BoundRows, bind, read_csv};
use crate::lang::check::{TreeEnv, check_tree};
use crate::lang::program::MAX_DIAGNOSTICS_LOWERING;
use crate::lang::{Part, PrimSet, Tree, TypeId, Value};
use crate::syntax::{Sexp, Span, read};

pub struct BatchArgs {
    pub trees: PathBuf,
    pub rows: PathBuf,
    pub engine: Engine,
    pub repeat: u32,
    pub format: Format,
}

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

pub fn run(args: &BatchArgs) -> Outcome {
    let ps = arith_primset()?;
    let mut sources = Sources::new();
    let trees_file = sources
        .load(&args.trees)
        .map_err(|e| Failure::message("stratagem::io", format!("cannot read `{}`: {e}", args.trees.display())))?;
    let trees = read_bench_trees(&sources, trees_file, &ps).map_err(|d| Failure::new(sources.clone(), d))?;
    let rows_file = sources
        .load_within(&args.rows, crate::limits::Limit::CsvSize)
        .map_err(|e| Failure::message("stratagem::io", format!("cannot read `{}`: {e}", args.rows.display())))?;
    let (table, csv_diags) = read_csv(&sources, rows_file).map_err(|d| Failure::new(sources.clone(), d))?;
    if !csv_diags.is_empty() {
        return Err(Failure::new(sources, csv_diags));
    }
    let mut used: Vec<u32> = trees.iter().flat_map(|t| t.tree.features_used(&ps)).collect();
    used.sort_unstable();
    used.dedup();
    let rows = bind(&table, &ps, &used, Span::new(0, 0), trees_file).map_err(|d| Failure::new(sources.clone(), d))?;

    // Compile the trees the engine wants compiled, as one population.
    // `auto` decides for the file as a whole: its trees share one population,
    // so the fixed cost of compiling is paid once.
    let total_nodes: usize = trees.iter().map(|t| t.tree.len()).sum();
    let jit = match args.engine {
        Engine::Interp => false,
        Engine::Jit => true,
        Engine::Auto => auto_uses_jit(total_nodes, rows.n_rows),
    };
    let wants_jit = vec![jit; trees.len()];
    let mut fallbacks: Vec<JitError> = Vec::new();
    let mut handles: Vec<Option<FnHandle>> = vec![None; trees.len()];
    let mut compiled = None;
    let compile_start = Instant::now();
    if wants_jit.iter().any(|w| *w) {
        match JitCompiler::new(&ps, JitConfig::default()) {
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
    if n_fallback > 0 {
        super::report_fallbacks(n_fallback, &fallbacks);
    }
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
    for pass in 0..args.repeat {
        for (t, bt) in trees.iter().enumerate() {
            let start = Instant::now();
            let s = match (&evaluators[t], &cols) {
                (Evaluator::Jit(f), Some(cols)) => {
                    f.run(cols, &mut out_bits, &mut aux);
                    None
                }
                _ => Some(sum_rows(&ps, &bt.tree, &rows)),
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
    let node_evals: f64 =
        trees.iter().map(|t| t.tree.len() as f64).sum::<f64>() * rows.n_rows as f64 * f64::from(args.repeat);
    let rate = if total_secs > 0.0 { node_evals / total_secs } else { 0.0 };
    let tree_rate = |t: usize| {
        let evals = trees[t].tree.len() as f64 * rows.n_rows as f64;
        if best_secs[t] > 0.0 && best_secs[t].is_finite() { evals / best_secs[t] } else { 0.0 }
    };

    let text = match args.format {
        Format::Text => {
            let mut text = String::new();
            for (t, bt) in trees.iter().enumerate() {
                text.push_str(&format!(
                    "{} {} {} {} {} {:.1} {:.4e}\n",
                    bt.set,
                    bt.size,
                    bt.index,
                    bt.tree.len(),
                    Value::F(sums[t]),
                    compile_us[t],
                    tree_rate(t)
                ));
            }
            text.push_str(&format!("node-evals/s: {rate:.4e}\n"));
            text
        }
        Format::Json => {
            let list: Vec<serde_json::Value> = trees
                .iter()
                .enumerate()
                .map(|(t, bt)| {
                    serde_json::json!({
                        "set": bt.set, "size": bt.size, "index": bt.index, "nodes": bt.tree.len(),
                        "sum": super::json_value(Value::F(sums[t])),
                        "engine": if matches!(evaluators[t], Evaluator::Jit(_)) { "jit" } else { "interp" },
                        "compile_us": compile_us[t],
                        "eval_us": best_secs[t] * 1e6, "node_evals_per_s": tree_rate(t),
                    })
                })
                .collect();
            format!(
                "{}\n",
                serde_json::json!({
                    "rows": rows.n_rows, "repeat": args.repeat, "trees": list,
                    "compile_us_total": compile_secs * 1e6, "node_evals_per_s": rate
                })
            )
        }
    };
    out(&text);
    Ok(())
}
