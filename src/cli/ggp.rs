//! `stratagem ggp serve`: a General Game Playing player on a port, for
//! GGP-Base's game server and the others that speak its protocol
//! (src/ggp holds the protocol and the matches).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use clap::Subcommand;

use super::gdl::GdlEngine;
use super::{Failure, Outcome};
use crate::diagnostic::Diagnostic;
use crate::ggp::server::{self, Config};
use crate::ggp::session::{Evaluator, PlayerKind};
use crate::limits::Limit;
use crate::search::sampled::DEFAULT_SAMPLES;

#[derive(Subcommand, Debug)]
pub enum GgpCommand {
    /// Play GGP matches on a port: START, PLAY, STOP, ABORT and INFO over
    /// HTTP; one match at a time, a log line per match on stderr.
    Serve {
        /// The port to listen on (0: a free one, named in the first log line).
        #[arg(long)]
        port: u16,
        /// Who plays: `uct` (Monte Carlo tree search until each deadline, the
        /// tree kept between moves), `random`, `legal` (the first legal move),
        /// or `FILE:NAME`, an evaluator over the gdl primset (a tree,
        /// network, policy or weight vector of FILE) searching by iterative
        /// deepening until each deadline.
        #[arg(long, default_value = "uct")]
        player: String,
        /// The engine that reasons over each match's rules.
        #[arg(long, value_enum, default_value_t = GdlEngine::Auto)]
        engine: GdlEngine,
        /// Seconds kept back from every deadline for the reply and the network.
        #[arg(long, default_value_t = 1.0)]
        margin: f64,
        /// The seed of the players' random streams.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Learn an evaluator in each start clock, as nnrg.hazel did:
        /// covering coevolution of NEAT networks over the gdl primset (a
        /// population per role, 1-ply games) until a tenth of the clock is
        /// left; the best of the match's role then plays by iterative
        /// deepening. Where nothing is learnt (one role, too short a clock),
        /// `--player` plays.
        #[arg(long)]
        learn: bool,
    },
}

/// The player `--player` names; an evaluator is loaded and checked now, so
/// a bad file is an error before the server listens.
fn player_kind(text: &str) -> Result<PlayerKind, Failure> {
    match text {
        "uct" => return Ok(PlayerKind::Uct),
        "random" => return Ok(PlayerKind::Random),
        "legal" => return Ok(PlayerKind::Legal),
        _ => {}
    }
    let Some((file, name)) = text.rsplit_once(':').filter(|(f, n)| !f.is_empty() && !n.is_empty()) else {
        return Err(Failure::message(
            "stratagem::ggp::player",
            format!("--player {text}: give uct, random, legal or FILE:NAME (an evaluator over the gdl primset)"),
        ));
    };
    let (loader, ps_id, mut programs) = super::play::read_programs(Path::new(file), name, false)?;
    let ps = loader.module.primset(ps_id).clone();
    let domain = crate::games::gdl::DOMAIN;
    if ps.domain.as_deref() != Some(domain) {
        let d = Diagnostic::error(
            "stratagem::ggp::player",
            format!(
                "`{name}` evaluates with primset `{}`, of domain {}; GGP matches take evaluators over the `{domain}` \
                 primset",
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

pub fn run(command: GgpCommand) -> Outcome {
    let GgpCommand::Serve { port, player, engine, margin, seed, learn } = command;
    if !(0.0..=60.0).contains(&margin) {
        return Err(Failure::message("stratagem::ggp::margin", format!("--margin {margin}: give 0 to 60 seconds")));
    }
    let player = player_kind(&player)?;
    let config = Config {
        port,
        player,
        engine: engine.choice(),
        margin: Duration::from_secs_f64(margin),
        seed,
        learn,
        max_body: usize::try_from(Limit::InputSize.get()).unwrap_or(usize::MAX),
    };
    server::serve(config).map_err(|e| Failure::message("stratagem::ggp::listen", e))
}
