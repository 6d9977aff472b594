//! Print-shop geometry: what a page must give the printer and the guillotine, beyond what a reader sees.
//!
//! - **crop marks print**: a line that reaches into the printer margin (the band along the paper's edge a
//!   printer cannot print, 5 mm unless the document declares otherwise) keeps at least [`MARK_PRINTS`] of its
//!   length inside the printable area, or nothing of it reaches the paper;
//! - **colour and the cut**: a card's colour either runs at least [`BLEED_MIN`] past its cut (bleed) or stops
//!   at least [`FRAME_MIN`] inside it (framed by paper), so a cut that wanders never leaves a sliver;
//! - **text and the cut**: text on a card stays at least [`CARD_SAFE`] inside its cut;
//! - **text and the printer margin**: no text (a footer, a running head) inside the printer margin;
//! - **drawings and the printer margin**: no outline drawn on the paper (a stamp's frame, a box's border)
//!   inside the printer margin, where the printer would cut it off; a shape that runs off the paper (bleed)
//!   and a crop mark (the rule above) are not outlines;
//! - **half-empty card sheets**: a sheet of cards is at least half full (cards, or what shares the sheet).
//!
//! A template declares its printer margin with `#metadata((margin: 5mm)) <bp-print>` (the card kinds pass
//! their `--printer-margin`; a page for a print service, printed to its edge, declares `0mm`).

use typst::foundations::{Label, Selector, Value};
use typst::introspection::{Introspector, MetadataElem};
use typst::utils::PicoStr;
use typst_layout::PagedDocument;

use super::{Fault, MM, Offence, Page, Rect, fill, offence};

/// The printer margin a document has unless it declares one (points): 5 mm, what the card kinds assume.
pub const PRINTER_MARGIN: f64 = 5.0 * MM;
/// How much of a crop mark must print (points).
pub const MARK_PRINTS: f64 = 1.0 * MM;
/// Colour that reaches a card's cut runs at least this far past it (points).
pub const BLEED_MIN: f64 = 1.0 * MM;
/// Colour that does not bleed stops at least this far inside the cut (points): the safe area.
pub const FRAME_MIN: f64 = 3.0 * MM;
/// Text on a card stays this far inside its cut (points).
pub const CARD_SAFE: f64 = 3.0 * MM;
/// A sheet of cards is at least this full.
pub const CARD_FILL: f64 = 0.5;
/// Lengths within this of a limit pass (points): rounding of µm to typst's lengths.
const SLACK: f64 = 0.02;
/// Colour counts as a card's background along an edge when it runs along at least this share of it (a
/// dash or a dot near the cut is not a background).
const ALONG: f64 = 0.25;

/// The printer margin `doc` declares (`<bp-print>`), in points, or [`PRINTER_MARGIN`].
pub fn printer_margin(doc: &PagedDocument) -> f64 {
    let Some(label) = Label::new(PicoStr::intern("bp-print")) else {
        return PRINTER_MARGIN;
    };
    doc.introspector()
        .query(&Selector::Label(label))
        .iter()
        .find_map(|c| {
            let m = c.to_packed::<MetadataElem>()?;
            let Value::Dict(d) = &m.value else {
                return None;
            };
            match d.get("margin").ok()? {
                Value::Length(l) => Some(l.abs.to_pt()),
                _ => None,
            }
        })
        .unwrap_or(PRINTER_MARGIN)
}

/// The part of the segment from `a` to `b` inside `r` (Liang–Barsky), as a length.
fn length_inside(r: Rect, a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (p, q) in [
        (-dx, a.0 - r.x0),
        (dx, r.x1 - a.0),
        (-dy, a.1 - r.y0),
        (dy, r.y1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return 0.0;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    if t1 <= t0 {
        0.0
    } else {
        (t1 - t0) * dx.hypot(dy)
    }
}

/// Every print-shop rule over one page.
pub(super) fn check(n: usize, page: &Page, margin: f64, cards_page: bool, out: &mut Vec<Offence>) {
    marks(n, page, margin, out);
    text_in_margin(n, page, margin, out);
    outlines_in_margin(n, page, margin, out);
    colour_at_cut(n, page, out);
    text_near_cut(n, page, out);
    if cards_page {
        half_empty(n, page, out);
    }
}

fn paper(page: &Page) -> Rect {
    Rect {
        x0: 0.0,
        y0: 0.0,
        x1: page.width,
        y1: page.height,
    }
}

/// A line that reaches into the printer margin but prints less than [`MARK_PRINTS`] of itself.
fn marks(n: usize, page: &Page, margin: f64, out: &mut Vec<Offence>) {
    if margin <= 0.0 {
        return;
    }
    let printable = paper(page).shrink(margin);
    for s in page.segments.iter().filter(|s| s.line) {
        let whole = (s.b.0 - s.a.0).hypot(s.b.1 - s.a.1);
        if whole <= 0.0 {
            continue;
        }
        let prints = length_inside(printable, s.a, s.b);
        if prints >= whole - SLACK || prints >= MARK_PRINTS - SLACK {
            continue;
        }
        out.push(offence(
            n,
            (s.a.0.min(s.b.0), s.a.1.min(s.b.1)),
            Fault::Print,
            format!(
                "a line {:.1} mm long prints {:.1} mm inside the {:.0} mm printer margin (at least 1 mm must print)",
                whole / MM,
                prints / MM,
                margin / MM
            ),
            "",
        ));
    }
}

/// Text inside the printer margin (text nearer the edge than [`super::EDGE`] is an overflow already).
fn text_in_margin(n: usize, page: &Page, margin: f64, out: &mut Vec<Offence>) {
    if margin <= super::EDGE {
        return;
    }
    for run in &page.runs {
        let b = run.bbox;
        let gap = [b.x0, b.y0, page.width - b.x1, page.height - b.y1]
            .into_iter()
            .fold(f64::INFINITY, f64::min);
        if gap >= super::EDGE && gap < margin - SLACK {
            out.push(offence(
                n,
                (b.x0, b.y0),
                Fault::Overflow,
                format!(
                    "text {:.1} mm from the paper's edge, inside the {:.0} mm printer margin",
                    gap / MM,
                    margin / MM
                ),
                &run.text,
            ));
        }
    }
}

/// The outline of a drawn shape (a stamp's frame, a box's border: edges of shapes, not lines of their own)
/// that lies on the paper but inside the printer margin. Edges that touch each other are one shape and one
/// offence, at its nearest point to the edge.
fn outlines_in_margin(n: usize, page: &Page, margin: f64, out: &mut Vec<Offence>) {
    if margin <= 0.0 {
        return;
    }
    let gap = |p: (f64, f64)| {
        [p.0, p.1, page.width - p.0, page.height - p.1]
            .into_iter()
            .fold(f64::INFINITY, f64::min)
    };
    let mut shapes: Vec<(Rect, f64)> = Vec::new();
    for s in page.segments.iter().filter(|s| !s.line) {
        let (ga, gb) = (gap(s.a), gap(s.b));
        // Off the paper: a bleed, not a drawing the printer cuts.
        if ga < 0.0 || gb < 0.0 {
            continue;
        }
        let near = ga.min(gb);
        if near >= margin - SLACK {
            continue;
        }
        let r = Rect::around([s.a, s.b]);
        match shapes.iter_mut().find(|(o, _)| {
            let (w, h) = o.overlap(r);
            w >= -0.5 && h >= -0.5
        }) {
            Some((o, g)) => {
                *o = Rect {
                    x0: o.x0.min(r.x0),
                    y0: o.y0.min(r.y0),
                    x1: o.x1.max(r.x1),
                    y1: o.y1.max(r.y1),
                };
                *g = g.min(near);
            }
            None => shapes.push((r, near)),
        }
    }
    for (r, g) in shapes {
        out.push(offence(
            n,
            (r.x0, r.y0),
            Fault::Print,
            format!(
                "a drawn outline {:.1} mm from the paper's edge, inside the {:.0} mm printer margin",
                g / MM,
                margin / MM
            ),
            "",
        ));
    }
}

/// The trim a rectangle lies on (the one it overlaps most), if any.
fn trim_of(page: &Page, r: Rect) -> Option<Rect> {
    page.trims
        .iter()
        .copied()
        .map(|t| {
            let (ox, oy) = r.overlap(t);
            (t, ox.max(0.0) * oy.max(0.0))
        })
        .filter(|(_, a)| *a > 0.0)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(t, _)| t)
}

/// A card's colour that ends near its cut: neither bleeding [`BLEED_MIN`] past it nor stopping
/// [`FRAME_MIN`] inside it, where it runs along at least [`ALONG`] of the edge. One offence per card.
fn colour_at_cut(n: usize, page: &Page, out: &mut Vec<Offence>) {
    let mut reported: Vec<Rect> = Vec::new();
    for cover in page.covers.iter().filter(|c| c.colour) {
        let c = cover.rect;
        let Some(t) = trim_of(page, c) else { continue };
        if reported.contains(&t) {
            continue;
        }
        let (ox, oy) = c.overlap(t);
        // Along each edge: how far inside the cut the colour stops (negative: past it), when the colour
        // runs along that edge for more than a millimetre.
        let sides = [
            (c.x0 - t.x0, oy / t.height()),
            (t.x1 - c.x1, oy / t.height()),
            (c.y0 - t.y0, ox / t.width()),
            (t.y1 - c.y1, ox / t.width()),
        ];
        let near = sides
            .iter()
            .filter(|(_, along)| *along >= ALONG)
            .map(|(d, _)| *d)
            .filter(|d| *d > -BLEED_MIN + SLACK && *d < FRAME_MIN - SLACK)
            .fold(None, |m: Option<f64>, d| {
                Some(m.map_or(d, |m| if d.abs() < m.abs() { d } else { m }))
            });
        if let Some(d) = near {
            reported.push(t);
            let what = if d <= SLACK {
                format!(
                    "colour runs {:.1} mm past the card's cut (bleed at least 1 mm, or frame it 3 mm inside)",
                    (-d).max(0.0) / MM
                )
            } else {
                format!(
                    "colour stops {:.1} mm inside the card's cut (bleed at least 1 mm, or frame it 3 mm inside)",
                    d / MM
                )
            };
            out.push(offence(n, (t.x0, t.y0), Fault::Print, what, ""));
        }
    }
}

/// Text on a card nearer its cut than [`CARD_SAFE`] (text across the cut is an overflow already).
fn text_near_cut(n: usize, page: &Page, out: &mut Vec<Offence>) {
    for run in &page.runs {
        let b = run.bbox;
        let Some(t) = page
            .trims
            .iter()
            .find(|t| t.contains(b.x0, b.y0) && t.contains(b.x1, b.y1))
        else {
            continue;
        };
        let gap = [b.x0 - t.x0, b.y0 - t.y0, t.x1 - b.x1, t.y1 - b.y1]
            .into_iter()
            .fold(f64::INFINITY, f64::min);
        // A glyph's ink may reach past its box by a hair (side bearings): as much as two glyphs may touch.
        if gap < CARD_SAFE - super::TOUCH {
            out.push(offence(
                n,
                (b.x0, b.y0),
                Fault::Overflow,
                format!(
                    "text {:.2} mm from the card's cut (at least 3 mm)",
                    gap / MM
                ),
                &run.text,
            ));
        }
    }
}

/// A sheet of cards less than half full.
fn half_empty(n: usize, page: &Page, out: &mut Vec<Offence>) {
    if page.trims.is_empty() {
        return;
    }
    let f = fill(page, true);
    if f < CARD_FILL {
        out.push(offence(
            n,
            (page.width / 2.0, page.height / 2.0),
            Fault::Waste,
            format!(
                "the card sheet is {:.0} % full (at least half: a smaller imposition, or share the sheet)",
                f * 100.0
            ),
            "",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_length_of_a_segment_inside_a_rectangle() {
        let r = Rect {
            x0: 0.0,
            y0: 0.0,
            x1: 10.0,
            y1: 10.0,
        };
        assert!((length_inside(r, (-5.0, 5.0), (15.0, 5.0)) - 10.0).abs() < 1e-9);
        assert!((length_inside(r, (5.0, -5.0), (5.0, 2.0)) - 2.0).abs() < 1e-9);
        assert_eq!(length_inside(r, (5.0, -5.0), (5.0, -1.0)), 0.0);
    }
}
