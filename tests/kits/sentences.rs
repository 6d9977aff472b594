//! One text, two outputs: for every document of a kit, each sentence of the PDF's text is in the
//! document's Markdown, and each sentence of the Markdown is in the PDF's text (issue 28, part 2).
//!
//! The PDF's text is read glyph by glyph ([`glyphs`]: where each lands, in drawing order), a new line
//! where the baseline moves. Both texts are then normalised the same way: typographic quotes and
//! apostrophes read as straight ones; hyphens (so a word hyphenated across a PDF line is joined), the
//! Markdown's markup (`**`, `*`, backticks, escapes, table pipes, heading and list markers), bullets,
//! parentheses and every space are dropped (a PDF's spaces are gaps between glyphs, not characters). A
//! sentence ends at `.`, `!` or `?` (not the point of a decimal). A line is also a unit of its own (a
//! table cell, a label): a sentence may begin with lines that are not prose (the cells of the table
//! above it), and then each of those lines must be in the other text by itself, and the rest of the
//! sentence, from a line start on, must be found there whole.
//!
//! Excluded, being page furniture rather than text: the PDF's footer band (the bottom [`FOOTER_MM`] of
//! every page, [`CARD_FOOTER_MM`] of a card sheet's: the kit's source line, page numbers, the generator)
//! and turned text (a card sheet's footer up its margin); in the Markdown, the lines [`EXCLUDED`] names
//! and the table rules (`|---|`).
//!
//! Case is typography (a card's title set in capitals), so both texts are compared in lower case. A PDF
//! line is also split where its glyphs jump back or leave a gap of more than [`GAP_EM`] of their size:
//! cells of a table, or two cards side by side on one baseline, are units of their own.
//!
//! Card sheets print each face as often as the game needs it. Their Markdown names each distinct face
//! once and says how the sheet repeats it in one line that begins `*Print file:*` ([`PRINT_FILE`]). That
//! line describes the print, so it need not be in the PDF, but it is part of the Markdown the PDF is read
//! against: the labels a sheet prints on every copy (the deck on each face, the words on the backs) are
//! found there. A face's set label (`Set 3`) is left out of the PDF's text when the print-file line says
//! how many sets there are, and that number must be the highest set the PDF prints.
//!
//! What it does not see: a line that is not a sentence (a table's cell, a label) is looked for anywhere
//! in the other text run together, so a short one ("1", "wis", "damage") is found almost always, and
//! neither the order of lines nor the card a line is printed on is compared. Requiring each such line
//! to be a line of the other text was tried: the two outputs break lines differently (a card prints "WIS"
//! above "Wisdom: street smarts", its Markdown one cell), and it failed on 11 documents that say the
//! same. Prose, the subject of the test, is compared sentence by sentence.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::glyphs;
use crate::support::{blockprint, ok, s, tree};

/// The footer band of a kit page: every kit's bottom margin is at least this deep, and its footer sits
/// in it.
pub(super) const FOOTER_MM: f64 = 18.0;

/// The footer band of a card sheet: its footer sits between the crop marks and the paper's edge (or runs
/// up its margin, turned), and its last row of cards may reach down into the bottom [`FOOTER_MM`].
const CARD_FOOTER_MM: f64 = 13.0;

/// The footer band of a Letter card sheet: three rows of poker cards leave 6.35 mm under the last, too
/// little for a footer (it runs up the margin, turned, and is not read as upright text), and a card's
/// text reaches down to 11.35 mm from the paper's edge.
const LETTER_CARD_FOOTER_MM: f64 = 6.0;

/// Markdown lines left out of the comparison, by a part they contain: each stands for page furniture
/// the PDF keeps in its footer band.
const EXCLUDED: [&str; 4] = [
    // the generator and content version line that closes the Markdown
    "blockprint 0.",
    // the seeded track's rerun command (the sheet on the table names no seed)
    "Make it again with",
    // the chase odds page's command line (paper shows none: the page says the Markdown gives it)
    "Ask on the command line: `blockprint",
    // the track sheets' round boxes, a row of ☐ under the round numbers in the Markdown
    "☐",
];

/// How a Markdown line describing a card sheet's print begins (see the module's documentation).
pub(super) const PRINT_FILE: &str = "*Print file:*";

/// A gap between two glyphs of one PDF line, in ems of the glyph's size, that starts a new unit: wider
/// than any space of justified prose, narrower than a table's column gap or two cards' margin.
const GAP_EM: f64 = 1.5;

fn excluded(line: &str) -> bool {
    EXCLUDED.iter().any(|e| line.contains(e)) || line.trim_start().starts_with("|---")
}

/// One normalised unit: quotes straight; markup, hyphens, bullets, parentheses and spaces gone.
pub(super) fn norm(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let line = line.trim_start();
    // A Markdown heading or list marker.
    let line = line.trim_start_matches('#').trim_start();
    let line = line.strip_prefix("- ").unwrap_or(line);
    for c in line.chars() {
        match c {
            '’' | '‘' => out.push('\''),
            '“' | '”' => out.push('"'),
            '*' | '`' | '\\' | '|' | '(' | ')' | '-' | '\u{ad}' | '\u{200b}' | '•' | '▶' => {}
            c if c.is_whitespace() => {}
            c => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// The Markdown's units: its lines, a table row one unit per cell; excluded lines gone.
pub(super) fn md_lines(text: &str) -> Vec<String> {
    md_units(text, true)
}

/// The Markdown's units as [`md_lines`], without its print-file lines unless `print_file`.
fn md_units(text: &str, print_file: bool) -> Vec<String> {
    let mut out = Vec::new();
    for l in text.lines() {
        if excluded(l) || (!print_file && l.trim_start().starts_with(PRINT_FILE)) {
            continue;
        }
        if l.trim_start().starts_with('|') {
            out.extend(l.split('|').map(norm).filter(|c| !c.is_empty()));
        } else {
            let n = norm(l);
            if !n.is_empty() {
                out.push(n);
            }
        }
    }
    out
}

/// The PDF's units: its lines, glyph by glyph in drawing order, outside the footer band and upright.
pub(super) fn pdf_lines(pdf: &[u8]) -> Vec<String> {
    pdf_lines_above(&glyphs::pages(pdf), FOOTER_MM)
}

/// [`pdf_lines`] with a footer band `band_mm` deep.
fn pdf_lines_above(pages: &[glyphs::Page], band_mm: f64) -> Vec<String> {
    let band = band_mm * 72.0 / 25.4;
    let mut out = Vec::new();
    for page in pages {
        let mut line = String::new();
        let (mut y, mut end) = (f64::NAN, f64::NAN);
        for g in &page.glyphs {
            if !g.upright || g.y < band {
                continue;
            }
            let apart = g.x > end + GAP_EM * g.size || g.x < end - GAP_EM * g.size;
            if ((g.y - y).abs() > 0.5 || apart) && !line.is_empty() {
                out.push(norm(&line));
                line.clear();
            }
            (y, end) = (g.y, g.x + g.w);
            line.push_str(&g.text);
        }
        if !line.is_empty() {
            out.push(norm(&line));
        }
    }
    out.retain(|l| !l.is_empty());
    out
}

/// Whether `needle` is in `hay` (both normalised: no spaces).
pub(super) fn has(hay: &str, needle: &str) -> bool {
    hay.contains(needle)
}

/// The sentences of `units`, each as (its text, the offsets in it where a unit starts).
fn sentences(units: &[String]) -> Vec<(String, Vec<usize>)> {
    let stop = |c: char| matches!(c, '.' | '!' | '?');
    let close = |c: char| matches!(c, '"' | '\'' | ']');
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut starts = Vec::new();
    for u in units {
        starts.push(cur.len());
        let chars: Vec<char> = u.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            cur.push(c);
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1).copied();
            let ends = if stop(c) {
                let decimal = c == '.'
                    && prev.is_some_and(|p| p.is_ascii_digit())
                    && next.is_some_and(|n| n.is_ascii_digit());
                !decimal && !next.is_some_and(close)
            } else {
                close(c) && prev.is_some_and(stop)
            };
            if ends {
                out.push((std::mem::take(&mut cur), std::mem::take(&mut starts)));
            }
        }
    }
    if !cur.is_empty() {
        out.push((cur, starts));
    }
    for (_, st) in &mut out {
        if st.first() != Some(&0) {
            st.insert(0, 0);
        }
        st.dedup();
    }
    out
}

/// The sentences of `from` that `to` lacks.
pub(super) fn missing(from: &[String], to: &[String]) -> Vec<String> {
    let hay = to.concat();
    let mut out = Vec::new();
    for (text, starts) in sentences(from) {
        let found = starts.iter().any(|&k| {
            // Units before k must each be in the other text; the rest whole.
            let heads = starts.iter().filter(|&&i| i < k).all(|&i| {
                let end = starts
                    .iter()
                    .find(|&&j| j > i)
                    .copied()
                    .unwrap_or(text.len())
                    .min(k);
                has(&hay, &text[i..end])
            });
            heads && has(&hay, &text[k..])
        });
        if !found {
            out.push(text);
        }
    }
    out
}

/// The web addresses of a Markdown (`….com`, `….org`, `….net` with what follows), without the
/// punctuation around them.
fn addresses(md: &str) -> std::collections::BTreeSet<String> {
    md.split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '<' | '>' | '*' | '`'))
        .map(|t| t.trim_end_matches(['.', ',', ';', ':']))
        .filter(|t| {
            [".com", ".org", ".net"].iter().any(|d| {
                t.split(d)
                    .nth(1)
                    .is_some_and(|rest| !rest.starts_with(char::is_alphabetic))
            })
        })
        .map(str::to_owned)
        .collect()
}

/// Where the PDF breaks one of `addresses` over two lines (or columns) anywhere but at a joint: before
/// a `.` or `/` or after an `@` (crates/render/src/wrap.rs). A break inside a word, with or without a
/// hyphen, is reported as the address with `|` where it broke. Every upright line is read, the footer
/// band included.
fn split_addresses(
    pages: &[glyphs::Page],
    addresses: &std::collections::BTreeSet<String>,
) -> Vec<String> {
    let mut out = Vec::new();
    for page in pages {
        // The page's text run together, with where each line after the first starts and whether the
        // line before it ended with a hyphen (dropped from the text).
        let (mut flat, mut breaks, mut y) = (String::new(), Vec::new(), f64::NAN);
        for g in page.glyphs.iter().filter(|g| g.upright) {
            if (g.y - y).abs() > 0.5 && !flat.is_empty() {
                let hyphen = flat.ends_with(['-', '\u{ad}']);
                if hyphen {
                    flat.pop();
                }
                breaks.push((flat.len(), hyphen));
            }
            y = g.y;
            flat.push_str(&g.text.replace('\u{200B}', ""));
        }
        for a in addresses {
            for (start, _) in flat.match_indices(a.as_str()) {
                let end = start + a.len();
                for &(at, hyphen) in breaks
                    .iter()
                    .filter(|(at, _)| (start + 1..end).contains(at))
                {
                    let joint = flat[at..].starts_with(['.', '/']) || flat[..at].ends_with('@');
                    if hyphen || !joint {
                        out.push(format!("{}|{}", &flat[start..at], &flat[at..end]));
                    }
                }
            }
        }
    }
    out
}

/// The number of sets a Markdown's print-file line declares ("… 9 sets …"), if it names one.
fn sets_declared(md: &str) -> Option<u32> {
    let line = md
        .lines()
        .find(|l| l.trim_start().starts_with(PRINT_FILE))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    words.windows(2).find_map(|w| {
        let sets = w[1].trim_end_matches(|c: char| !c.is_alphanumeric());
        (sets == "sets").then(|| w[0].parse().ok()).flatten()
    })
}

/// The set a PDF unit labels, when the unit is a set label and nothing else (`set3`, normalised).
fn set_label(unit: &str) -> Option<u32> {
    let n = unit.strip_prefix("set")?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .then(|| n.parse().ok())
        .flatten()
}

/// Compare the documents `stems` of `dir` (PDF against Markdown); returns the failures.
fn compare(dir: &Path, stems: &[&str], paper: &str) -> Vec<String> {
    let files = tree(dir);
    // Every PDF the command writes is compared: a new document is covered from its first day.
    let mut pdfs: Vec<&str> = files
        .keys()
        .filter_map(|n| n.strip_suffix(".pdf"))
        .collect();
    pdfs.sort_unstable();
    let mut listed = stems.to_vec();
    listed.sort_unstable();
    assert_eq!(pdfs, listed, "the PDFs under {}", dir.display());
    let mut failures = Vec::new();
    for (name, bytes) in &files {
        let Some(stem) = name.strip_suffix(".pdf") else {
            continue;
        };
        let md = files
            .get(&format!("{stem}.md"))
            .unwrap_or_else(|| panic!("{name} has no Markdown beside it"));
        let band = if CARD_SHEETS.contains(&stem) && paper == "letter" {
            LETTER_CARD_FOOTER_MM
        } else if CARD_SHEETS.contains(&stem) {
            CARD_FOOTER_MM
        } else {
            FOOTER_MM
        };
        let pages = glyphs::pages(bytes);
        let mut pdf = pdf_lines_above(&pages, band);
        let md = String::from_utf8(md.clone()).unwrap();
        let (md_all, md_text) = (md_units(&md, true), md_units(&md, false));
        if let Some(sets) = sets_declared(&md) {
            let printed = pdf.iter().filter_map(|u| set_label(u)).max();
            if printed != Some(sets) {
                failures.push(format!(
                    "{stem}.md: the print-file line says {sets} sets, the PDF's highest set label is {printed:?}"
                ));
            }
            pdf.retain(|u| set_label(u).is_none());
        }
        for split in split_addresses(&pages, &addresses(&md)) {
            failures.push(format!(
                "{name}: a web address broken inside a word: {split}"
            ));
        }
        for m in missing(&pdf, &md_all) {
            failures.push(format!("{name}: in the PDF, not the Markdown: {m}"));
        }
        for m in missing(&md_text, &pdf) {
            failures.push(format!("{stem}.md: in the Markdown, not the PDF: {m}"));
        }
    }
    failures
}

/// Where `game`'s documents are made: a kit's folder, for `cards` the reference and approach cards of
/// `blockprint cards`, for `decks` the decks of `blockprint deck`.
fn kit_dir(game: &str, paper: &str, out: &Path) -> std::path::PathBuf {
    if game == "cards" || game == "decks" {
        let kind = if game == "cards" { "cards" } else { "deck" };
        ok(&blockprint(&[
            kind,
            "--paper",
            paper,
            "--out",
            s(out),
            "--force",
        ]));
        return out
            .join("cards")
            .join(if game == "cards" { "bbb" } else { "decks" });
    }
    ok(&blockprint(&[
        "kit",
        game,
        "--paper",
        paper,
        "--out",
        s(out),
        "--force",
    ]));
    out.join("kits").join(game)
}

/// Card sheets of the documents covered, whose footer band is [`CARD_FOOTER_MM`] deep.
const CARD_SHEETS: [&str; 11] = [
    "urban-world-cards",
    "storypath-cards",
    "chase-cards",
    "reference",
    "approach",
    "action-cards",
    "sprint-tokens",
    "deck-foot",
    "deck-city_streets",
    "bbb_chase_foot",
    "bbb_chase_city_streets",
];

/// Every document of every kit, with the reference and approach cards of `blockprint cards` and the
/// decks of `blockprint deck`.
const COVERED: [(&str, &[&str]); 7] = [
    (
        "coc",
        &[
            "chase-odds",
            "hazards",
            "movement",
            "rules",
            "track-blank",
            "track-seeded",
            "vehicles",
        ],
    ),
    (
        "urban-world",
        &["urban-world", "urban-world-cards", "urban-world-chase-odds"],
    ),
    (
        "storypath",
        &["storypath", "storypath-cards", "storypath-chase-odds"],
    ),
    (
        "bbb",
        &[
            "chase",
            "chase-cards",
            "chase-odds",
            "deck-city_streets",
            "deck-foot",
        ],
    ),
    (
        "rbf",
        &[
            "action-cards",
            "chase-odds",
            "rbf-odds",
            "sprint-tokens",
            "sprint-track",
            "track-rbf_track_tenderloin",
        ],
    ),
    ("cards", &["approach", "reference"]),
    ("decks", &["bbb_chase_city_streets", "bbb_chase_foot"]),
];

#[test]
fn kit_pdfs_and_markdown_say_the_same_sentences() {
    // Every kit the registry makes is covered.
    let registry =
        blockprint::generators::Registry::new(&blockprint::render::Templates::builtin()).unwrap();
    let kits: std::collections::BTreeSet<String> = registry
        .kinds()
        .filter_map(|k| k.name().strip_prefix("kit-").map(str::to_owned))
        .collect();
    let covered: std::collections::BTreeSet<String> = COVERED
        .iter()
        .map(|(game, _)| (*game).to_owned())
        .filter(|g| g != "cards" && g != "decks")
        .collect();
    assert_eq!(covered, kits);
    let tmp = tempfile::tempdir().unwrap();
    let failures: BTreeMap<_, _> = COVERED
        .iter()
        .flat_map(|(game, stems)| ["a4", "letter"].map(|paper| (*game, *stems, paper)))
        .map(|(game, stems, paper)| {
            let dir = kit_dir(game, paper, &tmp.path().join(game).join(paper));
            (format!("{game} {paper}"), compare(&dir, stems, paper))
        })
        .filter(|(_, f)| !f.is_empty())
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The comparison itself fails on a sentence one output lacks, and on one whose words changed.
#[test]
fn the_sentence_comparison_catches_a_missing_or_changed_sentence() {
    let units = |t: &str| {
        t.lines()
            .map(norm)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
    };
    let pdf = units(
        "Table\nHard 11%\nBonus dice make a clear stretch\nlikelier, penalty dice an obstacle. Move-\nment costs 1.5 actions.",
    );
    let md = md_lines(
        "| Table |\n|---|\n| Hard | 11% |\n\nBonus dice make a clear stretch likelier, penalty dice an obstacle. Movement costs 1.5 actions.",
    );
    assert_eq!(missing(&pdf, &md), Vec::<String>::new());
    assert_eq!(missing(&md, &pdf), Vec::<String>::new());
    let short = md_lines("Bonus dice make a clear stretch likelier. Movement costs 1.5 actions.");
    assert_eq!(
        missing(&pdf, &short),
        vec!["tablehard11%bonusdicemakeaclearstretchlikelier,penaltydiceanobstacle."]
    );
    let other = md_lines(
        "| Table |\n| Hard | 12% |\n\nBonus dice make a clear stretch likelier, penalty dice an obstacle. Movement costs 1.5 actions.",
    );
    assert_eq!(
        missing(&pdf, &other),
        vec!["tablehard11%bonusdicemakeaclearstretchlikelier,penaltydiceanobstacle."]
    );
}

/// A card sheet's print-file line: it names the sets and the labels every copy carries, which the PDF
/// may print without the Markdown repeating them, and need not be in the PDF itself.
#[test]
fn a_print_file_line_names_the_sets_and_labels_without_being_printed() {
    let md = "## Ready\n\nMove 2\n\n*Print file:* 9 sets of five cards; every back reads READY BOLT FLOW.\n";
    assert_eq!(sets_declared(md), Some(9));
    assert_eq!(sets_declared("*Print file:* one sheet of tokens."), None);
    assert_eq!(set_label("set12"), Some(12));
    assert_eq!(set_label("set"), None);
    assert_eq!(set_label("sets,often2"), None);
    let pdf: Vec<String> = ["READY", "Move 2", "READY BOLT FLOW"]
        .iter()
        .map(|l| norm(l))
        .collect();
    assert_eq!(missing(&pdf, &md_units(md, true)), Vec::<String>::new());
    assert_eq!(missing(&md_units(md, false), &pdf), Vec::<String>::new());
    // Without the print-file line, the backs' words are the PDF's alone; with it compared both ways,
    // its sentence is the Markdown's alone.
    assert_eq!(
        missing(&pdf, &md_units(md, false)),
        vec!["readymove2readyboltflow"]
    );
    assert_eq!(
        missing(&md_units(md, true), &pdf),
        vec!["readymove2printfile:9setsoffivecards;everybackreadsreadyboltflow."]
    );
}
