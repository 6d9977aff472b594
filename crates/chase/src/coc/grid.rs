//! The match-up grid (MOV difference × skill at hazards) and the kit's Chase odds page.

use super::*;

/// The kit's "Chase odds" page ([`crate::page`]): the grid with the default options on the seeded track
/// the kit prints for `track_seed` (`blockprint kit coc --seed N`).
pub fn kit_page(
    lib: &Library,
    game: &str,
    track_seed: u64,
) -> Result<serde_json::Value, OptionError> {
    let mut a = default_args()?;
    a.track_seed = track_seed;
    let g = grid(&a, lib, None)?;
    Ok(crate::page::data(
        &g,
        game,
        &format!(
            "blockprint chase odds coc --track-seed {track_seed} --pursuer-mov 9 --quarry-skill 60 --policy best"
        ),
    ))
}

/// The grid's MOV differences (pursuer's MOV minus the quarry's) and skill values.
pub const GRID_MOV_DIFF: [i32; 5] = [-2, -1, 0, 1, 2];
pub const GRID_SKILLS: [u32; 5] = [30, 40, 50, 60, 70];

/// MOV difference × skill value (both sides' hazard skill) on the track of `a`: the chance the pursuer
/// catches the quarry. The other options of `a` apply to every cell.
pub fn grid(a: &Args, lib: &Library, policy: Option<&str>) -> Result<Grid, OptionError> {
    let probe = a.system(lib, a.pursuer_mov, None)?;
    let info = probe.info();
    let p = policy_index(&info, policy)?;
    let mut cells = Vec::new();
    for &d in &GRID_MOV_DIFF {
        let mut row = Vec::new();
        for &sk in &GRID_SKILLS {
            let system = a.system(lib, (a.quarry_mov + d).max(1), Some(sk))?;
            let chase = Built {
                system,
                setup: String::new(),
            };
            row.push(Grid::cell(&chase, p, "caught")?);
        }
        cells.push(row);
    }
    Ok(Grid {
        system: info.id.clone(),
        system_name: info.name.clone(),
        title: "Chase odds: how often the pursuer catches the quarry".into(),
        headline: info.endings[usize::from(CAUGHT)].clone(),
        policy: info.policies[p].clone(),
        unit: info.unit.clone(),
        rows_label: "MOV difference".into(),
        cols_label: "Skill at hazards (both sides)".into(),
        tables: vec![GridTable {
            caption: String::new(),
            rows: GRID_MOV_DIFF
                .iter()
                .map(|d| format!("MOV {d:+}").replace('-', "−"))
                .collect(),
            cols: GRID_SKILLS.iter().map(|s| format!("{s}%")).collect(),
            cells,
        }],
        notes: vec![
            format!(
                "MOV difference: the pursuer’s MOV less the quarry’s, before the speed rolls. Quarry MOV {}, speed rolls at {}% and {}%, DEX {} and {}, opening range {}.",
                a.quarry_mov, a.quarry_speed, a.pursuer_speed, a.quarry_dex, a.pursuer_dex, a.range
            ),
            format!("Track: {}.", a.track_words(&probe)),
        ],
        rulings: info.rulings,
    })
}
