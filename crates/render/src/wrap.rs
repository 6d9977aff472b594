//! Long unbroken text in printed boxes. typst breaks lines at spaces, hyphens and (with hyphenation on)
//! inside dictionary words, but an e-mail address, a 58-letter place name or a 300-letter string has
//! no break opportunity and runs out of its box and off the page. Before data reaches a typst template,
//! every run of [`LONG_RUN`] or more characters without whitespace gets invisible break opportunities
//! (U+200B ZERO WIDTH SPACE). Where the run has its own joints, as a web or e-mail address does, the
//! breaks go there, as typesetters break addresses: before a `.` a letter follows, before a `/` and
//! after an `@`, so `creativecommons.org/licenses` may end a line after `creativecommons`, never
//! inside it. A piece between joints that is itself [`LONG_RUN`] or longer gets a break after every
//! [`CHUNK`] grapheme clusters, never between a letter and its combining marks. Ordinary words are far
//! shorter and are left alone, so typst still moves them whole; only strings that could not fit any box
//! are split. The Markdown and JSON outputs never see this.
//!
//! A template asks for it with a line holding only [`DIRECTIVE`]: a template that looks strings up as
//! keys (the SRD finds tables by id) must see them unchanged, so it is never applied behind its back.

use std::borrow::Cow;

use serde_json::Value;
use unicode_segmentation::UnicodeSegmentation;

/// Runs at least this many grapheme clusters long get break opportunities.
pub const LONG_RUN: usize = 20;
/// A break opportunity after every this many clusters of such a run.
pub const CHUNK: usize = 10;
/// The line a typst template carries to have long runs in its data broken.
pub const DIRECTIVE: &str = "// blockprint: break-long-words";
/// The break opportunity inserted.
pub const BREAK: char = '\u{200B}';

/// Whether any string in `v` has a run that [`breakable`] would split.
pub fn needs_breaks(v: &Value) -> bool {
    match v {
        Value::String(s) => has_long_run(s),
        Value::Array(a) => a.iter().any(needs_breaks),
        Value::Object(o) => o.values().any(needs_breaks),
        _ => false,
    }
}

/// `v` with break opportunities in every long run of every string (keys untouched).
pub fn with_breaks(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(breakable(s).into_owned()),
        Value::Array(a) => Value::Array(a.iter().map(with_breaks).collect()),
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, v)| (k.clone(), with_breaks(v))).collect())
        }
        other => other.clone(),
    }
}

/// `v` as the typst value a template sees in `sys.inputs`, in one pass: strings get break
/// opportunities when `breaking` (as [`with_breaks`] would give them; keys untouched). The result is what
/// typst's own `Deserialize` makes of `v` (integers beyond `i64` become floats, as there), without the
/// intermediate copy that breaking and then deserializing would cost on every document of a batch.
pub fn to_typst(v: &Value, breaking: bool) -> typst::foundations::Value {
    use typst::foundations::{Array, Dict, IntoValue, Str, Value as T};
    match v {
        Value::Null => T::None,
        Value::Bool(b) => T::Bool(*b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                T::Int(i)
            } else if let Some(u) = n.as_u64() {
                u.into_value()
            } else {
                T::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(s) if breaking => T::Str(Str::from(breakable(s).as_ref())),
        Value::String(s) => T::Str(Str::from(s.as_str())),
        Value::Array(a) => T::Array(a.iter().map(|x| to_typst(x, breaking)).collect::<Array>()),
        Value::Object(o) => T::Dict(
            o.iter()
                .map(|(k, x)| (Str::from(k.as_str()), to_typst(x, breaking)))
                .collect::<Dict>(),
        ),
    }
}

fn has_long_run(s: &str) -> bool {
    // Chars bound clusters from above: a string with no LONG_RUN chars in a row has no such cluster run.
    let mut run = 0;
    for c in s.chars() {
        run = if c.is_whitespace() { 0 } else { run + 1 };
        if run >= LONG_RUN {
            return s
                .split(char::is_whitespace)
                .any(|w| w.graphemes(true).nth(LONG_RUN - 1).is_some());
        }
    }
    false
}

/// `s` with a break opportunity after every [`CHUNK`] clusters of each run of [`LONG_RUN`] or more.
pub fn breakable(s: &str) -> Cow<'_, str> {
    if !has_long_run(s) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + s.len() / CHUNK * 3);
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let clusters: Vec<&str> = word.graphemes(true).collect();
        if clusters.len() >= LONG_RUN {
            for (i, piece) in joints(&clusters).enumerate() {
                if i > 0 {
                    out.push(BREAK);
                }
                chunked(piece, out);
            }
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in s.chars() {
        if c.is_whitespace() {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    Cow::Owned(out)
}

/// The pieces of a long run between its joints: a break before a `.` a letter follows (not a decimal
/// point), before a `/` a letter or digit follows, and after an `@` one follows.
fn joints<'a>(clusters: &'a [&'a str]) -> impl Iterator<Item = &'a [&'a str]> + 'a {
    let starts =
        |c: Option<&&str>, f: fn(char) -> bool| c.is_some_and(|c| c.chars().next().is_some_and(f));
    let mut start = 0;
    let mut k = 1;
    std::iter::from_fn(move || {
        if start >= clusters.len() {
            return None;
        }
        while k < clusters.len() {
            let next = clusters.get(k + 1);
            let before = (clusters[k] == "." && starts(next, char::is_alphabetic))
                || (clusters[k] == "/" && starts(next, char::is_alphanumeric));
            let after = clusters[k - 1] == "@" && starts(clusters.get(k), char::is_alphanumeric);
            k += 1;
            if (before || after) && k - 1 > start {
                let piece = &clusters[start..k - 1];
                start = k - 1;
                return Some(piece);
            }
        }
        let piece = &clusters[start..];
        start = clusters.len();
        Some(piece)
    })
}

/// `piece` onto `out`, with a break after every [`CHUNK`] clusters when it is [`LONG_RUN`] or longer.
fn chunked(piece: &[&str], out: &mut String) {
    if piece.len() < LONG_RUN {
        out.extend(piece.iter().copied());
        return;
    }
    for (i, chunk) in piece.chunks(CHUNK).enumerate() {
        if i > 0 {
            out.push(BREAK);
        }
        out.extend(chunk.iter().copied());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_long_runs_get_breaks_between_clusters() {
        assert!(matches!(breakable("Low-income area"), Cow::Borrowed(_)));
        assert!(matches!(
            breakable("Counterintelligence officer"),
            Cow::Borrowed(_)
        ));
        // An address breaks at its joints: before a dot or slash a letter follows, after the @.
        let email = "john.smith.very.long@example-city.com";
        let b = breakable(email);
        assert_eq!(b.replace(BREAK, ""), email);
        assert_eq!(
            b.split(BREAK).collect::<Vec<_>>(),
            ["john", ".smith", ".very", ".long@", "example-city", ".com"]
        );
        let licence = "(creativecommons.org/licenses/by-sa/4.0).";
        assert_eq!(
            breakable(licence).split(BREAK).collect::<Vec<_>>(),
            ["(creativecommons", ".org", "/licenses", "/by-sa", "/4.0)."]
        );
        // A piece between joints that is long itself is still cut every CHUNK clusters.
        let long = format!("www.{}.org", "x".repeat(25));
        assert_eq!(
            breakable(&long).split(BREAK).collect::<Vec<_>>(),
            ["www", ".xxxxxxxxx", "xxxxxxxxxx", "xxxxxx", ".org"]
        );
        // Combining marks stay with their letter: 25 clusters of e + two accents.
        let stacked = "e\u{301}\u{308}".repeat(25);
        let b = breakable(&stacked);
        for piece in b.split(BREAK) {
            assert!(!piece.starts_with('\u{301}') && !piece.starts_with('\u{308}'));
        }
        assert_eq!(b.split(BREAK).count(), 3);
        // Words around a long run are kept as they are, with their spacing.
        let s = format!("in  {}  city", "a".repeat(30));
        let b = breakable(&s);
        assert_eq!(
            b,
            format!(
                "in  {}\u{200B}{}\u{200B}{}  city",
                "a".repeat(10),
                "a".repeat(10),
                "a".repeat(10)
            )
        );
    }

    #[test]
    fn values_are_walked_and_keys_kept() {
        let long = "x".repeat(40);
        let v = serde_json::json!({ "a": [1, "short", long.clone()], long.clone(): { "b": long } });
        assert!(needs_breaks(&v));
        let w = with_breaks(&v);
        assert!(w.get(&long).is_some());
        assert_eq!(w["a"][2].as_str().unwrap().matches(BREAK).count(), 3);
        assert_eq!(w["a"][1], "short");
        assert!(!needs_breaks(&serde_json::json!({"a": "short words only"})));
    }

    #[test]
    fn direct_conversion_equals_breaking_then_deserializing() {
        use serde::Deserialize;
        let long = "y".repeat(45);
        let v = serde_json::json!({
            "s": long, "n": -3, "u": u64::MAX, "f": 0.25, "b": true, "z": null,
            "a": [1, "short", { "k": long }], long.clone(): "key kept",
        });
        for breaking in [false, true] {
            let expected = if breaking { with_breaks(&v) } else { v.clone() };
            let expected = typst::foundations::Dict::deserialize(&expected).unwrap();
            let typst::foundations::Value::Dict(got) = to_typst(&v, breaking) else {
                panic!("an object converts to a dict")
            };
            assert_eq!(got, expected);
        }
    }
}
