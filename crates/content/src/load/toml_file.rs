//! One TOML file read: its syntax, then its schema from the parsed tree, rows limited, control
//! characters reported at their place, and the locations every item keeps.

use super::*;

/// Parse and read one TOML file, `sources[file]`: its items (in a library of their own) and its
/// diagnostics.
pub(super) fn toml_file(sources: &[Source], file: usize, diags: &mut Vec<Diagnostic>) -> Library {
    let mut part = Library::default();
    let text = &sources[file].text;
    // Syntax first, so a TOML mistake is told apart from a schema mistake. The document is parsed
    // once: the schema is read from the parsed tree, not from the text again.
    let doc = match toml::de::DeTable::parse(text) {
        Err(e) => {
            let loc = error_loc(file, e.span(), text.len());
            diags.push(
                Diagnostic::error(
                    Kind::Parse,
                    sources,
                    &loc,
                    format!("invalid TOML: {}", first_line(e.message())),
                )
                .with_hint("fix the TOML syntax at the marked place (quotes, commas, brackets)"),
            );
            return part;
        }
        Ok(doc) if doc.get_ref().is_empty() => {
            // Most often a save that failed: everything the file held would vanish silently.
            diags.push(
                Diagnostic::error(
                    Kind::Schema,
                    sources,
                    &loc(file, 0..0),
                    "the file defines nothing (it is empty, or holds only comments)",
                )
                .with_hint("restore the file's tables, or delete the file if it is meant to go"),
            );
            return part;
        }
        Ok(doc) => {
            // TOML refuses raw control characters, but escapes (`\u001b`, `\e`) make them. The
            // items still load, so the rest of the check runs; the errors stop every output.
            toml_controls(sources, file, doc.get_ref(), diags);
            doc
        }
    };
    match FileDoc::deserialize(toml::de::Deserializer::from(doc)) {
        Ok(mut doc) => {
            limit_rows(sources, file, &mut doc, diags);
            add_doc(&mut part, file, doc)
        }
        Err(e) => {
            let loc = error_loc(file, e.span(), text.len());
            let msg = first_line(e.message()).to_owned();
            let hint = schema_hint(&msg);
            diags.push(Diagnostic::error(Kind::Schema, sources, &loc, msg).with_hint(hint));
        }
    }
    part
}

/// The most rows a table (or entries a lookup) may have. The largest built-in table has 100; the limit
/// keeps the checker's work per table bounded (rows times outcomes) whatever a file holds.
pub const MAX_ROWS: usize = 10_000;

/// A `schema` error for each table or lookup over [`MAX_ROWS`]; the rest of it is not loaded.
fn limit_rows(sources: &[Source], file: usize, doc: &mut FileDoc, diags: &mut Vec<Diagnostic>) {
    let mut over = |what: &str, n: usize, span: std::ops::Range<usize>| {
        diags.push(
            Diagnostic::error(
                Kind::Schema,
                sources,
                &loc(file, span),
                format!("this {what} has {n} rows; a {what} may have at most {MAX_ROWS}"),
            )
            .with_hint(format!("split the {what}, or roll a smaller die")),
        );
    };
    for t in &mut doc.table {
        let rows = &mut t.get_mut().rows;
        if rows.get_ref().len() > MAX_ROWS {
            over("table", rows.get_ref().len(), rows.span());
            rows.get_mut().truncate(MAX_ROWS);
        }
    }
    for l in &mut doc.lookup {
        let entries = &mut l.get_mut().entries;
        if entries.get_ref().len() > MAX_ROWS {
            over("lookup", entries.get_ref().len(), entries.span());
            entries.get_mut().truncate(MAX_ROWS);
        }
    }
}

/// Whether a character may not appear in content: a control character (C0, DEL, C1) other than tab and
/// line breaks. Such characters print as nothing in a PDF, corrupt Markdown, and act on a terminal (ESC
/// starts escape sequences), so content holding one is refused wherever it comes from.
pub fn forbidden_control(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

/// A control character's name for messages: `U+001B (ESC)`.
fn control_name(c: char) -> String {
    const C0: [&str; 32] = [
        "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "TAB", "LF", "VT", "FF",
        "CR", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM",
        "SUB", "ESC", "FS", "GS", "RS", "US",
    ];
    let code = c as u32;
    let name = match code {
        0..=31 => C0[code as usize],
        127 => "DEL",
        _ => "C1 control",
    };
    format!("U+{code:04X} ({name})")
}

fn control_hint() -> &'static str {
    "delete it: control characters print as nothing in a PDF, break Markdown and act on terminals (often \
     a paste from a terminal or a file saved in the wrong encoding)"
}

/// A diagnostic for the first control character in a file's text (a chapter), counting the rest.
pub(super) fn text_controls(sources: &[Source], file: usize) -> Option<Diagnostic> {
    let text = &sources[file].text;
    let mut found = text.char_indices().filter(|&(_, c)| forbidden_control(c));
    let (at, c) = found.next()?;
    let more = found.count();
    let and = if more > 0 {
        format!(" (and {more} more in this file)")
    } else {
        String::new()
    };
    Some(
        Diagnostic::error(
            Kind::ControlCharacter,
            sources,
            &loc(file, at..at + c.len_utf8()),
            format!("control character {}{and}", control_name(c)),
        )
        .with_hint(control_hint()),
    )
}

/// Diagnostics for control characters in a TOML document's keys and string values (escapes make them;
/// TOML refuses them raw), one for each key or value, at the value.
fn toml_controls(
    sources: &[Source],
    file: usize,
    table: &toml::de::DeTable<'_>,
    out: &mut Vec<Diagnostic>,
) {
    fn check(
        sources: &[Source],
        file: usize,
        s: &str,
        span: std::ops::Range<usize>,
        out: &mut Vec<Diagnostic>,
    ) {
        if let Some(c) = s.chars().find(|&c| forbidden_control(c)) {
            out.push(
                Diagnostic::error(
                    Kind::ControlCharacter,
                    sources,
                    &loc(file, span),
                    format!(
                        "control character {} in `{}`",
                        control_name(c),
                        s.chars()
                            .map(|c| if forbidden_control(c) { '?' } else { c })
                            .take(60)
                            .collect::<String>()
                    ),
                )
                .with_hint(control_hint()),
            );
        }
    }
    fn value(
        sources: &[Source],
        file: usize,
        v: &Spanned<toml::de::DeValue<'_>>,
        out: &mut Vec<Diagnostic>,
    ) {
        match v.get_ref() {
            toml::de::DeValue::String(s) => check(sources, file, s, v.span(), out),
            toml::de::DeValue::Array(items) => {
                for item in items.iter() {
                    value(sources, file, item, out);
                }
            }
            toml::de::DeValue::Table(t) => toml_controls(sources, file, t, out),
            _ => {}
        }
    }
    for (k, v) in table.iter() {
        check(sources, file, k.get_ref(), k.span(), out);
        value(sources, file, v, out);
    }
}

pub(super) fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s).trim()
}

fn error_loc(file: usize, span: Option<std::ops::Range<usize>>, len: usize) -> Loc {
    let span = span.unwrap_or(0..0);
    let start = span.start.min(len);
    Loc {
        file,
        span: start..span.end.clamp(start, len),
    }
}

fn schema_hint(msg: &str) -> String {
    if msg.contains("unknown field") {
        "check the key's spelling; content/README.md lists every key each entry may have".to_owned()
    } else if msg.contains("missing field") {
        "add the missing key; content/README.md lists the required keys".to_owned()
    } else {
        "see content/README.md for the expected shape of this entry".to_owned()
    }
}
