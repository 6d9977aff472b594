//! The dice crate's own integration tests: the public API end to end (notation in, exact probabilities,
//! rolls and text out) and property tests over random expressions ([`props`]). They build and run
//! without typst: `cargo test --release -p blockprint-dice`. The `odds` command's tests (bounds, the
//! checker's zero divisors) stay with the command line in `tests/`.

mod props;

use blockprint_dice::{self as dice, BigRational, EXPLODE_CAP, approx, fraction, parse};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn p(src: &str, value: i64) -> String {
    let dist = parse(src).unwrap().distribution().unwrap();
    fraction(&dist.probability(&BigRational::from_integer(value.into())))
}

#[test]
fn headline_probabilities() {
    assert_eq!(p("3d6", 10), "1/8");
    assert_eq!(p("5d6cs>=6", 0), "3125/7776");
    assert_eq!(p("2d10kl1", 1), "19/100");
    assert_eq!(p("2d10kl1", 10), "1/100");
    assert_eq!(p("4dF", 0), "19/81");
    assert_eq!(p("4dF", 4), "1/81");
    assert_eq!(p("2d20kh1", 20), "39/400");
    assert_eq!(p("1d6!", 3), "1/6");
    assert_eq!(p("1d6!", 7), "1/36");
    assert_eq!(p("30d6", 30), "1/221073919720733357899776");
    let d = parse("3d6").unwrap().distribution().unwrap();
    assert_eq!(fraction(&d.mean()), "21/2");
    assert_eq!(
        approx(&d.probability(&BigRational::from_integer(10.into()))),
        0.125
    );
}

#[test]
fn four_d6_keep_three_against_all_1296_rolls() {
    let mut counts = [0u32; 19];
    for a in 1..=6usize {
        for b in 1..=6 {
            for c in 1..=6 {
                for d in 1..=6 {
                    let mut r = [a, b, c, d];
                    r.sort_unstable();
                    counts[r[1] + r[2] + r[3]] += 1;
                }
            }
        }
    }
    let want: Vec<(i64, String)> = counts
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(v, c)| {
            (
                v as i64,
                fraction(&BigRational::new((*c).into(), 1296.into())),
            )
        })
        .collect();
    for src in ["4d6kh3", "4d6dl1", "4D6K3"] {
        let got: Vec<(i64, String)> = parse(src)
            .unwrap()
            .distribution()
            .unwrap()
            .integer_outcomes()
            .unwrap()
            .into_iter()
            .map(|(v, q)| (v, fraction(&q)))
            .collect();
        assert_eq!(got, want, "{src}");
    }
}

#[test]
fn explode_cap_is_reported() {
    assert_eq!(EXPLODE_CAP, 20);
    let d = parse("1d6!").unwrap().distribution().unwrap();
    assert_eq!(
        fraction(&d.capped()),
        format!("1/{}", num_bigint::BigInt::from(6).pow(21))
    );
    assert_eq!(
        fraction(&parse("2d6").unwrap().distribution().unwrap().capped()),
        "0"
    );
}

#[test]
fn seeded_rolls_repeat_and_serialize() {
    let expr = parse("3d6kh2cs>=6 + 1d6/2").unwrap();
    let run = |seed| {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        (0..20)
            .map(|_| expr.roll(&mut rng).unwrap())
            .collect::<Vec<_>>()
    };
    let a = run(99);
    assert_eq!(a, run(99));
    let json = serde_json::to_value(&a[0]).unwrap();
    assert_eq!(
        json["value"],
        serde_json::Value::String(fraction(&a[0].value))
    );
    assert!(
        json["detail"]
            .as_str()
            .unwrap()
            .starts_with("3d6kh2cs>=6 [")
    );
    // rand's generic `Rng` also works through a trait object
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let dyn_rng: &mut dyn rand::Rng = &mut rng;
    assert!(expr.roll(dyn_rng).is_ok());
}

#[test]
fn errors_are_usable() {
    let e = parse("4d6kx").unwrap_err();
    assert_eq!((e.offset, e.len), (3, 2));
    assert_eq!(e.to_string(), "unknown modifier `kx` at byte 3");
    assert!(e.hint.is_some());
    let boxed: Box<dyn std::error::Error> = Box::new(e);
    assert!(boxed.to_string().contains("`kx`"));

    let e: dice::DistError = parse("1d6/(1d3-1)").unwrap().distribution().unwrap_err();
    assert!(e.to_string().contains("division by zero"));
    let boxed: Box<dyn std::error::Error> = Box::new(e);
    assert!(!boxed.to_string().is_empty());

    for bad in [
        "",
        "d",
        "1d0",
        "99999999999999999999d6",
        "((",
        "1d6!!!",
        "1d1!",
        "4dF!",
        "4d6kh5",
        "1d6 x",
    ] {
        assert!(parse(bad).is_err(), "{bad:?}");
    }
}
