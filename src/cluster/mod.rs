//! Work spread over the processes of a run. Without the `mpi` feature, or
//! outside `mpirun`, a run is one process and [`map`] is a parallel map on
//! its thread pool. Under `mpirun`, every rank runs the same deterministic
//! program on the same data (the experiment, the seed, the population), so
//! bookkeeping needs no messages. The expensive, independent tasks of a
//! generation (fitness evaluations, puzzle solves, round robins) go through
//! [`map`], a fitness farm that deals them out to all ranks in chunks as
//! ranks ask for work and hands every rank every result. Islands are placed
//! on ranks ([`Homes`]): each group of ranks plays its islands' selection
//! matches, one rank of it breeds them, migrants travel as messages, and
//! every rank then receives the whole next population. Results are placed
//! by task and island index, so a run's files are byte for byte those of
//! the one-process run, at any number of ranks and threads. Rank 0 alone
//! writes files and prints.
//!
//! Every call of [`map`] and [`barrier`] is collective: all ranks must make
//! the same calls in the same order. They are made only on a run's
//! sequential path, never inside a parallel task; a call made while a map
//! is under way runs locally.

mod homes;
#[cfg(feature = "mpi")]
mod mpi;

pub use homes::Homes;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// This process's rank and the number of ranks (0 and 1 outside MPI).
static RANK: AtomicUsize = AtomicUsize::new(0);
static RANKS: AtomicUsize = AtomicUsize::new(1);

/// This process's rank: 0 in a run of one process.
pub fn rank() -> usize {
    RANK.load(Ordering::SeqCst)
}

/// The number of processes of the run.
pub fn ranks() -> usize {
    RANKS.load(Ordering::SeqCst)
}

/// Whether this process writes the run's files and prints: rank 0.
pub fn writes() -> bool {
    rank() == 0
}

/// The ranks of an MPI job, joined for the life of the value: dropping it
/// ends MPI's part of the process. Outside `mpirun` (or without the `mpi`
/// feature) it is a run of one process.
pub struct Session {
    #[cfg(feature = "mpi")]
    _inner: Option<mpi::Session>,
}

impl Session {
    /// Joins the job this process was launched in, if any.
    pub fn join() -> Session {
        #[cfg(feature = "mpi")]
        {
            let inner = mpi::Session::join();
            if let Some(s) = &inner {
                RANK.store(s.rank, Ordering::SeqCst);
                RANKS.store(s.ranks, Ordering::SeqCst);
            }
            Session { _inner: inner }
        }
        #[cfg(not(feature = "mpi"))]
        Session {}
    }

    /// Ends the whole job at once with `code` when it has other ranks (they
    /// may be waiting for this one); else returns.
    pub fn abort_others(&self, code: i32) {
        #[cfg(feature = "mpi")]
        if let Some(s) = &self._inner {
            s.abort(code);
        }
        let _ = code;
    }
}

/// `task(0..n)` in order, computed in parallel: on this process's threads,
/// or under MPI on every rank's threads. Every rank gets every result.
pub fn map<T, F>(n: usize, task: F) -> Vec<T>
where
    T: Serialize + DeserializeOwned + Send,
    F: Fn(usize) -> T + Sync + Send,
{
    #[cfg(feature = "mpi")]
    if let Some(results) = mpi::map(n, &task) {
        return results;
    }
    (0..n).into_par_iter().map(task).collect()
}

/// What one rank did in a run: the tasks of [`map`] it computed and the
/// island generations it bred ([`Homes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Work {
    pub tasks: u64,
    pub islands_bred: u64,
}

/// Island generations this process bred.
static BRED: AtomicU64 = AtomicU64::new(0);

/// On rank 0 of an MPI job, the work each rank did so far; `None` in one
/// process and on the other ranks. Collective.
pub fn work_per_rank() -> Option<Vec<Work>> {
    #[cfg(feature = "mpi")]
    return mpi::work_per_rank(BRED.load(Ordering::SeqCst))
        .map(|all| all.into_iter().map(|(tasks, islands_bred)| Work { tasks, islands_bred }).collect());
    #[cfg(not(feature = "mpi"))]
    None
}

/// Whether `value` is rank 0's too (always, in one process): ranks that
/// read different experiment files or checkpoints (a folder that is not
/// shared between nodes) would run different runs. Collective.
pub fn agrees(value: &impl std::hash::Hash) -> bool {
    use std::hash::{BuildHasher, BuildHasherDefault};
    let mine = BuildHasherDefault::<rustc_hash::FxHasher>::default().hash_one(value);
    #[cfg(feature = "mpi")]
    return mpi::root_value(mine) == mine;
    #[cfg(not(feature = "mpi"))]
    {
        let _ = mine;
        true
    }
}

/// Waits until every rank gets here (nothing outside MPI).
pub fn barrier() {
    #[cfg(feature = "mpi")]
    mpi::barrier();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_process_maps_in_order() {
        assert_eq!((rank(), ranks()), (0, 1));
        assert!(writes());
        let squares: Vec<u64> = map(100, |i| (i * i) as u64);
        assert_eq!(squares, (0..100u64).map(|i| i * i).collect::<Vec<_>>());
        barrier();
        assert_eq!(work_per_rank(), None);
        assert!(agrees(&("anything", 3)));
    }
}
