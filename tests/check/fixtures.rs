//! One fixture folder per checker kind under `tests/fixtures/check/<kind>/`: `content/` holds the broken
//! input, `expected.txt` the exact report `blockprint check` prints. Run with `BLOCKPRINT_BLESS=1` to rewrite
//! the expectations after an intended change (then read the diff).

use std::path::Path;

fn fixtures() -> Vec<std::path::PathBuf> {
    let mut dirs: Vec<_> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/check"))
            .expect("fixture folder")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.is_dir())
            .collect();
    dirs.sort();
    dirs
}

fn check(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["check", "--content", "content"];
    all.extend_from_slice(args);
    let out = crate::support::blockprint_in(dir, &all);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn every_kind_has_a_fixture() {
    let names: Vec<String> = fixtures()
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for kind in [
        "parse",
        "schema",
        "bad_id",
        "duplicate_id",
        "bad_dice",
        "bad_range",
        "gap",
        "overlap",
        "out_of_range",
        "unknown_reference",
        "reference_cycle",
        "unbalanced_brace",
        "missing_card",
        "duplicate_card",
        "duplicate_key",
        "bad_value",
        "bad_band",
        "duplicate_result",
        "raw_alternative",
        "missing_requirement",
        "track_order",
        "track_path",
        "track_exit",
        "track_start",
        "bad_claim",
        "unexportable",
    ] {
        assert!(names.iter().any(|n| n == kind), "no fixture for `{kind}`");
    }
}

#[test]
fn text_reports_match_expected() {
    for dir in fixtures() {
        let (code, stdout, stderr) = check(&dir, &[]);
        crate::support::golden_files(&dir, [("expected.txt", stdout)]);
        assert!(
            stderr.is_empty(),
            "{}: unexpected stderr {stderr}",
            dir.display()
        );
        let warning_only = dir.ends_with("duplicate_result")
            || dir.ends_with("raw_alternative")
            || dir.ends_with("unlisted_chapter")
            || dir.ends_with("own_table");
        assert_eq!(
            code,
            if warning_only { 0 } else { 1 },
            "exit code for {}",
            dir.display()
        );
    }
}

#[test]
fn json_reports_name_kind_file_line_and_column() {
    for dir in fixtures() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let (_, stdout, _) = check(&dir, &["--format", "json"]);
        let v: serde_json::Value = serde_json::from_str(&stdout).expect("json");
        let all: Vec<&serde_json::Value> = v["errors"]
            .as_array()
            .unwrap()
            .iter()
            .chain(v["warnings"].as_array().unwrap())
            .chain(v["notes"].as_array().unwrap())
            .collect();
        assert!(
            all.iter()
                .any(|d| name.starts_with(d["kind"].as_str().unwrap())),
            "{name}: no diagnostic of its kind in {stdout}"
        );
        for d in all {
            assert!(
                d["file"] == "t.toml" || d["file"].as_str().unwrap().ends_with(".md"),
                "{name}: {d}"
            );
            assert!(
                d["line"].as_u64().unwrap() >= 1 && d["column"].as_u64().unwrap() >= 1,
                "{name}: {d}"
            );
            assert!(!d["message"].as_str().unwrap().is_empty());
            for key in [
                "kind", "file", "line", "column", "table", "message", "outcomes",
            ] {
                assert!(d.get(key).is_some(), "{name}: diagnostic lacks `{key}`");
            }
        }
    }
}

#[test]
fn gap_lists_the_missing_outcomes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/check/gap");
    let (_, stdout, _) = check(&dir, &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let d = &v["errors"][0];
    assert_eq!(d["kind"], "gap");
    assert_eq!(d["table"], "x.district");
    assert_eq!(d["outcomes"], serde_json::json!([8]));
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(4), Some(8))
    );
}

#[test]
fn overlap_names_both_rows_and_shared_outcomes() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/check/overlap");
    let (_, stdout, _) = check(&dir, &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let d = &v["errors"][0];
    assert_eq!(d["kind"], "overlap");
    assert_eq!(
        d["outcomes"],
        serde_json::json!([50, 51, 52, 53, 54, 55, 56, 57])
    );
    assert_eq!(d["line"], 7);
}
