//! Tests of the merge: small PDFs built with lopdf (and typst fixtures) in, merged files checked by
//! re-reading them with lopdf out.

use std::path::Path;

use lopdf::{ObjectId, Stream, dictionary};

use super::read::load_needed;
use super::*;

const LETTER: [i64; 4] = [0, 0, 612, 792];
const A4: [i64; 4] = [0, 0, 595, 842];
const CARD: [i64; 4] = [0, 0, 300, 400];

/// A PDF with one page per box, each saying "Page n", tagged like typst's (`/StructParents`, a structure
/// tree). `inherit`: MediaBox (the first box) and Resources on the Pages node only. `extra` may add to
/// the document (it gets the page ids).
fn pdf(
    boxes: &[[i64; 4]],
    inherit: bool,
    extra: impl FnOnce(&mut Document, &[ObjectId]),
) -> Document {
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    let font = doc.add_object(
        dictionary! {"Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica"},
    );
    let resources = doc.add_object(dictionary! {"Font" => dictionary! {"F1" => font}});
    let mut kids = Vec::new();
    for (i, b) in boxes.iter().enumerate() {
        let text = format!("BT /F1 24 Tf 72 200 Td (Page {}) Tj ET", i + 1);
        let content = doc.add_object(Stream::new(dictionary! {}, text.into_bytes()));
        let mut page = dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content, "StructParents" => i as i64,
        };
        if !inherit {
            page.set(
                "MediaBox",
                b.iter().map(|&n| Object::Integer(n)).collect::<Vec<_>>(),
            );
            page.set("Resources", resources);
        }
        kids.push(doc.add_object(page));
    }
    let mut pages = dictionary! {
        "Type" => "Pages",
        "Kids" => kids.iter().map(|&k| Object::Reference(k)).collect::<Vec<_>>(),
        "Count" => kids.len() as i64,
    };
    if inherit {
        pages.set(
            "MediaBox",
            boxes[0]
                .iter()
                .map(|&n| Object::Integer(n))
                .collect::<Vec<_>>(),
        );
        pages.set("Resources", resources);
    }
    doc.objects.insert(pages_id, Object::Dictionary(pages));
    let elem = doc.add_object(dictionary! {"Type" => "StructElem", "S" => "P", "Pg" => kids[0]});
    let tree = doc
        .add_object(dictionary! {"Type" => "StructTreeRoot", "K" => vec![Object::Reference(elem)]});
    let info = doc.add_object(dictionary! {"Title" => Object::string_literal("input")});
    let catalog = doc.add_object(
        dictionary! {"Type" => "Catalog", "Pages" => pages_id, "StructTreeRoot" => tree},
    );
    doc.trailer.set("Root", catalog);
    doc.trailer.set("Info", info);
    extra(&mut doc, &kids);
    doc
}

fn save(dir: &Path, name: &str, mut doc: Document) -> PathBuf {
    let path = dir.join(name);
    doc.save(&path).unwrap();
    path
}

fn input(path: &Path, bookmark: &str) -> Input {
    Input {
        path: path.to_owned(),
        bookmark: bookmark.into(),
    }
}

fn run(inputs: &[Input], pad: bool) -> Result<(Stats, Vec<u8>), MergeError> {
    let mut out = Vec::new();
    let stats = merge(
        inputs,
        &Options {
            title: "Cases: GM file".into(),
            pad_to_even: pad,
            creator: Some("blockprint".into()),
        },
        &mut out,
    )?;
    Ok((stats, out))
}

/// Checks the xref table entry by entry (each offset starts its object), then loads with lopdf.
fn check(bytes: &[u8]) -> Document {
    assert!(bytes.starts_with(b"%PDF-1.7\n"));
    let text = String::from_utf8_lossy(bytes);
    let start: usize = text
        .rsplit("startxref\n")
        .next()
        .unwrap()
        .trim_end_matches("\n%%EOF\n")
        .parse()
        .unwrap();
    let table = String::from_utf8(bytes[start..].to_vec()).unwrap();
    let mut lines = table.split('\n').skip(1);
    let size: usize = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let entries: Vec<&str> = lines.take(size).collect();
    assert_eq!(entries[0], "0000000000 65535 f\r");
    for (id, entry) in entries.iter().enumerate().skip(1) {
        assert!(entry.ends_with(" 00000 n\r"), "object {id}: {entry:?}");
        let offset: usize = entry[..10].parse().unwrap();
        assert!(
            bytes[offset..].starts_with(format!("{id} 0 obj\n").as_bytes()),
            "object {id}"
        );
    }
    Document::load_mem(bytes).unwrap()
}

fn page_dict(doc: &Document, n: u32) -> &Dictionary {
    doc.get_dictionary(doc.get_pages()[&n]).unwrap()
}

fn media_box(doc: &Document, n: u32) -> Vec<i64> {
    let b = page_dict(doc, n)
        .get(b"MediaBox")
        .unwrap()
        .as_array()
        .unwrap();
    b.iter().map(|n| n.as_i64().unwrap()).collect()
}

/// A padding page: nothing on it but the note saying it is blank (or nothing at all).
fn is_blank(doc: &Document, n: u32) -> bool {
    !page_dict(doc, n).has(b"Contents")
        || text(doc, n).contains("(This page is intentionally blank.)")
}

fn text(doc: &Document, n: u32) -> String {
    String::from_utf8_lossy(&doc.get_page_content(doc.get_pages()[&n]).unwrap()).into_owned()
}

/// Outline as (title, page number).
fn outline(doc: &Document) -> Vec<(String, usize)> {
    doc.get_toc()
        .unwrap()
        .toc
        .into_iter()
        .map(|t| (t.title, t.page))
        .collect()
}

/// A 1-page Letter, a 2-page A4 with inherited attributes and a 3-page ending on a card-sized page.
fn three_inputs(dir: &Path) -> Vec<Input> {
    let one = save(dir, "1976-07-handout.pdf", pdf(&[LETTER], false, |_, _| ()));
    let two = save(dir, "1976-07-gm.pdf", pdf(&[A4, A4], true, |_, _| ()));
    let three = save(
        dir,
        "1976-08-gm.pdf",
        pdf(&[A4, A4, CARD], false, |_, _| ()),
    );
    vec![
        input(&one, "Case 1976-07 handout"),
        input(&two, "Case 1976-07 — GM file"),
        input(&three, "Case 1976-08"),
    ]
}

#[test]
fn pads_every_input_to_start_on_an_odd_page() {
    let dir = tempfile::tempdir().unwrap();
    let (stats, bytes) = run(&three_inputs(dir.path()), true).unwrap();
    assert_eq!(
        stats,
        Stats {
            inputs: 3,
            pages: 8,
            blank_pages: 2
        }
    );
    let doc = check(&bytes);
    assert_eq!(doc.get_pages().len(), 8);
    let blanks: Vec<u32> = (1..=8).filter(|&n| is_blank(&doc, n)).collect();
    assert_eq!(blanks, [2, 8]);
    assert_eq!(media_box(&doc, 2), LETTER);
    assert_eq!(media_box(&doc, 8), CARD);
    assert!(text(&doc, 1).contains("(Page 1)"));
    assert!(text(&doc, 3).contains("(Page 1)") && text(&doc, 4).contains("(Page 2)"));
    assert!(text(&doc, 5).contains("(Page 1)") && text(&doc, 7).contains("(Page 3)"));
    assert_eq!(
        outline(&doc),
        [
            ("Case 1976-07 handout".to_string(), 1),
            ("Case 1976-07 — GM file".to_string(), 3),
            ("Case 1976-08".to_string(), 5)
        ]
    );
    let info = doc
        .trailer
        .get(b"Info")
        .and_then(Object::as_reference)
        .unwrap();
    let info = doc.get_dictionary(info).unwrap();
    assert_eq!(
        info.get(b"Title").unwrap().as_str().unwrap(),
        b"Cases: GM file"
    );
    assert_eq!(
        info.get(b"Producer").unwrap().as_str().unwrap(),
        b"blockprint"
    );
    assert!(!info.has(b"CreationDate") && !info.has(b"ModDate"));
    let catalog = doc.catalog().unwrap();
    assert_eq!(
        catalog.get(b"PageMode").unwrap().as_name().unwrap(),
        b"UseOutlines"
    );
    // The inputs are tagged: so is the output.
    assert!(catalog.has(b"StructTreeRoot") && catalog.has(b"MarkInfo"));
}

#[test]
fn a_padding_page_says_it_is_blank_in_small_grey_type_centred() {
    let dir = tempfile::tempdir().unwrap();
    let one = save(dir.path(), "one.pdf", pdf(&[LETTER], false, |_, _| ()));
    let card = save(dir.path(), "card.pdf", pdf(&[CARD], false, |_, _| ()));
    let tiny = save(
        dir.path(),
        "tiny.pdf",
        pdf(&[[0, 0, 100, 150]], false, |_, _| ()),
    );
    let inputs = [
        input(&one, "one"),
        input(&card, "card"),
        input(&one, "again"),
        input(&tiny, "tiny"),
    ];
    let (stats, bytes) = run(&inputs, true).unwrap();
    assert_eq!(stats.blank_pages, 4);
    let doc = check(&bytes);
    // Helvetica widths sum to 13.895 em: 111.16 pt wide at 8 pt, so x = (612 - 111.16) / 2 on Letter and
    // (300 - 111.16) / 2 on the card; y puts the cap height's middle at the page's middle.
    assert_eq!(
        text(&doc, 2).trim_end(),
        "BT 0.5 g /BpBlank 8.00 Tf 250.42 393.20 Td (This page is intentionally blank.) Tj ET"
    );
    assert_eq!(
        text(&doc, 4).trim_end(),
        "BT 0.5 g /BpBlank 8.00 Tf 94.42 197.20 Td (This page is intentionally blank.) Tj ET"
    );
    assert!(is_blank(&doc, 6));
    // A page narrower than the note at 6 pt (plus 5 mm a side) stays empty.
    assert!(!page_dict(&doc, 8).has(b"Contents"));
    assert_eq!(media_box(&doc, 8), [0, 0, 100, 150]);
    // One font for every note: the standard Helvetica, nothing embedded.
    let font_of = |n: u32| {
        page_dict(&doc, n)
            .get(b"Resources")
            .and_then(Object::as_dict)
            .and_then(|r| r.get(b"Font"))
            .and_then(Object::as_dict)
            .and_then(|f| f.get(b"BpBlank"))
            .and_then(Object::as_reference)
            .unwrap()
    };
    assert_eq!(font_of(2), font_of(4));
    assert_eq!(font_of(2), font_of(6));
    let font = doc.get_dictionary(font_of(2)).unwrap();
    assert_eq!(
        font.get(b"BaseFont").unwrap().as_name().unwrap(),
        b"Helvetica"
    );
    assert!(!font.has(b"FontDescriptor"));
    assert_eq!(
        doc.extract_text(&[2]).unwrap().trim(),
        "This page is intentionally blank."
    );
}

#[test]
fn without_padding_inputs_follow_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let (stats, bytes) = run(&three_inputs(dir.path()), false).unwrap();
    assert_eq!(
        stats,
        Stats {
            inputs: 3,
            pages: 6,
            blank_pages: 0
        }
    );
    let doc = check(&bytes);
    assert_eq!(doc.get_pages().len(), 6);
    assert!((1..=6).all(|n| !is_blank(&doc, n)));
    let pages: Vec<usize> = outline(&doc).into_iter().map(|(_, p)| p).collect();
    assert_eq!(pages, [1, 2, 4]);
}

#[test]
fn copies_only_what_pages_need_and_resolves_inherited_attributes() {
    let dir = tempfile::tempdir().unwrap();
    let (_, bytes) = run(&three_inputs(dir.path()), true).unwrap();
    let doc = check(&bytes);
    let mut keys = Vec::new();
    for n in 1..=8 {
        let page = page_dict(&doc, n);
        assert!(page.has(b"MediaBox") && page.has(b"Resources"), "page {n}");
        if let Ok(k) = page.get(b"StructParents") {
            keys.push(k.as_i64().unwrap());
        }
    }
    // Each input's pages keep their structure keys, moved past the inputs' before them (the blank
    // padding pages have none).
    assert_eq!(keys, [0, 1, 2, 3, 4, 5]);
    assert_eq!(media_box(&doc, 3), A4);
    let font = page_dict(&doc, 3)
        .get_deref(b"Resources", &doc)
        .unwrap()
        .as_dict()
        .unwrap();
    let font = font
        .get_deref(b"Font", &doc)
        .unwrap()
        .as_dict()
        .unwrap()
        .get_deref(b"F1", &doc)
        .unwrap();
    assert_eq!(
        font.as_dict()
            .unwrap()
            .get(b"BaseFont")
            .unwrap()
            .as_name()
            .unwrap(),
        b"Helvetica"
    );
    let types: Vec<&[u8]> = doc
        .objects
        .values()
        .filter_map(|o| o.type_name().ok())
        .collect();
    // One structure tree: a Document element, a Part per input, each input's element.
    assert_eq!(types.iter().filter(|t| **t == b"StructTreeRoot").count(), 1);
    assert_eq!(
        types.iter().filter(|t| **t == b"StructElem").count(),
        1 + 3 + 3
    );
    // One catalog, the page tree (root and one leaf), 8 pages, outline root and 3 items, Info.
    assert_eq!(types.iter().filter(|t| **t == b"Catalog").count(), 1);
    assert_eq!(types.iter().filter(|t| **t == b"Pages").count(), 2);
    assert!(
        !String::from_utf8_lossy(&bytes).contains("(input)"),
        "an input's /Info was copied"
    );
}

#[test]
fn output_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = three_inputs(dir.path());
    let (_, a) = run(&inputs, true).unwrap();
    let (_, b) = run(&inputs, true).unwrap();
    assert!(a == b, "two merges of the same inputs differ");
    let text = String::from_utf8_lossy(&a);
    assert!(text.contains("/ID[<") && !text.contains("D:20"));
}

#[test]
fn links_to_own_pages_are_remapped_and_others_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let links = pdf(&[A4, A4], false, |doc, pages| {
        let dest = doc.add_object(vec![
            Object::Reference(pages[1]),
            "XYZ".into(),
            Object::Null,
            Object::Null,
            0.into(),
        ]);
        let names = dictionary! {"Dests" => dictionary! {"Names" => vec![Object::string_literal("clues"), dest.into()]}};
        let catalog = doc
            .trailer
            .get(b"Root")
            .and_then(Object::as_reference)
            .unwrap();
        doc.get_dictionary_mut(catalog).unwrap().set("Names", names);
        let rect = || vec![0.into(), 0.into(), 10.into(), 10.into()];
        let explicit = dictionary! {"Type" => "Annot", "Subtype" => "Link", "Rect" => rect(),
        "Dest" => vec![Object::Reference(pages[1]), "Fit".into()], "StructParent" => 7};
        let named = dictionary! {"Type" => "Annot", "Subtype" => "Link", "Rect" => rect(), "Dest" => Object::string_literal("clues")};
        let goto = dictionary! {"Type" => "Annot", "Subtype" => "Link", "Rect" => rect(),
        "A" => dictionary! {"S" => "GoTo", "D" => Object::string_literal("clues")}};
        let uri = dictionary! {"Type" => "Annot", "Subtype" => "Link", "Rect" => rect(),
        "A" => dictionary! {"S" => "URI", "URI" => Object::string_literal("https://example.com")}};
        let unknown = dictionary! {"Type" => "Annot", "Subtype" => "Link", "Rect" => rect(), "Dest" => Object::string_literal("nowhere")};
        let annots: Vec<Object> = [explicit, named, goto, uri, unknown]
            .into_iter()
            .map(|a| doc.add_object(a).into())
            .collect();
        doc.get_dictionary_mut(pages[0])
            .unwrap()
            .set("Annots", annots);
    });
    let links = save(dir.path(), "links.pdf", links);
    let first = save(dir.path(), "first.pdf", pdf(&[LETTER], false, |_, _| ()));
    let (_, bytes) = run(&[input(&first, "first"), input(&links, "links")], true).unwrap();
    let doc = check(&bytes);
    let pages = doc.get_pages();
    let annots = page_dict(&doc, 3)
        .get(b"Annots")
        .unwrap()
        .as_array()
        .unwrap();
    assert_eq!(annots.len(), 4, "the link to an unknown name is dropped");
    let annot = |i: usize| {
        doc.get_dictionary(annots[i].as_reference().unwrap())
            .unwrap()
    };
    for i in 0..3 {
        let dest = match annot(i).get(b"A") {
            Ok(a) => a.as_dict().unwrap().get(b"D").unwrap(),
            Err(_) => annot(i).get(b"Dest").unwrap(),
        };
        let dest = doc.dereference(dest).unwrap().1.as_array().unwrap();
        assert_eq!(dest[0].as_reference().unwrap(), pages[&4], "link {i}");
    }
    // The link keeps its place in the (tagged) input's structure.
    assert!(annot(0).has(b"StructParent"));
    let uri = annot(3).get(b"A").unwrap().as_dict().unwrap();
    assert_eq!(
        uri.get(b"URI").unwrap().as_str().unwrap(),
        b"https://example.com"
    );
}

#[test]
fn reads_inputs_with_xref_and_object_streams() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("modern.pdf");
    let mut file = std::fs::File::create(&path).unwrap();
    pdf(&[A4, A4, A4], true, |_, _| ())
        .save_modern(&mut file)
        .unwrap();
    drop(file);
    assert!(
        std::fs::read(&path)
            .unwrap()
            .windows(7)
            .any(|w| w == b"/ObjStm")
    );
    let (stats, bytes) = run(&[input(&path, "modern"), input(&path, "again")], true).unwrap();
    assert_eq!(
        stats,
        Stats {
            inputs: 2,
            pages: 8,
            blank_pages: 2
        }
    );
    let doc = check(&bytes);
    assert!(text(&doc, 7).contains("(Page 3)"));
    assert!(!String::from_utf8_lossy(&bytes).contains("/ObjStm"));
}

#[test]
fn bad_inputs_are_errors_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let good = save(dir.path(), "good.pdf", pdf(&[A4], false, |_, _| ()));
    let garbage = dir.path().join("garbage.pdf");
    std::fs::write(&garbage, b"this is not a PDF at all\n").unwrap();
    let truncated = dir.path().join("truncated.pdf");
    let bytes = std::fs::read(&good).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let empty = dir.path().join("empty.pdf");
    std::fs::write(&empty, b"").unwrap();
    let missing = dir.path().join("missing.pdf");

    let err = run(&[input(&good, "a"), input(&missing, "b")], true).unwrap_err();
    assert!(matches!(err, MergeError::Io { .. }), "{err:?}");
    for (path, name) in [
        (&missing, "missing.pdf"),
        (&garbage, "garbage.pdf"),
        (&truncated, "truncated.pdf"),
        (&empty, "empty.pdf"),
    ] {
        let err = run(
            &[input(&good, "a"), input(path, "b"), input(&good, "c")],
            true,
        )
        .unwrap_err();
        assert!(err.to_string().contains(name), "{err}");
    }
    let err = run(&[input(&truncated, "b")], true).unwrap_err();
    assert!(matches!(err, MergeError::Parse { .. }), "{err:?}");
    let err = run(&[input(&garbage, "b")], true).unwrap_err();
    assert!(matches!(err, MergeError::Parse { .. }), "{err:?}");
    let err = run(&[], true).unwrap_err();
    assert!(matches!(err, MergeError::NoInputs));
    assert!(err.to_string().contains("at least one"));
}

#[test]
fn many_inputs_make_a_balanced_page_tree() {
    let dir = tempfile::tempdir().unwrap();
    let one = save(dir.path(), "one.pdf", pdf(&[LETTER], false, |_, _| ()));
    let inputs: Vec<Input> = (0..100)
        .map(|i| input(&one, &format!("Case {i}")))
        .collect();
    let (stats, bytes) = run(&inputs, true).unwrap();
    assert_eq!(
        stats,
        Stats {
            inputs: 100,
            pages: 200,
            blank_pages: 100
        }
    );
    let doc = check(&bytes);
    assert_eq!(doc.get_pages().len(), 200);
    let root = doc
        .catalog()
        .unwrap()
        .get(b"Pages")
        .and_then(Object::as_reference)
        .unwrap();
    let kids = doc
        .get_dictionary(root)
        .unwrap()
        .get(b"Kids")
        .unwrap()
        .as_array()
        .unwrap();
    assert_eq!(kids.len(), 200usize.div_ceil(LEAF_PAGES));
    let toc = outline(&doc);
    assert_eq!(toc.len(), 100);
    assert!(
        toc.iter()
            .enumerate()
            .all(|(i, (t, p))| *t == format!("Case {i}") && *p == 2 * i + 1)
    );
}

#[test]
fn reads_only_needed_objects_from_classic_files_and_falls_back_otherwise() {
    let typst = include_bytes!("../../../../tests/fixtures/pdf/typst-gm-2pages.pdf");
    let needed = load_needed(typst).unwrap().unwrap();
    let full = Document::load_mem(typst).unwrap();
    assert!(needed.objects.len() < full.objects.len());
    // The structure tree is read (the merge copies it); the outline and metadata are not.
    assert!(
        needed
            .objects
            .values()
            .any(|o| o.type_name().is_ok_and(|t| t == b"StructElem"))
    );
    assert!(needed.objects.values().all(|o| {
        !o.type_name()
            .is_ok_and(|t| t == b"Outlines" || t == b"Metadata")
    }));
    let mut modern = Vec::new();
    pdf(&[A4], false, |_, _| ())
        .save_modern(&mut modern)
        .unwrap();
    assert!(load_needed(&modern).is_none());
    assert!(load_needed(b"%PDF-1.7\ngarbage").is_none());
}

/// Real typst 0.15 output: tagged, named destinations for internal links, CID fonts.
#[test]
fn merges_typst_output() {
    let dir = tempfile::tempdir().unwrap();
    let gm = dir.path().join("gm.pdf");
    std::fs::write(
        &gm,
        include_bytes!("../../../../tests/fixtures/pdf/typst-gm-2pages.pdf"),
    )
    .unwrap();
    let handout = dir.path().join("handout.pdf");
    std::fs::write(
        &handout,
        include_bytes!("../../../../tests/fixtures/pdf/typst-handout-1page.pdf"),
    )
    .unwrap();
    let inputs = [
        input(&gm, "Case 1976-07 — GM file"),
        input(&handout, "Handout"),
        input(&gm, "Case 1976-08"),
    ];
    let (stats, bytes) = run(&inputs, true).unwrap();
    assert_eq!(
        stats,
        Stats {
            inputs: 3,
            pages: 6,
            blank_pages: 1
        }
    );
    let doc = check(&bytes);
    let pages = doc.get_pages();
    assert!(is_blank(&doc, 4) && (1..=6).filter(|&n| n != 4).all(|n| !is_blank(&doc, n)));
    assert_eq!(
        doc.extract_text(&[1])
            .unwrap()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>(),
        ["Case", "1976-07", "—"]
    );
    let pages_of_links = |n: u32| -> Vec<ObjectId> {
        let Ok(annots) = page_dict(&doc, n).get(b"Annots") else {
            return vec![];
        };
        annots
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|a| {
                doc.get_dictionary(a.as_reference().unwrap())
                    .unwrap()
                    .get(b"Dest")
                    .ok()
            })
            .map(|d| d.as_array().unwrap()[0].as_reference().unwrap())
            .collect()
    };
    // typst's internal links are named destinations: each now points at the copy in its own input.
    assert_eq!(pages_of_links(1), [pages[&2]]);
    assert_eq!(pages_of_links(2), [pages[&1]]);
    assert_eq!(pages_of_links(5), [pages[&6]]);
    assert_eq!(pages_of_links(6), [pages[&5]]);
    let text = String::from_utf8_lossy(&bytes);
    for gone in ["/Metadata", "/Names", "Typst"] {
        assert!(!text.contains(gone), "{gone} was copied");
    }
    assert_eq!(
        outline(&doc)
            .into_iter()
            .map(|(_, p)| p)
            .collect::<Vec<_>>(),
        [1, 3, 5]
    );
}
