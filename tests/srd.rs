//! `blockprint srd`: the booklet's Markdown parses as CommonMark with every link resolving to an existing
//! file and anchor, tables carry their exact odds, and the PDF has its bookmarks, metadata, page count and
//! the text of a table with its odds.
//!
//! Beside them, in files of their own: the booklet's mdBook folder built with mdBook itself
//! ([`mdbook`]), its page fill and table breaks ([`pages`]), and the PDF on every paper ([`pdf`]).

mod mdbook;
mod pages;
mod pdf;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use blockprint::content::prose::{self, Block, Inline};
use pulldown_cmark::{Event, Options, Parser, Tag};

/// Run blockprint and insist it succeeds.
fn run_ok(args: &[&str]) {
    crate::support::ok(&crate::support::blockprint(args));
}

fn srd(out: &Path, format: &str) {
    run_ok(&["srd", "--out", out.to_str().unwrap(), "--format", format]);
}

/// Anchors (`<a id="…">` and mdBook's heading ids `{#…}`) and link targets of a Markdown text, through
/// pulldown-cmark.
fn scan(md: &str) -> (BTreeSet<String>, Vec<String>, usize, usize) {
    let mut anchors = BTreeSet::new();
    let mut links = Vec::new();
    let (mut headings, mut tables) = (0, 0);
    for ev in Parser::new_ext(
        md,
        Options::ENABLE_TABLES | Options::ENABLE_HEADING_ATTRIBUTES,
    ) {
        match ev {
            Event::Html(h) | Event::InlineHtml(h) => {
                if let Some(rest) = h.trim().strip_prefix("<a id=\"") {
                    anchors.insert(rest.split('"').next().unwrap().to_owned());
                }
            }
            Event::Start(Tag::Link { dest_url, .. }) => links.push(dest_url.to_string()),
            Event::Start(Tag::Heading { id, .. }) => {
                headings += 1;
                if let Some(id) = id {
                    anchors.insert(id.to_string());
                }
            }
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
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "md")
        })
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
        format!(
            "{prose}\nTry #panic(1) and #read(/etc/hosts) with $y$ @w \\*x\\* \\<z\\>\n\n1976\\. was a year | a pipe\n\n\\- not a list, [x](https://example.com/a_b) \\[z](w) &amp;\n"
        ),
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
    // Without the invisible break opportunities the booklet puts in runs of 20 or more characters.
    let text = pdf_extract::extract_text_from_mem(&pdf)
        .unwrap()
        .replace('\u{200B}', "");
    // As written, but for the straight quotes every content text gets curly. The table cell's run of 20
    // characters carries an invisible break opportunity, around which pdf-extract (reading typst's
    // widths as zero) guesses spaces, so this one comparison ignores whitespace; tests/hostile.rs reads
    // the same text exactly from the glyphs.
    let literal = literal.replace("(\"", "(“").replace("\")", "”)");
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    assert!(
        squeeze(&text).matches(&squeeze(&literal)).count() >= 2,
        "the row prints as written where placed and in Appendix A"
    );
    assert!(text.contains(prose_literal), "prose prints as written");
    assert!(!text.contains("root:x:0"));
    let md = std::fs::read_to_string(out.join("srd/block-by-block-srd.md")).unwrap();
    assert!(
        md.contains(r#"\#read(“/etc/passwd”) \*x\* $y$ \<z\> @w"#),
        "escaped in the Markdown table"
    );
    // Prose comes from the parsed tree and is escaped the same way; nothing turns into a list or a table.
    assert!(
        md.contains(r#"Try \#panic(1) and \#read(/etc/hosts) with $y$ @w \*x\* \<z\>"#),
        "escaped in prose"
    );
    assert!(
        md.contains("1976\\. was a year \\| a pipe\n"),
        "no list, no table"
    );
    assert!(
        md.contains(r#"\- not a list, [x](https://example.com/a_b) \[z\](w) \&"#),
        "no list; the URL stays a link, the escaped brackets stay text"
    );
}

/// Every Markdown file of the SRD (`block-by-block-srd.md` and `book/*.md`): (path under `srd/`, text).
fn markdown_files(out: &Path) -> BTreeMap<String, String> {
    let srd = out.join("srd");
    let mut files = BTreeMap::new();
    for dir in [srd.clone(), srd.join("book")] {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "md") {
                files.insert(
                    p.strip_prefix(&srd)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                    std::fs::read_to_string(&p).unwrap(),
                );
            }
        }
    }
    files
}

/// Directive text as written in chapters, whole or cut short: `{table:`, `{npcs}`, and the stumps a
/// misplaced rewrite leaves (`{t[`, `{l[`, `{d[`): `{` then lowercase letters then `:`, `[` or `}`.
fn directive_stumps(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, _) in text.match_indices('{') {
        let rest = &text[i + 1..];
        let word = rest.chars().take_while(char::is_ascii_lowercase).count();
        if word > 0 && rest[word..].starts_with([':', '[', '}']) {
            let line = text[..i].matches('\n').count() + 1;
            found.push(format!(
                "line {line}: {}",
                text[i..].chars().take(30).collect::<String>()
            ));
        }
    }
    found
}

#[test]
fn no_directive_text_survives_in_any_markdown() {
    assert_eq!(
        directive_stumps("a {t[Victim gender](x) {lookup:y} {npcs} {1d6} {3d6} days"),
        [
            "line 1: {t[Victim gender](x) {lookup:y",
            "line 1: {lookup:y} {npcs} {1d6} {3d6} ",
            "line 1: {npcs} {1d6} {3d6} days"
        ]
    );
    let dir = tempfile::tempdir().unwrap();
    srd(dir.path(), "md");
    let files = markdown_files(dir.path());
    assert!(files.len() >= 20, "{:?}", files.keys());
    for (name, text) in &files {
        assert_eq!(directive_stumps(text), Vec::<String>::new(), "{name}");
    }
    // The two mentions a byte-offset rewrite cut short after curly apostrophes (“class’s”, “victim’s”).
    assert!(
        files["book/npcs.md"].contains(
            "(the dice are in the [Hit die by class](characters.md#bbb-class-hit-die) lookup)."
        ),
        "{}",
        files["book/npcs.md"]
    );
    assert!(
        files["book/gm.md"]
            .contains("on the [Victim gender](new-cases.md#bbb-homicide-victim-gender) and"),
        "{}",
        files["book/gm.md"]
    );
    assert!(
        files["block-by-block-srd.md"]
            .contains("(the dice are in the [Hit die by class](#bbb-class-hit-die) lookup).")
    );
}

/// The Markdown editions are a reader's: Appendix D's colophon names the edition and the program that set
/// it, as the PDF's does, and no file prints the content's fingerprint (the manifest keeps it).
#[test]
fn no_markdown_file_prints_the_content_fingerprint() {
    let dir = tempfile::tempdir().unwrap();
    srd(dir.path(), "md");
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("srd/manifest.json")).unwrap())
            .unwrap();
    let version = manifest["content_version"].as_str().unwrap();
    assert_eq!(version.len(), 12, "{manifest}");
    let files = markdown_files(dir.path());
    for (name, text) in &files {
        assert!(
            !text.contains(version),
            "{name} prints the content version {version}"
        );
    }
    let credits = &files["book/credits.md"];
    assert!(
        credits.trim_end().ends_with(&format!(
            "Typeset by blockprint {}.",
            env!("CARGO_PKG_VERSION")
        )),
        "{credits}"
    );
}

/// `content/bbb/srd/<slug>.md` without its `+++` front matter.
fn chapter_source(slug: &str) -> String {
    body_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("content/bbb/srd/{slug}.md")))
}

/// A chapter file without its `+++` front matter.
fn body_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let body = text
        .strip_prefix("+++")
        .and_then(|t| t.split_once("\n+++"))
        .map_or(text.as_str(), |(_, body)| body);
    body.to_owned()
}

/// A book chapter without mdBook's heading ids (`## Title {#anchor}` → `## Title`), which the content's
/// own parser does not read, and the ids taken off, in order.
fn without_heading_ids(md: &str) -> (String, Vec<String>) {
    let mut ids = Vec::new();
    let lines: Vec<String> = md
        .lines()
        .map(|l| {
            if l.starts_with('#')
                && let Some((head, id)) = l.strip_suffix('}').and_then(|l| l.rsplit_once(" {#"))
            {
                ids.push(id.to_owned());
                return head.to_owned();
            }
            l.to_owned()
        })
        .collect();
    (lines.join("\n") + "\n", ids)
}

/// Headings (level, anchor, text) and the paragraphs that hold no directive or chapter link, in order,
/// at any depth (lists, quotes).
fn prose_of(blocks: &[Block], headings: &mut Vec<(u8, String, String)>, paras: &mut Vec<Block>) {
    for b in blocks {
        match b {
            Block::Heading {
                level,
                anchor,
                content,
            } => headings.push((*level, anchor.clone(), prose::plain(content))),
            Block::Para { content }
                if !content.iter().any(|i| {
                    matches!(i, Inline::Ref { .. } | Inline::Link { .. })
                        || matches!(i, Inline::Strong { content } | Inline::Emph { content }
                            if content.iter().any(|j| matches!(j, Inline::Ref { .. } | Inline::Link { .. })))
                }) =>
            {
                paras.push(b.clone())
            }
            Block::List { items, .. } => {
                for it in items {
                    prose_of(it, headings, paras);
                }
            }
            Block::Quote { blocks } => prose_of(blocks, headings, paras),
            _ => {}
        }
    }
}

#[test]
fn chapter_markdown_parses_back_to_the_same_prose() {
    let dir = tempfile::tempdir().unwrap();
    srd(dir.path(), "md");
    let files = markdown_files(dir.path());
    let book = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("content/bbb/srd/book.toml"),
    )
    .unwrap();
    let slugs: Vec<&str> = book
        .split_once("chapters = [")
        .unwrap()
        .1
        .split(']')
        .next()
        .unwrap()
        .split('"')
        .skip(1)
        .step_by(2)
        .collect();
    assert_eq!(slugs.len(), 16);
    let (mut all_paras, mut all_headings) = (0, 0);
    for slug in slugs {
        let src = prose::parse(&chapter_source(slug), slug);
        let (md, ids) = without_heading_ids(&files[&format!("book/{slug}.md")]);
        let out = prose::parse(&md, slug);
        let (mut h_src, mut p_src, mut h_out, mut p_out) = (vec![], vec![], vec![], vec![]);
        prose_of(&src.blocks, &mut h_src, &mut p_src);
        prose_of(&out.blocks, &mut h_out, &mut p_out);
        // The rendered chapter starts with its title as `#`; every other heading is the source's.
        assert_eq!(h_out[0].0, 1, "{slug}");
        assert_eq!(&h_out[1..], &h_src[..], "{slug}: headings");
        // Every section heading names its id for mdBook, and it is the anchor the PDF and links use.
        let anchors: Vec<&String> = h_src.iter().map(|h| &h.1).collect();
        assert_eq!(
            ids.iter().collect::<Vec<_>>(),
            anchors,
            "{slug}: heading ids"
        );
        // Each prose paragraph comes back identical, escapes, smart punctuation and emphasis included.
        let mut rest = p_out.iter();
        for p in &p_src {
            assert!(
                rest.any(|q| q == p),
                "{slug}: paragraph missing or changed in the Markdown: {p:?}"
            );
        }
        all_paras += p_src.len();
        all_headings += h_src.len();
    }
    assert!(all_paras > 150, "{all_paras} paragraphs compared");
    assert!(all_headings > 60, "{all_headings} headings compared");
}

#[test]
fn markdown_matches_golden() {
    let dir = tempfile::tempdir().unwrap();
    srd(dir.path(), "md");
    let files = markdown_files(dir.path());
    // Laid out like an output folder: tests/golden/srd/block-by-block-srd.md and tests/golden/srd/book/.
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/srd");
    assert_eq!(crate::support::golden_tree(&golden, &files), files.len());
}

#[test]
fn every_block_kind_round_trips_through_the_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    run_ok(&["init", content.to_str().unwrap()]);
    let chapter = content.join("bbb/srd/dice.md");
    let prose = std::fs::read_to_string(&chapter).unwrap();
    let extra = r#"
## Round trip

A *soft* **strong** ***both*** line with `code`, ``a `tick` inside`` and a hard\
break, a [link](https://example.com/x_(y)) and [a chapter](characters.md#attributes), a \*star\*.

### A *styled* heading -- with "quotes"

> A quote with *emphasis*.
>
> - and a list
> - of two

1. First, with a nested list:
   - inner one
   - inner two
2. Second

   with a second paragraph.

---

```text
fenced `code` with | pipes
```

| Left | Right |
|---|---|
| a \| b | `c` |

Trailing paragraph -- with "quotes" and 'single' ones... done.
"#;
    std::fs::write(&chapter, format!("{prose}{extra}")).unwrap();
    let out = dir.path().join("out");
    run_ok(&[
        "srd",
        "--content",
        content.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--format",
        "md",
    ]);
    let src = prose::parse(&body_of(&chapter), "dice").blocks;
    let md = std::fs::read_to_string(out.join("srd/book/dice.md")).unwrap();
    let got = prose::parse(&without_heading_ids(&md).0, "dice").blocks;
    // From the section's heading on; the `<a id="…"></a>` lines before headings parse as empty paragraphs.
    let from = |blocks: &[Block]| {
        let i = blocks
            .iter()
            .position(|b| matches!(b, Block::Heading { anchor, .. } if anchor == "round-trip"))
            .expect("the round-trip section");
        blocks[i..]
            .iter()
            .filter(|b| !matches!(b, Block::Para { content } if content.is_empty()))
            .cloned()
            .collect::<Vec<_>>()
    };
    let (want, got) = (from(&src), from(&got));
    let kinds = |bs: &[Block]| {
        bs.iter()
            .map(|b| {
                serde_json::to_value(b).unwrap()["kind"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        kinds(&want),
        [
            "heading", "para", "heading", "quote", "list", "rule", "code", "grid", "para"
        ]
    );
    assert_eq!(got, want, "{md}");
}

/// The index lists every term of `index = [...]` the chapters use, with its pages: a term is matched as
/// written (regex characters and `<` are text, not a pattern), a plural counts, a term no chapter uses is
/// left out; the Markdown editions have no index.
#[test]
fn the_index_lists_the_books_terms_with_their_pages_and_reads_terms_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    run_ok(&["init", content.to_str().unwrap()]);
    let book = content.join("bbb/srd/book.toml");
    let toml = std::fs::read_to_string(&book).unwrap();
    std::fs::write(
        &book,
        toml.replacen(
            "index = [\n",
            "index = [\n  \"a(b\", \"[x]*\", \"\\\\d+\", \"kerb crossing\", \"never used\",\n",
            1,
        ),
    )
    .unwrap();
    let chapter = content.join("bbb/srd/dice.md");
    let prose = std::fs::read_to_string(&chapter).unwrap();
    std::fs::write(
        &chapter,
        prose.replacen(
            "## Dice notation\n",
            "## Dice notation\n\nThe a(b rule, the [x]* rule, the \\\\d+ rule, two kerb crossings, and 1234 beside \\\\d.\n",
            1,
        ),
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
        "--check-pages",
    ]);
    let pdf = std::fs::read(out.join("srd/block-by-block-srd.pdf")).unwrap();
    // pdf-extract guesses spaces from typst's glyph widths: pages are compared without whitespace.
    let squeeze = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace() && *c != '\u{200B}')
            .collect()
    };
    let by_page: Vec<String> = pdf_extract::extract_text_from_mem_by_pages(&pdf)
        .unwrap()
        .iter()
        .map(String::as_str)
        .map(squeeze)
        .collect();
    let dice_page = 1 + by_page
        .iter()
        .position(|t| t.contains("Thea(brule"))
        .expect("the planted line prints");
    // The index is the book's last section on A4: its text from its title on.
    let all = by_page.concat();
    let index = &all[all.rfind("BackmatterIndex").expect("an index")..];
    for term in ["a(b", "[x]*", "\\d+", "kerbcrossing"] {
        // the term, then its one page, then the next entry (a letter, or the next initial)
        let entry = format!("{term}{dice_page}");
        let at = index
            .find(&entry)
            .unwrap_or_else(|| panic!("{entry} missing from the index: {index}"));
        let next = index[at + entry.len()..].chars().next();
        assert!(
            next.is_none_or(|c| !c.is_ascii_digit() && c != ',' && c != '–'),
            "{term}: one page, {dice_page}: {}",
            &index[at..(at + entry.len() + 12).min(index.len())]
        );
    }
    assert!(!index.contains("neverused"), "{index}");
    let md = std::fs::read_to_string(out.join("srd/block-by-block-srd.md")).unwrap();
    assert!(!md.contains("kerb crossing "), "the Markdown has no index");
}

/// Content copied out with `init`, for a test that edits it.
fn own_content(dir: &Path) -> std::path::PathBuf {
    let content = dir.join("content");
    run_ok(&["init", content.to_str().unwrap()]);
    content
}

#[test]
fn a_deck_below_that_floats_above_its_words_is_a_page_fault() {
    // Issue 40: "the deck below" sat under the deck it named (the deck floats to the top of a page). The
    // SRD marks a paragraph that names a table or deck by place (`<bp-ref>`) and the placement it means
    // (`<bp-target>`); the page checker compares where both landed. The built-in chapters pass on every
    // paper (pages::every_page_of_the_srd_…); the same words planted before the city deck are caught.
    let dir = tempfile::tempdir().unwrap();
    let content = own_content(dir.path());
    let action = content.join("bbb/srd/action.md");
    let text = std::fs::read_to_string(&action).unwrap();
    let planted = text.replace(
        "The {deck:bbb.chase.city_streets} deck suggests an obstacle",
        "The deck below suggests an obstacle",
    );
    assert_ne!(planted, text, "the chapter's words moved");
    std::fs::write(&action, planted).unwrap();
    let out = dir.path().join("out");
    let o = crate::support::blockprint(&[
        "srd",
        "--content",
        content.to_str().unwrap(),
        "--paper",
        "a4",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--check-pages",
    ]);
    let err = crate::support::stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let faults: Vec<&str> = err.lines().filter(|l| l.contains(" reader: ")).collect();
    assert_eq!(faults.len(), 1, "{err}");
    assert!(
        faults[0].starts_with("srd: block-by-block-srd.pdf p. 18 ")
            && faults[0].contains(
                "reader: “below” points up: what it names is printed before it, on p. 18"
            ),
        "{err}"
    );
}

#[test]
fn an_index_term_that_no_chapter_uses_is_warned_with_its_fix() {
    // Issue 40: a term of `index = [...]` that matched nothing was left out of the index silently.
    let dir = tempfile::tempdir().unwrap();
    let content = own_content(dir.path());
    let book = content.join("bbb/srd/book.toml");
    let text = std::fs::read_to_string(&book).unwrap();
    std::fs::write(
        &book,
        text.replace("index = [\n", "index = [\n  \"zeppelin\",\n"),
    )
    .unwrap();
    let o = crate::support::blockprint(&["check", "--content", content.to_str().unwrap()]);
    let all = crate::support::stdout(&o) + &crate::support::stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{all}");
    assert!(
        all.contains("the index term `zeppelin` of book `bbb.srd` is used by no chapter: the index leaves it out"),
        "{all}"
    );
    assert!(all.contains("bbb/srd/book.toml"), "{all}");
    assert!(
        all.contains("or remove `\"zeppelin\"` from the book's `index = [...]`"),
        "{all}"
    );
    // The built-in terms are all used: no such warning.
    let o = crate::support::blockprint(&["check"]);
    let all = crate::support::stdout(&o) + &crate::support::stderr(&o);
    assert!(!all.contains("index term"), "{all}");
}

#[test]
fn the_index_opens_under_its_own_running_header() {
    // Issue 40: the index opens under the last lines of Appendix D and its first page's header named
    // Appendix D. A chapter that opens in a page's top third now heads that page.
    for paper in ["a4", "letter", "a5", "us-trade"] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        run_ok(&[
            "srd",
            "--paper",
            paper,
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ]);
        let pdf = std::fs::read(out.join("srd/block-by-block-srd.pdf")).unwrap();
        let doc = lopdf::Document::load_mem(&pdf).unwrap();
        let toc = doc.get_toc().unwrap();
        let index = toc
            .toc
            .iter()
            .find(|t| t.title == "Index")
            .unwrap_or_else(|| panic!("{paper}: no Index bookmark"))
            .page;
        let pages = crate::support::glyphs::pages(&pdf);
        let page = &pages[index - 1];
        // The header band: the top 14 mm.
        let head: String = page
            .glyphs
            .iter()
            .filter(|g| g.upright && g.y > page.height - 14.0 * 72.0 / 25.4)
            .map(|g| g.text.as_str())
            .collect();
        assert!(head.ends_with("Index"), "{paper} p. {index}: {head:?}");
    }
}

#[test]
fn the_quick_reference_is_the_chapter_its_front_matter_names() {
    // Issue 40: the template knew the quick reference by the slug `quick-reference`; a book that named
    // the file otherwise printed it as a chapter. Its front matter's `role = "quick-reference"` says it.
    let dir = tempfile::tempdir().unwrap();
    let content = own_content(dir.path());
    let srd = content.join("bbb/srd");
    std::fs::rename(srd.join("quick-reference.md"), srd.join("at-the-table.md")).unwrap();
    let book = std::fs::read_to_string(srd.join("book.toml")).unwrap();
    let renamed = book.replace("\"quick-reference\",", "\"at-the-table\",");
    assert_ne!(renamed, book);
    std::fs::write(srd.join("book.toml"), &renamed).unwrap();
    let out = dir.path().join("out");
    run_ok(&[
        "srd",
        "--content",
        content.to_str().unwrap(),
        "--paper",
        "a5",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--check-pages",
    ]);
    let pdf = std::fs::read(out.join("srd/block-by-block-srd.pdf")).unwrap();
    let pages = crate::support::glyphs::pages(&pdf);
    let text = |p: &crate::support::glyphs::Page| -> String {
        p.glyphs
            .iter()
            .map(|g| g.text.as_str())
            .collect::<String>()
            .to_lowercase()
            .replace(char::is_whitespace, "")
    };
    assert_eq!(pages.len() % 4, 0, "a folded booklet");
    assert!(
        text(pages.last().unwrap()).contains("quickreference"),
        "the last page"
    );
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    let chapters: Vec<String> = doc
        .get_toc()
        .unwrap()
        .toc
        .iter()
        .map(|t| t.title.clone())
        .collect();
    assert!(
        !chapters
            .iter()
            .any(|t| t.ends_with(" Quick reference") && t.starts_with(char::is_numeric)),
        "not a numbered chapter: {chapters:?}"
    );
    // Another role is refused at the chapter's front matter.
    let file = srd.join("at-the-table.md");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replace("role = \"quick-reference\"", "role = \"sidebar\""),
    )
    .unwrap();
    let o = crate::support::blockprint(&["check", "--content", content.to_str().unwrap()]);
    let all = crate::support::stdout(&o) + &crate::support::stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{all}");
    assert!(
        all.contains("at-the-table.md") && all.contains("sidebar"),
        "{all}"
    );
}

/// The SRD's Markdown made with a cache (as the `data` fuzz target makes it, input after input) is the
/// one made afresh, byte for byte, while the content changes under it: unchanged, a chapter edited, a
/// table retitled that chapters place and mention, the book retitled. And the cache is used: a piece
/// whose chapter and reads of the book's data did not change is not written again.
#[test]
fn the_srd_markdown_written_with_a_cache_is_the_one_written_afresh() {
    use blockprint::generators::srd::SrdKind;
    use blockprint::generators::{Checked, Kind, Request};
    use blockprint::render::srd::MarkdownCache;
    use blockprint::render::{Engine, Paper, Templates};

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    let mut files = blockprint::content::ContentRoot::Dir(root).files().unwrap();
    files.retain(|(rel, _)| rel.starts_with("bbb/"));
    let engine = Engine::new(Templates::builtin(), Default::default()).unwrap();
    let req = Request {
        seed: 7,
        paper: Paper::A4,
        first: 1,
        count: 1,
    };
    let edit = |files: &mut Vec<(String, Vec<u8>)>, rel: &str, from: &str, to: &str| {
        let f = files.iter_mut().find(|(r, _)| r == rel).unwrap();
        let text = String::from_utf8(f.1.clone()).unwrap();
        assert!(text.contains(from), "{rel} has no {from:?}");
        f.1 = text.replacen(from, to, 1).into_bytes();
    };
    let mut cache = MarkdownCache::default();
    // Each step: an edit (file, from, to), how many pieces (a chapter or an appendix, in one edition)
    // are then written, and a text the Markdown then shows. Appendix D names the edition, not the
    // content's version, so an edit elsewhere leaves it as it was.
    type Edit = Option<(&'static str, &'static str, &'static str)>;
    let steps: [(Edit, std::ops::RangeInclusive<usize>, &str); 5] = [
        (None, 40..=40, "Victim gender"),
        (None, 0..=0, "Victim gender"),
        (
            Some((
                "bbb/srd/introduction.md",
                "## Who plays",
                "A paragraph never seen before.\n\n## Who plays",
            )),
            2..=2,
            "A paragraph never seen before.",
        ),
        (
            Some((
                "bbb/01-homicide.toml",
                "title = \"Victim gender\"",
                "title = \"Gender of the victim\"",
            )),
            4..=10,
            "Gender of the victim",
        ),
        (
            Some(("bbb/srd/book.toml", "title = \"", "title = \"Retitled: ")),
            2..=2,
            "Retitled: ",
        ),
    ];
    for (step, written, shown) in steps {
        if let Some((rel, from, to)) = step {
            edit(&mut files, rel, from, to);
        }
        let (lib, diags) = blockprint::content::load_files(files.clone());
        let report = blockprint::check::run(&lib, diags);
        let cx = Checked::new(lib, report, "test".into()).expect("check accepts the edit");
        let doc = SrdKind.document(&cx, &req, 0).unwrap();
        let cached = SrdKind.markdown_cached(&engine, &doc, &mut cache).unwrap();
        let fresh = SrdKind.markdown(&cx, &engine, &doc).unwrap();
        assert!(
            cached == fresh,
            "after {step:?} the cached Markdown differs"
        );
        assert!(
            written.contains(&cache.last_written()),
            "after {step:?}: {} pieces written, not {written:?}",
            cache.last_written()
        );
        let single = String::from_utf8_lossy(&cached[0].1);
        assert!(
            single.contains(shown),
            "after {step:?} {shown:?} is not shown"
        );
    }
}
