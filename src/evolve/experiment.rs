//! Experiments as programs: the `(experiment ...)` form and its validation.
//!
//! ```text
//! (experiment NAME
//!   (primset P) (game lose-checkers|morris)          ; required
//!   (population 100) (generations 50) (seed 1)
//!   (trees eval order)                               ; default: the primset's required trees
//!   (init 2 6) (max-depth 17) (mutation-depth 4)     ; ramped half-and-half depths, limits
//!   (max-size 200)                                   ; nodes per tree (default: no limit)
//!   (crossover 0.8 [one-way]) (mutation 0.2) (local-mutation 0.5)
//!   (selection (tournament 2) | proportionate | (fitnessless 5)) (match-games 2)
//!   (elitism 1)
//!   (player (alphabeta 1) | (select D (ratio R) (maxbranch M) (full F)))  ; either with (perspective root)
//!   (introns on|off)                                 ; generate NullFuncJ / NOTG (explicit introns)
//!   (engine jit|interp)                              ; how evolved trees are evaluated
//!   (fitness (cohort 10) (pairings 20) (round-robin) (random N) (guide DEPTH N) (material DEPTH N))
//!   (champion last | (validate OPPONENT GAMES) (top K) (final M N)))
//!   ; OPPONENT: random | (material DEPTH) | (guide DEPTH), each α-β one with optional (ties first)
//! ```
//! Everything is checked before any work starts: unknown keys (with
//! suggestions), impossible values, a primset that does not fit the game, and
//! depth limits below what the primset's types need.

use super::engine::Selection;
use super::genome::Variation;
use super::init::Builder;
use crate::diagnostic::{Diagnostic, FileId, did_you_mean};
use crate::games::checkers::Checkers;
use crate::games::domain::Binding;
use crate::games::morris::Morris;
use crate::lang::primset::PrimSet;
use crate::lang::syntax_helpers::Cx;
use crate::lang::{Module, PrimSetId, TypeId};
use crate::search::alphabeta::{Perspective, SearchParams, Ties};
use crate::syntax::{Sexp, Span};

/// The games experiments can evolve players for.
pub const GAMES: [&str; 2] = ["lose-checkers", "morris"];

/// A fixed opponent of validation games.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Opponent {
    Random,
    /// α-β with material evaluation (the papers' benchmark).
    Material(SearchParams),
    /// α-β with random evaluation (the papers' guide).
    Guide(SearchParams),
}

/// How the run's champion is chosen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ChampionRule {
    /// The fittest individual of the last generation.
    Last,
    /// Each generation the `top` fittest individuals play `games` games
    /// against `opponent`; the `finalists` best distinct ones over the run are
    /// kept (the later on a tie). With `final_games` > 0 they then play that
    /// many fresh games each against `opponent` and the winner is the
    /// champion; otherwise the best validated one is.
    Validate { opponent: Opponent, games: u32, top: usize, finalists: usize, final_games: u32 },
}

/// One source of fitness points (1 per win, ½ per draw).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FitnessPart {
    /// Games against members of the population drawn at random (coevolution).
    Cohort(u32),
    /// N rounds of random pairings of the population; each game scores for
    /// both players, so every member plays N games at half the cost of `Cohort(N)`.
    Pairings(u32),
    /// One game with each colour against every other member.
    RoundRobin,
    /// Games against the uniformly random player.
    Random(u32),
    /// Games against α-β of the given depth with random evaluation (the papers' guide).
    Guide { depth: u32, games: u32 },
    /// Games against α-β of the given depth with material evaluation.
    Material { depth: u32, games: u32 },
}

#[derive(Debug, Clone)]
pub struct Experiment {
    pub name: String,
    pub file: FileId,
    pub span: Span,
    pub game: String,
    pub primset: PrimSetId,
    pub population: usize,
    pub generations: usize,
    pub seed: u64,
    pub trees: Vec<(String, TypeId)>,
    pub crossover: f64,
    pub mutation: f64,
    pub selection: Selection,
    pub match_games: u32,
    pub elitism: usize,
    pub variation: Variation,
    pub player: SearchParams,
    pub fitness: Vec<FitnessPart>,
    /// Whether the explicitly defined intron primitives are generated.
    pub introns: bool,
    /// Evaluate evolved trees with the JIT (else the interpreter).
    pub jit: bool,
    pub champion: ChampionRule,
}

const KEYS: [&str; 22] = [
    "champion",
    "introns",
    "engine",
    "primset",
    "game",
    "population",
    "generations",
    "seed",
    "trees",
    "init",
    "max-depth",
    "max-size",
    "mutation-depth",
    "crossover",
    "mutation",
    "local-mutation",
    "selection",
    "match-games",
    "elitism",
    "player",
    "fitness",
    "description",
];

/// Lowers and validates experiment `index` of `module`.
pub fn lower_experiment(module: &Module, index: usize) -> Result<Experiment, Vec<Diagnostic>> {
    let (file, form) = &module.experiments[index];
    let mut diags = Vec::new();
    let mut cx = Cx { file: *file, diags: &mut diags };
    let result = lower(&mut cx, module, form);
    match result {
        Some(e) if diags.is_empty() => Ok(e),
        _ => Err(diags),
    }
}

fn lower(cx: &mut Cx, module: &Module, form: &Sexp) -> Option<Experiment> {
    const USAGE: &str = "(experiment NAME (primset P) (game G) (population N) ...)";
    let items = form.as_list()?;
    let Some(name_sexp) = items.get(1) else {
        cx.usage(form, USAGE);
        return None;
    };
    let name = cx.expect_symbol(name_sexp, "the experiment's name")?.to_owned();
    let clauses = Clauses::checked(cx, &items[2..]);
    let ps_id = lower_primset(cx, module, &clauses, &name, form.span.first_byte());
    let game = lower_game(cx, &clauses, &name, form.span.first_byte());

    let population = clauses.int(cx, "population", 100, 2, 1_000_000) as usize;
    let generations = clauses.int(cx, "generations", 50, 1, 1_000_000) as usize;
    let seed = clauses.int(cx, "seed", 1, 0, i64::MAX) as u64;
    let max_depth = clauses.int(cx, "max-depth", 17, 1, 200) as usize;
    let mutation_depth = clauses.int(cx, "mutation-depth", 4, 1, 200) as usize;
    let max_size = clauses.get("max-size").map(|_| clauses.int(cx, "max-size", 1_000_000, 1, 1_000_000) as usize);
    let elitism = clauses.int(cx, "elitism", 1, 0, 1_000_000) as usize;
    let match_games = clauses.int(cx, "match-games", 2, 1, 1000) as u32;
    if elitism >= population {
        cx.push(
            Diagnostic::error(
                "stratagem::experiment::range",
                format!("elitism {elitism} leaves no room to breed in a population of {population}"),
            )
            .at(cx.file, clauses.span("elitism"), "too many elites"),
        );
    }
    let (init_min, init_max) = lower_init(cx, &clauses);
    let (crossover, one_way, mutation, local_mutation) = lower_rates(cx, &clauses);
    let selection = match clauses.get("selection") {
        None => Selection::Tournament(2),
        Some([s]) => lower_selection(cx, s),
        Some(_) => {
            let usage = "(selection (tournament K)), (selection proportionate) or (selection (fitnessless K))";
            clauses.malformed(cx, "selection", usage);
            Selection::Tournament(2)
        }
    };
    let introns = clauses.switch(cx, "introns", "on", "off");
    let jit = clauses.switch(cx, "engine", "jit", "interp");
    let player = match clauses.get("player") {
        None => SearchParams::full(1),
        Some([p]) => lower_player(cx, p),
        Some(_) => {
            clauses.malformed(cx, "player", "(player (alphabeta D)) or (player (select D (ratio R) ...))");
            SearchParams::full(1)
        }
    };
    let fitness = match clauses.get("fitness") {
        None => vec![FitnessPart::Cohort(10)],
        Some(parts) if !parts.is_empty() => parts.iter().filter_map(|p| lower_fitness(cx, p)).collect(),
        Some(_) => {
            cx.push(
                Diagnostic::error(
                    "stratagem::experiment::usage",
                    "usage: (fitness (cohort N) (random N) (guide DEPTH N) ...)",
                )
                .at(cx.file, clauses.span("fitness"), "no fitness source"),
            );
            Vec::new()
        }
    };
    let champion = match clauses.get("champion") {
        None => ChampionRule::Last,
        Some([v]) if v.as_symbol() == Some("last") => ChampionRule::Last,
        Some(items) => lower_champion(cx, items, clauses.span("champion"), population),
    };

    let (Some(ps_id), Some(game)) = (ps_id, game) else { return None };
    let ps = module.primset(ps_id);
    check_fits_game(cx, ps, &game, &clauses)?;
    let trees = lower_trees(cx, ps, &clauses);
    check_limits(cx, ps, &trees, introns, (max_depth, init_max, max_size), &clauses, form.span.first_byte());
    if init_max > max_depth {
        cx.push(
            Diagnostic::error(
                "stratagem::experiment::depth",
                format!("init depth {init_max} exceeds max-depth {max_depth}"),
            )
            .at(cx.file, clauses.span("init"), "deeper than allowed"),
        );
    }
    let variation = Variation {
        limits: super::ops::Limits { max_depth, mutation_depth, max_size, internal_bias: 0.9 },
        init_min_depth: init_min,
        init_max_depth: init_max,
        one_way,
        local_mutation,
    };
    Some(Experiment {
        name,
        file: cx.file,
        span: form.span,
        game,
        primset: ps_id,
        population,
        generations,
        seed,
        trees,
        crossover,
        mutation,
        selection,
        match_games,
        elitism,
        variation,
        player,
        fitness,
        introns,
        jit,
        champion,
    })
}

/// The clauses of an experiment, `(KEY VALUE...)`, looked up by key.
struct Clauses<'a> {
    list: &'a [Sexp],
}

impl<'a> Clauses<'a> {
    /// The clauses, after reporting any that is not `(KEY ...)` with a known
    /// key given once.
    fn checked(cx: &mut Cx, list: &'a [Sexp]) -> Clauses<'a> {
        let mut seen: Vec<&str> = Vec::new();
        for clause in list {
            let Some(key) = clause.head() else {
                cx.error(
                    "stratagem::experiment::clause",
                    clause,
                    "expected `(KEY VALUE...)`",
                    format!("found {}", clause.describe()),
                );
                continue;
            };
            if !KEYS.contains(&key) {
                let mut d = Diagnostic::error(
                    "stratagem::experiment::unknown-key",
                    format!("unknown experiment setting `{key}`"),
                )
                .at(cx.file, clause.span, "not a setting");
                d = match did_you_mean(key, KEYS) {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None => d.with_help(format!("settings: {}", KEYS.join(", "))),
                };
                cx.push(d);
            } else if seen.contains(&key) {
                cx.error(
                    "stratagem::experiment::duplicate",
                    clause,
                    format!("`{key}` is given twice"),
                    "second setting",
                );
            }
            seen.push(key);
        }
        Clauses { list }
    }

    /// The values of clause `key`, if it is given.
    fn get(&self, key: &str) -> Option<&'a [Sexp]> {
        self.list.iter().find(|c| c.head() == Some(key)).and_then(|c| c.as_list()).map(|l| &l[1..])
    }

    /// Where clause `key` is, for diagnostics about its value as a whole.
    fn span(&self, key: &str) -> Span {
        self.list.iter().find(|c| c.head() == Some(key)).map_or(Span::default(), |c| c.span)
    }

    /// Reports clause `key` as not of the form `usage`.
    fn malformed(&self, cx: &mut Cx, key: &str, usage: &str) {
        cx.push(Diagnostic::error("stratagem::experiment::usage", format!("usage: {usage}")).at(
            cx.file,
            self.span(key),
            "malformed",
        ));
    }

    /// `(KEY N)` with MIN <= N <= MAX; `default` when absent or reported.
    fn int(&self, cx: &mut Cx, key: &str, default: i64, min: i64, max: i64) -> i64 {
        match self.get(key) {
            None => default,
            Some([v]) => match cx.expect_int(v, "an integer") {
                Some(n) if (min..=max).contains(&n) => n,
                Some(n) => {
                    cx.error(
                        "stratagem::experiment::range",
                        v,
                        format!("`{key}` must be between {min} and {max}, not {n}"),
                        "out of range",
                    );
                    default
                }
                None => default,
            },
            Some(_) => {
                self.malformed(cx, key, &format!("({key} N)"));
                default
            }
        }
    }

    /// `(KEY P)`, a probability; `default` when absent or reported.
    fn probability(&self, cx: &mut Cx, key: &str, default: f64) -> f64 {
        match self.get(key) {
            None => default,
            Some([p]) => probability(cx, p, key),
            Some(_) => {
                self.malformed(cx, key, &format!("({key} P)"));
                default
            }
        }
    }

    /// `(KEY YES)` or `(KEY NO)`, true by default.
    fn switch(&self, cx: &mut Cx, key: &str, yes: &str, no: &str) -> bool {
        match self.get(key) {
            None => true,
            Some([v]) if v.as_symbol() == Some(yes) => true,
            Some([v]) if v.as_symbol() == Some(no) => false,
            Some(_) => {
                self.malformed(cx, key, &format!("({key} {yes}) or ({key} {no})"));
                true
            }
        }
    }
}

/// A probability in [0, 1], the value of setting `key`; 0 after reporting.
fn probability(cx: &mut Cx, v: &Sexp, key: &str) -> f64 {
    match cx.expect_number(v, "a probability") {
        Some(p) if (0.0..=1.0).contains(&p) => p,
        Some(p) => {
            cx.error(
                "stratagem::experiment::range",
                v,
                format!("`{key}` is a probability in [0, 1], not {p}"),
                "out of range",
            );
            0.0
        }
        None => 0.0,
    }
}

/// `(primset P)`, required; `at` is where to point when it is missing.
fn lower_primset(cx: &mut Cx, module: &Module, clauses: &Clauses, name: &str, at: Span) -> Option<PrimSetId> {
    match clauses.get("primset") {
        Some([p]) => match p.as_symbol().and_then(|n| module.find_primset(n)) {
            Some(id) => Some(id),
            None => {
                cx.error(
                    "stratagem::experiment::primset",
                    p,
                    format!("unknown primset `{p}`"),
                    "not defined or imported",
                );
                None
            }
        },
        _ => {
            cx.push(
                Diagnostic::error("stratagem::experiment::primset", format!("experiment `{name}` names no primset"))
                    .at(cx.file, at, "needs `(primset P)`")
                    .with_help("e.g. (import morris) before it and (primset morris) in it"),
            );
            None
        }
    }
}

/// `(game G)`, required, one of [`GAMES`]; `at` is where to point when it is missing.
fn lower_game(cx: &mut Cx, clauses: &Clauses, name: &str, at: Span) -> Option<String> {
    match clauses.get("game") {
        Some([g]) => match g.as_symbol().filter(|g| GAMES.contains(g)) {
            Some(g) => Some(g.to_owned()),
            None => {
                cx.push(
                    Diagnostic::error("stratagem::experiment::game", format!("unknown game `{g}`"))
                        .at(cx.file, g.span, "not a game")
                        .with_help(format!("games: {}", GAMES.join(", "))),
                );
                None
            }
        },
        _ => {
            cx.push(
                Diagnostic::error("stratagem::experiment::game", format!("experiment `{name}` names no game"))
                    .at(cx.file, at, "needs `(game G)`")
                    .with_help(format!("games: {}", GAMES.join(", "))),
            );
            None
        }
    }
}

/// `(init MIN MAX)`: the depths of ramped half-and-half, (2, 6) by default.
fn lower_init(cx: &mut Cx, clauses: &Clauses) -> (usize, usize) {
    match clauses.get("init") {
        None => (2, 6),
        Some([a, b]) => match (cx.expect_int(a, "a depth"), cx.expect_int(b, "a depth")) {
            (Some(a), Some(b)) if 1 <= a && a <= b => (a as usize, b as usize),
            (Some(_), Some(_)) => {
                cx.error(
                    "stratagem::experiment::range",
                    &Sexp::list(vec![], clauses.span("init")),
                    "init depths must satisfy 1 <= MIN <= MAX",
                    "bad ramp",
                );
                (2, 6)
            }
            _ => (2, 6),
        },
        Some(_) => {
            clauses.malformed(cx, "init", "(init MIN-DEPTH MAX-DEPTH)");
            (2, 6)
        }
    }
}

/// `(crossover P [one-way])`, `(mutation P)` and `(local-mutation P)`:
/// the crossover probability, whether it is one-way, the mutation
/// probability and the share of local mutations.
fn lower_rates(cx: &mut Cx, clauses: &Clauses) -> (f64, bool, f64, f64) {
    let (crossover, one_way) = match clauses.get("crossover") {
        None => (0.8, false),
        Some([p]) => (probability(cx, p, "crossover"), false),
        Some([p, kind]) if kind.as_symbol() == Some("one-way") => (probability(cx, p, "crossover"), true),
        Some(_) => {
            clauses.malformed(cx, "crossover", "(crossover P) or (crossover P one-way)");
            (0.8, false)
        }
    };
    let mutation = clauses.probability(cx, "mutation", 0.2);
    let local_mutation = clauses.probability(cx, "local-mutation", 0.5);
    if crossover + mutation > 1.0 + 1e-12 {
        cx.push(
            Diagnostic::error(
                "stratagem::experiment::range",
                format!("crossover {crossover} + mutation {mutation} exceed 1"),
            )
            .at(cx.file, clauses.span("mutation"), "too likely")
            .with_help("each child is made by crossover, mutation or copying; the probabilities share 1"),
        );
    }
    (crossover, one_way, mutation, local_mutation)
}

/// Reports, and gives `None`, when primset `ps` does not fit `game`.
fn check_fits_game(cx: &mut Cx, ps: &PrimSet, game: &str, clauses: &Clauses) -> Option<()> {
    let bound = match game {
        "lose-checkers" => Binding::new(&Checkers::lose(), ps).map(|_| ()),
        _ => Binding::new(&Morris, ps).map(|_| ()),
    };
    let Err(ds) = bound else { return Some(()) };
    cx.push(
        Diagnostic::error(
            "stratagem::experiment::primset-game",
            format!("primset `{}` does not fit the game {game}", ps.name),
        )
        .at(cx.file, clauses.span("primset"), "this primset")
        .with_help("see the problems reported with it"),
    );
    cx.diags.extend(ds);
    None
}

/// `(trees NAME...)`: the trees that evolve, by default the primset's
/// required ones (a single F tree `eval` for a primset that declares none).
fn lower_trees(cx: &mut Cx, ps: &PrimSet, clauses: &Clauses) -> Vec<(String, TypeId)> {
    match clauses.get("trees") {
        Some(names) if !names.is_empty() => names
            .iter()
            .filter_map(|n| {
                let name = n.as_symbol()?;
                match ps.tree_slots.iter().find(|s| s.name == name) {
                    Some(slot) => Some((slot.name.clone(), slot.ty)),
                    None if ps.tree_slots.is_empty() => Some((name.to_owned(), TypeId::F)),
                    None => {
                        cx.error(
                            "stratagem::experiment::trees",
                            n,
                            format!("primset `{}` has no tree `{name}`", ps.name),
                            "unknown tree",
                        );
                        None
                    }
                }
            })
            .collect(),
        _ if ps.tree_slots.is_empty() => vec![("eval".into(), TypeId::F)],
        _ => ps.tree_slots.iter().filter(|s| !s.optional).map(|s| (s.name.clone(), s.ty)).collect(),
    }
}

/// Reports trees that cannot be built from the primset's primitives, or not
/// within the limits `(max-depth, init max, max-size)`; `at` is where to
/// point for a depth limit, which may be a default.
fn check_limits(
    cx: &mut Cx,
    ps: &PrimSet,
    trees: &[(String, TypeId)],
    introns: bool,
    limits: (usize, usize, Option<usize>),
    clauses: &Clauses,
    at: Span,
) {
    let needed: Vec<TypeId> = trees.iter().map(|(_, t)| *t).collect();
    let builder = match Builder::with_introns(ps, &needed, introns) {
        Ok(b) => b,
        Err(d) => {
            cx.push(d);
            return;
        }
    };
    let (max_depth, init_max, max_size) = limits;
    for (tree, ty) in trees {
        let need = builder.min_depth(*ty).unwrap_or(1);
        if max_depth < need || init_max < need {
            cx.push(
                Diagnostic::error(
                    "stratagem::experiment::depth",
                    format!(
                        "tree `{tree}` of type {} needs depth {need}, but the limit is {}",
                        ps.type_name(*ty),
                        max_depth.min(init_max)
                    ),
                )
                .at(cx.file, at, "impossible depth limit")
                .with_help(format!("raise (max-depth ...) and (init ...) to at least {need}")),
            );
        }
        let need = builder.min_size(*ty).unwrap_or(1);
        if let Some(max_size) = max_size.filter(|&m| m < need) {
            cx.push(
                Diagnostic::error(
                    "stratagem::experiment::size",
                    format!(
                        "tree `{tree}` of type {} needs {need} nodes, but the limit is {max_size}",
                        ps.type_name(*ty)
                    ),
                )
                .at(cx.file, clauses.span("max-size"), "impossible size limit")
                .with_help(format!("raise (max-size ...) to at least {need}")),
            );
        }
    }
}

/// `(champion (validate OPPONENT GAMES) (top K) (final M N))`, `(top K)`
/// optional (1), `(final M N)` optional (one finalist, no final round).
fn lower_champion(cx: &mut Cx, items: &[Sexp], span: Span, population: usize) -> ChampionRule {
    const USAGE: &str = "usage: (champion last) or (champion (validate OPPONENT GAMES) (top K) (final M N))";
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
fn lower_opponent(cx: &mut Cx, s: &Sexp) -> Option<Opponent> {
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

fn lower_selection(cx: &mut Cx, s: &Sexp) -> Selection {
    let k = |cx: &mut Cx, items: &[Sexp]| match items.get(1).and_then(|v| cx.expect_int(v, "a tournament size")) {
        Some(k) if k >= 1 => k as usize,
        _ => {
            cx.error("stratagem::experiment::range", s, "a tournament needs a size of at least 1", "bad size");
            2
        }
    };
    match (s.as_symbol(), s.head(), s.as_list()) {
        (Some("proportionate"), _, _) => Selection::Proportionate,
        (_, Some("tournament"), Some(items)) if items.len() == 2 => Selection::Tournament(k(cx, items)),
        (_, Some("fitnessless"), Some(items)) if items.len() == 2 => Selection::Fitnessless(k(cx, items)),
        _ => {
            cx.error(
                "stratagem::experiment::selection",
                s,
                "unknown selection",
                "expected (tournament K), proportionate or (fitnessless K)",
            );
            Selection::Tournament(2)
        }
    }
}

fn lower_player(cx: &mut Cx, p: &Sexp) -> SearchParams {
    let with_depth = p.as_list().is_some_and(|items| items.len() >= 2);
    let params = match p.head() {
        Some("alphabeta") if with_depth => lower_search(cx, p, &["perspective"]),
        Some("select") if with_depth => lower_search(cx, p, &["ratio", "maxbranch", "full", "perspective"]),
        _ => {
            cx.error(
                "stratagem::experiment::player",
                p,
                "unknown player",
                "expected (alphabeta D) or (select D (ratio R) (maxbranch M) (full F))",
            );
            None
        }
    };
    params.unwrap_or(SearchParams::full(1))
}

/// The options of a search, `(NAME VALUE)`, with their usage.
const SEARCH_OPTIONS: [(&str, &str); 5] = [
    ("ratio", "(ratio R)"),
    ("maxbranch", "(maxbranch M)"),
    ("full", "(full F)"),
    ("perspective", "(perspective root|mover)"),
    ("ties", "(ties first|random)"),
];

/// `(HEAD DEPTH (NAME VALUE)...)`: an α-β search of DEPTH plies with the
/// options named in `allowed` (of [`SEARCH_OPTIONS`]); `None` after reporting
/// a bad depth or option.
fn lower_search(cx: &mut Cx, s: &Sexp, allowed: &[&str]) -> Option<SearchParams> {
    let items = s.as_list().unwrap_or_default();
    let reported = cx.diags.len();
    let mut params = match items.get(1).and_then(|d| cx.expect_int(d, "a search depth")) {
        Some(d) if (1..=64).contains(&d) => SearchParams::full(d as u32),
        _ => {
            cx.error("stratagem::experiment::range", s, "a search depth is between 1 and 64", "bad depth");
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
        _ => {} // callers pass names of SEARCH_OPTIONS only
    }
}

fn lower_fitness(cx: &mut Cx, p: &Sexp) -> Option<FitnessPart> {
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
    let part = match (p.head(), items.len()) {
        (Some("cohort"), 2) => FitnessPart::Cohort(num(cx, 1, "a number of games")?),
        (Some("pairings"), 2) => FitnessPart::Pairings(num(cx, 1, "a number of rounds")?),
        (Some("round-robin"), 1) => FitnessPart::RoundRobin,
        (Some("random"), 2) => FitnessPart::Random(num(cx, 1, "a number of games")?),
        (Some("guide"), 3) => {
            FitnessPart::Guide { depth: num(cx, 1, "a depth")?, games: num(cx, 2, "a number of games")? }
        }
        (Some("material"), 3) => {
            FitnessPart::Material { depth: num(cx, 1, "a depth")?, games: num(cx, 2, "a number of games")? }
        }
        _ => {
            cx.error(
                "stratagem::experiment::fitness",
                p,
                "unknown fitness source",
                "expected (cohort N), (pairings N), (round-robin), (random N), (guide DEPTH N) or (material DEPTH N)",
            );
            return None;
        }
    };
    Some(part)
}
