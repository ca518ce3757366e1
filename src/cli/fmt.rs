//! `stratagem fmt FILE... [--check]`: canonical layout, comments kept.

use std::path::{Path, PathBuf};

use super::{Failure, Outcome, out};
use crate::diagnostic::{Diagnostic, Sources};
use crate::syntax::{lexer::comments, pretty::format_source, read};

pub fn run(files: &[PathBuf], check: bool) -> Outcome {
    let mut sources = Sources::new();
    let mut diags = Vec::new();
    let mut changed = Vec::new();
    for path in files {
        let file = match sources.load(path) {
            Ok(f) => f,
            Err(e) => {
                diags.push(Diagnostic::error("stratagem::io", format!("cannot read `{}`: {e}", path.display())));
                continue;
            }
        };
        let text = sources.get(file).text.clone();
        let (forms, read_diags) = read(file, &text);
        if !read_diags.is_empty() {
            diags.extend(read_diags);
            continue;
        }
        let formatted = format_source(&text, &forms, &comments(&text));
        if let Err(d) = same_program(&text, &formatted, path) {
            diags.push(d);
            continue;
        }
        if formatted != *text {
            changed.push(path.clone());
            if !check && let Err(e) = crate::files::write_atomic(path, formatted.as_bytes()) {
                diags.push(Diagnostic::error("stratagem::io", format!("cannot write `{}`: {e}", path.display())));
            }
        }
    }
    if !diags.is_empty() {
        return Err(Failure::new(sources, diags));
    }
    if check && !changed.is_empty() {
        let list: String = changed.iter().map(|p| format!("{}\n", p.display())).collect();
        out(&list);
        return Err(Failure::message(
            "stratagem::fmt",
            format!("{} file(s) are not in canonical layout; run `stratagem fmt` on them", changed.len()),
        ));
    }
    Ok(())
}

/// Refuses to write a layout that would change the program or drop a comment:
/// formatting must never lose data.
fn same_program(original: &str, formatted: &str, path: &Path) -> Result<(), Diagnostic> {
    let (a, _) = read(Default::default(), original);
    let (b, errs) = read(Default::default(), formatted);
    let texts = |s: &str| comments(s).into_iter().map(|c| c.text).collect::<Vec<_>>();
    if !errs.is_empty() || a != b || texts(original) != texts(formatted) {
        return Err(Diagnostic::error(
            "stratagem::fmt::internal",
            format!("formatting `{}` would change its meaning; the file was left as it is", path.display()),
        )
        .with_help("this is a bug in the formatter: please report it with the file"));
    }
    Ok(())
}
