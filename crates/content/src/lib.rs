//! Content: TOML files (embedded in the binary or from `--content DIR`) in, a [`Library`] of tables, lookups,
//! decks and NPCs out, each item remembering the file, line and column it was written at; then [`check`]
//! proves them sound and [`roll`] rolls them with a seeded generator. [`diag`] holds the located
//! diagnostics every stage reports, [`error`] the one error type every command ends with.
//!
//! Nothing here draws a page: this crate and [`blockprint_dice`] build and test without typst.

pub mod carry;
pub mod check;
pub mod diag;
pub mod error;
pub mod near;
pub mod numbers;
pub mod roll;

mod load;
mod model;
pub mod prose;
pub mod text;

use std::collections::BTreeMap;

pub use load::{
    BadFile, ContentRoot, EMBEDDED, Files, LoadCache, MAX_FILE_BYTES, MAX_TOTAL_BYTES,
    forbidden_control, load, load_files, load_files_cached,
};
pub use model::{
    Book, Chapter, ChapterRole, ClaimColumn, ClaimRow, ClaimedOdds, Deck, Entry, EntryValue, Forms,
    Kit, Located, Lookup, Npc, OwnTables, RANKS, Row, Ruling, SUITS, SuitMeanings, Table, Unit,
    ValueKind,
};
pub use model::{Challenge, Feature, Side, Space, Start, Track};
pub use model::{Chart, ChartRow};

/// One content file's text, kept for diagnostics.
#[derive(Debug, Clone)]
pub struct Source {
    /// Relative to the content root, `/`-separated.
    pub path: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl Source {
    pub fn new(path: String, text: String) -> Self {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Source {
            path,
            text,
            line_starts,
        }
    }

    /// 1-based line and character column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset) - 1;
        let start = self.line_starts[line];
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }
}

/// Everything loaded from one content root, in file order. Ids are looked up through indexes that keep the
/// first item with a given id (the checker reports later duplicates).
#[derive(Debug, Clone, Default)]
pub struct Library {
    /// Fingerprint of the content files the loader read (12 hex digits): the `.toml` files and the
    /// chapters books list, not a README beside them.
    pub version: String,
    pub sources: Vec<Source>,
    pub tables: Vec<Table>,
    pub lookups: Vec<Lookup>,
    pub decks: Vec<Deck>,
    pub npcs: Vec<Npc>,
    pub books: Vec<Book>,
    pub rulings: Vec<Ruling>,
    pub kits: Vec<Kit>,
    /// Multi-column reference charts (`[[chart]]`).
    pub charts: Vec<Chart>,
    pub tracks: Vec<Track>,
    /// Printed odds tables (`[[claimed_odds]]`) that `verify-odds` checks.
    pub claimed_odds: Vec<ClaimedOdds>,
    table_index: BTreeMap<String, usize>,
    lookup_index: BTreeMap<String, usize>,
}

impl Library {
    /// Add the items of `part` (one file's, loaded on their own) after this library's.
    pub(crate) fn append(&mut self, part: &Library) {
        // Every list named, so that a new kind of item cannot be forgotten here.
        let Library {
            version: _,
            sources: _,
            tables,
            lookups,
            decks,
            npcs,
            books,
            rulings,
            kits,
            charts,
            tracks,
            claimed_odds,
            table_index: _,
            lookup_index: _,
        } = part;
        self.tables.extend_from_slice(tables);
        self.lookups.extend_from_slice(lookups);
        self.decks.extend_from_slice(decks);
        self.npcs.extend_from_slice(npcs);
        self.books.extend_from_slice(books);
        self.rulings.extend_from_slice(rulings);
        self.kits.extend_from_slice(kits);
        self.charts.extend_from_slice(charts);
        self.tracks.extend_from_slice(tracks);
        self.claimed_odds.extend_from_slice(claimed_odds);
    }

    pub(crate) fn reindex(&mut self) {
        self.table_index.clear();
        self.lookup_index.clear();
        for (i, t) in self.tables.iter().enumerate() {
            self.table_index.entry(t.id.value.clone()).or_insert(i);
        }
        for (i, l) in self.lookups.iter().enumerate() {
            self.lookup_index.entry(l.id.value.clone()).or_insert(i);
        }
    }

    /// The language every document made from this content is written in (an ISO 639 code: `en`, `de`):
    /// the first book's `language`, `en` when the content has no book. Templates set it as the text's
    /// language (hyphenation, quotes, the PDF's `/Lang`).
    pub fn language(&self) -> &str {
        self.books.first().map_or("en", |b| b.language.as_str())
    }

    /// The chart with this id.
    pub fn chart(&self, id: &str) -> Option<&Chart> {
        self.charts.iter().find(|c| c.id.value == id)
    }

    /// The kit of a game (`coc`), by the id of its `[[kit]]`.
    pub fn kit(&self, game: &str) -> Option<&Kit> {
        self.kits.iter().find(|k| k.id.value == game)
    }

    pub fn table(&self, id: &str) -> Option<&Table> {
        self.table_index.get(id).map(|&i| &self.tables[i])
    }

    pub fn deck(&self, id: &str) -> Option<&Deck> {
        self.decks.iter().find(|d| d.id.value == id)
    }

    pub fn lookup(&self, id: &str) -> Option<&Lookup> {
        self.lookup_index.get(id).map(|&i| &self.lookups[i])
    }

    /// The lookup that names the given role (e.g. `class`), if any.
    pub fn lookup_with_role(&self, role: &str) -> Option<&Lookup> {
        self.lookups
            .iter()
            .find(|l| l.role.as_deref() == Some(role))
    }

    /// The path of the file an item was written in.
    pub fn file_of(&self, loc: &crate::diag::Loc) -> &str {
        &self.sources[loc.file].path
    }

    /// 1-based line of a location.
    pub fn line_of(&self, loc: &crate::diag::Loc) -> usize {
        self.sources[loc.file].line_col(loc.span.start).0
    }
}

/// The game an id belongs to: its first dotted segment (`coc` of `coc.hazard.random`). A book prints,
/// and must place, only its own game's tables, lookups, decks and rulings; a kit is named by its game.
pub fn game(id: &str) -> &str {
    id.split('.').next().unwrap_or(id)
}
