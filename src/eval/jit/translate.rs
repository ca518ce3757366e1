//! The `FunctionTranslator`: emits Cranelift IR for a program, one
//! `translate_*` method per node kind.
//!
//! Values are kept in one of two lane shapes. `Scalar`: F is `f64`, I is
//! `i64`, B is `i8` holding 0 or 1. `X2` (two rows at once): F is `f64x2`, B
//! is an `i64x2` mask (all ones or all zeros per lane); I never appears there
//! (the analysis keeps such programs scalar). Lazy builtins are computed
//! eagerly and selected without branches, which is unobservable because
//! builtins, features and definitions are pure and total; only when the
//! skipped argument calls a native do we branch, so that natives run exactly
//! when the interpreter runs them.

use std::collections::HashMap;

use cranelift_codegen::entity::packed_option::ReservedValue;
use cranelift_codegen::ir::{self, InstBuilder, MemFlagsData, SigRef, types};
use cranelift_frontend::FunctionBuilder;

use super::JitError;
use super::native::native_trampoline;
use crate::lang::builtin::Builtin;
use crate::lang::primset::Derived;
use crate::lang::{Base, Node, PrimId, PrimKind, PrimSet, Tree, Value};

/// How many rows one evaluation of the program computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lanes {
    Scalar,
    X2,
}

/// An IR value with the base it represents.
#[derive(Debug, Clone, Copy)]
pub struct Val {
    pub v: ir::Value,
    pub base: Base,
}

/// Where feature slots are read from.
pub enum Features {
    /// `slots[slot]`, one position.
    Slots(ir::Value),
    /// Column-major rows: the address of the current row in each column
    /// read (a pointer that steps along its column as the loop goes on).
    Columns(HashMap<u32, ir::Value>),
}

pub struct FunctionTranslator<'a, 'f> {
    pub b: FunctionBuilder<'f>,
    pub ps: &'a PrimSet,
    pub lanes: Lanes,
    pub features: Features,
    /// The native frame pointer and the trampoline's signature, when the
    /// program calls natives.
    pub natives: Option<(ir::Value, SigRef)>,
    /// Constants materialised once before the row loop (X2 only), by bits and type.
    pub consts: HashMap<(u64, ir::Type), ir::Value>,
    pub ptr: ir::Type,
}

impl FunctionTranslator<'_, '_> {
    /// Translates a whole top-level tree.
    pub fn translate_tree(&mut self, tree: &Tree) -> Result<Val, JitError> {
        let mut idx = 0;
        let v = self.translate_node(tree, &mut idx, &[])?;
        if idx != tree.len() {
            return Err(JitError::Malformed("nodes left over after the root's subtree".into()));
        }
        Ok(v)
    }

    pub fn translate_node(&mut self, tree: &Tree, idx: &mut usize, params: &[Val]) -> Result<Val, JitError> {
        let Some(&node) = tree.nodes.get(*idx) else {
            return Err(JitError::Malformed("a primitive is missing arguments".into()));
        };
        *idx += 1;
        match node {
            Node::Const(v) => Ok(self.translate_const(v)),
            Node::Param(p) => self.translate_param(params, p),
            Node::Prim(id) => self.translate_prim(tree, idx, params, id),
        }
    }

    pub fn translate_const(&mut self, v: Value) -> Val {
        match v {
            Value::F(x) => self.const_f(x),
            Value::I(i) => Val { v: self.b.ins().iconst(types::I64, i), base: Base::I },
            Value::B(b) => self.const_b(b),
        }
    }

    fn translate_param(&mut self, params: &[Val], p: u16) -> Result<Val, JitError> {
        params.get(p as usize).copied().ok_or_else(|| JitError::Malformed(format!("parameter {p} out of range")))
    }

    fn translate_prim(&mut self, tree: &Tree, idx: &mut usize, params: &[Val], id: PrimId) -> Result<Val, JitError> {
        let ps = self.ps;
        let prim = ps.prims.get(id.0 as usize).ok_or_else(|| JitError::Malformed("unknown primitive".into()))?;
        let ret = ps.base(prim.ret);
        match &prim.kind {
            PrimKind::Feature(slot) => self.translate_feature(*slot, ret),
            PrimKind::Builtin(op) => {
                let mut arg_bases = [Base::F; 3];
                let arity = prim.arity().min(3);
                for (b, t) in arg_bases.iter_mut().zip(&prim.args) {
                    *b = ps.base(*t);
                }
                if prim.arity() > 3 || !op.accepts(&arg_bases[..arity], ret) {
                    return Err(JitError::Malformed(format!("builtin {} used at a wrong type", op.name())));
                }
                self.translate_builtin(*op, ret, tree, idx, params)
            }
            PrimKind::Native(n) => self.translate_native(*n, prim.arity(), ret, tree, idx, params),
            PrimKind::Derived(d) => self.translate_derived(d, prim.arity(), tree, idx, params),
        }
    }

    pub fn translate_feature(&mut self, slot: u32, base: Base) -> Result<Val, JitError> {
        let flags = MemFlagsData::new().with_notrap().with_readonly();
        let (addr, offset) = match &self.features {
            Features::Slots(p) => {
                let offset = i32::try_from(u64::from(slot) * 8)
                    .map_err(|_| JitError::Unsupported(format!("feature slot {slot} is too large")))?;
                (*p, offset)
            }
            Features::Columns(at_row) => {
                (*at_row.get(&slot).ok_or_else(|| JitError::Malformed("unbound feature".into()))?, 0)
            }
        };
        let v = match (self.lanes, base) {
            (Lanes::Scalar, Base::F) => self.b.ins().load(types::F64, flags, addr, offset),
            (Lanes::Scalar, Base::I) => self.b.ins().load(types::I64, flags, addr, offset),
            (Lanes::Scalar, Base::B) => {
                let bits = self.b.ins().load(types::I64, flags, addr, offset);
                self.b.ins().icmp_imm_s(ir::condcodes::IntCC::NotEqual, bits, 0)
            }
            (Lanes::X2, Base::F) => self.b.ins().load(types::F64X2, flags, addr, offset),
            (Lanes::X2, Base::B) => {
                let bits = self.b.ins().load(types::I64X2, flags, addr, offset);
                let zero = self.const_vec_i(0);
                self.b.ins().icmp(ir::condcodes::IntCC::NotEqual, bits, zero)
            }
            (Lanes::X2, Base::I) => return Err(JitError::Unsupported("integer values in SIMD lanes".into())),
        };
        Ok(Val { v, base })
    }

    fn translate_builtin(
        &mut self,
        op: Builtin,
        ret: Base,
        tree: &Tree,
        idx: &mut usize,
        params: &[Val],
    ) -> Result<Val, JitError> {
        match op {
            Builtin::First | Builtin::NotFirst => {
                // The second argument is never evaluated: skip it entirely.
                let first = self.translate_node(tree, idx, params)?;
                *idx = tree.subtree_end(self.ps, *idx);
                return Ok(if op == Builtin::First { first } else { self.apply_builtin(Builtin::Not, &[first])? });
            }
            _ if op.is_lazy() && self.lazy_args_call_natives(tree, *idx) => {
                return self.translate_lazy_branching(op, ret, tree, idx, params);
            }
            _ => {}
        }
        let arity = op_arity(op);
        let mut args = [Val { v: ir::Value::reserved_value(), base: Base::F }; 3];
        for a in args.iter_mut().take(arity) {
            *a = self.translate_node(tree, idx, params)?;
        }
        self.apply_builtin(op, &args[..arity])
    }

    /// Whether the arguments after the first of the lazy builtin whose first
    /// argument starts at `first_arg` call a native.
    fn lazy_args_call_natives(&self, tree: &Tree, first_arg: usize) -> bool {
        if self.natives.is_none() {
            return false;
        }
        let rest = tree.subtree_end(self.ps, first_arg);
        let mut end = rest;
        let n_lazy = if tree.nodes.get(first_arg.wrapping_sub(1)).is_some_and(|n| self.is_if(*n)) { 2 } else { 1 };
        for _ in 0..n_lazy {
            end = tree.subtree_end(self.ps, end);
        }
        let sub = Tree { nodes: tree.nodes[rest..end.min(tree.len())].to_vec(), spans: Vec::new() };
        sub.uses_natives(self.ps)
    }

    /// `if`, `and`, `or`, `nand`, `nor` with real branches, as the interpreter
    /// evaluates them, for arguments that call natives.
    fn translate_lazy_branching(
        &mut self,
        op: Builtin,
        ret: Base,
        tree: &Tree,
        idx: &mut usize,
        params: &[Val],
    ) -> Result<Val, JitError> {
        let cond = self.translate_node(tree, idx, params)?;
        let then_block = self.b.create_block();
        let else_block = self.b.create_block();
        let merge = self.b.create_block();
        let ty = self.ir_type(ret);
        self.b.append_block_param(merge, ty);
        self.b.ins().brif(cond.v, then_block, &[], else_block, &[]);
        self.b.seal_block(then_block);
        self.b.seal_block(else_block);
        // Which argument each branch evaluates (None: a constant result).
        let (then_arg, else_arg): (Option<usize>, Option<usize>) = match op {
            Builtin::If => (Some(0), Some(1)),
            Builtin::And | Builtin::Nand => (Some(0), None),
            _ => (None, Some(0)), // or, nor
        };
        let rest_start = *idx;
        let second_end = tree.subtree_end(self.ps, rest_start);
        for (block, arg, short) in [(then_block, then_arg, true), (else_block, else_arg, false)] {
            self.b.switch_to_block(block);
            let v = match arg {
                Some(k) => {
                    let mut at = if k == 0 { rest_start } else { second_end };
                    self.translate_node(tree, &mut at, params)?.v
                }
                // `and` false / `or` true without evaluating the second argument.
                None => self.const_b(short).v,
            };
            let v = match op {
                Builtin::Nand | Builtin::Nor => self.apply_builtin(Builtin::Not, &[Val { v, base: Base::B }])?.v,
                _ => v,
            };
            self.b.ins().jump(merge, &[ir::BlockArg::Value(v)]);
        }
        *idx = if op == Builtin::If { tree.subtree_end(self.ps, second_end) } else { second_end };
        self.b.switch_to_block(merge);
        self.b.seal_block(merge);
        Ok(Val { v: self.b.block_params(merge)[0], base: ret })
    }

    fn translate_native(
        &mut self,
        native: u32,
        arity: usize,
        ret: Base,
        tree: &Tree,
        idx: &mut usize,
        params: &[Val],
    ) -> Result<Val, JitError> {
        let Some((frame, sig)) = self.natives else {
            return Err(JitError::Unsupported("native functions in this mode".into()));
        };
        let mut args = Vec::with_capacity(arity);
        for _ in 0..arity {
            args.push(self.translate_node(tree, idx, params)?);
        }
        let size = u32::try_from(arity.max(1) * 8).map_err(|_| JitError::Unsupported("too many arguments".into()))?;
        let slot = self.b.create_sized_stack_slot(ir::StackSlotData::new(ir::StackSlotKind::ExplicitSlot, size, 3));
        for (k, a) in args.iter().enumerate() {
            let bits = self.bits_of(*a);
            let ptr = self.ptr;
            self.b.ins().stack_store(ptr, bits, slot, (k * 8) as i32);
        }
        let args_ptr = self.b.ins().stack_addr(self.ptr, slot, 0);
        let callee = self.b.ins().iconst(self.ptr, native_trampoline as *const () as i64);
        let n = self.b.ins().iconst(types::I32, i64::from(native));
        let n_args = self.b.ins().iconst(types::I32, arity as i64);
        let call = self.b.ins().call_indirect(sig, callee, &[frame, n, args_ptr, n_args]);
        let bits = self.b.inst_results(call)[0];
        Ok(self.value_from_bits(bits, ret))
    }

    /// Call by value: the arguments are computed once, then the body is
    /// translated inline with its parameters bound to them.
    fn translate_derived(
        &mut self,
        d: &Derived,
        arity: usize,
        tree: &Tree,
        idx: &mut usize,
        params: &[Val],
    ) -> Result<Val, JitError> {
        let mut args = Vec::with_capacity(arity);
        for _ in 0..arity {
            args.push(self.translate_node(tree, idx, params)?);
        }
        let mut body_idx = 0;
        self.translate_node(&d.body, &mut body_idx, &args)
    }

    fn is_if(&self, node: Node) -> bool {
        matches!(node, Node::Prim(id) if matches!(self.ps.prims.get(id.0 as usize).map(|p| &p.kind), Some(PrimKind::Builtin(Builtin::If))))
    }

    /// The IR type of a base in the current lane shape.
    pub fn ir_type(&self, base: Base) -> ir::Type {
        match (self.lanes, base) {
            (Lanes::Scalar, Base::F) => types::F64,
            (Lanes::Scalar, Base::I) => types::I64,
            (Lanes::Scalar, Base::B) => types::I8,
            (Lanes::X2, Base::F) => types::F64X2,
            (Lanes::X2, _) => types::I64X2,
        }
    }
}

/// The number of arguments a builtin takes.
pub fn op_arity(op: Builtin) -> usize {
    match op {
        Builtin::If => 3,
        Builtin::Neg | Builtin::Abs | Builtin::Not | Builtin::Float => 1,
        _ => 2,
    }
}
