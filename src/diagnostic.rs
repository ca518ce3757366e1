//! Diagnostics: what every phase reports about user input.
//!
//! Phases never stop at the first problem: they return their result together
//! with a list of [`Diagnostic`]s. Only the CLI turns diagnostics into exit codes.
//! A diagnostic names its file by [`FileId`]; [`Sources`] owns the texts and
//! renders diagnostics with miette (file, line, column, labelled spans, help).

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan};

use crate::limits::Limit;
pub use crate::spelling::did_you_mean;

/// Index of a file in [`Sources`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The span of the first byte, used to point at a list's opening paren.
    pub fn first_byte(self) -> Span {
        Span::new(self.start, (self.start + 1).min(self.end.max(self.start + 1)))
    }

    pub fn len(self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(self) -> bool {
        self.end == self.start
    }
}

impl From<Range<usize>> for Span {
    fn from(r: Range<usize>) -> Span {
        Span::new(r.start, r.end)
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> miette::SourceSpan {
        (s.start, s.len()).into()
    }
}

/// One loaded text: a program, an embedded primset, a CSV table.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The name shown in diagnostics: the path as the user gave it, or
    /// `<builtin>/arith.sg` for files shipped inside the binary.
    pub name: String,
    /// Where the file lives on disk, if it came from disk (for relative imports).
    pub path: Option<PathBuf>,
    pub text: Arc<str>,
}

/// All texts a run has read, so diagnostics can show the lines they point at.
#[derive(Debug, Default, Clone)]
pub struct Sources {
    files: Vec<SourceFile>,
}

impl Sources {
    pub fn new() -> Sources {
        Sources::default()
    }

    pub fn add(&mut self, name: impl Into<String>, path: Option<PathBuf>, text: impl Into<Arc<str>>) -> FileId {
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile { name: name.into(), path, text: text.into() });
        id
    }

    /// Reads a program or other text input from disk, within the
    /// `input-size` limit.
    pub fn load(&mut self, path: &Path) -> Result<FileId, std::io::Error> {
        self.load_within(path, Limit::InputSize)
    }

    /// Reads a file from disk, refusing one larger than `limit`.
    pub fn load_within(&mut self, path: &Path, limit: Limit) -> Result<FileId, std::io::Error> {
        let bytes = crate::files::read_limited(path, limit)?;
        let text = String::from_utf8(bytes).map_err(|e| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()),
            )
        })?;
        Ok(self.add(path.display().to_string(), Some(path.to_path_buf()), text))
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn find_by_path(&self, path: &Path) -> Option<FileId> {
        let canon = path.canonicalize().ok()?;
        self.files
            .iter()
            .position(|f| f.path.as_ref().and_then(|p| p.canonicalize().ok()).as_ref() == Some(&canon))
            .map(|i| FileId(i as u32))
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, id: FileId, offset: usize) -> (usize, usize) {
        let text = &self.get(id).text;
        let offset = offset.min(text.len());
        let before = &text[..floor_char_boundary(text, offset)];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    /// Renders diagnostics as miette does, without colour, at a fixed width so
    /// that golden files are stable.
    pub fn render_plain(&self, diags: &[Diagnostic]) -> String {
        let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(100);
        self.render_with(&unhyphenated(handler), diags)
    }

    /// Renders for a terminal: colour when stderr is one.
    pub fn render_for_terminal(&self, diags: &[Diagnostic]) -> String {
        let theme = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
        self.render_with(&unhyphenated(handler), diags)
    }

    fn render_with(&self, handler: &GraphicalReportHandler, diags: &[Diagnostic]) -> String {
        let mut out = String::new();
        let mut sorted: Vec<&Diagnostic> = diags.iter().collect();
        sorted.sort_by_key(|d| (d.file.map(|f| f.0), d.labels.first().map(|(s, _)| s.start)));
        let mut line_starts: HashMap<FileId, Vec<usize>> = HashMap::new();
        for group in sorted.chunk_by(|a, b| a.file == b.file) {
            for d in group.iter().take(MAX_DIAGNOSTICS_PER_FILE) {
                let source = d.file.map(|f| {
                    let file = self.get(f);
                    let starts = line_starts.entry(f).or_insert_with(|| line_starts_of(&file.text));
                    Excerpt::new(&file.name, &file.text, starts, &d.labels)
                });
                let report = Report { diag: d, source };
                if handler.render_report(&mut out, &report).is_err() {
                    out.push_str(&format!("{}: {}\n", d.code, d.message));
                }
                out.push('\n');
            }
            if let Some(hidden) = group.len().checked_sub(MAX_DIAGNOSTICS_PER_FILE).filter(|&n| n > 0) {
                let place = match group[0].file {
                    Some(f) => format!(" in {}", self.get(f).name),
                    None => String::new(),
                };
                let kind = if hidden == 1 { "diagnostic" } else { "diagnostics" };
                out.push_str(&format!(
                    "… and {hidden} more {kind}{place} (the first {MAX_DIAGNOSTICS_PER_FILE} are shown)\n\n"
                ));
            }
        }
        out
    }
}

/// At most this many diagnostics are shown per file: past the first few
/// dozen, more of them help nobody, and rendering each costs time and space.
pub const MAX_DIAGNOSTICS_PER_FILE: usize = 50;

/// Lines longer than this (in characters) are shown as a window around the
/// labels instead of whole.
const LONG_LINE: usize = 160;
/// Characters of a long line shown, and how many of them precede the label.
const WINDOW: usize = 120;
const WINDOW_LEAD: usize = 40;
/// Lines of context above and below each label (miette's default).
const CONTEXT_LINES: usize = 1;

/// Byte offsets at which each line of `text` starts.
fn line_starts_of(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect()
}

/// What one diagnostic shows of its file: the lines its labels touch and
/// their context, with every other line left empty (so line numbers stay
/// true) and long lines cut to a window around the label. Rendering costs
/// what is shown, not the size of the file or the length of its lines.
struct Excerpt {
    name: String,
    text: String,
    shown: Vec<ShownLine>,
    labels: Vec<(Span, String)>,
}

/// A line of the file as it appears in an [`Excerpt`].
struct ShownLine {
    /// Byte range of the line (without its newline) in the file.
    start: usize,
    end: usize,
    /// The part shown, a byte range inside the line.
    window: (usize, usize),
    /// Where the shown part starts in the excerpt.
    at: usize,
    /// The 0-based character column of the window's first character.
    column: usize,
}

impl Excerpt {
    fn new(name: &str, text: &str, starts: &[usize], labels: &[(Span, String)]) -> Excerpt {
        let line_of = |offset: usize| starts.partition_point(|&s| s <= offset).saturating_sub(1);
        let last_line = starts.len() - 1;
        let clamp = |o: usize| floor_char_boundary(text, o.min(text.len()));
        let mut needed: Vec<(usize, usize)> = labels
            .iter()
            .map(|(span, _)| {
                let first = line_of(clamp(span.start));
                let last = line_of(clamp(span.end.saturating_sub(1).max(span.start)));
                (first.saturating_sub(CONTEXT_LINES), (last + CONTEXT_LINES).min(last_line))
            })
            .collect();
        needed.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::new();
        for (a, b) in needed {
            match merged.last_mut() {
                Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        let mut out = String::new();
        let mut shown = Vec::new();
        let mut line = 0;
        for (a, b) in merged {
            for _ in line..a {
                out.push('\n');
            }
            for l in a..=b {
                let start = starts[l];
                let end = starts.get(l + 1).map_or(text.len(), |&s| s - 1);
                let line_text = &text[start..end];
                let anchor = labels
                    .iter()
                    .map(|(span, _)| clamp(span.start))
                    .find(|&o| o >= start && o <= end)
                    .map_or(0, |o| o - start);
                let window = window_of(line_text, anchor);
                let column = line_text[..window.0].chars().count();
                if window.0 > 0 {
                    out.push('…');
                }
                shown.push(ShownLine {
                    start,
                    end,
                    window: (start + window.0, start + window.1),
                    at: out.len(),
                    column,
                });
                out.push_str(&line_text[window.0..window.1]);
                if window.1 < line_text.len() {
                    out.push('…');
                }
                if l < last_line {
                    out.push('\n');
                }
            }
            line = b + 1;
        }
        let mut excerpt = Excerpt { name: name.to_string(), text: out, shown, labels: Vec::new() };
        excerpt.labels = labels
            .iter()
            .map(|(span, label)| {
                let from = excerpt.to_excerpt(clamp(span.start));
                let to = excerpt.to_excerpt(clamp(span.end)).max(from);
                (Span::new(from, to), label.clone())
            })
            .collect();
        excerpt
    }

    /// Where a byte offset of the file lands in the excerpt (clamped into
    /// the window of its line).
    fn to_excerpt(&self, offset: usize) -> usize {
        let i = self.shown.partition_point(|l| l.start <= offset).saturating_sub(1);
        match self.shown.get(i) {
            Some(l) if offset <= l.end + 1 => {
                if offset > l.end {
                    // The newline ending the line: just after the shown part.
                    let shown_end = l.at + (l.window.1 - l.window.0);
                    return if l.window.1 < l.end { shown_end + '…'.len_utf8() } else { shown_end } + 1;
                }
                l.at + (offset.clamp(l.window.0, l.window.1) - l.window.0)
            }
            _ => self.text.len(),
        }
    }

    /// The 0-based character column, in the file, of a byte offset of the excerpt.
    fn file_column(&self, at: usize) -> Option<usize> {
        let i = self.shown.partition_point(|l| l.at <= at).checked_sub(1)?;
        let l = &self.shown[i];
        let shown = self.text.get(l.at..at.min(l.at + (l.window.1 - l.window.0)))?;
        Some(l.column + shown.chars().count())
    }
}

/// The byte range of `line` to show: all of a short line, else about
/// [`WINDOW`] characters starting a little before `anchor`.
fn window_of(line: &str, anchor: usize) -> (usize, usize) {
    if line.len() <= LONG_LINE || line.chars().count() <= LONG_LINE {
        return (0, line.len());
    }
    let anchor = floor_char_boundary(line, anchor.min(line.len()));
    // Start at the line's beginning when little would be cut there.
    let lead = match line[..anchor].char_indices().rev().nth(WINDOW_LEAD - 1) {
        Some((i, _)) if line[..i].chars().count() > WINDOW_LEAD / 2 => i,
        _ => 0,
    };
    let end = line[lead..].char_indices().nth(WINDOW).map_or(line.len(), |(i, _)| lead + i);
    (lead, end)
}

impl miette::SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner = self.text.read_span(span, context_lines_before, context_lines_after)?;
        // miette reads a label's own line and column with no context: give
        // the column in the file, not in the (possibly cut) excerpt.
        let column = if context_lines_before == 0 {
            self.file_column(span.offset()).unwrap_or(inner.column())
        } else {
            inner.column()
        };
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line(),
            column,
            inner.line_count(),
        )))
    }
}

/// Lines wrap between words only: a hyphenated name (`perft-depth`, a game
/// name, a path) stays whole, so it can be copied from the message.
fn unhyphenated(handler: GraphicalReportHandler) -> GraphicalReportHandler {
    handler.with_break_words(false).with_word_splitter(textwrap::WordSplitter::NoHyphenation)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// A problem found in user input.
#[derive(Debug, Clone)]
pub struct Diagnostic {
    /// A stable code such as `stratagem::check::arity`.
    pub code: &'static str,
    pub message: String,
    pub severity: Severity,
    /// The file the labels point into; `None` for problems outside any file
    /// (a missing file named on the command line).
    pub file: Option<FileId>,
    /// Labelled spans; the first is the primary one.
    pub labels: Vec<(Span, String)>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            message: message.into(),
            severity: Severity::Error,
            file: None,
            labels: Vec::new(),
            help: None,
        }
    }

    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(code, message) }
    }

    /// Points the diagnostic at `span` in `file` with a label.
    pub fn at(mut self, file: FileId, span: Span, label: impl Into<String>) -> Diagnostic {
        self.file = Some(file);
        self.labels.push((span, label.into()));
        self
    }

    /// Adds a secondary label in the same file.
    pub fn also(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.labels.push((span, label.into()));
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Whether any diagnostic in the list is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}

struct Report<'a> {
    diag: &'a Diagnostic,
    source: Option<Excerpt>,
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.diag.message)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.diag.message)
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.diag.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diag.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let labels = self.source.as_ref()?.labels.iter().enumerate().map(|(i, (span, text))| {
            let text = if text.is_empty() { None } else { Some(text.clone()) };
            if i == 0 {
                LabeledSpan::new_primary_with_span(text, *span)
            } else {
                LabeledSpan::new_with_span(text, *span)
            }
        });
        Some(Box::new(labels))
    }
}

/// What a library call or a command failed with: diagnostics to render
/// (with the sources they point into), or a plain message. The CLI renders
/// it and exits 1.
pub struct Failure {
    pub sources: Sources,
    pub diags: Vec<Diagnostic>,
}

impl Failure {
    pub fn new(sources: Sources, diags: Vec<Diagnostic>) -> Failure {
        Failure { sources, diags }
    }

    pub fn message(code: &'static str, message: impl Into<String>) -> Failure {
        Failure { sources: Sources::new(), diags: vec![Diagnostic::error(code, message)] }
    }
}

/// The help for a name that names nothing: "did you mean `X`?" when one of
/// `candidates` is close, else `LABEL: a, b, c` listing them all.
pub fn suggest_or_list<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str> + Clone, label: &str) -> String {
    match did_you_mean(name, candidates.clone()) {
        Some(s) => format!("did you mean `{s}`?"),
        None => format!("{label}: {}", candidates.into_iter().collect::<Vec<_>>().join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(text: &str, diags: impl Fn(FileId) -> Vec<Diagnostic>) -> String {
        let mut sources = Sources::new();
        let f = sources.add("t.sg", None, text);
        sources.render_plain(&diags(f))
    }

    #[test]
    fn long_lines_show_a_window_with_the_true_column() {
        let text = format!("(a)\n{}) ; tail\n(b)", " ".repeat(70_000));
        let out = render(&text, |f| {
            vec![Diagnostic::error("t::x", "unexpected").at(f, Span::new(70_004, 70_005), "this one")]
        });
        assert!(out.contains("[t.sg:2:70001]"), "{out}");
        assert!(out.contains("this one"), "{out}");
        assert!(out.lines().all(|l| l.chars().count() < 200), "every printed line is short:\n{out}");
        assert!(out.contains("1 │ (a)") && out.contains("3 │ (b)"), "context lines are whole:\n{out}");
    }

    #[test]
    fn labels_far_apart_keep_their_own_line_numbers() {
        let text = (1..=300).map(|i| format!("(line{i})\n")).collect::<String>();
        let at = |n: usize| text.find(&format!("(line{n})")).expect("present");
        let out = render(&text, |f| {
            vec![
                Diagnostic::error("t::dup", "defined twice")
                    .at(f, Span::new(at(250), at(250) + 9), "again here")
                    .also(Span::new(at(3), at(3) + 7), "first here"),
            ]
        });
        assert!(out.contains("[t.sg:250:1]"), "{out}");
        assert!(out.contains(" 3 │ (line3)") && out.contains("250 │ (line250)"), "{out}");
        assert!(!out.contains("(line100)"), "lines far from any label are not shown:\n{out}");
    }

    #[test]
    fn many_diagnostics_are_capped_per_file() {
        let text = "x\n".repeat(1000);
        let out = render(&text, |f| {
            (0..1000).map(|i| Diagnostic::error("t::x", "bad").at(f, Span::new(2 * i, 2 * i + 1), "")).collect()
        });
        assert_eq!(out.matches("× bad").count(), MAX_DIAGNOSTICS_PER_FILE);
        assert!(out.contains("… and 950 more diagnostics in t.sg"), "{out}");
    }

    #[test]
    fn odd_spans_and_wide_characters_render() {
        let text = format!("é{}ü)\n", "日".repeat(300));
        for (start, end) in [(0, 0), (1, 2), (3, 700), (905, 906), (906, 906), (5000, 6000), (10, 5)] {
            let out = render(&text, |f| vec![Diagnostic::error("t::x", "odd").at(f, Span { start, end }, "here")]);
            assert!(out.contains("odd"), "{start}..{end}: {out}");
        }
        assert!(render("", |f| vec![Diagnostic::error("t::x", "empty").at(f, Span::new(0, 0), "")]).contains("empty"));
    }
}
