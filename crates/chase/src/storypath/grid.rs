//! The match-up grid: the quarry's pool × the pursuers' pool, one table per laps needed.

use super::*;

/// The pools the grid runs over.
pub const GRID_POOLS: [u32; 5] = [2, 3, 4, 6, 8];
/// The laps needed, one table each.
pub const GRID_LAPS: [u32; 3] = [2, 3, 4];

/// The grid: quarry's pool × pursuers' pool, one table per laps needed (the same for both sides), the
/// interval limit twice the laps; the chance the quarry escapes.
pub fn grid(args: &Args, lib: &Library, policy: Option<&str>) -> Result<Grid, OptionError> {
    let base = system(args, lib)?;
    let info = base.info();
    let pi = policy_index(&info, policy)?;
    let (die, target) = pool_dice(lib);
    let mut tables = Vec::new();
    for laps in GRID_LAPS {
        let mut cells = Vec::new();
        for q in GRID_POOLS {
            let mut row = Vec::new();
            for p in GRID_POOLS {
                let sys = Storypath::with_dice(
                    Side {
                        pool: q,
                        laps,
                        head_start: base.quarry.head_start,
                    },
                    Side {
                        pool: p,
                        laps,
                        head_start: base.pursuer.head_start,
                    },
                    2 * laps,
                    base.hazard,
                    die,
                    target,
                )?;
                let sys = Storypath {
                    ties: base.ties,
                    ..sys
                };
                let built = Built {
                    setup: setup(&sys),
                    system: sys,
                };
                row.push(Grid::cell(&built, pi, "escaped")?);
            }
            cells.push(row);
        }
        tables.push(GridTable {
            caption: format!("{laps} laps each, interval limit {}", 2 * laps),
            rows: GRID_POOLS.iter().map(|n| format!("{n} dice")).collect(),
            cols: GRID_POOLS.iter().map(|n| format!("{n} dice")).collect(),
            cells,
        });
    }
    let mut notes = vec![
        format!(
            "Each interval both sides roll their pool, one d{die} per dot of Skill + Attribute, each {target} or more a success; every success is a lap. The first side to make its laps wins; {}",
            match base.ties {
                Ties::Surplus => "when both do in the same interval, the one further past its need wins, the quarry on a tie.",
                Ties::Quarry => "when both do in the same interval, the quarry gets away.",
                Ties::Pursuer => "when both do in the same interval, the pursuers catch the quarry.",
            }
        ),
        "If the interval limit comes first, neither has won: the rest of each cell is the chance of reaching the limit.".into(),
    ];
    if base.hazard > 0 {
        notes.push(format!(
            "A Hazard {} lies across every interval.",
            base.hazard
        ));
    }
    Ok(Grid {
        system: info.id.clone(),
        system_name: info.name.clone(),
        title: "Storypath: how often the quarry gets away".into(),
        headline: info.endings[0].clone(),
        policy: info.policies[pi].clone(),
        unit: info.unit.clone(),
        rows_label: "Quarry's pool".into(),
        cols_label: "Pursuers' pool".into(),
        tables,
        notes,
        rulings: info.rulings.clone(),
    })
}
