//! Covering runs compared across seeds, as seeds/004 reports them: means
//! with 95% confidence intervals (Student's t) of the teacher-set sizes by
//! generation (figure 3), of the score against random evaluation by
//! teacher rank (figure 4) and by depth (figure 5), and of each role's
//! undominated generations, the two roles compared by Student's two-sample
//! t-test (figure 6, disengagement). Whether a role's evolved players beat
//! random evaluation is judged both run by run (binomial test of each top
//! teacher's games) and across runs, as the paper does (its "white: p <
//! 0.02, black: p < 0.03" for Connect Four): Student's one-sample t-test of
//! the runs' top-teacher scores against 50%. `stratagem cca-report RUN...` reads
//! the run folders `stratagem evolve` wrote (log.jsonl, cca.json, and
//! versus-random.json where the run asked for it).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, StudentsT};

use super::cca_plot::{Axes, RoleLine, role_lines};
use super::cca_versus::{VERSUS_RANDOM, VersusRandom};
use super::output::read_text;

/// What the report reads of one run.
pub struct Run {
    pub dir: PathBuf,
    pub roles: Vec<String>,
    /// Per generation, per role: teacher-set size.
    pub teachers: Vec<Vec<usize>>,
    /// Per role: generations undominated.
    pub undominated: Vec<u64>,
    pub versus: Option<VersusRandom>,
}

#[derive(Deserialize)]
struct LogLine {
    generation: u64,
    roles: Vec<LogRole>,
}

#[derive(Deserialize)]
struct LogRole {
    role: String,
    teachers: usize,
}

#[derive(Deserialize)]
struct SummaryFile {
    roles: Vec<SummaryRole>,
}

#[derive(Deserialize)]
struct SummaryRole {
    role: String,
    undominated_generations: u64,
}

impl Run {
    /// Reads the run in `dir`; or says what is missing or malformed.
    pub fn read(dir: &Path) -> Result<Run, String> {
        let read = |name: &str| {
            let path = dir.join(name);
            read_text(&path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))
        };
        let summary: SummaryFile = serde_json::from_str(&read(super::cca_run::SUMMARY)?).map_err(|e| {
            format!(
                "`{}` is not the summary of a finished covering run: {e}",
                dir.join(super::cca_run::SUMMARY).display()
            )
        })?;
        let mut teachers = Vec::new();
        for (i, line) in read("log.jsonl")?.lines().enumerate() {
            let record: LogLine = serde_json::from_str(line).map_err(|e| {
                format!("`{}` line {}: not a covering run's log: {e}", dir.join("log.jsonl").display(), i + 1)
            })?;
            if record.generation != i as u64 || record.roles.len() != summary.roles.len() {
                return Err(format!("`{}` line {}: generations out of order", dir.join("log.jsonl").display(), i + 1));
            }
            teachers.push(record.roles.iter().map(|r| r.teachers).collect());
            if i == 0 && record.roles.iter().map(|r| &r.role).ne(summary.roles.iter().map(|r| &r.role)) {
                return Err(format!("`{}`: its log and summary name different roles", dir.display()));
            }
        }
        let versus = match read_text(&dir.join(VERSUS_RANDOM)) {
            Ok(text) => {
                Some(serde_json::from_str(&text).map_err(|e| format!("`{}`: {e}", dir.join(VERSUS_RANDOM).display()))?)
            }
            Err(_) => None,
        };
        Ok(Run {
            dir: dir.to_owned(),
            roles: summary.roles.iter().map(|r| r.role.clone()).collect(),
            teachers,
            undominated: summary.roles.iter().map(|r| r.undominated_generations).collect(),
            versus,
        })
    }
}

/// A mean with the half-width of its 95% confidence interval (Student's
/// t with n − 1 degrees of freedom; none for a single value).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    pub n: usize,
    pub mean: f64,
    pub ci95: Option<f64>,
}

impl Estimate {
    pub fn of(values: &[f64]) -> Estimate {
        let n = values.len();
        let mean = if n == 0 { f64::NAN } else { values.iter().sum::<f64>() / n as f64 };
        let ci95 = (n >= 2).then(|| {
            let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            let t = StudentsT::new(0.0, 1.0, (n - 1) as f64).map_or(f64::NAN, |d| d.inverse_cdf(0.975));
            t * (var / n as f64).sqrt()
        });
        Estimate { n, mean, ci95 }
    }

    fn text(&self) -> String {
        match self.ci95 {
            Some(h) => format!("{:.2} ± {:.2}", self.mean, h),
            None => format!("{:.2}", self.mean),
        }
    }
}

/// Student's two-sample t-test (pooled variance): t, degrees of freedom
/// and the two-sided p. `None` when either sample has fewer than two
/// values, or both have no variance.
pub fn students_t(a: &[f64], b: &[f64]) -> Option<(f64, f64, f64)> {
    let (na, nb) = (a.len() as f64, b.len() as f64);
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let (ma, mb) = (a.iter().sum::<f64>() / na, b.iter().sum::<f64>() / nb);
    let ss = a.iter().map(|v| (v - ma).powi(2)).sum::<f64>() + b.iter().map(|v| (v - mb).powi(2)).sum::<f64>();
    let df = na + nb - 2.0;
    let se = (ss / df * (1.0 / na + 1.0 / nb)).sqrt();
    if se == 0.0 {
        return None;
    }
    let t = (ma - mb) / se;
    Some((t, df, two_sided_p(t, df)?))
}

/// The two-sided p of Student's t at `df` degrees of freedom: from the
/// survival function, not 1 − cdf, which far in the tail rounds to 0 (five
/// runs of Connect Four give t ≈ 267).
fn two_sided_p(t: f64, df: f64) -> Option<f64> {
    StudentsT::new(0.0, 1.0, df).ok().map(|d| 2.0 * d.sf(t.abs()))
}

/// Student's one-sample t-test of `values` against the mean `mu`: t,
/// degrees of freedom and the two-sided p. `None` for fewer than two
/// values or no variance.
pub fn one_sample_t(values: &[f64], mu: f64) -> Option<(f64, f64, f64)> {
    let n = values.len() as f64;
    if values.len() < 2 {
        return None;
    }
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let se = (var / n).sqrt();
    if se == 0.0 {
        return None;
    }
    let (t, df) = ((mean - mu) / se, n - 1.0);
    Some((t, df, two_sided_p(t, df)?))
}

/// The report of runs of one experiment (the same roles in each).
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub runs: usize,
    pub roles: Vec<RoleReport>,
    /// Figure 6: the two roles' undominated generations compared (t, df, p).
    pub disengagement_t: Option<(f64, f64, f64)>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RoleReport {
    pub role: String,
    pub final_teachers: Estimate,
    pub undominated_generations: Estimate,
    /// Figure 3: teacher-set size by generation.
    pub teachers_by_generation: Vec<Estimate>,
    /// Figure 4: score (%) against random evaluation by teacher rank, over
    /// the runs that have a teacher of that rank.
    pub score_by_rank: Vec<Estimate>,
    /// Figure 5: the top teacher's score (%) by search depth.
    pub top_score_by_depth: Vec<(u32, Estimate)>,
    /// Runs whose top teacher beat the baseline at the run's depth with
    /// p < 0.05 (more wins than losses), of those measured.
    pub top_significant: (usize, usize),
    /// The top teachers' scores (%) at the run's depth over the runs, and
    /// Student's one-sample t-test of them against 50% (t, df, p).
    pub top_score: Estimate,
    pub top_versus_even: Option<(f64, f64, f64)>,
}

/// Compares `runs`; or says why they cannot be compared.
pub fn report(runs: &[Run]) -> Result<Report, String> {
    let Some(first) = runs.first() else { return Err("give at least one run folder".to_owned()) };
    for run in runs {
        if run.roles != first.roles {
            return Err(format!(
                "`{}` has roles {} and `{}` has {}: runs of different games",
                first.dir.display(),
                first.roles.join(", "),
                run.dir.display(),
                run.roles.join(", ")
            ));
        }
    }
    let generations = runs.iter().map(|r| r.teachers.len()).min().unwrap_or(0);
    let mut roles = Vec::new();
    for (r, role) in first.roles.iter().enumerate() {
        let column = |f: &dyn Fn(&Run) -> Option<f64>| -> Vec<f64> { runs.iter().filter_map(f).collect() };
        let ranks =
            runs.iter().filter_map(|run| Some(run.versus.as_ref()?.roles.get(r)?.by_rank.len())).max().unwrap_or(0);
        let depths: Vec<u32> = runs
            .iter()
            .find_map(|run| Some(run.versus.as_ref()?.roles.get(r)?.top_by_depth.iter().map(|d| d.depth).collect()))
            .unwrap_or_default();
        let tops: Vec<_> =
            runs.iter().filter_map(|run| Some(&run.versus.as_ref()?.roles.get(r)?.by_rank.last()?.tally)).collect();
        let measured: Vec<bool> = tops.iter().map(|top| top.p < 0.05 && top.wins > top.losses).collect();
        let top_scores: Vec<f64> = tops.iter().map(|top| top.score).collect();
        roles.push(RoleReport {
            role: role.clone(),
            final_teachers: Estimate::of(&column(&|run| run.teachers.last().map(|t| t[r] as f64))),
            undominated_generations: Estimate::of(&column(&|run| Some(run.undominated[r] as f64))),
            teachers_by_generation: (0..generations)
                .map(|g| Estimate::of(&column(&|run| Some(run.teachers[g][r] as f64))))
                .collect(),
            score_by_rank: (0..ranks)
                .map(|k| {
                    Estimate::of(&column(&|run| Some(run.versus.as_ref()?.roles.get(r)?.by_rank.get(k)?.tally.score)))
                })
                .collect(),
            top_score_by_depth: depths
                .iter()
                .map(|&d| {
                    let scores = column(&|run| {
                        let role = run.versus.as_ref()?.roles.get(r)?;
                        Some(role.top_by_depth.iter().find(|x| x.depth == d)?.tally.score)
                    });
                    (d, Estimate::of(&scores))
                })
                .collect(),
            top_significant: (measured.iter().filter(|&&s| s).count(), measured.len()),
            top_score: Estimate::of(&top_scores),
            top_versus_even: one_sample_t(&top_scores, 50.0),
        });
    }
    let disengagement_t = match &roles[..] {
        [_, _] => {
            let counts = |r: usize| -> Vec<f64> { runs.iter().map(|run| run.undominated[r] as f64).collect() };
            students_t(&counts(0), &counts(1))
        }
        _ => None,
    };
    Ok(Report { runs: runs.len(), roles, disengagement_t })
}

/// The report as Markdown tables.
pub fn report_text(report: &Report) -> String {
    let mut s = format!("{} runs\n\n", report.runs);
    s.push_str("| role | teachers at the end | undominated generations (figure 6) | top teacher beats random evaluation, p < 0.05 | top teacher's score (%) | over the runs, t-test against 50% |\n");
    s.push_str("| --- | --- | --- | --- | --- | --- |\n");
    for role in &report.roles {
        let (significant, score) = match role.top_significant {
            (_, 0) => ("not measured".to_owned(), "not measured".to_owned()),
            (k, n) => (format!("{k} of {n} runs"), role.top_score.text()),
        };
        let versus_even = match role.top_versus_even {
            Some((t, df, p)) => format!("t = {t:.3}, df = {df}, p = {p:.3e}"),
            None => "no test".to_owned(),
        };
        s.push_str(&format!(
            "| {} | {} | {} | {significant} | {score} | {versus_even} |\n",
            role.role,
            role.final_teachers.text(),
            role.undominated_generations.text(),
        ));
    }
    match report.disengagement_t {
        Some((t, df, p)) => s.push_str(&format!(
            "\nundominated generations, Student's t-test between the roles: t = {t:.3}, df = {df}, p = {p:.3e}\n"
        )),
        None => s.push_str(
            "\nundominated generations: no t-test (two roles and two runs each are needed, with some variance)\n",
        ),
    }
    for role in &report.roles {
        if !role.score_by_rank.is_empty() {
            s.push_str(&format!("\n{}: score (%) against random evaluation by teacher rank (figure 4)\n\n", role.role));
            s.push_str("| rank | runs | score |\n| --- | --- | --- |\n");
            for (k, e) in role.score_by_rank.iter().enumerate() {
                s.push_str(&format!("| {} | {} | {} |\n", k + 1, e.n, e.text()));
            }
        }
        if !role.top_score_by_depth.is_empty() {
            s.push_str(&format!("\n{}: top teacher's score (%) by search depth (figure 5)\n\n", role.role));
            s.push_str("| depth | runs | score |\n| --- | --- | --- |\n");
            for (d, e) in &role.top_score_by_depth {
                s.push_str(&format!("| {d} | {} | {} |\n", e.n, e.text()));
            }
        }
    }
    s
}

/// Figure 3 (mean teacher-set size by generation, with the 95% interval
/// in lighter lines) or figure 4 (mean score by rank): one line per role.
pub fn report_plot(report: &Report, figure: u8) -> Result<String, String> {
    let series = |role: &RoleReport| -> Vec<Estimate> {
        if figure == 3 { role.teachers_by_generation.clone() } else { role.score_by_rank.clone() }
    };
    let len = report.roles.iter().map(|r| series(r).len()).max().unwrap_or(0).max(1);
    let top = report
        .roles
        .iter()
        .flat_map(|r| series(r).into_iter().map(|e| e.mean + e.ci95.unwrap_or(0.0)))
        .fold(1.0f64, f64::max);
    // Figure 3 counts generations from 0, figure 4 ranks from 1.
    let x0 = if figure == 3 { 0.0 } else { 1.0 };
    let lines: Vec<RoleLine> = report
        .roles
        .iter()
        .map(|role| {
            let points: Vec<(f64, Estimate)> =
                series(role).into_iter().enumerate().map(|(i, e)| (x0 + i as f64, e)).collect();
            RoleLine {
                name: role.role.clone(),
                points: points.iter().map(|(x, e)| (*x, e.mean)).collect(),
                band: points.iter().filter_map(|(x, e)| Some((*x, e.mean - e.ci95?, e.mean + e.ci95?))).collect(),
            }
        })
        .collect();
    let (caption, y, x_desc, y_desc) = if figure == 3 {
        ("teacher-set size (mean, 95% interval)", top * 1.05, "generation", "teachers")
    } else {
        ("score against random evaluation by rank (mean, 95% interval)", 100.0, "teacher rank", "score (%)")
    };
    let axes = Axes {
        caption: format!("{caption}, {} runs", report.runs),
        x: (x0 - 0.5, x0 + len as f64 - 0.5),
        y: (0.0, y),
        x_desc,
        y_desc,
        dots: figure == 4,
        reference: (figure == 4).then_some(50.0),
    };
    role_lines(&axes, &lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confidence_intervals_use_students_t() {
        let e = Estimate::of(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!((e.n, e.mean), (5, 3.0));
        // s = sqrt(2.5), t(0.975, 4) = 2.776445
        let h = e.ci95.expect("five values");
        assert!((h - 2.776445 * (2.5f64 / 5.0).sqrt()).abs() < 1e-5, "{h}");
        assert_eq!(Estimate::of(&[7.0]).ci95, None);
    }

    #[test]
    fn the_two_sample_t_test_matches_a_worked_example() {
        // Means 3 and 6, pooled variance 2.5, df 8: t = -3 / sqrt(2.5 · 0.4) = -3.
        let (t, df, p) = students_t(&[1.0, 2.0, 3.0, 4.0, 5.0], &[4.0, 5.0, 6.0, 7.0, 8.0]).expect("a test");
        assert!((t + 3.0).abs() < 1e-12 && df == 8.0);
        // Two-sided p for |t| = 3 at 8 df.
        assert!((p - 0.017071).abs() < 1e-5, "{p}");
        assert_eq!(students_t(&[1.0, 1.0], &[1.0, 1.0]), None);
        assert_eq!(students_t(&[1.0], &[2.0, 3.0]), None);
    }

    #[test]
    fn the_one_sample_t_test_matches_a_worked_example() {
        // Mean 3, s = sqrt(2.5), n = 5: t = (3 − 1) / sqrt(0.5) = 2.828, df 4.
        let (t, df, p) = one_sample_t(&[1.0, 2.0, 3.0, 4.0, 5.0], 1.0).expect("a test");
        assert!((t - 2.0 / 0.5f64.sqrt()).abs() < 1e-12 && df == 4.0);
        // Two-sided p for |t| = 2.828427 at 4 df.
        assert!((p - 0.047421).abs() < 1e-5, "{p}");
        assert_eq!(one_sample_t(&[60.0, 60.0], 50.0), None);
        assert_eq!(one_sample_t(&[60.0], 50.0), None);
    }

    #[test]
    fn far_tails_keep_a_p_above_zero() {
        // Connect Four's undominated generations over five runs: t ≈ 200.
        let (t, _, p) =
            students_t(&[288.0, 290.0, 287.0, 288.0, 291.0], &[12.0, 10.0, 13.0, 12.0, 9.0]).expect("a test");
        assert!(t > 100.0);
        assert!(p > 0.0 && p < 1e-12, "{p}");
    }
}
