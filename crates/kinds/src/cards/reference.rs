//! The Block by Block reference and approach cards. The procedures are the rules of the game told briefly
//! in blockprint's own words; every table, die and modifier comes from the checked content, and every
//! number of odds or mean from the exact dice engine ([`blockprint_dice`]) or the checker's row odds (made by
//! the same engine).

use blockprint_dice as dice;
use blockprint_dice::words::spoken_result;
use num_traits::{One, Zero};

use super::faces::{self, Approach, Back, Block, Face, Reference};
use super::{Card, Checked};
use crate::Requirements;
use blockprint_content::error::{Error, Result};
use blockprint_dice::{self, BigRational};

/// The content the cards read.
pub const CHASE_OUTCOME: &str = "bbb.chase.outcome";
pub const LAWYER: &str = "bbb.interrogation.lawyer";
pub const FIGHT_DAMAGE: &str = "bbb.fight.damage";
pub const TURF_DAMAGE: &str = "bbb.interrogation.damage";
pub const MATRIX: &str = "bbb.interrogation.matrix";
pub const CLOSING: &str = "bbb.casework.closing_modifiers";
pub const SENTENCING: &str = "bbb.casework.sentencing";
pub const CITY_STREETS: &str = "bbb.chase.city_streets";
/// The closing modifier per Break.
pub const PER_BREAK: &str = "Each Break in the case";

/// Pool sizes the legwork odds card lists.
pub const POOLS: std::ops::RangeInclusive<u32> = 1..=6;
/// Breaks the DA card lists (0 to this).
pub const BREAKS: u32 = 5;

/// The investigators' and the NPCs' approaches, in the order the cards print them.
pub const INVESTIGATOR: [&str; 3] = ["Good Cop", "Bad Cop", "Make them Sweat"];
pub const NPC: [&str; 3] = ["Mouth Off", "Play it Cool", "Clam Up"];

pub fn requirements() -> Requirements {
    Requirements {
        tables: vec![CHASE_OUTCOME.into(), LAWYER.into()],
        lookups: vec![
            FIGHT_DAMAGE.into(),
            TURF_DAMAGE.into(),
            MATRIX.into(),
            CLOSING.into(),
            SENTENCING.into(),
        ],
        int_keys: vec![(CLOSING.into(), PER_BREAK.into())],
        ..Requirements::default()
    }
}

fn dist(expr: &str) -> Result<dice::Dist> {
    let e = dice::parse(expr).map_err(|e| Error::Rules(format!("`{expr}`: {}", e.message)))?;
    e.distribution()
        .map_err(|e| Error::Rules(format!("`{expr}`: {e}")))
}

/// P(value >= k) of a distribution.
pub fn at_least(d: &dice::Dist, k: i64) -> BigRational {
    d.outcomes()
        .into_iter()
        .filter(|(v, _)| *v >= BigRational::from_integer(k.into()))
        .fold(BigRational::zero(), |a, (_, p)| a + p)
}

/// Odds for people: `65%` when exact in whole percent, else `11/36 (30.6%)`.
pub fn odds(q: &BigRational) -> String {
    let pct = q * BigRational::from_integer(100.into());
    if pct.is_integer() {
        format!("{}%", pct.to_integer())
    } else {
        format!("{} ({:.1}%)", dice::fraction_reduced(q), dice::approx(&pct))
    }
}

/// The largest denominator of a fraction a player card may print (a d12's single face, 1/12): a short
/// exact fraction reads at a glance; 31031/46656 does not.
pub const SHORT_DENOMINATOR: u32 = 12;

/// A percentage for a player card: whole when exact (`65%`), else one decimal (`30.6%`); never rounded to
/// a certainty or an impossibility it is not (`over 99.9%`, `under 0.1%`).
pub fn percent(q: &BigRational) -> String {
    let pct = q * BigRational::from_integer(100.into());
    if pct.is_integer() {
        return format!("{}%", pct.to_integer());
    }
    let a = dice::approx(&pct);
    if a >= 99.95 {
        "over 99.9%".into()
    } else if a < 0.05 {
        "under 0.1%".into()
    } else {
        format!("{a:.1}%")
    }
}

/// Whether `q` is a fraction short enough for a player card (denominator at most [`SHORT_DENOMINATOR`]).
fn short(q: &BigRational) -> bool {
    let d = q.reduced();
    *d.denom() <= num_bigint::BigInt::from(SHORT_DENOMINATOR)
}

/// Odds as a player card prints a column of them: when every one is a whole percentage or a short exact
/// fraction, `1/6 (16.7%)` (or `65%`); otherwise percentages alone (`30.6%`), so a column reads one way.
pub fn player_odds(column: &[BigRational]) -> Vec<String> {
    let fractions = column.iter().all(short);
    column
        .iter()
        .map(|q| {
            let whole = (q * BigRational::from_integer(100.into())).is_integer();
            if fractions && !whole {
                format!("{} ({})", dice::fraction(q), percent(q))
            } else {
                percent(q)
            }
        })
        .collect()
}

/// A mean for people: two decimals, trailing zeros dropped (`3.5`, `4.2`, `6.11`).
pub fn mean(q: &BigRational) -> String {
    let s = format!("{:.2}", dice::approx(q));
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// What the legwork odds card prints for a pool of `n` dice, exact: at least one Progress (a 6), at least
/// one hunch (a 1), and at least one Progress when every hunch is followed up (a 1 then counts too).
#[derive(Debug, Clone, serde::Serialize)]
pub struct PoolOdds {
    pub dice: u32,
    pub progress: String,
    pub hunch: String,
    pub followed: String,
}

/// Exact legwork odds for pools of `n` d6.
pub fn pool_odds(n: u32) -> Result<(BigRational, BigRational, BigRational)> {
    let progress = at_least(&dist(&format!("{n}d6cs>=6"))?, 1);
    let hunch = at_least(&dist(&format!("{n}d6cs<=1"))?, 1);
    // Following every hunch: a hunch can only be followed when some die shows a 1, and once it is, that
    // 1 is a Progress. So the roll gives at least one Progress exactly when some die first shows a 1 or
    // a 6; the reroll of the 2–5s adds Progress but never decides "at least one". From one d6's
    // distribution: q = P(2–5), and no Progress has probability q^n.
    let d6 = dist("1d6")?;
    let q: BigRational = d6
        .outcomes()
        .into_iter()
        .filter(|(v, _)| {
            *v >= BigRational::from_integer(2.into()) && *v <= BigRational::from_integer(5.into())
        })
        .fold(BigRational::zero(), |a, (_, p)| a + p);
    let mut none = BigRational::one();
    for _ in 0..n {
        none *= &q;
    }
    Ok((progress, hunch, BigRational::one() - none))
}

/// P(1d20 + bonus >= target).
pub fn closing_odds(bonus: i64, target: i64) -> Result<BigRational> {
    Ok(at_least(&dist("1d20")?, target - bonus))
}

fn t(lead: &str, text: &str) -> Block {
    Block::Text {
        lead: lead.into(),
        text: text.into(),
    }
}

fn list(items: &[(&str, &str)]) -> Block {
    Block::List {
        items: items
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect(),
    }
}

fn table(columns: &[&str], widths: &[u32], rows: Vec<Vec<String>>) -> Block {
    Block::Table {
        columns: columns.iter().map(|c| (*c).to_owned()).collect(),
        widths: widths.to_vec(),
        rows,
    }
}

fn card(title: &str, part: &str, blocks: Vec<Block>) -> Face {
    Face::Reference(Reference {
        title: title.into(),
        part: part.into(),
        blocks,
    })
}

fn missing(what: &str) -> Error {
    Error::Rules(format!(
        "the `cards` generator needs `{what}`, which the content lacks (`blockprint check` names it)"
    ))
}

/// The reference cards: faces, cards (front, back) and what the Markdown shows.
pub fn reference_cards(cx: &Checked) -> Result<(Vec<Face>, Vec<Card>, serde_json::Value)> {
    let lib = &cx.lib;
    let q = |s: &str| String::from(s);
    let lookup = |id: &str| lib.lookup(id).ok_or_else(|| missing(id));
    let tab = |id: &str| lib.table(id).ok_or_else(|| missing(id));
    // The suits' attributes as the City Streets deck gives them (or the first deck; none: no suit table).
    let deck = lib.deck(CITY_STREETS).or(lib.decks.first());
    let mut fronts = Vec::new();

    // Chase 1: the set-up and the road ahead.
    let mut road = vec![
        t(
            "HP is Hot Pursuit. ",
            "Order roll: Wisdom. A clearly faster vehicle rolls with advantage. People in one vehicle pool their HP, but a vehicle carrying two or more people more than the other side rolls with disadvantage. Either side may call the chase off at any time.",
        ),
        Block::Heading {
            text: "The road ahead".into(),
        },
        t(
            "",
            "Deal one card face up to the quarry and one to the pursuer; the quarry is already past the pursuer's first card. A card's rank is its damage (A = 1, 2–10 as printed, J Q K = 10); its suit names the attribute that meets it.",
        ),
    ];
    if let Some(deck) = deck {
        let suits: Vec<Vec<String>> = blockprint_content::SUITS
            .iter()
            .zip(faces::meanings(deck))
            .map(|(s, m)| {
                let (sym, _) = faces::suit_symbol(s);
                let (abbr, name, gloss) = faces::attribute(&q(m));
                vec![sym.to_owned(), format!("{abbr}: {name}"), gloss]
            })
            .collect();
        road.push(table(&["Suit", "Attribute", "Think"], &[2, 5, 5], suits));
    }
    road.push(t("Meet a card: ", "roll for driving, riding or running with the suit's attribute. Success: move on one card and deal the next. Failure: lose HP equal to the card's damage."));
    fronts.push(card("Chase", "1/3", road));
    // Chase 2: moves.
    fronts.push(card(
        "Chase",
        "2/3",
        vec![
            Block::Heading { text: "The quarry's turn (one of)".into() },
            list(&[
                ("Take the road ahead: ", "meet the face-up card in front of you."),
                ("Slow down: ", "turn your card face down and stay put. Not while you share a card with the pursuer."),
                ("Swerve: ", "deal a new card and meet it at once, whatever it is."),
            ]),
            t("Slow down three turns running ", "and the quarry gets away."),
            Block::Heading { text: "The pursuer's turn (one of)".into() },
            list(&[
                ("Follow ", "any card already face up."),
                ("Strike out: ", "deal a card of your own, a new route."),
                ("Slow down: ", "lose the turn; the card ahead goes face down."),
            ]),
            t("Bridging: ", "to cross from its own route to the quarry's, the pursuer swerves. The new card is a bridge between its card and the quarry's, and the pursuer must meet it."),
        ],
    ));
    // Chase 3: the end, with the outcome table's exact odds.
    let outcome = tab(CHASE_OUTCOME)?;
    let mut chances = Vec::new();
    for i in 0..outcome.rows.len() {
        let p = blockprint_content::check::row_probability(&cx.report, &outcome.id.value, i)
            .ok_or_else(|| Error::Bug(format!("no odds for {CHASE_OUTCOME} row {i}")))?;
        chances.push(p.clone());
    }
    let mut rows = Vec::new();
    for (r, chance) in outcome.rows.iter().zip(player_odds(&chances)) {
        rows.push(vec![
            r.on.value.clone(),
            chance,
            q(&spoken_result(&r.result.value)),
        ]);
    }
    fronts.push(card(
        "Chase",
        "3/3",
        vec![
            Block::Heading {
                text: "Ending the chase".into(),
            },
            list(&[
                ("", "The quarry slows down three turns running and is gone."),
                ("", "One side gives up."),
                (
                    "",
                    "A side drops to 0 HP or below: it is boxed in, cornered or rolled over.",
                ),
            ]),
            Block::Heading {
                text: format!("At 0 HP roll {}", outcome.dice.value),
            },
            table(
                &[outcome.dice.value.as_str(), "Odds", "What happens"],
                &[2, 4, 8],
                rows,
            ),
        ],
    ));

    // Interrogation 1: the matrix, straight from the content.
    let matrix = lookup(MATRIX)?;
    let rows: Vec<Vec<String>> = matrix
        .entries
        .iter()
        .map(|e| {
            let (a, b) = e.key.value.split_once(" vs ").unwrap_or((&e.key.value, ""));
            vec![q(a), q(b), q(&e.value.value.to_string())]
        })
        .collect();
    fronts.push(card(
        "Interrogation",
        "1/2",
        vec![
            t("", "Everyone picks a target and an approach card in secret; reveal together. Roll = 1d20 + CHA modifier each, higher wins, ties roll again."),
            table(&["Investigator", "NPC", "Outcome"], &[9, 8, 17], rows),
        ],
    ));
    // Interrogation 2: damage by turf (means from the engine), the lawyer, threats.
    let turf = lookup(TURF_DAMAGE)?;
    let mut rows = Vec::new();
    for e in &turf.entries {
        let dice_text = e.value.value.to_string();
        let d = dist(&dice_text)?;
        rows.push(vec![
            q(&e.key.value),
            format!("{dice_text} + CHA"),
            mean(&d.mean()),
        ]);
    }
    let lawyer = tab(LAWYER)?;
    let mut lawyer_odds = None;
    for (i, r) in lawyer.rows.iter().enumerate() {
        if r.result.value.to_lowercase().contains("lawyer shows") {
            lawyer_odds =
                blockprint_content::check::row_probability(&cx.report, &lawyer.id.value, i)
                    .cloned();
        }
    }
    let lawyer_line = match &lawyer_odds {
        Some(p) => format!(
            "each time an NPC clams up in an interrogation, roll {}: counsel arrives {} of the time ({}).",
            lawyer.dice.value,
            player_odds(std::slice::from_ref(p)).remove(0),
            lawyer
                .rows
                .iter()
                .find(|r| r.result.value.to_lowercase().contains("lawyer shows"))
                .map(|r| q(&spoken_result(&r.result.value)))
                .unwrap_or_default()
        ),
        None => format!(
            "each time an NPC clams up in an interrogation, roll {} on the lawyer table.",
            lawyer.dice.value
        ),
    };
    fronts.push(card(
        "Interrogation",
        "2/2",
        vec![
            t("HP is Hostile Position. ", "Order roll: Charisma. Whoever reaches 0 gives the other side what it wants."),
            Block::Heading { text: "Normal damage by turf".into() },
            table(&["Where", "Damage", "Mean"], &[4, 4, 2], rows),
            t("", "Bad Cop against Mouth Off: the winner doubles the damage."),
            t("Make them Sweat ", "only on your own turf."),
            t("The lawyer: ", &lawyer_line),
            t("Threats: ", "skip the approaches and deal your weapon's fight damage + CHA. You will answer for it later."),
        ],
    ));

    // Fights: damage with exact means.
    let fight = lookup(FIGHT_DAMAGE)?;
    let mut rows = Vec::new();
    for e in &fight.entries {
        let dice_text = e.value.value.to_string();
        let d = dist(&dice_text)?;
        rows.push(vec![q(&e.key.value), dice_text, mean(&d.mean())]);
    }
    fronts.push(card(
        "Fight",
        "",
        vec![
            t("HP is Hit Points. ", "Order roll: Dexterity."),
            table(&["Weapon", "Damage", "Mean"], &[6, 3, 2], rows),
            t("", "Add STR when brawling, DEX with a ranged weapon. Every hit takes at least 1 HP."),
            t("Exploding (!): ", "a die that shows its highest face is rolled again and added, again and again. The mean counts every explosion."),
            t("Below 0 HP ", "the damage comes off STR or CON; then a CON roll, and on a failure you are critically injured and out."),
        ],
    ));

    // Legwork 1: the procedure. Legwork 2: the odds.
    fronts.push(card(
        "Legwork",
        "1/2",
        vec![
            t("", "Once a week, free: roll 1d6 per level, more or fewer by the activity's attribute modifier, never fewer than one."),
            t("Each 6 ", "is a Progress. At the case's hidden Break threshold you get a Break."),
            t("Each 1 ", "is a hunch. Let it go, or follow it up:"),
            list(&[
                ("", "keep the 1s and 6s; reroll every 2–5 once;"),
                ("", "now every 6 and every 1 is a Progress, and every 1 costs a Stress."),
            ]),
            t("Stress, per point: ", "lose 1 HP (not below 0), strain a good relationship, or lose an attribute point for good."),
            t("Overtime ", "(each further roll in a week): Stress doubles and every hunch must be followed."),
        ],
    ));
    let (mut progress, mut hunch, mut followed) = (Vec::new(), Vec::new(), Vec::new());
    for n in POOLS {
        let (p, h, f) = pool_odds(n)?;
        progress.push(p);
        hunch.push(h);
        followed.push(f);
    }
    let (progress, hunch, followed) = (
        player_odds(&progress),
        player_odds(&hunch),
        player_odds(&followed),
    );
    let rows: Vec<Vec<String>> = POOLS
        .zip(progress.into_iter().zip(hunch).zip(followed))
        .map(|(n, ((p, h), f))| vec![n.to_string(), p, h, f])
        .collect();
    fronts.push(card(
        "Legwork",
        "2/2",
        vec![
            Block::Heading { text: "Odds by number of dice".into() },
            table(
                &["Dice", "≥ 1 Progress", "≥ 1 hunch", "≥ 1 Progress, hunches followed"],
                &[2, 5, 5, 5],
                rows,
            ),
            t("", "“Hunches followed”: every hunch is followed up (as overtime demands); once a hunch is followed its 1s are Progress, so the roll comes up empty only when every die shows 2–5."),
        ],
    ));

    // The DA.
    let closing = lookup(CLOSING)?;
    let per_break = closing
        .entries
        .iter()
        .find(|e| e.key.value == PER_BREAK)
        .and_then(|e| match e.value.value {
            blockprint_content::EntryValue::Integer(n) => Some(n),
            _ => None,
        })
        .ok_or_else(|| missing(&format!("{CLOSING}: {PER_BREAK}")))?;
    let sentencing = lookup(SENTENCING)?;
    let mut targets: Vec<i64> = sentencing
        .entries
        .iter()
        .filter_map(|e| match e.value.value {
            blockprint_content::EntryValue::Integer(n) => Some(n),
            _ => None,
        })
        .collect();
    targets.sort_unstable();
    targets.dedup();
    let mut columns_odds = Vec::new();
    for &target in &targets {
        let mut column = Vec::new();
        for b in 0..=i64::from(BREAKS) {
            column.push(closing_odds(b * per_break, target)?);
        }
        columns_odds.push(player_odds(&column));
    }
    let rows: Vec<Vec<String>> = (0..=i64::from(BREAKS))
        .map(|b| {
            let mut row = vec![format!("{b} (+{})", b * per_break)];
            row.extend(columns_odds.iter().map(|c| c[b as usize].clone()));
            row
        })
        .collect();
    let mut columns = vec!["Breaks".to_owned()];
    columns.extend(targets.iter().map(|t| format!("≥ {t}")));
    let mods: Vec<(String, String)> = closing
        .entries
        .iter()
        .filter(|e| e.key.value != PER_BREAK)
        .map(|e| {
            let v = match e.value.value {
                blockprint_content::EntryValue::Integer(n) if n > 0 => format!("+{n}"),
                blockprint_content::EntryValue::Integer(n) => format!("−{}", n.abs()),
                ref v => v.to_string(),
            };
            (format!("{v} "), q(&e.key.value))
        })
        .collect();
    fronts.push(card(
        "The DA",
        "",
        vec![
            t("Bring ", "a Suspect in custody, a piece of Evidence and a Witness. It takes your legwork (on overtime: 1d6 Stress)."),
            t("Roll 1d20 ", &format!("+{per_break} per Break + modifiers; meet the minimum sentence in years.")),
            Block::List { items: mods },
            Block::Heading {
                text: "Chance the DA accepts, by Breaks and minimum sentence".into(),
            },
            Block::Table {
                widths: std::iter::once(3).chain(targets.iter().map(|_| 2)).collect(),
                columns,
                rows,
            },
            t("Refused? ", "Try again after a new Break, or strain your relationship with the DA."),
        ],
    ));

    let back = fronts.len();
    let mut faces = fronts;
    faces.push(Face::Back(Back {
        style: "reference".into(),
        title: "Block by Block".into(),
        subtitle: "Reference".into(),
    }));
    let cards = (0..back).map(|front| Card { front, back }).collect();
    let md = serde_json::json!({});
    Ok((faces, cards, md))
}

/// The approach cards: `players` sets of the investigators' three and `players` sets of the NPCs' three,
/// each with what it does against the other side's approaches (from the content's matrix when given).
pub fn approach_cards(
    players: u32,
    cx: Option<&Checked>,
) -> (Vec<Face>, Vec<Card>, serde_json::Value) {
    let matrix = cx.and_then(|cx| cx.lib.lookup(MATRIX));
    let against = |mine: &str, investigator: bool| -> Vec<(String, String)> {
        let Some(m) = matrix else {
            return Vec::new();
        };
        let others = if investigator { NPC } else { INVESTIGATOR };
        others
            .iter()
            .filter_map(|o| {
                let key = if investigator {
                    format!("{mine} vs {o}")
                } else {
                    format!("{o} vs {mine}")
                };
                m.entries
                    .iter()
                    .find(|e| e.key.value == key)
                    .map(|e| (format!("vs {o}"), String::from(&e.value.value.to_string())))
            })
            .collect()
    };
    let blurb = |name: &str| match name {
        "Good Cop" => {
            "Coffee, sympathy, a way out. You are on their side, or so they should think."
        }
        "Bad Cop" => "Raised voice, slammed table, the weight of the badge.",
        "Make them Sweat" => "Silence, a long wait, a hot room. Only on your own turf.",
        "Mouth Off" => "Loud, insulting, looking for the fight that ends the talk.",
        "Play it Cool" => "Calm, helpful-sounding, giving nothing that matters.",
        _ => "Nothing to say. Maybe a lawyer is on the way.",
    };
    let mut faces = Vec::new();
    for (side, names) in [("investigator", INVESTIGATOR), ("npc", NPC)] {
        for name in names {
            faces.push(Face::Approach(Approach {
                side: side.into(),
                name: name.into(),
                blurb: blurb(name).into(),
                against: against(name, side == "investigator"),
                set: 0,
            }));
        }
    }
    let inv_back = faces.len();
    faces.push(Face::Back(Back {
        style: "investigator".into(),
        title: "Investigator".into(),
        subtitle: "Approach".into(),
    }));
    let npc_back = faces.len();
    faces.push(Face::Back(Back {
        style: "npc".into(),
        title: "NPC".into(),
        subtitle: "Approach".into(),
    }));
    // One face per card (the set number differs), so copy the three of each side per set.
    let mut out_faces: Vec<Face> = Vec::new();
    let mut cards = Vec::new();
    let base: Vec<Face> = faces[..6].to_vec();
    out_faces.extend(faces[6..].iter().cloned());
    let (inv_back, npc_back) = (inv_back - 6, npc_back - 6);
    for (k, back) in [(0usize, inv_back), (3, npc_back)] {
        for set in 1..=players {
            for f in &base[k..k + 3] {
                let mut f = f.clone();
                if let Face::Approach(a) = &mut f {
                    a.set = set;
                }
                cards.push(Card {
                    front: out_faces.len(),
                    back,
                });
                out_faces.push(f);
            }
        }
    }
    (out_faces, cards, serde_json::json!({ "players": players }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn player_odds_are_short_fractions_or_percentages() {
        // Every value short: the fraction beside its percentage (whole percentages alone).
        assert_eq!(
            player_odds(&[q(1, 6), q(1, 2), q(5, 12)]),
            ["1/6 (16.7%)", "50%", "5/12 (41.7%)"]
        );
        // One long fraction in the column: percentages alone, the column reads one way.
        assert_eq!(
            player_odds(&[q(1, 6), q(11, 36), q(31031, 46656)]),
            ["16.7%", "30.6%", "66.5%"]
        );
        assert_eq!(percent(&q(1, 100_000)), "under 0.1%");
        assert_eq!(percent(&q(99_999, 100_000)), "over 99.9%");
        assert_eq!(percent(&q(0, 1)), "0%");
        assert_eq!(percent(&q(1, 1)), "100%");
    }
}
