//! Programs for players: a program named in a file (an individual's trees, a
//! policy, a weight vector or a network) read, bound to a game's domain and
//! compiled, once for every game a player plays.

use std::path::Path;
use std::sync::Arc;

use crate::diagnostic::Failure;
use crate::eval::Engine;
use crate::eval::jit::JitConfig;
use crate::games::domain::{Binding, GpGame};
use crate::lang::{Loader, PrimSet, PrimSetId, ProgramRef};
use crate::search::alphabeta::SearchParams;
use crate::search::players::GpPrograms;
use crate::search::programs::{GpProgram, Program};

/// Loads program `name` from `file` and binds its primset to `game`. An
/// individual's `eval` tree evaluates, and its `order` tree (if `search` is
/// selective and the tree present) ranks siblings; a policy or a weight
/// vector evaluates (and ranks). With the JIT, they are compiled (a program
/// the JIT cannot compile is interpreted, with a note on stderr).
pub fn load_programs<G: GpGame>(
    game: &G,
    file: &Path,
    name: &str,
    search: &SearchParams,
    engine: Engine,
) -> Result<GpPrograms<G::State>, Failure> {
    let (loader, ps_id, programs) = read_programs(file, name, search.is_selective())?;
    let m = &loader.module;
    let ps = Arc::new(m.primset(ps_id).clone());
    let binding = Arc::new(Binding::new(game, &ps).map_err(|d| Failure::new(loader.sources.clone(), d))?);
    let has_order = programs.len() == 2;
    let mut programs: Vec<Arc<GpProgram<G::State>>> =
        compile_programs(ps, binding, programs, engine, name).into_iter().map(Arc::new).collect();
    let order = if has_order { programs.pop() } else { None };
    let eval = programs.remove(0);
    Ok(GpPrograms { eval, order })
}

/// Programs bound by `binding`, JIT-compiled (those the JIT cannot compile
/// interpreted, with a note on stderr) or interpreted.
pub fn compile_programs<S>(
    ps: Arc<PrimSet>,
    binding: Arc<Binding<S>>,
    programs: Vec<Program>,
    engine: Engine,
    name: &str,
) -> Vec<GpProgram<S>> {
    if engine.compiles_for_games() {
        let (programs, fallbacks) = GpProgram::compile_all(ps, binding, programs, JitConfig::default());
        if !fallbacks.is_empty() {
            eprintln!("note: {} program(s) of `{name}` are interpreted: {}", fallbacks.len(), fallbacks.join("; "));
        }
        programs
    } else {
        programs.into_iter().map(|p| GpProgram::new(ps.clone(), binding.clone(), p)).collect()
    }
}

/// Reads `file` and finds program `name` in it: an individual's `eval` tree
/// (or its first) and, when `with_order`, its `order` tree if it has one; a
/// policy; a weight vector; or a network. The loader is returned for its sources.
pub fn read_programs(file: &Path, name: &str, with_order: bool) -> Result<(Loader, PrimSetId, Vec<Program>), Failure> {
    let mut loader = Loader::new();
    loader.load_path(file);
    if loader.diags.iter().any(|d| d.is_error()) {
        return Err(Failure::new(loader.sources, loader.diags));
    }
    let m = &loader.module;
    let Some(found) = m.program(name) else {
        let d = m.unknown_program("stratagem::play::unknown", &file.display().to_string(), name);
        return Err(Failure::new(loader.sources, vec![d]));
    };
    let ps_id = found.primset();
    let programs = match found {
        ProgramRef::Individual(ind) => {
            let tree = |slot: &str| ind.trees.iter().find(|t| t.name == slot).map(|t| t.tree.clone());
            let Some(eval) = tree("eval").or_else(|| ind.trees.first().map(|t| t.tree.clone())) else {
                return Err(Failure::message("stratagem::play::tree", format!("individual `{name}` has no tree")));
            };
            let order = if with_order { tree("order") } else { None };
            std::iter::once(eval).chain(order).map(Program::Tree).collect::<Vec<_>>()
        }
        ProgramRef::Policy(p) => vec![Program::Policy(p.clone())],
        ProgramRef::Weights(w) => vec![Program::Weights(w.clone())],
        ProgramRef::Network(n) => vec![Program::Network(n.clone())],
    };
    Ok((loader, ps_id, programs))
}
