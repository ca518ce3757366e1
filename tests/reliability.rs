//! Bad input as a fuzzing campaign found it: every case must end with exit 1
//! and a diagnostic naming what was wrong (and the file, where there is one),
//! within seconds, never a panic, a hang or unbounded memory.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs the binary with `stdin`; returns exit code, stdout and stderr.
fn run(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    use std::io::Write;
    let clock = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_stratagem"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run stratagem");
    let mut input = child.stdin.take().expect("stdin");
    let _ = input.write_all(stdin);
    drop(input);
    let out = child.wait_with_output().expect("output");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "stratagem {args:?} panicked:\n{stderr}");
    assert!(clock.elapsed() < Duration::from_secs(20), "stratagem {args:?} took {:?}", clock.elapsed());
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
}

fn stratagem(args: &[&str]) -> (i32, String, String) {
    run(args, b"")
}

/// A scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stratagem-reliability-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write input");
    path.display().to_string()
}

fn assert_refused(args: &[&str], stdin: &[u8], wanted: &[&str]) -> String {
    let (code, _, stderr) = run(args, stdin);
    assert_eq!(code, 1, "stratagem {args:?} should fail:\n{stderr}");
    // Messages wrap at the terminal width: compare with the wrapping undone.
    let flat = stderr.split_whitespace().filter(|w| *w != "│").collect::<Vec<_>>().join(" ");
    for w in wanted {
        assert!(flat.contains(w), "stratagem {args:?}: no `{w}` in\n{stderr}");
    }
    assert!(stderr.lines().all(|l| l.chars().count() < 300), "long lines are windowed:\n{stderr}");
    stderr
}

#[test]
fn diagnostics_far_along_a_line_render() {
    let dir = scratch("columns");
    let spaces = " ".repeat(70_000);
    let program = write(&dir, "p.sg", format!("{spaces})"));
    assert_refused(&["check", &program], b"", &["p.sg:1:70001]", "closes nothing"]);

    let position = format!("{spaces}W:Wz9");
    for game in ["lose-checkers", "morris"] {
        assert_refused(&["perft", "--game", game, "--depth", "1", "--position", &position], b"", &["--position"]);
        assert_refused(&["play", "--game", game, "--games", "1", "--position", &position], b"", &["--position"]);
    }

    let demo = "programs/examples/demo.sg";
    let missing = write(&dir, "missing.csv", format!("x0,{spaces}x1)\n1,2\n"));
    assert_refused(&["eval", demo, "--individual", "demo", "--rows", &missing], b"", &["header of", "missing.csv"]);
    let rows = write(&dir, "rows.csv", format!("x0,x1,{spaces}x0\n1,2,3\n"));
    assert_refused(&["eval", demo, "--individual", "demo", "--rows", &rows], b"", &["rows.csv:1:7]", "twice"]);
    let trees = write(&dir, "trees.sexp", format!("arith 3 0 (+ x0 {spaces}x99)\n"));
    assert_refused(&["batch", "--trees", &trees, "--rows", "programs/examples/demo.csv"], b"", &["trees.sexp"]);
    assert_refused(&["batch", "--trees", &trees, "--rows", &rows], b"", &["trees.sexp"]);
}

#[test]
fn many_diagnostics_print_quickly_and_are_capped() {
    let dir = scratch("many");
    let floats = write(&dir, "floats.sg", "1.5 ".repeat(16_384));
    let foo = write(&dir, "foo.sg", "(foo)\n".repeat(40_000));
    let tokens = write(&dir, "tokens.sg", "# ".repeat(500_000));
    for file in [&floats, &foo, &tokens] {
        let stderr = assert_refused(&["check", file], b"", &["more diagnostics in", file.as_str()]);
        assert!(stderr.len() < 100_000, "{} bytes of diagnostics", stderr.len());
    }
    let trees = write(&dir, "trees.sexp", "arith 3 0 (+ x0 zz)\n".repeat(50_000));
    let rows = "programs/examples/demo.csv";
    assert_refused(&["batch", "--trees", &trees, "--rows", rows], b"", &["more diagnostics in", "trees.sexp"]);
}

#[test]
fn large_valid_programs_check_in_linear_time() {
    // Names were once checked for duplicates by a scan per definition.
    let dir = scratch("large");
    let forms: String =
        (0..50_000).map(|i| format!("(individual a{i} (primset arith) (tree eval (+ x0 {i}.5)))\n")).collect();
    let file =
        write(&dir, "many.sg", format!("(import arith)\n{forms}(individual a7 (primset arith) (tree eval x0))\n"));
    let stderr = assert_refused(&["check", &file], b"", &["`a7` is defined twice", "many.sg"]);
    assert!(stderr.len() < 10_000, "{stderr}");
}

#[test]
fn endless_and_oversized_inputs_are_refused() {
    let dir = scratch("sizes");
    assert_refused(&["check", "/dev/zero"], b"", &["/dev/zero", "--limit input-size="]);
    assert_refused(&["check", dir.to_str().expect("utf-8 path")], b"", &["directory"]);
    let demo = "programs/examples/demo.sg";
    let limit = ["--limit", "csv-size=1M"];
    let eval = ["eval", demo, "--individual", "demo", "--rows", "/dev/zero"];
    assert_refused(&[&eval[..], &limit[..]].concat(), b"", &["/dev/zero", "--limit csv-size="]);
    assert_refused(&["batch", "--trees", "/dev/zero", "--rows", "programs/examples/demo.csv"], b"", &["/dev/zero"]);
    // The limits themselves: a lower one refuses a file the default accepts.
    let (code, _, _) = stratagem(&["check", demo]);
    assert_eq!(code, 0);
    assert_refused(&["check", demo, "--limit", "input-size=10"], b"", &["input-size", "demo.sg"]);
    assert_refused(&["check", demo, "--limit", "input-sise=10"], b"", &["did you mean `input-size`"]);
    let deep = write(&dir, "deep.sg", format!("{}{}", "(".repeat(300), ")".repeat(300)));
    assert_refused(&["check", &deep], b"", &["deep.sg", "nested"]);
    let (code, _, stderr) = stratagem(&["check", &deep, "--limit", "nesting=400"]);
    assert!(!stderr.contains("nested more than"), "the nesting limit can be raised:\n{stderr}");
    assert_eq!(code, 1, "the file is still no program");
}

#[test]
fn huge_requests_are_refused_with_the_limit_to_raise() {
    assert_refused(&["play", "--game", "morris", "--games", "18446744073709551615"], b"", &["--limit games="]);
    assert_refused(&["play", "--game", "morris", "--games", "4294967296"], b"", &["--limit games="]);
    assert_refused(&["perft", "--game", "morris", "--depth", "41"], b"", &["--limit perft-depth="]);
    assert_refused(&["play", "--game", "morris", "--a", "alphabeta:33:material"], b"", &["--limit search-depth="]);
    assert_refused(&["play", "--game", "morris", "--a", "alphabeta:0:material"], b"", &["not a search depth"]);
}

#[test]
fn a_match_streams_its_games_without_memory_per_game() {
    let dir = scratch("record");
    let record = dir.join("games.jsonl");
    let record = record.to_str().expect("utf-8 path");
    let (code, stdout, stderr) = stratagem(&["play", "--game", "morris", "--games", "40000", "--record", record]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("40000 games"), "{stdout}");
    let text = std::fs::read_to_string(record).expect("record");
    assert_eq!(text.lines().count(), 40_000);
    let last: serde_json::Value = serde_json::from_str(text.lines().last().expect("a line")).expect("json");
    assert_eq!(last["game"], 39_999, "games are recorded in order");
}

#[cfg(unix)]
#[test]
fn writes_keep_links_and_modes_and_refuse_devices() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("writes");
    assert_refused(&["play", "--game", "morris", "--games", "2", "--record", "/dev/full"], b"", &["/dev/full"]);
    assert_refused(&["play", "--game", "morris", "--games", "2", "--record", "/dev/null"], b"", &["regular file"]);

    let real = write(&dir, "real.sg", "(import arith)\n(individual   a (primset arith) (tree eval x0))\n");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let link = dir.join("link.sg");
    std::os::unix::fs::symlink("real.sg", &link).expect("symlink");
    let (code, _, stderr) = stratagem(&["fmt", link.to_str().expect("utf-8 path")]);
    assert_eq!(code, 0, "{stderr}");
    assert!(std::fs::symlink_metadata(&link).expect("meta").file_type().is_symlink(), "the link stays a link");
    let text = std::fs::read_to_string(&real).expect("read");
    assert!(text.contains("(individual a "), "the target is formatted:\n{text}");
    assert_eq!(std::fs::metadata(&real).expect("meta").permissions().mode() & 0o777, 0o755, "mode kept");
}

#[test]
fn scripted_repl_sessions_survive_bad_lines_and_report_failure() {
    let mut input = b":game morris\n".to_vec();
    input.extend_from_slice(b"\xff\xfe\n");
    input.extend_from_slice(format!("{})\n", " ".repeat(70_000)).as_bytes());
    input.extend_from_slice(b"(Plus One One)\n");
    let (code, stdout, stderr) = run(&["repl"], &input);
    assert_eq!(code, 1, "a script with failed inputs exits 1:\n{stderr}");
    assert!(stdout.contains("not UTF-8"), "{stdout}");
    assert!(stdout.contains("closes nothing"), "{stdout}");
    assert!(stdout.ends_with("2.0 : F\n"), "the session goes on after bad lines:\n{stdout}");
    let (code, _, _) = run(&["repl"], b":game morris\n(Plus One One)\n");
    assert_eq!(code, 0, "a clean script exits 0");
}
