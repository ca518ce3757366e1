//! Fitness sources beyond games from the initial position: Hillis
//! two-population coevolution of problems (start positions of a two-player
//! game, or a puzzle's instances) and, for puzzles, solving instances.
//!
//! ```text
//! (fitness (hillis (problems 20) (sample 5) (opening 2 16) (opponent random)
//!                  (goal win) (mutation 0.5) (tournament 2)))
//! (fitness (hillis (problems 20) (sample 5) (min-length 30) (start puzzles)
//!                  (mutation 0.5) (tournament 2)))         ; on a puzzle
//! (fitness (hillis (problems 40) (deals 6) (meet 2) (every 5) (mutation 0.1)))
//!                            ; numbered puzzles: sets of training deals (GA-FreeCell)
//! (fitness (solve N))        ; puzzles only: refused on two-player games
//! ```

use super::Opponent;
use super::players::lower_opponent;
use crate::diagnostic::Diagnostic;
use crate::games::registry::{self, Entry, Kind};
use crate::lang::syntax_helpers::Cx;
use crate::syntax::Sexp;

/// When a solver solves a problem (a start position).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Goal {
    /// It wins the game from there.
    Win,
    /// It wins or draws.
    NotLose,
}

/// Where a puzzle's first problems come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemStart {
    /// The experiment's training puzzles (`(puzzles ...)`).
    Puzzles,
    /// Puzzles generated afresh (Rush Hour: `rush-hour generate`'s climb).
    Generated,
}

/// Hillis two-population coevolution: a population of problems evolves
/// against the solvers. On a two-player game a problem is an opening that
/// leads to a start position; a solver plays the side to move there
/// against `opponent`; each solver meets `sample` problems per generation
/// and scores a point for each it solves (added to its other points), and
/// each problem meets `sample` solvers and scores a point for each that
/// fails it. On a puzzle a problem is an instance (a Rush Hour board) of at
/// least `min_length` moves; a meeting is graded by the nodes the solver
/// saves (src/evolve/hard_puzzles.rs). Problems breed by tournament
/// selection on their points and mutation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HillisSpec {
    pub problems: usize,
    pub sample: u32,
    /// Random-looking plies an opening plays, at least and at most.
    pub opening: (u32, u32),
    pub opponent: Opponent,
    pub goal: Goal,
    /// Probability that a problem bred is mutated rather than copied.
    pub mutation: f64,
    pub tournament: usize,
    /// Puzzles: the least optimal length of a problem (default: the
    /// shortest starting puzzle's).
    pub min_length: Option<u32>,
    /// Puzzles: where the first problems come from.
    pub start: ProblemStart,
    /// Puzzles with numbered training instances: problems are sets of
    /// training deals (GA-FreeCell, src/evolve/deal_sets.rs).
    pub deal_sets: Option<DealSetSpec>,
}

/// `(deals K) (meet M) (every E)`: problems are sets of K training deals;
/// each solver meets M sets a generation; the sets breed every E solver
/// generations (GA-FreeCell: 6, 2, 5, the defaults of the others when one
/// is given).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DealSetSpec {
    pub deals: usize,
    pub meet: usize,
    pub every: u32,
}

impl Default for DealSetSpec {
    fn default() -> DealSetSpec {
        DealSetSpec { deals: 6, meet: 2, every: 5 }
    }
}

impl Default for HillisSpec {
    fn default() -> HillisSpec {
        HillisSpec {
            problems: 20,
            sample: 5,
            opening: (2, 16),
            opponent: Opponent::Random,
            goal: Goal::Win,
            mutation: 0.5,
            tournament: 2,
            min_length: None,
            start: ProblemStart::Puzzles,
            deal_sets: None,
        }
    }
}

const OPTIONS: [&str; 12] = [
    "problems",
    "sample",
    "opening",
    "opponent",
    "goal",
    "mutation",
    "tournament",
    "min-length",
    "start",
    "deals",
    "meet",
    "every",
];

/// The options of problems that are openings (two-player games only).
const OPENING_OPTIONS: [&str; 3] = ["opening", "opponent", "goal"];

/// The options of problems that are puzzles (puzzles only).
const PUZZLE_OPTIONS: [&str; 5] = ["min-length", "start", "deals", "meet", "every"];

const USAGE: &str = "(hillis (problems N) (sample K) (mutation P) (tournament K) OPTIONS...), OPTIONS on a \
                     two-player game: (opening MIN MAX) (opponent OPPONENT) (goal win|not-lose); on a puzzle: \
                     (min-length L) (start puzzles|generated), or with numbered puzzles (deals K) (meet M) (every E)";

/// The longest opening, in plies.
const MAX_OPENING: i64 = 1000;

/// The longest puzzle asked for, in moves.
const MAX_LENGTH: i64 = 10_000;

/// `(hillis (OPTION VALUE...)...)`, every option optional.
pub(super) fn lower_hillis(cx: &mut Cx, p: &Sexp) -> Option<HillisSpec> {
    let items = p.as_list().unwrap_or_default();
    let reported = cx.diags.len();
    let mut spec = HillisSpec::default();
    let mut seen: Vec<&str> = Vec::new();
    for opt in items.iter().skip(1) {
        let Some(key) = cx.option_key(opt, "hillis", "stratagem::experiment::hillis", &OPTIONS, USAGE, &mut seen)
        else {
            continue;
        };
        let args = &opt.as_list().unwrap_or_default()[1..];
        let count = |cx: &mut Cx, v: &Sexp, lo: i64, hi: i64| match cx.expect_int(v, "a whole number") {
            Some(n) if (lo..=hi).contains(&n) => Some(n),
            Some(n) => {
                let message = format!("`{key}` must be between {lo} and {hi}, not {n}");
                cx.error("stratagem::experiment::range", v, message, "out of range");
                None
            }
            None => None,
        };
        match (key, args) {
            ("problems", [v]) => spec.problems = count(cx, v, 2, 100_000).map_or(spec.problems, |n| n as usize),
            ("sample", [v]) => spec.sample = count(cx, v, 1, 10_000).map_or(spec.sample, |n| n as u32),
            ("tournament", [v]) => spec.tournament = count(cx, v, 1, 100_000).map_or(spec.tournament, |n| n as usize),
            ("opening", [a, b]) => {
                if let (Some(lo), Some(hi)) = (count(cx, a, 0, MAX_OPENING), count(cx, b, 0, MAX_OPENING)) {
                    if lo <= hi {
                        spec.opening = (lo as u32, hi as u32);
                    } else {
                        cx.error("stratagem::experiment::range", opt, "an opening needs MIN <= MAX", "bad lengths");
                    }
                }
            }
            ("opponent", [o]) => spec.opponent = lower_opponent(cx, o).unwrap_or(spec.opponent),
            ("goal", [g]) => match g.as_symbol() {
                Some("win") => spec.goal = Goal::Win,
                Some("not-lose") => spec.goal = Goal::NotLose,
                _ => cx.error("stratagem::experiment::hillis", g, "a goal is `win` or `not-lose`", "unknown goal"),
            },
            ("mutation", [v]) => spec.mutation = super::clauses::probability(cx, v, "mutation"),
            ("deals", [v]) => {
                let sets = spec.deal_sets.get_or_insert_with(DealSetSpec::default);
                sets.deals = count(cx, v, 1, 1000).map_or(sets.deals, |n| n as usize);
            }
            ("meet", [v]) => {
                let sets = spec.deal_sets.get_or_insert_with(DealSetSpec::default);
                sets.meet = count(cx, v, 1, 1000).map_or(sets.meet, |n| n as usize);
            }
            ("every", [v]) => {
                let sets = spec.deal_sets.get_or_insert_with(DealSetSpec::default);
                sets.every = count(cx, v, 1, 1_000_000).map_or(sets.every, |n| n as u32);
            }
            ("min-length", [v]) => spec.min_length = count(cx, v, 1, MAX_LENGTH).map(|n| n as u32),
            ("start", [v]) => match v.as_symbol() {
                Some("puzzles") => spec.start = ProblemStart::Puzzles,
                Some("generated") => spec.start = ProblemStart::Generated,
                _ => cx.error(
                    "stratagem::experiment::hillis",
                    v,
                    "problems start from `puzzles` (the training puzzles) or `generated` ones",
                    "unknown start",
                ),
            },
            _ => cx.error("stratagem::experiment::usage", opt, format!("usage: {USAGE}"), "malformed"),
        }
    }
    if spec.tournament > spec.problems && cx.diags.len() == reported {
        cx.error(
            "stratagem::experiment::range",
            p,
            format!("a tournament of {} among {} problems", spec.tournament, spec.problems),
            "tournament larger than the problem population",
        );
    }
    (cx.diags.len() == reported).then_some(spec)
}

/// Reports fitness sources that do not fit `game`: `(solve N)` on a game
/// that is not a puzzle, options of `(hillis ...)` for the other kind of
/// problem (openings on a puzzle, a puzzle's length on a two-player game),
/// and more than one `(hillis ...)`.
///
/// Puzzles are the registry's [`Kind::Puzzle`] games (Rush Hour), where
/// `(solve N)` scores a program on N training puzzles a generation.
pub(super) fn check_sources_fit(cx: &mut Cx, game: &Entry, sources: &[Sexp]) {
    let puzzle = game.kind == Kind::Puzzle;
    let (foreign, problems, help): (&[&str], _, _) = if puzzle {
        (
            &OPENING_OPTIONS,
            "its problems are puzzles, not openings",
            "on a puzzle: (min-length L) (start puzzles|generated)",
        )
    } else {
        (
            &PUZZLE_OPTIONS,
            "its problems are openings, not puzzles",
            "on a two-player game: (opening MIN MAX) (opponent OPPONENT) (goal win|not-lose)",
        )
    };
    for s in sources.iter().filter(|s| s.head() == Some("hillis")) {
        for opt in s.as_list().unwrap_or_default().iter().skip(1) {
            if let Some(key) = opt.head().filter(|k| foreign.contains(k)) {
                cx.push(
                    Diagnostic::error(
                        "stratagem::experiment::hillis",
                        format!("`({key} ...)` means nothing on {}: {problems}", game.name),
                    )
                    .at(cx.file, opt.span, format!("no use on {}", game.kind.describe()))
                    .with_help(format!("remove it; the options of problems {help}")),
                );
            }
        }
    }
    for s in sources {
        if s.head() == Some("solve") && game.kind != Kind::Puzzle {
            let puzzles = registry::names_of(Kind::Puzzle);
            let puzzles = if puzzles.is_empty() {
                "no puzzle game exists yet".to_owned()
            } else {
                format!("puzzles: {}", puzzles.join(", "))
            };
            cx.push(
                Diagnostic::error(
                    "stratagem::experiment::puzzle",
                    format!("`(solve ...)` scores a puzzle solver, but {} is {}", game.name, game.kind.describe()),
                )
                .at(cx.file, s.span, "needs a puzzle")
                .with_help(format!(
                    "{puzzles}; for a two-player game, coevolve start positions with (hillis ...) or play \
                     games: (cohort N), (random N), (material D N)"
                )),
            );
        }
    }
    let hillis: Vec<&Sexp> = sources.iter().filter(|s| s.head() == Some("hillis")).collect();
    if let [_, second, ..] = hillis.as_slice() {
        cx.error("stratagem::experiment::hillis", second, "`(hillis ...)` is given twice", "one problem population");
    }
}
