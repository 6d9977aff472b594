//! The blank sheets: checked content in; three documents out, each a flat print PDF plus a fillable copy
//! (`<stem>-fillable.pdf`, AcroForm fields over the drawn boxes, see [`blockprint_render::form`]):
//! the character sheet (`character`), the players' caseload sheet (`caseload`) and the GM case sheet
//! (`gm-case`). Nothing is rolled. The character sheet is the same template a rolled detective fills
//! (`detective: null` here); what a player needs at the table comes from the content ([`rules`]).

use serde_json::{Value, json};

use super::{Checked, Document, Kind, Request, Requirements};
use blockprint_content::Library;
use blockprint_content::error::Result;
use blockprint_render::Format;

pub struct SheetKind;

/// The lookups and tables the sheets print.
pub const ATTRIBUTES: &str = "bbb.character.attributes";
pub const LEGWORK: &str = "bbb.legwork.activities";
pub const RELATIONSHIPS: &str = "bbb.character.relationships";
pub const HIT_DIE: &str = "bbb.class.hit_die";
pub const THRESHOLDS: &str = "bbb.casework.break_threshold";
pub const MODIFIERS: &str = "bbb.character.attribute_modifier";

/// The sheets: (stem, template, title).
pub const SHEETS: [(&str, &str, &str); 3] = [
    ("character", "sheet/character", "Character sheet"),
    ("caseload", "sheet/caseload", "Caseload sheet"),
    ("gm-case", "sheet/gm-case", "GM case sheet"),
];

/// The form-field names of the six attributes, in the rules' order (fixed: scripts fill them).
pub const ATTRIBUTE_KEYS: [&str; 6] = ["str", "dex", "con", "int", "wis", "cha"];

/// What the sheets show from the content: attribute names, legwork activities with their attributes,
/// starting relationships, hit dice, modifiers and Break thresholds. The `detective` kind passes the same
/// value as `rules` to the character sheet template.
pub fn rules(lib: &Library) -> Result<Value> {
    let lookup = |id: &str| {
        lib.lookup(id)
            .ok_or_else(|| crate::kits::uwsp::missing("sheet", id))
    };
    // The sheet has the rules' six attributes, whatever the lookup lists: its entries name them in order
    // ("Strength (STR)" → name "Strength", abbreviation "STR"); one it lacks shows the field's key.
    let attrs = lookup(ATTRIBUTES)?;
    let attributes: Vec<Value> = ATTRIBUTE_KEYS
        .iter()
        .enumerate()
        .map(|(i, key)| {
            let Some(e) = attrs.entries.get(i) else {
                return json!({ "key": key, "abbr": key.to_uppercase(), "name": "", "covers": "" });
            };
            let k = e.key.value.trim();
            let (name, abbr) = match (k.rfind('('), k.ends_with(')')) {
                (Some(open), true) => (
                    k[..open].trim().to_owned(),
                    k[open + 1..k.len() - 1].to_owned(),
                ),
                _ => (k.to_owned(), key.to_uppercase()),
            };
            json!({ "key": key, "abbr": abbr, "name": name, "covers": e.value.value.to_string() })
        })
        .collect();
    let legwork_lookup = lookup(LEGWORK)?;
    let legwork: Vec<Value> = legwork_lookup
        .entries
        .iter()
        .map(|e| json!({ "activity": e.key.value, "with": e.value.value.to_string() }))
        .collect();
    // Five rows, by tier; a row the lookup lacks has no printed role.
    let rel = lookup(RELATIONSHIPS)?;
    let relationships: Vec<Value> = rel
        .entries
        .iter()
        .map(|e| json!({ "role": e.key.value, "tier": e.value.value.to_string() }))
        .collect();
    let hit_dice: Vec<Value> = lookup(HIT_DIE)?
        .entries
        .iter()
        .map(|e| json!({ "class": e.key.value, "die": e.value.value.to_string() }))
        .collect();
    let thresholds: Vec<Value> = lookup(THRESHOLDS)?
        .entries
        .iter()
        .map(|e| json!({ "key": e.key.value, "value": e.value.value.to_string() }))
        .collect();
    let modifiers: Vec<Value> = lib
        .table(MODIFIERS)
        .ok_or_else(|| crate::kits::uwsp::missing("sheet", MODIFIERS))?
        .rows
        .iter()
        .map(|r| json!({ "on": r.on.value.replace('-', "–"), "result": r.result.value }))
        .collect();
    Ok(json!({
        "attributes": attributes,
        "legwork": legwork,
        "legwork_note": legwork_lookup.note,
        "relationships": relationships,
        "hit_dice": hit_dice,
        "thresholds": thresholds,
        "modifiers": modifiers,
    }))
}

/// What the character sheet template (`sheet/character`) sees for a rolled detective: the metadata,
/// the content's [`rules`] and `detective` (the `<Detective>` JSON; `null` for the blank sheet). A kind
/// that prints detectives on the sheet uses this as its document's `data`; the engine then also writes the
/// filled, still-editable `-fillable.pdf` from the values the template typed.
pub fn character_data(cx: &Checked, req: &Request, detective: Value) -> Result<Value> {
    let mut m = super::meta(cx, req);
    m.insert("sheet".into(), "character".into());
    m.insert("detective".into(), detective);
    m.insert("rules".into(), rules(&cx.lib)?);
    Ok(m.into())
}

/// What the `SheetKind` kind is.
pub static INFO: crate::KindInfo = crate::KindInfo::new(
    "sheet",
    "blank character, caseload and GM case sheets: print PDFs and fillable PDF forms",
    "sheet",
    &[Format::Pdf],
)
.titled("Blank sheets")
.papers(crate::HOME_PAPERS);

impl Kind for SheetKind {
    fn info(&self) -> &crate::KindInfo {
        &INFO
    }
    fn requires(&self) -> Requirements {
        Requirements {
            tables: vec![MODIFIERS.into()],
            lookups: vec![
                ATTRIBUTES.into(),
                LEGWORK.into(),
                RELATIONSHIPS.into(),
                HIT_DIE.into(),
                THRESHOLDS.into(),
            ],
            ..Requirements::default()
        }
    }
    fn count(&self, _cx: &Checked, _req: &Request) -> Result<usize> {
        Ok(SHEETS.len())
    }
    fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document> {
        let &(stem, template, title) = SHEETS
            .get(i)
            .ok_or_else(|| crate::error::no_document("sheet", i, SHEETS.len()))?;
        let mut data = character_data(cx, req, Value::Null)?;
        data["sheet"] = stem.into();
        Ok(
            Document::new(stem, template, title, data).audience(if stem == "gm-case" {
                // The GM's case sheet is the GM's; the character and caseload sheets are the players'.
                crate::Audience::Gm
            } else {
                crate::Audience::Player
            }),
        )
    }
}
