//! Reliability (issue 27, items 1–3): no recorded campaign week is ever lost.
//!
//! - Two real processes at once on one campaign folder, or into one output folder, round after round:
//!   both land whole (an exclusive lock per folder; the second command waits and says for whom), and a
//!   live process's temporaries are never removed by another run's clean-up.
//! - A changed setup (seed, squad, paper) is refused naming what changed and what it would change, and
//!   nothing is written, the kept previous state included; `--rewrite-history` says what changes and
//!   replays the log with the new setup, keeping the state from before it as the previous one.
//! - A missing state file names its backup and the exact copy that restores it, and `campaign new`
//!   refuses a folder that holds a campaign's backup or case packets.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Child, Output, Stdio};

use crate::support::{blockprint, bp, ok, s, stderr, tree};
use blockprint::campaign::{self, Member, Setup, Step};
use blockprint::check;
use blockprint::content::{ContentRoot, Library};
use blockprint::render::{Format, Paper};

const SQUAD: &str = "Ana Ruiz,Walt Kowalski=harbour patrol,Mei Chen";
const LOCK: &str = ".blockprint.lock";

fn library() -> Library {
    let (lib, report) = check::load_and_check(&ContentRoot::Embedded).unwrap();
    assert_eq!(report.errors(), 0);
    lib
}

/// The setup `campaign new DIR --seed SEED --detectives SQUAD --packets json` writes.
fn setup(seed: u64) -> Setup {
    let member = |name: &str, assignment: Option<&str>| Member {
        name: name.into(),
        assignment: assignment.map(Into::into),
    };
    Setup {
        year: 1976,
        seed,
        paper: Paper::A4,
        packets: vec![Format::Json],
        detectives: vec![
            member("Ana Ruiz", None),
            member("Walt Kowalski", Some("harbour patrol")),
            member("Mei Chen", None),
        ],
        roll: 0,
    }
}

/// `blockprint campaign CMD DIR ARGS…`.
fn campaign(cmd: &str, dir: &Path, args: &[&str]) -> Output {
    let mut v = vec!["campaign", cmd, s(dir)];
    v.extend(args);
    blockprint(&v)
}

fn new_campaign(dir: &Path, seed: u64) {
    ok(&campaign(
        "new",
        dir,
        &[
            "--seed",
            &seed.to_string(),
            "--detectives",
            SQUAD,
            "--packets",
            "json",
            "-q",
        ],
    ));
}

/// A campaign command started in the background, its output piped.
fn spawn(args: &[&str]) -> Child {
    bp().args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start blockprint")
}

fn fails(o: &Output, code: i32) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// The command log of a state file, as `campaign` subcommands (`week`, `close 1976-02`).
fn log(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("campaign.toml")).unwrap();
    let v: toml::Value = toml::from_str(&text).unwrap();
    v.get("command")
        .and_then(|c| c.as_array())
        .map(|a| {
            a.iter()
                .map(|c| {
                    let cmd = c["command"].as_str().unwrap().to_owned();
                    match c.get("case").and_then(|x| x.as_str()) {
                        Some(case) => format!("{cmd} {case}"),
                        None => cmd,
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A copy of the folder `from` at `to` (files and folders).
fn copy_tree(from: &Path, to: &Path) {
    for (rel, bytes) in tree(from) {
        let p = to.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

/// Every file under `dir` whose name is one of blockprint's temporaries (`.<name>.tmp-<pid>`).
fn temporaries(dir: &Path) -> Vec<String> {
    tree(dir)
        .into_keys()
        .filter(|k| k.contains(".tmp-"))
        .collect()
}

/// A kind folder is whole: its manifest lists every visible file in it, each with its sha256, and no
/// temporary is left.
fn assert_whole(folder: &Path) {
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(folder.join("manifest.json")).unwrap()).unwrap();
    let listed: BTreeMap<String, String> = manifest["files"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
        .collect();
    let on_disk: BTreeMap<String, Vec<u8>> = tree(folder)
        .into_iter()
        .map(|(k, v)| (k.replace('\\', "/"), v))
        .filter(|(k, _)| !k.rsplit('/').next().unwrap().starts_with('.') && k != "manifest.json")
        .collect();
    assert_eq!(
        listed.keys().collect::<Vec<_>>(),
        on_disk.keys().collect::<Vec<_>>(),
        "{}: the manifest and the files differ",
        folder.display()
    );
    for (k, bytes) in &on_disk {
        assert_eq!(
            blockprint::render::manifest::sha256(bytes),
            listed[k],
            "{k} is not the file the manifest records"
        );
        if k.ends_with(".json") {
            serde_json::from_slice::<serde_json::Value>(bytes)
                .unwrap_or_else(|e| panic!("{k} is not whole JSON: {e}"));
        }
    }
    assert!(temporaries(folder).is_empty(), "{:?}", temporaries(folder));
}

// ---------------------------------------------------------------------------------------------------
// Item 1: two commands at once.

/// The issue's reproduction, twenty times: `campaign week` and `campaign close` started together on one
/// folder. Both exit 0 and both reach the log, in one order or the other, and the previous state holds
/// the log after the first of them. Most rounds had both processes running at the same moment (so the
/// rounds did run at once).
#[test]
fn two_campaign_commands_at_once_both_reach_the_log() {
    let t = tempfile::tempdir().unwrap();
    let start = t.path().join("start");
    new_campaign(&start, 42);
    ok(&campaign("week", &start, &["-q"]));
    assert_eq!(log(&start), ["week"]);
    let rounds = 20;
    let mut together = 0;
    for round in 0..rounds {
        let dir = t.path().join(format!("round-{round}"));
        copy_tree(&start, &dir);
        let mut week = spawn(&["campaign", "week", s(&dir), "-q"]);
        let close = spawn(&["campaign", "close", s(&dir), "1976-02", "-q"]);
        if week.try_wait().unwrap().is_none() {
            together += 1;
        }
        let (week, close) = (
            week.wait_with_output().unwrap(),
            close.wait_with_output().unwrap(),
        );
        let both = format!("{}{}", stderr(&week), stderr(&close));
        assert_eq!(week.status.code(), Some(0), "round {round}: {both}");
        assert_eq!(close.status.code(), Some(0), "round {round}: {both}");
        let got = log(&dir);
        assert!(
            got == ["week", "week", "close 1976-02"] || got == ["week", "close 1976-02", "week"],
            "round {round}: the log is {got:?}\n{both}"
        );
        let prev: toml::Value =
            toml::from_str(&std::fs::read_to_string(dir.join("campaign.prev.toml")).unwrap())
                .unwrap();
        assert_eq!(
            prev["command"].as_array().unwrap().len(),
            2,
            "round {round}"
        );
        assert_whole(&dir.join("cases"));
        assert!(temporaries(&dir).is_empty(), "round {round}");
        // The campaign goes on from there.
        ok(&campaign("week", &dir, &["-q"]));
        assert_eq!(log(&dir).len(), 4, "round {round}");
    }
    assert!(
        together >= rounds / 2,
        "only {together} of {rounds} rounds ran the two commands at once"
    );
}

/// Two `case` runs of one batch into one output folder at once, one writing JSON and one Markdown, ten
/// rounds: both exit 0, and the folder ends whole, its manifest listing the files of both runs.
#[test]
fn two_runs_into_one_output_folder_both_land_whole() {
    let t = tempfile::tempdir().unwrap();
    let mut together = 0;
    let rounds = 10;
    for round in 0..rounds {
        let out = t.path().join(format!("out-{round}"));
        let args = |format: &'static str| {
            vec![
                "case".to_owned(),
                "--seed".into(),
                "7".into(),
                "--count".into(),
                "12".into(),
                "--format".into(),
                format.into(),
                "--out".into(),
                s(&out).to_owned(),
            ]
        };
        let a = args("json");
        let b = args("md");
        let mut ra = spawn(&a.iter().map(String::as_str).collect::<Vec<_>>());
        let rb = spawn(&b.iter().map(String::as_str).collect::<Vec<_>>());
        if ra.try_wait().unwrap().is_none() {
            together += 1;
        }
        let (ra, rb) = (
            ra.wait_with_output().unwrap(),
            rb.wait_with_output().unwrap(),
        );
        ok(&ra);
        ok(&rb);
        let cases = out.join("cases");
        assert_whole(&cases);
        let files = tree(&cases);
        for n in 1..=12 {
            let stem = format!("1976-{n:02}/1976-{n:02}");
            assert!(
                files.contains_key(&format!("{stem}.json")),
                "round {round}: {stem}.json"
            );
            assert!(
                files.contains_key(&format!("{stem}.md")),
                "round {round}: {stem}.md"
            );
        }
    }
    assert!(
        together >= rounds / 2,
        "only {together} of {rounds} rounds ran the two at once"
    );
}

/// A second command on a folder another holds waits for it, saying so with the holder's process id,
/// and then runs.
#[cfg(unix)]
#[test]
fn a_second_command_waits_and_names_the_holder() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("sq");
    new_campaign(&dir, 42);
    // This test process takes the folder's lock as blockprint does, with its id in the file.
    let mut held = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.join(LOCK))
        .unwrap();
    held.lock().unwrap();
    held.set_len(0).unwrap();
    write!(held, "{}", std::process::id()).unwrap();
    let mut week = spawn(&["campaign", "week", s(&dir), "-q"]);
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(
        week.try_wait().unwrap().is_none(),
        "the command ran while another held the folder"
    );
    assert!(log(&dir).is_empty());
    // Let go as blockprint does: the file goes first, then the lock (the waiter, holding the lock of a file
    // no longer there, takes a new one).
    std::fs::remove_file(dir.join(LOCK)).unwrap();
    held.unlock().unwrap();
    let o = week.wait_with_output().unwrap();
    ok(&o);
    assert_eq!(
        stderr(&o).lines().next().unwrap_or(""),
        format!(
            "waiting for another blockprint command on {} (pid {})…",
            dir.display(),
            std::process::id()
        )
    );
    assert_eq!(log(&dir), ["week"]);
    assert!(
        !dir.join(LOCK).exists(),
        "a finished command left its lock file"
    );
}

/// The clean-up of a killed run's temporaries leaves those of a live process alone: a temporary named for
/// a running process survives a run into its folder, one named for a process that has ended goes.
#[cfg(target_os = "linux")]
#[test]
fn a_live_process_temporaries_are_never_removed() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("out");
    let run = || {
        ok(&blockprint(&[
            "case",
            "--seed",
            "3",
            "--count",
            "2",
            "--format",
            "json",
            "-q",
            "--out",
            s(&out),
        ]))
    };
    run();
    let mut live = std::process::Command::new("sleep")
        .arg("30")
        .spawn()
        .unwrap();
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let gone_pid = gone.id();
    gone.wait().unwrap();
    let live_tmp = out.join(format!("cases/1976-01/.1976-01.json.tmp-{}", live.id()));
    let gone_tmp = out.join(format!("cases/1976-02/.1976-02.json.tmp-{gone_pid}"));
    std::fs::write(&live_tmp, b"half a file").unwrap();
    std::fs::write(&gone_tmp, b"half a file").unwrap();
    run();
    let live_kept = live_tmp.exists();
    let _ = live.kill();
    let _ = live.wait();
    assert!(live_kept, "a running process's temporary was removed");
    assert!(
        !gone_tmp.exists(),
        "a temporary of a process that ended was kept"
    );
}

// ---------------------------------------------------------------------------------------------------
// Item 2: the setup is fixed once the campaign has begun.

/// A campaign of a few commands: new, four weeks, a month, a week and the close of an open case. Returns
/// its log.
fn played(dir: &Path, seed: u64) -> Vec<Step> {
    new_campaign(dir, seed);
    let mut steps = vec![Step::Week; 4];
    steps.push(Step::Month);
    steps.push(Step::Week);
    for st in &steps {
        let cmd = match st {
            Step::Week => "week",
            _ => "month",
        };
        ok(&campaign(cmd, dir, &["-q"]));
    }
    ok(&campaign("close", dir, &["1976-02", "-q"]));
    steps.push(Step::Close {
        case: "1976-02".into(),
    });
    steps
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(text.matches(from).count(), 1, "{from}");
    std::fs::write(path, text.replace(from, to)).unwrap();
}

/// How many of `old`'s rolls come out otherwise in `new`: another purpose, stream, dice or result (the
/// outcome's words follow from those and the names), or missing from `new`.
fn changed_rolls(old: &campaign::Derived, new: &campaign::Derived) -> usize {
    let key = |r: &campaign::Roll| {
        (
            r.purpose.clone(),
            r.stream.clone(),
            r.dice.clone(),
            r.result,
        )
    };
    (0..old.rolls.len())
        .filter(|&i| new.rolls.get(i).map(key) != Some(key(&old.rolls[i])))
        .count()
}

/// The issue's reproduction: `sed -i 's/^seed = 42$/seed = 43/'` and a command. Refused (exit 1), naming
/// the seed, both values, what it would change and `--rewrite-history`; neither the state file nor the
/// previous state is touched, by `week`, `status`, `undo` or `packets`; putting the seed back works.
#[test]
fn a_changed_seed_is_refused_and_nothing_is_written() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("d");
    let steps = played(&dir, 42);
    let lib = library();
    let old = campaign::replay(&lib, &setup(42), &steps).unwrap();
    let new = campaign::replay(&lib, &setup(43), &steps).unwrap();
    let changed = changed_rolls(&old, &new);
    assert!(changed > 0);
    let state = dir.join("campaign.toml");
    let good = std::fs::read(&state).unwrap();
    let sed = std::process::Command::new("sed")
        .args(["-i", "s/^seed = 42$/seed = 43/", s(&state)])
        .status()
        .unwrap();
    assert!(sed.success());
    let edited = std::fs::read(&state).unwrap();
    assert_ne!(edited, good);
    let prev = std::fs::read(dir.join("campaign.prev.toml")).unwrap();
    let cases = tree(&dir.join("cases"));
    for cmd in ["week", "status", "undo", "packets"] {
        let err = fails(&campaign(cmd, &dir, &[]), 1);
        assert!(
            err.contains("the setup changed after the campaign began: seed 42 → 43"),
            "{cmd}: {err}"
        );
        assert!(
            err.contains(&format!(
                "{changed} of the {} recorded rolls would come out differently",
                old.rolls.len()
            )),
            "{cmd}: {err}"
        );
        assert!(err.contains("--rewrite-history"), "{cmd}: {err}");
        assert!(err.contains("seed = 42"), "{cmd}: {err}");
        assert!(err.contains("campaign.toml:"), "{cmd}: {err}");
        assert_eq!(std::fs::read(&state).unwrap(), edited, "{cmd}");
        assert_eq!(
            std::fs::read(dir.join("campaign.prev.toml")).unwrap(),
            prev,
            "{cmd} wrote the changed state into the previous one"
        );
        assert_eq!(tree(&dir.join("cases")), cases, "{cmd} wrote packets");
    }
    // Put the seed back: the next command carries on from the recorded log.
    std::fs::write(&state, &good).unwrap();
    ok(&campaign("week", &dir, &["-q"]));
    assert_eq!(log(&dir).len(), steps.len() + 1);
    assert_eq!(std::fs::read(dir.join("campaign.prev.toml")).unwrap(), good);
}

/// Every field of the setup is held: the squad, the paper, the packets and the year are refused as the
/// seed is, each named with its old and new value.
#[test]
fn every_setup_field_is_held() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("d");
    played(&dir, 42);
    let state = dir.join("campaign.toml");
    let good = std::fs::read_to_string(&state).unwrap();
    let cases = [
        (
            "paper = \"a4\"",
            "paper = \"letter\"",
            "paper a4 → letter",
            "no recorded roll would change",
        ),
        (
            "packets = [\"json\"]",
            "packets = [\"md\"]",
            "packets json → md",
            "no recorded roll would change",
        ),
        (
            "year = 1976\nseed",
            "year = 1977\nseed",
            "year 1976 → 1977",
            "the log no longer replays: command 7 of the log (`close 1976-02`) cannot be applied: there is no case 1976-02",
        ),
        (
            "name = \"Mei Chen\"\n\n[[command]]",
            "name = \"May Chen\"\n\n[[command]]",
            "detectives Ana Ruiz, Walt Kowalski=harbour patrol, Mei Chen → Ana Ruiz, Walt Kowalski=harbour patrol, May Chen",
            "",
        ),
    ];
    for (from, to, says, consequence) in cases {
        let edited = good.replacen(from, to, 1);
        assert_ne!(edited, good, "{from}");
        std::fs::write(&state, &edited).unwrap();
        let err = fails(&campaign("week", &dir, &[]), 1);
        assert!(err.contains(says), "{says}: {err}");
        assert!(err.contains(consequence), "{says}: {err}");
        assert_eq!(std::fs::read_to_string(&state).unwrap(), edited);
    }
    std::fs::write(&state, &good).unwrap();
    ok(&campaign("status", &dir, &["-q", "--format", "md"]));
}

/// `--rewrite-history` says what changes, replays the whole log with the new setup, writes every packet
/// again and keeps the state from before the change as the previous one; the campaign then goes on
/// without the flag.
#[test]
fn rewrite_history_says_what_changes_and_replays_the_log() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("d");
    let mut steps = played(&dir, 42);
    let lib = library();
    let old = campaign::replay(&lib, &setup(42), &steps).unwrap();
    let before = std::fs::read_to_string(dir.join("campaign.toml")).unwrap();
    edit(&dir.join("campaign.toml"), "\nseed = 42\n", "\nseed = 43\n");
    let o = campaign("week", &dir, &["--rewrite-history", "-q"]);
    ok(&o);
    steps.push(Step::Week);
    let new = campaign::replay(&lib, &setup(43), &steps).unwrap();
    let old_full = campaign::replay(&lib, &setup(42), &steps[..steps.len() - 1]).unwrap();
    assert_eq!(old_full, old);
    let rewritten = campaign::replay(&lib, &setup(43), &steps[..steps.len() - 1]).unwrap();
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "rewriting the history with the changed setup: seed 42 → 43: {} of the {} recorded rolls come out differently",
            changed_rolls(&old, &rewritten),
            old.rolls.len()
        )),
        "{err}"
    );
    // The state is the new setup's, exactly as the library works it out.
    let text = std::fs::read_to_string(dir.join("campaign.toml")).unwrap();
    assert_eq!(
        text,
        campaign::file::render(&lib, &setup(43), &steps, &new).unwrap()
    );
    // The previous state is the campaign as it stood before the change, and it loads as it is.
    assert_eq!(
        std::fs::read_to_string(dir.join("campaign.prev.toml")).unwrap(),
        before
    );
    // Every packet is the new setup's.
    for c in &new.cases {
        let json =
            std::fs::read_to_string(dir.join(format!("cases/{0}/{0}.json", c.number))).unwrap();
        assert!(
            json.contains(&format!("\"lead_detective\": \"{}\"", c.lead)),
            "{json}"
        );
        assert!(
            json.contains(&format!("\"date_in\": \"{}\"", &c.came_in[..10])),
            "{json}"
        );
    }
    assert_whole(&dir.join("cases"));
    // And it goes on without the flag.
    ok(&campaign("week", &dir, &["-q"]));
    assert_eq!(log(&dir).len(), steps.len() + 1);
}

/// A change under which the log no longer replays is refused even with `--rewrite-history`, naming the
/// command that no longer fits; nothing is written.
#[test]
fn a_rewrite_the_log_cannot_follow_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("d");
    new_campaign(&dir, 42);
    ok(&campaign("week", &dir, &["-q"]));
    ok(&campaign("close", &dir, &["1976-03", "-q"]));
    let state = dir.join("campaign.toml");
    // Mei Chen (whose starting case is 1976-03) leaves the setup: with seed 42 the first week brings no
    // case, so there is no 1976-03 to close.
    let lib = library();
    let mut two = setup(42);
    two.detectives.pop();
    let d = campaign::replay(&lib, &two, &[Step::Week]).unwrap();
    assert!(!d.cases.iter().any(|c| c.number == "1976-03"));
    let text = std::fs::read_to_string(&state).unwrap();
    let edited = text.replacen("\n[[setup.detectives]]\nname = \"Mei Chen\"\n", "", 1);
    assert_ne!(edited, text);
    std::fs::write(&state, &edited).unwrap();
    let prev = std::fs::read(dir.join("campaign.prev.toml")).unwrap();
    let err = fails(&campaign("week", &dir, &["--rewrite-history"]), 1);
    assert!(
        err.contains(
            "command 2 of the log (`close 1976-03`) cannot be applied: there is no case 1976-03"
        ),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&state).unwrap(), edited);
    assert_eq!(std::fs::read(dir.join("campaign.prev.toml")).unwrap(), prev);
}

// ---------------------------------------------------------------------------------------------------
// Item 3: a missing state file.

/// `rm D/campaign.toml`: every command names the backup and the exact copy that restores it; `campaign
/// new D` is refused (the backup and the packets are named, and how to start elsewhere), and the backup
/// is untouched; running the copy as printed restores the campaign, which goes on.
#[cfg(unix)]
#[test]
fn a_missing_state_file_names_its_backup_and_the_copy_that_restores_it() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("d");
    new_campaign(&dir, 42);
    ok(&campaign("week", &dir, &["-q"]));
    ok(&campaign("week", &dir, &["-q"]));
    let prev = std::fs::read(dir.join("campaign.prev.toml")).unwrap();
    std::fs::remove_file(dir.join("campaign.toml")).unwrap();
    let copy = format!(
        "cp {} {}",
        dir.join("campaign.prev.toml").display(),
        dir.join("campaign.toml").display()
    );
    for cmd in ["week", "status", "undo"] {
        let err = fails(&campaign(cmd, &dir, &[]), 2);
        assert!(
            err.contains(&format!(
                "{} holds no campaign.toml, but its previous state is in {}",
                dir.display(),
                dir.join("campaign.prev.toml").display()
            )),
            "{err}"
        );
        assert!(
            err.contains("it holds 1 command (the last: `week`)"),
            "{err}"
        );
        assert!(err.lines().any(|l| l.trim() == copy), "{err}");
        assert!(!err.contains("start one with"), "{err}");
    }
    let err = fails(
        &campaign(
            "new",
            &dir,
            &["--seed", "42", "--detectives", SQUAD, "--packets", "json"],
        ),
        2,
    );
    assert!(
        err.contains(&format!(
            "{}, its previous state",
            dir.join("campaign.prev.toml").display()
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "{} holds case packets of a campaign (3 cases)",
            dir.join("cases").display()
        )),
        "{err}"
    );
    assert!(err.lines().any(|l| l.trim() == copy), "{err}");
    assert!(err.contains("choose another folder"), "{err}");
    assert!(!dir.join("campaign.toml").exists());
    assert_eq!(std::fs::read(dir.join("campaign.prev.toml")).unwrap(), prev);
    // Without a seed too, and before a seed is chosen and printed.
    let err = fails(&campaign("new", &dir, &["--detectives", SQUAD]), 2);
    assert!(!err.contains("seed:"), "{err}");
    // The copy, run as printed, restores the campaign as it stood one command back.
    let status = std::process::Command::new("sh")
        .args(["-c", &copy])
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(log(&dir), ["week"]);
    ok(&campaign("week", &dir, &["-q"]));
    assert_eq!(log(&dir), ["week", "week"]);
}

/// `campaign new` refuses a folder holding another campaign's case packets (no backup), saying what is
/// there; a folder without a backup or packets, or one a stopped `campaign new` of the same setup left,
/// is accepted; a missing state file without a backup says to start one.
#[test]
fn campaign_new_refuses_a_folder_with_a_campaigns_packets() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("d");
    new_campaign(&dir, 42);
    // `undo` with nothing to undo no longer says to remove the state file (which would leave a folder
    // `campaign new` refuses): it says to begin elsewhere.
    let err = fails(&campaign("undo", &dir, &[]), 2);
    assert!(
        err.contains("to start again, begin a new campaign in another folder"),
        "{err}"
    );
    std::fs::remove_file(dir.join("campaign.toml")).unwrap();
    assert!(!dir.join("campaign.prev.toml").exists());
    let err = fails(&campaign("week", &dir, &[]), 2);
    assert!(err.contains("holds no campaign"), "{err}");
    assert!(err.contains("blockprint campaign new"), "{err}");
    // Another campaign's packets: refused, naming the folder and what is in it.
    let err = fails(
        &campaign(
            "new",
            &dir,
            &["--seed", "7", "--detectives", SQUAD, "--packets", "json"],
        ),
        2,
    );
    assert!(
        err.contains(&format!(
            "{} holds case packets of a campaign (3 cases)",
            dir.join("cases").display()
        )),
        "{err}"
    );
    assert!(err.contains("choose another folder"), "{err}");
    assert!(!dir.join("campaign.toml").exists());
    // The same setup again (a `campaign new` stopped before it wrote its state): it finishes.
    new_campaign(&dir, 42);
    assert!(log(&dir).is_empty());
    // A folder with other things in it, but no campaign's: accepted as before.
    let other = t.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("notes.txt"), b"ours").unwrap();
    new_campaign(&other, 42);
    assert_eq!(std::fs::read(other.join("notes.txt")).unwrap(), b"ours");
}

/// Finished commands leave no lock file and no other hidden file, in the campaign folder or its kind
/// folders; a lock file a killed command left (its process id in it) is taken over and removed.
#[cfg(unix)]
#[test]
fn finished_commands_leave_no_hidden_file() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("d");
    new_campaign(&dir, 42);
    ok(&campaign("week", &dir, &["-q"]));
    let hidden = |dir: &Path| -> Vec<String> {
        tree(dir)
            .into_keys()
            .map(|k| k.replace('\\', "/"))
            .filter(|k| k.split('/').any(|part| part.starts_with('.')))
            .collect()
    };
    assert_eq!(hidden(&dir), Vec::<String>::new());
    std::fs::write(dir.join(LOCK), b"4194305").unwrap();
    std::fs::write(dir.join("cases").join(LOCK), b"4194305").unwrap();
    ok(&campaign("week", &dir, &["-q"]));
    assert_eq!(hidden(&dir), Vec::<String>::new());
    assert_eq!(log(&dir), ["week", "week"]);
}

// ---------------------------------------------------------------------------------------------------
// Item 5: anything `check` accepts renders for every kind, however deep a chapter nests.

/// A container a chapter can nest: block quote, bullet list, numbered list, emphasis, strong emphasis,
/// link.
#[derive(Clone, Copy, PartialEq)]
enum Level {
    Quote,
    Bullets,
    Numbers,
    Emph,
    Strong,
    Link,
}

/// What sits inside the innermost block container.
#[derive(Clone, Copy)]
enum Bottom {
    Para,
    Heading,
    Grid,
    Placed,
    Code,
}

/// One nested shape as Markdown: the block levels, then the inline levels around a word, then the
/// bottom (a heading, grid, placed table or code block only where no inline level is open). Returns the
/// text and the line (0-based, within the text) and column (1-based) where the container at
/// `MAX_NESTING + 1` opens, if the shape is that deep.
fn shape(levels: &[Level], bottom: Bottom, id: usize) -> (String, Option<(usize, usize)>) {
    use blockprint::content::prose::MAX_NESTING;
    let blocks: Vec<Level> = levels
        .iter()
        .copied()
        .take_while(|l| matches!(l, Level::Quote | Level::Bullets | Level::Numbers))
        .collect();
    let inlines = &levels[blocks.len()..];
    let mut first = String::new();
    let mut cont = String::new();
    let mut too_deep = None;
    for (i, b) in blocks.iter().enumerate() {
        if i == MAX_NESTING {
            too_deep = Some((0, first.chars().count() + 1));
        }
        let (open, more) = match b {
            Level::Quote => ("> ", "> "),
            Level::Bullets => ("- ", "  "),
            _ => ("1. ", "   "),
        };
        first.push_str(open);
        cont.push_str(more);
    }
    let mut open = String::new();
    let mut close = String::new();
    for (i, l) in inlines.iter().enumerate() {
        if blocks.len() + i == MAX_NESTING {
            let lead = format!("Shape {id}: ");
            too_deep = Some((
                0,
                first.chars().count() + lead.chars().count() + open.chars().count() + 1,
            ));
        }
        let odd = i % 2 == 1;
        let (o, c) = match (l, odd) {
            (Level::Emph, false) => ("*", "*".to_owned()),
            (Level::Emph, true) => ("_", "_".to_owned()),
            (Level::Strong, false) => ("**", "**".to_owned()),
            (Level::Strong, true) => ("__", "__".to_owned()),
            _ => ("[", "](https://example.com/deep)".to_owned()),
        };
        open.push_str(&format!("{o}w{i} "));
        close = format!(" w{i}{c}{close}");
    }
    let lines: Vec<String> = if !inlines.is_empty() {
        vec![format!("Shape {id}: {open}deep{close}.")]
    } else {
        match bottom {
            Bottom::Para => vec![format!("Shape {id}, plain at the bottom.")],
            Bottom::Heading => vec![format!("### Shape {id} heading")],
            Bottom::Grid => vec![
                format!("| Shape {id} | cell |"),
                "|---|---|".into(),
                "| a | b |".into(),
            ],
            Bottom::Placed => vec![
                format!("Shape {id} leads into a table."),
                String::new(),
                "{table:bbb.homicide.district}".into(),
            ],
            Bottom::Code => vec!["```".into(), format!("shape {id}"), "```".into()],
        }
    };
    let mut text = String::new();
    for (i, l) in lines.iter().enumerate() {
        let prefix = if i == 0 { &first } else { &cont };
        let line = format!("{prefix}{l}");
        text.push_str(if l.is_empty() { line.trim_end() } else { &line });
        text.push('\n');
    }
    (text, too_deep)
}

/// Shapes of every kind of level, pseudo-random but fixed (a linear congruential generator with a fixed
/// seed), each at most `depth` deep, and the worst ones exactly `depth` deep: only block levels with each
/// bottom, the issue's block quotes, lists of both kinds, and inline levels alone.
fn shapes(depth: usize, n: usize) -> Vec<(Vec<Level>, Bottom)> {
    let bottoms = [
        Bottom::Para,
        Bottom::Heading,
        Bottom::Grid,
        Bottom::Placed,
        Bottom::Code,
    ];
    let mut out = Vec::new();
    for b in bottoms {
        out.push((vec![Level::Quote; depth], b));
        out.push((vec![Level::Bullets; depth], b));
        out.push((
            (0..depth)
                .map(|i| [Level::Quote, Level::Numbers, Level::Bullets][i % 3])
                .collect(),
            b,
        ));
    }
    out.push((
        (0..depth)
            .map(|i| {
                if i % 2 == 0 {
                    Level::Emph
                } else {
                    Level::Strong
                }
            })
            .collect(),
        Bottom::Para,
    ));
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |m: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as usize) % m
    };
    for _ in 0..n {
        let d = 1 + next(depth);
        let nb = next(d + 1);
        let mut levels: Vec<Level> = (0..nb)
            .map(|_| [Level::Quote, Level::Bullets, Level::Numbers][next(3)])
            .collect();
        let mut link = false;
        for _ in nb..d {
            let l = [Level::Emph, Level::Strong, Level::Link][next(3)];
            // A link inside a link is text in Markdown: one link per shape.
            let l = if l == Level::Link && link {
                Level::Strong
            } else {
                l
            };
            link |= l == Level::Link;
            levels.push(l);
        }
        out.push((levels, bottoms[next(bottoms.len())]));
    }
    out
}

/// How deep the checker's parser finds a chapter body to nest.
fn parsed_depth(body: &str) -> usize {
    blockprint::content::prose::parse(body, "themes")
        .nesting
        .depth
}

/// Every shape up to the limit (the worst ones exactly at it) in a chapter: `check` accepts it, and
/// `build` makes every kind (the SRD in PDF, Markdown and JSON) with exit 0, on A4 and Letter. One level
/// more, anywhere: `check` refuses it at the chapter's line and column of the level past the limit,
/// with the fix, and `srd` and `build` refuse it the same way (exit 1, never 70) and write nothing. The
/// issue's 35 block quotes are refused so too.
#[test]
fn anything_check_accepts_renders_for_every_kind_however_deep_a_chapter_nests() {
    use blockprint::content::prose::MAX_NESTING;
    let t = tempfile::tempdir().unwrap();
    let content = t.path().join("content");
    ok(&blockprint(&["init", "-q", s(&content)]));
    let chapter = content.join("bbb/srd/themes.md");
    let original = std::fs::read_to_string(&chapter).unwrap();
    let mut body = String::from("\n\n## Deep shapes\n\n");
    let all = shapes(MAX_NESTING, 40);
    for (i, (levels, bottom)) in all.iter().enumerate() {
        let (text, too_deep) = shape(levels, *bottom, i);
        assert_eq!(too_deep, None);
        assert_eq!(parsed_depth(&text), levels.len(), "shape {i}:\n{text}");
        body.push_str(&text);
        body.push_str("\n<!-- end of shape -->\n\n");
    }
    assert_eq!(parsed_depth(&body), MAX_NESTING);
    std::fs::write(&chapter, format!("{original}{body}")).unwrap();
    ok(&blockprint(&["check", "--content", s(&content)]));
    for paper in ["a4", "letter"] {
        let out = t.path().join(format!("out-{paper}"));
        ok(&blockprint(&[
            "build",
            "-q",
            "--content",
            s(&content),
            "--paper",
            paper,
            "--out",
            s(&out),
        ]));
        let md = std::fs::read_to_string(out.join("srd/block-by-block-srd.md")).unwrap();
        assert!(
            md.contains("Shape 0, plain at the bottom."),
            "the shapes reach the Markdown"
        );
        assert!(
            out.join("srd/block-by-block-srd.pdf").is_file()
                && out.join("srd/block-by-block-srd.json").is_file()
        );
    }

    // One level more: a block quote around the first shapes of each kind, or a level added inside.
    let line_of = |text: &str| text.lines().count();
    let mut past: Vec<(String, usize, usize)> = Vec::new();
    for (levels, bottom) in all.iter().take(16) {
        let mut deeper = levels.clone();
        deeper.insert(0, Level::Quote);
        let (text, at) = shape(&deeper, *bottom, 99);
        let (line, col) = at.expect("one past the limit");
        past.push((text, line, col));
    }
    let issue = format!("{}Thirty-five quotes deep.\n", "> ".repeat(35));
    past.push((issue, 0, 2 * MAX_NESTING + 1));
    for (text, line, col) in past {
        let head = format!("{original}\n\nA paragraph before it.\n\n");
        let at_line = line_of(&head) + 1 + line;
        std::fs::write(&chapter, format!("{head}{text}")).unwrap();
        let place = format!("bbb/srd/themes.md:{at_line}:{col}");
        let o = blockprint(&["check", "--content", s(&content)]);
        assert_eq!(o.status.code(), Some(1), "{text}\n{}", stderr(&o));
        let report = String::from_utf8_lossy(&o.stdout).into_owned() + &stderr(&o);
        assert!(report.contains("error[too_deep]"), "{report}");
        assert!(
            report.contains(&place.replace("bbb/srd/", "")) || report.contains(&place),
            "{place} in\n{report}"
        );
        assert!(
            report.contains(&format!("the outputs set at most {MAX_NESTING}")),
            "{report}"
        );
        assert!(report.contains("take out levels"), "{report}");
        for cmd in ["srd", "build"] {
            let out = t.path().join(format!("refused-{cmd}"));
            let o = blockprint(&[cmd, "-q", "--content", s(&content), "--out", s(&out)]);
            assert_eq!(o.status.code(), Some(1), "{cmd}: {}", stderr(&o));
            assert!(stderr(&o).contains("themes.md:"), "{cmd}: {}", stderr(&o));
            assert!(
                !out.exists() || tree(&out).is_empty(),
                "{cmd} wrote nothing"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Item 15: a rerun of a finished batch rewrites nothing.

/// Every file under `dir` with its modification time (to the nanosecond).
fn mtimes(dir: &Path) -> BTreeMap<String, std::time::SystemTime> {
    tree(dir)
        .into_keys()
        .map(|k| {
            let t = std::fs::metadata(dir.join(&k)).unwrap().modified().unwrap();
            (k, t)
        })
        .collect()
}

/// The issue's reproduction (`case --format json,md --count 20` twice) and the same with PDFs: the
/// rerun reports every file up to date and leaves every file as it was, the per-case files, the index,
/// the merged PDFs and the manifest, to the nanosecond. A merged PDF edited by hand is merged again, a
/// deleted Markdown file is written again, both byte for byte as before, and nothing else is touched.
#[test]
fn a_rerun_of_a_finished_batch_rewrites_nothing() {
    let t = tempfile::tempdir().unwrap();
    let run = |out: &Path, formats: &str, count: &str| {
        let o = blockprint(&[
            "case",
            "--seed",
            "42",
            "--count",
            count,
            "--format",
            formats,
            "--out",
            s(out),
        ]);
        ok(&o);
        stderr(&o)
    };
    let md = t.path().join("md");
    let first = run(&md, "json,md", "20");
    assert!(first.contains("41 files (0 already up to date)"), "{first}");
    let before = mtimes(&md);
    let bytes = tree(&md);
    std::thread::sleep(std::time::Duration::from_millis(20));
    let again = run(&md, "json,md", "20");
    assert!(
        again.contains("41 files (41 already up to date)"),
        "{again}"
    );
    assert_eq!(mtimes(&md), before, "no file was rewritten");
    assert_eq!(tree(&md), bytes);

    let pdf = t.path().join("pdf");
    let first = run(&pdf, "pdf,json,md", "6");
    // 6 cases × (GM PDF, handout PDF, JSON, Markdown), the two merged PDFs and the index.
    assert!(first.contains("27 files (0 already up to date)"), "{first}");
    let before = mtimes(&pdf);
    let bytes = tree(&pdf);
    assert!(before.contains_key("cases/gm.pdf") && before.contains_key("cases/handouts.pdf"));
    std::thread::sleep(std::time::Duration::from_millis(20));
    let again = run(&pdf, "pdf,json,md", "6");
    assert!(
        again.contains("27 files (27 already up to date)"),
        "{again}"
    );
    assert_eq!(mtimes(&pdf), before, "no file was rewritten");

    // A merged PDF spoiled by hand and a case's Markdown deleted: both made again, nothing else.
    std::fs::write(pdf.join("cases/gm.pdf"), b"%PDF-1.7 spoiled").unwrap();
    std::fs::remove_file(pdf.join("cases/1976-03/1976-03.md")).unwrap();
    let before = mtimes(&pdf);
    std::thread::sleep(std::time::Duration::from_millis(20));
    let fixed = run(&pdf, "pdf,json,md", "6");
    assert!(
        fixed.contains("27 files (25 already up to date)"),
        "{fixed}"
    );
    assert_eq!(
        tree(&pdf),
        bytes,
        "byte for byte as the first run made them"
    );
    let after = mtimes(&pdf);
    let touched: Vec<&String> = after
        .iter()
        .filter(|(k, t)| before.get(*k) != Some(t))
        .map(|(k, _)| k)
        .collect();
    assert_eq!(
        touched,
        [
            "cases/1976-03/1976-03.md",
            "cases/gm.pdf",
            "cases/manifest.json"
        ],
        "only what was spoiled, and the manifest that records it"
    );
}

// ---------------------------------------------------------------------------------------------------
// Found by the `render` fuzz target: a dice lookup too big to work out exactly.

/// `check` works out every dice lookup value exactly, as the reference cards and the kits that print
/// its odds do: a fight damage of `200d100!` (more distinct values than a distribution may list) was
/// accepted by `check`, and `cards` then failed. It is refused at its place with the dice engine's
/// reason and advice, by `check` and by `cards`, which writes nothing.
#[test]
fn a_dice_lookup_check_accepts_can_be_worked_out_for_the_cards() {
    let t = tempfile::tempdir().unwrap();
    let content = t.path().join("content");
    ok(&blockprint(&["init", "-q", s(&content)]));
    let file = content.join("bbb/06-action.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let line = "  { key = \"Rifle\",                   value = \"1d12!\" },";
    let at = text
        .lines()
        .position(|l| l == line)
        .expect("the rifle's damage")
        + 1;
    std::fs::write(&file, text.replace("\"1d12!\"", "\"200d100!\"")).unwrap();
    let col = line.find("\"1d12!\"").unwrap() + 1;
    let o = blockprint(&["check", "--content", s(&content)]);
    let report = String::from_utf8_lossy(&o.stdout).into_owned() + &fails(&o, 1);
    assert!(
        report.contains(&format!("06-action.toml:{at}:{col}")),
        "{at}:{col} in\n{report}"
    );
    assert!(
        report.contains(
            "`200d100!` for `Rifle`: `200d100!` has more than 200000 distinct values, more than an \
             exact distribution may list"
        ),
        "{report}"
    );
    assert!(
        report.contains("use fewer dice or dice with fewer sides"),
        "{report}"
    );
    let out = t.path().join("out");
    let o = blockprint(&["cards", "-q", "--content", s(&content), "--out", s(&out)]);
    assert!(fails(&o, 1).contains("06-action.toml:"), "{}", stderr(&o));
    assert!(
        !out.exists() || tree(&out).is_empty(),
        "cards wrote nothing"
    );
}

// ---------------------------------------------------------------------------------------------------
// Found by the `render` fuzz target: a kit prose page without a heading the kit prints.

/// Every `(game, page, anchor)` a kind places from a kit's prose page, with the kinds that place it,
/// as the kinds declare it ([`blockprint::check::Requirements::prose`]).
fn placed_headings() -> BTreeMap<(String, String, String), Vec<String>> {
    let registry =
        blockprint::generators::Registry::new(&blockprint::render::Templates::builtin()).unwrap();
    let mut out: BTreeMap<(String, String, String), Vec<String>> = BTreeMap::new();
    for kind in registry.kinds() {
        for (game, page, anchors) in kind.requires().prose {
            for a in anchors {
                let kinds = out.entry((game.clone(), page.clone(), a)).or_default();
                if !kinds.contains(&kind.name().to_owned()) {
                    kinds.push(kind.name().to_owned());
                }
            }
        }
    }
    out
}

/// The anchors of a page's `##` headings, in order.
fn heading_anchors(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("## "))
        .map(blockprint::content::prose::anchor)
        .collect()
}

/// `check` refuses a kit prose page that lacks a `##` heading a kit prints: renaming the heading
/// `## Blank sheet` of the Call of Cthulhu track page was accepted by `check` and then failed `kit coc`.
/// For every heading any kind places (30 of them across the five kits), renaming it is refused at the
/// page's first line with the exact message and fix, once per kind that places it; the unmodified
/// content passes.
#[test]
fn check_refuses_a_kit_page_without_a_heading_a_kit_prints() {
    let placed = placed_headings();
    // 30 across the five kits, 9 reference cards, 6 approach cards and each page's card labels.
    assert_eq!(placed.len(), 47, "{placed:?}");
    for (game, page, anchor, kind) in [
        ("coc", "track", "blank-sheet", "kit-coc"),
        ("uw", "sheet", "exact-odds", "kit-urban-world"),
        ("rbf", "round", "gates-and-exits", "kit-rbf"),
        ("sp", "sheet", "foot-speed", "kit-storypath"),
        ("bbb", "mat", "chase-mat", "kit-bbb"),
    ] {
        let key = (game.to_owned(), page.to_owned(), anchor.to_owned());
        assert_eq!(placed.get(&key), Some(&vec![kind.to_owned()]), "{key:?}");
    }
    let both = vec!["cards".to_owned(), "kit-bbb".to_owned()];
    let key = (
        "bbb".to_owned(),
        "reference-cards".to_owned(),
        "the-da".to_owned(),
    );
    assert_eq!(placed.get(&key), Some(&both), "{key:?}");
    let key = (
        "bbb".to_owned(),
        "approach-cards".to_owned(),
        "clam-up".to_owned(),
    );
    assert_eq!(placed.get(&key), Some(&vec!["cards".to_owned()]), "{key:?}");
    let lib = library();
    let t = tempfile::tempdir().unwrap();
    let content = t.path().join("content");
    ok(&blockprint(&["init", "-q", s(&content)]));
    ok(&blockprint(&["check", "--content", s(&content)]));
    for ((game, page, anchor), kinds) in &placed {
        let kit = lib.kit(game).expect("the kit");
        let rel = lib.sources[kit.page(page).expect("the page").file]
            .path
            .clone();
        let file = content.join(&rel);
        let text = std::fs::read_to_string(&file).unwrap();
        let heading = text
            .lines()
            .filter(|l| {
                l.strip_prefix("## ")
                    .map(blockprint::content::prose::anchor)
                    == Some(anchor.clone())
            })
            .collect::<Vec<_>>();
        assert_eq!(heading.len(), 1, "{rel}: `{anchor}`");
        let renamed = text.replace(heading[0], &format!("## Xq {}", &heading[0][3..]));
        std::fs::write(&file, &renamed).unwrap();
        let o = blockprint(&["check", "--content", s(&content)]);
        std::fs::write(&file, &text).unwrap();
        let report = String::from_utf8_lossy(&o.stdout).into_owned() + &fails(&o, 1);
        // The page's first written line, after its `+++` front matter.
        let body = renamed.lines().skip(1).position(|l| l == "+++").unwrap() + 2;
        let line = renamed
            .lines()
            .enumerate()
            .skip(body)
            .find(|(_, l)| !l.trim().is_empty())
            .unwrap()
            .0
            + 1;
        let listed = heading_anchors(&renamed)
            .iter()
            .map(|a| format!("`{a}`"))
            .collect::<Vec<_>>()
            .join(", ");
        for kind in kinds {
            let message = format!(
                "error[missing_requirement]: the `{kind}` generator prints the part `{anchor}` of the \
                 `{game}` kit's page `{page}`, which has no `##` heading with that anchor (its `##` \
                 headings' anchors: {listed})\n  ┌─ {rel}:{line}:1\n"
            );
            assert!(report.contains(&message), "{message}\nin\n{report}");
        }
        assert_eq!(
            report.matches("error[missing_requirement]").count(),
            kinds.len(),
            "{report}"
        );
        assert!(
            report.contains(&format!(
                "= help: add a `##` heading whose anchor is `{anchor}` (its words in lower case \
                 joined by hyphens), or add the built-in part: `blockprint init --update DIR`, DIR \
                 being this content folder, adds every part a page lacks"
            )),
            "{report}"
        );
        assert!(
            report.contains(&format!("in {}: {} error", s(&content), kinds.len())),
            "{report}"
        );
    }
    ok(&blockprint(&["check", "--content", s(&content)]));
}

/// Every folder and file under `dir` (folders end in `/`), or `None` when `dir` does not exist.
fn listing(dir: &Path) -> Option<Vec<(String, Vec<u8>)>> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(root).unwrap().display().to_string();
            if p.is_dir() {
                out.push((format!("{rel}/"), Vec::new()));
                walk(root, &p, out);
            } else {
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    if !dir.exists() {
        return None;
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    Some(out)
}

/// A failing run writes nothing new: a `kit coc` refused for a missing heading, and one whose template
/// fails while the kit is being made (after its folder was made and some pages written), leave the output
/// folder exactly as it was, absent when it was absent (a failing `kit coc` left an empty-looking `kits`
/// folder).
#[test]
fn a_failing_kit_leaves_the_output_folder_as_it_was() {
    let t = tempfile::tempdir().unwrap();
    let content = t.path().join("content");
    ok(&blockprint(&["init", "-q", s(&content)]));
    let track = content.join("coc/kit/track.md");
    let text = std::fs::read_to_string(&track).unwrap();
    assert!(text.contains("\n## Blank sheet\n"));
    std::fs::write(
        &track,
        text.replace("\n## Blank sheet\n", "\n## Empty sheet\n"),
    )
    .unwrap();
    let templates = t.path().join("templates");
    std::fs::create_dir_all(templates.join("kit-coc")).unwrap();
    std::fs::write(templates.join("kit-coc/hazards.typ"), "#let x = (\n").unwrap();
    let before = t.path().join("before");
    std::fs::create_dir_all(before.join("kits/bbb")).unwrap();
    std::fs::write(before.join("keep.txt"), "mine\n").unwrap();
    std::fs::write(before.join("kits/bbb/notes.md"), "mine too\n").unwrap();
    for (name, args, says) in [
        (
            "heading",
            vec!["--content", s(&content)],
            "1 content error(s)",
        ),
        (
            "template",
            vec!["--templates", s(&templates)],
            "template `kit-coc/hazards.typ` failed",
        ),
    ] {
        for out in [t.path().join(format!("absent-{name}/out")), before.clone()] {
            let was = listing(&out);
            let mut v = vec!["kit", "coc", "-q", "--seed", "7", "--out", s(&out)];
            v.extend(&args);
            let o = blockprint(&v);
            assert!(fails(&o, 1).contains(says), "{}", stderr(&o));
            assert_eq!(listing(&out), was, "{name}: {}", out.display());
        }
        assert!(!t.path().join(format!("absent-{name}")).exists());
    }
}

/// `check` refuses a code span in the cards' prose that names nothing the cards compute, at the span:
/// the `data` fuzz target found a reference-cards page that named the chase outcome table's rows
/// (`outcome`) as a value in a sentence, which `check` accepted and `cards` and `kit-bbb` then failed
/// on. A span naming a value the cards compute stays accepted wherever a value may stand, and the
/// cards are made from it.
#[test]
fn check_refuses_a_cards_code_span_naming_nothing_the_cards_compute() {
    let t = tempfile::tempdir().unwrap();
    let content = t.path().join("content");
    ok(&blockprint(&["init", "-q", s(&content)]));
    let reference = content.join("bbb/kit/reference-cards.md");
    let approach = content.join("bbb/kit/approach-cards.md");
    let original = std::fs::read_to_string(&reference).unwrap();
    let original_approach = std::fs::read_to_string(&approach).unwrap();
    // (file, from, to, the span, the role it is read in, what the generators compute in that role,
    // the generators that read the page)
    let both = ["cards", "kit-bbb"];
    let values = "`outcome-dice`, `lawyer-dice`, `lawyer-odds`, `lawyer-result`, `per-break`";
    let cases = [
        (
            &reference,
            "### At 0 HP roll `outcome-dice`",
            "### At 0 HP roll `outcome`",
            "outcome",
            "a value",
            format!("it computes {values}"),
            &both[..],
        ),
        (
            &reference,
            "\n`closing-modifiers`\n",
            "\nAdd the `closing-modifiers` to the roll.\n",
            "closing-modifiers",
            "a value",
            format!("it computes {values}"),
            &both[..],
        ),
        (
            &reference,
            "\n`closing-modifiers`\n",
            "\n`closing-modifier`\n",
            "closing-modifier",
            "a block",
            "it computes `closing-modifiers`".to_owned(),
            &both[..],
        ),
        (
            &approach,
            "Coffee, sympathy, a way out.",
            "Coffee, `sympathy`, a way out.",
            "sympathy",
            "a value",
            "it computes none".to_owned(),
            &["cards"][..],
        ),
    ];
    for (file, from, to, span, role, computes, kinds) in cases {
        let text = std::fs::read_to_string(file).unwrap();
        assert_eq!(text.matches(from).count(), 1, "{from}");
        let edited = text.replace(from, to);
        std::fs::write(file, &edited).unwrap();
        let o = blockprint(&["check", "--content", s(&content)]);
        std::fs::write(file, &text).unwrap();
        let report = String::from_utf8_lossy(&o.stdout).into_owned() + &fails(&o, 1);
        let at = edited.find(&format!("`{span}`")).unwrap();
        let line = edited[..at].matches('\n').count() + 1;
        let column = at - edited[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
        let page = file.file_stem().unwrap().to_str().unwrap();
        for kind in kinds {
            let message = format!(
                "error[missing_requirement]: the `{kind}` generator reads `{span}` in the `bbb` kit's \
                 page `{page}` as {role}, which it does not compute ({computes})\n{pad}┌─ \
                 bbb/kit/{page}.md:{line}:{column}\n",
                pad = " ".repeat(line.to_string().len() + 1)
            );
            assert!(report.contains(&message), "{message}\nin\n{report}");
        }
        assert_eq!(
            report.matches("error[missing_requirement]").count(),
            kinds.len(),
            "{report}"
        );
        assert!(
            report.contains(
                "= help: write the name of one it computes, or write the words without the code \
                 span, or restore the page from the built-in content (`blockprint init DIR` writes it)"
            ),
            "{report}"
        );
    }
    // A value the cards compute, written in a sentence of another card: accepted, and the cards made.
    let edited = original.replace(
        "\n`closing-modifiers`\n",
        "\n`closing-modifiers`\n\nEach Break adds `per-break`.\n",
    );
    assert_ne!(edited, original);
    std::fs::write(&reference, &edited).unwrap();
    ok(&blockprint(&["check", "--content", s(&content)]));
    let out = t.path().join("out");
    ok(&blockprint(&[
        "make",
        "cards",
        "--content",
        s(&content),
        "--out",
        s(&out),
        "--format",
        "md",
        "-q",
    ]));
    std::fs::write(&reference, &original).unwrap();
    assert_eq!(
        std::fs::read_to_string(&approach).unwrap(),
        original_approach
    );
    ok(&blockprint(&["check", "--content", s(&content)]));
}

/// Content files in memory: (path relative to the content folder, with `/`; bytes).
type ContentFiles = Vec<(String, Vec<u8>)>;

/// The files of a folder as `load_files` takes them (relative path with `/`, bytes), in path order, the
/// `.toml` and `.md` files only and a README at the top left out (as the `data` fuzz target reads a
/// content folder): `ContentRoot::files`, filtered.
fn content_files(root: &Path) -> ContentFiles {
    let mut files = ContentRoot::Dir(root.to_path_buf()).files().unwrap();
    files.retain(|(rel, _)| rel != "README.md" && (rel.ends_with(".toml") || rel.ends_with(".md")));
    files
}

/// The incremental check the `data` fuzz target runs (the loader's and the checker's caches, kept from
/// one content to the next, each differing from the last in a file or more) gives what a whole load and
/// check give, to the last diagnostic, fraction and item, and so does each kind's requirements check: over every game's folder, every `data` seed
/// (the built-in content with one file replaced, as the target replaces it), edits of each seed (cut
/// short, another die, its numbers changed) and every checker fixture, each twice.
#[test]
fn the_incremental_check_gives_the_whole_checks_report() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let builtin = content_files(&repo.join("content"));
    let game = |rel: &str| rel.split('/').next().unwrap_or(rel).to_owned();
    let mut contents: Vec<(String, ContentFiles)> = Vec::new();
    let mut games: Vec<String> = builtin.iter().map(|(rel, _)| game(rel)).collect();
    games.dedup();
    for g in &games {
        let own: Vec<_> = builtin
            .iter()
            .filter(|(rel, _)| game(rel) == *g)
            .cloned()
            .collect();
        contents.push((format!("content/{g}"), own));
    }
    let mut seeds: Vec<_> = std::fs::read_dir(repo.join("fuzz/seeds/data"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    seeds.sort();
    assert!(
        seeds.len() >= builtin.len(),
        "a seed for every content file"
    );
    for seed in &seeds {
        let bytes = std::fs::read(seed).unwrap();
        let [pick, _, text @ ..] = &bytes[..] else {
            panic!("{} is shorter than two bytes", seed.display());
        };
        let text: String = String::from_utf8_lossy(text)
            .chars()
            .map(|c| {
                if blockprint::content::forbidden_control(c) {
                    ' '
                } else {
                    c
                }
            })
            .collect();
        let i = *pick as usize % builtin.len();
        let picked = &builtin[i].0;
        let half = text.len() / 2;
        let half = (0..=half)
            .rev()
            .find(|&n| text.is_char_boundary(n))
            .unwrap();
        let variants = [
            text.clone(),
            text[..half].to_owned(),
            text.replace("2d6", "1d8")
                .replace("1d100", "2d10")
                .replace("d6", "d4"),
            text.replace('1', "2").replace('4', "9"),
            text.replace("## ", "# ").replace("{table:", "{table:x"),
        ];
        for (v, new) in variants.into_iter().enumerate() {
            let files = builtin
                .iter()
                .enumerate()
                .filter(|(_, (rel, _))| game(rel) == game(picked))
                .map(|(j, (rel, b))| {
                    (
                        rel.clone(),
                        if j == i {
                            new.clone().into_bytes()
                        } else {
                            b.clone()
                        },
                    )
                })
                .collect();
            contents.push((format!("{} (variant {v})", seed.display()), files));
        }
    }
    let mut fixtures: Vec<_> = std::fs::read_dir(repo.join("tests/fixtures/check"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("content").is_dir())
        .collect();
    fixtures.sort();
    for f in &fixtures {
        let files = content_files(&f.join("content"));
        contents.push((f.display().to_string(), files.clone()));
        contents.push((format!("{} (again)", f.display()), files));
    }
    let templates = blockprint::render::Templates::builtin();
    let registry = blockprint::generators::Registry::new(&templates).unwrap();
    let mut load_cache = blockprint::content::LoadCache::default();
    let mut check_cache = check::Cache::default();
    let (mut refused, mut accepted) = (0, 0);
    // Twice over, so that every content is also met with the caches holding it.
    for round in 0..2 {
        for (name, files) in &contents {
            let (lib, diags) = blockprint::content::load_files(files.clone());
            let whole = check::run(&lib, diags);
            let (cached_lib, cached_diags) =
                blockprint::content::load_files_cached(files.clone(), &mut load_cache);
            assert_eq!(
                format!("{cached_lib:?}"),
                format!("{lib:?}"),
                "{name}: the library (round {round})"
            );
            let cached = check::run_cached(&cached_lib, cached_diags, &mut check_cache);
            assert_eq!(
                cached.diagnostics, whole.diagnostics,
                "{name}: the diagnostics (round {round})"
            );
            assert_eq!(cached.odds, whole.odds, "{name}: the odds (round {round})");
            assert_eq!(
                cached.editorial, whole.editorial,
                "{name}: the editorial fills (round {round})"
            );
            assert_eq!(
                format!("{:?}", cached.stats),
                format!("{:?}", whole.stats),
                "{name}"
            );
            // What each kind requires, through the same cache.
            for k in registry.kinds() {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let (req, always) = (k.requires(), k.requires_always());
                check::requires::check(&lib, k.name(), &req, always, &mut a);
                check::requires::check_cached(
                    &cached_lib,
                    k.name(),
                    &req,
                    always,
                    &mut check_cache,
                    &mut b,
                );
                assert_eq!(b, a, "{name}: what `{}` requires (round {round})", k.name());
            }
            if whole.errors() > 0 {
                refused += 1;
            } else {
                accepted += 1;
            }
        }
    }
    // Both verdicts are compared, many times each.
    assert!(
        refused >= 100 && accepted >= 100,
        "{refused} refused, {accepted} accepted"
    );
}
