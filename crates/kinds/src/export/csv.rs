//! CSV: tables in, three kinds of text file out.
//! - `<slug>.csv` per table: `range_start,range_end,result`, one line per row;
//! - `tables.csv`: every exported table's rows with `table_id,title,dice` in front;
//! - `pipe/<slug>.csv` per table: `01-04|result`, the pipe-separated form Foundry's Roll Table Importer
//!   module (and others) read, the file name becoming the table's name.
//!
//! The comma files are RFC 4180 (CRLF line ends, fields with a comma, quote or line break quoted, quotes
//! doubled) and hold each result exactly as the content writes it, `{1d6}` rolls and `{table:ID}`
//! references included: they are data, for spreadsheets and scripts, and `tables.csv` resolves every
//! reference. The pipe files hold what a Foundry result shows: `[[1d6]]` rolls, referenced tables by title.
//!
//! Pipe ranges are zero-padded to the width of the dice's highest total (`01-04` on a d12), except that
//! a 1–100 table pads to two digits like percentile dice and writes 100 as `100`: the Roll Table Importer
//! reads a lone `00` as the whole 1–100 range. The importer cannot read ranges below 1: such a table
//! has no pipe file, with a warning saying so ([`pipe`] returns `None`). Nor can it read a `|` or a
//! line break inside a result: the pipe form writes `¦` (broken bar) for one and, its text being
//! Foundry's HTML, `<br>` for the other ([`blockprint_content::carry`]); the comma files keep the text
//! exactly. Its rolls are Foundry's, so what Foundry VTT cannot roll is refused as the Foundry export
//! refuses it ([`pipe_refuse`]; `check` refuses it first, at its place). It also guesses the formula
//! as `1d<last number>`, so a table rolled on more than one die (2d6) needs its formula set by hand after
//! importing — `tables.csv` gives it.

use super::{Table, check_ranges, slug, unread};
use crate::error::{Problem, write};
use blockprint_content::Library;
use blockprint_content::error::{Error, Result};

fn writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new())
}

fn finish(w: csv::Writer<Vec<u8>>) -> Result<Vec<u8>> {
    w.into_inner().map_err(|e| write("CSV", e))
}

fn bug(e: csv::Error) -> Error {
    write("CSV", e)
}

/// `range_start,range_end,result` for one table, read back and checked before it is returned.
pub fn table(t: &Table) -> Result<Vec<u8>> {
    let mut w = writer();
    w.write_record(["range_start", "range_end", "result"])
        .map_err(bug)?;
    for r in &t.rows {
        w.write_record([r.lo.to_string(), r.hi.to_string(), r.result.clone()])
            .map_err(bug)?;
    }
    let bytes = finish(w)?;
    let back = read(&bytes, 0)?;
    check_rows(t, &back, "CSV")?;
    Ok(bytes)
}

/// `table_id,title,dice,range_start,range_end,result` for every table, read back and checked.
pub fn combined(tables: &[Table]) -> Result<Vec<u8>> {
    let mut w = writer();
    w.write_record([
        "table_id",
        "title",
        "dice",
        "range_start",
        "range_end",
        "result",
    ])
    .map_err(bug)?;
    for t in tables {
        for r in &t.rows {
            w.write_record([
                t.id.clone(),
                t.title.clone(),
                t.formula.clone(),
                r.lo.to_string(),
                r.hi.to_string(),
                r.result.clone(),
            ])
            .map_err(bug)?;
        }
    }
    let bytes = finish(w)?;
    let back = read(&bytes, 3)?;
    let mut at = 0;
    for t in tables {
        let n = t.rows.len();
        let mine = back
            .get(at..at + n)
            .ok_or_else(|| unread("combined CSV", t, "tables.csv ends before its rows"))?;
        if mine
            .iter()
            .any(|(lead, _)| lead != &[t.id.clone(), t.title.clone(), t.formula.clone()])
        {
            return Err(unread(
                "combined CSV",
                t,
                "tables.csv labels its rows with another table",
            ));
        }
        check_rows(t, mine, "combined CSV")?;
        at += n;
    }
    if at != back.len() {
        return Err(Problem::ExportCheck {
            export: "combined CSV".into(),
            item: "the tables".into(),
            why: "tables.csv holds rows no table has".into(),
        }
        .into());
    }
    Ok(bytes)
}

/// One CSV record read back: the fields before the range, and `(lo, hi, result)`.
type Record = (Vec<String>, (i64, i64, String));

/// Read a CSV file back with a header, `lead` fields before the range.
pub fn read(bytes: &[u8], lead: usize) -> Result<Vec<Record>> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(bytes);
    let mut out = Vec::new();
    let unreadable = |why: String| -> Error {
        Problem::ExportCheck {
            export: "CSV".into(),
            item: "a table".into(),
            why,
        }
        .into()
    };
    for rec in r.records() {
        let rec = rec.map_err(|e| unreadable(e.to_string()))?;
        let field = |i: usize| rec.get(i).unwrap_or_default().to_owned();
        let num = |i: usize| {
            field(i)
                .parse::<i64>()
                .map_err(|_| unreadable(format!("`{}` stands for a range", field(i))))
        };
        out.push((
            (0..lead).map(field).collect(),
            (num(lead)?, num(lead + 1)?, field(lead + 2)),
        ));
    }
    Ok(out)
}

fn check_rows(t: &Table, back: &[Record], what: &str) -> Result<()> {
    let ranges: Vec<(i64, i64, i64)> = back
        .iter()
        .map(|(_, (lo, hi, _))| (*lo, *hi, hi - lo + 1))
        .collect();
    check_ranges(t, what, &ranges)?;
    for ((_, (_, _, text)), row) in back.iter().zip(&t.rows) {
        if *text != row.result {
            return Err(unread(
                what,
                t,
                format!(
                    "it reads `{text}` for row {}, which says `{}`",
                    row.at, row.result
                ),
            ));
        }
    }
    Ok(())
}

/// The name of a table's pipe file.
pub fn pipe_name(t: &Table) -> String {
    format!("pipe/{}.csv", slug(&t.id))
}

/// How many digits pipe ranges are padded to.
fn pipe_width(t: &Table) -> usize {
    let max = t.outcomes.last().copied().unwrap_or(1);
    if max == 100 { 2 } else { max.to_string().len() }
}

/// Why table `t` has no pipe file, when it has none: its totals go below 1, which the pipe form cannot
/// write (a `warning: …` line; the export kind hands it to the run's sink).
pub fn pipe_left_out(t: &Table) -> Option<String> {
    let low = *t.outcomes.first()?;
    (low < 1).then(|| {
        format!(
            "warning: table `{}` ({}) rolls {} from {low}; the pipe form `N-M|result` has no way to write totals below 1, so it has no pipe file (its CSV and Foundry exports are complete)",
            t.id, t.at, t.dice
        )
    })
}

/// Refuse (exit 1) a table whose pipe file Foundry's importer would roll differently from the content:
/// the pipe form holds Foundry's rolls, so it refuses what the Foundry export refuses.
pub fn pipe_refuse(t: &Table) -> Result<()> {
    match super::foundry::refusal(t) {
        None => Ok(()),
        Some(why) => Err(Problem::CsvPipe {
            table: t.id.clone(),
            at: t.at.clone(),
            why,
        }
        .into()),
    }
}

/// The pipe form of one table, read back the way the Roll Table Importer reads it and checked; `None`
/// for a table whose totals go below 1, which the form cannot write ([`pipe_left_out`] says so).
pub fn pipe(lib: &Library, t: &Table) -> Result<Option<Vec<u8>>> {
    if pipe_left_out(t).is_some() {
        return Ok(None);
    }
    pipe_refuse(t)?;
    let width = pipe_width(t);
    let mut out = String::new();
    let mut texts = Vec::new();
    for r in &t.rows {
        // Foundry's HTML, as a v12 result's `text`: a line break is `<br>`, so the row stays one line.
        let text = super::foundry::render_text(lib, &r.result, false, true)?.replace('|', "¦");
        if r.lo == r.hi {
            out.push_str(&format!("{:0width$}|{text}\n", r.lo));
        } else {
            out.push_str(&format!("{:0width$}-{:0width$}|{text}\n", r.lo, r.hi));
        }
        texts.push(text);
    }
    let back = read_pipe(&out);
    let ranges: Vec<(i64, i64, i64)> = back
        .iter()
        .map(|(lo, hi, _)| (*lo, *hi, hi - lo + 1))
        .collect();
    check_ranges(t, "pipe", &ranges)?;
    if back.iter().map(|(_, _, s)| s).ne(texts.iter()) {
        return Err(unread("pipe", t, "its results read back as other texts"));
    }
    Ok(Some(out.into_bytes()))
}

/// Read a pipe file as the Roll Table Importer does: `range|text` per line, a range `N`, `N-M` or `N–M`,
/// an end of `0` read as 100 and a start of `0` as 1.
pub fn read_pipe(text: &str) -> Vec<(i64, i64, String)> {
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (range, rest) = l.split_once('|').unwrap_or((l, ""));
            let rest = rest.split('|').next().unwrap_or_default().to_owned();
            let num = |s: &str| s.trim().parse::<i64>().unwrap_or(-1);
            let (mut lo, mut hi) = match range.split_once(['-', '–']) {
                Some((a, b)) => (num(a), num(b)),
                None => (num(range), num(range)),
            };
            if hi == 0 {
                hi = 100;
            }
            if lo == 0 {
                lo = 1;
            }
            (lo, hi, rest)
        })
        .collect()
}
