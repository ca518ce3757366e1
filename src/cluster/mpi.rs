//! The MPI side of the cluster (the `mpi` feature): joining the job `mpirun`
//! started, and the fitness farm behind [`super::map`]. Rank 0 leads a map:
//! it hands each other rank two chunks of task indices, computes chunks
//! itself while they work, and gives a rank its next chunk as soon as its
//! results arrive (dynamic load balancing: a slow rank or a chunk of long
//! games delays no one; chunks shrink as the tasks run out). Then it sends every rank the whole result. Results
//! travel as postcard bytes, so floats arrive bit for bit.
//!
//! A rank that dies (killed, out of memory) is seen by `mpirun`, which ends
//! the job and says which rank died; a rank whose run fails ends the job
//! with `MPI_Abort`, so no rank waits for ever on one that is gone.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use mpi::Threading;
use mpi::environment::Universe;
use mpi::point_to_point::Status;
use mpi::topology::{Color, Process, Rank, SimpleCommunicator};
use mpi::traits::*;
use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Whether this process is one rank of several.
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// Whether a map is under way (a map inside a task runs locally).
static BUSY: AtomicBool = AtomicBool::new(false);

/// Tasks this rank computed, over the whole run.
static DONE: AtomicU64 = AtomicU64::new(0);

/// Message tags: a chunk of task indices (rank 0 to a worker), its results
/// (back), the end of a map (to every worker); migrants between the ranks
/// that breed two islands; a rank's part of a gathering (to rank 0), and
/// the whole (back).
const CHUNK: i32 = 1;
const RESULT: i32 = 2;
const STOP: i32 = 3;
const MIGRANTS: i32 = 4;
const PART: i32 = 5;
const WHOLE: i32 = 6;

/// Guided chunks: each is the tasks not yet handed out over this many times
/// the ranks (at least one task), so chunks are large while much is left
/// (few messages) and small at the end, where a large one would keep every
/// other rank waiting.
const GUIDE: usize = 2;

pub struct Session {
    universe: Universe,
    pub rank: usize,
    pub ranks: usize,
}

impl Session {
    /// Initialises MPI when this process was started by `mpirun` (Open MPI),
    /// `mpiexec` (MPICH's Hydra) or a PMIx launcher such as Slurm's `srun`.
    pub fn join() -> Option<Session> {
        let launched = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"].iter().any(|v| std::env::var_os(v).is_some());
        if !launched {
            return None;
        }
        // MPI is called from one thread at a time, but not always the same
        // one (the run's thread pool installs the run on one of its threads).
        let (universe, _level) = mpi::initialize_with_threading(Threading::Serialized)?;
        let world = universe.world();
        let (rank, ranks) = (world.rank().max(0) as usize, world.size().max(1) as usize);
        ACTIVE.store(ranks > 1, Ordering::SeqCst);
        Some(Session { universe, rank, ranks })
    }

    /// Ends every rank of the job with `code`.
    pub fn abort(&self, code: i32) {
        if self.ranks > 1 {
            self.universe.world().abort(code);
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        ACTIVE.store(false, Ordering::SeqCst);
    }
}

/// On rank 0, for each rank, the tasks it computed in this run and the
/// islands it bred (one a generation); `None` elsewhere. Collective.
pub fn work_per_rank(bred: u64) -> Option<Vec<(u64, u64)>> {
    if !ACTIVE.load(Ordering::SeqCst) {
        return None;
    }
    let world = SimpleCommunicator::world();
    let root = world.process_at_rank(0);
    let mine = [DONE.load(Ordering::SeqCst), bred];
    if world.rank() == 0 {
        let mut all = vec![0u64; 2 * world.size().max(1) as usize];
        root.gather_into_root(&mine[..], &mut all[..]);
        Some(all.chunks(2).map(|c| (c[0], c[1])).collect())
    } else {
        root.gather_into(&mine[..]);
        None
    }
}

/// Rank 0's `value`, on every rank. Collective.
pub fn root_value(value: u64) -> u64 {
    if !ACTIVE.load(Ordering::SeqCst) {
        return value;
    }
    let mut v = value;
    SimpleCommunicator::world().process_at_rank(0).broadcast_into(&mut v);
    v
}

/// Waits for every rank.
pub fn barrier() {
    if ACTIVE.load(Ordering::SeqCst) {
        SimpleCommunicator::world().barrier();
    }
}

/// `task(0..n)` over all ranks, or `None` when this is not a map across ranks.
pub fn map<T, F>(n: usize, task: &F) -> Option<Vec<T>>
where
    T: Serialize + DeserializeOwned + Send,
    F: Fn(usize) -> T + Sync + Send,
{
    if !ACTIVE.load(Ordering::SeqCst) {
        return None;
    }
    map_in(&SimpleCommunicator::world(), n, task)
}

/// `task(0..n)` over the ranks of `comm` (its rank 0 leads), or `None` when
/// `comm` is one rank or a map is under way.
fn map_in<T, F>(comm: &SimpleCommunicator, n: usize, task: &F) -> Option<Vec<T>>
where
    T: Serialize + DeserializeOwned + Send,
    F: Fn(usize) -> T + Sync + Send,
{
    if comm.size() <= 1 || BUSY.swap(true, Ordering::SeqCst) {
        return None;
    }
    let results = if n == 0 {
        Vec::new()
    } else if comm.rank() == 0 {
        lead(comm, n, task)
    } else {
        follow(comm, task)
    };
    BUSY.store(false, Ordering::SeqCst);
    Some(results)
}

/// The ranks that serve one group of islands (src/cluster/homes.rs): a
/// communicator of their own, ordered by rank, so the group's first rank
/// leads its maps and the maps of different groups run side by side.
pub struct Group {
    comm: SimpleCommunicator,
}

impl Group {
    /// This rank's group among those of colour `color`; `None` outside a
    /// job of several ranks. Collective.
    pub fn split(color: usize) -> Option<Group> {
        if !ACTIVE.load(Ordering::SeqCst) {
            return None;
        }
        let world = SimpleCommunicator::world();
        let comm = world.split_by_color_with_key(Color::with_value(color as i32), world.rank())?;
        Some(Group { comm })
    }

    /// `task(0..n)` over the group's ranks; `None` when the group is one rank.
    pub fn map<T, F>(&self, n: usize, task: &F) -> Option<Vec<T>>
    where
        T: Serialize + DeserializeOwned + Send,
        F: Fn(usize) -> T + Sync + Send,
    {
        map_in(&self.comm, n, task)
    }
}

/// Values sent along `routes` (from rank, to rank): route k's value is
/// `make(k)`, made on its first rank and sent to its second. Returns, on
/// each rank, the values of the routes that end there (`None` for the
/// others). Routes between two ranks arrive in the order given (MPI does
/// not overtake), so several islands may share a pair of ranks.
pub fn relay<T, F>(routes: &[(usize, usize)], make: &F) -> Option<Vec<Option<T>>>
where
    T: Serialize + DeserializeOwned,
    F: Fn(usize) -> T,
{
    if !ACTIVE.load(Ordering::SeqCst) {
        return None;
    }
    let world = SimpleCommunicator::world();
    let me = world.rank().max(0) as usize;
    let outgoing: Vec<(Rank, Vec<u8>)> = routes
        .iter()
        .enumerate()
        .filter(|(_, (from, to))| *from == me && *to != me)
        .map(|(k, &(_, to))| (to as Rank, encode(&world, &make(k))))
        .collect();
    let mut arrived: Vec<Option<T>> = routes.iter().map(|_| None).collect();
    mpi::request::scope(|scope| {
        let sends: Vec<_> = outgoing
            .iter()
            .map(|(to, bytes)| world.process_at_rank(*to).immediate_send_with_tag(scope, &bytes[..], MIGRANTS))
            .collect();
        for (k, &(from, to)) in routes.iter().enumerate() {
            if to != me {
                continue;
            }
            arrived[k] = Some(if from == me {
                make(k)
            } else {
                decode(&world, &receive(&world.process_at_rank(from as Rank), MIGRANTS))
            });
        }
        for send in sends {
            finish(send);
        }
    });
    Some(arrived)
}

/// Every rank's `part`, on every rank, in rank order: the parts go to rank
/// 0, which sends the whole to every rank. Ranks that finished early wait
/// politely (see [`wait`]). Collective.
pub fn gather<T>(part: Vec<T>) -> Vec<T>
where
    T: Serialize + DeserializeOwned,
{
    if !ACTIVE.load(Ordering::SeqCst) {
        return part;
    }
    let world = SimpleCommunicator::world();
    let root = world.process_at_rank(0);
    let bytes = if world.rank() == 0 {
        let mut whole = part;
        for from in 1..world.size() {
            whole.extend(decode::<Vec<T>>(&world, &receive(&world.process_at_rank(from), PART)));
        }
        let bytes = encode(&world, &whole);
        for to in 1..world.size() {
            world.process_at_rank(to).send_with_tag(&bytes[..], WHOLE);
        }
        bytes
    } else {
        let bytes = encode(&world, &part);
        mpi::request::scope(|scope| finish(root.immediate_send_with_tag(scope, &bytes[..], PART)));
        receive(&root, WHOLE)
    };
    decode(&world, &bytes)
}

/// Polls `probe` until a message is there, sleeping between polls (up to a
/// millisecond): a blocking receive in Open MPI spins, and a spinning rank
/// takes a core from the threads doing the work (on a node with more ranks
/// and threads than cores, half of them). A chunk takes far longer than
/// the latency this adds.
fn wait(probe: impl Fn() -> Option<Status>) -> Status {
    let mut pause = Duration::from_micros(20);
    loop {
        if let Some(status) = probe() {
            return status;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(1));
    }
}

/// The next message tagged `tag` from `source`, waited for politely.
fn receive(source: &Process<'_>, tag: i32) -> Vec<u8> {
    wait(|| source.immediate_probe_with_tag(tag));
    source.receive_vec_with_tag::<u8>(tag).0
}

/// Waits for a send to complete, sleeping between tests like [`wait`]
/// (rank 0 may be busy for a while before it takes the message).
fn finish<'a, S: mpi::request::Scope<'a>>(send: mpi::request::Request<'a, [u8], S>) {
    let mut send = send;
    let mut pause = Duration::from_micros(20);
    loop {
        match send.test() {
            Ok(_) => return,
            Err(pending) => send = pending,
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(1));
    }
}

/// Ends the job: a message that cannot be read means the ranks no longer
/// run the same program.
fn fail(world: &SimpleCommunicator, what: &str) -> ! {
    eprintln!("error: rank {} of {}: {what}; ending the run", world.rank(), world.size());
    world.abort(1)
}

fn encode<T: Serialize>(world: &SimpleCommunicator, value: &T) -> Vec<u8> {
    postcard::to_stdvec(value).unwrap_or_else(|e| fail(world, &format!("cannot encode results: {e}")))
}

fn decode<T: DeserializeOwned>(world: &SimpleCommunicator, bytes: &[u8]) -> T {
    postcard::from_bytes(bytes).unwrap_or_else(|e| fail(world, &format!("cannot read results from another rank: {e}")))
}

/// Rank 0's side of a map.
fn lead<T, F>(world: &SimpleCommunicator, n: usize, task: &F) -> Vec<T>
where
    T: Serialize + DeserializeOwned + Send,
    F: Fn(usize) -> T + Sync + Send,
{
    let ranks = world.size().max(1) as usize;
    let chunk = |next: usize| (n - next).div_ceil(GUIDE * ranks).max(1);
    let mut slots: Vec<Option<T>> = (0..n).map(|_| None).collect();
    let mut next = 0;
    let mut out = 0;
    let give = |to: Rank, next: &mut usize| {
        if *next >= n {
            return false;
        }
        let end = (*next + chunk(*next)).min(n);
        world.process_at_rank(to).send_with_tag(&[*next as u64, end as u64][..], CHUNK);
        *next = end;
        true
    };
    for to in 1..ranks as Rank {
        for _ in 0..2 {
            out += usize::from(give(to, &mut next));
        }
    }
    let store = |bytes: Vec<u8>, slots: &mut [Option<T>]| {
        let Some((start, rest)) = bytes.split_first_chunk::<8>() else { fail(world, "an empty result message") };
        let start = u64::from_le_bytes(*start) as usize;
        let values: Vec<T> = decode(world, rest);
        if start + values.len() > n {
            fail(world, "results past the end of the tasks");
        }
        for (slot, v) in slots[start..].iter_mut().zip(values) {
            *slot = Some(v);
        }
    };
    loop {
        while let Some(status) = world.any_process().immediate_probe_with_tag(RESULT) {
            let from = status.source_rank();
            let (bytes, _): (Vec<u8>, Status) = world.process_at_rank(from).receive_vec_with_tag(RESULT);
            store(bytes, &mut slots);
            out -= 1;
            out += usize::from(give(from, &mut next));
        }
        if next < n {
            let end = (next + chunk(next)).min(n);
            let mine: Vec<T> = (next..end).into_par_iter().map(task).collect();
            DONE.fetch_add((end - next) as u64, Ordering::SeqCst);
            for (slot, v) in slots[next..end].iter_mut().zip(mine) {
                *slot = Some(v);
            }
            next = end;
        } else if out > 0 {
            let from = wait(|| world.any_process().immediate_probe_with_tag(RESULT)).source_rank();
            let (bytes, _): (Vec<u8>, Status) = world.process_at_rank(from).receive_vec_with_tag(RESULT);
            store(bytes, &mut slots);
            out -= 1;
            out += usize::from(give(from, &mut next));
        } else {
            break;
        }
    }
    for to in 1..ranks as Rank {
        world.process_at_rank(to).send_with_tag(&[0u64; 0][..], STOP);
    }
    let results: Vec<T> =
        slots.into_iter().map(|s| s.unwrap_or_else(|| fail(world, "a task without a result"))).collect();
    let bytes = encode(world, &results);
    let root = world.process_at_rank(0);
    let mut len = bytes.len() as u64;
    root.broadcast_into(&mut len);
    let mut bytes = bytes;
    root.broadcast_into(&mut bytes[..]);
    results
}

/// Another rank's side of a map: chunks until told to stop, then the whole result.
fn follow<T, F>(world: &SimpleCommunicator, task: &F) -> Vec<T>
where
    T: Serialize + DeserializeOwned + Send,
    F: Fn(usize) -> T + Sync + Send,
{
    let root = world.process_at_rank(0);
    loop {
        wait(|| root.immediate_probe());
        let (range, status): (Vec<u64>, Status) = root.receive_vec();
        if status.tag() == STOP {
            break;
        }
        let [start, end] = range[..] else { fail(world, "a malformed chunk of tasks") };
        let (start, end) = (start as usize, end as usize);
        let values: Vec<T> = (start..end).into_par_iter().map(task).collect();
        DONE.fetch_add((end - start) as u64, Ordering::SeqCst);
        let mut bytes = (start as u64).to_le_bytes().to_vec();
        bytes.extend(encode(world, &values));
        root.send_with_tag(&bytes[..], RESULT);
    }
    let mut len = 0u64;
    root.broadcast_into(&mut len);
    let mut bytes = vec![0u8; len as usize];
    root.broadcast_into(&mut bytes[..]);
    decode(world, &bytes)
}
