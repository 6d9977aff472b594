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

mod library;
mod markdown;
mod toml_file;
mod walk;

use library::add_doc;
use markdown::chapters;
pub use toml_file::forbidden_control;
use toml_file::{first_line, text_controls, toml_file};
pub(crate) use walk::collect_embedded;

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
                walk::folder(dir, &mut out)?;
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

fn loc(file: usize, span: std::ops::Range<usize>) -> Loc {
    Loc { file, span }
}

fn located<T>(file: usize, s: Spanned<T>) -> Located<T> {
    let span = s.span();
    Located::new(s.into_inner(), file, span)
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

fn with_path(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}
