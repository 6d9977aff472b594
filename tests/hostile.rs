//! The hostile-content suite (issue 14, "Keep it caught"). An `init` copy of the built-in content gets a
//! hostile payload — typst code, Markdown and HTML, long words, e-mail addresses and URLs, right-to-left
//! and mixed-direction text, stacked combining marks, emoji, quotes of every kind, tabs, non-breaking and
//! zero-width spaces — in every string that reaches a document: table titles, notes, editorial notes and
//! row results; lookup titles, column headings, keys, values, notes; deck titles, suit names and cards;
//! names tables; NPC names; rulings; the book's metadata; chapter titles and prose (headings, paragraphs,
//! list items, block quotes, table cells). Ids, dice, `on` ranges, tags and the keys other content refers
//! to are kept (or renamed consistently), so `check` still passes.
//!
//! Every placed value is `PAYLOAD Q<n>`: the marker makes each placement findable on its own, so the
//! assertions say which field lost or mangled its text. Everything is built once (`blockprint build`,
//! plus `srd --format json` and `tables --json`) and checked for: exit 0 and no warning; nothing from
//! /etc/passwd; every placement printed in the PDF as written (the glyphs' own text, right-to-left runs
//! read back in logical order) with no glyph outside the page's text area; every placement as text in the
//! Markdown (parsed with pulldown-cmark), with no HTML or link that the same build of the plain content
//! does not have; every placement exactly in the JSON. Characters no embedded font covers draw exactly one
//! warning each, and control characters and raw HTML in chapters are refused with the file named.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use crate::support::{blockprint, glyphs, stderr};
use pulldown_cmark::{Event, Options, Parser, Tag};
use toml::{Table, Value};

/// Payloads that every output must print as written. Straight quotes may come out curly (content text
/// gets typographic quotes), nothing else may change.
pub(crate) fn payloads() -> Vec<(&'static str, String)> {
    let long: String = "Pneumonoultramicroscopicsilicovolcanoconiosis"
        .chars()
        .cycle()
        .take(300)
        .collect();
    let mut v: Vec<(&'static str, String)> = [
        // typst code and markup
        ("typst read", r#"#read("/etc/passwd")"#),
        ("typst import", r#"#import "/etc/passwd": root"#),
        ("typst set page", "#set page(width: 1cm, height: 1cm) #set text(size: 0pt)"),
        ("typst content brackets", r#"] [ #panic("boom") ] ["#),
        ("typst math", "$x^2 + y_1$ costs $5"),
        ("typst backslash", r"C:\Users\vice \n \\ ends with \"),
        ("typst label and ref", "see @fig:one and <secret-label> here"),
        ("typst comments", "before // line comment /* block comment */ after"),
        ("typst raw and strong", "`raw` ```block``` *strong* _emph_ = heading ~ nbsp"),
        ("typst eval", r#"#eval("1 + 1") #let x = 1 #show: none"#),
        // Markdown and HTML
        ("markdown emphasis", "**bold** __strong__ *em* _em_ ~~strike~~"),
        ("markdown javascript link", "[click me](javascript:alert(1)) ![img](x.png)"),
        ("markdown autolinks", "<https://evil.example/x> <mailto:a@b.example> www.evil.example"),
        ("markdown pipes", "| pipe | cell |---|"),
        ("markdown backticks", "`code` ``two`` ```three``` and a lone `"),
        ("html script", "<script>alert(1)</script>"),
        ("html img", r#"<img src=x onerror="alert(1)"> <!-- comment --> <b>b</b>"#),
        ("html entities", "&amp; &lt;b&gt; &#x41; &copy; &nbsp;"),
        ("leading hash", "# Not a heading"),
        ("leading dash", "- not a list item"),
        ("leading quote", "> not a block quote"),
        ("leading number", "1. not an ordered list"),
        ("leading plus and equals", "+ not a list === not a rule"),
        // long words, addresses
        ("e-mail", "detective.sergeant.obrien.homicide@lapd-robbery-homicide-division.example.org"),
        ("url", "https://example.com/a_b/c?d=e&f=g#h_i"),
        // scripts
        ("arabic", "محمد الأحمد"),
        ("hebrew", "דוד כהן"),
        ("mixed bidi", "Officer דוד כהן met محمد الأحمد downtown"),
        ("stacked accents", "E\u{301}\u{302}\u{308}mile Zoe\u{308}\u{301} Franc\u{327}oise"),
        ("zalgo", "Z\u{351}\u{352}\u{300}\u{301}a\u{302}\u{303}\u{304}l\u{305}\u{306}\u{307}g\u{308}\u{309}\u{30A}o\u{30B}\u{30C}\u{30D}"),
        ("emoji", "🕵️‍♀️ 🔪 ☠️ 👨‍👩‍👧 🇫🇷 🇯🇵 👍🏽"),
        ("quotes", r#""double" 'single' „low“ «guillemets» ‹angle› ‚low‘ O'Brien '76"#),
        ("tabs", "col1\tcol2\t\tcol3"),
        ("invisible spaces", "ten\u{A0}km narrow\u{202F}space zero\u{200B}width word\u{2060}joiner"),
        ("greek and cyrillic", "Ἀθηνᾶ Жанна Nguyễn"),
    ]
    .into_iter()
    .map(|(n, s)| (n, s.to_owned()))
    .collect();
    v.push(("300-letter word", long));
    v
}

/// Characters no embedded font covers: each must draw exactly one warning per field, and still
/// round-trip in JSON and Markdown.
const UNCOVERED: &str = "Egyptian \u{13000}";

fn ok(o: &Output, what: &str) {
    assert_eq!(o.status.code(), Some(0), "{what}: {}", stderr(o));
}

/// One placed value: where it went and what it holds.
#[derive(Debug, Clone)]
struct Placed {
    /// `file: path` of the field.
    field: String,
    /// Index into [`payloads`].
    payload: usize,
    /// The marker `Q<n>` following the payload.
    marker: String,
    /// The value as written in the content (`PAYLOAD Q<n>`).
    value: String,
    /// The whole string written (the value, then any inline rolls the field had).
    written: String,
    /// Whether the field is a chapter's prose or title.
    prose: bool,
}

struct Rewriter {
    payloads: Vec<String>,
    placed: Vec<Placed>,
    /// `(lookup id, old key)` → new key, for keys other content refers to.
    keys: BTreeMap<(String, String), String>,
}

/// Keys the case roller reads by name (crates/content/src/roll/case/), and the attributes and classes the
/// detective roller reads by name (crates/content/src/roll/detective.rs: the six attributes; a background
/// table per class is named after the class): they stay as written.
const KEPT_KEYS: [&str; 15] = [
    "Each Break in the case",
    "Victim is a police officer",
    "High-profile, respected suspect",
    "Suspect from an ethnic minority",
    "Suspect from a despised minority",
    "Strength (STR)",
    "Dexterity (DEX)",
    "Constitution (CON)",
    "Intelligence (INT)",
    "Wisdom (WIS)",
    "Charisma (CHA)",
    "Fighter",
    "Rogue",
    "Scholar",
    "Hotshot",
];

/// Lookups whose values name keys of another lookup, and tables whose results are numbers a generator
/// reads (NPC levels): their values stay as written.
const KEPT_VALUES: [&str; 2] = ["bbb.character.forced_attribute", "bbb.npc.level"];

impl Rewriter {
    fn next(&mut self, field: String, prose: bool) -> String {
        let n = self.placed.len();
        assert!(n < 10_000, "markers are Q and four digits");
        let payload = n % self.payloads.len();
        let marker = format!("Q{n:04}");
        let value = format!("{} {marker}", self.payloads[payload]);
        self.placed.push(Placed {
            field,
            payload,
            marker,
            value: value.clone(),
            written: value.clone(),
            prose,
        });
        value
    }

    fn replace(&mut self, t: &mut Table, key: &str, field: &str) {
        if let Some(Value::String(s)) = t.get_mut(key) {
            *s = self.next(format!("{field}.{key}"), false);
        }
    }

    /// A result or text value: the payload, then the text's inline rolls and references as they were.
    fn replace_result(&mut self, s: &mut String, field: String) {
        let kept: Vec<&str> = s
            .match_indices('{')
            .map(|(i, _)| &s[i..=i + s[i..].find('}').unwrap()])
            .collect();
        let kept = kept.join(" ");
        let value = self.next(field, false);
        *s = if kept.is_empty() {
            value
        } else {
            format!("{value} {kept}")
        };
        self.placed.last_mut().unwrap().written = s.clone();
    }

    /// First pass: new keys for every lookup entry but the ones the roller reads.
    fn plan_keys(&mut self, file: &str, doc: &mut Table) {
        let Some(Value::Array(lookups)) = doc.get_mut("lookup") else {
            return;
        };
        for l in lookups {
            let l = l.as_table_mut().unwrap();
            let id = l["id"].as_str().unwrap().to_owned();
            for (i, e) in l["entries"].as_array_mut().unwrap().iter_mut().enumerate() {
                let e = e.as_table_mut().unwrap();
                let key = e["key"].as_str().unwrap().to_owned();
                if KEPT_KEYS.contains(&key.as_str()) {
                    continue;
                }
                let new = self.next(format!("{file}: lookup {id} entries[{i}].key"), false);
                e.insert("key".into(), Value::String(new.clone()));
                self.keys.insert((id.clone(), key), new);
            }
        }
    }

    fn rewrite(&mut self, file: &str, doc: &mut Table) {
        let class_lookup = doc.get("lookup").and_then(|l| {
            l.as_array()?.iter().find_map(|l| {
                (l.get("role")?.as_str()? == "class").then(|| l["id"].as_str().unwrap().to_owned())
            })
        });
        if let Some(Value::Array(tables)) = doc.get_mut("table") {
            for t in tables {
                let t = t.as_table_mut().unwrap();
                let id = t["id"].as_str().unwrap().to_owned();
                let f = format!("{file}: table {id}");
                for k in ["title", "note", "editorial"] {
                    self.replace(t, k, &f);
                }
                let keys_of = t.get("keys_of").and_then(|k| k.as_str()).map(str::to_owned);
                let kept = KEPT_VALUES.contains(&id.as_str());
                for (i, r) in t["rows"].as_array_mut().unwrap().iter_mut().enumerate() {
                    let r = r.as_table_mut().unwrap();
                    let Value::String(result) = r.get_mut("result").unwrap() else {
                        panic!()
                    };
                    match &keys_of {
                        Some(l) => {
                            *result = self.keys[&(l.clone(), result.clone())].clone();
                        }
                        None if kept => {}
                        None => self.replace_result(result, format!("{f} rows[{i}].result")),
                    }
                    self.replace(r, "editorial", &format!("{f} rows[{i}]"));
                }
            }
        }
        if let Some(Value::Array(lookups)) = doc.get_mut("lookup") {
            for l in lookups {
                let l = l.as_table_mut().unwrap();
                let id = l["id"].as_str().unwrap().to_owned();
                let f = format!("{file}: lookup {id}");
                for k in ["title", "key", "value", "note", "editorial"] {
                    self.replace(l, k, &f);
                }
                let text =
                    l["kind"].as_str() == Some("text") && !KEPT_VALUES.contains(&id.as_str());
                for (i, e) in l["entries"].as_array_mut().unwrap().iter_mut().enumerate() {
                    let e = e.as_table_mut().unwrap();
                    if text && let Some(Value::String(v)) = e.get_mut("value") {
                        self.replace_result(v, format!("{f} entries[{i}].value"));
                    }
                    for k in ["note", "editorial"] {
                        self.replace(e, k, &format!("{f} entries[{i}]"));
                    }
                }
            }
        }
        if let Some(Value::Array(decks)) = doc.get_mut("deck") {
            for d in decks {
                let d = d.as_table_mut().unwrap();
                let id = d["id"].as_str().unwrap().to_owned();
                let f = format!("{file}: deck {id}");
                for k in ["title", "note", "editorial"] {
                    self.replace(d, k, &f);
                }
                let suits = d.get_mut("suits").unwrap().as_table_mut().unwrap();
                for s in ["hearts", "clubs", "diamonds", "spades"] {
                    self.replace(suits, s, &format!("{f} suits"));
                }
                for s in ["hearts", "clubs", "diamonds", "spades"] {
                    for (i, c) in d[s].as_array_mut().unwrap().iter_mut().enumerate() {
                        *c = Value::String(self.next(format!("{f} {s}[{i}]"), false));
                    }
                }
            }
        }
        if let Some(Value::Array(npcs)) = doc.get_mut("npc") {
            for n in npcs {
                let n = n.as_table_mut().unwrap();
                let id = n["id"].as_str().unwrap().to_owned();
                let f = format!("{file}: npc {id}");
                for k in ["name", "mastery"] {
                    self.replace(n, k, &f);
                }
                let class = n["class"].as_str().unwrap().to_owned();
                // A class kept as written (KEPT_KEYS) has no new key.
                let lookup = class_lookup.clone().or_else(|| {
                    self.keys
                        .keys()
                        .find(|(_, k)| *k == class)
                        .map(|(l, _)| l.clone())
                });
                let new = lookup
                    .and_then(|l| self.keys.get(&(l, class.clone())).cloned())
                    .unwrap_or(class);
                n.insert("class".into(), Value::String(new));
            }
        }
        if let Some(Value::Array(rulings)) = doc.get_mut("ruling") {
            for r in rulings {
                let r = r.as_table_mut().unwrap();
                let id = r["id"].as_str().unwrap().to_owned();
                for k in ["title", "ruling", "reason"] {
                    self.replace(r, k, &format!("{file}: ruling {id}"));
                }
            }
        }
        if let Some(Value::Array(books)) = doc.get_mut("book") {
            for b in books {
                let b = b.as_table_mut().unwrap();
                for k in ["title", "subtitle", "author", "credits"] {
                    self.replace(b, k, &format!("{file}: book"));
                }
            }
        }
    }

    /// A chapter: a new title, and after its prose a heading, a paragraph, a list item, a block quote
    /// and a table cell, each holding a payload written as Markdown source that means the payload.
    fn chapter(&mut self, file: &str, text: &str) -> String {
        let rest = text.strip_prefix("+++\n").unwrap();
        let end = rest.find("\n+++\n").unwrap();
        let mut front: Table = toml::from_str(&rest[..end]).unwrap();
        front.insert(
            "title".into(),
            Value::String(self.next(format!("{file}: title"), true)),
        );
        let body = &rest[end + 5..];
        let mut p = |what: &str| md_source(&self.next(format!("{file}: {what}"), true));
        let heading = p("heading");
        let para = p("paragraph");
        let item = p("list item");
        let quote = p("block quote");
        let cell = p("table cell");
        format!(
            "+++\n{}+++\n{body}\n### {heading}\n\n{para}\n\n- {item}\n- and one more item\n\n> {quote}\n\n| Column | Other |\n|---|---|\n| {cell} | x |\n",
            toml::to_string(&front).unwrap()
        )
    }
}

/// Markdown source that renders as `s`: every ASCII punctuation character backslash-escaped.
fn md_source(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Text as compared: no whitespace, no invisible break opportunities, typographic quotes straight.
fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '\u{200B}' | '\u{2060}'))
        .map(|c| match c {
            '“' | '”' => '"',
            '‘' | '’' => '\'',
            c => c,
        })
        .collect()
}

/// Write the built-in content to `dir` and fill it with payloads.
fn hostile_content(dir: &Path) -> Rewriter {
    ok(&blockprint(&["init", "-q", dir.to_str().unwrap()]), "init");
    let mut rw = Rewriter {
        payloads: payloads().into_iter().map(|(_, s)| s).collect(),
        placed: Vec::new(),
        keys: BTreeMap::new(),
    };
    let mut tomls: Vec<PathBuf> = Vec::new();
    let mut chapters: Vec<PathBuf> = Vec::new();
    fn walk(d: &Path, tomls: &mut Vec<PathBuf>, chapters: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, tomls, chapters);
            } else if p.extension().is_some_and(|x| x == "toml") {
                tomls.push(p);
            } else if p.extension().is_some_and(|x| x == "md")
                && p.parent().unwrap().ends_with("srd")
            {
                chapters.push(p);
            }
        }
    }
    walk(dir, &mut tomls, &mut chapters);
    // The suite checks the Block by Block documents (the SRD, the tables reference): the chase kits'
    // content (other games, `content/<game>/`) never reaches them, so it keeps its own text here.
    tomls.retain(|p| p.strip_prefix(dir).is_ok_and(|r| r.starts_with("bbb")));
    tomls.sort();
    chapters.sort();
    let name = |p: &Path| p.strip_prefix(dir).unwrap().display().to_string();
    let mut docs: Vec<(PathBuf, Table)> = tomls
        .iter()
        .map(|p| {
            (
                p.clone(),
                toml::from_str(&std::fs::read_to_string(p).unwrap()).unwrap(),
            )
        })
        .collect();
    for (p, doc) in &mut docs {
        rw.plan_keys(&name(p), doc);
    }
    for (p, doc) in &mut docs {
        rw.rewrite(&name(p), doc);
        std::fs::write(&*p, toml::to_string(doc).unwrap()).unwrap();
    }
    for p in &chapters {
        let text = std::fs::read_to_string(p).unwrap();
        let new = rw.chapter(&name(p), &text);
        std::fs::write(p, new).unwrap();
    }
    rw
}

struct Built {
    _dir: tempfile::TempDir,
    out: PathBuf,
    plain: PathBuf,
    rw: Rewriter,
    stderr: String,
}

/// The hostile content built once for every test: `build --count 3 --seed 8` (tables Markdown and JSON,
/// case packets in every format, the SRD PDF and Markdown), `srd --format json`, `tables --json`; and the
/// plain content's Markdown for comparison.
fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let content = dir.path().join("content");
        let rw = hostile_content(&content);
        let c = content.to_str().unwrap();
        let out = dir.path().join("out");
        let o = out.to_str().unwrap();
        let check = blockprint(&["check", "--content", c]);
        ok(&check, "check");
        let b = blockprint(&[
            "build",
            "-q",
            "--content",
            c,
            "--count",
            "3",
            "--seed",
            "8",
            "--out",
            o,
        ]);
        ok(&b, "build");
        let j = blockprint(&[
            "srd",
            "-q",
            "--content",
            c,
            "--format",
            "json",
            "--out",
            &format!("{o}/srd-json"),
        ]);
        ok(&j, "srd json");
        let t = blockprint(&["tables", "--json", "--content", c]);
        ok(&t, "tables");
        std::fs::write(out.join("tables-cli.json"), &t.stdout).unwrap();
        let plain = dir.path().join("plain");
        let p = blockprint(&[
            "build",
            "-q",
            "--count",
            "3",
            "--seed",
            "8",
            "--out",
            plain.to_str().unwrap(),
        ]);
        ok(&p, "plain build");
        if let Ok(d) = std::env::var("BLOCKPRINT_HOSTILE_DUMP") {
            let _ = std::process::Command::new("cp")
                .args(["-r", dir.path().to_str().unwrap(), &d])
                .status();
        }
        let stderr = [&check, &b, &j, &t].iter().map(|o| stderr(o)).collect();
        Built {
            _dir: dir,
            out,
            plain,
            rw,
            stderr,
        }
    })
}

/// The PDF's text as its glyphs stand for it (their `/ToUnicode` text), in logical order: spaces and
/// break opportunities left out, each right-to-left run of a line reversed back (typst draws them in
/// visual order), and the zero-width mark glyphs of a cluster skipped (typst maps every glyph of a
/// cluster to the whole cluster's text, so its base glyph already stands for the marks).
fn pdf_text(pages: &[glyphs::Page]) -> String {
    fn rtl(t: &str) -> bool {
        t.chars().next().is_some_and(|c| {
            matches!(c, '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}')
        })
    }
    let mut out = String::new();
    for page in pages {
        let mut run: Vec<&str> = Vec::new();
        let mut run_y = f64::NAN;
        let mut last_y = f64::NAN;
        for g in &page.glyphs {
            let t = g.text.as_str();
            if t.chars().all(|c| c.is_whitespace() || c == '\u{200B}')
                || (g.w < 0.01 && t.chars().any(mark))
            {
                continue;
            }
            if !run.is_empty() && (!rtl(t) || (g.y - run_y).abs() > 0.5) {
                run.drain(..).rev().for_each(|r| out.push_str(r));
            }
            if (g.y - last_y).abs() > 0.5 {
                out.push(LINE);
            }
            last_y = g.y;
            if rtl(t) {
                run.push(t);
                run_y = g.y;
            } else {
                out.push_str(t);
            }
        }
        run.drain(..).rev().for_each(|r| out.push_str(r));
        out.push('\u{1}');
    }
    // typst's `/ToUnicode` is per glyph, not per use: a hyphen glyph first used for a hyphenation break
    // reads as U+00AD everywhere, and a base letter first used without marks reads without them. So the
    // PDF is compared with combining marks left out and U+00AD read as `-`.
    fold(&out)
        .chars()
        .filter(|&c| !mark(c))
        .map(|c| if c == '\u{AD}' { '-' } else { c })
        .collect()
}

/// Line ends in [`pdf_text`].
const LINE: char = '\u{2}';

fn mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}' | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

/// Whether the PDF text holds the placement: its marker as a whole token, preceded by the payload. A
/// line end may fall anywhere, and a hyphen before a line end may be one typst added (hyphenation).
fn pdf_has(hay: &str, p: &Placed) -> bool {
    let hay: Vec<char> = hay.chars().collect();
    let want: Vec<char> = fold(&p.value).chars().filter(|&c| !mark(c)).collect();
    let marker: Vec<char> = p.marker.chars().collect();
    let body = &want[..want.len() - marker.len()];
    (0..hay.len().saturating_sub(marker.len())).any(|end| {
        // Markers are `Q` and four digits: none is the start of another.
        hay[end..].starts_with(&marker) && back(&hay[..end], body)
    })
}

/// Whether `hay` ends with `body`, skipping line ends and hyphens before them.
fn back(hay: &[char], body: &[char]) -> bool {
    match (hay.split_last(), body.split_last()) {
        (_, None) => true,
        (None, Some(_)) => false,
        (Some((&LINE, rest)), _) => {
            back(rest, body) || (rest.last() == Some(&'-') && back(&rest[..rest.len() - 1], body))
        }
        (Some((h, rest)), Some((b, brest))) => h == b && back(rest, brest),
    }
}

/// Every glyph of `pdf` inside the text area: between the side margins (`margin` mm, less half a point)
/// and on the page. Rotated text (the case file's rubber stamps) and spaces are left out.
fn glyphs_inside(pages: &[glyphs::Page], margin_mm: f64, what: &str) {
    let margin = margin_mm / 25.4 * 72.0;
    let mut seen = 0;
    for page in pages {
        for g in page
            .glyphs
            .iter()
            .filter(|g| g.upright && g.w > 0.01 && !g.text.trim().is_empty())
        {
            seen += 1;
            // typst hangs punctuation at a line's end into the margin (`overhang`): by its own width.
            let hangs = g.text.chars().all(|c| {
                matches!(
                    c,
                    ',' | '.'
                        | ';'
                        | ':'
                        | '-'
                        | '–'
                        | '—'
                        | '\u{AD}'
                        | '’'
                        | '”'
                        | '\''
                        | '"'
                        | ')'
                )
            });
            let right = if hangs { g.x } else { g.x + g.w };
            assert!(
                g.x >= margin - 0.5 && right <= page.width - margin + 0.5,
                "{what}: `{}` ({}) at x {:.1}–{:.1}, y {:.1} on page {} leaves the text area ({margin:.1}–{:.1})",
                g.text,
                g.font,
                g.x,
                g.x + g.w,
                g.y,
                g.page + 1,
                page.width - margin
            );
            assert!(
                g.y >= 0.0 && g.y + g.size <= page.height,
                "{what}: {g:?} off the page"
            );
        }
    }
    assert!(seen > 500, "{what}: only {seen} glyphs");
}

/// `payload Q<n>` as compared with [`fold`]ed output text.
fn needle(p: &Placed) -> String {
    fold(&p.value)
}

fn names() -> Vec<&'static str> {
    payloads().into_iter().map(|(n, _)| n).collect()
}

/// The placements whose folded text `hay` lacks, described for a failure message.
fn missing_in<'a>(hay: &str, placed: impl IntoIterator<Item = &'a Placed>) -> Vec<String> {
    let names = names();
    placed
        .into_iter()
        .filter(|p| !hay.contains(&needle(p)))
        .map(|p| format!("{} [{}] {}", p.marker, names[p.payload], p.field))
        .collect()
}

fn missing_in_pdf<'a>(hay: &str, placed: impl IntoIterator<Item = &'a Placed>) -> Vec<String> {
    let names = names();
    placed
        .into_iter()
        .filter(|p| !pdf_has(hay, p))
        .map(|p| format!("{} [{}] {}", p.marker, names[p.payload], p.field))
        .collect()
}

fn srd_file(dir: &Path, ext: &str) -> PathBuf {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        // The folder's manifest.json is the batch's record, not the document.
        .find(|p| p.extension().is_some_and(|x| x == ext) && !p.ends_with("manifest.json"))
        .unwrap_or_else(|| panic!("no .{ext} in {}", dir.display()))
}

/// Every Markdown file under `dir`, relative path → text.
fn markdown(dir: &Path) -> BTreeMap<String, String> {
    crate::support::tree(dir)
        .into_iter()
        .filter(|(k, _)| k.ends_with(".md"))
        .map(|(k, v)| (k, String::from_utf8(v).unwrap()))
        .collect()
}

/// What a Markdown file shows, read with pulldown-cmark as mdBook does: its text (text and code
/// spans, `¦` at every block or inline boundary so nothing matches across cells or paragraphs), its raw
/// HTML and its link destinations.
struct Md {
    text: String,
    html: Vec<String>,
    links: Vec<String>,
}

fn read_md(src: &str) -> Md {
    let opts = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut md = Md {
        text: String::new(),
        html: Vec::new(),
        links: Vec::new(),
    };
    for e in Parser::new_ext(src, opts) {
        match e {
            Event::Text(t) | Event::Code(t) => md.text.push_str(&t),
            Event::SoftBreak | Event::HardBreak => md.text.push(' '),
            Event::Html(h) | Event::InlineHtml(h) => {
                md.html.push(h.to_string());
                md.text.push('¦');
            }
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                md.links.push(dest_url.to_string());
                md.text.push('¦');
            }
            _ => md.text.push('¦'),
        }
    }
    md.text = fold(&md.text);
    md
}

#[test]
fn hostile_content_checks_and_builds_without_a_warning() {
    let b = built();
    assert_eq!(b.stderr, "", "no warning of any kind, no missing glyph");
    let n = payloads().len();
    assert!(n >= 30);
    // Every payload in many places, and every kind of field holds some payload.
    let mut per_payload = vec![0; n];
    for p in &b.rw.placed {
        per_payload[p.payload] += 1;
    }
    assert!(per_payload.iter().all(|&k| k >= 20), "{per_payload:?}");
    for field in [
        ": table bbb.homicide.district.title",
        ": table bbb.homicide.district.note",
        ": table bbb.homicide.victim_gender.editorial",
        ": table bbb.homicide.district rows[0].result",
        ": table bbb.homicide.district rows[0].editorial",
        ": table bbb.homicide.time_elapsed rows[0].result",
        ": table bbb.names.black.male rows[0].result",
        ": table bbb.victims rows[0].result",
        ": lookup bbb.casework.sentencing entries[0].key",
        ": lookup bbb.casework.sentencing.title",
        ": lookup bbb.casework.sentencing.key",
        ": lookup bbb.casework.sentencing.value",
        ": lookup bbb.legwork.activities entries[0].value",
        ": lookup bbb.legwork.activities entries[4].note",
        ": deck bbb.chase.city_streets.title",
        ": deck bbb.chase.city_streets suits.hearts",
        ": deck bbb.chase.city_streets spades[12]",
        ": npc bbb.npc.sleazy_senator.name",
        ": ruling bbb.ruling.starting_level.reason",
        "book.toml: book.title",
        "book.toml: book.subtitle",
        "book.toml: book.author",
        "book.toml: book.credits",
        "dice.md: title",
        "dice.md: heading",
        "dice.md: paragraph",
        "dice.md: list item",
        "dice.md: block quote",
        "dice.md: table cell",
    ] {
        assert!(
            b.rw.placed.iter().any(|p| p.field.ends_with(field)),
            "no payload in {field}"
        );
    }
}

/// The case packets' rolled placements: each case's JSON strings, and the placements they hold.
fn case_placements<'a>(b: &'a Built, case: &str) -> (serde_json::Value, Vec<&'a Placed>) {
    let json: serde_json::Value = serde_json::from_slice(
        &std::fs::read(b.out.join(format!("cases/{case}/{case}.json"))).unwrap(),
    )
    .unwrap();
    let text = json.to_string();
    let held: Vec<&Placed> =
        b.rw.placed
            .iter()
            .filter(|p| !p.prose && contains_marker(&text, &p.marker))
            .collect();
    (json, held)
}

/// Whether `text` holds `marker` (all are `Q` and four digits, so none is the start of another).
fn contains_marker(text: &str, marker: &str) -> bool {
    text.contains(marker)
}

#[test]
fn the_pdfs_print_every_payload_as_written_inside_the_page() {
    let b = built();
    let srd = std::fs::read(srd_file(&b.out.join("srd"), "pdf")).unwrap();
    let pages = glyphs::pages(&srd);
    glyphs_inside(&pages, 16.0, "SRD");
    let text = pdf_text(&pages);
    let missing = missing_in_pdf(&text, &b.rw.placed);
    assert!(
        missing.is_empty(),
        "{} of {} placements missing from the SRD PDF:\n{}",
        missing.len(),
        b.rw.placed.len(),
        missing.join("\n")
    );
    // Nothing was read from disk or evaluated: pdf-extract's reading agrees.
    let extracted = pdf_extract::extract_text_from_mem(&srd)
        .unwrap()
        .replace('\u{200B}', "");
    assert!(!extracted.contains("root:x:0") && !text.contains("root:x:0"));
    assert!(
        fold(&extracted).contains("#read(\"/etc/passwd\")Q0000")
            || fold(&extracted).contains(&fold("#read(“/etc/passwd”) Q0000"))
    );
    let mut rolled = 0;
    let mut printed = 0;
    for case in ["1976-01", "1976-02", "1976-03"] {
        let (_, held) = case_placements(b, case);
        rolled += held.len();
        let gm = std::fs::read(b.out.join(format!("cases/{case}/{case}-gm.pdf"))).unwrap();
        let pages = glyphs::pages(&gm);
        glyphs_inside(&pages, 15.0, case);
        let mut text = pdf_text(&pages);
        let handout =
            std::fs::read(b.out.join(format!("cases/{case}/{case}-handout.pdf"))).unwrap();
        let pages = glyphs::pages(&handout);
        glyphs_inside(&pages, 15.0, &format!("{case} handout"));
        text.push_str(&pdf_text(&pages));
        assert!(!text.contains("root:x:0"));
        // A packet prints a selection of what it rolls (the JSON keeps every roll of the Break
        // sequences): the PDFs and the Markdown print the same placements, each as written.
        let md = read_md(
            &std::fs::read_to_string(b.out.join(format!("cases/{case}/{case}.md"))).unwrap(),
        );
        let in_md: Vec<&str> = held
            .iter()
            .filter(|p| md.text.contains(&needle(p)))
            .map(|p| p.marker.as_str())
            .collect();
        let in_pdf: Vec<&str> = held
            .iter()
            .filter(|p| pdf_has(&text, p))
            .map(|p| p.marker.as_str())
            .collect();
        assert_eq!(
            in_pdf, in_md,
            "{case}: the PDFs and the Markdown print different placements"
        );
        assert!(
            in_pdf.len() >= 15,
            "{case}: only {} placements printed",
            in_pdf.len()
        );
        printed += in_pdf.len();
    }
    assert!(
        rolled > 30,
        "only {rolled} placements rolled into the cases"
    );
    assert!(
        printed > 45,
        "only {printed} placements printed in the cases"
    );
}

#[test]
fn the_markdown_shows_every_payload_as_text_and_adds_no_html_or_link() {
    let b = built();
    let srd_md = read_md(&std::fs::read_to_string(srd_file(&b.out.join("srd"), "md")).unwrap());
    let missing = missing_in(&srd_md.text, &b.rw.placed);
    assert!(
        missing.is_empty(),
        "missing from the SRD Markdown:\n{}",
        missing.join("\n")
    );
    // The mdBook source holds the same, spread over its chapter files.
    let book: String = markdown(&b.out.join("srd/book"))
        .values()
        .map(|t| read_md(t).text + "¦")
        .collect();
    // Left alone: the mdBook source has no title page, so the book's subtitle and author (printed in the
    // PDF and the single Markdown file) are not in it.
    let missing = missing_in(
        &book,
        b.rw.placed
            .iter()
            .filter(|p| !p.field.ends_with("book.subtitle") && !p.field.ends_with("book.author")),
    );
    assert!(
        missing.is_empty(),
        "missing from the mdBook source:\n{}",
        missing.join("\n")
    );
    // The tables reference: every table, lookup and deck placement.
    let tables = read_md(&std::fs::read_to_string(b.out.join("tables/tables.md")).unwrap());
    let content = b.rw.placed.iter().filter(|p| {
        (p.field.contains(".toml: table ")
            || p.field.contains(".toml: lookup ")
            || p.field.contains(".toml: deck "))
            && !p.field.ends_with(".editorial")
    });
    let missing = missing_in(&tables.text, content);
    assert!(
        missing.is_empty(),
        "missing from tables.md:\n{}",
        missing.join("\n")
    );
    // No payload turned into HTML or a link: every file has exactly the HTML and links the same build of
    // the plain content has (anchors and links come from ids and chapter slugs, which the payloads left).
    let collect = |root: &Path| {
        let mut html = Vec::new();
        let mut links = Vec::new();
        for (name, src) in markdown(root) {
            let md = read_md(&src);
            let name = if name.starts_with("srd/") && !name.starts_with("srd/book/") {
                "srd/SRD.md".to_owned()
            } else {
                name
            };
            html.extend(md.html.into_iter().map(|h| format!("{name}: {h}")));
            links.extend(md.links.into_iter().map(|l| format!("{name}: {l}")));
        }
        html.sort();
        links.sort();
        (html, links)
    };
    let (html, links) = collect(&b.out);
    let (plain_html, plain_links) = collect(&b.plain);
    assert!(
        !links
            .iter()
            .any(|l| l.contains("javascript:") || l.contains("evil"))
    );
    let diff = |a: &[String], b: &[String]| -> Vec<String> {
        let mut b = b.to_vec();
        a.iter()
            .filter(|x| match b.iter().position(|y| y == *x) {
                Some(i) => {
                    b.remove(i);
                    false
                }
                None => true,
            })
            .cloned()
            .collect()
    };
    // The only HTML beyond the plain build's: blockprint's own anchor for each heading added to a
    // chapter, in the single file (the mdBook chapters carry mdBook's `{#id}` instead), its id made of
    // lower-case letters, digits, `-` and `_` only.
    assert_eq!(
        diff(&plain_html, &html),
        Vec::<String>::new(),
        "plain HTML lost"
    );
    let extra = diff(&html, &plain_html);
    let headings: Vec<&Placed> =
        b.rw.placed
            .iter()
            .filter(|p| p.field.ends_with(": heading"))
            .collect();
    let opens: Vec<&String> = extra.iter().filter(|h| !h.ends_with(": </a>")).collect();
    assert_eq!(extra.len(), 2 * opens.len(), "{extra:?}");
    assert_eq!(opens.len(), headings.len(), "{opens:?}");
    assert!(
        opens.iter().all(|h| h.starts_with("srd/SRD.md: ")),
        "{opens:?}"
    );
    for h in &opens {
        let id = h
            .split_once(": <a id=\"")
            .and_then(|(_, r)| r.strip_suffix("\">"))
            .unwrap_or_else(|| panic!("{h}"));
        // Letters of any script in lower case (content/README.md: a heading's anchor is its text in
        // lower case, spaces as `-`, punctuation dropped), digits, `-` and `_`: nothing HTML could read.
        assert!(
            id.chars()
                .all(|c| (c.is_alphanumeric() && !c.is_uppercase()) || c == '-' || c == '_'),
            "{h}"
        );
        assert!(
            headings
                .iter()
                .any(|p| id.ends_with(&p.marker.to_lowercase())),
            "{h}"
        );
    }
    assert_eq!(
        (diff(&links, &plain_links), diff(&plain_links, &links)),
        (vec![], vec![]),
        "links in the Markdown differ from the plain build's (hostile only, plain only)"
    );
}

/// Every string in a JSON value.
fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

#[test]
fn the_json_carries_every_payload_exactly() {
    let b = built();
    // `tables --json`: every table, lookup and deck string exactly as written.
    let cli: serde_json::Value =
        serde_json::from_slice(&std::fs::read(b.out.join("tables-cli.json")).unwrap()).unwrap();
    let mut all = Vec::new();
    strings(&cli, &mut all);
    let all: std::collections::BTreeSet<String> = all.into_iter().collect();
    let tables: Vec<&Placed> =
        b.rw.placed
            .iter()
            .filter(|p| p.field.contains(".toml: table "))
            .collect();
    assert!(tables.len() > 400);
    let missing: Vec<&str> = tables
        .iter()
        .filter(|p| !all.contains(&p.written))
        .map(|p| p.field.as_str())
        .collect();
    assert!(
        missing.is_empty(),
        "`tables --json` lacks, exactly: {missing:?}"
    );
    // Case JSON keeps the content's own characters: every marker is preceded by its exact payload.
    for case in ["1976-01", "1976-02", "1976-03"] {
        let (json, held) = case_placements(b, case);
        let mut s = Vec::new();
        strings(&json, &mut s);
        let s = s.join("\u{1}");
        for p in held {
            assert!(
                s.contains(&p.value),
                "{case}.json: {} not exactly `{}`",
                p.field,
                p.value
            );
        }
        let markers = s.matches('Q').count();
        assert!(markers > 5, "{case}: {markers}");
    }
    // The template data written as JSON (`tables.json`, the SRD's JSON) holds every placement with
    // typographic quotes, as the PDF template sees it.
    let tables_json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(b.out.join("tables/tables.json")).unwrap()).unwrap();
    let mut t = Vec::new();
    strings(&tables_json, &mut t);
    let t = fold(&t.join("\u{1}"));
    let missing = missing_in(&t, tables.iter().copied());
    assert!(
        missing.is_empty(),
        "tables.json lacks:\n{}",
        missing.join("\n")
    );
    let srd_json: serde_json::Value = serde_json::from_slice(
        &std::fs::read(srd_file(&b.out.join("srd-json/srd"), "json")).unwrap(),
    )
    .unwrap();
    let mut t = Vec::new();
    strings(&srd_json, &mut t);
    let t = fold(&t.join("\u{1}"));
    let missing = missing_in(&t, b.rw.placed.iter().filter(|p| !p.prose));
    assert!(
        missing.is_empty(),
        "the SRD's JSON lacks:\n{}",
        missing.join("\n")
    );
}

/// Write `init` content to `dir/content` and apply `edit` to one of its files.
fn init_with(dir: &Path, file: &str, edit: impl FnOnce(String) -> String) -> PathBuf {
    let content = dir.join("content");
    ok(
        &blockprint(&["init", "-q", content.to_str().unwrap()]),
        "init",
    );
    let path = content.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, edit(text)).unwrap();
    content
}

#[test]
fn a_character_no_font_covers_draws_exactly_one_warning_and_still_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let content = init_with(dir.path(), "bbb/srd/rulings.toml", |t| {
        t.replacen(
            r#"title = "Starting level""#,
            &format!(r#"title = "{UNCOVERED} 警視庁""#),
            1,
        )
    });
    let out = dir.path().join("out");
    let o = blockprint(&[
        "srd",
        "-q",
        "--content",
        content.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--format",
        "pdf,md,json",
    ]);
    ok(&o, "srd");
    let want = format!(
        "warning: Block by Block (srd/srd.typ): “{UNCOVERED} 警視庁” (rulings[0].title) has characters no \
         font has: \u{13000} U+13000, 警 U+8B66, 視 U+8996, 庁 U+5E81; they print as empty boxes: add a \
         font that has them with --font-path DIR"
    );
    assert_eq!(stderr(&o).lines().collect::<Vec<_>>(), [want]);
    let title = format!("{UNCOVERED} 警視庁");
    let md = read_md(&std::fs::read_to_string(out.join("srd/block-by-block-srd.md")).unwrap());
    assert!(md.text.contains(&fold(&title)));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("srd/block-by-block-srd.json")).unwrap())
            .unwrap();
    assert_eq!(json["rulings"][0]["title"], title.as_str());
}

#[test]
fn control_characters_and_raw_html_in_chapters_are_refused_by_file_and_place() {
    // ESC and NUL in TOML strings (escapes), a C1 control in the rulings, BEL in a chapter, raw HTML in
    // a chapter (`<script>`, `</script>`, `<img>`: three errors).
    type Edit = fn(String) -> String;
    let cases: [(&str, Edit); 5] = [
        ("bbb/01-homicide.toml", |t| {
            t.replacen(
                r#"title = "District""#,
                r#"title = "Dis\u001B[31mtrict""#,
                1,
            )
        }),
        ("bbb/01-homicide.toml", |t| {
            t.replacen(
                r#"result = "Industrial area""#,
                r#"result = "Industrial\u0000area""#,
                1,
            )
        }),
        ("bbb/srd/rulings.toml", |t| {
            t.replacen(
                r#"title = "Starting level""#,
                r#"title = "Start\u0085ing level""#,
                1,
            )
        }),
        ("bbb/srd/dice.md", |t| t + "\nA bell \u{7} rings.\n"),
        ("bbb/srd/dice.md", |t| {
            t + "\nSee <script>alert(1)</script> and <img src=x onerror=alert(1)>.\n"
        }),
    ];
    for (i, (file, edit)) in cases.iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        let content = init_with(dir.path(), file, *edit);
        let c = content.to_str().unwrap();
        let o = blockprint(&["check", "--content", c, "--format", "json"]);
        assert_eq!(o.status.code(), Some(1), "case {i}: {}", stderr(&o));
        let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let errors: Vec<(String, String)> = report["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["kind"].as_str().unwrap().to_owned(),
                    e["file"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let kind = if i == 4 {
            "raw_html"
        } else {
            "control_character"
        };
        let n = if i == 4 { 3 } else { 1 };
        assert_eq!(
            errors,
            vec![(kind.to_owned(), (*file).to_owned()); n],
            "case {i}"
        );
        // Nothing is built from refused content, and the terminal never sees the raw character.
        let out = dir.path().join("out");
        let b = blockprint(&[
            "build",
            "-q",
            "--content",
            c,
            "--seed",
            "1",
            "--count",
            "1",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(b.status.code(), Some(1), "case {i}");
        assert!(stderr(&b).contains(file), "case {i}: {}", stderr(&b));
        assert!(!stderr(&b).contains(['\u{1B}', '\u{0}', '\u{85}', '\u{7}']));
        assert!(
            !out.exists() || crate::support::tree(&out).is_empty(),
            "case {i}: files written"
        );
    }
}
