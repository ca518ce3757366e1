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
//! (writes too: a child that stops reading cannot block it) and never reads
//! more than a frame, so a child can cost a call its time and nothing else.
//!
//! A call may carry many pieces of work (a batch of moves, one message
//! each way): the child counts the pieces done in a shared page
//! ([`super::progress`]), the limit holds for each piece, and a fault names
//! the piece it happened in.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use super::progress::{self, Shared};
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

/// A fault, and the piece of the call it happened in (0 for a call of one
/// piece).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallFault {
    pub fault: Fault,
    pub piece: u32,
}

/// A running child, and what it said when it started.
pub struct Supervised {
    child: Child,
    input: ChildStdin,
    output: ChildStdout,
    limits: Limits,
    /// The child's count of pieces done in the current call.
    progress: Shared,
    /// The pieces of the call in flight (0 when none is).
    pieces: u32,
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
        let progress =
            Shared::create().map_err(|e| Fault::Refused(format!("cannot share a page with a child: {e}")))?;
        let page = progress.fd().ok_or_else(|| Fault::Refused("no page to share with a child".to_owned()))?;
        // SAFETY: the closure runs in the forked child before exec and only
        // calls setrlimit, dup2 and fcntl, which are async-signal-safe.
        unsafe {
            command.pre_exec(move || {
                progress::hand_to_child(page)?;
                confine::limit_resources(memory)
            });
        }
        let mut child = command.spawn().map_err(|e| Fault::Refused(format!("cannot run {}: {e}", exe.display())))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            child.kill().ok();
            child.wait().ok();
            return Err(Fault::Refused("no pipes to the child".to_owned()));
        };
        let mut supervised =
            Supervised { child, input, output, limits, progress, pieces: 0, pending: Vec::new(), hello: Vec::new() };
        // A child that stops reading must not block the parent's writes.
        if !set_nonblocking(&supervised.input) {
            return Err(supervised.broke("a pipe that cannot be written without blocking"));
        }
        let hello = supervised.read_frame(START_TIME.max(limits.call), 1).map_err(|f| f.fault)?;
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
        self.send(request, 1).map_err(|f| f.fault)?;
        self.receive().map_err(|f| f.fault)
    }

    /// Sends a request of `pieces` pieces of work (at least 1), whose answer
    /// [`Supervised::receive`] awaits: between the two the parent may send
    /// to other children, which then work at the same time.
    pub fn send(&mut self, request: &[u8], pieces: u32) -> Result<(), CallFault> {
        self.pieces = pieces.max(1);
        self.progress.set(0);
        let deadline = Instant::now() + self.limits.call;
        let mut left = request;
        while !left.is_empty() {
            match self.input.write(left) {
                Ok(0) => return Err(CallFault { fault: self.death(), piece: 0 }),
                Ok(n) => left = &left[n..],
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    let time = deadline.saturating_duration_since(Instant::now());
                    if time.is_zero() || !ready_within(self.input.as_raw_fd(), libc::POLLOUT, time) {
                        self.kill();
                        return Err(CallFault { fault: Fault::Hung(self.limits.call), piece: 0 });
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return Err(CallFault { fault: self.death(), piece: 0 }),
            }
        }
        Ok(())
    }

    /// The answer to the request [`Supervised::send`] sent: each of its
    /// pieces within the call's limit.
    pub fn receive(&mut self) -> Result<Vec<u8>, CallFault> {
        let pieces = std::mem::take(&mut self.pieces).max(1);
        self.read_frame(self.limits.call, pieces)
    }

    /// One frame, each of its `pieces` within `limit` of the last (the
    /// shared count says when one is done): bytes are read as they come (a
    /// small answer in one system call), never past the frame's end by
    /// more than what the child wrote.
    fn read_frame(&mut self, limit: Duration, pieces: u32) -> Result<Vec<u8>, CallFault> {
        let mut done = self.progress.get();
        let mut since = Instant::now();
        // A batch looks at the count now and then; one piece just waits.
        let glance = if pieces > 1 { limit / 8 } else { limit };
        let piece = |done: u32| done.min(pieces - 1);
        loop {
            if self.pending.len() >= 4 {
                let len = u32::from_le_bytes([self.pending[0], self.pending[1], self.pending[2], self.pending[3]]);
                let len = len as usize;
                if len > MAX_FRAME {
                    let fault = self.broke(&format!("a frame of {len} bytes"));
                    return Err(CallFault { fault, piece: piece(done) });
                }
                if self.pending.len() >= 4 + len {
                    let frame = self.pending[4..4 + len].to_vec();
                    self.pending.drain(..4 + len);
                    return Ok(frame);
                }
            }
            let now = Instant::now();
            let count = self.progress.get();
            if count != done {
                (done, since) = (count, now);
            }
            let left = (since + limit).saturating_duration_since(now);
            if left.is_zero() {
                self.kill();
                return Err(CallFault { fault: Fault::Hung(limit), piece: piece(done) });
            }
            if !ready_within(self.output.as_raw_fd(), libc::POLLIN, left.min(glance)) {
                continue;
            }
            let mut chunk = [0u8; 4096];
            match self.output.read(&mut chunk) {
                Ok(0) | Err(_) => return Err(CallFault { fault: self.death(), piece: piece(self.progress.get()) }),
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

/// Whether `fd` is ready for `events` (or at its end) within `left`.
fn ready_within(fd: std::os::fd::RawFd, events: libc::c_short, left: Duration) -> bool {
    let mut fd = libc::pollfd { fd, events, revents: 0 };
    let ms = left.as_millis().clamp(1, i32::MAX as u128) as i32;
    loop {
        // SAFETY: `fd` is one valid pollfd for the duration of the call.
        let n = unsafe { libc::poll(&mut fd, 1, ms) };
        if n >= 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return n > 0;
        }
    }
}

/// Makes writes to the child's input return at once when its pipe is full.
fn set_nonblocking(input: &ChildStdin) -> bool {
    let fd = input.as_raw_fd();
    // SAFETY: fcntl reads and sets the status flags of a descriptor we own.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) >= 0
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
