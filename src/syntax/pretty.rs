//! The canonical layout of S-expressions, used by `stratagem fmt` and for
//! printing champions.
//!
//! A list is printed on one line when it fits in [`WIDTH`] columns and holds no
//! comment; otherwise its head (and a first atom argument, as in
//! `(tree eval`) stays on the opening line and every other element goes on its
//! own line, indented two spaces. Comments are kept: a comment on its own line
//! stays on its own line before the next element, a comment after an element
//! stays at the end of that element's line. Single blank lines between
//! elements are kept, runs of blank lines become one. The layout is a fixed
//! point: formatting formatted text changes nothing.

use super::lexer::Comment;
use super::sexp::{Sexp, SexpKind};

/// The line width the layout aims for.
pub const WIDTH: usize = 80;

/// Prints synthesised forms (no comments, no source) in canonical layout,
/// one blank line between top-level forms.
pub fn print_forms(forms: &[Sexp]) -> String {
    if forms.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    for (i, form) in forms.iter().enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        out.push_str(&print_sexp(form));
    }
    out.push('\n');
    out
}

/// Prints one expression in canonical layout, starting at column 0.
pub fn print_sexp(sexp: &Sexp) -> String {
    let mut p = Printer { src: "", comments: &[], next_comment: 0, last_end: 0, out: String::new() };
    p.node(sexp, 0);
    p.out
}

/// Re-lays out a whole source file, keeping its comments and paragraph breaks.
pub fn format_source(src: &str, forms: &[Sexp], comments: &[Comment]) -> String {
    let mut p = Printer { src, comments, next_comment: 0, last_end: 0, out: String::new() };
    for form in forms {
        let at_start = p.out.is_empty();
        p.comments_before(form.span.start, 0, at_start);
        if !p.out.is_empty() {
            p.newline(0, form.span.start);
        }
        p.node(form, 0);
    }
    p.comments_before(src.len() + 1, 0, p.out.is_empty());
    if !p.out.is_empty() {
        p.out.push('\n');
    }
    p.out
}

struct Printer<'a> {
    src: &'a str,
    comments: &'a [Comment],
    next_comment: usize,
    /// End of the last source element printed, for same-line and blank-line tests.
    last_end: usize,
    out: String,
}

impl Printer<'_> {
    fn column(&self) -> usize {
        self.out.rsplit('\n').next().map_or(0, |l| l.chars().count())
    }

    /// Starts a new line at `indent`, first adding a blank line when the
    /// source had one between the last element and `next_start`.
    fn newline(&mut self, indent: usize, next_start: usize) {
        if self.blank_line_before(next_start) {
            self.out.push('\n');
        }
        self.out.push('\n');
        self.out.extend(std::iter::repeat_n(' ', indent));
    }

    fn blank_line_before(&self, start: usize) -> bool {
        if self.src.is_empty() || start <= self.last_end || start > self.src.len() {
            return false;
        }
        let gap = &self.src[self.last_end..start];
        let mut lines = gap.split('\n');
        lines.next();
        let mut middle: Vec<&str> = lines.collect();
        middle.pop();
        middle.iter().any(|l| l.trim().is_empty())
    }

    fn has_comment_within(&self, sexp: &Sexp) -> bool {
        self.comments[self.next_comment..].iter().any(|c| c.start > sexp.span.start && c.start < sexp.span.end)
    }

    /// Prints the comments that start before `pos`. A comment on the same source
    /// line as the last element stays at the end of the current line; others
    /// get lines of their own at `indent`. Returns whether any was printed.
    fn comments_before(&mut self, pos: usize, indent: usize, mut at_line_start: bool) -> bool {
        let mut any = false;
        while let Some(c) = self.comments.get(self.next_comment) {
            if c.start >= pos {
                break;
            }
            let same_line =
                !at_line_start && c.start >= self.last_end && !self.src[self.last_end..c.start].contains('\n');
            if same_line {
                self.out.push(' ');
            } else if !self.out.is_empty() {
                self.newline(indent, c.start);
            }
            self.out.push_str(&c.text);
            self.last_end = c.end;
            self.next_comment += 1;
            at_line_start = false;
            any = true;
        }
        any
    }

    fn node(&mut self, sexp: &Sexp, indent: usize) {
        match &sexp.kind {
            SexpKind::Atom(a) => self.out.push_str(&a.to_string()),
            SexpKind::List(items) => {
                let flat = sexp.to_string();
                if !self.has_comment_within(sexp) && self.column() + flat.chars().count() <= WIDTH {
                    self.out.push_str(&flat);
                } else {
                    self.broken_list(items, sexp.span.end, indent);
                }
            }
        }
        if sexp.span.end > self.last_end {
            self.last_end = sexp.span.end;
        }
    }

    fn broken_list(&mut self, items: &[Sexp], end: usize, indent: usize) {
        self.out.push('(');
        let inner = indent + 2;
        let Some((head, mut rest)) = items.split_first() else { return self.out.push(')') };
        self.node(head, indent + 1);
        let end_of_rest = rest.last().map_or(0, |i| i.span.end);
        if !rest.is_empty() && rest.iter().all(is_atom) && !self.comments_pending_before(end_of_rest.max(1)) {
            // A run of atoms (weights, GDL facts) fills lines instead of taking one line each.
            for item in rest {
                if self.column() + 1 + item.to_string().chars().count() > WIDTH {
                    self.newline(inner, item.span.start);
                } else {
                    self.out.push(' ');
                }
                self.node(item, inner);
            }
            rest = &[];
        } else if let Some((first, tail)) = rest.split_first()
            && is_atom(first)
            && !self.comments_pending_before(first.span.start)
        {
            // `(tree eval`, `(primset arith`: the name stays with its head.
            self.out.push(' ');
            self.node(first, inner);
            rest = tail;
        }
        for item in rest {
            self.comments_before(item.span.start, inner, false);
            self.newline(inner, item.span.start);
            self.node(item, inner);
        }
        let close = end.saturating_sub(1);
        if self.comments_before(close, inner, false) {
            self.newline(indent, close);
        }
        self.out.push(')');
    }

    fn comments_pending_before(&self, pos: usize) -> bool {
        self.comments.get(self.next_comment).is_some_and(|c| c.start < pos)
    }
}

fn is_atom(sexp: &Sexp) -> bool {
    matches!(sexp.kind, SexpKind::Atom(_))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::FileId;
    use crate::syntax::{lexer::comments, read};

    fn fmt(src: &str) -> String {
        let (forms, diags) = read(FileId(0), src);
        assert!(diags.is_empty());
        format_source(src, &forms, &comments(src))
    }

    #[test]
    fn short_forms_stay_on_one_line() {
        assert_eq!(fmt("(a   b\n (c d))"), "(a b (c d))\n");
    }

    #[test]
    fn long_forms_break_after_head_and_name() {
        let src =
            "(individual long-name (primset arith) (tree eval (+ (* x0 x1) (pdiv (- x2 x3) (+ x4 (* x5 (- x6 x7)))))))";
        let out = fmt(src);
        assert_eq!(
            out,
            "(individual long-name\n  (primset arith)\n  (tree eval (+ (* x0 x1) (pdiv (- x2 x3) (+ x4 (* x5 (- x6 x7)))))))\n"
        );
        assert_eq!(fmt(&out), out);
    }

    #[test]
    fn comments_survive_and_layout_is_a_fixed_point() {
        let src = "; header\n\n(a ; after a\n  b\n\n\n  ; before c\n  c ; after c\n  ) ; tail\n(d)\n; end\n";
        let out = fmt(src);
        assert_eq!(out, "; header\n\n(a ; after a\n  b\n\n  ; before c\n  c ; after c\n) ; tail\n(d)\n; end\n");
        assert_eq!(fmt(&out), out);
    }
}
