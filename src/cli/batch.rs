//! `stratagem batch --trees TREES.sexp --rows ROWS.csv`: the gpbench
//! workload (`eval::batch`). For each tree it prints `set size index nodes
//! sum compile_us node_evals_per_s`, where `sum` is the left-to-right f64 sum
//! of the outputs in row order, `compile_us` the JIT's translation and code
//! generation time for the tree (0 when the interpreter evaluated it) and
//! `node_evals_per_s` nodes × rows over the tree's fastest pass (`--repeat`),
//! then `node-evals/s: N` over all passes. Only evaluation is timed: not
//! compilation, not the sums.

use std::path::PathBuf;

use super::{Engine, Failure, Format, Outcome, out};
use crate::diagnostic::Sources;
use crate::eval::batch::{arith_primset, read_bench_trees, run_batch};
use crate::eval::table::{bind, read_csv};
use crate::lang::Value;
use crate::syntax::Span;

pub struct BatchArgs {
    pub trees: PathBuf,
    pub rows: PathBuf,
    pub engine: Engine,
    pub repeat: u32,
    pub format: Format,
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

    let run = run_batch(&ps, &trees, &rows, args.engine, args.repeat);
    let (n_fallback, fallbacks) = &run.fallbacks;
    if *n_fallback > 0 {
        super::report_fallbacks(*n_fallback, fallbacks);
    }
    let (sums, compile_us, best_secs) = (&run.sums, &run.compile_us, &run.best_secs);
    let rate = run.rate(&trees, rows.n_rows, args.repeat);
    let tree_rate = |t: usize| run.tree_rate(&trees, rows.n_rows, t);

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
                        "engine": if run.jit[t] { "jit" } else { "interp" },
                        "compile_us": compile_us[t],
                        "eval_us": best_secs[t] * 1e6, "node_evals_per_s": tree_rate(t),
                    })
                })
                .collect();
            format!(
                "{}\n",
                serde_json::json!({
                    "rows": rows.n_rows, "repeat": args.repeat, "trees": list,
                    "compile_us_total": run.compile_secs * 1e6, "node_evals_per_s": rate
                })
            )
        }
    };
    out(&text);
    Ok(())
}
