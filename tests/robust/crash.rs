//! A batch killed with SIGKILL part way leaves only whole files, and rerunning the same command clears
//! what the killed run was writing and completes the folder byte for byte as a clean run writes it
//! (issue 14, point 6). tests/pipeline.rs simulates a kill (torn journal line); this test really kills.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::tree;

const ARGS: &[&str] = &[
    "case",
    "--seed",
    "14",
    "--count",
    "24",
    "--format",
    "pdf,json,md",
    "--jobs",
    "2",
    "--quiet",
    "--out",
    "out",
];

fn command(cwd: &Path) -> Command {
    let mut c = crate::support::bp();
    c.current_dir(cwd)
        .args(ARGS)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c
}

fn run_to_end(cwd: &Path) {
    let o = command(cwd).output().expect("run blockprint");
    assert_eq!(
        o.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A name blockprint gives a file while it writes it: `.<name>.tmp-<pid>`.
fn is_temporary(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name.strip_prefix('.')
        .and_then(|n| n.rsplit_once(".tmp-"))
        .is_some_and(|(stem, pid)| {
            !stem.is_empty() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
        })
}

fn hidden(rel: &str) -> bool {
    rel.split('/').any(|p| p.starts_with('.'))
}

/// Start the batch, wait until it has finished `files` case files, and kill it (SIGKILL). Returns whether
/// it was killed (false: it finished first).
fn kill_after(cwd: &Path, files: usize) -> bool {
    let mut child = command(cwd).spawn().expect("start blockprint");
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        let done = count_case_files(&cwd.join("out/cases"));
        if done >= files {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the batch wrote {done} files in two minutes"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("SIGKILL");
    let status = child.wait().unwrap();
    assert!(!status.success(), "killed, not finished");
    true
}

fn count_case_files(dir: &Path) -> usize {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return 0;
    };
    rd.filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| {
            std::fs::read_dir(e.path())
                .map(|r| {
                    r.filter_map(|f| f.ok())
                        .filter(|f| !f.file_name().to_string_lossy().starts_with('.'))
                        .count()
                })
                .unwrap_or(0)
        })
        .sum()
}

/// Every visible file a killed run left is whole: PDFs parse, JSON parses, and each is byte for byte the
/// file a clean run writes under that name.
fn assert_visible_files_whole(left: &BTreeMap<String, Vec<u8>>, clean: &BTreeMap<String, Vec<u8>>) {
    for (rel, bytes) in left.iter().filter(|(rel, _)| !hidden(rel)) {
        if rel.ends_with(".pdf") {
            lopdf::Document::load_mem(bytes)
                .unwrap_or_else(|e| panic!("{rel} left by the killed run does not parse: {e}"));
        }
        if rel.ends_with(".json") {
            serde_json::from_slice::<serde_json::Value>(bytes)
                .unwrap_or_else(|e| panic!("{rel} left by the killed run does not parse: {e}"));
        }
        if rel.ends_with("manifest.json")
            || rel.ends_with("index.md")
            || rel.ends_with("gm.pdf")
            || rel.ends_with("handouts.pdf")
        {
            // Written last, over the whole batch: present only if the run got that far.
            continue;
        }
        let want = clean
            .get(rel)
            .unwrap_or_else(|| panic!("{rel} is not a file of the batch"));
        assert!(bytes == want, "{rel} left by the killed run is not whole");
    }
}

#[test]
fn a_batch_killed_part_way_is_whole_and_a_rerun_completes_it_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let (clean_dir, killed_dir) = (dir.path().join("clean"), dir.path().join("killed"));
    std::fs::create_dir_all(&clean_dir).unwrap();
    std::fs::create_dir_all(&killed_dir).unwrap();
    run_to_end(&clean_dir);
    let clean = tree(&clean_dir.join("out"));
    assert!(
        clean.keys().all(|k| !hidden(k)),
        "a finished run leaves no hidden file"
    );

    // Kill twice at different points, the second time while resuming the first.
    let mut kills = 0;
    for files in [6, 30] {
        if kill_after(&killed_dir, files) {
            kills += 1;
        }
        assert_visible_files_whole(&tree(&killed_dir.join("out")), &clean);
    }
    assert!(kills > 0, "the batch finished before it could be killed");

    // What a kill during a write leaves (a kill lands there only sometimes, so make sure of it), and
    // hidden files of the user's own that only look alike.
    let cases = killed_dir.join("out/cases");
    let first_case = std::fs::read_dir(&cases)
        .unwrap()
        .filter_map(|e| e.ok())
        .find(|e| e.path().is_dir())
        .unwrap()
        .path();
    let planted = [
        cases.join(".gm.pdf.tmp-4194303"),
        first_case.join(".x-gm.pdf.tmp-999999"),
    ];
    for p in &planted {
        std::fs::write(p, b"%PDF-1.7 half").unwrap();
    }
    let mine = [cases.join(".notes.tmp-draft"), first_case.join(".keep")];
    for p in &mine {
        std::fs::write(p, b"mine").unwrap();
    }

    run_to_end(&killed_dir);
    let mut rerun = tree(&killed_dir.join("out"));
    for p in &mine {
        let rel = p
            .strip_prefix(killed_dir.join("out"))
            .unwrap()
            .display()
            .to_string();
        assert_eq!(
            rerun.remove(&rel).as_deref(),
            Some(&b"mine"[..]),
            "{rel} is the user's"
        );
    }
    let left: Vec<&String> = rerun.keys().filter(|k| hidden(k)).collect();
    assert!(
        left.is_empty(),
        "hidden files left after the rerun: {left:?}"
    );
    assert!(rerun.keys().all(|k| !is_temporary(k)));
    assert_eq!(
        rerun.keys().collect::<Vec<_>>(),
        clean.keys().collect::<Vec<_>>(),
        "the same files as a clean run"
    );
    for (rel, bytes) in &clean {
        assert!(rerun[rel] == *bytes, "{rel} differs from a clean run");
    }
}
