//! The state file, `DIR/campaign.toml`: the setup, the command log (`[[command]]`, what blockprint replays)
//! and the state the log works out to (for people, and checked against the replay on every load). Written
//! atomically, with the previous good state kept beside it as `campaign.prev.toml`. A file that does not
//! parse, does not fit the schema, holds a command that cannot be applied, or whose derived part does not
//! follow from its log is reported at its place (`file:line:col`, with the line quoted) and left as it is.
//!
//! The setup is fixed once the campaign has begun: the file keeps the sha256 of the setup its rolls were
//! made with (`setup_digest`, which no line edit of `[setup]` can follow) and a copy of that setup on one
//! line (`recorded_setup`, for naming what changed; a copy edited too is known by its digest). A `[setup]`
//! whose digest differs is a [`SetupChange`], which the command line refuses (naming what changed and
//! what it would change) unless told to rewrite the history.

use std::ops::Range;
use std::path::{Path, PathBuf};

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;
use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::{
    Calendar, Case, Derived, Detective, MonthResult, PREVIOUS_FILE, ReplayError, Roll, STATE_FILE,
    Setup, Step, YearResult,
};
use crate::error::{Problem, invariant, write};
use blockprint_content::Library;
use blockprint_content::error::{Error, Result};
use blockprint_kind::sink::{Line, Part};

/// A loaded, replayed campaign.
#[derive(Debug, Clone)]
pub struct Campaign {
    pub dir: PathBuf,
    pub setup: Setup,
    pub steps: Vec<Step>,
    pub derived: Derived,
}

/// A state file that cannot be used: the located report (for stderr; its help may name an option of
/// [`OPTIONS`], which a front names its way) and a one-line summary.
#[derive(Debug, Clone)]
pub struct StateError {
    pub rendered: Line,
    pub summary: String,
}

/// The options a state file's report can advise, by id: rewriting the history with a changed setup
/// (the campaign commands' `--rewrite-history`), the content folder (`--content`).
pub const OPTIONS: [&str; 2] = [REWRITE_HISTORY, CONTENT];
const REWRITE_HISTORY: &str = "rewrite_history";
const CONTENT: &str = "content";

/// Why a campaign could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// No state file, or it cannot be read (usage or I/O: exit 2).
    Io(Error),
    /// The file is there but invalid (exit 1).
    State(StateError),
    /// The setup was changed after the campaign began (exit 1, unless the history is to be rewritten).
    SetupChanged(Box<SetupChange>),
}

/// A `[setup]` that differs from the one the campaign's rolls were made with.
#[derive(Debug, Clone)]
pub struct SetupChange {
    /// What changed, each as `seed 42 → 43`.
    pub changes: Vec<String>,
    /// The setup the campaign was recorded with, when its copy in the file is intact.
    pub recorded: Option<Setup>,
    /// The setup in the file now.
    pub setup: Setup,
    pub steps: Vec<Step>,
    /// The campaign as recorded (the log replayed with the recorded setup), if the log still replays so.
    pub before: Option<Derived>,
    /// The campaign with the changed setup, or why the log does not replay with it.
    pub after: std::result::Result<Derived, ReplayError>,
    /// The located report (for stderr) and a one-line summary.
    pub error: StateError,
}

impl SetupChange {
    /// `seed 42 → 43, paper a4 → letter`.
    pub fn what(&self) -> String {
        if self.recorded.is_none() {
            return "the recorded copy (recorded_setup) was edited as well, so what the setup was cannot be named".into();
        }
        self.changes.join(", ")
    }

    /// What the change does to the recorded history: `19 of the 20 recorded rolls come out differently,
    /// and 5 of the 5 cases differ (…)`, or with `would`, `… would come out differently …`.
    pub fn consequences(&self, would: bool) -> String {
        let (Some(before), Ok(after)) = (&self.before, &self.after) else {
            return match &self.after {
                Err(e) => format!("the log no longer replays: {e}"),
                Ok(_) if would => "which of the recorded rolls would change cannot be told".into(),
                Ok(_) => "which of the recorded rolls changed cannot be told".into(),
            };
        };
        history_change(before, after, would)
    }
}

/// How many recorded rolls and cases come out otherwise in `after`, in words.
fn history_change(before: &Derived, after: &Derived, would: bool) -> String {
    let key = |r: &Roll| {
        (
            r.purpose.clone(),
            r.stream.clone(),
            r.dice.clone(),
            r.result,
        )
    };
    let rolls = (0..before.rolls.len())
        .filter(|&i| after.rolls.get(i).map(key) != Some(key(&before.rolls[i])))
        .count();
    let case_key = |c: &Case| (c.number.clone(), c.seed, c.came_in.clone(), c.lead.clone());
    let cases = (0..before.cases.len())
        .filter(|&i| after.cases.get(i).map(case_key) != Some(case_key(&before.cases[i])))
        .count();
    let (come, differ) = if would {
        ("would come out", "would differ")
    } else {
        ("come out", "differ")
    };
    let mut out = match rolls {
        0 if would => "no recorded roll would change".to_owned(),
        0 => "no recorded roll changes".to_owned(),
        n => format!(
            "{n} of the {} recorded rolls {come} differently",
            before.rolls.len()
        ),
    };
    if cases > 0 {
        out.push_str(&format!(
            ", and {cases} of the {} cases {differ} (number, date, lead or contents)",
            before.cases.len()
        ));
    }
    out
}

/// The setup field by field, for naming what changed: (key, the value in words, the value as the file
/// writes it).
fn setup_fields(s: &Setup) -> Vec<(&'static str, String, String)> {
    let squad = if s.detectives.is_empty() {
        "none".to_owned()
    } else {
        s.detectives
            .iter()
            .map(|m| match &m.assignment {
                Some(a) => format!("{}={a}", m.name),
                None => m.name.clone(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let packets = if s.packets.is_empty() {
        "none".to_owned()
    } else {
        s.packets
            .iter()
            .map(|f| {
                toml::Value::try_from(f)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    vec![
        ("year", s.year.to_string(), toml_of(&s.year)),
        ("seed", s.seed.to_string(), toml_of(&s.seed)),
        ("paper", s.paper.name().to_owned(), toml_of(&s.paper)),
        ("packets", packets, toml_of(&s.packets)),
        ("detectives", squad, String::new()),
        ("roll", s.roll.to_string(), toml_of(&s.roll)),
    ]
}

/// A value as TOML writes it (`42`, `"a4"`, `["json"]`).
fn toml_of<T: Serialize>(v: &T) -> String {
    toml::Value::try_from(v)
        .map(|v| v.to_string())
        .unwrap_or_default()
}

#[derive(Serialize)]
struct Out<'a> {
    blockprint: &'a str,
    content_version: &'a str,
    log_digest: String,
    setup_digest: String,
    recorded_setup: String,
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
    /// Both missing in files of earlier versions: their `[setup]` counts as the recorded one.
    #[serde(default)]
    setup_digest: Option<String>,
    #[serde(default)]
    recorded_setup: Option<Spanned<String>>,
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
# log is unchanged. setup_digest and recorded_setup record the setup the campaign's rolls were made with: a
# [setup] changed after the campaign began is refused, unless a command is given --rewrite-history (which
# replays the whole log with the changed setup). The previous good state is kept in campaign.prev.toml.
";

/// The text of a state file.
pub fn render(lib: &Library, setup: &Setup, steps: &[Step], d: &Derived) -> Result<String> {
    let cal = d
        .calendar
        .as_ref()
        .ok_or_else(|| invariant("a campaign without a calendar"))?;
    let out = Out {
        blockprint: env!("CARGO_PKG_VERSION"),
        content_version: &lib.version,
        log_digest: log_digest(setup, steps),
        setup_digest: setup_digest(setup),
        recorded_setup: serde_json::to_string(setup).map_err(|e| write("the campaign setup", e))?,
        setup,
        command: steps,
        calendar: cal,
        detective: &d.detectives,
        case: &d.cases,
        month: &d.months,
        year: &d.years,
        roll: &d.rolls,
    };
    let body = toml::to_string(&out).map_err(|e| write("the campaign state", e))?;
    Ok(format!("{HEADER}\n{body}"))
}

/// The sha256 of the setup and the log: a file whose log no longer has the digest it was written with
/// had its log edited, and its derived part is worked out again rather than checked.
pub fn log_digest(setup: &Setup, steps: &[Step]) -> String {
    let text = serde_json::to_string(&(setup, steps)).unwrap_or_default();
    blockprint_render::manifest::sha256(text.as_bytes())
}

/// The sha256 of a setup alone: a `[setup]` whose digest is not the file's `setup_digest` was changed
/// after the campaign began.
pub fn setup_digest(setup: &Setup) -> String {
    let text = serde_json::to_string(setup).unwrap_or_default();
    blockprint_render::manifest::sha256(text.as_bytes())
}

/// Write the state atomically; the file it replaces (a good state: it was loaded) is kept as
/// `campaign.prev.toml` first.
pub fn save(dir: &Path, text: &str) -> Result<()> {
    save_keeping(dir, text, None)
}

/// [`save`], keeping `previous` as `campaign.prev.toml` instead of the file it replaces (when that file
/// is not a good state: a rewritten history keeps the campaign as it stood before the change).
pub fn save_keeping(dir: &Path, text: &str, previous: Option<&str>) -> Result<()> {
    let path = dir.join(STATE_FILE);
    let prev = dir.join(PREVIOUS_FILE);
    let old = match previous {
        Some(p) => Some(p.as_bytes().to_vec()),
        None => std::fs::read(&path).ok(),
    };
    if let Some(old) = old {
        blockprint_render::output::write_atomic(&prev, &old).map_err(|e| Error::io(&prev, e))?;
    }
    blockprint_render::output::write_atomic(&path, text.as_bytes()).map_err(|e| Error::io(&path, e))
}

/// The command that puts `DIR/campaign.prev.toml` back as `DIR/campaign.toml`, as a shell takes it:
/// `cp DIR/campaign.prev.toml DIR/campaign.toml` (on Windows, `copy "…" "…"`).
pub fn restore_command(dir: &Path) -> String {
    let (from, to) = (dir.join(PREVIOUS_FILE), dir.join(STATE_FILE));
    if cfg!(windows) {
        format!("copy \"{}\" \"{}\"", from.display(), to.display())
    } else {
        format!(
            "cp {} {}",
            shell_word(&from.display().to_string()),
            shell_word(&to.display().to_string())
        )
    }
}

/// A word as a POSIX shell reads it back: as it is when it holds nothing the shell treats specially,
/// else in single quotes.
fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,:@%=".contains(c));
    if plain {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// Why a folder holds no usable state file although `campaign.prev.toml` is there: what the backup
/// holds and the exact copy that restores it.
fn missing_with_backup(dir: &Path, lib: &Library) -> Problem {
    let prev = dir.join(PREVIOUS_FILE);
    let holds = match std::fs::read_to_string(&prev)
        .ok()
        .map(|text| parse(&prev, &text, lib))
    {
        Some(Ok((_, steps, _))) => match steps.last() {
            None => "it holds the campaign as `campaign new` began it, before any command".to_owned(),
            Some(last) => format!(
                "it holds {} command{} (the last: `{}`)",
                steps.len(),
                if steps.len() == 1 { "" } else { "s" },
                last.describe()
            ),
        },
        _ => "it cannot be loaded as it is either; restore it all the same and the next command says where it is wrong".to_owned(),
    };
    Problem::CampaignStateGone {
        dir: dir.to_owned(),
        state: STATE_FILE,
        previous: prev,
        holds,
        restore: restore_command(dir),
    }
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
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && dir.join(PREVIOUS_FILE).is_file() => {
            return Err(LoadError::Io(missing_with_backup(dir, lib).into()));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(LoadError::Io(
                Problem::NoCampaign {
                    dir: dir.to_owned(),
                }
                .into(),
            ));
        }
        Err(e) => return Err(LoadError::Io(Error::io(&path, e))),
    };
    parse(&path, &text, lib).map(|(setup, steps, derived)| Campaign {
        dir: dir.to_owned(),
        setup,
        steps,
        derived,
    })
}

/// Parse, replay and check a state file's text.
pub fn parse(
    path: &Path,
    text: &str,
    lib: &Library,
) -> std::result::Result<(Setup, Vec<Step>, Derived), LoadError> {
    let file: In = toml::from_str(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        LoadError::State(located(path, text, span, e.message().trim(), None))
    })?;
    let setup = file.setup.get_ref().clone();
    let steps: Vec<Step> = file.command.iter().map(|s| s.get_ref().clone()).collect();
    // The copy of the setup the campaign was recorded with, if it is intact (its digest is the file's).
    let copy: Option<Setup> = file
        .recorded_setup
        .as_ref()
        .and_then(|s| serde_json::from_str(s.get_ref()).ok());
    let digest = setup_digest(&setup);
    match file.setup_digest.as_deref() {
        // A file of an earlier version: its setup counts as the recorded one.
        None => {}
        Some(d) if d == digest && copy.as_ref() == Some(&setup) => {}
        Some(d) if d == digest => {
            let span = file.recorded_setup.as_ref().map_or(0..0, |s| s.span());
            return Err(LoadError::State(located(
                path,
                text,
                span,
                "recorded_setup is not the setup this file was written with",
                Some(Line::from(
                    "it records the setup the campaign's rolls were made with and must not be edited; undo the edit (the previous good state is in campaign.prev.toml)".to_owned(),
                )),
            )));
        }
        Some(d) => {
            let recorded = copy.filter(|c| setup_digest(c) == d);
            return Err(LoadError::SetupChanged(Box::new(setup_change(
                path, text, lib, &file, recorded, steps,
            ))));
        }
    }
    parse_checked(path, text, lib, &file, setup, steps).map_err(LoadError::State)
}

/// A `[setup]` that is not the recorded one: what changed, located at the first changed line, and the
/// campaign before and after.
fn setup_change(
    path: &Path,
    text: &str,
    lib: &Library,
    file: &In,
    recorded: Option<Setup>,
    steps: Vec<Step>,
) -> SetupChange {
    let setup = file.setup.get_ref().clone();
    let mut changes = Vec::new();
    let mut put_back = Vec::new();
    let mut first_key = None;
    if let Some(recorded) = &recorded {
        let (old, new) = (setup_fields(recorded), setup_fields(&setup));
        for ((key, was, was_toml), (_, now, _)) in old.iter().zip(&new) {
            if was != now {
                changes.push(format!("{key} {was} → {now}"));
                put_back.push(match *key {
                    "detectives" => format!("the [[setup.detectives]] entries {was}"),
                    "roll" if recorded.roll == 0 => "no `roll` line".to_owned(),
                    _ => format!("{key} = {was_toml}"),
                });
                first_key.get_or_insert(*key);
            }
        }
    } else {
        put_back.push(format!("{PREVIOUS_FILE} holds an earlier copy of it"));
    }
    let before = recorded
        .as_ref()
        .and_then(|r| super::replay(lib, r, &steps).ok());
    let after = super::replay(lib, &setup, &steps);
    let mut change = SetupChange {
        changes,
        recorded,
        setup,
        steps,
        before,
        after,
        error: StateError {
            rendered: Line::from(String::new()),
            summary: String::new(),
        },
    };
    let span = setup_line(text, file.setup.span(), first_key);
    let message = format!(
        "the setup changed after the campaign began: {}",
        change.what()
    );
    let head = format!(
        "with the changed setup, {}. Put the setup back as it was ({}), or run the command again ",
        change.consequences(true),
        put_back.join(", ")
    );
    let tail = format!(
        " to replay the whole log with the changed setup (the campaign as recorded is then kept in \
         {PREVIOUS_FILE})"
    );
    let help = Line::new(
        format!("{head}rewriting the history{tail}"),
        vec![
            Part::Text(format!("{head}with ")),
            Part::Option(REWRITE_HISTORY),
            Part::Text(tail),
        ],
    );
    let (line, col) = line_col(text, span.start);
    let mut error = located(path, text, span, &message, Some(help));
    error.summary = format!(
        "{}:{line}:{col}: the setup changed after the campaign began; nothing was written",
        path.display()
    );
    change.error = error;
    change
}

/// Where the report points: the line of `key` in the `[setup]` table (the first `[[setup.detectives]]`
/// for the squad), else the table's first line.
fn setup_line(text: &str, setup: Range<usize>, key: Option<&str>) -> Range<usize> {
    let start = setup.start.min(text.len());
    let line_at = |at: usize| at..text[at..].find('\n').map_or(text.len(), |n| at + n);
    let Some(key) = key else {
        return line_at(start);
    };
    let mut at = start;
    for line in text[start..].split_inclusive('\n') {
        let l = line.trim_start();
        if l.starts_with('[') && at > start && !l.starts_with("[[setup.") {
            break;
        }
        let hit = if key == "detectives" {
            l.starts_with("[[setup.detectives]]")
        } else {
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        };
        if hit {
            return line_at(at);
        }
        at += line.len();
    }
    line_at(start)
}

/// Replay a file whose setup is the recorded one, and check its derived part.
fn parse_checked(
    path: &Path,
    text: &str,
    lib: &Library,
    file: &In,
    setup: Setup,
    steps: Vec<Step>,
) -> std::result::Result<(Setup, Vec<Step>, Derived), StateError> {
    let d = super::replay(lib, &setup, &steps).map_err(|e| match e.command {
        None => located(path, text, file.setup.span(), &e.to_string(), None),
        Some((n, _)) => located(
            path,
            text,
            file.command[n - 1].span(),
            &e.to_string(),
            Some(Line::from(
                "remove or correct this [[command]] entry; the previous good state is in campaign.prev.toml".to_owned(),
            )),
        ),
    })?;
    // An edited log (its digest changed) is the user's instruction: what follows from it is worked out
    // again and written by the next command. Only a derived part edited under an unchanged log is refused.
    if file.log_digest.as_deref() != Some(log_digest(&setup, &steps).as_str()) {
        return Ok((setup, steps, d));
    }
    let changed = file.content_version != lib.version;
    let hint = if changed {
        let head = format!(
            "the content changed since this state was written (version {} then, {} now), which changes what rolls on its tables; use the content of then",
            file.content_version, lib.version
        );
        let tail = ", or edit the [[command]] log and leave this part to blockprint";
        Line::new(
            format!("{head} (the content folder it was written with){tail}"),
            vec![
                Part::Text(format!("{head} (")),
                Part::Option(CONTENT),
                Part::Text(format!("){tail}")),
            ],
        )
    } else {
        Line::from("this part is worked out from the [[command]] log and must not be edited; undo the edit (the previous good state is in campaign.prev.toml) or edit the log instead".to_owned())
    };
    let mismatch = |span: Range<usize>, what: &str| {
        located(
            path,
            text,
            span,
            &format!("{what} does not follow from the command log"),
            Some(hint.clone()),
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

/// A located report: `error[campaign_state]`, `--> file:line:col`, the line with a caret, the help (which
/// may name an option, as a front names it).
fn located(
    path: &Path,
    text: &str,
    span: Range<usize>,
    message: &str,
    help: Option<Line>,
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
    if let Some(h) = &help {
        d = d.with_notes(vec![format!("help: {}", h.text())]);
    }
    let rendered = term::emit_into_string(&term::Config::default(), &files, &d)
        .map(|s| blockprint_content::diag::visible(&s))
        .unwrap_or_else(|_| format!("error[campaign_state]: {message}\n  --> {name}\n"));
    let (line, col) = line_col(text, start);
    StateError {
        rendered: match help {
            Some(h) => with_help(rendered, &h),
            None => Line::from(rendered),
        },
        summary: format!(
            "{name}:{line}:{col}: the campaign state cannot be used; it is left as it is (the previous good state, if any, is in {PREVIOUS_FILE})"
        ),
    }
}

/// `rendered`, a report whose last note is `help` in its words, as a line whose help is worded as a front
/// words it (its options by their names).
fn with_help(rendered: String, help: &Line) -> Line {
    use blockprint_content::diag::visible;
    let words = visible(help.text());
    let Some(at) = rendered
        .rfind(&words)
        .filter(|_| !help.options().is_empty())
    else {
        return Line::from(rendered);
    };
    let mut parts = vec![Part::Text(rendered[..at].to_owned())];
    parts.extend(help.parts().iter().map(|p| match p {
        Part::Text(t) => Part::Text(visible(t)),
        option => option.clone(),
    }));
    parts.push(Part::Text(rendered[at + words.len()..].to_owned()));
    Line::new(rendered, parts)
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}
