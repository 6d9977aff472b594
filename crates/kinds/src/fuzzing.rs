//! The `data` fuzz target's work on one input, in one place for the target (`fuzz/fuzz_targets/data.rs`,
//! under coverage instrumentation) and for its benchmark without it (`examples/data_bench.rs`).
//!
//! An input replaces one file of the built-in content: its first byte picks which (in path order), the
//! second picks the kind (among those the checked content offers, in registry order), the rest is the
//! file's new text (invalid UTF-8 and control characters made into text first). The content checked is
//! that file's game (the files under the same top folder, complete content on its own), and the check is
//! incremental with the same verdict: the loader keeps each file's parse and the checker its dice and
//! chapters from one input to the next. Content `check` accepts must then make the kind's first document
//! and render it in every format but PDF (PDF too when asked) without an error; an error panics, naming
//! the kind, the format and the file, which is what the fuzzer reports.

use std::time::{Duration, Instant};

use blockprint_content::check::{self, Requirements};
use blockprint_content::{LoadCache, forbidden_control, load_files_cached};
use blockprint_render::{Engine, Format, Paper, Templates, driver};

use crate::srd::SrdKind;
use crate::srd::book::MarkdownCache;
use crate::{Checked, Kind, Registry, Request};

/// CPU time of the whole process so far, in milliseconds (user and system, from `/proc/self/stat`; 0
/// where there is none): the rate per CPU second holds on a shared machine, where wall time does not.
pub fn cpu_ms() -> u64 {
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

/// The top folder of a content path (`bbb/01-homicide.toml` → `bbb`).
pub fn game(rel: &str) -> &str {
    rel.split('/').next().unwrap_or(rel)
}

/// What one input cost and reached.
#[derive(Debug, Default)]
pub struct Step {
    /// Loading and checking.
    pub checking: Duration,
    /// Whether `check` accepted the content.
    pub accepted: bool,
    /// The kind made, and what making and rendering it took.
    pub made: Option<(String, Duration)>,
}

/// The built-in content, the kinds and what loading and checking keep from one input for the next.
pub struct DataRun {
    files: Vec<(String, Vec<u8>)>,
    registry: Registry,
    /// Each registered kind's requirements (a kind's own, whatever the content), in registry order.
    requires: Vec<Requirements>,
    engine: Engine,
    load: LoadCache,
    check: check::Cache,
    /// The SRD's chapters and appendices as its Markdown editions last wrote them.
    srd: MarkdownCache,
}

impl DataRun {
    /// A run over `files` (the content's `.toml` and `.md` files, relative paths in path order) with the
    /// built-in templates. Panics when the unmodified content of a game is refused: the run would test
    /// nothing there.
    pub fn new(files: Vec<(String, Vec<u8>)>) -> DataRun {
        let templates = Templates::builtin();
        let registry = Registry::new(&templates).expect("the built-in kinds register");
        let requires = registry.kinds().map(|k| k.requires()).collect();
        let engine =
            Engine::new(templates, Default::default()).expect("the built-in templates load");
        let mut run = DataRun {
            files,
            registry,
            requires,
            engine,
            load: LoadCache::default(),
            check: check::Cache::default(),
            srd: MarkdownCache::default(),
        };
        let mut games: Vec<String> = run.files.iter().map(|(r, _)| game(r).to_owned()).collect();
        games.dedup();
        for g in games {
            let own: Vec<_> = run
                .files
                .iter()
                .filter(|(rel, _)| game(rel) == g)
                .cloned()
                .collect();
            assert!(
                run.checked(own).is_some(),
                "check refuses the unmodified `{g}` content: the run would test nothing there"
            );
        }
        run
    }

    /// Load and check `files` with what every registered kind requires; `None` when `check` refuses
    /// them. Of the game's files only one the loader has not seen is parsed again, and only its dice and
    /// chapters worked out again; the verdict is a whole check's (`tests/reliability.rs` compares them).
    fn checked(&mut self, files: Vec<(String, Vec<u8>)>) -> Option<Checked> {
        let (lib, diags) = load_files_cached(files, &mut self.load);
        let mut report = check::run_cached(&lib, diags, &mut self.check);
        for (k, req) in self.registry.kinds().zip(&self.requires) {
            check::requires::check_cached(
                &lib,
                k.name(),
                req,
                k.requires_always(),
                &mut self.check,
                &mut report.diagnostics,
            );
        }
        Checked::new(lib, report, "fuzz".into())
    }

    /// Run one input (shorter than two bytes: nothing). `pdf`: typeset the PDF too. `verify`: make the
    /// SRD's Markdown afresh as well and assert it equals the kept one.
    pub fn input(&mut self, data: &[u8], pdf: bool, verify: bool) -> Step {
        let mut step = Step::default();
        let [pick, which, text @ ..] = data else {
            return step;
        };
        // Raw mutations that are not text are the `content` target's; here they become text, so that
        // more inputs pass `check` and reach the kinds.
        let text: String = String::from_utf8_lossy(text)
            .chars()
            .map(|c| if forbidden_control(c) { ' ' } else { c })
            .collect();
        let i = *pick as usize % self.files.len();
        let picked = self.files[i].0.clone();
        let files: Vec<(String, Vec<u8>)> = self
            .files
            .iter()
            .enumerate()
            .filter(|(_, (rel, _))| game(rel) == game(&picked))
            .map(|(j, (rel, bytes))| {
                if j == i {
                    (rel.clone(), text.as_bytes().to_vec())
                } else {
                    (rel.clone(), bytes.clone())
                }
            })
            .collect();
        let t = Instant::now();
        let cx = self.checked(files);
        step.checking = t.elapsed();
        let Some(cx) = cx else {
            return step;
        };
        step.accepted = true;
        let req = Request {
            seed: 7,
            paper: Paper::A4,
            first: 1,
            count: 1,
        };
        let offered: Vec<&dyn Kind> = self
            .registry
            .kinds()
            .zip(&self.requires)
            .filter(|(k, req)| k.requires_always() || req.touched_by(&cx.lib))
            .map(|(k, _)| k)
            .collect();
        let Some(&k) = offered.get(*which as usize % offered.len().max(1)) else {
            return step;
        };
        let t = Instant::now();
        let n = k
            .count(&cx, &req)
            .unwrap_or_else(|e| panic!("{}: count: {e}", k.name()));
        if n > 0 {
            let doc = k
                .document(&cx, &req, 0)
                .unwrap_or_else(|e| panic!("{}: document: {e}", k.name()));
            let render = |f: Format| {
                driver::render(k, &cx, &self.engine, &doc, f, &crate::sink::Silent)
                    .unwrap_or_else(|e| panic!("{} {f:?} of {picked}: {e}", k.name()))
            };
            for &f in k.formats() {
                if f == Format::Md && k.name() == SrdKind.name() {
                    // What `driver::render` makes, keeping the chapters written from one input to the
                    // next: of an unchanged chapter (and what it reads) nothing is written again.
                    let files = SrdKind
                        .markdown_cached(&self.engine, &doc, &mut self.srd)
                        .unwrap_or_else(|e| panic!("{} {f:?} of {picked}: {e}", k.name()));
                    if verify {
                        assert!(
                            files == render(f),
                            "the kept SRD Markdown differs from a fresh one"
                        );
                    }
                } else if f == Format::Json && doc.json.is_none() {
                    // What `driver::render` serializes (the document's data), compact and into
                    // nothing: its pretty text is no more than indentation of the same JSON.
                    serde_json::to_writer(std::io::sink(), &doc.data)
                        .unwrap_or_else(|e| panic!("{} {f:?} of {picked}: {e}", k.name()));
                } else if f != Format::Pdf || pdf {
                    render(f);
                }
            }
        }
        step.made = Some((k.name().to_owned(), t.elapsed()));
        step
    }
}
