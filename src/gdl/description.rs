//! A game description: the rules of a `.kif` file, read from S-expressions.
//!
//! The reader is the language's own (src/syntax): a `.kif` file is a list of
//! S-expressions. Here each top-level form becomes a [`Rule`] (a fact is a rule
//! with an empty body): sentences with their relation name and arguments,
//! `?variables` numbered per rule, `not`, `distinct` and `or` recognised, every
//! name lowercased. What the file's forms mean is checked later
//! (`validate.rs`); this phase only rejects what cannot be a rule at all.

use rustc_hash::FxHashMap;

use super::term::{Case, Sym, Symbols};
use crate::diagnostic::{Diagnostic, FileId};
use crate::syntax::{Atom, Sexp, SexpKind, Span};

/// A variable of a rule, numbered from 0 in order of first appearance.
pub type Var = u32;

/// A term as rules write it: with variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    Var(Var),
    Const(Sym),
    Fn(Sym, Vec<Pattern>),
}

impl Pattern {
    /// Calls `f` on every variable, in order, repeats included.
    pub fn for_each_var(&self, f: &mut impl FnMut(Var)) {
        match self {
            Pattern::Var(v) => f(*v),
            Pattern::Const(_) => {}
            Pattern::Fn(_, args) => args.iter().for_each(|a| a.for_each_var(f)),
        }
    }

    /// Calls `f` on every function term (name and arity), nested ones too.
    pub fn for_each_function(&self, f: &mut impl FnMut(Sym, usize)) {
        if let Pattern::Fn(name, args) = self {
            f(*name, args.len());
            args.iter().for_each(|a| a.for_each_function(f));
        }
    }
}

/// A relation applied to arguments: `(cell 1 1 b)`, `terminal`.
#[derive(Clone, Debug)]
pub struct Sentence {
    pub relation: Sym,
    pub args: Vec<Pattern>,
    pub span: Span,
}

impl Sentence {
    pub fn for_each_var(&self, f: &mut impl FnMut(Var)) {
        self.args.iter().for_each(|a| a.for_each_var(f));
    }
}

/// A literal of a rule body.
#[derive(Clone, Debug)]
pub enum Literal {
    Pos(Sentence),
    /// `(not X)`; GDL negates sentences, and GGP-Base's prover also accepts
    /// `(not (distinct a b))` and `(not (or ...))`, so any literal may appear.
    Not(Box<Literal>, Span),
    Distinct(Pattern, Pattern, Span),
    Or(Vec<Literal>, Span),
}

impl Literal {
    pub fn span(&self) -> Span {
        match self {
            Literal::Pos(s) => s.span,
            Literal::Not(_, span) | Literal::Distinct(_, _, span) | Literal::Or(_, span) => *span,
        }
    }

    pub fn for_each_var(&self, f: &mut impl FnMut(Var)) {
        match self {
            Literal::Pos(s) => s.for_each_var(f),
            Literal::Not(l, _) => l.for_each_var(f),
            Literal::Distinct(a, b, _) => {
                a.for_each_var(f);
                b.for_each_var(f);
            }
            Literal::Or(ls, _) => ls.iter().for_each(|l| l.for_each_var(f)),
        }
    }
}

/// `(<= head body...)`, or a fact (empty body).
#[derive(Clone, Debug)]
pub struct Rule {
    pub head: Sentence,
    pub body: Vec<Literal>,
    /// Variable names (with `?`; lowercase unless read case-sensitively),
    /// indexed by [`Var`].
    pub vars: Vec<String>,
    pub span: Span,
}

/// The relation names GDL reserves, numbered first in every game so that
/// their symbols are the constants below.
pub const RESERVED: [&str; 12] =
    ["role", "init", "true", "next", "legal", "does", "goal", "terminal", "distinct", "not", "or", "<="];
pub const ROLE: Sym = 0;
pub const INIT: Sym = 1;
pub const TRUE: Sym = 2;
pub const NEXT: Sym = 3;
pub const LEGAL: Sym = 4;
pub const DOES: Sym = 5;
pub const GOAL: Sym = 6;
pub const TERMINAL: Sym = 7;
pub const DISTINCT: Sym = 8;
pub const NOT: Sym = 9;
pub const OR: Sym = 10;
pub const IMPLIES: Sym = 11;

/// A whole game description.
#[derive(Clone, Debug)]
pub struct Description {
    pub file: FileId,
    pub symbols: Symbols,
    pub rules: Vec<Rule>,
    /// Every spelling of each symbol with the span of its first use, for the
    /// check that a constant is always capitalised the same way.
    pub spellings: FxHashMap<Sym, Vec<(String, Span)>>,
}

impl Description {
    /// Reads the top-level forms of a `.kif` file. Forms that cannot be
    /// rules are reported and skipped.
    pub fn read(file: FileId, forms: &[Sexp]) -> (Description, Vec<Diagnostic>) {
        Description::read_as(file, forms, Case::Insensitive)
    }

    /// [`Description::read`] with names compared by `case` (variables too).
    pub fn read_as(file: FileId, forms: &[Sexp], case: Case) -> (Description, Vec<Diagnostic>) {
        let symbols = Symbols::with_keywords(case, &RESERVED);
        let mut reader = Reader { file, symbols, spellings: FxHashMap::default(), diags: Vec::new(), vars: Vec::new() };
        let mut rules = Vec::new();
        for form in forms {
            if let Some(rule) = reader.rule(form) {
                rules.push(rule);
            }
        }
        let Reader { symbols, spellings, diags, .. } = reader;
        (Description { file, symbols, rules, spellings }, diags)
    }

    /// The roles in the order of their `(role ...)` facts.
    pub fn roles(&self) -> Vec<Sym> {
        let mut roles = Vec::new();
        for rule in &self.rules {
            if rule.head.relation == ROLE
                && rule.body.is_empty()
                && let [Pattern::Const(r)] = rule.head.args[..]
                && !roles.contains(&r)
            {
                roles.push(r);
            }
        }
        roles
    }
}

struct Reader {
    file: FileId,
    symbols: Symbols,
    spellings: FxHashMap<Sym, Vec<(String, Span)>>,
    diags: Vec<Diagnostic>,
    /// The variables of the rule being read.
    vars: Vec<String>,
}

impl Reader {
    fn error(&mut self, span: Span, message: impl Into<String>, label: &str, help: Option<&str>) {
        let mut d = Diagnostic::error("stratagem::gdl::read", message).at(self.file, span, label);
        if let Some(help) = help {
            d = d.with_help(help);
        }
        self.diags.push(d);
    }

    fn rule(&mut self, form: &Sexp) -> Option<Rule> {
        self.vars.clear();
        if let SexpKind::List(items) = &form.kind
            && let Some(first) = items.first()
            && self.symbol_text(first).is_some_and(|s| s == "<=")
        {
            let Some(head) = items.get(1) else {
                self.error(form.span, "a rule `(<= head body...)` without a head", "here", None);
                return None;
            };
            let head = self.sentence(head)?;
            let mut body = Vec::new();
            for lit in &items[2..] {
                body.push(self.literal(lit)?);
            }
            return Some(Rule { head, body, vars: std::mem::take(&mut self.vars), span: form.span });
        }
        let head = self.sentence(form)?;
        Some(Rule { head, body: Vec::new(), vars: std::mem::take(&mut self.vars), span: form.span })
    }

    /// The text of a symbol or integer atom, as written.
    fn symbol_text(&self, sexp: &Sexp) -> Option<String> {
        match &sexp.kind {
            SexpKind::Atom(Atom::Symbol(s)) => Some(s.clone()),
            SexpKind::Atom(Atom::Int(i)) => Some(i.to_string()),
            _ => None,
        }
    }

    fn constant(&mut self, text: &str, span: Span) -> Sym {
        let sym = self.symbols.intern(text);
        let spellings = self.spellings.entry(sym).or_default();
        if !spellings.iter().any(|(s, _)| s == text) {
            spellings.push((text.to_owned(), span));
        }
        sym
    }

    fn sentence(&mut self, sexp: &Sexp) -> Option<Sentence> {
        match &sexp.kind {
            SexpKind::List(items) => {
                let Some(first) = items.first() else {
                    self.error(sexp.span, "an empty list is not a sentence", "here", None);
                    return None;
                };
                let mut name = self.name(first, "a relation name")?;
                if items.len() == 1 {
                    // `(p)` is not `p`: GGP-Base reads a list with no
                    // arguments as a relation of its own (test_case_3a).
                    let text = format!("({})", self.symbols.spelling(name));
                    name = self.symbols.intern(&text);
                }
                let args = items[1..].iter().map(|a| self.pattern(a)).collect::<Option<Vec<_>>>()?;
                Some(Sentence { relation: name, args, span: sexp.span })
            }
            SexpKind::Atom(_) => {
                let relation = self.name(sexp, "a sentence")?;
                Some(Sentence { relation, args: Vec::new(), span: sexp.span })
            }
        }
    }

    /// A constant name (not a variable) in a position that needs one.
    fn name(&mut self, sexp: &Sexp, what: &str) -> Option<Sym> {
        let Some(text) = self.symbol_text(sexp) else {
            self.error(
                sexp.span,
                format!("expected {what}"),
                "not a GDL name",
                Some("GDL names are symbols or integers"),
            );
            return None;
        };
        if text.starts_with('?') {
            self.error(sexp.span, format!("expected {what}, found the variable `{text}`"), "a variable", None);
            return None;
        }
        Some(self.constant(&text, sexp.span))
    }

    fn pattern(&mut self, sexp: &Sexp) -> Option<Pattern> {
        match &sexp.kind {
            SexpKind::List(items) => {
                let Some(first) = items.first() else {
                    self.error(sexp.span, "an empty list is not a term", "here", None);
                    return None;
                };
                let name = self.name(first, "a function name")?;
                let args = items[1..].iter().map(|a| self.pattern(a)).collect::<Option<Vec<_>>>()?;
                Some(Pattern::Fn(name, args))
            }
            SexpKind::Atom(_) => {
                let Some(text) = self.symbol_text(sexp) else {
                    self.error(sexp.span, "expected a GDL term", "not a symbol, integer or variable", None);
                    return None;
                };
                if text.starts_with('?') {
                    let name = match self.symbols.case() {
                        Case::Insensitive => text.to_lowercase(),
                        Case::Sensitive => text.clone(),
                    };
                    let index = match self.vars.iter().position(|v| *v == name) {
                        Some(i) => i,
                        None => {
                            self.vars.push(name);
                            self.vars.len() - 1
                        }
                    };
                    Some(Pattern::Var(index as Var))
                } else {
                    Some(Pattern::Const(self.constant(&text, sexp.span)))
                }
            }
        }
    }

    fn literal(&mut self, sexp: &Sexp) -> Option<Literal> {
        if let SexpKind::List(items) = &sexp.kind
            && let Some(first) = items.first()
            && let Some(head) = self.symbol_text(first)
        {
            match head.to_lowercase().as_str() {
                "not" => {
                    let [_, inner] = &items[..] else {
                        self.error(sexp.span, "`not` takes exactly one literal", "here", None);
                        return None;
                    };
                    let inner = self.literal(inner)?;
                    return Some(Literal::Not(Box::new(inner), sexp.span));
                }
                "distinct" => {
                    let [_, a, b] = &items[..] else {
                        self.error(sexp.span, "`distinct` takes exactly two terms", "here", None);
                        return None;
                    };
                    let (a, b) = (self.pattern(a)?, self.pattern(b)?);
                    return Some(Literal::Distinct(a, b, sexp.span));
                }
                "or" => {
                    let ls = items[1..].iter().map(|l| self.literal(l)).collect::<Option<Vec<_>>>()?;
                    return Some(Literal::Or(ls, sexp.span));
                }
                _ => {}
            }
        }
        Some(Literal::Pos(self.sentence(sexp)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::read;

    fn describe(text: &str) -> (Description, Vec<Diagnostic>) {
        let (forms, diags) = read(FileId(0), text);
        assert!(diags.is_empty());
        Description::read(FileId(0), &forms)
    }

    #[test]
    fn rules_facts_and_variables() {
        let (d, diags) = describe(
            "(ROLE white) (init (cell 1 b)) ; a comment\n(<= (legal ?P (mark ?x)) (TRUE (cell ?x b)) (not (distinct ?p white)))",
        );
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(d.rules.len(), 3);
        assert_eq!(d.roles(), vec![d.symbols.get("white").unwrap()]);
        let rule = &d.rules[2];
        assert_eq!(rule.head.relation, LEGAL);
        assert_eq!(rule.vars, ["?p", "?x"]);
        assert!(matches!(&rule.body[0], Literal::Pos(s) if s.relation == TRUE));
        assert!(matches!(&rule.body[1], Literal::Not(inner, _) if matches!(**inner, Literal::Distinct(..))));
    }

    #[test]
    fn malformed_forms_are_reported() {
        for text in ["(<=)", "(?x a)", "(<= (p ?x) (not a b))", "(<= p (distinct a))", "(1.5)", "()"] {
            let (_, diags) = describe(text);
            assert!(!diags.is_empty(), "{text}");
        }
    }

    #[test]
    fn lists_without_arguments_keep_their_spelling_as_relations() {
        let text = "(role r) (<= (Open2) (true a)) (<= (open2) (true b))";
        let relations = |case| {
            let (forms, _) = read(FileId(0), text);
            let (d, diags) = Description::read_as(FileId(0), &forms, case);
            assert!(diags.is_empty(), "{diags:?}");
            (d.rules[1].head.relation, d.rules[2].head.relation)
        };
        let (camel, lower) = relations(Case::Sensitive);
        assert_ne!(camel, lower, "two relations, as GGP-Base reads them");
        let (camel, lower) = relations(Case::Insensitive);
        assert_eq!(camel, lower);
    }
}
