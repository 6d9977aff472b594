//! The Storypath chase kit (`kit-storypath`): a chase tracker for laps with each side's interval limit,
//! the pool odds under the house ruling on dice (exact, from the dice engine), and reference cards for the
//! chase modifiers, the movement actions, cover and hard going.

use super::uwsp::{self, card, heading, list, table, text};
use crate::error::Problem;
use crate::{Checked, Document, Kind, Request, Requirements};
use blockprint_content::EntryValue;
use blockprint_content::error::Result;

pub const GAME: &str = "sp";
pub const POOLS: &str = "sp.pools";
pub const MODIFIERS: &str = "sp.modifiers";
pub const MOVEMENT: &str = "sp.movement";
pub const COVER: &str = "sp.cover";
pub const TERRAIN: &str = "sp.terrain";
pub const POOL_DICE: &str = "sp.pool_dice";
/// Keys of [`POOL_DICE`].
pub const DIE_SIZE: &str = "Die size";
pub const SUCCEEDS_ON: &str = "Succeeds on";
/// Pool sizes the odds table lists.
pub const POOL_SIZES: std::ops::RangeInclusive<u32> = 1..=10;
/// Successes the odds table lists ("at least k").
pub const AT_LEAST: std::ops::RangeInclusive<i64> = 1..=4;

const NAME: &str = "kit-storypath";
/// The parts of the prose page `sheet` (content/storypath/kit/sheet.md) the sheet places by anchor.
/// The prose page the sheet places.
pub const SHEET: &str = "sheet";
pub const PROSE: [&str; 6] = [
    "chase-tracker",
    "interval-limit",
    "short-chases",
    "initiative",
    "turns-and-mixed-actions",
    "foot-speed",
];

/// The kind.
pub struct StorypathKit;
pub static KIT: StorypathKit = StorypathKit;

/// Exact odds of a pool of `dice` dice.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PoolOdds {
    pub dice: u32,
    pub expr: String,
    /// P(at least k successes) for k in [`AT_LEAST`].
    pub at_least: Vec<String>,
    pub pct: Vec<String>,
    /// Mean successes, two decimals.
    pub mean: String,
}

/// The die size and the number a die must reach, from the content.
pub fn pool_dice(cx: &Checked) -> Result<(i64, i64)> {
    let l = cx
        .lib
        .lookup(POOL_DICE)
        .ok_or_else(|| uwsp::missing(NAME, POOL_DICE))?;
    let int = |key: &str| {
        l.entries
            .iter()
            .find(|e| e.key.value == key)
            .and_then(|e| match e.value.value {
                EntryValue::Integer(n) => Some(n),
                EntryValue::Text(_) => None,
            })
            .ok_or_else(|| uwsp::missing(NAME, &format!("{POOL_DICE}: `{key}` (a whole number)")))
    };
    let (die, target) = (int(DIE_SIZE)?, int(SUCCEEDS_ON)?);
    if !(2..=1000).contains(&die) || !(1..=die).contains(&target) {
        return Err(Problem::PoolDie {
            at: POOL_DICE.into(),
            die,
            target,
        }
        .into());
    }
    Ok((die, target))
}

/// Exact odds of every pool size under the content's pool dice.
pub fn pool_odds(die: i64, target: i64) -> Result<Vec<PoolOdds>> {
    let mut out = Vec::new();
    for n in POOL_SIZES {
        let expr = format!("{n}d{die}cs>={target}");
        let d = uwsp::dist(&expr)?;
        let qs: Vec<_> = AT_LEAST.map(|k| uwsp::between(&d, Some(k), None)).collect();
        out.push(PoolOdds {
            dice: n,
            at_least: qs.iter().map(uwsp::odds).collect(),
            pct: qs.iter().map(uwsp::pct).collect(),
            mean: cards_mean(&d.mean()),
            expr,
        });
    }
    Ok(out)
}

fn cards_mean(q: &blockprint_dice::BigRational) -> String {
    crate::cards::reference::mean(q)
}

fn sheet_data(cx: &Checked) -> Result<serde_json::Value> {
    let get = |id: &str| cx.lib.lookup(id).ok_or_else(|| uwsp::missing(NAME, id));
    let (die, target) = pool_dice(cx)?;
    Ok(serde_json::json!({
        "prose": super::prose(cx, GAME, SHEET, &PROSE)?,
        "pools": uwsp::lookup_json(get(POOLS)?),
        "modifiers": uwsp::lookup_json(get(MODIFIERS)?),
        "movement": uwsp::lookup_json(get(MOVEMENT)?),
        "cover": uwsp::lookup_json(get(COVER)?),
        "terrain": uwsp::lookup_json(get(TERRAIN)?),
        "pool": {
            "die": die,
            "target": target,
            "at_least": AT_LEAST.collect::<Vec<_>>(),
            "odds": pool_odds(die, target)?,
        },
    }))
}

fn entry_list(cx: &Checked, id: &str) -> Result<Vec<(String, String)>> {
    let l = cx.lib.lookup(id).ok_or_else(|| uwsp::missing(NAME, id))?;
    Ok(l.entries
        .iter()
        .map(|e| {
            let tag = e
                .note
                .as_deref()
                .map(|n| format!(" ({n})"))
                .unwrap_or_default();
            (
                format!("{}{tag}: ", String::from(&e.key.value)),
                String::from(&e.value.value.to_string()),
            )
        })
        .collect())
}

fn cards_document(cx: &Checked, req: &Request, about: &serde_json::Value) -> Result<Document> {
    let get = |id: &str| cx.lib.lookup(id).ok_or_else(|| uwsp::missing(NAME, id));
    let modifiers = get(MODIFIERS)?;
    let mut mods = vec![text(
        "",
        "Run a long chase as a complex action: every interval each side rolls its pool and earns laps; the first to the laps it needs catches or escapes, unless its interval limit comes first.",
    )];
    mods.push(list(entry_list(cx, MODIFIERS)?));
    if let Some(n) = &modifiers.note {
        mods.push(text("", &String::from(n)));
    }
    let moves = entry_list(cx, MOVEMENT)?;
    let half = moves.len().div_ceil(2);
    let cover = get(COVER)?;
    let cover_rows: Vec<Vec<String>> = cover
        .entries
        .iter()
        .map(|e| {
            vec![
                String::from(&e.key.value),
                String::from(&e.value.value.to_string()),
                e.note.as_deref().map(String::from).unwrap_or_default(),
            ]
        })
        .collect();
    let mut cover_blocks = vec![
        text(
            "Utilize Cover: ",
            "a simple Athletics + Dexterity roll, or a Defensive Stunt.",
        ),
        table(&["Cover", "Absorbs", "For example"], &[3, 2, 7], cover_rows),
    ];
    if let Some(n) = &cover.note {
        cover_blocks.push(text("", &String::from(n)));
    }
    let (die, target) = pool_dice(cx)?;
    let odds = pool_odds(die, target)?;
    let mut cols = vec!["Dice".to_owned()];
    cols.extend(AT_LEAST.map(|k| format!("{k}+")));
    let cols: Vec<&str> = cols.iter().map(String::as_str).collect();
    let mut widths = vec![2];
    widths.extend(AT_LEAST.map(|_| 3));
    let pool_card = card(
        "Pool odds",
        "",
        vec![
            text(
                "House ruling: ",
                &format!(
                    "d{die}s, each {target} or more is a success. Chance of at least this many successes:"
                ),
            ),
            table(
                &cols,
                &widths,
                odds.iter()
                    .map(|o| {
                        std::iter::once(o.dice.to_string())
                            .chain(o.pct.iter().cloned())
                            .collect()
                    })
                    .collect(),
            ),
        ],
    );
    let faces = vec![
        card("Chase modifiers", "", mods),
        card(
            "Movement",
            "1/2",
            vec![heading("Actions"), list(moves[..half].to_vec())],
        ),
        card("Movement", "2/2", {
            // What reflexive and simple mean, under the second half of the actions.
            let mut b = vec![list(moves[half..].to_vec())];
            if let Some(n) = &get(MOVEMENT)?.note {
                b.push(text("", &String::from(n)));
            }
            b
        }),
        card("Cover", "", cover_blocks),
        card("Hard going", "", vec![list(entry_list(cx, TERRAIN)?)]),
        pool_card,
    ];
    uwsp::card_document(
        cx,
        req,
        "storypath-cards",
        "Storypath: chase and movement cards",
        "kit-storypath/cards",
        faces,
        &[],
        uwsp::back("Storypath", "Chases and movement"),
        about,
    )
}

/// What the `StorypathKit` kind is.
pub static INFO: crate::KindInfo = crate::KindInfo::new(
    NAME,
    "Storypath chase kit: lap tracker with interval limits, chase modifiers, movement, cover, exact pool and whole-chase odds",
    "kits/storypath",
    crate::PDF_MD_JSON,
)
.titled("Storypath chase kit")
.papers(crate::HOME_PAPERS);

impl Kind for StorypathKit {
    fn pdf_data<'a>(&self, doc: &'a crate::Document) -> std::borrow::Cow<'a, serde_json::Value> {
        crate::cards::typeset_data(doc)
    }
    fn info(&self) -> &crate::KindInfo {
        &INFO
    }
    fn requires(&self) -> Requirements {
        Requirements {
            lookups: vec![
                POOLS.into(),
                MODIFIERS.into(),
                MOVEMENT.into(),
                COVER.into(),
                TERRAIN.into(),
                POOL_DICE.into(),
            ],
            int_keys: vec![
                (POOL_DICE.into(), DIE_SIZE.into()),
                (POOL_DICE.into(), SUCCEEDS_ON.into()),
            ],
            kits: vec![GAME.into()],
            prose: vec![super::prose_needs(GAME, SHEET, &PROSE)],
            ..Requirements::default()
        }
    }
    fn count(&self, _cx: &Checked, req: &Request) -> Result<usize> {
        uwsp::card_options_ok(req)?;
        Ok(3)
    }
    fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document> {
        let about = uwsp::about(cx, NAME, GAME, None)?;
        match i {
            0 => uwsp::sheet_document(
                cx,
                req,
                "storypath",
                "Storypath: chase tracker and movement",
                "kit-storypath/kit",
                sheet_data(cx)?,
                &about,
            ),
            1 => cards_document(cx, req, &about),
            _ => {
                let data = super::odds_page(cx, "kit-storypath", &[], || {
                    blockprint_chase::storypath::kit_page(&cx.lib, "Storypath")
                })?;
                let title = "Storypath: chase odds";
                uwsp::sheet_document(
                    cx,
                    req,
                    "storypath-chase-odds",
                    title,
                    "common/chase-odds",
                    data,
                    &about,
                )
            }
        }
    }
    fn finish_pdf(&self, doc: &Document, pdf: Vec<u8>) -> Result<Vec<u8>> {
        uwsp::finish_pdf(doc, pdf)
    }
}
