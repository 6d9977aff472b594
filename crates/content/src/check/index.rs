//! A book's index terms (`index = [...]`): the PDF's index lists each with the pages that use it, and a
//! term that nothing uses is left out of it without a word. `check` warns instead, naming the term.

use std::collections::HashMap;

use crate::Library;
use crate::diag::{Diagnostic, Kind};

/// For each index term (trimmed, lowercase) a text that uses it and its place among the texts, from
/// an earlier check: while that text is still there, the term is used, and nothing is searched for it.
/// Whether a text uses a term is a function of the two alone, so the verdict is the one a search of
/// every text gives.
#[derive(Debug, Default)]
pub(super) struct Witnesses(HashMap<String, (usize, String)>);

/// How many terms [`Witnesses`] keeps; past that it starts again empty.
const WITNESSES_MAX: usize = 4096;

/// Warn of every index term that no chapter of its book, and no table, lookup or deck, uses (as the
/// PDF's index matches: a whole word, any case, with a plural "s" or "es"). `witnesses` keeps the
/// texts that used each term from one check to the next (a fresh one searches for every term).
pub(super) fn check(lib: &Library, witnesses: &mut Witnesses, out: &mut Vec<Diagnostic>) {
    if witnesses.0.len() > WITNESSES_MAX {
        witnesses.0.clear();
    }
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
        // Every text in one, each followed by a NUL: a term without a NUL is found in it exactly
        // where it is found in one of the texts (the NUL is no word character, as the end of a text
        // is none), and where it starts tells which text.
        let mut all = String::new();
        let mut starts = Vec::with_capacity(text.len());
        for h in &text {
            starts.push(all.len());
            all.push_str(h);
            all.push('\0');
        }
        for term in &book.index {
            let t = term.trim().to_lowercase();
            if t.is_empty()
                || witnesses
                    .0
                    .get(&t)
                    .is_some_and(|(i, w)| text.get(*i) == Some(w))
            {
                continue;
            }
            let found = if t.contains('\0') {
                text.iter().position(|h| first_use(h, &t).is_some())
            } else {
                first_use(&all, &t).map(|at| starts.partition_point(|&s| s <= at) - 1)
            };
            if let Some(i) = found {
                witnesses.0.insert(t, (i, text[i].clone()));
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
#[cfg(test)]
fn uses(hay: &str, term: &str) -> bool {
    first_use(hay, term).is_some()
}

/// Where `hay` first uses `term` (both lowercase) as a whole word, with an optional plural "s" or
/// "es": the byte offset of the first such occurrence.
fn first_use(hay: &str, term: &str) -> Option<usize> {
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
            return Some(at);
        }
        from = at + hay[at..].chars().next().map_or(1, char::len_utf8);
    }
    None
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
