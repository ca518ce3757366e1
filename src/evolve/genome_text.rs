//! The text form of genomes and of NEAT's state that checkpoints and
//! champions keep: written as the programs `check` reads, and read back
//! only if they check against the experiment's primset and representation.

use super::genome::{Genome, Representation, weight_terms};
use super::neat::{NeatState, Species};
use super::output::{SavedNeat, SavedSpecies};
use super::policy_ops::RuleList;
use crate::diagnostic::{Diagnostic, FileId};
use crate::lang::forms::{PrimSetId, Rule, lower_individual, lower_policy, lower_weights};
use crate::lang::lower_network::lower_network;
use crate::lang::syntax_helpers::Cx;
use crate::lang::{PrimSet, Tree};
use crate::syntax::read;

/// NEAT's state as the checkpoint keeps it.
pub(super) fn save_neat(n: &NeatState, ps: &PrimSet, rep: &Representation) -> SavedNeat {
    let species = n
        .species
        .iter()
        .map(|s| SavedSpecies {
            id: s.id,
            representative: genome_text(&Genome::Network(s.representative.clone()), "representative", ps, rep),
            best: s.best,
            improved: s.improved,
        })
        .collect();
    SavedNeat { next_innovation: n.next_innovation, next_species: n.next_species, species }
}

/// NEAT's state from a checkpoint, each representative read by `parse`;
/// the error completes "the checkpoint holds ...".
pub(super) fn load_neat(saved: SavedNeat, parse: impl Fn(&str) -> Result<Genome, String>) -> Result<NeatState, String> {
    let mut species = Vec::new();
    for (i, s) in saved.species.into_iter().enumerate() {
        let representative = match parse(&s.representative) {
            Ok(Genome::Network(g)) => g,
            Ok(_) => return Err(format!("a representative of species {i} that is not a network")),
            Err(e) => return Err(format!("a representative of species {i} that does not check: {e}")),
        };
        species.push(Species { id: s.id, representative, best: s.best, improved: s.improved });
    }
    Ok(NeatState { next_innovation: saved.next_innovation, next_species: saved.next_species, species })
}

/// The program text of genome `g`, named `name`.
pub(super) fn genome_text(g: &Genome, name: &str, ps: &PrimSet, rep: &Representation) -> String {
    g.to_form(name, ps, rep).to_string()
}

/// Reads a genome back from checkpoint text, checking it against the
/// primset and the representation. Any diagnostic at all, even one that
/// reading recovers from, refuses it: the error is its first message.
pub(super) fn parse_genome(ps: &PrimSet, ps_id: PrimSetId, rep: &Representation, text: &str) -> Result<Genome, String> {
    let (forms, mut diags) = read(FileId::default(), text);
    let first =
        |diags: &[Diagnostic]| diags.first().map_or_else(|| "it is malformed".to_owned(), |d| d.message.clone());
    if !diags.is_empty() {
        return Err(first(&diags));
    }
    let [form] = forms.as_slice() else { return Err(format!("it holds {} forms, not one", forms.len())) };
    let head = match rep {
        Representation::Trees(_) => "individual",
        Representation::Policy(_) => "policy",
        Representation::Weights { .. } => "weights",
        Representation::Network(_) => "network",
    };
    if form.head() != Some(head) {
        return Err(format!("it is not an `({head} ...)`, which the experiment evolves"));
    }
    let mut cx = Cx { file: FileId::default(), diags: &mut diags };
    let bare = |t: &Tree| Tree { nodes: t.nodes.clone(), spans: Vec::new() };
    match rep {
        Representation::Trees(slots) => {
            let ind = lower_individual(&mut cx, form, ps, ps_id);
            let (Some(ind), true) = (ind, diags.is_empty()) else { return Err(first(&diags)) };
            let trees: Option<Vec<Tree>> = slots
                .iter()
                .map(|(name, _)| ind.trees.iter().find(|t| &t.name == name).map(|t| bare(&t.tree)))
                .collect();
            if ind.trees.len() != slots.len() {
                return Err(format!("it has {} trees, the experiment evolves {}", ind.trees.len(), slots.len()));
            }
            trees.map(Genome::Trees).ok_or_else(|| "it lacks a tree the experiment evolves".into())
        }
        Representation::Policy(pp) => {
            let policy = lower_policy(&mut cx, form, ps, ps_id);
            let (Some(p), true) = (policy, diags.is_empty()) else { return Err(first(&diags)) };
            if p.rules.len() > pp.max_rules {
                return Err(format!("it has {} rules, the experiment allows {}", p.rules.len(), pp.max_rules));
            }
            let rules = p.rules.iter().map(|r| Rule { condition: bare(&r.condition), value: bare(&r.value) }).collect();
            Ok(Genome::Policy(RuleList { rules, default: bare(&p.default) }))
        }
        Representation::Weights { terms, .. } => {
            let weights = lower_weights(&mut cx, form, ps, ps_id);
            let (Some(w), true) = (weights, diags.is_empty()) else { return Err(first(&diags)) };
            let genes: Vec<f64> = w.terms.iter().take(terms.len()).map(|&(_, x)| x).collect();
            // Exactly the form the run writes: the evolved terms in order, the others 0.0.
            let expected = weight_terms(ps, terms, &genes);
            let same = expected.len() == w.terms.len()
                && expected.iter().zip(&w.terms).all(|(a, b)| a.0 == b.0 && a.1.to_bits() == b.1.to_bits());
            if !same {
                return Err("its terms are not the experiment's, in its order, with 0.0 for the others".into());
            }
            Ok(Genome::Weights(genes))
        }
        Representation::Network(np) => {
            let network = lower_network(&mut cx, form, ps, ps_id);
            let (Some(net), true) = (network, diags.is_empty()) else { return Err(first(&diags)) };
            let genes = net.into_genes();
            if genes.inputs != np.inputs {
                return Err("its inputs are not the experiment's, in its order".into());
            }
            if genes.links.iter().any(|l| l.innovation.is_none()) {
                return Err("a link has no innovation number, which NEAT needs".into());
            }
            Ok(Genome::Network(genes))
        }
    }
}
