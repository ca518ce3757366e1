//! Resuming a run: reading its checkpoint back and checking that it holds
//! a state of this very run, and the text form of genomes and NEAT's state
//! that checkpoints keep.

use std::path::Path;

use super::engine::State;
use super::experiment::{ChampionRule, Experiment};
use super::finalists::{FinalRound, Finalist};
use super::genome::{Genome, Representation, weight_terms};
use super::neat::{NeatState, Species};
use super::output::{self, LogRecord, SavedNeat, SavedSpecies};
use super::policy_ops::RuleList;
use super::run::RunFitness;
use crate::diagnostic::{Diagnostic, FileId};
use crate::lang::forms::{PrimSetId, Rule, lower_individual, lower_policy, lower_weights};
use crate::lang::lower_network::lower_network;
use crate::lang::syntax_helpers::Cx;
use crate::lang::{PrimSet, Tree};
use crate::syntax::read;

/// Where a run starts: a fresh population, or a checkpoint's state.
pub(super) struct Start<P> {
    pub(super) state: State,
    /// The problem population (Hillis coevolution), else empty.
    pub(super) problems: Vec<P>,
    pub(super) log: Vec<LogRecord>,
    pub(super) fittest: Option<Genome>,
    pub(super) finalists: Vec<Finalist>,
    pub(super) final_round: Option<FinalRound>,
}

/// Reads the checkpoint in `out` for experiment `exp` and checks it holds a
/// state of this very run: every program checks against the primset, the
/// population and the generation fit the experiment. `None` when the
/// directory is empty: the run was killed before its first checkpoint, and
/// starts afresh.
pub(super) fn resume<F: RunFitness>(
    out: &Path,
    print: &str,
    exp: &Experiment,
    ps: &PrimSet,
    rep: &Representation,
    fitness: &F,
) -> Result<Option<Start<F::Problem>>, Vec<Diagnostic>> {
    let path = output::checkpoint_path(out);
    let refuse = |message: String| {
        vec![
            Diagnostic::error("stratagem::evolve::checkpoint", format!("{message}; it is not used"))
                .with_help("resume with the same experiment file and seed, or start afresh in another --out directory"),
        ]
    };
    if !out.is_dir() {
        return Err(vec![
            Diagnostic::error(
                "stratagem::evolve::resume",
                format!("`{}` is not the output directory of a run: nothing to resume", out.display()),
            )
            .with_help("start a run with --out DIR, then continue it with --resume DIR"),
        ]);
    }
    output::remove_stale_temporaries(out, &format!("{}.sg", exp.name));
    if std::fs::symlink_metadata(&path).is_err() {
        if std::fs::read_dir(out).is_ok_and(|mut d| d.next().is_none()) {
            eprintln!(
                "note: `{}` holds no checkpoint yet (the run stopped before its first); starting afresh",
                out.display()
            );
            return Ok(None);
        }
        return Err(vec![
            Diagnostic::error(
                "stratagem::evolve::resume",
                format!("`{}` holds no checkpoint (`{}`): nothing to resume", out.display(), path.display()),
            )
            .with_help("start a run with --out DIR, then continue it with --resume DIR"),
        ]);
    }
    let cp = output::load_checkpoint(out).map_err(|e| vec![Diagnostic::error("stratagem::evolve::checkpoint", e)])?;
    let at = path.display();
    if cp.experiment != print || cp.seed != exp.seed {
        return Err(refuse(format!("the checkpoint `{at}` was written by another experiment or seed")));
    }
    let total = exp.generations as u64;
    if cp.generation > total {
        return Err(refuse(format!(
            "the checkpoint `{at}` is at generation {}, past the experiment's {total}",
            cp.generation
        )));
    }
    if cp.population.len() != exp.population {
        return Err(refuse(format!(
            "the checkpoint `{at}` holds {} individuals, but the experiment's population is {}",
            cp.population.len(),
            exp.population
        )));
    }
    let (capacity, final_games) = match exp.champion {
        ChampionRule::Last | ChampionRule::RoundRobin { .. } => (0, 0),
        ChampionRule::Validate { finalists, final_games, .. } => (finalists, final_games),
    };
    if cp.finalists.len() > capacity {
        return Err(refuse(format!(
            "the checkpoint `{at}` holds {} finalists, but the experiment keeps {capacity}",
            cp.finalists.len()
        )));
    }
    if let Some(round) = &cp.final_round
        && (cp.generation < total || round.games != final_games)
    {
        return Err(refuse(format!("the checkpoint `{at}` holds a final round the experiment does not play")));
    }
    let genome = |what: &str, text: &str| {
        parse_genome(ps, exp.primset, rep, text)
            .map_err(|e| refuse(format!("the checkpoint `{at}` holds {what} that does not check: {e}")))
    };
    let population = cp
        .population
        .iter()
        .enumerate()
        .map(|(i, t)| genome(&format!("a program (population member {i})"), t))
        .collect::<Result<Vec<_>, _>>()?;
    let fittest = cp.champion.as_deref().map(|t| genome("a champion", t)).transpose()?;
    for f in &cp.finalists {
        genome("a finalist", &f.program)?;
    }
    let problems = match (exp.hillis(), cp.problems) {
        (None, None) => Vec::new(),
        (Some(h), Some(problems)) => {
            if problems.len() != h.problems {
                return Err(refuse(format!(
                    "the checkpoint `{at}` holds {} problems, but the experiment's problem population is {}",
                    problems.len(),
                    h.problems
                )));
            }
            fitness.load_problems(&h, problems).map_err(|e| refuse(format!("the checkpoint `{at}` holds {e}")))?
        }
        (Some(_), None) => {
            return Err(refuse(format!("the checkpoint `{at}` holds no problems, but the experiment coevolves them")));
        }
        (None, Some(_)) => {
            return Err(refuse(format!("the checkpoint `{at}` holds problems, but the experiment has none")));
        }
    };
    let neat = match (rep, cp.neat) {
        (Representation::Network(_), Some(saved)) => Some(
            load_neat(saved, |t| parse_genome(ps, exp.primset, rep, t))
                .map_err(|e| refuse(format!("the checkpoint `{at}` holds {e}")))?,
        ),
        (Representation::Network(_), None) => {
            return Err(refuse(format!("the checkpoint `{at}` holds no species, but the experiment evolves networks")));
        }
        (_, Some(_)) => {
            return Err(refuse(format!("the checkpoint `{at}` holds species, but the experiment evolves no networks")));
        }
        (_, None) => None,
    };
    Ok(Some(Start {
        state: State { generation: cp.generation, population, neat },
        problems,
        log: cp.log,
        fittest,
        finalists: cp.finalists,
        final_round: cp.final_round,
    }))
}

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
