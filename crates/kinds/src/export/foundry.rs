//! Foundry VTT: a [`Table`] in, a RollTable document as JSON out; a [`Deck`] in, a Cards document of type
//! `deck` out. One JSON file per document, each with a stable `_id` ([`super::foundry_id`]) and the `_key`
//! Foundry's command-line packer (`fvtt package pack`) files documents under, so the folder of files is
//! also a compendium source; "Import Data" on a RollTable or Cards document ignores the `_key`.
//!
//! Two schema generations of TableResult are written:
//! - v13 (the default): `type`, `name`, `description`, `documentUuid` (`RollTable.<id>` for a link),
//!   `weight`, `range`, `drawn`;
//! - v12: `type`, `text`, `documentCollection` (`RollTable`) and `documentId` for a link, `weight`,
//!   `range`, `drawn`.
//!
//! A row whose result names exactly one other table (`Gunshot ({table:bbb.homicide.gunshot})`) becomes a
//! `document` result linking that table's export, so Foundry's draw rolls it in turn; its text names the
//! table by title. A row naming two or more tables stays `text`, each reference a content link
//! (`@UUID[RollTable.<id>]{Title}`) the GM can click. Inline rolls `{1d6}` become Foundry's `[[1d6]]`.
//!
//! A deck's cards show pictures of the printed cards ([`pictures`]): each card's front as `deck --png`
//! renders it (one card at trim plus 1/8 in bleed, 300 dpi) in `cards/<deck>/001-front.png` …, and the
//! deck's back in `cards/<deck>/back.png`, beside the deck's JSON. Each face's `img`, each back's and
//! the deck's own is that path, which Foundry reads from its Data folder: copying the export's `cards`
//! folder into the Data folder (beside `worlds` and `modules`) puts every picture where its path points.

use serde::Serialize;

use super::{Deck, Table, check_ranges, formula, foundry_id, slug};
use crate::error::{Problem, invariant, json, json_text, unchecked};
use crate::{Checked, Kind, Pictures, Request};
use blockprint_content::error::{Error, Result};
use blockprint_content::{Library, RANKS};

/// Which Foundry VTT schema to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Version {
    V12,
    #[default]
    V13,
}

#[derive(Serialize)]
struct RollTable {
    _id: String,
    _key: String,
    name: String,
    description: String,
    formula: String,
    replacement: bool,
    #[serde(rename = "displayRoll")]
    display_roll: bool,
    results: Vec<Result13Or12>,
    flags: serde_json::Map<String, serde_json::Value>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Result13Or12 {
    V13(TableResult13),
    V12(TableResult12),
}

#[derive(Serialize)]
struct TableResult13 {
    _id: String,
    _key: String,
    #[serde(rename = "type")]
    kind: &'static str,
    name: String,
    description: String,
    #[serde(rename = "documentUuid", skip_serializing_if = "Option::is_none")]
    document_uuid: Option<String>,
    weight: i64,
    range: [i64; 2],
    drawn: bool,
    flags: serde_json::Map<String, serde_json::Value>,
}

#[derive(Serialize)]
struct TableResult12 {
    _id: String,
    _key: String,
    #[serde(rename = "type")]
    kind: &'static str,
    text: String,
    #[serde(rename = "documentCollection", skip_serializing_if = "Option::is_none")]
    document_collection: Option<&'static str>,
    #[serde(rename = "documentId", skip_serializing_if = "Option::is_none")]
    document_id: Option<String>,
    weight: i64,
    range: [i64; 2],
    drawn: bool,
    flags: serde_json::Map<String, serde_json::Value>,
}

/// The `_id` of a table's RollTable document.
pub fn table_id(table_id: &str) -> String {
    foundry_id("RollTable", table_id)
}

/// A RollTable document for `t`, pretty-printed with a final newline, after reading its ranges and weights
/// back and checking them against the table.
pub fn roll_table(lib: &Library, t: &Table, version: Version) -> Result<String> {
    refuse(t)?;
    let id = table_id(&t.id);
    let mut results = Vec::with_capacity(t.rows.len());
    for (i, row) in t.rows.iter().enumerate() {
        let rid = foundry_id("TableResult", &format!("{}#{}", t.id, i));
        let key = format!("!tables.results!{id}.{rid}");
        let text = &row.result;
        let refs = super::references(&row.result);
        let link = match refs.as_slice() {
            [one] => Some(lib.table(one).map(|_| table_id(one)).ok_or_else(|| {
                unchecked(format!(
                    "lacks table `{one}`, which row {} of `{}` references",
                    row.at, t.id
                ))
            })?),
            _ => None,
        };
        let plain = render_text(lib, text, false, false)?;
        let html = render_text(lib, text, link.is_none(), true)?;
        let (range, weight) = ([row.lo, row.hi], row.width());
        results.push(match version {
            Version::V13 => Result13Or12::V13(TableResult13 {
                _id: rid,
                _key: key,
                kind: if link.is_some() { "document" } else { "text" },
                name: plain,
                description: if link.is_some() {
                    String::new()
                } else {
                    paragraph(&html)
                },
                document_uuid: link.map(|l| format!("RollTable.{l}")),
                weight,
                range,
                drawn: false,
                flags: Default::default(),
            }),
            Version::V12 => Result13Or12::V12(TableResult12 {
                _id: rid,
                _key: key,
                kind: if link.is_some() { "document" } else { "text" },
                text: if link.is_some() { plain } else { html },
                document_collection: link.as_ref().map(|_| "RollTable"),
                document_id: link,
                weight,
                range,
                drawn: false,
                flags: Default::default(),
            }),
        });
    }
    let doc = RollTable {
        _key: format!("!tables!{id}"),
        _id: id,
        name: t.title.clone(),
        description: t
            .note
            .as_deref()
            .map(|n| paragraph(&html(n)))
            .unwrap_or_default(),
        formula: t.formula.clone(),
        replacement: true,
        display_roll: true,
        results,
        flags: Default::default(),
    };
    let value = json("a Foundry RollTable", &doc)?;
    check_roll_table(t, &value, version)?;
    // Written from the struct, so fields keep Foundry's order (`_id`, `name` … `results`).
    json_text("a Foundry RollTable", &doc)
}

/// Read a RollTable document back: every field the schema needs is there with its type, and its
/// ranges and weights match the table.
pub fn check_roll_table(t: &Table, v: &serde_json::Value, version: Version) -> Result<()> {
    let bug = |why: String| -> Error {
        Problem::ExportCheck {
            export: "Foundry".into(),
            item: format!("table `{}` ({})", t.id, t.at),
            why,
        }
        .into()
    };
    for (field, ok) in [
        ("_id", v["_id"].as_str().is_some_and(is_foundry_id)),
        ("name", v["name"].is_string()),
        ("description", v["description"].is_string()),
        ("formula", v["formula"].as_str() == Some(t.formula.as_str())),
        ("replacement", v["replacement"].is_boolean()),
        ("displayRoll", v["displayRoll"].is_boolean()),
        ("results", v["results"].is_array()),
    ] {
        if !ok {
            return Err(bug(format!("`{field}` is missing or wrong")));
        }
    }
    let mut ranges = Vec::new();
    for r in v["results"].as_array().into_iter().flatten() {
        let fields: &[&str] = match version {
            Version::V13 => &["name", "description"],
            Version::V12 => &["text"],
        };
        for f in fields {
            if !r[*f].is_string() {
                return Err(bug(format!("a result has no `{f}`")));
            }
        }
        let kind = r["type"].as_str().unwrap_or_default();
        let linked = match version {
            Version::V13 => r["documentUuid"]
                .as_str()
                .is_some_and(|u| u.strip_prefix("RollTable.").is_some_and(is_foundry_id)),
            Version::V12 => {
                r["documentCollection"] == "RollTable"
                    && r["documentId"].as_str().is_some_and(is_foundry_id)
            }
        };
        if !(kind == "text" || kind == "document" && linked) || r["drawn"] != false {
            return Err(bug(format!(
                "a result has type `{kind}`, drawn {}",
                r["drawn"]
            )));
        }
        if !r["_id"].as_str().is_some_and(is_foundry_id) {
            return Err(bug("a result has no 16-character `_id`".into()));
        }
        let (Some(lo), Some(hi), Some(w)) = (
            r["range"][0].as_i64(),
            r["range"][1].as_i64(),
            r["weight"].as_i64(),
        ) else {
            return Err(bug(
                "a result lacks a whole-number `range` or `weight`".into()
            ));
        };
        if r["range"].as_array().map(Vec::len) != Some(2) {
            return Err(bug("a `range` is not two numbers".into()));
        }
        ranges.push((lo, hi, w));
    }
    check_ranges(t, "Foundry VTT", &ranges)
}

/// Whether `s` is a Foundry document id: 16 ASCII letters and digits.
pub fn is_foundry_id(s: &str) -> bool {
    s.len() == 16 && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Refuse (exit 1) a table Foundry VTT would roll differently from the content, naming why.
pub fn refuse(t: &Table) -> Result<()> {
    match refusal(t) {
        None => Ok(()),
        Some(why) => Err(Problem::Foundry {
            table: t.id.clone(),
            at: t.at.clone(),
            why,
        }
        .into()),
    }
}

/// Why Foundry VTT would roll the table's dice, or an inline roll of one of its results, differently
/// from the content ([`formula::foundry_refusal`]); `None` when it rolls them all the same.
pub fn refusal(t: &Table) -> Option<String> {
    use blockprint_content::text::{Piece, pieces};
    if let Some(why) = blockprint_dice::parse(&t.dice)
        .ok()
        .and_then(|e| formula::foundry_refusal(e.root()))
    {
        return Some(format!("its dice `{}` use {why}", t.dice));
    }
    t.rows.iter().find_map(|row| {
        pieces(&row.result)
            .unwrap_or_default()
            .into_iter()
            .find_map(|p| match p {
                Piece::Roll { expr, .. } => blockprint_dice::parse(expr)
                    .ok()
                    .and_then(|e| formula::foundry_refusal(e.root()))
                    .map(|why| format!("the roll `{expr}` in row {} uses {why}", row.at)),
                _ => None,
            })
    })
}

/// A result's text for Foundry: inline rolls as `[[…]]`, references as the table's title — or, with
/// `links`, as a content link to its RollTable. HTML-escaped with `html` (for `description` and v12's
/// `text`); raw without it, for v13's `name`, which Foundry shows as plain text.
pub(super) fn render_text(lib: &Library, text: &str, links: bool, html: bool) -> Result<String> {
    use super::Rendered;
    let esc = |s: &str| {
        if html { self::html(s) } else { s.to_owned() }
    };
    super::render_pieces(text, |p| match p {
        Rendered::Text(s) => esc(s),
        Rendered::Roll(e) => format!("[[{}]]", formula::foundry(e.root())),
        Rendered::Table(id) => {
            let title = lib
                .table(id)
                .map(|t| t.title.clone())
                .unwrap_or_else(|| id.to_owned());
            if links {
                format!("@UUID[RollTable.{}]{{{}}}", table_id(id), esc(&title))
            } else {
                esc(&title)
            }
        }
    })
}

fn paragraph(html: &str) -> String {
    format!("<p>{html}</p>")
}

/// Plain text as Foundry HTML: escaped, each line break a `<br>` (a bare one shows as a space).
pub fn html(s: &str) -> String {
    blockprint_content::carry::html_breaks(&escape(s))
}

/// Text made safe for Foundry's HTML fields.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[derive(Serialize)]
struct Cards {
    _id: String,
    _key: String,
    name: String,
    #[serde(rename = "type")]
    kind: &'static str,
    description: String,
    img: String,
    cards: Vec<Card>,
    width: u32,
    height: u32,
    rotation: u32,
    #[serde(rename = "displayCount")]
    display_count: bool,
    flags: serde_json::Map<String, serde_json::Value>,
}

#[derive(Serialize)]
struct Card {
    _id: String,
    _key: String,
    name: String,
    #[serde(rename = "type")]
    kind: &'static str,
    description: String,
    suit: String,
    value: u32,
    back: Face,
    faces: Vec<Face>,
    face: u32,
    drawn: bool,
    origin: String,
    width: u32,
    height: u32,
    rotation: u32,
    sort: u32,
    flags: serde_json::Map<String, serde_json::Value>,
}

#[derive(Serialize)]
struct Face {
    name: String,
    text: String,
    img: String,
}

/// The picture of the `n`-th card (from 1, in print order: suits as printed, ranks in order) of deck
/// `deck_id`: its path in the export's folder and in Foundry's Data folder.
pub fn front_image(deck_id: &str, n: usize) -> String {
    format!("cards/{}/{n:03}-front.png", slug(deck_id))
}

/// The picture of deck `deck_id`'s back, as [`front_image`].
pub fn back_image(deck_id: &str) -> String {
    format!("cards/{}/back.png", slug(deck_id))
}

/// The dots per inch of the card pictures, as `deck --png`.
pub const PICTURE_DPI: f64 = 300.0;

/// The pictures of deck `deck_id` for its Cards document: the deck laid out as `deck --png` lays it
/// out (one card a page at trim plus `--single`'s bleed), its fronts in print order and then its back
/// once, every card sharing the deck's back. Named by [`front_image`] and [`back_image`].
pub fn pictures(cx: &Checked, req: &Request, deck_id: &str) -> Result<Pictures> {
    use crate::cards::{CardOptions, DECK, SINGLE_BLEED};
    let bug = |why: &str| invariant(format!("the card pictures of deck `{deck_id}`: {why}"));
    let singles = DECK.with(
        CardOptions {
            single: true,
            bleed: SINGLE_BLEED,
            ..CardOptions::DEFAULT
        },
        Some(vec![deck_id.to_owned()]),
    );
    let doc = singles.document(cx, req, 0)?;
    let mut data = singles.pdf_data(&doc).into_owned();
    let pages = data["layout"]["pages"]
        .as_array()
        .ok_or_else(|| bug("the layout has no pages"))?;
    let fronts: Vec<serde_json::Value> = pages
        .iter()
        .filter(|p| p["side"] == "front")
        .cloned()
        .collect();
    let backs: Vec<&serde_json::Value> = pages.iter().filter(|p| p["side"] == "back").collect();
    let back = (*backs.first().ok_or_else(|| bug("no back"))?).clone();
    if backs.iter().any(|b| b["cards"] != back["cards"]) {
        return Err(bug("its cards have different backs"));
    }
    let size = cx
        .lib
        .deck(deck_id)
        .map(|d| d.cards.iter().map(|s| s.value.len()).sum::<usize>())
        .ok_or_else(|| bug("no such deck"))?;
    if fronts.len() != size {
        return Err(bug(&format!("{} fronts for {size} cards", fronts.len())));
    }
    let names = (1..=fronts.len())
        .map(|n| front_image(deck_id, n))
        .chain([back_image(deck_id)])
        .collect();
    let mut pages = fronts;
    pages.push(back);
    let keys = picture_keys(&data, &pages)?;
    data["layout"]["pages"] = pages.into();
    Ok(Pictures {
        template: doc.template,
        data,
        dpi: PICTURE_DPI,
        names,
        keys,
    })
}

/// What draws each picture (`pages` one card each): what the cards template draws a page from (the
/// layout without its pages, the paper, the page and its place, and the faces its cards show), not what
/// only the PDF's metadata or the Markdown reads (the title, the content's version and source, the
/// generator, the deck's Markdown). Two pictures with the same key are the same picture, in any deck,
/// run, content or Foundry version: editing one card draws that card again and no other.
fn picture_keys(data: &serde_json::Value, pages: &[serde_json::Value]) -> Result<Vec<String>> {
    let mut common = data.clone();
    let map = common
        .as_object_mut()
        .ok_or_else(|| invariant("the card pictures' data is not an object"))?;
    for unseen in [
        "title",
        "content_version",
        "source",
        "generator",
        "markdown",
    ] {
        map.remove(unseen);
    }
    let faces = map
        .remove("faces")
        .and_then(|f| f.as_array().cloned())
        .ok_or_else(|| invariant("the card pictures' data has no faces"))?;
    if let Some(layout) = common["layout"].as_object_mut() {
        layout.remove("pages");
    }
    pages
        .iter()
        .enumerate()
        .map(|(i, page)| {
            let shown: Vec<&serde_json::Value> = page["cards"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| c["face"].as_u64())
                .map(|n| faces.get(n as usize).unwrap_or(&serde_json::Value::Null))
                .collect();
            let key = serde_json::json!({
                "common": common,
                "faces": faces.len(),
                "index": i,
                "page": page,
                "shown": shown,
            });
            serde_json::to_vec(&key)
                .map(|bytes| blockprint_render::manifest::sha256(&bytes))
                .map_err(|e| crate::error::write("a card picture's key", e))
        })
        .collect()
}

const RANK_NAMES: [&str; 13] = [
    "Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen",
    "King",
];

/// The value of a standard rank: its place among A, 2 … 10, J, Q, K (ace 1 … king 13).
fn rank_value(rank: &str) -> Option<u32> {
    RANKS.iter().position(|r| *r == rank).map(|i| i as u32 + 1)
}

/// A Cards document of type `deck` for `d`: one card per declared rank and suit (52 for the standard
/// ranks), each with its suit, its value (the rank's: ace 1 … king 13, so a short deck's 7 is still 7), one
/// face holding the card's text (what the print-and-play card shows) and a back naming the deck.
pub fn cards(d: &Deck) -> Result<String> {
    let id = foundry_id("Cards", &d.id);
    let values = d
        .ranks
        .iter()
        .map(|r| {
            rank_value(r).ok_or_else(|| unchecked(format!("has deck `{}` with rank `{r}`", d.id)))
        })
        .collect::<Result<Vec<u32>>>()?;
    let mut cards = Vec::new();
    for (suit, meaning, texts) in &d.suits {
        if texts.len() != values.len() {
            return Err(unchecked(format!(
                "has deck `{}` with {} {suit}, not {}",
                d.id,
                texts.len(),
                values.len()
            )));
        }
        let suit_name = capitalise(suit);
        for (&value, text) in values.iter().zip(texts) {
            let cid = foundry_id("Card", &format!("{}#{suit}#{value}", d.id));
            let name = format!("{} of {suit_name}", RANK_NAMES[value as usize - 1]);
            let img = front_image(&d.id, cards.len() + 1);
            cards.push(Card {
                _key: format!("!cards.cards!{id}.{cid}"),
                _id: cid,
                name: name.clone(),
                kind: "base",
                description: paragraph(&html(&format!("{suit_name}: {meaning}"))),
                suit: suit.clone(),
                value,
                back: Face {
                    name: d.title.clone(),
                    text: String::new(),
                    img: back_image(&d.id),
                },
                faces: vec![Face {
                    name,
                    text: html(text),
                    img,
                }],
                face: 0,
                drawn: false,
                origin: id.clone(),
                width: 2,
                height: 3,
                rotation: 0,
                sort: cards.len() as u32,
                flags: Default::default(),
            });
        }
    }
    let suits = d
        .suits
        .iter()
        .map(|(s, m, _)| format!("<li>{}: {}</li>", capitalise(s), html(m)))
        .collect::<String>();
    let note = d
        .note
        .as_deref()
        .map(|n| paragraph(&html(n)))
        .unwrap_or_default();
    let doc = Cards {
        _key: format!("!cards!{id}"),
        _id: id,
        name: d.title.clone(),
        kind: "deck",
        description: format!("{note}<ul>{suits}</ul>"),
        img: back_image(&d.id),
        cards,
        width: 2,
        height: 3,
        rotation: 0,
        display_count: true,
        flags: Default::default(),
    };
    let value = json("a Foundry Cards document", &doc)?;
    check_cards(d, &value)?;
    json_text("a Foundry Cards document", &doc)
}

/// Read a Cards document back: one card per declared rank and suit (52 for the standard ranks), each suit
/// and value once, every card text there, each face's picture the card's own in print order, every back's
/// and the deck's the deck's back.
pub fn check_cards(d: &Deck, v: &serde_json::Value) -> Result<()> {
    let bug = |why: String| -> Error {
        Problem::ExportCheck {
            export: "Foundry".into(),
            item: format!("deck `{}`", d.id),
            why,
        }
        .into()
    };
    if v["type"] != "deck"
        || !v["_id"].as_str().is_some_and(is_foundry_id)
        || !v["name"].is_string()
        || v["img"] != back_image(&d.id).as_str()
    {
        return Err(bug("`type`, `_id`, `name` or `img` is wrong".into()));
    }
    let cards = v["cards"]
        .as_array()
        .ok_or_else(|| bug("no `cards`".into()))?;
    let mut seen = std::collections::BTreeSet::new();
    for c in cards {
        let (Some(suit), Some(value), Some(text)) = (
            c["suit"].as_str(),
            c["value"].as_u64(),
            c["faces"][0]["text"].as_str(),
        ) else {
            return Err(bug("a card lacks `suit`, `value` or a face's `text`".into()));
        };
        let place = d
            .ranks
            .iter()
            .position(|r| rank_value(r).map(u64::from) == Some(value));
        let expected = d
            .suits
            .iter()
            .find(|(s, _, _)| s == suit)
            .zip(place)
            .and_then(|((_, _, texts), i)| texts.get(i));
        let printed = d
            .suits
            .iter()
            .position(|(s, _, _)| s == suit)
            .zip(place)
            .map(|(s, i)| s * d.ranks.len() + i + 1);
        if expected.map(|e| html(e)).as_deref() != Some(text)
            || !c["back"].is_object()
            || c["back"]["img"] != back_image(&d.id).as_str()
            || printed.map(|n| front_image(&d.id, n)).as_deref() != c["faces"][0]["img"].as_str()
            || c["drawn"] != false
        {
            return Err(bug(format!(
                "card {value} of {suit} does not show the deck's card"
            )));
        }
        if !seen.insert((suit.to_owned(), value)) {
            return Err(bug(format!("card {value} of {suit} appears twice")));
        }
    }
    let size = d.suits.len() * d.ranks.len();
    if seen.len() != size {
        return Err(bug(format!("{} cards, not {size}", seen.len())));
    }
    Ok(())
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
