//! One contract between `check` and the outputs (issue 39, item 1): whatever `check` accepts, every
//! kind and every export makes. For each class of character the hostile payloads use (each ASCII
//! punctuation mark on its own, since each format treats them differently; letters of each script
//! family, combining marks, emoji, tabs, invisible spaces; and the line break, which Roll20 has not),
//! a table holding it at the start, in the middle and at the end of a result goes into an `init` copy of
//! the built-in content, placed in a chapter. `check` must accept it, `build` must make every kind from
//! it (exit 0), and each export must carry the text as its tabletop reads it: Foundry VTT's `name` and
//! the CSV files exactly, Foundry's HTML fields escaped with `<br>` for a line break, Roll20's item on
//! one line with ` / ` for a line break, the pipe form as Foundry's HTML with `¦` for `|`.

use std::collections::BTreeSet;
use std::path::Path;

use crate::support::{blockprint, ok, stderr};

/// The character classes of the hostile payloads, each with a sample of the payloads' own characters.
fn classes() -> Vec<(String, String)> {
    let mut seen = BTreeSet::new();
    let mut out: Vec<(String, String)> = Vec::new();
    let mut add = |name: String, sample: String| {
        if seen.insert(name.clone()) {
            out.push((name, sample));
        }
    };
    for (_, payload) in crate::hostile::payloads() {
        for c in payload.chars() {
            let (name, sample) = match c {
                // Braces are the content's own syntax (`{1d6}`, `{table:ID}`), never literal text.
                '{' | '}' => continue,
                c if c.is_ascii_alphanumeric() || c == ' ' => continue,
                c if c.is_ascii_punctuation() => (format!("ASCII `{c}`"), c.to_string()),
                '\t' => ("tab".into(), "a\tb".into()),
                '\u{300}'..='\u{36f}' => ("combining mark".into(), format!("e{c}")),
                '\u{590}'..='\u{5ff}' => ("Hebrew".into(), "דוד".into()),
                '\u{600}'..='\u{6ff}' => ("Arabic".into(), "محمد".into()),
                '\u{200b}'..='\u{200f}' | '\u{2060}' | '\u{fe0f}' => (
                    format!("format character U+{:04X}", c as u32),
                    c.to_string(),
                ),
                '\u{a0}' | '\u{202f}' => (format!("space U+{:04X}", c as u32), c.to_string()),
                '\u{1f000}'..='\u{1faff}' | '\u{2600}'..='\u{27bf}' => {
                    ("emoji".into(), "🕵️‍♀️ 🇫🇷 👍🏽".into())
                }
                c if c.is_alphabetic() => {
                    (format!("letters of U+{:X}xx", c as u32 >> 8), c.to_string())
                }
                c => (format!("other U+{:04X}", c as u32), c.to_string()),
            };
            add(name, sample);
        }
    }
    // What no payload holds but content may: line breaks, alone, in runs and as CR LF.
    add("line break".into(), "one\ntwo".into());
    add("paragraph break".into(), "one\n\ntwo".into());
    add("CR LF".into(), "one\r\ntwo".into());
    out
}

/// A table's title: the sample on one line (a title is a heading), then the class.
fn title(sample: &str, name: &str) -> String {
    format!("{} {name}", sample.replace(['\n', '\r'], " "))
}

/// A TOML basic string.
fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

fn html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace("\r\n", "<br>")
        .replace(['\n', '\r'], "<br>")
}

/// Roll20's item: one line, each run of line breaks (and the spaces around it) ` / `, outer spaces off.
fn one_line(s: &str) -> String {
    s.split(['\n', '\r'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" / ")
        .trim()
        .to_owned()
}

/// TableExport 0.2.3's `!import-table-item` arguments and its unescaping.
fn roll20_items(txt: &str, table: &str) -> Vec<String> {
    let head = format!("!import-table-item --{table} --");
    txt.lines()
        .filter_map(|l| l.strip_prefix(&head))
        .map(|rest| {
            let text = rest.rsplitn(3, " --").nth(2).unwrap_or_default();
            text.replace("[TABLEEXPORT:ESCAPE]", " --")
                .replace("<%%91%%>", "[")
                .replace("<%%93%%>", "]")
                .replace("<%%-%%>", "--")
        })
        .collect()
}

#[test]
fn every_character_class_check_accepts_every_kind_and_export_makes() {
    let classes = classes();
    assert!(classes.len() > 40, "{} classes", classes.len());
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    ok(&blockprint(&["init", content.to_str().unwrap()]));
    let mut tables = String::new();
    let mut placed = String::from("\n");
    let mut results = Vec::new();
    for (i, (name, sample)) in classes.iter().enumerate() {
        let id = format!("bbb.contract.c{i:02}");
        let result = format!("{sample} Mid{sample}dle {sample}");
        tables.push_str(&format!(
            "[[table]]\nid = \"{id}\"\ntitle = {}\ndice = \"1d2\"\nrows = [\n  {{ on = \"1\", result = {} }},\n  {{ on = \"2\", result = \"Plain\" }},\n]\n\n",
            toml_str(&title(sample, name)),
            toml_str(&result)
        ));
        placed.push_str(&format!("{{table:{id}}}\n\n"));
        results.push((id, name.clone(), title(sample, name), result));
    }
    std::fs::write(content.join("bbb/99-contract.toml"), tables).unwrap();
    let chapter = content.join("bbb/srd/dice.md");
    let text = std::fs::read_to_string(&chapter).unwrap();
    std::fs::write(&chapter, text + &placed).unwrap();
    let c = content.to_str().unwrap();
    let o = blockprint(&["check", "--content", c]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = dir.path().join("out");
    let o = blockprint(&[
        "build",
        "--seed",
        "3",
        "--count",
        "1",
        "--content",
        c,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for folder in [
        "tables",
        "cases",
        "srd",
        "pregenerated",
        "stock-npcs",
        "sheet",
        "cards/bbb",
        "cards/decks",
        "kits/bbb",
        "kits/coc",
        "kits/rbf",
        "kits/storypath",
        "kits/urban-world",
        "export/foundry-v13",
        "export/foundry-v12",
        "export/roll20",
        "export/csv",
    ] {
        assert!(
            out.join(folder).join("manifest.json").is_file(),
            "{folder} not made"
        );
    }
    check_exports(&out, &results);
}

fn check_exports(out: &Path, results: &[(String, String, String, String)]) {
    let read = |rel: &str| std::fs::read_to_string(out.join(rel)).unwrap();
    let roll20 = read("export/roll20/tables.txt");
    let tables_json: serde_json::Value = serde_json::from_str(&read("tables/tables.json")).unwrap();
    // The documents set typographic quotes (the hostile suite allows it); every other character is kept.
    let straight = |s: &str| s.replace(['‘', '’'], "'").replace(['“', '”'], "\"");
    fn strings(v: &serde_json::Value, out: &mut BTreeSet<String>) {
        match v {
            serde_json::Value::String(s) => {
                out.insert(s.clone());
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
            serde_json::Value::Object(m) => m.values().for_each(|x| strings(x, out)),
            _ => {}
        }
    }
    let mut texts = BTreeSet::new();
    strings(&tables_json, &mut texts);
    let texts: BTreeSet<String> = texts.iter().map(|t| straight(t)).collect();
    for (id, class, title, result) in results {
        let slug = id.replace('.', "_");
        let v13: serde_json::Value =
            serde_json::from_str(&read(&format!("export/foundry-v13/tables/{slug}.json"))).unwrap();
        assert_eq!(v13["name"], title.as_str(), "{class}: v13 name");
        assert_eq!(
            v13["results"][0]["name"],
            result.as_str(),
            "{class}: v13 result name"
        );
        assert_eq!(
            v13["results"][0]["description"],
            format!("<p>{}</p>", html(result)),
            "{class}: v13 description"
        );
        let v12: serde_json::Value =
            serde_json::from_str(&read(&format!("export/foundry-v12/tables/{slug}.json"))).unwrap();
        assert_eq!(v12["results"][0]["text"], html(result), "{class}: v12 text");
        let mut csv = csv::Reader::from_path(out.join(format!("export/csv/{slug}.csv"))).unwrap();
        let first = csv.records().next().unwrap().unwrap();
        assert_eq!(&first[2], result.as_str(), "{class}: CSV");
        let pipe = read(&format!("export/csv/pipe/{slug}.csv"));
        assert_eq!(
            pipe,
            format!("1|{}\n2|Plain\n", html(result).replace('|', "¦")),
            "{class}: pipe"
        );
        assert_eq!(
            roll20_items(&roll20, &slug),
            [one_line(result), "Plain".to_owned()],
            "{class}: Roll20"
        );
        assert!(
            texts.contains(&straight(result)),
            "{class}: tables.json lacks {result:?}"
        );
    }
}
