//! Content to document data, without typst: generated content through `check` and then a kind's first
//! document as data, Markdown, JSON, CSV and text (everything but the PDF, which the `typeset` target
//! covers on the data shapes this stage makes).
//!
//! The built-in content is read once from the repository's `content/` folder. Each input replaces one
//! of its files: the first byte picks which (in path order, as `data_seeds.py` numbers its seeds), the
//! second picks the kind (among those the checked content offers, in registry order), the rest is the
//! file's new text (invalid UTF-8 and control characters made into text first). The content checked is
//! that file's game: the files under the same top folder (`bbb/`, `coc/` …), which is complete content
//! on its own (`check` accepts each game's folder alone), so an input costs the checking of one game,
//! not of five. And the check is incremental, with the same verdict: the loader keeps each file's parse
//! (`LoadCache`) and the checker the dice distributions and chapter parses (`check::Cache`) from one
//! input to the next, so of the game only the replaced file is parsed again, and only its dice and
//! chapters worked out again; every rule still runs over the whole game (`tests/reliability.rs`
//! compares incremental and whole checks over the seeds and the checker's fixtures). Content `check` accepts must then make the kind's first document and render it in
//! every format but PDF without an error (one kind an input: the SRD alone costs more than all the
//! others together). `BLOCKPRINT_FUZZ_STATS=N` prints every N inputs how many `check` accepted and
//! where the time went. With `BLOCKPRINT_FUZZ_PDF=N` one accepted input in N (the first, then every
//! Nth) is also typeset to PDF, end to end as `make` does (slow: a whole document's typesetting under
//! coverage instrumentation).
#![no_main]

use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use blockprint::content::{LoadCache, forbidden_control, load_files_cached};
use blockprint::generators::srd::SrdKind;
use blockprint::check::Requirements;
use blockprint::generators::{Checked, Kind, Registry, Request};
use blockprint::render::{Engine, Format, Paper, Templates, driver};
use libfuzzer_sys::fuzz_target;

struct Setup {
    files: Vec<(String, Vec<u8>)>,
    registry: Registry,
    /// Each registered kind's requirements (a kind's own, whatever the content), in registry order.
    requires: Vec<Requirements>,
    engine: Engine,
    caches: std::sync::Mutex<Caches>,
    /// Typeset one accepted input in this many to PDF (0: never).
    pdf_every: u64,
    /// Print the figures every this many inputs (0: never).
    stats: u64,
}

static INPUTS: AtomicU64 = AtomicU64::new(0);
/// [`cpu_ms`] when the first input came (after the set-up).
static CPU_START: AtomicU64 = AtomicU64::new(0);
static ACCEPTED: AtomicU64 = AtomicU64::new(0);
/// Microseconds spent checking, and making documents, over all inputs.
static CHECK_US: AtomicU64 = AtomicU64::new(0);
static MAKE_US: AtomicU64 = AtomicU64::new(0);
/// Microseconds each kind spent making and rendering its documents.
static KIND_US: std::sync::Mutex<std::collections::BTreeMap<String, u64>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// CPU time of the whole process so far, in milliseconds (user and system, from `/proc/self/stat`; 0
/// where there is none): the rate per CPU second holds on a shared machine, where wall time does not.
fn cpu_ms() -> u64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0;
    };
    // The fields after the command's closing parenthesis; utime and stime are the 14th and 15th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<u64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    (f.get(11).copied().unwrap_or(0) + f.get(12).copied().unwrap_or(0)) * 10
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
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

/// The top folder of a content path (`bbb/01-homicide.toml` → `bbb`).
fn game(rel: &str) -> &str {
    rel.split('/').next().unwrap_or(rel)
}

/// What loading and checking keep from one input for the next (see [`checked`]).
#[derive(Default)]
struct Caches {
    load: LoadCache,
    check: blockprint::check::Cache,
    /// The SRD's chapters and appendices as its Markdown editions last wrote them.
    srd: blockprint::render::srd::MarkdownCache,
}

/// Load and check `files` with what every registered kind requires; `None` when `check` refuses them.
/// The loader and the checker keep their work in `caches`: of the game's files, only the one the input
/// replaced is parsed again, and only its dice and chapters worked out again; the verdict is the same as
/// a whole check's (`tests/reliability.rs` compares the two over these seeds and the checker's fixtures).
fn checked(
    registry: &Registry,
    requires: &[Requirements],
    caches: &mut Caches,
    files: Vec<(String, Vec<u8>)>,
) -> Option<Checked> {
    let (lib, diags) = load_files_cached(files, &mut caches.load);
    let mut report = blockprint::check::run_cached(&lib, diags, &mut caches.check);
    for (k, req) in registry.kinds().zip(requires) {
        blockprint::check::requires::check_cached(
            &lib,
            k.name(),
            req,
            k.requires_always(),
            &mut caches.check,
            &mut report.diagnostics,
        );
    }
    Checked::new(lib, report, "fuzz".into())
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
        let mut files = Vec::new();
        walk(&root, &root, &mut files);
        // The README beside the content is no content file.
        files.retain(|(rel, _)| rel != "README.md");
        let templates = Templates::builtin();
        let registry = Registry::new(&templates).unwrap();
        let requires: Vec<Requirements> = registry.kinds().map(|k| k.requires()).collect();
        let engine = Engine::new(templates, Default::default()).unwrap();
        let mut caches = Caches::default();
        let mut games: Vec<&str> = files.iter().map(|(rel, _)| game(rel)).collect();
        games.dedup();
        for g in games {
            let own: Vec<_> = files
                .iter()
                .filter(|(rel, _)| game(rel) == g)
                .cloned()
                .collect();
            assert!(
                checked(&registry, &requires, &mut caches, own).is_some(),
                "check refuses the unmodified `{g}` content: the target would test nothing there"
            );
        }
        let pdf_every = match std::env::var("BLOCKPRINT_FUZZ_PDF") {
            Ok(v) => v
                .parse()
                .expect("BLOCKPRINT_FUZZ_PDF=N typesets one accepted input in N"),
            Err(_) => 0,
        };
        Setup {
            files,
            registry,
            requires,
            engine,
            caches: std::sync::Mutex::new(caches),
            pdf_every,
            stats: std::env::var("BLOCKPRINT_FUZZ_STATS")
                .map(|v| v.parse().unwrap_or(1000))
                .unwrap_or(0),
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let [pick, which, text @ ..] = data else {
        return;
    };
    let (pick, which) = (*pick, *which);
    let s = setup();
    let n = INPUTS.fetch_add(1, Ordering::Relaxed) + 1;
    if n == 1 {
        CPU_START.store(cpu_ms(), Ordering::Relaxed);
    }
    if s.stats > 0 && n % s.stats == 0 {
        let cpu = cpu_ms()
            .saturating_sub(CPU_START.load(Ordering::Relaxed))
            .max(1);
        eprintln!(
            "data: {n} inputs in {cpu} ms of CPU: {} inputs a CPU second",
            (n - 1) * 1000 / cpu
        );
        let a = ACCEPTED.load(Ordering::Relaxed);
        let kinds = KIND_US.lock().unwrap();
        let kinds: Vec<String> = kinds
            .iter()
            .map(|(k, us)| format!("{k} {}", us / 1000))
            .collect();
        eprintln!(
            "data: {n} inputs, {a} accepted by check; {} ms checking, {} ms making ({})",
            CHECK_US.load(Ordering::Relaxed) / 1000,
            MAKE_US.load(Ordering::Relaxed) / 1000,
            kinds.join(", ")
        );
    }
    // Raw mutations that are not text are the `content` target's; here they become text, so that more
    // inputs pass `check` and reach the kinds.
    let text: String = String::from_utf8_lossy(text)
        .chars()
        .map(|c| if forbidden_control(c) { ' ' } else { c })
        .collect();
    let i = pick as usize % s.files.len();
    let picked = &s.files[i].0;
    let files: Vec<(String, Vec<u8>)> = s
        .files
        .iter()
        .enumerate()
        .filter(|(_, (rel, _))| game(rel) == game(picked))
        .map(|(j, (rel, bytes))| {
            if j == i {
                (rel.clone(), text.as_bytes().to_vec())
            } else {
                (rel.clone(), bytes.clone())
            }
        })
        .collect();
    let t = Instant::now();
    let cx = checked(
        &s.registry,
        &s.requires,
        &mut s.caches.lock().unwrap(),
        files,
    );
    CHECK_US.fetch_add(t.elapsed().as_micros() as u64, Ordering::Relaxed);
    let Some(cx) = cx else {
        return;
    };
    let accepted = ACCEPTED.fetch_add(1, Ordering::Relaxed);
    let pdf = s.pdf_every > 0 && accepted % s.pdf_every == 0;
    let t = Instant::now();
    let req = Request {
        seed: 7,
        paper: Paper::A4,
        first: 1,
        count: 1,
    };
    let offered: Vec<_> = s
        .registry
        .kinds()
        .zip(&s.requires)
        .filter(|(k, req)| k.requires_always() || req.touched_by(&cx.lib))
        .map(|(k, _)| k)
        .collect();
    if let Some(&k) = offered.get(which as usize % offered.len().max(1)) {
        let tk = Instant::now();
        let n = k
            .count(&cx, &req)
            .unwrap_or_else(|e| panic!("{}: count: {e}", k.name()));
        if n > 0 {
            let doc = k
                .document(&cx, &req, 0)
                .unwrap_or_else(|e| panic!("{}: document: {e}", k.name()));
            for &f in k.formats() {
                if f == Format::Md && k.name() == SrdKind.name() {
                    // What `driver::render` makes, keeping the chapters written from one input to the
                    // next: of an unchanged chapter (and what it reads) nothing is written again.
                    SrdKind
                        .markdown_cached(&s.engine, &doc, &mut s.caches.lock().unwrap().srd)
                        .unwrap_or_else(|e| panic!("{} {f:?} of {picked}: {e}", k.name()));
                } else if f == Format::Json && doc.json.is_none() {
                    // What `driver::render` serializes (the document's data), compact and into
                    // nothing: its pretty text is no more than indentation of the same JSON.
                    serde_json::to_writer(std::io::sink(), &doc.data)
                        .unwrap_or_else(|e| panic!("{} {f:?} of {picked}: {e}", k.name()));
                } else if f != Format::Pdf || pdf {
                    driver::render(k, &cx, &s.engine, &doc, f, &blockprint::app::Silent)
                        .unwrap_or_else(|e| panic!("{} {f:?} of {picked}: {e}", k.name()));
                }
            }
        }
        if s.stats > 0 {
            *KIND_US
                .lock()
                .unwrap()
                .entry(k.name().to_owned())
                .or_default() += tk.elapsed().as_micros() as u64;
        }
    }
    MAKE_US.fetch_add(t.elapsed().as_micros() as u64, Ordering::Relaxed);
});
