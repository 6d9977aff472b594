//! Build script: records the git commit the binary is built from, for `blockprint --version`.
//!
//! The commit is taken from the first of these that has one:
//! 1. `BLOCKPRINT_COMMIT` in the environment: a build without the repository beside it (the container
//!    image is built from a copy of the sources without `.git`; pass `--build-arg BLOCKPRINT_COMMIT=…`).
//! 2. `.cargo_vcs_info.json`, which `cargo package` writes into a packaged crate: what `cargo install
//!    blockprint` builds (it records the commit and whether the packaged files had uncommitted changes).
//! 3. git, when this folder is the top of a git work tree (a checkout; the release workflow builds one).
//!    "with local changes" is added when a file the binary is made from (this script, the manifest, the
//!    lock file, `src/`, `crates/`, `content/`, `templates/`, `fonts/`) differs from that commit.
//!
//! Otherwise the commit is "unknown". The content version is not computed here: `--version` asks the
//! library, so it is the same fingerprint the manifests carry.
//!
//! Reruns: on a new commit (HEAD or the branch's ref moving) and on a change to a file the binary is made
//! from. Cargo recompiles the package whenever this script reruns, so nothing else is watched: a commit of
//! README or tests costs one recompile of this crate, the price of a truthful commit in `--version`.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The paths the binary is made from, relative to the package root: a change to one of them marks a build
/// from a git checkout "with local changes" and reruns this script.
const INPUTS: [&str; 8] = [
    "build.rs",
    "Cargo.toml",
    "Cargo.lock",
    "src",
    "crates",
    "content",
    "templates",
    "fonts",
];

fn main() {
    let root =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    println!("cargo::rerun-if-env-changed=BLOCKPRINT_COMMIT");
    let commit = from_env()
        .or_else(|| from_vcs_info(&root))
        .or_else(|| from_git(&root))
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo::rustc-env=BLOCKPRINT_COMMIT={commit}");
}

fn from_env() -> Option<String> {
    let v = env::var("BLOCKPRINT_COMMIT").ok()?;
    let v = v.trim();
    if v.is_empty() {
        return None;
    }
    if !v
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._-+".contains(c))
    {
        panic!(
            "BLOCKPRINT_COMMIT must be a commit id (letters, digits, '.', '_', '-', '+'), not {v:?}"
        );
    }
    Some(v.to_owned())
}

/// The commit `cargo package` recorded: `{"git": {"sha1": "<40 hex>", "dirty": true}, "path_in_vcs": ""}`
/// (`dirty` only when the package was made with `--allow-dirty` from a changed work tree).
fn from_vcs_info(root: &Path) -> Option<String> {
    let path = root.join(".cargo_vcs_info.json");
    if !path.is_file() {
        return None;
    }
    println!("cargo::rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(&path).ok()?;
    let after = &text[text.find("\"sha1\"")? + "\"sha1\"".len()..];
    let start = after.find('"')? + 1;
    let sha: String = after[start..]
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    if sha.len() < 12 {
        return None;
    }
    let dirty = text
        .split_once("\"dirty\"")
        .is_some_and(|(_, rest)| rest.trim_start_matches([':', ' ']).starts_with("true"));
    Some(describe(&sha, dirty))
}

fn from_git(root: &Path) -> Option<String> {
    // Only the repository whose top is this folder: a crate unpacked or vendored inside another repository
    // (cargo's own verification build under target/package/ is one) must not take that repository's commit.
    let top = git(root, &["rev-parse", "--show-toplevel"])?;
    if std::fs::canonicalize(top).ok()? != std::fs::canonicalize(root).ok()? {
        return None;
    }
    let sha = git(root, &["rev-parse", "HEAD"])?;
    watch_git(root);
    for input in INPUTS {
        println!("cargo::rerun-if-changed={}", root.join(input).display());
    }
    // --no-optional-locks: status must not take the index lock (a commit running beside the build would fail).
    let mut status = vec![
        "--no-optional-locks",
        "status",
        "--porcelain",
        "--untracked-files=normal",
        "--",
    ];
    status.extend(INPUTS);
    let dirty = !git(root, &status)?.is_empty();
    Some(describe(&sha, dirty))
}

/// Rerun when HEAD moves: HEAD itself (a checkout of another branch), the branch's ref file, and
/// packed-refs (where git keeps refs after `git gc`). Only files that exist are named, since cargo reruns
/// a script on every build for a watched path that is missing.
fn watch_git(root: &Path) {
    let mut files = vec!["HEAD".to_owned(), "packed-refs".to_owned()];
    if let Some(branch) = git(root, &["symbolic-ref", "-q", "HEAD"]) {
        files.push(branch);
    }
    for f in files {
        if let Some(p) = git(
            root,
            &["rev-parse", "--path-format=absolute", "--git-path", &f],
        ) && Path::new(&p).exists()
        {
            println!("cargo::rerun-if-changed={p}");
        }
    }
}

fn describe(sha: &str, dirty: bool) -> String {
    let short = &sha[..sha.len().min(12)];
    if dirty {
        format!("{short} with local changes")
    } else {
        short.to_owned()
    }
}

/// Run git in `dir`; its trimmed output, or None if git is missing or fails.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8(out.stdout).ok()?.trim().to_owned())
}
