//! Fillable sheets filled in other scripts: Latin, Cyrillic, Greek, Hebrew and Arabic values are drawn in
//! the fields' appearance streams with every character (no `?`, no empty boxes), right-to-left values in
//! visual order with Arabic letters joined, at the print copy's size, in fonts the appearance names; the
//! ToUnicode maps (decoded here, independently of blockprint's encoder) give the values back. Checked also
//! with poppler (`pdftoppm`), qpdf and pypdf when present (`BLOCKPRINT_REQUIRE_POPPLER`,
//! `BLOCKPRINT_REQUIRE_QPDF`, `BLOCKPRINT_REQUIRE_PYPDF` make their absence a failure).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use blockprint::generators::{Checked, Kind, sheet};
use blockprint::render::form::{self, FieldValue};
use blockprint::render::{Engine, Paper};
use lopdf::content::Content;
use lopdf::{Dictionary, Document, Object};

use crate::support::{
    builtin_checked as checked, builtin_engine as engine, one_request as request,
};

/// The fillable copy of the blank character sheet on `paper`.
fn blank_form(cx: &Checked, engine: &Engine, paper: Paper) -> Vec<u8> {
    let doc = sheet::SheetKind.document(cx, &request(paper), 0).unwrap();
    fillable(engine, &doc.template, &doc.data)
}

fn fillable(engine: &Engine, template: &str, data: &serde_json::Value) -> Vec<u8> {
    let out = engine
        .pdf(
            &format!("{template}.typ"),
            data,
            "blockprint/sheet",
            "a sheet",
            &[],
            &blockprint::app::Silent,
        )
        .unwrap();
    out.into_iter()
        .find(|(s, _)| s == "-fillable")
        .expect("a fillable copy")
        .1
}

/// How a value reads in its appearance: left to right as typed, or right to left (its glyphs come in
/// visual order, so reversed they give the value), or a fixed visual order (mixed directions).
#[derive(Clone, Copy)]
enum Reads {
    Ltr,
    Rtl,
    Visual(&'static str),
}

/// The values filled in, with how each reads.
const VALUES: [(&str, &str, Reads); 14] = [
    ("name", "محمد الأحمد", Reads::Rtl),
    ("rel_1_name", "דוד כהן", Reads::Rtl),
    ("rel_2_name", "Жанна Петровна Смирнова", Reads::Ltr),
    ("rel_3_name", "Ἀθηνᾶ Παπαδοπούλου", Reads::Ltr),
    ("rel_4_name", "Nguyễn Thị Ánh", Reads::Ltr),
    ("rel_5_name", "Ana Ruiz", Reads::Ltr),
    // Long enough to wrap in its box.
    (
        "assignment",
        "مكتب الأدلة في الطابق السفلي حيث لا يأتي أحد أبدا ولا يرن الهاتف",
        Reads::Rtl,
    ),
    (
        "case_2",
        "قضية المخزن القديم قرب الميناء: شاهدان ولا دليل، والمفتش يريد تقريرا قبل الفجر",
        Reads::Rtl,
    ),
    (
        "tagline",
        "העיר לא ישנה אף פעם והגשם לא מפסיק לרדת",
        Reads::Rtl,
    ),
    (
        "background_1",
        "Бывший боксёр — πρώην πυγμάχος (Fighter)",
        Reads::Ltr,
    ),
    ("str", "13", Reads::Ltr),
    ("str_mod", "−1", Reads::Ltr),
    // A number after a Hebrew word reads on from it, so it stands to the word's left (the bidi algorithm,
    // in a left-to-right paragraph as the print copy sets it).
    ("case_1", "Ana כהן 12", Reads::Visual("Ana 12 ןהכ")),
    ("hp_max", "9", Reads::Ltr),
];

fn values() -> Vec<(String, FieldValue)> {
    VALUES
        .iter()
        .map(|(k, v, _)| (k.to_string(), FieldValue::Text(v.to_string())))
        .collect()
}

// ---------- reading the PDF, independently of blockprint's writer ----------

fn deref<'a>(doc: &'a Document, o: &'a Object) -> &'a Object {
    match o {
        Object::Reference(id) => doc.get_object(*id).unwrap(),
        o => o,
    }
}

fn dict<'a>(doc: &'a Document, o: &'a Object) -> &'a Dictionary {
    match deref(doc, o) {
        Object::Dictionary(d) => d,
        Object::Stream(s) => &s.dict,
        o => panic!("not a dictionary: {o:?}"),
    }
}

fn stream_bytes(doc: &Document, o: &Object) -> Vec<u8> {
    match deref(doc, o) {
        Object::Stream(s) => s
            .decompressed_content()
            .unwrap_or_else(|_| s.content.clone()),
        o => panic!("not a stream: {o:?}"),
    }
}

fn hex_bytes(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

fn utf16(bytes: &[u8]) -> String {
    let units: Vec<u16> = bytes
        .chunks(2)
        .map(|c| u16::from_be_bytes([c[0], c[1]]))
        .collect();
    String::from_utf16(&units).unwrap()
}

/// A ToUnicode CMap's two-byte code → text (`bfchar` and `bfrange` entries).
fn parse_cmap(text: &str) -> BTreeMap<u16, String> {
    let mut out = BTreeMap::new();
    let tokens: Vec<&str> = text
        .split(|c: char| c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    let code = |t: &str| -> u16 {
        u16::from_str_radix(t.trim_start_matches('<').trim_end_matches('>'), 16).unwrap()
    };
    let hex = |t: &str| hex_bytes(t.trim_start_matches('<').trim_end_matches('>'));
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            "beginbfchar" => {
                i += 1;
                while tokens[i] != "endbfchar" {
                    out.insert(code(tokens[i]), utf16(&hex(tokens[i + 1])));
                    i += 2;
                }
            }
            "beginbfrange" => {
                i += 1;
                while tokens[i] != "endbfrange" {
                    let (lo, hi) = (code(tokens[i]), code(tokens[i + 1]));
                    assert!(
                        tokens[i + 2].starts_with('<'),
                        "array ranges are not expected"
                    );
                    let mut dst = hex(tokens[i + 2]);
                    for c in lo..=hi {
                        out.insert(c, utf16(&dst));
                        let n = dst.len();
                        dst[n - 1] = dst[n - 1].wrapping_add(1);
                    }
                    i += 3;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// One Type0 font of an appearance: its CMap, CID → glyph map and widths.
struct Font {
    to_unicode: BTreeMap<u16, String>,
    cid_to_gid: Vec<u16>,
    widths: usize,
    subtype: String,
    encoding: String,
    embedded: bool,
}

fn read_font(doc: &Document, o: &Object) -> Font {
    let f = dict(doc, o);
    let name = |d: &Dictionary, k: &[u8]| match d.get(k) {
        Ok(Object::Name(n)) => String::from_utf8_lossy(n).into_owned(),
        _ => String::new(),
    };
    let to_unicode =
        parse_cmap(&String::from_utf8(stream_bytes(doc, f.get(b"ToUnicode").unwrap())).unwrap());
    let desc = match deref(doc, f.get(b"DescendantFonts").unwrap()) {
        Object::Array(a) => dict(doc, &a[0]),
        o => panic!("{o:?}"),
    };
    let map = stream_bytes(doc, desc.get(b"CIDToGIDMap").unwrap());
    let cid_to_gid = map
        .chunks(2)
        .map(|c| u16::from_be_bytes([c[0], c[1]]))
        .collect();
    let widths = match desc.get(b"W").unwrap() {
        Object::Array(w) => match &w[1] {
            Object::Array(ws) => ws.len(),
            o => panic!("{o:?}"),
        },
        o => panic!("{o:?}"),
    };
    let fd = dict(doc, desc.get(b"FontDescriptor").unwrap());
    let embedded = fd
        .get(b"FontFile2")
        .is_ok_and(|ff| !stream_bytes(doc, ff).is_empty());
    Font {
        to_unicode,
        cid_to_gid,
        widths,
        subtype: format!("{}/{}", name(f, b"Subtype"), name(desc, b"Subtype")),
        encoding: name(f, b"Encoding"),
        embedded,
    }
}

/// One drawn glyph: the font resource, CID, glyph id and text the ToUnicode map gives.
#[derive(Debug, Clone)]
struct Drawn {
    font: String,
    gid: u16,
    text: String,
}

/// A text field's appearance read back: the font sizes set, and the glyphs line by line (a line starts at
/// each `Tm`), in the order drawn.
struct Appearance {
    sizes: Vec<f64>,
    lines: Vec<Vec<Drawn>>,
}

fn appearance(doc: &Document, name: &str) -> Appearance {
    let catalog = doc.catalog().unwrap();
    let acro = dict(doc, catalog.get(b"AcroForm").unwrap());
    let dr_fonts: BTreeSet<Vec<u8>> = dict(
        doc,
        dict(doc, acro.get(b"DR").unwrap()).get(b"Font").unwrap(),
    )
    .iter()
    .map(|(k, _)| k.clone())
    .collect();
    let field = match deref(doc, acro.get(b"Fields").unwrap()) {
        Object::Array(a) => a
            .iter()
            .map(|f| dict(doc, f))
            .find(|d| matches!(d.get(b"T"), Ok(Object::String(t, _)) if *t == name.as_bytes()))
            .unwrap_or_else(|| panic!("no field {name}")),
        o => panic!("{o:?}"),
    };
    let ap = dict(doc, field.get(b"AP").unwrap());
    let n = ap.get(b"N").unwrap();
    let stream_dict = dict(doc, n);
    let res_fonts: BTreeMap<Vec<u8>, Font> = stream_dict
        .get(b"Resources")
        .ok()
        .map(|r| dict(doc, r))
        .and_then(|r| r.get(b"Font").ok())
        .map(|f| {
            dict(doc, f)
                .iter()
                .map(|(k, v)| (k.clone(), read_font(doc, v)))
                .collect()
        })
        .unwrap_or_default();
    for (k, f) in &res_fonts {
        let k = String::from_utf8_lossy(k);
        assert_eq!(f.subtype, "Type0/CIDFontType2", "{name}: font {k}");
        assert_eq!(f.encoding, "Identity-H", "{name}: font {k}");
        assert!(f.embedded, "{name}: font {k} has no embedded program");
        assert_eq!(
            f.widths + 1,
            f.cid_to_gid.len(),
            "{name}: font {k}: /W and /CIDToGIDMap disagree"
        );
    }
    let content = Content::decode(&stream_bytes(doc, n)).unwrap();
    let mut sizes = Vec::new();
    let mut lines: Vec<Vec<Drawn>> = Vec::new();
    let mut font: Option<Vec<u8>> = None;
    let num = |o: &Object| match o {
        Object::Integer(i) => *i as f64,
        Object::Real(r) => f64::from(*r),
        o => panic!("{o:?}"),
    };
    for op in content.operations {
        match op.operator.as_str() {
            "Tf" => {
                let Object::Name(n) = &op.operands[0] else {
                    panic!()
                };
                assert!(
                    res_fonts.contains_key(n) || dr_fonts.contains(n),
                    "{name}: the appearance uses font /{} that neither its resources nor /DR name",
                    String::from_utf8_lossy(n)
                );
                font = Some(n.clone());
                sizes.push(num(&op.operands[1]));
            }
            "Tm" | "Td" | "TD" | "T*" => lines.push(Vec::new()),
            "TJ" | "Tj" => {
                let f = font.as_ref().expect("text shown before a font is set");
                let fnt = res_fonts
                    .get(f)
                    .unwrap_or_else(|| panic!("{name}: shows text in a /DR font"));
                let strings: Vec<&[u8]> = match (&op.operator[..], &op.operands[0]) {
                    ("Tj", Object::String(s, _)) => vec![s],
                    ("TJ", Object::Array(a)) => a
                        .iter()
                        .filter_map(|o| match o {
                            Object::String(s, _) => Some(&s[..]),
                            _ => None,
                        })
                        .collect(),
                    o => panic!("{o:?}"),
                };
                for s in strings {
                    assert_eq!(s.len() % 2, 0);
                    for c in s.chunks(2) {
                        let cid = u16::from_be_bytes([c[0], c[1]]);
                        let text = fnt
                            .to_unicode
                            .get(&cid)
                            .unwrap_or_else(|| panic!("{name}: CID {cid} has no ToUnicode entry"))
                            .clone();
                        let gid = fnt.cid_to_gid[usize::from(cid)];
                        lines
                            .last_mut()
                            .expect("text shown before a line starts")
                            .push(Drawn {
                                font: String::from_utf8_lossy(f).into_owned(),
                                gid,
                                text,
                            });
                    }
                }
            }
            _ => {}
        }
    }
    lines.retain(|l| !l.is_empty());
    Appearance { sizes, lines }
}

/// What a value's appearance gives back, read as the value reads.
fn read_back(a: &Appearance, reads: Reads) -> String {
    let line = |l: &Vec<Drawn>, rev: bool| -> String {
        let mut t: Vec<&str> = l.iter().map(|d| d.text.as_str()).collect();
        if rev {
            t.reverse();
        }
        t.concat()
    };
    let rev = matches!(reads, Reads::Rtl);
    a.lines
        .iter()
        .map(|l| line(l, rev))
        .collect::<Vec<_>>()
        .join(" ")
}

fn check_values(pdf: &[u8], values: &[(&str, &str, Reads)]) {
    let doc = Document::load_mem(pdf).unwrap();
    for &(name, value, reads) in values {
        let a = appearance(&doc, name);
        assert!(!a.lines.is_empty(), "`{name}` draws nothing");
        let got = read_back(&a, reads);
        match reads {
            Reads::Visual(v) => assert_eq!(got, v, "`{name}`"),
            _ => assert_eq!(got, value, "`{name}`"),
        }
        for d in a.lines.iter().flatten() {
            assert_ne!(
                d.gid, 0,
                "`{name}`: {:?} is drawn as .notdef (an empty box)",
                d.text
            );
        }
        assert!(!got.contains('?'), "`{name}`: {got}");
    }
}

// ---------- the tests ----------

#[test]
fn every_script_is_drawn_and_reads_back() {
    let cx = checked();
    let engine = engine();
    for paper in [Paper::A4, Paper::Letter] {
        let blank = blank_form(&cx, &engine, paper);
        let filled = form::fill(&blank, &values()).unwrap();
        check_values(&filled, &VALUES);
        // The values themselves, as a script reads them.
        let got: BTreeMap<String, FieldValue> = form::fields(&filled)
            .unwrap()
            .into_iter()
            .map(|f| (f.name, f.value))
            .collect();
        for (k, v, _) in VALUES {
            assert_eq!(got[k], FieldValue::Text(v.into()), "{k}");
        }
        let doc = Document::load_mem(&filled).unwrap();
        // Arabic is joined: the three mims of محمد الأحمد are not all one glyph (initial, medial, final
        // forms).
        let a = appearance(&doc, "name");
        let mims: BTreeSet<u16> = a
            .lines
            .iter()
            .flatten()
            .filter(|d| d.text == "م")
            .map(|d| d.gid)
            .collect();
        assert!(mims.len() >= 2, "the mims are all one glyph: not shaped");
        assert!(
            a.lines
                .iter()
                .flatten()
                .all(|d| d.font == "Arab" || d.text == " ")
        );
        // Hebrew in Noto Serif Hebrew, Cyrillic and Greek in Noto Serif, Latin in Courier Prime.
        let fonts_of = |n: &str| -> BTreeSet<String> {
            appearance(&doc, n)
                .lines
                .iter()
                .flatten()
                .filter(|d| d.text != " ")
                .map(|d| d.font.clone())
                .collect()
        };
        assert_eq!(fonts_of("rel_1_name"), BTreeSet::from(["Hebr".to_owned()]));
        assert_eq!(fonts_of("rel_2_name"), BTreeSet::from(["Serif".to_owned()]));
        assert_eq!(fonts_of("rel_5_name"), BTreeSet::from(["Cour".to_owned()]));
        // A long Arabic value wraps onto more than one line in a half-width box.
        assert!(appearance(&doc, "case_2").lines.len() > 1);
        // The print copy's sizes: 14 pt for the scores, 13 pt for the name.
        assert_eq!(appearance(&doc, "str").sizes, [14.0]);
        assert_eq!(appearance(&doc, "hp_max").sizes, [14.0]);
        assert!(appearance(&doc, "name").sizes.iter().all(|&s| s == 13.0));
        // Same input, same bytes; the filled form filled again draws the same.
        assert!(
            form::fill(&blank, &values()).unwrap() == filled,
            "fill is not deterministic"
        );
        let again = form::fill(&filled, &values()).unwrap();
        assert!(
            form::fill(&filled, &values()).unwrap() == again,
            "refill is not deterministic"
        );
        check_values(&again, &VALUES);
    }
}

#[test]
fn refilling_keeps_only_the_glyphs_in_use() {
    let cx = checked();
    let engine = engine();
    let blank = blank_form(&cx, &engine, Paper::A4);
    let filled = form::fill(&blank, &values()).unwrap();
    // Replace the Arabic and Hebrew values with Latin ones: their fonts leave the PDF.
    let latin: Vec<(String, FieldValue)> = [
        "name",
        "rel_1_name",
        "assignment",
        "tagline",
        "case_1",
        "case_2",
    ]
    .iter()
    .map(|k| (k.to_string(), FieldValue::Text("Ana Ruiz".into())))
    .collect();
    let refilled = form::fill(&filled, &latin).unwrap();
    // The fonts the fields' appearances name (the page's own fonts are typst's).
    let base_fonts = |pdf: &[u8]| -> BTreeSet<String> {
        let doc = Document::load_mem(pdf).unwrap();
        let acro = dict(&doc, doc.catalog().unwrap().get(b"AcroForm").unwrap());
        let Object::Array(fields) = deref(&doc, acro.get(b"Fields").unwrap()) else {
            panic!()
        };
        let mut out = BTreeSet::new();
        for f in fields {
            let Ok(ap) = dict(&doc, f).get(b"AP") else {
                continue;
            };
            let Ok(n) = dict(&doc, ap).get(b"N") else {
                continue;
            };
            let Object::Stream(s) = deref(&doc, n) else {
                continue;
            };
            let Ok(res) = s.dict.get(b"Resources") else {
                continue;
            };
            let Ok(fonts) = dict(&doc, res).get(b"Font") else {
                continue;
            };
            for (_, font) in dict(&doc, fonts).iter() {
                if let Ok(Object::Name(n)) = dict(&doc, font).get(b"BaseFont") {
                    // Without the subset tag `ABCDEF+`.
                    out.insert(String::from_utf8_lossy(&n[7..]).into_owned());
                }
            }
        }
        out
    };
    assert_eq!(
        base_fonts(&filled),
        BTreeSet::from(
            [
                "CourierPrime-Regular",
                "NotoNaskhArabic-Regular",
                "NotoSerifHebrew-Regular",
                "NotoSerif-Regular"
            ]
            .map(String::from)
        )
    );
    assert_eq!(
        base_fonts(&refilled),
        BTreeSet::from(["CourierPrime-Regular", "NotoSerif-Regular"].map(String::from))
    );
    check_values(&refilled, &[("name", "Ana Ruiz", Reads::Ltr)]);
    assert!(refilled.len() < filled.len());
}

#[test]
fn a_detective_with_an_arabic_name_gets_a_filled_form() {
    // The path `detective --fillable` takes: the marks carry the values.
    let cx = checked();
    let engine = engine();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sheet/detective.json");
    let mut det: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    det["name"] = "ليلى حداد".into();
    det["relationships"][0]["name"] = "שרה לוי".into();
    let data = sheet::character_data(&cx, &request(Paper::Letter), det).unwrap();
    let pdf = fillable(&engine, "sheet/character", &data);
    check_values(
        &pdf,
        &[
            ("name", "ليلى حداد", Reads::Rtl),
            ("rel_1_name", "שרה לוי", Reads::Rtl),
        ],
    );
    assert!(
        fillable(&engine, "sheet/character", &data) == pdf,
        "not deterministic"
    );
}

/// A fresh folder for the files handed to the external tools, removed when the test ends (its name
/// says which test wrote it, for a look while the test runs).
fn tempdir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("blockprint-form-{name}-"))
        .tempdir()
        .unwrap()
}

/// Whether a tool runs; when it does not, the test skips unless `require` is set.
fn tool(cmd: &str, arg: &str, require: &str) -> bool {
    if Command::new(cmd).arg(arg).output().is_ok() {
        return true;
    }
    assert!(
        std::env::var_os(require).is_none(),
        "{require} is set but `{cmd}` does not run"
    );
    eprintln!("SKIPPED: {cmd} is not installed");
    false
}

fn write_filled(dir: &Path, paper: Paper) -> (PathBuf, Vec<form::FormField>) {
    let cx = checked();
    let engine = engine();
    let filled = form::fill(&blank_form(&cx, &engine, paper), &values()).unwrap();
    let p = dir.join(format!("filled-{paper:?}.pdf"));
    std::fs::write(&p, &filled).unwrap();
    (p, form::fields(&filled).unwrap())
}

#[test]
fn poppler_draws_the_values_and_lists_only_embedded_fonts() {
    if !tool("pdftoppm", "-v", "BLOCKPRINT_REQUIRE_POPPLER") {
        return;
    }
    for paper in [Paper::A4, Paper::Letter] {
        let tmp = tempdir(&format!("poppler-{paper:?}"));
        let dir = tmp.path();
        let (pdf, fields) = write_filled(dir, paper);
        poppler_checks(dir, &pdf, &fields);
    }
}

fn poppler_checks(dir: &Path, pdf: &Path, fields: &[form::FormField]) {
    let o = Command::new("pdffonts").arg(pdf).output().unwrap();
    let listing = String::from_utf8_lossy(&o.stdout);
    for l in listing.lines().skip(2) {
        // name type encoding emb sub uni object-id: counted from the end (a type can be two words).
        let cols: Vec<&str> = l.split_whitespace().collect();
        assert!(cols.len() >= 7, "{l}");
        assert_eq!(cols[cols.len() - 5], "yes", "a font is not embedded: {l}");
        let family = [
            "CourierPrime",
            "NotoNaskhArabic",
            "NotoSerifHebrew",
            "NotoSerif",
            "EBGaramond",
            "BebasNeue",
            "NotoEmoji",
        ];
        assert!(
            family.iter().any(|f| cols[0].contains(f)),
            "an unexpected font: {l}"
        );
    }
    let dpi = 100.0;
    for (name, _, _) in VALUES {
        let f = fields.iter().find(|f| f.name == name).unwrap();
        let stem = format!("p{}", f.page);
        let png = dir.join(format!("{stem}-{}.pgm", f.page));
        if !png.exists() {
            let o = Command::new("pdftoppm")
                .args([
                    "-r",
                    "100",
                    "-gray",
                    "-f",
                    &f.page.to_string(),
                    "-l",
                    &f.page.to_string(),
                ])
                .arg(pdf)
                .arg(dir.join(&stem))
                .output()
                .unwrap();
            assert!(o.status.success());
        }
        let found: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with(&format!("{stem}-"))
            })
            .collect();
        assert_eq!(found.len(), 1);
        let (w, h, px) = pgm(&std::fs::read(&found[0]).unwrap());
        let page_h = h as f64 * 72.0 / dpi;
        let s = dpi / 72.0;
        let (x0, x1) = (
            (f.rect[0] * s).ceil() as usize + 2,
            (f.rect[2] * s).floor() as usize - 2,
        );
        let (y0, y1) = (
            ((page_h - f.rect[3]) * s).ceil() as usize + 2,
            ((page_h - f.rect[1]) * s).floor() as usize - 2,
        );
        let mut dark = 0;
        for y in y0..y1.min(h) {
            for x in x0..x1.min(w) {
                if px[y * w + x] < 128 {
                    dark += 1;
                }
            }
        }
        assert!(
            dark > 15,
            "poppler shows nothing in `{name}` ({dark} dark pixels)"
        );
    }
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
    (
        fields[1].parse().unwrap(),
        fields[2].parse().unwrap(),
        bytes[i + 1..].to_vec(),
    )
}

#[test]
fn qpdf_checks_the_filled_form() {
    if !tool("qpdf", "--version", "BLOCKPRINT_REQUIRE_QPDF") {
        return;
    }
    let tmp = tempdir("qpdf");
    let dir = tmp.path();
    let (pdf, _) = write_filled(dir, Paper::Letter);
    let o = Command::new("qpdf")
        .arg("--check")
        .arg(&pdf)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && out.contains("No syntax or stream encoding errors"),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn pypdf_reads_the_values_in_every_script() {
    let tmp = tempdir("pypdf");
    let dir = tmp.path();
    let (pdf, _) = write_filled(dir, Paper::A4);
    let Some(fields) = crate::support::pypdf_fields(&pdf) else {
        return;
    };
    for (k, v, _) in VALUES {
        assert_eq!(fields[k], v, "{k}");
    }
}

/// The baselines (from the field's bottom edge) and font size of a text field's appearance, one per `Tm`.
fn baselines(doc: &Document, name: &str) -> (Vec<f64>, f64) {
    let field = doc
        .objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .find(|d| matches!(d.get(b"T"), Ok(Object::String(t, _)) if *t == name.as_bytes()))
        .unwrap_or_else(|| panic!("no field {name}"));
    let n = dict(doc, field.get(b"AP").unwrap()).get(b"N").unwrap();
    let num = |o: &Object| match o {
        Object::Integer(i) => *i as f64,
        Object::Real(r) => f64::from(*r),
        o => panic!("{o:?}"),
    };
    let ops = Content::decode(&stream_bytes(doc, n)).unwrap().operations;
    let size = ops
        .iter()
        .find(|o| o.operator == "Tf")
        .map(|o| num(&o.operands[1]))
        .expect("a font size");
    let ys = ops
        .iter()
        .filter(|o| o.operator == "Tm")
        .map(|o| num(&o.operands[5]))
        .collect();
    (ys, size)
}

/// Issue 22: the notes areas of the character and GM case sheets take several lines, in any script, typed
/// from the top of the area at 10 pt rather than in its middle; the end-of-session questions and the Stress
/// options tick. pypdf reads every value back.
#[test]
fn notes_are_typed_from_the_top_and_the_new_boxes_tick() {
    let cx = checked();
    let engine = engine();
    let file = blockprint::render::fonts::FONTS
        .iter()
        .find(|f| f.path.ends_with("CourierPrime-Regular.ttf"))
        .unwrap();
    let face = ttf_parser::Face::parse(file.data, 0).unwrap();
    let cap = f64::from(face.capital_height().unwrap()) / f64::from(face.units_per_em());
    let tmp = tempdir("notes");
    let dir = tmp.path();
    let latin =
        "Saw the car twice on Figueroa.\nAsk the neighbour about the dog.\nCheck the pawn shops.";
    let mixed =
        "Ana saw the car twice.\nדוד כהן lies about the time.\nЖанна: ask the neighbour again.";
    let ticks = [
        "session_closed_case",
        "session_zero_hp",
        "stress_relationship",
    ];
    for paper in [Paper::A4, Paper::Letter] {
        for (i, notes) in [(0, mixed), (2, latin)] {
            let d = sheet::SheetKind.document(&cx, &request(paper), i).unwrap();
            let blank = fillable(&engine, &d.template, &d.data);
            let mut values = vec![("notes".to_owned(), FieldValue::Text(notes.to_owned()))];
            if i == 0 {
                values.extend(ticks.map(|t| (t.to_owned(), FieldValue::Check(true))));
            }
            let filled = form::fill(&blank, &values).unwrap();
            let doc = Document::load_mem(&filled).unwrap();
            let field = form::fields(&filled)
                .unwrap()
                .into_iter()
                .find(|f| f.name == "notes")
                .unwrap();
            let h = field.rect[3] - field.rect[1];
            let (ys, size) = baselines(&doc, "notes");
            assert_eq!(size, 10.0, "{paper:?} {}", d.stem);
            assert_eq!(ys.len(), 3, "{paper:?} {}: one line a paragraph", d.stem);
            if i == 2 {
                // Courier Prime alone: the first line's capitals at the top inset (1 pt), each next line
                // one cap height and 0.3 em lower.
                assert!(
                    (ys[0] - (h - 1.0 - 10.0 * cap)).abs() < 0.01,
                    "{ys:?} in {h}"
                );
                for k in 1..3 {
                    assert!(
                        (ys[k - 1] - ys[k] - 10.0 * (cap + 0.3)).abs() < 0.01,
                        "{ys:?}"
                    );
                }
            } else {
                // Hebrew and Cyrillic reach higher than Courier's capitals: still from the top.
                assert!(h - ys[0] < 20.0 && h > 100.0, "{ys:?} in {h}");
                check_values(
                    &filled,
                    &[(
                        "notes",
                        mixed,
                        Reads::Visual(
                            "Ana saw the car twice. ןהכ דוד lies about the time. Жанна: ask the neighbour again.",
                        ),
                    )],
                );
            }
            let path = dir.join(format!("{}-{paper:?}.pdf", d.stem));
            std::fs::write(&path, &filled).unwrap();
            let Some(read) = crate::support::pypdf_fields(&path) else {
                return;
            };
            assert_eq!(read["notes"], notes);
            if i == 0 {
                for t in ticks {
                    assert_eq!(read[t], "/On", "{t}");
                }
                for t in [
                    "session_tagline",
                    "session_strained",
                    "stress_hp",
                    "stress_attribute",
                ] {
                    assert_eq!(read[t], "/Off", "{t}");
                }
            }
        }
    }
}
