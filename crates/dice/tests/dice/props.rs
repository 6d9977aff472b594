//! Property tests of the dice engine on random small expressions from the whole grammar (dice with
//! every modifier, constants, `+ - * /`, unary minus, parentheses):
//!
//! * an exact distribution sums to exactly 1, lists distinct ascending values with positive
//!   probabilities in lowest terms, and its mean is the weighted sum of its values;
//! * seeded rolls land only on values of the distribution, and their frequencies match it within a
//!   per-value bound of five standard deviations (plus a small absolute slack);
//! * `zero_divisor()` is `None` exactly when no divisor can be 0, and then every roll succeeds.
//!
//! Both the expressions and the rolls come from fixed seeds, so a run is the same every time: a
//! failure is a real bug, never noise.

use blockprint_dice::{self as dice, BigRational, DistErrorKind};
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

/// One dice term with random modifiers, always valid notation.
fn dice_term() -> impl Strategy<Value = String> {
    let sides = prop_oneof![
        Just("2".to_owned()),
        Just("3".to_owned()),
        Just("4".to_owned()),
        Just("6".to_owned()),
        Just("10".to_owned()),
        Just("%".to_owned()),
        Just("F".to_owned()),
        Just("1".to_owned()),
    ];
    (
        1u32..=4,
        sides,
        0u8..3,
        0u32..6,
        0u32..=4,
        prop::option::of((0usize..5, -1i64..=12)),
    )
        .prop_map(|(n, s, explode, keep_kind, keep_n, cs)| {
            let mut t = format!("{n}d{s}");
            if explode > 0 && s != "F" && s != "1" {
                t.push_str(if explode == 1 { "!" } else { "!!" });
            }
            let kinds = ["kh", "kl", "dh", "dl", "k", ""];
            let kind = kinds[keep_kind as usize];
            if !kind.is_empty() {
                t += &format!("{kind}{}", keep_n.min(n));
            }
            if let Some((op, v)) = cs {
                let op = [">=", ">", "<=", "<", "="][op];
                t += &format!("cs{op}{v}");
            }
            t
        })
}

fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![3 => dice_term(), 1 => (0i64..8).prop_map(|c| c.to_string())]
}

fn expr() -> impl Strategy<Value = String> {
    leaf().prop_recursive(3, 8, 2, |inner| {
        prop_oneof![
            (inner.clone(), 0usize..4, inner.clone())
                .prop_map(|(a, op, b)| { format!("{a}{}{b}", ["+", "-", "*", "/"][op]) }),
            inner.clone().prop_map(|a| format!("({a})")),
            inner.prop_map(|a| format!("-({a})")),
        ]
    })
}

/// The generator only writes valid notation, except that a constant divisor may come out as 0, which
/// the parser rightly rejects; any other parse error is a failure.
fn parsed(src: &str) -> Result<Option<dice::Expr>, TestCaseError> {
    match dice::parse(src) {
        Ok(e) => Ok(Some(e)),
        Err(e) if e.message.contains("division by zero") => Ok(None),
        Err(e) => Err(TestCaseError::fail(format!("{src}: {e}"))),
    }
}

fn runner(cases: u32) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(
        config,
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    )
}

#[test]
fn distributions_are_exact_and_consistent() {
    let seen_ok = std::cell::Cell::new(0u32);
    runner(400)
        .run(&expr(), |src| {
            let Some(e) = parsed(&src)? else {
                return Ok(());
            };
            let d = match e.distribution() {
                Ok(d) => d,
                Err(err) => {
                    // Refusals are for division by zero (then zero_divisor agrees) or size.
                    if err.kind == DistErrorKind::DivisionByZero {
                        prop_assert!(e.zero_divisor().is_some(), "{}", src);
                    }
                    return Ok(());
                }
            };
            seen_ok.set(seen_ok.get() + 1);
            let outcomes = d.outcomes();
            let total: BigRational = outcomes.iter().map(|(_, p)| p.clone()).sum();
            prop_assert_eq!(total, BigRational::one(), "{}", src);
            for w in outcomes.windows(2) {
                prop_assert!(w[0].0 < w[1].0, "{}: values not ascending", src);
            }
            let mut mean = BigRational::zero();
            for (v, p) in &outcomes {
                prop_assert!(p.is_positive(), "{}", src);
                prop_assert!(
                    p.numer().gcd(p.denom()).is_one(),
                    "{}: {} not reduced",
                    src,
                    p
                );
                prop_assert!(p.denom().is_positive(), "{}", src);
                mean += v * p;
            }
            prop_assert_eq!(d.mean(), mean, "{}", src);
            let capped = d.capped();
            prop_assert!(
                !capped.is_negative() && capped < BigRational::one(),
                "{}",
                src
            );
            prop_assert!(capped.numer().gcd(capped.denom()).is_one(), "{}", src);
            prop_assert_eq!(
                e.zero_divisor().is_none(),
                true,
                "{}: a distribution exists, so no divisor can be 0",
                src
            );
            Ok(())
        })
        .unwrap();
    let seen_ok = seen_ok.get();
    assert!(
        seen_ok > 150,
        "too few expressions had a distribution: {seen_ok}"
    );
}

#[test]
fn seeded_rolls_follow_the_distribution() {
    const ROLLS: u32 = 3000;
    let case = std::cell::Cell::new(0u64);
    runner(150)
        .run(&expr(), |src| {
            case.set(case.get() + 1);
            let Some(e) = parsed(&src)? else {
                return Ok(());
            };
            let Ok(d) = e.distribution() else {
                return Ok(());
            };
            let mut rng = ChaCha20Rng::seed_from_u64(case.get());
            let mut counts = std::collections::BTreeMap::<BigRational, u32>::new();
            for _ in 0..ROLLS {
                let r = e.roll(&mut rng);
                prop_assert!(r.is_ok(), "{}: no divisor can be 0, yet {:?}", src, r);
                *counts.entry(r.unwrap().value).or_default() += 1;
            }
            for v in counts.keys() {
                prop_assert!(
                    d.probability(v).is_positive(),
                    "{}: rolled {} outside the distribution",
                    src,
                    v
                );
            }
            let n = f64::from(ROLLS);
            for (v, p) in d.outcomes() {
                let p = p.numer().to_f64().unwrap_or(0.0) / p.denom().to_f64().unwrap_or(1.0);
                let p = if p.is_finite() { p } else { 0.0 };
                let got = f64::from(counts.get(&v).copied().unwrap_or(0));
                let bound = 5.0 * (n * p * (1.0 - p)).sqrt() + 3.0;
                prop_assert!(
                    (got - n * p).abs() <= bound,
                    "{}: value {} rolled {} times in {}, expected {:.1} ± {:.1}",
                    src,
                    v,
                    got,
                    n,
                    n * p,
                    bound
                );
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn zero_divisor_matches_the_divisors_support() {
    for (src, want) in [
        ("1d6/(1d2-1)", Some("(1d2-1)")),
        ("1d6/(1d2*2-3)", None), // -1 or 1: the range holds 0 but no value is 0
        ("1d6/2", None),
        ("1d6/1d4", None),
        ("1d6/(1d4/(1d2-1))", Some("(1d2-1)")),
        ("(1d6/(1d3-2))+1", Some("(1d3-2)")),
        ("1d6/(1000d6)", None),
        ("4/(1d6-1d6+7)", None),
        ("2d10/(1d2-1)", Some("(1d2-1)")),
        ("1d6/(4dF)", Some("(4dF)")),
        ("1d6/(3d6cs>=6)", Some("(3d6cs>=6)")),
        ("1d6/-(1d4)", None),
    ] {
        let e = dice::parse(src).unwrap();
        let got = e.zero_divisor();
        match (want, &got) {
            (None, None) => {}
            (Some(part), Some(err)) => {
                let span = err.span.unwrap();
                assert_eq!(&src[span.start..span.end], part, "{src}");
                assert_eq!(err.kind, DistErrorKind::DivisionByZero);
                assert!(err.message.contains("can be 0"), "{src}: {}", err.message);
                assert!(err.hint.as_deref().unwrap().contains("never be 0"));
            }
            _ => panic!("{src}: expected {want:?}, got {got:?}"),
        }
        // The roller agrees: a divisor that can be 0 does roll 0 for some seed, and none otherwise.
        let failures = (0..400u64)
            .filter(|s| e.roll(&mut ChaCha20Rng::seed_from_u64(*s)).is_err())
            .count();
        assert_eq!(
            failures > 0,
            want.is_some(),
            "{src}: {failures} failed rolls"
        );
    }
    // A divisor too big to check value by value, whose range holds 0, is reported as possibly 0.
    let e = dice::parse("1d6/(1000d6-3500)").unwrap();
    let err = e.zero_divisor().unwrap();
    assert!(err.message.contains("may be 0"), "{}", err.message);
    let span = err.span.unwrap();
    assert_eq!(span.start, 4);
    // ... but an exact big integer value is fine
    assert!(dice::parse("7/(1d6*0+2)").unwrap().zero_divisor().is_none());
}
