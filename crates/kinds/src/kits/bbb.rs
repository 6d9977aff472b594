//! Block by Block's own chase kit (`kit-bbb`): the card chase gathered in one folder. A sheet with the
//! procedure in brief, the Chase Outcomes table with its exact odds (the checker's row odds, made by the
//! dice engine) and a chase mat to lay the road-ahead cards on; the three chase reference cards of
//! `blockprint cards` (taken from [`reference::reference_cards`], not rewritten); and every `bbb.chase.*`
//! obstacle deck as `blockprint deck` prints it ([`cards::DECK`]'s own document), each page carrying the
//! kit's source and licence.

use super::uwsp;
use crate::cards::faces::{self, Face};
use crate::cards::{self, CardOptions, reference};
use crate::error::{invariant, no_document, unchecked};
use crate::{Checked, Document, Kind, Request, Requirements};
use blockprint_content::error::Result;

pub const GAME: &str = "bbb";
/// Decks whose id starts with this are the kit's obstacle decks.
pub const DECK_PREFIX: &str = "bbb.chase.";
/// The fills and rulings the kit lists: those of the chase (the SRD's appendices list the rest).
pub const ABOUT_ONLY: [&str; 3] = [
    "bbb.chase.",
    "bbb.ruling.halved_hp",
    "bbb.ruling.random_attribute",
];
/// Hot Pursuit boxes on the mat's tracks.
pub const TRACK: u32 = 40;

const NAME: &str = "kit-bbb";

/// The kind.
pub struct BbbKit;
pub static KIT: BbbKit = BbbKit;

fn decks(cx: &Checked) -> Vec<&blockprint_content::Deck> {
    cx.lib
        .decks
        .iter()
        .filter(|d| d.id.value.starts_with(DECK_PREFIX))
        .collect()
}

/// The chase in brief: the kit's prose page `procedure` (content/bbb/kit/procedure.md), printed whole,
/// part by part (each `##` heading a part).
pub const PROCEDURE: &str = "procedure";

/// The chase mat's words and the decks' note: the prose page `mat` (content/bbb/kit/mat.md), its parts
/// placed by anchor.
pub const MAT_PAGE: &str = "mat";
pub const MAT: [&str; 3] = ["decks", "chase-mat", "slots"];

fn outcome_rows(cx: &Checked) -> Result<serde_json::Value> {
    let t = cx
        .lib
        .table(reference::CHASE_OUTCOME)
        .ok_or_else(|| uwsp::missing(NAME, reference::CHASE_OUTCOME))?;
    let mut rows = Vec::new();
    for (i, r) in t.rows.iter().enumerate() {
        let p = blockprint_content::check::row_probability(&cx.report, &t.id.value, i).ok_or_else(
            || {
                unchecked(format!(
                    "has no odds for {} row {i}",
                    reference::CHASE_OUTCOME
                ))
            },
        )?;
        rows.push(serde_json::json!({
            "on": r.on.value,
            "result": String::from(&uwsp::spoken_result(&r.result.value)),
            "odds": uwsp::odds(p),
        }));
    }
    Ok(serde_json::json!({
        "id": t.id.value,
        "title": String::from(&t.title),
        "dice": t.dice.value,
        "note": t.note.as_deref().map(String::from),
        "rows": rows,
    }))
}

fn sheet_data(cx: &Checked) -> Result<serde_json::Value> {
    let deck = cx
        .lib
        .deck(reference::CITY_STREETS)
        .ok_or_else(|| uwsp::missing(NAME, reference::CITY_STREETS))?;
    let suits: Vec<serde_json::Value> = blockprint_content::SUITS
        .iter()
        .zip(faces::meanings(deck))
        .map(|(s, m)| {
            let (symbol, color) = faces::suit_symbol(s);
            let (abbr, name, gloss) = faces::attribute(&String::from(m));
            serde_json::json!({"suit": s, "symbol": symbol, "color": color, "attribute": abbr, "name": name, "gloss": gloss})
        })
        .collect();
    let procedure = super::prose(cx, GAME, PROCEDURE, &[])?;
    let o = CardOptions::DEFAULT.card;
    Ok(serde_json::json!({
        "procedure": procedure,
        "mat": super::prose(cx, GAME, MAT_PAGE, &MAT)?,
        "outcome": outcome_rows(cx)?,
        "suits": suits,
        "track": TRACK,
        "decks": decks(cx).iter().map(|d| String::from(&d.title)).collect::<Vec<_>>(),
        "card_w": cards::layout::mm_f(o.w),
        "card_h": cards::layout::mm_f(o.h),
    }))
}

/// The chase reference cards of `blockprint cards` (the fronts titled "Chase") with their back, a set for
/// each side of the chase: three cards alone would leave two thirds of a nine-card sheet blank.
fn chase_cards(cx: &Checked, req: &Request, about: &serde_json::Value) -> Result<Document> {
    let (all, list, _) = reference::reference_cards(cx)?;
    let is_chase = |f: &Face| matches!(f, Face::Reference(r) if r.title == "Chase");
    let fronts: Vec<Face> = all.iter().filter(|f| is_chase(f)).cloned().collect();
    let back = list
        .iter()
        .find(|c| all.get(c.front).is_some_and(is_chase))
        .and_then(|c| all.get(c.back).cloned())
        .ok_or_else(|| invariant("the reference cards have no chase card"))?;
    uwsp::card_document(
        cx,
        req,
        "chase-cards",
        "Block by Block: chase reference cards",
        "kit-bbb/cards",
        fronts,
        &[2, 2, 2],
        back,
        about,
    )
}

/// An obstacle deck exactly as `blockprint deck` makes it, printed with the kit's footer.
fn deck_document(
    cx: &Checked,
    req: &Request,
    id: &str,
    about: &serde_json::Value,
) -> Result<Document> {
    let kind = cards::DECK.with(CardOptions::DEFAULT, Some(vec![id.to_owned()]));
    let mut doc = kind.document(cx, req, 0)?;
    doc.stem = format!(
        "deck-{}",
        crate::export::slug(id.trim_start_matches(DECK_PREFIX))
    );
    doc.template = "kit-bbb/cards".into();
    uwsp::put(&mut doc.data, "about", about.clone());
    uwsp::kit_sheet(&mut doc.data)?;
    Ok(doc)
}

/// What the `BbbKit` kind is.
pub static INFO: crate::KindInfo = crate::KindInfo::new(
    NAME,
    "Block by Block's card chase as one kit: procedure, chase mat, Chase Outcomes odds, whole-chase odds, chase cards, obstacle decks",
    "kits/bbb",
    crate::PDF_MD_JSON,
)
.titled("Block by Block chase kit")
.papers(crate::HOME_PAPERS);

impl Kind for BbbKit {
    fn pdf_data<'a>(&self, doc: &'a crate::Document) -> std::borrow::Cow<'a, serde_json::Value> {
        crate::cards::typeset_data(doc)
    }
    fn info(&self) -> &crate::KindInfo {
        &INFO
    }
    fn requires(&self) -> Requirements {
        let mut r = reference::requirements();
        r.decks.push(reference::CITY_STREETS.into());
        r.kits.push(GAME.into());
        r.prose.push(super::prose_needs(GAME, PROCEDURE, &[]));
        r.prose.push(super::prose_needs(GAME, MAT_PAGE, &MAT));
        r
    }
    fn count(&self, cx: &Checked, req: &Request) -> Result<usize> {
        uwsp::card_options_ok(req)?;
        Ok(3 + decks(cx).len())
    }
    fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document> {
        let about = uwsp::about(cx, NAME, GAME, Some(&ABOUT_ONLY))?;
        match i {
            0 => uwsp::sheet_document(
                cx,
                req,
                "chase",
                "Block by Block: the card chase",
                "kit-bbb/kit",
                sheet_data(cx)?,
                &about,
            ),
            1 => chase_cards(cx, req, &about),
            // The whole-chase odds (blockprint_chase::bbb, simulated and labelled so).
            2 => uwsp::sheet_document(
                cx,
                req,
                "chase-odds",
                "Block by Block: chase odds",
                "common/chase-odds",
                super::odds_page(cx, NAME, &[], || {
                    blockprint_chase::bbb::kit_page(&cx.lib, "Block by Block")
                })?,
                &about,
            ),
            n => {
                let ds = decks(cx);
                let d = ds
                    .get(n - 3)
                    .ok_or_else(|| no_document("kit-bbb", n, ds.len() + 3))?;
                deck_document(cx, req, &d.id.value, &about)
            }
        }
    }
    fn finish_pdf(&self, doc: &Document, pdf: Vec<u8>) -> Result<Vec<u8>> {
        uwsp::finish_pdf(doc, pdf)
    }
}
