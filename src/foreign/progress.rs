//! How far a child is through a call of many pieces (a batch of moves): a
//! counter in a page of memory the parent and the child share, which the
//! child sets after each piece and the parent reads while it waits, so that
//! the per-call limit holds for every piece of a batch and a fault is
//! traced to the piece that caused it, without a message per piece.
//!
//! The page is a sealed memfd (it can neither shrink nor grow, so nothing
//! the child does with it can fault the parent's reads), the child's
//! descriptor [`CHILD_FD`]. The parent treats the count as untrusted: a
//! child that writes nonsense into it only misplaces the blame for its own
//! fault among its own pieces.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU32, Ordering};

/// The child's descriptor of the shared page.
pub const CHILD_FD: RawFd = 3;

/// The size of the mapping.
const PAGE: usize = 4096;

/// The seals that mark the page as the supervisor's.
const SEALS: libc::c_int = libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_SEAL;

/// A mapped shared page whose first word is the count of pieces done.
pub struct Shared {
    word: NonNull<AtomicU32>,
    /// The memfd, kept open in the parent so that it can hand it to a child.
    fd: Option<OwnedFd>,
}

// SAFETY: the mapping is owned by this value and only read and written
// through an atomic, so it may move to and be used from another thread.
unsafe impl Send for Shared {}

impl Shared {
    /// A fresh page for a child about to start (the parent's side).
    pub fn create() -> std::io::Result<Shared> {
        let name = c"stratagem-progress";
        // SAFETY: memfd_create reads a NUL-terminated name; the descriptor
        // it returns is ours alone.
        let raw = unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING) };
        if raw < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: `raw` is a fresh descriptor owned by nobody else.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        // SAFETY: plain system calls on the descriptor just made.
        let sized = unsafe {
            libc::ftruncate(fd.as_raw_fd(), PAGE as libc::off_t) == 0
                && libc::fcntl(fd.as_raw_fd(), libc::F_ADD_SEALS, SEALS) == 0
        };
        if !sized {
            return Err(std::io::Error::last_os_error());
        }
        let word = map(fd.as_raw_fd())?;
        Ok(Shared { word, fd: Some(fd) })
    }

    /// The page the supervisor handed this process, if it did (the child's
    /// side): [`CHILD_FD`] mapped if it is a memfd with the supervisor's
    /// seals, then closed. A process started otherwise has no page and
    /// reports no progress.
    pub fn inherit() -> Option<Shared> {
        // SAFETY: F_GET_SEALS only reads the descriptor's seals; it fails
        // on anything that is not a memfd (or not open).
        let seals = unsafe { libc::fcntl(CHILD_FD, libc::F_GET_SEALS) };
        if seals != SEALS {
            return None;
        }
        let word = map(CHILD_FD).ok();
        // SAFETY: the descriptor is ours, and the mapping outlives it.
        unsafe { libc::close(CHILD_FD) };
        word.map(|word| Shared { word, fd: None })
    }

    /// The memfd a child is to inherit as [`CHILD_FD`].
    pub fn fd(&self) -> Option<RawFd> {
        self.fd.as_ref().map(AsRawFd::as_raw_fd)
    }

    /// The pieces done, as the child last said.
    pub fn get(&self) -> u32 {
        self.counter().load(Ordering::Acquire)
    }

    /// Says that `done` pieces are done (the child), or starts a call
    /// afresh with 0 (the parent).
    pub fn set(&self, done: u32) {
        self.counter().store(done, Ordering::Release);
    }

    fn counter(&self) -> &AtomicU32 {
        // SAFETY: `word` points at the start of a live page-sized shared
        // mapping (aligned), unmapped only on drop.
        unsafe { self.word.as_ref() }
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        // SAFETY: the mapping was made by `map` with this size and is not
        // used after this.
        unsafe { libc::munmap(self.word.as_ptr().cast(), PAGE) };
    }
}

/// Maps the page of `fd`, shared, for reading and writing.
fn map(fd: RawFd) -> std::io::Result<NonNull<AtomicU32>> {
    // SAFETY: a fresh shared mapping of a sealed page-sized memfd; the
    // kernel chooses the address.
    let address =
        unsafe { libc::mmap(std::ptr::null_mut(), PAGE, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED, fd, 0) };
    if address == libc::MAP_FAILED {
        return Err(std::io::Error::last_os_error());
    }
    NonNull::new(address.cast()).ok_or_else(|| std::io::Error::other("mmap returned null"))
}

/// In the forked child before exec: puts `fd` at [`CHILD_FD`], open across
/// the exec. Async-signal-safe (dup2 and fcntl only).
pub fn hand_to_child(fd: RawFd) -> std::io::Result<()> {
    // SAFETY: dup2 onto CHILD_FD; a copy does not inherit close-on-exec.
    // If `fd` already is CHILD_FD, its close-on-exec flag is cleared.
    let ok =
        unsafe { if fd == CHILD_FD { libc::fcntl(fd, libc::F_SETFD, 0) >= 0 } else { libc::dup2(fd, CHILD_FD) >= 0 } };
    if ok { Ok(()) } else { Err(std::io::Error::last_os_error()) }
}
