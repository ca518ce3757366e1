//! Reading and writing the user's files safely.
//!
//! Reads stop at a size limit, so `/dev/zero` or a runaway file is refused
//! instead of exhausting memory. Writes go through a temporary file and a
//! rename, so a kill leaves either the old file or the new one, never half
//! of one; they follow symlinks (the link stays a link, its target gets the
//! new text), keep the file's permissions, and refuse targets that are not
//! regular files (a device would be replaced by a plain file, or a FIFO block).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::limits::Limit;

/// Reads a whole file, refusing one larger than `limit` (its error says how
/// to raise the limit). Works on pipes and devices as well as regular files.
pub fn read_limited(path: &Path, limit: Limit) -> std::io::Result<Vec<u8>> {
    let max = limit.get();
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(std::io::Error::other("it is a directory, not a file"));
    }
    if meta.is_file() && meta.len() > max {
        return Err(too_large(limit, Some(meta.len())));
    }
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_large(limit, None));
    }
    Ok(bytes)
}

fn too_large(limit: Limit, size: Option<u64>) -> std::io::Error {
    let size = size.map(|s| format!(" ({})", Limit::InputSize.show(s))).unwrap_or_default();
    std::io::Error::other(format!(
        "the file{size} is larger than {}, the `{}` limit; {}",
        limit.show(limit.get()),
        limit.name(),
        limit.raise_hint()
    ))
}

/// Writes `bytes` to `path` atomically: through a temporary file beside the
/// final target (symlinks followed), with the target's permissions, then a
/// rename. A target that exists and is not a regular file is refused.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

/// A file written in pieces that appears at its path, whole, only on
/// [`AtomicFile::commit`]; dropped uncommitted, it leaves the old file as it
/// was and no temporary behind.
pub struct AtomicFile {
    file: Option<std::io::BufWriter<std::fs::File>>,
    tmp: PathBuf,
    target: PathBuf,
}

impl AtomicFile {
    /// Starts writing `path` (see [`write_atomic`] for what is refused).
    pub fn create(path: &Path) -> std::io::Result<AtomicFile> {
        let target = resolve_symlinks(path)?;
        let existing = match std::fs::metadata(&target) {
            Ok(meta) => Some(meta),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        if let Some(meta) = &existing {
            refuse_non_regular(meta)?;
        }
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
        let file = std::fs::OpenOptions::new().write(true).create(true).truncate(true).open(&tmp)?;
        let mut atomic = AtomicFile { file: None, tmp, target };
        if let Some(meta) = &existing {
            file.set_permissions(meta.permissions())?;
        }
        atomic.file = Some(std::io::BufWriter::new(file));
        Ok(atomic)
    }

    /// Flushes the text to disk and puts it in place of the target.
    pub fn commit(mut self) -> std::io::Result<()> {
        let Some(writer) = self.file.take() else {
            return Err(std::io::Error::other("the file was already committed"));
        };
        let file = writer.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&self.tmp, &self.target)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.file {
            Some(f) => f.write(buf),
            None => Err(std::io::Error::other("the file was already committed")),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        // Committed files were renamed away; anything else is abandoned.
        let _ = std::fs::remove_file(&self.tmp);
    }
}

/// Checks, before a command starts its work, that `path` can later be
/// written by [`write_atomic`]: not a directory, device or FIFO.
pub fn check_writable_target(path: &Path) -> std::io::Result<()> {
    let target = resolve_symlinks(path)?;
    match std::fs::metadata(&target) {
        Ok(meta) => refuse_non_regular(&meta),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

fn refuse_non_regular(meta: &std::fs::Metadata) -> std::io::Result<()> {
    if meta.is_file() {
        Ok(())
    } else if meta.is_dir() {
        Err(std::io::Error::other("it is a directory; name a file to write"))
    } else {
        Err(std::io::Error::other(
            "it is not a regular file (a device, FIFO or socket); Stratagem writes only regular files, \
             atomically, so name a file",
        ))
    }
}

/// The path a chain of symlinks ends at (which need not exist yet).
fn resolve_symlinks(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(parent) if link.is_relative() => parent.join(link),
                    _ => link,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("stratagem-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        dir
    }

    #[test]
    fn reads_refuse_endless_and_oversized_inputs() {
        let err = read_limited(Path::new("/dev/zero"), Limit::InputSize).expect_err("endless");
        assert!(err.to_string().contains("--limit input-size="), "{err}");
        let dir = scratch("read");
        assert!(read_limited(&dir, Limit::InputSize).is_err(), "a directory");
        std::fs::write(dir.join("a"), "hello").expect("write");
        assert_eq!(read_limited(&dir.join("a"), Limit::InputSize).expect("reads"), b"hello");
    }

    #[cfg(unix)]
    #[test]
    fn writes_follow_symlinks_keep_the_mode_and_refuse_devices() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("write");
        let real = dir.join("real.sg");
        std::fs::write(&real, "old").expect("write");
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let link = dir.join("link.sg");
        std::os::unix::fs::symlink("real.sg", &link).expect("symlink");

        write_atomic(&link, b"new").expect("writes");
        assert!(std::fs::symlink_metadata(&link).expect("meta").file_type().is_symlink(), "the link stays");
        assert_eq!(std::fs::read_to_string(&real).expect("read"), "new");
        let mode = std::fs::metadata(&real).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o755);

        let err = write_atomic(Path::new("/dev/full"), b"x").expect_err("a device");
        assert!(err.to_string().contains("not a regular file"), "{err}");
        assert!(check_writable_target(Path::new("/dev/null")).is_err());
        assert!(check_writable_target(&dir.join("fresh.txt")).is_ok());
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .expect("list")
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "no temporary files are left behind");
    }
}
