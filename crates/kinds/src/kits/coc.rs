//! The Call of Cthulhu-style chase kit (`kit-coc`): five documents, each PDF, Markdown and JSON.
//!
//! - `track-blank`: a chase track sheet to fill in by hand (location dots, hazard slots between them,
//!   marker letters, a round counter, a box per participant for MOV, adjusted MOV and movement actions);
//! - `track-seeded`: the same sheet with a chase rolled from the request's seed: [`LOCATIONS`] locations,
//!   each gap rolled on the random hazard table, a hazard or barrier drawn for every obstacle (see the
//!   ruling `coc.ruling.track`). The rolls come from ChaCha20 stream [`TRACK_STREAM`] of the seed, so a
//!   seed makes the same track forever;
//! - `hazards`: the random hazard table with its exact odds for the plain d100 and with one and two bonus
//!   and penalty dice, computed by the dice engine, and the sample hazards and barriers;
//! - `movement`: movement actions by MOV difference, MOV to MPH, the collisions chart, barrier hit points;
//! - `vehicles`: one reference card per vehicle of every vehicle chart, laid out by the card engine
//!   ([`crate::cards`]: poker cards nine to a sheet, crop marks outside the cards, the backs mirrored for
//!   duplex printing, TrimBox and BleedBox on every page);
//! - `rules`: running a chase, every rule of the source a Keeper needs beyond the reference pages.
//!
//! Every sentence of prose comes from the kit's pages, `content/coc/kit/<page>.md` ([`PROSE`]).

use blockprint_dice as dice;
use num_traits::{ToPrimitive, Zero};
use rand::SeedableRng;
use serde::Serialize;

use super::super::{Checked, Document, Kind, Request, Requirements};
use crate::cards::{self, Card, CardOptions};
use crate::error::{Problem, json, no_document};
use blockprint_content::check::row_probability;
use blockprint_content::error::{Error, Result};
use blockprint_content::roll::{ChaCha20Rng, display_value, roll_table};
use blockprint_content::text::parse_on;
use blockprint_content::{EntryValue, Library};
use blockprint_dice::{self, BigRational};

/// The random hazard table (d100, read as the highest band reached).
pub const HAZARD: &str = "coc.hazard.random";
/// Whether an obstacle on the seeded track is a hazard or a barrier (rows tagged `hazard`/`barrier`).
pub const OBSTACLE: &str = "coc.track.obstacle";
pub const HAZARD_FOOT: &str = "coc.hazard.foot";
pub const HAZARD_CAR: &str = "coc.hazard.car";
pub const BARRIER_FOOT: &str = "coc.barrier.foot";
pub const BARRIER_CAR: &str = "coc.barrier.car";
/// Barriers with hit points: results are keys of [`BARRIER_HP`].
pub const BARRIER_SAMPLE: &str = "coc.barrier.sample";
pub const BARRIER_HP: &str = "coc.barrier.hp";
pub const MPH: &str = "coc.mov.mph";
pub const COLLISIONS: &str = "coc.collisions";
/// The vehicle charts, in print order.
pub const VEHICLES: [&str; 5] = [
    "coc.vehicles.land",
    "coc.vehicles.air",
    "coc.vehicles.heavy",
    "coc.vehicles.other",
    "coc.vehicles.water",
];
/// Columns every vehicle chart has.
pub const VEHICLE_COLUMNS: [&str; 5] = ["Vehicle", "MOV", "Build", "Armour", "Passengers"];
pub const COLLISION_COLUMNS: [&str; 5] = [
    "Incident",
    "Typical hazard",
    "Damage (Build)",
    "Effect",
    "Examples",
];
/// Tags of the hazard table's rows: the first means no obstacle.
pub const LEVEL_TAGS: [&str; 4] = ["clear", "regular", "hard", "extreme"];
/// The Keeper's two reference pages share out the game's editorial fills and house rulings: `hazards`
/// lists those whose id starts with one of these, `movement` every other one (collisions, speed,
/// vehicles, and any the content adds), so each is printed once and none is left out.
pub const HAZARDS_ABOUT: [&str; 4] = [
    "coc.hazard.",
    "coc.barrier.",
    "coc.track.",
    "coc.ruling.track",
];

/// Locations on a seeded track (ruling `coc.ruling.track`).
pub const LOCATIONS: usize = 10;
/// Participants' rows on a track sheet.
pub const PARTICIPANTS: usize = 6;
/// Rounds on the round counter.
pub const ROUNDS: usize = 12;
/// The ChaCha20 stream of the seeded track ("coc" in the high word).
pub const TRACK_STREAM: u64 = 0x0063_6f63 << 32;
/// The percentile dice whose odds the hazard table prints: notation and what it means.
pub const VARIANTS: [(&str, &str); 5] = [
    ("d%", "plain d100"),
    ("d%b1", "one bonus die"),
    ("d%b2", "two bonus dice"),
    ("d%p1", "one penalty die"),
    ("d%p2", "two penalty dice"),
];
/// MOV differences on the movement-actions grid: 0 to this.
pub const MAX_DIFFERENCE: i64 = 6;

const GAME: &str = "coc";

/// The kind `kit-coc`.
pub struct CocKit;

/// The registered kind.
pub static KIT: CocKit = CocKit;

const DOCS: [&str; 6] = [
    "track-blank",
    "track-seeded",
    "hazards",
    "movement",
    "vehicles",
    "rules",
];

/// Each document's prose page (`content/coc/kit/<page>.md`) and the parts (anchors of its `##` headings)
/// its templates place; the rules page prints every part it has.
pub const PROSE: [(&str, &str, &[&str]); 6] = [
    ("track-blank", "track", &["blank-sheet", "participants"]),
    ("track-seeded", "track", &["seeded-track", "participants"]),
    (
        "hazards",
        "hazards",
        &["reading-the-odds", "what-is-in-the-gap"],
    ),
    (
        "movement",
        "movement",
        &["movement-actions", "a-chase-round"],
    ),
    ("vehicles", "vehicles", &["on-every-card"]),
    ("rules", "rules", &[]),
];

/// One gap between two locations of a track.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gap {
    /// The location before the gap (1-based).
    pub after: usize,
    /// The d100 roll (none on a blank sheet).
    pub roll: Option<i64>,
    /// The hazard table's result (`Clear`, `Hard` …) and its tag.
    pub level: String,
    pub tag: String,
    /// `Hazard` or `Barrier` (none when clear), with the d6 that chose it.
    pub obstacle: Option<String>,
    pub obstacle_roll: Option<i64>,
    /// What stands there, with the roll that drew it.
    pub what: Option<String>,
    pub what_table: Option<String>,
    /// The dice of that table (`1d10`).
    pub what_dice: Option<String>,
    pub what_roll: Option<i64>,
    /// A barrier's hit points.
    pub hp: Option<i64>,
}

/// A marker on the track.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Marker {
    pub letter: String,
    pub role: String,
    /// Location (1-based).
    pub at: usize,
}

/// A chase track: blank, or rolled from a seed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Track {
    pub seed: Option<u64>,
    pub locations: usize,
    pub gaps: Vec<Gap>,
    pub markers: Vec<Marker>,
    pub participants: usize,
    pub rounds: usize,
    /// The command that makes this track again.
    pub rerun: Option<String>,
}

/// The blank track sheet.
pub fn blank_track() -> Track {
    Track {
        seed: None,
        locations: LOCATIONS,
        gaps: Vec::new(),
        markers: Vec::new(),
        participants: PARTICIPANTS,
        rounds: ROUNDS,
        rerun: None,
    }
}

/// [`Problem::Needs`]: the kit needs `what`, which the content lacks.
fn needs(what: &str) -> Error {
    super::uwsp::missing("kit-coc", what)
}

/// [`Problem::BadRow`]: a row of `at` that cannot be read as the kit needs it.
fn bad_row(at: &str, why: impl Into<String>) -> Error {
    Problem::BadRow {
        at: at.into(),
        why: why.into(),
    }
    .into()
}

fn tag_of(lib: &Library, table: &str, row: usize, tags: &[&str]) -> String {
    lib.table(table)
        .and_then(|t| t.rows.get(row))
        .and_then(|r| r.tags.iter().find(|g| tags.contains(&g.value.as_str())))
        .map(|g| g.value.clone())
        .unwrap_or_default()
}

/// Roll a chase track from `seed` (ruling `coc.ruling.track`): every gap on the hazard table; every
/// obstacle a hazard or a barrier; hazards from the foot-chase list, barriers from those with hit points.
pub fn roll_track(lib: &Library, seed: u64) -> Result<Track> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    rng.set_stream(TRACK_STREAM);
    let mut gaps = Vec::with_capacity(LOCATIONS - 1);
    for after in 1..LOCATIONS {
        let level = roll_table(lib, HAZARD, &mut rng)?;
        let tag = tag_of(lib, HAZARD, level.row, &LEVEL_TAGS);
        let mut gap = Gap {
            after,
            roll: Some(level.roll),
            level: String::from(&level.text),
            tag: tag.clone(),
            obstacle: None,
            obstacle_roll: None,
            what: None,
            what_table: None,
            what_dice: None,
            what_roll: None,
            hp: None,
        };
        if tag != "clear" {
            let kind = roll_table(lib, OBSTACLE, &mut rng)?;
            let barrier = tag_of(lib, OBSTACLE, kind.row, &["hazard", "barrier"]) == "barrier";
            gap.obstacle = Some(String::from(&kind.text));
            gap.obstacle_roll = Some(kind.roll);
            let table = if barrier { BARRIER_SAMPLE } else { HAZARD_FOOT };
            let what = roll_table(lib, table, &mut rng)?;
            if barrier {
                gap.hp = lib.lookup(BARRIER_HP).and_then(|l| {
                    l.entries
                        .iter()
                        .find(|e| e.key.value == what.result)
                        .and_then(|e| match e.value.value {
                            EntryValue::Integer(n) => Some(n),
                            EntryValue::Text(_) => None,
                        })
                });
            }
            gap.what = Some(String::from(&what.text));
            gap.what_table = Some(table.to_owned());
            gap.what_dice = Some(what.dice.clone());
            gap.what_roll = Some(what.roll);
        }
        gaps.push(gap);
    }
    Ok(Track {
        seed: Some(seed),
        locations: LOCATIONS,
        gaps,
        markers: vec![
            Marker {
                letter: "P".into(),
                role: "pursuer".into(),
                at: 1,
            },
            Marker {
                letter: "Q".into(),
                role: "quarry".into(),
                at: 3,
            },
        ],
        participants: PARTICIPANTS,
        rounds: ROUNDS,
        rerun: Some(format!("blockprint kit coc --seed {seed}")),
    })
}

/// The odds of one row under one way of rolling.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Odds {
    pub dice: String,
    /// Reduced fraction.
    pub probability: String,
    /// Exact percentage (`83.1`).
    pub percent: String,
    /// The probability to five decimal places.
    pub approx: f64,
}

/// A row of a table with its odds under every variant.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OddsRow {
    pub on: String,
    pub result: String,
    pub editorial: Option<String>,
    /// The odds under the table's own dice (the first of `odds`): reduced fraction and its value to five
    /// places, as the shared Markdown macro `table_with_odds` reads them.
    pub probability: String,
    pub approx: f64,
    pub odds: Vec<Odds>,
}

/// A table as printed: rows with their odds (one column per way of rolling it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableView {
    pub id: String,
    pub title: String,
    pub dice: String,
    pub note: Option<String>,
    pub editorial: Option<String>,
    /// Ways of rolling, in column order: notation and meaning.
    pub variants: Vec<(String, String)>,
    pub rows: Vec<OddsRow>,
}

fn odds(p: &BigRational, dice_src: &str) -> Odds {
    Odds {
        dice: dice_src.to_owned(),
        probability: dice::fraction(p),
        percent: display_value(&(p * BigRational::from_integer(100.into()))),
        approx: dice::approx(p),
    }
}

fn row(r: &blockprint_content::Row, odds: Vec<Odds>) -> OddsRow {
    let (probability, approx) = odds
        .first()
        .map(|o| (o.probability.clone(), o.approx))
        .unwrap_or_default();
    OddsRow {
        on: r.on.value.clone(),
        result: String::from(&r.result.value),
        editorial: r.editorial.as_deref().map(String::from),
        probability,
        approx,
        odds,
    }
}

/// The hazard table with the exact odds of every row for each of [`VARIANTS`], from the dice engine.
pub fn hazard_odds(cx: &Checked) -> Result<TableView> {
    let t = cx.lib.table(HAZARD).ok_or_else(|| needs(HAZARD))?;
    let mut dists = Vec::new();
    for (src, _) in VARIANTS {
        dists.push(super::uwsp::dice_dist(src)?);
    }
    let mut rows = Vec::new();
    for r in &t.rows {
        let on = parse_on(&r.on.value, 100).map_err(|why| bad_row(HAZARD, why))?;
        let odds = VARIANTS
            .iter()
            .zip(&dists)
            .map(|((src, _), d)| {
                let p = d
                    .probability_where(|v| v.to_integer().to_i64().is_some_and(|v| on.contains(v)));
                odds(&p, src)
            })
            .collect();
        rows.push(row(r, odds));
    }
    Ok(TableView {
        id: HAZARD.into(),
        title: String::from(&t.title),
        dice: t.dice.value.clone(),
        note: t.note.as_deref().map(String::from),
        editorial: t.editorial.as_deref().map(String::from),
        variants: VARIANTS
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect(),
        rows,
    })
}

/// A table with its own dice's odds (from the checker's report).
fn table_view(cx: &Checked, id: &str) -> Result<TableView> {
    let t = cx.lib.table(id).ok_or_else(|| needs(id))?;
    let rows = t
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let p = row_probability(&cx.report, id, i)
                .cloned()
                .unwrap_or_else(BigRational::zero);
            row(r, vec![odds(&p, &t.dice.value)])
        })
        .collect();
    Ok(TableView {
        id: id.into(),
        title: String::from(&t.title),
        dice: t.dice.value.clone(),
        note: t.note.as_deref().map(String::from),
        editorial: t.editorial.as_deref().map(String::from),
        variants: vec![(t.dice.value.clone(), String::new())],
        rows,
    })
}

/// A lookup as printed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LookupView {
    pub id: String,
    pub title: String,
    pub key: String,
    pub value: String,
    pub note: Option<String>,
    pub editorial: Option<String>,
    pub entries: Vec<EntryView>,
}

/// A lookup entry as printed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntryView {
    pub key: String,
    pub value: String,
    pub note: Option<String>,
    pub editorial: Option<String>,
}

fn lookup_view(cx: &Checked, id: &str) -> Result<LookupView> {
    let l = cx.lib.lookup(id).ok_or_else(|| needs(id))?;
    Ok(LookupView {
        id: id.into(),
        title: String::from(&l.title),
        key: String::from(&l.key),
        value: String::from(&l.value),
        note: l.note.as_deref().map(String::from),
        editorial: l.editorial.as_deref().map(String::from),
        entries: l
            .entries
            .iter()
            .map(|e| EntryView {
                key: String::from(&e.key.value),
                value: String::from(&e.value.value.to_string()),
                note: e.note.as_deref().map(String::from),
                editorial: e.editorial.as_deref().map(String::from),
            })
            .collect(),
    })
}

/// A chart as printed: the requested columns in that order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChartView {
    pub id: String,
    pub title: String,
    pub note: Option<String>,
    pub columns: Vec<String>,
    pub rows: Vec<ChartRowView>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChartRowView {
    pub cells: Vec<String>,
    pub editorial: bool,
}

fn chart_view(cx: &Checked, id: &str, columns: &[&str]) -> Result<ChartView> {
    let c = cx.lib.chart(id).ok_or_else(|| needs(id))?;
    let at: Vec<usize> = columns
        .iter()
        .map(|n| {
            c.column(n)
                .ok_or_else(|| bad_row(id, format!("the chart has no column `{n}`")))
        })
        .collect::<Result<_>>()?;
    Ok(ChartView {
        id: id.into(),
        title: String::from(&c.title),
        note: c.note.as_deref().map(String::from),
        columns: columns.iter().map(|s| (*s).to_owned()).collect(),
        rows: c
            .rows
            .value
            .iter()
            .map(|r| ChartRowView {
                cells: at
                    .iter()
                    .map(|&i| String::from(r.cells.get(i).map_or("", String::as_str)))
                    .collect(),
                editorial: r.editorial.is_some(),
            })
            .collect(),
    })
}

/// One vehicle reference card.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VehicleCard {
    pub chart: String,
    /// The chart's title (`Land vehicles`) and note (the skill that drives it).
    pub group: String,
    pub skill: Option<String>,
    pub name: String,
    pub mov: String,
    /// MPH for the MOV, when the speed chart has it.
    pub mph: Option<String>,
    pub build: String,
    pub armour: String,
    pub passengers: String,
    pub editorial: bool,
}

/// Every vehicle of every vehicle chart, in chart and row order.
pub fn vehicle_cards(cx: &Checked) -> Result<Vec<VehicleCard>> {
    let mph = cx.lib.lookup(MPH);
    let mut out = Vec::new();
    for id in VEHICLES {
        let v = chart_view(cx, id, &VEHICLE_COLUMNS)?;
        for r in v.rows {
            let [name, mov, build, armour, passengers] = <[String; 5]>::try_from(r.cells)
                .map_err(|_| bad_row(id, "a row of the chart has not five cells"))?;
            out.push(VehicleCard {
                chart: id.into(),
                group: v.title.clone(),
                skill: v.note.clone(),
                mph: mph.and_then(|l| {
                    l.entries
                        .iter()
                        .find(|e| e.key.value == mov)
                        .map(|e| e.value.value.to_string())
                }),
                name,
                mov,
                build,
                armour,
                passengers,
                editorial: r.editorial,
            });
        }
    }
    Ok(out)
}

/// Movement actions for each MOV difference: `1 + (own − slowest)`.
pub fn actions_grid() -> Vec<(i64, i64)> {
    (0..=MAX_DIFFERENCE).map(|d| (d, 1 + d)).collect()
}

impl CocKit {
    fn data(&self, cx: &Checked, req: &Request, name: &str) -> Result<serde_json::Value> {
        let mut about =
            super::about(cx, GAME).ok_or_else(|| Problem::NoKit { game: GAME.into() })?;
        let on_hazards = |id: &str| HAZARDS_ABOUT.iter().any(|p| id.starts_with(p));
        match name {
            "hazards" => {
                about.fills.retain(|f| on_hazards(&f.id));
                about.rulings.retain(|r| on_hazards(&r.id));
            }
            "movement" => {
                about.fills.retain(|f| !on_hazards(&f.id));
                about.rulings.retain(|r| !on_hazards(&r.id));
            }
            // The rules page: the fills and rulings are on the two reference pages.
            "rules" => {
                about.fills.clear();
                about.rulings.clear();
            }
            _ => {}
        }
        let mut m = serde_json::Map::new();
        m.insert("document".into(), name.into());
        m.insert("paper".into(), req.paper.name().into());
        m.insert(
            "generator".into(),
            format!("blockprint {}", env!("CARGO_PKG_VERSION")).into(),
        );
        m.insert("content_version".into(), cx.lib.version.clone().into());
        m.insert("lang".into(), cx.lib.language().into());
        let bug = |e: serde_json::Error| crate::error::write("the kit's data", e);
        m.insert(
            "about".into(),
            json("the kit's source and licence", &about)?,
        );
        if let Some((_, page, needs)) = PROSE.iter().find(|(doc, _, _)| *doc == name) {
            let p = super::prose(cx, GAME, page, needs)?;
            m.insert("prose".into(), json("the kit's prose", &p)?);
        }
        let mut put = |k: &str, v: serde_json::Value| {
            m.insert(k.into(), v);
        };
        match name {
            "track-blank" => put("track", serde_json::to_value(blank_track()).map_err(bug)?),
            "track-seeded" => put(
                "track",
                serde_json::to_value(roll_track(&cx.lib, req.seed)?).map_err(bug)?,
            ),
            "hazards" => {
                put(
                    "hazard",
                    serde_json::to_value(hazard_odds(cx)?).map_err(bug)?,
                );
                let lists = [HAZARD_FOOT, HAZARD_CAR, BARRIER_FOOT, BARRIER_CAR]
                    .iter()
                    .map(|id| table_view(cx, id))
                    .collect::<Result<Vec<_>>>()?;
                put("lists", serde_json::to_value(lists).map_err(bug)?);
                put(
                    "barriers",
                    serde_json::to_value(table_view(cx, BARRIER_SAMPLE)?).map_err(bug)?,
                );
                put(
                    "barrier_hp",
                    serde_json::to_value(lookup_view(cx, BARRIER_HP)?).map_err(bug)?,
                );
            }
            "movement" => {
                put(
                    "actions",
                    serde_json::to_value(actions_grid()).map_err(bug)?,
                );
                put(
                    "mph",
                    serde_json::to_value(lookup_view(cx, MPH)?).map_err(bug)?,
                );
                put(
                    "collisions",
                    serde_json::to_value(chart_view(cx, COLLISIONS, &COLLISION_COLUMNS)?)
                        .map_err(bug)?,
                );
                put(
                    "barrier_hp",
                    serde_json::to_value(lookup_view(cx, BARRIER_HP)?).map_err(bug)?,
                );
            }
            "rules" => {}
            _ => {
                let cards = vehicle_cards(cx)?;
                let (faces, list) = vehicle_faces(&cards, &about.title);
                let opts = CardOptions::DEFAULT;
                opts.validate(req.paper)?;
                let layout = cards::impose(&opts, req.paper, &list)?;
                put("title", title(name, req.seed).into());
                put("count", cards.len().into());
                put("cards", serde_json::to_value(cards).map_err(bug)?);
                put("faces", serde_json::to_value(faces).map_err(bug)?);
                put("layout", serde_json::to_value(layout).map_err(bug)?);
            }
        }
        let mut data = serde_json::Value::Object(m);
        if name == "vehicles" {
            // Crop marks shortened and kept beside the cards, and the places for the sheet's footer.
            super::uwsp::kit_sheet(&mut data)?;
        }
        Ok(data)
    }
}

/// One side of a vehicle card: a vehicle's front, or the back every card shares.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum VehicleFace {
    Vehicle(VehicleCard),
    Back { title: String, subtitle: String },
}

/// The title on the back of every vehicle card.
pub const VEHICLE_BACK: &str = "Vehicles";

/// The faces of the vehicle cards (every vehicle, then the shared back, which names the kit) and the
/// cards the imposition lays out: one per vehicle, in chart and row order.
pub fn vehicle_faces(vehicles: &[VehicleCard], kit: &str) -> (Vec<VehicleFace>, Vec<Card>) {
    let back = vehicles.len();
    let mut faces: Vec<VehicleFace> = vehicles.iter().cloned().map(VehicleFace::Vehicle).collect();
    faces.push(VehicleFace::Back {
        title: VEHICLE_BACK.into(),
        subtitle: kit.into(),
    });
    let list = (0..back).map(|front| Card { front, back }).collect();
    (faces, list)
}

fn title(name: &str, seed: u64) -> String {
    match name {
        "track-blank" => "Chase track sheet".into(),
        "track-seeded" => format!("Chase track, seed {seed}"),
        "hazards" => "Random hazards and barriers".into(),
        "movement" => "Movement, speed and collisions".into(),
        "rules" => "Running a chase".into(),
        _ => "Vehicle reference cards".into(),
    }
}

/// The "Chase odds" page, last: whole-chase odds on the seeded track of the request's seed (the one
/// `track-seeded` prints), from `blockprint_chase::coc`.
fn chase_odds(cx: &Checked, req: &Request) -> Result<Document> {
    let data = super::odds_page(cx, "kit-coc", &req.seed.to_le_bytes(), || {
        blockprint_chase::coc::kit_page(&cx.lib, "Call of Cthulhu-style chase", req.seed)
    })?;
    let about = super::uwsp::about(cx, "kit-coc", GAME, Some(&["coc.ruling.track"]))?;
    super::uwsp::sheet_document(
        cx,
        req,
        "chase-odds",
        "Call of Cthulhu-style chase: chase odds",
        "common/chase-odds",
        data,
        &about,
    )
}

/// What the `CocKit` kind is.
pub static INFO: crate::KindInfo = crate::KindInfo::new(
    "kit-coc",
    "Call of Cthulhu-style chase kit: track sheets (blank and seeded), hazard odds, movement, vehicle cards, the rules of a chase and whole-chase odds",
    "kits/coc",
    crate::PDF_MD_JSON,
)
.titled("Call of Cthulhu-style chase kit")
.papers(crate::HOME_PAPERS)
.rolls();

impl Kind for CocKit {
    fn pdf_data<'a>(&self, doc: &'a crate::Document) -> std::borrow::Cow<'a, serde_json::Value> {
        crate::cards::typeset_data(doc)
    }
    fn info(&self) -> &crate::KindInfo {
        &INFO
    }
    /// The vehicle cards get the card sheets' print boxes: on every page a TrimBox round the cards' trim
    /// and a BleedBox round their bleed, and the duplex viewer preferences; the other pages stay as typst
    /// wrote them.
    fn finish_pdf(&self, doc: &Document, pdf: Vec<u8>) -> Result<Vec<u8>> {
        if doc.data.get("layout").is_some() {
            super::rbf::finish_sheets(doc, pdf)
        } else {
            Ok(pdf)
        }
    }
    fn requires(&self) -> Requirements {
        let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        Requirements {
            tables: s(&[
                HAZARD,
                OBSTACLE,
                HAZARD_FOOT,
                HAZARD_CAR,
                BARRIER_FOOT,
                BARRIER_CAR,
                BARRIER_SAMPLE,
            ]),
            lookups: s(&[BARRIER_HP, MPH]),
            row_tags: vec![
                (HAZARD.into(), s(&LEVEL_TAGS)),
                (OBSTACLE.into(), s(&["hazard", "barrier"])),
            ],
            kits: vec![GAME.into()],
            charts: std::iter::once((COLLISIONS.to_owned(), s(&COLLISION_COLUMNS)))
                .chain(
                    VEHICLES
                        .iter()
                        .map(|v| ((*v).to_owned(), s(&VEHICLE_COLUMNS))),
                )
                .collect(),
            prose: PROSE
                .iter()
                .map(|(_, page, needs)| super::prose_needs(GAME, page, needs))
                .collect(),
            ..Requirements::default()
        }
    }
    fn count(&self, _cx: &Checked, _req: &Request) -> Result<usize> {
        Ok(DOCS.len() + 1)
    }
    fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document> {
        if i == DOCS.len() {
            return chase_odds(cx, req);
        }
        let name = DOCS
            .get(i)
            .ok_or_else(|| no_document("kit-coc", i, DOCS.len() + 1))?;
        let data = self.data(cx, req, name)?;
        let template = match *name {
            "track-blank" | "track-seeded" => "kit-coc/track",
            other => match other {
                "hazards" => "kit-coc/hazards",
                "movement" => "kit-coc/movement",
                "rules" => "kit-coc/rules",
                _ => "kit-coc/vehicles",
            },
        };
        let title = title(name, req.seed);
        Ok(Document::new(*name, template, title.clone(), data)
            .audience(crate::Audience::Gm)
            .summary(serde_json::json!({ "document": name, "title": title }))
            .bookmark(title))
    }
}
