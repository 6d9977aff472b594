//! Times loading and checking one content folder, over and over, without coverage instrumentation:
//! `cargo run --release -p blockprint-content --example check_bench -- content/bbb 200` for the whole
//! load and check every time (what `check` does), with `CACHED=1` for the incremental one the `data`
//! fuzz target runs (`load_files_cached` and `check::run_cached`, their caches kept between runs).
//! Prints the microseconds of wall time each part took per run; `perf record` on it shows where.
use std::path::Path;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or("content/bbb".into());
    let n: usize = args.next().map(|x| x.parse().unwrap()).unwrap_or(200);
    let root = Path::new(&dir);
    // The folder as the `data` fuzz target reads it: its `.toml` and `.md` files, a top README left out.
    let mut files = blockprint_content::ContentRoot::Dir(root.to_path_buf())
        .files()
        .unwrap();
    files.retain(|(r, _)| r != "README.md" && (r.ends_with(".toml") || r.ends_with(".md")));
    let cached = std::env::var("CACHED").is_ok();
    let mut cache = blockprint_content::LoadCache::default();
    let mut ccache = blockprint_content::check::Cache::default();
    let (mut tl, mut tc) = (0u128, 0u128);
    for _ in 0..n {
        let t = Instant::now();
        let (lib, diags) = if cached {
            blockprint_content::load_files_cached(files.clone(), &mut cache)
        } else {
            blockprint_content::load_files(files.clone())
        };
        tl += t.elapsed().as_micros();
        let t = Instant::now();
        let r = if cached {
            blockprint_content::check::run_cached(&lib, diags, &mut ccache)
        } else {
            blockprint_content::check::run(&lib, diags)
        };
        tc += t.elapsed().as_micros();
        std::hint::black_box(r);
    }
    println!(
        "{dir}: load {} us, check {} us per run",
        tl / n as u128,
        tc / n as u128
    );
}
