//! Malformed content (issue 14): the binary is run over every bad-content fixture — the static ones under
//! `tests/fixtures/bad/`, one per checker kind under `tests/fixtures/check/`, and those made at test time
//! (a FIFO, symbolic links in a loop and out of the root, a folder named like a file, huge files) — and
//! must stop with exit 1 or 2, a diagnostic naming the file, no panic, in bounded time.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one run of a command may take at most (a FIFO that blocked or a check that ran away fails here).
const LIMIT: Duration = Duration::from_secs(30);

struct Run {
    code: Option<i32>,
    stdout: String,
    /// stdout and stderr.
    out: String,
    took: Duration,
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Run blockprint in `cwd`, killing it if it runs past [`LIMIT`].
fn run(cwd: &Path, args: &[&str]) -> Run {
    let started = Instant::now();
    let mut child = crate::support::bp()
        .current_dir(cwd)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run blockprint");
    // Read both pipes on threads so a long report cannot fill a pipe and stall the child.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stdout.read_to_end(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stderr.read_to_end(&mut s);
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "`blockprint {}` in {} ran past {LIMIT:?}",
                args.join(" "),
                cwd.display()
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = started.elapsed();
    let stdout = String::from_utf8_lossy(&t_out.join().unwrap()).into_owned();
    let out = stdout.clone() + &String::from_utf8_lossy(&t_err.join().unwrap());
    Run {
        code: status.code(),
        stdout,
        out,
        took,
    }
}

/// The commands each bad content folder is run through: the checker, and the renderers that must refuse.
fn commands(content: &str, out: &str) -> Vec<Vec<String>> {
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        v(&["check", "--content", content]),
        v(&["check", "--content", content, "--format", "json"]),
        v(&["tables", "--content", content]),
        v(&[
            "case",
            "--content",
            content,
            "--count",
            "1",
            "--seed",
            "1",
            "--format",
            "pdf,md,json",
            "--quiet",
            "--out",
            out,
        ]),
        v(&[
            "srd",
            "--content",
            content,
            "--format",
            "pdf,md,json",
            "--quiet",
            "--out",
            out,
        ]),
    ]
}

/// Run every command over `content` (relative to `cwd`) and hold each to the rules: exit 1 or 2 (or 0 for
/// the commands in `may_pass`), `names` (a file, or `file:line:col`) in the report, no panic, no control character on the terminal,
/// and no output written.
fn assert_refused(cwd: &Path, content: &str, names: &str, may_pass: &[&str]) -> Duration {
    let mut slowest = Duration::ZERO;
    for args in commands(content, "out-refused") {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = run(cwd, &args);
        slowest = slowest.max(r.took);
        let what = format!(
            "`blockprint {}` over {}",
            args.join(" "),
            cwd.join(content).display()
        );
        assert!(
            !r.out.contains("panicked at")
                && !matches!(r.code, Some(101) | Some(134))
                && r.code.is_some(),
            "{what} crashed ({:?}):\n{}",
            r.code,
            r.out
        );
        let passes = may_pass.contains(&args[0]);
        let ok_codes: &[i32] = if passes { &[0, 1, 2] } else { &[1, 2] };
        assert!(
            ok_codes.contains(&r.code.unwrap()),
            "{what} exited {:?}:\n{}",
            r.code,
            r.out
        );
        // Text reports name the place (`file:line:col`); JSON names the file in its own field.
        // A command that may pass needs name nothing; when `check` may pass (a warning), the renderers
        // stop on what the tiny folder lacks (unlocated), not on the warning.
        let named = if passes || (may_pass.contains(&"check") && args[0] != "check") {
            true
        } else if args.contains(&"json") {
            let file = names.split([':', ' ']).next().unwrap_or(names);
            r.out.contains(&format!("\"file\": \"{file}\""))
        } else {
            r.out.contains(names)
        };
        assert!(named, "{what} does not name `{names}`:\n{}", r.out);
        if args.contains(&"json") {
            let v: serde_json::Value = serde_json::from_str(&r.stdout)
                .unwrap_or_else(|e| panic!("{what}: not JSON ({e}):\n{}", r.out));
            assert!(v.get("errors").is_some(), "{what}: {v}");
        } else {
            let controls: Vec<char> = r
                .out
                .chars()
                .filter(|&c| c.is_control() && !matches!(c, '\n' | '\t'))
                .collect();
            assert!(
                controls.is_empty(),
                "{what} printed control characters {controls:?}:\n{}",
                r.out
            );
        }
    }
    // No command wrote a document from it.
    let written = cwd.join("out-refused");
    if written.exists() && may_pass.is_empty() {
        let mut found = Vec::new();
        walk(&written, &mut found);
        assert!(
            found.iter().all(|p| !p.ends_with(".pdf")
                && !p.ends_with(".md")
                && !p.ends_with(".json")
                || p.ends_with("manifest.json")),
            "documents written from bad content {}: {found:?}",
            cwd.join(content).display()
        );
    }
    slowest
}

fn walk(dir: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        if e.file_type().unwrap().is_dir() {
            walk(&e.path(), out);
        } else {
            out.push(e.path().display().to_string());
        }
    }
}

/// The checker's diagnostic kinds, read from `crates/content/src/diag.rs` (`enum Kind`), in snake_case: a
/// new kind without a fixture fails [`every_diagnostic_kind_has_a_bad_fixture`].
fn kinds() -> Vec<String> {
    let src = std::fs::read_to_string(manifest_dir().join("crates/content/src/diag.rs")).unwrap();
    let body = src
        .split("pub enum Kind {")
        .nth(1)
        .and_then(|s| s.split("\n}").next())
        .expect("enum Kind in crates/content/src/diag.rs");
    body.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//") && l.ends_with(','))
        .map(|l| {
            let name = l.trim_end_matches(',');
            let mut snake = String::new();
            for (i, c) in name.chars().enumerate() {
                if c.is_uppercase() && i > 0 {
                    snake.push('_');
                }
                snake.extend(c.to_lowercase());
            }
            snake
        })
        .collect()
}

/// Static fixtures under tests/fixtures/bad: (folder, the file the report must name, its kind).
const BAD: &[(&str, &str, &str)] = &[
    ("utf8_toml", "t.toml:3:", "parse"),
    ("utf8_md", "one.md:7:4", "parse"),
    ("empty_toml", "t.toml:1:1", "schema"),
    ("comments_only_toml", "t.toml:1:1", "schema"),
    ("empty_md", "one.md", "schema"),
    ("wrong_types", "t.toml:", "schema"),
    ("wrong_types_row", "t.toml:", "schema"),
    ("control_character", "t.toml:3:9", "control_character"),
    ("control_character_md", "one.md:7:8", "control_character"),
    ("control_character_raw_toml", "t.toml:3:", "parse"),
    ("raw_html", "one.md:7:7", "raw_html"),
];

/// Check fixtures whose kind is a warning: `check` passes them.
const WARNING_KINDS: &[&str] = &[
    "duplicate_result",
    "raw_alternative",
    "unlisted_chapter",
    "own_table",
];

#[test]
fn every_static_bad_fixture_is_refused_with_its_place() {
    let bad = manifest_dir().join("tests/fixtures/bad");
    let mut listed: Vec<&str> = BAD.iter().map(|b| b.0).collect();
    listed.sort();
    let mut on_disk: Vec<String> = std::fs::read_dir(&bad)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    assert_eq!(
        listed, on_disk,
        "every fixture under tests/fixtures/bad is listed in BAD"
    );
    for (name, place, kind) in BAD {
        let tmp = tempfile::tempdir().unwrap();
        copy_dir(&bad.join(name).join("content"), &tmp.path().join("content"));
        assert_refused(tmp.path(), "content", place, &[]);
        let r = run(
            tmp.path(),
            &["check", "--content", "content", "--format", "json"],
        );
        assert!(
            r.out.contains(&format!("\"kind\": \"{kind}\"")),
            "{name}: no `{kind}` in\n{}",
            r.out
        );
    }
}

#[test]
fn every_checker_fixture_is_refused_by_every_command() {
    let dir = manifest_dir().join("tests/fixtures/check");
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    fixtures.sort();
    for f in fixtures {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let tmp = tempfile::tempdir().unwrap();
        copy_dir(&f.join("content"), &tmp.path().join("content"));
        // Every report names the place its expected report names first.
        let expected = std::fs::read_to_string(f.join("expected.txt")).unwrap();
        let place = expected
            .split("┌─ ")
            .nth(1)
            .and_then(|rest| rest.lines().next())
            .unwrap_or_else(|| panic!("{name}: expected.txt names no place"))
            .trim()
            .to_owned();
        let may_pass: &[&str] = if WARNING_KINDS.iter().any(|k| name.starts_with(k)) {
            // A warning stops nothing: each command may pass (or stop on what the tiny folder lacks).
            &["check", "tables", "case", "srd"]
        } else if name == "missing_requirement" {
            // It lacks what `case` requires: no concern of `tables`, nor of `srd`, which it can make.
            &["tables", "srd"]
        } else {
            &[]
        };
        assert_refused(tmp.path(), "content", &place, may_pass);
    }
}

#[test]
fn every_diagnostic_kind_has_a_bad_fixture() {
    let check: Vec<String> = std::fs::read_dir(manifest_dir().join("tests/fixtures/check"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let made_here = ["bad_file"];
    for kind in kinds() {
        let covered = check.iter().any(|c| c == &kind)
            || BAD.iter().any(|b| b.2 == kind)
            || made_here.contains(&kind.as_str());
        assert!(
            covered,
            "diagnostic kind `{kind}` has no fixture in tests/fixtures/check or tests/fixtures/bad"
        );
    }
    assert!(kinds().len() >= 25, "{:?}", kinds());
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// A fresh copy of the built-in content in `dir/content`, which passes the checker as it is.
fn sound_content(dir: &Path) -> PathBuf {
    let r = run(dir, &["init", "content"]);
    assert_eq!(r.code, Some(0), "{}", r.out);
    dir.join("content")
}

/// Sound content with one thing broken by `spoil`, refused naming `names`; returns the slowest run.
fn spoiled(names: &str, spoil: impl FnOnce(&Path, &Path)) -> Duration {
    let tmp = tempfile::tempdir().unwrap();
    let content = sound_content(tmp.path());
    spoil(tmp.path(), &content);
    assert_refused(tmp.path(), "content", names, &[])
}

#[cfg(unix)]
#[test]
fn a_fifo_is_reported_and_never_opened() {
    spoiled("bbb/pipe.toml is a named pipe (FIFO)", |_, c| {
        let path = c.join("bbb/pipe.toml");
        let ok = Command::new("mkfifo").arg(&path).status().expect("mkfifo");
        assert!(ok.success());
    });
}

#[cfg(unix)]
#[test]
fn symbolic_links_are_followed_inside_the_root_and_refused_out_of_it_or_in_a_loop() {
    use std::os::unix::fs::symlink;
    spoiled("bbb/loop-a.toml is a symbolic link in a loop", |_, c| {
        symlink("loop-b.toml", c.join("bbb/loop-a.toml")).unwrap();
        symlink("loop-a.toml", c.join("bbb/loop-b.toml")).unwrap();
    });
    spoiled("bbb/self is a symbolic link in a loop", |_, c| {
        symlink("..", c.join("bbb/self")).unwrap();
    });
    spoiled(
        "bbb/extra.toml is a symbolic link out of the content folder",
        |tmp, c| {
            // Sound TOML, but outside: it must not be read (nor silently skipped).
            let outside = tmp.join("outside.toml");
            std::fs::write(&outside, "[[table]]\nid = \"x.y\"\ntitle = \"Y\"\ndice = \"1d2\"\nrows = [ { on = \"1-2\", result = \"a\" } ]\n").unwrap();
            symlink(&outside, c.join("bbb/extra.toml")).unwrap();
        },
    );
    spoiled("bbb/gone.toml is a symbolic link to", |_, c| {
        symlink("nowhere.toml", c.join("bbb/gone.toml")).unwrap();
    });
    // Inside the root a link is followed: a linked file is content (here a second copy, so its ids
    // are duplicates, reported at the link's own path).
    let tmp = tempfile::tempdir().unwrap();
    let c = sound_content(tmp.path());
    std::fs::create_dir_all(c.join("more")).unwrap();
    symlink("../bbb/07-npcs.toml", c.join("more/npcs.toml")).unwrap();
    let r = run(tmp.path(), &["check", "--content", "content"]);
    assert_eq!(r.code, Some(1), "{}", r.out);
    assert!(
        r.out.contains("duplicate_id") && r.out.contains("more/npcs.toml"),
        "{}",
        r.out
    );
    // And a linked folder inside the root is walked: the NPCs moved to a hidden folder (never read
    // itself) and reached only through a link.
    let tmp = tempfile::tempdir().unwrap();
    let c = sound_content(tmp.path());
    std::fs::create_dir_all(c.join(".stock")).unwrap();
    std::fs::rename(c.join("bbb/07-npcs.toml"), c.join(".stock/07-npcs.toml")).unwrap();
    symlink("../.stock", c.join("bbb/stock")).unwrap();
    let r = run(tmp.path(), &["check", "--content", "content"]);
    assert_eq!(
        r.code,
        Some(0),
        "content through a linked folder loads:\n{}",
        r.out
    );
}

#[test]
fn a_folder_named_like_a_content_file_is_reported() {
    spoiled(
        "bbb/x.toml is a folder named like a content file",
        |_, c| {
            std::fs::create_dir_all(c.join("bbb/x.toml")).unwrap();
        },
    );
    spoiled(
        "bbb/srd/y.md is a folder named like a content file",
        |_, c| {
            std::fs::create_dir_all(c.join("bbb/srd/y.md/z")).unwrap();
        },
    );
}

#[test]
fn huge_files_are_refused_fast() {
    // 50 MB of one TOML string: refused unread by the size limit.
    let slowest = spoiled("bbb/huge.toml is 52428800 bytes", |_, c| {
        let head = "[[table]]\nid = \"x.huge\"\ntitle = \"";
        let tail = "\"\ndice = \"1d2\"\nrows = [ { on = \"1-2\", result = \"a\" } ]\n";
        let mut s = String::with_capacity(50 << 20);
        s.push_str(head);
        s.extend(std::iter::repeat_n(
            'a',
            (50 << 20) - head.len() - tail.len(),
        ));
        s.push_str(tail);
        assert_eq!(s.len(), 50 << 20);
        std::fs::write(c.join("bbb/huge.toml"), s).unwrap();
    });
    eprintln!("50 MB string: slowest command {slowest:?}");
    assert!(slowest < Duration::from_secs(10), "{slowest:?}");
    // A table of a million rows (about 30 MB): refused by the size limit too.
    let slowest = spoiled("bbb/rows.toml is ", |_, c| {
        let mut s =
            String::from("[[table]]\nid = \"x.rows\"\ntitle = \"R\"\ndice = \"1d6\"\nrows = [\n");
        for i in 0..1_000_000 {
            s.push_str(&format!("{{ on = \"{}\", result = \"r\" }},\n", i % 6 + 1));
        }
        s.push_str("]\n");
        std::fs::write(c.join("bbb/rows.toml"), s).unwrap();
    });
    eprintln!("a million rows: slowest command {slowest:?}");
    // Under the size limit, over the row limit: ten thousand and one overlapping rows on a d10000.
    let slowest = spoiled("bbb/rows.toml:5:", |_, c| {
        let mut s = String::from(
            "[[table]]\nid = \"x.rows\"\ntitle = \"R\"\ndice = \"1d10000\"\nrows = [\n",
        );
        for _ in 0..10_001 {
            s.push_str("{ on = \"1-10000\", result = \"r\" },\n");
        }
        s.push_str("]\n");
        std::fs::write(c.join("bbb/rows.toml"), s).unwrap();
    });
    eprintln!("10 001 overlapping rows: slowest command {slowest:?}");
    assert!(slowest < Duration::from_secs(10), "{slowest:?}");
}
