//! `stratagem ggp serve` as a game server meets it: real matches run by
//! GGP-Base's GameServer (../shared/ggp/ggp-match) against its RandomGamer,
//! which must be clean (no timeout, illegal move or protocol warning), and
//! the protocol spoken over raw TCP: INFO, malformed requests (4xx, and the
//! server lives on), `busy` on a second START, ABORT, rules that do not load.
//!
//! Needs Java (.ci/run installs it where it is missing) and ../shared/ggp.

use std::process::Command;

mod common;

use common::ggp::{GAMES, Server, assert_clean, ggp_base_player, ggp_match, tools_present};

#[test]
fn matches_against_ggp_base_players_are_clean() {
    tools_present();
    let server = Server::start(&[]);
    let (_random, random_port) = ggp_base_player("RandomGamer");
    let us = server.port.to_string();
    let them = random_port.to_string();
    // Tic-tac-toe in both roles.
    for (players, role) in [([us.clone(), them.clone()], "xplayer"), ([them.clone(), us.clone()], "oplayer")] {
        let report = ggp_match("ticTacToe", &players, (3, 1));
        assert_clean(&report, &format!("ticTacToe as {role}"));
        let log = server.log_with(&format!("role {role}"));
        assert!(log.contains(&format!("role {role}")) && log.contains("engine compiled"), "{log}");
    }
    // Simultaneous moves: the iterated prisoner's dilemma.
    let report = ggp_match("gt_prisoner", &[us.clone(), them.clone()], (2, 1));
    assert_clean(&report, "gt_prisoner");
    // Three roles, the other two played by RandomGamers.
    let (_second, second_port) = ggp_base_player("RandomGamer");
    let report = ggp_match("3pttc", &[them.clone(), us, second_port.to_string()], (2, 1));
    assert_clean(&report, "3pttc");
    let log = server.log_with("role yellow");
    assert!(log.lines().filter(|l| l.contains("goals")).count() >= 4, "a log line with the result per match:\n{log}");
}

fn tic_tac_toe_start(id: &str, role: &str) -> String {
    let rules = std::fs::read_to_string(format!("{GAMES}/ticTacToe.kif")).expect("ticTacToe.kif");
    format!("( START {id} {role} ({rules}) 5 2)")
}

#[test]
fn the_protocol_and_its_errors() {
    let server = Server::start(&["--player", "random"]);
    assert_eq!(server.send("( INFO )"), (200, "( ( name stratagem ) ( status available ) )".to_owned()));
    // Malformed requests get a 4xx and change nothing.
    for (raw, status) in [
        (&b"GET / HTTP/1.0\r\n\r\n"[..], 405),
        (b"POST / HTTP/1.0\r\n\r\n( INFO )", 411),
        (b"POST / HTTP/1.0\r\nContent-Length: ten\r\n\r\n", 400),
        (b"POST / HTTP/1.0\r\nContent-Length: 5\r\n\r\n( INF", 400),
        (b"POST / HTTP/1.0\r\nContent-Length: 99999999999\r\n\r\n", 413),
        (b"\r\n\r\n", 405),
        (b"", 400),
        (b"POST / HTTP/1.0\r\nContent-Length: 4\r\n\r\n\xff\xfe()", 400),
    ] {
        assert_eq!(server.raw(raw).0, status, "{}", String::from_utf8_lossy(raw));
    }
    for bad in ["( DANCE )", "( PLAY nomatch NIL )", "( START m0 x (( role x )) soon 1 )", "(((", ")"] {
        assert_eq!(server.send(bad).0, 400, "{bad}");
    }
    assert_eq!(server.send("( INFO )").1, "( ( name stratagem ) ( status available ) )", "alive");

    // A match: ready, busy for anyone else, a legal first move, ABORT.
    assert_eq!(server.send(&tic_tac_toe_start("m1", "XPLAYER")), (200, "ready".to_owned()), "roles in any case");
    assert_eq!(server.send("( INFO )").1, "( ( name stratagem ) ( status busy ) )");
    assert_eq!(server.send(&tic_tac_toe_start("m2", "oplayer")), (200, "busy".to_owned()));
    let (status, first) = server.send("( PLAY m1 NIL )");
    assert_eq!(status, 200);
    assert!(first.starts_with("(mark ") && first.ends_with(')'), "a mark: {first}");
    let (_, second) = server.send(&format!("( PLAY m1 ({first} noop) )"));
    assert_eq!(second, "noop", "oplayer's turn");
    assert_eq!(server.send("( ABORT m1 )"), (200, "aborted".to_owned()));
    assert!(server.log_with("aborted").contains("match m1: role XPLAYER"), "the match's log line");
    assert_eq!(server.send("( INFO )").1, "( ( name stratagem ) ( status available ) )");

    // Rules that do not load: still `ready`, `nil` moves, a log line.
    assert_eq!(server.send("( START m3 red ((role red) (<= (legal red ?x))) 2 1 )").1, "ready");
    assert_eq!(server.send("( PLAY m3 NIL )").1, "nil");
    assert_eq!(server.send("( STOP m3 NIL )").1, "done");
    assert!(server.log_with("do not load").contains("match m3: role red"), "{}", server.log_with(""));

    // A role the game lacks: the same.
    assert_eq!(server.send(&tic_tac_toe_start("m4", "nobody")).1, "ready");
    assert_eq!(server.send("( PLAY m4 NIL )").1, "nil");
    assert_eq!(server.send("( STOP m4 NIL )").1, "done");
    assert!(server.log_with("no such role").contains("its roles: xplayer, oplayer"));
    // Moves that are not the game's are logged, not fatal.
    assert_eq!(server.send(&tic_tac_toe_start("m5", "oplayer")).1, "ready");
    assert_eq!(server.send("( PLAY m5 NIL )").1, "noop");
    assert_eq!(server.send("( PLAY m5 ((fly 9 9) noop) )").0, 200);
    assert_eq!(server.send("( STOP m5 NIL )").1, "done");
    assert!(server.log_with("could not be followed").contains("(fly 9 9)"));
    // STOP or ABORT of a match not being played is acknowledged.
    assert_eq!(server.send("( STOP gone NIL )").1, "done");
    assert_eq!(server.send("( ABORT gone )").1, "aborted");
}

/// A game that spells a name two ways is read as GGP-Base's server reads it,
/// case and all: `timeOut` is not `timeout`, so the game goes on to count 4
/// (read case-insensitively it would end at count 2, and the player answer
/// `nil` from then on, as it did in the corpus's wargame01).
#[test]
fn rules_are_read_case_and_all_as_the_game_server_reads_them() {
    let server = Server::start(&["--player", "random"]);
    let rules = "(role p) (init (count 1)) (succ 1 2) (succ 2 3) (succ 3 4) \
                 (<= (next (count ?n)) (true (count ?m)) (succ ?m ?n)) (<= (legal p Tick) (true (count ?n))) \
                 (<= timeout (true (count 2))) (<= terminal timeOut) (<= terminal (true (count 4))) (goal p 100)";
    assert_eq!(server.send(&format!("( START c1 p ({rules}) 5 2 )")).1, "ready");
    assert_eq!(server.send("( PLAY c1 NIL )").1, "Tick", "the move as the rules spell it");
    assert_eq!(server.send("( PLAY c1 (Tick) )").1, "Tick", "count 2 is not the end");
    assert_eq!(server.send("( PLAY c1 (TICK) )").1, "Tick", "a move read in another case when one name fits");
    assert_eq!(server.send("( STOP c1 (Tick) )").1, "done");
    assert!(server.log_with("match c1").contains("goals"), "{}", server.log_with(""));
}

#[test]
fn uct_plays_games_of_any_number_of_roles_in_play() {
    let play = || {
        let output = Command::new(env!("CARGO_BIN_EXE_stratagem"))
            .args(["play", "--game", &format!("{GAMES}/3pConnectFour.kif"), "--players", "uct:300,random,random"])
            .args(["--games", "10", "--seed", "0", "--format", "json"])
            .output()
            .expect("stratagem runs");
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let mut report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        report.as_object_mut().expect("an object").remove("games_per_s");
        report
    };
    let report = play();
    assert_eq!(report, play(), "a seed and UCT iterations fix the games");
    let red = &report["roles"][0];
    assert_eq!(red["player"], "uct:300");
    assert!(red["wins"].as_u64().expect("wins") >= 6, "UCT against two random players: {report}");
}

/// `--player FILE:NAME` (the older spelling of `gp:FILE:NAME`): the example network over the gdl primset plays
/// clean matches against GGP-Base's RandomGamer by iterative deepening
/// within each play clock (connect four, and blocker's simultaneous
/// moves); a file, name or primset that cannot play is an error at once.
#[test]
fn evaluators_play_clean_matches_by_iterative_deepening() {
    tools_present();
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/programs/examples/gdl-evaluator.sg");
    let spec = format!("{examples}:projection");
    let server = Server::start(&["--player", &spec]);
    let (_random, random_port) = ggp_base_player("RandomGamer");
    let us = server.port.to_string();
    let report = ggp_match("connectFour", &[us.clone(), random_port.to_string()], (3, 1));
    assert_clean(&report, "connectFour");
    let log = server.log_with("role red");
    assert!(log.contains(&format!("player {spec}")) && log.contains("mean depth"), "{log}");
    let report = ggp_match("blocker", &[random_port.to_string(), us], (3, 1));
    assert_clean(&report, "blocker");
    assert!(server.log_with("role blocker").contains("role blocker"));

    for (player, wanted) in [
        (format!("{examples}:nothing"), "defines no individual, policy, weights or"),
        ("no-such-file.sg:x".to_owned(), "no-such-file.sg"),
        ("uct:5".to_owned(), "give uct, random, legal or gp:FILE:NAME"),
        ("gp:no-such-file.sg:x".to_owned(), "no-such-file.sg"),
        (
            concat!(env!("CARGO_MANIFEST_DIR"), "/programs/examples/freecell-heuristics.sg:paper-best").to_owned(),
            "evaluates with primset `freecell`, of domain `freecell`",
        ),
        ("nonsense".to_owned(), "give uct, random, legal or gp:FILE:NAME"),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_stratagem"))
            .args(["ggp", "serve", "--port", "0", "--player", &player])
            .output()
            .expect("stratagem runs");
        // miette wraps long lines (the path's length moves the break) with a
        // `│` gutter: compare the words only.
        let stderr = String::from_utf8_lossy(&output.stderr).replace('│', " ");
        let stderr = stderr.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(output.status.code(), Some(1), "{player}: {stderr}");
        assert!(stderr.contains(wanted), "{player}: {stderr}");
    }
}

/// `--learn`: an evaluator coevolved within the start clock plays a clean
/// match (connect four against GGP-Base's RandomGamer); a game of one role
/// learns nothing and `--player` plays it.
#[test]
fn learning_in_the_start_clock() {
    tools_present();
    let server = Server::start(&["--learn"]);
    let (_random, random_port) = ggp_base_player("RandomGamer");
    // A 10-second start clock: about 8 s of learning, so that a test run
    // beside others (CI's two cores) still sees several generations.
    let report = ggp_match("connectFour", &[server.port.to_string(), random_port.to_string()], (10, 1));
    assert_clean(&report, "connectFour");
    let log = server.log_with("role red");
    let learnt = log.split("player learnt (").nth(1).and_then(|rest| rest.split_whitespace().next());
    let generations: u64 = learnt.and_then(|g| g.parse().ok()).unwrap_or_else(|| panic!("{log}"));
    assert!(generations >= 2, "generations learnt in a 10-second start clock: {log}");
    assert!(log.contains("mean depth"), "{log}");

    let rules = std::fs::read_to_string(format!("{GAMES}/eightPuzzle.kif")).expect("eightPuzzle.kif");
    assert_eq!(server.send(&format!("( START solo player ({rules}) 2 1 )")).1, "ready");
    assert_eq!(server.send("( ABORT solo )").1, "aborted");
    let log = server.log_with("match solo");
    assert!(
        log.contains(
            "nothing learnt (covering coevolution takes games of two or more roles, this one has 1); uct plays"
        ),
        "{log}"
    );
}
