//! The dice crate's own integration tests: the public API end to end (notation in, exact probabilities,
//! rolls and text out) and property tests over random expressions ([`props`]). They build and run
//! without typst: `cargo test --release -p blockprint-dice`. The `odds` command's tests (bounds, the
//! checker's zero divisors) stay with the command line in `tests/`.

mod props;

use blockprint_dice::{self as dice, BigRational, EXPLODE_CAP, approx, fraction, parse};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use std::collections::BTreeMap;

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

/// Every combination of `n` explosion chains of a `sides`-sided die, at most `depth` extra rolls per
/// die (a last extra roll on the maximum counts its face and stops, the truncation rule the crate
/// documents for [`EXPLODE_CAP`]), read by `read` (the chains, each the faces in rolling order). The
/// result: each value with its number of equally likely ways out of `sides^((depth+1)·n)`.
fn chains_enumerated(
    n: usize,
    sides: i64,
    depth: u32,
    read: &dyn Fn(&[&[i64]]) -> i64,
) -> (BTreeMap<i64, num_bigint::BigUint>, num_bigint::BigUint) {
    use num_bigint::BigUint;
    let mut one: Vec<(Vec<i64>, BigUint)> = Vec::new();
    for m in 0..=depth {
        for r in 1..sides {
            let mut faces = vec![sides; m as usize];
            faces.push(r);
            one.push((faces, BigUint::from(sides as u64).pow(depth - m)));
        }
    }
    one.push((vec![sides; depth as usize + 1], BigUint::from(1u32)));
    let mut ways: BTreeMap<i64, BigUint> = BTreeMap::new();
    let mut idx = vec![0usize; n];
    'all: loop {
        let picked: Vec<&[i64]> = idx.iter().map(|&i| one[i].0.as_slice()).collect();
        let w = idx
            .iter()
            .fold(BigUint::from(1u32), |acc, &i| acc * &one[i].1);
        *ways.entry(read(&picked)).or_default() += w;
        for d in idx.iter_mut() {
            *d += 1;
            if *d < one.len() {
                continue 'all;
            }
            *d = 0;
        }
        break;
    }
    let total = BigUint::from(sides as u64).pow((depth + 1) * n as u32);
    (ways, total)
}

/// The engine's distribution of `src` against an enumeration, value by value, exactly.
fn same_as_enumeration(
    src: &str,
    (ways, total): (BTreeMap<i64, num_bigint::BigUint>, num_bigint::BigUint),
) {
    let got: Vec<(String, String)> = parse(src)
        .unwrap()
        .distribution()
        .unwrap()
        .outcomes()
        .iter()
        .map(|(v, p)| (fraction(v), fraction(p)))
        .collect();
    let want: Vec<(String, String)> = ways
        .into_iter()
        .filter(|(_, w)| *w > num_bigint::BigUint::from(0u32))
        .map(|(v, w)| {
            let p = BigRational::new(w.into(), total.clone().into());
            (v.to_string(), fraction(&p))
        })
        .collect();
    assert_eq!(got, want, "{src}");
}

fn mean(src: &str) -> String {
    let d = parse(src).unwrap().distribution().unwrap();
    format!("{:.2}", approx(&d.mean()))
}

/// `!` and `!!` as the virtual tabletops document them:
///
/// * Roll20, Dice Reference, "Exploding Dice" (<https://wiki.roll20.net/Dice_Reference#Exploding_Dice>):
///   a die on its highest face is rolled again and the new roll is an additional die of the roll,
///   itself exploding; "Compounding Dice" (`!!`, same page, #Compounding_Dice): the extra rolls are
///   added into the one die that exploded, shown as a single result. Keep/drop and success counts act
///   on the dice as they then stand.
/// * Foundry VTT, "Dice Modifiers" (<https://foundryvtt.com/article/dice-modifiers/>): `x` explodes,
///   adding each extra roll to the pool as a result of its own; `xo` explodes once; there is no
///   compounding modifier.
/// * rpg-dice-roller, "Modifiers" (<https://dice-roller.github.io/documentation/guide/notation/modifiers.html>):
///   `!` exploding (each extra roll a separate die), `!!` compounding (added into the die that exploded).
///
/// The values are enumerated here from the chains themselves, independently of the engine.
#[test]
fn explode_and_compound_read_as_the_tabletops_do() {
    let pool = |chains: &[&[i64]]| -> Vec<i64> {
        let mut p: Vec<i64> = chains.iter().flat_map(|c| c.iter().copied()).collect();
        p.sort_unstable_by(|a, b| b.cmp(a));
        p
    };
    let cap = EXPLODE_CAP;
    // 3d6!kh2: the two highest rolls of the whole pool. Full cap, every chain: 106^3 combinations.
    let kh2 = |c: &[&[i64]]| pool(c)[..2].iter().sum::<i64>();
    same_as_enumeration("3d6!kh2", chains_enumerated(3, 6, cap, &kh2));
    assert_eq!(mean("3d6!kh2"), "8.70");
    assert_eq!(
        fraction(&parse("3d6!kh2").unwrap().distribution().unwrap().mean()),
        "1253/144"
    );
    // 3d6!!kh2: each die's chain is one value, then the two highest dice.
    let compound_kh2 = |c: &[&[i64]]| {
        let mut t: Vec<i64> = c.iter().map(|x| x.iter().sum()).collect();
        t.sort_unstable_by(|a, b| b.cmp(a));
        t[0] + t[1]
    };
    same_as_enumeration("3d6!!kh2", chains_enumerated(3, 6, cap, &compound_kh2));
    assert_eq!(mean("3d6!!kh2"), "10.55");
    // 3d6!cs>=6: every six of every chain is a success (0.60 on average), not one per die.
    let sixes = |c: &[&[i64]]| pool(c).iter().filter(|&&f| f >= 6).count() as i64;
    same_as_enumeration("3d6!cs>=6", chains_enumerated(3, 6, cap, &sixes));
    assert_eq!(mean("3d6!cs>=6"), "0.60");
    let compound_sixes =
        |c: &[&[i64]]| c.iter().filter(|x| x.iter().sum::<i64>() >= 6).count() as i64;
    same_as_enumeration("3d6!!cs>=6", chains_enumerated(3, 6, cap, &compound_sixes));
    // 5d10!k2: 19^5 chains with one extra roll. Exact for keep-two-highest: a die with two or more
    // maxima puts two 10s on top whatever follows, and the one-extra-roll chain that stops on its
    // second 10 carries exactly the probability of "at least two maxima" (1/100), as under the cap.
    let kh2_10 = |c: &[&[i64]]| pool(c)[..2].iter().sum::<i64>();
    same_as_enumeration("5d10!k2", chains_enumerated(5, 10, 1, &kh2_10));
    // (The issue quoted 16.10 and 8.69 for these two; enumeration gives 16.12 and 1253/144 = 8.70.)
    assert_eq!(mean("5d10!k2"), "16.12");
    // Without keep/drop or `cs` the two read the same total.
    assert_eq!(
        parse("4d6!").unwrap().distribution().unwrap(),
        parse("4d6!!").unwrap().distribution().unwrap()
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
