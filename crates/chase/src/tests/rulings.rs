//! House rulings: each one a model lists is cited where it applies, and a choice the rules leave open is
//! stated in the answer.

use super::*;

/// Each system's sources, as the test reads them for `applies("…")` citations.
const SOURCES: [(&str, &[&str]); 5] = [
    (
        "bbb",
        &[
            include_str!("../bbb/mod.rs"),
            include_str!("../bbb/dice.rs"),
            include_str!("../bbb/grid.rs"),
            include_str!("../bbb/options.rs"),
        ],
    ),
    (
        "coc",
        &[
            include_str!("../coc/mod.rs"),
            include_str!("../coc/best.rs"),
            include_str!("../coc/dice.rs"),
            include_str!("../coc/grid.rs"),
            include_str!("../coc/options.rs"),
            include_str!("../coc/track.rs"),
        ],
    ),
    ("urban-world", &[include_str!("../urban_world.rs")]),
    (
        "rbf",
        &[
            include_str!("../rbf/mod.rs"),
            include_str!("../rbf/dice.rs"),
            include_str!("../rbf/grid.rs"),
            include_str!("../rbf/options.rs"),
            include_str!("../rbf/track.rs"),
        ],
    ),
    (
        "storypath",
        &[
            include_str!("../storypath/mod.rs"),
            include_str!("../storypath/grid.rs"),
            include_str!("../storypath/options.rs"),
        ],
    ),
];

/// The ruling ids a source cites with `applies("…")` (a `"…"` literal, as the marker takes it).
fn cited(sources: &[&str]) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for src in sources {
        for part in src.split("applies(\"").skip(1) {
            if let Some((id, _)) = part.split_once("\")") {
                out.insert(id.to_owned());
            }
        }
    }
    out
}

/// What disagrees between the rulings a model lists and those its source cites: each listed one must
/// be cited, each cited one listed, and each have a title, a ruling and a reason.
fn ruling_disagreements(system: &str, listed: &[Ruling], sources: &[&str]) -> Vec<String> {
    let ids: std::collections::BTreeSet<String> = listed.iter().map(|r| r.id.clone()).collect();
    let cites = cited(sources);
    let mut out = Vec::new();
    if ids.len() != listed.len() {
        out.push(format!("{system}: a ruling id is listed twice"));
    }
    for id in ids.difference(&cites) {
        out.push(format!(
            "{system}: `{id}` is listed but the model never cites it"
        ));
    }
    for id in cites.difference(&ids) {
        out.push(format!(
            "{system}: `{id}` is cited but not listed, so no answer prints it"
        ));
    }
    for r in listed {
        if r.title.is_empty() || r.ruling.is_empty() || r.reason.is_empty() {
            out.push(format!(
                "{system}: `{}` lacks a title, ruling or reason",
                r.id
            ));
        }
    }
    out
}

#[test]
fn every_ruling_is_cited_where_it_applies() {
    let mut problems = Vec::new();
    for (system, sources) in SOURCES {
        // Every variant whose rulings differ (Storypath's --ties) lists the same ids.
        let variants: &[&[&str]] = match system {
            "storypath" => &[
                &["storypath"],
                &["storypath", "--ties", "quarry"],
                &["storypath", "--ties", "pursuer"],
            ],
            s => &[&[s]],
        };
        for args in variants {
            let info = chase(args).info();
            assert_eq!(info.id, system);
            problems.extend(ruling_disagreements(system, &info.rulings, sources));
            // What `chase odds` answers carries the same list, and so does the grid.
            let o = odds(chase(args).as_ref(), 0, &Budget::default(), None).expect("answered");
            assert_eq!(o.rulings, info.rulings, "{args:?}");
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
    // The check can fail: a listed ruling nobody cites, a cited one nobody lists.
    let listed = [Ruling::new("x.chase.ruling.a", "A", "Does a.", "Because.")];
    assert_eq!(
        ruling_disagreements("x", &listed, &["applies(\"x.chase.ruling.b\");"]),
        vec![
            "x: `x.chase.ruling.a` is listed but the model never cites it".to_owned(),
            "x: `x.chase.ruling.b` is cited but not listed, so no answer prints it".to_owned(),
        ]
    );
    assert!(ruling_disagreements("x", &listed, &["applies(\"x.chase.ruling.a\");"]).is_empty());
}

#[test]
fn storypath_ties_are_a_choice_stated_in_the_answer() {
    // By hand: two dice each (0, 1, 2 successes with 49, 42, 9 in 100), one lap, one interval. Both
    // succeed with 51/100 × 51/100; on surplus the pursuers win only 2 against 1 (42 × 9 in 10^4).
    let by_hand = |ties: &str| {
        let c = chase(&[
            "storypath",
            "--quarry-pool",
            "2",
            "--pursuer-pool",
            "2",
            "--laps",
            "1",
            "--limit",
            "1",
            "--ties",
            ties,
        ]);
        let o = c.exact(0, &Budget::default()).expect("exact");
        o.exact.unwrap()
    };
    assert_eq!(
        by_hand("surplus"),
        vec![
            frac(2361, 5000),
            frac(2877, 10000),
            frac(2401, 10000),
            frac(0, 1)
        ]
    );
    assert_eq!(
        by_hand("quarry"),
        vec![
            frac(51, 100),
            frac(2499, 10000),
            frac(2401, 10000),
            frac(0, 1)
        ]
    );
    assert_eq!(
        by_hand("pursuer"),
        vec![
            frac(2499, 10000),
            frac(51, 100),
            frac(2401, 10000),
            frac(0, 1)
        ]
    );
    // Six dice against five, five laps each (limit 10): the quarry winning every tie moves its chance of
    // being caught from 0.5878 to 0.4987.
    let caught = |ties: &str| {
        let c = chase(&[
            "storypath",
            "--quarry-pool",
            "5",
            "--pursuer-pool",
            "6",
            "--laps",
            "5",
            "--ties",
            ties,
        ]);
        let o = c.exact(0, &Budget::default()).expect("exact");
        let i = o.endings.iter().position(|e| e.id == "caught").unwrap();
        let same = o
            .rulings
            .iter()
            .find(|r| r.id == "sp.chase.ruling.same-interval")
            .unwrap()
            .ruling
            .clone();
        (o.exact.unwrap()[i].clone(), same, c.setup())
    };
    let (surplus, s_rule, s_setup) = caught("surplus");
    let (quarry, q_rule, q_setup) = caught("quarry");
    let (pursuer, p_rule, _) = caught("pursuer");
    assert!(quarry < surplus && surplus < pursuer);
    assert_eq!(
        format!("{:.4}", num_traits::ToPrimitive::to_f64(&surplus).unwrap()),
        "0.5878"
    );
    assert_eq!(
        format!("{:.4}", num_traits::ToPrimitive::to_f64(&quarry).unwrap()),
        "0.4987"
    );
    assert!(
        s_rule.contains("further past its laps needed wins"),
        "{s_rule}"
    );
    assert!(
        q_rule.contains("the quarry gets away, however far"),
        "{q_rule}"
    );
    assert!(p_rule.contains("the pursuers catch the quarry"), "{p_rule}");
    assert!(!s_setup.contains("tie"), "{s_setup}");
    assert!(
        q_setup.ends_with("; the quarry wins every tie"),
        "{q_setup}"
    );
    // The default is surplus.
    let d = chase(&[
        "storypath",
        "--quarry-pool",
        "5",
        "--pursuer-pool",
        "6",
        "--laps",
        "5",
    ]);
    assert_eq!(
        d.exact(0, &Budget::default()).unwrap().exact.unwrap()[1],
        surplus
    );
}
