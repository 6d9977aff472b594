//! Best play: each side's plan for a turn, worked out by value iteration over every state of the chase.

use super::*;
use crate::budget::{Cancel, Meter, Stop};

/// Round-start positions best play plans over, at most (memory: each keeps every turn's outcomes).
pub const MAX_PLANNED: usize = 20_000;

/// What a side does at hazards and barriers during one turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Plan {
    /// Bonus dice bought at each hazard, at most (keeping one movement action to move).
    pub bonus: i32,
    /// Ram barriers (a side with a vehicle only).
    pub ram: bool,
}

pub(super) const PLANS: [Plan; 6] = [
    Plan {
        bonus: 0,
        ram: false,
    },
    Plan {
        bonus: 1,
        ram: false,
    },
    Plan {
        bonus: 2,
        ram: false,
    },
    Plan {
        bonus: 0,
        ram: true,
    },
    Plan {
        bonus: 1,
        ram: true,
    },
    Plan {
        bonus: 2,
        ram: true,
    },
];

/// The best plan of the side to move, for the round-start states (first mover) and the states after the
/// first mover's turn (second mover).
#[derive(Debug, Clone, Default)]
pub struct BestPlans {
    pub(super) first: HashMap<State, Plan>,
    pub(super) second: HashMap<State, Plan>,
    /// The quarry's chance of getting away under best play (a chase called off counting as getting
    /// away), from the value iteration.
    pub value: f64,
}

impl Plan {
    /// The plan as a side can carry it out: no ramming without a vehicle.
    pub(super) fn for_runner(self, r: &Runner) -> Plan {
        Plan {
            ram: self.ram && r.build > 0,
            ..self
        }
    }
}

impl Coc {
    /// One side's turn under `plan`, every outcome with its probability (as a float: only the choice of
    /// plan rests on it; the odds themselves come from the exact solver).
    pub(super) fn turn_outcomes(
        &self,
        s: &State,
        who: Who,
        plan: Plan,
        meter: &mut Meter,
    ) -> Result<Vec<(f64, State)>, Stop> {
        Ok(crate::exact::enumerate(
            |c| {
                let mut t = s.clone();
                self.turn(&mut t, who, plan, c);
                t
            },
            meter,
        )?
        .into_iter()
        .map(|(p, t)| (num_traits::ToPrimitive::to_f64(&p).unwrap_or(0.0), t))
        .collect())
    }

    /// The plans a side can tell apart: a side without a vehicle never rams.
    pub(super) fn plans_of(&self, who: Who) -> Vec<Plan> {
        let mut v: Vec<Plan> = Vec::new();
        for p in PLANS.iter().map(|p| p.for_runner(self.runner(who))) {
            if !v.contains(&p) {
                v.push(p);
            }
        }
        v
    }

    /// Value iteration over every state any plans reach: the quarry's chance of getting away under best
    /// play on both sides, and the plans that achieve it. Every turn enumerated and every sweep of the
    /// iteration is counted on `meter`; past its limit, or cancelled, the error.
    pub(super) fn best_plans(&self, meter: &mut Meter) -> Result<BestPlans, Stop> {
        let order = if self.quarry_first() {
            [Who::Quarry, Who::Pursuer]
        } else {
            [Who::Pursuer, Who::Quarry]
        };
        let start_dist: Vec<(f64, State)> = crate::exact::enumerate(|c| self.start(c), meter)?
            .into_iter()
            .map(|(p, s)| (num_traits::ToPrimitive::to_f64(&p).unwrap_or(0.0), s))
            .collect();
        let starts: Vec<State> = start_dist.iter().map(|(_, s)| s.clone()).collect();
        // Round-start states -> per plan of the first mover, its turn's outcomes; likewise mid-round.
        type Turns = HashMap<State, Vec<(Plan, Vec<(f64, State)>)>>;
        let mut rounds: Turns = HashMap::new();
        let mut mids: Turns = HashMap::new();
        let mut todo: Vec<State> = starts.into_iter().filter(|s| s.end.is_none()).collect();
        while let Some(s) = todo.pop() {
            if rounds.contains_key(&s) {
                continue;
            }
            if rounds.len() >= MAX_PLANNED {
                return Err(Stop::TooBig(TooBig {
                    reason: format!(
                        "best play planned over more than {MAX_PLANNED} positions at the start of a round"
                    ),
                }));
            }
            let mut per = Vec::new();
            for plan in self.plans_of(order[0]) {
                let outs = self.turn_outcomes(&s, order[0], plan, meter)?;
                for (_, m) in &outs {
                    if m.end.is_none() && !mids.contains_key(m) {
                        let mut per2 = Vec::new();
                        for plan2 in self.plans_of(order[1]) {
                            let outs2 = self.turn_outcomes(m, order[1], plan2, meter)?;
                            for (_, n) in &outs2 {
                                if n.end.is_none() && !rounds.contains_key(n) {
                                    todo.push(n.clone());
                                }
                            }
                            per2.push((plan2, outs2));
                        }
                        mids.insert(m.clone(), per2);
                    }
                }
                per.push((plan, outs));
            }
            rounds.insert(s, per);
        }
        let quarry_wins = |s: &State| -> f64 {
            match s.end {
                Some(OUTPACED | ESCAPED | PURSUER_WRECKED) => 1.0,
                _ => 0.0,
            }
        };
        // States as indices, outcomes as (probability, ending value or index) for a fast iteration.
        let round_list: Vec<State> = rounds.keys().cloned().collect();
        let round_ix: HashMap<&State, usize> =
            round_list.iter().enumerate().map(|(i, s)| (s, i)).collect();
        let mid_list: Vec<State> = mids.keys().cloned().collect();
        let mid_ix: HashMap<&State, usize> =
            mid_list.iter().enumerate().map(|(i, s)| (s, i)).collect();
        // Err(value) for an ended state, Ok(index) otherwise.
        type Outs = Vec<(f64, Result<usize, f64>)>;
        let index = |outs: &[(f64, State)], ix: &HashMap<&State, usize>| -> Outs {
            outs.iter()
                .map(|(q, t)| {
                    let to = if t.end.is_some() {
                        Err(quarry_wins(t))
                    } else {
                        ix.get(t).copied().ok_or(1.0)
                    };
                    (*q, to)
                })
                .collect()
        };
        let round_t: Vec<Vec<(Plan, Outs)>> = round_list
            .iter()
            .map(|s| {
                rounds[s]
                    .iter()
                    .map(|(p, outs)| (*p, index(outs, &mid_ix)))
                    .collect()
            })
            .collect();
        let mid_t: Vec<Vec<(Plan, Outs)>> = mid_list
            .iter()
            .map(|s| {
                mids[s]
                    .iter()
                    .map(|(p, outs)| (*p, index(outs, &round_ix)))
                    .collect()
            })
            .collect();
        // The quarry maximises, the pursuer minimises.
        let pick = |who: Who, per: &[(Plan, Outs)], v: &[f64]| -> (usize, f64) {
            let mut best = (0, f64::NAN);
            for (i, (_, outs)) in per.iter().enumerate() {
                let val: f64 = outs
                    .iter()
                    .map(|(q, to)| q * to.map_or_else(|e| e, |j| v[j]))
                    .sum();
                let better = best.1.is_nan()
                    || match who {
                        Who::Quarry => val > best.1 + 1e-12,
                        Who::Pursuer => val < best.1 - 1e-12,
                    };
                if better {
                    best = (i, val);
                }
            }
            best
        };
        let mut value = vec![1.0f64; round_list.len()];
        let mut mid_value = vec![1.0f64; mid_list.len()];
        let mut first_choice = vec![0usize; round_list.len()];
        let mut second_choice = vec![0usize; mid_list.len()];
        // One sweep: every outcome of every plan of every position, once.
        let sweep: u64 = round_t
            .iter()
            .chain(&mid_t)
            .flat_map(|per| per.iter().map(|(_, outs)| outs.len() as u64 + 1))
            .sum();
        for _ in 0..2000 {
            meter.spend(sweep)?;
            for (m, per) in mid_t.iter().enumerate() {
                let (c, v) = pick(order[1], per, &value);
                second_choice[m] = c;
                mid_value[m] = v;
            }
            let mut change = 0.0f64;
            for (r, per) in round_t.iter().enumerate() {
                let (c, v) = pick(order[0], per, &mid_value);
                first_choice[r] = c;
                change = change.max((v - value[r]).abs());
                value[r] = v;
            }
            if change < 1e-13 {
                break;
            }
        }
        let mut plans = BestPlans::default();
        for (r, s) in round_list.iter().enumerate() {
            plans.first.insert(s.clone(), round_t[r][first_choice[r]].0);
        }
        for (m, s) in mid_list.iter().enumerate() {
            plans.second.insert(s.clone(), mid_t[m][second_choice[m]].0);
        }
        plans.value = start_dist
            .iter()
            .map(|(p, s)| {
                p * if s.end.is_some() {
                    quarry_wins(s)
                } else {
                    round_ix.get(s).map_or(1.0, |&i| value[i])
                }
            })
            .sum();
        Ok(plans)
    }

    /// The best plans, worked out once within `meter` (kept for every later turn); past the meter's
    /// limit the reason, also kept (a later attempt would only spend the same work again).
    pub fn prepare_best(&self, meter: &mut Meter) -> Result<&BestPlans, Stop> {
        if self.best.get().is_none() {
            match self.best_plans(meter) {
                Ok(plans) => {
                    let _ = self.best.set(Ok(plans));
                }
                Err(Stop::TooBig(t)) => {
                    let _ = self.best.set(Err(t));
                }
                Err(Stop::Cancelled) => return Err(Stop::Cancelled),
            }
        }
        match self.best.get() {
            Some(Ok(b)) => Ok(b),
            Some(Err(t)) => Err(Stop::TooBig(t.clone())),
            None => Err(Stop::Cancelled),
        }
    }

    /// The best plans (worked out once, without a limit when [`Coc::prepare_best`] has not been called:
    /// the solvers always call it first, and never play `best` when it failed).
    pub fn best(&self) -> &BestPlans {
        static NONE: std::sync::LazyLock<BestPlans> = std::sync::LazyLock::new(BestPlans::default);
        let plans = self.best.get_or_init(|| {
            let cancel = Cancel::new();
            Ok(self
                .best_plans(&mut Meter::new(u64::MAX, &cancel))
                .unwrap_or_default())
        });
        plans.as_ref().unwrap_or(&NONE)
    }
}
