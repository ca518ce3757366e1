//! The registry: the one place where a game's name becomes its engine.
//!
//! Commands, experiments (`(game ...)`) and the REPL read a name with
//! [`lookup`], which answers unknown names with "did you mean" and the list
//! of games, then hand the [`Entry`] a task generic over the game type. What
//! a task needs is part of its type: a [`TwoPlayerTask`] (play, evolution by
//! games) runs only on two-player games, and [`Entry::two_player`] refuses
//! any other game with a diagnostic naming the game and what it lacks; a
//! [`GameTask`] (perft, the REPL) runs on every game, a [`PuzzleTask`]
//! (`solve`) on puzzles. No command matches on
//! game names itself, so a new game is one [`Entry`] and one arm of
//! [`Entry::run`] and [`Entry::run_two_player`].
//!
//! A name that ends in `.kif` is the path of a GDL game description: it is
//! read, compiled and turned into an entry here, at run time, and kept for
//! the rest of the process like the built-in entries (so entries stay
//! `&'static` for every caller, and the prover's reasoners can borrow the
//! game for good). Looking the same file up again, as experiments and the
//! REPL do, gives the same entry as long as its text is unchanged; a file
//! that changed is compiled again, and the old entry stays behind (a few
//! kilobytes of rules per reload).

use std::hash::Hash;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use super::Puzzle;
use super::antwars::AntWars;
use super::backgammon::Backgammon;
use super::checkers::Checkers;
use super::domain::{Binding, GpDomain, GpGame};
use super::duel::NamedPlayers;
use super::freecell::FreeCell;
use super::gdl::{self, GdlGame, GdlRules, GdlTwoPlayer};
use super::morris::Morris;
use super::rushhour::RushHour;
use crate::codegen::player::PlayerExporter;
use crate::diagnostic::{Diagnostic, Failure, Sources, did_you_mean};

/// The domain of every GDL game's primset (`gdl`): a program over it binds
/// to any game read from GDL rules.
pub use super::gdl::DOMAIN as GDL_DOMAIN;
use crate::lang::library;
use crate::limits::Limit;

/// What kind of game an entry is, by the views it implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Two players alternating, zero sum, perfect information
    /// ([`TwoPlayer`](super::TwoPlayer)): α-β, `play`, evolution by games.
    TwoPlayer,
    /// One role and a goal ([`Puzzle`](super::Puzzle)): IDA*, solvers.
    Puzzle,
    /// Two players alternating who each see only part of the state
    /// ([`Observe`](super::Observe)), played by named players
    /// ([`NamedPlayers`]):
    /// double-games, matches, `tournament`.
    Observed,
    /// Any other game of the model: n roles, chance, simultaneous moves.
    General,
}

impl Kind {
    /// The kind as `stratagem games` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::TwoPlayer => "two-player",
            Kind::Puzzle => "puzzle",
            Kind::Observed => "observed",
            Kind::General => "general",
        }
    }

    /// What a game of this kind is, for diagnostics.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::TwoPlayer => "a two-player alternating game",
            Kind::Puzzle => "a one-player puzzle",
            Kind::Observed => "a two-player game of partial observation with named players (built-in or `c:FILE.c`)",
            Kind::General => "a general game (n roles, chance or simultaneous moves)",
        }
    }
}

/// The engines the registry can build.
#[derive(Clone, Copy, Debug)]
enum Engine {
    LoseCheckers,
    Morris,
    MorrisNoFlying,
    RushHour,
    FreeCell,
    AntWars,
    Backgammon,
    /// A GDL game loaded from a file.
    Gdl(&'static GdlRules),
}

/// A registered game.
#[derive(Debug)]
pub struct Entry {
    /// The name commands, experiments and the REPL use.
    pub name: &'static str,
    /// One line for `stratagem games`.
    pub summary: &'static str,
    pub kind: Kind,
    /// The roles in order (the first moves first).
    pub roles: &'static [&'static str],
    /// What primsets for the game declare with `(domain NAME)`; variants of
    /// one game share a domain.
    pub domain: &'static str,
    engine: Engine,
}

/// Every game, in the order `stratagem games` lists them.
pub static GAMES: [Entry; 7] = [
    Entry {
        name: "lose-checkers",
        summary: "lose (giveaway) checkers: American checkers moves, the side without a move wins (seeds/001)",
        kind: Kind::TwoPlayer,
        roles: &["black", "white"],
        domain: "lose-checkers",
        engine: Engine::LoseCheckers,
    },
    Entry {
        name: "morris",
        summary: "Nine Men's Morris under OpenSpiel's rules: a player down to three men flies",
        kind: Kind::TwoPlayer,
        roles: &["white", "black"],
        domain: "morris",
        engine: Engine::Morris,
    },
    Entry {
        name: "morris-no-flying",
        summary: "Nine Men's Morris in two stages, placing and moving, without flying (seeds/002)",
        kind: Kind::TwoPlayer,
        roles: &["white", "black"],
        domain: "morris",
        engine: Engine::MorrisNoFlying,
    },
    Entry {
        name: "rush-hour",
        summary: "Rush Hour on 6×6 and 8×8 boards, slide metric: free the red car (seeds/000 section 4)",
        kind: Kind::Puzzle,
        roles: &["solver"],
        domain: "rush-hour",
        engine: Engine::RushHour,
    },
    Entry {
        name: "freecell",
        summary: "FreeCell, 8 cascades and 4 free cells, Microsoft's deals, safe automatic moves (seeds/001)",
        kind: Kind::Puzzle,
        roles: &["solver"],
        domain: "freecell",
        engine: Engine::FreeCell,
    },
    Entry {
        name: "antwars",
        summary: "Ant Wars (GECCO 2007): two ants on an 11×11 torus, 15 food, a 5×5 view, 35 moves each (seeds/003)",
        kind: Kind::Observed,
        roles: &["ant1", "ant2"],
        domain: "antwars",
        engine: Engine::AntWars,
    },
    Entry {
        name: "backgammon",
        summary: "backgammon without the cube: dice as chance, gnubg's Position IDs and notation, gammons (issue 61)",
        kind: Kind::General,
        roles: &["white", "black"],
        domain: "backgammon",
        engine: Engine::Backgammon,
    },
];

/// The names of every game.
pub fn names() -> impl Iterator<Item = &'static str> + Clone {
    GAMES.iter().map(|e| e.name)
}

/// The first built-in game whose primsets declare `(domain DOMAIN)` (variants
/// of one game share their domain and what they offer programs).
pub fn by_domain(domain: &str) -> Option<&'static Entry> {
    GAMES.iter().find(|e| e.domain == domain)
}

/// A game name that names no game, or a GDL file that does not load.
#[derive(Clone, Debug)]
pub struct UnknownGame {
    pub message: String,
    pub help: String,
    /// The diagnostics of a GDL description that does not compile, with the
    /// sources they point into.
    pub file: Option<(Sources, Vec<Diagnostic>)>,
}

impl UnknownGame {
    /// The problem as a diagnostic with code `code`; callers that know where
    /// the name was written add the span. A description's own diagnostics
    /// are in [`UnknownGame::file`].
    pub fn diagnostic(&self, code: &'static str) -> Diagnostic {
        Diagnostic::error(code, self.message.clone()).with_help(self.help.clone())
    }
}

impl std::fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}; {}", self.message, self.help)
    }
}

/// The list of games, for help texts.
pub fn list() -> String {
    format!(
        "games: {}, or the path of a GDL game description (GAME.kif) (`stratagem games` describes them)",
        names().collect::<Vec<_>>().join(", ")
    )
}

/// The game named `text`: the one parser of game names. A name ending in
/// `.kif` (any case) is the path of a GDL game description.
pub fn lookup(text: &str) -> Result<&'static Entry, UnknownGame> {
    if let Some(entry) = GAMES.iter().find(|e| e.name == text) {
        return Ok(entry);
    }
    if text.to_ascii_lowercase().ends_with(".kif") {
        return load_gdl(text);
    }
    let help = match did_you_mean(text, names()) {
        Some(s) => format!("did you mean `{s}`? {}", list()),
        None => list(),
    };
    Err(UnknownGame { message: format!("unknown game `{text}`"), help, file: None })
}

/// The GDL games loaded so far, by the path as written.
static LOADED: Mutex<Vec<&'static Entry>> = Mutex::new(Vec::new());

/// Reads and compiles the GDL description at `path`, or finds it loaded.
fn load_gdl(path: &str) -> Result<&'static Entry, UnknownGame> {
    let mut sources = Sources::new();
    let file = sources.load_within(Path::new(path), Limit::InputSize).map_err(|e| UnknownGame {
        message: format!("cannot read the GDL game `{path}`: {e}"),
        help: "a game name ending in `.kif` is the path of a GDL game description".to_owned(),
        file: None,
    })?;
    let text = sources.get(file).text.clone();
    let mut loaded = LOADED.lock().unwrap_or_else(PoisonError::into_inner);
    let same = |e: &&&'static Entry| e.name == path && matches!(e.engine, Engine::Gdl(r) if r.text == text);
    if let Some(entry) = loaded.iter().find(same) {
        return Ok(entry);
    }
    let rules = GdlRules::compile(path, sources, file).map_err(|(sources, diags)| UnknownGame {
        message: format!("`{path}` is not a GDL game this build can play"),
        help: format!("`stratagem gdl check {path}` shows the problems"),
        file: Some((sources, diags)),
    })?;
    let entry = gdl_entry(path, rules);
    loaded.push(entry);
    Ok(entry)
}

/// The GDL games made from texts so far (`ggp serve`), by text and engine.
static FROM_TEXT: Mutex<Vec<(crate::gdl::EngineChoice, &'static Entry)>> = Mutex::new(Vec::new());

/// The GDL game whose rules are `text` (a game description as a GGP game
/// server sends it, the rules without their enclosing list), named `name`
/// in messages, reasoned over by `engine` (with `auto`, the compiled engine
/// when the game compiles, else the prover). Names are compared case and
/// all, as GGP-Base's game server compares them ([`crate::gdl::Case`]): in
/// the few games that spell a name two ways, a player reading them as one
/// would play another game than the server's. The same text and engine give
/// the same entry, so a server that plays one game again and again compiles
/// it once; every other text is kept for the process, as files are.
/// Under `auto` the compiled engine must be ready by `until` (the start
/// clock), else the game is played on the prover; the entry is kept so,
/// and the next match of the same rules is played on the prover too.
///
/// The list is not locked while the rules compile: a game that takes long to
/// load must not hold up the next match's (`ggp serve` goes on to the next
/// match when the server stops one still loading). Two loads of one text at
/// once both compile it; the first kept is the one used after.
pub fn gdl_from_text(
    name: &str,
    text: &str,
    engine: crate::gdl::EngineChoice,
    until: Option<std::time::Instant>,
) -> Result<&'static Entry, UnknownGame> {
    let same = |(e, entry): &&(crate::gdl::EngineChoice, &'static Entry)| {
        *e == engine && matches!(entry.engine, Engine::Gdl(r) if *r.text == *text)
    };
    if let Some((_, entry)) = FROM_TEXT.lock().unwrap_or_else(PoisonError::into_inner).iter().find(same) {
        return Ok(entry);
    }
    let mut sources = Sources::new();
    let file = sources.add(name.to_owned(), None, text.to_owned());
    let rules = GdlRules::compile_with(name, sources, file, engine, crate::gdl::Case::Sensitive, until).map_err(
        |(sources, diags)| UnknownGame {
            message: format!("`{name}` is not a GDL game this build can play"),
            help: "the rules' diagnostics follow".to_owned(),
            file: Some((sources, diags)),
        },
    )?;
    let mut loaded = FROM_TEXT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, entry)) = loaded.iter().find(same) {
        return Ok(entry);
    }
    let entry = gdl_entry(name, rules);
    loaded.push((engine, entry));
    Ok(entry)
}

/// An entry for rules compiled at run time, kept for the process.
fn gdl_entry(name: &str, rules: GdlRules) -> &'static Entry {
    let rules: &'static GdlRules = Box::leak(Box::new(rules));
    let roles: Vec<&'static str> = rules.roles().iter().map(|r| &*Box::leak(r.clone().into_boxed_str())).collect();
    let kind = if rules.is_alternating() { Kind::TwoPlayer } else { Kind::General };
    let summary =
        format!("GDL game with {} roles{}", roles.len(), if kind == Kind::TwoPlayer { ", alternating" } else { "" });
    Box::leak(Box::new(Entry {
        name: Box::leak(name.to_owned().into_boxed_str()),
        summary: Box::leak(summary.into_boxed_str()),
        kind,
        roles: Box::leak(roles.into_boxed_slice()),
        domain: gdl::DOMAIN,
        engine: Engine::Gdl(rules),
    }))
}

/// A request a game cannot serve: which game, what it is, what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub game: &'static str,
    pub kind: Kind,
    /// What asked, e.g. "`play`".
    pub request: String,
    /// The kind of game the request needs.
    pub needs: Kind,
}

impl Unsupported {
    pub fn diagnostic(&self, code: &'static str) -> Diagnostic {
        Diagnostic::error(
            code,
            format!(
                "{} needs {}, and `{}` is {}",
                self.request,
                self.needs.describe(),
                self.game,
                self.kind.describe()
            ),
        )
        .with_help(format!("games of that kind: {}", names_of(self.needs).join(", ")))
    }
}

/// A command's or a library call's refusal of the request.
impl From<Unsupported> for Failure {
    fn from(e: Unsupported) -> Failure {
        Failure::new(Sources::new(), vec![e.diagnostic("stratagem::game::kind")])
    }
}

/// The names of the games of `kind`.
/// Serves a foreign program's child of `kind` ([`crate::foreign`]): the
/// game that owns the kind answers; the process's exit status.
pub fn serve_foreign_child(kind: &str, args: &[String]) -> u8 {
    match kind {
        super::antwars::c_sandbox::CHILD_KIND => super::antwars::c_sandbox::serve(args),
        _ => 2,
    }
}

pub fn names_of(kind: Kind) -> Vec<&'static str> {
    GAMES.iter().filter(|e| e.kind == kind).map(|e| e.name).collect()
}

/// Work generic over every game (perft, the REPL).
pub trait GameTask {
    type Output;
    fn run<G: GpDomain + Send + 'static>(self, game: G) -> Self::Output
    where
        G::State: Send + Sync + 'static,
        G::Move: Send + Sync + 'static;
}

/// Work generic over puzzles (`solve`).
pub trait PuzzleTask {
    type Output;
    fn run<
        G: GpDomain + Puzzle<State: Hash + Eq + Send + Sync + 'static, Move: Send + Sync + 'static> + Send + 'static,
    >(
        self,
        game: G,
    ) -> Self::Output;
}

/// Work generic over games played by named players (`tournament`, `play`
/// on Ant Wars): the `observed` games.
pub trait DuelTask {
    type Output;
    fn run<G: NamedPlayers + Send + 'static>(self, game: G) -> Self::Output;
}

/// Work generic over two-player games (play, evolution by games).
pub trait TwoPlayerTask {
    type Output;
    fn run<G: GpGame>(self, game: G) -> Self::Output;
}

impl Entry {
    /// Runs `task` on this game's engine.
    pub fn run<T: GameTask>(&self, task: T) -> T::Output {
        match self.engine {
            Engine::LoseCheckers => task.run(Checkers::lose()),
            Engine::Morris => task.run(Morris::standard()),
            Engine::MorrisNoFlying => task.run(Morris::no_flying()),
            Engine::RushHour => task.run(RushHour),
            Engine::FreeCell => task.run(FreeCell),
            Engine::AntWars => task.run(AntWars),
            Engine::Backgammon => task.run(Backgammon),
            Engine::Gdl(rules) => task.run(GdlGame::new(rules)),
        }
    }

    /// Runs `task` on this game's engine if it is a puzzle; otherwise says
    /// that `request` needs one.
    pub fn run_puzzle<T: PuzzleTask>(&self, request: &str, task: T) -> Result<T::Output, Unsupported> {
        self.serves(Kind::Puzzle, request)?;
        match self.engine {
            Engine::RushHour => Ok(task.run(RushHour)),
            Engine::FreeCell => Ok(task.run(FreeCell)),
            _ => Err(self.unsupported(Kind::Puzzle, request)),
        }
    }

    /// The warnings of a GDL description (rules the prover leaves out), with
    /// the sources they point into; `None` for built-in games.
    pub fn warnings(&self) -> Option<(&'static Sources, &'static [Diagnostic])> {
        match self.engine {
            Engine::Gdl(rules) => Some((&rules.sources, &rules.warnings)),
            _ => None,
        }
    }

    /// The rules of a GDL game; `None` for built-in games.
    pub fn gdl_rules(&self) -> Option<&'static GdlRules> {
        match self.engine {
            Engine::Gdl(rules) => Some(rules),
            _ => None,
        }
    }

    /// For a GDL game, which engine reasons over it (compiled or the
    /// prover) and why; `None` for built-in games.
    pub fn engine_note(&self) -> Option<&'static str> {
        match self.engine {
            Engine::Gdl(rules) => Some(rules.engine_note()),
            _ => None,
        }
    }

    /// For a GDL game, the engine that reasons over it: `compiled` or
    /// `prover`; `None` for built-in games.
    pub fn engine_name(&self) -> Option<&'static str> {
        match self.engine {
            Engine::Gdl(rules) => Some(rules.engine_name()),
            _ => None,
        }
    }

    /// Runs `task` on this game's engine if it is a two-player game;
    /// otherwise says that `request` needs one.
    pub fn run_two_player<T: TwoPlayerTask>(&self, request: &str, task: T) -> Result<T::Output, Unsupported> {
        self.serves(Kind::TwoPlayer, request)?;
        Ok(match self.engine {
            Engine::LoseCheckers => task.run(Checkers::lose()),
            Engine::Morris => task.run(Morris::standard()),
            Engine::MorrisNoFlying => task.run(Morris::no_flying()),
            Engine::Gdl(rules) => task.run(GdlTwoPlayer::new(rules)),
            Engine::RushHour | Engine::FreeCell | Engine::AntWars | Engine::Backgammon => {
                return Err(self.unsupported(Kind::TwoPlayer, request));
            }
        })
    }

    /// Runs `task` on this game's engine if its players are named
    /// ([`Kind::Observed`]); otherwise says that `request` needs such a game.
    pub fn run_duel<T: DuelTask>(&self, request: &str, task: T) -> Result<T::Output, Unsupported> {
        match self.engine {
            Engine::AntWars => Ok(task.run(AntWars)),
            Engine::Backgammon => Ok(task.run(Backgammon)),
            _ => Err(self.unsupported(Kind::Observed, request)),
        }
    }

    /// Whether the game is also a game of named players ([`DuelTask`]):
    /// the `observed` games, and backgammon, whose double-games throw the
    /// same dice both ways and whose players it reads itself. Tournaments
    /// and evolution judge such games by double-games and matches.
    pub fn plays_duels(&self) -> bool {
        matches!(self.engine, Engine::AntWars | Engine::Backgammon)
    }

    /// The named players a champion of this game is first measured
    /// against (`tournament --players CHAMPION,...`), for games of named
    /// players.
    pub fn benchmark_players(&self) -> &'static str {
        match self.engine {
            Engine::AntWars => "greedy,random",
            Engine::Backgammon => "pubeval,random",
            _ => "random",
        }
    }

    /// How this game writes an individual of its primsets out as a whole
    /// player program (`stratagem export --format c|rust`); `None` for a
    /// game whose programs export as functions over their features.
    pub fn player_exporter(&self) -> Option<&'static dyn PlayerExporter> {
        match self.engine {
            Engine::AntWars => Some(&super::antwars::export::ContestPlayers),
            _ => None,
        }
    }

    /// Whether this game is of `kind`, as `request` needs.
    pub fn serves(&self, kind: Kind, request: &str) -> Result<(), Unsupported> {
        if self.kind == kind { Ok(()) } else { Err(self.unsupported(kind, request)) }
    }

    fn unsupported(&self, needs: Kind, request: &str) -> Unsupported {
        Unsupported { game: self.name, kind: self.kind, request: request.to_owned(), needs }
    }

    /// The shipped primsets (`(import NAME)`) that bind to this game.
    pub fn primsets(&self) -> Vec<&'static str> {
        struct Binds(Kind);
        impl GameTask for Binds {
            type Output = Vec<&'static str>;
            fn run<G: GpDomain + Send + 'static>(self, game: G) -> Vec<&'static str>
            where
                G::State: Send + Sync + 'static,
                G::Move: Send + Sync + 'static,
            {
                library::names()
                    .filter(|name| library::load_primset(name).is_some_and(|ps| bind(&game, &ps, self.0).is_ok()))
                    .collect()
            }
        }
        self.run(Binds(self.kind))
    }

    /// Binds a primset to this game: the binding, or the diagnostics of every
    /// name and type that does not fit.
    pub fn check_binding(&self, ps: &crate::lang::PrimSet) -> Result<(), Vec<Diagnostic>> {
        struct Check<'a>(&'a crate::lang::PrimSet, Kind);
        impl GameTask for Check<'_> {
            type Output = Result<(), Vec<Diagnostic>>;
            fn run<G: GpDomain + Send + 'static>(self, game: G) -> Self::Output
            where
                G::State: Send + Sync + 'static,
                G::Move: Send + Sync + 'static,
            {
                bind(&game, self.0, self.1)
            }
        }
        self.run(Check(ps, self.kind))
    }
}

/// Binds `ps` to `game` as programs evaluate it: a puzzle's search nodes
/// (its heuristics guide a search), any other game's positions.
fn bind<G: GpDomain>(game: &G, ps: &crate::lang::PrimSet, kind: Kind) -> Result<(), Vec<Diagnostic>> {
    match kind {
        Kind::Puzzle => Binding::for_search(game, ps).map(|_| ()),
        _ => game.check_primset(ps),
    }
}

/// `stratagem games --format json`: every game with its kind, roles, domain
/// and the shipped primsets that bind to it.
pub fn describe_json() -> serde_json::Value {
    serde_json::Value::Array(
        GAMES
            .iter()
            .map(|e| {
                serde_json::json!({
                    "name": e.name,
                    "kind": e.kind.name(),
                    "roles": e.roles,
                    "domain": e.domain,
                    "primsets": e.primsets(),
                    "summary": e.summary,
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_matches_its_engine() {
        struct Facts;
        impl GameTask for Facts {
            type Output = (String, Vec<String>);
            fn run<G: GpDomain + Send + 'static>(self, game: G) -> Self::Output
            where
                G::State: Send + Sync + 'static,
                G::Move: Send + Sync + 'static,
            {
                let roles = (0..game.n_roles()).map(|r| game.role_name(r as u8).to_owned()).collect();
                (format!("{} {}", game.name(), game.domain()), roles)
            }
        }
        for entry in &GAMES {
            let (name_domain, roles) = entry.run(Facts);
            assert_eq!(name_domain, format!("{} {}", entry.name, entry.domain));
            assert_eq!(roles, entry.roles);
        }
    }

    #[test]
    fn names_are_looked_up_with_suggestions() {
        assert_eq!(lookup("morris").ok().map(|e| e.name), Some("morris"));
        let err = lookup("morris-noflying").expect_err("not a game");
        assert_eq!(err.message, "unknown game `morris-noflying`");
        assert!(err.help.starts_with("did you mean `morris-no-flying`?"), "{}", err.help);
        assert!(err.help.contains("lose-checkers, morris, morris-no-flying"), "{}", err.help);
        let err = lookup("chess").expect_err("not a game");
        assert!(err.help.starts_with("games: "), "{}", err.help);
        let err = lookup("no/such/ticTacToe.KIF").expect_err("no such file");
        assert!(err.message.starts_with("cannot read the GDL game `no/such/ticTacToe.KIF`"), "{}", err.message);
    }

    #[test]
    fn a_request_of_the_wrong_kind_names_the_game_and_what_it_lacks() {
        let puzzle = Entry {
            name: "sliding-blocks",
            summary: "",
            kind: Kind::Puzzle,
            roles: &["solver"],
            domain: "sliding-blocks",
            engine: Engine::Morris,
        };
        let err = puzzle.serves(Kind::TwoPlayer, "`play`").expect_err("a puzzle is not two-player");
        let d = err.diagnostic("stratagem::game::kind");
        assert_eq!(d.help.as_deref(), Some("games of that kind: lose-checkers, morris, morris-no-flying"));
        let text = d.message;
        assert_eq!(text, "`play` needs a two-player alternating game, and `sliding-blocks` is a one-player puzzle");
        assert!(GAMES[0].serves(Kind::TwoPlayer, "`play`").is_ok());
    }

    #[test]
    fn shipped_primsets_bind_to_their_games() {
        assert_eq!(GAMES[0].primsets(), ["lose-checkers"]);
        assert_eq!(GAMES[1].primsets(), ["morris"]);
        assert_eq!(GAMES[2].primsets(), ["morris"]);
        assert_eq!(GAMES[3].primsets(), ["rush-hour"], "bound to search nodes");
        assert_eq!(GAMES[4].primsets(), ["freecell"], "the nine heuristics, bound to positions and search nodes");
        assert_eq!(GAMES[5].primsets(), ["antwars", "antwars-humant"], "bound to ant sights (view and memory)");
        assert_eq!(GAMES[6].primsets(), ["backgammon", "backgammon-plus"], "GP-Gammon's, and with additions");
    }

    #[test]
    fn domains_find_their_games_and_only_ant_wars_exports_whole_players() {
        assert_eq!(by_domain("morris").map(|e| e.name), Some("morris"), "the first of the variants");
        assert_eq!(by_domain("antwars").map(|e| e.name), Some("antwars"));
        assert!(by_domain("chess").is_none());
        let exporters: Vec<&str> = GAMES.iter().filter(|e| e.player_exporter().is_some()).map(|e| e.name).collect();
        assert_eq!(exporters, ["antwars"], "the other games' programs export as functions over features");
    }
}
