//! `stratagem ggp serve` under hostile clients (docs/GGP.md, "Hostile
//! clients"): hundreds of idle connections and headers trickled a byte at a
//! time while GGP-Base's GameServer plays a match against it, which must stay
//! clean; a 100 MB body refused with 413 before it is read; requests that are
//! not the protocol; deeply nested, malformed and oversized messages and
//! rules; a flood of INFO. Afterwards the server answers INFO within a
//! second and plays a clean match, and through it all its threads stayed
//! within the bound on connections and its resident memory under
//! [`RSS_BOUND_KB`].
//!
//! The server is started as tests/ggp.rs starts it (tests/common/ggp.rs).
//! Needs Java for GameServer
//! (.ci/run installs it where it is missing) and ../shared/ggp.

use std::io::{ErrorKind, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

mod common;

use common::ggp::{Server, assert_clean, ggp_base_player, ggp_match, post, reply, tools_present};

/// The server's peak resident memory (VmHWM) stays under this. Measured
/// with the debug build: about 40 MB after everything below (the 40 MiB
/// body the test sends in full among it), so this leaves room for other
/// builds and allocators, not for a body or a thread per connection.
const RSS_BOUND_KB: u64 = 200 << 10;

/// The server's threads: at most 64 connections' (src/ggp/connections.rs),
/// plus the main thread, the match's and its engine's.
const THREAD_BOUND: u64 = 64 + 16;

/// Idle connections the test tries to hold open at once.
const IDLE: usize = 300;

impl Server {
    /// A number of the server's /proc status (`VmHWM`, `Threads`, ...).
    fn status(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.0.id())).expect("/proc status");
        let line = status.lines().find(|l| l.starts_with(&format!("{field}:"))).expect("the field");
        line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("a number")
    }

    /// Asserts the bounds on threads and on peak memory so far.
    fn assert_within_bounds(&self, when: &str) {
        let threads = self.status("Threads");
        assert!(threads <= THREAD_BOUND, "{when}: {threads} threads");
        let (peak, now) = (self.status("VmHWM"), self.status("VmRSS"));
        assert!(peak < RSS_BOUND_KB, "{when}: peak resident memory {peak} kB");
        eprintln!("{when}: {threads} threads, resident {now} kB, peak {peak} kB");
    }
}

/// Whether the server has answered or closed `stream` (set non-blocking).
fn ended(stream: &TcpStream) -> bool {
    let mut byte = [0; 1];
    !matches!(stream.peek(&mut byte), Err(e) if e.kind() == ErrorKind::WouldBlock)
}

/// Keeps up to `n` idle connections open, opening new ones for those the
/// server drops, until `stop`; counts those opened in `opened` and returns
/// the most that were open at once (the server keeps at most its bound, the
/// kernel's backlog holds some more, the rest are dropped to make room).
fn hold_idle(port: u16, n: usize, stop: Arc<AtomicBool>, opened: Arc<AtomicUsize>) -> JoinHandle<usize> {
    thread::spawn(move || {
        let mut held: Vec<TcpStream> = Vec::new();
        let mut most = 0;
        while !stop.load(Ordering::Acquire) {
            held.retain(|s| !ended(s));
            while held.len() < n && !stop.load(Ordering::Acquire) {
                let address = std::net::SocketAddr::from(([127, 0, 0, 1], port));
                let Ok(stream) = TcpStream::connect_timeout(&address, Duration::from_millis(500)) else { break };
                stream.set_nonblocking(true).unwrap();
                held.push(stream);
                opened.fetch_add(1, Ordering::AcqRel);
                most = most.max(held.len());
            }
            thread::sleep(Duration::from_millis(250));
        }
        most
    })
}

/// Trickles a request's headers a byte every 200 ms on one connection after
/// another until `stop`; the longest a connection lived and the most bytes
/// one took go to `longest_ms` and `most_bytes`.
fn trickle(port: u16, stop: Arc<AtomicBool>, longest_ms: Arc<AtomicU64>, most_bytes: Arc<AtomicU64>) -> JoinHandle<()> {
    thread::spawn(move || {
        let request = post("( INFO )").into_bytes();
        while !stop.load(Ordering::Acquire) {
            let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
                thread::sleep(Duration::from_millis(100));
                continue;
            };
            stream.set_nonblocking(true).unwrap();
            let began = Instant::now();
            let mut sent = 0;
            while !ended(&stream) && !stop.load(Ordering::Acquire) {
                if sent < request.len() {
                    match stream.write(&request[sent..=sent]) {
                        Ok(n) => sent += n,
                        Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                        Err(_) => break,
                    }
                }
                thread::sleep(Duration::from_millis(200));
            }
            if !stop.load(Ordering::Acquire) {
                longest_ms.fetch_max(began.elapsed().as_millis() as u64, Ordering::AcqRel);
                most_bytes.fetch_max(sent as u64, Ordering::AcqRel);
            }
        }
    })
}

/// INFO, answered within a second of the connection.
fn assert_info_within_a_second(server: &Server, when: &str) {
    let began = Instant::now();
    let mut stream = server.connect();
    stream.set_read_timeout(Some(Duration::from_secs(1))).unwrap();
    stream.write_all(post("( INFO )").as_bytes()).unwrap();
    let (status, body) = reply(&mut stream);
    assert_eq!((status, body.as_str()), (200, "( ( name stratagem ) ( status available ) )"), "{when}");
    assert!(began.elapsed() < Duration::from_secs(1), "{when}: INFO took {:?}", began.elapsed());
}

/// A match of the counting game of one role, played by hand: each PLAY
/// answered well within its deadline (the play clock and a second).
fn play_counting_match(server: &Server, id: &str) {
    let rules = "(role p) (init (count 1)) (succ 1 2) (succ 2 3) (succ 3 4) \
                 (<= (next (count ?n)) (true (count ?m)) (succ ?m ?n)) (<= (legal p tick) (true (count ?n))) \
                 (<= terminal (true (count 4))) (<= (goal p 100) (true (count 4)))";
    assert_eq!(server.send(&format!("( START {id} p ({rules}) 2 1 )")), (200, "ready".to_owned()));
    for moves in ["NIL", "(tick)", "(tick)"] {
        let began = Instant::now();
        assert_eq!(server.send(&format!("( PLAY {id} {moves} )")), (200, "tick".to_owned()));
        assert!(began.elapsed() < Duration::from_secs(2), "PLAY answered in {:?}", began.elapsed());
    }
    assert_eq!(server.send(&format!("( STOP {id} (tick) )")), (200, "done".to_owned()));
    let log = server.log_with(&format!("match {id}:"));
    assert!(log.contains(&format!("match {id}: role p")) && log.contains("goals p 100 (ours 100)"), "{log}");
}

/// While hundreds of idle connections and trickled headers are held against
/// the server, GGP-Base's GameServer plays a clean match with it; the
/// tricklers are cut off by the header timeout, not by a timeout per byte;
/// the threads stay within the bound.
#[test]
fn idle_and_trickling_connections_leave_the_match_its_moves() {
    tools_present();
    let server = Server::start(&["--player", "random"]);
    let first = &server.first_line;
    assert!(first.contains("of 127.0.0.1"), "listening on the loopback address by default: {first}");
    let (_random, random_port) = ggp_base_player("RandomGamer");
    let stop = Arc::new(AtomicBool::new(false));
    let opened = Arc::new(AtomicUsize::new(0));
    let holder = hold_idle(server.port, IDLE, stop.clone(), opened.clone());
    let (longest_ms, most_bytes) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let tricklers: Vec<_> =
        (0..4).map(|_| trickle(server.port, stop.clone(), longest_ms.clone(), most_bytes.clone())).collect();
    let deadline = Instant::now() + Duration::from_secs(20);
    while opened.load(Ordering::Acquire) < IDLE {
        assert!(Instant::now() < deadline, "{} idle connections opened", opened.load(Ordering::Acquire));
        thread::sleep(Duration::from_millis(50));
    }
    server.assert_within_bounds("idle connections held");

    // Threads counted while the match is played.
    let sampling = Arc::new(AtomicBool::new(true));
    let sampler = {
        let (sampling, pid) = (sampling.clone(), server.child.0.id());
        thread::spawn(move || {
            let mut most = 0;
            while sampling.load(Ordering::Acquire) {
                let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
                let threads =
                    status.lines().find_map(|l| l.strip_prefix("Threads:")).and_then(|t| t.trim().parse().ok());
                most = most.max(threads.unwrap_or(0));
                thread::sleep(Duration::from_millis(50));
            }
            most
        })
    };
    let report = ggp_match("ticTacToe", &[server.port.to_string(), random_port.to_string()], (3, 1));
    assert_clean(&report, "ticTacToe while idle connections are held");
    sampling.store(false, Ordering::Release);
    let most_threads: u64 = sampler.join().unwrap();
    assert!(most_threads <= THREAD_BOUND, "{most_threads} threads while the match was played");
    // The tricklers have lived through several header timeouts by now.
    thread::sleep(Duration::from_secs(4));
    stop.store(true, Ordering::Release);
    let most_open = holder.join().unwrap();
    for t in tricklers {
        t.join().unwrap();
    }
    let opened = opened.load(Ordering::Acquire);
    eprintln!(
        "{opened} idle connections opened, at most {most_open} open at once; at most {most_threads} threads; \
         trickled requests cut after {} ms, {} bytes",
        longest_ms.load(Ordering::Acquire),
        most_bytes.load(Ordering::Acquire)
    );
    assert!(most_open >= 100, "the idle connections held at once: {most_open}");
    let (longest, bytes) = (longest_ms.load(Ordering::Acquire), most_bytes.load(Ordering::Acquire));
    assert!(longest > 0, "a trickled request was cut off");
    assert!(longest < 8_000 && bytes < 40, "a trickled request lived {longest} ms, {bytes} bytes (3 s allowed)");

    assert_info_within_a_second(&server, "after the idle connections");
    play_counting_match(&server, "after-idle");
    server.assert_within_bounds("at the end");
}

/// Requests that are not the protocol, bodies past the limits, messages and
/// rules that are malformed, deep or huge, and a flood of INFO: each is
/// refused or answered as docs/GGP.md says, and the server lives on.
#[test]
fn hostile_requests_are_refused_without_being_read() {
    // The default limit on a message: 4 MiB (docs/GGP.md).
    let default = Server::start(&["--player", "random"]);
    let mut stream = default.connect();
    stream.write_all(b"POST / HTTP/1.0\r\nContent-Type: text/acl\r\nContent-Length: 5000000\r\n\r\n").unwrap();
    let (status, body) = reply(&mut stream);
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("at most 4194304"), "{body}");
    drop(default);

    // The rest with the limit raised to 64 MiB, to test the shared budget.
    let server = Server::start(&["--player", "random", "--limit", "ggp-message=64M"]);

    // A 100 MB body: 413 as soon as the headers are read, while the client
    // has sent only 256 KiB of it.
    let mut stream = server.connect();
    stream.write_all(b"POST / HTTP/1.0\r\nContent-Type: text/acl\r\nContent-Length: 100000000\r\n\r\n").unwrap();
    let _ = stream.write_all(&vec![b'('; 256 << 10]);
    let (status, body) = reply(&mut stream);
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("at most 67108864"), "{body}");

    // Large bodies share one budget (the ggp-message limit, here 64 MiB): of two
    // of 40 MiB at once, one is refused (503) while the other is read, and
    // small requests go on; once it is read in full (and refused: it is not
    // a message), large bodies are read again.
    let big = |length: usize| format!("POST / HTTP/1.0\r\nContent-Length: {length}\r\n\r\n");
    let mut pair = [server.connect(), server.connect()];
    for stream in &mut pair {
        stream.write_all(big(40 << 20).as_bytes()).unwrap();
        stream.set_nonblocking(true).unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    let second_refused = loop {
        if let Some(i) = (0..2).find(|&i| ended(&pair[i])) {
            break i == 1;
        }
        assert!(Instant::now() < deadline, "neither large body was refused");
        thread::sleep(Duration::from_millis(20));
    };
    let [a, b] = pair;
    let (mut refused, mut read) = if second_refused { (b, a) } else { (a, b) };
    refused.set_nonblocking(false).unwrap();
    let (status, body) = reply(&mut refused);
    assert_eq!(status, 503, "{body}");
    assert_eq!(server.send("( INFO )").0, 200);
    read.set_nonblocking(false).unwrap();
    read.write_all(b"( INFO").unwrap();
    read.write_all(&vec![b' '; (40 << 20) - 6]).unwrap();
    assert_eq!(reply(&mut read).0, 400, "a body that is not a message");
    let (status, body) = server.raw(format!("{}{}", big(1 << 20), " ".repeat(1 << 20)).as_bytes());
    assert_eq!((status, body.as_str()), (400, "an empty message"));

    // Not the protocol: a 4xx each.
    for (raw, status) in [
        (&b"GET / HTTP/1.0\r\n\r\n"[..], 405),
        (b"PUT / HTTP/1.1\r\nContent-Length: 8\r\n\r\n( INFO )", 405),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 400),
        (b"POST / HTTP/1.0\r\n\r\n( INFO )", 411),
        (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n( INFO )\r\n0\r\n\r\n", 411),
        (b"POST / HTTP/1.0\r\nContent-Length: -8\r\n\r\n( INFO )", 400),
        (b"POST / HTTP/1.0\r\nContent-Length: 8\r\nContent-Length: 9\r\n\r\n( INFO )", 400),
        (b"POST / HTTP/1.0\r\nContent-Length: 999999999999999999999999\r\n\r\n", 413),
        (b"POST / HTTP/1.0\r\nno colon here\r\nContent-Length: 8\r\n\r\n( INFO )", 400),
        (b"POST /\r\nContent-Length: 8\r\n\r\n( INFO )", 400),
        (b"POST / SMTP/1.0\r\nContent-Length: 8\r\n\r\n( INFO )", 400),
        (b"POST / HTTP/1.0\r\nContent-Length: 20\r\n\r\n( INFO )", 400),
    ] {
        assert_eq!(server.raw(raw).0, status, "{}", String::from_utf8_lossy(raw));
    }
    let huge_head = format!("POST / HTTP/1.0\r\nX-Pad: {}\r\nContent-Length: 8\r\n\r\n( INFO )", "x".repeat(20_000));
    assert_eq!(server.raw(huge_head.as_bytes()).0, 431);

    // Idle: 408 at the header timeout (3 s), never later than a few seconds.
    let began = Instant::now();
    let mut idle = server.connect();
    let (status, _) = reply(&mut idle);
    assert_eq!(status, 408);
    assert!(began.elapsed() < Duration::from_secs(8), "an idle connection lived {:?}", began.elapsed());

    // Messages that are not GGP, however deep or long: 400 from the message
    // reader, which keeps no more than the message's six items.
    let deep = "(".repeat(1 << 20);
    let balanced = format!("( INFO {}{} )", "(".repeat(1 << 20), ")".repeat(1 << 20));
    let atoms = format!("( INFO {})", "a ".repeat(1 << 20));
    let long_atom = format!("( {} )", "a".repeat(4 << 20));
    for (message, wanted) in [
        (deep.as_str(), "nested more than"),
        (balanced.as_str(), "nested more than"),
        (atoms.as_str(), "more than 6 items"),
        (long_atom.as_str(), "unknown message type"),
        ("( INFO ) ( INFO )", "more than one message"),
        ("))))", "closes no list"),
        ("( START m1 x ((role x)) 10 )", "START takes 5 arguments"),
        ("( START m1 x ((role x)) 99999999999 1 )", "not a whole number"),
        ("( PLAY m1 move )", "neither NIL nor a list"),
    ] {
        let (status, body) = server.send(message);
        assert_eq!(status, 400, "{}", &message[..message.len().min(40)]);
        assert!(body.contains(wanted), "{}: {body}", &message[..message.len().min(40)]);
    }

    // Rules that are no game, however malformed: `ready`, `nil` moves, and
    // ABORT; nesting past the `nesting` limit is refused before the reader.
    let deep_rules = format!("( START deep x ((role x) {}{}) 2 1 )", "(".repeat(300), ")".repeat(300));
    assert_eq!(server.send(&deep_rules).0, 400, "rules nested past the nesting limit");
    let many_rules = format!("(role x) {}", "(init (cell a b c)) ".repeat(20_000));
    for (id, rules) in [
        ("unsafe", "(role x) (<= (legal x ?m) (true (p ?n)))".to_owned()),
        ("noroles", "(init (p 1)) (<= terminal (true (p 1)))".to_owned()),
        ("recursive", "(role x) (<= (q ?x) (q (f ?x))) (<= (legal x a) (q ?y)) (init (q a))".to_owned()),
        ("strange", "(role x) (<= (legal x 1.5e+) \"unclosed) (goal x 100)".to_owned()),
        ("many", many_rules),
    ] {
        assert_eq!(server.send(&format!("( START {id} x ({rules}) 2 1 )")), (200, "ready".to_owned()), "{id}");
        assert_eq!(server.send(&format!("( ABORT {id} )")), (200, "aborted".to_owned()), "{id}");
    }

    // A flood of INFO from 8 clients at once.
    let port = server.port;
    let flood: Vec<_> = (0..8)
        .map(|_| {
            thread::spawn(move || {
                (0..100)
                    .filter(|_| {
                        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
                        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                        stream.write_all(post("( INFO )").as_bytes()).unwrap();
                        reply(&mut stream).0 == 200
                    })
                    .count()
            })
        })
        .collect();
    let answered: usize = flood.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(answered, 800, "every INFO of the flood answered");

    assert_info_within_a_second(&server, "after the hostile requests");
    play_counting_match(&server, "after-abuse");
    server.assert_within_bounds("at the end");
}
