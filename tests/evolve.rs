//! `stratagem evolve` as a user runs it: the same seed gives the same log and
//! champion on 1 and 2 threads and across an interruption, even a kill at any
//! point; bad experiments and bad checkpoints are refused before any work;
//! champions check and play.
//!
//! The refused experiments in `tests/data/evolve/refused/` expect their
//! diagnostics in `.expected` files; re-bless with
//! `UPDATE_EXPECT=1 cargo test --test evolve`.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{CRASH_HOOK, flat, read, run_env, stratagem, stray_temporary_files, temp};

const TINY: &str = "tests/data/evolve/tiny.sg";

fn evolve(out: &Path, extra: &[&str]) -> String {
    let out_s = out.to_str().expect("utf-8");
    let mut args = vec!["evolve", TINY, "--out", out_s];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = stratagem(&args);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

#[test]
fn same_seed_same_run_on_one_and_two_threads() {
    let (one, two) = (temp("t1"), temp("t2"));
    evolve(&one, &["--threads", "1"]);
    evolve(&two, &["--threads", "2"]);
    assert_eq!(read(&one, "log.jsonl"), read(&two, "log.jsonl"));
    assert_eq!(read(&one, "log.jsonl").lines().count(), 3);
    assert_eq!(
        read(&one, "champions/tiny.sg").replace(one.to_str().unwrap_or(""), ""),
        read(&two, "champions/tiny.sg").replace(two.to_str().unwrap_or(""), "")
    );
    assert!(read(&one, "fitness.svg").contains("<svg"));
    for d in [one, two] {
        std::fs::remove_dir_all(d).ok();
    }
}

#[test]
fn resume_gives_the_uninterrupted_run() {
    let (whole, parts) = (temp("whole"), temp("parts"));
    evolve(&whole, &[]);
    let first = evolve(&parts, &["--stop-after", "1"]);
    assert!(first.contains("stopped early"), "{first}");
    assert!(!parts.join("champions").exists());
    // A killed run leaves a stale temporary file behind; it must not matter.
    std::fs::write(parts.join("checkpoint.tmp"), "half-written").expect("write");
    let (code, _, stderr) = stratagem(&["evolve", TINY, "--resume", parts.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(read(&whole, "log.jsonl"), read(&parts, "log.jsonl"));
    let strip = |dir: &Path| read(dir, "champions/tiny.sg").replace(dir.to_str().unwrap_or(""), "");
    assert_eq!(strip(&whole), strip(&parts));
    for d in [whole, parts] {
        std::fs::remove_dir_all(d).ok();
    }
}

#[test]
fn champions_check_and_play() {
    let dir = temp("champ");
    evolve(&dir, &[]);
    let champ = dir.join("champions/tiny.sg");
    let champ_s = champ.to_str().expect("utf-8");
    let (code, stdout, stderr) = stratagem(&["check", champ_s]);
    assert_eq!(code, 0, "{stderr}");
    let text = read(&dir, "champions/tiny.sg");
    assert!(text.contains("chosen by validation against alphabeta:1:material:ties=first"), "{text}");
    let log = read(&dir, "log.jsonl");
    assert_eq!(log.matches("\"validation\":{\"candidates\":").count(), 3, "{log}");
    // tiny.sg limits trees to 12 nodes; without the limit its first generation has a tree of 20.
    for line in log.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a JSON record");
        assert!(record["max_size"].as_u64().is_some_and(|n| n <= 12), "{record}");
    }
    // The final round: at most three distinct finalists, 6 games each, the
    // champion the one with most points.
    let round: serde_json::Value = serde_json::from_str(&read(&dir, "final.json")).expect("final.json");
    assert_eq!(round["games"], 6);
    let finalists = round["finalists"].as_array().expect("finalists");
    assert!((1..=3).contains(&finalists.len()), "{round}");
    let header = format!("of 6 points in a final round of the {} best validated", finalists.len());
    assert!(text.contains(&header), "{text}");
    let best = finalists.iter().filter_map(|f| f["final_points"].as_f64()).fold(f64::MIN, f64::max);
    let champion = round["champion"].as_u64().expect("champion index") as usize;
    assert_eq!(finalists[champion]["final_points"].as_f64(), Some(best));
    assert!(stdout.contains("individual tiny-champion"), "{stdout}");
    let spec = format!("gp:{champ_s}:tiny-champion:alphabeta:1");
    let (code, stdout, stderr) =
        stratagem(&["play", "--game", "morris", "--a", &spec, "--b", "random", "--games", "4", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(json["games"], 4);
    std::fs::remove_dir_all(dir).ok();
}

/// Every shipped experiment passes `check`, which validates all it would run.
#[test]
fn shipped_experiments_check() {
    let mut files: Vec<PathBuf> = std::fs::read_dir("programs/experiments")
        .expect("programs/experiments")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sg"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "{files:?}");
    for file in files {
        let (code, stdout, stderr) = stratagem(&["check", file.to_str().expect("utf-8")]);
        assert_eq!(code, 0, "{}: {stderr}", file.display());
        assert!(stdout.contains("experiment "), "{}: {stdout}", file.display());
    }
}

/// An experiment on the two-stage game evolves players for it: the champion's
/// header plays it under those rules, and so does `play`.
#[test]
fn experiments_run_on_morris_without_flying() {
    let dir = temp("noflying");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let tiny = std::fs::read_to_string(TINY).expect("read tiny.sg");
    let file = dir.join("tiny.sg");
    std::fs::write(&file, tiny.replace("(game morris)", "(game morris-no-flying)")).expect("write");
    let out = dir.join("run");
    let (code, _, stderr) =
        stratagem(&["evolve", file.to_str().expect("utf-8"), "--out", out.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stderr}");
    let text = read(&out, "champions/tiny.sg");
    assert!(text.contains("stratagem play --game morris-no-flying"), "{text}");
    let spec = format!("gp:{}:tiny-champion:alphabeta:1", out.join("champions/tiny.sg").display());
    let (code, stdout, stderr) = stratagem(&[
        "play",
        "--game",
        "morris-no-flying",
        "--a",
        &spec,
        "--b",
        "random",
        "--games",
        "4",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    assert_eq!(json["games"], 4);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn existing_runs_and_bad_checkpoints_are_refused() {
    let dir = temp("refuse");
    let dir_s = dir.to_str().expect("utf-8").to_owned();
    evolve(&dir, &["--stop-after", "1"]);
    let (code, _, stderr) = stratagem(&["evolve", TINY, "--out", &dir_s]);
    assert_eq!(code, 1);
    assert!(stderr.contains("already holds a run"), "{stderr}");
    let (code, _, stderr) = stratagem(&["evolve", TINY, "--resume", &dir_s, "--seed", "99"]);
    assert_eq!(code, 1);
    assert!(flat(&stderr).contains("written by another experiment"), "{stderr}");
    std::fs::write(dir.join("checkpoint.json"), "{\"format\": 1, \"truncated").expect("corrupt");
    let (code, _, stderr) = stratagem(&["evolve", TINY, "--resume", &dir_s]);
    assert_eq!(code, 1);
    assert!(stderr.contains("not a valid checkpoint"), "{stderr}");
    std::fs::remove_dir_all(dir).ok();
}

/// `stratagem check FILE` fails, reporting each of `expected`.
fn check_rejects(file: &str, expected: &[&str]) {
    let (code, _, stderr) = stratagem(&["check", file]);
    assert_eq!(code, 1, "{file}");
    for e in expected {
        assert!(stderr.contains(e), "missing `{e}` in:\n{stderr}");
    }
}

#[test]
fn bad_experiments_are_rejected_before_any_work() {
    let dir = temp("bad");
    let (code, _, stderr) = stratagem(&["evolve", "tests/data/evolve/bad.sg", "--out", dir.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    assert!(!dir.exists(), "no output for a rejected experiment");
    assert!(stderr.contains("unknown experiment setting `generatons`"), "{stderr}");
    assert!(stderr.contains("did you mean `generations`?"), "{stderr}");
    assert!(stderr.contains("`population` must be between 2"), "{stderr}");
    assert!(stderr.contains("is not for morris"), "{stderr}");
    let (code, _, _) = stratagem(&["check", "tests/data/evolve/bad.sg"]);
    assert_eq!(code, 1);
    let (code, _, stderr) =
        stratagem(&["evolve", "tests/data/evolve/bad-champion.sg", "--out", dir.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    assert!(!dir.exists(), "no output for a rejected experiment");
    assert!(stderr.contains("ties are broken `first` or `random`"), "{stderr}");
    assert!(stderr.contains("top 5 is not between 1 and the population (4)"), "{stderr}");
    assert!(stderr.contains("0 is not between 1 and 10000"), "{stderr}");
    check_rejects(
        "tests/data/evolve/bad-clauses.sg",
        &[
            "usage: (population N)",
            "usage: (init MIN-DEPTH MAX-DEPTH)",
            "usage: (crossover P) or (crossover P one-way)",
            "usage: (mutation P)",
            "usage: (selection (tournament K)), (selection proportionate) or (selection (fitnessless K))",
            "usage: (introns on) or (introns off)",
            "usage: (engine jit) or (engine interp)",
            "usage: (player (alphabeta D)) or (player (select D (ratio R) ...))",
        ],
    );
    check_rejects(
        "tests/data/evolve/bad-search.sg",
        &[
            "unknown or malformed option of `alphabeta`",
            "expected (perspective root|mover)",
            "a search depth is between 1 and 32",
            "expected (ties first|random)",
            "SelectiveSearchRatio is in (0, 1]",
            "a perspective is `root` or `mover`",
            "expected (ratio R), (maxbranch M), (full F), (perspective root|mover)",
        ],
    );
    check_rejects(
        "tests/data/evolve/bad-size.sg",
        &["tree `cond` of type B needs 3 nodes, but the limit is 2", "`max-size` must be between 1 and 1000000, not 0"],
    );
}

/// Every experiment in `tests/data/evolve/refused/` is refused by `check`
/// with the diagnostics of its `.expected` file, and by `evolve` before it
/// writes anything.
#[test]
fn refused_experiments_match_their_expected_diagnostics() {
    let mut cases: Vec<PathBuf> = std::fs::read_dir("tests/data/evolve/refused")
        .expect("tests/data/evolve/refused")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sg"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 5, "{cases:?}");
    let mut failures = Vec::new();
    for case in &cases {
        let file = case.to_str().expect("utf-8");
        let (code, _, stderr) = stratagem(&["check", file]);
        assert_eq!(code, 1, "{file}: {stderr}");
        let expected_path = case.with_extension("expected");
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::write(&expected_path, &stderr).expect("write expected file");
        } else {
            let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
            if expected != stderr {
                failures.push(format!("--- {file}\n=== expected\n{expected}\n=== actual\n{stderr}"));
            }
        }
        let out = temp("refused");
        let (code, _, evolve_err) = stratagem(&["evolve", file, "--out", out.to_str().expect("utf-8")]);
        assert_eq!(code, 1, "{file}");
        assert_eq!(evolve_err, stderr, "evolve and check refuse {file} alike");
        assert!(!out.exists(), "{file}: no output for a refused experiment");
    }
    assert!(failures.is_empty(), "case(s) differ (re-bless with UPDATE_EXPECT=1):\n{}", failures.join("\n"));
}

/// The limits of the refusals can be raised; a large generation is run
/// with a warning that says how many games it plays.
#[test]
fn work_limits_can_be_raised_and_large_generations_warn() {
    let huge = "tests/data/evolve/refused/games-per-generation.sg";
    let (code, _, stderr) = stratagem(&["check", huge]);
    assert_eq!(code, 1);
    let stderr = flat(&stderr);
    assert!(stderr.contains("plays 199980000 games per generation"), "{stderr}");
    assert!(stderr.contains("--limit games-per-generation=N"), "{stderr}");
    let (code, stdout, stderr) = stratagem(&["--limit", "games-per-generation=200000000", "check", huge]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("experiment huge"), "{stdout}");
    let deep = "tests/data/evolve/refused/search-depth.sg";
    let (code, _, stderr) = stratagem(&["--limit", "search-depth=64", "check", deep]);
    assert_eq!(code, 1, "depth 0 stays refused");
    let stderr = flat(&stderr);
    assert!(!stderr.contains("search depth 40 exceeds"), "{stderr}");
    assert!(stderr.contains("a search depth is between 1 and 64"), "{stderr}");

    // 300 individuals in a round robin: 179,400 games, plus the fitness of
    // 3,000 random games each: over a million per generation.
    let dir = temp("large");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let file = dir.join("large.sg");
    let text = std::fs::read_to_string(TINY)
        .expect("read tiny.sg")
        .replace("(population 9)", "(population 300)")
        .replace("(fitness (random 2) (cohort 2) (pairings 2))", "(fitness (round-robin) (random 3000))");
    std::fs::write(&file, text).expect("write");
    // The warning comes before any work: resuming a run that is not there
    // stops right after it.
    let out = dir.join("no-run");
    let (code, _, stderr) =
        stratagem(&["evolve", file.to_str().expect("utf-8"), "--resume", out.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{stderr}");
    let stderr = flat(&stderr);
    assert!(stderr.contains("nothing to resume"), "{stderr}");
    assert!(stderr.contains("plays 1079408 games per generation"), "{stderr}");
    assert!(stderr.contains(file.to_str().expect("utf-8")), "the warning names the file: {stderr}");
    std::fs::remove_dir_all(dir).ok();
}

/// Errors that point into no experiment name the file.
#[test]
fn errors_name_the_file() {
    let file = "tests/data/evolve/no-experiment.sg";
    let out = temp("noexp");
    let (code, _, stderr) = stratagem(&["evolve", file, "--out", out.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    let stderr = flat(&stderr);
    assert!(stderr.contains(&format!("`{file}` defines no (experiment ...)")), "{stderr}");
    let (code, _, stderr) = stratagem(&["evolve", TINY, "--experiment", "other"]);
    assert_eq!(code, 1);
    let stderr = flat(&stderr);
    assert!(stderr.contains(&format!("`{TINY}` defines no experiment `other`")), "{stderr}");
    let (code, _, stderr) = stratagem(&["evolve", TINY, "--resume", out.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    let stderr = flat(&stderr);
    assert!(stderr.contains(out.to_str().expect("utf-8")), "{stderr}");
    assert!(stderr.contains("nothing to resume"), "{stderr}");
}

/// A checkpoint of `tiny.sg` after one generation, as JSON, and its directory.
fn one_generation(name: &str) -> (PathBuf, serde_json::Value) {
    let dir = temp(name);
    evolve(&dir, &["--stop-after", "1"]);
    let cp = serde_json::from_str(&read(&dir, "checkpoint.json")).expect("checkpoint JSON");
    (dir, cp)
}

/// Resuming from the checkpoint `cp` fails with an error that names the
/// checkpoint file and contains `why`.
fn resume_refuses(dir: &Path, cp: &serde_json::Value, why: &str) {
    let path = dir.join("checkpoint.json");
    std::fs::write(&path, cp.to_string()).expect("write checkpoint");
    let (code, _, stderr) = stratagem(&["evolve", TINY, "--resume", dir.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{why}: {stderr}");
    let stderr = flat(&stderr);
    assert!(stderr.contains(&path.display().to_string()), "the error names the checkpoint: {stderr}");
    assert!(stderr.contains(why), "missing `{why}` in:\n{stderr}");
    assert!(!dir.join("champions").exists(), "{why}: nothing ran");
}

#[test]
fn checkpoints_are_read_strictly() {
    let (dir, good) = one_generation("strict");
    let member = good["population"][0].as_str().expect("program text").to_owned();
    let with = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut cp = good.clone();
        f(&mut cp);
        cp
    };
    // A NUL byte, and a malformed number, in a program the reader recovers from.
    let nul = with(&|cp| cp["population"][0] = member.replacen(' ', " \u{0} ", 1).into());
    resume_refuses(&dir, &nul, "population member 0 is not a well-formed program");
    let number = member.find(|c: char| c.is_ascii_digit()).expect("a number in the program");
    let mut bad_number = member.clone();
    bad_number.insert_str(number, "1e+ ");
    resume_refuses(&dir, &with(&|cp| cp["population"][0] = bad_number.clone().into()), "population member 0");
    // A generation past the experiment's three, with a log to match.
    let far = with(&|cp| {
        let record = cp["log"][0].clone();
        let log: Vec<serde_json::Value> = (0..100)
            .map(|g| {
                let mut r = record.clone();
                r["generation"] = g.into();
                r
            })
            .collect();
        cp["log"] = log.into();
        cp["generation"] = 100.into();
    });
    resume_refuses(&dir, &far, "at generation 100, past the experiment's 3");
    resume_refuses(&dir, &with(&|cp| cp["generation"] = 2.into()), "at generation 2 but its log has 1 records");
    resume_refuses(&dir, &with(&|cp| cp["log"][0]["generation"] = 7.into()), "log record 0 is for generation 7");
    resume_refuses(&dir, &with(&|cp| cp["champion"] = serde_json::Value::Null), "no champion after 1 generations");
    resume_refuses(&dir, &with(&|cp| cp["unknown"] = 1.into()), "unknown field `unknown`");
    let small = with(&|cp| cp["population"].as_array_mut().expect("array").truncate(3));
    resume_refuses(&dir, &small, "holds 3 individuals, but the experiment's population is 9");
    let wrong_tree = with(&|cp| cp["population"][0] = member.replace("(tree eval", "(tree order").into());
    resume_refuses(&dir, &wrong_tree, "population member 0) that does not check");
    // The checkpoint is read within the input-size limit (its size varies
    // with the timings it records, so the limit is set from it).
    let good_text = good.to_string();
    std::fs::write(dir.join("checkpoint.json"), &good_text).expect("restore");
    let limit = format!("input-size={}", good_text.len() / 2);
    let (code, _, stderr) = stratagem(&["--limit", &limit, "evolve", TINY, "--resume", dir.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    let stderr = flat(&stderr);
    assert!(stderr.contains("--limit input-size=N"), "{stderr}");
    assert!(stderr.contains(&dir.join("checkpoint.json").display().to_string()), "{stderr}");
    // And the restored one resumes.
    let (code, _, stderr) = stratagem(&["evolve", TINY, "--resume", dir.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::remove_dir_all(dir).ok();
}

/// What must not depend on where a run was killed: the log, final.json and
/// the champion, byte for byte (with the output directory's name taken out
/// of the champion's header), and the generations of timing.jsonl.
fn outcome(dir: &Path) -> Vec<(String, String)> {
    let name = dir.to_str().expect("utf-8");
    let mut files: Vec<(String, String)> = ["log.jsonl", "final.json", "champions/tiny.sg"]
        .iter()
        .map(|f| (f.to_string(), read(dir, f).replace(name, "<out>")))
        .collect();
    let timing: Vec<String> = read(dir, "timing.jsonl")
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("timing record")["generation"].to_string())
        .collect();
    files.push(("timing generations".into(), timing.join(" ")));
    files.push(("temporary files".into(), stray_temporary_files(dir)));
    files
}

/// A run killed right after its N-th write, for every N, then resumed
/// (and, for some N, killed again while resuming and resumed once more),
/// ends with exactly the files of the uninterrupted run.
#[test]
fn a_kill_after_any_write_then_resume_gives_the_uninterrupted_run() {
    let whole = temp("kill-whole");
    evolve(&whole, &[]);
    let expected = outcome(&whole);
    assert_eq!(expected[3].1, "0 1 2");
    let mut n = 1;
    loop {
        let dir = temp(&format!("kill-{n}"));
        let d = dir.to_str().expect("utf-8");
        let first = run_env(&["evolve", TINY, "--out", d], Some((CRASH_HOOK, n.to_string())));
        if first.status.success() {
            // Past the run's last write: the run has been killed after each.
            assert!(n > 10, "only {} writes?", n - 1);
            assert_eq!(outcome(&dir), expected);
            std::fs::remove_dir_all(dir).ok();
            break;
        }
        assert_eq!(first.status.code(), Some(137), "{}", String::from_utf8_lossy(&first.stderr));
        // A write cut short leaves its temporary file; resuming removes it.
        std::fs::write(dir.join(format!(".log.jsonl.{}.tmp", 4_000_000 + n)), "half").expect("write");
        std::fs::write(dir.join("timing.tmp"), "half").expect("write");
        // Every third time, the resumed run is killed too, after its first write.
        if n % 3 == 0 {
            let again = run_env(&["evolve", TINY, "--resume", d], Some((CRASH_HOOK, "1".into())));
            assert!(matches!(again.status.code(), Some(0 | 137)), "{}", String::from_utf8_lossy(&again.stderr));
        }
        let resumed = run_env(&["evolve", TINY, "--resume", d], None);
        assert!(resumed.status.success(), "after write {n}: {}", String::from_utf8_lossy(&resumed.stderr));
        assert_eq!(outcome(&dir), expected, "killed after write {n}");
        // Resuming again finds nothing to do.
        let (code, stdout, stderr) = stratagem(&["evolve", TINY, "--resume", d]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.contains("already complete; nothing was written"), "{stdout}");
        std::fs::remove_dir_all(dir).ok();
        n += 1;
        assert!(n < 100, "the run never finished");
    }
    std::fs::remove_dir_all(whole).ok();
}

/// A run killed by SIGKILL at various moments (the empty directory made
/// beforehand, as a killed run's first act leaves it), then resumed, gives
/// the uninterrupted run's files.
#[cfg(unix)]
#[test]
fn a_real_kill_at_any_moment_then_resume_gives_the_uninterrupted_run() {
    let whole = temp("sigkill-whole");
    evolve(&whole, &[]);
    let expected = outcome(&whole);
    // Killed before its first write: an empty directory, which --resume starts afresh.
    let empty = temp("sigkill-empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let resumed = run_env(&["evolve", TINY, "--resume", empty.to_str().expect("utf-8")], None);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert_eq!(outcome(&empty), expected);
    std::fs::remove_dir_all(empty).ok();
    for (i, delay_ms) in [0u64, 3, 8, 15, 25, 40, 60, 90].into_iter().enumerate() {
        let dir = temp(&format!("sigkill-{i}"));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let d = dir.to_str().expect("utf-8");
        let mut child = Command::new(env!("CARGO_BIN_EXE_stratagem"))
            .args(["evolve", TINY, "--out", d])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn");
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        child.kill().ok();
        child.wait().expect("wait");
        let resumed = run_env(&["evolve", TINY, "--resume", d], None);
        assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
        assert_eq!(outcome(&dir), expected, "killed after {delay_ms} ms");
        std::fs::remove_dir_all(dir).ok();
    }
    std::fs::remove_dir_all(whole).ok();
}
