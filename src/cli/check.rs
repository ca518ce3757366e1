//! `stratagem check FILE...`: load, type-check, summarise each form.
//! Experiments are validated as `stratagem evolve` would before running them.

use std::path::PathBuf;

use super::{Failure, Outcome, out, print_warnings};
use crate::diagnostic::has_errors;
use crate::evolve::experiment::{Experiment, lower_experiment};
use crate::evolve::genome::Representation;
use crate::lang::{FormRef, Loader, Module};

pub fn run(files: &[PathBuf]) -> Outcome {
    let mut loader = Loader::new();
    let ids: Vec<_> = files.iter().filter_map(|f| loader.load_path(f)).collect();
    let mut lines = Vec::new();
    for (file, form) in loader.module.forms.clone() {
        if !ids.contains(&file) {
            continue;
        }
        let line = match form {
            FormRef::Experiment(i) => match lower_experiment(&loader.module, i) {
                Ok(exp) => summarize_experiment(&loader.module, &exp),
                Err(diags) => {
                    loader.diags.extend(diags);
                    continue;
                }
            },
            _ => loader.module.summarize(form),
        };
        lines.push(format!("{}: {line}\n", loader.sources.get(file).name));
    }
    if has_errors(&loader.diags) {
        return Err(Failure::new(loader.sources, loader.diags));
    }
    print_warnings(&loader.sources, &loader.diags);
    out(&lines.concat());
    Ok(())
}

fn summarize_experiment(m: &Module, e: &Experiment) -> String {
    let trees: Vec<&str> = e.trees().iter().map(|(n, _)| n.as_str()).collect();
    // Weight vectors and networks have no trees, so no depth limit.
    let depth = match e.representation {
        Representation::Weights { .. } | Representation::Network(_) => 0,
        _ => e.variation.limits.max_depth,
    };
    let evolves = match &e.representation {
        Representation::Trees(_) => trees.join(","),
        Representation::Policy(p) => format!("policy(max-rules={})", p.max_rules),
        Representation::Weights { terms, .. } => format!("weights(terms={})", terms.len()),
        Representation::Network(np) => format!("network(inputs={})", np.inputs.len()),
    };
    format!(
        "experiment {} trees={} nodes=0 depth={} game={} primset={} population={} generations={} evolves={}",
        e.name,
        trees.len(),
        depth,
        e.game.name,
        m.primset(e.primset).name,
        e.population,
        e.generations,
        evolves
    )
}
