//! Contest players in C, sandboxed (the default; `--trust-c-players` loads
//! them into the Stratagem process instead, `c_player.rs`): each
//! player of each worker thread is a child process of its own
//! ([`crate::foreign`]), the Stratagem executable serving the compiled
//! library, confined to computing moves.
//!
//! The protocol, over the child's pipes: the child's ready frame carries
//! one byte, 1 if the library defines `Reset`; a request is `R` (call
//! `Reset`, answered by an empty frame) or `M`, the grid's 121 cells row
//! by row, the row and the column, each a little-endian `i32` (answered by
//! the direction `Move` returned, an `i32`). A player whose child crashes,
//! hangs past the `foreign-time` limit, exits, breaks the protocol, is
//! stopped by the sandbox or returns no direction 0–7 forfeits the game
//! ([`PlayerError::forfeit`]); the next game starts a fresh child.

use std::ffi::OsString;
use std::ffi::c_int;
use std::path::{Path, PathBuf};
use std::time::Duration;

use libloading::Library;

use super::{Dir, SIZE, View};
use crate::foreign::child::{Fault, Limits, Supervised};
use crate::foreign::confine::{self, Protocol};
use crate::games::duel::PlayerError;
use crate::limits::Limit;

/// The kind of child that serves a C player.
pub const CHILD_KIND: &str = "antwars-c-player";

/// The bytes of a move request: `M`, 121 cells, the row and the column.
const MOVE_REQUEST: usize = 1 + 4 * (SIZE * SIZE + 2);

/// A contest player in a child process of its own.
pub struct SandboxedC {
    name: String,
    library: PathBuf,
    child: Option<Supervised>,
    resets: bool,
    /// Forfeits so far (the first is reported on stderr).
    forfeits: u64,
}

impl std::fmt::Debug for SandboxedC {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SandboxedC({})", self.name)
    }
}

fn limits() -> Limits {
    Limits { call: Duration::from_millis(Limit::ForeignTime.get()), memory: Limit::ForeignMemory.get() }
}

impl SandboxedC {
    /// Starts the child of the compiled `library` of the player `name`; an
    /// error if it cannot serve it (no `Move`, a library that does not load).
    pub fn start(name: &str, library: &Path) -> Result<SandboxedC, PlayerError> {
        let mut player =
            SandboxedC { name: name.to_owned(), library: library.to_owned(), child: None, resets: false, forfeits: 0 };
        player.respawn().map_err(|f| PlayerError::new(format!("the C player `{name}` {f}")))?;
        Ok(player)
    }

    fn respawn(&mut self) -> Result<(), Fault> {
        let exe = crate::foreign::executable().map_err(Fault::Refused)?;
        let child = Supervised::spawn(&exe, CHILD_KIND, &[OsString::from(&self.library)], limits())?;
        self.resets = child.hello.first() == Some(&1);
        self.child = Some(child);
        Ok(())
    }

    /// Whether the player defines `Reset`.
    pub fn resets(&self) -> bool {
        self.resets
    }

    /// Before a game: a fresh child if the last one faulted, else `Reset`.
    pub fn reset(&mut self) -> Result<(), PlayerError> {
        let result = match &mut self.child {
            None => self.respawn(),
            Some(child) if self.resets => child.call(b"R").map(|_| ()),
            Some(_) => Ok(()),
        };
        result.map_err(|f| self.forfeit(f.to_string(), "while starting a game"))
    }

    /// The direction `Move` returns on the contest's grid of `view`.
    pub fn choose(&mut self, view: &View) -> Result<Dir, PlayerError> {
        let Some(child) = &mut self.child else {
            return Err(self.forfeit("was not running".to_owned(), "before its move"));
        };
        let mut request = Vec::with_capacity(MOVE_REQUEST);
        request.push(b'M');
        for row in view.grid() {
            for cell in row {
                request.extend_from_slice(&cell.to_le_bytes());
            }
        }
        request.extend_from_slice(&(view.row() as i32).to_le_bytes());
        request.extend_from_slice(&(view.col() as i32).to_le_bytes());
        let answer = child.call(&request).map_err(|f| (f, "during `Move`"));
        let dir = answer.and_then(|a| match <[u8; 4]>::try_from(a.as_slice()) {
            Ok(bytes) => Ok(i32::from_le_bytes(bytes)),
            Err(_) => Err((Fault::Garbage(format!("an answer of {} bytes to a move", a.len())), "during `Move`")),
        });
        match dir {
            Ok(d) if (0..8).contains(&d) => Ok(d as Dir),
            Ok(d) => {
                let what = format!("returned {d} from `Move`, not a direction 0–7,");
                Err(self.forfeit(what, &format!("at row {}, column {}", view.row(), view.col())))
            }
            Err((f, when)) => Err(self.forfeit(f.to_string(), when)),
        }
    }

    /// The forfeit of a game for what the player did; the child is gone.
    fn forfeit(&mut self, what: String, when: &str) -> PlayerError {
        self.child = None;
        self.forfeits += 1;
        let message = format!("the C player `{}` {what} {when}", self.name);
        if self.forfeits == 1 {
            eprintln!("note: {message}: it forfeits the game (later forfeits are counted, not reported)");
        }
        PlayerError::forfeit(message)
    }
}

/// The child: loads `args[0]`, the compiled library, confines itself and
/// serves moves until its input ends. Its exit status is the process's.
pub fn serve(args: &[String]) -> u8 {
    let Ok(mut protocol) = Protocol::take() else { return 2 };
    match serve_on(&mut protocol, args) {
        Ok(()) => 0,
        Err(why) => {
            protocol.refuse(&why).ok();
            1
        }
    }
}

type MoveFn = unsafe extern "C" fn(*mut [c_int; SIZE], c_int, c_int) -> c_int;
type ResetFn = unsafe extern "C" fn();

fn serve_on(protocol: &mut Protocol, args: &[String]) -> Result<(), String> {
    let [library] = args else { return Err("a C player's child takes one library".to_owned()) };
    confine::while_loading(protocol)?;
    // SAFETY: loading runs the library's initialisers, confined to reading
    // (the filter above); the library is the compiled contest player.
    let library = unsafe { Library::new(library) }.map_err(|e| format!("cannot load the library: {e}"))?;
    // SAFETY: the symbols' types are the contest's declarations; they are
    // used only while `library` is loaded (to the end of this function).
    let (mv, reset) =
        unsafe { (library.get::<MoveFn>(b"Move").map(|s| *s), library.get::<ResetFn>(b"Reset").map(|s| *s).ok()) };
    let mv = mv.map_err(|_| "defines no function `Move`".to_owned())?;
    confine::while_serving(protocol)?;
    protocol.ready(&[u8::from(reset.is_some())]).map_err(|e| e.to_string())?;
    let mut op = [0u8; 1];
    let mut body = vec![0u8; MOVE_REQUEST - 1];
    while protocol.receive(&mut op).map_err(|e| e.to_string())? {
        match op[0] {
            b'R' => {
                if let Some(reset) = reset {
                    // SAFETY: `Reset` takes nothing; the library is loaded.
                    unsafe { reset() }
                }
                protocol.send(&[]).map_err(|e| e.to_string())?;
            }
            b'M' => {
                if !protocol.receive(&mut body).map_err(|e| e.to_string())? {
                    return Ok(());
                }
                let int =
                    |i: usize| i32::from_le_bytes([body[4 * i], body[4 * i + 1], body[4 * i + 2], body[4 * i + 3]]);
                let mut grid = [[0 as c_int; SIZE]; SIZE];
                for (i, cell) in grid.iter_mut().flatten().enumerate() {
                    *cell = int(i);
                }
                let (row, col) = (int(SIZE * SIZE), int(SIZE * SIZE + 1));
                // SAFETY: `grid` is an `int[11][11]` the callee may read and
                // write for the call; the library is loaded.
                let dir = unsafe { mv(grid.as_mut_ptr(), row, col) };
                protocol.send(&dir.to_le_bytes()).map_err(|e| e.to_string())?;
            }
            other => return Err(format!("an unknown request {other}")),
        }
    }
    Ok(())
}
