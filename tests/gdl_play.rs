//! GDL games as games of the registry: `play` (random players, α-β on
//! two-player alternating games, a player per role for n roles), `--record`,
//! `perft`, and the diagnostics for files that do not load or requests a
//! game cannot serve. The games are ../shared/gdl's.

mod common;

use common::{flat, stratagem, temp};
use serde_json::Value;

const GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/gdl/games");

fn game(name: &str) -> String {
    format!("{GAMES}/{name}.kif")
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// `play ... --format json`, which must succeed.
fn play(args: &[&str]) -> Value {
    let args: Vec<&str> = ["play"].iter().copied().chain(args.iter().copied()).chain(["--format", "json"]).collect();
    let (code, stdout, stderr) = stratagem(&args);
    assert_eq!(code, 0, "stratagem {args:?}: {stderr}");
    json(&stdout)
}

fn count(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("no count `{key}` in {v}"))
}

/// Reads a `--record` file: one JSON value per line.
fn records(path: &std::path::Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).expect("the record is written");
    text.lines().map(json).collect()
}

#[test]
fn random_players_play_two_player_games_with_consistent_results() {
    for name in ["ticTacToe", "connectFour"] {
        let summary = play(&["--game", &game(name), "--games", "10", "--seed", "5"]);
        let (a, b) = (&summary["a"], &summary["b"]);
        assert_eq!(count(a, "wins") + count(a, "draws") + count(a, "losses"), 10, "{summary}");
        assert_eq!((count(a, "wins"), count(a, "draws")), (count(b, "losses"), count(b, "draws")), "{summary}");
        assert_eq!(summary["game"], game(name));
        // The same seed, the same games.
        assert_eq!(play(&["--game", &game(name), "--games", "10", "--seed", "5"])["a"], summary["a"]);
    }
}

#[test]
fn records_of_two_player_games_replay_to_their_results() {
    let dir = temp("record2");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("games.jsonl");
    let summary = play(&[
        "--game",
        &game("ticTacToe"),
        "--a",
        "alphabeta:2:random",
        "--games",
        "6",
        "--record",
        path.to_str().expect("utf-8"),
    ]);
    let games = records(&path);
    assert_eq!(games.len(), 6);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["game"], i);
        let moves = g["moves"].as_array().expect("moves");
        assert_eq!(g["turns"], moves.len());
        assert!(moves.iter().all(|m| m.as_str().is_some_and(|m| m.starts_with("(mark "))), "{g}");
        let marks = g["final"].as_str().expect("final").matches(" x)").count()
            + g["final"].as_str().expect("final").matches(" o)").count();
        assert_eq!(marks, moves.len(), "every move marks a cell: {g}");
    }
    let winners = |w: &str| games.iter().filter(|g| g["winner"] == w).count() as u64;
    assert_eq!(winners("a"), count(&summary["a"], "wins"));
    assert_eq!(winners("b"), count(&summary["a"], "losses"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn alpha_beta_at_depth_two_beats_random_at_tic_tac_toe() {
    for spec in ["alphabeta:2:random", "alphabeta:2:material"] {
        let summary = play(&["--game", &game("ticTacToe"), "--a", spec, "--games", "20", "--seed", "1"]);
        let a = &summary["a"];
        assert!(count(a, "wins") > 10, "{spec} should win most games: {summary}");
        assert!(count(a, "losses") < 5, "{spec} loses few games: {summary}");
        assert!(a["states_per_turn_mean"].as_f64().unwrap_or(0.0) > 1.0, "{summary}");
    }
}

/// The `gdl` primset binds to any game: the example evaluators (a tree and
/// a network over its features) play tic-tac-toe and connect four, with the
/// same games on the interpreter and the JIT.
#[test]
fn evaluators_over_the_gdl_primset_play_any_game() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/programs/examples/gdl-evaluator.sg");
    for (name, individual) in [("ticTacToe", "goal-and-mobility"), ("connectFour", "projection")] {
        let spec = format!("gp:{examples}:{individual}:alphabeta:2");
        let run = |engine: &str| {
            let mut summary =
                play(&["--game", &game(name), "--a", &spec, "--games", "20", "--seed", "3", "--engine", engine]);
            summary["games_per_s"] = Value::Null;
            summary
        };
        let summary = run("jit");
        let a = &summary["a"];
        assert!(count(a, "wins") > 10, "{name}: {individual} should beat random: {summary}");
        assert!(count(a, "losses") < 5, "{name}: {summary}");
        assert_eq!(summary, run("interp"), "{name}: the interpreter plays the same games");
    }
}

#[test]
fn three_roles_play_with_a_player_each_and_record_their_scores() {
    let dir = temp("record3");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("games.jsonl");
    let record = path.to_str().expect("utf-8");
    let three = game("3pConnectFour");
    let summary = play(&[
        "--game",
        &three,
        "--players",
        "random,random,random",
        "--games",
        "10",
        "--seed",
        "2",
        "--record",
        record,
    ]);
    let roles = summary["roles"].as_array().expect("roles");
    let names: Vec<&str> = roles.iter().map(|r| r["role"].as_str().expect("role")).collect();
    assert_eq!(names, ["red", "yellow", "blue"]);
    let games = records(&path);
    assert_eq!(games.len(), 10);
    for (r, role) in roles.iter().enumerate() {
        let sum: u64 = games.iter().map(|g| g["scores"][names[r]].as_u64().expect("a score")).sum();
        assert_eq!(role["mean_score"].as_f64(), Some(sum as f64 / 10.0), "{summary}");
        assert_eq!(role["player"], "random");
    }
    for g in &games {
        let moves = g["moves"].as_array().expect("moves");
        assert_eq!(g["turns"], moves.len());
        // Turns go round the roles: one role acts, or, where no role has a
        // choice (one column left), every role plays its only move.
        for (t, m) in moves.iter().enumerate() {
            let by_role = m.as_object().expect("a turn");
            assert!(by_role.len() == 1 || by_role.len() == 3, "{g}");
            assert!(by_role[names[t % 3]].as_str().is_some_and(|m| m.starts_with("(drop ")), "{g}");
        }
        let best = names.iter().map(|n| g["scores"][n].as_u64().unwrap_or(0)).max().unwrap_or(0);
        assert!(best <= 100);
    }
    let wins: u64 = roles.iter().map(|r| count(r, "wins")).sum();
    assert!(wins <= 10, "{summary}");
    // Without --players, A and B play the first two roles and random players the rest.
    let default = play(&["--game", &three, "--games", "10", "--seed", "2"]);
    assert_eq!(default["roles"], summary["roles"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn simultaneous_games_play_joint_moves() {
    let summary = play(&["--game", &game("connectFourSimultaneous"), "--games", "4"]);
    let roles = summary["roles"].as_array().expect("roles");
    assert_eq!(roles.len(), 2, "{summary}");
    let (code, _, stderr) =
        stratagem(&["play", "--game", &game("connectFourSimultaneous"), "--a", "gp:x.sg:e:select:2:ratio=0.5"]);
    assert_eq!(code, 1);
    assert!(flat(&stderr).contains("forward pruning) needs a two-player alternating game"), "{stderr}");
}

/// Searching players on simultaneous-move games (seeds/004's Blocker and
/// Double Tic-Tac-Toe): the example network and the paper's baseline (α-β
/// of the same depth with a random evaluation), opponents' moves sampled;
/// the same games at 1 and 2 threads and on the interpreter and the JIT.
#[test]
fn searching_players_play_simultaneous_games_the_same_at_any_thread_count() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/programs/examples/gdl-evaluator.sg");
    let evolved = format!("gp:{examples}:projection:alphabeta:2:samples=3");
    for name in ["blocker", "doubletictactoe"] {
        let players = format!("{evolved},alphabeta:2:random");
        let kif = game(name);
        let args = ["play", "--game", &kif, "--players", &players, "--games", "24", "--seed", "7", "--format", "json"];
        let run = |threads: &str, engine: &str| {
            let args: Vec<&str> = args.iter().copied().chain(["--engine", engine]).collect();
            let out = common::run_env(&args, Some(("RAYON_NUM_THREADS", threads.to_owned())));
            let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
            assert!(out.status.success(), "{name}: {stderr}");
            let mut summary = json(&String::from_utf8_lossy(&out.stdout));
            summary["games_per_s"] = Value::Null;
            summary
        };
        let summary = run("1", "jit");
        let roles = summary["roles"].as_array().expect("roles");
        assert_eq!(roles[1]["player"], "alphabeta:2:random", "{summary}");
        let total: f64 = roles.iter().map(|r| r["mean_score"].as_f64().expect("a mean")).sum();
        assert!(total > 0.0, "{name}: {summary}");
        assert_eq!(summary, run("2", "jit"), "{name}: 1 and 2 threads");
        assert_eq!(summary, run("2", "interp"), "{name}: the interpreter");
    }
}

#[test]
fn perft_counts_gdl_games_like_the_built_in_ones() {
    let (code, stdout, stderr) = stratagem(&["perft", "--game", &game("ticTacToe"), "--depth", "3"]);
    assert_eq!(code, 0, "{stderr}");
    let report = json(&stdout);
    let nodes: Vec<u64> = report["depths"].as_array().expect("depths").iter().map(|d| count(d, "nodes")).collect();
    assert_eq!(nodes, [9, 72, 504]);
    assert!(report["position"].as_str().expect("position").ends_with("(cell 3 3 b) (control xplayer))"));
    // Joint moves of a simultaneous game: 8 columns for each of two players.
    let (code, stdout, stderr) = stratagem(&["perft", "--game", &game("connectFourSimultaneous"), "--depth", "1"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(count(&json(&stdout)["depths"][0], "nodes"), 64);
    // A start position in the fluent-list format.
    let position = "((cell 1 1 x) (cell 1 2 o) (cell 1 3 b) (cell 2 1 b) (cell 2 2 b) (cell 2 3 b) (cell 3 1 b) \
                    (cell 3 2 b) (cell 3 3 b) (control xplayer))";
    let (code, stdout, stderr) =
        stratagem(&["perft", "--game", &game("ticTacToe"), "--position", position, "--depth", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(count(&json(&stdout)["depths"][1], "nodes"), 42);
}

#[test]
fn files_that_do_not_load_are_reported_with_their_name() {
    let (code, _, stderr) = stratagem(&["play", "--game", "no/such/game.kif"]);
    assert_eq!(code, 1);
    assert!(flat(&stderr).contains("cannot read the GDL game `no/such/game.kif`"), "{stderr}");

    let dir = temp("bad");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.kif");
    std::fs::write(&bad, "(role a)\n(init (p 1)\n").expect("write");
    let (code, _, stderr) = stratagem(&["perft", "--game", bad.to_str().expect("utf-8"), "--depth", "1"]);
    assert_eq!(code, 1);
    let text = flat(&stderr);
    assert!(text.contains("bad.kif"), "the file is named: {stderr}");
    assert!(text.contains("is not a GDL game this build can play"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_role_without_a_legal_move_stops_play_with_an_error() {
    let dir = temp("stuck");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let stuck = dir.join("stuck.kif");
    // After one step neither role has a legal move, and the game is not over.
    std::fs::write(
        &stuck,
        "(role a) (role b) (init (step 0)) (succ 0 1) (succ 1 2)\n\
         (<= (legal a go) (true (step 0))) (<= (legal b wait) (true (step 0)))\n\
         (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))\n\
         (<= terminal (true (step 2))) (goal a 50) (goal b 50)\n",
    )
    .expect("write");
    let path = stuck.to_str().expect("utf-8");
    for args in [vec!["play", "--game", path, "--games", "3"], vec!["perft", "--game", path, "--depth", "3"]] {
        let (code, stdout, stderr) = stratagem(&args);
        assert_eq!(code, 1, "{args:?}: {stdout}");
        assert!(flat(&stderr).contains("role a has no legal move in a state that is not terminal"), "{stderr}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn players_are_checked_against_the_roles() {
    let three = game("3pConnectFour");
    let (code, _, stderr) = stratagem(&["play", "--game", &three, "--players", "random,random"]);
    assert_eq!(code, 1);
    assert!(flat(&stderr).contains("--players gives 2 players, and"), "{stderr}");
    let (code, _, stderr) =
        stratagem(&["play", "--game", &three, "--players", "random,gp:x.sg:e:select:2:maxbranch=2,random"]);
    assert_eq!(code, 1);
    assert!(flat(&stderr).contains("(the player of yellow; forward pruning) needs a two-player"), "{stderr}");
    // Three roles take searching players.
    let summary = play(&["--game", &three, "--players", "alphabeta:1:random,random,random", "--games", "6"]);
    assert_eq!(summary["roles"][0]["player"], "alphabeta:1:random");
    // On a two-player game, two specs stand for --a and --b.
    let summary = play(&["--game", &game("ticTacToe"), "--players", "alphabeta:1:random,random", "--games", "2"]);
    assert_eq!(summary["a"]["player"], "alphabeta:1:random");
}

#[test]
fn games_mentions_gdl_files() {
    let (code, stdout, _) = stratagem(&["games"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("Any GDL game description is a game too"), "{stdout}");
}
