//! NEAT as a user runs it (`(individual network ...)`, tests/data/evolve/
//! tiny-neat.sg on tic-tac-toe's GDL rules): the same seed gives the same
//! run on 1 and 2 threads and across interruptions (innovation numbers and
//! species are in the checkpoint); the log records the species; checkpoints
//! with networks are read strictly; the champion is a `(network ...)` that
//! `check`, `play` and `export` accept.

use std::path::Path;

mod common;
use common::{CRASH_HOOK, read, run_env, stratagem, stray_temporary_files, temp};

const TINY: &str = "tests/data/evolve/tiny-neat.sg";
const GAME: &str = "../shared/gdl/games/ticTacToe.kif";
const POPULATION: u64 = 12;

fn evolve(out: &Path, extra: &[&str]) -> String {
    let mut args = vec!["evolve", TINY, "--out", out.to_str().expect("utf-8")];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = stratagem(&args);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

/// What must not depend on threads or interruptions: the log, the
/// champion, the checkpoint without wall times, no temporary files.
fn outcome(dir: &Path) -> Vec<(String, String)> {
    let out = dir.to_str().expect("utf-8");
    let mut files: Vec<(String, String)> = ["log.jsonl", "champions/tiny-neat.sg"]
        .iter()
        .map(|f| (f.to_string(), read(dir, f).replace(out, "<out>")))
        .collect();
    let mut cp: serde_json::Value = serde_json::from_str(&read(dir, "checkpoint.json")).expect("checkpoint JSON");
    for record in cp["log"].as_array_mut().expect("log") {
        record.as_object_mut().expect("record").retain(|k, _| k != "seconds" && k != "games_per_s");
    }
    files.push(("checkpoint".into(), cp.to_string()));
    files.push(("temporary files".into(), stray_temporary_files(dir)));
    files
}

#[test]
fn same_seed_same_run_on_one_and_two_threads() {
    let (one, two) = (temp("neat-t1"), temp("neat-t2"));
    evolve(&one, &["--threads", "1"]);
    evolve(&two, &["--threads", "2"]);
    assert_eq!(outcome(&one), outcome(&two));
    assert_eq!(read(&one, "log.jsonl"), read(&two, "log.jsonl"), "byte for byte");
    for d in [one, two] {
        std::fs::remove_dir_all(d).ok();
    }
}

/// Every generation logs its species, whose sizes add up to the
/// population; the networks grow; the checkpoint keeps the species.
#[test]
fn the_log_records_species_and_structure_grows() {
    let dir = temp("neat-species");
    evolve(&dir, &[]);
    let log = read(&dir, "log.jsonl");
    let records: Vec<serde_json::Value> = log.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(records.len(), 5);
    for r in &records {
        let species = &r["species"];
        let sizes: Vec<u64> = species["sizes"].as_array().expect("sizes").iter().filter_map(|s| s.as_u64()).collect();
        assert_eq!(species["count"].as_u64(), Some(sizes.len() as u64), "{r}");
        assert_eq!(sizes.iter().sum::<u64>(), POPULATION, "{r}");
    }
    assert!(records.iter().any(|r| r["species"]["count"].as_u64() > Some(1)), "{log}");
    let last = records.last().expect("a record");
    assert!(last["max_size"].as_u64() > Some(8), "links were added: {last}");
    let cp: serde_json::Value = serde_json::from_str(&read(&dir, "checkpoint.json")).expect("checkpoint JSON");
    let neat = &cp["neat"];
    assert!(neat["next_innovation"].as_u64() > Some(9), "{neat}");
    assert!(!neat["species"].as_array().expect("species").is_empty());
    std::fs::remove_dir_all(dir).ok();
}

/// A run stopped after two generations and resumed, or killed right after
/// any of its writes and resumed, ends with the uninterrupted run's files.
#[test]
fn resumed_runs_are_the_uninterrupted_run() {
    let whole = temp("neat-whole");
    evolve(&whole, &[]);
    let expected = outcome(&whole);
    let chunked = temp("neat-chunked");
    evolve(&chunked, &["--stop-after", "2"]);
    evolve(&chunked, &["--resume", chunked.to_str().expect("utf-8")]);
    // `--resume DIR` names the directory itself.
    assert_eq!(outcome(&chunked), expected);
    std::fs::remove_dir_all(chunked).ok();
    let mut n = 1;
    loop {
        let dir = temp(&format!("neat-kill-{n}"));
        let d = dir.to_str().expect("utf-8");
        let first = run_env(&["evolve", TINY, "--out", d], Some((CRASH_HOOK, n.to_string())));
        if first.status.success() {
            assert!(n > 8, "only {} writes?", n - 1);
            std::fs::remove_dir_all(dir).ok();
            break;
        }
        assert_eq!(first.status.code(), Some(137), "{}", String::from_utf8_lossy(&first.stderr));
        let resumed = run_env(&["evolve", TINY, "--resume", d], None);
        assert!(resumed.status.success(), "after write {n}: {}", String::from_utf8_lossy(&resumed.stderr));
        assert_eq!(outcome(&dir), expected, "killed after write {n}");
        std::fs::remove_dir_all(dir).ok();
        n += 1;
        assert!(n < 100, "the run never finished");
    }
    std::fs::remove_dir_all(whole).ok();
}

/// Resuming from the checkpoint `cp` fails with an error that contains `why`.
fn resume_refuses(dir: &Path, cp: &serde_json::Value, why: &str) {
    std::fs::write(dir.join("checkpoint.json"), cp.to_string()).expect("write checkpoint");
    let (code, _, stderr) = stratagem(&["evolve", TINY, "--resume", dir.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{why}: {stderr}");
    let stderr = stderr.replace('│', " ").split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(stderr.contains(why), "missing `{why}` in:\n{stderr}");
}

#[test]
fn checkpoints_of_networks_are_read_strictly() {
    let dir = temp("neat-strict");
    evolve(&dir, &["--stop-after", "2"]);
    let good: serde_json::Value = serde_json::from_str(&read(&dir, "checkpoint.json")).expect("checkpoint JSON");
    let with = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut cp = good.clone();
        f(&mut cp);
        cp
    };
    let member = good["population"][0].as_str().expect("text").to_owned();
    let reordered = member.replacen("(inputs P0 P1", "(inputs P1 P0", 1);
    assert_ne!(reordered, member);
    resume_refuses(&dir, &with(&|cp| cp["population"][0] = reordered.clone().into()), "its inputs are not");
    let unnumbered = member.replacen(" (innovation 1)", "", 1);
    resume_refuses(&dir, &with(&|cp| cp["population"][0] = unnumbered.clone().into()), "has no innovation number");
    let tree = "(individual x (primset gdl) (tree eval Goal))";
    resume_refuses(&dir, &with(&|cp| cp["population"][0] = tree.into()), "it is not an `(network ...)`");
    let mut no_species = good.clone();
    no_species.as_object_mut().expect("object").remove("neat");
    resume_refuses(&dir, &no_species, "holds no species");
    resume_refuses(
        &dir,
        &with(&|cp| cp["neat"]["species"][0]["representative"] = tree.into()),
        "representative of species 0",
    );
    resume_refuses(&dir, &with(&|cp| cp["neat"]["species"][0]["improved"] = 7.into()), "species 0 does not fit");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn the_champion_is_a_network_that_checks_plays_and_exports() {
    let dir = temp("neat-champion");
    evolve(&dir, &[]);
    let file = dir.join("champions/tiny-neat.sg");
    let f = file.to_str().expect("utf-8");
    let text = read(&dir, "champions/tiny-neat.sg");
    assert!(text.contains("(network tiny-neat-champion"), "{text}");
    let (code, stdout, stderr) = stratagem(&["check", f]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("network tiny-neat-champion"), "{stdout}");
    let (code, _, stderr) = stratagem(&["fmt", "--check", f]);
    assert_eq!(code, 0, "the champion is in canonical layout: {stderr}");
    let player = format!("gp:{f}:tiny-neat-champion:alphabeta:1");
    let (code, stdout, stderr) = stratagem(&["play", "--game", GAME, "--a", &player, "--b", "random", "--games", "4"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("4 games"), "{stdout}");
    let (code, stdout, stderr) = stratagem(&["export", f, "--individual", "tiny-neat-champion", "--format", "sexp"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("(network tiny-neat-champion"), "{stdout}");
    std::fs::remove_dir_all(dir).ok();
}
