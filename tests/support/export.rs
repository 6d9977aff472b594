//! `blockprint export` for the tests: run it into an output folder and read back what it wrote under
//! `<out>/export/`. Every export run of the export tests goes through here.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

/// Run `blockprint export --out OUT ARGS…` and hand back what it printed and its status, unchecked.
pub fn run(out: &Path, args: &[&str]) -> Output {
    let mut all = vec!["export", "--out", out.to_str().expect("a UTF-8 path")];
    all.extend_from_slice(args);
    super::blockprint(&all)
}

/// Run `blockprint export --quiet --out OUT ARGS…`, which must succeed, and read every file under
/// `OUT/export/` (relative name → bytes).
pub fn files(out: &Path, args: &[&str]) -> BTreeMap<String, Vec<u8>> {
    let mut all = vec!["--quiet"];
    all.extend_from_slice(args);
    super::ok(&run(out, &all));
    super::tree(&out.join("export"))
}

/// The bytes of `OUT/export/REL`.
pub fn bytes(out: &Path, rel: &str) -> Vec<u8> {
    let path = out.join("export").join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `OUT/export/REL` read as JSON.
pub fn json(out: &Path, rel: &str) -> serde_json::Value {
    serde_json::from_slice(&bytes(out, rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `OUT/export/REL` read as UTF-8 text.
pub fn text(out: &Path, rel: &str) -> String {
    String::from_utf8(bytes(out, rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}
