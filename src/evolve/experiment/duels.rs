//! The island model, which any experiment may use, and the settings of
//! evolution by duels (games of named players: Ant Wars, seeds/003).
//!
//! ```text
//! (islands N (every M) (migrants K))  ; N islands; every M generations K migrants to the next
//! (monitor "PLAYER" D)                ; duels: each generation's best against PLAYER, D double-games
//! (champion (round-robin D))          ; duels: a round robin of the final population
//! (fitness (versus "PLAYER" D) ...)   ; duels: fitness by games against fixed players instead
//! ```

use super::clauses::Clauses;
use super::{ChampionRule, Monitor};
use crate::diagnostic::Diagnostic;
use crate::evolve::engine::{Islands, Selection};
use crate::games::registry::Entry;
use crate::lang::syntax_helpers::Cx;
use crate::syntax::{Atom, Sexp, SexpKind, Span};

const ISLANDS_USAGE: &str = "(islands N (every M) (migrants K))";

/// Migration when `(islands N)` says nothing of it: every 10 generations, 5 migrants.
const EVERY: u64 = 10;
const MIGRANTS: usize = 5;

/// `(islands N (every M) (migrants K))`: at least 2 members an island, and
/// migrants fewer than an island's members.
pub(super) fn lower_islands(cx: &mut Cx, clauses: &Clauses, population: usize) -> Islands {
    let Some(items) = clauses.get("islands") else { return Islands::default() };
    let Some((count, options)) = items.split_first() else {
        clauses.malformed(cx, "islands", ISLANDS_USAGE);
        return Islands::default();
    };
    let most = (population / 2).max(1);
    let count = match cx.expect_int(count, "a number of islands") {
        Some(n) if n >= 1 && n as usize <= most => n as usize,
        Some(n) => {
            cx.error(
                "stratagem::experiment::range",
                count,
                format!("{n} islands: a population of {population} makes 1 to {most} islands of 2 or more"),
                "out of range",
            );
            return Islands::default();
        }
        None => return Islands::default(),
    };
    let smallest = population / count;
    let mut islands = Islands { count, every: EVERY, migrants: MIGRANTS.min(smallest - 1) };
    for option in options {
        let list = option.as_list().unwrap_or_default();
        let value = |cx: &mut Cx, what: &str, min: i64, max: i64| {
            let s = list.get(1)?;
            match cx.expect_int(s, what) {
                Some(n) if (min..=max).contains(&n) => Some(n),
                Some(n) => {
                    cx.error(
                        "stratagem::experiment::range",
                        s,
                        format!("{n} is not between {min} and {max}"),
                        "out of range",
                    );
                    None
                }
                None => None,
            }
        };
        match (option.head(), list.len()) {
            (Some("every"), 2) => {
                if let Some(m) = value(cx, "generations between migrations", 1, 1_000_000) {
                    islands.every = m as u64;
                }
            }
            (Some("migrants"), 2) => {
                if let Some(k) = value(cx, "a number of migrants", 0, smallest as i64 - 1) {
                    islands.migrants = k as usize;
                }
            }
            _ => clauses.malformed(cx, "islands", ISLANDS_USAGE),
        }
    }
    islands
}

/// Checks what evolution by duels needs, on a game of named players, and
/// refuses its settings elsewhere; the monitor, if any. `selection` comes
/// with whether `(fitness (versus ...))` scores the members; `at` is where
/// to point for settings that are missing.
pub(super) fn check_duel_run(
    cx: &mut Cx,
    clauses: &Clauses,
    game: &Entry,
    selection: (Selection, bool),
    match_games: u32,
    champion: ChampionRule,
    at: Span,
) -> Option<Monitor> {
    let duels = game.plays_duels();
    if !duels {
        if clauses.get("monitor").is_some() {
            refuse(cx, clauses.span("monitor"), "(monitor ...)", game);
        }
        if let ChampionRule::RoundRobin { .. } = champion {
            refuse(cx, clauses.span("champion"), "(champion (round-robin D))", game);
        }
        return None;
    }
    // Selection by matches, or by fitness when games against fixed players score.
    let (selection, versus) = selection;
    let span = if clauses.get("selection").is_some() { clauses.span("selection") } else { at };
    match (versus, selection) {
        (false, Selection::Fitnessless(_)) | (true, Selection::Tournament(_) | Selection::Proportionate) => {}
        (false, _) => cx.push(
            Diagnostic::error(
                "stratagem::experiment::duels",
                format!("evolution on {} is by duels, which select by matches alone", game.name),
            )
            .at(cx.file, span, "needs (selection (fitnessless K))")
            .with_help(
                "write (selection (fitnessless 5)): a single-elimination tournament of 5 (seeds/003); \
                 or judge members by games against fixed players with (fitness (versus \"PLAYER\" D))",
            ),
        ),
        (true, _) => cx.push(
            Diagnostic::error(
                "stratagem::experiment::duels",
                "(fitness (versus ...)) scores every member, so fitnessless selection has nothing to do",
            )
            .at(cx.file, span, "needs a selection by fitness")
            .with_help("write (selection (tournament 7)), or drop (fitness ...) to select by matches"),
        ),
    }
    for key in ["player", "introns"] {
        if clauses.get(key).is_some() {
            cx.push(
                Diagnostic::error(
                    "stratagem::experiment::duels",
                    format!("`({key} ...)` has no use in evolution by duels on {}", game.name),
                )
                .at(cx.file, clauses.span(key), "not used")
                .with_help("members are judged by matches, or by games against fixed players; remove it"),
            );
        }
    }
    if !match_games.is_multiple_of(2) {
        cx.push(
            Diagnostic::error(
                "stratagem::experiment::duels",
                format!("a match of {match_games} games: a match on {} is of double-games", game.name),
            )
            .at(cx.file, clauses.span("match-games"), "odd")
            .with_help(
                "a match is 2k games on k boards, each played twice with the roles swapped: give an even number",
            ),
        );
    }
    if let ChampionRule::Validate { .. } = champion {
        cx.push(
            Diagnostic::error(
                "stratagem::experiment::duels",
                format!("validation games are for two-player games of perfect information, not {}", game.name),
            )
            .at(cx.file, clauses.span("champion"), "not for duels")
            .with_help("use (champion last) or (champion (round-robin D))"),
        );
    }
    let items = clauses.get("monitor")?;
    let usage = "(monitor \"PLAYER\" D): D double-games a generation against PLAYER, as tournament names it";
    let [player, games] = items else {
        clauses.malformed(cx, "monitor", usage);
        return None;
    };
    fixed_player(cx, player, games, usage)
}

/// `(fitness (versus "PLAYER" D) ...)` of a run by duels: each member's
/// fitness is the share of games it wins in D double-games against each
/// PLAYER (the same boards for every member of a generation).
pub(super) fn lower_versus(cx: &mut Cx, parts: &[Sexp]) -> Vec<Monitor> {
    let usage = "(fitness (versus \"PLAYER\" D) ...): D double-games a generation against each PLAYER";
    let mut opponents = Vec::new();
    for part in parts {
        match part.as_list().unwrap_or_default() {
            [head, player, games] if head.as_symbol() == Some("versus") => {
                opponents.extend(fixed_player(cx, player, games, usage));
            }
            _ => cx.error(
                "stratagem::experiment::fitness",
                part,
                "evolution by duels is judged by matches, or by games against fixed players",
                format!("expected {usage}"),
            ),
        }
    }
    opponents
}

/// A player named as `tournament --players` names it, and D double-games.
fn fixed_player(cx: &mut Cx, player: &Sexp, games: &Sexp, usage: &str) -> Option<Monitor> {
    let opponent = match &player.kind {
        SexpKind::Atom(Atom::Str(s) | Atom::Symbol(s)) => s.clone(),
        _ => {
            cx.error("stratagem::experiment::usage", player, format!("usage: {usage}"), "expected a player's name");
            return None;
        }
    };
    match cx.expect_int(games, "double-games") {
        Some(d) if (1..=1_000_000).contains(&d) => {
            Some(Monitor { spec: opponent.clone(), opponent, double_games: d as u32 })
        }
        Some(d) => {
            cx.error(
                "stratagem::experiment::range",
                games,
                format!("{d} double-games is not between 1 and 1000000"),
                "out of range",
            );
            None
        }
        None => None,
    }
}

fn refuse(cx: &mut Cx, span: Span, what: &str, game: &Entry) {
    cx.push(
        Diagnostic::error(
            "stratagem::experiment::duels",
            format!("{what} is for evolution by duels (games of named players), not {}", game.name),
        )
        .at(cx.file, span, "not for this game"),
    );
}
