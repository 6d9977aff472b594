//! `blockprint build`: golden Markdown, byte-identical reruns, and nothing written outside `--out`.
//! Run with `BLOCKPRINT_BLESS=1` to rewrite the golden files after an intended change.

use std::path::Path;

fn build(out: &Path) -> std::process::Output {
    crate::support::blockprint(&[
        "build",
        "--seed",
        "42",
        "--count",
        "2",
        "--out",
        out.to_str().unwrap(),
    ])
}

#[test]
fn tables_markdown_matches_golden_and_reruns_are_identical() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let (oa, ob) = (build(&a.path().join("out")), build(&b.path().join("out")));
    assert_eq!(
        oa.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&oa.stderr)
    );
    assert_eq!(ob.status.code(), Some(0));
    for name in [
        "tables/tables.md",
        "tables/tables.json",
        "tables/manifest.json",
        "cases/1976-01/1976-01-gm.pdf",
        "cases/1976-01/1976-01-handout.pdf",
        "cases/gm.pdf",
        "cases/handouts.pdf",
        "cases/index.md",
        "cases/manifest.json",
        "srd/block-by-block-srd.pdf",
        "srd/manifest.json",
        "pregenerated/detective-fighter.json",
        "pregenerated/detective-hotshot.md",
        "pregenerated/index.md",
        "stock-npcs/stock-1-cards.pdf",
        "stock-npcs/stock-1.md",
        "stock-npcs/cards.pdf",
        "sheet/character.pdf",
        "sheet/character-fillable.pdf",
    ] {
        let x = std::fs::read(a.path().join("out").join(name)).unwrap();
        let y = std::fs::read(b.path().join("out").join(name)).unwrap();
        assert_eq!(x, y, "{name} differs between runs");
    }
    let md = std::fs::read(a.path().join("out/tables/tables.md")).unwrap();
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    assert_eq!(
        crate::support::golden_files(&golden, [("tables.md", md)]),
        1
    );
    // The reference and the case packets, nothing half-written beside them, nothing else in the temp folder.
    let mut names: Vec<String> = std::fs::read_dir(a.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "cards",
            "cases",
            "export",
            "kits",
            "pregenerated",
            "sheet",
            "srd",
            "stock-npcs",
            "tables"
        ]
    );
    assert!(a.path().join("out/sheet/character-fillable.pdf").is_file());
    assert!(
        a.path()
            .join("out/cards/decks/bbb_chase_city_streets.pdf")
            .is_file()
    );
    assert!(a.path().join("out/cards/bbb/reference.pdf").is_file());
    assert!(a.path().join("out/srd/block-by-block-srd.pdf").is_file());
    assert!(a.path().join("out/cases/1976-02/1976-02-gm.pdf").is_file());
    let top: Vec<_> = std::fs::read_dir(a.path()).unwrap().collect();
    assert_eq!(top.len(), 1);
    // The same build, read for what its tables say (a whole build is the suite's dearest run, so the
    // two checks share one).
    tables_markdown_carries_exact_odds_and_links(&a.path().join("out"));
}

fn tables_markdown_carries_exact_odds_and_links(out: &Path) {
    let md = std::fs::read_to_string(out.join("tables/tables.md")).unwrap();
    assert!(
        md.contains("| 6-7 | Low-income area | 30.56% (11/36) |"),
        "district row with odds"
    );
    assert!(md.contains("| 1-57 | Gunshot (roll on [Gunshot: type of firearm](#bbb-homicide-gunshot)) | 57.00% (57/100) |"));
    assert!(md.contains("<a id=\"bbb-homicide-gunshot\"></a>"));
    // Table-level editorial fills are marked like row-level ones (issue 8, point 9).
    assert!(
        md.contains("### Victim gender †\n"),
        "table-level fill marked"
    );
    assert!(
        md.contains("### District\n"),
        "a table without a table-level fill is not"
    );
    let book = std::fs::read_to_string(out.join("srd/book/new-cases.md")).unwrap();
    assert!(
        book.contains("**Victim gender** † — roll 1d100"),
        "marked in the SRD book too"
    );
    assert!(
        md.contains("| 8 | Low-income area † | 13.89% (5/36) |"),
        "editorial rows are marked"
    );
    assert!(md.contains("| 9 | Railyard/industrial area | Shopping mall shortcut | Smoke or impaired visibility | Play it cool, then floor it |"));
}

#[test]
fn broken_content_builds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    std::fs::create_dir_all(&content).unwrap();
    std::fs::write(content.join("t.toml"), "[[table]]\nid = \"x.t\"\ntitle = \"T\"\ndice = \"1d6\"\nrows = [ { on = \"1-5\", result = \"a\" } ]\n").unwrap();
    let out = dir.path().join("out");
    let o = crate::support::bp()
        .args([
            "build",
            "--content",
            content.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("error[gap]: table `x.t` (1d6) has no row for 6")
    );
    assert!(!out.exists(), "nothing may be written for broken content");
}

#[test]
fn a_zine_build_makes_what_prints_on_the_paper_and_names_the_rest() {
    // `build --paper a5`: the SRD (and every kind that lays out on A5) is made; case packets, which come
    // in A4 and Letter only, are skipped by name. `case --paper a5` alone stays a usage error.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = crate::support::bp()
        .args([
            "build",
            "--seed",
            "42",
            "--paper",
            "a5",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("skipped case: it prints on a4 or letter, not a5"),
        "{err}"
    );
    assert!(!out.join("cases").exists());
    let pdf = std::fs::read(out.join("srd/block-by-block-srd.pdf")).unwrap();
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    let (_, first) = doc.get_pages().into_iter().next().unwrap();
    let media = doc
        .get_dictionary(first)
        .unwrap()
        .get(b"MediaBox")
        .unwrap()
        .as_array()
        .unwrap()
        .clone();
    let width = media[2].as_float().unwrap() - media[0].as_float().unwrap();
    assert!(
        (width - 148.0 / 25.4 * 72.0).abs() < 0.5,
        "A5 width, got {width}"
    );
    assert!(out.join("tables/tables.md").is_file());
}
