//! The rules checker: a loaded [`Library`] in, every problem found (not just the first) plus the exact odds of
//! every table row out. Runs inside every command that reads content.

mod charts;
pub mod claims;
mod coverage;
mod decks;
mod exports;
mod ids;
mod index;
mod inline;
mod lookups;
mod people;
mod prose;
pub mod requires;
mod tracks;

use std::collections::BTreeMap;

use num_rational::BigRational;
use serde::Serialize;

use crate::diag::{self, Diagnostic};
use crate::{ContentRoot, Library};

pub use coverage::TableOdds;
pub use requires::Requirements;

/// What the checker found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Errors and warnings, in file order.
    pub diagnostics: Vec<Diagnostic>,
    /// Exact odds per table id, for tables whose dice and rows are sound.
    pub odds: BTreeMap<String, TableOdds>,
    pub stats: Stats,
    pub editorial: Vec<Fill>,
    /// What each book's chapters parsed to in the check, as (slug, text, parse): for a document that
    /// reads a chapter's blocks, so it need not parse the chapter again (see [`Report::parsed`]).
    pub chapters: Vec<(String, String, std::sync::Arc<crate::prose::Parsed>)>,
}

impl Report {
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
    pub fn warnings(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_warning()).count()
    }
    /// What the chapter `slug` with the text `body` parses to (`prose::parse(body, slug)`), when the
    /// check parsed it.
    pub fn parsed(&self, slug: &str, body: &str) -> Option<&crate::prose::Parsed> {
        self.chapters
            .iter()
            .find(|(s, b, _)| s == slug && b == body)
            .map(|(_, _, p)| &**p)
    }
    /// Notes: not problems, things `check` tells the author (a table of their own left out of the book).
    pub fn notes(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_note()).count()
    }
}

/// Counts for the summary line.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Stats {
    pub tables: usize,
    pub outcomes: usize,
    pub lookups: usize,
    pub decks: usize,
    pub npcs: usize,
}

/// A gap in the source text filled by an editorial choice.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fill {
    /// The table, lookup or deck.
    pub id: String,
    /// Which row (`on`) or entry (`key`); empty for the item as a whole.
    pub at: String,
    pub result: String,
    pub reason: String,
    pub file: String,
    pub line: usize,
}

/// Check a loaded library; `load_diags` are the loader's own parse/schema diagnostics, kept in the report.
pub fn run(lib: &Library, load_diags: Vec<Diagnostic>) -> Report {
    run_cached(lib, load_diags, &mut Cache::default())
}

/// What [`run_cached`] (and [`requires::check_cached`]) keep from one check for the next, each a pure
/// function of the text it is kept under: the exact distribution of each dice expression (by its
/// text), what each chapter's and kit page's text parses to (by slug and text), and for each index term
/// a text that uses it (while that text is still the content's, the term is not searched for); and each
/// table's coverage check, by its file's path, text and place. Within one check it
/// already saves work (many tables roll `1d6` or `2d6`); across checks of content that changed in one
/// file, only that file's new dice and chapters are worked out.
#[derive(Debug, Default)]
pub struct Cache {
    supports: coverage::Supports,
    parses: prose::Parses,
    dists: Dists,
    index: index::Witnesses,
    tables: coverage::Checked,
}

/// Exact distributions by dice text, for the checks that work one out besides a table's (a dice
/// lookup's values, a modifier table's dice, a duration's inline roll): each text's distribution, or
/// why it has none, worked out once. A distribution is a function of the text alone.
#[derive(Debug, Default)]
pub(crate) struct Dists(
    std::collections::HashMap<
        String,
        std::sync::Arc<Result<blockprint_dice::Dist, blockprint_dice::DistError>>,
    >,
);

impl Dists {
    /// `expr.distribution()`, where `expr` is what `text` parses to.
    pub(crate) fn of(
        &mut self,
        text: &str,
        expr: &blockprint_dice::Expr,
    ) -> std::sync::Arc<Result<blockprint_dice::Dist, blockprint_dice::DistError>> {
        if let Some(d) = self.0.get(text) {
            return d.clone();
        }
        if self.0.len() >= coverage::SUPPORTS_MAX {
            self.0.clear();
        }
        let d = std::sync::Arc::new(expr.distribution());
        self.0.insert(text.to_owned(), d.clone());
        d
    }
}

/// [`run`] with work kept in `cache` between calls: the report is the same as [`run`]'s (a test
/// compares the two over the fuzz seeds and the checker's fixtures, one after another with one cache).
pub fn run_cached(lib: &Library, load_diags: Vec<Diagnostic>, cache: &mut Cache) -> Report {
    let mut report = Report {
        diagnostics: load_diags,
        ..Report::default()
    };
    ids::check(lib, &mut report.diagnostics);
    ids::tags(lib, &mut report.diagnostics);
    if cache.supports.len() > coverage::SUPPORTS_MAX {
        cache.supports.clear();
    }
    cache.tables.prepare(lib);
    // Each table's place among its file's tables.
    let mut nth: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for table in &lib.tables {
        let n = nth.entry(table.id.loc.file).or_default();
        *n += 1;
        if let Some(odds) =
            cache
                .tables
                .check(lib, table, *n, &mut cache.supports, &mut report.diagnostics)
        {
            report.stats.outcomes += odds.outcomes;
            report.odds.entry(table.id.value.clone()).or_insert(odds);
        }
    }
    inline::check(lib, &mut report.diagnostics);
    lookups::check(lib, &mut cache.dists, &mut report.diagnostics);
    people::check(lib, &mut report.diagnostics);
    languages(lib, &mut report.diagnostics);
    decks::check(lib, &mut report.diagnostics);
    prose::check(
        lib,
        &mut cache.parses,
        &mut report.chapters,
        &mut report.diagnostics,
    );
    index::check(lib, &mut cache.index, &mut report.diagnostics);
    charts::check(lib, &mut report.diagnostics);
    tracks::check(lib, &mut report.diagnostics);
    claims::check(lib, &mut report.diagnostics);
    exports::check(lib, &report.odds, &mut report.diagnostics);
    report.stats.tables = lib.tables.len();
    report.stats.lookups = lib.lookups.len();
    report.stats.decks = lib.decks.len();
    report.stats.npcs = lib.npcs.len();
    report.editorial = fills(lib);
    diag::sort(&mut report.diagnostics);
    report
}

/// A book's `language` is what every template sets as the text's language: typst takes an ISO 639 code of
/// two or three letters, so anything else would fail at rendering, not here.
fn languages(lib: &Library, out: &mut Vec<Diagnostic>) {
    for b in &lib.books {
        let l = &b.language;
        if !(2..=3).contains(&l.len()) || !l.bytes().all(|c| c.is_ascii_lowercase()) {
            out.push(
                Diagnostic::error(
                    diag::Kind::BadValue,
                    &lib.sources,
                    &b.id.loc,
                    format!("book `{}` has the language `{l}`, which is no ISO 639 language code", b.id.value),
                )
                .with_hint("write the language as two or three lowercase letters, such as `language = \"en\"` or `language = \"de\"`"),
            );
        }
    }
}

/// Load and check in one step; `Err` only for I/O failures.
pub fn load_and_check(root: &ContentRoot) -> std::io::Result<(Library, Report)> {
    let (lib, diags) = crate::load(root)?;
    let report = run(&lib, diags);
    Ok((lib, report))
}

fn fills(lib: &Library) -> Vec<Fill> {
    let mut out = Vec::new();
    let mut push =
        |id: &str, at: String, result: String, reason: &Option<String>, loc: &diag::Loc| {
            if let Some(reason) = reason {
                out.push(Fill {
                    id: id.to_owned(),
                    at,
                    result,
                    reason: reason.clone(),
                    file: lib.file_of(loc).to_owned(),
                    line: lib.line_of(loc),
                });
            }
        };
    for t in &lib.tables {
        push(
            &t.id.value,
            String::new(),
            String::new(),
            &t.editorial,
            &t.id.loc,
        );
        for r in &t.rows {
            push(
                &t.id.value,
                r.on.value.clone(),
                r.result.value.clone(),
                &r.editorial,
                &r.loc,
            );
        }
    }
    for l in &lib.lookups {
        push(
            &l.id.value,
            String::new(),
            String::new(),
            &l.editorial,
            &l.id.loc,
        );
        for e in &l.entries {
            push(
                &l.id.value,
                e.key.value.clone(),
                e.value.value.to_string(),
                &e.editorial,
                &e.key.loc,
            );
        }
    }
    for c in &lib.charts {
        push(
            &c.id.value,
            String::new(),
            String::new(),
            &c.editorial,
            &c.id.loc,
        );
        for r in &c.rows.value {
            let first = r.cells.first().cloned().unwrap_or_default();
            push(
                &c.id.value,
                first,
                r.cells.join(" · "),
                &r.editorial,
                &r.loc,
            );
        }
    }
    for d in &lib.decks {
        push(
            &d.id.value,
            String::new(),
            String::new(),
            &d.editorial,
            &d.id.loc,
        );
    }
    for t in &lib.tracks {
        let id = &t.id.value;
        push(id, String::new(), String::new(), &t.editorial, &t.id.loc);
        for s in &t.spaces {
            let at = format!("space {}", s.n.value);
            if let Some(c) = &s.challenge {
                push(id, at.clone(), c.title.clone(), &c.editorial, &c.loc);
            }
            for f in [&s.gate, &s.exit].into_iter().flatten() {
                push(id, at.clone(), f.title.clone(), &f.editorial, &s.n.loc);
            }
        }
    }
    out
}

/// Probability of one row, for printing; `None` when the table did not check out.
pub fn row_probability<'r>(report: &'r Report, table: &str, row: usize) -> Option<&'r BigRational> {
    report.odds.get(table).and_then(|o| o.rows.get(row))
}
