//! NEAT's mutations: one per child, as in Stanley's code: a new node with
//! probability `add_node`, else a new link with probability `add_link`,
//! else, with probability `weight_mutation`, every weight perturbed or (with
//! probability `replace`) drawn afresh. Structure only grows, and links stay
//! feed-forward: a new link never closes a cycle of enabled links.

use rand::RngExt;

use super::NeatParams;
use super::genes::{draw_weight, hidden_node, key_of};
use super::innovations::Innovations;
use crate::lang::network::{Link, NetGenes};
use crate::rng::GpRng;

/// `g` after one mutation.
pub fn mutate(rng: &mut GpRng, g: &NetGenes, p: &NeatParams, innovations: &mut Innovations) -> NetGenes {
    if rng.random_bool(p.add_node.clamp(0.0, 1.0)) {
        add_node(rng, g, innovations)
    } else if rng.random_bool(p.add_link.clamp(0.0, 1.0)) {
        add_link(rng, g, p, innovations)
    } else if rng.random_bool(p.weight_mutation.clamp(0.0, 1.0)) {
        mutate_weights(rng, g, p)
    } else {
        g.clone()
    }
}

/// Every weight (of enabled and disabled links) perturbed by a uniform step
/// of at most `perturb`, or with probability `replace` drawn afresh.
pub fn mutate_weights(rng: &mut GpRng, g: &NetGenes, p: &NeatParams) -> NetGenes {
    let mut out = g.clone();
    for l in &mut out.links {
        l.weight = if rng.random_bool(p.replace.clamp(0.0, 1.0)) {
            draw_weight(rng, p)
        } else if p.perturb > 0.0 {
            l.weight + rng.random_range(-p.perturb..=p.perturb)
        } else {
            l.weight
        };
    }
    out
}

/// An enabled link drawn at random is split by a new sigmoid node `hN`:
/// the old link is disabled, the link into the node has weight 1.0 and the
/// link out of it the old weight, so the network computes nearly what it
/// did. Unchanged when there is no enabled link.
pub fn add_node(rng: &mut GpRng, g: &NetGenes, innovations: &mut Innovations) -> NetGenes {
    let enabled: Vec<usize> = (0..g.links.len()).filter(|&i| g.links[i].enabled).collect();
    if enabled.is_empty() {
        return g.clone();
    }
    let split = enabled[rng.random_range(0..enabled.len())];
    let old = &g.links[split];
    let (node, into, out_of) = innovations.split(old.innovation.unwrap_or(0));
    let name = format!("h{node}");
    // Numbers are never reused, so only a genome read from a tampered
    // checkpoint could clash; it stays as it was.
    let clash = g.nodes.iter().any(|n| n.name == name)
        || g.links.iter().any(|l| l.innovation.is_some_and(|i| i == into || i == out_of));
    if clash {
        return g.clone();
    }
    let mut out = g.clone();
    out.links[split].enabled = false;
    let index = out.n_values();
    out.nodes.push(hidden_node(&name));
    out.links.push(Link { from: old.from, to: index, weight: 1.0, innovation: Some(into), enabled: true });
    out.links.push(Link { from: index, to: old.to, weight: old.weight, innovation: Some(out_of), enabled: true });
    out
}

/// A new link between two nodes not yet linked (in either state), into a
/// hidden node or the output, that closes no cycle of enabled links; drawn
/// uniformly among all such pairs. Unchanged when there is none.
pub fn add_link(rng: &mut GpRng, g: &NetGenes, p: &NeatParams, innovations: &mut Innovations) -> NetGenes {
    let n = g.n_values();
    let linked: std::collections::HashSet<(usize, usize)> = g.links.iter().map(|l| (l.from, l.to)).collect();
    let mut candidates = Vec::new();
    for to in g.inputs.len()..n {
        let reaches = downstream(g, to);
        // `from` downstream of `to` (or `to` itself) would close a cycle.
        let sources = reaches.iter().enumerate().filter(|&(from, &r)| !r && !linked.contains(&(from, to)));
        candidates.extend(sources.map(|(from, _)| (from, to)));
    }
    if candidates.is_empty() {
        return g.clone();
    }
    let (from, to) = candidates[rng.random_range(0..candidates.len())];
    let innovation = innovations.link(&key_of(g, from), &key_of(g, to));
    if g.links.iter().any(|l| l.innovation == Some(innovation)) {
        return g.clone();
    }
    let mut out = g.clone();
    out.links.push(Link { from, to, weight: draw_weight(rng, p), innovation: Some(innovation), enabled: true });
    out
}

/// Which nodes are reachable from `start` along enabled links (itself included).
pub fn downstream(g: &NetGenes, start: usize) -> Vec<bool> {
    let n = g.n_values();
    let mut seen = vec![false; n];
    if start >= n {
        return seen;
    }
    seen[start] = true;
    let mut stack = vec![start];
    while let Some(v) = stack.pop() {
        for l in g.links.iter().filter(|l| l.enabled && l.from == v && l.to < n) {
            if !seen[l.to] {
                seen[l.to] = true;
                stack.push(l.to);
            }
        }
    }
    seen
}
