//! `stratagem evolve [EXPERIMENT.sg] [--seed S] [--out DIR] [--threads N] [--resume]`:
//! runs an experiment (the shipped quickstart when no file is given), in one
//! process or, built with the `mpi` feature, as the ranks of `mpirun -np N`.

use std::path::PathBuf;

use super::{Failure, Outcome, out};
use crate::diagnostic::{Diagnostic, has_errors};
use crate::evolve::prepared::{PreparedRun, RunRequest, prepare};
use crate::evolve::run::run_experiment;
use crate::evolve::runner::RunReport;

pub struct EvolveArgs {
    pub file: Option<PathBuf>,
    pub experiment: Option<String>,
    pub seed: Option<u64>,
    pub out: Option<PathBuf>,
    pub threads: Option<usize>,
    pub resume: Option<PathBuf>,
    pub stop_after: Option<usize>,
}

/// Runs the experiment; under `mpirun`, as one rank of the job (src/cluster):
/// every rank runs it, rank 0 writes and prints.
pub fn run(args: &EvolveArgs) -> Outcome {
    let session = crate::cluster::Session::join();
    let outcome = run_here(args);
    if outcome.is_ok()
        && let Some(work) = crate::cluster::work_per_rank()
    {
        let column = |f: fn(&crate::cluster::Work) -> u64| work.iter().map(|w| f(w).to_string()).collect::<Vec<_>>();
        let mut line = format!("{} MPI ranks; tasks computed by rank: {}", work.len(), column(|w| w.tasks).join(" "));
        if work.iter().any(|w| w.islands_bred > 0) {
            line += &format!("; island generations bred by rank: {}", column(|w| w.islands_bred).join(" "));
        }
        out(&format!("{line}\n"));
    }
    if let Err(failure) = &outcome
        && has_errors(&failure.diags)
        && crate::cluster::ranks() > 1
    {
        // The other ranks may be waiting for this one: say why, then end
        // them all rather than leave them waiting.
        let (rank, ranks) = (crate::cluster::rank(), crate::cluster::ranks());
        if rank == 0 {
            let rendered = failure.sources.render_for_terminal(&failure.diags);
            eprint!("{rendered}");
        } else if let Some(first) = failure.diags.first() {
            eprintln!("error: rank {rank} of {ranks}: {}", first.message);
        }
        eprintln!("error: rank {rank} of {ranks} failed; ending the MPI job");
        session.abort_others(1);
    }
    outcome
}

fn run_here(args: &EvolveArgs) -> Outcome {
    let root = crate::cluster::writes();
    let request = RunRequest {
        file: args.file.as_deref(),
        experiment: args.experiment.as_deref(),
        seed: args.seed,
        out: args.out.as_deref(),
        resume: args.resume.as_deref(),
        stop_after: args.stop_after,
        progress: root && std::io::IsTerminal::is_terminal(&std::io::stderr()),
    };
    let warn = |warnings: &[String]| {
        for w in warnings.iter().filter(|_| root) {
            eprintln!("warning: {w}");
        }
    };
    let run = prepare(&request).map_err(|u| {
        warn(&u.warnings);
        Failure::new(u.sources, u.diags)
    })?;
    warn(&run.warnings);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| Failure::message("stratagem::evolve::threads", format!("cannot start the worker threads: {e}")))?;
    let out_dir = &run.opts.out;
    let report = pool
        .install(|| run_experiment(&run))
        .map_err(|d: Vec<Diagnostic>| Failure::new(run.sources.clone(), name_run(d, &run.file_name, out_dir)))?;
    if root {
        out(&summary(args, &run, &report));
    }
    Ok(())
}

/// What `evolve` prints when a run (or a chunk of it) ends.
fn summary(args: &EvolveArgs, run: &PreparedRun, report: &RunReport) -> String {
    if !report.notes.is_empty() {
        return format!("{}\n", report.notes.join("\n"));
    }
    let (exp, out_dir) = (&run.exp, &run.opts.out);
    let last = report.log.last();
    let mut text = format!(
        "experiment {} (seed {}): {} of {} generations, best fitness {}, mean {}\n",
        exp.name,
        exp.seed,
        report.log.len(),
        exp.generations,
        last.map_or(0.0, |r| r.stats.best),
        last.map_or(0.0, |r| r.stats.mean),
    );
    text.push_str(&format!(
        "log: {}\nplot: {}\n",
        out_dir.join("log.jsonl").display(),
        out_dir.join("fitness.svg").display()
    ));
    if report.already_complete {
        text.push_str(&format!("the run in {} was already complete; nothing was written\n", out_dir.display()));
    }
    match (&report.champion, report.finished) {
        (Some(path), _) => text.push_str(&format!("champion: {}\n", path.display())),
        (None, false) => text.push_str(&format!(
            "stopped early; continue with: stratagem evolve {} --resume {}\n",
            args.file.as_ref().map_or(String::new(), |f| f.display().to_string()),
            out_dir.display()
        )),
        (None, true) => {}
    }
    text
}

/// Makes a run's errors that point into no file name the experiment file
/// and the output directory, unless they already name a path there.
fn name_run(diags: Vec<Diagnostic>, file: &str, out: &std::path::Path) -> Vec<Diagnostic> {
    let out_s = out.display().to_string();
    diags
        .into_iter()
        .map(|mut d| {
            if d.file.is_none() && !d.message.contains(&out_s) && !d.message.contains(file) {
                d.message = format!("{} (running `{file}` into `{out_s}`)", d.message);
            }
            d
        })
        .collect()
}
