//! Data-driven tests: every `tests/data/<phase>/{ok,err}/NNN_name.sg` is run
//! through its phase and compared with `NNN_name.expected` beside it.
//!
//! - parse: ok files expect their canonical layout (`stratagem fmt`); err files
//!   expect the rendered read diagnostics.
//! - check: ok files expect one summary line per form (`stratagem check`); err
//!   files expect the rendered diagnostics.
//! - eval: each file has a `NNN_name.csv` beside it; the expected output lists,
//!   for every program in the file, the output of `stratagem eval` on every
//!   engine (the same expected text for all engines); err files expect the
//!   rendered diagnostics and exit code 1.
//!
//! Re-bless with `UPDATE_EXPECT=1 cargo test --test data_driven`.

mod common;
use common::stratagem;
use std::path::{Path, PathBuf};
use std::process::Command;

use stratagem::diagnostic::{FileId, Sources};
use stratagem::lang::Loader;
use stratagem::syntax::{lexer::comments, pretty::format_source, read};

/// The engines every eval case runs on; all must produce the expected text.
const ENGINES: &[&str] = &["interp", "jit"];

fn cases(phase: &str, kind: &str) -> Vec<PathBuf> {
    let dir = Path::new("tests/data").join(phase).join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "sg"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no cases in {}", dir.display());
    files
}

/// Compares `actual` with the case's expected file, or rewrites it when
/// UPDATE_EXPECT is set. Returns a failure description.
fn compare(case: &Path, actual: &str) -> Option<String> {
    let expected_path = case.with_extension("expected");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&expected_path, actual).expect("write expected file");
        return None;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    (expected != actual).then(|| format!("--- {}\n=== expected\n{expected}\n=== actual\n{actual}", case.display()))
}

fn run_phase(phase: &str, run: impl Fn(&Path, bool) -> String) {
    let mut failures = Vec::new();
    for kind in ["ok", "err"] {
        for case in cases(phase, kind) {
            let actual = run(&case, kind == "ok");
            failures.extend(compare(&case, &actual));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) differ (re-bless with UPDATE_EXPECT=1):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn parse() {
    run_phase("parse", |case, ok| {
        let mut sources = Sources::new();
        let file = sources.load(case).expect("read case");
        let text = sources.get(file).text.clone();
        let (forms, diags) = read(file, &text);
        assert_eq!(
            diags.is_empty(),
            ok,
            "{}: ok cases read cleanly, err cases do not:\n{}",
            case.display(),
            sources.render_plain(&diags)
        );
        if ok {
            let formatted = format_source(&text, &forms, &comments(&text));
            let (again, _) = read(FileId(0), &formatted);
            assert_eq!(again, forms, "{}: the layout changed the program", case.display());
            formatted
        } else {
            sources.render_plain(&diags)
        }
    });
}

#[test]
fn check() {
    run_phase("check", |case, ok| {
        let mut loader = Loader::new();
        let file = loader.load_path(case);
        let errors = loader.diags.iter().any(|d| d.is_error());
        assert_eq!(
            !errors,
            ok,
            "{}: ok cases check cleanly, err cases do not:\n{}",
            case.display(),
            loader.sources.render_plain(&loader.diags)
        );
        let mut out = loader.sources.render_plain(&loader.diags);
        for (f, form) in &loader.module.forms {
            if Some(*f) == file {
                out.push_str(&loader.module.summarize(*form));
                out.push('\n');
            }
        }
        out
    });
}

#[test]
fn eval() {
    run_phase("eval", |case, ok| {
        let rows = case.with_extension("csv");
        let rows = rows.to_str().expect("utf-8 path");
        let file = case.to_str().expect("utf-8 path");
        let mut loader = Loader::new();
        loader.load_path(case);
        let mut names = loader.module.program_names().into_iter().map(str::to_owned).collect::<Vec<_>>();
        // Err cases may fail to load; they name the program to run in a first-line comment `; eval NAME`.
        let text = std::fs::read_to_string(case).expect("read case");
        if let Some(name) = text.lines().next().and_then(|l| l.strip_prefix("; eval ")) {
            names = vec![name.trim().to_owned()];
        }
        let mut expected_by_engine: Vec<String> = Vec::new();
        for engine in ENGINES {
            let mut out = String::new();
            for name in &names {
                let (code, stdout, stderr) =
                    stratagem(&["eval", file, "--individual", name, "--rows", rows, "--engine", engine]);
                assert_eq!(code == 0, ok, "{} {name} on {engine}: exit {code}\n{stderr}", case.display());
                out.push_str(&format!("== {name}\n{stdout}{stderr}"));
            }
            expected_by_engine.push(out);
        }
        for (engine, out) in ENGINES.iter().zip(&expected_by_engine) {
            assert_eq!(out, &expected_by_engine[0], "{}: engine {engine} differs from {}", case.display(), ENGINES[0]);
        }
        expected_by_engine.swap_remove(0)
    });
}

/// Scripted REPL sessions: `tests/data/repl/NNN_name.repl` is fed to
/// `stratagem repl` on standard input; its output must equal `NNN_name.expected`.
/// A session exits 1 when any input failed: the transcripts named `*errors*`
/// expect that, the others exit 0.
#[test]
fn repl() {
    use std::io::Write;
    let dir = Path::new("tests/data/repl");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/data/repl")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "repl"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    let session = |input: &[u8], case: &Path| -> String {
        let expect_failure = case.file_name().is_some_and(|n| n.to_string_lossy().contains("errors"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_stratagem"))
            .arg("repl")
            .env("STRATAGEM_HISTORY", std::env::temp_dir().join("stratagem-test-history"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run stratagem repl");
        child.stdin.take().expect("stdin").write_all(input).expect("write transcript");
        let out = child.wait_with_output().expect("repl output");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{}: {stderr}", case.display());
        assert_eq!(out.status.code(), Some(i32::from(expect_failure)), "{}: exit status", case.display());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    for case in cases {
        let input = std::fs::read(&case).expect("read transcript");
        let interp = session(&input, &case);
        // Every transcript also runs on the JIT and must print the same.
        let jit = session(&[b":engine jit\n".as_slice(), &input].concat(), &case);
        assert_eq!(
            jit.strip_prefix("engine: jit\n"),
            Some(interp.as_str()),
            "{}: the JIT session differs",
            case.display()
        );
        failures.extend(compare(&case, &interp));
    }
    assert!(
        failures.is_empty(),
        "{} transcript(s) differ (re-bless with UPDATE_EXPECT=1):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
