//! NEAT, NeuroEvolution of Augmenting Topologies (Stanley and Miikkulainen
//! 2002), as seeds/004 evolves game-state evaluators: networks start fully
//! connected from their inputs to one output and grow by mutation; genes
//! carry innovation numbers so crossover can align them; the population is
//! split into species by a compatibility distance and shares fitness within
//! a species, so new structure has time to tune its weights.
//!
//! The genome is the language's own `NetGenes` (src/lang/network.rs), so
//! every network evolved is a `(network ...)` program that `check`, `play`
//! and `export` accept. The parts: [`innovations`] (the global counter and
//! the per-generation table), [`genes`] (genes keyed by node name, the
//! first network), [`mutate`] (weights, add-node, add-link), [`crossover`]
//! (alignment by innovation), [`species`] (distance, speciation, offspring
//! allotment) and [`breed`] (one generation).

pub mod breed;
pub mod crossover;
pub mod genes;
pub mod innovations;
pub mod mutate;
pub mod species;
#[cfg(test)]
mod tests;

use crate::lang::PrimId;

pub use breed::{NeatState, SpeciesStats};
pub use species::Species;

/// NEAT's settings. The defaults are Stanley and Miikkulainen's (2002,
/// section 4.1 and the parameter files of Stanley's NEAT release), except
/// where noted: the paper leaves those open.
#[derive(Debug, Clone, PartialEq)]
pub struct NeatParams {
    /// The input nodes: F terminals of the primset, in order.
    pub inputs: Vec<PrimId>,
    /// Initial weights, and the weights of new links and replaced weights,
    /// are drawn uniformly from `[lo, hi]` (default -1 to 1, as Stanley's
    /// code draws them).
    pub weight_range: (f64, f64),
    /// A perturbed weight moves by a uniform draw from `[-perturb, perturb]`
    /// (default 0.5; the paper gives no magnitude).
    pub perturb: f64,
    /// Probability that a genome's weights mutate (0.8).
    pub weight_mutation: f64,
    /// Probability that a mutating weight is replaced rather than perturbed (0.1).
    pub replace: f64,
    /// Probability of adding a node (0.03).
    pub add_node: f64,
    /// Probability of adding a link (0.05; the paper uses 0.3 for large populations).
    pub add_link: f64,
    /// Probability that a gene disabled in either parent stays disabled (0.75).
    pub keep_disabled: f64,
    /// Share of offspring made by mutation alone, without crossover (0.25).
    pub mutation_only: f64,
    /// Probability that a crossover takes its second parent from another species (0.001).
    pub interspecies: f64,
    /// c1, c2, c3 of the compatibility distance (1.0, 1.0, 0.4).
    pub coefficients: (f64, f64, f64),
    /// The compatibility threshold δt (3.0).
    pub threshold: f64,
    /// Genomes with fewer genes than this are not normalised by size (N = 1; 20).
    pub small_genome: usize,
    /// A species' champion is copied unchanged when it has more members than this (5).
    pub champion_copy_above: usize,
    /// Generations without improvement after which a species does not
    /// reproduce, unless it holds the best member (15).
    pub stagnation: u64,
    /// The fraction of each species (its fittest) that may be parents (0.2,
    /// Stanley's `survival_thresh`: ⌊0.2 × size⌋ + 1 parents).
    pub survival: f64,
}

impl NeatParams {
    /// Stanley and Miikkulainen's defaults over `inputs`.
    pub fn new(inputs: Vec<PrimId>) -> NeatParams {
        NeatParams {
            inputs,
            weight_range: (-1.0, 1.0),
            perturb: 0.5,
            weight_mutation: 0.8,
            replace: 0.1,
            add_node: 0.03,
            add_link: 0.05,
            keep_disabled: 0.75,
            mutation_only: 0.25,
            interspecies: 0.001,
            coefficients: (1.0, 1.0, 0.4),
            threshold: 3.0,
            small_genome: 20,
            champion_copy_above: 5,
            stagnation: 15,
            survival: 0.2,
        }
    }
}
