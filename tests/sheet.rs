//! The sheets (issue 9): the blank character, caseload and GM case sheets, the pre-filled character sheet
//! (the contract's sample detective, `tests/fixtures/sheet/detective.json`), and the fillable copies: every
//! field over its drawn box, values and appearance streams, and what qpdf, pypdf and poppler make of them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use blockprint::generators::{Checked, Kind, sheet};
use blockprint::render::form::{self, FieldKind, FieldValue, Mark};
use blockprint::render::{Engine, Paper};
use typst::layout::{FrameItem, Point};
use typst::visualize::{CurveItem, Geometry};

use crate::support::{
    builtin_checked as checked, builtin_engine as engine, one_request as request,
};

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn sample_detective() -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(fixture("tests/fixtures/sheet/detective.json")).unwrap())
        .unwrap()
}

/// The data of sheet `i` (0 character, 1 caseload, 2 GM case) on `paper`, with `detective` on the
/// character sheet.
fn data(
    cx: &Checked,
    paper: Paper,
    i: usize,
    detective: Option<serde_json::Value>,
) -> (String, serde_json::Value) {
    let doc = sheet::SheetKind.document(cx, &request(paper), i).unwrap();
    let data = match detective {
        // What a kind that prints detectives on the sheet passes.
        Some(d) => sheet::character_data(cx, &request(paper), d).unwrap(),
        None => doc.data,
    };
    (format!("{}.typ", doc.template), data)
}

/// (flat PDF, fillable PDF) of a sheet.
fn render(engine: &Engine, template: &str, data: &serde_json::Value) -> (Vec<u8>, Vec<u8>) {
    let out = engine
        .pdf(
            template,
            data,
            "blockprint/sheet",
            "a sheet",
            &[],
            &blockprint::app::Silent,
        )
        .unwrap();
    let names: Vec<&str> = out.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(names, ["", "-fillable"], "{template}");
    let mut it = out.into_iter().map(|(_, b)| b);
    (it.next().unwrap(), it.next().unwrap())
}

const PAPERS: [Paper; 2] = [Paper::A4, Paper::Letter];

/// Every stroked rectangle typst drew on each page: (page, x0, y0, x1, y1), top-left origin, points.
fn drawn_boxes(doc: &typst_layout::PagedDocument) -> Vec<(usize, [f64; 4])> {
    fn walk(
        frame: &typst::layout::Frame,
        origin: Point,
        page: usize,
        out: &mut Vec<(usize, [f64; 4])>,
    ) {
        for (pos, item) in frame.items() {
            let at = origin + *pos;
            match item {
                FrameItem::Group(g) => {
                    let t = g.transform;
                    assert!(
                        t.sx.get() == 1.0
                            && t.sy.get() == 1.0
                            && t.kx.get() == 0.0
                            && t.ky.get() == 0.0,
                        "the sheets are not scaled or rotated"
                    );
                    walk(&g.frame, at + Point::new(t.tx, t.ty), page, out);
                }
                FrameItem::Shape(shape, _) if shape.stroke.is_some() => {
                    let (x, y) = (at.x.to_pt(), at.y.to_pt());
                    match &shape.geometry {
                        Geometry::Rect(size) => {
                            out.push((page, [x, y, x + size.x.to_pt(), y + size.y.to_pt()]))
                        }
                        Geometry::Curve(c) => {
                            let pts: Vec<Point> =
                                c.0.iter()
                                    .cloned()
                                    .filter_map(|i| match i {
                                        CurveItem::Move(p) | CurveItem::Line(p) => Some(p),
                                        CurveItem::Cubic(_, _, p) => Some(p),
                                        CurveItem::Close => None,
                                    })
                                    .collect();
                            if pts.len() >= 4 {
                                let xs = pts.iter().map(|p| p.x.to_pt());
                                let ys = pts.iter().map(|p| p.y.to_pt());
                                let (x0, x1) = (
                                    xs.clone().fold(f64::MAX, f64::min),
                                    xs.fold(f64::MIN, f64::max),
                                );
                                let (y0, y1) = (
                                    ys.clone().fold(f64::MAX, f64::min),
                                    ys.fold(f64::MIN, f64::max),
                                );
                                out.push((page, [x + x0, y + y0, x + x1, y + y1]));
                            }
                        }
                        Geometry::Line(_) => {}
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for (i, p) in doc.pages().iter().enumerate() {
        walk(&p.frame, Point::zero(), i + 1, &mut out);
    }
    out
}

/// The contract's field names (fixed: the lead's `detective --fillable` and users' scripts fill them).
fn contract_names() -> Vec<String> {
    let mut n: Vec<String> = [
        "name",
        "class",
        "level",
        "xp",
        "hp_max",
        "hp_current",
        "assignment",
        "tagline",
    ]
    .map(String::from)
    .to_vec();
    for a in sheet::ATTRIBUTE_KEYS {
        n.push(a.into());
        n.push(format!("{a}_mod"));
    }
    for k in 1..=5 {
        for s in ["tier", "name", "good", "strained", "repair"] {
            n.push(format!("rel_{k}_{s}"));
        }
    }
    n.extend((1..=6).map(|l| format!("background_{l}")));
    n.extend((1..=20).map(|i| format!("xp_{i}")));
    n.extend((1..=8).map(|i| format!("case_{i}")));
    n
}

/// The fields issue 22 added, with their kind and page: on the character sheet the end-of-session
/// questions (page 1) and the Stress options (page 2) as checkboxes, and the notes area (page 2) as a
/// multi-line text field; on the GM case sheet the investigator's notes (page 2).
const CHARACTER_ADDED: [(&str, FieldKind, usize); 8] = [
    ("session_closed_case", FieldKind::Check, 1),
    ("session_tagline", FieldKind::Check, 1),
    ("session_strained", FieldKind::Check, 1),
    ("session_zero_hp", FieldKind::Check, 1),
    ("stress_hp", FieldKind::Check, 2),
    ("stress_relationship", FieldKind::Check, 2),
    ("stress_attribute", FieldKind::Check, 2),
    ("notes", FieldKind::Text, 2),
];
const GM_CASE_ADDED: [(&str, FieldKind, usize); 1] = [("notes", FieldKind::Text, 2)];

#[test]
fn every_sheet_compiles_without_warnings_on_both_papers() {
    let cx = checked();
    let engine = engine();
    for paper in PAPERS {
        for i in 0..3 {
            let (t, d) = data(&cx, paper, i, None);
            let w = engine.warnings(&t, &d).unwrap();
            assert!(w.is_empty(), "{t} {paper:?}: {w:#?}");
        }
        let (t, d) = data(&cx, paper, 0, Some(sample_detective()));
        assert!(engine.warnings(&t, &d).unwrap().is_empty());
    }
    // The sheet kind refuses papers it is not laid out for.
    assert_eq!(sheet::SheetKind.papers(), [Paper::A4, Paper::Letter]);
}

#[test]
fn every_field_lies_exactly_over_its_drawn_box() {
    let cx = checked();
    let engine = engine();
    for paper in PAPERS {
        let (page_w, page_h) = match paper {
            Paper::A4 => (595.276, 841.89),
            _ => (612.0, 792.0),
        };
        for i in 0..3 {
            let (t, d) = data(&cx, paper, i, None);
            let marks = engine.form_marks(&t, &d).unwrap();
            assert!(!marks.is_empty());
            let boxes = drawn_boxes(&engine.typeset(&t, &d).unwrap());
            let (_, fillable) = render(&engine, &t, &d);
            let fields: BTreeMap<String, form::FormField> = form::fields(&fillable)
                .unwrap()
                .into_iter()
                .map(|f| (f.name.clone(), f))
                .collect();
            let marked: BTreeSet<&str> = marks.iter().map(|m| m.name.as_str()).collect();
            assert_eq!(
                marked,
                fields.keys().map(String::as_str).collect(),
                "{t} {paper:?}"
            );
            for m in &marks {
                let f = &fields[&m.name];
                assert_eq!(f.page, m.page, "{}", m.name);
                // typst's top-left points to PDF user space (bottom left).
                let want = [m.x, page_h - m.y - m.h, m.x + m.w, page_h - m.y];
                for k in 0..4 {
                    assert!(
                        (f.rect[k] - want[k]).abs() < 0.01,
                        "{t} {paper:?} {}: {:?} vs {want:?}",
                        m.name,
                        f.rect
                    );
                }
                assert!(
                    f.rect[0] >= 0.0
                        && f.rect[2] <= page_w
                        && f.rect[1] >= 0.0
                        && f.rect[3] <= page_h
                );
                // Inside a box typst drew (a checkbox is exactly its drawn square).
                let inside = boxes.iter().any(|(p, b)| {
                    *p == m.page
                        && b[0] - 0.6 <= m.x
                        && b[1] - 0.6 <= m.y
                        && m.x + m.w <= b[2] + 0.6
                        && m.y + m.h <= b[3] + 0.6
                        && (m.kind == FieldKind::Text || ((b[2] - b[0]) - m.w).abs() < 0.6)
                });
                assert!(
                    inside,
                    "{t} {paper:?}: field {} at {:?} is in no drawn box",
                    m.name,
                    (m.x, m.y, m.w, m.h)
                );
                // Room for a pencil: writing areas at least 7 mm high, tick boxes at least 4 mm.
                let min = if m.kind == FieldKind::Text { 7.0 } else { 4.0 } * 72.0 / 25.4;
                assert!(m.h >= min - 0.01, "{} is {:.1} pt high", m.name, m.h);
                assert!(f.has_appearance, "{} has no appearance stream", m.name);
            }
            // One page for the caseload sheet, two for the others, on either paper.
            let pages = lopdf::Document::load_mem(&fillable)
                .unwrap()
                .get_pages()
                .len();
            assert_eq!(pages, if i == 1 { 1 } else { 2 }, "{t} {paper:?}");
            if i == 0 {
                for n in contract_names() {
                    assert!(
                        fields.contains_key(&n),
                        "the character sheet lacks the field `{n}`"
                    );
                }
            }
        }
    }
}

#[test]
fn fields_are_in_row_order_and_do_not_overlap() {
    let cx = checked();
    let engine = engine();
    let (t, d) = data(&cx, Paper::A4, 0, None);
    let (_, fillable) = render(&engine, &t, &d);
    let doc = lopdf::Document::load_mem(&fillable).unwrap();
    let form = doc
        .catalog()
        .unwrap()
        .get(b"AcroForm")
        .unwrap()
        .as_reference()
        .unwrap();
    let form = doc.get_dictionary(form).unwrap();
    assert!(matches!(
        form.get(b"NeedAppearances"),
        Ok(lopdf::Object::Boolean(false))
    ));
    let names: Vec<String> = form
        .get(b"Fields")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let d = doc.get_dictionary(r.as_reference().unwrap()).unwrap();
            String::from_utf8(d.get(b"T").unwrap().as_str().unwrap().to_vec()).unwrap()
        })
        .collect();
    // The identity row first, left to right; the STR score before its modifier before DEX.
    assert_eq!(&names[..4], ["name", "class", "level", "xp"]);
    let at = |n: &str| names.iter().position(|x| x == n).unwrap();
    assert!(
        at("str") < at("str_mod") && at("str_mod") < at("dex") && at("hp_max") < at("hp_current")
    );
    assert!(at("xp_1") < at("xp_2") && at("xp_20") < at("background_1"));
    assert!(at("rel_1_name") < at("rel_1_good") && at("rel_1_good") < at("rel_1_strained"));
    assert!(at("rel_1_strained") < at("rel_1_repair") && at("rel_1_repair") < at("rel_2_tier"));
    for (_, page) in doc.get_pages() {
        let p = doc.get_dictionary(page).unwrap();
        assert_eq!(p.get(b"Tabs").unwrap().as_name().unwrap(), b"R");
    }
    let fields = form::fields(&fillable).unwrap();
    for a in &fields {
        for b in &fields {
            let overlap = a.name < b.name
                && a.page == b.page
                && a.rect[0] < b.rect[2] - 0.1
                && b.rect[0] < a.rect[2] - 0.1
                && a.rect[1] < b.rect[3] - 0.1
                && b.rect[1] < a.rect[3] - 0.1;
            assert!(!overlap, "{} overlaps {}", a.name, b.name);
        }
    }
}

#[test]
fn a_prefilled_sheet_holds_the_detective_in_its_fields_and_on_paper() {
    let cx = checked();
    let engine = engine();
    let det = sample_detective();
    let (t, d) = data(&cx, Paper::A4, 0, Some(det.clone()));
    let (flat, fillable) = render(&engine, &t, &d);
    let fields: BTreeMap<String, form::FormField> = form::fields(&fillable)
        .unwrap()
        .into_iter()
        .map(|f| (f.name.clone(), f))
        .collect();
    let values = form::detective_values(&det);
    assert!(values.len() > 40);
    for (name, v) in &values {
        assert_eq!(&fields[name].value, v, "{name}");
        assert!(fields[name].has_appearance);
    }
    // What the template typed equals what `detective_values` maps: one source of truth for both.
    let marks: BTreeMap<String, Mark> = engine
        .form_marks(&t, &d)
        .unwrap()
        .into_iter()
        .map(|m| (m.name.clone(), m))
        .collect();
    for (name, v) in &values {
        if let FieldValue::Text(_) = v {
            assert_eq!(marks[name].value.as_ref(), Some(v), "{name}");
        }
    }
    assert_eq!(fields["wis_mod"].value, FieldValue::Text("+3".into()));
    assert_eq!(fields["cha_mod"].value, FieldValue::Text("−2".into()));
    assert_eq!(fields["rel_2_strained"].value, FieldValue::Check(true));
    assert_eq!(fields["rel_2_good"].value, FieldValue::Check(false));
    assert_eq!(fields["xp_3"].value, FieldValue::Check(true));
    assert_eq!(fields["xp_4"].value, FieldValue::Check(false));
    // A new detective starts at full HP: the current HP is the maximum.
    assert_eq!(fields["hp_current"].value, FieldValue::Text("9".into()));
    // The print copy shows the values and the rolls; the fillable copy leaves them to its fields.
    let text = pdf_text(&flat);
    for s in [
        "Ana Ruiz",
        "Walt Kowalski",
        "a boxer who went the distance twice",
        "the evidence locker",
        "STR 3d6: 4 + 5 + 4 = 13",
        "HP 1d8: 8, CON +1",
        "set to 18",
    ] {
        assert!(text.contains(s), "the print copy lacks {s:?}");
    }
    let form_text = pdf_text(&fillable);
    assert!(
        !form_text.contains("Walt Kowalski"),
        "the fillable copy prints a value under its field"
    );
    assert!(
        form_text.contains("STR 3d6: 4 + 5 + 4 = 13"),
        "the provenance is not a field: it stays printed"
    );
    // Filling the blank form gives the same values.
    let (tb, db) = data(&cx, Paper::A4, 0, None);
    let (_, blank) = render(&engine, &tb, &db);
    let filled = form::fill(&blank, &values).unwrap();
    let refilled: BTreeMap<String, FieldValue> = form::fields(&filled)
        .unwrap()
        .into_iter()
        .map(|f| (f.name, f.value))
        .collect();
    for (name, v) in &values {
        assert_eq!(&refilled[name], v);
    }
    // A name the form lacks, or a value of the wrong kind, is refused.
    assert!(
        form::fill(&blank, &[("nope".into(), FieldValue::Text("x".into()))])
            .unwrap_err()
            .contains("nope")
    );
    assert!(form::fill(&blank, &[("xp_1".into(), FieldValue::Text("x".into()))]).is_err());
}

#[test]
fn long_and_foreign_strings_stay_inside_their_boxes() {
    let cx = checked();
    let engine = engine();
    let mut det = sample_detective();
    let long = "Ж".repeat(260);
    det["name"] = long.clone().into();
    det["tagline"] = "Supercalifragilisticexpialidocious".repeat(12).into();
    det["relationships"][0]["name"] = "ש".repeat(90).into();
    let hostile = "#panic(\"x\") *b* $x$ <l> @r #read(\"/etc/passwd\")";
    det["assignment"] = hostile.into();
    for paper in PAPERS {
        let (t, d) = data(&cx, paper, 0, Some(det.clone()));
        assert!(engine.warnings(&t, &d).unwrap().is_empty());
        let marks = engine.form_marks(&t, &d).unwrap();
        let name = marks.iter().find(|m| m.name == "name").unwrap();
        // The value the mark carries is the string itself (no invisible break opportunities).
        assert_eq!(name.value, Some(FieldValue::Text(long.clone())));
        let (flat, _) = render(&engine, &t, &d);
        let pages = crate::support::glyphs::pages(&flat);
        let h = pages[0].height;
        // (The page footer names the detective too: only the glyphs above it.)
        let zhe: Vec<_> = pages[0]
            .glyphs
            .iter()
            .filter(|g| g.text == "Ж" && g.y > 60.0)
            .collect();
        assert!(
            zhe.len() > 50,
            "the long name is typed ({} glyphs)",
            zhe.len()
        );
        for g in &zhe {
            let top = h - name.y;
            assert!(
                g.x >= name.x && g.x + g.w <= name.x + name.w + 0.01,
                "Ж at x {} outside the box",
                g.x
            );
            assert!(
                g.y <= top && g.y >= top - name.h,
                "Ж at y {} outside the box",
                g.y
            );
        }
        let shin: usize = pages[0].glyphs.iter().filter(|g| g.text == "ש").count();
        assert!(shin > 0, "the Hebrew name prints");
        // (pdf-extract reads spaces into the run that has invisible break opportunities: compare without.)
        let squeeze = |s: &str| s.replace(' ', "");
        assert!(
            squeeze(&pdf_text(&flat)).contains(&squeeze(hostile)),
            "typst markup in data prints as written"
        );
    }
}

#[test]
fn blank_sheets_carry_the_rules_a_player_needs() {
    let cx = checked();
    let engine = engine();
    let (t, d) = data(&cx, Paper::Letter, 0, None);
    let (flat, _) = render(&engine, &t, &d);
    let text = pdf_text(&flat);
    for s in [
        "Hit Points · Hostile Position · Hot Pursuit",
        "Did you close a case this session?",
        "Did you bring one or more City Taglines into play?",
        "Did you strain a relationship this session?",
        "Did you reach 0 HP or less this session?",
        "I used to be (a)",
        "Detective partner",
        "Commissioner or top brass",
        "Hit the archives",
        "+Int",
        "Stakeout or wiretap",
        "+Con",
        "Crime scene investigation",
        "Lose 1 HP",
        "Strain a relationship",
        "drop the lowest",
        "drop the highest",
        "Fighter 1d8",
        "13–15: +1",
    ] {
        assert!(text.contains(s), "the character sheet lacks {s:?}");
    }
    assert_eq!(pdf_pages(&flat), 2);
    let (t, d) = data(&cx, Paper::Letter, 1, None);
    let text = pdf_text(&render(&engine, &t, &d).0);
    for s in [
        "Case no.",
        "Victim",
        "Lead detective",
        "Date received",
        "Status",
    ] {
        assert!(text.contains(s), "the caseload sheet lacks {s:?}");
    }
    let (t, d) = data(&cx, Paper::Letter, 2, None);
    let text = pdf_text(&render(&engine, &t, &d).0);
    for s in [
        "Homicide case file",
        "First Break threshold",
        "Within the first week: 1d3",
        "Witness",
        "Week / date",
        "Progress starts again at 0",
        "Suspect in custody",
    ] {
        assert!(text.contains(s), "the GM case sheet lacks {s:?}");
    }
}

fn pdf_text(bytes: &[u8]) -> String {
    pdf_extract::extract_text_from_mem(bytes)
        .unwrap()
        .replace('\u{200B}', "")
}

fn pdf_pages(bytes: &[u8]) -> usize {
    lopdf::Document::load_mem(bytes).unwrap().get_pages().len()
}

/// The command line: `sheet` writes the set for a paper, byte-identical on a rerun; `--paper a5` is refused.
#[test]
fn the_sheet_command_writes_print_and_fillable_copies() {
    let tmp = tempdir("cli");
    let dir = tmp.path();
    let run = |args: &[&str]| crate::support::bp().args(args).output().unwrap();
    let out = dir.join("out");
    let o = run(&[
        "sheet",
        "--out",
        out.to_str().unwrap(),
        "--paper",
        "letter",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let files: Vec<String> = crate::support::tree(&out.join("sheet"))
        .into_keys()
        .collect();
    assert_eq!(
        files,
        [
            "caseload-fillable.pdf",
            "caseload.pdf",
            "character-fillable.pdf",
            "character.pdf",
            "gm-case-fillable.pdf",
            "gm-case.pdf",
            "manifest.json"
        ]
    );
    let hashes = |d: &Path| -> BTreeMap<String, String> {
        crate::support::tree(d)
            .into_iter()
            .filter(|(k, _)| k != "manifest.json")
            .map(|(k, v)| (k, blockprint::render::manifest::sha256(&v)))
            .collect()
    };
    let first = hashes(&out.join("sheet"));
    let again = dir.join("again");
    assert!(
        run(&[
            "sheet",
            "--out",
            again.to_str().unwrap(),
            "--paper",
            "letter",
            "--quiet"
        ])
        .status
        .success()
    );
    assert_eq!(
        first,
        hashes(&again.join("sheet")),
        "reruns are byte-identical"
    );
    // A rerun in place keeps every file (the fillable copies too) and rewrites nothing: only the removed
    // fillable copy is written, the other five files (the Markdown too) are up to date.
    std::fs::remove_file(out.join("sheet/character-fillable.pdf")).unwrap();
    let o = run(&["sheet", "--out", out.to_str().unwrap(), "--paper", "letter"]);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("(5 already up to date)"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(first, hashes(&out.join("sheet")));
    let o = run(&["sheet", "--out", out.to_str().unwrap(), "--paper", "a5"]);
    assert_eq!(o.status.code(), Some(2));
    // Only embedded fonts (Courier Prime for the fields' appearances).
    if let Ok(o) = Command::new("pdffonts")
        .arg(out.join("sheet/character-fillable.pdf"))
        .output()
    {
        let t = String::from_utf8_lossy(&o.stdout);
        for line in t.lines().skip(2) {
            assert!(line.contains(" yes "), "a font is not embedded: {line}");
            assert!(
                ["BebasNeue", "CourierPrime"]
                    .iter()
                    .any(|f| line.contains(f)),
                "{line}"
            );
        }
    }
}

/// A fresh folder for the files handed to the external tools, removed when the test ends (its name
/// says which test wrote it, for a look while the test runs).
fn tempdir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("blockprint-sheet-{name}-"))
        .tempdir()
        .unwrap()
}

/// Write the filled and blank fillable character sheets for the external tools.
fn fillables(dir: &Path) -> (PathBuf, PathBuf, Vec<form::FormField>) {
    let cx = checked();
    let engine = engine();
    let (t, d) = data(&cx, Paper::A4, 0, Some(sample_detective()));
    let (_, filled) = render(&engine, &t, &d);
    let (t, d) = data(&cx, Paper::A4, 0, None);
    let (_, blank) = render(&engine, &t, &d);
    let (fp, bp) = (dir.join("filled.pdf"), dir.join("blank.pdf"));
    std::fs::write(&fp, &filled).unwrap();
    std::fs::write(&bp, &blank).unwrap();
    (fp, bp, form::fields(&filled).unwrap())
}

#[test]
fn qpdf_finds_no_fault_in_the_fillable_forms() {
    let tmp = tempdir("qpdf");
    let dir = tmp.path();
    let (filled, blank, _) = fillables(dir);
    let Ok(v) = Command::new("qpdf").arg("--version").output() else {
        eprintln!("SKIPPED: qpdf is not installed");
        return;
    };
    assert!(v.status.success());
    let cx = checked();
    let engine = engine();
    let mut files = vec![filled, blank];
    for i in 1..3 {
        let (t, d) = data(&cx, Paper::Letter, i, None);
        let p = dir.join(format!("sheet-{i}.pdf"));
        std::fs::write(&p, render(&engine, &t, &d).1).unwrap();
        files.push(p);
    }
    for f in files {
        let o = Command::new("qpdf")
            .arg("--check")
            .arg(&f)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success() && out.contains("No syntax or stream encoding errors"),
            "{}: {out}",
            f.display()
        );
    }
}

#[test]
fn pypdf_reads_the_fields_and_their_values() {
    let tmp = tempdir("pypdf");
    let dir = tmp.path();
    let (filled, _, _) = fillables(dir);
    let Some(fields) = crate::support::pypdf_fields(&filled) else {
        return;
    };
    assert_eq!(fields["name"], "Ana Ruiz");
    assert_eq!(fields["cha_mod"], "−2");
    assert_eq!(fields["rel_2_strained"], "/On");
    assert_eq!(fields["rel_1_strained"], "/Off");
    assert_eq!(fields["hp_current"], "9");
    for n in contract_names() {
        assert!(fields.contains_key(&n), "pypdf does not see `{n}`");
    }
}

/// poppler draws the values from the appearance streams: dark pixels inside a filled field, none in the
/// same field of the blank form.
#[test]
fn poppler_renders_the_filled_values() {
    let tmp = tempdir("poppler");
    let dir = tmp.path();
    let (filled, blank, fields) = fillables(dir);
    if Command::new("pdftoppm").arg("-v").output().is_err() {
        eprintln!("SKIPPED: pdftoppm is not installed");
        return;
    }
    let dpi = 100.0;
    let render = |pdf: &Path, stem: &str| {
        let o = Command::new("pdftoppm")
            .args(["-r", "100", "-f", "1", "-l", "1", "-gray"])
            .arg(pdf)
            .arg(dir.join(stem))
            .output()
            .unwrap();
        assert!(o.status.success());
        let bytes = std::fs::read(dir.join(format!("{stem}-1.pgm"))).unwrap();
        pgm(&bytes)
    };
    let (w, h, filled_px) = render(&filled, "filled");
    let (_, _, blank_px) = render(&blank, "blank");
    let page_h = 841.89;
    let dark = |px: &[u8], rect: [f64; 4]| {
        let s = dpi / 72.0;
        let (x0, x1) = (
            (rect[0] * s).ceil() as usize + 2,
            (rect[2] * s).floor() as usize - 2,
        );
        let (y0, y1) = (
            ((page_h - rect[3]) * s).ceil() as usize + 2,
            ((page_h - rect[1]) * s).floor() as usize - 2,
        );
        let mut n = 0;
        for y in y0..y1.min(h) {
            for x in x0..x1.min(w) {
                if px[y * w + x] < 128 {
                    n += 1;
                }
            }
        }
        n
    };
    for name in [
        "name",
        "str",
        "wis_mod",
        "hp_max",
        "rel_1_name",
        "rel_2_strained",
        "xp_1",
        "background_1",
    ] {
        let f = fields.iter().find(|f| f.name == name).unwrap();
        assert!(
            dark(&filled_px, f.rect) > 10,
            "poppler shows nothing in `{name}`"
        );
        assert_eq!(
            dark(&blank_px, f.rect),
            0,
            "the blank `{name}` is not empty"
        );
    }
    let unticked = fields.iter().find(|f| f.name == "rel_1_strained").unwrap();
    assert_eq!(dark(&filled_px, unticked.rect), 0);
}

/// A binary PGM (P5) as (width, height, pixels).
fn pgm(bytes: &[u8]) -> (usize, usize, Vec<u8>) {
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..i]).into_owned());
    }
    assert_eq!(fields[0], "P5");
    let (w, h): (usize, usize) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    (w, h, bytes[i + 1..].to_vec())
}

/// Writes the sheets as PNG-ready PDFs for looking at (`BLOCKPRINT_SHEET_PREVIEW=DIR`).
#[test]
fn preview() {
    let Some(dir) = std::env::var_os("BLOCKPRINT_SHEET_PREVIEW") else {
        return;
    };
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cx = checked();
    let engine = engine();
    for paper in PAPERS {
        let (t, d) = data(&cx, paper, 0, Some(sample_detective()));
        let (flat, fillable) = render(&engine, &t, &d);
        std::fs::write(dir.join(format!("filled-{}.pdf", paper.name())), flat).unwrap();
        std::fs::write(
            dir.join(format!("filled-{}-fillable.pdf", paper.name())),
            fillable,
        )
        .unwrap();
    }
}

/// Content `check` accepts renders: a relationships lookup with three rows still gives a whole character
/// sheet (rows it lacks are blank). (An attributes lookup with fewer than six rows no longer passes
/// `check`: the detective generator rolls all six by name.)
#[test]
fn shorter_lookups_in_the_content_still_make_the_sheets() {
    let tmp = tempdir("content");
    let dir = tmp.path();
    let content = dir.join("content");
    let run = |args: &[&str]| crate::support::bp().args(args).output().unwrap();
    assert!(
        run(&["init", content.to_str().unwrap(), "--quiet"])
            .status
            .success()
    );
    let file = content.join("bbb/05-characters.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let cut: String = text
        .lines()
        .filter(|l| {
            !l.contains("\"District Attorney\"") && !l.contains("\"Commissioner or top brass\"")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(cut, text);
    std::fs::write(&file, cut).unwrap();
    let out = dir.join("out");
    let o = run(&[
        "sheet",
        "--content",
        content.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let fields =
        form::fields(&std::fs::read(out.join("sheet/character-fillable.pdf")).unwrap()).unwrap();
    for n in contract_names() {
        assert!(fields.iter().any(|f| f.name == n), "{n}");
    }
}

fn page_size(paper: Paper) -> (f64, f64) {
    match paper {
        Paper::A4 => (595.276, 841.89),
        _ => (612.0, 792.0),
    }
}

const MM: f64 = 72.0 / 25.4;

/// Issue 22: the end-of-session questions and the Stress options are checkboxes (each exactly its drawn
/// 4 mm square), and the notes areas are multi-line text fields exactly over their framed, ruled box, which
/// runs the width of the page between the margins and down to the footer.
#[test]
fn the_questions_stress_options_and_notes_have_fields() {
    let cx = checked();
    let engine = engine();
    for paper in PAPERS {
        let (page_w, page_h) = page_size(paper);
        for (i, added) in [(0, &CHARACTER_ADDED[..]), (2, &GM_CASE_ADDED[..])] {
            let (t, d) = data(&cx, paper, i, None);
            let marks: BTreeMap<String, Mark> = engine
                .form_marks(&t, &d)
                .unwrap()
                .into_iter()
                .map(|m| (m.name.clone(), m))
                .collect();
            let boxes = drawn_boxes(&engine.typeset(&t, &d).unwrap());
            let (_, fillable) = render(&engine, &t, &d);
            let fields: BTreeMap<String, form::FormField> = form::fields(&fillable)
                .unwrap()
                .into_iter()
                .map(|f| (f.name.clone(), f))
                .collect();
            let doc = lopdf::Document::load_mem(&fillable).unwrap();
            let widget = |name: &str| {
                doc.objects
                    .values()
                    .filter_map(|o| o.as_dict().ok())
                    .find(|d| {
                        d.get(b"T").ok().and_then(|t| t.as_str().ok()) == Some(name.as_bytes())
                    })
                    .unwrap_or_else(|| panic!("no widget `{name}`"))
                    .clone()
            };
            for &(name, kind, page) in added {
                let (m, f) = (&marks[name], &fields[name]);
                assert_eq!(
                    (m.kind, m.page, f.kind, f.page),
                    (kind, page, kind, page),
                    "{t} {paper:?} {name}"
                );
                // The drawn box the field lies exactly over.
                let exact = |b: &[f64; 4]| {
                    (b[0] - m.x).abs() < 0.01
                        && (b[1] - m.y).abs() < 0.01
                        && (b[2] - m.x - m.w).abs() < 0.01
                        && (b[3] - m.y - m.h).abs() < 0.01
                };
                assert!(
                    boxes.iter().any(|(p, b)| *p == page && exact(b)),
                    "{t} {paper:?}: `{name}` at {:?} is not exactly over a drawn box",
                    (m.x, m.y, m.w, m.h)
                );
                let w = widget(name);
                let ff = w.get(b"Ff").map_or(0, |o| o.as_i64().unwrap());
                let area = matches!(w.get(b"BlockprintArea"), Ok(lopdf::Object::Boolean(true)));
                match kind {
                    FieldKind::Check => {
                        assert!((m.w - 4.0 * MM).abs() < 0.01 && (m.h - 4.0 * MM).abs() < 0.01);
                        assert!(!m.area && !area);
                        assert_eq!(f.value, FieldValue::Check(false));
                    }
                    FieldKind::Text => {
                        assert!(
                            m.area && area,
                            "`{name}` is an area: typed notes start at its top"
                        );
                        assert_ne!(ff & (1 << 12), 0, "`{name}` is multi-line");
                        assert!((m.w - (page_w - 24.0 * MM)).abs() < 0.01, "{}", m.w);
                        assert!(
                            m.h >= 40.0 * MM,
                            "{t} {paper:?}: notes {:.1} mm high",
                            m.h / MM
                        );
                        // Down to the bottom margin, where the footer starts.
                        assert!(
                            (m.y + m.h - (page_h - 15.0 * MM)).abs() < 0.01,
                            "{}",
                            m.y + m.h
                        );
                        assert_eq!(f.value, FieldValue::Text(String::new()));
                    }
                }
            }
        }
    }
}

/// The form's widgets as pypdf reads them: name → (1-based page, rectangle, field type, flags, whether
/// pypdf lists it among the form's fields).
fn pypdf_widgets(pdf: &Path) -> Option<BTreeMap<String, PypdfWidget>> {
    let script = "import json, sys\nfrom pypdf import PdfReader\nr = PdfReader(sys.argv[1])\n\
        fields = r.get_fields() or {}\nout = {}\n\
        for i, p in enumerate(r.pages):\n    for a in p.get('/Annots') or []:\n        a = a.get_object()\n\
        \x20       if a.get('/Subtype') != '/Widget':\n            continue\n        n = str(a['/T'])\n\
        \x20       out[n] = {'page': i + 1, 'rect': [float(x) for x in a['/Rect']], 'ft': str(a.get('/FT')),\n\
        \x20           'ff': int(a.get('/Ff', 0)), 'field': n in fields}\nprint(json.dumps(out))\n";
    let v: BTreeMap<String, serde_json::Value> =
        serde_json::from_value(crate::support::pypdf_json(script, pdf)?).unwrap();
    Some(
        v.into_iter()
            .map(|(k, w)| {
                let r: Vec<f64> = w["rect"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect();
                let widget = PypdfWidget {
                    page: w["page"].as_u64().unwrap() as usize,
                    rect: [r[0], r[1], r[2], r[3]],
                    ft: w["ft"].as_str().unwrap().to_owned(),
                    ff: w["ff"].as_i64().unwrap(),
                    field: w["field"].as_bool().unwrap(),
                };
                (k, widget)
            })
            .collect(),
    )
}

struct PypdfWidget {
    page: usize,
    rect: [f64; 4],
    ft: String,
    ff: i64,
    field: bool,
}

/// pypdf finds the added fields on their pages, of their kinds, each inside a box typst drew there.
#[test]
fn pypdf_finds_the_added_fields_inside_their_drawn_boxes() {
    let cx = checked();
    let engine = engine();
    let tmp = tempdir("pypdf-added");
    let dir = tmp.path();
    for paper in PAPERS {
        let (_, page_h) = page_size(paper);
        for (i, added) in [(0, &CHARACTER_ADDED[..]), (2, &GM_CASE_ADDED[..])] {
            let (t, d) = data(&cx, paper, i, None);
            let path = dir.join(format!("sheet-{i}-{}.pdf", paper.name()));
            std::fs::write(&path, render(&engine, &t, &d).1).unwrap();
            let Some(widgets) = pypdf_widgets(&path) else {
                return;
            };
            let boxes = drawn_boxes(&engine.typeset(&t, &d).unwrap());
            for &(name, kind, page) in added {
                let w = widgets
                    .get(name)
                    .unwrap_or_else(|| panic!("{t} {paper:?}: pypdf sees no `{name}`"));
                assert!(w.field, "pypdf does not list `{name}` among the fields");
                assert_eq!(w.page, page, "{t} {paper:?} {name}");
                match kind {
                    FieldKind::Check => assert_eq!(w.ft, "/Btn"),
                    FieldKind::Text => {
                        assert_eq!(w.ft, "/Tx");
                        assert_ne!(w.ff & (1 << 12), 0, "`{name}` is multi-line");
                    }
                }
                // PDF user space to typst's top-left points.
                let (x0, y0, x1, y1) =
                    (w.rect[0], page_h - w.rect[3], w.rect[2], page_h - w.rect[1]);
                assert!(x1 - x0 >= 4.0 * MM - 0.01 && y1 - y0 >= 4.0 * MM - 0.01);
                assert!(
                    boxes.iter().any(|(p, b)| *p == page
                        && b[0] - 0.01 <= x0
                        && b[1] - 0.01 <= y0
                        && x1 <= b[2] + 0.01
                        && y1 <= b[3] + 0.01),
                    "{t} {paper:?}: `{name}` at {:?} is in no drawn box",
                    w.rect
                );
            }
        }
    }
}

/// Courier Prime's cap height and descender (em), which the values are typed in.
fn courier_metrics() -> (f64, f64) {
    let file = blockprint::render::fonts::FONTS
        .iter()
        .find(|f| f.path.ends_with("CourierPrime-Regular.ttf"))
        .unwrap();
    let face = ttf_parser::Face::parse(file.data, 0).unwrap();
    let upem = f64::from(face.units_per_em());
    (
        f64::from(face.capital_height().unwrap()) / upem,
        -f64::from(face.descender()) / upem,
    )
}

/// The first `Tm` (x, y) and `Tf` size of a text field's appearance stream: where the fillable copy draws
/// its first line, from the field's bottom left.
fn appearance_start(doc: &lopdf::Document, name: &str) -> Option<(f64, f64, f64)> {
    let w = doc
        .objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .find(|d| d.get(b"T").ok().and_then(|t| t.as_str().ok()) == Some(name.as_bytes()))?;
    let n = w
        .get(b"AP")
        .ok()?
        .as_dict()
        .ok()?
        .get(b"N")
        .ok()?
        .as_reference()
        .ok()?;
    let stream = doc.get_object(n).ok()?.as_stream().ok()?;
    let bytes = stream
        .decompressed_content()
        .unwrap_or_else(|_| stream.content.clone());
    let ops = lopdf::content::Content::decode(&bytes).ok()?.operations;
    let num = |o: &lopdf::Object| match o {
        lopdf::Object::Integer(i) => *i as f64,
        lopdf::Object::Real(r) => f64::from(*r),
        _ => f64::NAN,
    };
    let size = ops
        .iter()
        .find(|o| o.operator == "Tf")
        .map(|o| num(&o.operands[1]))?;
    let tm = ops.iter().find(|o| o.operator == "Tm")?;
    Some((num(&tm.operands[4]), num(&tm.operands[5]), size))
}

/// Defect 3 of issue 22: the print copy types each value where the fillable copy draws it — the same size,
/// the same first baseline (the capitals in the middle of the box, or raised so the descenders clear it),
/// the same left edge — and no value's capitals or descenders reach within the 1 pt inset of its box's
/// edges, so none touches a rule. Checked on every text value of the sample detective, on both papers.
#[test]
fn print_and_fillable_copies_place_each_value_alike() {
    let cx = checked();
    let engine = engine();
    let (cap, desc) = courier_metrics();
    for paper in PAPERS {
        let (t, d) = data(&cx, paper, 0, Some(sample_detective()));
        let (flat, fillable) = render(&engine, &t, &d);
        let pages = crate::support::glyphs::pages(&flat);
        let doc = lopdf::Document::load_mem(&fillable).unwrap();
        let mut checked_fields = 0;
        for f in form::fields(&fillable).unwrap() {
            let FieldValue::Text(v) = &f.value else {
                continue;
            };
            if v.is_empty() {
                continue;
            }
            let [x0, y0, x1, y1] = f.rect;
            // (A box's label stands on the writing area's top edge: baselines on that edge are the label's.)
            let inside: Vec<_> = pages[f.page - 1]
                .glyphs
                .iter()
                .filter(|g| g.x >= x0 - 0.01 && g.x <= x1 && g.y >= y0 && g.y < y1 - 0.5)
                .collect();
            assert!(
                !inside.is_empty(),
                "{paper:?}: the print copy types nothing in `{}`",
                f.name
            );
            let (ax, ay, asize) = appearance_start(&doc, &f.name)
                .unwrap_or_else(|| panic!("`{}` has no drawn appearance", f.name));
            let first = inside.iter().map(|g| g.y).fold(f64::MIN, f64::max);
            let left = inside.iter().map(|g| g.x).fold(f64::MAX, f64::min);
            assert!(
                (first - (y0 + ay)).abs() < 0.05,
                "{paper:?} `{}`: print baseline {:.2} above the box, fillable {ay:.2}",
                f.name,
                first - y0
            );
            assert!((left - (x0 + ax)).abs() < 0.05, "{paper:?} `{}`", f.name);
            for g in &inside {
                assert!(
                    (g.size - asize).abs() < 0.01,
                    "{paper:?} `{}`: {} pt vs {asize} pt",
                    f.name,
                    g.size
                );
                assert!(
                    g.y - desc * g.size >= y0 + 1.0 - 0.01 && g.y + cap * g.size <= y1 - 1.0 + 0.01,
                    "{paper:?} `{}`: {:?} at baseline {:.2} in a box {y0:.2}–{y1:.2}",
                    f.name,
                    g.text,
                    g.y
                );
            }
            checked_fields += 1;
        }
        // name, class, level, xp, six scores and modifiers, both HPs, a background, five tiers and names,
        // the assignment and the tagline.
        assert_eq!(checked_fields, 31, "{paper:?}");
    }
}

/// Defect 14 of issue 22: each "I used to be (a) …" prompt of the backgrounds stays on one line.
#[test]
fn the_background_prompt_stays_on_one_line() {
    let cx = checked();
    let engine = engine();
    for paper in PAPERS {
        let (t, d) = data(&cx, paper, 0, None);
        let (flat, _) = render(&engine, &t, &d);
        let pages = crate::support::glyphs::pages(&flat);
        let glyphs = &pages[0].glyphs;
        let ellipses: Vec<_> = glyphs.iter().filter(|g| g.text == "…").collect();
        assert_eq!(ellipses.len(), 6, "{paper:?}");
        for e in ellipses {
            // The "I" that opens the prompt, on the same baseline to the left.
            assert!(
                glyphs.iter().any(|g| g.text == "I"
                    && (g.y - e.y).abs() < 0.01
                    && g.x < e.x
                    && e.x - g.x < 80.0),
                "{paper:?}: the … at {:.1},{:.1} is on a line of its own",
                e.x,
                e.y
            );
        }
    }
}
