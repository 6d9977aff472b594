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

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use pulldown_cmark::{Event, Options, Parser, Tag};
use support::glyphs;
use toml::{Table, Value};

/// Payloads that every output must print as written. Straight quotes may come out curly (content text
/// gets typographic quotes), nothing else may change.
fn payloads() -> Vec<(&'static str, String)> {
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

fn blockprint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_blockprint"))
        .args(args)
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .expect("run blockprint")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

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
    /// Whether the field is a chapter's prose or title.
    prose: bool,
}

struct Rewriter {
    payloads: Vec<String>,
    placed: Vec<Placed>,
    /// `(lookup id, old key)` → new key, for keys other content refers to.
    keys: BTreeMap<(String, String), String>,
}

/// Keys the case roller reads by name (src/roll/case.rs): they stay as written.
const KEPT_KEYS: [&str; 5] = [
    "Each Break in the case",
    "Victim is a police officer",
    "High-profile, respected suspect",
    "Suspect from an ethnic minority",
    "Suspect from a despised minority",
];

impl Rewriter {
    fn next(&mut self, field: String, prose: bool) -> String {
        let n = self.placed.len();
        let payload = n % self.payloads.len();
        let marker = format!("Q{n:04}");
        let value = format!("{} {marker}", self.payloads[payload]);
        self.placed.push(Placed {
            field,
            payload,
            marker,
            value: value.clone(),
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
    }

    /// First pass: new keys for every lookup entry but the ones the roller reads.
    fn plan_keys(&mut self, file: &str, doc: &mut Table) {
        let Some(Value::Array(lookups)) = doc.get_mut("lookup") else {
            return;
        };
        for l in lookups {
            let l = l.as_table_mut().unwrap();
            let id = l["id"].as_str().unwrap().to_owned();
            for (i, e) in l["entries"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .enumerate()
            {
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
                for (i, r) in t["rows"].as_array_mut().unwrap().iter_mut().enumerate() {
                    let r = r.as_table_mut().unwrap();
                    let Value::String(result) = r.get_mut("result").unwrap() else {
                        panic!()
                    };
                    match &keys_of {
                        Some(l) => {
                            *result = self.keys[&(l.clone(), result.clone())].clone();
                        }
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
                let text = l["kind"].as_str() == Some("text");
                for (i, e) in l["entries"]
                    .as_array_mut()
                    .unwrap()
                    .iter_mut()
                    .enumerate()
                {
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
                let lookup = class_lookup
                    .clone()
                    .or_else(|| {
                        self.keys
                            .keys()
                            .find(|(_, k)| *k == class)
                            .map(|(l, _)| l.clone())
                    })
                    .unwrap();
                n.insert(
                    "class".into(),
                    Value::String(self.keys[&(lookup, class)].clone()),
                );
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
    tomls.sort();
    chapters.sort();
    let name = |p: &Path| p.strip_prefix(dir).unwrap().display().to_string();
    let mut docs: Vec<(PathBuf, Table)> = tomls
        .iter()
        .map(|p| (p.clone(), toml::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()))
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
        let b = blockprint(&["build", "-q", "--content", c, "--count", "3", "--seed", "8", "--out", o]);
        ok(&b, "build");
        let j = blockprint(&["srd", "-q", "--content", c, "--format", "json", "--out", &format!("{o}/srd-json")]);
        ok(&j, "srd json");
        let t = blockprint(&["tables", "--json", "--content", c]);
        ok(&t, "tables");
        std::fs::write(out.join("tables-cli.json"), &t.stdout).unwrap();
        let plain = dir.path().join("plain");
        let p = blockprint(&["build", "-q", "--count", "3", "--seed", "8", "--out", plain.to_str().unwrap()]);
        ok(&p, "plain build");
        if let Ok(d) = std::env::var("BLOCKPRINT_HOSTILE_DUMP") {
            let _ = std::process::Command::new("cp").args(["-r", dir.path().to_str().unwrap(), &d]).status();
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

#[test]
fn dump() {
    let b = built();
    eprintln!("{}", b.stderr);
    eprintln!("{} placed", b.rw.placed.len());
}
