//! The contract every document kind meets: a [`Kind`] turns [`Checked`] content and a [`Request`] into
//! [`Document`]s, pure data the renderers turn into files of a [`Format`] on a [`Paper`]. This crate knows
//! neither typst nor any particular kind: the renderers (`blockprint-render`) drive a kind through this
//! trait, and the kinds (`blockprint-kinds`) implement it.

use std::borrow::Cow;

use serde::Serialize;

use blockprint_content::Library;
use blockprint_content::check::Report;
pub use blockprint_content::check::Requirements;
use blockprint_content::error::{Error, Result};

pub mod error;
pub mod sink;

/// Paper sizes the templates know. On the command line and in the templates' data they are spelled
/// `a4`, `letter`, `a5` and `us-trade` (6 × 9 in, the common trade paperback and zine size).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Paper {
    A4,
    Letter,
    A5,
    UsTrade,
}

impl Paper {
    /// Every paper size, in the order `--help` lists them.
    pub const ALL: [Paper; 4] = [Paper::A4, Paper::Letter, Paper::A5, Paper::UsTrade];

    /// The spelling on the command line and in the data: `a4`, `letter`, `a5`, `us-trade`.
    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
            Paper::A5 => "a5",
            Paper::UsTrade => "us-trade",
        }
    }

    /// The size in words, as a form offers it: `A4 (210 × 297 mm)`.
    pub fn words(self) -> &'static str {
        match self {
            Paper::A4 => "A4 (210 × 297 mm)",
            Paper::Letter => "US Letter (8.5 × 11 in)",
            Paper::A5 => "A5 (148 × 210 mm)",
            Paper::UsTrade => "US trade paperback (6 × 9 in)",
        }
    }
}

/// Kinds of file a document renders to. `csv` and `txt` files are written by the kind itself
/// ([`Kind::files`]): the exports for other tools.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Pdf,
    Md,
    Json,
    Csv,
    Txt,
}

impl Format {
    /// The format as a reader names it: `PDF`, `Markdown`, `JSON`, `CSV`, `text`.
    pub fn words(self) -> &'static str {
        match self {
            Format::Pdf => "PDF",
            Format::Md => "Markdown",
            Format::Json => "JSON",
            Format::Csv => "CSV",
            Format::Txt => "text",
        }
    }
}

/// What renders a kind's Markdown: the minijinja environment holding every `.md.j2` template (the
/// renderers' engine implements it).
pub trait Markdown {
    /// Render `template` (a path under `templates/`, e.g. `case/case.md.j2`) with `data` as its context.
    fn markdown(&self, template: &str, data: &serde_json::Value) -> Result<String>;
    /// The environment itself, for a kind that renders several templates into one file.
    fn markdown_env(&self) -> &minijinja::Environment<'static>;
    /// A template failure as the error to report (a user's template: exit 1; a built-in one: a bug).
    fn markdown_error(&self, template: &str, e: &minijinja::Error) -> Error;
}

/// Content that passed the checker: every table has its exact odds. Only [`Checked::new`] makes one.
pub struct Checked {
    pub lib: Library,
    pub report: Report,
    /// Where the content came from, for print: `the built-in content` or a folder.
    pub source: String,
}

impl Checked {
    /// `None` when the report has errors.
    pub fn new(lib: Library, report: Report, source: String) -> Option<Self> {
        (report.errors() == 0).then_some(Checked {
            lib,
            report,
            source,
        })
    }
}

/// What to make: the same fields for every kind; a kind reads the ones it needs. What only one kind
/// reads (a case batch's year) is that kind's own option, not a field here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Request {
    /// Batch seed (below 2^53).
    pub seed: u64,
    pub paper: Paper,
    /// Number of the first item (case 1976-`first`).
    pub first: u32,
    /// How many items a batch kind makes.
    pub count: u32,
}

/// Who reads a document, which decides what its paper may show (the page checker's reader lint,
/// `blockprint_render::pages::reader`): a player at the table, the GM behind the screen, or a reader of the
/// published rules (the SRD). None of them sees seeds, hashes, ids or command lines; only the GM sees dice
/// notation, and only where the page says how to read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Audience {
    Player,
    Gm,
    Reader,
}

impl Audience {
    /// The word the page checker prints: `player`, `GM`, `reader`.
    pub fn name(self) -> &'static str {
        match self {
            Audience::Player => "player",
            Audience::Gm => "GM",
            Audience::Reader => "reader",
        }
    }
}

/// A PDF part: the compiled document is split where the template marks `#metadata("<name>") <bp-part>`
/// and each part is written as `<stem>-<name>.pdf` with its own title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdfPart {
    pub name: String,
    pub title: String,
    /// Who reads this part (a case's GM file and its handout differ).
    pub audience: Audience,
}

/// One document: where it goes, which template shows it, and exactly what the template sees.
#[derive(Debug, Clone)]
pub struct Document {
    /// Path without extension, relative to the kind's folder: `1976-07/1976-07`.
    pub stem: String,
    /// Template path without extension: `case/case` → `case/case.typ`, `case/case.md.j2`.
    pub template: String,
    /// PDF title (when the document is not split into parts).
    pub title: String,
    /// Who reads the document (each part says so for itself when it is split); [`Document::new`] makes
    /// it a player's, the strictest reading after the SRD's, until [`Document::audience`] says otherwise.
    pub audience: Audience,
    /// What the templates see (`sys.inputs` in typst, the context in minijinja).
    pub data: serde_json::Value,
    /// What `<stem>.json` holds when it is not `data`, serialized (so it keeps its struct's field order).
    pub json: Option<String>,
    pub parts: Vec<PdfPart>,
    /// What the index row shows of this item.
    pub summary: serde_json::Value,
    /// The item's bookmark in merged PDFs.
    pub bookmark: String,
}

impl Document {
    /// A document at `stem` shown by `template`, titled `title`, its templates seeing `data`; it has no JSON
    /// of its own (`<stem>.json` holds `data`), no PDF parts, no index summary and no bookmark until the
    /// setters below give them.
    pub fn new(
        stem: impl Into<String>,
        template: impl Into<String>,
        title: impl Into<String>,
        data: serde_json::Value,
    ) -> Self {
        Document {
            stem: stem.into(),
            template: template.into(),
            title: title.into(),
            audience: Audience::Player,
            data,
            json: None,
            parts: Vec::new(),
            summary: serde_json::Value::Null,
            bookmark: String::new(),
        }
    }
    /// The same, read by `audience` (the page checker's reader lint reads it so).
    pub fn audience(mut self, audience: Audience) -> Self {
        self.audience = audience;
        self
    }
    /// The same, `<stem>.json` holding `json` (serialized) instead of `data`.
    pub fn json(mut self, json: impl Into<String>) -> Self {
        self.json = Some(json.into());
        self
    }
    /// The same, its PDF split into these parts.
    pub fn parts(mut self, parts: Vec<PdfPart>) -> Self {
        self.parts = parts;
        self
    }
    /// The same, the index row showing `summary` of it.
    pub fn summary(mut self, summary: serde_json::Value) -> Self {
        self.summary = summary;
        self
    }
    /// The PDF files it is written as, relative to the kind's folder: `<stem>.pdf`, or one
    /// `<stem>-<part>.pdf` per part, in order.
    pub fn pdf_names(&self) -> Vec<String> {
        if self.parts.is_empty() {
            vec![format!("{}.pdf", self.stem)]
        } else {
            self.parts
                .iter()
                .map(|p| format!("{}-{}.pdf", self.stem, p.name))
                .collect()
        }
    }
    /// The same, bookmarked as `bookmark` in merged PDFs.
    pub fn bookmark(mut self, bookmark: impl Into<String>) -> Self {
        self.bookmark = bookmark.into();
        self
    }
}

/// Pictures a document's files refer to (a Foundry deck's card faces), declared as data: `template`
/// (without extension) typeset with `data` as its `sys.inputs`, each page rendered to PNG at `dpi` and
/// written to its name in `names` (relative to the kind's folder, one per page). The driver writes them
/// with the document's JSON and keeps them when they are current.
#[derive(Debug, Clone)]
pub struct Pictures {
    pub template: String,
    pub data: serde_json::Value,
    pub dpi: f64,
    pub names: Vec<String>,
    /// One key per picture naming everything that draws it (the card's faces and the layout), or none:
    /// a keyed picture is drawn once per build of blockprint and kept in the user's cache folder.
    pub keys: Vec<String>,
}

/// What a kind makes from the whole run, declared as data; the driver builds it while items stream in,
/// so nothing about an item is held beyond a line of the index and an entry per merged PDF.
#[derive(Debug, Clone, Default)]
pub struct Collect {
    pub index: Option<Index>,
    pub merges: Vec<Merge>,
}

/// A Markdown index: `head` rendered once (with the kind's [`Kind::head`] data and the `merged` files),
/// then `row` once per item in order (with the item's `summary` and its `files`).
#[derive(Debug, Clone)]
pub struct Index {
    pub rel: String,
    pub head: String,
    pub row: String,
}

/// One PDF merged from the PDF part `part` of every item (already written; never typeset again), with
/// one bookmark per item ([`Document::bookmark`]).
#[derive(Debug, Clone)]
pub struct Merge {
    pub rel: String,
    pub title: String,
    /// What the file is, for the index: `every GM file`.
    pub about: String,
    pub part: String,
    /// Who reads the merged file (its part's readers).
    pub audience: Audience,
    /// Pad every item to an even page count so each starts on an odd page in duplex printing.
    pub pad_to_even: bool,
}

/// What a kind is, declared once as data: its name, what it makes, where, on which papers, whether it
/// rolls. The registry, `make --list`, every help text, `build`'s report, the manifest and the studio's
/// forms read it from here; a kind implementation never repeats it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindInfo {
    /// Command-line name: `case`, `srd`, `tables`.
    pub name: Cow<'static, str>,
    /// What a GM calls it, for the studio's forms and a print file's title: `Case packets`, `Roll20
    /// export`. [`KindInfo::new`] starts it as the name; [`KindInfo::titled`] gives the words.
    pub title: Cow<'static, str>,
    /// One line for `--help` and `build`'s report.
    pub about: Cow<'static, str>,
    /// Folder under `--out` that holds this kind's files (and its `manifest.json`).
    pub folder: Cow<'static, str>,
    /// Formats the kind can make; `build` makes all of them.
    pub formats: Cow<'static, [Format]>,
    /// Paper sizes the kind's templates lay out; `--paper` with another is refused before anything runs.
    pub papers: &'static [Paper],
    /// Whether items are rolled from a seed (then `--seed`, `--count` and `--first-number` apply).
    pub rolls: bool,
    /// Check the requirements even for content that offers none of them (layout kinds: their lists are
    /// the user's own; exports: any table is theirs). Other kinds are checked when content offers them
    /// or the user asks for them.
    pub requires_always: bool,
}

/// PDF, Markdown and JSON: what most kinds make.
pub const PDF_MD_JSON: &[Format] = &[Format::Pdf, Format::Md, Format::Json];
/// A4 and Letter: the papers of every kind but the booklets.
pub const HOME_PAPERS: &[Paper] = &[Paper::A4, Paper::Letter];

impl KindInfo {
    /// A kind named `name` that makes `formats` into `folder`, on every paper, rolling nothing.
    pub const fn new(
        name: &'static str,
        about: &'static str,
        folder: &'static str,
        formats: &'static [Format],
    ) -> Self {
        KindInfo {
            name: Cow::Borrowed(name),
            title: Cow::Borrowed(name),
            about: Cow::Borrowed(about),
            folder: Cow::Borrowed(folder),
            formats: Cow::Borrowed(formats),
            papers: &Paper::ALL,
            rolls: false,
            requires_always: false,
        }
    }
    /// The same, called `title` by its readers.
    pub const fn titled(mut self, title: &'static str) -> Self {
        // A const fn cannot drop the old value; it is the name, borrowed, so forgetting it frees nothing.
        std::mem::forget(std::mem::replace(&mut self.title, Cow::Borrowed(title)));
        self
    }
    /// The same, on these papers only.
    pub const fn papers(mut self, papers: &'static [Paper]) -> Self {
        self.papers = papers;
        self
    }
    /// The same, rolled from a seed.
    pub const fn rolls(mut self) -> Self {
        self.rolls = true;
        self
    }
    /// The same, its requirements checked on any content.
    pub const fn requires_always(mut self) -> Self {
        self.requires_always = true;
        self
    }
}

/// A document kind.
pub trait Kind: Sync {
    /// The kind's static facts.
    fn info(&self) -> &KindInfo;
    /// Command-line name (from [`Kind::info`]).
    fn name(&self) -> &str {
        &self.info().name
    }
    /// What a GM calls it (from [`Kind::info`]).
    fn title(&self) -> &str {
        &self.info().title
    }
    /// One line for `--help` (from [`Kind::info`]).
    fn about(&self) -> &str {
        &self.info().about
    }
    /// Folder under `--out` (from [`Kind::info`]).
    fn folder(&self) -> &str {
        &self.info().folder
    }
    /// Formats the kind can make (from [`Kind::info`]).
    fn formats(&self) -> &[Format] {
        &self.info().formats
    }
    /// Whether items are rolled from a seed (from [`Kind::info`]).
    fn rolls(&self) -> bool {
        self.info().rolls
    }
    /// Paper sizes the kind lays out (from [`Kind::info`]).
    fn papers(&self) -> &[Paper] {
        self.info().papers
    }
    /// Whether the requirements are checked on any content (from [`Kind::info`]).
    fn requires_always(&self) -> bool {
        self.info().requires_always
    }
    fn requires(&self) -> Requirements;
    /// Refuse a choice of formats the kind's options cannot work with (a fillable form needs its PDF).
    fn check_formats(&self, _formats: &[Format]) -> Result<()> {
        Ok(())
    }
    /// How many documents the request makes.
    fn count(&self, cx: &Checked, req: &Request) -> Result<usize>;
    /// Document `i` (0-based) of the request.
    fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document>;
    /// Files made from the whole run (an index page, merged PDFs).
    fn collect(&self) -> Collect {
        Collect::default()
    }
    /// What the index's head template sees.
    fn head(&self, cx: &Checked, req: &Request) -> serde_json::Map<String, serde_json::Value> {
        meta(cx, req)
    }
    /// The Markdown files of a document: by default `<template>.md.j2` rendered to `<stem>.md`.
    fn markdown(
        &self,
        _cx: &Checked,
        engine: &dyn Markdown,
        doc: &Document,
    ) -> Result<Vec<(String, Vec<u8>)>> {
        let text = engine.markdown(&format!("{}.md.j2", doc.template), &doc.data)?;
        Ok(vec![(format!("{}.md", doc.stem), text.into_bytes())])
    }
    /// Options of a configured kind that change its files beyond the request (card size, bleed, duplex
    /// …): part of the run's identity in the manifest, so a rerun with other options rewrites every file.
    fn options(&self) -> Option<serde_json::Value> {
        None
    }
    /// What else decides this kind's documents, beyond the request, the content, the templates and
    /// [`Kind::options`]: a campaign's cases so far. Recorded in the manifest (not part of the batch), so
    /// a rerun knows it has nothing to do only while it is the same. By default nothing.
    fn state(&self) -> Option<serde_json::Value> {
        None
    }
    /// What else makes two runs of a rolled kind the same batch, beside the seed and the paper: recorded
    /// beside them in the manifest (a case batch's year and how many cases it holds). By default nothing.
    fn batch(&self, _req: &Request) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::new()
    }
    /// What the PDF template sees: by default the document's `data`, which the Markdown and JSON show
    /// too. A kind whose data keeps the content's own characters returns a typeset copy here (curly
    /// quotes, [`blockprint_content::text::smart_quotes_in`]), so only the PDF changes them.
    fn pdf_data<'a>(&self, doc: &'a Document) -> Cow<'a, serde_json::Value> {
        Cow::Borrowed(&doc.data)
    }
    /// The PDF of a document after typst wrote it: a kind that must set what typst cannot (print boxes,
    /// viewer preferences) rewrites it here. By default it is kept as it is.
    fn finish_pdf(&self, _doc: &Document, pdf: Vec<u8>) -> Result<Vec<u8>> {
        Ok(pdf)
    }
    /// The files of a document in a format the kind writes itself (`csv`, `txt`): (relative path, bytes).
    fn files(&self, _cx: &Checked, doc: &Document, f: Format) -> Result<Vec<(String, Vec<u8>)>> {
        Err(error::KindError::NoFiles {
            kind: self.name().to_string(),
            format: f,
            document: doc.stem.clone(),
        }
        .into())
    }
    /// The pictures a document's JSON refers to ([`Pictures`]); by default none.
    fn pictures(&self, _cx: &Checked, _req: &Request, _doc: &Document) -> Result<Option<Pictures>> {
        Ok(None)
    }
    /// What the user should know about this run before it starts (a table an export has to leave out),
    /// one `warning: …` line each; the driver hands them to the run's sink. By default none.
    fn warnings(&self, _cx: &Checked, _req: &Request) -> Result<Vec<String>> {
        Ok(Vec::new())
    }
}

macro_rules! delegate_kind {
    ($($t:tt)*) => {
        $($t)* {
            fn info(&self) -> &KindInfo {
                (**self).info()
            }
            fn requires(&self) -> Requirements {
                (**self).requires()
            }
            fn check_formats(&self, formats: &[Format]) -> Result<()> {
                (**self).check_formats(formats)
            }
            fn count(&self, cx: &Checked, req: &Request) -> Result<usize> {
                (**self).count(cx, req)
            }
            fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document> {
                (**self).document(cx, req, i)
            }
            fn collect(&self) -> Collect {
                (**self).collect()
            }
            fn head(&self, cx: &Checked, req: &Request) -> serde_json::Map<String, serde_json::Value> {
                (**self).head(cx, req)
            }
            fn markdown(
                &self,
                cx: &Checked,
                engine: &dyn Markdown,
                doc: &Document,
            ) -> Result<Vec<(String, Vec<u8>)>> {
                (**self).markdown(cx, engine, doc)
            }
            fn options(&self) -> Option<serde_json::Value> {
                (**self).options()
            }
            fn state(&self) -> Option<serde_json::Value> {
                (**self).state()
            }
            fn batch(&self, req: &Request) -> serde_json::Map<String, serde_json::Value> {
                (**self).batch(req)
            }
            fn pdf_data<'a>(&self, doc: &'a Document) -> Cow<'a, serde_json::Value> {
                (**self).pdf_data(doc)
            }
            fn finish_pdf(&self, doc: &Document, pdf: Vec<u8>) -> Result<Vec<u8>> {
                (**self).finish_pdf(doc, pdf)
            }
            fn files(&self, cx: &Checked, doc: &Document, f: Format) -> Result<Vec<(String, Vec<u8>)>> {
                (**self).files(cx, doc, f)
            }
            fn pictures(&self, cx: &Checked, req: &Request, doc: &Document) -> Result<Option<Pictures>> {
                (**self).pictures(cx, req, doc)
            }
            fn warnings(&self, cx: &Checked, req: &Request) -> Result<Vec<String>> {
                (**self).warnings(cx, req)
            }
        }
    };
}

// A kind behind a reference or a box is the kind itself.
delegate_kind!(impl<K: Kind + ?Sized> Kind for &K);
delegate_kind!(impl<K: Kind + ?Sized + Send> Kind for Box<K>);

/// The metadata every template sees beside its own data.
pub fn meta(cx: &Checked, req: &Request) -> serde_json::Map<String, serde_json::Value> {
    let mut m = serde_json::Map::new();
    m.insert(
        "paper".into(),
        serde_json::to_value(req.paper).unwrap_or_default(),
    );
    m.insert(
        "generator".into(),
        format!("blockprint {}", env!("CARGO_PKG_VERSION")).into(),
    );
    m.insert("content_version".into(), cx.lib.version.clone().into());
    // The content's language (its book's `language`): every template's text language and the PDF's /Lang.
    m.insert("lang".into(), cx.lib.language().into());
    m.insert("source".into(), cx.source.clone().into());
    m
}
