//! Over thousands of rolled cases, every table the roller uses comes up with the frequencies its dice
//! give: a chi-square goodness-of-fit test per table against the checker's exact odds, with a fixed seed
//! (so the test is deterministic) at a 0.1% significance level. The same statistic must reject wrong
//! models, which shows the test has the power to fail.

use std::collections::BTreeMap;

use blockprint::check;
use blockprint::content::ContentRoot;
use blockprint::roll::case::{roll_batch, row_counts};
use num_traits::ToPrimitive;

const CASES: u32 = 4000;

/// Upper 0.1% point of the chi-square distribution: exact for 1 and 2 degrees of freedom, the
/// Wilson–Hilferty approximation (within 2% from 3 up, erring high) beyond.
fn critical(df: usize) -> f64 {
    match df {
        1 => return 10.828,
        2 => return 13.816,
        _ => {}
    }
    let df = df as f64;
    let z = 3.0902; // standard normal upper 0.1% point
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + z * a.sqrt()).powi(3)
}

/// Chi-square statistic and degrees of freedom, merging neighbouring rows until each bin expects ≥ 5.
fn chi_square(observed: &[u64], probs: &[f64]) -> (f64, usize) {
    let n: u64 = observed.iter().sum();
    let mut bins: Vec<(f64, f64)> = Vec::new();
    let mut cur = (0.0, 0.0);
    for (o, p) in observed.iter().zip(probs) {
        cur.0 += *o as f64;
        cur.1 += p * n as f64;
        if cur.1 >= 5.0 {
            bins.push(cur);
            cur = (0.0, 0.0);
        }
    }
    if cur.1 > 0.0 || cur.0 > 0.0 {
        match bins.last_mut() {
            Some(last) => {
                last.0 += cur.0;
                last.1 += cur.1;
            }
            None => bins.push(cur),
        }
    }
    let stat = bins.iter().map(|(o, e)| (o - e) * (o - e) / e).sum();
    (stat, bins.len().saturating_sub(1))
}

fn setup() -> (BTreeMap<String, Vec<u64>>, BTreeMap<String, Vec<f64>>) {
    let (lib, report) = check::load_and_check(&ContentRoot::Embedded).unwrap();
    assert_eq!(report.errors(), 0);
    let cases = roll_batch(&lib, 20_260_101, 1976, 1, CASES).unwrap();
    let counts = row_counts(&cases);
    let mut observed = BTreeMap::new();
    let mut expected = BTreeMap::new();
    for (table, rows) in counts {
        let odds = &report.odds[&table];
        observed.insert(
            table.clone(),
            (0..odds.rows.len())
                .map(|i| rows.get(&i).copied().unwrap_or(0))
                .collect(),
        );
        expected.insert(
            table,
            odds.rows.iter().map(|p| p.to_f64().unwrap()).collect(),
        );
    }
    (observed, expected)
}

#[test]
fn every_table_rolls_with_the_frequencies_of_its_dice() {
    let (observed, expected) = setup();
    // The roller reaches the homicide tables, names, Breaks and their characteristics.
    for t in [
        "bbb.homicide.district",
        "bbb.homicide.method",
        "bbb.homicide.gunshot",
        "bbb.victims",
        "bbb.break.witness",
        "bbb.names.white.surname",
    ] {
        assert!(observed.contains_key(t), "{t} never rolled");
    }
    let mut tested = 0;
    for (table, obs) in &observed {
        let n: u64 = obs.iter().sum();
        if n < 200 {
            continue;
        }
        let (stat, df) = chi_square(obs, &expected[table]);
        if df == 0 {
            continue;
        }
        assert!(
            stat < critical(df),
            "{table}: chi-square {stat:.1} on {df} df exceeds {:.1} (n = {n}, observed {obs:?})",
            critical(df)
        );
        tested += 1;
    }
    assert!(tested >= 25, "only {tested} tables had enough rolls");
}

#[test]
fn the_test_rejects_wrong_models() {
    let (observed, expected) = setup();
    // District as if every row were equally likely.
    let d = &observed["bbb.homicide.district"];
    let uniform = vec![1.0 / d.len() as f64; d.len()];
    let (stat, df) = chi_square(d, &uniform);
    assert!(stat > critical(df), "uniform district not rejected: {stat}");
    // Method with the gunshot and cutting-weapon rows swapped (57% ↔ 25%).
    let m = &observed["bbb.homicide.method"];
    let mut swapped = expected["bbb.homicide.method"].clone();
    swapped.swap(0, 1);
    let (stat, df) = chi_square(m, &swapped);
    assert!(stat > critical(df), "swapped method not rejected: {stat}");
    // Victim gender off by ten points (69/31 instead of 79/21).
    let g = &observed["bbb.homicide.victim_gender"];
    let (stat, df) = chi_square(g, &[0.69, 0.31]);
    assert!(
        stat > critical(df),
        "gender off by ten points not rejected: {stat}"
    );
}

#[test]
fn critical_values_match_tables() {
    // Published upper 0.1% points: df 1 → 10.83, df 5 → 20.52, df 10 → 29.59, df 99 → 148.2.
    for (df, want) in [(1, 10.83), (3, 16.27), (5, 20.52), (10, 29.59), (99, 148.2)] {
        let got = critical(df);
        assert!((got - want).abs() / want < 0.02, "df {df}: {got} vs {want}");
    }
}
