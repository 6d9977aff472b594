//! The template engine: one per process, shared by every kind and thread. Template files (the built-in
//! `templates/` tree, optionally overlaid by a user's `--templates DIR`) in; PDFs (typst, in-process, fonts
//! embedded and those of the user's `--font-path DIR` folders, no other file or system-font access) and
//! Markdown (minijinja) out. Data reaches typst only through
//! `sys.inputs`. Template errors and warnings come back located: `templates/<kind>/<file>:line:col`.

use std::collections::{BTreeMap, BTreeSet};
use std::num::NonZeroUsize;
use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock};
use std::time::Instant;

use sha2::Digest;
use typst::World;
use typst::diag::SourceDiagnostic;
use typst::foundations::{Label, Smart, Value};
use typst::introspection::{Introspector, MetadataElem};
use typst::layout::PageRanges;
use typst::model::Document as _;
use typst::utils::PicoStr;
use typst_as_lib::{TypstEngine, TypstTemplateCollection};
use typst_layout::PagedDocument;
use typst_pdf::PdfOptions;

use crate::error::RenderError;
use blockprint_content::error::{Bug, Error, Result, TemplateDiag, TemplateSpot};
use blockprint_kind::sink::{Event, Sink};
use blockprint_kind::{Audience, PdfPart};

/// One template file.
#[derive(Debug, Clone)]
pub struct TemplateFile {
    pub text: String,
    /// Built into the binary (a failure is a bug in blockprint) or from the user's `--templates` folder.
    pub builtin: bool,
    /// Where to point a reader: `templates/case/case-lib.typ` or the user's own path.
    pub shown_as: String,
}

/// Every template file by path relative to the templates root (`case/case.typ`).
#[derive(Debug, Clone, Default)]
pub struct Templates {
    pub files: BTreeMap<String, TemplateFile>,
}

impl Templates {
    /// The templates compiled into the binary.
    pub fn builtin() -> Self {
        let files = super::template_files()
            .into_iter()
            .filter_map(|(name, f)| {
                let text = f.contents_utf8()?.to_owned();
                let shown_as = format!("templates/{name}");
                Some((
                    name,
                    TemplateFile {
                        text,
                        builtin: true,
                        shown_as,
                    },
                ))
            })
            .collect();
        Templates { files }
    }

    /// Add (or replace) templates from a folder laid out like `templates/`: `<kind>/<file>`.
    pub fn overlay(mut self, dir: &Path) -> Result<Self> {
        fn walk(
            root: &Path,
            dir: &Path,
            out: &mut Vec<(String, std::path::PathBuf)>,
        ) -> Result<()> {
            let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
            let mut entries: Vec<_> = rd
                .collect::<std::io::Result<_>>()
                .map_err(|e| Error::io(dir, e))?;
            entries.sort_by_key(|e| e.file_name());
            for e in entries {
                let p = e.path();
                if p.is_dir() {
                    walk(root, &p, out)?;
                } else if let Ok(rel) = p.strip_prefix(root) {
                    let rel = rel
                        .components()
                        .map(|c| c.as_os_str().to_string_lossy().into_owned())
                        .collect::<Vec<_>>()
                        .join("/");
                    out.push((rel, p));
                }
            }
            Ok(())
        }
        let mut found = Vec::new();
        walk(dir, dir, &mut found)?;
        for (rel, path) in found {
            let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
            self.files.insert(
                rel,
                TemplateFile {
                    text,
                    builtin: false,
                    shown_as: path.display().to_string(),
                },
            );
        }
        Ok(self)
    }

    /// A short fingerprint of every template (name and text, in name order): which templates made a
    /// folder's output, for its manifest.
    pub fn version(&self) -> String {
        let mut all = Vec::new();
        for (name, f) in &self.files {
            all.extend_from_slice(name.as_bytes());
            all.push(0);
            all.extend_from_slice(&(f.text.len() as u64).to_le_bytes());
            all.extend_from_slice(f.text.as_bytes());
        }
        super::manifest::sha256(&all)[..12].to_owned()
    }

    fn file(&self, name: &str) -> Option<&TemplateFile> {
        self.files.get(name.trim_start_matches('/'))
    }

    fn is_builtin(&self, name: &str) -> bool {
        self.file(name).is_none_or(|f| f.builtin)
    }
}

/// typst and minijinja over one set of templates.
pub struct Engine {
    typst: TypstEngine<TypstTemplateCollection>,
    md: minijinja::Environment<'static>,
    templates: Templates,
    /// Warnings already shown (each once per process, however many documents raise it).
    shown: Mutex<BTreeSet<String>>,
    /// Time spent in typst, summed over threads, in microseconds: compiling, and exporting PDF.
    pub compile_us: AtomicU64,
    pub export_us: AtomicU64,
    /// Compiles hold this for reading; evicting typst's memo caches holds it for writing, so an eviction
    /// never pulls a cache from under a running compile on another thread.
    gate: RwLock<()>,
    compiles: AtomicUsize,
    /// Pages drawn as PNG, by what drew them ([`Engine::page_pngs`]), and the bytes they hold.
    drawn: Mutex<(BTreeMap<[u8; 32], Drawn>, usize)>,
    /// Templates that ask for break opportunities in long unbroken strings ([`super::wrap`]).
    breaking: BTreeSet<String>,
    /// The fonts typst sets text in: the embedded ones and any `--font-path` folder's.
    fonts: std::sync::Arc<super::fonts::Fonts>,
}

/// Pages drawn once ([`Engine::page_pngs`]): empty until the first thread to ask has drawn them.
type Drawn = std::sync::Arc<Mutex<Option<std::sync::Arc<Vec<Vec<u8>>>>>>;

/// The most PNG bytes an engine remembers ([`Engine::page_pngs`]): every deck of the built-in content
/// twice over, and a bound on a long-lived engine (the studio's).
const DRAWN_BYTES: usize = 64 << 20;

/// Evict typst's memoized results every this many compiles: often enough to keep memory flat over any
/// batch, rarely enough that threads seldom wait for each other.
const EVICT_EVERY: usize = 16;

impl Engine {
    /// `titles` maps table ids to titles for Markdown links. Text is set in the embedded fonts alone.
    pub fn new(templates: Templates, titles: BTreeMap<String, String>) -> Result<Self> {
        Self::with_fonts(templates, titles, Default::default())
    }

    /// [`Engine::new`] setting text in `fonts` (the embedded ones, then a user's).
    pub fn with_fonts(
        templates: Templates,
        titles: BTreeMap<String, String>,
        fonts: std::sync::Arc<super::fonts::Fonts>,
    ) -> Result<Self> {
        let sources: Vec<(&str, &str)> = templates
            .files
            .iter()
            .filter(|(n, _)| n.ends_with(".typ"))
            .map(|(n, f)| (n.as_str(), f.text.as_str()))
            .collect();
        let typst = TypstEngine::builder()
            .fonts(fonts.all())
            .with_static_source_file_resolver(sources)
            .comemo_evict_max_age(None)
            .build();
        let md_files: Vec<(String, String)> = templates
            .files
            .iter()
            .filter(|(n, _)| n.ends_with(".j2"))
            .map(|(n, f)| (n.clone(), f.text.clone()))
            .collect();
        let md = super::markdown::environment_with(titles, md_files).map_err(|e| {
            let name = e.name().unwrap_or("?").to_owned();
            Error::Template {
                builtin: templates.is_builtin(&name),
                diags: vec![jinja_diag(&templates, &e, &name)],
                template: name,
            }
        })?;
        let breaking = templates
            .files
            .iter()
            .filter(|(n, f)| {
                n.ends_with(".typ") && f.text.lines().any(|l| l.trim() == super::wrap::DIRECTIVE)
            })
            .map(|(n, _)| n.clone())
            .collect();
        Ok(Engine {
            breaking,
            fonts,
            typst,
            md,
            templates,
            shown: Mutex::new(BTreeSet::new()),
            compile_us: AtomicU64::new(0),
            export_us: AtomicU64::new(0),
            gate: RwLock::new(()),
            compiles: AtomicUsize::new(0),
            drawn: Mutex::new((BTreeMap::new(), 0)),
        })
    }

    pub fn templates(&self) -> &Templates {
        &self.templates
    }

    /// The fonts this engine sets text in.
    pub fn fonts(&self) -> &super::fonts::Fonts {
        &self.fonts
    }

    /// Warn (once per engine) when `data`, typeset with `template` as `document`, holds characters no
    /// font has: the first text that holds one, the characters and the fix. With the typeset document
    /// (`doc`), only characters it prints as empty boxes count; without (pictures found in the cache,
    /// which are not typeset again), every character of the data.
    pub fn warn_missing_glyphs(
        &self,
        document: &str,
        template: &str,
        data: &serde_json::Value,
        doc: Option<&PagedDocument>,
        sink: &dyn Sink,
    ) {
        let missing = match doc {
            Some(doc) => self.fonts.missing_printed(data, doc),
            None => self.fonts.missing(data),
        };
        if let Some(missing) = missing {
            // The fix names an option, which the front names its way.
            let line = missing
                .line()
                .after(&format!("warning: {document} ({template}): "));
            let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
            if shown.insert(line.text().to_owned()) {
                sink.event(Event::OptionNote {
                    warning: true,
                    line,
                });
            }
        }
    }

    /// Render a Markdown template with `data` as its context.
    pub fn markdown(&self, template: &str, data: &impl serde::Serialize) -> Result<String> {
        super::markdown::render(&self.md, template, data)
            .map_err(|e| self.markdown_error(template, &e))
    }

    /// A minijinja error as a located template error (`template` names the entry template).
    pub fn markdown_error(&self, template: &str, e: &minijinja::Error) -> Error {
        let name = e.name().unwrap_or(template);
        Error::Template {
            builtin: self.templates.is_builtin(name),
            template: name.to_owned(),
            diags: vec![jinja_diag(&self.templates, e, name)],
        }
    }

    /// The minijinja environment, for kinds that render several Markdown files.
    pub fn markdown_env(&self) -> &minijinja::Environment<'static> {
        &self.md
    }

    /// A template failure of `template`.
    fn failed(&self, template: &str, diags: Vec<TemplateDiag>) -> Error {
        Error::Template {
            builtin: self.templates.is_builtin(template),
            template: template.to_owned(),
            diags,
        }
    }

    /// Compile `template` with `data` as `sys.inputs`; hand the world, the document and the warnings to
    /// `then` (the world maps diagnostics to their places). Every [`EVICT_EVERY`] compiles typst's memo
    /// caches are emptied, so memory stays flat over a batch. Each template is compiled once: the SRD fits
    /// its chapters inside that compile, through typst's own layout iterations.
    fn compile<R>(
        &self,
        template: &str,
        data: &serde_json::Value,
        then: impl FnOnce(&dyn World, PagedDocument, &[SourceDiagnostic]) -> Result<R>,
    ) -> Result<R> {
        // Long unbroken strings get invisible break opportunities so they wrap inside their boxes, for
        // templates that ask (one that matches strings as keys must not); the data is converted to typst
        // values in one pass either way.
        let typst::foundations::Value::Dict(inputs) =
            super::wrap::to_typst(data, self.breaking.contains(template))
        else {
            return Err(RenderError::NotAnObject {
                template: template.to_owned(),
            }
            .into());
        };
        let world = self
            .typst
            .world_builder(template)
            .with_inputs(inputs)
            .build()
            .map_err(|e| {
                let message = e.to_string();
                self.failed(
                    template,
                    vec![TemplateDiag {
                        message,
                        spot: None,
                        hints: vec![],
                    }],
                )
            })?;
        let started = Instant::now();
        let warned = {
            let _reading = self.gate.read().unwrap_or_else(|e| e.into_inner());
            typst::compile::<PagedDocument>(&world)
        };
        add_micros(&self.compile_us, started);
        if self.compiles.fetch_add(1, Ordering::Relaxed) % EVICT_EVERY == EVICT_EVERY - 1 {
            let _writing = self.gate.write().unwrap_or_else(|e| e.into_inner());
            comemo::evict(0);
        }
        let diags = |ds: &[SourceDiagnostic]| {
            ds.iter()
                .map(|d| typst_diag(&self.templates, &world, d))
                .collect()
        };
        match warned.output {
            Ok(doc) => then(&world, doc, &warned.warnings),
            Err(errors) => Err(self.failed(template, diags(&errors))),
        }
    }

    /// Compile `template` with `data` as `sys.inputs` and export it: one PDF, or one per part.
    /// Returns `(suffix, bytes)`: `""` for the whole document, `-<part>` for parts. Warnings go to
    /// `sink`, each once per engine.
    pub fn pdf(
        &self,
        template: &str,
        data: &serde_json::Value,
        ident: &str,
        title: &str,
        parts: &[PdfPart],
        sink: &dyn Sink,
    ) -> Result<Vec<(String, Vec<u8>)>> {
        // Read as player paper (the strictest after the SRD's) when pages are checked.
        self.pdf_file(
            template,
            data,
            ident,
            title,
            parts,
            Audience::Player,
            title,
            sink,
        )
    }

    /// [`Engine::pdf`] for the document written as `file` (its path without extension), the name the
    /// page checker reports ([`super::pages`]); it reads every page here when a run asked for it, as
    /// `audience` (or each part's own) reads it ([`super::pages::reader`]).
    #[allow(clippy::too_many_arguments)]
    pub fn pdf_file(
        &self,
        template: &str,
        data: &serde_json::Value,
        ident: &str,
        title: &str,
        parts: &[PdfPart],
        audience: Audience,
        file: &str,
        sink: &dyn Sink,
    ) -> Result<Vec<(String, Vec<u8>)>> {
        let (mut out, marks) = self.compile(template, data, |world, mut doc, warnings| {
            self.warn_missing_glyphs(title, template, data, Some(&doc), sink);
            self.show_warnings(template, world, warnings, sink);
            if sink.checks_pages() {
                let kind = ident.strip_prefix("blockprint/").unwrap_or(ident);
                let starts = part_starts(&doc);
                let name = |page: usize| -> (String, usize) {
                    // The part a page falls in, and its page within that part's file.
                    let part = parts
                        .iter()
                        .filter_map(|p| starts.get(&p.name).map(|&s| (p, s)))
                        .filter(|&(_, s)| s <= page)
                        .max_by_key(|&(_, s)| s);
                    match part {
                        Some((p, s)) => (format!("{kind}: {file}-{}.pdf", p.name), page - s + 1),
                        None => (format!("{kind}: {file}.pdf"), page),
                    }
                };
                // Who reads a page: its part's audience, or the document's.
                let reader = |page: usize| -> Audience {
                    parts
                        .iter()
                        .filter_map(|p| starts.get(&p.name).map(|&s| (p, s)))
                        .filter(|&(_, s)| s <= page)
                        .max_by_key(|&(_, s)| s)
                        .map_or(audience, |(p, _)| p.audience)
                };
                let mut found = super::pages::check(&doc);
                found.extend(super::pages::reader::lint(&doc, reader));
                super::pages::report(sink, found, name);
                // The metadata each file will carry: the part's title, or the document's.
                let mut meta = Vec::new();
                if parts.is_empty() {
                    meta.push(((format!("{kind}: {file}.pdf"), 1), audience, title));
                }
                for p in parts.iter().filter(|p| starts.contains_key(&p.name)) {
                    meta.push(((format!("{kind}: {file}-{}.pdf", p.name), 1), p.audience, &p.title));
                }
                for (at, who, title) in meta {
                    let found = super::pages::reader::metadata_of(&doc, who, title);
                    super::pages::report(sink, found, |_| at.clone());
                }
            }
            if parts.is_empty() {
                doc.info_mut().title = Some(title.into());
                // A whole document opens with its bookmarks shown (when it has any).
                let pdf =
                    super::pdf::open_with_outlines(self.export(template, world, &doc, ident, audience, None)?);
                let marks = super::form::marks(&doc).map_err(|m| self.form_failed(template, m))?;
                return Ok((vec![(String::new(), pdf)], marks));
            }
            let starts = part_starts(&doc);
            let total = doc.pages().len();
            let mut out = Vec::new();
            for (k, part) in parts.iter().enumerate() {
                let Some(&start) = starts.get(&part.name) else {
                    let message = format!(
                        "the document has no part `{}`: mark its first page with `#metadata(\"{}\") <bp-part>`",
                        part.name, part.name
                    );
                    return Err(self.failed(template, vec![TemplateDiag { message, spot: None, hints: vec![] }]));
                };
                let end = parts[k + 1..]
                    .iter()
                    .filter_map(|p| starts.get(&p.name))
                    .map(|&s| s - 1)
                    .min()
                    .unwrap_or(total)
                    .max(start);
                doc.info_mut().title = Some(part.title.as_str().into());
                // typst tags a whole document only, not a page range: the part's pages become a document
                // of their own (same frames, its own introspector), exported tagged. Should its tags not
                // stand alone (an element running across the part's first or last page), the part is
                // exported as a page range of the whole, untagged, rather than not at all.
                let pages = doc.pages()[start - 1..end].iter().cloned().collect();
                let alone = PagedDocument::new(pages, doc.info().clone());
                let bytes = match self.export(template, world, &alone, ident, part.audience, None) {
                    Ok(bytes) => bytes,
                    Err(_) => {
                        let range = NonZeroUsize::new(start)..=NonZeroUsize::new(end);
                        self.export(template, world, &doc, ident, part.audience, Some(PageRanges::new(vec![range])))?
                    }
                };
                out.push((format!("-{}", part.name), bytes));
            }
            Ok((out, Vec::new()))
        })?;
        // A document whose template marks form fields also gets a fillable copy, `<stem>-fillable.pdf`,
        // unless its data says `fillable: false`. When the marks carry values, the copy is typeset again
        // with `form: true` in the data, so the values stand in the fields rather than printed beneath them.
        let wanted = data.get("fillable") != Some(&serde_json::Value::Bool(false));
        if wanted && !marks.is_empty() {
            let (base, marks) = if super::form::has_values(&marks) {
                let mut again = data.clone();
                if let Some(o) = again.as_object_mut() {
                    o.insert("form".into(), true.into());
                }
                self.compile(template, &again, |world, mut doc, _| {
                    doc.info_mut().title = Some(title.into());
                    let pdf = self.export(template, world, &doc, ident, audience, None)?;
                    let marks =
                        super::form::marks(&doc).map_err(|m| self.form_failed(template, m))?;
                    Ok((pdf, marks))
                })?
            } else {
                (out[0].1.clone(), marks)
            };
            let fillable = super::form::add_fields(&base, &marks).map_err(|m| {
                Error::from(RenderError::Pdf {
                    made: format!("the fillable copy of {template}"),
                    message: m.to_string(),
                })
            })?;
            out.push(("-fillable".into(), fillable));
        }
        // What each file says of its maker (Creator, Producer, the XMP's tool), read by its audience's
        // rules as the PDF will carry it.
        if sink.checks_pages() {
            let kind = ident.strip_prefix("blockprint/").unwrap_or(ident);
            for (suffix, bytes) in &out {
                let who = parts
                    .iter()
                    .find(|p| suffix.strip_prefix('-') == Some(p.name.as_str()))
                    .map_or(audience, |p| p.audience);
                let at = (format!("{kind}: {file}{suffix}.pdf"), 1);
                super::pages::report(sink, super::pages::reader::maker_of(bytes, who), |_| {
                    at.clone()
                });
            }
        }
        Ok(out)
    }

    /// Export a compiled document (or a page range of it) to PDF bytes, its Creator as [`creator`] says.
    fn export(
        &self,
        template: &str,
        world: &dyn World,
        doc: &PagedDocument,
        ident: &str,
        audience: Audience,
        ranges: Option<PageRanges>,
    ) -> Result<Vec<u8>> {
        let tagged = ranges.is_none();
        let options = |standards: typst_pdf::PdfStandards| PdfOptions {
            ident: Smart::Custom(ident.to_owned()),
            creator: Smart::Custom(creator(audience).map(str::to_owned)),
            timestamp: super::pdf::source_date_epoch(),
            // typst cannot tag a page range: a part is a document of its own ([`Engine::pdf_file`]),
            // and only the fallback for one that cannot be exports a range, untagged.
            tagged,
            page_ranges: ranges.clone(),
            standards,
            ..PdfOptions::default()
        };
        let started = Instant::now();
        // PDF/UA-1 where typst accepts the document (a whole document: UA-1 needs tags), else a tagged
        // PDF all the same: README, "Accessibility", lists what typst refuses and why.
        let ua = tagged.then(|| {
            let ua = typst_pdf::PdfStandards::new(&[typst_pdf::PdfStandard::Ua_1])
                .expect("PDF/UA-1 alone is a valid set of standards");
            typst_pdf::pdf(doc, &options(ua))
        });
        let pdf = match ua {
            Some(Ok(pdf)) => Ok(pdf),
            Some(Err(_)) => typst_pdf::pdf(doc, &options(Default::default())),
            None => typst_pdf::pdf(doc, &options(Default::default())),
        };
        add_micros(&self.export_us, started);
        pdf.map_err(|ds| {
            let diags = ds
                .iter()
                .map(|d| typst_diag(&self.templates, world, d))
                .collect();
            self.failed(template, diags)
        })
    }

    /// A template's form-field marks that blockprint cannot read.
    fn form_failed(&self, template: &str, message: String) -> Error {
        self.failed(
            template,
            vec![TemplateDiag {
                message,
                spot: None,
                hints: vec![],
            }],
        )
    }

    fn show_warnings(
        &self,
        template: &str,
        world: &dyn World,
        warnings: &[SourceDiagnostic],
        sink: &dyn Sink,
    ) {
        for w in warnings {
            let text = format!(
                "warning: template {template}: {}",
                typst_diag(&self.templates, world, w)
            );
            self.show(text, sink);
        }
    }

    /// Hand a warning to `sink` unless this engine has given it already.
    fn show(&self, text: String, sink: &dyn Sink) {
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        if !shown.contains(&text) {
            sink.event(Event::Warning(text.clone()));
            shown.insert(text);
        }
    }

    /// Compile a template and return its warnings, located (the template test fails on any), after the
    /// one for characters of `data` that no font has and the document prints
    /// ([`super::fonts::Fonts::missing_printed`]).
    pub fn warnings(&self, template: &str, data: &serde_json::Value) -> Result<Vec<String>> {
        self.compile(template, data, |world, doc, warnings| {
            Ok(self
                .fonts
                .missing_printed(data, &doc)
                .iter()
                .map(ToString::to_string)
                .chain(
                    warnings
                        .iter()
                        .map(|w| typst_diag(&self.templates, world, w).to_string()),
                )
                .collect())
        })
    }

    /// Compile a template and return its form-field marks (see [`super::form`]), for tests and tools that
    /// compare the fields with the layout.
    pub fn form_marks(
        &self,
        template: &str,
        data: &serde_json::Value,
    ) -> Result<Vec<super::form::Mark>> {
        self.compile(template, data, |_, doc, _| {
            super::form::marks(&doc).map_err(|m| self.form_failed(template, m))
        })
    }

    /// Compile a template and return the laid-out document (for tests that look at the glyphs set).
    pub fn typeset(&self, template: &str, data: &serde_json::Value) -> Result<PagedDocument> {
        self.compile(template, data, |_, doc, _| Ok(doc))
    }

    /// Every page of `template` typeset with `data`, as a PNG at `dpi`. The engine remembers what it drew
    /// (up to [`DRAWN_BYTES`]; past that it starts again), so kinds that draw the same pages in one run
    /// typeset and draw them once: `build` writes Foundry's v13 and v12 decks, whose card pictures are the
    /// same. A second thread asking for pages being drawn waits for them rather than drawing them too.
    ///
    /// `keys`, when given, names each page by what draws it (one per page, from the caller: a card's face
    /// and layout): each page is then looked up in the user's cache folder ([`super::cache`]) under that
    /// key, this build and the templates, and only the pages not there are drawn (in parallel) and kept
    /// there, so a card is drawn once per build of blockprint, whatever the run or the output folder.
    pub fn page_pngs(
        &self,
        template: &str,
        data: &serde_json::Value,
        dpi: f64,
        keys: &[String],
    ) -> Result<std::sync::Arc<Vec<Vec<u8>>>> {
        let mut key = sha2::Sha256::new();
        key.update(template.as_bytes());
        key.update([0]);
        key.update(dpi.to_le_bytes());
        key.update(
            serde_json::to_vec(data)
                .map_err(|e| Bug::json(&format!("the data of {template}"), e))?,
        );
        for k in keys {
            key.update([0]);
            key.update(k.as_bytes());
        }
        let key: [u8; 32] = key.finalize().into();
        let slot = {
            let mut drawn = self.drawn.lock().unwrap_or_else(|e| e.into_inner());
            drawn.0.entry(key).or_default().clone()
        };
        let mut pages = slot.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(pngs) = &*pages {
            return Ok(pngs.clone());
        }
        let pngs = std::sync::Arc::new(self.draw_pages(template, data, dpi, keys)?);
        *pages = Some(pngs.clone());
        let mut drawn = self.drawn.lock().unwrap_or_else(|e| e.into_inner());
        drawn.1 += pngs.iter().map(Vec::len).sum::<usize>();
        if drawn.1 > DRAWN_BYTES {
            *drawn = (BTreeMap::new(), 0);
        }
        Ok(pngs)
    }

    /// [`Engine::page_pngs`] without the engine's memory: the cached pages read, the others typeset and
    /// drawn.
    fn draw_pages(
        &self,
        template: &str,
        data: &serde_json::Value,
        dpi: f64,
        keys: &[String],
    ) -> Result<Vec<Vec<u8>>> {
        use rayon::prelude::*;
        const SPACE: &str = "pictures";
        let templates = self.templates.version();
        // A user's fonts draw too: each one's fingerprint is part of the key (none: the key as before).
        let fonts: Vec<&[u8]> = self
            .fonts
            .extra()
            .iter()
            .map(|f| f.sha256.as_bytes())
            .collect();
        let dpi_bytes = dpi.to_le_bytes();
        let cache_keys: Vec<String> = keys
            .iter()
            .map(|k| {
                let mut parts: Vec<&[u8]> = vec![
                    b"card picture",
                    templates.as_bytes(),
                    template.as_bytes(),
                    &dpi_bytes,
                    k.as_bytes(),
                ];
                parts.extend(&fonts);
                super::cache::key(&parts)
            })
            .collect();
        let mut found: Vec<Option<Vec<u8>>> = cache_keys
            .iter()
            .map(|k| super::cache::get(SPACE, k))
            .collect();
        if !found.is_empty() && found.iter().all(Option::is_some) {
            return Ok(found.into_iter().flatten().collect());
        }
        let doc = self.typeset(template, data)?;
        let n = doc.pages().len();
        if !keys.is_empty() && keys.len() != n {
            return Err(RenderError::PageCount {
                template: template.to_owned(),
                pages: n,
                pictures: keys.len(),
            }
            .into());
        }
        found.resize(n, None);
        let todo: Vec<usize> = (0..n).filter(|&i| found[i].is_none()).collect();
        let new: Vec<(usize, Vec<u8>)> = todo
            .par_iter()
            .map(|&i| {
                let png = super::cards::png(&doc.pages()[i], dpi)
                    .map_err(|e| Bug::system("draw a card picture", e))?;
                if let Some(k) = cache_keys.get(i) {
                    super::cache::put(SPACE, k, &png);
                }
                Ok((i, png))
            })
            .collect::<Result<_>>()?;
        for (i, png) in new {
            found[i] = Some(png);
        }
        Ok(found.into_iter().flatten().collect())
    }
}

fn add_micros(counter: &AtomicU64, since: Instant) {
    let us = u64::try_from(since.elapsed().as_micros()).unwrap_or(u64::MAX);
    counter.fetch_add(us, Ordering::Relaxed);
}

/// First page (1-based) of each part the template marked with `#metadata("<name>") <bp-part>`.
fn part_starts(doc: &PagedDocument) -> BTreeMap<String, usize> {
    let label = Label::new(PicoStr::intern("bp-part"));
    let intro = doc.introspector();
    let Some(label) = label else {
        return BTreeMap::new();
    };
    let mut out = BTreeMap::new();
    for c in intro.query(&typst::foundations::Selector::Label(label)) {
        let Some(meta) = c.to_packed::<MetadataElem>() else {
            continue;
        };
        let Value::Str(name) = &meta.value else {
            continue;
        };
        let Some(loc) = c.location() else { continue };
        if let Some(page) = intro.page(loc) {
            out.entry(name.to_string()).or_insert(page.get());
        }
    }
    out
}

/// A typst diagnostic with its place in the template source.
fn typst_diag(templates: &Templates, world: &dyn World, d: &SourceDiagnostic) -> TemplateDiag {
    let spot = d.span.id().and_then(|id| {
        let source = world.source(id).ok()?;
        let range = typst::WorldExt::range(world, d.span)?;
        let lines = source.lines();
        let (line, _) = lines.byte_to_line_column(range.start)?;
        let text = source.text();
        let line_start = lines.line_to_byte(line)?;
        let line_end = text[line_start..]
            .find('\n')
            .map_or(text.len(), |e| line_start + e);
        let column = text[line_start..range.start].chars().count() + 1;
        Some(TemplateSpot {
            file: {
                let path = id.vpath().get_without_slash();
                templates
                    .file(path)
                    .map_or_else(|| format!("templates/{path}"), |f| f.shown_as.clone())
            },
            line: line + 1,
            column,
            source_line: text[line_start..line_end].to_owned(),
        })
    });
    TemplateDiag {
        message: d.message.to_string(),
        spot,
        hints: d
            .hints
            .iter()
            .map(|h| h.v.to_string())
            .filter(|h| !h.contains("--root"))
            .collect(),
    }
}

/// A minijinja error with its place.
fn jinja_diag(templates: &Templates, e: &minijinja::Error, fallback: &str) -> TemplateDiag {
    let spot = Some(e.name().unwrap_or(fallback))
        .zip(e.line())
        .map(|(name, line)| {
            let file = templates.file(name);
            TemplateSpot {
                file: file.map_or_else(|| format!("templates/{name}"), |f| f.shown_as.clone()),
                line,
                column: e.range().map_or(1, |r| {
                    file.map_or(1, |f| {
                        let start = f.text[..r.start.min(f.text.len())]
                            .rfind('\n')
                            .map_or(0, |p| p + 1);
                        f.text[start..r.start.min(f.text.len())].chars().count() + 1
                    })
                }),
                source_line: file
                    .and_then(|f| f.text.lines().nth(line.saturating_sub(1)))
                    .unwrap_or("")
                    .to_owned(),
            }
        });
    TemplateDiag {
        message: e
            .detail()
            .map_or_else(|| e.kind().to_string(), |d| format!("{}: {d}", e.kind())),
        spot,
        hints: vec![],
    }
}

impl blockprint_kind::Markdown for Engine {
    fn markdown(&self, template: &str, data: &serde_json::Value) -> Result<String> {
        Engine::markdown(self, template, data)
    }
    fn markdown_env(&self) -> &minijinja::Environment<'static> {
        Engine::markdown_env(self)
    }
    fn markdown_error(&self, template: &str, e: &minijinja::Error) -> Error {
        Engine::markdown_error(self, template, e)
    }
}

/// What a PDF says made it (its Creator, and a merged file's Producer): the program's name on a GM's
/// document, where the GM may want to know which tool wrote it; nothing on a player's or a reader's, whose
/// paper and metadata carry nothing of the program (issue 40). The manifest beside the files names the
/// program and its version for everyone.
pub fn creator(audience: Audience) -> Option<&'static str> {
    match audience {
        Audience::Gm => Some("blockprint"),
        Audience::Player | Audience::Reader => None,
    }
}
