//! Long unbroken text stays inside its box (issue 14, point 4). Every content-derived string of a case
//! packet (names, occupations, district, place, method, Break summaries, charges, band names, the lead
//! detective) is replaced by a hostile long string — a 300-letter word, an e-mail address, a 58-letter
//! place name, stacked accents — and the GM file and handout are typeset on A4 and Letter. Reading the
//! glyph positions back from the PDF: no glyph leaves the page's text area (the 15 mm side margins), and
//! no two glyphs overlap, which is what text printed over a neighbouring field looks like.

use crate::support::glyphs::{self, Glyph};
use blockprint::render::{Engine, Templates};
use serde_json::Value;

const PAYLOADS: [&str; 5] = [
    "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch",
    "detective.sergeant.obrien.homicide@lapd-robbery-homicide-division.example.org",
    "E\u{301}\u{302}\u{308}mile-Zoe\u{308}\u{301}-Ame\u{301}lie-Franc\u{327}oise-Ce\u{301}leste-He\u{301}le\u{300}ne-Noe\u{308}l",
    "",
    "A perfectly ordinary but rather long description that wraps over several lines of its box without trouble",
];

fn payload(i: usize) -> String {
    if i % PAYLOADS.len() == 3 {
        // A 300-letter word.
        "Pneumonoultramicroscopicsilicovolcanoconiosis"
            .chars()
            .cycle()
            .take(300)
            .collect()
    } else {
        PAYLOADS[i % PAYLOADS.len()].to_owned()
    }
}

/// Replace every string the content supplies (not dates, dice, numbers or labels blockprint writes).
fn hostile(v: &mut Value, key: &str, n: &mut usize) {
    const CONTENT: [&str; 9] = [
        "name",
        "text",
        "result",
        "short",
        "summary",
        "activity",
        "band",
        "lead_detective",
        "charges",
    ];
    match v {
        Value::String(s) if CONTENT.contains(&key) => {
            *s = payload(*n);
            *n += 1;
        }
        Value::Array(a) => a.iter_mut().for_each(|x| hostile(x, key, n)),
        Value::Object(o) => o.iter_mut().for_each(|(k, x)| hostile(x, k, n)),
        _ => {}
    }
}

/// The overlap of two glyph boxes as a share of the smaller one (boxes from the baseline up 70% of the
/// em, where letters sit, so a line's descenders may touch the next line's accents).
fn overlap(a: &Glyph, b: &Glyph) -> f64 {
    let dx = (a.x + a.w).min(b.x + b.w) - a.x.max(b.x);
    let dy = (a.y + 0.7 * a.size).min(b.y + 0.7 * b.size) - a.y.max(b.y);
    if dx <= 0.0 || dy <= 0.0 {
        return 0.0;
    }
    dx * dy / (a.w * 0.7 * a.size).min(b.w * 0.7 * b.size)
}

fn check(pdf: &[u8], what: &str) -> usize {
    let margin = 15.0 / 25.4 * 72.0;
    let mut placed = 0;
    for page in glyphs::pages(pdf) {
        // Upright, visible glyphs: the rotated rubber stamps overlap the letterhead on purpose, and break
        // opportunities have no width.
        // Spaces are left out too: typst keeps a line's trailing space in its run, past the text's edge.
        let g: Vec<&Glyph> = page
            .glyphs
            .iter()
            .filter(|g| g.upright && g.w > 0.01 && !g.text.trim().is_empty())
            .collect();
        placed += g.len();
        for glyph in &g {
            assert!(
                glyph.x >= margin - 0.5 && glyph.x + glyph.w <= page.width - margin + 0.5,
                "{what}: `{}` of {} at x {:.1}–{:.1}, y {:.1} on page {} leaves the text area ({margin:.1}–{:.1})",
                glyph.text,
                glyph.font,
                glyph.x,
                glyph.x + glyph.w,
                glyph.y,
                glyph.page + 1,
                page.width - margin
            );
            assert!(
                glyph.y >= 0.0 && glyph.y + glyph.size <= page.height,
                "{what}: {glyph:?} off the page"
            );
        }
        for (i, a) in g.iter().enumerate() {
            for b in &g[i + 1..] {
                if (a.y - b.y).abs() < 20.0 {
                    let o = overlap(a, b);
                    assert!(
                        o < 0.25,
                        "{what}: glyphs overlap ({:.0}%) on page {}: {a:?} and {b:?}",
                        o * 100.0,
                        a.page + 1,
                    );
                }
            }
        }
    }
    placed
}

#[test]
fn long_unbroken_text_stays_inside_every_box() {
    let sample: Value = serde_json::from_slice(
        &std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/template-samples/case.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let engine = Engine::new(Templates::builtin(), Default::default()).unwrap();
    let mut n = 0;
    let mut data = sample.clone();
    hostile(&mut data["case"], "", &mut n);
    assert!(n > 60, "only {n} fields replaced");
    for paper in ["a4", "letter"] {
        data["paper"] = paper.into();
        let pdf = engine
            .pdf(
                "case/case.typ",
                &data,
                "layout",
                "layout",
                &[],
                &blockprint::app::Silent,
            )
            .unwrap()
            .remove(0)
            .1;
        if let Ok(dir) = std::env::var("BLOCKPRINT_LAYOUT_DUMP") {
            std::fs::write(format!("{dir}/layout-{paper}.pdf"), &pdf).unwrap();
        }
        let placed = check(&pdf, paper);
        assert!(placed > 3000, "{paper}: only {placed} glyphs");
        // Every payload is printed in full (break opportunities are invisible).
        let text: String = pdf_extract::extract_text_from_mem(&pdf)
            .unwrap()
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '\u{200B}')
            .collect();
        assert!(text.contains(
            "detective.sergeant.obrien.homicide@lapd-robbery-homicide-division.example.org"
        ));
        assert!(text.contains("Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch"));
    }
    // The same checks pass on the ordinary sample, so they measure layout, not payloads.
    let mut plain = sample;
    plain["paper"] = "a4".into();
    let pdf = engine
        .pdf(
            "case/case.typ",
            &plain,
            "layout",
            "layout",
            &[],
            &blockprint::app::Silent,
        )
        .unwrap()
        .remove(0)
        .1;
    check(&pdf, "plain");
}
