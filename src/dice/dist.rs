//! A parsed dice syntax tree in; its exact probability distribution ([`Dist`]) or a [`DistError`] out.
//!
//! Everything is exact: every distribution is a list of values with integer weights over one common
//! integer total (`BigUint`), and values are `BigRational`s. Nothing is sampled.
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
//! Work is bounded: a distribution may have at most [`MAX_SUPPORT`] distinct values and the total
//! arithmetic work is capped by a budget, beyond which a [`DistError`] is returned.

use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;

use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::EXPLODE_CAP;
use super::parse::{BinOp, DiceTerm, Node, NodeKind, Sides};

/// Most distinct values a distribution (or one intermediate step) may have.
pub const MAX_SUPPORT: usize = 1_000_000;
/// Work budget for one distribution, in big-integer limb operations (roughly a few seconds at worst).
const WORK_LIMIT: u64 = 300_000_000;
/// Most intermediate states the keep/drop programme may hold at once.
const MAX_STATES: usize = 4_000_000;

/// Why a distribution (or a roll) could not be produced.
#[derive(Debug, Clone, PartialEq)]
pub struct DistError {
    pub message: String,
}

impl fmt::Display for DistError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DistError {}

fn dist_err(message: String) -> DistError {
    DistError { message }
}

/// An exact, finite probability distribution over rational values.
#[derive(Debug, Clone)]
pub struct Dist {
    /// Ascending by value, every weight nonzero, values distinct.
    entries: Vec<(BigRational, BigUint)>,
    /// Sum of all weights.
    total: BigUint,
    /// Probability that some exploding die was cut off by the cap.
    capped: BigRational,
}

/// Two distributions are equal when they give every value the same probability and agree on the
/// capped probability (the weights themselves may be scaled differently).
impl PartialEq for Dist {
    fn eq(&self, other: &Self) -> bool {
        self.capped == other.capped && self.outcomes() == other.outcomes()
    }
}

fn ratio(num: &BigUint, den: &BigUint) -> BigRational {
    BigRational::new(BigInt::from(num.clone()), BigInt::from(den.clone()))
}

fn int(v: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(v))
}

impl Dist {
    fn point(value: BigRational) -> Dist {
        Dist {
            entries: vec![(value, BigUint::one())],
            total: BigUint::one(),
            capped: BigRational::zero(),
        }
    }

    /// Every possible value with its probability, ascending by value; probabilities are reduced and nonzero.
    pub fn outcomes(&self) -> Vec<(BigRational, BigRational)> {
        self.entries
            .iter()
            .map(|(v, w)| (v.clone(), ratio(w, &self.total)))
            .collect()
    }

    /// Probability of exactly `value` (0 when it cannot occur).
    pub fn probability(&self, value: &BigRational) -> BigRational {
        match self.entries.binary_search_by(|(v, _)| v.cmp(value)) {
            Ok(i) => ratio(&self.entries[i].1, &self.total),
            Err(_) => BigRational::zero(),
        }
    }

    /// Expected value.
    pub fn mean(&self) -> BigRational {
        let mut sum = BigRational::zero();
        for (v, w) in &self.entries {
            sum += v * BigRational::from_integer(BigInt::from(w.clone()));
        }
        sum / BigRational::from_integer(BigInt::from(self.total.clone()))
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
        self.capped.clone()
    }

    /// The outcomes as `i64` values, when every value is an integer that fits.
    pub fn integer_outcomes(&self) -> Option<Vec<(i64, BigRational)>> {
        self.entries
            .iter()
            .map(|(v, w)| {
                if !v.is_integer() {
                    return None;
                }
                Some((v.to_integer().to_i64()?, ratio(w, &self.total)))
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
            total: self.total,
            capped: self.capped,
        }
    }
}

/// Arithmetic budget shared by every step of one distribution.
struct Budget {
    left: u64,
}

impl Budget {
    fn spend(&mut self, units: u64, what: &str) -> Result<(), DistError> {
        if units > self.left {
            self.left = 0;
            return Err(dist_err(format!(
                "distribution of `{what}` is too expensive to compute exactly"
            )));
        }
        self.left -= units;
        Ok(())
    }
}

/// Rough cost of one operation on a number of this size, in 64-bit limbs.
fn limbs(x: &BigUint) -> u64 {
    x.bits() / 64 + 1
}

fn too_wide(what: &str) -> DistError {
    dist_err(format!(
        "distribution of `{what}` would have more than {MAX_SUPPORT} distinct values"
    ))
}

/// Exact distribution of a whole syntax tree; `src` is the text the spans point into.
pub(crate) fn distribution_of(root: &Node, src: &str) -> Result<Dist, DistError> {
    let mut budget = Budget { left: WORK_LIMIT };
    eval(root, src, &mut budget)
}

fn eval(node: &Node, src: &str, budget: &mut Budget) -> Result<Dist, DistError> {
    let text = src.get(node.span.start..node.span.end).unwrap_or("");
    match &node.kind {
        NodeKind::Int(n) => Ok(Dist::point(int(*n))),
        NodeKind::Dice(term) => term_dist(term, text, budget),
        NodeKind::Group(inner) => eval(inner, src, budget),
        NodeKind::Neg(inner) => Ok(eval(inner, src, budget)?.negate()),
        NodeKind::Binary { op, lhs, rhs } => {
            let a = eval(lhs, src, budget)?;
            let b = eval(rhs, src, budget)?;
            if *op == BinOp::Div && !b.probability(&BigRational::zero()).is_zero() {
                let divisor = src.get(rhs.span.start..rhs.span.end).unwrap_or("");
                return Err(dist_err(format!(
                    "division by zero: the divisor `{divisor}` can be 0"
                )));
            }
            combine(&a, &b, *op, text, budget)
        }
    }
}

/// Probability that at least one of two independent parts hit the explode cap.
fn either_capped(a: &BigRational, b: &BigRational) -> BigRational {
    let one = BigRational::one();
    &one - (&one - a) * (&one - b)
}

/// Distribution of `a op b` for independent `a` and `b`.
fn combine(
    a: &Dist,
    b: &Dist,
    op: BinOp,
    what: &str,
    budget: &mut Budget,
) -> Result<Dist, DistError> {
    let pairs = (a.entries.len() as u64).saturating_mul(b.entries.len() as u64);
    budget.spend(
        pairs.saturating_mul(limbs(&a.total) + limbs(&b.total)),
        what,
    )?;
    let total = &a.total * &b.total;
    let capped = either_capped(&a.capped, &b.capped);

    // Integer values that fit `i64` go through a cheaper keyed map; anything else (or overflow) uses rationals.
    if op != BinOp::Div {
        let small = |d: &Dist| -> Option<Vec<i64>> {
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
        };
        if let (Some(xa), Some(xb)) = (small(a), small(b)) {
            let apply = |x: i64, y: i64| match op {
                BinOp::Add => x.checked_add(y),
                BinOp::Sub => x.checked_sub(y),
                _ => x.checked_mul(y),
            };
            let keyed = pair_up(&xa, &xb, a, b, apply, what)?;
            if let Some(map) = keyed {
                let entries = sorted(map).into_iter().map(|(k, w)| (int(k), w)).collect();
                return Ok(Dist {
                    entries,
                    total,
                    capped,
                });
            }
        }
    }
    let xa: Vec<BigRational> = a.entries.iter().map(|(v, _)| v.clone()).collect();
    let xb: Vec<BigRational> = b.entries.iter().map(|(v, _)| v.clone()).collect();
    let apply = |x: BigRational, y: BigRational| {
        Some(match op {
            BinOp::Add => x + y,
            BinOp::Sub => x - y,
            BinOp::Mul => x * y,
            BinOp::Div => x / y,
        })
    };
    let map = pair_up(&xa, &xb, a, b, apply, what)?.unwrap_or_default();
    Ok(Dist {
        entries: sorted(map),
        total,
        capped,
    })
}

/// Accumulate weights of `f(x, y)` over all pairs; `Ok(None)` when `f` reports overflow.
fn pair_up<K: Clone + Eq + Hash>(
    xa: &[K],
    xb: &[K],
    a: &Dist,
    b: &Dist,
    f: impl Fn(K, K) -> Option<K>,
    what: &str,
) -> Result<Option<HashMap<K, BigUint>>, DistError> {
    let mut map: HashMap<K, BigUint> = HashMap::new();
    for (x, (_, wx)) in xa.iter().zip(&a.entries) {
        for (y, (_, wy)) in xb.iter().zip(&b.entries) {
            let Some(v) = f(x.clone(), y.clone()) else {
                return Ok(None);
            };
            *map.entry(v).or_default() += wx * wy;
            if map.len() > MAX_SUPPORT {
                return Err(too_wide(what));
            }
        }
    }
    Ok(Some(map))
}

fn sorted<K: Ord>(map: HashMap<K, BigUint>) -> Vec<(K, BigUint)> {
    let mut v: Vec<(K, BigUint)> = map.into_iter().filter(|(_, w)| !w.is_zero()).collect();
    v.sort_by(|x, y| x.0.cmp(&y.0));
    v
}

/// Faces of one die (ascending, with weights) and the weights' total.
fn die_faces(
    term: &DiceTerm,
    what: &str,
    budget: &mut Budget,
) -> Result<(Vec<(i64, BigUint)>, BigUint), DistError> {
    match term.sides {
        Sides::Fudge => Ok((
            (-1..=1).map(|v| (v, BigUint::one())).collect(),
            BigUint::from(3u32),
        )),
        Sides::Num(s) if !term.explode || s < 2 => {
            budget.spend(u64::from(s), what)?;
            Ok((
                (1..=i64::from(s)).map(|v| (v, BigUint::one())).collect(),
                BigUint::from(s),
            ))
        }
        Sides::Num(s) => {
            // k maxima in a row then a non-maximum r: value k*s + r, probability s^-(k+1),
            // i.e. weight s^(CAP-k) over s^(CAP+1). All CAP+1 rolls at the maximum: weight 1.
            let cap = EXPLODE_CAP;
            let base = BigUint::from(s);
            let total = base.pow(cap + 1);
            budget.spend(u64::from(s) * u64::from(cap + 1) * limbs(&total), what)?;
            let s64 = i64::from(s);
            let mut faces = Vec::with_capacity((s as usize - 1) * (cap as usize + 1) + 1);
            for k in 0..=cap {
                let w = base.pow(cap - k);
                for r in 1..s64 {
                    faces.push((i64::from(k) * s64 + r, w.clone()));
                }
            }
            faces.push((i64::from(cap + 1) * s64, BigUint::one()));
            Ok((faces, total))
        }
    }
}

/// Exact distribution of one dice term with its modifiers.
fn term_dist(term: &DiceTerm, what: &str, budget: &mut Budget) -> Result<Dist, DistError> {
    let n = term.count as usize;
    let (faces, die_total) = die_faces(term, what, budget)?;
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
    let sums = if k == 0 {
        vec![(0, die_total.pow(term.count))]
    } else if k == n {
        sum_iid(&contrib, n, what, budget)?
    } else {
        let with_contrib: Vec<(i64, i64, BigUint)> = match term.success {
            None => faces.iter().map(|(v, w)| (*v, *v, w.clone())).collect(),
            Some(cmp) => faces
                .iter()
                .map(|(v, w)| (*v, i64::from(cmp.test(*v)), w.clone()))
                .collect(),
        };
        keep_dp(with_contrib, n, k, highest, what, budget)?
    };
    let total = die_total.pow(term.count);
    let capped = match term.sides {
        Sides::Num(s) if term.explode => {
            // 1 - (1 - s^-(CAP+1))^n
            let den = BigInt::from(s).pow(EXPLODE_CAP + 1);
            let keep_all =
                BigRational::new((&den - BigInt::one()).pow(term.count), den.pow(term.count));
            BigRational::one() - keep_all
        }
        _ => BigRational::zero(),
    };
    let entries = sums
        .into_iter()
        .filter(|(_, w)| !w.is_zero())
        .map(|(v, w)| (int(v), w))
        .collect();
    Ok(Dist {
        entries,
        total,
        capped,
    })
}

/// Distribution of the sum of `n` independent copies of `die` (ascending values with weights).
fn sum_iid(
    die: &[(i64, BigUint)],
    n: usize,
    what: &str,
    budget: &mut Budget,
) -> Result<Vec<(i64, BigUint)>, DistError> {
    let lo = die.iter().map(|(v, _)| *v).min().unwrap_or(0);
    let hi = die.iter().map(|(v, _)| *v).max().unwrap_or(0);
    let width = (hi - lo) as usize;
    if width.saturating_mul(n).saturating_add(1) > MAX_SUPPORT {
        return Err(too_wide(what));
    }
    let mut one_die = vec![BigUint::zero(); width + 1];
    for (v, w) in die {
        one_die[(v - lo) as usize] += w;
    }
    let uniform = one_die.iter().all(|w| w.is_one());
    let spread: Vec<(usize, &BigUint)> = one_die
        .iter()
        .enumerate()
        .filter(|(_, w)| !w.is_zero())
        .collect();
    let mut acc = one_die.clone();
    for _ in 1..n {
        let size = limbs(acc.iter().max().unwrap_or(&BigUint::zero())) + 1;
        if uniform {
            // Every face has weight 1: each new value is a window sum over the previous row.
            budget.spend((acc.len() + width + 1) as u64 * size * 2, what)?;
            let w = width + 1;
            let mut next = Vec::with_capacity(acc.len() + width);
            let mut window = BigUint::zero();
            for t in 0..acc.len() + width {
                if t < acc.len() {
                    window += &acc[t];
                }
                if t >= w {
                    window -= &acc[t - w];
                }
                next.push(window.clone());
            }
            acc = next;
        } else {
            budget.spend((acc.len() as u64) * (spread.len() as u64) * size * 2, what)?;
            let mut next = vec![BigUint::zero(); acc.len() + width];
            for (i, a) in acc.iter().enumerate() {
                if a.is_zero() {
                    continue;
                }
                for (j, w) in &spread {
                    next[i + j] += a * *w;
                }
            }
            acc = next;
        }
    }
    let base = lo * n as i64;
    Ok(acc
        .into_iter()
        .enumerate()
        .map(|(i, w)| (base + i as i64, w))
        .collect())
}

/// Keep the `k` highest (or lowest) of `n` dice and add up what the kept dice contribute.
/// `faces` holds (face value, contribution, weight); the face value decides which dice are kept.
fn keep_dp(
    mut faces: Vec<(i64, i64, BigUint)>,
    n: usize,
    k: usize,
    highest: bool,
    what: &str,
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
        return Err(too_wide(what));
    }
    if k.saturating_mul(g_range.saturating_mul(k).saturating_add(1)) > MAX_STATES {
        return Err(dist_err(format!(
            "distribution of `{what}` is too expensive to compute exactly"
        )));
    }
    // rest[i]: summed weight of the faces after i (the less preferred ones).
    let mut rest = vec![BigUint::zero(); faces.len()];
    for i in (0..faces.len().saturating_sub(1)).rev() {
        rest[i] = &rest[i + 1] + &faces[i + 1].2;
    }
    let mut rows: Vec<Option<Vec<BigUint>>> = vec![None; n + 1];
    let mut states: Vec<HashMap<i64, BigUint>> = vec![HashMap::new(); k];
    states[0].insert(0, BigUint::one());
    let mut done: HashMap<i64, BigUint> = HashMap::new();

    // Upper bound on the size of any weight in the programme: the total weight of all n dice.
    let die_total: BigUint = faces.iter().map(|f| &f.2).sum();
    let size = (die_total.bits() * n as u64) / 64 + 2;
    // Hashing and allocation cost of touching one state, in the same units.
    const TOUCH: u64 = 40;

    for (i, (_, g, w)) in faces.iter().enumerate() {
        let lowest_j = match states.iter().position(|m| !m.is_empty()) {
            Some(j) => j,
            None => break,
        };
        let max_c = n - lowest_j;
        budget.spend((max_c + n - k + 2) as u64 * size + TOUCH, what)?;
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
                budget.spend(free as u64 * (free as u64 / 64 + 1), what)?;
                rows[free] = Some(binomial_row(free));
            }
            let row = rows[free].as_deref().unwrap_or(&[]);
            budget.spend(level.len() as u64 * free as u64 * (3 * size + TOUCH), what)?;
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
    Ok(sorted(done))
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::dice::parse;

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
        assert_eq!(dist("2d6!cs>=7").probability(&int(2)), q(1, 36));
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
            assert!(r.is_err(), "{src} should be refused");
            assert!(started.elapsed().as_secs() < 20, "{src} took too long");
        }
        assert!(parse("1000d6").unwrap().distribution().is_ok());
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

    #[test]
    fn exploding_keep_matches_pairwise_enumeration() {
        let die = exploding_die(4);
        for (src, keep_high, cs) in [
            ("2d4!kh1", Some(true), None),
            ("2d4!kl1", Some(false), None),
            ("2d4!", None, None),
            ("2d4!kh1cs>=5", Some(true), Some(5)),
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
