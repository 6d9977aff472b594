//! Unit tests of the framework and of the systems of this crate: exact against seeded simulation, hand-
//! worked cases, play logs replayed against the rules, bad options.

use clap::Parser;
use num_bigint::BigInt;

use super::*;

mod options;
mod rulings;

#[derive(clap::Parser)]
struct Cli {
    #[command(subcommand)]
    s: SystemArgs,
}

fn lib() -> Library {
    let (lib, diags) =
        blockprint_content::load(&blockprint_content::ContentRoot::from_option(None))
            .expect("built-in content loads");
    assert!(
        diags.iter().all(|d| !d.is_error()),
        "built-in content has errors"
    );
    lib
}

fn chase(args: &[&str]) -> Box<dyn Chase> {
    let mut v = vec!["chase"];
    v.extend_from_slice(args);
    Cli::parse_from(v)
        .s
        .build(&lib())
        .expect("options are good")
}

fn frac(n: i64, d: i64) -> P {
    P::new(BigInt::from(n), BigInt::from(d))
}

/// The exact chance of each ending against a seeded simulation of 10^5 chases: within 4 standard
/// deviations of the exact value, for every ending.
fn agree(args: &[&str], policy: usize) {
    let c = chase(args);
    let exact = c
        .exact(policy, &Budget::default())
        .unwrap_or_else(|e| panic!("{args:?}: exact refused: {e}"));
    let runs = 100_000u64;
    let sim = c
        .simulate(policy, runs, 2024, "test", &Budget::unlimited())
        .expect("simulated");
    let probs = exact.exact.clone().expect("exact probabilities");
    let names = odds::all_endings(&c.info());
    for (i, (id, _)) in names.iter().enumerate() {
        let p: f64 = num_traits::ToPrimitive::to_f64(&probs[i]).unwrap();
        let s = sim.percent_of(id) / 100.0;
        let sigma = (p * (1.0 - p) / runs as f64).sqrt();
        assert!(
            (s - p).abs() <= 4.0 * sigma + 1e-5,
            "{args:?} policy {policy}: {id} exact {p} simulated {s} (4σ = {})",
            4.0 * sigma
        );
    }
    // Probabilities sum to exactly 1.
    let total = probs.iter().fold(P::from_integer(0.into()), |a, b| a + b);
    assert_eq!(total, frac(1, 1), "{args:?}");
}

#[test]
fn coc_exact_agrees_with_simulation() {
    agree(&["coc"], 0);
    agree(&["coc"], 1);
    agree(&["coc", "--pursuer-mov", "9", "--pursuer-dex", "70"], 0);
    agree(
        &[
            "coc",
            "--track",
            "clear,hard,regular-barrier:10,extreme,clear,hard-barrier:15",
            "--quarry-build",
            "2",
            "--pursuer-build",
            "3",
            "--pursuer-mov",
            "9",
        ],
        2,
    );
}

#[test]
fn bbb_exact_agrees_with_simulation() {
    for policy in 0..3 {
        agree(&["bbb", "--rounds", "1"], policy);
        agree(
            &[
                "bbb",
                "--rounds",
                "1",
                "--quarry-hp",
                "5",
                "--quarry-level",
                "2",
                "--pcs",
                "quarry",
            ],
            policy,
        );
    }
    agree(
        &[
            "bbb",
            "--rounds",
            "1",
            "--quarry-level",
            "3",
            "--quarry-hp",
            "4",
            "--pursuer-hp",
            "3",
            "--pursuer-faster",
        ],
        1,
    );
}

/// A one-round Block by Block chase, level 1 against level 1, 1 Hot Pursuit each, worked by hand:
/// the pursuer (the PCs) goes first on its Wisdom roll's 6 (1/6). Quarry first (5/6): it slows down, the
/// pursuer must beat its first card (1/6) or drop out (5/6). Pursuer first (1/6): it beats the card (1/6)
/// or drops out (5/6); on the quarry's card, the quarry must take the road ahead: beaten 1/6, else
/// boxed in. Pursuer out 25/36 + 5/36 = 5/6; boxed in 1/6 · 1/6 · 5/6 = 5/216; called off 31/216.
#[test]
fn bbb_one_round_by_hand() {
    let c = chase(&[
        "bbb",
        "--rounds",
        "1",
        "--quarry-hp",
        "1",
        "--pursuer-hp",
        "1",
    ]);
    let o = c.exact(0, &Budget::default()).unwrap();
    let p = o.exact.clone().unwrap();
    assert_eq!(p, vec![frac(0, 1), frac(5, 216), frac(5, 6), frac(31, 216)]);
    assert_eq!(
        o.endings
            .iter()
            .map(|e| e.fraction.clone().unwrap())
            .collect::<Vec<_>>(),
        ["0", "5/216", "5/6", "31/216"]
    );
    assert_eq!(o.length.mean_fraction.as_deref(), Some("1"));
    assert_eq!((o.length.median, o.length.p90), (1, 1));
}

/// A Call of Cthulhu-style chase on a clear three-location track, worked by hand. Speed rolls at 50 %:
/// extreme 10/100 (+1 MOV), success 40/100, failure 50/100. The quarry is faster with 0.1 · 0.9 + 0.4 · 0.5
/// = 29/100 and simply escapes; the pursuer is faster just as often (29/100) and, moving first on its
/// higher DEX with two movement actions, reaches the quarry two locations ahead; otherwise (42/100) it
/// moves one location and the quarry, already on the last location, leaves the track.
#[test]
fn coc_clear_track_by_hand() {
    let c = chase(&["coc", "--track", "clear,clear", "--pursuer-dex", "60"]);
    let o = c.exact(0, &Budget::default()).unwrap();
    assert_eq!(
        o.exact.clone().unwrap(),
        vec![
            frac(29, 100),
            frac(42, 100),
            frac(29, 100),
            frac(0, 1),
            frac(0, 1),
            frac(0, 1)
        ]
    );
    assert_eq!(o.length.mean_fraction.as_deref(), Some("71/100"));
    assert_eq!((o.length.median, o.length.p90), (1, 1));
    // Equal DEX: the quarry moves first and always gets off the track.
    let c = chase(&["coc", "--track", "clear,clear"]);
    let p = c.exact(0, &Budget::default()).unwrap().exact.unwrap();
    assert_eq!(&p[..3], &[frac(29, 100), frac(71, 100), frac(0, 1)]);
}

/// The kit's seeded track is the one `kit coc --seed 1` prints (see tests/chase.rs for the comparison
/// with the kit itself); here: it has 9 gaps, and its first gaps are what the content's tables give.
#[test]
fn coc_seeded_track_is_stable() {
    let gaps = coc::seeded_track(&lib(), 1).unwrap();
    assert_eq!(gaps.len(), 9);
    assert_eq!(gaps, coc::seeded_track(&lib(), 1).unwrap());
}

#[test]
fn play_logs_replay_against_the_rules() {
    let setups: [&[&str]; 5] = [
        &["bbb"],
        &[
            "bbb",
            "--quarry-level",
            "3",
            "--pursuer-hp",
            "4",
            "--quarry-mods",
            "dex=1",
        ],
        &["coc"],
        &["coc", "--pursuer-mov", "9", "--pursuer-dex", "70"],
        &[
            "coc",
            "--track",
            "clear,hard,regular-barrier:10,extreme,clear,hard-barrier:15",
            "--quarry-build",
            "2",
            "--pursuer-mov",
            "10",
        ],
    ];
    for args in setups {
        let c = chase(args);
        for policy in 0..c.info().policies.len() {
            for seed in 0..40 {
                let log = c.play(policy, seed, &Budget::default()).unwrap();
                if let Err(e) = c.replay(policy, &log) {
                    panic!("{args:?} policy {policy} seed {seed}: {e}");
                }
                // Through JSON and back, as a reader of `chase play --format json` has it.
                let json = serde_json::to_string(&log).unwrap();
                let back: PlayLog = serde_json::from_str(&json).unwrap();
                assert_eq!(c.replay(policy, &back), Ok(()));
                // Same seed, same log.
                assert_eq!(
                    json,
                    serde_json::to_string(&c.play(policy, seed, &Budget::default()).unwrap())
                        .unwrap()
                );
            }
        }
    }
}

#[test]
fn replay_finds_a_forged_roll() {
    let c = chase(&["coc"]);
    // The first seed whose first speed roll succeeds: its faces forged into 00 and 0 (100, a failure)
    // no longer give the logged result.
    let (seed, log) = (0..100)
        .map(|seed| (seed, c.play(0, seed, &Budget::default()).unwrap()))
        .find(|(_, log)| matches!(log.steps[0].events.first(), Some(Event::Roll { outcome, .. }) if *outcome > 0))
        .expect("a speed roll succeeds within 100 seeds");
    assert_eq!(c.replay(0, &log), Ok(()));
    let mut forged = log.clone();
    if let Some(Event::Roll { faces, .. }) = forged.steps[0].events.first_mut() {
        *faces = vec![0, 0];
    }
    let e = c.replay(0, &forged).expect_err("a forged roll is found");
    assert!(
        e.starts_with("unit 0: event 0: faces [0, 0] give failure (0)"),
        "seed {seed}: {e}"
    );
    // A position changed by hand.
    let mut moved = log.clone();
    moved.steps.last_mut().unwrap().position.push('!');
    assert!(c.replay(0, &moved).is_err());
    // A unit's events cut short.
    let mut cut = log.clone();
    cut.steps[0].events.pop();
    assert!(c.replay(0, &cut).is_err());
}

#[test]
fn simulated_fallback_is_labelled_and_reproducible() {
    let c = chase(&["bbb"]);
    let a = odds(c.as_ref(), 0, &Budget::default(), None).expect("answered");
    let Method::Simulated { runs, seed, reason } = &a.method else {
        panic!("a 60-round Block by Block chase is simulated")
    };
    assert_eq!((*runs, *seed), (SIM_RUNS, SIM_SEED));
    assert!(reason.contains("52-card deck"), "{reason}");
    assert!(
        a.endings
            .iter()
            .all(|e| e.interval.is_some() && e.fraction.is_none())
    );
    assert_eq!(
        a,
        odds(c.as_ref(), 0, &Budget::default(), None).expect("answered")
    );
    let total: f64 = a.endings.iter().map(|e| e.percent).sum();
    assert!((total - 100.0).abs() < 0.01, "{total}");
}

#[test]
fn the_limits_refuse_rather_than_run_on() {
    // Asked to be exact within a tiny budget, the solver stops and says which limit it reached.
    let c = chase(&["coc"]);
    let e = c
        .exact(
            0,
            &Budget {
                max_states: 5,
                ..Budget::default()
            },
        )
        .unwrap_err();
    assert_eq!(e.to_string(), "more than 5 distinct states");
    let e = c
        .exact(
            0,
            &Budget {
                exact_work: 10,
                ..Budget::default()
            },
        )
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "more work than its budget of 10 units (about 0.6 s of CPU)"
    );
}

/// A raised cancel flag stops the exact solver, the simulation and best play's planning alike, and
/// `odds` hands back the cancellation rather than a simulation.
#[test]
fn a_cancelled_question_stops() {
    let budget = Budget::default();
    budget.cancel.cancel();
    let c = chase(&["coc"]);
    assert_eq!(c.exact(0, &budget).unwrap_err(), Stop::Cancelled);
    assert_eq!(
        c.simulate(0, 10, 1, "test", &budget).unwrap_err(),
        Stop::Cancelled
    );
    assert_eq!(
        odds(c.as_ref(), 0, &budget, None).unwrap_err(),
        Stop::Cancelled
    );
    let best = policy_index(&c.info(), Some("best")).unwrap();
    assert_eq!(c.exact(best, &budget).unwrap_err(), Stop::Cancelled);
}

#[test]
fn sixes_and_percentile_checks_are_exact() {
    let three = bbb::SixesCheck {
        dice: 3,
        edge: bbb::Edge::Normal,
    };
    // 1 - (5/6)^3 = 91/216.
    assert_eq!(
        three.outcomes(),
        vec![(frac(91, 216), 1), (frac(125, 216), 0)]
    );
    let adv = bbb::SixesCheck {
        dice: 1,
        edge: bbb::Edge::Advantage,
    };
    assert_eq!(adv.outcomes()[0], (frac(11, 36), 1));
    // With disadvantage one die needs two 6s among two: 1/36.
    let dis = bbb::SixesCheck {
        dice: 1,
        edge: bbb::Edge::Disadvantage,
    };
    assert_eq!(dis.outcomes()[0], (frac(1, 36), 1));
    assert_eq!(dis.judge(&[6, 5]), Some(0));
    assert_eq!(dis.judge(&[6, 6]), Some(1));
    assert_eq!(dis.judge(&[6]), None);
    let p = coc::Percentile {
        skill: 50,
        bonus: 0,
    };
    assert_eq!(
        p.outcomes(),
        vec![
            (frac(10, 100), 3),
            (frac(15, 100), 2),
            (frac(25, 100), 1),
            (frac(50, 100), 0)
        ]
    );
    // One bonus die: P(at most 10) = 1 - P(both readings above 10).
    let b = coc::Percentile {
        skill: 10,
        bonus: 1,
    };
    let success: P = b
        .outcomes()
        .iter()
        .filter(|(_, o)| *o > 0)
        .fold(P::from_integer(0.into()), |a, (p, _)| a + p);
    // Units 1-9: tens 0 on either die (1 - 0.81) gives 01-09; units 0: tens 1 on either (0.19) gives 10
    // while 00 reads 100. So 0.9 · 0.19 + 0.1 · 0.19 = 0.19.
    assert_eq!(success, frac(19, 100));
    assert_eq!(p.judge(&[0, 0]), Some(0));
    assert_eq!(p.judge(&[5, 0]), Some(3));
}

/// A simulation of very long chases stops at its work limit, and its label says how many it ran.
#[test]
fn long_simulations_stop_at_the_work_limit() {
    let c = chase(&["bbb", "--quarry-hp", "200", "--pursuer-hp", "200"]);
    let o = c
        .simulate(2, SIM_RUNS, 1, "test", &Budget::default())
        .expect("simulated");
    let Method::Simulated { runs, reason, .. } = &o.method else {
        panic!("simulated")
    };
    assert!(*runs < SIM_RUNS && *runs > 1000, "{runs}");
    assert_eq!(
        reason,
        &format!(
            "test; {runs} chases rather than 100000, as a simulation stops at its budget of {} units of work (rounds played and rolls made)",
            budget::SIM_WORK
        )
    );
}

/// Best play: the exact odds under the `best` policy are the game's value the value iteration found
/// (different arithmetic: floats there, fractions here), and they agree with a seeded simulation.
#[test]
fn coc_best_play_reaches_the_game_value() {
    for args in [
        &["coc"][..],
        &[
            "coc",
            "--track",
            "extreme,hard,extreme,clear,hard",
            "--pursuer-mov",
            "10",
        ][..],
        &[
            "coc",
            "--track",
            "clear,hard,regular-barrier:10,extreme,clear,hard-barrier:15",
            "--quarry-build",
            "2",
            "--pursuer-build",
            "3",
            "--pursuer-mov",
            "9",
        ][..],
    ] {
        let c = chase(args);
        let best = policy_index(&c.info(), Some("best")).unwrap();
        let p = c.exact(best, &Budget::default()).unwrap().exact.unwrap();
        // Getting away: outpaced, escaped, the pursuer wrecked, called off.
        let away: f64 = [0, 1, 4, 5]
            .iter()
            .map(|&i| num_traits::ToPrimitive::to_f64(&p[i]).unwrap())
            .sum();
        let mut v = vec!["chase"];
        v.extend_from_slice(args);
        let SystemArgs::Coc(a) = Cli::parse_from(v).s else {
            unreachable!()
        };
        let value = a.to_system(&lib()).unwrap().best().value;
        assert!(
            (away - value).abs() < 1e-9,
            "{args:?}: exact {away}, value iteration {value}"
        );
        agree(args, best);
    }
}

// ---------- house rulings: listed, printed and cited where they apply ----------
