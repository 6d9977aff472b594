//! The Urban World, Storypath and Block by Block chase kits (`blockprint kit urban-world|storypath|bbb`):
//! every printed odds value against an independent enumeration over dice faces (not the dice engine),
//! ladder rungs, modifiers, movement actions and cover in the PDF text, golden Markdown and JSON,
//! byte-identical reruns, and `check` naming what a kit lacks in an `init` copy.

mod support;

use std::collections::BTreeMap;
use std::path::Path;

use num_rational::BigRational;
use support::{blockprint, golden_files, ok, s, tree};

fn make(game: &str, out: &Path, paper: &str) {
    ok(&blockprint(&[
        "kit",
        game,
        "--out",
        s(out),
        "--seed",
        "7",
        "--paper",
        paper,
    ]));
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// The PDF's text without any white space (lines wrap inside table cells and spaced-out headings
/// come apart), lower case: compare with [`squash`]ed strings.
fn pdf_text(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    squash(&pdf_extract::extract_text_from_mem(&bytes).unwrap())
}

fn squash(t: &str) -> String {
    t.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase()
}

/// Whether the squashed PDF text holds `what`.
fn has(text: &str, what: &str) -> bool {
    text.contains(&squash(what))
}

/// Odds as the kits print them, written independently: a whole percentage when exact, else the reduced
/// fraction and the percentage to one decimal.
fn odds(q: &BigRational) -> String {
    let pct = q * BigRational::from_integer(100.into());
    if pct.is_integer() {
        format!("{}%", pct.to_integer())
    } else {
        let f = pct.numer().to_string().parse::<f64>().unwrap()
            / pct.denom().to_string().parse::<f64>().unwrap();
        format!("{}/{} ({:.1}%)", q.numer(), q.denom(), f)
    }
}

fn pct(q: &BigRational) -> String {
    let p = q * BigRational::from_integer(100.into());
    let f = p.numer().to_string().parse::<f64>().unwrap()
        / p.denom().to_string().parse::<f64>().unwrap();
    format!("{f:.1}%")
}

fn frac(n: u64, d: u64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

#[test]
fn urban_world_hold_odds_match_enumeration_and_the_pdf_shows_the_kit() {
    let dir = tempfile::tempdir().unwrap();
    make("urban-world", dir.path(), "a4");
    let k = dir.path().join("kits/urban-world");
    let data = json(&k.join("urban-world.json"));
    let stats = data["hold"]["stats"].as_array().unwrap();
    assert_eq!(stats.len(), 5);
    let sheet = pdf_text(&k.join("urban-world.pdf"));
    for (i, stat) in (-1i64..=3).enumerate() {
        // Two d6, every face pair once: 6-, 7-9, 10+ on the total with the stat added.
        let (mut low, mut mid, mut high) = (0u64, 0u64, 0u64);
        for a in 1..=6 {
            for b in 1..=6 {
                let t = a + b + stat;
                if t <= 6 {
                    low += 1;
                } else if t <= 9 {
                    mid += 1;
                } else {
                    high += 1;
                }
            }
        }
        let want: Vec<String> = [low, mid, high]
            .iter()
            .map(|&c| odds(&frac(c, 36)))
            .collect();
        let got: Vec<String> = stats[i]["odds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(got, want, "stat {stat}");
        for w in &want {
            assert!(has(&sheet, w), "the sheet lacks {w}");
        }
        let pcts: Vec<String> = [low, mid, high]
            .iter()
            .map(|&c| pct(&frac(c, 36)))
            .collect();
        assert_eq!(stats[i]["pct"], serde_json::json!(pcts));
    }
    // Spot values: stat 0 gives 15/36, 15/36, 6/36; stat +3 gives 3/36, 12/36, 21/36.
    assert_eq!(
        stats[1]["odds"],
        serde_json::json!(["5/12 (41.7%)", "5/12 (41.7%)", "1/6 (16.7%)"])
    );
    assert_eq!(
        stats[4]["odds"],
        serde_json::json!(["1/12 (8.3%)", "1/3 (33.3%)", "7/12 (58.3%)"])
    );
    for rung in [
        "Escape!",
        "Getting away",
        "Gaining ground",
        "On their heels",
        "Capture!",
        "Start here",
    ] {
        assert!(has(&sheet, rung), "the ladder lacks {rung}");
    }
    assert_eq!(data["start"], "Gaining ground");
    let cards = pdf_text(&k.join("urban-world-cards.pdf"));
    for option in [
        "Direct the chase",
        "Perform a character action",
        "Gain an advantage",
    ] {
        assert!(has(&cards, option), "the hold card lacks {option}");
    }
    // Four fronts (the hold options twice, one per party) and four backs on one sheet.
    let c = json(&k.join("urban-world-cards.json"));
    let pages = c["layout"]["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 2);
    assert_eq!(pages[0]["cards"].as_array().unwrap().len(), 4);
    assert!(has(&sheet, "Licence") && has(&cards, "Licence"));
}

/// P(at least k successes) for n dice of `die` faces succeeding on `target`+, by running over the faces
/// of each die in turn (a count of face sequences per number of successes).
fn pool(n: usize, die: u64, target: u64) -> Vec<BigRational> {
    let mut counts: Vec<u64> = vec![1];
    for _ in 0..n {
        let mut next = vec![0u64; counts.len() + 1];
        for (succ, &c) in counts.iter().enumerate() {
            for face in 1..=die {
                next[succ + usize::from(face >= target)] += c;
            }
        }
        counts = next;
    }
    let all: u64 = counts.iter().sum();
    (1..=4)
        .map(|k| frac(counts.iter().skip(k).sum(), all))
        .collect()
}

#[test]
fn storypath_pool_odds_match_enumeration_and_the_pdf_names_every_rule() {
    let dir = tempfile::tempdir().unwrap();
    make("storypath", dir.path(), "letter");
    let k = dir.path().join("kits/storypath");
    let data = json(&k.join("storypath.json"));
    assert_eq!(data["pool"]["die"], 10);
    assert_eq!(data["pool"]["target"], 8);
    let rows = data["pool"]["odds"].as_array().unwrap();
    assert_eq!(rows.len(), 10);
    let sheet = pdf_text(&k.join("storypath.pdf"));
    for (i, row) in rows.iter().enumerate() {
        let want = pool(i + 1, 10, 8);
        let exact: Vec<String> = want.iter().map(odds).collect();
        let pcts: Vec<String> = want.iter().map(pct).collect();
        assert_eq!(row["at_least"], serde_json::json!(exact), "{} dice", i + 1);
        assert_eq!(row["pct"], serde_json::json!(pcts), "{} dice", i + 1);
        for w in exact.iter().chain(&pcts) {
            assert!(has(&sheet, w), "the sheet lacks {w}");
        }
    }
    assert_eq!(rows[0]["at_least"][0], "30%");
    let cards = pdf_text(&k.join("storypath-cards.pdf"));
    for name in [
        "Head Start",
        "Hazard",
        "Snatch and Grab",
        "Move",
        "Disengage",
        "Drop / Stand",
        "Rise from Prone",
        "Rush",
        "Utilize Cover",
        "Withdraw",
        "Expendable",
        "Light",
        "Heavy",
        "Full",
        "Barrier",
        "Dangerous terrain",
        "Difficult terrain",
    ] {
        assert!(has(&sheet, name), "the sheet lacks {name}");
        assert!(has(&cards, name), "the cards lack {name}");
    }
    for name in ["Laps needed", "Interval limit", "Pursuer", "Quarry"] {
        assert!(has(&sheet, name), "the tracker lacks {name}");
    }
    assert!(
        has(&sheet, "sp.ruling.pool"),
        "the sheet lists the pool ruling"
    );
}

#[test]
fn bbb_kit_outcome_odds_decks_and_cards() {
    let dir = tempfile::tempdir().unwrap();
    make("bbb", dir.path(), "a4");
    let k = dir.path().join("kits/bbb");
    let data = json(&k.join("chase.json"));
    let sheet = pdf_text(&k.join("chase.pdf"));
    let rows = data["outcome"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    for r in rows {
        let on: i64 = r["on"].as_str().unwrap().parse().unwrap();
        let hits = (1..=6).filter(|&f| f == on).count() as u64;
        let want = odds(&frac(hits, 6));
        assert_eq!(r["odds"], want.as_str());
        assert!(has(&sheet, &want));
    }
    for h in [
        "Hot Pursuit",
        "Swerve",
        "Bridge",
        "Slow down",
        "Splitting up",
        "One-sided pursuit",
        "Chase mat",
    ] {
        assert!(has(&sheet, h), "the sheet lacks {h}");
    }
    // The chase reference cards of `blockprint cards`, three fronts and their backs.
    let c = json(&k.join("chase-cards.json"));
    let fronts: Vec<_> = c["faces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "reference")
        .collect();
    assert_eq!(fronts.len(), 3);
    assert!(fronts.iter().all(|f| f["title"] == "Chase"));
    // Every bbb.chase deck: 52 fronts and one back, as `blockprint deck` prints them.
    for deck in ["deck-city_streets", "deck-foot"] {
        let d = json(&k.join(format!("{deck}.json")));
        assert_eq!(d["faces"].as_array().unwrap().len(), 53, "{deck}");
        let placed: usize = d["layout"]["pages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["side"] == "front")
            .map(|p| p["cards"].as_array().unwrap().len())
            .sum();
        assert_eq!(placed, 52, "{deck}");
        assert!(has(&pdf_text(&k.join(format!("{deck}.pdf"))), "Licence"));
    }
}

#[test]
fn goldens_and_byte_identical_reruns() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    for game in ["urban-world", "storypath", "bbb"] {
        make(game, a.path(), "a4");
        make(game, b.path(), "a4");
    }
    let ta = tree(&a.path().join("kits"));
    let tb = tree(&b.path().join("kits"));
    let strip = |t: &BTreeMap<String, Vec<u8>>| -> BTreeMap<String, Vec<u8>> {
        t.iter()
            .filter(|(n, _)| !n.ends_with("manifest.json") && !n.contains(".manifest"))
            .map(|(n, v)| (n.clone(), v.clone()))
            .collect()
    };
    let (ta, tb) = (strip(&ta), strip(&tb));
    assert_eq!(ta.keys().collect::<Vec<_>>(), tb.keys().collect::<Vec<_>>());
    for (name, bytes) in &ta {
        assert!(bytes == &tb[name], "{name} differs between two runs");
    }
    let goldens: BTreeMap<String, Vec<u8>> = ta
        .into_iter()
        .filter(|(n, _)| {
            n.ends_with(".md")
                || n.ends_with("urban-world.json")
                || n.ends_with("storypath.json")
                || n.ends_with("chase.json")
        })
        .collect();
    assert_eq!(goldens.len(), 11);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/kits-small");
    assert_eq!(golden_files(&dir, &goldens), 11);
}

#[test]
fn check_names_what_a_kit_lacks_in_an_init_copy() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    ok(&blockprint(&["init", s(&content), "--quiet"]));
    // Drop the hold table, the movement lookup and Block by Block's [[kit]].
    let uw = content.join("urban-world/chase.toml");
    let text = std::fs::read_to_string(&uw).unwrap();
    let start = text.find("[[table]]\nid = \"uw.hold\"").unwrap();
    let end = start + text[start..].find("\n[[lookup]]").unwrap();
    std::fs::write(&uw, format!("{}{}", &text[..start], &text[end..])).unwrap();
    let sp = content.join("storypath/chase.toml");
    let text = std::fs::read_to_string(&sp).unwrap();
    let start = text.find("[[lookup]]\nid = \"sp.movement\"").unwrap();
    let end = start + text[start..].find("\n[[lookup]]").unwrap();
    std::fs::write(&sp, format!("{}{}", &text[..start], &text[end..])).unwrap();
    std::fs::remove_file(content.join("bbb/10-kit.toml")).unwrap();
    let o = blockprint(&["check", "--content", s(&content)]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr).to_string() + &String::from_utf8_lossy(&o.stdout);
    for (kind, what) in [
        ("kit-urban-world", "uw.hold"),
        ("kit-storypath", "sp.movement"),
        ("kit-bbb", "bbb"),
    ] {
        assert!(
            err.lines().any(|l| l.contains(kind) && l.contains(what)),
            "check does not name `{what}` for {kind}:\n{err}"
        );
    }
    let o = blockprint(&[
        "kit",
        "urban-world",
        "--content",
        s(&content),
        "--out",
        s(&dir.path().join("o")),
    ]);
    assert_eq!(o.status.code(), Some(1));
}

/// A 400-character unbroken string in a hold option and a movement action still wraps inside the page:
/// no glyph of any sheet or card page leaves the printable area (5 mm from every edge).
#[test]
fn long_unbroken_strings_wrap_inside_their_boxes() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    ok(&blockprint(&["init", s(&content), "--quiet"]));
    let long = "Unbrokenchasetext".repeat(24);
    let uw = content.join("urban-world/chase.toml");
    let text = std::fs::read_to_string(&uw)
        .unwrap()
        .replace("Gain an advantage", &long);
    std::fs::write(&uw, text).unwrap();
    let sp = content.join("storypath/chase.toml");
    let text = std::fs::read_to_string(&sp)
        .unwrap()
        .replace("Turn and run", &long);
    std::fs::write(&sp, text).unwrap();
    let out = dir.path().join("out");
    for game in ["urban-world", "storypath"] {
        ok(&blockprint(&[
            "kit",
            game,
            "--content",
            s(&content),
            "--out",
            s(&out),
            "--seed",
            "1",
        ]));
    }
    let mm = 72.0 / 25.4;
    let mut seen = 0;
    for pdf in [
        "urban-world/urban-world.pdf",
        "urban-world/urban-world-cards.pdf",
        "storypath/storypath.pdf",
        "storypath/storypath-cards.pdf",
    ] {
        let bytes = std::fs::read(out.join("kits").join(pdf)).unwrap();
        for page in support::glyphs::pages(&bytes) {
            for g in &page.glyphs {
                seen += 1;
                assert!(
                    g.x >= 5.0 * mm && g.x + g.w <= page.width - 5.0 * mm,
                    "{pdf} page {}: glyph {:?} at x = {:.1} pt leaves the page ({:.1} pt wide)",
                    g.page,
                    g.text,
                    g.x,
                    page.width
                );
            }
        }
    }
    assert!(seen > 1000);
}
