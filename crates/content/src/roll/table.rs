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

#[derive(Debug, Clone, PartialEq)]
pub struct RollError(pub String);

impl std::fmt::Display for RollError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RollError {}

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
        return Err(RollError(format!(
            "table references nest deeper than {MAX_DEPTH} at `{id}`"
        )));
    }
    let table = lib
        .table(id)
        .ok_or_else(|| RollError(format!("no table `{id}`")))?;
    let expr =
        dice::parse(&table.dice.value).map_err(|e| RollError(format!("`{id}`: {}", e.message)))?;
    let rolled = expr
        .roll(rng)
        .map_err(|e| RollError(format!("`{id}`: {}", e.message)))?;
    let value = rolled
        .value
        .is_integer()
        .then(|| rolled.value.to_integer().to_i64())
        .flatten()
        .ok_or_else(|| {
            RollError(format!(
                "`{id}` rolled {}, not a whole number",
                dice::fraction(&rolled.value)
            ))
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
        .ok_or_else(|| {
            RollError(format!(
                "`{id}` has no row for {value}; run `blockprint check`"
            ))
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
    let parts =
        pieces(&row.result.value).map_err(|e| RollError(format!("`{id}`: {}", e.message)))?;
    for p in parts {
        match p {
            Piece::Text(t) => out.text.push_str(t),
            Piece::Roll { expr, .. } => {
                let e =
                    dice::parse(expr).map_err(|e| RollError(format!("`{id}`: {}", e.message)))?;
                let r = e
                    .roll(rng)
                    .map_err(|e| RollError(format!("`{id}`: {}", e.message)))?;
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
    fn values_display_as_written() {
        assert_eq!(display_value(&q(7, 1)), "7");
        assert_eq!(display_value(&q(3, 2)), "1.5");
        assert_eq!(display_value(&q(-1, 2)), "-0.5");
        assert_eq!(display_value(&q(1, 4)), "0.25");
        assert_eq!(display_value(&q(7, 3)), "7/3");
        assert_eq!(display_value(&q(1, 20)), "0.05");
    }
}
