//! Markdown: a template name and a serializable value in, Markdown text out, through minijinja templates
//! embedded from `templates/`. Shared macros live in `templates/common/md.j2`: one way to write a table with
//! its odds, a lookup, a deck, the stock NPCs and a chapter's block tree. Every content string goes through
//! one escaping function, [`escape`] (the `esc` filter); the other filters prepare values.

use std::collections::BTreeMap;

use minijinja::{Environment, UndefinedBehavior, Value};

use blockprint_content::text::{Piece, pieces, smart_quotes};

/// A minijinja environment holding every embedded `.j2` template (document templates `*.md.j2` and the
/// macro files under `common/`), strict about undefined values. `titles` maps table ids to titles for the
/// `parts` filter's references.
pub fn environment(
    titles: BTreeMap<String, String>,
) -> Result<Environment<'static>, minijinja::Error> {
    let files = super::template_files()
        .into_iter()
        .filter(|(name, _)| name.ends_with(".j2"))
        .map(|(name, f)| (name, f.contents_utf8().unwrap_or_default().to_owned()))
        .collect();
    environment_with(titles, files)
}

/// The same over the given template files: (path relative to the templates root, text).
pub fn environment_with(
    titles: BTreeMap<String, String>,
    files: Vec<(String, String)>,
) -> Result<Environment<'static>, minijinja::Error> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::SemiStrict);
    env.set_syntax(
        minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .keep_trailing_newline(true)
            .build()?,
    );
    for (name, text) in files {
        env.add_template_owned(name, text)?;
    }
    env.add_filter("esc", |s: String| escape(&s));
    env.add_filter("para", |s: String| para(&s));
    env.add_filter("wrap", |s: String, width: Option<usize>| {
        wrap(&s, width.unwrap_or(WIDTH))
    });
    env.add_filter("code", |s: String| code_span(&s));
    env.add_filter("code_block", |s: String| code_block(&s));
    env.add_filter("pct", |p: f64| pct(p));
    env.add_filter("anchor", |id: String| anchor(&id));
    env.add_filter("parts", move |s: String| {
        let ps: Vec<Part> = parts(&s, |id| titles.get(id).cloned());
        Value::from(minijinja::value::Serde(&ps))
    });
    Ok(env)
}

/// Render `template` with `data` as its context.
pub fn render(
    env: &Environment<'_>,
    template: &str,
    data: &impl serde::Serialize,
) -> Result<String, minijinja::Error> {
    env.get_template(template)?
        .render(minijinja::value::Serde(data))
}

/// Text that prints literally in Markdown: inline markup characters are backslash-escaped and line breaks
/// folded, so a name like `*x* <z> [a](b)` shows as written. Safe in table cells too.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '#' | '!' | '&' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// Escaped inline Markdown placed as a paragraph: a line that would open a list item, a thematic break
/// or a setext underline (`- `, `+ `, `=`, `1. `, `2) `) gets its marker backslash-escaped, so the text
/// stays one paragraph. ([`escape`] already covers `#`, `>`, `*`, `_`, `` ` `` and `~`.)
pub fn para(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, line) in s.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let digits = line.chars().take_while(char::is_ascii_digit).count();
        if line.starts_with(['-', '+', '=']) {
            out.push('\\');
            out.push_str(line);
        } else if (1..=9).contains(&digits) && line[digits..].starts_with(['.', ')']) {
            out.push_str(&line[..digits]);
            out.push('\\');
            out.push_str(&line[digits..]);
        } else {
            out.push_str(line);
        }
    }
    out
}

/// The line width prose paragraphs are wrapped to, as in the chapter sources.
pub const WIDTH: usize = 110;

/// Inline Markdown wrapped at spaces so no line is longer than `width` characters (unless one word is).
/// Only a single space is ever turned into a line break, which CommonMark reads as the same soft break,
/// so the paragraph renders exactly as before. Lines already broken (hard breaks) are wrapped one by one.
pub fn wrap(s: &str, width: usize) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / width.max(1));
    for (i, line) in s.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut len = 0;
        let mut after_word = false;
        for (j, word) in line.split(' ').enumerate() {
            let w = word.chars().count();
            if j > 0 {
                // Never after another space: two spaces before a line end would make a hard break.
                if after_word && w > 0 && len + 1 + w > width {
                    out.push('\n');
                    len = 0;
                } else {
                    out.push(' ');
                    len += 1;
                }
            }
            out.push_str(word);
            len += w;
            after_word = w > 0;
        }
    }
    out
}

/// The longest run of backticks in `s`.
fn longest_backtick_run(s: &str) -> usize {
    s.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// Text as a code span that shows it literally: a fence longer than any backtick run inside, padded with
/// spaces when the text starts or ends with a backtick or a space.
pub fn code_span(s: &str) -> String {
    let s = s.replace(['\n', '\r'], " ");
    let fence = "`".repeat(longest_backtick_run(&s) + 1);
    let pad = if s.starts_with(['`', ' ']) || s.ends_with(['`', ' ']) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// Text as a fenced code block, ending in a newline: the fence is longer than any backtick run inside.
pub fn code_block(s: &str) -> String {
    let fence = "`".repeat(longest_backtick_run(s).max(2) + 1);
    let nl = if s.ends_with('\n') || s.is_empty() {
        ""
    } else {
        "\n"
    };
    format!("{fence}\n{s}{nl}{fence}\n")
}

/// A probability as a percentage with two decimals: `30.56%`.
pub fn pct(p: f64) -> String {
    format!("{:.2}%", p * 100.0)
}

/// An HTML anchor name for an id: `bbb.homicide.district` → `bbb-homicide-district`.
pub fn anchor(id: &str) -> String {
    id.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_and_values() {
        assert_eq!(pct(0.30556), "30.56%");
        assert_eq!(
            escape("#read(\"/etc/passwd\") *x* $y$ <z> @w"),
            "\\#read(\"/etc/passwd\") \\*x\\* $y$ \\<z\\> @w"
        );
        assert_eq!(
            escape("Lose 1d6 points | or not"),
            "Lose 1d6 points \\| or not"
        );
        assert_eq!(anchor("bbb.homicide.district"), "bbb-homicide-district");
    }

    #[test]
    fn paragraphs_never_turn_into_lists_or_rules() {
        assert_eq!(para("1976. A year"), "1976\\. A year");
        assert_eq!(para("- not a list"), "\\- not a list");
        assert_eq!(para("a\\\n+ b\\\n3) c"), "a\\\n\\+ b\\\n3\\) c");
        assert_eq!(para("Low-income, 1. and 2."), "Low-income, 1. and 2.");
        assert_eq!(para("1234567890. big"), "1234567890. big");
    }

    #[test]
    fn wrapping_only_turns_single_spaces_into_breaks() {
        assert_eq!(wrap("aaa bbb ccc ddd", 7), "aaa bbb\nccc ddd");
        assert_eq!(wrap("aaaaaaaaaa b", 4), "aaaaaaaaaa\nb");
        assert_eq!(wrap("a\\\nbbb ccc", 5), "a\\\nbbb\nccc");
        assert_eq!(wrap("x  y", 2), "x  y", "never two spaces before a break");
        let long = "word ".repeat(60);
        assert_eq!(wrap(&long, WIDTH).replace('\n', " "), long);
        assert!(
            wrap(&long, WIDTH)
                .lines()
                .all(|l| l.chars().count() <= WIDTH)
        );
    }

    #[test]
    fn code_shows_backticks_literally() {
        assert_eq!(code_span("blockprint case"), "`blockprint case`");
        assert_eq!(code_span("a `b` c"), "``a `b` c``");
        assert_eq!(code_span("`x"), "`` `x ``");
        assert_eq!(code_block("a\n```\nb\n"), "````\na\n```\nb\n````\n");
        assert_eq!(code_block("x"), "```\nx\n```\n");
    }

    #[test]
    fn the_parts_filter_links_nothing_itself() {
        let titles = BTreeMap::from([("bbb.homicide.gunshot".to_owned(), "Gunshot".to_owned())]);
        let env = environment(titles).unwrap();
        let v = env
            .render_str(
                "{% for p in r|parts %}{{ p.kind }}:{{ p.text or p.title }};{% endfor %}",
                minijinja::context! { r => "Gunshot ({table:bbb.homicide.gunshot}) {1d6}" },
            )
            .unwrap();
        assert_eq!(v, "text:Gunshot (;ref:Gunshot;text:) ;roll:1d6;");
    }
}

/// A piece of a result: literal text, an inline roll, or a reference to another table.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Part {
    Text { text: String },
    Roll { text: String },
    Ref { id: String, title: String },
}

/// Split a result into parts; `title` names a referenced table.
pub fn parts(result: &str, title: impl Fn(&str) -> Option<String>) -> Vec<Part> {
    match pieces(result) {
        Ok(ps) => ps
            .into_iter()
            .map(|p| match p {
                Piece::Text(t) => Part::Text { text: t.to_owned() },
                Piece::Roll { expr, .. } => Part::Roll {
                    text: expr.to_owned(),
                },
                Piece::Table { id, .. } => Part::Ref {
                    id: id.to_owned(),
                    title: title(id).map_or_else(|| id.to_owned(), |t| smart_quotes(&t)),
                },
            })
            .collect(),
        Err(_) => vec![Part::Text {
            text: result.to_owned(),
        }],
    }
}
