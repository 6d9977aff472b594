//! `blockprint chase odds|play|table` for Block by Block and the Call of Cthulhu-style chase (issue 23,
//! part A): exact answers through the command line, the labelled simulation, logs that replay against the
//! rules and repeat byte for byte, the kit's seeded track, and bad options refused with exit 2.
//! The statistical tests (exact against 10^5 simulated chases) are unit tests of crates/chase.

use blockprint_chase::coc::{self, Gap, Level};
use blockprint_chase::{Grid, PlayLog, SystemArgs};
use clap::Parser;

use crate::support::{blockprint, stderr, stdout};

fn json(args: &[&str]) -> serde_json::Value {
    let o = blockprint(args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn lib() -> blockprint_content::Library {
    blockprint_content::load(&blockprint_content::ContentRoot::Embedded)
        .expect("built-in content loads")
        .0
}

#[derive(clap::Parser)]
struct Systems {
    #[command(subcommand)]
    s: SystemArgs,
}

/// The clear three-location track worked by hand in crates/chase's unit tests, through the command line.
#[test]
fn odds_json_gives_exact_fractions() {
    let v = json(&[
        "chase",
        "odds",
        "coc",
        "--track",
        "clear,clear",
        "--pursuer-dex",
        "60",
        "--json",
    ]);
    assert_eq!(v["method"], "exact");
    let endings: Vec<(String, String, f64)> = v["endings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["id"].as_str().unwrap().to_string(),
                e["fraction"].as_str().unwrap().to_string(),
                e["percent"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        endings,
        [
            ("outpaced".to_string(), "29/100".to_string(), 29.0),
            ("escaped".into(), "21/50".into(), 42.0),
            ("caught".into(), "29/100".into(), 29.0),
            ("quarry-wrecked".into(), "0".into(), 0.0),
            ("pursuer-wrecked".into(), "0".into(), 0.0),
        ]
    );
    assert_eq!(v["length"]["mean_fraction"], "71/100");
    assert_eq!(v["length"]["median"], 1);
    assert_eq!(v["length"]["p90"], 1);
    assert_eq!(v["policy"]["id"], "reckless");
}

#[test]
fn a_deck_too_big_for_exact_is_simulated_and_says_so() {
    let o = blockprint(&["chase", "odds", "bbb"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("SIMULATED, not exact: 100000 chases from seed 1"),
        "{out}"
    );
    assert!(out.contains("52-card deck"), "{out}");
    assert!(out.contains("(99 %: "), "{out}");
    // The same question, the same answer; another seed, another sample.
    assert_eq!(stdout(&blockprint(&["chase", "odds", "bbb"])), out);
    let v = json(&["chase", "odds", "bbb", "--json", "--seed", "9"]);
    assert_eq!(v["method"], "simulated");
    assert_eq!(v["runs"], 100000);
    assert_eq!(v["seed"], 9);
    // One round of the same chase is exact.
    let v = json(&["chase", "odds", "bbb", "--rounds", "1", "--json"]);
    assert_eq!(v["method"], "exact");
}

/// Every question is answered within the budget (issue 36): past the exact solver's work it is simulated,
/// naming the budget and how many chases ran; best play too big to plan is refused in words (exit 2) in
/// bounded time rather than run for minutes; the same question always gives the same answer.
#[test]
fn every_question_is_answered_within_its_budget() {
    // A faster pursuer with 30 MOV on the kit's track: the exact solver stops at its budget.
    let v = json(&["chase", "odds", "coc", "--pursuer-mov", "30", "--json"]);
    assert_eq!(v["method"], "simulated");
    assert_eq!(v["runs"], 100000);
    assert_eq!(
        v["reason"],
        "exact needs more work than its budget of 40000000 units (about 0.6 s of CPU)"
    );
    assert_eq!(
        json(&["chase", "odds", "coc", "--pursuer-mov", "30", "--json"]),
        v
    );
    let o = blockprint(&[
        "chase",
        "odds",
        "coc",
        "--pursuer-mov",
        "30",
        "--policy",
        "best",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert_eq!(
        stderr(&o),
        "error: invalid value for --policy: `best` cannot be worked out for this chase within a question's budget (more work than its budget of 40000000 units (about 0.6 s of CPU)); the other policies are answered, by a simulation where the exact answer is out of reach\n"
    );
    // Long simulated chases stop at the simulation's own budget and say how many ran.
    let v = json(&[
        "chase",
        "odds",
        "bbb",
        "--policy",
        "unaware",
        "--quarry-hp",
        "200",
        "--pursuer-hp",
        "200",
        "--json",
    ]);
    let runs = v["runs"].as_u64().unwrap();
    assert!(runs > 1000 && runs < 100000, "{runs}");
    assert!(
        v["reason"].as_str().unwrap().ends_with(&format!(
            "; {runs} chases rather than 100000, as a simulation stops at its budget of 2500000 units of work (rounds played and rolls made)"
        )),
        "{}",
        v["reason"]
    );
    // One round of Block by Block is exact under `slow` whatever the modifiers, under `unaware` while
    // at most one suit is set apart and under `swerve` while none is; past that the round is simulated
    // and says so (the README says which and why).
    for (args, method) in [
        (
            &[
                "--quarry-mods",
                "dex=1,cha=2,int=-1",
                "--pursuer-mods",
                "wis=1",
            ][..],
            "exact",
        ),
        (
            &["--policy", "unaware", "--quarry-mods", "dex=1"][..],
            "exact",
        ),
        (&["--policy", "swerve", "--pursuer-faster"][..], "exact"),
        (
            &["--policy", "swerve", "--quarry-mods", "dex=1"][..],
            "simulated",
        ),
    ] {
        let mut a = vec!["chase", "odds", "bbb", "--rounds", "1", "--json"];
        a.extend_from_slice(args);
        assert_eq!(json(&a)["method"], method, "{args:?}");
    }
}

/// `chase play`: the same seed gives the same bytes, and the JSON log replays against the rules.
#[test]
fn play_logs_repeat_and_replay() {
    let lib = lib();
    for args in [
        &["bbb", "--quarry-level", "2", "--pursuer-level", "3"][..],
        &["bbb", "--policy", "swerve", "--quarry-hp", "6"][..],
        &["coc", "--pursuer-mov", "9"][..],
        &["coc", "--policy", "cautious", "--quarry-skill", "70"][..],
    ] {
        for seed in ["3", "77"] {
            let mut cmd = vec!["chase", "play"];
            cmd.extend_from_slice(args);
            cmd.extend_from_slice(&["--seed", seed, "--format", "md,json"]);
            let a = blockprint(&cmd);
            assert_eq!(a.status.code(), Some(0), "{cmd:?}: {}", stderr(&a));
            assert_eq!(stdout(&a), stdout(&blockprint(&cmd)), "{cmd:?}");
            let out = stdout(&a);
            let (md, js) = out.split_at(out.find("\n{").expect("JSON after the Markdown") + 1);
            assert!(md.starts_with("# "), "{md}");
            assert!(md.contains(&format!(" from seed {seed}\n")), "{md}");
            let log: PlayLog = serde_json::from_str(js).unwrap();
            let mut sys = vec!["x"];
            sys.extend_from_slice(args);
            let sys: Vec<&str> = strip_policy(&sys);
            let chase = Systems::parse_from(&sys).s.build(&lib).unwrap();
            let p = blockprint_chase::policy_index(&chase.info(), Some(&log.policy.id)).unwrap();
            assert_eq!(chase.replay(p, &log), Ok(()), "{cmd:?}");
            // Every roll in the Markdown, with its faces.
            let rolls = log
                .steps
                .iter()
                .flat_map(|s| &s.events)
                .filter(|e| matches!(e, blockprint_chase::Event::Roll { .. }))
                .count();
            assert_eq!(md.matches("]: ").count(), rolls, "{md}");
        }
    }
}

fn strip_policy<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut skip = false;
    for a in args {
        if skip {
            skip = false;
            continue;
        }
        if *a == "--policy" {
            skip = true;
            continue;
        }
        out.push(*a);
    }
    out
}

/// `--track-seed N` is the track `blockprint kit coc --seed N` prints.
#[test]
fn coc_seeded_track_is_the_kits_track() {
    let lib = lib();
    for seed in 0..25u64 {
        let kit = blockprint::generators::kits::coc::roll_track(&lib, seed).unwrap();
        let ours = coc::seeded_track(&lib, seed).unwrap();
        let theirs: Vec<Gap> = kit
            .gaps
            .iter()
            .map(|g| {
                let level = match g.tag.as_str() {
                    "regular" => Some(Level::Regular),
                    "hard" => Some(Level::Hard),
                    "extreme" => Some(Level::Extreme),
                    _ => None,
                };
                match (level, g.obstacle.as_deref(), g.hp) {
                    (None, _, _) => Gap::Clear,
                    (Some(l), Some("Barrier"), Some(hp)) => Gap::Barrier(l, hp as u32),
                    (Some(l), _, _) => Gap::Hazard(l),
                }
            })
            .collect();
        assert_eq!(ours, theirs, "seed {seed}");
    }
}

#[test]
fn tables_are_grids_of_odds() {
    let v = json(&["chase", "table", "coc", "--json"]);
    let g: Grid = serde_json::from_value(v).unwrap();
    assert_eq!(g.headline.id, "caught");
    assert_eq!(g.tables.len(), 1);
    let t = &g.tables[0];
    assert_eq!(t.rows, ["MOV −2", "MOV −1", "MOV +0", "MOV +1", "MOV +2"]);
    assert_eq!(t.cols, ["30%", "40%", "50%", "60%", "70%"]);
    assert!(t.cells.iter().flatten().all(|c| c.exact));
    // The middle cell is the default chase: equal MOV, skill 50 %.
    let odds = json(&["chase", "odds", "coc", "--json"]);
    let caught = odds["endings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "caught")
        .unwrap();
    assert_eq!(
        t.cells[2][2].fraction.as_deref(),
        caught["fraction"].as_str()
    );
    // A faster pursuer catches more often, whatever the skill.
    for col in 0..5 {
        for row in 1..5 {
            assert!(t.cells[row][col].percent > t.cells[row - 1][col].percent);
        }
    }
    let v = json(&["chase", "table", "bbb", "--json"]);
    let g: Grid = serde_json::from_value(v).unwrap();
    assert_eq!(g.tables.len(), 3);
    assert!(g.tables.iter().all(|t| {
        t.cells
            .iter()
            .flatten()
            .all(|c| !c.exact && c.interval.is_some())
    }));
    let md = stdout(&blockprint(&["chase", "table", "bbb"]));
    assert!(
        md.contains("\n≈ Simulated, not exact: 10000 chases per cell"),
        "{md}"
    );
    // Both axes are named in the grid's corner; a simulated cell is marked ≈, as the kit's page marks it.
    assert!(
        md.contains("| Quarry level ↓ · Pursuer level → | Pursuer level 1 | Pursuer level 2 |"),
        "{md}"
    );
    let first = &g.tables[0].cells[0][0];
    assert!(md.contains(&format!("| ≈{:.1} % |", first.percent)), "{md}");
    assert!(!md.contains('*') || !md.contains(" %*"), "{md}");
    let md = stdout(&blockprint(&["chase", "table", "coc"]));
    assert!(
        md.contains("| MOV difference ↓ · Skill at hazards (both sides) → | 30% |"),
        "{md}"
    );
    assert!(!md.contains('≈'), "{md}");
}

/// Every answer prints the model's house rulings, each with its reason: `chase odds` (text and JSON),
/// `chase play` (Markdown and JSON) and `chase table` (Markdown and JSON).
#[test]
fn every_answer_prints_its_rulings_with_why() {
    let cases: [&[&str]; 5] = [
        &["bbb", "--rounds", "1"],
        &["coc", "--track", "clear,hard,clear"],
        &["urban-world"],
        &["rbf"],
        &["storypath", "--ties", "quarry"],
    ];
    for args in cases {
        let odds = |extra: &[&'static str]| -> Vec<&'static str> {
            let mut v = vec!["chase", "odds"];
            v.extend_from_slice(args);
            v.extend_from_slice(extra);
            v
        };
        let j = json(&odds(&["--json"]));
        let rulings = j["rulings"].as_array().unwrap().clone();
        assert!(rulings.len() >= 4, "{args:?}");
        let text = stdout(&blockprint(&odds(&[])));
        let mut play = vec!["chase", "play"];
        play.extend_from_slice(args);
        play.extend_from_slice(&["--seed", "7", "--format", "md,json"]);
        let played = stdout(&blockprint(&play));
        let (md, log) = played.split_once("\n{").expect("md then json");
        let log: PlayLog = serde_json::from_str(&format!("{{{log}")).unwrap();
        assert_eq!(
            serde_json::to_value(&log.rulings).unwrap(),
            serde_json::Value::Array(rulings.clone()),
            "{args:?}"
        );
        for r in &rulings {
            let (t, rule, why) = (
                r["title"].as_str().unwrap(),
                r["ruling"].as_str().unwrap(),
                r["reason"].as_str().unwrap(),
            );
            assert!(
                text.contains(&format!("  - {t}: {rule} Why: {why}\n")),
                "{args:?}: {text}"
            );
            assert!(
                md.contains(&format!("- **{t}.** {rule} *Why: {why}*\n")),
                "{args:?}: {md}"
            );
        }
    }
    // The Storypath answer states its dice, one success one lap, and the tie rule asked for.
    let text = stdout(&blockprint(&[
        "chase",
        "odds",
        "storypath",
        "--ties",
        "quarry",
    ]));
    for says in [
        "Dice pools: A pool is one d10 per dot of Skill plus Attribute, and every die showing 8 or more is one success.",
        "One success, one lap: ",
        "Both sides finish in the same interval: When both sides complete their laps in the same interval, the quarry gets away",
        "the quarry wins every tie",
    ] {
        assert!(text.contains(says), "{says}: {text}");
    }
    let md = stdout(&blockprint(&["chase", "table", "urban-world"]));
    let j = json(&["chase", "table", "urban-world", "--format", "json"]);
    for r in j["rulings"].as_array().unwrap() {
        assert!(
            md.contains(&format!(
                "- **{}.** {} *Why: {}*\n",
                r["title"].as_str().unwrap(),
                r["ruling"].as_str().unwrap(),
                r["reason"].as_str().unwrap()
            )),
            "{md}"
        );
    }
}

#[test]
fn bad_options_exit_2_naming_the_option() {
    for (args, says) in [
        (
            &["chase", "odds", "coc", "--quarry-mov", "-3"][..],
            "--quarry-mov",
        ),
        (
            &["chase", "odds", "bbb", "--quarry-hp", "0"][..],
            "--quarry-hp",
        ),
        (
            &["chase", "odds", "bbb", "--quarry-level", "-1"][..],
            "--quarry-level",
        ),
        (
            &["chase", "odds", "bbb", "--policy", "floor-it"][..],
            "--policy",
        ),
        (
            &["chase", "play", "coc", "--seed", "1", "--policy", "run"][..],
            "--policy",
        ),
        (
            &["chase", "odds", "coc", "--track", "clear,lava"][..],
            "--track",
        ),
        (
            &["chase", "odds", "coc", "--track", "clear,hard-barrier"][..],
            "--track",
        ),
        (
            &["chase", "table", "bbb", "--quarry-mods", "luck=3"][..],
            "--quarry-mods",
        ),
        (&["chase", "odds", "coc", "--range", "3"][..], "--range"),
        (
            &["chase", "odds", "bbb", "--quarry-mods", "wis=1,wis=2"][..],
            "--quarry-mods: `wis=2` gives Wisdom a second time",
        ),
        (
            &["chase", "odds", "storypath", "--ties", "coin"][..],
            "--ties",
        ),
    ] {
        let o = blockprint(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(says), "{args:?}: {e}");
        assert!(!e.contains("panicked"), "{args:?}: {e}");
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
}
