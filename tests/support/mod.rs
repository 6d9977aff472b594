//! Helpers the integration tests share.
#![allow(dead_code)]

pub mod glyphs;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

/// Run the built binary with `args`, without `SOURCE_DATE_EPOCH` (so PDFs carry no timestamp).
pub fn blockprint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_blockprint"))
        .args(args)
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .expect("run blockprint")
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
