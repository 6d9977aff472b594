//! A parsed dice syntax tree in; its exact probability distribution ([`Dist`]) or a [`DistError`] out.
//!
//! Everything is exact: every distribution is a list of values with integer weights over one common
//! integer total, and values are `BigRational`s. Nothing is sampled.
//!
//! * One die: its faces with weights. An exploding die `dS!` is unrolled up to [`EXPLODE_CAP`] extra
//!   rolls, so a die that keeps showing its maximum has `EXPLODE_CAP + 1` links at most; the last link
//!   counts its face value even when it is the maximum. The weights are over `S^(EXPLODE_CAP+1)`.
//! * Sums of N dice: repeated convolution of the per-die distribution (a sliding-window sum when every
//!   face has weight 1, which makes plain `NdS` linear per die).
//! * Keep/drop: a dynamic programme over the distinct face values taken from the preferred end
//!   (highest first for keep-highest). The state is (dice placed so far, value of the kept dice so far);
//!   placing `c` dice on the next face multiplies by `C(remaining, c) * weight^c`. Once enough dice are
//!   kept, the rest all fall on less preferred faces, which is one power of their summed weight, so the
//!   state never has to track more than `k` dice. Counting successes uses the same programme with each
//!   kept die contributing 1 or 0 instead of its value.
//! * Binary operators: every pair of outcomes of two independent distributions, weights multiplied.
//!
//! # The work bound
//! Every step estimates its cost *before* doing it, in work units (one unit is roughly one nanosecond
//! of arithmetic on one 64-bit word), and charges it to one budget of [`WORK_LIMIT`] units per
//! expression; a step that would overrun it is refused with a [`DistError`] naming the
//! sub-expression. The estimate counts what the step really does: every pair of values a `*` or `/`
//! combines (with the cost of the big-integer products and of rational arithmetic), every cell of a
//! convolution, every state of the keep/drop programme, and, at the end, the work of presenting the
//! result (putting every probability in lowest terms, printing it, the exact mean). Alongside it, a
//! distribution may hold at most [`MAX_SUPPORT`] distinct values and an estimated [`MEMORY_LIMIT`]
//! bytes. Reducing probabilities never calls a general gcd: the common total is a product of die
//! sizes whose prime factors are tracked, so lowest terms cost a few small divisions per value.

use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::EXPLODE_CAP;
use super::parse::{BinOp, DiceTerm, Keep, KeepKind, Node, NodeKind, Sides, Span};

/// Most distinct values a distribution (or one intermediate step) may have.
pub const MAX_SUPPORT: usize = 200_000;
/// Work budget for one expression, in work units (about a nanosecond each on a current machine);
/// with the estimates' safety margins an expression at the limit takes well under a second.
/// Fuzz builds (`cfg(fuzzing)`, set by cargo-fuzz) get a hundredth of it, so that a million inputs
/// fit in minutes under coverage instrumentation (the built-in content needs at most about 450 000
/// units, for `1d12!`); the budget is enforced by the same code either way.
#[allow(unexpected_cfgs)]
pub const WORK_LIMIT: u64 = if cfg!(fuzzing) {
    4_000_000
} else {
    400_000_000
};
/// Estimated memory one distribution (and the printing of it) may take, in bytes.
pub const MEMORY_LIMIT: u64 = 256 << 20;
/// Most intermediate states the keep/drop programme may hold at once.
const MAX_STATES: usize = 1_000_000;

/// Cost of allocating and freeing one big integer, in work units.
const ALLOC: u64 = 40;
/// Cost of one hash-map update (hashing, probing, and on insertion growing the map).
const HASH: u64 = 60;
/// Base cost of one operation on two small rationals (two gcds, allocation).
const RATIONAL: u64 = 500;
/// Bytes one value with its weight takes in a distribution, besides the weight's digits.
const ENTRY_BYTES: u64 = 200;

/// What went wrong computing a distribution or a roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DistErrorKind {
    /// A divisor can be (or, when rolling, was) 0.
    DivisionByZero,
    /// Working the distribution out exactly would take more than [`WORK_LIMIT`] or [`MEMORY_LIMIT`],
    /// or give more than [`MAX_SUPPORT`] values.
    TooBig,
}

/// Why a distribution (or a roll) could not be produced.
#[derive(Debug, Clone, PartialEq)]
pub struct DistError {
    pub kind: DistErrorKind,
    /// What went wrong, naming the sub-expression.
    pub message: String,
    /// The sub-expression at fault (byte offsets into the parsed text), when known.
    pub span: Option<Span>,
    /// What to do about it.
    pub hint: Option<String>,
}

impl fmt::Display for DistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DistError {}

/// A sub-expression being worked on: its text and where it is.
#[derive(Clone, Copy)]
struct At<'a> {
    text: &'a str,
    span: Span,
}

const TOO_BIG_HINT: &str = "use fewer dice or dice with fewer sides, or split the expression into parts \
     and work each out on its own (a `*` or `/` between two wide rolls pairs every value of one with every value of the other)";

fn too_big(at: &At, message: String) -> DistError {
    DistError {
        kind: DistErrorKind::TooBig,
        message,
        span: Some(at.span),
        hint: Some(TOO_BIG_HINT.to_owned()),
    }
}

/// "about 1.2 billion", "about 35 million", for messages.
fn about(n: u64) -> String {
    if n >= 1_000_000_000 {
        format!("about {:.1} billion", n as f64 / 1e9)
    } else if n >= 1_000_000 {
        format!("about {} million", n / 1_000_000)
    } else {
        format!("about {n}")
    }
}

fn too_wide(at: &At) -> DistError {
    too_big(
        at,
        format!(
            "`{}` has more than {MAX_SUPPORT} distinct values, more than an exact distribution may list",
            at.text
        ),
    )
}

/// Prime factorisation, ascending by prime: `(prime, exponent)`.
type Factors = Vec<(u32, u64)>;
/// A die's faces: each value with its weight.
type Faces = Vec<(i64, BigUint)>;

/// Factorise a die size (at most a few thousand; trial division is instant).
fn factorize(mut n: u32) -> Factors {
    let mut out = Vec::new();
    let mut p = 2;
    while p * p <= n {
        let mut e = 0;
        while n.is_multiple_of(p) {
            n /= p;
            e += 1;
        }
        if e > 0 {
            out.push((p, e));
        }
        p += 1;
    }
    if n > 1 {
        out.push((n, 1));
    }
    out
}

fn merge(a: &Factors, b: &Factors) -> Factors {
    let mut out: Factors = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let take_a = j >= b.len() || (i < a.len() && a[i].0 < b[j].0);
        let take_b = i >= a.len() || (j < b.len() && b[j].0 < a[i].0);
        if take_a {
            out.push(a[i]);
            i += 1;
        } else if take_b {
            out.push(b[j]);
            j += 1;
        } else {
            out.push((a[i].0, a[i].1 + b[j].1));
            i += 1;
            j += 1;
        }
    }
    out
}

fn times(f: &Factors, k: u64) -> Factors {
    f.iter().map(|&(p, e)| (p, e.saturating_mul(k))).collect()
}

/// Largest power of `p` that fits a `u64`, and its exponent.
fn chunk_power(p: u32) -> (u64, u64) {
    let (mut c, mut j) = (u64::from(p), 1);
    while let Some(x) = c.checked_mul(u64::from(p)) {
        c = x;
        j += 1;
    }
    (c, j)
}

/// `num / den` in lowest terms, when every prime factor of `den` is listed in `factors` with its
/// exponent. No gcd: only small divisions, about `(factors + divisions) * limbs` word operations.
fn lowest_terms(num: &BigUint, den: &BigUint, factors: &[(u32, u64)]) -> (BigUint, BigUint) {
    if num.is_zero() {
        return (BigUint::zero(), BigUint::one());
    }
    let mut n = num.clone();
    let mut g = BigUint::one();
    for &(p, e) in factors {
        if p == 2 {
            let tz = n.trailing_zeros().unwrap_or(0).min(e);
            n >>= tz;
            g <<= tz;
            continue;
        }
        let mut left = e;
        let (chunk, j) = chunk_power(p);
        while left >= j && (&n % chunk).is_zero() {
            n /= chunk;
            g *= chunk;
            left -= j;
        }
        while left > 0 && (&n % p).is_zero() {
            n /= p;
            g *= p;
            left -= 1;
        }
    }
    let d = if g.is_one() { den.clone() } else { den / &g };
    (n, d)
}

/// Estimated cost of [`lowest_terms`] for a denominator of `l` limbs with `np` prime factors.
fn reduce_cost(l: u64, np: u64) -> u64 {
    4 * ALLOC + (np * 3 + 8) * (l + 2) * 2
}

/// Estimated cost of printing a number of `l` limbs in decimal.
fn print_cost(l: u64) -> u64 {
    ALLOC + 4 * l * l + 40 * l
}

/// Estimated cost of a gcd of two numbers with `bits` bits together. num-bigint's binary gcd takes
/// one step per bit, each a big-integer shift or subtraction: measured at 30-80 ns per bit.
fn gcd_cost(bits: u64) -> u64 {
    let l = bits / 64 + 1;
    ALLOC + bits.saturating_mul(32 + 2 * l)
}

/// A probability as an unreduced fraction whose denominator's prime factors are known.
#[derive(Debug, Clone)]
struct Frac {
    num: BigUint,
    den: BigUint,
    den_factors: Factors,
}

impl Frac {
    fn one() -> Frac {
        Frac {
            num: BigUint::one(),
            den: BigUint::one(),
            den_factors: Vec::new(),
        }
    }

    fn times(&self, other: &Frac) -> Frac {
        Frac {
            num: &self.num * &other.num,
            den: &self.den * &other.den,
            den_factors: merge(&self.den_factors, &other.den_factors),
        }
    }

    fn limbs(&self) -> u64 {
        limbs(&self.den)
    }
}

/// An exact, finite probability distribution over rational values.
#[derive(Debug, Clone)]
pub struct Dist {
    /// Ascending by value, every weight nonzero, values distinct.
    entries: Vec<(BigRational, BigUint)>,
    /// Sum of all weights.
    total: BigUint,
    /// Prime factorisation of `total`.
    factors: Factors,
    /// Probability that no exploding die was cut off by the cap.
    uncut: Frac,
    /// The exact mean, worked out (within the budget) once the whole expression is done.
    mean: Option<BigRational>,
}

/// One value of a distribution with its probability of exactly, at least and at most that value.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub value: BigRational,
    pub exactly: BigRational,
    pub at_least: BigRational,
    pub at_most: BigRational,
}

/// Two distributions are equal when they give every value the same probability and agree on the
/// capped probability (the weights themselves may be scaled differently).
impl PartialEq for Dist {
    fn eq(&self, other: &Self) -> bool {
        self.capped() == other.capped() && self.outcomes() == other.outcomes()
    }
}

fn int(v: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(v))
}

fn limbs(x: &BigUint) -> u64 {
    x.bits() / 64 + 1
}

fn value_bits(v: &BigRational) -> u64 {
    v.numer().bits() + v.denom().bits()
}

fn value_limbs(v: &BigRational) -> u64 {
    v.numer().bits() / 64 + v.denom().bits() / 64 + 2
}

impl Dist {
    fn point(value: BigRational) -> Dist {
        Dist {
            entries: vec![(value, BigUint::one())],
            total: BigUint::one(),
            factors: Vec::new(),
            uncut: Frac::one(),
            mean: None,
        }
    }

    /// Weight `w` as a probability in lowest terms.
    fn share(&self, w: &BigUint) -> BigRational {
        let (n, d) = lowest_terms(w, &self.total, &self.factors);
        BigRational::new_raw(BigInt::from(n), BigInt::from(d))
    }

    /// Every possible value with its probability, ascending by value; probabilities are reduced and nonzero.
    pub fn outcomes(&self) -> Vec<(BigRational, BigRational)> {
        self.entries
            .iter()
            .map(|(v, w)| (v.clone(), self.share(w)))
            .collect()
    }

    /// Probability of exactly `value` (0 when it cannot occur).
    pub fn probability(&self, value: &BigRational) -> BigRational {
        match self.entries.binary_search_by(|(v, _)| v.cmp(value)) {
            Ok(i) => self.share(&self.entries[i].1),
            Err(_) => BigRational::zero(),
        }
    }

    /// Expected value.
    pub fn mean(&self) -> BigRational {
        match &self.mean {
            Some(m) => m.clone(),
            None => mean_of(self, None).unwrap_or_else(|_| BigRational::zero()),
        }
    }

    /// Every value with its probability of exactly, at least and at most that value, ascending by value;
    /// all in lowest terms (the cumulative columns are prefix sums of the integer weights, so no gcd).
    pub fn rows(&self) -> Vec<Row> {
        let mut out = Vec::with_capacity(self.entries.len());
        self.for_each_row(|r| out.push(r));
        out
    }

    /// [`rows`](Self::rows) one at a time, without holding them all: for printing a wide distribution
    /// in little memory.
    pub fn for_each_row(&self, mut f: impl FnMut(Row)) {
        let mut below = BigUint::zero();
        for (v, w) in &self.entries {
            let at_least = &self.total - &below;
            below += w;
            f(Row {
                value: v.clone(),
                exactly: self.share(w),
                at_least: self.share(&at_least),
                at_most: self.share(&below),
            });
        }
    }

    /// Probability that the value satisfies `keep`, in lowest terms.
    pub fn probability_where(&self, mut keep: impl FnMut(&BigRational) -> bool) -> BigRational {
        let mut sum = BigUint::zero();
        for (v, w) in &self.entries {
            if keep(v) {
                sum += w;
            }
        }
        self.share(&sum)
    }

    /// Exact variance, `E[(X - mean)^2]`.
    ///
    /// For integer values it is `(T * S2 - S1^2) / T^2` with `T` the total weight and `S1`, `S2` the
    /// weighted sums of values and squares: integer arithmetic, reduced by the known prime factors of
    /// `T`, with no gcd. Fractional values go through rationals.
    pub fn variance(&self) -> BigRational {
        if self.entries.iter().all(|(v, _)| v.is_integer()) {
            let mut s1 = BigInt::zero();
            let mut s2 = BigInt::zero();
            for (v, w) in &self.entries {
                let vw = v.numer() * BigInt::from_biguint(Sign::Plus, w.clone());
                s2 += &vw * v.numer();
                s1 += vw;
            }
            let t = BigInt::from_biguint(Sign::Plus, self.total.clone());
            let num = (&t * s2 - &s1 * &s1).magnitude().clone();
            let den = &self.total * &self.total;
            let (n, d) = lowest_terms(&num, &den, &times(&self.factors, 2));
            return BigRational::new_raw(BigInt::from(n), BigInt::from(d));
        }
        let mean = self.mean();
        self.entries
            .iter()
            .map(|(v, w)| {
                let dev = v - &mean;
                &dev * &dev * self.share(w)
            })
            .sum()
    }

    /// Smallest possible value.
    pub fn min(&self) -> BigRational {
        self.entries
            .first()
            .map(|(v, _)| v.clone())
            .unwrap_or_else(BigRational::zero)
    }

    /// Largest possible value.
    pub fn max(&self) -> BigRational {
        self.entries
            .last()
            .map(|(v, _)| v.clone())
            .unwrap_or_else(BigRational::zero)
    }

    /// Total probability of the roll sequences in which some exploding die reached the
    /// [`EXPLODE_CAP`] and stopped rolling (0 when nothing explodes).
    pub fn capped(&self) -> BigRational {
        let (n, d) = lowest_terms(&self.uncut.num, &self.uncut.den, &self.uncut.den_factors);
        if n == d {
            return BigRational::zero();
        }
        // 1 - n/d = (d - n)/d, already in lowest terms because n/d is.
        BigRational::new_raw(BigInt::from(&d - &n), BigInt::from(d))
    }

    /// The outcomes as `i64` values, when every value is an integer that fits.
    pub fn integer_outcomes(&self) -> Option<Vec<(i64, BigRational)>> {
        self.entries
            .iter()
            .map(|(v, w)| {
                if !v.is_integer() {
                    return None;
                }
                Some((v.to_integer().to_i64()?, self.share(w)))
            })
            .collect()
    }

    /// Number of distinct values.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Always false: a distribution has at least one value.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn negate(self) -> Dist {
        let entries = self
            .entries
            .into_iter()
            .rev()
            .map(|(v, w)| (-v, w))
            .collect();
        Dist {
            entries,
            mean: self.mean.map(|m| -m),
            ..self
        }
    }
}

/// Arithmetic budget shared by every step of one distribution.
struct Budget {
    used: u64,
}

impl Budget {
    /// Charge `units` for a step about to be done on `at`, or refuse it.
    fn spend(&mut self, units: u64, at: &At) -> Result<(), DistError> {
        let after = self.used.saturating_add(units);
        if after > WORK_LIMIT {
            return Err(too_big(
                at,
                format!(
                    "`{}` is too much work to compute exactly: {} work units, over the limit of {} per expression",
                    at.text,
                    about(after),
                    about(WORK_LIMIT).trim_start_matches("about "),
                ),
            ));
        }
        self.used = after;
        Ok(())
    }

    /// Refuse a step whose result would take more than [`MEMORY_LIMIT`] bytes.
    fn memory(&self, bytes: u64, at: &At) -> Result<(), DistError> {
        if bytes > MEMORY_LIMIT {
            return Err(too_big(
                at,
                format!(
                    "`{}` needs too much memory to compute exactly: {} MB, over the limit of {} MB",
                    at.text,
                    bytes >> 20,
                    MEMORY_LIMIT >> 20
                ),
            ));
        }
        Ok(())
    }
}

/// Exact distribution of a whole syntax tree; `src` is the text the spans point into.
pub(crate) fn distribution_of(root: &Node, src: &str) -> Result<Dist, DistError> {
    distribution_and_work(root, src).map(|(d, _)| d)
}

/// The distribution and the work units it was charged.
pub(crate) fn distribution_and_work(root: &Node, src: &str) -> Result<(Dist, u64), DistError> {
    let mut budget = Budget { used: 0 };
    let mut d = eval(root, src, &mut budget)?;
    let at = at_node(root, src);
    finish(&mut d, &at, &mut budget)?;
    Ok((d, budget.used))
}

/// Which part of a contest an error belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The first expression (the attacker).
    First,
    /// The second expression (the defender).
    Second,
    /// The difference of the two (its span, if any, is meaningless).
    Difference,
}

/// The exact distributions of two independent expressions `a` and `b` and of `a - b`, all worked out
/// under one work budget: the difference is the convolution of `a` with `b` negated.
pub(crate) fn contest(
    a: (&Node, &str),
    b: (&Node, &str),
) -> Result<(Dist, Dist, Dist), (Side, DistError)> {
    let mut budget = Budget { used: 0 };
    let mut da = eval(a.0, a.1, &mut budget).map_err(|e| (Side::First, e))?;
    let mut db = eval(b.0, b.1, &mut budget).map_err(|e| (Side::Second, e))?;
    let text = format!("({}) - ({})", a.1.trim(), b.1.trim());
    let at = At {
        text: &text,
        span: Span {
            start: 0,
            end: text.len(),
        },
    };
    let mut diff =
        combine(&da, &db, BinOp::Sub, &at, &mut budget).map_err(|e| (Side::Difference, e))?;
    finish(&mut diff, &at, &mut budget).map_err(|e| (Side::Difference, e))?;
    finish(&mut da, &at_node(a.0, a.1), &mut budget).map_err(|e| (Side::First, e))?;
    finish(&mut db, &at_node(b.0, b.1), &mut budget).map_err(|e| (Side::Second, e))?;
    Ok((da, db, diff))
}

fn at_node<'a>(node: &Node, src: &'a str) -> At<'a> {
    At {
        text: src.get(node.span.start..node.span.end).unwrap_or(""),
        span: node.span,
    }
}

/// Charge what presenting the result costs (every probability reduced and printed, the exact mean,
/// the capped probability), check its memory, and work out the mean.
fn finish(d: &mut Dist, at: &At, budget: &mut Budget) -> Result<(), DistError> {
    let n = d.entries.len() as u64;
    let l = limbs(&d.total);
    let np = d.factors.len() as u64;
    let vl = d
        .entries
        .iter()
        .map(|(v, _)| value_limbs(v))
        .max()
        .unwrap_or(1);
    budget.memory(n.saturating_mul(ENTRY_BYTES * 5 + 140 * l + 40 * vl), at)?;
    // Three probability columns (exactly, at least, at most; the cumulative ones are prefix sums of
    // the weights) reduced and printed, the value printed twice, and the variance's two weighted sums.
    let per_entry = 3 * (reduce_cost(l, np) + print_cost(l) + 2 * l)
        + 2 * print_cost(vl)
        + 6 * l
        + 4 * ALLOC
        + 6 * (l + 1) * vl;
    let variance = if d.entries.iter().all(|(v, _)| v.is_integer()) {
        // T * S2 - S1^2 over T^2, reduced by the known factors of T.
        let wide = 2 * l + 2 * vl;
        4 * wide * wide + reduce_cost(wide, 2 * np) + 2 * print_cost(wide)
    } else {
        // Rational arithmetic per value: a few gcds the size of the values and weights.
        let vbits = d
            .entries
            .iter()
            .map(|(v, _)| value_bits(v))
            .max()
            .unwrap_or(1);
        n.saturating_mul(RATIONAL + 6 * gcd_cost(2 * vbits + 2 * d.total.bits()))
    };
    let ul = d.uncut.limbs();
    let uncut = reduce_cost(ul, d.uncut.den_factors.len() as u64) + 2 * print_cost(ul);
    budget.spend(
        n.saturating_mul(per_entry)
            .saturating_add(uncut)
            .saturating_add(variance),
        at,
    )?;
    d.mean = Some(mean_of(d, Some((at, budget)))?);
    Ok(())
}

/// Exact mean, charged to `budget` when one is given.
fn mean_of(d: &Dist, mut budget: Option<(&At, &mut Budget)>) -> Result<BigRational, DistError> {
    let mut spend = |units: u64| -> Result<(), DistError> {
        match budget.as_mut() {
            Some((at, b)) => b.spend(units, at),
            None => Ok(()),
        }
    };
    let n = d.entries.len() as u64;
    let l = limbs(&d.total);
    let vl = d
        .entries
        .iter()
        .map(|(v, _)| value_limbs(v))
        .max()
        .unwrap_or(1);
    if d.entries.iter().all(|(v, _)| v.is_integer()) {
        spend(n * (2 * ALLOC + 3 * (l + 1) * vl) + reduce_cost(l + vl, d.factors.len() as u64))?;
        let mut sum = BigInt::zero();
        for (v, w) in &d.entries {
            sum += v.numer() * BigInt::from_biguint(Sign::Plus, w.clone());
        }
        let (sign, mag) = sum.into_parts();
        let (num, den) = lowest_terms(&mag, &d.total, &d.factors);
        return Ok(BigRational::new_raw(
            BigInt::from_biguint(sign, num),
            BigInt::from(den),
        ));
    }
    // Common denominator of the values: lcm, with small gcds where the denominators are small.
    let mut lcm = BigUint::one();
    for (v, _) in &d.entries {
        let q = v.denom().magnitude();
        let ll = limbs(&lcm);
        match q.to_u64() {
            Some(q64) => {
                spend(ALLOC * 2 + 4 * ll)?;
                let r = (&lcm % q64).to_u64().unwrap_or(0);
                let g = q64.gcd(&r);
                if g != q64 {
                    lcm *= q64 / g;
                }
            }
            None => {
                spend(gcd_cost(lcm.bits() + q.bits()) + 3 * ll * limbs(q))?;
                let g = lcm.gcd(q);
                lcm = lcm / &g * q;
            }
        }
    }
    let ll = limbs(&lcm);
    spend(n * (4 * ALLOC + 3 * ll * (l + vl + 2)))?;
    let mut sum = BigInt::zero();
    for (v, w) in &d.entries {
        let f = &lcm / v.denom().magnitude();
        sum += v.numer() * BigInt::from_biguint(Sign::Plus, f * w);
    }
    let den = &lcm * &d.total;
    spend(gcd_cost(sum.bits() + den.bits()))?;
    Ok(BigRational::new(sum, BigInt::from(den)))
}

fn eval(node: &Node, src: &str, budget: &mut Budget) -> Result<Dist, DistError> {
    let at = at_node(node, src);
    match &node.kind {
        NodeKind::Int(n) => Ok(Dist::point(int(*n))),
        NodeKind::Dice(term) => term_dist(term, &at, budget),
        NodeKind::Group(inner) => eval(inner, src, budget),
        NodeKind::Neg(inner) => {
            let d = eval(inner, src, budget)?;
            budget.spend(d.entries.len() as u64 * 4, &at)?;
            Ok(d.negate())
        }
        NodeKind::Binary { op, lhs, rhs } => {
            let a = eval(lhs, src, budget)?;
            let b = eval(rhs, src, budget)?;
            if *op == BinOp::Div
                && b.entries
                    .binary_search_by(|(v, _)| v.cmp(&BigRational::zero()))
                    .is_ok()
            {
                let divisor = at_node(rhs, src);
                return Err(zero_divisor(&divisor, "can be 0"));
            }
            combine(&a, &b, *op, &at, budget)
        }
    }
}

/// The error for a divisor that can be (or was) 0.
pub(crate) fn zero_divisor_error(src: &str, span: Span, how: &str) -> DistError {
    let at = At {
        text: src.get(span.start..span.end).unwrap_or(""),
        span,
    };
    zero_divisor(&at, how)
}

fn zero_divisor(at: &At, how: &str) -> DistError {
    DistError {
        kind: DistErrorKind::DivisionByZero,
        message: format!("division by zero: the divisor `{}` {how}", at.text),
        span: Some(at.span),
        hint: Some(
            "a divisor must never be 0: shift it so its lowest value is at least 1 (e.g. `1d2` rather than `1d2-1`), or leave the division out"
                .to_owned(),
        ),
    }
}

/// Weights small enough for `u128` arithmetic, or big integers.
trait Weight: Clone + Default {
    fn add_product(&mut self, x: &Self, y: &Self);
    fn add(&mut self, x: &Self);
    fn sub(&mut self, x: &Self);
    fn is_nil(&self) -> bool;
    fn big(self) -> BigUint;
}

impl Weight for u128 {
    fn add_product(&mut self, x: &Self, y: &Self) {
        *self += x * y;
    }
    fn add(&mut self, x: &Self) {
        *self += x;
    }
    fn sub(&mut self, x: &Self) {
        *self -= x;
    }
    fn is_nil(&self) -> bool {
        *self == 0
    }
    fn big(self) -> BigUint {
        BigUint::from(self)
    }
}

impl Weight for BigUint {
    fn add_product(&mut self, x: &Self, y: &Self) {
        *self += x * y;
    }
    fn add(&mut self, x: &Self) {
        *self += x;
    }
    fn sub(&mut self, x: &Self) {
        *self -= x;
    }
    fn is_nil(&self) -> bool {
        self.is_zero()
    }
    fn big(self) -> BigUint {
        self
    }
}

fn small_weights(ws: &[&BigUint]) -> Vec<u128> {
    ws.iter().map(|w| w.to_u128().unwrap_or_default()).collect()
}

/// The values as `i64`, when all are integers that fit.
fn small_ints(d: &Dist) -> Option<Vec<i64>> {
    d.entries
        .iter()
        .map(|(v, _)| {
            if v.is_integer() {
                v.to_integer().to_i64()
            } else {
                None
            }
        })
        .collect()
}

/// Distribution of `a op b` for independent `a` and `b`.
fn combine(a: &Dist, b: &Dist, op: BinOp, at: &At, budget: &mut Budget) -> Result<Dist, DistError> {
    let pairs = (a.entries.len() as u64).saturating_mul(b.entries.len() as u64);
    let (la, lb) = (limbs(&a.total), limbs(&b.total));
    // Every product of two weights and every sum of them is at most a.total * b.total.
    let small = a.total.bits() + b.total.bits() <= 127;
    let weight_cost = if small {
        3
    } else {
        ALLOC + la * lb + 3 * (la + lb)
    };
    budget.spend(la * lb + a.uncut.limbs() * b.uncut.limbs() + 4 * ALLOC, at)?;
    let entries_bound = pairs.min(MAX_SUPPORT as u64);
    budget.memory(
        entries_bound.saturating_mul(ENTRY_BYTES + 16 * (la + lb)),
        at,
    )?;

    let ints = match op {
        BinOp::Div => None,
        _ => small_ints(a).zip(small_ints(b)),
    };
    let wa: Vec<&BigUint> = a.entries.iter().map(|(_, w)| w).collect();
    let wb: Vec<&BigUint> = b.entries.iter().map(|(_, w)| w).collect();
    let mut entries: Option<Vec<(BigRational, BigUint)>> = None;
    if let Some((xa, xb)) = ints {
        // Extremes of the result, exactly: if they fit `i64`, nothing in between overflows.
        let (amin, amax) = (i128::from(xa[0]), i128::from(xa[xa.len() - 1]));
        let (bmin, bmax) = (i128::from(xb[0]), i128::from(xb[xb.len() - 1]));
        let corners = match op {
            BinOp::Add => [amin + bmin, amax + bmax, amin + bmin, amax + bmax],
            BinOp::Sub => [amin - bmax, amax - bmin, amin - bmax, amax - bmin],
            _ => [amin * bmin, amin * bmax, amax * bmin, amax * bmax],
        };
        let lo = corners.iter().copied().min().unwrap_or(0);
        let hi = corners.iter().copied().max().unwrap_or(0);
        if lo >= i128::from(i64::MIN) && hi <= i128::from(i64::MAX) {
            let apply = |x: i64, y: i64| match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                _ => x * y,
            };
            // Cells a dense array would need (compared before narrowing: the full i64 span is 2^64).
            let span = hi - lo + 1;
            let dense = op != BinOp::Mul && span <= MAX_SUPPORT as i128;
            let range = if dense { span as u64 } else { 0 };
            let key_cost = if dense { 2 } else { HASH };
            let fill = if dense {
                range * (if small { 4 } else { 2 * ALLOC })
            } else {
                0
            };
            budget.spend(
                pairs
                    .saturating_mul(key_cost + weight_cost)
                    .saturating_add(fill)
                    + entries_bound * (3 * ALLOC + la + lb),
                at,
            )?;
            let lo = lo as i64;
            let found = match (small, dense) {
                (true, true) => finish_ints(dense_pairs(
                    &xa,
                    &small_weights(&wa),
                    &xb,
                    &small_weights(&wb),
                    apply,
                    lo,
                    range as usize,
                )),
                (false, true) => finish_ints(dense_pairs(
                    &xa,
                    &own(&wa),
                    &xb,
                    &own(&wb),
                    apply,
                    lo,
                    range as usize,
                )),
                (true, false) => finish_ints(hashed_pairs(
                    &xa,
                    &small_weights(&wa),
                    &xb,
                    &small_weights(&wb),
                    |x, y| apply(*x, *y),
                    at,
                )?),
                (false, false) => finish_ints(hashed_pairs(
                    &xa,
                    &own(&wa),
                    &xb,
                    &own(&wb),
                    |x, y| apply(*x, *y),
                    at,
                )?),
            };
            if found.len() > MAX_SUPPORT {
                return Err(too_wide(at));
            }
            entries = Some(found);
        }
    }
    let entries = match entries {
        Some(e) => e,
        None => {
            // Each pair is one rational operation: num-rational reduces with gcds (about two of the
            // operands' size, measured), and hashing a rational walks its continued fraction. Sorting
            // the results compares rationals by division.
            let bits = |d: &Dist| {
                d.entries
                    .iter()
                    .map(|(v, _)| value_bits(v))
                    .max()
                    .unwrap_or(1)
            };
            let vbits = bits(a) + bits(b);
            let per_pair = HASH + RATIONAL + 2 * gcd_cost(vbits) + weight_cost;
            let sort = 20 * (100 + 4 * vbits);
            budget.spend(
                pairs.saturating_mul(per_pair)
                    + entries_bound.saturating_mul(2 * ALLOC + la + lb + sort),
                at,
            )?;
            let xa: Vec<&BigRational> = a.entries.iter().map(|(v, _)| v).collect();
            let xb: Vec<&BigRational> = b.entries.iter().map(|(v, _)| v).collect();
            let apply = |x: &&BigRational, y: &&BigRational| match op {
                BinOp::Add => *x + *y,
                BinOp::Sub => *x - *y,
                BinOp::Mul => *x * *y,
                BinOp::Div => *x / *y,
            };
            if small {
                big_weights(hashed_pairs(
                    &xa,
                    &small_weights(&wa),
                    &xb,
                    &small_weights(&wb),
                    apply,
                    at,
                )?)
            } else {
                hashed_pairs(&xa, &own(&wa), &xb, &own(&wb), apply, at)?
            }
        }
    };
    Ok(Dist {
        entries,
        total: &a.total * &b.total,
        factors: merge(&a.factors, &b.factors),
        uncut: a.uncut.times(&b.uncut),
        mean: None,
    })
}

fn own(ws: &[&BigUint]) -> Vec<BigUint> {
    ws.iter().map(|w| (*w).clone()).collect()
}

fn finish_ints<W: Weight>(found: Vec<(i64, W)>) -> Vec<(BigRational, BigUint)> {
    found.into_iter().map(|(v, w)| (int(v), w.big())).collect()
}

fn big_weights<K, W: Weight>(found: Vec<(K, W)>) -> Vec<(K, BigUint)> {
    found.into_iter().map(|(v, w)| (v, w.big())).collect()
}

/// All pairs into a dense array of `size` cells from `lo`; nonzero cells ascending.
fn dense_pairs<W: Weight>(
    xa: &[i64],
    wa: &[W],
    xb: &[i64],
    wb: &[W],
    f: impl Fn(i64, i64) -> i64,
    lo: i64,
    size: usize,
) -> Vec<(i64, W)> {
    let mut cells = vec![W::default(); size];
    for (x, wx) in xa.iter().zip(wa) {
        for (y, wy) in xb.iter().zip(wb) {
            let i = (f(*x, *y) - lo) as usize;
            if let Some(c) = cells.get_mut(i) {
                c.add_product(wx, wy);
            }
        }
    }
    cells
        .into_iter()
        .enumerate()
        .filter(|(_, w)| !w.is_nil())
        .map(|(i, w)| (lo + i as i64, w))
        .collect()
}

/// All pairs through a hash map, refusing more than [`MAX_SUPPORT`] distinct results; ascending.
fn hashed_pairs<X, K: Eq + Hash + Ord, W: Weight>(
    xa: &[X],
    wa: &[W],
    xb: &[X],
    wb: &[W],
    f: impl Fn(&X, &X) -> K,
    at: &At,
) -> Result<Vec<(K, W)>, DistError> {
    let mut map: HashMap<K, W> = HashMap::new();
    for (x, wx) in xa.iter().zip(wa) {
        for (y, wy) in xb.iter().zip(wb) {
            map.entry(f(x, y)).or_default().add_product(wx, wy);
            if map.len() > MAX_SUPPORT {
                return Err(too_wide(at));
            }
        }
    }
    Ok(sorted(map))
}

fn sorted<K: Ord, W: Weight>(map: HashMap<K, W>) -> Vec<(K, W)> {
    let mut v: Vec<(K, W)> = map.into_iter().filter(|(_, w)| !w.is_nil()).collect();
    v.sort_by(|x, y| x.0.cmp(&y.0));
    v
}

/// Faces of one die (ascending, with weights), the weights' total and its prime factors.
fn die_faces(
    term: &DiceTerm,
    at: &At,
    budget: &mut Budget,
) -> Result<(Faces, BigUint, Factors), DistError> {
    if let Some(p) = term.percentile {
        budget.spend(100 * (u64::from(p.extra) + 2) * (ALLOC + 4), at)?;
        let (faces, total) = percentile_faces(p);
        let m = u64::from(p.extra) + 2;
        return Ok((faces, total, vec![(2, m), (5, m)]));
    }
    match term.sides {
        Sides::Fudge => Ok((
            (-1..=1).map(|v| (v, BigUint::one())).collect(),
            BigUint::from(3u32),
            vec![(3, 1)],
        )),
        Sides::Num(s) if !term.explode || s < 2 => {
            budget.spend(u64::from(s) * (ALLOC + 2), at)?;
            Ok((
                (1..=i64::from(s)).map(|v| (v, BigUint::one())).collect(),
                BigUint::from(s),
                factorize(s),
            ))
        }
        Sides::Num(s) => {
            // k maxima in a row then a non-maximum r: value k*s + r, probability s^-(k+1),
            // i.e. weight s^(CAP-k) over s^(CAP+1). All CAP+1 rolls at the maximum: weight 1.
            let cap = EXPLODE_CAP;
            let base = BigUint::from(s);
            let total = base.pow(cap + 1);
            budget.spend(
                u64::from(s) * u64::from(cap + 1) * (ALLOC + 2 * limbs(&total)),
                at,
            )?;
            let s64 = i64::from(s);
            let mut faces = Vec::with_capacity((s as usize - 1) * (cap as usize + 1) + 1);
            for k in 0..=cap {
                let w = base.pow(cap - k);
                for r in 1..s64 {
                    faces.push((i64::from(k) * s64 + r, w.clone()));
                }
            }
            faces.push((i64::from(cap + 1) * s64, BigUint::one()));
            Ok((faces, total, times(&factorize(s), u64::from(cap + 1))))
        }
    }
}

/// One percentile roll with bonus or penalty dice: the values 1..=100 with weights over
/// `10^(extra + 2)` (one units die and `extra + 1` tens dice).
///
/// For a fixed units die the tens dice give ten distinct candidate results, equally likely. With `m`
/// tens dice the least of them is the `j`-th smallest candidate (1-based) with weight
/// `(11 - j)^m - (10 - j)^m`, the greatest with weight `j^m - (j - 1)^m`.
fn percentile_faces(p: super::parse::Percentile) -> (Vec<(i64, BigUint)>, BigUint) {
    let m = p.extra + 1;
    let mut weights = vec![BigUint::zero(); 101];
    for units in 0..10i64 {
        let mut candidates: Vec<i64> = (0..10i64)
            .map(|tens| {
                if tens == 0 && units == 0 {
                    100
                } else {
                    10 * tens + units
                }
            })
            .collect();
        candidates.sort_unstable();
        for (i, v) in candidates.iter().enumerate() {
            let j = i as u32 + 1;
            let w = if p.penalty {
                BigUint::from(j).pow(m) - BigUint::from(j - 1).pow(m)
            } else {
                BigUint::from(11 - j).pow(m) - BigUint::from(10 - j).pow(m)
            };
            weights[*v as usize] += w;
        }
    }
    let faces = weights
        .into_iter()
        .enumerate()
        .skip(1)
        .map(|(v, w)| (v as i64, w))
        .collect();
    (faces, BigUint::from(10u32).pow(m + 1))
}

/// Exact distribution of one dice term with its modifiers.
fn term_dist(term: &DiceTerm, at: &At, budget: &mut Budget) -> Result<Dist, DistError> {
    let n = term.count as usize;
    let (faces, die_total, die_factors) = die_faces(term, at, budget)?;
    // The total over all n dice, and what building it costs.
    let total_bits = die_total.bits().saturating_mul(u64::from(term.count));
    let tl = total_bits / 64 + 1;
    budget.spend(tl * tl + ALLOC, at)?;
    let total = die_total.pow(term.count);
    // What each die adds to the term: its value, or 1/0 when counting successes.
    let contrib: Vec<(i64, BigUint)> = match term.success {
        None => faces.clone(),
        Some(cmp) => {
            let mut hit = BigUint::zero();
            let mut miss = BigUint::zero();
            for (v, w) in &faces {
                if cmp.test(*v) {
                    hit += w;
                } else {
                    miss += w;
                }
            }
            vec![(0, miss), (1, hit)]
        }
    };
    let (k, highest) = term.kept();
    let k = k as usize;
    let sums = if let (Sides::Num(s), true) = (term.sides, separate_pool(term)) {
        separate_dist(term, s, &total, at, budget)?
    } else if k == 0 {
        vec![(0, total.clone())]
    } else if k == n {
        sum_iid(&contrib, n, &total, at, budget)?
    } else {
        let with_contrib: Vec<(i64, i64, BigUint)> = match term.success {
            None => faces.iter().map(|(v, w)| (*v, *v, w.clone())).collect(),
            Some(cmp) => faces
                .iter()
                .map(|(v, w)| (*v, i64::from(cmp.test(*v)), w.clone()))
                .collect(),
        };
        keep_dp(with_contrib, n, k, highest, at, budget)?
    };
    let uncut = match term.sides {
        Sides::Num(s) if term.explode => {
            // No die of n cut off: (1 - s^-(CAP+1))^n = (s^(CAP+1) - 1)^n / s^((CAP+1) n).
            let den = BigUint::from(s).pow(EXPLODE_CAP + 1);
            let l = limbs(&den) * u64::from(term.count);
            budget.spend(2 * l * l + ALLOC, at)?;
            Frac {
                num: (&den - BigUint::one()).pow(term.count),
                den: den.pow(term.count),
                den_factors: times(
                    &factorize(s),
                    u64::from(EXPLODE_CAP + 1) * u64::from(term.count),
                ),
            }
        }
        _ => Frac::one(),
    };
    budget.spend(sums.len() as u64 * 3 * ALLOC, at)?;
    let entries = sums
        .into_iter()
        .filter(|(_, w)| !w.is_zero())
        .map(|(v, w)| (int(v), w))
        .collect();
    Ok(Dist {
        entries,
        total,
        factors: times(&die_factors, u64::from(term.count)),
        uncut,
        mean: None,
    })
}

/// Whether `term` explodes into separate dice that a keep/drop or `cs` modifier then sees one by one
/// (`3d6!kh2`, `5d6!cs>=6`). Without those modifiers separate dice and a compounded chain give the
/// same total, which the single-die unrolling of [`die_faces`] already works out.
pub(crate) fn separate_pool(term: &DiceTerm) -> bool {
    term.explode && !term.compound && (term.keep.is_some() || term.success.is_some())
}

/// How a pool of `m` maxima and `l` lower results (each die's last roll when it stopped exploding)
/// splits under keep/drop: `(maxima kept, lower results kept)`. The lower results kept are the highest
/// ones for keep-highest and drop-lowest, the lowest ones otherwise.
fn pool_split(keep: Keep, m: u64, l: u64) -> (u64, u64) {
    let k = u64::from(keep.n);
    match keep.kind {
        KeepKind::KeepHighest => {
            let a = m.min(k);
            (a, (k - a).min(l))
        }
        KeepKind::KeepLowest => {
            let j = k.min(l);
            (m.min(k - j), j)
        }
        KeepKind::DropLowest if k <= l => (m, l - k),
        KeepKind::DropLowest => (m.saturating_sub(k - l), 0),
        KeepKind::DropHighest if k <= m => (m - k, l),
        KeepKind::DropHighest => (0, l.saturating_sub(k - m)),
    }
}

/// `NdS!` with keep/drop or `cs`: every roll of an explosion chain is a die of its own in the pool.
///
/// A die that is not cut off by the cap shows `m` maxima (0 ≤ m ≤ CAP) and then one lower face `r`
/// (1 ≤ r < S), with weight `S^(CAP-m)` for each `r`; a die cut off shows CAP+1 maxima, weight 1. The
/// lower face is uniform and independent of `m`. So the pool of `n` dice is: `M` maxima (the sum of the
/// dice's `m`, plus CAP+1 for each of the `c` dice cut off) and `l = n - c` independent lower faces.
/// Maxima rank above every lower face, so keep/drop takes some number of maxima and the top (or
/// bottom) `j` lower faces ([`pool_split`]); the kept lower faces are [`keep_dp`] over the `S-1` lower
/// faces. The weights are summed by (l, j, maxima kept), and each group adds its shifted distribution.
fn separate_dist(
    term: &DiceTerm,
    s: u32,
    total: &BigUint,
    at: &At,
    budget: &mut Budget,
) -> Result<Vec<(i64, BigUint)>, DistError> {
    let n = u64::from(term.count);
    let cap = u64::from(EXPLODE_CAP);
    let g = |v: i64| match term.success {
        None => v,
        Some(c) => i64::from(c.test(v)),
    };
    let s64 = i64::from(s);
    let gs = g(s64);
    let base = BigUint::from(s);
    // Weight of a chain with m maxima before its lower face, for each lower face.
    let mw: Vec<BigUint> = (0..=cap).map(|m| base.pow((cap - m) as u32)).collect();
    let size = limbs(total) + 1;
    let touch = ALLOC + HASH + 3 * size;
    let Some(keep) = term.keep else {
        // Counting successes only: each die adds m·g(S) + g(r), or (CAP+1)·g(S) when cut off.
        budget.spend((cap + 1) * u64::from(s) * touch, at)?;
        let mut one: HashMap<i64, BigUint> = HashMap::new();
        for (m, w) in mw.iter().enumerate() {
            for r in 1..s64 {
                *one.entry(m as i64 * gs + g(r)).or_default() += w;
            }
        }
        *one.entry((cap as i64 + 1) * gs).or_default() += BigUint::one();
        let die: Vec<(i64, BigUint)> = sorted(one);
        return sum_iid(&die, n as usize, total, at, budget);
    };
    let lower: Vec<(i64, i64, BigUint)> = (1..s64).map(|v| (v, g(v), BigUint::one())).collect();
    let lower_total = BigUint::from(s - 1);
    let (_, highest) = term.kept();
    // Keep-highest and keep-lowest depend on the number of maxima only below the count kept, so the
    // distribution of the maxima is tracked that far and the rest summed; drops need all of it.
    let bound: Option<u64> = match keep.kind {
        KeepKind::KeepHighest | KeepKind::KeepLowest => Some(u64::from(keep.n) + 1),
        _ => None,
    };
    budget.spend((n + 1) * (n / 64 + 1 + ALLOC), at)?;
    let choose = binomial_row(n as usize);
    let chain_total: BigUint = mw.iter().sum();
    let mut chain_power = BigUint::one();
    // wm[x]: weight of x maxima among the first l dice, none cut off (each lower face weight 1).
    let mut wm: Vec<BigUint> = vec![BigUint::one()];
    let mut groups: HashMap<(u64, u64, u64), BigUint> = HashMap::new();
    for l in 0..=n {
        if l > 0 {
            let full = (cap * l + 1) as usize;
            let len = bound.map_or(full, |b| full.min(b as usize));
            budget.spend(len as u64 * (cap + 1) * (ALLOC + 3 * size), at)?;
            budget.memory(len as u64 * (ENTRY_BYTES + 8 * size), at)?;
            let mut next = vec![BigUint::zero(); len];
            for (x, w) in wm.iter().enumerate() {
                if w.is_zero() {
                    continue;
                }
                for (m, mwm) in mw.iter().enumerate() {
                    if x + m < len {
                        next[x + m] += w * mwm;
                    }
                }
            }
            wm = next;
            chain_power *= &chain_total;
        }
        let c = n - l;
        let cut = (cap + 1) * c;
        let coef = &choose[c as usize];
        budget.spend(wm.len() as u64 * (touch + size * size / 8), at)?;
        let mut tracked = BigUint::zero();
        for (x, w) in wm.iter().enumerate() {
            if w.is_zero() {
                continue;
            }
            tracked += w;
            let (a, j) = pool_split(keep, cut + x as u64, l);
            *groups.entry((l, j, a)).or_default() += coef * w;
        }
        if tracked < chain_power {
            // Every untracked count of maxima is at or past the bound, where the split no longer changes.
            let beyond = cut + bound.unwrap_or(0).max(wm.len() as u64);
            let (a, j) = pool_split(keep, beyond, l);
            *groups.entry((l, j, a)).or_default() += coef * (&chain_power - tracked);
        }
        if groups.len() > MAX_SUPPORT {
            return Err(too_wide(at));
        }
    }
    let mut kept_lower: HashMap<(u64, u64), Vec<(i64, BigUint)>> = HashMap::new();
    let mut out: HashMap<i64, BigUint> = HashMap::new();
    let mut keys: Vec<(u64, u64, u64)> = groups.keys().copied().collect();
    keys.sort_unstable();
    for key in keys {
        let (l, j, a) = key;
        if let std::collections::hash_map::Entry::Vacant(slot) = kept_lower.entry((l, j)) {
            let d = if l == 0 || j == 0 {
                budget.spend(ALLOC + l * size, at)?;
                vec![(0, lower_total.pow(l as u32))]
            } else if j == l {
                let contrib: Vec<(i64, BigUint)> =
                    lower.iter().map(|(_, c, w)| (*c, w.clone())).collect();
                sum_iid(&contrib, l as usize, &lower_total.pow(l as u32), at, budget)?
            } else {
                keep_dp(lower.clone(), l as usize, j as usize, highest, at, budget)?
            };
            slot.insert(d);
        }
        let d = &kept_lower[&(l, j)];
        let w = &groups[&key];
        budget.spend(d.len() as u64 * (touch + size * size / 8), at)?;
        let shift = a as i64 * gs;
        for (v, h) in d {
            *out.entry(shift + v).or_default() += w * h;
        }
        if out.len() > MAX_SUPPORT {
            return Err(too_wide(at));
        }
    }
    Ok(sorted(out))
}

/// Distribution of the sum of `n` independent copies of `die` (ascending values with weights),
/// whose weights add up to `total`.
fn sum_iid(
    die: &[(i64, BigUint)],
    n: usize,
    total: &BigUint,
    at: &At,
    budget: &mut Budget,
) -> Result<Vec<(i64, BigUint)>, DistError> {
    let lo = die.iter().map(|(v, _)| *v).min().unwrap_or(0);
    let hi = die.iter().map(|(v, _)| *v).max().unwrap_or(0);
    let width = (hi - lo) as usize;
    let cells = width.saturating_mul(n).saturating_add(1);
    if cells > MAX_SUPPORT {
        return Err(too_wide(at));
    }
    let tl = limbs(total);
    budget.memory(cells as u64 * 2 * (ENTRY_BYTES + 8 * tl), at)?;
    let mut one_die = vec![BigUint::zero(); width + 1];
    for (v, w) in die {
        one_die[(v - lo) as usize] += w;
    }
    let uniform = one_die.iter().all(|w| w.is_one());
    let base = lo * n as i64;
    let out = |acc: Vec<BigUint>| -> Vec<(i64, BigUint)> {
        acc.into_iter()
            .enumerate()
            .map(|(i, w)| (base + i as i64, w))
            .collect()
    };
    if total.bits() <= 127 {
        let one: Vec<u128> = one_die
            .iter()
            .map(|w| w.to_u128().unwrap_or_default())
            .collect();
        let acc = convolve(&one, n, uniform, 1, 1, at, budget)?;
        return Ok(out(acc.into_iter().map(BigUint::from).collect()));
    }
    let wl = one_die.iter().map(limbs).max().unwrap_or(1);
    let acc = convolve(&one_die, n, uniform, tl, wl, at, budget)?;
    Ok(out(acc))
}

/// `n`-fold convolution of `one_die` with itself; `tl` bounds the limbs of any weight (1 for `u128`),
/// `wl` those of one die's weights.
#[allow(clippy::too_many_arguments)]
fn convolve<W: Weight>(
    one_die: &[W],
    n: usize,
    uniform: bool,
    tl: u64,
    wl: u64,
    at: &At,
    budget: &mut Budget,
) -> Result<Vec<W>, DistError> {
    let big = tl > 1;
    let width = one_die.len() - 1;
    let spread: Vec<(usize, &W)> = one_die
        .iter()
        .enumerate()
        .filter(|(_, w)| !w.is_nil())
        .collect();
    let mut acc = one_die.to_vec();
    for step in 1..n {
        // Weights so far fit in about step/n of the total's limbs.
        let size = if big {
            tl * (step as u64 + 1) / n as u64 + 1
        } else {
            1
        };
        let per_cell = if big { ALLOC + 3 * size } else { 2 };
        if uniform {
            // Every face has weight 1: each new value is a window sum over the previous row.
            budget.spend((acc.len() + width + 1) as u64 * (per_cell + 2 * size), at)?;
            let w = width + 1;
            let mut next = Vec::with_capacity(acc.len() + width);
            let mut window = W::default();
            for t in 0..acc.len() + width {
                if t < acc.len() {
                    window.add(&acc[t]);
                }
                if t >= w {
                    window.sub(&acc[t - w]);
                }
                next.push(window.clone());
            }
            acc = next;
        } else {
            let per_op = if big { ALLOC + size * wl + 3 * size } else { 3 };
            budget.spend(
                (acc.len() as u64) * (spread.len() as u64) * per_op
                    + (acc.len() + width) as u64 * per_cell,
                at,
            )?;
            let mut next = vec![W::default(); acc.len() + width];
            for (i, a) in acc.iter().enumerate() {
                if a.is_nil() {
                    continue;
                }
                for (j, w) in &spread {
                    next[i + j].add_product(a, w);
                }
            }
            acc = next;
        }
    }
    Ok(acc)
}

/// Keep the `k` highest (or lowest) of `n` dice and add up what the kept dice contribute.
/// `faces` holds (face value, contribution, weight); the face value decides which dice are kept.
fn keep_dp(
    mut faces: Vec<(i64, i64, BigUint)>,
    n: usize,
    k: usize,
    highest: bool,
    at: &At,
    budget: &mut Budget,
) -> Result<Vec<(i64, BigUint)>, DistError> {
    faces.sort_by(|a, b| {
        if highest {
            b.0.cmp(&a.0)
        } else {
            a.0.cmp(&b.0)
        }
    });
    let gmin = faces.iter().map(|f| f.1).min().unwrap_or(0).min(0);
    let gmax = faces.iter().map(|f| f.1).max().unwrap_or(0).max(0);
    let g_range = (gmax - gmin) as usize;
    if g_range.saturating_mul(k).saturating_add(1) > MAX_SUPPORT {
        return Err(too_wide(at));
    }
    // Upper bound on the size of any weight in the programme: the total weight of all n dice.
    let die_total: BigUint = faces.iter().map(|f| &f.2).sum();
    let size = (die_total.bits() * n as u64) / 64 + 2;
    let states = k.saturating_mul(g_range.saturating_mul(k).saturating_add(1));
    if states > MAX_STATES {
        return Err(too_big(
            at,
            format!(
                "`{}` is too much work to compute exactly: keeping {k} of {n} dice needs up to {states} intermediate states, over the limit of {MAX_STATES}",
                at.text
            ),
        ));
    }
    budget.memory((states as u64).saturating_mul(ENTRY_BYTES + 8 * size), at)?;
    // rest[i]: summed weight of the faces after i (the less preferred ones).
    let mut rest = vec![BigUint::zero(); faces.len()];
    for i in (0..faces.len().saturating_sub(1)).rev() {
        rest[i] = &rest[i + 1] + &faces[i + 1].2;
    }
    let mut rows: Vec<Option<Vec<BigUint>>> = vec![None; n + 1];
    let mut states: Vec<HashMap<i64, BigUint>> = vec![HashMap::new(); k];
    states[0].insert(0, BigUint::one());
    let mut done: HashMap<i64, BigUint> = HashMap::new();

    // Hashing and allocation cost of touching one state, in the same units.
    const TOUCH: u64 = HASH + 2 * ALLOC;

    for (i, (_, g, w)) in faces.iter().enumerate() {
        let lowest_j = match states.iter().position(|m| !m.is_empty()) {
            Some(j) => j,
            None => break,
        };
        let max_c = n - lowest_j;
        budget.spend(
            (max_c + n - k + 2) as u64 * (size * limbs(w).max(limbs(&rest[i])) + ALLOC) + TOUCH,
            at,
        )?;
        let w_pow = powers(w, max_c);
        let rest_pow = powers(&rest[i], n - k);
        // Placing no die on this face leaves a state where it is, so states are updated in place.
        // Levels are visited from the top down: a state only feeds higher levels (already visited for
        // this face) or the finished results, so nothing is counted twice.
        for j in (lowest_j..k).rev() {
            let free = n - j;
            let (lower, upper) = states.split_at_mut(j + 1);
            let level = &lower[j];
            if level.is_empty() {
                continue;
            }
            if rows[free].is_none() {
                budget.spend(free as u64 * (free as u64 / 64 + 1 + ALLOC), at)?;
                rows[free] = Some(binomial_row(free));
            }
            let row = rows[free].as_deref().unwrap_or(&[]);
            budget.spend(
                level.len() as u64 * free as u64 * (6 * size + size * size / 4 + TOUCH),
                at,
            )?;
            for (s, weight) in level {
                for c in 1..=free {
                    let placed = j + c;
                    let value = s + (c.min(k - j) as i64) * g;
                    let left = n - placed;
                    if placed >= k && left > 0 && rest[i].is_zero() {
                        continue;
                    }
                    let mut x = weight * &row[c];
                    if !w.is_one() {
                        x *= &w_pow[c];
                    }
                    if placed >= k {
                        if left > 0 {
                            x *= &rest_pow[left];
                        }
                        *done.entry(value).or_default() += x;
                    } else {
                        *upper[placed - j - 1].entry(value).or_default() += x;
                    }
                }
            }
        }
    }
    let mut v: Vec<(i64, BigUint)> = done.into_iter().filter(|(_, w)| !w.is_zero()).collect();
    v.sort_by_key(|x| x.0);
    Ok(v)
}

/// `base^0 ..= base^top` (all ones when the base is 1).
fn powers(base: &BigUint, top: usize) -> Vec<BigUint> {
    let mut out = Vec::with_capacity(top + 1);
    let mut x = BigUint::one();
    for _ in 0..=top {
        out.push(x.clone());
        if !base.is_one() {
            x *= base;
        }
    }
    out
}

/// `C(n, 0) ..= C(n, n)`.
fn binomial_row(n: usize) -> Vec<BigUint> {
    let mut row = Vec::with_capacity(n + 1);
    let mut x = BigUint::one();
    row.push(x.clone());
    for c in 0..n {
        x = x * BigUint::from(n - c) / BigUint::from(c + 1);
        row.push(x.clone());
    }
    row
}

/// The first divisor in `root` (in evaluation order) that can be 0, as an error pointing at it.
///
/// A divisor whose range of values excludes 0 is accepted at once. Otherwise its exact distribution
/// decides; all divisors share one [`WORK_LIMIT`] budget, and a divisor too big to work out exactly
/// whose range includes 0 is reported as possibly 0, since nothing proves it never is.
pub(crate) fn find_zero_divisor(root: &Node, src: &str) -> Option<DistError> {
    let mut budget = Budget { used: 0 };
    find_in(root, src, &mut budget)
}

fn find_in(node: &Node, src: &str, budget: &mut Budget) -> Option<DistError> {
    match &node.kind {
        NodeKind::Int(_) | NodeKind::Dice(_) => None,
        NodeKind::Group(inner) | NodeKind::Neg(inner) => find_in(inner, src, budget),
        NodeKind::Binary { op, lhs, rhs } => {
            if let Some(e) = find_in(lhs, src, budget).or_else(|| find_in(rhs, src, budget)) {
                return Some(e);
            }
            if *op != BinOp::Div {
                return None;
            }
            let divisor = at_node(rhs, src);
            if let Some((lo, hi)) = range(rhs)
                && (lo > BigRational::zero() || hi < BigRational::zero())
            {
                return None;
            }
            match eval(rhs, src, budget) {
                Ok(d) => d
                    .entries
                    .binary_search_by(|(v, _)| v.cmp(&BigRational::zero()))
                    .is_ok()
                    .then(|| zero_divisor(&divisor, "can be 0")),
                Err(e) if e.kind == DistErrorKind::DivisionByZero => Some(e),
                Err(_) => Some(DistError {
                    hint: Some(
                        "write the divisor so it plainly cannot be 0, e.g. dice plus a positive number, or leave the division out"
                            .to_owned(),
                    ),
                    ..zero_divisor(
                        &divisor,
                        "may be 0: its values run through 0 and it is too big to check each one",
                    )
                }),
            }
        }
    }
}

/// Smallest and largest value a sub-expression can take, by interval arithmetic (`None` when a
/// division by a range holding 0 makes it unbounded).
pub(crate) fn range(node: &Node) -> Option<(BigRational, BigRational)> {
    match &node.kind {
        NodeKind::Int(n) => Some((int(*n), int(*n))),
        NodeKind::Dice(t) if separate_pool(t) => {
            // Every roll is a die in the pool: n to n·(CAP+1) of them, each 1..=S (or 0/1 counted).
            let (n, most) = (
                i64::from(t.count),
                i64::from(t.count) * i64::from(EXPLODE_CAP + 1),
            );
            let (kmin, kmax) = match t.keep {
                None => (n, most),
                Some(Keep {
                    kind: KeepKind::KeepHighest | KeepKind::KeepLowest,
                    n: k,
                }) => (i64::from(k), i64::from(k)),
                Some(Keep { n: d, .. }) => (n - i64::from(d), most - i64::from(d)),
            };
            let (lo, hi) = match (t.success, t.sides) {
                (Some(_), _) => (0, 1),
                (None, Sides::Num(s)) => (1, i64::from(s)),
                (None, Sides::Fudge) => (-1, 1),
            };
            Some((int(lo * kmin), int(hi * kmax)))
        }
        NodeKind::Dice(t) => {
            let (k, _) = t.kept();
            let k = i64::from(k);
            let (lo, hi) = match (t.success, t.sides) {
                (Some(_), _) => (0, 1),
                (None, Sides::Fudge) => (-1, 1),
                (None, Sides::Num(s)) if t.explode => {
                    (1, i64::from(s) * i64::from(EXPLODE_CAP + 1))
                }
                (None, Sides::Num(s)) => (1, i64::from(s)),
            };
            Some((int(lo * k), int(hi * k)))
        }
        NodeKind::Group(inner) => range(inner),
        NodeKind::Neg(inner) => range(inner).map(|(lo, hi)| (-hi, -lo)),
        NodeKind::Binary { op, lhs, rhs } => {
            let (a0, a1) = range(lhs)?;
            let (b0, b1) = range(rhs)?;
            let corners = match op {
                BinOp::Add => return Some((a0 + b0, a1 + b1)),
                BinOp::Sub => return Some((a0 - b1, a1 - b0)),
                BinOp::Mul => [&a0 * &b0, &a0 * &b1, &a1 * &b0, &a1 * &b1],
                BinOp::Div => {
                    if b0 <= BigRational::zero() && b1 >= BigRational::zero() {
                        return None;
                    }
                    [&a0 / &b0, &a0 / &b1, &a1 / &b0, &a1 / &b1]
                }
            };
            let lo = corners.iter().min()?.clone();
            let hi = corners.iter().max()?.clone();
            Some((lo, hi))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::parse;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    fn dist(src: &str) -> Dist {
        parse(src).unwrap().distribution().unwrap()
    }

    fn prob(src: &str, value: i64) -> BigRational {
        dist(src).probability(&int(value))
    }

    fn total_probability(d: &Dist) -> BigRational {
        d.outcomes().into_iter().map(|(_, p)| p).sum()
    }

    /// Every ordered roll of `n` dice with `faces`, mapped by `f`, as exact probabilities.
    fn brute(
        n: usize,
        faces: &[i64],
        f: impl Fn(&[i64]) -> i64,
    ) -> Vec<(BigRational, BigRational)> {
        let mut counts: BTreeMap<i64, u64> = BTreeMap::new();
        let mut idx = vec![0usize; n];
        let mut all = 0u64;
        loop {
            let roll: Vec<i64> = idx.iter().map(|&i| faces[i]).collect();
            *counts.entry(f(&roll)).or_default() += 1;
            all += 1;
            let mut pos = 0;
            loop {
                if pos == n {
                    return counts
                        .into_iter()
                        .map(|(v, c)| (int(v), q(c as i64, all as i64)))
                        .collect();
                }
                idx[pos] += 1;
                if idx[pos] < faces.len() {
                    break;
                }
                idx[pos] = 0;
                pos += 1;
            }
        }
    }

    fn sorted_desc(roll: &[i64]) -> Vec<i64> {
        let mut v = roll.to_vec();
        v.sort_unstable_by(|a, b| b.cmp(a));
        v
    }

    #[test]
    fn three_d6() {
        let d = dist("3d6");
        assert_eq!(d.probability(&int(10)), q(27, 216));
        assert_eq!(d.probability(&int(10)), q(1, 8));
        assert_eq!(d.mean(), q(21, 2));
        assert_eq!((d.min(), d.max()), (int(3), int(18)));
        assert_eq!(
            d.outcomes(),
            brute(3, &[1, 2, 3, 4, 5, 6], |r| r.iter().sum())
        );
        assert_eq!(d.capped(), int(0));
        assert_eq!(d.probability(&int(2)), int(0));
        assert_eq!(d.probability(&q(21, 2)), int(0));
    }

    #[test]
    fn count_successes() {
        assert_eq!(prob("5d6cs>=6", 0), q(3125, 7776));
        let faces = [1, 2, 3, 4, 5, 6];
        assert_eq!(
            dist("5d6cs>=6").outcomes(),
            brute(5, &faces, |r| r.iter().filter(|&&x| x >= 6).count() as i64)
        );
        assert_eq!(
            dist("4d6cs>4").outcomes(),
            brute(4, &faces, |r| r.iter().filter(|&&x| x > 4).count() as i64)
        );
        assert_eq!(
            dist("4d6cs<=2").outcomes(),
            brute(4, &faces, |r| r.iter().filter(|&&x| x <= 2).count() as i64)
        );
        assert_eq!(
            dist("4d6cs<2").outcomes(),
            brute(4, &faces, |r| r.iter().filter(|&&x| x < 2).count() as i64)
        );
        assert_eq!(
            dist("4d6cs3").outcomes(),
            brute(4, &faces, |r| r.iter().filter(|&&x| x == 3).count() as i64)
        );
        assert_eq!(dist("4d6cs=3"), dist("4d6cs3"));
        // nothing can succeed: always 0
        assert_eq!(dist("3d6cs>=7").outcomes(), vec![(int(0), int(1))]);
    }

    #[test]
    fn keep_lowest_and_advantage() {
        assert_eq!(prob("2d10kl1", 1), q(19, 100));
        assert_eq!(prob("2d10kl1", 10), q(1, 100));
        assert_eq!(prob("2d20kh1", 20), q(39, 400));
        assert_eq!(dist("2d20kh"), dist("2d20kh1"));
        assert_eq!(dist("2d20k"), dist("2d20kh1"));
        assert_eq!(dist("2d20kl"), dist("2d20dh1"));
    }

    #[test]
    fn fudge() {
        assert_eq!(prob("4dF", 0), q(19, 81));
        assert_eq!(prob("4dF", 4), q(1, 81));
        assert_eq!(
            dist("4dF").outcomes(),
            brute(4, &[-1, 0, 1], |r| r.iter().sum())
        );
        assert_eq!(
            dist("2dF").outcomes(),
            brute(2, &[-1, 0, 1], |r| r.iter().sum())
        );
        assert_eq!(
            dist("4dFkh2").outcomes(),
            brute(4, &[-1, 0, 1], |r| sorted_desc(r)[..2].iter().sum())
        );
        assert_eq!(
            dist("4dFkl1").outcomes(),
            brute(4, &[-1, 0, 1], |r| *r.iter().min().unwrap())
        );
    }

    #[test]
    fn keep_and_drop_match_brute_force() {
        let faces = [1, 2, 3, 4, 5, 6];
        let want = brute(4, &faces, |r| sorted_desc(r)[..3].iter().sum());
        assert_eq!(
            want.iter().map(|(_, p)| p.clone()).sum::<BigRational>(),
            int(1)
        );
        assert_eq!(dist("4d6kh3").outcomes(), want);
        assert_eq!(dist("4d6dl1"), dist("4d6kh3"));
        assert_eq!(
            dist("4d6dh1").outcomes(),
            brute(4, &faces, |r| sorted_desc(r)[1..].iter().sum())
        );
        assert_eq!(
            dist("4d6kl2").outcomes(),
            brute(4, &faces, |r| sorted_desc(r)[2..].iter().sum())
        );
        assert_eq!(
            dist("5d4kh2").outcomes(),
            brute(5, &[1, 2, 3, 4], |r| sorted_desc(r)[..2].iter().sum())
        );
        assert_eq!(dist("4d6kh4"), dist("4d6"));
        assert_eq!(dist("4d6kh0").outcomes(), vec![(int(0), int(1))]);
        assert_eq!(dist("4d6dl4"), dist("4d6kh0"));
    }

    #[test]
    fn ability_roll_with_advantage() {
        // 3d6kh2cs>=6: keep the highest two of three, count the sixes among them.
        let want = brute(3, &[1, 2, 3, 4, 5, 6], |r| {
            sorted_desc(r)[..2].iter().filter(|&&x| x >= 6).count() as i64
        });
        assert_eq!(dist("3d6kh2cs>=6").outcomes(), want);
        // same for the order it is written in
        assert_eq!(dist("3d6cs>=6kh2"), dist("3d6kh2cs>=6"));
        // and with a threshold where keeping matters more
        let want = brute(3, &[1, 2, 3, 4, 5, 6], |r| {
            sorted_desc(r)[1..].iter().filter(|&&x| x <= 3).count() as i64
        });
        assert_eq!(dist("3d6dh1cs<=3").outcomes(), want);
    }

    #[test]
    fn large_keep_without_enumeration() {
        let d = dist("20d6kh3");
        assert_eq!(total_probability(&d), int(1));
        assert_eq!((d.min(), d.max()), (int(3), int(18)));
        // P(all three kept dice are 1) = P(every die is 1)
        assert_eq!(
            d.probability(&int(3)),
            BigRational::new(BigInt::one(), BigInt::from(6).pow(20))
        );
        // P(max 18) = P(at least three sixes among 20)
        let p_le2: BigRational = (0..=2u32)
            .map(|s| {
                let c = BigInt::from(binomial_row(20)[s as usize].clone());
                BigRational::new(c * BigInt::from(5).pow(20 - s), BigInt::from(6).pow(20))
            })
            .sum();
        assert_eq!(d.probability(&int(18)), int(1) - p_le2);
    }

    #[test]
    fn division_is_exact() {
        let d = dist("1d6/2");
        let want: Vec<_> = (1..=6).map(|v| (q(v, 2), q(1, 6))).collect();
        assert_eq!(d.outcomes(), want);
        assert_eq!(d.integer_outcomes(), None);
        assert_eq!(d.mean(), q(7, 4));
        let d = dist("12/(1d3)");
        assert_eq!(
            d.outcomes(),
            vec![(int(4), q(1, 3)), (int(6), q(1, 3)), (int(12), q(1, 3))]
        );
        assert_eq!(dist("1d6/(1d2)").probability(&q(5, 2)), q(1, 12));
    }

    #[test]
    fn division_by_possible_zero() {
        let e = parse("1d6/(1d3-1)").unwrap().distribution().unwrap_err();
        assert!(e.message.contains("division by zero"), "{e}");
        assert!(e.message.contains("`(1d3-1)`"), "{e}");
        assert!(parse("1d6/(1d3-2)").unwrap().distribution().is_err());
        assert!(parse("1d6/(1d3+1)").unwrap().distribution().is_ok());
    }

    #[test]
    fn exploding() {
        let d = dist("1d6!");
        assert_eq!(d.probability(&int(3)), q(1, 6));
        assert_eq!(d.probability(&int(6)), int(0));
        assert_eq!(d.probability(&int(7)), q(1, 36));
        assert_eq!(d.probability(&int(12)), int(0));
        assert_eq!(d.probability(&int(13)), q(1, 216));
        let p21 = BigRational::new(BigInt::one(), BigInt::from(6).pow(21));
        assert_eq!(d.capped(), p21);
        // the cut chain counts its last face: 21 sixes = 126
        assert_eq!(d.max(), int(126));
        assert_eq!(d.probability(&int(126)), p21);
        assert_eq!(total_probability(&d), int(1));
        let two = dist("2d6!");
        let one = int(1);
        assert_eq!(two.capped(), &one - (&one - &p21) * (&one - &p21));
        assert_eq!(total_probability(&two), int(1));
        assert_eq!(dist("1d6!+1d6!").capped(), two.capped());
        assert_eq!(dist("1d6!+1d6!"), two);
        // mean of one capped exploding d6: sum over links of (7/2) * (1/6)^k for k = 0..=20
        let mean: BigRational = (0..=20u32)
            .map(|k| q(7, 2) * BigRational::new(BigInt::one(), BigInt::from(6).pow(k)))
            .sum();
        assert_eq!(d.mean(), mean);
        // keep and count on exploding dice stay consistent
        let kh = dist("3d6!kh1");
        assert_eq!(total_probability(&kh), int(1));
        assert_eq!(kh.probability(&int(1)), q(1, 216));
        assert_eq!(dist("2d6!!cs>=7").probability(&int(2)), q(1, 36));
        // `!` puts every roll in the pool on its own: no single roll of a d6 reaches 7
        assert_eq!(dist("2d6!cs>=7").probability(&int(0)), int(1));
        assert_eq!(dist("1d2!").probability(&int(1)), q(1, 2));
    }

    #[test]
    fn percent_and_small_sums() {
        assert_eq!(dist("d%"), dist("1d100"));
        let d = dist("2d6+3");
        assert_eq!((d.min(), d.max()), (int(5), int(15)));
        assert_eq!(d.probability(&int(10)), q(6, 36));
        assert_eq!(d.mean(), int(10));
        let d = dist("1d3-1");
        assert_eq!(d.min(), int(0));
        assert_eq!(
            d.outcomes(),
            vec![(int(0), q(1, 3)), (int(1), q(1, 3)), (int(2), q(1, 3))]
        );
        let d = dist("(1d4)*2");
        assert_eq!(
            d.outcomes(),
            (1..=4).map(|v| (int(2 * v), q(1, 4))).collect::<Vec<_>>()
        );
        assert_eq!(
            d.integer_outcomes(),
            Some((1..=4).map(|v| (2 * v, q(1, 4))).collect())
        );
        let d = dist("-1d4");
        assert_eq!((d.min(), d.max()), (int(-4), int(-1)));
        assert_eq!(dist("1d6*1d6").probability(&int(12)), q(4, 36));
        assert_eq!(dist("7").outcomes(), vec![(int(7), int(1))]);
        assert_eq!(dist("1d1").outcomes(), vec![(int(1), int(1))]);
    }

    #[test]
    fn thirty_d6_is_exact() {
        let d = dist("30d6");
        let six30 = BigInt::from(6).pow(30);
        assert_eq!(
            d.probability(&int(30)),
            BigRational::new(BigInt::one(), six30.clone())
        );
        assert_eq!(
            d.probability(&int(180)),
            BigRational::new(BigInt::one(), six30.clone())
        );
        assert_eq!(
            d.probability(&int(31)),
            BigRational::new(BigInt::from(30), six30)
        );
        assert_eq!(total_probability(&d), int(1));
        assert_eq!(d.mean(), int(105));
        assert_eq!(d.len(), 151);
    }

    #[test]
    fn limits_give_errors() {
        for src in [
            "1000d10000",
            "1000d10000!",
            "1000d6kh500",
            "1d10000!+1d10000!",
            "10d10000!",
        ] {
            let started = std::time::Instant::now();
            let r = parse(src).unwrap().distribution();
            let e = r.expect_err(src);
            assert_eq!(e.kind, DistErrorKind::TooBig, "{src}");
            assert!(e.hint.is_some(), "{src}");
            assert!(started.elapsed().as_secs() < 20, "{src} took too long");
        }
        assert!(parse("300d6").unwrap().distribution().is_ok());
    }

    #[test]
    fn refusals_name_the_part_and_the_limit() {
        let src = "2+(1d10000*1d1000)";
        let e = parse(src).unwrap().distribution().unwrap_err();
        let span = e.span.unwrap();
        assert_eq!(&src[span.start..span.end], "1d10000*1d1000");
        assert!(e.message.starts_with("`1d10000*1d1000` "), "{}", e.message);
        // 10 million pairs are more than the budget, so it is refused before any pair is formed
        assert!(
            e.message
                .contains("over the limit of 400 million per expression"),
            "{}",
            e.message
        );
        let e = parse("1000d6").unwrap().distribution().unwrap_err();
        assert!(e.message.contains("work units"), "{}", e.message);
    }

    #[test]
    fn ordinary_dice_use_a_sliver_of_the_budget() {
        for src in [
            "1d100",
            "3d6",
            "5d6cs>=6",
            "3d6kh2cs>=6",
            "2d10",
            "1d6/2",
            "4d6kh3",
            "1d6!",
            "4dF",
            "2d6+3",
        ] {
            let (_, units) = parse(src).unwrap().distribution_with_work().unwrap();
            assert!(units < WORK_LIMIT / 1000, "{src}: {units} units");
        }
    }

    #[test]
    fn probabilities_are_in_lowest_terms() {
        use num_integer::Integer;
        for src in [
            "1000d2kh500",
            "300d6",
            "20d6!",
            "1d6/1d7*1d10",
            "4d6kh3*1d9",
            "3d%!cs>=50",
            "1d6!-1d4!",
            "12dF",
        ] {
            let d = dist(src);
            for (v, p) in d.outcomes() {
                assert!(p.numer().gcd(p.denom()).is_one(), "{src}: {v} has {p}");
                assert_eq!(p, BigRational::new(p.numer().clone(), p.denom().clone()));
            }
            let c = d.capped();
            assert!(c.numer().gcd(c.denom()).is_one(), "{src}: capped {c}");
            assert_eq!(total_probability(&d), int(1), "{src}");
            // the mean, recomputed the slow way
            let mean: BigRational = d.outcomes().iter().map(|(v, p)| v * p).sum();
            assert_eq!(d.mean(), mean, "{src}");
            assert!(d.mean().numer().gcd(d.mean().denom()).is_one(), "{src}");
        }
    }

    #[test]
    fn sums_spanning_all_of_i64_stay_exact() {
        // The result runs from i64::MIN to i64::MAX: 2^64 cells, which must not wrap to a tiny array.
        let d = dist("(-9223372036854775807-1)*(1d2-1) + 9223372036854775807*(1d2-1)");
        let want: Vec<_> = [i64::MIN, -1, 0, i64::MAX]
            .into_iter()
            .map(|v| (int(v), q(1, 4)))
            .collect();
        assert_eq!(d.outcomes(), want);
        // and one step past i64 goes through exact rationals
        let d = dist("9223372036854775807*(1d2) + 9223372036854775807");
        assert_eq!(d.max(), int(i64::MAX) * int(3));
        assert_eq!(d.len(), 2);
    }

    #[test]
    fn factorisation_helpers() {
        assert_eq!(factorize(1), vec![]);
        assert_eq!(factorize(100), vec![(2, 2), (5, 2)]);
        assert_eq!(factorize(9973), vec![(9973, 1)]);
        assert_eq!(factorize(10000), vec![(2, 4), (5, 4)]);
        assert_eq!(
            merge(&vec![(2, 1), (7, 2)], &vec![(3, 1), (7, 1)]),
            vec![(2, 1), (3, 1), (7, 3)]
        );
        assert_eq!(chunk_power(3), (3u64.pow(40), 40));
        // 3^100 * 7 / (3^120 * 2^5)  ->  7 / (3^20 * 32)
        let num = BigUint::from(3u32).pow(100) * 7u32;
        let den = BigUint::from(3u32).pow(120) * 32u32;
        let (n, d) = lowest_terms(&num, &den, &[(2, 5), (3, 120)]);
        assert_eq!(
            (n, d),
            (BigUint::from(7u32), BigUint::from(3u32).pow(20) * 32u32)
        );
    }

    #[test]
    fn ranges_by_interval_arithmetic() {
        let r = |src: &str| range(parse(src).unwrap().root());
        assert_eq!(r("3d6"), Some((int(3), int(18))));
        assert_eq!(r("4d6kh3-2"), Some((int(1), int(16))));
        assert_eq!(r("1d6!"), Some((int(1), int(126))));
        assert_eq!(r("5d6cs>=6"), Some((int(0), int(5))));
        assert_eq!(r("-(4dF)*2"), Some((int(-8), int(8))));
        assert_eq!(r("1d6/(1d2-1)"), None);
        assert_eq!(r("12/(1d3)"), Some((int(4), int(12))));
    }

    #[test]
    fn every_small_keep_drop_and_count_matches_brute_force() {
        let cmps = ["", "cs>=3", "cs<2"];
        for n in 1..=4usize {
            for sides in [2i64, 3, 4, 6] {
                let faces: Vec<i64> = (1..=sides).collect();
                for (name, highest, drop) in [
                    ("kh", true, false),
                    ("kl", false, false),
                    ("dh", false, true),
                    ("dl", true, true),
                ] {
                    for count in 0..=n {
                        let keep = if drop { n - count } else { count };
                        for cmp in cmps {
                            let src = format!("{n}d{sides}{name}{count}{cmp}");
                            let want = brute(n, &faces, |r| {
                                let mut v = r.to_vec();
                                v.sort_unstable();
                                if highest {
                                    v.reverse();
                                }
                                let kept = &v[..keep];
                                match cmp {
                                    "" => kept.iter().sum(),
                                    "cs>=3" => kept.iter().filter(|&&x| x >= 3).count() as i64,
                                    _ => kept.iter().filter(|&&x| x < 2).count() as i64,
                                }
                            });
                            assert_eq!(dist(&src).outcomes(), want, "{src}");
                        }
                    }
                }
            }
        }
    }

    /// One capped exploding die, enumerated link by link, independently of `die_faces`.
    fn exploding_die(sides: i64) -> Vec<(i64, BigRational)> {
        let mut out = Vec::new();
        let mut reach = int(1); // probability of reaching this link
        let mut base = 0;
        for extra in 0..=EXPLODE_CAP {
            for face in 1..=sides {
                let p = &reach * q(1, sides);
                if face < sides || extra == EXPLODE_CAP {
                    out.push((base + face, p));
                }
            }
            reach *= q(1, sides);
            base += sides;
        }
        out
    }

    /// One exploding die's chains with the cap's truncation: (the faces rolled, probability).
    fn chains(sides: i64) -> Vec<(Vec<i64>, BigRational)> {
        let mut out = Vec::new();
        for m in 0..=i64::from(EXPLODE_CAP) {
            let p = BigRational::new(BigInt::one(), BigInt::from(sides).pow(m as u32 + 1));
            for r in 1..sides {
                let mut faces = vec![sides; m as usize];
                faces.push(r);
                out.push((faces, p.clone()));
            }
        }
        let cut = BigRational::new(BigInt::one(), BigInt::from(sides).pow(EXPLODE_CAP + 1));
        out.push((vec![sides; EXPLODE_CAP as usize + 1], cut));
        out
    }

    /// Every combination of `n` chains, every roll a die of the pool, kept and counted by brute force.
    fn pool_brute(
        n: usize,
        sides: i64,
        pick: &dyn Fn(&mut Vec<i64>) -> Vec<i64>,
        cs: Option<i64>,
    ) -> Vec<(BigRational, BigRational)> {
        let one = chains(sides);
        let mut want: BTreeMap<i64, BigRational> = BTreeMap::new();
        let mut idx = vec![0usize; n];
        loop {
            let mut pool = Vec::new();
            let mut p = int(1);
            for &i in &idx {
                pool.extend_from_slice(&one[i].0);
                p *= &one[i].1;
            }
            let kept = pick(&mut pool);
            let v = match cs {
                Some(t) => kept.iter().filter(|&&x| x >= t).count() as i64,
                None => kept.iter().sum(),
            };
            *want.entry(v).or_insert_with(BigRational::zero) += p;
            let mut d = 0;
            loop {
                if d == n {
                    return want.into_iter().map(|(v, p)| (int(v), p)).collect();
                }
                idx[d] += 1;
                if idx[d] < one.len() {
                    break;
                }
                idx[d] = 0;
                d += 1;
            }
        }
    }

    #[test]
    fn separate_explosions_match_pool_enumeration() {
        let high = |k: usize| {
            move |p: &mut Vec<i64>| {
                p.sort_unstable_by(|a, b| b.cmp(a));
                p[..k.min(p.len())].to_vec()
            }
        };
        let low = |k: usize| {
            move |p: &mut Vec<i64>| {
                p.sort_unstable();
                p[..k.min(p.len())].to_vec()
            }
        };
        let drop_low = |k: usize| {
            move |p: &mut Vec<i64>| {
                p.sort_unstable();
                p[k.min(p.len())..].to_vec()
            }
        };
        let drop_high = |k: usize| {
            move |p: &mut Vec<i64>| {
                p.sort_unstable_by(|a, b| b.cmp(a));
                p[k.min(p.len())..].to_vec()
            }
        };
        let all = |p: &mut Vec<i64>| p.clone();
        type Keep = Box<dyn Fn(&mut Vec<i64>) -> Vec<i64>>;
        let cases: Vec<(&str, usize, i64, Keep, Option<i64>)> = vec![
            ("2d4!kh1", 2, 4, Box::new(high(1)), None),
            ("2d4!kh2", 2, 4, Box::new(high(2)), None),
            ("2d4!kl1", 2, 4, Box::new(low(1)), None),
            ("2d4!kl2", 2, 4, Box::new(low(2)), None),
            ("2d4!dl1", 2, 4, Box::new(drop_low(1)), None),
            ("2d4!dh1", 2, 4, Box::new(drop_high(1)), None),
            ("2d4!dh2", 2, 4, Box::new(drop_high(2)), None),
            ("2d4!cs>=4", 2, 4, Box::new(all), Some(4)),
            ("2d4!cs>=3", 2, 4, Box::new(all), Some(3)),
            ("2d4!kh1cs>=3", 2, 4, Box::new(high(1)), Some(3)),
            ("2d4!dl1cs>=4", 2, 4, Box::new(drop_low(1)), Some(4)),
            ("2d2!kl1", 2, 2, Box::new(low(1)), None),
            ("2d2!dl1", 2, 2, Box::new(drop_low(1)), None),
            ("3d3!kh2", 3, 3, Box::new(high(2)), None),
            ("3d3!kl2", 3, 3, Box::new(low(2)), None),
            ("3d3!dl1", 3, 3, Box::new(drop_low(1)), None),
            ("3d3!dh2", 3, 3, Box::new(drop_high(2)), None),
            ("3d3!kh2cs>=3", 3, 3, Box::new(high(2)), Some(3)),
        ];
        for (src, n, sides, pick, cs) in cases {
            let want = pool_brute(n, sides, &*pick, cs);
            let got = dist(src);
            assert_eq!(got.outcomes(), want, "{src}");
            assert_eq!(total_probability(&got), int(1), "{src}");
        }
    }

    #[test]
    fn compounding_keep_matches_pairwise_enumeration() {
        let die = exploding_die(4);
        for (src, keep_high, cs) in [
            ("2d4!!kh1", Some(true), None),
            ("2d4!!kl1", Some(false), None),
            ("2d4!!", None, None),
            ("2d4!", None, None),
            ("2d4!!kh1cs>=5", Some(true), Some(5)),
        ] {
            let mut want: BTreeMap<i64, BigRational> = BTreeMap::new();
            for (a, pa) in &die {
                for (b, pb) in &die {
                    let kept: Vec<i64> = match keep_high {
                        Some(true) => vec![*a.max(b)],
                        Some(false) => vec![*a.min(b)],
                        None => vec![*a, *b],
                    };
                    let v = match cs {
                        Some(t) => kept.iter().filter(|&&x| x >= t).count() as i64,
                        None => kept.iter().sum(),
                    };
                    *want.entry(v).or_insert_with(BigRational::zero) += pa * pb;
                }
            }
            let want: Vec<_> = want.into_iter().map(|(v, p)| (int(v), p)).collect();
            assert_eq!(dist(src).outcomes(), want, "{src}");
        }
    }
}
