//! Fonts and typography (issue 8 points 10–11, issue 14 point 5): the embedded families are complete with
//! real bold and italic faces; the PDFs blockprint makes embed only the faces meant for them, and every
//! glyph of the content is set by its intended face (no fallback, no empty box); names in Arabic, Hebrew,
//! emoji or with stacked accents print through the embedded fallbacks, Arabic and Hebrew right to left; a
//! character no embedded font has is named in a warning with its field; the booklet sets lining figures;
//! text from TOML gets curly quotes in PDF and Markdown.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use blockprint::generators::{Checked, Document, Kind, Registry, Request};
use blockprint::render::fonts::{FONTS, covered};
use blockprint::render::{Engine, Paper, Templates};
use typst::layout::{Frame, FrameItem};
use typst::text::{FontInfo, FontStyle, TextItem};
use typst_layout::PagedDocument;

// ---------- shared setup ----------

fn checked() -> &'static Checked {
    static CX: OnceLock<Checked> = OnceLock::new();
    CX.get_or_init(crate::support::builtin_checked)
}

fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| Engine::new(Templates::builtin(), Default::default()).unwrap())
}

fn request(count: u32) -> Request {
    Request {
        seed: 42,
        paper: Paper::A4,
        first: 1,
        count,
    }
}

fn document(kind: &str, i: usize) -> Document {
    let registry = Registry::new(&Templates::builtin()).unwrap();
    let kind: &dyn Kind = registry.get(kind).unwrap();
    kind.document(checked(), &request(8), i).unwrap()
}

fn srd() -> &'static Document {
    static DOC: OnceLock<Document> = OnceLock::new();
    DOC.get_or_init(|| document("srd", 0))
}

/// The SRD's PDF, made once for all tests.
fn srd_pdf() -> &'static [u8] {
    static PDF: OnceLock<Vec<u8>> = OnceLock::new();
    PDF.get_or_init(|| pdf(srd()).remove(0).1)
}

/// A document's PDFs (one per part), as `blockprint` writes them.
fn pdf(doc: &Document) -> Vec<(String, Vec<u8>)> {
    engine()
        .pdf(
            &format!("{}.typ", doc.template),
            &doc.data,
            "blockprint/test",
            &doc.title,
            &doc.parts,
            &blockprint::app::Silent,
        )
        .unwrap()
}

/// The PostScript names of the fonts a PDF embeds (`BaseFont`, without the subset tag).
fn base_fonts(pdf: &[u8]) -> BTreeSet<String> {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    let mut out = BTreeSet::new();
    for obj in doc.objects.values() {
        let Ok(dict) = obj.as_dict() else { continue };
        if dict.get(b"Type").and_then(|t| t.as_name()).ok() != Some(b"Font".as_slice()) {
            continue;
        }
        // Type 0 fonts name the face with its encoding; their descendant names it alone.
        if dict.get(b"Subtype").and_then(|t| t.as_name()).ok() == Some(b"Type0".as_slice()) {
            continue;
        }
        let Ok(name) = dict.get(b"BaseFont").and_then(|n| n.as_name()) else {
            continue;
        };
        let name = String::from_utf8_lossy(name).into_owned();
        let name = match name.split_once('+') {
            Some((tag, rest)) if tag.len() == 6 => rest.to_owned(),
            _ => name,
        };
        out.insert(name.trim_end_matches("-Identity-H").to_owned());
    }
    out
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| (*s).to_owned()).collect()
}

/// One glyph as typst set it: the face, the glyph id, the text it stands for, and its item's glyphs in
/// visual order (left to right) with their byte offsets in the item's text.
#[derive(Debug, Clone)]
struct Set {
    face: String,
    family: String,
    glyph: u16,
    text: String,
}

fn text_items<'a>(frame: &'a Frame, out: &mut Vec<&'a TextItem>) {
    for (_, item) in frame.items() {
        match item {
            FrameItem::Group(g) => text_items(&g.frame, out),
            FrameItem::Text(t) => out.push(t),
            _ => {}
        }
    }
}

fn items(doc: &PagedDocument) -> Vec<&TextItem> {
    let mut out = Vec::new();
    for page in doc.pages() {
        text_items(&page.frame, &mut out);
    }
    out
}

fn glyphs(item: &TextItem) -> Vec<Set> {
    let font = item.font.font();
    let face = font.post_script_name().unwrap_or_default();
    item.glyphs
        .iter()
        .map(|g| Set {
            face: face.clone(),
            family: font.info().family.clone(),
            glyph: g.id,
            text: item.text[g.range()].to_owned(),
        })
        .collect()
}

fn typeset(doc: &Document) -> PagedDocument {
    engine()
        .typeset(&format!("{}.typ", doc.template), &doc.data)
        .unwrap()
}

fn srd_typeset() -> &'static PagedDocument {
    static DOC: OnceLock<PagedDocument> = OnceLock::new();
    DOC.get_or_init(|| typeset(srd()))
}

/// Every string in a JSON value.
fn strings<'a>(v: &'a serde_json::Value, out: &mut Vec<&'a str>) {
    match v {
        serde_json::Value::String(s) => out.push(s),
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(m) => m.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// The embedded faces: (PostScript name, info).
fn faces() -> Vec<(String, FontInfo)> {
    FONTS
        .iter()
        .map(|f| {
            let font = typst::text::Font::new(typst::foundations::Bytes::new(f.data), 0).unwrap();
            (font.post_script_name().unwrap(), font.info().clone())
        })
        .collect()
}

fn face(name: &str) -> FontInfo {
    faces()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no embedded face {name}"))
        .1
}

const GARAMOND: [&str; 4] = [
    "EBGaramond-Regular",
    "EBGaramond-Italic",
    "EBGaramond-Bold",
    "EBGaramond-BoldItalic",
];
const COURIER: [&str; 4] = [
    "CourierPrime-Regular",
    "CourierPrime-Italic",
    "CourierPrime-Bold",
    "CourierPrime-BoldItalic",
];
const BEBAS: &str = "BebasNeueRegular";

/// A name in every script a user might write: curly quotes, a dagger, Arabic, Hebrew, stacked accents,
/// Greek, Cyrillic, Vietnamese and emoji (with a zero width joiner and a variation selector).
const HOSTILE: &str = "Nadia ‘Dee’ O’Brien † محمد الأحمد · דוד כהן · Z\u{351}\u{352}a\u{300}\u{301}\u{302}lgo · Ἀθηνᾶ Жанна Nguyễn · 🕵️\u{200D}♀️ 🔪";

/// Which face family is meant to set `c` when the text asks for one of the three main families.
fn meant_for(c: char) -> Option<&'static str> {
    match c {
        '\u{0600}'..='\u{06FF}'
        | '\u{0750}'..='\u{077F}'
        | '\u{FB50}'..='\u{FDFF}'
        | '\u{FE70}'..='\u{FEFF}' => Some("Noto Naskh Arabic"),
        '\u{0590}'..='\u{05FF}' | '\u{FB1D}'..='\u{FB4F}' => Some("Noto Serif Hebrew"),
        '\u{1F000}'..='\u{1FAFF}' | '\u{2600}'..='\u{27BF}' => Some("Noto Emoji"),
        _ => None,
    }
}

// ---------- the families ----------

#[test]
fn families_are_complete_with_real_bold_and_italic_faces() {
    let mut by_family: BTreeMap<String, BTreeSet<(bool, u16)>> = BTreeMap::new();
    for (name, info) in faces() {
        assert!(
            !info.flags.contains(typst::text::FontFlags::VARIABLE),
            "{name} is a variable font; the templates use static instances"
        );
        by_family.entry(info.family.clone()).or_default().insert((
            info.variant.style == FontStyle::Italic,
            info.variant.weight.to_number(),
        ));
    }
    let four = BTreeSet::from([(false, 400), (true, 400), (false, 700), (true, 700)]);
    let two = BTreeSet::from([(false, 400), (false, 700)]);
    let one = BTreeSet::from([(false, 400)]);
    let want = BTreeMap::from([
        ("EB Garamond".to_owned(), four.clone()),
        ("Courier Prime".to_owned(), four),
        ("Bebas Neue".to_owned(), one.clone()),
        ("Noto Naskh Arabic".to_owned(), two.clone()),
        ("Noto Serif Hebrew".to_owned(), two),
        ("Noto Serif".to_owned(), one.clone()),
        ("Noto Emoji".to_owned(), one),
    ]);
    assert_eq!(by_family, want);

    // Latin-1, Latin Extended-A and the punctuation of typeset text, in every style of the text faces.
    let punctuation = "‘’“”–—†‡×−½…#";
    let latin: Vec<char> = (0x20u32..0x7F)
        .chain(0xA0..0x180)
        .filter_map(char::from_u32)
        .chain(punctuation.chars())
        .collect();
    // What a face lacks (archaic or deprecated letters, superscript figures in the italics); Noto Serif
    // sets them.
    let lacks: BTreeMap<&str, &str> = BTreeMap::from([
        ("EBGaramond-Italic", "¹²³"),
        ("EBGaramond-BoldItalic", "¹²³"),
        ("CourierPrime-Regular", "ĸŉſ"),
        ("CourierPrime-Italic", "ĸŉſ"),
        ("CourierPrime-Bold", "ĸŉſ"),
        ("CourierPrime-BoldItalic", "ĸŉſ"),
        (BEBAS, "Ŋŋſ"),
    ]);
    for name in GARAMOND.iter().chain(&COURIER).chain(&[BEBAS]) {
        let info = face(name);
        let allowed = lacks.get(name).copied().unwrap_or("");
        let missing: String = latin
            .iter()
            .filter(|c| !c.is_control() && !allowed.contains(**c))
            .filter(|c| !info.coverage.contains(u32::from(**c)))
            .collect();
        assert!(missing.is_empty(), "{name} lacks {missing:?}");
    }
    let serif = face("NotoSerif-Regular");
    for c in "ĸŉſŊŋ№¹²³"
        .chars()
        .chain((0x300..0x370).filter_map(char::from_u32))
    {
        assert!(
            serif.coverage.contains(u32::from(c)),
            "Noto Serif lacks U+{:04X}",
            u32::from(c)
        );
    }
}

#[test]
fn every_character_of_the_content_is_in_every_style_of_its_family() {
    // The booklet: body text may be set in any style of EB Garamond.
    let mut srd_strings = Vec::new();
    strings(&srd().data, &mut srd_strings);
    // Case packets: every field may be typed in any style of Courier Prime.
    let cases: Vec<Document> = (0..8).map(|i| document("case", i)).collect();
    let mut case_strings = Vec::new();
    for c in &cases {
        strings(&c.data, &mut case_strings);
    }
    let infos: BTreeMap<&str, FontInfo> = GARAMOND
        .iter()
        .chain(&COURIER)
        .map(|n| (*n, face(n)))
        .collect();
    let mut lacking: BTreeSet<String> = BTreeSet::new();
    for (strings, family) in [(&srd_strings, &GARAMOND), (&case_strings, &COURIER)] {
        for s in strings.iter() {
            for c in s.chars().filter(|c| !c.is_whitespace() && !c.is_control()) {
                for name in family.iter() {
                    if !infos[name].coverage.contains(u32::from(c)) {
                        lacking.insert(format!("{name} lacks U+{:04X} {c}", u32::from(c)));
                    }
                }
            }
        }
    }
    assert!(lacking.is_empty(), "{lacking:#?}");
}

// ---------- what the PDFs embed ----------

#[test]
fn the_booklet_embeds_only_its_intended_faces_and_sets_no_glyph_by_fallback() {
    let fonts = base_fonts(srd_pdf());
    assert_eq!(
        fonts,
        set(&[
            "EBGaramond-Regular",
            "EBGaramond-Italic",
            "EBGaramond-Bold",
            "BebasNeueRegular",
            "CourierPrime-Regular",
        ]),
        "the SRD's fonts"
    );
    let mut wrong = BTreeSet::new();
    for item in items(srd_typeset()) {
        for g in glyphs(item) {
            if g.glyph == 0 {
                wrong.insert(format!(
                    "{:?} printed as an empty box in {}",
                    g.text, g.face
                ));
            }
            if g.family.starts_with("Noto") {
                wrong.insert(format!("{:?} set by the fallback {}", g.text, g.face));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn case_files_embed_courier_prime_with_a_real_bold() {
    let allowed: BTreeSet<String> = COURIER
        .iter()
        .chain(&[BEBAS])
        .map(|s| (*s).to_owned())
        .collect();
    for i in 0..2 {
        let doc = document("case", i);
        for (part, bytes) in pdf(&doc) {
            let fonts = base_fonts(&bytes);
            assert!(fonts.is_subset(&allowed), "{} {part}: {fonts:?}", doc.stem);
            assert!(
                fonts.contains("CourierPrime-Bold"),
                "{} {part}: no bold face: {fonts:?}",
                doc.stem
            );
        }
        for item in items(&typeset(&doc)) {
            for g in glyphs(item) {
                assert!(g.glyph != 0, "{}: {:?} is an empty box", doc.stem, g.text);
                assert!(
                    !g.family.starts_with("Noto"),
                    "{}: {:?} set by {}",
                    doc.stem,
                    g.text,
                    g.face
                );
            }
        }
    }
}

// ---------- names in any script ----------

fn hostile_case() -> Document {
    let mut doc = document("case", 0);
    doc.data["case"]["victim"]["name"] = HOSTILE.into();
    doc.data["case"]["district"]["text"] = HOSTILE.into();
    doc
}

#[test]
fn names_in_any_script_print_through_the_fallbacks_right_to_left_where_needed() {
    let doc = hostile_case();
    let warnings = engine().warnings("case/case.typ", &doc.data).unwrap();
    assert!(warnings.is_empty(), "{warnings:#?}");

    let typeset = typeset(&doc);
    let mut rtl_items = 0;
    for item in items(&typeset) {
        let set = glyphs(item);
        for (g, raw) in set.iter().zip(&item.glyphs) {
            assert!(
                g.glyph != 0,
                "{:?} printed as an empty box in {}",
                g.text,
                g.face
            );
            // A letter carrying combining marks the main face lacks is set, marks and all, by Noto Serif.
            let marked = item.text[raw.range().start..]
                .chars()
                .skip(1)
                .take_while(|c| ('\u{300}'..='\u{36F}').contains(c))
                .count()
                > 0;
            if marked {
                continue;
            }
            for c in g.text.chars() {
                if let Some(family) = meant_for(c) {
                    assert_eq!(g.family, family, "{c:?} (in {:?})", g.text);
                } else if c.is_alphabetic() && c.is_ascii() || "‘’†".contains(c) {
                    assert!(
                        ["Courier Prime", "Bebas Neue"].contains(&g.family.as_str()),
                        "{c:?} set by {} instead of its own face",
                        g.face
                    );
                }
            }
        }
        // Arabic and Hebrew runs: glyphs left to right are the text from its end to its start.
        let letters = |f: &str| f == "Noto Naskh Arabic" || f == "Noto Serif Hebrew";
        if set.first().is_some_and(|g| letters(&g.family)) && item.glyphs.len() > 2 {
            let starts: Vec<u16> = item.glyphs.iter().map(|g| g.range.start).collect();
            assert!(
                starts.windows(2).all(|w| w[0] >= w[1]),
                "{:?} is not set right to left: {starts:?}",
                item.text
            );
            rtl_items += 1;
        }
    }
    assert!(rtl_items >= 2, "no Arabic or Hebrew run found");

    // The PDF embeds the fallbacks it needs and nothing else.
    let allowed: BTreeSet<String> = COURIER
        .iter()
        .chain(&[BEBAS])
        .chain(&[
            "NotoNaskhArabic-Regular",
            "NotoNaskhArabic-Bold",
            "NotoSerifHebrew-Regular",
            "NotoSerifHebrew-Bold",
            "NotoSerif-Regular",
            "NotoEmoji-Regular",
        ])
        .map(|s| (*s).to_owned())
        .collect();
    for (part, bytes) in pdf(&doc) {
        let fonts = base_fonts(&bytes);
        assert!(fonts.is_subset(&allowed), "{part}: {fonts:?}");
        if part == "-gm" {
            for f in [
                "NotoNaskhArabic-Bold",
                "NotoSerifHebrew-Bold",
                "NotoEmoji-Regular",
                "NotoSerif-Regular",
            ] {
                assert!(fonts.contains(f), "{part}: {f} missing from {fonts:?}");
            }
        }
    }
}

#[test]
fn characters_no_font_has_are_one_warning_naming_the_first_text_and_each_character_once() {
    let mut doc = document("case", 0);
    // An Egyptian hieroglyph twice in one field, and a private-use character in a field inside an array.
    doc.data["case"]["victim"]["name"] = "Ann \u{13000} Lee \u{13000}".into();
    let array_field = {
        let case = doc.data["case"].as_object_mut().unwrap();
        case.iter_mut()
            .find_map(|(k, v)| {
                let first = v.as_array_mut()?.first_mut()?.as_object_mut()?;
                let (fk, fv) = first.iter_mut().find(|(_, fv)| fv.is_string())?;
                *fv = "x\u{E000}y".into();
                Some(format!("case.{k}[0].{fk}"))
            })
            .expect("an array of objects with a text field in the case data")
    };
    let warnings = engine().warnings("case/case.typ", &doc.data).unwrap();
    // The data's keys are in name order: whichever text comes first is quoted, the other counted.
    let first = if array_field.as_str() < "case.victim.name" {
        format!("“x\u{E000}y” ({array_field})")
    } else {
        "“Ann \u{13000} Lee \u{13000}” (case.victim.name)".to_owned()
    };
    let chars = if array_field.as_str() < "case.victim.name" {
        "\u{E000} U+E000, \u{13000} U+13000"
    } else {
        "\u{13000} U+13000, \u{E000} U+E000"
    };
    assert_eq!(
        warnings,
        [format!(
            "{first} and 1 other text have characters no font has: {chars}; they print as empty boxes: \
             add a font that has them in a font folder"
        )]
    );
    assert!(!covered('\u{13000}') && !covered('\u{E000}'));
    assert!(covered('ش') && covered('ש') && covered('🔪') && covered('\u{352}'));
}

// ---------- figures and quotes ----------

#[test]
fn the_booklet_sets_lining_figures() {
    let mut checked = 0;
    let mut old_style = BTreeSet::new();
    for item in items(srd_typeset()) {
        if item.font.font().info().family != "EB Garamond" {
            continue;
        }
        let ttf = item.font.ttf();
        let cap = f64::from(ttf.capital_height().unwrap());
        let x = f64::from(ttf.x_height().unwrap());
        for g in &item.glyphs {
            let text = &item.text[g.range()];
            // 0, 1 and 2 stand at x-height as old-style figures, at cap height as lining ones.
            if !["0", "1", "2"].contains(&text) {
                continue;
            }
            let top = ttf
                .glyph_bounding_box(ttf_parser::GlyphId(g.id))
                .map_or(0.0, |b| f64::from(b.y_max));
            checked += 1;
            if top < (cap + x) / 2.0 {
                old_style.insert(format!("{:?} in {:?}", text, item.text));
            }
        }
    }
    assert!(checked > 500, "only {checked} figures found");
    assert!(old_style.is_empty(), "old-style figures: {old_style:#?}");
}

#[test]
fn toml_text_gets_curly_quotes_in_pdf_and_markdown() {
    // A table result with an apostrophe, a note with single quotes and a ruling with both.
    let text = pdf_extract::extract_text_from_mem(srd_pdf()).unwrap();
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        "Victim’s home",
        "the killer’s, a friend’s",
        "‘Pore over technical reports’",
        "‘regain half HP’",
    ] {
        assert!(flat.contains(want), "the SRD PDF lacks {want:?}");
    }
    for straight in ["Victim's home", "'regain half HP'"] {
        assert!(!flat.contains(straight), "the SRD PDF has {straight:?}");
    }

    let registry = Registry::new(&Templates::builtin()).unwrap();
    let kind = registry.get("srd").unwrap();
    let files = kind.markdown(checked(), engine(), srd()).unwrap();
    let single = String::from_utf8(files[0].1.clone()).unwrap();
    for want in [
        "Victim’s home",
        "‘Pore over technical reports’",
        "‘regain half HP’",
    ] {
        assert!(single.contains(want), "the SRD Markdown lacks {want:?}");
    }
    assert!(!single.contains("Victim's home"));

    // A case whose location is the victim's home: its Markdown and GM file print the curly apostrophe,
    // while its JSON keeps the content's own characters.
    let case_kind = registry.get("case").unwrap();
    let doc = (0..60)
        .map(|i| case_kind.document(checked(), &request(60), i).unwrap())
        .find(|d| {
            serde_json::to_string(&d.data)
                .unwrap()
                .contains("Victim’s home")
        })
        .expect("a case at the victim's home among the first 60");
    let md = String::from_utf8(
        case_kind.markdown(checked(), engine(), &doc).unwrap()[0]
            .1
            .clone(),
    )
    .unwrap();
    assert!(
        md.contains("Victim’s home") && !md.contains("Victim's home"),
        "{md}"
    );
    let gm = pdf(&doc).remove(0).1;
    let gm_text = pdf_extract::extract_text_from_mem(&gm).unwrap();
    assert!(gm_text.contains("Victim’s home"), "{gm_text}");
    assert!(doc.json.as_deref().unwrap().contains("Victim's home"));
}

#[test]
fn the_templates_one_fallback_list_is_the_embedded_fallbacks_in_order() {
    let want = format!(
        "#let fallbacks = ({})",
        blockprint::render::fonts::FALLBACKS
            .iter()
            .map(|f| format!("{f:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    // The list is defined once (tests/templates.rs holds it there), and each family of the templates is
    // its face followed by it.
    let templates = Templates::builtin();
    let text = &templates.files["common/style.typ"].text;
    for line in [
        want.as_str(),
        "#let body-font = (\"EB Garamond\",) + fallbacks",
        "#let head-font = (\"Bebas Neue\",) + fallbacks",
        "#let type-font = (\"Courier Prime\",) + fallbacks",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "common/style.typ does not say {line}"
        );
    }
}
