//! The driver: one kind, checked content and a request in; the kind's files under `<out>/<folder>/` out.
//! Documents are made and rendered item by item on a pool of plain threads (never nested inside typst's own
//! rayon use) and written as they finish, so memory stays flat whatever the batch size. Files a killed
//! run already wrote are verified and skipped. Then the kind's combined files are made from the written
//! items (PDFs merged, never typeset again) and the manifest is written.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use super::manifest::{Identity, Ledger};
use super::{Engine, Format};
use crate::error::{Error, Result};
use crate::generators::{Checked, Combined, Document, Item, Kind, Request};

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
}

/// The number of worker threads: `RAYON_NUM_THREADS` when set (as before), else the machine's cores.
pub fn default_jobs() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The identity of a run: what makes it the same batch.
pub fn identity(kind: &dyn Kind, cx: &Checked, req: &Request) -> Identity {
    let batch = if kind.rolls() {
        serde_json::json!({ "seed": req.seed, "year": req.year, "paper": req.paper })
    } else {
        serde_json::json!({ "paper": req.paper })
    };
    Identity {
        kind: kind.name().to_owned(),
        batch,
        content_version: cx.lib.version.clone(),
        blockprint: env!("CARGO_PKG_VERSION").to_owned(),
    }
}

/// Make every document of `kind` for `req` and write it under `opts.out/<folder>/`.
pub fn run(
    kind: &dyn Kind,
    cx: &Checked,
    req: &Request,
    engine: &Engine,
    opts: &Options,
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
    let ledger = Ledger::open(
        &dir,
        identity(kind, cx, req),
        opts.command.clone(),
        opts.force,
    )?;
    let n = kind.count(cx, req)?;
    let progress = progress_bar(n, opts.quiet);

    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<(Item, usize, usize)>>();
    let jobs = opts.jobs.clamp(1, n.max(1));
    let mut items: Vec<Item> = Vec::with_capacity(n);
    let mut first_error: Option<Error> = None;
    let (mut written, mut kept) = (0usize, 0usize);
    std::thread::scope(|s| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, failed, ledger, formats) = (&next, &failed, &ledger, &formats);
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let r = one(kind, cx, req, engine, ledger, formats, i);
                    if r.is_err() {
                        failed.store(true, Ordering::Relaxed);
                    }
                    if tx.send(r).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for r in rx {
            match r {
                Ok((item, w, k)) => {
                    written += w;
                    kept += k;
                    items.push(item);
                    if let Some(p) = &progress {
                        p.inc(1);
                    }
                }
                Err(e) => {
                    if first_error.is_none() {
                        first_error = Some(e);
                    }
                }
            }
        }
    });
    if let Some(p) = &progress {
        p.finish_and_clear();
    }
    if let Some(e) = first_error {
        // What was written stays journalled: rerunning the command resumes from there.
        return Err(e);
    }
    let rendered = started.elapsed();
    items.sort_by_key(|i| i.index);

    let collect_started = Instant::now();
    let combined = kind.collect(cx, req, &items)?;
    std::thread::scope(|s| -> Result<()> {
        let handles: Vec<_> = combined
            .iter()
            .map(|c| s.spawn(|| make_combined(c, engine, &ledger, &formats)))
            .collect();
        for h in handles {
            h.join()
                .map_err(|_| Error::Bug("a combining thread panicked".into()))??;
        }
        Ok(())
    })?;
    let collected = collect_started.elapsed();
    let files = ledger.files().len();
    ledger.finish()?;
    if std::env::var_os("BLOCKPRINT_TIMINGS").is_some() {
        eprintln!(
            "timings: {} items {:.3} s, collect {:.3} s",
            kind.name(),
            rendered.as_secs_f64(),
            collected.as_secs_f64()
        );
    }
    if !opts.quiet {
        eprintln!(
            "wrote {}: {} document{}, {} files ({} already up to date) to {}",
            kind.name(),
            n,
            if n == 1 { "" } else { "s" },
            files,
            kept,
            dir.display()
        );
    }
    Ok(Report {
        items: n,
        written,
        kept,
        folder: dir,
    })
}

/// Make, render and write item `i`; files already current are kept. Returns the item and how many files
/// were written and kept.
fn one(
    kind: &dyn Kind,
    cx: &Checked,
    req: &Request,
    engine: &Engine,
    ledger: &Ledger,
    formats: &[Format],
    i: usize,
) -> Result<(Item, usize, usize)> {
    let doc = kind.document(cx, req, i)?;
    let mut files = Vec::new();
    let (mut written, mut kept) = (0, 0);
    for &f in formats {
        let names = file_names(kind, &doc, f);
        if !names.is_empty() && names.iter().all(|n| ledger.is_current(n)) {
            for n in &names {
                ledger.keep(n);
            }
            kept += names.len();
            files.extend(names);
            continue;
        }
        for (rel, bytes) in render(kind, cx, engine, &doc, f)? {
            ledger.write(&rel, &bytes)?;
            written += 1;
            files.push(rel);
        }
    }
    Ok((
        Item {
            index: i,
            files,
            summary: doc.summary,
        },
        written,
        kept,
    ))
}

/// The files a document makes in one format, without rendering it (for resuming). Markdown of kinds
/// that write several files per document is always rendered (it is cheap).
fn file_names(kind: &dyn Kind, doc: &Document, f: Format) -> Vec<String> {
    let _ = kind;
    match f {
        Format::Pdf if doc.parts.is_empty() => vec![format!("{}.pdf", doc.stem)],
        Format::Pdf => doc
            .parts
            .iter()
            .map(|p| format!("{}-{}.pdf", doc.stem, p.name))
            .collect(),
        Format::Json => vec![format!("{}.json", doc.stem)],
        Format::Md => Vec::new(),
    }
}

/// Render one document to one format: (relative path, bytes).
pub fn render(
    kind: &dyn Kind,
    cx: &Checked,
    engine: &Engine,
    doc: &Document,
    f: Format,
) -> Result<Vec<(String, Vec<u8>)>> {
    match f {
        Format::Pdf => Ok(engine
            .pdf(
                &format!("{}.typ", doc.template),
                &doc.data,
                &format!("blockprint/{}", kind.name()),
                &doc.title,
                &doc.parts,
            )?
            .into_iter()
            .map(|(suffix, bytes)| (format!("{}{suffix}.pdf", doc.stem), bytes))
            .collect()),
        Format::Md => kind.markdown(cx, engine, doc),
        Format::Json => {
            let text = match &doc.json {
                Some(text) => text.clone(),
                None => {
                    serde_json::to_string_pretty(&doc.data)
                        .map_err(|e| Error::Bug(e.to_string()))?
                        + "\n"
                }
            };
            Ok(vec![(format!("{}.json", doc.stem), text.into_bytes())])
        }
    }
}

fn make_combined(c: &Combined, engine: &Engine, ledger: &Ledger, formats: &[Format]) -> Result<()> {
    match c {
        Combined::Merge {
            rel,
            title,
            inputs,
            pad_to_even,
        } => {
            if !formats.contains(&Format::Pdf) || inputs.is_empty() {
                return Ok(());
            }
            let dir = ledger.dir();
            let inputs: Vec<super::merge::Input> = inputs
                .iter()
                .map(|(p, b)| super::merge::Input {
                    path: dir.join(p),
                    bookmark: b.clone(),
                })
                .collect();
            let opts = super::merge::Options {
                title: title.clone(),
                pad_to_even: *pad_to_even,
            };
            let sha = write_streamed(&dir.join(rel), |w| {
                super::merge::merge(&inputs, &opts, w)
                    .map(drop)
                    .map_err(|e| Error::Bug(format!("cannot merge into {rel}: {e}")))
            })?;
            ledger.record(rel, sha)
        }
        Combined::Markdown {
            rel,
            template,
            data,
        } => {
            let text = engine.markdown(template, data)?;
            ledger.write(rel, text.as_bytes()).map(drop)
        }
    }
}

/// Stream into a temporary file beside `path`, then rename it into place; returns the sha256.
fn write_streamed(
    path: &Path,
    fill: impl FnOnce(&mut dyn std::io::Write) -> Result<()>,
) -> Result<String> {
    use sha2::Digest;
    use std::io::Write;
    struct Hashing<W> {
        inner: W,
        hash: sha2::Sha256,
    }
    impl<W: Write> Write for Hashing<W> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let n = self.inner.write(buf)?;
            self.hash.update(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            self.inner.flush()
        }
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let file = std::fs::File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
        let mut w = Hashing {
            inner: std::io::BufWriter::with_capacity(1 << 20, file),
            hash: sha2::Sha256::new(),
        };
        fill(&mut w)?;
        w.flush().map_err(|e| Error::io(&tmp, e))?;
        let Hashing { inner, hash } = w;
        let file = inner
            .into_inner()
            .map_err(|e| Error::io(&tmp, e.into_error()))?;
        file.sync_all().map_err(|e| Error::io(&tmp, e))?;
        std::fs::rename(&tmp, path).map_err(|e| Error::io(path, e))?;
        Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn progress_bar(n: usize, quiet: bool) -> Option<indicatif::ProgressBar> {
    if quiet || n < 2 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(n as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{prefix} [{bar:30}] {pos}/{len} {per_sec} eta {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    Some(bar)
}
