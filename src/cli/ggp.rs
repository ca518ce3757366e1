//! `stratagem ggp serve`: a General Game Playing player on a port, for
//! GGP-Base's game server and the others that speak its protocol
//! (src/ggp holds the protocol and the matches).

use std::net::IpAddr;
use std::time::Duration;

use clap::Subcommand;

use super::{Failure, Outcome};
use crate::gdl::EngineChoice;
use crate::ggp::player::PlayerKind;
use crate::ggp::server::{self, Config};
use crate::limits::Limit;

#[derive(Subcommand, Debug)]
pub enum GgpCommand {
    /// Play GGP matches on a port: START, PLAY, STOP, ABORT and INFO over
    /// HTTP; one match at a time, a log line per match on stderr.
    Serve {
        /// The address to listen on. The default, 127.0.0.1, is reached only
        /// from this machine; a game server on another machine needs
        /// `--bind 0.0.0.0` (or this machine's address), and then anyone who
        /// reaches the port can start a match.
        #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
        bind: IpAddr,
        /// The port to listen on (0: a free one, named in the first log line).
        #[arg(long)]
        port: u16,
        /// Who plays: `uct` (Monte Carlo tree search until each deadline, the
        /// tree kept between moves), `random`, `legal` (the first legal move),
        /// or `gp:FILE:NAME` (also `FILE:NAME`), an evaluator over the gdl primset (a tree,
        /// network, policy or weight vector of FILE) searching by iterative
        /// deepening until each deadline.
        #[arg(long, default_value = "uct")]
        player: String,
        /// The engine that reasons over each match's rules.
        #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
        engine: EngineChoice,
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

pub fn run(command: GgpCommand) -> Outcome {
    let GgpCommand::Serve { bind, port, player, engine, margin, seed, learn } = command;
    if !(0.0..=60.0).contains(&margin) {
        return Err(Failure::message("stratagem::ggp::margin", format!("--margin {margin}: give 0 to 60 seconds")));
    }
    let player = PlayerKind::parse(&player)?;
    let config = Config {
        bind,
        port,
        player,
        engine,
        margin: Duration::from_secs_f64(margin),
        seed,
        learn,
        max_body: usize::try_from(Limit::GgpMessage.get()).unwrap_or(usize::MAX),
    };
    server::serve(config).map_err(|e| Failure::message("stratagem::ggp::listen", e))
}
