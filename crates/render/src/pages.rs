//! The page checker: a laid-out document in (typst's frames, exactly what the PDF is written from), the
//! faults no printed page may have out, each with its page, its place and its text.
//!
//! It reads the frames rather than the written PDF because the frames hold what a PDF reader would have to
//! guess: every glyph with its font, size and outline box, every rule as a line, the boxes text was set in,
//! and the marks a template uses to declare what is meant (a PDF keeps none of those). Every PDF blockprint
//! writes is exported from these frames, so a page that passes here passes on paper.
//!
//! What it finds ([`Fault`]):
//! - **overprint**: the ink of two pieces of text overlaps, or a filled shape is drawn over text;
//! - **overflow**: text outside the page or within 3 mm of its edge (no home printer prints there), across a
//!   card's trim, clipped by its box, or set outside the fixed-size box it belongs to;
//! - **legibility**: text under 6 pt;
//! - **waste**: a page other than a document's last that is less than a third full; a heading alone at the
//!   foot of a page or column, or with fewer than three lines under it there while its section runs on;
//!   a last page that holds only a line or two;
//! - **rule through text**: a table rule, a crop line or any drawn line crossing a glyph;
//! - **print-shop geometry** ([`print`]): a crop mark that does not reach the printable area, a card's
//!   colour that stops at its cut with no bleed, text nearer a card's cut than 3 mm or inside the printer
//!   margin, a sheet of cards less than half full;
//! - **reader**: what the page's reader should not see, by audience ([`reader`]): seeds, hashes, ids,
//!   command lines, file names, raw Markdown, placeholders, notation where words serve; and a "below"
//!   that points up (or an "above" that points down) between a `<bp-ref>` and its `<bp-target>`
//!   ([`refs`]).
//!
//! Templates declare what is intended, with labels the checker reads:
//! - a box or block labelled `<bp-layer>` may overlap other text and be overlapped (a suit mark printed
//!   behind a card's text, a watermark);
//! - a box or block labelled `<bp-trim>` is a card's trim: no text may cross its edges;
//! - `#metadata("blank") <bp-page>` or `#metadata("notes") <bp-page>` on a page declares it intentionally
//!   blank or a notes page, which is never waste; `#metadata("cards") <bp-page>` declares a page of cards
//!   (a sheet or one card), as full as its deck allows (at least half full);
//! - `#metadata((refers: "below", to: NAME)) <bp-ref>` where text refers to a thing by its place, and
//!   `#metadata(NAME) <bp-target>` at that thing ([`refs`]);
//! - `#metadata((margin: 5mm)) <bp-print>` declares the document's printer margin (5 mm unless declared;
//!   `0mm` for pages a print service prints to their edge).

use std::fmt;

use blockprint_kind::sink::{Event, Sink};

use typst::foundations::{Label, NativeElement, Selector, Value};
use typst::introspection::{Introspector, MetadataElem};
use typst::layout::{Abs, Frame, FrameItem, FrameKind, Point, Transform};
use typst::model::HeadingElem;
use typst::utils::PicoStr;
use typst::visualize::{CurveItem, Geometry};
use typst_layout::PagedDocument;

pub mod print;
pub mod reader;
pub mod refs;

/// No text closer than this to the paper's edge (points): 3 mm, where home printers stop.
pub const EDGE: f64 = 3.0 * MM;
/// The smallest legible text (points).
pub const MIN_SIZE: f64 = 6.0;
/// A page other than a document's last must be at least this full.
pub const MIN_FILL: f64 = 1.0 / 3.0;
/// Ink may touch by this much (points) before it counts as an overlap: kerning and italic overhangs touch.
const TOUCH: f64 = 0.35;
const MM: f64 = 72.0 / 25.4;
/// The side of a fill cell (points): a page's fill is the share of 5 mm cells that hold something.
const CELL: f64 = 5.0 * MM;

/// The kinds of fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fault {
    Overprint,
    Overflow,
    Legibility,
    Waste,
    RuleThroughText,
    /// Print-shop geometry: crop marks in the printer margin, colour at a card's cut.
    Print,
    /// What a page's reader should not see ([`reader`]).
    Reader,
}

impl Fault {
    pub fn name(self) -> &'static str {
        match self {
            Fault::Overprint => "overprint",
            Fault::Overflow => "overflow",
            Fault::Legibility => "legibility",
            Fault::Waste => "waste",
            Fault::RuleThroughText => "rule through text",
            Fault::Print => "print-shop",
            Fault::Reader => "reader",
        }
    }
}

/// One fault on one page: where (millimetres from the page's top left corner), what, and the text involved.
#[derive(Debug, Clone, PartialEq)]
pub struct Offence {
    /// 1-based page of the document.
    pub page: usize,
    pub x_mm: f64,
    pub y_mm: f64,
    pub fault: Fault,
    /// What is wrong, in words.
    pub what: String,
    /// The text involved (a run of text, shortened).
    pub text: String,
}

impl fmt::Display for Offence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "p. {} at {:.1} × {:.1} mm: {}: {}",
            self.page,
            self.x_mm,
            self.y_mm,
            self.fault.name(),
            self.what
        )?;
        if !self.text.is_empty() {
            write!(f, ": “{}”", self.text)?;
        }
        Ok(())
    }
}

/// An axis-aligned rectangle in page space (points, y down).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rect {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Rect {
    fn around(points: impl IntoIterator<Item = (f64, f64)>) -> Rect {
        let mut r = Rect {
            x0: f64::INFINITY,
            y0: f64::INFINITY,
            x1: f64::NEG_INFINITY,
            y1: f64::NEG_INFINITY,
        };
        for (x, y) in points {
            r.x0 = r.x0.min(x);
            r.y0 = r.y0.min(y);
            r.x1 = r.x1.max(x);
            r.y1 = r.y1.max(y);
        }
        r
    }
    fn union(self, o: Rect) -> Rect {
        Rect {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }
    /// How far two rectangles overlap in each direction (negative: apart).
    fn overlap(self, o: Rect) -> (f64, f64) {
        (
            self.x1.min(o.x1) - self.x0.max(o.x0),
            self.y1.min(o.y1) - self.y0.max(o.y0),
        )
    }
    fn shrink(self, by: f64) -> Rect {
        Rect {
            x0: self.x0 + by,
            y0: self.y0 + by,
            x1: self.x1 - by,
            y1: self.y1 - by,
        }
    }
    fn width(self) -> f64 {
        self.x1 - self.x0
    }
    fn height(self) -> f64 {
        self.y1 - self.y0
    }
    fn contains(self, x: f64, y: f64) -> bool {
        x >= self.x0 && x <= self.x1 && y >= self.y0 && y <= self.y1
    }
    /// Whether the segment from `a` to `b` passes through the rectangle (Liang–Barsky clipping).
    fn cut_by(self, a: (f64, f64), b: (f64, f64)) -> bool {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
        for (p, q) in [
            (-dx, a.0 - self.x0),
            (dx, self.x1 - a.0),
            (-dy, a.1 - self.y0),
            (dy, self.y1 - a.1),
        ] {
            if p == 0.0 {
                if q < 0.0 {
                    return false;
                }
            } else {
                let t = q / p;
                if p < 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
                if t0 > t1 {
                    return false;
                }
            }
        }
        true
    }
}

/// One glyph's ink and the baseline point it stands on.
#[derive(Debug, Clone, Copy)]
struct Ink {
    rect: Rect,
    base: (f64, f64),
}

/// A run of text as placed on the page.
#[derive(Debug)]
struct Run {
    text: String,
    /// The size it prints at (the font size times the scale of every enclosing transform).
    size: f64,
    inks: Vec<Ink>,
    bbox: Rect,
    /// Inside a `<bp-layer>` box.
    layer: bool,
    /// The innermost fixed-size box it was set in, and the clip of its innermost clipping box.
    boxed: Option<Rect>,
    clip: Option<Rect>,
    /// Drawing order on the page.
    order: usize,
}

/// A drawn line (or a rectangle's edge, or a piece of a curve).
#[derive(Debug, Clone, Copy)]
struct Segment {
    a: (f64, f64),
    b: (f64, f64),
    layer: bool,
    /// Drawn as a line of its own (a crop mark is one), not an edge of a shape.
    line: bool,
}

/// A filled shape that covers what is drawn before it.
#[derive(Debug, Clone, Copy)]
struct Cover {
    rect: Rect,
    order: usize,
    layer: bool,
    /// Filled with a colour other than paper white.
    colour: bool,
}

/// Everything on one page that matters to the checks.
#[derive(Debug, Default)]
struct Page {
    width: f64,
    height: f64,
    runs: Vec<Run>,
    segments: Vec<Segment>,
    covers: Vec<Cover>,
    trims: Vec<Rect>,
    /// Areas that hold something, for the page's fill: shapes' boxes.
    shapes: Vec<Rect>,
    order: usize,
}

#[derive(Clone, Copy)]
struct Context {
    ts: Transform,
    layer: bool,
    boxed: Option<Rect>,
    clip: Option<Rect>,
}

fn apply(ts: Transform, x: Abs, y: Abs) -> (f64, f64) {
    let p = Point::new(x, y).transform(ts);
    (p.x.to_pt(), p.y.to_pt())
}

fn rect_of(ts: Transform, x0: f64, y0: f64, x1: f64, y1: f64) -> Rect {
    let pt = Abs::pt;
    Rect::around([
        apply(ts, pt(x0), pt(y0)),
        apply(ts, pt(x1), pt(y0)),
        apply(ts, pt(x0), pt(y1)),
        apply(ts, pt(x1), pt(y1)),
    ])
}

fn scale(ts: Transform) -> f64 {
    (ts.sx.get() * ts.sy.get() - ts.kx.get() * ts.ky.get())
        .abs()
        .sqrt()
}

fn is_label(label: Option<Label>, name: &str) -> bool {
    label.is_some_and(|l| l.resolve().as_str() == name)
}

fn walk(frame: &Frame, cx: Context, page: &mut Page) {
    for (pos, item) in frame.items() {
        match item {
            FrameItem::Group(group) => {
                let ts = cx
                    .ts
                    .pre_concat(Transform::translate(pos.x, pos.y))
                    .pre_concat(group.transform);
                let size = group.frame.size();
                let whole = rect_of(ts, 0.0, 0.0, size.x.to_pt(), size.y.to_pt());
                let mut inner = Context { ts, ..cx };
                if is_label(group.label, "bp-layer") {
                    inner.layer = true;
                }
                if is_label(group.label, "bp-trim") {
                    page.trims.push(whole);
                }
                if group.frame.kind() == FrameKind::Hard && size.x > Abs::zero() {
                    inner.boxed = Some(whole);
                }
                if let Some(clip) = &group.clip {
                    let b = clip.bbox(None);
                    let r = rect_of(
                        ts,
                        b.min.x.to_pt(),
                        b.min.y.to_pt(),
                        b.max.x.to_pt(),
                        b.max.y.to_pt(),
                    );
                    inner.clip = Some(match cx.clip {
                        Some(c) => Rect {
                            x0: c.x0.max(r.x0),
                            y0: c.y0.max(r.y0),
                            x1: c.x1.min(r.x1),
                            y1: c.y1.min(r.y1),
                        },
                        None => r,
                    });
                }
                walk(&group.frame, inner, page);
            }
            FrameItem::Text(text) => {
                let ts = cx.ts;
                let face = text.font.ttf();
                let per_unit = text.size.to_pt() / text.font.units_per_em();
                let mut x = pos.x.to_pt();
                let mut inks = Vec::new();
                for g in &text.glyphs {
                    let gx = x + g.x_offset.at(text.size).to_pt();
                    let gy = pos.y.to_pt() - g.y_offset.at(text.size).to_pt();
                    if let Some(b) = face.glyph_bounding_box(ttf_parser::GlyphId(g.id)) {
                        let rect = rect_of(
                            ts,
                            gx + f64::from(b.x_min) * per_unit,
                            gy - f64::from(b.y_max) * per_unit,
                            gx + f64::from(b.x_max) * per_unit,
                            gy - f64::from(b.y_min) * per_unit,
                        );
                        let base = apply(ts, Abs::pt(gx), Abs::pt(gy));
                        inks.push(Ink { rect, base });
                    }
                    x += g.x_advance.at(text.size).to_pt();
                }
                if inks.is_empty() {
                    continue;
                }
                let bbox = inks
                    .iter()
                    .map(|i| i.rect)
                    .reduce(Rect::union)
                    .unwrap_or(inks[0].rect);
                page.order += 1;
                page.runs.push(Run {
                    text: text.text.to_string(),
                    size: text.size.to_pt() * scale(ts),
                    inks,
                    bbox,
                    layer: cx.layer,
                    boxed: cx.boxed,
                    clip: cx.clip,
                    order: page.order,
                });
            }
            FrameItem::Shape(shape, _) => {
                let ts = cx.ts.pre_concat(Transform::translate(pos.x, pos.y));
                page.order += 1;
                shape_parts(shape, ts, cx.layer, cx.clip, page);
            }
            FrameItem::Image(_, size, _) => {
                let ts = cx.ts.pre_concat(Transform::translate(pos.x, pos.y));
                page.shapes
                    .push(rect_of(ts, 0.0, 0.0, size.x.to_pt(), size.y.to_pt()));
            }
            FrameItem::Link(..) | FrameItem::Tag(_) => {}
        }
    }
}

/// A rule is a line, a stroked outline, or a filled rectangle thinner than this (points).
const THIN: f64 = 1.6;

/// Whether a fill prints ink: not white, not (nearly) transparent.
fn coloured(fill: Option<&typst::visualize::Paint>) -> bool {
    match fill {
        Some(typst::visualize::Paint::Solid(c)) => {
            let rgb = c.to_rgb();
            rgb.alpha > 0.05 && (rgb.red < 0.98 || rgb.green < 0.98 || rgb.blue < 0.98)
        }
        Some(_) => true,
        None => false,
    }
}

/// A cover as it prints: its rectangle cut down to the clip it is drawn in.
fn clipped(r: Rect, clip: Option<Rect>) -> Rect {
    match clip {
        Some(c) => Rect {
            x0: r.x0.max(c.x0),
            y0: r.y0.max(c.y0),
            x1: r.x1.min(c.x1),
            y1: r.y1.min(c.y1),
        },
        None => r,
    }
}

fn shape_parts(
    shape: &typst::visualize::Shape,
    ts: Transform,
    layer: bool,
    clip: Option<Rect>,
    page: &mut Page,
) {
    let stroked = shape.stroke.is_some();
    let filled = shape.fill.is_some();
    let colour = coloured(shape.fill.as_ref());
    let line = matches!(shape.geometry, Geometry::Line(_));
    let mut seg = |a: (f64, f64), b: (f64, f64)| page.segments.push(Segment { a, b, layer, line });
    match &shape.geometry {
        Geometry::Line(to) => {
            if stroked {
                let a = apply(ts, Abs::zero(), Abs::zero());
                let b = apply(ts, to.x, to.y);
                seg(a, b);
                page.shapes.push(Rect::around([a, b]));
            }
        }
        Geometry::Rect(size) => {
            let (w, h) = (size.x.to_pt(), size.y.to_pt());
            let c = [
                apply(ts, Abs::zero(), Abs::zero()),
                apply(ts, size.x, Abs::zero()),
                apply(ts, size.x, size.y),
                apply(ts, Abs::zero(), size.y),
            ];
            let r = Rect::around(c);
            if stroked {
                for k in 0..4 {
                    seg(c[k], c[(k + 1) % 4]);
                }
            }
            if filled && (w.abs() <= THIN || h.abs() <= THIN) {
                // A filled hairline is a rule: its centre line.
                if w.abs() <= THIN {
                    seg(
                        apply(ts, size.x / 2.0, Abs::zero()),
                        apply(ts, size.x / 2.0, size.y),
                    );
                } else {
                    seg(
                        apply(ts, Abs::zero(), size.y / 2.0),
                        apply(ts, size.x, size.y / 2.0),
                    );
                }
            } else if filled {
                page.covers.push(Cover {
                    rect: clipped(r, clip),
                    order: page.order,
                    layer,
                    colour,
                });
            }
            if stroked || filled {
                page.shapes.push(r);
            }
        }
        Geometry::Curve(curve) => {
            let mut points = Vec::new();
            let mut start = (0.0, 0.0);
            let mut at = (0.0, 0.0);
            for item in &curve.0 {
                match item {
                    CurveItem::Move(p) => {
                        at = apply(ts, p.x, p.y);
                        start = at;
                        points.push(at);
                    }
                    CurveItem::Line(p) => {
                        let to = apply(ts, p.x, p.y);
                        if stroked {
                            seg(at, to);
                        }
                        at = to;
                        points.push(at);
                    }
                    CurveItem::Cubic(c1, c2, p) => {
                        let (p1, p2, p3) = (
                            apply(ts, c1.x, c1.y),
                            apply(ts, c2.x, c2.y),
                            apply(ts, p.x, p.y),
                        );
                        let p0 = at;
                        let mut prev = p0;
                        for k in 1..=8 {
                            let t = f64::from(k) / 8.0;
                            let u = 1.0 - t;
                            let q = (
                                u * u * u * p0.0
                                    + 3.0 * u * u * t * p1.0
                                    + 3.0 * u * t * t * p2.0
                                    + t * t * t * p3.0,
                                u * u * u * p0.1
                                    + 3.0 * u * u * t * p1.1
                                    + 3.0 * u * t * t * p2.1
                                    + t * t * t * p3.1,
                            );
                            if stroked {
                                seg(prev, q);
                            }
                            points.push(q);
                            prev = q;
                        }
                        at = p3;
                    }
                    CurveItem::Close => {
                        if stroked {
                            seg(at, start);
                        }
                        at = start;
                    }
                }
            }
            if points.is_empty() {
                return;
            }
            let r = Rect::around(points.iter().copied());
            if filled && r.width() > THIN && r.height() > THIN {
                page.covers.push(Cover {
                    rect: clipped(r, clip),
                    order: page.order,
                    layer,
                    colour,
                });
            }
            page.shapes.push(r);
        }
    }
}

/// The page numbers (1-based) a template declared blank, notes or cards pages with `<bp-page>` marks.
fn declared_pages(doc: &PagedDocument) -> Vec<usize> {
    declared(doc, &["blank", "notes", "cards"])
}

/// The page numbers (1-based) that carry a `<bp-page>` mark with one of `names`.
fn declared(doc: &PagedDocument, names: &[&str]) -> Vec<usize> {
    let Some(label) = Label::new(PicoStr::intern("bp-page")) else {
        return Vec::new();
    };
    let intro = doc.introspector();
    intro
        .query(&Selector::Label(label))
        .iter()
        .filter(|c| {
            c.to_packed::<MetadataElem>()
                .is_some_and(|m| matches!(&m.value, Value::Str(s) if names.contains(&s.as_str())))
        })
        .filter_map(|c| intro.position(c.location()?))
        .map(|p| p.page.get())
        .collect()
}

/// Every heading's page and top-left corner (points).
fn headings(doc: &PagedDocument) -> Vec<(usize, f64, f64)> {
    let intro = doc.introspector();
    intro
        .query(&Selector::Elem(HeadingElem::ELEM, None))
        .iter()
        .filter_map(|c| intro.position(c.location()?))
        .map(|p| (p.page.get(), p.point.x.to_pt(), p.point.y.to_pt()))
        .collect()
}

fn short(text: &str) -> String {
    let t: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if t.chars().count() > 40 {
        t.chars().take(39).collect::<String>() + "…"
    } else {
        t
    }
}

fn offence(page: usize, at: (f64, f64), fault: Fault, what: String, text: &str) -> Offence {
    Offence {
        page,
        x_mm: (at.0 / MM * 10.0).round() / 10.0,
        y_mm: (at.1 / MM * 10.0).round() / 10.0,
        fault,
        what,
        text: short(text),
    }
}

/// Check every page of `doc`. Offences come in page order, then by fault; one per fault and run of text.
pub fn check(doc: &PagedDocument) -> Vec<Offence> {
    let pages: Vec<Page> = doc
        .pages()
        .iter()
        .map(|p| {
            let mut page = Page {
                width: p.frame.width().to_pt(),
                height: p.frame.height().to_pt(),
                ..Page::default()
            };
            let cx = Context {
                ts: Transform::identity(),
                layer: false,
                boxed: None,
                clip: None,
            };
            walk(&p.frame, cx, &mut page);
            page
        })
        .collect();
    let declared = declared_pages(doc);
    let cards = self::declared(doc, &["cards"]);
    let margin = print::printer_margin(doc);
    let marginal = marginal_rows(&pages);
    let mut out = Vec::new();
    for (k, page) in pages.iter().enumerate() {
        let n = k + 1;
        let before = out.len();
        legibility(n, page, &mut out);
        overflow(n, page, &mut out);
        overprint(n, page, &mut out);
        rules(n, page, &mut out);
        print::check(n, page, margin, cards.contains(&n), &mut out);
        if !declared.contains(&n) {
            if n < pages.len() {
                let fill = fill(page, false);
                if fill < MIN_FILL {
                    out.push(offence(
                        n,
                        (page.width / 2.0, page.height / 2.0),
                        Fault::Waste,
                        format!(
                            "the page is {:.0} % full (a page before a document's last is at least a third full)",
                            fill * 100.0
                        ),
                        "",
                    ));
                }
            } else if n > 1 {
                let lines = body_lines(page, &marginal);
                if (1..=2).contains(&lines.len()) {
                    let first = lines[0];
                    out.push(offence(
                        n,
                        (first.bbox.x0, first.bbox.y0),
                        Fault::Waste,
                        format!(
                            "the last page holds only {} line{} of text: keep it with the page before",
                            lines.len(),
                            if lines.len() == 1 { "" } else { "s" }
                        ),
                        &first.text,
                    ));
                }
            }
        }
        out[before..].sort_by_key(|a| a.fault);
    }
    orphan_headings(doc, &pages, &marginal, &mut out);
    refs::check(doc, &mut out);
    out.sort_by(|a, b| a.page.cmp(&b.page).then(a.fault.cmp(&b.fault)));
    out
}

fn legibility(n: usize, page: &Page, out: &mut Vec<Offence>) {
    for run in &page.runs {
        if run.size < MIN_SIZE - 0.01 {
            out.push(offence(
                n,
                (run.bbox.x0, run.bbox.y0),
                Fault::Legibility,
                format!("{:.1} pt text (at least {MIN_SIZE} pt)", run.size),
                &run.text,
            ));
        }
    }
}

fn overflow(n: usize, page: &Page, out: &mut Vec<Offence>) {
    let paper = Rect {
        x0: 0.0,
        y0: 0.0,
        x1: page.width,
        y1: page.height,
    };
    let printable = paper.shrink(EDGE);
    for run in &page.runs {
        let b = run.bbox;
        let (ox, oy) = b.overlap(paper);
        let what = if ox < b.width() - 0.01 || oy < b.height() - 0.01 {
            Some("text outside the page".to_owned())
        } else if !printable.contains(b.x0, b.y0) || !printable.contains(b.x1, b.y1) {
            let gap = [b.x0, b.y0, page.width - b.x1, page.height - b.y1]
                .into_iter()
                .fold(f64::INFINITY, f64::min);
            Some(format!(
                "text {:.1} mm from the paper's edge (at least 3 mm)",
                gap.max(0.0) / MM
            ))
        } else {
            None
        };
        if let Some(what) = what {
            out.push(offence(n, (b.x0, b.y0), Fault::Overflow, what, &run.text));
            continue;
        }
        if let Some(trim) = page.trims.iter().find(|t| {
            let (ox, oy) = b.overlap(**t);
            ox > TOUCH && oy > TOUCH && (b.x0 < t.x0 || b.y0 < t.y0 || b.x1 > t.x1 || b.y1 > t.y1)
        }) {
            let _ = trim;
            out.push(offence(
                n,
                (b.x0, b.y0),
                Fault::Overflow,
                "text across a card's trim".into(),
                &run.text,
            ));
            continue;
        }
        if let Some(clip) = run.clip {
            let c = clip.shrink(-TOUCH);
            if run
                .inks
                .iter()
                .any(|i| !c.contains(i.rect.x0, i.rect.y0) || !c.contains(i.rect.x1, i.rect.y1))
            {
                out.push(offence(
                    n,
                    (b.x0, b.y0),
                    Fault::Overflow,
                    "text clipped by its box".into(),
                    &run.text,
                ));
                continue;
            }
        }
        if let Some(boxed) = run.boxed {
            // A glyph belongs to its box when its baseline and the middle of its ink are inside (ink may
            // reach past a box sized to cap height and baseline, as typst sizes text boxes).
            let area = boxed.shrink(-1.0);
            let outside = run.inks.iter().find(|i| {
                let mid = ((i.rect.x0 + i.rect.x1) / 2.0, i.base.1);
                !area.contains(mid.0, mid.1)
            });
            if let Some(i) = outside {
                out.push(offence(
                    n,
                    (i.rect.x0, i.rect.y0),
                    Fault::Overflow,
                    "text set outside the box it belongs to".into(),
                    &run.text,
                ));
            }
        }
    }
}

fn overprint(n: usize, page: &Page, out: &mut Vec<Offence>) {
    let mut order: Vec<usize> = (0..page.runs.len()).collect();
    order.sort_by(|&a, &b| page.runs[a].bbox.x0.total_cmp(&page.runs[b].bbox.x0));
    let mut reported = std::collections::BTreeSet::new();
    for (i, &a) in order.iter().enumerate() {
        let ra = &page.runs[a];
        if ra.layer {
            continue;
        }
        for &b in &order[i + 1..] {
            let rb = &page.runs[b];
            if rb.bbox.x0 > ra.bbox.x1 {
                break;
            }
            if rb.layer {
                continue;
            }
            let (ox, oy) = ra.bbox.overlap(rb.bbox);
            if ox <= TOUCH || oy <= TOUCH {
                continue;
            }
            let hit = ra.inks.iter().find_map(|ia| {
                rb.inks.iter().find(|ib| {
                    let (x, y) = ia.rect.overlap(ib.rect);
                    // Neighbours on one baseline touch where an italic letter leans over the next
                    // (“of-” at a line's end): that is kerning, not overprint.
                    let leaning =
                        (ia.base.1 - ib.base.1).abs() < 0.5 && x < 0.25 * ra.size.min(rb.size);
                    x > TOUCH && y > TOUCH && !leaning
                })
            });
            if let Some(ib) = hit
                && reported.insert((a.min(b), a.max(b)))
            {
                out.push(offence(
                    n,
                    (ib.rect.x0, ib.rect.y0),
                    Fault::Overprint,
                    format!("text printed over “{}”", short(&rb.text)),
                    &ra.text,
                ));
            }
        }
    }
    // A filled shape drawn after text, over it, hides it.
    for run in page.runs.iter().filter(|r| !r.layer) {
        for cover in page
            .covers
            .iter()
            .filter(|c| !c.layer && c.order > run.order)
        {
            let hit = run.inks.iter().find(|i| {
                let (x, y) = i.rect.overlap(cover.rect);
                x > TOUCH && y > TOUCH
            });
            if let Some(i) = hit {
                out.push(offence(
                    n,
                    (i.rect.x0, i.rect.y0),
                    Fault::Overprint,
                    "a filled shape is drawn over the text".into(),
                    &run.text,
                ));
                break;
            }
        }
    }
}

fn rules(n: usize, page: &Page, out: &mut Vec<Offence>) {
    for run in page.runs.iter().filter(|r| !r.layer) {
        let near = run.bbox.shrink(TOUCH);
        let hit = page
            .segments
            .iter()
            .filter(|s| !s.layer && near.cut_by(s.a, s.b))
            .find_map(|s| {
                run.inks
                    .iter()
                    .find(|i| {
                        let r = i.rect.shrink(TOUCH);
                        r.width() > 0.0 && r.height() > 0.0 && r.cut_by(s.a, s.b)
                    })
                    .map(|i| (s, i))
            });
        if let Some((_, i)) = hit {
            out.push(offence(
                n,
                (i.rect.x0, i.rect.y0),
                Fault::RuleThroughText,
                "a line is drawn through the text".into(),
                &run.text,
            ));
        }
    }
}

/// The share of the page's 5 mm cells, inside its margins as the document uses them, that hold ink or a
/// drawn shape (and, with `trims`, a card's trim box: a card is as full as its design).
fn fill(page: &Page, trims: bool) -> f64 {
    let cols = (page.width / CELL).ceil() as usize;
    let rows = (page.height / CELL).ceil() as usize;
    if cols == 0 || rows == 0 {
        return 1.0;
    }
    let mut grid = vec![false; cols * rows];
    let mut mark = |r: Rect| {
        let cx0 = ((r.x0 / CELL).floor().max(0.0) as usize).min(cols - 1);
        let cx1 = ((r.x1 / CELL).floor().max(0.0) as usize).min(cols - 1);
        let cy0 = ((r.y0 / CELL).floor().max(0.0) as usize).min(rows - 1);
        let cy1 = ((r.y1 / CELL).floor().max(0.0) as usize).min(rows - 1);
        for y in cy0..=cy1 {
            for x in cx0..=cx1 {
                grid[y * cols + x] = true;
            }
        }
    };
    let page_area = page.width * page.height;
    for run in &page.runs {
        for i in &run.inks {
            mark(i.rect);
        }
    }
    if trims {
        for r in &page.trims {
            mark(*r);
        }
    }
    for r in &page.shapes {
        // A frame around most of the page is decoration, not content: count its edges only.
        if r.width() * r.height() > page_area / 4.0 {
            for edge in [
                Rect { y1: r.y0, ..*r },
                Rect { y0: r.y1, ..*r },
                Rect { x1: r.x0, ..*r },
                Rect { x0: r.x1, ..*r },
            ] {
                mark(edge);
            }
        } else {
            mark(*r);
        }
    }
    // The margins: 15 mm all round, where no page of a printed document puts its body.
    let m = ((15.0 * MM) / CELL).round() as usize;
    let (x0, x1, y0, y1) = (m, cols.saturating_sub(m), m, rows.saturating_sub(m));
    if x1 <= x0 || y1 <= y0 {
        return 1.0;
    }
    let mut used = 0;
    for y in y0..y1 {
        for x in x0..x1 {
            used += usize::from(grid[y * cols + x]);
        }
    }
    used as f64 / ((x1 - x0) * (y1 - y0)) as f64
}

/// A run's row and text with its figures left out: a running header or footer repeats both from page to
/// page (page numbers aside).
fn row_key(r: &Run) -> (i64, String) {
    let text = r.text.chars().filter(|c| !c.is_ascii_digit()).collect();
    (r.inks[0].base.1.round() as i64, text)
}

/// The running headers and footers: text in the top or bottom sixth of the page that repeats, at the same
/// height, on at least two pages and at least half of them.
fn marginal_rows(pages: &[Page]) -> Vec<(i64, String)> {
    let mut seen: std::collections::BTreeMap<(i64, String), usize> = Default::default();
    for page in pages {
        let mut rows: Vec<(i64, String)> = page
            .runs
            .iter()
            .filter(|r| r.bbox.y1 < page.height / 6.0 || r.bbox.y0 > page.height * 5.0 / 6.0)
            .map(row_key)
            .collect();
        rows.sort_unstable();
        rows.dedup();
        for r in rows {
            *seen.entry(r).or_default() += 1;
        }
    }
    let need = (pages.len() / 2).max(2);
    seen.into_iter()
        .filter(|(_, k)| *k >= need)
        .map(|(r, _)| r)
        .collect()
}

/// The page's lines of body text (runs grouped by baseline), top to bottom, running headers and footers
/// left out; each line is represented by its first run.
fn body_lines<'a>(page: &'a Page, marginal: &[(i64, String)]) -> Vec<&'a Run> {
    let mut runs: Vec<&Run> = page
        .runs
        .iter()
        .filter(|r| !marginal.contains(&row_key(r)))
        .collect();
    runs.sort_by(|a, b| a.inks[0].base.1.total_cmp(&b.inks[0].base.1));
    let mut lines: Vec<&Run> = Vec::new();
    for r in runs {
        match lines.last() {
            Some(l) if (l.inks[0].base.1 - r.inks[0].base.1).abs() < 2.0 => {}
            _ => lines.push(r),
        }
    }
    lines
}

/// A heading with no body text under it before the foot of its page or column, or with fewer than
/// [`SHORT_SECTION`] lines under it there while its section runs on.
fn orphan_headings(
    doc: &PagedDocument,
    pages: &[Page],
    marginal: &[(i64, String)],
    out: &mut Vec<Offence>,
) {
    let all = headings(doc);
    for &(n, x, y) in &all {
        let Some(page) = pages.get(n - 1) else {
            continue;
        };
        // The heading's own lines: the runs from its corner down while they keep its size.
        let mut own: Vec<&Run> = page
            .runs
            .iter()
            .filter(|r| r.bbox.x0 >= x - 2.0 && r.bbox.x0 <= x + 12.0 && r.bbox.y1 > y - 1.0)
            .collect();
        own.sort_by(|a, b| a.bbox.y0.total_cmp(&b.bbox.y0));
        // A heading that prints nothing where it stands (one kept for the outline only) has no lines.
        let Some(first) = own.first() else { continue };
        if first.bbox.y0 > y + first.size * 2.0 {
            continue;
        }
        let size = first.size;
        let mut bottom = first.inks[0].base.1;
        for r in &own[1..] {
            let base = r.inks[0].base.1;
            if (r.size - size).abs() < 0.1 && base - bottom < size * 1.6 {
                bottom = bottom.max(base);
            } else if base - bottom >= size * 1.6 {
                break;
            }
        }
        let column = (x - 2.0, first.bbox.x1.max(x + 30.0));
        let below = page.runs.iter().any(|r| {
            let base = r.inks[0].base.1;
            base > bottom + 1.0
                && r.bbox.y0 < bottom + size * 3.5
                && r.bbox.x1 > column.0
                && r.bbox.x0 < column.1
                && !marginal.contains(&row_key(r))
        });
        let later = pages[n..].iter().any(|p| !p.runs.is_empty())
            || page.runs.iter().any(|r| r.bbox.y0 > bottom + size * 3.5);
        if !below && later {
            out.push(offence(
                n,
                (x, y),
                Fault::Waste,
                "a heading alone at the foot of its page or column".into(),
                &first.text,
            ));
            continue;
        }
        if !later {
            continue;
        }
        // A heading with one or two lines under it at the foot of its column, its section running on
        // in the next column or page: the reader turns the page after two lines.
        let half = page.width / 2.0;
        let right = x >= half - 1.0;
        let in_column = |rx: f64| {
            if right {
                rx >= half - 1.0
            } else {
                rx < half - 1.0
            }
        };
        // The next heading of the same column on this page ends the section here.
        let next_here = all
            .iter()
            .filter(|&&(m, hx, hy)| m == n && hy > y + 1.0 && in_column(hx))
            .map(|&(_, _, hy)| hy)
            .fold(f64::INFINITY, f64::min);
        if next_here.is_finite() {
            continue;
        }
        let mut bases: Vec<f64> = page
            .runs
            .iter()
            .filter(|r| in_column(r.bbox.x0) && !marginal.contains(&row_key(r)))
            .map(|r| r.inks[0].base.1)
            .filter(|&b| b > bottom + 1.0)
            .collect();
        bases.sort_by(f64::total_cmp);
        bases.dedup_by(|a, b| (*a - *b).abs() < 2.0);
        if !(1..=SHORT_SECTION - 1).contains(&bases.len()) {
            continue;
        }
        // The section ends with those lines when the next heading in reading order opens the next
        // column or page (nothing of the body above it there but its kicker).
        let ended = headings_after(&all, n, x, y).is_some_and(|(m, hx, hy)| {
            pages.get(m - 1).is_some_and(|p| {
                let other = m != n || (hx >= half - 1.0) != right;
                let p_half = p.width / 2.0;
                let p_right = hx >= p_half - 1.0;
                other
                    && !p.runs.iter().any(|r| {
                        let rx = r.bbox.x0;
                        (if p_right {
                            rx >= p_half - 1.0
                        } else {
                            rx < p_half - 1.0
                        }) && r.inks[0].base.1 < hy - KICKER
                            && !marginal.contains(&row_key(r))
                    })
            })
        });
        if !ended {
            out.push(offence(
                n,
                (x, y),
                Fault::Waste,
                format!(
                    "a heading with only {} line{} under it at the foot of its page or column (at least {SHORT_SECTION})",
                    bases.len(),
                    if bases.len() == 1 { "" } else { "s" }
                ),
                &first.text,
            ));
        }
    }
}

/// A heading at a column's foot keeps at least this many lines of its section under it.
pub const SHORT_SECTION: usize = 3;
/// How far above a heading its own furniture may print (a chapter opener's kicker), in points.
const KICKER: f64 = 40.0;

/// The heading that follows (`n`, `x`, `y`) in reading order: page, then column, then height.
fn headings_after(
    all: &[(usize, f64, f64)],
    n: usize,
    x: f64,
    y: f64,
) -> Option<(usize, f64, f64)> {
    let i = all.iter().position(|&h| h == (n, x, y))?;
    all.get(i + 1).copied()
}

/// Send a document's offences to `sink`, each as an [`Event::PageFault`] line `kind: file p. N at X × Y
/// mm: fault: what: “text”`; `name` maps a page of the document to its file and page in that file. The
/// caller asked for them with [`Sink::checks_pages`]; a front that lists them sorts them (documents are
/// typeset on several threads).
pub fn report(sink: &dyn Sink, offences: Vec<Offence>, name: impl Fn(usize) -> (String, usize)) {
    for o in offences {
        let (file, page) = name(o.page);
        sink.event(Event::PageFault(format!(
            "{file} {}",
            Offence { page, ..o }
        )));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_segment_cuts_a_rectangle_only_when_it_crosses_it() {
        let r = Rect {
            x0: 0.0,
            y0: 0.0,
            x1: 10.0,
            y1: 10.0,
        };
        assert!(r.cut_by((-5.0, 5.0), (15.0, 5.0)));
        assert!(r.cut_by((5.0, -5.0), (5.0, 2.0)));
        assert!(!r.cut_by((-5.0, 11.0), (15.0, 11.0)));
        assert!(!r.cut_by((11.0, -5.0), (11.0, 15.0)));
        assert!(!r.cut_by((-5.0, 5.0), (-1.0, 5.0)));
    }

    #[test]
    fn offences_read_as_place_fault_and_text() {
        let o = offence(
            3,
            (72.0, 144.0),
            Fault::Legibility,
            "5.0 pt text".into(),
            "fine\nprint",
        );
        assert_eq!(
            o.to_string(),
            "p. 3 at 25.4 × 50.8 mm: legibility: 5.0 pt text: “fine print”"
        );
    }
}
