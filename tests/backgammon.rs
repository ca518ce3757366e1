//! Backgammon against GNU Backgammon: move generation (the set of positions
//! each roll reaches) and Pubeval's choices on the positions of
//! tests/data/backgammon/gnubg_moves.txt, written by gnubg-nn (its
//! generate.py); and the game as a user plays it from the command line,
//! bad input included.

use std::collections::BTreeSet;
use std::process::Command;

use stratagem::games::Game;
use stratagem::games::backgammon::board::Board;
use stratagem::games::backgammon::movegen::{Play, generate};
use stratagem::games::backgammon::position_id::format_id;
use stratagem::games::backgammon::{Backgammon, Phase, pubeval};

const CASES: &str = include_str!("data/backgammon/gnubg_moves.txt");

/// Each case: the position and roll, Pubeval's result, every result.
fn cases() -> Vec<(&'static str, &'static str, BTreeSet<&'static str>)> {
    CASES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut words = l.split_whitespace();
            let position = words.next().expect("a position");
            let pubeval = words.next().expect("pubeval's result");
            (position, pubeval, words.collect())
        })
        .collect()
}

fn plays_of(position: &str) -> (Board, Vec<Play>) {
    let pos = Backgammon.parse_state(position).unwrap_or_else(|e| panic!("{position}: {e}"));
    let Phase::ToPlay(roll) = pos.phase else { panic!("{position} has no dice") };
    let mut plays = Vec::new();
    generate(&pos.board, roll, &mut plays);
    (pos.board, plays)
}

#[test]
fn move_generation_reaches_the_positions_gnubg_reaches() {
    let cases = cases();
    assert!(cases.len() >= 300, "{} cases", cases.len());
    let (mut bar, mut bear_off, mut one_die) = (0, 0, 0);
    for (position, _, expected) in &cases {
        let (board, plays) = plays_of(position);
        let reached: BTreeSet<String> = plays.iter().map(|p| format_id(&p.after)).collect();
        let expected: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
        assert_eq!(reached.len(), plays.len(), "{position}: one play per position");
        assert_eq!(reached, expected, "{position}: mine, then gnubg's");
        bar += usize::from(board.me[24] > 0);
        bear_off += usize::from(board.me[6..].iter().all(|&n| n == 0));
        let dice = position.as_bytes();
        let double = dice[dice.len() - 1] == dice[dice.len() - 2];
        one_die += usize::from(!double && plays.iter().all(|p| p.n_steps == 1));
    }
    assert!(bar >= 50 && bear_off >= 50 && one_die >= 20, "bar {bar}, bear-off {bear_off}, one die {one_die}");
}

#[test]
fn pubeval_chooses_gnubgs_play() {
    let mut differ = Vec::new();
    for (position, chosen, _) in cases() {
        let (board, plays) = plays_of(position);
        let best = pubeval::best_play(&board, &plays).expect("a play");
        let mine = format_id(&plays[best].after);
        if mine != chosen {
            differ.push(format!("{position}: mine {mine}, gnubg's {chosen}"));
        }
    }
    assert!(differ.is_empty(), "{} of the cases differ:\n{}", differ.len(), differ.join("\n"));
}

fn stratagem(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_stratagem")).args(args).output().expect("runs")
}

#[test]
fn random_games_are_played_from_the_command_line() {
    let out = stratagem(&["play", "--game", "backgammon", "--a", "random", "--b", "random", "--games", "50"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = stratagem(&["play", "--game", "backgammon", "--position", "4HPwATDgc/ABMA:65", "--games", "5"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn bad_positions_get_a_diagnostic_and_exit_1() {
    for (position, says) in [
        ("4HPwATDgc/AB", "14 characters"),
        ("4HPwATDgc/AB!A", "base64"),
        ("4HPwATDgc/ABMA:71", "not a roll of two dice"),
        ("4HPwATDgc/ABMA:6", "not a roll of two dice"),
        ("//////////////", "last 4 must be 0"),
        ("/////////////w", "more than 15 checkers"),
    ] {
        let out = stratagem(&["play", "--game", "backgammon", "--position", position, "--games", "1"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{position}: {stderr}");
        assert!(stderr.contains(says), "{position}: {stderr}");
        assert!(!stderr.contains("panicked"), "{position}: {stderr}");
    }
}

#[test]
fn illegal_plays_are_refused_with_the_legal_ones() {
    let game = Backgammon;
    let pos = game.parse_state("4HPwATDgc/ABMA:65").expect("valid");
    for bad in ["24/18", "6/1", "12/6", "24/18 13/8 8/3", "25/x", "24/18(9)"] {
        let err = game.parse_move(&pos, bad).expect_err(bad);
        assert!(!err.message.is_empty(), "{bad}");
    }
    let err = game.parse_move(&pos, "24/18").expect_err("both dice");
    assert!(err.help.is_some_and(|h| h.contains("24/13")), "the legal plays are listed");
    let mv = game.parse_move(&pos, "24/18 18/13").expect("legal");
    assert_eq!(game.format_move(&pos, &mv), "24/13");
}

#[test]
fn pubeval_is_a_player_of_backgammon_only() {
    let out = stratagem(&["play", "--game", "backgammon", "--a", "pubeval", "--b", "random", "--games", "100"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let wins: u32 = stdout
        .lines()
        .skip_while(|l| !l.starts_with("white: pubeval"))
        .nth(1)
        .and_then(|l| l.split_whitespace().skip_while(|w| *w != "wins").nth(1))
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no wins in {stdout}"));
    assert!(wins >= 90, "pubeval won {wins} of 100 against random");
    let out = stratagem(&["play", "--game", "morris", "--a", "pubeval", "--b", "random", "--games", "1"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The share of games A won in `tournament`'s line for A against B.
fn share_won(stdout: &str, a: &str, b: &str) -> f64 {
    let line = stdout.lines().find(|l| l.starts_with(&format!("{a} vs {b}:"))).unwrap_or_else(|| panic!("{stdout}"));
    let pct = line.split('(').nth(1).and_then(|s| s.split('%').next()).unwrap_or_else(|| panic!("{line}"));
    pct.parse::<f64>().expect("a percentage") / 100.0
}

#[test]
fn gp_gammon_individuals_play_with_both_trees_at_one_ply_or_two() {
    let cautious = "gp:tests/data/backgammon/players.sg:cautious";
    let flat = "gp:tests/data/backgammon/players.sg:flat";
    let players = format!("{cautious},{flat},pubeval:ply=2");
    let out = stratagem(&["tournament", "--game", "backgammon", "--players", &players, "--games", "20"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // A constant evaluation plays the first play generated: a pip counter
    // that fears shots beats it most of the time (91% of 120 games in a
    // release run), and so does Pubeval looking two plies ahead (92%).
    assert!(share_won(&stdout, cautious, flat) > 0.7, "{stdout}");
    assert!(share_won(&stdout, flat, "pubeval:ply=2") < 0.3, "{stdout}");
    // `play` reads the game's own players too, and gives the same games for a seed.
    let play = |seed: &str| {
        let out = stratagem(&[
            "play",
            "--game",
            "backgammon",
            "--a",
            cautious,
            "--b",
            "pubeval",
            "--games",
            "20",
            "--seed",
            seed,
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.contains("wins")).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(play("3"), play("3"));
}

#[test]
fn bad_backgammon_players_get_a_diagnostic() {
    for (player, says) in [
        ("gp:tests/data/backgammon/one-tree.sg:one-tree", "no `race` tree"),
        ("gp:tests/data/backgammon/players.sg:cautios", "did you mean `cautious`"),
        ("pubeval:ply=3", "not 1 or 2"),
        ("pubevel", "did you mean `pubeval`"),
    ] {
        for command in ["play", "tournament"] {
            let players = format!("{player},random");
            let args: Vec<&str> = if command == "play" {
                vec!["play", "--game", "backgammon", "--a", player, "--b", "random", "--games", "2"]
            } else {
                vec!["tournament", "--game", "backgammon", "--players", &players, "--games", "1"]
            };
            let out = stratagem(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{command} {player}: {stderr}");
            assert!(stderr.contains(says), "{command} {player}: {stderr}");
        }
    }
}

#[test]
fn gp_gammon_evolves_from_the_shipped_experiments() {
    let dir = std::env::temp_dir().join(format!("stratagem-gp-gammon-{}", std::process::id()));
    for experiment in ["gp-gammon", "gp-gammon-pubeval"] {
        let out_dir = dir.join(experiment);
        let file = format!("programs/experiments/{experiment}.sg");
        let out = stratagem(&[
            "evolve",
            &file,
            "--out",
            out_dir.to_str().expect("a path"),
            "--stop-after",
            "2",
            "--threads",
            "2",
        ]);
        assert!(out.status.success(), "{experiment}: {}", String::from_utf8_lossy(&out.stderr));
        let log = std::fs::read_to_string(out_dir.join("log.jsonl")).expect("a log");
        let last: serde_json::Value = serde_json::from_str(log.lines().last().expect("a line")).expect("json");
        assert_eq!(last["generation"], 1, "{experiment}");
        assert_eq!(last["monitor"]["opponent"], "pubeval", "{experiment}");
        assert_eq!(last["monitor"]["games"], 200, "{experiment}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
