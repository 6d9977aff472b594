//! The Urban World, Storypath and Block by Block chase kits (`blockprint kit urban-world|storypath|bbb`):
//! every printed odds value against an independent enumeration over dice faces (not the dice engine),
//! ladder rungs, modifiers, movement actions and cover in the PDF text, golden Markdown and JSON,
//! byte-identical reruns, and `check` naming what a kit lacks in an `init` copy.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{blockprint, golden_files, ok, s, tree};
use num_rational::BigRational;

fn make(game: &str, out: &Path, paper: &str) {
    let mut args = vec!["kit", game, "--out", s(out), "--paper", paper];
    // Of these kits only the Call of Cthulhu-style one rolls (in `all`); the others refuse a seed.
    if game == "all" {
        args.extend(["--seed", "7"]);
    }
    ok(&blockprint(&args));
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

/// Odds as the kits' sheets print them, written independently: a whole percentage when exact, else the
/// reduced fraction and the percentage to one decimal when the denominator is below 1000, else the
/// percentage alone.
fn odds(q: &BigRational) -> String {
    let hundred = q * BigRational::from_integer(100.into());
    if hundred.is_integer() {
        format!("{}%", hundred.to_integer())
    } else if q.denom() < &1000.into() {
        format!("{}/{} ({})", q.numer(), q.denom(), pct(q))
    } else {
        pct(q)
    }
}

/// The percentage to one decimal; exact 0 and 1 as `0%` and `100%`, values rounding to them as
/// `under 0.1%` and `over 99.9%`.
fn pct(q: &BigRational) -> String {
    if q.numer() == &0.into() {
        return "0%".into();
    }
    if q.numer() == q.denom() {
        return "100%".into();
    }
    let p = q * BigRational::from_integer(100.into());
    let f = p.numer().to_string().parse::<f64>().unwrap()
        / p.denom().to_string().parse::<f64>().unwrap();
    match format!("{f:.1}%").as_str() {
        "0.0%" => "under 0.1%".into(),
        "100.0%" => "over 99.9%".into(),
        t => t.to_owned(),
    }
}

/// The first fraction in `text` whose denominator has four digits or more (`657/1000`).
fn long_fraction(text: &str) -> Option<String> {
    let b = text.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'/' && i > 0 && b[i - 1].is_ascii_digit() {
            let den = b[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
            if den >= 4 {
                let start = (0..i)
                    .rev()
                    .take_while(|&j| b[j].is_ascii_digit())
                    .last()
                    .unwrap_or(i);
                return Some(text[start..i + 1 + den].to_owned());
            }
        }
    }
    None
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
    // Six fronts (each card twice, a set per party: the sheet is two thirds full) and six backs.
    let c = json(&k.join("urban-world-cards.json"));
    let pages = c["layout"]["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 2);
    assert_eq!(pages[0]["cards"].as_array().unwrap().len(), 6);
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
        for w in &pcts {
            assert!(has(&sheet, w), "the sheet lacks {w}");
        }
    }
    assert_eq!(rows[0]["at_least"][0], "30%");
    assert_eq!(
        rows[0]["pct"],
        serde_json::json!(["30.0%", "0%", "0%", "0%"])
    );
    assert_eq!(rows[9]["pct"][3], "35.0%");
    // Ten d10 have 10^10 outcomes: no fraction of them is printed, only percentages.
    let raw = pdf_extract::extract_text_from_mem(&std::fs::read(k.join("storypath.pdf")).unwrap())
        .unwrap();
    assert_eq!(long_fraction(&raw), None);
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
    // The sheet lists the pool ruling by its title, not its id (issue 40: no ids on paper).
    assert!(has(&sheet, "Dice pools"), "the sheet lists the pool ruling");
    assert!(
        !has(&sheet, "sp.ruling.pool"),
        "the sheet prints the ruling's id"
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
    // The outcome that keeps the lower of two d10 says so in words, on the sheet and in its data.
    assert_eq!(
        rows[4]["result"],
        "Lose the lower of two d10 points from STR/DEX/CON"
    );
    assert!(has(&sheet, "Lose the lower of two d10 points"));
    assert!(!sheet.contains("kl1"));
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
    // Each kit's sheet and cards in Markdown, the sheets' JSON, and the three chase odds pages.
    assert_eq!(goldens.len(), 14);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/kits-small");
    assert_eq!(golden_files(&dir, &goldens), 14);
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
        for page in crate::support::glyphs::pages(&bytes) {
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

/// A point's distance (pt) from a segment.
fn to_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    };
    let (x, y) = (a.0 + t * dx, a.1 + t * dy);
    ((p.0 - x).powi(2) + (p.1 - y).powi(2)).sqrt()
}

/// Every kit's card sheets on A4 and Letter: crop marks only beside the cards of their page (none
/// longer than 5 mm, none more than 2 mm from a card, none across one: the three chase cards' sheet has
/// no marks across its two empty rows), and on every page a footer naming the sheet and the licence, at
/// 6 pt or more, at least 3 mm from the paper's edge, and with no crop mark through it.
#[test]
fn card_sheets_have_short_marks_and_a_legible_footer_clear_of_them() {
    let mm = 72.0 / 25.4;
    for paper in ["a4", "letter"] {
        let dir = tempfile::tempdir().unwrap();
        make("all", dir.path(), paper);
        let k = dir.path().join("kits");
        let sheets = [
            "bbb/chase-cards",
            "bbb/deck-foot",
            "storypath/storypath-cards",
            "urban-world/urban-world-cards",
            "rbf/action-cards",
            "rbf/sprint-tokens",
        ];
        for name in sheets {
            let data = json(&k.join(format!("{name}.json")));
            let l = &data["layout"];
            let (cw, ch, bleed) = (
                l["card_w"].as_f64().unwrap(),
                l["card_h"].as_f64().unwrap(),
                l["bleed"].as_f64().unwrap(),
            );
            let pdf = crate::support::glyphs::pages(
                &std::fs::read(k.join(format!("{name}.pdf"))).unwrap(),
            );
            let layout_pages = l["pages"].as_array().unwrap();
            assert_eq!(pdf.len(), layout_pages.len(), "{paper} {name}");
            for (i, (lp, page)) in layout_pages.iter().zip(&pdf).enumerate() {
                let at = format!("{paper} {name} p. {}", i + 1);
                // Cards of this page, in mm from the top left: trim plus bleed.
                let cards: Vec<(f64, f64, f64, f64)> = lp["cards"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| {
                        let (x, y) = (c["x"].as_f64().unwrap(), c["y"].as_f64().unwrap());
                        (x - bleed, y - bleed, x + cw + bleed, y + ch + bleed)
                    })
                    .collect();
                let marks: Vec<[f64; 4]> = lp["marks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| ["x1", "y1", "x2", "y2"].map(|k| m[k].as_f64().unwrap()))
                    .collect();
                assert!(!marks.is_empty(), "{at}: no crop marks");
                for m in &marks {
                    let len = (m[2] - m[0]).abs() + (m[3] - m[1]).abs();
                    assert!(len <= 5.0 + 1e-9, "{at}: a {len} mm mark {m:?}");
                    let near = cards.iter().any(|&(l, t, r, b)| {
                        let dx = (l - m[0].max(m[2])).max(m[0].min(m[2]) - r).max(0.0);
                        let dy = (t - m[1].max(m[3])).max(m[1].min(m[3]) - b).max(0.0);
                        dx.max(dy) <= 2.0 + 1e-9
                    });
                    assert!(near, "{at}: mark {m:?} away from every card");
                    let across = cards.iter().any(|&(l, t, r, b)| {
                        m[0].max(m[2]) > l
                            && m[0].min(m[2]) < r
                            && m[1].max(m[3]) > t
                            && m[1].min(m[3]) < b
                    });
                    assert!(!across, "{at}: mark {m:?} crosses a card");
                }
                // The sheet's own text: every glyph outside the cards.
                let inside = |x: f64, y: f64| {
                    let (x, y) = (x / mm, (page.height - y) / mm);
                    cards
                        .iter()
                        .any(|&(l, t, r, b)| x >= l && x <= r && y >= t && y <= b)
                };
                let footer: Vec<_> = page.glyphs.iter().filter(|g| !inside(g.x, g.y)).collect();
                // Words may break at line ends: soft hyphens and white space left out.
                let text: String = footer
                    .iter()
                    .flat_map(|g| g.text.chars())
                    .filter(|c| !c.is_whitespace() && *c != '\u{ad}')
                    .collect();
                assert!(
                    text.contains("Licence") && (text.contains("front") || text.contains("back")),
                    "{at}: no footer with the licence: {text}"
                );
                for g in &footer {
                    assert!(
                        g.size >= 6.0 - 1e-6,
                        "{at}: {:?} at {:.1} pt",
                        g.text,
                        g.size
                    );
                    // The glyph's box: upright, or turned to read from bottom to top.
                    let (x0, y0, x1, y1) = if g.upright {
                        (g.x, g.y - 0.25 * g.size, g.x + g.w, g.y + 0.75 * g.size)
                    } else {
                        (g.x - 0.75 * g.size, g.y, g.x + 0.25 * g.size, g.y + g.w)
                    };
                    // Outside the 5 mm printer margin.
                    let edge = 5.0 * mm;
                    assert!(
                        x0 >= edge
                            && y0 >= edge
                            && x1 <= page.width - edge
                            && y1 <= page.height - edge,
                        "{at}: {:?} within 5 mm of the edge ({x0:.1}, {y0:.1})",
                        g.text
                    );
                    // A space prints no ink: it may stand beside a mark.
                    if g.text.trim().is_empty() {
                        continue;
                    }
                    let centre = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
                    let half = ((x1 - x0).max(y1 - y0)) / 2.0;
                    for m in &marks {
                        let a = (m[0] * mm, page.height - m[1] * mm);
                        let b = (m[2] * mm, page.height - m[3] * mm);
                        assert!(
                            to_segment(centre, a, b) > half,
                            "{at}: mark {m:?} through {:?}",
                            g.text
                        );
                    }
                }
            }
        }
    }
}

/// Dice notation on player-facing kit paper: plain rolls stay as written, the rest is said in words.
#[test]
fn dice_notation_is_said_in_words_where_players_would_not_read_it() {
    use blockprint::generators::kits::uwsp::{dice_words, spoken_result};
    let words = |e: &str| dice_words(e).unwrap();
    assert_eq!(words("1d6"), "1d6");
    assert_eq!(words("2d6+1"), "2d6+1");
    assert_eq!(words("2d10kl1"), "the lower of two d10");
    assert_eq!(words("2d20kh1"), "the higher of two d20");
    assert_eq!(words("4d6kh3"), "the highest three of four d6");
    assert_eq!(words("4d6dl1"), "the highest three of four d6");
    assert_eq!(words("3d6kl1"), "the lowest of three d6");
    assert_eq!(words("2dF+3"), "two Fudge dice plus 3");
    assert_eq!(words("dF"), "one Fudge die");
    assert_eq!(words("3d6!"), "three exploding d6");
    assert_eq!(
        words("5d10cs>=8"),
        "the number of five d10 showing 8 or more"
    );
    assert_eq!(words("d%b1"), "percentile dice with one bonus die");
    assert_eq!(words("d%p2"), "percentile dice with two penalty dice");
    assert_eq!(dice_words("not dice"), None);
    assert_eq!(
        spoken_result("Lose {2d10kl1} points, or {1d6} if {odd}"),
        "Lose the lower of two d10 points, or 1d6 if odd"
    );
    assert_eq!(spoken_result("no braces {"), "no braces {");
}

/// Odds for kit paper: short fractions beside the percentage, long ones never; no false 0.0% or 100.0%.
#[test]
fn odds_print_short_fractions_only_and_no_false_zero() {
    use blockprint::generators::kits::uwsp;
    assert_eq!(uwsp::odds(&frac(5, 12)), "5/12 (41.7%)");
    assert_eq!(uwsp::odds(&frac(3, 10)), "30%");
    assert_eq!(uwsp::odds(&frac(7, 216)), "7/216 (3.2%)");
    assert_eq!(uwsp::odds(&frac(657, 1000)), "65.7%");
    assert_eq!(uwsp::odds(&frac(31031, 46656)), "66.5%");
    assert_eq!(uwsp::pct(&frac(0, 1)), "0%");
    assert_eq!(uwsp::pct(&frac(1, 1)), "100%");
    assert_eq!(uwsp::pct(&frac(1, 10_000)), "under 0.1%");
    assert_eq!(uwsp::pct(&frac(9_999, 10_000)), "over 99.9%");
    assert_eq!(uwsp::pct(&frac(1, 3)), "33.3%");
}
