//! What `chase odds` answers: each ending's chance and the chase's length, exact or simulated.

use blockprint_dice::{approx, fraction};
use num_traits::{ToPrimitive, Zero};
use serde::{Deserialize, Serialize};

use crate::model::{LIMIT_ENDING, P, Policy, Ruling, SystemInfo, Unit};

/// How the numbers were found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum Method {
    /// An exact computation over `states` distinct states.
    Exact { states: usize },
    /// A seeded simulation: `runs` chases from `seed`; each chance carries a 99 % interval.
    Simulated {
        runs: u64,
        seed: u64,
        /// Why not exact: "more than 60000 distinct states".
        reason: String,
    },
}

/// One ending's chance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EndingOdds {
    pub id: String,
    pub label: String,
    /// Exact fraction ("3125/7776"); absent when simulated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fraction: Option<String>,
    /// Percent, rounded to 3 decimals.
    pub percent: f64,
    /// The 99 % interval in percent (Wilson score); only when simulated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<(f64, f64)>,
}

/// How long chases last, in the system's unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Length {
    pub unit: Unit,
    /// Rounded to 3 decimals.
    pub mean: f64,
    /// Exact mean ("37/6"); absent when simulated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_fraction: Option<String>,
    /// The smallest length with at least half the chases over by then.
    pub median: u64,
    /// The smallest length with at least 90 % of the chases over by then.
    pub p90: u64,
    /// The longest a chase can run (the unit limit).
    pub limit: u64,
    /// (length, percent) for every length with a nonzero chance.
    pub distribution: Vec<(u64, f64)>,
}

/// The answer of `chase odds`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Odds {
    pub system: String,
    pub system_name: String,
    pub policy: Policy,
    #[serde(flatten)]
    pub method: Method,
    pub endings: Vec<EndingOdds>,
    pub length: Length,
    pub rulings: Vec<Ruling>,
    /// Exact probabilities by ending (same order as `endings`), kept for callers; not in the JSON.
    #[serde(skip)]
    pub exact: Option<Vec<P>>,
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn percent(p: &P) -> f64 {
    // approx rounds to 5 decimals: 3 decimals of a percent.
    round3(approx(p) * 100.0)
}

/// The ending list with the framework's "called off" appended.
pub fn all_endings(info: &SystemInfo) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = info
        .endings
        .iter()
        .map(|e| (e.id.clone(), e.label.clone()))
        .collect();
    v.push((
        LIMIT_ENDING.into(),
        format!("Called off: still running at the {} limit", info.unit.one),
    ));
    v
}

impl Odds {
    /// From exact masses: `ended[e][t]` is the chance of ending `e` (the last index: called off) after
    /// `t` units; `limit` is the system's unit limit.
    pub fn from_exact(
        info: &SystemInfo,
        policy: usize,
        ended: Vec<Vec<P>>,
        method: Method,
        limit: u64,
    ) -> Odds {
        let names = all_endings(info);
        let totals: Vec<P> = ended
            .iter()
            .map(|row| row.iter().fold(P::zero(), |a, b| a + b))
            .collect();
        let len = ended.iter().map(Vec::len).max().unwrap_or(0);
        let mut by_len = vec![P::zero(); len];
        for row in &ended {
            for (t, p) in row.iter().enumerate() {
                by_len[t] += p;
            }
        }
        let mean = by_len
            .iter()
            .enumerate()
            .fold(P::zero(), |a, (t, p)| a + p * P::from_integer(t.into()));
        let mut cum = Vec::with_capacity(by_len.len());
        let mut run = P::zero();
        for p in &by_len {
            run += p;
            cum.push(run.clone());
        }
        let (median, p90) = quantiles(
            |t, num, den| cum[t] >= P::new(num.into(), den.into()),
            cum.len(),
        );
        let endings = names
            .into_iter()
            .zip(&totals)
            .filter(|((id, _), p)| id != LIMIT_ENDING || !p.is_zero())
            .map(|((id, label), p)| EndingOdds {
                id,
                label,
                fraction: Some(fraction(p)),
                percent: percent(p),
                interval: None,
            })
            .collect();
        let length = Length {
            unit: info.unit.clone(),
            mean: round3(mean.to_f64().unwrap_or(f64::NAN)),
            mean_fraction: Some(fraction(&mean)),
            median,
            p90,
            limit,
            distribution: by_len
                .iter()
                .enumerate()
                .filter(|(_, p)| !p.is_zero())
                .map(|(t, p)| (t as u64, percent(p)))
                .collect(),
        };
        Odds::assemble(info, policy, method, endings, length, Some(totals))
    }

    /// From counts: `counts[e][t]` chases ended with `e` after `t` units, out of `runs`.
    pub fn from_counts(
        info: &SystemInfo,
        policy: usize,
        counts: Vec<Vec<u64>>,
        runs: u64,
        method: Method,
        limit: u64,
    ) -> Odds {
        let names = all_endings(info);
        let n = runs as f64;
        let len = counts.iter().map(Vec::len).max().unwrap_or(0);
        let mut by_len = vec![0u64; len];
        for row in &counts {
            for (t, c) in row.iter().enumerate() {
                by_len[t] += c;
            }
        }
        let mean = by_len
            .iter()
            .enumerate()
            .map(|(t, &c)| t as f64 * c as f64)
            .sum::<f64>()
            / n;
        let mut cum = Vec::with_capacity(by_len.len());
        let mut run = 0u64;
        for &c in &by_len {
            run += c;
            cum.push(run);
        }
        // In integers: run / runs >= num / den.
        let (median, p90) = quantiles(
            |t, num, den| {
                u128::from(cum[t]) * u128::from(den) >= u128::from(runs) * u128::from(num)
            },
            cum.len(),
        );
        let endings = names
            .into_iter()
            .zip(&counts)
            .map(|((id, label), row)| (id, label, row.iter().sum::<u64>()))
            .filter(|(id, _, k)| id != LIMIT_ENDING || *k > 0)
            .map(|(id, label, k)| {
                let (lo, hi) = wilson(k, runs);
                EndingOdds {
                    id,
                    label,
                    fraction: None,
                    percent: round3(k as f64 / n * 100.0),
                    interval: Some((round3(lo * 100.0), round3(hi * 100.0))),
                }
            })
            .collect();
        let length = Length {
            unit: info.unit.clone(),
            mean: round3(mean),
            mean_fraction: None,
            median,
            p90,
            limit,
            distribution: by_len
                .iter()
                .enumerate()
                .filter(|(_, c)| **c > 0)
                .map(|(t, &c)| (t as u64, round3(c as f64 / n * 100.0)))
                .collect(),
        };
        Odds::assemble(info, policy, method, endings, length, None)
    }

    /// The answer both ways of finding it give: the endings and the length, with the system's names,
    /// the policy and the house rulings.
    fn assemble(
        info: &SystemInfo,
        policy: usize,
        method: Method,
        endings: Vec<EndingOdds>,
        length: Length,
        exact: Option<Vec<P>>,
    ) -> Odds {
        Odds {
            system: info.id.clone(),
            system_name: info.name.clone(),
            policy: info.policies[policy].clone(),
            method,
            endings,
            length,
            rulings: info.rulings.clone(),
            exact,
        }
    }

    /// The percent of ending `id` (0 when it is not listed).
    pub fn percent_of(&self, id: &str) -> f64 {
        self.endings
            .iter()
            .find(|e| e.id == id)
            .map_or(0.0, |e| e.percent)
    }

    pub fn is_exact(&self) -> bool {
        matches!(self.method, Method::Exact { .. })
    }
}

/// The median and 90th percentile of a length distribution given as its running totals: the first
/// lengths whose running total reaches one half and nine tenths.
fn quantiles(cumulative_reaches: impl Fn(usize, u32, u32) -> bool, len: usize) -> (u64, u64) {
    let first = |num, den| {
        (0..len)
            .find(|&t| cumulative_reaches(t, num, den))
            .map_or(len.saturating_sub(1) as u64, |t| t as u64)
    };
    (first(1, 2), first(9, 10))
}

/// The Wilson score interval at 99 % for `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 2.575_829_303_548_901_f64;
    let n = n as f64;
    let p = k as f64 / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / d;
    ((c - h).max(0.0), (c + h).min(1.0))
}
