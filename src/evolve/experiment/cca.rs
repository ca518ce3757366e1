//! `(fitness (cca (bouts N) (alpha A) (versus-random G)))`: Rosin's covering competitive
//! algorithm over the roles of a game (seeds/004), one population per role
//! (src/evolve/cca.rs, src/evolve/cca_run.rs; GDL games of simultaneous
//! moves or more than two roles in src/evolve/cca_sampled.rs).

use super::clauses::Clauses;
use super::{ChampionRule, FitnessPart};
use crate::diagnostic::Diagnostic;
use crate::evolve::engine::{Islands, Selection};
use crate::games::registry::{Entry, Kind};
use crate::lang::syntax_helpers::Cx;
use crate::syntax::{Sexp, Span};

/// The settings of covering competitive coevolution: a member's fitness is
/// `alpha` times the number of opposing teachers it beat in rank order
/// plus `1 - alpha` times its points from `bouts` games against members of
/// the opposing population drawn at random.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CcaSpec {
    pub bouts: u32,
    pub alpha: f64,
    /// Games each teacher plays, at the end of the run, against the
    /// random-evaluation search of the same depth in its own role (the
    /// paper's figures 4 and 5); 0: none.
    pub versus_random: u32,
}

impl Default for CcaSpec {
    /// The paper's: α = 10/11, N = 50.
    fn default() -> CcaSpec {
        CcaSpec { bouts: 50, alpha: 10.0 / 11.0, versus_random: 0 }
    }
}

const OPTIONS: [&str; 3] = ["bouts", "alpha", "versus-random"];
const USAGE: &str = "(cca (bouts N) (alpha A) (versus-random G)), each optional (defaults 50, 10/11, 0)";

/// `(cca (bouts N) (alpha A) (versus-random G))`, every option optional.
pub(super) fn lower_cca(cx: &mut Cx, p: &Sexp) -> Option<CcaSpec> {
    let items = p.as_list().unwrap_or_default();
    let reported = cx.diags.len();
    let mut spec = CcaSpec::default();
    let mut seen: Vec<&str> = Vec::new();
    for opt in items.iter().skip(1) {
        let Some(key) = cx.option_key(opt, "cca", "stratagem::experiment::cca", &OPTIONS, USAGE, &mut seen) else {
            continue;
        };
        match (key, &opt.as_list().unwrap_or_default()[1..]) {
            (name @ ("bouts" | "versus-random"), [v]) => match cx.expect_int(v, "a number of games") {
                Some(n) if (0..=100_000).contains(&n) => {
                    if name == "bouts" {
                        spec.bouts = n as u32;
                    } else {
                        spec.versus_random = n as u32;
                    }
                }
                Some(n) => cx.error(
                    "stratagem::experiment::range",
                    v,
                    format!("`{name}` must be between 0 and 100000, not {n}"),
                    "out of range",
                ),
                None => {}
            },
            ("alpha", [v]) => spec.alpha = super::clauses::probability(cx, v, "alpha"),
            _ => cx.error("stratagem::experiment::usage", opt, format!("usage: {USAGE}"), "malformed"),
        }
    }
    (cx.diags.len() == reported).then_some(spec)
}

/// What covering coevolution runs alone: one source of fitness, one
/// population per role of a game of two or more roles, breeding by fitness
/// (no fitnessless selection, no islands) and the top teacher of each role
/// as its champion.
pub(super) struct CcaRun<'a> {
    pub(super) fitness: &'a [FitnessPart],
    pub(super) selection: Selection,
    pub(super) islands: Islands,
    pub(super) champion: ChampionRule,
}

pub(super) fn check_cca_run(cx: &mut Cx, clauses: &Clauses, game: &Entry, run: &CcaRun, at: Span) {
    if !run.fitness.iter().any(|p| matches!(p, FitnessPart::Cca(_))) {
        return;
    }
    let mut refuse = |key: &str, message: String, label: &str, help: &str| {
        let span = if clauses.get(key).is_some() { clauses.span(key) } else { at };
        cx.push(
            Diagnostic::error("stratagem::experiment::cca", message)
                .at(cx.file, span, label)
                .with_help(help.to_owned()),
        );
    };
    if run.fitness.len() > 1 {
        refuse(
            "fitness",
            "`(cca ...)` is the whole fitness of covering coevolution: it takes no other source".into(),
            "more than one source",
            "keep (cca ...) alone; its (bouts N) are the games against the opposing population",
        );
    }
    if clauses.get("seed-population").is_some() {
        refuse(
            "seed-population",
            "covering coevolution breeds a population per role from random programs: it takes no \
             `(seed-population ...)`"
                .into(),
            "not for covering coevolution",
            "remove the clause",
        );
    }
    // Two roles taking turns play by α-β; a GDL game of any other kind
    // (simultaneous moves, more than two roles) by the sampled search
    // (src/search/sampled.rs).
    let gdl = game.kind == Kind::General && game.roles.len() >= 2 && game.gdl_rules().is_some();
    if game.kind != Kind::TwoPlayer && !gdl {
        refuse(
            "game",
            format!(
                "covering coevolution needs a game of two or more roles (two players taking turns, or a GDL \
                 game), but {} is {}{}",
                game.name,
                game.kind.describe(),
                match (game.kind, game.roles.len()) {
                    (Kind::General, 1) => " of 1 role".to_owned(),
                    (Kind::General, n) => format!(" of {n} roles"),
                    _ => String::new(),
                }
            ),
            "not a game of several roles",
            "choose a GDL .kif of two or more roles, or a game `stratagem games` lists as two-player",
        );
    }
    if let Selection::Fitnessless(_) = run.selection {
        refuse(
            "selection",
            "covering coevolution breeds by fitness: fitnessless selection has no use".into(),
            "fitnessless",
            "use (selection (tournament K)) or leave it out",
        );
    }
    if run.islands.count > 1 {
        refuse("islands", "covering coevolution runs no islands".into(), "islands", "remove (islands ...)");
    }
    if !matches!(run.champion, ChampionRule::Last) {
        refuse(
            "champion",
            "covering coevolution's champions are the top-ranked teachers of each role".into(),
            "no use here",
            "remove (champion ...) or write (champion last)",
        );
    }
}
