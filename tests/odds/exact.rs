//! The odds columns (exactly, at least, at most), the mean and the variance, contests, big pools and
//! percentile bonus/penalty dice, each compared with an independent computation written here: brute-force
//! enumeration of every roll of every die, or a closed form. None of it calls the engine's code paths;
//! the engine is only asked for its answer through the public API (`parse`, `distribution`, `contest`).

use crate::support::enumerate;

use std::collections::BTreeMap;

use blockprint::dice::{self, BigRational};
use num_bigint::BigInt;
use num_traits::{One, Zero};

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

fn int(n: i64) -> BigRational {
    q(n, 1)
}

fn d(sides: i64) -> Vec<i64> {
    (1..=sides).collect()
}

fn fudge() -> Vec<i64> {
    vec![-1, 0, 1]
}

fn sum(r: &[i64]) -> BigRational {
    int(r.iter().sum())
}

fn sorted_desc(r: &[i64]) -> Vec<i64> {
    let mut v = r.to_vec();
    v.sort_unstable_by(|a, b| b.cmp(a));
    v
}

/// (value, exactly, at least, at most) from an enumerated distribution, by plain summation.
fn columns(
    dist: &BTreeMap<BigRational, BigRational>,
) -> Vec<(BigRational, BigRational, BigRational, BigRational)> {
    dist.iter()
        .map(|(v, p)| {
            let at_least = dist.range(v.clone()..).map(|(_, p)| p).sum();
            let at_most = dist.range(..=v.clone()).map(|(_, p)| p).sum();
            (v.clone(), p.clone(), at_least, at_most)
        })
        .collect()
}

fn mean_var(dist: &BTreeMap<BigRational, BigRational>) -> (BigRational, BigRational) {
    let mean: BigRational = dist.iter().map(|(v, p)| v * p).sum();
    let var = dist
        .iter()
        .map(|(v, p)| {
            let dev = v - &mean;
            &dev * &dev * p
        })
        .sum();
    (mean, var)
}

fn engine(src: &str) -> dice::Dist {
    dice::parse(src)
        .unwrap_or_else(|e| panic!("{src}: {e}"))
        .distribution()
        .unwrap_or_else(|e| panic!("{src}: {e}"))
}

fn engine_columns(src: &str) -> Vec<(BigRational, BigRational, BigRational, BigRational)> {
    engine(src)
        .rows()
        .into_iter()
        .map(|r| (r.value, r.exactly, r.at_least, r.at_most))
        .collect()
}

/// The expressions of the brief, each with its brute-force definition.
#[allow(clippy::type_complexity)]
fn cases() -> Vec<(
    &'static str,
    Vec<Vec<i64>>,
    Box<dyn Fn(&[i64]) -> BigRational>,
)> {
    vec![
        ("3d6", vec![d(6); 3], Box::new(sum)),
        (
            "2d10kl1",
            vec![d(10); 2],
            Box::new(|r| int(*r.iter().min().unwrap())),
        ),
        (
            "4d6kh3",
            vec![d(6); 4],
            Box::new(|r| int(sorted_desc(r)[..3].iter().sum())),
        ),
        ("2dF", vec![fudge(); 2], Box::new(sum)),
        ("1d20+6", vec![d(20)], Box::new(|r| int(r[0] + 6))),
        (
            "5d6cs>=6",
            vec![d(6); 5],
            Box::new(|r| int(r.iter().filter(|&&x| x >= 6).count() as i64)),
        ),
        (
            "2d6\u{2212}1",
            vec![d(6); 2],
            Box::new(|r| int(r[0] + r[1] - 1)),
        ),
        ("2\u{d7}1d4", vec![d(4)], Box::new(|r| int(2 * r[0]))),
        (
            "2d6 \u{2013} 1d4",
            vec![d(6), d(6), d(4)],
            Box::new(|r| int(r[0] + r[1] - r[2])),
        ),
        ("1d6/2", vec![d(6)], Box::new(|r| q(r[0], 2))),
        ("d%", vec![d(100)], Box::new(sum)),
    ]
}

#[test]
fn columns_mean_and_variance_match_enumeration() {
    for (src, dice, f) in cases() {
        let brute = enumerate(&dice, f);
        assert_eq!(engine_columns(src), columns(&brute), "{src}");
        let (mean, var) = mean_var(&brute);
        let dist = engine(src);
        assert_eq!(dist.mean(), mean, "{src}");
        assert_eq!(dist.variance(), var, "{src}");
    }
    // spot values a reader can check by hand
    let d = engine("3d6");
    assert_eq!(d.variance(), q(35, 4));
    let rows = d.rows();
    assert_eq!(rows[0].at_least, int(1)); // at least 3 on 3d6: certain
    assert_eq!(rows[7].value, int(10));
    assert_eq!(
        (rows[7].at_least.clone(), rows[7].at_most.clone()),
        (q(5, 8), q(1, 2))
    );
    assert_eq!(
        engine("1d20+6").probability_where(|v| *v >= int(15)),
        q(3, 5)
    );
}

#[test]
fn contests_match_enumeration_of_both_sides() {
    // (attacker, defender, the dice of both, attacker's value, defender's value)
    #[allow(clippy::type_complexity)]
    let contests: Vec<(&str, &str, Vec<Vec<i64>>, Box<dyn Fn(&[i64]) -> (i64, i64)>)> = vec![
        (
            "2dF",
            "2dF",
            vec![fudge(); 4],
            Box::new(|r| (r[0] + r[1], r[2] + r[3])),
        ),
        (
            "1d20+6",
            "1d20+8",
            vec![d(20); 2],
            Box::new(|r| (r[0] + 6, r[1] + 8)),
        ),
        (
            "4d6kh3",
            "3d6",
            vec![d(6); 7],
            Box::new(|r| (sorted_desc(&r[..4])[..3].iter().sum(), r[4..].iter().sum())),
        ),
        (
            "2d6\u{2212}1",
            "2\u{d7}1d4",
            vec![d(6), d(6), d(4)],
            Box::new(|r| (r[0] + r[1] - 1, 2 * r[2])),
        ),
        (
            "2d10kl1",
            "5d6cs>=6",
            vec![d(10), d(10), d(6), d(6), d(6), d(6), d(6)],
            Box::new(|r| {
                (
                    r[0].min(r[1]),
                    r[2..].iter().filter(|&&x| x >= 6).count() as i64,
                )
            }),
        ),
    ];
    for (a, b, dice, f) in contests {
        let margin = enumerate(&dice, |r| {
            let (x, y) = f(r);
            int(x - y)
        });
        let (mut win, mut draw, mut loss) = (int(0), int(0), int(0));
        for (m, p) in &margin {
            if m > &int(0) {
                win += p;
            } else if m.is_zero() {
                draw += p;
            } else {
                loss += p;
            }
        }
        let c = dice::contest(&dice::parse(a).unwrap(), &dice::parse(b).unwrap()).unwrap();
        assert_eq!(
            (c.win.clone(), c.draw.clone(), c.loss.clone()),
            (win, draw, loss),
            "{a} vs {b}"
        );
        assert_eq!(
            c.margin.outcomes(),
            margin.into_iter().collect::<Vec<_>>(),
            "{a} vs {b}"
        );
    }
    // 2dF against 2dF by hand: the margin is 4dF, P(4dF = 0) = 19/81, the rest splits evenly.
    let c = dice::contest(&dice::parse("2dF").unwrap(), &dice::parse("2dF").unwrap()).unwrap();
    assert_eq!((c.win, c.draw, c.loss), (q(31, 81), q(19, 81), q(31, 81)));
}

/// C(n, k) as a big integer.
fn binom(n: u64, k: u64) -> BigInt {
    let mut x = BigInt::one();
    for i in 0..k {
        x = x * BigInt::from(n - i) / BigInt::from(i + 1);
    }
    x
}

fn pow(b: i64, e: u64) -> BigInt {
    BigInt::from(b).pow(e as u32)
}

#[test]
fn count_successes_over_fifty_d10_is_the_binomial() {
    let dist = engine("50d10cs>=8");
    let outcomes = dist.outcomes();
    assert_eq!(outcomes.len(), 51);
    for (k, (v, p)) in outcomes.iter().enumerate() {
        let k = k as u64;
        assert_eq!(v, &int(k as i64));
        // C(50,k) (3/10)^k (7/10)^(50-k)
        let want = BigRational::new(binom(50, k) * pow(3, k) * pow(7, 50 - k), pow(10, 50));
        assert_eq!(p, &want, "k = {k}");
    }
    assert_eq!(dist.mean(), int(15));
    assert_eq!(dist.variance(), q(21, 2)); // n p (1 - p) = 50 * 0.3 * 0.7
}

#[test]
fn hundred_d6_matches_the_inclusion_exclusion_formula() {
    let dist = engine("100d6");
    let n = 100u64;
    // P(sum = s) = 6^-n * sum_k (-1)^k C(n,k) C(s - 6k - 1, n - 1)
    let exact = |s: u64| -> BigRational {
        let mut total = BigInt::zero();
        let mut k = 0;
        while s >= 6 * k + n {
            let term = binom(n, k) * binom(s - 6 * k - 1, n - 1);
            if k % 2 == 0 {
                total += term;
            } else {
                total -= term;
            }
            k += 1;
        }
        BigRational::new(total, pow(6, n))
    };
    for s in [100, 101, 150, 299, 349, 350, 351, 420, 599, 600] {
        assert_eq!(dist.probability(&int(s as i64)), exact(s), "s = {s}");
    }
    assert_eq!(dist.len(), 501);
    assert_eq!(dist.mean(), int(350));
    assert_eq!(dist.variance(), q(875, 3)); // 100 * 35/12
    let rows = dist.rows();
    assert_eq!(rows.last().unwrap().at_most, int(1));
    assert_eq!(rows[0].at_least, int(1));
    assert_eq!(rows[250].at_least, &int(1) - &rows[249].at_most);
}

/// Keep the highest `k` of `n` dice with `s` sides, by order statistics: for every possible multiset of
/// kept faces, count the rolls whose `k` largest are exactly those faces (the other dice all at most the
/// smallest kept face, with enough of them equal to it). Independent of the engine's dynamic programme.
fn keep_highest_by_order_statistics(n: u64, s: i64, k: usize) -> BTreeMap<i64, BigRational> {
    let mut out: BTreeMap<i64, BigInt> = BTreeMap::new();
    // every non-increasing k-tuple of faces
    let mut tuples: Vec<Vec<i64>> = vec![vec![]];
    for _ in 0..k {
        let mut next = Vec::new();
        for t in &tuples {
            let top = t.last().copied().unwrap_or(s);
            for f in 1..=top {
                let mut u = t.clone();
                u.push(f);
                next.push(u);
            }
        }
        tuples = next;
    }
    let fact = |m: u64| -> BigInt { (1..=m).fold(BigInt::one(), |a, x| a * BigInt::from(x)) };
    for t in tuples {
        let c = *t.last().unwrap();
        // the kept faces above c, with their multiplicities
        let above: Vec<i64> = t.iter().copied().filter(|&x| x > c).collect();
        let x = above.len() as u64;
        let mut mult: BTreeMap<i64, u64> = BTreeMap::new();
        for f in &above {
            *mult.entry(*f).or_default() += 1;
        }
        // arrangements of the faces above c among n positions
        let mut ways = fact(n) / fact(n - x);
        for m in mult.values() {
            ways /= fact(*m);
        }
        // the other n - x dice: all at most c, at least (k - x) of them equal to c
        let rest = n - x;
        let need = k as u64 - x;
        let mut fill = pow(c, rest);
        for j in 0..need {
            fill -= binom(rest, j) * pow(c - 1, rest - j);
        }
        *out.entry(t.iter().sum()).or_default() += ways * fill;
    }
    out.into_iter()
        .map(|(v, w)| (v, BigRational::new(w, pow(s, n))))
        .collect()
}

#[test]
fn keep_highest_on_big_pools_matches_order_statistics() {
    // first the order-statistics counter itself against brute force at a small size
    let brute = enumerate(&vec![d(6); 6], |r| int(sorted_desc(r)[..2].iter().sum()));
    let os = keep_highest_by_order_statistics(6, 6, 2);
    assert_eq!(
        os.iter()
            .map(|(v, p)| (int(*v), p.clone()))
            .collect::<Vec<_>>(),
        brute.clone().into_iter().collect::<Vec<_>>()
    );
    // the engine's programme equals brute force at small n
    assert_eq!(
        engine("6d6kh2").outcomes(),
        brute.into_iter().collect::<Vec<_>>()
    );
    let brute = enumerate(&vec![d(5); 7], |r| int(sorted_desc(r)[..3].iter().sum()));
    assert_eq!(
        engine("7d5kh3").outcomes(),
        brute.into_iter().collect::<Vec<_>>()
    );
    // and the big pools of the brief against the order statistics
    for (src, n, s, k) in [("20d20kh3", 20, 20, 3), ("100d6kh10", 100, 6, 10)] {
        let want: Vec<_> = keep_highest_by_order_statistics(n, s, k)
            .into_iter()
            .map(|(v, p)| (int(v), p))
            .collect();
        assert_eq!(engine(src).outcomes(), want, "{src}");
    }
    // and by closed forms: all ten kept dice are 6 exactly when at least ten of the hundred dice show 6
    let d = engine("100d6kh10");
    let below_ten: BigInt = (0..10u64).map(|j| binom(100, j) * pow(5, 100 - j)).sum();
    assert_eq!(
        d.probability(&int(60)),
        BigRational::new(pow(6, 100) - below_ten, pow(6, 100))
    );
    assert_eq!(
        d.probability(&int(10)),
        BigRational::new(BigInt::one(), pow(6, 100))
    );
    // 20d20kl3 mirrors 20d20kh3: value v of one is 63 - v of the other
    let hi = engine("20d20kh3").outcomes();
    let lo = engine("20d20kl3").outcomes();
    let mirrored: Vec<_> = hi
        .iter()
        .rev()
        .map(|(v, p)| (int(63) - v, p.clone()))
        .collect();
    assert_eq!(lo, mirrored);
}

#[test]
fn table_dice_use_a_sliver_of_the_budget() {
    // content/README.md quotes this figure for `3d6`
    let (_, work) = dice::parse("3d6")
        .unwrap()
        .distribution_with_work()
        .unwrap();
    eprintln!("3d6: {work} work units");
    assert!((20_000..40_000).contains(&work), "3d6: {work} work units");
}

#[test]
fn big_pools_are_quick() {
    for src in ["100d6", "20d20kh3", "50d10cs>=8", "100d6kh10"] {
        let started = std::time::Instant::now();
        let (_, work) = dice::parse(src).unwrap().distribution_with_work().unwrap();
        // a generous guard against hangs only; the timings are in scripts/bench-odds.sh
        assert!(started.elapsed().as_secs() < 20, "{src}");
        assert!(work < dice::WORK_LIMIT / 4, "{src}: {work} work units");
    }
}

/// Every combination of one units die and `1 + extra` tens dice, read the Call of Cthulhu way.
fn percentile_brute(extra: usize, penalty: bool) -> BTreeMap<BigRational, BigRational> {
    let digits: Vec<i64> = (0..10).collect();
    let dice = vec![digits; 2 + extra];
    enumerate(&dice, |r| {
        let units = r[0];
        let reads = r[1..].iter().map(|&t| {
            if t == 0 && units == 0 {
                100
            } else {
                10 * t + units
            }
        });
        int(if penalty {
            reads.max().unwrap()
        } else {
            reads.min().unwrap()
        })
    })
}

#[test]
fn percentile_bonus_and_penalty_dice_match_enumeration() {
    for (src, extra, penalty) in [
        ("d%b1", 1, false),
        ("1d100b2", 2, false),
        ("d%p1", 1, true),
        ("1D100P2", 2, true),
    ] {
        let brute = percentile_brute(extra, penalty);
        assert_eq!(engine_columns(src), columns(&brute), "{src}");
        let (mean, var) = mean_var(&brute);
        assert_eq!(
            (engine(src).mean(), engine(src).variance()),
            (mean, var),
            "{src}"
        );
        // P(result <= 59): the chance of passing a skill of 59
        let le59: BigRational = brute.range(..=int(59)).map(|(_, p)| p).sum();
        assert_eq!(
            engine(src).probability_where(|v| *v <= int(59)),
            le59,
            "{src}"
        );
    }
    // without bonus or penalty dice the same reading is a plain d100
    assert_eq!(columns(&percentile_brute(0, false)), engine_columns("d%"));
    // a skill of 59 with one bonus die passes 831 times in 1000
    assert_eq!(
        engine("d%b1").probability_where(|v| *v <= int(59)),
        q(831, 1000)
    );
    // a success check on the percentile roll itself counts 1 or 0
    let brute = percentile_brute(1, false);
    let pass: BigRational = brute.range(..=int(40)).map(|(_, p)| p).sum();
    assert_eq!(engine("d%b1cs<=40").probability(&int(1)), pass);
}

#[test]
fn success_targets_that_cannot_fail_or_succeed_are_flagged() {
    let warn = |src: &str| -> Vec<String> {
        dice::parse(src)
            .unwrap()
            .success_warnings()
            .into_iter()
            .map(|w| format!("{}..{} {}", w.span.start, w.span.end, w.message))
            .collect()
    };
    assert_eq!(
        warn("3d6cs>7"),
        [
            "0..7 `3d6cs>7` can never count a success: no face of a d6 (1 to 6) is > 7, so it always counts 0"
        ]
    );
    assert_eq!(
        warn("1+3d6cs>=1"),
        [
            "2..10 `3d6cs>=1` always counts every die: each face of a d6 (1 to 6) is >= 1, so it always counts 3"
        ]
    );
    assert_eq!(warn("4dFcs<-1").len(), 1);
    assert_eq!(warn("4dFcs<=1").len(), 1);
    assert_eq!(
        warn("4d6kh2cs<=6")[0].split(" always counts ").last(),
        Some("2")
    );
    // possible but uncertain targets are fine, including exploding dice above the face count
    for ok in [
        "3d6cs>=6",
        "3d6cs>5",
        "3d6!!cs>7",
        "3d6!!cs=13",
        "4dFcs>=0",
        "d%b1cs<=50",
        "3d6",
    ] {
        assert!(warn(ok).is_empty(), "{ok}");
    }
    // a compounding d6 never totals 12 (a 6 always rolls on), but it can total 126 (the cap)
    assert_eq!(warn("3d6!!cs=12").len(), 1);
    assert!(warn("3d6!!cs=126").is_empty());
    // with `!` every roll is a die of its own, 1 to 6: none is above 7; and counting every roll is
    // not a fixed count, so `cs>=1` is no typo there
    assert_eq!(warn("3d6!cs>7").len(), 1);
    assert!(warn("3d6!cs>=1").is_empty());
    assert_eq!(warn("3d6!!cs>=1").len(), 1);
    // the spans are byte offsets: after a typeset minus sign (3 bytes) the term starts at byte 4
    assert_eq!(warn("1\u{2212}3d6cs>7")[0].split(' ').next(), Some("4..11"));
}
