//! The parent's side of a foreign program: a child process started with
//! limits, spoken to over its standard input and output, every answer
//! awaited under a deadline.
//!
//! The protocol is the kind's own (bytes the parent writes, a frame the
//! child answers: a 4-byte little-endian length, then that many bytes), but
//! the supervision is one: the child's first frame says it is ready (byte
//! 0, then what the kind reports) or why not (byte 1, then a message);
//! after that, a call that gets no whole frame before its deadline, or a
//! frame longer than [`MAX_FRAME`], or a child that dies, is a [`Fault`],
//! and the child is killed. The parent never waits longer than the deadline
//! and never reads more than a frame, so a child can cost a call its time
//! and nothing else.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use super::{CHILD_ENV, confine};

/// The longest frame a child may send.
pub const MAX_FRAME: usize = 1 << 20;

/// The time a child has to start and say it is ready: an executable to
/// load and a library to map, on a machine that may be busy.
pub const START_TIME: Duration = Duration::from_secs(10);

/// What a child may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The time a child has to answer one call.
    pub call: Duration,
    /// Bytes of address space (`RLIMIT_AS`).
    pub memory: u64,
}

/// What went wrong with a child, in words that follow its name ("`c:x.c`
/// crashed (signal 11, SIGSEGV)").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It could not be started, or said it could not serve (the words say
    /// why: "defines no function `Move`").
    Refused(String),
    /// It ended: the words say how (a signal, an exit status).
    Died(String),
    /// No answer within the limit.
    Hung(Duration),
    /// An answer that breaks the protocol.
    Garbage(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Refused(why) => f.write_str(why),
            Fault::Died(how) => f.write_str(how),
            Fault::Hung(limit) => write!(f, "did not answer within {} ms (killed)", limit.as_millis()),
            Fault::Garbage(what) => write!(f, "broke the protocol: {what} (killed)"),
        }
    }
}

/// A running child, and what it said when it started.
pub struct Supervised {
    child: Child,
    input: ChildStdin,
    output: ChildStdout,
    limits: Limits,
    /// Bytes read past the last frame (a read takes what has arrived).
    pending: Vec<u8>,
    /// The ready frame's payload after its 0 byte.
    pub hello: Vec<u8>,
}

impl Supervised {
    /// Starts `exe` as a child serving `kind` with `args`, its environment
    /// empty but for [`CHILD_ENV`], under `limits`, and waits for it to say
    /// it is ready.
    pub fn spawn(exe: &std::path::Path, kind: &str, args: &[OsString], limits: Limits) -> Result<Supervised, Fault> {
        let mut command = Command::new(exe);
        command
            .args(args)
            .env_clear()
            .env(CHILD_ENV, kind)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let memory = limits.memory;
        // SAFETY: the closure runs in the forked child before exec and only
        // calls setrlimit, which is async-signal-safe.
        unsafe {
            command.pre_exec(move || confine::limit_resources(memory));
        }
        let mut child = command.spawn().map_err(|e| Fault::Refused(format!("cannot run {}: {e}", exe.display())))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            child.kill().ok();
            child.wait().ok();
            return Err(Fault::Refused("no pipes to the child".to_owned()));
        };
        let mut supervised = Supervised { child, input, output, limits, pending: Vec::new(), hello: Vec::new() };
        let hello = supervised.read_frame(START_TIME.max(limits.call))?;
        match hello.split_first() {
            Some((0, rest)) => {
                supervised.hello = rest.to_vec();
                Ok(supervised)
            }
            Some((1, why)) => {
                let why = String::from_utf8_lossy(why).into_owned();
                supervised.kill();
                Err(Fault::Refused(why))
            }
            _ => Err(supervised.broke("a first frame that is neither ready nor a refusal")),
        }
    }

    /// Sends `request` and returns the child's answer; on a fault the child
    /// is killed, and every later call is that fault again.
    pub fn call(&mut self, request: &[u8]) -> Result<Vec<u8>, Fault> {
        if self.input.write_all(request).and_then(|()| self.input.flush()).is_err() {
            return Err(self.death());
        }
        self.read_frame(self.limits.call)
    }

    /// One frame, within the call's deadline: bytes are read as they come
    /// (a small answer in one system call), never past the frame's end
    /// by more than what the child wrote.
    fn read_frame(&mut self, limit: Duration) -> Result<Vec<u8>, Fault> {
        let deadline = Instant::now() + limit;
        loop {
            if self.pending.len() >= 4 {
                let len = u32::from_le_bytes([self.pending[0], self.pending[1], self.pending[2], self.pending[3]]);
                let len = len as usize;
                if len > MAX_FRAME {
                    return Err(self.broke(&format!("a frame of {len} bytes")));
                }
                if self.pending.len() >= 4 + len {
                    let frame = self.pending[4..4 + len].to_vec();
                    self.pending.drain(..4 + len);
                    return Ok(frame);
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || !readable_within(&self.output, left) {
                self.kill();
                return Err(Fault::Hung(limit));
            }
            let mut chunk = [0u8; 512];
            match self.output.read(&mut chunk) {
                Ok(0) | Err(_) => return Err(self.death()),
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
            }
        }
    }

    /// The child has ended (or its pipes have): how.
    fn death(&mut self) -> Fault {
        // Its end of the pipes may close just before it exits: wait, briefly.
        let status = wait_for(&mut self.child, Duration::from_millis(500));
        self.kill();
        Fault::Died(match status {
            Some(s) => describe_exit(s),
            None => "closed its pipes (killed)".to_owned(),
        })
    }

    fn broke(&mut self, what: &str) -> Fault {
        self.kill();
        Fault::Garbage(what.to_owned())
    }

    fn kill(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

impl Drop for Supervised {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Whether `output` has bytes (or its end) to read within `left`.
fn readable_within(output: &ChildStdout, left: Duration) -> bool {
    let mut fd = libc::pollfd { fd: output.as_raw_fd(), events: libc::POLLIN, revents: 0 };
    let ms = left.as_millis().clamp(1, i32::MAX as u128) as i32;
    loop {
        // SAFETY: `fd` is one valid pollfd for the duration of the call.
        let n = unsafe { libc::poll(&mut fd, 1, ms) };
        if n >= 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return n > 0;
        }
    }
}

/// The child's exit status, if it exits within `patience`.
fn wait_for(child: &mut Child, patience: Duration) -> Option<std::process::ExitStatus> {
    let until = Instant::now() + patience;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
            _ => return None,
        }
    }
}

/// How a child ended, in words.
pub fn describe_exit(status: std::process::ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exited with status {code}");
    }
    match status.signal() {
        Some(libc::SIGSYS) => format!(
            "was stopped by the sandbox (signal {}, SIGSYS: a system call a move does not need, such as opening a \
             file or a socket, or starting a process)",
            libc::SIGSYS
        ),
        Some(signal) => format!("crashed (signal {signal}, {})", signal_name(signal)),
        None => format!("ended ({status})"),
    }
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGABRT => "SIGABRT",
        libc::SIGKILL => "SIGKILL: a limit, such as its CPU time",
        libc::SIGXCPU => "SIGXCPU: its CPU time",
        libc::SIGXFSZ => "SIGXFSZ: a file write",
        libc::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}
