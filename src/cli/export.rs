//! `stratagem export FILE --individual NAME --format sexp|c|rust [--out PATH]`:
//! a program written out for use outside Stratagem (src/export), on stdout
//! or, atomically, to a file. A C contest player over the contest's size
//! limit (5 kB) is written with a warning.

use std::path::PathBuf;

use super::{Failure, Outcome, out};
use crate::diagnostic::{Diagnostic, has_errors};
use crate::export::{CONTEST_SIZE, Format, export};
use crate::lang::Loader;

pub struct ExportArgs {
    pub file: PathBuf,
    pub name: String,
    pub format: Format,
    pub out: Option<PathBuf>,
}

pub fn run(args: &ExportArgs) -> Outcome {
    let mut loader = Loader::new();
    loader.load_path(&args.file);
    if has_errors(&loader.diags) {
        return Err(Failure::new(loader.sources, loader.diags));
    }
    let origin = args.file.display().to_string();
    let exported = export(&loader.module, &loader.sources, &origin, &args.name, args.format)
        .map_err(|d| Failure::new(std::mem::take(&mut loader.sources), vec![d]))?;
    if exported.contest_c && exported.text.len() > CONTEST_SIZE {
        eprintln!(
            "warning: the C player is {} bytes, over the contest's limit of {CONTEST_SIZE} bytes per ant",
            exported.text.len()
        );
    }
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
