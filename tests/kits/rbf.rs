//! The Ready/Bolt/Flow kit (`blockprint kit rbf`): five action cards per character set with Bolt readable
//! both ways up (the inverted half's glyphs are turned), Sprint Tokens on a cut grid, TrimBox/BleedBox on
//! every card sheet, the track checker's located diagnostics, the drawn Tenderloin track, golden Markdown
//! and JSON, byte-identical reruns, and long unbroken strings kept on the page.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{blockprint, glyphs, ok, s, tree};
use lopdf::{Document, Object};

const PT_PER_MM: f64 = 72.0 / 25.4;
const ACTIONS: [&str; 5] = ["READY", "RUN", "FLOW", "BOLT", "STRIKE"];
const SETS: usize = 9;

fn kit(paper: &str, extra: &[&str]) -> (tempfile::TempDir, BTreeMap<String, Vec<u8>>) {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["kit", "rbf", "--out", s(dir.path()), "--paper", paper];
    args.extend_from_slice(extra);
    let o = blockprint(&args);
    ok(&o);
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("warning"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let files = tree(&dir.path().join("kits/rbf"));
    (dir, files)
}

fn json(files: &BTreeMap<String, Vec<u8>>, name: &str) -> serde_json::Value {
    serde_json::from_slice(&files[name]).unwrap()
}

/// The text of a page's glyphs, split by whether they stand upright or turned.
fn page_text(p: &glyphs::Page) -> (String, String) {
    let mut up = String::new();
    let mut turned = String::new();
    for g in &p.glyphs {
        if g.upright {
            up.push_str(&g.text);
        } else {
            turned.push_str(&g.text);
        }
    }
    (squash(&up), squash(&turned))
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn five_cards_per_set_and_bolt_reads_both_ways() {
    let (_d, files) = kit("a4", &[]);
    let data = json(&files, "action-cards.json");
    let pages = data["layout"]["pages"].as_array().unwrap();
    let faces = data["faces"].as_array().unwrap();
    // Fronts: every card once; 9 sets × 5 = 45 cards on five 3 × 3 sheets, each followed by its backs.
    let fronts: Vec<&serde_json::Value> = pages.iter().filter(|p| p["side"] == "front").collect();
    assert_eq!(fronts.len(), 5);
    assert_eq!(pages.len(), 10);
    let mut per_set: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for p in &fronts {
        for c in p["cards"].as_array().unwrap() {
            let f = &faces[c["face"].as_u64().unwrap() as usize];
            assert_eq!(f["kind"], "action");
            per_set
                .entry(f["set"].as_u64().unwrap())
                .or_default()
                .push(f["upright"]["action"].as_str().unwrap().to_owned());
        }
    }
    assert_eq!(per_set.len(), SETS);
    for (set, actions) in &per_set {
        assert_eq!(
            actions,
            &["Ready", "Run", "Flow", "Bolt", "Strike"],
            "set {set}"
        );
    }
    // Every back of a set is that set's back.
    for (fp, bp) in pages.iter().step_by(2).zip(pages.iter().skip(1).step_by(2)) {
        for (f, b) in fp["cards"]
            .as_array()
            .unwrap()
            .iter()
            .zip(bp["cards"].as_array().unwrap())
        {
            let (f, b) = (
                &faces[f["face"].as_u64().unwrap() as usize],
                &faces[b["face"].as_u64().unwrap() as usize],
            );
            assert_eq!(b["kind"], "back");
            assert_eq!(f["set"], b["set"]);
        }
    }
    // In the PDF: on the fronts, each action's name once per card (Bolt twice: once each way up), the
    // inverted half's text turned, the upright half's text upright.
    let pdf = glyphs::pages(&files["action-cards.pdf"]);
    assert_eq!(pdf.len(), 10);
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut turned_all, mut upright_all) = (String::new(), String::new());
    for (i, p) in pdf.iter().enumerate() {
        if i % 2 == 1 {
            continue;
        }
        let (up, turned) = page_text(p);
        for a in ACTIONS {
            // "RUN" is no part of another band; count whole band words in both orientations.
            *counts.entry(a).or_default() += up.matches(a).count() + turned.matches(a).count();
        }
        turned_all.push_str(&turned);
        upright_all.push_str(&up);
    }
    assert_eq!(counts["READY"], SETS);
    assert_eq!(counts["RUN"], SETS);
    assert_eq!(counts["FLOW"], SETS);
    assert_eq!(counts["STRIKE"], SETS);
    assert_eq!(
        counts["BOLT"],
        2 * SETS,
        "Bolt prints its name on both halves"
    );
    assert_eq!(
        turned_all.matches("INVERTED:BID2SPRINTTOKENS").count()
            + turned_all.matches("Inverted:bid2SprintTokens").count(),
        SETS,
        "turned glyphs: {}",
        &turned_all[..turned_all.len().min(400)]
    );
    assert_eq!(turned_all.matches("BOLT").count(), SETS);
    assert!(upright_all.contains("bid1SprintToken") || upright_all.contains("BID1SPRINTTOKEN"));
    assert!(!upright_all.contains("bid2SprintTokens") && !upright_all.contains("BID2SPRINTTOKENS"));
    // The odds of the Flow roll on every Flow card, as percentages: 2dF sums −2…2 are 1, 2, 3, 2, 1
    // ways in 9; Ready's one die gives each result 1 in 3. The rolls are said in words: no notation and
    // no fractions on a player's card.
    assert_eq!(upright_all.matches("11.1%").count(), 2 * SETS);
    assert_eq!(upright_all.matches("22.2%").count(), 2 * SETS);
    assert_eq!(upright_all.matches("33.3%").count(), 4 * SETS);
    for notation in ["2dF+3", "dF+2", "1/9", "2/9", "1/3"] {
        assert!(!upright_all.contains(notation), "{notation} on a card");
    }
    // The Flow card's roll heading, and the Strike card's "Roll two Fudge dice against their defence".
    assert_eq!(upright_all.matches("RolltwoFudgedice").count(), 2 * SETS);
    assert_eq!(upright_all.matches("RolltwoFudgediceagainst").count(), SETS);
    assert_eq!(upright_all.matches("RolloneFudgedie").count(), SETS);
    // Every page names the licence; the fronts credit the source on every card.
    for (i, p) in pdf.iter().enumerate() {
        let (up, _) = page_text(p);
        assert!(
            up.contains("CCBY-SA4.0") && (i % 2 == 1 || up.contains("AndrewGross")),
            "page {}",
            i + 1
        );
    }
}

/// The action cards as printed, on A4 and Letter: every title stands inside its colour bar (the capitals
/// centred in the 11 mm bar, or the 8.5 mm bar of a Bolt half), the effect texts of all cards share one
/// size (10 pt: the set is laid out to fit, not shrunk card by card), and no text on any sheet is under
/// 6 pt or within 3 mm of the paper's edge.
#[test]
fn action_cards_titles_in_their_bars_one_effect_size_legible_everywhere() {
    for paper in ["a4", "letter"] {
        let (_d, files) = kit(paper, &["--format", "pdf,json"]);
        let data = json(&files, "action-cards.json");
        let l = &data["layout"];
        let safe = l["safe"].as_f64().unwrap();
        let pdf = glyphs::pages(&files["action-cards.pdf"]);
        let mut effect_sizes = std::collections::BTreeSet::new();
        let mut titles = 0;
        for (i, page) in pdf.iter().enumerate() {
            let cards = l["pages"][i]["cards"].as_array().unwrap();
            let edge = 3.0 * PT_PER_MM;
            for g in &page.glyphs {
                assert!(
                    g.size >= 6.0 - 1e-6,
                    "{paper} p. {}: {:?} at {:.1} pt",
                    i + 1,
                    g.text,
                    g.size
                );
                assert!(
                    g.x >= edge
                        && g.x + g.w <= page.width - edge
                        && g.y >= edge
                        && g.y <= page.height - edge,
                    "{paper} p. {}: {:?} within 3 mm of the edge",
                    i + 1,
                    g.text
                );
            }
            if i % 2 == 1 {
                continue;
            }
            for g in page.glyphs.iter().filter(|g| g.upright) {
                if g.font.ends_with("EBGaramond-Regular") && g.size > 8.0 {
                    effect_sizes.insert((g.size * 100.0).round() as i64);
                }
                if !g.font.contains("BebasNeue") || g.size < 18.0 || g.text.trim().is_empty() {
                    continue;
                }
                // The card the title glyph is on, and its bar: 11 mm for a 25 pt title, 8.5 mm for 19 pt.
                let (x, top) = (g.x / PT_PER_MM, (page.height - g.y) / PT_PER_MM);
                let card = cards
                    .iter()
                    .find(|c| {
                        let cx = c["x"].as_f64().unwrap();
                        x >= cx
                            && x <= cx + l["card_w"].as_f64().unwrap()
                            && top >= c["y"].as_f64().unwrap()
                            && top <= c["y"].as_f64().unwrap() + l["card_h"].as_f64().unwrap()
                    })
                    .unwrap_or_else(|| panic!("{paper}: title glyph {:?} on no card", g.text));
                // Without bleed the card's tint is framed 3 mm inside the cut and its text stands 2 mm
                // further in than the safe zone.
                let bar_top = card["y"].as_f64().unwrap() + safe + 2.0;
                let bar = if (g.size - 25.0).abs() < 0.1 {
                    11.0
                } else {
                    8.5
                };
                assert!(
                    (g.size - 25.0).abs() < 0.1 || (g.size - 19.0).abs() < 0.1,
                    "{}",
                    g.size
                );
                // Bebas Neue's capitals are 0.7 em tall: the caps' middle is the bar's middle.
                let caps_mid = top - 0.35 * g.size / PT_PER_MM;
                assert!(
                    (caps_mid - (bar_top + bar / 2.0)).abs() < 0.6,
                    "{paper}: {:?} caps centred at {caps_mid:.2} mm, bar {bar_top:.2} + {bar} mm",
                    g.text
                );
                titles += 1;
            }
        }
        // READY RUN FLOW STRIKE BOLT(upright half) per set, every letter a glyph.
        assert_eq!(titles, SETS * "READYRUNFLOWSTRIKEBOLT".len(), "{paper}");
        assert_eq!(
            effect_sizes.into_iter().collect::<Vec<_>>(),
            vec![1000],
            "{paper}"
        );
    }
}

#[test]
fn flow_and_ready_odds_match_an_enumeration_of_fudge_dice() {
    let (_d, files) = kit("a4", &["--format", "json"]);
    let data = json(&files, "action-cards.json");
    let faces = data["set_faces"].as_array().unwrap();
    let fudge = vec![-1i64, 0, 1];
    // Read with a constant added (dF+2, 2dF+3) so every total is 1 or more.
    for (name, dice, add) in [("Ready", 1usize, 2i64), ("Flow", 2, 3)] {
        let f = faces
            .iter()
            .find(|f| f["upright"]["action"] == name)
            .unwrap();
        let want =
            crate::support::enumerate(&vec![fudge.clone(); dice], |r| r.iter().sum::<i64>() + add);
        let rows = f["roll"]["rows"].as_array().unwrap();
        assert_eq!(rows.len(), want.len());
        for r in rows {
            let on: i64 = r["on"].as_str().unwrap().parse().unwrap();
            assert_eq!(
                r["fraction"].as_str().unwrap(),
                want[&on].to_string(),
                "{name} {on}"
            );
        }
    }
}

#[test]
fn card_sheets_carry_trim_and_bleed_boxes() {
    for (paper, pw, ph) in [("a4", 210.0, 297.0), ("letter", 215.9, 279.4)] {
        let (_d, files) = kit(paper, &["--format", "pdf"]);
        for (name, card_w, card_h, cols, rows) in [
            ("action-cards.pdf", 63.5, 88.9, 3.0, 3.0),
            ("sprint-tokens.pdf", 25.4, 25.4, 6.0, 9.0),
        ] {
            let doc = Document::load_mem(&files[name]).unwrap();
            let pages = doc.get_pages();
            assert!(!pages.is_empty());
            // The cards are centred on the page: the trim box is the grid of full sheets.
            let (gw, gh) = (cols * card_w, rows * card_h);
            let (l, t) = ((pw - gw) / 2.0, (ph - gh) / 2.0);
            let want = [l, ph - t - gh, l + gw, ph - t].map(|v| v * PT_PER_MM);
            for (n, id) in pages {
                let page = doc.get_dictionary(id).unwrap();
                let rect = |key: &[u8]| -> Vec<f64> {
                    page.get(key)
                        .unwrap_or_else(|_| panic!("{paper} {name} page {n}: no {key:?}"))
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|o| match o {
                            Object::Real(r) => f64::from(*r),
                            Object::Integer(i) => *i as f64,
                            _ => panic!("not a number"),
                        })
                        .collect()
                };
                let trim = rect(b"TrimBox");
                let bleed = rect(b"BleedBox");
                // Every sheet of these documents is full (45 cards = 5 × 9; 54 tokens = 6 × 9).
                for (a, b) in trim.iter().zip(want) {
                    assert!(
                        (a - b).abs() < 0.05,
                        "{paper} {name} page {n}: {trim:?} vs {want:?}"
                    );
                }
                // No bleed: the bleed box is the trim box; both inside the media box.
                assert_eq!(trim, bleed);
                assert!(trim[0] > 0.0 && trim[1] > 0.0);
                assert!(trim[2] < pw * PT_PER_MM && trim[3] < ph * PT_PER_MM);
            }
        }
    }
}

/// A card sheet's footer sits at the foot of the paper, between the crop marks and the edge (or turned
/// up the margin): every upright glyph under the cards' grid has its baseline within 12.5 mm of the
/// bottom edge and 3 mm clear of it. The Sprint Token sheet, with 34 mm under its grid on A4, set its
/// footer 20 to 28 mm up before; its title now stands above the grid.
#[test]
fn card_sheet_footers_sit_at_the_foot_of_the_paper() {
    for paper in ["a4", "letter"] {
        let (_d, files) = kit(paper, &[]);
        // The footer keeps outside the 5 mm printer margin: under the token grid the band that is left
        // holds too little of it, and it turns up the margin.
        for (stem, footers) in [("action-cards", paper == "a4"), ("sprint-tokens", false)] {
            let layout = &json(&files, &format!("{stem}.json"))["layout"];
            let ch = layout["card_h"].as_f64().unwrap();
            let pages = glyphs::pages(&files[&format!("{stem}.pdf")]);
            let (mut under, mut above) = (0, String::new());
            for (p, page) in layout["pages"].as_array().unwrap().iter().zip(&pages) {
                let cards = p["cards"].as_array().unwrap();
                let ys = cards.iter().map(|c| c["y"].as_f64().unwrap());
                let top = ys.clone().fold(f64::MAX, f64::min);
                let bottom = ys.fold(0.0, f64::max) + ch;
                for g in page.glyphs.iter().filter(|g| g.upright) {
                    // From the top edge, in mm.
                    let y = (page.height - g.y) / PT_PER_MM;
                    if y > bottom {
                        under += 1;
                        let up = g.y / PT_PER_MM;
                        assert!(
                            (5.0..=12.5).contains(&up),
                            "{paper} {stem}: `{}` {up:.1} mm above the edge",
                            g.text
                        );
                    } else if y < top {
                        above.push_str(&g.text);
                    }
                }
            }
            // Letter's action cards turn their footer up the margin: nothing under the grid.
            assert_eq!(
                under > 0,
                footers,
                "{paper} {stem}: {under} glyphs under the cards"
            );
            // Only the token sheet's front has its title over the grid.
            let title = if stem == "sprint-tokens" {
                "Ready/Bolt/Flow:SprintTokens"
            } else {
                ""
            };
            assert_eq!(squash(&above), title, "{paper} {stem}");
        }
    }
}

/// The action cards' Markdown names each face once, in the card's words, and describes the print in
/// one line: the sets, the credit every face carries, the backs, and Bolt's lower half word for word as
/// it is printed upside down (the comparison with the PDF leaves turned text out; this checks it against
/// the PDF's turned glyphs).
#[test]
fn the_action_cards_markdown_lists_each_face_once_and_the_print_in_one_line() {
    let (_d, files) = kit("a4", &[]);
    let md = String::from_utf8(files["action-cards.md"].clone()).unwrap();
    let faces: Vec<&str> = md.lines().filter_map(|l| l.strip_prefix("## ")).collect();
    assert_eq!(faces, ["Ready", "Run", "Flow", "Bolt", "Strike"]);
    assert_eq!(md.lines().next(), Some("# Ready/Bolt/Flow"));
    let print: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("*Print file:*"))
        .collect();
    assert_eq!(print.len(), 1, "{md}");
    let line = print[0];
    for want in [
        "*Print file:* 9 sets of the five action cards, 45 cards on 5 duplex sheets",
        "the credit \"Ready/Bolt/Flow by Andrew Gross · CC BY-SA 4.0\"",
        "every back reads READY BOLT FLOW over its set",
        "Bolt's lower half is the card turned upside down: \"Inverted: bid 2 Sprint Tokens\"",
    ] {
        assert!(line.contains(want), "{want}: {line}");
    }
    assert_eq!(md.matches("**If attacked**").count(), 5);
    assert!(
        !md.contains("About this kit") && !md.contains("rbf.ruling"),
        "{md}"
    );
    // Bolt's turned half, as the PDF prints it, is the print-file line's quotes in order.
    let quoted: String = line
        .split("upside down: ")
        .nth(1)
        .unwrap()
        .split('"')
        .skip(1)
        .step_by(2)
        .collect();
    let bolt = glyphs::pages(&files["action-cards.pdf"])
        .iter()
        .map(|p| page_text(p).1)
        .find(|t| !t.is_empty())
        .unwrap();
    // Compared in capitals (the card sets its labels in them), hyphens of broken words dropped.
    let turned = squash(&quoted).to_uppercase().replace('-', "");
    let printed = bolt.to_uppercase().replace('-', "");
    assert!(printed.contains(&turned), "{printed} lacks {turned}");
}

/// The drawn track's feature page prints the kit's house rulings complete (title, ruling and why, under
/// the kit's editorial note), in the PDF and the Markdown alike, without the rulings' ids: the one place
/// the kit prints their reasons.
#[test]
fn the_track_prints_the_house_rulings_with_their_reasons() {
    use super::sentences::{has, md_lines, norm, pdf_lines};
    for paper in ["a4", "letter"] {
        let (_d, files) = kit(paper, &[]);
        let data = json(&files, "track-rbf_track_tenderloin.json");
        let about = &data["about"];
        let rulings = about["rulings"].as_array().unwrap();
        assert_eq!(rulings.len(), 5);
        let pdf = pdf_lines(&files["track-rbf_track_tenderloin.pdf"]).concat();
        let md = String::from_utf8(files["track-rbf_track_tenderloin.md"].clone()).unwrap();
        let md_text = md_lines(&md).concat();
        let mut wants = vec![norm(about["editorial"].as_str().unwrap())];
        for r in rulings {
            let s = |k: &str| r[k].as_str().unwrap();
            wants.push(norm(&format!(
                "{}. {} Why: {}",
                s("title"),
                s("ruling"),
                s("reason")
            )));
            assert!(
                !md.contains(s("id")),
                "{paper}: the Markdown names {}",
                s("id")
            );
        }
        for w in &wants {
            assert!(has(&pdf, w), "{paper}: the PDF lacks {w}");
            assert!(has(&md_text, w), "{paper}: the Markdown lacks {w}");
        }
    }
}

#[test]
fn tokens_and_sprint_track() {
    let (_d, files) = kit("letter", &[]);
    let tokens = json(&files, "sprint-tokens.json");
    let pages = tokens["layout"]["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 2);
    assert_eq!(pages[0]["cards"].as_array().unwrap().len(), 54);
    assert!(!pages[0]["marks"].as_array().unwrap().is_empty());
    let text = pdf_extract::extract_text_from_mem(&files["sprint-track.pdf"]).unwrap();
    let t = squash(&text);
    for want in [
        "16orless",
        "17–20",
        "21–24",
        "25–28",
        "29ormore",
        "Set9",
        "CCBY-SA4.0",
    ] {
        assert!(t.contains(want), "sprint track lacks {want}: {text}");
    }
    let md = String::from_utf8(files["sprint-track.md"].clone()).unwrap();
    assert!(md.contains("| 29 or more | 4 |"), "{md}");
}

#[test]
fn the_tenderloin_track_is_drawn_from_its_description() {
    let (_d, files) = kit("a4", &[]);
    let pdf = &files["track-rbf_track_tenderloin.pdf"];
    let pages = glyphs::pages(pdf);
    assert_eq!(pages.len(), 2);
    let (up, _) = page_text(&pages[0]);
    // Every space number, the five challenges with their paths and damage, gates, exit, starts.
    for want in [
        "FootchasethroughtheTenderloinDistrict",
        "C1",
        "C2",
        "C3",
        "C4",
        "C5",
        "+1→8",
        "−1→6",
        "+1→13",
        "−1→11",
        "+1→34",
        "−1→32",
        "2dmg",
        "3dmg",
        "4dmg",
        "GATE",
        "EXIT",
        "4pursuers",
        "3evaders",
        "36",
    ] {
        assert!(up.contains(want), "track page lacks `{want}`");
    }
    let data = json(&files, "track-rbf_track_tenderloin.json");
    assert_eq!(data["spaces"].as_array().unwrap().len(), 37);
    let ch: Vec<(i64, i64, i64, i64)> = data["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["space"].as_i64().unwrap(),
                c["plus"].as_i64().unwrap(),
                c["minus"].as_i64().unwrap(),
                c["damage"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        ch,
        [
            (6, 8, 6, 2),
            (11, 13, 11, 3),
            (19, 21, 19, 3),
            (24, 26, 24, 4),
            (32, 34, 32, 3)
        ]
    );
    // No challenge's paths are split across rows (13 spaces a row on A4).
    for c in data["challenges"].as_array().unwrap() {
        let row =
            |i: &serde_json::Value| data["spaces"][i.as_u64().unwrap() as usize]["row"].clone();
        assert_eq!(row(&c["at"]), row(&c["plus_at"]));
        assert_eq!(row(&c["at"]), row(&c["minus_at"]));
    }
    let (up2, _) = page_text(&pages[1]);
    assert!(
        up2.contains("Departingtrain") && up2.contains("Trafficcontrolgate")
            || up2.contains("Traffic-controlgate")
    );
    assert!(
        up2.contains("Whomovesfourwith"),
        "rulings on the track's feature page"
    );
}

#[test]
fn a_gm_s_own_track_gets_its_drawing_and_bad_tracks_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("content")
            .as_path(),
        &content,
    );
    std::fs::write(
        content.join("rbf/mine.toml"),
        r#"[[track]]
id = "rbf.track.mine"
title = "Market run"

[[track.space]]
n = 1
name = "Stalls"

[[track.space]]
n = 2
[track.space.challenge]
title = "Fruit cart"
plus = 4
minus = 1
damage = 1

[[track.space]]
n = 3

[[track.space]]
n = 4
[track.space.exit]
title = "Tram"

[[track.start]]
who = "Guard"
side = "pursuer"
space = 1

[[track.start]]
who = "Thief"
side = "evader"
space = 2
"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    ok(&blockprint(&[
        "kit",
        "rbf",
        "--content",
        s(&content),
        "--out",
        s(&out),
    ]));
    let mine = std::fs::read(out.join("kits/rbf/track-rbf_track_mine.pdf")).unwrap();
    let (up, _) = page_text(&glyphs::pages(&mine)[0]);
    assert!(
        up.contains("Marketrun") && up.contains("+1→4") && up.contains("−2→1"),
        "{up}"
    );
    // Break it: the + path runs off the track. `check` and `kit` both refuse, located.
    let bad = std::fs::read_to_string(content.join("rbf/mine.toml"))
        .unwrap()
        .replace("plus = 4", "plus = 40");
    std::fs::write(content.join("rbf/mine.toml"), bad).unwrap();
    let o = blockprint(&["check", "--content", s(&content), "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let e = &v["errors"][0];
    assert_eq!(e["kind"], "track_path");
    assert_eq!(e["file"], "rbf/mine.toml");
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(13), Some(8))
    );
    let o = blockprint(&["kit", "rbf", "--content", s(&content), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn track_fixtures_are_located() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/check");
    // Each fixture with the (file, line, column) of every fault it plants.
    type Spots = [(&'static str, u64, u64)];
    let cases: [(&str, &Spots); 4] = [
        ("track_order", &[("track_order", 9, 5)]),
        (
            "track_path",
            &[
                ("track_path", 12, 8),
                ("track_path", 20, 8),
                ("track_path", 21, 9),
                ("track_path", 33, 8),
                ("track_path", 34, 9),
            ],
        ),
        ("track_exit", &[("track_exit", 2, 6)]),
        (
            "track_start",
            &[("track_start", 2, 6), ("track_start", 16, 9)],
        ),
    ];
    for (dir, want) in cases {
        let o = blockprint(&[
            "check",
            "--content",
            s(&root.join(dir).join("content")),
            "--format",
            "json",
        ]);
        assert_eq!(o.status.code(), Some(1), "{dir}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let got: Vec<(String, u64, u64)> = v["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["kind"].as_str().unwrap().to_owned(),
                    d["line"].as_u64().unwrap(),
                    d["column"].as_u64().unwrap(),
                )
            })
            .collect();
        let want: Vec<(String, u64, u64)> = want
            .iter()
            .map(|(k, l, c)| ((*k).to_owned(), *l, *c))
            .collect();
        assert_eq!(got, want, "{dir}");
    }
}

#[test]
fn golden_markdown_and_json() {
    let (_d, files) = kit("a4", &["--format", "md,json"]);
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/kit-rbf");
    let picked: BTreeMap<String, Vec<u8>> = files
        .into_iter()
        .filter(|(n, _)| n.ends_with(".md") || (n.ends_with(".json") && n != "manifest.json"))
        .collect();
    // The six documents' Markdown and JSON (the chase odds page among them).
    assert_eq!(crate::support::golden_files(&golden, &picked), 12);
}

#[test]
fn reruns_are_byte_identical() {
    let (_a, first) = kit("letter", &[]);
    let (_b, second) = kit("letter", &[]);
    assert_eq!(first.len(), second.len());
    for (name, bytes) in &first {
        assert!(second[name] == *bytes, "{name} differs between runs");
    }
}

#[test]
fn long_unbroken_strings_stay_on_the_page() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("content")
            .as_path(),
        &content,
    );
    let long = "Ж".repeat(40) + &"x".repeat(160);
    let track = std::fs::read_to_string(content.join("rbf/tenderloin.toml"))
        .unwrap()
        .replace("name = \"Promenade stairs\"", &format!("name = \"{long}\""))
        .replace(
            "title = \"Mural work crew\"",
            &format!("title = \"{long}\""),
        );
    std::fs::write(content.join("rbf/tenderloin.toml"), track).unwrap();
    let actions = std::fs::read_to_string(content.join("rbf/actions.toml"))
        .unwrap()
        .replace(
            "The steady default: three spaces",
            &format!("{long} three spaces"),
        );
    std::fs::write(content.join("rbf/actions.toml"), actions).unwrap();
    let out = dir.path().join("out");
    ok(&blockprint(&[
        "kit",
        "rbf",
        "--content",
        s(&content),
        "--out",
        s(&out),
        "--format",
        "pdf",
    ]));
    for name in ["track-rbf_track_tenderloin.pdf", "action-cards.pdf"] {
        let pdf = std::fs::read(out.join("kits/rbf").join(name)).unwrap();
        for (i, p) in glyphs::pages(&pdf).iter().enumerate() {
            for g in &p.glyphs {
                assert!(
                    g.x >= 0.0 && g.x + g.w <= p.width + 0.01 && g.y >= 0.0 && g.y <= p.height,
                    "{name} page {}: glyph `{}` at {:.1},{:.1} off the page",
                    i + 1,
                    g.text,
                    g.x,
                    g.y
                );
            }
        }
    }
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}
