//! Covering competitive coevolution as a user runs it (`(fitness (cca
//! ...))`, tests/data/evolve/tiny-cca*.sg on tic-tac-toe's GDL rules): the
//! same seed gives the same log, summary and champions on 1 and 2 threads,
//! for networks and for trees; the log records each role's teacher set and
//! disengagement, and they agree with the summary; champions check;
//! `--resume` is refused with a diagnostic and writes nothing.

use std::path::Path;

mod common;
use common::{read, stratagem, temp};

const NETWORKS: &str = "tests/data/evolve/tiny-cca.sg";
const TREES: &str = "tests/data/evolve/tiny-cca-trees.sg";

fn evolve(file: &str, out: &Path, threads: &str) -> String {
    let (code, stdout, stderr) =
        stratagem(&["evolve", file, "--out", out.to_str().expect("utf-8"), "--threads", threads]);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

/// The files that must not depend on the thread count.
fn outcome(dir: &Path, name: &str) -> Vec<(String, String)> {
    let out = dir.to_str().expect("utf-8");
    let mut files = vec!["log.jsonl".to_owned(), "cca.json".to_owned(), "teachers.svg".to_owned()];
    for role in ["xplayer", "oplayer"] {
        let champion = format!("champions/{name}-{role}.sg");
        if dir.join(&champion).exists() {
            files.push(champion);
        }
    }
    files.into_iter().map(|f| (f.clone(), read(dir, &f).replace(out, "<out>"))).collect()
}

fn same_at_any_thread_count(file: &str, name: &str) -> (std::path::PathBuf, String) {
    let (one, two) = (temp(&format!("{name}-1")), temp(&format!("{name}-2")));
    let stdout = evolve(file, &one, "1");
    evolve(file, &two, "2");
    assert_eq!(outcome(&one, name), outcome(&two, name), "{file}: 1 and 2 threads differ");
    (one, stdout)
}

#[test]
fn networks_coevolve_alike_on_one_and_two_threads() {
    let (dir, stdout) = same_at_any_thread_count(NETWORKS, "tiny-cca");
    let log = read(&dir, "log.jsonl");
    let records: Vec<serde_json::Value> = log.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    assert_eq!(records.len(), 6, "{log}");
    let summary: serde_json::Value = serde_json::from_str(&read(&dir, "cca.json")).expect("cca.json");
    for (r, role) in ["xplayer", "oplayer"].iter().enumerate() {
        let mut undominated = 0;
        let mut last_size = 0;
        for (g, rec) in records.iter().enumerate() {
            assert_eq!(rec["generation"], g as u64);
            let x = &rec["roles"][r];
            assert_eq!(x["role"], *role);
            let size = x["teachers"].as_u64().expect("teachers");
            assert!(size == last_size || size == last_size + 1, "at most one joins a generation: {log}");
            last_size = size;
            undominated += u64::from(x["undominated"].as_bool().expect("a flag"));
            assert!(x["species"]["count"].as_u64().expect("NEAT's species") >= 1);
        }
        let s = &summary["roles"][r];
        assert_eq!(s["undominated_generations"], undominated, "{summary}");
        assert_eq!(s["teachers"], last_size);
        assert!(
            stdout.contains(&format!("role {role}: {last_size} teachers, undominated {undominated} of 6")),
            "{stdout}"
        );
    }
    // The first role's first teacher joins at generation 0, beating nobody.
    assert_eq!(records[0]["roles"][0]["teachers"], 1, "{log}");
    assert_eq!(records[0]["roles"][0]["undominated"], true);
    assert!(read(&dir, "teachers.svg").contains("<svg"));
    let champion = dir.join("champions/tiny-cca-xplayer.sg");
    let (code, _, stderr) = stratagem(&["check", champion.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stderr}");
    assert!(read(&dir, "champions/tiny-cca-xplayer.sg").contains("(network tiny-cca-xplayer-champion"));
}

#[test]
fn trees_coevolve_alike_on_one_and_two_threads() {
    let (dir, _) = same_at_any_thread_count(TREES, "tiny-cca-trees");
    for role in ["xplayer", "oplayer"] {
        let champion = dir.join(format!("champions/tiny-cca-trees-{role}.sg"));
        let (code, _, stderr) = stratagem(&["check", champion.to_str().expect("utf-8")]);
        assert_eq!(code, 0, "{role}: {stderr}");
    }
}

#[test]
fn resuming_and_stopping_early_are_refused() {
    let dir = temp("cca-resume");
    let out = dir.to_str().expect("utf-8");
    for extra in [["--resume", out], ["--stop-after", "2"]] {
        let mut args = vec!["evolve", NETWORKS];
        if extra[0] == "--stop-after" {
            args.extend_from_slice(&["--out", out]);
        }
        args.extend_from_slice(&extra);
        let (code, _, stderr) = stratagem(&args);
        assert_eq!(code, 1, "{args:?}");
        assert!(stderr.contains("covering coevolution cannot be resumed or stopped early"), "{stderr}");
        assert!(!dir.join("log.jsonl").exists(), "nothing is written");
    }
}
