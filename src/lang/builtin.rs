//! Built-in operations with fixed semantics, which primitive sets bind to names
//! (`(function Plus (F F) F (builtin add))`). Their meaning is the one written
//! in docs/LANGUAGE.md; the interpreter and the JIT both implement exactly it.

use super::types::{Base, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Builtin {
    Add,
    Sub,
    Mul,
    PDiv,
    Neg,
    Abs,
    Min,
    Max,
    If,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    And,
    Or,
    Not,
    Nand,
    Nor,
    Xor,
    /// `(first a b) = a`: the paper's NullFuncJ.
    First,
    /// `(not-first a b) = not a`: the paper's NOTG.
    NotFirst,
    /// `(float i)`: an integer as f64.
    Float,
}

/// The protected-division threshold: `pdiv(a, b) = 1.0 if |b| < 1e-9 else a / b`.
pub const PDIV_EPSILON: f64 = 1e-9;

impl Builtin {
    pub const ALL: [Builtin; 23] = [
        Builtin::Add,
        Builtin::Sub,
        Builtin::Mul,
        Builtin::PDiv,
        Builtin::Neg,
        Builtin::Abs,
        Builtin::Min,
        Builtin::Max,
        Builtin::If,
        Builtin::Lt,
        Builtin::Le,
        Builtin::Gt,
        Builtin::Ge,
        Builtin::Eq,
        Builtin::And,
        Builtin::Or,
        Builtin::Not,
        Builtin::Nand,
        Builtin::Nor,
        Builtin::Xor,
        Builtin::First,
        Builtin::NotFirst,
        Builtin::Float,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Builtin::Add => "add",
            Builtin::Sub => "sub",
            Builtin::Mul => "mul",
            Builtin::PDiv => "pdiv",
            Builtin::Neg => "neg",
            Builtin::Abs => "abs",
            Builtin::Min => "min",
            Builtin::Max => "max",
            Builtin::If => "if",
            Builtin::Lt => "lt",
            Builtin::Le => "le",
            Builtin::Gt => "gt",
            Builtin::Ge => "ge",
            Builtin::Eq => "eq",
            Builtin::And => "and",
            Builtin::Or => "or",
            Builtin::Not => "not",
            Builtin::Nand => "nand",
            Builtin::Nor => "nor",
            Builtin::Xor => "xor",
            Builtin::First => "first",
            Builtin::NotFirst => "not-first",
            Builtin::Float => "float",
        }
    }

    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The signature shape, for messages: e.g. `(T T) T with T in {F, I}`.
    pub fn shape(self) -> &'static str {
        match self {
            Builtin::Add | Builtin::Sub | Builtin::Mul | Builtin::Min | Builtin::Max => {
                "(T T) T where T is over F or I"
            }
            Builtin::PDiv => "(F F) F",
            Builtin::Neg | Builtin::Abs => "(T) T where T is over F or I",
            Builtin::If => "(B T T) T for any T",
            Builtin::Lt | Builtin::Le | Builtin::Gt | Builtin::Ge | Builtin::Eq => "(T T) B where T is over F or I",
            Builtin::And | Builtin::Or | Builtin::Nand | Builtin::Nor | Builtin::Xor | Builtin::NotFirst => "(B B) B",
            Builtin::Not => "(B) B",
            Builtin::First => "(T U) T for any T, U",
            Builtin::Float => "(I) F",
        }
    }

    /// Whether the builtin can implement a primitive whose argument and result
    /// types have the given bases.
    pub fn accepts(self, args: &[Base], ret: Base) -> bool {
        use Base::*;
        let numeric = |b: Base| matches!(b, F | I);
        match (self, args) {
            (Builtin::Add | Builtin::Sub | Builtin::Mul | Builtin::Min | Builtin::Max, [a, b]) => {
                numeric(*a) && a == b && ret == *a
            }
            (Builtin::PDiv, [F, F]) => ret == F,
            (Builtin::Neg | Builtin::Abs, [a]) => numeric(*a) && ret == *a,
            (Builtin::If, [B, a, b]) => a == b && ret == *a,
            (Builtin::Lt | Builtin::Le | Builtin::Gt | Builtin::Ge | Builtin::Eq, [a, b]) => {
                numeric(*a) && a == b && ret == B
            }
            (Builtin::And | Builtin::Or | Builtin::Nand | Builtin::Nor | Builtin::Xor | Builtin::NotFirst, [B, B]) => {
                ret == B
            }
            (Builtin::Not, [B]) => ret == B,
            (Builtin::First, [a, _]) => ret == *a,
            (Builtin::Float, [I]) => ret == F,
            _ => false,
        }
    }

    /// Whether arguments after the first are evaluated only when needed
    /// (`if`, `and`, `or`, `nand`, `nor`, `first`, `not-first`).
    pub fn is_lazy(self) -> bool {
        matches!(
            self,
            Builtin::If
                | Builtin::And
                | Builtin::Or
                | Builtin::Nand
                | Builtin::Nor
                | Builtin::First
                | Builtin::NotFirst
        )
    }

    /// Applies a strict builtin to evaluated arguments. Lazy builtins are
    /// evaluated by the interpreter itself; calling this with them is a bug.
    pub fn apply(self, args: &[Value]) -> Value {
        use Value::*;
        match (self, args) {
            (Builtin::Add, [F(a), F(b)]) => F(a + b),
            (Builtin::Sub, [F(a), F(b)]) => F(a - b),
            (Builtin::Mul, [F(a), F(b)]) => F(a * b),
            (Builtin::Add, [I(a), I(b)]) => I(a.wrapping_add(*b)),
            (Builtin::Sub, [I(a), I(b)]) => I(a.wrapping_sub(*b)),
            (Builtin::Mul, [I(a), I(b)]) => I(a.wrapping_mul(*b)),
            (Builtin::PDiv, [F(a), F(b)]) => F(pdiv(*a, *b)),
            (Builtin::Neg, [F(a)]) => F(-a),
            (Builtin::Neg, [I(a)]) => I(a.wrapping_neg()),
            (Builtin::Abs, [F(a)]) => F(a.abs()),
            (Builtin::Abs, [I(a)]) => I(a.wrapping_abs()),
            (Builtin::Min, [F(a), F(b)]) => F(if a < b { *a } else { *b }),
            (Builtin::Max, [F(a), F(b)]) => F(if a > b { *a } else { *b }),
            (Builtin::Min, [I(a), I(b)]) => I(*a.min(b)),
            (Builtin::Max, [I(a), I(b)]) => I(*a.max(b)),
            (Builtin::Lt, [F(a), F(b)]) => B(a < b),
            (Builtin::Le, [F(a), F(b)]) => B(a <= b),
            (Builtin::Gt, [F(a), F(b)]) => B(a > b),
            (Builtin::Ge, [F(a), F(b)]) => B(a >= b),
            (Builtin::Eq, [F(a), F(b)]) => B(a == b),
            (Builtin::Lt, [I(a), I(b)]) => B(a < b),
            (Builtin::Le, [I(a), I(b)]) => B(a <= b),
            (Builtin::Gt, [I(a), I(b)]) => B(a > b),
            (Builtin::Ge, [I(a), I(b)]) => B(a >= b),
            (Builtin::Eq, [I(a), I(b)]) => B(a == b),
            (Builtin::Xor, [B(a), B(b)]) => B(a ^ b),
            (Builtin::Not, [B(a)]) => B(!a),
            (Builtin::Float, [I(a)]) => F(*a as f64),
            (op, args) => unreachable!("builtin {} applied to {args:?}", op.name()),
        }
    }
}

/// Protected division, the rule ../shared/gpbench uses.
#[inline]
pub fn pdiv(a: f64, b: f64) -> f64 {
    if b.abs() < PDIV_EPSILON { 1.0 } else { a / b }
}
