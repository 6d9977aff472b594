//! Prose: every book's chapters in; `unknown_reference` for directives naming nothing, `raw_html` for HTML
//! (which no output would show the same way), `broken_link` for
//! links to chapters or headings that do not exist, `too_deep` for nesting no output can set (see
//! [`MAX_NESTING`]), and `unplaced_table` for tables, lookups, decks (and the
//! stock NPCs) of a book's game that no chapter places, so the booklet can never leave one out.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::diag::{Diagnostic, Kind, Loc};
use crate::prose::{Found, MAX_NESTING, Parsed, RefKind, parse};
use crate::{Book, Library, Located, OwnTables, game};

/// Chapters' and kit pages' parses, kept between checks: for each slug, the last two bodies seen and
/// what they parsed to.
#[derive(Debug, Default)]
pub(super) struct Parses {
    by_slug: BTreeMap<String, Vec<(String, Arc<Parsed>)>>,
}

impl Parses {
    const PER_SLUG: usize = 2;

    /// `parse(body, slug)`, parsed again only for a body not seen before.
    pub(super) fn get(&mut self, body: &str, slug: &str) -> Arc<Parsed> {
        let list = self.by_slug.entry(slug.to_owned()).or_default();
        if let Some(i) = list.iter().position(|(b, _)| b == body) {
            list[..=i].rotate_right(1);
            return list[0].1.clone();
        }
        let parsed = Arc::new(parse(body, slug));
        list.insert(0, (body.to_owned(), parsed.clone()));
        list.truncate(Self::PER_SLUG);
        parsed
    }
}

pub(super) fn check(
    lib: &Library,
    parses: &mut Parses,
    chapters: &mut Vec<(String, String, Arc<Parsed>)>,
    out: &mut Vec<Diagnostic>,
) {
    if lib.books.is_empty() {
        return;
    }
    let mut placed: BTreeSet<(RefKind, String)> = BTreeSet::new();
    for book in &lib.books {
        // Each chapter is parsed once: its anchors for the links of every chapter, the rest for its own.
        let parsed: Vec<_> = book
            .chapters
            .iter()
            .map(|c| parses.get(&c.body, &c.slug))
            .collect();
        chapters.extend(
            book.chapters
                .iter()
                .zip(&parsed)
                .map(|(c, p)| (c.slug.clone(), c.body.clone(), p.clone())),
        );
        let anchors: BTreeMap<&str, &Vec<String>> = book
            .chapters
            .iter()
            .zip(&parsed)
            .map(|(c, p)| (c.slug.as_str(), &p.anchors))
            .collect();
        for (c, parsed) in book.chapters.iter().zip(&parsed) {
            let at = |offset: usize, len: usize| Loc {
                file: c.file,
                span: c.body_offset + offset..c.body_offset + offset + len,
            };
            // A directive's span as written in the source, `{` through `}` (offsets are source offsets).
            let directive_len = |offset: usize| {
                c.body
                    .get(offset..)
                    .and_then(|rest| rest.find('}'))
                    .map_or(1, |end| end + 1)
            };
            if let Some(offset) = parsed.nesting.too_deep_at {
                out.push(
                    Diagnostic::error(
                        Kind::TooDeep,
                        &lib.sources,
                        &at(offset, 1),
                        format!(
                            "block quotes, lists, emphasis and links nest {} deep here; the outputs set at most {MAX_NESTING}",
                            parsed.nesting.depth
                        ),
                    )
                    .with_table(&book.id.value)
                    .with_hint(format!(
                        "each `>`, list, `*…*`, `**…**` and link inside another counts one level: take out levels until at most {MAX_NESTING} are open at once (the PDF and Markdown could not print this)"
                    )),
                );
            }
            for f in &parsed.found {
                match f {
                    Found::Directive {
                        of,
                        id,
                        placed: is_placed,
                        at: offset,
                    } => {
                        let exists = match of {
                            RefKind::Table => lib.table(id).is_some(),
                            RefKind::Lookup => lib.lookup(id).is_some(),
                            RefKind::Deck => lib.deck(id).is_some(),
                            RefKind::Npcs => true,
                        };
                        if !exists {
                            let what = format!("{of:?}").to_lowercase();
                            out.push(
                                Diagnostic::error(Kind::UnknownReference, &lib.sources, &at(*offset, directive_len(*offset)), format!("`{{{what}:{id}}}` names no {what}"))
                                    .with_table(&book.id.value)
                                    .with_hint("check the id; `blockprint tables` lists tables, content/README.md explains `{table:…}`, `{lookup:…}`, `{deck:…}` and `{npcs}`"),
                            );
                        } else if *is_placed {
                            placed.insert((*of, id.clone()));
                        }
                    }
                    Found::BadDirective { text, at: offset } => out.push(
                        Diagnostic::error(
                            Kind::UnknownReference,
                            &lib.sources,
                            &at(*offset, directive_len(*offset)),
                            format!("`{text}` is not a directive"),
                        )
                        .with_table(&book.id.value)
                        .with_hint(
                            "directives are `{table:ID}`, `{lookup:ID}`, `{deck:ID}` and `{npcs}`",
                        ),
                    ),
                    Found::Html { text, at: offset } => out.push(
                        Diagnostic::error(
                            Kind::RawHtml,
                            &lib.sources,
                            &at(*offset, text.len().max(1)),
                            format!("raw HTML `{text}` in a chapter"),
                        )
                        .with_table(&book.id.value)
                        .with_hint(
                            "no output can show HTML as a browser would (a PDF has none): write it in Markdown, or put a backslash before `<` (`\\<`) to print it as text",
                        ),
                    ),
                    Found::Link {
                        chapter,
                        anchor,
                        at: offset,
                    } => {
                        let problem = match anchors.get(chapter.as_str()) {
                            None => Some(format!(
                                "links to chapter `{chapter}`, which book `{}` does not have",
                                book.id.value
                            )),
                            Some(list) => anchor.as_ref().filter(|a| !list.contains(a)).map(|a| {
                                format!(
                                    "links to `#{a}`, which is not a heading of chapter `{chapter}`"
                                )
                            }),
                        };
                        if let Some(msg) = problem {
                            out.push(
                                Diagnostic::error(
                                    Kind::BrokenLink,
                                    &lib.sources,
                                    &at(*offset, 1),
                                    msg,
                                )
                                .with_table(&book.id.value)
                                .with_hint(hint(book, anchors.get(chapter.as_str()).copied())),
                            );
                        }
                    }
                }
            }
        }
    }
    // A book places its own game's items (`bbb.…` for the book `bbb.srd`); another game's tables (a
    // chase kit's) are printed by that game's kit, not by this book. Of its game, a table is the rules'
    // when its namespace (`bbb.homicide` of `bbb.homicide.district`: the id but its last segment) is one
    // the rules use: a built-in table's, or one a chapter places a table from. A table outside them, or
    // imported, is the GM's own: it needs no place, and `check` notes what the book does with it.
    let games: BTreeSet<&str> = lib.books.iter().map(|b| game(&b.id.value)).collect();
    let mut rules_namespaces: Option<BTreeSet<String>> = None;
    let mut rules_namespace = |id: &str| {
        rules_namespaces
            .get_or_insert_with(|| {
                let mut set = builtin_namespaces().clone();
                set.extend(
                    placed
                        .iter()
                        .filter(|(of, _)| *of == RefKind::Table)
                        .map(|(_, id)| namespace(id).to_owned()),
                );
                set
            })
            .contains(namespace(id))
    };
    for t in &lib.tables {
        let id = &t.id;
        if !games.contains(game(&id.value)) || placed.contains(&(RefKind::Table, id.value.clone()))
        {
            continue;
        }
        let why = if t.imported.is_some() {
            "it is imported".to_owned()
        } else if !rules_namespace(&id.value) {
            format!(
                "no table of the rules has an id starting `{}.`",
                namespace(&id.value)
            )
        } else {
            continue;
        };
        let Some(book) = lib
            .books
            .iter()
            .find(|b| game(&b.id.value) == game(&id.value))
        else {
            continue;
        };
        let (what, hint) = match book.own_tables {
            OwnTables::LeaveOut => (
                "leaves it out",
                format!(
                    "to print it, put `{{table:{}}}` on a line of its own in a chapter, or set `own_tables = \"appendix\"` in the `[[book]]` to print every such table in Appendix A",
                    id.value
                ),
            ),
            OwnTables::Appendix => (
                "prints it in Appendix A (`own_tables = \"appendix\"`)",
                format!(
                    "to print it in a chapter instead, put `{{table:{}}}` on a line of its own there",
                    id.value
                ),
            ),
        };
        out.push(
            Diagnostic::note(
                Kind::OwnTable,
                &lib.sources,
                &id.loc,
                format!(
                    "table `{}` is your own ({why}) and no chapter places it: the book `{}` {what}",
                    id.value, book.id.value
                ),
            )
            .with_table(&id.value)
            .with_hint(hint),
        );
    }
    let unplaced = |of: RefKind, id: &Located<String>, out: &mut Vec<Diagnostic>| {
        if games.contains(game(&id.value)) && !placed.contains(&(of, id.value.clone())) {
            let what = format!("{of:?}").to_lowercase();
            out.push(
                Diagnostic::error(
                    Kind::UnplacedTable,
                    &lib.sources,
                    &id.loc,
                    format!("{what} `{}` is not placed in any chapter", id.value),
                )
                .with_table(&id.value)
                .with_hint(format!(
                    "put `{{{what}:{}}}` on a line of its own in the chapter where it belongs",
                    id.value
                )),
            );
        }
    };
    for t in &lib.tables {
        if t.imported.is_none() && rules_namespace(&t.id.value) {
            unplaced(RefKind::Table, &t.id, out);
        }
    }
    for l in &lib.lookups {
        unplaced(RefKind::Lookup, &l.id, out);
    }
    for d in &lib.decks {
        unplaced(RefKind::Deck, &d.id, out);
    }
    if let Some(n) = lib.npcs.iter().find(|n| games.contains(game(&n.id.value)))
        && !placed.contains(&(RefKind::Npcs, String::new()))
    {
        out.push(
            Diagnostic::error(
                Kind::UnplacedTable,
                &lib.sources,
                &n.id.loc,
                "the stock NPCs are not placed in any chapter",
            )
            .with_table(&n.id.value)
            .with_hint("put `{npcs}` on a line of its own in the chapter about NPCs"),
        );
    }
}

/// The namespace of an id: all of it but its last segment (`bbb.homicide` of `bbb.homicide.district`,
/// `bbb.names.asian` of `bbb.names.asian.female`, `x` of `x.method`; an id of one segment is its own).
fn namespace(id: &str) -> &str {
    id.rsplit_once('.').map_or(id, |(ns, _)| ns)
}

/// The namespaces of the built-in content's tables: the rules'. Read once from the embedded content.
fn builtin_namespaces() -> &'static BTreeSet<String> {
    static SET: std::sync::OnceLock<BTreeSet<String>> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        let mut files = Vec::new();
        crate::load::collect_embedded(&crate::load::EMBEDDED, &mut files);
        files.retain(|(p, _)| p.ends_with(".toml"));
        files.sort();
        let (lib, _) = crate::load_files(files);
        lib.tables
            .iter()
            .map(|t| namespace(&t.id.value).to_owned())
            .collect()
    })
}

fn hint(book: &Book, anchors: Option<&Vec<String>>) -> String {
    match anchors {
        Some(list) if !list.is_empty() => format!(
            "headings there: {}",
            list.iter()
                .map(|a| format!("`#{a}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => format!(
            "link to one of {} (as `slug.md` or `slug.md#heading`)",
            book.chapters
                .iter()
                .map(|c| format!("`{}`", c.slug))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
