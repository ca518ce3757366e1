//! Contest players written in C (the GECCO 2007 Ant Wars interface): a file
//! that defines `int Move(int grid[11][11], int row, int column)` and,
//! optionally, `void Reset(void)`. `c:FILE.c` names one anywhere a player is
//! named.
//!
//! The file is compiled once with the system C compiler (`$CC`, else `cc`,
//! `-O2 -shared -fPIC`) into a cache directory keyed by the hash of its text,
//! and loaded with `libloading`. A contest player keeps its memory in static
//! variables, so parallel games must not share them: every [`CPlayer`] loads
//! its own copy of the library under a fresh file name (the dynamic loader
//! would hand back the already-loaded copy for the same file), and
//! [`CPlayer::reset`] calls `Reset` before each game.
//!
//! By default a player runs in a sandboxed child process
//! ([`super::c_sandbox`]); `--trust-c-players` loads it here instead, for
//! speed, with `unsafe`: loading a library runs its initialisers and calling
//! `Move` runs its code, neither of which Rust can check. What we can check,
//! we do: the library must export `Move`, and a value it returns that is no
//! direction 0–7 forfeits the game. A trusted player that crashes or loops
//! forever takes the process with it, as it would have taken the
//! contest's.

use std::ffi::c_int;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

use libloading::Library;

use super::c_sandbox::SandboxedC;
use super::library_copies::{fresh_copy, next_copy};
use super::{Dir, SIZE, View};
use crate::games::duel::PlayerError;
use crate::limits::Limit;

/// `int Move(int grid[11][11], int row, int column)`: the array decays to a
/// pointer to its first row.
type MoveFn = unsafe extern "C" fn(*mut [c_int; SIZE], c_int, c_int) -> c_int;
/// `void Reset(void)`.
type ResetFn = unsafe extern "C" fn();

/// A contest player compiled into a shared library.
#[derive(Debug)]
pub struct CSource {
    /// The file as it was named (`c:players/greedy.c` names `players/greedy.c`).
    pub name: String,
    /// The compiled library in the cache.
    library: PathBuf,
}

/// Where compiled players are kept between runs.
fn cache_dir() -> PathBuf {
    std::env::temp_dir().join("stratagem-c-players")
}

/// The C compiler: `$CC` if set, else `cc`.
fn compiler() -> String {
    std::env::var("CC").ok().filter(|c| !c.trim().is_empty()).unwrap_or_else(|| "cc".to_owned())
}

impl CSource {
    /// Compiles `path` (or finds it compiled in the cache) and checks that
    /// it loads and defines `Move`.
    pub fn compile(path: &Path) -> Result<CSource, PlayerError> {
        let name = path.display().to_string();
        let text = crate::files::read_limited(path, Limit::InputSize)
            .map_err(|e| PlayerError::new(format!("cannot read the C player `{name}`: {e}")))?;
        let cc = compiler();
        let mut hasher = rustc_hash::FxHasher::default();
        (&text, &cc, env!("CARGO_PKG_VERSION")).hash(&mut hasher);
        let dir = cache_dir();
        let library = dir.join(format!("{:016x}.so", hasher.finish()));
        if !library.is_file() {
            std::fs::create_dir_all(&dir).map_err(|e| {
                PlayerError::new(format!("cannot compile `{name}`: cannot create {}: {e}", dir.display()))
            })?;
            // Compiled under a name of its own, then renamed: two processes
            // compiling one file never see each other's half-written library.
            let partial = dir.join(format!("{:016x}.{}.{}.tmp", hasher.finish(), std::process::id(), next_copy()));
            let output =
                Command::new(&cc).args(["-O2", "-shared", "-fPIC", "-o"]).arg(&partial).arg(path).output().map_err(
                    |e| {
                        PlayerError::new(format!("cannot compile `{name}`: cannot run the C compiler `{cc}`: {e}"))
                            .with_help("install a C compiler (`apt-get install gcc`) or name one in $CC")
                    },
                )?;
            if !output.status.success() {
                std::fs::remove_file(&partial).ok();
                let stderr = String::from_utf8_lossy(&output.stderr);
                return Err(PlayerError::new(format!(
                    "the C player `{name}` does not compile ({cc} {})",
                    output.status
                ))
                .with_help(format!("the compiler said:\n{}", stderr.trim_end())));
            }
            std::fs::rename(&partial, &library)
                .map_err(|e| PlayerError::new(format!("cannot compile `{name}`: cannot keep the library: {e}")))?;
        }
        let source = CSource { name, library };
        source.load()?;
        Ok(source)
    }

    /// Starts the player in a sandboxed child process of its own (the
    /// default, [`super::c_sandbox`]).
    pub fn start(&self) -> Result<SandboxedC, PlayerError> {
        SandboxedC::start(&self.name, &self.library)
    }

    /// Loads a copy of the library of its own into this process (trusted,
    /// `--trust-c-players`): statics not shared with any other player.
    pub fn load(&self) -> Result<CPlayer, PlayerError> {
        let name = &self.name;
        let copy = fresh_copy(&self.library)
            .map_err(|e| PlayerError::new(format!("cannot load the C player `{name}`: {e}")))?;
        // SAFETY: loading runs the library's initialisers; it is the user's
        // compiled contest player, which we trust as the contest did. The
        // copy is ours alone (a fresh name), so no other player shares it.
        let loaded = unsafe { Library::new(&copy) };
        // The loaded library stays mapped after its file is gone.
        std::fs::remove_file(&copy).ok();
        let library = loaded.map_err(|e| PlayerError::new(format!("cannot load the C player `{name}`: {e}")))?;
        // SAFETY: the symbols' types are the contest's declarations of
        // `Move` and `Reset`; the pointers are used only while `library`
        // (kept beside them in the player) is loaded.
        let (mv, reset) = unsafe {
            let mv = library.get::<MoveFn>(b"Move").map(|s| *s);
            let reset = library.get::<ResetFn>(b"Reset").map(|s| *s).ok();
            (mv, reset)
        };
        let mv = mv.map_err(|_| {
            PlayerError::new(format!("the C player `{name}` defines no function `Move`"))
                .with_help("a contest player defines `int Move(int grid[11][11], int row, int column)`")
        })?;
        Ok(CPlayer { name: name.clone(), mv, reset, _library: library })
    }
}

/// A loaded contest player, owned by one thread.
pub struct CPlayer {
    name: String,
    mv: MoveFn,
    reset: Option<ResetFn>,
    /// Keeps the code `mv` and `reset` point into loaded.
    _library: Library,
}

impl std::fmt::Debug for CPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CPlayer({})", self.name)
    }
}

impl CPlayer {
    /// Whether the player defines `Reset`.
    pub fn resets(&self) -> bool {
        self.reset.is_some()
    }

    /// Calls `Reset`, if the player defines it.
    pub fn reset(&mut self) {
        if let Some(reset) = self.reset {
            // SAFETY: `Reset` takes nothing and returns nothing; the library
            // is loaded while `self` lives.
            unsafe { reset() }
        }
    }

    /// Calls `Move` on the contest's grid of `view`: the direction, or an
    /// error when it is not 0–7.
    pub fn choose(&mut self, view: &View) -> Result<Dir, PlayerError> {
        let mut grid = view.grid();
        let (row, col) = (view.row() as c_int, view.col() as c_int);
        // SAFETY: `grid` is an `int[11][11]` the callee may read and write
        // for the duration of the call; the library is loaded while `self`
        // lives.
        let dir = unsafe { (self.mv)(grid.as_mut_ptr(), row, col) };
        match Dir::try_from(dir) {
            Ok(d) if d < 8 => Ok(d),
            _ => Err(PlayerError::forfeit(format!(
                "the C player `{}` returned {dir} from `Move`, not a direction 0–7",
                self.name
            ))
            .with_help(format!(
                "it was at row {row}, column {col}, with {} moves left; directions are 0 north, 1 north-east, \
                 ..., 7 north-west",
                view.moves_left
            ))),
        }
    }
}
