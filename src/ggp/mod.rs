//! A General Game Playing player: `stratagem ggp serve` speaks the GGP
//! protocol (START, PLAY, STOP, ABORT, INFO over HTTP, as GGP-Base's game
//! server sends them) and plays any game whose rules our engines load.
//!
//! - [`http`]: one POST per connection, read within deadlines and limits,
//!   and the reply;
//! - [`connections`]: the bound on connections given a thread, and who
//!   makes room when it is reached;
//! - [`message`]: the messages, with the rules and moves found as text;
//! - [`player`]: who plays (`--player`), in the players' grammar;
//! - [`session`]: one match on a thread of its own (the game, the state,
//!   the player);
//! - [`server`]: the listener, a thread per admitted connection, the match
//!   being played (a second START gets `busy`), the deadlines.

pub mod connections;
pub mod http;
pub mod message;
pub mod player;
pub mod server;
pub mod session;
