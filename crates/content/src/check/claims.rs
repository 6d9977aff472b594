//! Printed odds (`[[claimed_odds]]`): a table of contest chances as a source prints them, checked for shape
//! here (located `bad_claim` and `bad_dice` diagnostics) and computed exactly by [`verify`], which
//! `blockprint verify-odds` and the Ready/Bolt/Flow odds card report.
//!
//! A claimed table names two sides, A and B. Each column is a contest (`a` against `b`, dice expressions
//! worked out by the dice engine, never sampled); each row counts one outcome (`a`: A comes out ahead,
//! `b`, or `draw`); `ties` says where a draw goes (`show`: on its own row, `defender`/`attacker` with
//! `attacker = "a" | "b"`). Every printed cell is compared with the exact chance rounded the way the table
//! says the source rounds (`rounding`, `decimals`).

use blockprint_dice as dice;
use std::collections::{BTreeMap, BTreeSet};

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed};
use serde::Serialize;

use crate::diag::{Diagnostic, Kind};
use crate::{ClaimedOdds, Library, Located};

/// The most rows, and the most columns, a claimed table may have (a printed table has a handful).
pub const MAX_CELLS: usize = 64;
/// The most digits after the decimal point a claimed table may print.
pub const MAX_DECIMALS: i64 = 6;

/// One side of a claimed contest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    A,
    B,
}

/// What a row counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Counts {
    /// Side A comes out ahead (with the draws, when they go to A).
    A,
    /// Side B comes out ahead (with the draws, when they go to B).
    B,
    /// A draw (only when draws are shown on their own).
    Draw,
}

/// How the source rounds a chance to the percentage it prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rounding {
    /// To the nearest printed step, a half rounding up.
    Nearest,
    /// Down (truncated).
    Down,
    /// Up.
    Up,
}

impl Rounding {
    /// `rounding = "…"` as written.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "nearest" => Some(Rounding::Nearest),
            "down" => Some(Rounding::Down),
            "up" => Some(Rounding::Up),
            _ => None,
        }
    }

    /// `rounded to the nearest whole percent`, `rounded down to 0.1%` …
    pub fn describe(self, decimals: u32) -> String {
        let step = if decimals == 0 {
            "whole percent".to_owned()
        } else {
            format!(
                "{}%",
                percent_text(&BigInt::one(), decimals).trim_end_matches('%')
            )
        };
        match self {
            Rounding::Nearest => format!("rounded to the nearest {step}"),
            Rounding::Down => format!("rounded down to the {step}"),
            Rounding::Up => format!("rounded up to the {step}"),
        }
    }

    /// `p` as a whole number of printed steps (`10^-decimals` percent).
    pub fn apply(self, p: &BigRational, decimals: u32) -> BigInt {
        let x = p * BigRational::from_integer(BigInt::from(100) * BigInt::from(10).pow(decimals));
        match self {
            Rounding::Nearest => (x + BigRational::new(1.into(), 2.into()))
                .floor()
                .to_integer(),
            Rounding::Down => x.floor().to_integer(),
            Rounding::Up => x.ceil().to_integer(),
        }
    }
}

/// A whole number of `10^-decimals` percent steps as printed: `22%`, `22.5%`.
pub fn percent_text(steps: &BigInt, decimals: u32) -> String {
    let negative = steps.is_negative();
    let digits = steps.abs().to_string();
    let d = decimals as usize;
    let body = if d == 0 {
        digits
    } else {
        let padded = format!("{digits:0>width$}", width = d + 1);
        let (int, frac) = padded.split_at(padded.len() - d);
        format!("{int}.{frac}")
    };
    format!("{}{body}%", if negative { "-" } else { "" })
}

/// A printed percentage (`38%`, `22.5 %`) as a whole number of `10^-decimals` percent steps; `None` when it
/// is not a percentage from 0 to 100 with exactly `decimals` digits after the point.
pub fn parse_percent(s: &str, decimals: u32) -> Option<BigInt> {
    let body = s.trim().strip_suffix('%')?.trim_end();
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, f),
        None => (body, ""),
    };
    let digits = |t: &str| !t.is_empty() && t.len() <= 6 && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || frac.len() != decimals as usize || (decimals > 0 && !digits(frac)) {
        return None;
    }
    let steps: BigInt = format!("{int}{frac}").parse().ok()?;
    let most = BigInt::from(100) * BigInt::from(10).pow(decimals);
    (steps <= most).then_some(steps)
}

/// A claimed table's keys, read.
#[derive(Debug, Clone)]
pub struct Reading {
    /// The side a draw counts for; `None` when draws are shown on their own.
    pub draws_to: Option<Side>,
    pub attacker: Option<Side>,
    pub rounding: Rounding,
    pub decimals: u32,
    /// Per row.
    pub counts: Vec<Counts>,
    /// Per column, per contest: P(A > B), P(A = B), P(A < B).
    pub contests: Vec<Vec<[BigRational; 3]>>,
    /// Per row, per column: the printed value in steps.
    pub printed: Vec<Vec<BigInt>>,
}

impl Reading {
    /// The exact chance of what row `row` counts in contest `c` (`[win, draw, loss]` of A).
    pub fn chance(&self, row: usize, c: &[BigRational; 3]) -> BigRational {
        let [win, draw, loss] = c;
        match self.counts[row] {
            Counts::A if self.draws_to == Some(Side::A) => win + draw,
            Counts::A => win.clone(),
            Counts::B if self.draws_to == Some(Side::B) => loss + draw,
            Counts::B => loss.clone(),
            Counts::Draw => draw.clone(),
        }
    }
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn side(s: &str) -> Option<Side> {
    match s {
        "a" | "A" => Some(Side::A),
        "b" | "B" => Some(Side::B),
        _ => None,
    }
}

/// Read a claimed table, pushing a located diagnostic for everything wrong with it; `None` when anything
/// is. Contests are worked out once per distinct pair of expressions (`cache` keeps those that work out).
pub fn read(
    lib: &Library,
    c: &ClaimedOdds,
    cache: &mut BTreeMap<(String, String), [BigRational; 3]>,
    out: &mut Vec<Diagnostic>,
) -> Option<Reading> {
    let before = out.len();
    let id = c.id.value.as_str();
    let bad = |loc: &crate::diag::Loc, msg: String, hint: &str| {
        Diagnostic::error(Kind::BadClaim, &lib.sources, loc, msg)
            .with_table(id)
            .with_hint(hint)
    };
    let draws_to = match c.ties.value.as_str() {
        "show" => None,
        t @ ("defender" | "attacker") => match &c.attacker {
            None => {
                out.push(bad(
                    &c.ties.loc,
                    format!("`ties = \"{t}\"` needs to know which side attacks"),
                    "add `attacker = \"a\"` (side A attacks) or `attacker = \"b\"`",
                ));
                None
            }
            Some(a) => side(&a.value).map(|s| match (t, s) {
                ("attacker", s) => s,
                (_, Side::A) => Side::B,
                (_, Side::B) => Side::A,
            }),
        },
        other => {
            out.push(bad(
                &c.ties.loc,
                format!("`ties = \"{other}\"` is not a way to count draws"),
                "write `ties = \"show\"` (draws on their own row), `\"defender\"` or `\"attacker\"` (a draw counts for that side)",
            ));
            None
        }
    };
    let attacker = match &c.attacker {
        None => None,
        Some(a) => {
            let s = side(&a.value);
            if s.is_none() {
                out.push(bad(
                    &a.loc,
                    format!("`attacker = \"{}\"` is not a side", a.value),
                    "write `attacker = \"a\"` or `attacker = \"b\"`",
                ));
            }
            s
        }
    };
    let rounding = Rounding::parse(&c.rounding.value);
    if rounding.is_none() {
        out.push(bad(
            &c.rounding.loc,
            format!(
                "`rounding = \"{}\"` is not a way of rounding",
                c.rounding.value
            ),
            "write `rounding = \"nearest\"`, `\"down\"` or `\"up\"`",
        ));
    }
    let decimals = match &c.decimals {
        None => 0,
        Some(d) if (0..=MAX_DECIMALS).contains(&d.value) => d.value as u32,
        Some(d) => {
            out.push(bad(
                &d.loc,
                format!("`decimals = {}` is out of range", d.value),
                &format!("write how many digits the source prints after the decimal point, 0 to {MAX_DECIMALS}"),
            ));
            0
        }
    };
    for (what, n, loc) in [
        ("columns", c.columns.len(), &c.columns_loc),
        ("rows", c.rows.len(), &c.rows_loc),
    ] {
        if n == 0 || n > MAX_CELLS {
            out.push(bad(
                loc,
                format!("the table has {n} {what}; a claimed table has 1 to {MAX_CELLS}"),
                &format!("list the {what} the source prints, one entry each"),
            ));
        }
    }
    let mut contests: Vec<Vec<[BigRational; 3]>> = Vec::new();
    for col in c.columns.iter().take(MAX_CELLS) {
        let mut per = Vec::new();
        for (a, b) in &col.contests {
            let key = (a.value.clone(), b.value.clone());
            if let Some(g) = cache.get(&key) {
                per.push(g.clone());
            } else if let Some(g) = contest(lib, id, a, b, out) {
                cache.insert(key, g.clone());
                per.push(g);
            }
        }
        contests.push(per);
    }
    let mut counts = Vec::new();
    let mut printed = Vec::new();
    for row in c.rows.iter().take(MAX_CELLS) {
        let n = match row.counts.value.as_str() {
            "a" | "A" => Some(Counts::A),
            "b" | "B" => Some(Counts::B),
            "draw" => Some(Counts::Draw),
            _ => None,
        };
        match n {
            None => out.push(bad(
                &row.counts.loc,
                format!("`counts = \"{}\"` is not an outcome", row.counts.value),
                "write `counts = \"a\"` (side A comes out ahead), `\"b\"` or `\"draw\"`",
            )),
            Some(Counts::Draw) if matches!(c.ties.value.as_str(), "defender" | "attacker") => out.push(bad(
                &row.counts.loc,
                format!(
                    "row `{}` counts draws, but in this table a draw counts for the {}",
                    row.label, c.ties.value
                ),
                "set `ties = \"show\"` to print draws on their own row, or count `a` or `b` here",
            )),
            Some(_) => {}
        }
        counts.push(n.unwrap_or(Counts::A));
        if row.cells.len() != c.columns.len() {
            out.push(bad(
                &row.cells_loc,
                format!(
                    "row `{}` prints {} but the table has {}",
                    row.label,
                    plural(row.cells.len(), "cell"),
                    plural(c.columns.len(), "column")
                ),
                "give every row one cell per column, in the columns' order",
            ));
        }
        let mut cells = Vec::new();
        for cell in &row.cells {
            match parse_percent(&cell.value, decimals) {
                Some(v) => cells.push(v),
                None => {
                    let example = percent_text(&BigInt::from(38 * 10_i64.pow(decimals)), decimals);
                    out.push(bad(
                        &cell.loc,
                        format!(
                            "`{}` is not a percentage from 0% to 100% with {decimals} digit{} after the point",
                            cell.value,
                            if decimals == 1 { "" } else { "s" }
                        ),
                        &format!("copy the cell as the source prints it, e.g. `\"{example}\"`, or set `decimals` to the digits it prints"),
                    ));
                }
            }
        }
        printed.push(cells);
    }
    if out.len() != before {
        return None;
    }
    let reading = Reading {
        draws_to,
        attacker,
        rounding: rounding?,
        decimals,
        counts,
        contests,
        printed,
    };
    // Contests one column stands for must agree on every row's chance, or the cell has no one value.
    for (ci, col) in c.columns.iter().enumerate() {
        let per = &reading.contests[ci];
        for (ri, row) in c.rows.iter().enumerate() {
            let first = reading.chance(ri, &per[0]);
            for (k, other) in per.iter().enumerate().skip(1) {
                let p = reading.chance(ri, other);
                if p != first {
                    let (a, b) = (&col.contests[0], &col.contests[k]);
                    out.push(bad(
                        &b.0.loc,
                        format!(
                            "column `{}` stands for {} against {} and {} against {}, but they differ on row `{}`: {} and {}",
                            col.label,
                            a.0.value,
                            a.1.value,
                            b.0.value,
                            b.1.value,
                            row.label,
                            dice::fraction_reduced(&first),
                            dice::fraction_reduced(&p)
                        ),
                        "one printed cell cannot stand for both; give this contest a column of its own",
                    ));
                }
            }
        }
    }
    (out.len() == before).then_some(reading)
}

/// `a` against `b`, exactly: `[P(a > b), P(a = b), P(a < b)]`, or a located `bad_dice` diagnostic.
fn contest(
    lib: &Library,
    id: &str,
    a: &Located<String>,
    b: &Located<String>,
    out: &mut Vec<Diagnostic>,
) -> Option<[BigRational; 3]> {
    let mut exprs = Vec::new();
    for e in [a, b] {
        match dice::parse(&e.value) {
            Ok(x) => exprs.push(x),
            Err(err) => {
                let mut d = Diagnostic::error(
                    Kind::BadDice,
                    &lib.sources,
                    &e.loc,
                    format!("`{}` is not a dice expression: {}", e.value, err.message),
                )
                .in_dice(&e.value, err.offset..err.offset + err.len)
                .with_table(id);
                d = d.with_hint(
                    err.hint
                        .unwrap_or_else(|| "write dice notation such as `2dF` or `1dF+1`".into()),
                );
                out.push(d);
                return None;
            }
        }
    }
    match dice::contest(&exprs[0], &exprs[1]) {
        Ok(c) => Some([c.win, c.draw, c.loss]),
        Err((_, err)) => {
            out.push(
                Diagnostic::error(
                    Kind::BadDice,
                    &lib.sources,
                    &a.loc,
                    format!(
                        "`{}` against `{}` cannot be worked out: {}",
                        a.value, b.value, err.message
                    ),
                )
                .with_table(id)
                .with_hint(
                    err.hint
                        .unwrap_or_else(|| "use fewer or smaller dice".into()),
                ),
            );
            None
        }
    }
}

/// Check every `[[claimed_odds]]`: ids (valid, unique across all content) and everything [`read`] checks.
pub(super) fn check(lib: &Library, out: &mut Vec<Diagnostic>) {
    let mut taken: BTreeSet<&str> = lib
        .tables
        .iter()
        .map(|t| t.id.value.as_str())
        .chain(lib.lookups.iter().map(|l| l.id.value.as_str()))
        .chain(lib.decks.iter().map(|d| d.id.value.as_str()))
        .chain(lib.npcs.iter().map(|n| n.id.value.as_str()))
        .chain(lib.books.iter().map(|b| b.id.value.as_str()))
        .chain(lib.rulings.iter().map(|r| r.id.value.as_str()))
        .chain(lib.kits.iter().map(|k| k.id.value.as_str()))
        .collect();
    let mut cache = BTreeMap::new();
    for c in &lib.claimed_odds {
        let id = &c.id;
        let valid = id
            .value
            .chars()
            .next()
            .is_some_and(|ch| ch.is_ascii_lowercase())
            && id.value.chars().all(|ch| {
                ch.is_ascii_lowercase() || ch.is_ascii_digit() || matches!(ch, '.' | '_' | '-')
            });
        if !valid {
            out.push(
                Diagnostic::error(Kind::BadId, &lib.sources, &id.loc, format!("`{}` is not a valid id", id.value))
                    .with_table(&id.value)
                    .with_hint("use lowercase letters, digits, `.`, `_` and `-`, starting with the game, e.g. `rbf.odds.contest`"),
            );
        }
        if !taken.insert(id.value.as_str()) {
            out.push(
                Diagnostic::error(
                    Kind::DuplicateId,
                    &lib.sources,
                    &id.loc,
                    format!("claimed odds id `{}` is already used", id.value),
                )
                .with_table(&id.value)
                .with_hint("ids are unique across all content; rename one of them"),
            );
        }
        read(lib, c, &mut cache, out);
    }
}

/// A claimed table with every cell worked out.
#[derive(Debug, Clone, Serialize)]
pub struct Verified {
    pub id: String,
    pub title: String,
    pub printed_in: Option<String>,
    pub note: Option<String>,
    /// The content file that holds the claim.
    pub file: String,
    /// `show`, `defender` or `attacker`.
    pub ties: String,
    pub attacker: Option<Side>,
    pub rounding: Rounding,
    pub decimals: u32,
    /// How the source rounds, in words.
    pub rounded: String,
    pub columns: Vec<ColumnOut>,
    pub rows: Vec<RowOut>,
    /// Every printed cell, row by row.
    pub cells: Vec<Cell>,
    pub agree: usize,
    pub disagree: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct ColumnOut {
    pub label: String,
    pub contests: Vec<ContestOut>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ContestOut {
    pub a: String,
    pub b: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct RowOut {
    pub label: String,
    pub counts: Counts,
}

/// One printed cell against its exact value.
#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    /// 1-based row and column of the printed table.
    pub row: usize,
    pub column: usize,
    pub row_label: String,
    pub column_label: String,
    /// The column's contest (its first, when it stands for several that agree).
    pub a: String,
    pub b: String,
    /// As the source prints it.
    pub printed: String,
    /// The exact chance, a reduced fraction.
    pub exact: String,
    /// The exact chance as a percentage to three decimals, rounded to the nearest.
    pub exact_percent: String,
    /// The exact chance rounded as the source rounds.
    pub rounded: String,
    pub agrees: bool,
    /// Where the printed cell is written: content file, 1-based line and column.
    pub file: String,
    pub line: usize,
    pub col: usize,
}

/// Work out every cell of a claimed table; `None` when the claim does not check out (then [`check`]
/// reports why).
pub fn verify(lib: &Library, c: &ClaimedOdds) -> Option<Verified> {
    let mut sink = Vec::new();
    let r = read(lib, c, &mut BTreeMap::new(), &mut sink)?;
    let mut cells = Vec::new();
    for (ri, row) in c.rows.iter().enumerate() {
        for (ci, col) in c.columns.iter().enumerate() {
            let exact = r.chance(ri, &r.contests[ci][0]);
            let rounded = r.rounding.apply(&exact, r.decimals);
            let printed = &r.printed[ri][ci];
            let cell = &row.cells[ci];
            let source = &lib.sources[cell.loc.file];
            let (line, colno) = source.line_col(cell.loc.span.start);
            cells.push(Cell {
                row: ri + 1,
                column: ci + 1,
                row_label: row.label.clone(),
                column_label: col.label.clone(),
                a: col.contests[0].0.value.clone(),
                b: col.contests[0].1.value.clone(),
                printed: cell.value.clone(),
                exact: dice::fraction_reduced(&exact),
                exact_percent: percent_text(&Rounding::Nearest.apply(&exact, 3), 3),
                rounded: percent_text(&rounded, r.decimals),
                agrees: *printed == rounded,
                file: source.path.clone(),
                line,
                col: colno,
            });
        }
    }
    let agree = cells.iter().filter(|x| x.agrees).count();
    Some(Verified {
        id: c.id.value.clone(),
        title: c.title.clone(),
        printed_in: c.printed_in.clone(),
        note: c.note.clone(),
        file: lib.file_of(&c.id.loc).to_owned(),
        ties: c.ties.value.clone(),
        attacker: r.attacker,
        rounding: r.rounding,
        decimals: r.decimals,
        rounded: r.rounding.describe(r.decimals),
        columns: c
            .columns
            .iter()
            .map(|col| ColumnOut {
                label: col.label.clone(),
                contests: col
                    .contests
                    .iter()
                    .map(|(a, b)| ContestOut {
                        a: a.value.clone(),
                        b: b.value.clone(),
                    })
                    .collect(),
            })
            .collect(),
        rows: c
            .rows
            .iter()
            .zip(&r.counts)
            .map(|(row, n)| RowOut {
                label: row.label.clone(),
                counts: *n,
            })
            .collect(),
        disagree: cells.len() - agree,
        agree,
        cells,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Zero;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn percentages_parse_as_printed() {
        assert_eq!(parse_percent("38%", 0), Some(38.into()));
        assert_eq!(parse_percent(" 100 % ", 0), Some(100.into()));
        assert_eq!(parse_percent("22.5%", 1), Some(225.into()));
        assert_eq!(parse_percent("0.5%", 1), Some(5.into()));
        for bad in ["38", "38.0%", "101%", "-1%", "x%", "%", "3 8%", "22.5%"] {
            assert_eq!(parse_percent(bad, 0), None, "{bad}");
        }
        assert_eq!(parse_percent("22%", 1), None);
    }

    #[test]
    fn rounding_as_the_source_rounds() {
        assert_eq!(Rounding::Nearest.apply(&q(50, 81), 0), 62.into());
        assert_eq!(Rounding::Down.apply(&q(50, 81), 0), 61.into());
        assert_eq!(Rounding::Up.apply(&q(31, 81), 0), 39.into());
        assert_eq!(Rounding::Nearest.apply(&q(1, 200), 0), 1.into());
        assert_eq!(Rounding::Nearest.apply(&q(2, 9), 3), 22222.into());
        assert_eq!(percent_text(&22222.into(), 3), "22.222%");
        assert_eq!(percent_text(&5.into(), 2), "0.05%");
        assert_eq!(percent_text(&100.into(), 0), "100%");
        assert_eq!(
            Rounding::Nearest.describe(0),
            "rounded to the nearest whole percent"
        );
        assert_eq!(Rounding::Down.describe(1), "rounded down to the 0.1%");
    }

    #[test]
    fn zero_is_zero() {
        assert!(Rounding::Up.apply(&BigRational::zero(), 2).is_zero());
    }
}
