//! The Ready/Bolt/Flow odds card and `blockprint verify-odds`: every number on the card against a plain
//! enumeration of the Fudge dice faces written here (never the dice engine), the verify-odds report
//! (golden text and JSON, and the exact set of wrong cells, found again here by enumeration), a corrected
//! cell in a content copy, and a malformed claim. Bless the goldens with `BLOCKPRINT_BLESS=1`.

use std::collections::BTreeSet;
use std::path::Path;

use crate::support::{blockprint, ok, s};

/// The faces of one Fudge die.
const FUDGE: [i64; 3] = [-1, 0, 1];

/// Every equally likely total of a way to roll, by listing the faces: advantaged sets one die to +1 and
/// rolls the other (3 totals), neutral rolls both (9), disadvantaged sets one to −1 (3).
fn totals(mode: &str) -> Vec<i64> {
    match mode {
        "Advantaged" | "1dF+1" => FUDGE.iter().map(|f| f + 1).collect(),
        "Neutral" | "2dF" => {
            let mut v = Vec::new();
            for a in FUDGE {
                for b in FUDGE {
                    v.push(a + b);
                }
            }
            v
        }
        "Disadvantaged" | "1dF-1" => FUDGE.iter().map(|f| f - 1).collect(),
        other => panic!("no enumeration for `{other}`"),
    }
}

const MODES: [&str; 3] = ["Advantaged", "Neutral", "Disadvantaged"];

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// `n/d` in lowest terms, `0` or `1` when whole.
fn frac(n: u64, d: u64) -> String {
    if n == 0 {
        return "0".into();
    }
    let g = gcd(n, d);
    if n == d {
        "1".into()
    } else {
        format!("{}/{}", n / g, d / g)
    }
}

/// `n/d` as a percentage to `places` decimals, a half rounding up.
fn pct(n: u64, d: u64, places: u32) -> String {
    let scale = 100 * 10u64.pow(places);
    let steps = (2 * n * scale + d) / (2 * d);
    if places == 0 {
        format!("{steps}%")
    } else {
        let p = 10u64.pow(places);
        format!("{}.{:0w$}%", steps / p, steps % p, w = places as usize)
    }
}

/// (A higher, draw, B higher, all) counted over every pair of totals.
fn contest(a: &str, b: &str) -> (u64, u64, u64, u64) {
    let (mut win, mut draw, mut loss) = (0, 0, 0);
    for x in totals(a) {
        for y in totals(b) {
            match x.cmp(&y) {
                std::cmp::Ordering::Greater => win += 1,
                std::cmp::Ordering::Equal => draw += 1,
                std::cmp::Ordering::Less => loss += 1,
            }
        }
    }
    (win, draw, loss, win + draw + loss)
}

fn make_card(out: &Path, paper: &str) {
    ok(&blockprint(&[
        "kit",
        "rbf",
        "--out",
        s(out),
        "--paper",
        paper,
        "--quiet",
    ]));
}

fn read_json(p: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

#[test]
fn every_number_on_the_card_matches_the_enumeration() {
    let dir = tempfile::tempdir().unwrap();
    make_card(dir.path(), "a4");
    let folder = dir.path().join("kits/rbf");
    let v = read_json(&folder.join("rbf-odds.json"));
    let card = &v["card"];
    let md = std::fs::read_to_string(folder.join("rbf-odds.md")).unwrap();
    let pdf = std::fs::read(folder.join("rbf-odds.pdf")).unwrap();
    let pdf_text: String = pdf_extract::extract_text_from_mem(&pdf)
        .unwrap()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();

    // The ways to roll, in order.
    let modes: Vec<(&str, &str)> = card["modes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["label"].as_str().unwrap(), m["dice"].as_str().unwrap()))
        .collect();
    assert_eq!(
        modes,
        [
            ("Advantaged", "1dF+1"),
            ("Neutral", "2dF"),
            ("Disadvantaged", "1dF-1")
        ]
    );

    // One roll: every total from +2 down to −2, per mode.
    let single = card["single"].as_array().unwrap();
    let values: Vec<&str> = single
        .iter()
        .map(|r| r["value"].as_str().unwrap())
        .collect();
    assert_eq!(values, ["+2", "+1", "0", "\u{2212}1", "\u{2212}2"]);
    for (row, total) in single.iter().zip([2i64, 1, 0, -1, -2]) {
        for (j, mode) in MODES.iter().enumerate() {
            let all = totals(mode);
            let n = all.iter().filter(|&&t| t == total).count() as u64;
            let cell = &row["cells"][j];
            if n == 0 {
                assert!(cell.is_null(), "{mode} cannot roll {total}: {cell}");
            } else {
                let d = all.len() as u64;
                assert_eq!(cell["fraction"], frac(n, d), "{mode} rolls {total}");
                assert_eq!(cell["percent"], pct(n, d, 1), "{mode} rolls {total}");
                assert!(pdf_text.contains(&pct(n, d, 1)));
            }
        }
    }

    // A against B, draws shown; and the Strike table, a draw to the defender.
    for (i, a) in MODES.iter().enumerate() {
        assert_eq!(card["versus"][i]["mode"], *a);
        assert_eq!(card["strike"][i]["mode"], *a);
        // The Markdown names a way of rolling in words, as the card's headings do (issue 40: no notation
        // where words serve).
        let mut md_row = format!("| {a} |");
        for (j, b) in MODES.iter().enumerate() {
            let (win, draw, loss, all) = contest(a, b);
            let c = &card["versus"][i]["cells"][j];
            for (key, n) in [("win", win), ("draw", draw), ("loss", loss)] {
                assert_eq!(c[key]["fraction"], frac(n, all), "{a} vs {b}: {key}");
                assert_eq!(c[key]["percent"], pct(n, all, 1), "{a} vs {b}: {key}");
                assert!(
                    pdf_text.contains(&pct(n, all, 1)),
                    "PDF lacks {a} vs {b} {key}"
                );
                assert!(
                    pdf_text.contains(&frac(n, all)),
                    "PDF lacks {a} vs {b} {key}"
                );
            }
            let st = &card["strike"][i]["cells"][j];
            assert_eq!(st["hit"]["fraction"], frac(win, all), "strike {a} vs {b}");
            assert_eq!(st["hit"]["percent"], pct(win, all, 1));
            assert_eq!(st["miss"]["fraction"], frac(draw + loss, all));
            assert_eq!(st["miss"]["percent"], pct(draw + loss, all, 1));
            md_row.push_str(&format!(" {} ({}) |", pct(win, all, 1), frac(win, all)));
        }
        assert!(
            md.contains(&md_row),
            "Markdown lacks the strike row {md_row}"
        );
    }
    // Spot values a player can check by hand: 2dF against 2dF draws 19 times in 81.
    assert_eq!(card["versus"][1]["cells"][1]["draw"]["fraction"], "19/81");
    assert_eq!(card["strike"][0]["cells"][2]["hit"]["fraction"], "8/9");

    // The source's wrong cells are on the card, and source and licence are on the page.
    assert_eq!(card["claimed_cells"], 28);
    assert_eq!(card["claimed_wrong"], 12);
    assert!(md.contains("| Draws | If A is advantaged | 21% | 2/9 = 22.222% | 22% |"));
    assert!(pdf_text.contains("2/9=22.222%"));
    // The page footer's source and licence close the Markdown.
    assert!(md.contains("Andrew Gross"));
    assert!(md.contains(" · CC BY-SA 4.0 (creativecommons.org/licenses/by-sa/4.0) · "));
    assert_eq!(v["about"]["game"], "rbf");
    for needle in ["AndrewGross", "CCBY-SA4.0", "BasedonReady/Bolt/Flow"] {
        assert!(pdf_text.contains(needle), "PDF lacks {needle}");
    }
}

#[test]
fn the_card_is_one_page_on_a4_and_letter_and_reruns_are_identical() {
    for paper in ["a4", "letter"] {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        make_card(a.path(), paper);
        make_card(b.path(), paper);
        for f in ["rbf-odds.pdf", "rbf-odds.md", "rbf-odds.json"] {
            let x = std::fs::read(a.path().join("kits/rbf").join(f)).unwrap();
            let y = std::fs::read(b.path().join("kits/rbf").join(f)).unwrap();
            assert!(x == y, "{paper}: {f} differs between runs");
        }
        let pdf = std::fs::read(a.path().join("kits/rbf/rbf-odds.pdf")).unwrap();
        assert_eq!(
            crate::support::glyphs::pages(&pdf).len(),
            1,
            "{paper}: one page"
        );
    }
}

fn verify(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["verify-odds"];
    all.extend_from_slice(args);
    let o = blockprint(&all);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

/// The wrong cells as (table, row label, column) from the command's JSON.
fn reported(v: &serde_json::Value) -> BTreeSet<(String, String, u64)> {
    v["tables"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| {
            t["cells"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["agrees"] == false)
                .map(|c| {
                    (
                        t["id"].as_str().unwrap().to_owned(),
                        c["row_label"].as_str().unwrap().to_owned(),
                        c["column"].as_u64().unwrap(),
                    )
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The wrong cells found again here: each cell's contest enumerated, rounded to the nearest whole percent
/// and compared with the printed text.
fn recomputed(v: &serde_json::Value) -> BTreeSet<(String, String, u64)> {
    let mut out = BTreeSet::new();
    for t in v["tables"].as_array().unwrap() {
        assert_eq!(t["rounding"], "nearest");
        assert_eq!(t["decimals"], 0);
        let ties = t["ties"].as_str().unwrap();
        let attacker = t["attacker"].as_str();
        for c in t["cells"].as_array().unwrap() {
            let (win, draw, loss, all) =
                contest(c["a"].as_str().unwrap(), c["b"].as_str().unwrap());
            let counts = t["rows"][c["row"].as_u64().unwrap() as usize - 1]["counts"]
                .as_str()
                .unwrap();
            // Which side a draw counts for: the defender, the side that does not attack.
            let draws_to = match (ties, attacker) {
                ("show", _) => None,
                ("defender", Some("a")) => Some("b"),
                ("defender", Some("b")) => Some("a"),
                other => panic!("unexpected ties {other:?}"),
            };
            let n = match counts {
                "a" => win + if draws_to == Some("a") { draw } else { 0 },
                "b" => loss + if draws_to == Some("b") { draw } else { 0 },
                "draw" => draw,
                other => panic!("counts {other}"),
            };
            assert_eq!(c["exact"], frac(n, all));
            assert_eq!(c["exact_percent"], pct(n, all, 3));
            assert_eq!(c["rounded"], pct(n, all, 0));
            if c["printed"] != pct(n, all, 0) {
                out.insert((
                    t["id"].as_str().unwrap().to_owned(),
                    c["row_label"].as_str().unwrap().to_owned(),
                    c["column"].as_u64().unwrap(),
                ));
            }
        }
    }
    out
}

/// The twelve cells the source prints wrong (columns: 1 both neutral, 2 A advantaged, 3 both advantaged,
/// 4 A advantaged and B disadvantaged).
fn source_errors() -> BTreeSet<(String, String, u64)> {
    [
        ("rbf.odds.printed.outcomes", "A wins", 4),
        ("rbf.odds.printed.outcomes", "Draws", 2),
        ("rbf.odds.printed.outcomes", "Draws", 4),
        ("rbf.odds.printed.outcomes", "B wins", 2),
        ("rbf.odds.printed.attacking", "A (Attacker) wins", 4),
        ("rbf.odds.printed.attacking", "B (Defender) wins", 1),
        ("rbf.odds.printed.attacking", "B (Defender) wins", 3),
        ("rbf.odds.printed.attacking", "B (Defender) wins", 4),
        ("rbf.odds.printed.defending", "A (Defender) wins", 1),
        ("rbf.odds.printed.defending", "A (Defender) wins", 2),
        ("rbf.odds.printed.defending", "A (Defender) wins", 3),
        ("rbf.odds.printed.defending", "B (Attacker) wins", 2),
    ]
    .into_iter()
    .map(|(t, r, c)| (t.to_owned(), r.to_owned(), c))
    .collect()
}

#[test]
fn verify_odds_reports_exactly_the_wrong_cells() {
    let (code, text, err) = verify(&[]);
    assert_eq!((code, err.as_str()), (0, ""), "{text}");
    let (code, json, _) = verify(&["--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (
            v["cells"].as_u64(),
            v["agree"].as_u64(),
            v["disagree"].as_u64()
        ),
        (Some(28), Some(16), Some(12))
    );
    assert_eq!(reported(&v), source_errors());
    assert_eq!(recomputed(&v), source_errors());
    // The text names every wrong cell at its place in the content file.
    assert_eq!(text.matches("rbf/odds.toml:").count(), 12);
    assert!(text.contains(
        "rbf/odds.toml:36:55: row `Draws`, column `If A is advantaged` (1dF+1 against 2dF): printed 21%, exact 2/9 (22.222%) rounds to 22%\n"
    ), "{text}");
    assert!(
        text.ends_with("28 printed cells in 3 tables: 16 agree with the exact odds, 12 disagree\n")
    );
    // Goldens of the output as written (the content version, checked here, is masked in them).
    assert_eq!(v["content_version"], crate::support::content_version());
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/kit-rbf-odds");
    let files = [("verify-odds.txt", text), ("verify-odds.json", json)];
    assert_eq!(crate::support::golden_files(&golden, files), 2);
}

#[test]
fn verify_odds_strict_ids_and_exit_codes() {
    let (code, _, err) = verify(&["--strict"]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "error: 12 printed cells disagree with the exact odds (--strict)\n"
    );
    let (code, text, _) = verify(&["rbf.odds.printed.defending", "--strict"]);
    assert_eq!(code, 1);
    assert!(text.starts_with("rbf.odds.printed.defending: If A is defending and B is attacking\n"));
    assert!(
        text.ends_with("8 printed cells in 1 table: 4 agree with the exact odds, 4 disagree\n"),
        "{text}"
    );
    let (code, _, err) = verify(&["rbf.odds.nope"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("there is no claimed odds table `rbf.odds.nope`"),
        "{err}"
    );
}

/// `blockprint init` into a temporary folder, with `rbf/odds.toml` edited by `edit`.
fn content_copy(edit: impl Fn(&str) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    ok(&blockprint(&["init", s(&content), "--quiet"]));
    let file = content.join("rbf/odds.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let edited = edit(&text);
    assert_ne!(edited, text, "the edit changed nothing");
    std::fs::write(&file, edited).unwrap();
    dir
}

#[test]
fn a_corrected_cell_is_no_longer_reported() {
    let dir = content_copy(|t| {
        t.replacen(
            r#"{ label = "Draws", counts = "draw", cells = ["23%", "21%", "33%", "13%"] }"#,
            r#"{ label = "Draws", counts = "draw", cells = ["23%", "22%", "33%", "13%"] }"#,
            1,
        )
    });
    let content = dir.path().join("content");
    let (code, json, err) = verify(&["--content", s(&content), "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let mut want = source_errors();
    assert!(want.remove(&(
        "rbf.odds.printed.outcomes".to_owned(),
        "Draws".to_owned(),
        2
    )));
    assert_eq!(reported(&v), want);
    assert_eq!(v["disagree"], 11);
}

#[test]
fn a_malformed_claim_is_located_and_exits_1() {
    let dir = content_copy(|t| {
        t.replacen(
            r#"cells = ["23%", "21%", "33%", "13%"]"#,
            r#"cells = ["23%", "21", "33%"]"#,
            1,
        )
    });
    let content = dir.path().join("content");
    let out = dir.path().join("out");
    for cmd in [vec!["verify-odds"], vec!["check"], vec!["kit", "rbf"]] {
        let mut args = cmd.clone();
        args.extend(["--content", s(&content)]);
        if cmd[0] == "make" {
            args.extend(["--out", s(&out)]);
        }
        let o = blockprint(&args);
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(o.status.code(), Some(1), "{cmd:?}: {all}");
        assert!(
            all.contains(
                "error[bad_claim]: row `Draws` prints 3 cells but the table has 4 columns"
            ),
            "{cmd:?}: {all}"
        );
        assert!(all.contains("error[bad_claim]: `21` is not a percentage from 0% to 100% with 0 digits after the point"), "{all}");
        assert!(all.contains("rbf/odds.toml:36:"), "{cmd:?}: located: {all}");
    }
    assert!(!dir.path().join("out/kits/rbf/rbf-odds.pdf").exists());
}

#[test]
fn long_unbroken_labels_wrap_inside_the_page() {
    let long =
        "Advantagedbytheslipstreamofapassingcargooctopodwhilerunningalongtherailing".repeat(2);
    let dir = content_copy(|t| {
        t.replacen(
            r#"{ key = "Advantaged", value = "1dF+1" }"#,
            &format!(r#"{{ key = "{long}", value = "1dF+1" }}"#),
            1,
        )
        .replacen(
            r#"{ label = "If A is advantaged", a = "1dF+1", b = "2dF" },"#,
            &format!(r#"{{ label = "{long}", a = "1dF+1", b = "2dF" }},"#),
            1,
        )
    });
    let out = dir.path().join("out");
    for paper in ["a4", "letter"] {
        ok(&blockprint(&[
            "kit",
            "rbf",
            "--content",
            s(&dir.path().join("content")),
            "--out",
            s(&out),
            "--paper",
            paper,
            "--format",
            "pdf",
            "--force",
            "--quiet",
        ]));
        let pdf = std::fs::read(out.join("kits/rbf/rbf-odds.pdf")).unwrap();
        let pages = crate::support::glyphs::pages(&pdf);
        let mut glyphs = 0;
        for p in &pages {
            for g in &p.glyphs {
                glyphs += 1;
                assert!(
                    g.x >= 30.0
                        && g.x + g.w <= p.width - 30.0
                        && g.y >= 20.0
                        && g.y <= p.height - 20.0,
                    "{paper}: glyph {:?} at ({:.1}, {:.1}) leaves the page's margins",
                    g.text,
                    g.x,
                    g.y
                );
            }
        }
        assert!(glyphs > 1000, "{paper}: {glyphs} glyphs");
    }
}

#[test]
fn card_markdown_and_json_match_goldens() {
    let dir = tempfile::tempdir().unwrap();
    make_card(dir.path(), "a4");
    let folder = dir.path().join("kits/rbf");
    let v = read_json(&folder.join("rbf-odds.json"));
    assert_eq!(v["content_version"], crate::support::content_version());
    // The content version is masked in the goldens, so only the card itself is compared.
    let files =
        ["rbf-odds.md", "rbf-odds.json"].map(|f| (f, std::fs::read(folder.join(f)).unwrap()));
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/kit-rbf-odds");
    assert_eq!(crate::support::golden_files(&golden, files), 2);
}
