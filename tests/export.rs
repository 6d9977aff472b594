//! `blockprint export` and the export kinds `build` runs: golden files of three representative tables
//! (the 2d6 district table, the d100 method table with its gunshot sub-table, the d8 ethnicity table with
//! its white-or-Asian split) and the chase deck in every format; every table of the content read back
//! from every format and compared with the content; the Foundry JSON checked field by field; reruns
//! byte for byte; and the refusals, each with its exit status.
//! Run with `BLOCKPRINT_BLESS=1` to rewrite the golden files after an intended change.

use crate::support::export::{files as export, json, run, text};
use crate::support::{blockprint, ok};

use std::collections::BTreeMap;
use std::path::Path;
use std::str::FromStr;

use blockprint::dice::BigRational;
use serde_json::Value;

const SAMPLE: [&str; 3] = [
    "bbb.homicide.district",
    "bbb.homicide.method",
    "bbb.homicide.victim_ethnicity",
];
const DECK: &str = "bbb.chase.city_streets";

#[test]
fn goldens_of_three_tables_and_a_deck_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = BTreeMap::new();
    for (n, args) in [
        vec!["--to", "foundry"],
        vec!["--to", "foundry", "--foundry-version", "12"],
        vec!["--to", "roll20"],
        vec!["--to", "csv"],
    ]
    .into_iter()
    .enumerate()
    {
        let mut args = args;
        args.extend(SAMPLE);
        if args[1] == "foundry" {
            args.push(DECK);
        }
        files.extend(export(&dir.path().join(n.to_string()).join("out"), &args));
    }
    // The card pictures are checked against `deck --png` instead
    // (`foundry_cards_show_a_picture_of_each_card`).
    let files: BTreeMap<_, _> = files
        .into_iter()
        .filter(|(n, _)| !n.ends_with("manifest.json") && !n.ends_with(".png"))
        .collect();
    // The sub-tables come along with the tables that refer to them.
    for name in [
        "foundry-v13/tables/bbb_homicide_gunshot.json",
        "foundry-v12/tables/bbb_homicide_white_or_asian.json",
        "csv/pipe/bbb_homicide_gunshot.csv",
        "foundry-v13/cards/bbb_chase_city_streets.json",
    ] {
        assert!(
            files.contains_key(name),
            "{name} missing: {:?}",
            files.keys()
        );
    }
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/export");
    assert_eq!(crate::support::golden_tree(&golden, &files), files.len());
}

/// A content row as `tables --json` prints it, its range worked out here.
struct ContentRow {
    lo: i64,
    hi: i64,
    result: String,
    probability: BigRational,
}

struct ContentTable {
    id: String,
    title: String,
    dice: String,
    outcomes: Vec<i64>,
    rows: Vec<ContentRow>,
}

/// Every table of the built-in content, from `tables --json`, rows sorted by range.
fn content() -> Vec<ContentTable> {
    let o = blockprint(&["tables", "--json"]);
    ok(&o);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let dice = t["dice"].as_str().unwrap().to_owned();
            let outcomes: Vec<i64> = blockprint::dice::parse(&dice)
                .unwrap()
                .distribution()
                .unwrap()
                .integer_outcomes()
                .unwrap()
                .into_iter()
                .map(|(v, _)| v)
                .collect();
            let max = *outcomes.last().unwrap();
            let num = |s: &str| -> i64 {
                if s == "00" && max == 100 {
                    100
                } else {
                    s.trim().parse().unwrap()
                }
            };
            let mut rows: Vec<ContentRow> = t["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    let on = r["on"].as_str().unwrap().replace('–', "-");
                    let (lo, hi) = if let Some(n) = on.strip_suffix('+') {
                        (num(n), max)
                    } else if let Some((a, b)) = on.split_once('-') {
                        (num(a), num(b))
                    } else {
                        (num(&on), num(&on))
                    };
                    ContentRow {
                        lo,
                        hi,
                        result: r["result"].as_str().unwrap().to_owned(),
                        probability: BigRational::from_str(r["probability"].as_str().unwrap())
                            .unwrap(),
                    }
                })
                .collect();
            rows.sort_by_key(|r| r.lo);
            ContentTable {
                id: t["id"].as_str().unwrap().to_owned(),
                title: t["title"].as_str().unwrap().to_owned(),
                dice,
                outcomes,
                rows,
            }
        })
        .collect()
}

fn slug(id: &str) -> String {
    id.replace('.', "_")
}

/// Table ids a result refers to.
fn refs(result: &str) -> Vec<String> {
    result
        .split('{')
        .skip(1)
        .filter_map(|s| {
            s.split('}')
                .next()?
                .strip_prefix("table:")
                .map(str::to_owned)
        })
        .collect()
}

fn same_dice(a: &str, b: &str) -> bool {
    let d = |s: &str| {
        blockprint::dice::parse(s)
            .unwrap()
            .distribution()
            .unwrap()
            .outcomes()
    };
    d(a) == d(b)
}

#[test]
fn every_table_round_trips_through_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = blockprint(&[
        "build",
        "--seed",
        "1",
        "--count",
        "1",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    ok(&o);
    let files = crate::support::tree(&out.join("export"));
    let text = |name: &str| {
        String::from_utf8(
            files
                .get(name)
                .unwrap_or_else(|| panic!("{name} missing"))
                .clone(),
        )
        .unwrap()
    };
    let tables = content();
    assert!(tables.len() > 30);

    // Foundry, both schemas: ranges, weights, formula, links resolving to the linked table's export.
    for version in ["v13", "v12"] {
        let doc = |id: &str| -> Value {
            serde_json::from_str(&text(&format!(
                "foundry-{version}/tables/{}.json",
                slug(id)
            )))
            .unwrap()
        };
        for t in &tables {
            let v = doc(&t.id);
            // Names are written as the content has them, straight quotes and all.
            assert_eq!(v["name"], t.title.as_str(), "{}", t.id);
            let formula = v["formula"].as_str().unwrap();
            assert!(
                same_dice(formula, &t.dice),
                "{}: formula {formula} is not {}",
                t.id,
                t.dice
            );
            assert!(
                formula.starts_with(|c: char| c.is_ascii_digit()),
                "{formula}: count written"
            );
            let results = v["results"].as_array().unwrap();
            assert_eq!(results.len(), t.rows.len(), "{}", t.id);
            for (r, row) in results.iter().zip(&t.rows) {
                assert_eq!(r["range"], serde_json::json!([row.lo, row.hi]), "{}", t.id);
                assert_eq!(r["weight"], row.hi - row.lo + 1, "{}", t.id);
                let linked = refs(&row.result);
                if linked.len() == 1 {
                    let target = doc(&linked[0]);
                    let id = target["_id"].as_str().unwrap();
                    assert_eq!(r["type"], "document", "{}: {}", t.id, row.result);
                    match version {
                        "v13" => assert_eq!(r["documentUuid"], format!("RollTable.{id}")),
                        _ => {
                            assert_eq!(r["documentCollection"], "RollTable");
                            assert_eq!(r["documentId"], id);
                        }
                    }
                    let shown = if version == "v13" {
                        &r["name"]
                    } else {
                        &r["text"]
                    };
                    assert!(
                        shown
                            .as_str()
                            .unwrap()
                            .contains(target["name"].as_str().unwrap()),
                        "{}: a link names its table",
                        t.id
                    );
                } else {
                    assert_eq!(r["type"], "text");
                }
            }
            // The ranges tile the dice: every total in exactly one range.
            for total in &t.outcomes {
                let n = results
                    .iter()
                    .filter(|r| {
                        r["range"][0].as_i64().unwrap() <= *total
                            && *total <= r["range"][1].as_i64().unwrap()
                    })
                    .count();
                assert_eq!(n, 1, "{}: total {total}", t.id);
            }
        }
    }

    // Roll20: one item per row, weights proportional to the exact odds, texts as the content's.
    let by_slug: BTreeMap<String, String> =
        tables.iter().map(|t| (slug(&t.id), t.id.clone())).collect();
    let roll20 = text("roll20/tables.txt");
    let mut items: BTreeMap<String, Vec<(String, u64)>> = BTreeMap::new();
    let mut order = Vec::new();
    for line in roll20.lines() {
        let args = split_roll20(line);
        match args[0].as_str() {
            "!import-table" => {
                assert_eq!(args.len(), 3, "{line}");
                assert_eq!(args[2], "hide");
                assert!(!args[1].contains(char::is_whitespace));
                order.push(args[1].clone());
                assert!(items.insert(args[1].clone(), vec![]).is_none(), "{line}");
            }
            "!import-table-item" => {
                assert_eq!(args.len(), 5, "{line}");
                assert_eq!(args[4], "", "{line}: no avatar");
                let item = unescape_roll20(&args[2]);
                items
                    .get_mut(&args[1])
                    .unwrap()
                    .push((item, args[3].parse().unwrap()));
            }
            other => panic!("unexpected command {other}"),
        }
    }
    assert_eq!(
        order,
        tables.iter().map(|t| slug(&t.id)).collect::<Vec<_>>()
    );
    for t in &tables {
        let got = &items[&slug(&t.id)];
        let total: u64 = got.iter().map(|(_, w)| w).sum();
        assert_eq!(got.len(), t.rows.len(), "{}", t.id);
        for ((item, w), row) in got.iter().zip(&t.rows) {
            assert_eq!(
                BigRational::new((*w).into(), total.into()),
                row.probability,
                "{}: {item}",
                t.id
            );
            assert_eq!(
                from_roll20(item, &by_slug),
                blockprint::content::carry::one_line(&row.result),
                "{}",
                t.id
            );
        }
        if t.outcomes.len() as i64 == t.outcomes.last().unwrap() - t.outcomes[0] + 1
            && t.dice.trim_start_matches('1').matches('d').count() == 1
            && !t.dice.contains(['+', '-', '*', '/', 'k', '!', 'c'])
            && !t.dice.starts_with(|c: char| c.is_ascii_digit() && c != '1')
        {
            // One die: the weight is the range's width.
            for ((_, w), row) in got.iter().zip(&t.rows) {
                assert_eq!(*w as i64, row.hi - row.lo + 1, "{}", t.id);
            }
        }
    }

    // CSV: per table, combined, and the pipe form as the Roll Table Importer reads it.
    let mut combined = csv::Reader::from_reader(files["csv/tables.csv"].as_slice());
    assert_eq!(
        combined.headers().unwrap().iter().collect::<Vec<_>>(),
        [
            "table_id",
            "title",
            "dice",
            "range_start",
            "range_end",
            "result"
        ]
    );
    let combined: Vec<csv::StringRecord> = combined.records().map(Result::unwrap).collect();
    let mut at = 0;
    for t in &tables {
        let mut r = csv::Reader::from_reader(files[&format!("csv/{}.csv", slug(&t.id))].as_slice());
        assert_eq!(
            r.headers().unwrap().iter().collect::<Vec<_>>(),
            ["range_start", "range_end", "result"]
        );
        let recs: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
        assert_eq!(recs.len(), t.rows.len());
        for (rec, row) in recs.iter().zip(&t.rows) {
            assert_eq!(
                (
                    rec[0].parse::<i64>().unwrap(),
                    rec[1].parse::<i64>().unwrap()
                ),
                (row.lo, row.hi)
            );
            assert_eq!(&rec[2], row.result);
            let c = &combined[at];
            assert_eq!((&c[0], &c[1]), (t.id.as_str(), t.title.as_str()));
            assert!(same_dice(&c[2], &t.dice));
            assert_eq!((&c[3], &c[4], &c[5]), (&rec[0], &rec[1], &rec[2]));
            at += 1;
        }
        let pipe = text(&format!("csv/pipe/{}.csv", slug(&t.id)));
        let width = if *t.outcomes.last().unwrap() == 100 {
            2
        } else {
            t.outcomes.last().unwrap().to_string().len()
        };
        let lines: Vec<&str> = pipe.lines().collect();
        assert_eq!(lines.len(), t.rows.len());
        for (line, row) in lines.iter().zip(&t.rows) {
            let (range, result) = line.split_once('|').unwrap();
            assert!(!result.contains('|'));
            let (a, b) = range.split_once('-').unwrap_or((range, range));
            assert_eq!(
                (a.parse::<i64>().unwrap(), b.parse::<i64>().unwrap()),
                (row.lo, row.hi),
                "{line}"
            );
            assert!(
                a.len() >= width && b.len() >= width,
                "{line}: padded to {width}"
            );
            assert!(a != "00" && b != "00", "{line}");
        }
    }
    assert_eq!(at, combined.len());
}

/// Split a chat command as TableExport does (`/\s+--/`).
fn split_roll20(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            let mut j = i;
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            if chars.get(j) == Some(&'-') && chars.get(j + 1) == Some(&'-') {
                out.push(String::new());
                i = j + 2;
                continue;
            }
        }
        out.last_mut().unwrap().push(chars[i]);
        i += 1;
    }
    out
}

/// TableExport 0.2.3's `nameUnescape` (Roll20/roll20-api-scripts, `TableExport/0.2.3/TableExport.js`:
/// its `escapes` map holds `[`, `]`, `--` and ` --`, nothing for `<` or `>`).
fn unescape_roll20(s: &str) -> String {
    let pairs = [
        ("<%%91%%>", "["),
        ("<%%93%%>", "]"),
        ("<%%-%%>", "--"),
        ("[TABLEEXPORT:ESCAPE]", " --"),
    ];
    let mut out = String::new();
    let mut rest = s;
    'next: while !rest.is_empty() {
        for (from, to) in pairs {
            if let Some(r) = rest.strip_prefix(from) {
                out.push_str(to);
                rest = r;
                continue 'next;
            }
        }
        let c = rest.chars().next().unwrap();
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// A Roll20 item back in content notation: `[[1t[name]]]` → `{table:id}`, `[[X]]` → `{X}`.
fn from_roll20(item: &str, ids: &BTreeMap<String, String>) -> String {
    let mut s = item.to_owned();
    while let Some(a) = s.find("[[1t[") {
        let b = a + s[a..].find("]]]").unwrap();
        let name = s[a + 5..b].to_owned();
        s.replace_range(a..b + 3, &format!("{{table:{}}}", ids[&name]));
    }
    while let Some(a) = s.find("[[") {
        let b = a + s[a..].find("]]").unwrap();
        let inner = s[a + 2..b].to_owned();
        s.replace_range(a..b + 2, &format!("{{{inner}}}"));
    }
    s
}

#[test]
fn foundry_json_has_the_schema_fields_and_unique_ids() {
    let dir = tempfile::tempdir().unwrap();
    let mut ids = std::collections::BTreeSet::new();
    for (version, args) in [
        ("v13", vec!["--to", "foundry"]),
        ("v12", vec!["--to", "foundry", "--foundry-version", "12"]),
    ] {
        let files = export(&dir.path().join(version).join("out"), &args);
        let id_ok = |v: &Value| {
            v.as_str()
                .is_some_and(|s| s.len() == 16 && s.chars().all(|c| c.is_ascii_alphanumeric()))
        };
        let mut tables = 0;
        for (name, bytes) in files.iter().filter(|(n, _)| n.contains("/tables/")) {
            tables += 1;
            let v: Value = serde_json::from_slice(bytes).unwrap();
            assert!(id_ok(&v["_id"]), "{name}");
            assert!(
                ids.insert((version, v["_id"].as_str().unwrap().to_owned())),
                "{name}: _id repeats"
            );
            assert_eq!(v["_key"], format!("!tables!{}", v["_id"].as_str().unwrap()));
            for f in ["name", "description", "formula"] {
                assert!(v[f].is_string(), "{name}: {f}");
            }
            for f in ["replacement", "displayRoll"] {
                assert!(v[f].is_boolean(), "{name}: {f}");
            }
            for r in v["results"].as_array().unwrap() {
                assert!(id_ok(&r["_id"]), "{name}");
                assert_eq!(r["drawn"], false);
                let (lo, hi) = (
                    r["range"][0].as_i64().unwrap(),
                    r["range"][1].as_i64().unwrap(),
                );
                assert_eq!(r["range"].as_array().unwrap().len(), 2);
                assert!(lo <= hi);
                assert_eq!(r["weight"].as_i64().unwrap(), hi - lo + 1);
                let kind = r["type"].as_str().unwrap();
                assert!(kind == "text" || kind == "document", "{name}: {kind}");
                if version == "v13" {
                    assert!(
                        r["name"].is_string() && r["description"].is_string(),
                        "{name}"
                    );
                    assert!(r.get("text").is_none(), "{name}: v13 results have no text");
                    assert_eq!(kind == "document", r["documentUuid"].is_string());
                } else {
                    assert!(r["text"].is_string(), "{name}");
                    assert!(
                        r.get("name").is_none() && r.get("description").is_none(),
                        "{name}"
                    );
                    assert_eq!(
                        kind == "document",
                        r["documentCollection"] == "RollTable" && id_ok(&r["documentId"])
                    );
                }
            }
        }
        assert!(tables > 30);
        let deck: Value = serde_json::from_slice(
            &files[&format!("foundry-{version}/cards/bbb_chase_city_streets.json")],
        )
        .unwrap();
        assert_eq!(deck["type"], "deck");
        assert!(id_ok(&deck["_id"]));
        let cards = deck["cards"].as_array().unwrap();
        assert_eq!(cards.len(), 52);
        let mut seen = std::collections::BTreeSet::new();
        for c in cards {
            assert!(id_ok(&c["_id"]));
            assert!(
                ["hearts", "clubs", "diamonds", "spades"].contains(&c["suit"].as_str().unwrap())
            );
            let value = c["value"].as_u64().unwrap();
            assert!((1..=13).contains(&value));
            assert!(seen.insert((c["suit"].as_str().unwrap().to_owned(), value)));
            assert!(!c["faces"][0]["text"].as_str().unwrap().is_empty());
            assert!(c["back"]["name"].is_string());
            // `img` of a face, a back and the deck: a FilePathField of the IMAGE category, so a path
            // ending in an image extension.
            for img in [&c["faces"][0]["img"], &c["back"]["img"]] {
                assert!(img.as_str().unwrap().ends_with(".png"), "{img}");
            }
            assert_eq!(c["origin"], deck["_id"]);
            assert_eq!(c["drawn"], false);
        }
        assert_eq!(cards[0]["faces"][0]["text"], "Clear road");
        assert_eq!(deck["img"], "cards/bbb_chase_city_streets/back.png");
    }
}

#[test]
fn reruns_are_byte_identical_and_resume() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for to in ["foundry", "roll20", "csv"] {
        let x = export(&a.path().join("out"), &["--to", to]);
        let y = export(&b.path().join("out"), &["--to", to]);
        assert_eq!(x.len(), y.len(), "{to}");
        for (name, bytes) in &x {
            assert!(
                y.get(name) == Some(bytes),
                "{name} differs between two runs"
            );
        }
    }
    // A second run into the same folder finds everything current and changes nothing.
    let before = crate::support::tree(&a.path().join("out"));
    let out = a.path().join("out");
    let o = run(&out, &["--to", "foundry"]);
    ok(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    // "N files (N already up to date)": every file found current (the JSON and the card pictures),
    // however many tables and decks the content has.
    let counts = err
        .split_once(" documents, ")
        .and_then(|(_, rest)| rest.split_once(" files ("))
        .and_then(|(files, rest)| Some((files, rest.split_once(" already up to date")?.0)));
    assert!(
        counts.is_some_and(|(files, current)| files == current && files != "0"),
        "{err}"
    );
    let after = crate::support::tree(&out);
    let files = |t: &BTreeMap<String, Vec<u8>>| -> Vec<(String, Vec<u8>)> {
        t.iter()
            .filter(|(n, _)| !n.ends_with("manifest.json"))
            .map(|(n, b)| (n.clone(), b.clone()))
            .collect()
    };
    assert!(files(&before) == files(&after), "a rerun changed an export");
}

#[test]
fn refusals_name_the_problem_with_the_right_status() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out = out.as_path();
    let cases: [(&[&str], i32, &str); 4] = [
        (
            &["--to", "csv", "bbb.homicide.nope"],
            2,
            "names no table or deck",
        ),
        (&["--to", "csv", DECK], 2, "decks export to Foundry only"),
        (
            &["--to", "roll20", "--foundry-version", "12"],
            2,
            "--to foundry only",
        ),
        (&["--to", "foundry", "--foundry-version", "11"], 2, "12"),
    ];
    for (args, code, says) in cases {
        let o = run(out, args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }

    // Content a form cannot carry: totals below 1 in the pipe form. The table is left out of that form
    // only, with a warning naming it; its other exports are complete.
    let content = dir.path().join("content");
    std::fs::create_dir_all(content.join("bbb")).unwrap();
    std::fs::write(
        content.join("bbb/99-odd.toml"),
        r#"
[[table]]
id = "bbb.odd.fudge"
title = "Fudge"
dice = "4dF"
rows = [
  { on = "-4--1", result = "Worse" },
  { on = "0", result = "Even" },
  { on = "1-4", result = "Better" },
]
"#,
    )
    .unwrap();
    let c = content.to_str().unwrap();
    let o = run(out, &["--to", "csv", "--content", c, "bbb.odd.fudge"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: table `bbb.odd.fudge` (bbb/99-odd.toml:")
            && err.contains("no pipe file"),
        "{err}"
    );
    let csv_dir = out.join("export/csv");
    assert!(csv_dir.join("bbb_odd_fudge.csv").is_file());
    assert!(!csv_dir.join("pipe/bbb_odd_fudge.csv").exists());
    ok(&run(
        out,
        &["--to", "roll20", "--content", c, "bbb.odd.fudge"],
    ));
    let txt = text(out, "roll20/tables.txt");
    assert!(
        txt.contains("!import-table --bbb_odd_fudge --hide"),
        "{txt}"
    );
    // Foundry's formula rolls the dice themselves.
    ok(&run(
        out,
        &["--to", "foundry", "--content", c, "bbb.odd.fudge"],
    ));
    let v = json(out, "foundry-v13/tables/bbb_odd_fudge.json");
    assert_eq!(v["formula"], "4df");
    assert_eq!(v["results"][0]["range"], serde_json::json!([-4, -1]));

    // Odds past Roll20's weights (the README: "refused with its name"): `check` refuses the table at its
    // dice, with the reason and the fix, so no export and no build starts on it.
    let many = dir.path().join("many");
    std::fs::create_dir_all(many.join("bbb")).unwrap();
    std::fs::write(
        many.join("bbb/99-many.toml"),
        r#"
[[table]]
id = "bbb.odd.many"
title = "Many dice"
dice = "8d20"
rows = [
  { on = "8-80", result = "Low" },
  { on = "81+", result = "High" },
]
"#,
    )
    .unwrap();
    let m = many.to_str().unwrap();
    let o = blockprint(&["check", "--content", m]);
    let err = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "error[unexportable]: table `bbb.odd.many` rolls `8d20`, which falls 25600000000 equally likely ways; Roll20 draws an item by its weight alone, and weights adding up to more than 2147483648 do not fit it"
        ) && err.contains("bbb/99-many.toml:5:")
            && err.contains("= help: roll fewer dice or dice with fewer sides"),
        "{err}"
    );
    std::fs::remove_dir_all(out.join("export")).unwrap();
    let o = run(out, &["--to", "roll20", "--content", m, "bbb.odd.many"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("error[unexportable]"), "{err}");
    assert!(!out.join("export").exists());
}

/// Content with dice and texts the targets write each in their own way, in a fresh content folder
/// (`check` accepts it).
fn odd_content(dir: &Path) -> String {
    let content = dir.join("content");
    std::fs::create_dir_all(content.join("bbb")).unwrap();
    std::fs::write(
        content.join("bbb/99-odd.toml"),
        r#"
[[table]]
id = "bbb.odd.lines"
title = "Lines"
dice = "1d6"
note = "Two\nlines & more"
rows = [
  { on = "1-3", result = "One line" },
  { on = "4-6", result = "First line\nsecond line" },
]

[[table]]
id = "bbb.odd.plain"
title = "The \"plain\" table's name"
dice = "1d6"
rows = [
  { on = "1-2", result = "Less < than" },
  { on = "3-4", result = "Rolls {5d6cs>=5}, more > less" },
  { on = "5-6", result = "\"Quoted\" and it's {3d6!cs>=6} hits" },
]
"#,
    )
    .unwrap();
    let c = content.to_str().unwrap().to_owned();
    ok(&blockprint(&["check", "--content", &c]));
    c
}

/// What a tabletop cannot roll or carry as the content means it `check` refuses at its place, with the
/// reason and the fix, so that every export writes whatever `check` accepts:
/// * Foundry VTT has no compounding (`x` explodes into separate dice, `xo` once: "Dice Modifiers",
///   <https://foundryvtt.com/article/dice-modifiers/>), and its Fate die takes `r rr k kh kl d dh dl`
///   only (`FateDie.MODIFIERS`, <https://foundryvtt.com/api/classes/foundry.dice.terms.FateDie.html>);
///   neither it nor Roll20 has bonus or penalty dice.
/// * TableExport 0.2.3 (`Roll20/roll20-api-scripts`, `TableExport/0.2.3/TableExport.js`) reads its
///   escape codes back as `[`, `]` and `--`.
#[test]
fn check_refuses_what_no_export_could_write() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    std::fs::create_dir_all(content.join("bbb")).unwrap();
    std::fs::write(
        content.join("bbb/99-odd.toml"),
        r#"
[[table]]
id = "bbb.odd.compound"
title = "Compound"
dice = "2d6!!cs>=4"
rows = [
  { on = "0-2", result = "Any" },
]

[[table]]
id = "bbb.odd.fate"
title = "Fate"
dice = "4dFcs>=1"
rows = [
  { on = "0-4", result = "Any" },
]

[[table]]
id = "bbb.odd.rolls"
title = "Rolls"
dice = "1d6"
rows = [
  { on = "1-2", result = "Less than {3d6!!kh2} more" },
  { on = "3-4", result = "Luck {1d100b1}" },
  { on = "5-6", result = "A <%%91%%> code" },
]
"#,
    )
    .unwrap();
    let c = content.to_str().unwrap();
    let o = blockprint(&["check", "--content", c]);
    let err = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{err}");
    for (says, at) in [
        (
            "error[unexportable]: table `bbb.odd.compound` rolls `2d6!!cs>=4` with compounding dice (`!!`",
            "bbb/99-odd.toml:5:8",
        ),
        (
            "error[unexportable]: table `bbb.odd.fate` rolls `4dFcs>=1` with counting successes on Fudge dice",
            "bbb/99-odd.toml:13:8",
        ),
        (
            "error[unexportable]: inline roll `{3d6!!kh2}` uses compounding dice",
            "bbb/99-odd.toml:23:",
        ),
        (
            "error[unexportable]: inline roll `{1d100b1}` uses bonus or penalty dice, which Foundry VTT does not have",
            "bbb/99-odd.toml:24:",
        ),
        (
            "error[unexportable]: the result holds `<%%91%%>`, which Roll20's TableExport script reads back as `[`",
            "bbb/99-odd.toml:25:",
        ),
    ] {
        let at_says = err.find(says).unwrap_or_else(|| panic!("{says}: {err}"));
        assert!(err[at_says..].contains(at), "{says} at {at}: {err}");
    }
    assert!(err.contains("= help: write `[` itself"), "{err}");
    assert!(
        err.contains("= help: write dice that Foundry VTT and Roll20 roll"),
        "{err}"
    );
    // No export starts on it, and nothing is written.
    let out = dir.path().join("out");
    for to in ["foundry", "roll20", "csv"] {
        let o = run(&out, &["--to", to, "--content", c]);
        assert_eq!(o.status.code(), Some(1), "{to}");
        assert!(!out.join("export").exists(), "{to}: wrote files");
    }
}

/// What each tabletop reads is written as it reads it: a line break as `<br>` in Foundry's HTML fields
/// (and the pipe form, which is Foundry's HTML) and ` / ` in Roll20's one-line items; names and texts
/// with the content's own straight quotes; `!` with `cs` in Roll20's group form `{3d6!}>6` (Roll20 reads
/// a comparison right after `!` as the explosion point); `<` and `>` as they are in Roll20 (TableExport
/// undoes only `[`, `]`, `--` and ` --`) and escaped in Foundry's HTML.
#[test]
fn targets_write_what_each_reads() {
    let dir = tempfile::tempdir().unwrap();
    let c = odd_content(dir.path());
    let out = dir.path().join("out");
    let out = out.as_path();
    let export_one = |to: &str, id: &str| run(out, &["--to", to, "--content", &c, id]);
    ok(&export_one("roll20", "bbb.odd.plain"));
    let txt = text(out, "roll20/tables.txt");
    let items: Vec<String> = txt
        .lines()
        .skip(1)
        .map(|l| unescape_roll20(&split_roll20(l)[2]))
        .collect();
    assert_eq!(
        items,
        [
            "Less < than",
            "Rolls [[5d6>5]], more > less",
            "\"Quoted\" and it's [[{3d6!}>6]] hits"
        ]
    );
    ok(&export_one("roll20", "bbb.odd.lines"));
    let txt = text(out, "roll20/tables.txt");
    assert_eq!(
        txt,
        "!import-table --bbb_odd_lines --hide\n\
         !import-table-item --bbb_odd_lines --One line --3 --\n\
         !import-table-item --bbb_odd_lines --First line / second line --3 --\n"
    );
    let both = ["bbb.odd.lines", "bbb.odd.plain"];
    for to in [
        &["--to", "foundry"][..],
        &["--to", "foundry", "--foundry-version", "12"],
        &["--to", "csv"],
    ] {
        let mut args = to.to_vec();
        args.extend(["--content", &c]);
        args.extend(both);
        ok(&run(out, &args));
    }
    // Foundry v13: `name` as the content has it, `description` HTML with `<br>`; v12's `text` HTML.
    let v = json(out, "foundry-v13/tables/bbb_odd_lines.json");
    assert_eq!(v["description"], "<p>Two<br>lines &amp; more</p>");
    assert_eq!(v["results"][1]["name"], "First line\nsecond line");
    assert_eq!(
        v["results"][1]["description"],
        "<p>First line<br>second line</p>"
    );
    let v12 = json(out, "foundry-v12/tables/bbb_odd_lines.json");
    assert_eq!(v12["results"][1]["text"], "First line<br>second line");
    let v = json(out, "foundry-v13/tables/bbb_odd_plain.json");
    assert_eq!(v["name"], "The \"plain\" table's name");
    assert_eq!(v["results"][0]["name"], "Less < than");
    assert_eq!(v["results"][0]["description"], "<p>Less &lt; than</p>");
    assert_eq!(v["results"][1]["name"], "Rolls [[5d6cs>=5]], more > less");
    assert_eq!(
        v["results"][2]["name"],
        "\"Quoted\" and it's [[3d6xcs>=6]] hits"
    );
    // CSV: the comma files keep the text exactly; the pipe form is Foundry's HTML on one line.
    let csv = text(out, "csv/bbb_odd_lines.csv");
    assert!(csv.contains("4,6,\"First line\nsecond line\"\r\n"), "{csv}");
    assert_eq!(
        text(out, "csv/pipe/bbb_odd_lines.csv"),
        "1-3|One line\n4-6|First line<br>second line\n"
    );
    assert_eq!(
        text(out, "csv/pipe/bbb_odd_plain.csv"),
        "1-2|Less &lt; than\n3-4|Rolls [[5d6cs>=5]], more &gt; less\n5-6|\"Quoted\" and it's [[3d6xcs>=6]] hits\n"
    );
}

/// `--excel`: each comma-separated file begins with a UTF-8 byte-order mark (Excel on Windows reads a
/// file without one as ANSI, `−4` as `âˆ’4`) and is otherwise byte for byte the plain export; the pipe
/// files, read by an importer, are left as they are; other targets refuse the option (exit 2).
#[test]
fn csv_excel_adds_only_a_byte_order_mark() {
    let dir = tempfile::tempdir().unwrap();
    let plain = export(
        &dir.path().join("plain").join("out"),
        &["--to", "csv", SAMPLE[0], SAMPLE[1]],
    );
    let excel = export(
        &dir.path().join("excel").join("out"),
        &["--to", "csv", "--excel", SAMPLE[0], SAMPLE[1]],
    );
    let names = |m: &BTreeMap<String, Vec<u8>>| -> Vec<String> {
        m.keys()
            .filter(|k| !k.ends_with("manifest.json"))
            .cloned()
            .collect()
    };
    assert_eq!(names(&plain), names(&excel));
    let mut boms = 0;
    for name in names(&plain) {
        let (a, b) = (&plain[&name], &excel[&name]);
        if name.contains("pipe/") {
            assert_eq!(a, b, "{name}");
        } else {
            assert_eq!(&b[..3], b"\xEF\xBB\xBF", "{name}");
            assert_eq!(&b[3..], &a[..], "{name}");
            boms += 1;
        }
    }
    assert_eq!(
        boms, 4,
        "three tables (the method table brings its gunshot table) and tables.csv"
    );
    let out = dir.path().join("o");
    let o = run(&out, &["--to", "roll20", "--excel"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--excel applies to CSV only"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.join("export").exists());
}

/// The width and height of a PNG, from its IHDR chunk; `None` when the bytes are not a PNG.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let be = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") || bytes.get(12..16) != Some(b"IHDR") {
        return None;
    }
    Some((be(16)?, be(20)?))
}

/// A Foundry deck shows the printed cards: every card's face `img` and back `img`, and the deck's own,
/// is a path (relative to Foundry's Data folder, where the export's `cards` folder is copied) naming a
/// PNG the export wrote beside the deck's JSON, at `deck --png`'s size (poker at 300 dpi with 1/8 in
/// bleed: 825 × 1125 px) and byte for byte the picture `deck --png` makes of the same card, each card its
/// own front in print order. Foundry's card data: `CardFaceData { name, text, img }`, `CardsData.img`
/// (<https://foundryvtt.com/api/v13/interfaces/foundry.documents.types.CardFaceData.html>). The same
/// on one thread and on two.
#[test]
fn foundry_cards_show_a_picture_of_each_card() {
    let dir = tempfile::tempdir().unwrap();
    let png_dir = dir.path().join("png");
    ok(&blockprint(&[
        "deck",
        DECK,
        "--quiet",
        "--png",
        png_dir.to_str().unwrap(),
        "--out",
        dir.path().join("deck").to_str().unwrap(),
    ]));
    let from_deck = crate::support::tree(&png_dir.join("bbb_chase_city_streets"));
    assert_eq!(from_deck.len(), 53, "52 fronts and a back");
    for (version, args) in [
        ("v13", vec!["--to", "foundry", "--jobs", "1", DECK]),
        (
            "v12",
            vec![
                "--to",
                "foundry",
                "--foundry-version",
                "12",
                "--jobs",
                "2",
                DECK,
            ],
        ),
    ] {
        let out = dir.path().join(version);
        let files = export(&out, &args);
        let folder = format!("foundry-{version}");
        let picture = |img: &Value| -> Vec<u8> {
            let rel = img.as_str().unwrap();
            assert!(rel.starts_with("cards/bbb_chase_city_streets/"), "{rel}");
            let bytes = files
                .get(&format!("{folder}/{rel}"))
                .unwrap_or_else(|| panic!("{version}: {rel} names no exported file"))
                .clone();
            assert_eq!(png_size(&bytes), Some((825, 1125)), "{version}: {rel}");
            bytes
        };
        let deck = json(&out, &format!("{folder}/cards/bbb_chase_city_streets.json"));
        assert_eq!(picture(&deck["img"]), from_deck["back.png"]);
        let cards = deck["cards"].as_array().unwrap();
        assert_eq!(cards.len(), 52);
        for (n, c) in cards.iter().enumerate() {
            let front = format!("{:03}-front.png", n + 1);
            assert_eq!(
                c["faces"][0]["img"],
                format!("cards/bbb_chase_city_streets/{front}"),
                "{version}: card {n}"
            );
            assert!(
                picture(&c["faces"][0]["img"]) == from_deck[&front],
                "{version}: {front} is not deck --png's"
            );
            assert_eq!(c["back"]["img"], "cards/bbb_chase_city_streets/back.png");
        }
        // Nothing else in the deck's picture folder.
        let pictures = files
            .keys()
            .filter(|n| n.starts_with(&format!("{folder}/cards/bbb_chase_city_streets/")))
            .count();
        assert_eq!(pictures, 53, "{version}");
    }
}
