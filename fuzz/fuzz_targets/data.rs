//! Content to document data, without typst: generated content through `check` and then a kind's first
//! document as data, Markdown, JSON, CSV and text (everything but the PDF, which the `typeset` target
//! covers on the data shapes this stage makes).
//!
//! The built-in content is read once from the repository's `content/` folder. Each input replaces one
//! of its files and names a kind; `blockprint_kinds::fuzzing` does the work (its module doc says how an
//! input is read, and why a check costs one game, incrementally, with a whole check's verdict), the
//! same work `crates/kinds/examples/data_bench.rs` times without instrumentation. Content `check`
//! accepts must then make the kind's first document and render it in every format but PDF without an
//! error (one kind an input: the SRD alone costs more than all the others together).
//! `BLOCKPRINT_FUZZ_STATS=N` prints every N inputs how many `check` accepted and where the time went.
//! With `BLOCKPRINT_FUZZ_PDF=N` one accepted input in N (the first, then every Nth) is also typeset to
//! PDF, end to end as `make` does (slow: a whole document's typesetting under coverage instrumentation).
#![no_main]

use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use blockprint::generators::fuzzing::{DataRun, cpu_ms};
use libfuzzer_sys::fuzz_target;

struct Setup {
    run: std::sync::Mutex<DataRun>,
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

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
        let mut files = Vec::new();
        walk(&root, &root, &mut files);
        // The README beside the content is no content file.
        files.retain(|(rel, _)| rel != "README.md");
        let pdf_every = match std::env::var("BLOCKPRINT_FUZZ_PDF") {
            Ok(v) => v
                .parse()
                .expect("BLOCKPRINT_FUZZ_PDF=N typesets one accepted input in N"),
            Err(_) => 0,
        };
        Setup {
            run: std::sync::Mutex::new(DataRun::new(files)),
            pdf_every,
            stats: std::env::var("BLOCKPRINT_FUZZ_STATS")
                .map(|v| v.parse().unwrap_or(1000))
                .unwrap_or(0),
        }
    })
}

fuzz_target!(|data: &[u8]| {
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
    // The PDF of one accepted input in `pdf_every`, counting this one if `check` accepts it.
    let accepted = ACCEPTED.load(Ordering::Relaxed);
    let pdf = s.pdf_every > 0 && accepted % s.pdf_every == 0;
    let step = s.run.lock().unwrap().input(data, pdf, false);
    CHECK_US.fetch_add(step.checking.as_micros() as u64, Ordering::Relaxed);
    if step.accepted {
        ACCEPTED.fetch_add(1, Ordering::Relaxed);
    }
    if let Some((kind, took)) = step.made {
        MAKE_US.fetch_add(took.as_micros() as u64, Ordering::Relaxed);
        if s.stats > 0 {
            *KIND_US.lock().unwrap().entry(kind).or_default() += took.as_micros() as u64;
        }
    }
});
