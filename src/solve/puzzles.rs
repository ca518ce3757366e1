//! The puzzles `solve` is given: a file of puzzle lines, read ahead of
//! time, or numbered instances (a game's deals), made as they are reached;
//! and a solution written out step by step.

use std::ops::RangeInclusive;
use std::path::PathBuf;

use crate::diagnostic::{Failure, Sources};
use crate::games::instances::parse_instances;
use crate::games::{Instance, Puzzle};
use crate::limits::Limit;
use crate::search::guided::difficulties;

/// Where the puzzles come from.
pub enum PuzzleSource {
    /// A file, one puzzle a line.
    File(PathBuf),
    /// Numbered instances (a game's deals), as `--deals` lists them.
    Numbers(String),
}

/// What a result line names a puzzle by.
#[derive(Clone, Copy)]
pub enum Label {
    /// Its line's place among the file's puzzles, from 1.
    Index(usize),
    /// Its number (a deal).
    Number(u32),
}

/// The puzzles to solve, read ahead of time (a file) or made as they are
/// reached (numbered instances, so `1-32000` costs nothing up front).
pub enum Puzzles<S> {
    File(Vec<Instance<S>>, Vec<f64>),
    Numbers(Vec<RangeInclusive<u32>>),
}

impl<S> Puzzles<S> {
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn len(&self) -> u64 {
        match self {
            Puzzles::File(p, _) => p.len() as u64,
            Puzzles::Numbers(ranges) => ranges.iter().map(|r| u64::from(r.end() - r.start()) + 1).sum(),
        }
    }

    /// Puzzle `i` (from 0) with its label and difficulty, made when asked
    /// for; `None` past the end, or for a number the game has no instance
    /// of.
    pub fn get<G: Puzzle<State = S>>(&self, game: &G, mut i: u64) -> Option<(Label, Instance<S>, f64)>
    where
        S: Clone,
    {
        match self {
            Puzzles::File(puzzles, difficulty) => {
                let at = usize::try_from(i).ok()?;
                let p = puzzles.get(at)?;
                Some((
                    Label::Index(at),
                    Instance { state: p.state.clone(), optimal_cost: p.optimal_cost },
                    difficulty[at],
                ))
            }
            Puzzles::Numbers(ranges) => {
                for r in ranges {
                    let size = u64::from(r.end() - r.start()) + 1;
                    if i < size {
                        let n = r.start() + i as u32;
                        let state = game.numbered_instance(n)?;
                        return Some((Label::Number(n), Instance { state, optimal_cost: None }, 0.0));
                    }
                    i -= size;
                }
                None
            }
        }
    }
}

/// Every puzzle of `--puzzles`, or a diagnostic for each line that is not
/// one; or the numbers `--deals` lists, or a diagnostic pointing into the
/// list.
pub fn read_puzzles<G: Puzzle>(game: &G, source: &PuzzleSource) -> Result<Puzzles<G::State>, Failure> {
    let mut sources = Sources::new();
    match source {
        PuzzleSource::File(path) => {
            let file = sources.load_within(path, Limit::InputSize).map_err(|e| {
                Failure::message("stratagem::solve::file", format!("cannot read `{}`: {e}", path.display()))
            })?;
            let text = sources.get(file).text.clone();
            let puzzles = parse_instances(game, file, &text).map_err(|diags| Failure::new(sources, diags))?;
            let difficulty = difficulties(&puzzles);
            Ok(Puzzles::File(puzzles, difficulty))
        }
        PuzzleSource::Numbers(list) => match game.parse_numbers(list) {
            None => Err(Failure::message(
                "stratagem::solve::deals",
                format!("{} has no numbered puzzles: give a file with `--puzzles FILE`", game.name()),
            )),
            Some(Ok(ranges)) => Ok(Puzzles::Numbers(ranges)),
            Some(Err(e)) => {
                let (sources, diag) = e.diagnose("stratagem::solve::deals", "--deals", list);
                Err(Failure::new(sources, vec![diag]))
            }
        },
    }
}

/// The solution written out step by step, each step in the state it is
/// played in.
pub fn solution_steps<G: Puzzle>(game: &G, start: &G::State, moves: &[G::Move]) -> Vec<String> {
    let mut state = start.clone();
    moves
        .iter()
        .flat_map(|mv| {
            let steps = game.move_steps(&state, mv);
            state = game.apply(&state, mv);
            steps
        })
        .collect()
}
