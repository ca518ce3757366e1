//! Finalised machine code and the handles through which Rust calls it.
//!
//! A population's functions live in one `JITModule`. [`CodeMemory`] owns it
//! and calls `free_memory()` when dropped (dropping a `JITModule` alone leaks
//! its code). Every function handle holds an `Arc<CodeMemory>`, so the code
//! stays mapped while any handle exists, and handles are `Send + Sync`: the
//! code is pure and reads only what the call passes it.

use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use cranelift_jit::JITModule;

use crate::eval::interp::Context;
pub use crate::eval::table::Columns;
use crate::lang::{Base, Value};

use super::native::{NativeFrame, NativeSig};

/// The owner of a population's machine code.
pub struct CodeMemory {
    // A Mutex only to make the holder `Sync`: the module is never used again
    // after finalisation, except to free it.
    module: Mutex<Option<JITModule>>,
}

impl CodeMemory {
    pub(super) fn new(module: JITModule) -> CodeMemory {
        CodeMemory { module: Mutex::new(Some(module)) }
    }
}

impl Drop for CodeMemory {
    fn drop(&mut self) {
        let module = match self.module.get_mut() {
            Ok(m) => m.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        if let Some(module) = module {
            // SAFETY: every pointer into this module's code is held by a
            // handle that owns an `Arc<CodeMemory>`; this is the last one
            // being dropped, so no function of the module can run or be
            // called afterwards.
            unsafe { module.free_memory() };
        }
    }
}

/// `fn(slots, native_frame, aux) -> result bits`; policies write the index of
/// the rule that fired (or `u64::MAX` for the default) to `*aux`.
pub(super) type PositionSig = unsafe extern "C" fn(*const u64, *mut c_void, *mut u64) -> u64;

/// `fn(columns, stride, n_rows, out, aux)`: result bits of row `r` go to
/// `out[r]`, a policy's rule index to `aux[r]`.
pub(super) type BatchSig = unsafe extern "C" fn(*const u64, u64, u64, *mut u64, *mut u64);

/// A compiled program called once per position (game search).
#[derive(Clone)]
pub struct PositionFn {
    pub(super) f: PositionSig,
    pub(super) ret: Base,
    pub(super) n_slots: usize,
    pub(super) natives: Option<Arc<[NativeSig]>>,
    pub(super) _code: Arc<CodeMemory>,
}

impl PositionFn {
    /// Evaluates the program on one position's feature slots; natives, if the
    /// program calls any, go to `ctx`. Returns the value and, for a policy,
    /// the rule that fired (`None` for the default or for other programs).
    ///
    /// # Panics
    /// If `slots` is shorter than the slots the program reads, or the program
    /// calls natives and `ctx` is `None` (both are bugs of the caller).
    pub fn call(&self, slots: &[u64], ctx: Option<&mut dyn Context>) -> (Value, Option<usize>) {
        assert!(slots.len() >= self.n_slots, "the program reads {} slots, {} given", self.n_slots, slots.len());
        let mut aux = u64::MAX;
        let bits = match (&self.natives, ctx) {
            (None, _) => {
                // SAFETY: the function reads `slots[..n_slots]` (checked above),
                // writes only `aux`, and calls no natives, so the null frame is
                // never read. The code is alive while `self._code` is.
                unsafe { (self.f)(slots.as_ptr(), std::ptr::null_mut(), &mut aux) }
            }
            (Some(sigs), Some(ctx)) => {
                let mut frame = NativeFrame { ctx, sigs, panic: None };
                // SAFETY: as above; the frame outlives the call and the
                // trampoline is the only code that reads it, as a `NativeFrame`.
                let bits = unsafe { (self.f)(slots.as_ptr(), (&raw mut frame).cast::<c_void>(), &mut aux) };
                if let Some(payload) = frame.panic.take() {
                    std::panic::resume_unwind(payload);
                }
                bits
            }
            (Some(_), None) => panic!("the program calls natives and no context was given"),
        };
        (Value::from_bits(self.ret, bits), rule_index(aux))
    }

    /// The base of the value the program computes.
    pub fn ret(&self) -> Base {
        self.ret
    }
}

/// A policy's rule slot as an index: `u64::MAX` (or anything out of range)
/// is the default.
pub fn rule_index(aux: u64) -> Option<usize> {
    if aux == u64::MAX { None } else { usize::try_from(aux).ok() }
}

/// A compiled program that loops over the rows of a column-major table itself.
#[derive(Clone)]
pub struct BatchFn {
    pub(super) f: BatchSig,
    pub(super) ret: Base,
    pub(super) n_slots: usize,
    /// Rows per iteration: 2 with f64x2 lanes, 1 otherwise.
    pub(super) lanes: usize,
    pub(super) _code: Arc<CodeMemory>,
}

impl BatchFn {
    /// Evaluates the program on every row of `cols`: `out[r]` receives the
    /// result bits of row `r` and `aux[r]` a policy's rule slot (see
    /// [`rule_index`]; a tree leaves `aux` as it was). Both are resized to
    /// `cols.stride` and not cleared when they have that length already (a
    /// table evaluated again by many programs writes no more than the
    /// programs do); rows past `cols.n_rows` hold padding.
    ///
    /// # Panics
    /// If `cols` has fewer slots than the program reads, or a stride that is
    /// not a multiple of the lane count (a bug of the caller).
    pub fn run(&self, cols: &Columns, out: &mut Vec<u64>, aux: &mut Vec<u64>) {
        assert!(cols.n_slots >= self.n_slots, "the program reads {} slots, {} given", self.n_slots, cols.n_slots);
        assert!(cols.stride.is_multiple_of(self.lanes) && cols.stride >= cols.n_rows, "bad column stride");
        assert!(cols.data.len() >= cols.n_slots * cols.stride, "short column data");
        if out.len() != cols.stride {
            out.clear();
            out.resize(cols.stride, 0);
        }
        if aux.len() != cols.stride {
            aux.clear();
            aux.resize(cols.stride, u64::MAX);
        }
        // SAFETY: the loop visits rows [0, round_up(n_rows, lanes)) ⊆
        // [0, stride) (checked above); it reads `data[slot * stride + row]`
        // for slots < n_slots ≤ cols.n_slots, and writes `out[row]` and
        // `aux[row]`, both `stride` long. The code is alive while `self._code` is.
        unsafe {
            (self.f)(cols.data.as_ptr(), cols.stride as u64, cols.n_rows as u64, out.as_mut_ptr(), aux.as_mut_ptr())
        };
    }

    /// The base of the value the program computes.
    pub fn ret(&self) -> Base {
        self.ret
    }

    /// Rows per loop iteration (2 when the program runs in f64x2 lanes).
    pub fn lanes(&self) -> usize {
        self.lanes
    }
}
