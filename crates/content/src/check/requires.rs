//! Generator requirements: what each document kind reads from content (as data) in; a located diagnostic
//! for each thing content lacks out, so content that passes `check` never fails later in `case` or
//! `build`. A kind whose requirements content does not touch at all is simply not offered by that content
//! (another game's tables); content that has some of them but not all is an error.

use crate::diag::{Diagnostic, Kind, Loc};
use crate::{EntryValue, Library};

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
    /// Games whose `[[kit]]` (source and licence) the content must have: a chase kit prints them.
    pub kits: Vec<String>,
    /// Table id prefixes: a table `<prefix>.<class>` (the class key in lower case, other characters
    /// than letters and digits as `_`) for every class of the lookup with `role = "class"`.
    pub class_tables: Vec<String>,
    /// `(lookup, of)`: the lookup has an entry for every class; with `of`, every value is a key of `of`.
    pub class_lookups: Vec<(String, Option<String>)>,
    /// `(lookup, key)`: an entry with this key (any value).
    pub keys: Vec<(String, String)>,
    /// Tables whose every row's result is a whole number from 0 to [`MAX_INT_RESULT`] (a level).
    pub int_results: Vec<String>,
    /// `(table, lo, hi)`: every row has a `modifier`, and the dice roll every whole number `lo..=hi`
    /// (a score looked up by the rolls it came from, as the attribute modifiers are).
    pub modifier_tables: Vec<(String, i64, i64)>,
    /// `(chart, columns)`: a `[[chart]]` with at least these columns.
    pub charts: Vec<(String, Vec<String>)>,
    /// `(table, limit)`: every row measures a time, an inline roll in its result with a `unit`, and the
    /// longest it can measure is at most `limit` minutes (case dates must stay on the calendar).
    pub durations: Vec<(String, i64)>,
    /// `(game, page, anchors)`: the game's `[[kit]]` lists the prose page `page`, and the page has a
    /// `##` heading with each anchor (the parts the kit's templates place by anchor).
    pub prose: Vec<(String, String, Vec<String>)>,
    /// Kit prose pages whose code spans name what the kind computes and places there (the reference
    /// cards' odds and tables): every code span must name one of them, in the role it is written in.
    pub slots: Vec<Slots>,
}

/// What a kind computes for a kit prose page, by the name a code span gives it (see
/// [`Requirements::slots`]). How a span is written says what it stands for, as the kind reads it: a
/// paragraph that is only the span is a whole block; a table header cell that is only the span, columns
/// (or else a value); a table whose one row starts with a cell that is only the span, its rows; any
/// other span, in a sentence, a heading, a list item or a cell, a value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Slots {
    pub game: String,
    pub page: String,
    /// The anchors of the `##` parts the kind reads (none: every part).
    pub parts: Vec<String>,
    pub values: Vec<String>,
    pub columns: Vec<String>,
    pub rows: Vec<String>,
    pub blocks: Vec<String>,
}

/// The largest whole number an `int_results` table may give (NPC levels: HP rolls this many dice).
pub const MAX_INT_RESULT: u32 = 20;

/// The table `<prefix>.<slug>` that holds something per class (`bbb.character.background.fighter`).
pub fn class_table(prefix: &str, class: &str) -> String {
    let slug: String = class
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("{prefix}.{slug}")
}

impl Requirements {
    /// Whether the content has at least one thing this kind needs.
    pub fn touched_by(&self, lib: &Library) -> bool {
        // An imported table offers no kind: a Foundry table named like a kit's is the GM's own.
        self.tables
            .iter()
            .any(|t| lib.table(t).is_some_and(|t| t.imported.is_none()))
            || self.lookups.iter().any(|l| lib.lookup(l).is_some())
            || self.decks.iter().any(|d| lib.deck(d).is_some())
            || (self.book && !lib.books.is_empty())
            || self.kits.iter().any(|k| lib.kit(k).is_some())
            || self.charts.iter().any(|(c, _)| lib.chart(c).is_some())
            || self
                .class_lookups
                .iter()
                .any(|(l, _)| lib.lookup(l).is_some())
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
    check_cached(lib, kind, req, always, &mut super::Cache::default(), out);
}

/// [`check`] with the kit pages' parses kept in `cache` (see [`super::Cache`]): the same diagnostics.
pub fn check_cached(
    lib: &Library,
    kind: &str,
    req: &Requirements,
    always: bool,
    cache: &mut super::Cache,
    out: &mut Vec<Diagnostic>,
) {
    if !always && !req.touched_by(lib) {
        return;
    }
    // Every id, for the neighbours of a missing one: gathered only when something is missing.
    let all_ids: std::cell::OnceCell<Vec<(&str, &Loc)>> = std::cell::OnceCell::new();
    let missing = |what: &str, id: &str, example: &str| {
        let message =
            format!("the `{kind}` generator needs {what} `{id}`, which the content lacks");
        let hint = format!(
            "add {example}, or restore it from the built-in content (`blockprint init DIR` writes it)"
        );
        let all_ids = all_ids.get_or_init(|| {
            lib.tables
                .iter()
                .map(|t| (t.id.value.as_str(), &t.id.loc))
                .chain(lib.lookups.iter().map(|l| (l.id.value.as_str(), &l.id.loc)))
                .chain(lib.decks.iter().map(|d| (d.id.value.as_str(), &d.id.loc)))
                .collect()
        });
        match nearest(all_ids, id) {
            Some(loc) => needs(
                lib,
                loc,
                id,
                message,
                format!("{hint}; its neighbours are here"),
            ),
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
            let message = format!(
                "the `{kind}` generator needs the key `{key}` with a whole-number value in lookup `{l}`"
            );
            let hint = format!(
                "add `{{ key = \"{key}\", value = 0 }}` (with the right number) to its entries"
            );
            out.push(needs(lib, &lookup.id.loc, l, message, hint));
        }
    }
    for (t, tags) in &req.row_tags {
        let Some(table) = lib.table(t) else { continue };
        for row in &table.rows {
            if !row_tagged(lib, row, tags, 0) {
                let message = format!(
                    "the `{kind}` generator needs every row of `{t}` tagged one of {}; row `{}` has none",
                    tags.iter()
                        .map(|g| format!("`{g}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    row.on.value
                );
                let hint = format!(
                    "add `tags = [\"{}\"]` (or another of them) to the row, or to every row of the table it rolls on",
                    tags[0]
                );
                out.push(needs(lib, &row.loc, t, message, hint));
            }
        }
    }
    for k in &req.kits {
        if lib.kit(k).is_none() {
            out.push(missing(
                "kit",
                k,
                &format!("a `[[kit]]` with `id = \"{k}\"`, `title`, `source` and `licence`"),
            ));
        }
    }
    for (c, columns) in &req.charts {
        match lib.chart(c) {
            None => out.push(missing(
                "chart",
                c,
                &format!(
                    "a `[[chart]]` with `id = \"{c}\"` and the columns {}",
                    columns.join(", ")
                ),
            )),
            Some(chart) => {
                for col in columns {
                    if chart.column(col).is_none() {
                        out.push(needs(
                            lib,
                            &chart.columns.loc,
                            c,
                            format!("the `{kind}` generator needs a column `{col}` in chart `{c}`"),
                            format!("add `\"{col}\"` to `columns` and a cell for it in every row"),
                        ));
                    }
                }
            }
        }
    }
    people(lib, kind, req, &missing, &mut cache.dists, out);
    prose_parts(lib, kind, req, &mut cache.parses, out);
    slot_names(lib, kind, req, &mut cache.parses, out);
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

/// The requirements of the detective and NPC generators: what content needs per class, keys, levels and
/// modifier tables.
fn people(
    lib: &Library,
    kind: &str,
    req: &Requirements,
    missing: &dyn Fn(&str, &str, &str) -> Diagnostic,
    dists: &mut super::Dists,
    out: &mut Vec<Diagnostic>,
) {
    let needs_classes = !req.class_tables.is_empty() || !req.class_lookups.is_empty();
    let classes = lib.lookup_with_role("class");
    match classes {
        None if needs_classes => out.push(
            Diagnostic::unlocated(
                Kind::MissingRequirement,
                format!("the `{kind}` generator needs a lookup with `role = \"class\"` (the classes and their hit dice), which the content lacks"),
            )
            .with_hint("add `role = \"class\"` to the hit-die lookup, or restore it from the built-in content (`blockprint init DIR` writes it)"),
        ),
        Some(c) if needs_classes && c.kind != crate::ValueKind::Dice => out.push(needs(
            lib,
            &c.id.loc,
            &c.id.value,
            format!(
                "the `{kind}` generator rolls hit dice from the class lookup `{}`, whose values are not dice",
                c.id.value
            ),
            "set `kind = \"dice\"` and give each class its hit die (`1d8`)",
        )),
        _ => {}
    }
    let class_keys: Vec<&str> = classes
        .map(|c| c.entries.iter().map(|e| e.key.value.as_str()).collect())
        .unwrap_or_default();
    for prefix in &req.class_tables {
        for class in &class_keys {
            let id = class_table(prefix, class);
            if lib.table(&id).is_none() {
                out.push(missing(
                    &format!("for class `{class}` the table"),
                    &id,
                    &format!("a `[[table]]` with `id = \"{id}\"`"),
                ));
            }
        }
    }
    for (l, of) in &req.class_lookups {
        let Some(lookup) = lib.lookup(l) else {
            out.push(missing(
                "lookup",
                l,
                &format!("a `[[lookup]]` with `id = \"{l}\"`"),
            ));
            continue;
        };
        for class in &class_keys {
            if !lookup.entries.iter().any(|e| e.key.value == *class) {
                out.push(needs(
                    lib,
                    &lookup.id.loc,
                    l,
                    format!(
                        "the `{kind}` generator needs an entry for class `{class}` in lookup `{l}`"
                    ),
                    format!("add `{{ key = \"{class}\", value = \"…\" }}` to its entries"),
                ));
            }
        }
        let Some(of) = of else { continue };
        let Some(target) = lib.lookup(of) else {
            continue;
        };
        for e in &lookup.entries {
            let v = e.value.value.to_string();
            if !target.entries.iter().any(|t| t.key.value == v) {
                let message = format!(
                    "the `{kind}` generator needs every value of `{l}` to be a key of `{of}`; `{v}` is not"
                );
                let keys: Vec<String> = target
                    .entries
                    .iter()
                    .map(|t| format!("`{}`", t.key.value))
                    .collect();
                out.push(needs(
                    lib,
                    &e.value.loc,
                    l,
                    message,
                    format!("use one of {}", keys.join(", ")),
                ));
            }
        }
    }
    for (l, key) in &req.keys {
        let Some(lookup) = lib.lookup(l) else {
            continue;
        };
        if !lookup.entries.iter().any(|e| e.key.value == *key) {
            out.push(needs(
                lib,
                &lookup.id.loc,
                l,
                format!("the `{kind}` generator needs the key `{key}` in lookup `{l}`"),
                format!("add an entry `{{ key = \"{key}\", … }}`"),
            ));
        }
    }
    for t in &req.int_results {
        let Some(table) = lib.table(t) else { continue };
        for row in &table.rows {
            let ok = row
                .result
                .value
                .trim()
                .parse::<u32>()
                .is_ok_and(|n| n <= MAX_INT_RESULT);
            if !ok {
                let message = format!(
                    "the `{kind}` generator needs every result of `{t}` to be a whole number from 0 to {MAX_INT_RESULT}; row `{}` reads `{}`",
                    row.on.value, row.result.value
                );
                let hint = "write the number alone, e.g. `result = \"2\"`";
                out.push(needs(lib, &row.result.loc, t, message, hint));
            }
        }
    }
    for (t, limit) in &req.durations {
        let Some(table) = lib.table(t) else { continue };
        for row in &table.rows {
            if let Some(d) = duration_problem(row, *limit, dists) {
                out.push(needs(
                    lib,
                    &row.result.loc,
                    t,
                    format!(
                        "the `{kind}` generator reads a time from every row of `{t}`; row `{}` {}",
                        row.on.value, d.0
                    ),
                    d.1,
                ));
            }
        }
    }
    for (t, lo, hi) in &req.modifier_tables {
        let Some(table) = lib.table(t) else { continue };
        for row in &table.rows {
            if row.modifier.is_none() {
                let message = format!(
                    "the `{kind}` generator reads a `modifier` from every row of `{t}`; row `{}` has none",
                    row.on.value
                );
                let hint = "add `modifier = 0` (with the right number) to the row";
                out.push(needs(lib, &row.loc, t, message, hint));
            }
        }
        let covers = blockprint_dice::parse(&table.dice.value)
            .ok()
            .and_then(|e| {
                dists
                    .of(&table.dice.value, &e)
                    .as_ref()
                    .as_ref()
                    .ok()
                    .and_then(|d| d.integer_outcomes())
            })
            .is_some_and(|o| (*lo..=*hi).all(|v| o.iter().any(|(x, _)| *x == v)));
        if !covers {
            let message = format!(
                "the `{kind}` generator looks up every score from {lo} to {hi} in `{t}`, but its dice `{}` do not roll them all",
                table.dice.value
            );
            let hint = format!("use dice that roll {lo} to {hi} (`3d6`)");
            out.push(needs(lib, &table.dice.loc, t, message, hint));
        }
    }
}

/// The kit prose pages and the `##` headings a kind places by anchor (see [`Requirements::prose`]): a
/// page the kit does not list is refused at the kit's id, a missing heading at the page's first line.
fn prose_parts(
    lib: &Library,
    kind: &str,
    req: &Requirements,
    parses: &mut super::prose::Parses,
    out: &mut Vec<Diagnostic>,
) {
    // A page two documents read (the Call of Cthulhu track, blank and seeded) is reported once.
    let mut seen = std::collections::BTreeSet::new();
    for (g, slug, anchors) in &req.prose {
        let Some(kit) = lib.kit(g) else { continue };
        let Some(page) = kit.page(slug) else {
            if !seen.insert((g.as_str(), slug.as_str(), "")) {
                continue;
            }
            out.push(needs(
                lib,
                &kit.id.loc,
                g,
                format!("the `{kind}` generator needs the prose page `{slug}` of the `{g}` kit, which the kit does not list"),
                format!("add `\"{slug}\"` to the kit's `pages` and write the page as kit/{slug}.md beside this file, or restore it from the built-in content (`blockprint init DIR` writes it)"),
            ));
            continue;
        };
        let found = parses.get(&page.body, slug);
        let headings = found
            .blocks
            .iter()
            .filter_map(|b| match b {
                crate::prose::Block::Heading {
                    level: 2, anchor, ..
                } => Some(anchor.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>();
        // The page's first written line (after the front matter).
        let lead = page.body.len() - page.body.trim_start().len();
        let first = page.body[lead..].lines().next().map_or(0, str::len);
        let end = (page.body_offset + lead + first).min(
            lib.sources
                .get(page.file)
                .map_or(usize::MAX, |f| f.text.len()),
        );
        let loc = Loc {
            file: page.file,
            span: (page.body_offset + lead).min(end)..end,
        };
        for a in anchors {
            if headings.contains(&a.as_str())
                || !seen.insert((g.as_str(), slug.as_str(), a.as_str()))
            {
                continue;
            }
            let listed = if headings.is_empty() {
                "it has no `##` heading".to_owned()
            } else {
                format!(
                    "its `##` headings' anchors: {}",
                    headings
                        .iter()
                        .map(|h| format!("`{h}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            out.push(needs(
                lib,
                &loc,
                g,
                format!(
                    "the `{kind}` generator prints the part `{a}` of the `{g}` kit's page `{slug}`, which has no `##` heading with that anchor ({listed})"
                ),
                format!(
                    "add a `##` heading whose anchor is `{a}` (its words in lower case joined by hyphens), or add the built-in part: `blockprint init --update DIR`, DIR being this content folder, adds every part a page lacks"
                ),
            ));
        }
    }
}

/// The code spans of the kit prose pages in [`Requirements::slots`]: each names something the kind
/// computes, in the role it is written in, or it is refused at the span (the page's `##` parts only, as
/// the kind reads them; a page reported once per kind).
fn slot_names(
    lib: &Library,
    kind: &str,
    req: &Requirements,
    parses: &mut super::prose::Parses,
    out: &mut Vec<Diagnostic>,
) {
    use crate::prose::{Block, Inline};
    /// Every code span of `xs`, read as values.
    fn values<'a>(xs: &'a [Inline], found: &mut Vec<(&'a str, &'static str)>) {
        for x in xs {
            match x {
                Inline::Code { text } => found.push((text, "a value")),
                Inline::Strong { content }
                | Inline::Emph { content }
                | Inline::Link { content, .. }
                | Inline::Url { content, .. } => values(content, found),
                _ => {}
            }
        }
    }
    fn only_code(xs: &[Inline]) -> Option<&str> {
        match xs {
            [Inline::Code { text }] => Some(text),
            _ => None,
        }
    }
    for slots in &req.slots {
        let Some(kit) = lib.kit(&slots.game) else {
            continue;
        };
        let Some(page) = kit.page(&slots.page) else {
            continue;
        };
        let parsed = parses.get(&page.body, &slots.page);
        // (name, the role it is written in): the blocks of the page's `##` parts.
        let mut found: Vec<(&str, &'static str)> = Vec::new();
        // The part a block falls in (`None` before the first `##` heading, which no kind reads).
        let mut part: Option<&str> = None;
        for b in &parsed.blocks {
            if let Block::Heading {
                level: 2, anchor, ..
            } = b
            {
                part = Some(anchor);
                continue;
            }
            match part {
                Some(a) if slots.parts.is_empty() || slots.parts.iter().any(|p| p == a) => {}
                _ => continue,
            }
            match b {
                Block::Heading { content, .. } => values(content, &mut found),
                Block::Para { content } => match only_code(content) {
                    Some(name) => found.push((name, "a block")),
                    None => values(content, &mut found),
                },
                Block::List { items, .. } => {
                    for b in items.iter().flatten() {
                        if let Block::Para { content } = b {
                            values(content, &mut found);
                        }
                    }
                }
                Block::Grid { header, rows } => {
                    for h in header {
                        match only_code(h) {
                            Some(name) if slots.columns.iter().any(|c| c == name) => {}
                            _ => values(h, &mut found),
                        }
                    }
                    match rows.as_slice() {
                        [row] if row.first().and_then(|c| only_code(c)).is_some() => {
                            let name = row.first().and_then(|c| only_code(c)).unwrap_or_default();
                            found.push((name, "table rows"));
                        }
                        _ => rows.iter().flatten().for_each(|c| values(c, &mut found)),
                    }
                }
                _ => {}
            }
        }
        let known = |role: &str| -> &[String] {
            match role {
                "a value" => &slots.values,
                "a block" => &slots.blocks,
                _ => &slots.rows,
            }
        };
        let mut seen = std::collections::BTreeSet::new();
        for (name, role) in found {
            if known(role).iter().any(|k| k == name) || !seen.insert((name, role)) {
                continue;
            }
            // The span in the page (its first occurrence), or the page's first line.
            let span = format!("`{name}`");
            let loc = match page.body.find(&span) {
                Some(at) => Loc {
                    file: page.file,
                    span: page.body_offset + at..page.body_offset + at + span.len(),
                },
                None => Loc {
                    file: page.file,
                    span: page.body_offset..page.body_offset,
                },
            };
            let listed = known(role)
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let listed = if listed.is_empty() {
                "it computes none".to_owned()
            } else {
                format!("it computes {listed}")
            };
            out.push(needs(
                lib,
                &loc,
                &slots.game,
                format!(
                    "the `{kind}` generator reads `{name}` in the `{}` kit's page `{}` as {role}, which it does not compute ({listed})",
                    slots.game, slots.page
                ),
                "write the name of one it computes, or write the words without the code span, or restore the page from the built-in content (`blockprint init DIR` writes it)",
            ));
        }
    }
}

/// A missing requirement at `loc`, about item `id` (a table, lookup or chart), with its fix.
fn needs(
    lib: &Library,
    loc: &Loc,
    id: &str,
    message: String,
    hint: impl Into<String>,
) -> Diagnostic {
    Diagnostic::error(Kind::MissingRequirement, &lib.sources, loc, message)
        .with_table(id)
        .with_hint(hint)
}

/// What keeps `row` from measuring a time of at most `limit` minutes, with the fix.
fn duration_problem(
    row: &crate::Row,
    limit: i64,
    dists: &mut super::Dists,
) -> Option<(String, String)> {
    use crate::Unit;
    let pieces = crate::text::pieces(&row.result.value).ok()?;
    let Some(expr) = pieces.iter().find_map(|p| match p {
        crate::text::Piece::Roll { expr, .. } => Some(*expr),
        _ => None,
    }) else {
        return Some((
            "has no inline roll".to_owned(),
            "write the time as an inline roll, e.g. `result = \"{2d10} hours\"`".to_owned(),
        ));
    };
    let Some(unit) = row.unit else {
        return Some((
            format!("gives `{{{expr}}}` with no `unit`"),
            "add `unit = \"hours\"` (or days, weeks, months, years)".to_owned(),
        ));
    };
    let per = match unit {
        Unit::Hours => 60,
        Unit::Days => 24 * 60,
        Unit::Weeks => 7 * 24 * 60,
        Unit::Months => crate::roll::case::MONTH_MINUTES,
        Unit::Years => crate::roll::case::YEAR_MINUTES,
    };
    // Unparsable dice are reported by the inline-roll check. The exact maximum where the dice engine can
    // work it out, else the interval bound (an unbounded roll counts as too long).
    let e = blockprint_dice::parse(expr).ok()?;
    let max = match dists.of(expr, &e).as_ref() {
        Ok(d) => Some(d.max()),
        Err(_) => e.bounds().map(|(_, hi)| hi),
    };
    let too_long = max.is_none_or(|m| {
        m * num_rational::BigRational::from_integer(per.into())
            > num_rational::BigRational::from_integer(limit.into())
    });
    if too_long {
        let years = limit / crate::roll::case::YEAR_MINUTES;
        return Some((
            format!("can measure more than {years} years with `{{{expr}}}`"),
            format!(
                "keep the longest time at {years} years or less, so the crime's date stays on the calendar"
            ),
        ));
    }
    None
}

/// Whether a row carries one of `tags`, itself or through every row of each table its result rolls on
/// (a roll lands on a row of the sub-table, and generators read the tags of both).
fn row_tagged(lib: &Library, row: &crate::Row, tags: &[String], depth: usize) -> bool {
    if tags.iter().any(|g| row.has_tag(g)) {
        return true;
    }
    let Ok(pieces) = crate::text::pieces(&row.result.value) else {
        return false;
    };
    let subs: Vec<&str> = pieces
        .iter()
        .filter_map(|p| match p {
            crate::text::Piece::Table { id, .. } => Some(*id),
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
