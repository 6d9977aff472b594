//! The user's cache folder (`BLOCKPRINT_CACHE`) and the nothing-to-do path: output never depends on the
//! cache's state, a card is drawn again exactly when what draws it changed, and a rerun with nothing to do
//! makes no document. Each test has a cache folder of its own.

use std::path::Path;

use crate::support::{blockprint_env, s, tree};

/// Run with the cache in `cache` (or `off`) and `BLOCKPRINT_TIMINGS` set; returns stderr, after checking
/// the run succeeded.
fn run(args: &[&str], cache: &str) -> String {
    let o = blockprint_env(
        args,
        &[("BLOCKPRINT_CACHE", cache), ("BLOCKPRINT_TIMINGS", "1")],
    );
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
    err
}

/// The cache entries a run read and made, from its last `timings:` line (counted over the process).
fn cache_counts(err: &str) -> (usize, usize) {
    let line = err
        .lines()
        .rev()
        .find(|l| l.starts_with("timings:"))
        .unwrap_or_else(|| panic!("no timings line in {err}"));
    let tail = line.split("cache ").nth(1).expect(line);
    let words: Vec<&str> = tail
        .split([' ', ',', ')'])
        .filter(|w| !w.is_empty())
        .collect();
    // "N read, M made"
    assert_eq!((words[1], words[3]), ("read", "made"), "{line}");
    (words[0].parse().unwrap(), words[2].parse().unwrap())
}

fn entries(cache: &Path, space: &str) -> usize {
    let Ok(shards) = std::fs::read_dir(cache.join(space)) else {
        return 0;
    };
    shards
        .flatten()
        .flat_map(|d| std::fs::read_dir(d.path()).unwrap().flatten())
        .filter(|f| !f.file_name().to_string_lossy().starts_with('.'))
        .count()
}

#[test]
fn a_warm_cache_a_cold_one_and_none_write_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let make = |out: &str, cache: &str| {
        let out = dir.path().join(out);
        let foundry = run(
            &["export", "--to", "foundry", "--out", s(&out), "--quiet"],
            cache,
        );
        let kit = run(
            &[
                "make",
                "kit-bbb",
                "--format",
                "json,md",
                "--out",
                s(&out),
                "--quiet",
            ],
            cache,
        );
        (tree(&out), cache_counts(&foundry), cache_counts(&kit))
    };
    // Cold: every picture (52 fronts and a back for each of the two decks) and the grid are made and kept.
    let (cold, foundry, kit) = make("cold", s(&cache));
    assert_eq!(foundry, (0, 106));
    assert_eq!(kit, (0, 1));
    assert_eq!(entries(&cache, "pictures"), 106);
    assert_eq!(entries(&cache, "odds"), 1);
    // Warm: everything is read, nothing made, the same bytes written.
    let (warm, foundry, kit) = make("warm", s(&cache));
    assert_eq!(foundry, (106, 0));
    assert_eq!(kit, (1, 0));
    assert_eq!(warm, cold, "a warm cache writes what a cold one does");
    // No cache at all: the same bytes again.
    let (none, ..) = make("none", "off");
    assert_eq!(none, cold, "no cache writes what a cache does");
    assert!(
        cold.keys().filter(|k| k.ends_with(".png")).count() == 106
            && cold.contains_key("kits/bbb/chase-odds.json"),
        "{:?}",
        cold.keys().collect::<Vec<_>>()
    );
}

#[test]
fn editing_one_card_draws_that_card_again_and_no_other() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let content = dir.path().join("content");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("content"),
        &content,
    );
    let export = |out: &str| {
        let out = dir.path().join(out);
        let err = run(
            &[
                "export",
                "--to",
                "foundry",
                "--content",
                s(&content),
                "--out",
                s(&out),
                "--quiet",
            ],
            s(&cache),
        );
        (tree(&out.join("export/foundry-v13")), cache_counts(&err))
    };
    let (before, counts) = export("before");
    assert_eq!(counts, (0, 106));
    // "Storm drain" is the eighth hearts card of City Streets: the deck's eighth card in print order.
    let deck = content.join("bbb/06-action.toml");
    let text = std::fs::read_to_string(&deck).unwrap();
    assert_eq!(text.matches("\"Storm drain\"").count(), 1);
    std::fs::write(
        &deck,
        text.replace("\"Storm drain\"", "\"Flooded storm drain\""),
    )
    .unwrap();
    let (after, counts) = export("after");
    assert_eq!(counts, (105, 1), "one card changed: one picture drawn");
    assert_eq!(entries(&cache, "pictures"), 107);
    let changed: Vec<&String> = before
        .iter()
        .filter(|(k, v)| k.ends_with(".png") && after.get(*k) != Some(v))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(changed, ["cards/bbb_chase_city_streets/008-front.png"]);
}

#[test]
fn a_rerun_with_nothing_to_do_makes_no_document() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let args = ["make", "kit-bbb", "--format", "json,md", "--out", s(&out)];
    // With no cache, the grid is simulated on every run that makes its page.
    let first = run(&args, "off");
    assert!(first.contains("(0 already up to date)"), "{first}");
    assert_eq!(cache_counts(&first), (0, 1));
    let made = tree(&out);
    let manifest: serde_json::Value =
        serde_json::from_slice(&made["kits/bbb/manifest.json"]).unwrap();
    assert_eq!(
        manifest["made"],
        serde_json::json!({
            "request": { "seed": 0, "paper": "a4", "first": 1, "count": 1 },
            "formats": ["md", "json"],
            "documents": 5,
        })
    );
    // Again: the manifest says it all, and no page is made (no grid simulated).
    let again = run(&args, "off");
    assert_eq!(cache_counts(&again), (0, 0), "{again}");
    assert!(
        again.contains("wrote kit-bbb: 5 documents, 10 files (10 already up to date)"),
        "{again}"
    );
    assert_eq!(tree(&out), made, "nothing rewritten");
    // A file edited by hand, or another choice of formats: the ordinary way, which makes the pages again.
    std::fs::write(out.join("kits/bbb/chase-odds.md"), "edited\n").unwrap();
    let mended = run(&args, "off");
    assert_eq!(cache_counts(&mended), (0, 1));
    assert!(mended.contains("(9 already up to date)"), "{mended}");
    assert_eq!(tree(&out), made, "the edited file is made again");
    let json_only = run(
        &["make", "kit-bbb", "--format", "json", "--out", s(&out)],
        "off",
    );
    assert_eq!(cache_counts(&json_only), (0, 1));
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

#[test]
fn another_part_of_the_same_batch_is_made_not_taken_for_done() {
    // Two machines' halves of one batch into one folder: the same batch, as many documents, other
    // numbers. The second half is made, not taken for the first one already done.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let half = |first: &str| {
        let args = [
            "case",
            "--seed",
            "5",
            "--count",
            "2",
            "--first-number",
            first,
            "--format",
            "json",
            "--out",
            s(&out),
        ];
        run(&args, "off")
    };
    half("1");
    half("3");
    let files = tree(&out);
    for n in 1..=4 {
        assert!(
            files.contains_key(&format!("cases/1976-0{n}/1976-0{n}.json")),
            "case {n}: {:?}",
            files.keys().collect::<Vec<_>>()
        );
    }
}
