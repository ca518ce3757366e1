//! The command line as a user runs it: exit codes, outputs, and diagnostics
//! instead of panics for bad arguments and bad files.

mod common;
use common::stratagem;
use std::path::Path;
use std::process::Command;

fn shipped_programs() -> Vec<String> {
    let mut files = Vec::new();
    let mut dirs = vec![Path::new("programs").to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("programs/ exists") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "sg") {
                files.push(path.display().to_string());
            }
        }
    }
    files.sort();
    files
}

#[test]
fn check_accepts_every_shipped_program() {
    let files = shipped_programs();
    let args: Vec<&str> = std::iter::once("check").chain(files.iter().map(String::as_str)).collect();
    let (code, stdout, stderr) = stratagem(&args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.lines().any(|l| l.contains("primset arith ")), "{stdout}");
}

#[test]
fn shipped_programs_are_in_canonical_layout() {
    let files = shipped_programs();
    let args: Vec<&str> = ["fmt", "--check"].into_iter().chain(files.iter().map(String::as_str)).collect();
    let (code, stdout, stderr) = stratagem(&args);
    assert_eq!(code, 0, "not formatted:\n{stdout}{stderr}");
}

#[test]
fn check_summarises_each_form() {
    let (code, stdout, _) = stratagem(&["check", "tests/data/check/ok/002_policy_weights.sg"]);
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        "tests/data/check/ok/002_policy_weights.sg: policy p1 trees=5 nodes=22 depth=4 rules=2\n\
         tests/data/check/ok/002_policy_weights.sg: weights w1 trees=1 nodes=10 depth=1 terms=10\n"
    );
}

#[test]
fn check_reports_errors_with_file_and_line() {
    let (code, stdout, stderr) = stratagem(&["check", "tests/data/check/err/002_arity.sg"]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(stderr.contains("tests/data/check/err/002_arity.sg:3:14"), "{stderr}");
    assert_eq!(stderr.matches("stratagem::check::arity").count(), 3, "{stderr}");
}

#[test]
fn fmt_rewrites_and_check_lists_changed_files() {
    let dir = std::env::temp_dir().join(format!("stratagem-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("messy.sg");
    std::fs::write(&file, "; keep me\n(individual   x (primset arith)\n (tree eval (+ x0   x1)))  ; and me\n")
        .expect("write");
    let path = file.to_str().expect("utf-8");

    let (code, stdout, _) = stratagem(&["fmt", "--check", path]);
    assert_eq!((code, stdout.trim()), (1, path));
    assert!(std::fs::read_to_string(&file).expect("read").contains("x0   x1"), "--check must not write");

    let (code, _, stderr) = stratagem(&["fmt", path]);
    assert_eq!(code, 0, "{stderr}");
    let formatted = std::fs::read_to_string(&file).expect("read");
    assert_eq!(formatted, "; keep me\n(individual x (primset arith) (tree eval (+ x0 x1))) ; and me\n");
    assert_eq!(stratagem(&["fmt", "--check", path]).0, 0);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn fmt_refuses_unreadable_programs_without_touching_them() {
    let (code, _, stderr) = stratagem(&["fmt", "--check", "tests/data/parse/err/001_unclosed.sg"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("this list is never closed"), "{stderr}");
}

#[test]
fn eval_prints_json() {
    let (code, stdout, stderr) = stratagem(&[
        "eval",
        "tests/data/eval/ok/002_policy_weights.sg",
        "--individual",
        "p",
        "--rows",
        "tests/data/eval/ok/002_policy_weights.csv",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    assert_eq!(json["rows"], 5);
    assert_eq!(json["outputs"]["value"][0], 1.5);
    assert_eq!(json["outputs"]["value"][2], "nan");
    assert_eq!(json["rule"][0], 1);
    assert_eq!(json["rule"][3], "default");
}

#[test]
fn batch_reproduces_gpbench_sums() {
    let (code, stdout, stderr) =
        stratagem(&["batch", "--trees", "../shared/gpbench/trees.sexp", "--rows", "../shared/gpbench/rows.csv"]);
    assert_eq!(code, 0, "{stderr}");
    // Python wrote it: NaN and Infinity appear in fields this test does not read.
    let text = std::fs::read_to_string("../shared/gpbench/expected.json").expect("expected.json");
    let text = text.replace("-Infinity", "null").replace("Infinity", "null").replace("NaN", "null");
    let expected: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let trees = expected["trees"].as_array().expect("trees");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), trees.len() + 1);
    for (line, tree) in lines.iter().zip(trees) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f[0], tree["set"].as_str().expect("set"));
        assert_eq!(f[1..4], [tree["size"].to_string(), tree["index"].to_string(), tree["nodes"].to_string()]);
        let (got, want): (f64, f64) = (f[4].parse().expect("sum"), tree["sum"].as_f64().expect("sum"));
        assert!((got - want).abs() <= 1e-12 * want.abs(), "{line}: expected sum {want}");
    }
    assert!(lines[trees.len()].starts_with("node-evals/s: "), "{}", lines[trees.len()]);
}

#[test]
fn batch_reports_malformed_lines() {
    let dir = std::env::temp_dir().join(format!("stratagem-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let trees = dir.join("trees.sexp");
    std::fs::write(&trees, "arith 3 0 (+ x0 x1)\narith 3 (+ x0 x1)\narith 3 2 (+ x0 y1)\n").expect("write");
    let (code, _, stderr) =
        stratagem(&["batch", "--trees", trees.to_str().expect("utf-8"), "--rows", "../shared/gpbench/rows.csv"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("expected `<set> <size> <index> <sexp>`"), "{stderr}");
    assert!(stderr.contains("unknown primitive `y1`"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_arguments_and_missing_files_exit_1() {
    for args in [
        vec!["frobnicate"],
        vec!["check"],
        vec!["eval", "x.sg"],
        vec!["batch", "--trees", "t", "--rows", "r", "--repeat", "0"],
        vec!["eval", "tests/data/eval/ok/001_arith.sg", "--individual", "sum", "--rows", "x.csv", "--format", "xml"],
        vec!["check", "no/such/file.sg"],
        vec!["eval", "no/such/file.sg", "--individual", "x", "--rows", "r.csv"],
        vec!["eval", "tests/data/eval/ok/001_arith.sg", "--individual", "sum", "--rows", "no/such.csv"],
        vec!["batch", "--trees", "no/such/trees", "--rows", "no/such.csv"],
        vec!["fmt", "no/such/file.sg"],
    ] {
        let (code, _, stderr) = stratagem(&args);
        assert_eq!(code, 1, "stratagem {args:?}:\n{stderr}");
        assert!(!stderr.trim().is_empty(), "stratagem {args:?} must say what is wrong");
    }
}

#[test]
fn unknown_games_get_a_suggestion_and_the_list_of_games() {
    for args in [["play", "--games", "1"], ["perft", "--depth", "1"]] {
        let command = args[0];
        let (code, stdout, stderr) = stratagem(&[command, "--game", "morris-noflying", args[1], args[2]]);
        assert_eq!(code, 1, "{command}: {stderr}");
        assert!(stdout.is_empty(), "{command}: {stdout}");
        assert!(stderr.contains("unknown game `morris-noflying`"), "{command}: {stderr}");
        assert!(stderr.contains("did you mean `morris-no-flying`?"), "{command}: {stderr}");
        assert!(stderr.contains("lose-checkers, morris, morris-no-flying"), "{command}: {stderr}");
    }
}

#[test]
fn games_lists_every_game_with_its_roles_kind_and_primsets() {
    let (code, stdout, stderr) = stratagem(&["games", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let games: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let names: Vec<&str> = games.as_array().expect("a list").iter().filter_map(|g| g["name"].as_str()).collect();
    assert_eq!(
        names,
        ["lose-checkers", "morris", "morris-no-flying", "rush-hour", "freecell", "antwars", "backgammon"]
    );
    assert_eq!(games[5]["kind"], "observed");
    assert_eq!(games[6]["kind"], "general", "backgammon has chance");
    assert_eq!(games[3]["kind"], "puzzle");
    assert_eq!(games[0]["roles"], serde_json::json!(["black", "white"]));
    assert_eq!(games[2]["kind"], "two-player");
    assert_eq!(games[2]["primsets"], serde_json::json!(["morris"]));
    let (code, text, _) = stratagem(&["games"]);
    assert_eq!(code, 0);
    assert!(text.starts_with("lose-checkers     two-player, roles black white; primsets: lose-checkers\n"), "{text}");
}

#[test]
fn help_and_version_exit_0() {
    assert_eq!(stratagem(&["--help"]).0, 0);
    assert_eq!(stratagem(&["--version"]).0, 0);
}

#[test]
fn binary_files_are_diagnosed() {
    let dir = std::env::temp_dir().join(format!("stratagem-bin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("bin.sg");
    std::fs::write(&file, [0xff, 0xfe, 0x00, 0x28]).expect("write");
    let (code, _, stderr) = stratagem(&["check", file.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    assert!(stderr.contains("not UTF-8"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_is_the_same_on_any_thread_count() {
    let run = |threads: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_stratagem"))
            .args([
                "play",
                "--game",
                "morris",
                "--a",
                "alphabeta:2:material",
                "--b",
                "alphabeta:1:random",
                "--games",
                "6",
            ])
            .args(["--seed", "9", "--format", "json"])
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .expect("run stratagem");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let mut json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        json.as_object_mut().expect("object").remove("games_per_s");
        json
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let a = &one["a"];
    let total = a["wins"].as_u64().unwrap_or(0) + a["draws"].as_u64().unwrap_or(0) + a["losses"].as_u64().unwrap_or(0);
    assert_eq!(total, 6);
    assert!(a["states_per_turn_mean"].as_f64().unwrap_or(0.0) > 1.0, "a searching player expands states: {one}");
}

#[test]
fn play_reports_bad_specs_and_mismatched_primsets() {
    let (code, _, stderr) = stratagem(&["play", "--game", "morris", "--a", "alphabeta:x:material"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("not a search depth"), "{stderr}");
    let spec = "gp:programs/champions/lose-checkers-figure-1-2.sg:figure-1-2:alphabeta:2";
    let (code, _, stderr) = stratagem(&["play", "--game", "morris", "--a", spec]);
    assert_eq!(code, 1);
    assert!(stderr.contains("is not for morris"), "{stderr}");
    let (code, _, stderr) = stratagem(&["play", "--game", "lose-checkers", "--position", "B:W99:B1"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("stratagem::game::position"), "{stderr}");
}

#[test]
fn classical_tie_breaking_makes_deterministic_players_replay_their_game() {
    let outcome = |ties: &str, seed: &str| {
        let (a, b) = (format!("alphabeta:2:material{ties}"), format!("alphabeta:1:material{ties}"));
        let (code, stdout, stderr) = stratagem(&[
            "play", "--game", "morris", "--a", &a, "--b", &b, "--games", "4", "--seed", seed, "--format", "json",
        ]);
        assert_eq!(code, 0, "{stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).expect("json");
        (json["a"]["wins"].clone(), json["a"]["losses"].clone(), json["a"]["states_per_turn_mean"].clone())
    };
    // First best move: the seed changes nothing, both colours replay one game each.
    assert_eq!(outcome(":ties=first", "1"), outcome(":ties=first", "2"));
    // Random ties: the seed gives other games.
    assert_ne!(outcome("", "1"), outcome("", "2"));
}

#[test]
fn play_records_every_game_it_scores() {
    let dir = std::env::temp_dir().join(format!("stratagem-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("games.jsonl");
    let record = path.to_str().expect("utf-8");
    let (code, stdout, stderr) = stratagem(&[
        "play",
        "--game",
        "morris",
        "--a",
        "alphabeta:1:material",
        "--b",
        "random",
        "--games",
        "5",
        "--seed",
        "3",
        "--format",
        "json",
        "--record",
        record,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let summary: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    let text = std::fs::read_to_string(&path).expect("the record is written");
    let games: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    assert_eq!(games.len(), 5);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["game"], i);
        assert_eq!(g["a_moves_first"], i % 2 == 0, "colours alternate: {g}");
        let turns = g["moves"].as_array().expect("moves").len();
        assert_eq!(g["turns"], turns);
        // Morris positions end with the turn count: the moves lead to the final position.
        assert!(g["final"].as_str().expect("final").ends_with(&format!(":T{turns}")), "{g}");
    }
    let count = |w: &str| games.iter().filter(|g| g["winner"] == w).count() as u64;
    assert_eq!(count("a"), summary["a"]["wins"].as_u64().expect("wins"));
    assert_eq!(count("draw"), summary["a"]["draws"].as_u64().expect("draws"));
    assert_eq!(count("b"), summary["a"]["losses"].as_u64().expect("losses"));

    let unwritable = dir.join("no-such-dir").join("games.jsonl");
    let (code, _, stderr) =
        stratagem(&["play", "--game", "morris", "--games", "1", "--record", unwritable.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    assert!(stderr.contains("cannot write"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}
