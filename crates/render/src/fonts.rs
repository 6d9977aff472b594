//! The fonts blockprint embeds, and what they can set. The PDF templates use three families for Latin text
//! (EB Garamond for the booklet, Courier Prime for the typed case file, Bebas Neue for headings and form
//! labels) and list the same fallbacks after each: Noto Naskh Arabic, Noto Serif Hebrew, Noto Serif (stacked
//! combining marks, Greek, Cyrillic, Vietnamese) and Noto Emoji (monochrome). No system font is read: typst
//! has these and, after them, the fonts of the folders a user gives with `--font-path DIR` ([`Fonts`]).
//! Every embedded file is OFL 1.1; its licence lies beside it under `fonts/`, and `fonts/README.md` says
//! where each came from.
//!
//! [`Fonts::missing`] walks every string of a document's data for characters no font has, and
//! [`Fonts::missing_printed`] keeps the texts its typeset pages show as empty boxes, so a user hears about
//! a name that prints as an empty box (and how to get a font for it) instead of finding the box on paper.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use typst::foundations::Bytes;
use typst::text::FontInfo;

use crate::error::RenderError;
use blockprint_content::error::{Error, Result};

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

/// The fonts a run sets text in: the embedded ones, then those found in the folders given with
/// `--font-path DIR` (as typst's own command line has it). The extra fonts come after the embedded ones,
/// so the templates' families and fallbacks still set every character they have, and output without extra
/// fonts is what it was; typst turns to an extra font only for a character no embedded font has (Chinese,
/// Japanese, Korean …).
#[derive(Clone, Default)]
pub struct Fonts {
    extra: Vec<ExtraFont>,
    /// Every code point some extra font has a glyph for, sorted.
    coverage: Vec<u32>,
}

/// A font file found in a `--font-path` folder.
#[derive(Clone)]
pub struct ExtraFont {
    /// Where it was read from.
    pub path: PathBuf,
    /// Its path below the folder it was found in, `/`-separated: its name in the manifest.
    pub name: String,
    /// The sha256 of its bytes (hex): what a manifest records, so another font makes output stale.
    pub sha256: String,
    data: Bytes,
}

impl fmt::Debug for Fonts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.extra.iter().map(|e| (&e.name, &e.sha256)))
            .finish()
    }
}

/// The endings of the files read as fonts in a `--font-path` folder (any case).
pub const FONT_FILES: [&str; 4] = ["ttf", "otf", "ttc", "otc"];

impl Fonts {
    /// The embedded fonts alone.
    pub fn embedded() -> Self {
        Fonts::default()
    }

    /// The embedded fonts and every font file (.ttf, .otf, .ttc, .otc) in `dirs` and their subfolders:
    /// the folders in the order given, each one's files in name order; a file met twice (the same bytes)
    /// counts once. A folder that is not there or holds no font, and a font file typst cannot read, are
    /// refused with the folder or the file.
    pub fn load(dirs: &[PathBuf]) -> Result<Self> {
        let mut extra: Vec<ExtraFont> = Vec::new();
        for dir in dirs {
            if !dir.is_dir() {
                return Err(RenderError::NoFontFolder { dir: dir.clone() }.into());
            }
            let mut files = Vec::new();
            font_files(dir, &mut files)?;
            if files.is_empty() {
                return Err(RenderError::NoFontInFolder { dir: dir.clone() }.into());
            }
            for path in files {
                let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
                if FontInfo::iter(&bytes).next().is_none() {
                    return Err(RenderError::BadFont {
                        dir: dir.clone(),
                        file: path,
                    }
                    .into());
                }
                let sha256 = super::manifest::sha256(&bytes);
                if extra.iter().any(|e| e.sha256 == sha256) {
                    continue;
                }
                let name = path
                    .strip_prefix(dir)
                    .unwrap_or(&path)
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                extra.push(ExtraFont {
                    path,
                    name,
                    sha256,
                    data: Bytes::new(bytes),
                });
            }
        }
        let coverage: BTreeSet<u32> = extra
            .iter()
            .flat_map(|f| FontInfo::iter(f.data.as_slice()))
            .flat_map(|info| info.coverage.iter().collect::<Vec<_>>())
            .collect();
        Ok(Fonts {
            extra,
            coverage: coverage.into_iter().collect(),
        })
    }

    /// The fonts found in the `--font-path` folders, in the order typst reads them.
    pub fn extra(&self) -> &[ExtraFont] {
        &self.extra
    }

    /// Every font typst may set text in, as typst reads them: the embedded ones first.
    pub fn all(&self) -> impl Iterator<Item = Bytes> + '_ {
        FONTS
            .iter()
            .map(|f| Bytes::new(f.data))
            .chain(self.extra.iter().map(|f| f.data.clone()))
    }

    /// Whether some font, embedded or extra, has a glyph for `c`.
    pub fn covers(&self, c: char) -> bool {
        covered(c) || self.coverage.binary_search(&u32::from(c)).is_ok()
    }

    /// The characters of `data`'s strings that no font has, gathered into one finding for the document
    /// (`None` when every character can be set): which characters, and the first text that holds one.
    pub fn missing(&self, data: &serde_json::Value) -> Option<Missing> {
        self.missing_where(data, &|_| true)
    }

    /// [`Fonts::missing`] for the texts `doc`, typeset from `data`, prints: those whose every character no
    /// font has is an empty box in it ([`boxes`]), so that a text the data holds but the template does not
    /// print draws no warning.
    pub fn missing_printed(
        &self,
        data: &serde_json::Value,
        doc: &typst_layout::PagedDocument,
    ) -> Option<Missing> {
        let printed = boxes(doc);
        if printed.is_empty() {
            return None;
        }
        // A template may print a text in capitals (or small letters): any case of the character counts.
        self.missing_where(data, &|c| {
            printed.contains(&c)
                || c.to_uppercase().any(|u| printed.contains(&u))
                || c.to_lowercase().any(|l| printed.contains(&l))
        })
    }

    fn missing_where(
        &self,
        data: &serde_json::Value,
        keep: &dyn Fn(char) -> bool,
    ) -> Option<Missing> {
        let mut chars: Vec<char> = Vec::new();
        let mut first: Option<(String, String)> = None;
        let mut texts = 0;
        let mut path = String::new();
        walk(data, &mut path, &mut |field, s| {
            // A text counts when `keep` keeps every character of it that no font has: a text the
            // document prints shows each of them as a box.
            let here: Vec<(usize, char)> = s
                .char_indices()
                .filter(|&(_, c)| !invisible(c) && !self.covers(c))
                .collect();
            if here.is_empty() || !here.iter().all(|&(_, c)| keep(c)) {
                return;
            }
            for &(_, c) in &here {
                if !chars.contains(&c) {
                    chars.push(c);
                }
            }
            texts += 1;
            if first.is_none() {
                first = Some((field.to_owned(), excerpt(s, here[0].0)));
            }
        });
        let (field, excerpt) = first?;
        Some(Missing {
            field,
            excerpt,
            chars,
            texts,
        })
    }
}

/// The characters `doc` sets as an empty box: those of every glyph typst found in no font (glyph 0, the
/// font's "missing glyph" box), with the marks shaped with them.
pub fn boxes(doc: &typst_layout::PagedDocument) -> BTreeSet<char> {
    fn walk(frame: &typst::layout::Frame, out: &mut BTreeSet<char>) {
        for (_, item) in frame.items() {
            match item {
                typst::layout::FrameItem::Group(g) => walk(&g.frame, out),
                typst::layout::FrameItem::Text(t) => {
                    for g in t.glyphs.iter().filter(|g| g.id == 0) {
                        out.extend(t.text.get(g.range()).unwrap_or_default().chars());
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = BTreeSet::new();
    for page in doc.pages() {
        walk(&page.frame, &mut out);
    }
    out
}

pub(crate) fn endings() -> String {
    FONT_FILES.map(|e| format!(".{e}")).join(", ")
}

/// Every font file below `dir`, in name order, subfolders in place.
fn font_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut entries: Vec<_> = rd
        .collect::<std::io::Result<_>>()
        .map_err(|e| Error::io(dir, e))?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            font_files(&p, out)?;
        } else if p.extension().is_some_and(|x| {
            FONT_FILES
                .iter()
                .any(|f| x.to_string_lossy().eq_ignore_ascii_case(f))
        }) {
            out.push(p);
        }
    }
    Ok(())
}

/// The most characters of a text a warning quotes.
const EXCERPT: usize = 40;

/// `text` on one line, cut to about [`EXCERPT`] characters around byte `at` (marked `…` where cut).
fn excerpt(text: &str, at: usize) -> String {
    // Runs of white space (line breaks too) become one space; `pos` is where `at` falls.
    let (mut flat, mut pos, mut space) = (Vec::new(), 0, false);
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !flat.is_empty() {
            flat.push(' ');
        }
        space = false;
        if i == at {
            pos = flat.len();
        }
        flat.push(c);
    }
    if flat.len() <= EXCERPT {
        return flat.into_iter().collect();
    }
    let mut start = pos.saturating_sub(EXCERPT / 4).min(flat.len() - EXCERPT);
    let mut end = start + EXCERPT;
    // Cut between words where the text has spaces near the cut.
    if start > 0
        && flat[start - 1] != ' '
        && let Some(s) = flat[start..pos].iter().position(|&c| c == ' ')
    {
        start += s + 1;
    }
    if end < flat.len()
        && flat[end] != ' '
        && let Some(e) = flat[pos..end].iter().rposition(|&c| c == ' ')
    {
        end = pos + e;
    }
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.extend(&flat[start..end]);
    if end < flat.len() {
        out.push('…');
    }
    out
}

/// The characters of one document's data that no font has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// Where the first text holding one is in the data: `case.victims[2].name`.
    pub field: String,
    /// That text, on one line and cut short.
    pub excerpt: String,
    /// Each character no font has, once, in the order met.
    pub chars: Vec<char>,
    /// How many texts hold one.
    pub texts: usize,
}

/// The most characters a warning lists.
const LISTED: usize = 8;

impl Missing {
    /// The warning: what no font has and the fix, the font folders named by their option's id (the
    /// command line's `--font-path DIR`); `Display` is its library's words.
    pub fn line(&self) -> blockprint_kind::sink::Line {
        use blockprint_kind::sink::{Line, Part};
        let head = format!(
            "{}; they print as empty boxes: add a font that has them ",
            Found(self)
        );
        Line::new(
            format!("{head}in a font folder"),
            vec![
                Part::Text(format!("{head}with ")),
                Part::Option(crate::error::FONT_PATH),
                Part::Text(" DIR".into()),
            ],
        )
    }
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.line().text())
    }
}

/// What no font has: the first text, the characters.
struct Found<'a>(&'a Missing);

impl fmt::Display for Found<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.0;
        write!(f, "“{}” ({})", m.excerpt, m.field)?;
        match m.texts {
            1 => write!(f, " has")?,
            2 => write!(f, " and 1 other text have")?,
            n => write!(f, " and {} other texts have", n - 1)?,
        }
        write!(f, " characters no font has: ")?;
        let listed: Vec<String> = m
            .chars
            .iter()
            .take(LISTED)
            .map(|c| format!("{c} U+{:04X}", u32::from(*c)))
            .collect();
        write!(f, "{}", listed.join(", "))?;
        if m.chars.len() > LISTED {
            write!(f, " and {} more", m.chars.len() - LISTED)?;
        }
        Ok(())
    }
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
    fn one_finding_names_the_first_text_its_field_and_every_character() {
        let data = serde_json::json!({
            "case": { "victims": [ { "name": "Ann" }, { "name": "B\u{E000}b \u{E000}" } ] },
            "tables": { "bbb.x": { "title": "\u{13000}" } },
        });
        let found = Fonts::embedded().missing(&data).unwrap();
        // The fix names the font folders' option by its id: the command line's flag, or the library's
        // words.
        let flag = |id: &'static str| format!("--{}", id.replace('_', "-"));
        assert_eq!(
            found.line().named(&flag),
            "“B\u{E000}b \u{E000}” (case.victims[1].name) and 1 other text have characters no font has: \
             \u{E000} U+E000, \u{13000} U+13000; they print as empty boxes: add a font that has them with \
             --font-path DIR"
        );
        assert_eq!(found.line().options(), [crate::error::FONT_PATH]);
        assert!(
            found.to_string().ends_with(
                "U+13000; they print as empty boxes: add a font that has them in a font folder"
            ),
            "{found}"
        );
        let one = serde_json::json!({ "a": [ "x", { "b c": "警視庁" } ] });
        assert_eq!(
            Fonts::embedded().missing(&one).unwrap().line().named(&flag),
            "“警視庁” (a[1][\"b c\"]) has characters no font has: 警 U+8B66, 視 U+8996, 庁 U+5E81; they \
             print as empty boxes: add a font that has them with --font-path DIR"
        );
    }

    #[test]
    fn a_long_text_is_quoted_on_one_line_around_its_first_missing_character() {
        let long = format!("{}\n\n  警察 {}", "word ".repeat(20), "more ".repeat(20));
        let m = Fonts::embedded()
            .missing(&serde_json::json!({ "t": long }))
            .unwrap();
        assert_eq!(m.excerpt, "…word word 警察 more more more more more…");
        let cjk: String = ('\u{4E00}'..='\u{4E63}').collect();
        let m = Fonts::embedded()
            .missing(&serde_json::json!({ "t": format!("Ann {cjk}") }))
            .unwrap();
        assert_eq!(m.excerpt.chars().filter(|c| *c != '…').count(), EXCERPT);
        assert!(
            m.excerpt.starts_with("Ann 一") && m.excerpt.ends_with('…'),
            "{}",
            m.excerpt
        );
        let many: String = ('\u{4E00}'..='\u{4E09}').collect();
        let m = Fonts::embedded()
            .missing(&serde_json::json!([many]))
            .unwrap();
        assert!(
            m.to_string()
                .contains("七 U+4E03, 丄 U+4E04, 丅 U+4E05, 丆 U+4E06, 万 U+4E07 and 2 more;"),
            "{m}"
        );
    }

    #[test]
    fn a_font_folder_that_is_missing_empty_or_holds_no_font_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let none = dir.path().join("none");
        let err = Fonts::load(std::slice::from_ref(&none))
            .unwrap_err()
            .to_string();
        assert!(err.contains("no such folder"), "{err}");
        let err = Fonts::load(&[dir.path().to_owned()])
            .unwrap_err()
            .to_string();
        assert!(err.contains("no font file in the folder"), "{err}");
        std::fs::write(dir.path().join("bad.TTF"), b"not a font").unwrap();
        let err = Fonts::load(&[dir.path().to_owned()])
            .unwrap_err()
            .to_string();
        assert!(err.contains("bad.TTF is no font that can be read"), "{err}");
        // An embedded font given again, in a subfolder and twice: read once, named below its folder.
        std::fs::remove_file(dir.path().join("bad.TTF")).unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("a.otf"), FONTS[8].data).unwrap();
        std::fs::write(sub.join("b.otf"), FONTS[8].data).unwrap();
        let fonts = Fonts::load(&[dir.path().to_owned(), sub.clone()]).unwrap();
        let names: Vec<&str> = fonts.extra().iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["sub/a.otf"]);
        assert_eq!(
            fonts.extra()[0].sha256,
            super::super::manifest::sha256(FONTS[8].data)
        );
        assert_eq!(fonts.all().count(), FONTS.len() + 1);
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
        assert_eq!(Fonts::embedded().missing(&data), None);
    }
}
