//! The one caret renderer: a message about a place in an expression, shown as the expression with a
//! line of `^` under the place. What a user typed is echoed with every control character escaped (`\u{7}`
//! for a bell, `\u{1b}` for an escape, `\u{a}` for a line break), so an error never rings the terminal's
//! bell, moves its cursor or colours it, and the caret sits under the escaped text. The command line's
//! `roll`, `odds` and `check` print [`render`]; the studio shows the parts of a [`Located`].
//!
//! ```
//! let e = blockprint_dice::parse("1d6\u{7}x").unwrap_err();
//! let text = blockprint_dice::caret::render("error[bad_dice]", "1d6\u{7}x", e.offset..e.offset + e.len, &e.message, e.hint.as_deref());
//! assert!(!text.contains('\u{7}'));
//! ```

use std::ops::Range;

/// `s` with every control character written as a Rust escape (`\u{1b}`).
pub fn escaped(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// A message at a place of an expression, escaped and measured: what a front shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// The message, escaped.
    pub message: String,
    /// The expression, escaped.
    pub source: String,
    /// Spaces up to the place, then one `^` per character of it (at least one).
    pub caret: String,
    /// The hint, escaped.
    pub hint: Option<String>,
}

/// Locate `message` at the bytes `at` of `src` (clamped to `src`; an empty place gets one `^`).
pub fn locate(src: &str, at: Range<usize>, message: &str, hint: Option<&str>) -> Located {
    let start = at.start.min(src.len());
    let end = at.end.min(src.len()).max(start);
    let col = src
        .get(..start)
        .map_or(start, |s| escaped(s).chars().count());
    let width = src
        .get(start..end)
        .map_or(1, |s| escaped(s).chars().count().max(1));
    Located {
        message: escaped(message),
        source: escaped(src),
        caret: format!("{}{}", " ".repeat(col), "^".repeat(width)),
        hint: hint.map(escaped),
    }
}

/// The text form: `kind: message`, the expression and the caret line each after `  | `, then `  =
/// help: hint` when there is one; every line ends with a newline.
pub fn render(
    kind: &str,
    src: &str,
    at: Range<usize>,
    message: &str,
    hint: Option<&str>,
) -> String {
    let l = locate(src, at, message, hint);
    let mut out = format!("{kind}: {}\n  | {}\n  | {}\n", l.message, l.source, l.caret);
    if let Some(h) = &l.hint {
        out.push_str(&format!("  = help: {h}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_caret_sits_under_them() {
        let text = render(
            "error[bad_dice]",
            "1d6\u{7}x",
            3..4,
            "bad\u{1b}[31m",
            Some("h\u{7}"),
        );
        assert_eq!(
            text,
            "error[bad_dice]: bad\\u{1b}[31m\n  | 1d6\\u{7}x\n  |    ^^^^^\n  = help: h\\u{7}\n"
        );
    }

    #[test]
    fn a_place_past_the_end_gets_one_caret() {
        let l = locate("3d6", 7..9, "m", None);
        assert_eq!(l.caret, "   ^");
    }
}
