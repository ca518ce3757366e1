//! Tests of NEAT's operators together: the genes they make are always a
//! network, and a generation is the same for the same stream.

use proptest::prelude::*;

use super::breed::{NeatState, breed};
use super::crossover::crossover;
use super::genes::{KeyedLink, initial, keyed_links};
use super::innovations::Innovations;
use super::mutate::{add_link, add_node, mutate};
use super::species::{allot, distance};
use super::{NeatParams, genes};
use crate::lang::PrimSet;
use crate::lang::forms::weighable_terminals;
use crate::lang::library::load_primset;
use crate::lang::network::NetGenes;
use crate::rng::{GpRng, stream};

fn setup(inputs: usize) -> (PrimSet, NeatParams) {
    let ps = load_primset("arith").expect("arith");
    let terms = weighable_terminals(&ps).into_iter().take(inputs).collect();
    (ps, NeatParams::new(terms))
}

fn is_network(ps: &PrimSet, g: &NetGenes) -> bool {
    g.problems(ps).is_empty()
}

/// A genome grown by `steps` structural mutations from the first network.
fn grown(rng: &mut GpRng, p: &NeatParams, t: &mut Innovations, steps: usize) -> NetGenes {
    let mut g = initial(rng, p);
    for i in 0..steps {
        g = if i % 2 == 0 { add_node(rng, &g, t) } else { add_link(rng, &g, p, t) };
    }
    g
}

fn innovations(g: &NetGenes) -> Vec<u64> {
    keyed_links(g).iter().map(|l| l.innovation).collect()
}

#[test]
fn the_first_network_links_every_input_to_the_output() {
    let (ps, p) = setup(4);
    let g = initial(&mut stream(1, &[]), &p);
    assert!(is_network(&ps, &g));
    assert_eq!(innovations(&g), vec![1, 2, 3, 4]);
    assert!(g.links.iter().all(|l| l.to == 4 && l.enabled && (-1.0..=1.0).contains(&l.weight)));
    assert_eq!(g.nodes[g.output].name, genes::OUTPUT);
}

#[test]
fn add_node_splits_a_link() {
    let (ps, p) = setup(3);
    let mut rng = stream(2, &[]);
    let g = initial(&mut rng, &p);
    let mut t = Innovations::new(4);
    let h = add_node(&mut rng, &g, &mut t);
    assert!(is_network(&ps, &h));
    let split = h.links.iter().position(|l| !l.enabled).expect("one link disabled");
    let old = &g.links[split];
    let into = h.links.iter().find(|l| l.innovation == Some(5)).expect("in-link");
    let out = h.links.iter().find(|l| l.innovation == Some(6)).expect("out-link");
    assert_eq!((into.from, into.weight, into.to), (old.from, 1.0, 4));
    assert_eq!((out.from, out.weight, out.to), (4, old.weight, old.to));
    assert_eq!(h.nodes[1].name, "h4");
}

#[test]
fn add_link_joins_unlinked_nodes_without_a_cycle() {
    let (ps, p) = setup(3);
    let mut rng = stream(15, &[]);
    let g = initial(&mut rng, &p);
    let mut t = Innovations::new(4);
    assert_eq!(add_link(&mut rng, &g, &p, &mut t), g, "fully connected: nothing to add");
    let h = add_node(&mut rng, &g, &mut t);
    for seed in 0..50 {
        let mut table = Innovations::new(t.next());
        let k = add_link(&mut stream(seed, &[16]), &h, &p, &mut table);
        assert!(is_network(&ps, &k));
        assert_eq!(k.links.len(), h.links.len() + 1);
        let new = k.links.last().expect("a new link");
        // The inputs not yet linked to the hidden node are the only pairs
        // (the output into the node would close a cycle).
        assert_eq!(new.to, 4, "into the hidden node");
        assert!(new.from < 3 && new.enabled && new.innovation == Some(t.next()));
    }
}

#[test]
fn the_same_split_in_a_generation_gets_the_same_node() {
    let (_, p) = setup(1);
    let g = initial(&mut stream(3, &[]), &p);
    let mut t = Innovations::new(2);
    let a = add_node(&mut stream(4, &[]), &g, &mut t);
    let b = add_node(&mut stream(5, &[]), &g, &mut t);
    assert_eq!(a, b, "one link to split: the same node and numbers");
    let mut later = Innovations::new(t.next());
    let c = add_node(&mut stream(4, &[]), &g, &mut later);
    assert_ne!(innovations(&a), innovations(&c), "another generation numbers anew");
}

#[test]
fn distance_counts_excess_disjoint_and_weights() {
    let (_, mut p) = setup(3);
    let mut rng = stream(6, &[]);
    let a = initial(&mut rng, &p);
    assert_eq!(distance(&a, &a, &p), 0.0);
    let mut b = a.clone();
    for l in &mut b.links {
        l.weight += 0.5;
    }
    assert!((distance(&a, &b, &p) - 0.4 * 0.5).abs() < 1e-12);
    // Genes 5 and 6 beyond a's last: excess; then a gene only a has, below b's last: disjoint.
    let mut t = Innovations::new(4);
    let c = add_node(&mut rng, &a, &mut t);
    let (xa, xc) = (innovations(&a), innovations(&c));
    assert_eq!((xa.len(), xc.len()), (3, 5));
    let w = c.links.iter().zip(&a.links).map(|(x, y)| (x.weight - y.weight).abs()).sum::<f64>() / 3.0;
    assert!((distance(&a, &c, &p) - (2.0 + 0.4 * w)).abs() < 1e-12, "two excess genes, N = 1");
    let mut d = c.clone();
    d.links.retain(|l| l.innovation != Some(2));
    assert!((distance(&a, &d, &p) - (2.0 + 1.0 + 0.4 * w)).abs() < 1e-9, "gene 2 is disjoint");
    // Large genomes are normalised by the larger gene count.
    p.small_genome = 2;
    assert!((distance(&a, &c, &p) - (2.0 / 5.0 + 0.4 * w)).abs() < 1e-12);
}

#[test]
fn crossover_aligns_genes_by_innovation() {
    let (ps, p) = setup(3);
    let mut rng = stream(7, &[]);
    let base = initial(&mut rng, &p);
    let mut t = Innovations::new(4);
    let fitter = add_node(&mut rng, &base, &mut t);
    let mut t2 = Innovations::new(t.next());
    let other = add_node(&mut rng, &base, &mut t2);
    for seed in 0..20 {
        let child = crossover(&mut stream(seed, &[]), &fitter, &other, false, &p);
        assert!(is_network(&ps, &child));
        assert_eq!(innovations(&child), innovations(&fitter), "the fitter parent's genes, no others");
        for (c, (f, o)) in keyed_links(&child).iter().zip(keyed_links(&fitter).iter().zip(&keyed_links(&other))) {
            if f.innovation <= 3 {
                assert!(c.weight == f.weight || c.weight == o.weight, "a matching gene from either parent");
            }
        }
        let both = crossover(&mut stream(seed, &[]), &fitter, &other, true, &p);
        assert!(is_network(&ps, &both));
        let mut all = innovations(&fitter);
        all.extend(innovations(&other).into_iter().filter(|i| *i > 3));
        all.sort_unstable();
        assert_eq!(innovations(&both), all, "equally fit: disjoint and excess genes of both");
    }
}

#[test]
fn crossover_keeps_disabled_genes_disabled_three_times_in_four() {
    let (_, p) = setup(2);
    let a = initial(&mut stream(8, &[]), &p);
    let mut b = a.clone();
    b.links[0].enabled = false;
    let disabled = (0..4000)
        .filter(|&s| {
            let child = crossover(&mut stream(s, &[9]), &a, &b, false, &p);
            !keyed_links(&child)[0].enabled
        })
        .count();
    assert!((2800..3200).contains(&disabled), "{disabled} of 4000");
}

#[test]
fn crossover_breaks_cycles_that_two_parents_make() {
    let (ps, p) = setup(2);
    let link = |from: genes::Key, to: genes::Key, innovation, enabled| KeyedLink {
        from,
        to,
        weight: 0.5,
        innovation,
        enabled,
    };
    let (i0, i1, out) = (genes::Key::Input(0), genes::Key::Input(1), genes::Key::Node("out".into()));
    let (a, b) = (genes::Key::Node("hA".into()), genes::Key::Node("hB".into()));
    // Both inputs' links split: input 0 → hA → out, input 1 → hB → out.
    let common = vec![
        link(i0.clone(), out.clone(), 1, false),
        link(i1.clone(), out.clone(), 2, false),
        link(i0, a.clone(), 3, true),
        link(a.clone(), out.clone(), 4, true),
        link(i1, b.clone(), 5, true),
        link(b.clone(), out, 6, true),
    ];
    let with = |extra: KeyedLink| {
        let mut links = common.clone();
        links.push(extra);
        genes::assemble(&p.inputs, &[], links)
    };
    // One parent links hA → hB, the other hB → hA: together, a cycle.
    let x = with(link(a.clone(), b.clone(), 20, true));
    let y = with(link(b, a, 21, true));
    assert!(is_network(&ps, &x) && is_network(&ps, &y));
    let child = crossover(&mut stream(12, &[]), &x, &y, true, &p);
    assert!(is_network(&ps, &child), "{:?}", child.problems(&ps));
    assert_eq!(innovations(&child), vec![1, 2, 3, 4, 5, 6, 20, 21]);
    assert!(!keyed_links(&child)[7].enabled, "the later link is disabled");
}

#[test]
fn allot_gives_every_offspring_by_largest_remainder() {
    assert_eq!(allot(10, &[1.0, 1.0, 1.0], &[1, 1, 1]), vec![4, 3, 3]);
    assert_eq!(allot(10, &[3.0, 0.0, 1.0], &[5, 5, 5]), vec![8, 0, 2]);
    assert_eq!(allot(7, &[0.0, 0.0], &[1, 3]), vec![2, 5], "no shares: by size");
    assert_eq!(allot(5, &[f64::NAN, 2.0], &[1, 1]), vec![0, 5]);
    for total in 0..50 {
        let counts = allot(total, &[0.3, 1.7, 0.0, 2.9, 0.01], &[1, 2, 3, 4, 5]);
        assert_eq!(counts.iter().sum::<usize>(), total);
        assert_eq!(counts[2], 0);
    }
}

/// Runs `generations` NEAT generations on a made-up fitness (the output's
/// weight from input 0, and a bonus for hidden nodes, so structure spreads).
fn evolve(seed: u64, generations: u64, p: &NeatParams) -> (Vec<NetGenes>, NeatState, Vec<Vec<usize>>) {
    let mut rng = stream(seed, &[0]);
    let mut population: Vec<NetGenes> = (0..30).map(|_| initial(&mut rng, p)).collect();
    let mut state = NeatState::new(p.inputs.len());
    let mut sizes = Vec::new();
    for g in 0..generations {
        let fitness: Vec<f64> = population
            .iter()
            .map(|n| n.links.first().map_or(0.0, |l| l.weight.abs()) + n.nodes.len() as f64 * 0.1)
            .collect();
        let (next, s, stats) = breed(&mut stream(seed, &[1, g]), &population, &fitness, &state, g, p);
        assert_eq!(stats.sizes.iter().sum::<usize>(), population.len());
        assert_eq!(next.len(), population.len());
        sizes.push(stats.sizes);
        population = next;
        state = s;
    }
    (population, state, sizes)
}

#[test]
fn generations_are_networks_and_repeat_for_a_seed() {
    let (ps, mut p) = setup(5);
    p.add_node = 0.2;
    p.add_link = 0.3;
    p.threshold = 1.0;
    let (pop, state, sizes) = evolve(13, 12, &p);
    assert!(pop.iter().all(|g| is_network(&ps, g)));
    assert!(pop.iter().any(|g| g.nodes.len() > 1), "structure grew");
    assert!(sizes.iter().any(|s| s.len() > 1), "more than one species: {sizes:?}");
    assert_eq!(evolve(13, 12, &p), (pop, state, sizes));
}

#[test]
fn stagnant_species_do_not_reproduce() {
    let (_, mut p) = setup(2);
    p.threshold = 0.05;
    p.stagnation = 2;
    let mut rng = stream(14, &[]);
    let population: Vec<NetGenes> = (0..10).map(|_| initial(&mut rng, &p)).collect();
    let mut state = NeatState::new(2);
    // The same fitness every generation: no species improves after the first.
    let fitness: Vec<f64> = (0..10).map(|i| i as f64).collect();
    let mut stagnant = 0;
    for g in 0..4 {
        let (_, s, stats) = breed(&mut stream(14, &[g]), &population, &fitness, &state, g, &p);
        stagnant = stagnant.max(stats.stagnant);
        // Only the species that holds the best member outlives its stagnation.
        assert!(s.species.iter().all(|sp| g < p.stagnation || sp.improved > 0 || sp.best == 9.0));
        state = s;
    }
    assert!(stagnant > 0, "species that stopped improving are left out");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever mutations and crossovers make, the genes are a network.
    #[test]
    fn variation_always_gives_networks(seed in any::<u64>(), inputs in 1usize..6, steps in 1usize..40) {
        let (ps, mut p) = setup(inputs);
        p.add_node = 0.3;
        p.add_link = 0.5;
        let mut rng = stream(seed, &[]);
        let mut t = Innovations::new(inputs as u64 + 1);
        let mut pool: Vec<NetGenes> = (0..4).map(|k| grown(&mut rng, &p, &mut t, k)).collect();
        for step in 0..steps {
            let i = step % pool.len();
            let j = (step * 7 + 3) % pool.len();
            let child = if step % 3 == 0 {
                crossover(&mut rng, &pool[i], &pool[j], step % 2 == 0, &p)
            } else {
                mutate(&mut rng, &pool[i], &p, &mut t)
            };
            prop_assert!(is_network(&ps, &child), "{:?}", child.problems(&ps));
            pool[j] = child;
            if step % 10 == 9 {
                t = Innovations::new(t.next());
            }
        }
    }
}
