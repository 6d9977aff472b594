//! The match-up grid (quarry level × pursuer level × starting Hot Pursuit) and the kit's Chase odds page.

use super::*;

/// The kit's "Chase odds" page ([`crate::page`]): the grid with the default options. Every cell is
/// simulated (see [`Bbb::too_big`]); the page says how, and with what margin.
pub fn kit_page(lib: &Library, game: &str) -> Result<serde_json::Value, OptionError> {
    let g = grid(&default_args()?, lib, None)?;
    Ok(crate::page::data(
        &g,
        game,
        "blockprint chase odds bbb --quarry-level 2 --pursuer-level 3 --quarry-hp 10 --pursuer-hp 10 --policy swerve",
    ))
}

/// Levels of the grid's rows and columns, and its starting Hot Pursuit values.
pub const GRID_LEVELS: [i32; 5] = [1, 2, 3, 4, 5];
pub const GRID_HP: [i16; 3] = [5, 10, 15];

/// Quarry level × pursuer level × starting Hot Pursuit (both sides alike): the chance the quarry is
/// brought to 0 Hot Pursuit. Edges, modifiers and occupants of `a` apply to every cell.
pub fn grid(a: &Args, _lib: &Library, policy: Option<&str>) -> Result<crate::Grid, OptionError> {
    let probe = a.system(1, 1, 1, 1)?;
    let info = probe.info();
    let p = policy_index(&info, policy)?;
    let mut tables = Vec::new();
    for &hp in &GRID_HP {
        let mut cells = Vec::new();
        for &ql in &GRID_LEVELS {
            let mut row: Vec<Cell> = Vec::new();
            for &pl in &GRID_LEVELS {
                let system = a.system(ql, pl, hp, hp)?;
                let chase = Built {
                    system,
                    setup: String::new(),
                };
                row.push(Grid::cell_with_runs(
                    &chase,
                    p,
                    "boxed-in",
                    crate::GRID_SIM_RUNS,
                )?);
            }
            cells.push(row);
        }
        tables.push(GridTable {
            caption: format!("Both sides start with {hp} Hot Pursuit"),
            rows: GRID_LEVELS
                .iter()
                .map(|l| format!("Quarry level {l}"))
                .collect(),
            cols: GRID_LEVELS
                .iter()
                .map(|l| format!("Pursuer level {l}"))
                .collect(),
            cells,
        });
    }
    Ok(Grid {
        system: info.id.clone(),
        system_name: info.name.clone(),
        title: "Chase odds: how often the quarry is run down".into(),
        headline: info.endings[BOXED_IN].clone(),
        policy: info.policies[p].clone(),
        unit: info.unit.clone(),
        rows_label: "Quarry level".into(),
        cols_label: "Pursuer level".into(),
        tables,
        notes: vec![format!(
            "Each cell: {} and {}.",
            side_words("quarry", &probe.quarry).replacen(
                "level 1, 1 Hot Pursuit",
                "the row's level",
                1
            ),
            side_words("pursuer", &probe.pursuer).replacen(
                "level 1, 1 Hot Pursuit",
                "the column's level",
                1
            )
        )],
        rulings: info.rulings,
    })
}
