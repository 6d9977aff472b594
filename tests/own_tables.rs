//! A GM's own tables need no chapter: a table outside the rules' namespaces (no built-in table's id
//! starts with its first two segments, and no chapter places one that does) or an imported one is a note,
//! not an `unplaced_table` error; the SRD leaves it out, or prints it in Appendix A when the book says
//! `own_tables = "appendix"`. A table in a rules namespace still has to be placed.

use std::path::Path;

use crate::support::{blockprint, ok, s, stdout};

const OWN: &str = r#"
[[table]]
id = "bbb.weather.rain"
title = "Rain"
dice = "1d6"
editorial = "a fill of my own"
rows = [ { on = "1-3", result = "Dry spell" }, { on = "4-6", result = "Downpour" } ]

[[table]]
id = "bbb.homicide.extra"
title = "Extra motive"
dice = "1d2"
imported = "CSV, extra.csv"
rows = [ { on = "1", result = "Jealousy" }, { on = "2", result = "Greed" } ]
"#;

const UNPLACED: &str = r#"
[[table]]
id = "bbb.homicide.unplaced"
title = "Unplaced"
dice = "1d2"
rows = [ { on = "1", result = "A" }, { on = "2", result = "B" } ]
"#;

fn init(dir: &Path, extra: &str) -> std::path::PathBuf {
    let content = dir.join("c");
    ok(&blockprint(&["init", s(&content)]));
    std::fs::write(content.join("bbb/own.toml"), extra).unwrap();
    content
}

fn check_json(content: &Path) -> (Option<i32>, serde_json::Value) {
    let out = blockprint(&["check", "--content", s(content), "--json"]);
    (
        out.status.code(),
        serde_json::from_slice(&out.stdout).unwrap(),
    )
}

fn summary(v: &serde_json::Value, key: &str) -> Vec<(String, String, u64, String)> {
    v[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["kind"].as_str().unwrap().to_owned(),
                d["file"].as_str().unwrap().to_owned(),
                d["line"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn own_and_imported_tables_are_notes_and_rules_tables_must_be_placed() {
    let dir = tempfile::tempdir().unwrap();
    let content = init(dir.path(), &format!("{OWN}{UNPLACED}"));
    let (code, v) = check_json(&content);
    assert_eq!(code, Some(1), "{v:#}");
    assert_eq!(
        summary(&v, "errors"),
        [(
            "unplaced_table".to_owned(),
            "bbb/own.toml".to_owned(),
            17,
            "table `bbb.homicide.unplaced` is not placed in any chapter".to_owned()
        )]
    );
    let notes = [
        (
            "own_table".to_owned(),
            "bbb/own.toml".to_owned(),
            3,
            "table `bbb.weather.rain` is your own (no table of the rules has an id starting `bbb.weather.`) and no chapter places it: the book `bbb.srd` leaves it out".to_owned(),
        ),
        (
            "own_table".to_owned(),
            "bbb/own.toml".to_owned(),
            10,
            "table `bbb.homicide.extra` is your own (it is imported) and no chapter places it: the book `bbb.srd` leaves it out".to_owned(),
        ),
    ];
    assert_eq!(summary(&v, "notes"), notes);
    assert!(
        summary(&v, "warnings")
            .iter()
            .all(|w| w.0 != "own_table" && w.0 != "unplaced_table")
    );

    // Without the unplaced rules table the content checks out; the text report says "note" and counts it.
    std::fs::write(content.join("bbb/own.toml"), OWN).unwrap();
    let out = blockprint(&["check", "--content", s(&content)]);
    ok(&out);
    let text = stdout(&out);
    assert!(
        text.contains("note[own_table]: table `bbb.weather.rain` is your own"),
        "{text}"
    );
    assert!(text.contains(": 0 errors, 3 warnings, 2 notes, "), "{text}");
    let v = check_json(&content).1;
    assert_eq!(summary(&v, "notes"), notes);

    // The built-in content has no table of anyone's own: no note.
    let out = blockprint(&["check", "--json"]);
    ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["notes"], serde_json::json!([]));
}

#[test]
fn the_srd_leaves_own_tables_out_or_prints_them_in_appendix_a() {
    let dir = tempfile::tempdir().unwrap();
    let content = init(dir.path(), OWN);
    let srd = |out: &str| {
        let o = dir.path().join(out);
        ok(&blockprint(&[
            "srd",
            "--content",
            s(&content),
            "--out",
            s(&o),
            "--format",
            "md",
            "--quiet",
        ]));
        std::fs::read_to_string(o.join("srd/block-by-block-srd.md")).unwrap()
    };
    let left_out = srd("left-out");
    for absent in [
        "Rain",
        "Dry spell",
        "Extra motive",
        "Jealousy",
        "a fill of my own",
    ] {
        assert!(!left_out.contains(absent), "{absent} printed");
    }

    let book = content.join("bbb/srd/book.toml");
    let toml = std::fs::read_to_string(&book).unwrap();
    let toml = toml.replacen("[[book]]\n", "[[book]]\nown_tables = \"appendix\"\n", 1);
    std::fs::write(&book, &toml).unwrap();
    let v = check_json(&content).1;
    assert!(
        summary(&v, "notes")[0]
            .3
            .ends_with("the book `bbb.srd` prints it in Appendix A (`own_tables = \"appendix\"`)"),
        "{v:#}"
    );
    let appendix = srd("appendix");
    let a = appendix
        .find("# Appendix A: All tables")
        .expect("appendix A");
    let b = appendix.find("# Appendix B").expect("appendix B");
    let all_tables = &appendix[a..b];
    let rain = all_tables
        .find("**Rain** † — roll 1d6")
        .unwrap_or_else(|| panic!("Rain in appendix A:\n{all_tables}"));
    let extra = all_tables
        .find("**Extra motive** — roll 1d2")
        .expect("Extra motive in appendix A");
    assert!(rain < extra, "in content order");
    assert!(all_tables[rain..].contains("| 1-3 | Dry spell | 50.00% (1/2) |"));
    assert!(appendix.contains("a fill of my own"));
    // Nowhere but the appendix.
    assert_eq!(appendix.matches("Dry spell").count(), 1);

    // A value the book does not know is a schema error at its place.
    std::fs::write(&book, toml.replace("\"appendix\"", "\"index\"")).unwrap();
    let (code, v) = check_json(&content);
    assert_eq!(code, Some(1));
    assert_eq!(summary(&v, "errors")[0].0, "schema", "{v:#}");
    assert_eq!(summary(&v, "errors")[0].1, "bbb/srd/book.toml", "{v:#}");
}
