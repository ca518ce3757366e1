//! The primsets shipped with Stratagem, embedded in the binary so that
//! `(import arith)` works from any directory.

const PRIMSETS: &[(&str, &str)] = &[
    ("antwars", include_str!("../../programs/primsets/antwars.sg")),
    ("antwars-humant", include_str!("../../programs/primsets/antwars-humant.sg")),
    ("arith", include_str!("../../programs/primsets/arith.sg")),
    ("backgammon", include_str!("../../programs/primsets/backgammon.sg")),
    ("backgammon-plus", include_str!("../../programs/primsets/backgammon-plus.sg")),
    ("freecell", include_str!("../../programs/primsets/freecell.sg")),
    ("gdl", include_str!("../../programs/primsets/gdl.sg")),
    ("lose-checkers", include_str!("../../programs/primsets/lose-checkers.sg")),
    ("morris", include_str!("../../programs/primsets/morris.sg")),
    ("rush-hour", include_str!("../../programs/primsets/rush-hour.sg")),
];

/// The source text of a shipped primset.
pub fn primset_source(name: &str) -> Option<&'static str> {
    PRIMSETS.iter().find(|(n, _)| *n == name).map(|(_, src)| *src)
}

pub fn names() -> impl Iterator<Item = &'static str> {
    PRIMSETS.iter().map(|(n, _)| *n)
}

/// Loads a shipped primset by name, e.g. `arith`; `None` if there is no such
/// primset (shipped primsets always check cleanly, as the tests assert).
pub fn load_primset(name: &str) -> Option<super::PrimSet> {
    primset_source(name)?;
    let mut loader = super::Loader::new();
    loader.load_text("(library)", &format!("(import {name})"));
    let id = loader.module.find_primset(name)?;
    loader.diags.is_empty().then(|| loader.module.primset(id).clone())
}
