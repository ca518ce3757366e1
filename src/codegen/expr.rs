//! Trees as C or Rust expressions with the interpreter's semantics
//! (src/eval/interp.rs, src/lang/builtin.rs), bit for bit: the same
//! operations in the same order, constants printed so that they read back
//! as the same double, comparisons false on NaN as in Rust, `if`, `and`
//! and `or` as the target's own lazy operators (every primitive is pure,
//! so laziness is unobservable). Builtins whose arguments would otherwise
//! be computed twice (`min`, `max`, `pdiv`, integer `abs`) call helper
//! functions, which the exporter emits once for those that are used.
//!
//! B values are C `int`s 0/1 or Rust `bool`s; I values are C `long long` or
//! Rust `i64`, with wrapping arithmetic as the interpreter's.
//! Feature slots and natives are the caller's ([`Leaves`]); definitions are
//! inlined with their arguments substituted (pure, so evaluating an argument
//! twice changes nothing).

use std::collections::BTreeSet;

use crate::lang::builtin::Builtin;
use crate::lang::{Base, Node, PrimKind, PrimSet, Primitive, Tree, Value};

/// The C compiler's floating-point contraction turned off: GCC's default
/// (outside `-std=c89`/`c99`/...) fuses `a*b+c` into one FMA, rounded once,
/// wherever the target has one (`-march=native`), and clang contracts within
/// an expression; the interpreter and the JIT round every operation.
pub const C_NO_CONTRACTION: &str = "#ifdef __clang__\n#pragma STDC FP_CONTRACT OFF\n#elif defined(__GNUC__)\n#pragma GCC optimize(\"fp-contract=off\")\n#endif\n";

/// The target language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    C,
    Rust,
}

/// A helper function an expression calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Helper {
    PDiv,
    MinF,
    MaxF,
    MinI,
    MaxI,
    AbsF,
    AbsI,
}

/// What a tree reads from outside: feature slots and natives.
pub trait Leaves {
    /// The expression of feature slot `slot`, whose type has base `base`.
    fn feature(&mut self, prim: &Primitive, slot: u32, base: Base) -> Result<String, String>;
    /// The expression of a call of native `prim` with arguments `args`
    /// (each a subtree, in prefix order) and their expressions `exprs`.
    fn native(&mut self, prim: &Primitive, args: &[&[Node]], exprs: &[String]) -> Result<String, String>;
}

/// Translates trees of one primset; collects the helpers used and what
/// cannot be translated (each a message).
pub struct Emitter<'a, L: Leaves> {
    pub ps: &'a PrimSet,
    pub lang: Lang,
    pub leaves: L,
    pub helpers: BTreeSet<Helper>,
    pub problems: BTreeSet<String>,
}

impl<'a, L: Leaves> Emitter<'a, L> {
    pub fn new(ps: &'a PrimSet, lang: Lang, leaves: L) -> Self {
        Emitter { ps, lang, leaves, helpers: BTreeSet::new(), problems: BTreeSet::new() }
    }

    /// The expression of a whole tree.
    pub fn tree(&mut self, tree: &Tree) -> String {
        let mut idx = 0;
        self.node(&tree.nodes, &mut idx, &[])
    }

    fn node(&mut self, nodes: &[Node], idx: &mut usize, params: &[String]) -> String {
        let Some(&node) = nodes.get(*idx) else {
            self.problems.insert("a malformed tree".to_owned());
            return "0".to_owned();
        };
        let start = *idx;
        *idx += 1;
        match node {
            Node::Const(v) => constant(self.lang, v),
            Node::Param(p) => params.get(usize::from(p)).cloned().unwrap_or_else(|| "0".to_owned()),
            Node::Prim(id) => {
                let prim = self.ps.prim(id);
                let mut arg_nodes = Vec::with_capacity(prim.arity());
                let mut exprs = Vec::with_capacity(prim.arity());
                for _ in 0..prim.arity() {
                    let from = *idx;
                    exprs.push(self.node(nodes, idx, params));
                    arg_nodes.push(&nodes[from..*idx]);
                }
                let _ = start;
                match &prim.kind {
                    PrimKind::Feature(slot) => {
                        let base = self.ps.base(prim.ret);
                        self.leaves.feature(prim, *slot, base).unwrap_or_else(|e| self.problem(e))
                    }
                    PrimKind::Native(_) => {
                        self.leaves.native(prim, &arg_nodes, &exprs).unwrap_or_else(|e| self.problem(e))
                    }
                    PrimKind::Derived(d) => {
                        let body = d.body.clone();
                        let mut body_idx = 0;
                        self.node(&body.nodes, &mut body_idx, &exprs)
                    }
                    PrimKind::Builtin(op) => {
                        let arg_base = prim.args.first().map(|&t| self.ps.base(t));
                        self.builtin(*op, arg_base, &exprs)
                    }
                }
            }
        }
    }

    fn problem(&mut self, e: String) -> String {
        self.problems.insert(e);
        "0".to_owned()
    }

    fn builtin(&mut self, op: Builtin, arg_base: Option<Base>, a: &[String]) -> String {
        let int = arg_base == Some(Base::I);
        let c = self.lang == Lang::C;
        let arg = |i: usize| a.get(i).map_or("0", String::as_str);
        let (x, y) = (arg(0), arg(1));
        let mut call = |h: Helper, args: &str| {
            self.helpers.insert(h);
            format!("{}({args})", helper_name(h))
        };
        match op {
            Builtin::Add | Builtin::Sub | Builtin::Mul if int => {
                let (sym, method) = match op {
                    Builtin::Add => ('+', "wrapping_add"),
                    Builtin::Sub => ('-', "wrapping_sub"),
                    _ => ('*', "wrapping_mul"),
                };
                if c {
                    format!("(long long)((unsigned long long){x}{sym}(unsigned long long){y})")
                } else {
                    format!("{x}.{method}({y})")
                }
            }
            Builtin::Add => format!("({x}+{y})"),
            Builtin::Sub => format!("({x}-{y})"),
            Builtin::Mul => format!("({x}*{y})"),
            Builtin::PDiv => call(Helper::PDiv, &format!("{x},{y}")),
            Builtin::Neg if int && c => format!("(long long)(0ULL-(unsigned long long){x})"),
            Builtin::Neg if int => format!("{x}.wrapping_neg()"),
            Builtin::Neg => format!("(-{x})"),
            Builtin::Abs => call(if int { Helper::AbsI } else { Helper::AbsF }, x),
            Builtin::Min => call(if int { Helper::MinI } else { Helper::MinF }, &format!("{x},{y}")),
            Builtin::Max => call(if int { Helper::MaxI } else { Helper::MaxF }, &format!("{x},{y}")),
            Builtin::If if c => format!("({x}?{}:{})", arg(1), arg(2)),
            Builtin::If => format!("(if {x} {{ {} }} else {{ {} }})", arg(1), arg(2)),
            Builtin::Lt => format!("({x}<{y})"),
            Builtin::Le => format!("({x}<={y})"),
            Builtin::Gt => format!("({x}>{y})"),
            Builtin::Ge => format!("({x}>={y})"),
            Builtin::Eq => format!("({x}=={y})"),
            Builtin::And => format!("({x}&&{y})"),
            Builtin::Or => format!("({x}||{y})"),
            Builtin::Not | Builtin::NotFirst => format!("(!{x})"),
            Builtin::Nand => format!("(!({x}&&{y}))"),
            Builtin::Nor => format!("(!({x}||{y}))"),
            Builtin::Xor => format!("({x}!={y})"),
            Builtin::First => x.to_owned(),
            Builtin::Float if c => format!("((double){x})"),
            Builtin::Float => format!("({x} as f64)"),
        }
    }

    /// The definitions of the helpers used, one a line.
    pub fn helper_defs(&self) -> String {
        self.helpers.iter().map(|&h| helper_def(self.lang, h)).collect()
    }
}

pub fn helper_name(h: Helper) -> &'static str {
    match h {
        Helper::PDiv => "pdiv",
        Helper::MinF => "minf",
        Helper::MaxF => "maxf",
        Helper::MinI => "mini",
        Helper::MaxI => "maxi",
        Helper::AbsF => "absf",
        Helper::AbsI => "absi",
    }
}

/// A helper's definition: the interpreter's rule (`pdiv` by |b| < 1e-9,
/// `min`/`max` by one comparison, so NaN and ±0 go as they go there).
fn helper_def(lang: Lang, h: Helper) -> String {
    let c = lang == Lang::C;
    let body = match (h, c) {
        (Helper::PDiv, true) => "static double pdiv(double a,double b){return b<1e-9&&b>-1e-9?1.0:a/b;}",
        (Helper::MinF, true) => "static double minf(double a,double b){return a<b?a:b;}",
        (Helper::MaxF, true) => "static double maxf(double a,double b){return a>b?a:b;}",
        (Helper::MinI, true) => "static long long mini(long long a,long long b){return a<b?a:b;}",
        (Helper::MaxI, true) => "static long long maxi(long long a,long long b){return a>b?a:b;}",
        (Helper::AbsF, true) => "static double absf(double a){return fabs(a);}",
        (Helper::AbsI, true) => {
            "static long long absi(long long a){return a<0?(long long)(0ULL-(unsigned long long)a):a;}"
        }
        (Helper::PDiv, false) => "fn pdiv(a: f64, b: f64) -> f64 { if b.abs() < 1e-9 { 1.0 } else { a / b } }",
        (Helper::MinF, false) => "fn minf(a: f64, b: f64) -> f64 { if a < b { a } else { b } }",
        (Helper::MaxF, false) => "fn maxf(a: f64, b: f64) -> f64 { if a > b { a } else { b } }",
        (Helper::MinI, false) => "fn mini(a: i64, b: i64) -> i64 { a.min(b) }",
        (Helper::MaxI, false) => "fn maxi(a: i64, b: i64) -> i64 { a.max(b) }",
        (Helper::AbsF, false) => "fn absf(a: f64) -> f64 { a.abs() }",
        (Helper::AbsI, false) => "fn absi(a: i64) -> i64 { a.wrapping_abs() }",
    };
    format!("{body}\n")
}

/// A constant, printed so it reads back as the same value: the shortest
/// decimal that round-trips (Rust's `{:?}`), negative ones in parentheses.
pub fn constant(lang: Lang, v: Value) -> String {
    let c = lang == Lang::C;
    match v {
        Value::F(x) if x.is_nan() => (if c { "(0.0/0.0)" } else { "f64::NAN" }).to_owned(),
        Value::F(x) if x.is_infinite() => {
            let s = if c { "(1e308*10.0)" } else { "f64::INFINITY" };
            if x < 0.0 { format!("(-{s})") } else { s.to_owned() }
        }
        Value::F(x) => {
            let text = format!("{x:?}");
            let text = if c { text } else { format!("{text}f64") };
            if x.is_sign_negative() { format!("({text})") } else { text }
        }
        Value::I(i) if c && i == i64::MIN => "(-9223372036854775807LL-1)".to_owned(),
        Value::I(i) if c => {
            let text = format!("{i}LL");
            if i < 0 { format!("({text})") } else { text }
        }
        Value::I(i) if i == i64::MIN => "i64::MIN".to_owned(),
        Value::I(i) => {
            if i < 0 {
                format!("({i}i64)")
            } else {
                format!("{i}i64")
            }
        }
        Value::B(b) => (if c {
            if b { "1" } else { "0" }
        } else if b {
            "true"
        } else {
            "false"
        })
        .to_owned(),
    }
}

/// `name` as an identifier of C and Rust: letters, digits and `_`.
pub fn identifier(name: &str) -> String {
    let mut s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_round_trip_through_their_text() {
        for x in [0.1, -0.5, 1e300, 5e-324, 1.0 / 3.0, -0.0, 3.0] {
            let text = constant(Lang::C, Value::F(x));
            let parsed: f64 = text.trim_matches(|c| c == '(' || c == ')').parse().expect("a float");
            assert_eq!(parsed.to_bits(), x.to_bits(), "{text}");
        }
        assert_eq!(constant(Lang::Rust, Value::F(2.0)), "2.0f64");
        assert_eq!(constant(Lang::C, Value::I(-3)), "(-3LL)");
        assert_eq!(identifier("x-1"), "x_1");
        assert_eq!(identifier("1a"), "_1a");
    }
}
