//! Typst on the data shapes the `data` target's stage makes: the built-in content's first document of
//! every kind that typesets, made once, with the input's text in place of its prose. The first byte
//! picks the document; the rest, split at NUL bytes (invalid UTF-8 and control characters made into
//! text first), replaces the document's prose strings in order (every string of its data holding a
//! space, as a result, a title, a note or a paragraph does; ids, paths and settings hold none and are
//! left alone); an empty piece leaves its string as it was, so a later string is reached past NULs.
//! The document is then typeset to PDF with its own template and finished by its kind, as `make`
//! does: that must not fail or panic, whatever the text. Text reaches typst as data (`sys.inputs`),
//! never as markup, so no input may break a template.
//!
//! So that an input costs milliseconds rather than a whole book's typesetting, each document is
//! shortened once at start-up: every list in its data is cut to its first element (then two, then
//! four, until the template typesets it), which keeps every shape (each kind of block, row, card and
//! part) and drops repetitions of it. `BLOCKPRINT_FUZZ_STATS=N` prints each document's size and time at
//! start-up and every N inputs the rate per CPU second and where the time went; `BLOCKPRINT_FUZZ_SEEDS=DIR` writes one seed per
//! document into DIR at start-up (its byte, then its prose strings joined by NUL): run it with `-runs=0`.
#![no_main]

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use blockprint::content::{forbidden_control, load_files};
use blockprint::generators::fuzzing::cpu_ms;
use blockprint::generators::{Checked, Document, Registry, Request};
use blockprint::render::{Engine, Format, Paper, Templates};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

struct Setup {
    registry: Registry,
    engine: Engine,
    /// (kind's place in the registry, its first document, the shortened data its template sees).
    docs: Vec<(usize, Document, Value)>,
    /// Print the figures every this many inputs (0: never).
    stats: u64,
}

static INPUTS: AtomicU64 = AtomicU64::new(0);
/// [`cpu_ms`] when the first input came (after the set-up).
static CPU_START: AtomicU64 = AtomicU64::new(0);
static TYPESET_US: AtomicU64 = AtomicU64::new(0);
/// By document: how many inputs typeset it, and the microseconds they took.
static DOC_US: std::sync::Mutex<std::collections::BTreeMap<String, (u64, u64)>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

fn walk(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<(String, Vec<u8>)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            walk(root, &p, out);
        } else if matches!(p.extension().and_then(|x| x.to_str()), Some("toml" | "md")) {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, std::fs::read(&p).unwrap()));
        }
    }
}

/// `v` with every list cut to its first `keep` elements.
fn shorten(v: &Value, keep: usize) -> Value {
    match v {
        Value::Array(items) => {
            Value::Array(items.iter().take(keep).map(|x| shorten(x, keep)).collect())
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, x)| (k.clone(), shorten(x, keep)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Whether a string of the data is prose the input may replace.
fn prose(s: &str) -> bool {
    s.contains(' ')
}

/// The prose strings of `v`, in the order [`replace`] visits them.
fn prose_strings<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::String(s) if prose(s) => out.push(s),
        Value::Array(items) => items.iter().for_each(|x| prose_strings(x, out)),
        Value::Object(map) => map.values().for_each(|x| prose_strings(x, out)),
        _ => {}
    }
}

/// Replace the prose strings of `v`, in order, with the texts of `texts` while they last (an empty
/// text leaves its string alone).
fn replace(v: &mut Value, texts: &mut std::slice::Iter<'_, String>) {
    match v {
        Value::String(s) if prose(s) => {
            if let Some(t) = texts.next()
                && !t.is_empty()
            {
                *s = t.clone();
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|x| replace(x, texts)),
        Value::Object(map) => map.values_mut().for_each(|x| replace(x, texts)),
        _ => {}
    }
}

/// Typeset `data` as `doc` of kind `k` and finish it as `make` does.
fn typeset(
    registry: &Registry,
    engine: &Engine,
    k: usize,
    doc: &Document,
    data: &Value,
) -> Result<usize, String> {
    let kind = registry.kinds().nth(k).unwrap();
    let files = engine
        .pdf_file(
            &format!("{}.typ", doc.template),
            data,
            &format!("blockprint/{}", kind.name()),
            &doc.title,
            &doc.parts,
            doc.audience,
            &doc.stem,
            &blockprint::app::Silent,
        )
        .map_err(|e| e.to_string())?;
    let mut bytes = 0;
    for (_, pdf) in files {
        bytes += kind.finish_pdf(doc, pdf).map_err(|e| e.to_string())?.len();
    }
    Ok(bytes)
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let stats: u64 = std::env::var("BLOCKPRINT_FUZZ_STATS")
            .map(|v| v.parse().unwrap_or(1000))
            .unwrap_or(0);
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
        let mut files = Vec::new();
        walk(&root, &root, &mut files);
        files.retain(|(rel, _)| rel != "README.md");
        let templates = Templates::builtin();
        let registry = Registry::new(&templates).unwrap();
        let engine = Engine::new(templates, Default::default()).unwrap();
        let (lib, diags) = load_files(files);
        let report = blockprint::check::run(&lib, diags);
        let cx = Checked::new(lib, report, "fuzz".into()).expect("the built-in content checks");
        let req = Request {
            seed: 7,
            paper: Paper::A4,
            first: 1,
            count: 1,
        };
        let mut docs = Vec::new();
        for (i, k) in registry.kinds().enumerate() {
            if !k.formats().contains(&Format::Pdf) || k.count(&cx, &req).unwrap() == 0 {
                continue;
            }
            let doc = k.document(&cx, &req, 0).unwrap();
            let full = k.pdf_data(&doc).into_owned();
            // The shortest cut its template typesets (the whole data if none does).
            let mut chosen = None;
            for keep in [1, 2, 4, 8, usize::MAX] {
                let data = if keep == usize::MAX { full.clone() } else { shorten(&full, keep) };
                let t = Instant::now();
                match typeset(&registry, &engine, i, &doc, &data) {
                    Ok(bytes) => {
                        if stats > 0 {
                            let mut s = Vec::new();
                            prose_strings(&data, &mut s);
                            eprintln!(
                                "typeset: {} ({}): lists cut to {keep}, {} prose strings, {bytes} bytes of PDF, {} ms",
                                k.name(),
                                doc.template,
                                s.len(),
                                t.elapsed().as_millis()
                            );
                        }
                        chosen = Some(data);
                        break;
                    }
                    Err(e) if keep == usize::MAX => {
                        panic!("{} ({}): the unmodified document fails: {e}", k.name(), doc.template)
                    }
                    Err(_) => {}
                }
            }
            docs.push((i, doc, chosen.unwrap()));
        }
        assert!(!docs.is_empty(), "no kind typesets: the target would test nothing");
        if let Some(dir) = std::env::var_os("BLOCKPRINT_FUZZ_SEEDS") {
            let dir = std::path::PathBuf::from(dir);
            std::fs::create_dir_all(&dir).unwrap();
            for (n, (k, doc, data)) in docs.iter().enumerate() {
                let mut s = Vec::new();
                prose_strings(data, &mut s);
                let mut seed = vec![n as u8];
                seed.extend(s.join("\0").into_bytes());
                let name = registry.kinds().nth(*k).unwrap().name().to_owned();
                std::fs::write(dir.join(format!("{n:02}-{name}-{}", doc.template.replace('/', "_"))), seed).unwrap();
            }
            eprintln!("typeset: {} seeds in {}", docs.len(), dir.display());
        }
        Setup {
            registry,
            engine,
            docs,
            stats,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let s = setup();
    let n = INPUTS.fetch_add(1, Ordering::Relaxed) + 1;
    if n == 1 {
        CPU_START.store(cpu_ms(), Ordering::Relaxed);
    }
    if s.stats > 0 && n % s.stats == 0 {
        let cpu = cpu_ms()
            .saturating_sub(CPU_START.load(Ordering::Relaxed))
            .max(1);
        let docs = DOC_US.lock().unwrap();
        let docs: Vec<String> = docs
            .iter()
            .map(|(d, (k, us))| format!("{d} {k} × {} ms", us / 1000 / (*k).max(1)))
            .collect();
        eprintln!(
            "typeset: {n} inputs in {cpu} ms of CPU: {} inputs a CPU second; {} ms typesetting ({})",
            (n - 1) * 1000 / cpu,
            TYPESET_US.load(Ordering::Relaxed) / 1000,
            docs.join(", ")
        );
    }
    let texts: Vec<String> = rest
        .split(|&b| b == 0)
        .map(|piece| {
            String::from_utf8_lossy(piece)
                .chars()
                .map(|c| if forbidden_control(c) { ' ' } else { c })
                .collect()
        })
        .collect();
    let (k, doc, data) = &s.docs[pick as usize % s.docs.len()];
    let mut data = data.clone();
    replace(&mut data, &mut texts.iter());
    let t = Instant::now();
    if let Err(e) = typeset(&s.registry, &s.engine, *k, doc, &data) {
        panic!(
            "{} ({}): {e}",
            s.registry.kinds().nth(*k).unwrap().name(),
            doc.template
        );
    }
    let us = t.elapsed().as_micros() as u64;
    TYPESET_US.fetch_add(us, Ordering::Relaxed);
    if s.stats > 0 {
        let name = s.registry.kinds().nth(*k).unwrap().name().to_owned();
        let mut docs = DOC_US.lock().unwrap();
        let e = docs.entry(name).or_default();
        e.0 += 1;
        e.1 += us;
    }
});
