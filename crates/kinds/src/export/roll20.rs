//! Roll20: tables in, the chat commands of The Aaron's TableExport API script out, one file a GM pastes
//! into the chat of a game running the script:
//!
//! ```text
//! !import-table --bbb_homicide_district --hide
//! !import-table-item --bbb_homicide_district --Resort area --1 --
//! ```
//!
//! Written for TableExport 0.2.3, the version in Roll20's one-click script library
//! (`Roll20/roll20-api-scripts`, `TableExport/0.2.3/TableExport.js`). It splits each command at
//! whitespace followed by `--`, and its `!import-table-item` undoes four escapes in an item's text, the
//! ones its own `!export-table` writes: `[` `<%%91%%>`, `]` `<%%93%%>`, `--` `<%%-%%>` and ` --`
//! `[TABLEEXPORT:ESCAPE]`. Everything else, `<` and `>` included, is written as it is. The escapes also
//! keep Roll20's chat from rolling an item's inline rolls while it is pasted. Table names are the ids
//! with `.` as `_` ([`super::slug`]): Roll20 table names take no spaces, and the script does not unescape
//! them.
//!
//! Each command is one chat line, and the script has no escape for a line break, so a line break in a
//! result is written as ` / ` ([`blockprint_content::carry::one_line`], the same as in the CSV pipe
//! form). What TableExport or Roll20 cannot carry at all (a result holding one of the escape codes, dice
//! Roll20 has not, odds past its weights) `check` refuses at its place; the export refuses it again,
//! in words, should it ever reach it.
//!
//! Roll20 draws an item by its weight alone, without dice, so each item's weight is its row's exact odds
//! as a whole number: out of 36 for 2d6 (a row on 6-7 weighs 11), the range's width for a single die.
//! Inline rolls `{1d6}` become `[[1d6]]` and references `{table:ID}` become `[[1t[ID_name]]]`; Roll20
//! shows them as written unless a script such as Recursive Tables expands them.

use super::{Table, formula, slug, unread, weights};
use crate::error::{Problem, Roll20Refusal};
use blockprint_content::carry;
use blockprint_content::error::{Error, Result};

/// The largest sum of weights written: beyond it the odds need numbers too large to type into Roll20.
pub const MAX_TOTAL_WEIGHT: u64 = carry::ROLL20_MAX_WEIGHT;

/// The TableExport version the commands are written for.
pub const TABLE_EXPORT_VERSION: &str = "0.2.3";

/// TableExport 0.2.3's escapes, in the order its regular expression tries them.
const ESCAPES: [(&str, &str); 4] = [
    ("[", "<%%91%%>"),
    ("]", "<%%93%%>"),
    ("--", "<%%-%%>"),
    (" --", "[TABLEEXPORT:ESCAPE]"),
];

/// Why TableExport cannot carry `item` (an item's text as written, before escaping); `None` when it can.
/// A line break it can: [`item_text`] writes it as ` / `.
pub fn refusal(item: &str) -> Option<String> {
    carry::table_export_code(item).map(|(_, code, ch)| {
        format!("it holds `{code}`, which TableExport {TABLE_EXPORT_VERSION} reads back as `{ch}`")
    })
}

/// Escape an item's text as TableExport does.
pub fn escape(s: &str) -> String {
    replace_all(s, ESCAPES.iter().map(|(a, b)| (*a, *b)))
}

/// Undo [`escape`], as TableExport's `!import-table-item` does.
pub fn unescape(s: &str) -> String {
    replace_all(s, ESCAPES.iter().map(|(a, b)| (*b, *a)))
}

/// At each position, the first pattern that matches is replaced (a JavaScript alternation).
fn replace_all<'a>(s: &str, pairs: impl Iterator<Item = (&'a str, &'a str)> + Clone) -> String {
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    'outer: while i < s.len() {
        for (from, to) in pairs.clone() {
            if s[i..].starts_with(from) {
                out.push_str(to);
                i += from.len();
                continue 'outer;
            }
        }
        let c = s[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// The commands for `tables`, one line each, after reading every line back as TableExport would and
/// checking names, texts and weights against the tables.
pub fn commands(tables: &[Table]) -> Result<String> {
    let mut out = String::new();
    for t in tables {
        refuse(t)?;
        let name = slug(&t.id);
        // `refuse` refused a table of too many ways.
        let Some((total, ws)) = weights(t, MAX_TOTAL_WEIGHT) else {
            return Err(refused(t, &t.at, weight(t)));
        };
        let mut block = format!("!import-table --{name} --hide\n");
        for (row, w) in t.rows.iter().zip(&ws) {
            let item = item(&row.result)?;
            block.push_str(&format!(
                "!import-table-item --{name} --{} --{w} --\n",
                escape(&item)
            ));
        }
        check(t, &block, total)?;
        out.push_str(&block);
    }
    Ok(out)
}

/// Refuse (exit 1) a table one of whose results TableExport or Roll20 cannot carry, naming the row and
/// why in words. `check` refuses all of these at their place first ([`carry`]).
pub fn refuse(t: &Table) -> Result<()> {
    if weights(t, MAX_TOTAL_WEIGHT).is_none() {
        return Err(refused(t, &t.at, weight(t)));
    }
    for row in &t.rows {
        if let Some(why) = refusal(&row.result) {
            let ch = carry::table_export_code(&row.result)
                .map(|(_, _, ch)| ch)
                .unwrap_or_default();
            return Err(refused(
                t,
                &row.at,
                Roll20Refusal::Code {
                    why,
                    ch: ch.to_string(),
                },
            ));
        }
        for p in blockprint_content::text::pieces(&row.result).unwrap_or_default() {
            if let blockprint_content::text::Piece::Roll { expr, .. } = p
                && let Some(why) = blockprint_dice::parse(expr)
                    .ok()
                    .and_then(|e| formula::roll20_refusal(e.root()))
            {
                return Err(refused(
                    t,
                    &row.at,
                    Roll20Refusal::Roll {
                        expr: expr.to_owned(),
                        why: why.to_string(),
                    },
                ));
            }
        }
    }
    Ok(())
}

/// [`Problem::Roll20`]: table `t` refused for its row at `row`.
fn refused(t: &Table, row: &str, refusal: Roll20Refusal) -> Error {
    Problem::Roll20 {
        table: t.id.clone(),
        at: t.at.clone(),
        row: row.to_owned(),
        refusal,
    }
    .into()
}

/// The refusal of a table whose dice fall more ways than Roll20's weights take.
fn weight(t: &Table) -> Roll20Refusal {
    Roll20Refusal::Weight {
        dice: t.dice.clone(),
        ways: t.ways.to_string(),
    }
}

/// A result's text as a Roll20 item: on one line, inline rolls and references as Roll20 rolls, every
/// other character as the content writes it.
pub fn item_text(result: &str) -> Result<String> {
    use super::Rendered;
    super::render_pieces(&carry::one_line(result), |p| match p {
        Rendered::Text(s) => s.to_owned(),
        Rendered::Roll(e) => format!("[[{}]]", formula::roll20(e.root())),
        Rendered::Table(id) => format!("[[1t[{}]]]", slug(id)),
    })
}

/// A result as the item TableExport makes of it: [`item_text`] without its outer spaces, which the script
/// drops, and `—` for an item left empty, which it cannot carry.
fn item(result: &str) -> Result<String> {
    let item = item_text(result)?.trim().to_owned();
    Ok(if item.is_empty() {
        "—".to_owned()
    } else {
        item
    })
}

/// One `!import-table-item` line as TableExport reads it: (table name, item text, weight).
pub fn parse_item(line: &str) -> Option<(String, String, u64)> {
    let rest = line.strip_prefix("!import-table-item")?;
    let args = split_args(rest);
    let weight = args.get(2)?.trim().parse().ok()?;
    Some((args.first()?.clone(), unescape(args.get(1)?), weight))
}

/// Split at whitespace followed by `--`, as `msg.content.split(/\s+--/)` does; the part before the first
/// separator (the command) is dropped.
pub fn split_args(s: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            let mut j = i;
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            if chars.get(j) == Some(&'-') && chars.get(j + 1) == Some(&'-') {
                parts.push(std::mem::take(&mut cur));
                i = j + 2;
                continue;
            }
        }
        cur.push(chars[i]);
        i += 1;
    }
    parts.push(cur);
    parts.remove(0);
    parts
}

/// Read a table's commands back and compare them with the table: its name, one item per row with the
/// row's text, weights whose share of the total is each row's exact odds.
fn check(t: &Table, block: &str, total: u64) -> Result<()> {
    let bug = |why: String| unread("Roll20", t, why);
    let name = slug(&t.id);
    let mut lines = block.lines();
    let head = split_args(lines.next().unwrap_or_default());
    if head != [name.clone(), "hide".to_owned()] {
        return Err(bug(format!("the table line reads {head:?}")));
    }
    let mut sum = 0u64;
    let mut n = 0;
    for (line, row) in lines.zip(&t.rows) {
        let (table, item, w) =
            parse_item(line).ok_or_else(|| bug(format!("cannot read `{line}`")))?;
        if table != name || item != self::item(&row.result)? || w == 0 {
            return Err(bug(format!(
                "`{line}` reads as table `{table}`, item `{item}`, weight {w}"
            )));
        }
        let share = num_rational::BigRational::new(w.into(), total.into());
        if share != row.probability {
            return Err(bug(format!(
                "row {} weighs {w} of {total}, its odds are {}",
                row.at,
                blockprint_dice::fraction(&row.probability)
            )));
        }
        sum += w;
        n += 1;
    }
    if n != t.rows.len() || sum != total || block.lines().count() != t.rows.len() + 1 {
        return Err(bug(format!(
            "{n} items weighing {sum} for {} rows out of {total}",
            t.rows.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_round_trip_and_leave_no_separator() {
        for s in [
            "a -- b",
            "x --y",
            "[[1d6]] hours",
            "<b>",
            "a---b",
            "--",
            " --",
            "[TABLEEXPORT:ESCAPE]",
            "5d6>5 < 7",
        ] {
            let e = super::escape(s);
            assert!(!e.contains("--"), "{e}");
            assert_eq!(super::unescape(&e), s);
        }
        assert_eq!(super::escape("a -- b"), "a[TABLEEXPORT:ESCAPE] b");
        assert_eq!(
            super::escape("[[1d6]]"),
            "<%%91%%><%%91%%>1d6<%%93%%><%%93%%>"
        );
        // TableExport 0.2.3 undoes no escape for `<` or `>`: they are written as they are.
        assert_eq!(
            super::escape("[[5d6>5]] <b>"),
            "<%%91%%><%%91%%>5d6>5<%%93%%><%%93%%> <b>"
        );
    }

    #[test]
    fn what_table_export_cannot_carry_is_named() {
        assert_eq!(super::refusal("Less < than > more [x] -- y"), None);
        assert_eq!(super::refusal("one\ntwo"), None);
        assert_eq!(
            super::refusal("a <%%91%%> b").unwrap(),
            "it holds `<%%91%%>`, which TableExport 0.2.3 reads back as `[`"
        );
        assert_eq!(
            super::item_text("one\r\ntwo \"q\" it's").unwrap(),
            "one / two \"q\" it's"
        );
    }

    #[test]
    fn arguments_split_as_the_script_splits_them() {
        let line = "!import-table-item --t_x --Low-income area --11 --";
        assert_eq!(
            super::parse_item(line),
            Some(("t_x".into(), "Low-income area".into(), 11))
        );
    }
}
