//! `stratagem evolve` under `mpirun` (the `mpi` feature; needs Open MPI's
//! `mpirun` on the PATH): 2 and 4 ranks give the one-process run's log,
//! final.json and champion byte for byte, for Ant Wars (fitnessless
//! selection on islands, the monitor, the round robin), the FreeCell GA
//! (puzzle solves), a game experiment validated by a final round and
//! covering coevolution on a GDL game (students' games, the teachers'
//! games against random evaluation); a run
//! checkpointed under MPI resumes in one process and the other way round; a
//! rank killed mid-run ends the job within seconds, and `--resume` finishes
//! it to the uninterrupted run.
//!
//!   cargo test --release --features mpi --test mpi
#![cfg(feature = "mpi")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{flat, read, stratagem, temp};

const ANTS: &str = "tests/data/evolve/tiny-ants.sg";
const FREECELL: &str = "tests/data/evolve/tiny-freecell.sg";
const GAME: &str = "tests/data/evolve/tiny.sg";
const CCA: &str = "tests/data/evolve/tiny-cca.sg";

/// No run of these tests takes long; one that does is a hang.
const DEADLINE: Duration = Duration::from_secs(120);

/// `mpirun -np N stratagem ARGS`, allowed as root and on more ranks than
/// cores, with `mark` in its environment (to find its ranks).
fn mpirun_command(np: usize, args: &[&str], mark: &str) -> Command {
    let mut cmd = Command::new("mpirun");
    cmd.args(["-np", &np.to_string(), env!("CARGO_BIN_EXE_stratagem")])
        .args(args)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1")
        .env("STRATAGEM_TEST_MPI_MARK", mark)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Waits for `child`, failing the test past `DEADLINE`.
fn finish(mut child: std::process::Child, what: &str) -> Output {
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > DEADLINE {
            child.kill().ok();
            panic!("{what} did not end within {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

fn mpirun(np: usize, args: &[&str]) -> Output {
    let child = mpirun_command(np, args, "none").spawn().expect("run mpirun (is Open MPI installed?)");
    finish(child, &format!("mpirun -np {np} {args:?}"))
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn evolve_mpi(np: usize, file: &str, out: &Path, extra: &[&str]) -> String {
    let mut args = vec!["evolve", file, "--out", out.to_str().expect("utf-8")];
    args.extend_from_slice(extra);
    let o = mpirun(np, &args);
    assert!(o.status.success(), "mpirun -np {np} {args:?}: {}", text(&o.stderr));
    text(&o.stdout)
}

fn evolve_one(file: &str, out: &Path, extra: &[&str]) {
    let mut args = vec!["evolve", file, "--out", out.to_str().expect("utf-8")];
    args.extend_from_slice(extra);
    let (code, _, stderr) = stratagem(&args);
    assert_eq!(code, 0, "{stderr}");
}

/// The files that must not depend on how a run was spread: the log,
/// final.json (when the experiment plays a final round) and the champion,
/// with the run's own directory taken out of the champion's usage line.
fn outputs(dir: &Path, name: &str) -> Vec<(String, String)> {
    let mut files = vec![("log.jsonl".to_owned(), read(dir, "log.jsonl"))];
    if dir.join("final.json").exists() {
        files.push(("final.json".to_owned(), read(dir, "final.json")));
    }
    let champion = format!("champions/{name}.sg");
    let text = read(dir, &champion).replace(dir.to_str().unwrap_or(""), "");
    files.push((champion, text));
    files
}

/// The numbers after `label` on the line rank 0 prints at the end of a run
/// (up to the next `;`), one per rank.
fn per_rank(stdout: &str, label: &str) -> Vec<u64> {
    let line = stdout.lines().find(|l| l.contains(label)).unwrap_or_else(|| panic!("no `{label}` in {stdout}"));
    let after = line.split(label).nth(1).unwrap_or("");
    after.split(';').next().unwrap_or("").split_whitespace().filter_map(|c| c.parse().ok()).collect()
}

fn same_on_two_and_four_ranks(file: &str, name: &str, has_final: bool) {
    let one = temp(&format!("{name}-1"));
    evolve_one(file, &one, &["--threads", "1"]);
    let expected = outputs(&one, name);
    assert_eq!(expected.iter().any(|(f, _)| f == "final.json"), has_final);
    for (np, threads) in [(2, "2"), (4, "1")] {
        let dir = temp(&format!("{name}-{np}"));
        let stdout = evolve_mpi(np, file, &dir, &["--threads", threads]);
        // Rank 0 alone reports, and every rank did part of the work.
        assert_eq!(stdout.matches("experiment ").count(), 1, "{stdout}");
        let counts = per_rank(&stdout, "tasks computed by rank:");
        let line = stdout.lines().find(|l| l.contains("tasks computed by rank:")).unwrap_or("");
        assert_eq!(counts.len(), np, "{line}");
        assert!(counts.iter().all(|&c| c > 0), "a rank did nothing: {line}");
        assert_eq!(outputs(&dir, name), expected, "{np} ranks");
        std::fs::remove_dir_all(dir).ok();
    }
    std::fs::remove_dir_all(one).ok();
}

#[test]
fn ants_on_two_and_four_ranks_are_the_one_process_run() {
    same_on_two_and_four_ranks(ANTS, "tiny-ants", false);
}

/// Islands live on ranks: with 4 islands, 2 ranks breed two each and 3
/// ranks breed two, one and one (island i on rank i mod 3), migrants
/// passing between them as messages; with 2 islands on 4 ranks, ranks 0
/// and 1 breed them and ranks 2 and 3 help play their matches. Every run
/// is the one-process run.
#[test]
fn islands_are_bred_on_their_ranks_and_the_run_is_the_one_process_run() {
    let dir = temp("four-islands");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let text = std::fs::read_to_string(ANTS).expect("tiny-ants.sg").replace("(islands 2 ", "(islands 4 ");
    let file = dir.join("four-islands.sg");
    std::fs::write(&file, text.replace("(experiment tiny-ants", "(experiment four-islands")).expect("write");
    let file = file.to_str().expect("utf-8");
    let one = dir.join("one");
    evolve_one(file, &one, &["--threads", "1"]);
    let expected = outputs(&one, "four-islands");
    // Each island is bred once a generation logged.
    let bred = read(&one, "log.jsonl").lines().count() as u64;
    for (np, shares) in [(2, vec![2, 2]), (3, vec![2, 1, 1])] {
        let out = dir.join(format!("ranks-{np}"));
        let stdout = evolve_mpi(np, file, &out, &["--threads", "1"]);
        let islands: Vec<u64> = shares.iter().map(|s| s * bred).collect();
        assert_eq!(per_rank(&stdout, "island generations bred by rank:"), islands, "{np} ranks: {stdout}");
        assert_eq!(outputs(&out, "four-islands"), expected, "{np} ranks");
    }
    let out = dir.join("two-on-four");
    let stdout = evolve_mpi(4, ANTS, &out, &["--threads", "1"]);
    assert_eq!(per_rank(&stdout, "island generations bred by rank:"), vec![bred, bred, 0, 0], "{stdout}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn freecell_on_two_and_four_ranks_is_the_one_process_run() {
    same_on_two_and_four_ranks(FREECELL, "tiny-freecell", false);
}

#[test]
fn a_validated_game_run_on_two_and_four_ranks_is_the_one_process_run() {
    same_on_two_and_four_ranks(GAME, "tiny", true);
}

/// Covering coevolution farms each student's games (and, at the end, the
/// teachers' games against random evaluation): every file of the run is
/// the one-process run's.
#[test]
fn covering_coevolution_on_two_and_four_ranks_is_the_one_process_run() {
    let files = ["log.jsonl", "cca.json", "versus-random.json", "champions/tiny-cca-xplayer.sg"];
    let contents = |dir: &Path| -> Vec<String> {
        files.iter().map(|f| read(dir, f).replace(dir.to_str().unwrap_or(""), "")).collect()
    };
    let one = temp("tiny-cca-1");
    evolve_one(CCA, &one, &["--threads", "1"]);
    let expected = contents(&one);
    for (np, threads) in [(2, "2"), (4, "1")] {
        let dir = temp(&format!("tiny-cca-{np}"));
        let stdout = evolve_mpi(np, CCA, &dir, &["--threads", threads]);
        let counts = per_rank(&stdout, "tasks computed by rank:");
        let line = stdout.lines().find(|l| l.contains("tasks computed by rank:")).unwrap_or("");
        assert_eq!(counts.len(), np, "{line}");
        assert_eq!(contents(&dir), expected, "{np} ranks");
        std::fs::remove_dir_all(dir).ok();
    }
    std::fs::remove_dir_all(one).ok();
}

#[test]
fn checkpoints_resume_across_mpi_and_one_process_both_ways() {
    let whole = temp("resume-whole");
    evolve_one(ANTS, &whole, &[]);
    let expected = outputs(&whole, "tiny-ants");
    // Begun under MPI, finished in one process.
    let a = temp("resume-a");
    let first = evolve_mpi(2, ANTS, &a, &["--stop-after", "1"]);
    assert!(first.contains("stopped early"), "{first}");
    let (code, _, stderr) = stratagem(&["evolve", ANTS, "--resume", a.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(outputs(&a, "tiny-ants"), expected);
    // Begun in one process, finished on 4 ranks.
    let b = temp("resume-b");
    evolve_one(ANTS, &b, &["--stop-after", "2"]);
    let o = mpirun(4, &["evolve", ANTS, "--resume", b.to_str().expect("utf-8")]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(outputs(&b, "tiny-ants"), expected);
    for d in [whole, a, b] {
        std::fs::remove_dir_all(d).ok();
    }
}

#[test]
fn a_failing_run_ends_every_rank_with_its_message() {
    let dir = temp("exists");
    evolve_one(FREECELL, &dir, &[]);
    // The directory holds a run: every rank refuses it, none waits.
    let o = mpirun(2, &["evolve", FREECELL, "--out", dir.to_str().expect("utf-8")]);
    assert!(!o.status.success());
    let stderr = text(&o.stderr);
    assert!(stderr.contains("already holds a run"), "{stderr}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn ranks_that_disagree_on_the_run_end_the_job() {
    let dir = temp("disagree");
    let d = dir.to_str().expect("utf-8");
    let bin = env!("CARGO_BIN_EXE_stratagem");
    // Two programs in one job (MPMD): rank 1 runs another seed.
    let mut cmd = mpirun_command(1, &["evolve", ANTS, "--seed", "1", "--out", d], "none");
    cmd.args([":", "-np", "1", bin, "evolve", ANTS, "--seed", "2", "--out", d]);
    let o = finish(cmd.spawn().expect("run mpirun"), "mpirun with two seeds");
    assert!(!o.status.success());
    let stderr = text(&o.stderr);
    assert!(
        flat(&stderr)
            .contains("rank 1 of 2: this rank of the MPI job read another experiment, seed or checkpoint than rank 0"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// The processes whose environment holds `STRATAGEM_TEST_MPI_MARK=mark`
/// and `OMPI_COMM_WORLD_RANK=rank`.
fn ranks_marked(mark: &str, rank: usize) -> Vec<u32> {
    let want = [format!("STRATAGEM_TEST_MPI_MARK={mark}"), format!("OMPI_COMM_WORLD_RANK={rank}")];
    std::fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()))
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|env| {
                let vars: Vec<&[u8]> = env.split(|&b| b == 0).collect();
                want.iter().all(|w| vars.contains(&w.as_bytes()))
            })
        })
        .collect()
}

/// tiny-ants over more generations, long enough to be killed mid-run.
fn longer_ants(dir: &Path) -> PathBuf {
    let source = std::fs::read_to_string(ANTS).expect("tiny-ants");
    let longer = source.replace("(generations 3)", "(generations 40)");
    assert_ne!(longer, source);
    let path = dir.join("longer-ants.sg");
    std::fs::write(&path, longer).expect("write");
    path
}

#[test]
fn a_killed_rank_ends_the_run_within_seconds_and_resume_finishes_it() {
    let files = temp("kill-files");
    std::fs::create_dir_all(&files).expect("dir");
    let exp = longer_ants(&files);
    let exp = exp.to_str().expect("utf-8");
    let whole = temp("kill-whole");
    evolve_one(exp, &whole, &[]);
    let dir = temp("kill-run");
    let mark = dir.display().to_string();
    let child =
        mpirun_command(2, &["evolve", exp, "--out", &mark, "--threads", "1"], &mark).spawn().expect("run mpirun");
    // Wait for a few generations, then kill rank 1.
    let start = Instant::now();
    while std::fs::read_to_string(dir.join("log.jsonl")).map_or(0, |l| l.lines().count()) < 3 {
        assert!(start.elapsed() < DEADLINE, "the run wrote no log");
        std::thread::sleep(Duration::from_millis(5));
    }
    let victims = ranks_marked(&mark, 1);
    assert_eq!(victims.len(), 1, "one process is rank 1: {victims:?}");
    let killed = Command::new("kill").args(["-9", &victims[0].to_string()]).status().expect("kill");
    assert!(killed.success());
    let at = Instant::now();
    let o = finish(child, "mpirun after a rank was killed");
    let took = at.elapsed();
    assert!(!o.status.success(), "the run went on without rank 1");
    assert!(took < Duration::from_secs(20), "the job took {took:?} to end");
    let stderr = text(&o.stderr);
    assert!(stderr.contains("rank 1") && stderr.contains("signal 9"), "{stderr}");
    let done = read(&dir, "log.jsonl").lines().count();
    assert!(done < 40, "the run finished before the kill ({done} generations)");
    // The checkpoint of the last generation finished is there to resume from.
    let (code, _, stderr) = stratagem(&["evolve", exp, "--resume", &mark]);
    assert_eq!(code, 0, "{stderr}");
    let name = "tiny-ants";
    assert_eq!(outputs(&dir, name), outputs(&whole, name));
    for d in [files, whole, dir] {
        std::fs::remove_dir_all(d).ok();
    }
}
