//! Tables of input rows (CSV with a header naming terminals), and their
//! binding to a primset's feature slots.
//!
//! Values are stored column-major, one `Vec<u64>` of slot bit patterns per
//! column, so that batch engines can stream a column.

use crate::diagnostic::{Diagnostic, FileId, Sources};
use crate::lang::{Base, PrimSet};
use crate::syntax::Span;

#[derive(Debug, Clone)]
pub struct Table {
    pub file: FileId,
    /// The file's name as the user gave it, for diagnostics pointing elsewhere.
    pub name: String,
    pub columns: Vec<String>,
    /// Column spans in the header, for diagnostics.
    pub header_spans: Vec<Span>,
    /// Raw text of each cell, column-major, parsed lazily per the type it binds to.
    cells: Vec<Vec<(String, Span)>>,
    pub n_rows: usize,
}

/// Reads a CSV table. Every problem (ragged rows, an empty header, duplicate
/// column names) is a diagnostic pointing into the file. Ragged rows are left
/// out of the table and reported, so that binding can report bad values too.
pub fn read_csv(sources: &Sources, file: FileId) -> Result<(Table, Vec<Diagnostic>), Vec<Diagnostic>> {
    let text = sources.get(file).text.clone();
    let mut reader =
        csv::ReaderBuilder::new().has_headers(true).flexible(true).trim(csv::Trim::All).from_reader(text.as_bytes());
    let mut diags = Vec::new();
    let headers = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => {
            return Err(vec![Diagnostic::error("stratagem::csv", format!("cannot read the CSV header: {e}")).at(
                file,
                Span::new(0, 0),
                "here",
            )]);
        }
    };
    let header_line_end = text.find('\n').unwrap_or(text.len());
    let columns: Vec<String> = headers.iter().map(str::to_owned).collect();
    let header_spans = field_spans(&text, 0, header_line_end, columns.len());
    if columns.is_empty() || columns.iter().all(String::is_empty) {
        return Err(vec![Diagnostic::error("stratagem::csv", "the CSV has no header").at(
            file,
            Span::new(0, header_line_end),
            "expected column names, e.g. `x0,x1`",
        )]);
    }
    for (i, c) in columns.iter().enumerate() {
        if columns[..i].contains(c) {
            diags.push(Diagnostic::error("stratagem::csv", format!("column `{c}` appears twice")).at(
                file,
                header_spans[i],
                "duplicate column",
            ));
        }
    }
    let mut cells: Vec<Vec<(String, Span)>> = vec![Vec::new(); columns.len()];
    let mut n_rows = 0;
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let at = e.position().map_or(0, |p| p.byte() as usize);
                diags.push(Diagnostic::error("stratagem::csv", format!("malformed CSV: {e}")).at(
                    file,
                    Span::new(at, at),
                    "here",
                ));
                break;
            }
        };
        let start = record.position().map_or(0, |p| p.byte() as usize);
        let line_end = text[start.min(text.len())..].find('\n').map_or(text.len(), |i| start + i);
        if record.len() == 1 && record.get(0) == Some("") {
            continue; // blank line
        }
        if record.len() != columns.len() {
            diags.push(
                Diagnostic::error(
                    "stratagem::csv",
                    format!("row has {} fields, the header has {}", record.len(), columns.len()),
                )
                .at(file, Span::new(start, line_end), "ragged row"),
            );
            continue;
        }
        let spans = field_spans(&text, start, line_end, record.len());
        for (c, field) in record.iter().enumerate() {
            cells[c].push((field.to_owned(), spans[c]));
        }
        n_rows += 1;
    }
    Ok((Table { file, name: sources.get(file).name.clone(), columns, header_spans, cells, n_rows }, diags))
}

/// Byte spans of the comma-separated fields of one line (quotes are rare in
/// numeric tables; a quoted comma only blurs the span, never the value).
fn field_spans(text: &str, start: usize, end: usize, n: usize) -> Vec<Span> {
    let mut spans = Vec::with_capacity(n);
    let mut field_start = start;
    for (i, b) in text[start..end].bytes().enumerate() {
        if b == b',' {
            spans.push(Span::new(field_start, start + i));
            field_start = start + i + 1;
        }
    }
    spans.push(Span::new(field_start, end.max(field_start)));
    while spans.len() < n {
        spans.push(Span::new(end, end));
    }
    spans
}

/// Feature values laid out for evaluation: `slots[row * n_slots + slot]`,
/// for the slots the evaluated programs use (others are 0).
#[derive(Debug, Clone)]
pub struct BoundRows {
    pub n_slots: usize,
    pub n_rows: usize,
    pub slots: Vec<u64>,
}

impl BoundRows {
    pub fn row(&self, r: usize) -> &[u64] {
        &self.slots[r * self.n_slots..(r + 1) * self.n_slots]
    }

    /// The same values column-major, as engines that loop over rows read them.
    pub fn columns(&self) -> Columns {
        let stride = self.n_rows.div_ceil(COLUMN_PAD) * COLUMN_PAD;
        let mut data = vec![0u64; self.n_slots * stride];
        for r in 0..self.n_rows {
            for (s, &bits) in self.row(r).iter().enumerate() {
                data[s * stride + r] = bits;
            }
        }
        Columns { n_slots: self.n_slots, n_rows: self.n_rows, stride, data }
    }
}

/// Rows are padded to a multiple of this, so that a loop over rows in SIMD
/// lanes never needs a scalar tail.
pub const COLUMN_PAD: usize = 4;

/// Feature values column-major: `data[slot * stride + row]`, where `stride`
/// is `n_rows` rounded up to a multiple of [`COLUMN_PAD`]; padding rows hold 0.
#[derive(Debug, Clone)]
pub struct Columns {
    pub n_slots: usize,
    pub n_rows: usize,
    pub stride: usize,
    pub data: Vec<u64>,
}

/// The table's column names for a message: all of them, or the first 20.
fn column_list(table: &Table) -> String {
    const SHOWN: usize = 20;
    let names = table.columns.iter().take(SHOWN).map(String::as_str).collect::<Vec<_>>().join(", ");
    match table.columns.len() {
        n if n > SHOWN => format!("{names}, … ({n} columns)"),
        _ => names,
    }
}

/// Binds table columns to the feature slots `used` of `ps` by name and parses
/// each cell as its feature's type. A missing column or a bad number is a
/// diagnostic naming the cell.
pub fn bind(
    table: &Table,
    ps: &PrimSet,
    used: &[u32],
    used_at: Span,
    program_file: FileId,
) -> Result<BoundRows, Vec<Diagnostic>> {
    let n_slots = ps.features.len();
    let mut slots = vec![0u64; n_slots * table.n_rows];
    let mut diags = Vec::new();
    for &slot in used {
        let name = &ps.features[slot as usize];
        let Some(col) = table.columns.iter().position(|c| c == name) else {
            diags.push(
                Diagnostic::error("stratagem::csv::missing-column", format!("the table has no column `{name}`"))
                    .at(program_file, used_at, format!("reads terminal `{name}`"))
                    .with_help(format!(
                        "the header of `{}` names the terminals; it has: {}",
                        table.name,
                        column_list(table)
                    )),
            );
            continue;
        };
        let ty = ps.prims.iter().find(|p| p.name == *name).map_or(Base::F, |p| ps.base(p.ret));
        for (row, (text, span)) in table.cells[col].iter().enumerate() {
            match parse_cell(text, ty) {
                Some(bits) => slots[row * n_slots + slot as usize] = bits,
                None => {
                    if diags.len() < 20 {
                        diags.push(
                            Diagnostic::error(
                                "stratagem::csv::value",
                                format!("`{text}` is not a valid {} value for `{name}`", ty.name()),
                            )
                            .at(
                                table.file,
                                *span,
                                format!("expected {}", expected_text(ty)),
                            ),
                        );
                    }
                }
            }
        }
    }
    if diags.is_empty() { Ok(BoundRows { n_slots, n_rows: table.n_rows, slots }) } else { Err(diags) }
}

fn expected_text(ty: Base) -> &'static str {
    match ty {
        Base::F => "a number such as -0.25, 1e-3, inf or NaN",
        Base::I => "an integer",
        Base::B => "true, false, 1 or 0",
    }
}

fn parse_cell(text: &str, ty: Base) -> Option<u64> {
    match ty {
        Base::F => text.parse::<f64>().ok().map(f64::to_bits),
        Base::I => text.parse::<i64>().ok().map(|i| i as u64),
        Base::B => match text {
            "true" | "1" => Some(1),
            "false" | "0" => Some(0),
            _ => None,
        },
    }
}
