//! Exact rationals in; display strings (`"-1/2"`) and rounded decimals (`0.16667`) out.

use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive};

/// Reduced fraction text: `"7"`, `"-1/2"`, `"3125/7776"`; the denominator is left out when it is 1.
///
/// Reduces first, which costs a gcd (quadratic in the digits); for values known to be in lowest terms
/// (everything [`Dist`](super::Dist) returns, and every result of num-rational's arithmetic) use
/// [`fraction_reduced`], which only prints.
pub fn fraction(q: &BigRational) -> String {
    fraction_reduced(&q.reduced())
}

/// Fraction text of a value already in lowest terms with a positive denominator, as every
/// `BigRational` made by `BigRational::new`, arithmetic, or a [`Dist`](super::Dist) is.
pub fn fraction_reduced(q: &BigRational) -> String {
    if q.denom().is_one() {
        q.numer().to_string()
    } else {
        format!("{}/{}", q.numer(), q.denom())
    }
}

/// The value rounded to 5 decimal places (halves away from zero), as the nearest `f64`.
///
/// The rounding is done exactly on the rational first, so huge numerators and denominators
/// (such as `6^30`) never overflow; only the final, already rounded number is converted.
pub fn approx(q: &BigRational) -> f64 {
    // round(n * 10^5 / d), halves away from zero, in integers: floor((2 |n| 10^5 + d) / 2d) with n's sign.
    let (n, d) = (q.numer(), q.denom());
    let (n, d) = if d.is_negative() {
        (-n, -d)
    } else {
        (n.clone(), d.clone())
    };
    let twice = &d * 2u32;
    let magnitude = (n.abs() * 200_000u32 + &d) / &twice;
    let scaled = if n.is_negative() {
        -magnitude
    } else {
        magnitude
    };
    // Below 2^53 the integer is exact in f64, and one division gives the nearest double to the decimal.
    match scaled.to_i64() {
        Some(v) if v.unsigned_abs() < (1u64 << 53) => v as f64 / 100_000.0,
        _ => match scaled.to_f64() {
            Some(f) => f / 100_000.0,
            None if scaled.is_negative() => f64::NEG_INFINITY,
            None => f64::INFINITY,
        },
    }
}

/// The square root of a non-negative value rounded to 5 decimal places (halves up), as the nearest `f64`;
/// 0 for a negative value. Worked out exactly: `isqrt(q * 10^10)` decides the digits, then one check
/// of the half-way point.
pub fn sqrt_approx(q: &BigRational) -> f64 {
    use num_bigint::BigInt;
    if !q.is_positive() {
        return 0.0;
    }
    // s = floor(sqrt(q) * 10^5); round up when sqrt(q) * 10^5 >= s + 1/2, i.e. q * 4 * 10^10 >= (2s + 1)^2.
    let scale = BigInt::from(10u64.pow(10));
    let (n, d) = (q.numer(), q.denom());
    let s = (n * &scale / d).sqrt();
    let twice = &s * 2u32 + 1u32;
    let up = n * scale * 4u32 >= &twice * &twice * d;
    let r = if up { s + 1u32 } else { s };
    match r.to_i64() {
        Some(v) if v < (1i64 << 53) => v as f64 / 100_000.0,
        _ => r.to_f64().map_or(f64::INFINITY, |f| f / 100_000.0),
    }
}

/// A chance as the odds outputs print it: the fraction in lowest terms and its decimal (5 places).
#[derive(Debug, Clone, PartialEq)]
pub struct Chance {
    pub fraction: String,
    pub approx: f64,
}

impl Chance {
    /// The chance of a value already in lowest terms (as every [`Dist`](super::Dist) row holds).
    pub fn of(q: &BigRational) -> Self {
        Chance {
            fraction: fraction_reduced(q),
            approx: approx(q),
        }
    }
}

/// One row of a distribution as the odds outputs print it (`blockprint odds` and the studio's Odds
/// page): its value, and its chance of exactly, at least and at most that value.
#[derive(Debug, Clone, PartialEq)]
pub struct RowText {
    pub value: String,
    pub exactly: Chance,
    pub at_least: Chance,
    pub at_most: Chance,
}

/// The printed strings and decimals of one row. Every number of a row is in lowest terms already, so
/// printing needs no gcd.
pub fn row_text(r: &super::Row) -> RowText {
    RowText {
        value: fraction_reduced(&r.value),
        exactly: Chance::of(&r.exactly),
        at_least: Chance::of(&r.at_least),
        at_most: Chance::of(&r.at_most),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    #[test]
    fn a_row_prints_its_value_and_three_chances_in_lowest_terms_with_decimals() {
        let d = crate::parse("3d6").unwrap().distribution().unwrap();
        let rows: Vec<RowText> = d.rows().iter().map(row_text).collect();
        let chance = |f: &str, a: f64| Chance {
            fraction: f.into(),
            approx: a,
        };
        assert_eq!(rows.len(), 16);
        assert_eq!(
            rows[0],
            RowText {
                value: "3".into(),
                exactly: chance("1/216", 0.00463),
                at_least: chance("1", 1.0),
                at_most: chance("1/216", 0.00463),
            }
        );
        assert_eq!(
            rows[7],
            RowText {
                value: "10".into(),
                exactly: chance("1/8", 0.125),
                at_least: chance("5/8", 0.625),
                at_most: chance("1/2", 0.5),
            }
        );
        let half = crate::parse("1d2/2").unwrap().distribution().unwrap();
        assert_eq!(
            half.rows().iter().map(row_text).collect::<Vec<_>>(),
            [
                RowText {
                    value: "1/2".into(),
                    exactly: chance("1/2", 0.5),
                    at_least: chance("1", 1.0),
                    at_most: chance("1/2", 0.5),
                },
                RowText {
                    value: "1".into(),
                    exactly: chance("1/2", 0.5),
                    at_least: chance("1/2", 0.5),
                    at_most: chance("1", 1.0),
                },
            ]
        );
    }

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    #[test]
    fn fractions() {
        assert_eq!(fraction(&q(7, 1)), "7");
        assert_eq!(fraction(&q(14, 2)), "7");
        assert_eq!(fraction(&q(-1, 2)), "-1/2");
        assert_eq!(fraction(&q(1, -2)), "-1/2");
        assert_eq!(fraction(&q(1, 6)), "1/6");
        assert_eq!(fraction(&q(0, 5)), "0");
        assert_eq!(fraction(&q(3125, 7776)), "3125/7776");
        assert_eq!(fraction(&q(27, 216)), "1/8");
        // unreduced raw ratios are reduced for display
        assert_eq!(
            fraction(&BigRational::new_raw(BigInt::from(4), BigInt::from(8))),
            "1/2"
        );
        let big = BigRational::new(BigInt::from(1), BigInt::from(6).pow(30));
        assert_eq!(fraction(&big), "1/221073919720733357899776");
    }

    #[test]
    fn decimals() {
        assert_eq!(approx(&q(1, 6)), 0.16667);
        assert_eq!(approx(&q(3125, 7776)), 0.40188);
        assert_eq!(approx(&q(-1, 2)), -0.5);
        assert_eq!(approx(&q(7, 1)), 7.0);
        assert_eq!(approx(&q(1, 200_000)), 0.00001); // half rounds away from zero
        assert_eq!(approx(&q(-1, 200_000)), -0.00001);
        assert_eq!(approx(&q(1, 300_000)), 0.0);
        assert_eq!(approx(&q(2, 3)), 0.66667);
        let tiny = BigRational::new(BigInt::from(1), BigInt::from(6).pow(30));
        assert_eq!(approx(&tiny), 0.0);
        // huge numerator and denominator, value near 1/2
        let huge = BigRational::new(BigInt::from(6).pow(40) / 2 + 1, BigInt::from(6).pow(40));
        assert_eq!(approx(&huge), 0.5);
        let enormous = BigRational::from_integer(BigInt::from(10).pow(400));
        assert_eq!(approx(&enormous), f64::INFINITY);
        assert_eq!(approx(&-enormous), f64::NEG_INFINITY);
        assert_eq!(approx(&q(123_456_789_012, 1)), 123_456_789_012.0);
    }

    #[test]
    fn square_roots() {
        assert_eq!(sqrt_approx(&q(35, 4)), 2.95804); // 3d6: sqrt(8.75) = 2.958039…
        assert_eq!(sqrt_approx(&q(4, 1)), 2.0);
        assert_eq!(sqrt_approx(&q(0, 1)), 0.0);
        assert_eq!(sqrt_approx(&q(-1, 1)), 0.0);
        assert_eq!(sqrt_approx(&q(7, 1)), 2.64575); // 2.6457513…
        assert_eq!(sqrt_approx(&q(1, 3)), 0.57735); // 0.577350…
        assert_eq!(sqrt_approx(&q(4, 3)), 1.1547); // 1.1547005…
        assert_eq!(sqrt_approx(&q(33, 4)), 2.87228); // 2.872281…
    }
}
