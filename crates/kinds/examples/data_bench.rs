//! The `data` fuzz target's work without coverage instrumentation, over a corpus folder (or input files):
//! `cargo run --release -p blockprint-kinds --example data_bench -- fuzz/corpus/data` runs every input once
//! as the target does (one content file replaced, that game loaded and checked incrementally, one kind's
//! first document made and rendered in every format but PDF) and prints the inputs a CPU second and where
//! the time went by kind. `perf record` on it shows where inside; `REPEAT=N` runs the inputs N times;
//! `VERIFY=1` also makes each SRD's Markdown afresh and asserts it equals the cached one.
//! Keep it in step with `fuzz/fuzz_targets/data.rs`.
use std::path::{Path, PathBuf};
use std::time::Instant;

use blockprint_content::check::Requirements;
use blockprint_content::{LoadCache, forbidden_control, load_files_cached};
use blockprint_kinds::srd::SrdKind;
use blockprint_kinds::{Checked, Kind, Registry, Request};
use blockprint_render::{Engine, Format, Paper, Templates, driver};

fn cpu_ms() -> u64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0;
    };
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<u64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    (f.get(11).copied().unwrap_or(0) + f.get(12).copied().unwrap_or(0)) * 10
}

fn game(rel: &str) -> &str {
    rel.split('/').next().unwrap_or(rel)
}

#[derive(Default)]
struct Caches {
    load: LoadCache,
    check: blockprint_content::check::Cache,
    srd: blockprint_kinds::srd::book::MarkdownCache,
}

fn checked(
    registry: &Registry,
    requires: &[Requirements],
    caches: &mut Caches,
    files: Vec<(String, Vec<u8>)>,
) -> Option<Checked> {
    let (lib, diags) = load_files_cached(files, &mut caches.load);
    let mut report = blockprint_content::check::run_cached(&lib, diags, &mut caches.check);
    for (k, req) in registry.kinds().zip(requires) {
        blockprint_content::check::requires::check_cached(
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

fn main() {
    let args: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let mut inputs: Vec<PathBuf> = Vec::new();
    for a in &args {
        if a.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(a)
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .collect();
            v.sort();
            inputs.extend(v);
        } else {
            inputs.push(a.clone());
        }
    }
    let inputs: Vec<Vec<u8>> = inputs.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let repeat: usize = std::env::var("REPEAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content");
    let mut files = blockprint_content::ContentRoot::Dir(root).files().unwrap();
    files.retain(|(r, _)| r != "README.md" && (r.ends_with(".toml") || r.ends_with(".md")));
    let templates = Templates::builtin();
    let registry = Registry::new(&templates).unwrap();
    let requires: Vec<Requirements> = registry.kinds().map(|k| k.requires()).collect();
    let engine = Engine::new(templates, Default::default()).unwrap();
    let mut caches = Caches::default();
    let mut kind_us: std::collections::BTreeMap<String, (u64, u64)> = Default::default();
    let (mut check_us, mut accepted) = (0u64, 0u64);
    let cpu0 = cpu_ms();
    let wall = Instant::now();
    let mut n = 0u64;
    let verify = std::env::var("VERIFY").is_ok();
    let mut verified = 0;
    for _ in 0..repeat {
        for data in &inputs {
            n += 1;
            let [pick, which, text @ ..] = &data[..] else {
                continue;
            };
            let text: String = String::from_utf8_lossy(text)
                .chars()
                .map(|c| if forbidden_control(c) { ' ' } else { c })
                .collect();
            let i = *pick as usize % files.len();
            let picked = &files[i].0;
            let own: Vec<(String, Vec<u8>)> = files
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
            let cx = checked(&registry, &requires, &mut caches, own);
            check_us += t.elapsed().as_micros() as u64;
            let Some(cx) = cx else { continue };
            accepted += 1;
            let req = Request {
                seed: 7,
                paper: Paper::A4,
                first: 1,
                count: 1,
            };
            let offered: Vec<_> = registry
                .kinds()
                .zip(&requires)
                .filter(|(k, req)| k.requires_always() || req.touched_by(&cx.lib))
                .map(|(k, _)| k)
                .collect();
            if let Some(&k) = offered.get(*which as usize % offered.len().max(1)) {
                let tk = Instant::now();
                let n = k.count(&cx, &req).unwrap();
                if n > 0 {
                    let doc = k.document(&cx, &req, 0).unwrap();
                    for &f in k.formats() {
                        if f == Format::Md && k.name() == SrdKind.name() {
                            let files = SrdKind
                                .markdown_cached(&engine, &doc, &mut caches.srd)
                                .unwrap();
                            if verify {
                                let fresh = driver::render(
                                    k,
                                    &cx,
                                    &engine,
                                    &doc,
                                    f,
                                    &blockprint_kinds::sink::Silent,
                                )
                                .unwrap();
                                assert!(files == fresh, "the cached SRD Markdown differs");
                                verified += 1;
                            }
                        } else if f == Format::Json && doc.json.is_none() {
                            serde_json::to_writer(std::io::sink(), &doc.data).unwrap();
                        } else if f != Format::Pdf {
                            driver::render(
                                k,
                                &cx,
                                &engine,
                                &doc,
                                f,
                                &blockprint_kinds::sink::Silent,
                            )
                            .unwrap();
                        }
                    }
                }
                let e = kind_us.entry(k.name().to_owned()).or_default();
                e.0 += tk.elapsed().as_micros() as u64;
                e.1 += 1;
            }
        }
    }
    let cpu = (cpu_ms() - cpu0).max(1);
    println!(
        "{n} inputs ({accepted} accepted) in {cpu} ms of CPU, {} ms wall: {:.1} inputs a CPU second; checking {} ms",
        wall.elapsed().as_millis(),
        n as f64 * 1000.0 / cpu as f64,
        check_us / 1000
    );
    if verify {
        println!("  the cached SRD Markdown equals a fresh one for all {verified} SRD inputs");
    }
    for (k, (us, c)) in kind_us {
        println!(
            "  {k}: {c} inputs, {} ms, {} us each",
            us / 1000,
            us / c.max(1)
        );
    }
}
