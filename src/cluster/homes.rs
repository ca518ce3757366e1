//! Islands placed on ranks. With I islands and N ranks there are
//! G = min(N, I) groups: rank r belongs to group r mod G, island i lives in
//! group i mod G, and the group's first rank (rank g) breeds it. A group's
//! ranks play the selection matches of its islands (a farm of their own,
//! beside the other groups'); the breeding rank makes the island's next
//! generation; migrants go from the rank that breeds one island to the rank
//! that breeds the next as MPI messages; then every rank receives every
//! island, so the log, the checkpoint and the monitor see the whole
//! population. In one process every island is this process's, and each
//! operation is the plain one, so a run is the same at any number of ranks.

use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{rank, ranks};

pub struct Homes {
    groups: usize,
    group: usize,
    #[cfg(feature = "mpi")]
    comm: Option<super::mpi::Group>,
}

impl Homes {
    /// Places `islands` islands on the ranks of the job. Collective.
    pub fn place(islands: usize) -> Homes {
        let groups = ranks().min(islands).max(1);
        let group = rank() % groups;
        Homes {
            groups,
            group,
            #[cfg(feature = "mpi")]
            comm: super::mpi::Group::split(group),
        }
    }

    /// The rank that breeds `island`.
    fn breeder(&self, island: usize) -> usize {
        island % self.groups
    }

    /// Whether this rank plays the matches of `island`.
    pub fn serves(&self, island: usize) -> bool {
        island % self.groups == self.group
    }

    /// Whether this rank breeds `island`.
    pub fn breeds(&self, island: usize) -> bool {
        self.breeder(island) == rank()
    }

    /// `task(0..n)`, computed by the ranks of this rank's group (the tasks of
    /// the islands it serves). Collective over the group.
    pub fn map<T, F>(&self, n: usize, task: F) -> Vec<T>
    where
        T: Serialize + DeserializeOwned + Send,
        F: Fn(usize) -> T + Sync + Send,
    {
        #[cfg(feature = "mpi")]
        if let Some(results) = self.comm.as_ref().and_then(|c| c.map(n, &task)) {
            return results;
        }
        (0..n).into_par_iter().map(task).collect()
    }

    /// Values sent from island to island: `routes` are (from, to) pairs,
    /// route k's value is `make(k)`, made where its first island is bred and
    /// delivered where its second is. Returns the values of the routes whose
    /// second island this rank breeds (`None` for the others). Collective.
    pub fn relay<T, F>(&self, routes: &[(usize, usize)], make: F) -> Vec<Option<T>>
    where
        T: Serialize + DeserializeOwned,
        F: Fn(usize) -> T,
    {
        #[cfg(feature = "mpi")]
        {
            let ranked: Vec<(usize, usize)> = routes.iter().map(|&(a, b)| (self.breeder(a), self.breeder(b))).collect();
            if let Some(arrived) = super::mpi::relay(&ranked, &make) {
                return arrived;
            }
        }
        (0..routes.len()).map(|k| self.breeds(routes[k].1).then(|| make(k))).collect()
    }

    /// Each island's value, on every rank: `bred` holds (island, value) for
    /// the islands this rank breeds. Collective.
    pub fn gather<T>(&self, bred: Vec<(usize, T)>) -> Vec<T>
    where
        T: Serialize + DeserializeOwned,
    {
        super::BRED.fetch_add(bred.len() as u64, std::sync::atomic::Ordering::SeqCst);
        #[cfg(feature = "mpi")]
        let bred = super::mpi::gather(bred);
        let mut all = bred;
        all.sort_by_key(|(island, _)| *island);
        all.into_iter().map(|(_, value)| value).collect()
    }
}
