//! Who plays a GGP match (`ggp serve --player`), named in the players'
//! grammar.

use std::path::Path;
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Failure};
use crate::games::registry::GDL_DOMAIN;
use crate::lang::PrimSet;
use crate::limits::Limit;
use crate::players::programs::read_programs;
use crate::players::{EvalSpec, PlayerSpec};
use crate::search::alphabeta::SearchParams;
use crate::search::programs::Program;
use crate::search::sampled::DEFAULT_SAMPLES;

/// Who chooses the moves.
#[derive(Clone, Debug)]
pub enum PlayerKind {
    /// UCT until the deadline, the tree kept from move to move.
    Uct,
    /// A uniformly random legal move.
    Random,
    /// The first legal move (in the game's canonical order).
    Legal,
    /// An evaluator over the `gdl` primset, searching by iterative
    /// deepening until the deadline (`search::sampled`).
    Evaluator(Arc<Evaluator>),
}

/// An evolved evaluator as `--player FILE:NAME` loaded it: bound to each
/// match's game when the match starts.
#[derive(Debug)]
pub struct Evaluator {
    /// `FILE:NAME`, for the log.
    pub spec: String,
    pub ps: PrimSet,
    pub program: Program,
    /// The deepest search tried.
    pub max_depth: u32,
    /// Opposing joint moves sampled at a simultaneous turn.
    pub samples: u32,
}

impl PlayerKind {
    pub fn name(&self) -> &str {
        match self {
            PlayerKind::Uct => "uct",
            PlayerKind::Random => "random",
            PlayerKind::Legal => "legal",
            PlayerKind::Evaluator(e) => &e.spec,
        }
    }
}

impl PlayerKind {
    /// The player `text` names (`--player`): `uct`, `random`, `legal`, or
    /// `gp:FILE:NAME` (also written `FILE:NAME`), an evaluator over the gdl
    /// primset, loaded and checked now so that a bad file is an error before
    /// the server listens.
    pub fn parse(text: &str) -> Result<PlayerKind, Failure> {
        let refuse = || {
            Failure::message(
                "stratagem::ggp::player",
                format!("--player {text}: give uct, random, legal or gp:FILE:NAME (an evaluator over the gdl primset)"),
            )
        };
        let (file, name) = match PlayerSpec::parse(text) {
            Ok(PlayerSpec::UctOnTheClock) => return Ok(PlayerKind::Uct),
            Ok(PlayerSpec::Random) => return Ok(PlayerKind::Random),
            Ok(PlayerSpec::Legal) => return Ok(PlayerKind::Legal),
            Ok(PlayerSpec::Search { eval: EvalSpec::Gp { file, name }, params }) if params == SearchParams::full(1) => {
                (file, name)
            }
            Ok(_) => return Err(refuse()),
            // The older spelling, without `gp:`.
            Err(_) => match text.rsplit_once(':').filter(|(f, n)| !f.is_empty() && !n.is_empty()) {
                Some((file, name)) if !text.starts_with("gp:") => (file.to_owned(), name.to_owned()),
                _ => return Err(refuse()),
            },
        };
        let (loader, ps_id, mut programs) = read_programs(Path::new(&file), &name, false)?;
        let ps = loader.module.primset(ps_id).clone();
        let domain = GDL_DOMAIN;
        if ps.domain.as_deref() != Some(domain) {
            let d = Diagnostic::error(
                "stratagem::ggp::player",
                format!(
                    "`{name}` evaluates with primset `{}`, of domain {}; GGP matches take evaluators over the \
                     `{domain}` primset",
                    ps.name,
                    ps.domain.as_deref().map_or_else(|| "none".to_owned(), |d| format!("`{d}`"))
                ),
            )
            .with_help("write the program over (import gdl), which binds to any GDL game");
            return Err(Failure::new(loader.sources, vec![d]));
        }
        let program = programs.remove(0);
        Ok(PlayerKind::Evaluator(Arc::new(Evaluator {
            spec: text.to_owned(),
            ps,
            program,
            max_depth: u32::try_from(Limit::SearchDepth.get()).unwrap_or(u32::MAX),
            samples: DEFAULT_SAMPLES,
        })))
    }
}
