//! Casework lookups for the case roller: the checked library's Break-threshold bands and closing modifiers
//! in; the band of an elapsed time and the exact DA closing odds (1d20 + modifiers against the target) out.

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use super::case::{
    CLOSING, DaOdds, OddsCell, OddsColumn, OddsRow, PER_BREAK, POLICE_VICTIM, SUSPECT_COLUMNS,
    THRESHOLD,
};
use super::table::RollError;
use crate::content::{EntryValue, Library};
use crate::dice;

/// The elapsed-time band (key and dice) for `hours`: the first band whose `up_to_hours` reaches it.
pub(super) fn threshold_band(
    lib: &Library,
    hours: &BigRational,
) -> Result<(String, String), RollError> {
    let l = lib
        .lookup(THRESHOLD)
        .ok_or_else(|| RollError(format!("no lookup `{THRESHOLD}`")))?;
    let h = hours.to_f64().unwrap_or(f64::MAX);
    let e = l
        .entries
        .iter()
        .find(|e| e.up_to_hours.as_ref().is_none_or(|u| h <= u.value))
        .ok_or_else(|| RollError(format!("lookup `{THRESHOLD}` has no band for {h} hours; leave `up_to_hours` off the last band")))?;
    Ok((e.key.value.clone(), e.value.value.to_string()))
}

/// The whole-number value of `key` in lookup `id`.
pub(super) fn lookup_int(lib: &Library, id: &str, key: &str) -> Result<i64, RollError> {
    let l = lib
        .lookup(id)
        .ok_or_else(|| RollError(format!("no lookup `{id}`")))?;
    match l
        .entries
        .iter()
        .find(|e| e.key.value == key)
        .map(|e| &e.value.value)
    {
        Some(EntryValue::Integer(n)) => Ok(*n),
        _ => Err(RollError(format!(
            "lookup `{id}` has no whole-number entry `{key}`"
        ))),
    }
}

/// Exact chance that 1d20 + per-Break bonus × Breaks + modifiers reaches the target, for 3–8 Breaks and
/// each suspect column.
pub(super) fn da_odds(lib: &Library, target: i64, police: bool) -> Result<DaOdds, RollError> {
    let per_break = lookup_int(lib, CLOSING, PER_BREAK)?;
    let fixed_modifier = if police {
        lookup_int(lib, CLOSING, POLICE_VICTIM)?
    } else {
        0
    };
    let columns = SUSPECT_COLUMNS
        .iter()
        .map(|(label, key)| {
            Ok(OddsColumn {
                label: (*label).to_owned(),
                modifier: key.map_or(Ok(0), |k| lookup_int(lib, CLOSING, k))?,
            })
        })
        .collect::<Result<Vec<_>, RollError>>()?;
    let d20 = dice::parse("1d20")
        .map_err(|e| RollError(e.message))?
        .distribution()
        .map_err(|e| RollError(e.message))?;
    let rows = (3..=8)
        .map(|breaks| OddsRow {
            breaks,
            cells: columns
                .iter()
                .map(|c| {
                    let bonus = per_break * breaks + fixed_modifier + c.modifier;
                    let p = d20
                        .outcomes()
                        .into_iter()
                        .filter(|(v, _)| {
                            v.to_integer().to_i64().is_some_and(|v| v + bonus >= target)
                        })
                        .fold(BigRational::zero(), |acc, (_, p)| acc + p);
                    OddsCell {
                        probability: dice::fraction(&p),
                        approx: dice::approx(&p),
                    }
                })
                .collect(),
        })
        .collect();
    Ok(DaOdds {
        target,
        per_break,
        fixed_modifier,
        columns,
        rows,
    })
}
