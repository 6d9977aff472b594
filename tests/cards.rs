//! Print-and-play cards (issue 10): cards per page, crop marks outside every card (layout data and the
//! PDF's own drawing), backs mirrored per duplex mode, `/ViewerPreferences`, TrimBox/BleedBox of single
//! cards, PNG sizes, the safe zone (every glyph of every card at least 3 mm inside the trim), grids that do
//! not fit, exact odds on the reference cards, seeded draws, byte-identical reruns and long strings.

use std::path::Path;
use std::process::Output;

use crate::support::glyphs;
use lopdf::content::Content;
use lopdf::{Document, Object};

const PT_PER_MM: f64 = 72.0 / 25.4;

use crate::support::blockprint as run;

fn ok(args: &[&str]) -> Output {
    let o = run(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("warning"),
        "{args:?} warned: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// `deck` (or `cards`) into a fresh folder; returns it.
fn make(cmd: &[&str], extra: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap().to_owned();
    let mut args: Vec<&str> = cmd.to_vec();
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--out", &out, "--quiet"]);
    ok(&args);
    dir
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

const CITY: &str = "cards/decks/bbb_chase_city_streets";

#[test]
fn nine_poker_cards_a_sheet_on_a4_and_letter_each_followed_by_its_backs() {
    for paper in ["a4", "letter"] {
        let dir = make(&["deck", "bbb.chase.city_streets"], &["--paper", paper]);
        let data = json(&dir.path().join(format!("{CITY}.json")));
        let l = &data["layout"];
        assert_eq!(
            (l["cols"].as_u64(), l["rows"].as_u64()),
            (Some(3), Some(3)),
            "{paper}"
        );
        let pages = l["pages"].as_array().unwrap();
        // 52 cards: five full sheets and one of 7, each a front page then a back page.
        assert_eq!(pages.len(), 12);
        let counts: Vec<usize> = pages
            .iter()
            .map(|p| p["cards"].as_array().unwrap().len())
            .collect();
        assert_eq!(counts, [9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 7, 7]);
        for (i, p) in pages.iter().enumerate() {
            assert_eq!(p["side"], if i % 2 == 0 { "front" } else { "back" });
        }
        let pdf = std::fs::read(dir.path().join(format!("{CITY}.pdf"))).unwrap();
        let doc = Document::load_mem(&pdf).unwrap();
        assert_eq!(doc.get_pages().len(), 12);
        // Every front face's obstacle is on its page, in the slot's area.
        let gp = glyphs::pages(&pdf);
        let text: String = gp[0].glyphs.iter().map(|g| g.text.as_str()).collect();
        assert!(
            text.contains("Clearroad") || text.contains("Clear road"),
            "{text}"
        );
    }
    // Other sizes: tarot 2×2 on A4, mini 4×4.
    for (size, cols, rows) in [
        ("tarot", 2, 2),
        ("mini", 4, 4),
        ("bridge", 3, 3),
        ("63x88mm", 3, 3),
    ] {
        let dir = make(&["deck", "bbb.chase.city_streets"], &["--card-size", size]);
        let l = &json(&dir.path().join(format!("{CITY}.json")))["layout"];
        assert_eq!(
            (l["cols"].as_u64(), l["rows"].as_u64()),
            (Some(cols), Some(rows)),
            "{size}"
        );
    }
}

/// Stroked straight segments of a page in PDF user space (points, origin bottom left).
fn segments(doc: &Document, page: lopdf::ObjectId) -> Vec<(f64, f64, f64, f64)> {
    fn num(o: &Object) -> f64 {
        match o {
            Object::Integer(i) => *i as f64,
            Object::Real(r) => f64::from(*r),
            _ => 0.0,
        }
    }
    let content = Content::decode(&doc.get_page_content(page).unwrap()).unwrap();
    let mut stack = vec![[1.0, 0.0, 0.0, 1.0, 0.0, 0.0f64]];
    let mut path: Vec<(f64, f64, f64, f64)> = Vec::new();
    let mut at = (0.0, 0.0);
    let mut out = Vec::new();
    let apply =
        |m: &[f64; 6], x: f64, y: f64| (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]);
    for op in content.operations {
        let a: Vec<f64> = op.operands.iter().map(num).collect();
        let m = *stack.last().unwrap();
        match op.operator.as_str() {
            "q" => stack.push(m),
            "Q" => {
                stack.pop();
            }
            "cm" => {
                let n = [a[0], a[1], a[2], a[3], a[4], a[5]];
                let r = [
                    n[0] * m[0] + n[1] * m[2],
                    n[0] * m[1] + n[1] * m[3],
                    n[2] * m[0] + n[3] * m[2],
                    n[2] * m[1] + n[3] * m[3],
                    n[4] * m[0] + n[5] * m[2] + m[4],
                    n[4] * m[1] + n[5] * m[3] + m[5],
                ];
                *stack.last_mut().unwrap() = r;
            }
            "m" => at = apply(&m, a[0], a[1]),
            "l" => {
                let to = apply(&m, a[0], a[1]);
                path.push((at.0, at.1, to.0, to.1));
                at = to;
            }
            "S" => out.append(&mut path),
            "n" | "f" | "F" | "f*" | "B" | "b" | "B*" | "b*" | "s" => path.clear(),
            _ => {}
        }
    }
    out
}

#[test]
fn crop_marks_reach_the_page_edge_and_never_enter_a_card_or_its_bleed() {
    for (paper, bleed, gutter) in [
        ("a4", "0", "0"),
        ("letter", "0", "3mm"),
        ("a4", "3mm", "0"),
        ("letter", "0.125in", "3mm"),
    ] {
        let mut extra = vec![
            "--paper",
            paper,
            "--bleed",
            bleed,
            "--gutter",
            gutter,
            "--printer-margin",
            "3mm",
        ];
        if bleed != "0" {
            extra.extend(["--card-size", "bridge"]);
        }
        let dir = make(&["deck", "bbb.chase.city_streets"], &extra);
        let data = json(&dir.path().join(format!("{CITY}.json")));
        let l = &data["layout"];
        let (pw, ph) = (l["page_w"].as_f64().unwrap(), l["page_h"].as_f64().unwrap());
        let (cw, chh, b) = (
            l["card_w"].as_f64().unwrap(),
            l["card_h"].as_f64().unwrap(),
            l["bleed"].as_f64().unwrap(),
        );
        let pdf = std::fs::read(dir.path().join(format!("{CITY}.pdf"))).unwrap();
        let doc = Document::load_mem(&pdf).unwrap();
        for (k, (_, id)) in doc.get_pages().into_iter().enumerate().take(2) {
            let page = &l["pages"][k];
            // Cards in PDF space: trim box grown by the bleed.
            let boxes: Vec<(f64, f64, f64, f64)> = page["cards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    let (x, y) = (c["x"].as_f64().unwrap(), c["y"].as_f64().unwrap());
                    (
                        (x - b) * PT_PER_MM,
                        (ph - y - chh - b) * PT_PER_MM,
                        (x + cw + b) * PT_PER_MM,
                        (ph - y + b) * PT_PER_MM,
                    )
                })
                .collect();
            let (w, h) = (pw * PT_PER_MM, ph * PT_PER_MM);
            let edge = |v: f64, e: f64| (v - e).abs() < 0.01;
            let marks: Vec<_> = segments(&doc, id)
                .into_iter()
                .filter(|s| {
                    [s.0, s.2].iter().any(|&x| edge(x, 0.0) || edge(x, w))
                        || [s.1, s.3].iter().any(|&y| edge(y, 0.0) || edge(y, h))
                })
                .collect();
            assert_eq!(
                marks.len(),
                page["marks"].as_array().unwrap().len(),
                "{paper} {bleed} {gutter} page {k}"
            );
            assert!(marks.len() >= 12);
            for m in &marks {
                assert!(m.0 == m.2 || m.1 == m.3, "not straight: {m:?}");
                for bx in &boxes {
                    let inside = m.0.max(m.2) > bx.0 + 0.01
                        && m.0.min(m.2) < bx.2 - 0.01
                        && m.1.max(m.3) > bx.1 + 0.01
                        && m.1.min(m.3) < bx.3 - 0.01;
                    assert!(!inside, "{paper} {bleed}: mark {m:?} enters card {bx:?}");
                }
            }
            // The layout's marks are where the PDF drew them.
            for lm in page["marks"].as_array().unwrap() {
                let x1 = lm["x1"].as_f64().unwrap() * PT_PER_MM;
                let y1 = h - lm["y1"].as_f64().unwrap() * PT_PER_MM;
                assert!(
                    marks
                        .iter()
                        .any(|m| ((m.0 - x1).abs() < 0.05 && (m.1 - y1).abs() < 0.05)
                            || ((m.2 - x1).abs() < 0.05 && (m.3 - y1).abs() < 0.05)),
                    "layout mark {lm} not drawn"
                );
            }
        }
    }
}

#[test]
fn backs_are_mirrored_for_the_duplex_mode_and_the_viewer_is_told() {
    for (mode, name) in [
        ("long", "DuplexFlipLongEdge"),
        ("short", "DuplexFlipShortEdge"),
        ("none", "Simplex"),
    ] {
        let dir = make(
            &["deck", "bbb.chase.city_streets"],
            &[
                "--duplex",
                mode,
                "--gutter",
                "3mm",
                "--back-offset",
                "0.5mm,-1mm",
            ],
        );
        let l = json(&dir.path().join(format!("{CITY}.json")))["layout"].clone();
        let (pw, ph) = (l["page_w"].as_f64().unwrap(), l["page_h"].as_f64().unwrap());
        let (cw, ch) = (l["card_w"].as_f64().unwrap(), l["card_h"].as_f64().unwrap());
        let fronts = l["pages"][0]["cards"].as_array().unwrap().clone();
        let backs = l["pages"][1]["cards"].as_array().unwrap().clone();
        assert_eq!(fronts.len(), 9);
        for (k, (f, bk)) in fronts.iter().zip(&backs).enumerate() {
            let (fx, fy) = (f["x"].as_f64().unwrap(), f["y"].as_f64().unwrap());
            let (bx, by) = (
                bk["x"].as_f64().unwrap() - 0.5,
                bk["y"].as_f64().unwrap() + 1.0,
            );
            let (ex, ey) = match mode {
                "long" => (pw - fx - cw, fy),
                "short" => (fx, ph - fy - ch),
                _ => (fx, fy),
            };
            assert!(
                (bx - ex).abs() < 1e-6 && (by - ey).abs() < 1e-6,
                "{mode} card {k}: back at {bx},{by}, expected {ex},{ey}"
            );
            // Column/row mirroring, as slots: card k's back sits in the mirrored slot.
            let (c, r) = (k % 3, k / 3);
            let mirrored = match mode {
                "long" => r * 3 + (2 - c),
                "short" => (2 - r) * 3 + c,
                _ => k,
            };
            let m = &fronts[mirrored];
            assert!(
                (m["x"].as_f64().unwrap() - bx).abs() < 1e-6
                    && (m["y"].as_f64().unwrap() - by).abs() < 1e-6
            );
        }
        let pdf = std::fs::read(dir.path().join(format!("{CITY}.pdf"))).unwrap();
        let doc = Document::load_mem(&pdf).unwrap();
        let prefs = doc
            .catalog()
            .unwrap()
            .get(b"ViewerPreferences")
            .unwrap()
            .as_dict()
            .unwrap();
        assert_eq!(
            prefs.get(b"Duplex").unwrap().as_name().unwrap(),
            name.as_bytes()
        );
        assert_eq!(
            prefs.get(b"PrintScaling").unwrap().as_name().unwrap(),
            b"None"
        );
    }
}

fn rect(page: &lopdf::Dictionary, key: &[u8]) -> Vec<f64> {
    page.get(key)
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|o| match o {
            Object::Integer(i) => *i as f64,
            Object::Real(r) => f64::from(*r),
            _ => f64::NAN,
        })
        .collect()
}

#[test]
fn single_cards_carry_trim_and_bleed_boxes_and_pngs_are_300_dpi() {
    let dir = make(
        &["deck", "bbb.chase.city_streets"],
        &["--single", "--bleed", "0.125in"],
    );
    let png_dir = dir.path().join("png");
    ok(&[
        "deck",
        "bbb.chase.city_streets",
        "--single",
        "--bleed",
        "0.125in",
        "--quiet",
        "--out",
        dir.path().to_str().unwrap(),
        "--png",
        png_dir.to_str().unwrap(),
    ]);
    let pdf = std::fs::read(dir.path().join(format!("{CITY}.pdf"))).unwrap();
    let doc = Document::load_mem(&pdf).unwrap();
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 104, "52 fronts and 52 backs, interleaved");
    for (_, id) in pages {
        let page = doc.get_dictionary(id).unwrap();
        // Poker is 2.5 × 3.5 in; with 1/8 in bleed the page is 2.75 × 3.75 in = 198 × 270 pt.
        let media = rect(page, b"MediaBox");
        let close = |a: &[f64], b: &[f64]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 0.01)
        };
        assert!(close(&media, &[0.0, 0.0, 198.0, 270.0]), "{media:?}");
        assert!(close(&rect(page, b"BleedBox"), &[0.0, 0.0, 198.0, 270.0]));
        assert!(
            close(&rect(page, b"TrimBox"), &[9.0, 9.0, 189.0, 261.0]),
            "{:?}",
            rect(page, b"TrimBox")
        );
    }
    let data = json(&dir.path().join(format!("{CITY}.json")));
    let sides: Vec<&str> = data["layout"]["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["side"].as_str().unwrap())
        .collect();
    assert_eq!(&sides[..4], ["front", "back", "front", "back"]);
    // PNGs: 52 fronts and the one back, each 825 × 1125 px.
    let files = crate::support::tree(&png_dir);
    assert_eq!(files.len(), 53, "{:?}", files.keys().collect::<Vec<_>>());
    assert!(files.contains_key("bbb_chase_city_streets/001-front.png"));
    assert!(files.contains_key("bbb_chase_city_streets/back.png"));
    for (name, bytes) in &files {
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{name}");
        let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
        let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
        assert_eq!((w, h), (825, 1125), "{name}");
    }
    // The size follows the card: tarot 70 × 120 mm with 3 mm bleed is 76 × 126 mm = 898 × 1488 px.
    let png2 = dir.path().join("png-tarot");
    ok(&[
        "cards",
        "--single",
        "--card-size",
        "tarot",
        "--bleed",
        "3mm",
        "--quiet",
        "--out",
        dir.path().join("t").to_str().unwrap(),
        "--png",
        png2.to_str().unwrap(),
    ]);
    let files = crate::support::tree(&png2);
    assert!(
        files.keys().any(|k| k.starts_with("reference/"))
            && files.keys().any(|k| k.starts_with("approach/"))
    );
    for (name, bytes) in &files {
        let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
        let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
        assert_eq!((w, h), (898, 1488), "{name}");
    }
}

/// Every visible glyph of every page of a single-card PDF lies inside the safe zone: 3 mm inside the trim.
/// A glyph's box runs from its baseline to 0.7 em above it (where typst's line boxes end) across its advance.
fn assert_safe(pdf: &[u8], bleed_mm: f64, what: &str) -> usize {
    let safe = (bleed_mm + 3.0) * PT_PER_MM;
    let mut n = 0;
    for page in glyphs::pages(pdf) {
        for g in page
            .glyphs
            .iter()
            .filter(|g| g.w > 0.01 && !g.text.trim().is_empty())
        {
            n += 1;
            let tol = 0.3;
            assert!(
                g.x >= safe - tol
                    && g.x + g.w <= page.width - safe + tol
                    && g.y >= safe - tol
                    && g.y + 0.7 * g.size <= page.height - safe + tol,
                "{what}: `{}` ({}, {:.1} pt) at x {:.2}–{:.2}, y {:.2} on page {} leaves the safe zone {safe:.2}–{:.2} × {safe:.2}–{:.2}",
                g.text,
                g.font,
                g.size,
                g.x,
                g.x + g.w,
                g.y,
                g.page + 1,
                page.width - safe,
                page.height - safe,
            );
        }
    }
    n
}

#[test]
fn no_text_of_any_card_crosses_the_safe_zone() {
    for (size, bleed) in [
        ("poker", "0"),
        ("poker", "3mm"),
        ("mini", "0.125in"),
        ("tarot", "0"),
    ] {
        let b = match bleed {
            "3mm" => 3.0,
            "0.125in" => 3.175,
            _ => 0.0,
        };
        let dir = make(
            &["deck"],
            &["--single", "--card-size", size, "--bleed", bleed],
        );
        for deck in ["bbb_chase_city_streets", "bbb_chase_foot"] {
            let pdf = std::fs::read(dir.path().join(format!("cards/decks/{deck}.pdf"))).unwrap();
            assert!(assert_safe(&pdf, b, &format!("{deck} {size} {bleed}")) > 52 * 10);
        }
        let dir = make(
            &["cards", "bbb"],
            &[
                "--single",
                "--card-size",
                size,
                "--bleed",
                bleed,
                "--players",
                "1",
            ],
        );
        for doc in ["reference", "approach"] {
            let pdf = std::fs::read(dir.path().join(format!("cards/bbb/{doc}.pdf"))).unwrap();
            assert!(assert_safe(&pdf, b, &format!("{doc} {size} {bleed}")) > 100);
        }
    }
}

#[test]
fn long_strings_wrap_inside_their_card() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    std::fs::create_dir_all(&content).unwrap();
    let long = "Pneumonoultramicroscopicsilicovolcanoconiosis".repeat(7);
    let words = "a very long obstacle description that goes on and on ".repeat(12);
    let suit = |p: &str| {
        (0..13)
            .map(|i| match i {
                0 => format!("\"{long}\""),
                1 => format!("\"{}\"", words.trim()),
                _ => format!("\"{p}{i}\""),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let toml = format!(
        "[[deck]]\nid = \"x.long\"\ntitle = \"{long}\"\nsuits = {{ hearts = \"Wisdom ({long})\", clubs = \"{long}\", diamonds = \"Dexterity (quick)\", spades = \"Intelligence\" }}\nhearts = [{}]\nclubs = [{}]\ndiamonds = [{}]\nspades = [{}]\n",
        suit("h"),
        suit("c")
            .replace(&long, &format!("c{long}"))
            .replace("a very", "c very"),
        suit("d")
            .replace(&long, &format!("d{long}"))
            .replace("a very", "d very"),
        suit("s")
            .replace(&long, &format!("s{long}"))
            .replace("a very", "s very"),
    );
    std::fs::write(content.join("deck.toml"), toml).unwrap();
    let out = dir.path().join("out");
    for bleed in ["0", "0.125in"] {
        ok(&[
            "deck",
            "--single",
            "--bleed",
            bleed,
            "--content",
            content.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
            "--force",
        ]);
        let pdf = std::fs::read(out.join("cards/decks/x_long.pdf")).unwrap();
        assert_safe(
            &pdf,
            if bleed == "0" { 0.0 } else { 3.175 },
            &format!("long strings, bleed {bleed}"),
        );
    }
    // On sheets too: every glyph of a front page lies in the safe zone of one of the page's cards.
    ok(&[
        "deck",
        "--content",
        content.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--force",
    ]);
    let pdf = std::fs::read(out.join("cards/decks/x_long.pdf")).unwrap();
    let data = json(&out.join("cards/decks/x_long.json"));
    let l = &data["layout"];
    let (ph, cw, ch) = (
        l["page_h"].as_f64().unwrap(),
        l["card_w"].as_f64().unwrap(),
        l["card_h"].as_f64().unwrap(),
    );
    for (k, page) in glyphs::pages(&pdf).into_iter().enumerate() {
        let cards = l["pages"][k]["cards"].as_array().unwrap();
        for g in page
            .glyphs
            .iter()
            .filter(|g| g.w > 0.01 && !g.text.trim().is_empty())
        {
            let ok = cards.iter().any(|c| {
                let x0 = (c["x"].as_f64().unwrap() + 3.0) * PT_PER_MM;
                let x1 = (c["x"].as_f64().unwrap() + cw - 3.0) * PT_PER_MM;
                let y0 = (ph - c["y"].as_f64().unwrap() - ch + 3.0) * PT_PER_MM;
                let y1 = (ph - c["y"].as_f64().unwrap() - 3.0) * PT_PER_MM;
                g.x >= x0 - 0.3
                    && g.x + g.w <= x1 + 0.3
                    && g.y >= y0 - 0.3
                    && g.y + 0.7 * g.size <= y1 + 0.3
            });
            assert!(
                ok,
                "page {}: `{}` at {:.1},{:.1} is in no card's safe zone",
                k + 1,
                g.text,
                g.x,
                g.y
            );
        }
    }
}

#[test]
fn a_grid_that_does_not_fit_is_a_usage_error_naming_the_largest_that_does() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let o = run(&["deck", "--bleed", "3mm", "--grid", "3x3", "--out", out]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "a 3×3 grid of poker cards (63.5 × 88.9 mm + 3 mm bleed) need 208.5 × 284.7 mm"
        ),
        "{err}"
    );
    assert!(
        err.contains("the largest grid that fits is 2×3 (6 cards a page)"),
        "{err}"
    );
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "nothing written"
    );
    // Not one card fits.
    let o = run(&["deck", "--card-size", "250x250mm", "--out", out]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not one card fits"));
    // Bad flags name the flag.
    for (flag, value) in [
        ("--bleed", "3cm"),
        ("--gutter=-1mm", ""),
        ("--card-size", "huge"),
        ("--grid", "0x3"),
        ("--back-offset", "1mm"),
    ] {
        let args: Vec<&str> = ["deck", flag, value, "--out", out]
            .into_iter()
            .filter(|a| !a.is_empty())
            .collect();
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{flag} {value}");
        let name = flag.split('=').next().unwrap();
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(name),
            "{flag}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    // Without --grid the largest grid is chosen: 6 a sheet.
    let dir = make(&["deck", "bbb.chase.city_streets"], &["--bleed", "3mm"]);
    let l = &json(&dir.path().join(format!("{CITY}.json")))["layout"];
    assert_eq!((l["cols"].as_u64(), l["rows"].as_u64()), (Some(2), Some(3)));
}

fn find_card<'a>(faces: &'a [serde_json::Value], title: &str, part: &str) -> &'a serde_json::Value {
    faces
        .iter()
        .find(|f| f["kind"] == "reference" && f["title"] == title && f["part"] == part)
        .unwrap_or_else(|| panic!("no card {title} {part}"))
}

fn table_rows(card: &serde_json::Value) -> Vec<Vec<String>> {
    card["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["type"] == "table")
        .unwrap()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_owned())
                .collect()
        })
        .collect()
}

#[test]
fn reference_card_odds_are_the_dice_engines() {
    use blockprint::dice::{self, BigRational};
    use blockprint::generators::cards::reference::{mean, odds, percent};
    let dir = make(&["cards", "bbb"], &[]);
    let data = json(&dir.path().join("cards/bbb/reference.json"));
    let faces = data["faces"].as_array().unwrap();
    let p = |expr: &str, at_least: i64| -> BigRational {
        dice::parse(expr)
            .unwrap()
            .distribution()
            .unwrap()
            .outcomes()
            .into_iter()
            .filter(|(v, _)| *v >= BigRational::from_integer(at_least.into()))
            .map(|(_, p)| p)
            .sum()
    };
    // Legwork: at least one 6, at least one 1, and at least one 1 or 6 after rerolling 2–5 once.
    let rows = table_rows(find_card(faces, "Legwork", "2/2"));
    assert_eq!(rows.len(), 6);
    for (i, row) in rows.iter().enumerate() {
        let n = i as u32 + 1;
        assert_eq!(row[0], n.to_string());
        // Columns with long fractions (11/36, 31031/46656) print percentages alone.
        assert_eq!(row[1], percent(&p(&format!("{n}d6cs>=6"), 1)));
        assert_eq!(row[2], percent(&p(&format!("{n}d6cs<=1"), 1)));
        // A hunch is followed only when a 1 shows, and then that 1 is a Progress: the roll is empty
        // only when every die shows 2–5, (2/3)^n.
        let none = BigRational::new(2.into(), 3.into());
        let mut all_none = BigRational::from_integer(1.into());
        for _ in 0..n {
            all_none *= &none;
        }
        assert_eq!(
            row[3],
            percent(&(BigRational::from_integer(1.into()) - all_none))
        );
    }
    assert_eq!(
        rows.iter().map(|r| r[1].as_str()).collect::<Vec<_>>(),
        ["16.7%", "30.6%", "42.1%", "51.8%", "59.8%", "66.5%"]
    );
    assert_eq!(
        rows.iter().map(|r| r[3].as_str()).collect::<Vec<_>>(),
        ["33.3%", "55.6%", "70.4%", "80.2%", "86.8%", "91.2%"]
    );
    // Chase outcome: 1d6, each row 1/6.
    let rows = table_rows(find_card(faces, "Chase", "3/3"));
    assert_eq!(rows.len(), 6);
    for r in &rows {
        assert_eq!(r[1], odds(&p("1d6", 6)));
        assert_eq!(r[1], "1/6 (16.7%)");
    }
    // Keep-lowest told in words, not `2d10kl1`.
    assert_eq!(
        rows[4][2],
        "Lose the lower of two d10 points from STR/DEX/CON"
    );
    // Fight damage means, exploding dice included (the engine's capped explosion); exploding dice said
    // in words on the player's card (issue 40), plain dice as written.
    let rows = table_rows(find_card(faces, "Fight", ""));
    let means: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r[1].as_str(), r[2].as_str()))
        .collect();
    assert_eq!(
        means,
        [
            ("1d4", "2.5"),
            ("1d6", "3.5"),
            ("one exploding d6", "4.2"),
            ("one exploding d10", "6.11"),
            ("one exploding d12", "7.09")
        ]
    );
    for (expr, (_, shown)) in ["1d4", "1d6", "1d6!", "1d10!", "1d12!"].iter().zip(&means) {
        let d = dice::parse(expr).unwrap().distribution().unwrap();
        assert_eq!(*shown, mean(&d.mean()), "{expr}");
    }
    // Turf damage means.
    let rows = table_rows(find_card(faces, "Interrogation", "2/2"));
    assert_eq!(
        rows.iter().map(|r| r[2].as_str()).collect::<Vec<_>>(),
        ["7", "2.5", "3.5"]
    );
    // The DA: 1d20 + 2 per Break against each minimum sentence.
    let card = find_card(faces, "The DA", "");
    let rows = table_rows(card);
    let targets = [2, 3, 15, 25];
    for (b, row) in rows.iter().enumerate() {
        for (k, t) in targets.iter().enumerate() {
            assert_eq!(
                row[k + 1],
                odds(&p(&format!("1d20+{}", 2 * b), *t)),
                "{b} breaks, target {t}"
            );
        }
    }
    assert_eq!(rows[0][3], "30%");
    assert_eq!(rows[5][4], "30%");
    // The lawyer: 1 in 6.
    let text = serde_json::to_string(find_card(faces, "Interrogation", "2/2")).unwrap();
    assert!(
        text.contains("counsel arrives 1/6 (16.7%) of the time"),
        "{text}"
    );
    // A player card: no fraction longer than a d12's, no keep/drop notation.
    let all = serde_json::to_string(faces).unwrap();
    let bytes = all.as_bytes();
    for (i, _) in all.match_indices('/') {
        let digits =
            |r: &mut dyn Iterator<Item = &u8>| r.take_while(|b| b.is_ascii_digit()).count();
        let before = digits(&mut bytes[..i].iter().rev());
        let after = &all[i + 1..i + 1 + digits(&mut bytes[i + 1..].iter())];
        if before > 0 && !after.is_empty() {
            assert!(
                after.parse::<u32>().unwrap() <= 12,
                "a long fraction: {}",
                &all[i - before..i + 1 + after.len()]
            );
        }
    }
    assert!(
        !all.contains("kl1") && !all.contains("kh1"),
        "dice notation on a player card"
    );
}

#[test]
fn approach_cards_come_in_one_set_per_player() {
    let dir = make(&["cards"], &["--players", "5"]);
    let data = json(&dir.path().join("cards/bbb/approach.json"));
    let fronts: Vec<&serde_json::Value> = data["faces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "approach" && f["write_in"] != true)
        .collect();
    assert_eq!(fronts.len(), 30);
    // 30 cards leave 3 on the last sheet of nine: its 6 other places take write-in cards, 3 a side.
    let write_ins: Vec<&serde_json::Value> = data["faces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["write_in"] == true)
        .map(|f| &f["side"])
        .collect();
    assert_eq!(
        write_ins,
        [
            "investigator",
            "investigator",
            "investigator",
            "npc",
            "npc",
            "npc"
        ]
    );
    for name in [
        "Good Cop",
        "Bad Cop",
        "Make them Sweat",
        "Mouth Off",
        "Play it Cool",
        "Clam Up",
    ] {
        let sets: Vec<u64> = fronts
            .iter()
            .filter(|f| f["name"] == name)
            .map(|f| f["set"].as_u64().unwrap())
            .collect();
        assert_eq!(sets, [1, 2, 3, 4, 5], "{name}");
    }
    let sweat = fronts
        .iter()
        .find(|f| f["name"] == "Make them Sweat")
        .unwrap();
    assert_eq!(sweat["against"][2][0], "vs Clam Up");
    assert_eq!(
        sweat["against"][2][1],
        "Roll; the winner deals normal damage"
    );
    // Every investigator card shares one back, every NPC card another.
    let pages = data["layout"]["pages"].as_array().unwrap();
    let backs: std::collections::BTreeSet<u64> = pages
        .iter()
        .filter(|p| p["side"] == "back")
        .flat_map(|p| {
            p["cards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["face"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(backs.len(), 2);
    let md = std::fs::read_to_string(dir.path().join("cards/bbb/approach.md")).unwrap();
    assert!(
        md.contains("\n## Make them Sweat\n\n**Investigator approach**\n\n*Silence, a long wait, a hot room. Only on your own turf.*\n\n- **vs Mouth Off:** No damage to either side; don't roll\n"),
        "{md}"
    );
    assert!(md.contains("\n## Clam Up\n\n**NPC approach**\n"), "{md}");
    assert!(
        md.starts_with("# Approach\n\n*Print file:* 5 sets, one per player, of the investigators' three cards and the NPCs' three, each card marked with its set; the investigators' cards have backs reading Investigator · Approach, the NPCs' cards backs reading NPC · Approach. The last sheet's 6 other places hold write-in cards with each side's back: lines for a house approach's name, its look and what it does against the other side's three, or for a lost card.\n"),
        "{md}"
    );
    assert_eq!(md.matches("## Good Cop").count(), 1, "each face once");
    let md = std::fs::read_to_string(dir.path().join("cards/bbb/reference.md")).unwrap();
    assert!(
        md.contains("## Chase (3/3)") && md.contains("| 1 | 1/6 (16.7%) | Regain all HP |"),
        "{md}"
    );
}

/// A deck's Markdown names each card once as the card prints it (issue 28): a table per suit headed by
/// the suit and its attribute, a row per card with its rank and suit, obstacle and damage; the print-file
/// line says how the sheets repeat the deck's name and back; the note and editorial the sheets print.
#[test]
fn the_deck_markdown_lists_each_card_as_it_prints_suit_by_suit() {
    let dir = make(&["deck", "bbb.chase.city_streets"], &[]);
    let md = std::fs::read_to_string(dir.path().join(format!("{CITY}.md"))).unwrap();
    assert!(md.starts_with("# City Streets\n\n*Print file:* 52 cards, 9 to a sheet with crop marks, each sheet of fronts followed by its backs; every face names the deck (City Streets) and every back reads City Streets · Road ahead.\n"), "{md}");
    for head in [
        "| ♥ | WIS (Wisdom: street smarts) | |",
        "| ♣ | CHA (Charisma: sheer bravado) | |",
        "| ♦ | DEX (Dexterity: quick reactions) | |",
        "| ♠ | INT (Intelligence: calculating the odds) | |",
    ] {
        assert_eq!(md.matches(head).count(), 1, "{head}\n{md}");
    }
    assert!(
        md.contains("| 9 ♥ | Railyard/industrial area | Damage 9 |\n"),
        "{md}"
    );
    assert!(
        md.contains("| 9 ♦ | Smoke or impaired visibility | Damage 9 |\n"),
        "{md}"
    );
    assert!(
        md.contains("| K ♥ | Bridge/overpass out | Damage 10 |\n"),
        "{md}"
    );
    assert_eq!(md.lines().filter(|l| l.contains("| Damage ")).count(), 52);
    // The source's doubled word is corrected in the cards (the editorial note still quotes it).
    assert!(
        md.lines()
            .filter(|l| l.starts_with('|'))
            .all(|l| !l.contains("or or"))
    );
    assert!(
        md.contains("\n\nDeal a road-ahead card to quarry and pursuer. "),
        "{md}"
    );
    assert!(
        md.contains("\n\n*Editorial:* In the extracted text "),
        "{md}"
    );
}

#[test]
fn draws_are_seeded_without_replacement() {
    let a = ok(&[
        "draw",
        "bbb.chase.city_streets",
        "--seed",
        "7",
        "--count",
        "52",
        "--json",
    ]);
    let b = ok(&[
        "draw",
        "city_streets",
        "--seed",
        "7",
        "--count",
        "52",
        "--json",
    ]);
    assert_eq!(a.stdout, b.stdout);
    let v: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    let cards = v["cards"].as_array().unwrap();
    let set: std::collections::BTreeSet<(String, String)> = cards
        .iter()
        .map(|c| {
            (
                c["rank"].as_str().unwrap().to_owned(),
                c["suit"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(set.len(), 52, "every card once");
    for c in cards {
        let want = match c["rank"].as_str().unwrap() {
            "A" => 1,
            "J" | "Q" | "K" => 10,
            n => n.parse().unwrap(),
        };
        assert_eq!(c["damage"].as_u64(), Some(want));
        let attr = match c["suit"].as_str().unwrap() {
            "hearts" => "WIS",
            "clubs" => "CHA",
            "diamonds" => "DEX",
            _ => "INT",
        };
        assert_eq!(c["attribute"], attr);
    }
    // A smaller count deals the same first cards.
    let three = ok(&["draw", "city_streets", "--seed", "7", "--count", "3"]);
    let text = String::from_utf8(three.stdout).unwrap();
    assert_eq!(text.lines().count(), 3);
    let first = &cards[0];
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains(first["obstacle"].as_str().unwrap())
    );
    assert!(text.contains(", damage "));
    let other = ok(&[
        "draw",
        "city_streets",
        "--seed",
        "8",
        "--count",
        "52",
        "--json",
    ]);
    assert_ne!(other.stdout, a.stdout);
    // A deck the content lacks is refused with the decks it has (the kinds' one message, exit 2).
    let none = run(&["draw", "no_such_deck", "--seed", "7"]);
    assert_eq!(none.status.code(), Some(2));
    let err = String::from_utf8_lossy(&none.stderr);
    assert!(
        err.starts_with(
            "error: `no_such_deck` names no deck in the content\n  = help: the decks are: "
        ) && err.contains("bbb.chase.city_streets"),
        "{err}"
    );
    let o = run(&["draw", "city_streets", "--count", "53"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("has 52 cards"));
    let o = run(&["draw", "nosuch", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bbb.chase.foot"));
}

#[test]
fn reruns_are_byte_identical() {
    for args in [
        vec![
            "deck",
            "--alignment-page",
            "--bleed",
            "3mm",
            "--card-size",
            "bridge",
        ],
        vec!["cards", "bbb", "--single", "--bleed", "0.125in"],
    ] {
        let a = make(&args, &[]);
        let b = make(&args, &["--jobs", "1"]);
        let (ta, tb) = (
            crate::support::tree(a.path()),
            crate::support::tree(b.path()),
        );
        assert_eq!(ta.keys().collect::<Vec<_>>(), tb.keys().collect::<Vec<_>>());
        for (k, v) in &ta {
            if k.ends_with("manifest.json") {
                continue;
            }
            assert!(v == &tb[k], "{k} differs");
        }
    }
}

#[test]
fn the_alignment_page_comes_first_with_mirrored_scales() {
    let dir = make(&["deck", "bbb.chase.foot"], &["--alignment-page"]);
    let data = json(&dir.path().join("cards/decks/bbb_chase_foot.json"));
    let pages = data["layout"]["pages"].as_array().unwrap();
    assert_eq!(pages[0]["side"], "align-front");
    assert_eq!(pages[1]["side"], "align-back");
    assert_eq!(pages.len(), 14);
    let pdf = std::fs::read(dir.path().join("cards/decks/bbb_chase_foot.pdf")).unwrap();
    let gp = glyphs::pages(&pdf);
    let back: String = gp[1].glyphs.iter().map(|g| g.text.as_str()).collect();
    assert!(back.contains("--back-offset"), "{back}");
}

/// A 32-card (piquet) deck, `ranks = ["A", "7" … "K"]`, in a content folder of its own.
fn piquet(dir: &Path, clubs: usize) -> std::path::PathBuf {
    let content = dir.join("content");
    std::fs::create_dir_all(&content).unwrap();
    let ranks = ["A", "7", "8", "9", "10", "J", "Q", "K"];
    let suit = |p: &str, n: usize| {
        ranks[..n]
            .iter()
            .map(|r| format!("\"{p} obstacle {r}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let toml = format!(
        "[[deck]]\nid = \"x.piquet\"\ntitle = \"Piquet\"\nsuits = {{ hearts = \"Wisdom (wits)\", clubs = \"Charisma\", diamonds = \"Dexterity\", spades = \"Intelligence\" }}\nranks = [{}]\nhearts = [{}]\nclubs = [{}]\ndiamonds = [{}]\nspades = [{}]\n",
        ranks.map(|r| format!("\"{r}\"")).join(", "),
        suit("Heart", 8),
        suit("Club", clubs),
        suit("Diamond", 8),
        suit("Spade", 8),
    );
    std::fs::write(content.join("deck.toml"), toml).unwrap();
    content
}

#[test]
fn a_deck_with_declared_ranks_prints_draws_and_exports_its_own_size() {
    let dir = tempfile::tempdir().unwrap();
    let content = piquet(dir.path(), 8);
    let c = content.to_str().unwrap();
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    let check = ok(&["check", "--content", c]);
    assert!(
        String::from_utf8_lossy(&check.stdout).contains("0 errors, 0 warnings"),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    // Sheets: 32 fronts and one back, nine to a sheet as for 52 (3 full sheets and one of 5).
    ok(&["deck", "--content", c, "--out", o, "--quiet"]);
    let data = json(&out.join("cards/decks/x_piquet.json"));
    let fronts: Vec<&serde_json::Value> = data["faces"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rank"].is_string())
        .collect();
    assert_eq!(fronts.len(), 32);
    let ranks: Vec<&str> = fronts[..8]
        .iter()
        .map(|f| f["rank"].as_str().unwrap())
        .collect();
    assert_eq!(ranks, ["A", "7", "8", "9", "10", "J", "Q", "K"]);
    assert_eq!(
        fronts[..8]
            .iter()
            .map(|f| f["damage"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [1, 7, 8, 9, 10, 10, 10, 10]
    );
    let counts: Vec<usize> = data["layout"]["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["cards"].as_array().unwrap().len())
        .collect();
    assert_eq!(counts, [9, 9, 9, 9, 9, 9, 5, 5]);
    let pdf = std::fs::read(out.join("cards/decks/x_piquet.pdf")).unwrap();
    assert_eq!(Document::load_mem(&pdf).unwrap().get_pages().len(), 8);
    // The Markdown: one row per declared rank and suit, with its damage.
    let md = std::fs::read_to_string(out.join("cards/decks/x_piquet.md")).unwrap();
    let rows: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("obstacle"))
        .collect();
    assert_eq!(rows.len(), 32, "{md}");
    assert_eq!(rows[1], "| 7 ♥ | Heart obstacle 7 | Damage 7 |", "{md}");
    assert_eq!(rows[7], "| K ♥ | Heart obstacle K | Damage 10 |", "{md}");
    assert!(md.contains("*Print file:* 32 cards, 9 to a sheet"), "{md}");
    assert!(!md.contains("obstacle 2 "), "{md}");
    // The tables reference shows the same eight rows.
    ok(&[
        "make",
        "tables",
        "--content",
        c,
        "--out",
        o,
        "--quiet",
        "--format",
        "md",
    ]);
    let tables: String = crate::support::tree(&out.join("tables"))
        .iter()
        .filter(|(k, _)| k.ends_with(".md"))
        .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
        .collect();
    assert_eq!(
        tables
            .lines()
            .filter(|l| l.starts_with("| ") && l.contains("Heart obstacle"))
            .count(),
        8,
        "{tables}"
    );
    // Draw: 32 distinct cards, and no 33rd.
    let d = ok(&[
        "draw",
        "piquet",
        "--content",
        c,
        "--seed",
        "3",
        "--count",
        "32",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&d.stdout).unwrap();
    let set: std::collections::BTreeSet<String> = v["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["obstacle"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(set.len(), 32);
    let o33 = run(&["draw", "piquet", "--content", c, "--count", "33"]);
    assert_eq!(o33.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o33.stderr).contains("has 32 cards"));
    // Foundry: 32 cards, values of the ranks themselves (a 7 is 7).
    ok(&[
        "export",
        "--to",
        "foundry",
        "--content",
        c,
        "--out",
        o,
        "--quiet",
    ]);
    let f = json(&out.join("export/foundry-v13/cards/x_piquet.json"));
    let cards = f["cards"].as_array().unwrap();
    assert_eq!(cards.len(), 32);
    let hearts: Vec<(u64, &str)> = cards
        .iter()
        .filter(|c| c["suit"] == "hearts")
        .map(|c| (c["value"].as_u64().unwrap(), c["name"].as_str().unwrap()))
        .collect();
    assert_eq!(
        hearts,
        [
            (1, "Ace of Hearts"),
            (7, "Seven of Hearts"),
            (8, "Eight of Hearts"),
            (9, "Nine of Hearts"),
            (10, "Ten of Hearts"),
            (11, "Jack of Hearts"),
            (12, "Queen of Hearts"),
            (13, "King of Hearts")
        ]
    );
    assert_eq!(cards[1]["faces"][0]["text"], "Heart obstacle 7");
}

#[test]
fn a_suit_that_does_not_match_the_declared_ranks_is_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    let content = piquet(dir.path(), 7);
    let o = run(&["check", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("error[missing_card]: clubs of deck `x.piquet` has 7 cards; K is missing"),
        "{text}"
    );
    assert!(text.contains("deck.toml:7:"), "{text}");
    assert!(
        text.contains("give each suit 8 cards in the declared rank order A, 7, 8, 9, 10, J, Q, K"),
        "{text}"
    );
    // Nothing is made from it.
    let out = dir.path().join("out");
    let d = run(&[
        "deck",
        "--content",
        content.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(d.status.code(), Some(1));
    assert!(!out.join("cards/decks/x_piquet.pdf").exists());
}

// ---------- What the paper shows (issue 22): typst's own frames and pixels ----------

/// A text run as laid out: page, baseline origin and size in points (after every transform), its text,
/// font family and fill.
#[derive(Debug)]
struct Run {
    page: usize,
    x: f64,
    y: f64,
    size: f64,
    text: String,
    family: String,
    fill: String,
}

/// Every text run and every `<bp-trim>` box (page, left, top, width, height in points) of a document.
fn laid_out(doc: &typst_layout::PagedDocument) -> (Vec<Run>, Vec<(usize, [f64; 4])>) {
    use typst::layout::{Frame, FrameItem, Point, Transform};
    fn walk(
        frame: &Frame,
        ts: Transform,
        page: usize,
        runs: &mut Vec<Run>,
        trims: &mut Vec<(usize, [f64; 4])>,
    ) {
        let scale = |t: Transform| {
            (t.sx.get() * t.sy.get() - t.kx.get() * t.ky.get())
                .abs()
                .sqrt()
        };
        for (pos, item) in frame.items() {
            match item {
                FrameItem::Group(g) => {
                    let inner = ts
                        .pre_concat(Transform::translate(pos.x, pos.y))
                        .pre_concat(g.transform);
                    if g.label.is_some_and(|l| l.resolve().as_str() == "bp-trim") {
                        let o = Point::zero().transform(inner);
                        let s = g.frame.size();
                        let k = scale(inner);
                        trims.push((
                            page,
                            [o.x.to_pt(), o.y.to_pt(), s.x.to_pt() * k, s.y.to_pt() * k],
                        ));
                    }
                    walk(&g.frame, inner, page, runs, trims);
                }
                FrameItem::Text(t) => {
                    let o = Point::new(pos.x, pos.y).transform(ts);
                    let fill = match &t.fill {
                        typst::visualize::Paint::Solid(c) => c.to_hex().to_string(),
                        other => format!("{other:?}"),
                    };
                    runs.push(Run {
                        page,
                        x: o.x.to_pt(),
                        y: o.y.to_pt(),
                        size: t.size.to_pt() * scale(ts),
                        text: t.text.to_string(),
                        family: t.font.info().family.clone(),
                        fill,
                    });
                }
                _ => {}
            }
        }
    }
    let (mut runs, mut trims) = (Vec::new(), Vec::new());
    for (i, p) in doc.pages().iter().enumerate() {
        walk(
            &p.frame,
            Transform::identity(),
            i + 1,
            &mut runs,
            &mut trims,
        );
    }
    (runs, trims)
}

/// A card kind's document `i`, laid out by the built-in templates.
fn typeset(
    kind: &dyn blockprint::generators::Kind,
    paper: blockprint::render::Paper,
    i: usize,
) -> (serde_json::Value, typst_layout::PagedDocument) {
    let cx = crate::support::builtin_checked();
    let doc = kind
        .document(&cx, &crate::support::one_request(paper), i)
        .unwrap();
    let laid = crate::support::builtin_engine()
        .typeset(&format!("{}.typ", doc.template), &doc.data)
        .unwrap();
    (doc.data, laid)
}

const RED_INK: &str = "#b3261e";
const BLACK_INK: &str = "#1d2733";
const REF_BAND: &str = "#2b4a5e";

#[test]
fn reference_cards_print_red_suits_curly_quotes_whole_headings_and_one_line_odds() {
    use blockprint::generators::cards::CARDS;
    use blockprint::render::Paper;
    for paper in [Paper::A4, Paper::Letter] {
        let (data, doc) = typeset(&CARDS, paper, 0);
        let (runs, _) = laid_out(&doc);
        // Hearts and diamonds in red, clubs and spades in black (the suit table of Chase 1/3).
        let suit = |c: char| {
            runs.iter()
                .filter(move |r| r.text.contains(c))
                .collect::<Vec<_>>()
        };
        for (c, ink) in [
            ('♥', RED_INK),
            ('♦', RED_INK),
            ('♣', BLACK_INK),
            ('♠', BLACK_INK),
        ] {
            let found = suit(c);
            assert_eq!(found.len(), 1, "{paper:?}: one {c} on the reference cards");
            assert_eq!(
                found[0].fill, ink,
                "{paper:?}: {c} prints in {ink}: {:?}",
                found[0]
            );
        }
        // The words come from the kit's page reference-cards.md, whose apostrophes the prose reader
        // makes typographic (as the Markdown prints them); the paper has typographic ones only.
        let faces = serde_json::to_string(&data["faces"]).unwrap();
        assert!(faces.contains("the pursuer’s first card"), "{faces}");
        let all: String = runs.iter().map(|r| r.text.as_str()).collect();
        assert!(
            !all.contains(['\'', '"']),
            "{paper:?}: a straight quote on paper"
        );
        assert!(all.contains("pursuer’s"), "{paper:?}");
        // Body text may be hyphenated (a soft hyphen ends the line); a heading or a column head never is.
        let hyphens: Vec<&Run> = runs.iter().filter(|r| r.text.contains('\u{ad}')).collect();
        assert!(
            !hyphens.is_empty(),
            "{paper:?}: some body line is hyphenated"
        );
        for h in &hyphens {
            assert!(
                h.family != "Bebas Neue" && h.fill != REF_BAND,
                "{paper:?}: a heading breaks with a hyphen on p. {} at {:.0} × {:.0} pt",
                h.page,
                h.x,
                h.y
            );
        }
        // The DA's long heading wraps between words: "Minimum" stays whole.
        assert!(
            runs.iter()
                .any(|r| r.family == "Bebas Neue" && r.text.contains("minimum sentence"))
        );
        // The chase outcome's odds, each on one line in its cell.
        let odds = runs.iter().filter(|r| r.text == "1/6\u{a0}(16.7%)").count();
        assert_eq!(odds, 6, "{paper:?}: six one-line odds of 1/6");
        // Nothing under 6 pt.
        let small: Vec<&Run> = runs.iter().filter(|r| r.size < 6.0 - 1e-6).collect();
        assert!(small.is_empty(), "{paper:?}: {small:#?}");
    }
}

#[test]
fn every_card_has_its_trim_box_declared_for_the_page_checker() {
    use blockprint::generators::cards::layout::MM;
    use blockprint::generators::cards::{CARDS, CardOptions, DECK};
    use blockprint::render::Paper;
    let bled = CardOptions {
        bleed: 3 * MM,
        ..CardOptions::DEFAULT
    };
    let single = CardOptions {
        single: true,
        bleed: 3_175,
        ..CardOptions::DEFAULT
    };
    let deck = |o: &CardOptions| DECK.with(o.clone(), Some(vec!["bbb.chase.foot".into()]));
    for paper in [Paper::A4, Paper::Letter] {
        for (what, kind) in [
            (
                "deck",
                Box::new(deck(&CardOptions::DEFAULT)) as Box<dyn blockprint::generators::Kind>,
            ),
            ("deck with bleed", Box::new(deck(&bled))),
            ("single deck", Box::new(deck(&single))),
            ("cards", Box::new(CARDS.clone())),
        ] {
            let (data, doc) = typeset(kind.as_ref(), paper, 0);
            let (_, trims) = laid_out(&doc);
            let layout = &data["layout"];
            let pt = |mm: &serde_json::Value| mm.as_f64().unwrap() * PT_PER_MM;
            let mut expected = Vec::new();
            for (i, p) in layout["pages"].as_array().unwrap().iter().enumerate() {
                for c in p["cards"].as_array().unwrap() {
                    expected.push((
                        i + 1,
                        [
                            pt(&c["x"]),
                            pt(&c["y"]),
                            pt(&layout["card_w"]),
                            pt(&layout["card_h"]),
                        ],
                    ));
                }
            }
            assert_eq!(
                trims.len(),
                expected.len(),
                "{what} {paper:?}: one trim box a card"
            );
            for ((pa, a), (pb, b)) in trims.iter().zip(&expected) {
                assert_eq!(pa, pb, "{what} {paper:?}");
                assert!(
                    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 0.01),
                    "{what} {paper:?} p. {pa}: trim box {a:?}, card {b:?}"
                );
            }
        }
    }
}

/// A pixel: red, green, blue, alpha.
type Px = (u8, u8, u8, u8);

/// Whether a pixel is bare paper (white, or nothing drawn).
fn paper_white(p: Px) -> bool {
    p.3 == 0 || (p.0 >= 250 && p.1 >= 250 && p.2 >= 250)
}

/// The pixels, at 150 dpi, of a ring between 0.5 and 2.5 mm inside each card's trim on `page`, sampled
/// every half millimetre along its four sides.
fn ring(doc: &typst_layout::PagedDocument, data: &serde_json::Value, page: usize) -> Vec<Px> {
    let dpi = 150.0;
    let opts = typst_render::RenderOptions {
        pixel_per_pt: typst::utils::Scalar::new(dpi / 72.0),
        ..Default::default()
    };
    let pixmap = typst_render::render(&doc.pages()[page], &opts);
    let px = |mm: f64| (mm / 25.4 * dpi).round() as u32;
    let layout = &data["layout"];
    let (w, h) = (
        layout["card_w"].as_f64().unwrap(),
        layout["card_h"].as_f64().unwrap(),
    );
    let mut out = Vec::new();
    for c in layout["pages"][page]["cards"].as_array().unwrap() {
        let (x, y) = (c["x"].as_f64().unwrap(), c["y"].as_f64().unwrap());
        for inset in [0.5, 1.5, 2.5] {
            let mut points = Vec::new();
            let mut t = inset;
            while t <= w - inset {
                points.push((x + t, y + inset));
                points.push((x + t, y + h - inset));
                t += 0.5;
            }
            let mut t = inset;
            while t <= h - inset {
                points.push((x + inset, y + t));
                points.push((x + w - inset, y + t));
                t += 0.5;
            }
            for (a, b) in points {
                let p = pixmap.pixel(px(a), px(b)).unwrap();
                out.push((p.red(), p.green(), p.blue(), p.alpha()));
            }
        }
    }
    out
}

#[test]
fn without_bleed_the_colour_stops_3_mm_inside_the_cut_and_with_bleed_it_runs_past_it() {
    use blockprint::generators::cards::layout::MM;
    use blockprint::generators::cards::{CardOptions, DECK};
    use blockprint::render::Paper;
    for paper in [Paper::A4, Paper::Letter] {
        // Home sheets: no bleed, nine cards a page, and a ring of bare paper inside every cut on the
        // fronts (red or black edge rule, tinted face) and the dark backs alike.
        let kind = DECK.with(
            CardOptions::DEFAULT,
            Some(vec!["bbb.chase.city_streets".into()]),
        );
        let (data, doc) = typeset(&kind, paper, 0);
        assert_eq!(data["layout"]["bleed"], 0.0);
        assert_eq!(
            data["layout"]["pages"][0]["cards"]
                .as_array()
                .unwrap()
                .len(),
            9
        );
        for page in [0, 1] {
            let ring = ring(&doc, &data, page);
            assert!(ring.len() > 9 * 1000);
            let coloured = ring.iter().filter(|p| !paper_white(**p)).count();
            assert_eq!(
                coloured,
                0,
                "{paper:?} p. {}: colour within 3 mm of a cut",
                page + 1
            );
        }
        // With bleed the same ring is coloured all round: tint on the fronts, asphalt on the backs.
        let kind = DECK.with(
            CardOptions {
                bleed: 3 * MM,
                ..CardOptions::DEFAULT
            },
            Some(vec!["bbb.chase.city_streets".into()]),
        );
        let (data, doc) = typeset(&kind, paper, 0);
        for page in [0, 1] {
            let ring = ring(&doc, &data, page);
            let white = ring.iter().filter(|p| paper_white(**p)).count();
            assert_eq!(
                white,
                0,
                "{paper:?} p. {}: bare paper inside a bled card",
                page + 1
            );
        }
    }
}

#[test]
fn sheets_default_to_no_bleed_and_single_cards_to_an_eighth_of_an_inch() {
    for (extra, bleed, page) in [
        (&[][..], 0.0, None),
        (&["--single"][..], 3.175, Some([0.0, 0.0, 198.0, 270.0])),
        (
            &["--single", "--bleed", "0"][..],
            0.0,
            Some([0.0, 0.0, 180.0, 252.0]),
        ),
        (&["--bleed", "3mm"][..], 3.0, None),
    ] {
        let dir = make(&["deck", "bbb.chase.city_streets"], extra);
        let data = json(&dir.path().join(format!("{CITY}.json")));
        assert_eq!(data["layout"]["bleed"], bleed, "{extra:?}");
        if let Some(media) = page {
            let pdf = std::fs::read(dir.path().join(format!("{CITY}.pdf"))).unwrap();
            let doc = Document::load_mem(&pdf).unwrap();
            let (_, id) = doc.get_pages().into_iter().next().unwrap();
            let got = rect(doc.get_dictionary(id).unwrap(), b"MediaBox");
            assert!(
                got.iter().zip(media).all(|(a, b)| (a - b).abs() < 0.01),
                "{extra:?}: {got:?}"
            );
        }
    }
    // The PNGs of a sheet run are laid out as --single lays out a card: 1/8 in bleed, 825 × 1125 px.
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("png");
    ok(&[
        "deck",
        "bbb.chase.foot",
        "--quiet",
        "--out",
        dir.path().join("out").to_str().unwrap(),
        "--png",
        png.to_str().unwrap(),
    ]);
    let back = std::fs::read(png.join("bbb_chase_foot/back.png")).unwrap();
    let size = |b: &[u8]| {
        (
            u32::from_be_bytes(b[16..20].try_into().unwrap()),
            u32::from_be_bytes(b[20..24].try_into().unwrap()),
        )
    };
    assert_eq!(size(&back), (825, 1125));
    // The help says which and why.
    let help = String::from_utf8(ok(&["deck", "--help"]).stdout).unwrap();
    assert!(
        help.contains("Default: 0 on sheets, 0.125in with --single"),
        "{help}"
    );
    assert!(help.contains("stops 3 mm inside the cut"), "{help}");
}

#[test]
fn on_a_part_filled_sheet_no_crop_mark_crosses_the_empty_places() {
    // 24 approach cards: two full sheets of nine and one of six (two rows of three); with 3 mm bleed on
    // A4, six a sheet, the 52 cards of a deck leave four on the last sheet.
    for (cmd, extra, file) in [
        (
            &["cards"][..],
            &["--paper", "a4"][..],
            "cards/bbb/approach.json",
        ),
        (
            &["cards"][..],
            &["--paper", "letter", "--duplex", "short"][..],
            "cards/bbb/approach.json",
        ),
        (
            &["deck", "bbb.chase.city_streets"][..],
            &["--paper", "a4", "--bleed", "3mm"][..],
            "cards/decks/bbb_chase_city_streets.json",
        ),
    ] {
        let dir = make(cmd, extra);
        let l = json(&dir.path().join(file))["layout"].clone();
        let um = |v: &serde_json::Value| v.as_i64().unwrap() as f64 / 1000.0;
        let (cw, ch, b) = (
            l["card_w"].as_f64().unwrap(),
            l["card_h"].as_f64().unwrap(),
            l["bleed"].as_f64().unwrap(),
        );
        let pages = l["pages"].as_array().unwrap();
        let per = l["um"]["grid"]["fronts"].as_array().unwrap().len();
        let last = pages.len() - 2;
        let used = pages[last]["cards"].as_array().unwrap().len();
        assert!(
            used < per,
            "{extra:?}: the last sheet is part-filled ({used} of {per})"
        );
        for (page, places) in [(last, "fronts"), (last + 1, "backs")] {
            // The whole grid's block, bleed included, in mm.
            let slots = l["um"]["grid"][places].as_array().unwrap();
            let x0 = slots.iter().map(|s| um(&s["x"])).fold(f64::MAX, f64::min) - b;
            let y0 = slots.iter().map(|s| um(&s["y"])).fold(f64::MAX, f64::min) - b;
            let x1 = slots.iter().map(|s| um(&s["x"])).fold(f64::MIN, f64::max) + cw + b;
            let y1 = slots.iter().map(|s| um(&s["y"])).fold(f64::MIN, f64::max) + ch + b;
            let marks = pages[page]["marks"].as_array().unwrap();
            assert!(marks.len() >= 8, "{extra:?} page {page}");
            for m in marks {
                let (mx0, mx1) = (
                    m["x1"].as_f64().unwrap().min(m["x2"].as_f64().unwrap()),
                    m["x1"].as_f64().unwrap().max(m["x2"].as_f64().unwrap()),
                );
                let (my0, my1) = (
                    m["y1"].as_f64().unwrap().min(m["y2"].as_f64().unwrap()),
                    m["y1"].as_f64().unwrap().max(m["y2"].as_f64().unwrap()),
                );
                let inside =
                    mx1 > x0 + 0.001 && mx0 < x1 - 0.001 && my1 > y0 + 0.001 && my0 < y1 - 0.001;
                assert!(
                    !inside,
                    "{extra:?} page {page}: mark {m} runs into the grid {x0}–{x1} × {y0}–{y1}"
                );
            }
            // Every cut line of a printed card still has its marks, at both ends of the block.
            for c in pages[page]["cards"].as_array().unwrap() {
                let x = c["x"].as_f64().unwrap();
                for edge in [x, x + cw] {
                    let ends = marks
                        .iter()
                        .filter(|m| {
                            (m["x1"].as_f64().unwrap() - edge).abs() < 0.001 && m["x1"] == m["x2"]
                        })
                        .count();
                    assert_eq!(
                        ends, 2,
                        "{extra:?} page {page}: marks of the cut at x = {edge}"
                    );
                }
            }
        }
    }
}

/// A temporary folder with `content/` written by `init` and the path of `out/` beside it (the folder
/// lives as long as the first value).
fn own_content() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let content = t.path().join("content");
    ok(&["init", "-q", content.to_str().unwrap()]);
    let out = t.path().join("out");
    (t, content, out)
}

/// The reference and approach cards' words are the kit's pages `reference-cards.md` and
/// `approach-cards.md` (issue 28): a sentence edited there is what the cards print; `check` refuses a
/// page without a card's `##` heading (and `cards` refuses it too), and a code span naming nothing the
/// cards compute is a clear error.
#[test]
fn reference_and_approach_cards_read_their_words_from_the_kit_pages() {
    let (_t, content, out) = own_content();
    let (c, o) = (content.to_str().unwrap(), out.to_str().unwrap());
    let reference = content.join("bbb/kit/reference-cards.md");
    let approach = content.join("bbb/kit/approach-cards.md");
    let text = std::fs::read_to_string(&reference).unwrap();
    let cards = |o: &str| {
        run(&[
            "cards",
            "--content",
            c,
            "--format",
            "md",
            "--out",
            o,
            "--force",
            "-q",
        ])
    };
    let md = |name: &str| std::fs::read_to_string(out.join("cards/bbb").join(name)).unwrap();

    // Edited words print.
    std::fs::write(
        &reference,
        text.replace(
            "Either side may call the chase off at any time.",
            "Either side may stop the chase when it likes.",
        ),
    )
    .unwrap();
    let blurbs = std::fs::read_to_string(&approach).unwrap();
    std::fs::write(
        &approach,
        blurbs.replace("Coffee, sympathy", "Tea, sympathy"),
    )
    .unwrap();
    ok(&[
        "cards",
        "--content",
        c,
        "--format",
        "md",
        "--out",
        o,
        "--force",
        "-q",
    ]);
    let printed = md("reference.md");
    assert!(
        printed.contains("Either side may stop the chase when it likes."),
        "{printed}"
    );
    assert!(!printed.contains("call the chase off"), "{printed}");
    let printed = md("approach.md");
    assert!(
        printed
            .contains("Tea, sympathy, a way out. You are on their side, or so they should think."),
        "{printed}"
    );
    assert!(!printed.contains("Coffee"), "{printed}");

    // A card's heading renamed: check names the card, the page's first line, and the fix.
    std::fs::write(
        &reference,
        text.replace("## The DA\n", "## The prosecutor\n"),
    )
    .unwrap();
    let o2 = run(&["check", "--content", c]);
    assert_eq!(o2.status.code(), Some(1));
    let report =
        String::from_utf8_lossy(&o2.stdout).into_owned() + &String::from_utf8_lossy(&o2.stderr);
    for kind in ["cards", "kit-bbb"] {
        let message = format!(
            "error[missing_requirement]: the `{kind}` generator prints the part `the-da` of the `bbb` kit's \
             page `reference-cards`, which has no `##` heading with that anchor (its `##` headings' anchors: \
             `chase-13`, `chase-23`, `chase-33`, `interrogation-12`, `interrogation-22`, `fight`, `legwork-12`, \
             `legwork-22`, `the-prosecutor`, `card-labels`)\n  ┌─ bbb/kit/reference-cards.md:5:1\n"
        );
        assert!(report.contains(&message), "{message}\nin\n{report}");
    }
    let o3 = cards(o);
    assert!(!o3.status.success());
    let err = String::from_utf8_lossy(&o3.stderr);
    assert!(
        err.contains("`the-da`") && !err.contains("panicked"),
        "{err}"
    );

    // An approach's heading missing.
    std::fs::write(&reference, &text).unwrap();
    std::fs::write(&approach, blurbs.replace("## Clam Up\n", "")).unwrap();
    let o4 = run(&["check", "--content", c]);
    assert_eq!(o4.status.code(), Some(1));
    let report =
        String::from_utf8_lossy(&o4.stdout).into_owned() + &String::from_utf8_lossy(&o4.stderr);
    assert!(
        report.contains("the `cards` generator prints the part `clam-up` of the `bbb` kit's page `approach-cards`"),
        "{report}"
    );
    assert!(
        !report.contains("`kit-bbb` generator prints the part `clam-up`"),
        "{report}"
    );

    // A code span that names nothing the cards compute: refused by `check`, at the span, before any
    // card is made.
    std::fs::write(&approach, &blurbs).unwrap();
    std::fs::write(
        &reference,
        text.replace("+`per-break` per Break", "+`per-brake` per Break"),
    )
    .unwrap();
    let o5 = cards(o);
    assert_eq!(o5.status.code(), Some(1));
    let err =
        String::from_utf8_lossy(&o5.stdout).into_owned() + &String::from_utf8_lossy(&o5.stderr);
    assert!(
        err.contains("the `cards` generator reads `per-brake` in the `bbb` kit's page `reference-cards` as a value, which it does not compute"),
        "{err}"
    );
    assert!(err.contains("┌─ bbb/kit/reference-cards.md:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// The lawyer's line on the Interrogation card finds its row by the `lawyer` tag; content written before
/// the tag finds it by what the row says, and a table whose rows say neither gives its first row. Any
/// lawyer table `check` accepts fills the card.
#[test]
fn the_lawyer_row_is_found_by_tag_then_by_its_words_then_first() {
    let t = tempfile::tempdir().unwrap();
    let content = t.path().join("content");
    let (c, o) = (
        content.to_str().unwrap(),
        t.path().join("out").to_str().unwrap().to_owned(),
    );
    ok(&["init", "-q", c]);
    let action = content.join("bbb/06-action.toml");
    let toml = std::fs::read_to_string(&action).unwrap();
    let line = |toml: &str| {
        std::fs::write(&action, toml).unwrap();
        ok(&[
            "cards",
            "--content",
            c,
            "--format",
            "md",
            "--out",
            &o,
            "--force",
            "-q",
        ]);
        let md = std::fs::read_to_string(t.path().join("out/cards/bbb/reference.md")).unwrap();
        md.lines()
            .find(|l| l.contains("clams up in an interrogation"))
            .unwrap_or_else(|| panic!("no lawyer line in {md}"))
            .to_owned()
    };
    let tagged = r#"{ on = "1",   result = "The lawyer shows up: a Scholar of level {1d6}", tags = ["lawyer"] },"#;
    assert!(toml.contains(tagged));
    // The built-in content: the tagged row, 1 in 6.
    let built_in = line(&toml);
    assert!(built_in.contains("1/6 (16.7%) of the time"), "{built_in}");
    assert!(built_in.contains("The lawyer shows up"), "{built_in}");
    // The tag on the other row: that row is where counsel arrives, whatever it says.
    let moved = toml
        .replace(
            tagged,
            r#"{ on = "1",   result = "The lawyer shows up: a Scholar of level {1d6}" },"#,
        )
        .replace(
            r#"{ on = "2-6", result = "No lawyer appears" },"#,
            r#"{ on = "2-6", result = "A public defender, eventually", tags = ["lawyer"] },"#,
        );
    let l = line(&moved);
    assert!(
        l.contains("5/6 (83.3%) of the time") && l.contains("A public defender"),
        "{l}"
    );
    // No tag: the row that says the lawyer shows.
    let l = line(&toml.replace(", tags = [\"lawyer\"]", ""));
    assert_eq!(l, built_in);
    // No tag, and no row says so: the first row.
    let l = line(
        &toml
            .replace(
                tagged,
                r#"{ on = "1-2", result = "Counsel in a cheap suit" },"#,
            )
            .replace(r#"{ on = "2-6","#, r#"{ on = "3-6","#),
    );
    assert!(
        l.contains("1/3 (33.3%) of the time") && l.contains("Counsel in a cheap suit"),
        "{l}"
    );
}

/// A deck's note and editorial print where its last sheet of fronts has no card (issue 28: the Markdown
/// says nothing its PDF does not print): on A4 and Letter the two places beside the last card, every glyph
/// of the note inside them, clear of the crop marks. Single cards have no free place: neither the PDF nor
/// the Markdown carries the note then.
#[test]
fn a_decks_note_prints_in_the_free_places_of_its_last_sheet() {
    let note = "For a chase on foot through a city: the suit still names the attribute that meets the obstacle and the rank the Hot Pursuit lost on a failed roll (A = 1, J, Q and K = 10). Low cards are stumbles; court cards can end the chase.";
    let flat = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    for (paper, x, y) in [("a4", 73.25, 192.95), ("letter", 76.2, 184.15)] {
        let dir = make(&["deck", "bbb.chase.foot"], &["--paper", paper]);
        let stem = dir.path().join("cards/decks/bbb_chase_foot");
        let data = json(&stem.with_extension("json"));
        let n = &data["layout"]["note"];
        assert_eq!(n["page"], 10, "{paper}: the sixth sheet of fronts");
        assert_eq!(
            [&n["x"], &n["y"], &n["w"], &n["h"]].map(|v| v.as_f64().unwrap()),
            [x, y, 127.0, 88.9],
            "{paper}: the two places right of the last card"
        );
        assert_eq!(
            data["layout"]["pages"][10]["cards"]
                .as_array()
                .unwrap()
                .len(),
            7
        );
        let pdf = std::fs::read(stem.with_extension("pdf")).unwrap();
        let pages = glyphs::pages(&pdf);
        let page = &pages[10];
        let (left, right) = (x * PT_PER_MM, (x + 127.0) * PT_PER_MM);
        let (top, bottom) = (
            page.height - y * PT_PER_MM,
            page.height - (y + 88.9) * PT_PER_MM,
        );
        let inside: String = page
            .glyphs
            .iter()
            .filter(|g| g.x >= left && g.x + g.w <= right && g.y <= top && g.y >= bottom)
            .map(|g| g.text.as_str())
            .filter(|t| !t.trim().is_empty())
            .collect();
        let typeset = note.replace('\'', "’");
        assert!(inside.starts_with("OnFoot"), "{paper}: {inside}");
        assert!(inside.contains(&flat(&typeset)), "{paper}: {inside}");
        assert!(
            inside.contains("Editorial:Writtenforthisedition,nottakenfromtherules"),
            "{paper}: {inside}"
        );
        // Every glyph of the note stays 3 mm inside the free places.
        let margin = 3.0 * PT_PER_MM;
        let cards_x = page
            .glyphs
            .iter()
            .filter(|g| g.x >= left - 1.0 && g.y <= top + 1.0);
        for g in cards_x {
            assert!(
                g.x >= left + margin
                    && g.x + g.w <= right - margin
                    && g.y >= bottom + margin
                    && g.y <= top - margin,
                "{paper}: {g:?} near the edge of the note's places"
            );
        }
        let md = std::fs::read_to_string(stem.with_extension("md")).unwrap();
        assert!(md.contains(&format!("\n\n{note}\n")), "{md}");
    }
    // Mini cards, 16 a sheet: the last sheet's first row holds the last four cards, the note takes the
    // three empty rows under it.
    let dir = make(&["deck", "bbb.chase.foot"], &["--card-size", "mini"]);
    let n = &json(&dir.path().join("cards/decks/bbb_chase_foot.json"))["layout"]["note"];
    assert_eq!(n["page"], 6);
    assert_eq!(
        [&n["x"], &n["y"], &n["w"], &n["h"]].map(|v| v.as_f64().unwrap()),
        [16.1, 85.0, 177.8, 190.5]
    );
    // A last sheet with no free place (four a sheet, 13 sheets), and single cards: no note in the PDF,
    // none in the Markdown.
    let dir = make(&["deck", "bbb.chase.foot"], &["--grid", "2x2"]);
    let stem = dir.path().join("cards/decks/bbb_chase_foot");
    assert!(json(&stem.with_extension("json"))["layout"]["note"].is_null());
    let md = std::fs::read_to_string(stem.with_extension("md")).unwrap();
    assert!(
        !md.contains("Low cards are stumbles") && !md.contains("*Editorial:*"),
        "{md}"
    );
    let dir = make(&["deck", "bbb.chase.foot"], &["--single"]);
    let stem = dir.path().join("cards/decks/bbb_chase_foot");
    assert!(json(&stem.with_extension("json"))["layout"]["note"].is_null());
    let md = std::fs::read_to_string(stem.with_extension("md")).unwrap();
    assert!(
        !md.contains("Low cards are stumbles") && !md.contains("*Editorial:*"),
        "{md}"
    );
    assert!(
        md.contains("*Print file:* 52 cards, one to a page at trim and bleed"),
        "{md}"
    );
}

/// The approach cards' labels are the kit page's part `## Card labels` (issue 28): edited words print on
/// the cards and in the Markdown alike; an item missing stops `cards` with an error naming the page and
/// the item, and `check` refuses a page without the part.
#[test]
fn approach_card_labels_are_the_kit_pages_words() {
    let (_t, content, out) = own_content();
    let (c, o) = (content.to_str().unwrap(), out.to_str().unwrap());
    let page = content.join("bbb/kit/approach-cards.md");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(
        &page,
        text.replace("- **Against:** vs\n", "- **Against:** against\n")
            .replace("- **Set:** Set\n", "- **Set:** Pack\n")
            .replace("- **NPC back:** NPC\n", "- **NPC back:** Suspect\n")
            .replace("## Make them Sweat\n", "## Make Them Sweat\n"),
    )
    .unwrap();
    ok(&["cards", "--content", c, "--out", o, "--force", "-q"]);
    let data = json(&out.join("cards/bbb/approach.json"));
    let faces = data["faces"].as_array().unwrap();
    assert_eq!(faces[1]["title"], "Suspect");
    assert_eq!(faces[1]["subtitle"], "Approach");
    // The heading's letters print; its anchor still names the matrix's approach.
    let sweat = faces
        .iter()
        .find(|f| f["name"] == "Make Them Sweat")
        .unwrap();
    assert_eq!(sweat["label"], "Investigator approach");
    let clam = faces.iter().find(|f| f["name"] == "Clam Up").unwrap();
    assert_eq!(clam["against"][2][0], "against Make Them Sweat");
    assert_eq!(sweat["against"][2][0], "against Clam Up");
    assert_eq!(sweat["set_label"], "Pack 1");
    let md = std::fs::read_to_string(out.join("cards/bbb/approach.md")).unwrap();
    assert!(
        md.contains("- **against Clam Up:** Roll; the winner deals normal damage\n"),
        "{md}"
    );
    assert!(
        md.contains("the NPCs' cards backs reading Suspect · Approach."),
        "{md}"
    );
    let pdf = std::fs::read(out.join("cards/bbb/approach.pdf")).unwrap();
    let printed: String = glyphs::pages(&pdf)
        .iter()
        .flat_map(|p| p.glyphs.iter().map(|g| g.text.to_lowercase()))
        .filter(|t| !t.trim().is_empty())
        .collect();
    assert!(
        printed.contains("againstclamup:")
            && printed.contains("pack4")
            && printed.contains("suspect"),
        "{printed}"
    );
    assert!(!printed.contains("vsclamup") && !printed.contains("set1"));

    // An item gone: `cards` names the page and the item.
    std::fs::write(&page, text.replace("- **Back subtitle:** Approach\n", "")).unwrap();
    let o2 = run(&["cards", "--content", c, "--out", o, "--force", "-q"]);
    assert!(!o2.status.success());
    let err = String::from_utf8_lossy(&o2.stderr);
    assert!(
        err.contains("content/bbb/kit/approach-cards.md: the part `## Card labels` has no list item `- **Back subtitle:** …`, the words under either back's title")
            && !err.contains("panicked"),
        "{err}"
    );
    // The part gone: `check` refuses the page.
    let cut = text[..text.find("## Card labels").unwrap()].to_owned();
    std::fs::write(&page, cut).unwrap();
    let o3 = run(&["check", "--content", c]);
    assert_eq!(o3.status.code(), Some(1));
    let report =
        String::from_utf8_lossy(&o3.stdout).into_owned() + &String::from_utf8_lossy(&o3.stderr);
    assert!(
        report.contains("the `cards` generator prints the part `card-labels` of the `bbb` kit's page `approach-cards`"),
        "{report}"
    );
}

/// A deck's back words and damage word are its content's (`back`, `damage` in `[[deck]]`), printed by
/// the sheets and the Markdown alike; a deck that gives none prints `Road ahead` and `Damage`.
#[test]
fn a_decks_back_and_damage_words_are_its_contents() {
    let (_t, content, out) = own_content();
    let (c, o) = (content.to_str().unwrap(), out.to_str().unwrap());
    let decks = content.join("bbb/09-decks.toml");
    let text = std::fs::read_to_string(&decks).unwrap();
    std::fs::write(
        &decks,
        text.replace("back = \"Road ahead\"\n", "back = \"On the run\"\n")
            .replace("damage = \"Damage\"\n", "damage = \"Lose\"\n"),
    )
    .unwrap();
    ok(&["deck", "bbb.chase.foot", "--content", c, "--out", o, "-q"]);
    let stem = out.join("cards/decks/bbb_chase_foot");
    let data = json(&stem.with_extension("json"));
    let faces = data["faces"].as_array().unwrap();
    assert_eq!(faces[0]["damage_label"], "Lose 1");
    assert_eq!(faces[12]["damage_label"], "Lose 10");
    assert_eq!(faces[52]["subtitle"], "On the run");
    let md = std::fs::read_to_string(stem.with_extension("md")).unwrap();
    assert!(
        md.contains("| A ♥ | The crowd thins out ahead | Lose 1 |\n"),
        "{md}"
    );
    assert!(
        md.contains("every back reads On Foot · On the run."),
        "{md}"
    );
    let pdf = std::fs::read(stem.with_extension("pdf")).unwrap();
    let printed: String = glyphs::pages(&pdf)
        .iter()
        .flat_map(|p| p.glyphs.iter().map(|g| g.text.to_lowercase()))
        .filter(|t| !t.trim().is_empty())
        .collect();
    assert!(
        printed.contains("lose1") && printed.contains("ontherun"),
        "{printed}"
    );
    assert!(!printed.contains("damage1") && !printed.contains("roadahead"));
    // The words left out: the defaults.
    std::fs::write(
        &decks,
        text.replace("back = \"Road ahead\"\n", "")
            .replace("damage = \"Damage\"\n", ""),
    )
    .unwrap();
    ok(&[
        "deck",
        "bbb.chase.foot",
        "--content",
        c,
        "--out",
        o,
        "--force",
        "-q",
    ]);
    let data = json(&stem.with_extension("json"));
    assert_eq!(data["faces"][0]["damage_label"], "Damage 1");
    assert_eq!(data["faces"][52]["subtitle"], "Road ahead");
}
