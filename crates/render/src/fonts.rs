//! The fonts blockprint embeds, and what they can set. The PDF templates use three families for Latin text
//! (EB Garamond for the booklet, Courier Prime for the typed case file, Bebas Neue for headings and form
//! labels) and list the same fallbacks after each: Noto Naskh Arabic, Noto Serif Hebrew, Noto Serif (stacked
//! combining marks, Greek, Cyrillic, Vietnamese) and Noto Emoji (monochrome). typst has no other fonts: no
//! system fonts are read. Every file is OFL 1.1; its licence lies beside it under `fonts/`, and
//! `fonts/README.md` says where each came from.
//!
//! Before a document is typeset, [`missing_glyphs`] walks every string of its data and names each character
//! that no embedded font covers, so a user hears about a name that would print as an empty box instead of
//! finding the box on paper.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::OnceLock;

use typst::text::FontInfo;

/// One embedded font file: its path under `fonts/` and its bytes.
#[derive(Debug, Clone, Copy)]
pub struct FontFile {
    pub path: &'static str,
    pub data: &'static [u8],
}

macro_rules! font {
    ($path:literal) => {
        FontFile {
            path: $path,
            data: include_bytes!(concat!(env!("BLOCKPRINT_FONTS_DIR"), "/", $path)),
        }
    };
}

/// Every embedded font, primary families first, then the fallbacks in the order the templates list them.
pub static FONTS: &[FontFile] = &[
    font!("eb-garamond/EBGaramond-Regular.ttf"),
    font!("eb-garamond/EBGaramond-Italic.ttf"),
    font!("eb-garamond/EBGaramond-Bold.ttf"),
    font!("eb-garamond/EBGaramond-BoldItalic.ttf"),
    font!("courier-prime/CourierPrime-Regular.ttf"),
    font!("courier-prime/CourierPrime-Italic.ttf"),
    font!("courier-prime/CourierPrime-Bold.ttf"),
    font!("courier-prime/CourierPrime-BoldItalic.ttf"),
    font!("bebas-neue/BebasNeue-Regular.otf"),
    font!("noto-naskh-arabic/NotoNaskhArabic-Regular.ttf"),
    font!("noto-naskh-arabic/NotoNaskhArabic-Bold.ttf"),
    font!("noto-serif-hebrew/NotoSerifHebrew-Regular.ttf"),
    font!("noto-serif-hebrew/NotoSerifHebrew-Bold.ttf"),
    font!("noto-serif/NotoSerif-Regular.ttf"),
    font!("noto-emoji/NotoEmoji-Regular.ttf"),
];

/// The fallback families, in the order every template lists them after its own family.
pub const FALLBACKS: [&str; 4] = [
    "Noto Naskh Arabic",
    "Noto Serif Hebrew",
    "Noto Serif",
    "Noto Emoji",
];

/// Every code point some embedded font has a glyph for, sorted (built once per process).
fn coverage() -> &'static [u32] {
    static COVERED: OnceLock<Vec<u32>> = OnceLock::new();
    COVERED.get_or_init(|| {
        let set: BTreeSet<u32> = FONTS
            .iter()
            .flat_map(|f| FontInfo::iter(f.data))
            .flat_map(|info| info.coverage.iter().collect::<Vec<_>>())
            .collect();
        set.into_iter().collect()
    })
}

/// Whether some embedded font has a glyph for `c`.
pub fn covered(c: char) -> bool {
    c.is_ascii() || coverage().binary_search(&u32::from(c)).is_ok()
}

/// Characters that print nothing by design (or are joined into their neighbours by shaping), so no font
/// needs a glyph for them: whitespace, controls, joiners, variation selectors, direction marks, tags.
pub(crate) fn invisible(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(c,
            '\u{AD}'                      // soft hyphen
            | '\u{34F}'                   // combining grapheme joiner
            | '\u{61C}'                   // Arabic letter mark
            | '\u{180B}'..='\u{180F}'     // Mongolian variation selectors
            | '\u{200B}'..='\u{200F}'     // zero width space, (non-)joiner, direction marks
            | '\u{202A}'..='\u{202E}'     // direction embeddings and overrides
            | '\u{2060}'..='\u{206F}'     // word joiner, invisible operators, isolates
            | '\u{FE00}'..='\u{FE0F}'     // variation selectors
            | '\u{FEFF}'                  // byte order mark
            | '\u{E0000}'..='\u{E0FFF}'   // tags, variation selectors supplement
        )
}

/// A character of the document data that no embedded font covers.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct MissingGlyph {
    /// Where in the data: `case.victims[2].name`.
    pub field: String,
    pub ch: char,
}

impl fmt::Display for MissingGlyph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: U+{:04X} ‹{}› is in none of the embedded fonts and prints as an empty box",
            self.field,
            u32::from(self.ch),
            self.ch
        )
    }
}

/// Every (field, character) of `data` that no embedded font covers, once each, in the order met.
pub fn missing_glyphs(data: &serde_json::Value) -> Vec<MissingGlyph> {
    let mut found = Vec::new();
    let mut seen = BTreeSet::new();
    let mut path = String::new();
    walk(data, &mut path, &mut |field, s| {
        for c in s.chars() {
            if !invisible(c) && !covered(c) && seen.insert((field.to_owned(), c)) {
                found.push(MissingGlyph {
                    field: field.to_owned(),
                    ch: c,
                });
            }
        }
    });
    found
}

/// Call `each(path, text)` for every string in `v`; `path` is built as `a.b[2]["odd key"]`.
fn walk(v: &serde_json::Value, path: &mut String, each: &mut dyn FnMut(&str, &str)) {
    match v {
        serde_json::Value::String(s) => each(path, s),
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                walk(item, path, each);
                path.truncate(len);
            }
        }
        serde_json::Value::Object(map) => {
            for (k, item) in map {
                let len = path.len();
                let plain = !k.is_empty()
                    && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !k.starts_with(|c: char| c.is_ascii_digit());
                if plain {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(k);
                } else {
                    path.push_str(&format!("[{k:?}]"));
                }
                walk(item, path, each);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_name_the_field() {
        let data = serde_json::json!({
            "case": { "victims": [ { "name": "Ann" }, { "name": "B\u{E000}b \u{E000}" } ] },
            "tables": { "bbb.x": { "title": "\u{13000}" } },
        });
        let got: Vec<String> = missing_glyphs(&data)
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(
            got,
            [
                "case.victims[1].name: U+E000 ‹\u{E000}› is in none of the embedded fonts and prints as an empty box",
                "tables[\"bbb.x\"].title: U+13000 ‹\u{13000}› is in none of the embedded fonts and prints as an empty box",
            ]
        );
    }

    #[test]
    fn scripts_the_fallbacks_cover_and_invisible_characters_pass() {
        let data = serde_json::json!([
            "Nadia ‘Dee’ O’Brien † × − ½ № … — –",
            "محمد الأحمد",
            "דוד כהן",
            "Z\u{0351}\u{0352}a\u{0300}\u{0301}\u{0302}lgo",
            "Ἀθηνᾶ Жанна Nguyễn",
            "🕵️‍♀️ 🔪 ☠\u{FE0F}",
            "tab\there\u{200D}\u{2067}x\u{2069}\u{0}",
        ]);
        assert_eq!(missing_glyphs(&data), vec![]);
    }
}
