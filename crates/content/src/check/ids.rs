//! Ids: every table, lookup, deck and NPC id is a lowercase dotted name and unique across all content.

use std::collections::BTreeMap;

use crate::diag::{Diagnostic, Kind};
use crate::{Library, Located};

pub(super) fn check(lib: &Library, out: &mut Vec<Diagnostic>) {
    let all: Vec<(&str, &Located<String>)> = lib
        .tables
        .iter()
        .map(|t| ("table", &t.id))
        .chain(lib.lookups.iter().map(|l| ("lookup", &l.id)))
        .chain(lib.decks.iter().map(|d| ("deck", &d.id)))
        .chain(lib.npcs.iter().map(|n| ("npc", &n.id)))
        .chain(lib.books.iter().map(|b| ("book", &b.id)))
        .chain(lib.rulings.iter().map(|r| ("ruling", &r.id)))
        .chain(lib.kits.iter().map(|k| ("kit", &k.id)))
        .chain(lib.charts.iter().map(|c| ("chart", &c.id)))
        .collect();
    let mut seen: BTreeMap<&str, (&str, &Located<String>)> = BTreeMap::new();
    for (what, id) in all {
        if !valid_id(&id.value) {
            out.push(
                Diagnostic::error(Kind::BadId, &lib.sources, &id.loc, format!("`{}` is not a valid id", id.value))
                    .with_table(&id.value)
                    .with_hint("use lowercase letters, digits, `.`, `_` and `-`, starting with a letter, e.g. `bbb.homicide.district`"),
            );
        }
        if what == "kit" && id.value.contains('.') {
            out.push(
                Diagnostic::error(
                    Kind::BadId,
                    &lib.sources,
                    &id.loc,
                    format!("kit id `{}` is not a game name", id.value),
                )
                .with_table(&id.value)
                .with_hint(format!(
                    "a kit's id is its game, the first segment of its tables' ids: `{}`",
                    crate::game(&id.value)
                )),
            );
        }
        match seen.get(id.value.as_str()) {
            Some((first_what, first)) => {
                let (path, line) = (lib.file_of(&first.loc), lib.line_of(&first.loc));
                out.push(
                    Diagnostic::error(
                        Kind::DuplicateId,
                        &lib.sources,
                        &id.loc,
                        format!("{what} id `{}` is already used by a {first_what} at {path}:{line}", id.value),
                    )
                    .with_table(&id.value)
                    .with_hint("ids are unique across all tables, lookups, decks and NPCs; rename one of them"),
                );
            }
            None => {
                seen.insert(&id.value, (what, id));
            }
        }
    }
}

/// Tags are lowercase words: letters, digits, `_` and `-`.
pub(super) fn tags(lib: &Library, out: &mut Vec<Diagnostic>) {
    for t in &lib.tables {
        for row in &t.rows {
            for tag in &row.tags {
                let ok = !tag.value.is_empty()
                    && tag.value.chars().all(|c| {
                        c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '-')
                    });
                if !ok {
                    out.push(
                        Diagnostic::error(Kind::BadTag, &lib.sources, &tag.loc, format!("tag `{}` is not a lowercase word", tag.value))
                            .with_table(&t.id.value)
                            .with_hint("write tags in lowercase letters, digits, `_` and `-`, e.g. `tags = [\"police\"]`"),
                    );
                }
            }
        }
    }
}

pub(super) fn valid_id(id: &str) -> bool {
    id.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-'))
}

#[cfg(test)]
mod tests {
    #[test]
    fn id_syntax() {
        for ok in ["bbb.homicide.district", "a", "x-1_y.z"] {
            assert!(super::valid_id(ok), "{ok}");
        }
        for bad in ["", "Bbb", "1abc", "a b", "bbb/x", ".a"] {
            assert!(!super::valid_id(bad), "{bad}");
        }
    }
}
