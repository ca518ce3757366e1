//! `expect_*` helpers that lowering uses to take forms apart, each reporting a
//! "usage:" diagnostic when the shape is wrong.

use crate::diagnostic::{Diagnostic, FileId};
use crate::syntax::{Atom, Sexp, SexpKind};

/// A lowering context for one file: where diagnostics go and which file they name.
pub struct Cx<'d> {
    pub file: FileId,
    pub diags: &'d mut Vec<Diagnostic>,
}

impl Cx<'_> {
    pub fn error(&mut self, code: &'static str, sexp: &Sexp, message: impl Into<String>, label: impl Into<String>) {
        self.diags.push(Diagnostic::error(code, message).at(self.file, sexp.span, label));
    }

    /// Reports a malformed form with its usage line.
    pub fn usage(&mut self, sexp: &Sexp, usage: &str) {
        let head = sexp.head().unwrap_or("form");
        self.diags.push(
            Diagnostic::error("stratagem::lower::usage", format!("malformed `{head}`"))
                .at(self.file, sexp.span, "does not match the usage")
                .with_help(format!("usage: {usage}")),
        );
    }

    pub fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// The key of `opt`, one option `(KEY VALUE...)` of the form `form`
    /// whose keys are `options`, each allowed once (`seen` holds those read
    /// so far); `None` after reporting an unknown or malformed option (with
    /// "did you mean" or the form's usage, under `code`) or a repeated one.
    pub fn option_key(
        &mut self,
        opt: &Sexp,
        form: &str,
        code: &'static str,
        options: &[&'static str],
        usage: &str,
        seen: &mut Vec<&'static str>,
    ) -> Option<&'static str> {
        let Some(key) = options.iter().copied().find(|k| opt.head() == Some(*k)) else {
            let help = match opt.head().and_then(|k| crate::diagnostic::did_you_mean(k, options.iter().copied())) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("usage: {usage}"),
            };
            self.push(
                Diagnostic::error(code, format!("unknown or malformed option of `{form}`"))
                    .at(self.file, opt.span, "not an option")
                    .with_help(help),
            );
            return None;
        };
        if seen.contains(&key) {
            self.error("stratagem::experiment::duplicate", opt, format!("`{key}` is given twice"), "second setting");
            return None;
        }
        seen.push(key);
        Some(key)
    }

    /// The items of a list of exactly `n` elements, or a usage diagnostic.
    pub fn expect_len<'s>(&mut self, sexp: &'s Sexp, n: usize, usage: &str) -> Option<&'s [Sexp]> {
        match sexp.as_list() {
            Some(items) if items.len() == n => Some(items),
            _ => {
                self.usage(sexp, usage);
                None
            }
        }
    }

    /// Reports that `sexp` is not the `what` the form needs there.
    fn expected<T>(&mut self, sexp: &Sexp, what: &str) -> Option<T> {
        let found = format!("found {}", sexp.describe());
        self.error("stratagem::lower::expected", sexp, format!("expected {what}"), found);
        None
    }

    pub fn expect_symbol<'s>(&mut self, sexp: &'s Sexp, what: &str) -> Option<&'s str> {
        sexp.as_symbol().or_else(|| self.expected(sexp, what))
    }

    pub fn expect_list<'s>(&mut self, sexp: &'s Sexp, what: &str) -> Option<&'s [Sexp]> {
        sexp.as_list().or_else(|| self.expected(sexp, what))
    }

    /// A number as f64; integers are accepted where a float is expected in
    /// declarations (ranges, weights), where no type distinction is at stake.
    pub fn expect_number(&mut self, sexp: &Sexp, what: &str) -> Option<f64> {
        match sexp.kind {
            SexpKind::Atom(Atom::Float(x)) => Some(x),
            SexpKind::Atom(Atom::Int(i)) => Some(i as f64),
            _ => self.expected(sexp, what),
        }
    }

    pub fn expect_int(&mut self, sexp: &Sexp, what: &str) -> Option<i64> {
        match sexp.kind {
            SexpKind::Atom(Atom::Int(i)) => Some(i),
            _ => self.expected(sexp, what),
        }
    }
}
