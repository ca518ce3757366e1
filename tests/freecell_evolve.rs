//! GA-FreeCell evolution as a user runs it (seeds/001 sections 3.3–3.4):
//! weight vectors over the nine heuristics guide staged deepening on
//! numbered training deals, scored against HSDH; the same seed gives the
//! same run on 1 and 2 threads; the champion is a weight vector `solve`
//! takes; the shipped experiments check; numbered puzzles are validated.

use std::path::PathBuf;

mod common;
use common::{read, stratagem, temp};

const TINY: &str = "tests/data/evolve/tiny-freecell.sg";
const TINY_CO: &str = "tests/data/evolve/tiny-freecell-coevolution.sg";

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
    // The split, as deal lists `solve --deals` takes: 20 training deals and
    // the other 31,980 of 1-32000.
    let (training, test) = (read(&runs[0], "training-deals.txt"), read(&runs[0], "test-deals.txt"));
    let count = |list: &str| -> u32 {
        list.trim()
            .split(',')
            .map(|part| match part.split_once('-') {
                Some((a, b)) => b.parse::<u32>().expect("a number") - a.parse::<u32>().expect("a number") + 1,
                None => 1,
            })
            .sum()
    };
    assert_eq!((count(&training), count(&test)), (20, 31_980), "{training}");
    assert!(!test.split(',').any(|part| training.trim().split(',').any(|t| t == part)), "{training}");
    let (code, stdout, stderr) = stratagem(&["solve", "freecell", "--deals", training.trim(), "--max-nodes", "1000"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("of 20 puzzles"), "{stdout}");
    std::fs::remove_dir_all(dir).ok();
}

/// Deal sets coevolve with the solvers: the same on 1 and 2 threads and
/// across a resume; the checkpoint keeps the sets as training deal
/// numbers, which breed every 2 generations.
#[test]
fn deal_sets_coevolve_the_same_on_one_and_two_threads_and_across_a_resume() {
    let dir = temp("freecell-coevolution");
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let out_s = out.to_str().expect("utf-8").to_owned();
        let mut args = vec!["evolve", TINY_CO, "--out", &out_s];
        args.extend_from_slice(extra);
        let (code, stdout, stderr) = stratagem(&args);
        assert_eq!(code, 0, "{stderr}");
        (out, stdout)
    };
    let (one, _) = run("one", &["--threads", "1"]);
    let (two, _) = run("two", &["--threads", "2"]);
    let (resumed, stdout) = run("resumed", &["--threads", "2", "--stop-after", "1"]);
    assert!(stdout.contains("1 of 3 generations"), "{stdout}");
    let (code, _, stderr) = stratagem(&["evolve", TINY_CO, "--resume", resumed.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stderr}");
    let champion = "champions/tiny-freecell-coevolution.sg";
    for other in [&two, &resumed] {
        assert_eq!(read(&one, "log.jsonl"), read(other, "log.jsonl"));
        let name = other.file_name().and_then(|n| n.to_str()).expect("a name");
        assert_eq!(read(&one, champion), read(other, champion).replace(name, "one"));
    }
    for line in read(&one, "log.jsonl").lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a log record");
        assert_eq!(record["games"].as_u64(), Some(4 * 2 * 2), "4 solvers × 2 sets × 2 deals: {record}");
        let solved = record["problems"]["solved"].as_f64().expect("solved");
        assert!((0.0..=1.0).contains(&solved), "{record}");
    }
    let cp: serde_json::Value = serde_json::from_str(&read(&one, "checkpoint.json")).expect("checkpoint");
    let sets = cp["problems"]["deal_sets"].as_array().expect("deal sets");
    assert_eq!(sets.len(), 3);
    for set in sets {
        let deals = set.as_array().expect("a set");
        assert_eq!(deals.len(), 2);
        assert!(deals.iter().all(|d| d.as_u64().is_some_and(|d| (1..=32000).contains(&d))), "{set}");
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn the_shipped_freecell_experiments_check() {
    for file in ["programs/experiments/freecell-ga.sg", "programs/experiments/freecell-coevolution.sg", TINY, TINY_CO] {
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
        ("(puzzles (numbered 1 100) (training 3)) (fitness (hillis (deals 0)))", "`deals` must be between"),
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

/// Numbered puzzles coevolve only as deal sets, and deal sets need
/// numbered puzzles: both refused when the run starts, before any search.
#[test]
fn hillis_on_numbered_puzzles_needs_deal_sets() {
    let dir = temp("freecell-hillis-refused");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let file = dir.join("co.sg");
    let text = "(import freecell)\n(experiment co (primset freecell) (game freecell)\n  \
                (puzzles (numbered 1 100) (training 5)) (max-nodes 1000)\n  \
                (fitness (hillis (problems 4))) (individual weights) (population 4) (generations 1))\n";
    std::fs::write(&file, text).expect("write");
    let out = dir.join("run");
    let (code, _, stderr) =
        stratagem(&["evolve", file.to_str().expect("utf-8"), "--out", out.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("coevolve as deal sets") && stderr.contains("add (deals K)"), "{stderr}");
    assert!(!out.join("checkpoint.json").exists(), "no run started");
    std::fs::remove_dir_all(dir).ok();
}

/// A checkpoint's deal sets are read strictly: a deal that is not a
/// training deal, or a set of the wrong size, refuses the resume.
#[test]
fn a_checkpoint_with_a_foreign_deal_is_refused() {
    let dir = temp("freecell-bad-checkpoint");
    let dir_s = dir.to_str().expect("utf-8");
    let (code, _, stderr) = stratagem(&["evolve", TINY_CO, "--out", dir_s, "--stop-after", "1"]);
    assert_eq!(code, 0, "{stderr}");
    let good = read(&dir, "checkpoint.json");
    let cp: serde_json::Value = serde_json::from_str(&good).expect("checkpoint");
    for (edit, expected) in [
        (serde_json::json!([0, 1]), "which is not a training deal"),
        (serde_json::json!([cp["problems"]["deal_sets"][0][0].clone()]), "of 1 deals, not 2"),
    ] {
        let mut bad = cp.clone();
        bad["problems"]["deal_sets"][0] = edit;
        std::fs::write(dir.join("checkpoint.json"), bad.to_string()).expect("write");
        let (code, _, stderr) = stratagem(&["evolve", TINY_CO, "--resume", dir_s]);
        assert_eq!(code, 1, "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    }
    std::fs::remove_dir_all(dir).ok();
}
