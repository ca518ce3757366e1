//! Builtins lowered to Cranelift instructions, for scalar and f64x2 lanes,
//! with exactly the semantics of `lang::builtin` (see docs/LANGUAGE.md).
//!
//! Two rules keep the results bit-identical to the interpreter and fast:
//! `min`/`max`/`pdiv`/`if` choose with a comparison and a select, never with
//! Cranelift's `fmin`/`fmax` (whose NaN and ±0 rules differ); and a scalar
//! float select is done on the integer bit patterns, which compiles to a
//! branch-free `cmov` instead of a conditional jump that mispredicts on
//! data-dependent conditions.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{self, InstBuilder, MemFlagsData, types};

use super::JitError;
use super::translate::{FunctionTranslator, Lanes, Val, op_arity};
use crate::lang::builtin::{Builtin, PDIV_EPSILON};
use crate::lang::{Base, Value};

#[cfg(test)]
thread_local! {
    /// Test hook: when set, `min` over F is lowered to Cranelift's `fmin`, and
    /// a network node sums its links in reverse order: plausible bugs the
    /// differential harness must catch. Never set outside tests.
    pub static PLANTED_FAULT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl FunctionTranslator<'_, '_> {
    pub fn const_f(&mut self, x: f64) -> Val {
        let v = match self.lanes {
            Lanes::Scalar => self.b.ins().f64const(x),
            Lanes::X2 => match self.consts.get(&(x.to_bits(), types::F64X2)) {
                Some(v) => *v,
                None => {
                    let s = self.b.ins().f64const(x);
                    self.b.ins().splat(types::F64X2, s)
                }
            },
        };
        Val { v, base: Base::F }
    }

    pub fn const_b(&mut self, b: bool) -> Val {
        let v = match self.lanes {
            Lanes::Scalar => self.b.ins().iconst(types::I8, i64::from(b)),
            Lanes::X2 => self.const_vec_i(-i64::from(b)),
        };
        Val { v, base: Base::B }
    }

    /// An `i64x2` with both lanes `i`.
    pub fn const_vec_i(&mut self, i: i64) -> ir::Value {
        match self.consts.get(&(i as u64, types::I64X2)) {
            Some(v) => *v,
            None => {
                let s = self.b.ins().iconst(types::I64, i);
                self.b.ins().splat(types::I64X2, s)
            }
        }
    }

    /// Materialises the constant `x` (and, for X2, registers it so later uses
    /// share it). Call in a block that dominates every use.
    pub fn premake_const_f(&mut self, x: f64) {
        if self.lanes == Lanes::X2 && !self.consts.contains_key(&(x.to_bits(), types::F64X2)) {
            let v = self.const_f(x).v;
            self.consts.insert((x.to_bits(), types::F64X2), v);
        }
    }

    pub fn premake_const_vec_i(&mut self, i: i64) {
        if self.lanes == Lanes::X2 && !self.consts.contains_key(&(i as u64, types::I64X2)) {
            let v = self.const_vec_i(i);
            self.consts.insert((i as u64, types::I64X2), v);
        }
    }

    /// The value of `v` when it is a float constant (a literal of the
    /// program, in either lane width).
    fn known_f(&self, v: ir::Value) -> Option<f64> {
        let dfg = &self.b.func.dfg;
        let inst = dfg.value_def(v).inst()?;
        match dfg.insts[inst] {
            ir::InstructionData::UnaryIeee64 { opcode: ir::Opcode::F64const, imm } => Some(f64::from_bits(imm.bits())),
            ir::InstructionData::Unary { opcode: ir::Opcode::Splat, arg } => self.known_f(arg),
            _ => None,
        }
    }

    /// The value of `v` when it is a boolean constant (0/1 in scalar lanes,
    /// all zeros or all ones in X2 lanes).
    fn known_b(&self, v: ir::Value) -> Option<bool> {
        let dfg = &self.b.func.dfg;
        let inst = dfg.value_def(v).inst()?;
        match dfg.insts[inst] {
            ir::InstructionData::UnaryImm { opcode: ir::Opcode::Iconst, imm } => match (self.lanes, imm.bits()) {
                (Lanes::Scalar, 0) | (Lanes::X2, 0) => Some(false),
                (Lanes::Scalar, 1) | (Lanes::X2, -1) => Some(true),
                _ => None,
            },
            ir::InstructionData::Unary { opcode: ir::Opcode::Splat, arg } => self.known_b(arg),
            _ => None,
        }
    }

    /// A builtin whose result is known when compiling: strict builtins over
    /// constants, computed now by the interpreter's own definition (so bit
    /// for bit what the interpreter computes), logic over constant truth
    /// values, and an `if` whose condition is constant or whose two branches
    /// are the same value. A constant subtree such as `(pdiv 1.906 -0.355)`
    /// then costs nothing per row, as in code LLVM compiles; every builtin is
    /// pure, so dropping the code of a branch never taken is unobservable.
    fn fold(&mut self, op: Builtin, args: &[Val]) -> Option<Val> {
        use Builtin::*;
        if args.len() != op_arity(op) {
            return None;
        }
        match op {
            Add | Sub | Mul | PDiv | Neg | Abs | Min | Max | Lt | Le | Gt | Ge | Eq => {
                let mut values = [Value::F(0.0); 2];
                for (slot, a) in values.iter_mut().zip(args) {
                    if a.base != Base::F {
                        return None;
                    }
                    *slot = Value::F(self.known_f(a.v)?);
                }
                Some(match op.apply(&values[..args.len()]) {
                    Value::F(x) => self.const_f(x),
                    Value::B(b) => self.const_b(b),
                    Value::I(_) => return None,
                })
            }
            If if args[1].v == args[2].v => Some(args[1]),
            If => self.known_b(args[0].v).map(|c| if c { args[1] } else { args[2] }),
            Not | NotFirst => self.known_b(args[0].v).map(|x| self.const_b(!x)),
            First => None,
            And | Or | Nand | Nor | Xor => {
                let (x, y) = (self.known_b(args[0].v), self.known_b(args[1].v));
                let r = match (op, x, y) {
                    (And, Some(false), _) | (And, _, Some(false)) => false,
                    (Or, Some(true), _) | (Or, _, Some(true)) => true,
                    (Nand, Some(false), _) | (Nand, _, Some(false)) => true,
                    (Nor, Some(true), _) | (Nor, _, Some(true)) => false,
                    (And | Or | Nand | Nor | Xor, Some(x), Some(y)) => match op {
                        And => x && y,
                        Or => x || y,
                        Nand => !(x && y),
                        Nor => !(x || y),
                        _ => x ^ y,
                    },
                    // One constant that does not decide: `true and y` is y.
                    (And, Some(true), None) | (Or, Some(false), None) => return Some(args[1]),
                    (And, None, Some(true)) | (Or, None, Some(false)) => return Some(args[0]),
                    _ => return None,
                };
                Some(self.const_b(r))
            }
            _ => None,
        }
    }

    /// |x| for a float: the sign bit cleared. In f64x2 lanes with the mask
    /// made once before the loop, where Cranelift's `fabs` builds it at
    /// every use (two instructions more per protected division).
    fn abs_f(&mut self, x: ir::Value) -> ir::Value {
        match self.lanes {
            Lanes::Scalar => self.b.ins().fabs(x),
            Lanes::X2 => {
                let mask = self.const_vec_i(i64::MAX);
                let mask = self.b.ins().bitcast(types::F64X2, MemFlagsData::new(), mask);
                self.b.ins().band(x, mask)
            }
        }
    }

    /// `if c then x else y`, without a branch.
    pub fn select(&mut self, c: ir::Value, x: Val, y: Val) -> Val {
        let v = match (self.lanes, x.base) {
            (Lanes::Scalar, Base::F) => {
                let flags = MemFlagsData::new();
                let xi = self.b.ins().bitcast(types::I64, flags, x.v);
                let yi = self.b.ins().bitcast(types::I64, flags, y.v);
                let r = self.b.ins().select(c, xi, yi);
                self.b.ins().bitcast(types::F64, flags, r)
            }
            (Lanes::Scalar, _) => self.b.ins().select(c, x.v, y.v),
            (Lanes::X2, Base::F) => {
                let mask = self.b.ins().bitcast(types::F64X2, MemFlagsData::new(), c);
                self.b.ins().bitselect(mask, x.v, y.v)
            }
            (Lanes::X2, _) => self.b.ins().bitselect(c, x.v, y.v),
        };
        Val { v, base: x.base }
    }

    fn not(&mut self, x: ir::Value) -> ir::Value {
        match self.lanes {
            Lanes::Scalar => self.b.ins().bxor_imm_s(x, 1),
            Lanes::X2 => self.b.ins().bnot(x),
        }
    }

    /// Applies a builtin to computed arguments (lazy ones included: both
    /// sides are computed and selected).
    pub fn apply_builtin(&mut self, op: Builtin, args: &[Val]) -> Result<Val, JitError> {
        use Builtin::*;
        let b = |v| Val { v, base: Base::B };
        let arg = |k: usize| args.get(k).copied().ok_or_else(|| JitError::Malformed("missing argument".into()));
        let x = arg(0)?;
        let float = x.base == Base::F;
        if let Some(folded) = self.fold(op, args) {
            return Ok(folded);
        }
        let r = match op {
            Add | Sub | Mul if float => {
                let y = arg(1)?.v;
                let ins = self.b.ins();
                let v = match op {
                    Add => ins.fadd(x.v, y),
                    Sub => ins.fsub(x.v, y),
                    _ => ins.fmul(x.v, y),
                };
                Val { v, base: Base::F }
            }
            Add | Sub | Mul => {
                let y = arg(1)?.v;
                let ins = self.b.ins();
                let v = match op {
                    Add => ins.iadd(x.v, y),
                    Sub => ins.isub(x.v, y),
                    _ => ins.imul(x.v, y),
                };
                Val { v, base: Base::I }
            }
            PDiv => {
                let y = arg(1)?;
                // A constant divisor decides the protection here: 1, or a plain division.
                match self.known_f(y.v) {
                    Some(c) if c.abs() < PDIV_EPSILON => return Ok(self.const_f(1.0)),
                    Some(_) => return Ok(Val { v: self.b.ins().fdiv(x.v, y.v), base: Base::F }),
                    None => {}
                }
                let abs = self.abs_f(y.v);
                let eps = self.const_f(PDIV_EPSILON).v;
                let small = self.b.ins().fcmp(FloatCC::LessThan, abs, eps);
                let q = Val { v: self.b.ins().fdiv(x.v, y.v), base: Base::F };
                let one = self.const_f(1.0);
                self.select(small, one, q)
            }
            Neg if float => Val { v: self.b.ins().fneg(x.v), base: Base::F },
            Neg => Val { v: self.b.ins().ineg(x.v), base: Base::I },
            Abs if float => Val { v: self.abs_f(x.v), base: Base::F },
            Abs => Val { v: self.b.ins().iabs(x.v), base: Base::I },
            Min | Max if float => {
                let y = arg(1)?;
                #[cfg(test)]
                if op == Min && PLANTED_FAULT.with(std::cell::Cell::get) {
                    return Ok(Val { v: self.b.ins().fmin(x.v, y.v), base: Base::F });
                }
                let cc = if op == Min { FloatCC::LessThan } else { FloatCC::GreaterThan };
                let c = self.b.ins().fcmp(cc, x.v, y.v);
                self.select(c, x, y)
            }
            Min => Val { v: self.b.ins().smin(x.v, arg(1)?.v), base: Base::I },
            Max => Val { v: self.b.ins().smax(x.v, arg(1)?.v), base: Base::I },
            Lt | Le | Gt | Ge | Eq if float => {
                let cc = match op {
                    Lt => FloatCC::LessThan,
                    Le => FloatCC::LessThanOrEqual,
                    Gt => FloatCC::GreaterThan,
                    Ge => FloatCC::GreaterThanOrEqual,
                    _ => FloatCC::Equal,
                };
                b(self.b.ins().fcmp(cc, x.v, arg(1)?.v))
            }
            Lt | Le | Gt | Ge | Eq => {
                let cc = match op {
                    Lt => IntCC::SignedLessThan,
                    Le => IntCC::SignedLessThanOrEqual,
                    Gt => IntCC::SignedGreaterThan,
                    Ge => IntCC::SignedGreaterThanOrEqual,
                    _ => IntCC::Equal,
                };
                b(self.b.ins().icmp(cc, x.v, arg(1)?.v))
            }
            If => {
                let (t, e) = (arg(1)?, arg(2)?);
                self.select(x.v, t, e)
            }
            And | Nand => {
                let v = self.b.ins().band(x.v, arg(1)?.v);
                b(if op == Nand { self.not(v) } else { v })
            }
            Or | Nor => {
                let v = self.b.ins().bor(x.v, arg(1)?.v);
                b(if op == Nor { self.not(v) } else { v })
            }
            Xor => b(self.b.ins().bxor(x.v, arg(1)?.v)),
            Not | NotFirst => b(self.not(x.v)),
            First => x,
            Float => Val { v: self.b.ins().fcvt_from_sint(types::F64, x.v), base: Base::F },
        };
        Ok(r)
    }

    /// The 64-bit slot pattern of a scalar value: f64 bits, i64, or 0/1.
    pub fn bits_of(&mut self, x: Val) -> ir::Value {
        match x.base {
            Base::F => self.b.ins().bitcast(types::I64, MemFlagsData::new(), x.v),
            Base::I => x.v,
            Base::B => self.b.ins().uextend(types::I64, x.v),
        }
    }

    /// A scalar value of `base` from its 64-bit slot pattern.
    pub fn value_from_bits(&mut self, bits: ir::Value, base: Base) -> Val {
        let v = match base {
            Base::F => self.b.ins().bitcast(types::F64, MemFlagsData::new(), bits),
            Base::I => bits,
            Base::B => self.b.ins().icmp_imm_s(IntCC::NotEqual, bits, 0),
        };
        Val { v, base }
    }
}
