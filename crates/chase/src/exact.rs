//! The exact solver: every unit's branches are enumerated (the system's own `step`, re-run once per
//! combination of chance results), identical next states are merged, and the probability mass is carried
//! forward unit by unit until every chase has ended or reached the system's unit limit. Exact fractions
//! throughout.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, Zero};

use crate::budget::{Budget, Meter, Stop};
use crate::model::{Chance, Check, P, System};
use crate::odds::{Method, Odds};

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
    /// Take the next option of a chance point of `n` options, of which `zero(k)` have no chance (the
    /// enumerator works on the others only); the caller multiplies [`Enumerator::prob`] by its weight.
    fn choose(&mut self, n: usize, zero: impl Fn(usize) -> bool) -> usize {
        let i = self.seen.len();
        let chosen = self.path.get(i).copied().unwrap_or(0);
        let mut live = 0;
        let mut k = usize::MAX;
        for j in 0..n {
            if !zero(j) {
                if live == chosen {
                    k = j;
                }
                live += 1;
            }
        }
        self.seen.push((chosen, live));
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

/// A check's outcomes, shared.
type Outcomes = Rc<Vec<(P, i64)>>;

thread_local! {
    /// Every check's outcomes, by its description (which names the check: `chase play`'s replay
    /// relies on it too), worked out once per thread rather than at every chance point.
    static OUTCOMES: RefCell<HashMap<String, Outcomes>> = RefCell::new(HashMap::new());
}

/// `check`'s outcomes, from the thread's cache.
fn outcomes_of(check: &dyn Check) -> Outcomes {
    let key = check.describe();
    OUTCOMES.with(|c| {
        let mut c = c.borrow_mut();
        if let Some(o) = c.get(&key) {
            return o.clone();
        }
        if c.len() >= 4096 {
            c.clear();
        }
        let o = Rc::new(check.outcomes());
        c.insert(key, o.clone());
        o
    })
}

/// The outcome values of a roll, enumerated.
struct RollChance<'a> {
    e: &'a mut Enumerator,
}

impl Chance for RollChance<'_> {
    fn roll(&mut self, _who: &str, _what: &str, check: &dyn Check) -> i64 {
        let outs = outcomes_of(check);
        let k = self.e.choose(outs.len(), |j| outs[j].0.is_zero());
        self.e.prob *= &outs[k].0;
        outs[k].1
    }

    fn draw(&mut self, _who: &str, _what: &str, n: usize) -> usize {
        let k = self.e.choose(n, |_| false);
        self.e.prob /= P::from_integer(n.into());
        k
    }

    fn pick(&mut self, _what: &str, weights: &[P]) -> usize {
        let k = self.e.choose(weights.len(), |j| weights[j].is_zero());
        self.e.prob *= &weights[k];
        k
    }

    fn draw_grouped(&mut self, _who: &str, _what: &str, groups: &[usize]) -> (usize, usize) {
        let n: usize = groups.iter().sum();
        let k = self.e.choose(groups.len(), |j| groups[j] == 0);
        self.e.prob *= P::new(groups[k].into(), n.into());
        (k, 0)
    }

    fn note(&mut self, _line: &dyn Fn() -> String) {}
}

/// Every result of `f` with its exact probability; equal results are merged, in first-seen order. Each
/// run of `f` costs the meter [`RUN_COST`] units for itself and as many for each chance point it met.
pub fn enumerate<T: Clone + Eq + std::hash::Hash>(
    mut f: impl FnMut(&mut dyn Chance) -> T,
    meter: &mut Meter,
) -> Result<Vec<(P, T)>, Stop> {
    let mut e = Enumerator {
        path: Vec::new(),
        seen: Vec::new(),
        prob: P::one(),
    };
    let mut out: Vec<(P, T)> = Vec::new();
    let mut at: HashMap<T, usize> = HashMap::new();
    loop {
        let v = f(&mut RollChance { e: &mut e });
        meter.spend(RUN_COST * (1 + e.seen.len() as u64))?;
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

/// Work units of one run of a unit's rules, and of each chance point in it (re-running the system's own
/// `step`, with its bookkeeping and exact chances: 0.2 to 1.5 µs measured, against about 5 ns for a unit
/// of the cheapest work counted, one machine word of a mass carried forward).
pub const RUN_COST: u64 = 100;
/// Work units of each branch the solver keeps (memory, hashing).
pub const KEEP_COST: u64 = 20;

/// Machine words of a whole number: what adding or multiplying by it costs, give or take.
fn words(n: &BigUint) -> u64 {
    n.bits() / 64 + 1
}

/// The exact odds of `sys` under policy `policy`, or why they are out of reach (past `budget`, or
/// cancelled).
///
/// The mass of every state is carried as a whole numerator over one denominator per unit (the previous
/// unit's times the least common multiple of the branch denominators met in the unit), so carrying it
/// forward is whole-number multiplication and addition: no fraction is reduced (a gcd of numbers that
/// grow to hundreds of digits, which dominated the solve) until the answer is read out, once per ending
/// and length.
pub fn solve<S: System>(sys: &S, policy: usize, budget: &Budget) -> Result<Odds, Stop> {
    if let Some(reason) = sys.too_big() {
        return Err(Stop::TooBig(TooBig { reason }));
    }
    let info = sys.info();
    let n_end = info.endings.len();
    let mut meter = budget.exact_meter();
    sys.prepare(policy, &mut meter)?;
    let start = over_common(enumerate(|c| sys.canonical(sys.start(c)), &mut meter)?);
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
                if cache.len() >= budget.max_states {
                    return Err(Stop::TooBig(TooBig {
                        reason: format!("more than {} distinct states", budget.max_states),
                    }));
                }
                let branches = enumerate(|c| sys.canonical(sys.step(s, policy, c)), &mut meter)?;
                // What the cache keeps.
                meter.spend(KEEP_COST * branches.len() as u64)?;
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
            // Carrying the mass: a multiplication and an addition of numbers this long per branch.
            meter.spend(b.items.len() as u64 * words(&scale))?;
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
