//! The Call of Cthulhu-style kit's checklist (`content/coc/kit/checklist.md`): every chase rule of the
//! source a Keeper needs, mapped to the document that prints it, the heading of its prose page and a
//! phrase it prints. Each mapped heading must still be a part of the document's prose, and each phrase
//! must be in the document's PDF text and its Markdown (issue 28, "Done when").

use std::collections::BTreeMap;

use super::sentences::{has, md_lines, pdf_lines};
use crate::support::{blockprint, ok, s, tree};

const CHECKLIST: &str = include_str!("../../content/coc/kit/checklist.md");

/// The checklist's rows: (rule, document, heading anchor or `—`, phrase).
fn rows() -> Vec<[String; 4]> {
    CHECKLIST
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| Rule of the source"))
        .map(|l| {
            let cells: Vec<String> = l
                .trim()
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_owned())
                .collect();
            <[String; 4]>::try_from(cells).unwrap_or_else(|c| panic!("a row of four cells: {c:?}"))
        })
        .collect()
}

/// What one row lacks in the kit's files (`<document>.json`, `.md`, `.pdf`), if anything.
fn lacks(files: &BTreeMap<String, Vec<u8>>, row: &[String; 4]) -> Option<String> {
    let [rule, doc, heading, phrase] = row;
    let json: serde_json::Value =
        serde_json::from_slice(files.get(&format!("{doc}.json"))?).ok()?;
    if heading != "—" {
        let order = json["prose"]["order"].as_array()?;
        if !order.iter().any(|a| a == heading.as_str()) {
            return Some(format!("{rule}: {doc} has no heading `{heading}`"));
        }
    }
    let want = md_lines(phrase).concat();
    let md = md_lines(&String::from_utf8_lossy(files.get(&format!("{doc}.md"))?)).concat();
    let pdf = pdf_lines(files.get(&format!("{doc}.pdf"))?).concat();
    for (what, text) in [("Markdown", md), ("PDF", pdf)] {
        if !has(&text, &want) {
            return Some(format!("{rule}: the {what} of {doc} lacks “{phrase}”"));
        }
    }
    None
}

#[test]
fn every_rule_of_the_checklist_is_where_it_says() {
    let rows = rows();
    assert_eq!(rows.len(), 55, "the checklist's rows");
    let tmp = tempfile::tempdir().unwrap();
    ok(&blockprint(&["kit", "coc", "--out", s(tmp.path())]));
    let files = tree(&tmp.path().join("kits/coc"));
    let failures: Vec<String> = rows.iter().filter_map(|r| lacks(&files, r)).collect();
    assert!(failures.is_empty(), "{failures:#?}");
    // A heading or phrase that is gone is reported.
    let gone = [
        "Hiding".into(),
        "rules".into(),
        "hiding-in-the-dark".into(),
        "a Tracking roll".into(),
    ];
    assert_eq!(
        lacks(&files, &gone).as_deref(),
        Some("Hiding: rules has no heading `hiding-in-the-dark`")
    );
    let gone = [
        "Tyres".into(),
        "rules".into(),
        "shooting".into(),
        "a burst tyre costs 2 Build".into(),
    ];
    assert_eq!(
        lacks(&files, &gone).as_deref(),
        Some("Tyres: the Markdown of rules lacks “a burst tyre costs 2 Build”")
    );
}
