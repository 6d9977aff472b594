//! The Urban World chase kit (`kit-urban-world`): a chase ladder tracker with cut-out markers, the hold
//! table with the exact odds of each band for 2d6 + stat at every stat from −1 to +3 (computed by the
//! dice engine from the content's table), and print-and-play cards: the three ways to spend hold (one
//! per party), the beat in brief and the odds.

use super::uwsp::{self, card, heading, list, table, text};
use crate::error::Problem;
use crate::{Checked, Document, Kind, Request, Requirements};
use blockprint_content::error::Result;
use blockprint_content::text::parse_on;

/// The game of the kit's content ids.
pub const GAME: &str = "uw";
pub const LADDER: &str = "uw.ladder";
pub const TERRAIN: &str = "uw.terrain";
pub const HOLD: &str = "uw.hold";
pub const OPTIONS: &str = "uw.options";
pub const NPC_POINTS: &str = "uw.npc_points";
/// The rung a chase starts on ("The chase starts at gaining ground").
pub const START: &str = "Gaining ground";
/// The stats the hold table lists (Dungeon World's usual spread of a leader's stat).
pub const STATS: std::ops::RangeInclusive<i64> = -1..=3;

const NAME: &str = "kit-urban-world";

/// The parts of the prose page `sheet` (content/urban-world/kit/sheet.md) the sheet places by anchor.
/// The prose page the sheet places.
pub const SHEET: &str = "sheet";
pub const PROSE: [&str; 7] = [
    "markers",
    "lay-out-the-terrain",
    "roll-and-assign-hold",
    "apply-the-results",
    "exact-odds",
    "aiding-and-interfering",
    "the-singleton-rule",
];

/// The kind.
pub struct UrbanWorldKit;
pub static KIT: UrbanWorldKit = UrbanWorldKit;

/// One band of the hold table: the totals it covers and its hold.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Band {
    /// `6−`, `7–9`, `10+`.
    pub label: String,
    pub hold: String,
    /// Lowest total of the band (`None`: no floor) and highest (`None`: no ceiling).
    pub lo: Option<i64>,
    pub hi: Option<i64>,
}

/// The exact odds of every band for one stat.
#[derive(Debug, Clone, serde::Serialize)]
pub struct StatOdds {
    /// `−1`, `+0`, `+2`.
    pub stat: String,
    pub dice: String,
    /// Per band, in the bands' order: `5/12 (41.7%)`.
    pub odds: Vec<String>,
    /// Per band, the percentage alone (cards).
    pub pct: Vec<String>,
}

/// Signed stat as printed: `−1`, `+0`, `+3`.
pub fn signed(s: i64) -> String {
    if s < 0 {
        format!("−{}", -s)
    } else {
        format!("+{s}")
    }
}

/// The bands of the hold table: the first row reaches down without floor and the last up without
/// ceiling, since a stat moves the total past the dice's own range.
pub fn bands(cx: &Checked) -> Result<(String, Vec<Band>)> {
    let t = cx
        .lib
        .table(HOLD)
        .ok_or_else(|| uwsp::missing(NAME, HOLD))?;
    let n = t.rows.len();
    let mut out = Vec::new();
    for (i, r) in t.rows.iter().enumerate() {
        let on = parse_on(&r.on.value, 0).map_err(|why| Problem::BadRow {
            at: HOLD.into(),
            why,
        })?;
        let lo = (i > 0).then_some(on.lo);
        let hi = if i + 1 == n { None } else { on.hi };
        let label = match (lo, hi) {
            (None, Some(h)) => format!("{h}−"),
            (Some(l), None) => format!("{l}+"),
            (Some(l), Some(h)) if l == h => l.to_string(),
            (Some(l), Some(h)) => format!("{l}–{h}"),
            (None, None) => "any".into(),
        };
        out.push(Band {
            label,
            hold: String::from(&r.result.value),
            lo,
            hi,
        });
    }
    Ok((t.dice.value.clone(), out))
}

/// The exact odds of each band for `dice + stat`, stat by stat.
pub fn hold_odds(dice: &str, bands: &[Band]) -> Result<Vec<StatOdds>> {
    let mut out = Vec::new();
    for s in STATS {
        let expr = match s {
            0 => dice.to_owned(),
            s if s > 0 => format!("{dice}+{s}"),
            s => format!("{dice}-{}", -s),
        };
        let d = uwsp::dist(&expr)?;
        let qs: Vec<_> = bands
            .iter()
            .map(|b| uwsp::between(&d, b.lo, b.hi))
            .collect();
        out.push(StatOdds {
            stat: signed(s),
            dice: expr,
            odds: qs.iter().map(uwsp::odds).collect(),
            pct: qs.iter().map(uwsp::pct).collect(),
        });
    }
    Ok(out)
}

fn sheet_data(cx: &Checked) -> Result<serde_json::Value> {
    let lib = &cx.lib;
    let get = |id: &str| lib.lookup(id).ok_or_else(|| uwsp::missing(NAME, id));
    let ladder = get(LADDER)?;
    if !ladder.entries.iter().any(|e| e.key.value == START) {
        return Err(uwsp::missing(
            NAME,
            &format!("{LADDER}: the rung `{START}`"),
        ));
    }
    let (dice, bands) = bands(cx)?;
    let odds = hold_odds(&dice, &bands)?;
    let t = lib.table(HOLD).ok_or_else(|| uwsp::missing(NAME, HOLD))?;
    Ok(serde_json::json!({
        "ladder": uwsp::lookup_json(ladder),
        "start": START,
        "prose": super::prose(cx, GAME, SHEET, &PROSE)?,
        "terrain": uwsp::lookup_json(get(TERRAIN)?),
        "options": uwsp::lookup_json(get(OPTIONS)?),
        "npc_points": uwsp::lookup_json(get(NPC_POINTS)?),
        "hold": {
            "title": String::from(&t.title),
            "dice": dice,
            "note": t.note.as_deref().map(String::from),
            "editorial": t.editorial.as_deref().map(String::from),
            "bands": bands,
            "stats": odds,
        },
    }))
}

fn cards_document(cx: &Checked, req: &Request, about: &serde_json::Value) -> Result<Document> {
    let lib = &cx.lib;
    let get = |id: &str| lib.lookup(id).ok_or_else(|| uwsp::missing(NAME, id));
    let options = get(OPTIONS)?;
    let terrain = get(TERRAIN)?;
    let (dice, bands) = bands(cx)?;
    let odds = hold_odds(&dice, &bands)?;
    let spend = card(
        "Spend your hold",
        "",
        vec![
            text(
                "",
                "Split your hold in secret, any number of points on one option; both parties reveal at once.",
            ),
            list(
                options
                    .entries
                    .iter()
                    .map(|e| {
                        (
                            format!("{}: ", String::from(&e.key.value)),
                            String::from(&e.value.value.to_string()),
                        )
                    })
                    .collect(),
            ),
        ],
    );
    let mut beat = vec![
        heading("1 · Lay out the terrain"),
        text(
            "",
            "Whoever controls the chase (the GM in the first beat) describes the ground ahead:",
        ),
        table(
            &["Terrain", "Stat"],
            &[5, 1],
            terrain
                .entries
                .iter()
                .map(|e| {
                    vec![
                        String::from(&e.key.value),
                        String::from(&e.value.value.to_string()),
                    ]
                })
                .collect(),
        ),
        heading("2 · Roll and assign hold"),
        text(
            "",
            &format!(
                "Each party names a leader (a PC if it has one), who rolls {dice} + the stat. {}. Spend the hold in secret, reveal together.",
                bands
                    .iter()
                    .rev()
                    .map(|b| format!("{}: {}", b.label, b.hold))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        heading("3 · Apply the results"),
        text(
            "",
            "The party now in control describes the action. At Escape! the quarry gets away; at Capture! the chasers run them down. Otherwise, another beat.",
        ),
    ];
    beat.push(text(
        "Singleton rule: ",
        "once the chase leaves a place it never returns there.",
    ));
    let columns: Vec<String> = std::iter::once("Stat".to_owned())
        .chain(bands.iter().map(|b| format!("{} ({})", b.label, b.hold)))
        .collect();
    let cols: Vec<&str> = columns.iter().map(String::as_str).collect();
    let mut widths = vec![2];
    widths.extend(bands.iter().map(|_| 3));
    let odds_card = card(
        "Hold odds",
        "",
        vec![
            text("", &format!("Exact chances of each band on {dice} + stat.")),
            table(
                &cols,
                &widths,
                odds.iter()
                    .map(|o| {
                        std::iter::once(o.stat.clone())
                            .chain(o.pct.iter().cloned())
                            .collect()
                    })
                    .collect(),
            ),
            text(
                "Aid or interfere: ",
                "a character action (often defy danger) can shift hold: a full hit gives ±1 hold while its conditions last, a 7–9 only once.",
            ),
            text(
                "NPC parties ",
                "don't roll: they take points in CON, DEX and INT (3/2/1; inept 2/2/1; elite 3/2/2) and spend the terrain stat's points as hold.",
            ),
        ],
    );
    uwsp::card_document(
        cx,
        req,
        "urban-world-cards",
        "Urban World: chase cards",
        "kit-urban-world/cards",
        vec![spend, card("A beat of the chase", "", beat), odds_card],
        // A set for each party: six cards fill two thirds of a nine-card sheet (one set alone would leave
        // it more than half empty).
        &[2, 2, 2],
        uwsp::back("Urban World", "Chase scenes"),
        about,
    )
}

/// What the `UrbanWorldKit` kind is.
pub static INFO: crate::KindInfo = crate::KindInfo::new(
    NAME,
    "Urban World chase kit for Dungeon World: chase ladder tracker, hold table with exact odds, hold cards, whole-chase odds",
    "kits/urban-world",
    crate::PDF_MD_JSON,
)
.titled("Urban World chase kit")
.papers(crate::HOME_PAPERS);

impl Kind for UrbanWorldKit {
    fn pdf_data<'a>(&self, doc: &'a crate::Document) -> std::borrow::Cow<'a, serde_json::Value> {
        crate::cards::typeset_data(doc)
    }
    fn info(&self) -> &crate::KindInfo {
        &INFO
    }
    fn requires(&self) -> Requirements {
        Requirements {
            tables: vec![HOLD.into()],
            lookups: vec![
                LADDER.into(),
                TERRAIN.into(),
                OPTIONS.into(),
                NPC_POINTS.into(),
            ],
            keys: vec![(LADDER.into(), START.into())],
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
                "urban-world",
                "Urban World: chase ladder and hold",
                "kit-urban-world/kit",
                sheet_data(cx)?,
                &about,
            ),
            1 => cards_document(cx, req, &about),
            _ => {
                let data = super::odds_page(cx, "kit-urban-world", &[], || {
                    blockprint_chase::urban_world::kit_page(&cx.lib, "Urban World · Dungeon World")
                })?;
                let title = "Urban World: chase odds";
                uwsp::sheet_document(
                    cx,
                    req,
                    "urban-world-chase-odds",
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
