//! GA-FreeCell evolution as a user runs it (seeds/001 sections 3.3–3.4):
//! weight vectors over the nine heuristics guide staged deepening on
//! numbered training deals, scored against HSDH; the same seed gives the
//! same run on 1 and 2 threads; the champion is a weight vector `solve`
//! takes; the shipped experiments check; numbered puzzles are validated.

use std::path::PathBuf;

mod common;
use common::{read, stratagem, temp};

const TINY: &str = "tests/data/evolve/tiny-freecell.sg";

#[test]
fn a_weight_vector_evolves_on_deals_the_same_on_one_and_two_threads() {
    let dir = temp("freecell-evolve");
    let runs: Vec<PathBuf> = ["1", "2"]
        .iter()
        .map(|threads| {
            let out = dir.join(format!("run{threads}"));
            let out_s = out.to_str().expect("utf-8");
            let (code, stdout, stderr) = stratagem(&["evolve", TINY, "--out", out_s, "--threads", threads]);
            assert_eq!(code, 0, "{stderr}");
            assert!(stdout.contains("2 of 2 generations"), "{stdout}");
            out
        })
        .collect();
    assert_eq!(read(&runs[0], "log.jsonl"), read(&runs[1], "log.jsonl"));
    let champion = "champions/tiny-freecell.sg";
    assert_eq!(read(&runs[0], champion), read(&runs[1], champion).replace("run2", "run1"));
    for line in read(&runs[0], "log.jsonl").lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a log record");
        let best = record["best"].as_f64().expect("best fitness");
        assert!((0.0..=1.0).contains(&best), "a mean reduction ratio: {best}");
        assert_eq!(record["games"].as_u64(), Some(4 * 2), "2 deals for each of 4 programs");
    }
    let text = read(&runs[0], champion);
    assert!(text.contains("(weights tiny-freecell-champion"), "{text}");
    assert!(text.contains("stratagem solve freecell --deals 1-32000"), "{text}");
    let heuristic = format!("{}:tiny-freecell-champion", runs[0].join(champion).display());
    let (code, stdout, stderr) =
        stratagem(&["solve", "freecell", "--deals", "1-2", "--max-nodes", "20000", "--heuristic", &heuristic]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("nodes"), "{stdout}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn the_shipped_freecell_experiments_check() {
    for file in ["programs/experiments/freecell-ga.sg", TINY] {
        let (code, stdout, stderr) = stratagem(&["check", file]);
        assert_eq!(code, 0, "{file}: {stderr}");
        assert!(stdout.contains("game=freecell"), "{stdout}");
    }
}

/// Bad `(puzzles (numbered ...))` clauses and rates are diagnosed, each
/// with its code, before any work.
#[test]
fn bad_numbered_puzzles_and_rates_are_refused() {
    let dir = temp("freecell-refused");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let cases = [
        ("(puzzles (numbered 1 32000))", "need `(training K)`"),
        ("(puzzles (numbered 10 5) (training 3))", "FIRST above LAST"),
        ("(puzzles (numbered 1 10) (training 11))", "cannot be drawn"),
        ("(puzzles (numbered 1 100) (training 3) (every 2 0))", "numbered puzzles are drawn"),
        ("(puzzles (numbered 1 100) (training 3)) (reproduction 0.5)", "do not add up to 1"),
        ("(puzzles (numbered 1 100) (training 3)) (individual weights (step big))", "a step"),
    ];
    for (i, (clause, expected)) in cases.iter().enumerate() {
        let file = dir.join(format!("bad{i}.sg"));
        let text = format!("(import freecell)\n(experiment bad (primset freecell) (game freecell)\n  {clause})\n");
        std::fs::write(&file, text).expect("write");
        let (code, stdout, stderr) = stratagem(&["check", file.to_str().expect("utf-8")]);
        assert_eq!(code, 1, "{clause}: {stdout}");
        assert!(stderr.contains(expected), "{clause}: {stderr}");
    }
    std::fs::remove_dir_all(dir).ok();
}
