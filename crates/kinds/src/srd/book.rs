//! The SRD booklet: a checked library and one of its books in; the typst data for the PDF (chapters as block
//! trees, every table with exact odds, editorial fills, house rulings, credits) and the Markdown editions
//! (one file, and one file per chapter with an mdBook `SUMMARY.md`) out. Tables are never retyped: every
//! placement and mention comes from the checked content.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex};

use minijinja::Value;
use minijinja::value::{Enumerator, Object, Serde};
use serde::Serialize;

use crate::Paper;
use crate::data::{self, DeckData, LookupData, NpcData, TableData};
use blockprint_content::check::{Fill, Report};
use blockprint_content::prose::{self, Block, Found, RefKind};
use blockprint_content::text::smart_quotes;
use blockprint_content::{Book, Library, OwnTables, game};
pub use blockprint_dice::words::dice_words;
use blockprint_render::markdown::{Part, parts};
use blockprint_render::pages::reader::needs_words;

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
    pub edition: Option<String>,
    /// The index's terms as the book lists them (the PDF's index; the Markdown editions leave it out).
    pub index: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ChapterData {
    pub slug: String,
    pub title: String,
    /// The front matter's `role` (`quick-reference`), or none.
    pub role: Option<blockprint_content::ChapterRole>,
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

/// Build the booklet data. `None` when the library did not pass the checker.
pub fn data(lib: &Library, report: &Report, book: &Book, paper: Paper) -> Option<SrdData> {
    // The book prints its own game only: another game's tables, fills and rulings belong to its kit.
    let ours = |id: &str| game(id) == game(&book.id.value);
    let mut reference = data::reference(lib, report)?;
    reference.tables.retain(|t| ours(&t.id));
    reference.lookups.retain(|l| ours(&l.id));
    reference.decks.retain(|d| ours(&d.id));
    reference.npcs.retain(|n| ours(&n.id));
    reference.editorial.retain(|f| ours(&f.id));
    let tables: BTreeMap<String, SrdTable> = reference
        .tables
        .iter()
        .map(|t| (t.id.clone(), srd_table(t, lib)))
        .collect();
    // Parse every chapter once (or take the check's parse): its blocks for typst, its directives for
    // where items are placed.
    let parsed: Vec<(&str, prose::Parsed)> = book
        .chapters
        .iter()
        .map(|c| {
            let p = match report.parsed(&c.slug, &c.body) {
                Some(p) => p.clone(),
                None => prose::parse(&c.body, &c.slug),
            };
            (c.slug.as_str(), p)
        })
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
                    title: smart_quotes(title),
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
    // The GM's own tables no chapter places (the checker lets only those go unplaced): Appendix A prints
    // them after the placed ones when the book asks for it (`own_tables = "appendix"`), else the book
    // leaves them out, their editorial fills with them.
    let unplaced: Vec<String> = lib
        .tables
        .iter()
        .map(|t| t.id.value.clone())
        .filter(|id| ours(id) && !table_order.contains(id))
        .collect();
    let mut editorial = reference.editorial;
    match book.own_tables {
        OwnTables::Appendix => table_order.extend(unplaced),
        OwnTables::LeaveOut => editorial.retain(|f| !unplaced.contains(&f.id)),
    }
    let chapters: Vec<ChapterData> = book
        .chapters
        .iter()
        .zip(parsed)
        .map(|(c, (_, p))| ChapterData {
            slug: c.slug.clone(),
            title: smart_quotes(&c.title),
            role: c.role,
            blocks: p.blocks,
        })
        .collect();
    Some(SrdData {
        paper,
        generator: format!("blockprint {}", env!("CARGO_PKG_VERSION")),
        content_version: lib.version.clone(),
        book: BookMeta {
            id: book.id.value.clone(),
            title: smart_quotes(&book.title),
            subtitle: book.subtitle.as_deref().map(smart_quotes),
            author: smart_quotes(&book.author),
            language: book.language.clone(),
            credits: book.credits.as_deref().map(smart_quotes),
            edition: book.edition.as_deref().map(smart_quotes),
            index: book.index.clone(),
        },
        chapters,
        tables,
        lookups: reference
            .lookups
            .into_iter()
            .map(|mut l| {
                // A reader reads dice in words where the notation is more than plain dice (`1d6!`).
                for e in &mut l.entries {
                    if let Some(w) = dice_words(&e.value).filter(|_| needs_words(&e.value)) {
                        e.value = w;
                    }
                }
                (l.id.clone(), l)
            })
            .collect(),
        decks: reference
            .decks
            .into_iter()
            .map(|d| (d.id.clone(), d))
            .collect(),
        npcs: reference.npcs,
        refs,
        table_order,
        editorial,
        rulings: lib
            .rulings
            .iter()
            .filter(|r| ours(&r.id.value))
            .map(|r| RulingData {
                id: r.id.value.clone(),
                title: smart_quotes(&r.title),
                ruling: smart_quotes(&r.ruling),
                reason: r.reason.as_deref().map(smart_quotes),
            })
            .collect(),
    })
}

/// A result's inline rolls as a reader reads them: plain dice kept (`1d6`), other notation in words
/// (`2d10kl1` is "the lower of two d10").
fn spoken(parts: Vec<Part>) -> Vec<Part> {
    parts
        .into_iter()
        .map(|p| match p {
            Part::Roll { text } => match dice_words(&text).filter(|_| needs_words(&text)) {
                Some(words) => Part::Text { text: words },
                None => Part::Roll { text },
            },
            p => p,
        })
        .collect()
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
                parts: spoken(parts(&r.result, |id| {
                    lib.table(id).map(|t| t.title.clone())
                })),
                probability: r.probability.clone(),
                approx: r.approx,
                editorial: r.editorial.is_some(),
            })
            .collect(),
    }
}

// ---------- Markdown ----------

/// How the Markdown editions write links: one file (`#slug--anchor`) or one file per chapter
/// (`slug.md#anchor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Single,
    Book,
}

/// An appendix page of the Markdown editions.
#[derive(Debug, Clone, Serialize)]
pub struct Appendix {
    pub stem: &'static str,
    pub title: &'static str,
}

/// What the SRD Markdown templates need besides [`SrdData`]: how links are written, how many levels
/// chapter headings move down, and the appendices in order.
#[derive(Debug, Clone, Serialize)]
pub struct RenderContext {
    pub mode: Mode,
    pub shift: u8,
    pub appendices: Vec<Appendix>,
}

impl RenderContext {
    pub fn new(mode: Mode) -> Self {
        RenderContext {
            mode,
            // The one-file edition puts the book title at `#` and chapters at `##`.
            shift: match mode {
                Mode::Single => 1,
                Mode::Book => 0,
            },
            appendices: APPENDICES
                .iter()
                .map(|&(stem, title)| Appendix { stem, title })
                .collect(),
        }
    }
}

/// mdBook's `book.toml` for the book folder: title, author, language; the chapters and `SUMMARY.md` sit
/// beside it (`src = "."`), and `mdbook build` writes the HTML to `html/` there. `d` is the book's data
/// as [`data`] made it, serialized (the document's data).
pub fn book_toml(d: &serde_json::Value) -> String {
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_owned();
    let meta = &d["book"];
    let mut book = toml::Table::new();
    book.insert("title".into(), text(&meta["title"]).into());
    if let Some(sub) = meta["subtitle"].as_str() {
        book.insert("description".into(), sub.into());
    }
    book.insert(
        "authors".into(),
        toml::Value::Array(vec![text(&meta["author"]).into()]),
    );
    book.insert("language".into(), text(&meta["language"]).into());
    book.insert("src".into(), ".".into());
    let mut build = toml::Table::new();
    build.insert("build-dir".into(), "html".into());
    // A chapter missing from the folder is an error, not an empty page made up on the spot.
    build.insert("create-missing".into(), false.into());
    let mut root = toml::Table::new();
    root.insert("book".into(), toml::Value::Table(book));
    root.insert("build".into(), toml::Value::Table(build));
    format!(
        "# mdBook settings for this folder, written by {}: `mdbook build` here makes html/.
{}",
        text(&d["generator"]),
        toml::to_string(&root).unwrap_or_default()
    )
}

/// The Markdown editions of a book: the one-file edition and the mdBook folder's files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Editions {
    /// The whole book as one file (`srd/srd.md.j2`).
    pub single: String,
    /// One file per chapter (`srd/chapter.md.j2`) and appendix (`srd/appendix.md.j2`), then mdBook's
    /// `SUMMARY.md` (`srd/summary.md.j2`): (file name, text), in reading order.
    pub book: Vec<(String, String)>,
}

/// Chapters and appendices written before, with what each read of the book's data (see [`markdown`]).
/// It belongs to one template environment: a chapter's text is kept, not the templates it came from.
#[derive(Debug, Default)]
pub struct MarkdownCache {
    /// By edition and piece (a chapter's slug, an appendix's stem): the last few texts written.
    written: HashMap<(Mode, String), Vec<Written>>,
    /// How many pieces the last [`markdown`] wrote (the others it took from here).
    last: usize,
    /// Each field of the book's data (each entry of a map or list) as it was last seen, with its value
    /// for the templates: an entry equal to one seen before is not made into a template value again.
    fields: HashMap<String, Seen>,
}

impl MarkdownCache {
    /// How many chapters and appendices (one edition's each) the last [`markdown`] with this cache
    /// wrote, rather than took as written before.
    pub fn last_written(&self) -> usize {
        self.last
    }
}

/// How many texts [`MarkdownCache`] keeps for one piece of one edition.
const KEPT: usize = 4;

/// One chapter or appendix as written, with everything it read of the data.
#[derive(Debug)]
struct Written {
    /// The chapter (none for an appendix).
    chapter: Option<serde_json::Value>,
    /// Each part of the book's data the templates read, and its value then (none: it was missing),
    /// shared by every piece written from the same data (so that one comparison of a shared value with
    /// the data now answers for every piece that read it).
    read: Vec<(Read, Option<Arc<serde_json::Value>>)>,
    text: String,
}

/// A part of the book's data a template read: a whole field (`d.table_order`), one entry of a map
/// field (`d.refs[id]`), or the data as a whole (iterated over).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Read {
    All,
    Field(String),
    Entry(&'static str, String),
}

impl Read {
    fn of<'d>(&self, d: &'d serde_json::Value) -> Option<&'d serde_json::Value> {
        match self {
            Read::All => Some(d),
            Read::Field(f) => d.get(f),
            Read::Entry(f, key) => d.get(*f)?.get(key),
        }
    }
}

/// The map fields of [`SrdData`] whose entries are read one by one (a chapter reads the few it places
/// and mentions): a change to another entry leaves the chapter as it was.
const KEYED: [&str; 4] = ["refs", "tables", "lookups", "decks"];

/// The book's data as the templates see it, noting what they read.
#[derive(Debug)]
struct Noted {
    d: Value,
    read: Arc<Mutex<BTreeSet<Read>>>,
}

impl Noted {
    fn note(&self, r: Read) {
        self.read
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(r);
    }
}

impl Object for Noted {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let Some(name) = key.as_str() else {
            self.note(Read::All);
            return self.d.get_item(key).ok().filter(|v| !v.is_undefined());
        };
        let v = self.d.get_attr(name).ok().filter(|v| !v.is_undefined());
        match KEYED.iter().find(|k| **k == name) {
            Some(field) if v.as_ref().is_some_and(|v| v.as_object().is_some()) => {
                Some(Value::from_object(NotedMap {
                    field,
                    map: v?,
                    read: self.read.clone(),
                }))
            }
            _ => {
                self.note(Read::Field(name.to_owned()));
                v
            }
        }
    }
    fn enumerate(self: &Arc<Self>) -> Enumerator {
        self.note(Read::All);
        Enumerator::Values(self.d.try_iter().map(Iterator::collect).unwrap_or_default())
    }
}

/// One of [`KEYED`], noting each entry read (and the whole field when it is iterated over).
#[derive(Debug)]
struct NotedMap {
    field: &'static str,
    map: Value,
    read: Arc<Mutex<BTreeSet<Read>>>,
}

impl Object for NotedMap {
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        let r = match key.as_str() {
            Some(k) => Read::Entry(self.field, k.to_owned()),
            None => Read::Field(self.field.to_owned()),
        };
        self.read
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(r);
        self.map.get_item(key).ok().filter(|v| !v.is_undefined())
    }
    fn enumerate(self: &Arc<Self>) -> Enumerator {
        self.read
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(Read::Field(self.field.to_owned()));
        Enumerator::Values(
            self.map
                .try_iter()
                .map(Iterator::collect)
                .unwrap_or_default(),
        )
    }
}

/// The book's data as a template value, entry by entry: an entry of a field (or a field that is no
/// map or list) equal to one in `fields` (what earlier calls saw) keeps the value made from it then, the
/// others are made again (and kept). The value is the one `Value::from(Serde(d))` makes: maps of the
/// same keys in the same order and lists of the same items, down to the same values.
fn template_value(d: &serde_json::Value, fields: &mut HashMap<String, Seen>) -> Value {
    let Some(map) = d.as_object() else {
        return Value::from(Serde(d));
    };
    let values: Vec<(&str, Value)> = map
        .iter()
        .map(|(k, v)| {
            let seen = fields.entry(k.clone()).or_default();
            let value = match v {
                // A map or a list is made entry by entry, so a change to one entry (one table) leaves
                // the others' values as they were.
                serde_json::Value::Object(m) if !m.is_empty() => {
                    seen.bound(m.len());
                    Value::from(Serde(Fields(
                        m.iter()
                            .map(|(e, ev)| (e.as_str(), seen.value(e, ev)))
                            .collect(),
                    )))
                }
                serde_json::Value::Array(a) if !a.is_empty() => {
                    seen.bound(a.len());
                    Value::from(Serde(Items(
                        a.iter()
                            .enumerate()
                            .map(|(i, ev)| seen.value(&i.to_string(), ev))
                            .collect(),
                    )))
                }
                _ => seen.value("", v),
            };
            (k.as_str(), value)
        })
        .collect();
    Value::from(Serde(Fields(values)))
}

/// One field of the book's data as seen before: by entry (a map's key, a list's place, or "" for the
/// field as a whole), the last two values seen (the latest first), each with its template value.
#[derive(Debug, Default)]
struct Seen(HashMap<String, Vec<(serde_json::Value, Value)>>);

impl Seen {
    /// Start again when far more entries are kept than the field has (an input's entries of its own).
    fn bound(&mut self, entries: usize) {
        if self.0.len() > 2 * entries + 64 {
            self.0.clear();
        }
    }

    /// The template value of `v`, the entry `entry`: one kept, or made now (and kept).
    fn value(&mut self, entry: &str, v: &serde_json::Value) -> Value {
        let kept = match self.0.get_mut(entry) {
            Some(kept) => kept,
            None => self.0.entry(entry.to_owned()).or_default(),
        };
        match kept.iter().position(|(s, _)| s == v) {
            Some(i) => {
                kept[..=i].rotate_right(1);
                kept[0].1.clone()
            }
            None => {
                let value = Value::from(Serde(v));
                kept.insert(0, (v.clone(), value.clone()));
                kept.truncate(2);
                value
            }
        }
    }
}

/// A list of template values, serialized as one (the values pass through as they are).
struct Items(Vec<Value>);

impl Serialize for Items {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut l = s.serialize_seq(Some(self.0.len()))?;
        for v in &self.0 {
            l.serialize_element(v)?;
        }
        l.end()
    }
}

/// A map of template values, serialized as one (the values pass through as they are).
struct Fields<'a>(Vec<(&'a str, Value)>);

impl Serialize for Fields<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// The Markdown editions of a book from its data (`d`, as [`data`] made it, serialized: the document's
/// data). Each chapter and appendix is written by its template for each edition; `cache` keeps what
/// they wrote and read of `d`, so a piece whose chapter and reads are unchanged is not written again
/// (what the `data` fuzz target keeps from one input to the next; a fresh cache writes everything). `env`
/// comes from [`super::markdown::environment`].
pub fn markdown(
    env: &minijinja::Environment<'_>,
    d: &serde_json::Value,
    cache: &mut MarkdownCache,
) -> Result<Editions, minijinja::Error> {
    let dv = template_value(d, &mut cache.fields);
    cache.last = 0;
    // What this call knows: whether each value kept (by its address) equals the data's now, and the
    // data's values read by the pieces it writes (shared among them). Pieces put out of the cache are
    // kept until the end, so that no address is reused while `same` remembers it.
    let mut same: HashMap<*const serde_json::Value, bool> = HashMap::new();
    let mut now: HashMap<Read, Option<Arc<serde_json::Value>>> = HashMap::new();
    let mut dropped: Vec<Written> = Vec::new();
    let chapters = d["chapters"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut piece = |mode: Mode, name: &str, chapter: Option<&serde_json::Value>| {
        let render = Value::from(Serde(RenderContext::new(mode)));
        let key = (mode, name.to_owned());
        if let Some(w) = cache.written.get(&key).and_then(|ws| {
            ws.iter().find(|w| {
                w.chapter.as_ref() == chapter
                    && w.read.iter().all(|(r, v)| match v {
                        Some(v) => *same
                            .entry(Arc::as_ptr(v))
                            .or_insert_with(|| r.of(d) == Some(&**v)),
                        None => r.of(d).is_none(),
                    })
            })
        }) {
            return Ok(w.text.clone());
        }
        cache.last += 1;
        let read = Arc::new(Mutex::new(BTreeSet::new()));
        let noted = Value::from_object(Noted {
            d: dv.clone(),
            read: read.clone(),
        });
        let text = match chapter {
            Some(c) => env
                .get_template("srd/chapter.md.j2")?
                .render(minijinja::context! {
                    d => noted,
                    render => render,
                    c => Value::from(Serde(c)),
                })?,
            None => {
                let (stem, title) = APPENDICES
                    .into_iter()
                    .find(|(stem, _)| *stem == name)
                    .unwrap_or_default();
                env.get_template("srd/appendix.md.j2")?
                    .render(minijinja::context! {
                        d => noted,
                        render => render,
                        a => Value::from(Serde(Appendix { stem, title })),
                    })?
            }
        };
        let read = std::mem::take(&mut *read.lock().unwrap_or_else(|e| e.into_inner()));
        let ws = cache.written.entry(key).or_default();
        if ws.len() == KEPT {
            dropped.push(ws.remove(0));
        }
        ws.push(Written {
            chapter: chapter.cloned(),
            read: read
                .into_iter()
                .map(|r| {
                    let v = now
                        .entry(r.clone())
                        .or_insert_with(|| r.of(d).cloned().map(Arc::new))
                        .clone();
                    if let Some(v) = &v {
                        same.insert(Arc::as_ptr(v), true);
                    }
                    (r, v)
                })
                .collect(),
            text: text.clone(),
        });
        Ok::<_, minijinja::Error>(text)
    };
    let mut written = |mode: Mode| -> Result<(Vec<String>, Vec<String>), minijinja::Error> {
        let cs = chapters
            .iter()
            .map(|c| piece(mode, c["slug"].as_str().unwrap_or_default(), Some(c)))
            .collect::<Result<_, _>>()?;
        let appendices = APPENDICES
            .iter()
            .map(|(stem, _)| piece(mode, stem, None))
            .collect::<Result<_, _>>()?;
        Ok((cs, appendices))
    };
    let (cs, appendices) = written(Mode::Single)?;
    let single = env
        .get_template("srd/srd.md.j2")?
        .render(minijinja::context! {
            d => dv.clone(),
            render => Value::from(Serde(RenderContext::new(Mode::Single))),
            chapters_md => cs,
            appendices_md => appendices,
        })?;
    let (cs, appendices) = written(Mode::Book)?;
    let mut book: Vec<(String, String)> = chapters
        .iter()
        .map(|c| format!("{}.md", c["slug"].as_str().unwrap_or_default()))
        .zip(cs)
        .chain(
            APPENDICES
                .iter()
                .map(|(stem, _)| format!("{stem}.md"))
                .zip(appendices),
        )
        .collect();
    let summary = env
        .get_template("srd/summary.md.j2")?
        .render(minijinja::context! {
            d => dv,
            render => Value::from(Serde(RenderContext::new(Mode::Book))),
        })?;
    book.push(("SUMMARY.md".to_owned(), summary));
    Ok(Editions { single, book })
}
