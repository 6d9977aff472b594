//! The case roller against the rules (issue 8, points 1–5 and 7), over thousands of cases rolled with the
//! library: Break thresholds for every band a later Break can fall in, with the dates of the band edges;
//! bands that agree with the lookup's documented edges (365.25-day year) whatever leap days intervene; a
//! police victim anywhere in the list; DA odds for every charge × every suspect modifier total; dates that
//! follow case numbers over the whole year; occupations that settle the victim's gender.

use blockprint::check;
use blockprint::content::{ContentRoot, Library};
use blockprint::roll::calendar::DateTime;
use blockprint::roll::case::{
    Case, CaseRequest, GENDER, THRESHOLD, THRESHOLDS, VICTIMS, roll_case,
};

fn library() -> Library {
    let (lib, report) = check::load_and_check(&ContentRoot::Embedded).unwrap();
    assert_eq!(report.errors(), 0);
    lib
}

fn roll(lib: &Library, seed: u64, number: u32, year_cases: u32) -> Case {
    roll_case(
        lib,
        CaseRequest {
            batch_seed: seed,
            year: 1976,
            number,
            year_cases,
        },
    )
    .unwrap()
}

/// Minutes since 1970 of `1976-03-09` + `14:05`.
fn at(date: &str, time: &str) -> i64 {
    let d: Vec<u32> = date.split('-').map(|p| p.parse().unwrap()).collect();
    let t: Vec<u32> = time.split(':').map(|p| p.parse().unwrap()).collect();
    DateTime::new(i64::from(d[0]), d[1], d[2], t[0], t[1])
        .expect("a real date")
        .minutes
}

/// The threshold lookup's bands: key, dice, last minute (none: open).
fn bands(lib: &Library) -> Vec<(String, String, Option<i64>)> {
    lib.lookup(THRESHOLD)
        .unwrap()
        .entries
        .iter()
        .map(|e| {
            (
                e.key.value.clone(),
                e.value.value.to_string(),
                e.up_to_hours
                    .as_ref()
                    .map(|h| (h.value * 60.0).round() as i64),
            )
        })
        .collect()
}

fn band_of(bands: &[(String, String, Option<i64>)], minutes: i64) -> usize {
    bands
        .iter()
        .position(|b| b.2.is_none_or(|u| minutes <= u))
        .unwrap()
}

/// The largest value a threshold die can show: `1` → 1, `1d6` → 6.
fn die_max(dice: &str) -> i64 {
    dice.rsplit('d').next().unwrap().parse().unwrap()
}

#[test]
fn every_threshold_band_agrees_with_the_documented_edges() {
    // Point 2: the band of the first threshold is the band of the exact time between crime and report, by
    // the lookup's edges (24 h, 168 h, 672 h, 8,766 h = 365.25 days), for thousands of cases, leap years
    // included; and twelve months is always within one year.
    let lib = library();
    let bands = bands(&lib);
    assert_eq!(
        bands[3].2,
        Some(8766 * 60),
        "the one-year edge is 365.25 days"
    );
    let mut seen = [0u32; 5];
    let mut twelve_months = 0;
    for year_cases in [2500, 5000] {
        for number in 1..=2500 {
            let c = roll_case(
                &lib,
                CaseRequest {
                    batch_seed: 42,
                    year: if number % 2 == 0 { 1976 } else { 1977 },
                    number,
                    year_cases,
                },
            )
            .unwrap();
            let elapsed = at(&c.date_in, &c.time_in) - at(&c.crime_date, &c.crime_time);
            let b = band_of(&bands, elapsed);
            seen[b] += 1;
            assert_eq!(
                c.first_break_threshold.band, bands[b].0,
                "case {} ({} before): {} minutes",
                c.case_number, c.time_elapsed.display, elapsed
            );
            assert_eq!(c.first_break_threshold.dice, bands[b].1);
            // `hours` in case.json is the same span.
            assert_eq!(
                c.time_elapsed.hours.parse::<f64>().unwrap(),
                elapsed as f64 / 60.0
            );
            if c.time_elapsed.display == "12 months" {
                twelve_months += 1;
                assert_eq!(elapsed, 8766 * 60, "{}", c.case_number);
                assert_eq!(c.first_break_threshold.band, "Within one year");
            }
        }
    }
    assert!(seen.iter().all(|n| *n > 0), "every band occurs: {seen:?}");
    assert!(twelve_months > 0, "some case is twelve months old");
}

#[test]
fn later_thresholds_are_rolled_for_every_band_still_reachable_with_the_edge_dates() {
    // Point 1: Breaks 2–8 each have one value per band from the band at opening to the last, each in its
    // die's range; the band edges are the crime's date plus the documented edge.
    let lib = library();
    let bands = bands(&lib);
    let mut opened_within_24h = 0;
    let mut saw_value_above_one_in_week_band = false;
    for number in 1..=400 {
        let c = roll(&lib, 7, number, 400);
        let crime = at(&c.crime_date, &c.crime_time);
        let opening = band_of(&bands, at(&c.date_in, &c.time_in) - crime);
        let reachable = &bands[opening..];
        assert_eq!(c.threshold_bands.len(), reachable.len());
        for (edge, band) in c.threshold_bands.iter().zip(reachable) {
            assert_eq!((&edge.band, &edge.dice), (&band.0, &band.1));
            match band.2 {
                Some(up_to) => {
                    let until = at(
                        edge.until_date.as_deref().unwrap(),
                        edge.until_time.as_deref().unwrap(),
                    );
                    assert_eq!(until - crime, up_to, "{} {}", c.case_number, band.0);
                    let weekday = DateTime::from_minutes(until).unwrap().weekday();
                    assert_eq!(edge.until_weekday.as_deref(), Some(weekday));
                }
                None => assert!(edge.until_date.is_none() && edge.until_time.is_none()),
            }
        }
        assert_eq!(c.later_thresholds.len(), THRESHOLDS - 1);
        for (i, t) in c.later_thresholds.iter().enumerate() {
            assert_eq!(t.break_number, i + 2);
            assert_eq!(t.values.len(), reachable.len());
            for (v, band) in t.values.iter().zip(reachable) {
                assert_eq!(v.band, band.0);
                assert!((1..=die_max(&band.1)).contains(&v.value), "{v:?}");
            }
        }
        if opening == 0 {
            opened_within_24h += 1;
            // The week band's column is rolled on 1d3, not copied from the opening band's 1.
            saw_value_above_one_in_week_band |=
                c.later_thresholds.iter().any(|t| t.values[1].value > 1);
        }
    }
    assert!(opened_within_24h > 20, "{opened_within_24h}");
    assert!(saw_value_above_one_in_week_band);
}

#[test]
fn a_police_officer_anywhere_among_the_victims_makes_it_a_police_case() {
    // Point 3: find cases whose first victim is not police but another is; they are police cases.
    let lib = library();
    let police =
        |occupation: &str| ["Cop", "Detective", "Beat cop", "Undercover cop"].contains(&occupation);
    let mut found = 0;
    for number in 1..=3000 {
        let c = roll(&lib, 7, number, 3000);
        let any = police(&c.victim.victim.occupation.result)
            || c.other_victims.iter().any(|v| police(&v.occupation.result));
        assert_eq!(c.crime.police_victim, any, "{}", c.case_number);
        assert_eq!(c.da_odds.fixed_modifier, if any { 4 } else { 0 });
        if any && !police(&c.victim.victim.occupation.result) {
            found += 1;
            assert_eq!(c.crime.suggested_charge.table, "bbb.homicide.charge_police");
        }
    }
    assert!(
        found > 0,
        "no case with a police officer among the other victims"
    );
}

#[test]
fn da_odds_cover_every_charge_and_every_suspect_modifier_total() {
    // Point 4: the charges the case admits × the distinct suspect totals −4, −2, 0, +2, +4, exactly.
    let lib = library();
    let mut kinds = std::collections::BTreeSet::new();
    for number in 1..=300 {
        let c = roll(&lib, 11, number, 300);
        let da = &c.da_odds;
        let totals: Vec<i64> = da.columns.iter().map(|c| c.modifier).collect();
        assert_eq!(totals, [-4, -2, 0, 2, 4]);
        assert_eq!(da.columns[1].label, "High-profile, ethnic minority");
        let blocks: Vec<(i64, Vec<&str>)> = da
            .charges
            .iter()
            .map(|b| (b.target, b.charges.iter().map(String::as_str).collect()))
            .collect();
        if c.crime.police_victim {
            assert_eq!(
                blocks,
                [(
                    25,
                    vec![
                        "Second degree murder of a law enforcement officer",
                        "First degree murder"
                    ]
                )]
            );
        } else {
            assert_eq!(
                blocks,
                [
                    (15, vec!["Second degree murder"]),
                    (25, vec!["First degree murder"])
                ]
            );
        }
        // The suggested charge is one of them, and its sentence is shown.
        assert!(c.crime.charges.contains(&c.crime.suggested_charge.result));
        for b in &da.charges {
            assert_eq!(
                b.rows.iter().map(|r| r.breaks).collect::<Vec<_>>(),
                [3, 4, 5, 6, 7, 8]
            );
            for r in &b.rows {
                for (cell, col) in r.cells.iter().zip(&da.columns) {
                    let need =
                        b.target - da.per_break * r.breaks - da.fixed_modifier - col.modifier;
                    let wins = (1..=20).filter(|d| *d >= need).count() as i64;
                    let g = num_integer::gcd(wins, 20);
                    let want = match wins {
                        0 => "0".to_owned(),
                        20 => "1".to_owned(),
                        _ => format!("{}/{}", wins / g, 20 / g),
                    };
                    assert_eq!(cell.probability, want);
                }
            }
        }
        kinds.insert(c.crime.police_victim);
    }
    assert_eq!(kinds.len(), 2, "both police and other cases were rolled");
    // Spot values: a police case, 3 Breaks, working class: 1d20 + 6 + 4 ≥ 25 needs 15+, 6 in 20.
    let police = (1..=300)
        .map(|n| roll(&lib, 11, n, 300))
        .find(|c| c.crime.police_victim)
        .unwrap();
    assert_eq!(
        police.da_odds.charges[0].rows[0].cells[2].probability,
        "3/10"
    );
}

#[test]
fn case_numbers_follow_the_calendar_over_the_whole_year() {
    // Point 5: 200 cases in a year: strictly increasing arrival, in the year, spread over every week.
    let lib = library();
    let cases: Vec<Case> = (1..=200).map(|n| roll(&lib, 5, n, 200)).collect();
    let times: Vec<i64> = cases.iter().map(|c| at(&c.date_in, &c.time_in)).collect();
    assert!(
        times.windows(2).all(|w| w[0] < w[1]),
        "dates follow numbers"
    );
    let jan1 = DateTime::new(1976, 1, 1, 0, 0).unwrap().minutes;
    let mut per_week = [0u32; 53];
    for t in &times {
        let week = (t - jan1) / (7 * 24 * 60);
        per_week[week as usize] += 1;
    }
    assert!(cases.iter().all(|c| c.date_in.starts_with("1976-")));
    assert!(
        per_week[..52].iter().all(|n| (3..=5).contains(n)),
        "{per_week:?}"
    );
    // Case N of 200 comes in during the N-th two-hundredth of the (leap) year.
    let year = 366 * 24 * 60;
    for (i, t) in times.iter().enumerate() {
        let slot = (t - jan1) * 200 / year;
        assert_eq!(slot, i as i64, "case {}", i + 1);
    }
    // The default year of 17 cases: about one case every three weeks, and the batch of 3 is its first three.
    let three: Vec<Case> = (1..=3).map(|n| roll(&lib, 5, n, 17)).collect();
    for (i, c) in three.iter().enumerate() {
        let day = (at(&c.date_in, &c.time_in) - jan1) / (24 * 60);
        assert!(
            (i as i64 * 366 / 17..(i as i64 + 1) * 366 / 17 + 1).contains(&day),
            "{}",
            c.date_in
        );
    }
    // 10 000 cases still fit, in order.
    let last = roll(&lib, 5, 10_000, 10_000);
    assert_eq!(&last.date_in[..7], "1976-12");
    let before = roll(&lib, 5, 9_999, 10_000);
    assert!(at(&before.date_in, &before.time_in) < at(&last.date_in, &last.time_in));
}

#[test]
fn gendered_occupations_settle_the_victims_gender() {
    // Point 7: an occupation tagged female or male never comes with the other gender, and its gender is
    // attributed to the occupation roll; untagged occupations keep the gender roll.
    let lib = library();
    let victims = lib.table(VICTIMS).unwrap();
    let tag_of = |occupation: &str| {
        victims
            .rows
            .iter()
            .find(|r| r.result.value == occupation)
            .and_then(|r| {
                ["male", "female"]
                    .into_iter()
                    .find(|g| r.tags.iter().any(|t| t.value == *g))
            })
    };
    assert_eq!(tag_of("Bridesmaid"), Some("female"));
    assert_eq!(tag_of("Man dressed as Santa Claus"), Some("male"));
    let (mut tagged, mut rolled) = (0, 0);
    for number in 1..=3000 {
        let c = roll(&lib, 3, number, 3000);
        for v in std::iter::once(&c.victim.victim).chain(&c.other_victims) {
            match tag_of(&v.occupation.result) {
                Some(g) => {
                    tagged += 1;
                    assert_eq!(v.gender.result.to_lowercase(), g, "{}", c.case_number);
                    assert_eq!(v.gender.table, VICTIMS);
                    assert_eq!(v.gender.roll, v.occupation.roll);
                }
                None => {
                    rolled += 1;
                    assert_eq!(v.gender.table, GENDER);
                }
            }
        }
    }
    assert!(tagged > 100 && rolled > 2000, "{tagged} {rolled}");
}
