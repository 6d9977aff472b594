//! Print-and-play cards: the obstacle decks of the content (`deck`), the Block by Block reference and
//! approach cards (`cards`), laid out by one imposition engine ([`layout`]) on home sheets (fronts, then
//! their backs mirrored for the duplex mode, with crop marks) or one card per page for print services
//! (`--single`: trim + bleed, with TrimBox and BleedBox). The options are the kind's own: the registered
//! statics [`DECK`] and [`CARDS`] carry the defaults `build` uses, and `blockprint deck` / `cards` make a
//! configured copy ([`DeckKind::with`], [`CardsKind::with`]).

pub mod approach;
pub mod draw;
pub mod faces;
pub mod layout;
mod options;
pub mod reference;

pub use options::{CARDS_DEF, CardsOptions, DECK_DEF, DeckOptions, LayoutOptions, SINGLE_BLEED};
use serde::Serialize;

use super::{Checked, Document, Kind, Request, Requirements};
use crate::error::{invariant, json, no_document, write};
use blockprint_content::error::Result;
use blockprint_render::Paper;
use faces::Face;
use layout::{CardSize, Duplex, Grid, Mark, Sheet, mm_f};

/// How cards are laid out: every option of `deck` and `cards` that is not the content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CardOptions {
    pub card: CardSize,
    pub gutter: i64,
    pub bleed: i64,
    pub margin: i64,
    pub grid: Option<(u32, u32)>,
    pub duplex: Duplex,
    pub back_offset: (i64, i64),
    pub alignment_page: bool,
    /// One card per page at trim + bleed, fronts and backs interleaved.
    pub single: bool,
}

impl CardOptions {
    /// Poker cards, no gutter, no bleed, 5 mm printer margins, as many as fit, long-edge duplex: home
    /// sheets, nine cards a page on A4 and Letter. Without bleed the template frames each card (its colour
    /// stops 3 mm inside the trim), so a cutting error never shows; `--single` defaults to 1/8 in bleed.
    pub const DEFAULT: CardOptions = CardOptions {
        card: CardSize::poker(),
        gutter: 0,
        bleed: 0,
        margin: 5 * layout::MM,
        grid: None,
        duplex: Duplex::Long,
        back_offset: (0, 0),
        alignment_page: false,
        single: false,
    };

    /// The sheet these options give on `paper`.
    pub fn sheet(&self, paper: Paper) -> Sheet {
        Sheet {
            paper,
            card: self.card.clone(),
            gutter: self.gutter,
            bleed: self.bleed,
            margin: self.margin,
            grid: self.grid,
            duplex: self.duplex,
            back_offset: self.back_offset,
        }
    }

    /// Check the options against the paper before anything is made (a usage error, exit 2).
    pub fn validate(&self, paper: Paper) -> Result<()> {
        if self.single {
            return Ok(());
        }
        self.sheet(paper).grid().map(drop)
    }
}

/// A placed card on a page, in millimetres from the page's top-left corner (trim box corner).
#[derive(Debug, Clone, Serialize)]
pub struct Placed {
    pub face: usize,
    pub x: f64,
    pub y: f64,
}

/// A crop mark in millimetres.
#[derive(Debug, Clone, Serialize)]
pub struct MarkMm {
    pub x1: f64,
    pub y1: f64,
    pub x2: f64,
    pub y2: f64,
}

impl From<&Mark> for MarkMm {
    fn from(m: &Mark) -> Self {
        MarkMm {
            x1: mm_f(m.x1),
            y1: mm_f(m.y1),
            x2: mm_f(m.x2),
            y2: mm_f(m.y2),
        }
    }
}

/// One page of the output.
#[derive(Debug, Clone, Serialize)]
pub struct PageOut {
    /// `front`, `back`, `align-front`, `align-back`, `card`.
    pub side: String,
    pub cards: Vec<Placed>,
    pub marks: Vec<MarkMm>,
}

/// Where everything goes: what the template draws, page by page.
#[derive(Debug, Clone, Serialize)]
pub struct Imposition {
    /// `sheet` or `single`.
    pub mode: String,
    pub page_w: f64,
    pub page_h: f64,
    pub card_w: f64,
    pub card_h: f64,
    pub bleed: f64,
    /// The safe zone: no text closer than this to the trim.
    pub safe: f64,
    /// The printer margin (mm) the sheets are laid out for: 0 for single cards, which a print service
    /// prints to the edge. Templates declare it to the page checker.
    pub printer_margin: f64,
    pub card_size: String,
    pub cols: u32,
    pub rows: u32,
    pub duplex: Duplex,
    /// `/ViewerPreferences /Duplex` of the PDF.
    pub pdf_duplex: String,
    pub pages: Vec<PageOut>,
    /// A deck's note and editorial, printed where its last sheet of fronts has no card ([`deck_note`]);
    /// absent from the data of other cards.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<DeckNote>,
    /// Exactly, for the PDF post-processing and the tests: page, trim and bleed in µm.
    pub um: ImpositionUm,
}

/// What a deck says of itself, and where its sheets print it: on the page `page` (from 0), in the box at
/// (`x`, `y`) `w` × `h` millimetres from the page's top-left corner, which no card or crop mark takes.
#[derive(Debug, Clone, Serialize)]
pub struct DeckNote {
    pub page: usize,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    pub title: String,
    pub note: Option<String>,
    pub editorial: Option<String>,
}

/// Where the deck's note goes on sheets laid out as `layout` for `cards` cards: the free places of the
/// last sheet of fronts, the empty rows under its last card when there are any, else the rest of the
/// last card's row. `None` for single cards, a full last sheet, or a deck with nothing to say.
pub fn deck_note(
    layout: &Imposition,
    cards: usize,
    deck: &blockprint_content::Deck,
) -> Option<DeckNote> {
    let grid = layout.um.grid.as_ref()?;
    if deck.note.is_none() && deck.editorial.is_none() {
        return None;
    }
    let (per, cols) = (grid.fronts.len(), grid.cols.max(1) as usize);
    let used = cards.checked_rem(per)?;
    if used == 0 {
        return None;
    }
    let page = layout.pages.iter().rposition(|p| p.side == "front")?;
    // The free places: whole rows under the last card if any, else the rest of its row.
    let rows_start = used.div_ceil(cols) * cols;
    let free = if rows_start < per {
        &grid.fronts[rows_start..]
    } else {
        &grid.fronts[used..]
    };
    let (first, last) = (free.first()?, free.last()?);
    Some(DeckNote {
        page,
        x: mm_f(first.x),
        y: mm_f(first.y),
        w: mm_f(last.x - first.x + layout.um.card_w),
        h: mm_f(last.y - first.y + layout.um.card_h),
        title: String::from(&deck.title),
        note: deck.note.as_deref().map(String::from),
        editorial: deck.editorial.as_deref().map(String::from),
    })
}

#[derive(Debug, Clone, Serialize)]
pub struct ImpositionUm {
    pub page_w: i64,
    pub page_h: i64,
    pub card_w: i64,
    pub card_h: i64,
    pub bleed: i64,
    pub grid: Option<Grid>,
}

/// Text stays this far inside the trim.
pub const SAFE: i64 = 3 * layout::MM;

/// A card: its front face and its back face (indices into the faces list).
#[derive(Debug, Clone, Copy)]
pub struct Card {
    pub front: usize,
    pub back: usize,
}

/// Lay out `cards` with `opts` on `paper`.
pub fn impose(opts: &CardOptions, paper: Paper, cards: &[Card]) -> Result<Imposition> {
    let c = &opts.card;
    let b = opts.bleed;
    let place = |face: usize, x: i64, y: i64| Placed {
        face,
        x: mm_f(x),
        y: mm_f(y),
    };
    if opts.single {
        let mut pages = Vec::new();
        for card in cards {
            for (side, face) in [("front", card.front), ("back", card.back)] {
                pages.push(PageOut {
                    side: side.into(),
                    cards: vec![place(face, b, b)],
                    marks: vec![],
                });
            }
        }
        let (w, h) = (c.w + 2 * b, c.h + 2 * b);
        return Ok(Imposition {
            mode: "single".into(),
            page_w: mm_f(w),
            page_h: mm_f(h),
            card_w: mm_f(c.w),
            card_h: mm_f(c.h),
            bleed: mm_f(b),
            safe: mm_f(SAFE),
            printer_margin: 0.0,
            card_size: c.label().to_owned(),
            cols: 1,
            rows: 1,
            duplex: opts.duplex,
            pdf_duplex: Duplex::None.pdf_name().into(),
            pages,
            note: None,
            um: ImpositionUm {
                page_w: w,
                page_h: h,
                card_w: c.w,
                card_h: c.h,
                bleed: b,
                grid: None,
            },
        });
    }
    let sheet = opts.sheet(paper);
    let grid = sheet.grid()?;
    let per = grid.fronts.len();
    let marks = |ms: &[Mark]| ms.iter().map(MarkMm::from).collect::<Vec<_>>();
    let mut pages = Vec::new();
    if opts.alignment_page {
        // The first sheet's slots with a cross in each (front) and a millimetre scale around the
        // mirrored centre (back): held to the light, the cross sits on the scale at the printer's offset.
        pages.push(PageOut {
            side: "align-front".into(),
            cards: grid.fronts.iter().map(|s| place(0, s.x, s.y)).collect(),
            marks: marks(&grid.front_marks),
        });
        pages.push(PageOut {
            side: "align-back".into(),
            cards: grid.backs.iter().map(|s| place(0, s.x, s.y)).collect(),
            marks: marks(&grid.back_marks),
        });
    }
    for chunk in cards.chunks(per.max(1)) {
        let front_slots = &grid.fronts[..chunk.len()];
        let back_slots = &grid.backs[..chunk.len()];
        pages.push(PageOut {
            side: "front".into(),
            cards: chunk
                .iter()
                .zip(front_slots)
                .map(|(c, s)| place(c.front, s.x, s.y))
                .collect(),
            marks: marks(&layout::marks(
                front_slots,
                c,
                b,
                grid.page_w,
                grid.page_h,
                grid.margin,
            )),
        });
        pages.push(PageOut {
            side: "back".into(),
            cards: chunk
                .iter()
                .zip(back_slots)
                .map(|(c, s)| place(c.back, s.x, s.y))
                .collect(),
            marks: marks(&layout::marks(
                back_slots,
                c,
                b,
                grid.page_w,
                grid.page_h,
                grid.margin,
            )),
        });
    }
    Ok(Imposition {
        mode: "sheet".into(),
        page_w: mm_f(grid.page_w),
        page_h: mm_f(grid.page_h),
        card_w: mm_f(c.w),
        card_h: mm_f(c.h),
        bleed: mm_f(b),
        safe: mm_f(SAFE),
        printer_margin: mm_f(grid.margin),
        card_size: c.label().to_owned(),
        cols: grid.cols,
        rows: grid.rows,
        duplex: opts.duplex,
        pdf_duplex: opts.duplex.pdf_name().into(),
        pages,
        note: None,
        um: ImpositionUm {
            page_w: grid.page_w,
            page_h: grid.page_h,
            card_w: c.w,
            card_h: c.h,
            bleed: b,
            grid: Some(grid),
        },
    })
}

/// The crop marks of a sheet layout redrawn for blockprint's own decks and cards: on a part-filled sheet
/// the marks stop short of the whole grid ([`layout::marks_in`]), so none runs through the empty places.
/// (The kits shorten and filter the marks of [`impose`] themselves.)
fn marks_outside_the_grid(layout: &mut Imposition) {
    let Some(grid) = layout.um.grid.clone() else {
        return;
    };
    let card = CardSize {
        name: String::new(),
        w: layout.um.card_w,
        h: layout.um.card_h,
    };
    for page in &mut layout.pages {
        let all = match page.side.as_str() {
            "front" => &grid.fronts,
            "back" => &grid.backs,
            _ => continue,
        };
        let used = &all[..page.cards.len().min(all.len())];
        page.marks = layout::marks_in(
            used,
            all,
            &card,
            layout.um.bleed,
            grid.page_w,
            grid.page_h,
            grid.margin,
        )
        .iter()
        .map(MarkMm::from)
        .collect();
    }
}

/// What a card template sees.
#[derive(Debug, Clone, Serialize)]
pub struct CardsData {
    #[serde(flatten)]
    pub meta: serde_json::Map<String, serde_json::Value>,
    pub title: String,
    pub faces: Vec<Face>,
    pub layout: Imposition,
    /// What the Markdown shows (a deck's table, reference sections).
    pub markdown: serde_json::Value,
}

fn document(stem: String, title: String, data: &CardsData) -> Result<Document> {
    Ok(Document::new(
        stem,
        "cards/cards",
        // The PDF's title, typeset like its pages.
        blockprint_content::text::smart_quotes(&title),
        json("a card sheet's data", data)?,
    )
    .audience(crate::Audience::Player))
}

/// Apply the imposition's PDF settings: `/ViewerPreferences` (duplex, no print scaling) on sheets, TrimBox
/// and BleedBox on single cards.
fn finish(doc: &Document, pdf: Vec<u8>) -> Result<Vec<u8>> {
    let layout: ImpositionUm = serde_json::from_value(doc.data["layout"]["um"].clone())
        .map_err(|e| invariant(format!("card layout data: {e}")))?;
    let single = doc.data["layout"]["mode"] == "single";
    let duplex = doc.data["layout"]["pdf_duplex"]
        .as_str()
        .unwrap_or("Simplex");
    blockprint_render::cards::finish(pdf, &layout.boxes(), single, duplex)
        .map_err(|e| write(&format!("the print boxes of {}", doc.stem), e))
}

impl ImpositionUm {
    /// The page and bleed the PDF's print boxes are set from.
    pub fn boxes(&self) -> blockprint_render::cards::PageBoxes {
        blockprint_render::cards::PageBoxes {
            page_w: self.page_w,
            page_h: self.page_h,
            bleed: self.bleed,
        }
    }
}

impl<'de> serde::Deserialize<'de> for ImpositionUm {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        struct Raw {
            page_w: i64,
            page_h: i64,
            card_w: i64,
            card_h: i64,
            bleed: i64,
        }
        let r = Raw::deserialize(d)?;
        Ok(ImpositionUm {
            page_w: r.page_w,
            page_h: r.page_h,
            card_w: r.card_w,
            card_h: r.card_h,
            bleed: r.bleed,
            grid: None,
        })
    }
}

/// The obstacle decks of the content, each as one PDF of card sheets (or single cards), Markdown and JSON.
#[derive(Debug, Clone)]
pub struct DeckKind {
    pub opts: CardOptions,
    /// Deck ids to make; `None` for every deck.
    pub ids: Option<Vec<String>>,
}

/// The registered deck kind: every deck, default layout.
pub static DECK: DeckKind = DeckKind {
    opts: CardOptions::DEFAULT,
    ids: None,
};

impl DeckKind {
    /// A copy with these options and decks.
    pub fn with(&self, opts: CardOptions, ids: Option<Vec<String>>) -> DeckKind {
        DeckKind { opts, ids }
    }

    fn decks<'c>(&self, cx: &'c Checked) -> Vec<&'c blockprint_content::Deck> {
        cx.lib
            .decks
            .iter()
            .filter(|d| {
                self.ids
                    .as_ref()
                    .is_none_or(|ids| ids.contains(&d.id.value))
            })
            .collect()
    }
}

/// What the `DeckKind` kind is.
pub static DECK_INFO: crate::KindInfo = crate::KindInfo::new(
    "deck",
    "print-and-play obstacle decks: card sheets with backs and crop marks (or single cards), Markdown suit by suit",
    "cards/decks",
    crate::PDF_MD_JSON,
)
.titled("Obstacle decks")
.papers(crate::HOME_PAPERS)
.requires_always();

/// The data of a deck or kit document as its PDF prints it: the content's straight quotes made curly.
/// Its Markdown and JSON show `data` itself, the content's own characters.
pub(crate) fn typeset_data(doc: &crate::Document) -> std::borrow::Cow<'_, serde_json::Value> {
    let mut data = doc.data.clone();
    blockprint_content::text::smart_quotes_in(&mut data);
    std::borrow::Cow::Owned(data)
}

impl Kind for DeckKind {
    fn pdf_data<'a>(&self, doc: &'a crate::Document) -> std::borrow::Cow<'a, serde_json::Value> {
        crate::cards::typeset_data(doc)
    }
    fn info(&self) -> &crate::KindInfo {
        &DECK_INFO
    }
    fn requires(&self) -> Requirements {
        Requirements::default()
    }
    fn count(&self, cx: &Checked, req: &Request) -> Result<usize> {
        self.opts.validate(req.paper)?;
        Ok(self.decks(cx).len())
    }
    fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document> {
        let deck = *self
            .decks(cx)
            .get(i)
            .ok_or_else(|| no_document("deck", i, self.decks(cx).len()))?;
        let mut faces: Vec<Face> = faces::obstacles(deck)
            .into_iter()
            .map(Face::Obstacle)
            .collect();
        let back = faces.len();
        faces.push(Face::Back(faces::deck_back(deck)));
        let cards: Vec<Card> = (0..back).map(|front| Card { front, back }).collect();
        let mut layout = impose(&self.opts, req.paper, &cards)?;
        marks_outside_the_grid(&mut layout);
        layout.note = deck_note(&layout, cards.len(), deck);
        let title = String::from(&deck.title);
        let data = CardsData {
            meta: super::meta(cx, req),
            title: title.clone(),
            faces,
            layout,
            // The Markdown lists the faces suit by suit; `deck` tells it they are a deck's.
            markdown: serde_json::json!({ "deck": deck.id.value, "cards": cards.len() }),
        };
        document(
            crate::export::slug(&deck.id.value),
            format!("{title}: obstacle deck"),
            &data,
        )
    }
    fn options(&self) -> Option<serde_json::Value> {
        serde_json::to_value(&self.opts).ok()
    }
    fn finish_pdf(&self, doc: &Document, pdf: Vec<u8>) -> Result<Vec<u8>> {
        finish(doc, pdf)
    }
}

/// The Block by Block table cards: reference cards (chase, interrogation, fights, legwork, the DA) and
/// approach cards, one set per player.
#[derive(Debug, Clone)]
pub struct CardsKind {
    pub opts: CardOptions,
    pub players: u32,
}

/// The registered cards kind: default layout, four players.
pub static CARDS: CardsKind = CardsKind {
    opts: CardOptions::DEFAULT,
    players: 4,
};

impl CardsKind {
    /// A copy with these options.
    pub fn with(&self, opts: CardOptions, players: u32) -> CardsKind {
        CardsKind { opts, players }
    }
}

/// What the `CardsKind` kind is.
pub static CARDS_INFO: crate::KindInfo = crate::KindInfo::new(
    "cards",
    "Block by Block reference cards (chase, interrogation, fights, legwork, the DA) and approach cards per player",
    "cards/bbb",
    crate::PDF_MD_JSON,
)
.titled("Reference and approach cards")
.papers(crate::HOME_PAPERS);

impl Kind for CardsKind {
    fn pdf_data<'a>(&self, doc: &'a crate::Document) -> std::borrow::Cow<'a, serde_json::Value> {
        crate::cards::typeset_data(doc)
    }
    fn info(&self) -> &crate::KindInfo {
        &CARDS_INFO
    }
    fn requires(&self) -> Requirements {
        let mut r = reference::requirements();
        r.prose.push(approach::approach_needs());
        r.slots.push(approach::approach_slots());
        r
    }
    fn count(&self, _cx: &Checked, req: &Request) -> Result<usize> {
        self.opts.validate(req.paper)?;
        Ok(2)
    }
    fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document> {
        let (stem, title, faces, cards, markdown) = match i {
            0 => {
                let (mut faces, mut cards, mut md) = reference::reference_cards(cx)?;
                // A last sheet half full or less takes blank cards for house rulings in its places.
                let n = write_ins(&reference_options(&self.opts), req.paper, cards.len())?;
                reference::add_write_ins(&mut faces, &mut cards, &mut md, n);
                (
                    "reference",
                    "Block by Block: reference cards",
                    faces,
                    cards,
                    md,
                )
            }
            _ => {
                let write_ins = write_ins(&self.opts, req.paper, 6 * self.players as usize)?;
                let (faces, cards, md) = approach::approach_cards(self.players, write_ins, cx)?;
                (
                    "approach",
                    "Block by Block: approach cards",
                    faces,
                    cards,
                    md,
                )
            }
        };
        let opts = if i == 0 {
            reference_options(&self.opts)
        } else {
            self.opts.clone()
        };
        let mut layout = impose(&opts, req.paper, &cards)?;
        marks_outside_the_grid(&mut layout);
        let data = CardsData {
            meta: super::meta(cx, req),
            title: title.into(),
            faces,
            layout,
            markdown,
        };
        document(stem.into(), title.into(), &data)
    }
    fn options(&self) -> Option<serde_json::Value> {
        let mut v = serde_json::to_value(&self.opts).ok()?;
        v.as_object_mut()?
            .insert("players".into(), self.players.into());
        Some(v)
    }
    fn finish_pdf(&self, doc: &Document, pdf: Vec<u8>) -> Result<Vec<u8>> {
        finish(doc, pdf)
    }
    fn warnings(&self, _cx: &Checked, _req: &Request) -> Result<Vec<String>> {
        let r = reference_options(&self.opts);
        Ok(
            if r.card.w == self.opts.card.w && r.card.h == self.opts.card.h {
                Vec::new()
            } else {
                vec![format!(
                    "the reference cards' rules do not fit {} cards at 6 pt: they are printed on bridge cards (57 × 89 mm); the approach cards are {}",
                    self.opts.card.label(),
                    self.opts.card.label()
                )]
            },
        )
    }
}

/// How many write-in approach cards fill the last sheet of `cards` approach cards laid out with `opts`
/// on `paper`: its empty places when it would otherwise be half full or less (a sheet that would go mostly
/// to waste gives the players blank cards for house approaches and lost cards instead), else none. Single
/// cards, which a print service charges by the card, get none.
fn write_ins(opts: &CardOptions, paper: Paper, cards: usize) -> Result<usize> {
    if opts.single {
        return Ok(0);
    }
    let per = opts.sheet(paper).grid()?.fronts.len();
    let used = cards % per.max(1);
    Ok(if used > 0 && 2 * used <= per {
        per - used
    } else {
        0
    })
}

/// The options the reference cards are laid out with: the ones asked for, on a card at least as wide and
/// tall as a bridge card (2.25 × 3.5 in), the smallest standard card their rules fit at 6 pt; a smaller
/// card (mini) prints them on bridge cards instead.
fn reference_options(opts: &CardOptions) -> CardOptions {
    let (name, w, h) = layout::SIZES[1];
    let mut o = opts.clone();
    if o.card.w < w || o.card.h < h {
        o.card = layout::CardSize {
            name: name.to_owned(),
            w,
            h,
        };
    }
    o
}
