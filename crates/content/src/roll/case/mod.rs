//! The case roller: a checked library, a batch seed, a year and a case number in; a [`Case`] out, rolled
//! by the rules' *New Cases* procedure with every table roll recorded. A case's own seed is derived from the
//! batch seed and its number, so case 1976-03 is the same whether it is rolled alone or in a batch.

use blockprint_dice as dice;
use std::collections::BTreeMap;

use num_rational::BigRational;
use num_traits::ToPrimitive;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;

use super::calendar::DateTime;
use super::closing::{band_at, da_odds, lookup_int, threshold_bands};
use super::table::{RollError, TableRoll, display_value, roll_table};
use crate::{Library, Unit};

mod model;

pub use model::*;

/// Seeds stay below 2^53 so every JSON reader keeps them exact.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// How many Breaks are pre-rolled per legwork activity, and how many thresholds in all (the first, rolled
/// at opening, and a pre-rolled grid for each later one).
pub const BREAKS_PER_ACTIVITY: usize = 4;
pub const THRESHOLDS: usize = 8;

/// Cases a year holds by default: the rules roll 1d6 for a new case every week (1–2: a case comes in), so
/// about one case in three weeks, 17 in a 52-week year. A batch with higher numbers spreads them thinner.
pub const DEFAULT_YEAR_CASES: u32 = 17;
/// At most this many cases in a year, so each has a slot of at least five minutes.
pub const MAX_YEAR_CASES: u32 = 100_000;

/// Months and years of time elapsed are durations, not calendar steps, so that a crime "12 months" old
/// is always exactly the documented 365.25-day year and falls in the same threshold band whatever leap
/// days lie between: a year is 525,960 minutes, a month a twelfth of that (30 days 10½ hours).
pub const YEAR_MINUTES: i64 = 525_960;
pub const MONTH_MINUTES: i64 = YEAR_MINUTES / 12;
/// The longest time elapsed a case may roll: 10 000 years, so that a crime before a case of any year the
/// case and campaign commands accept (1900 and later) still falls on the calendar (from the year -9999).
/// `check` holds the time-elapsed table to it.
pub const MAX_ELAPSED_MINUTES: i64 = 10_000 * YEAR_MINUTES;

/// Tables the roller uses. `blockprint case` checks they exist before rolling.
pub const VICTIMS: &str = "bbb.victims";
pub const GENDER: &str = "bbb.homicide.victim_gender";
pub const ETHNICITY: &str = "bbb.homicide.victim_ethnicity";
pub const ELAPSED: &str = "bbb.homicide.time_elapsed";
pub const DISTRICT: &str = "bbb.homicide.district";
pub const METHOD: &str = "bbb.homicide.method";
pub const LOCATION: &str = "bbb.homicide.location";
pub const CHARGE: &str = "bbb.homicide.charge";
pub const CHARGE_POLICE: &str = "bbb.homicide.charge_police";
pub const WITNESS: &str = "bbb.break.witness";
pub const EVIDENCE: &str = "bbb.break.evidence";
pub const SUSPECT_PROFILE: &str = "bbb.break.suspect_profile";
pub const SUSPECT_COOPERATION: &str = "bbb.break.suspect_cooperation";
pub const OTHER_CASE: &str = "bbb.break.other_case";
/// The Break table of each legwork activity, in the order the case file prints them.
pub const ACTIVITIES: [&str; 5] = [
    "bbb.break.crime_scene",
    "bbb.break.archives",
    "bbb.break.street",
    "bbb.break.stakeout",
    "bbb.break.lab_report",
];
/// Lookups the roller reads.
pub const SENTENCING: &str = "bbb.casework.sentencing";
pub const THRESHOLD: &str = "bbb.casework.break_threshold";
pub const CLOSING: &str = "bbb.casework.closing_modifiers";
/// Keys of the closing-modifier lookup the DA odds use.
pub const PER_BREAK: &str = "Each Break in the case";
pub const POLICE_VICTIM: &str = "Victim is a police officer";
pub const HIGH_PROFILE: &str = "High-profile, respected suspect";
pub const ETHNIC_MINORITY: &str = "Suspect from an ethnic minority";
pub const DESPISED_MINORITY: &str = "Suspect from a despised minority";
/// Every suspect the house rulings allow (`bbb.ruling.minority_bonus`, `bbb.ruling.profile_and_ethnicity`):
/// one profile (high-profile, working class, despised minority) from the suspect-profile Break table, and
/// the ethnic-minority bonus on top of a high-profile or working-class profile; the despised-minority
/// bonus replaces it. Label and the closing-modifier keys that add up (none: +0). The DA odds show one
/// column per distinct total.
pub const SUSPECT_PROFILES: [(&str, &[&str]); 5] = [
    ("High-profile", &[HIGH_PROFILE]),
    (
        "High-profile, ethnic minority",
        &[HIGH_PROFILE, ETHNIC_MINORITY],
    ),
    ("Working class", &[]),
    ("Ethnic minority", &[ETHNIC_MINORITY]),
    ("Despised minority", &[DESPISED_MINORITY]),
];
/// The ethnicity tags name tables and the gender tags name columns of the name tables:
/// `bbb.names.<ethnicity>.<male|female|surname>`.
pub const ETHNICITY_TAGS: [&str; 4] = ["black", "hispanic", "white", "asian"];
pub const GENDER_TAGS: [&str; 2] = ["male", "female"];

/// What to roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaseRequest {
    pub batch_seed: u64,
    pub year: i32,
    pub number: u32,
    /// How many cases the year holds: the year is cut into this many equal slots and case N comes in
    /// during slot N, so case numbers follow the calendar ([`DEFAULT_YEAR_CASES`] or the batch's last number).
    pub year_cases: u32,
}

impl CaseRequest {
    /// The year's case count a batch of cases `first..first+count` uses unless told otherwise.
    pub fn default_year_cases(first: u32, count: u32) -> u32 {
        DEFAULT_YEAR_CASES.max(first.saturating_add(count.saturating_sub(1)))
    }
}

/// The seed of case `number` in a batch: stream `number` of the batch seed's ChaCha20 generator.
pub fn case_seed(batch_seed: u64, number: u32) -> u64 {
    let mut rng = ChaCha20Rng::seed_from_u64(batch_seed);
    rng.set_stream(u64::from(number));
    rng.next_u64() & MAX_SEED
}

/// Roll one case. The library must have passed the checker, including what the `case` generator requires
/// (`generators::case::CaseKind::requires`).
pub fn roll_case(lib: &Library, req: CaseRequest) -> Result<Case, RollError> {
    roll_case_at(lib, req, None)
}

/// Roll one case that comes in at `came_in` instead of a moment of its slot of the year (the campaign
/// tracker's cases, whose dates follow its weekly calendar); `None` is [`roll_case`].
pub fn roll_case_at(
    lib: &Library,
    req: CaseRequest,
    came_in: Option<DateTime>,
) -> Result<Case, RollError> {
    let seed = case_seed(req.batch_seed, req.number);
    let mut r = Roller {
        lib,
        rng: super::rng(seed),
        provenance: Vec::new(),
    };

    // When the case comes in: the year is cut into `year_cases` equal slots and case N arrives at a
    // random five-minute mark of slot N, so numbers follow the calendar for any batch size.
    let came_in = match came_in {
        Some(t) => t,
        None => arrival(&mut r, req)?,
    };

    // 1) Victim and crime details.
    let (victim, count) = r.victim("victim", true)?;
    let others = (1..count)
        .map(|i| r.victim(&format!("other_victims/{i}"), false).map(|v| v.0))
        .collect::<Result<Vec<_>, _>>()?;
    // Any police officer among the victims brings the closing bonus and the law-enforcement charge.
    let police = std::iter::once(&victim)
        .chain(&others)
        .any(|v| v.occupation_row_tags.iter().any(|t| t == "police"));
    let other_victims: Vec<Victim> = others.into_iter().map(|v| v.victim).collect();
    let victim = PrimaryVictim {
        victim: victim.victim,
        count,
    };

    // 2) Time elapsed since the crime.
    let elapsed_roll = r.table(ELAPSED, "time_elapsed")?;
    let amount = elapsed_roll
        .rolls
        .first()
        .and_then(|i| i.value.parse::<BigRational>().ok())
        .ok_or_else(|| RollError::NoTimeRoll {
            table: ELAPSED.to_owned(),
            on: elapsed_roll.on.clone(),
        })?;
    let unit = elapsed_roll.unit.ok_or_else(|| RollError::NoUnit {
        table: ELAPSED.to_owned(),
        on: elapsed_roll.on.clone(),
    })?;
    let crime_at = before(came_in, &amount, unit)?;
    let hours = BigRational::from_integer((came_in.minutes - crime_at.minutes).into())
        / BigRational::from_integer(60.into());
    let display = format!(
        "{} {}",
        display_value(&amount),
        unit_word(unit, amount == BigRational::from_integer(1.into()))
    );
    let time_elapsed = Elapsed {
        rolled: Rolled::from(&elapsed_roll),
        amount: display_value(&amount),
        unit,
        display,
        hours: display_value(&hours),
    };

    let district = Rolled::from(&r.table(DISTRICT, "district")?);
    let method = Rolled::from(&r.table(METHOD, "method")?);
    let location = Rolled::from(&r.table(LOCATION, "location")?);
    let charge_table = if police { CHARGE_POLICE } else { CHARGE };
    let charge = r.table(charge_table, "crime/suggested_charge")?;
    let minimum_sentence = lookup_int(lib, SENTENCING, &charge.result)?;
    let mut charges: Vec<String> = Vec::new();
    for row in lib
        .table(charge_table)
        .map(|t| &t.rows[..])
        .unwrap_or_default()
    {
        if !charges.contains(&row.result.value) {
            charges.push(row.result.value.clone());
        }
    }
    let crime = Crime {
        suggested_charge: Rolled::from(&charge),
        minimum_sentence,
        charges,
        police_victim: police,
    };

    // 3) Break thresholds. The first from the band of time elapsed at opening; for every later Break, one
    // value per band the case can still reach, since the band is the one of the time elapsed *at that
    // Break*; the GM reads the column for the Break's date.
    let bands = threshold_bands(lib)?;
    let opening = band_at(&bands, came_in.minutes - crime_at.minutes)?;
    let first_break_threshold = Threshold {
        break_number: 1,
        band: bands[opening].key.clone(),
        dice: bands[opening].dice.clone(),
        value: r.dice(&bands[opening].dice)?,
    };
    let reachable = &bands[opening..];
    let mut later_thresholds = Vec::new();
    for n in 2..=THRESHOLDS {
        let mut values = Vec::new();
        for b in reachable {
            values.push(BandValue {
                band: b.key.clone(),
                dice: b.dice.clone(),
                value: r.dice(&b.dice)?,
            });
        }
        later_thresholds.push(LaterThreshold {
            break_number: n,
            values,
        });
    }
    let threshold_bands = reachable
        .iter()
        .map(|b| {
            let until =
                match b.up_to_minutes {
                    Some(m) => Some(crime_at.plus_minutes(m).ok_or_else(|| {
                        RollError::BandPastCalendar {
                            band: b.key.clone(),
                        }
                    })?),
                    None => None,
                };
            Ok(BandEdge {
                band: b.key.clone(),
                dice: b.dice.clone(),
                until_date: until.map(DateTime::date),
                until_time: until.map(DateTime::time),
                until_weekday: until.map(|u| u.weekday().to_owned()),
            })
        })
        .collect::<Result<_, RollError>>()?;

    // Pre-rolled Breaks per legwork activity.
    let mut breaks = Vec::new();
    for table in ACTIVITIES {
        let title = lib
            .table(table)
            .map(|t| t.title.clone())
            .unwrap_or_default();
        let activity = title
            .strip_prefix("Break: ")
            .map(capitalise)
            .unwrap_or(title);
        let mut sequence = Vec::new();
        for n in 1..=BREAKS_PER_ACTIVITY {
            sequence.push(r.pre_break(table, n)?);
        }
        breaks.push(ActivityBreaks {
            activity,
            table: table.to_owned(),
            sequence,
        });
    }

    let da_odds = da_odds(lib, &crime.charges, police)?;
    let mut rerun = format!(
        "case --seed {} --year {} --first-number {}",
        req.batch_seed, req.year, req.number
    );
    if req.year_cases != CaseRequest::default_year_cases(req.number, 1) {
        rerun.push_str(&format!(" --year-cases {}", req.year_cases));
    }
    Ok(Case {
        case_number: format!("{}-{:02}", req.year, req.number),
        seed,
        batch_seed: req.batch_seed,
        content_version: lib.version.clone(),
        lead_detective: String::new(),
        date_in: came_in.date(),
        time_in: came_in.time(),
        weekday: came_in.weekday().to_owned(),
        victim,
        other_victims,
        time_elapsed,
        crime_date: crime_at.date(),
        crime_time: crime_at.time(),
        district,
        method,
        location,
        crime,
        first_break_threshold,
        threshold_bands,
        later_thresholds,
        breaks,
        da_odds,
        provenance: r.provenance,
        rerun,
    })
}

fn unit_word(unit: Unit, one: bool) -> &'static str {
    match (unit, one) {
        (Unit::Hours, true) => "hour",
        (Unit::Hours, false) => "hours",
        (Unit::Days, true) => "day",
        (Unit::Days, false) => "days",
        (Unit::Weeks, true) => "week",
        (Unit::Weeks, false) => "weeks",
        (Unit::Months, true) => "month",
        (Unit::Months, false) => "months",
        (Unit::Years, true) => "year",
        (Unit::Years, false) => "years",
    }
}

/// The first clause of a characteristic, lower-cased after the first word: `Hostile: they must…` → `hostile`.
fn clause(text: &str) -> String {
    let cut = text.find([':', '(']).unwrap_or(text.len());
    let head = text[..cut].trim().trim_end_matches(',');
    let mut c = head.chars();
    c.next()
        .map(|f| f.to_lowercase().chain(c).collect())
        .unwrap_or_default()
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The moment `amount` `unit`s before `t`, to the minute. Every unit is a fixed duration; months and
/// years are [`MONTH_MINUTES`] and [`YEAR_MINUTES`], so the threshold band of any elapsed time agrees
/// with the lookup's documented edges.
fn before(t: DateTime, amount: &BigRational, unit: Unit) -> Result<DateTime, RollError> {
    let per = match unit {
        Unit::Hours => 60,
        Unit::Days => 24 * 60,
        Unit::Weeks => 7 * 24 * 60,
        Unit::Months => MONTH_MINUTES,
        Unit::Years => YEAR_MINUTES,
    };
    let minutes = (amount * BigRational::from_integer(per.into()))
        .round()
        .to_integer()
        .to_i64()
        .filter(|m| m.unsigned_abs() < 1 << 40)
        .ok_or(RollError::ElapsedTooLarge)?;
    t.minus_minutes(minutes).ok_or(RollError::BeforeCalendar)
}

/// When case `req.number` comes in: a random five-minute mark (or, in slots shorter than that, a
/// random minute) of its slot, the `number`-th of `year_cases` equal slots of the year.
fn arrival(r: &mut Roller, req: CaseRequest) -> Result<DateTime, RollError> {
    let year = i64::from(req.year);
    let new_year = |y| {
        DateTime::new(y, 1, 1, 0, 0)
            .map(|t| t.minutes)
            .ok_or(RollError::NoYear { year: y })
    };
    let start = new_year(year)?;
    let length = new_year(year + 1)? - start;
    let (n, total) = (i64::from(req.number), i64::from(req.year_cases));
    if req.number == 0 || n > total || total > i64::from(MAX_YEAR_CASES) {
        return Err(RollError::CaseDoesNotFit {
            year: req.year,
            number: req.number,
            year_cases: req.year_cases,
        });
    }
    let (lo, hi) = ((n - 1) * length / total, n * length / total);
    let marks = (hi - 1) / 5 - (lo + 4) / 5 + 1;
    let minute = if marks > 0 {
        ((lo + 4) / 5 + r.int(0, marks - 1)) * 5
    } else {
        r.int(lo, hi - 1)
    };
    DateTime::from_minutes(start + minute).ok_or(RollError::NoYear {
        year: i64::from(req.year),
    })
}

struct RolledVictim {
    victim: Victim,
    occupation_row_tags: Vec<String>,
}

/// The per-case generator and the provenance it collects.
struct Roller<'a> {
    lib: &'a Library,
    rng: ChaCha20Rng,
    provenance: Vec<Provenance>,
}

impl Roller<'_> {
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        rand::RngExt::random_range(&mut self.rng, lo..=hi)
    }

    /// Roll a table and record it (and its sub-tables) under `field`.
    fn table(&mut self, id: &str, field: &str) -> Result<TableRoll, RollError> {
        let t = roll_table(self.lib, id, &mut self.rng)?;
        record(&mut self.provenance, field, &t);
        Ok(t)
    }

    fn dice(&mut self, expr: &str) -> Result<i64, RollError> {
        let e = dice::parse(expr).map_err(|e| super::table::at(expr, &e.message))?;
        let v = e
            .roll(&mut self.rng)
            .map_err(|e| RollError::Dice { message: e.message })?
            .value;
        v.to_integer()
            .to_i64()
            .filter(|_| v.is_integer())
            .ok_or_else(|| RollError::Fraction {
                expr: expr.to_owned(),
            })
    }

    /// The tags of the row a roll landed on, and of the rows of its sub-tables.
    fn tags(&self, t: &TableRoll) -> Vec<String> {
        let mut out: Vec<String> = self
            .lib
            .table(&t.table)
            .and_then(|tb| tb.rows.get(t.row))
            .map(|row| row.tags.iter().map(|g| g.value.clone()).collect())
            .unwrap_or_default();
        for s in &t.subtables {
            out.extend(self.tags(s));
        }
        out
    }

    fn victim(&mut self, field: &str, primary: bool) -> Result<(RolledVictim, u32), RollError> {
        let mut occupation = self.table(VICTIMS, &format!("{field}/occupation"))?;
        let mut count = 1;
        // "Multiple" rolls how many, then the list again for who the (first) victim was.
        for _ in 0..16 {
            if !self.tags(&occupation).iter().any(|t| t == "multiple") {
                break;
            }
            if primary && count == 1 {
                count = occupation
                    .rolls
                    .first()
                    .and_then(|i| i.value.parse::<u32>().ok())
                    .unwrap_or(2)
                    .max(2);
            }
            occupation = self.table(VICTIMS, &format!("{field}/occupation"))?;
        }
        let occupation_row_tags = self.tags(&occupation);
        // An occupation tagged `male` or `female` (a bridesmaid, a man in a Santa suit) settles the
        // victim's gender: the gender table's row with that tag, attributed to the occupation roll.
        let (gender, g) = match GENDER_TAGS
            .iter()
            .find(|g| occupation_row_tags.iter().any(|t| t == *g))
        {
            Some(g) => {
                let row = self
                    .lib
                    .table(GENDER)
                    .and_then(|t| t.rows.iter().find(|r| r.has_tag(g)))
                    .ok_or_else(|| RollError::NoGenderRow {
                        table: GENDER.to_owned(),
                        tag: (*g).to_owned(),
                    })?;
                let gender = Rolled {
                    result: row.result.value.clone(),
                    text: row.result.value.clone(),
                    table: occupation.table.clone(),
                    roll: occupation.roll,
                    on: occupation.on.clone(),
                };
                (gender, *g)
            }
            None => {
                let t = self.table(GENDER, &format!("{field}/gender"))?;
                let g = pick_tag(&self.tags(&t), &GENDER_TAGS, GENDER)?;
                (Rolled::from(&t), g)
            }
        };
        let ethnicity = self.table(ETHNICITY, &format!("{field}/ethnicity"))?;
        let e = pick_tag(&self.tags(&ethnicity), &ETHNICITY_TAGS, ETHNICITY)?;
        let first = self.table(
            &format!("bbb.names.{e}.{g}"),
            &format!("{field}/first_name"),
        )?;
        let last = self.table(
            &format!("bbb.names.{e}.surname"),
            &format!("{field}/surname"),
        )?;
        let victim = Victim {
            name: format!("{} {}", first.text, last.text),
            first_name: Rolled::from(&first),
            surname: Rolled::from(&last),
            // A row naming both forms (`Waiter or waitress`) reads as the one this victim is.
            occupation: Rolled {
                text: super::table::text_for(self.lib, &occupation, g),
                ..Rolled::from(&occupation)
            },
            gender,
            ethnicity: Rolled::from(&ethnicity),
        };
        Ok((
            RolledVictim {
                victim,
                occupation_row_tags,
            },
            count,
        ))
    }

    fn pre_break(&mut self, table: &str, n: usize) -> Result<PreBreak, RollError> {
        let field = format!("breaks/{table}/{n}");
        let t = self.table(table, &format!("{field}/type"))?;
        let kind = pick_tag(&self.tags(&t), &["witness", "evidence", "suspect"], table)?.to_owned();
        let (characteristic, other) = match kind.as_str() {
            "witness" => (
                vec![self.table(WITNESS, &format!("{field}/characteristic"))?],
                true,
            ),
            "evidence" => (
                vec![self.table(EVIDENCE, &format!("{field}/characteristic"))?],
                false,
            ),
            _ => (
                vec![
                    self.table(SUSPECT_PROFILE, &format!("{field}/profile"))?,
                    self.table(SUSPECT_COOPERATION, &format!("{field}/cooperation"))?,
                ],
                true,
            ),
        };
        let other_case = if other {
            let o = self.table(OTHER_CASE, &format!("{field}/other_case"))?;
            self.tags(&o)
                .iter()
                .any(|t| t == "other")
                .then(|| Rolled::from(&o))
        } else {
            None
        };
        let modifier = characteristic.iter().find_map(|c| c.modifier);
        let details: Vec<&str> = characteristic.iter().map(|c| c.text.as_str()).collect();
        let summary = format!("{}: {}", t.text, details.join("; "));
        let mut short_parts: Vec<String> = characteristic.iter().map(|c| clause(&c.text)).collect();
        if let (Some(m), Some(first)) = (modifier.filter(|m| *m != 0), short_parts.first_mut()) {
            first.push_str(&format!(
                " ({})",
                if m > 0 {
                    format!("+{m}")
                } else {
                    format!("−{}", -m)
                }
            ));
        }
        let short = format!("{} — {}", t.text, short_parts.join("; "));
        Ok(PreBreak {
            n,
            kind,
            break_type: Rolled::from(&t),
            characteristic: characteristic.iter().map(Rolled::from).collect(),
            other_case,
            summary,
            short,
            modifier,
        })
    }
}

fn pick_tag<'t>(tags: &[String], allowed: &[&'t str], table: &str) -> Result<&'t str, RollError> {
    allowed
        .iter()
        .find(|a| tags.iter().any(|t| t == *a))
        .copied()
        .ok_or_else(|| RollError::NoTag {
            table: table.to_owned(),
            tags: allowed.iter().map(|t| (*t).to_owned()).collect(),
        })
}

fn record(out: &mut Vec<Provenance>, field: &str, t: &TableRoll) {
    out.push(Provenance {
        field: field.to_owned(),
        table: t.table.clone(),
        roll: t.roll,
        row: t.row,
        on: t.on.clone(),
    });
    for s in &t.subtables {
        record(out, &format!("{field}/{}", s.table), s);
    }
}

/// Roll cases `first..first+count` of a batch; each is independent of the others.
pub fn roll_batch(
    lib: &Library,
    batch_seed: u64,
    year: i32,
    first: u32,
    count: u32,
) -> Result<Vec<Case>, RollError> {
    use rayon::prelude::*;
    (first..first.saturating_add(count))
        .into_par_iter()
        .map(|number| {
            roll_case(
                lib,
                CaseRequest {
                    batch_seed,
                    year,
                    number,
                    year_cases: CaseRequest::default_year_cases(first, count),
                },
            )
        })
        .collect()
}

/// Frequencies of the rows of each table over many cases, for statistical checks: table → row → count.
pub fn row_counts(cases: &[Case]) -> BTreeMap<String, BTreeMap<usize, u64>> {
    let mut out: BTreeMap<String, BTreeMap<usize, u64>> = BTreeMap::new();
    for c in cases {
        for p in &c.provenance {
            *out.entry(p.table.clone())
                .or_default()
                .entry(p.row)
                .or_default() += 1;
        }
    }
    out
}
