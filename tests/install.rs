//! What `cargo package` ships for each crate of the workspace (issue 25): `cargo install blockprint` builds
//! from these packages alone once they are published, so each must hold everything it compiles in, and
//! nothing else a user does not build from (no test, fixture, golden or output file). The whole release
//! (dist's archive, the packed crates built in release, byte-identical output) is checked by
//! `scripts/release-check.sh`, by hand before a tag; these are its quick parts, run with every test.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CARGO_TERM_COLOR", "never");
    c
}

/// The workspace's packages: name and folder.
fn members() -> BTreeMap<String, PathBuf> {
    let out = cargo()
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: BTreeSet<&str> = meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| ids.contains(p["id"].as_str().unwrap()))
        .map(|p| {
            let manifest = PathBuf::from(p["manifest_path"].as_str().unwrap());
            (
                p["name"].as_str().unwrap().to_owned(),
                manifest.parent().unwrap().to_owned(),
            )
        })
        .collect()
}

/// `cargo package --list` of one package: the paths its `.crate` would hold.
fn package_list(name: &str) -> BTreeSet<String> {
    let target = tempfile::tempdir().unwrap();
    let out = cargo()
        .args([
            "package",
            "--list",
            "--allow-dirty",
            "--offline",
            "-p",
            name,
        ])
        .env("CARGO_TARGET_DIR", target.path())
        .output()
        .expect("run cargo package --list");
    assert!(
        out.status.success(),
        "cargo package --list -p {name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Every file under `dir` (a folder of the repository), as `dir/…` with `/`.
fn files_under(dir: &str) -> BTreeSet<String> {
    files_in(Path::new(env!("CARGO_MANIFEST_DIR")), dir)
}

/// Every file under `root/dir`, as `dir/…` with `/`.
fn files_in(root: &Path, dir: &str) -> BTreeSet<String> {
    fn walk(root: &Path, rel: &str, out: &mut BTreeSet<String>) {
        for e in std::fs::read_dir(root.join(rel)).unwrap() {
            let e = e.unwrap();
            let rel = format!("{rel}/{}", e.file_name().to_str().unwrap());
            if e.file_type().unwrap().is_dir() {
                walk(root, &rel, out);
            } else {
                out.insert(rel);
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(root, dir, &mut out);
    out
}

/// The folders of the repository each package compiles in (and so must carry).
fn embedded_folders(name: &str) -> &'static [&'static str] {
    match name {
        "blockprint-content" => &["content"],
        "blockprint-render" => &["templates", "fonts"],
        _ => &[],
    }
}

#[test]
fn every_package_holds_its_sources_and_licences_and_nothing_else() {
    let members = members();
    for expected in [
        "blockprint",
        "blockprint-dice",
        "blockprint-content",
        "blockprint-kind",
        "blockprint-render",
        "blockprint-chase",
        "blockprint-kinds",
        "blockprint-app",
    ] {
        assert!(
            members.contains_key(expected),
            "{expected} is not in {members:?}"
        );
    }
    for (name, dir) in &members {
        let list = package_list(name);
        // Everything under src/ ships but the unit-test modules (a `tests.rs`, or a `tests/` folder of
        // them): a page or script a source file includes (the studio's src/studio/assets) is part of the
        // build.
        let src: BTreeSet<String> = files_in(dir, "src")
            .into_iter()
            .filter(|p| !p.ends_with("/tests.rs") && !p.contains("/tests/"))
            .collect();
        let packed_src: BTreeSet<String> = list
            .iter()
            .filter(|p| p.starts_with("src/"))
            .cloned()
            .collect();
        assert_eq!(packed_src, src, "{name}: src/ packed against on disk");
        for must in ["Cargo.toml", "LICENSE-MIT", "LICENSE-APACHE"] {
            assert!(
                list.contains(must),
                "{name}'s package lacks {must}: {list:?}"
            );
        }
        let lib_or_bin = if name == "blockprint" {
            "src/main.rs"
        } else {
            "src/lib.rs"
        };
        assert!(list.contains(lib_or_bin), "{name}: no {lib_or_bin}");
        let folders = embedded_folders(name);
        for path in &list {
            let top_level = [
                ".cargo_vcs_info.json",
                "Cargo.toml",
                "Cargo.toml.orig",
                "Cargo.lock",
                "build.rs",
                "README.md",
            ]
            .contains(&path.as_str())
                || path.starts_with("LICENSE-") && !path.contains('/');
            let source = path.starts_with("src/")
                && !path.ends_with("/tests.rs")
                && !path
                    .split('/')
                    .any(|c| ["tests", "fixtures", "fixture", "golden"].contains(&c));
            let embedded = folders.iter().any(|f| path.starts_with(&format!("{f}/")));
            assert!(
                top_level || source || embedded,
                "{name}'s package would ship {path}, which no build of it reads"
            );
        }
    }
}

#[test]
fn the_crates_that_embed_folders_carry_every_file_of_them() {
    // The links crates/content/content, crates/render/templates and crates/render/fonts make Cargo pack
    // the repository's folders; what it packs must be exactly what a build from the checkout compiles in
    // (include_dir takes every file on disk), or the published crates would carry other content.
    for name in ["blockprint-content", "blockprint-render"] {
        let list = package_list(name);
        for folder in embedded_folders(name) {
            let packed: BTreeSet<String> = list
                .iter()
                .filter(|p| p.starts_with(&format!("{folder}/")))
                .cloned()
                .collect();
            let on_disk = files_under(folder);
            assert!(!on_disk.is_empty(), "{folder}/ is empty");
            assert_eq!(packed, on_disk, "{name}: {folder}/ packed against on disk");
        }
    }
    // The application's package leaves them to those crates: it compiles none of them in.
    let root = package_list("blockprint");
    for folder in ["content", "templates", "fonts"] {
        assert!(
            !root.iter().any(|p| p.starts_with(&format!("{folder}/"))),
            "blockprint's package ships {folder}/"
        );
    }
    assert!(
        root.contains("LICENSE-fonts"),
        "the binary carries the fonts"
    );
    assert!(package_list("blockprint-render").contains("LICENSE-fonts"));
}
