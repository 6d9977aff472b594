//! Diagnostics in chapter Markdown point at the source as written: smart punctuation turns `"`, `'`, `--`,
//! `---` and `...` into characters of other lengths, escapes and entities shorten the text, and none of it
//! may move a caret (tests/fixtures/check/unknown_reference_smart_punctuation).

use std::path::Path;

fn check(format: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/check/unknown_reference_smart_punctuation");
    let out =
        crate::support::blockprint_in(&dir, &["check", "--content", "content", "--format", format]);
    assert_eq!(out.status.code(), Some(1));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn carets_in_prose_stay_put_after_smart_punctuation() {
    let v: serde_json::Value = serde_json::from_str(&check("json")).unwrap();
    let got: Vec<(String, u64, u64, String)> = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["kind"].as_str().unwrap().to_owned(),
                d["line"].as_u64().unwrap(),
                d["column"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let want = [
        (
            "unknown_reference",
            9,
            49,
            "`{table:x.nowhere}` names no table",
        ),
        (
            "unknown_reference",
            9,
            81,
            "`{tabel:x.district}` is not a directive",
        ),
        (
            "broken_link",
            11,
            49,
            "links to `#nowhere`, which is not a heading of chapter `one`",
        ),
        (
            "unknown_reference",
            11,
            91,
            "`{lookup:x.none}` names no lookup",
        ),
    ];
    assert_eq!(
        got,
        want.map(|(k, l, c, m)| (k.to_owned(), l, c, m.to_owned())),
        "{v:#}"
    );

    // The text report underlines exactly the directive, under its first character.
    let text = check("text");
    let source9 = "She said \"don't\" -- twice... then rolled on the {table:x.nowhere} table and the {tabel:x.district} one.";
    assert!(text.contains(&format!("9 │ {source9}\n")), "{text}");
    assert!(
        text.contains(&format!("  │ {}{}\n", " ".repeat(48), "^".repeat(17))),
        "caret under `{{table:x.nowhere}}`:\n{text}"
    );
    assert!(
        text.contains(&format!("  │ {}{}\n", " ".repeat(80), "^".repeat(18))),
        "caret under `{{tabel:x.district}}`:\n{text}"
    );
    assert!(
        text.contains(&format!("   │ {}{}\n", " ".repeat(90), "^".repeat(15))),
        "caret under `{{lookup:x.none}}`:\n{text}"
    );
}
