//! `stratagem check FILE...`: load, type-check, summarise each form.

use std::path::PathBuf;

use super::{Failure, Outcome, out, print_warnings};
use crate::diagnostic::has_errors;
use crate::lang::{FormRef, Loader, Module};

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
            text.push_str(&format!("{}: {}\n", loader.sources.get(*file).name, summarize(&loader.module, *form)));
        }
    }
    out(&text);
    Ok(())
}

/// One line: kind, name, trees, nodes, depth (and a few kind-specific counts).
pub fn summarize(m: &Module, form: FormRef) -> String {
    match form {
        FormRef::PrimSet(i) => {
            let ps = &m.primsets[i];
            let defs: Vec<_> = ps
                .prims
                .iter()
                .filter_map(|p| match &p.kind {
                    crate::lang::PrimKind::Derived(d) => Some(&d.body),
                    _ => None,
                })
                .collect();
            let nodes: usize = defs.iter().map(|t| t.len()).sum();
            let depth = defs.iter().map(|t| t.depth(ps)).max().unwrap_or(0);
            format!(
                "primset {} trees={} nodes={nodes} depth={depth} types={} primitives={} ercs={}",
                ps.name,
                defs.len(),
                ps.types.len(),
                ps.prims.len(),
                ps.ercs.len()
            )
        }
        FormRef::Individual(i) => {
            let ind = &m.individuals[i];
            let ps = m.primset(ind.primset);
            let nodes: usize = ind.trees.iter().map(|t| t.tree.len()).sum();
            let depth = ind.trees.iter().map(|t| t.tree.depth(ps)).max().unwrap_or(0);
            format!("individual {} trees={} nodes={nodes} depth={depth}", ind.name, ind.trees.len())
        }
        FormRef::Policy(i) => {
            let p = &m.policies[i];
            let ps = m.primset(p.primset);
            let trees = p.rules.iter().flat_map(|r| [&r.condition, &r.value]).chain([&p.default]);
            let (n, nodes, depth) =
                trees.fold((0, 0, 0), |(n, nodes, depth), t| (n + 1, nodes + t.len(), depth.max(t.depth(ps))));
            format!("policy {} trees={n} nodes={nodes} depth={depth} rules={}", p.name, p.rules.len())
        }
        FormRef::Weights(i) => {
            let w = &m.weights[i];
            format!("weights {} trees=1 nodes={} depth=1 terms={}", w.name, w.terms.len(), w.terms.len())
        }
    }
}
