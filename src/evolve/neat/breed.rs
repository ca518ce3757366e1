//! One NEAT generation after evaluation: the population is split into
//! species, stagnant species are left out, each species gets offspring in
//! proportion to its shared fitness, and breeds them from its fittest
//! members (its champion copied unchanged when it has more than five);
//! then each species picks the representative the next generation is
//! compared with. All of it runs in one thread in a fixed order, drawing
//! from one stream, so innovation numbers and species never depend on the
//! thread count.

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::NeatParams;
use super::crossover::crossover;
use super::innovations::Innovations;
use super::mutate::mutate;
use super::species::{Species, allot, speciate};
use crate::lang::network::NetGenes;
use crate::rng::GpRng;

/// What NEAT carries from one generation to the next besides the
/// population (and what a checkpoint keeps of it).
#[derive(Debug, Clone, PartialEq)]
pub struct NeatState {
    /// The next free innovation number.
    pub next_innovation: u64,
    /// The number the next new species gets.
    pub next_species: u64,
    /// The species of the generation just bred, with their representatives.
    pub species: Vec<Species>,
}

impl NeatState {
    /// The state of a first population of networks over `inputs` inputs
    /// (innovations `1..=inputs` are the links of the first network).
    pub fn new(inputs: usize) -> NeatState {
        NeatState { next_innovation: inputs as u64 + 1, next_species: 1, species: Vec::new() }
    }
}

/// The species of an evaluated generation, as the log records them.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SpeciesStats {
    pub count: usize,
    /// Members of each species, in species order (oldest first).
    pub sizes: Vec<usize>,
    /// Species that bred no offspring because they stagnated.
    pub stagnant: usize,
}

/// The next generation of `population` (evaluated: `fitness`), its NEAT
/// state and the species of this one.
pub fn breed(
    rng: &mut GpRng,
    population: &[NetGenes],
    fitness: &[f64],
    state: &NeatState,
    generation: u64,
    p: &NeatParams,
) -> (Vec<NetGenes>, NeatState, SpeciesStats) {
    let n = population.len();
    let raw: Vec<f64> = (0..n).map(|i| fitness.get(i).copied().filter(|f| f.is_finite()).unwrap_or(0.0)).collect();
    let mut species = state.species.clone();
    let mut next_species = state.next_species;
    let members = speciate(population, &mut species, &mut next_species, generation, p);
    let (mut species, members): (Vec<Species>, Vec<Vec<usize>>) =
        species.into_iter().zip(members).filter(|(_, m)| !m.is_empty()).unzip();
    let best_index = (0..n).fold(0, |b, i| if raw[i] > raw[b] { i } else { b });
    // Sharing needs fitness that is not negative.
    let shift = raw.iter().copied().fold(0.0, f64::min);
    let ranked: Vec<Vec<usize>> = members
        .iter()
        .map(|m| {
            let mut m = m.clone();
            m.sort_by(|&a, &b| raw[b].total_cmp(&raw[a]).then(a.cmp(&b)));
            m
        })
        .collect();
    let mut stagnant = vec![false; species.len()];
    for (s, sp) in species.iter_mut().enumerate() {
        let top = raw[ranked[s][0]];
        if top > sp.best {
            sp.best = top;
            sp.improved = generation;
        }
        stagnant[s] = generation.saturating_sub(sp.improved) >= p.stagnation && !members[s].contains(&best_index);
    }
    let shares: Vec<f64> = (0..species.len())
        .map(|s| {
            if stagnant[s] {
                return 0.0;
            }
            members[s].iter().map(|&i| raw[i] - shift).sum::<f64>() / members[s].len() as f64
        })
        .collect();
    let sizes: Vec<usize> = (0..species.len()).map(|s| if stagnant[s] { 0 } else { members[s].len() }).collect();
    let counts = allot(n, &shares, &sizes);
    let pools: Vec<&[usize]> = ranked
        .iter()
        .map(|r| {
            let parents = ((p.survival * r.len() as f64).floor() as usize + 1).clamp(1, r.len());
            &r[..parents]
        })
        .collect();

    let mut innovations = Innovations::new(state.next_innovation);
    let mut next = Vec::with_capacity(n);
    for (s, &count) in counts.iter().enumerate() {
        let pool = pools[s];
        let mut left = count;
        if left > 0 && members[s].len() > p.champion_copy_above {
            next.push(population[pool[0]].clone());
            left -= 1;
        }
        for _ in 0..left {
            let pick = |rng: &mut GpRng, pool: &[usize]| pool[rng.random_range(0..pool.len())];
            let mom = pick(rng, pool);
            if rng.random_bool(p.mutation_only.clamp(0.0, 1.0)) {
                next.push(mutate(rng, &population[mom], p, &mut innovations));
                continue;
            }
            let dad = if species.len() > 1 && rng.random_bool(p.interspecies.clamp(0.0, 1.0)) {
                let other = (s + rng.random_range(1..species.len())) % species.len();
                pick(rng, pools[other])
            } else {
                pick(rng, pool)
            };
            let (fitter, other) = if raw[mom] >= raw[dad] { (mom, dad) } else { (dad, mom) };
            let child = crossover(rng, &population[fitter], &population[other], raw[mom] == raw[dad], p);
            next.push(mutate(rng, &child, p, &mut innovations));
        }
    }
    let stats = SpeciesStats {
        count: species.len(),
        sizes: members.iter().map(Vec::len).collect(),
        stagnant: stagnant.iter().filter(|&&s| s).count(),
    };
    // Species without offspring die out; the others are represented in the
    // next generation by a member of this one drawn at random.
    let mut survivors = Vec::new();
    for (s, mut sp) in species.into_iter().enumerate() {
        if counts[s] > 0 {
            sp.representative = population[members[s][rng.random_range(0..members[s].len())]].clone();
            survivors.push(sp);
        }
    }
    let state = NeatState { next_innovation: innovations.next(), next_species, species: survivors };
    (next, state, stats)
}
