//! `stratagem evolve [EXPERIMENT.sg] [--seed S] [--out DIR] [--threads N] [--resume]`:
//! runs an experiment (the shipped quickstart when no file is given), in one
//! process or, built with the `mpi` feature, as the ranks of `mpirun -np N`.

use std::path::PathBuf;

use super::{Failure, Outcome, out};
use crate::diagnostic::{Diagnostic, has_errors};
use crate::evolve::experiment::lower_experiment;
use crate::evolve::run::{PrimsetImport, RunOptions, run_experiment};
use crate::lang::Loader;
use crate::limits::Limit;

/// The experiment `stratagem evolve` runs when given no file.
pub const QUICKSTART: &str = include_str!("../../programs/experiments/quickstart.sg");

/// Games per generation past which `evolve` warns that a run may take long.
const LARGE_GENERATION: u64 = 1_000_000;

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
    let mut loader = Loader::new();
    let file = match &args.file {
        Some(path) => loader.load_path(path),
        None => Some(loader.load_text("programs/experiments/quickstart.sg", QUICKSTART)),
    };
    if has_errors(&loader.diags) || file.is_none() {
        return Err(Failure::new(loader.sources, loader.diags));
    }
    let m = &loader.module;
    // Every error names the file (and the output directory where it matters).
    let file_name =
        args.file.as_ref().map_or_else(|| "programs/experiments/quickstart.sg".to_owned(), |f| f.display().to_string());
    let candidates: Vec<usize> = (0..m.experiments.len()).filter(|&i| Some(m.experiments[i].0) == file).collect();
    let name_of =
        |i: usize| m.experiments[i].1.as_list().and_then(|l| l.get(1)).map(ToString::to_string).unwrap_or_default();
    let index = match (&args.experiment, candidates.as_slice()) {
        (None, [only]) => *only,
        (None, []) => {
            return Err(Failure::message(
                "stratagem::evolve::none",
                format!("`{file_name}` defines no (experiment ...)"),
            ));
        }
        (None, many) => {
            let names: Vec<String> = many.iter().map(|&i| name_of(i)).collect();
            return Err(Failure::message(
                "stratagem::evolve::which",
                format!(
                    "`{file_name}` defines several experiments ({}); choose one with --experiment NAME",
                    names.join(", ")
                ),
            ));
        }
        (Some(want), _) => match candidates.iter().find(|&&i| name_of(i) == *want) {
            Some(&i) => i,
            None => {
                return Err(Failure::message(
                    "stratagem::evolve::none",
                    format!("`{file_name}` defines no experiment `{want}`"),
                ));
            }
        },
    };
    let mut exp = lower_experiment(m, index).map_err(|d| Failure::new(loader.sources.clone(), d))?;
    if let Some(seed) = args.seed {
        exp.seed = seed;
    }
    let base = args.file.as_ref().and_then(|f| f.parent()).unwrap_or(std::path::Path::new(""));
    for player in exp.monitor.iter_mut().chain(exp.opponents.iter_mut()) {
        player.resolve(base);
    }
    if let Some(source) = exp.puzzles.as_mut().filter(|s| s.numbered.is_none()) {
        // Relative to the experiment's file, as imports are.
        let base = args.file.as_ref().and_then(|f| f.parent()).unwrap_or(std::path::Path::new(""));
        let path = base.join(&source.path);
        match loader.sources.load_within(&path, Limit::InputSize) {
            Ok(id) => source.loaded = Some((id, loader.sources.get(id).text.clone())),
            Err(e) => {
                let d = Diagnostic::error(
                    "stratagem::experiment::puzzle",
                    format!("cannot read the puzzles file `{}`: {e}", path.display()),
                )
                .at(exp.file, source.span, "this file")
                .with_help("a relative path is read from the experiment file's folder");
                return Err(Failure::new(loader.sources, vec![d]));
            }
        }
    }
    let games = exp.games_per_generation();
    let root = crate::cluster::writes();
    if games > LARGE_GENERATION && root {
        eprintln!(
            "warning: experiment `{}` in `{file_name}` plays {games} games per generation ({} generations); it may take long",
            exp.name, exp.generations
        );
    }
    let ps = m.primset(exp.primset);
    let source = loader.sources.get(ps.file);
    let primset_import = match &source.path {
        Some(path) => PrimsetImport::File(path.clone()),
        None if crate::lang::library::primset_source(&ps.name).is_some() => PrimsetImport::Library,
        None => {
            return Err(Failure::message(
                "stratagem::evolve::primset",
                format!(
                    "the primset of experiment `{}` in `{file_name}` is defined inline; put it in a file (or use a shipped primset) so champions can import it",
                    exp.name
                ),
            ));
        }
    };
    let (out_dir, resume) = match (&args.resume, &args.out) {
        (Some(dir), _) => (dir.clone(), true),
        (None, Some(dir)) => (dir.clone(), false),
        // By default each run gets a directory of its own: runs/NAME, runs/NAME-2, ...
        (None, None) => {
            let base = PathBuf::from("runs");
            let dir = (1..)
                .map(|k| if k == 1 { base.join(&exp.name) } else { base.join(format!("{}-{k}", exp.name)) })
                .find(|d| !d.exists())
                .unwrap_or_else(|| base.join(&exp.name));
            (dir, false)
        }
    };
    let opts = RunOptions {
        out: out_dir.clone(),
        resume,
        stop_after: args.stop_after,
        progress: root && std::io::IsTerminal::is_terminal(&std::io::stderr()),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| Failure::message("stratagem::evolve::threads", format!("cannot start the worker threads: {e}")))?;
    let form = m.experiments[index].1.clone();
    let report = pool
        .install(|| run_experiment(m, &form, &exp, &primset_import, &opts))
        .map_err(|d: Vec<Diagnostic>| Failure::new(loader.sources.clone(), name_run(d, &file_name, &out_dir)))?;
    if !root {
        return Ok(());
    }
    if !report.notes.is_empty() {
        out(&format!("{}\n", report.notes.join("\n")));
        return Ok(());
    }
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
    out(&text);
    Ok(())
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
