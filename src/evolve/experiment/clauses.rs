//! The clauses of an experiment: each `(KEY VALUE...)` checked once, then read
//! by key with the usage errors every setting shares.

use super::KEYS;
use crate::diagnostic::{Diagnostic, did_you_mean};
use crate::lang::syntax_helpers::Cx;
use crate::syntax::{Sexp, Span};

/// The clauses of an experiment, `(KEY VALUE...)`, looked up by key.
pub(super) struct Clauses<'a> {
    list: &'a [Sexp],
}

impl<'a> Clauses<'a> {
    /// The clauses, after reporting any that is not `(KEY ...)` with a known
    /// key given once.
    pub(super) fn checked(cx: &mut Cx, list: &'a [Sexp]) -> Clauses<'a> {
        let mut seen: Vec<&str> = Vec::new();
        for clause in list {
            let Some(key) = clause.head() else {
                cx.error(
                    "stratagem::experiment::clause",
                    clause,
                    "expected `(KEY VALUE...)`",
                    format!("found {}", clause.describe()),
                );
                continue;
            };
            if !KEYS.contains(&key) {
                let mut d = Diagnostic::error(
                    "stratagem::experiment::unknown-key",
                    format!("unknown experiment setting `{key}`"),
                )
                .at(cx.file, clause.span, "not a setting");
                d = match did_you_mean(key, KEYS) {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None => d.with_help(format!("settings: {}", KEYS.join(", "))),
                };
                cx.push(d);
            } else if seen.contains(&key) {
                cx.error(
                    "stratagem::experiment::duplicate",
                    clause,
                    format!("`{key}` is given twice"),
                    "second setting",
                );
            }
            seen.push(key);
        }
        Clauses { list }
    }

    /// The values of clause `key`, if it is given.
    pub(super) fn get(&self, key: &str) -> Option<&'a [Sexp]> {
        self.list.iter().find(|c| c.head() == Some(key)).and_then(|c| c.as_list()).map(|l| &l[1..])
    }

    /// Where clause `key` is, for diagnostics about its value as a whole.
    pub(super) fn span(&self, key: &str) -> Span {
        self.list.iter().find(|c| c.head() == Some(key)).map_or(Span::default(), |c| c.span)
    }

    /// Reports clause `key` as not of the form `usage`.
    pub(super) fn malformed(&self, cx: &mut Cx, key: &str, usage: &str) {
        cx.push(Diagnostic::error("stratagem::experiment::usage", format!("usage: {usage}")).at(
            cx.file,
            self.span(key),
            "malformed",
        ));
    }

    /// `(KEY N)` with MIN <= N <= MAX; `default` when absent or reported.
    pub(super) fn int(&self, cx: &mut Cx, key: &str, default: i64, min: i64, max: i64) -> i64 {
        match self.get(key) {
            None => default,
            Some([v]) => match cx.expect_int(v, "an integer") {
                Some(n) if (min..=max).contains(&n) => n,
                Some(n) => {
                    cx.error(
                        "stratagem::experiment::range",
                        v,
                        format!("`{key}` must be between {min} and {max}, not {n}"),
                        "out of range",
                    );
                    default
                }
                None => default,
            },
            Some(_) => {
                self.malformed(cx, key, &format!("({key} N)"));
                default
            }
        }
    }

    /// `(KEY P)`, a probability; `default` when absent or reported.
    pub(super) fn probability(&self, cx: &mut Cx, key: &str, default: f64) -> f64 {
        match self.get(key) {
            None => default,
            Some([p]) => probability(cx, p, key),
            Some(_) => {
                self.malformed(cx, key, &format!("({key} P)"));
                default
            }
        }
    }

    /// `(KEY YES)` or `(KEY NO)`, true by default.
    pub(super) fn switch(&self, cx: &mut Cx, key: &str, yes: &str, no: &str) -> bool {
        match self.get(key) {
            None => true,
            Some([v]) if v.as_symbol() == Some(yes) => true,
            Some([v]) if v.as_symbol() == Some(no) => false,
            Some(_) => {
                self.malformed(cx, key, &format!("({key} {yes}) or ({key} {no})"));
                true
            }
        }
    }
}

/// A probability in [0, 1], the value of setting `key`; 0 after reporting.
pub(super) fn probability(cx: &mut Cx, v: &Sexp, key: &str) -> f64 {
    match cx.expect_number(v, "a probability") {
        Some(p) if (0.0..=1.0).contains(&p) => p,
        Some(p) => {
            cx.error(
                "stratagem::experiment::range",
                v,
                format!("`{key}` is a probability in [0, 1], not {p}"),
                "out of range",
            );
            0.0
        }
        None => 0.0,
    }
}

/// Reports an option that is not of the form `usage`.
pub(super) fn usage(cx: &mut Cx, opt: &Sexp, usage: &str) {
    cx.error("stratagem::experiment::usage", opt, format!("usage: {usage}"), "malformed");
}
