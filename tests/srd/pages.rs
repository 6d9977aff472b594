//! The SRD's page breaks, read back from the PDF in every paper size: where every glyph sits on its page
//! (pdf-extract's text positions), which pages open a chapter (the bookmarks), and from that:
//! - every page but the book's last is at least half full (the chapters run on, so no chapter leaves
//!   the rest of its last page empty), and the last page carries more than a few lines;
//! - no random table breaks so that fewer than three of its rows stand on either side of the break, and
//!   none of up to six rows breaks at all;
//! - no chapter or appendix opens in the last fifth of a column (an opener needs room under it);
//! - nothing is printed on or next to the folio: the body ends at least 10 pt above it (a table forced
//!   into the sliver of a page left by two decks once printed its rows over the page number).
//!
//! How a table is found in the text: its column heads read "Roll Result Chance", the line above them is its
//! title bar, and each of its rows prints a percentage and the exact fraction ("5.0% 1/20"). A table that
//! breaks repeats its title bar and column heads on the next column, so a title seen twice in a row, the
//! second time at the top of a column, is one table broken in two.
//!
//! Set `BLOCKPRINT_PAGES_REPORT=1` to print every page's fill.

use std::path::Path;

use blockprint::render::Paper;
use pdf_extract::{MediaBox, OutputDev, OutputError, Transform};

/// One glyph: its page (1-based), position (x from the left, y down from the top, in points) and text.
#[derive(Debug, Clone)]
struct Glyph {
    page: usize,
    x: f64,
    y: f64,
    text: String,
}

#[derive(Default)]
struct Collector {
    page: usize,
    height: f64,
    width: f64,
    glyphs: Vec<Glyph>,
}

impl OutputDev for Collector {
    fn begin_page(
        &mut self,
        page_num: u32,
        media_box: &MediaBox,
        _art_box: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), OutputError> {
        self.page = page_num as usize;
        self.height = media_box.ury - media_box.lly;
        self.width = media_box.urx - media_box.llx;
        Ok(())
    }
    fn end_page(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
    fn output_character(
        &mut self,
        trm: &Transform,
        _width: f64,
        _spacing: f64,
        _font_size: f64,
        char: &str,
    ) -> Result<(), OutputError> {
        if !char.trim().is_empty() {
            self.glyphs.push(Glyph {
                page: self.page,
                x: trm.m31,
                y: self.height - trm.m32,
                text: char.to_owned(),
            });
        }
        Ok(())
    }
    fn begin_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
    fn end_word(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
    fn end_line(&mut self) -> Result<(), OutputError> {
        Ok(())
    }
}

/// A line of text in one column: its baseline and its glyphs left to right, spaced where they are apart.
#[derive(Debug, Clone)]
struct Line {
    y: f64,
    text: String,
}

/// What the test reads off a typeset SRD.
struct Book {
    pages: usize,
    width: f64,
    /// Per page, the glyphs near the folio (from 10 pt above its baseline down), as (text, y).
    near_folio: Vec<Vec<(String, f64)>>,
    /// Per page, per column: the lines of the page body (running head and folio left out).
    columns: Vec<Vec<Vec<Line>>>,
    /// The body band: below the running head, above the folio.
    top: f64,
    bottom: f64,
    /// The pages where the chapters and appendices open, one per opener (from the bookmarks).
    chapter_starts: Vec<usize>,
}

fn render(paper: Paper, out: &Path) -> Vec<u8> {
    let o = crate::support::bp()
        .args(["srd", "--format", "pdf", "--quiet", "--paper", paper.name()])
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The chapters are fitted inside typst's layout iterations; a fit that does not settle shows as a
    // convergence warning (and page numbers that may be off).
    assert!(
        o.stderr.is_empty(),
        "{}: {}",
        paper.name(),
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read(out.join("srd/block-by-block-srd.pdf")).unwrap()
}

/// Positions (rounded to the point) that occur on at least three pages, smallest first.
fn repeated(values: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut counts = std::collections::BTreeMap::<i64, usize>::new();
    for v in values {
        *counts.entry(v.round() as i64).or_default() += 1;
    }
    counts
        .into_iter()
        .filter(|&(_, n)| n >= 3)
        .map(|(v, _)| v as f64)
        .collect()
}

/// Glyphs into lines: sorted by baseline, a new line wherever the baseline moves more than 3 pt (the cells
/// of a table row are centred and so sit a point or two apart).
fn lines(mut glyphs: Vec<&Glyph>) -> Vec<Line> {
    glyphs.sort_by(|a, b| a.y.total_cmp(&b.y));
    let mut groups: Vec<Vec<&Glyph>> = Vec::new();
    for g in glyphs {
        match groups.last_mut() {
            Some(l) if g.y - l[0].y <= 3.0 => l.push(g),
            _ => groups.push(vec![g]),
        }
    }
    groups
        .into_iter()
        .map(|mut l| {
            l.sort_by(|a, b| a.x.total_cmp(&b.x));
            let mut text = String::new();
            let mut last_x = f64::NEG_INFINITY;
            for g in &l {
                if g.x - last_x > 8.0 && !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(&g.text);
                last_x = g.x;
            }
            Line {
                y: l.iter().map(|g| g.y).fold(f64::MIN, f64::max),
                text,
            }
        })
        .collect()
}

fn read(bytes: &[u8], ncols: usize) -> Book {
    let doc = pdf_extract::Document::load_mem(bytes).unwrap();
    let mut c = Collector::default();
    pdf_extract::output_doc(&doc, &mut c).unwrap();
    let pages = doc.get_pages().len();
    let (width, height) = (c.width, c.height);
    // The running head is the top line of every page but the openers, the folio the bottom line of
    // every page but the title: the highest top line and the lowest bottom line that many pages share.
    let per_page = |p: usize| c.glyphs.iter().filter(move |g| g.page == p);
    let head = *repeated((1..=pages).filter_map(|p| per_page(p).map(|g| g.y).reduce(f64::min)))
        .first()
        .expect("a running head");
    let folio = *repeated((1..=pages).filter_map(|p| per_page(p).map(|g| g.y).reduce(f64::max)))
        .last()
        .expect("a folio");
    assert!(
        head < height / 5.0 && folio > height * 0.8,
        "{head} {folio}"
    );
    let (top, bottom) = (head + 2.0, folio - 2.0);
    let near_folio = (1..=pages)
        .map(|p| {
            per_page(p)
                .filter(|g| g.y > folio - 10.0)
                .map(|g| (g.text.clone(), g.y))
                .collect()
        })
        .collect();
    let mut columns = Vec::new();
    for p in 1..=pages {
        let body: Vec<&Glyph> = per_page(p).filter(|g| g.y > top && g.y < bottom).collect();
        let mut cols = Vec::new();
        for k in 0..ncols {
            let (from, to) = (
                width * k as f64 / ncols as f64,
                width * (k + 1) as f64 / ncols as f64,
            );
            cols.push(lines(
                body.iter()
                    .copied()
                    .filter(|g| g.x >= from && g.x < to)
                    .collect(),
            ));
        }
        columns.push(cols);
    }
    let toc = doc.get_toc().expect("bookmarks");
    let chapter_starts: Vec<usize> = toc
        .toc
        .iter()
        .filter(|t| t.level == 1)
        .map(|t| t.page)
        .collect();
    Book {
        pages,
        width,
        near_folio,
        columns,
        top,
        bottom,
        chapter_starts,
    }
}

impl Book {
    /// How much of page `p`'s body its text reaches down to, column by column, as a share of the page.
    fn fill(&self, p: usize) -> f64 {
        let cols = &self.columns[p - 1];
        let band = self.bottom - self.top;
        cols.iter()
            .map(|lines| lines.last().map_or(0.0, |l| (l.y - self.top) / band))
            .sum::<f64>()
            / cols.len() as f64
    }
    fn lines(&self, p: usize) -> usize {
        self.columns[p - 1].iter().map(Vec::len).sum()
    }
}

/// A table's fragment in one column: its title line, how many rows, and whether it heads its column.
#[derive(Debug)]
struct Fragment {
    page: usize,
    title: String,
    rows: usize,
    at_top: bool,
}

fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase()
}

/// An opener's kicker: "CHAPTER 4" or "BACK MATTER" on a line of its own.
fn is_kicker(line: &str) -> bool {
    let s = squash(line);
    s == "backmatter"
        || s == "atthetable"
        || s.strip_prefix("chapter")
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// A row of a random table prints its chance: "12.5%" then the fraction "1/8".
fn is_row(line: &str) -> bool {
    let s = squash(line);
    let Some(pct) = s.find('%') else { return false };
    let before = &s[..pct];
    let after = &s[pct + 1..];
    before.ends_with(|c: char| c.is_ascii_digit())
        && before.contains('.')
        && after.contains('/')
        && after.starts_with(|c: char| c.is_ascii_digit())
}

fn fragments(book: &Book) -> Vec<Fragment> {
    let mut out = Vec::new();
    for (pi, cols) in book.columns.iter().enumerate() {
        for lines in cols {
            let heads: Vec<usize> = (0..lines.len())
                .filter(|&i| {
                    let s = squash(&lines[i].text);
                    s.starts_with("roll") && s.contains("result") && s.ends_with("chance")
                })
                .collect();
            for (n, &h) in heads.iter().enumerate() {
                let end = heads.get(n + 1).copied().unwrap_or(lines.len());
                let rows = lines[h + 1..end].iter().filter(|l| is_row(&l.text)).count();
                // The title bar is the line above the column heads; a fragment heads its column when
                // nothing but its title bar (and a raised dagger in it) stands above its column heads.
                let title = if h > 0 {
                    squash(&lines[h - 1].text)
                } else {
                    String::new()
                };
                out.push(Fragment {
                    page: pi + 1,
                    title,
                    rows,
                    at_top: lines[h].y - lines[0].y < 25.0,
                });
            }
        }
    }
    out
}

fn check(paper: Paper) {
    let ncols = match paper {
        Paper::A4 | Paper::Letter => 2,
        Paper::A5 | Paper::UsTrade => 1,
    };
    let dir = tempfile::tempdir().unwrap();
    let bytes = render(paper, dir.path());
    let book = read(&bytes, ncols);
    assert!(book.width > 0.0);
    assert!(book.chapter_starts.len() >= 10, "{:?}", book.chapter_starts);
    let report = std::env::var_os("BLOCKPRINT_PAGES_REPORT").is_some();
    let mut problems = Vec::new();
    for p in 1..=book.pages {
        let fill = book.fill(p);
        let last = p == book.pages;
        if report {
            eprintln!(
                "{} p{p:>3} fill {:>5.1}% lines {:>3}",
                paper.name(),
                fill * 100.0,
                book.lines(p),
            );
        }
        // Half the page; the book's last page at least an eighth (a few lines are not a page). A page
        // with ruled lines for notes (a booklet's filler, headed "Notes") is meant to be empty.
        let least = if last { 0.125 } else { 0.5 };
        let notes = book.columns[p - 1]
            .iter()
            .flatten()
            .any(|l| squash(&l.text) == "notes");
        if fill < least && !notes {
            problems.push(format!(
                "p. {p}: text fills {:.0}% of the page ({} lines){}",
                fill * 100.0,
                book.lines(p),
                if last { ", the last page" } else { "" }
            ));
        }
        // The folio stands alone at the foot: on or within 10 pt above its line, nothing but the page
        // number (the title page has none).
        if p > 1 {
            let near: String = book.near_folio[p - 1]
                .iter()
                .map(|(t, _)| t.as_str())
                .collect();
            if near != p.to_string() {
                problems.push(format!(
                    "p. {p}: {near:?} printed at the folio, not the page number alone"
                ));
            }
        }
        // An opener's kicker ("CHAPTER 4", "BACK MATTER") stands in the top four fifths of its column.
        let band = book.bottom - book.top;
        for lines in &book.columns[p - 1] {
            for l in lines {
                if is_kicker(&l.text) && (l.y - book.top) / band > 0.8 {
                    problems.push(format!(
                        "p. {p}: {:?} opens at {:.0}% of the column's height",
                        l.text,
                        (l.y - book.top) / band * 100.0
                    ));
                }
            }
        }
    }
    // Every chapter and appendix in the bookmarks has its opener read off the pages.
    let kickers = book
        .columns
        .iter()
        .flatten()
        .flatten()
        .filter(|l| is_kicker(&l.text))
        .count();
    assert_eq!(
        kickers,
        book.chapter_starts.len(),
        "openers read, openers bookmarked"
    );
    let frags = fragments(&book);
    assert!(frags.len() >= 40, "{} table fragments found", frags.len());
    for (i, f) in frags.iter().enumerate() {
        assert!(f.rows > 0, "a table with no rows read: {f:?}");
        let continued = frags
            .get(i + 1)
            .is_some_and(|g| g.at_top && g.title == f.title && !f.title.is_empty());
        if continued {
            let g = &frags[i + 1];
            let total = f.rows + g.rows;
            if total <= 6 {
                problems.push(format!(
                    "p. {}: a table of {total} rows breaks ({} + {}): {}",
                    f.page, f.rows, g.rows, f.title
                ));
            }
            if f.rows < 3 || g.rows < 3 {
                problems.push(format!(
                    "p. {}: a table breaks leaving {} rows before and {} after: {}",
                    f.page, f.rows, g.rows, f.title
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} SRD, {} pages:\n{}",
        paper.name(),
        book.pages,
        problems.join("\n")
    );
}

#[test]
fn a4_pages_are_full_and_tables_hold_together() {
    check(Paper::A4);
}

#[test]
fn letter_pages_are_full_and_tables_hold_together() {
    check(Paper::Letter);
}

#[test]
fn a5_pages_are_full_and_tables_hold_together() {
    check(Paper::A5);
}

#[test]
fn us_trade_pages_are_full_and_tables_hold_together() {
    check(Paper::UsTrade);
}

#[test]
fn row_lines_are_told_from_prose() {
    assert!(is_row("20 Lorraine 5.0% 1/20"));
    assert!(is_row(" 2 – 4 Low-income area 30.6% 11/36 "));
    assert!(is_kicker("C H A P T E R 1 2") && is_kicker("BACK MATTER"));
    assert!(!is_kicker("Chapter") && !is_kicker("Chapter 4 covers the week"));
    assert!(!is_row("roll 2d6, 58% of the time"));
    assert!(!is_row("Roll Result Chance"));
}
