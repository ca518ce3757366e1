//! Networks in compiled code: straight-line code over the plan's steps
//! (src/lang/network.rs), each node's sum in the interpreter's order
//! (`bias`, then `+ w × v` link by link, no fused multiply-add), and the
//! activation by a call to the very Rust function the interpreter calls, so
//! that `exp` rounds the same. Scalar lanes only (a call takes one f64).

use cranelift_codegen::ir::{self, AbiParam, InstBuilder, types};
use cranelift_codegen::isa::CallConv;

use super::JitError;
use super::translate::{FunctionTranslator, Lanes, Val};
use crate::lang::activation::{self, Activation};
use crate::lang::{Base, Network};

extern "C" fn jit_sigmoid(x: f64) -> f64 {
    activation::sigmoid(x)
}

extern "C" fn jit_tanh(x: f64) -> f64 {
    activation::tanh(x)
}

extern "C" fn jit_relu(x: f64) -> f64 {
    activation::relu(x)
}

/// The helper compiled code calls for `a` (`None`: computed inline).
fn helper(a: Activation) -> Option<extern "C" fn(f64) -> f64> {
    match a {
        Activation::Sigmoid => Some(jit_sigmoid),
        Activation::Tanh => Some(jit_tanh),
        Activation::Relu => Some(jit_relu),
        Activation::Linear => None,
    }
}

/// Emits `net` at the current block; returns the output node's value.
pub fn translate_network(t: &mut FunctionTranslator, net: &Network, call_conv: CallConv) -> Result<Val, JitError> {
    if t.lanes != Lanes::Scalar {
        return Err(JitError::Unsupported("a network in f64x2 lanes".into()));
    }
    let plan = net.plan();
    let mut sig = ir::Signature::new(call_conv);
    sig.params.push(AbiParam::new(types::F64));
    sig.returns.push(AbiParam::new(types::F64));
    let sig = t.b.import_signature(sig);
    let mut values: Vec<Option<ir::Value>> = vec![None; plan.n_values];
    for step in &plan.steps {
        let mut sum = t.const_f(step.bias).v;
        #[allow(unused_mut)]
        let mut incoming: Vec<(usize, f64)> = step.incoming.clone();
        #[cfg(test)]
        if super::lower::PLANTED_FAULT.with(std::cell::Cell::get) {
            // A plausible bug: the links summed in the reverse order.
            incoming.reverse();
        }
        for &(from, w) in &incoming {
            let v = match plan.input_slots.get(from) {
                Some(&slot) => t.translate_feature(slot, Base::F)?.v,
                None => values
                    .get(from)
                    .copied()
                    .flatten()
                    .ok_or_else(|| JitError::Malformed("a node read before it is computed".into()))?,
            };
            let wv = t.const_f(w).v;
            let prod = t.b.ins().fmul(wv, v);
            sum = t.b.ins().fadd(sum, prod);
        }
        let value = match helper(step.activation) {
            None => sum,
            Some(f) => {
                let callee = t.b.ins().iconst(t.ptr, f as *const () as i64);
                let call = t.b.ins().call_indirect(sig, callee, &[sum]);
                t.b.inst_results(call)[0]
            }
        };
        let slot = values.get_mut(step.node).ok_or_else(|| JitError::Malformed("a node out of range".into()))?;
        *slot = Some(value);
    }
    let v = values
        .get(plan.output)
        .copied()
        .flatten()
        .ok_or_else(|| JitError::Malformed("the output is not computed".into()))?;
    Ok(Val { v, base: Base::F })
}
