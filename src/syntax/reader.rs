//! The reader: text to S-expressions, with diagnostics for bad tokens and
//! unbalanced parentheses.
//!
//! Parenthesis balance is checked on the token stream before parsing so that
//! an unclosed list is reported at its opening paren (where the user must look),
//! not at the end of the file where the parser notices it.

use lalrpop_util::ParseError;

use super::lexer::{MAX_READ_ERRORS, Token, tokenize};
use super::sexp::Sexp;
use crate::diagnostic::{Diagnostic, FileId, Span};
use crate::limits::Limit;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused)]
    grammar,
    "/sexpr.rs"
);

/// The deepest nesting of lists the reader accepts is the `nesting` limit
/// (256 unless raised). Every later phase walks trees recursively; this bound
/// keeps hostile input from exhausting the stack.
fn max_nesting() -> usize {
    usize::try_from(Limit::Nesting.get()).unwrap_or(usize::MAX)
}

/// Reads all top-level S-expressions of `src`. On any error the returned list
/// holds what could be read; callers should not lower a file with read errors.
pub fn read(file: FileId, src: &str) -> (Vec<Sexp>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut tokens = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let max_nesting = max_nesting();
    for (start, tok, end) in tokenize(src) {
        if diags.len() >= MAX_READ_ERRORS {
            diags.push(
                Diagnostic::error(
                    "stratagem::read::stopped",
                    format!("reading stopped after {} problems", diags.len()),
                )
                .at(file, Span::new(start, start), "the rest of the file is not read")
                .with_help("is this a program? Fix the problems above and read it again"),
            );
            return (Vec::new(), diags);
        }
        match tok {
            Token::Error(msg) => diags.push(
                Diagnostic::error("stratagem::read::token", msg.clone())
                    .at(file, Span::new(start, end), "here")
                    .with_help(
                        "atoms are numbers (`-1`, `0.5`, `2e-3`), strings (`\"...\"`) and symbols (`x0`, `<=`, `?x`)",
                    ),
            ),
            Token::LParen => {
                open.push(start);
                tokens.push((start, tok, end));
                if open.len() > max_nesting {
                    diags.push(
                        Diagnostic::error(
                            "stratagem::read::too-deep",
                            format!("lists nested more than {max_nesting} deep"),
                        )
                        .at(file, Span::new(start, end), "too deep")
                        .with_help(format!(
                            "is a `)` missing earlier? If the depth is meant, {}",
                            Limit::Nesting.how_to_raise()
                        )),
                    );
                    return (Vec::new(), diags);
                }
            }
            Token::RParen => {
                if open.pop().is_some() {
                    tokens.push((start, tok, end));
                } else {
                    diags.push(
                        Diagnostic::error("stratagem::read::unbalanced", "unexpected `)`")
                            .at(file, Span::new(start, end), "this `)` closes nothing")
                            .with_help("remove it, or add the `(` it was meant to close"),
                    );
                }
            }
            _ => tokens.push((start, tok, end)),
        }
    }
    // An unterminated string swallows the rest of the file; the lists it
    // leaves open are its consequence, not another mistake.
    let string_ran_off = diags.iter().any(|d| d.message == "unterminated string");
    if let (Some(&outer), Some(&inner), false) = (open.first(), open.last(), string_ran_off) {
        let mut d = Diagnostic::error("stratagem::read::unclosed", "unclosed list").at(
            file,
            Span::new(outer, outer + 1),
            "this list is never closed",
        );
        if inner != outer {
            d = d.also(Span::new(inner, inner + 1), "the innermost unclosed list starts here");
        }
        diags.push(d.with_help(format!("add {} `)` where the list should end", open.len())));
    }
    for _ in 0..open.len() {
        tokens.push((src.len(), Token::RParen, src.len()));
    }
    match grammar::FileParser::new().parse(tokens) {
        Ok(forms) => (forms, diags),
        Err(e) => {
            let (span, msg) = match e {
                ParseError::UnrecognizedToken { token: (s, t, e), .. }
                | ParseError::ExtraToken { token: (s, t, e) } => (Span::new(s, e), format!("unexpected {t:?}")),
                ParseError::InvalidToken { location } => (Span::new(location, location), "invalid token".into()),
                ParseError::UnrecognizedEof { location, .. } => {
                    (Span::new(location, location), "unexpected end of file".into())
                }
                ParseError::User { error } => (Span::default(), error),
            };
            if diags.is_empty() {
                diags.push(Diagnostic::error("stratagem::read::syntax", msg).at(file, span, "here"));
            }
            (Vec::new(), diags)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::sexp::{Atom, SexpKind};

    #[test]
    fn reads_nested_lists_with_spans() {
        let (forms, diags) = read(FileId(0), "(a (b 1) 2.5) x");
        assert!(diags.is_empty());
        assert_eq!(forms.len(), 2);
        assert_eq!(forms[0].span, Span::new(0, 13));
        let items = forms[0].as_list().unwrap();
        assert_eq!(items[1].span, Span::new(3, 8));
        assert!(matches!(items[2].kind, SexpKind::Atom(Atom::Float(x)) if x == 2.5));
    }

    #[test]
    fn unclosed_list_points_at_outer_opener() {
        let (_, diags) = read(FileId(0), "(ok)\n(a (b c)\n");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].labels[0].0, Span::new(5, 6));
    }

    #[test]
    fn stray_close_paren() {
        let (forms, diags) = read(FileId(0), "(a)) (b)");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].labels[0].0, Span::new(3, 4));
        assert_eq!(forms.len(), 2);
    }
}
