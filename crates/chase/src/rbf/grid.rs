//! The match-up grid (evader's speed × pursuer's speed) and the kit's Chase odds page.

use super::*;

/// The speed bands of the grid: (label, starting tokens).
pub const GRID_SPEEDS: [(&str, u32); 5] = [
    ("16 or less", 0),
    ("17–20", 1),
    ("21–24", 2),
    ("25–28", 3),
    ("29 or more", 4),
];

/// The grid: evader's speed × pursuer's speed (their starting Sprint Tokens), one against one on the
/// track; the chance the evader escapes.
pub fn grid(args: &Args, lib: &Library, policy: Option<&str>) -> Result<Grid, OptionError> {
    let base = system(args, lib)?;
    let info = base.info();
    let pi = policy_index(&info, policy)?;
    let cells = GRID_SPEEDS
        .iter()
        .map(|&(_, e)| {
            GRID_SPEEDS
                .iter()
                .map(|&(_, p)| {
                    let mut sys = base.clone();
                    sys.tokens = [p, e];
                    let built = Built {
                        setup: setup(&sys),
                        system: sys,
                    };
                    Grid::cell(&built, pi, "escaped")
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let label = |(s, t): &(&str, u32)| format!("{s} ({t})");
    Ok(Grid {
        system: info.id.clone(),
        system_name: info.name.clone(),
        title: "Ready/Bolt/Flow: how often the evader escapes".into(),
        headline: info.endings[0].clone(),
        policy: info.policies[pi].clone(),
        unit: info.unit.clone(),
        rows_label: "Evader's speed (Sprint Tokens)".into(),
        cols_label: "Pursuer's speed (Sprint Tokens)".into(),
        tables: vec![GridTable {
            caption: format!(
                "{}: pursuer from space {}, evader from space {}",
                base.track.title, base.start[0], base.start[1]
            ),
            rows: GRID_SPEEDS.iter().map(label).collect(),
            cols: GRID_SPEEDS.iter().map(label).collect(),
            cells,
        }],
        notes: vec![
            "One pursuer against one evader. The pursuer wins by striking the evader while it is stunned; the evader wins at the exit.".into(),
            "Best play is not computed: both runners choose their cards in secret at the same moment, so the best play is a mix of cards (a mixed strategy), not a rule; the odds are those of the named play.".into(),
        ],
        rulings: info.rulings.clone(),
    })
}

/// The kit's "Chase odds" page ([`crate::page`]): the grid with the default options.
pub fn kit_page(lib: &Library, game: &str) -> Result<serde_json::Value, OptionError> {
    let g = grid(&Args::default(), lib, None)?;
    Ok(crate::page::data(
        &g,
        game,
        "blockprint chase odds rbf --pursuer-speed 27 --evader-speed 19 --evader-start 2 --policy flow",
    ))
}
