//! Typed trees in prefix order: the IR of individuals, policies and definitions.
//!
//! A tree is a flat vector of nodes in prefix (Polish) order, as in DEAP's
//! `PrimitiveTree`: a subtree is a contiguous slice, which makes crossover,
//! size and depth cheap, and gives the interpreter and the JIT one shape to walk.

use super::primset::{PrimId, PrimKind, PrimSet};
use super::types::Value;
use crate::syntax::{Atom, Sexp, Span};

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Node {
    /// A call of a primitive (its arguments follow in prefix order).
    Prim(PrimId),
    /// A literal (a constant written in the text or drawn from an ERC).
    Const(Value),
    /// A parameter of the enclosing definition.
    Param(u16),
}

/// Serialised without its spans (trees travel between the ranks of a run).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Tree {
    pub nodes: Vec<Node>,
    /// Source spans, one per node, when the tree was read from text.
    #[serde(skip)]
    pub spans: Vec<Span>,
}

impl Tree {
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The number of children of a node.
    pub fn arity(ps: &PrimSet, node: Node) -> usize {
        match node {
            Node::Prim(id) => ps.prim(id).arity(),
            Node::Const(_) | Node::Param(_) => 0,
        }
    }

    /// One past the last node of the subtree rooted at `idx`.
    pub fn subtree_end(&self, ps: &PrimSet, idx: usize) -> usize {
        idx + Tree::subtree_len(ps, &self.nodes[idx..])
    }

    /// The number of nodes of the subtree that starts `nodes` (prefix order).
    pub fn subtree_len(ps: &PrimSet, nodes: &[Node]) -> usize {
        let mut pending = 1usize;
        let mut len = 0;
        while pending > 0 && len < nodes.len() {
            pending = pending - 1 + Tree::arity(ps, nodes[len]);
            len += 1;
        }
        len
    }

    /// Depth: the number of nodes on the longest root-to-leaf path (a single
    /// leaf has depth 1, as in ECJ).
    pub fn depth(&self, ps: &PrimSet) -> usize {
        let mut stack: Vec<usize> = Vec::new(); // remaining children per open node
        let mut max = 0;
        for &node in &self.nodes {
            let depth = stack.len() + 1;
            max = max.max(depth);
            if let Some(top) = stack.last_mut() {
                *top -= 1;
            }
            let arity = Tree::arity(ps, node);
            if arity > 0 {
                stack.push(arity);
            } else {
                while stack.last() == Some(&0) {
                    stack.pop();
                }
            }
        }
        max
    }

    /// The tree as an S-expression, naming primitives as the primset does.
    /// Zero-arity primitives print as bare symbols.
    pub fn to_sexp(&self, ps: &PrimSet, params: &[String]) -> Sexp {
        let mut idx = 0;
        self.node_to_sexp(ps, params, &mut idx)
    }

    fn node_to_sexp(&self, ps: &PrimSet, params: &[String], idx: &mut usize) -> Sexp {
        let node = self.nodes[*idx];
        *idx += 1;
        match node {
            Node::Const(Value::F(x)) => Sexp::float(x),
            Node::Const(Value::I(i)) => Sexp::int(i),
            Node::Const(Value::B(b)) => Sexp::symbol(if b { "true" } else { "false" }),
            Node::Param(p) => Sexp::symbol(params.get(p as usize).map_or("?", String::as_str)),
            Node::Prim(id) => {
                let prim = ps.prim(id);
                let head = Sexp::atom(Atom::Symbol(prim.name.clone()), Span::default());
                if prim.arity() == 0 {
                    return head;
                }
                let mut items = vec![head];
                for _ in 0..prim.arity() {
                    items.push(self.node_to_sexp(ps, params, idx));
                }
                Sexp::list(items, Span::default())
            }
        }
    }

    /// Whether the tree calls a native function anywhere (directly or through definitions).
    pub fn uses_natives(&self, ps: &PrimSet) -> bool {
        self.nodes.iter().any(|n| match n {
            Node::Prim(id) => match &ps.prim(*id).kind {
                PrimKind::Native(_) => true,
                PrimKind::Derived(d) => d.body.uses_natives(ps),
                _ => false,
            },
            _ => false,
        })
    }

    /// The feature slots the tree reads (directly or through definitions), sorted.
    pub fn features_used(&self, ps: &PrimSet) -> Vec<u32> {
        let mut out = Vec::new();
        self.collect_features(ps, &mut out);
        out.sort_unstable();
        out.dedup();
        out
    }

    fn collect_features(&self, ps: &PrimSet, out: &mut Vec<u32>) {
        for n in &self.nodes {
            if let Node::Prim(id) = n {
                match &ps.prim(*id).kind {
                    PrimKind::Feature(slot) => out.push(*slot),
                    PrimKind::Derived(d) => d.body.collect_features(ps, out),
                    _ => {}
                }
            }
        }
    }
}
