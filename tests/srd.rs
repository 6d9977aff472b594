//! `blockprint srd`: the booklet's Markdown parses as CommonMark with every link resolving to an existing
//! file and anchor, tables carry their exact odds, and the PDF has its bookmarks, metadata, page count and
//! the text of a table with its odds.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use pulldown_cmark::{Event, Options, Parser, Tag};

/// Run blockprint and insist it succeeds.
fn run_ok(args: &[&str]) {
    let o = Command::new(env!("CARGO_BIN_EXE_blockprint"))
        .args(args)
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn srd(out: &Path, format: &str) {
    run_ok(&["srd", "--out", out.to_str().unwrap(), "--format", format]);
}

/// Anchors (`<a id="…">`) and link targets of a Markdown text, through pulldown-cmark.
fn scan(md: &str) -> (BTreeSet<String>, Vec<String>, usize, usize) {
    let mut anchors = BTreeSet::new();
    let mut links = Vec::new();
    let (mut headings, mut tables) = (0, 0);
    for ev in Parser::new_ext(md, Options::ENABLE_TABLES) {
        match ev {
            Event::Html(h) | Event::InlineHtml(h) => {
                if let Some(rest) = h.trim().strip_prefix("<a id=\"") {
                    anchors.insert(rest.split('"').next().unwrap().to_owned());
                }
            }
            Event::Start(Tag::Link { dest_url, .. }) => links.push(dest_url.to_string()),
            Event::Start(Tag::Heading { .. }) => headings += 1,
            Event::Start(Tag::Table(_)) => tables += 1,
            _ => {}
        }
    }
    (anchors, links, headings, tables)
}

#[test]
fn markdown_links_resolve_and_tables_have_odds() {
    let dir = tempfile::tempdir().unwrap();
    srd(dir.path(), "md");
    let single = std::fs::read_to_string(dir.path().join("srd/block-by-block-srd.md")).unwrap();
    let (anchors, links, headings, tables) = scan(&single);
    assert!(headings >= 60, "{headings} headings");
    assert!(tables >= 50, "{tables} tables");
    for l in &links {
        let a = l
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("single-file link leaves the file: {l}"));
        assert!(anchors.contains(a), "single file: no anchor `{a}`");
    }
    assert!(
        single.contains("| 6-7 | Low-income area | 30.56% (11/36) |"),
        "district row with exact odds"
    );
    assert!(
        single.contains(
            "| 1-57 | Gunshot (roll on [Gunshot: type of firearm](#bbb-homicide-gunshot)) |"
        ),
        "sub-table link"
    );

    let book = dir.path().join("srd/book");
    let files: BTreeMap<String, String> = std::fs::read_dir(&book)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    let index: BTreeMap<&str, BTreeSet<String>> =
        files.iter().map(|(n, t)| (n.as_str(), scan(t).0)).collect();
    let mut checked = 0;
    for (name, text) in &files {
        for l in scan(text).1 {
            let (file, anchor) = match l.split_once('#') {
                Some((f, a)) => (if f.is_empty() { name.as_str() } else { f }, Some(a)),
                None => (l.as_str(), None),
            };
            let Some(targets) = index.get(file) else {
                panic!("{name}: link to missing file {l}")
            };
            if let Some(a) = anchor {
                assert!(
                    targets.contains(a),
                    "{name}: `{l}` has no anchor `{a}` in {file}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} links checked");
    // SUMMARY.md lists every chapter and appendix file for mdBook.
    let summary = &files["SUMMARY.md"];
    for name in files.keys().filter(|n| *n != "SUMMARY.md") {
        assert!(
            summary.contains(&format!("({name})")),
            "SUMMARY.md lacks {name}"
        );
    }
}

#[test]
fn markdown_reruns_are_identical() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    srd(a.path(), "md");
    srd(b.path(), "md");
    let read = |d: &Path| std::fs::read(d.join("srd/block-by-block-srd.md")).unwrap();
    assert_eq!(read(a.path()), read(b.path()));
}

#[test]
fn the_pdf_has_bookmarks_metadata_and_tables_with_odds() {
    let dir = tempfile::tempdir().unwrap();
    srd(dir.path(), "pdf");
    let path = dir.path().join("srd/block-by-block-srd.pdf");
    let bytes = std::fs::read(&path).unwrap();
    let doc = lopdf::Document::load_mem(&bytes).expect("a PDF lopdf reads");

    let pages = doc.get_pages().len();
    assert!((30..=120).contains(&pages), "{pages} pages");

    let toc = doc.get_toc().expect("bookmarks");
    let titles: Vec<&str> = toc.toc.iter().map(|t| t.title.as_str()).collect();
    for want in [
        "1 What the game is",
        "2 Dice",
        "3 Characters",
        "5 New cases",
        "7 Breaks",
        "8 Closing a case",
        "11 Action scenes",
        "13 For the GM",
        "Breaks through action",
        "Appendix A: All tables",
        "Appendix B: Editorial fills",
        "Appendix C: House rulings",
        "Appendix D: Credits and licences",
    ] {
        assert!(titles.contains(&want), "no bookmark `{want}` in {titles:?}");
    }
    // Bookmarks point into the book in reading order.
    let chapter_pages: Vec<usize> = toc
        .toc
        .iter()
        .filter(|t| t.level == 1)
        .map(|t| t.page)
        .collect();
    assert!(
        chapter_pages.windows(2).all(|w| w[0] <= w[1]),
        "{chapter_pages:?}"
    );

    // Metadata: title, author, language.
    let info = doc
        .trailer
        .get(b"Info")
        .and_then(|o| o.as_reference())
        .and_then(|r| doc.get_dictionary(r))
        .expect("Info");
    let text_of = |key: &[u8]| {
        info.get(key)
            .ok()
            .and_then(|v| lopdf::decode_text_string(v).ok())
            .unwrap_or_default()
    };
    assert!(
        text_of(b"Title").starts_with("Block by Block"),
        "{}",
        text_of(b"Title")
    );
    assert_eq!(text_of(b"Author"), "Thomas McGrenery");
    let catalog = doc.catalog().unwrap();
    let lang = catalog
        .get(b"Lang")
        .ok()
        .and_then(|v| lopdf::decode_text_string(v).ok())
        .unwrap_or_default();
    assert!(lang.starts_with("en"), "{lang}");

    // The District table with its exact odds as text.
    let text = pdf_extract::extract_text_from_mem(&bytes).unwrap();
    assert!(text.contains("Low-income area"));
    assert!(
        text.contains("11/36"),
        "exact fraction printed beside the row"
    );
    assert!(text.contains("30.6%"), "percentage printed beside the row");
    assert!(text.contains("Appendix B"));
}

#[test]
fn hostile_text_in_content_prints_literally_in_the_booklet() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    run_ok(&["init", content.to_str().unwrap()]);
    let evil = r#"#read(\"/etc/passwd\") *x* $y$ <z> @w"#;
    let literal = r#"#read("/etc/passwd") *x* $y$ <z> @w"#;
    let file = content.join("bbb/01-homicide.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replace(
            r#"result = "Industrial area""#,
            &format!(r#"result = "{evil}""#),
        ),
    )
    .unwrap();
    let chapter = content.join("bbb/srd/dice.md");
    let prose = std::fs::read_to_string(&chapter).unwrap();
    // In prose: Markdown escapes keep `*` and `<` literal; typst must read none of it as code or math.
    let prose_literal = "Try #panic(1) and #read(/etc/hosts) with $y$ @w *x* <z>";
    std::fs::write(
        &chapter,
        format!("{prose}\nTry #panic(1) and #read(/etc/hosts) with $y$ @w \\*x\\* \\<z\\>\n"),
    )
    .unwrap();
    let out = dir.path().join("out");
    run_ok(&[
        "srd",
        "--content",
        content.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--format",
        "pdf,md",
    ]);
    let pdf = std::fs::read(out.join("srd/block-by-block-srd.pdf")).unwrap();
    let text = pdf_extract::extract_text_from_mem(&pdf).unwrap();
    assert!(
        text.matches(literal).count() >= 2,
        "the row prints as written where placed and in Appendix A"
    );
    assert!(text.contains(prose_literal), "prose prints as written");
    assert!(!text.contains("root:x:0"));
    let md = std::fs::read_to_string(out.join("srd/block-by-block-srd.md")).unwrap();
    assert!(
        md.contains(r#"\#read("/etc/passwd") \*x\* $y$ \<z\> @w"#),
        "escaped in the Markdown table"
    );
}
