//! Chase odds for Urban World, Ready/Bolt/Flow and Storypath (issue 23, part B): hand-worked small
//! chases, exact against a seeded simulation of the same rules, `chase play` logs replayed against the
//! rules, the same seed giving the same log, and bad options refused with the option named.

use blockprint_chase::model::System;
use blockprint_chase::rbf::{self, Cell, ChallengeCell, Rbf, Track};
use blockprint_chase::storypath::{self, Side, Storypath};
use blockprint_chase::urban_world::{self, Leader, UrbanWorld};
use blockprint_chase::{Budget, Built, Chase, Opt, OptionError, P, exact, policy_index};
use num_traits::{One, Pow, Zero};

fn lib() -> blockprint_content::Library {
    blockprint_content::load(&blockprint_content::ContentRoot::Embedded)
        .expect("built-in content loads")
        .0
}

fn q(n: i64, d: i64) -> P {
    P::new(n.into(), d.into())
}

/// The exact chance of each ending, by id.
fn exact_of(sys: &impl System, policy: &str) -> Vec<(String, P)> {
    let info = sys.info();
    let pi = policy_index(&info, Some(policy)).expect("policy exists");
    let o = exact::solve(sys, pi, &Budget::default()).expect("small enough to be exact");
    let totals = o.exact.clone().expect("exact totals");
    let ids: Vec<String> = blockprint_chase::odds::all_endings(&info)
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    // `endings` leaves out a called-off ending with chance 0; `exact` keeps every ending.
    ids.into_iter().zip(totals).collect()
}

fn chance_of(v: &[(String, P)], id: &str) -> P {
    v.iter()
        .find(|(i, _)| i == id)
        .map(|(_, p)| p.clone())
        .unwrap_or_else(P::zero)
}

// ---------- Urban World ----------

/// 2d6 + stat read as hold 1, 2, 3, counted by hand: (P(hold 1), P(hold 2), P(hold 3)) in 36ths.
fn hold36(stat: i64) -> [i64; 3] {
    let mut h = [0; 3];
    for a in 1..=6 {
        for b in 1..=6 {
            let t = a + b + stat;
            h[if t >= 10 {
                2
            } else if t >= 7 {
                1
            } else {
                0
            }] += 1;
        }
    }
    h
}

/// (quarry wins the beat, pursuers win it, tie) when both spend all hold on Gain an advantage.
fn beat(qs: i64, ps: i64) -> (P, P, P) {
    let (a, b) = (hold36(qs), hold36(ps));
    let (mut w, mut l, mut t) = (0, 0, 0);
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            let n = x * y;
            match i.cmp(&j) {
                std::cmp::Ordering::Greater => w += n,
                std::cmp::Ordering::Less => l += n,
                std::cmp::Ordering::Equal => t += n,
            }
        }
    }
    (q(w, 1296), q(l, 1296), q(t, 1296))
}

#[test]
fn urban_world_hold_counts_by_hand() {
    // 2d6: 6 or less 15 ways, 7-9 15 ways, 10+ 6 ways; +1 shifts a total up by one.
    assert_eq!(hold36(0), [15, 15, 6]);
    assert_eq!(hold36(1), [10, 16, 10]);
    let (w, l, t) = beat(1, 0);
    assert_eq!(
        (w.clone(), l.clone(), t.clone()),
        (q(540, 1296), q(306, 1296), q(450, 1296))
    );
}

#[test]
fn urban_world_one_rung_ladder_by_hand() {
    // One rung between Escape! and Capture!: the first beat anyone wins ends it; ties repeat the beat,
    // up to the 60-beat limit. Escape = w (1 + t + ... + t^59) = w (1 - t^60) / (1 - t).
    let sys = UrbanWorld::new(Leader::Stat(1), Leader::Stat(0))
        .with_ladder(1, 1)
        .unwrap();
    let v = exact_of(&sys, "advantage");
    let (w, l, t) = beat(1, 0);
    let n = urban_world::MAX_BEATS;
    let geometric = (P::one() - Pow::pow(t.clone(), n)) / (P::one() - t.clone());
    assert_eq!(chance_of(&v, "escaped"), &w * &geometric);
    assert_eq!(chance_of(&v, "caught"), &l * &geometric);
    assert_eq!(chance_of(&v, "called-off"), Pow::pow(t, n));
}

#[test]
fn urban_world_two_rung_ladder_by_hand() {
    // Two rungs: from the rung next to Escape!, a(n) = chance of escaping within n beats, b(n) the same
    // from the rung next to Capture!: a(n) = w + t a(n-1) + l b(n-1), b(n) = w a(n-1) + t b(n-1).
    for (qs, ps) in [(0, 0), (2, 0), (-1, 3)] {
        let sys = UrbanWorld::new(Leader::Stat(qs), Leader::Stat(ps))
            .with_ladder(2, 1)
            .unwrap();
        let (w, l, t) = beat(qs, ps);
        let (mut a, mut b) = (P::zero(), P::zero());
        for _ in 0..urban_world::MAX_BEATS {
            let a2 = &w + &t * &a + &l * &b;
            let b2 = &w * &a + &t * &b;
            (a, b) = (a2, b2);
        }
        assert_eq!(
            chance_of(&exact_of(&sys, "advantage"), "escaped"),
            a,
            "{qs} vs {ps}"
        );
    }
}

#[test]
fn urban_world_npc_parties_do_not_roll() {
    // NPC 3 against NPC 1: the quarry wins every beat and escapes from Gaining ground in two beats.
    let sys = UrbanWorld::new(Leader::Npc(3), Leader::Npc(1));
    let b = Built {
        setup: String::new(),
        system: sys,
    };
    let o = b.exact(0, &Budget::default()).unwrap();
    assert_eq!(o.endings[0].fraction.as_deref(), Some("1"));
    assert_eq!(
        (
            o.length.median,
            o.length.p90,
            o.length.mean_fraction.as_deref()
        ),
        (2, 2, Some("2"))
    );
    // Keeping a hold for an action (policy "actions") makes it 2 against 1: still every beat.
    let o = b.exact(1, &Budget::default()).unwrap();
    assert_eq!(o.endings[0].fraction.as_deref(), Some("1"));
    // Equal NPC parties tie for ever: every chase is called off at the limit.
    let sys = UrbanWorld::new(Leader::Npc(2), Leader::Npc(2));
    let v = exact_of(&sys, "advantage");
    assert_eq!(chance_of(&v, "called-off"), P::one());
}

#[test]
fn urban_world_policies_cost_the_actor() {
    // Keeping hold for actions only lowers that side's chances.
    let sys = UrbanWorld::new(Leader::Stat(1), Leader::Stat(1));
    let e = |p| chance_of(&exact_of(&sys, p), "escaped");
    assert_eq!(
        e("advantage"),
        q(1, 2) * (P::one() - chance_of(&exact_of(&sys, "advantage"), "called-off"))
    );
    assert!(e("quarry-acts") < e("advantage"));
    assert!(e("pursuer-acts") > e("advantage"));
}

// ---------- Storypath ----------

fn sp(qp: u32, pp: u32, laps: u32, limit: u32, hazard: u32, qhs: u32) -> Storypath {
    Storypath::new(
        Side {
            pool: qp,
            laps,
            head_start: qhs,
        },
        Side {
            pool: pp,
            laps,
            head_start: 0,
        },
        limit,
        hazard,
    )
    .unwrap()
}

#[test]
fn storypath_one_interval_by_hand() {
    // One die each (a d10 succeeds on 8-10: 3/10), one lap, one interval: the quarry escapes whenever it
    // succeeds (a tie of surplus goes to it), is caught when only the pursuers succeed.
    let v = exact_of(&sp(1, 1, 1, 1, 0, 0), "buy-off");
    assert_eq!(chance_of(&v, "escaped"), q(3, 10));
    assert_eq!(chance_of(&v, "caught"), q(21, 100));
    assert_eq!(chance_of(&v, "limit"), q(49, 100));
    // Two dice against one: 0, 1, 2 successes with 49, 42, 9 in 100. Two successes beat one on surplus.
    let v = exact_of(&sp(2, 1, 1, 1, 0, 0), "buy-off");
    assert_eq!(chance_of(&v, "escaped"), q(51, 100));
    assert_eq!(chance_of(&v, "caught"), q(147, 1000));
    assert_eq!(chance_of(&v, "limit"), q(343, 1000));
    // Surplus decides a double finish: the pursuers' 2 successes beat the quarry's 1 (1 lap needed each).
    let v = exact_of(&sp(1, 2, 1, 1, 0, 0), "buy-off");
    // caught = P(p=2) + P(p=1)P(q=0) = 9/100 + 42/100 * 7/10
    assert_eq!(chance_of(&v, "caught"), q(9, 100) + q(42, 100) * q(7, 10));
}

#[test]
fn storypath_modifiers_by_hand() {
    // Head Start 2 on a 3-lap chase with one interval: one success + 2 = 3 laps.
    let v = exact_of(&sp(1, 1, 3, 1, 0, 2), "buy-off");
    assert_eq!(chance_of(&v, "escaped"), q(3, 10));
    assert_eq!(chance_of(&v, "limit"), q(7, 10));
    // Hazard 1, one lap, two dice each, one interval: buying it off needs 2 successes for a lap.
    let v = exact_of(&sp(2, 2, 1, 1, 1, 0), "buy-off");
    // quarry: 2 successes (9/100) -> escapes (a tie of surplus goes to it); caught: p=2 and q<2.
    assert_eq!(chance_of(&v, "escaped"), q(9, 100));
    assert_eq!(chance_of(&v, "caught"), q(9, 100) * q(91, 100));
    // Pressing on ignores it: as without a hazard.
    let press = exact_of(&sp(2, 2, 1, 1, 1, 0), "press-on");
    let none = exact_of(&sp(2, 2, 1, 1, 0, 0), "buy-off");
    assert_eq!(press, none);
}

// ---------- Ready/Bolt/Flow ----------

/// A straight track of spaces 0..=last with the exit on `last`.
fn straight(last: i64) -> Track {
    let mut cells = vec![Cell::default(); last as usize + 1];
    cells[last as usize].exit = true;
    Track {
        id: "test.straight".into(),
        title: "A straight".into(),
        first: 0,
        cells,
        pursuer_start: Some(0),
        evader_start: Some(0),
    }
}

#[test]
fn rbf_two_round_chase_by_hand() {
    // Both on space 0 of a track whose exit is space 4, no tokens, policy "run".
    // Round 1: the pursuer Strikes (same space: nobody in front), 2dF against the evader's 2dF (it
    // Runs): a hit stuns with 31/81. The evader runs to 3, the pursuer (Strike moves 2) to 2.
    // Round 2: in reach again. An evader not stunned runs to the exit. A stunned one plays Ready
    // (advantaged) and is in front (still advantaged): 2dF beats 1dF+1 with 4/27, and it is restrained.
    // Otherwise it stays on 3, the pursuer reaches 4 and stops; round 3 the evader runs out.
    let sys = Rbf::new(straight(4), [0, 0], [0, 0]).unwrap();
    let v = exact_of(&sys, "run");
    assert_eq!(chance_of(&v, "caught"), q(31, 81) * q(4, 27));
    assert_eq!(chance_of(&v, "escaped"), P::one() - q(31, 81) * q(4, 27));
    let b = Built {
        setup: String::new(),
        system: sys,
    };
    let o = b.exact(1, &Budget::default()).unwrap();
    assert_eq!(
        o.length
            .distribution
            .iter()
            .map(|(t, _)| *t)
            .collect::<Vec<_>>(),
        vec![2, 3]
    );
}

#[test]
fn rbf_bolt_behind_wins_the_fourth_space() {
    // Pursuer on 0 with a token, evader on 6 with none, exit far away, policy "bolt": the pursuer bolts
    // 4 (nobody bolts behind it), the evader runs 3: the gap closes from 6 to 5.
    let sys = Rbf::new(straight(30), [0, 6], [1, 0]).unwrap();
    let mut log = Vec::new();
    struct First<'a>(&'a mut Vec<String>);
    impl blockprint_chase::Chance for First<'_> {
        fn roll(&mut self, _: &str, _: &str, c: &dyn blockprint_chase::Check) -> i64 {
            c.outcomes()[0].1
        }
        fn draw(&mut self, _: &str, _: &str, _: usize) -> usize {
            0
        }
        fn pick(&mut self, _: &str, _: &[P]) -> usize {
            0
        }
        fn note(&mut self, l: &dyn Fn() -> String) {
            self.0.push(l());
        }
    }
    let s0 = sys.start(&mut First(&mut log));
    let s1 = sys.step(&s0, 0, &mut First(&mut log));
    assert_eq!((s1.pos, s1.tokens), ([4, 9], [0, 0]));
    assert_eq!(log[0], "The pursuer plays Bolt, the evader Run");
}

// ---------- exact against simulated, play and replay ----------

fn agree(c: &dyn Chase, policy: usize, seed: u64) {
    let e = c.exact(policy, &Budget::default()).expect("exact");
    let runs = 100_000;
    let s = c
        .simulate(policy, runs, seed, "test", &Budget::unlimited())
        .expect("simulated");
    for x in &e.endings {
        let p = x.percent / 100.0;
        let sigma = (p * (1.0 - p) / runs as f64).sqrt();
        let got = s.percent_of(&x.id) / 100.0;
        assert!(
            (got - p).abs() <= 4.0 * sigma + 1e-5,
            "{} {}: exact {p}, simulated {got} (4 sigma = {})",
            c.setup(),
            x.id,
            4.0 * sigma
        );
    }
}

fn systems(lib: &blockprint_content::Library) -> Vec<Box<dyn Chase>> {
    let uw = |q: &str, p: &str| {
        urban_world::build(
            &urban_world::Args {
                quarry: q.into(),
                pursuer: p.into(),
                rungs: 3,
                start: None,
            },
            lib,
        )
        .unwrap()
    };
    let sp = |qp: u32, pp: u32, hazard: u32| {
        storypath::build(
            &storypath::Args {
                quarry_pool: qp,
                pursuer_pool: pp,
                hazard,
                quarry_head_start: 1,
                ..Default::default()
            },
            lib,
        )
        .unwrap()
    };
    let rb = |e: u32, p: u32| {
        rbf::build(
            &rbf::Args {
                evader_tokens: Some(e),
                pursuer_tokens: Some(p),
                reach: 1,
                ..Default::default()
            },
            lib,
        )
        .unwrap()
    };
    vec![
        uw("+1", "+2"),
        uw("npc:2", "+0"),
        sp(3, 5, 0),
        sp(4, 4, 1),
        rb(1, 3),
        rb(0, 4),
    ]
}

#[test]
fn exact_agrees_with_simulation() {
    let lib = lib();
    for (i, c) in systems(&lib).iter().enumerate() {
        for p in 0..c.info().policies.len() {
            agree(c.as_ref(), p, 1000 + i as u64);
        }
    }
}

#[test]
fn played_chases_replay_and_repeat() {
    let lib = lib();
    for c in systems(&lib) {
        for p in 0..c.info().policies.len() {
            for seed in [1, 2, 3, 42] {
                let log = c.play(p, seed, &Budget::default()).expect("played");
                c.replay(p, &log)
                    .unwrap_or_else(|e| panic!("{}: {e}", c.setup()));
                let again = c.play(p, seed, &Budget::default()).expect("played");
                assert_eq!(
                    serde_json::to_vec(&log).unwrap(),
                    serde_json::to_vec(&again).unwrap()
                );
            }
        }
    }
}

#[test]
fn a_tampered_log_is_caught() {
    let lib = lib();
    let c = &systems(&lib)[0];
    let mut log = c.play(0, 5, &Budget::default()).expect("played");
    // Change the first roll's faces so they no longer give the logged hold.
    let mut done = false;
    for step in &mut log.steps {
        for e in &mut step.events {
            if let blockprint_chase::Event::Roll { faces, .. } = e
                && !done
            {
                faces[0] = if faces[0] == 6 { 1 } else { 6 };
                done = true;
            }
        }
    }
    assert!(done);
    assert!(c.replay(0, &log).is_err());
}

#[test]
fn bad_options_name_the_option() {
    let lib = lib();
    let err = |r: Result<Box<dyn Chase>, OptionError>| r.err().expect("refused").option;
    assert_eq!(
        err(urban_world::build(
            &urban_world::Args {
                quarry: "+7".into(),
                pursuer: "+0".into(),
                rungs: 3,
                start: None
            },
            &lib
        )),
        Opt::Quarry
    );
    assert_eq!(
        err(urban_world::build(
            &urban_world::Args {
                quarry: "+0".into(),
                pursuer: "npc:0".into(),
                rungs: 3,
                start: None
            },
            &lib
        )),
        Opt::Pursuer
    );
    assert_eq!(
        err(urban_world::build(
            &urban_world::Args {
                quarry: "+0".into(),
                pursuer: "+0".into(),
                rungs: 0,
                start: None
            },
            &lib
        )),
        Opt::Rungs
    );
    assert_eq!(
        err(storypath::build(
            &storypath::Args {
                quarry_pool: 0,
                ..Default::default()
            },
            &lib
        )),
        Opt::QuarryPool
    );
    assert_eq!(
        err(storypath::build(
            &storypath::Args {
                limit: Some(0),
                ..Default::default()
            },
            &lib
        )),
        Opt::Limit
    );
    assert_eq!(
        err(rbf::build(
            &rbf::Args {
                track: Some("nope".into()),
                reach: 1,
                ..Default::default()
            },
            &lib
        )),
        Opt::Track
    );
    assert_eq!(
        err(rbf::build(
            &rbf::Args {
                evader_start: Some(36),
                reach: 1,
                ..Default::default()
            },
            &lib
        )),
        Opt::EvaderStart
    );
    // A track with no exit does not connect to a way out.
    let mut t = straight(5);
    t.cells[5].exit = false;
    assert_eq!(
        Rbf::new(t, [0, 1], [0, 0]).err().unwrap().option,
        Opt::Track
    );
    let mut t = straight(5);
    t.cells[2].challenge = Some(ChallengeCell {
        title: "x".into(),
        plus: 2,
        minus: 2,
        damage: 1,
    });
    assert_eq!(
        Rbf::new(t, [0, 1], [0, 0]).err().unwrap().option,
        Opt::Track
    );
    let info = UrbanWorld::new(Leader::Stat(0), Leader::Stat(0)).info();
    assert_eq!(
        policy_index(&info, Some("nope")).err().unwrap().option,
        Opt::Policy
    );
}

// ---------- the models read the rules the kits print ----------

#[test]
fn models_match_the_kits_content() {
    let lib = lib();
    // Urban World: the hold table's dice and bands.
    let t = lib.table("uw.hold").expect("uw.hold");
    assert_eq!(t.dice.value, urban_world::DICE);
    let rows: Vec<(String, String)> = t
        .rows
        .iter()
        .map(|r| (r.on.value.clone(), r.result.value.to_string()))
        .collect();
    assert_eq!(
        rows,
        [("2-6", "Hold 1"), ("7-9", "Hold 2"), ("10+", "Hold 3")]
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
    );
    for total in -5..=20 {
        let want = if total >= 10 {
            3
        } else if total >= 7 {
            2
        } else {
            1
        };
        assert_eq!(urban_world::hold_of(total), want, "total {total}");
    }
    let rungs: Vec<String> = lib
        .lookup("uw.ladder")
        .expect("uw.ladder")
        .entries
        .iter()
        .map(|e| e.key.value.clone())
        .collect();
    assert_eq!(rungs[1..4], urban_world::RUNGS.map(String::from));
    assert_eq!(rungs[urban_world::START as usize], "Gaining ground");
    // Ready/Bolt/Flow: starting tokens by speed.
    let speeds: Vec<(String, String)> = lib
        .lookup("rbf.sprint.speed")
        .expect("rbf.sprint.speed")
        .entries
        .iter()
        .map(|e| (e.key.value.clone(), e.value.value.to_string()))
        .collect();
    let grid: Vec<(String, String)> = rbf::GRID_SPEEDS
        .iter()
        .map(|(s, t)| ((*s).to_owned(), t.to_string()))
        .collect();
    assert_eq!(speeds, grid);
    for (speed, tokens) in [
        (0, 0),
        (16, 0),
        (17, 1),
        (20, 1),
        (21, 2),
        (24, 2),
        (25, 3),
        (28, 3),
        (29, 4),
        (60, 4),
    ] {
        assert_eq!(rbf::tokens_for_speed(speed), tokens, "speed {speed}");
    }
    // Storypath: the pool dice of the kit's house ruling.
    assert_eq!(storypath::pool_dice(&lib), (10, 8));
}

// ---------- the command line ----------

use crate::support::{blockprint, stderr, stdout};

fn json_of(args: &[&str]) -> serde_json::Value {
    let o = blockprint(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("JSON")
}

fn ending<'a>(v: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    v["endings"]
        .as_array()
        .and_then(|es| es.iter().find(|e| e["id"] == id))
        .unwrap_or_else(|| panic!("no ending {id} in {v}"))
}

#[test]
fn cli_odds_are_exact() {
    // One rung, +1 against +0: escape w (1 - t^60) / (1 - t) with w = 540/1296, t = 450/1296.
    let v = json_of(&[
        "chase",
        "odds",
        "urban-world",
        "--quarry",
        "+1",
        "--pursuer",
        "+0",
        "--rungs",
        "1",
        "--json",
    ]);
    let (w, _, t) = beat(1, 0);
    let g = (P::one() - Pow::pow(t.clone(), urban_world::MAX_BEATS)) / (P::one() - t);
    assert_eq!(
        ending(&v, "escaped")["fraction"],
        blockprint_dice::fraction(&(w * g))
    );
    assert_eq!(v["method"], "exact");
    // Storypath's one-interval case, by hand above.
    let v = json_of(&[
        "chase",
        "odds",
        "storypath",
        "--quarry-pool",
        "2",
        "--pursuer-pool",
        "1",
        "--laps",
        "1",
        "--limit",
        "1",
        "--json",
    ]);
    assert_eq!(ending(&v, "escaped")["fraction"], "51/100");
    assert_eq!(ending(&v, "caught")["fraction"], "147/1000");
    assert_eq!(ending(&v, "limit")["fraction"], "343/1000");
    // Ready/Bolt/Flow on the kit's track, a policy named.
    let v = json_of(&[
        "chase",
        "odds",
        "rbf",
        "--pursuer-tokens",
        "3",
        "--evader-tokens",
        "1",
        "--policy",
        "flow",
        "--json",
    ]);
    assert_eq!(v["policy"]["id"], "flow");
    let e = ending(&v, "escaped")["percent"].as_f64().unwrap();
    let c = ending(&v, "caught")["percent"].as_f64().unwrap();
    assert!((e + c - 100.0).abs() < 0.002, "{e} + {c}");
}

#[test]
fn cli_play_repeats_and_replays() {
    let lib = lib();
    for (system, args) in [
        ("urban-world", vec!["--quarry", "+1", "--pursuer", "npc:2"]),
        (
            "storypath",
            vec!["--quarry-pool", "3", "--pursuer-pool", "5", "--hazard", "1"],
        ),
        ("rbf", vec!["--pursuer-speed", "27", "--evader-speed", "19"]),
    ] {
        let mut a = vec!["chase", "play", system];
        a.extend(&args);
        a.extend(["--seed", "11", "--format", "json"]);
        let one = blockprint(&a);
        let two = blockprint(&a);
        assert!(one.status.success(), "{a:?}: {}", stderr(&one));
        assert_eq!(
            one.stdout, two.stdout,
            "{a:?}: the same seed gives the same log"
        );
        let log: blockprint_chase::PlayLog =
            serde_json::from_slice(&one.stdout).expect("a play log");
        let c: Box<dyn Chase> = match system {
            "urban-world" => urban_world::build(
                &urban_world::Args {
                    quarry: "+1".into(),
                    pursuer: "npc:2".into(),
                    ..Default::default()
                },
                &lib,
            ),
            "storypath" => storypath::build(
                &storypath::Args {
                    quarry_pool: 3,
                    pursuer_pool: 5,
                    hazard: 1,
                    ..Default::default()
                },
                &lib,
            ),
            _ => rbf::build(
                &rbf::Args {
                    pursuer_speed: Some(27),
                    evader_speed: Some(19),
                    ..Default::default()
                },
                &lib,
            ),
        }
        .unwrap();
        assert_eq!(log.setup, c.setup());
        c.replay(0, &log)
            .unwrap_or_else(|e| panic!("{system}: {e}"));
        // The Markdown log is readable: it names the seed and how the chase ended.
        let mut a = vec!["chase", "play", system];
        a.extend(&args);
        a.extend(["--seed", "11"]);
        let md = stdout(&blockprint(&a));
        assert!(md.contains(&log.ending_label), "{system}: {md}");
    }
}

#[test]
fn cli_bad_options_exit_2_naming_the_option() {
    for (args, option) in [
        (
            vec!["chase", "odds", "storypath", "--quarry-pool", "0"],
            "--quarry-pool",
        ),
        (
            vec!["chase", "odds", "storypath", "--limit", "0"],
            "--limit",
        ),
        (
            vec!["chase", "odds", "urban-world", "--quarry", "+9"],
            "--quarry",
        ),
        (
            vec!["chase", "odds", "urban-world", "--pursuer", "npc:7"],
            "--pursuer",
        ),
        (
            vec!["chase", "odds", "urban-world", "--rungs", "0"],
            "--rungs",
        ),
        (
            vec!["chase", "odds", "rbf", "--track", "rbf.track.nowhere"],
            "--track",
        ),
        (
            vec!["chase", "odds", "rbf", "--evader-start", "36"],
            "--evader-start",
        ),
        (vec!["chase", "odds", "rbf", "--reach", "9"], "--reach"),
        (
            vec![
                "chase", "play", "rbf", "--policy", "teleport", "--seed", "1",
            ],
            "--policy",
        ),
        (
            vec!["chase", "table", "storypath", "--policy", "fly"],
            "--policy",
        ),
    ] {
        let o = blockprint(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(option), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}

#[test]
fn cli_tables_are_the_kit_grids() {
    for (system, rows, cols, tables) in [
        ("urban-world", 5, 5, 1),
        ("storypath", 5, 5, 3),
        ("rbf", 5, 5, 1),
    ] {
        let g = json_of(&["chase", "table", system, "--json"]);
        let ts = g["tables"].as_array().unwrap();
        assert_eq!(ts.len(), tables, "{system}");
        for t in ts {
            let cells = t["cells"].as_array().unwrap();
            assert_eq!(cells.len(), rows, "{system}");
            assert!(cells.iter().all(|r| r.as_array().unwrap().len() == cols));
            assert!(
                cells
                    .iter()
                    .flat_map(|r| r.as_array().unwrap())
                    .all(|c| c["exact"] == true),
                "{system}: exact"
            );
        }
    }
    // Urban World's grid is symmetric: equal stats give one half (less the called-off sliver).
    let g = json_of(&["chase", "table", "urban-world", "--json"]);
    let c = &g["tables"][0]["cells"];
    assert_eq!(c[1][1]["percent"], 50.0);
    for (i, j) in [(0, 1), (0, 4), (2, 3)] {
        let a = c[i][j]["percent"].as_f64().unwrap();
        let b = c[j][i]["percent"].as_f64().unwrap();
        assert!((a + b - 100.0).abs() < 0.002, "{i},{j}: {a} + {b}");
    }
}

// ---------- the kits' Chase odds page ----------

#[test]
fn kit_chase_odds_pages_pass_the_page_checker() {
    for (kit, stem, cells) in [
        // Urban World: +0 against +1 and +1 against +0 (symmetric but for the called-off sliver).
        ("urban-world", "urban-world-chase-odds", ["24.3%", "75.7%"]),
        // Storypath: 2 dice against 2 dice over 2 and 4 laps.
        ("storypath", "storypath-chase-odds", ["52.6%", "50.7%"]),
        // Ready/Bolt/Flow: a slow evader against a slow pursuer, and against a fast one.
        ("rbf", "chase-odds", ["99.2%", "90.0%"]),
    ] {
        for paper in ["a4", "letter"] {
            let dir = tempfile::tempdir().unwrap();
            let o = blockprint(&[
                "kit",
                kit,
                "--paper",
                paper,
                "--out",
                crate::support::s(dir.path()),
                "--check-pages",
            ]);
            assert!(o.status.success(), "{kit} {paper}: {}", stderr(&o));
            let pdf = std::fs::read(dir.path().join(format!("kits/{kit}/{stem}.pdf"))).unwrap();
            assert_eq!(
                crate::support::glyphs::pages(&pdf).len(),
                1,
                "{kit} {paper}: one page"
            );
            let text = crate::support::pdf_text(&pdf);
            for c in cells {
                assert!(text.contains(c), "{kit} {paper}: {c} in\n{text}");
            }
            assert!(
                text.contains("House rulings of the odds") || text.contains("HOUSE RULINGS"),
                "{kit}"
            );
            // Percentages only: no fractions (a digit, a slash, a digit) and no Fudge notation.
            let chars: Vec<char> = text.chars().collect();
            let fraction = chars
                .windows(3)
                .any(|w| w[0].is_ascii_digit() && w[1] == '/' && w[2].is_ascii_digit());
            assert!(!fraction, "{kit} {paper}: a fraction on the page");
            assert!(!text.contains("dF"), "{kit} {paper}");
            let md =
                std::fs::read_to_string(dir.path().join(format!("kits/{kit}/{stem}.md"))).unwrap();
            for c in cells {
                assert!(md.contains(c), "{kit}: {c} in the Markdown");
            }
            let json: serde_json::Value = serde_json::from_slice(
                &std::fs::read(dir.path().join(format!("kits/{kit}/{stem}.json"))).unwrap(),
            )
            .unwrap();
            // The JSON keeps the exact grid.
            assert_eq!(json["exact"], true, "{kit}");
            assert!(
                json["grid"]["tables"][0]["cells"][0][0]["fraction"].is_string(),
                "{kit}"
            );
        }
    }
}

/// The Block by Block and Call of Cthulhu-style kits gain the page too. Block by Block's whole chase is
/// simulated (every cell labelled ≈, the page giving the run count, the seed and the widest 99 % margin);
/// the Call of Cthulhu-style page is exact on the seeded track of the kit's own seed.
#[test]
fn bbb_and_coc_kits_gain_a_chase_odds_page() {
    for paper in ["a4", "letter"] {
        let dir = tempfile::tempdir().unwrap();
        for kit in ["bbb", "coc"] {
            let mut args = vec![
                "kit",
                kit,
                "--paper",
                paper,
                "--out",
                crate::support::s(dir.path()),
                "--check-pages",
            ];
            // The Call of Cthulhu-style kit rolls its seeded track; Block by Block's refuses a seed.
            if kit == "coc" {
                args.extend(["--seed", "42"]);
            }
            let o = blockprint(&args);
            assert!(o.status.success(), "{kit} {paper}: {}", stderr(&o));
        }
        let read = |kit: &str, ext: &str| {
            std::fs::read(dir.path().join(format!("kits/{kit}/chase-odds.{ext}"))).unwrap()
        };
        let json = |kit: &str| -> serde_json::Value {
            serde_json::from_slice(&read(kit, "json")).unwrap()
        };
        for kit in ["bbb", "coc"] {
            let pdf = read(kit, "pdf");
            assert_eq!(
                crate::support::glyphs::pages(&pdf).len(),
                1,
                "{kit} {paper}: one page"
            );
            let text = crate::support::pdf_text(&pdf);
            let chars: Vec<char> = text.chars().collect();
            assert!(
                !chars
                    .windows(3)
                    .any(|w| w[0].is_ascii_digit() && w[1] == '/' && w[2].is_ascii_digit()),
                "{kit} {paper}: a fraction on the page"
            );
            assert!(text.contains("House rulings of the odds") || text.contains("HOUSE RULINGS"));
        }

        // Block by Block: 10 000 chases a cell from seed 1, the same figures every time.
        let b = json("bbb");
        assert_eq!(b["exact"], false);
        let cells = &b["grid"]["tables"];
        assert_eq!(
            cells[0]["cells"][0][0],
            serde_json::json!({"exact": false, "interval": [16.26, 18.204], "mean_length": 1.685, "percent": 17.21, "runs": 10000})
        );
        assert_eq!(
            cells[1]["cells"][1][2],
            serde_json::json!({"exact": false, "interval": [42.248, 44.801], "mean_length": 3.081, "percent": 43.52, "runs": 10000})
        );
        let all: Vec<&serde_json::Value> = (0..3)
            .flat_map(|t| cells[t]["cells"].as_array().unwrap())
            .flat_map(|r| r.as_array().unwrap())
            .collect();
        assert_eq!(all.len(), 75);
        assert!(
            all.iter()
                .all(|c| c["exact"] == false && c["runs"] == 10000 && c["fraction"].is_null())
        );
        let note = "A cell marked ≈ is simulated, not exact: 10,000 chases each, dealt and rolled from seed 1, the same figures every time. The true chance lies within 1.3 points of each such figure, 99 times in 100.";
        assert_eq!(b["notes"][1], note);
        let text = crate::support::pdf_text(&read("bbb", "pdf"));
        for s in [
            "≈17.2%",
            "≈43.5%",
            "≈79.8%",
            "10,000 chases each",
            "within 1.3",
        ] {
            assert!(text.contains(s), "bbb {paper}: {s} in\n{text}");
        }
        let md = String::from_utf8(read("bbb", "md")).unwrap();
        assert!(md.contains("| Quarry level 1 | ≈17.2% | ≈32.5% |") && md.contains(note));

        // Call of Cthulhu-style: exact, on the track `kit coc --seed 42` prints.
        let c = json("coc");
        assert_eq!(c["exact"], true);
        let g = &c["grid"]["tables"][0];
        assert_eq!(g["rows"][0], "MOV −2");
        assert_eq!(
            g["cells"][0][0]["fraction"],
            "1073469530029682629/45000000000000000000"
        );
        assert_eq!(g["cells"][0][0]["percent"], 2.385);
        assert_eq!(g["cells"][2][2]["fraction"], "485100484523/1048576000000");
        assert_eq!(g["cells"][2][2]["percent"], 46.263);
        assert!(
            c["notes"][1]
                .as_str()
                .unwrap()
                .starts_with("Track: the kit's seeded track 42, 10 locations: Hard hazard, clear")
        );
        let text = crate::support::pdf_text(&read("coc", "pdf"));
        for s in ["2.4%", "46.3%", "MOV −2"] {
            assert!(text.contains(s), "coc {paper}: {s} in\n{text}");
        }
        // The command that asks the same question is for the Markdown, not the GM's paper.
        assert!(
            !text.contains("--track-seed"),
            "coc {paper}: a command line in\n{text}"
        );
        assert!(
            String::from_utf8(read("coc", "md"))
                .unwrap()
                .contains("--track-seed 42")
        );
    }
}

/// "Called off after N" is said only where a chase can be called off: a one-interval Storypath chase always
/// ends by its limit (an ending of its own), so no chase runs to the framework's limit; a one-round Block by
/// Block chase often does.
#[test]
fn called_off_is_said_only_when_a_chase_can_be() {
    let never = [
        "chase",
        "odds",
        "storypath",
        "--quarry-pool",
        "2",
        "--pursuer-pool",
        "1",
        "--laps",
        "1",
        "--limit",
        "1",
    ];
    let o = blockprint(&never);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        !text.contains("called off") && !text.contains("Called off"),
        "{text}"
    );
    assert!(
        text.contains("Length in intervals: mean 1.000 (1), median 1, 90th percentile 1.\n"),
        "{text}"
    );
    let j = json_of(&[&never[..], &["--json"]].concat());
    assert_eq!(j["length"]["limit"], 1);
    assert!(
        j["endings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["id"] != "called-off")
    );

    let once = ["chase", "odds", "bbb", "--rounds", "1"];
    let o = blockprint(&once);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("(called off after 1 round).\n"), "{text}");
    let j = json_of(&[&once[..], &["--json"]].concat());
    assert_eq!(j["length"]["limit"], 1);
    let off = j["endings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "called-off")
        .unwrap();
    assert_eq!(off["fraction"], "517/702");
}
