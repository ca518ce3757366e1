//! Typed variation operators on trees: subtree crossover, one-way crossover,
//! subtree mutation, point mutation and ERC mutation.
//!
//! Every operator keeps trees well typed (a subtree is only replaced by one of
//! the same type) and within the depth limit of [`Limits`] and the builder's
//! size limit; when no legal choice exists the parent is returned unchanged,
//! as ECJ does after its retries.

use rand::RngExt;

use super::init::{Builder, Method, draw};
use super::shape::{heights, node_shapes, sizes};
use crate::lang::primset::{ErcGen, ErcMutation};
use crate::lang::{Node, PrimId, Tree, TypeId, Value};
use crate::rng::GpRng;

/// Limits every operator respects.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The deepest a tree may be (root = depth 1).
    pub max_depth: usize,
    /// Depth limit of the subtrees subtree mutation grows.
    pub mutation_depth: usize,
    /// Probability that a crossover or mutation point is an internal node
    /// rather than a leaf (Koza's 90/10 rule).
    pub internal_bias: f64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_depth: 17, mutation_depth: 4, internal_bias: 0.9 }
    }
}

/// How many times an operator looks for a legal point before giving up.
const TRIES: usize = 8;

/// Replaces nodes `start..end` of `tree` by `with`. Spans are dropped: the
/// result is no longer text that was read.
pub fn splice(tree: &Tree, start: usize, end: usize, with: &[Node]) -> Tree {
    let mut nodes = Vec::with_capacity(tree.len() - (end - start) + with.len());
    nodes.extend_from_slice(&tree.nodes[..start]);
    nodes.extend_from_slice(with);
    nodes.extend_from_slice(&tree.nodes[end..]);
    Tree { nodes, spans: Vec::new() }
}

/// Picks a node index, internal with probability `bias` when the tree has both kinds.
fn pick_point(b: &Builder, rng: &mut GpRng, tree: &Tree, bias: f64) -> usize {
    let ps = b.primset();
    let internal: Vec<usize> = (0..tree.len()).filter(|&i| Tree::arity(ps, tree.nodes[i]) > 0).collect();
    if !internal.is_empty() && internal.len() < tree.len() && rng.random_bool(bias) {
        return internal[rng.random_range(0..internal.len())];
    }
    let leaves: Vec<usize> = (0..tree.len()).filter(|&i| Tree::arity(ps, tree.nodes[i]) == 0).collect();
    if leaves.is_empty() { 0 } else { leaves[rng.random_range(0..leaves.len())] }
}

/// Subtree crossover: swaps a subtree of `a` with a subtree of the same type of
/// `b`, keeping both children within the depth and size limits.
pub fn crossover(b: &Builder, rng: &mut GpRng, x: &Tree, y: &Tree, root: TypeId, limits: &Limits) -> (Tree, Tree) {
    let ps = b.primset();
    let (sx, sy) = (node_shapes(ps, x, root), node_shapes(ps, y, root));
    let (hx, hy) = (heights(ps, x), heights(ps, y));
    let (nx, ny) = (sizes(ps, x), sizes(ps, y));
    let small = |n: usize| b.max_size().is_none_or(|m| n <= m);
    for _ in 0..TRIES {
        let i = pick_point(b, rng, x, limits.internal_bias);
        let (ty, di) = sx[i];
        let fits = |j: usize| {
            let (tj, dj) = sy[j];
            tj == ty
                && di + hy[j] - 1 <= limits.max_depth
                && dj + hx[i] - 1 <= limits.max_depth
                && small(x.len() - nx[i] + ny[j])
                && small(y.len() - ny[j] + nx[i])
        };
        let candidates: Vec<usize> = (0..y.len()).filter(|&j| fits(j)).collect();
        if candidates.is_empty() {
            continue;
        }
        // The second point follows the same 90/10 rule as the first; picking it
        // uniformly would mostly pick leaves and shrink the population.
        let internal: Vec<usize> = candidates.iter().copied().filter(|&j| Tree::arity(ps, y.nodes[j]) > 0).collect();
        let pool = if !internal.is_empty() && internal.len() < candidates.len() && rng.random_bool(limits.internal_bias)
        {
            &internal
        } else if internal.len() < candidates.len() {
            &candidates.iter().copied().filter(|&j| Tree::arity(ps, y.nodes[j]) == 0).collect::<Vec<_>>()
        } else {
            &candidates
        };
        let j = pool[rng.random_range(0..pool.len())];
        let (ei, ej) = (x.subtree_end(ps, i), y.subtree_end(ps, j));
        return (splice(x, i, ei, &y.nodes[j..ej]), splice(y, j, ej, &x.nodes[i..ei]));
    }
    (x.clone(), y.clone())
}

/// One-way crossover: a copy of a subtree of the (fitter) `donor` replaces a
/// subtree of the same type in `receiver`; the donor is unchanged.
pub fn one_way_crossover(
    b: &Builder,
    rng: &mut GpRng,
    receiver: &Tree,
    donor: &Tree,
    root: TypeId,
    limits: &Limits,
) -> Tree {
    crossover(b, rng, receiver, donor, root, limits).0
}

/// Subtree mutation: a random subtree is replaced by a newly grown one of the
/// same type. A child over the size limit is grown again, a few times.
pub fn subtree_mutation(b: &Builder, rng: &mut GpRng, tree: &Tree, root: TypeId, limits: &Limits) -> Tree {
    let ps = b.primset();
    let shapes = node_shapes(ps, tree, root);
    for _ in 0..TRIES {
        let i = pick_point(b, rng, tree, limits.internal_bias);
        let (ty, depth) = shapes[i];
        let room = (limits.max_depth + 1).saturating_sub(depth).min(limits.mutation_depth);
        if b.min_depth(ty).is_none_or(|d| d > room) {
            return tree.clone();
        }
        let mut grown = Vec::new();
        b.build(rng, ty, room, Method::Grow, &mut grown);
        let end = tree.subtree_end(ps, i);
        if b.max_size().is_none_or(|m| tree.len() - (end - i) + grown.len() <= m) {
            return splice(tree, i, end, &grown);
        }
    }
    tree.clone()
}

/// Point mutation, the least disruptive change: one primitive is replaced by
/// another with the same signature, or one constant by a fresh ERC value.
pub fn point_mutation(b: &Builder, rng: &mut GpRng, tree: &Tree, root: TypeId) -> Tree {
    let ps = b.primset();
    let shapes = node_shapes(ps, tree, root);
    for _ in 0..TRIES {
        let i = rng.random_range(0..tree.len());
        let replacement = match tree.nodes[i] {
            Node::Prim(id) => {
                let p = ps.prim(id);
                let same: Vec<PrimId> = (0..ps.prims.len() as u32)
                    .map(PrimId)
                    .filter(|o| *o != id && ps.prim(*o).ret == p.ret && ps.prim(*o).args == p.args)
                    .filter(|o| ps.allowed_in(*o, Some(b.part())))
                    .collect();
                (!same.is_empty()).then(|| Node::Prim(same[rng.random_range(0..same.len())]))
            }
            Node::Const(_) => b.erc_value(rng, shapes[i].0).map(Node::Const),
            Node::Param(_) => None,
        };
        if let Some(node) = replacement {
            return splice(tree, i, i + 1, &[node]);
        }
    }
    tree.clone()
}

/// ERC mutation: every constant is perturbed with probability `rate`, in the
/// way its ERC kind allows (a Gaussian step clamped to a uniform range, ±1 in
/// an integer range, a new draw from a choice set).
pub fn erc_mutation(b: &Builder, rng: &mut GpRng, tree: &Tree, root: TypeId, rate: f64) -> Tree {
    let ps = b.primset();
    let shapes = node_shapes(ps, tree, root);
    let mut out = tree.clone();
    out.spans.clear();
    for (i, node) in tree.nodes.iter().enumerate() {
        let Node::Const(v) = *node else { continue };
        if !rng.random_bool(rate) {
            continue;
        }
        let Some(erc) = ps.ercs_of(shapes[i].0).find(|e| e.generator.contains(v)) else { continue };
        out.nodes[i] = Node::Const(perturb(rng, &erc.generator, erc.mutation.as_ref(), v));
    }
    out
}

/// Scaled ERC mutation, for tuning the weights of a program: every float
/// constant of a uniform ERC in tree `pick` of `trees` is multiplied by
/// e^N(0, `sd`), trimmed to the ERC's range (a step relative to its size;
/// zero stays zero, signs stay), and so is the constant at the same place
/// of every other tree of the same shape (an ant's straight and diagonal
/// trees, one expression but for their areas, keep one set of weights).
/// Other constants stay.
pub fn scaled_erc_mutation(
    b: &Builder,
    rng: &mut GpRng,
    trees: &[Tree],
    roots: &[TypeId],
    pick: usize,
    sd: f64,
) -> Vec<Tree> {
    let ps = b.primset();
    let mut out: Vec<Tree> = trees.to_vec();
    for t in &mut out {
        t.spans.clear();
    }
    let shapes = node_shapes(ps, &trees[pick], roots[pick]);
    let same_shape = |t: &Tree| {
        t.nodes.len() == trees[pick].nodes.len()
            && t.nodes.iter().zip(&trees[pick].nodes).all(|(a, b)| match (a, b) {
                (Node::Const(x), Node::Const(y)) => x.base() == y.base(),
                _ => a == b,
            })
    };
    let twins: Vec<usize> = (0..trees.len()).filter(|&k| k == pick || same_shape(&trees[k])).collect();
    for (i, node) in trees[pick].nodes.iter().enumerate() {
        let Node::Const(v @ Value::F(_)) = *node else { continue };
        let Some(erc) = ps.ercs_of(shapes[i].0).find(|e| e.generator.contains(v)) else { continue };
        let ErcGen::Uniform(lo, hi) = erc.generator else { continue };
        let factor = gauss(rng, sd).exp();
        for &k in &twins {
            if let Node::Const(Value::F(x)) = trees[k].nodes[i] {
                out[k].nodes[i] = Node::Const(Value::F((x * factor).clamp(lo, hi)));
            }
        }
    }
    out
}

/// Constant `v` of an ERC with `generator` perturbed as the ERC's
/// `mutation` says; without one, a uniform ERC adds a normal variate of sd
/// (HI − LO)/10, an int ERC steps by ±1, and a choice is drawn afresh.
/// Every result is trimmed to the generator's range.
fn perturb(rng: &mut GpRng, generator: &ErcGen, mutation: Option<&ErcMutation>, v: Value) -> Value {
    match (generator, mutation, v) {
        (ErcGen::Uniform(lo, hi), m, Value::F(x)) => {
            let sd = match m {
                Some(ErcMutation::Gauss(sd)) => *sd,
                _ => (hi - lo) / 10.0,
            };
            Value::F((x + gauss(rng, sd)).clamp(*lo, *hi))
        }
        (ErcGen::Int(lo, hi), None, Value::I(x)) => {
            let step = if rng.random_bool(0.5) { 1 } else { -1 };
            Value::I(x.saturating_add(step).clamp(*lo, *hi))
        }
        (ErcGen::Int(lo, hi), Some(ErcMutation::Step(n)), Value::I(x)) => {
            Value::I(x.saturating_add(rng.random_range(-n..=*n)).clamp(*lo, *hi))
        }
        (ErcGen::Int(lo, _), Some(ErcMutation::Digits(n, radices)), Value::I(x)) => {
            // The digits, read from the least significant, are moved from
            // the most significant (the order of the radices), each trimmed.
            let mut rest = x.saturating_sub(*lo);
            let mut digits: Vec<i64> = radices
                .iter()
                .rev()
                .map(|&r| {
                    let d = rest % r;
                    rest /= r;
                    d
                })
                .collect();
            digits.reverse();
            let value = radices
                .iter()
                .zip(digits)
                .fold(0i64, |value, (&r, d)| value * r + d.saturating_add(rng.random_range(-n..=*n)).clamp(0, r - 1));
            Value::I(lo.saturating_add(value))
        }
        (ErcGen::Choice(values), Some(ErcMutation::Step(n)), v) => {
            let at = values.iter().position(|c| c.same_bits(v)).unwrap_or(0) as i64;
            let to = at.saturating_add(rng.random_range(-n..=*n)).clamp(0, values.len() as i64 - 1);
            values[to as usize]
        }
        (generator, _, _) => draw(rng, generator),
    }
}

/// A normal variate of mean 0 and deviation `sd`, by Box-Muller from two
/// uniforms of our own stream.
fn gauss(rng: &mut GpRng, sd: f64) -> f64 {
    let (u1, u2): (f64, f64) = (rng.random_range(f64::EPSILON..1.0), rng.random());
    sd * (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::{Loader, PrimSet};
    use crate::rng::stream;

    const TYPED: &str = "(primset t (type Row I)
        (terminal a F) (terminal flag B)
        (function at (Row) F) (function + (F F) F (builtin add)) (function - (F F) F (builtin sub))
        (function if (B F F) F (builtin if)) (function <= (F F) B (builtin le)) (function not (B) B (builtin not))
        (erc row Row (int 0 7)) (erc k F (uniform -1.0 1.0)) (erc pick F (choice 2.0 3.0)))";

    fn primset() -> PrimSet {
        let mut loader = Loader::new();
        loader.load_text("t.sg", TYPED);
        assert!(loader.diags.is_empty(), "{}", loader.sources.render_plain(&loader.diags));
        loader.module.primsets[0].clone()
    }

    fn assert_well_typed(ps: &PrimSet, tree: &Tree, max_depth: usize) {
        assert!(tree.depth(ps) <= max_depth, "depth {} > {max_depth}", tree.depth(ps));
        let text = format!("{TYPED}\n(individual x (primset t) (tree eval {}))", tree.to_sexp(ps, &[]));
        let mut loader = Loader::new();
        loader.load_text("t.sg", &text);
        assert!(loader.diags.is_empty(), "{text}\n{}", loader.sources.render_plain(&loader.diags));
    }

    #[test]
    fn operators_keep_trees_typed_and_within_limits() {
        let ps = primset();
        let b = Builder::new(&ps, &[TypeId::F]).expect("buildable");
        let limits = Limits { max_depth: 7, ..Limits::default() };
        for seed in 0..60 {
            let mut rng = stream(seed, &[]);
            let x = b.tree(&mut rng, TypeId::F, Method::Grow, 6);
            let y = b.tree(&mut rng, TypeId::F, Method::Full, 5);
            let (c, d) = crossover(&b, &mut rng, &x, &y, TypeId::F, &limits);
            assert_eq!(c.len() + d.len(), x.len() + y.len());
            for t in [
                c,
                d,
                one_way_crossover(&b, &mut rng, &x, &y, TypeId::F, &limits),
                subtree_mutation(&b, &mut rng, &x, TypeId::F, &limits),
                point_mutation(&b, &mut rng, &x, TypeId::F),
                erc_mutation(&b, &mut rng, &x, TypeId::F, 1.0),
                scaled_erc_mutation(&b, &mut rng, std::slice::from_ref(&x), &[TypeId::F], 0, 0.5)[0].clone(),
            ] {
                assert_well_typed(&ps, &t, limits.max_depth);
            }
        }
    }

    #[test]
    fn point_mutation_changes_one_node() {
        let ps = primset();
        let b = Builder::new(&ps, &[TypeId::F]).expect("buildable");
        let mut rng = stream(3, &[]);
        let x = b.tree(&mut rng, TypeId::F, Method::Full, 5);
        let y = point_mutation(&b, &mut rng, &x, TypeId::F);
        assert_eq!(x.len(), y.len());
        assert!(x.nodes.iter().zip(&y.nodes).filter(|(a, b)| a != b).count() <= 1);
    }

    #[test]
    fn operators_keep_trees_within_the_size_limit() {
        let ps = primset();
        let limits = Limits { max_depth: 9, ..Limits::default() };
        let b = Builder::new(&ps, &[TypeId::F]).expect("buildable").with_max_size(Some(25));
        let (mut crossed, mut mutated) = (0, 0);
        for seed in 0..200 {
            let mut rng = stream(seed, &[9]);
            let x = b.tree(&mut rng, TypeId::F, Method::Full, 6);
            let y = b.tree(&mut rng, TypeId::F, Method::Grow, 6);
            assert!(x.len() <= 25 && y.len() <= 25, "generated {} and {} nodes", x.len(), y.len());
            let (c, d) = crossover(&b, &mut rng, &x, &y, TypeId::F, &limits);
            crossed += usize::from(c.nodes != x.nodes);
            let m = subtree_mutation(&b, &mut rng, &x, TypeId::F, &limits);
            mutated += usize::from(m.nodes != x.nodes);
            for t in [c, d, one_way_crossover(&b, &mut rng, &x, &y, TypeId::F, &limits), m] {
                assert!(t.len() <= 25, "{} nodes", t.len());
                assert_well_typed(&ps, &t, limits.max_depth);
            }
        }
        // The limit constrains the operators without stopping them.
        assert!(crossed > 100 && mutated > 100, "crossed {crossed}, mutated {mutated} of 200");
    }

    #[test]
    fn scaled_erc_mutation_moves_floats_by_a_factor_in_trees_of_one_shape() {
        // k's constants scale, pick's 3.0 and row's 2 stay; the second tree
        // has the first's shape (but its row), the third another shape.
        let ps = primset();
        let b = Builder::new(&ps, &[TypeId::F]).expect("buildable");
        let text = format!(
            "{TYPED}\n(individual x (primset t) (tree eval (+ 0.02 (+ (at 2) (+ -0.5 3.0)))) \
             (tree twin (+ 0.02 (+ (at 5) (+ -0.5 3.0)))) (tree other (+ 0.02 -0.5)))"
        );
        let mut loader = Loader::new();
        loader.load_text("t.sg", &text);
        assert!(loader.diags.is_empty(), "{}", loader.sources.render_plain(&loader.diags));
        let trees: Vec<Tree> = loader.module.individuals[0].trees.iter().map(|t| t.tree.clone()).collect();
        let roots = [TypeId::F; 3];
        let consts = |t: &Tree| -> Vec<Value> {
            t.nodes.iter().filter_map(|n| if let Node::Const(v) = n { Some(*v) } else { None }).collect()
        };
        let mut rng = stream(5, &[]);
        let mut log_steps = Vec::new();
        for _ in 0..4000 {
            let out = scaled_erc_mutation(&b, &mut rng, &trees, &roots, 0, 0.1);
            let [Value::F(small), Value::I(2), Value::F(negative), Value::F(3.0)] = consts(&out[0])[..] else {
                panic!("{:?}", consts(&out[0]))
            };
            assert!(small > 0.0 && negative < 0.0, "the sign stays: {small} {negative}");
            let twin = consts(&out[1]);
            assert_eq!(twin, [Value::F(small), Value::I(5), Value::F(negative), Value::F(3.0)], "the twin moves alike");
            assert_eq!(consts(&out[2]), consts(&trees[2]), "another shape stays");
            log_steps.push((small / 0.02).ln());
        }
        let sd = (log_steps.iter().map(|x| x * x).sum::<f64>() / log_steps.len() as f64).sqrt();
        assert!((sd - 0.1).abs() < 0.005, "log-step sd {sd}");
        // Trimmed to the ERC's range: -0.5 scaled by a large factor stays >= -1.
        assert!(
            (0..200).all(|_| consts(&scaled_erc_mutation(&b, &mut rng, &trees, &roots, 2, 3.0)[2])[1].as_f64() >= -1.0)
        );
    }

    #[test]
    fn the_papers_erc_mutations_move_constants_as_declared() {
        let mut rng = stream(11, &[]);
        // (gauss 1/3): the steps' deviation is a third, trimmed to the range.
        let uniform = ErcGen::Uniform(-1.0, 1.0);
        let third = ErcMutation::Gauss(1.0 / 3.0);
        let steps: Vec<f64> =
            (0..20_000).map(|_| perturb(&mut rng, &uniform, Some(&third), Value::F(0.0)).as_f64()).collect();
        let sd = (steps.iter().map(|x| x * x).sum::<f64>() / steps.len() as f64).sqrt();
        assert!((sd - 1.0 / 3.0).abs() < 0.01, "sd {sd}");
        assert!((0..100).all(|_| perturb(&mut rng, &uniform, Some(&third), Value::F(1.0)).as_f64() <= 1.0));
        // (step 1) on an int: -1, 0 or +1, each often, trimmed at the ends.
        let int = ErcGen::Int(0, 5);
        let seen: std::collections::BTreeSet<i64> =
            (0..300).map(|_| perturb(&mut rng, &int, Some(&ErcMutation::Step(1)), Value::I(3)).as_i64()).collect();
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), [2, 3, 4]);
        assert!((0..100).all(|_| perturb(&mut rng, &int, Some(&ErcMutation::Step(1)), Value::I(5)).as_i64() >= 4));
        // (step 1) on a choice moves along the list.
        let choice = ErcGen::Choice(vec![Value::F(0.0), Value::F(1.0), Value::F(2.0), Value::F(3.0)]);
        let seen: std::collections::BTreeSet<u64> = (0..300)
            .map(|_| perturb(&mut rng, &choice, Some(&ErcMutation::Step(1)), Value::F(0.0)).as_f64().to_bits())
            .collect();
        assert_eq!(seen, [0.0f64, 1.0].map(f64::to_bits).into_iter().collect());
        // (step 1) (digits 6 6 11 11): an area's genes each move by at most
        // one, within their ranges; every gene moves sometimes.
        let rect = ErcGen::Int(0, 4355);
        let genes = |i: i64| [i / 726, i / 121 % 6, i / 11 % 11, i % 11];
        let digits = ErcMutation::Digits(1, vec![6, 6, 11, 11]);
        for start in [0, 4355, 2227, 1481] {
            let mut moved = [false; 4];
            for _ in 0..200 {
                let to = perturb(&mut rng, &rect, Some(&digits), Value::I(start)).as_i64();
                assert!((0..=4355).contains(&to));
                for (g, (a, b)) in genes(start).into_iter().zip(genes(to)).enumerate() {
                    assert!((a - b).abs() <= 1, "{start} -> {to}: gene {g}");
                    moved[g] |= a != b;
                }
            }
            assert_eq!(moved, [true; 4], "from {start}");
        }
        // Any step a program may declare stays in range, never overflows.
        let huge = ErcMutation::Step(i64::MAX);
        for _ in 0..50 {
            assert!((0..=5).contains(&perturb(&mut rng, &int, Some(&huge), Value::I(5)).as_i64()));
            assert!(choice.contains(perturb(&mut rng, &choice, Some(&huge), Value::F(3.0))));
            let far = ErcMutation::Digits(i64::MAX, vec![6, 6, 11, 11]);
            assert!(rect.contains(perturb(&mut rng, &rect, Some(&far), Value::I(4355))));
        }
    }
}
