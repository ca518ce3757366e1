//! What a run leaves in its output directory: a JSON-lines log (one record per
//! generation), an SVG plot of fitness, a checkpoint after every generation,
//! and the champions as readable programs. Every file is written atomically
//! and only when its bytes change; the checkpoint is written first and the
//! rest is derived from it, so `--resume` after a kill at any point repairs
//! the directory (see `generations.rs`).
//!
//! ```text
//! <out>/log.jsonl            {"generation":0,"best":..,"mean":..,...}: the same for the same seed
//! <out>/timing.jsonl         {"generation":0,"seconds":..,"games_per_s":..}: wall time, which varies
//! <out>/fitness.svg          best and mean fitness over generations
//! <out>/checkpoint.json      the population at the start of the next generation
//! <out>/champions/*.sg       simplified best programs, checkable and playable
//! <out>/final.json           the final round of validated finalists, when there is one
//! <out>/boards.txt           the coevolved puzzles, `<optimal length> <board>` a line (puzzle coevolution)
//! <out>/training-deals.txt   numbered training puzzles as a deal list, `--deals` reads it (numbered puzzles)
//! <out>/test-deals.txt       the rest of their range, the test set, as a deal list
//! ```

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use super::engine::{GenerationStats, MonitorStats};
use super::finalists::{FinalRound, Finalist};
use crate::diagnostic::{Diagnostic, FileId};
use crate::limits::Limit;
use crate::syntax::read;

/// The error of a run's file operation: what it could not do to `path`, and why.
pub fn io_error(what: &str, path: &Path, e: impl std::fmt::Display) -> Vec<Diagnostic> {
    vec![Diagnostic::error("stratagem::evolve::io", format!("cannot {what} `{}`: {e}", path.display()))]
}

/// Reads a text file of a run (a checkpoint, a log, a summary) within the
/// `input-size` limit ([`crate::files::read_limited`]).
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let bytes = crate::files::read_limited(path, Limit::InputSize)?;
    String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()))
}

/// One line of log.jsonl.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LogRecord {
    #[serde(flatten)]
    pub stats: GenerationStats,
    /// Wall time of the generation.
    pub seconds: f64,
    pub games_per_s: f64,
}

/// The saved state of a run, the source of truth of its output directory:
/// the log, the plot, final.json and the champion are all derived from it,
/// so a resumed run rewrites whatever a kill left stale or missing.
/// `experiment` is a fingerprint of the experiment text and seed: a
/// checkpoint is only resumed by the run that wrote it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    pub format: u32,
    pub experiment: String,
    pub seed: u64,
    /// The generation the population is at (not yet evaluated).
    pub generation: u64,
    /// Each genome as program text.
    pub population: Vec<String>,
    /// The log so far, so a resumed run ends with the full log.
    pub log: Vec<LogRecord>,
    /// The best genome of the last evaluated generation, as program text
    /// (the champion unless champions are chosen by validation).
    pub champion: Option<String>,
    /// The best validated candidates so far, when champions are chosen by validation.
    #[serde(default)]
    pub finalists: Vec<Finalist>,
    /// The final round, once played (after the last generation), so a
    /// resumed run writes final.json and the champion without replaying it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_round: Option<FinalRound>,
    /// The problem population at `generation`, when the run coevolves
    /// problems (Hillis).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problems: Option<SavedProblems>,
    /// Innovation numbers and species, when networks evolve by NEAT.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neat: Option<SavedNeat>,
}

/// NEAT's state between generations (`neat::NeatState`), with each
/// species' representative as program text.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SavedNeat {
    pub next_innovation: u64,
    pub next_species: u64,
    pub species: Vec<SavedSpecies>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SavedSpecies {
    pub id: u64,
    pub representative: String,
    pub best: f64,
    pub improved: u64,
}

/// A problem population as a checkpoint keeps it; which kind the run's
/// game needs is checked by the run that resumes it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum SavedProblems {
    /// Openings of a two-player game, each its move choices.
    Openings(Vec<Vec<u32>>),
    /// Puzzles, each a line `<optimal length> <puzzle>` as `stratagem
    /// solve` reads it.
    Puzzles(Vec<String>),
    /// Sets of numbered training puzzles (GA-FreeCell's deal individuals),
    /// each its instance numbers.
    DealSets { deal_sets: Vec<Vec<u32>> },
}

impl SavedProblems {
    pub fn len(&self) -> usize {
        match self {
            SavedProblems::Openings(p) => p.len(),
            SavedProblems::Puzzles(p) => p.len(),
            SavedProblems::DealSets { deal_sets } => deal_sets.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Version 2 keeps the finalists of validation (and, optionally, the final
/// round); version 1 kept one champion.
pub const CHECKPOINT_FORMAT: u32 = 2;

pub fn checkpoint_path(dir: &Path) -> PathBuf {
    dir.join("checkpoint.json")
}

/// The files a run writes in its output directory (besides `champions/`).
pub const OUTPUT_FILES: [&str; 8] = [
    "checkpoint.json",
    "log.jsonl",
    "timing.jsonl",
    "fitness.svg",
    "final.json",
    BOARDS_FILE,
    TRAINING_DEALS_FILE,
    TEST_DEALS_FILE,
];

/// The file of a run that coevolves puzzles: its problem population, one
/// `<optimal length> <puzzle>` a line, which `stratagem solve --puzzles` reads.
pub const BOARDS_FILE: &str = "boards.txt";

/// The training puzzles of a run on numbered puzzles, as a deal list
/// (`112,114,129-130,...`) that `stratagem solve --deals` reads.
pub const TRAINING_DEALS_FILE: &str = "training-deals.txt";

/// The other numbers of the range, the test set, as a deal list.
pub const TEST_DEALS_FILE: &str = "test-deals.txt";

/// `numbers` (increasing) as a deal list: runs of consecutive numbers as
/// ranges.
pub fn deal_list(numbers: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let mut j = i;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        parts.push(if j == i { numbers[i].to_string() } else { format!("{}-{}", numbers[i], numbers[j]) });
        i = j + 1;
    }
    parts.join(",") + "\n"
}

/// The environment variable of a test hook: with `N`, the process exits at
/// once, as if killed, right after the N-th file a run writes (counted over
/// the whole process). The crash-safety test uses it to stop a run between
/// every pair of writes and checks that `--resume` repairs the directory.
pub const CRASH_HOOK: &str = "STRATAGEM_TEST_CRASH_AFTER_WRITES";

static WRITES: AtomicU64 = AtomicU64::new(0);

fn crash_after() -> Option<u64> {
    static AFTER: OnceLock<Option<u64>> = OnceLock::new();
    *AFTER.get_or_init(|| std::env::var(CRASH_HOOK).ok().and_then(|v| v.trim().parse().ok()))
}

/// How many output files this process has written.
pub fn writes() -> u64 {
    WRITES.load(Ordering::SeqCst)
}

/// Writes one output file atomically ([`crate::files::write_atomic`]),
/// unless it already holds exactly `bytes`; returns whether it wrote.
/// Skipping identical files makes resuming a complete run a no-op (the old
/// file is read within the `input-size` limit, as a resumed checkpoint is;
/// a larger one is rewritten). Under
/// MPI only rank 0 writes; the other ranks hold the same bytes.
pub fn write_output(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    if !crate::cluster::writes() {
        return Ok(false);
    }
    if let Ok(meta) = std::fs::metadata(path)
        && meta.is_file()
        && meta.len() == bytes.len() as u64
        && crate::files::read_limited(path, Limit::InputSize).is_ok_and(|old| old == bytes)
    {
        return Ok(false);
    }
    crate::files::write_atomic(path, bytes)?;
    let n = WRITES.fetch_add(1, Ordering::SeqCst) + 1;
    if crash_after() == Some(n) {
        eprintln!("{CRASH_HOOK}: exiting after write {n} ({})", path.display());
        std::process::exit(137);
    }
    Ok(true)
}

/// Removes temporary files a killed run may have left beside its outputs
/// (`.NAME.PID-N.tmp` of [`crate::files::write_atomic`], and `NAME.tmp` of
/// earlier versions). Only names of files a run writes are touched.
pub fn remove_stale_temporaries(dir: &Path, champion: &str) {
    if !crate::cluster::writes() {
        return;
    }
    let stale = |dir: &Path, names: &[&str]| {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.filter_map(Result::ok) {
            let file = entry.file_name().to_string_lossy().into_owned();
            let ours = names.iter().any(|n| {
                let old = Path::new(n).with_extension("tmp");
                file.strip_prefix(&format!(".{n}.")).is_some_and(|rest| {
                    rest.strip_suffix(".tmp")
                        .is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit() || b == b'-'))
                }) || Path::new(&file) == old
            });
            if ours && entry.file_type().is_ok_and(|t| t.is_file()) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    };
    stale(dir, &OUTPUT_FILES);
    stale(&dir.join("champions"), &[champion]);
}

/// Whether `dir` holds nothing but what a run writes before its first
/// checkpoint: files named in `names`, and a `champions` directory of `.sg`
/// files (or nothing at all). A run killed that early leaves such a
/// directory, which `--resume` starts afresh; any other file refuses it.
pub fn holds_only_outputs(dir: &Path, names: &[&str]) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    entries.filter_map(Result::ok).all(|entry| {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(kind) = entry.file_type() else { return false };
        if kind.is_dir() && name == "champions" {
            let Ok(champions) = std::fs::read_dir(entry.path()) else { return false };
            return champions
                .filter_map(Result::ok)
                .all(|c| c.file_type().is_ok_and(|t| t.is_file()) && c.file_name().to_string_lossy().ends_with(".sg"));
        }
        kind.is_file() && names.contains(&name.as_str())
    })
}

/// The text of a checkpoint. Every float is printed so that it reads back
/// to the same bits (serde_json's `float_roundtrip` reads them exactly), so
/// a resumed run logs what the uninterrupted run logs.
pub fn checkpoint_text(cp: &Checkpoint) -> std::io::Result<String> {
    serde_json::to_string(cp).map_err(std::io::Error::other)
}

pub fn save_checkpoint(dir: &Path, cp: &Checkpoint) -> std::io::Result<()> {
    write_output(&checkpoint_path(dir), checkpoint_text(cp)?.as_bytes()).map(|_| ())
}

/// Reads the checkpoint in `dir` (within the `input-size` limit); a missing,
/// unreadable or corrupt file is an error that names it.
pub fn load_checkpoint(dir: &Path) -> Result<Checkpoint, String> {
    let path = checkpoint_path(dir);
    let bytes = crate::files::read_limited(&path, Limit::InputSize)
        .map_err(|e| format!("cannot read the checkpoint `{}`: {e}", path.display()))?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| format!("`{}` is not a valid checkpoint: it is not UTF-8 text ({e})", path.display()))?;
    parse_checkpoint(text).map_err(|e| format!("`{}` is not a valid checkpoint: {e}", path.display()))
}

/// Parses and checks checkpoint text, without any file I/O (a fuzz target
/// calls it): the JSON, the format, a log of one record per generation so
/// far, and programs that read without a single diagnostic. What needs the
/// experiment (the primset, the population size, the number of generations)
/// is checked by the run that resumes it.
pub fn parse_checkpoint(text: &str) -> Result<Checkpoint, String> {
    let cp: Checkpoint = serde_json::from_str(text).map_err(|e| e.to_string())?;
    if cp.format != CHECKPOINT_FORMAT {
        return Err(format!("it has format {}, this version reads format {CHECKPOINT_FORMAT}", cp.format));
    }
    if cp.log.len() as u64 != cp.generation {
        return Err(format!(
            "it is at generation {} but its log has {} records (one per generation)",
            cp.generation,
            cp.log.len()
        ));
    }
    if let Some((i, r)) = cp.log.iter().enumerate().find(|(i, r)| r.stats.generation != *i as u64) {
        return Err(format!("log record {i} is for generation {}", r.stats.generation));
    }
    if let Some(r) = cp.log.iter().find(|r| !log_record_is_finite(r)) {
        return Err(format!("the log record of generation {} holds a number that is not finite", r.stats.generation));
    }
    if cp.population.is_empty() {
        return Err("it holds no population".into());
    }
    if cp.problems.as_ref().is_some_and(SavedProblems::is_empty) {
        return Err("it holds an empty problem population".into());
    }
    if cp.champion.is_some() != (cp.generation > 0) {
        return Err(match cp.champion {
            Some(_) => "it holds a champion before any generation was evaluated".into(),
            None => format!("it holds no champion after {} generations", cp.generation),
        });
    }
    for (i, p) in cp.population.iter().enumerate() {
        read_program(p).map_err(|e| format!("population member {i} {e}"))?;
    }
    if let Some(c) = &cp.champion {
        read_program(c).map_err(|e| format!("the champion {e}"))?;
    }
    for (i, f) in cp.finalists.iter().enumerate() {
        read_program(&f.program).map_err(|e| format!("finalist {i} {e}"))?;
        if f.generation >= cp.generation || !f.points.is_finite() || f.points < 0.0 {
            return Err(format!(
                "finalist {i} (generation {}, {} points) does not fit a run at generation {}",
                f.generation, f.points, cp.generation
            ));
        }
    }
    if let Some(neat) = &cp.neat {
        for (i, sp) in neat.species.iter().enumerate() {
            read_program(&sp.representative).map_err(|e| format!("the representative of species {i} {e}"))?;
            let fits = sp.best.is_finite() && sp.improved < cp.generation.max(1) && sp.id < neat.next_species;
            if !fits {
                return Err(format!("species {i} does not fit a run at generation {}", cp.generation));
            }
        }
    }
    if let Some(round) = &cp.final_round {
        let fits = round.finalists.len() == cp.finalists.len()
            && round.champion < round.finalists.len()
            && round.finalists.iter().all(|f| f.final_points.is_finite() && f.validation_points.is_finite());
        if !fits {
            return Err("its final round does not match its finalists".into());
        }
    }
    Ok(cp)
}

fn log_record_is_finite(r: &LogRecord) -> bool {
    let s = &r.stats;
    let validation = s.validation.as_ref().is_none_or(|v| v.points.iter().all(|p| p.is_finite()));
    let problems =
        s.problems.as_ref().is_none_or(|p| [p.solved, p.best, p.mean, p.mean_length].iter().all(|x| x.is_finite()));
    problems
        && [s.best, s.mean, s.worst, s.mean_size, s.mean_depth, r.seconds, r.games_per_s].iter().all(|x| x.is_finite())
        && validation
}

/// Checks that `text` reads as exactly one form without any diagnostic;
/// the error completes a sentence ("population member 3 ...").
fn read_program(text: &str) -> Result<(), String> {
    let (forms, diags) = read(FileId::default(), text);
    if let Some(d) = diags.first() {
        return Err(format!("is not a well-formed program: {}", d.message));
    }
    if forms.len() != 1 {
        return Err(format!("is not one program but {} forms", forms.len()));
    }
    Ok(())
}

/// The text of log.jsonl (statistics, identical for identical runs) and of
/// timing.jsonl (wall time), one line per record.
pub fn log_texts(log: &[LogRecord]) -> std::io::Result<(String, String)> {
    let (mut stats, mut timing) = (String::new(), String::new());
    for rec in log {
        stats.push_str(&serde_json::to_string(&rec.stats).map_err(std::io::Error::other)?);
        stats.push('\n');
        let t = serde_json::json!({"generation": rec.stats.generation, "seconds": rec.seconds, "games_per_s": rec.games_per_s});
        timing.push_str(&format!("{t}\n"));
    }
    Ok((stats, timing))
}

/// Rewrites log.jsonl and timing.jsonl whole from the records (each only if
/// it changed), so a line half-written by a killed run never survives.
pub fn write_log(dir: &Path, log: &[LogRecord]) -> std::io::Result<()> {
    let (stats, timing) = log_texts(log)?;
    write_output(&dir.join("log.jsonl"), stats.as_bytes())?;
    write_output(&dir.join("timing.jsonl"), timing.as_bytes()).map(|_| ())
}

/// Plots best and mean fitness over generations to `<dir>/fitness.svg`
/// (rewritten atomically, only if it changed).
pub fn write_plot(dir: &Path, title: &str, log: &[LogRecord]) -> Result<(), String> {
    let svg = plot_text(title, log)?;
    write_output(&dir.join("fitness.svg"), svg.as_bytes()).map(|_| ()).map_err(|e| e.to_string())?;
    if let Some(opponent) = log.iter().find_map(|r| r.stats.monitor.as_ref()).map(|m| m.opponent.clone()) {
        let mut svg = String::new();
        draw_monitor(&mut svg, &format!("{title}: best of generation against {opponent}"), log)?;
        write_output(&dir.join(MONITOR_PLOT), svg.as_bytes()).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The plot of the monitor's games (seeds/003, figure 4), beside fitness.svg.
pub const MONITOR_PLOT: &str = "monitor.svg";

/// Win and death rates of each generation's best member against the monitor.
fn draw_monitor(svg: &mut String, title: &str, log: &[LogRecord]) -> Result<(), String> {
    use plotters::prelude::*;
    let root = SVGBackend::with_string(svg, (800, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let last = log.last().map_or(1, |r| r.stats.generation.max(1));
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(0u64..last, 0.0..1.0)
        .map_err(|e| e.to_string())?;
    chart.configure_mesh().x_desc("generation").y_desc("share of games").draw().map_err(|e| e.to_string())?;
    let series = |f: fn(&MonitorStats) -> f64| {
        log.iter().filter_map(move |r| r.stats.monitor.as_ref().map(|m| (r.stats.generation, f(m))))
    };
    chart
        .draw_series(LineSeries::new(series(|m| m.win_rate), &BLUE))
        .map_err(|e| e.to_string())?
        .label("win rate")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE));
    chart
        .draw_series(LineSeries::new(series(|m| m.death_rate), &RED))
        .map_err(|e| e.to_string())?
        .label("death rate")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED));
    chart.configure_series_labels().border_style(BLACK).draw().map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

/// Best and mean fitness over generations as SVG text.
pub fn plot_text(title: &str, log: &[LogRecord]) -> Result<String, String> {
    let mut svg = String::new();
    draw_plot(&mut svg, title, log)?;
    Ok(svg)
}

fn draw_plot(svg: &mut String, title: &str, log: &[LogRecord]) -> Result<(), String> {
    use plotters::prelude::*;
    let root = SVGBackend::with_string(svg, (800, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let finite = |x: f64| if x.is_finite() { Some(x) } else { None };
    let values: Vec<f64> = log.iter().flat_map(|r| [r.stats.best, r.stats.mean]).filter_map(finite).collect();
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo, hi)
    } else if lo.is_finite() {
        (lo - 1.0, lo + 1.0)
    } else {
        (0.0, 1.0)
    };
    let last = log.last().map_or(1, |r| r.stats.generation.max(1));
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(0u64..last, lo..hi)
        .map_err(|e| e.to_string())?;
    chart.configure_mesh().x_desc("generation").y_desc("fitness").draw().map_err(|e| e.to_string())?;
    let series =
        |f: fn(&LogRecord) -> f64| log.iter().filter_map(move |r| finite(f(r)).map(|v| (r.stats.generation, v)));
    chart
        .draw_series(LineSeries::new(series(|r| r.stats.best), &BLUE))
        .map_err(|e| e.to_string())?
        .label("best")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE));
    chart
        .draw_series(LineSeries::new(series(|r| r.stats.mean), &RED))
        .map_err(|e| e.to_string())?
        .label("mean")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED));
    chart.configure_series_labels().border_style(BLACK).draw().map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::engine::Validation;

    fn record(g: u64, best: f64) -> LogRecord {
        LogRecord {
            stats: GenerationStats {
                generation: g,
                best,
                mean: best / 2.0,
                worst: 0.0,
                best_index: 0,
                mean_size: 10.0,
                max_size: 20,
                mean_depth: 4.0,
                max_depth: 6,
                games: 100,
                validation: None,
                problems: None,
                monitor: None,
                species: None,
            },
            seconds: 0.5,
            games_per_s: 200.0,
        }
    }

    fn checkpoint(log: Vec<LogRecord>) -> Checkpoint {
        Checkpoint {
            format: CHECKPOINT_FORMAT,
            experiment: "abc".into(),
            seed: 7,
            generation: log.len() as u64,
            population: vec!["(x 1.5)".into()],
            champion: (!log.is_empty()).then(|| "(c)".into()),
            log,
            finalists: vec![Finalist { program: "(y)".into(), generation: 0, rank: 0, points: 3.5 }],
            final_round: None,
            problems: None,
            neat: None,
        }
    }

    #[test]
    fn checkpoint_log_and_plot_round_trip() {
        let dir = std::env::temp_dir().join(format!("stratagem-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let log = vec![record(0, 1.0), record(1, 2.5)];
        let cp = checkpoint(log.clone());
        save_checkpoint(&dir, &cp).expect("save");
        let back = load_checkpoint(&dir).expect("load");
        assert_eq!((back.generation, back.log, back.finalists), (2, log.clone(), cp.finalists.clone()));
        write_log(&dir, &log).expect("log");
        let text = std::fs::read_to_string(dir.join("log.jsonl")).expect("read log");
        assert_eq!(text.lines().count(), 2);
        assert!(text.contains("\"best\":2.5"));
        write_plot(&dir, "test", &log).expect("plot");
        assert!(std::fs::read_to_string(dir.join("fitness.svg")).expect("svg").contains("<svg"));
        // Unchanged files are not written again.
        let before = writes();
        write_log(&dir, &log).expect("log");
        write_plot(&dir, "test", &log).expect("plot");
        save_checkpoint(&dir, &cp).expect("save");
        assert_eq!(writes(), before);
        std::fs::write(checkpoint_path(&dir), "{ not json").expect("corrupt");
        let err = load_checkpoint(&dir).unwrap_err();
        assert!(err.contains("not a valid checkpoint") && err.contains("checkpoint.json"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Every float a checkpoint holds reads back to the same bits, so a
    /// resumed run's log is the uninterrupted run's, byte for byte.
    #[test]
    fn floats_in_checkpoints_read_back_to_the_same_bits() {
        use rand::RngExt;
        let mut rng = crate::rng::stream(11, &[]);
        let mut values = vec![
            0.1 + 0.2,
            1.0 / 3.0,
            35.0 / 9.0,
            2f64.sqrt(),
            5e-324,
            f64::MIN_POSITIVE,
            f64::MAX,
            -f64::MAX,
            -0.0,
            1e21,
            1.2345678901234567e-300,
        ];
        values.extend((0..5000).map(|_| f64::from_bits(rng.random::<u64>())).filter(|x| x.is_finite()));
        let log: Vec<LogRecord> = values
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                let mut r = record(i as u64, x);
                r.stats.mean = x / 3.0;
                r.stats.worst = -x;
                r.stats.mean_size = x * 7.0 / 11.0;
                r.stats.mean_depth = x.abs().sqrt();
                r.seconds = x.abs() / 13.0;
                r.games_per_s = x.abs() * 0.3;
                r.stats.validation = Some(Validation { candidates: vec![0], points: vec![x], games: 2 });
                r
            })
            .filter(log_record_is_finite)
            .enumerate()
            .map(|(i, mut r)| {
                r.stats.generation = i as u64;
                r
            })
            .collect();
        let cp = checkpoint(log.clone());
        let back = parse_checkpoint(&checkpoint_text(&cp).expect("text")).expect("parses");
        let bits = |r: &LogRecord| {
            let s = &r.stats;
            let v = s.validation.as_ref().map(|v| v.points[0].to_bits());
            ([s.best, s.mean, s.worst, s.mean_size, s.mean_depth, r.seconds, r.games_per_s].map(f64::to_bits), v)
        };
        for (a, b) in log.iter().zip(&back.log) {
            assert_eq!(bits(a), bits(b), "{a:?}");
        }
        assert_eq!(log_texts(&log).expect("text").0, log_texts(&back.log).expect("text").0);
    }

    /// Openings and puzzles read back as what they were; an empty problem
    /// population, or one mixing both, is refused.
    #[test]
    fn problems_of_either_kind_read_back() {
        let good = checkpoint(vec![record(0, 1.0)]);
        let openings = SavedProblems::Openings(vec![vec![1, 2], vec![]]);
        let puzzles = SavedProblems::Puzzles(vec!["8 ooooooooooooAAoooooooooooooooooooooo".into()]);
        for problems in [openings, puzzles] {
            let cp = Checkpoint { problems: Some(problems.clone()), ..good.clone() };
            let back = parse_checkpoint(&checkpoint_text(&cp).expect("text")).expect("parses");
            assert_eq!(back.problems, Some(problems));
        }
        let empty = Checkpoint { problems: Some(SavedProblems::Puzzles(Vec::new())), ..good.clone() };
        let err = parse_checkpoint(&checkpoint_text(&empty).expect("text")).expect_err("empty");
        assert!(err.contains("empty problem population"), "{err}");
        let mixed = checkpoint_text(&good).expect("text").replacen('{', "{\"problems\":[[1],\"8 oo\"],", 1);
        assert!(parse_checkpoint(&mixed).is_err());
    }

    #[test]
    fn checkpoints_with_anything_amiss_are_refused() {
        let good = checkpoint(vec![record(0, 1.0)]);
        let text = |cp: &Checkpoint| checkpoint_text(cp).expect("text");
        assert!(parse_checkpoint(&text(&good)).is_ok());
        let refused = |cp: Checkpoint, why: &str| {
            let err = parse_checkpoint(&text(&cp)).expect_err(why);
            assert!(err.contains(why), "{err}");
        };
        // Programs the reader recovers from are refused all the same.
        refused(Checkpoint { population: vec!["(x \u{0} 1)".into()], ..good.clone() }, "population member 0");
        refused(Checkpoint { population: vec!["(x 1e+)".into()], ..good.clone() }, "population member 0");
        refused(Checkpoint { population: vec!["(x) (y)".into()], ..good.clone() }, "not one program but 2");
        refused(Checkpoint { population: vec!["(x".into()], ..good.clone() }, "population member 0");
        refused(Checkpoint { champion: Some("(c))".into()), ..good.clone() }, "the champion");
        refused(Checkpoint { population: Vec::new(), ..good.clone() }, "no population");
        refused(Checkpoint { generation: 100, ..good.clone() }, "at generation 100 but its log has 1");
        refused(Checkpoint { champion: None, ..good.clone() }, "no champion after 1");
        refused(Checkpoint { format: 1, ..good.clone() }, "format 1");
        let late = Finalist { program: "(y)".into(), generation: 5, rank: 0, points: 1.0 };
        refused(Checkpoint { finalists: vec![late], ..good.clone() }, "finalist 0");
        let mut renumbered = good.clone();
        renumbered.log[0].stats.generation = 3;
        refused(renumbered, "log record 0 is for generation 3");
        let round = FinalRound { opponent: "random".into(), games: 2, finalists: Vec::new(), champion: 0 };
        refused(Checkpoint { final_round: Some(round), ..good.clone() }, "final round");
        for bad in ["", "{", "[]", "null", "{\"format\": 2}", "\u{0}"] {
            assert!(parse_checkpoint(bad).is_err(), "{bad:?}");
        }
        let unknown = text(&good).replacen('{', "{\"extra\":1,", 1);
        assert!(parse_checkpoint(&unknown).expect_err("unknown field").contains("unknown field"));
        let huge = text(&good).replacen("\"seed\":7", "\"seed\":1e400", 1);
        assert!(parse_checkpoint(&huge).is_err());
    }
}
