//! Helpers the integration tests share.
#![allow(dead_code)]

pub mod export;
pub mod glyphs;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

/// The built `blockprint` binary as a command, ready for arguments: every test runs the binary through
/// here. Whatever the environment `cargo test` runs in, without `SOURCE_DATE_EPOCH` (so PDFs carry no
/// timestamp), `BLOCKPRINT_TIMINGS` (so stderr holds only what the command says) and `CLICOLOR_FORCE`
/// (so what it prints into a pipe is plain text).
pub fn bp() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_blockprint"));
    cmd.env_remove("SOURCE_DATE_EPOCH")
        .env_remove("BLOCKPRINT_TIMINGS")
        .env_remove("CLICOLOR_FORCE");
    cmd
}

/// Run the built binary with `args` ([`bp`]) and wait for what it prints.
pub fn blockprint(args: &[&str]) -> Output {
    bp().args(args).output().expect("run blockprint")
}

/// [`blockprint`] with extra environment variables.
pub fn blockprint_env(args: &[&str], envs: &[(&str, &str)]) -> Output {
    bp().args(args)
        .envs(envs.iter().copied())
        .output()
        .expect("run blockprint")
}

/// [`blockprint`] run in the folder `cwd` (relative paths in `args` are read from there).
pub fn blockprint_in(cwd: &Path, args: &[&str]) -> Output {
    bp().current_dir(cwd)
        .args(args)
        .output()
        .expect("run blockprint")
}

/// What a run printed on stdout (UTF-8).
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

/// What a run printed on stderr (UTF-8).
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// A PDF's text without the invisible break opportunities blockprint adds to long unbroken runs.
pub fn pdf_text(bytes: &[u8]) -> String {
    pdf_extract::extract_text_from_mem(bytes)
        .expect("a readable PDF")
        .replace('\u{200B}', "")
}

/// Assert a run exited 0, showing what it printed when it did not.
pub fn ok(o: &Output) {
    assert_eq!(
        o.status.code(),
        Some(0),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// What golden files hold where an output says the content version: the version changes with every edit
/// of the content, and the goldens pin what the output says, not which content it was made from.
pub const CONTENT_VERSION: &str = "<content-version>";

/// The built-in content's version (`Library::version`, 12 hex digits), as every output made from it
/// prints it.
pub fn content_version() -> &'static str {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION.get_or_init(|| {
        let (lib, _) =
            blockprint::check::load_and_check(&blockprint::content::ContentRoot::Embedded)
                .expect("the built-in content loads");
        assert_eq!(lib.version.len(), 12, "{}", lib.version);
        lib.version
    })
}

/// `bytes` with every occurrence of the built-in content's version replaced by [`CONTENT_VERSION`].
pub fn mask_content_version(bytes: &[u8]) -> Vec<u8> {
    let version = content_version().as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while let Some(at) = rest.windows(version.len()).position(|w| w == version) {
        out.extend_from_slice(&rest[..at]);
        out.extend_from_slice(CONTENT_VERSION.as_bytes());
        rest = &rest[at + version.len()..];
    }
    out.extend_from_slice(rest);
    out
}

/// Compare `files` (relative name → bytes) with the golden copies under `dir`, the content version in
/// `files` masked first ([`mask_content_version`]: golden files hold [`CONTENT_VERSION`]). With
/// `BLOCKPRINT_BLESS` set, the masked files are written first. Returns how many files were compared.
/// Every golden comparison of the tests goes through here.
pub fn golden_files<N: AsRef<str>, B: AsRef<[u8]>>(
    dir: &Path,
    files: impl IntoIterator<Item = (N, B)>,
) -> usize {
    let bless = std::env::var_os("BLOCKPRINT_BLESS").is_some();
    let mut n = 0;
    for (name, bytes) in files {
        let name = name.as_ref();
        let path = dir.join(name);
        let got = mask_content_version(bytes.as_ref());
        if bless {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &got).unwrap();
        }
        let want = std::fs::read(&path)
            .unwrap_or_else(|_| panic!("{} missing; run with BLOCKPRINT_BLESS=1", path.display()));
        if want != got {
            // Text goldens show the first line that differs; others only that they differ.
            let diff = match (std::str::from_utf8(&want), std::str::from_utf8(&got)) {
                (Ok(w), Ok(g)) => first_difference(w, g),
                _ => String::new(),
            };
            panic!(
                "{name} differs from {}; run with BLOCKPRINT_BLESS=1 after an intended change and read the diff{diff}",
                path.display()
            );
        }
        n += 1;
    }
    n
}

/// [`golden_files`] for a folder that holds exactly `files`: a golden file no longer made fails, and
/// blessing empties the folder first.
pub fn golden_tree<N: AsRef<str>, B: AsRef<[u8]>>(
    dir: &Path,
    files: impl IntoIterator<Item = (N, B)>,
) -> usize {
    let files: Vec<(N, B)> = files.into_iter().collect();
    if std::env::var_os("BLOCKPRINT_BLESS").is_some() {
        let _ = std::fs::remove_dir_all(dir);
    }
    let n = golden_files(dir, files.iter().map(|(n, b)| (n.as_ref(), b.as_ref())));
    let made: std::collections::BTreeSet<&str> = files.iter().map(|(n, _)| n.as_ref()).collect();
    let stale: Vec<String> = tree(dir)
        .into_keys()
        .map(|k| k.replace('\\', "/"))
        .filter(|k| !made.contains(k.as_str()))
        .collect();
    assert!(
        stale.is_empty(),
        "{} holds files no longer made: {stale:?}; run with BLOCKPRINT_BLESS=1",
        dir.display()
    );
    n
}

/// Where two texts first differ, as `: line N: golden "…", now "…"`.
fn first_difference(want: &str, got: &str) -> String {
    let (mut w, mut g) = (want.lines(), got.lines());
    let mut line = 1;
    loop {
        match (w.next(), g.next()) {
            (Some(a), Some(b)) if a == b => line += 1,
            (None, None) => return ": the line ends differ".into(),
            (a, b) => return format!(": line {line}: golden {a:?}, now {b:?}"),
        }
    }
}

/// The exact distribution of `f(roll)` over every roll of independent uniform dice with the given faces,
/// by plain enumeration (the independent reference the dice tests compare the engine with).
pub fn enumerate<K: Ord>(
    dice: &[Vec<i64>],
    f: impl Fn(&[i64]) -> K,
) -> BTreeMap<K, num_rational::BigRational> {
    let mut counts: BTreeMap<K, u64> = BTreeMap::new();
    let mut idx = vec![0usize; dice.len()];
    let mut all = 0u64;
    'outer: loop {
        let roll: Vec<i64> = idx.iter().zip(dice).map(|(&i, d)| d[i]).collect();
        *counts.entry(f(&roll)).or_default() += 1;
        all += 1;
        for pos in 0..=idx.len() {
            if pos == idx.len() {
                break 'outer;
            }
            idx[pos] += 1;
            if idx[pos] < dice[pos].len() {
                break;
            }
            idx[pos] = 0;
        }
    }
    counts
        .into_iter()
        .map(|(v, c)| (v, num_rational::BigRational::new(c.into(), all.into())))
        .collect()
}

/// A path as the `&str` an argument list wants.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every file under `dir`, relative path → bytes.
pub fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.insert(
                    p.strip_prefix(root).unwrap().display().to_string(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The form fields of a PDF (name → value) as pypdf reads them: a second PDF library's view of a fillable
/// form. `None` (with a SKIPPED line) when pypdf cannot run, unless `BLOCKPRINT_REQUIRE_PYPDF` is set,
/// then the test fails (`.ci/run` installs pypdf and sets it). `BLOCKPRINT_PYTHON` names the interpreter.
pub fn pypdf_fields(pdf: &Path) -> Option<BTreeMap<String, String>> {
    let script = "import json, sys\nfrom pypdf import PdfReader\nr = PdfReader(sys.argv[1])\n\
        print(json.dumps({k: str(v.get('/V', '')) for k, v in r.get_fields().items()}))\n";
    pypdf_json(script, pdf).map(|v| serde_json::from_value(v).expect("pypdf printed a JSON object"))
}

/// What a pypdf `script` (reading the PDF named by `sys.argv[1]`) prints as JSON; `None` and the
/// skipping rules of [`pypdf_fields`] when pypdf cannot run.
pub fn pypdf_json(script: &str, pdf: &Path) -> Option<serde_json::Value> {
    let python = std::env::var("BLOCKPRINT_PYTHON").unwrap_or_else(|_| "python3".into());
    let o = Command::new(&python).args(["-c", script]).arg(pdf).output();
    match o {
        Ok(o) if o.status.success() => {
            Some(serde_json::from_slice(&o.stdout).expect("pypdf printed JSON"))
        }
        o => {
            let why = o
                .map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
                .unwrap_or_else(|e| e.to_string());
            assert!(
                std::env::var_os("BLOCKPRINT_REQUIRE_PYPDF").is_none(),
                "pypdf is required but failed: {why}"
            );
            eprintln!("SKIPPED: pypdf is not available to {python} ({why}); .ci/run installs it");
            None
        }
    }
}

/// The built-in content, loaded and checked with what every kind requires, through the library's one
/// entry point (as every command that makes files does).
pub fn builtin_checked() -> blockprint::generators::Checked {
    blockprint::project::Project::open(None, None)
        .and_then(blockprint::project::Project::into_checked)
        .unwrap()
}

/// An engine on the built-in templates.
pub fn builtin_engine() -> blockprint::render::Engine {
    blockprint::render::Engine::new(blockprint::render::Templates::builtin(), Default::default())
        .unwrap()
}

/// A request for one document of a kind that does not roll (seed 0, the first case number).
pub fn one_request(paper: blockprint::render::Paper) -> blockprint::generators::Request {
    blockprint::generators::Request {
        seed: 0,
        paper,
        first: 1,
        count: 1,
    }
}
