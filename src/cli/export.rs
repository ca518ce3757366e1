//! `stratagem export FILE --individual NAME --format sexp|c|rust [--out PATH]`:
//! a program written out for use outside Stratagem (src/export), on stdout
//! or, atomically, to a file. The export's warnings (a game's player over
//! its contest's size limit, say) are printed, and the program written all
//! the same.

use std::path::PathBuf;

use super::{Failure, Outcome, out, print_warnings};
use crate::diagnostic::{Diagnostic, did_you_mean, has_errors};
use crate::export::{Format, export};
use crate::lang::Loader;

pub struct ExportArgs {
    pub file: PathBuf,
    pub name: String,
    /// As typed: parsed here, so an unknown one is a diagnostic.
    pub format: String,
    pub out: Option<PathBuf>,
}

const FORMATS: [(&str, Format); 3] = [("sexp", Format::Sexp), ("c", Format::C), ("rust", Format::Rust)];

/// The format named `text`, or a diagnostic with a suggestion.
fn parse_format(text: &str) -> Result<Format, Diagnostic> {
    if let Some(&(_, f)) = FORMATS.iter().find(|(n, _)| *n == text) {
        return Ok(f);
    }
    let names = FORMATS.map(|(n, _)| n);
    let help = match did_you_mean(text, names.iter().copied()) {
        Some(s) => format!("did you mean `{s}`? The formats are sexp, c and rust"),
        None => "the formats are sexp (simplified S-expressions), c and rust".to_owned(),
    };
    Err(Diagnostic::error("stratagem::export::format", format!("unknown export format `{text}`")).with_help(help))
}

pub fn run(args: &ExportArgs) -> Outcome {
    let format = parse_format(&args.format).map_err(|d| Failure::new(Default::default(), vec![d]))?;
    let mut loader = Loader::new();
    loader.load_path(&args.file);
    if has_errors(&loader.diags) {
        return Err(Failure::new(loader.sources, loader.diags));
    }
    let origin = args.file.display().to_string();
    let exported = export(&loader.module, &loader.sources, &origin, &args.name, format)
        .map_err(|d| Failure::new(std::mem::take(&mut loader.sources), vec![d]))?;
    print_warnings(&loader.sources, &exported.warnings);
    match &args.out {
        None => out(&exported.text),
        Some(path) => crate::files::write_atomic(path, exported.text.as_bytes()).map_err(|e| {
            Failure::new(
                Default::default(),
                vec![Diagnostic::error("stratagem::io", format!("cannot write `{}`: {e}", path.display()))],
            )
        })?,
    }
    Ok(())
}
