//! The SRD booklet: a checked library and one of its books in; the typst data for the PDF (chapters as block
//! trees, every table with exact odds, editorial fills, house rulings, credits) and the Markdown editions
//! (one file, and one file per chapter with an mdBook `SUMMARY.md`) out. Tables are never retyped: every
//! placement and mention comes from the checked content.

use std::collections::BTreeMap;

use serde::Serialize;

use super::Paper;
use super::data::{self, DeckData, LookupData, NpcData, TableData};
use super::markdown::{anchor as id_anchor, escape, pct};
use crate::check::{Fill, Report};
use crate::content::prose::{self, Block, Found, RefKind};
use crate::content::text::{Piece, pieces};
use crate::content::{Book, Library};

/// Appendix pages of the Markdown book, in order: (file stem, title).
pub const APPENDICES: [(&str, &str); 4] = [
    ("all-tables", "Appendix A: All tables"),
    ("editorial-fills", "Appendix B: Editorial fills"),
    ("house-rulings", "Appendix C: House rulings"),
    ("credits", "Appendix D: Credits and licences"),
];

#[derive(Debug, Clone, Serialize)]
pub struct SrdData {
    pub paper: Paper,
    pub generator: String,
    pub content_version: String,
    pub book: BookMeta,
    pub chapters: Vec<ChapterData>,
    /// Every table, lookup and deck by id, and what inline mentions need to know.
    pub tables: BTreeMap<String, SrdTable>,
    pub lookups: BTreeMap<String, LookupData>,
    pub decks: BTreeMap<String, DeckData>,
    pub npcs: Vec<NpcData>,
    pub refs: BTreeMap<String, RefInfo>,
    /// Table ids in the order the chapters place them (for the all-tables appendix).
    pub table_order: Vec<String>,
    pub editorial: Vec<Fill>,
    pub rulings: Vec<RulingData>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BookMeta {
    pub id: String,
    pub title: String,
    pub subtitle: Option<String>,
    pub author: String,
    pub language: String,
    pub credits: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ChapterData {
    pub slug: String,
    pub title: String,
    pub blocks: Vec<Block>,
}

/// A table ready to typeset: results split into text, inline rolls and references.
#[derive(Debug, Clone, Serialize)]
pub struct SrdTable {
    pub id: String,
    pub title: String,
    pub dice: String,
    pub note: Option<String>,
    pub editorial: Option<String>,
    pub rows: Vec<SrdRow>,
    /// The largest row probability, for scaling the odds bars.
    pub max_approx: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct SrdRow {
    pub on: String,
    pub parts: Vec<Part>,
    pub probability: String,
    pub approx: f64,
    pub editorial: bool,
}

/// A piece of a result: literal text, an inline roll, or a reference to another table.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Part {
    Text { text: String },
    Roll { text: String },
    Ref { id: String, title: String },
}

/// What a mention of an id needs: its title, its kind, and the chapter that places it.
#[derive(Debug, Clone, Serialize)]
pub struct RefInfo {
    pub title: String,
    pub of: RefKind,
    pub chapter: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RulingData {
    pub id: String,
    pub title: String,
    pub ruling: String,
    pub reason: Option<String>,
}

/// Split a result into parts; `title` names a referenced table.
fn parts(result: &str, title: impl Fn(&str) -> Option<String>) -> Vec<Part> {
    match pieces(result) {
        Ok(ps) => ps
            .into_iter()
            .map(|p| match p {
                Piece::Text(t) => Part::Text { text: t.to_owned() },
                Piece::Roll { expr, .. } => Part::Roll {
                    text: expr.to_owned(),
                },
                Piece::Table { id, .. } => Part::Ref {
                    id: id.to_owned(),
                    title: title(id).unwrap_or_else(|| id.to_owned()),
                },
            })
            .collect(),
        Err(_) => vec![Part::Text {
            text: result.to_owned(),
        }],
    }
}

/// Build the booklet data. `None` when the library did not pass the checker.
pub fn data(lib: &Library, report: &Report, book: &Book, paper: Paper) -> Option<SrdData> {
    let reference = data::reference(lib, report)?;
    let tables: BTreeMap<String, SrdTable> = reference
        .tables
        .iter()
        .map(|t| (t.id.clone(), srd_table(t, lib)))
        .collect();
    // Parse every chapter once: its blocks for typst, its directives for where items are placed.
    let parsed: Vec<(&str, prose::Parsed)> = book
        .chapters
        .iter()
        .map(|c| (c.slug.as_str(), prose::parse(&c.body, &c.slug)))
        .collect();
    let mut refs: BTreeMap<String, RefInfo> = lib
        .tables
        .iter()
        .map(|t| (&t.id.value, &t.title, RefKind::Table))
        .chain(
            lib.lookups
                .iter()
                .map(|l| (&l.id.value, &l.title, RefKind::Lookup)),
        )
        .chain(
            lib.decks
                .iter()
                .map(|d| (&d.id.value, &d.title, RefKind::Deck)),
        )
        .map(|(id, title, of)| {
            (
                id.clone(),
                RefInfo {
                    title: title.clone(),
                    of,
                    chapter: None,
                },
            )
        })
        .collect();
    let mut table_order = Vec::new();
    for (slug, p) in &parsed {
        for f in &p.found {
            if let Found::Directive {
                of,
                id,
                placed: true,
                ..
            } = f
            {
                if let Some(r) = refs.get_mut(id)
                    && r.chapter.is_none()
                {
                    r.chapter = Some((*slug).to_owned());
                }
                if *of == RefKind::Table && !table_order.contains(id) {
                    table_order.push(id.clone());
                }
            }
        }
    }
    let chapters: Vec<ChapterData> = book
        .chapters
        .iter()
        .zip(parsed)
        .map(|(c, (_, p))| ChapterData {
            slug: c.slug.clone(),
            title: c.title.clone(),
            blocks: p.blocks,
        })
        .collect();
    Some(SrdData {
        paper,
        generator: format!("blockprint {}", env!("CARGO_PKG_VERSION")),
        content_version: lib.version.clone(),
        book: BookMeta {
            id: book.id.value.clone(),
            title: book.title.clone(),
            subtitle: book.subtitle.clone(),
            author: book.author.clone(),
            language: book.language.clone(),
            credits: book.credits.clone(),
        },
        chapters,
        tables,
        lookups: reference
            .lookups
            .into_iter()
            .map(|l| (l.id.clone(), l))
            .collect(),
        decks: reference
            .decks
            .into_iter()
            .map(|d| (d.id.clone(), d))
            .collect(),
        npcs: reference.npcs,
        refs,
        table_order,
        editorial: reference.editorial,
        rulings: lib
            .rulings
            .iter()
            .map(|r| RulingData {
                id: r.id.value.clone(),
                title: r.title.clone(),
                ruling: r.ruling.clone(),
                reason: r.reason.clone(),
            })
            .collect(),
    })
}

fn srd_table(t: &TableData, lib: &Library) -> SrdTable {
    SrdTable {
        id: t.id.clone(),
        title: t.title.clone(),
        dice: t.dice.clone(),
        note: t.note.clone(),
        editorial: t.editorial.clone(),
        max_approx: t.rows.iter().map(|r| r.approx).fold(0.0, f64::max),
        rows: t
            .rows
            .iter()
            .map(|r| SrdRow {
                on: r.on.clone(),
                parts: parts(&r.result, |id| lib.table(id).map(|t| t.title.clone())),
                probability: r.probability.clone(),
                approx: r.approx,
                editorial: r.editorial.is_some(),
            })
            .collect(),
    }
}

// ---------- Markdown ----------

/// How links are written: one file (`#slug--anchor`) or one file per chapter (`slug.md#anchor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Single,
    Book,
}

fn link(mode: Mode, chapter: &str, anchor: Option<&str>) -> String {
    match (mode, anchor) {
        (Mode::Single, Some(a)) => format!("#{chapter}--{a}"),
        (Mode::Single, None) => format!("#{chapter}"),
        (Mode::Book, Some(a)) => format!("{chapter}.md#{a}"),
        (Mode::Book, None) => format!("{chapter}.md"),
    }
}

/// The Markdown for a mention of a table, lookup or deck: a link to where it is placed.
fn mention(d: &SrdData, mode: Mode, id: &str) -> String {
    match d.refs.get(id) {
        Some(r) => {
            // Item anchors are ids, unique in the whole book: no chapter prefix in the single file.
            let target = match (mode, r.chapter.as_deref()) {
                (_, None) => link(mode, "all-tables", None),
                (Mode::Single, Some(_)) => format!("#{}", id_anchor(id)),
                (Mode::Book, Some(c)) => link(mode, c, Some(&id_anchor(id))),
            };
            format!("[{}]({target})", escape(&r.title))
        }
        None => escape(id),
    }
}

fn result_md(d: &SrdData, mode: Mode, parts: &[Part]) -> String {
    parts
        .iter()
        .map(|p| match p {
            Part::Text { text } => escape(text),
            Part::Roll { text } => format!("**{}**", escape(text)),
            Part::Ref { id, .. } => format!("roll on {}", mention(d, mode, id)),
        })
        .collect()
}

fn bar(p: f64, max: f64) -> String {
    let n = if max > 0.0 {
        (p / max * 8.0).round() as usize
    } else {
        0
    };
    "▮".repeat(n.max(1))
}

fn table_md(d: &SrdData, mode: Mode, t: &SrdTable, anchor: bool) -> String {
    let mut s = String::new();
    if anchor {
        s.push_str(&format!("<a id=\"{}\"></a>\n\n", id_anchor(&t.id)));
    }
    s.push_str(&format!(
        "**{}** — roll {}\n\n",
        escape(&t.title),
        escape(&t.dice)
    ));
    s.push_str(&format!(
        "| {} | Result | Chance | |\n|---:|---|---:|---|\n",
        escape(&t.dice)
    ));
    for r in &t.rows {
        let mark = if r.editorial { " †" } else { "" };
        s.push_str(&format!(
            "| {} | {}{mark} | {} ({}) | {} |\n",
            escape(&r.on),
            result_md(d, mode, &r.parts),
            pct(r.approx),
            r.probability,
            bar(r.approx, t.max_approx)
        ));
    }
    if let Some(n) = &t.note {
        s.push_str(&format!("\n*{}*\n", escape(n)));
    }
    s
}

fn lookup_md(l: &LookupData, anchor: bool) -> String {
    let mut s = String::new();
    if anchor {
        s.push_str(&format!("<a id=\"{}\"></a>\n\n", id_anchor(&l.id)));
    }
    s.push_str(&format!(
        "**{}**\n\n| {} | {} |\n|---|---|\n",
        escape(&l.title),
        escape(&l.key),
        escape(&l.value)
    ));
    for e in &l.entries {
        let note = e
            .note
            .as_ref()
            .map(|n| format!(" ({})", escape(n)))
            .unwrap_or_default();
        let mark = if e.editorial.is_some() { " †" } else { "" };
        s.push_str(&format!(
            "| {} | {}{note}{mark} |\n",
            escape(&e.key),
            escape(&e.value)
        ));
    }
    if let Some(n) = &l.note {
        s.push_str(&format!("\n*{}*\n", escape(n)));
    }
    s
}

fn deck_md(dk: &DeckData, anchor: bool) -> String {
    let mut s = String::new();
    if anchor {
        s.push_str(&format!("<a id=\"{}\"></a>\n\n", id_anchor(&dk.id)));
    }
    s.push_str(&format!(
        "**{}** (card deck)\n\n| Card |",
        escape(&dk.title)
    ));
    for (suit, meaning) in &dk.suits {
        s.push_str(&format!(" {}: {} |", capitalise(suit), escape(meaning)));
    }
    s.push_str("\n|---|---|---|---|---|\n");
    for (rank, cards) in &dk.ranks {
        s.push_str(&format!("| {rank} |"));
        for c in cards {
            s.push_str(&format!(" {} |", escape(c)));
        }
        s.push('\n');
    }
    if let Some(n) = &dk.note {
        s.push_str(&format!("\n*{}*\n", escape(n)));
    }
    s
}

fn npcs_md(npcs: &[NpcData]) -> String {
    let mut s = String::from("| NPC | Class | Level | Mastery |\n|---|---|---:|---|\n");
    for n in npcs {
        s.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            escape(&n.name),
            escape(&n.class),
            n.level,
            n.mastery.as_deref().map_or("—".to_owned(), escape)
        ));
    }
    s
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A chapter's Markdown with directives replaced, links rewritten for `mode`, explicit heading anchors,
/// and headings shifted down by `shift` levels.
fn chapter_md(d: &SrdData, book: &Book, slug: &str, mode: Mode, shift: usize) -> String {
    let Some(c) = book.chapters.iter().find(|c| c.slug == slug) else {
        return String::new();
    };
    let parsed = prose::parse(&c.body, slug);
    let body = &c.body;
    // Replacements: (start, end, text), applied from the back.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut placed_once: Vec<String> = Vec::new();
    for f in &parsed.found {
        match f {
            Found::Directive { of, id, placed, at } => {
                let Some(end) = body[*at..].find('}').map(|e| at + e + 1) else {
                    continue;
                };
                let text = if *placed {
                    let first = d.refs.get(id.as_str()).and_then(|r| r.chapter.as_deref())
                        == Some(slug)
                        && !placed_once.contains(id);
                    placed_once.push(id.clone());
                    match of {
                        RefKind::Table => d.tables.get(id).map(|t| table_md(d, mode, t, first)),
                        RefKind::Lookup => d.lookups.get(id).map(|l| lookup_md(l, first)),
                        RefKind::Deck => d.decks.get(id).map(|dk| deck_md(dk, first)),
                        RefKind::Npcs => Some(npcs_md(&d.npcs)),
                    }
                    .unwrap_or_default()
                } else {
                    mention(d, mode, id)
                };
                edits.push((*at, end, text));
            }
            Found::Link {
                chapter,
                anchor,
                at,
            } => {
                // `[text](dest)`: rewrite dest, found after the link text's closing `](`.
                let Some(open) = body[*at..].find("](").map(|o| at + o + 2) else {
                    continue;
                };
                let Some(close) = body[open..].find(')').map(|c| open + c) else {
                    continue;
                };
                edits.push((open, close, link(mode, chapter, anchor.as_deref())));
            }
            Found::BadDirective { .. } => {}
        }
    }
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut text = body.to_owned();
    for (a, b, t) in edits {
        text.replace_range(a..b, &t);
    }
    // Headings: an explicit anchor before each, and the level shift.
    let mut out = String::new();
    let mut fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
        }
        let hashes = line.chars().take_while(|&ch| ch == '#').count();
        if !fence && (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            let title = line[hashes..].trim();
            let a = prose::anchor(title);
            let id = if mode == Mode::Single {
                format!("{slug}--{a}")
            } else {
                a
            };
            out.push_str(&format!(
                "<a id=\"{id}\"></a>\n\n{} {title}\n",
                "#".repeat((hashes + shift).min(6))
            ));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn appendix_md(d: &SrdData, mode: Mode, stem: &str) -> String {
    let mut s = String::new();
    match stem {
        "all-tables" => {
            s.push_str("Every random table in the book, in the order the chapters place them, with exact odds.\n\n");
            for id in &d.table_order {
                if let Some(t) = d.tables.get(id) {
                    s.push_str(&table_md(d, mode, t, false));
                    s.push('\n');
                }
            }
        }
        "editorial-fills" => {
            s.push_str("The source text lost rows of several tables and leaves some numbers unstated. Each gap below was filled by an editorial choice, marked † where the table is printed.\n\n");
            for f in &d.editorial {
                let at = if f.at.is_empty() {
                    String::new()
                } else {
                    format!(" `{}`", f.at)
                };
                let res = if f.result.is_empty() {
                    String::new()
                } else {
                    format!(
                        " → {}",
                        result_md(
                            d,
                            mode,
                            &parts(&f.result, |id| d.refs.get(id).map(|r| r.title.clone()))
                        )
                    )
                };
                let title = d
                    .refs
                    .get(&f.id)
                    .map_or(f.id.as_str(), |r| r.title.as_str());
                s.push_str(&format!(
                    "- **{}**{at}{res}: {}\n",
                    escape(title),
                    escape(&f.reason)
                ));
            }
        }
        "house-rulings" => {
            s.push_str("Where the rules leave a point open, or state it two ways, this book rules as follows.\n\n");
            for r in &d.rulings {
                s.push_str(&format!("**{}.** {}", escape(&r.title), escape(&r.ruling)));
                if let Some(reason) = &r.reason {
                    s.push_str(&format!(" *Why:* {}", escape(reason)));
                }
                s.push_str("\n\n");
            }
        }
        _ => {
            if let Some(c) = &d.book.credits {
                s.push_str(&escape(c));
                s.push_str("\n\n");
            }
            s.push_str(&format!(
                "Generated by {} from content {}.\n",
                d.generator, d.content_version
            ));
        }
    }
    s
}

/// The whole book as one Markdown file.
pub fn markdown_single(d: &SrdData, book: &Book) -> String {
    let mut s = format!("# {}\n\n", escape(&d.book.title));
    if let Some(sub) = &d.book.subtitle {
        s.push_str(&format!("*{}*\n\n", escape(sub)));
    }
    s.push_str(&format!(
        "By {}.\n\n## Contents\n\n",
        escape(&d.book.author)
    ));
    for c in &d.chapters {
        s.push_str(&format!("- [{}](#{})\n", escape(&c.title), c.slug));
    }
    for (stem, title) in APPENDICES {
        s.push_str(&format!("- [{title}](#{stem})\n"));
    }
    for c in &d.chapters {
        s.push_str(&format!(
            "\n<a id=\"{}\"></a>\n\n## {}\n\n",
            c.slug,
            escape(&c.title)
        ));
        s.push_str(&chapter_md(d, book, &c.slug, Mode::Single, 1));
    }
    for (stem, title) in APPENDICES {
        s.push_str(&format!("\n<a id=\"{stem}\"></a>\n\n## {title}\n\n"));
        s.push_str(&appendix_md(d, Mode::Single, stem));
    }
    s
}

/// One Markdown file per chapter and appendix, plus mdBook's `SUMMARY.md`: (file name, text).
pub fn markdown_book(d: &SrdData, book: &Book) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut summary = format!(
        "# Summary\n\n[{}](introduction.md)\n\n",
        escape(&d.book.title)
    );
    for (i, c) in d.chapters.iter().enumerate() {
        let text = format!(
            "# {}\n\n{}",
            escape(&c.title),
            chapter_md(d, book, &c.slug, Mode::Book, 0)
        );
        files.push((format!("{}.md", c.slug), text));
        if i > 0 {
            summary.push_str(&format!("- [{}]({}.md)\n", escape(&c.title), c.slug));
        }
    }
    summary.push_str("\n# Appendices\n\n");
    for (stem, title) in APPENDICES {
        files.push((
            format!("{stem}.md"),
            format!("# {title}\n\n{}", appendix_md(d, Mode::Book, stem)),
        ));
        summary.push_str(&format!("- [{title}]({stem}.md)\n"));
    }
    files.push(("SUMMARY.md".to_owned(), summary));
    files
}
