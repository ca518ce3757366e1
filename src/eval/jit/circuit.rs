//! Boolean circuits compiled to native code: the JIT's second client, after
//! GP programs. A circuit is a list of assignments `value[i] = AND/OR/NOT of
//! wires` in evaluation order, grouped into routines (e.g. "what holds in
//! this state", "the next state of this joint move"); cyclic parts are
//! evaluated to their least fixpoint by a loop. The GDL engine builds its
//! circuits from propositional networks (`gdl::compiled`).
//!
//! Every routine becomes one or more functions `fn(values, state, inputs,
//! out)` over caller-owned buffers, in one of two layouts ([`Layout`]):
//! - packed, for one state: gate values as bytes (0 or 1), the state as a
//!   bit set of 64-bit words, inputs as bytes, and the bits a routine writes
//!   (the next state) as words;
//! - sliced, for 64 states at once: every gate value, state bit, input and
//!   output is a 64-bit word whose bit `l` belongs to state `l`, so one
//!   AND/OR/NOT instruction evaluates a gate in 64 independent games.
//!
//! A long routine is cut into functions of
//! at most [`CHUNK`] assignments and wires, because Cranelift's time grows faster than
//! linearly with a function's size; short routines (a GDL move's cone is
//! often one or two gates) share a function, which picks the routine by its
//! fifth argument through a jump table, because Cranelift's fixed cost per
//! function is larger than such a routine's code. The functions are compiled in parallel
//! threads and placed in their order, so the code does not depend on the
//! threads. Every index is checked when the circuit
//! is compiled and every buffer's length when it is run, so running a
//! compiled circuit is safe.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use cranelift_codegen::ir::{self, AbiParam, InstBuilder, MemFlagsData, types};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Module, default_libcall_names};

use super::code::CodeMemory;
use super::compiler::host_isa;
use super::{JitConfig, JitError};

/// Assignments plus the wires they read per compiled function, at most (a
/// fixpoint block is never cut).
pub const CHUNK: usize = 16_384;

/// Routines of at most this many assignments and wires share functions, up
/// to [`CHUNK`] or [`GROUP`] routines per function.
const SHORT: usize = 256;
const GROUP: usize = 1024;

/// Where an input of a gate comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wire {
    /// A gate value (`values[i]`), computed earlier in this routine or by an
    /// earlier one.
    Value(u32),
    /// Bit `i` of the state (`state[i / 64] >> (i % 64) & 1`).
    StateBit(u32),
    /// `inputs[i]`.
    Input(u32),
    Const(bool),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    And(Vec<Wire>),
    Or(Vec<Wire>),
    Not(Wire),
}

/// `values[target] = op`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assign {
    pub target: u32,
    pub op: Op,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// Assignments in order, each once.
    Straight(Vec<Assign>),
    /// A cyclic component: its targets start at 0 and the assignments repeat
    /// until none changes (the least fixpoint when the cycle is positive).
    Fixpoint(Vec<Assign>),
}

impl Assign {
    /// What its code costs to compile: the assignment and its wires.
    fn cost(&self) -> usize {
        1 + match &self.op {
            Op::And(ws) | Op::Or(ws) => ws.len(),
            Op::Not(_) => 1,
        }
    }
}

impl Block {
    fn cost(&self) -> usize {
        let (Block::Straight(list) | Block::Fixpoint(list)) = self;
        list.iter().map(Assign::cost).sum()
    }
}

/// One entry point: blocks in order, then `out` bit `b` = wire for each
/// `(b, wire)` of `outputs` (other bits of `out` are cleared).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Routine {
    pub blocks: Vec<Block>,
    pub outputs: Vec<(u32, Wire)>,
}

/// A circuit and the sizes of the buffers it runs over.
#[derive(Clone, Debug, Default)]
pub struct Circuit {
    pub n_values: usize,
    pub n_state_bits: usize,
    pub n_inputs: usize,
    pub routines: Vec<Routine>,
}

impl Circuit {
    /// 64-bit words of a state (and of a routine's output).
    pub fn state_words(&self) -> usize {
        self.n_state_bits.div_ceil(64)
    }

    /// Assignments and wires over all routines, and the assignments of the
    /// largest fixpoint block: what code generation and a fixpoint's rounds
    /// cost.
    pub fn size(&self) -> (usize, usize, usize) {
        let (mut assigns, mut wires, mut largest) = (0, 0, 0);
        for routine in &self.routines {
            wires += routine.outputs.len();
            for block in &routine.blocks {
                let (Block::Straight(list) | Block::Fixpoint(list)) = block;
                assigns += list.len();
                wires += list
                    .iter()
                    .map(|a| match &a.op {
                        Op::And(ws) | Op::Or(ws) => ws.len(),
                        Op::Not(_) => 1,
                    })
                    .sum::<usize>();
                if let Block::Fixpoint(list) = block {
                    largest = largest.max(list.len());
                }
            }
        }
        (assigns, wires, largest)
    }

    /// Checks every index against the circuit's sizes.
    fn check(&self) -> Result<(), JitError> {
        let wire_ok = |w: &Wire| match *w {
            Wire::Value(i) => (i as usize) < self.n_values,
            Wire::StateBit(i) => (i as usize) < self.n_state_bits,
            Wire::Input(i) => (i as usize) < self.n_inputs,
            Wire::Const(_) => true,
        };
        let assign_ok = |a: &Assign| {
            (a.target as usize) < self.n_values
                && match &a.op {
                    Op::And(ws) | Op::Or(ws) => ws.iter().all(wire_ok),
                    Op::Not(w) => wire_ok(w),
                }
        };
        for (r, routine) in self.routines.iter().enumerate() {
            for block in &routine.blocks {
                let (Block::Straight(assigns) | Block::Fixpoint(assigns)) = block;
                if !assigns.iter().all(assign_ok) {
                    return Err(JitError::Malformed(format!("routine {r} has an index out of range")));
                }
            }
            if !routine.outputs.iter().all(|(b, w)| (*b as usize) < self.n_state_bits && wire_ok(w)) {
                return Err(JitError::Malformed(format!("routine {r} has an output out of range")));
            }
        }
        Ok(())
    }
}

/// How a compiled circuit's buffers hold values (see the module's comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Packed,
    Sliced,
}

/// States a sliced circuit evaluates at once: the bits of a word.
pub const LANES: usize = 64;

/// `fn(values, state, inputs, out, which)`: `which` picks the routine of a
/// function that several share (ignored by the others).
type CircuitSig = unsafe extern "C" fn(*mut u8, *const u64, *const u8, *mut u64, u32);

/// A routine's piece, compiled into one function with others: its routine,
/// whether it is the routine's last piece (which writes the outputs), and
/// its blocks.
struct Piece {
    routine: usize,
    last: bool,
    blocks: Vec<Block>,
}

/// A function's machine code and its alignment, or why it has none.
type Machine = Result<(u64, Vec<u8>), JitError>;

/// A compiled circuit. Cloning shares the code, which is freed when the last
/// clone is dropped; calls from many threads at once are fine (the code
/// touches only the buffers each call passes).
#[derive(Clone)]
pub struct CompiledCircuit {
    /// Per routine, its functions in order, each with the `which` it is
    /// called with.
    routines: Arc<[Vec<(CircuitSig, u32)>]>,
    layout: Layout,
    n_values: usize,
    n_state_bits: usize,
    n_inputs: usize,
    state_words: usize,
    /// Time spent generating and finalising code.
    pub compile_time: std::time::Duration,
    /// Functions compiled (routines cut into chunks).
    pub n_functions: usize,
    _code: Arc<CodeMemory>,
}

impl std::fmt::Debug for CompiledCircuit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledCircuit")
            .field("routines", &self.routines.len())
            .field("layout", &self.layout)
            .field("n_values", &self.n_values)
            .field("n_functions", &self.n_functions)
            .finish()
    }
}

impl CompiledCircuit {
    /// Compiles every routine of `circuit`, its buffers in `layout`.
    pub fn new(circuit: &Circuit, layout: Layout) -> Result<CompiledCircuit, JitError> {
        circuit.check()?;
        let started = Instant::now();
        let config = JitConfig { optimize: false, fast_regalloc: true, ..JitConfig::default() };
        let isa = host_isa(config)?;
        let mut module = JITModule::new(JITBuilder::with_isa(isa.clone(), default_libcall_names()));
        let ptr = module.target_config().pointer_type();
        let frontend = module.target_config();
        let codegen = |e: &dyn std::fmt::Display| JitError::Codegen(e.to_string());
        let jobs = jobs(circuit);
        // Functions are compiled in parallel, each on its own, then defined
        // in their order: the code is the same whatever the threads do. Plain
        // scoped threads, not rayon's: a rayon worker waiting for its jobs
        // may run an unrelated one, which could wait on a lock its caller
        // holds (the registry compiles games under one).
        let one = |ctx: &mut cranelift_codegen::Context, fctx: &mut FunctionBuilderContext, i: usize| {
            ctx.clear();
            ctx.func.signature = signature(&*isa, ptr);
            let members: Vec<Member> = jobs[i]
                .iter()
                .map(|p| {
                    let outputs: &[(u32, Wire)] = if p.last { &circuit.routines[p.routine].outputs } else { &[] };
                    (p.blocks.as_slice(), outputs)
                })
                .collect();
            let target = Target { layout, state_bits: circuit.n_state_bits, frontend };
            build(&mut ctx.func, fctx, &members, target);
            let code = ctx
                .compile(&*isa, &mut cranelift_codegen::control::ControlPlane::default())
                .map_err(|e| JitError::Codegen(format!("{:?}", e.inner)))?;
            // The circuit's code reads and writes its buffers only.
            if !code.buffer.relocs().is_empty() {
                return Err(JitError::Codegen("a circuit function needs relocations".to_owned()));
            }
            let align = u64::from(code.buffer.alignment)
                .max(isa.function_alignment().minimum.into())
                .max(isa.symbol_alignment());
            Ok((align, code.code_buffer().to_vec()))
        };
        let next = AtomicUsize::new(0);
        let work = || {
            let (mut ctx, mut fctx) = (cranelift_codegen::Context::new(), FunctionBuilderContext::new());
            let mut done = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= jobs.len() {
                    return done;
                }
                done.push((i, one(&mut ctx, &mut fctx, i)));
            }
        };
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(jobs.len());
        let mut compiled: Vec<Option<Machine>> = (0..jobs.len()).map(|_| None).collect();
        std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
            let mut place = |done: Vec<(usize, Machine)>| {
                for (i, code) in done {
                    compiled[i] = Some(code);
                }
            };
            place(work());
            for h in helpers {
                match h.join() {
                    Ok(done) => place(done),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
        });
        let mut ids: Vec<Vec<(FuncId, u32)>> = vec![Vec::new(); circuit.routines.len()];
        let sig = signature(&*isa, ptr);
        for (job, code) in jobs.iter().zip(compiled) {
            let (align, bytes) = code.ok_or_else(|| JitError::Codegen("a function was not compiled".to_owned()))??;
            let id = module.declare_anonymous_function(&sig).map_err(|e| codegen(&e))?;
            module.define_function_bytes(id, align, &bytes, &[]).map_err(|e| codegen(&e))?;
            for (which, piece) in job.iter().enumerate() {
                ids[piece.routine].push((id, which as u32));
            }
        }
        let n_functions = jobs.len();
        module.finalize_definitions().map_err(|e| codegen(&e))?;
        let routines: Vec<Vec<(CircuitSig, u32)>> = ids
            .iter()
            .map(|fs| {
                fs.iter()
                    .map(|&(id, which)| {
                        let p = module.get_finalized_function(id);
                        // SAFETY: every function was built by `build` with the
                        // parameters of `signature` and no result, which is
                        // `CircuitSig` in the host's default calling convention.
                        (unsafe { std::mem::transmute::<*const u8, CircuitSig>(p) }, which)
                    })
                    .collect()
            })
            .collect();
        Ok(CompiledCircuit {
            routines: routines.into(),
            layout,
            n_values: circuit.n_values,
            n_state_bits: circuit.n_state_bits,
            n_inputs: circuit.n_inputs,
            state_words: circuit.state_words(),
            compile_time: started.elapsed(),
            n_functions,
            _code: Arc::new(CodeMemory::new(module)),
        })
    }

    /// Runs routine `routine` of a packed circuit over the buffers.
    ///
    /// # Panics
    /// If the circuit is sliced, a buffer is shorter than the circuit's sizes
    /// or `routine` is out of range (bugs of the caller).
    pub fn run(&self, routine: usize, values: &mut [u8], state: &[u64], inputs: &[u8], out: &mut [u64]) {
        assert_eq!(self.layout, Layout::Packed, "a sliced circuit run as a packed one");
        assert!(values.len() >= self.n_values, "values: {} of {} bytes", values.len(), self.n_values);
        assert!(state.len() >= self.state_words, "state: {} of {} words", state.len(), self.state_words);
        assert!(inputs.len() >= self.n_inputs, "inputs: {} of {} bytes", inputs.len(), self.n_inputs);
        assert!(out.len() >= self.state_words, "out: {} of {} words", out.len(), self.state_words);
        for &(f, which) in &self.routines[routine] {
            // SAFETY: the function reads and writes `values[..n_values]`, reads
            // `state[..state_words]` and `inputs[..n_inputs]` and writes
            // `out[..state_words]`: every index was checked against those
            // sizes by `Circuit::check`, and the lengths above; `which` is
            // the routine's own. The code is alive while `self._code` is.
            unsafe { f(values.as_mut_ptr(), state.as_ptr(), inputs.as_ptr(), out.as_mut_ptr(), which) };
        }
    }

    /// Runs routine `routine` of a sliced circuit: one word per gate value,
    /// state bit, input and output bit.
    ///
    /// # Panics
    /// If the circuit is packed, a buffer is shorter than the circuit's sizes
    /// or `routine` is out of range (bugs of the caller).
    pub fn run_sliced(&self, routine: usize, values: &mut [u64], state: &[u64], inputs: &[u64], out: &mut [u64]) {
        assert_eq!(self.layout, Layout::Sliced, "a packed circuit run as a sliced one");
        assert!(values.len() >= self.n_values, "values: {} of {} words", values.len(), self.n_values);
        assert!(state.len() >= self.n_state_bits, "state: {} of {} words", state.len(), self.n_state_bits);
        assert!(inputs.len() >= self.n_inputs, "inputs: {} of {} words", inputs.len(), self.n_inputs);
        assert!(out.len() >= self.n_state_bits, "out: {} of {} words", out.len(), self.n_state_bits);
        for &(f, which) in &self.routines[routine] {
            // SAFETY: as in `run`, with every buffer a slice of words indexed
            // by value, state bit, input and output bit, each checked by
            // `Circuit::check` and the lengths above.
            unsafe {
                f(values.as_mut_ptr().cast(), state.as_ptr(), inputs.as_ptr().cast(), out.as_mut_ptr(), which);
            }
        }
    }

    pub fn layout(&self) -> Layout {
        self.layout
    }

    pub fn n_values(&self) -> usize {
        self.n_values
    }

    pub fn n_state_bits(&self) -> usize {
        self.n_state_bits
    }

    pub fn n_inputs(&self) -> usize {
        self.n_inputs
    }

    pub fn state_words(&self) -> usize {
        self.state_words
    }
}

/// The functions to compile: each routine cut into pieces (`chunks`), a
/// short routine's one piece grouped with the next short ones.
fn jobs(circuit: &Circuit) -> Vec<Vec<Piece>> {
    let mut jobs: Vec<Vec<Piece>> = Vec::new();
    let mut group: Vec<Piece> = Vec::new();
    let mut group_size = 0;
    for (r, routine) in circuit.routines.iter().enumerate() {
        let pieces = chunks(routine);
        let size: usize = pieces.iter().flatten().map(Block::cost).sum();
        if pieces.len() == 1 && size <= SHORT {
            if group_size + size > CHUNK || group.len() == GROUP {
                jobs.push(std::mem::take(&mut group));
                group_size = 0;
            }
            group_size += size;
            group.extend(pieces.into_iter().map(|blocks| Piece { routine: r, last: true, blocks }));
            continue;
        }
        let last = pieces.len() - 1;
        jobs.extend(
            pieces.into_iter().enumerate().map(|(k, blocks)| vec![Piece { routine: r, last: k == last, blocks }]),
        );
    }
    if !group.is_empty() {
        jobs.push(group);
    }
    jobs
}

/// What a function computes for one `which`: blocks, then outputs.
type Member<'a> = (&'a [Block], &'a [(u32, Wire)]);

/// `fn(values, state, inputs, out, which)` (see [`CircuitSig`]).
fn signature(isa: &dyn cranelift_codegen::isa::TargetIsa, ptr: ir::Type) -> ir::Signature {
    let mut sig = ir::Signature::new(isa.default_call_conv());
    sig.params.extend([AbiParam::new(ptr); 4]);
    sig.params.push(AbiParam::new(types::I32));
    sig
}

/// A routine's blocks cut into pieces of at most [`CHUNK`] assignments and
/// wires (a fixpoint block, or an assignment, stays whole); at least one
/// piece, for the outputs.
fn chunks(routine: &Routine) -> Vec<Vec<Block>> {
    let mut pieces: Vec<Vec<Block>> = vec![Vec::new()];
    let mut size = 0;
    let push = |pieces: &mut Vec<Vec<Block>>, size: &mut usize, block: Block, n: usize| {
        if *size + n > CHUNK && *size > 0 {
            pieces.push(Vec::new());
            *size = 0;
        }
        *size += n;
        if let Some(last) = pieces.last_mut() {
            last.push(block);
        }
    };
    for block in &routine.blocks {
        match block {
            Block::Straight(assigns) => {
                let mut part: Vec<Assign> = Vec::new();
                let mut cost = 0;
                for a in assigns {
                    if cost + a.cost() > CHUNK && cost > 0 {
                        push(&mut pieces, &mut size, Block::Straight(std::mem::take(&mut part)), cost);
                        cost = 0;
                    }
                    cost += a.cost();
                    part.push(a.clone());
                }
                if !part.is_empty() {
                    push(&mut pieces, &mut size, Block::Straight(part), cost);
                }
            }
            Block::Fixpoint(_) => push(&mut pieces, &mut size, block.clone(), block.cost()),
        }
    }
    pieces
}

/// What code is generated for: the buffers' layout, the state's size and
/// the host.
struct Target {
    layout: Layout,
    state_bits: usize,
    frontend: cranelift_codegen::isa::TargetFrontendConfig,
}

/// Emits one function: for each member (blocks, then outputs), its code;
/// with several members, a jump table on `which` picks one.
fn build(func: &mut ir::Function, fctx: &mut FunctionBuilderContext, members: &[Member], target: Target) {
    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let params = b.block_params(entry).to_vec();
    let starts: Vec<ir::Block> = if members.len() > 1 {
        let starts: Vec<ir::Block> = members.iter().map(|_| b.create_block()).collect();
        let done = b.create_block();
        let calls: Vec<ir::BlockCall> = starts.iter().map(|&s| b.func.dfg.block_call(s, &[])).collect();
        let default = b.func.dfg.block_call(done, &[]);
        let table = b.create_jump_table(ir::JumpTableData::new(default, &calls));
        b.ins().br_table(params[4], table);
        b.switch_to_block(done);
        b.seal_block(done);
        b.ins().return_(&[]);
        starts
    } else {
        vec![entry]
    };
    let mut e = Emitter {
        sliced: target.layout == Layout::Sliced,
        values: params[0],
        state: params[1],
        inputs: params[2],
        words: HashMap::new(),
        bits: HashMap::new(),
        known: HashMap::new(),
        b,
    };
    for (&(blocks, outputs), &start) in members.iter().zip(&starts) {
        if start != entry {
            e.b.switch_to_block(start);
            e.b.seal_block(start);
            // Values of another member are not defined here.
            e.words.clear();
            e.bits.clear();
            e.known.clear();
        }
        e.member(blocks, outputs, params[3], target.state_bits);
    }
    e.b.finalize(target.frontend);
}

struct Emitter<'f> {
    b: FunctionBuilder<'f>,
    /// Words of 64 lanes rather than bytes and bits.
    sliced: bool,
    values: ir::Value,
    state: ir::Value,
    inputs: ir::Value,
    /// State words loaded so far (the state does not change during a call;
    /// packed: by word index, sliced: by bit).
    words: HashMap<u32, ir::Value>,
    /// Packed: state bits extracted so far, by bit.
    bits: HashMap<u32, ir::Value>,
    /// Gate values computed in straight code of this function, reused
    /// instead of reloaded.
    known: HashMap<u32, ir::Value>,
}

impl Emitter<'_> {
    /// One routine's piece: its blocks, its outputs into `out`, and return.
    fn member(&mut self, blocks: &[Block], outputs: &[(u32, Wire)], out: ir::Value, state_bits: usize) {
        for block in blocks {
            match block {
                Block::Straight(assigns) => {
                    for a in assigns {
                        let v = self.op(&a.op);
                        self.store(a.target, v);
                        self.known.insert(a.target, v);
                    }
                }
                Block::Fixpoint(assigns) => self.fixpoint(assigns),
            }
        }
        if !outputs.is_empty() {
            if self.sliced {
                self.sliced_outputs(outputs, out, state_bits);
            } else {
                self.packed_outputs(outputs, out, state_bits.div_ceil(64));
            }
        }
        self.b.ins().return_(&[]);
    }

    /// The type of a gate value: a byte, or a word of lanes.
    fn ty(&self) -> ir::Type {
        if self.sliced { types::I64 } else { types::I8 }
    }

    /// Byte offset of element `i` of a buffer of gate values or inputs.
    fn offset(&self, i: u32) -> i32 {
        if self.sliced { (i * 8) as i32 } else { i as i32 }
    }

    fn constant(&mut self, c: bool) -> ir::Value {
        let all = if self.sliced { -1 } else { 1 };
        let ty = self.ty();
        self.b.ins().iconst(ty, if c { all } else { 0 })
    }

    fn wire(&mut self, wire: Wire) -> ir::Value {
        let flags = MemFlagsData::trusted();
        let ty = self.ty();
        match wire {
            Wire::Value(i) => match self.known.get(&i) {
                Some(&v) => v,
                None => {
                    let at = self.offset(i);
                    self.b.ins().load(ty, flags, self.values, at)
                }
            },
            Wire::Input(i) => {
                let at = self.offset(i);
                self.b.ins().load(ty, flags, self.inputs, at)
            }
            Wire::Const(c) => self.constant(c),
            Wire::StateBit(i) if self.sliced => self.state_word(i),
            Wire::StateBit(i) => {
                if let Some(&bit) = self.bits.get(&i) {
                    return bit;
                }
                let word = self.state_word(i / 64);
                let shifted = if i % 64 == 0 { word } else { self.b.ins().ushr_imm_u(word, i64::from(i % 64)) };
                let narrow = self.b.ins().ireduce(types::I8, shifted);
                let bit = self.b.ins().band_imm_u(narrow, 1);
                self.bits.insert(i, bit);
                bit
            }
        }
    }

    /// State word `k`, loaded once per function (the state does not change
    /// during a call).
    fn state_word(&mut self, k: u32) -> ir::Value {
        if let Some(&w) = self.words.get(&k) {
            return w;
        }
        let w = self.b.ins().load(types::I64, MemFlagsData::trusted(), self.state, (k * 8) as i32);
        self.words.insert(k, w);
        w
    }

    fn op(&mut self, op: &Op) -> ir::Value {
        match op {
            Op::And(ws) | Op::Or(ws) => {
                let and = matches!(op, Op::And(_));
                let Some((&first, rest)) = ws.split_first() else {
                    return self.constant(and);
                };
                let mut acc = self.wire(first);
                for &w in rest {
                    let v = self.wire(w);
                    acc = if and { self.b.ins().band(acc, v) } else { self.b.ins().bor(acc, v) };
                }
                acc
            }
            Op::Not(w) => {
                let v = self.wire(*w);
                if self.sliced {
                    self.b.ins().bnot(v)
                } else {
                    let one = self.b.ins().iconst(types::I8, 1);
                    self.b.ins().bxor(v, one)
                }
            }
        }
    }

    fn store(&mut self, target: u32, v: ir::Value) {
        let at = self.offset(target);
        self.b.ins().store(MemFlagsData::trusted(), v, self.values, at);
    }

    /// Zeroes the targets, then repeats the assignments until none changes.
    /// Values are reloaded inside the loop (they change each round).
    fn fixpoint(&mut self, assigns: &[Assign]) {
        let zero = self.constant(false);
        for a in assigns {
            self.store(a.target, zero);
            self.known.remove(&a.target);
        }
        let body = self.b.create_block();
        let exit = self.b.create_block();
        self.b.ins().jump(body, &[]);
        self.b.switch_to_block(body);
        // Values known before the loop are defined in a block that
        // dominates it; targets of the loop are not in `known`.
        let mut changed = self.constant(false);
        let ty = self.ty();
        for a in assigns {
            let v = self.op(&a.op);
            let at = self.offset(a.target);
            let old = self.b.ins().load(ty, MemFlagsData::trusted(), self.values, at);
            let diff = self.b.ins().bxor(v, old);
            changed = self.b.ins().bor(changed, diff);
            self.store(a.target, v);
        }
        self.b.ins().brif(changed, body, &[], exit, &[]);
        self.b.seal_block(body);
        self.b.seal_block(exit);
        self.b.switch_to_block(exit);
    }

    /// `out` as a bit set: each word ORs its bits' wires, shifted in place.
    fn packed_outputs(&mut self, outputs: &[(u32, Wire)], out: ir::Value, state_words: usize) {
        let mut by_word: Vec<Vec<(u32, Wire)>> = vec![Vec::new(); state_words];
        for &(bit, wire) in outputs {
            by_word[(bit / 64) as usize].push((bit % 64, wire));
        }
        for (w, bits) in by_word.iter().enumerate() {
            let mut acc = self.b.ins().iconst(types::I64, 0);
            for &(shift, wire) in bits {
                let v = self.wire(wire);
                let wide = self.b.ins().uextend(types::I64, v);
                let bit = if shift == 0 { wide } else { self.b.ins().ishl_imm_u(wide, i64::from(shift)) };
                acc = self.b.ins().bor(acc, bit);
            }
            self.b.ins().store(MemFlagsData::trusted(), acc, out, (w * 8) as i32);
        }
    }

    /// `out` as one word per bit: the wire's lanes, or 0 for a bit no output
    /// names.
    fn sliced_outputs(&mut self, outputs: &[(u32, Wire)], out: ir::Value, state_bits: usize) {
        let mut wire_of: Vec<Option<Wire>> = vec![None; state_bits];
        for &(bit, wire) in outputs {
            wire_of[bit as usize] = Some(wire);
        }
        for (bit, wire) in wire_of.into_iter().enumerate() {
            let v = match wire {
                Some(w) => self.wire(w),
                None => self.constant(false),
            };
            self.b.ins().store(MemFlagsData::trusted(), v, out, (bit * 8) as i32);
        }
    }
}
