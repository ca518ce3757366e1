//! Experiments as programs: the `(experiment ...)` form and its validation.
//!
//! ```text
//! (experiment NAME
//!   (primset P) (game G)                            ; required; `stratagem games` lists them
//!   (population 100) (generations 50) (seed 1)
//!   (individual tree | policy (max-rules N) (reorder P)
//!               | weights (terms T...) (range LO HI) (gene-rate P) (step S)   ; what evolves
//!               | network (inputs T...) (add-node P) (threshold T) ...)     ; NEAT (network.rs)
//!   (trees eval order)                               ; default: the primset's required trees
//!   (init 2 6) (max-depth 17) (mutation-depth 4)     ; ramped half-and-half depths, limits
//!   (max-size 200)                                   ; nodes per tree (default: no limit)
//!   (crossover 0.8 [one-way]) (mutation 0.2) (reproduction 0.0) (local-mutation 0.5)
//!   (selection (tournament 2) | proportionate | (fitnessless 5)) (match-games 2)
//!   (elitism 1)
//!   (seed-population NAME ...)                       ; programs of the module in generation 0 (founders.rs)
//!   (player (alphabeta 1) | (select D (ratio R) (maxbranch M) (full F)))  ; either with (perspective root)
//!   (introns on|off)                                 ; generate NullFuncJ / NOTG (explicit introns)
//!   (engine jit|interp)                              ; how evolved trees are evaluated
//!   (fitness (cohort 10) (pairings 20) (round-robin) (random N) (guide DEPTH N) (material DEPTH N)
//!            (hillis (problems N) (sample K) (opening MIN MAX) (opponent OPPONENT) (goal win|not-lose) ...)
//!            (hillis (problems N) (sample K) (min-length L) (start puzzles|generated) ...)  ; on a puzzle
//!            (hillis (problems N) (deals K) (meet M) (every E) (mutation P))  ; numbered puzzles: deal sets
//!            (solve N)                               ; puzzles only (the default there)
//!            (cca (bouts 50) (alpha A)))             ; alone: covering coevolution, a population per role
//!   (puzzles "FILE" (every K O) (lengths MIN MAX)) (max-nodes N)  ; puzzles only
//!   (stage-depth K)                          ; staged deepening's k (FreeCell)
//!   (puzzles (numbered FIRST LAST) (training K) (seed S))        ; numbered instances (FreeCell deals)
//!   (champion last | (validate OPPONENT GAMES) (top K) (final M N)))
//!   ; OPPONENT: random | (material DEPTH) | (guide DEPTH), each α-β one with optional (ties first)
//! ```
//! Everything is checked before any work starts: unknown keys (with
//! suggestions), impossible values, a primset that does not fit the game,
//! depth and size limits below what the primset's types need, settings the
//! representation has no use for and fitness sources the game cannot give.

mod breeding;
mod cca;
mod clauses;
mod coevolution;
mod duels;
mod fitness;
mod founders;
mod individual;
mod network;
mod players;
mod puzzles;

use breeding::{Rates, check_limits, lower_init, lower_rates, lower_selection};
use clauses::Clauses;
use fitness::lower_fitness;
use individual::{lower_representation, shaped_trees};
use players::{lower_champion, lower_player};

pub use cca::CcaSpec;
pub use coevolution::{DealSetSpec, Goal, HillisSpec, ProblemStart};
pub use puzzles::{DEFAULT_MAX_NODES, Numbered, PuzzleSource};

use super::engine::{Engine, EngineParams, Islands, Selection};
use super::genome::{Genome, Representation, Variation};
use super::init::{Builder, Introns};
use crate::diagnostic::{Diagnostic, FileId};
use crate::games::registry::{self, Entry, Kind};
use crate::lang::primset::PrimSet;
use crate::lang::syntax_helpers::Cx;
use crate::lang::{Module, PrimSetId, TypeId};
use crate::limits::Limit;
use crate::search::alphabeta::SearchParams;
use crate::syntax::{Sexp, Span};

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
    /// After the last generation, every member of the final population
    /// meets every other in a match of this many double-games; the one
    /// that won the most matches is the champion (the earlier on a tie).
    /// BrilliAnt was chosen so (seeds/003); games of named players only.
    RoundRobin { double_games: u32 },
}

/// A fixed player and the double-games a generation against it: the
/// monitor a run by duels logs for its best member without selecting by
/// it (the paper's figure 4), or an opponent of `(fitness (versus ...))`.
#[derive(Debug, Clone, PartialEq)]
pub struct Monitor {
    /// The player, as `tournament --players` names it, as written.
    pub opponent: String,
    /// The same with the file of a `gp:` or `c:` player relative to the
    /// experiment file's folder, as the run reads it.
    pub spec: String,
    pub double_games: u32,
}

impl Monitor {
    /// Reads the player's file (`gp:FILE:NAME`, `c:FILE`) from `base`, the
    /// experiment file's folder, as imports and puzzle files are.
    pub fn resolve(&mut self, base: &std::path::Path) {
        let (prefix, rest) = match self.opponent.split_once(':') {
            Some((p @ ("gp" | "c"), rest)) => (p, rest),
            _ => return,
        };
        let (file, name) = match (prefix, rest.rsplit_once(':')) {
            ("gp", Some((file, name))) => (file, Some(name)),
            _ => (rest, None),
        };
        if std::path::Path::new(file).is_absolute() {
            return;
        }
        let path = base.join(file);
        self.spec = match name {
            Some(name) => format!("{prefix}:{}:{name}", path.display()),
            None => format!("{prefix}:{}", path.display()),
        };
    }
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
    /// Points for the problems solved (start positions of a two-player
    /// game; on a puzzle, the mean node savings on its instances), from
    /// Hillis coevolution of a problem population (at most one per
    /// experiment).
    Hillis(HillisSpec),
    /// The mean node savings against iterative deepening on N training
    /// puzzles a generation (puzzles only, see `puzzles.rs`).
    Solve(u32),
    /// Covering competitive coevolution of one population per role
    /// (`cca.rs`): the whole fitness when given.
    Cca(CcaSpec),
}

#[derive(Debug, Clone)]
pub struct Experiment {
    pub name: String,
    pub file: FileId,
    pub span: Span,
    pub game: &'static Entry,
    pub primset: PrimSetId,
    pub population: usize,
    pub generations: usize,
    pub seed: u64,
    /// What evolves: trees (with their names and types), policies or weight vectors.
    pub representation: Representation,
    pub crossover: f64,
    pub mutation: f64,
    pub selection: Selection,
    pub match_games: u32,
    pub elitism: usize,
    pub variation: Variation,
    pub player: SearchParams,
    pub fitness: Vec<FitnessPart>,
    /// Whether the explicitly defined intron primitives are generated.
    pub introns: Introns,
    /// Evaluate evolved trees with the JIT (else the interpreter).
    /// How evolved programs are evaluated (`(engine jit|interp)`).
    pub engine: crate::eval::Engine,
    pub champion: ChampionRule,
    /// The training puzzles, on a puzzle.
    pub puzzles: Option<PuzzleSource>,
    /// Probability of an ERC mutation alone per breeding event.
    pub erc_mutation: f64,
    pub islands: Islands,
    pub monitor: Option<Monitor>,
    /// Runs by duels judged by games against fixed players instead of by
    /// matches: `(fitness (versus "PLAYER" D) ...)`.
    pub opponents: Vec<Monitor>,
    /// Programs that join generation 0 as they are (`(seed-population ...)`).
    pub founders: Vec<Genome>,
}

const KEYS: [&str; 31] = [
    "islands",
    "seed-population",
    "erc-mutation",
    "monitor",
    "individual",
    "puzzles",
    "max-nodes",
    "stage-depth",
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
    "reproduction",
    "local-mutation",
    "selection",
    "match-games",
    "elitism",
    "player",
    "fitness",
    "description",
];

/// What one generation of an experiment plays.
struct Work<'a> {
    population: usize,
    fitness: &'a [FitnessPart],
    selection: Selection,
    elitism: usize,
    match_games: u32,
    champion: ChampionRule,
    /// Breeding planned before selection (islands, duels): one parent per child.
    planned: bool,
}

impl Work<'_> {
    /// The games one generation plays: every fitness source, the matches of
    /// fitnessless selection and the validation games (not the final round,
    /// played once).
    fn games_per_generation(&self) -> u64 {
        let n = self.population as u64;
        let duels = self.planned && self.fitness.is_empty();
        let sources = self.fitness.iter().filter(|_| !duels).map(|part| match *part {
            FitnessPart::Cohort(k) | FitnessPart::Random(k) => n.saturating_mul(k.into()),
            FitnessPart::Guide { games, .. } | FitnessPart::Material { games, .. } => n.saturating_mul(games.into()),
            FitnessPart::Pairings(k) => n.div_ceil(2).saturating_mul(k.into()),
            FitnessPart::RoundRobin => n.saturating_mul(n.saturating_sub(1)).saturating_mul(2),
            FitnessPart::Hillis(h) => n.saturating_add(h.problems as u64).saturating_mul(h.sample.into()),
            FitnessPart::Solve(k) => n.saturating_mul(k.into()),
            // Per role: the bouts, and at most one game per opposing
            // teacher (at most one teacher joins a generation, so the
            // bound is checked at the start; the run may grow past it).
            FitnessPart::Cca(c) => n.saturating_mul(2).saturating_mul(u64::from(c.bouts) + 1),
        });
        let mut games = sources.fold(0u64, u64::saturating_add);
        if let Selection::Fitnessless(k) = self.selection {
            // Two parents per child bred (one when breeding is planned), each
            // the winner of k - 1 matches.
            let per_child = if self.planned { 1 } else { 2 };
            let events = n.saturating_sub(self.elitism as u64).saturating_mul(per_child);
            let matches = events.saturating_mul((k as u64).saturating_sub(1));
            games = games.saturating_add(matches.saturating_mul(self.match_games.into()));
        }
        if let ChampionRule::Validate { games: g, top, .. } = self.champion {
            games = games.saturating_add((top as u64).saturating_mul(g.into()));
        }
        games
    }
}

impl Experiment {
    /// The trees that evolve (none for policies and weight vectors).
    pub fn trees(&self) -> &[(String, TypeId)] {
        match &self.representation {
            Representation::Trees(slots) => slots,
            _ => &[],
        }
    }

    /// The Hillis coevolution of the run, if its fitness has one.
    pub fn hillis(&self) -> Option<HillisSpec> {
        self.fitness.iter().find_map(|p| match p {
            FitnessPart::Hillis(h) => Some(*h),
            _ => None,
        })
    }

    /// Covering competitive coevolution, if the fitness is that.
    pub fn cca(&self) -> Option<CcaSpec> {
        self.fitness.iter().find_map(|p| match p {
            FitnessPart::Cca(c) => Some(*c),
            _ => None,
        })
    }

    /// The engine that breeds the experiment's population over `ps`, its
    /// random streams seeded by `seed` (the experiment's, or one per role
    /// under covering coevolution).
    pub fn population_engine<'p>(&self, ps: &'p PrimSet, seed: u64) -> Result<Engine<'p>, Vec<Diagnostic>> {
        let builder = Builder::with_introns(ps, &self.representation.needed_types(), self.introns)
            .map_err(|d| vec![d])?
            .with_max_size(self.variation.max_size);
        let params = EngineParams {
            population: self.population,
            generations: self.generations,
            crossover: self.crossover,
            mutation: self.mutation,
            selection: self.selection,
            elitism: self.elitism,
            seed,
            variation: self.variation,
            erc_mutation: self.erc_mutation,
            islands: self.islands,
        };
        Ok(Engine::new(params, self.representation.clone(), builder))
    }

    /// How many games one generation plays (see [`Work`]).
    pub fn games_per_generation(&self) -> u64 {
        Work {
            population: self.population,
            fitness: &self.fitness,
            selection: self.selection,
            elitism: self.elitism,
            match_games: self.match_games,
            champion: self.champion,
            planned: self.islands.count > 1 || self.game.plays_duels(),
        }
        .games_per_generation()
    }
}

/// Lowers and validates experiment `index` of `module`.
pub fn lower_experiment(module: &Module, index: usize) -> Result<Experiment, Vec<Diagnostic>> {
    lower_experiment_with(module, index, None)
}

/// Lowers experiment `index` of `module` for `game`, a game met at run
/// time (a GGP match's rules), which the experiment's text does not name.
pub fn lower_experiment_on(module: &Module, index: usize, game: &'static Entry) -> Result<Experiment, Vec<Diagnostic>> {
    lower_experiment_with(module, index, Some(game))
}

fn lower_experiment_with(
    module: &Module,
    index: usize,
    game: Option<&'static Entry>,
) -> Result<Experiment, Vec<Diagnostic>> {
    let (file, form) = &module.experiments[index];
    let mut diags = Vec::new();
    let mut cx = Cx { file: *file, diags: &mut diags };
    let result = lower(&mut cx, module, form, game);
    match result {
        Some(e) if diags.is_empty() => Ok(e),
        _ => Err(diags),
    }
}

fn lower(cx: &mut Cx, module: &Module, form: &Sexp, given: Option<&'static Entry>) -> Option<Experiment> {
    const USAGE: &str = "(experiment NAME (primset P) (game G) (population N) ...)";
    let items = form.as_list()?;
    let Some(name_sexp) = items.get(1) else {
        cx.usage(form, USAGE);
        return None;
    };
    let name = cx.expect_symbol(name_sexp, "the experiment's name")?.to_owned();
    let clauses = Clauses::checked(cx, &items[2..]);
    let ps_id = lower_primset(cx, module, &clauses, &name, form.span.first_byte());
    let game = given.or_else(|| lower_game(cx, &clauses, &name, form.span.first_byte()));

    let Sizes { population, generations, seed, max_depth, mutation_depth, max_size, elitism, match_games } =
        lower_sizes(cx, &clauses);
    let (init_min, init_max) = lower_init(cx, &clauses);
    let Rates { crossover, one_way, mutation, local_mutation, erc_mutation, erc_scale } = lower_rates(cx, &clauses);
    let islands = duels::lower_islands(cx, &clauses, population);
    let selection = lower_selection_clause(cx, &clauses);
    let introns = if clauses.switch(cx, "introns", "on", "off") { Introns::Generate } else { Introns::Omit };
    let engine = if clauses.switch(cx, "engine", "jit", "interp") {
        crate::eval::Engine::Jit
    } else {
        crate::eval::Engine::Interp
    };
    let player = lower_player_clause(cx, &clauses);
    let (fitness, opponents) = lower_fitness_clause(cx, &clauses, game);
    let champion = match clauses.get("champion") {
        None => ChampionRule::Last,
        Some([v]) if v.as_symbol() == Some("last") => ChampionRule::Last,
        Some(items) => lower_champion(cx, items, clauses.span("champion"), population),
    };

    let (Some(ps_id), Some(game)) = (ps_id, game) else { return None };
    let versus = !opponents.is_empty();
    let at = form.span.first_byte();
    let monitor = duels::check_duel_run(cx, &clauses, game, (selection, versus), match_games, champion, at);
    let puzzles = puzzles::lower_puzzles(cx, &clauses, game, form.span.first_byte());
    puzzles::check_puzzle_run(cx, &clauses, game, &fitness, champion);
    let cca_run = cca::CcaRun { fitness: &fitness, selection, islands, champion };
    cca::check_cca_run(cx, &clauses, game, &cca_run, form.span.first_byte());
    let planned = islands.count > 1 || game.plays_duels();
    let work = Work { population, fitness: &fitness, selection, elitism, match_games, champion, planned };
    check_work(cx, &work, &name, form.span.first_byte());
    let ps = module.primset(ps_id);
    check_fits_game(cx, ps, game, &clauses)?;
    coevolution::check_sources_fit(cx, game, clauses.get("fitness").unwrap_or_default());
    let representation = lower_representation(cx, ps, &clauses)?;
    let trees = shaped_trees(&representation);
    if !trees.is_empty() {
        check_limits(cx, ps, &trees, introns, (max_depth, init_max, max_size), &clauses, form.span.first_byte());
    }
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
        limits: super::ops::Limits { max_depth, mutation_depth, internal_bias: 0.9 },
        max_size,
        init_min_depth: init_min,
        init_max_depth: init_max,
        one_way,
        local_mutation,
        erc_scale,
    };
    let founders = founders::lower_founders(cx, module, &clauses, (ps_id, &representation, &variation, population));
    Some(Experiment {
        name,
        file: cx.file,
        span: form.span,
        game,
        primset: ps_id,
        population,
        generations,
        seed,
        representation,
        crossover,
        mutation,
        selection,
        match_games,
        elitism,
        variation,
        player,
        fitness,
        introns,
        engine,
        champion,
        puzzles,
        erc_mutation,
        islands,
        monitor,
        opponents,
        founders,
    })
}

/// The experiment's sizes, counts and depth limits.
struct Sizes {
    population: usize,
    generations: usize,
    seed: u64,
    max_depth: usize,
    mutation_depth: usize,
    max_size: Option<usize>,
    elitism: usize,
    match_games: u32,
}

/// `(population N)`, `(generations N)`, `(seed S)`, the depth and size
/// limits, `(elitism E)` (which must leave room to breed) and `(match-games N)`.
fn lower_sizes(cx: &mut Cx, clauses: &Clauses) -> Sizes {
    let population = clauses.int(cx, "population", 100, 2, 1_000_000) as usize;
    let generations = clauses.int(cx, "generations", 50, 1, 1_000_000) as usize;
    let seed = clauses.int(cx, "seed", 1, 0, i64::MAX) as u64;
    let max_depth = clauses.int(cx, "max-depth", 17, 1, 200) as usize;
    let mutation_depth = clauses.int(cx, "mutation-depth", 4, 1, 200) as usize;
    // No size limit unless given; the fallback after a reported error never runs.
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
    Sizes { population, generations, seed, max_depth, mutation_depth, max_size, elitism, match_games }
}

/// `(selection ...)`, by default `(tournament 2)`.
fn lower_selection_clause(cx: &mut Cx, clauses: &Clauses) -> Selection {
    match clauses.get("selection") {
        None => Selection::Tournament(2),
        Some([s]) => lower_selection(cx, s),
        Some(_) => {
            let usage = "(selection (tournament K)), (selection proportionate) or (selection (fitnessless K))";
            clauses.malformed(cx, "selection", usage);
            Selection::Tournament(2)
        }
    }
}

/// `(player ...)`, by default `(alphabeta 1)`.
fn lower_player_clause(cx: &mut Cx, clauses: &Clauses) -> SearchParams {
    match clauses.get("player") {
        None => SearchParams::full(1),
        Some([p]) => lower_player(cx, p),
        Some(_) => {
            clauses.malformed(cx, "player", "(player (alphabeta D)) or (player (select D (ratio R) ...))");
            SearchParams::full(1)
        }
    }
}

/// `(fitness ...)`: its sources, and for a game of named players the
/// fixed players of `(versus ...)`; by default what the game's kind is
/// judged by.
fn lower_fitness_clause(
    cx: &mut Cx,
    clauses: &Clauses,
    game: Option<&'static Entry>,
) -> (Vec<FitnessPart>, Vec<Monitor>) {
    let mut opponents = Vec::new();
    let fitness = match clauses.get("fitness") {
        None if game.is_some_and(|g| g.kind == Kind::Puzzle) => vec![FitnessPart::Solve(10)],
        // Duels are judged by the matches of fitnessless selection alone.
        None if game.is_some_and(|g| g.plays_duels()) => Vec::new(),
        None => vec![FitnessPart::Cohort(10)],
        // Duels' own fitness: games against fixed players (duels.rs).
        Some(parts) if game.is_some_and(|g| g.plays_duels()) => {
            opponents = duels::lower_versus(cx, parts);
            Vec::new()
        }
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
    (fitness, opponents)
}

/// Reports a generation of more games than the `games-per-generation` limit.
fn check_work(cx: &mut Cx, work: &Work, name: &str, at: Span) {
    if let Err(message) = Limit::GamesPerGeneration.check(
        work.games_per_generation(),
        &format!("experiment `{name}` plays {} games per generation, which", work.games_per_generation()),
    ) {
        cx.push(
            Diagnostic::error("stratagem::experiment::limit", message)
                .at(cx.file, at, "too much work per generation")
                .with_help("lower the population, the games of (fitness ...) or of validation"),
        );
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

/// `(game G)`, required, a registered game that evolution can judge: a
/// two-player game (by games), a GDL game of two roles and simultaneous
/// moves (by covering coevolution) or a puzzle (by solving); `at` is where
/// to point when it is missing.
fn lower_game(cx: &mut Cx, clauses: &Clauses, name: &str, at: Span) -> Option<&'static Entry> {
    match clauses.get("game") {
        Some([g]) => {
            let text = g.as_symbol().map_or_else(|| g.to_string(), str::to_owned);
            let entry = match registry::lookup(&text) {
                Ok(entry) => entry,
                Err(e) => {
                    cx.push(e.diagnostic("stratagem::experiment::game").at(cx.file, g.span, "not a game"));
                    return None;
                }
            };
            // Covering coevolution also plays GDL games of simultaneous
            // moves or more than two roles (cca.rs says which games it takes).
            let cca = clauses.get("fitness").is_some_and(|parts| parts.iter().any(|p| p.head() == Some("cca")));
            let general_gdl = entry.kind == Kind::General && entry.gdl_rules().is_some();
            let judged_otherwise = entry.kind == Kind::Puzzle || entry.plays_duels() || (cca && general_gdl);
            if !judged_otherwise
                && let Err(e) = entry.serves(Kind::TwoPlayer, "evolution by games, by duels or by puzzles")
            {
                cx.push(e.diagnostic("stratagem::experiment::game").at(cx.file, g.span, "this game"));
                return None;
            }
            Some(entry)
        }
        _ => {
            cx.push(
                Diagnostic::error("stratagem::experiment::game", format!("experiment `{name}` names no game"))
                    .at(cx.file, at, "needs `(game G)`")
                    .with_help(registry::list()),
            );
            None
        }
    }
}

/// Reports, and gives `None`, when primset `ps` does not fit `game`.
fn check_fits_game(cx: &mut Cx, ps: &PrimSet, game: &Entry, clauses: &Clauses) -> Option<()> {
    let Err(ds) = game.check_binding(ps) else { return Some(()) };
    cx.push(
        Diagnostic::error(
            "stratagem::experiment::primset-game",
            format!("primset `{}` does not fit the game {}", ps.name, game.name),
        )
        .at(cx.file, clauses.span("primset"), "this primset")
        .with_help("see the problems reported with it"),
    );
    cx.diags.extend(ds);
    None
}

/// `(trees NAME...)`: the trees that evolve, by default the primset's
/// required ones (a single F tree `eval` for a primset that declares none).
///
/// The champion is written as an `(individual ...)`, which the checker
/// accepts only with distinct tree names that include every tree the primset
/// requires; a run that evolved anything else could never write its
/// champion, so such a list is refused here, before any work.
fn lower_trees(cx: &mut Cx, ps: &PrimSet, clauses: &Clauses) -> Vec<(String, TypeId)> {
    let names = match clauses.get("trees") {
        Some(names) if !names.is_empty() => names,
        Some(_) => {
            clauses.malformed(cx, "trees", "(trees NAME...)");
            return Vec::new();
        }
        None if ps.tree_slots.is_empty() => return vec![("eval".into(), TypeId::F)],
        None => return ps.tree_slots.iter().filter(|s| !s.optional).map(|s| (s.name.clone(), s.ty)).collect(),
    };
    let mut trees: Vec<(String, TypeId)> = Vec::new();
    for n in names {
        let Some(name) = cx.expect_symbol(n, "a tree name") else { continue };
        if trees.iter().any(|(t, _)| t == name) {
            cx.error("stratagem::experiment::trees", n, format!("tree `{name}` is listed twice"), "duplicate");
            continue;
        }
        match ps.tree_slots.iter().find(|s| s.name == name) {
            Some(slot) => trees.push((slot.name.clone(), slot.ty)),
            None if ps.tree_slots.is_empty() => trees.push((name.to_owned(), TypeId::F)),
            None => {
                let slots: Vec<&str> = ps.tree_slots.iter().map(|s| s.name.as_str()).collect();
                let help = crate::diagnostic::suggest_or_list(name, slots.iter().copied(), "its trees");
                cx.push(
                    Diagnostic::error(
                        "stratagem::experiment::trees",
                        format!("primset `{}` has no tree `{name}`", ps.name),
                    )
                    .at(cx.file, n.span, "unknown tree")
                    .with_help(help),
                );
            }
        }
    }
    for slot in ps.tree_slots.iter().filter(|s| !s.optional) {
        if !names.iter().any(|n| n.as_symbol() == Some(slot.name.as_str())) {
            cx.push(
                Diagnostic::error(
                    "stratagem::experiment::trees",
                    format!("the trees evolved lack `{}`, which primset `{}` requires", slot.name, ps.name),
                )
                .at(cx.file, clauses.span("trees"), format!("no `{}` tree", slot.name))
                .with_help(format!(
                    "every individual of the primset has the tree `{}` (type {}), and the champion is written as one; \
                     add `{}` to the list",
                    slot.name,
                    ps.type_name(slot.ty),
                    slot.name
                )),
            );
        }
    }
    trees
}
