//! Interrupted runs of every runner: covering coevolution of networks and of
//! trees, evolution by duels (Ant Wars) and on puzzles (FreeCell), killed
//! right after each of their file writes (the test hook of
//! src/evolve/output.rs), then resumed, end with exactly the files of the
//! uninterrupted run (`tests/evolve.rs` does the same for games).

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{CRASH_HOOK, run_env, stray_temporary_files, temp};

/// Every file under `dir` by its relative path, with its text (the
/// directory's own path, which champions record, as `DIR`), but the
/// timings (wall-clock seconds, which no two runs share: `timing.jsonl`, and
/// the checkpoint, which carries them; what is derived from it is compared).
fn files(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).expect("the run's directory") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                todo.push(path);
                continue;
            }
            let name = path.strip_prefix(dir).expect("inside").to_string_lossy().into_owned();
            if name != "timing.jsonl" && name != "checkpoint.json" {
                let text = String::from_utf8_lossy(&std::fs::read(&path).expect("a file of the run")).into_owned();
                out.insert(name, text.replace(dir.to_str().expect("utf-8"), "DIR"));
            }
        }
    }
    out
}

fn names(files: &BTreeMap<String, String>) -> Vec<&str> {
    files.keys().map(String::as_str).collect()
}

fn killed_after_every_write_then_resumed(experiment: &str) {
    let stem = Path::new(experiment).file_stem().and_then(|s| s.to_str()).unwrap_or("run");
    let whole = temp(&format!("interrupted-{stem}-whole"));
    let out = run_env(&["evolve", experiment, "--out", whole.to_str().expect("utf-8")], None);
    assert!(out.status.success(), "{experiment}: {}", String::from_utf8_lossy(&out.stderr));
    let expected = files(&whole);
    let mut n = 1;
    loop {
        let dir = temp(&format!("interrupted-{stem}-{n}"));
        let d = dir.to_str().expect("utf-8");
        let first = run_env(&["evolve", experiment, "--out", d], Some((CRASH_HOOK, n.to_string())));
        if first.status.success() {
            assert!(n > 3, "{experiment}: only {} writes?", n - 1);
            std::fs::remove_dir_all(dir).ok();
            break;
        }
        assert_eq!(first.status.code(), Some(137), "{experiment}: {}", String::from_utf8_lossy(&first.stderr));
        // Every other time, the resume is killed too, after its first write.
        if n % 2 == 0 {
            let again = run_env(&["evolve", experiment, "--resume", d], Some((CRASH_HOOK, "1".into())));
            assert!(matches!(again.status.code(), Some(0 | 137)), "{}", String::from_utf8_lossy(&again.stderr));
        }
        let resumed = run_env(&["evolve", experiment, "--resume", d], None);
        assert!(resumed.status.success(), "{experiment} after write {n}: {}", String::from_utf8_lossy(&resumed.stderr));
        let got = files(&dir);
        assert_eq!(names(&got), names(&expected), "{experiment} killed after write {n}");
        for (name, text) in &expected {
            assert!(got[name] == *text, "{experiment} killed after write {n}: `{name}` differs:\n{}", got[name]);
        }
        assert_eq!(stray_temporary_files(&dir), "", "{experiment} after write {n}");
        std::fs::remove_dir_all(dir).ok();
        n += 1;
        assert!(n < 200, "{experiment}: the run never finished");
    }
    std::fs::remove_dir_all(whole).ok();
}

#[test]
fn covering_coevolution_of_networks_survives_a_kill_after_any_write() {
    killed_after_every_write_then_resumed("tests/data/evolve/tiny-cca.sg");
}

#[test]
fn covering_coevolution_of_trees_survives_a_kill_after_any_write() {
    killed_after_every_write_then_resumed("tests/data/evolve/tiny-cca-trees.sg");
}

#[test]
fn evolution_by_duels_survives_a_kill_after_any_write() {
    killed_after_every_write_then_resumed("tests/data/evolve/tiny-ants.sg");
}

#[test]
fn evolution_on_puzzles_survives_a_kill_after_any_write() {
    killed_after_every_write_then_resumed("tests/data/evolve/tiny-freecell.sg");
}

/// A disk that fills up (every file write past 4 KiB fails: `RLIMIT_FSIZE`,
/// with SIGXFSZ ignored so that the write reports the error) stops a run
/// with a message naming the file it could not write and exit status 1; the
/// files written before are intact, and `--resume` on a disk with room
/// finishes the run as if nothing had happened.
#[cfg(unix)]
#[test]
fn a_full_disk_stops_a_run_clearly_and_resume_finishes_it() {
    use std::os::unix::process::CommandExt;
    let experiment = "tests/data/evolve/tiny-ants.sg";
    let whole = temp("full-disk-whole");
    let out = run_env(&["evolve", experiment, "--out", whole.to_str().expect("utf-8")], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dir = temp("full-disk");
    let d = dir.to_str().expect("utf-8");
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_stratagem"));
    command.args(["evolve", experiment, "--out", d]);
    // SAFETY: between fork and exec, only async-signal-safe calls.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit { rlim_cur: 4096, rlim_max: 4096 };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) }
        });
    }
    let full = command.output().expect("stratagem runs");
    let stderr = String::from_utf8_lossy(&full.stderr);
    assert_eq!(full.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot write") && stderr.contains(d), "{stderr}");
    let stray = std::fs::read_dir(&dir).expect("the run's directory").filter_map(Result::ok);
    let stray: Vec<_> = stray.map(|e| e.file_name()).filter(|f| f.to_string_lossy().ends_with(".tmp")).collect();
    assert!(stray.is_empty(), "a failed write leaves no temporary file: {stray:?}");
    let resumed = run_env(&["evolve", experiment, "--resume", d], None);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert_eq!(files(&dir), files(&whole));
    std::fs::remove_dir_all(dir).ok();
    std::fs::remove_dir_all(whole).ok();
}

/// A read-only output directory: a resumed run that cannot write says so,
/// naming the directory, exits with status 1 and changes nothing; made
/// writable again, `--resume` finishes the run as if nothing had happened.
/// Modes do not bind root, so as root the resumed run is started as
/// `nobody` (from copies of the binary and the experiment that `nobody`
/// may read); a test user that is not root runs it as itself.
#[cfg(unix)]
#[test]
fn a_read_only_output_directory_is_reported_and_loses_nothing() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let set_mode = |path: &Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    };
    // The binary and the experiment, where `nobody` may read them (the
    // checkout may be in a directory only its owner can enter).
    let bin = temp("read-only-bin");
    std::fs::create_dir_all(&bin).expect("a directory for the binary");
    set_mode(&bin, 0o755);
    let exe = bin.join("stratagem");
    std::fs::copy(env!("CARGO_BIN_EXE_stratagem"), &exe).expect("copy the binary");
    set_mode(&exe, 0o755);
    let experiment = bin.join("tiny-ants.sg");
    std::fs::copy("tests/data/evolve/tiny-ants.sg", &experiment).expect("copy the experiment");
    set_mode(&experiment, 0o644);
    let experiment = experiment.to_str().expect("utf-8");
    let whole = temp("read-only-whole");
    let out = run_env(&["evolve", experiment, "--out", whole.to_str().expect("utf-8")], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dir = temp("read-only");
    let d = dir.to_str().expect("utf-8");
    let first = run_env(&["evolve", experiment, "--out", d], Some((CRASH_HOOK, "3".into())));
    assert_eq!(first.status.code(), Some(137), "{}", String::from_utf8_lossy(&first.stderr));
    let before = files(&dir);
    // Readable by `nobody` whatever the umask; the directory read-only.
    let mut todo = vec![dir.clone()];
    while let Some(d) = todo.pop() {
        set_mode(&d, 0o755);
        for entry in std::fs::read_dir(&d).expect("the run's directory") {
            let path = entry.expect("an entry").path();
            if path.is_dir() { todo.push(path) } else { set_mode(&path, 0o644) }
        }
    }
    set_mode(&dir, 0o555);
    // SAFETY: geteuid has no preconditions.
    let as_root = unsafe { libc::geteuid() } == 0;
    let mut command = std::process::Command::new(&exe);
    command.args(["evolve", experiment, "--resume", d]);
    if as_root {
        // SAFETY: between fork and exec, only async-signal-safe calls.
        unsafe {
            command.pre_exec(|| {
                if libc::setgid(65534) == 0 && libc::setuid(65534) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
    }
    let refused = command.output().expect("stratagem runs");
    set_mode(&dir, 0o755);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot write") && stderr.contains(d), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(files(&dir), before, "a run that cannot write changes nothing");
    let resumed = run_env(&["evolve", experiment, "--resume", d], None);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert_eq!(files(&dir), files(&whole));
    assert_eq!(stray_temporary_files(&dir), "");
    for d in [dir, whole, bin] {
        std::fs::remove_dir_all(d).ok();
    }
}
