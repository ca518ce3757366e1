//! A prepared run: everything an experiment's run needs, gathered once
//! before any work starts, so that the runners (`runner.rs`) only evolve.
//!
//! [`prepare`] loads the experiment's file (or the shipped quickstart),
//! chooses the experiment, lowers it, applies the seed given on the command
//! line, resolves the paths of fixed players and reads the puzzles file
//! (both relative to the experiment's file, as imports are), says where a
//! champion imports its primset from, chooses the output directory and
//! computes the fingerprint that ties a checkpoint to this experiment and
//! seed. A run's checkpoint is read and written only through
//! [`PreparedRun::read_checkpoint`] and [`PreparedRun::write_checkpoint`]
//! (`files.rs`: reads within the `input-size` limit, atomic writes).

use std::path::{Path, PathBuf};

use super::experiment::{Experiment, lower_experiment};
use super::output::{self, io_error};
use crate::diagnostic::{Diagnostic, Sources, has_errors};
use crate::lang::{Loader, Module, PrimSet};
use crate::limits::Limit;
use crate::syntax::Sexp;

/// The experiment `stratagem evolve` runs when given no file.
pub const QUICKSTART: &str = include_str!("../../programs/experiments/quickstart.sg");

/// The name the quickstart's text goes by in messages.
const QUICKSTART_PATH: &str = "programs/experiments/quickstart.sg";

/// Games per generation past which preparing a run warns that it may take long.
const LARGE_GENERATION: u64 = 1_000_000;

pub struct RunOptions {
    pub out: PathBuf,
    pub resume: bool,
    /// Stop after this many generations in this invocation (to run in chunks;
    /// `--resume` continues).
    pub stop_after: Option<usize>,
    pub progress: bool,
}

/// Where a champion finds its primset.
pub enum PrimsetImport {
    /// A primset shipped with Stratagem: `(import NAME)`.
    Library,
    /// A primset defined in this file.
    File(PathBuf),
}

/// What a front end asks to run (`stratagem evolve`'s arguments).
pub struct RunRequest<'a> {
    /// The experiment file; `None`: the shipped quickstart.
    pub file: Option<&'a Path>,
    /// Which experiment of the file, when it defines several.
    pub experiment: Option<&'a str>,
    /// A seed in place of the experiment's.
    pub seed: Option<u64>,
    /// The output directory of a fresh run (default: `runs/NAME`, `runs/NAME-2`, ...).
    pub out: Option<&'a Path>,
    /// The output directory of a run to continue.
    pub resume: Option<&'a Path>,
    pub stop_after: Option<usize>,
    /// Whether to show a progress bar.
    pub progress: bool,
}

/// Why a run could not be prepared: its diagnostics, the sources they
/// point into, and the warnings given before the failure.
pub struct Unprepared {
    pub sources: Sources,
    pub diags: Vec<Diagnostic>,
    pub warnings: Vec<String>,
}

/// An experiment ready to run.
pub struct PreparedRun {
    /// The program the experiment is defined in (its primset, its founders).
    pub module: Module,
    /// The texts of the program's files, for rendering diagnostics.
    pub sources: Sources,
    /// The experiment lowered, with the seed it runs with, its players'
    /// paths resolved and its puzzles file read.
    pub exp: Experiment,
    /// The experiment's file as messages name it.
    pub file_name: String,
    /// Ties a checkpoint to the experiment text and seed that wrote it.
    pub fingerprint: String,
    pub primset_import: PrimsetImport,
    pub opts: RunOptions,
    /// Warnings for the user (a run that may take long).
    pub warnings: Vec<String>,
}

impl PreparedRun {
    /// The primset the experiment evolves over.
    pub fn primset(&self) -> &PrimSet {
        self.module.primset(self.exp.primset)
    }

    /// Where the run keeps its checkpoint.
    pub fn checkpoint_path(&self) -> PathBuf {
        output::checkpoint_path(&self.opts.out)
    }

    /// The text of the run's checkpoint.
    pub fn read_checkpoint(&self) -> Result<String, Vec<Diagnostic>> {
        let path = self.checkpoint_path();
        output::read_text(&path).map_err(|e| io_error("read", &path, e))
    }

    /// Writes the run's checkpoint (atomically, and only if it changed).
    pub fn write_checkpoint(&self, text: &str) -> Result<(), Vec<Diagnostic>> {
        let path = self.checkpoint_path();
        output::write_output(&path, text.as_bytes()).map(|_| ()).map_err(|e| io_error("write", &path, e))
    }
}

/// A fingerprint of the experiment text and seed: a checkpoint is resumed only
/// by the experiment that wrote it.
pub fn fingerprint(form: &Sexp, seed: u64) -> String {
    let text = format!("{form} seed={seed}");
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Prepares the run `request` asks for; every error names the experiment
/// file (and the output directory where it matters).
pub fn prepare(request: &RunRequest) -> Result<PreparedRun, Unprepared> {
    let mut loader = Loader::new();
    let file = match request.file {
        Some(path) => loader.load_path(path),
        None => Some(loader.load_text(QUICKSTART_PATH, QUICKSTART)),
    };
    if has_errors(&loader.diags) || file.is_none() {
        return Err(Unprepared { sources: loader.sources, diags: loader.diags, warnings: Vec::new() });
    }
    let file_name = request.file.map_or_else(|| QUICKSTART_PATH.to_owned(), |f| f.display().to_string());
    let index = choose_experiment(&loader.module, file, request.experiment, &file_name).map_err(message)?;
    let mut exp = lower_experiment(&loader.module, index).map_err(|diags| Unprepared {
        sources: loader.sources.clone(),
        diags,
        warnings: Vec::new(),
    })?;
    if let Some(seed) = request.seed {
        exp.seed = seed;
    }
    // Relative to the experiment's file, as imports are.
    let base = request.file.and_then(Path::parent).unwrap_or(Path::new(""));
    for player in exp.monitor.iter_mut().chain(exp.opponents.iter_mut()) {
        player.resolve(base);
    }
    if let Err(d) = load_puzzles(&mut loader, &mut exp, base) {
        return Err(Unprepared { sources: loader.sources, diags: vec![d], warnings: Vec::new() });
    }
    let mut warnings = Vec::new();
    let games = exp.games_per_generation();
    if games > LARGE_GENERATION {
        warnings.push(format!(
            "experiment `{}` in `{file_name}` plays {games} games per generation ({} generations); it may take long",
            exp.name, exp.generations
        ));
    }
    let primset_import = match primset_import(&loader, &exp, &file_name) {
        Ok(import) => import,
        Err(e) => return Err(Unprepared { warnings, ..message(e) }),
    };
    let opts = RunOptions {
        out: out_dir(request, &exp.name),
        resume: request.resume.is_some(),
        stop_after: request.stop_after,
        progress: request.progress,
    };
    let fingerprint = fingerprint(&loader.module.experiments[index].1, exp.seed);
    let Loader { module, sources, .. } = loader;
    Ok(PreparedRun { module, sources, exp, file_name, fingerprint, primset_import, opts, warnings })
}

/// A failure that points into no file.
fn message((code, text): (&'static str, String)) -> Unprepared {
    Unprepared { sources: Sources::new(), diags: vec![Diagnostic::error(code, text)], warnings: Vec::new() }
}

/// The index in `module` of the experiment to run: the only one `file`
/// defines, or the one named `wanted`.
fn choose_experiment(
    module: &Module,
    file: Option<crate::diagnostic::FileId>,
    wanted: Option<&str>,
    file_name: &str,
) -> Result<usize, (&'static str, String)> {
    let candidates: Vec<usize> =
        (0..module.experiments.len()).filter(|&i| Some(module.experiments[i].0) == file).collect();
    let name_of = |i: usize| {
        module.experiments[i].1.as_list().and_then(|l| l.get(1)).map(ToString::to_string).unwrap_or_default()
    };
    match (wanted, candidates.as_slice()) {
        (None, [only]) => Ok(*only),
        (None, []) => Err(("stratagem::evolve::none", format!("`{file_name}` defines no (experiment ...)"))),
        (None, many) => {
            let names: Vec<String> = many.iter().map(|&i| name_of(i)).collect();
            Err((
                "stratagem::evolve::which",
                format!(
                    "`{file_name}` defines several experiments ({}); choose one with --experiment NAME",
                    names.join(", ")
                ),
            ))
        }
        (Some(want), _) => candidates
            .iter()
            .find(|&&i| name_of(i) == want)
            .copied()
            .ok_or_else(|| ("stratagem::evolve::none", format!("`{file_name}` defines no experiment `{want}`"))),
    }
}

/// Reads the experiment's file of training puzzles, if it names one, from
/// `base`, the experiment file's folder.
fn load_puzzles(loader: &mut Loader, exp: &mut Experiment, base: &Path) -> Result<(), Diagnostic> {
    let Some(source) = exp.puzzles.as_mut().filter(|s| s.numbered.is_none()) else { return Ok(()) };
    let path = base.join(&source.path);
    match loader.sources.load_within(&path, Limit::InputSize) {
        Ok(id) => {
            source.loaded = Some((id, loader.sources.get(id).text.clone()));
            Ok(())
        }
        Err(e) => Err(Diagnostic::error(
            "stratagem::experiment::puzzle",
            format!("cannot read the puzzles file `{}`: {e}", path.display()),
        )
        .at(exp.file, source.span, "this file")
        .with_help("a relative path is read from the experiment file's folder")),
    }
}

/// How a champion imports the experiment's primset: shipped, or from its
/// file; a primset defined inline could not be imported.
fn primset_import(loader: &Loader, exp: &Experiment, file_name: &str) -> Result<PrimsetImport, (&'static str, String)> {
    let ps = loader.module.primset(exp.primset);
    match &loader.sources.get(ps.file).path {
        Some(path) => Ok(PrimsetImport::File(path.clone())),
        None if crate::lang::library::primset_source(&ps.name).is_some() => Ok(PrimsetImport::Library),
        None => Err((
            "stratagem::evolve::primset",
            format!(
                "the primset of experiment `{}` in `{file_name}` is defined inline; put it in a file (or use a shipped primset) so champions can import it",
                exp.name
            ),
        )),
    }
}

/// The run's output directory: the one to resume, the one asked for, or
/// by default one of its own, `runs/NAME`, `runs/NAME-2`, ...
fn out_dir(request: &RunRequest, name: &str) -> PathBuf {
    if let Some(dir) = request.resume.or(request.out) {
        return dir.to_path_buf();
    }
    let base = PathBuf::from("runs");
    (1..)
        .map(|k| if k == 1 { base.join(name) } else { base.join(format!("{name}-{k}")) })
        .find(|d| !d.exists())
        .unwrap_or_else(|| base.join(name))
}
