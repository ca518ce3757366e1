//! The functions built around a program: one call per position, or a loop
//! over the rows of a column-major table that the compiled code runs itself
//! (two rows per iteration in f64x2 lanes when every value is F or B).
//!
//! Policies become a chain of branches in scalar code (the interpreter's
//! order: later rules are not evaluated once one fires) and a chain of
//! selects in SIMD lanes, where the two rows may take different rules.

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{self, AbiParam, InstBuilder, MemFlagsData, types};
use cranelift_codegen::isa::TargetFrontendConfig;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};

use super::JitError;
use super::analysis::{JitProgram, ProgramInfo};
use super::translate::{Features, FunctionTranslator, Lanes, Val};
use crate::lang::{Base, Node, PrimKind, PrimSet, Tree};

/// What every function shell needs to know.
pub struct ShellSpec<'a> {
    pub ps: &'a PrimSet,
    pub program: JitProgram<'a>,
    pub info: &'a ProgramInfo,
    pub lanes: Lanes,
    pub ptr: ir::Type,
    pub frontend: TargetFrontendConfig,
    /// The calling convention of Rust's `extern "C"` helpers.
    pub call_conv: cranelift_codegen::isa::CallConv,
}

/// The signature of a per-position function: `(slots, frame, aux) -> bits`.
pub fn position_signature(sig: &mut ir::Signature, ptr: ir::Type) {
    sig.params.extend([AbiParam::new(ptr), AbiParam::new(ptr), AbiParam::new(ptr)]);
    sig.returns.push(AbiParam::new(types::I64));
}

/// The signature of a batch function: `(columns, stride, n_rows, out, aux)`.
pub fn batch_signature(sig: &mut ir::Signature, ptr: ir::Type) {
    sig.params.extend([
        AbiParam::new(ptr),
        AbiParam::new(types::I64),
        AbiParam::new(types::I64),
        AbiParam::new(ptr),
        AbiParam::new(ptr),
    ]);
}

/// Builds a per-position function into `func` (whose signature is set).
pub fn build_position(
    spec: &ShellSpec,
    func: &mut ir::Function,
    fctx: &mut FunctionBuilderContext,
    call_conv: cranelift_codegen::isa::CallConv,
) -> Result<(), JitError> {
    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let [slots, frame, aux] = b.block_params(entry)[..] else {
        return Err(JitError::Codegen("unexpected signature".into()));
    };
    let natives = if spec.info.uses_natives {
        let mut sig = ir::Signature::new(call_conv);
        sig.params.extend([
            AbiParam::new(spec.ptr),
            AbiParam::new(types::I32),
            AbiParam::new(spec.ptr),
            AbiParam::new(types::I32),
        ]);
        sig.returns.push(AbiParam::new(types::I64));
        Some((frame, b.import_signature(sig)))
    } else {
        None
    };
    let mut t = FunctionTranslator {
        b,
        ps: spec.ps,
        lanes: Lanes::Scalar,
        features: Features::Slots(slots),
        natives,
        consts: HashMap::new(),
        ptr: spec.ptr,
    };
    let (value, rule) = translate_program(&mut t, spec.program, spec.call_conv)?;
    if let Some(rule) = rule {
        t.b.ins().store(MemFlagsData::trusted(), rule, aux, 0);
    }
    let bits = t.bits_of(value);
    t.b.ins().return_(&[bits]);
    t.b.finalize(spec.frontend);
    Ok(())
}

/// Builds a function that loops over rows `[0, n_rows)` in steps of the lane count.
pub fn build_batch(
    spec: &ShellSpec,
    func: &mut ir::Function,
    fctx: &mut FunctionBuilderContext,
) -> Result<(), JitError> {
    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    let header = b.create_block();
    let body = b.create_block();
    let exit = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.append_block_param(header, types::I64);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let [cols, stride, n_rows, out, aux] = b.block_params(entry)[..] else {
        return Err(JitError::Codegen("unexpected signature".into()));
    };
    // Constants are made once, before the loop. Each column read has a
    // pointer of its own, a parameter of the loop's header that steps to the
    // next rows with one addition: column bases computed once before the
    // loop were recomputed by Cranelift in every iteration (a shift, a
    // multiplication and an addition per column), and an unchanged loop
    // parameter is folded back into the value it stands for.
    let stride_bytes = b.ins().ishl_imm_u(stride, 3);
    let mut entry_bases = Vec::with_capacity(spec.info.slots.len());
    for &slot in &spec.info.slots {
        let offset = b.ins().imul_imm_s(stride_bytes, i64::from(slot));
        entry_bases.push(ir::BlockArg::Value(b.ins().iadd(cols, offset)));
        b.append_block_param(header, spec.ptr);
    }
    let zero = b.ins().iconst(types::I64, 0);
    let mut t = FunctionTranslator {
        b,
        ps: spec.ps,
        lanes: spec.lanes,
        features: Features::Columns(HashMap::new()),
        natives: None,
        consts: HashMap::new(),
        ptr: spec.ptr,
    };
    premake_consts(&mut t, spec.program);
    let mut args = vec![ir::BlockArg::Value(zero)];
    args.extend(entry_bases);
    t.b.ins().jump(header, &args);

    t.b.switch_to_block(header);
    let params = t.b.block_params(header).to_vec();
    let row = params[0];
    let column_at_row = &params[1..];
    if let Features::Columns(at_row) = &mut t.features {
        at_row.extend(spec.info.slots.iter().copied().zip(column_at_row.iter().copied()));
    }
    let more = t.b.ins().icmp(IntCC::UnsignedLessThan, row, n_rows);
    t.b.ins().brif(more, body, &[], exit, &[]);
    t.b.seal_block(body);
    t.b.seal_block(exit);

    t.b.switch_to_block(body);
    let offset = t.b.ins().ishl_imm_u(row, 3);
    let (value, rule) = translate_program(&mut t, spec.program, spec.call_conv)?;
    let flags = MemFlagsData::new().with_notrap();
    let out_at = t.b.ins().iadd(out, offset);
    let stored = match (t.lanes, value.base) {
        (Lanes::Scalar, _) => t.bits_of(value),
        (Lanes::X2, Base::B) => {
            let one = t.const_vec_i(1);
            t.b.ins().band(value.v, one)
        }
        (Lanes::X2, _) => value.v,
    };
    t.b.ins().store(flags, stored, out_at, 0);
    if let Some(rule) = rule {
        let aux_at = t.b.ins().iadd(aux, offset);
        t.b.ins().store(flags, rule, aux_at, 0);
    }
    let lanes = if t.lanes == Lanes::X2 { 2 } else { 1 };
    let next = t.b.ins().iadd_imm_s(row, lanes);
    let mut args = vec![ir::BlockArg::Value(next)];
    for &at in column_at_row {
        args.push(ir::BlockArg::Value(t.b.ins().iadd_imm_s(at, 8 * lanes)));
    }
    t.b.ins().jump(header, &args);
    t.b.seal_block(header);

    t.b.switch_to_block(exit);
    t.b.ins().return_(&[]);
    t.b.finalize(spec.frontend);
    Ok(())
}

/// Translates the program at the current block; returns its value and, for
/// a policy, the rule slot (i64, or i64x2 in X2 lanes; -1 is the default).
fn translate_program(
    t: &mut FunctionTranslator,
    program: JitProgram,
    call_conv: cranelift_codegen::isa::CallConv,
) -> Result<(Val, Option<ir::Value>), JitError> {
    match program {
        JitProgram::Network(net) => Ok((super::network::translate_network(t, net, call_conv)?, None)),
        JitProgram::Tree(tree) => Ok((t.translate_tree(tree)?, None)),
        JitProgram::Policy(p) if t.lanes == Lanes::X2 => {
            // Select chain, last rule first: the first rule that holds wins.
            let mut value = t.translate_tree(&p.default)?;
            let mut rule = t.const_vec_i(-1);
            for (i, r) in p.rules.iter().enumerate().rev() {
                let c = t.translate_tree(&r.condition)?;
                let v = t.translate_tree(&r.value)?;
                value = t.select(c.v, v, value);
                let idx = t.const_vec_i(i as i64);
                rule = t.b.ins().bitselect(c.v, idx, rule);
            }
            Ok((value, Some(rule)))
        }
        JitProgram::Policy(p) => {
            let exit = t.b.create_block();
            t.b.append_block_param(exit, types::F64);
            t.b.append_block_param(exit, types::I64);
            for (i, r) in p.rules.iter().enumerate() {
                let c = t.translate_tree(&r.condition)?;
                let fire = t.b.create_block();
                let next = t.b.create_block();
                t.b.ins().brif(c.v, fire, &[], next, &[]);
                t.b.seal_block(fire);
                t.b.seal_block(next);
                t.b.switch_to_block(fire);
                let v = t.translate_tree(&r.value)?;
                let idx = t.b.ins().iconst(types::I64, i as i64);
                t.b.ins().jump(exit, &[ir::BlockArg::Value(v.v), ir::BlockArg::Value(idx)]);
                t.b.switch_to_block(next);
            }
            let v = t.translate_tree(&p.default)?;
            let idx = t.b.ins().iconst(types::I64, -1);
            t.b.ins().jump(exit, &[ir::BlockArg::Value(v.v), ir::BlockArg::Value(idx)]);
            t.b.switch_to_block(exit);
            t.b.seal_block(exit);
            let params = t.b.block_params(exit);
            Ok((Val { v: params[0], base: Base::F }, Some(params[1])))
        }
        JitProgram::Weights(w) => {
            // sum = 0.0; sum += w * f, in the order written.
            let mut sum = t.const_f(0.0);
            for &(id, weight) in &w.terms {
                let Some(PrimKind::Feature(slot)) = t.ps.prims.get(id.0 as usize).map(|p| &p.kind) else {
                    continue;
                };
                let f = t.translate_feature(*slot, Base::F)?;
                let wv = t.const_f(weight);
                let prod = t.b.ins().fmul(wv.v, f.v);
                sum = Val { v: t.b.ins().fadd(sum.v, prod), base: Base::F };
            }
            Ok((sum, None))
        }
    }
}

/// Materialises the constants a program uses before the row loop (X2 only;
/// scalar constants are immediates Cranelift rematerialises at each use).
fn premake_consts(t: &mut FunctionTranslator, program: JitProgram) {
    if t.lanes != Lanes::X2 {
        return;
    }
    for x in [0.0, 1.0, crate::lang::builtin::PDIV_EPSILON] {
        t.premake_const_f(x);
    }
    for i in [0, 1, -1, i64::MAX] {
        t.premake_const_vec_i(i);
    }
    let ps = t.ps;
    let visit = |t: &mut FunctionTranslator, tree: &Tree| premake_tree(t, ps, tree, 0);
    match program {
        JitProgram::Tree(tree) => visit(t, tree),
        JitProgram::Policy(p) => {
            for (i, r) in p.rules.iter().enumerate() {
                visit(t, &r.condition);
                visit(t, &r.value);
                t.premake_const_vec_i(i as i64);
            }
            visit(t, &p.default);
        }
        JitProgram::Weights(w) => {
            for (_, weight) in &w.terms {
                t.premake_const_f(*weight);
            }
        }
        // Networks run in scalar lanes only.
        JitProgram::Network(_) => {}
    }
}

fn premake_tree(t: &mut FunctionTranslator, ps: &PrimSet, tree: &Tree, depth: usize) {
    for node in &tree.nodes {
        match node {
            Node::Const(v) if v.base() == Base::F => t.premake_const_f(v.as_f64()),
            Node::Prim(id) if depth < 64 => {
                if let Some(PrimKind::Derived(d)) = ps.prims.get(id.0 as usize).map(|p| &p.kind) {
                    premake_tree(t, ps, &d.body, depth + 1);
                }
            }
            _ => {}
        }
    }
}
