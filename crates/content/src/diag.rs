//! Diagnostics: a problem found in content (file, line, column, what is wrong, how to fix it) and its printers.

use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;
use serde::Serialize;

use crate::Source;

/// How bad a diagnostic is: errors stop every command, warnings are only reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
    /// Not a problem: something `check` tells the author (a table of their own the book leaves out).
    Note,
}

/// What kind of problem a diagnostic reports. The JSON name is the snake_case variant name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A file is not valid TOML (or not UTF-8).
    Parse,
    /// Valid TOML that does not fit the schema: unknown or missing keys, wrong types.
    Schema,
    /// An id that is not a lowercase dotted name.
    BadId,
    DuplicateId,
    /// A table's `dice` or an inline roll that does not parse, or rolls non-whole numbers.
    BadDice,
    /// A row's `on` that is not `N`, `N-M` or `N+`.
    BadRange,
    Gap,
    Overlap,
    OutOfRange,
    UnknownReference,
    /// A chain of `{table:…}` references that leads back to where it started.
    ReferenceCycle,
    /// A `{` without its `}` (or the other way round) in a result text.
    UnbalancedBrace,
    MissingCard,
    DuplicateCard,
    DuplicateKey,
    /// A lookup value that is not of the lookup's `kind`, or a deck rank that is not a card rank.
    BadValue,
    /// `up_to_hours` bands out of order, or an open band that is not last.
    BadBand,
    /// A chapter a book lists that has no file.
    MissingChapter,
    /// A Markdown file beside a book that the book does not list.
    UnlistedChapter,
    /// A table, lookup, deck or the stock NPCs that no chapter places.
    UnplacedTable,
    /// A link in a chapter to a chapter or heading that does not exist.
    BrokenLink,
    /// A row tag that is not a lowercase word.
    BadTag,
    /// Two rows of one table with the same result (allowed: it weights the table).
    DuplicateResult,
    /// A victims row written as table shorthand (`Waiter/waitress`, `heir(ess)`) that a rolled person's
    /// card would print as it stands (a warning).
    RawAlternative,
    /// Something a document kind reads (a table, lookup, key, row tag or book) that content lacks.
    MissingRequirement,
    /// A path under the content root that cannot be content: not a regular file (a named pipe, a device,
    /// a socket), a symbolic link out of the root or in a loop, a folder named like a file, or too large.
    BadFile,
    /// A control character (C0 or C1, DEL; tab and line breaks are fine) in content text.
    ControlCharacter,
    /// Raw HTML in a chapter (HTML comments are fine: no output shows them).
    RawHtml,
    /// A chase track whose spaces are missing or not numbered one after another.
    TrackOrder,
    /// A challenge path that leads to no space of its track, or the wrong way (or past a gate).
    TrackPath,
    /// A chase track with no exit.
    TrackExit,
    /// A start position on no space of its track, or a track where one side has no start.
    TrackStart,
    /// A `[[claimed_odds]]` table that cannot be checked: an unknown `ties`, `rounding` or `counts`, a cell
    /// that is not a percentage as the table prints them, a row with more or fewer cells than columns, or
    /// contests in one column that disagree with each other.
    BadClaim,
    /// Block quotes, lists, emphasis and links in a chapter nested deeper than every output can set.
    TooDeep,
    /// A note, not a problem: a table of the GM's own (outside the rules' namespaces, or imported) that no
    /// chapter places, and what the book does with it.
    OwnTable,
    /// Something in a table that an export cannot write as the content means it, and has no other way
    /// to carry (`carry`): dice Foundry VTT or Roll20 would roll differently, odds past Roll20's
    /// weights, one of Roll20's TableExport escape codes.
    Unexportable,
}

impl Kind {
    pub fn name(self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    }
}

/// A place in a content file: which source and which bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loc {
    pub file: usize,
    pub span: Range<usize>,
}

/// One problem, located. `line` and `column` are 1-based; `column` counts characters.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    #[serde(skip)]
    pub severity: Severity,
    pub kind: Kind,
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub table: Option<String>,
    pub message: String,
    pub hint: Option<String>,
    pub outcomes: Vec<i64>,
    #[serde(skip)]
    pub loc: Option<Loc>,
    /// The dice expression the diagnostic points into and the place in it, when it does: the text
    /// report shows the expression under the file's line with the dice crate's caret renderer.
    #[serde(skip)]
    pub dice: Option<DiceSpot>,
}

/// A place in a dice expression: the expression as written (a table's `dice`, an inline roll's text
/// between its braces, a lookup's value) and the bytes of it at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceSpot {
    pub expr: String,
    pub at: Range<usize>,
}

impl DiceSpot {
    /// The note a text report shows: `dice: EXPR` and a caret line under the place, each control
    /// character escaped ([`blockprint_dice::caret`]); its second line lines up under the first's
    /// expression once a report indents it.
    pub fn note(&self) -> String {
        let l = blockprint_dice::caret::locate(&self.expr, self.at.clone(), "", None);
        format!(
            "{DICE_LABEL}{}\n{}{}",
            l.source,
            " ".repeat(DICE_LABEL.len()),
            l.caret
        )
    }
}

/// What a [`DiceSpot::note`]'s first line starts with.
const DICE_LABEL: &str = "dice: ";

impl Diagnostic {
    /// An error at `loc` in `sources`.
    pub fn error(kind: Kind, sources: &[Source], loc: &Loc, message: impl Into<String>) -> Self {
        Self::at(Severity::Error, kind, sources, loc, message.into())
    }

    pub fn warning(kind: Kind, sources: &[Source], loc: &Loc, message: impl Into<String>) -> Self {
        Self::at(Severity::Warning, kind, sources, loc, message.into())
    }

    /// A note at `loc`: no problem, something the author should know.
    pub fn note(kind: Kind, sources: &[Source], loc: &Loc, message: impl Into<String>) -> Self {
        Self::at(Severity::Note, kind, sources, loc, message.into())
    }

    fn at(severity: Severity, kind: Kind, sources: &[Source], loc: &Loc, message: String) -> Self {
        let source = &sources[loc.file];
        let (line, column) = source.line_col(loc.span.start);
        Diagnostic {
            severity,
            kind,
            file: source.path.clone(),
            line,
            column,
            table: None,
            message,
            hint: None,
            outcomes: Vec::new(),
            loc: Some(loc.clone()),
            dice: None,
        }
    }

    /// An error with no place in any file (something the content lacks entirely).
    pub fn unlocated(kind: Kind, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            kind,
            file: String::new(),
            line: 0,
            column: 0,
            table: None,
            message: message.into(),
            hint: None,
            outcomes: Vec::new(),
            loc: None,
            dice: None,
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn with_table(mut self, id: &str) -> Self {
        self.table = Some(id.to_owned());
        self
    }

    /// The diagnostic points at the bytes `at` of the dice expression `expr` (see [`DiceSpot`]).
    pub fn in_dice(mut self, expr: &str, at: Range<usize>) -> Self {
        self.dice = Some(DiceSpot {
            expr: expr.to_owned(),
            at,
        });
        self
    }

    pub fn with_outcomes(mut self, outcomes: Vec<i64>) -> Self {
        self.outcomes = outcomes;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    pub fn is_warning(&self) -> bool {
        self.severity == Severity::Warning
    }

    pub fn is_note(&self) -> bool {
        self.severity == Severity::Note
    }
}

/// Sort diagnostics into a stable reading order: by file, then position, then kind.
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| {
        (&a.file, a.line, a.column, a.kind, &a.message)
            .cmp(&(&b.file, b.line, b.column, b.kind, &b.message))
    });
}

/// Render diagnostics rustc-style: header, `file:line:col`, the source line and a caret under the place.
pub fn render_text(diags: &[Diagnostic], sources: &[Source]) -> String {
    render_text_styled(diags, sources, false)
}

/// [`render_text`], in colour when `colour` is set (for a terminal): the same text with ANSI styles, as
/// rustc and cargo colour theirs (codespan's styles: the severity and code bold red or yellow, the
/// message bold, the gutter and notes' `=` cyan, the caret in the severity's colour). Everything taken
/// from content (messages, hints, file names, source lines) is made [`visible`] first, so the only
/// escape sequences in the result are the styles.
pub fn render_text_styled(diags: &[Diagnostic], sources: &[Source], colour: bool) -> String {
    let mut files = SimpleFiles::new();
    for s in sources {
        files.add(visible(&s.path), same_length_visible(&s.text));
    }
    let config = term::Config::default();
    let mut out = String::new();
    for d in diags {
        let mut cs = match d.severity {
            Severity::Error => CsDiagnostic::error(),
            Severity::Warning => CsDiagnostic::warning(),
            Severity::Note => CsDiagnostic::note(),
        }
        .with_code(d.kind.name())
        .with_message(visible(&d.message));
        if let Some(loc) = &d.loc {
            let span = if loc.span.is_empty() {
                loc.span.start..loc.span.start
            } else {
                loc.span.clone()
            };
            cs = cs.with_labels(vec![Label::primary(loc.file, span)]);
        }
        let mut notes = Vec::new();
        if let Some(spot) = &d.dice {
            notes.push(spot.note());
        }
        if let Some(h) = &d.hint {
            notes.push(format!("help: {}", visible(h)));
        }
        cs = cs.with_notes(notes);
        let rendered = if colour {
            let mut w = term::termcolor::Ansi::new(Vec::new());
            term::emit_to_write_style(&mut w, &config, &files, &cs)
                .map(|()| String::from_utf8_lossy(&w.into_inner()).into_owned())
        } else {
            term::emit_into_string(&config, &files, &cs).map(|s| visible(&s))
        };
        match rendered {
            Ok(s) => out.push_str(&s),
            // A span the file no longer has: fall back to the plain location.
            Err(_) => out.push_str(&paint(
                &visible(&format!(
                    "{}[{}]: {}\n  --> {}:{}:{}\n",
                    sev(d),
                    d.kind.name(),
                    d.message,
                    d.file,
                    d.line,
                    d.column
                )),
                colour,
            )),
        }
    }
    out
}

/// A message for a terminal with the headers of its lines in the styles of [`render_text_styled`]:
/// `error:`, `error[kind]:`, `warning…:` and `internal error…:` at the start of a line (bold red or
/// yellow, the rest of that line bold), and the `=` of `  = help:` lines (cyan). Lines that already hold
/// styles, and all of `text` when `colour` is off, are left as they are.
pub fn paint(text: &str, colour: bool) -> String {
    if !colour {
        return text.to_owned();
    }
    text.split_inclusive('\n').map(paint_line).collect()
}

fn paint_line(line: &str) -> String {
    use std::io::Write;
    use term::termcolor::{Ansi, ColorSpec, WriteColor};

    fn styled(w: &mut Ansi<Vec<u8>>, spec: &ColorSpec, text: &str) {
        let _ = w.set_color(spec);
        let _ = w.write_all(text.as_bytes());
        let _ = w.reset();
    }
    let (body, end) = match line.strip_suffix('\n') {
        Some(b) => (b, "\n"),
        None => (line, ""),
    };
    let styles = term::Styles::default();
    let mut w = Ansi::new(Vec::new());
    if let Some((head, msg)) = body.split_once(':')
        && let Some(severity) = header_severity(head)
    {
        styled(&mut w, styles.header(severity), head);
        styled(&mut w, styles.header_message(), &format!(":{msg}"));
    } else if let Some(rest) = body.trim_start_matches(' ').strip_prefix("= ") {
        let indent = &body[..body.len() - rest.len() - 2];
        let _ = w.write_all(indent.as_bytes());
        styled(&mut w, styles.note_bullet(), "=");
        let _ = w.write_all(format!(" {rest}").as_bytes());
    } else {
        return line.to_owned();
    }
    String::from_utf8_lossy(&w.into_inner()).into_owned() + end
}

/// The severity a line's head (what comes before its first `:`) announces: `error`, `error[kind]`,
/// `warning`, `warning[kind]`, `internal error`, `internal error (…)`.
fn header_severity(head: &str) -> Option<codespan_reporting::diagnostic::Severity> {
    use codespan_reporting::diagnostic::Severity as Cs;
    for (word, severity) in [
        ("internal error", Cs::Bug),
        ("error", Cs::Error),
        ("warning", Cs::Warning),
        ("note", Cs::Note),
    ] {
        if let Some(rest) = head.strip_prefix(word) {
            let tagged = (rest.starts_with('[') && rest.ends_with(']'))
                || (rest.starts_with(" (") && rest.ends_with(')'));
            if rest.is_empty() || tagged {
                return Some(severity);
            }
        }
    }
    None
}

/// Text safe for a terminal: control characters (but tab and line breaks) written out as `\u{1b}`, so
/// content never sends an escape sequence to the terminal that shows its diagnostics.
pub fn visible(s: &str) -> String {
    if !s.chars().any(crate::forbidden_control) {
        return s.to_owned();
    }
    s.chars()
        .map(|c| {
            if crate::forbidden_control(c) {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A source text for quoting under a diagnostic: each control character replaced by as many `?` as it
/// has bytes, so every byte offset (the diagnostic's span) still points at the same place.
fn same_length_visible(s: &str) -> String {
    if !s.chars().any(crate::forbidden_control) {
        return s.to_owned();
    }
    s.chars()
        .map(|c| {
            if crate::forbidden_control(c) {
                "?".repeat(c.len_utf8())
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn sev(d: &Diagnostic) -> &'static str {
    match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// `{"errors": [D…], "warnings": [D…], "notes": [D…]}`.
pub fn render_json(diags: &[Diagnostic]) -> serde_json::Value {
    let of = |s: Severity| diags.iter().filter(|d| d.severity == s).collect::<Vec<_>>();
    serde_json::json!({
        "errors": of(Severity::Error),
        "warnings": of(Severity::Warning),
        "notes": of(Severity::Note),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dice_spot_shows_the_expression_escaped_with_a_caret_under_the_place() {
        let spot = DiceSpot {
            expr: "2d6\u{7}+1".into(),
            at: 3..4,
        };
        assert_eq!(spot.note(), "dice: 2d6\\u{7}+1\n         ^^^^^");
        let text = render_text(
            &[Diagnostic::unlocated(Kind::BadDice, "unexpected `\\u{7}`").in_dice("1d", 1..2)],
            &[],
        );
        assert_eq!(
            text,
            "error[bad_dice]: unexpected `\\u{7}`\n = dice: 1d\n          ^\n\n"
        );
    }
}
