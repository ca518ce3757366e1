//! The primsets shipped with Stratagem, embedded in the binary so that
//! `(import arith)` works from any directory.

const PRIMSETS: &[(&str, &str)] = &[("arith", include_str!("../../programs/primsets/arith.sg"))];

/// The source text of a shipped primset.
pub fn primset_source(name: &str) -> Option<&'static str> {
    PRIMSETS.iter().find(|(n, _)| *n == name).map(|(_, src)| *src)
}

pub fn names() -> impl Iterator<Item = &'static str> {
    PRIMSETS.iter().map(|(n, _)| *n)
}
