//! The NPC roller: stock NPCs from content with their HP rolled (one class hit die per level, the halved
//! value outside their class rounded up), and random witnesses and suspects (occupation from the victims
//! list, a name, run-of-the-mill or notable, class, level, HP, mastery and the disposition from the Break
//! characteristic tables). NPC `n` of a batch has its own ChaCha20 stream; draws come in a fixed order
//! (role, occupation, name, notability, class, level, mastery, the three disposition tables, then the HP
//! dice), so the options change only what they name.

use serde::Serialize;

use super::case::{SUSPECT_COOPERATION, SUSPECT_PROFILE, VICTIMS, WITNESS};
use super::detective::{Dice, NPC_STREAM, STOCK_STREAM, classes, item_seed};
use super::table::{RollError, text_for};
use crate::{Library, Npc as StockNpc};

pub const NOTABILITY: &str = "bbb.npc.notability";
pub const LEVEL: &str = "bbb.npc.level";
pub const MASTERY: &str = "bbb.npc.mastery";
/// Tags of victim rows that are no occupation for a witness or suspect: rolled again.
pub const NOT_AN_OCCUPATION: [&str; 2] = ["multiple", "unidentified"];

/// Witness or suspect.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Witness,
    Suspect,
}

impl Role {
    pub fn word(self) -> &'static str {
        match self {
            Role::Witness => "witness",
            Role::Suspect => "suspect",
        }
    }
}

/// What to roll for a random NPC; `None` rolls it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NpcOptions {
    pub role: Option<Role>,
    /// A class key of the class lookup (makes the NPC notable).
    pub class: Option<String>,
    /// 0 makes a run-of-the-mill NPC; 1 or more a notable one.
    pub level: Option<u32>,
}

/// An NPC as its card shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Npc {
    /// `stock`, `witness` or `suspect`.
    pub role: String,
    pub name: String,
    /// The content id of a stock NPC.
    pub id: Option<String>,
    pub occupation: Option<String>,
    /// `None` for a run-of-the-mill NPC (level 0).
    pub class: Option<String>,
    pub level: u32,
    pub hp: NpcHp,
    /// The field they are a Master of.
    pub mastery: Option<String>,
    /// How they take to the detectives (witness characteristics, or a suspect's cooperation).
    pub disposition: Option<String>,
    /// A suspect's profile (and what it does to the closing roll).
    pub profile: Option<String>,
    pub rolls: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NpcHp {
    /// Full HP, in their class's kind of action scene.
    pub max: i64,
    /// HP in every other kind of action scene: half, rounded up.
    pub out_of_class: i64,
    /// The hit die (none at level 0) and each die rolled.
    pub die: Option<String>,
    pub dice: Vec<i64>,
}

/// HP rolled as one hit die per level (at least 1), and the halved value rounded up (at least 1).
fn roll_hp(
    d: &mut Dice,
    class: Option<&str>,
    level: u32,
    rolls: &mut Vec<String>,
) -> Result<NpcHp, RollError> {
    let Some(class) = class.filter(|_| level > 0) else {
        rolls.push("HP: run-of-the-mill, 1".into());
        return Ok(NpcHp {
            max: 1,
            out_of_class: 1,
            die: None,
            dice: vec![],
        });
    };
    let die = classes(d.lib)?
        .entries
        .iter()
        .find(|e| e.key.value == class)
        .map(|e| e.value.value.to_string())
        .ok_or_else(|| RollError::NoHitDie {
            class: class.to_string(),
        })?;
    let dice = (0..level)
        .map(|_| d.roll(&die))
        .collect::<Result<Vec<_>, _>>()?;
    let sum: i64 = dice.iter().sum();
    let max = sum.max(1);
    let out_of_class = halved(max);
    rolls.push(format!(
        "HP {level}×{die}: {} = {sum}{}; outside their class {out_of_class}",
        dice.iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(" + "),
        if sum < 1 { ", recorded as 1" } else { "" }
    ));
    Ok(NpcHp {
        max,
        out_of_class,
        die: Some(die),
        dice,
    })
}

/// Half of `hp`, rounded up, never below 1.
pub fn halved(hp: i64) -> i64 {
    ((hp + 1).div_euclid(2)).max(1)
}

/// Roll the HP of stock NPC `index` (0-based, content order) for a batch seed.
pub fn roll_stock(lib: &Library, batch_seed: u64, index: usize) -> Result<Npc, RollError> {
    let n: &StockNpc = lib
        .npcs
        .get(index)
        .ok_or_else(|| RollError::NoStockNpc { number: index + 1 })?;
    let seed = item_seed(batch_seed, STOCK_STREAM, index as u32 + 1);
    let mut d = Dice::new(lib, seed);
    let mut rolls = Vec::new();
    let hp = roll_hp(&mut d, Some(&n.class.value), n.level, &mut rolls)?;
    Ok(Npc {
        role: "stock".into(),
        name: n.name.clone(),
        id: Some(n.id.value.clone()),
        occupation: None,
        class: (n.level > 0).then(|| n.class.value.clone()),
        level: n.level,
        hp,
        mastery: n.mastery.clone(),
        disposition: None,
        profile: None,
        rolls,
    })
}

/// Roll random NPC `number` of a batch. A chosen class or a level of 1 or more makes the NPC notable; a
/// chosen level 0 makes it run-of-the-mill (a class with level 0 is refused by the command line).
pub fn roll_random(
    lib: &Library,
    batch_seed: u64,
    number: u32,
    opts: &NpcOptions,
) -> Result<Npc, RollError> {
    let seed = item_seed(batch_seed, NPC_STREAM, number);
    let mut d = Dice::new(lib, seed);
    let mut rolls = Vec::new();

    let (ri, rr) = d.uniform(2)?;
    let role = match opts.role {
        Some(r) => r,
        None => {
            let r = [Role::Witness, Role::Suspect][ri];
            rolls.push(format!("Role 1d2: {rr} → {}", r.word()));
            r
        }
    };

    // Occupation from the victims list. A row that is no living person's line of work is rolled again:
    // "multiple victims", and the unidentified body (`John or Jane Doe`, tagged `unidentified`), whose
    // placeholder name would otherwise print as the NPC's occupation and the field they are a Master of.
    let mut occ = d.table(VICTIMS)?;
    for _ in 0..16 {
        if !NOT_AN_OCCUPATION.iter().any(|t| d.tagged(&occ, t)) {
            break;
        }
        occ = d.table(VICTIMS)?;
    }
    rolls.push(format!(
        "Occupation {}: {} → {}",
        occ.dice, occ.roll, occ.text
    ));
    let gender = ["male", "female"].into_iter().find(|g| d.tagged(&occ, g));
    let (name, gender) = d.name_and_gender("Name", gender, &mut rolls)?;
    // A row naming both forms (`Waiter or waitress`) reads as the one this NPC is.
    let occupation = text_for(lib, &occ, gender);

    let notability = d.table(NOTABILITY)?;
    let rolled_notable = d.pick(&notability, &["ordinary", "notable"])? == "notable";
    let class_lookup = classes(lib)?;
    let (ci, cr) = d.uniform(class_lookup.entries.len())?;
    let level_roll = d.table(LEVEL)?;
    let rolled_level: u32 = level_roll
        .text
        .trim()
        .parse()
        .map_err(|_| RollError::NotALevel {
            table: LEVEL.to_owned(),
            rolled: level_roll.text.clone(),
        })?;
    let notable = match (opts.level, &opts.class) {
        (Some(l), _) => l > 0,
        (None, Some(_)) => true,
        (None, None) => {
            rolls.push(format!(
                "Notability {}: {} → {}",
                notability.dice, notability.roll, notability.text
            ));
            rolled_notable
        }
    };
    let (class, level) = if notable {
        let class = match &opts.class {
            Some(c) => {
                rolls.push(format!("Class: {c} (chosen)"));
                c.clone()
            }
            None => {
                let c = class_lookup.entries[ci].key.value.clone();
                rolls.push(format!(
                    "Class 1d{}: {cr} → {c}",
                    class_lookup.entries.len()
                ));
                c
            }
        };
        let level = match opts.level {
            Some(l) => {
                rolls.push(format!("Level: {l} (chosen)"));
                l
            }
            None => {
                rolls.push(format!(
                    "Level {}: {} → {rolled_level}",
                    level_roll.dice, level_roll.roll
                ));
                rolled_level.max(1)
            }
        };
        (Some(class), level)
    } else {
        (None, 0)
    };

    let mastery_roll = d.table(MASTERY)?;
    let mastery = (notable && d.tagged(&mastery_roll, "master")).then(|| occupation.clone());
    if notable {
        rolls.push(format!(
            "Mastery {}: {} → {}",
            mastery_roll.dice, mastery_roll.roll, mastery_roll.text
        ));
    }
    let witness = d.table(WITNESS)?;
    let profile = d.table(SUSPECT_PROFILE)?;
    let cooperation = d.table(SUSPECT_COOPERATION)?;
    let (disposition, profile) = match role {
        Role::Witness => {
            rolls.push(format!(
                "Disposition {}: {} → {}",
                witness.dice, witness.roll, witness.text
            ));
            (witness.text, None)
        }
        Role::Suspect => {
            rolls.push(format!(
                "Profile {}: {} → {}",
                profile.dice, profile.roll, profile.text
            ));
            rolls.push(format!(
                "Cooperation {}: {} → {}",
                cooperation.dice, cooperation.roll, cooperation.text
            ));
            (cooperation.text, Some(profile.text))
        }
    };
    let hp = roll_hp(&mut d, class.as_deref(), level, &mut rolls)?;
    Ok(Npc {
        role: role.word().into(),
        name,
        id: None,
        occupation: Some(occupation),
        class,
        level,
        hp,
        mastery,
        disposition: Some(disposition),
        profile,
        rolls,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn halving_rounds_up_and_never_reaches_zero() {
        assert_eq!(
            (1..=7).map(super::halved).collect::<Vec<_>>(),
            [1, 1, 2, 2, 3, 3, 4]
        );
        assert_eq!(super::halved(12), 6);
        assert_eq!(super::halved(0), 1);
    }
}
