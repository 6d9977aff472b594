//! Rolling a table: a checked library, a table id and a generator in; the row rolled, its inline rolls and the
//! sub-tables it refers to (rolled in turn) out, each step recording where it came from.

use blockprint_dice as dice;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use serde::Serialize;

use crate::text::{Piece, parse_on, pieces};
use crate::{Library, Unit};

/// How deep `{table:…}` references may nest while rolling (the checker already forbids loops).
const MAX_DEPTH: usize = 16;

/// One table roll and everything it led to. `result` is the row's text exactly as the content has it;
/// `text` is the same with inline rolls and references replaced by what they rolled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableRoll {
    pub table: String,
    pub dice: String,
    pub roll: i64,
    /// The row's `on`, as written, and its place (0-based) in the table.
    pub on: String,
    pub row: usize,
    pub result: String,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modifier: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<Unit>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<InlineRoll>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub subtables: Vec<TableRoll>,
}

/// An inline `{EXPR}` roll inside a result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InlineRoll {
    pub expr: String,
    /// Exact value as a reduced fraction string.
    pub value: String,
    pub detail: String,
}

/// Why a roll on checked content could not be made, with its data: which table, lookup, row or value.
/// Each kind has a stable code ([`RollError::code`], listed in `docs/errors.md`); the messages are
/// worded here, once (`Display`). The command line reports any of them as a rules error (exit 1).
#[derive(Debug, Clone, PartialEq)]
pub enum RollError {
    /// Table references nest deeper than `max` at `table`.
    TooDeep {
        table: String,
        max: usize,
    },
    NoTable {
        table: String,
    },
    NoLookup {
        lookup: String,
    },
    /// A dice expression or result text at `place` (a table id or the expression) that the dice crate
    /// refused, in its words.
    At {
        place: String,
        message: String,
    },
    /// A roll the dice crate could not make, in its words.
    Dice {
        message: String,
    },
    /// `what` (a table or an expression) rolled `value`, which is not whole.
    NotWhole {
        what: String,
        value: String,
    },
    /// An expression that rolled a fraction where a whole number was wanted.
    Fraction {
        expr: String,
    },
    /// A table with no row for a value its dice rolled.
    NoRow {
        table: String,
        value: i64,
    },
    /// A row of the time-elapsed table without an inline roll.
    NoTimeRoll {
        table: String,
        on: String,
    },
    /// A row of the time-elapsed table without a unit.
    NoUnit {
        table: String,
        on: String,
    },
    /// A Break-threshold band that ends past the calendar's last year.
    BandPastCalendar {
        band: String,
    },
    /// Time elapsed too large to count in minutes.
    ElapsedTooLarge,
    /// Time elapsed that puts the crime before the calendar's first year.
    BeforeCalendar,
    NoYear {
        year: i64,
    },
    /// A case number that does not fit its year's cases.
    CaseDoesNotFit {
        year: i32,
        number: u32,
        year_cases: u32,
    },
    /// No row of the gender table carries the tag.
    NoGenderRow {
        table: String,
        tag: String,
    },
    /// The row rolled on `table` carries none of `tags`.
    NoTag {
        table: String,
        tags: Vec<String>,
    },
    /// The Break-threshold lookup has no band for so many hours.
    NoBand {
        lookup: String,
        hours: f64,
    },
    /// A lookup without a whole-number entry for the key.
    NoEntry {
        lookup: String,
        key: String,
    },
    /// The content has no class lookup.
    NoClasses,
    /// The attribute-modifier table has no row for a score.
    NoModifierRow {
        table: String,
        score: i64,
    },
    /// The forced-attribute lookup has no entry for a class.
    NoForcedEntry {
        lookup: String,
        class: String,
    },
    /// The forced-attribute lookup names something that is not an attribute.
    ForcedNotAttribute {
        lookup: String,
        raised: String,
    },
    /// The attribute lookup has no Constitution.
    NoCon {
        lookup: String,
        key: String,
    },
    NoHitDie {
        class: String,
    },
    NoStockNpc {
        number: usize,
    },
    /// The level table rolled a text that is not a level.
    NotALevel {
        table: String,
        rolled: String,
    },
}

impl RollError {
    /// Every code, in the order `docs/errors.md` lists them.
    pub const CODES: [&'static str; 27] = [
        "roll-too-deep",
        "roll-no-table",
        "roll-no-lookup",
        "roll-at",
        "roll-dice",
        "roll-not-whole",
        "roll-fraction",
        "roll-no-row",
        "roll-no-time-roll",
        "roll-no-unit",
        "roll-band-past-calendar",
        "roll-elapsed-too-large",
        "roll-before-calendar",
        "roll-no-year",
        "roll-case-does-not-fit",
        "roll-no-gender-row",
        "roll-no-tag",
        "roll-no-band",
        "roll-no-entry",
        "roll-no-classes",
        "roll-no-modifier-row",
        "roll-no-forced-entry",
        "roll-forced-not-attribute",
        "roll-no-con",
        "roll-no-hit-die",
        "roll-no-stock-npc",
        "roll-not-a-level",
    ];

    /// The error's stable code (kebab case, `roll-…`).
    pub fn code(&self) -> &'static str {
        match self {
            RollError::TooDeep { .. } => "roll-too-deep",
            RollError::NoTable { .. } => "roll-no-table",
            RollError::NoLookup { .. } => "roll-no-lookup",
            RollError::At { .. } => "roll-at",
            RollError::Dice { .. } => "roll-dice",
            RollError::NotWhole { .. } => "roll-not-whole",
            RollError::Fraction { .. } => "roll-fraction",
            RollError::NoRow { .. } => "roll-no-row",
            RollError::NoTimeRoll { .. } => "roll-no-time-roll",
            RollError::NoUnit { .. } => "roll-no-unit",
            RollError::BandPastCalendar { .. } => "roll-band-past-calendar",
            RollError::ElapsedTooLarge => "roll-elapsed-too-large",
            RollError::BeforeCalendar => "roll-before-calendar",
            RollError::NoYear { .. } => "roll-no-year",
            RollError::CaseDoesNotFit { .. } => "roll-case-does-not-fit",
            RollError::NoGenderRow { .. } => "roll-no-gender-row",
            RollError::NoTag { .. } => "roll-no-tag",
            RollError::NoBand { .. } => "roll-no-band",
            RollError::NoEntry { .. } => "roll-no-entry",
            RollError::NoClasses => "roll-no-classes",
            RollError::NoModifierRow { .. } => "roll-no-modifier-row",
            RollError::NoForcedEntry { .. } => "roll-no-forced-entry",
            RollError::ForcedNotAttribute { .. } => "roll-forced-not-attribute",
            RollError::NoCon { .. } => "roll-no-con",
            RollError::NoHitDie { .. } => "roll-no-hit-die",
            RollError::NoStockNpc { .. } => "roll-no-stock-npc",
            RollError::NotALevel { .. } => "roll-not-a-level",
        }
    }

    /// The exit status: a roll that cannot be made on checked content is a rules error (1).
    pub fn exit_code(&self) -> u8 {
        1
    }
}

impl std::fmt::Display for RollError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RollError::TooDeep { table, max } => {
                write!(f, "table references nest deeper than {max} at `{table}`")
            }
            RollError::NoTable { table } => write!(f, "no table `{table}`"),
            RollError::NoLookup { lookup } => write!(f, "no lookup `{lookup}`"),
            RollError::At { place, message } => write!(f, "`{place}`: {message}"),
            RollError::Dice { message } => f.write_str(message),
            RollError::NotWhole { what, value } => {
                write!(f, "`{what}` rolled {value}, not a whole number")
            }
            RollError::Fraction { expr } => write!(f, "`{expr}` rolled a fraction"),
            RollError::NoRow { table, value } => {
                write!(
                    f,
                    "`{table}` has no row for {value}; run `blockprint check`"
                )
            }
            RollError::NoTimeRoll { table, on } => {
                write!(
                    f,
                    "`{table}`: row `{on}` has no inline roll to measure time"
                )
            }
            RollError::NoUnit { table, on } => write!(f, "`{table}`: row `{on}` needs a `unit`"),
            RollError::BandPastCalendar { band } => write!(
                f,
                "threshold band `{band}` ends after the year 9999, where the calendar stops"
            ),
            RollError::ElapsedTooLarge => f.write_str("time elapsed is too large"),
            RollError::BeforeCalendar => {
                f.write_str("time elapsed is too large: the crime would fall before the year -9999")
            }
            RollError::NoYear { year } => write!(f, "the calendar has no year {year}"),
            RollError::CaseDoesNotFit {
                year,
                number,
                year_cases,
            } => write!(
                f,
                "case {year}-{number:02} does not fit a year of {year_cases} cases"
            ),
            RollError::NoGenderRow { table, tag } => {
                write!(f, "no row of `{table}` is tagged `{tag}`")
            }
            RollError::NoTag { table, tags } => write!(
                f,
                "the row rolled on `{table}` carries none of the tags {}",
                tags.join(", ")
            ),
            RollError::NoBand { lookup, hours } => write!(
                f,
                "lookup `{lookup}` has no band for {hours} hours; leave `up_to_hours` off the last band"
            ),
            RollError::NoEntry { lookup, key } => {
                write!(f, "lookup `{lookup}` has no whole-number entry `{key}`")
            }
            RollError::NoClasses => {
                f.write_str("the content has no class lookup (`role = \"class\"`)")
            }
            RollError::NoModifierRow { table, score } => {
                write!(f, "`{table}` has no row with a modifier for {score}")
            }
            RollError::NoForcedEntry { lookup, class } => {
                write!(f, "`{lookup}` has no entry for class `{class}`")
            }
            RollError::ForcedNotAttribute { lookup, raised } => {
                write!(f, "`{lookup}` names `{raised}`, which is not an attribute")
            }
            RollError::NoCon { lookup, key } => write!(f, "`{lookup}` has no `{key}`"),
            RollError::NoHitDie { class } => write!(f, "no hit die for class `{class}`"),
            RollError::NoStockNpc { number } => write!(f, "no stock NPC number {number}"),
            RollError::NotALevel { table, rolled } => {
                write!(f, "`{table}` rolled `{rolled}`, not a level")
            }
        }
    }
}

impl std::error::Error for RollError {}

/// A [`RollError::At`]: `message` about the place `place`.
pub(crate) fn at(place: &str, message: &str) -> RollError {
    RollError::At {
        place: place.to_owned(),
        message: message.to_owned(),
    }
}

/// Roll table `id` of a library that passed the checker.
pub fn roll_table<R: rand::Rng + ?Sized>(
    lib: &Library,
    id: &str,
    rng: &mut R,
) -> Result<TableRoll, RollError> {
    roll_at(lib, id, rng, 0)
}

fn roll_at<R: rand::Rng + ?Sized>(
    lib: &Library,
    id: &str,
    rng: &mut R,
    depth: usize,
) -> Result<TableRoll, RollError> {
    if depth > MAX_DEPTH {
        return Err(RollError::TooDeep {
            table: id.to_owned(),
            max: MAX_DEPTH,
        });
    }
    let table = lib.table(id).ok_or_else(|| RollError::NoTable {
        table: id.to_owned(),
    })?;
    let expr = dice::parse(&table.dice.value).map_err(|e| at(id, &e.message))?;
    let rolled = expr.roll(rng).map_err(|e| at(id, &e.message))?;
    let value = rolled
        .value
        .is_integer()
        .then(|| rolled.value.to_integer().to_i64())
        .flatten()
        .ok_or_else(|| RollError::NotWhole {
            what: id.to_owned(),
            value: dice::fraction(&rolled.value),
        })?;
    let max = expr
        .distribution()
        .map(|d| d.max().to_integer().to_i64().unwrap_or(i64::MAX))
        .unwrap_or(i64::MAX);
    let (index, row) = table
        .rows
        .iter()
        .enumerate()
        .find(|(_, r)| parse_on(&r.on.value, max).is_ok_and(|on| on.contains(value)))
        .ok_or_else(|| RollError::NoRow {
            table: id.to_owned(),
            value,
        })?;
    let mut out = TableRoll {
        table: id.to_owned(),
        dice: table.dice.value.clone(),
        roll: value,
        on: row.on.value.clone(),
        row: index,
        result: row.result.value.clone(),
        text: String::new(),
        modifier: row.modifier,
        unit: row.unit,
        rolls: Vec::new(),
        subtables: Vec::new(),
    };
    let parts = pieces(&row.result.value).map_err(|e| at(id, &e.message))?;
    for p in parts {
        match p {
            Piece::Text(t) => out.text.push_str(t),
            Piece::Roll { expr, .. } => {
                let e = dice::parse(expr).map_err(|e| at(id, &e.message))?;
                let r = e.roll(rng).map_err(|e| at(id, &e.message))?;
                out.text.push_str(&display_value(&r.value));
                out.rolls.push(InlineRoll {
                    expr: expr.to_owned(),
                    value: dice::fraction(&r.value),
                    detail: r.detail,
                });
            }
            Piece::Table { id: sub, .. } => {
                let s = roll_at(lib, sub, rng, depth + 1)?;
                out.text.push_str(&s.text);
                out.subtables.push(s);
            }
        }
    }
    Ok(out)
}

/// A value as people write it: `7`, `-2`, `1.5`; a fraction (`7/3`) when no short decimal is exact.
pub fn display_value(q: &BigRational) -> String {
    if q.is_integer() {
        return q.to_integer().to_string();
    }
    // Terminating decimals have denominators of the form 2^a·5^b; print those with up to 4 places.
    let mut d = q.denom().clone();
    let two = num_bigint::BigInt::from(2);
    let five = num_bigint::BigInt::from(5);
    while d.is_even() {
        d /= &two;
    }
    while (&d % &five).is_zero() {
        d /= &five;
    }
    if d.is_one() {
        for places in 1..=4u32 {
            let scale = num_bigint::BigInt::from(10).pow(places);
            let scaled = q * BigRational::from_integer(scale.clone());
            if scaled.is_integer() {
                let n = scaled.to_integer();
                let sign = if n.is_negative() { "-" } else { "" };
                let n = n.abs();
                let (int, frac) = n.div_rem(&scale);
                return format!(
                    "{sign}{int}.{:0>width$}",
                    frac.to_string(),
                    width = places as usize
                );
            }
        }
    }
    dice::fraction(q)
}

/// A roll's text as one person of `gender` (`male` or `female`) reads it: the row's form for them when
/// the row gives `forms` (`Waiter or waitress` → `Waitress`), else the text as rolled.
pub fn text_for(lib: &crate::Library, t: &TableRoll, gender: &str) -> String {
    lib.table(&t.table)
        .and_then(|tb| tb.rows.get(t.row))
        .and_then(|r| r.forms.as_ref())
        .and_then(|f| f.value.of(gender))
        .map_or_else(|| t.text.clone(), str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn every_roll_error_has_its_own_listed_code_and_its_message() {
        let s = || "x".to_owned();
        let all = [
            RollError::TooDeep { table: s(), max: 8 },
            RollError::NoTable { table: s() },
            RollError::NoLookup { lookup: s() },
            RollError::At {
                place: s(),
                message: s(),
            },
            RollError::Dice { message: s() },
            RollError::NotWhole {
                what: s(),
                value: "7/2".into(),
            },
            RollError::Fraction { expr: s() },
            RollError::NoRow {
                table: s(),
                value: 13,
            },
            RollError::NoTimeRoll {
                table: s(),
                on: s(),
            },
            RollError::NoUnit {
                table: s(),
                on: s(),
            },
            RollError::BandPastCalendar { band: s() },
            RollError::ElapsedTooLarge,
            RollError::BeforeCalendar,
            RollError::NoYear { year: 10000 },
            RollError::CaseDoesNotFit {
                year: 1976,
                number: 3,
                year_cases: 2,
            },
            RollError::NoGenderRow {
                table: s(),
                tag: s(),
            },
            RollError::NoTag {
                table: s(),
                tags: vec!["a".into(), "b".into()],
            },
            RollError::NoBand {
                lookup: s(),
                hours: 1.5,
            },
            RollError::NoEntry {
                lookup: s(),
                key: s(),
            },
            RollError::NoClasses,
            RollError::NoModifierRow {
                table: s(),
                score: 19,
            },
            RollError::NoForcedEntry {
                lookup: s(),
                class: s(),
            },
            RollError::ForcedNotAttribute {
                lookup: s(),
                raised: s(),
            },
            RollError::NoCon {
                lookup: s(),
                key: s(),
            },
            RollError::NoHitDie { class: s() },
            RollError::NoStockNpc { number: 4 },
            RollError::NotALevel {
                table: s(),
                rolled: s(),
            },
        ];
        let codes: Vec<&str> = all.iter().map(RollError::code).collect();
        assert_eq!(codes, RollError::CODES);
        assert!(all.iter().all(|e| e.exit_code() == 1));
        assert_eq!(
            all[14].to_string(),
            "case 1976-03 does not fit a year of 2 cases"
        );
        assert_eq!(
            all[16].to_string(),
            "the row rolled on `x` carries none of the tags a, b"
        );
        assert_eq!(
            all[17].to_string(),
            "lookup `x` has no band for 1.5 hours; leave `up_to_hours` off the last band"
        );
        assert_eq!(
            crate::error::Error::from(all[1].clone()).to_string(),
            "error: no table `x`"
        );
    }

    #[test]
    fn values_display_as_written() {
        assert_eq!(display_value(&q(7, 1)), "7");
        assert_eq!(display_value(&q(3, 2)), "1.5");
        assert_eq!(display_value(&q(-1, 2)), "-0.5");
        assert_eq!(display_value(&q(1, 4)), "0.25");
        assert_eq!(display_value(&q(7, 3)), "7/3");
        assert_eq!(display_value(&q(1, 20)), "0.05");
    }
}
