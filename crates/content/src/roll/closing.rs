//! Casework lookups for the case roller: the checked library's Break-threshold bands and closing modifiers
//! in; the band of an elapsed time, the dates a crime crosses each band edge, and the exact DA closing odds
//! (1d20 + modifiers against each charge's target) out.

use blockprint_dice as dice;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

use super::case::{
    CLOSING, ChargeOdds, DaOdds, OddsCell, OddsColumn, OddsRow, PER_BREAK, POLICE_VICTIM,
    SENTENCING, SUSPECT_PROFILES, THRESHOLD,
};
use super::table::RollError;
use crate::{EntryValue, Library};

/// One band of the Break-threshold lookup: its key, its dice, and the last minute after the crime it
/// covers (`None` for the open last band).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Band {
    pub key: String,
    pub dice: String,
    pub up_to_minutes: Option<i64>,
}

/// The bands of the threshold lookup, in order.
pub(super) fn threshold_bands(lib: &Library) -> Result<Vec<Band>, RollError> {
    let l = lib.lookup(THRESHOLD).ok_or_else(|| RollError::NoLookup {
        lookup: THRESHOLD.to_owned(),
    })?;
    Ok(l.entries
        .iter()
        .map(|e| Band {
            key: e.key.value.clone(),
            dice: e.value.value.to_string(),
            // Edges are whole minutes: 8,766 hours (365.25 days) is 525,960 minutes exactly.
            up_to_minutes: e
                .up_to_hours
                .as_ref()
                .map(|u| (u.value * 60.0).round() as i64),
        })
        .collect())
}

/// The index of the band `minutes` after the crime falls in: the first whose edge reaches it (edges are
/// inclusive: a crime exactly 24 hours old is still within the first 24 hours).
pub(super) fn band_at(bands: &[Band], minutes: i64) -> Result<usize, RollError> {
    bands
        .iter()
        .position(|b| b.up_to_minutes.is_none_or(|u| minutes <= u))
        .ok_or_else(|| RollError::NoBand {
            lookup: THRESHOLD.to_owned(),
            hours: minutes as f64 / 60.0,
        })
}

/// The whole-number value of `key` in lookup `id`.
pub(super) fn lookup_int(lib: &Library, id: &str, key: &str) -> Result<i64, RollError> {
    let l = lib.lookup(id).ok_or_else(|| RollError::NoLookup {
        lookup: id.to_owned(),
    })?;
    match l
        .entries
        .iter()
        .find(|e| e.key.value == key)
        .map(|e| &e.value.value)
    {
        Some(EntryValue::Integer(n)) => Ok(*n),
        _ => Err(RollError::NoEntry {
            lookup: id.to_owned(),
            key: key.to_owned(),
        }),
    }
}

/// The distinct suspect modifier totals the house rulings allow, lowest first, each with the profiles
/// that give it (`High-profile / …` when two profiles give the same total).
pub(super) fn suspect_columns(lib: &Library) -> Result<Vec<OddsColumn>, RollError> {
    let mut columns: Vec<OddsColumn> = Vec::new();
    for (label, keys) in SUSPECT_PROFILES {
        let modifier = keys
            .iter()
            .map(|k| lookup_int(lib, CLOSING, k))
            .sum::<Result<i64, _>>()?;
        match columns.iter_mut().find(|c| c.modifier == modifier) {
            Some(c) => {
                c.label.push_str(" / ");
                c.label.push_str(label);
            }
            None => columns.push(OddsColumn {
                label: (*label).to_owned(),
                modifier,
            }),
        }
    }
    columns.sort_by_key(|c| c.modifier);
    Ok(columns)
}

/// Exact chance that 1d20 + per-Break bonus × Breaks + modifiers reaches each charge's target, for 3–8
/// Breaks and each distinct suspect modifier total. `charges` are the charges the case admits (the
/// results of its likely-charge table); charges with the same minimum sentence share one block.
pub(super) fn da_odds(
    lib: &Library,
    charges: &[String],
    police: bool,
) -> Result<DaOdds, RollError> {
    let per_break = lookup_int(lib, CLOSING, PER_BREAK)?;
    let fixed_modifier = if police {
        lookup_int(lib, CLOSING, POLICE_VICTIM)?
    } else {
        0
    };
    let columns = suspect_columns(lib)?;
    let d20 = dice::parse("1d20")
        .map_err(|e| RollError::Dice { message: e.message })?
        .distribution()
        .map_err(|e| RollError::Dice { message: e.message })?;
    let outcomes = d20.outcomes();
    let mut blocks: Vec<ChargeOdds> = Vec::new();
    for charge in charges {
        let target = lookup_int(lib, SENTENCING, charge)?;
        if let Some(b) = blocks.iter_mut().find(|b| b.target == target) {
            if !b.charges.contains(charge) {
                b.charges.push(charge.clone());
            }
            continue;
        }
        let rows = (3..=8)
            .map(|breaks| OddsRow {
                breaks,
                cells: columns
                    .iter()
                    .map(|c| {
                        let bonus = per_break * breaks + fixed_modifier + c.modifier;
                        let p = outcomes
                            .iter()
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
        blocks.push(ChargeOdds {
            charges: vec![charge.clone()],
            target,
            rows,
        });
    }
    blocks.sort_by_key(|b| b.target);
    Ok(DaOdds {
        per_break,
        fixed_modifier,
        columns,
        charges: blocks,
    })
}
