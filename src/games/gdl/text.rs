//! The text formats of a GDL game: a state is its fluent list in canonical
//! text, `((cell 1 1 b) (control xplayer))` (lowercase, single spaces,
//! fluents in the byte order of their text); a move is a ground term in
//! canonical text, `(mark 1 1)` or `noop`. Reading accepts any case and
//! spacing, as GDL does, and points errors at the text they are about.

use crate::diagnostic::FileId;
use crate::games::ParseError;
use crate::gdl::State;
use crate::gdl::term::{Symbols, Term, sort_canonically};
use crate::syntax::{Atom, Sexp, SexpKind};

/// The canonical text of a state: its fluents, sorted by text, in one list.
pub fn format_state(state: &State, symbols: &Symbols) -> String {
    format!("({})", sorted_fluents(state, symbols).join(" "))
}

/// The fluents of a state in canonical text and order, one per line (the
/// REPL's `:board`).
pub fn render_state(state: &State, symbols: &Symbols) -> String {
    sorted_fluents(state, symbols).iter().map(|f| format!("{f}\n")).collect()
}

fn sorted_fluents(state: &State, symbols: &Symbols) -> Vec<String> {
    let mut fluents = state.fluents().to_vec();
    sort_canonically(&mut fluents, symbols)
}

/// Reads S-expressions from `text` (typed on a command line or in the REPL):
/// the forms, or the reader's first error.
pub fn read_forms(text: &str) -> Result<Vec<Sexp>, ParseError> {
    let (forms, diags) = crate::syntax::read(FileId(0), text);
    match diags.iter().find(|d| d.is_error()) {
        Some(d) => {
            let span = d.labels.first().map_or(0..text.len(), |(s, _)| s.start..s.end);
            let mut e = ParseError::new(d.message.clone(), span);
            if let Some(help) = &d.help {
                e = e.with_help(help.clone());
            }
            Err(e)
        }
        None => Ok(forms),
    }
}

/// Reads a state: one list of ground terms, the fluents.
pub fn parse_state(text: &str, symbols: &Symbols) -> Result<State, ParseError> {
    let forms = read_forms(text)?;
    let fluents = match forms.as_slice() {
        [Sexp { kind: SexpKind::List(items), .. }] => items,
        [] => {
            return Err(ParseError::new("no state", 0..text.len())
                .with_help("a state is its list of fluents, e.g. ((cell 1 1 b) (control xplayer))"));
        }
        [one] => {
            return Err(ParseError::new("a state is a list of fluents", one.span.start..one.span.end)
                .with_help("write the fluents inside one pair of parentheses: ((cell 1 1 b) (control xplayer))"));
        }
        [_, second, ..] => {
            return Err(ParseError::new("more than one state", second.span.start..text.len())
                .with_help("write the fluents inside one pair of parentheses: ((cell 1 1 b) (control xplayer))"));
        }
    };
    let terms = fluents.iter().map(|f| parse_term(f, symbols)).collect::<Result<Vec<_>, _>>()?;
    Ok(state_of(terms))
}

/// The state whose fluents are `terms`, in the order states keep them.
pub fn state_of(terms: Vec<Term>) -> State {
    State::from_terms(terms)
}

/// Reads the ground terms of `text` with the span of each (a move, or one
/// move per role).
pub fn parse_terms(text: &str, symbols: &Symbols) -> Result<Vec<(Term, std::ops::Range<usize>)>, ParseError> {
    read_forms(text)?.iter().map(|f| Ok((parse_term(f, symbols)?, f.span.start..f.span.end))).collect()
}

/// A ground term over the game's symbols. A name the rules never mention
/// cannot be part of any state or move, so it is an error here.
pub fn parse_term(sexp: &Sexp, symbols: &Symbols) -> Result<Term, ParseError> {
    let span = sexp.span.start..sexp.span.end;
    match &sexp.kind {
        SexpKind::Atom(atom) => Ok(Term::Const(constant(atom, span, symbols)?)),
        SexpKind::List(items) => {
            let Some((head, args)) = items.split_first() else {
                return Err(ParseError::new("an empty list is not a GDL term", span));
            };
            let SexpKind::Atom(atom) = &head.kind else {
                return Err(ParseError::new(
                    "a function name must be a name, not a list",
                    head.span.start..head.span.end,
                ));
            };
            let functor = constant(atom, head.span.start..head.span.end, symbols)?;
            let args = args.iter().map(|a| parse_term(a, symbols)).collect::<Result<Vec<_>, _>>()?;
            Ok(Term::compound(functor, args.into()))
        }
    }
}

fn constant(atom: &Atom, span: std::ops::Range<usize>, symbols: &Symbols) -> Result<u32, ParseError> {
    let text = match atom {
        Atom::Symbol(s) => s.clone(),
        Atom::Int(i) => i.to_string(),
        Atom::Float(_) | Atom::Str(_) => {
            return Err(ParseError::new("not a GDL name", span).with_help("GDL names are symbols or integers"));
        }
    };
    if text.starts_with('?') {
        return Err(ParseError::new(format!("`{text}` is a variable; states and moves are ground terms"), span));
    }
    symbols.get(&text).ok_or_else(|| ParseError::new(format!("`{text}` appears nowhere in the game's rules"), span))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn symbols() -> Symbols {
        let mut s = Symbols::default();
        for name in ["cell", "1", "2", "b", "x", "control", "xplayer", "mark", "noop"] {
            s.intern(name);
        }
        s
    }

    #[test]
    fn states_read_in_any_case_and_print_canonically() {
        let s = symbols();
        let state = parse_state("( (CONTROL xplayer)  (cell 2 1 b) (cell 1 1 x) )", &s).expect("a state");
        assert_eq!(format_state(&state, &s), "((cell 1 1 x) (cell 2 1 b) (control xplayer))");
        assert_eq!(render_state(&state, &s), "(cell 1 1 x)\n(cell 2 1 b)\n(control xplayer)\n");
        assert_eq!(format_state(&parse_state("()", &s).expect("empty"), &s), "()");
    }

    #[test]
    fn errors_point_at_the_text() {
        let s = symbols();
        let e = parse_state("((cell 1 1 q))", &s).expect_err("unknown name");
        assert_eq!((e.message.as_str(), e.span), ("`q` appears nowhere in the game's rules", 11..12));
        let e = parse_state("noop", &s).expect_err("not a list of fluents");
        assert_eq!((e.message.as_str(), e.span), ("a state is a list of fluents", 0..4));
        assert_eq!(parse_state("(cell 1 1 b) (x)", &s).expect_err("two").message, "more than one state");
        assert_eq!(parse_state("((cell 1 1 b)", &s).expect_err("unclosed").span.start, 0);
        let e = parse_terms("(mark ?x 1)", &s).expect_err("a variable");
        assert_eq!(e.span, 6..8);
        let e = parse_terms("(mark 1.5 1)", &s).expect_err("a float");
        assert_eq!(e.message, "not a GDL name");
        let moves = parse_terms("(MARK 1 2) noop", &s).expect("two moves");
        assert_eq!(
            moves.iter().map(|(t, r)| (t.text(&s), r.clone())).collect::<Vec<_>>(),
            [("(mark 1 2)".to_owned(), 0..10), ("noop".to_owned(), 11..15)]
        );
    }
}
