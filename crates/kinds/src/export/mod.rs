//! Exports: checked tables and decks in, files other tools import out — Foundry VTT RollTable and Cards
//! JSON ([`foundry`]), the chat commands of Roll20's TableExport script ([`roll20`]), and CSV with the
//! pipe form table importers read ([`csv`]). Every format starts from one [`Table`] per content table:
//! its rows as ranges of the dice's totals with their exact odds. Each rendered file is read back into
//! ranges (or weights) and checked against that model before it is handed to the writer, so a file that
//! would roll differently from the booklet is a bug reported by name, never written.
//!
//! Ranges are the totals of the table's own dice: a 2d6 table runs 2–12, a `1d100` (or `d%`) table
//! 1–100 with `00` read as 100, a `1d66` table 1–66 (one 66-sided die, as the dice engine reads it; a
//! tens-and-units d66 is `1d6*10+1d6`, whose totals 11–66 skip 17–20 and so on). Every total the dice
//! can make lies in exactly one range, and the checker keeps totals the dice cannot make out of every
//! range, so such dice leave gaps between ranges that no roll lands in.

pub mod csv;
pub mod formula;
pub mod foundry;
mod kind;
pub mod roll20;

pub use kind::{
    CSV, CSV_DEF, ExportKind, FOUNDRY, FOUNDRY_DEF, FOUNDRY_V12, FOUNDRY_V12_DEF, Options, ROLL20,
    ROLL20_DEF, Target,
};

use blockprint_dice as dice;
use num_rational::BigRational;
use num_traits::{One, Zero};
use sha2::{Digest, Sha256};

use crate::Checked;
use crate::error::{Problem, unchecked};
use blockprint_content::error::{Error, Result};
use blockprint_content::text::{Piece, parse_on, pieces};
use blockprint_dice::Expr;

/// A content table as the exports see it.
#[derive(Debug, Clone)]
pub struct Table {
    pub id: String,
    pub title: String,
    /// The dice as written in the content.
    pub dice: String,
    /// The dice in the notation Foundry VTT and Roll20 read (`d%` → `1d100`, `d8` → `1d8`).
    pub formula: String,
    pub note: Option<String>,
    /// Every total the dice can make, ascending.
    pub outcomes: Vec<i64>,
    /// The least common multiple of the denominators of the totals' odds: how many equally likely ways
    /// the dice fall (36 for 2d6, 100 for 1d100), so each row's odds are a whole number of them.
    pub ways: num_bigint::BigInt,
    /// Rows in ascending order of their ranges (the content's order when it is already ascending).
    pub rows: Vec<Row>,
    /// `file:line` of the table, for messages.
    pub at: String,
}

#[derive(Debug, Clone)]
pub struct Row {
    pub lo: i64,
    pub hi: i64,
    /// The result as written in the content (`{1d6}` rolls and `{table:ID}` references included).
    pub result: String,
    pub probability: BigRational,
    /// `file:line` of the row, for messages.
    pub at: String,
}

impl Row {
    /// How many totals the range spans.
    pub fn width(&self) -> i64 {
        self.hi - self.lo + 1
    }
}

/// A deck as the exports see it: cards by suit in rank order.
#[derive(Debug, Clone)]
pub struct Deck {
    pub id: String,
    pub title: String,
    pub note: Option<String>,
    /// The ranks of each suit in order (A, 2 … 10, J, Q, K unless the deck declares fewer).
    pub ranks: Vec<String>,
    /// `(suit, what the suit stands for, cards in rank order)`, suits in print order.
    pub suits: Vec<(String, String, Vec<String>)>,
}

/// The exported tables: every table, or the ones named (in the order named).
pub fn tables(cx: &Checked, ids: Option<&[String]>) -> Result<Vec<Table>> {
    let all: Vec<&str> = cx.lib.tables.iter().map(|t| t.id.value.as_str()).collect();
    let chosen: Vec<&str> = match ids {
        None => all,
        Some(ids) => ids
            .iter()
            .filter(|id| cx.lib.table(id).is_some())
            .map(String::as_str)
            .collect(),
    };
    chosen.into_iter().map(|id| table(cx, id)).collect()
}

/// The exported decks: every deck, or the ones named.
pub fn decks(cx: &Checked, ids: Option<&[String]>) -> Vec<Deck> {
    cx.lib
        .decks
        .iter()
        .filter(|d| ids.is_none_or(|ids| ids.contains(&d.id.value)))
        .map(|d| {
            let meanings = [
                &d.suits.hearts,
                &d.suits.clubs,
                &d.suits.diamonds,
                &d.suits.spades,
            ];
            Deck {
                id: d.id.value.clone(),
                title: d.title.clone(),
                note: d.note.clone(),
                ranks: d.rank_names().into_iter().map(str::to_owned).collect(),
                suits: blockprint_content::SUITS
                    .iter()
                    .zip(meanings)
                    .zip(&d.cards)
                    .map(|((s, m), cards)| {
                        (
                            (*s).to_owned(),
                            m.clone(),
                            cards.value.iter().map(|c| c.value.clone()).collect(),
                        )
                    })
                    .collect(),
            }
        })
        .collect()
}

/// One checked table as ranges with exact odds, validated.
pub fn table(cx: &Checked, id: &str) -> Result<Table> {
    let lib = &cx.lib;
    let t = lib
        .table(id)
        .ok_or_else(|| unchecked(format!("lacks table `{id}`, which is to be exported")))?;
    let at = format!("{}:{}", lib.file_of(&t.id.loc), lib.line_of(&t.id.loc));
    let bug = |what: String| unchecked(format!("has table `{id}` ({at}), which {what}"));
    let expr = dice::parse(&t.dice.value).map_err(|e| {
        bug(format!(
            "rolls dice `{}` that do not parse: {}",
            t.dice.value, e.message
        ))
    })?;
    let support = expr
        .distribution()
        .ok()
        .and_then(|d| d.integer_outcomes())
        .ok_or_else(|| {
            bug(format!(
                "rolls dice `{}` without whole-number totals",
                t.dice.value
            ))
        })?;
    let ways = support
        .iter()
        .fold(num_bigint::BigInt::one(), |acc, (_, p)| {
            num_integer::Integer::lcm(&acc, p.denom())
        });
    let outcomes: Vec<i64> = support.into_iter().map(|(v, _)| v).collect();
    let max = *outcomes
        .last()
        .ok_or_else(|| bug("rolls dice that roll nothing".into()))?;
    let mut rows = Vec::with_capacity(t.rows.len());
    for (i, r) in t.rows.iter().enumerate() {
        let range = parse_on(&r.on.value, max)
            .map_err(|why| bug(format!("has a row `{}`: {why}", r.on.value)))?;
        let probability = blockprint_content::check::row_probability(&cx.report, id, i)
            .cloned()
            .ok_or_else(|| bug("has no odds in the checker's report".into()))?;
        rows.push(Row {
            lo: range.lo,
            hi: range.hi.unwrap_or(max),
            result: r.result.value.clone(),
            probability,
            at: format!("{}:{}", lib.file_of(&r.loc), lib.line_of(&r.loc)),
        });
    }
    rows.sort_by_key(|r| r.lo);
    let table = Table {
        id: id.to_owned(),
        title: t.title.clone(),
        dice: t.dice.value.clone(),
        formula: formula::foundry(expr.root()),
        note: t.note.clone(),
        outcomes,
        ways,
        rows,
        at: at.clone(),
    };
    let ranges: Vec<(i64, i64, i64)> = table.rows.iter().map(|r| (r.lo, r.hi, r.width())).collect();
    check_ranges(&table, "the content model", &ranges)?;
    let total = table
        .rows
        .iter()
        .fold(BigRational::zero(), |a, r| a + &r.probability);
    if !total.is_one() {
        return Err(bug(format!(
            "has rows whose odds add up to {}, not 1",
            dice::fraction(&total)
        )));
    }
    Ok(table)
}

/// Check ranges read back from an export (`(lo, hi, weight)`, in the export's order) against the
/// table: one range per row, ascending and disjoint, from the lowest total to the highest, every total
/// the dice can make in exactly one range and none empty, each weight the width of its range.
pub fn check_ranges(table: &Table, what: &str, ranges: &[(i64, i64, i64)]) -> Result<()> {
    let bug = |why: String| unread(what, table, why);
    if ranges.len() != table.rows.len() {
        return Err(bug(format!(
            "{} ranges for {} rows",
            ranges.len(),
            table.rows.len()
        )));
    }
    let (Some(&min), Some(&max)) = (table.outcomes.first(), table.outcomes.last()) else {
        return Err(bug("the dice make no totals".into()));
    };
    let mut next_outcome = 0usize;
    let mut previous_hi: Option<i64> = None;
    for (k, &(lo, hi, weight)) in ranges.iter().enumerate() {
        let row = &table.rows[k];
        if (lo, hi) != (row.lo, row.hi) {
            return Err(bug(format!(
                "range {lo}-{hi} stands where the content has {}-{} ({})",
                row.lo, row.hi, row.at
            )));
        }
        if lo > hi {
            return Err(bug(format!("range {lo}-{hi} runs backwards")));
        }
        if weight != hi - lo + 1 {
            return Err(bug(format!(
                "range {lo}-{hi} has weight {weight}, not its width {}",
                hi - lo + 1
            )));
        }
        if let Some(p) = previous_hi
            && lo <= p
        {
            return Err(bug(format!(
                "range {lo}-{hi} overlaps the one before, which ends at {p}"
            )));
        }
        if k == 0 && lo != min {
            return Err(bug(format!(
                "the first range starts at {lo}, the dice's lowest total is {min}"
            )));
        }
        let first = next_outcome;
        while next_outcome < table.outcomes.len() && table.outcomes[next_outcome] <= hi {
            if table.outcomes[next_outcome] < lo {
                return Err(bug(format!(
                    "no range holds the total {}",
                    table.outcomes[next_outcome]
                )));
            }
            next_outcome += 1;
        }
        if first == next_outcome {
            return Err(bug(format!(
                "range {lo}-{hi} holds no total the dice can make"
            )));
        }
        previous_hi = Some(hi);
    }
    if previous_hi != Some(max) || next_outcome != table.outcomes.len() {
        return Err(bug(format!(
            "the ranges stop at {}, the dice's highest total is {max}",
            previous_hi.unwrap_or(min)
        )));
    }
    Ok(())
}

/// A stable Foundry document id: 16 letters and digits from the sha256 of what the document is, so the
/// same table or card gets the same `_id` on every export and links between exports hold.
pub fn foundry_id(what: &str, key: &str) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let digest = Sha256::digest(format!("blockprint/{what}/{key}").as_bytes());
    digest[..16]
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect()
}

/// [`Problem::ExportCheck`]: the `export` export of table `t` does not read back as the content reads,
/// `why`.
pub(crate) fn unread(export: &str, t: &Table, why: impl Into<String>) -> Error {
    Problem::ExportCheck {
        export: export.to_owned(),
        item: format!("table `{}` ({})", t.id, t.at),
        why: why.into(),
    }
    .into()
}

/// A name for files and Roll20 tables: the id with `.` as `_` (`bbb.homicide.district` →
/// `bbb_homicide_district`). Importers cut file names at the first dot, and Roll20 table names take no
/// spaces, so this form suits both.
pub fn slug(id: &str) -> String {
    id.replace('.', "_")
}

/// Refuse two exported tables whose ids share a [`slug`] (`a.b` and `a_b`): their files and Roll20 names
/// would collide.
pub fn check_slugs(tables: &[Table]) -> Result<()> {
    let mut seen: std::collections::BTreeMap<String, &Table> = std::collections::BTreeMap::new();
    for t in tables {
        if let Some(other) = seen.insert(slug(&t.id), t) {
            return Err(Problem::SlugClash {
                first: other.id.clone(),
                first_at: other.at.clone(),
                second: t.id.clone(),
                second_at: t.at.clone(),
                slug: slug(&t.id),
            }
            .into());
        }
    }
    Ok(())
}

/// The table ids a result references, in order.
pub fn references(result: &str) -> Vec<&str> {
    pieces(result)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|p| match p {
            Piece::Table { id, .. } => Some(id),
            _ => None,
        })
        .collect()
}

/// Each row's odds as a whole number of the dice's [`Table::ways`] (2d6: a row on 6-7 gets 11 of 36; on
/// a single die, the width of the row's range), with that total. `None` past `limit`.
pub fn weights(table: &Table, limit: u64) -> Option<(u64, Vec<u64>)> {
    use num_traits::ToPrimitive;
    let lcm = &table.ways;
    if *lcm > num_bigint::BigInt::from(limit) {
        return None;
    }
    let total = lcm.to_u64()?;
    let weights = table
        .rows
        .iter()
        .map(|r| (r.probability.numer() * (lcm / r.probability.denom())).to_u64())
        .collect::<Option<Vec<u64>>>()?;
    Some((total, weights))
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_are_sixteen_letters_and_digits_and_stable() {
        let a = super::foundry_id("RollTable", "bbb.homicide.district");
        assert_eq!(a.len(), 16);
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_eq!(a, super::foundry_id("RollTable", "bbb.homicide.district"));
        assert_ne!(a, super::foundry_id("RollTable", "bbb.homicide.method"));
    }
}

#[cfg(test)]
mod range_tests {
    use num_rational::BigRational;

    fn d6() -> super::Table {
        let row = |lo, hi| super::Row {
            lo,
            hi,
            result: "x".into(),
            probability: BigRational::new((hi - lo + 1).into(), 6.into()),
            at: "t.toml:1".into(),
        };
        super::Table {
            id: "t".into(),
            title: "T".into(),
            dice: "1d6".into(),
            formula: "1d6".into(),
            note: None,
            outcomes: (1..=6).collect(),
            ways: 6.into(),
            rows: vec![row(1, 2), row(3, 6)],
            at: "t.toml:1".into(),
        }
    }

    #[test]
    fn ranges_must_tile_the_dice_with_weights_their_widths() {
        let t = d6();
        assert!(super::check_ranges(&t, "test", &[(1, 2, 2), (3, 6, 4)]).is_ok());
        for bad in [
            vec![(1, 2, 2), (3, 6, 3)], // weight is not the width
            vec![(1, 2, 2), (2, 6, 5)], // overlap
            vec![(1, 2, 2), (4, 6, 3)], // gap at 3
            vec![(2, 2, 1), (3, 6, 4)], // does not start at 1
            vec![(1, 2, 2), (3, 5, 3)], // stops short of 6
            vec![(1, 2, 2)],            // a row lost
        ] {
            let e = super::check_ranges(&t, "test", &bad).unwrap_err();
            assert_eq!(e.exit_code(), 70, "{bad:?}: {e}");
        }
        assert_eq!(super::weights(&t, 1 << 31), Some((6, vec![2, 4])));
        assert_eq!(super::weights(&t, 5), None);
    }
}

/// A checked result's text with each piece rendered by `piece`: plain text, an inline roll (already
/// parsed) or a table reference. The one loop every export's text goes through.
pub(super) fn render_pieces(
    text: &str,
    mut piece: impl FnMut(Rendered<'_>) -> String,
) -> Result<String> {
    let parts = pieces(text).map_err(|e| {
        unchecked(format!(
            "has text `{text}` that does not split: {}",
            e.message
        ))
    })?;
    let mut out = String::new();
    for p in parts {
        out.push_str(&match p {
            Piece::Text(s) => piece(Rendered::Text(s)),
            Piece::Roll { expr, .. } => {
                let e = blockprint_dice::parse(expr).map_err(|e| {
                    unchecked(format!(
                        "has a roll `{expr}` that does not parse: {}",
                        e.message
                    ))
                })?;
                piece(Rendered::Roll(&e))
            }
            Piece::Table { id, .. } => piece(Rendered::Table(id)),
        });
    }
    Ok(out)
}

/// One piece of a result for [`render_pieces`].
pub(super) enum Rendered<'a> {
    Text(&'a str),
    Roll(&'a Expr),
    Table(&'a str),
}
