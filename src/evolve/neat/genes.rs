//! Genes as NEAT compares them: a link's ends by name (an input's index,
//! or a node's name) rather than by position in one genome's node list,
//! so that the genes of two genomes line up; and the first network of a
//! run, every input linked to one output.

use rand::RngExt;

use super::NeatParams;
use crate::lang::activation::Activation;
use crate::lang::network::{Link, NetGenes, NetNode};
use crate::rng::GpRng;

/// The name of the output node of every evolved network.
pub const OUTPUT: &str = "out";

/// A node as genomes share it: input `i` of the run's inputs, or a node by name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    Input(usize),
    Node(String),
}

/// A connection gene with its ends as keys.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyedLink {
    pub from: Key,
    pub to: Key,
    pub weight: f64,
    pub innovation: u64,
    pub enabled: bool,
}

/// The key of node index `i` of `g` (an index past its nodes, which a
/// checked network never has, is taken for an input).
pub fn key_of(g: &NetGenes, i: usize) -> Key {
    let node = i.checked_sub(g.inputs.len()).and_then(|k| g.nodes.get(k));
    node.map_or(Key::Input(i), |n| Key::Node(n.name.clone()))
}

/// The links of `g` with keyed ends, in innovation order (a link without
/// an innovation number, which evolution never makes, counts as 0).
pub fn keyed_links(g: &NetGenes) -> Vec<KeyedLink> {
    let mut links: Vec<KeyedLink> = g
        .links
        .iter()
        .map(|l| KeyedLink {
            from: key_of(g, l.from),
            to: key_of(g, l.to),
            weight: l.weight,
            innovation: l.innovation.unwrap_or(0),
            enabled: l.enabled,
        })
        .collect();
    links.sort_by_key(|l| l.innovation);
    links
}

/// Genes over `inputs` from keyed links: the output node first, then the
/// hidden nodes in the order links first name them (taken from `nodes`,
/// the parents' node genes; a name none of them has becomes a sigmoid
/// node), links in innovation order. Links whose ends are unknown inputs
/// are dropped.
pub fn assemble(inputs: &[crate::lang::PrimId], nodes: &[&NetNode], mut links: Vec<KeyedLink>) -> NetGenes {
    links.sort_by_key(|l| l.innovation);
    links.retain(|l| [&l.from, &l.to].iter().all(|k| !matches!(k, Key::Input(i) if *i >= inputs.len())));
    let mut names: Vec<&str> = vec![OUTPUT];
    for l in &links {
        for k in [&l.from, &l.to] {
            if let Key::Node(n) = k
                && !names.contains(&n.as_str())
            {
                names.push(n);
            }
        }
    }
    let node_genes: Vec<NetNode> = names
        .iter()
        .map(|&name| nodes.iter().find(|n| n.name == name).map_or_else(|| hidden_node(name), |n| (*n).clone()))
        .collect();
    let index = |k: &Key| match k {
        Key::Input(i) => *i,
        Key::Node(n) => inputs.len() + names.iter().position(|m| m == n).unwrap_or(0),
    };
    let links = links
        .iter()
        .map(|l| Link {
            from: index(&l.from),
            to: index(&l.to),
            weight: l.weight,
            innovation: Some(l.innovation),
            enabled: l.enabled,
        })
        .collect();
    NetGenes { inputs: inputs.to_vec(), nodes: node_genes, output: 0, links }
}

/// A new hidden node: NEAT's sigmoid (slope 4.9), no bias.
pub fn hidden_node(name: &str) -> NetNode {
    NetNode { name: name.to_owned(), activation: Activation::Sigmoid, bias: 0.0 }
}

/// The first network of a run: every input linked to the output, input `i`
/// by innovation `i + 1`, weights uniform in the range. The next free
/// innovation number is then `inputs + 1`.
pub fn initial(rng: &mut GpRng, p: &NeatParams) -> NetGenes {
    let links = (0..p.inputs.len())
        .map(|i| Link {
            from: i,
            to: p.inputs.len(),
            weight: draw_weight(rng, p),
            innovation: Some(i as u64 + 1),
            enabled: true,
        })
        .collect();
    NetGenes { inputs: p.inputs.clone(), nodes: vec![hidden_node(OUTPUT)], output: 0, links }
}

/// A weight drawn uniformly from the range.
pub fn draw_weight(rng: &mut GpRng, p: &NeatParams) -> f64 {
    let (lo, hi) = p.weight_range;
    if lo < hi { rng.random_range(lo..=hi) } else { lo }
}
