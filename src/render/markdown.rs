//! Markdown: a template name and a serializable value in, Markdown text out, through minijinja templates
//! embedded from `templates/`. Filters make content text safe inside Markdown tables and turn `{table:ID}`
//! references into links.

use std::collections::BTreeMap;

use minijinja::{Environment, UndefinedBehavior};

use crate::content::text::{Piece, pieces};

/// A minijinja environment holding every embedded `.j2` template, strict about undefined values.
/// `titles` maps table ids to titles for the `result` filter's links.
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
    env.add_filter("cell", |s: String| cell(&s));
    env.add_filter("esc", |s: String| escape(&s));
    env.add_filter("pct", |p: f64| pct(p));
    env.add_filter("anchor", |id: String| anchor(&id));
    env.add_filter("result", move |s: String| result(&s, &titles));
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

/// Text safe inside a Markdown table cell: pipes escaped, line breaks folded.
pub fn cell(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
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

/// A result text for a table cell: inline rolls as written (`1d6`), references as links to their table.
pub fn result(s: &str, titles: &BTreeMap<String, String>) -> String {
    let Ok(parts) = pieces(s) else { return cell(s) };
    parts
        .into_iter()
        .map(|p| match p {
            Piece::Text(t) => cell(t),
            Piece::Roll { expr, .. } => cell(expr),
            Piece::Table { id, .. } => {
                let title = titles.get(id).map_or(id, String::as_str);
                format!("roll on [{}](#{})", cell(title), anchor(id))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_become_cells_with_links() {
        let titles = BTreeMap::from([("bbb.homicide.gunshot".to_owned(), "Gunshot".to_owned())]);
        assert_eq!(
            result("Gunshot ({table:bbb.homicide.gunshot})", &titles),
            "Gunshot (roll on [Gunshot](#bbb-homicide-gunshot))"
        );
        assert_eq!(
            result("Lose {1d6} points | or not", &titles),
            "Lose 1d6 points \\| or not"
        );
        assert_eq!(pct(0.30556), "30.56%");
        assert_eq!(
            escape("#read(\"/etc/passwd\") *x* $y$ <z> @w"),
            "\\#read(\"/etc/passwd\") \\*x\\* $y$ \\<z\\> @w"
        );
        assert_eq!(anchor("bbb.homicide.district"), "bbb-homicide-district");
    }
}
