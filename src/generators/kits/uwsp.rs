//! What the Urban World, Storypath and Block by Block chase kits share: every kit is a sheet document
//! (the kit's own template, `templates/kit-<game>/kit.typ`) plus card documents laid out by the card
//! engine of [`crate::generators::cards`] (imposition, crop marks, backs) and printed through
//! `templates/kit-<game>/cards.typ`, which adds the kit's source and licence to every sheet of cards.

use num_traits::Zero;

use crate::content::text::smart_quotes;
use crate::content::{EntryValue, Lookup};
use crate::dice::{self, BigRational};
use crate::error::{Error, Result};
use crate::generators::cards::faces::{Back, Block, Face, Reference};
use crate::generators::cards::{self, Card, CardOptions, CardsData};
use crate::generators::{Checked, Document, Kind, Request};

/// The formats every kit makes.
pub const FORMATS: [crate::render::Format; 3] = [
    crate::render::Format::Pdf,
    crate::render::Format::Md,
    crate::render::Format::Json,
];

/// The papers the kit sheets and the card imposition are laid out for.
pub const PAPERS: [crate::render::Paper; 2] =
    [crate::render::Paper::A4, crate::render::Paper::Letter];

/// Content the kind needs but the content lacks (the checker names it first; this is the run-time guard).
pub fn missing(kind: &str, what: &str) -> Error {
    Error::Rules(format!(
        "the `{kind}` generator needs `{what}`, which the content lacks (`blockprint check` names it)"
    ))
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
    serde_json::to_value(a).map_err(|e| Error::Bug(e.to_string()))
}

/// A lookup's entries as `{key, value, note}` with smart quotes, for the templates.
pub fn entries(l: &Lookup) -> Vec<serde_json::Value> {
    l.entries
        .iter()
        .map(|e| {
            let value = match &e.value.value {
                EntryValue::Integer(n) => n.to_string(),
                EntryValue::Text(t) => smart_quotes(t),
            };
            serde_json::json!({
                "key": smart_quotes(&e.key.value),
                "value": value,
                "note": e.note.as_deref().map(smart_quotes),
            })
        })
        .collect()
}

/// A lookup as the templates see it: title, headings, note and entries.
pub fn lookup_json(l: &Lookup) -> serde_json::Value {
    serde_json::json!({
        "id": l.id.value,
        "title": smart_quotes(&l.title),
        "key": smart_quotes(&l.key),
        "value": smart_quotes(&l.value),
        "note": l.note.as_deref().map(smart_quotes),
        "entries": entries(l),
    })
}

/// The exact distribution of a dice expression.
pub fn dist(expr: &str) -> Result<dice::Dist> {
    let e = dice::parse(expr).map_err(|e| Error::Rules(format!("`{expr}`: {}", e.message)))?;
    e.distribution()
        .map_err(|e| Error::Rules(format!("`{expr}`: {e}")))
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

/// Odds as the kits print them: the reduced fraction and the percentage to one decimal (`15/36` is
/// printed `5/12 (41.7%)`), or a whole percentage when exact.
pub fn odds(q: &BigRational) -> String {
    cards::reference::odds(q)
}

/// The percentage alone, one decimal (`41.7%`), for tight card cells.
pub fn pct(q: &BigRational) -> String {
    let p = q * BigRational::from_integer(100.into());
    format!("{:.1}%", dice::approx(&p))
}

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
        meta: crate::generators::meta(cx, req),
        title: title.into(),
        faces,
        layout,
        markdown: serde_json::json!({}),
    };
    let mut data = serde_json::to_value(&data).map_err(|e| Error::Bug(e.to_string()))?;
    put(&mut data, "about", about.clone());
    Ok(Document {
        stem: stem.into(),
        template: template.into(),
        title: title.into(),
        data,
        json: None,
        parts: vec![],
        summary: serde_json::Value::Null,
        bookmark: String::new(),
    })
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
    let mut m = crate::generators::meta(cx, req);
    m.insert("title".into(), title.into());
    m.insert("about".into(), about.clone());
    if let serde_json::Value::Object(o) = data {
        m.extend(o);
    }
    Ok(Document {
        stem: stem.into(),
        template: template.into(),
        title: title.into(),
        data: serde_json::Value::Object(m),
        json: None,
        parts: vec![],
        summary: serde_json::Value::Null,
        bookmark: String::new(),
    })
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
