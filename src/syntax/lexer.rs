//! Tokens of the S-expression language, produced by logos.
//!
//! The lexer knows atoms, parentheses and comments only; KIF files (GDL) lex with
//! the same rules, so `<=`, `?x` and `a-b` are ordinary symbols. Malformed atoms
//! (`12ab`, an integer that does not fit in 64 bits, an unterminated string) become
//! [`Token::Error`] tokens so that the parser can report them at their span.

use logos::Logos;

/// A lexical token. Whitespace and `;` comments are skipped here and collected
/// separately by [`comments`] for the formatter.
#[derive(Logos, Debug, Clone, PartialEq)]
#[logos(error = LexError)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip(r";[^\n]*", allow_greedy = true))]
pub enum Token {
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    /// A decimal integer with optional sign, e.g. `-12`.
    #[regex(r"[+-]?[0-9]+", parse_int, priority = 5)]
    Int(i64),
    /// A float: digits with a `.` and/or an exponent, e.g. `-1.5`, `.5`, `2e-3`.
    #[regex(r"[+-]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", parse_float, priority = 5)]
    #[regex(r"[+-]?[0-9]+[eE][+-]?[0-9]+", parse_float, priority = 5)]
    Float(f64),
    /// A double-quoted string with `\"` and `\\` escapes.
    #[regex(r#""([^"\\]|\\.)*""#, parse_string)]
    Str(String),
    /// Any other atom: names, operators (`<=`, `+`), GDL variables (`?x`).
    #[regex(r"[A-Za-z_+\-*/<>=!?.:%&^~$@|][A-Za-z0-9_+\-*/<>=!?.:%&^~$@|#']*", |lex| lex.slice().to_owned(), priority = 1)]
    Symbol(String),
    /// A malformed atom; the payload says what was wrong.
    Error(String),
}

/// The error logos reports for text that matches no token, or a token whose
/// value could not be read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LexError(pub String);

fn parse_int(lex: &mut logos::Lexer<Token>) -> Result<i64, LexError> {
    lex.slice().parse::<i64>().map_err(|_| LexError(format!("integer `{}` does not fit in 64 bits", lex.slice())))
}

fn parse_float(lex: &mut logos::Lexer<Token>) -> Result<f64, LexError> {
    match lex.slice().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err(LexError(format!("float `{}` is out of the range of f64", lex.slice()))),
        Err(_) => Err(LexError(format!("malformed number `{}`", lex.slice()))),
    }
}

fn parse_string(lex: &mut logos::Lexer<Token>) -> Result<String, LexError> {
    let raw = lex.slice();
    let inner = &raw[1..raw.len() - 1];
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            Some(other) => return Err(LexError(format!("unknown escape `\\{other}` in string"))),
            None => return Err(LexError("string ends in a lone backslash".into())),
        }
    }
    Ok(out)
}

/// A token with its byte range in the source.
pub type Spanned = (usize, Token, usize);

/// The reader reports at most this many problems per file, then stops.
pub const MAX_READ_ERRORS: usize = 1000;

/// Lexes `src` into tokens with byte ranges. Text that forms no token becomes a
/// [`Token::Error`] covering the whole malformed atom (up to the next delimiter),
/// so `12ab` is one error, not `12` followed by `ab`. Lexing stops after
/// [`MAX_READ_ERRORS`] errors.
pub fn tokenize(src: &str) -> Vec<Spanned> {
    let mut out = Vec::new();
    let mut lex = Token::lexer(src);
    let mut errors = 0;
    while let Some(result) = lex.next() {
        // Past this many bad tokens the reader stops anyway: do not lex on.
        if matches!(out.last(), Some((_, Token::Error(_), _))) {
            errors += 1;
            if errors > MAX_READ_ERRORS {
                break;
            }
        }
        let span = lex.span();
        match result {
            Ok(tok) => {
                // An atom must end at a delimiter; `12ab` or `1.5.3` is one bad atom.
                let end = atom_end(src, span.end);
                if end > span.end && !matches!(tok, Token::LParen | Token::RParen) {
                    let text = &src[span.start..end];
                    out.push((span.start, Token::Error(format!("malformed atom `{text}`")), end));
                    lex.bump(end - span.end);
                } else {
                    out.push((span.start, tok, span.end));
                }
            }
            Err(LexError(msg)) => {
                if !msg.is_empty() {
                    // A complete token whose value is bad (`\q` escape, huge integer).
                    out.push((span.start, Token::Error(msg), span.end));
                    continue;
                }
                if src[span.start..].starts_with('"') {
                    // An unterminated string runs to the end of the file.
                    out.push((span.start, Token::Error("unterminated string".into()), src.len()));
                    break;
                }
                let end = atom_end(src, span.end.max(span.start + 1)).min(src.len());
                let c = src[span.start..].chars().next().unwrap_or(' ');
                out.push((span.start, Token::Error(format!("unexpected character `{c}`")), end));
                if end > span.end {
                    lex.bump(end - span.end);
                }
            }
        }
    }
    out
}

/// The end of the atom that continues at `from`: the next whitespace, paren,
/// quote or comment start.
fn atom_end(src: &str, from: usize) -> usize {
    let mut end = from;
    for (i, c) in src[from..].char_indices() {
        if c.is_whitespace() || matches!(c, '(' | ')' | ';' | '"') {
            return from + i;
        }
        end = from + i + c.len_utf8();
    }
    end
}

/// A `;` comment with its byte range (the range excludes the newline).
#[derive(Debug, Clone, PartialEq)]
pub struct Comment {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// Collects the comments of `src`, skipping `;` inside strings.
pub fn comments(src: &str) -> Vec<Comment> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b';' => {
                let start = i;
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                let text = src[start..i].trim_end().to_owned();
                out.push(Comment { start, end: i, text });
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Token> {
        tokenize(src).into_iter().map(|(_, t, _)| t).collect()
    }

    #[test]
    fn atoms() {
        use Token::*;
        assert_eq!(
            kinds("(<= ?x -1 +2 -1.5 .5 2e-3 a-b x.y:z \"s\\\"q\") ; c"),
            vec![
                LParen,
                Symbol("<=".into()),
                Symbol("?x".into()),
                Int(-1),
                Int(2),
                Float(-1.5),
                Float(0.5),
                Float(2e-3),
                Symbol("a-b".into()),
                Symbol("x.y:z".into()),
                Str("s\"q".into()),
                RParen
            ]
        );
        assert_eq!(kinds("- + -x"), vec![Symbol("-".into()), Symbol("+".into()), Symbol("-x".into())]);
    }

    #[test]
    fn bad_atoms_are_single_errors() {
        let toks = tokenize("(f 12ab 99999999999999999999 \"open");
        let errs: Vec<_> = toks
            .iter()
            .filter_map(|(s, t, e)| match t {
                Token::Error(m) => Some((*s, m.clone(), *e)),
                _ => None,
            })
            .collect();
        assert_eq!(errs.len(), 3, "{errs:?}");
        assert_eq!((errs[0].0, errs[0].2), (3, 7));
        assert!(errs[1].1.contains("64 bits"));
        assert!(errs[2].1.contains("unterminated"));
    }

    #[test]
    fn comments_skip_strings() {
        let cs = comments("(a \"; not\") ; yes\n; two");
        assert_eq!(cs.len(), 2);
        assert_eq!(cs[0].text, "; yes");
    }
}
