//! Generated content through `check` and then every kind. The built-in content is read once from the
//! repository's `content/` folder; each input replaces one of its files: the first byte picks which (in
//! path order), the rest is the file's new text (invalid UTF-8 and control characters made into
//! text first). The copy is loaded from memory and checked with what
//! every registered kind requires; content `check` accepts must then make every kind's first document
//! and render it to Markdown and JSON without an error (anything `check` accepts renders for every
//! kind). The files, templates, kinds and one typst engine are set up once, and the unmodified content
//! must pass `check` (else the target would test nothing). With `BLOCKPRINT_FUZZ_PDF=N` one accepted
//! input in N (the first, then every Nth) is also typeset to PDF; `BLOCKPRINT_FUZZ_STATS=1` prints how
//! many inputs `check` accepted, every 100 inputs.
#![no_main]

use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use blockprint::content::{forbidden_control, load_files};
use blockprint::generators::{Checked, Registry, Request};
use blockprint::render::{Engine, Format, Paper, Templates, driver};
use libfuzzer_sys::fuzz_target;

struct Setup {
    files: Vec<(String, Vec<u8>)>,
    registry: Registry,
    engine: Engine,
    /// Typeset one accepted input in this many to PDF (0: never).
    pdf_every: u64,
    stats: bool,
}

static INPUTS: AtomicU64 = AtomicU64::new(0);
static ACCEPTED: AtomicU64 = AtomicU64::new(0);

fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            walk(root, &p, out);
        } else if matches!(p.extension().and_then(|x| x.to_str()), Some("toml" | "md")) {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            out.push((rel, std::fs::read(&p).unwrap()));
        }
    }
}

/// Load and check `files` with what every registered kind requires; `None` when `check` refuses them.
fn checked(registry: &Registry, files: Vec<(String, Vec<u8>)>) -> Option<Checked> {
    let (lib, diags) = load_files(files);
    let mut report = blockprint::check::run(&lib, diags);
    for k in registry.kinds() {
        blockprint::check::requires::check(
            &lib,
            k.name(),
            &k.requires(),
            k.requires_always(),
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
        let engine = Engine::new(templates, Default::default()).unwrap();
        assert!(
            checked(&registry, files.clone()).is_some(),
            "check refuses the unmodified content: the target would test nothing"
        );
        let pdf_every = match std::env::var("BLOCKPRINT_FUZZ_PDF") {
            Ok(v) => v
                .parse()
                .expect("BLOCKPRINT_FUZZ_PDF=N typesets one accepted input in N"),
            Err(_) => 0,
        };
        Setup {
            files,
            registry,
            engine,
            pdf_every,
            stats: std::env::var_os("BLOCKPRINT_FUZZ_STATS").is_some(),
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let s = setup();
    let n = INPUTS.fetch_add(1, Ordering::Relaxed) + 1;
    if s.stats && n % 100 == 0 {
        let a = ACCEPTED.load(Ordering::Relaxed);
        eprintln!("render: {n} inputs, {a} accepted by check");
    }
    // Most raw mutations are bytes the loader refuses outright (invalid UTF-8, control characters),
    // which the `content` target covers; here they become text, so that more inputs pass `check` and
    // reach the kinds.
    let text: String = String::from_utf8_lossy(text)
        .chars()
        .map(|c| if forbidden_control(c) { ' ' } else { c })
        .collect();
    let mut files = s.files.clone();
    let i = pick as usize % files.len();
    files[i].1 = text.into_bytes();
    let Some(cx) = checked(&s.registry, files) else {
        return;
    };
    let accepted = ACCEPTED.fetch_add(1, Ordering::Relaxed);
    let pdf = s.pdf_every > 0 && accepted % s.pdf_every == 0;
    let req = Request {
        seed: 7,
        paper: Paper::A4,
        first: 1,
        count: 1,
        year: 1976,
        year_cases: 17,
    };
    for k in s.registry.kinds() {
        let n = k
            .count(&cx, &req)
            .unwrap_or_else(|e| panic!("{}: count: {e}", k.name()));
        if n == 0 {
            continue;
        }
        let doc = k
            .document(&cx, &req, 0)
            .unwrap_or_else(|e| panic!("{}: document: {e}", k.name()));
        let mut formats = vec![Format::Md, Format::Json];
        if pdf {
            formats.push(Format::Pdf);
        }
        for f in formats {
            if k.formats().contains(&f) {
                driver::render(k, &cx, &s.engine, &doc, f, &blockprint::app::Silent)
                    .unwrap_or_else(|e| panic!("{} {f:?} of {}: {e}", k.name(), s.files[i].0));
            }
        }
    }
});
