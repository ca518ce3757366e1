//! `stratagem moves` as a user runs it: the legal moves of positions of
//! every kind of game (two-player, backgammon's chance and plays, a puzzle,
//! GDL games of alternating and simultaneous moves), the move a player
//! chooses with its values, JSON output, and bad input as diagnostics.

mod common;
use common::{flat, stratagem};

use std::collections::BTreeSet;

use serde_json::Value;
use stratagem::games::Game;
use stratagem::games::backgammon::Backgammon;
use stratagem::games::backgammon::position_id::{format_id, parse_id};

const GDL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/gdl/games");

/// Runs `stratagem moves ARGS` and returns its stdout; fails unless it exits 0.
fn moves(args: &[&str]) -> String {
    let all: Vec<&str> = std::iter::once("moves").chain(args.iter().copied()).collect();
    let (code, stdout, stderr) = stratagem(&all);
    assert_eq!(code, 0, "moves {args:?}:\n{stderr}");
    stdout
}

/// `stratagem moves ARGS --format json`, parsed.
fn moves_json(args: &[&str]) -> Value {
    let all: Vec<&str> = args.iter().copied().chain(["--format", "json"]).collect();
    let stdout = moves(&all);
    assert_eq!(stdout.lines().count(), 1, "one JSON object: {stdout}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

/// The listed moves' texts.
fn texts(report: &Value) -> Vec<String> {
    report["moves"].as_array().expect("moves").iter().map(|m| m["move"].as_str().expect("move").to_owned()).collect()
}

/// The listed lines `MOVE  ->  POSITION...` of text output, as (move, rest).
fn lines(stdout: &str) -> Vec<(String, String)> {
    stdout.lines().filter_map(|l| l.split_once("  ->  ")).map(|(mv, rest)| (mv.to_owned(), rest.to_owned())).collect()
}

/// `board` with the sides swapped, as gnubg's Position ID of the side that
/// is on roll after the play.
fn swapped(id: &str) -> String {
    format_id(&parse_id(id, 0).expect("a Position ID").swapped())
}

#[test]
fn lose_checkers_lists_the_seven_opening_moves_with_their_positions() {
    let report = moves_json(&["--game", "lose-checkers"]);
    assert_eq!(report["game"], "lose-checkers");
    assert_eq!(report["to_move"], "black", "{report}");
    let listed = texts(&report);
    assert_eq!(listed.len(), 7, "{listed:?}");
    assert_eq!(listed.iter().collect::<BTreeSet<_>>().len(), 7, "distinct moves: {listed:?}");
    // Each position is the game's text, read back to a position with white to move.
    for m in report["moves"].as_array().expect("moves") {
        let position = m["position"].as_str().expect("position");
        let next = moves_json(&["--game", "lose-checkers", "--position", position]);
        assert_eq!(next["to_move"], "white", "after {}: {next}", m["move"]);
        assert_eq!(next["position"], position, "positions round trip");
        assert!(m.get("probability").is_none() && m.get("value").is_none(), "{m}");
    }
    // Text: one line a move, the same moves.
    let text = moves(&["--game", "lose-checkers"]);
    assert!(text.contains("black to move: 7 moves"), "{text}");
    let shown: Vec<String> = lines(&text).into_iter().map(|(mv, _)| mv).collect();
    assert_eq!(shown, listed);
}

#[test]
fn a_program_values_each_move_at_depth_one() {
    // figure-1-2 is 0 when the friendly pieces are at most twice the enemy
    // kings, else the enemy kings plus 3.4: after any opening move the side
    // to move (white, 12 pieces, no enemy king) scores 3.4, so each move is
    // worth -3.4 to black (negamax).
    let spec = "gp:programs/champions/lose-checkers-figure-1-2.sg:figure-1-2";
    let report = moves_json(&["--game", "lose-checkers", "--player", spec]);
    let values: Vec<f64> =
        report["moves"].as_array().expect("moves").iter().map(|m| m["value"].as_f64().expect("a value")).collect();
    assert_eq!(values, [-3.4; 7], "{report}");
    let chosen = report["chosen"].as_str().expect("a chosen move");
    assert!(texts(&report).iter().any(|m| m == chosen), "{chosen}");
    assert_eq!(report["player"], spec);
    let text = moves(&["--game", "lose-checkers", "--player", spec]);
    assert!(text.contains("  value -3.4\n"), "{text}");
    assert!(text.contains(&format!("{spec} chooses {chosen} (seed 1)")), "{text}");
}

#[test]
fn morris_lists_placements_and_a_searching_player_chooses_one() {
    let report = moves_json(&["--game", "morris", "--player", "alphabeta:2:material"]);
    assert_eq!(report["to_move"], "white");
    assert_eq!(texts(&report).len(), 24, "a man on any of the 24 points: {report}");
    let chosen = report["chosen"].as_str().expect("chosen");
    assert!(texts(&report).iter().any(|m| m == chosen));
    // Nothing is decided in two plies of placing: every value is material, 0.
    for m in report["moves"].as_array().expect("moves") {
        assert_eq!(m["value"].as_f64(), Some(0.0), "{m}");
    }
}

#[test]
fn backgammon_lists_every_play_of_the_dice_with_its_position_id() {
    // The starting position with 31 to play: gnubg's 16 plays.
    let text = moves(&["--game", "backgammon", "--position", "4HPwATDgc/ABMA:31"]);
    assert!(text.contains("white to move: 16 moves"), "{text}");
    let listed = lines(&text);
    assert_eq!(listed.len(), 16, "{text}");
    let game = Backgammon;
    let start = game.parse_state("4HPwATDgc/ABMA:31").expect("a position");
    let after = game.format_state(&game.apply(&start, &game.parse_move(&start, "8/5 6/5").expect("legal")));
    assert!(text.contains(&format!("\n8/5 6/5  ->  {after}\n")), "{after}:\n{text}");
    assert!(!after.contains(':'), "the next side rolls: {after}");

    // Positions from gnubg's oracle: as many plays as gnubg finds, each
    // reaching one of gnubg's positions (seen by the side on roll next).
    let cases = include_str!("data/backgammon/gnubg_moves.txt");
    for line in cases.lines().filter(|l| !l.starts_with('#')).take(12) {
        let mut words = line.split_whitespace();
        let position = words.next().expect("a position");
        let pubeval = swapped(words.next().expect("pubeval's result"));
        let expected: BTreeSet<String> = words.map(swapped).collect();
        let report = moves_json(&["--game", "backgammon", "--position", position, "--player", "pubeval"]);
        let reached: BTreeSet<String> = report["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| m["position"].as_str().expect("position").to_owned())
            .collect();
        assert_eq!(reached.len(), report["moves"].as_array().map_or(0, Vec::len), "{position}: listed once each");
        assert_eq!(reached, expected, "{position}");
        // Pubeval's choice reaches gnubg's Pubeval position, and scores highest.
        let chosen = report["chosen"].as_str().expect("pubeval chooses a play");
        let listed = report["moves"].as_array().expect("moves");
        let pick = listed.iter().find(|m| m["move"] == chosen).expect("the chosen play is listed");
        assert_eq!(pick["position"], pubeval.as_str(), "{position}: {chosen}");
        let best = listed.iter().map(|m| m["value"].as_f64().expect("pubeval's score")).fold(f64::MIN, f64::max);
        assert_eq!(pick["value"].as_f64(), Some(best), "{position}");
    }
}

#[test]
fn backgammon_lists_rolls_and_opening_rolls_with_their_probabilities() {
    // Before the opening roll: 15 non-double rolls for either side, 1/30 each.
    let report = moves_json(&["--game", "backgammon", "--position", "opening"]);
    assert_eq!(report["to_move"], "chance");
    let listed = report["moves"].as_array().expect("moves");
    assert_eq!(listed.len(), 30, "{report}");
    for m in listed {
        assert!((m["probability"].as_f64().expect("probability") - 1.0 / 30.0).abs() < 1e-12, "{m}");
    }
    assert!(texts(&report).contains(&"black:65".to_owned()), "{report}");
    assert_eq!(moves_json(&["--game", "backgammon"])["moves"], report["moves"], "the initial position is `opening`");

    // Without dice: 21 rolls, a double 1/36 and the others 2/36.
    let report = moves_json(&["--game", "backgammon", "--position", "4HPwATDgc/ABMA"]);
    let listed = report["moves"].as_array().expect("moves");
    assert_eq!(listed.len(), 21);
    let mut sum = 0.0;
    for m in listed {
        let roll = m["move"].as_str().expect("a roll").as_bytes().to_owned();
        let p = m["probability"].as_f64().expect("probability");
        let expected = if roll[0] == roll[1] { 1.0 / 36.0 } else { 2.0 / 36.0 };
        assert!((p - expected).abs() < 1e-12, "{m}");
        assert_eq!(m["position"], format!("4HPwATDgc/ABMA:{}", m["move"].as_str().expect("roll")), "{m}");
        sum += p;
    }
    assert!((sum - 1.0).abs() < 1e-12, "{sum}");
    let text = moves(&["--game", "backgammon", "--position", "4HPwATDgc/ABMA"]);
    assert!(text.contains("chance to move: 21 outcomes"), "{text}");
    assert!(text.contains("\n11  ->  4HPwATDgc/ABMA:11  probability 1/36\n"), "{text}");
    assert!(text.contains("\n21  ->  4HPwATDgc/ABMA:21  probability 2/36\n"), "{text}");
    // A player has no choice to make at a roll.
    let report = moves_json(&["--game", "backgammon", "--position", "4HPwATDgc/ABMA", "--player", "pubeval"]);
    assert_eq!(report["chosen"], Value::Null, "{report}");
}

#[test]
fn random_players_choose_a_legal_move_fixed_by_the_seed() {
    let position = "4HPwATDgc/ABMA:65";
    let run = |seed: &str| {
        moves_json(&["--game", "backgammon", "--position", position, "--player", "random", "--seed", seed])
    };
    let once = run("1");
    let chosen = once["chosen"].as_str().expect("a play");
    assert!(texts(&once).iter().any(|m| m == chosen), "{once}");
    assert_eq!(once, run("1"), "the same seed, the same choice");
    let seeds: BTreeSet<String> = (1..=12).map(|s| run(&s.to_string())["chosen"].to_string()).collect();
    assert!(seeds.len() > 1, "seeds choose differently: {seeds:?}");
    assert!(once["moves"][0].get("value").is_none(), "a random player gives no values");
    // Default seed 1.
    let default = moves_json(&["--game", "backgammon", "--position", position, "--player", "random"]);
    assert_eq!(default, once);
    // A two-player game's random player too.
    let report = moves_json(&["--game", "lose-checkers", "--player", "random", "--seed", "7"]);
    assert!(texts(&report).iter().any(|m| m == report["chosen"].as_str().expect("chosen")), "{report}");
}

#[test]
fn a_rush_hour_board_lists_its_slides() {
    // The first card: A, C three slides each, Q and R two, O one.
    let board = "AA...OP..Q.OPXXQ.OP..Q..B...CCB.RRR.";
    let report = moves_json(&["--game", "rush-hour", "--position", board]);
    assert_eq!(report["to_move"], "solver");
    let listed: BTreeSet<String> = texts(&report).into_iter().collect();
    let expected: BTreeSet<String> = ["A+1", "A+2", "A+3", "O+1", "Q-1", "Q+1", "C-1", "C-2", "C-3", "R-1", "R+1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(listed, expected, "{report}");
    let a3 = report["moves"].as_array().expect("moves").iter().find(|m| m["move"] == "A+3").expect("A+3");
    assert_eq!(a3["position"], "...AAOP..Q.OPXXQ.OP..Q..B...CCB.RRR.");
    // A board of the shipped 8×8 set, as its file writes it.
    let file = std::fs::read_to_string("programs/puzzles/rush-hour-8x8.txt").expect("the 8×8 boards");
    let line = file.lines().find(|l| !l.starts_with('#')).expect("a board");
    let board = line.split_whitespace().nth(1).expect("length, board");
    let report = moves_json(&["--game", "rush-hour", "--position", board, "--player", "random"]);
    assert!(!texts(&report).is_empty(), "{report}");
    for m in report["moves"].as_array().expect("moves") {
        let position = m["position"].as_str().expect("position");
        assert_eq!(position.len(), 64, "{m}");
        assert_ne!(position, board, "{m}");
    }
}

#[test]
fn gdl_games_list_moves_forced_moves_and_joint_moves() {
    let tic_tac_toe = format!("{GDL}/ticTacToe.kif");
    let report = moves_json(&["--game", &tic_tac_toe]);
    assert_eq!(report["to_move"], "xplayer");
    assert_eq!(texts(&report).len(), 9, "{report}");
    assert_eq!(report["roles"][0]["role"], "oplayer", "the other role's forced move: {report}");
    assert_eq!(report["roles"][0]["moves"].as_array().map(Vec::len), Some(1));
    let first = &report["moves"][0];
    assert!(first["position"].as_str().expect("position").ends_with("(control oplayer))"), "{first}");
    // The position after a move is one to list again.
    let next = moves_json(&["--game", &tic_tac_toe, "--position", first["position"].as_str().expect("position")]);
    assert_eq!(next["to_move"], "oplayer");
    assert_eq!(texts(&next).len(), 8);
    // A searching player on an alternating GDL game (α-β), with values.
    let report = moves_json(&["--game", &tic_tac_toe, "--player", "alphabeta:1:random:ties=first"]);
    assert!(texts(&report).iter().any(|m| m == report["chosen"].as_str().expect("chosen")), "{report}");

    // Simultaneous moves: 8 columns for each player, 64 joint moves.
    let simultaneous = format!("{GDL}/connectFourSimultaneous.kif");
    let report = moves_json(&["--game", &simultaneous, "--player", "uct:50"]);
    assert_eq!(report["to_move"], "simultaneous");
    assert_eq!(report["joint_moves"], 64);
    let roles = report["roles"].as_array().expect("roles");
    assert_eq!(roles.len(), 2);
    assert!(roles.iter().all(|r| r["moves"].as_array().map(Vec::len) == Some(8)), "{report}");
    let joint = texts(&report);
    assert_eq!(joint.len(), 64);
    assert_eq!(joint.iter().collect::<BTreeSet<_>>().len(), 64, "distinct joint moves");
    let chosen = report["chosen"].as_str().expect("a joint move");
    assert!(joint.iter().any(|m| m == chosen), "{chosen}");
    let text = moves(&["--game", &simultaneous]);
    assert!(text.contains("every role moves at once: 64 joint moves"), "{text}");
}

#[test]
fn bad_input_is_a_diagnostic() {
    let fails = |args: &[&str], expected: &[&str]| {
        let all: Vec<&str> = std::iter::once("moves").chain(args.iter().copied()).collect();
        let (code, stdout, stderr) = stratagem(&all);
        assert_eq!(code, 1, "{args:?}: {stdout}{stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        for e in expected {
            assert!(flat(&stderr).contains(e), "{args:?}: `{e}` not in\n{stderr}");
        }
    };
    fails(&["--game", "chess"], &["unknown game `chess`"]);
    fails(
        &["--game", "backgammon", "--position", "4HPwATDgc/ABMA:70"],
        &["`70` is not a roll of two dice", "<--position>"],
    );
    fails(&["--game", "backgammon", "--position", "not-an-id"], &["stratagem::game::position"]);
    fails(&["--game", "lose-checkers", "--position", "xyz"], &["stratagem::game::position", "<--position>"]);
    fails(&["--game", "backgammon", "--player", "deep-thought"], &["unknown backgammon player `deep-thought`"]);
    fails(&["--game", "morris", "--player", "pubeval"], &["unknown player `pubeval`", "pubeval (backgammon)"]);
    fails(&["--game", "backgammon", "--player", "gp:no/such/file.sg:x"], &["no/such/file.sg"]);
    fails(&["--game", "antwars", "--player", "greedy"], &["`--player` needs a game whose players choose a move"]);
    fails(&["--game", "backgammon", "--format", "yaml"], &["yaml"]);
    // Without a player Ant Wars lists its moves.
    let report = moves_json(&["--game", "antwars"]);
    assert!(!texts(&report).is_empty(), "{report}");
}
