//! The reference interpreter: the semantics every other engine must match bit
//! for bit (docs/LANGUAGE.md, "Semantics").
//!
//! It walks the prefix-order tree recursively. `if`, `and`, `or`, `nand`,
//! `nor`, `first` and `not-first` evaluate only the arguments they need;
//! arguments of definitions are evaluated once, before the body (all
//! primitives are pure and total, so this order is unobservable).

use crate::lang::builtin::{Builtin, pdiv};
use crate::lang::forms::Policy;
use crate::lang::{Individual, Network, Node, PrimKind, PrimSet, Tree, Value, Weights};

/// What the domain supplies during evaluation.
pub trait Context {
    /// The 64-bit pattern of feature slot `slot` (f64 bits, i64, or 0/1).
    fn feature(&self, slot: u32) -> u64;
    /// Calls native function `native` (an index into the primset's natives).
    fn native(&mut self, native: u32, args: &[Value]) -> Value;
}

/// A context of feature values only, e.g. one row of a table.
pub struct Slots<'a>(pub &'a [u64]);

impl Context for Slots<'_> {
    fn feature(&self, slot: u32) -> u64 {
        self.0[slot as usize]
    }

    fn native(&mut self, native: u32, _args: &[Value]) -> Value {
        // The CLI refuses individuals that use natives before evaluating them
        // over a table; reaching this is a bug in the caller.
        unreachable!("native {native} called without a domain")
    }
}

pub struct Interp<'a, C: Context + ?Sized> {
    ps: &'a PrimSet,
    ctx: &'a mut C,
}

impl<'a, C: Context + ?Sized> Interp<'a, C> {
    pub fn new(ps: &'a PrimSet, ctx: &'a mut C) -> Self {
        Interp { ps, ctx }
    }

    /// Evaluates a whole tree.
    pub fn eval_tree(&mut self, tree: &Tree) -> Value {
        let mut idx = 0;
        self.eval_node(tree, &mut idx, &[])
    }

    fn skip(&self, tree: &Tree, idx: &mut usize) {
        *idx = tree.subtree_end(self.ps, *idx);
    }

    fn eval_node(&mut self, tree: &Tree, idx: &mut usize, params: &[Value]) -> Value {
        let node = tree.nodes[*idx];
        *idx += 1;
        match node {
            Node::Const(v) => v,
            Node::Param(p) => params[p as usize],
            Node::Prim(id) => {
                let prim = self.ps.prim(id);
                match &prim.kind {
                    PrimKind::Feature(slot) => Value::from_bits(self.ps.base(prim.ret), self.ctx.feature(*slot)),
                    PrimKind::Builtin(op) if op.is_lazy() => self.eval_lazy(*op, tree, idx, params),
                    PrimKind::Builtin(op) => {
                        let mut args = [Value::B(false); 2];
                        for a in args.iter_mut().take(prim.arity()) {
                            *a = self.eval_node(tree, idx, params);
                        }
                        match (op, args) {
                            // The hot path of arithmetic trees, without the generic dispatch.
                            (Builtin::Add, [Value::F(a), Value::F(b)]) => Value::F(a + b),
                            (Builtin::Sub, [Value::F(a), Value::F(b)]) => Value::F(a - b),
                            (Builtin::Mul, [Value::F(a), Value::F(b)]) => Value::F(a * b),
                            (Builtin::PDiv, [Value::F(a), Value::F(b)]) => Value::F(pdiv(a, b)),
                            _ => op.apply(&args[..prim.arity()]),
                        }
                    }
                    PrimKind::Native(n) => {
                        let args: Vec<Value> = (0..prim.arity()).map(|_| self.eval_node(tree, idx, params)).collect();
                        self.ctx.native(*n, &args)
                    }
                    PrimKind::Derived(d) => {
                        let args: Vec<Value> = (0..prim.arity()).map(|_| self.eval_node(tree, idx, params)).collect();
                        let mut body_idx = 0;
                        self.eval_node(&d.body, &mut body_idx, &args)
                    }
                }
            }
        }
    }

    fn eval_lazy(&mut self, op: Builtin, tree: &Tree, idx: &mut usize, params: &[Value]) -> Value {
        let first = self.eval_node(tree, idx, params);
        match op {
            Builtin::If => {
                if first.as_bool() {
                    let v = self.eval_node(tree, idx, params);
                    self.skip(tree, idx);
                    v
                } else {
                    self.skip(tree, idx);
                    self.eval_node(tree, idx, params)
                }
            }
            Builtin::First | Builtin::NotFirst => {
                self.skip(tree, idx);
                if op == Builtin::First { first } else { Value::B(!first.as_bool()) }
            }
            Builtin::And | Builtin::Nand => {
                let v = if first.as_bool() {
                    self.eval_node(tree, idx, params).as_bool()
                } else {
                    self.skip(tree, idx);
                    false
                };
                Value::B(if op == Builtin::And { v } else { !v })
            }
            Builtin::Or | Builtin::Nor => {
                let v = if first.as_bool() {
                    self.skip(tree, idx);
                    true
                } else {
                    self.eval_node(tree, idx, params).as_bool()
                };
                Value::B(if op == Builtin::Or { v } else { !v })
            }
            _ => unreachable!("{} is not lazy", op.name()),
        }
    }

    /// Evaluates a policy: the value of the first rule whose condition holds,
    /// else the default. Returns the value and the index of the rule that fired
    /// (`None` for the default).
    pub fn eval_policy(&mut self, policy: &Policy) -> (Value, Option<usize>) {
        for (i, rule) in policy.rules.iter().enumerate() {
            if self.eval_tree(&rule.condition).as_bool() {
                return (self.eval_tree(&rule.value), Some(i));
            }
        }
        (self.eval_tree(&policy.default), None)
    }

    /// Evaluates a weight vector: Σ weight × terminal, left to right in the
    /// order written, starting from 0.0.
    pub fn eval_weights(&mut self, weights: &Weights) -> Value {
        let mut sum = 0.0;
        for &(id, w) in &weights.terms {
            let PrimKind::Feature(slot) = self.ps.prim(id).kind else {
                continue;
            };
            sum += w * f64::from_bits(self.ctx.feature(slot));
        }
        Value::F(sum)
    }

    /// Evaluates a network (docs/LANGUAGE.md, "Networks"): the plan's nodes
    /// in order, each `activation(((bias + w1 × v1) + w2 × v2) + ...)` over
    /// its enabled incoming links in the order written; an input's value is
    /// its feature slot read as f64.
    pub fn eval_network(&mut self, net: &Network) -> Value {
        let values = self.eval_network_nodes(net);
        Value::F(values.get(net.plan().output).copied().unwrap_or(f64::NAN))
    }

    /// The value of every node of a network's plan (inputs and nodes the
    /// output does not read stay 0.0), indexed as the genes number nodes.
    pub fn eval_network_nodes(&mut self, net: &Network) -> Vec<f64> {
        let plan = net.plan();
        let mut values = vec![0.0; plan.n_values];
        for step in &plan.steps {
            let mut sum = step.bias;
            for &(from, w) in &step.incoming {
                let v = match plan.input_slots.get(from) {
                    Some(&slot) => f64::from_bits(self.ctx.feature(slot)),
                    None => values[from],
                };
                sum += w * v;
            }
            values[step.node] = step.activation.apply(sum);
        }
        values
    }

    /// Evaluates every tree of an individual, in order.
    pub fn eval_individual(&mut self, ind: &Individual) -> Vec<Value> {
        ind.trees.iter().map(|t| self.eval_tree(&t.tree)).collect()
    }
}
