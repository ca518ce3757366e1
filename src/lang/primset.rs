//! Primitive sets: the typed vocabulary trees are written in.
//!
//! A primitive is one of four kinds (see DESIGN.md, "Primitives at native
//! speed"): a built-in operation, a feature slot the domain fills, a native
//! function of the domain, or a derived definition written in the language.
//!
//! Typed trees live here too, since the two are defined by each other: a
//! tree is a sentence over a primitive set (each node names a primitive by
//! id), and a derived primitive's body is a tree. A tree is a flat vector of
//! nodes in prefix (Polish) order, as in DEAP's `PrimitiveTree`: a subtree is
//! a contiguous slice, which makes crossover, size and depth cheap, and gives
//! the interpreter and the JIT one shape to walk; trees are the IR of
//! individuals, policies and definitions.

use std::collections::HashMap;

use super::builtin::Builtin;
use super::types::{Base, TypeDef, TypeId, Value};
use crate::diagnostic::FileId;
use crate::syntax::{Atom, Sexp, Span};

/// Index of a primitive in its primitive set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct PrimId(pub u32);

#[derive(Debug, Clone)]
pub enum PrimKind {
    Builtin(Builtin),
    /// A terminal whose value the domain writes into slot `n` before evaluation.
    Feature(u32),
    /// A function of the domain called with the evaluation context; `n` indexes
    /// the primitive set's native table.
    Native(u32),
    /// A definition in the language; its body refers to parameters by index.
    Derived(Derived),
}

#[derive(Debug, Clone)]
pub struct Derived {
    pub params: Vec<String>,
    pub body: Tree,
}

#[derive(Debug, Clone)]
pub struct Primitive {
    pub name: String,
    pub args: Vec<TypeId>,
    pub ret: TypeId,
    pub kind: PrimKind,
    pub file: FileId,
    pub span: Span,
}

impl Primitive {
    pub fn arity(&self) -> usize {
        self.args.len()
    }

    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            PrimKind::Builtin(_) => "builtin function",
            PrimKind::Feature(_) => "terminal",
            PrimKind::Native(_) => "native function",
            PrimKind::Derived(_) => "definition",
        }
    }
}

/// How an ephemeral random constant draws its values.
#[derive(Debug, Clone, PartialEq)]
pub enum ErcGen {
    /// A float uniform in `[lo, hi]`.
    Uniform(f64, f64),
    /// An integer uniform in `[lo, hi]`.
    Int(i64, i64),
    /// One of a fixed set of values.
    Choice(Vec<Value>),
}

impl ErcGen {
    /// Whether `v` is a value this generator can produce.
    pub fn contains(&self, v: Value) -> bool {
        match (self, v) {
            (ErcGen::Uniform(lo, hi), Value::F(x)) => *lo <= x && x <= *hi,
            (ErcGen::Int(lo, hi), Value::I(i)) => *lo <= i && i <= *hi,
            (ErcGen::Choice(vs), v) => vs.iter().any(|c| c.same_bits(v)),
            _ => false,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            ErcGen::Uniform(lo, hi) => format!("(uniform {} {})", Value::F(*lo), Value::F(*hi)),
            ErcGen::Int(lo, hi) => format!("(int {lo} {hi})"),
            ErcGen::Choice(vs) => {
                let items: Vec<String> = vs.iter().map(Value::to_string).collect();
                format!("(choice {})", items.join(" "))
            }
        }
    }
}

/// How ERC mutation perturbs a constant, when the ERC says (`(mutate ...)`):
/// the operators of seeds/003 section 4, every result trimmed to what the
/// generator can produce.
#[derive(Debug, Clone, PartialEq)]
pub enum ErcMutation {
    /// `(gauss SD)`: add a normal variate of mean 0 (a `uniform` ERC).
    Gauss(f64),
    /// `(step N)`: add a uniform integer of [−N, N] to the value (an `int`
    /// ERC) or to its place in the list (a `choice` ERC).
    Step(i64),
    /// `(step N) (digits R...)`: the value less LO is a number in mixed
    /// radix R..., the most significant digit first (an `int` ERC whose
    /// range holds the product of the radices); each digit gets its own
    /// uniform integer of [−N, N], trimmed to 0..R−1. An area's width,
    /// height, row and column are such digits.
    Digits(i64, Vec<i64>),
}

#[derive(Debug, Clone)]
pub struct Erc {
    pub name: String,
    pub ty: TypeId,
    pub generator: ErcGen,
    /// `None`: the language's default perturbation (src/evolve/ops.rs).
    pub mutation: Option<ErcMutation>,
    pub span: Span,
}

/// The two parts of a policy (seeds/000 table 1-6): conditions (B trees)
/// and values (F trees: rule values, the default, an individual's trees,
/// the terms of a weight vector). A primset may keep a primitive to one part
/// with `(condition-only NAME...)` or `(value-only NAME...)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Condition,
    Value,
}

impl Part {
    pub fn name(self) -> &'static str {
        match self {
            Part::Condition => "condition",
            Part::Value => "value",
        }
    }
}

/// A tree an individual of this primitive set must have, e.g. `eval` of type F.
#[derive(Debug, Clone)]
pub struct TreeSlot {
    pub name: String,
    pub ty: TypeId,
    /// An optional tree may be left out (e.g. `order`, used only by selective search).
    pub optional: bool,
}

#[derive(Debug, Clone)]
pub struct PrimSet {
    pub name: String,
    pub file: FileId,
    pub span: Span,
    /// The game or data source that supplies features and natives.
    pub domain: Option<String>,
    pub types: Vec<TypeDef>,
    pub prims: Vec<Primitive>,
    pub ercs: Vec<Erc>,
    /// Types in which any literal of the base may appear in a tree.
    pub literal_types: Vec<TypeId>,
    pub tree_slots: Vec<TreeSlot>,
    /// Primitives kept to one part of a policy (`condition-only`,
    /// `value-only`, and definitions that use them); the others go anywhere.
    pub only: Vec<(PrimId, Part)>,
    /// Names of feature slots, indexed by slot.
    pub features: Vec<String>,
    /// Names of native functions, indexed by native index.
    pub natives: Vec<String>,
    by_name: HashMap<String, PrimId>,
}

impl PrimSet {
    pub fn new(name: impl Into<String>, file: FileId, span: Span) -> PrimSet {
        PrimSet {
            name: name.into(),
            file,
            span,
            domain: None,
            types: vec![
                TypeDef { name: "F".into(), base: Base::F },
                TypeDef { name: "I".into(), base: Base::I },
                TypeDef { name: "B".into(), base: Base::B },
            ],
            prims: Vec::new(),
            ercs: Vec::new(),
            literal_types: Vec::new(),
            tree_slots: Vec::new(),
            only: Vec::new(),
            features: Vec::new(),
            natives: Vec::new(),
            by_name: HashMap::new(),
        }
    }

    pub fn type_id(&self, name: &str) -> Option<TypeId> {
        self.types.iter().position(|t| t.name == name).map(|i| TypeId(i as u16))
    }

    pub fn type_name(&self, ty: TypeId) -> &str {
        &self.types[ty.0 as usize].name
    }

    pub fn base(&self, ty: TypeId) -> Base {
        self.types[ty.0 as usize].base
    }

    pub fn lookup(&self, name: &str) -> Option<PrimId> {
        self.by_name.get(name).copied()
    }

    pub fn prim(&self, id: PrimId) -> &Primitive {
        &self.prims[id.0 as usize]
    }

    /// Adds a primitive; the caller has checked that the name is free.
    pub fn add_prim(&mut self, prim: Primitive) -> PrimId {
        let id = PrimId(self.prims.len() as u32);
        self.by_name.insert(prim.name.clone(), id);
        self.prims.push(prim);
        id
    }

    /// Replaces a primitive in place (used to fill in a definition's body
    /// after its signature was registered, so that later definitions can call it).
    pub fn set_prim(&mut self, id: PrimId, prim: Primitive) {
        self.prims[id.0 as usize] = prim;
    }

    /// The part primitive `id` is kept to, if any.
    pub fn only_in(&self, id: PrimId) -> Option<Part> {
        self.only.iter().find(|(p, _)| *p == id).map(|&(_, part)| part)
    }

    /// Whether primitive `id` may appear in a tree of `part` (`None`:
    /// definitions and the REPL, where every primitive may).
    pub fn allowed_in(&self, id: PrimId, part: Option<Part>) -> bool {
        match (self.only_in(id), part) {
            (Some(only), Some(part)) => only == part,
            _ => true,
        }
    }

    pub fn prim_names(&self) -> impl Iterator<Item = &str> {
        self.prims.iter().map(|p| p.name.as_str())
    }

    /// Whether a literal `v` may appear where type `ty` is expected in an
    /// evolved tree: the type admits any literal, or an ERC of the type can
    /// produce `v`.
    pub fn literal_allowed(&self, ty: TypeId, v: Value) -> bool {
        self.literal_types.contains(&ty) || self.ercs.iter().any(|e| e.ty == ty && e.generator.contains(v))
    }

    pub fn ercs_of(&self, ty: TypeId) -> impl Iterator<Item = &Erc> {
        self.ercs.iter().filter(move |e| e.ty == ty)
    }

    /// The signature of a primitive as written in a primset: `(F F) F`.
    pub fn signature(&self, id: PrimId) -> String {
        let p = self.prim(id);
        let args: Vec<&str> = p.args.iter().map(|t| self.type_name(*t)).collect();
        format!("({}) {}", args.join(" "), self.type_name(p.ret))
    }
}

// Typed trees over a primitive set.

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
