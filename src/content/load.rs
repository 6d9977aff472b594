//! Loading: a content root (embedded or a directory) in, a [`Library`] of located items plus parse/schema
//! diagnostics out. Files are read in sorted path order so everything downstream is stable.

use std::io;
use std::path::{Path, PathBuf};

use std::collections::BTreeMap;

use include_dir::{Dir, include_dir};
use toml::Spanned;

use super::model::*;
use super::{Library, Source};
use crate::diag::{Diagnostic, Kind, Loc};

/// The content compiled into the binary.
pub static EMBEDDED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/content");

/// Where content comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContentRoot {
    Embedded,
    Dir(PathBuf),
}

impl ContentRoot {
    pub fn from_option(dir: Option<PathBuf>) -> Self {
        dir.map_or(ContentRoot::Embedded, ContentRoot::Dir)
    }

    /// Every file under the root as (path relative to the root with `/` separators, bytes), sorted by path.
    /// Hidden files and folders (starting with `.`) are skipped.
    pub fn files(&self) -> io::Result<Vec<(String, Vec<u8>)>> {
        let mut out = Vec::new();
        match self {
            ContentRoot::Embedded => collect_embedded(&EMBEDDED, &mut out),
            ContentRoot::Dir(dir) => {
                let meta = std::fs::metadata(dir).map_err(|e| with_path(e, dir))?;
                if !meta.is_dir() {
                    return Err(io::Error::new(
                        io::ErrorKind::NotADirectory,
                        format!("{} is not a directory", dir.display()),
                    ));
                }
                collect_dir(dir, dir, &mut out)?
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    /// How to name the root in messages.
    pub fn label(&self) -> String {
        match self {
            ContentRoot::Embedded => "built-in content".to_owned(),
            ContentRoot::Dir(d) => d.display().to_string(),
        }
    }
}

fn with_path(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

fn collect_embedded(dir: &Dir<'static>, out: &mut Vec<(String, Vec<u8>)>) {
    for f in dir.files() {
        let path = f.path().to_string_lossy().replace('\\', "/");
        if !is_hidden(&path) {
            out.push((path, f.contents().to_vec()));
        }
    }
    for d in dir.dirs() {
        if !is_hidden(&d.path().to_string_lossy()) {
            collect_embedded(d, out);
        }
    }
}

fn is_hidden(rel: &str) -> bool {
    rel.split('/').any(|part| part.starts_with('.'))
}

fn collect_dir(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) -> io::Result<()> {
    for entry in std::fs::read_dir(dir).map_err(|e| with_path(e, dir))? {
        let entry = entry.map_err(|e| with_path(e, dir))?;
        let path = entry.path();
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let ty = entry.file_type().map_err(|e| with_path(e, &path))?;
        if ty.is_dir() {
            collect_dir(root, &path, out)?;
        } else if ty.is_file() {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            out.push((rel, std::fs::read(&path).map_err(|e| with_path(e, &path))?));
        }
    }
    Ok(())
}

/// Load every `.toml` file under `root`. I/O failures are `Err`; content problems are diagnostics.
pub fn load(root: &ContentRoot) -> io::Result<(Library, Vec<Diagnostic>)> {
    Ok(load_files(root.files()?))
}

/// Load content from files already in memory: (path relative to the root with `/` separators, bytes),
/// sorted by path as [`ContentRoot::files`] gives them. For tests and fuzzing, which need no folder.
pub fn load_files(files: Vec<(String, Vec<u8>)>) -> (Library, Vec<Diagnostic>) {
    let mut lib = Library::default();
    let mut diags = Vec::new();
    lib.version = version(&files);
    let mut markdown: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for (path, bytes) in files {
        if path.ends_with(".md") {
            markdown.insert(path, bytes);
            continue;
        }
        if !path.ends_with(".toml") {
            continue;
        }
        let file = lib.sources.len();
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                lib.sources.push(Source::new(path, text));
                let loc = Loc {
                    file,
                    span: at..at + 1,
                };
                diags.push(
                    Diagnostic::error(Kind::Parse, &lib.sources, &loc, "file is not valid UTF-8")
                        .with_hint("save the file as UTF-8"),
                );
                continue;
            }
        };
        lib.sources.push(Source::new(path, text));
        let text = &lib.sources[file].text;
        // Syntax first, so a TOML mistake is told apart from a schema mistake.
        if let Err(e) = text.parse::<toml::Table>() {
            let loc = error_loc(file, e.span(), text.len());
            diags.push(
                Diagnostic::error(
                    Kind::Parse,
                    &lib.sources,
                    &loc,
                    format!("invalid TOML: {}", first_line(e.message())),
                )
                .with_hint("fix the TOML syntax at the marked place (quotes, commas, brackets)"),
            );
            continue;
        }
        match toml::from_str::<FileDoc>(text) {
            Ok(doc) => add_doc(&mut lib, file, doc),
            Err(e) => {
                let loc = error_loc(file, e.span(), text.len());
                let msg = first_line(e.message()).to_owned();
                let hint = schema_hint(&msg);
                diags
                    .push(Diagnostic::error(Kind::Schema, &lib.sources, &loc, msg).with_hint(hint));
            }
        }
    }
    chapters(&mut lib, &markdown, &mut diags);
    lib.reindex();
    (lib, diags)
}

/// A short fingerprint of every file under the root (FNV-1a, 64 bits, over paths and bytes in path order):
/// printed on every page so a packet names the content it came from.
fn version(files: &[(String, Vec<u8>)]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for (path, bytes) in files {
        eat(path.as_bytes());
        eat(&[0]);
        eat(&(bytes.len() as u64).to_le_bytes());
        eat(bytes);
    }
    format!("{h:016x}")[..12].to_owned()
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s).trim()
}

fn error_loc(file: usize, span: Option<std::ops::Range<usize>>, len: usize) -> Loc {
    let span = span.unwrap_or(0..0);
    let start = span.start.min(len);
    Loc {
        file,
        span: start..span.end.clamp(start, len),
    }
}

fn schema_hint(msg: &str) -> String {
    if msg.contains("unknown field") {
        "check the key's spelling; content/README.md lists every key each entry may have".to_owned()
    } else if msg.contains("missing field") {
        "add the missing key; content/README.md lists the required keys".to_owned()
    } else {
        "see content/README.md for the expected shape of this entry".to_owned()
    }
}

fn loc(file: usize, span: std::ops::Range<usize>) -> Loc {
    Loc { file, span }
}

fn located<T>(file: usize, s: Spanned<T>) -> Located<T> {
    let span = s.span();
    Located::new(s.into_inner(), file, span)
}

/// Resolve each book's chapter slugs to `<book folder>/<slug>.md`, read their front matter, and report
/// missing chapters, bad front matter, and Markdown files beside a book that it does not list.
fn chapters(lib: &mut Library, markdown: &BTreeMap<String, Vec<u8>>, diags: &mut Vec<Diagnostic>) {
    for b in 0..lib.books.len() {
        let book_file = lib.books[b].id.loc.file;
        let folder = match lib.sources[book_file].path.rsplit_once('/') {
            Some((dir, _)) => format!("{dir}/"),
            None => String::new(),
        };
        let order = lib.books[b].order.clone();
        for slug in &order {
            let path = format!("{folder}{}.md", slug.value);
            let Some(bytes) = markdown.get(&path) else {
                diags.push(
                    Diagnostic::error(Kind::MissingChapter, &lib.sources, &slug.loc, format!("chapter `{}` has no file {path}", slug.value))
                        .with_table(&lib.books[b].id.value)
                        .with_hint(format!("create {path} with `+++ title = \"…\" +++` front matter, or remove `{}` from `chapters`", slug.value)),
                );
                continue;
            };
            let file = lib.sources.len();
            lib.sources.push(Source::new(
                path.clone(),
                String::from_utf8_lossy(bytes).into_owned(),
            ));
            match front_matter(&lib.sources[file].text) {
                Ok((fm_span, body_offset)) => {
                    let text = &lib.sources[file].text;
                    match toml::from_str::<FrontMatter>(&text[fm_span.clone()]) {
                        Ok(fm) => {
                            let chapter = Chapter {
                                slug: slug.value.clone(),
                                title: fm.title,
                                body: text[body_offset..].to_owned(),
                                file,
                                body_offset,
                            };
                            lib.books[b].chapters.push(chapter);
                        }
                        Err(e) => {
                            let span = e.span().map_or(fm_span.start..fm_span.start, |s| {
                                fm_span.start + s.start..fm_span.start + s.end
                            });
                            let msg = first_line(e.message()).to_owned();
                            diags.push(
                                Diagnostic::error(
                                    Kind::Schema,
                                    &lib.sources,
                                    &Loc { file, span },
                                    format!("front matter: {msg}"),
                                )
                                .with_hint(
                                    "front matter holds `title = \"…\"` between `+++` lines",
                                ),
                            );
                        }
                    }
                }
                Err(msg) => diags.push(
                    Diagnostic::error(Kind::Schema, &lib.sources, &Loc { file, span: 0..0 }, msg)
                        .with_hint(
                            "start the chapter with `+++`, a line `title = \"…\"`, and `+++`",
                        ),
                ),
            }
        }
        // Markdown beside the book that the book does not list.
        for path in markdown.keys() {
            let Some(rest) = path.strip_prefix(&folder) else {
                continue;
            };
            if rest.contains('/') || rest.eq_ignore_ascii_case("README.md") {
                continue;
            }
            let slug = rest.trim_end_matches(".md");
            if !order.iter().any(|s| s.value == slug) {
                let id = lib.books[b].id.clone();
                diags.push(
                    Diagnostic::warning(
                        Kind::UnlistedChapter,
                        &lib.sources,
                        &id.loc,
                        format!("{path} is not in the chapters of book `{}`", id.value),
                    )
                    .with_table(&id.value)
                    .with_hint(format!(
                        "add `\"{slug}\"` to `chapters`, or move the file elsewhere"
                    )),
                );
            }
        }
    }
}

/// The byte span of the TOML between the opening and closing `+++` lines, and where the body starts.
fn front_matter(text: &str) -> Result<(std::ops::Range<usize>, usize), String> {
    let rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(after_open) = rest
        .strip_prefix("+++\n")
        .or_else(|| rest.strip_prefix("+++\r\n"))
    else {
        return Err("a chapter must start with a `+++` front matter line".to_owned());
    };
    let start = text.len() - after_open.len();
    let mut offset = start;
    for line in after_open.split_inclusive('\n') {
        if line.trim_end() == "+++" {
            return Ok((start..offset, offset + line.len()));
        }
        offset += line.len();
    }
    Err("the front matter's closing `+++` line is missing".to_owned())
}

fn add_doc(lib: &mut Library, file: usize, doc: FileDoc) {
    for t in doc.table {
        let t = t.into_inner();
        let rows_loc = loc(file, t.rows.span());
        let rows = t
            .rows
            .into_inner()
            .into_iter()
            .map(|r| {
                let row_loc = loc(file, r.span());
                let r = r.into_inner();
                Row {
                    on: located(file, r.on),
                    result: located(file, r.result),
                    editorial: r.editorial,
                    modifier: r.modifier,
                    unit: r.unit,
                    tags: r.tags.into_iter().map(|t| located(file, t)).collect(),
                    loc: row_loc,
                }
            })
            .collect();
        lib.tables.push(Table {
            id: located(file, t.id),
            title: t.title,
            dice: located(file, t.dice),
            note: t.note,
            editorial: t.editorial,
            keys_of: t.keys_of.map(|k| located(file, k)),
            rows,
            rows_loc,
        });
    }
    for l in doc.lookup {
        let l = l.into_inner();
        let entries_loc = loc(file, l.entries.span());
        let entries = l
            .entries
            .into_inner()
            .into_iter()
            .map(|e| {
                let e = e.into_inner();
                Entry {
                    key: located(file, e.key),
                    value: located(file, e.value),
                    note: e.note,
                    editorial: e.editorial,
                    up_to_hours: e.up_to_hours.map(|h| located(file, h)),
                }
            })
            .collect();
        lib.lookups.push(Lookup {
            id: located(file, l.id),
            title: l.title,
            key: l.key,
            value: l.value,
            kind: l.kind,
            role: l.role,
            note: l.note,
            editorial: l.editorial,
            entries,
            entries_loc,
        });
    }
    for d in doc.deck {
        let deck_span = d.span();
        let d = d.into_inner();
        let suit = |s: Option<Spanned<Vec<Spanned<String>>>>| match s {
            Some(s) => {
                let span = s.span();
                Located::new(
                    s.into_inner()
                        .into_iter()
                        .map(|c| located(file, c))
                        .collect(),
                    file,
                    span,
                )
            }
            None => Located::new(Vec::new(), file, deck_span.clone()),
        };
        let cards = [
            suit(d.hearts),
            suit(d.clubs),
            suit(d.diamonds),
            suit(d.spades),
        ];
        lib.decks.push(Deck {
            id: located(file, d.id),
            title: d.title,
            note: d.note,
            editorial: d.editorial,
            suits: d.suits,
            cards,
        });
    }
    for b in doc.book {
        let b = b.into_inner();
        lib.books.push(Book {
            id: located(file, b.id),
            title: b.title,
            subtitle: b.subtitle,
            author: b.author,
            language: b.language.unwrap_or_else(|| "en".to_owned()),
            credits: b.credits,
            order: b.chapters.into_iter().map(|c| located(file, c)).collect(),
            chapters: Vec::new(),
        });
    }
    for r in doc.ruling {
        let r = r.into_inner();
        lib.rulings.push(Ruling {
            id: located(file, r.id),
            title: r.title,
            ruling: r.ruling,
            reason: r.reason,
        });
    }
    for n in doc.npc {
        let n = n.into_inner();
        lib.npcs.push(Npc {
            id: located(file, n.id),
            name: n.name,
            class: located(file, n.class),
            level: n.level,
            mastery: n.mastery,
        });
    }
}
