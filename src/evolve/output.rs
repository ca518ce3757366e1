//! What a run leaves in its output directory: a JSON-lines log (one record per
//! generation), an SVG plot of fitness, a checkpoint after every generation
//! (written atomically), and the champions as readable programs.
//!
//! ```text
//! <out>/log.jsonl            {"generation":0,"best":..,"mean":..,...}: the same for the same seed
//! <out>/timing.jsonl         {"generation":0,"seconds":..,"games_per_s":..}: wall time, which varies
//! <out>/fitness.svg          best and mean fitness over generations
//! <out>/checkpoint.json      the population at the start of the next generation
//! <out>/champions/*.sg       simplified best programs, checkable and playable
//! <out>/final.json           the final round of validated finalists, when there is one
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::engine::GenerationStats;
use super::finalists::Finalist;

/// One line of log.jsonl.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LogRecord {
    #[serde(flatten)]
    pub stats: GenerationStats,
    /// Wall time of the generation.
    pub seconds: f64,
    pub games_per_s: f64,
}

/// The saved state of a run. `experiment` is a fingerprint of the experiment
/// text and seed: a checkpoint is only resumed by the run that wrote it.
#[derive(Debug, Clone, Serialize, Deserialize)]
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
}

/// Version 2 keeps the finalists of validation; version 1 kept one champion.
pub const CHECKPOINT_FORMAT: u32 = 2;

pub fn checkpoint_path(dir: &Path) -> PathBuf {
    dir.join("checkpoint.json")
}

/// Writes `text` to `path` through a temporary file and a rename, so a run
/// killed mid-write leaves the previous file intact.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

pub fn save_checkpoint(dir: &Path, cp: &Checkpoint) -> std::io::Result<()> {
    let text = serde_json::to_string(cp).map_err(std::io::Error::other)?;
    write_atomically(&checkpoint_path(dir), &text)
}

/// Reads a checkpoint; a corrupt file is an error with the reason.
pub fn load_checkpoint(dir: &Path) -> Result<Checkpoint, String> {
    let path = checkpoint_path(dir);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
    parse_checkpoint(&text).map_err(|e| format!("`{}` {e}", path.display()))
}

/// Parses checkpoint text and checks its format version; the error says why
/// the text is not a checkpoint this version reads.
pub fn parse_checkpoint(text: &str) -> Result<Checkpoint, String> {
    let cp: Checkpoint = serde_json::from_str(text).map_err(|e| format!("is not a valid checkpoint: {e}"))?;
    if cp.format != CHECKPOINT_FORMAT {
        return Err(format!("has checkpoint format {}, this version reads {CHECKPOINT_FORMAT}", cp.format));
    }
    Ok(cp)
}

/// Rewrites log.jsonl (statistics, identical for identical runs) and
/// timing.jsonl (wall time) from the records. A resumed run rewrites both
/// whole, so a line half-written by a killed run never survives.
pub fn write_log(dir: &Path, log: &[LogRecord]) -> std::io::Result<()> {
    let (mut stats, mut timing) = (String::new(), String::new());
    for rec in log {
        stats.push_str(&serde_json::to_string(&rec.stats).map_err(std::io::Error::other)?);
        stats.push('\n');
        let t = serde_json::json!({"generation": rec.stats.generation, "seconds": rec.seconds, "games_per_s": rec.games_per_s});
        timing.push_str(&format!("{t}\n"));
    }
    write_atomically(&dir.join("log.jsonl"), &stats)?;
    write_atomically(&dir.join("timing.jsonl"), &timing)
}

/// Plots best and mean fitness over generations as SVG.
pub fn write_plot(dir: &Path, title: &str, log: &[LogRecord]) -> Result<(), String> {
    use plotters::prelude::*;
    let path = dir.join("fitness.svg");
    let root = SVGBackend::new(&path, (800, 480)).into_drawing_area();
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
            },
            seconds: 0.5,
            games_per_s: 200.0,
        }
    }

    #[test]
    fn checkpoint_log_and_plot_round_trip() {
        let dir = std::env::temp_dir().join(format!("stratagem-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let log = vec![record(0, 1.0), record(1, 2.5)];
        let cp = Checkpoint {
            format: CHECKPOINT_FORMAT,
            experiment: "abc".into(),
            seed: 7,
            generation: 2,
            population: vec!["(x)".into()],
            log: log.clone(),
            champion: None,
            finalists: vec![Finalist { program: "(y)".into(), generation: 1, rank: 0, points: 3.5 }],
        };
        save_checkpoint(&dir, &cp).expect("save");
        let back = load_checkpoint(&dir).expect("load");
        assert_eq!((back.generation, back.log, back.finalists), (2, log.clone(), cp.finalists.clone()));
        write_log(&dir, &log).expect("log");
        let text = std::fs::read_to_string(dir.join("log.jsonl")).expect("read log");
        assert_eq!(text.lines().count(), 2);
        assert!(text.contains("\"best\":2.5"));
        write_plot(&dir, "test", &log).expect("plot");
        assert!(std::fs::read_to_string(dir.join("fitness.svg")).expect("svg").contains("<svg"));
        std::fs::write(checkpoint_path(&dir), "{ not json").expect("corrupt");
        assert!(load_checkpoint(&dir).unwrap_err().contains("not a valid checkpoint"));
        std::fs::remove_dir_all(&dir).ok();
    }
}
