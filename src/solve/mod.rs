//! Solving puzzles (`stratagem solve`): every puzzle of a file or every
//! numbered instance of a list, by a portfolio of searches and guides
//! ([`portfolio`]), on threads that take the next puzzle as they finish one,
//! the results handed on in order.

pub mod portfolio;
pub mod puzzles;

use std::collections::BTreeMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use portfolio::{Settings, Solved, choose_guides, solve_one};
use puzzles::{Label, PuzzleSource, read_puzzles, solution_steps};

use crate::diagnostic::Failure;
use crate::games::domain::GpDomain;
use crate::games::{Instance, Puzzle};

/// One puzzle's result: what it is, its solution step by step (`None`:
/// unsolved), the nodes searched and the time taken.
pub struct PuzzleResult<S> {
    pub label: Label,
    pub instance: Instance<S>,
    pub steps: Option<Vec<String>>,
    pub nodes: u64,
    pub ms: f64,
}

/// The sums over every puzzle.
pub struct Totals {
    pub puzzles: u64,
    pub solved: u64,
    pub nodes: u64,
    pub steps: u64,
    /// Seconds from the first puzzle to the last result.
    pub seconds: f64,
}

/// How far ahead of the first puzzle whose result is not yet printed the
/// threads may go (per thread), so a slow puzzle does not make the results
/// after it pile up without bound.
const AHEAD: u64 = 4096;

/// Solves every puzzle of `source` on `threads` threads (each takes the next
/// puzzle as it finishes one), each solution written out step by step and,
/// with `check`, replayed from its text; `each` receives the results in
/// puzzle order, on this thread. An illegal solution stops the run.
pub fn solve_puzzles<G>(
    game: &G,
    settings: &Settings,
    source: &PuzzleSource,
    (threads, check): (usize, bool),
    mut each: impl FnMut(PuzzleResult<G::State>),
) -> Result<Totals, Failure>
where
    G: GpDomain + Puzzle<State: Hash + Eq + Send + Sync, Move: Send + Sync>,
{
    let search = settings.search_for(game);
    let guides = choose_guides(game, settings, search)?;
    let puzzles = read_puzzles(game, source)?;
    let threads = threads.max(1);
    let started = Instant::now();
    let (mut n_solved, mut total_nodes, mut total_steps) = (0u64, 0u64, 0u64);
    let n = puzzles.len();
    // Each thread takes the next puzzle as it finishes one; this thread
    // prints the results in order as they come in.
    let next = AtomicU64::new(0);
    let printed = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let printing = std::thread::scope(|scope| -> Result<(), Failure> {
        let (sender, results) = mpsc::channel();
        for _ in 0..threads {
            let sender = sender.clone();
            let (next, printed, stop, puzzles, guides) = (&next, &printed, &stop, &puzzles, &guides);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    while i >= printed.load(Ordering::Acquire) + AHEAD * threads as u64 && !stop.load(Ordering::Relaxed)
                    {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    // Solved, written out step by step and (with `--check`)
                    // replayed here, so the printing thread only prints.
                    let result = puzzles.get(game, i).map(|(label, instance, difficulty)| {
                        let Solved { moves, nodes, ms } =
                            solve_one(game, settings, search, guides, &instance.state, difficulty);
                        let steps = moves.map(|moves| solution_steps(game, &instance.state, &moves));
                        let checked = match (&steps, check) {
                            (Some(steps), true) => game.check_steps(&instance.state, steps),
                            _ => Ok(()),
                        };
                        (label, instance, steps, nodes, ms, checked)
                    });
                    if sender.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut pending = BTreeMap::new();
        let mut want = 0;
        for (i, result) in results {
            pending.insert(i, result);
            while let Some(result) = pending.remove(&want) {
                want += 1;
                printed.store(want, Ordering::Release);
                let Some((label, instance, steps, nodes, ms, checked)) = result else { continue };
                total_nodes += nodes;
                if let (Err((at, why)), Some(steps)) = (checked, &steps) {
                    stop.store(true, Ordering::Relaxed);
                    let name = match label {
                        Label::Index(i) => format!("puzzle {}", i + 1),
                        Label::Number(n) => format!("deal {n}"),
                    };
                    return Err(Failure::message(
                        "stratagem::solve::check",
                        format!("{name}: the solution is not legal at step {} of {}: {why}", at + 1, steps.len()),
                    ));
                }
                n_solved += u64::from(steps.is_some());
                total_steps += steps.as_ref().map_or(0, |s| s.len() as u64);
                each(PuzzleResult { label, instance, steps, nodes, ms });
            }
        }
        Ok(())
    });
    printing?;
    Ok(Totals {
        puzzles: n,
        solved: n_solved,
        nodes: total_nodes,
        steps: total_steps,
        seconds: started.elapsed().as_secs_f64(),
    })
}
