//! The driver: one kind, checked content and a request in; the kind's files under `<out>/<folder>/` out.
//! Documents are made and rendered item by item on a pool of `--jobs` threads, one worker loop per thread
//! (typst's own parallel layout shares those threads, and a thread never takes up a second item while it
//! waits inside a compile), and written as they finish, so memory stays flat whatever the batch size.
//! Files a killed run already wrote are verified and skipped. Then the kind's combined files are made from
//! the written items (PDFs merged, never typeset again) and the manifest is written. The whole run holds
//! the kind folder's lock ([`super::output::lock_folder`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use sha2::Digest;

use super::manifest::{Identity, Ledger};
use super::{Engine, Format};
use crate::error::RenderError;
use blockprint_content::error::{Bug, Error, Result};
use blockprint_kind::sink::{Event, Sink};
use blockprint_kind::{Checked, Collect, Document, Kind, Merge, Request};

/// How to run.
#[derive(Debug, Clone)]
pub struct Options {
    pub out: PathBuf,
    pub formats: Vec<Format>,
    /// Worker threads (at least 1).
    pub jobs: usize,
    pub quiet: bool,
    pub force: bool,
    /// The command line, for the manifest.
    pub command: String,
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub items: usize,
    pub written: usize,
    pub kept: usize,
    pub folder: PathBuf,
    /// Every file of the batch in the folder (the combined files too), as the manifest lists them.
    pub files: usize,
    /// The documents' PDFs in print order (each document's, or each of its parts', in item order; no
    /// fillable copy, no merged file), each with the title it is known by: what one print file of the
    /// run merges. Empty when the run had nothing to do (its files were all up to date).
    pub print: Vec<(PathBuf, String)>,
}

impl Report {
    /// The line a run that is not quiet sends its sink when it is done ([`Event::Wrote`], without a
    /// newline), for a kind named `kind`: the command line prints it on stderr; the studio shows it.
    pub fn wrote(&self, kind: &str) -> String {
        format!(
            "wrote {kind}: {} document{}, {} files ({} already up to date) to {}",
            self.items,
            if self.items == 1 { "" } else { "s" },
            self.files,
            self.kept,
            self.folder.display()
        )
    }
}

/// The number of worker threads: `RAYON_NUM_THREADS` when set (as before), else the machine's cores.
pub fn default_jobs() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Size rayon's global pool to `jobs` threads. A run's items are typeset on a pool of its own (see
/// [`run`]); the global pool serves the rest (reading PDFs to merge them), so that `--jobs N` caps every
/// part of a command at N threads. Only the first call in a process counts; later ones (and a pool already
/// started) are left as they are.
pub fn share_cores(jobs: usize) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // An error only means the pool already exists; it then keeps its size.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.max(1))
            .build_global();
    });
}

/// What a worker sends the collecting loop: an item's result, or that it has stopped.
enum Msg {
    Item(Result<Done>),
    Exit,
}

/// Sends [`Msg::Exit`] when dropped: at the end of a worker's loop, or while it unwinds from a panic.
struct Exit(mpsc::Sender<Msg>);

impl Drop for Exit {
    fn drop(&mut self) {
        let _ = self.0.send(Msg::Exit);
    }
}

/// The identity of a run: what makes it the same batch, and what makes earlier output stale (content,
/// templates, a user's fonts, blockprint).
pub fn identity(kind: &dyn Kind, cx: &Checked, req: &Request, engine: &Engine) -> Identity {
    let mut batch = if kind.rolls() {
        let mut m = kind.batch(req);
        m.insert("seed".into(), req.seed.into());
        m.insert(
            "paper".into(),
            serde_json::to_value(req.paper).unwrap_or_default(),
        );
        serde_json::Value::Object(m)
    } else {
        serde_json::json!({ "paper": req.paper })
    };
    if let (Some(options), Some(map)) = (kind.options(), batch.as_object_mut()) {
        map.insert("options".into(), options);
    }
    Identity {
        kind: kind.name().to_owned(),
        batch,
        content_version: cx.lib.version.clone(),
        templates: engine.templates().version(),
        fonts: engine
            .fonts()
            .extra()
            .iter()
            .map(|f| super::manifest::FontPrint {
                file: f.name.clone(),
                sha256: f.sha256.clone(),
            })
            .collect(),
        blockprint: env!("CARGO_PKG_VERSION").to_owned(),
    }
}

/// Make every document of `kind` for `req` and write it under `opts.out/<folder>/`; what the run has to
/// say (its warnings, the "wrote …" line unless quiet, page faults when the sink asks for them) goes to
/// `sink`.
pub fn run(
    kind: &dyn Kind,
    cx: &Checked,
    req: &Request,
    engine: &Engine,
    opts: &Options,
    sink: &dyn Sink,
) -> Result<Report> {
    let started = Instant::now();
    let formats: Vec<Format> = {
        let mut f: Vec<Format> = opts
            .formats
            .iter()
            .copied()
            .filter(|f| kind.formats().contains(f))
            .collect();
        f.sort();
        f.dedup();
        f
    };
    let dir = opts.out.join(kind.folder());
    // The kind's folder is the unit a run owns (its manifest, journal and temporaries), so its lock is
    // held from before the ledger reads the folder until the manifest is written: a second run into the
    // same folder waits for this one and then sees its manifest; runs of other kinds into the same
    // `--out` do not wait for each other.
    //
    // A run that fails leaves nothing new behind: the folders it made for itself (the kind's folder and
    // any missing parents, `--out` included, each while it is empty) are removed again, while the lock
    // is still held. In a folder that was there before, what was written stays journalled and a rerun
    // resumes from there.
    let made = first_missing(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let lock = super::output::lock_folder(&dir, sink)
        .map_err(|e| Error::io(dir.join(super::output::LOCK_FILE), e));
    let lock = match lock {
        Ok(l) => l,
        Err(e) => {
            unmake(&dir, made.as_deref());
            return Err(e);
        }
    };
    let result = run_locked(kind, cx, req, engine, opts, started, &formats, &dir, sink);
    if result.is_err() {
        unmake(&dir, made.as_deref());
    }
    drop(lock);
    result
}

/// Undo the folders a failed run made: the kind's folder `dir` with what the run wrote into it when the
/// run made it (`made` is then `dir` or one of its parents), and each parent up to `made` while it is
/// empty (another kind's run may be writing beside it: `build`, or a second command into the same
/// `--out`).
fn unmake(dir: &Path, made: Option<&Path>) {
    let Some(top) = made else { return };
    let _ = std::fs::remove_dir_all(dir);
    let mut at = dir.parent();
    while let Some(d) = at {
        if !d.starts_with(top) || std::fs::remove_dir(d).is_err() {
            break;
        }
        at = d.parent();
    }
}

/// The outermost of `dir` and its parents that does not exist yet (the first folder `create_dir_all`
/// would make), or `None` when `dir` exists.
fn first_missing(dir: &Path) -> Option<PathBuf> {
    let mut top = None;
    let mut at = Some(dir);
    while let Some(d) = at {
        if d.as_os_str().is_empty() || d.exists() {
            break;
        }
        top = Some(d.to_path_buf());
        at = d.parent();
    }
    top
}

/// [`run`] once the kind's folder exists and is locked.
#[allow(clippy::too_many_arguments)]
fn run_locked(
    kind: &dyn Kind,
    cx: &Checked,
    req: &Request,
    engine: &Engine,
    opts: &Options,
    started: Instant,
    formats: &[Format],
    dir: &Path,
    sink: &dyn Sink,
) -> Result<Report> {
    let formats = formats.to_vec();
    let dir = dir.to_path_buf();
    let identity = identity(kind, cx, req, engine);
    let n = kind.count(cx, req)?;
    let record = super::manifest::Made {
        request: serde_json::to_value(req).map_err(|e| Bug::json("the request", e))?,
        formats: formats.clone(),
        documents: n,
        state: kind.state(),
    };
    // Nothing to do: the folder's manifest is of this very batch, versions, formats, number of documents
    // and state, and every file it lists is as made. Decided before any document is made (no rolling,
    // simulating or typesetting); the page checker, which reads every page typeset, always goes the
    // ordinary way.
    if !sink.checks_pages()
        && let Some(files) = super::manifest::up_to_date(&dir, &identity, &record)
    {
        // What a killed run was writing when it died goes, as on the ordinary way.
        super::output::remove_stale_temporaries(&dir);
        for w in kind.warnings(cx, req)? {
            sink.event(Event::Warning(w));
        }
        let report = Report {
            items: n,
            written: 0,
            kept: files,
            folder: dir,
            files,
            print: Vec::new(),
        };
        if !opts.quiet {
            sink.event(Event::Progress {
                kind: kind.name().to_owned(),
                done: n,
                total: n,
            });
        }
        timings(
            kind,
            engine,
            started,
            std::time::Duration::ZERO,
            opts.jobs,
            sink,
        );
        if !opts.quiet {
            sink.event(Event::Wrote(report.wrote(kind.name())));
        }
        return Ok(report);
    }
    let ledger = Ledger::open(
        &dir,
        identity,
        opts.command.clone(),
        opts.force,
        !kind.rolls(),
    )?;
    for w in kind.warnings(cx, req)? {
        sink.event(Event::Warning(w));
    }
    // Progress for the sink: after each document, and `done == total` when the run stops, finished or
    // not, so a front can take its bar down.
    let progress = |done: usize| {
        if !opts.quiet {
            sink.event(Event::Progress {
                kind: kind.name().to_owned(),
                done,
                total: n,
            });
        }
    };
    progress(0);
    let mut made = 0usize;

    let collect = kind.collect();
    // Index rows go to a spool file in item order as items finish; merge inputs are kept as paths.
    // Named as a temporary, so a rerun after a kill clears it with the others.
    let spool_path = super::output::temporary(&dir.join("index.rows"));
    let mut spool = match &collect.index {
        Some(_) => Some(std::io::BufWriter::new(
            std::fs::File::create(&spool_path).map_err(|e| Error::io(&spool_path, e))?,
        )),
        None => None,
    };
    let mut merge_inputs: Vec<Vec<super::merge::Input>> =
        collect.merges.iter().map(|_| Vec::new()).collect();
    // What each merge is made from (each part's path, sha256 and bookmark, in order), hashed as the
    // parts come in: a rerun whose parts are all as before keeps the merged file.
    let mut merge_prints: Vec<sha2::Sha256> = collect
        .merges
        .iter()
        .map(|m| {
            let mut h = sha2::Sha256::new();
            h.update(format!("{}\n{}\n", merged_title(m, req), m.pad_to_even).as_bytes());
            h
        })
        .collect();
    let mut print: Vec<(PathBuf, String)> = Vec::new();
    let mut pending: BTreeMap<usize, Done> = BTreeMap::new();
    let mut next_in_order = 0usize;

    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Msg>();
    // Every thread of the pool runs a worker loop; one that finds no item left stays in the pool and helps
    // with typst's parallel layout (so a single document, the SRD, still lays out on every core).
    let jobs = opts.jobs.max(1);
    let mut first_error: Option<Error> = None;
    let (mut written, mut kept) = (0usize, 0usize);
    // One pool of `jobs` threads for this run, each running one worker loop (a broadcast job, so no thread
    // ever takes up a second loop). typst's own parallel layout runs on the same threads: a thread waiting
    // inside one compile may help with another compile's page runs, never with another item, so nothing
    // nests beyond typst's own depth, and no thread hands work to another pool and waits.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .thread_name(|i| format!("blockprint-{i}"))
        .build()
        .map_err(|e| Bug::system(format!("start {jobs} worker threads"), e))?;
    pool.in_place_scope(|s| {
        let (next, failed, ledger, formats, collect) =
            (&next, &failed, &ledger, &formats, &collect);
        let tx = &tx;
        s.spawn_broadcast(move |_, _| {
            let tx = tx.clone();
            // Says this worker is done even if it panics, so the loop below never waits for it.
            let _exit = Exit(tx.clone());
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n || failed.load(Ordering::Relaxed) {
                    break;
                }
                let r = one(kind, cx, req, engine, ledger, formats, collect, i, sink);
                if r.is_err() {
                    failed.store(true, Ordering::Relaxed);
                }
                if tx.send(Msg::Item(r)).is_err() {
                    break;
                }
            }
        });
        let mut exited = 0;
        while exited < jobs {
            let r = match rx.recv() {
                Ok(Msg::Item(r)) => r,
                Ok(Msg::Exit) => {
                    exited += 1;
                    continue;
                }
                Err(_) => break,
            };
            let done = match r {
                Ok(done) => done,
                Err(e) => {
                    first_error.get_or_insert(e);
                    continue;
                }
            };
            written += done.written;
            kept += done.kept;
            made += 1;
            progress(made);
            pending.insert(done.index, done);
            // Flush what is now in order: the spool and the merge lists stay in item order.
            while let Some(d) = pending.remove(&next_in_order) {
                if let (Some(w), Some(row)) = (spool.as_mut(), &d.row)
                    && let Err(e) = std::io::Write::write_all(w, row.as_bytes())
                {
                    first_error.get_or_insert(Error::io(&spool_path, e));
                }
                for (k, part) in d.merge_parts.into_iter().enumerate() {
                    if let Some((rel, sha)) = part {
                        merge_prints[k].update(format!("{rel} {sha} {}\n", d.bookmark).as_bytes());
                        merge_inputs[k].push(super::merge::Input {
                            path: dir.join(rel),
                            bookmark: d.bookmark.clone(),
                        });
                    }
                }
                print.extend(d.print.into_iter().map(|(rel, t)| (dir.join(rel), t)));
                next_in_order += 1;
            }
        }
    });
    if made < n {
        progress(n);
    }
    if let Some(e) = first_error {
        let _ = std::fs::remove_file(&spool_path);
        // What was written stays journalled: rerunning the command resumes from there.
        return Err(e);
    }

    let collect_started = Instant::now();
    let mut merged = Vec::new();
    let prints: Vec<String> = merge_prints
        .into_iter()
        .map(|h| hex(&h.finalize()))
        .collect();
    std::thread::scope(|s| -> Result<()> {
        let handles: Vec<_> = collect
            .merges
            .iter()
            .zip(&merge_inputs)
            .zip(&prints)
            .filter(|((_, inputs), _)| !inputs.is_empty())
            .filter_map(|((m, inputs), print)| {
                merged.push(serde_json::json!({ "rel": m.rel, "about": m.about }));
                if sink.checks_pages() {
                    let found = super::pages::reader::metadata(
                        m.audience,
                        &merged_title(m, req),
                        None,
                        &[],
                    );
                    let at = (format!("{}: {}", kind.name(), m.rel), 1);
                    super::pages::report(sink, found, |_| at.clone());
                }
                // Made from exactly these parts before and still on disk as made: kept, not merged again.
                if ledger.is_current_from(&m.rel, print) {
                    ledger.keep(&m.rel);
                    let sha = ledger.known_sha(&m.rel).unwrap_or_default().to_owned();
                    ledger.made_from(&m.rel, print.clone(), sha);
                    kept += 1;
                    return None;
                }
                let ledger = &ledger;
                Some(s.spawn(move || merge_into(m, inputs, req, ledger, print, sink)))
            })
            .collect();
        for h in handles {
            h.join().map_err(|_| Bug::Panicked {
                what: "a merging thread",
            })??;
        }
        Ok(())
    })?;
    drop(merge_inputs);
    if let (Some(index), Some(w)) = (&collect.index, spool.take()) {
        let file = w
            .into_inner()
            .map_err(|e| Error::io(&spool_path, e.into_error()))?;
        drop(file);
        let mut head = kind.head(cx, req);
        head.insert("merged".into(), merged.into());
        let head = engine.markdown(&index.head, &head)?;
        let fill = |w: &mut dyn std::io::Write| {
            w.write_all(head.as_bytes())
                .and_then(|()| {
                    let mut rows = std::fs::File::open(&spool_path)?;
                    std::io::copy(&mut rows, w).map(drop)
                })
                .map_err(|e| Error::io(&spool_path, e))
        };
        // The index as this run would write it, hashed first: the same bytes already in place are kept.
        let mut hashing = HashWriter(sha2::Sha256::new());
        fill(&mut hashing)?;
        let sha = hex(&hashing.0.finalize());
        if ledger.is_current_as(&index.rel, &sha) {
            ledger.keep(&index.rel);
            kept += 1;
        } else {
            let sha = super::output::stream_into(&dir.join(&index.rel), fill)?;
            ledger.record(&index.rel, sha)?;
        }
        let _ = std::fs::remove_file(&spool_path);
    }
    let collected = collect_started.elapsed();
    let files = ledger.file_count();
    ledger.made_all(record);
    ledger.finish()?;
    timings(kind, engine, started, collected, jobs, sink);
    let report = Report {
        items: n,
        written,
        kept,
        folder: dir,
        files,
        print,
    };
    if !opts.quiet {
        sink.event(Event::Wrote(report.wrote(kind.name())));
    }
    Ok(report)
}

/// With `BLOCKPRINT_TIMINGS` set, where a run's time went: making and writing the items (since
/// `started`, less the `collected` part), making the combined files, and typst's share, summed over
/// threads; and the user's cache folder's hits and misses so far in this process.
fn timings(
    kind: &dyn Kind,
    engine: &Engine,
    started: Instant,
    collected: std::time::Duration,
    jobs: usize,
    sink: &dyn Sink,
) {
    if std::env::var_os("BLOCKPRINT_TIMINGS").is_none() {
        return;
    }
    let secs = |c: &std::sync::atomic::AtomicU64| c.load(Ordering::Relaxed) as f64 / 1e6;
    sink.event(Event::Note(format!(
        "timings: {} items {:.3} s, collect {:.3} s (typst, summed over threads: compile {:.3} s, export {:.3} s; {} threads; cache {} read, {} made)",
        kind.name(),
        started.elapsed().saturating_sub(collected).as_secs_f64(),
        collected.as_secs_f64(),
        secs(&engine.compile_us),
        secs(&engine.export_us),
        jobs,
        super::cache::HITS.load(Ordering::Relaxed),
        super::cache::MISSES.load(Ordering::Relaxed),
    )));
}

/// What a worker hands back for one item: counts, its index row, and its PDF parts for each merge (path
/// and sha256).
struct Done {
    index: usize,
    written: usize,
    kept: usize,
    row: Option<String>,
    bookmark: String,
    merge_parts: Vec<Option<(String, String)>>,
    /// The document's PDFs and their titles, in order ([`Report::print`]).
    print: Vec<(String, String)>,
}

/// A sink that only hashes what is written to it.
struct HashWriter(sha2::Sha256);

impl std::io::Write for HashWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Make, render and write item `i`; files already current are kept.
#[allow(clippy::too_many_arguments)]
fn one(
    kind: &dyn Kind,
    cx: &Checked,
    req: &Request,
    engine: &Engine,
    ledger: &Ledger,
    formats: &[Format],
    collect: &Collect,
    i: usize,
    sink: &dyn Sink,
) -> Result<Done> {
    let doc = kind.document(cx, req, i)?;
    let mut files = Vec::new();
    let (mut written, mut kept) = (0, 0);
    for &f in formats {
        let mut names = file_names(&doc, f);
        // The fillable copy of a document whose template marks form fields ([`super::form`]).
        let fillable = format!("{}-fillable.pdf", doc.stem);
        if f == Format::Pdf && doc.parts.is_empty() && ledger.knows(&fillable) {
            names.push(fillable);
        }
        if !names.is_empty() && names.iter().all(|n| ledger.is_current(n)) {
            for n in &names {
                ledger.keep(n);
            }
            kept += names.len();
            files.extend(names.into_iter().map(|n| {
                let sha = ledger.known_sha(&n).unwrap_or_default().to_owned();
                (f, n, sha)
            }));
            continue;
        }
        // Files whose names are not known before rendering (Markdown) are rendered and compared: the
        // same bytes as before are kept, not rewritten.
        for (rel, bytes) in render(kind, cx, engine, &doc, f, sink)? {
            let (wrote, sha) = ledger.write(&rel, &bytes)?;
            if wrote {
                written += 1;
            } else {
                kept += 1;
            }
            files.push((f, rel, sha));
        }
    }
    // The pictures the document's JSON refers to, written with it; kept when all are current.
    if formats.contains(&Format::Json)
        && let Some(p) = kind.pictures(cx, req, &doc)?
    {
        if p.names.iter().all(|n| ledger.is_current(n)) {
            for n in &p.names {
                ledger.keep(n);
            }
            kept += p.names.len();
        } else {
            for (rel, bytes) in pictures(engine, &doc, &p, sink)? {
                if ledger.write(&rel, &bytes)?.0 {
                    written += 1;
                } else {
                    kept += 1;
                }
            }
        }
    }
    let part_file = |part: &str| {
        files
            .iter()
            .find(|(f, rel, _)| *f == Format::Pdf && rel.ends_with(&format!("-{part}.pdf")))
            .map(|(_, rel, sha)| (rel.clone(), sha.clone()))
    };
    let merge_parts = collect.merges.iter().map(|m| part_file(&m.part)).collect();
    let print = if formats.contains(&Format::Pdf) {
        let whole = if doc.bookmark.is_empty() {
            doc.title.clone()
        } else {
            doc.bookmark.clone()
        };
        file_names(&doc, Format::Pdf)
            .into_iter()
            .zip(
                doc.parts
                    .iter()
                    .map(|p| p.title.clone())
                    .chain(std::iter::repeat(whole)),
            )
            .collect()
    } else {
        Vec::new()
    };
    let row = match &collect.index {
        Some(index) => {
            let mut data = match doc.summary.clone() {
                serde_json::Value::Object(m) => m,
                _ => serde_json::Map::new(),
            };
            let listed: Vec<serde_json::Value> = files
                .iter()
                .filter(|(f, rel, _)| {
                    *f != Format::Md || rel.ends_with(&format!("{}.md", doc.stem))
                })
                .map(|(f, rel, _)| {
                    let part = doc
                        .parts
                        .iter()
                        .find(|p| rel.ends_with(&format!("-{}.pdf", p.name)))
                        .map(|p| p.name.clone());
                    serde_json::json!({ "format": f, "part": part, "path": rel })
                })
                .collect();
            data.insert("files".into(), listed.into());
            Some(engine.markdown(&index.row, &data)?)
        }
        None => None,
    };
    Ok(Done {
        index: i,
        written,
        kept,
        row,
        bookmark: doc.bookmark,
        merge_parts,
        print,
    })
}

/// The files a document makes in one format, without rendering it (for resuming). Markdown of kinds
/// that write several files per document, and a kind's own CSV and text files, are always rendered (they
/// are cheap).
fn file_names(doc: &Document, f: Format) -> Vec<String> {
    match f {
        Format::Pdf => doc.pdf_names(),
        Format::Json => vec![format!("{}.json", doc.stem)],
        Format::Md | Format::Csv | Format::Txt => Vec::new(),
    }
}

/// Render one document to one format: (relative path, bytes). The typesetter's warnings go to `sink`.
pub fn render(
    kind: &dyn Kind,
    cx: &Checked,
    engine: &Engine,
    doc: &Document,
    f: Format,
    sink: &dyn Sink,
) -> Result<Vec<(String, Vec<u8>)>> {
    match f {
        Format::Pdf => engine
            .pdf_file(
                &format!("{}.typ", doc.template),
                &kind.pdf_data(doc),
                &format!("blockprint/{}", kind.name()),
                &doc.title,
                &doc.parts,
                doc.audience,
                &doc.stem,
                sink,
            )?
            .into_iter()
            .map(|(suffix, bytes)| {
                Ok((
                    format!("{}{suffix}.pdf", doc.stem),
                    kind.finish_pdf(doc, bytes)?,
                ))
            })
            .collect(),
        Format::Md => kind.markdown(cx, engine, doc),
        Format::Csv | Format::Txt => kind.files(cx, doc, f),
        Format::Json => {
            let text = match &doc.json {
                Some(text) => text.clone(),
                None => {
                    serde_json::to_string_pretty(&doc.data)
                        .map_err(|e| Bug::json(&format!("the data of {}", doc.stem), e))?
                        + "\n"
                }
            };
            Ok(vec![(format!("{}.json", doc.stem), text.into_bytes())])
        }
    }
}

/// Typeset [`blockprint_kind::Pictures`] and render each page to PNG: (relative path, bytes). Characters
/// no font has are warned of as a PDF's are, naming the pictures of `doc`, from the data (pictures found
/// in the cache are not typeset).
fn pictures(
    engine: &Engine,
    doc: &Document,
    p: &blockprint_kind::Pictures,
    sink: &dyn Sink,
) -> Result<Vec<(String, Vec<u8>)>> {
    let template = format!("{}.typ", p.template);
    engine.warn_missing_glyphs(
        &format!("the card pictures of {}", doc.title),
        &template,
        &p.data,
        None,
        sink,
    );
    let pngs = engine.page_pngs(&template, &p.data, p.dpi, &p.keys)?;
    if pngs.len() != p.names.len() {
        return Err(RenderError::PageCount {
            template: p.template.clone(),
            pages: pngs.len(),
            pictures: p.names.len(),
        }
        .into());
    }
    Ok(p.names.iter().cloned().zip(pngs.iter().cloned()).collect())
}

/// A merged file's PDF title: the GM's names the batch it was rolled from; a player's or a reader's shows
/// nothing of the program (a seed in a handout's title bar regenerates the GM's secrets).
fn merged_title(m: &Merge, req: &Request) -> String {
    match m.audience {
        blockprint_kind::Audience::Gm => format!("{} (batch {})", m.title, req.seed),
        _ => m.title.clone(),
    }
}

/// Merge the written PDF parts into one print file.
fn merge_into(
    m: &Merge,
    inputs: &[super::merge::Input],
    req: &Request,
    ledger: &Ledger,
    print: &str,
    sink: &dyn Sink,
) -> Result<()> {
    let opts = super::merge::Options {
        title: merged_title(m, req),
        pad_to_even: m.pad_to_even,
        creator: super::engine::creator(m.audience).map(str::to_owned),
    };
    let sha = super::output::stream_into(&ledger.dir().join(&m.rel), |w| {
        super::merge::merge(inputs, &opts, w)
            .map(drop)
            .map_err(|e| {
                Error::from(RenderError::Pdf {
                    made: m.rel.clone(),
                    message: e.to_string(),
                })
            })
    })?;
    ledger.made_from(&m.rel, print.to_owned(), sha.clone());
    // The merged file's maker, read by its audience's rules as the page checker reads every PDF's.
    if sink.checks_pages() {
        let path = ledger.dir().join(&m.rel);
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        let at = (m.rel.clone(), 1);
        super::pages::report(
            sink,
            super::pages::reader::maker_of(&bytes, m.audience),
            |_| at.clone(),
        );
    }
    ledger.record(&m.rel, sha)
}
