//! What a puzzle experiment solves: its training puzzles and the node
//! budget of each search (GP-Rush, seeds/000 section 4).
//!
//! ```text
//! (puzzles "FILE" (every K O) (lengths MIN MAX))  ; FILE relative to the experiment's file
//! (max-nodes 1600000)                              ; per search, IDA* and the ID yardstick alike
//! (stage-depth 3)                                  ; staged deepening's k (FreeCell), program and HSDH alike
//! ```
//! `(every K O)` keeps the puzzles at positions O, O + K, O + 2K, ... of the
//! file (from 0), so the others stay held out; `(lengths MIN MAX)` keeps
//! those whose published optimal length lies in the range.
//!
//! A puzzle whose instances are numbered (FreeCell's Microsoft deals) may
//! name them by number instead of a file (GA-FreeCell, seeds/001 section
//! 3.3: "a random sample of 1000 deals" of Microsoft 32K for training, the
//! rest for testing):
//! ```text
//! (puzzles (numbered 1 32000) (training 1000) (seed 2011))
//! ```
//! The training puzzles are `training` distinct numbers drawn uniformly from
//! FIRST..=LAST by `seed` (its own stream, apart from the run's seed, so
//! every run with the same clause trains on the same puzzles), in
//! increasing order; the others are held out.

use std::hash::Hash;

use super::clauses::Clauses;
use super::{ChampionRule, FitnessPart};
use crate::diagnostic::{Diagnostic, FileId};
use crate::games::Puzzle;
use crate::games::domain::GpDomain;
use crate::games::registry::{Entry, Kind, PuzzleTask};
use crate::lang::syntax_helpers::Cx;
use crate::search::staged::StagedSettings;
use crate::syntax::{Atom, Sexp, SexpKind, Span};

/// The paper's node budget per search.
pub const DEFAULT_MAX_NODES: u64 = 1_600_000;

/// The training puzzles of a puzzle experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleSource {
    /// The file as written, relative to the experiment's file.
    pub path: String,
    pub span: Span,
    /// Keep positions `offset`, `offset + every`, ... of the file.
    pub every: u32,
    pub offset: u32,
    /// Keep puzzles whose published optimal length lies in the range.
    pub lengths: Option<(u32, u32)>,
    /// Nodes each search may expand.
    pub max_nodes: u64,
    /// Staged deepening's k, for puzzles searched by it (FreeCell).
    pub stage_depth: u32,
    /// The file's text once the command has read it (see `load`).
    pub loaded: Option<(FileId, std::sync::Arc<str>)>,
    /// Numbered instances instead of a file (then `path` is empty).
    pub numbered: Option<Numbered>,
}

/// `(numbered FIRST LAST) (training K) (seed S)`: K distinct instance
/// numbers of FIRST..=LAST drawn by S.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Numbered {
    pub first: u32,
    pub last: u32,
    pub training: u32,
    pub seed: u64,
}

impl Numbered {
    /// The training numbers, in increasing order.
    pub fn training_numbers(&self) -> Vec<u32> {
        let n = (self.last - self.first) as usize + 1;
        let mut rng = crate::rng::stream(self.seed, &[NUMBERED]);
        let mut picked: Vec<u32> = rand::seq::index::sample(&mut rng, n, (self.training as usize).min(n))
            .into_iter()
            .map(|i| self.first + i as u32)
            .collect();
        picked.sort_unstable();
        picked
    }
}

/// The stream purpose of the training numbers' draw.
const NUMBERED: u64 = 0x6e75_6d62;

impl PuzzleSource {
    /// Whether the puzzle at `position` of the file, with published optimal
    /// length `length`, is a training puzzle.
    pub fn keeps(&self, position: usize, length: Option<u32>) -> bool {
        let picked = position % self.every as usize == self.offset as usize;
        picked && self.lengths.is_none_or(|(lo, hi)| length.is_some_and(|l| (lo..=hi).contains(&l)))
    }
}

/// Whether programs for `game` guide staged deepening (FreeCell) rather
/// than IDA*.
fn searched_by_stages(game: &Entry) -> bool {
    struct Staged;
    impl PuzzleTask for Staged {
        type Output = bool;
        fn run<
            G: GpDomain + Puzzle<State: Hash + Eq + Send + Sync + 'static, Move: Send + Sync + 'static> + Send + 'static,
        >(
            self,
            game: G,
        ) -> bool {
            game.prefers_staged_deepening()
        }
    }
    game.run_puzzle("staged deepening", Staged).unwrap_or(false)
}

/// `(puzzles ...)` and `(max-nodes N)`: required on a puzzle, refused on
/// any other game, as are the settings of games (`player`, `match-games`
/// and validation games) on a puzzle.
pub(super) fn lower_puzzles(cx: &mut Cx, clauses: &Clauses, game: &Entry, at: Span) -> Option<PuzzleSource> {
    if game.kind != Kind::Puzzle {
        refuse_puzzle_settings(cx, clauses, game);
        return None;
    }
    for key in ["player", "match-games"] {
        if clauses.get(key).is_some() {
            cx.push(
                Diagnostic::error(
                    "stratagem::experiment::puzzle",
                    format!("{} is a puzzle: its programs guide IDA*, they play no games", game.name),
                )
                .at(cx.file, clauses.span(key), "no use on a puzzle")
                .with_help("remove it; `(max-nodes N)` bounds each search"),
            );
        }
    }
    let max_nodes = clauses.int(cx, "max-nodes", DEFAULT_MAX_NODES as i64, 1, 1_000_000_000_000) as u64;
    let default_depth = i64::from(StagedSettings::default().depth);
    let stage_depth = clauses.int(cx, "stage-depth", default_depth, 1, 64) as u32;
    if clauses.get("stage-depth").is_some() && !searched_by_stages(game) {
        cx.push(
            Diagnostic::error(
                "stratagem::experiment::puzzle",
                format!("`(stage-depth ...)` sets staged deepening, but {} is searched by IDA*", game.name),
            )
            .at(cx.file, clauses.span("stage-depth"), "no use here")
            .with_help("remove it; `(max-nodes N)` bounds each search"),
        );
    }
    const USAGE: &str = "(puzzles \"FILE\" (every K O) (lengths MIN MAX))";
    let Some(items) = clauses.get("puzzles") else {
        cx.push(
            Diagnostic::error(
                "stratagem::experiment::puzzle",
                format!("an experiment on the puzzle {} needs its training puzzles", game.name),
            )
            .at(cx.file, at, "needs `(puzzles \"FILE\")`")
            .with_help(format!("usage: {USAGE}; FILE holds one puzzle a line, as `stratagem solve` reads it")),
        );
        return None;
    };
    let Some((file, options)) = items.split_first() else {
        clauses.malformed(cx, "puzzles", USAGE);
        return None;
    };
    if file.head() == Some("numbered") {
        return lower_numbered(cx, file, options, max_nodes).map(|source| PuzzleSource { stage_depth, ..source });
    }
    let SexpKind::Atom(Atom::Str(path)) = &file.kind else {
        cx.error(
            "stratagem::experiment::usage",
            file,
            format!("usage: {USAGE} or {NUMBERED_USAGE}"),
            "expected the file as a string, or (numbered FIRST LAST)",
        );
        return None;
    };
    let mut source = PuzzleSource {
        path: path.clone(),
        span: file.span,
        every: 1,
        offset: 0,
        lengths: None,
        max_nodes,
        stage_depth,
        loaded: None,
        numbered: None,
    };
    let reported = cx.diags.len();
    lower_file_options(cx, &mut source, options);
    (cx.diags.len() == reported).then_some(source)
}

/// Reports the settings of puzzle solving on `game`, which is no puzzle.
fn refuse_puzzle_settings(cx: &mut Cx, clauses: &Clauses, game: &Entry) {
    for key in ["puzzles", "max-nodes", "stage-depth"] {
        if clauses.get(key).is_some() {
            cx.push(
                Diagnostic::error(
                    "stratagem::experiment::puzzle",
                    format!("`({key} ...)` sets up puzzle solving, but {} is {}", game.name, game.kind.describe()),
                )
                .at(cx.file, clauses.span(key), "puzzles only"),
            );
        }
    }
}

/// The options of a file of puzzles, `(every K O)` and `(lengths MIN MAX)`,
/// set in `source`.
fn lower_file_options(cx: &mut Cx, source: &mut PuzzleSource, options: &[Sexp]) {
    const USAGE: &str = "(puzzles \"FILE\" (every K O) (lengths MIN MAX))";
    for option in options {
        let list = option.as_list().unwrap_or_default();
        let int = |cx: &mut Cx, s: &Sexp, what: &str| match cx.expect_int(s, what) {
            Some(n) if (0..=i64::from(u32::MAX)).contains(&n) => Some(n as u32),
            Some(_) => {
                cx.error("stratagem::experiment::range", s, format!("{what} out of range"), "out of range");
                None
            }
            None => None,
        };
        match (option.head(), list.len()) {
            (Some("every"), 2 | 3) => {
                let every = int(cx, &list[1], "a stride");
                let offset = list.get(2).map_or(Some(0), |o| int(cx, o, "an offset"));
                match (every, offset) {
                    (Some(k), Some(o)) if k >= 1 && o < k => (source.every, source.offset) = (k, o),
                    (Some(_), Some(_)) => cx.error(
                        "stratagem::experiment::range",
                        option,
                        "`(every K O)` needs K ≥ 1 and 0 ≤ O < K",
                        "out of range",
                    ),
                    _ => {}
                }
            }
            (Some("lengths"), 3) => match (int(cx, &list[1], "a length"), int(cx, &list[2], "a length")) {
                (Some(lo), Some(hi)) if lo <= hi => source.lengths = Some((lo, hi)),
                (Some(_), Some(_)) => cx.error("stratagem::experiment::range", option, "MIN above MAX", "empty range"),
                _ => {}
            },
            _ => cx.error("stratagem::experiment::usage", option, format!("usage: {USAGE}"), "unknown option"),
        }
    }
}

const NUMBERED_USAGE: &str = "(puzzles (numbered FIRST LAST) (training K) (seed S))";

/// `(puzzles (numbered FIRST LAST) (training K) (seed S))`: `range` is the
/// `(numbered ...)` list, `options` what follows it.
fn lower_numbered(cx: &mut Cx, range: &Sexp, options: &[Sexp], max_nodes: u64) -> Option<PuzzleSource> {
    let reported = cx.diags.len();
    let int = |cx: &mut Cx, s: &Sexp, what: &str, lo: i64, hi: i64| match cx.expect_int(s, what) {
        Some(n) if (lo..=hi).contains(&n) => Some(n),
        Some(n) => {
            cx.error(
                "stratagem::experiment::range",
                s,
                format!("{what} must be in {lo}..={hi}, not {n}"),
                "out of range",
            );
            None
        }
        None => None,
    };
    let bounds = match range.as_list().unwrap_or_default() {
        [_, a, b] => {
            let max = i64::from(u32::MAX);
            match (int(cx, a, "an instance number", 0, max), int(cx, b, "an instance number", 0, max)) {
                (Some(a), Some(b)) if a <= b => Some((a as u32, b as u32)),
                (Some(_), Some(_)) => {
                    cx.error("stratagem::experiment::range", range, "FIRST above LAST", "empty range");
                    None
                }
                _ => None,
            }
        }
        _ => {
            cx.error("stratagem::experiment::usage", range, format!("usage: {NUMBERED_USAGE}"), "malformed");
            None
        }
    };
    let (mut training, mut seed) = (None, 1u64);
    for option in options {
        let list = option.as_list().unwrap_or_default();
        match (option.head(), list) {
            (Some("training"), [_, k]) => training = int(cx, k, "the number of training puzzles", 1, 1_000_000),
            (Some("seed"), [_, v]) => seed = int(cx, v, "a seed", 0, i64::MAX).map_or(seed, |v| v as u64),
            (Some("every" | "lengths"), _) => cx.error(
                "stratagem::experiment::usage",
                option,
                "`(every ...)` and `(lengths ...)` select lines of a puzzles file; numbered puzzles are drawn",
                "not for numbered puzzles",
            ),
            _ => cx.error("stratagem::experiment::usage", option, format!("usage: {NUMBERED_USAGE}"), "unknown option"),
        }
    }
    let (first, last) = bounds?;
    let count = u64::from(last - first) + 1;
    let training = match training {
        Some(k) if k as u64 <= count => k as u32,
        Some(k) => {
            cx.error(
                "stratagem::experiment::range",
                range,
                format!("{k} training puzzles cannot be drawn from the {count} numbers {first}..={last}"),
                "too few numbers",
            );
            return None;
        }
        None if cx.diags.len() > reported => return None,
        None => {
            cx.error(
                "stratagem::experiment::usage",
                range,
                format!("numbered puzzles need `(training K)`: how many to draw; usage: {NUMBERED_USAGE}"),
                "how many?",
            );
            return None;
        }
    };
    (cx.diags.len() == reported).then_some(PuzzleSource {
        path: String::new(),
        span: range.span,
        every: 1,
        offset: 0,
        lengths: None,
        max_nodes,
        stage_depth: StagedSettings::default().depth,
        loaded: None,
        numbered: Some(Numbered { first, last, training, seed }),
    })
}

/// On a puzzle: the fitness is `(solve N)` or `(hillis ...)`, alone, and
/// the champion the fittest of the last generation.
pub(super) fn check_puzzle_run(
    cx: &mut Cx,
    clauses: &Clauses,
    game: &Entry,
    fitness: &[FitnessPart],
    champion: ChampionRule,
) {
    if game.kind != Kind::Puzzle {
        return;
    }
    // No source at all: each was refused as it was lowered.
    let sources_fit = fitness.is_empty() || matches!(fitness, [FitnessPart::Solve(_) | FitnessPart::Hillis(_)]);
    if !sources_fit {
        let games = fitness.iter().any(|p| !matches!(p, FitnessPart::Solve(_) | FitnessPart::Hillis(_)));
        cx.push(
            Diagnostic::error(
                "stratagem::experiment::puzzle",
                format!(
                    "{} is a puzzle: its fitness is `(solve N)`, the node savings on N puzzles, or `(hillis ...)`, \
                     the node savings on coevolving puzzles, one of them",
                    game.name
                ),
            )
            .at(cx.file, clauses.span("fitness"), if games { "games need two players" } else { "one source" })
            .with_help("write (fitness (solve 10)) or (fitness (hillis (problems 20) (sample 5)))"),
        );
    }
    if champion != ChampionRule::Last {
        cx.push(
            Diagnostic::error(
                "stratagem::experiment::puzzle",
                format!("{} is a puzzle: its champion is the fittest of the last generation", game.name),
            )
            .at(cx.file, clauses.span("champion"), "validation games need two players")
            .with_help("write (champion last), or leave it out; judge the champion with `stratagem solve`"),
        );
    }
}
