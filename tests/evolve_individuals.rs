//! Experiments that evolve policies and weight vectors (`(individual policy
//! ...)`, `(individual weights ...)`) and coevolve openings (`(fitness
//! (hillis ...))`), as a user runs them: the same seed gives the same run on
//! 1 and 2 threads and across interruptions, even a kill after any write;
//! checkpoints are read strictly; champions check, play and evaluate in the
//! REPL.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

mod common;
use common::{CRASH_HOOK, read, run_env, stratagem, stray_temporary_files, temp};

const POLICY: &str = "tests/data/evolve/tiny-policy.sg";
const WEIGHTS: &str = "tests/data/evolve/tiny-weights.sg";

/// The experiment's name: its file's stem.
fn name(experiment: &str) -> &str {
    Path::new(experiment).file_stem().and_then(|s| s.to_str()).expect("a file name")
}

fn evolve(experiment: &str, out: &Path, extra: &[&str]) -> String {
    let mut args = vec!["evolve", experiment, "--out", out.to_str().expect("utf-8")];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = stratagem(&args);
    assert_eq!(code, 0, "{experiment}: {stderr}");
    stdout
}

/// What must not depend on threads or interruptions: the log, final.json
/// (if any), the champion (the output directory's name taken out), the
/// checkpoint without its wall times, and no temporary files.
fn outcome(experiment: &str, dir: &Path) -> Vec<(String, String)> {
    let out = dir.to_str().expect("utf-8");
    let champion = format!("champions/{}.sg", name(experiment));
    let mut files: Vec<(String, String)> = ["log.jsonl", "final.json", champion.as_str()]
        .iter()
        .filter(|f| dir.join(f).exists() || **f != "final.json")
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
    for experiment in [POLICY, WEIGHTS] {
        let (one, two) = (temp(&format!("{}-t1", name(experiment))), temp(&format!("{}-t2", name(experiment))));
        evolve(experiment, &one, &["--threads", "1"]);
        evolve(experiment, &two, &["--threads", "2"]);
        assert_eq!(outcome(experiment, &one), outcome(experiment, &two), "{experiment}");
        assert_eq!(read(&one, "log.jsonl").lines().count(), 3);
        for d in [one, two] {
            std::fs::remove_dir_all(d).ok();
        }
    }
}

/// The weights run coevolves openings: every generation logs its problem
/// population, and the checkpoint holds it.
#[test]
fn hillis_coevolution_logs_and_keeps_its_problems() {
    let dir = temp("hillis");
    evolve(WEIGHTS, &dir, &[]);
    for line in read(&dir, "log.jsonl").lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a JSON record");
        let problems = &record["problems"];
        let solved = problems["solved"].as_f64().expect("solved");
        assert!((0.0..=1.0).contains(&solved), "{record}");
        assert!(problems["best"].as_f64().is_some_and(|b| (0.0..=2.0).contains(&b)), "{record}");
        let length = problems["mean_length"].as_f64().expect("mean length");
        assert!((1.0..=10.0).contains(&length), "{record}");
        // (random 2) and the Hillis games: (8 solvers + 6 problems) × 2.
        assert_eq!(record["games"], 8 * 2 + (8 + 6) * 2, "{record}");
    }
    let cp: serde_json::Value = serde_json::from_str(&read(&dir, "checkpoint.json")).expect("checkpoint");
    let problems = cp["problems"].as_array().expect("problems");
    assert_eq!(problems.len(), 6);
    assert!(problems.iter().all(|p| p.as_array().is_some_and(|p| (1..=10).contains(&p.len()))), "{problems:?}");
    // Runs without Hillis log no problems and keep none.
    let policy = temp("no-hillis");
    evolve(POLICY, &policy, &[]);
    assert!(!read(&policy, "log.jsonl").contains("problems"));
    assert!(!read(&policy, "checkpoint.json").contains("problems"));
    for d in [dir, policy] {
        std::fs::remove_dir_all(d).ok();
    }
}

/// Champions are readable `(policy ...)` and `(weights ...)` programs that
/// `check` accepts, `play` plays and the REPL evaluates.
#[test]
fn champions_check_play_and_evaluate_in_the_repl() {
    for (experiment, kind) in [(POLICY, "policy"), (WEIGHTS, "weights")] {
        let dir = temp(&format!("{}-champ", name(experiment)));
        evolve(experiment, &dir, &[]);
        let champ = dir.join(format!("champions/{}.sg", name(experiment)));
        let champ_s = champ.to_str().expect("utf-8");
        let program = format!("{}-champion", name(experiment));
        let (code, stdout, stderr) = stratagem(&["check", champ_s]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.contains(&format!("{kind} {program}")), "{stdout}");
        let text = std::fs::read_to_string(&champ).expect("champion");
        assert!(text.contains(&format!("({kind} {program}")), "{text}");
        for engine in ["--engine=jit", "--engine=interp"] {
            let spec = format!("gp:{champ_s}:{program}:alphabeta:1");
            let (code, stdout, stderr) = stratagem(&[
                "play", "--game", "morris", "--a", &spec, "--b", "random", "--games", "4", "--format", "json", engine,
            ]);
            assert_eq!(code, 0, "{stderr}");
            let json: serde_json::Value = serde_json::from_str(&stdout).expect("json");
            assert_eq!(json["games"], 4);
        }
        let script = format!(":load {champ_s}\n:game morris\n:eval {program}\n:rank {program}\n");
        let mut child = Command::new(env!("CARGO_BIN_EXE_stratagem"))
            .arg("repl")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn repl");
        child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("write script");
        let out = child.wait_with_output().expect("repl output");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains(" : F"), "{stdout}");
        assert!(stdout.contains(&format!("ranked by `{program}`")), "{stdout}");
        std::fs::remove_dir_all(dir).ok();
    }
}

/// A run killed right after its N-th write, for every N, then resumed, ends
/// with exactly the files of the uninterrupted run.
#[test]
fn a_kill_after_any_write_then_resume_gives_the_uninterrupted_run() {
    for experiment in [POLICY, WEIGHTS] {
        let whole = temp(&format!("{}-whole", name(experiment)));
        evolve(experiment, &whole, &[]);
        let expected = outcome(experiment, &whole);
        let mut n = 1;
        loop {
            let dir = temp(&format!("{}-kill-{n}", name(experiment)));
            let d = dir.to_str().expect("utf-8");
            let first = run_env(&["evolve", experiment, "--out", d], Some((CRASH_HOOK, n.to_string())));
            if first.status.success() {
                assert!(n > 8, "only {} writes?", n - 1);
                std::fs::remove_dir_all(dir).ok();
                break;
            }
            assert_eq!(first.status.code(), Some(137), "{}", String::from_utf8_lossy(&first.stderr));
            let resumed = run_env(&["evolve", experiment, "--resume", d], None);
            assert!(resumed.status.success(), "after write {n}: {}", String::from_utf8_lossy(&resumed.stderr));
            assert_eq!(outcome(experiment, &dir), expected, "{experiment} killed after write {n}");
            std::fs::remove_dir_all(dir).ok();
            n += 1;
            assert!(n < 100, "the run never finished");
        }
        std::fs::remove_dir_all(whole).ok();
    }
}

/// Resuming from the checkpoint `cp` fails with an error that contains `why`.
fn resume_refuses(experiment: &str, dir: &Path, cp: &serde_json::Value, why: &str) {
    std::fs::write(dir.join("checkpoint.json"), cp.to_string()).expect("write checkpoint");
    let (code, _, stderr) = stratagem(&["evolve", experiment, "--resume", dir.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{why}: {stderr}");
    let stderr = stderr.replace('│', " ").split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(stderr.contains(why), "missing `{why}` in:\n{stderr}");
}

#[test]
fn checkpoints_of_policies_weights_and_problems_are_read_strictly() {
    let dir = temp("strict-weights");
    evolve(WEIGHTS, &dir, &["--stop-after", "1"]);
    let good: serde_json::Value = serde_json::from_str(&read(&dir, "checkpoint.json")).expect("checkpoint");
    let with = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut cp = good.clone();
        f(&mut cp);
        cp
    };
    let member = good["population"][0].as_str().expect("program").to_owned();
    let reordered = member.replacen("FriendlyPieceCount", "X", 1).replacen("EnemyPieceCount", "FriendlyPieceCount", 1);
    let reordered = reordered.replacen('X', "EnemyPieceCount", 1);
    resume_refuses(WEIGHTS, &dir, &with(&|cp| cp["population"][0] = reordered.clone().into()), "its terms are not");
    let nonzero = member.replace("(PieceCount 0.0)", "(PieceCount 0.5)");
    resume_refuses(WEIGHTS, &dir, &with(&|cp| cp["population"][0] = nonzero.clone().into()), "its terms are not");
    let tree = "(individual g0 (primset morris) (tree eval Mobility))";
    resume_refuses(WEIGHTS, &dir, &with(&|cp| cp["population"][0] = tree.into()), "it is not an `(weights ...)`");
    resume_refuses(
        WEIGHTS,
        &dir,
        &with(&|cp| cp["problems"].as_array_mut().expect("problems").truncate(2)),
        "holds 2 problems, but the experiment's problem population is 6",
    );
    let long = serde_json::Value::from(vec![1u32; 11]);
    resume_refuses(WEIGHTS, &dir, &with(&|cp| cp["problems"][0] = long.clone()), "problem 0 of 11 plies");
    let no_problems = with(&|cp| {
        cp.as_object_mut().expect("object").remove("problems");
    });
    resume_refuses(WEIGHTS, &dir, &no_problems, "holds no problems, but the experiment coevolves them");
    resume_refuses(WEIGHTS, &dir, &with(&|cp| cp["problems"] = serde_json::json!([])), "empty problem population");
    std::fs::remove_dir_all(&dir).ok();

    let dir = temp("strict-policy");
    evolve(POLICY, &dir, &["--stop-after", "1"]);
    let good: serde_json::Value = serde_json::from_str(&read(&dir, "checkpoint.json")).expect("checkpoint");
    let with = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut cp = good.clone();
        f(&mut cp);
        cp
    };
    let many = "(policy g0 (primset morris) (rule FirstPhaseCheck One) (rule FirstPhaseCheck One) \
                (rule FirstPhaseCheck One) (rule FirstPhaseCheck One) (default Mobility))";
    resume_refuses(
        POLICY,
        &dir,
        &with(&|cp| cp["population"][0] = many.into()),
        "it has 4 rules, the experiment allows 3",
    );
    let untyped = "(policy g0 (primset morris) (rule Mobility One) (default Mobility))";
    resume_refuses(POLICY, &dir, &with(&|cp| cp["population"][0] = untyped.into()), "population member 0");
    let problems = with(&|cp| cp["problems"] = serde_json::json!([[1, 2]]));
    resume_refuses(POLICY, &dir, &problems, "holds problems, but the experiment has none");
    std::fs::remove_dir_all(&dir).ok();
}

/// The shipped policy and weights experiments check and say what they evolve.
#[test]
fn shipped_policy_and_weights_experiments_check() {
    for (file, evolves) in [
        ("programs/experiments/morris-policy.sg", "evolves=policy(max-rules=4)"),
        ("programs/experiments/morris-weights.sg", "evolves=weights(terms=13)"),
    ] {
        let (code, stdout, stderr) = stratagem(&["check", file]);
        assert_eq!(code, 0, "{file}: {stderr}");
        assert!(stdout.contains(evolves), "{stdout}");
    }
}
