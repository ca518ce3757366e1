//! Tests of the native game engines: perft against OpenSpiel's turn-level
//! counts (../shared/domains/openspiel/perft.json), positions with their
//! legal moves and results (tests/data/games/<game>/ok/*.pos, expected output
//! in *.expected beside them), random playouts that always end, and bad
//! position text that must give a diagnostic from the CLI, never a panic
//! (tests/data/games/<game>/err/*.pos, the rendered diagnostic in *.expected).
//!
//! Re-bless the expected files with `UPDATE_EXPECT=1 cargo test --test games`.

mod common;
use std::path::{Path, PathBuf};

use rand::SeedableRng;
use rand::rngs::SmallRng;
use stratagem::games::checkers::Checkers;
use stratagem::games::morris::Morris;
use stratagem::games::playout::random_playout;
use stratagem::games::{Game, GameResult, TwoPlayer, perft};

/// OpenSpiel checkers, turn level (a multi-jump is one move), depths 1..=9.
const CHECKERS_PERFT: [u64; 9] = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680];
/// OpenSpiel nine_mens_morris, turn level (a mill with its removal is one move), depths 1..=5.
const MORRIS_PERFT: [u64; 5] = [24, 552, 12144, 255024, 5140800];

#[test]
fn checkers_perft_matches_openspiel() {
    let game = Checkers::lose();
    let start = game.initial_state();
    for (d, &expected) in CHECKERS_PERFT.iter().enumerate().take(6) {
        assert_eq!(perft(&game, &start, d as u32 + 1), expected, "depth {}", d + 1);
    }
}

#[test]
fn morris_perft_matches_openspiel() {
    let start = Morris::standard().initial_state();
    for (d, &expected) in MORRIS_PERFT.iter().enumerate().take(4) {
        assert_eq!(perft(&Morris::standard(), &start, d as u32 + 1), expected, "depth {}", d + 1);
    }
}

fn data_dir(game: &str, kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/games").join(game).join(kind)
}

fn positions(game: &str, kind: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir(game, kind))
        .expect("test data directory")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pos"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no positions for {game}/{kind}");
    files
}

/// Compares `actual` with the `.expected` file beside `input`, or writes it
/// when UPDATE_EXPECT is set. Returns a description of a mismatch.
fn check_expected(input: &Path, actual: &str) -> Option<String> {
    let path = input.with_extension("expected");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, actual).expect("write expected file");
        return None;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    (expected != actual).then(|| format!("{}:\n--- expected\n{expected}--- actual\n{actual}", path.display()))
}

/// The description of a position the `.expected` files hold: the position
/// as printed back, the sorted legal moves, and the result.
fn describe<G: TwoPlayer>(game: &G, text: &str) -> String {
    let state = game.parse_state(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let printed = game.format_state(&state);
    let again = game.parse_state(&printed).unwrap_or_else(|e| panic!("reprinted {printed}: {e}"));
    assert_eq!(game.format_state(&again), printed, "position text round trip");
    let mut moves = Vec::new();
    game.legal_moves(&state, &mut moves);
    let mut names: Vec<String> = moves.iter().map(|m| game.format_move(&state, m)).collect();
    for (m, name) in moves.iter().zip(&names) {
        let parsed = game.parse_move(&state, name).unwrap_or_else(|e| panic!("move {name}: {e}"));
        assert_eq!(&parsed, m, "move text round trip of {name}");
    }
    names.sort();
    let result = match game.result(&state) {
        None => "ongoing".to_string(),
        Some(GameResult::Draw) => "draw".to_string(),
        Some(GameResult::Winner(p)) => format!("player {p} wins"),
    };
    assert_eq!(moves.is_empty(), game.result(&state).is_some(), "no moves iff terminal");
    format!("position: {printed}\nmoves ({}): {}\nresult: {result}\n", names.len(), names.join(" "))
}

fn run_ok_cases<G: TwoPlayer>(game: &G, dir: &str) {
    let failures: Vec<String> = positions(dir, "ok")
        .iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(p).expect("read position");
            check_expected(p, &describe(game, text.trim_end_matches('\n')))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn checkers_positions() {
    run_ok_cases(&Checkers::lose(), "lose-checkers");
}

#[test]
fn morris_positions() {
    run_ok_cases(&Morris::standard(), "morris");
}

#[test]
fn morris_no_flying_positions() {
    run_ok_cases(&Morris::no_flying(), "morris-no-flying");
}

fn stratagem(args: &[&str]) -> std::process::Output {
    common::run_env(args, None)
}

fn run_err_cases(game: &str) {
    let failures: Vec<String> = positions(game, "err")
        .iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(p).expect("read position");
            let output =
                stratagem(&["perft", "--game", game, "--position", text.trim_end_matches('\n'), "--depth", "1"]);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(1), "{}: exit status; stderr:\n{stderr}", p.display());
            assert!(!stderr.contains("panicked"), "{}: panic:\n{stderr}", p.display());
            assert!(output.stdout.is_empty(), "{}: printed a result", p.display());
            check_expected(p, &stderr)
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn bad_checkers_positions_are_diagnosed() {
    run_err_cases("lose-checkers");
}

#[test]
fn bad_morris_positions_are_diagnosed() {
    run_err_cases("morris");
}

#[test]
fn bad_moves_are_errors_not_panics() {
    let game = Checkers::lose();
    let start = game.initial_state();
    for text in ["", "x", "11-", "11-15-19", "11x15", "0-4", "99-100", "11-16x", "1-5", "９-13"] {
        assert!(game.parse_move(&start, text).is_err(), "{text:?} parsed");
    }
    assert!(game.parse_move(&start, " 11-15 ").is_ok());
    let start = Morris::standard().initial_state();
    for text in ["", "x", "a", "a1-", "a1xb2", "h1", "a1-a4", "a1x", "é1"] {
        assert!(Morris::standard().parse_move(&start, text).is_err(), "{text:?} parsed");
    }
    assert!(Morris::standard().parse_move(&start, "d2").is_ok());
}

proptest::proptest! {
    /// No text makes the parsers panic.
    #[test]
    fn parsers_never_panic(text in "[BWKHTQxX:,0-9a-g\\- é]{0,24}") {
        let checkers = Checkers::lose();
        let _ = checkers.parse_state(&text);
        let _ = checkers.parse_move(&checkers.initial_state(), &text);
        let _ = Morris::standard().parse_state(&text);
        let _ = Morris::standard().parse_move(&Morris::standard().initial_state(), &text);
    }
}

/// Every random game ends, within the bound the draw rules give; every
/// random move is legal, and there is none exactly when the game is over.
fn playouts_terminate<G: TwoPlayer>(game: &G, max_plies: u32) {
    let mut scratch = Vec::new();
    let mut legal = Vec::new();
    for seed in 0..300 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut state = game.initial_state();
        let mut plies = 0;
        while let Some(mv) = game.random_move(&state, &mut rng, &mut scratch) {
            game.legal_moves(&state, &mut legal);
            assert!(legal.contains(&mv), "seed {seed}: illegal random move {mv:?} in {}", game.format_state(&state));
            state = game.apply(&state, &mv);
            plies += 1;
            assert!(plies <= max_plies, "seed {seed}: more than {max_plies} plies");
        }
        game.legal_moves(&state, &mut legal);
        assert!(legal.is_empty() && game.result(&state).is_some(), "seed {seed}: stopped before the end");
        let p = random_playout(game, &game.initial_state(), &mut SmallRng::seed_from_u64(seed), &mut scratch);
        assert_eq!((p.plies, Some(p.result)), (plies, game.result(&state)), "seed {seed}: playout differs");
    }
}

#[test]
fn checkers_playouts_terminate() {
    // At most 40 quiet plies between captures, and at most 24 captures.
    playouts_terminate(&Checkers::lose(), 40 * 25);
}

#[test]
fn morris_playouts_terminate() {
    playouts_terminate(&Morris::standard(), 200);
    playouts_terminate(&Morris::no_flying(), 200);
}

#[test]
fn playouts_are_deterministic_per_seed() {
    let game = Checkers::lose();
    let start = game.initial_state();
    let mut moves = Vec::new();
    let a = random_playout(&game, &start, &mut SmallRng::seed_from_u64(7), &mut moves);
    let b = random_playout(&game, &start, &mut SmallRng::seed_from_u64(7), &mut moves);
    assert_eq!(a, b);
}

#[test]
fn cli_perft_prints_json() {
    let output = stratagem(&["perft", "--game", "lose-checkers", "--depth", "3"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
    assert_eq!(json["game"], "lose-checkers");
    let nodes: Vec<u64> =
        json["depths"].as_array().expect("depths").iter().map(|d| d["nodes"].as_u64().unwrap_or(0)).collect();
    assert_eq!(nodes, [7, 49, 302]);

    let output = stratagem(&["perft", "--game", "morris", "--depth", "2", "--position", "W:W:B:H9,9"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
    assert_eq!(json["depths"][1]["nodes"], 552);

    // Without flying, a blocked three-man player has no move.
    let blocked = "B:Wa4,d6,g4,b2,f2:Ba7,d7,g7:T40";
    for (game, nodes) in [("morris", 48), ("morris-no-flying", 0)] {
        let output = stratagem(&["perft", "--game", game, "--depth", "1", "--position", blocked]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
        assert_eq!((&json["game"], &json["depths"][0]["nodes"]), (&game.into(), &nodes.into()), "{json}");
    }
}

#[test]
fn cli_play_random_games() {
    for game in ["lose-checkers", "morris", "morris-no-flying"] {
        let output = stratagem(&[
            "play", "--game", game, "--a", "random", "--b", "random", "--games", "50", "--seed", "3", "--format",
            "json",
        ]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
        let total = json["a"]["wins"].as_u64().unwrap_or(0)
            + json["b"]["wins"].as_u64().unwrap_or(0)
            + json["a"]["draws"].as_u64().unwrap_or(0);
        assert_eq!(total, 50, "{json}");
        assert_eq!(json["a"]["wins"], json["b"]["losses"]);
        assert_eq!(json["a"]["score"].as_f64().unwrap_or(-1.0) + json["b"]["score"].as_f64().unwrap_or(-1.0), 50.0);
    }
}

/// Outcome frequencies of random games agree with OpenSpiel's
/// (../shared/domains/openspiel/playouts.jsonl: checkers P0 42.39%, P1 44.69%,
/// draws 12.93%; nine_mens_morris P0 36.19%, P1 33.70%, draws 30.11%), a
/// statistical check of the end-of-game rules. American checkers is used
/// because OpenSpiel scores normal checkers; Morris's random moves follow
/// OpenSpiel's per-action distribution. 3000 seeded games each: the
/// standard error of a frequency is under 1%.
#[test]
fn random_outcomes_match_openspiel() {
    const N: u64 = 3000;
    let freq = |wins: [u64; 2], draws: u64| [wins[0], wins[1], draws].map(|c| c as f64 / N as f64);
    let close = |got: [f64; 3], want: [f64; 3], what: &str| {
        eprintln!("{what}: {got:?}");
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 0.035, "{what}: got {got:?}, OpenSpiel {want:?}");
        }
    };

    let stats = stratagem::games::playout::random_playouts(&Checkers::american(), N, &mut SmallRng::seed_from_u64(11));
    close(freq(stats.wins, stats.draws), [0.4239, 0.4469, 0.1293], "checkers");

    let stats = stratagem::games::playout::random_playouts(&Morris::standard(), N, &mut SmallRng::seed_from_u64(12));
    close(freq(stats.wins, stats.draws), [0.3619, 0.3370, 0.3011], "morris");
}
