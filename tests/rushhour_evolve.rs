//! Evolution on a puzzle as a user runs it: `(fitness (solve N))` on Rush
//! Hour training puzzles read from a file; the same run on 1 and 2 threads;
//! the champion is a policy `solve` accepts; a missing puzzles file is a
//! diagnostic that names it.

use std::path::{Path, PathBuf};

mod common;
use common::{read, stratagem, temp};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/domains/rushhour");

/// A small policy experiment on every 100th database puzzle of 4 to 12
/// moves, written into `dir`.
fn experiment(dir: &Path, puzzles: &str) -> PathBuf {
    std::fs::create_dir_all(dir).expect("mkdir");
    let file = dir.join("rush.sg");
    let text = format!(
        "(import rush-hour)\n\
         (experiment rush\n  (primset rush-hour) (game rush-hour)\n  \
         (puzzles {puzzles:?} (every 100 3) (lengths 4 12))\n  (max-nodes 200000)\n  \
         (fitness (solve 3))\n  (individual policy (max-rules 5))\n  \
         (population 6) (generations 2) (seed 5) (init 2 4) (max-depth 5))\n"
    );
    std::fs::write(&file, text).expect("write experiment");
    file
}

#[test]
fn a_policy_evolves_on_training_puzzles_the_same_on_one_and_two_threads() {
    let dir = temp("rush-evolve");
    let file = experiment(&dir, &format!("{DATA}/rush_12k.txt"));
    let file = file.to_str().expect("utf-8");
    let runs: Vec<PathBuf> = ["1", "2"]
        .iter()
        .map(|threads| {
            let out = dir.join(format!("run{threads}"));
            let out_s = out.to_str().expect("utf-8");
            let (code, stdout, stderr) = stratagem(&["evolve", file, "--out", out_s, "--threads", threads]);
            assert_eq!(code, 0, "{stderr}");
            assert!(stdout.contains("2 of 2 generations"), "{stdout}");
            out
        })
        .collect();
    assert_eq!(read(&runs[0], "log.jsonl"), read(&runs[1], "log.jsonl"));
    let log = read(&runs[0], "log.jsonl");
    for line in log.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a log record");
        let best = record["best"].as_f64().expect("best fitness");
        assert!((0.0..=100.0).contains(&best), "a percentage of nodes saved: {best}");
        assert_eq!(record["games"].as_u64(), Some(6 * 3), "3 puzzles for each of 6 programs");
    }
    // The champion is a policy that guides `solve`, whose header says how.
    let champion = runs[0].join("champions/rush.sg");
    let text = std::fs::read_to_string(&champion).expect("champion");
    assert!(text.contains("(policy rush-champion"), "{text}");
    assert!(text.contains("stratagem solve rush-hour"), "{text}");
    let heuristic = format!("{}:rush-champion", champion.display());
    let (code, stdout, stderr) = stratagem(&[
        "solve",
        "rush-hour",
        "--puzzles",
        &format!("{DATA}/cards40.txt"),
        "--search",
        "ida",
        "--heuristic",
        &heuristic,
        "--max-nodes",
        "1000",
        "--check",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), 41, "{stdout}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_missing_puzzles_file_is_named() {
    let dir = temp("rush-missing");
    let file = experiment(&dir, "no-such-puzzles.txt");
    let out = dir.join("run");
    let (code, _, stderr) =
        stratagem(&["evolve", file.to_str().expect("utf-8"), "--out", out.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    assert!(stderr.contains("cannot read the puzzles file"), "{stderr}");
    assert!(stderr.contains("no-such-puzzles.txt"), "{stderr}");
    assert!(!out.exists(), "nothing written");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_puzzles_file_with_a_bad_line_points_at_it() {
    let dir = temp("rush-bad-line");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("bad.txt"), "5 ooooooooooooAAoooooooooooooooooooooo 3\n7 ooooAA 2\n").expect("write");
    let file = experiment(&dir, "bad.txt");
    let out = dir.join("run");
    let (code, _, stderr) =
        stratagem(&["evolve", file.to_str().expect("utf-8"), "--out", out.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("bad.txt:2:"), "{stderr}");
    std::fs::remove_dir_all(dir).ok();
}

/// `(seed-population NAME)`: the shipped 6×6 champion joins generation 0
/// as it is, and, far better than random policies, is the champion of a
/// one-generation run; without the clause generation 0 is random.
#[test]
fn a_seeded_population_starts_from_the_named_policy() {
    let dir = temp("rush-seeded");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let champion = concat!(env!("CARGO_MANIFEST_DIR"), "/programs/champions/rush-hour-6x6.sg");
    let run = |seeded: bool| {
        let (import, clause) = if seeded {
            (format!("(import {champion:?})\n"), "(seed-population rush-hour-6x6)")
        } else {
            Default::default()
        };
        let text = format!(
            "(import rush-hour)\n{import}\
             (experiment rush\n  (primset rush-hour) (game rush-hour)\n  \
             (puzzles \"{DATA}/rush_12k.txt\" (every 100 0) (lengths 15 25))\n  (max-nodes 200000)\n  \
             (fitness (solve 2))\n  (individual policy (max-rules 5))\n  {clause}\n  \
             (population 4) (generations 1) (seed 5) (init 2 4) (max-depth 5))\n"
        );
        let name = if seeded { "seeded" } else { "random" };
        let file = dir.join(format!("{name}.sg"));
        std::fs::write(&file, text).expect("write experiment");
        let out = dir.join(name);
        let (code, _, stderr) =
            stratagem(&["evolve", file.to_str().expect("utf-8"), "--out", out.to_str().expect("utf-8")]);
        assert_eq!(code, 0, "{stderr}");
        read(&out, "champions/rush.sg")
    };
    let founder = "(* (* Hybrid (* BlockersLowerBound (* Hybrid Hybrid))) GoalDistance)";
    let seeded = run(true);
    assert!(seeded.contains(founder), "{seeded}");
    let random = run(false);
    assert!(!random.contains(founder), "{random}");
    std::fs::remove_dir_all(dir).ok();
}
