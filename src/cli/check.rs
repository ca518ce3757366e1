//! `stratagem check FILE...`: load, type-check, summarise each form.

use std::path::PathBuf;

use super::{Failure, Outcome, out, print_warnings};
use crate::diagnostic::has_errors;
use crate::lang::Loader;

pub fn run(files: &[PathBuf]) -> Outcome {
    let mut loader = Loader::new();
    let ids: Vec<_> = files.iter().filter_map(|f| loader.load_path(f)).collect();
    if has_errors(&loader.diags) {
        return Err(Failure::new(loader.sources, loader.diags));
    }
    print_warnings(&loader.sources, &loader.diags);
    let mut text = String::new();
    for (file, form) in &loader.module.forms {
        if ids.contains(file) {
            text.push_str(&format!("{}: {}\n", loader.sources.get(*file).name, loader.module.summarize(*form)));
        }
    }
    out(&text);
    Ok(())
}
