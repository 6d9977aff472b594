//! `blockprint import foundry|roll20|csv FILE… --into DIR`: export → import → export is byte-identical for
//! every format, on the built-in content and on an init'd folder holding `< & > " '`, a line break, emoji
//! and CJK; weights become ranges of an exact die; what blockprint cannot read is refused with the file,
//! the table and the fix, and nothing is written; an imported table's TOML is golden.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::support::{blockprint, ok, s, stderr, tree};

const HOSTILE: &str = r#"
[[table]]
id = "mine.odd"
title = "Quotes \"q\" & <tags> 'x' 東京 🎲"
dice = "2d6"
note = "A note < & > \" '\nsecond line 🎲 東京"
rows = [
  { on = "2-6", result = "Fish & chips <b>bold</b> \"quoted\" 'single'" },
  { on = "7", result = "Line one\nline two" },
  { on = "8-11", result = "東京の夜 🎲 {1d6} hours, then {table:mine.plain}" },
  { on = "12", result = "Both {table:mine.plain} and {table:mine.odd2}" },
]

[[table]]
id = "mine.plain"
title = "Plain ‘curly’ 東京"
dice = "1d4"
rows = [
  { on = "1-2", result = "A < B & C > D \"e\" 'f' 🎲" },
  { on = "3", result = "札幌 {2d6kh1}" },
  { on = "4", result = "{3d6cs>=5} successes" },
]

[[table]]
id = "mine.odd2"
title = "Odd two"
dice = "d%"
rows = [ { on = "01-50", result = "low" }, { on = "51-00", result = "high {table:mine.plain}" } ]
"#;

/// `export --to …` of `content` (None: built-in) into `out`; the export's folder.
fn export(content: Option<&Path>, args: &[&str], out: &Path) -> PathBuf {
    let mut a = vec!["export"];
    a.extend_from_slice(args);
    if let Some(c) = content {
        a.extend(["--content", s(c)]);
    }
    a.extend(["--out", s(out), "--quiet"]);
    ok(&blockprint(&a));
    std::fs::read_dir(out.join("export"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
}

/// Every file of an export but its manifest (which names the content folder and its version).
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut t = tree(dir);
    t.remove("manifest.json");
    t
}

fn import(args: &[&str], into: &Path) {
    let mut a = vec!["import"];
    a.extend_from_slice(args);
    a.extend(["--into", s(into), "--quiet"]);
    ok(&blockprint(&a));
}

/// Export with `args`, import what `pick` names of it in `format`, export again: the same files.
fn round_trip(
    content: Option<&Path>,
    args: &[&str],
    format: &str,
    pick: &str,
    dir: &Path,
) -> usize {
    let first = export(content, args, &dir.join("first"));
    let into = dir.join("imported");
    import(&[format, s(&first.join(pick))], &into);
    let check = blockprint(&["check", "--content", s(&into)]);
    ok(&check);
    let again = export(Some(&into), args, &dir.join("again"));
    // Foundry's export also holds the decks (Cards), which are not tables: compare the tables.
    let sub = if format == "foundry" { "tables" } else { "." };
    let (a, b) = (files(&first.join(sub)), files(&again.join(sub)));
    assert!(!a.is_empty());
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (name, bytes) in &a {
        assert!(
            *bytes == b[name],
            "{format}: {name} differs after the round trip:\n{}\n---\n{}",
            String::from_utf8_lossy(bytes),
            String::from_utf8_lossy(&b[name])
        );
    }
    a.len()
}

fn hostile(dir: &Path, line_break: bool) -> PathBuf {
    let c = dir.join("content");
    ok(&blockprint(&["init", s(&c)]));
    let text = if line_break {
        HOSTILE.to_owned()
    } else {
        HOSTILE.replace("Line one\\nline two", "Line one, line two")
    };
    std::fs::write(c.join("mine.toml"), text).unwrap();
    c
}

#[test]
fn foundry_v13_and_v12_round_trip_on_the_built_in_content_and_a_hostile_folder() {
    for (version, folder) in [("13", "."), ("12", ".")] {
        let dir = tempfile::tempdir().unwrap();
        let n = round_trip(
            None,
            &["--to", "foundry", "--foundry-version", version],
            "foundry",
            folder,
            dir.path(),
        );
        assert_eq!(n, 60, "one file per table");
        let dir = tempfile::tempdir().unwrap();
        let c = hostile(dir.path(), true);
        round_trip(
            Some(&c),
            &["--to", "foundry", "--foundry-version", version],
            "foundry",
            folder,
            dir.path(),
        );
    }
}

#[test]
fn roll20_round_trips_and_weights_become_an_exact_die() {
    let dir = tempfile::tempdir().unwrap();
    round_trip(
        None,
        &["--to", "roll20"],
        "roll20",
        "tables.txt",
        dir.path(),
    );
    // District (2d6) as Roll20 weighs it: 36 ways, so one die of 36 faces with the same odds.
    let toml = std::fs::read_to_string(
        dir.path()
            .join("imported/tables/02-bbb_homicide_district.toml"),
    )
    .unwrap();
    crate::support::golden_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/import"),
        [("roll20-bbb_homicide_district.toml", toml.as_bytes())],
    );
    let dir = tempfile::tempdir().unwrap();
    // TableExport has no escape for a line break: that table is refused by the export, so the Roll20
    // round trip runs on the folder without it.
    let c = hostile(dir.path(), false);
    round_trip(
        Some(&c),
        &["--to", "roll20"],
        "roll20",
        "tables.txt",
        dir.path(),
    );
}

#[test]
fn csv_round_trips_from_tables_csv_per_table_files_and_the_pipe_form() {
    let dir = tempfile::tempdir().unwrap();
    round_trip(None, &["--to", "csv"], "csv", "tables.csv", dir.path());
    let dir = tempfile::tempdir().unwrap();
    let c = hostile(dir.path(), true);
    round_trip(Some(&c), &["--to", "csv"], "csv", "tables.csv", dir.path());

    // One table's own CSV (no dice in it: a 1d4 table is 1d4 again) and its pipe form.
    let first = export(Some(&c), &["--to", "csv"], &dir.path().join("one"));
    for (pick, sub) in [
        ("mine_plain.csv", "mine_plain.csv"),
        (
            "pipe/bbb_homicide_victim_gender.csv",
            "pipe/bbb_homicide_victim_gender.csv",
        ),
    ] {
        let into = dir.path().join(format!("into-{}", pick.replace('/', "-")));
        import(&["csv", s(&first.join(pick))], &into);
        let again = export(
            Some(&into),
            &["--to", "csv"],
            &dir.path().join(format!("again-{}", pick.replace('/', "-"))),
        );
        assert_eq!(
            std::fs::read(first.join(sub)).unwrap(),
            std::fs::read(again.join(sub)).unwrap(),
            "{pick}"
        );
    }
    let imported =
        std::fs::read_to_string(dir.path().join("into-mine_plain.csv/mine_plain.toml")).unwrap();
    crate::support::golden_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/import"),
        [("csv-mine_plain.toml", imported.as_bytes())],
    );
}

#[test]
fn common_csv_shapes_weights_and_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let w = dir.path().join("loot.csv");
    std::fs::write(
        &w,
        "Weight,Result\n1,Copper\n2,\"Silver, polished\"\n3,Gold\n",
    )
    .unwrap();
    let r = dir.path().join("weather.csv");
    std::fs::write(&r, "range,result\n1-3,Sun\n4–5,Rain\n6,Storm\n").unwrap();
    let odd = dir.path().join("odd.csv");
    std::fs::write(&odd, "weight,result\n0.5,Rare\n1,Common\n1.5,Usual\n").unwrap();
    let into = dir.path().join("c");
    import(&["csv", s(&w), s(&r), s(&odd)], &into);
    let got = |f: &str| std::fs::read_to_string(into.join(f)).unwrap();
    assert_eq!(
        got("loot.toml"),
        "[[table]]\nid = \"loot\"\ntitle = \"Loot\"\ndice = \"1d6\"\nimported = \"CSV, loot.csv\"\nrows = [\n  { on = \"1\", result = \"Copper\" },\n  { on = \"2-3\", result = \"Silver, polished\" },\n  { on = \"4-6\", result = \"Gold\" },\n]\n"
    );
    assert!(got("weather.toml").contains("dice = \"1d6\"\n"));
    assert!(got("weather.toml").contains("{ on = \"4-5\", result = \"Rain\" }"));
    // 0.5 : 1 : 1.5 is 1 : 2 : 3 of six; no common die has 7 faces in `1, 2, 4`… here six: exact.
    assert!(
        got("odd.toml").contains("dice = \"1d6\"\n"),
        "{}",
        got("odd.toml")
    );
    let t = blockprint(&["tables", "--content", s(&into), "--json"]);
    ok(&t);
    let v: serde_json::Value = serde_json::from_slice(&t.stdout).unwrap();
    let loot = v
        .as_array()
        .or_else(|| v["tables"].as_array())
        .unwrap()
        .iter()
        .find(|t| t["id"] == "loot")
        .unwrap()
        .clone();
    assert!(loot.to_string().contains("1/2"), "{loot}");

    // Weights no common die fits: the least die, with a note.
    let seven = dir.path().join("seven.csv");
    std::fs::write(&seven, "weight,result\n3,A\n4,B\n").unwrap();
    let into = dir.path().join("c7");
    import(&["csv", s(&seven)], &into);
    let t = std::fs::read_to_string(into.join("seven.toml")).unwrap();
    assert!(t.contains("dice = \"1d7\"\n"), "{t}");
    assert!(t.contains("note = \"The weights add up to 7, so this table is rolled on one die of 7 faces, which no common die has"), "{t}");
}

/// An import that must be refused: exit 1, the message holds every `want`, and nothing is written.
fn refused(format: &str, name: &str, body: &str, want: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, body).unwrap();
    let into = dir.path().join("c");
    let out = blockprint(&["import", format, s(&file), "--into", s(&into)]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    for w in want {
        assert!(err.contains(w), "missing `{w}` in:\n{err}");
    }
    assert!(err.contains("help:"), "{err}");
    assert!(!into.exists(), "something was written for {name}");
}

#[test]
fn what_blockprint_cannot_read_is_refused_with_file_table_and_fix() {
    let foundry = |formula: &str, text: &str| {
        serde_json::json!({
            "_id": "abcdefghijklmnop", "name": "Wild Magic", "formula": formula,
            "results": [
                {"type": "text", "name": text, "description": "", "weight": 1, "range": [1, 1]},
                {"type": "text", "name": "Nothing", "description": "", "weight": 1, "range": [2, 2]}
            ]
        })
        .to_string()
    };
    refused(
        "foundry",
        "wild.json",
        &foundry("1d2 + @abilities.str.mod", "Fire"),
        &[
            "wild.json: table `Wild Magic`: its formula `1d2 + @abilities.str.mod` cannot be read",
            "set the table's formula",
        ],
    );
    refused(
        "foundry",
        "xo.json",
        &foundry("1d2xo", "Fire"),
        &["xo.json: table `Wild Magic`", "`xo` (explode once)"],
    );
    refused(
        "foundry",
        "roll.json",
        &foundry("1d2", "Fire for [[1d6r1]] rounds"),
        &[
            "roll.json: table `Wild Magic`",
            "`1d6r1`",
            "write the roll in plain dice",
        ],
    );
    // Ranges that leave a gap: the checker's word, at the source.
    refused(
        "foundry",
        "gap.json",
        &foundry("1d3", "Fire"),
        &[
            "gap.json: table `Wild Magic` cannot be imported",
            "nothing was written",
        ],
    );
    refused("foundry", "junk.json", "not json", &["junk.json: not JSON"]);
    refused(
        "roll20",
        "t.txt",
        "!import-table --fx --hide\n!import-table-item --fx --Boom [[1d6!>5]] --1 --\n",
        &["t.txt: table `fx`", "`!>N`", "plain dice"],
    );
    refused(
        "roll20",
        "z.txt",
        "!import-table --fx --hide\n!import-table-item --fx --Boom --0 --\n!import-table-item --fx --Bang --1 --\n",
        &["z.txt: table `fx`", "weight 0", "give it a weight above 0"],
    );
    refused(
        "roll20",
        "chat.txt",
        "hello there\n",
        &["chat.txt: line 1 is not a TableExport command"],
    );
    refused(
        "csv",
        "w.csv",
        "weight,result\nlots,Gold\n",
        &[
            "w.csv: table `w`",
            "the weight `lots` of `Gold` is not a number",
        ],
    );
    refused(
        "csv",
        "h.csv",
        "colour,flavour\nred,cherry\n",
        &[
            "h.csv: its header `colour,flavour` names no result column",
            "weight,result",
        ],
    );
    refused(
        "csv",
        "gap.csv",
        "range,result\n1-2,A\n4-6,B\n",
        &["gap.csv: table `gap` cannot be imported"],
    );

    // A table the folder already has; a file that is not there (I/O: exit 2).
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c");
    ok(&blockprint(&["init", s(&c)]));
    let first = export(None, &["--to", "foundry"], &dir.path().join("e"));
    let before = tree(&c);
    let out = blockprint(&[
        "import",
        "foundry",
        s(&first.join("tables/bbb_homicide_district.json")),
        "--into",
        s(&c),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("table `District`: the content folder")
            && stderr(&out)
                .contains("already has a table `bbb.homicide.district` (bbb/01-homicide.toml)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(tree(&c), before);
    let out = blockprint(&[
        "import",
        "csv",
        s(&dir.path().join("none.csv")),
        "--into",
        s(&c),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn imported_tables_in_an_init_folder_need_no_chapter() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c");
    ok(&blockprint(&["init", s(&c)]));
    let f = dir.path().join("bbb_weird.csv");
    std::fs::write(&f, "weight,result\n1,Odd\n1,Even\n").unwrap();
    // `bbb_weird` is its own game; `bbb.homicide.weird` would be in a rules namespace but imported.
    let g = dir.path().join("tables.csv");
    std::fs::write(
        &g,
        "table_id,title,dice,range_start,range_end,result\nbbb.homicide.weird,Weird,1d2,1,1,Odd\nbbb.homicide.weird,Weird,1d2,2,2,Even\n",
    )
    .unwrap();
    import(&["csv", s(&f), s(&g)], &c);
    let out = blockprint(&["check", "--content", s(&c), "--json"]);
    ok(&out);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let notes: Vec<&str> = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        notes,
        [
            "table `bbb.homicide.weird` is your own (it is imported) and no chapter places it: the book `bbb.srd` leaves it out"
        ]
    );
}

#[test]
fn imported_tables_print_in_the_tables_pdf_on_a4_and_letter() {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c");
    ok(&blockprint(&["init", s(&c)]));
    let f = dir.path().join("loot.csv");
    std::fs::write(
        &f,
        "weight,result\n1,Copper coins\n2,Silver ring\n3,Gold tooth\n",
    )
    .unwrap();
    import(&["csv", s(&f)], &c);
    for paper in ["a4", "letter"] {
        let out = dir.path().join(paper);
        ok(&blockprint(&[
            "make",
            "tables",
            "--content",
            s(&c),
            "--paper",
            paper,
            "--out",
            s(&out),
            "--check-pages",
            "--quiet",
        ]));
        let text = crate::support::pdf_text(&std::fs::read(out.join("tables/tables.pdf")).unwrap());
        for want in [
            "Loot",
            "Copper coins",
            "1/6",
            "Gold tooth",
            "1/2",
            "District",
            "1/36",
        ] {
            assert!(text.contains(want), "{paper}: `{want}` missing");
        }
        // Nothing of the program: no id, no file name.
        for absent in ["loot.csv", "bbb.homicide", "imported", ".toml"] {
            assert!(!text.contains(absent), "{paper}: `{absent}` printed");
        }
    }
}
