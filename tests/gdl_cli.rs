//! `stratagem gdl check|perft|trace|playouts` as a user runs them: bad input
//! ends with exit 1 and a diagnostic naming the file (or the argument), never
//! a panic; games GGP-Base's validator rejects but its prover runs are run
//! with warnings; and each subcommand's output on tic-tac-toe.

mod common;

use std::path::Path;

use common::{flat, stratagem, temp};

const GDL: &str = "../shared/gdl";
const TIC_TAC_TOE: &str = "../shared/gdl/games/ticTacToe.kif";

/// A game the validator accepts, with `extra` rules appended.
fn game_with(extra: &str) -> String {
    format!(
        "(role x)\n(init (c 1))\n(<= (legal x noop) (true (c 1)))\n(<= (next (c 1)) (true (c 1)))\n\
         (<= (goal x 100) (true (c 1)))\n(<= terminal (true (c 2)))\n{extra}"
    )
}

/// Writes `text` to `name` in this test's scratch directory.
fn write(dir: &Path, name: &str, text: &str) -> String {
    std::fs::create_dir_all(dir).expect("scratch dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write input");
    path.display().to_string()
}

/// Runs `args`, expects exit 1 and every one of `wanted` in the (unwrapped)
/// diagnostics; returns them.
fn refused(args: &[&str], wanted: &[&str]) -> String {
    let (code, stdout, stderr) = stratagem(args);
    assert_eq!(code, 1, "stratagem {args:?} should fail:\n{stdout}{stderr}");
    assert!(stdout.is_empty(), "stratagem {args:?} failed after printing:\n{stdout}");
    let flat = flat(&stderr);
    for w in wanted {
        assert!(flat.contains(w), "stratagem {args:?}: no `{w}` in\n{stderr}");
    }
    stderr
}

/// Every subcommand, on `file`, with cheap arguments.
fn every_subcommand(file: &str) -> [Vec<&str>; 4] {
    [
        vec!["gdl", "check", file],
        vec!["gdl", "perft", file, "--depth", "2"],
        vec!["gdl", "trace", file, "--seeds", "1-2"],
        vec!["gdl", "playouts", file, "--seconds", "0.05"],
    ]
}

#[test]
fn bad_files_are_refused_by_every_subcommand_with_the_file_named() {
    let dir = temp("bad-files");
    let text = std::fs::read_to_string(TIC_TAC_TOE).expect("ticTacToe.kif");
    let cut = text.find("(true (cell ?m 1 ?x)").expect("a rule of tic-tac-toe") + 10;
    let missing = dir.join("missing.kif").display().to_string();
    let cases: Vec<(String, &str)> = vec![
        (missing, "cannot read"),
        (write(&dir, "truncated.kif", &text[..cut]), "stratagem::read::unclosed"),
        (write(&dir, "unbalanced.kif", &game_with("(<= (legal x (mark ?a)) (true (c ?a))\n")), "unclosed list"),
        (write(&dir, "extra_paren.kif", &game_with("(<= p (true (c 1))))\n")), "stratagem::read"),
        (
            write(&dir, "unstratified.kif", &game_with("(<= p (not q))\n(<= q (not p))\n(<= terminal p)\n")),
            "stratagem::gdl::stratify",
        ),
        (write(&dir, "arity.kif", &game_with("(<= (legal x) (true (c 1)))\n")), "`legal` takes 2 arguments, not 1"),
        (write(&dir, "no_roles.kif", &game_with("").replace("(role x)\n", "")), "the game declares no roles"),
        (write(&dir, "empty.kif", ""), "the game declares no roles"),
        (write(&dir, "not_gdl.kif", &game_with("(<= (p 1) (distinct 1))\n")), "`distinct` takes exactly two terms"),
        (write(&dir, "variable_head.kif", &game_with("(<= ?x (true (c 1)))\n")), "stratagem::gdl::read"),
    ];
    for (file, wanted) in &cases {
        let name = Path::new(file).file_name().and_then(|n| n.to_str()).expect("file name");
        for args in every_subcommand(file) {
            refused(&args, &[name, wanted]);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_rejects_what_the_running_commands_run_with_warnings() {
    let dir = temp("lenient");
    let unsafe_rule = write(&dir, "unsafe.kif", &game_with("(<= (legal x (mark ?a)) (true (c 1)))\n"));
    let mut games: Vec<(String, &str)> = vec![(unsafe_rule, "stratagem::gdl::unsafe")];
    for (game, code) in [
        ("test_case_3b", "stratagem::gdl::unsafe"),
        ("test_case_3e", "stratagem::gdl::unsafe"),
        ("test_case_3f", "stratagem::gdl::unsafe"),
        ("test_clean_not_distinct", "stratagem::gdl::negation"),
    ] {
        games.push((format!("{GDL}/tests/{game}.kif"), code));
    }
    for (file, code) in &games {
        let name = Path::new(file).file_name().and_then(|n| n.to_str()).expect("file name");
        let stderr = refused(&["gdl", "check", file], &[name, code]);
        assert!(stderr.contains('×'), "check shows errors as errors:\n{stderr}");
        for args in every_subcommand(file).into_iter().skip(1) {
            let (status, stdout, stderr) = stratagem(&args);
            assert_eq!(status, 0, "stratagem {args:?} runs what GGP-Base's prover runs:\n{stderr}");
            assert!(!stdout.is_empty(), "stratagem {args:?} printed nothing");
            let flat = flat(&stderr);
            for wanted in [*code, name, "`gdl check` rejects this game", "it is run as GGP-Base's prover would"] {
                assert!(flat.contains(wanted), "stratagem {args:?}: no `{wanted}` in\n{stderr}");
            }
            assert!(!stderr.contains('×'), "stratagem {args:?}: errors are shown as warnings:\n{stderr}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_arguments_are_refused() {
    let t = TIC_TAC_TOE;
    refused(&["gdl", "trace", t, "--seeds", "5-2"], &["--seeds", "5-2", "empty"]);
    refused(&["gdl", "trace", t, "--seeds", "x"], &["--seeds", "`x` is not a seed"]);
    refused(&["gdl", "trace", t, "--seeds", "1-"], &["--seeds"]);
    refused(&["gdl", "trace", t, "--seeds", "-3"], &["--seeds"]);
    refused(&["gdl", "trace", t], &["--seeds"]);
    refused(&["gdl", "playouts", t, "--seconds", "-1"], &["`--seconds -1` is not a duration"]);
    refused(&["gdl", "playouts", t, "--seconds", "NaN"], &["`--seconds NaN` is not a duration"]);
    refused(&["gdl", "playouts", t, "--seconds", "inf"], &["`--seconds inf` is not a duration"]);
    refused(&["gdl", "playouts", t, "--seconds", "soon"], &["--seconds"]);
    refused(&["gdl", "perft", t, "--depth", "41"], &["`--depth 41`", "perft-depth"]);
    refused(&["gdl", "perft", t, "--depth", "99999999999"], &["--depth"]);
    refused(&["gdl", "perft", t, "--depth", "-1"], &["--depth"]);
    refused(&["gdl", "perft", t], &["--depth"]);
    refused(&["gdl", "check", t, "--engine", "magic"], &["--engine"]);
}

#[test]
fn check_prints_the_summary_line() {
    let (code, stdout, stderr) = stratagem(&["gdl", "check", TIC_TAC_TOE]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let rest = stdout
        .strip_prefix(&format!("{TIC_TAC_TOE}: 2 roles (xplayer oplayer), "))
        .unwrap_or_else(|| panic!("unexpected summary: {stdout}"));
    // The counts of relations, rules and strata follow the prover's plan.
    let words: Vec<&str> = rest.split_whitespace().collect();
    assert!(
        matches!(words.as_slice(), [_, "relations,", _, "rules,", _, "strata", _, "recursive)"]),
        "unexpected summary: {stdout}"
    );
    assert!(stderr.is_empty(), "tic-tac-toe has no warnings:\n{stderr}");
}

/// `--propnet` and `--engine compiled` report the network and the engine;
/// a game whose goals do not ground (sudoku) says that the prover answers
/// them, on stdout with the sizes and on stderr with the engine.
#[test]
fn check_reports_the_network_and_goals_left_to_the_prover() {
    let (code, stdout, stderr) = stratagem(&["gdl", "check", TIC_TAC_TOE, "--propnet", "--engine", "compiled"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("ground program: ") && stdout.contains("optimised: "), "{stdout}");
    assert!(!stdout.contains("goals: not in the network"), "{stdout}");
    assert!(stderr.contains("engine: compiled engine: ") && !stderr.contains("goals answered"), "{stderr}");
    let sudoku = format!("{GDL}/games/sudoku.kif");
    let (code, stdout, stderr) = stratagem(&["gdl", "check", &sudoku, "--propnet", "--engine", "compiled"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("goals: not in the network, the prover answers them"), "{stdout}");
    assert!(
        flat(&stderr).contains("goals answered by the prover (the relations legal, next and terminal do not need"),
        "{stderr}"
    );
}

#[test]
fn check_prints_warnings_of_a_valid_game() {
    let dir = temp("warnings");
    let file = write(&dir, "unused.kif", &game_with("(<= (unused ?x) (true (c ?x)))\n"));
    let (code, stdout, stderr) = stratagem(&["gdl", "check", &file]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with(&format!("{file}: 1 roles (x), ")), "{stdout}");
    let flat = flat(&stderr);
    assert!(flat.contains("stratagem::gdl::unused") && flat.contains("unused.kif"), "{stderr}");
    assert!(!stderr.contains('×'), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn perft_counts_tic_tac_toe() {
    let (code, stdout, stderr) = stratagem(&["gdl", "perft", TIC_TAC_TOE, "--depth", "3"]);
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("perft prints JSON");
    assert_eq!(report["game"], "ticTacToe");
    assert_eq!(report["roles"], serde_json::json!(["xplayer", "oplayer"]));
    let depths = report["depths"].as_array().expect("depths");
    let nodes: Vec<u64> = depths.iter().map(|d| d["nodes"].as_u64().expect("nodes")).collect();
    assert_eq!(nodes, [1, 9, 72, 504]);
    for (i, d) in depths.iter().enumerate() {
        assert_eq!(d["depth"], i);
        for key in ["distinct_states", "terminal", "terminal_distinct", "ms"] {
            assert!(d[key].is_u64(), "no {key} in {d}");
        }
    }
    assert_eq!(report["stop_reason"], "depth 3 reached");
}

#[test]
fn the_prover_plays_chess_by_asking_threats_square_by_square() {
    // chess.kif asks `(not (threatened ?player ?kx ?ky ?u ?v))` of single
    // squares; computed whole, `threatened` and the `*_move_ig` relations
    // under it are millions of facts a state, past the prover's budget.
    let chess = format!("{GDL}/games/chess.kif");
    let (code, stdout, stderr) = stratagem(&["gdl", "perft", &chess, "--engine", "prover", "--depth", "1"]);
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("perft prints JSON");
    let nodes: Vec<u64> =
        report["depths"].as_array().expect("depths").iter().map(|d| d["nodes"].as_u64().expect("nodes")).collect();
    assert_eq!(nodes, [1, 20], "white's 16 pawn moves and 4 knight moves");
}

#[test]
fn trace_reproduces_the_reference_lines() {
    let (code, stdout, stderr) = stratagem(&["gdl", "trace", TIC_TAC_TOE, "--seeds", "1-2"]);
    assert_eq!(code, 0, "{stderr}");
    let reference = std::fs::read_to_string(format!("{GDL}/traces/ticTacToe.jsonl")).expect("reference trace");
    let n = stdout.lines().count();
    let expected: Vec<&str> = reference.lines().take(n).collect();
    assert_eq!(stdout.lines().collect::<Vec<_>>(), expected);
    // Seeds 1 and 2 whole: the next reference line starts seed 3.
    let next = reference.lines().nth(n).expect("more seeds in the reference");
    assert!(next.starts_with(r#"{"seed":3,"#), "{next}");
    assert_eq!(stdout.lines().filter(|l| l.contains(r#""terminal":"#)).count(), 2, "{stdout}");
}

/// `--case sensitive` reads a game as GGP-Base does: `timeOut` is not the
/// `timeout` the rules define, so the game runs to count 4 (3 steps), where
/// read as the specification says it ends at count 2 (1 step).
#[test]
fn case_sensitive_reading_tells_names_apart_by_case() {
    let dir = temp("case");
    let game = write(
        &dir,
        "timeout.kif",
        "(role p) (init (count 1)) (succ 1 2) (succ 2 3) (succ 3 4)\n\
         (<= (next (count ?n)) (true (count ?m)) (succ ?m ?n)) (<= (legal p Tick) (true (count ?n)))\n\
         (<= timeout (true (count 2))) (<= terminal timeOut) (<= terminal (true (count 4))) (goal p 100)\n",
    );
    let last_line = |extra: &[&str]| {
        let (code, stdout, stderr) = stratagem(&[&["gdl", "trace", &game, "--seeds", "0"], extra].concat());
        assert_eq!(code, 0, "{stderr}");
        let last: serde_json::Value = serde_json::from_str(stdout.lines().last().expect("a line")).expect("JSON");
        (last["steps"].as_u64().expect("steps"), last["state"].clone())
    };
    assert_eq!(last_line(&["--case", "insensitive"]), (1, serde_json::json!(["(count 2)"])));
    assert_eq!(last_line(&[]), (1, serde_json::json!(["(count 2)"])), "insensitive is the default");
    assert_eq!(last_line(&["--case", "sensitive"]), (3, serde_json::json!(["(count 4)"])));
    refused(&["gdl", "trace", &game, "--seeds", "0", "--case", "upper"], &["--case", "insensitive", "sensitive"]);
}

#[test]
fn playouts_report_json() {
    let args = ["gdl", "playouts", TIC_TAC_TOE, "--seconds", "0.2", "--format", "json"];
    let (code, stdout, stderr) = stratagem(&args);
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("playouts prints JSON");
    let keys: Vec<&str> = report.as_object().expect("an object").keys().map(String::as_str).collect();
    for key in ["engine", "playouts", "playouts_per_s", "expansions_per_s", "mean_length", "mean_goals"] {
        assert!(keys.contains(&key), "no {key} in {stdout}");
    }
    assert!(report["playouts"].as_u64().is_some_and(|n| n > 0), "{stdout}");
    assert_eq!(report["mean_goals"].as_array().map(Vec::len), Some(2), "{stdout}");
    let (code, text, stderr) = stratagem(&args[..5]);
    assert_eq!(code, 0, "{stderr}");
    assert!(text.starts_with(&format!("{TIC_TAC_TOE}: ")) && text.contains("playouts/s"), "{text}");
}
