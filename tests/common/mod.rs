//! Helpers the CLI-driven test files share: running the binary, temporary
//! directories, reading outputs. Each test file uses some of them.
#![allow(dead_code)]

pub mod ggp;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The test hook that makes `evolve` exit right after its N-th write.
pub const CRASH_HOOK: &str = "STRATAGEM_TEST_CRASH_AFTER_WRITES";

/// Runs the binary with `args` (and one environment variable, if given);
/// fails the test if it panicked.
pub fn run_env(args: &[&str], env: Option<(&str, String)>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_stratagem"));
    cmd.args(args);
    if let Some((k, v)) = env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run stratagem");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "stratagem {args:?} panicked:\n{stderr}");
    out
}

/// Exit code, stdout and stderr of the binary run with `args`.
pub fn stratagem(args: &[&str]) -> (i32, String, String) {
    let out = run_env(args, None);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

/// Diagnostics as one line: miette wraps long messages to the terminal width.
pub fn flat(text: &str) -> String {
    text.replace('│', " ").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An empty temporary directory path for this test file and process.
pub fn temp(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("stratagem-{}-{}-{name}", env!("CARGO_CRATE_NAME"), std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    dir
}

/// A file of a run's output directory.
pub fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{}/{file}: {e}", dir.display()))
}

/// The names of temporary files left in a run's directory or its champions
/// folder (an atomic write that did not finish), joined by spaces.
pub fn stray_temporary_files(dir: &Path) -> String {
    let stray: Vec<String> = [dir.to_path_buf(), dir.join("champions")]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).expect("list").filter_map(Result::ok))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".tmp"))
        .collect();
    stray.join(" ")
}

/// `n` rows of 10 feature values where semantics differ: one value in
/// `one_in` drawn from `specials` (±0, ±∞, NaN, tiny and huge values), the
/// rest uniform in [-4, 4), from the stream `(seed, path)`.
pub fn rows_with_specials(n: usize, specials: &[f64], one_in: u32, seed: u64, path: &[u64]) -> Vec<Vec<f64>> {
    use rand::RngExt;
    let mut rng = stratagem::rng::stream(seed, path);
    (0..n)
        .map(|_| {
            (0..10)
                .map(|_| {
                    if rng.random_range(0..one_in) == 0 {
                        specials[rng.random_range(0..specials.len())]
                    } else {
                        rng.random_range(-4.0..4.0)
                    }
                })
                .collect()
        })
        .collect()
}

/// Compiles and links the C files `units` (with libm) into the program
/// `exe` with the system C compiler; fails the test with its messages.
pub fn cc_program(exe: &Path, units: &[PathBuf]) {
    let out = Command::new("cc").args(["-O2", "-o"]).arg(exe).args(units).arg("-lm").output().expect("run cc");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
