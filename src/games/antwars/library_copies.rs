//! Copies of a compiled contest player under fresh file names: the dynamic
//! loader hands back the already-loaded library for a file it has loaded,
//! so each copy is what gives a player statics of its own (per thread in
//! process, per game in flight in a sandboxed child).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Names copies apart within this process.
static COPIES: AtomicU64 = AtomicU64::new(0);

/// A fresh number for a file name of this process's.
pub fn next_copy() -> u64 {
    COPIES.fetch_add(1, Ordering::Relaxed)
}

/// A copy of `library` beside it, under a name no other copy has; the
/// caller removes it once loaded (a loaded library stays mapped).
pub fn fresh_copy(library: &Path) -> std::io::Result<PathBuf> {
    let copy = library.with_extension(format!("{}.{}.so", std::process::id(), next_copy()));
    std::fs::copy(library, &copy)?;
    Ok(copy)
}
