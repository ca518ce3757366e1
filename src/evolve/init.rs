//! Strongly typed tree generation: grow, full and ramped half-and-half.
//!
//! Generation cannot fail for lack of a terminal: [`Builder::new`] computes,
//! for every type, the smallest depth at which a tree of it can be built from
//! terminals and ERCs, and refuses a primset where a needed type has none
//! (DEAP's typed generation fails at run time instead). A node is only given a
//! primitive whose arguments can all be completed within the remaining depth.
//! With a size limit, a tree that comes out too large is drawn again, and after
//! a few tries replaced by the smallest tree of its type.

use rand::RngExt;

use crate::diagnostic::Diagnostic;
use crate::lang::primset::ErcGen;
use crate::lang::{Node, Part, PrimId, PrimSet, Tree, TypeId, Value};
use crate::rng::GpRng;

/// How many times a tree over the size limit is drawn again before the
/// smallest tree of its type is taken instead.
const SIZE_TRIES: usize = 8;

/// How a tree's interior is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Any primitive that fits, so branches end at different depths.
    Grow,
    /// Functions while they fit, so (where types allow) every leaf is at the depth limit.
    Full,
}

/// Generates random well-typed trees over one primset.
pub struct Builder<'a> {
    ps: &'a PrimSet,
    /// Minimal depth of a tree of each type from terminals and ERCs (not from
    /// `literals`, which give no values to draw).
    min_depth: Vec<Option<usize>>,
    /// Fewest nodes of a tree of each type, likewise.
    min_size: Vec<Option<usize>>,
    /// The most nodes a tree may have: generation and the variation
    /// operators both keep to it.
    max_size: Option<usize>,
    /// Zero-arity primitives and ERC indices per type.
    leaves: Vec<Vec<Leaf>>,
    /// Primitives with arguments per result type.
    functions: Vec<Vec<PrimId>>,
    /// The builder of a policy's conditions, when the primset keeps some
    /// primitives to one part (`condition-only`, `value-only`); this builder
    /// then builds values.
    conditions: Option<Box<Builder<'a>>>,
    /// The part of a policy this builder builds.
    part: Part,
}

#[derive(Debug, Clone, Copy)]
enum Leaf {
    Prim(PrimId),
    Erc(usize),
}

/// Whether generation uses the explicitly defined intron primitives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Introns {
    Generate,
    Omit,
}

impl<'a> Builder<'a> {
    /// A builder for `ps`, or a diagnostic naming the types in `needed` from which
    /// no tree can be generated.
    pub fn new(ps: &'a PrimSet, needed: &[TypeId]) -> Result<Builder<'a>, Diagnostic> {
        Builder::with_introns(ps, needed, Introns::Generate)
    }

    /// Like [`Builder::new`]; with [`Introns::Omit`], the explicitly defined intron
    /// primitives (builtins `first` and `not-first`, the papers' NullFuncJ and
    /// NOTG, whose second argument is never used) are not generated.
    ///
    /// Where the primset keeps primitives to one part of a policy, this
    /// builder builds values (individuals' trees, rules' values, defaults)
    /// and never a `condition-only` primitive, and [`Builder::conditions`]
    /// builds conditions and never a `value-only` one; a needed B type must
    /// then be buildable by both.
    pub fn with_introns(ps: &'a PrimSet, needed: &[TypeId], introns: Introns) -> Result<Builder<'a>, Diagnostic> {
        let mut values = Builder::for_part(ps, needed, introns, Part::Value)?;
        if !ps.only.is_empty() {
            let booleans: Vec<TypeId> = needed.iter().copied().filter(|t| *t == TypeId::B).collect();
            values.conditions = Some(Box::new(Builder::for_part(ps, &booleans, introns, Part::Condition)?));
        }
        Ok(values)
    }

    /// The builder of a policy's conditions: this one unless the primset
    /// keeps primitives to one part.
    pub fn conditions(&self) -> &Builder<'a> {
        self.conditions.as_deref().unwrap_or(self)
    }

    /// A builder that uses only the primitives allowed in `part`.
    fn for_part(ps: &'a PrimSet, needed: &[TypeId], introns: Introns, part: Part) -> Result<Builder<'a>, Diagnostic> {
        use crate::lang::PrimKind;
        use crate::lang::builtin::Builtin;
        let n = ps.types.len();
        let mut leaves = vec![Vec::new(); n];
        let mut functions = vec![Vec::new(); n];
        for (i, p) in ps.prims.iter().enumerate() {
            let id = PrimId(i as u32);
            let intron = matches!(p.kind, PrimKind::Builtin(Builtin::First | Builtin::NotFirst));
            if (intron && introns == Introns::Omit) || !ps.allowed_in(id, Some(part)) {
                continue;
            }
            if p.arity() == 0 {
                leaves[p.ret.0 as usize].push(Leaf::Prim(id));
            } else {
                functions[p.ret.0 as usize].push(id);
            }
        }
        for (i, e) in ps.ercs.iter().enumerate() {
            leaves[e.ty.0 as usize].push(Leaf::Erc(i));
        }
        let generated: Vec<&crate::lang::primset::Primitive> =
            functions.iter().flatten().map(|&id: &PrimId| ps.prim(id)).collect();
        // The least depth or size of a tree of each type, by a fixpoint over the
        // functions generation may use: `combine` folds the arguments' values.
        let least = |combine: fn(Vec<usize>) -> usize| {
            let mut best: Vec<Option<usize>> = leaves.iter().map(|l| (!l.is_empty()).then_some(1)).collect();
            loop {
                let mut changed = false;
                for p in &generated {
                    let args: Option<Vec<usize>> = p.args.iter().map(|a| best[a.0 as usize]).collect();
                    if let Some(args) = args {
                        let d = 1 + combine(args);
                        let slot = &mut best[p.ret.0 as usize];
                        if slot.is_none_or(|old| d < old) {
                            *slot = Some(d);
                            changed = true;
                        }
                    }
                }
                if !changed {
                    return best;
                }
            }
        };
        let min_depth = least(|args| args.into_iter().max().unwrap_or(0));
        let min_size = least(|args| args.into_iter().sum());
        let missing: Vec<&str> =
            needed.iter().filter(|t| min_depth[t.0 as usize].is_none()).map(|t| ps.type_name(*t)).collect();
        if !missing.is_empty() {
            let what = if ps.only.is_empty() { String::new() } else { format!(" as a {}", part.name()) };
            return Err(Diagnostic::error(
                "stratagem::evolve::ungenerable",
                format!("no tree of type {}{what} can be generated from primset `{}`", missing.join(", "), ps.name),
            )
            .at(ps.file, ps.span.first_byte(), "in this primset")
            .with_help(
                "generation needs a terminal or an ERC of each type (a `literals` declaration gives no values to draw)",
            ));
        }
        Ok(Builder { ps, min_depth, min_size, max_size: None, leaves, functions, conditions: None, part })
    }

    /// This builder with a limit on the nodes of a generated tree.
    pub fn with_max_size(self, max_size: Option<usize>) -> Builder<'a> {
        let conditions = self.conditions.map(|c| Box::new(c.with_max_size(max_size)));
        Builder { max_size, conditions, ..self }
    }

    /// The node limit of every tree; no limit when `None`.
    pub fn max_size(&self) -> Option<usize> {
        self.max_size
    }

    pub fn primset(&self) -> &PrimSet {
        self.ps
    }

    /// The part of a policy this builder builds (values, unless it is a
    /// [`Builder::conditions`]).
    pub fn part(&self) -> Part {
        self.part
    }

    /// The smallest depth of a generated tree of type `ty`.
    pub fn min_depth(&self, ty: TypeId) -> Option<usize> {
        self.min_depth[ty.0 as usize]
    }

    /// The fewest nodes of a generated tree of type `ty`.
    pub fn min_size(&self, ty: TypeId) -> Option<usize> {
        self.min_size[ty.0 as usize]
    }

    /// A tree of type `ty` no deeper than `max_depth` (raised to the type's
    /// minimal depth if it is below it) and within the size limit.
    pub fn tree(&self, rng: &mut GpRng, ty: TypeId, method: Method, max_depth: usize) -> Tree {
        let depth = max_depth.max(self.min_depth(ty).unwrap_or(1));
        let fits = |t: &Tree| self.max_size.is_none_or(|m| t.len() <= m);
        for _ in 0..SIZE_TRIES {
            let mut tree = Tree::default();
            self.build(rng, ty, depth, method, &mut tree.nodes);
            if fits(&tree) {
                return tree;
            }
        }
        let mut tree = Tree::default();
        self.smallest(rng, ty, &mut tree.nodes);
        tree
    }

    /// Appends a tree of type `ty` with the fewest nodes: a leaf where the type
    /// has one, else the function whose arguments need the fewest nodes.
    fn smallest(&self, rng: &mut GpRng, ty: TypeId, out: &mut Vec<Node>) {
        let t = ty.0 as usize;
        if let Some(&leaf) = self.leaves[t].first() {
            out.push(self.leaf(rng, leaf));
            return;
        }
        let size = |f: &PrimId| -> Option<usize> {
            self.ps.prim(*f).args.iter().map(|a| self.min_size[a.0 as usize]).sum::<Option<usize>>()
        };
        if let Some(f) = self.functions[t].iter().filter(|f| size(f).is_some()).min_by_key(|f| size(f)) {
            out.push(Node::Prim(*f));
            for &arg in &self.ps.prim(*f).args {
                self.smallest(rng, arg, out);
            }
        }
    }

    /// Ramped half-and-half: `count` trees whose depth limits ramp from
    /// `min_depth` to `max_depth`, alternately grown and full.
    pub fn ramped(&self, rng: &mut GpRng, ty: TypeId, count: usize, min_depth: usize, max_depth: usize) -> Vec<Tree> {
        let span = max_depth.saturating_sub(min_depth) + 1;
        (0..count)
            .map(|i| {
                let depth = min_depth + (i / 2) % span;
                let method = if i % 2 == 0 { Method::Grow } else { Method::Full };
                self.tree(rng, ty, method, depth)
            })
            .collect()
    }

    /// Appends a subtree of type `ty` that fits in `depth` levels, in prefix order.
    pub fn build(&self, rng: &mut GpRng, ty: TypeId, depth: usize, method: Method, out: &mut Vec<Node>) {
        let t = ty.0 as usize;
        let fitting: Vec<PrimId> = self.functions[t]
            .iter()
            .copied()
            .filter(|f| {
                let args = &self.ps.prim(*f).args;
                args.iter().all(|a| self.min_depth[a.0 as usize].is_some_and(|d| d < depth))
            })
            .collect();
        let leaves = &self.leaves[t];
        let use_function = match (fitting.is_empty(), leaves.is_empty()) {
            (true, _) => false,
            (false, true) => true,
            (false, false) => match method {
                Method::Full => true,
                Method::Grow => rng.random_range(0..fitting.len() + leaves.len()) < fitting.len(),
            },
        };
        if use_function {
            let f = fitting[rng.random_range(0..fitting.len())];
            out.push(Node::Prim(f));
            for &arg in &self.ps.prim(f).args {
                self.build(rng, arg, depth - 1, method, out);
            }
        } else {
            let leaf = leaves[rng.random_range(0..leaves.len())];
            out.push(self.leaf(rng, leaf));
        }
    }

    fn leaf(&self, rng: &mut GpRng, leaf: Leaf) -> Node {
        match leaf {
            Leaf::Prim(id) => Node::Prim(id),
            Leaf::Erc(i) => Node::Const(draw(rng, &self.ps.ercs[i].generator)),
        }
    }

    /// A fresh constant for a node of type `ty`, if the type has an ERC.
    pub fn erc_value(&self, rng: &mut GpRng, ty: TypeId) -> Option<Value> {
        let ercs: Vec<&ErcGen> = self.ps.ercs_of(ty).map(|e| &e.generator).collect();
        if ercs.is_empty() {
            return None;
        }
        let pick = rng.random_range(0..ercs.len());
        Some(draw(rng, ercs[pick]))
    }
}

/// Draws a value from an ERC generator.
pub fn draw(rng: &mut GpRng, generator: &ErcGen) -> Value {
    match generator {
        ErcGen::Uniform(lo, hi) if lo < hi => Value::F(rng.random_range(*lo..=*hi)),
        ErcGen::Uniform(lo, _) => Value::F(*lo),
        ErcGen::Int(lo, hi) => Value::I(rng.random_range(*lo..=*hi)),
        ErcGen::Choice(values) => values[rng.random_range(0..values.len())],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Loader;
    use crate::rng::stream;

    const TYPED: &str = "(primset t (type Row I) (type Area F)
        (terminal a F) (terminal flag B)
        (function at (Row) F) (function grow (Area) Area) (function area-sum (Area) F)
        (function + (F F) F (builtin add)) (function if (B F F) F (builtin if))
        (function <= (F F) B (builtin le)) (function not (B) B (builtin not))
        (erc row Row (int 0 7)) (erc k F (uniform -1.0 1.0)) (erc whole Area (choice 1.0 2.0)))";

    fn primset(src: &str) -> PrimSet {
        let mut loader = Loader::new();
        loader.load_text("t.sg", src);
        assert!(loader.diags.is_empty(), "{}", loader.sources.render_plain(&loader.diags));
        loader.module.primsets[0].clone()
    }

    #[test]
    fn generated_trees_are_well_typed_and_within_depth() {
        let ps = primset(TYPED);
        let b = Builder::new(&ps, &[TypeId::F]).expect("buildable");
        let mut rng = stream(1, &[]);
        for depth in 1..8 {
            for method in [Method::Grow, Method::Full] {
                let tree = b.tree(&mut rng, TypeId::F, method, depth);
                assert!(tree.depth(&ps) <= depth.max(1), "depth {} > {depth}", tree.depth(&ps));
                let text = format!("(individual x (primset t) (tree eval {}))", tree.to_sexp(&ps, &[]));
                let mut loader = Loader::new();
                loader.load_text("t.sg", &format!("{TYPED}\n{text}"));
                assert!(loader.diags.is_empty(), "{text}\n{}", loader.sources.render_plain(&loader.diags));
            }
        }
    }

    #[test]
    fn full_trees_reach_the_limit() {
        // Where every type has functions, every branch of a full tree reaches the limit.
        let ps = primset("(primset f (terminal a F) (function + (F F) F (builtin add)) (erc k F (uniform -1.0 1.0)))");
        let b = Builder::new(&ps, &[TypeId::F]).expect("buildable");
        let mut rng = stream(2, &[]);
        for _ in 0..20 {
            let tree = b.tree(&mut rng, TypeId::F, Method::Full, 5);
            assert_eq!(tree.len(), 31, "a full binary tree of depth 5");
        }
    }

    #[test]
    fn literal_only_types_are_refused_up_front() {
        let ps = primset("(primset l (function + (F F) F (builtin add)) (literals F))");
        let err = Builder::new(&ps, &[TypeId::F]).err().expect("refused");
        assert!(err.message.contains("no tree of type F"));
    }

    #[test]
    fn the_size_limit_holds_down_to_the_smallest_tree() {
        // `pair` needs two nodes below it: the smallest W tree has 3 nodes.
        let ps = primset(
            "(primset s (type W F) (terminal a F) (function pair (F F) W) (function + (F F) F (builtin add))
              (function wrap (W) F))",
        );
        let w = ps.type_id("W").expect("type W");
        let b = Builder::new(&ps, &[TypeId::F, w]).expect("buildable");
        assert_eq!((b.min_size(TypeId::F), b.min_size(w)), (Some(1), Some(3)));
        let mut rng = stream(4, &[]);
        for max_size in 3..12 {
            let b = Builder::new(&ps, &[TypeId::F, w]).expect("buildable").with_max_size(Some(max_size));
            for method in [Method::Grow, Method::Full] {
                for depth in 2..8 {
                    let tree = b.tree(&mut rng, w, method, depth);
                    assert!((3..=max_size).contains(&tree.len()), "{} nodes, limit {max_size}", tree.len());
                    assert!(tree.depth(&ps) <= depth.max(2));
                }
            }
        }
    }
}
