//! Ground terms of a GDL game and their canonical text.
//!
//! Every constant of a game appears in its rules (GDL has no arithmetic), so
//! symbols are numbered once, when the description is read, and never change.
//! Ground terms are values: a constant is a number, a compound an `Arc` whose
//! hash is computed once, so facts, states and moves are cheap to copy,
//! compare and hash, and a game can be shared between threads without locks.

use std::cmp::Ordering;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rustc_hash::FxHashMap;

/// A constant or function name, numbered in order of first appearance.
pub type Sym = u32;

/// How a game's names are compared. GDL names are case-insensitive, but
/// GGP-Base (and so the game servers built on it) compares them case and
/// all: in a game that spells one name two ways (`nextRank`, `nextrank`) the
/// two readings are different games, and a player must read the rules as its
/// server does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Case {
    /// Names that differ only in case are one name (the GDL specification).
    #[default]
    Insensitive,
    /// Names that differ in case are different names, except the keywords
    /// [`Symbols::with_keywords`] was given (as GGP-Base reads games).
    Sensitive,
}

/// The names of a game's symbols, lowercased, and each as first spelled in
/// the rules: a GGP game server compares the moves it gets with its own
/// spelling (`(do thrustThrust)`), case and all. The lowercase names are the
/// canonical text (states, the order of moves, the features evaluators
/// read) under either [`Case`], so a game spelt one way reads the same
/// both ways; under [`Case::Sensitive`] two symbols may share one.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    case: Case,
    names: Vec<String>,
    spellings: Vec<String>,
    ids: FxHashMap<String, Sym>,
    /// Under [`Case::Sensitive`], each lowercased name and its symbol when
    /// only one symbol lowercases to it: what [`Symbols::get`] falls back to.
    folded: FxHashMap<String, Option<Sym>>,
    /// The first `keywords` symbols are read in any case in either mode.
    keywords: usize,
}

impl Symbols {
    /// Symbols compared by `case` whose first symbols are `keywords`
    /// (lowercase), read in any case whatever `case` says.
    pub fn with_keywords(case: Case, keywords: &[&str]) -> Symbols {
        let mut symbols = Symbols { case, ..Symbols::default() };
        for keyword in keywords {
            symbols.intern(keyword);
        }
        symbols.keywords = keywords.len();
        symbols
    }

    /// How names are compared.
    pub fn case(&self) -> Case {
        self.case
    }

    /// The key `name` is known by.
    fn key(&self, name: &str) -> String {
        let lower = name.to_lowercase();
        let keyword = || self.ids.get(&lower).is_some_and(|&id| (id as usize) < self.keywords);
        if self.case == Case::Insensitive || keyword() { lower } else { name.to_owned() }
    }

    /// The symbol named `name`, added if new.
    pub fn intern(&mut self, name: &str) -> Sym {
        let key = self.key(name);
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let id = self.names.len() as Sym;
        if self.case == Case::Sensitive {
            let folded = self.folded.entry(key.to_lowercase()).or_insert(Some(id));
            if *folded != Some(id) {
                *folded = None;
            }
        }
        self.names.push(name.to_lowercase());
        self.spellings.push(name.to_owned());
        self.ids.insert(key, id);
        id
    }

    /// The symbol named `name`, if the game has one. Under [`Case::Sensitive`]
    /// a name the rules do not spell so is still read in another case when
    /// only one of the game's names matches it so.
    pub fn get(&self, name: &str) -> Option<Sym> {
        match self.ids.get(&self.key(name)) {
            Some(&id) => Some(id),
            None if self.case == Case::Sensitive => self.folded.get(&name.to_lowercase()).copied().flatten(),
            None => None,
        }
    }

    /// The canonical (lowercase) name of `sym`.
    pub fn name(&self, sym: Sym) -> &str {
        &self.names[sym as usize]
    }

    /// `sym` as the rules first spell it.
    pub fn spelling(&self, sym: Sym) -> &str {
        &self.spellings[sym as usize]
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// A ground term: a constant, or a function applied to ground terms.
#[derive(Clone, PartialEq, Eq)]
pub enum Term {
    Const(Sym),
    Fn(Arc<Compound>),
}

/// A function term: its name, its arguments, and its hash, computed once.
#[derive(PartialEq, Eq)]
pub struct Compound {
    hash: u64,
    pub functor: Sym,
    pub args: Box<[Term]>,
}

impl Term {
    pub fn compound(functor: Sym, args: Box<[Term]>) -> Term {
        let mut h = mix(u64::from(functor) ^ 0x5851_F42D_4C95_7F2D, args.len() as u64);
        for a in args.iter() {
            h = mix(h, a.hash64());
        }
        Term::Fn(Arc::new(Compound { hash: h, functor, args }))
    }

    /// A hash of the term's structure, stable within one process.
    #[inline]
    pub fn hash64(&self) -> u64 {
        match self {
            Term::Const(s) => mix(u64::from(*s), 0x9E37_79B9_7F4A_7C15),
            Term::Fn(c) => c.hash,
        }
    }

    /// The name of a constant, or of a compound's function.
    pub fn head(&self) -> Sym {
        match self {
            Term::Const(s) => *s,
            Term::Fn(c) => c.functor,
        }
    }

    pub fn args(&self) -> &[Term] {
        match self {
            Term::Const(_) => &[],
            Term::Fn(c) => &c.args,
        }
    }

    /// Appends the canonical text: lowercase names, `(f a b)` with single spaces.
    pub fn write_text(&self, symbols: &Symbols, out: &mut String) {
        self.write_with(&|sym| symbols.name(sym), out);
    }

    /// Appends the text with each name written by `name`.
    fn write_with<'s>(&self, name: &impl Fn(Sym) -> &'s str, out: &mut String) {
        match self {
            Term::Const(s) => out.push_str(name(*s)),
            Term::Fn(c) => {
                out.push('(');
                out.push_str(name(c.functor));
                for a in c.args.iter() {
                    out.push(' ');
                    a.write_with(name, out);
                }
                out.push(')');
            }
        }
    }

    pub fn text(&self, symbols: &Symbols) -> String {
        let mut s = String::new();
        self.write_text(symbols, &mut s);
        s
    }

    /// The text with names spelled as in the rules ([`Symbols::spelling`]).
    pub fn spelled(&self, symbols: &Symbols) -> String {
        let mut s = String::new();
        self.write_with(&|sym| symbols.spelling(sym), &mut s);
        s
    }
}

impl Hash for Term {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash64());
    }
}

/// An order on terms that is fixed for a game (by symbol number, then
/// arguments); states keep their fluents in it so that equal states are
/// equal vectors. Canonical *text* order is [`sort_canonically`].
impl Ord for Term {
    fn cmp(&self, other: &Term) -> Ordering {
        match (self, other) {
            (Term::Const(a), Term::Const(b)) => a.cmp(b),
            (Term::Const(_), Term::Fn(_)) => Ordering::Less,
            (Term::Fn(_), Term::Const(_)) => Ordering::Greater,
            (Term::Fn(a), Term::Fn(b)) => {
                if Arc::ptr_eq(a, b) {
                    return Ordering::Equal;
                }
                a.functor.cmp(&b.functor).then_with(|| a.args.cmp(&b.args))
            }
        }
    }
}

impl PartialOrd for Term {
    fn partial_cmp(&self, other: &Term) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Debug for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Term::Const(s) => write!(f, "#{s}"),
            Term::Fn(c) => {
                write!(f, "(#{}", c.functor)?;
                for a in c.args.iter() {
                    write!(f, " {a:?}")?;
                }
                f.write_char(')')
            }
        }
    }
}

/// Sorts terms by the UTF-8 byte order of their canonical text, the order
/// GGP-Base's reference data and every listing use; returns the texts.
pub fn sort_canonically(terms: &mut Vec<Term>, symbols: &Symbols) -> Vec<String> {
    let mut pairs: Vec<(String, Term)> = terms.drain(..).map(|t| (t.text(symbols), t)).collect();
    pairs.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut texts = Vec::with_capacity(pairs.len());
    for (text, term) in pairs {
        texts.push(text);
        terms.push(term);
    }
    texts
}

/// A fast 64-bit mix (from splitmix64's finaliser) for structural hashes.
#[inline]
pub fn mix(h: u64, x: u64) -> u64 {
    let mut z = (h ^ x.rotate_left(25)).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Hashes a tuple of terms (a fact's arguments).
#[inline]
pub fn hash_tuple(args: &[Term]) -> u64 {
    let mut h = args.len() as u64;
    for a in args {
        h = mix(h, a.hash64());
    }
    h
}

/// A path into a fact: argument index, then argument indices inside nested
/// function terms.
pub type Path = Vec<u8>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_lowercase_and_sorted_by_bytes() {
        let mut symbols = Symbols::default();
        let cell = symbols.intern("CELL");
        let one = symbols.intern("1");
        let b = symbols.intern("b");
        let ten = symbols.intern("10");
        let t1 = Term::compound(cell, vec![Term::Const(one), Term::Const(b)].into());
        let t10 = Term::compound(cell, vec![Term::Const(ten), Term::Const(b)].into());
        assert_eq!(t1.text(&symbols), "(cell 1 b)");
        let mut terms = vec![Term::Const(b), t10.clone(), t1.clone()];
        let texts = sort_canonically(&mut terms, &symbols);
        assert_eq!(texts, ["(cell 1 b)", "(cell 10 b)", "b"]);
        assert_eq!(symbols.get("Cell"), Some(cell));
        // As the rules first spelled it: `CELL`, whatever came after.
        symbols.intern("cell");
        assert_eq!(t1.spelled(&symbols), "(CELL 1 b)");
    }

    #[test]
    fn case_sensitive_names_differ_in_case_but_keywords_do_not() {
        let mut symbols = Symbols::with_keywords(Case::Sensitive, &["true"]);
        let (camel, lower) = (symbols.intern("nextRank"), symbols.intern("nextrank"));
        assert_ne!(camel, lower);
        assert_eq!(symbols.intern("TRUE"), 0, "keywords are read in any case");
        assert_eq!((symbols.name(camel), symbols.spelling(camel)), ("nextrank", "nextRank"));
        assert_eq!(symbols.get("nextRank"), Some(camel));
        assert_eq!(symbols.get("NEXTRANK"), None, "two names fold to it");
        let timeout = symbols.intern("timeOut");
        assert_eq!(symbols.get("TIMEOUT"), Some(timeout), "one name folds to it");
        assert_eq!(symbols.get("step"), None);
    }

    #[test]
    fn equal_terms_hash_alike() {
        let mut symbols = Symbols::default();
        let f = symbols.intern("f");
        let a = Term::compound(f, vec![Term::Const(1)].into());
        let b = Term::compound(f, vec![Term::Const(1)].into());
        assert_eq!(a, b);
        assert_eq!(a.hash64(), b.hash64());
        assert_eq!(a.cmp(&b), Ordering::Equal);
    }
}
