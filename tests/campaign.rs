//! The campaign tracker (issue 13) against the rules: a scripted year played through the command line
//! (48 weeks with closures, the month ends, a repaired relationship, the year end) and checked with
//! computations of its own — new cases on 1–2 of the week's d6, leads by fewest open cases with logged
//! tie-breaks, case numbers and dates in order and inside their weeks, monthly closure rates, their
//! year-to-date averages, the d100 target and the strain cascade, the year-end squad and personal rates —
//! then the new-case frequency over thousands of seeded years against the exact 1/3, byte-identical
//! reruns, undo and redo, a corrupted or hand-edited state file (located error, nothing replaced),
//! commands out of order (exit 2), and the status and plan documents (golden Markdown and JSON, PDFs on
//! A4 and Letter without warnings).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::support::{blockprint as bp, ok};
use blockprint::campaign::{self, Derived, Member, Setup, Step, file};
use blockprint::check;
use blockprint::content::{ContentRoot, Library};
use blockprint::render::{Format, Paper};
use num_rational::Ratio;

fn library() -> Library {
    let (lib, report) = check::load_and_check(&ContentRoot::Embedded).unwrap();
    assert_eq!(report.errors(), 0);
    lib
}

const SQUAD: [&str; 3] = ["Ana Ruiz", "Walt Kowalski", "Mei Chen"];
const SEED: u64 = 1976;

fn setup(seed: u64, packets: Vec<Format>) -> Setup {
    Setup {
        year: 1976,
        seed,
        paper: Paper::A4,
        packets,
        detectives: SQUAD
            .iter()
            .map(|n| Member {
                name: (*n).into(),
                assignment: None,
            })
            .collect(),
        roll: 0,
    }
}

fn s(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn run(dir: &Path, args: &[&str]) -> std::process::Output {
    let d = dir.to_str().unwrap();
    let mut v: Vec<&str> = vec!["campaign", args[0], d];
    v.extend(&args[1..]);
    bp(&v)
}

fn fails(o: &std::process::Output, code: i32, says: &str) {
    assert_eq!(o.status.code(), Some(code), "{}", s(o));
    assert!(s(o).contains(says), "expected `{says}` in:\n{}", s(o));
}

/// The scripted year's closures after week `w`: Walt closes every case of his that came in before this
/// week; Mei closes her oldest open case in the second week of each month; Ana closes nothing.
fn closures(d: &Derived, w: u32) -> Vec<String> {
    let mut out: Vec<String> = d
        .cases
        .iter()
        .filter(|c| c.is_open() && c.lead == "Walt Kowalski" && (c.week < w || c.starting))
        .map(|c| c.number.clone())
        .collect();
    if w % 4 == 2
        && let Some(c) = d.cases.iter().find(|c| c.is_open() && c.lead == "Mei Chen")
    {
        out.push(c.number.clone());
    }
    out
}

/// The scripted year as a log, worked out with the library (the closures depend on who leads what).
fn scripted_log(lib: &Library, setup: &Setup) -> Vec<Step> {
    let mut steps = Vec::new();
    for w in 1..=48 {
        steps.push(Step::Week);
        let d = campaign::replay(lib, setup, &steps).unwrap();
        for c in closures(&d, w) {
            steps.push(Step::Close { case: c });
        }
        if w % 4 == 0 {
            steps.push(Step::Month);
        }
        if w == 24 {
            let d = campaign::replay(lib, setup, &steps).unwrap();
            if let Some(p) = d
                .detectives
                .iter()
                .find(|p| p.on_squad && p.commanding_officer_strained)
            {
                steps.push(Step::Mend {
                    detective: p.name.clone(),
                    relationship: campaign::Relation::CommandingOfficer,
                });
            }
        }
    }
    // Whoever is still on the squad with a good relationship to the top brass leans on it if need be.
    let d = campaign::replay(lib, setup, &steps).unwrap();
    steps.push(Step::Year {
        top_brass: d
            .detectives
            .iter()
            .filter(|p| p.on_squad && !p.commissioner_strained)
            .map(|p| p.name.clone())
            .collect(),
    });
    steps
}

/// Play a log through the command line into `dir`.
fn play(dir: &Path, steps: &[Step]) {
    for st in steps {
        let o = match st {
            Step::Week => run(dir, &["week", "-q"]),
            Step::Close { case } => run(dir, &["close", "-q", case]),
            Step::Month => run(dir, &["month", "-q"]),
            Step::Year { top_brass } => {
                run(dir, &["year", "-q", "--top-brass", &top_brass.join(",")])
            }
            Step::Mend {
                detective,
                relationship,
            } => run(dir, &["mend", "-q", detective, relationship.word()]),
        };
        ok(&o);
    }
}

fn new_campaign(dir: &Path, seed: u64, packets: &str) {
    let seed = seed.to_string();
    ok(&run(
        dir,
        &[
            "new",
            "--seed",
            &seed,
            "--detectives",
            &SQUAD.join(","),
            "--packets",
            packets,
            "-q",
        ],
    ));
}

fn frac(n: u32, d: u32) -> String {
    let r = Ratio::new(n, d);
    if *r.denom() == 1 {
        r.numer().to_string()
    } else {
        format!("{}/{}", r.numer(), r.denom())
    }
}

fn ratio(s: &str) -> Ratio<i64> {
    match s.split_once('/') {
        Some((n, d)) => Ratio::new(n.parse().unwrap(), d.parse().unwrap()),
        None => Ratio::from_integer(s.parse().unwrap()),
    }
}

fn days_in_month(y: i32, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The scripted year, played once through the command line for every test that reads it.
fn year_dir() -> &'static (tempfile::TempDir, Vec<Step>) {
    static DIR: std::sync::OnceLock<(tempfile::TempDir, Vec<Step>)> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let lib = library();
        let steps = scripted_log(&lib, &setup(SEED, vec![]));
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("squad");
        new_campaign(&dir, SEED, "none");
        // Everything but the year end, then the out-of-order checks that need a full year, then the year.
        let (last, rest) = steps.split_last().unwrap();
        play(&dir, rest);
        let before = std::fs::read(dir.join("campaign.toml")).unwrap();
        fails(&run(&dir, &["week"]), 2, "campaign year");
        fails(&run(&dir, &["month"]), 2, "campaign year");
        assert_eq!(std::fs::read(dir.join("campaign.toml")).unwrap(), before);
        play(&dir, std::slice::from_ref(last));
        (t, steps)
    })
}

#[test]
fn a_scripted_year_follows_the_rules() {
    let lib = library();
    let (t, steps) = year_dir();
    let dir = t.path().join("squad");
    let setup = setup(SEED, vec![]);
    let d = campaign::replay(&lib, &setup, steps).unwrap();

    // The command line wrote exactly the state the library works out from the same log.
    let text = std::fs::read_to_string(dir.join("campaign.toml")).unwrap();
    assert_eq!(text, file::render(&lib, &setup, steps, &d).unwrap());

    // New cases on 1–2 of the week's 1d6, one check per week, with its exact odds.
    let checks: Vec<_> = d
        .rolls
        .iter()
        .filter(|r| r.purpose == "new-case check")
        .collect();
    assert_eq!(checks.len(), 48);
    for (w, r) in checks.iter().enumerate() {
        assert_eq!((r.dice.as_str(), r.odds.as_str()), ("1d6", "1/3"));
        assert!((1..=6).contains(&r.result));
        assert_eq!(r.stream, format!("week 1976/{}", w + 1));
        let came = d
            .cases
            .iter()
            .find(|c| !c.starting && c.year == 1976 && c.week == w as u32 + 1);
        assert_eq!(came.is_some(), r.result <= 2, "week {}: {r:?}", w + 1);
    }
    let new_cases = d.cases.iter().filter(|c| !c.starting).count();
    assert_eq!(new_cases, checks.iter().filter(|r| r.result <= 2).count());
    assert!(new_cases > 5, "the scripted year should bring cases");

    // Case numbers follow each other; dates are in order and inside their week's days.
    let mut last = String::new();
    for (i, c) in d.cases.iter().enumerate() {
        assert_eq!(c.number, format!("1976-{:02}", i + 1));
        assert!(
            c.came_in >= last,
            "{} came in before the case numbered before it",
            c.number
        );
        last = c.came_in.clone();
        let (m, k) = ((c.week - 1) / 4 + 1, (c.week - 1) % 4 + 1);
        let day: u32 = c.came_in[8..10].parse().unwrap();
        assert_eq!(&c.came_in[..8], format!("1976-{m:02}-"));
        let (lo, hi) = (
            7 * (k - 1) + 1,
            if k == 4 {
                days_in_month(1976, m)
            } else {
                7 * k
            },
        );
        assert!(
            (lo..=hi).contains(&day),
            "{} on day {day}, week {k} of month {m}",
            c.number
        );
        let minute: u32 = c.came_in[14..16].parse().unwrap();
        assert_eq!(minute % 5, 0);
        if c.starting {
            assert_eq!(&c.came_in[..10], "1976-01-01");
        }
    }
    assert_eq!(d.cases.iter().filter(|c| c.starting).count(), 3);

    // Leads: the detective with the fewest open cases when the case comes in; ties rolled and logged.
    let mut ties = 0;
    for (i, st) in steps.iter().enumerate() {
        if *st != Step::Week {
            continue;
        }
        let before = campaign::replay(&lib, &setup, &steps[..i]).unwrap();
        let after = campaign::replay(&lib, &setup, &steps[..=i]).unwrap();
        if after.cases.len() == before.cases.len() {
            continue;
        }
        let case = after.cases.last().unwrap();
        let open = |n: &str| {
            before
                .cases
                .iter()
                .filter(|c| c.is_open() && c.lead == n)
                .count()
        };
        let on: Vec<&str> = before
            .detectives
            .iter()
            .filter(|p| p.on_squad)
            .map(|p| p.name.as_str())
            .collect();
        let fewest = on.iter().map(|n| open(n)).min().unwrap();
        let tied: Vec<&str> = on.iter().copied().filter(|n| open(n) == fewest).collect();
        assert!(
            tied.contains(&case.received_by.as_str()),
            "{}: {} is not among {tied:?}",
            case.number,
            case.received_by
        );
        let tie_rolls: Vec<_> = after.rolls[before.rolls.len()..]
            .iter()
            .filter(|r| r.purpose == "lead tie-break")
            .collect();
        if tied.len() > 1 {
            ties += 1;
            assert_eq!(tie_rolls.len(), 1);
            let r = tie_rolls[0];
            assert_eq!(r.dice, format!("1d{}", tied.len()));
            assert_eq!(r.odds, format!("1/{}", tied.len()));
            assert_eq!(tied[r.result as usize - 1], case.received_by);
        } else {
            assert!(tie_rolls.is_empty());
        }
    }
    assert!(ties > 0, "the scripted year should need a tie-break");

    // Monthly closure rates and the cascade, worked out again from the cases.
    let mut co: BTreeMap<&str, bool> = SQUAD.iter().map(|n| (*n, false)).collect();
    let mut comm = co.clone();
    let mut on: BTreeMap<&str, bool> = SQUAD.iter().map(|n| (*n, true)).collect();
    let mut rates: BTreeMap<&str, Vec<Ratio<i64>>> = BTreeMap::new();
    let mut months = d.months.iter();
    let mut outcomes = BTreeMap::<&str, usize>::new();
    let mut month = 0;
    for st in steps {
        match st {
            Step::Mend { detective, .. } => {
                *co.get_mut(detective.as_str()).unwrap() = false;
            }
            Step::Month => {
                month += 1;
                for name in SQUAD {
                    if !on[name] {
                        continue;
                    }
                    let m = months.next().unwrap();
                    assert_eq!((m.month, m.detective.as_str()), (month, name));
                    let received = d
                        .cases
                        .iter()
                        .filter(|c| c.received_by == name && (c.week - 1) / 4 + 1 == month)
                        .count() as u32;
                    let closed = d
                        .cases
                        .iter()
                        .filter(|c| {
                            c.closed_by.as_deref() == Some(name)
                                && c.closed_week.is_some_and(|w| (w - 1) / 4 + 1 == month)
                        })
                        .count() as u32;
                    assert_eq!(
                        (m.received, m.closed),
                        (received, closed),
                        "{name}, month {month}"
                    );
                    if received == 0 {
                        assert_eq!(m.rate, None);
                    } else {
                        assert_eq!(m.rate.as_deref(), Some(frac(closed, received).as_str()));
                        rates
                            .entry(name)
                            .or_default()
                            .push(Ratio::new(closed as i64, received as i64));
                    }
                    let Some(rs) = rates.get(name) else {
                        assert!(m.roll.is_none() && m.outcome.starts_with("no roll"));
                        continue;
                    };
                    let avg = rs.iter().sum::<Ratio<i64>>() / rs.len() as i64;
                    assert_eq!(ratio(m.average.as_deref().unwrap()), avg);
                    let target = (avg * 100).floor().to_integer().min(100) as u32;
                    assert_eq!(m.target, Some(target));
                    let roll = m.roll.unwrap();
                    assert!((1..=100).contains(&roll));
                    let logged = d
                        .rolls
                        .iter()
                        .find(|r| {
                            r.purpose == "paperwork: commanding officer"
                                && r.outcome.starts_with(&format!(
                                    "{name}, {} 1976",
                                    campaign::MONTH_NAMES[month as usize - 1]
                                ))
                        })
                        .unwrap();
                    assert_eq!(logged.result, i64::from(roll));
                    assert_eq!(ratio(&logged.odds), Ratio::new(i64::from(target), 100));
                    let kind = if roll <= target {
                        "kept"
                    } else if !co[name] {
                        co.insert(name, true);
                        "co"
                    } else if !comm[name] {
                        comm.insert(name, true);
                        "commissioner"
                    } else {
                        on.insert(name, false);
                        "off"
                    };
                    *outcomes.entry(kind).or_default() += 1;
                    let says = match kind {
                        "kept" => "kept",
                        "co" => "the relationship with the commanding officer is strained",
                        "commissioner" => "the relationship with the commissioner is strained",
                        _ => "off the squad",
                    };
                    assert!(
                        m.outcome.contains(says),
                        "{name} month {month}: {} (want {says})",
                        m.outcome
                    );
                }
            }
            _ => {}
        }
    }
    assert!(months.next().is_none());
    // Ana closes nothing: her starting case makes her average 0, so she strains her commanding officer
    // in January, the commissioner in February and is off the squad in March, to her assignment.
    for k in ["co", "commissioner", "off", "kept"] {
        assert!(
            outcomes.get(k).is_some_and(|&n| n > 0),
            "no `{k}` outcome in {outcomes:?}"
        );
    }
    let ana = d.detectives.iter().find(|p| p.name == "Ana Ruiz").unwrap();
    assert!(!ana.on_squad);
    assert_eq!(
        ana.left.as_deref(),
        Some(format!("March 1976: thrown off the squad to {}", ana.assignment).as_str())
    );
    // Her open cases went to those still on the squad, none of hers stays open.
    assert!(d.cases.iter().all(|c| !c.is_open() || c.lead != "Ana Ruiz"));
    assert!(
        d.cases
            .iter()
            .any(|c| c.received_by == "Ana Ruiz" && c.lead != "Ana Ruiz")
    );
    for p in &d.detectives {
        assert_eq!(
            (p.commanding_officer_strained, p.on_squad),
            (co[p.name.as_str()], on[p.name.as_str()]),
            "{}",
            p.name
        );
    }

    // The year end: squad rate and personal rate averaged, for those still on the squad.
    let Some(Step::Year { top_brass }) = steps.last() else {
        panic!("the log ends with the year")
    };
    let received = d.cases.iter().filter(|c| c.year == 1976).count() as u32;
    let closed = d
        .cases
        .iter()
        .filter(|c| c.closed_year == Some(1976))
        .count() as u32;
    let squad = Ratio::new(closed as i64, received as i64);
    assert_eq!(d.years.len(), on.values().filter(|v| **v).count());
    for y in &d.years {
        assert_eq!(ratio(y.squad_rate.as_deref().unwrap()), squad);
        let r = d
            .cases
            .iter()
            .filter(|c| c.received_by == y.detective)
            .count() as i64;
        let c = d
            .cases
            .iter()
            .filter(|c| c.closed_by.as_deref() == Some(y.detective.as_str()))
            .count() as i64;
        let personal = Ratio::new(c, r);
        assert_eq!(ratio(y.personal_rate.as_deref().unwrap()), personal);
        let chance = (squad + personal) / 2;
        assert_eq!(ratio(y.chance.as_deref().unwrap()), chance);
        let target = (chance * 100).floor().to_integer().min(100) as u32;
        assert_eq!(y.target, Some(target));
        let roll = y.roll.unwrap();
        let p = d.detectives.iter().find(|p| p.name == y.detective).unwrap();
        if roll <= target {
            assert!(y.outcome.starts_with("kept") && p.on_squad);
        } else if top_brass.contains(&y.detective) && !comm[y.detective.as_str()] {
            assert!(y.outcome.contains("top brass") && p.on_squad && p.commissioner_strained);
        } else {
            assert!(y.outcome.contains("demoted") && !p.on_squad);
        }
    }
    let cal = d.calendar.as_ref().unwrap();
    assert_eq!((cal.year, cal.week, cal.months_closed), (1977, 0, 0));
}

#[test]
fn new_cases_come_on_one_or_two_of_a_d6_over_many_years() {
    // 2 000 seeded years of 48 weekly checks: 96 000 rolls.
    let (years, weeks) = (2000u64, 48u32);
    let mut faces = [0u64; 6];
    let mut cases = 0u64;
    for seed in 0..years {
        for w in 1..=weeks {
            let (roll, new) = campaign::new_case_check(seed, 1976, w).unwrap();
            assert_eq!(new, roll <= 2);
            faces[(roll - 1) as usize] += 1;
            cases += u64::from(new);
        }
    }
    let n = (years * u64::from(weeks)) as f64;
    // The count of new cases is Binomial(n, 1/3): more than 6 standard deviations from n/3 happens
    // with probability below 2·10⁻⁹ for fair dice.
    let sd = (n * (1.0 / 3.0) * (2.0 / 3.0)).sqrt();
    let off = (cases as f64 - n / 3.0).abs();
    assert!(
        off <= 6.0 * sd,
        "{cases} new cases in {n} weeks: {off} from n/3, sd {sd}"
    );
    // The exact odds the tracker prints come from the dice engine: 1/3.
    assert_eq!(campaign::fraction(&campaign::new_case_odds()), "1/3");
    // Every face equally often: Pearson's chi-square with 5 degrees of freedom stays under 35.9 with
    // probability 1 − 10⁻⁶ for a fair die.
    let e = n / 6.0;
    let chi2: f64 = faces.iter().map(|&f| (f as f64 - e).powi(2) / e).sum();
    assert!(chi2 < 35.9, "faces {faces:?}: chi-square {chi2}");
    // Neighbouring streams are unrelated: week 1 and week 2 of the same seed show the same face one
    // time in six (Binomial(20 000, 1/6), within 6 sd), and so do two detectives' d100 rolls one time
    // in a hundred.
    let m = 20_000u64;
    let same = (0..m)
        .filter(|&s| {
            campaign::new_case_check(s, 1976, 1).unwrap().0
                == campaign::new_case_check(s, 1976, 2).unwrap().0
        })
        .count() as f64;
    let sd = (m as f64 * (1.0 / 6.0) * (5.0 / 6.0)).sqrt();
    assert!(
        (same - m as f64 / 6.0).abs() <= 6.0 * sd,
        "{same} equal neighbours of {m}"
    );
    let d100 = blockprint::dice::parse("1d100").unwrap();
    let roll = |seed: u64, index: u64| {
        d100.roll(&mut campaign::stream(seed, campaign::MONTH, index))
            .unwrap()
            .value
    };
    let same = (0..m).filter(|&s| roll(s, 10) == roll(s, 12)).count() as f64;
    let sd = (m as f64 * 0.01 * 0.99).sqrt();
    assert!(
        (same - m as f64 / 100.0).abs() <= 6.0 * sd,
        "{same} equal d100 pairs of {m}"
    );
}

/// Every file under `dir` (relative path → bytes).
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// A short stretch with packets: January, the first week of February and a close.
fn short(dir: &Path, seed: u64, packets: &str) -> Derived {
    new_campaign(dir, seed, packets);
    let lib = library();
    let setup = setup(seed, vec![]);
    let mut steps = vec![
        Step::Week,
        Step::Week,
        Step::Week,
        Step::Week,
        Step::Month,
        Step::Week,
    ];
    let d = campaign::replay(&lib, &setup, &steps).unwrap();
    let open = d.cases.iter().find(|c| c.is_open()).unwrap().number.clone();
    steps.push(Step::Close { case: open });
    play(dir, &steps);
    campaign::replay(&lib, &setup, &steps).unwrap()
}

#[test]
fn reruns_are_byte_identical_and_undo_then_redo_restores_everything() {
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    let d = short(&a, 42, "pdf,md,json");
    short(&b, 42, "pdf,md,json");
    let (fa, fb) = (files(&a), files(&b));
    assert_eq!(fa.keys().collect::<Vec<_>>(), fb.keys().collect::<Vec<_>>());
    for (k, v) in &fa {
        assert!(
            v == &fb[k],
            "{k} differs between two runs of the same commands"
        );
    }
    // Every case has its packet, its lead typed in.
    for c in &d.cases {
        let json = String::from_utf8(fa[&format!("cases/{0}/{0}.json", c.number)].clone()).unwrap();
        assert!(
            json.contains(&format!("\"lead_detective\": \"{}\"", c.lead)),
            "{json}"
        );
        assert!(
            json.contains(&format!("\"date_in\": \"{}\"", &c.came_in[..10])),
            "{json}"
        );
        assert!(fa.contains_key(&format!("cases/{0}/{0}-gm.pdf", c.number)));
    }
    assert!(fa.contains_key("cases/gm.pdf") && fa.contains_key("cases/index.md"));

    // Undo the close and the week, then run them again: every file as before (but the kept previous state).
    let before = files(&a);
    ok(&run(&a, &["undo", "-q"]));
    ok(&run(&a, &["undo", "-q"]));
    let undone = campaign::replay(
        &library(),
        &setup(42, vec![]),
        &[Step::Week, Step::Week, Step::Week, Step::Week, Step::Month],
    )
    .unwrap();
    // A case that came in during the undone week is gone, packet and all.
    for c in d
        .cases
        .iter()
        .filter(|c| !undone.cases.iter().any(|u| u.number == c.number))
    {
        assert!(
            !a.join("cases").join(&c.number).exists(),
            "{} still has a packet",
            c.number
        );
    }
    ok(&run(&a, &["week", "-q"]));
    let case = d
        .cases
        .iter()
        .find(|c| c.status == "closed")
        .unwrap()
        .number
        .clone();
    ok(&run(&a, &["close", "-q", &case]));
    let after = files(&a);
    for (k, v) in &before {
        if k == "campaign.prev.toml" {
            continue;
        }
        assert!(after.get(k) == Some(v), "{k} differs after undo and redo");
    }
    assert_eq!(before.len(), after.len());
}

#[test]
fn a_bad_state_file_is_reported_at_its_place_and_nothing_is_replaced() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("c");
    short(&dir, 9, "none");
    let path = dir.join("campaign.toml");
    let prev = std::fs::read(dir.join("campaign.prev.toml")).unwrap();
    let good = std::fs::read_to_string(&path).unwrap();
    let line_of =
        |text: &str, needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() + 1;

    // `lines`: where the report may point (the entry's header or its first key).
    let check = |text: String, lines: std::ops::RangeInclusive<usize>, says: &str| {
        std::fs::write(&path, &text).unwrap();
        for cmd in ["week", "status", "undo"] {
            let o = run(&dir, &[cmd]);
            fails(&o, 1, says);
            assert!(
                lines
                    .clone()
                    .any(|l| s(&o).contains(&format!("campaign.toml:{l}:"))),
                "not located at lines {lines:?}:\n{}",
                s(&o)
            );
            assert!(s(&o).contains("error[campaign_state]"), "{}", s(&o));
            assert!(!s(&o).contains("panicked"));
            assert_eq!(
                std::fs::read_to_string(&path).unwrap(),
                text,
                "the bad file was replaced"
            );
            assert_eq!(
                std::fs::read(dir.join("campaign.prev.toml")).unwrap(),
                prev,
                "the previous good state was touched"
            );
        }
    };
    // Not TOML.
    let l = line_of(&good, "months_closed = ");
    check(
        good.replace("months_closed = 1", "months_closed = = 1"),
        l..=l,
        "campaign.toml",
    );
    // A derived value edited by hand.
    let l = line_of(&good, "result = ");
    let first_result = good.lines().nth(l - 1).unwrap().to_owned();
    let header = good
        .lines()
        .take(l)
        .collect::<Vec<_>>()
        .iter()
        .rposition(|x| x.starts_with("[[roll]]"))
        .unwrap()
        + 1;
    check(
        good.replacen(&first_result, "result = 99", 1),
        header..=header + 1,
        "does not follow from the command log",
    );
    // A command blockprint does not know.
    let l = line_of(&good, "command = \"month\"");
    check(
        good.replacen("command = \"month\"", "command = \"fortnight\"", 1),
        l - 1..=l,
        "fortnight",
    );
    // A command that cannot be applied.
    let l = line_of(&good, "command = \"close\"");
    let case_line = good.lines().nth(l).unwrap().to_owned();
    check(
        good.replacen(&case_line, "case = \"1976-99\"", 1),
        l - 1..=l,
        "there is no case 1976-99",
    );
    // Wrong type in the setup.
    let l = line_of(&good, "seed = ");
    check(
        good.replacen("seed = 9", "seed = \"nine\"", 1),
        l..=l,
        "campaign.toml",
    );

    // An edited log is replayed, not refused: drop the last command (the close) by hand and the next
    // command works from there.
    let l = line_of(&good, "command = \"close\"");
    let lines: Vec<&str> = good.lines().collect();
    let edited: String = lines[..l - 2]
        .iter()
        .chain(&lines[l + 1..])
        .map(|x| format!("{x}\n"))
        .collect();
    std::fs::write(&path, &edited).unwrap();
    ok(&run(&dir, &["week", "-q"]));
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(!after.contains("command = \"close\""), "{after}");
    assert_eq!(after.matches("command = \"week\"").count(), 6);

    // Put the good file back: everything works again.
    std::fs::write(&path, &good).unwrap();
    ok(&run(&dir, &["status", "-q", "--format", "md"]));
}

#[test]
fn commands_out_of_order_are_usage_errors_that_name_the_fix() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("c");
    new_campaign(&dir, 5, "none");
    let state = || std::fs::read(dir.join("campaign.toml")).unwrap();
    let start = state();
    fails(
        &run(&dir, &["month"]),
        2,
        "campaign week DIR`, 4 more times",
    );
    fails(&run(&dir, &["year"]), 2, "0 of its 12 months are closed");
    fails(
        &run(&dir, &["close", "1976-01"]),
        2,
        "no week of 1976 has started",
    );
    fails(&run(&dir, &["undo"]), 2, "nothing to undo");
    fails(
        &run(&dir, &["new", "--roll", "2"]),
        2,
        "already holds a campaign",
    );
    assert_eq!(state(), start);
    ok(&run(&dir, &["week", "-q"]));
    fails(
        &run(&dir, &["close", "1976-42"]),
        2,
        "there is no case 1976-42; the open cases are 1976-01",
    );
    fails(
        &run(&dir, &["mend", "Ana Ruiz", "co"]),
        2,
        "is not strained",
    );
    fails(
        &run(&dir, &["mend", "Nobody", "co"]),
        2,
        "there is no detective `Nobody`",
    );
    ok(&run(&dir, &["close", "-q", "1976-01"]));
    fails(&run(&dir, &["close", "1976-01"]), 2, "already closed");
    for _ in 0..3 {
        ok(&run(&dir, &["week", "-q"]));
    }
    let full = state();
    fails(
        &run(&dir, &["week"]),
        2,
        "close the month with `blockprint campaign month DIR` first",
    );
    fails(
        &run(&dir, &["year", "--top-brass", "Ana Ruiz"]),
        2,
        "months are closed",
    );
    assert_eq!(state(), full);
    ok(&run(&dir, &["month", "-q"]));
    fails(
        &run(&dir, &["close", "1976-02"]),
        2,
        "January 1976 has been closed",
    );
    // A missing campaign, an empty squad and a bad name are usage errors too.
    fails(
        &run(&t.path().join("none"), &["week"]),
        2,
        "holds no campaign",
    );
    fails(
        &run(&t.path().join("e"), &["new", "--detectives", "A,,B"]),
        2,
        "empty name",
    );
    fails(
        &run(&t.path().join("e"), &["new", "--detectives", "A,a"]),
        2,
        "two detectives are called",
    );
    assert!(!t.path().join("e").join("campaign.toml").exists());
}

#[test]
fn the_status_of_a_scripted_year_matches_its_golden_markdown_and_json() {
    let (t, _) = year_dir();
    let dir = t.path().join("squad");
    let o = run(&dir, &["status", "--format", "md,json"]);
    ok(&o);
    let golden = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/campaign");
    let mut got = BTreeMap::new();
    for f in ["status.md", "status.json"] {
        got.insert(
            f.to_owned(),
            std::fs::read(dir.join("status").join(f)).unwrap(),
        );
    }
    let md = String::from_utf8(got["status.md"].clone()).unwrap();
    assert!(
        md.contains("## Caseload: Ana Ruiz")
            && md.contains("## Squad calendar 1976")
            && md.contains("# Squad status — End of 1976")
    );
    assert!(md.contains("thrown off the squad"));
    assert_eq!(crate::support::golden_files(&golden, &got), 2);
}

#[test]
fn status_and_plan_pdfs_render_on_a4_and_letter_without_warnings() {
    let t = tempfile::tempdir().unwrap();
    for paper in ["a4", "letter"] {
        let dir = t.path().join(paper);
        // A long unbroken name must wrap inside its boxes.
        let long = "Bartholomew-Maximilian-Featherstonehaugh-Cholmondeley-Worcestershire".repeat(2);
        let o = bp(&[
            "campaign",
            "new",
            dir.to_str().unwrap(),
            "--seed",
            "3",
            "--paper",
            paper,
            "--packets",
            "none",
            "--detectives",
            &format!("Ana Ruiz,{long}"),
            "-q",
        ]);
        ok(&o);
        for _ in 0..4 {
            ok(&run(&dir, &["week", "-q"]));
        }
        ok(&run(&dir, &["month", "-q"]));
        for (cmd, args) in [
            ("status", vec!["--format", "pdf"]),
            ("plan", vec!["--weeks", "48", "--format", "pdf,md"]),
        ] {
            let mut a = vec![cmd, "-q"];
            a.extend(args);
            let o = run(&dir, &a);
            ok(&o);
            assert!(!s(&o).contains("warning"), "{}", s(&o));
            let pdf = std::fs::read(dir.join(cmd).join(format!("{cmd}.pdf"))).unwrap();
            let doc = lopdf::Document::load_mem(&pdf).unwrap();
            let page = doc.get_pages().values().next().copied().unwrap();
            let media = doc
                .get_object(page)
                .unwrap()
                .as_dict()
                .unwrap()
                .get(b"MediaBox")
                .unwrap()
                .as_array()
                .unwrap()
                .clone();
            let width = media[2].as_float().unwrap();
            assert!(
                (width - if paper == "a4" { 595.28 } else { 612.0 }).abs() < 0.5,
                "{paper}: {width}"
            );
            let text = pdf_extract::extract_text_from_mem(&pdf).unwrap();
            if cmd == "status" {
                assert!(
                    text.contains("HOMICIDE CASELOAD") || text.contains("Homicide caseload"),
                    "{text}"
                );
                assert!(text.contains("Ana Ruiz"));
                assert!(text.contains("Barthol"), "{text}");
                assert_eq!(
                    doc.get_pages().len(),
                    3,
                    "two caseload sheets and the calendar"
                );
            } else {
                assert!(text.contains("1976-0"), "{text}");
            }
        }
    }
}

#[test]
fn plan_prerolls_exactly_what_week_rolls() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("p");
    new_campaign(&dir, 77, "none");
    ok(&run(
        &dir,
        &["plan", "-q", "--weeks", "12", "--format", "json"],
    ));
    let plan: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("plan/plan.json")).unwrap()).unwrap();
    for _ in 0..4 {
        ok(&run(&dir, &["week", "-q"]));
    }
    ok(&run(&dir, &["month", "-q"]));
    for _ in 0..4 {
        ok(&run(&dir, &["week", "-q"]));
    }
    let d = campaign::replay(
        &library(),
        &setup(77, vec![]),
        &[
            Step::Week,
            Step::Week,
            Step::Week,
            Step::Week,
            Step::Month,
            Step::Week,
            Step::Week,
            Step::Week,
            Step::Week,
        ],
    )
    .unwrap();
    let checks: Vec<_> = d
        .rolls
        .iter()
        .filter(|r| r.purpose == "new-case check")
        .collect();
    let weeks = plan["weeks"].as_array().unwrap();
    assert_eq!(weeks.len(), 12);
    for (w, r) in weeks.iter().zip(&checks) {
        assert_eq!(w["roll"].as_i64(), Some(r.result));
        if let Some(n) = w["number"].as_str() {
            let c = d.cases.iter().find(|c| c.number == n).unwrap();
            assert_eq!(w["came_in"].as_str(), Some(c.came_in.as_str()));
        }
    }
}

#[test]
fn the_squad_room_status_says_its_rolls_in_words_and_carries_no_seed_or_hash() {
    // Issue 22, defects 4 and 15: the status PDF is the squad-room copy the players see. It prints no
    // campaign seed (which rebuilds every case's GM file), no content hash and no dice notation, and its
    // calendar's week labels are at least 7.5 pt. The plan is the GM's and keeps the seed and the die.
    let t = tempfile::tempdir().unwrap();
    for paper in ["a4", "letter"] {
        let dir = t.path().join(paper);
        ok(&bp(&[
            "campaign",
            "new",
            dir.to_str().unwrap(),
            "--seed",
            "987654321",
            "--paper",
            paper,
            "--packets",
            "none",
            "--detectives",
            "Ana Ruiz,Walt Kowalski",
            "-q",
        ]));
        for _ in 0..4 {
            ok(&run(&dir, &["week", "-q"]));
        }
        ok(&run(&dir, &["month", "-q"]));
        ok(&run(&dir, &["week", "-q"]));
        ok(&run(&dir, &["status", "-q", "--format", "pdf,md"]));
        ok(&run(&dir, &["plan", "-q", "--format", "pdf"]));
        let state = std::fs::read_to_string(dir.join("campaign.toml")).unwrap();
        let version = state
            .lines()
            .find_map(|l| l.strip_prefix("content_version = \""))
            .and_then(|v| v.strip_suffix('"'))
            .unwrap();
        assert_eq!(version.len(), 12);
        let pdf = std::fs::read(dir.join("status/status.pdf")).unwrap();
        let text = pdf_extract::extract_text_from_mem(&pdf).unwrap();
        assert!(text.contains("Squad-room copy"), "{text}");
        assert!(text.contains("one six-sided die"), "{text}");
        for banned in ["987654321", "seed", version, "1d6", "d100", "1d100"] {
            assert!(!text.contains(banned), "{paper}: `{banned}` on the status");
        }
        // The GM's record keeps the seed; so does the plan, which is the GM's.
        let md = std::fs::read_to_string(dir.join("status/status.md")).unwrap();
        assert!(md.contains("Campaign seed 987654321"));
        let plan =
            pdf_extract::extract_text_from_mem(&std::fs::read(dir.join("plan/plan.pdf")).unwrap())
                .unwrap();
        assert!(plan.contains("campaign seed 987654321") && plan.contains("GM only"));
        assert!(plan.contains("the GM rolls 1d6: on 1–2"), "{plan}");

        // Every week label of both calendars is set at 7.5 pt; nothing on either is under 7 pt.
        for (file, pages) in [("status/status.pdf", 3), ("plan/plan.pdf", 1)] {
            let doc = crate::support::glyphs::pages(&std::fs::read(dir.join(file)).unwrap());
            assert_eq!(doc.len(), pages, "{paper} {file}");
            let calendar = doc.last().unwrap();
            let mut labels = 0;
            for (i, g) in calendar.glyphs.iter().enumerate() {
                // "Week" and then the week's number ("Weeks cover days" in the note is no label).
                let word: String = calendar.glyphs[i..]
                    .iter()
                    .map(|g| g.text.as_str())
                    .filter(|t| !t.trim().is_empty())
                    .take(5)
                    .collect();
                let word = word.trim_end_matches(|c: char| c.is_ascii_digit());
                // (The footer, under 20 mm from the foot, says "Week 5 of 48" at 7 pt: not a label.)
                if word == "Week" && g.font.contains("Courier") && g.y > 20.0 * 72.0 / 25.4 {
                    assert!((g.size - 7.5).abs() < 0.01, "{file}: {g:?}");
                    labels += 1;
                }
            }
            assert_eq!(labels, 48, "{file}: a label per week");
            for p in &doc {
                for g in &p.glyphs {
                    assert!(g.size >= 7.0 - 0.01, "{paper} {file}: {g:?}");
                }
            }
        }
    }
}
