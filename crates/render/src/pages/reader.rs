//! The reader lint: what a page may show depends on who reads it ([`Audience`]). The geometry checks
//! ([`super::check`]) see ink; this one reads the words, line by line as they print, and the PDF's
//! metadata (title, subject, keywords, and what made it: [`maker_of`]), and finds the program showing
//! through the paper.
//!
//! On player and reader paper (a case's handout, a detective, a deck; the SRD) nothing of the program may
//! show ([`Rule`]): no seed, hash or content version, no content or rule id, no command line, no README or
//! file name, no raw Markdown, no template placeholder, and no dice notation beyond plain dice (`2d6`,
//! `d100`) where words serve (`2d10kl1`, `d%b1`, `1dF+1`, `1d6!`). The SRD names the program in its
//! colophon only (a page marked `#metadata("colophon") <bp-page>`).
//!
//! GM paper may use dice notation where the page says how to read it (a page marked
//! `#metadata("key") <bp-key>` beside the key), and may speak of seeds; it shows no ids, hashes, command
//! lines, raw Markdown or placeholders either.

use std::sync::LazyLock;

use regex::Regex;
use typst::foundations::Value;
use typst::layout::Transform;
use typst::model::Document as _;
use typst_layout::PagedDocument;

pub use blockprint_kind::Audience;

use super::{Context, Fault, Offence, Page, Run, offence, short, walk};

/// What the lint looks for: each rule says what it finds and on whose paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rule {
    /// A seed (a player could regenerate the GM's secrets from it).
    Seed,
    /// A hash or the content's version.
    Hash,
    /// A content or rule id (`bbb.homicide.district`, `sp.ruling.pool`).
    Id,
    /// A command line or an option (`blockprint case`, `--seed 7`).
    CommandLine,
    /// The README or a file name.
    File,
    /// Markdown that was never rendered (backticks, `**`, `[text](link)`).
    Markdown,
    /// A template placeholder (`<campaign folder>`, `{{ name }}`).
    Placeholder,
    /// Dice notation where words serve (`2d10kl1`, `d%b1`, `1dF+1`).
    Notation,
    /// The program's name outside the colophon.
    Program,
}

impl Rule {
    /// Every rule, in the order offences are listed.
    pub const ALL: [Rule; 9] = [
        Rule::Seed,
        Rule::Hash,
        Rule::Id,
        Rule::CommandLine,
        Rule::File,
        Rule::Markdown,
        Rule::Placeholder,
        Rule::Notation,
        Rule::Program,
    ];

    /// What the rule finds, in words.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Seed => "a seed",
            Rule::Hash => "a hash or content version",
            Rule::Id => "a content or rule id",
            Rule::CommandLine => "a command line",
            Rule::File => "a README or file reference",
            Rule::Markdown => "raw Markdown",
            Rule::Placeholder => "a template placeholder",
            Rule::Notation => "dice notation where words serve",
            Rule::Program => "the program's name outside the colophon",
        }
    }

    /// What to do instead.
    fn fix(self) -> &'static str {
        match self {
            Rule::Seed | Rule::Hash | Rule::Id | Rule::CommandLine | Rule::File => {
                "leave it to the files beside the PDF"
            }
            Rule::Markdown => "render it or print the words",
            Rule::Placeholder => "fill it in or leave it out",
            Rule::Notation => "say it in words, or print a key on the page",
            Rule::Program => "name it in the colophon only",
        }
    }

    /// Whether the rule holds on this audience's paper.
    pub fn applies(self, audience: Audience) -> bool {
        match audience {
            // Neither a player's nor a reader's paper names the program (a reader's colophon may).
            Audience::Player => true,
            Audience::Reader => true,
            Audience::Gm => matches!(
                self,
                Rule::Hash
                    | Rule::Id
                    | Rule::CommandLine
                    | Rule::Markdown
                    | Rule::Placeholder
                    | Rule::Notation
            ),
        }
    }

    fn patterns(self) -> &'static [Regex] {
        static PATTERNS: LazyLock<Vec<Vec<Regex>>> = LazyLock::new(|| {
            let re = |s: &str| Regex::new(s).expect("a reader-lint pattern");
            Rule::ALL
                .iter()
                .map(|rule| match rule {
                    Rule::Seed => vec![re(r"(?i)\bseeds?\b"), re(r"(?i)\bbatch\s*[#:=]?\s*\d")],
                    // Hex of 8 or more with a figure and a letter (no English word is one), or the words.
                    Rule::Hash => vec![
                        re(r"\b(?:[0-9a-f]*[0-9][0-9a-f]*[a-f][0-9a-f]*|[0-9a-f]*[a-f][0-9a-f]*[0-9][0-9a-f]*)\b"),
                        re(r"(?i)\bcontent\s+(?:version|hash)\b"),
                    ],
                    // Dotted lowercase parts (`coc.collisions`, `bbb.homicide.district`); an
                    // abbreviation (`e.g.`) or a web address is not an id.
                    Rule::Id => vec![re(r"\b[a-z][a-z0-9_]+(?:\.[a-z][a-z0-9_]*)+\b")],
                    Rule::CommandLine => vec![
                        re(r"(?:^|[\s(\[“])--[a-z][a-z0-9-]+"),
                        re(concat!(
                            r"(?i)\bblockprint\s+(?:build|make|case|srd|detective|npc|sheet|deck|cards|kit|",
                            r"export|chase|odds|roll|check|campaign|init|studio|serve|completions|manpage|help)\b"
                        )),
                        re(r"\bcargo\s+(?:run|test|install|build)\b"),
                    ],
                    Rule::File => vec![
                        re(r"\bREADME\b"),
                        re(r"\b[\w-]+\.(?:md|toml|json|csv|typ|j2|txt|png|pdf)\b"),
                    ],
                    Rule::Markdown => vec![re(r"`"), re(r"\*\*[^\s*]|__[A-Za-z]"), re(r"\]\(")],
                    Rule::Placeholder => vec![
                        re(r"<[a-z][a-z _-]*>"),
                        re(r"\{\{|\}\}|\{%|%\}"),
                        re(r"\b(?:TODO|FIXME|XXX)\b"),
                    ],
                    Rule::Notation => vec![
                        // Keep, drop, count, bonus, penalty, reroll, explode; Fate dice.
                        re(r"(?i)\b\d*d(?:\d+|%)(?:k[hl]?\d|d[hl]\d|cs|[bp]\d|r\d|!)"),
                        re(r"\b\d*dF\b"),
                        re(r"(?:\b\d*d\d+|\bd%)\s*(?:>=|<=|=>|≥|≤)"),
                    ],
                    Rule::Program => vec![re(r"(?i)\bblockprint\b")],
                })
                .collect()
        });
        &PATTERNS[self as usize]
    }

    /// The first place in `text` the rule finds (byte range), when it holds there.
    fn find(self, text: &str) -> Option<std::ops::Range<usize>> {
        self.patterns()
            .iter()
            .filter_map(|p| {
                p.find_iter(text)
                    .find(|m| self.accepts(&text[m.range()]))
                    .map(|m| m.range())
            })
            .min_by_key(|r| r.start)
    }

    fn accepts(self, found: &str) -> bool {
        match self {
            Rule::Hash if !found.contains(' ') => found.len() >= 8,
            // A web address (`example.com`, `www.…`) is not an id.
            Rule::Id => {
                let parts: Vec<&str> = found.split('.').collect();
                (parts.len() > 2 || parts[1].len() > 2)
                    && !parts.contains(&"www")
                    && !matches!(
                        parts.last().copied(),
                        Some("com" | "org" | "net" | "io" | "uk" | "de" | "fr" | "edu" | "gov")
                    )
            }
            // An HTML tag is content printed as written (hostile content keeps `<b>` and `<script>`
            // literally, as the hostile suite asks), not a template's blank such as `<campaign folder>`.
            Rule::Placeholder => {
                !HTML_TAGS.contains(&found.trim_start_matches('<').trim_end_matches('>'))
            }
            _ => true,
        }
    }
}

/// Element names of HTML that content may hold as text (`<b>`, `<script>`): never a placeholder.
const HTML_TAGS: &[&str] = &[
    "a", "abbr", "b", "big", "blink", "body", "br", "button", "code", "del", "div", "em", "embed",
    "font", "form", "head", "hr", "html", "i", "iframe", "img", "input", "ins", "li", "link",
    "marquee", "meta", "object", "ol", "p", "pre", "q", "s", "script", "small", "span", "strike",
    "strong", "style", "sub", "sup", "svg", "table", "td", "th", "title", "tr", "tt", "u", "ul",
];

/// Whether dice notation is more than a reader of plain dice reads (`2d10kl1`, `1d6!`, `d%b1`, `1dF+1`,
/// but not `1d6/2` or `2d6+1`): what the reader lint calls notation where words serve, and what the
/// kinds say in words on player and reader paper.
pub fn needs_words(expr: &str) -> bool {
    Rule::Notation.find(expr).is_some()
}

/// A page's text as it reads: runs on one baseline joined left to right (with a space where ink leaves a
/// gap), a wide gap (another column) starting a new line. Each line keeps, per byte offset, the run it
/// came from.
fn lines(page: &Page) -> Vec<(String, Vec<(usize, &Run)>)> {
    let mut runs: Vec<&Run> = page.runs.iter().collect();
    runs.sort_by(|a, b| {
        (a.inks[0].base.1.round())
            .total_cmp(&b.inks[0].base.1.round())
            .then(a.bbox.x0.total_cmp(&b.bbox.x0))
    });
    let mut out: Vec<(String, Vec<(usize, &Run)>)> = Vec::new();
    let mut last: Option<&Run> = None;
    for r in runs {
        let joined = last.is_some_and(|l| {
            (l.inks[0].base.1 - r.inks[0].base.1).abs() < 2.0
                && r.bbox.x0 >= l.bbox.x1 - 1.0
                && r.bbox.x0 - l.bbox.x1 < 3.0 * l.size.max(r.size)
        });
        if joined {
            let l = last.expect("joined to a run");
            let (text, from) = out.last_mut().expect("a line");
            if r.bbox.x0 - l.bbox.x1 > 0.15 * r.size && !text.ends_with(' ') {
                text.push(' ');
            }
            from.push((text.len(), r));
            text.push_str(&r.text);
        } else {
            out.push((r.text.clone(), vec![(0, r)]));
        }
        last = Some(r);
    }
    out
}

/// The 1-based pages on which a `#metadata(value) <label>` stands.
fn marked(doc: &PagedDocument, label: &str, value: &str) -> Vec<usize> {
    super::refs::marks(doc, label)
        .into_iter()
        .filter(|(v, _)| matches!(v, Value::Str(s) if s.as_str() == value))
        .map(|(_, (page, _, _))| page)
        .collect()
}

/// The offence for `rule` found in `text` at `range`.
fn reading(
    n: usize,
    at: (f64, f64),
    rule: Rule,
    audience: Audience,
    text: &str,
    range: std::ops::Range<usize>,
    place: &str,
) -> Offence {
    // The words around the find, so the text names it.
    let start = text[..range.start]
        .char_indices()
        .rev()
        .nth(15)
        .map_or(0, |(i, _)| i);
    let end = text[range.end..]
        .char_indices()
        .nth(15)
        .map_or(text.len(), |(i, _)| range.end + i);
    offence(
        n,
        at,
        Fault::Reader,
        format!(
            "{}{place} on {} paper: “{}” ({})",
            rule.name(),
            audience.name(),
            short(&text[range]),
            rule.fix()
        ),
        &text[start..end],
    )
}

/// Read every page of `doc` as the reader of each page (`audience`, by 1-based page) would.
pub fn lint(doc: &PagedDocument, audience: impl Fn(usize) -> Audience) -> Vec<Offence> {
    let colophon = marked(doc, "bp-page", "colophon");
    let keyed = marked(doc, "bp-key", "key");
    let mut out = Vec::new();
    for (k, p) in doc.pages().iter().enumerate() {
        let n = k + 1;
        let mut page = Page {
            width: p.frame.width().to_pt(),
            height: p.frame.height().to_pt(),
            ..Page::default()
        };
        let cx = Context {
            ts: Transform::identity(),
            layer: false,
            boxed: None,
            clip: None,
        };
        walk(&p.frame, cx, &mut page);
        let who = audience(n);
        for (text, from) in lines(&page) {
            for rule in Rule::ALL {
                let exempt = match rule {
                    Rule::Program => colophon.contains(&n),
                    Rule::Notation => who == Audience::Gm && keyed.contains(&n),
                    _ => false,
                };
                if !rule.applies(who) || exempt {
                    continue;
                }
                if let Some(range) = rule.find(&text) {
                    let run = from
                        .iter()
                        .rev()
                        .find(|(at, _)| *at <= range.start)
                        .map_or(from[0].1, |(_, r)| *r);
                    let at = (run.bbox.x0, run.bbox.y0);
                    out.push(reading(n, at, rule, who, &text, range, ""));
                }
            }
        }
    }
    out
}

/// Read a PDF's metadata (its title, subject and keywords) as its audience would: the title bar of a
/// viewer and a library's catalogue show them.
pub fn metadata(
    audience: Audience,
    title: &str,
    subject: Option<&str>,
    keywords: &[&str],
) -> Vec<Offence> {
    let keywords = keywords.join(", ");
    let mut out = Vec::new();
    for (field, text) in [
        (" in the PDF's title", Some(title)),
        (" in the PDF's subject", subject),
        (" in the PDF's keywords", Some(keywords.as_str())),
    ] {
        let Some(text) = text else { continue };
        for rule in Rule::ALL {
            if !rule.applies(audience) {
                continue;
            }
            if let Some(range) = rule.find(text) {
                out.push(reading(1, (0.0, 0.0), rule, audience, text, range, field));
            }
        }
    }
    out
}

/// The metadata offences of a typeset document: its title (as the PDF will carry it), subject and
/// keywords.
pub fn metadata_of(doc: &PagedDocument, audience: Audience, title: &str) -> Vec<Offence> {
    let info = doc.info();
    let keywords: Vec<&str> = info.keywords.iter().map(|k| k.as_str()).collect();
    metadata(audience, title, info.description.as_deref(), &keywords)
}

/// What a written PDF says of its maker: the Info dictionary's `/Creator` and `/Producer` and the XMP
/// metadata's `CreatorTool` and `Producer`, read by the audience's rules (the program's name included: a
/// player's or a reader's PDF names no tool). A file that does not parse says nothing here.
pub fn maker_of(pdf: &[u8], audience: Audience) -> Vec<Offence> {
    let mut fields: Vec<(&str, String)> = Vec::new();
    if let Ok(doc) = lopdf::Document::load_mem(pdf) {
        let info = doc
            .trailer
            .get(b"Info")
            .ok()
            .and_then(|o| o.as_reference().ok())
            .and_then(|r| doc.get_dictionary(r).ok());
        for (key, field) in [
            (&b"Creator"[..], " in the PDF's creator"),
            (&b"Producer"[..], " in the PDF's producer"),
        ] {
            if let Some(text) = info
                .and_then(|d| d.get(key).ok())
                .and_then(|o| lopdf::decode_text_string(o).ok())
            {
                fields.push((field, text));
            }
        }
    }
    // The XMP packet is written uncompressed (it must be, for tools that read it without PDF parsing).
    static XMP: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"<(xmp:CreatorTool|pdf:Producer)>([^<]*)<").expect("the XMP pattern")
    });
    let text = String::from_utf8_lossy(pdf);
    for c in XMP.captures_iter(&text) {
        let field = if &c[1] == "xmp:CreatorTool" {
            " in the PDF's XMP creator tool"
        } else {
            " in the PDF's XMP producer"
        };
        fields.push((field, c[2].to_owned()));
    }
    let mut out = Vec::new();
    for (field, text) in &fields {
        for rule in Rule::ALL {
            if !rule.applies(audience) {
                continue;
            }
            if let Some(range) = rule.find(text) {
                out.push(reading(1, (0.0, 0.0), rule, audience, text, range, field));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(rule: Rule, text: &str) -> Option<String> {
        rule.find(text).map(|r| text[r].to_owned())
    }

    #[test]
    fn each_rule_finds_its_fault_and_passes_plain_words() {
        let cases = [
            (Rule::Seed, "rolled from seed 7", "the seedier side of town"),
            (Rule::Hash, "REV. 93e640c4ac51", "a deadbeef decade in 1976"),
            (
                Rule::Id,
                "bbb.homicide.district · p. 9",
                "e.g. a witness, i.e. one",
            ),
            (
                Rule::Id,
                "• coc.collisions · Minor",
                "at 3 p.m. sharp, vs. the clock",
            ),
            (
                Rule::CommandLine,
                "run blockprint case to roll",
                "a case — a long one",
            ),
            (Rule::CommandLine, "try --seed 7", "1976–1977"),
            (Rule::File, "the README explains", "read the rules"),
            (Rule::File, "open handouts.pdf", "Mr. Smith, p.m."),
            (Rule::Markdown, "a `female` tag", "a female tag"),
            (
                Rule::Placeholder,
                "open <campaign folder>",
                "A < B and C > D",
            ),
            (Rule::Placeholder, "ask <name>", "<b>Bold</b> <script>"),
            (
                Rule::Notation,
                "Lose 2d10kl1 points",
                "roll 2d6 and add 3; d100",
            ),
            (Rule::Notation, "1dF+1", "d%"),
            (Rule::Notation, "d%b1", "1d6+1"),
            (Rule::Program, "ask blockprint", "ask the GM"),
        ];
        for (rule, bad, good) in cases {
            assert!(found(rule, bad).is_some(), "{rule:?} missed “{bad}”");
            assert_eq!(found(rule, good), None, "{rule:?} on “{good}”");
        }
        assert_eq!(
            found(Rule::Id, "see www.example.org.uk or bbb.npc.level"),
            Some("bbb.npc.level".into())
        );
    }

    #[test]
    fn gm_paper_keeps_notation_and_seeds_and_the_program_name() {
        assert!(!Rule::Seed.applies(Audience::Gm));
        assert!(Rule::Notation.applies(Audience::Gm));
        assert!(Rule::Id.applies(Audience::Gm));
        assert!(Rule::Program.applies(Audience::Player));
        assert!(Rule::ALL.iter().all(|r| r.applies(Audience::Reader)));
    }

    #[test]
    fn metadata_is_read_by_the_audience_rules() {
        let o = metadata(
            Audience::Player,
            "Case packets — player handouts (batch 7)",
            None,
            &[],
        );
        assert_eq!(o.len(), 1, "{o:#?}");
        assert_eq!(
            o[0].what,
            "a seed in the PDF's title on player paper: “batch 7” (leave it to the files beside the PDF)"
        );
        assert!(metadata(Audience::Gm, "Case packets — GM files (batch 7)", None, &[]).is_empty());
        assert!(
            metadata(
                Audience::Player,
                "Case packets — player handouts",
                None,
                &[]
            )
            .is_empty()
        );
    }
}
