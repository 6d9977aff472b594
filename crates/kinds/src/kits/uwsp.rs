//! What the Urban World, Storypath and Block by Block chase kits share: every kit is a sheet document
//! (the kit's own template, `templates/kit-<game>/kit.typ`) plus card documents laid out by the card
//! engine of [`crate::cards`] (imposition, crop marks, backs) and printed through
//! `templates/kit-<game>/cards.typ`, which adds the kit's source and licence to every sheet of cards.

use blockprint_dice as dice;
use num_traits::Zero;

use crate::cards::faces::{Back, Block, Face, Reference};
use crate::cards::layout::{MARK_GAP, MM, mark_gap, mm_f};
use crate::cards::{self, Card, CardOptions, CardsData};
use crate::error::{Problem, invariant, json};
use crate::{Checked, Document, Kind, Request};
use blockprint_content::error::{Error, Result};
use blockprint_content::{EntryValue, Lookup};
use blockprint_dice::{self, BigRational};

/// The formats every kit makes.
pub const FORMATS: [blockprint_render::Format; 3] = [
    blockprint_render::Format::Pdf,
    blockprint_render::Format::Md,
    blockprint_render::Format::Json,
];

/// The papers the kit sheets and the card imposition are laid out for.
pub const PAPERS: [blockprint_render::Paper; 2] = [
    blockprint_render::Paper::A4,
    blockprint_render::Paper::Letter,
];

/// Content the kind needs but the content lacks (the checker names it first; this is the run-time guard).
pub fn missing(kind: &str, what: &str) -> Error {
    Problem::Needs {
        kind: kind.into(),
        what: what.into(),
    }
    .into()
}

/// The `about` of `game` as JSON (source, licence, fills, rulings), or an error naming the missing kit.
/// With `only`, just the fills and rulings whose id starts with one of those prefixes (a kit that prints
/// a few tables of a large game lists the fills of those, not of the whole game).
pub fn about(
    cx: &Checked,
    kind: &str,
    game: &str,
    only: Option<&[&str]>,
) -> Result<serde_json::Value> {
    let mut a =
        super::about(cx, game).ok_or_else(|| missing(kind, &format!("[[kit]] id = \"{game}\"")))?;
    if let Some(prefixes) = only {
        let keep = |id: &str| prefixes.iter().any(|p| id.starts_with(p));
        a.fills.retain(|f| keep(&f.id));
        a.rulings.retain(|r| keep(&r.id));
    }
    json("a kit's source and licence", &a)
}

/// A lookup's entries as `{key, value, note}` with smart quotes, for the templates.
pub fn entries(l: &Lookup) -> Vec<serde_json::Value> {
    l.entries
        .iter()
        .map(|e| {
            let value = match &e.value.value {
                EntryValue::Integer(n) => n.to_string(),
                EntryValue::Text(t) => String::from(t),
            };
            serde_json::json!({
                "key": String::from(&e.key.value),
                "value": value,
                "note": e.note.as_deref().map(String::from),
            })
        })
        .collect()
}

/// A lookup as the templates see it: title, headings, note and entries.
pub fn lookup_json(l: &Lookup) -> serde_json::Value {
    serde_json::json!({
        "id": l.id.value,
        "title": String::from(&l.title),
        "key": String::from(&l.key),
        "value": String::from(&l.value),
        "note": l.note.as_deref().map(String::from),
        "entries": entries(l),
    })
}

/// The exact distribution of a dice expression.
pub fn dist(expr: &str) -> Result<dice::Dist> {
    dice_dist(expr)
}

/// The exact distribution of dice the content gives, or [`Problem::Dice`] naming them.
pub(crate) fn dice_dist(expr: &str) -> Result<dice::Dist> {
    let bad = |message: String| -> Error {
        Problem::Dice {
            at: None,
            expr: expr.into(),
            message,
        }
        .into()
    };
    let e = dice::parse(expr).map_err(|e| bad(e.message))?;
    e.distribution().map_err(|e| bad(e.to_string()))
}

/// P(lo <= value <= hi) of a distribution; `None` bounds are open.
pub fn between(d: &dice::Dist, lo: Option<i64>, hi: Option<i64>) -> BigRational {
    let lo = lo.map(|v| BigRational::from_integer(v.into()));
    let hi = hi.map(|v| BigRational::from_integer(v.into()));
    d.outcomes()
        .into_iter()
        .filter(|(v, _)| lo.as_ref().is_none_or(|l| v >= l) && hi.as_ref().is_none_or(|h| v <= h))
        .fold(BigRational::zero(), |a, (_, p)| a + p)
}

/// Fractions with a denominator below this are short enough to print beside a percentage (`5/12`,
/// `7/216`); longer ones (`657/1000`, `31031/46656`) are printed as the percentage alone.
pub const SHORT_DENOMINATOR: u32 = 1000;

/// Odds as the kits' sheets print them: a whole percentage when exact (`30%`), else the reduced fraction
/// beside the percentage to one decimal when the fraction is short (`15/36` is printed `5/12 (41.7%)`),
/// else the percentage alone ([`pct`]).
pub fn odds(q: &BigRational) -> String {
    let hundred = q * BigRational::from_integer(100.into());
    if hundred.is_integer() {
        format!("{}%", hundred.to_integer())
    } else if q.denom() < &SHORT_DENOMINATOR.into() {
        format!("{} ({})", dice::fraction_reduced(q), pct(q))
    } else {
        pct(q)
    }
}

/// The percentage alone, one decimal (`41.7%`), for tight card cells. Exact 0 and 1 read `0%` and `100%`;
/// a chance that is neither but rounds to them reads `under 0.1%` or `over 99.9%`, never a false `0.0%`.
pub fn pct(q: &BigRational) -> String {
    if q.is_zero() {
        return "0%".into();
    }
    if q == &BigRational::from_integer(1.into()) {
        return "100%".into();
    }
    let p = dice::approx(&(q * BigRational::from_integer(100.into())));
    let s = format!("{p:.1}%");
    match s.as_str() {
        "0.0%" => "under 0.1%".into(),
        "100.0%" => "over 99.9%".into(),
        _ => s,
    }
}

pub use blockprint_dice::words::{count_words, dice_words, plain_dice, spoken_result};

/// A bold-led paragraph of a reference card.
pub fn text(lead: &str, body: &str) -> Block {
    Block::Text {
        lead: lead.into(),
        text: body.into(),
    }
}

/// A heading inside a reference card.
pub fn heading(t: &str) -> Block {
    Block::Heading { text: t.into() }
}

/// A bulleted list of (lead, text).
pub fn list(items: Vec<(String, String)>) -> Block {
    Block::List { items }
}

/// A table block.
pub fn table(columns: &[&str], widths: &[u32], rows: Vec<Vec<String>>) -> Block {
    Block::Table {
        columns: columns.iter().map(|c| (*c).to_owned()).collect(),
        widths: widths.to_vec(),
        rows,
    }
}

/// A reference card face.
pub fn card(title: &str, part: &str, blocks: Vec<Block>) -> Face {
    Face::Reference(Reference {
        title: title.into(),
        part: part.into(),
        blocks,
        write_in: false,
    })
}

/// The back every reference card of a kit shares.
pub fn back(title: &str, subtitle: &str) -> Face {
    Face::Back(Back {
        style: "reference".into(),
        title: title.into(),
        subtitle: subtitle.into(),
    })
}

/// A card document of a kit: `fronts` (each printed `copies[i]` times, default once) with one shared
/// back, imposed with the default card options on the request's paper, printed by `template` (a kit's
/// `cards.typ`, which adds the kit's source and licence to every page).
#[allow(clippy::too_many_arguments)]
pub fn card_document(
    cx: &Checked,
    req: &Request,
    stem: &str,
    title: &str,
    template: &str,
    mut faces: Vec<Face>,
    copies: &[usize],
    back_face: Face,
    about: &serde_json::Value,
) -> Result<Document> {
    let fronts = faces.len();
    faces.push(back_face);
    let mut list = Vec::new();
    for front in 0..fronts {
        for _ in 0..copies.get(front).copied().unwrap_or(1).max(1) {
            list.push(Card {
                front,
                back: fronts,
            });
        }
    }
    let opts = CardOptions::DEFAULT;
    opts.validate(req.paper)?;
    let layout = cards::impose(&opts, req.paper, &list)?;
    let data = CardsData {
        meta: crate::meta(cx, req),
        title: title.into(),
        faces,
        layout,
        markdown: serde_json::json!({}),
    };
    let mut data = json("a card sheet's data", &data)?;
    put(&mut data, "about", about.clone());
    kit_sheet(&mut data)?;
    Ok(Document::new(stem, template, title, data).audience(crate::Audience::Player))
}

/// Set `key` of a JSON object (documents' data are objects).
pub fn put(data: &mut serde_json::Value, key: &str, v: serde_json::Value) {
    if let Some(o) = data.as_object_mut() {
        o.insert(key.into(), v);
    }
}

/// A sheet document: the kit's own template with `data` (meta and `about` added).
pub fn sheet_document(
    cx: &Checked,
    req: &Request,
    stem: &str,
    title: &str,
    template: &str,
    data: serde_json::Value,
    about: &serde_json::Value,
) -> Result<Document> {
    let mut m = crate::meta(cx, req);
    m.insert("title".into(), title.into());
    m.insert("about".into(), about.clone());
    if let serde_json::Value::Object(o) = data {
        m.extend(o);
    }
    Ok(
        Document::new(stem, template, title, serde_json::Value::Object(m))
            .audience(crate::Audience::Gm),
    )
}

/// The print boxes and viewer preferences of a card document (the card engine's own finishing); a sheet
/// is kept as typst wrote it.
pub fn finish_pdf(doc: &Document, pdf: Vec<u8>) -> Result<Vec<u8>> {
    if doc.data.get("layout").is_some() {
        cards::DECK.finish_pdf(doc, pdf)
    } else {
        Ok(pdf)
    }
}

/// Refuse a paper the default card imposition cannot use, before anything is made (exit 2).
pub fn card_options_ok(req: &Request) -> Result<()> {
    CardOptions::DEFAULT.validate(req.paper)
}

// ---------- card sheets: crop marks and the footer ----------

/// On a kit's card sheets a crop mark runs this far out from where the card engine starts it (just
/// outside the cards), not on to the paper's edge: on a part-filled sheet a mark to the edge would cross
/// the empty rows, and short marks leave room for the footer.
pub const MARK_LEN: i64 = 5 * MM;
/// Footer text keeps this much more than the printer margin from the paper's edge: room for the
/// descenders of the last line (a band's edge is its lines' box, not their ink).
pub const FOOTER_EDGE: i64 = 700;
/// Footer text stays this far from the cards' trim (or bleed) and from any crop mark beside it.
pub const FOOTER_PAD: i64 = MM;
/// A band shallower than this cannot hold a line of 6 pt text.
pub const BAND_MIN: i64 = 3 * MM;

/// A place for a card sheet's footer: `cols` equal columns `col` mm wide and `gap` mm apart, `depth` mm
/// deep, whose top-left corner is at (`x`, `y`) mm on the page. A `turned` band runs up the left margin
/// and reads from bottom to top: its columns lie along the page's height, its depth across the margin,
/// and (`x`, `y`) is its top-left corner as printed (before turning it is the box's bottom-left).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Band {
    pub x: f64,
    pub y: f64,
    pub cols: u32,
    pub col: f64,
    pub gap: f64,
    pub depth: f64,
    pub turned: bool,
}

fn um_at(v: &serde_json::Value, key: &str) -> Result<i64> {
    v.get(key)
        .and_then(serde_json::Value::as_i64)
        .ok_or_else(|| invariant(format!("card layout data without `{key}`")))
}

/// Where the card engine's full sheet puts its cards: (left, top, right, bottom) of the trim edges in µm,
/// the columns' and rows' lefts and tops, and the page size.
struct Frame {
    page: (i64, i64),
    card: (i64, i64),
    bleed: i64,
    /// The printer margin: no footer text inside it.
    margin: i64,
    xs: Vec<i64>,
    ys: Vec<i64>,
}

fn frame(layout: &serde_json::Value) -> Result<Option<Frame>> {
    let um = &layout["um"];
    let Some(fronts) = um["grid"]["fronts"].as_array() else {
        return Ok(None);
    };
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for s in fronts {
        xs.push(um_at(s, "x")?);
        ys.push(um_at(s, "y")?);
    }
    xs.sort_unstable();
    xs.dedup();
    ys.sort_unstable();
    ys.dedup();
    if xs.is_empty() || ys.is_empty() {
        return Ok(None);
    }
    Ok(Some(Frame {
        page: (um_at(um, "page_w")?, um_at(um, "page_h")?),
        card: (um_at(um, "card_w")?, um_at(um, "card_h")?),
        bleed: um_at(um, "bleed")?,
        margin: (layout["printer_margin"].as_f64().unwrap_or(5.0) * 1000.0).round() as i64,
        xs,
        ys,
    }))
}

/// The footer bands of a full sheet, in the order a footer tries them: (1) one column right across the
/// sheet under the ends of the crop marks, (2) one column under each column of cards, between the crop
/// marks, (3) one column beside each row of cards up the left margin, turned. Bands too shallow for a line
/// are left out.
fn bands(f: &Frame) -> Vec<Band> {
    let ph = f.page.1;
    let edge = f.margin + FOOTER_EDGE;
    let (cw, ch) = f.card;
    let b = f.bleed;
    let (left, top) = (f.xs[0], f.ys[0]);
    let right = f.xs[f.xs.len() - 1] + cw;
    let bottom = f.ys[f.ys.len() - 1] + ch;
    // Columns between the marks: a card's width less the padding; the step from one card to the next
    // (bleed and gutter between) sets the gap.
    let step = |v: &[i64]| v.get(1).map_or(0, |s| s - v[0]);
    let cols = u32::try_from(f.xs.len()).unwrap_or(1);
    let rows = u32::try_from(f.ys.len()).unwrap_or(1);
    let col_w = cw - 2 * FOOTER_PAD;
    let row_h = ch - 2 * FOOTER_PAD;
    let mut out = Vec::new();
    let mut push = |x: i64, y: i64, n: u32, col: i64, gap: i64, depth: i64, turned: bool| {
        if depth >= BAND_MIN && col > 0 {
            out.push(Band {
                x: mm_f(x),
                y: mm_f(y),
                cols: n,
                col: mm_f(col),
                gap: mm_f(gap),
                depth: mm_f(depth),
                turned,
            });
        }
    };
    // (1) Under the marks, as wide as the cards.
    let under = bottom + b + mark_gap(ph - bottom - b, f.margin) + MARK_LEN + FOOTER_PAD;
    push(left, under, 1, right - left, 0, ph - edge - under, false);
    // (2) Between the marks under the cards.
    let y2 = bottom + b + FOOTER_PAD;
    push(
        left + FOOTER_PAD,
        y2,
        cols,
        col_w,
        step(&f.xs) - col_w,
        ph - edge - y2,
        false,
    );
    // (3) Up the left margin, beside the rows.
    let x3 = edge;
    push(
        x3,
        top + FOOTER_PAD,
        rows,
        row_h,
        step(&f.ys) - row_h,
        left - b - FOOTER_PAD - x3,
        true,
    );
    out
}

/// A crop mark cut down to [`MARK_LEN`], keeping the end nearest the cards (marks are horizontal or
/// vertical lines from the paper's edge towards the cards).
fn short_mark(m: [i64; 4], page: (i64, i64)) -> [i64; 4] {
    let [mut x1, mut y1, mut x2, mut y2] = m;
    if y1 == y2 {
        if x1 == 0 && x2 - x1 > MARK_LEN {
            x1 = x2 - MARK_LEN;
        } else if x2 == page.0 && x2 - x1 > MARK_LEN {
            x2 = x1 + MARK_LEN;
        }
    } else if x1 == x2 {
        if y1 == 0 && y2 - y1 > MARK_LEN {
            y1 = y2 - MARK_LEN;
        } else if y2 == page.1 && y2 - y1 > MARK_LEN {
            y2 = y1 + MARK_LEN;
        }
    }
    [x1, y1, x2, y2]
}

/// How far a mark (a horizontal or vertical segment) stays from a card's box, in µm: the larger of the
/// horizontal and vertical gaps (0 when they touch).
fn gap_to(m: &[i64; 4], c: &[i64; 4]) -> i64 {
    let (x0, x1) = (m[0].min(m[2]), m[0].max(m[2]));
    let (y0, y1) = (m[1].min(m[3]), m[1].max(m[3]));
    let dx = (c[0] - x1).max(x0 - c[2]).max(0);
    let dy = (c[1] - y1).max(y0 - c[3]).max(0);
    dx.max(dy)
}

/// A kit's card sheet as printed: every crop mark shortened to [`MARK_LEN`] and kept only beside a card
/// of its page (the card engine marks the block of a part-filled sheet as if it were full: a mark under
/// an empty slot marks no card), and the places its footer
/// (sheet, page, source and licence) may go, as `footer.bands` ([`Band`]) in the data. A single-card
/// layout has no marks and no bands.
pub fn kit_sheet(data: &mut serde_json::Value) -> Result<()> {
    let layout = &mut data["layout"];
    let Some(f) = frame(layout)? else {
        put(data, "footer", serde_json::json!({ "bands": [] }));
        return Ok(());
    };
    let um = |v: &serde_json::Value| (v.as_f64().unwrap_or(0.0) * 1000.0).round() as i64;
    let (cw, ch, b) = (f.card.0, f.card.1, f.bleed);
    if let Some(pages) = layout["pages"].as_array_mut() {
        for p in pages {
            // The page's cards with their bleed: (left, top, right, bottom) in µm.
            let cards: Vec<[i64; 4]> = p["cards"]
                .as_array()
                .map(|cs| {
                    cs.iter()
                        .map(|c| {
                            let (x, y) = (um(&c["x"]), um(&c["y"]));
                            [x - b, y - b, x + cw + b, y + ch + b]
                        })
                        .collect()
                })
                .unwrap_or_default();
            let Some(marks) = p["marks"].as_array() else {
                continue;
            };
            let kept: Vec<serde_json::Value> = marks
                .iter()
                .map(|m| {
                    short_mark(
                        [um(&m["x1"]), um(&m["y1"]), um(&m["x2"]), um(&m["y2"])],
                        f.page,
                    )
                })
                .filter(|m| cards.iter().any(|c| gap_to(m, c) <= MARK_GAP))
                .map(|[x1, y1, x2, y2]| {
                    serde_json::json!({"x1": mm_f(x1), "y1": mm_f(y1), "x2": mm_f(x2), "y2": mm_f(y2)})
                })
                .collect();
            p["marks"] = serde_json::Value::Array(kept);
        }
    }
    let bands = bands(&f);
    put(data, "footer", serde_json::json!({ "bands": bands }));
    Ok(())
}
