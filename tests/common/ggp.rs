//! `stratagem ggp serve` and GGP-Base's tools as the GGP tests drive them:
//! the server on a free port with its log, requests over raw TCP, GGP-Base's
//! players and its match runner, and what makes a match clean.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const GGP: &str = "../shared/ggp";
pub const GAMES: &str = "../shared/gdl/games";

/// A process that is killed when the test is done with it.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `ggp serve` on a free port: the process, its port, its first log line
/// and its stderr as it comes.
pub struct Server {
    pub child: Killed,
    pub port: u16,
    pub first_line: String,
    log: Arc<Mutex<String>>,
}

impl Server {
    pub fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_stratagem"))
            .args(["ggp", "serve", "--port", "0", "--margin", "0.5"])
            .args(extra)
            .stderr(Stdio::piped())
            .spawn()
            .expect("stratagem runs");
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        let first_line = lines.next().and_then(Result::ok).unwrap_or_default();
        let port = first_line
            .split("listening on port ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in the first log line: {first_line:?}"));
        let log = Arc::new(Mutex::new(String::new()));
        let sink = log.clone();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                let mut log = sink.lock().unwrap();
                log.push_str(&line);
                log.push('\n');
            }
        });
        Server { child: Killed(child), port, first_line, log }
    }

    /// The log so far, waiting up to a few seconds for `wanted` in it.
    pub fn log_with(&self, wanted: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let log = self.log.lock().unwrap().clone();
            if log.contains(wanted) || Instant::now() > deadline {
                return log;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A connection to the server, reads timing out after 30 s.
    pub fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        stream
    }

    /// Sends `raw` as it is and returns the status and body of the reply;
    /// a 200 has GGP-Base's headers.
    pub fn raw(&self, raw: &[u8]) -> (u16, String) {
        let mut stream = self.connect();
        let _ = stream.write_all(raw);
        let _ = stream.shutdown(Shutdown::Write);
        reply(&mut stream)
    }

    /// POSTs `message` as GGP-Base's server does.
    pub fn send(&self, message: &str) -> (u16, String) {
        self.raw(post(message).as_bytes())
    }
}

/// `message` as GGP-Base's server POSTs it.
pub fn post(message: &str) -> String {
    format!(
        "POST / HTTP/1.0\r\nAccept: text/delim\r\nSender: GAMESERVER\r\nReceiver: test\r\n\
         Content-Type: text/acl\r\nContent-Length: {}\r\n\r\n{message}",
        message.len()
    )
}

/// The status and body of the reply on `stream`: what arrived before the
/// server closed (or reset) the connection; a 200 has GGP-Base's headers.
pub fn reply(stream: &mut TcpStream) -> (u16, String) {
    let mut bytes = Vec::new();
    let mut buf = [0; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
        }
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let status = text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    if status == 200 {
        assert!(head.starts_with("HTTP/1.0 200 OK"), "{head}");
        assert!(head.contains("Content-Type: text/acl"), "{head}");
        assert!(head.contains(&format!("Content-Length: {}", body.len())), "{head}");
    }
    (status, body.to_owned())
}

pub fn tools_present() {
    assert!(Path::new(GGP).join("ggp-match").exists(), "{GGP} is missing (the workspace's shared folder)");
    let java = Command::new("java").arg("-version").output();
    assert!(java.is_ok_and(|o| o.status.success()), "java is missing: apt-get install default-jre-headless");
}

/// A free port for a GGP-Base player.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// GGP-Base's `gamer` on a free port, once it listens.
pub fn ggp_base_player(gamer: &str) -> (Killed, u16) {
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
pub fn ggp_match(game: &str, players: &[String], clocks: (u32, u32)) -> serde_json::Value {
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
pub fn assert_clean(report: &serde_json::Value, what: &str) {
    assert_eq!(report["status"], "completed", "{what}: {report}");
    assert_eq!(report["clean"], true, "{what}: errors {} warnings {}", report["errors"], report["protocolWarnings"]);
    for step in report["steps"].as_array().expect("steps") {
        assert!(step["errors"].as_array().expect("errors").iter().all(|e| e == ""), "{what}: {step}");
    }
}
