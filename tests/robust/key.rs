//! The key a case packet prints (`rerun: case --seed S --year Y --first-number N`) makes that case again
//! byte for byte for any number a batch can reach, past 9 999 too (issue 14, point 7); a batch that would
//! reach past the highest number is refused up front, naming the options.

use crate::support::blockprint_in as blockprint;

#[test]
fn the_printed_key_remakes_cases_numbered_past_9999() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = [
        "case",
        "--seed",
        "3",
        "--first-number",
        "9999",
        "--count",
        "2",
        "--format",
        "pdf,json",
        "--quiet",
        "--out",
        "batch",
    ];
    let o = blockprint(d, &args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // The key lives in the case's JSON (and Markdown), not on the GM's paper.
    let gm = d.join("batch/cases/1976-10000/1976-10000-gm.pdf");
    let text = pdf_extract::extract_text(&gm).unwrap();
    assert!(!text.contains("rerun") && !text.contains("--first-number"));
    let json: serde_json::Value = serde_json::from_slice(
        &std::fs::read(d.join("batch/cases/1976-10000/1976-10000.json")).unwrap(),
    )
    .unwrap();
    let key: Vec<&str> = json["rerun"]
        .as_str()
        .expect("a rerun key in the JSON")
        .split_whitespace()
        .collect();
    assert_eq!(
        key,
        [
            "case",
            "--seed",
            "3",
            "--year",
            "1976",
            "--first-number",
            "10000"
        ]
    );
    let mut again = key.clone();
    again.extend(["--format", "pdf,json", "--quiet", "--out", "again"]);
    let o = blockprint(d, &again);
    assert_eq!(
        o.status.code(),
        Some(0),
        "the key is refused: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    for f in [
        "1976-10000-gm.pdf",
        "1976-10000-handout.pdf",
        "1976-10000.json",
    ] {
        let a = std::fs::read(d.join("batch/cases/1976-10000").join(f)).unwrap();
        let b = std::fs::read(d.join("again/cases/1976-10000").join(f)).unwrap();
        assert!(a == b, "{f} made by its key differs");
    }
}

#[test]
fn a_batch_numbered_past_the_highest_number_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let o = blockprint(
        dir.path(),
        &[
            "case",
            "--seed",
            "3",
            "--first-number",
            "99998",
            "--count",
            "3",
            "--out",
            "x",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--first-number 99998") && err.contains("99997"),
        "{err}"
    );
    assert!(
        !dir.path().join("x/cases").exists()
            || std::fs::read_dir(dir.path().join("x/cases"))
                .unwrap()
                .count()
                == 0
    );
}
