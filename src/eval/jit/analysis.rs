//! What a program needs before it is compiled: its result base, the feature
//! slots it reads, whether it calls natives, whether every value it computes
//! fits in f64x2 lanes, and its structural key for hash-consing.

use crate::lang::{Base, Network, Node, Policy, PrimKind, PrimSet, Tree, Value, Weights};

use super::JitError;

/// A program the JIT compiles into one function.
#[derive(Debug, Clone, Copy)]
pub enum JitProgram<'a> {
    Tree(&'a Tree),
    /// The value of the first rule whose condition holds, else the default;
    /// the function also reports which rule fired.
    Policy(&'a Policy),
    Weights(&'a Weights),
    /// A feed-forward network, evaluated by its plan.
    Network(&'a Network),
}

/// Facts about a program, gathered in one walk over it and the bodies of the
/// definitions it calls.
#[derive(Debug, Clone, Default)]
pub struct ProgramInfo {
    /// The base of the result (`F` for policies and weights).
    pub ret: Option<Base>,
    pub uses_natives: bool,
    /// Whether any value of base `I` appears (f64x2 lanes cannot hold it).
    pub uses_int: bool,
    /// Whether the code calls Rust helpers (activations), which take one
    /// scalar at a time, so f64x2 lanes are not used.
    pub calls_helpers: bool,
    /// One more than the largest feature slot read (the slots a caller must supply).
    pub n_slots: usize,
    /// Feature slots read, sorted.
    pub slots: Vec<u32>,
    /// Nodes in the program as written (definitions count once per call, as
    /// the interpreter counts work).
    pub n_nodes: usize,
}

impl ProgramInfo {
    pub fn of(ps: &PrimSet, program: JitProgram) -> Result<ProgramInfo, JitError> {
        let mut info = ProgramInfo::default();
        match program {
            JitProgram::Tree(t) => {
                info.walk(ps, t)?;
                info.ret = Some(root_base(ps, t)?);
            }
            JitProgram::Policy(p) => {
                for rule in &p.rules {
                    info.walk(ps, &rule.condition)?;
                    info.walk(ps, &rule.value)?;
                    expect_base(ps, &rule.condition, Base::B)?;
                    expect_base(ps, &rule.value, Base::F)?;
                }
                info.walk(ps, &p.default)?;
                expect_base(ps, &p.default, Base::F)?;
                info.ret = Some(Base::F);
            }
            JitProgram::Weights(w) => {
                for (id, _) in &w.terms {
                    let prim = ps.prims.get(id.0 as usize).ok_or_else(|| bad("unknown primitive in weights"))?;
                    if let PrimKind::Feature(slot) = prim.kind {
                        info.slots.push(slot);
                    }
                    info.n_nodes += 1;
                }
                info.ret = Some(Base::F);
            }
            JitProgram::Network(net) => {
                let plan = net.plan();
                info.slots = net.features_used();
                info.n_nodes = plan.steps.iter().map(|s| 1 + s.incoming.len()).sum();
                info.calls_helpers = true;
                info.ret = Some(Base::F);
            }
        }
        info.slots.sort_unstable();
        info.slots.dedup();
        info.n_slots = info.slots.last().map_or(0, |s| *s as usize + 1);
        Ok(info)
    }

    fn walk(&mut self, ps: &PrimSet, tree: &Tree) -> Result<(), JitError> {
        self.n_nodes += tree.len();
        self.walk_body(ps, tree, 0)
    }

    fn walk_body(&mut self, ps: &PrimSet, tree: &Tree, depth: usize) -> Result<(), JitError> {
        if depth > 64 {
            return Err(JitError::Unsupported("definitions nested more than 64 deep".into()));
        }
        for node in &tree.nodes {
            match *node {
                Node::Const(v) => self.uses_int |= v.base() == Base::I,
                Node::Param(_) => {}
                Node::Prim(id) => {
                    let prim = ps.prims.get(id.0 as usize).ok_or_else(|| bad("unknown primitive"))?;
                    let bases = prim.args.iter().chain([&prim.ret]);
                    for ty in bases {
                        if ps.types.get(ty.0 as usize).is_none() {
                            return Err(bad("unknown type"));
                        }
                        self.uses_int |= ps.base(*ty) == Base::I;
                    }
                    match &prim.kind {
                        PrimKind::Feature(slot) => self.slots.push(*slot),
                        PrimKind::Native(_) => self.uses_natives = true,
                        PrimKind::Derived(d) => self.walk_body(ps, &d.body, depth + 1)?,
                        PrimKind::Builtin(_) => {}
                    }
                }
            }
        }
        Ok(())
    }
}

fn bad(what: &str) -> JitError {
    JitError::Malformed(what.into())
}

/// The base of a top-level tree's value.
pub fn root_base(ps: &PrimSet, tree: &Tree) -> Result<Base, JitError> {
    match tree.nodes.first() {
        Some(Node::Const(v)) => Ok(v.base()),
        Some(Node::Prim(id)) => {
            let prim = ps.prims.get(id.0 as usize).ok_or_else(|| bad("unknown primitive"))?;
            Ok(ps.base(prim.ret))
        }
        Some(Node::Param(_)) => Err(bad("a parameter outside a definition")),
        None => Err(bad("an empty tree")),
    }
}

fn expect_base(ps: &PrimSet, tree: &Tree, base: Base) -> Result<(), JitError> {
    let found = root_base(ps, tree)?;
    if found == base { Ok(()) } else { Err(bad(&format!("expected a tree of base {}", base.name()))) }
}

/// Tags in the upper half of a key word; primitives use the lower half only.
const TAG_CONST: u64 = 1 << 32;
const TAG_PARAM: u64 = 2 << 32;
const TAG_TREE: u64 = 3 << 32;
const TAG_PROGRAM: u64 = 4 << 32;

/// The structural key of a program: two programs with equal keys over the
/// same primset compute the same function (constants compare by bits, so
/// `0.0` and `-0.0` differ).
pub fn structural_key(program: JitProgram, extra: u64, out: &mut Vec<u64>) {
    out.clear();
    out.push(extra);
    match program {
        JitProgram::Tree(t) => {
            out.push(TAG_PROGRAM);
            key_tree(t, out);
        }
        JitProgram::Policy(p) => {
            out.push(TAG_PROGRAM | 1);
            for rule in &p.rules {
                key_tree(&rule.condition, out);
                key_tree(&rule.value, out);
            }
            key_tree(&p.default, out);
        }
        JitProgram::Weights(w) => {
            out.push(TAG_PROGRAM | 2);
            for (id, weight) in &w.terms {
                out.push(u64::from(id.0));
                out.push(weight.to_bits());
            }
        }
        JitProgram::Network(net) => {
            let plan = net.plan();
            out.push(TAG_PROGRAM | 3);
            out.push(plan.output as u64);
            out.push(plan.input_slots.len() as u64);
            out.extend(plan.input_slots.iter().map(|&s| u64::from(s)));
            for step in &plan.steps {
                out.push(TAG_TREE | step.incoming.len() as u64);
                out.push(step.node as u64);
                out.push(step.activation as u64);
                out.push(step.bias.to_bits());
                for &(from, w) in &step.incoming {
                    out.push(from as u64);
                    out.push(w.to_bits());
                }
            }
        }
    }
}

fn key_tree(tree: &Tree, out: &mut Vec<u64>) {
    out.push(TAG_TREE | tree.len() as u64);
    for node in &tree.nodes {
        match *node {
            Node::Prim(id) => out.push(u64::from(id.0)),
            Node::Const(v) => {
                let base = match v {
                    Value::F(_) => 0,
                    Value::I(_) => 1,
                    Value::B(_) => 2,
                };
                out.push(TAG_CONST | base);
                out.push(v.to_bits());
            }
            Node::Param(p) => out.push(TAG_PARAM | u64::from(p)),
        }
    }
}
