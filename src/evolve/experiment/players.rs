//! Who plays whom in an experiment: the evolved player's search and the
//! opponent and rule that choose the champion.

use super::{ChampionRule, Opponent};
use crate::diagnostic::Diagnostic;
use crate::lang::syntax_helpers::Cx;
use crate::limits::Limit;
use crate::search::alphabeta::{Perspective, SearchParams, Ties};
use crate::syntax::{Sexp, Span};

/// `(champion (validate OPPONENT GAMES) (top K) (final M N))`, `(top K)`
/// optional (1), `(final M N)` optional (one finalist, no final round).
pub(super) fn lower_champion(cx: &mut Cx, items: &[Sexp], span: Span, population: usize) -> ChampionRule {
    const USAGE: &str = "usage: (champion last), (champion (validate OPPONENT GAMES) (top K) (final M N)) or (champion (round-robin D))";
    let usage = |cx: &mut Cx| {
        cx.push(
            Diagnostic::error("stratagem::experiment::usage", USAGE)
                .at(cx.file, span, "malformed")
                .with_help("OPPONENT: random, (material DEPTH) or (guide DEPTH), optionally with (ties first)"),
        )
    };
    let (mut validate, mut top, mut finalists, mut final_games) = (None, 1, 1, 0);
    let reported = cx.diags.len();
    for item in items {
        let list = item.as_list().unwrap_or_default();
        match (item.head(), list.len()) {
            (Some("round-robin"), 2) if items.len() == 1 => {
                return match cx.expect_int(&list[1], "double-games per match") {
                    Some(d) if (1..=1000).contains(&d) => ChampionRule::RoundRobin { double_games: d as u32 },
                    Some(d) => {
                        cx.error(
                            "stratagem::experiment::range",
                            &list[1],
                            format!("{d} double-games per match is not between 1 and 1000"),
                            "out of range",
                        );
                        ChampionRule::Last
                    }
                    None => ChampionRule::Last,
                };
            }
            (Some("validate"), 3) => {
                let opponent = lower_opponent(cx, &list[1]);
                let games = match cx.expect_int(&list[2], "a number of games") {
                    Some(n) if (1..=1_000_000).contains(&n) => Some(n as u32),
                    Some(_) => {
                        cx.error("stratagem::experiment::range", &list[2], "validation needs games", "not positive");
                        None
                    }
                    None => None,
                };
                validate = opponent.zip(games);
            }
            (Some("top"), 2) => match cx.expect_int(&list[1], "a number of individuals") {
                Some(k) if k >= 1 && (k as usize) <= population => top = k as usize,
                Some(k) => cx.error(
                    "stratagem::experiment::range",
                    &list[1],
                    format!("top {k} is not between 1 and the population ({population})"),
                    "out of range",
                ),
                None => {}
            },
            (Some("final"), 3) => {
                let count = |cx: &mut Cx, s: &Sexp, what: &str, max: i64| match cx.expect_int(s, what) {
                    Some(n) if (1..=max).contains(&n) => Some(n),
                    Some(n) => {
                        cx.error(
                            "stratagem::experiment::range",
                            s,
                            format!("{n} is not between 1 and {max}"),
                            "out of range",
                        );
                        None
                    }
                    None => None,
                };
                finalists = count(cx, &list[1], "a number of finalists", 10_000).map_or(1, |n| n as usize);
                final_games = count(cx, &list[2], "a number of games", 1_000_000).map_or(0, |n| n as u32);
            }
            _ => {
                usage(cx);
                return ChampionRule::Last;
            }
        }
    }
    match validate {
        Some((opponent, games)) => ChampionRule::Validate { opponent, games, top, finalists, final_games },
        None => {
            if cx.diags.len() == reported {
                usage(cx);
            }
            ChampionRule::Last
        }
    }
}

/// `random`, `(material DEPTH [(ties first)])` or `(guide DEPTH [(ties first)])`.
pub(super) fn lower_opponent(cx: &mut Cx, s: &Sexp) -> Option<Opponent> {
    if s.as_symbol() == Some("random") {
        return Some(Opponent::Random);
    }
    let with_depth = s.as_list().is_some_and(|items| items.len() >= 2);
    match s.head() {
        Some("material") if with_depth => lower_search(cx, s, &["ties"]).map(Opponent::Material),
        Some("guide") if with_depth => lower_search(cx, s, &["ties"]).map(Opponent::Guide),
        _ => {
            cx.error(
                "stratagem::experiment::champion",
                s,
                "unknown opponent",
                "expected random, (material DEPTH) or (guide DEPTH)",
            );
            None
        }
    }
}

pub(super) fn lower_player(cx: &mut Cx, p: &Sexp) -> SearchParams {
    let with_depth = p.as_list().is_some_and(|items| items.len() >= 2);
    let params = match p.head() {
        Some("alphabeta") if with_depth => lower_search(cx, p, &["perspective", "samples"]),
        Some("select") if with_depth => lower_search(cx, p, &["ratio", "maxbranch", "full", "perspective"]),
        _ => {
            cx.error(
                "stratagem::experiment::player",
                p,
                "unknown player",
                "expected (alphabeta D [(samples K)]) or (select D (ratio R) (maxbranch M) (full F))",
            );
            None
        }
    };
    params.unwrap_or(SearchParams::full(1))
}

/// The options of a search, `(NAME VALUE)`, with their usage.
const SEARCH_OPTIONS: [(&str, &str); 6] = [
    ("ratio", "(ratio R)"),
    ("maxbranch", "(maxbranch M)"),
    ("full", "(full F)"),
    ("perspective", "(perspective root|mover)"),
    ("ties", "(ties first|random)"),
    ("samples", "(samples K)"),
];

/// `(HEAD DEPTH (NAME VALUE)...)`: an α-β search of DEPTH plies with the
/// options named in `allowed` (of [`SEARCH_OPTIONS`]); `None` after reporting
/// a bad depth or option.
fn lower_search(cx: &mut Cx, s: &Sexp, allowed: &[&str]) -> Option<SearchParams> {
    let items = s.as_list().unwrap_or_default();
    let reported = cx.diags.len();
    let mut params = match items.get(1).map(|d| (d, cx.expect_int(d, "a search depth"))) {
        Some((d, Some(depth))) if depth >= 1 => {
            check_search_depth(cx, d, depth);
            SearchParams::full(u32::try_from(depth).unwrap_or(u32::MAX))
        }
        _ => {
            let message = format!("a search depth is between 1 and {}", Limit::SearchDepth.get());
            cx.error("stratagem::experiment::range", s, message, "bad depth");
            SearchParams::full(1)
        }
    };
    for opt in items.iter().skip(2) {
        let name = opt.head().filter(|h| allowed.contains(h));
        match (name, opt.as_list().filter(|l| l.len() == 2)) {
            (Some(name), Some(pair)) => lower_search_option(cx, name, &pair[1], &mut params),
            _ => {
                let usage: Vec<&str> =
                    SEARCH_OPTIONS.iter().filter(|(n, _)| allowed.contains(n)).map(|&(_, u)| u).collect();
                cx.error(
                    "stratagem::experiment::player",
                    opt,
                    format!("unknown or malformed option of `{}`", s.head().unwrap_or("search")),
                    format!("expected {}", usage.join(", ")),
                );
            }
        }
    }
    (cx.diags.len() == reported).then_some(params)
}

/// Reports a search depth past the `search-depth` limit.
pub(super) fn check_search_depth(cx: &mut Cx, at: &Sexp, depth: i64) {
    if let Err(message) = Limit::SearchDepth.check(depth.unsigned_abs(), &format!("search depth {depth}")) {
        cx.error("stratagem::experiment::limit", at, message, "too deep");
    }
}

/// Sets search option `name` (one of [`SEARCH_OPTIONS`]) to `v`.
fn lower_search_option(cx: &mut Cx, name: &str, v: &Sexp, params: &mut SearchParams) {
    let range = |cx: &mut Cx, message: &str, label: &str| cx.error("stratagem::experiment::range", v, message, label);
    match name {
        "ratio" => match cx.expect_number(v, "a ratio") {
            Some(r) if r > 0.0 && r <= 1.0 => params.selective_ratio = Some(r),
            _ => range(cx, "SelectiveSearchRatio is in (0, 1]", "bad ratio"),
        },
        "maxbranch" => match cx.expect_int(v, "a branching factor") {
            Some(m) if m >= 1 => params.max_branching = Some(m as usize),
            _ => range(cx, "MaxBranchingFactor is a positive integer", "bad factor"),
        },
        "full" => match cx.expect_int(v, "a depth") {
            Some(f) if f >= 0 => params.full_search_depth = f as u32,
            _ => range(cx, "FullSearchDepth is a non-negative integer", "bad depth"),
        },
        "perspective" => match v.as_symbol() {
            Some("mover") => params.perspective = Perspective::Mover,
            Some("root") => params.perspective = Perspective::Root,
            _ => range(cx, "a perspective is `root` or `mover`", "expected root or mover"),
        },
        "ties" => match v.as_symbol() {
            Some("first") => params.ties = Ties::First,
            Some("random") => params.ties = Ties::Random,
            _ => range(cx, "ties are broken `first` or `random`", "expected first or random"),
        },
        "samples" => match cx.expect_int(v, "a number of joint moves") {
            Some(k) if (1..=10_000).contains(&k) => params.samples = k as u32,
            _ => range(cx, "the sampled joint moves are between 1 and 10000", "bad sample size"),
        },
        _ => {} // callers pass names of SEARCH_OPTIONS only
    }
}
