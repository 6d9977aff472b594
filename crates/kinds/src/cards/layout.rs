//! Card imposition, computed exactly in Rust: card sizes, lengths as the user writes them, the grid of
//! cards on a sheet, where each front and its back land (mirrored for the duplex mode), and the crop marks.
//! Every length is a whole number of micrometres (`i64`), so a grid that fits is decided without rounding;
//! the template gets millimetres (`µm / 1000`) and only draws.

use serde::Serialize;

use crate::error::{CardSizeFault, Fit, Problem};
use blockprint_content::error::Result;
use blockprint_render::Paper;

/// Micrometres in one millimetre and in one inch.
pub const MM: i64 = 1_000;
pub const INCH: i64 = 25_400;

/// A card's trim size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CardSize {
    /// `poker`, `bridge`, `tarot`, `mini`, or `63x88mm` as written.
    pub name: String,
    pub w: i64,
    pub h: i64,
}

/// The named card sizes. Poker, bridge and mini are the US standards (2.5 × 3.5 in, 2.25 × 3.5 in,
/// 1.75 × 2.5 in), which print services quote in inches and people round to 63 × 88, 57 × 89 and 44 × 63 mm;
/// tarot is 70 × 120 mm.
pub const SIZES: [(&str, i64, i64); 4] = [
    ("poker", 5 * INCH / 2, 7 * INCH / 2),
    ("bridge", 9 * INCH / 4, 7 * INCH / 2),
    ("tarot", 70 * MM, 120 * MM),
    ("mini", 7 * INCH / 4, 5 * INCH / 2),
];

impl CardSize {
    /// The default size: poker.
    pub const fn poker() -> CardSize {
        CardSize {
            name: String::new(),
            w: 5 * INCH / 2,
            h: 7 * INCH / 2,
        }
    }

    /// The name shown to people (`poker` for the default).
    pub fn label(&self) -> &str {
        if self.name.is_empty() {
            "poker"
        } else {
            &self.name
        }
    }

    /// `poker|bridge|tarot|mini` or `WxH` with a unit (`63x88mm`, `2.5x3.5in`; no unit means mm).
    pub fn parse(s: &str) -> Result<CardSize> {
        let t = s.trim().to_ascii_lowercase();
        if let Some((name, w, h)) = SIZES.iter().find(|(n, ..)| *n == t) {
            return Ok(CardSize {
                name: (*name).to_owned(),
                w: *w,
                h: *h,
            });
        }
        let (unit, body) = if let Some(b) = t.strip_suffix("mm") {
            (MM, b)
        } else if let Some(b) = t.strip_suffix("in") {
            (INCH, b)
        } else {
            (MM, t.as_str())
        };
        let bad = |fault: CardSizeFault| -> blockprint_content::error::Error {
            Problem::CardSize {
                given: s.to_owned(),
                fault,
            }
            .into()
        };
        let Some((w, h)) = body.split_once(['x', '×']) else {
            return Err(bad(CardSizeFault::Shape));
        };
        let side = |v: &str| {
            decimal(v.trim(), unit).ok_or_else(|| bad(CardSizeFault::NotLength(v.trim().into())))
        };
        let (w, h) = (side(w)?, side(h)?);
        if w < 20 * MM || h < 20 * MM || w > 400 * MM || h > 400 * MM {
            return Err(bad(CardSizeFault::Range));
        }
        Ok(CardSize {
            name: format!("{}x{}mm", mm(w), mm(h)),
            w,
            h,
        })
    }
}

/// A non-negative decimal number (at most 6 decimals) times `unit` µm, rounded to the nearest µm.
fn decimal(s: &str, unit: i64) -> Option<i64> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    if (int.is_empty() && frac.is_empty())
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 6
        || int.len() > 6
    {
        return None;
    }
    let scale = 10i64.pow(frac.len() as u32);
    let n: i64 = format!("{int}{frac}").parse().ok()?;
    // Round half up: (n * unit + scale/2) / scale.
    Some((n * unit + scale / 2) / scale)
}

/// A length as written on the command line: `0`, `3mm`, `0.125in`, `5` (mm), `9pt`; negative only
/// when `signed`.
pub fn parse_length(s: &str, signed: bool) -> Option<i64> {
    let t = s.trim().to_ascii_lowercase();
    let (neg, t) = match t.strip_prefix('-') {
        Some(rest) if signed => (true, rest.to_owned()),
        Some(_) => return None,
        None => (false, t.clone()),
    };
    let v = if let Some(b) = t.strip_suffix("mm") {
        decimal(b.trim(), MM)?
    } else if let Some(b) = t.strip_suffix("in") {
        decimal(b.trim(), INCH)?
    } else if let Some(b) = t.strip_suffix("pt") {
        // 1 pt = 25400/72 µm.
        let um = decimal(b.trim(), INCH)?;
        (um + 36) / 72
    } else {
        decimal(&t, MM)?
    };
    Some(if neg { -v } else { v })
}

/// Millimetres for people: `3`, `3.175`, `63.5`.
pub fn mm(um: i64) -> String {
    let sign = if um < 0 { "-" } else { "" };
    let a = um.abs();
    let (i, f) = (a / MM, a % MM);
    if f == 0 {
        format!("{sign}{i}")
    } else {
        let frac = format!("{f:03}");
        format!("{sign}{i}.{}", frac.trim_end_matches('0'))
    }
}

/// Millimetres for the template (a JSON number).
pub fn mm_f(um: i64) -> f64 {
    um as f64 / MM as f64
}

/// Paper size in µm (portrait).
pub fn paper_size(p: Paper) -> (i64, i64) {
    match p {
        Paper::A4 => (210 * MM, 297 * MM),
        Paper::Letter => (17 * INCH / 2, 11 * INCH),
        Paper::A5 => (148 * MM, 210 * MM),
        Paper::UsTrade => (6 * INCH, 9 * INCH),
    }
}

/// Which way the sheet turns over in the printer.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Duplex {
    /// Flip on the long edge: the backs' columns are mirrored.
    Long,
    /// Flip on the short edge: the backs' rows are mirrored.
    Short,
    /// One-sided printing: backs stand where their fronts stand.
    None,
}

impl Duplex {
    /// The `/ViewerPreferences /Duplex` name that asks a viewer's print dialog for this mode.
    pub fn pdf_name(self) -> &'static str {
        match self {
            Duplex::Long => "DuplexFlipLongEdge",
            Duplex::Short => "DuplexFlipShortEdge",
            Duplex::None => "Simplex",
        }
    }
}

/// Everything that decides where cards go on a sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Sheet {
    pub paper: Paper,
    pub card: CardSize,
    pub gutter: i64,
    pub bleed: i64,
    pub margin: i64,
    /// Columns × rows asked for; `None` for as many as fit.
    pub grid: Option<(u32, u32)>,
    pub duplex: Duplex,
    /// Shift of every back, right and down, in µm (`--back-offset`).
    pub back_offset: (i64, i64),
}

/// A card's place on a page: the top-left corner of its trim box, from the page's top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Slot {
    pub x: i64,
    pub y: i64,
}

/// A crop mark: a line from (x1, y1) to (x2, y2), horizontal or vertical.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Mark {
    pub x1: i64,
    pub y1: i64,
    pub x2: i64,
    pub y2: i64,
}

/// The grid on one side of a sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Grid {
    pub cols: u32,
    pub rows: u32,
    pub page_w: i64,
    pub page_h: i64,
    /// Front slots in reading order (row by row, left to right).
    pub fronts: Vec<Slot>,
    /// The back of front slot `k` is `backs[k]` on the following page.
    pub backs: Vec<Slot>,
    pub front_marks: Vec<Mark>,
    pub back_marks: Vec<Mark>,
    /// The printer margin the grid was fitted inside (µm): crop marks reach past it.
    #[serde(skip)]
    pub margin: i64,
}

/// How far crop marks stop short of the printed area (or less, when the margin is narrower).
pub const MARK_GAP: i64 = 2 * MM;
/// How much of a crop mark prints at least: the part of it inside the printer margin is lost.
pub const MARK_PRINTS: i64 = MM;

/// How far a crop mark stops short of the printed area across a margin `space` µm wide, on a printer that
/// cannot print the outer `margin` µm: [`MARK_GAP`], less where that would leave under [`MARK_PRINTS`] of
/// the mark printable (never less than nothing), and never more than half the space.
pub fn mark_gap(space: i64, margin: i64) -> i64 {
    MARK_GAP
        .min(space / 2)
        .min((space - margin - MARK_PRINTS).max(0))
}

impl Sheet {
    fn cell(&self) -> (i64, i64) {
        (self.card.w + 2 * self.bleed, self.card.h + 2 * self.bleed)
    }

    fn block(&self, cols: u32, rows: u32) -> (i64, i64) {
        let (cw, ch) = self.cell();
        (
            i64::from(cols) * cw + i64::from(cols.saturating_sub(1)) * self.gutter,
            i64::from(rows) * ch + i64::from(rows.saturating_sub(1)) * self.gutter,
        )
    }

    /// The largest grid that fits inside the printer margins (0 × 0 when not one card does).
    pub fn largest(&self) -> (u32, u32) {
        let (pw, ph) = paper_size(self.paper);
        let (cw, ch) = self.cell();
        let fit = |avail: i64, cell: i64| {
            if avail < cell {
                0
            } else {
                u32::try_from((avail + self.gutter) / (cell + self.gutter)).unwrap_or(0)
            }
        };
        (fit(pw - 2 * self.margin, cw), fit(ph - 2 * self.margin, ch))
    }

    /// Where every card goes, or a usage message naming what does not fit and the largest grid that does.
    pub fn grid(&self) -> Result<Grid> {
        let (pw, ph) = paper_size(self.paper);
        let (avail_w, avail_h) = (pw - 2 * self.margin, ph - 2 * self.margin);
        let (fc, fr) = self.largest();
        let (cols, rows) = self.grid.unwrap_or((fc, fr));
        let (bw, bh) = self.block(cols, rows);
        if cols == 0 || rows == 0 || bw > avail_w || bh > avail_h {
            let (need_w, need_h) = if self.grid.is_some() {
                (bw, bh)
            } else {
                self.cell()
            };
            return Err(Problem::DoesNotFit(Box::new(Fit {
                grid: self.grid,
                card: self.card.label().to_owned(),
                card_w: self.card.w,
                card_h: self.card.h,
                bleed: self.bleed,
                gutter: self.gutter,
                need_w,
                need_h,
                paper: self.paper.name().to_owned(),
                margin: self.margin,
                room_w: avail_w,
                room_h: avail_h,
                largest: (fc, fr),
            }))
            .into());
        }
        let (cw, ch) = self.cell();
        let x0 = (pw - bw) / 2;
        let y0 = (ph - bh) / 2;
        let mut fronts = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                fronts.push(Slot {
                    x: x0 + i64::from(c) * (cw + self.gutter) + self.bleed,
                    y: y0 + i64::from(r) * (ch + self.gutter) + self.bleed,
                });
            }
        }
        let (dx, dy) = self.back_offset;
        let backs: Vec<Slot> = fronts
            .iter()
            .map(|s| {
                let (x, y) = self.mirror(s.x, s.y, self.card.w, self.card.h);
                Slot {
                    x: x + dx,
                    y: y + dy,
                }
            })
            .collect();
        let front_marks = marks(&fronts, &self.card, self.bleed, pw, ph, self.margin);
        let back_marks = marks(&backs, &self.card, self.bleed, pw, ph, self.margin);
        Ok(Grid {
            cols,
            rows,
            page_w: pw,
            page_h: ph,
            fronts,
            backs,
            front_marks,
            back_marks,
            margin: self.margin,
        })
    }

    /// Where a box of `w × h` at (x, y) on a front lands on the back side.
    pub fn mirror(&self, x: i64, y: i64, w: i64, h: i64) -> (i64, i64) {
        let (pw, ph) = paper_size(self.paper);
        match self.duplex {
            Duplex::Long => (pw - x - w, y),
            Duplex::Short => (x, ph - y - h),
            Duplex::None => (x, y),
        }
    }
}

/// Crop marks for cards at `slots`: one line on every trim edge, from the page edge to [`mark_gap`] short
/// of the printed block (cards plus bleed), on both sides of the block, so at least [`MARK_PRINTS`] of
/// each lies inside the printer `margin` when the margin leaves room. None crosses a card or its bleed.
pub fn marks(
    slots: &[Slot],
    card: &CardSize,
    bleed: i64,
    pw: i64,
    ph: i64,
    margin: i64,
) -> Vec<Mark> {
    marks_in(slots, slots, card, bleed, pw, ph, margin)
}

/// Crop marks for cards at `slots` on a sheet whose grid has the places `block`: the same lines as
/// [`marks`], stopping short of the whole grid's block rather than of the cards printed, so on a part-filled
/// sheet no mark runs through the empty places.
pub fn marks_in(
    slots: &[Slot],
    block: &[Slot],
    card: &CardSize,
    bleed: i64,
    pw: i64,
    ph: i64,
    margin: i64,
) -> Vec<Mark> {
    if slots.is_empty() {
        return Vec::new();
    }
    let extent = if block.is_empty() { slots } else { block };
    let left = extent.iter().map(|s| s.x).min().unwrap_or(0) - bleed;
    let right = extent.iter().map(|s| s.x + card.w).max().unwrap_or(0) + bleed;
    let top = extent.iter().map(|s| s.y).min().unwrap_or(0) - bleed;
    let bottom = extent.iter().map(|s| s.y + card.h).max().unwrap_or(0) + bleed;
    let mut xs: Vec<i64> = slots.iter().flat_map(|s| [s.x, s.x + card.w]).collect();
    let mut ys: Vec<i64> = slots.iter().flat_map(|s| [s.y, s.y + card.h]).collect();
    xs.sort_unstable();
    xs.dedup();
    ys.sort_unstable();
    ys.dedup();
    let gap = |space: i64| mark_gap(space, margin);
    let mut out = Vec::new();
    for &x in &xs {
        if top > 0 {
            out.push(Mark {
                x1: x,
                y1: 0,
                x2: x,
                y2: top - gap(top),
            });
        }
        if bottom < ph {
            out.push(Mark {
                x1: x,
                y1: bottom + gap(ph - bottom),
                x2: x,
                y2: ph,
            });
        }
    }
    for &y in &ys {
        if left > 0 {
            out.push(Mark {
                x1: 0,
                y1: y,
                x2: left - gap(left),
                y2: y,
            });
        }
        if right < pw {
            out.push(Mark {
                x1: right + gap(pw - right),
                y1: y,
                x2: pw,
                y2: y,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(paper: Paper, bleed: i64, gutter: i64) -> Sheet {
        Sheet {
            paper,
            card: CardSize::poker(),
            gutter,
            bleed,
            margin: 5 * MM,
            grid: None,
            duplex: Duplex::Long,
            back_offset: (0, 0),
        }
    }

    #[test]
    fn nine_poker_cards_on_a4_and_letter() {
        for p in [Paper::A4, Paper::Letter] {
            let g = sheet(p, 0, 0).grid().unwrap();
            assert_eq!((g.cols, g.rows), (3, 3), "{p:?}");
        }
        // A4, no bleed: the 190.5 × 266.7 mm block is centred.
        let g = sheet(Paper::A4, 0, 0).grid().unwrap();
        assert_eq!(
            g.fronts[0],
            Slot {
                x: 9_750,
                y: 15_150
            }
        );
        assert_eq!(
            g.fronts[4],
            Slot {
                x: 9_750 + 63_500,
                y: 15_150 + 88_900
            }
        );
    }

    #[test]
    fn lengths_parse_exactly() {
        assert_eq!(parse_length("0", false), Some(0));
        assert_eq!(parse_length("3mm", false), Some(3_000));
        assert_eq!(parse_length("0.125in", false), Some(3_175));
        assert_eq!(parse_length("-1.5mm", true), Some(-1_500));
        assert_eq!(parse_length("-1.5mm", false), None);
        assert_eq!(parse_length("3 mm", false), Some(3_000));
        assert_eq!(parse_length("abc", false), None);
        assert_eq!(parse_length("", false), None);
        assert_eq!(CardSize::parse("63x88").unwrap().w, 63_000);
        assert_eq!(CardSize::parse("2.5x3.5in").unwrap().h, 88_900);
        assert_eq!(CardSize::parse("Tarot").unwrap().h, 120_000);
        assert!(CardSize::parse("63").is_err());
        assert!(CardSize::parse("5x5mm").is_err());
    }

    #[test]
    fn a_grid_that_does_not_fit_names_the_largest_that_does() {
        let mut s = sheet(Paper::A4, 3 * MM, 0);
        s.grid = Some((3, 3));
        let e = s.grid().unwrap_err().to_string();
        assert!(e.contains("the largest grid that fits is 2×3"), "{e}");
        assert_eq!(s.largest(), (2, 3));
    }

    #[test]
    fn backs_mirror_columns_or_rows() {
        let mut s = sheet(Paper::A4, 0, 3 * MM);
        let g = s.grid().unwrap();
        // Long edge: the back of column 0 is in column 2, same row.
        assert_eq!(g.backs[0], g.fronts[2]);
        assert_eq!(g.backs[3], g.fronts[5]);
        s.duplex = Duplex::Short;
        let g = s.grid().unwrap();
        assert_eq!(g.backs[0], g.fronts[6]);
        s.duplex = Duplex::None;
        s.back_offset = (500, -250);
        let g = s.grid().unwrap();
        assert_eq!(
            g.backs[0],
            Slot {
                x: g.fronts[0].x + 500,
                y: g.fronts[0].y - 250
            }
        );
    }

    #[test]
    fn marks_stay_outside_every_card_and_its_bleed() {
        for (bleed, gutter) in [(0, 0), (0, 3 * MM), (3 * MM, 0), (3_175, 3 * MM)] {
            for p in [Paper::A4, Paper::Letter] {
                let mut s = sheet(p, bleed, gutter);
                s.margin = MM;
                let g = s.grid().unwrap();
                assert!(!g.front_marks.is_empty());
                for m in &g.front_marks {
                    for c in &g.fronts {
                        let (l, t) = (c.x - bleed, c.y - bleed);
                        let (r, b) = (c.x + s.card.w + bleed, c.y + s.card.h + bleed);
                        let inside = m.x1.max(m.x2) > l
                            && m.x1.min(m.x2) < r
                            && m.y1.max(m.y2) > t
                            && m.y1.min(m.y2) < b;
                        assert!(!inside, "{m:?} crosses {c:?}");
                    }
                    assert!(
                        m.x1 == 0 || m.y1 == 0 || m.x2 == g.page_w || m.y2 == g.page_h,
                        "{m:?} reaches the edge"
                    );
                }
            }
        }
    }
}
