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

/// One piece of news from a run. Each carries its text worded once, here in the library (a line without
/// its newline), so every front shows the same words; the variant says what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Files were written: `wrote case: 3 documents, 12 files (0 already up to date) to out/cases`.
    Wrote(String),
    /// The seed a run uses, announced because the caller gave none: `seed: 7 (regenerate this batch
    /// with --seed 7)`, or the seed of the batch a run continues.
    Seed(String),
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
            Event::Wrote(t)
            | Event::Seed(t)
            | Event::Skipped(t)
            | Event::Warning(t)
            | Event::Failed(t)
            | Event::PageFault(t)
            | Event::Note(t) => t.clone(),
            Event::Progress { kind, done, total } => format!("{kind}: {done}/{total}"),
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
