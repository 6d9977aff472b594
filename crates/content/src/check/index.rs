//! A book's index terms (`index = [...]`): the PDF's index lists each with the pages that use it, and a
//! term that nothing uses is left out of it without a word. `check` warns instead, naming the term.

use crate::Library;
use crate::diag::{Diagnostic, Kind};

/// Warn of every index term that no chapter of its book, and no table, lookup or deck, uses (as the
/// PDF's index matches: a whole word, any case, with a plural "s" or "es").
pub fn check(lib: &Library, out: &mut Vec<Diagnostic>) {
    for book in &lib.books {
        if book.index.is_empty() {
            continue;
        }
        let mut text: Vec<String> = book
            .chapters
            .iter()
            .map(|c| c.body.to_lowercase())
            .collect();
        for t in &lib.tables {
            text.push(t.title.to_lowercase());
            text.extend(t.rows.iter().map(|r| r.result.value.to_lowercase()));
        }
        for l in &lib.lookups {
            text.push(l.title.to_lowercase());
            for e in &l.entries {
                text.push(e.key.value.to_lowercase());
                text.push(e.value.value.to_string().to_lowercase());
            }
        }
        for d in &lib.decks {
            text.push(d.title.to_lowercase());
            for suit in &d.cards {
                text.extend(suit.value.iter().map(|c| c.value.to_lowercase()));
            }
        }
        for term in &book.index {
            let t = term.trim().to_lowercase();
            if t.is_empty() || text.iter().any(|h| uses(h, &t)) {
                continue;
            }
            out.push(
                Diagnostic::warning(
                    Kind::UnknownReference,
                    &lib.sources,
                    &book.id.loc,
                    format!(
                        "the index term `{term}` of book `{}` is used by no chapter: the index leaves it out",
                        book.id.value
                    ),
                )
                .with_hint(format!(
                    "write the term as the chapters do (any case; a plural \"s\" or \"es\" counts), or remove `\"{term}\"` from the book's `index = [...]`"
                )),
            );
        }
    }
}

/// Whether `hay` uses `term` (both lowercase) as a whole word, with an optional plural "s" or "es".
fn uses(hay: &str, term: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let bounded_start = word(term.chars().next());
    let bounded_end = word(term.chars().last());
    let mut from = 0;
    while let Some(i) = hay[from..].find(term) {
        let at = from + i;
        let end = at + term.len();
        let before = hay[..at].chars().next_back();
        let rest = &hay[end..];
        let rest = rest
            .strip_prefix("es")
            .filter(|r| !word(r.chars().next()))
            .or_else(|| rest.strip_prefix('s').filter(|r| !word(r.chars().next())))
            .unwrap_or(rest);
        if (!bounded_start || !word(before)) && (!bounded_end || !word(rest.chars().next())) {
            return true;
        }
        from = at + hay[at..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::uses;

    #[test]
    fn a_term_is_used_as_a_whole_word_in_any_case_with_its_plural() {
        assert!(uses("roll a break test", "break"));
        assert!(uses("two breaks", "break"));
        assert!(uses("the witnesses talk", "witness"));
        assert!(!uses("breakfast at six", "break"));
        assert!(!uses("unbreak it", "break"));
        assert!(uses("a [x] mark", "[x]"));
        assert!(!uses("nothing here", "hunch"));
    }
}
