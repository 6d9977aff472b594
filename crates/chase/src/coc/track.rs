//! The track: the kit's seeded track (the same rolls as `blockprint kit coc --seed N`) or one given as `--track`.

use super::*;

/// Locations on the kit's seeded track, and the stream its rolls come from (as `blockprint kit coc`).
pub const LOCATIONS: usize = 10;
pub const TRACK_STREAM: u64 = 0x0063_6f63 << 32;

fn level_of(tag: &str) -> Option<Level> {
    match tag {
        "regular" => Some(Level::Regular),
        "hard" => Some(Level::Hard),
        "extreme" => Some(Level::Extreme),
        _ => None,
    }
}

/// The kit's seeded track (ruling `coc.ruling.track`): the same rolls, in the same order, from the same
/// ChaCha20 stream as the kit's `track-seeded` page, so `--track-seed N` is the track `kit coc --seed N`
/// prints.
pub fn seeded_track(lib: &Library, seed: u64) -> Result<Vec<Gap>, Problem> {
    let roll = |table: &str, rng: &mut ChaCha20Rng| {
        roll_table(lib, table, rng).map_err(|e| match lib.table(table) {
            None => Problem::MissingTable {
                table: table.to_owned(),
            },
            Some(_) => Problem::Roll {
                message: e.to_string(),
            },
        })
    };
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    rng.set_stream(TRACK_STREAM);
    let tag = |table: &str, row: usize, of: &[&str]| -> String {
        lib.table(table)
            .and_then(|t| t.rows.get(row))
            .and_then(|r| r.tags.iter().find(|g| of.contains(&g.value.as_str())))
            .map(|g| g.value.clone())
            .unwrap_or_default()
    };
    let mut gaps = Vec::new();
    for _ in 1..LOCATIONS {
        let level = roll("coc.hazard.random", &mut rng)?;
        let t = tag(
            "coc.hazard.random",
            level.row,
            &["clear", "regular", "hard", "extreme"],
        );
        let Some(l) = level_of(&t) else {
            gaps.push(Gap::Clear);
            continue;
        };
        let kind = roll("coc.track.obstacle", &mut rng)?;
        let barrier = tag("coc.track.obstacle", kind.row, &["hazard", "barrier"]) == "barrier";
        let table = if barrier {
            "coc.barrier.sample"
        } else {
            "coc.hazard.foot"
        };
        let what = roll(table, &mut rng)?;
        if barrier {
            let hp = lib
                .lookup("coc.barrier.hp")
                .and_then(|lk| lk.entries.iter().find(|e| e.key.value == what.result))
                .and_then(|e| match e.value.value {
                    blockprint_content::EntryValue::Integer(n) => u32::try_from(n).ok(),
                    blockprint_content::EntryValue::Text(_) => None,
                })
                .ok_or_else(|| Problem::NoBarrierHp {
                    barrier: what.result.clone(),
                })?;
            gaps.push(Gap::Barrier(l, hp));
        } else {
            gaps.push(Gap::Hazard(l));
        }
    }
    Ok(gaps)
}

/// `clear,regular,hard-barrier:15,…` → gaps.
pub fn parse_track(text: &str) -> Result<Vec<Gap>, OptionError> {
    let err = |p: Problem| OptionError::new(Opt::Track, p);
    let mut gaps = Vec::new();
    for part in text.split(',').map(str::trim) {
        let (kind, hp) = match part.split_once(':') {
            Some((k, h)) => (k.trim(), Some(h.trim())),
            None => (part, None),
        };
        let gap = match (kind.to_ascii_lowercase().as_str(), hp) {
            ("clear", None) => Gap::Clear,
            ("regular", None) => Gap::Hazard(Level::Regular),
            ("hard", None) => Gap::Hazard(Level::Hard),
            ("extreme", None) => Gap::Hazard(Level::Extreme),
            (b @ ("regular-barrier" | "hard-barrier" | "extreme-barrier"), Some(h)) => {
                let hp: u32 = h
                    .parse()
                    .ok()
                    .filter(|&n| (1..=1000).contains(&n))
                    .ok_or_else(|| {
                        err(Problem::BarrierHp {
                            hp: h.to_owned(),
                            part: part.to_owned(),
                        })
                    })?;
                let level = level_of(b.trim_end_matches("-barrier")).unwrap_or(Level::Regular);
                Gap::Barrier(level, hp)
            }
            (b, None) if b.ends_with("-barrier") => {
                return Err(err(Problem::BarrierNeedsHp {
                    part: part.to_owned(),
                }));
            }
            _ => {
                return Err(err(Problem::Gap {
                    part: part.to_owned(),
                }));
            }
        };
        gaps.push(gap);
    }
    if gaps.len() < 2 || gaps.len() > 30 {
        return Err(err(Problem::TrackLength { gaps: gaps.len() }));
    }
    Ok(gaps)
}
