//! Types and values.
//!
//! Every type has a base representation: `F` (IEEE f64), `I` (i64) or `B`
//! (bool). A primitive set may declare more types over a base, e.g.
//! `(type Row I)`; they are distinct for type checking (strong typing) and share
//! the base's machine representation at run time.

use std::fmt;

/// A machine representation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Base {
    F,
    I,
    B,
}

impl Base {
    pub fn name(self) -> &'static str {
        match self {
            Base::F => "F",
            Base::I => "I",
            Base::B => "B",
        }
    }
}

/// Index of a type in its primitive set's type table. The first three are
/// always `F`, `I` and `B`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u16);

impl TypeId {
    pub const F: TypeId = TypeId(0);
    pub const I: TypeId = TypeId(1);
    pub const B: TypeId = TypeId(2);
}

/// A run-time value.
#[derive(Debug, Clone, Copy, serde::Serialize, serde::Deserialize)]
pub enum Value {
    F(f64),
    I(i64),
    B(bool),
}

impl Value {
    pub fn base(self) -> Base {
        match self {
            Value::F(_) => Base::F,
            Value::I(_) => Base::I,
            Value::B(_) => Base::B,
        }
    }

    /// The 64-bit pattern of the value, as slots and JIT code hold it:
    /// f64 bits, i64 two's complement, bool 0 or 1.
    pub fn to_bits(self) -> u64 {
        match self {
            Value::F(x) => x.to_bits(),
            Value::I(i) => i as u64,
            Value::B(b) => u64::from(b),
        }
    }

    /// Reads a 64-bit slot pattern as a value of `base`.
    pub fn from_bits(base: Base, bits: u64) -> Value {
        match base {
            Base::F => Value::F(f64::from_bits(bits)),
            Base::I => Value::I(bits as i64),
            Base::B => Value::B(bits != 0),
        }
    }

    pub fn as_f64(self) -> f64 {
        match self {
            Value::F(x) => x,
            Value::I(i) => i as f64,
            Value::B(b) => f64::from(u8::from(b)),
        }
    }

    pub fn as_bool(self) -> bool {
        match self {
            Value::B(b) => b,
            Value::F(x) => x != 0.0,
            Value::I(i) => i != 0,
        }
    }

    pub fn as_i64(self) -> i64 {
        match self {
            Value::I(i) => i,
            Value::F(x) => x as i64,
            Value::B(b) => i64::from(b),
        }
    }

    /// Equality by bit pattern (what "bit-identical" means for results).
    pub fn same_bits(self, other: Value) -> bool {
        self.base() == other.base() && self.to_bits() == other.to_bits()
    }
}

/// Values are equal when they have the same base and bit pattern, so that
/// `-0.0 != 0.0` and a NaN equals itself: the equality of "bit-identical".
impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        self.same_bits(*other)
    }
}

impl fmt::Display for Value {
    /// Round-trip text: floats as the reader reads them back, bools as `true`/`false`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::F(x) => write!(f, "{}", crate::syntax::sexp::format_float(*x)),
            Value::I(i) => write!(f, "{i}"),
            Value::B(b) => write!(f, "{b}"),
        }
    }
}

/// A declared type.
#[derive(Debug, Clone)]
pub struct TypeDef {
    pub name: String,
    pub base: Base,
}
