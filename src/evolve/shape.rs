//! The shape of a tree as operators need it: the type, depth, height and size
//! of every node.

use crate::lang::{Node, PrimSet, Tree, TypeId};

/// Type and depth (root = 1) of each node of `tree`, whose root has type `root`.
/// Constants take the type of the argument position they fill.
pub fn node_shapes(ps: &PrimSet, tree: &Tree, root: TypeId) -> Vec<(TypeId, usize)> {
    let mut out = Vec::with_capacity(tree.len());
    // Pending argument positions, top = next: (type, depth).
    let mut pending: Vec<(TypeId, usize)> = vec![(root, 1)];
    for &node in &tree.nodes {
        let Some((ty, depth)) = pending.pop() else { break };
        out.push((ty, depth));
        if let Node::Prim(id) = node {
            for &arg in ps.prim(id).args.iter().rev() {
                pending.push((arg, depth + 1));
            }
        }
    }
    out
}

/// Depth of the subtree rooted at each node (a leaf has height 1).
pub fn heights(ps: &PrimSet, tree: &Tree) -> Vec<usize> {
    let mut h = vec![1usize; tree.len()];
    for i in (0..tree.len()).rev() {
        if let Node::Prim(id) = tree.nodes[i] {
            let mut child = i + 1;
            let mut best = 0;
            for _ in 0..ps.prim(id).arity() {
                best = best.max(h[child]);
                child = tree.subtree_end(ps, child);
            }
            h[i] = 1 + best;
        }
    }
    h
}

/// Nodes in the subtree rooted at each node (a leaf has size 1).
pub fn sizes(ps: &PrimSet, tree: &Tree) -> Vec<usize> {
    let mut size = vec![1usize; tree.len()];
    for i in (0..tree.len()).rev() {
        if let Node::Prim(id) = tree.nodes[i] {
            let mut child = i + 1;
            for _ in 0..ps.prim(id).arity() {
                size[i] += size[child];
                child += size[child];
            }
        }
    }
    size
}
