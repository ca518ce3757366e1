//! The trampoline through which compiled code calls domain functions.
//!
//! Compiled code cannot call a `&mut dyn Context` directly; it stores the
//! argument bit patterns in a stack buffer and calls [`native_trampoline`]
//! with an opaque pointer to a [`NativeFrame`], which turns the bits back into
//! values of the native's declared bases and calls the context. A panic in
//! the context is caught here (it must not unwind through machine code) and
//! resumed once the compiled function has returned.

use std::any::Any;
use std::ffi::c_void;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::eval::interp::Context;
use crate::lang::{Base, PrimKind, PrimSet, Value};

/// The bases of a native's arguments (compiled code converts the result).
#[derive(Debug, Clone)]
pub struct NativeSig {
    pub args: Vec<Base>,
}

/// The signatures of a primset's natives, indexed by native index.
pub fn native_sigs(ps: &PrimSet) -> Vec<NativeSig> {
    let mut sigs = vec![NativeSig { args: Vec::new() }; ps.natives.len()];
    for prim in &ps.prims {
        if let PrimKind::Native(n) = prim.kind
            && let Some(sig) = sigs.get_mut(n as usize)
        {
            *sig = NativeSig { args: prim.args.iter().map(|t| ps.base(*t)).collect() };
        }
    }
    sigs
}

/// What the opaque context pointer of a compiled function points to.
pub struct NativeFrame<'a> {
    pub ctx: &'a mut dyn Context,
    pub sigs: &'a [NativeSig],
    /// A panic raised by the context, resumed after the compiled code returns.
    pub panic: Option<Box<dyn Any + Send>>,
}

/// Arguments a native call keeps on the stack.
const INLINE_ARGS: usize = 8;

/// Called by compiled code for every native call.
///
/// # Safety
/// `frame` points to a live `NativeFrame` and `args` to `n_args` readable
/// words (the compiled code guarantees both; see `PositionFn::call`).
pub unsafe extern "C" fn native_trampoline(frame: *mut c_void, native: u32, args: *const u64, n_args: u32) -> u64 {
    // SAFETY: per this function's contract, `frame` is the `NativeFrame` that
    // `PositionFn::call` passed to the compiled function, alive for the call
    // and not otherwise borrowed while the compiled code runs.
    let frame = unsafe { &mut *frame.cast::<NativeFrame>() };
    // SAFETY: the compiled code stored `n_args` words at `args`.
    let bits = unsafe { std::slice::from_raw_parts(args, n_args as usize) };
    if frame.panic.is_some() {
        return 0; // a previous native panicked: finish quickly, the panic is resumed
    }
    let Some(sig) = frame.sigs.get(native as usize) else {
        return 0;
    };
    // Natives take a few arguments: on the stack, not the heap (a GDL
    // evaluator calls one at most leaves of its search).
    let mut inline = [Value::I(0); INLINE_ARGS];
    let heap: Vec<Value>;
    let values: &[Value] = if sig.args.len() <= INLINE_ARGS {
        let mut n = 0;
        for (slot, (b, x)) in inline.iter_mut().zip(sig.args.iter().zip(bits)) {
            *slot = Value::from_bits(*b, *x);
            n += 1;
        }
        &inline[..n]
    } else {
        heap = sig.args.iter().zip(bits).map(|(b, x)| Value::from_bits(*b, *x)).collect();
        &heap
    };
    let ctx = &mut frame.ctx;
    match catch_unwind(AssertUnwindSafe(|| ctx.native(native, values))) {
        Ok(v) => v.to_bits(),
        Err(payload) => {
            frame.panic = Some(payload);
            0
        }
    }
}
