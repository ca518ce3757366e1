//! `stratagem ggp serve` as a game server meets it: real matches run by
//! GGP-Base's GameServer (../shared/ggp/ggp-match) against its RandomGamer,
//! which must be clean (no timeout, illegal move or protocol warning), and
//! the protocol spoken over raw TCP: INFO, malformed requests (4xx, and the
//! server lives on), `busy` on a second START, ABORT, rules that do not load.
//!
//! Needs Java (.ci/run installs it where it is missing) and ../shared/ggp.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const GGP: &str = "../shared/ggp";
const GAMES: &str = "../shared/gdl/games";

/// A process that is killed when the test is done with it.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `ggp serve` on a free port: the process, its port, and its stderr as
/// it comes.
struct Server {
    _child: Killed,
    port: u16,
    log: Arc<Mutex<String>>,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_stratagem"))
            .args(["ggp", "serve", "--port", "0", "--margin", "0.5"])
            .args(extra)
            .stderr(Stdio::piped())
            .spawn()
            .expect("stratagem runs");
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        let first = lines.next().and_then(Result::ok).unwrap_or_default();
        let port = first
            .split("listening on port ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in the first log line: {first:?}"));
        let log = Arc::new(Mutex::new(String::new()));
        let sink = log.clone();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                let mut log = sink.lock().unwrap();
                log.push_str(&line);
                log.push('\n');
            }
        });
        Server { _child: Killed(child), port, log }
    }

    /// The log so far, waiting up to a few seconds for `wanted` in it.
    fn log_with(&self, wanted: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let log = self.log.lock().unwrap().clone();
            if log.contains(wanted) || Instant::now() > deadline {
                return log;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sends `raw` as it is and returns the status and body of the reply.
    fn raw(&self, raw: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        stream.write_all(raw).expect("send");
        let _ = stream.shutdown(std::net::Shutdown::Write);
        let mut reply = String::new();
        stream.read_to_string(&mut reply).expect("a reply");
        let status = reply.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((&reply, ""));
        if status == 200 {
            assert!(head.starts_with("HTTP/1.0 200 OK"), "{head}");
            assert!(head.contains("Content-Type: text/acl"), "{head}");
            assert!(head.contains(&format!("Content-Length: {}", body.len())), "{head}");
        }
        (status, body.to_owned())
    }

    /// POSTs `message` as GGP-Base's server does.
    fn send(&self, message: &str) -> (u16, String) {
        let request = format!(
            "POST / HTTP/1.0\r\nAccept: text/delim\r\nSender: GAMESERVER\r\nReceiver: test\r\n\
             Content-Type: text/acl\r\nContent-Length: {}\r\n\r\n{message}",
            message.len()
        );
        self.raw(request.as_bytes())
    }
}

fn tools_present() {
    assert!(Path::new(GGP).join("ggp-match").exists(), "{GGP} is missing (the workspace's shared folder)");
    let java = Command::new("java").arg("-version").output();
    assert!(java.is_ok_and(|o| o.status.success()), "java is missing: apt-get install default-jre-headless");
}

/// A free port for a GGP-Base player.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// GGP-Base's `gamer` on a free port, once it listens.
fn ggp_base_player(gamer: &str) -> (Killed, u16) {
    let port = free_port();
    let child = Command::new(format!("{GGP}/ggp-player"))
        .args([&port.to_string(), gamer])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("ggp-player runs");
    let child = Killed(child);
    let deadline = Instant::now() + Duration::from_secs(60);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "ggp-player did not listen on {port}");
        std::thread::sleep(Duration::from_millis(100));
    }
    (child, port)
}

/// Runs one match with ggp-match and returns its JSON report.
fn ggp_match(game: &str, players: &[String], clocks: (u32, u32)) -> serde_json::Value {
    let output = Command::new(format!("{GGP}/ggp-match"))
        .arg(format!("{GAMES}/{game}.kif"))
        .args(players)
        .args([clocks.0.to_string(), clocks.1.to_string()])
        .output()
        .expect("ggp-match runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "ggp-match failed: {text}\n{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Asserts a completed, clean match, and that our role's moves were all ours
/// (no error, so no move replaced by the server).
fn assert_clean(report: &serde_json::Value, what: &str) {
    assert_eq!(report["status"], "completed", "{what}: {report}");
    assert_eq!(report["clean"], true, "{what}: errors {} warnings {}", report["errors"], report["protocolWarnings"]);
    for step in report["steps"].as_array().expect("steps") {
        assert!(step["errors"].as_array().expect("errors").iter().all(|e| e == ""), "{what}: {step}");
    }
}

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
