//! The exact solver: every unit's branches are enumerated (the system's own `step`, re-run once per
//! combination of chance results), identical next states are merged, and the probability mass is carried
//! forward unit by unit until every chase has ended or reached the system's unit limit. Exact fractions
//! throughout.

use std::collections::HashMap;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, Zero};

use crate::model::{Chance, Check, P, System};
use crate::odds::{Method, Odds};

/// Bounds of an exact computation; beyond them it stops and says which was reached.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Distinct states whose branches are worked out.
    pub max_states: usize,
    /// Branches enumerated in all (re-runs of `step`).
    pub max_branches: u64,
}

impl Default for Limits {
    /// Measured to stay inside 1 s of CPU and 256 MB on the systems of this crate (benches/chase-odds.sh).
    fn default() -> Self {
        Limits {
            max_states: 20_000,
            max_branches: 150_000,
        }
    }
}

/// Why an exact answer was not given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooBig {
    /// "more than 60000 distinct states" / "more than 3000000 branches".
    pub reason: String,
}

/// Walks every combination of chance results of one call: the choices made so far are replayed from
/// `path`, and each new chance point takes its first option and remembers how many it had.
struct Enumerator {
    path: Vec<usize>,
    /// (chosen, options) of every chance point reached in this run.
    seen: Vec<(usize, usize)>,
    prob: P,
}

impl Enumerator {
    fn choose(&mut self, weights: Vec<P>) -> usize {
        let i = self.seen.len();
        // Options with probability 0 are skipped: the enumerator works on the nonzero ones only.
        let live: Vec<usize> = (0..weights.len())
            .filter(|&k| !weights[k].is_zero())
            .collect();
        let chosen = self.path.get(i).copied().unwrap_or(0);
        self.seen.push((chosen, live.len()));
        let k = live[chosen];
        self.prob *= &weights[k];
        k
    }

    /// Advance to the next combination; false when all have been run.
    fn advance(&mut self) -> bool {
        while let Some((chosen, n)) = self.seen.pop() {
            if chosen + 1 < n {
                self.path = self.seen.iter().map(|&(c, _)| c).collect();
                self.path.push(chosen + 1);
                self.seen.clear();
                self.prob = P::one();
                return true;
            }
        }
        false
    }
}

/// The outcome values of a roll, enumerated.
struct RollChance<'a> {
    e: &'a mut Enumerator,
}

impl Chance for RollChance<'_> {
    fn roll(&mut self, _who: &str, _what: &str, check: &dyn Check) -> i64 {
        let outs = check.outcomes();
        let k = self.e.choose(outs.iter().map(|(p, _)| p.clone()).collect());
        outs[k].1
    }

    fn draw(&mut self, _who: &str, _what: &str, n: usize) -> usize {
        let p = P::new(1.into(), n.into());
        self.e.choose(vec![p; n])
    }

    fn pick(&mut self, _what: &str, weights: &[P]) -> usize {
        self.e.choose(weights.to_vec())
    }

    fn draw_grouped(&mut self, _who: &str, _what: &str, groups: &[usize]) -> (usize, usize) {
        let n: usize = groups.iter().sum();
        let w: Vec<P> = groups.iter().map(|&g| P::new(g.into(), n.into())).collect();
        (self.e.choose(w), 0)
    }

    fn note(&mut self, _line: &dyn Fn() -> String) {}
}

/// Every result of `f` with its exact probability; equal results are merged, in first-seen order.
pub fn enumerate<T: Clone + Eq + std::hash::Hash>(
    mut f: impl FnMut(&mut dyn Chance) -> T,
    budget: &mut u64,
) -> Result<Vec<(P, T)>, TooBig> {
    let mut e = Enumerator {
        path: Vec::new(),
        seen: Vec::new(),
        prob: P::one(),
    };
    let mut out: Vec<(P, T)> = Vec::new();
    let mut at: HashMap<T, usize> = HashMap::new();
    loop {
        if *budget == 0 {
            return Err(TooBig {
                reason: "the branch budget ran out".into(),
            });
        }
        *budget -= 1;
        let v = f(&mut RollChance { e: &mut e });
        match at.get(&v) {
            Some(&i) => out[i].0 += &e.prob,
            None => {
                at.insert(v.clone(), out.len());
                out.push((e.prob.clone(), v));
            }
        }
        if !e.advance() {
            return Ok(out);
        }
    }
}

/// One state's branches over a common denominator: `items[i].0 / den` is the chance of `items[i].1`.
struct Branches<T> {
    den: BigUint,
    items: Vec<(BigUint, T)>,
}

/// Exact chances as whole numerators over their least common denominator.
fn over_common<T>(v: Vec<(P, T)>) -> Branches<T> {
    let den = v
        .iter()
        .fold(BigUint::one(), |l, (p, _)| l.lcm(p.denom().magnitude()));
    let items = v
        .into_iter()
        .map(|(p, t)| (p.numer().magnitude() * (&den / p.denom().magnitude()), t))
        .collect();
    Branches { den, items }
}

/// The exact odds of `sys` under policy `policy`, or why they are out of reach.
///
/// The mass of every state is carried as a whole numerator over one denominator per unit (the previous
/// unit's times the least common multiple of the branch denominators met in the unit), so carrying it
/// forward is whole-number multiplication and addition: no fraction is reduced (a gcd of numbers that
/// grow to hundreds of digits, which dominated the solve) until the answer is read out, once per ending
/// and length.
pub fn solve<S: System>(sys: &S, policy: usize, limits: Limits) -> Result<Odds, TooBig> {
    if let Some(reason) = sys.too_big() {
        return Err(TooBig { reason });
    }
    let info = sys.info();
    let n_end = info.endings.len();
    let mut budget = limits.max_branches;
    let too_many_branches = |_| TooBig {
        reason: format!("more than {} branches to enumerate", limits.max_branches),
    };
    let start = over_common(
        enumerate(|c| sys.canonical(sys.start(c)), &mut budget).map_err(too_many_branches)?,
    );
    // ending index (n_end = called off) -> length -> numerator over dens[length]
    let mut ended: Vec<Vec<BigUint>> = vec![Vec::new(); n_end + 1];
    let mut dens: Vec<BigUint> = Vec::new();
    let add = |ended: &mut Vec<Vec<BigUint>>, e: usize, t: usize, m: BigUint| {
        let row = &mut ended[e];
        if row.len() <= t {
            row.resize(t + 1, BigUint::zero());
        }
        row[t] += m;
    };
    let mut cache: HashMap<S::State, Branches<S::State>> = HashMap::new();
    let mut den = start.den;
    let mut now: Vec<(BigUint, S::State)> = start.items;
    let max = sys.max_units() as usize;
    for t in 0..=max {
        // Every live state's branches (enumerated once per state, in the order the states come), and
        // the least common multiple of their denominators.
        let mut unit_dens: Vec<&BigUint> = Vec::new();
        for (_, s) in &now {
            if t == max || sys.ending(s).is_some() {
                continue;
            }
            if !cache.contains_key(s) {
                if cache.len() >= limits.max_states {
                    return Err(TooBig {
                        reason: format!("more than {} distinct states", limits.max_states),
                    });
                }
                let branches = enumerate(|c| sys.canonical(sys.step(s, policy, c)), &mut budget)
                    .map_err(too_many_branches)?;
                cache.insert(s.clone(), over_common(branches));
            }
        }
        for (_, s) in &now {
            if let Some(b) = cache.get(s).filter(|_| t < max && sys.ending(s).is_none())
                && !unit_dens.contains(&&b.den)
            {
                unit_dens.push(&b.den);
            }
        }
        let lcm = unit_dens.iter().fold(BigUint::one(), |l, d| l.lcm(d));
        dens.push(den.clone());
        let mut next: Vec<(BigUint, S::State)> = Vec::new();
        let mut at: HashMap<S::State, usize> = HashMap::new();
        for (m, s) in now {
            if let Some(e) = sys.ending(&s) {
                add(&mut ended, e, t, m);
                continue;
            }
            if t == max {
                add(&mut ended, n_end, t, m);
                continue;
            }
            let b = &cache[&s];
            let scale = m * (&lcm / &b.den);
            for (w, s2) in &b.items {
                let mass = &scale * w;
                match at.get(s2) {
                    Some(&i) => next[i].0 += mass,
                    None => {
                        at.insert(s2.clone(), next.len());
                        next.push((mass, s2.clone()));
                    }
                }
            }
        }
        now = next;
        den *= lcm;
        if now.is_empty() {
            break;
        }
    }
    let ended: Vec<Vec<P>> = ended
        .into_iter()
        .map(|row| {
            row.into_iter()
                .zip(&dens)
                .map(|(m, d)| P::new(BigInt::from(m), BigInt::from(d.clone())))
                .collect()
        })
        .collect();
    Ok(Odds::from_exact(
        &info,
        policy,
        ended,
        Method::Exact {
            states: cache.len(),
        },
        max as u64,
    ))
}
