//! Networks: NEAT's genomes as programs (Stanley and Miikkulainen 2002;
//! seeds/004 evolves them as game-state evaluators).
//!
//! ```text
//! (network NAME (primset P)
//!   (inputs TERMINAL...)
//!   (node NAME ACTIVATION [(bias B)] [(output)])...
//!   (link FROM TO WEIGHT [(innovation N)] [(disabled)])...)
//! ```
//!
//! [`NetGenes`] is what NEAT mutates: input nodes (F terminals of the
//! primset), hidden and output nodes with activations and biases, and
//! connection genes with innovation numbers and enable bits, in the order
//! written (NEAT keeps them in innovation order). A [`Network`] is genes
//! that passed [`NetGenes::problems`], with the [`Plan`] every engine
//! evaluates: networks are feed-forward, so a cycle of enabled links is
//! refused (disabled links are not expressed and may form one).

use super::activation::Activation;
use super::forms::PrimSetId;
use super::primset::{PrimId, PrimKind, PrimSet};
use super::types::Base;
use crate::diagnostic::FileId;
use crate::syntax::{Atom, Sexp, Span};

/// A hidden or output node.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NetNode {
    pub name: String,
    pub activation: Activation,
    pub bias: f64,
}

/// A connection gene. `from` and `to` are node indices: `0..inputs.len()`
/// are the inputs, then the nodes in the order of [`NetGenes::nodes`].
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Link {
    pub from: usize,
    pub to: usize,
    pub weight: f64,
    pub innovation: Option<u64>,
    pub enabled: bool,
}

/// A network's genes, as NEAT varies them.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NetGenes {
    /// The input nodes: F terminals of the primset, in order.
    pub inputs: Vec<PrimId>,
    pub nodes: Vec<NetNode>,
    /// Index into `nodes` of the node whose value is the network's.
    pub output: usize,
    pub links: Vec<Link>,
}

/// Why genes are not a network. Link indices point into [`NetGenes::links`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetProblem {
    /// An input that is not an F terminal of the primset.
    BadInput(usize),
    NoOutput,
    /// A link whose end is not a node.
    UnknownNode(usize),
    IntoInput(usize),
    /// The second link between the same two nodes.
    DuplicateLink {
        link: usize,
        first: usize,
    },
    DuplicateInnovation {
        link: usize,
        first: usize,
    },
    /// A weight or bias that is infinite or NaN (a link, or `None` for a node's bias).
    NotFinite(Option<usize>),
    /// Enabled links that form a cycle, in order around it.
    Cycle(Vec<usize>),
}

impl NetGenes {
    pub fn n_values(&self) -> usize {
        self.inputs.len() + self.nodes.len()
    }

    /// The name of node index `i` (an input's terminal, or a node's name).
    pub fn node_name<'a>(&'a self, ps: &'a PrimSet, i: usize) -> &'a str {
        match self.inputs.get(i) {
            Some(id) => ps.prims.get(id.0 as usize).map_or("?", |p| p.name.as_str()),
            None => self.nodes.get(i - self.inputs.len()).map_or("?", |n| n.name.as_str()),
        }
    }

    /// Everything that keeps these genes from being a network of `ps`.
    pub fn problems(&self, ps: &PrimSet) -> Vec<NetProblem> {
        let mut out = Vec::new();
        for (i, id) in self.inputs.iter().enumerate() {
            let ok = ps
                .prims
                .get(id.0 as usize)
                .is_some_and(|p| matches!(p.kind, PrimKind::Feature(_)) && ps.base(p.ret) == Base::F);
            if !ok {
                out.push(NetProblem::BadInput(i));
            }
        }
        if self.output >= self.nodes.len() {
            out.push(NetProblem::NoOutput);
        }
        if self.nodes.iter().any(|n| !n.bias.is_finite()) {
            out.push(NetProblem::NotFinite(None));
        }
        let n = self.n_values();
        let mut seen_pairs = std::collections::HashMap::new();
        let mut seen_innovations = std::collections::HashMap::new();
        for (i, l) in self.links.iter().enumerate() {
            if l.from >= n || l.to >= n {
                out.push(NetProblem::UnknownNode(i));
                continue;
            }
            if l.to < self.inputs.len() {
                out.push(NetProblem::IntoInput(i));
            }
            if !l.weight.is_finite() {
                out.push(NetProblem::NotFinite(Some(i)));
            }
            if let Some(&first) = seen_pairs.get(&(l.from, l.to)) {
                out.push(NetProblem::DuplicateLink { link: i, first });
            } else {
                seen_pairs.insert((l.from, l.to), i);
            }
            if let Some(inn) = l.innovation {
                if let Some(&first) = seen_innovations.get(&inn) {
                    out.push(NetProblem::DuplicateInnovation { link: i, first });
                } else {
                    seen_innovations.insert(inn, i);
                }
            }
        }
        if out.iter().all(|p| !matches!(p, NetProblem::UnknownNode(_)))
            && let Some(cycle) = self.find_cycle()
        {
            out.push(NetProblem::Cycle(cycle));
        }
        out
    }

    /// The enabled links into each node, in the order written.
    fn incoming(&self) -> Vec<Vec<usize>> {
        let mut incoming = vec![Vec::new(); self.n_values()];
        for (i, l) in self.links.iter().enumerate() {
            if l.enabled && l.to < incoming.len() && l.from < incoming.len() {
                incoming[l.to].push(i);
            }
        }
        incoming
    }

    /// A cycle of enabled links, if any (depth-first search along incoming
    /// links, without recursion, so deep networks cannot overflow the stack).
    fn find_cycle(&self) -> Option<Vec<usize>> {
        let incoming = self.incoming();
        // 0: unvisited, 1: on the path, 2: done.
        let mut state = vec![0u8; self.n_values()];
        for start in 0..self.n_values() {
            if state[start] != 0 {
                continue;
            }
            // (node, next incoming link to follow, the link that led here)
            let mut stack: Vec<(usize, usize, Option<usize>)> = vec![(start, 0, None)];
            state[start] = 1;
            while let Some(top) = stack.last_mut() {
                let (node, k) = (top.0, top.1);
                let Some(&link) = incoming[node].get(k) else {
                    state[node] = 2;
                    stack.pop();
                    continue;
                };
                top.1 += 1;
                let from = self.links[link].from;
                match state[from] {
                    0 => {
                        state[from] = 1;
                        stack.push((from, 0, Some(link)));
                    }
                    1 => {
                        // `from` is on the path: the links from it down to here, then `link`.
                        let at = stack.iter().position(|s| s.0 == from).unwrap_or(0);
                        let mut cycle: Vec<usize> = stack[at + 1..].iter().filter_map(|s| s.2).collect();
                        cycle.push(link);
                        // Written along the flow: from `from` onwards.
                        cycle.reverse();
                        return Some(cycle);
                    }
                    _ => {}
                }
            }
        }
        None
    }

    /// The evaluation plan (genes without problems; see [`Network::new`]).
    fn plan(&self, ps: &PrimSet) -> Plan {
        let incoming = self.incoming();
        let n_inputs = self.inputs.len();
        let output = n_inputs + self.output;
        // Post-order from the output along incoming links: every node after
        // the nodes it reads. Only the output's ancestors are evaluated.
        let mut order = Vec::new();
        let mut done = vec![false; self.n_values()];
        let mut stack = vec![(output, 0usize)];
        done[output] = true;
        while let Some(top) = stack.last_mut() {
            let (node, k) = *top;
            match incoming[node].get(k) {
                Some(&link) => {
                    top.1 += 1;
                    let from = self.links[link].from;
                    if !done[from] {
                        done[from] = true;
                        stack.push((from, 0));
                    }
                }
                None => {
                    stack.pop();
                    if node >= n_inputs {
                        order.push(node);
                    }
                }
            }
        }
        let steps = order
            .into_iter()
            .map(|node| {
                let gene = &self.nodes[node - n_inputs];
                Step {
                    node,
                    activation: gene.activation,
                    bias: gene.bias,
                    incoming: incoming[node].iter().map(|&l| (self.links[l].from, self.links[l].weight)).collect(),
                }
            })
            .collect();
        let input_slots = self
            .inputs
            .iter()
            .map(|id| match ps.prims.get(id.0 as usize).map(|p| &p.kind) {
                Some(PrimKind::Feature(slot)) => *slot,
                _ => 0,
            })
            .collect();
        Plan { input_slots, n_values: self.n_values(), steps, output }
    }
}

/// How a network is evaluated: values are numbered as nodes are (inputs
/// first); each step computes one node from values computed before it.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The feature slot each input reads.
    pub input_slots: Vec<u32>,
    pub n_values: usize,
    /// The output's ancestors, each after every node it reads.
    pub steps: Vec<Step>,
    /// The value that is the network's.
    pub output: usize,
}

/// One node's evaluation: `activation(((bias + w1 × v1) + w2 × v2) + ...)`
/// over its enabled incoming links in the order written.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub node: usize,
    pub activation: Activation,
    pub bias: f64,
    /// (value index, weight), in link order.
    pub incoming: Vec<(usize, f64)>,
}

/// A checked network: genes without problems, and their plan.
#[derive(Debug, Clone)]
pub struct Network {
    pub name: String,
    pub primset: PrimSetId,
    genes: NetGenes,
    plan: Plan,
    pub file: FileId,
    pub span: Span,
}

impl Network {
    /// The network of `genes`, or what is wrong with them.
    pub fn new(name: String, ps_id: PrimSetId, ps: &PrimSet, genes: NetGenes) -> Result<Network, Vec<NetProblem>> {
        let problems = genes.problems(ps);
        if !problems.is_empty() {
            return Err(problems);
        }
        let plan = genes.plan(ps);
        Ok(Network { name, primset: ps_id, genes, plan, file: FileId::default(), span: Span::default() })
    }

    pub fn at(mut self, file: FileId, span: Span) -> Network {
        self.file = file;
        self.span = span;
        self
    }

    pub fn genes(&self) -> &NetGenes {
        &self.genes
    }

    pub fn into_genes(self) -> NetGenes {
        self.genes
    }

    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The feature slots the network reads (its inputs that reach the
    /// output), sorted.
    pub fn features_used(&self) -> Vec<u32> {
        let mut used: Vec<u32> = self
            .plan
            .steps
            .iter()
            .flat_map(|s| s.incoming.iter())
            .filter_map(|&(v, _)| self.plan.input_slots.get(v).copied())
            .collect();
        used.sort_unstable();
        used.dedup();
        used
    }

    /// The longest path from an input to the output, in nodes (an output
    /// without incoming links has depth 1; so has a tree of one leaf).
    pub fn depth(&self) -> usize {
        let mut depth = vec![1usize; self.plan.n_values];
        for s in &self.plan.steps {
            depth[s.node] = s.incoming.iter().map(|&(v, _)| depth[v] + 1).max().unwrap_or(1);
        }
        depth[self.plan.output]
    }

    /// The `(network ...)` form, in the canonical order: inputs, nodes, links.
    pub fn to_sexp(&self, ps: &PrimSet) -> Sexp {
        let sym = |s: &str| Sexp::atom(Atom::Symbol(s.to_owned()), Span::default());
        let list = |items: Vec<Sexp>| Sexp::list(items, Span::default());
        let g = &self.genes;
        let mut items = vec![sym("network"), sym(&self.name), list(vec![sym("primset"), sym(&ps.name)])];
        let inputs = g.inputs.iter().map(|id| sym(&ps.prim(*id).name));
        items.push(list([sym("inputs")].into_iter().chain(inputs).collect()));
        for (i, n) in g.nodes.iter().enumerate() {
            let mut node = vec![sym("node"), sym(&n.name), sym(n.activation.name())];
            if n.bias.to_bits() != 0 {
                node.push(list(vec![sym("bias"), Sexp::float(n.bias)]));
            }
            if i == g.output {
                node.push(list(vec![sym("output")]));
            }
            items.push(list(node));
        }
        for l in &g.links {
            let mut link =
                vec![sym("link"), sym(g.node_name(ps, l.from)), sym(g.node_name(ps, l.to)), Sexp::float(l.weight)];
            if let Some(inn) = l.innovation {
                link.push(list(vec![sym("innovation"), Sexp::int(inn.min(i64::MAX as u64) as i64)]));
            }
            if !l.enabled {
                link.push(list(vec![sym("disabled")]));
            }
            items.push(list(link));
        }
        list(items)
    }
}
