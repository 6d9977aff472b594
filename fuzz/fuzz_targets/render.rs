//! Generated content through `check` and then every kind. The built-in content is read once from the
//! repository's `content/` folder; each input replaces one of its files: the first byte picks which (in
//! path order), the rest is the file's new text. The copy is loaded from memory and checked with what
//! every registered kind requires; content `check` accepts must then make every kind's first document
//! and render it to Markdown without an error (anything `check` accepts renders for every kind). With
//! `BLOCKPRINT_FUZZ_PDF=1` each accepted input is also typeset to PDF (slow: a sample, not the default).
#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use blockprint::content::load_files;
use blockprint::generators::{Checked, Registry, Request};
use blockprint::render::{Engine, Format, Paper, Templates, driver};
use libfuzzer_sys::fuzz_target;

struct Setup {
    files: Vec<(String, Vec<u8>)>,
    registry: Registry,
    engine: Engine,
    pdf: bool,
}

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
        Setup {
            files,
            registry,
            engine,
            pdf: std::env::var_os("BLOCKPRINT_FUZZ_PDF").is_some(),
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let s = setup();
    let mut files = s.files.clone();
    let i = pick as usize % files.len();
    files[i].1 = text.to_vec();
    let (lib, diags) = load_files(files);
    let mut report = blockprint::check::run(&lib, diags);
    for k in s.registry.kinds() {
        blockprint::check::requires::check(
            &lib,
            k.name(),
            &k.requires(),
            k.requires_always(),
            &mut report.diagnostics,
        );
    }
    let Some(cx) = Checked::new(lib, report, "fuzz".into()) else {
        return;
    };
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
        if s.pdf {
            formats.push(Format::Pdf);
        }
        for f in formats {
            if k.formats().contains(&f) {
                driver::render(k, &cx, &s.engine, &doc, f)
                    .unwrap_or_else(|e| panic!("{} {f:?} of {}: {e}", k.name(), s.files[i].0));
            }
        }
    }
});
