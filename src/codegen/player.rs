//! What a game's exporter of whole players is given and gives back.
//!
//! Most programs export as functions over their feature values
//! (src/export/features.rs): the caller computes the features. A game that
//! can write its own natives and observations out (the contest players of
//! Ant Wars) exports an individual of its primsets as a whole player
//! program instead. The game implements [`PlayerExporter`] under its folder
//! in src/games, the registry hands it out (`Entry::player_exporter`), and
//! `stratagem export` calls it without knowing which game it is.

use super::expr::Lang;
use crate::diagnostic::Diagnostic;
use crate::lang::{Individual, PrimSet};

/// A game's writer of whole player programs in C or Rust.
pub trait PlayerExporter: Sync {
    /// The program `name` of `origin`, whose primset `ps` is of this game's
    /// domain, as a whole player in `lang`. `individual` is the program with
    /// its trees simplified, or `None` when the program is a policy, a weight
    /// vector or a network (which the game refuses, saying what a player is).
    fn export(
        &self,
        ps: &PrimSet,
        individual: Option<&Individual>,
        lang: Lang,
        origin: &str,
        name: &str,
    ) -> Result<PlayerSource, Refusal>;
}

/// A player's source, and the warnings it comes with (a contest's size
/// limit exceeded), which the caller prints.
pub struct PlayerSource {
    pub text: String,
    pub warnings: Vec<Diagnostic>,
}

/// Why a program is not written out.
pub enum Refusal {
    /// The program is not a player of the game (the diagnostic says why).
    NotAPlayer(Diagnostic),
    /// What the game's player cannot compute, each a phrase ("the native
    /// `X`, ..."): the caller words the diagnostic, as it does for programs
    /// over features.
    Untranslatable(Vec<String>),
}
