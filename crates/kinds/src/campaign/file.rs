//! The state file, `DIR/campaign.toml`: the setup, the command log (`[[command]]`, what blockprint replays)
//! and the state the log works out to (for people, and checked against the replay on every load). Written
//! atomically, with the previous good state kept beside it as `campaign.prev.toml`. A file that does not
//! parse, does not fit the schema, holds a command that cannot be applied, or whose derived part does not
//! follow from its log is reported at its place (`file:line:col`, with the line quoted) and left as it is.

use std::ops::Range;
use std::path::{Path, PathBuf};

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;
use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::{
    Calendar, Case, Derived, Detective, MonthResult, PREVIOUS_FILE, Roll, STATE_FILE, Setup, Step,
    YearResult,
};
use blockprint_content::Library;
use blockprint_content::error::{Error, Result};

/// A loaded, replayed campaign.
#[derive(Debug, Clone)]
pub struct Campaign {
    pub dir: PathBuf,
    pub setup: Setup,
    pub steps: Vec<Step>,
    pub derived: Derived,
}

/// A state file that cannot be used: the located report (for stderr) and a one-line summary.
#[derive(Debug, Clone)]
pub struct StateError {
    pub rendered: String,
    pub summary: String,
}

/// Why a campaign could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// No state file, or it cannot be read (usage or I/O: exit 2).
    Io(Error),
    /// The file is there but invalid (exit 1).
    State(StateError),
}

#[derive(Serialize)]
struct Out<'a> {
    blockprint: &'a str,
    content_version: &'a str,
    log_digest: String,
    setup: &'a Setup,
    #[serde(skip_serializing_if = "<[Step]>::is_empty")]
    command: &'a [Step],
    calendar: &'a Calendar,
    detective: &'a [Detective],
    case: &'a [Case],
    #[serde(skip_serializing_if = "<[MonthResult]>::is_empty")]
    month: &'a [MonthResult],
    #[serde(skip_serializing_if = "<[YearResult]>::is_empty")]
    year: &'a [YearResult],
    #[serde(skip_serializing_if = "<[Roll]>::is_empty")]
    roll: &'a [Roll],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct In {
    #[allow(dead_code)]
    blockprint: String,
    content_version: String,
    #[serde(default)]
    log_digest: Option<String>,
    setup: Spanned<Setup>,
    #[serde(default)]
    command: Vec<Spanned<Step>>,
    calendar: Spanned<Calendar>,
    #[serde(default)]
    detective: Vec<Spanned<Detective>>,
    #[serde(default)]
    case: Vec<Spanned<Case>>,
    #[serde(default)]
    month: Vec<Spanned<MonthResult>>,
    #[serde(default)]
    year: Vec<Spanned<YearResult>>,
    #[serde(default)]
    roll: Vec<Spanned<Roll>>,
}

const HEADER: &str = "\
# A Block by Block campaign kept by blockprint (`blockprint campaign --help`).
# [setup] and the [[command]] log are what blockprint replays: every command adds to the log, and
# `blockprint campaign undo DIR` drops its last entry. Everything below the log is worked out from it: an
# edited log is replayed (the next command rewrites the rest), but an edit below it is refused as long as the
# log is unchanged. The previous good state is kept in campaign.prev.toml.
";

/// The text of a state file.
pub fn render(lib: &Library, setup: &Setup, steps: &[Step], d: &Derived) -> Result<String> {
    let cal = d
        .calendar
        .as_ref()
        .ok_or_else(|| Error::Bug("a campaign without a calendar".into()))?;
    let out = Out {
        blockprint: env!("CARGO_PKG_VERSION"),
        content_version: &lib.version,
        log_digest: log_digest(setup, steps),
        setup,
        command: steps,
        calendar: cal,
        detective: &d.detectives,
        case: &d.cases,
        month: &d.months,
        year: &d.years,
        roll: &d.rolls,
    };
    let body = toml::to_string(&out)
        .map_err(|e| Error::Bug(format!("cannot write the campaign state: {e}")))?;
    Ok(format!("{HEADER}\n{body}"))
}

/// The sha256 of the setup and the log: a file whose log no longer has the digest it was written with
/// had its log edited, and its derived part is worked out again rather than checked.
pub fn log_digest(setup: &Setup, steps: &[Step]) -> String {
    let text = serde_json::to_string(&(setup, steps)).unwrap_or_default();
    blockprint_render::manifest::sha256(text.as_bytes())
}

/// Write the state atomically; the file it replaces (a good state: it was loaded) is kept as
/// `campaign.prev.toml` first.
pub fn save(dir: &Path, text: &str) -> Result<()> {
    let path = dir.join(STATE_FILE);
    if let Ok(old) = std::fs::read(&path) {
        let prev = dir.join(PREVIOUS_FILE);
        blockprint_render::output::write_atomic(&prev, &old).map_err(|e| Error::io(&prev, e))?;
    }
    blockprint_render::output::write_atomic(&path, text.as_bytes()).map_err(|e| Error::io(&path, e))
}

/// Load `DIR/campaign.toml` and replay it against `lib`.
pub fn load(dir: &Path, lib: &Library) -> std::result::Result<Campaign, LoadError> {
    let path = dir.join(STATE_FILE);
    let text = match std::fs::read(&path) {
        Ok(b) => String::from_utf8(b).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            LoadError::State(located(
                &path,
                &text,
                at..at + 1,
                "the file is not UTF-8 text",
                None,
            ))
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(LoadError::Io(Error::Usage(format!(
                "{} holds no campaign ({STATE_FILE} is missing); start one with `blockprint campaign new {}`",
                dir.display(),
                dir.display()
            ))));
        }
        Err(e) => return Err(LoadError::Io(Error::io(&path, e))),
    };
    parse(&path, &text, lib)
        .map(|(setup, steps, derived)| Campaign {
            dir: dir.to_owned(),
            setup,
            steps,
            derived,
        })
        .map_err(LoadError::State)
}

/// Parse, replay and check a state file's text.
pub fn parse(
    path: &Path,
    text: &str,
    lib: &Library,
) -> std::result::Result<(Setup, Vec<Step>, Derived), StateError> {
    let file: In = toml::from_str(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        located(path, text, span, e.message().trim(), None)
    })?;
    let setup = file.setup.get_ref().clone();
    let steps: Vec<Step> = file.command.iter().map(|s| s.get_ref().clone()).collect();
    let d = super::replay(lib, &setup, &steps).map_err(|(at, e)| match at {
        None => located(
            path,
            text,
            file.setup.span(),
            &format!("this setup cannot start a campaign: {}", e.0),
            None,
        ),
        Some(i) => located(
            path,
            text,
            file.command[i].span(),
            &format!(
                "command {} of the log (`{}`) cannot be applied: {}",
                i + 1,
                steps[i].describe(),
                e.0
            ),
            Some("remove or correct this [[command]] entry; the previous good state is in campaign.prev.toml"),
        ),
    })?;
    // An edited log (its digest changed) is the user's instruction: what follows from it is worked out
    // again and written by the next command. Only a derived part edited under an unchanged log is refused.
    if file.log_digest.as_deref() != Some(log_digest(&setup, &steps).as_str()) {
        return Ok((setup, steps, d));
    }
    let changed = file.content_version != lib.version;
    let hint = if changed {
        format!(
            "the content changed since this state was written (version {} then, {} now), which changes what rolls on its tables; use the content of then (--content), or edit the [[command]] log and leave this part to blockprint",
            file.content_version, lib.version
        )
    } else {
        "this part is worked out from the [[command]] log and must not be edited; undo the edit (the previous good state is in campaign.prev.toml) or edit the log instead".to_owned()
    };
    let mismatch = |span: Range<usize>, what: &str| {
        located(
            path,
            text,
            span,
            &format!("{what} does not follow from the command log"),
            Some(&hint),
        )
    };
    let cal = d
        .calendar
        .as_ref()
        .ok_or_else(|| mismatch(file.calendar.span(), "the calendar"))?;
    if file.calendar.get_ref() != cal {
        return Err(mismatch(file.calendar.span(), "the calendar"));
    }
    let end = text.len()..text.len();
    compare(&file.detective, &d.detectives, "detective", &end, &mismatch)?;
    compare(&file.case, &d.cases, "case", &end, &mismatch)?;
    compare(&file.month, &d.months, "month", &end, &mismatch)?;
    compare(&file.year, &d.years, "year", &end, &mismatch)?;
    compare(&file.roll, &d.rolls, "roll", &end, &mismatch)?;
    Ok((setup, steps, d))
}

/// The first entry of a derived list that differs from the replay (or is missing or extra).
fn compare<T: PartialEq>(
    stored: &[Spanned<T>],
    replayed: &[T],
    what: &str,
    end: &Range<usize>,
    mismatch: &impl Fn(Range<usize>, &str) -> StateError,
) -> std::result::Result<(), StateError> {
    for (i, s) in stored.iter().enumerate() {
        match replayed.get(i) {
            Some(r) if r == s.get_ref() => {}
            Some(_) => return Err(mismatch(s.span(), &format!("[[{what}]] entry {}", i + 1))),
            None => {
                return Err(mismatch(
                    s.span(),
                    &format!(
                        "[[{what}]] entry {} (there are only {})",
                        i + 1,
                        replayed.len()
                    ),
                ));
            }
        }
    }
    if replayed.len() > stored.len() {
        let span = stored.last().map_or_else(|| end.clone(), |s| s.span());
        return Err(mismatch(
            span,
            &format!(
                "the [[{what}]] list (it has {}, the log makes {})",
                stored.len(),
                replayed.len()
            ),
        ));
    }
    Ok(())
}

/// A located report: `error[campaign_state]`, `--> file:line:col`, the line with a caret, the help.
fn located(
    path: &Path,
    text: &str,
    span: Range<usize>,
    message: &str,
    help: Option<&str>,
) -> StateError {
    let mut start = span.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = span.end.clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    // Point at the entry's first line, not the whole table.
    if let Some(nl) = text[start..end].find('\n') {
        end = start + nl;
    }
    let name = path.display().to_string();
    let mut files = SimpleFiles::new();
    let id = files.add(
        blockprint_content::diag::visible(&name),
        blockprint_content::diag::visible(text),
    );
    let mut d = Diagnostic::error()
        .with_code("campaign_state")
        .with_message(message)
        .with_labels(vec![Label::primary(id, start..end)]);
    if let Some(h) = help {
        d = d.with_notes(vec![format!("help: {h}")]);
    }
    let rendered = term::emit_into_string(&term::Config::default(), &files, &d)
        .map(|s| blockprint_content::diag::visible(&s))
        .unwrap_or_else(|_| format!("error[campaign_state]: {message}\n  --> {name}\n"));
    let (line, col) = line_col(text, start);
    StateError {
        rendered,
        summary: format!(
            "{name}:{line}:{col}: the campaign state cannot be used; it is left as it is (the previous good state, if any, is in {PREVIOUS_FILE})"
        ),
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}
