//! Generator requirements: what each document kind reads from content (as data) in; a located diagnostic
//! for each thing content lacks out, so content that passes `check` never fails later in `case` or
//! `build`. A kind whose requirements content does not touch at all is simply not offered by that content
//! (another game's tables); content that has some of them but not all is an error.

use crate::content::{EntryValue, Library};
use crate::diag::{Diagnostic, Kind, Loc};

/// What a kind reads from content.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Requirements {
    pub tables: Vec<String>,
    pub lookups: Vec<String>,
    pub decks: Vec<String>,
    /// `(lookup, key)`: an entry whose value is a whole number.
    pub int_keys: Vec<(String, String)>,
    /// `(table, tags)`: every row of the table carries one of the tags.
    pub row_tags: Vec<(String, Vec<String>)>,
    /// The content must have a `[[book]]`.
    pub book: bool,
}

impl Requirements {
    /// Whether the content has at least one thing this kind needs.
    pub fn touched_by(&self, lib: &Library) -> bool {
        self.tables.iter().any(|t| lib.table(t).is_some())
            || self.lookups.iter().any(|l| lib.lookup(l).is_some())
            || self.decks.iter().any(|d| lib.deck(d).is_some())
            || (self.book && !lib.books.is_empty())
    }
}

/// Report what `kind` needs and `lib` lacks. `always` checks even content that touches none of it (a
/// kind the user asked for by name, or a layout kind, whose list is the user's own).
pub fn check(
    lib: &Library,
    kind: &str,
    req: &Requirements,
    always: bool,
    out: &mut Vec<Diagnostic>,
) {
    if !always && !req.touched_by(lib) {
        return;
    }
    let all_ids: Vec<(&str, &Loc)> = lib
        .tables
        .iter()
        .map(|t| (t.id.value.as_str(), &t.id.loc))
        .chain(lib.lookups.iter().map(|l| (l.id.value.as_str(), &l.id.loc)))
        .chain(lib.decks.iter().map(|d| (d.id.value.as_str(), &d.id.loc)))
        .collect();
    let missing = |what: &str, id: &str, example: &str| {
        let message =
            format!("the `{kind}` generator needs {what} `{id}`, which the content lacks");
        let hint = format!(
            "add {example}, or restore it from the built-in content (`blockprint init DIR` writes it)"
        );
        match nearest(&all_ids, id) {
            Some(loc) => Diagnostic::error(Kind::MissingRequirement, &lib.sources, loc, message)
                .with_table(id)
                .with_hint(format!("{hint}; its neighbours are here")),
            None => Diagnostic::unlocated(Kind::MissingRequirement, message)
                .with_table(id)
                .with_hint(hint),
        }
    };
    for t in &req.tables {
        if lib.table(t).is_none() {
            out.push(missing(
                "table",
                t,
                &format!("a `[[table]]` with `id = \"{t}\"`"),
            ));
        }
    }
    for l in &req.lookups {
        if lib.lookup(l).is_none() {
            out.push(missing(
                "lookup",
                l,
                &format!("a `[[lookup]]` with `id = \"{l}\"`"),
            ));
        }
    }
    for d in &req.decks {
        if lib.deck(d).is_none() {
            out.push(missing(
                "deck",
                d,
                &format!("a `[[deck]]` with `id = \"{d}\"`"),
            ));
        }
    }
    for (l, key) in &req.int_keys {
        let Some(lookup) = lib.lookup(l) else {
            continue;
        };
        let ok = lookup
            .entries
            .iter()
            .any(|e| e.key.value == *key && matches!(e.value.value, EntryValue::Integer(_)));
        if !ok {
            out.push(
                Diagnostic::error(
                    Kind::MissingRequirement,
                    &lib.sources,
                    &lookup.id.loc,
                    format!("the `{kind}` generator needs the key `{key}` with a whole-number value in lookup `{l}`"),
                )
                .with_table(l)
                .with_hint(format!("add `{{ key = \"{key}\", value = 0 }}` (with the right number) to its entries")),
            );
        }
    }
    for (t, tags) in &req.row_tags {
        let Some(table) = lib.table(t) else { continue };
        for row in &table.rows {
            if !row_tagged(lib, row, tags, 0) {
                out.push(
                    Diagnostic::error(
                        Kind::MissingRequirement,
                        &lib.sources,
                        &row.loc,
                        format!(
                            "the `{kind}` generator needs every row of `{t}` tagged one of {}; row `{}` has none",
                            tags.iter().map(|g| format!("`{g}`")).collect::<Vec<_>>().join(", "),
                            row.on.value
                        ),
                    )
                    .with_table(t)
                    .with_hint(format!(
                        "add `tags = [\"{}\"]` (or another of them) to the row, or to every row of the table it rolls on",
                        tags[0]
                    )),
                );
            }
        }
    }
    if req.book && lib.books.is_empty() {
        out.push(
            Diagnostic::unlocated(
                Kind::MissingRequirement,
                format!("the `{kind}` generator needs a `[[book]]`, which the content lacks"),
            )
            .with_hint(
                "add a book.toml with a `[[book]]` (`blockprint init DIR` writes an example)",
            ),
        );
    }
}

/// Whether a row carries one of `tags`, itself or through every row of each table its result rolls on
/// (a roll lands on a row of the sub-table, and generators read the tags of both).
fn row_tagged(lib: &Library, row: &crate::content::Row, tags: &[String], depth: usize) -> bool {
    if tags.iter().any(|g| row.has_tag(g)) {
        return true;
    }
    let Ok(pieces) = crate::content::text::pieces(&row.result.value) else {
        return false;
    };
    let subs: Vec<&str> = pieces
        .iter()
        .filter_map(|p| match p {
            crate::content::text::Piece::Table { id, .. } => Some(*id),
            _ => None,
        })
        .collect();
    depth < 16
        && !subs.is_empty()
        && subs.iter().all(|id| {
            lib.table(id)
                .is_some_and(|t| t.rows.iter().all(|r| row_tagged(lib, r, tags, depth + 1)))
        })
}

/// The item whose id shares the longest dotted prefix with `id` — where a missing id most likely belongs.
fn nearest<'a>(ids: &[(&str, &'a Loc)], id: &str) -> Option<&'a Loc> {
    let shared = |a: &str| {
        a.split('.')
            .zip(id.split('.'))
            .take_while(|(x, y)| x == y)
            .count()
    };
    ids.iter()
        .map(|(other, loc)| (shared(other), *loc))
        .filter(|(n, _)| *n >= 1)
        .max_by_key(|(n, _)| *n)
        .map(|(_, loc)| loc)
}
