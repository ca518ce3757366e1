//! S-expressions with byte spans: the only structure the grammar knows.

use std::fmt;

use crate::diagnostic::Span;

/// An atom: the leaves of an S-expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Atom {
    Int(i64),
    Float(f64),
    Str(String),
    Symbol(String),
}

/// An S-expression node.
#[derive(Debug, Clone, PartialEq)]
pub enum SexpKind {
    Atom(Atom),
    List(Vec<Sexp>),
}

/// An S-expression with the span it was read from (empty for synthesised ones).
#[derive(Debug, Clone)]
pub struct Sexp {
    pub kind: SexpKind,
    pub span: Span,
}

/// Equality ignores spans: two programs are equal when they read the same.
/// Floats compare by bits so that `-0.0` and `0.0` differ and NaN equals itself.
impl PartialEq for Sexp {
    fn eq(&self, other: &Sexp) -> bool {
        match (&self.kind, &other.kind) {
            (SexpKind::Atom(Atom::Float(a)), SexpKind::Atom(Atom::Float(b))) => a.to_bits() == b.to_bits(),
            (SexpKind::Atom(a), SexpKind::Atom(b)) => a == b,
            (SexpKind::List(a), SexpKind::List(b)) => a == b,
            _ => false,
        }
    }
}

impl Sexp {
    pub fn list(items: Vec<Sexp>, span: impl Into<Span>) -> Sexp {
        Sexp { kind: SexpKind::List(items), span: span.into() }
    }

    pub fn atom(atom: Atom, span: impl Into<Span>) -> Sexp {
        Sexp { kind: SexpKind::Atom(atom), span: span.into() }
    }

    pub fn symbol(name: &str) -> Sexp {
        Sexp::atom(Atom::Symbol(name.to_owned()), Span::default())
    }

    pub fn float(x: f64) -> Sexp {
        Sexp::atom(Atom::Float(x), Span::default())
    }

    pub fn int(x: i64) -> Sexp {
        Sexp::atom(Atom::Int(x), Span::default())
    }

    pub fn as_symbol(&self) -> Option<&str> {
        match &self.kind {
            SexpKind::Atom(Atom::Symbol(s)) => Some(s),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&[Sexp]> {
        match &self.kind {
            SexpKind::List(items) => Some(items),
            _ => None,
        }
    }

    /// The head symbol of a list, e.g. `primset` in `(primset arith ...)`.
    pub fn head(&self) -> Option<&str> {
        self.as_list()?.first()?.as_symbol()
    }

    /// A short description for diagnostics: "a list", "the symbol `x`", ...
    pub fn describe(&self) -> String {
        match &self.kind {
            SexpKind::List(items) if items.is_empty() => "an empty list".into(),
            SexpKind::List(_) => match self.head() {
                Some(h) => format!("a `({h} ...)` list"),
                None => "a list".into(),
            },
            SexpKind::Atom(Atom::Int(i)) => format!("the integer `{i}`"),
            SexpKind::Atom(Atom::Float(x)) => format!("the float `{}`", format_float(*x)),
            SexpKind::Atom(Atom::Str(s)) => format!("the string {s:?}"),
            SexpKind::Atom(Atom::Symbol(s)) => format!("the symbol `{s}`"),
        }
    }
}

/// Formats a float so that it reads back as the same bits and as a float
/// (always with a `.` or an exponent): `1.0`, `-0.0`, `1e-9`, `0.346`.
pub fn format_float(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    format!("{x:?}")
}

impl fmt::Display for Sexp {
    /// One-line rendering; the canonical multi-line layout is in `pretty`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            SexpKind::Atom(a) => write!(f, "{a}"),
            SexpKind::List(items) => {
                write!(f, "(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        write!(f, " ")?;
                    }
                    write!(f, "{item}")?;
                }
                write!(f, ")")
            }
        }
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Atom::Int(i) => write!(f, "{i}"),
            Atom::Float(x) => write!(f, "{}", format_float(*x)),
            Atom::Symbol(s) => write!(f, "{s}"),
            Atom::Str(s) => {
                write!(f, "\"")?;
                for c in s.chars() {
                    match c {
                        '"' => write!(f, "\\\"")?,
                        '\\' => write!(f, "\\\\")?,
                        '\n' => write!(f, "\\n")?,
                        '\t' => write!(f, "\\t")?,
                        c => write!(f, "{c}")?,
                    }
                }
                write!(f, "\"")
            }
        }
    }
}
