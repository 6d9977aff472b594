//! The golden files pin what an output says, not which content it was made from: wherever an output
//! prints the content version, its golden file holds `<content-version>` instead
//! (`support::golden_files` masks it both when comparing and when blessing), so an edit of the content
//! changes no golden file through its version alone.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{CONTENT_VERSION, content_version, tree};

/// Every golden file: the folder `tests/golden` and the checker fixtures' expected reports.
fn goldens() -> BTreeMap<String, Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut all: BTreeMap<String, Vec<u8>> = tree(&root.join("golden"))
        .into_iter()
        .map(|(name, bytes)| (format!("tests/golden/{name}"), bytes))
        .collect();
    for (name, bytes) in tree(&root.join("fixtures/check")) {
        if name.ends_with("expected.txt") {
            all.insert(format!("tests/fixtures/check/{name}"), bytes);
        }
    }
    all
}

/// The 12-hex versions a text prints where a content version stands: after `content ` (Markdown
/// footers, provenance lines) or `"content_version": "` (JSON).
fn printed_versions(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for marker in ["content ", "\"content_version\": \""] {
        for (at, _) in text.match_indices(marker) {
            let rest = &text[at + marker.len()..];
            let hex = rest
                .bytes()
                .take_while(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
                .count();
            if hex == 12 {
                found.push(rest[..12].to_owned());
            }
        }
    }
    found
}

#[test]
fn no_golden_holds_a_real_content_version() {
    if std::env::var_os("BLOCKPRINT_BLESS").is_some() {
        // The other tests are rewriting the golden files right now; the next run checks them.
        eprintln!("SKIPPED while BLOCKPRINT_BLESS rewrites the golden files");
        return;
    }
    let version = content_version();
    let goldens = goldens();
    assert!(goldens.len() > 100, "{} golden files", goldens.len());
    let mut real = Vec::new();
    for (name, bytes) in &goldens {
        let text = String::from_utf8_lossy(bytes);
        let mut found: std::collections::BTreeSet<String> =
            printed_versions(&text).into_iter().collect();
        if text.contains(version) {
            found.insert(version.to_owned());
        }
        if !found.is_empty() {
            real.push(format!("{name}: {}", Vec::from_iter(found).join(", ")));
        }
    }
    assert!(
        real.is_empty(),
        "golden files that hold a content version instead of {CONTENT_VERSION} (bless them with \
         BLOCKPRINT_BLESS=1 through support::golden_files):\n{}",
        real.join("\n")
    );
    // The placeholder stands where JSON prints the version (no reader's Markdown prints it).
    let (name, line) = (
        "tests/golden/cases-seed-42/cases/1976-01/1976-01.json",
        "\"content_version\": \"<content-version>\"",
    );
    let text = String::from_utf8_lossy(&goldens[name]);
    assert!(text.contains(line), "{name} lacks {line:?}");
}

#[test]
fn printed_versions_are_found_after_their_markers_only() {
    assert_eq!(
        printed_versions(
            "Batch seed 42 · content 0123456789ab · blockprint\n  \"content_version\": \"a300e8785dae\",\n"
        ),
        ["0123456789ab", "a300e8785dae"]
    );
    // Not 12 hex digits, upper case, or no marker: not a version.
    assert!(
        printed_versions(
            "content 0123456789abc content 0123456789AB content <content-version> 0123456789ab"
        )
        .is_empty()
    );
}
