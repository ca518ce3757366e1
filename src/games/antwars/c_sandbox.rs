//! Contest players in C, sandboxed (the default; `--trust-c-players` loads
//! them into the Stratagem process instead, `c_player.rs`): each
//! player of each worker thread is a child process of its own
//! ([`crate::foreign`]), the Stratagem executable serving the compiled
//! library, confined to computing moves.
//!
//! A child holds one or more *lanes*, each a copy of the library with
//! statics of its own, so that many games can be in flight at once and
//! their moves asked for in one round trip (`lockstep.rs`). The
//! protocol, over the child's pipes: the ready frame carries one byte, 1
//! if the library defines `Reset`; a request is a [`Batch`] (the count of
//! its entries and their length in bytes, each a little-endian `u32`, then
//! the entries: a lane as a `u16`, then `R`, call `Reset`, or `M` and the
//! ant's view, call `Move` on its grid), answered by one little-endian
//! `i32` an entry (0 for `R`, what `Move` returned for `M`). Each entry is
//! a piece of the call: it has the `foreign-time` limit to itself, and a
//! fault names the entry it happened in.
//!
//! A player whose child crashes, hangs past the limit, exits, breaks the
//! protocol, is stopped by the sandbox or returns no direction 0–7
//! forfeits the game ([`PlayerError::forfeit`]); the next call starts a
//! fresh child.

use std::ffi::OsString;
use std::ffi::c_int;
use std::path::{Path, PathBuf};
use std::time::Duration;

use libloading::Library;

use super::library_copies::fresh_copy;
use super::{Dir, SIZE, View};
use crate::foreign::child::{CallFault, Fault, Limits, Supervised};
use crate::foreign::confine::{self, Protocol};
use crate::games::duel::PlayerError;
use crate::limits::Limit;

/// The kind of child that serves a C player.
pub const CHILD_KIND: &str = "antwars-c-player";

/// The most lanes a child holds.
pub const MAX_LANES: usize = 256;

/// The longest request a child reads (far above what a batch of every
/// lane's whole game takes).
const MAX_REQUEST: usize = 16 << 20;

/// The bytes of a view in a move entry: the ant's cell, the food in its
/// window (a set of cells) and the opponent's cell (255 if unseen).
const VIEW_BYTES: usize = 1 + 16 + 1;

/// Entries for the lanes of one child, sent in one message.
#[derive(Clone, Debug)]
pub struct Batch {
    /// A header's room, then the entries.
    bytes: Vec<u8>,
    /// The lane of each entry, and whether it is a move.
    entries: Vec<(u16, bool)>,
}

impl Default for Batch {
    fn default() -> Batch {
        Batch { bytes: vec![0; 8], entries: Vec::new() }
    }
}

impl Batch {
    /// `Reset` on `lane`.
    pub fn reset(&mut self, lane: usize) {
        self.bytes.extend_from_slice(&(lane as u16).to_le_bytes());
        self.bytes.push(b'R');
        self.entries.push((lane as u16, false));
    }

    /// `Move` on `lane`, seeing `view`.
    pub fn ask(&mut self, lane: usize, view: &View) {
        self.bytes.extend_from_slice(&(lane as u16).to_le_bytes());
        self.bytes.push(b'M');
        self.bytes.push(view.cell);
        self.bytes.extend_from_slice(&view.food.to_le_bytes());
        self.bytes.push(view.enemy.unwrap_or(u8::MAX));
        self.entries.push((lane as u16, true));
    }

    /// The entries of `other` after these.
    pub fn extend(&mut self, other: &Batch) {
        self.bytes.extend_from_slice(&other.bytes[8..]);
        self.entries.extend_from_slice(&other.entries);
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entry `i`'s lane, and whether it is a move.
    pub fn entry(&self, i: usize) -> (usize, bool) {
        let (lane, ask) = self.entries[i];
        (usize::from(lane), ask)
    }

    pub fn clear(&mut self) {
        self.bytes.truncate(8);
        self.entries.clear();
    }

    /// The request: the header written into its room.
    fn request(&mut self) -> &[u8] {
        let (n, len) = (self.entries.len() as u32, (self.bytes.len() - 8) as u32);
        self.bytes[..4].copy_from_slice(&n.to_le_bytes());
        self.bytes[4..8].copy_from_slice(&len.to_le_bytes());
        &self.bytes
    }
}

/// Why a batch got no answers: the child's fault, in the entry it names
/// (`None`: no child could be started to answer any).
#[derive(Clone, Debug)]
pub struct BatchFault {
    pub fault: Fault,
    pub entry: Option<usize>,
}

/// A contest player in a child process of its own.
pub struct SandboxedC {
    name: String,
    library: PathBuf,
    child: Option<Supervised>,
    lanes: usize,
    resets: bool,
    /// Forfeits so far (the first is reported on stderr).
    forfeits: u64,
    /// The batch of a single game's calls.
    single: Batch,
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
    /// Starts the child of the compiled `library` of the player `name`, with
    /// one lane; an error if it cannot serve it (no `Move`, a library that
    /// does not load).
    pub fn start(name: &str, library: &Path) -> Result<SandboxedC, PlayerError> {
        let mut player = SandboxedC {
            name: name.to_owned(),
            library: library.to_owned(),
            child: None,
            lanes: 1,
            resets: false,
            forfeits: 0,
            single: Batch::default(),
        };
        player.respawn().map_err(|f| PlayerError::new(format!("the C player `{name}` {f}")))?;
        Ok(player)
    }

    /// A child with a copy of the library for each lane. A single lane
    /// loads the library itself; more load copies of it under fresh names,
    /// removed once the child has loaded them (or failed to).
    fn respawn(&mut self) -> Result<(), Fault> {
        self.child = None;
        let exe = crate::foreign::executable().map_err(Fault::Refused)?;
        let copies: Vec<PathBuf> = if self.lanes == 1 {
            Vec::new()
        } else {
            let made: Result<Vec<PathBuf>, _> = (0..self.lanes).map(|_| fresh_copy(&self.library)).collect();
            made.map_err(|e| Fault::Refused(format!("cannot copy its library: {e}")))?
        };
        let args: Vec<OsString> = if copies.is_empty() {
            vec![OsString::from(&self.library)]
        } else {
            copies.iter().map(OsString::from).collect()
        };
        let child = Supervised::spawn(&exe, CHILD_KIND, &args, limits());
        for copy in &copies {
            std::fs::remove_file(copy).ok();
        }
        let child = child?;
        self.resets = child.hello.first() == Some(&1);
        self.child = Some(child);
        Ok(())
    }

    /// Whether the player defines `Reset`.
    pub fn resets(&self) -> bool {
        self.resets
    }

    /// Lanes for `n` games in flight (at most [`MAX_LANES`]): the next call
    /// starts a child with that many if this one has fewer.
    pub fn hold_lanes(&mut self, n: usize) -> usize {
        let n = n.clamp(1, MAX_LANES);
        if n > self.lanes {
            self.lanes = n;
            self.child = None;
        }
        self.lanes
    }

    /// Sends `batch` to the child (started afresh if it has none), whose
    /// answers [`SandboxedC::receive`] awaits.
    pub fn send(&mut self, batch: &mut Batch) -> Result<(), BatchFault> {
        if self.child.is_none() {
            self.respawn().map_err(|fault| BatchFault { fault, entry: None })?;
        }
        let Some(child) = &mut self.child else { unreachable!("a child was just started") };
        let pieces = batch.len() as u32;
        child.send(batch.request(), pieces).map_err(|f| self.fault(f))
    }

    /// What `Move` returned for each entry of the batch sent (0 for a
    /// reset); on a fault the child is gone.
    pub fn receive(&mut self, batch: &Batch) -> Result<Vec<i32>, BatchFault> {
        let Some(child) = &mut self.child else {
            return Err(BatchFault { fault: Fault::Died("was not running".to_owned()), entry: None });
        };
        let answer = child.receive().map_err(|f| self.fault(f))?;
        if answer.len() != 4 * batch.len() {
            let fault = Fault::Garbage(format!("an answer of {} bytes to {} requests", answer.len(), batch.len()));
            self.child = None;
            return Err(BatchFault { fault, entry: Some(batch.len().saturating_sub(1)) });
        }
        Ok(answer.chunks_exact(4).map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
    }

    fn fault(&mut self, f: CallFault) -> BatchFault {
        self.child = None;
        BatchFault { fault: f.fault, entry: Some(f.piece as usize) }
    }

    /// One call of a single game's: `batch` sent and answered.
    fn call_single(&mut self) -> Result<Vec<i32>, BatchFault> {
        let mut batch = std::mem::take(&mut self.single);
        let answers = self.send(&mut batch).and_then(|()| self.receive(&batch));
        batch.clear();
        self.single = batch;
        answers
    }

    /// Before a game of its own: a fresh child if the last one faulted,
    /// then `Reset` on lane 0 (the contest's promise, kept for a fresh
    /// child too: its statics are zero, which need not be what `Reset` sets).
    pub fn reset(&mut self) -> Result<(), PlayerError> {
        if self.child.is_none() {
            self.respawn().map_err(|f| self.forfeit(&f, "while starting a game"))?;
        }
        if !self.resets {
            return Ok(());
        }
        self.single.reset(0);
        self.call_single().map(|_| ()).map_err(|f| self.forfeit(&f.fault, "while starting a game"))
    }

    /// The direction `Move` returns on the contest's grid of `view`, on
    /// lane 0.
    pub fn choose(&mut self, view: &View) -> Result<Dir, PlayerError> {
        if self.child.is_none() {
            return Err(self.forfeit(&Fault::Died("was not running".to_owned()), "before its move"));
        }
        self.single.ask(0, view);
        match self.call_single() {
            Ok(answers) => self.direction(answers[0], view),
            Err(f) => Err(self.forfeit(&f.fault, "during `Move`")),
        }
    }

    /// The direction `answer` is, or the forfeit of returning no direction
    /// (the child lives on).
    pub fn direction(&mut self, answer: i32, view: &View) -> Result<Dir, PlayerError> {
        match Dir::try_from(answer) {
            Ok(d) if d < 8 => Ok(d),
            _ => {
                let what = format!("returned {answer} from `Move`, not a direction 0–7,");
                Err(self.note_forfeit(&what, &format!("at row {}, column {}", view.row(), view.col())))
            }
        }
    }

    /// The forfeit of a game for the child's `fault` (`when`: "during
    /// `Move`"); the child is gone.
    pub fn forfeit(&mut self, fault: &Fault, when: &str) -> PlayerError {
        self.child = None;
        self.note_forfeit(&fault.to_string(), when)
    }

    /// The forfeit of a game for a fault of a child that is gone already
    /// (its other games replayed on a fresh one, which lives on).
    pub fn forfeit_after(&mut self, fault: &Fault, when: &str) -> PlayerError {
        self.note_forfeit(&fault.to_string(), when)
    }

    /// The forfeit of a game for what the player did: counted, and the
    /// first reported on stderr.
    fn note_forfeit(&mut self, what: &str, when: &str) -> PlayerError {
        self.forfeits += 1;
        let message = format!("the C player `{}` {what} {when}", self.name);
        if self.forfeits == 1 {
            eprintln!("note: {message}: it forfeits the game (later forfeits are counted, not reported)");
        }
        PlayerError::forfeit(message)
    }
}

/// The child: loads `args`, the compiled library's copies (one a lane),
/// confines itself and serves batches until its input ends. Its exit status
/// is the process's.
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

/// A lane's copy of the library, and its two functions.
struct Loaded {
    mv: MoveFn,
    reset: Option<ResetFn>,
    _library: Library,
}

fn load(path: &str) -> Result<Loaded, String> {
    // SAFETY: loading runs the library's initialisers, confined to reading
    // (the loading filter); the library is the compiled contest player.
    let library = unsafe { Library::new(path) }.map_err(|e| format!("cannot load the library: {e}"))?;
    // SAFETY: the symbols' types are the contest's declarations; they are
    // used only while `library`, kept beside them, is loaded.
    let (mv, reset) =
        unsafe { (library.get::<MoveFn>(b"Move").map(|s| *s), library.get::<ResetFn>(b"Reset").map(|s| *s).ok()) };
    let mv = mv.map_err(|_| "defines no function `Move`".to_owned())?;
    Ok(Loaded { mv, reset, _library: library })
}

fn serve_on(protocol: &mut Protocol, args: &[String]) -> Result<(), String> {
    if args.is_empty() || args.len() > MAX_LANES {
        return Err(format!("a C player's child takes 1 to {MAX_LANES} libraries"));
    }
    confine::while_loading(protocol)?;
    let lanes: Vec<Loaded> = args.iter().map(|path| load(path)).collect::<Result<_, _>>()?;
    confine::while_serving(protocol)?;
    protocol.ready(&[u8::from(lanes[0].reset.is_some())]).map_err(|e| e.to_string())?;
    let mut header = [0u8; 8];
    let mut request = Vec::new();
    let mut answers = Vec::new();
    while protocol.receive(&mut header).map_err(|e| e.to_string())? {
        let n = u32::from_le_bytes([header[0], header[1], header[2], header[3]]) as usize;
        let len = u32::from_le_bytes([header[4], header[5], header[6], header[7]]) as usize;
        if len > MAX_REQUEST {
            return Err(format!("a request of {len} bytes"));
        }
        request.resize(len, 0);
        if !protocol.receive(&mut request).map_err(|e| e.to_string())? {
            return Ok(());
        }
        answers.clear();
        let mut at = 0;
        for done in 0..n {
            let answer = serve_entry(&lanes, &request, &mut at)?;
            answers.extend_from_slice(&answer.to_le_bytes());
            protocol.done(done as u32 + 1);
        }
        protocol.send(&answers).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Runs the entry of `request` at `at` on its lane, moving `at` past it.
fn serve_entry(lanes: &[Loaded], request: &[u8], at: &mut usize) -> Result<i32, String> {
    let short = || "a request cut short".to_owned();
    let head = request.get(*at..*at + 3).ok_or_else(short)?;
    let lane = lanes.get(usize::from(u16::from_le_bytes([head[0], head[1]]))).ok_or("an unknown lane")?;
    let op = head[2];
    *at += 3;
    match op {
        b'R' => {
            if let Some(reset) = lane.reset {
                // SAFETY: `Reset` takes nothing; the library is loaded.
                unsafe { reset() }
            }
            Ok(0)
        }
        b'M' => {
            let bytes = request.get(*at..*at + VIEW_BYTES).ok_or_else(short)?;
            *at += VIEW_BYTES;
            let cell = bytes[0];
            let food = u128::from_le_bytes(bytes[1..17].try_into().map_err(|_| short())?);
            let enemy = (bytes[17] != u8::MAX).then_some(bytes[17]);
            if usize::from(cell) >= SIZE * SIZE || enemy.is_some_and(|e| usize::from(e) >= SIZE * SIZE) {
                return Err("a view off the board".to_owned());
            }
            let view = View { cell, food, enemy, score: 0, moves_left: 0 };
            let mut grid = view.grid();
            let (row, col) = (view.row() as c_int, view.col() as c_int);
            // SAFETY: `grid` is an `int[11][11]` the callee may read and
            // write for the call; the library is loaded.
            Ok(unsafe { (lane.mv)(grid.as_mut_ptr(), row, col) })
        }
        other => Err(format!("an unknown request {other}")),
    }
}
