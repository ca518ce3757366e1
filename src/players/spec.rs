//! The one grammar of players, which `play`, `tournament`, `ggp serve`
//! and experiments' `(versus "PLAYER" ...)` take (docs/PLAYERS.md):
//!
//! ```text
//! random                                   a uniformly random legal move
//! pubeval                                  backgammon: the play Pubeval scores highest
//! legal                                    the first legal move (ggp serve)
//! alphabeta:D:material                     α-β of depth D, material evaluation (the benchmark)
//! alphabeta:D:random                       α-β of depth D, random evaluation (the papers' guide)
//! gp:FILE:NAME                             program NAME of FILE evaluating the moves' positions
//!                                          (one ply; in ggp serve, iterative deepening to each deadline)
//! gp:FILE:NAME:alphabeta:D                 α-β of depth D evaluating with program NAME: an
//!                                          individual's eval tree, a policy, a weight vector or a network
//! gp:FILE:NAME:select:D:ratio=R            ... with SelectiveSearchRatio R
//! gp:FILE:NAME:select:D:maxbranch=M:full=F ... with MaxBranchingFactor M, FullSearchDepth F
//! ...:ties=first                           any searching player: classical α-β, first best move
//! ...:perspective=root                     evaluate leaves for the searching player, not the side to move
//! ...:samples=K                            opposing joint moves sampled at a simultaneous turn (4), in
//!                                          games other than two players taking turns (`search::sampled`)
//! uct                                      UCT until each deadline (ggp serve)
//! uct:N                                    UCT (Monte Carlo tree search) of N iterations a move
//! uct:ms=M                                 ... of M milliseconds a move
//! uct:...:c=C                              ... with UCB1's exploration constant C (0–100 scale; 40)
//! ```
//! A game may name players of its own, which its registry entry parses
//! (Ant Wars: `greedy`, `c:FILE.c`). Selective players rank siblings with
//! the individual's `order` tree when it has one, else with what evaluates
//! leaves (its `eval` tree, the policy or the weight vector).

use crate::limits::Limit;
use crate::search::alphabeta::{Perspective, SearchParams, Ties};
use crate::search::uct::{Think, UctParams};

/// How a searching player evaluates positions.
#[derive(Debug, Clone, PartialEq)]
pub enum EvalSpec {
    Material,
    Random,
    /// Program `name` (an individual, a policy or a weight vector) of file `file`.
    Gp {
        file: String,
        name: String,
    },
}

/// A player as named on the command line.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayerSpec {
    Random,
    Search {
        eval: EvalSpec,
        params: SearchParams,
    },
    Uct {
        params: UctParams,
        think: Think,
    },
    /// `uct` with no budget: UCT until each deadline (`ggp serve`, whose
    /// game server sets the clock).
    UctOnTheClock,
    /// `legal`: the first legal move (`ggp serve`).
    Legal,
}

const SPEC_HELP: &str = "players: random | legal | pubeval (backgammon) | uct | alphabeta:D:material | alphabeta:D:random | gp:FILE:NAME:alphabeta:D | \
                         gp:FILE:NAME:select:D:ratio=R | gp:FILE:NAME:select:D:maxbranch=M[:full=F] | \
                         uct:N | uct:ms=M (UCT of N iterations or M ms a move; :c=C sets its exploration); \
                         a searching player takes :ties=first for classical first-best-move α-β and \
                         :perspective=root to evaluate leaves for the searching player; in games of \
                         simultaneous moves or more than two roles, :samples=K sets the opposing joint \
                         moves a searching player samples at a simultaneous turn (4)";

impl PlayerSpec {
    /// Parses a player spec; the error says what is wrong and lists the forms.
    pub fn parse(text: &str) -> Result<PlayerSpec, String> {
        Self::parse_parts(text).map_err(|e| format!("{e}\n{SPEC_HELP}"))
    }

    fn parse_parts(text: &str) -> Result<PlayerSpec, String> {
        let parts: Vec<&str> = text.split(':').collect();
        let depth = |s: &str| -> Result<u32, String> {
            let limit = Limit::SearchDepth;
            match s.parse::<u32>() {
                Ok(0) | Err(_) => Err(format!("`{s}` is not a search depth (a whole number from 1)")),
                Ok(d) => limit.check(u64::from(d), &format!("search depth {d}")).map(|()| d),
            }
        };
        let search_option = |opt: &str, params: &mut SearchParams| -> Result<(), String> {
            match opt.split_once('=') {
                Some(("ties", "random")) => params.ties = Ties::Random,
                Some(("ties", "first")) => params.ties = Ties::First,
                Some(("ties", other)) => return Err(format!("ties `{other}` must be `random` or `first`")),
                Some(("perspective", "mover")) => params.perspective = Perspective::Mover,
                Some(("perspective", "root")) => params.perspective = Perspective::Root,
                Some(("perspective", other)) => return Err(format!("perspective `{other}` must be `mover` or `root`")),
                Some(("samples", k)) => match k.parse::<u32>() {
                    Ok(k) if (1..=10_000).contains(&k) => params.samples = k,
                    _ => return Err(format!("samples `{k}` must be a whole number from 1 to 10000")),
                },
                _ => {
                    return Err(format!(
                        "unknown option `{opt}` (ties=random|first, perspective=mover|root, samples=K)"
                    ));
                }
            };
            Ok(())
        };
        match parts.as_slice() {
            ["random"] => Ok(PlayerSpec::Random),
            ["legal"] => Ok(PlayerSpec::Legal),
            ["uct"] => Ok(PlayerSpec::UctOnTheClock),
            ["uct", budget, options @ ..] if options.len() <= 1 => {
                let think = match budget.split_once('=') {
                    Some(("ms", ms)) => match ms.parse::<u64>() {
                        Ok(ms) if ms >= 1 => Think::Time(std::time::Duration::from_millis(ms)),
                        _ => return Err(format!("ms `{ms}` must be a whole number of milliseconds from 1")),
                    },
                    None => match budget.parse::<u64>() {
                        Ok(n) if n >= 1 => Think::Iterations(n),
                        _ => return Err(format!("`{budget}` is not a number of iterations (a whole number from 1)")),
                    },
                    Some(_) => return Err(format!("`{budget}`: give iterations N or ms=M")),
                };
                let mut params = UctParams::default();
                for opt in options {
                    match opt.split_once('=') {
                        Some(("c", c)) => match c.parse::<f64>() {
                            Ok(c) if (0.0..=1000.0).contains(&c) => params.exploration = c,
                            _ => return Err(format!("c `{c}` must be a number from 0 to 1000")),
                        },
                        _ => return Err(format!("unknown option `{opt}` (c=C)")),
                    }
                }
                Ok(PlayerSpec::Uct { params, think })
            }
            ["alphabeta", d, eval, options @ ..] if options.len() <= 3 => {
                let eval = match *eval {
                    "material" => EvalSpec::Material,
                    "random" => EvalSpec::Random,
                    other => return Err(format!("unknown evaluation `{other}` (material or random)")),
                };
                let mut params = SearchParams::full(depth(d)?);
                for opt in options {
                    search_option(opt, &mut params)?;
                }
                Ok(PlayerSpec::Search { eval, params })
            }
            ["gp", file, name, rest @ ..] if !file.is_empty() && !name.is_empty() => {
                let eval = EvalSpec::Gp { file: (*file).to_owned(), name: (*name).to_owned() };
                let params = match rest {
                    [] => SearchParams::full(1),
                    ["alphabeta", d, options @ ..] if options.len() <= 3 => {
                        let mut params = SearchParams::full(depth(d)?);
                        for opt in options {
                            search_option(opt, &mut params)?;
                        }
                        params
                    }
                    ["select", d, options @ ..] if !options.is_empty() => {
                        let mut params = SearchParams::full(depth(d)?);
                        for opt in options.iter() {
                            match opt.split_once('=') {
                                Some(("ratio", r)) => match r.parse::<f64>() {
                                    Ok(r) if r > 0.0 && r <= 1.0 => params.selective_ratio = Some(r),
                                    _ => return Err(format!("ratio `{r}` must be in (0, 1]")),
                                },
                                Some(("maxbranch", m)) => match m.parse::<usize>() {
                                    Ok(m) if m >= 1 => params.max_branching = Some(m),
                                    _ => return Err(format!("maxbranch `{m}` must be a positive integer")),
                                },
                                Some(("full", f)) => match f.parse::<u32>() {
                                    Ok(f) => params.full_search_depth = f,
                                    _ => return Err(format!("full `{f}` must be a non-negative integer")),
                                },
                                Some(("ties" | "perspective", _)) => search_option(opt, &mut params)?,
                                _ => {
                                    return Err(format!(
                                        "unknown option `{opt}` (ratio=R, maxbranch=M, full=F, ties=random|first, \
                                         perspective=mover|root)"
                                    ));
                                }
                            }
                        }
                        if !params.is_selective() {
                            return Err("select needs ratio=R or maxbranch=M".into());
                        }
                        params
                    }
                    _ => return Err(format!("`{}` is not a search (alphabeta:D or select:D:...)", rest.join(":"))),
                };
                Ok(PlayerSpec::Search { eval, params })
            }
            _ => Err(format!("unknown player `{text}`")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse() {
        assert_eq!(PlayerSpec::parse("random"), Ok(PlayerSpec::Random));
        assert_eq!(
            PlayerSpec::parse("alphabeta:4:material"),
            Ok(PlayerSpec::Search { eval: EvalSpec::Material, params: SearchParams::full(4) })
        );
        let Ok(PlayerSpec::Search { params, .. }) = PlayerSpec::parse("gp:f.sg:r1:select:4:maxbranch=5:full=2") else {
            panic!("select spec")
        };
        assert_eq!((params.depth, params.max_branching, params.full_search_depth), (4, Some(5), 2));
        let Ok(PlayerSpec::Search { params, .. }) = PlayerSpec::parse("gp:f.sg:r1:select:3:ratio=0.75") else {
            panic!("ratio spec")
        };
        assert_eq!(params.selective_ratio, Some(0.75));
        let first = |text: &str| match PlayerSpec::parse(text) {
            Ok(PlayerSpec::Search { params, .. }) => params.ties == Ties::First,
            _ => false,
        };
        assert!(first("alphabeta:4:material:ties=first"));
        assert!(first("gp:f.sg:r1:alphabeta:3:ties=first"));
        assert!(first("gp:f.sg:r1:select:3:ratio=0.75:ties=first"));
        assert!(!first("alphabeta:4:material"));
        let Ok(PlayerSpec::Search { params, .. }) = PlayerSpec::parse("gp:f.sg:r1:alphabeta:3:perspective=root") else {
            panic!("perspective spec")
        };
        assert_eq!(params.perspective, Perspective::Root);
        let Ok(PlayerSpec::Search { params, .. }) = PlayerSpec::parse("alphabeta:2:random:samples=9") else {
            panic!("samples spec")
        };
        assert_eq!((params.depth, params.samples), (2, 9));
        assert_eq!(
            PlayerSpec::parse("uct:500"),
            Ok(PlayerSpec::Uct { params: UctParams::default(), think: Think::Iterations(500) })
        );
        let Ok(PlayerSpec::Uct { params, think }) = PlayerSpec::parse("uct:ms=250:c=30") else { panic!("uct ms") };
        assert_eq!((params.exploration, think), (30.0, Think::Time(std::time::Duration::from_millis(250))));
        assert_eq!(PlayerSpec::parse("uct"), Ok(PlayerSpec::UctOnTheClock));
        assert_eq!(PlayerSpec::parse("legal"), Ok(PlayerSpec::Legal));
        for bad in [
            "uct:",
            "uct:0",
            "uct:ms=x",
            "uct:s=3",
            "uct:10:c=-1",
            "uct:10:d=1",
            "",
            "alphabeta:0:material",
            "alphabeta:3:clever",
            "gp:f.sg",
            "gp:f.sg:x:select:3",
            "gp:f:x:select:3:ratio=2",
            "alphabeta:4:material:ties=sometimes",
            "alphabeta:4:material:first",
            "gp:f:x:alphabeta:3:ties=first:ties=first:ties=first:ties=first",
            "alphabeta:2:random:samples=0",
            "gp:f:x:alphabeta:3:perspective=left",
            "minimax",
        ] {
            assert!(PlayerSpec::parse(bad).is_err(), "{bad}");
        }
    }
}
