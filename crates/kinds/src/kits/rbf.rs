//! The Ready/Bolt/Flow chase kit (`blockprint kit rbf`, kind `kit-rbf`): the five action cards per
//! character on print-and-play sheets (Bolt readable both ways up: upright bids one Sprint Token,
//! inverted two), Sprint Tokens to cut out, a Sprint Token track per character with the starting tokens
//! by speed, and one drawn chase track per `[[track]]` in the content. Every document comes from one
//! function of [`DOCS`]; the odds card is one more entry there.
//!
//! The source is CC BY-SA 4.0: every page prints the attribution and says the kit is shared alike.

use serde::Serialize;

use crate::cards::layout::{CardSize, INCH};
use crate::cards::{self, Card, CardOptions, Imposition};
use crate::error::{invariant, json, no_document, unchecked, write};
use crate::{Checked, Document, Kind, Request, Requirements};
use blockprint_content::error::Result;

use super::About;
use super::rbf_track::tracks;

/// The game of this kit.
pub const GAME: &str = "rbf";

/// How many character sets the action-card sheets hold: 9 sets of 5 cards fill five 3 × 3 sheets of
/// poker cards on A4 and on Letter exactly, enough for the sample encounter's seven runners and two more.
pub const SETS: u32 = 9;

/// Sprint Tokens on the token sheet: 6 × 9 one-inch tokens.
pub const TOKEN_GRID: (u32, u32) = (6, 9);

/// The actions in card order, with the content key of each card face.
pub const ACTIONS: [&str; 5] = ["Ready", "Run", "Flow", "Bolt", "Strike"];
/// The content key of Bolt played upside down (a bid of two tokens).
pub const BOLT_INVERTED: &str = "Bolt inverted";

/// The words on the back of every action card, one a line (the set's number under them).
pub const BACK: [&str; 3] = ["Ready", "Bolt", "Flow"];

/// The words on a Sprint Token, one a line, front and back alike.
pub const TOKEN_FACE: [&str; 3] = ["Sprint", "1", "Token"];

/// How far up from the paper's bottom edge a card sheet's footer may reach, in µm, when it runs across
/// the foot of the sheet: its lines sit between the crop marks and the edge, the band the comparison of
/// PDF and Markdown leaves out as page furniture (tests/kits/sentences.rs reads 13 mm). A sheet with
/// more room under its cards (the Sprint Tokens) would otherwise set its footer higher up.
pub const FOOT: i64 = 12_500;

/// The prose pages of the kit (content/rbf/kit/), whose parts its documents place by anchor.
pub const ROUND_PAGE: &str = "round";
pub const TOKENS_PAGE: &str = "tokens";
/// The parts of the prose page `round` every track page prints.
pub const ROUND: [&str; 4] = ["a-round", "how-a-chase-ends", "paths", "gates-and-exits"];
/// The parts of the prose page `tokens` (content/rbf/kit/tokens.md) the Sprint Token tracks print.
pub const TOKENS: [&str; 2] = ["your-strip", "gaining-and-spending"];

/// One entry per document kind of the kit, in output order: how many documents it gives (worked out
/// without making them, so counting the kit's documents costs nothing: the chase odds take most of a
/// kit's time) and the function that makes them (a track document per `[[track]]`).
type DocFn = fn(&Checked, &Request) -> Result<Vec<Document>>;
type CountFn = fn(&Checked) -> usize;
pub const DOCS: &[(CountFn, DocFn)] = &[
    (one, action_cards),
    (one, sprint_tokens),
    (one, sprint_track),
    (one, odds_card),
    (one, chase_odds),
    (|cx| cx.lib.tracks.len(), tracks),
];

fn one(_: &Checked) -> usize {
    1
}

/// The "Chase odds" page: whole-chase odds on the kit's track (`blockprint_chase::rbf`).
fn chase_odds(cx: &Checked, req: &Request) -> Result<Vec<Document>> {
    let data = super::odds_page(cx, "kit-rbf", &[], || {
        blockprint_chase::rbf::kit_page(&cx.lib, "Ready/Bolt/Flow")
    })?;
    let about = super::uwsp::about(cx, "kit-rbf", GAME, None)?;
    let title = "Ready/Bolt/Flow: chase odds";
    Ok(vec![super::uwsp::sheet_document(
        cx,
        req,
        "chase-odds",
        title,
        "common/chase-odds",
        data,
        &about,
    )?])
}

/// The odds card ([`super::rbf_odds`]).
fn odds_card(cx: &Checked, req: &Request) -> Result<Vec<Document>> {
    Ok(vec![super::rbf_odds::document(cx, req)?])
}

/// The kind `kit-rbf`.
pub struct RbfKit;

/// The registered kit.
pub static KIT: RbfKit = RbfKit;

fn lookups() -> [&'static str; 4] {
    [
        "rbf.action.move",
        "rbf.action.effect",
        "rbf.action.defence",
        "rbf.sprint.speed",
    ]
}

/// Document `i` of the kit: only the entry of [`DOCS`] that holds it is made.
fn nth(cx: &Checked, req: &Request, i: usize) -> Result<Document> {
    let mut first = 0;
    for (count, make) in DOCS {
        let n = count(cx);
        if i < first + n {
            let docs = make(cx, req)?;
            if docs.len() != n {
                return Err(invariant(format!(
                    "kit-rbf: an entry made {} documents where it counted {n}",
                    docs.len()
                )));
            }
            return docs
                .into_iter()
                .nth(i - first)
                .ok_or_else(|| no_document("kit-rbf", i, first + n));
        }
        first += n;
    }
    Err(no_document("kit-rbf", i, first))
}

/// What the `RbfKit` kind is.
pub static INFO: crate::KindInfo = crate::KindInfo::new(
    "kit-rbf",
    "Ready/Bolt/Flow chase kit: action cards per character, Sprint Tokens and track, drawn chase tracks, whole-chase odds",
    "kits/rbf",
    crate::PDF_MD_JSON,
)
.titled("Ready/Bolt/Flow chase kit")
.papers(crate::HOME_PAPERS);

impl Kind for RbfKit {
    fn pdf_data<'a>(&self, doc: &'a crate::Document) -> std::borrow::Cow<'a, serde_json::Value> {
        crate::cards::typeset_data(doc)
    }
    fn info(&self) -> &crate::KindInfo {
        &INFO
    }
    fn requires(&self) -> Requirements {
        let mut keys = Vec::new();
        for l in ["rbf.action.move", "rbf.action.effect", "rbf.action.defence"] {
            for a in ACTIONS.iter().chain([&BOLT_INVERTED]) {
                keys.push((l.to_owned(), (*a).to_owned()));
            }
        }
        Requirements {
            tables: vec!["rbf.ready".into(), "rbf.flow".into()],
            lookups: lookups()
                .iter()
                .chain(&[super::rbf_odds::ROLLS])
                .map(|s| (*s).to_owned())
                .collect(),
            keys,
            kits: vec![GAME.into()],
            prose: vec![
                super::prose_needs(GAME, TOKENS_PAGE, &TOKENS),
                super::prose_needs(GAME, ROUND_PAGE, &ROUND),
            ],
            ..Requirements::default()
        }
    }
    fn count(&self, cx: &Checked, _req: &Request) -> Result<usize> {
        Ok(DOCS.iter().map(|(count, _)| count(cx)).sum())
    }
    fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document> {
        nth(cx, req, i)
    }
    fn finish_pdf(&self, doc: &Document, pdf: Vec<u8>) -> Result<Vec<u8>> {
        if doc.template == CARDS_TEMPLATE {
            finish_sheets(doc, pdf)
        } else {
            Ok(pdf)
        }
    }
}

const CARDS_TEMPLATE: &str = "kit-rbf/cards";

pub(super) fn about(cx: &Checked) -> Result<About> {
    super::about(cx, GAME).ok_or_else(|| unchecked("lacks the rbf `[[kit]]`"))
}

fn value(cx: &Checked, lookup: &str, key: &str) -> Result<String> {
    cx.lib
        .lookup(lookup)
        .and_then(|l| l.entries.iter().find(|e| e.key.value == key))
        .map(|e| String::from(&e.value.value.to_string()))
        .ok_or_else(|| unchecked(format!("lacks `{key}` in `{lookup}`")))
}

/// A row of a roll printed on a card, with its exact chance.
#[derive(Debug, Clone, Serialize)]
pub struct RollRow {
    pub on: String,
    pub result: String,
    /// Reduced fraction: `2/9`.
    pub fraction: String,
    /// Percentage to one decimal: `22.2%` ([`super::uwsp::pct`]).
    pub percent: String,
}

/// A table printed on a card: its dice and rows.
#[derive(Debug, Clone, Serialize)]
pub struct Roll {
    pub id: String,
    pub title: String,
    pub dice: String,
    /// The roll in words for the cards: `Roll two Fudge dice` ([`roll_words`]).
    pub words: String,
    pub note: Option<String>,
    pub rows: Vec<RollRow>,
}

fn roll(cx: &Checked, id: &str) -> Result<Roll> {
    let t = cx
        .lib
        .table(id)
        .ok_or_else(|| unchecked(format!("lacks table `{id}`")))?;
    let rows = t
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let p = blockprint_content::check::row_probability(&cx.report, id, i)
                .ok_or_else(|| unchecked(format!("has no odds for `{id}`")))?;
            Ok(RollRow {
                on: r.on.value.clone(),
                result: String::from(&r.result.value),
                fraction: blockprint_dice::fraction(p),
                percent: super::uwsp::pct(p),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Roll {
        id: id.to_owned(),
        title: String::from(&t.title),
        dice: t.dice.value.clone(),
        words: roll_words(&t.dice.value),
        note: t.note.as_deref().map(String::from),
        rows,
    })
}

/// A roll as the cards say it. Fudge dice with a number added (`dF+2`, `2dF+3`: the number only turns
/// the faces into the table's rows, whose results name the faces) read `Roll one Fudge die`, `Roll two
/// Fudge dice`; anything else is [`super::uwsp::dice_words`] after `Roll`.
pub fn roll_words(dice: &str) -> String {
    use blockprint_dice::{BinOp, NodeKind, Sides};
    let fudge = blockprint_dice::parse(dice).ok().and_then(|e| {
        let term = |n: &blockprint_dice::Node| match &n.kind {
            NodeKind::Dice(t) if t.sides == Sides::Fudge && t.keep.is_none() && !t.explode => {
                Some(t.count)
            }
            _ => None,
        };
        match &e.root().kind {
            NodeKind::Binary {
                op: BinOp::Add | BinOp::Sub,
                lhs,
                rhs,
            } if matches!(rhs.kind, NodeKind::Int(_)) => term(lhs),
            _ => term(e.root()),
        }
    });
    match fudge {
        Some(1) => "Roll one Fudge die".into(),
        Some(n) => format!("Roll {} Fudge dice", super::uwsp::count_words(n)),
        None => format!(
            "Roll {}",
            super::uwsp::dice_words(dice).unwrap_or_else(|| dice.to_owned())
        ),
    }
}

/// One way up of an action card.
#[derive(Debug, Clone, Serialize)]
pub struct CardSide {
    pub action: String,
    /// `Bid 1 Sprint Token` on Bolt; empty on the others.
    pub bid: String,
    pub moves: String,
    pub effect: String,
    pub defence: String,
}

/// A card face of the kit.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[expect(
    clippy::large_enum_variant,
    reason = "a kit holds a few dozen faces, made once and serialized for the template"
)]
pub enum Face {
    /// An action card: one side, or two (Bolt: `inverted` printed upside down on the lower half).
    Action {
        set: u32,
        upright: CardSide,
        inverted: Option<CardSide>,
        roll: Option<Roll>,
        credit: String,
    },
    /// The back of every card of a set.
    Back { set: u32 },
    /// A Sprint Token (front and back alike).
    Token,
}

fn side(cx: &Checked, action: &str, key: &str, bid: &str) -> Result<CardSide> {
    Ok(CardSide {
        action: action.to_owned(),
        bid: bid.to_owned(),
        moves: value(cx, "rbf.action.move", key)?,
        effect: value(cx, "rbf.action.effect", key)?,
        defence: value(cx, "rbf.action.defence", key)?,
    })
}

/// What the card template sees.
#[derive(Debug, Clone, Serialize)]
pub struct CardsData {
    #[serde(flatten)]
    pub meta: serde_json::Map<String, serde_json::Value>,
    pub about: About,
    /// `actions` or `tokens`.
    pub what: String,
    pub title: String,
    pub sets: u32,
    pub faces: Vec<Face>,
    pub layout: Imposition,
    /// The cards of one set, for the Markdown.
    pub set_faces: Vec<Face>,
    /// The label over each card's defence: the `rbf.action.defence` lookup's value column.
    pub attacked: String,
    /// The credit every action card prints ([`credit`]).
    pub credit: String,
    /// The words of an action card's back ([`BACK`]).
    pub back: Vec<String>,
    /// The words of a Sprint Token ([`TOKEN_FACE`]).
    pub token: Vec<String>,
    /// How many cards or tokens the sheets hold.
    pub count: usize,
    /// How many sheets of paper: a front and its backs are one sheet.
    pub sheets: usize,
}

/// A card sheet document: the data with its crop marks shortened and its footer bands
/// ([`super::uwsp::kit_sheet`]), those across the foot of the sheet kept within [`FOOT`] of its edge.
fn cards_doc(stem: &str, title: String, data: &CardsData) -> Result<Document> {
    let mut data = json("a card sheet's data", data)?;
    super::uwsp::kit_sheet(&mut data)?;
    let page_h = data["layout"]["page_h"].as_f64().unwrap_or(0.0);
    if let Some(bands) = data["footer"]["bands"].as_array_mut() {
        *bands = bands
            .drain(..)
            .filter_map(|b| low_band(b, page_h))
            .collect();
    }
    Ok(Document::new(stem, CARDS_TEMPLATE, title, data).audience(crate::Audience::Player))
}

/// A footer band of a card sheet kept low: one across the foot starts no higher than [`FOOT`] above
/// the paper's bottom edge (`page_h` in mm), and is dropped when too little of it is left for a line;
/// a band turned up the margin stays as it is.
fn low_band(mut b: serde_json::Value, page_h: f64) -> Option<serde_json::Value> {
    if b["turned"].as_bool() == Some(true) {
        return Some(b);
    }
    // In µm, so the band's edges stay the round numbers the imposition gives.
    let um = |mm: f64| (mm * 1000.0).round() as i64;
    let (y, depth) = (um(b["y"].as_f64()?), um(b["depth"].as_f64()?));
    let bottom = y + depth;
    let top = y.max(um(page_h) - FOOT);
    if bottom - top < super::uwsp::BAND_MIN {
        return None;
    }
    b["y"] = serde_json::json!(top as f64 / 1000.0);
    b["depth"] = serde_json::json!((bottom - top) as f64 / 1000.0);
    Some(b)
}

fn credit(about: &About) -> String {
    format!(
        "Ready/Bolt/Flow by Andrew Gross · {}",
        short_licence(&about.licence)
    )
}

/// `CC BY-SA 4.0` of `CC BY-SA 4.0 (creativecommons.org/…)`.
fn short_licence(l: &str) -> String {
    l.split(" (").next().unwrap_or(l).to_owned()
}

/// The five action cards of one set.
fn set_faces(cx: &Checked, set: u32, about: &About) -> Result<Vec<Face>> {
    let mut faces = Vec::new();
    for a in ACTIONS {
        let (inverted, bid) = if a == "Bolt" {
            (
                Some(side(cx, a, BOLT_INVERTED, "Inverted: bid 2 Sprint Tokens")?),
                "Upright: bid 1 Sprint Token",
            )
        } else {
            (None, "")
        };
        let roll = match a {
            "Ready" => Some(roll(cx, "rbf.ready")?),
            "Flow" => Some(roll(cx, "rbf.flow")?),
            _ => None,
        };
        faces.push(Face::Action {
            set,
            upright: side(cx, a, a, bid)?,
            inverted,
            roll,
            credit: credit(about),
        });
    }
    Ok(faces)
}

/// The label of the cards' defence line: the value column of `rbf.action.defence` (`If attacked`).
fn attacked(cx: &Checked) -> Result<String> {
    cx.lib
        .lookup("rbf.action.defence")
        .map(|l| String::from(&l.value))
        .ok_or_else(|| unchecked("lacks `rbf.action.defence`"))
}

fn speed(cx: &Checked) -> Result<Vec<(String, String)>> {
    let l = cx
        .lib
        .lookup("rbf.sprint.speed")
        .ok_or_else(|| unchecked("lacks `rbf.sprint.speed`"))?;
    Ok(l.entries
        .iter()
        .map(|e| (String::from(&e.key.value), e.value.value.to_string()))
        .collect())
}

/// The action cards: [`SETS`] sets of five, each set with its own back, on duplex sheets.
fn action_cards(cx: &Checked, req: &Request) -> Result<Vec<Document>> {
    let about = about(cx)?;
    let mut faces = Vec::new();
    let mut cards = Vec::new();
    for set in 1..=SETS {
        let back = faces.len();
        faces.push(Face::Back { set });
        for f in set_faces(cx, set, &about)? {
            cards.push(Card {
                front: faces.len(),
                back,
            });
            faces.push(f);
        }
    }
    let layout = cards::impose(&CardOptions::DEFAULT, req.paper, &cards)?;
    let title = "Ready/Bolt/Flow: action cards".to_owned();
    let data = CardsData {
        meta: crate::meta(cx, req),
        about: about.clone(),
        what: "actions".into(),
        title: title.clone(),
        sets: SETS,
        sheets: layout.pages.len().div_ceil(2),
        count: cards.len(),
        faces,
        layout,
        set_faces: set_faces(cx, 1, &about)?,
        attacked: attacked(cx)?,
        credit: credit(&about),
        back: BACK.map(String::from).to_vec(),
        token: TOKEN_FACE.map(String::from).to_vec(),
    };
    Ok(vec![cards_doc("action-cards", title, &data)?])
}

/// The Sprint Tokens: one-inch tokens on a cut grid, backs alike.
fn sprint_tokens(cx: &Checked, req: &Request) -> Result<Vec<Document>> {
    let about = about(cx)?;
    let opts = CardOptions {
        card: CardSize {
            name: "1in token".into(),
            w: INCH,
            h: INCH,
        },
        grid: Some(TOKEN_GRID),
        ..CardOptions::DEFAULT
    };
    let n = (TOKEN_GRID.0 * TOKEN_GRID.1) as usize;
    let cards: Vec<Card> = (0..n).map(|_| Card { front: 0, back: 0 }).collect();
    let layout = cards::impose(&opts, req.paper, &cards)?;
    let title = "Ready/Bolt/Flow: Sprint Tokens".to_owned();
    let data = CardsData {
        meta: crate::meta(cx, req),
        credit: credit(&about),
        about,
        what: "tokens".into(),
        title: title.clone(),
        sets: SETS,
        sheets: layout.pages.len().div_ceil(2),
        count: cards.len(),
        faces: vec![Face::Token],
        layout,
        set_faces: vec![],
        attacked: attacked(cx)?,
        back: BACK.map(String::from).to_vec(),
        token: TOKEN_FACE.map(String::from).to_vec(),
    };
    Ok(vec![cards_doc("sprint-tokens", title, &data)?])
}

/// What the Sprint Token track page sees.
#[derive(Debug, Clone, Serialize)]
pub struct SprintData {
    #[serde(flatten)]
    pub meta: serde_json::Map<String, serde_json::Value>,
    pub about: About,
    pub title: String,
    pub sets: u32,
    /// Boxes on each runner's track: 0 to this.
    pub most: u32,
    pub speed: Vec<(String, String)>,
    pub speed_title: String,
    pub speed_note: Option<String>,
    pub ready: Roll,
    /// How to use the strips and how tokens come and go: the prose page `tokens`.
    pub prose: super::Prose,
}

/// The most Sprint Tokens a track counts.
pub const TRACK_MOST: u32 = 12;

fn sprint_track(cx: &Checked, req: &Request) -> Result<Vec<Document>> {
    let l = cx
        .lib
        .lookup("rbf.sprint.speed")
        .ok_or_else(|| unchecked("lacks `rbf.sprint.speed`"))?;
    let title = "Ready/Bolt/Flow: Sprint Token tracks".to_owned();
    let data = SprintData {
        meta: crate::meta(cx, req),
        about: about(cx)?,
        title: title.clone(),
        sets: SETS,
        most: TRACK_MOST,
        speed: speed(cx)?,
        speed_title: String::from(&l.title),
        speed_note: l.note.as_deref().map(String::from),
        ready: roll(cx, "rbf.ready")?,
        prose: super::prose(cx, GAME, TOKENS_PAGE, &TOKENS)?,
    };
    Ok(vec![
        Document::new(
            "sprint-track",
            "kit-rbf/sprint",
            title.clone(),
            json("the Sprint Token tracks' data", &data)?,
        )
        .audience(crate::Audience::Gm),
    ])
}

// ---------- PDF boxes ----------

/// Points in a µm.
fn pt(um: i64) -> f32 {
    (um as f64 * 72.0 / 25_400.0) as f32
}

/// Card sheets: the viewer preferences of every card sheet, and on each page a TrimBox around the cards'
/// trim edges and a BleedBox around their bleed, so a print shop sees where the cut grid lies (the crop
/// marks stand outside both).
pub(crate) fn finish_sheets(doc: &Document, pdf: Vec<u8>) -> Result<Vec<u8>> {
    let um: cards::ImpositionUm = serde_json::from_value(doc.data["layout"]["um"].clone())
        .map_err(|e| invariant(format!("card layout data: {e}")))?;
    let duplex = doc.data["layout"]["pdf_duplex"]
        .as_str()
        .unwrap_or("Simplex");
    let pdf = blockprint_render::cards::finish(pdf, &um.boxes(), false, duplex)
        .map_err(|e| write(&format!("the print boxes of {}", doc.stem), e))?;
    let pages: Vec<Vec<(f64, f64)>> = doc.data["layout"]["pages"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .map(|p| {
                    p["cards"]
                        .as_array()
                        .map(|cs| {
                            cs.iter()
                                .map(|c| {
                                    (
                                        c["x"].as_f64().unwrap_or(0.0),
                                        c["y"].as_f64().unwrap_or(0.0),
                                    )
                                })
                                .collect()
                        })
                        .unwrap_or_default()
                })
                .collect()
        })
        .unwrap_or_default();
    let mut d = lopdf::Document::load_mem(&pdf)
        .map_err(|e| write(&format!("{} (reading it back)", doc.stem), e))?;
    let ids: Vec<_> = d.get_pages().into_values().collect();
    let um_of = |mm: f64| (mm * 1000.0).round() as i64;
    for (id, cards) in ids.into_iter().zip(pages) {
        if cards.is_empty() {
            continue;
        }
        let l = cards.iter().map(|c| um_of(c.0)).min().unwrap_or(0);
        let t = cards.iter().map(|c| um_of(c.1)).min().unwrap_or(0);
        let r = cards.iter().map(|c| um_of(c.0)).max().unwrap_or(0) + um.card_w;
        let b = cards.iter().map(|c| um_of(c.1)).max().unwrap_or(0) + um.card_h;
        // PDF space runs up from the bottom edge.
        let rect = |l: i64, t: i64, r: i64, b: i64| {
            lopdf::Object::Array(
                [pt(l), pt(um.page_h - b), pt(r), pt(um.page_h - t)]
                    .into_iter()
                    .map(lopdf::Object::Real)
                    .collect(),
            )
        };
        let page = d
            .get_dictionary_mut(id)
            .map_err(|e| write(&format!("a page of {}", doc.stem), e))?;
        let bl = um.bleed;
        page.set("TrimBox", rect(l, t, r, b));
        page.set("BleedBox", rect(l - bl, t - bl, r + bl, b + bl));
    }
    let mut out = Vec::with_capacity(pdf.len() + 512);
    d.save_to(&mut out).map_err(|e| write(&doc.stem, e))?;
    Ok(out)
}
