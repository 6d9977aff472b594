//! A rolled person's words: the victims list is what a rolled victim, witness or suspect does for a living,
//! and their card prints the row as it stands, so it must read as words (`Waiter or waitress`, not
//! `Waiter/waitress` or `heir(ess)`), and a row's `forms` (the man's and the woman's word) must be words a
//! card can print.

use crate::diag::{Diagnostic, Kind};
use crate::roll::case::VICTIMS;
use crate::{Library, Table};

pub(crate) fn check(lib: &Library, out: &mut Vec<Diagnostic>) {
    for table in &lib.tables {
        forms(lib, table, out);
        // The victims list, and any table that gives a row's `forms`: both are a person's words.
        if table.id.value == VICTIMS || table.rows.iter().any(|r| r.forms.is_some()) {
            raw_alternatives(lib, table, out);
        }
    }
}

/// `forms` on any row: both words given, plain (no braces), and not on a row whose tag settles the gender.
fn forms(lib: &Library, table: &Table, out: &mut Vec<Diagnostic>) {
    for row in &table.rows {
        let Some(f) = &row.forms else { continue };
        let problem = if f.value.male.trim().is_empty() || f.value.female.trim().is_empty() {
            Some("a form is empty".to_owned())
        } else if [&f.value.male, &f.value.female]
            .iter()
            .any(|w| w.contains(['{', '}']))
        {
            Some(
                "forms are printed as written and cannot hold inline rolls or references"
                    .to_owned(),
            )
        } else {
            row.tags
                .iter()
                .find(|t| t.value == "male" || t.value == "female")
                .map(|t| {
                    format!(
                        "the row is tagged `{}`, which settles the person's gender, so only one form can ever print",
                        t.value
                    )
                })
        };
        if let Some(p) = problem {
            out.push(
                Diagnostic::error(
                    Kind::BadValue,
                    &lib.sources,
                    &f.loc,
                    format!("`forms` of row `{}` (`{}`): {p}", row.on.value, row.result.value),
                )
                .with_table(&table.id.value)
                .with_hint(
                    "write the man's and the woman's word as plain text, such as `forms = { male = \"Waiter\", female = \"Waitress\" }`, or drop `forms` from a row tagged `male` or `female`",
                ),
            );
        }
    }
}

/// A row of a people's table written as table shorthand: a slash between two words (`Waiter/waitress`) or a bracketed
/// word ending (`heir(ess)`). Inline rolls and references are left alone.
fn raw_alternatives(lib: &Library, table: &Table, out: &mut Vec<Diagnostic>) {
    for row in &table.rows {
        let text = outside_braces(&row.result.value);
        let Some(what) = shorthand(&text) else {
            continue;
        };
        out.push(
            Diagnostic::warning(
                Kind::RawAlternative,
                &lib.sources,
                &row.result.loc,
                format!(
                    "result `{}` writes {what}; a rolled person's card prints it as it stands",
                    row.result.value
                ),
            )
            .with_table(&table.id.value)
            .with_hint(
                "write the alternatives as words joined by \"or\" (`Waiter or waitress`); when they are a man's and a woman's word, add `forms = { male = \"Waiter\", female = \"Waitress\" }` so a card shows the one that fits",
            ),
        );
    }
}

/// The text with every `{…}` removed.
fn outside_braces(s: &str) -> String {
    let mut depth = 0usize;
    s.chars()
        .filter(|&c| {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                _ => return depth == 0,
            }
            false
        })
        .collect()
}

/// What shorthand `text` holds: `a slash between words` or `a bracketed word ending`.
fn shorthand(text: &str) -> Option<&'static str> {
    let c: Vec<char> = text.chars().collect();
    for i in 1..c.len().saturating_sub(1) {
        if c[i] == '/' && c[i - 1].is_alphabetic() && c[i + 1].is_alphabetic() {
            return Some("alternatives with a slash between words");
        }
        if c[i] == '(' && c[i - 1].is_alphabetic() && c[i + 1].is_lowercase() {
            return Some("a bracketed word ending");
        }
    }
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn shorthand_is_a_slash_between_words_or_a_bracketed_ending() {
        assert!(super::shorthand("Waiter/waitress").is_some());
        assert!(super::shorthand("Wealthy heir(ess)").is_some());
        assert!(super::shorthand("Waiter or waitress").is_none());
        assert!(super::shorthand("Multiple victims (2 of them)").is_none());
        assert!(super::shorthand("Prosecution witness (key)").is_none());
        assert_eq!(super::outside_braces("a {1d6/2} b"), "a  b");
    }
}
