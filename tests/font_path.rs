//! `--font-path DIR`: a GM's tables in their own language. On an `init` folder holding a table and a
//! deck card in Chinese: without a font that has the characters, each document (the PDFs and the Foundry
//! export's card pictures) warns once, naming the text and the fix; with the folder of a CJK font that a
//! Debian package ships (`fonts-wqy-microhei`, which `.ci/run` installs), the characters are in the PDF
//! and the pictures and nothing warns; the manifest records the font, so the same folder again is
//! nothing to do and a changed one makes everything again. Every command that typesets or draws takes
//! the option; none that typesets nothing does.

use std::path::{Path, PathBuf};

use crate::support::{blockprint, blockprint_env, ok, pdf_text, s, stderr};

/// Where Debian's `fonts-wqy-microhei` puts its font (WenQuanYi Micro Hei: Chinese, Japanese kana,
/// Korean hangul).
const CJK_FONT: &str = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc";

/// The CJK font, or `None` (with a SKIPPED line) when it is not installed, unless
/// `BLOCKPRINT_REQUIRE_CJK_FONT` is set (as `.ci/run` sets it): then the test fails.
fn cjk_font() -> Option<PathBuf> {
    let font = Path::new(CJK_FONT);
    if font.is_file() {
        return Some(font.to_owned());
    }
    assert!(
        std::env::var_os("BLOCKPRINT_REQUIRE_CJK_FONT").is_none(),
        "BLOCKPRINT_REQUIRE_CJK_FONT is set but {CJK_FONT} is missing: apt-get install fonts-wqy-microhei"
    );
    eprintln!("SKIPPED: {CJK_FONT} is missing (Debian's fonts-wqy-microhei; .ci/run installs it)");
    None
}

/// A GM's own table, in Chinese with a few English words.
const TEAHOUSE: &str = r#"[[table]]
id = "mine.teahouse"
title = "茶馆里的客人 (Teahouse guests)"
dice = "1d6"
rows = [
  { on = "1-2", result = "说书人 a storyteller" },
  { on = "3-4", result = "穿西装的商人" },
  { on = "5", result = "警察 off duty" },
  { on = "6", result = "一个不说话的老人" },
]
"#;

/// The first card of the On Foot deck, in Chinese and English.
const CARD: &str = "人群散开了 The crowd thins out ahead";

/// `blockprint init` into `dir/content`, with the teahouse table and the Chinese card.
fn content(dir: &Path) -> PathBuf {
    let content = dir.join("content");
    ok(&blockprint(&["init", "-q", s(&content)]));
    std::fs::create_dir(content.join("mine")).unwrap();
    std::fs::write(content.join("mine/teahouse.toml"), TEAHOUSE).unwrap();
    let decks = content.join("bbb/09-decks.toml");
    let text = std::fs::read_to_string(&decks).unwrap();
    let edited = text.replacen("\"The crowd thins out ahead\"", &format!("\"{CARD}\""), 1);
    assert_ne!(text, edited, "the On Foot deck's first card moved");
    std::fs::write(&decks, edited).unwrap();
    content
}

/// A run with its own card picture cache (so a picture drawn by another test is never found).
fn run(cache: &Path, args: &[&str]) -> std::process::Output {
    blockprint_env(args, &[("BLOCKPRINT_CACHE", s(cache))])
}

const CARD_WARNING: &str = "“人群散开了 The crowd thins out ahead” (faces[0].text) has characters no font has: \
    人 U+4EBA, 群 U+7FA4, 散 U+6563, 开 U+5F00, 了 U+4E86; they print as empty boxes: add a font that has \
    them with --font-path DIR";

#[test]
fn without_a_font_for_them_cjk_characters_are_one_warning_per_document_in_pdfs_and_export() {
    let t = tempfile::tempdir().unwrap();
    let content = content(t.path());
    let out = t.path().join("out");
    let cache = t.path().join("cache");
    let c = s(&content);
    let o = s(&out);

    let deck = run(&cache, &["deck", "-q", "--content", c, "--out", o]);
    ok(&deck);
    assert_eq!(
        stderr(&deck),
        format!("warning: On Foot: obstacle deck (cards/cards.typ): {CARD_WARNING}\n")
    );

    // The export's card pictures are drawn by typst too: the same warning, naming the pictures.
    let export = run(
        &cache,
        &[
            "export",
            "--to",
            "foundry",
            "-q",
            "--content",
            c,
            "--out",
            o,
        ],
    );
    ok(&export);
    assert_eq!(
        stderr(&export),
        format!("warning: the card pictures of On Foot (cards/cards.typ): {CARD_WARNING}\n")
    );
    // Foundry v12 draws the same pictures: warned again, as its own run.
    let v12 = run(
        &cache,
        &[
            "export",
            "--to",
            "foundry",
            "--foundry-version",
            "12",
            "-q",
            "--content",
            c,
            "--out",
            o,
        ],
    );
    ok(&v12);
    assert_eq!(stderr(&export), stderr(&v12));

    // Every table in one PDF: one warning for the document, the first text quoted, the rest counted. The
    // data's decks hold the Chinese card too, but this PDF prints no deck: neither it nor its characters
    // are named.
    let tables = run(
        &cache,
        &["make", "tables", "-q", "--content", c, "--out", o],
    );
    ok(&tables);
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("tables/tables.json")).unwrap()).unwrap();
    let at = json["tables"]
        .as_array()
        .unwrap()
        .iter()
        .position(|t| t["id"] == "mine.teahouse")
        .unwrap();
    assert_eq!(
        stderr(&tables),
        format!(
            "warning: Tables and references (tables/tables.typ): “说书人 a storyteller” \
             (tables[{at}].rows[0].result) and 4 other texts have characters no font has: 说 U+8BF4, \
             书 U+4E66, 人 U+4EBA, 穿 U+7A7F, 西 U+897F, 装 U+88C5, 的 U+7684, 商 U+5546 and 11 more; they \
             print as empty boxes: add a font that has them with --font-path DIR\n"
        )
    );

    // The Markdown and CSV exports need no font: no warning.
    let csv = run(
        &cache,
        &["export", "--to", "csv", "-q", "--content", c, "--out", o],
    );
    ok(&csv);
    assert_eq!(stderr(&csv), "");
}

/// The sha256 of a file, as the manifest writes it.
fn sha256(path: &Path) -> String {
    blockprint::render::manifest::sha256(&std::fs::read(path).unwrap())
}

fn manifest_fonts(dir: &Path) -> serde_json::Value {
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    m.get("fonts").cloned().unwrap_or(serde_json::Value::Null)
}

#[test]
fn with_a_cjk_font_path_the_characters_print_the_manifest_records_the_font_and_a_change_remakes() {
    let Some(font) = cjk_font() else { return };
    let t = tempfile::tempdir().unwrap();
    let content = content(t.path());
    let fonts = t.path().join("my fonts");
    std::fs::create_dir_all(fonts.join("cjk")).unwrap();
    std::fs::copy(&font, fonts.join("cjk/wqy-microhei.ttc")).unwrap();
    let cache = t.path().join("cache");
    let (c, f) = (s(&content), s(&fonts));

    for paper in ["a4", "letter"] {
        let out = t.path().join(paper);
        let o = s(&out);
        let made = run(
            &cache,
            &[
                "make",
                "tables",
                "--content",
                c,
                "--out",
                o,
                "--paper",
                paper,
                "--font-path",
                f,
                "--check-pages",
            ],
        );
        ok(&made);
        assert_eq!(
            stderr(&made),
            format!("wrote tables: 1 document, 3 files (0 already up to date) to {o}/tables\n"),
            "no warning, no page fault"
        );
        let pdf = std::fs::read(out.join("tables/tables.pdf")).unwrap();
        // Compared without white space: the text extractor spaces CJK runs its own way.
        let bare = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        let text = bare(&pdf_text(&pdf));
        for want in [
            "茶馆里的客人",
            "说书人 a storyteller",
            "穿西装的商人",
            "警察 off duty",
            "一个不说话的老人",
        ] {
            assert!(
                text.contains(&bare(want)),
                "{paper}: the tables PDF lacks {want:?}"
            );
        }
        // The PDF embeds the user's font (subset), as it embeds the built-in ones.
        assert!(
            pdf.windows(17).any(|w| w == b"WenQuanYiMicroHei"),
            "{paper}: the font is not in the PDF"
        );
        assert_eq!(
            manifest_fonts(&out.join("tables")),
            serde_json::json!([{ "file": "cjk/wqy-microhei.ttc", "sha256": sha256(&font) }])
        );
        // The same fonts again: nothing to do.
        let again = run(
            &cache,
            &[
                "make",
                "tables",
                "--content",
                c,
                "--out",
                o,
                "--paper",
                paper,
                "--font-path",
                f,
            ],
        );
        ok(&again);
        assert_eq!(
            stderr(&again),
            format!("wrote tables: 1 document, 3 files (3 already up to date) to {o}/tables\n")
        );
    }

    // The deck and its Foundry pictures: no warning, the glyphs drawn.
    let out = t.path().join("a4");
    let o = s(&out);
    let deck = run(
        &cache,
        &["deck", "-q", "--content", c, "--out", o, "--font-path", f],
    );
    ok(&deck);
    assert_eq!(stderr(&deck), "");
    let text = pdf_text(&std::fs::read(out.join("cards/decks/bbb_chase_foot.pdf")).unwrap());
    assert!(text.contains("人群散开了"), "{text}");
    let picture = "export/foundry-v13/cards/bbb_chase_foot/001-front.png";
    let export = |dir: &Path, fonts: &[&str]| {
        let mut args = vec![
            "export",
            "--to",
            "foundry",
            "-q",
            "--content",
            c,
            "--out",
            s(dir),
        ];
        for f in fonts {
            args.extend(["--font-path", f]);
        }
        let o = run(&cache, &args);
        ok(&o);
        (stderr(&o), std::fs::read(dir.join(picture)).unwrap())
    };
    let (said, with_font) = export(&out, &[f]);
    assert_eq!(said, "");
    assert_eq!(
        manifest_fonts(&out.join("export/foundry-v13")),
        serde_json::json!([{ "file": "cjk/wqy-microhei.ttc", "sha256": sha256(&font) }])
    );
    // Drawn without the font (boxes, and the warning), the picture differs; the card picture cache,
    // which keeps both, hands each run its own.
    let plain = t.path().join("plain");
    let (said, boxes) = export(&plain, &[]);
    assert!(said.contains(CARD_WARNING), "{said}");
    assert_ne!(boxes, with_font);
    let (_, from_cache) = export(&t.path().join("cached"), &[f]);
    assert_eq!(from_cache, with_font);

    // A font added to the folder: the manifest names both and every file is made again.
    let more = t.path().join("more");
    std::fs::create_dir(&more).unwrap();
    let serif =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fonts/noto-serif/NotoSerif-Regular.ttf");
    std::fs::copy(&serif, fonts.join("extra.ttf")).unwrap();
    let remade = run(
        &cache,
        &[
            "make",
            "tables",
            "--content",
            c,
            "--out",
            o,
            "--font-path",
            f,
        ],
    );
    ok(&remade);
    assert_eq!(
        stderr(&remade),
        format!("wrote tables: 1 document, 3 files (0 already up to date) to {o}/tables\n")
    );
    assert_eq!(
        manifest_fonts(&out.join("tables")),
        serde_json::json!([
            { "file": "cjk/wqy-microhei.ttc", "sha256": sha256(&font) },
            { "file": "extra.ttf", "sha256": sha256(&serif) },
        ])
    );
    // Two folders, the second holding the same font again: read once, the manifest unchanged.
    std::fs::copy(&serif, more.join("again.ttf")).unwrap();
    let two = run(
        &cache,
        &[
            "make",
            "tables",
            "--content",
            c,
            "--out",
            o,
            "--font-path",
            f,
            "--font-path",
            s(&more),
        ],
    );
    ok(&two);
    assert!(
        stderr(&two).contains("(3 already up to date)"),
        "{}",
        stderr(&two)
    );
    // Without the option again: the manifest names no font, and the warning is back.
    let none = run(&cache, &["make", "tables", "--content", c, "--out", o]);
    ok(&none);
    assert!(stderr(&none).contains("add a font that has them with --font-path DIR"));
    assert_eq!(manifest_fonts(&out.join("tables")), serde_json::Value::Null);
}

#[test]
fn a_font_path_that_is_missing_empty_or_not_fonts_is_refused_naming_it() {
    let t = tempfile::tempdir().unwrap();
    let empty = t.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let bad = t.path().join("bad");
    std::fs::create_dir(&bad).unwrap();
    std::fs::write(bad.join("readme.txt"), "not a font").unwrap();
    std::fs::write(bad.join("broken.otf"), "not a font either").unwrap();
    let out = t.path().join("out");
    let missing = t.path().join("missing");
    let cases = [
        (
            &missing,
            format!(
                "error: --font-path {}: no such folder\n  = help: give a folder that holds font files (.ttf, .otf, .ttc, .otc)\n",
                missing.display()
            ),
        ),
        (
            &empty,
            format!(
                "error: --font-path {}: no font file in the folder or below it\n  = help: give a folder that holds font files (.ttf, .otf, .ttc, .otc)\n",
                empty.display()
            ),
        ),
        (
            &bad,
            format!(
                "error: --font-path {}: {} is no font that can be read\n  = help: take it out of the folder, or give a folder of good font files\n",
                bad.display(),
                bad.join("broken.otf").display()
            ),
        ),
    ];
    for (dir, want) in &cases {
        let o = blockprint(&["sheet", "--out", s(&out), "--font-path", s(dir)]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert_eq!(stderr(&o), *want);
    }
    assert!(!out.exists(), "a refused run wrote nothing");
}

/// Every command clap knows, as the words that name it (`["campaign", "week"]`), with whether it takes
/// `--font-path`.
fn leaves(cmd: &clap::Command, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, bool)>) {
    let subs: Vec<&clap::Command> = cmd
        .get_subcommands()
        .filter(|c| c.get_name() != "help")
        .collect();
    let takes = cmd
        .get_arguments()
        .any(|a| a.get_long() == Some("font-path"));
    if subs.is_empty() || takes {
        out.push((path.clone(), takes));
    }
    for c in subs {
        path.push(c.get_name().to_owned());
        leaves(c, path, out);
        path.pop();
    }
}

#[test]
fn every_command_that_typesets_or_draws_takes_font_path_and_no_other() {
    let mut all = Vec::new();
    leaves(&blockprint::cli::help::command(), &mut Vec::new(), &mut all);
    let registry =
        blockprint::generators::Registry::new(&blockprint::render::Templates::builtin()).unwrap();
    let kinds: Vec<String> = registry.kinds().map(|k| k.name().to_owned()).collect();
    // What typesets: every kind's command (`make KIND`, its alias, `kit`, `export`), `build`, the campaign
    // (its packets and sheets) and the studio. `--check-pages` is refused by the others.
    let typesets = |words: &[String]| match words.first().map(String::as_str) {
        Some("make") => words.len() == 2 && kinds.contains(&words[1]),
        Some("build" | "campaign" | "serve" | "kit" | "export") => true,
        Some(w) => blockprint::cli::make::ALIASES.contains(&w),
        None => false,
    };
    let t = tempfile::tempdir().unwrap();
    let missing = t.path().join("no fonts here");
    let out = t.path().join("out");
    let mut checked = 0;
    for (words, takes) in &all {
        assert_eq!(
            *takes,
            typesets(words),
            "`blockprint {}` {} --font-path",
            words.join(" "),
            if *takes { "takes" } else { "lacks" }
        );
        if !takes {
            continue;
        }
        // Each reads the folders before anything else: a missing one is refused, naming it.
        let mut args: Vec<&str> = words.iter().map(String::as_str).collect();
        let campaign = t.path().join("campaign");
        match args.as_slice() {
            ["kit"] => args.push("coc"),
            ["export"] => args.extend(["--to", "csv"]),
            ["campaign", "close"] => args.extend([s(&campaign), "1976-01"]),
            ["campaign", "new"] => args.extend([s(&campaign), "--detectives", "Ann,Bo"]),
            ["campaign", "mend"] => args.extend([s(&campaign), "Ann", "co"]),
            ["campaign", _] => args.push(s(&campaign)),
            _ => {}
        }
        if args[0] != "campaign" {
            args.extend(["--out", s(&out)]);
        }
        args.extend(["--font-path", s(&missing)]);
        let o = blockprint(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).starts_with(&format!(
                "error: --font-path {}: no such folder",
                missing.display()
            )),
            "{args:?}: {}",
            stderr(&o)
        );
        checked += 1;
    }
    assert!(
        checked >= kinds.len() * 2,
        "only {checked} commands take --font-path"
    );
    assert!(!t.path().join("out").exists() && !t.path().join("campaign").exists());
}

/// The first file named `name` below `dir`.
fn find(dir: &Path, name: &str) -> Option<PathBuf> {
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        if p.is_dir() {
            if let Some(f) = find(&p, name) {
                return Some(f);
            }
        } else if p.file_name().is_some_and(|n| n == name) {
            return Some(p);
        }
    }
    None
}

#[test]
fn the_studio_sets_every_make_in_the_fonts_serve_was_given() {
    let Some(font) = cjk_font() else { return };
    let t = tempfile::tempdir().unwrap();
    let content = content(t.path());
    let fonts = t.path().join("fonts");
    std::fs::create_dir(&fonts).unwrap();
    std::fs::copy(&font, fonts.join("wqy-microhei.ttc")).unwrap();
    for with_fonts in [false, true] {
        let mut args = vec!["--content", s(&content)];
        if with_fonts {
            args.extend(["--font-path", s(&fonts)]);
        }
        let studio = crate::studio::Studio::start(&args);
        let (id, events) = studio.make(&serde_json::json!({"kind": "tables"}));
        assert_eq!(events.last().unwrap()["phase"], "done", "{events:?}");
        let page = studio.get(&format!("/jobs/{id}")).text();
        assert_eq!(
            page.contains("add a font that has them with --font-path DIR"),
            !with_fonts,
            "{page}"
        );
        let pdf = std::fs::read(find(&studio.out, "tables.pdf").unwrap()).unwrap();
        let text: String = pdf_text(&pdf)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        assert_eq!(text.contains("说书人astoryteller"), with_fonts);
    }
}
