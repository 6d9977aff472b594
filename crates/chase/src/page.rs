//! The chase kits' "Chase odds" page: a system's match-up [`Grid`] as the page prints it. Every cell
//! is a percentage in words a player reads (`24.3%`, `under 0.1%`, `100%` only when certain); the grid
//! itself, with its exact fractions, rides along for the JSON.

use serde_json::json;

use crate::{Cell, Grid};

/// A cell's chance as printed: one decimal; exact 0 and 1 read `0%` and `100%`, and a chance that is
/// neither but rounds to them reads `under 0.1%` or `over 99.9%`. A simulated cell is marked `≈`.
pub fn percent(c: &Cell) -> String {
    let certain = |f: &str| c.exact && c.fraction.as_deref() == Some(f);
    let s = if certain("0") {
        "0%".to_owned()
    } else if certain("1") {
        "100%".to_owned()
    } else {
        match format!("{:.1}%", c.percent).as_str() {
            "0.0%" => "under 0.1%".to_owned(),
            "100.0%" => "over 99.9%".to_owned(),
            s => s.to_owned(),
        }
    };
    if c.exact { s } else { format!("≈{s}") }
}

/// The page's data: `heading`, `intro`, `tables` (caption, column labels, rows of label and cells with
/// their printed chance and a tint from 0 to 100), `notes`, `policy`, `rulings`, and the whole `grid`.
/// `game` is the line over the page's title ("Urban World · Dungeon World"); `command` an example of
/// the command line that answers other match-ups.
pub fn data(grid: &Grid, game: &str, command: &str) -> serde_json::Value {
    let cells: Vec<&Cell> = grid
        .tables
        .iter()
        .flat_map(|t| t.cells.iter().flatten())
        .collect();
    let simulated: Vec<&Cell> = cells.iter().copied().filter(|c| !c.exact).collect();
    let exact = simulated.is_empty();
    let tables: Vec<serde_json::Value> = grid
        .tables
        .iter()
        .map(|t| {
            json!({
                "caption": t.caption,
                "cols": t.cols,
                "rows": t.rows.iter().zip(&t.cells).map(|(label, cells)| json!({
                    "label": label,
                    "cells": cells.iter().map(|c| json!({
                        "text": percent(c),
                        "tint": c.percent.round().clamp(0.0, 100.0) as u32,
                    })).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let intro = format!(
        "Every cell is the chance of the same ending ({}). {}, under the rules, the house rulings and the play described below.",
        grid.headline.label,
        if exact {
            "Worked out exactly over every way the dice can fall"
        } else if simulated.len() == cells.len() {
            "The whole chase is too large to work out exactly, so every cell comes from a seeded simulation (marked ≈)"
        } else {
            "Worked out exactly where the chase is small enough, and by a seeded simulation where a cell is marked ≈"
        }
    );
    json!({
        "heading": grid.title,
        "system": grid.system,
        "system_name": grid.system_name,
        "intro": intro,
        "rows_label": grid.rows_label,
        "cols_label": grid.cols_label,
        "tables": tables,
        "notes": grid.notes.iter().cloned().chain(simulation_note(&simulated)).collect::<Vec<_>>(),
        "policy": grid.policy,
        "rulings": grid.rulings,
        "exact": exact,
        "command": command,
        "game": game,
        "grid": grid,
    })
}

/// What a page says of its simulated cells: how many chases each, from which seed, and the widest
/// margin of their 99 % intervals (in points, rounded up to a tenth). `None` when every cell is exact.
pub fn simulation_note(simulated: &[&Cell]) -> Option<String> {
    let first = simulated.first()?;
    let runs = first.runs.unwrap_or(crate::SIM_RUNS);
    let margin = simulated
        .iter()
        .filter_map(|c| {
            c.interval
                .map(|(lo, hi)| (c.percent - lo).max(hi - c.percent))
        })
        .fold(0.0f64, f64::max);
    let tenths = (margin * 10.0 - 1e-9).ceil().max(1.0) / 10.0;
    let each = if simulated.iter().all(|c| c.runs == first.runs) {
        format!("{} chases each", thousands(runs))
    } else {
        "at least ".to_owned()
            + &thousands(
                simulated
                    .iter()
                    .filter_map(|c| c.runs)
                    .min()
                    .unwrap_or(runs),
            )
            + " chases each"
    };
    Some(format!(
        "A cell marked ≈ is simulated, not exact: {each}, dealt and rolled from seed {}, the same figures every time. The true chance lies within {tenths:.1} points of each such figure, 99 times in 100.",
        crate::SIM_SEED
    ))
}

/// 10000 → "10,000".
fn thousands(n: u64) -> String {
    let d = n.to_string();
    let mut out = String::new();
    for (i, ch) in d.chars().enumerate() {
        if i > 0 && (d.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}
