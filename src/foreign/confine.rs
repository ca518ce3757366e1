//! The child's side of a foreign program: what it may use.
//!
//! Before the child starts (in the forked process, before exec) the parent
//! sets its resource limits ([`limit_resources`]): address space, no core
//! files, no file writes, few descriptors. The child itself then moves the
//! protocol off its standard input and output ([`Protocol::take`], so that
//! a program that prints or reads does so on /dev/null; it maps the page it
//! reports progress in, [`super::progress`]) and confines itself
//! in two steps, each a seccomp filter that kills the process on any other
//! system call: [`while_loading`] leaves what loading a library needs
//! (opening files read-only, mapping them), and [`while_serving`] what
//! computing an answer needs (memory, the protocol's two descriptors, the
//! clock, exiting). Filters only narrow: once serving, nothing widens
//! them. Code that runs while a library loads (a constructor) can read
//! what the user can read but cannot write, send, or start anything.

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, RawFd};

use super::progress::Shared;

/// Sets the limits of a child about to exec: `memory` bytes of address
/// space, no core dumps, no file growth (writes to files fail), at most 64
/// descriptors. Async-signal-safe (it runs between fork and exec).
pub fn limit_resources(memory: u64) -> std::io::Result<()> {
    let set = |resource, value: u64| {
        let limit = libc::rlimit { rlim_cur: value as libc::rlim_t, rlim_max: value as libc::rlim_t };
        // SAFETY: setrlimit reads one rlimit struct that lives for the call.
        if unsafe { libc::setrlimit(resource, &limit) } == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) }
    };
    set(libc::RLIMIT_AS, memory)?;
    set(libc::RLIMIT_CORE, 0)?;
    set(libc::RLIMIT_FSIZE, 0)?;
    set(libc::RLIMIT_NOFILE, 64)
}

/// The child's ends of the protocol, moved off descriptors 0 and 1, and
/// the page it counts the pieces of a call in.
pub struct Protocol {
    /// Buffered: a request arrives in one piece, read in one system call.
    pub input: BufReader<File>,
    pub output: File,
    progress: Option<Shared>,
}

impl Protocol {
    /// Duplicates standard input and output for the protocol, then points
    /// both at /dev/null.
    pub fn take() -> std::io::Result<Protocol> {
        let dup = |fd: RawFd| {
            // SAFETY: dup of an open descriptor returns a new one we own.
            let new = unsafe { libc::dup(fd) };
            if new < 0 {
                Err(std::io::Error::last_os_error())
            } else {
                // SAFETY: `new` is a fresh descriptor owned by nobody else.
                Ok(unsafe { File::from_raw_fd(new) })
            }
        };
        let (input, output) = (dup(0)?, dup(1)?);
        let null = std::fs::OpenOptions::new().read(true).write(true).open("/dev/null")?;
        for fd in [0, 1] {
            // SAFETY: dup2 onto a standard descriptor of this process.
            if unsafe { libc::dup2(null.as_raw_fd(), fd) } < 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(Protocol { input: BufReader::new(input), output, progress: Shared::inherit() })
    }

    /// Says that `pieces` pieces of the current call are done.
    pub fn done(&self, pieces: u32) {
        if let Some(progress) = &self.progress {
            progress.set(pieces);
        }
    }

    /// Sends one frame: its length, then `payload`.
    pub fn send(&mut self, payload: &[u8]) -> std::io::Result<()> {
        let mut frame = Vec::with_capacity(4 + payload.len());
        frame.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        frame.extend_from_slice(payload);
        self.output.write_all(&frame)?;
        self.output.flush()
    }

    /// The ready frame: byte 0, then `info`.
    pub fn ready(&mut self, info: &[u8]) -> std::io::Result<()> {
        self.send(&[&[0], info].concat())
    }

    /// The refusal frame: byte 1, then why.
    pub fn refuse(&mut self, why: &str) -> std::io::Result<()> {
        self.send(&[&[1], why.as_bytes()].concat())
    }

    /// Fills `buf` from the parent; `false` at the end of input (the parent
    /// is done).
    pub fn receive(&mut self, buf: &mut [u8]) -> std::io::Result<bool> {
        match self.input.read_exact(buf) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
            Err(e) => Err(e),
        }
    }
}

#[cfg(target_os = "linux")]
mod filter {
    use std::collections::BTreeMap;

    use seccompiler::{
        SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule, TargetArch,
    };

    /// What a syscall is allowed with: always, or when an argument is one of
    /// some values (a descriptor), or has none of some bits (open flags).
    pub enum Allow {
        Always,
        ArgIn(u8, Vec<u64>),
        ArgWithout(u8, u64),
    }

    pub fn apply(allowed: &[(i64, Allow)]) -> Result<(), String> {
        let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(|e| e.to_string())?;
        let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
        // A call allowed always, by any entry, has no rules (no rule is "always").
        let always: Vec<i64> = allowed.iter().filter(|(_, a)| matches!(a, Allow::Always)).map(|(c, _)| *c).collect();
        for (call, allow) in allowed {
            if always.contains(call) {
                rules.insert(*call, Vec::new());
                continue;
            }
            let condition = |arg, op, value| SeccompCondition::new(arg, SeccompCmpArgLen::Qword, op, value);
            let new: Vec<SeccompRule> = match allow {
                Allow::Always => Vec::new(),
                Allow::ArgIn(arg, values) => values
                    .iter()
                    .map(|&v| condition(*arg, SeccompCmpOp::Eq, v).and_then(|c| SeccompRule::new(vec![c])))
                    .collect::<Result<_, _>>()
                    .map_err(|e| e.to_string())?,
                Allow::ArgWithout(arg, bits) => vec![
                    condition(*arg, SeccompCmpOp::MaskedEq(*bits), 0)
                        .and_then(|c| SeccompRule::new(vec![c]))
                        .map_err(|e| e.to_string())?,
                ],
            };
            rules.entry(*call).or_default().extend(new);
        }
        let filter = SeccompFilter::new(rules, SeccompAction::KillProcess, SeccompAction::Allow, arch)
            .map_err(|e| e.to_string())?;
        let program: seccompiler::BpfProgram =
            filter.try_into().map_err(|e: seccompiler::BackendError| e.to_string())?;
        seccompiler::apply_filter_all_threads(&program).map_err(|e| e.to_string())
    }
}

/// The system calls any confined child keeps: memory, the clock, signals'
/// return, exiting, and descriptors 0–2 (now /dev/null) for the C library's
/// buffering checks.
#[cfg(target_os = "linux")]
fn common(protocol: &Protocol) -> Vec<(i64, filter::Allow)> {
    use filter::Allow::*;
    let (input, output) = (protocol.input.get_ref().as_raw_fd() as u64, protocol.output.as_raw_fd() as u64);
    vec![
        (libc::SYS_read, ArgIn(0, vec![0, input])),
        (libc::SYS_write, ArgIn(0, vec![1, 2, output])),
        (libc::SYS_fstat, ArgIn(0, vec![0, 1, 2, input, output])),
        (libc::SYS_ioctl, ArgIn(0, vec![0, 1, 2])),
        (libc::SYS_lseek, ArgIn(0, vec![0, 1, 2])),
        (libc::SYS_newfstatat, Always),
        (libc::SYS_brk, Always),
        (libc::SYS_mmap, Always),
        (libc::SYS_munmap, Always),
        (libc::SYS_mremap, Always),
        (libc::SYS_mprotect, Always),
        (libc::SYS_madvise, Always),
        (libc::SYS_futex, Always),
        (libc::SYS_clock_gettime, Always),
        (libc::SYS_clock_nanosleep, Always),
        (libc::SYS_nanosleep, Always),
        (libc::SYS_sched_yield, Always),
        (libc::SYS_getpid, Always),
        (libc::SYS_gettid, Always),
        (libc::SYS_rt_sigreturn, Always),
        (libc::SYS_rt_sigprocmask, Always),
        // Signal handlers (Rust's own, on a crash) gain nothing.
        (libc::SYS_rt_sigaction, Always),
        (libc::SYS_sigaltstack, Always),
        (libc::SYS_exit, Always),
        (libc::SYS_exit_group, Always),
    ]
}

/// Confines the child for loading a library: [`common`], and opening files
/// read-only, reading and closing them.
#[cfg(target_os = "linux")]
pub fn while_loading(protocol: &Protocol) -> Result<(), String> {
    use filter::Allow::*;
    let writes = (libc::O_WRONLY | libc::O_RDWR | libc::O_CREAT | libc::O_TRUNC | libc::O_APPEND) as u64;
    let mut allowed = common(protocol);
    allowed.extend([
        (libc::SYS_openat, ArgWithout(2, writes)),
        (libc::SYS_read, Always),
        (libc::SYS_pread64, Always),
        (libc::SYS_fstat, Always),
        (libc::SYS_close, Always),
        (libc::SYS_getcwd, Always),
        (libc::SYS_faccessat, Always),
        (libc::SYS_readlinkat, Always),
        // For the serving filter, which only narrows this one.
        (libc::SYS_prctl, ArgIn(0, vec![libc::PR_SET_NO_NEW_PRIVS as u64])),
        (libc::SYS_seccomp, Always),
    ]);
    #[cfg(target_arch = "x86_64")]
    allowed.extend([(libc::SYS_open, ArgWithout(1, writes)), (libc::SYS_access, Always), (libc::SYS_readlink, Always)]);
    filter::apply(&allowed)
}

/// Confines the child for serving: [`common`] alone.
#[cfg(target_os = "linux")]
pub fn while_serving(protocol: &Protocol) -> Result<(), String> {
    filter::apply(&common(protocol))
}

#[cfg(not(target_os = "linux"))]
pub fn while_loading(_: &Protocol) -> Result<(), String> {
    Err("the sandbox of foreign programs needs Linux (seccomp)".to_owned())
}

#[cfg(not(target_os = "linux"))]
pub fn while_serving(_: &Protocol) -> Result<(), String> {
    Err("the sandbox of foreign programs needs Linux (seccomp)".to_owned())
}
