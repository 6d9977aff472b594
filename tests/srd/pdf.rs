//! The SRD PDF opens with its bookmarks pane shown (`/PageMode /UseOutlines`), in every paper size, and
//! the paper size on the command line is the size of its pages.

use std::path::Path;

use blockprint::render::Paper;

fn render(out: &Path, paper: &str) -> Vec<u8> {
    let o = crate::support::bp()
        .args(["srd", "--format", "pdf", "--quiet", "--paper", paper])
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read(out.join("srd/block-by-block-srd.pdf")).unwrap()
}

/// Width and height of the first page, in millimetres.
fn page_mm(doc: &lopdf::Document) -> (f64, f64) {
    let (_, &page) = doc.get_pages().iter().next().unwrap();
    let dict = doc.get_dictionary(page).unwrap();
    let mb = dict.get(b"MediaBox").unwrap().as_array().unwrap();
    let n = |o: &lopdf::Object| {
        o.as_float()
            .map(f64::from)
            .or_else(|_| o.as_i64().map(|i| i as f64))
            .unwrap()
    };
    let pt = 25.4 / 72.0;
    ((n(&mb[2]) - n(&mb[0])) * pt, (n(&mb[3]) - n(&mb[1])) * pt)
}

#[test]
fn the_srd_opens_with_its_bookmarks_in_every_paper_size() {
    for (paper, size) in [
        ("a4", (210.0, 297.0)),
        ("Letter", (215.9, 279.4)),
        ("A5", (148.0, 210.0)),
        ("us-trade", (152.4, 228.6)),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let bytes = render(dir.path(), paper);
        let doc = lopdf::Document::load_mem(&bytes).expect("a PDF lopdf reads");
        let catalog = doc.catalog().unwrap();
        assert_eq!(
            catalog.get(b"PageMode").and_then(|m| m.as_name()).ok(),
            Some(&b"UseOutlines"[..]),
            "{paper}: the catalog does not ask for the bookmarks pane"
        );
        // The bookmarks and the tagged structure survive the rewritten catalog.
        assert!(catalog.get(b"Outlines").is_ok());
        assert!(catalog.get(b"StructTreeRoot").is_ok());
        assert!(doc.get_toc().unwrap().toc.len() > 20, "{paper}");
        let (w, h) = page_mm(&doc);
        assert!(
            (w - size.0).abs() < 0.5 && (h - size.1).abs() < 0.5,
            "{paper}: pages are {w:.1} × {h:.1} mm"
        );
        let text = pdf_extract::extract_text_from_mem(&bytes).unwrap();
        assert!(text.contains("Appendix D"), "{paper}");
        assert!(
            text.contains(
                &Paper::ALL
                    .iter()
                    .find(|p| p.name().eq_ignore_ascii_case(paper))
                    .unwrap()
                    .name()
                    .to_uppercase()
            ),
            "{paper}: the credits name the paper"
        );
    }
}

#[test]
fn paper_names_parse_in_any_case_and_unknown_ones_are_refused() {
    let o = crate::support::bp()
        .args(["srd", "--format", "md", "--quiet", "--paper", "a3", "--out"])
        .arg(tempfile::tempdir().unwrap().path())
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    for name in ["a4", "letter", "a5", "us-trade"] {
        assert!(err.contains(name), "the error lists `{name}`: {err}");
    }
}
