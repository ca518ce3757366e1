//! `stratagem eval FILE --individual NAME --rows ROWS.csv`: one value per row.

use std::path::PathBuf;

use super::{Engine, Failure, Format, Outcome, out, print_warnings};
use crate::diagnostic::{Diagnostic, FileId, Sources, has_errors};
use crate::eval::run::{Program as RunProgram, run_program};
use crate::eval::table::{BoundRows, bind, read_csv};
use crate::lang::{Loader, Module, PrimKind, PrimSet, PrimSetId, ProgramRef, Tree, Value};
use crate::syntax::Span;

pub struct EvalArgs {
    pub file: PathBuf,
    pub name: String,
    pub rows: PathBuf,
    pub tree: Option<String>,
    pub engine: Engine,
    pub format: Format,
}

/// What is evaluated per row.
enum Program<'m> {
    Trees(Vec<(&'m str, &'m Tree)>),
    Policy(&'m crate::lang::Policy),
    Weights(&'m crate::lang::Weights),
    Network(&'m crate::lang::Network),
}

pub fn run(args: &EvalArgs) -> Outcome {
    let mut loader = Loader::new();
    let Some(file) = loader.load_path(&args.file) else {
        return Err(Failure::new(loader.sources, loader.diags));
    };
    if has_errors(&loader.diags) {
        return Err(Failure::new(loader.sources, loader.diags));
    }
    print_warnings(&loader.sources, &loader.diags);
    let m = &loader.module;
    let (kind, ps_id, span, program) = find_program(m, args, &loader.sources)?;
    let ps = m.primset(ps_id);
    let rows = table_rows(&mut loader.sources, args, ps, &program, (file, span))?;
    let run_prog = match &program {
        Program::Trees(t) => RunProgram::Trees(t.iter().map(|(_, t)| *t).collect()),
        Program::Policy(p) => RunProgram::Policy(p),
        Program::Weights(w) => RunProgram::Weights(w),
        Program::Network(n) => RunProgram::Network(n),
    };
    let result = run_program(args.engine, ps, &run_prog, &rows);
    if !result.fallbacks.is_empty() {
        super::report_fallbacks(result.fallbacks.len(), &result.fallbacks);
    }
    let mut text = String::new();
    let names: Vec<String> = match &program {
        Program::Trees(t) => t.iter().map(|(n, _)| n.to_string()).collect(),
        _ => vec!["value".into()],
    };
    let columns: Vec<(String, Vec<Value>)> = names.into_iter().zip(result.columns).collect();
    let fired = result.rules;
    match args.format {
        Format::Text => {
            for r in 0..rows.n_rows {
                let line: Vec<String> = columns.iter().map(|(_, vs)| vs[r].to_string()).collect();
                text.push_str(&line.join(" "));
                text.push('\n');
            }
        }
        Format::Json => {
            let outputs: serde_json::Map<String, serde_json::Value> =
                columns.iter().map(|(n, vs)| (n.clone(), vs.iter().map(|v| super::json_value(*v)).collect())).collect();
            let mut obj = serde_json::json!({ "name": args.name, "kind": kind, "primset": ps.name, "rows": rows.n_rows, "outputs": outputs });
            if matches!(program, Program::Policy(_)) {
                obj["rule"] = fired
                    .iter()
                    .map(|r| r.map_or(serde_json::Value::String("default".into()), serde_json::Value::from))
                    .collect();
            }
            text = format!("{obj}\n");
        }
    }
    out(&text);
    Ok(())
}

/// The program `--name` names in the module: its kind, primset, span and trees.
fn find_program<'m>(
    m: &'m Module,
    args: &EvalArgs,
    sources: &Sources,
) -> Result<(&'static str, PrimSetId, Span, Program<'m>), Failure> {
    let Some(found) = m.program(&args.name) else {
        let d = m.unknown_program("stratagem::eval::unknown", &args.file.display().to_string(), &args.name);
        return Err(Failure::new(sources.clone(), vec![d]));
    };
    Ok(match found {
        ProgramRef::Individual(ind) => {
            let trees: Vec<(&str, &Tree)> = ind
                .trees
                .iter()
                .filter(|t| args.tree.as_deref().is_none_or(|n| n == t.name))
                .map(|t| (t.name.as_str(), &t.tree))
                .collect();
            if trees.is_empty() {
                let names: Vec<&str> = ind.trees.iter().map(|t| t.name.as_str()).collect();
                return Err(Failure::message(
                    "stratagem::eval::tree",
                    format!(
                        "individual `{}` has no tree `{}` (it has: {})",
                        ind.name,
                        args.tree.as_deref().unwrap_or(""),
                        names.join(", ")
                    ),
                ));
            }
            ("individual", ind.primset, ind.span, Program::Trees(trees))
        }
        ProgramRef::Policy(p) => ("policy", p.primset, p.span, Program::Policy(p)),
        ProgramRef::Weights(w) => ("weights", w.primset, w.span, Program::Weights(w)),
        ProgramRef::Network(n) => ("network", n.primset, n.span, Program::Network(n)),
    })
}

/// The rows of `--rows` bound to the features the program reads; a program
/// that calls natives cannot run on a table.
fn table_rows(
    sources: &mut Sources,
    args: &EvalArgs,
    ps: &PrimSet,
    program: &Program<'_>,
    (file, span): (FileId, Span),
) -> Result<BoundRows, Failure> {
    let trees: Vec<&Tree> = match program {
        Program::Trees(t) => t.iter().map(|(_, t)| *t).collect(),
        Program::Policy(p) => p.rules.iter().flat_map(|r| [&r.condition, &r.value]).chain([&p.default]).collect(),
        Program::Weights(_) | Program::Network(_) => Vec::new(),
    };
    if trees.iter().any(|t| t.uses_natives(ps)) {
        return Err(Failure::new(
            sources.clone(),
            vec![
                Diagnostic::error(
                    "stratagem::eval::native",
                    format!(
                        "`{}` calls native functions of domain `{}`, which a table cannot supply",
                        args.name,
                        ps.domain.as_deref().unwrap_or("?")
                    ),
                )
                .at(file, span.first_byte(), "defined here")
                .with_help("evaluate it on positions of its game (stratagem play / repl) instead"),
            ],
        ));
    }
    let mut used: Vec<u32> = trees.iter().flat_map(|t| t.features_used(ps)).collect();
    if let Program::Weights(w) = program {
        used.extend(w.terms.iter().filter_map(|(id, _)| match ps.prim(*id).kind {
            PrimKind::Feature(s) => Some(s),
            _ => None,
        }));
    }
    if let Program::Network(n) = program {
        used.extend(n.features_used());
    }
    used.sort_unstable();
    used.dedup();
    let csv = match sources.load_within(&args.rows, crate::limits::Limit::CsvSize) {
        Ok(f) => f,
        Err(e) => {
            return Err(Failure::message("stratagem::io", format!("cannot read `{}`: {e}", args.rows.display())));
        }
    };
    let (table, mut diags) = read_csv(sources, csv).map_err(|d| Failure::new(sources.clone(), d))?;
    let bound = bind(&table, ps, &used, span.first_byte(), file);
    match bound {
        Ok(rows) if diags.is_empty() => Ok(rows),
        Ok(_) => Err(Failure::new(sources.clone(), diags)),
        Err(more) => {
            diags.extend(more);
            Err(Failure::new(sources.clone(), diags))
        }
    }
}
