//! Covering competitive coevolution as a user runs it (`(fitness (cca
//! ...))`, tests/data/evolve/tiny-cca*.sg on tic-tac-toe's GDL rules): the
//! same seed gives the same log, summary and champions on 1 and 2 threads,
//! for networks and for trees; the log records each role's teacher set and
//! disengagement, and they agree with the summary; champions check; a run
//! stopped and resumed (teacher sets in the checkpoint) gives the
//! uninterrupted run's files. Blocker (tests/data/evolve/tiny-cca-blocker.sg),
//! a game of simultaneous moves, coevolves through the sampled search the
//! same way, and its champions play it; so does three-player Connect Four
//! (tests/data/evolve/tiny-cca-three-roles.sg), a population per role.

use std::path::Path;

mod common;
use common::{flat, read, stratagem, temp};

const NETWORKS: &str = "tests/data/evolve/tiny-cca.sg";
const TREES: &str = "tests/data/evolve/tiny-cca-trees.sg";
const BLOCKER: &str = "tests/data/evolve/tiny-cca-blocker.sg";
const THREE_ROLES: &str = "tests/data/evolve/tiny-cca-three-roles.sg";

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
    if dir.join("versus-random.json").exists() {
        files.extend(["versus-random.json".to_owned(), "versus-random.svg".to_owned()]);
    }
    for role in ["xplayer", "oplayer", "crosser", "blocker", "red", "yellow", "blue"] {
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

/// log.jsonl's text and its lines as JSON.
fn log_records(dir: &Path) -> (String, Vec<serde_json::Value>) {
    let log = read(dir, "log.jsonl");
    let records = log.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    (log, records)
}

#[test]
fn networks_coevolve_alike_on_one_and_two_threads() {
    let (dir, stdout) = same_at_any_thread_count(NETWORKS, "tiny-cca");
    let (log, records) = log_records(&dir);
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
fn a_run_stopped_and_resumed_is_the_uninterrupted_run() {
    let whole = temp("cca-whole");
    evolve(NETWORKS, &whole, "2");
    let parts = temp("cca-parts");
    let out = parts.to_str().expect("utf-8");
    let (code, stdout, stderr) = stratagem(&["evolve", NETWORKS, "--out", out, "--stop-after", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("2 of 6 generations; stopped early"), "{stdout}");
    let (code, _, stderr) = stratagem(&["evolve", NETWORKS, "--resume", out, "--stop-after", "1", "--threads", "1"]);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = stratagem(&["evolve", NETWORKS, "--resume", out]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(outcome(&whole, "tiny-cca"), outcome(&parts, "tiny-cca"));
    // A fresh run into a directory that holds one is refused.
    let (code, _, stderr) = stratagem(&["evolve", NETWORKS, "--out", out]);
    assert_eq!(code, 1);
    assert!(flat(&stderr).contains("already holds a run"), "{stderr}");
    // A checkpoint of another experiment is not resumed.
    let (code, _, stderr) = stratagem(&["evolve", TREES, "--resume", out]);
    assert_eq!(code, 1);
    assert!(flat(&stderr).contains("another experiment"), "{stderr}");
}

#[test]
fn a_game_of_simultaneous_moves_coevolves_alike_on_one_and_two_threads() {
    let (dir, stdout) = same_at_any_thread_count(BLOCKER, "tiny-cca-blocker");
    let summary: serde_json::Value = serde_json::from_str(&read(&dir, "cca.json")).expect("cca.json");
    let log = read(&dir, "log.jsonl");
    assert_eq!(log.lines().count(), 5, "{log}");
    for (r, role) in ["crosser", "blocker"].iter().enumerate() {
        assert_eq!(summary["roles"][r]["role"], *role, "{summary}");
        assert!(stdout.contains(&format!("role {role}: ")), "{stdout}");
    }
    // A champion plays Blocker against the paper's baseline.
    let champion = dir.join("champions/tiny-cca-blocker-crosser.sg");
    let champion = champion.to_str().expect("utf-8");
    let (code, stdout, stderr) = stratagem(&[
        "play",
        "--game",
        "../shared/gdl/games/blocker.kif",
        "--players",
        &format!("gp:{champion}:tiny-cca-blocker-crosser-champion:alphabeta:1,alphabeta:1:random"),
        "--games",
        "4",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("4 games of"), "{stdout}");
}

/// Three roles: three populations, each student playing every other role's
/// teachers (the third seat taken by that role's top teacher) and bouts
/// against members of both other populations; the roles take turns
/// joining their teachers.
#[test]
fn three_roles_coevolve_alike_on_one_and_two_threads() {
    let (dir, stdout) = same_at_any_thread_count(THREE_ROLES, "tiny-cca-three-roles");
    let (log, records) = log_records(&dir);
    assert_eq!(records.len(), 5, "{log}");
    let roles = ["red", "yellow", "blue"];
    for record in &records {
        let names: Vec<&str> =
            record["roles"].as_array().expect("roles").iter().map(|r| r["role"].as_str().expect("a name")).collect();
        assert_eq!(names, roles, "{record}");
    }
    // Generation 0: red joins beating nobody; then yellow, then blue may
    // join, each covering the teachers of both other roles.
    assert!(records[0]["roles"][0]["joined"].is_u64(), "{log}");
    let joined: Vec<usize> = records
        .iter()
        .filter_map(|g| g["roles"].as_array().expect("roles").iter().position(|r| r.get("joined").is_some()))
        .collect();
    for (k, &r) in joined.iter().enumerate() {
        assert_eq!(r, k % 3, "roles join in turn: {joined:?}");
    }
    assert!(joined.len() >= 3, "every role got a teacher: {joined:?}\n{log}");
    let summary: serde_json::Value = serde_json::from_str(&read(&dir, "cca.json")).expect("cca.json");
    for (r, role) in roles.iter().enumerate() {
        assert_eq!(summary["roles"][r]["role"], *role, "{summary}");
        assert!(stdout.contains(&format!("role {role}: ")), "{stdout}");
        assert!(dir.join(format!("champions/tiny-cca-three-roles-{role}.sg")).exists());
    }
}

/// `(versus-random G)`: every teacher plays G games against the
/// random-evaluation search of the same depth in its own role, the top
/// teacher at depths 1 to 3 too (the paper's figures 4 and 5), the same on
/// 1 and 2 threads (above); `cca-report` compares runs of several seeds:
/// means with 95% intervals, Student's t-test between the roles'
/// undominated generations, the top teachers' scores against 50% over the
/// runs, figures 3 and 4 as SVG.
#[test]
fn teachers_meet_random_evaluation_and_runs_are_compared() {
    let dirs: Vec<std::path::PathBuf> = (1..=3).map(|seed| temp(&format!("tiny-cca-seed-{seed}"))).collect();
    for (seed, dir) in dirs.iter().enumerate() {
        let out = dir.to_str().expect("utf-8");
        let seed = (seed + 1).to_string();
        let (code, stdout, stderr) = stratagem(&["evolve", NETWORKS, "--out", out, "--seed", &seed]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.contains("top teacher against random evaluation (depth 1, 4 games)"), "{stdout}");
        let versus: serde_json::Value = serde_json::from_str(&read(dir, "versus-random.json")).expect("JSON");
        let summary: serde_json::Value = serde_json::from_str(&read(dir, "cca.json")).expect("cca.json");
        for r in 0..2 {
            let role = &versus["roles"][r];
            let ranks = role["by_rank"].as_array().expect("ranks");
            assert_eq!(ranks.len() as u64, summary["roles"][r]["teachers"].as_u64().expect("teachers"), "{versus}");
            for (k, rank) in ranks.iter().enumerate() {
                assert_eq!(rank["rank"], k as u64 + 1);
                let games = ["wins", "draws", "losses"].iter().map(|w| rank[w].as_u64().expect("count")).sum::<u64>();
                assert_eq!(games, 4, "{rank}");
            }
            let depths = role["top_by_depth"].as_array().expect("depths");
            assert_eq!(depths.len(), if ranks.is_empty() { 0 } else { 3 }, "{role}");
        }
    }
    let figures = temp("tiny-cca-report");
    let mut args = vec!["cca-report", "--out", figures.to_str().expect("utf-8")];
    args.extend(dirs.iter().map(|d| d.to_str().expect("utf-8")));
    let (code, stdout, stderr) = stratagem(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("3 runs"), "{stdout}");
    assert!(stdout.contains("| xplayer |") && stdout.contains("| oplayer |"), "{stdout}");
    assert!(stdout.contains("Student's t-test between the roles") || stdout.contains("no t-test"), "{stdout}");
    assert!(stdout.contains("xplayer: top teacher's score (%) by search depth (figure 5)"), "{stdout}");
    // The paper's test across runs: the top teachers' scores against 50%.
    assert!(stdout.contains("over the runs, t-test against 50%"), "{stdout}");
    for svg in ["teachers.svg", "versus-random.svg"] {
        assert!(read(&figures, svg).starts_with("<svg"), "{svg}");
    }
    let (code, stdout, _) = stratagem(&["cca-report", "--format", "json", dirs[0].to_str().expect("utf-8")]);
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(report["runs"], 1);
    assert!(report["disengagement_t"].is_null(), "one run has no t-test: {report}");
    assert!(report["roles"][0]["top_versus_even"].is_null(), "one run has no t-test: {report}");

    // A folder that holds no covering run is an error, not a panic.
    let (code, _, stderr) = stratagem(&["cca-report", figures.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    assert!(flat(&stderr).contains("cannot read"), "{stderr}");
}
