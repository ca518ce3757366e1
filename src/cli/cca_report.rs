//! `stratagem cca-report RUN... [--out DIR] [--format text|json]`: covering
//! runs of one experiment compared across seeds (src/evolve/cca_report.rs):
//! Markdown tables (or JSON) on stdout, figures 3 and 4 as SVG in `--out`.

use std::path::PathBuf;

use super::{Failure, Format, Outcome, out};
use crate::evolve::cca_report::{Run, report, report_plot, report_text};
use crate::evolve::output::write_output;

pub fn run(runs: &[PathBuf], svg_dir: Option<&PathBuf>, format: Format) -> Outcome {
    let fail = |why: String| Failure::message("stratagem::cca_report", why);
    let runs: Vec<Run> = runs.iter().map(|dir| Run::read(dir)).collect::<Result<_, _>>().map_err(fail)?;
    let report = report(&runs).map_err(fail)?;
    if let Some(dir) = svg_dir {
        std::fs::create_dir_all(dir).map_err(|e| fail(format!("cannot create `{}`: {e}", dir.display())))?;
        for (figure, name) in [(3, "teachers.svg"), (4, "versus-random.svg")] {
            let path = dir.join(name);
            let svg =
                report_plot(&report, figure).map_err(|e| fail(format!("cannot draw `{}`: {e}", path.display())))?;
            write_output(&path, svg.as_bytes()).map_err(|e| fail(format!("cannot write `{}`: {e}", path.display())))?;
        }
    }
    match format {
        Format::Text => out(&report_text(&report)),
        Format::Json => {
            let text = serde_json::to_string_pretty(&report).map_err(|e| fail(e.to_string()))?;
            out(&format!("{text}\n"));
        }
    }
    Ok(())
}
