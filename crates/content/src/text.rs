//! Small languages inside content strings: a row's `on` range, and the `{…}` inline rolls and
//! `{table:ID}` references of result texts. Text in, parsed pieces with byte offsets out.

use std::ops::Range;

/// The outcomes a row covers: `lo..=hi`, with `hi = None` for `N+` (everything from `lo` up).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnRange {
    pub lo: i64,
    pub hi: Option<i64>,
}

impl OnRange {
    pub fn contains(&self, v: i64) -> bool {
        v >= self.lo && self.hi.is_none_or(|hi| v <= hi)
    }
}

/// Parse `N`, `N-M` (hyphen or en dash) or `N+`. `00` stands for 100 when the die's highest outcome is 100.
pub fn parse_on(text: &str, die_max: i64) -> Result<OnRange, String> {
    let t = text.trim();
    let num = |s: &str| -> Result<i64, String> {
        let s = s.trim();
        if s == "00" && die_max == 100 {
            return Ok(100);
        }
        let digits = s.strip_prefix('-').unwrap_or(s);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("`{s}` is not a whole number"));
        }
        s.parse::<i64>().map_err(|_| format!("`{s}` is too large"))
    };
    if t.is_empty() {
        return Err("`on` is empty".to_owned());
    }
    if let Some(n) = t.strip_suffix('+') {
        return Ok(OnRange {
            lo: num(n)?,
            hi: None,
        });
    }
    // A separator is a dash or en dash that is not the sign of the first number.
    let sep = t
        .char_indices()
        .skip(1)
        .find(|&(i, c)| (c == '-' || c == '–') && !t[..i].trim_end().ends_with(['-', '–']))
        .map(|(i, c)| (i, c.len_utf8()));
    match sep {
        Some((i, w)) => {
            let (lo, hi) = (num(&t[..i])?, num(&t[i + w..])?);
            if lo > hi {
                return Err(format!("the range runs backwards ({lo} is above {hi})"));
            }
            Ok(OnRange { lo, hi: Some(hi) })
        }
        None => {
            let n = num(t)?;
            Ok(OnRange { lo: n, hi: Some(n) })
        }
    }
}

/// One piece of a result text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece<'a> {
    Text(&'a str),
    /// An inline roll `{EXPR}`; `at` is the byte offset of `EXPR` in the text.
    Roll {
        expr: &'a str,
        at: usize,
    },
    /// A reference `{table:ID}`; `at` is the byte offset of `ID`.
    Table {
        id: &'a str,
        at: usize,
    },
}

/// An unmatched brace at byte `at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BraceError {
    pub at: usize,
    pub message: String,
}

/// Split a result text into literal text, inline rolls and table references.
pub fn pieces(text: &str) -> Result<Vec<Piece<'_>>, BraceError> {
    let mut out = Vec::new();
    let mut rest = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => {
                let close = text[i + 1..].find(['{', '}']).map(|j| i + 1 + j);
                let Some(close) = close.filter(|&c| bytes[c] == b'}') else {
                    return Err(BraceError {
                        at: i,
                        message: "`{` is never closed".to_owned(),
                    });
                };
                if rest < i {
                    out.push(Piece::Text(&text[rest..i]));
                }
                let inner = &text[i + 1..close];
                let lead = inner.len() - inner.trim_start().len();
                let trimmed = inner.trim();
                let at = i + 1 + lead;
                match trimmed.strip_prefix("table:") {
                    Some(id) => {
                        let id_lead = id.len() - id.trim_start().len();
                        out.push(Piece::Table {
                            id: id.trim(),
                            at: at + "table:".len() + id_lead,
                        })
                    }
                    None => out.push(Piece::Roll { expr: trimmed, at }),
                }
                i = close + 1;
                rest = i;
            }
            b'}' => {
                return Err(BraceError {
                    at: i,
                    message: "`}` without an opening `{`".to_owned(),
                });
            }
            _ => i += 1,
        }
    }
    if rest < text.len() {
        out.push(Piece::Text(&text[rest..]));
    }
    Ok(out)
}

/// Map a byte offset inside a string value's text to a byte offset in the file, given the value's span
/// (which includes its quotes). When escapes make the two differ, the start of the value is the best guess.
pub fn offset_in_value(file_text: &str, span: &Range<usize>, value: &str, at: usize) -> usize {
    let raw = file_text.get(span.clone()).unwrap_or("");
    let quote = if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
        3
    } else {
        1
    };
    if raw.len() >= 2 * quote {
        let body = &raw[quote..raw.len() - quote];
        if body == value {
            return span.start + quote + at;
        }
    }
    span.start
}

/// Straight quotes of content text made typographic, as the prose parser does for chapters: `"` and `'`
/// become “ ” ‘ ’ by what stands before them, and an apostrophe inside or after a word (`killer's`,
/// `rules'`) or before a year (`'76`) becomes ’. Text inside `{…}` (inline rolls, table references) is
/// left as written. The one place TOML-sourced text gets its quotes: table results, notes, editorial
/// remarks, lookup values, deck cards, rulings and rolled case texts all pass through here on their way to
/// the PDF and Markdown templates.
pub fn smart_quotes(text: &str) -> String {
    if !text.contains(['"', '\'']) {
        return text.to_owned();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let mut depth = 0usize;
    // After nothing, a space, an opening bracket, a dash or another opening quote, a quote opens.
    let opens_after = |p: Option<char>| {
        p.is_none_or(|p| {
            p.is_whitespace() || matches!(p, '(' | '[' | '{' | '‘' | '“' | '—' | '–' | '-' | '/')
        })
    };
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        let word_follows = next.is_some_and(|n| !n.is_whitespace());
        let curly = match c {
            _ if depth > 0 => c,
            '"' if opens_after(prev) && word_follows => '“',
            '"' => '”',
            '\'' if prev.is_some_and(char::is_alphanumeric) => '’',
            '\'' if opens_after(prev) && next.is_some_and(|n| n.is_ascii_digit()) => '’',
            '\'' if opens_after(prev) && word_follows => '‘',
            '\'' => '’',
            _ => c,
        };
        out.push(curly);
    }
    out
}

/// [`smart_quotes`] over every string of a JSON value (a rolled case, whose strings are all content
/// text, numbers and dates written out).
pub fn smart_quotes_in(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::String(s) if s.contains(['"', '\'']) => *s = smart_quotes(s),
        serde_json::Value::Array(items) => items.iter_mut().for_each(smart_quotes_in),
        serde_json::Value::Object(map) => map.values_mut().for_each(smart_quotes_in),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_become_curly() {
        let cases = [
            ("Victim's home", "Victim’s home"),
            ("the rules' own", "the rules’ own"),
            (
                "the chase outcome 'regain half HP', for one",
                "the chase outcome ‘regain half HP’, for one",
            ),
            ("He said \"stop.\" Then ran", "He said “stop.” Then ran"),
            ("\"Quoted\"", "“Quoted”"),
            (
                "('Smoke or impaired visibility')",
                "(‘Smoke or impaired visibility’)",
            ),
            ("summer of '76", "summer of ’76"),
            ("a —'dash'", "a —‘dash’"),
            (
                "Lose {1d6} of the 'best' {table:x.y's}",
                "Lose {1d6} of the ‘best’ {table:x.y's}",
            ),
            ("no quotes at all", "no quotes at all"),
            ("", ""),
        ];
        for (raw, want) in cases {
            assert_eq!(smart_quotes(raw), want, "{raw}");
        }
        let mut v = serde_json::json!({"a": ["O'Brien", {"b": "\"Red\" Cole"}], "n": 3});
        smart_quotes_in(&mut v);
        assert_eq!(
            v,
            serde_json::json!({"a": ["O’Brien", {"b": "“Red” Cole"}], "n": 3})
        );
    }

    #[test]
    fn on_forms() {
        type Case<'a> = (&'a str, i64, Result<(i64, Option<i64>), &'a str>);
        let cases: &[Case] = &[
            ("7", 12, Ok((7, Some(7)))),
            ("2-5", 12, Ok((2, Some(5)))),
            ("2–5", 12, Ok((2, Some(5)))),
            (" 4 - 6 ", 12, Ok((4, Some(6)))),
            ("10+", 12, Ok((10, None))),
            ("94-00", 100, Ok((94, Some(100)))),
            ("00", 100, Ok((100, Some(100)))),
            ("-4--2", 4, Ok((-4, Some(-2)))),
            ("-1", 4, Ok((-1, Some(-1)))),
            ("00", 12, Ok((0, Some(0)))),
            ("5-2", 12, Err("backwards")),
            ("", 12, Err("empty")),
            ("x", 12, Err("`x` is not a whole number")),
            ("1-", 12, Err("not a whole number")),
            ("99999999999999999999", 12, Err("too large")),
        ];
        for (text, max, want) in cases {
            let got = parse_on(text, *max);
            match (want, got) {
                (Ok((lo, hi)), Ok(r)) => assert_eq!((r.lo, r.hi), (*lo, *hi), "{text}"),
                (Err(frag), Err(msg)) => assert!(msg.contains(frag), "{text}: {msg}"),
                (w, g) => panic!("{text}: wanted {w:?}, got {g:?}"),
            }
        }
    }

    #[test]
    fn pieces_split() {
        assert_eq!(
            pieces("Lose {1d6} from {table:bbb.x}.").unwrap(),
            vec![
                Piece::Text("Lose "),
                Piece::Roll { expr: "1d6", at: 6 },
                Piece::Text(" from "),
                Piece::Table {
                    id: "bbb.x",
                    at: 23
                },
                Piece::Text("."),
            ]
        );
        assert_eq!(
            pieces("{ 2d10 } hours").unwrap()[0],
            Piece::Roll {
                expr: "2d10",
                at: 2
            }
        );
        assert_eq!(pieces("a { b").unwrap_err().at, 2);
        assert_eq!(pieces("a } b").unwrap_err().at, 2);
        assert_eq!(pieces("{a{b}").unwrap_err().at, 0);
        assert_eq!(pieces("").unwrap(), vec![]);
    }

    #[test]
    fn offsets_map_through_quotes() {
        let file = r#"result = "Lose {1d6}""#;
        let span = 9..file.len();
        assert_eq!(offset_in_value(file, &span, "Lose {1d6}", 6), 16);
        assert_eq!(&file[16..19], "1d6");
        let escaped = r#"result = "a\"b {x}""#;
        assert_eq!(
            offset_in_value(escaped, &(9..escaped.len()), "a\"b {x}", 5),
            9
        );
    }
}
