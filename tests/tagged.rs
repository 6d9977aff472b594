//! Every PDF blockprint writes is tagged (a structure tree a screen reader follows), says its language and
//! has a title: on both papers, the case packets' GM files and handouts, the merged files and the NPC card
//! sheets included (they are typeset in parts and merged, and lost their tags before).

use std::path::{Path, PathBuf};

use lopdf::{Document, Object};

use crate::support::{blockprint, stderr};

fn pdfs(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            pdfs(&p, out);
        } else if p.extension().is_some_and(|x| x == "pdf") {
            out.push(p);
        }
    }
}

/// A PDF text string as text (UTF-16BE with its BOM, or PDFDocEncoding read as Latin-1).
fn text(o: &Object) -> String {
    match o {
        Object::String(b, _) if b.starts_with(&[0xfe, 0xff]) => String::from_utf16_lossy(
            &b[2..]
                .chunks(2)
                .map(|c| u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]))
                .collect::<Vec<_>>(),
        ),
        Object::String(b, _) => b.iter().map(|&c| char::from(c)).collect(),
        _ => String::new(),
    }
}

/// What is missing from one PDF: a structure tree whose parent tree holds every page's key, `/Lang`, a
/// title. Empty when nothing is.
fn missing(path: &Path) -> Vec<String> {
    let doc = Document::load(path).unwrap();
    let mut out = Vec::new();
    let catalog = doc.catalog().unwrap();
    let tree = catalog
        .get(b"StructTreeRoot")
        .and_then(|r| doc.dereference(r))
        .ok()
        .and_then(|(_, t)| t.as_dict().ok());
    match tree {
        None => out.push("no StructTreeRoot".to_owned()),
        Some(tree) => {
            if !tree.has(b"K") {
                out.push("a structure tree with no elements".into());
            }
            let marked = catalog
                .get_deref(b"MarkInfo", &doc)
                .and_then(Object::as_dict)
                .and_then(|m| m.get(b"Marked"))
                .and_then(Object::as_bool);
            if !marked.unwrap_or(false) {
                out.push("not /Marked".into());
            }
            // Every page's /StructParents key is in the parent tree.
            let mut keys = std::collections::BTreeSet::new();
            let mut nodes = vec![tree.get(b"ParentTree").unwrap().clone()];
            while let Some(node) = nodes.pop() {
                let (_, node) = doc.dereference(&node).unwrap();
                let node = node.as_dict().unwrap();
                if let Ok(nums) = node.get_deref(b"Nums", &doc).and_then(Object::as_array) {
                    keys.extend(nums.iter().step_by(2).filter_map(|k| k.as_i64().ok()));
                }
                if let Ok(kids) = node.get_deref(b"Kids", &doc).and_then(Object::as_array) {
                    nodes.extend(kids.iter().cloned());
                }
            }
            for (n, id) in doc.get_pages() {
                let page = doc.get_dictionary(id).unwrap();
                if let Ok(k) = page.get(b"StructParents").and_then(Object::as_i64)
                    && !keys.contains(&k)
                {
                    out.push(format!(
                        "page {n}'s structure key {k} is not in the parent tree"
                    ));
                }
            }
        }
    }
    let lang = catalog
        .get_deref(b"Lang", &doc)
        .map(text)
        .unwrap_or_default();
    if lang.is_empty() {
        out.push("no /Lang".into());
    }
    let title = doc
        .trailer
        .get_deref(b"Info", &doc)
        .and_then(Object::as_dict)
        .and_then(|i| i.get_deref(b"Title", &doc))
        .map(text)
        .unwrap_or_default();
    if title.trim().is_empty() {
        out.push("no title".into());
    }
    out
}

#[test]
fn every_pdf_of_a_build_is_tagged_with_its_language_and_title_on_both_papers() {
    for paper in ["a4", "letter"] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let o = blockprint(&[
            "build",
            "--seed",
            "7",
            "--paper",
            paper,
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let mut files = Vec::new();
        pdfs(&out, &mut files);
        files.sort();
        // The case packets' GM files and handouts, the merged files and the NPC card sheets are there.
        for name in ["gm.pdf", "handouts.pdf", "cards.pdf", "stock-1-cards.pdf"] {
            assert!(
                files.iter().any(|f| f.file_name().unwrap() == name),
                "{paper}: no {name}"
            );
        }
        assert!(files.len() >= 50, "{paper}: {} PDFs", files.len());
        let faults: Vec<String> = files
            .iter()
            .flat_map(|f| {
                let rel = f.strip_prefix(&out).unwrap().display().to_string();
                missing(f).into_iter().map(move |m| format!("{rel}: {m}"))
            })
            .collect();
        assert!(faults.is_empty(), "{paper}:\n{}", faults.join("\n"));
        // PDF/UA-1 (README, "Accessibility"): every document typst typesets whole declares it; the merged
        // files and the fillable copies are tagged but not UA-1, and must not claim it.
        let mut wrong = Vec::new();
        for f in &files {
            let rel = f.strip_prefix(&out).unwrap().display().to_string();
            let name = f.file_name().unwrap().to_str().unwrap();
            let merged = ["cases/gm.pdf", "cases/handouts.pdf", "stock-npcs/cards.pdf"]
                .contains(&rel.as_str());
            let expected = !merged && !name.ends_with("-fillable.pdf");
            if claims_ua(f) != expected {
                wrong.push(format!(
                    "{rel}: {}",
                    if expected {
                        "not PDF/UA-1 (typst refused it: see Engine's export)"
                    } else {
                        "claims PDF/UA-1, which it is not"
                    }
                ));
            }
        }
        assert!(wrong.is_empty(), "{paper}:\n{}", wrong.join("\n"));
    }
}

/// Whether a PDF's XMP metadata declares PDF/UA-1 (`pdfuaid:part` 1).
fn claims_ua(path: &Path) -> bool {
    let doc = Document::load(path).unwrap();
    let Ok(stream) = doc
        .catalog()
        .unwrap()
        .get_deref(b"Metadata", &doc)
        .and_then(Object::as_stream)
    else {
        return false;
    };
    let xmp = stream
        .decompressed_content()
        .unwrap_or_else(|_| stream.content.clone());
    let xmp = String::from_utf8_lossy(&xmp);
    xmp.contains("<pdfuaid:part>1</pdfuaid:part>") || xmp.contains("pdfuaid:part=\"1\"")
}

/// A PDF's `/Lang`.
fn lang(path: &Path) -> String {
    let doc = Document::load(path).unwrap();
    doc.catalog()
        .unwrap()
        .get_deref(b"Lang", &doc)
        .map(text)
        .unwrap_or_default()
}

#[test]
fn every_pdf_takes_its_language_from_the_content() {
    // Issue 40: the templates said "en" whatever the content. The book's `language` (content/README.md,
    // "Language") is every document's text language and every PDF's /Lang; check refuses one typst
    // cannot set.
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    let o = blockprint(&["init", "-q", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let book = content.join("bbb/srd/book.toml");
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(text.contains("language = \"en\""));
    std::fs::write(
        &book,
        text.replace("language = \"en\"", "language = \"de\""),
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = blockprint(&[
        "build",
        "--content",
        content.to_str().unwrap(),
        "--seed",
        "7",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut files = Vec::new();
    pdfs(&out, &mut files);
    files.sort();
    assert!(files.len() >= 50, "{} PDFs", files.len());
    let wrong: Vec<String> = files
        .iter()
        .map(|f| (f.strip_prefix(&out).unwrap().display().to_string(), lang(f)))
        .filter(|(_, l)| l != "de")
        .map(|(f, l)| format!("{f}: /Lang {l:?}"))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));

    // A language typst cannot set is refused at its place.
    std::fs::write(
        &book,
        text.replace("language = \"en\"", "language = \"de-AT\""),
    )
    .unwrap();
    let o = blockprint(&["check", "--content", content.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(
        report.contains("error[bad_value]: book `bbb.srd` has the language `de-AT`, which is no ISO 639 language code"),
        "{report}"
    );
    assert!(report.contains("┌─ bbb/srd/book.toml:"), "{report}");
}
