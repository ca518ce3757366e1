//! Crossover aligned by innovation number (Stanley and Miikkulainen 2002,
//! section 3.2): matching genes are inherited from either parent at random,
//! disjoint and excess genes from the fitter parent (from both when they
//! are equally fit). A gene disabled in either parent stays disabled with
//! probability `keep_disabled`. The child stays a network: a second link
//! between the same two nodes is dropped, and an enabled link that would
//! close a cycle (genes from two parents can) is disabled.

use rand::RngExt;

use super::NeatParams;
use super::genes::{Key, KeyedLink, assemble, keyed_links};
use crate::lang::network::{NetGenes, NetNode};
use crate::rng::GpRng;

/// The child of `fitter` and `other`; `equal` when their fitness is equal.
pub fn crossover(rng: &mut GpRng, fitter: &NetGenes, other: &NetGenes, equal: bool, p: &NeatParams) -> NetGenes {
    let (a, b) = (keyed_links(fitter), keyed_links(other));
    let mut chosen: Vec<KeyedLink> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let (x, y) = (a.get(i), b.get(j));
        let gene = match (x, y) {
            (Some(x), Some(y)) if x.innovation == y.innovation => {
                i += 1;
                j += 1;
                let mut gene = if rng.random_bool(0.5) { x.clone() } else { y.clone() };
                gene.enabled =
                    if !x.enabled || !y.enabled { !rng.random_bool(p.keep_disabled.clamp(0.0, 1.0)) } else { true };
                Some(gene)
            }
            (Some(x), y) if y.is_none_or(|y| x.innovation < y.innovation) => {
                i += 1;
                Some(x.clone())
            }
            (_, Some(y)) => {
                j += 1;
                equal.then(|| y.clone())
            }
            (_, None) => break,
        };
        if let Some(gene) = gene
            && !chosen.iter().any(|c| c.from == gene.from && c.to == gene.to)
        {
            chosen.push(gene);
        }
    }
    disable_cycles(&mut chosen);
    let nodes: Vec<&NetNode> = fitter.nodes.iter().chain(&other.nodes).collect();
    assemble(&fitter.inputs, &nodes, chosen)
}

/// Disables, in innovation order, each enabled link that would close a
/// cycle with the enabled links kept before it.
fn disable_cycles(links: &mut [KeyedLink]) {
    let mut kept: Vec<(Key, Key)> = Vec::new();
    for l in links.iter_mut().filter(|l| l.enabled) {
        if reaches(&kept, &l.to, &l.from) {
            l.enabled = false;
        } else {
            kept.push((l.from.clone(), l.to.clone()));
        }
    }
}

/// Whether `target` can be reached from `start` along `edges` (or is it).
fn reaches(edges: &[(Key, Key)], start: &Key, target: &Key) -> bool {
    let mut seen = vec![start.clone()];
    let mut stack = vec![start.clone()];
    while let Some(v) = stack.pop() {
        if &v == target {
            return true;
        }
        for (f, t) in edges {
            if f == &v && !seen.contains(t) {
                seen.push(t.clone());
                stack.push(t.clone());
            }
        }
    }
    false
}
