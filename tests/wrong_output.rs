//! Issue 27, "wrong output" and two unclear errors: a campaign case's Markdown names its lead as its JSON
//! does (item 6), the Urban World kit keeps a hold result's case (item 9), deck and kit JSON and Markdown
//! keep the content's quotes byte for byte (item 8), `odds` prints control characters escaped and a killed
//! `init` can be finished by a rerun (item 13).

use std::path::{Path, PathBuf};

use crate::support::{blockprint as bp, ok, s};

/// A fresh, empty scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bp-wrong-output-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn campaign_case_markdown_names_its_lead() {
    let dir = scratch("lead");
    let sq = dir.join("sq");
    ok(&bp(&[
        "campaign",
        "new",
        s(&sq),
        "--seed",
        "42",
        "--detectives",
        "Ana Ruiz,Walt Kowalski=harbour patrol,Mei Chen",
        "--packets",
        "md,json",
    ]));
    // Seed 42: the weeks of January bring one case (1976-04) beside the three starting cases.
    for _ in 0..4 {
        ok(&bp(&["campaign", "week", s(&sq)]));
    }
    let case = |n: &str| {
        let json: serde_json::Value =
            serde_json::from_str(&read(&sq.join(format!("cases/{n}/{n}.json")))).unwrap();
        let md = read(&sq.join(format!("cases/{n}/{n}.md")));
        (json["lead_detective"].as_str().unwrap().to_string(), md)
    };
    let expected = [
        ("1976-01", "Ana Ruiz"),
        ("1976-02", "Walt Kowalski"),
        ("1976-03", "Mei Chen"),
        ("1976-04", "Ana Ruiz"),
    ];
    for (n, lead) in expected {
        let (json_lead, md) = case(n);
        assert_eq!(json_lead, lead, "case {n} JSON");
        let line = md.lines().find(|l| l.contains("lead detective:")).unwrap();
        assert!(
            line.ends_with(&format!(" · lead detective: {lead}*")),
            "case {n} Markdown: {line}"
        );
        assert!(
            !md.contains("________"),
            "case {n} Markdown keeps a blank: {md}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A copy of the built-in content in a fresh folder (`blockprint init`), with `edit` applied to one of
/// its files.
fn content_copy(dir: &Path, file: &str, edit: impl Fn(&str) -> String) -> PathBuf {
    let content = dir.join("content");
    ok(&bp(&["init", s(&content)]));
    let path = content.join(file);
    let text = read(&path);
    let edited = edit(&text);
    assert_ne!(edited, text, "the edit of {file} changed nothing");
    std::fs::write(&path, edited).unwrap();
    content
}

#[test]
fn urban_world_hold_results_keep_their_case() {
    let dir = scratch("hold-case");
    let content = content_copy(&dir, "urban-world/chase.toml", |t| {
        t.replace("result = \"Hold 1\"", "result = \"Noël holds 1\"")
    });
    let out = dir.join("out");
    ok(&bp(&[
        "kit",
        "urban-world",
        "--content",
        s(&content),
        "--format",
        "md,json",
        "--out",
        s(&out),
    ]));
    let kit = out.join("kits/urban-world");
    let md = read(&kit.join("urban-world.md"));
    let cards_md = read(&kit.join("urban-world-cards.md"));
    let cards_json = read(&kit.join("urban-world-cards.json"));
    // The sheet's Markdown names the bands twice: under step 2 and in the odds table's header.
    assert!(
        md.contains("**10+ Hold 3 · 7–9 Hold 2 · 6− Noël holds 1**"),
        "{md}"
    );
    assert!(
        md.contains("| Stat | Roll | 6− · Noël holds 1 | 7–9 · Hold 2 | 10+ · Hold 3 |"),
        "{md}"
    );
    assert!(
        cards_md.contains("10+: Hold 3, 7–9: Hold 2, 6−: Noël holds 1."),
        "{cards_md}"
    );
    assert!(
        cards_json.contains("10+: Hold 3, 7–9: Hold 2, 6−: Noël holds 1."),
        "{cards_json}"
    );
    for (name, text) in [
        ("md", &md),
        ("cards md", &cards_md),
        ("cards json", &cards_json),
    ] {
        assert!(
            !text.contains("noël") && !text.contains("hold 2"),
            "{name} lowercases: {text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
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
fn deck_and_kit_json_and_markdown_keep_the_contents_quotes() {
    let dir = scratch("quotes");
    let content = content_copy(&dir, "bbb/09-decks.toml", |t| {
        t.replace("\"The crowd thins out ahead\"", r#""The crowd \"a\" 'b'""#)
    });
    let uw = content.join("urban-world/chase.toml");
    std::fs::write(
        &uw,
        read(&uw).replace("result = \"Hold 2\"", r#"result = "Hold 2 \"a\" 'b'""#),
    )
    .unwrap();
    let out = dir.join("out");
    let run = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--content", s(&content), "--out", s(&out)]);
        ok(&bp(&all));
    };
    run(&["deck", "bbb.chase.foot", "--format", "pdf,md,json"]);
    run(&["kit", "all", "--format", "md,json"]);

    let card = r#"The crowd "a" 'b'"#;
    let hold = r#"Hold 2 "a" 'b'"#;
    let checks: [(&str, &str); 6] = [
        ("cards/decks/bbb_chase_foot.json", card),
        ("cards/decks/bbb_chase_foot.md", card),
        ("kits/bbb/deck-foot.json", card),
        ("kits/bbb/deck-foot.md", card),
        ("kits/urban-world/urban-world.json", hold),
        ("kits/urban-world/urban-world.md", hold),
    ];
    for (file, want) in checks {
        let text = read(&out.join(file));
        if file.ends_with(".json") {
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            let mut all = Vec::new();
            strings(&v, &mut all);
            assert!(
                all.iter().any(|s| s == want),
                "{file} has no string {want:?}"
            );
        } else {
            assert!(text.contains(want), "{file} lacks {want:?}");
        }
        for curly in ["“a”", "‘b’"] {
            assert!(!text.contains(curly), "{file} turned the quotes curly");
        }
    }
    // The urban World cards say the hold in a sentence: the quotes stay straight there too.
    let cards = read(&out.join("kits/urban-world/urban-world-cards.json"));
    assert!(
        cards.contains(r#"7–9: Hold 2 \"a\" 'b', 6−: Hold 1."#),
        "{cards}"
    );
    // Only the typeset PDF sets typographic quotes.
    let pdf = std::fs::read(out.join("cards/decks/bbb_chase_foot.pdf")).unwrap();
    let text = crate::support::pdf_text(&pdf);
    // pdf_extract spaces the glyphs of a line unevenly: compare without spaces.
    let flat: String = text.split_whitespace().collect();
    assert!(flat.contains("Thecrowd“a”‘b’"), "{text}");
    assert!(!flat.contains("Thecrowd\"a\"'b'"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn odds_prints_control_characters_escaped() {
    let o = bp(&["odds", "2d6\u{1b}[31m"]);
    assert_eq!(o.status.code(), Some(1), "{}", crate::support::stderr(&o));
    assert_eq!(
        crate::support::stderr(&o),
        "error[bad_dice]: unexpected `\\u{1b}` after the end of the expression\n  | 2d6\\u{1b}[31m\n  |    ^^^^^^\n  = help: dice notation uses numbers, `d`, modifiers, `+`, `-`, `*`, `/` and parentheses\n"
    );
    let o = bp(&["odds", "2d6", "--at-least", "x\u{7}\r"]);
    let err = crate::support::stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: --at-least: `x\\u{7}\\u{d}` is not a number"),
        "{err}"
    );
    for o in [
        bp(&["odds", "\u{9b}31m\u{1b}]0;title\u{7}"]),
        bp(&["odds", "2d\u{1}"]),
    ] {
        let err = crate::support::stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(!err.chars().any(|c| c.is_control() && c != '\n'), "{err:?}");
    }
}

/// Every file under `dir`, relative path → bytes.
fn files_under(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    crate::support::tree(dir)
}

#[test]
fn init_finishes_what_a_killed_run_left_and_refuses_anything_else() {
    use std::os::unix::process::ExitStatusExt;
    let dir = scratch("init");
    let fresh = dir.join("fresh");
    ok(&bp(&["init", s(&fresh)]));
    let want = files_under(&fresh);
    // 54: the cards' two prose pages (bbb/kit/reference-cards.md, approach-cards.md) and the SRD's quick
    // reference (bbb/srd/quick-reference.md) among them.
    assert_eq!(want.len(), 54);

    // A folder holding some of init's own files, as an older run killed midway left it: finished.
    let part = dir.join("part");
    ok(&bp(&["init", s(&part)]));
    std::fs::remove_dir_all(part.join("coc")).unwrap();
    std::fs::remove_file(part.join("README.md")).unwrap();
    ok(&bp(&["init", s(&part)]));
    assert_eq!(files_under(&part), want);
    // Anything else in the folder (an edited file, a file of the user's) is never overwritten.
    std::fs::write(part.join("README.md"), "mine\n").unwrap();
    let o = bp(&["init", s(&part)]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        crate::support::stderr(&o),
        format!(
            "error: {} is not empty; choose a new or empty folder so nothing in it is overwritten\n",
            part.display()
        )
    );
    assert_eq!(read(&part.join("README.md")), "mine\n");

    // Kills at moments spread over the run: what is left is absent, empty or init's own files, a rerun
    // finishes it with the same files, and no temporary folder stays beside it.
    let mut killed = 0;
    for i in 0..60u64 {
        let target = dir.join(format!("k{i}"));
        let mut child = crate::support::bp()
            .args(["init", s(&target)])
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_micros(i * 500));
        let _ = child.kill();
        let status = child.wait().unwrap();
        if status.signal().is_some() {
            killed += 1;
        }
        if target.exists() && files_under(&target) == want {
            // The run finished before the kill: a rerun refuses the complete folder, as always.
            assert_eq!(bp(&["init", s(&target)]).status.code(), Some(2), "k{i}");
            continue;
        }
        if target.exists() {
            let left = files_under(&target);
            assert!(
                left.iter().all(|(k, v)| want.get(k) == Some(v)),
                "k{i}: {:?}",
                left.keys()
            );
        }
        ok(&bp(&["init", s(&target)]));
        assert_eq!(files_under(&target), want, "k{i}");
    }
    assert!(
        killed >= 5,
        "only {killed} of 60 kills landed before init ended"
    );
    let stray: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".init-"))
        .collect();
    assert!(stray.is_empty(), "temporary folders left: {stray:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
