//! Foreign programs: code Stratagem runs but did not write (contest players
//! in C today; chess engines and robots later), each in a supervised child
//! process of its own, so that nothing it does can stop or corrupt the run.
//!
//! The parent's side is [`child`]: a long-lived child per player and worker
//! thread, spoken to over pipes, every call under a deadline; a child that
//! dies, hangs, answers garbage or breaks the protocol is a [`child::Fault`]
//! naming what it did, which the game turns into a forfeit. The child's side
//! is [`confine`]: resource limits set before it starts, and on Linux a
//! seccomp filter that leaves it the system calls computing an answer needs
//! (no files, no sockets, no processes). The child is the Stratagem
//! executable itself, started with [`CHILD_ENV`] naming what to serve; the
//! game that owns the kind of program serves it (through the registry).

pub mod child;
pub mod confine;
pub mod progress;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

static TRUSTED: AtomicBool = AtomicBool::new(false);

/// Runs foreign programs in this process where their game can (C players:
/// `--trust-c-players`), for speed, giving up the sandbox.
pub fn trust_in_process(trust: bool) {
    TRUSTED.store(trust, Ordering::Relaxed);
}

/// Whether foreign programs run in this process.
pub fn trusted() -> bool {
    TRUSTED.load(Ordering::Relaxed)
}

/// The environment variable that makes the Stratagem executable a child:
/// its value names what the child serves, its arguments say what with.
pub const CHILD_ENV: &str = "STRATAGEM_FOREIGN_CHILD";

static EXECUTABLE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

/// Names the `stratagem` executable children run, for a program that uses
/// the library but is not `stratagem` itself (a test, Python); only the
/// first call counts.
pub fn use_executable(exe: PathBuf) {
    let _ = EXECUTABLE.set(exe);
}

/// The executable children run: the one [`use_executable`] named, else
/// `$STRATAGEM_EXE` if set, else this process's own.
pub fn executable() -> Result<PathBuf, String> {
    if let Some(exe) = EXECUTABLE.get() {
        return Ok(exe.clone());
    }
    match std::env::var_os("STRATAGEM_EXE") {
        Some(exe) if !exe.is_empty() => Ok(PathBuf::from(exe)),
        _ => std::env::current_exe().map_err(|e| format!("cannot find the stratagem executable: {e}")),
    }
}

/// What this process is asked to serve as a child, and with what
/// arguments; `None` for an ordinary run.
pub fn child_request() -> Option<(String, Vec<String>)> {
    let kind = std::env::var(CHILD_ENV).ok().filter(|k| !k.is_empty())?;
    Some((kind, std::env::args().skip(1).collect()))
}
