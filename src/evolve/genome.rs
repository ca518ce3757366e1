//! What evolves: multi-tree individuals, policies, weight vectors or
//! networks, and the shape every member of a population shares
//! ([`Representation`]).

use rand::RngExt;

use super::ga::{self, GaParams};
use super::init::Builder;
use super::neat::{self, NeatParams};
use super::ops::{self, Limits};
use super::policy_ops::{self, RuleList};
use crate::diagnostic::FileId;
use crate::lang::forms::weighable_terminals;
use crate::lang::{NetGenes, Network, Policy, PrimId, PrimSet, PrimSetId, Tree, TypeId, Weights};
use crate::rng::GpRng;
use crate::search::programs::Program;
use crate::syntax::{Atom, Sexp, Span};

/// Serialisable so that members travel between the ranks of a run (src/cluster).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub enum Genome {
    /// One tree per slot of the representation, in slot order.
    Trees(Vec<Tree>),
    Policy(RuleList),
    Weights(Vec<f64>),
    /// A network's genes, as NEAT varies them (src/evolve/neat).
    Network(NetGenes),
}

/// The shape of the genomes of a run.
#[derive(Debug, Clone)]
pub enum Representation {
    /// Named trees with their types, e.g. `eval: F` and `order: F`.
    Trees(Vec<(String, TypeId)>),
    /// Ordered IF-THEN policies.
    Policy(PolicyParams),
    /// One weight per listed terminal (the primset's other F terminals,
    /// which a `(weights ...)` form must also weigh, keep the weight 0.0).
    Weights { terms: Vec<PrimId>, ga: GaParams },
    /// Networks over the listed inputs, bred by NEAT: speciation and its
    /// own operators (src/evolve/neat/breed.rs) rather than the engine's
    /// selection, [`Representation::crossover`] and [`Representation::mutate`].
    Network(NeatParams),
}

/// How policies evolve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PolicyParams {
    /// Rules a policy has at most (it starts with 1 to `max_rules`).
    pub max_rules: usize,
    /// Probability that a mutation swaps two rules rather than changing one
    /// condition, value or the default.
    pub reorder: f64,
}

impl Default for PolicyParams {
    fn default() -> PolicyParams {
        PolicyParams { max_rules: 8, reorder: 0.2 }
    }
}

/// How variation is done, beyond the per-representation operators.
#[derive(Debug, Clone, Copy)]
pub struct Variation {
    pub limits: Limits,
    /// The node limit of every tree (none when `None`), which the run's
    /// [`Builder`] enforces in generation and variation alike.
    pub max_size: Option<usize>,
    /// Initial depth ramp for trees.
    pub init_min_depth: usize,
    pub init_max_depth: usize,
    /// Crossover copies from the fitter parent into the other only (one-way).
    pub one_way: bool,
    /// Probability that a mutation is an ERC mutation or a point mutation
    /// (the least disruptive kinds) rather than a subtree mutation.
    pub local_mutation: f64,
    /// ERC mutation events scale float constants of uniform ERCs by
    /// e^N(0, SD) instead of perturbing constants as their ERCs declare
    /// (`(erc-mutation P (scale SD))`, [`ops::scaled_erc_mutation`]).
    pub erc_scale: Option<f64>,
}

impl Default for Variation {
    fn default() -> Variation {
        Variation {
            limits: Limits::default(),
            max_size: None,
            init_min_depth: 2,
            init_max_depth: 6,
            one_way: false,
            local_mutation: 0.5,
            erc_scale: None,
        }
    }
}

impl Representation {
    /// The types generation must be able to build.
    pub fn needed_types(&self) -> Vec<TypeId> {
        match self {
            Representation::Trees(slots) => slots.iter().map(|(_, t)| *t).collect(),
            Representation::Policy(_) => vec![TypeId::B, TypeId::F],
            Representation::Weights { .. } | Representation::Network(_) => Vec::new(),
        }
    }

    /// A random population of `n` genomes (ramped half-and-half for trees).
    pub fn random_population(&self, b: &Builder, rng: &mut GpRng, n: usize, v: &Variation) -> Vec<Genome> {
        match self {
            Representation::Trees(slots) => {
                let per_slot: Vec<Vec<Tree>> =
                    slots.iter().map(|(_, ty)| b.ramped(rng, *ty, n, v.init_min_depth, v.init_max_depth)).collect();
                (0..n).map(|i| Genome::Trees(per_slot.iter().map(|trees| trees[i].clone()).collect())).collect()
            }
            Representation::Policy(pp) => (0..n)
                .map(|_| {
                    let rules = rng.random_range(1..=pp.max_rules.max(1));
                    let depth = rng.random_range(v.init_min_depth..=v.init_max_depth.max(v.init_min_depth));
                    Genome::Policy(policy_ops::random_policy(b, rng, rules, depth))
                })
                .collect(),
            Representation::Weights { terms, ga } => {
                (0..n).map(|_| Genome::Weights(ga::random_genome(rng, terms.len(), ga))).collect()
            }
            Representation::Network(np) => (0..n).map(|_| Genome::Network(neat::genes::initial(rng, np))).collect(),
        }
    }

    /// Crossover of two parents; `a` is the fitter one (it donates in one-way crossover).
    pub fn crossover(&self, b: &Builder, rng: &mut GpRng, a: &Genome, c: &Genome, v: &Variation) -> (Genome, Genome) {
        match (self, a, c) {
            (Representation::Trees(slots), Genome::Trees(x), Genome::Trees(y)) => {
                // Operators act per tree: one slot is crossed, the others are inherited.
                let s = rng.random_range(0..slots.len());
                let (mut x2, mut y2) = (x.clone(), y.clone());
                if v.one_way {
                    y2[s] = ops::one_way_crossover(b, rng, &y[s], &x[s], slots[s].1, &v.limits);
                } else {
                    let (p, q) = ops::crossover(b, rng, &x[s], &y[s], slots[s].1, &v.limits);
                    x2[s] = p;
                    y2[s] = q;
                }
                (Genome::Trees(x2), Genome::Trees(y2))
            }
            (Representation::Policy(pp), Genome::Policy(x), Genome::Policy(y)) => {
                let (p, q) = policy_ops::rule_crossover(rng, x, y, pp.max_rules);
                (Genome::Policy(p), Genome::Policy(q))
            }
            (Representation::Weights { .. }, Genome::Weights(x), Genome::Weights(y)) => {
                let (p, q) = ga::single_point(rng, x, y);
                (Genome::Weights(p), Genome::Weights(q))
            }
            _ => (a.clone(), c.clone()),
        }
    }

    /// ERC mutation alone (ECJ's MutateERC, which BrilliAnt used): every
    /// constant of one tree drawn at random is perturbed as its ERC allows;
    /// under `v.erc_scale`, its float weights are scaled instead, with those
    /// of the trees of its shape ([`ops::scaled_erc_mutation`]). Policies
    /// and weight vectors mutate as usual.
    pub fn mutate_ercs(&self, b: &Builder, rng: &mut GpRng, g: &Genome, v: &Variation) -> Genome {
        match (self, g) {
            (Representation::Trees(slots), Genome::Trees(x)) => {
                let s = rng.random_range(0..slots.len());
                if let Some(sd) = v.erc_scale {
                    let roots: Vec<TypeId> = slots.iter().map(|(_, t)| *t).collect();
                    return Genome::Trees(ops::scaled_erc_mutation(b, rng, x, &roots, s, sd));
                }
                let mut out = x.clone();
                out[s] = ops::erc_mutation(b, rng, &x[s], slots[s].1, 1.0);
                Genome::Trees(out)
            }
            _ => self.mutate(b, rng, g, &Variation::default()),
        }
    }

    pub fn mutate(&self, b: &Builder, rng: &mut GpRng, g: &Genome, v: &Variation) -> Genome {
        match (self, g) {
            (Representation::Trees(slots), Genome::Trees(x)) => {
                let s = rng.random_range(0..slots.len());
                let ty = slots[s].1;
                let mut out = x.clone();
                out[s] = mutate_tree(b, rng, &x[s], ty, v);
                Genome::Trees(out)
            }
            (Representation::Policy(pp), Genome::Policy(p)) => {
                Genome::Policy(if rng.random_bool(pp.reorder.clamp(0.0, 1.0)) {
                    policy_ops::rule_reorder(rng, p)
                } else {
                    policy_ops::rule_mutation(rng, p, |rng, tree, part| {
                        let (b, ty) = policy_ops::in_part(b, part);
                        mutate_tree(b, rng, tree, ty, v)
                    })
                })
            }
            (Representation::Weights { ga, .. }, Genome::Weights(w)) => Genome::Weights(ga::mutate(rng, w, ga)),
            _ => g.clone(),
        }
    }
}

/// Mutates one tree of root type `ty`: a point or ERC mutation (the local
/// kinds, with probability `v.local_mutation`, half each) or a subtree mutation.
fn mutate_tree(b: &Builder, rng: &mut GpRng, tree: &Tree, ty: TypeId, v: &Variation) -> Tree {
    if rng.random_bool(v.local_mutation.clamp(0.0, 1.0)) {
        if rng.random_bool(0.5) {
            ops::point_mutation(b, rng, tree, ty)
        } else {
            ops::erc_mutation(b, rng, tree, ty, 0.5)
        }
    } else {
        ops::subtree_mutation(b, rng, tree, ty, &v.limits)
    }
}

/// The terms of the `(weights ...)` form of weight vector `w` over `terms`:
/// the evolved terms in order, then the primset's other F terminals with the
/// weight 0.0 (a weight vector weighs every F terminal). Evolution evaluates
/// exactly this form, so the champion written computes what was evolved.
pub fn weight_terms(ps: &PrimSet, terms: &[PrimId], w: &[f64]) -> Vec<(PrimId, f64)> {
    let fixed = weighable_terminals(ps).into_iter().filter(|t| !terms.contains(t)).map(|t| (t, 0.0));
    terms.iter().copied().zip(w.iter().copied()).chain(fixed).collect()
}

impl Genome {
    /// What evaluates a position or a search node for this genome: its
    /// tree `eval_slot`, its policy or its weight vector (as the
    /// `(weights ...)` form its champion would be).
    pub fn program(&self, rep: &Representation, ps: &PrimSet, eval_slot: usize) -> Program {
        match (self, rep) {
            (Genome::Trees(ts), _) => Program::Tree(ts.get(eval_slot).cloned().unwrap_or_default()),
            (Genome::Policy(rl), _) => Program::Policy(Policy {
                name: String::new(),
                primset: PrimSetId(0),
                rules: rl.rules.clone(),
                default: rl.default.clone(),
                file: FileId::default(),
                span: Span::default(),
            }),
            (Genome::Weights(w), Representation::Weights { terms, .. }) => Program::Weights(Weights {
                name: String::new(),
                primset: PrimSetId(0),
                terms: weight_terms(ps, terms, w),
                file: FileId::default(),
                span: Span::default(),
            }),
            (Genome::Network(g), _) => match Network::new(String::new(), PrimSetId(0), ps, g.clone()) {
                Ok(net) => Program::Network(net),
                // NEAT's operators keep genes a network (tests/neat.rs checks
                // it); anything else would evaluate as the constant 0.
                Err(_) => Program::Tree(Tree::default()),
            },
            (Genome::Weights(_), _) => Program::Tree(Tree::default()),
        }
    }

    /// Total number of nodes (weights count one each).
    pub fn size(&self) -> usize {
        match self {
            Genome::Trees(ts) => ts.iter().map(Tree::len).sum(),
            Genome::Policy(p) => {
                p.rules.iter().map(|r| r.condition.len() + r.value.len()).sum::<usize>() + p.default.len()
            }
            Genome::Weights(w) => w.len(),
            // Enabled links, the genes that are expressed.
            Genome::Network(g) => g.links.iter().filter(|l| l.enabled).count(),
        }
    }

    /// The greatest depth of its trees.
    pub fn depth(&self, ps: &PrimSet) -> usize {
        match self {
            Genome::Trees(ts) => ts.iter().map(|t| t.depth(ps)).max().unwrap_or(0),
            Genome::Policy(p) => p
                .rules
                .iter()
                .flat_map(|r| [&r.condition, &r.value])
                .chain([&p.default])
                .map(|t| t.depth(ps))
                .max()
                .unwrap_or(0),
            Genome::Weights(_) => 1,
            Genome::Network(g) => Network::new(String::new(), PrimSetId(0), ps, g.clone()).map_or(1, |n| n.depth()),
        }
    }

    /// The genome as a program form: `(individual NAME (primset P) (tree ...)...)`,
    /// `(policy ...)`, `(weights ...)` or `(network ...)`.
    pub fn to_form(&self, name: &str, ps: &PrimSet, rep: &Representation) -> Sexp {
        let sym = |s: &str| Sexp::atom(Atom::Symbol(s.to_owned()), Span::default());
        let list = |items: Vec<Sexp>| Sexp::list(items, Span::default());
        let header = vec![sym(name), list(vec![sym("primset"), sym(&ps.name)])];
        match (self, rep) {
            (Genome::Trees(ts), Representation::Trees(slots)) => {
                let trees =
                    slots.iter().zip(ts).map(|((slot, _), t)| list(vec![sym("tree"), sym(slot), t.to_sexp(ps, &[])]));
                list([sym("individual")].into_iter().chain(header).chain(trees).collect())
            }
            (Genome::Policy(p), _) => {
                let rules = p
                    .rules
                    .iter()
                    .map(|r| list(vec![sym("rule"), r.condition.to_sexp(ps, &[]), r.value.to_sexp(ps, &[])]));
                let default = list(vec![sym("default"), p.default.to_sexp(ps, &[])]);
                list([sym("policy")].into_iter().chain(header).chain(rules).chain([default]).collect())
            }
            (Genome::Weights(w), Representation::Weights { terms, .. }) => {
                let pairs = weight_terms(ps, terms, w)
                    .into_iter()
                    .map(|(t, x)| list(vec![sym(&ps.prim(t).name), Sexp::float(x)]));
                list([sym("weights")].into_iter().chain(header).chain(pairs).collect())
            }
            (Genome::Network(g), _) => match Network::new(name.to_owned(), PrimSetId(0), ps, g.clone()) {
                Ok(net) => net.to_sexp(ps),
                Err(_) => list(vec![sym("network"), sym(name)]),
            },
            _ => list(vec![sym("individual"), sym(name)]),
        }
    }
}
