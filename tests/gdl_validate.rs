//! `gdl::validate` on every game of ../shared/gdl (the public GGP repository
//! and GGP-Base's test cases) gives GGP-Base's verdict (validation.tsv): no
//! error for a file it marks OK or WARNINGS, at least one for a file it
//! REJECTED, and for those the error GGP-Base gives.

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use stratagem::diagnostic::{Diagnostic, Sources};
use stratagem::gdl::description::Description;
use stratagem::gdl::validate::validate;

const GDL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/gdl");

/// The code of the error GGP-Base rejects each REJECTED file for.
const REJECTED_FOR: &[(&str, &str)] = &[
    ("alexChess", "stratagem::gdl::case"),
    ("wargame01", "stratagem::gdl::case"),
    ("wargame02", "stratagem::gdl::case"),
    ("wargame03", "stratagem::gdl::case"),
    ("wargame03__v1", "stratagem::gdl::case"),
    ("test_case_3b", "stratagem::gdl::unsafe"),
    ("test_case_3e", "stratagem::gdl::unsafe"),
    ("test_case_3f", "stratagem::gdl::unsafe"),
    ("test_clean_not_distinct", "stratagem::gdl::negation"),
];

/// GGP-Base's verdict by file stem (stored_name). A stem listed twice (two
/// sources with the same text) has the same verdict both times.
fn verdicts() -> HashMap<String, String> {
    let text = std::fs::read_to_string(Path::new(GDL).join("validation.tsv")).expect("validation.tsv");
    let mut verdicts = HashMap::new();
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert!(cols.len() >= 4, "short line in validation.tsv: {line}");
        let previous = verdicts.insert(cols[1].to_owned(), cols[3].to_owned());
        assert!(previous.is_none_or(|p| p == cols[3]), "two verdicts for {}", cols[1]);
    }
    verdicts
}

struct Checked {
    stem: String,
    sources: Sources,
    diags: Vec<Diagnostic>,
    /// The time `validate` took, reading excluded.
    took: Duration,
}

fn check_file(path: &Path) -> Checked {
    let stem = path.file_stem().and_then(|s| s.to_str()).expect("file name").to_owned();
    let text = std::fs::read_to_string(path).expect("readable .kif");
    let mut sources = Sources::new();
    let file = sources.add(path.display().to_string(), Some(path.to_path_buf()), text.as_str());
    let (forms, diags) = stratagem::syntax::read(file, &text);
    assert!(diags.is_empty(), "{stem} does not read:\n{}", sources.render_plain(&diags));
    let (desc, diags) = Description::read(file, &forms);
    assert!(diags.is_empty(), "{stem} is not a description:\n{}", sources.render_plain(&diags));
    let started = Instant::now();
    let diags = validate(&desc);
    Checked { stem, sources, diags, took: started.elapsed() }
}

fn kif_files(dir: &str) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(Path::new(GDL).join(dir))
        .expect("the GDL data folder")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "kif"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_game_gets_ggp_base_verdict() {
    let verdicts = verdicts();
    let rejected_for: HashMap<&str, &str> = REJECTED_FOR.iter().copied().collect();
    let started = Instant::now();
    let (mut n_files, mut n_rejected, mut validating) = (0, 0, Duration::ZERO);
    let mut wrong = Vec::new();
    for dir in ["games", "tests"] {
        for path in kif_files(dir) {
            let checked = check_file(&path);
            n_files += 1;
            validating += checked.took;
            let verdict = verdicts.get(&checked.stem).unwrap_or_else(|| panic!("no verdict for {}", checked.stem));
            let errors: Vec<Diagnostic> = checked.diags.iter().filter(|d| d.is_error()).cloned().collect();
            match verdict.as_str() {
                "OK" | "WARNINGS" if !errors.is_empty() => wrong.push(format!(
                    "{}: GGP-Base says {verdict}, we reject it:\n{}",
                    checked.stem,
                    checked.sources.render_plain(&errors)
                )),
                "OK" | "WARNINGS" => {}
                "REJECTED" => {
                    n_rejected += 1;
                    let code = rejected_for.get(checked.stem.as_str()).copied().unwrap_or("(not listed)");
                    if !errors.iter().any(|d| d.code == code) {
                        wrong.push(format!(
                            "{}: GGP-Base rejects it, we give no {code} error:\n{}",
                            checked.stem,
                            checked.sources.render_plain(&checked.diags)
                        ));
                    }
                }
                other => panic!("unknown verdict {other} for {}", checked.stem),
            }
        }
    }
    assert!(wrong.is_empty(), "{} verdicts differ from GGP-Base's:\n\n{}", wrong.len(), wrong.join("\n"));
    assert_eq!(n_files, 369 + 24, "the games and tests of ../shared/gdl");
    assert_eq!(n_rejected, REJECTED_FOR.len());
    eprintln!("read and validated {n_files} files in {:?}, {validating:?} of it validating", started.elapsed());
}
