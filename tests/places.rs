//! Every refusal names its place (issue 39, item 5): on stderr's first line, the folder and what it
//! lacks, and the fix; no progress line before an error.

use crate::support::{blockprint, stderr};

#[test]
fn a_chase_question_on_content_lacking_its_tables_names_the_folder_the_table_and_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("mine");
    std::fs::create_dir_all(&content).unwrap();
    // Content of the GM's own: Block by Block's, without the Call of Cthulhu tables the seeded track
    // rolls on.
    let init = dir.path().join("all");
    crate::support::ok(&blockprint(&["init", init.to_str().unwrap()]));
    std::fs::rename(init.join("bbb"), content.join("bbb")).unwrap();
    let c = content.to_str().unwrap();
    let o = blockprint(&["chase", "odds", "coc", "--content", c]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let first = err.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        format!(
            "error: the content in {c} has no table `coc.hazard.random`, which --track-seed rolls on"
        ),
        "{err}"
    );
    assert!(
        err.contains(&format!("= help: add it (`blockprint init --update {c}`"))
            && err.contains("--track GAPS"),
        "{err}"
    );
}

#[test]
fn serve_refuses_a_missing_folder_before_any_progress_line() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let m = missing.to_str().unwrap();
    let out = dir.path().join("out");
    for flag in ["--content", "--templates"] {
        let o = blockprint(&[
            "serve",
            flag,
            m,
            "--port",
            "0",
            "--out",
            out.to_str().unwrap(),
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(
            err.lines().next(),
            Some(format!("error: {flag} {m}: no such folder").as_str()),
            "{err}"
        );
    }
}
