//! Dice notation in: parse, work out the exact distribution (within the work bound), look for a
//! divisor that can be 0, roll with a fixed seed. Must never panic; a distribution sums to exactly 1,
//! rolls land on its values, and an expression without a possible zero divisor always rolls.
#![no_main]

use blockprint::dice::{self, BigRational, DistErrorKind, WORK_LIMIT};
use libfuzzer_sys::fuzz_target;
use num_traits::{One, Zero};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(expr) = dice::parse(src) else {
        return;
    };
    let zero = expr.zero_divisor();
    let mut rng = ChaCha20Rng::seed_from_u64(42);
    match expr.distribution_with_work() {
        Ok((d, units)) => {
            assert!(units <= WORK_LIMIT);
            assert!(zero.is_none(), "{src}: distribution exists but {zero:?}");
            let outcomes = d.outcomes();
            assert!(!outcomes.is_empty());
            // Summing rationals costs a gcd each; the sum is checked on all but the widest.
            if outcomes.len() <= 3000 {
                let total: BigRational = outcomes.iter().map(|(_, p)| p.clone()).sum();
                assert_eq!(total, BigRational::one(), "{src}");
            }
            for (_, p) in &outcomes {
                assert!(*p > BigRational::zero(), "{src}");
            }
            let _ = dice::fraction_reduced(&d.mean());
            let _ = dice::approx(&d.capped());
            for _ in 0..3 {
                let r = expr.roll(&mut rng).unwrap_or_else(|e| panic!("{src}: {e}"));
                assert!(d.probability(&r.value) > BigRational::zero(), "{src}: {}", r.detail);
            }
        }
        Err(e) => {
            assert!(e.span.is_some_and(|s| s.start <= s.end && s.end <= src.len()), "{src}: {e:?}");
            if e.kind == DistErrorKind::DivisionByZero {
                assert!(zero.is_some(), "{src}: {e:?}");
            }
            match expr.roll(&mut rng) {
                Ok(_) => {}
                Err(e) => assert!(zero.is_some(), "{src}: rolled {e} but no divisor can be 0"),
            }
        }
    }
});
