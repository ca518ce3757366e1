//! Hillis coevolution on a puzzle as a user runs it: `(fitness (hillis
//! ...))` on Rush Hour evolves 6×6 boards with the policies. The run
//! completes, logs its boards, writes `boards.txt`, each board solvable in
//! exactly the length it states (BFS) and at least the least length asked
//! for; the same run on 1 and 2 threads and across a resumed interruption;
//! a checkpoint whose board lies about its length is refused.

use std::path::{Path, PathBuf};

use stratagem::games::rushhour::{RushHour, parse_board};
use stratagem::search::puzzle::bfs;

mod common;
use common::{read, stratagem, temp};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/domains/rushhour");

/// Boards of at least this many moves coevolve.
const MIN_LENGTH: usize = 8;

/// A small coevolution experiment on every 200th database puzzle of 8 to
/// 14 moves, written into `dir`.
fn experiment(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).expect("mkdir");
    let file = dir.join("coevo.sg");
    let text = format!(
        "(import rush-hour)\n\
         (experiment coevo\n  (primset rush-hour) (game rush-hour)\n  \
         (puzzles {:?} (every 200 3) (lengths 8 14))\n  (max-nodes 200000)\n  \
         (fitness (hillis (problems 4) (sample 2) (min-length {MIN_LENGTH}) (mutation 0.8)))\n  \
         (individual policy (max-rules 5))\n  \
         (population 6) (generations 3) (seed 5) (init 2 4) (max-depth 5))\n",
        format!("{DATA}/rush_12k.txt")
    );
    std::fs::write(&file, text).expect("write experiment");
    file
}

fn evolve(file: &Path, out: &Path, extra: &[&str]) {
    let mut args = vec!["evolve", file.to_str().expect("utf-8"), "--out", out.to_str().expect("utf-8")];
    args.extend_from_slice(extra);
    let (code, _, stderr) = stratagem(&args);
    assert_eq!(code, 0, "{stderr}");
}

/// What must not depend on threads or interruptions: the log, the boards,
/// the checkpoint without its wall times and the champion (the output
/// directory's name taken out).
fn outcome(dir: &Path) -> Vec<String> {
    let mut cp: serde_json::Value = serde_json::from_str(&read(dir, "checkpoint.json")).expect("checkpoint JSON");
    for record in cp["log"].as_array_mut().expect("log") {
        record.as_object_mut().expect("record").retain(|k, _| k != "seconds" && k != "games_per_s");
    }
    let champion = read(dir, "champions/coevo.sg").replace(dir.to_str().expect("utf-8"), "<out>");
    vec![read(dir, "log.jsonl"), read(dir, "boards.txt"), cp.to_string(), champion]
}

#[test]
fn boards_coevolve_with_policies_the_same_on_any_thread_count_and_across_a_resume() {
    let dir = temp("coevo");
    let file = experiment(&dir);
    let (one, two, split) = (dir.join("t1"), dir.join("t2"), dir.join("split"));
    evolve(&file, &one, &["--threads", "1"]);
    evolve(&file, &two, &["--threads", "2"]);
    evolve(&file, &split, &["--stop-after", "1"]);
    assert_eq!(read(&split, "log.jsonl").lines().count(), 1, "stopped after one generation");
    let (code, _, stderr) =
        stratagem(&["evolve", file.to_str().expect("utf-8"), "--resume", split.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(outcome(&one), outcome(&two), "1 and 2 threads");
    assert_eq!(outcome(&one), outcome(&split), "an uninterrupted run and a resumed one");

    // Every generation logs its boards: (6 policies + 4 boards) × 2 meetings.
    let log = read(&one, "log.jsonl");
    assert_eq!(log.lines().count(), 3);
    for line in log.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a log record");
        let best = record["best"].as_f64().expect("best");
        assert!((0.0..=100.0).contains(&best), "a mean percentage of nodes saved: {record}");
        let problems = &record["problems"];
        assert!(problems["solved"].as_f64().is_some_and(|s| (0.0..=1.0).contains(&s)), "{record}");
        assert!(problems["best"].as_f64().is_some_and(|b| (0.0..=100.0).contains(&b)), "{record}");
        assert!(problems["mean_length"].as_f64().is_some_and(|l| l >= MIN_LENGTH as f64), "{record}");
        assert_eq!(record["games"], (6 + 4) * 2, "{record}");
    }

    // The boards: four, each solved by BFS in exactly its stated length.
    let boards = read(&one, "boards.txt");
    let lines: Vec<&str> = boards.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 4, "{boards}");
    for line in &lines {
        let (length, board) = line.split_once(' ').expect("<length> <board>");
        let length: usize = length.parse().expect("a length");
        let board = parse_board(board).expect("a board");
        let solution = bfs(&RushHour, &board, 10_000_000);
        assert_eq!(solution.moves.map(|m| m.len()), Some(length), "{line}");
        assert!(length >= MIN_LENGTH, "{line}");
    }
    // `solve` reads the file as it is.
    let boards_path = one.join("boards.txt");
    let (code, stdout, stderr) = stratagem(&["solve", "rush-hour", "--puzzles", boards_path.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("solved 4 of 4"), "{stdout}");

    // A checkpoint whose board is not as long as it says is refused.
    let cp_path = one.join("checkpoint.json");
    let text = std::fs::read_to_string(&cp_path).expect("checkpoint");
    let (length, _) = lines[0].split_once(' ').expect("<length> <board>");
    let wrong = format!("\"{} ", length.parse::<u32>().expect("a length") + 1);
    std::fs::write(&cp_path, text.replacen(&format!("\"{length} "), &wrong, 1)).expect("tamper");
    let (code, _, stderr) =
        stratagem(&["evolve", file.to_str().expect("utf-8"), "--resume", one.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("which BFS solves in"), "{stderr}");
    std::fs::remove_dir_all(dir).ok();
}
