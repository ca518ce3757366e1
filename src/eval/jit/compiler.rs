//! Population compilation: many programs into one `JITModule`, one function
//! per structurally distinct program (hash-consing), one
//! `finalize_definitions` for the whole population.
//!
//! Compiling a population into one module matters twice at GP scale: every
//! finalisation maps fresh page-rounded memory, and code is only freed a
//! whole module at a time (see [`super::code::CodeMemory`]).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::{Context, isa::OwnedTargetIsa};
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Module, default_libcall_names};

use super::JitError;
use super::analysis::{JitProgram, ProgramInfo, structural_key};
use super::code::{BatchFn, BatchSig, CodeMemory, PositionFn, PositionSig};
use super::native::{NativeSig, native_sigs};
use super::shell::{ShellSpec, batch_signature, build_batch, build_position, position_signature};
use super::translate::Lanes;
use crate::lang::{Base, PrimSet};

/// How a compiled program is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// One call per position: [`PositionFn`].
    Position,
    /// One call per table, the code looping over rows: [`BatchFn`].
    Batch,
}

/// Code generation settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct JitConfig {
    /// Cranelift's `opt_level = "speed"` (else `"none"`).
    pub optimize: bool,
    /// Run two rows per iteration in f64x2 lanes when the program allows it.
    pub simd: bool,
    /// Run Cranelift's IR verifier on every function (slow; for debugging).
    pub verify: bool,
    /// Use regalloc2's single-pass allocator: faster compilation, more spills.
    pub fast_regalloc: bool,
}

impl Default for JitConfig {
    fn default() -> JitConfig {
        JitConfig { optimize: true, simd: true, verify: false, fast_regalloc: false }
    }
}

impl JitConfig {
    /// For populations compiled every generation: no IR optimisation and the
    /// single-pass register allocator, about twice as fast to compile for
    /// somewhat slower code (docs/PERFORMANCE.md).
    pub fn fast_compile() -> JitConfig {
        JitConfig { optimize: false, fast_regalloc: true, ..JitConfig::default() }
    }
}

/// A handle to one compiled program of a population.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FnHandle(pub usize);

struct Entry {
    func: FuncId,
    mode: Mode,
    ret: Base,
    n_slots: usize,
    lanes: Lanes,
    uses_natives: bool,
    /// Time spent translating and compiling this program (0 when it was a
    /// duplicate of an earlier one).
    compile_ns: u64,
}

/// Compiles a population of programs over one primset.
pub struct JitCompiler<'ps> {
    ps: &'ps PrimSet,
    config: JitConfig,
    module: JITModule,
    ctx: Context,
    fctx: FunctionBuilderContext,
    cache: HashMap<Vec<u64>, usize>,
    entries: Vec<Entry>,
    key: Vec<u64>,
    n_distinct: usize,
}

/// The host ISA for a configuration, built once per process (detecting CPU
/// features costs more than compiling a small tree).
pub(super) fn host_isa(config: JitConfig) -> Result<OwnedTargetIsa, JitError> {
    type IsaCache = Mutex<HashMap<(bool, bool, bool), OwnedTargetIsa>>;
    static CACHE: OnceLock<IsaCache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut cache = cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let key = (config.optimize, config.verify, config.fast_regalloc);
    if let Some(isa) = cache.get(&key) {
        return Ok(isa.clone());
    }
    let codegen = |e: &dyn std::fmt::Display| JitError::Codegen(e.to_string());
    let mut flags = settings::builder();
    let opt = if config.optimize { "speed" } else { "none" };
    for (name, value) in [
        ("opt_level", opt),
        ("enable_verifier", if config.verify { "true" } else { "false" }),
        ("regalloc_algorithm", if config.fast_regalloc { "single_pass" } else { "backtracking" }),
        ("is_pic", "false"),
        ("use_colocated_libcalls", "false"),
    ] {
        flags.set(name, value).map_err(|e| codegen(&e))?;
    }
    let isa = cranelift_native::builder()
        .map_err(|e| codegen(&e))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| codegen(&e))?;
    cache.insert(key, isa.clone());
    Ok(isa)
}

impl<'ps> JitCompiler<'ps> {
    pub fn new(ps: &'ps PrimSet, config: JitConfig) -> Result<JitCompiler<'ps>, JitError> {
        let isa = host_isa(config)?;
        let module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
        let ctx = module.make_context();
        Ok(JitCompiler {
            ps,
            config,
            module,
            ctx,
            fctx: FunctionBuilderContext::new(),
            cache: HashMap::new(),
            entries: Vec::new(),
            key: Vec::new(),
            n_distinct: 0,
        })
    }

    /// Adds a program to the population. Structurally identical programs
    /// (same mode, nodes and constant bits) share one function.
    pub fn add(&mut self, program: JitProgram, mode: Mode) -> Result<FnHandle, JitError> {
        let start = Instant::now();
        let info = ProgramInfo::of(self.ps, program)?;
        if mode == Mode::Batch && info.uses_natives {
            return Err(JitError::Unsupported("native functions in a batch over a table".into()));
        }
        let lanes = if mode == Mode::Batch && self.config.simd && !info.uses_int && !info.calls_helpers {
            Lanes::X2
        } else {
            Lanes::Scalar
        };
        let tag = match (mode, lanes) {
            (Mode::Position, _) => 0,
            (Mode::Batch, Lanes::Scalar) => 1,
            (Mode::Batch, Lanes::X2) => 2,
        };
        structural_key(program, tag, &mut self.key);
        if let Some(&e) = self.cache.get(&self.key) {
            let first = &self.entries[e];
            let dup = Entry { compile_ns: 0, ..Entry { ..*first } };
            self.entries.push(dup);
            return Ok(FnHandle(self.entries.len() - 1));
        }
        let func = self.define(program, mode, &info, lanes)?;
        let ret = info.ret.ok_or_else(|| JitError::Malformed("a program without a result".into()))?;
        self.entries.push(Entry {
            func,
            mode,
            ret,
            n_slots: info.n_slots,
            lanes,
            uses_natives: info.uses_natives,
            compile_ns: start.elapsed().as_nanos() as u64,
        });
        self.n_distinct += 1;
        self.cache.insert(self.key.clone(), self.entries.len() - 1);
        Ok(FnHandle(self.entries.len() - 1))
    }

    fn define(
        &mut self,
        program: JitProgram,
        mode: Mode,
        info: &ProgramInfo,
        lanes: Lanes,
    ) -> Result<FuncId, JitError> {
        self.build(program, mode, info, lanes)?;
        let codegen = |e: &dyn std::fmt::Display| JitError::Codegen(e.to_string());
        let sig = self.ctx.func.signature.clone();
        let id = self.module.declare_anonymous_function(&sig).map_err(|e| codegen(&e))?;
        let defined = self.module.define_function(id, &mut self.ctx);
        self.module.clear_context(&mut self.ctx);
        defined.map_err(|e| codegen(&e))?;
        Ok(id)
    }

    /// Builds the IR of a program into `self.ctx.func`.
    fn build(&mut self, program: JitProgram, mode: Mode, info: &ProgramInfo, lanes: Lanes) -> Result<(), JitError> {
        let ptr = self.module.target_config().pointer_type();
        let call_conv = self.module.isa().default_call_conv();
        let spec =
            ShellSpec { ps: self.ps, program, info, lanes, ptr, frontend: self.module.target_config(), call_conv };
        self.module.clear_context(&mut self.ctx);
        let sig = &mut self.ctx.func.signature;
        match mode {
            Mode::Position => position_signature(sig, ptr),
            Mode::Batch => batch_signature(sig, ptr),
        }
        let built = match mode {
            Mode::Position => build_position(&spec, &mut self.ctx.func, &mut self.fctx, call_conv),
            Mode::Batch => build_batch(&spec, &mut self.ctx.func, &mut self.fctx),
        };
        if let Err(e) = built {
            // A builder abandoned halfway leaves its context dirty.
            self.fctx = FunctionBuilderContext::new();
            self.module.clear_context(&mut self.ctx);
            return Err(e);
        }
        Ok(())
    }

    /// The Cranelift IR a program translates to, after Cranelift's IR
    /// optimisation when the configuration asks for it (for tests of the
    /// translator).
    #[cfg(test)]
    pub(super) fn ir_text(&mut self, program: JitProgram, mode: Mode, lanes: Lanes) -> Result<String, JitError> {
        let info = ProgramInfo::of(self.ps, program)?;
        self.build(program, mode, &info, lanes)?;
        let optimized = self.ctx.optimize(self.module.isa(), &mut Default::default());
        optimized.map_err(|e| JitError::Codegen(e.to_string()))?;
        let text = self.ctx.func.display().to_string();
        self.module.clear_context(&mut self.ctx);
        Ok(text)
    }

    /// Number of functions actually compiled (programs minus duplicates).
    pub fn n_distinct(&self) -> usize {
        self.n_distinct
    }

    /// Finalises every function with one allocation of executable memory.
    pub fn finish(mut self) -> Result<Compiled, JitError> {
        self.module.finalize_definitions().map_err(|e| JitError::Codegen(e.to_string()))?;
        let sigs: Arc<[NativeSig]> = native_sigs(self.ps).into();
        let ptrs: Vec<*const u8> = self.entries.iter().map(|e| self.module.get_finalized_function(e.func)).collect();
        let code = Arc::new(CodeMemory::new(self.module));
        let fns = self
            .entries
            .iter()
            .zip(ptrs)
            .map(|(e, p)| match e.mode {
                Mode::Position => {
                    // SAFETY: the function was built by `build_position` with
                    // the signature `position_signature`, which is `PositionSig`
                    // in the host's default calling convention.
                    let f = unsafe { std::mem::transmute::<*const u8, PositionSig>(p) };
                    let natives = e.uses_natives.then(|| sigs.clone());
                    CompiledFn::Position(PositionFn { f, ret: e.ret, n_slots: e.n_slots, natives, _code: code.clone() })
                }
                Mode::Batch => {
                    // SAFETY: built by `build_batch` with `batch_signature`,
                    // which is `BatchSig` in the host's calling convention.
                    let f = unsafe { std::mem::transmute::<*const u8, BatchSig>(p) };
                    let lanes = if e.lanes == Lanes::X2 { 2 } else { 1 };
                    CompiledFn::Batch(BatchFn { f, ret: e.ret, n_slots: e.n_slots, lanes, _code: code.clone() })
                }
            })
            .collect();
        let compile_ns = self.entries.iter().map(|e| e.compile_ns).collect();
        Ok(Compiled { fns, compile_ns, n_distinct: self.n_distinct })
    }
}

enum CompiledFn {
    Position(PositionFn),
    Batch(BatchFn),
}

/// A compiled population: one function per handle. Its code is freed when
/// this and every function taken from it are dropped.
pub struct Compiled {
    fns: Vec<CompiledFn>,
    compile_ns: Vec<u64>,
    n_distinct: usize,
}

impl Compiled {
    /// The per-position function of a handle added with [`Mode::Position`].
    pub fn position(&self, h: FnHandle) -> Option<&PositionFn> {
        match self.fns.get(h.0) {
            Some(CompiledFn::Position(f)) => Some(f),
            _ => None,
        }
    }

    /// The batch function of a handle added with [`Mode::Batch`].
    pub fn batch(&self, h: FnHandle) -> Option<&BatchFn> {
        match self.fns.get(h.0) {
            Some(CompiledFn::Batch(f)) => Some(f),
            _ => None,
        }
    }

    /// Translation and code generation time of a program, in nanoseconds
    /// (0 for a duplicate; the shared finalisation is not included).
    pub fn compile_ns(&self, h: FnHandle) -> u64 {
        self.compile_ns.get(h.0).copied().unwrap_or(0)
    }

    pub fn n_distinct(&self) -> usize {
        self.n_distinct
    }
}
