//! Diagnostics: what every phase reports about user input.
//!
//! Phases never stop at the first problem: they return their result together
//! with a list of [`Diagnostic`]s. Only the CLI turns diagnostics into exit codes.
//! A diagnostic names its file by [`FileId`]; [`Sources`] owns the texts and
//! renders diagnostics with miette (file, line, column, labelled spans, help).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};

use crate::limits::Limit;
use crate::syntax::Span;

/// Index of a file in [`Sources`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FileId(pub u32);

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
        self.render_with(&handler, diags)
    }

    /// Renders for a terminal: colour when stderr is one.
    pub fn render_for_terminal(&self, diags: &[Diagnostic]) -> String {
        let theme = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
        self.render_with(&handler, diags)
    }

    fn render_with(&self, handler: &GraphicalReportHandler, diags: &[Diagnostic]) -> String {
        let mut out = String::new();
        let mut sorted: Vec<&Diagnostic> = diags.iter().collect();
        sorted.sort_by_key(|d| (d.file.map(|f| f.0), d.labels.first().map(|(s, _)| s.start)));
        for d in sorted {
            let report = Report {
                diag: d,
                source: d.file.map(|f| NamedSource::new(&self.get(f).name, self.get(f).text.clone())),
            };
            if handler.render_report(&mut out, &report).is_err() {
                out.push_str(&format!("{}: {}\n", d.code, d.message));
            }
            out.push('\n');
        }
        out
    }
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
    source: Option<NamedSource<Arc<str>>>,
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
        self.source.as_ref()?;
        let labels = self.diag.labels.iter().enumerate().map(|(i, (span, text))| {
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

/// Suggests the closest of `candidates` to `name` ("did you mean"), by edit
/// distance, when one is close enough to be a likely typo.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for cand in candidates {
        let d = edit_distance(&lower, &cand.to_lowercase());
        // Short names are too easily one edit from anything: suggest only on a
        // difference of case for them.
        let shortest = name.chars().count().min(cand.chars().count());
        let limit = if shortest < 3 { 0 } else { (name.chars().count().max(cand.chars().count()) / 3).max(1) };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, cand));
        }
    }
    best.map(|(_, c)| c)
}

/// Optimal-string-alignment distance: insertions, deletions, substitutions
/// and transpositions of neighbours (the commonest typo) each cost 1.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(did_you_mean("pdvi", ["pdiv", "+", "x0"]), Some("pdiv"));
        assert_eq!(did_you_mean("lowerequal", ["LowerEqual", "AND"]), Some("LowerEqual"));
        assert_eq!(did_you_mean("zzzzz", ["pdiv", "x0"]), None);
    }
}
