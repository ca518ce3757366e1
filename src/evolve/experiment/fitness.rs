//! `(fitness ...)`: the sources of fitness points an experiment names, each
//! lowered to a [`FitnessPart`] (Hillis coevolution in `coevolution.rs`,
//! covering coevolution in `cca.rs`).

use super::FitnessPart;
use super::players::check_search_depth;
use crate::lang::syntax_helpers::Cx;
use crate::syntax::Sexp;

/// One source of `(fitness ...)`; `None` after reporting it.
pub(super) fn lower_fitness(cx: &mut Cx, p: &Sexp) -> Option<FitnessPart> {
    let items = p.as_list().unwrap_or_default();
    let num = |cx: &mut Cx, i: usize, what: &str| -> Option<u32> {
        match items.get(i).and_then(|v| cx.expect_int(v, what)) {
            Some(n) if (1..=1_000_000).contains(&n) => Some(n as u32),
            Some(_) => {
                cx.error("stratagem::experiment::range", &items[i], format!("{what} must be positive"), "out of range");
                None
            }
            None => None,
        }
    };
    let depth = |cx: &mut Cx| -> Option<u32> {
        let d = num(cx, 1, "a depth")?;
        check_search_depth(cx, &items[1], i64::from(d));
        Some(d)
    };
    let part = match (p.head(), items.len()) {
        (Some("cohort"), 2) => FitnessPart::Cohort(num(cx, 1, "a number of games")?),
        (Some("pairings"), 2) => FitnessPart::Pairings(num(cx, 1, "a number of rounds")?),
        (Some("round-robin"), 1) => FitnessPart::RoundRobin,
        (Some("random"), 2) => FitnessPart::Random(num(cx, 1, "a number of games")?),
        (Some("guide"), 3) => FitnessPart::Guide { depth: depth(cx)?, games: num(cx, 2, "a number of games")? },
        (Some("material"), 3) => FitnessPart::Material { depth: depth(cx)?, games: num(cx, 2, "a number of games")? },
        (Some("hillis"), _) => FitnessPart::Hillis(super::coevolution::lower_hillis(cx, p)?),
        (Some("solve"), 2) => FitnessPart::Solve(num(cx, 1, "a number of puzzles")?),
        (Some("cca"), _) => FitnessPart::Cca(super::cca::lower_cca(cx, p)?),
        _ => {
            cx.error(
                "stratagem::experiment::fitness",
                p,
                "unknown fitness source",
                "expected (cohort N), (pairings N), (round-robin), (random N), (guide DEPTH N), (material DEPTH N), \
                 (hillis ...), (solve N) or (cca ...)",
            );
            return None;
        }
    };
    Some(part)
}
