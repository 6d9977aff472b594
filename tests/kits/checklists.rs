//! The checklists of the chase kits (`content/<game>/kit/checklist.md`: Call of Cthulhu-style, Urban World,
//! Ready/Bolt/Flow, Storypath and Block by Block): every chase rule of each source a GM needs, mapped to the document that prints it, the heading of
//! its prose page and a phrase it prints. Each mapped heading must still be a part of the document's
//! prose, and each phrase must be in the document's PDF text and its Markdown (issue 28, "Done when").

use std::collections::BTreeMap;

use super::sentences::{has, md_lines, pdf_lines};
use crate::support::{blockprint, ok, s, tree};

/// Each kit's checklist and how many rules it maps.
const CHECKLISTS: [(&str, &str, usize); 5] = [
    (
        "coc",
        include_str!("../../content/coc/kit/checklist.md"),
        59,
    ),
    (
        "urban-world",
        include_str!("../../content/urban-world/kit/checklist.md"),
        31,
    ),
    (
        "rbf",
        include_str!("../../content/rbf/kit/checklist.md"),
        33,
    ),
    (
        "storypath",
        include_str!("../../content/storypath/kit/checklist.md"),
        42,
    ),
    (
        "bbb",
        include_str!("../../content/bbb/kit/checklist.md"),
        32,
    ),
];

/// A checklist's rows: (rule, document, heading anchor or `—`, phrase).
fn rows(checklist: &str) -> Vec<[String; 4]> {
    checklist
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

/// What one row lacks in a kit's files (`<document>.json`, `.md`, `.pdf`), if anything.
fn lacks(files: &BTreeMap<String, Vec<u8>>, row: &[String; 4]) -> Option<String> {
    let [rule, doc, heading, phrase] = row;
    let Some(json) = files.get(&format!("{doc}.json")) else {
        return Some(format!("{rule}: the kit makes no document `{doc}`"));
    };
    let json: serde_json::Value = serde_json::from_slice(json).expect("a document's JSON");
    if heading != "—" {
        // The document's prose pages: each object with a `slug` and the `order` of its parts (`prose`;
        // `procedure` and `mat` in the Block by Block kit).
        let pages = json.as_object().into_iter().flat_map(|o| o.values());
        let mut anchors = pages
            .filter(|v| v["slug"].is_string())
            .filter_map(|v| v["order"].as_array())
            .flatten();
        if !anchors.any(|a| a == heading.as_str()) {
            return Some(format!("{rule}: {doc} has no heading `{heading}`"));
        }
    }
    let want = md_lines(phrase).concat();
    let md = md_lines(&String::from_utf8_lossy(&files[&format!("{doc}.md")])).concat();
    let pdf = pdf_lines(&files[&format!("{doc}.pdf")]).concat();
    for (what, text) in [("Markdown", md), ("PDF", pdf)] {
        if !has(&text, &want) {
            return Some(format!("{rule}: the {what} of {doc} lacks “{phrase}”"));
        }
    }
    None
}

#[test]
fn every_rule_of_each_kits_checklist_is_where_it_says() {
    let tmp = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut kits = BTreeMap::new();
    for (game, checklist, n) in CHECKLISTS {
        let rows = rows(checklist);
        assert_eq!(rows.len(), n, "the rows of the {game} checklist");
        ok(&blockprint(&["kit", game, "--out", s(tmp.path())]));
        let files = tree(&tmp.path().join("kits").join(game));
        failures.extend(rows.iter().filter_map(|r| lacks(&files, r)));
        kits.insert(game, files);
    }
    assert!(failures.is_empty(), "{failures:#?}");
    // A heading or phrase that is gone is reported, and so is a document the kit does not make.
    let row = |r: [&str; 4]| r.map(str::to_owned);
    assert_eq!(
        lacks(
            &kits["bbb"],
            &row(["Tailing", "chase", "tailing", "a Wisdom check"])
        )
        .as_deref(),
        Some("Tailing: chase has no heading `tailing`")
    );
    assert_eq!(
        lacks(
            &kits["urban-world"],
            &row([
                "Singleton",
                "urban-world",
                "the-singleton-rule",
                "no one may ever come back"
            ])
        )
        .as_deref(),
        Some("Singleton: the Markdown of urban-world lacks “no one may ever come back”")
    );
    assert_eq!(
        lacks(
            &kits["coc"],
            &row(["Hiding", "rules", "hiding-in-the-dark", "a Tracking roll"])
        )
        .as_deref(),
        Some("Hiding: rules has no heading `hiding-in-the-dark`")
    );
    assert_eq!(
        lacks(
            &kits["coc"],
            &row(["Tyres", "rules", "shooting", "a burst tyre costs 2 Build"])
        )
        .as_deref(),
        Some("Tyres: the Markdown of rules lacks “a burst tyre costs 2 Build”")
    );
    assert_eq!(
        lacks(
            &kits["rbf"],
            &row(["Gates", "gates", "—", "Every runner stops on a gate"])
        )
        .as_deref(),
        Some("Gates: the kit makes no document `gates`")
    );
}
