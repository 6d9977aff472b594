//! Loading: a content root (embedded or a directory) in, a [`Library`] of located items plus parse/schema
//! diagnostics out. Files are read in sorted path order so everything downstream is stable.

use std::io;
use std::path::{Path, PathBuf};

use std::collections::BTreeMap;

use include_dir::{Dir, include_dir};
use serde::Deserialize;
use toml::Spanned;

use super::model::*;
use super::{Library, Source};
use crate::diag::{Diagnostic, Kind, Loc};

/// The content compiled into the binary.
pub static EMBEDDED: Dir<'static> = include_dir!("$BLOCKPRINT_CONTENT_DIR");

/// Where content comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContentRoot {
    Embedded,
    Dir(PathBuf),
}

/// The largest content file read. Content is text of a few kilobytes a file (the built-in content's
/// largest file is under 40 KB); anything larger is refused unread, with a diagnostic naming it, so a
/// stray huge file can neither exhaust memory nor stall `check`.
pub const MAX_FILE_BYTES: u64 = 4 << 20;
/// The most read from one content root altogether.
pub const MAX_TOTAL_BYTES: u64 = 64 << 20;

/// A path under the content root that cannot be read as content (see [`crate::diag::Kind::BadFile`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadFile {
    /// Relative to the content root, `/`-separated.
    pub path: String,
    pub message: String,
    pub hint: String,
}

/// What a content root holds: readable files (relative path, bytes), sorted by path, and the paths that
/// cannot be content.
#[derive(Debug, Default)]
pub struct Files {
    pub files: Vec<(String, Vec<u8>)>,
    pub bad: Vec<BadFile>,
}

impl ContentRoot {
    pub fn from_option(dir: Option<PathBuf>) -> Self {
        dir.map_or(ContentRoot::Embedded, ContentRoot::Dir)
    }

    /// Every file under the root as (path relative to the root with `/` separators, bytes), sorted by path.
    /// Hidden files and folders (starting with `.`) are skipped. A path that cannot be content (see
    /// [`ContentRoot::scan`]) is an error.
    pub fn files(&self) -> io::Result<Vec<(String, Vec<u8>)>> {
        let scanned = self.scan()?;
        match scanned.bad.first() {
            Some(b) => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: {} ({})", b.path, b.message, b.hint),
            )),
            None => Ok(scanned.files),
        }
    }

    /// Every file under the root, and the paths that cannot be content. Symbolic links are followed when
    /// they stay inside the root; one that leads out of it, dangles or runs in a loop is reported, as is
    /// anything that is not a regular file (a named pipe, a socket, a device: never opened, so a pipe
    /// cannot block the read), a folder named like a content file (`x.toml/`), and a file over
    /// [`MAX_FILE_BYTES`] (or past [`MAX_TOTAL_BYTES`] altogether). I/O failures are `Err`.
    pub fn scan(&self) -> io::Result<Files> {
        let mut out = Files::default();
        match self {
            ContentRoot::Embedded => collect_embedded(&EMBEDDED, &mut out.files),
            ContentRoot::Dir(dir) => {
                let meta = std::fs::metadata(dir).map_err(|e| with_path(e, dir))?;
                if !meta.is_dir() {
                    return Err(io::Error::new(
                        io::ErrorKind::NotADirectory,
                        format!("{} is not a directory", dir.display()),
                    ));
                }
                let root = std::fs::canonicalize(dir).map_err(|e| with_path(e, dir))?;
                let mut walk = Walk {
                    root: root.clone(),
                    out: &mut out,
                    total: 0,
                    ancestors: vec![root],
                };
                walk.dir(dir, "")?;
            }
        }
        out.files.sort_by(|a, b| a.0.cmp(&b.0));
        out.bad.sort_by(|a, b| a.path.cmp(&b.path));
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

pub(crate) fn collect_embedded(dir: &Dir<'static>, out: &mut Vec<(String, Vec<u8>)>) {
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

/// A walk of a content folder.
struct Walk<'a> {
    /// The root, canonical: a link must resolve inside it.
    root: PathBuf,
    out: &'a mut Files,
    total: u64,
    /// The canonical folders being walked, outermost first: a link back to one of them is a loop.
    ancestors: Vec<PathBuf>,
}

impl Walk<'_> {
    fn bad(&mut self, rel: &str, message: impl Into<String>, hint: impl Into<String>) {
        self.out.bad.push(BadFile {
            path: rel.to_owned(),
            message: message.into(),
            hint: hint.into(),
        });
    }

    /// Walk `dir` (as reached, possibly through a link), whose files are named `prefix<name>`.
    fn dir(&mut self, dir: &Path, prefix: &str) -> io::Result<()> {
        let mut entries = std::fs::read_dir(dir)
            .map_err(|e| with_path(e, dir))?
            .collect::<io::Result<Vec<_>>>()
            .map_err(|e| with_path(e, dir))?;
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let path = entry.path();
            let rel = format!("{prefix}{name}");
            let ty = entry.file_type().map_err(|e| with_path(e, &path))?;
            // What the entry is, links followed (by `stat`, which never opens it).
            let (meta, canonical) = if ty.is_symlink() {
                let canonical = match std::fs::canonicalize(&path) {
                    Ok(c) => c,
                    Err(e) if e.raw_os_error() == Some(ELOOP) => {
                        self.bad(
                            &rel,
                            "is a symbolic link in a loop (it leads back to itself)",
                            "point the link at a real file or folder inside the content folder, or remove it",
                        );
                        continue;
                    }
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {
                        let to = std::fs::read_link(&path)
                            .map(|t| t.display().to_string())
                            .unwrap_or_default();
                        self.bad(
                            &rel,
                            format!("is a symbolic link to `{to}`, which does not exist"),
                            "point the link at a file inside the content folder, or remove it",
                        );
                        continue;
                    }
                    Err(e) => return Err(with_path(e, &path)),
                };
                if !canonical.starts_with(&self.root) {
                    self.bad(
                        &rel,
                        format!(
                            "is a symbolic link out of the content folder (to {})",
                            canonical.display()
                        ),
                        "copy the file into the content folder, or link only to files inside it",
                    );
                    continue;
                }
                let meta = std::fs::metadata(&canonical).map_err(|e| with_path(e, &path))?;
                (meta, Some(canonical))
            } else {
                let meta = std::fs::symlink_metadata(&path).map_err(|e| with_path(e, &path))?;
                (meta, None)
            };
            if meta.is_dir() {
                let lower = name.to_ascii_lowercase();
                if lower.ends_with(".toml") || lower.ends_with(".md") {
                    self.bad(
                        &rel,
                        "is a folder named like a content file",
                        "content files are regular files; rename the folder (or move the file it should be into its place)",
                    );
                    continue;
                }
                let canonical = match canonical {
                    Some(c) => c,
                    None => std::fs::canonicalize(&path).map_err(|e| with_path(e, &path))?,
                };
                if self.ancestors.contains(&canonical) {
                    self.bad(
                        &rel,
                        "is a symbolic link in a loop (it leads to a folder that holds it)",
                        "remove the link, or point it at a folder that does not contain it",
                    );
                    continue;
                }
                self.ancestors.push(canonical);
                let r = self.dir(&path, &format!("{rel}/"));
                self.ancestors.pop();
                r?;
            } else if meta.is_file() {
                if meta.len() > MAX_FILE_BYTES {
                    self.bad(
                        &rel,
                        format!(
                            "is {} bytes; content files may be at most {MAX_FILE_BYTES} bytes ({} MiB)",
                            meta.len(),
                            MAX_FILE_BYTES >> 20
                        ),
                        "split the content into several files, or move what is not content out of the content folder",
                    );
                    continue;
                }
                if self.total + meta.len() > MAX_TOTAL_BYTES {
                    self.bad(
                        &rel,
                        format!(
                            "takes the content folder past {} MiB altogether",
                            MAX_TOTAL_BYTES >> 20
                        ),
                        "move what is not content out of the content folder",
                    );
                    continue;
                }
                let bytes = std::fs::read(&path).map_err(|e| with_path(e, &path))?;
                self.total += bytes.len() as u64;
                self.out.files.push((rel, bytes));
            } else {
                self.bad(
                    &rel,
                    format!("is {}, not a regular file", special_kind(&meta)),
                    "content is read from regular files only; remove it or replace it with a file",
                );
            }
        }
        Ok(())
    }
}

/// `ELOOP`: too many levels of symbolic links (40 on Linux, 62 on the BSDs and macOS).
#[cfg(any(
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd",
    target_os = "openbsd",
    target_os = "netbsd"
))]
const ELOOP: i32 = 62;
#[cfg(not(any(
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd",
    target_os = "openbsd",
    target_os = "netbsd"
)))]
const ELOOP: i32 = 40;

/// What a file that is neither a regular file nor a folder is.
fn special_kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    let _ = meta;
    "a special file"
}

/// Load every `.toml` file under `root`. I/O failures are `Err`; content problems are diagnostics.
pub fn load(root: &ContentRoot) -> io::Result<(Library, Vec<Diagnostic>)> {
    let Files { files, bad } = root.scan()?;
    Ok(load_scanned(files, bad, None))
}

/// Load content from files already in memory: (path relative to the root with `/` separators, bytes),
/// sorted by path as [`ContentRoot::scan`] gives them. For tests and fuzzing, which need no folder.
pub fn load_files(files: Vec<(String, Vec<u8>)>) -> (Library, Vec<Diagnostic>) {
    load_scanned(files, Vec::new(), None)
}

/// [`load_files`] keeping each TOML file's parse in `cache` for the next load: a file with the same path,
/// place in path order and text as one loaded before is not parsed again; its items, source and
/// diagnostics are copied from the cache. The result is the same as [`load_files`]'s (a test compares the
/// two over the fuzz seeds and the checker's fixtures). For loops that load content again after changing
/// one file of it (the `data` fuzz target, which replaces one file an input).
pub fn load_files_cached(
    files: Vec<(String, Vec<u8>)>,
    cache: &mut LoadCache,
) -> (Library, Vec<Diagnostic>) {
    load_scanned(files, Vec::new(), Some(cache))
}

/// The files [`load_files_cached`] has read: for each path, the last two texts seen (so both the
/// original of a file and an edit of it stay), with what loading each gave.
#[derive(Debug, Default)]
pub struct LoadCache {
    files: BTreeMap<String, Vec<Parsed>>,
    chapters: BTreeMap<String, Vec<ReadChapter>>,
}

/// One Markdown page as loaded: at place `file`, as page `slug` of `owner` (a book or kit), with
/// `source` it made `chapter` (none when its front matter is wrong) and `diags`.
#[derive(Debug)]
struct ReadChapter {
    file: usize,
    owner: String,
    slug: String,
    source: Source,
    chapter: Option<Chapter>,
    diags: Vec<Diagnostic>,
}

/// One TOML file as loaded: at place `file` with `source`, it made the items in `part` and `diags`.
#[derive(Debug)]
struct Parsed {
    file: usize,
    source: Source,
    part: Library,
    diags: Vec<Diagnostic>,
}

impl LoadCache {
    /// How many texts of one path are kept.
    const PER_PATH: usize = 2;

    fn get(&mut self, path: &str, file: usize, bytes: &[u8]) -> Option<&Parsed> {
        let list = self.files.get_mut(path)?;
        let i = list
            .iter()
            .position(|p| p.file == file && p.source.text.as_bytes() == bytes)?;
        // The most recently used first.
        list[..=i].rotate_right(1);
        list.first()
    }

    fn put(&mut self, parsed: Parsed) {
        let list = self.files.entry(parsed.source.path.clone()).or_default();
        list.insert(0, parsed);
        list.truncate(Self::PER_PATH);
    }

    fn chapter(
        &mut self,
        path: &str,
        file: usize,
        bytes: &[u8],
        owner: &str,
        slug: &str,
    ) -> Option<&ReadChapter> {
        let list = self.chapters.get_mut(path)?;
        let i = list.iter().position(|c| {
            c.file == file
                && c.owner == owner
                && c.slug == slug
                && c.source.text.as_bytes() == bytes
        })?;
        list[..=i].rotate_right(1);
        list.first()
    }

    fn put_chapter(&mut self, read: ReadChapter) {
        let list = self.chapters.entry(read.source.path.clone()).or_default();
        list.insert(0, read);
        list.truncate(Self::PER_PATH);
    }
}

/// Load scanned files, reporting the ones the scan could not take (`bad`) as located errors.
fn load_scanned(
    files: Vec<(String, Vec<u8>)>,
    bad: Vec<BadFile>,
    mut cache: Option<&mut LoadCache>,
) -> (Library, Vec<Diagnostic>) {
    let mut lib = Library::default();
    let mut diags = Vec::new();
    for b in bad {
        // Named, but with no text to quote: the file was never read (and may not be readable).
        let mut d = Diagnostic::unlocated(Kind::BadFile, format!("{} {}", b.path, b.message))
            .with_hint(b.hint);
        (d.file, d.line, d.column) = (b.path, 1, 1);
        diags.push(d);
    }
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
        if let Some(hit) = cache.as_mut().and_then(|c| c.get(&path, file, &bytes)) {
            lib.sources.push(hit.source.clone());
            diags.extend(hit.diags.iter().cloned());
            lib.append(&hit.part);
            continue;
        }
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
        let mut own = Vec::new();
        let part = toml_file(&lib.sources, file, &mut own);
        if let Some(c) = cache.as_mut() {
            c.put(Parsed {
                file,
                source: lib.sources[file].clone(),
                part: part.clone(),
                diags: own.clone(),
            });
        }
        diags.extend(own);
        lib.append(&part);
    }
    chapters(&mut lib, &markdown, &mut diags, cache);
    lib.version = version(&lib.sources);
    lib.reindex();
    (lib, diags)
}

/// Parse and read one TOML file, `sources[file]`: its items (in a library of their own) and its
/// diagnostics.
fn toml_file(sources: &[Source], file: usize, diags: &mut Vec<Diagnostic>) -> Library {
    let mut part = Library::default();
    let text = &sources[file].text;
    // Syntax first, so a TOML mistake is told apart from a schema mistake. The document is parsed
    // once: the schema is read from the parsed tree, not from the text again.
    let doc = match toml::de::DeTable::parse(text) {
        Err(e) => {
            let loc = error_loc(file, e.span(), text.len());
            diags.push(
                Diagnostic::error(
                    Kind::Parse,
                    sources,
                    &loc,
                    format!("invalid TOML: {}", first_line(e.message())),
                )
                .with_hint("fix the TOML syntax at the marked place (quotes, commas, brackets)"),
            );
            return part;
        }
        Ok(doc) if doc.get_ref().is_empty() => {
            // Most often a save that failed: everything the file held would vanish silently.
            diags.push(
                Diagnostic::error(
                    Kind::Schema,
                    sources,
                    &loc(file, 0..0),
                    "the file defines nothing (it is empty, or holds only comments)",
                )
                .with_hint("restore the file's tables, or delete the file if it is meant to go"),
            );
            return part;
        }
        Ok(doc) => {
            // TOML refuses raw control characters, but escapes (`\u001b`, `\e`) make them. The
            // items still load, so the rest of the check runs; the errors stop every output.
            toml_controls(sources, file, doc.get_ref(), diags);
            doc
        }
    };
    match FileDoc::deserialize(toml::de::Deserializer::from(doc)) {
        Ok(mut doc) => {
            limit_rows(sources, file, &mut doc, diags);
            add_doc(&mut part, file, doc)
        }
        Err(e) => {
            let loc = error_loc(file, e.span(), text.len());
            let msg = first_line(e.message()).to_owned();
            let hint = schema_hint(&msg);
            diags.push(Diagnostic::error(Kind::Schema, sources, &loc, msg).with_hint(hint));
        }
    }
    part
}

/// The most rows a table (or entries a lookup) may have. The largest built-in table has 100; the limit
/// keeps the checker's work per table bounded (rows times outcomes) whatever a file holds.
pub const MAX_ROWS: usize = 10_000;

/// A `schema` error for each table or lookup over [`MAX_ROWS`]; the rest of it is not loaded.
fn limit_rows(sources: &[Source], file: usize, doc: &mut FileDoc, diags: &mut Vec<Diagnostic>) {
    let mut over = |what: &str, n: usize, span: std::ops::Range<usize>| {
        diags.push(
            Diagnostic::error(
                Kind::Schema,
                sources,
                &loc(file, span),
                format!("this {what} has {n} rows; a {what} may have at most {MAX_ROWS}"),
            )
            .with_hint(format!("split the {what}, or roll a smaller die")),
        );
    };
    for t in &mut doc.table {
        let rows = &mut t.get_mut().rows;
        if rows.get_ref().len() > MAX_ROWS {
            over("table", rows.get_ref().len(), rows.span());
            rows.get_mut().truncate(MAX_ROWS);
        }
    }
    for l in &mut doc.lookup {
        let entries = &mut l.get_mut().entries;
        if entries.get_ref().len() > MAX_ROWS {
            over("lookup", entries.get_ref().len(), entries.span());
            entries.get_mut().truncate(MAX_ROWS);
        }
    }
}

/// Whether a character may not appear in content: a control character (C0, DEL, C1) other than tab and
/// line breaks. Such characters print as nothing in a PDF, corrupt Markdown, and act on a terminal (ESC
/// starts escape sequences), so content holding one is refused wherever it comes from.
pub fn forbidden_control(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

/// A control character's name for messages: `U+001B (ESC)`.
fn control_name(c: char) -> String {
    const C0: [&str; 32] = [
        "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "TAB", "LF", "VT", "FF",
        "CR", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM",
        "SUB", "ESC", "FS", "GS", "RS", "US",
    ];
    let code = c as u32;
    let name = match code {
        0..=31 => C0[code as usize],
        127 => "DEL",
        _ => "C1 control",
    };
    format!("U+{code:04X} ({name})")
}

fn control_hint() -> &'static str {
    "delete it: control characters print as nothing in a PDF, break Markdown and act on terminals (often \
     a paste from a terminal or a file saved in the wrong encoding)"
}

/// A diagnostic for the first control character in a file's text (a chapter), counting the rest.
fn text_controls(sources: &[Source], file: usize) -> Option<Diagnostic> {
    let text = &sources[file].text;
    let mut found = text.char_indices().filter(|&(_, c)| forbidden_control(c));
    let (at, c) = found.next()?;
    let more = found.count();
    let and = if more > 0 {
        format!(" (and {more} more in this file)")
    } else {
        String::new()
    };
    Some(
        Diagnostic::error(
            Kind::ControlCharacter,
            sources,
            &loc(file, at..at + c.len_utf8()),
            format!("control character {}{and}", control_name(c)),
        )
        .with_hint(control_hint()),
    )
}

/// Diagnostics for control characters in a TOML document's keys and string values (escapes make them;
/// TOML refuses them raw), one for each key or value, at the value.
fn toml_controls(
    sources: &[Source],
    file: usize,
    table: &toml::de::DeTable<'_>,
    out: &mut Vec<Diagnostic>,
) {
    fn check(
        sources: &[Source],
        file: usize,
        s: &str,
        span: std::ops::Range<usize>,
        out: &mut Vec<Diagnostic>,
    ) {
        if let Some(c) = s.chars().find(|&c| forbidden_control(c)) {
            out.push(
                Diagnostic::error(
                    Kind::ControlCharacter,
                    sources,
                    &loc(file, span),
                    format!(
                        "control character {} in `{}`",
                        control_name(c),
                        s.chars()
                            .map(|c| if forbidden_control(c) { '?' } else { c })
                            .take(60)
                            .collect::<String>()
                    ),
                )
                .with_hint(control_hint()),
            );
        }
    }
    fn value(
        sources: &[Source],
        file: usize,
        v: &Spanned<toml::de::DeValue<'_>>,
        out: &mut Vec<Diagnostic>,
    ) {
        match v.get_ref() {
            toml::de::DeValue::String(s) => check(sources, file, s, v.span(), out),
            toml::de::DeValue::Array(items) => {
                for item in items.iter() {
                    value(sources, file, item, out);
                }
            }
            toml::de::DeValue::Table(t) => toml_controls(sources, file, t, out),
            _ => {}
        }
    }
    for (k, v) in table.iter() {
        check(sources, file, k.get_ref(), k.span(), out);
        value(sources, file, v, out);
    }
}

/// A short fingerprint of the content the loader read (FNV-1a, 64 bits, over paths and text in the order
/// read: every `.toml` file, then each book's chapters): printed on every page so a packet names the content
/// it came from. Files the loader does not read (a README, notes beside the tables) change nothing.
fn version(sources: &[Source]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for s in sources {
        eat(s.path.as_bytes());
        eat(&[0]);
        eat(&(s.text.len() as u64).to_le_bytes());
        eat(s.text.as_bytes());
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

/// Resolve each book's chapter slugs to `<book folder>/<slug>.md`, and each kit's page slugs to
/// `<kit folder>/kit/<slug>.md`; read their front matter, and report missing chapters, bad front matter,
/// and Markdown files beside a book (or in a kit's `kit/` folder) that it does not list.
fn chapters(
    lib: &mut Library,
    markdown: &BTreeMap<String, Vec<u8>>,
    diags: &mut Vec<Diagnostic>,
    mut cache: Option<&mut LoadCache>,
) {
    let folder_of = |lib: &Library, file: usize| match lib.sources[file].path.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/"),
        None => String::new(),
    };
    for b in 0..lib.books.len() {
        let folder = folder_of(lib, lib.books[b].id.loc.file);
        let (id, order) = (lib.books[b].id.clone(), lib.books[b].order.clone());
        lib.books[b].chapters = pages(
            lib,
            &id,
            (&folder, "chapters"),
            &order,
            markdown,
            diags,
            cache.as_deref_mut(),
        );
    }
    for k in 0..lib.kits.len() {
        if lib.kits[k].order.is_empty() {
            continue;
        }
        let folder = format!("{}kit/", folder_of(lib, lib.kits[k].id.loc.file));
        let (id, order) = (lib.kits[k].id.clone(), lib.kits[k].order.clone());
        lib.kits[k].pages = pages(
            lib,
            &id,
            (&folder, "pages"),
            &order,
            markdown,
            diags,
            cache.as_deref_mut(),
        );
    }
}

/// The Markdown pages `<folder><slug>.md` listed in `order` (the `key` of the book or kit `owner`),
/// read anew or taken from `cache`.
fn pages(
    lib: &mut Library,
    owner: &Located<String>,
    (folder, key): (&str, &str),
    order: &[Located<String>],
    markdown: &BTreeMap<String, Vec<u8>>,
    diags: &mut Vec<Diagnostic>,
    mut cache: Option<&mut LoadCache>,
) -> Vec<Chapter> {
    let mut found = Vec::new();
    {
        for slug in order {
            let path = format!("{folder}{}.md", slug.value);
            let Some(bytes) = markdown.get(&path) else {
                diags.push(
                    Diagnostic::error(Kind::MissingChapter, &lib.sources, &slug.loc, format!("chapter `{}` has no file {path}", slug.value))
                        .with_table(&owner.value)
                        .with_hint(format!("create {path} with `+++ title = \"…\" +++` front matter, or remove `{}` from `{key}`", slug.value)),
                );
                continue;
            };
            let file = lib.sources.len();
            if let Some(hit) = cache
                .as_deref_mut()
                .and_then(|c| c.chapter(&path, file, bytes, &owner.value, &slug.value))
            {
                lib.sources.push(hit.source.clone());
                diags.extend(hit.diags.iter().cloned());
                found.extend(hit.chapter.clone());
                continue;
            }
            let (diags_before, found_before) = (diags.len(), found.len());
            lib.sources.push(Source::new(
                path.clone(),
                String::from_utf8_lossy(bytes).into_owned(),
            ));
            if let Err(e) = std::str::from_utf8(bytes) {
                // Up to the first bad byte the lossy text is the file's own, so the place is exact.
                let at = e.valid_up_to();
                diags.push(
                    Diagnostic::error(
                        Kind::Parse,
                        &lib.sources,
                        &loc(file, at..at + 1),
                        "file is not valid UTF-8",
                    )
                    .with_table(&owner.value)
                    .with_hint("save the file as UTF-8"),
                );
            } else if let Some(d) = text_controls(&lib.sources, file) {
                diags.push(d.with_table(&owner.value));
            }
            // Either error stops every output; the chapter still loads so the rest is checked too.
            match front_matter(&lib.sources[file].text) {
                Ok((fm_span, body_offset)) => {
                    let text = &lib.sources[file].text;
                    match toml::from_str::<FrontMatter>(&text[fm_span.clone()]) {
                        Ok(fm) => {
                            let chapter = Chapter {
                                slug: slug.value.clone(),
                                title: fm.title,
                                role: fm.role,
                                body: text[body_offset..].to_owned(),
                                file,
                                body_offset,
                            };
                            found.push(chapter);
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
                                    "front matter holds `title = \"…\"` (and, for the book's quick reference, `role = \"quick-reference\"`) between `+++` lines",
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
            // A page that is not UTF-8 is read anew each time (its text is not its bytes).
            if let Some(c) = cache.as_deref_mut()
                && std::str::from_utf8(bytes).is_ok()
            {
                c.put_chapter(ReadChapter {
                    file,
                    owner: owner.value.clone(),
                    slug: slug.value.clone(),
                    source: lib.sources[file].clone(),
                    chapter: found[found_before..].first().cloned(),
                    diags: diags[diags_before..].to_vec(),
                });
            }
        }
        // Markdown beside the book that the book does not list.
        for path in markdown.keys() {
            let Some(rest) = path.strip_prefix(folder) else {
                continue;
            };
            if rest.contains('/') || rest.eq_ignore_ascii_case("README.md") {
                continue;
            }
            let slug = rest.trim_end_matches(".md");
            if !order.iter().any(|s| s.value == slug) {
                let what = if key == "pages" { "kit" } else { "book" };
                diags.push(
                    Diagnostic::warning(
                        Kind::UnlistedChapter,
                        &lib.sources,
                        &owner.loc,
                        format!("{path} is not in the {key} of {what} `{}`", owner.value),
                    )
                    .with_table(&owner.value)
                    .with_hint(format!(
                        "add `\"{slug}\"` to `{key}`, or move the file elsewhere"
                    )),
                );
            }
        }
    }
    found
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
                    forms: r.forms.map(|f| located(file, f)),
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
            imported: t.imported,
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
        let id = located(file, d.id);
        let ranks = match d.ranks {
            Some(r) => {
                let span = r.span();
                Located::new(
                    r.into_inner()
                        .into_iter()
                        .map(|c| located(file, c))
                        .collect(),
                    file,
                    span,
                )
            }
            None => Located {
                value: RANKS
                    .iter()
                    .map(|r| Located {
                        value: (*r).to_owned(),
                        loc: id.loc.clone(),
                    })
                    .collect(),
                loc: id.loc.clone(),
            },
        };
        lib.decks.push(Deck {
            id,
            title: d.title,
            note: d.note,
            editorial: d.editorial,
            back: d.back,
            damage: d.damage,
            suits: d.suits,
            ranks,
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
            edition: b.edition,
            own_tables: b.own_tables.unwrap_or_default(),
            index: b.index,
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
    for k in doc.kit {
        let k = k.into_inner();
        lib.kits.push(Kit {
            id: located(file, k.id),
            title: k.title,
            source: k.source,
            licence: k.licence,
            attribution: k.attribution,
            editorial: k.editorial,
            order: k.pages.into_iter().map(|c| located(file, c)).collect(),
            pages: Vec::new(),
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
    for c in doc.claimed_odds {
        let c = c.into_inner();
        let columns_loc = loc(file, c.columns.span());
        let rows_loc = loc(file, c.rows.span());
        let columns = c
            .columns
            .into_inner()
            .into_iter()
            .map(|col| {
                let col_loc = loc(file, col.span());
                let col = col.into_inner();
                let mut contests = vec![(located(file, col.a), located(file, col.b))];
                contests.extend(col.also.into_iter().map(|x| {
                    let x = x.into_inner();
                    (located(file, x.a), located(file, x.b))
                }));
                ClaimColumn {
                    label: col.label,
                    contests,
                    loc: col_loc,
                }
            })
            .collect();
        let rows = c
            .rows
            .into_inner()
            .into_iter()
            .map(|r| {
                let row_loc = loc(file, r.span());
                let r = r.into_inner();
                ClaimRow {
                    label: r.label,
                    counts: located(file, r.counts),
                    cells_loc: loc(file, r.cells.span()),
                    cells: r
                        .cells
                        .into_inner()
                        .into_iter()
                        .map(|x| located(file, x))
                        .collect(),
                    loc: row_loc,
                }
            })
            .collect();
        lib.claimed_odds.push(ClaimedOdds {
            id: located(file, c.id),
            title: c.title,
            printed_in: c.printed_in,
            note: c.note,
            ties: located(file, c.ties),
            attacker: c.attacker.map(|a| located(file, a)),
            rounding: located(file, c.rounding),
            decimals: c.decimals.map(|d| located(file, d)),
            columns,
            columns_loc,
            rows,
            rows_loc,
        });
    }
    for c in doc.chart {
        let c = c.into_inner();
        let columns = {
            let span = c.columns.span();
            Located::new(
                c.columns
                    .into_inner()
                    .into_iter()
                    .map(|n| located(file, n))
                    .collect(),
                file,
                span,
            )
        };
        let span = c.rows.span();
        let rows = c
            .rows
            .into_inner()
            .into_iter()
            .map(|r| {
                let rspan = r.span();
                let (cells, editorial) = match r.into_inner() {
                    ChartRowDoc::Cells(cells) => (cells, None),
                    ChartRowDoc::Full(f) => (f.cells, f.editorial),
                };
                ChartRow {
                    cells: cells.iter().map(Cell::text).collect(),
                    editorial,
                    loc: loc(file, rspan),
                }
            })
            .collect();
        lib.charts.push(Chart {
            id: located(file, c.id),
            title: c.title,
            note: c.note,
            editorial: c.editorial,
            columns,
            numeric: c.numeric.into_iter().map(|n| located(file, n)).collect(),
            rows: Located::new(rows, file, span),
        });
    }
    for t in doc.track {
        let t = t.into_inner();
        let feature = |f: FeatureDoc| Feature {
            title: f.title,
            text: f.text,
            editorial: f.editorial,
        };
        lib.tracks.push(Track {
            id: located(file, t.id),
            title: t.title,
            note: t.note,
            editorial: t.editorial,
            spaces: t
                .space
                .into_iter()
                .map(|s| {
                    let s = s.into_inner();
                    Space {
                        n: located(file, s.n),
                        name: s.name,
                        challenge: s.challenge.map(|c| {
                            let at = loc(file, c.span());
                            let c = c.into_inner();
                            Challenge {
                                title: c.title,
                                text: c.text,
                                plus: located(file, c.plus),
                                minus: located(file, c.minus),
                                damage: c.damage,
                                plus_text: c.plus_text,
                                default_text: c.default_text,
                                minus_text: c.minus_text,
                                editorial: c.editorial,
                                loc: at,
                            }
                        }),
                        gate: s.gate.map(feature),
                        exit: s.exit.map(feature),
                    }
                })
                .collect(),
            starts: t
                .start
                .into_iter()
                .map(|s| {
                    let s = s.into_inner();
                    Start {
                        who: s.who,
                        side: s.side,
                        space: located(file, s.space),
                    }
                })
                .collect(),
        });
    }
}
