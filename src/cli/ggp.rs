//! `stratagem ggp serve`: a General Game Playing player on a port, for
//! GGP-Base's game server and the others that speak its protocol
//! (src/ggp holds the protocol and the matches).

use std::time::Duration;

use clap::{Subcommand, ValueEnum};

use super::gdl::GdlEngine;
use super::{Failure, Outcome};
use crate::ggp::server::{self, Config};
use crate::ggp::session::PlayerKind;
use crate::limits::Limit;

#[derive(Subcommand, Debug)]
pub enum GgpCommand {
    /// Play GGP matches on a port: START, PLAY, STOP, ABORT and INFO over
    /// HTTP; one match at a time, a log line per match on stderr.
    Serve {
        /// The port to listen on (0: a free one, named in the first log line).
        #[arg(long)]
        port: u16,
        #[arg(long, value_enum, default_value_t = GgpPlayer::Uct)]
        player: GgpPlayer,
        /// The engine that reasons over each match's rules.
        #[arg(long, value_enum, default_value_t = GdlEngine::Auto)]
        engine: GdlEngine,
        /// Seconds kept back from every deadline for the reply and the network.
        #[arg(long, default_value_t = 1.0)]
        margin: f64,
        /// The seed of the players' random streams.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
}

/// Who plays the matches.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GgpPlayer {
    /// Monte Carlo tree search (UCT) until the deadline, the tree kept between moves.
    Uct,
    /// A uniformly random legal move.
    Random,
    /// The first legal move.
    Legal,
}

pub fn run(command: GgpCommand) -> Outcome {
    let GgpCommand::Serve { port, player, engine, margin, seed } = command;
    if !(0.0..=60.0).contains(&margin) {
        return Err(Failure::message("stratagem::ggp::margin", format!("--margin {margin}: give 0 to 60 seconds")));
    }
    let player = match player {
        GgpPlayer::Uct => PlayerKind::Uct,
        GgpPlayer::Random => PlayerKind::Random,
        GgpPlayer::Legal => PlayerKind::Legal,
    };
    let config = Config {
        port,
        player,
        engine: engine.choice(),
        margin: Duration::from_secs_f64(margin),
        seed,
        max_body: usize::try_from(Limit::InputSize.get()).unwrap_or(usize::MAX),
    };
    server::serve(config).map_err(|e| Failure::message("stratagem::ggp::listen", e))
}
