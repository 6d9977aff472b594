//! `blockprint --version`: the version, the git commit the binary was built from (build.rs), and the
//! version of the content compiled into it, which must be the fingerprint the manifests carry.

use std::process::Command;

use crate::support::{blockprint, bp};

/// (commit, content) out of `blockprint 0.1.0 (commit <c>, content <v>)\n`, or a panic naming the line.
fn parse(stdout: &[u8]) -> (String, String) {
    let text = String::from_utf8(stdout.to_vec()).expect("UTF-8");
    let line = text
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("one line ending in a newline: {text:?}"));
    let rest = line
        .strip_prefix(&format!(
            "blockprint {} (commit ",
            env!("CARGO_PKG_VERSION")
        ))
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("unexpected --version line: {line:?}"));
    let (commit, content) = rest
        .split_once(", content ")
        .unwrap_or_else(|| panic!("no content version in {line:?}"));
    (commit.to_owned(), content.to_owned())
}

fn is_hex12(s: &str) -> bool {
    s.len() == 12
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[test]
fn version_names_the_content_fingerprint_the_manifests_carry() {
    let out = blockprint(&["--version"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
    let (_, content) = parse(&out.stdout);
    let (lib, _) = blockprint::content::load(&blockprint::content::ContentRoot::Embedded)
        .expect("built-in content");
    assert!(is_hex12(&lib.version), "{}", lib.version);
    assert_eq!(content, lib.version);

    // The same fingerprint a build stamps on its manifest.
    let dir = tempfile::tempdir().unwrap();
    let outdir = dir.path().join("out");
    let build = bp()
        .args(["make", "tables", "--quiet", "--out"])
        .arg(&outdir)
        .output()
        .expect("run blockprint make tables");
    assert_eq!(build.status.code(), Some(0), "{build:?}");
    let manifest = std::fs::read_to_string(outdir.join("tables/manifest.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(
        manifest["content_version"],
        serde_json::Value::from(content)
    );
}

#[test]
fn short_flag_prints_the_same_line() {
    let long = blockprint(&["--version"]);
    let short = blockprint(&["-V"]);
    assert_eq!(short.status.code(), Some(0));
    assert_eq!(short.stdout, long.stdout);
}

#[test]
fn commit_is_one_of_this_repository_when_built_from_a_checkout() {
    let (commit, _) = parse(&blockprint(&["--version"]).stdout);
    let root = env!("CARGO_MANIFEST_DIR");
    // build.rs asks git only when this folder is the top of a work tree.
    let top = Command::new("git")
        .args(["-C", root, "rev-parse", "--show-toplevel"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    let is_top =
        top.is_some_and(|t| std::fs::canonicalize(t).ok() == std::fs::canonicalize(root).ok());
    if !is_top {
        // A copy without .git: build.rs has nothing to name.
        assert_eq!(commit, "unknown");
        return;
    }
    let sha = commit
        .strip_suffix(" with local changes")
        .unwrap_or(&commit);
    assert!(is_hex12(sha), "{commit:?}");
    // Not HEAD itself: others may commit between the build and this test. The commit must exist.
    let exists = Command::new("git")
        .args(["-C", root, "cat-file", "-e", &format!("{sha}^{{commit}}")])
        .status()
        .expect("run git");
    assert!(exists.success(), "{sha} is no commit of {root}");
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    // `blockprint --version | head -c 0`: the reader is gone before anything is written.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = bp()
        .arg("--version")
        .stdout(writer)
        .output()
        .expect("run blockprint");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
}
