//! What each output format cannot carry, in one place: the exports read it to write or refuse, and
//! `check` reads it to refuse at its place what no export could write, so that anything `check`
//! accepts is written by every export.
//!
//! | format | cannot carry | so |
//! |---|---|---|
//! | Roll20 (TableExport commands) | a line break in a result: each item is one chat line | carried another way: [`one_line`] writes each run of line breaks as ` / ` ([`LINE_BREAK`]) |
//! | Foundry VTT's HTML fields, the CSV pipe form (Foundry's HTML, one row a line) | a bare line break (HTML shows it as a space) | carried as `<br>` ([`html_breaks`]) |
//! | Roll20 | an item holding one of TableExport's escape codes (`<%%91%%>` …): it reads them back as `[` … | refused by `check` ([`table_export_code`]) |
//! | Roll20 | odds needing a total weight over [`ROLL20_MAX_WEIGHT`]: it draws items by weight alone | refused by `check` |
//! | Roll20 | bonus and penalty dice (`1d100b1`): it has none | refused by `check` ([`roll20_dice`]) |
//! | Foundry VTT, the CSV pipe form (Foundry's importer) | compounding `!!`, `cs` on Fudge dice, bonus and penalty dice | refused by `check` ([`foundry_dice`]) |
//! | the CSV pipe form | a `\|` in a result (it separates range and text) | carried another way: written `¦` |
//! | the CSV pipe form | totals below 1 (Fudge dice): its ranges are `N-M` | that table has no pipe file, with a warning; its CSV and Foundry files are complete |
//!
//! Foundry VTT's HTML fields are a v13 result's `description`, a v12 result's `text`, a table's or
//! deck's description and a card face's text; its plain `name` and the comma-separated CSV files keep
//! the text exactly, line breaks and quotes included.

use blockprint_dice::{Node, NodeKind, Sides};

/// What a line break in a result becomes where a format has none (Roll20, the CSV pipe form).
pub const LINE_BREAK: &str = " / ";

/// The largest sum of Roll20 weights: Roll20 draws a table's items by weight alone, so each item weighs
/// its row's exact odds as a whole number of the dice's equally likely ways; past this the numbers are
/// too large for Roll20 to take.
pub const ROLL20_MAX_WEIGHT: u64 = 1 << 31;

/// TableExport 0.2.3's escape codes that its `!import-table-item` turns back into another character.
pub const TABLE_EXPORT_CODES: [(&str, &str); 3] =
    [("<%%91%%>", "["), ("<%%93%%>", "]"), ("<%%-%%>", "--")];

/// `text` on one line: each run of line breaks, with the spaces around it, becomes [`LINE_BREAK`].
pub fn one_line(text: &str) -> String {
    if !text.contains(['\n', '\r']) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut lines = text
        .split(['\n', '\r'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .peekable();
    // A break at the very start or end joins nothing: it is dropped, as the outer spaces are.
    while let Some(l) = lines.next() {
        out.push_str(l);
        if lines.peek().is_some() {
            out.push_str(LINE_BREAK);
        }
    }
    out
}

/// Line breaks in HTML text as `<br>` (a `\r\n` is one break).
pub fn html_breaks(html: &str) -> String {
    if !html.contains(['\n', '\r']) {
        return html.to_owned();
    }
    html.replace("\r\n", "<br>").replace(['\n', '\r'], "<br>")
}

/// The first TableExport escape code in `text`, with its byte offset and the character it stands for.
pub fn table_export_code(text: &str) -> Option<(usize, &'static str, &'static str)> {
    TABLE_EXPORT_CODES
        .iter()
        .filter_map(|(code, ch)| text.find(code).map(|at| (at, *code, *ch)))
        .min_by_key(|(at, _, _)| *at)
}

/// Why Foundry VTT cannot roll `node` as blockprint does, naming the first part at fault; `None` when it
/// rolls it the same.
pub fn foundry_dice(node: &Node) -> Option<String> {
    match &node.kind {
        NodeKind::Int(_) => None,
        NodeKind::Dice(t) => {
            let what = if t.compound {
                "compounding dice (`!!`, the extra rolls added into the die that exploded), which Foundry VTT does not have: its `x` explodes into separate dice"
            } else if t.sides == Sides::Fudge && t.success.is_some() {
                "counting successes on Fudge dice, which Foundry VTT's Fate die (`df`) does not do: it takes `r`, `rr`, `k`, `kh`, `kl`, `d`, `dh` and `dl` only"
            } else if t.percentile.is_some() {
                "bonus or penalty dice, which Foundry VTT does not have"
            } else {
                return None;
            };
            Some(what.to_owned())
        }
        NodeKind::Group(inner) | NodeKind::Neg(inner) => foundry_dice(inner),
        NodeKind::Binary { lhs, rhs, .. } => foundry_dice(lhs).or_else(|| foundry_dice(rhs)),
    }
}

/// Why Roll20 cannot roll `node` as blockprint does; `None` when it rolls it the same.
pub fn roll20_dice(node: &Node) -> Option<String> {
    match &node.kind {
        NodeKind::Int(_) => None,
        NodeKind::Dice(t) => t
            .percentile
            .is_some()
            .then(|| "bonus or penalty dice, which Roll20 does not have".to_owned()),
        NodeKind::Group(inner) | NodeKind::Neg(inner) => roll20_dice(inner),
        NodeKind::Binary { lhs, rhs, .. } => roll20_dice(lhs).or_else(|| roll20_dice(rhs)),
    }
}

/// Why some export cannot roll `node`: Foundry VTT's reason, else Roll20's.
pub fn export_dice(node: &Node) -> Option<String> {
    foundry_dice(node).or_else(|| roll20_dice(node))
}

#[cfg(test)]
mod tests {
    #[test]
    fn line_breaks_become_one_separator() {
        assert_eq!(super::one_line("one line"), "one line");
        assert_eq!(super::one_line("First line\nsecond"), "First line / second");
        assert_eq!(super::one_line("a \r\n\r\n  b\rc"), "a / b / c");
        assert_eq!(super::one_line("\nlead and trail\n"), "lead and trail");
    }

    #[test]
    fn html_breaks_are_br() {
        assert_eq!(super::html_breaks("a\r\nb\nc\rd"), "a<br>b<br>c<br>d");
    }

    #[test]
    fn escape_codes_are_found_first_first() {
        assert_eq!(super::table_export_code("a [b] -- c"), None);
        assert_eq!(
            super::table_export_code("x <%%-%%> <%%91%%>"),
            Some((2, "<%%-%%>", "--"))
        );
    }

    #[test]
    fn dice_no_export_rolls_are_named() {
        let why = |s: &str| super::export_dice(blockprint_dice::parse(s).unwrap().root());
        for ok in [
            "1d6!",
            "3d6!kh2",
            "5d6!cs>=6",
            "4dF",
            "2d6+1d6!",
            "3d6!cs>=6",
        ] {
            assert_eq!(why(ok), None, "{ok}");
        }
        assert!(why("1d6!!").unwrap().starts_with("compounding dice"));
        assert!(
            why("4dFcs>=1")
                .unwrap()
                .starts_with("counting successes on Fudge")
        );
        assert!(why("1d100b1").unwrap().starts_with("bonus or penalty dice"));
        assert!(
            super::roll20_dice(blockprint_dice::parse("d%p2").unwrap().root())
                .unwrap()
                .contains("Roll20")
        );
    }
}
