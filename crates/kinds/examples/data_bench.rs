//! The `data` fuzz target's work without coverage instrumentation, over a corpus folder (or input files):
//! `cargo run --release -p blockprint-kinds --example data_bench -- fuzz/corpus/data` runs every input once
//! as the target does (one content file replaced, that game loaded and checked incrementally, one kind's
//! first document made and rendered in every format but PDF) and prints the inputs a CPU second and where
//! the time went by kind. `perf record` on it shows where inside; `REPEAT=N` runs the inputs N times;
//! `VERIFY=1` also makes each SRD's Markdown afresh and asserts it equals the cached one.
//! The work itself is `blockprint_kinds::fuzzing`, which the target runs too.
use std::path::{Path, PathBuf};
use std::time::Instant;

use blockprint_kinds::Kind;
use blockprint_kinds::fuzzing::{DataRun, cpu_ms};
use blockprint_kinds::srd::SrdKind;

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
    let mut run = DataRun::new(files);
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
            let step = run.input(data, false, verify);
            check_us += step.checking.as_micros() as u64;
            accepted += u64::from(step.accepted);
            if let Some((kind, took)) = step.made {
                if verify && kind == SrdKind.name() {
                    verified += 1;
                }
                let e = kind_us.entry(kind).or_default();
                e.0 += took.as_micros() as u64;
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
