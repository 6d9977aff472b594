//! Where a run's news goes: every "wrote …" line, announced seed, skipped kind, warning, page fault and
//! progress step is an [`Event`] handed to a [`Sink`] the caller chose. The library never prints: the
//! command line's sink writes the events to stderr (and draws its progress bar), the studio's collects
//! them and shows them in the page, a test's keeps them to look at.
//!
//! ```
//! use blockprint_kind::sink::{Collector, Event, Sink};
//! let sink = Collector::default();
//! sink.event(Event::Warning("warning: table `x` has no pipe file".into()));
//! assert_eq!(sink.lines(), ["warning: table `x` has no pipe file"]);
//! ```

use std::sync::Mutex;

/// A line of news that speaks of options, by their ids: the library's own words for it
/// ([`Line::text`]: `seed: 7 (regenerate this batch with the seed 7)`) and the same line with each
/// option named as a front names it ([`Line::named`]: the command line's `… with --seed 7`). The library
/// never spells a front's names; a line that speaks of no option is plain text ([`From<String>`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The line in the library's words.
    words: String,
    /// The line as a front words it: text, and options by id.
    parts: Vec<Part>,
}

/// A piece of a [`Line`] as a front words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Text(String),
    /// An option, by its id (`font_path`: the clap argument id, the studio's field name).
    Option(&'static str),
}

impl Line {
    /// A line: `words` in the library's terms, `parts` as a front words it around its names.
    pub fn new(words: impl Into<String>, parts: Vec<Part>) -> Self {
        Line {
            words: words.into(),
            parts,
        }
    }

    /// The line in the library's words.
    pub fn text(&self) -> &str {
        &self.words
    }

    /// The line with each option called what `name` gives for its id.
    pub fn named(&self, name: &dyn Fn(&'static str) -> String) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Text(t) => t.clone(),
                Part::Option(id) => name(id),
            })
            .collect()
    }

    /// The options the line speaks of, by id, in order.
    pub fn options(&self) -> Vec<&'static str> {
        self.parts
            .iter()
            .filter_map(|p| match p {
                Part::Option(id) => Some(*id),
                Part::Text(_) => None,
            })
            .collect()
    }

    /// The pieces of the line as a front words it.
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// The line without the newline it ends with, if it does (in both wordings).
    pub fn without_newline(mut self) -> Self {
        if let Some(w) = self.words.strip_suffix('\n') {
            self.words.truncate(w.len());
            if let Some(Part::Text(t)) = self.parts.last_mut()
                && let Some(kept) = t.strip_suffix('\n')
            {
                t.truncate(kept.len());
            }
        }
        self
    }

    /// The line with `lead` before it, in both wordings (`warning: case (case.typ): `).
    pub fn after(mut self, lead: &str) -> Self {
        self.words.insert_str(0, lead);
        self.parts.insert(0, Part::Text(lead.to_owned()));
        self
    }
}

impl From<String> for Line {
    fn from(s: String) -> Self {
        Line {
            parts: vec![Part::Text(s.clone())],
            words: s,
        }
    }
}

/// One piece of news from a run. Each carries its text worded once, here in the library (a line without
/// its newline), so every front shows the same words; the variant says what it is. A line that speaks of
/// options is a [`Line`], which a front shows with its own names for them ([`Event::named`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Files were written: `wrote case: 3 documents, 12 files (0 already up to date) to out/cases`.
    Wrote(String),
    /// The seed a run uses, announced because the caller gave none: `seed: 7 (regenerate this batch
    /// with the seed 7)`, the command line's `… with --seed 7`; or the seed of the batch a run continues.
    Seed(Line),
    /// A kind a build left out, and why.
    Skipped(String),
    /// Something the user should know that does not stop the run (a table an export leaves out, a
    /// character no font has, a template's warning): `warning: …`.
    Warning(String),
    /// A part of a run that failed while the rest went on (a kind of a build): the error, as the front
    /// would show it.
    Failed(String),
    /// What the page checker found on a page (asked for with [`Sink::checks_pages`]): `kind: file.pdf
    /// p. N at X × Y mm: fault: what: “text”`.
    PageFault(String),
    /// Any other note: which tables came along with an export, that a run waits for a folder's lock, a
    /// run's timings.
    Note(String),
    /// A warning (`warning: …`) or, without `warning`, a note that speaks of options: characters no
    /// font has and the font folders that would have them.
    OptionNote { warning: bool, line: Line },
    /// `done` of `total` documents of `kind` are made (sent after each one, from the worker threads).
    Progress {
        kind: String,
        done: usize,
        total: usize,
    },
}

impl Event {
    /// The event's line, as a front that shows text shows it (progress as `kind: done/total`).
    pub fn text(&self) -> String {
        match self {
            Event::Seed(l) | Event::OptionNote { line: l, .. } => l.text().to_owned(),
            Event::Wrote(t)
            | Event::Skipped(t)
            | Event::Warning(t)
            | Event::Failed(t)
            | Event::PageFault(t)
            | Event::Note(t) => t.clone(),
            Event::Progress { kind, done, total } => format!("{kind}: {done}/{total}"),
        }
    }

    /// The event's line with each option it speaks of called what `name` gives for its id (the command
    /// line's flag); the same as [`Event::text`] for an event about no option.
    pub fn named(&self, name: &dyn Fn(&'static str) -> String) -> String {
        match self {
            Event::Seed(l) | Event::OptionNote { line: l, .. } => l.named(name),
            _ => self.text(),
        }
    }
}

/// The receiver of a run's [`Event`]s. Runs make documents on several threads, so a sink is shared and
/// takes events through `&self`.
pub trait Sink: Send + Sync {
    /// Take one event.
    fn event(&self, e: Event);
    /// Whether the pages a run typesets are to be checked, each fault sent as [`Event::PageFault`]
    /// (`--check-pages`). Checking costs time, so it is off unless a sink asks for it.
    fn checks_pages(&self) -> bool {
        false
    }
}

impl<S: Sink + ?Sized> Sink for &S {
    fn event(&self, e: Event) {
        (**self).event(e);
    }
    fn checks_pages(&self) -> bool {
        (**self).checks_pages()
    }
}

/// The sink that drops every event (a caller that wants none of the news).
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Sink for Silent {
    fn event(&self, _e: Event) {}
}

/// A sink that keeps every event in order, for a front that shows them afterwards (the studio's pages)
/// and for tests.
#[derive(Debug, Default)]
pub struct Collector {
    events: Mutex<Vec<Event>>,
    /// Whether to ask for page checks.
    pub check_pages: bool,
}

impl Collector {
    /// A collector that asks for every page to be checked.
    pub fn checking_pages() -> Self {
        Collector {
            check_pages: true,
            ..Collector::default()
        }
    }

    /// Every event so far, in the order they came, and the list emptied.
    pub fn take(&self) -> Vec<Event> {
        std::mem::take(&mut *self.events.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// The text of every event kept so far except progress, in order (the list is kept).
    pub fn lines(&self) -> Vec<String> {
        self.events
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|e| !matches!(e, Event::Progress { .. }))
            .map(Event::text)
            .collect()
    }
}

impl Sink for Collector {
    fn event(&self, e: Event) {
        self.events
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(e);
    }
    fn checks_pages(&self) -> bool {
        self.check_pages
    }
}
