//! Coverage: a table's dice and rows in, `gap` / `overlap` / `out_of_range` / `bad_range` / `bad_dice`
//! diagnostics and each row's exact probability out. Every outcome of the die must belong to exactly one row.

use blockprint_dice as dice;
use std::collections::{BTreeMap, BTreeSet};

use num_rational::BigRational;
use num_traits::Zero;

use crate::diag::{Diagnostic, Kind, Loc};
use crate::text::{OnRange, parse_on};
use crate::{Library, Table};

/// The exact odds of a sound table.
#[derive(Debug, Clone, PartialEq)]
pub struct TableOdds {
    /// How many distinct outcomes the dice can roll.
    pub outcomes: usize,
    /// Probability of each row, in row order.
    pub rows: Vec<BigRational>,
    /// How many equally likely ways the dice fall: the least common multiple of the denominators of
    /// the totals' odds (36 for 2d6), so each row's odds are a whole number of them (Roll20's weights).
    pub ways: num_bigint::BigInt,
}

/// How many outcomes a diagnostic lists at most.
const LIST_MAX: usize = 1000;
/// Overlap diagnostics listed per table, and rows remembered per outcome to find them.
const OVERLAPS_MAX: usize = 100;
const ROWS_PER_OUTCOME: usize = 8;

/// The outcomes of one dice expression, worked out once per check: many tables roll the same dice
/// (`1d6`, `2d6`, `1d100`), and the exact distribution and the rows' sums are the checker's dearest work.
#[derive(Debug)]
pub(super) struct Support {
    /// The integer outcomes, ascending.
    keys: Vec<i64>,
    /// How many equally likely ways the dice fall (the least common multiple of the denominators).
    ways: num_bigint::BigInt,
    /// `before[i]`: the ways of the outcomes before `keys[i]` (a running sum, `keys.len() + 1` long),
    /// so a row's odds are one subtraction and one reduction, not a sum of fractions.
    before: Vec<num_bigint::BigInt>,
}

impl Support {
    fn new(outcomes: Vec<(i64, BigRational)>) -> Support {
        let ways = outcomes
            .iter()
            .fold(num_bigint::BigInt::from(1), |acc, (_, p)| {
                num_integer::Integer::lcm(&acc, p.denom())
            });
        let mut before = Vec::with_capacity(outcomes.len() + 1);
        let mut sum = num_bigint::BigInt::zero();
        before.push(sum.clone());
        for (_, p) in &outcomes {
            sum += p.numer() * (&ways / p.denom());
            before.push(sum.clone());
        }
        Support {
            keys: outcomes.into_iter().map(|(v, _)| v).collect(),
            ways,
            before,
        }
    }

    /// The probability of the outcomes at positions `first..end`: the same reduced fraction as their
    /// probabilities added up one by one.
    fn odds(&self, first: usize, end: usize) -> BigRational {
        BigRational::new(&self.before[end] - &self.before[first], self.ways.clone())
    }
}

/// The distributions worked out, by dice text (those with an error are not kept: their diagnostics are
/// made again for each table).
pub(super) type Supports = std::collections::HashMap<String, std::sync::Arc<Support>>;

/// How many dice texts [`Supports`] keeps between checks; past that it starts again empty.
pub(super) const SUPPORTS_MAX: usize = 4096;

/// Each table's [`check`] as it came out (its odds and diagnostics), kept by the file that defines it:
/// a table is a function of its file's path, text and place among the content's files (the loader
/// reads each file on its own), and its check of the table and the file's text alone (diagnostics
/// quote that file), so a table of an unchanged file at the same place is not checked again.
#[derive(Debug, Default)]
pub(super) struct Checked {
    /// By the file's place: the last few files seen there, path and text (the one in use first).
    files: std::collections::HashMap<usize, Vec<CheckedFile>>,
}

#[derive(Debug, Default)]
struct CheckedFile {
    path: String,
    text: String,
    /// By the table's place among the file's tables and where its id starts.
    tables: std::collections::HashMap<(usize, usize), (Option<TableOdds>, Vec<Diagnostic>)>,
}

/// How many files [`Checked`] keeps at one place: for each of the built-in content's five games, the
/// file as shipped and an edit of it.
const FILES_KEPT: usize = 10;

impl Checked {
    /// Put first, for each of `lib`'s files, what was kept of its text (or a new empty entry).
    pub(super) fn prepare(&mut self, lib: &Library) {
        if self.files.len() > SUPPORTS_MAX {
            self.files.clear();
        }
        for (file, s) in lib.sources.iter().enumerate() {
            let kept = self.files.entry(file).or_default();
            match kept
                .iter()
                .position(|f| f.path == s.path && f.text == s.text)
            {
                Some(i) => kept[..=i].rotate_right(1),
                None => {
                    kept.insert(
                        0,
                        CheckedFile {
                            path: s.path.clone(),
                            text: s.text.clone(),
                            tables: Default::default(),
                        },
                    );
                    kept.truncate(FILES_KEPT);
                }
            }
        }
    }

    /// [`check`] of `table`, the `nth` table of its file, kept or worked out (and kept).
    pub(super) fn check(
        &mut self,
        lib: &Library,
        table: &Table,
        nth: usize,
        supports: &mut Supports,
        out: &mut Vec<Diagnostic>,
    ) -> Option<TableOdds> {
        let file = table.id.loc.file;
        let key = (nth, table.id.loc.span.start);
        let source = &lib.sources[file];
        // After [`Checked::prepare`], the first file kept at this place is this one.
        let Some(f) = self
            .files
            .get_mut(&file)
            .and_then(|kept| kept.first_mut())
            .filter(|f| f.path == source.path && f.text.len() == source.text.len())
        else {
            return check(lib, table, supports, out);
        };
        if let Some((odds, diags)) = f.tables.get(&key) {
            out.extend(diags.iter().cloned());
            return odds.clone();
        }
        let mut own = Vec::new();
        let odds = check(lib, table, supports, &mut own);
        out.extend(own.iter().cloned());
        f.tables.insert(key, (odds.clone(), own));
        odds
    }
}

/// Check one table; `Some` odds when its dice are sound (rows may still have problems, reported in `out`).
pub(super) fn check(
    lib: &Library,
    table: &Table,
    supports: &mut Supports,
    out: &mut Vec<Diagnostic>,
) -> Option<TableOdds> {
    let id = &table.id.value;
    let support = support(lib, table, supports, out)?;
    let (min, max) = (*support.keys.first()?, *support.keys.last()?);

    // Which rows cover which outcomes (by position in `keys`, the outcomes in order).
    let keys = &support.keys;
    let mut covered: Vec<Vec<usize>> = vec![Vec::new(); keys.len()];
    let mut ranges: Vec<Option<OnRange>> = Vec::new();
    let mut sound = true;
    for (i, row) in table.rows.iter().enumerate() {
        let range = match parse_on(&row.on.value, max) {
            Ok(r) => r,
            Err(why) => {
                sound = false;
                out.push(
                    Diagnostic::error(
                        Kind::BadRange,
                        &lib.sources,
                        &row.on.loc,
                        format!("row `on = \"{}\"` cannot be read: {why}", row.on.value),
                    )
                    .with_table(id)
                    .with_hint("write `on` as `N`, `N-M` or `N+`, e.g. `on = \"2-5\"`"),
                );
                ranges.push(None);
                continue;
            }
        };
        ranges.push(Some(range));
        let (first, end) = positions(keys, range);
        for rows in &mut covered[first..end] {
            // A few rows per outcome tell every overlap worth telling; keeping them all would make a
            // table of thousands of overlapping rows cost rows² × outcomes.
            if rows.len() < ROWS_PER_OUTCOME {
                rows.push(i);
            }
        }
        let outside = out_of_range(keys, range, min, max);
        if !outside.is_empty() {
            sound = false;
            out.push(
                Diagnostic::error(
                    Kind::OutOfRange,
                    &lib.sources,
                    &row.on.loc,
                    format!(
                        "row `{}` names {} that {} cannot roll",
                        row.on.value,
                        describe(&outside),
                        table.dice.value
                    ),
                )
                .with_table(id)
                .with_hint(format!(
                    "{} rolls {}; keep `on` within that",
                    table.dice.value,
                    describe(keys)
                ))
                .with_outcomes(outside.into_iter().take(LIST_MAX).collect()),
            );
        }
    }

    // An unreadable row may be meant to fill the gap: report the row alone.
    let unreadable = ranges.iter().any(Option::is_none);
    let gaps: Vec<i64> = keys
        .iter()
        .zip(&covered)
        .filter(|(_, rows)| rows.is_empty())
        .map(|(v, _)| *v)
        .collect();
    if !gaps.is_empty() && !unreadable {
        sound = false;
        out.push(
            Diagnostic::error(
                Kind::Gap,
                &lib.sources,
                &table.dice.loc,
                format!(
                    "table `{id}` ({}) has no row for {}",
                    table.dice.value,
                    describe(&gaps)
                ),
            )
            .with_table(id)
            .with_hint(format!(
                "add a row such as `{{ on = \"{}\", result = \"…\" }}` or widen a neighbouring row",
                range_text(&gaps)
            ))
            .with_outcomes(gaps.into_iter().take(LIST_MAX).collect()),
        );
    }

    // One overlap diagnostic per pair of rows, at the later row.
    let mut pairs: BTreeMap<(usize, usize), Vec<i64>> = BTreeMap::new();
    for (v, rows) in keys.iter().zip(&covered) {
        for (k, &later) in rows.iter().enumerate().skip(1) {
            for &earlier in &rows[..k] {
                pairs.entry((later, earlier)).or_default().push(*v);
            }
        }
    }
    let pair_count = pairs.len();
    for (n, ((later, earlier), shared)) in pairs.into_iter().enumerate() {
        sound = false;
        if n == OVERLAPS_MAX {
            let l = &table.rows[later];
            out.push(
                Diagnostic::error(
                    Kind::Overlap,
                    &lib.sources,
                    &l.on.loc,
                    format!(
                        "table `{id}` has {} more overlapping pairs of rows, not listed",
                        pair_count - OVERLAPS_MAX
                    ),
                )
                .with_table(id)
                .with_hint("fix the overlaps above first; each outcome belongs to exactly one row"),
            );
            break;
        }
        let (e, l) = (&table.rows[earlier], &table.rows[later]);
        out.push(
            Diagnostic::error(
                Kind::Overlap,
                &lib.sources,
                &l.on.loc,
                format!(
                    "rows `{}` and `{}` (line {}) both cover {}",
                    l.on.value,
                    e.on.value,
                    lib.line_of(&e.on.loc),
                    describe(&shared)
                ),
            )
            .with_table(id)
            .with_hint("each outcome belongs to exactly one row; narrow one of the two ranges")
            .with_outcomes(shared.into_iter().take(LIST_MAX).collect()),
        );
    }

    duplicate_results(lib, table, out);

    sound.then(|| TableOdds {
        outcomes: keys.len(),
        ways: support.ways.clone(),
        rows: ranges
            .iter()
            .map(|r| {
                let r = r.expect("sound tables have readable ranges");
                let (first, end) = positions(keys, r);
                support.odds(first, end)
            })
            .collect(),
    })
}

/// The integer outcomes of the table's dice with their probabilities, or a `bad_dice` diagnostic.
fn support(
    lib: &Library,
    table: &Table,
    supports: &mut Supports,
    out: &mut Vec<Diagnostic>,
) -> Option<std::sync::Arc<Support>> {
    let id = &table.id.value;
    let bad = |loc: Loc, msg: String, hint: &str| {
        Diagnostic::error(Kind::BadDice, &lib.sources, &loc, msg)
            .with_table(id)
            .with_hint(hint.to_owned())
    };
    let expr = match dice::parse(&table.dice.value) {
        Ok(e) => e,
        Err(e) => {
            let loc = point_into(lib, &table.dice.loc, &table.dice.value, e.offset, e.len);
            let hint = e
                .hint
                .clone()
                .unwrap_or_else(|| "write the die as e.g. `2d6`, `1d100` or `d%`".to_owned());
            out.push(
                bad(
                    loc,
                    format!("`dice = \"{}\"`: {}", table.dice.value, e.message),
                    &hint,
                )
                .in_dice(&table.dice.value, e.offset..e.offset + e.len),
            );
            return None;
        }
    };
    for d in super::inline::success_target_warnings(
        lib,
        &table.dice,
        &expr,
        0,
        &format!("`dice = \"{}\"`", table.dice.value),
    ) {
        out.push(d.with_table(id));
    }
    if let Some(known) = supports.get(&table.dice.value) {
        return Some(known.clone());
    }
    let dist = match expr.distribution() {
        Ok(d) => d,
        Err(e) => {
            // Point at the sub-expression at fault (a divisor that can be 0, a part too big to work out).
            let loc = match e.span {
                Some(sp) => point_into(
                    lib,
                    &table.dice.loc,
                    &table.dice.value,
                    sp.start,
                    sp.end - sp.start,
                ),
                None => table.dice.loc.clone(),
            };
            let mut d = bad(
                loc,
                format!("`dice = \"{}\"`: {}", table.dice.value, e.message),
                e.hint.as_deref().unwrap_or("use a smaller dice expression"),
            );
            if let Some(sp) = e.span {
                d = d.in_dice(&table.dice.value, sp.start..sp.end);
            }
            out.push(d);
            return None;
        }
    };
    match dist.integer_outcomes() {
        Some(v) if !v.is_empty() => {
            let known = std::sync::Arc::new(Support::new(v));
            supports.insert(table.dice.value.clone(), known.clone());
            Some(known)
        }
        _ => {
            out.push(bad(
                table.dice.loc.clone(),
                format!("`dice = \"{}\"` can roll values that are not whole numbers, so rows cannot name them", table.dice.value),
                "a table's dice must roll whole numbers; drop the `/` or roll the fraction inside a row's result",
            ));
            None
        }
    }
}

/// Point a diagnostic at byte `at` (length `len`) inside a string value.
pub(super) fn point_into(lib: &Library, loc: &Loc, value: &str, at: usize, len: usize) -> Loc {
    let text = &lib.sources[loc.file].text;
    let start = crate::text::offset_in_value(text, &loc.span, value, at);
    if start == loc.span.start {
        return loc.clone();
    }
    Loc {
        file: loc.file,
        span: start..(start + len.max(1)).min(loc.span.end),
    }
}

/// Values a row names that the dice cannot roll.
/// The positions in `keys` (sorted outcomes) of the outcomes a range covers: `first..end`.
fn positions(keys: &[i64], r: OnRange) -> (usize, usize) {
    let first = keys.partition_point(|&k| k < r.lo);
    let end = match r.hi {
        Some(hi) => keys.partition_point(|&k| k <= hi),
        None => keys.len(),
    };
    (first, end.max(first))
}

fn out_of_range(keys: &[i64], r: OnRange, min: i64, max: i64) -> Vec<i64> {
    let hi = r.hi.unwrap_or(max.max(r.lo));
    let mut bad = Vec::new();
    // Below and above the die's span: list at most LIST_MAX values of each.
    bad.extend((r.lo..=hi.min(min - 1)).take(LIST_MAX));
    // Holes inside the span (e.g. odd numbers of `2d6*2`), looked for only where there are some.
    let (a, b) = (r.lo.max(min), hi.min(max));
    if a <= b {
        let (first, end) = positions(keys, OnRange { lo: a, hi: Some(b) });
        if ((b - a) as u128 + 1) > (end - first) as u128 {
            bad.extend(
                (a..=b)
                    .filter(|v| keys[first..end].binary_search(v).is_err())
                    .take(LIST_MAX),
            );
        }
    }
    bad.extend((r.lo.max(max + 1)..=hi).take(LIST_MAX));
    bad
}

/// Warn when two rows of one table give the same result: legal (it weights the table) but often a slip.
/// An editorial row that repeats a result is a deliberate widening and is not warned about.
fn duplicate_results(lib: &Library, table: &Table, out: &mut Vec<Diagnostic>) {
    let mut first: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, row) in table.rows.iter().enumerate() {
        match first.get(row.result.value.as_str()) {
            Some(&j) if row.editorial.is_some() || table.rows[j].editorial.is_some() => {}
            Some(&j) => {
                let e = &table.rows[j];
                out.push(
                    Diagnostic::warning(
                        Kind::DuplicateResult,
                        &lib.sources,
                        &row.result.loc,
                        format!(
                            "result `{}` also appears on row `{}` (line {}); it is rolled twice as often",
                            row.result.value,
                            e.on.value,
                            lib.line_of(&e.on.loc)
                        ),
                    )
                    .with_table(&table.id.value)
                    .with_hint("keep it if the weighting is intended; otherwise change one of the rows"),
                );
            }
            None => {
                first.insert(&row.result.value, i);
            }
        }
    }
}

/// `2–5, 8` style text for a sorted list of values.
pub(crate) fn describe(values: &[i64]) -> String {
    let set: BTreeSet<i64> = values.iter().copied().collect();
    let mut parts = Vec::new();
    let mut it = set.into_iter().peekable();
    while let Some(start) = it.next() {
        let mut end = start;
        while it.peek() == Some(&(end + 1)) {
            end = it.next().unwrap_or(end);
        }
        parts.push(if end == start {
            start.to_string()
        } else {
            format!("{start}–{end}")
        });
    }
    parts.join(", ")
}

/// The first run of `values` as an `on` value.
fn range_text(values: &[i64]) -> String {
    let start = values[0];
    let mut end = start;
    for &v in &values[1..] {
        if v == end + 1 {
            end = v;
        } else {
            break;
        }
    }
    if end == start {
        start.to_string()
    } else {
        format!("{start}-{end}")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn describe_runs() {
        assert_eq!(super::describe(&[2, 3, 4, 5, 8]), "2–5, 8");
        assert_eq!(super::describe(&[7]), "7");
        assert_eq!(super::range_text(&[2, 3, 4, 5, 8]), "2-5");
    }
}
