//! Running a program on every row of a table with a chosen engine: the one
//! entry point the CLI and the data-driven tests share, so that every eval
//! case runs on the interpreter and on the JIT alike.

use crate::eval::engine::Engine;
use crate::eval::interp::{Interp, Slots};
use crate::eval::jit::{FnHandle, JitCompiler, JitConfig, JitError, JitProgram, Mode};
use crate::eval::table::BoundRows;
use crate::lang::{Network, Policy, PrimSet, Tree, Value, Weights};

/// What is evaluated per row.
#[derive(Debug, Clone)]
pub enum Program<'a> {
    /// The trees of an individual (or any list of top-level trees).
    Trees(Vec<&'a Tree>),
    Policy(&'a Policy),
    Weights(&'a Weights),
    Network(&'a Network),
}

impl Program<'_> {
    /// Nodes evaluated per row (terms for weights).
    pub fn n_nodes(&self) -> usize {
        match self {
            Program::Trees(ts) => ts.iter().map(|t| t.len()).sum(),
            Program::Policy(p) => {
                p.rules.iter().map(|r| r.condition.len() + r.value.len()).sum::<usize>() + p.default.len()
            }
            Program::Weights(w) => w.terms.len(),
            Program::Network(n) => n.plan().steps.iter().map(|s| 1 + s.incoming.len()).sum(),
        }
    }
}

/// The outputs of a run.
#[derive(Debug, Clone, Default)]
pub struct RunOutput {
    /// One column of values per tree (one column for policies and weights).
    pub columns: Vec<Vec<Value>>,
    /// For a policy, the rule that fired on each row (`None`: the default).
    pub rules: Vec<Option<usize>>,
    /// Whether the JIT computed the results (else the interpreter did).
    pub used_jit: bool,
    /// Why parts of the program fell back to the interpreter.
    pub fallbacks: Vec<JitError>,
    /// Time spent compiling, in microseconds.
    pub compile_us: f64,
}

/// Evaluates `program` on every row of `rows`. The program must not call
/// natives (a table cannot supply them); the caller checks that first.
pub fn run_program(engine: Engine, ps: &PrimSet, program: &Program, rows: &BoundRows) -> RunOutput {
    let jit = engine.compiles(program.n_nodes(), rows.n_rows);
    if jit { run_jit(ps, program, rows) } else { run_interp(ps, program, rows) }
}

fn run_interp(ps: &PrimSet, program: &Program, rows: &BoundRows) -> RunOutput {
    let mut out = RunOutput::default();
    let n_cols = match program {
        Program::Trees(ts) => ts.len(),
        _ => 1,
    };
    out.columns = vec![Vec::with_capacity(rows.n_rows); n_cols];
    for r in 0..rows.n_rows {
        let mut ctx = Slots(rows.row(r));
        let mut interp = Interp::new(ps, &mut ctx);
        match program {
            Program::Trees(ts) => {
                for (c, tree) in ts.iter().enumerate() {
                    out.columns[c].push(interp.eval_tree(tree));
                }
            }
            Program::Policy(p) => {
                let (v, rule) = interp.eval_policy(p);
                out.columns[0].push(v);
                out.rules.push(rule);
            }
            Program::Weights(w) => out.columns[0].push(interp.eval_weights(w)),
            Program::Network(n) => out.columns[0].push(interp.eval_network(n)),
        }
    }
    out
}

fn run_jit(ps: &PrimSet, program: &Program, rows: &BoundRows) -> RunOutput {
    let jit_programs: Vec<JitProgram> = match program {
        Program::Trees(ts) => ts.iter().map(|t| JitProgram::Tree(t)).collect(),
        Program::Policy(p) => vec![JitProgram::Policy(p)],
        Program::Weights(w) => vec![JitProgram::Weights(w)],
        Program::Network(n) => vec![JitProgram::Network(n)],
    };
    let start = std::time::Instant::now();
    let compiled = JitCompiler::new(ps, JitConfig::default()).and_then(|mut c| {
        let handles: Vec<Result<FnHandle, JitError>> = jit_programs.iter().map(|p| c.add(*p, Mode::Batch)).collect();
        Ok((c.finish()?, handles))
    });
    let compile_us = start.elapsed().as_secs_f64() * 1e6;
    let (compiled, handles) = match compiled {
        Ok(c) => c,
        Err(e) => {
            let mut out = run_interp(ps, program, rows);
            out.fallbacks.push(e);
            return out;
        }
    };
    let cols = rows.columns();
    let mut out = RunOutput { used_jit: true, compile_us, ..RunOutput::default() };
    let (mut bits, mut aux) = (Vec::new(), Vec::new());
    for (k, handle) in handles.into_iter().enumerate() {
        let f = match handle.map(|h| compiled.batch(h)) {
            Ok(Some(f)) => f,
            Ok(None) => {
                out.fallbacks.push(JitError::Codegen("no batch function".into()));
                out.columns.push(interp_column(ps, program, k, rows, &mut out.rules));
                continue;
            }
            Err(e) => {
                out.fallbacks.push(e);
                out.columns.push(interp_column(ps, program, k, rows, &mut out.rules));
                continue;
            }
        };
        f.run(&cols, &mut bits, &mut aux);
        out.columns.push(bits[..rows.n_rows].iter().map(|b| Value::from_bits(f.ret(), *b)).collect());
        if matches!(program, Program::Policy(_)) {
            out.rules = aux[..rows.n_rows].iter().map(|a| crate::eval::jit::code::rule_index(*a)).collect();
        }
    }
    out
}

/// Column `k` of a program computed by the interpreter (a fallback).
fn interp_column(
    ps: &PrimSet,
    program: &Program,
    k: usize,
    rows: &BoundRows,
    rules: &mut Vec<Option<usize>>,
) -> Vec<Value> {
    let single = match program {
        Program::Trees(ts) => Program::Trees(ts.get(k).map(|t| vec![*t]).unwrap_or_default()),
        other => other.clone(),
    };
    let mut out = run_interp(ps, &single, rows);
    if matches!(program, Program::Policy(_)) {
        *rules = out.rules;
    }
    out.columns.pop().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use crate::eval::engine::auto_uses_jit;

    #[test]
    fn auto_break_even_is_a_few_hundred_rows_for_gpbench() {
        assert!(!auto_uses_jit(26_760, 100));
        assert!(auto_uses_jit(26_760, 1_000));
        // A small tree on few rows is not worth compiling.
        assert!(!auto_uses_jit(31, 1_000));
    }
}
