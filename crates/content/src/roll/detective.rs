//! The detective roller: a checked library, a batch seed, an item number and optionally a class in; a
//! [`Detective`] out, made by the rules' character creation (3d6 in order, the 18 when nothing is above
//! 10, class, background, HP, relationships, the least-wanted assignment and a City Tagline prompt), with
//! a plain-text line for every roll so a player can check the sheet. Detective `n` of a batch is rolled
//! from its own ChaCha20 stream, so it is the same alone, in any batch and on any thread.
//!
//! The draws come in a fixed order (class, the eighteen attribute dice, hit die, background, name, tier
//! swap, the five relationship names, assignment, tagline) and the class die is rolled even when the class
//! is chosen, so choosing a class changes nothing else that was rolled.

use blockprint_dice as dice;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde::Serialize;

use super::case::MAX_SEED;
use super::table::{RollError, TableRoll, display_value, roll_table};
use crate::check::requires::class_table;
use crate::{EntryValue, Library, Lookup};

/// Content the detective roller reads.
pub const ATTRIBUTES: &str = "bbb.character.attributes";
pub const MODIFIER: &str = "bbb.character.attribute_modifier";
pub const FORCED: &str = "bbb.character.forced_attribute";
pub const RELATIONSHIPS: &str = "bbb.character.relationships";
/// Background tables: `<BACKGROUND>.<class>` (`bbb.character.background.fighter`).
pub const BACKGROUND: &str = "bbb.character.background";
pub const ASSIGNMENT: &str = "bbb.character.assignment";
pub const TAGLINE: &str = "bbb.character.tagline";
pub const TIER_SWAP: &str = "bbb.character.tier_swap";
/// Name tables of everyone but victims: gender and which name table (`bbb.names.<heritage>.<gender>`).
pub const NAME_GENDER: &str = "bbb.names.gender";
pub const NAME_HERITAGE: &str = "bbb.names.heritage";
/// The attribute whose modifier HP adds.
pub const CON_KEY: &str = "Constitution (CON)";
/// The six attributes the rules roll, in order (keys of [`ATTRIBUTES`]).
pub const ATTRIBUTE_KEYS: [&str; 6] = [
    "Strength (STR)",
    "Dexterity (DEX)",
    CON_KEY,
    "Intelligence (INT)",
    "Wisdom (WIS)",
    "Charisma (CHA)",
];
/// Scores above this count: when none is, one is raised to [`RAISED_SCORE`].
pub const FORCE_ABOVE: i64 = 10;
pub const RAISED_SCORE: i64 = 18;
/// The seed of the stock NPCs' HP, and of a pregenerated detective of a class [`SHOWCASE_SEEDS`] does
/// not name (the year of the setting).
pub const PREGENERATED_SEED: u64 = 1976;

/// The batch seed of each pregenerated detective, by class: still rolled by the rules (number = the
/// class's place in the class lookup, as before), but from a seed chosen so the detective shows its
/// class: the attribute the class raises (the raised-attribute lookup) is its single highest score, rolled
/// and not raised, and its HP is at least the class's median (over 401 detectives of the class rolled
/// from seed 1, numbers 1 to 401). The first such seed from 1976 up:
///
/// | class   | seed | key attribute | HP (median) |
/// |---------|------|---------------|-------------|
/// | Fighter | 1986 | STR 18        | 6 (5)       |
/// | Rogue   | 1984 | CHA 15        | 3 (3)       |
/// | Scholar | 1984 | INT 16        | 5 (4)       |
/// | Hotshot | 1998 | DEX 15        | 4 (3)       |
///
/// `tests/detective.rs` (`the_pregenerated_detectives_show_their_class`) checks each of these facts.
pub const SHOWCASE_SEEDS: [(&str, u64); 4] = [
    ("Fighter", 1986),
    ("Rogue", 1984),
    ("Scholar", 1984),
    ("Hotshot", 1998),
];

/// The batch seed of the pregenerated detective of `class` ([`SHOWCASE_SEEDS`], else
/// [`PREGENERATED_SEED`]).
pub fn pregenerated_seed(class: &str) -> u64 {
    SHOWCASE_SEEDS
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(class))
        .map_or(PREGENERATED_SEED, |&(_, s)| s)
}

/// Which stream of a batch seed each generator draws from, so a detective and an NPC with the same seed
/// and number are unrelated (cases use the plain number).
pub const DETECTIVE_STREAM: u64 = 1 << 32;
pub const NPC_STREAM: u64 = 2 << 32;
pub const STOCK_STREAM: u64 = 3 << 32;

/// What to roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetectiveRequest {
    pub batch_seed: u64,
    pub number: u32,
    /// A class key of the class lookup; `None` rolls it.
    pub class: Option<String>,
}

/// A detective as the character sheet shows it (the `detective` value of docs/contract: field order is
/// the serialized order).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Detective {
    pub name: String,
    pub class: String,
    pub level: u32,
    pub xp: u32,
    pub attributes: Vec<Attribute>,
    /// The key (`wis`) of the attribute set to 18, if one was.
    pub forced: Option<String>,
    pub hp: Hp,
    pub backgrounds: Vec<Background>,
    pub relationships: Vec<Relationship>,
    pub swapped: bool,
    pub assignment: String,
    pub tagline: String,
    pub rolls: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attribute {
    /// `str`, `dex` …: the abbreviation in lower case.
    pub key: String,
    pub abbr: String,
    pub name: String,
    pub score: i64,
    pub modifier: i64,
    /// The three dice as rolled (kept when the score was raised to 18).
    pub dice: Vec<i64>,
    pub forced: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hp {
    pub max: i64,
    pub die: String,
    pub roll: i64,
    pub con_modifier: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Background {
    pub level: u32,
    pub class: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Relationship {
    pub tier: u32,
    pub role: String,
    pub name: String,
    pub strained: bool,
}

/// The seed of item `number` of a batch in one generator's `stream` (see [`DETECTIVE_STREAM`]).
pub fn item_seed(batch_seed: u64, stream: u64, number: u32) -> u64 {
    let mut rng = ChaCha20Rng::seed_from_u64(batch_seed);
    rng.set_stream(stream | u64::from(number));
    rand::Rng::next_u64(&mut rng) & MAX_SEED
}

/// A signed modifier as printed: `+1`, `0`, `−2`.
pub fn signed(n: i64) -> String {
    match n {
        n if n > 0 => format!("+{n}"),
        n if n < 0 => format!("−{}", n.unsigned_abs()),
        _ => "0".to_owned(),
    }
}

/// `Strength (STR)` → (`Strength`, `STR`); a key without parentheses is its own name, its first three
/// letters the abbreviation.
pub fn split_attribute(key: &str) -> (String, String) {
    match (key.find('('), key.rfind(')')) {
        (Some(a), Some(b)) if b > a + 1 => {
            (key[..a].trim().to_owned(), key[a + 1..b].trim().to_owned())
        }
        _ => (
            key.trim().to_owned(),
            key.trim()
                .chars()
                .take(3)
                .collect::<String>()
                .to_uppercase(),
        ),
    }
}

/// The class lookup (`role = "class"`): classes and their hit dice.
pub fn classes(lib: &Library) -> Result<&Lookup, RollError> {
    lib.lookup_with_role("class")
        .filter(|c| !c.entries.is_empty())
        .ok_or(RollError::NoClasses)
}

/// The class key matching `wanted` (any case); `None` when the content has no class of that name (the
/// caller lists [`classes`] to the user in its own words).
pub fn find_class(lib: &Library, wanted: &str) -> Result<Option<String>, RollError> {
    Ok(classes(lib)?
        .entries
        .iter()
        .find(|e| e.key.value.eq_ignore_ascii_case(wanted.trim()))
        .map(|e| e.key.value.clone()))
}

/// A generator with the helpers every people roller shares.
pub(crate) struct Dice<'a> {
    pub lib: &'a Library,
    pub rng: ChaCha20Rng,
}

impl<'a> Dice<'a> {
    pub fn new(lib: &'a Library, seed: u64) -> Self {
        Dice {
            lib,
            rng: super::rng(seed),
        }
    }

    /// Roll a dice expression to a whole number.
    pub fn roll(&mut self, expr: &str) -> Result<i64, RollError> {
        let e = dice::parse(expr).map_err(|e| super::table::at(expr, &e.message))?;
        let v = e
            .roll(&mut self.rng)
            .map_err(|e| RollError::Dice { message: e.message })?
            .value;
        v.to_integer()
            .try_into()
            .ok()
            .filter(|_| v.is_integer())
            .ok_or_else(|| RollError::NotWhole {
                what: expr.to_owned(),
                value: display_value(&v),
            })
    }

    pub fn table(&mut self, id: &str) -> Result<TableRoll, RollError> {
        roll_table(self.lib, id, &mut self.rng)
    }

    /// Whether the row a roll landed on (or a row of its sub-tables) carries `tag`.
    pub fn tagged(&self, t: &TableRoll, tag: &str) -> bool {
        self.lib
            .table(&t.table)
            .and_then(|tb| tb.rows.get(t.row))
            .is_some_and(|r| r.has_tag(tag))
            || t.subtables.iter().any(|s| self.tagged(s, tag))
    }

    /// The first of `tags` the roll carries.
    pub fn pick<'t>(&self, t: &TableRoll, tags: &[&'t str]) -> Result<&'t str, RollError> {
        tags.iter()
            .find(|g| self.tagged(t, g))
            .copied()
            .ok_or_else(|| RollError::NoTag {
                table: t.table.clone(),
                tags: tags.iter().map(|t| (*t).to_owned()).collect(),
            })
    }

    /// Index `0..n` with even odds, rolled as `1d<n>`; the roll is returned too.
    pub fn uniform(&mut self, n: usize) -> Result<(usize, i64), RollError> {
        let r = self.roll(&format!("1d{n}"))?;
        Ok((usize::try_from(r - 1).unwrap_or(0).min(n - 1), r))
    }

    /// A name from the name tables: gender (unless `gender` is given) and name table with even odds,
    /// then a first name and a surname. The provenance line goes to `rolls` under `label`.
    pub fn name(
        &mut self,
        label: &str,
        gender: Option<&'static str>,
        rolls: &mut Vec<String>,
    ) -> Result<String, RollError> {
        Ok(self.name_and_gender(label, gender, rolls)?.0)
    }

    /// [`Dice::name`], with the gender (`male` or `female`) the name was rolled for.
    pub fn name_and_gender(
        &mut self,
        label: &str,
        gender: Option<&'static str>,
        rolls: &mut Vec<String>,
    ) -> Result<(String, &'static str), RollError> {
        const GENDERS: [&str; 2] = ["male", "female"];
        const HERITAGES: [&str; 4] = ["black", "hispanic", "white", "asian"];
        let mut line = format!("{label}:");
        let g = match gender {
            Some(g) => {
                line.push_str(&format!(" {g} (by occupation),"));
                g
            }
            None => {
                let t = self.table(NAME_GENDER)?;
                line.push_str(&format!(" {} {} ({}),", t.dice, t.roll, t.text));
                self.pick(&t, &GENDERS)?
            }
        };
        let h = self.table(NAME_HERITAGE)?;
        line.push_str(&format!(" {} {} ({}),", h.dice, h.roll, h.text));
        let e = self.pick(&h, &HERITAGES)?;
        let first = self.table(&format!("bbb.names.{e}.{g}"))?;
        let last = self.table(&format!("bbb.names.{e}.surname"))?;
        let name = format!("{} {}", first.text, last.text);
        line.push_str(&format!(
            " first name {} {}, surname {} {} → {name}",
            first.dice, first.roll, last.dice, last.roll
        ));
        rolls.push(line);
        Ok((name, g))
    }
}

/// The text value of a lookup entry.
fn entry_text(l: &Lookup, key: &str) -> Option<String> {
    l.entries
        .iter()
        .find(|e| e.key.value == key)
        .map(|e| e.value.value.to_string())
}

/// The modifier of a score, from the modifier table (rows are looked up by the score as a roll).
pub fn modifier_of(lib: &Library, score: i64) -> Result<i64, RollError> {
    let t = lib.table(MODIFIER).ok_or_else(|| RollError::NoTable {
        table: MODIFIER.to_owned(),
    })?;
    let max = dice::parse(&t.dice.value)
        .ok()
        .and_then(|e| e.distribution().ok())
        .and_then(|d| num_traits::ToPrimitive::to_i64(&d.max().to_integer()))
        .unwrap_or(i64::MAX);
    t.rows
        .iter()
        .find(|r| crate::text::parse_on(&r.on.value, max).is_ok_and(|on| on.contains(score)))
        .and_then(|r| r.modifier)
        .ok_or_else(|| RollError::NoModifierRow {
            table: MODIFIER.to_owned(),
            score,
        })
}

/// Roll one detective. The library must have passed the checker with the `detective` generator's
/// requirements (`generators::detective`).
pub fn roll_detective(
    lib: &Library,
    req: &DetectiveRequest,
) -> Result<(Detective, u64), RollError> {
    let seed = item_seed(req.batch_seed, DETECTIVE_STREAM, req.number);
    let mut d = Dice::new(lib, seed);
    let mut rolls = Vec::new();

    // Class: rolled with even odds, even when chosen, so the choice changes nothing else.
    let class_lookup = classes(lib)?;
    let (i, r) = d.uniform(class_lookup.entries.len())?;
    let rolled_class = class_lookup.entries[i].key.value.clone();
    let class = match &req.class {
        Some(c) => {
            rolls.push(format!("Class: {c} (chosen)"));
            c.clone()
        }
        None => {
            rolls.push(format!(
                "Class 1d{}: {r} → {rolled_class}",
                class_lookup.entries.len()
            ));
            rolled_class
        }
    };

    // Attributes: 3d6 in order.
    let attr_lookup = lib.lookup(ATTRIBUTES).ok_or_else(|| RollError::NoLookup {
        lookup: ATTRIBUTES.to_owned(),
    })?;
    let mut attributes = Vec::new();
    for e in &attr_lookup.entries {
        let (name, abbr) = split_attribute(&e.key.value);
        let dice = vec![d.roll("1d6")?, d.roll("1d6")?, d.roll("1d6")?];
        let score: i64 = dice.iter().sum();
        rolls.push(format!(
            "{abbr} 3d6: {} = {score}",
            dice.iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(" + ")
        ));
        attributes.push((
            e.key.value.clone(),
            Attribute {
                key: abbr.to_lowercase(),
                abbr,
                name,
                score,
                modifier: 0,
                dice,
                forced: false,
            },
        ));
    }
    let mut forced = None;
    if attributes.iter().all(|(_, a)| a.score <= FORCE_ABOVE) {
        let raised = lib
            .lookup(FORCED)
            .and_then(|l| entry_text(l, &class))
            .ok_or_else(|| RollError::NoForcedEntry {
                lookup: FORCED.to_owned(),
                class: class.clone(),
            })?;
        let (_, a) = attributes
            .iter_mut()
            .find(|(k, _)| *k == raised)
            .ok_or_else(|| RollError::ForcedNotAttribute {
                lookup: FORCED.to_owned(),
                raised: raised.to_string(),
            })?;
        rolls.push(format!(
            "No score above {FORCE_ABOVE}: {} raised to {RAISED_SCORE} (the {class}'s attribute)",
            a.abbr
        ));
        a.score = RAISED_SCORE;
        a.forced = true;
        forced = Some(a.key.clone());
    }
    for (_, a) in &mut attributes {
        a.modifier = modifier_of(lib, a.score)?;
    }
    let con_modifier = attributes
        .iter()
        .find(|(k, _)| k == CON_KEY)
        .map(|(_, a)| a.modifier)
        .ok_or_else(|| RollError::NoCon {
            lookup: ATTRIBUTES.to_owned(),
            key: CON_KEY.to_owned(),
        })?;
    let con_abbr = split_attribute(CON_KEY).1;

    // HP: the class's hit die plus the CON modifier, at least 1.
    let die = entry_text(class_lookup, &class).ok_or_else(|| RollError::NoHitDie {
        class: class.to_string(),
    })?;
    let hp_roll = d.roll(&die)?;
    let total = hp_roll + con_modifier;
    let max = total.max(1);
    rolls.push(if total < 1 {
        format!(
            "HP {die}: {hp_roll}, {con_abbr} {} → {total}, recorded as 1",
            signed(con_modifier)
        )
    } else {
        format!(
            "HP {die}: {hp_roll}, {con_abbr} {} → {max}",
            signed(con_modifier)
        )
    });

    // Background of the class.
    let bg = d.table(&class_table(BACKGROUND, &class))?;
    rolls.push(format!("Background {}: {} → {}", bg.dice, bg.roll, bg.text));

    let name = d.name("Name", None, &mut rolls)?;

    // Relationships, ordered by tier, with the optional swap of tiers 1 and 2.
    let swap = d.table(TIER_SWAP)?;
    let swapped = d.pick(&swap, &["swap", "keep"])? == "swap";
    rolls.push(format!(
        "Tier swap {}: {} → {}",
        swap.dice, swap.roll, swap.text
    ));
    let rel_lookup = lib
        .lookup(RELATIONSHIPS)
        .ok_or_else(|| RollError::NoLookup {
            lookup: RELATIONSHIPS.to_owned(),
        })?;
    let mut roles: Vec<(i64, usize, String)> = rel_lookup
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let tier = match e.value.value {
                EntryValue::Integer(n) => n,
                EntryValue::Text(_) => i64::MAX,
            };
            (tier, i, e.key.value.clone())
        })
        .collect();
    roles.sort();
    if swapped && roles.len() >= 2 {
        let (a, b) = (roles[0].2.clone(), roles[1].2.clone());
        roles[0].2 = b;
        roles[1].2 = a;
    }
    let mut relationships = Vec::new();
    for (n, (_, _, role)) in roles.into_iter().enumerate() {
        let tier = n as u32 + 1;
        let name = d.name(&format!("Tier {tier} ({role})"), None, &mut rolls)?;
        relationships.push(Relationship {
            tier,
            role,
            name,
            strained: false,
        });
    }

    let assignment = d.table(ASSIGNMENT)?;
    rolls.push(format!(
        "Least-wanted assignment {}: {} → {}",
        assignment.dice, assignment.roll, assignment.text
    ));
    let tagline = d.table(TAGLINE)?;
    rolls.push(format!(
        "City Tagline prompt {}: {}",
        tagline.dice, tagline.roll
    ));

    Ok((
        Detective {
            name,
            class: class.clone(),
            level: 1,
            xp: 0,
            attributes: attributes.into_iter().map(|(_, a)| a).collect(),
            forced,
            hp: Hp {
                max,
                die,
                roll: hp_roll,
                con_modifier,
            },
            backgrounds: vec![Background {
                level: 1,
                class,
                text: bg.text,
            }],
            relationships,
            swapped,
            assignment: assignment.text,
            tagline: tagline.text,
            rolls,
        },
        seed,
    ))
}
