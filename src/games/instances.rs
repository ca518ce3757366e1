//! Files of puzzles: one instance a line, in the puzzle's line format
//! ([`Game::parse_instance`](crate::games::Game::parse_instance)); `solve`
//! reads them, and so does evolution for its training puzzles; `generate`
//! writes them.

use rayon::prelude::*;

use super::puzzle::{Generate, Instance, Puzzle};
use crate::diagnostic::{Diagnostic, FileId};

/// At most this many malformed lines are reported per file.
const MAX_REPORTED: usize = 50;

/// Every instance of `text` (the file `file`), or a diagnostic for each line
/// that is not one; an empty file is an error too.
pub fn parse_instances<G: Puzzle>(
    game: &G,
    file: FileId,
    text: &str,
) -> Result<Vec<Instance<G::State>>, Vec<Diagnostic>> {
    let mut instances = Vec::new();
    let mut diags = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        match game.parse_instance(line.trim_end_matches(['\n', '\r'])) {
            Ok(Some(instance)) => instances.push(instance),
            Ok(None) => {}
            Err(e) if diags.len() < MAX_REPORTED => {
                let span = offset + e.span.start..offset + e.span.end;
                let mut d = Diagnostic::error("stratagem::puzzles::line", e.message).at(file, span.into(), "here");
                if let Some(help) = e.help {
                    d = d.with_help(help);
                }
                diags.push(d);
            }
            Err(_) => {}
        }
        offset += line.len();
    }
    if diags.is_empty() && instances.is_empty() {
        diags.push(
            Diagnostic::error("stratagem::puzzles::empty", "the file holds no puzzle")
                .at(file, (0..text.len()).into(), "no puzzle line")
                .with_help(format!("one {} puzzle a line; blank lines and `#` comments are skipped", game.name())),
        );
    }
    if diags.is_empty() { Ok(instances) } else { Err(diags) }
}

/// `count` hard puzzles as lines of a puzzle file, generated on `threads`
/// threads (0: all cores); puzzle `i` depends only on `seed` and `i`, so the
/// lines are the same at any thread count. `None` for a puzzle not found in
/// the attempts; `Err` when the game cannot generate such puzzles.
pub fn generate_lines<G: Puzzle + Sync>(
    game: &G,
    settings: &Generate,
    (count, seed): (usize, u64),
    threads: usize,
) -> Result<Vec<Option<String>>, String> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;
    pool.install(|| {
        (0..count)
            .into_par_iter()
            .map(|i| {
                let mut rng = crate::rng::stream(seed, &[0x7268, i as u64]);
                game.generate_line(settings, &mut rng)
            })
            .collect()
    })
}
