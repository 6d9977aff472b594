//! The Call of Cthulhu-style chase (seed 001): the speed roll (CON or Drive Auto: an extreme success +1 MOV,
//! a failure −1; a quarry left faster simply escapes), a string of locations with the pursuer two behind,
//! movement actions from the MOV difference, turns in DEX order, hazards (a skill roll at a difficulty;
//! bonus dice bought with movement actions; a failure still moves on but costs 1D3 movement actions) and
//! barriers (no move until the roll succeeds, or a vehicle rams it: Build × 1D10 against its hit points,
//! and a vehicle that fails to break it is wrecked). See [`rulings`] for what the rules leave open.

use std::collections::HashMap;

use blockprint_content::Library;
use blockprint_content::roll::roll_table;
use num_bigint::BigInt;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;

use crate::bbb::Die;
use crate::model::{
    Chance, Check, Ending, OptionError, P, Policy, Ruling, System, SystemInfo, Unit, are_dice,
    policy_index, roll_dice,
};
use crate::{Built, Chase, Grid, GridTable, Limits};

/// Difficulty of a roll: the success level it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    Regular = 1,
    Hard = 2,
    Extreme = 3,
}

impl Level {
    fn name(self) -> &'static str {
        match self {
            Level::Regular => "Regular",
            Level::Hard => "Hard",
            Level::Extreme => "Extreme",
        }
    }
}

/// What lies between two locations.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Gap {
    Clear,
    Hazard(Level),
    /// A barrier of a difficulty and hit points.
    Barrier(Level, u32),
}

impl Gap {
    pub fn words(&self) -> String {
        match self {
            Gap::Clear => "clear".into(),
            Gap::Hazard(l) => format!("{} hazard", l.name()),
            Gap::Barrier(l, hp) => format!("{} barrier ({hp} hit points)", l.name()),
        }
    }
}

/// A percentile skill roll (d100 under the skill, 1–100, with 00 and 0 read as 100), with bonus (positive)
/// or penalty (negative) dice on the tens. Outcome: 0 failure, 1 regular, 2 hard, 3 extreme success.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Percentile {
    pub skill: u32,
    pub bonus: i32,
}

impl Percentile {
    fn level(&self, v: u32) -> i64 {
        if v <= self.skill / 5 {
            3
        } else if v <= self.skill / 2 {
            2
        } else if v <= self.skill {
            1
        } else {
            0
        }
    }

    /// The value read from a units die and tens dice.
    fn value(&self, units: u32, tens: &[u32]) -> u32 {
        let read = |t: u32| {
            if t == 0 && units == 0 {
                100
            } else {
                10 * t + units
            }
        };
        let vals = tens.iter().map(|&t| read(t));
        if self.bonus >= 0 {
            vals.min().unwrap_or(100)
        } else {
            vals.max().unwrap_or(100)
        }
    }

    fn tens_dice(&self) -> u32 {
        1 + self.bonus.unsigned_abs()
    }
}

impl Check for Percentile {
    fn describe(&self) -> String {
        let dice = match self.bonus {
            0 => String::new(),
            1 => " with a bonus die".into(),
            -1 => " with a penalty die".into(),
            b if b > 0 => format!(" with {b} bonus dice"),
            b => format!(" with {} penalty dice", -b),
        };
        format!(
            "d100 against {}%{dice} (faces: units, then tens)",
            self.skill
        )
    }

    fn outcomes(&self) -> Vec<(P, i64)> {
        let k = self.tens_dice();
        let total = 10u64.pow(1 + k);
        let mut counts = [0u64; 4];
        for code in 0..total {
            let units = (code % 10) as u32;
            let mut rest = code / 10;
            let tens: Vec<u32> = (0..k)
                .map(|_| {
                    let t = (rest % 10) as u32;
                    rest /= 10;
                    t
                })
                .collect();
            counts[self.level(self.value(units, &tens)) as usize] += 1;
        }
        (0..4)
            .rev()
            .filter(|&l| counts[l] > 0)
            .map(|l| {
                (
                    P::new(BigInt::from(counts[l]), BigInt::from(total)),
                    l as i64,
                )
            })
            .collect()
    }

    fn roll(&self, rng: &mut ChaCha20Rng) -> (Vec<i64>, i64) {
        // Faces: the units die first, then each tens die (0-9).
        let units = rng.random_range(0..10u32);
        let tens: Vec<u32> = (0..self.tens_dice())
            .map(|_| rng.random_range(0..10u32))
            .collect();
        let mut faces = vec![i64::from(units)];
        faces.extend(tens.iter().map(|&t| i64::from(t)));
        (faces, self.level(self.value(units, &tens)))
    }

    fn judge(&self, faces: &[i64]) -> Option<i64> {
        if faces.len() != 1 + self.tens_dice() as usize
            || faces.iter().any(|f| !(0..=9).contains(f))
        {
            return None;
        }
        let tens: Vec<u32> = faces[1..].iter().map(|&t| t as u32).collect();
        Some(self.level(self.value(faces[0] as u32, &tens)))
    }

    fn outcome_label(&self, outcome: i64) -> String {
        match outcome {
            3 => "extreme success",
            2 => "hard success",
            1 => "regular success",
            _ => "failure",
        }
        .into()
    }
}

/// The sum of `n` dice of `sides` sides (a ram: Build × 1D10). With `at_least`, the outcome is 1 when
/// the sum reaches it and 0 otherwise (all a ram against a barrier's hit points needs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sum {
    pub n: u32,
    pub sides: u32,
    pub at_least: Option<i64>,
}

impl Sum {
    fn read(&self, sum: i64) -> i64 {
        match self.at_least {
            Some(t) => i64::from(sum >= t),
            None => sum,
        }
    }
}

impl Check for Sum {
    fn describe(&self) -> String {
        match self.at_least {
            Some(t) => format!("{}d{} against {t}", self.n, self.sides),
            None => format!("{}d{}", self.n, self.sides),
        }
    }

    fn outcomes(&self) -> Vec<(P, i64)> {
        let mut ways: Vec<u64> = vec![1];
        for _ in 0..self.n {
            let mut next = vec![0u64; ways.len() + self.sides as usize];
            for (s, &w) in ways.iter().enumerate() {
                for f in 1..=self.sides as usize {
                    next[s + f] += w;
                }
            }
            ways = next;
        }
        let total: u64 = ways.iter().sum();
        let mut by: Vec<(u64, i64)> = Vec::new();
        for (s, &w) in ways.iter().enumerate().filter(|(_, w)| **w > 0) {
            let o = self.read(s as i64);
            match by.iter_mut().find(|(_, x)| *x == o) {
                Some((c, _)) => *c += w,
                None => by.push((w, o)),
            }
        }
        by.into_iter()
            .map(|(w, o)| (P::new(BigInt::from(w), BigInt::from(total)), o))
            .collect()
    }

    fn roll(&self, rng: &mut ChaCha20Rng) -> (Vec<i64>, i64) {
        let faces = roll_dice(rng, self.n, self.sides);
        let s = self.read(faces.iter().sum());
        (faces, s)
    }

    fn judge(&self, faces: &[i64]) -> Option<i64> {
        are_dice(faces, self.n, self.sides).then(|| self.read(faces.iter().sum()))
    }

    fn outcome_label(&self, outcome: i64) -> String {
        match (self.at_least, outcome) {
            (Some(t), 1) => format!("{t} or more"),
            (Some(t), _) => format!("less than {t}"),
            (None, o) => o.to_string(),
        }
    }
}

/// One participant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Runner {
    pub mov: i32,
    /// CON (on foot) or Drive Auto (driving): the speed roll.
    pub speed: u32,
    /// The skill met at every hazard and barrier.
    pub skill: u32,
    pub dex: u32,
    /// A vehicle's Build (0 on foot): ramming barriers.
    pub build: u32,
}

/// A Call of Cthulhu-style chase.
#[derive(Debug, Clone)]
pub struct Coc {
    pub quarry: Runner,
    pub pursuer: Runner,
    /// Gap i lies between location i and i + 1 (0-based); the track has `gaps.len() + 1` locations.
    pub gaps: Vec<Gap>,
    /// Locations between them at the start (1 or 2).
    pub range: u8,
    /// Rounds after which the chase is called off.
    pub rounds: u32,
    /// The best plans, worked out the first time the `best` policy plays.
    pub best: std::sync::OnceLock<BestPlans>,
}

/// Where a chase stands between rounds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// Locations, 0-based; the quarry past the last location has left the track.
    pub quarry_at: u8,
    pub pursuer_at: u8,
    /// Movement actions per round (from the adjusted MOVs).
    pub quarry_actions: u8,
    pub pursuer_actions: u8,
    /// Movement actions owed from failed hazards.
    pub quarry_owed: u8,
    pub pursuer_owed: u8,
    /// Barriers broken down (bit per gap).
    pub broken: u32,
    pub end: Option<u8>,
}

const OUTPACED: u8 = 0;
const ESCAPED: u8 = 1;
const CAUGHT: u8 = 2;
const QUARRY_WRECKED: u8 = 3;
const PURSUER_WRECKED: u8 = 4;

/// Rounds after which a chase is called off.
pub const MAX_ROUNDS: u32 = 40;

/// The house rulings the model rests on.
pub fn rulings() -> Vec<Ruling> {
    vec![
        Ruling::new(
            "coc.chase.ruling.ending",
            "How the chase ends",
            "The pursuer catches the quarry by entering its location: the chase ends there (what follows is a fight or a talk, not a chase). The quarry escapes by moving on from the last location of the track: it is out of sight.",
            "The rules end a chase when the quarry is faster at the speed roll, or when the Keeper judges the quarry lost; a track of fixed length needs an edge.",
        ),
        Ruling::new(
            "coc.chase.ruling.hazard_loss",
            "A failed hazard",
            "Always costs 1D3 movement actions, taken from what the character has left this round and the rest from its next round; damage to the character or vehicle is not tracked, since it never changes anyone's movement.",
            "The rules leave the harm and the delay to the Keeper (\"likely to slow\"); the model takes the delay every time.",
        ),
        Ruling::new(
            "coc.chase.ruling.order",
            "Equal DEX",
            "When quarry and pursuer have the same DEX the quarry moves first.",
            "The rules order turns by DEX and break ties only among characters who delay.",
        ),
        Ruling::new(
            "coc.chase.ruling.one_skill",
            "One skill per side",
            "Each side meets every hazard and barrier with one skill value (Dodge, Climb, Drive Auto …), at the gap's difficulty.",
            "The rules let the Keeper pick a skill per hazard; a grid of odds needs one number per side.",
        ),
        Ruling::new(
            "coc.chase.ruling.rammed",
            "A rammed barrier",
            "A barrier broken down stays down for everyone after; its debris is not a new hazard.",
            "The rules say debris may be a hazard and leave it to the Keeper.",
        ),
    ]
}

/// The policies, the default first.
pub fn policies() -> Vec<Policy> {
    vec![
        Policy::new(
            "reckless",
            "Both sides spend every movement action on moving: no bonus dice. Barriers are climbed or forced with the skill roll.",
        ),
        Policy::new(
            "cautious",
            "At a hazard, each side buys bonus dice (up to two) with the movement actions it has to spare this round, keeping one to move. Barriers are climbed or forced with the skill roll.",
        ),
        Policy::new(
            "ram",
            "As reckless, but a side in a vehicle (a Build above 0) rams every barrier: Build × 1D10 against the barrier's hit points, and the vehicle is wrecked if the barrier stands.",
        ),
        Policy::new(
            "best",
            "Best play, worked out over every state of the chase (value iteration): at the start of each of its turns each side picks its plan for the turn (how many bonus dice, none, one or two, to buy at each hazard with the movement actions it has to spare; with a vehicle, whether to ram barriers) to get away (the quarry) or to catch (the pursuer) as often as possible, knowing the other side does the same. A chase called off counts as the quarry getting away.",
        ),
    ]
}

/// What a side does at hazards and barriers during one turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Plan {
    /// Bonus dice bought at each hazard, at most (keeping one movement action to move).
    pub bonus: i32,
    /// Ram barriers (a side with a vehicle only).
    pub ram: bool,
}

const PLANS: [Plan; 6] = [
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
    first: HashMap<State, Plan>,
    second: HashMap<State, Plan>,
    /// The quarry's chance of getting away under best play (a chase called off counting as getting
    /// away), from the value iteration.
    pub value: f64,
}

impl Plan {
    /// The plan as a side can carry it out: no ramming without a vehicle.
    fn for_runner(self, r: &Runner) -> Plan {
        Plan {
            ram: self.ram && r.build > 0,
            ..self
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Who {
    Quarry,
    Pursuer,
}

impl Coc {
    fn runner(&self, w: Who) -> &Runner {
        match w {
            Who::Quarry => &self.quarry,
            Who::Pursuer => &self.pursuer,
        }
    }

    fn quarry_first(&self) -> bool {
        self.quarry.dex >= self.pursuer.dex
    }

    /// The plan a named policy gives a side.
    fn plan(&self, policy: usize, s: &State, who: Who, first: bool) -> Plan {
        match policy {
            1 => PLANS[2],
            2 => PLANS[3],
            3 => {
                let best = self.best();
                let table = if first { &best.first } else { &best.second };
                table.get(s).copied().unwrap_or(PLANS[0])
            }
            _ => PLANS[0],
        }
        .for_runner(self.runner(who))
    }

    /// One side's turn under `plan`, every outcome with its probability (as a float: only the choice of
    /// plan rests on it; the odds themselves come from the exact solver).
    fn turn_outcomes(&self, s: &State, who: Who, plan: Plan) -> Vec<(f64, State)> {
        let mut budget = u64::MAX;
        crate::exact::enumerate(
            |c| {
                let mut t = s.clone();
                self.turn(&mut t, who, plan, c);
                t
            },
            &mut budget,
        )
        .unwrap_or_default()
        .into_iter()
        .map(|(p, t)| (num_traits::ToPrimitive::to_f64(&p).unwrap_or(0.0), t))
        .collect()
    }

    /// The plans a side can tell apart: a side without a vehicle never rams.
    fn plans_of(&self, who: Who) -> Vec<Plan> {
        let mut v: Vec<Plan> = Vec::new();
        for p in PLANS.iter().map(|p| p.for_runner(self.runner(who))) {
            if !v.contains(&p) {
                v.push(p);
            }
        }
        v
    }

    /// Value iteration over every state any plans reach: the quarry's chance of getting away under best
    /// play on both sides, and the plans that achieve it.
    fn best_plans(&self) -> BestPlans {
        let order = if self.quarry_first() {
            [Who::Quarry, Who::Pursuer]
        } else {
            [Who::Pursuer, Who::Quarry]
        };
        let mut budget = u64::MAX;
        let start_dist: Vec<(f64, State)> = crate::exact::enumerate(|c| self.start(c), &mut budget)
            .unwrap_or_default()
            .into_iter()
            .map(|(p, s)| (num_traits::ToPrimitive::to_f64(&p).unwrap_or(0.0), s))
            .collect();
        let starts: Vec<State> = start_dist.iter().map(|(_, s)| s.clone()).collect();
        // Round-start states -> per plan of the first mover, its turn's outcomes; likewise mid-round.
        let mut rounds: HashMap<State, Vec<(Plan, Vec<(f64, State)>)>> = HashMap::new();
        let mut mids: HashMap<State, Vec<(Plan, Vec<(f64, State)>)>> = HashMap::new();
        let mut todo: Vec<State> = starts.into_iter().filter(|s| s.end.is_none()).collect();
        while let Some(s) = todo.pop() {
            if rounds.contains_key(&s) || rounds.len() > 20_000 {
                continue;
            }
            let mut per = Vec::new();
            for plan in self.plans_of(order[0]) {
                let outs = self.turn_outcomes(&s, order[0], plan);
                for (_, m) in &outs {
                    if m.end.is_none() && !mids.contains_key(m) {
                        let mut per2 = Vec::new();
                        for plan2 in self.plans_of(order[1]) {
                            let outs2 = self.turn_outcomes(m, order[1], plan2);
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
        for _ in 0..2000 {
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
        plans
    }

    /// The best plans (worked out once).
    pub fn best(&self) -> &BestPlans {
        self.best.get_or_init(|| self.best_plans())
    }

    fn turn(&self, s: &mut State, who: Who, plan: Plan, chance: &mut dyn Chance) {
        let r = self.runner(who);
        let name = match who {
            Who::Quarry => "the quarry",
            Who::Pursuer => "the pursuer",
        };
        let (actions, owed) = match who {
            Who::Quarry => (s.quarry_actions, s.quarry_owed),
            Who::Pursuer => (s.pursuer_actions, s.pursuer_owed),
        };
        let mut left = i32::from(actions) - i32::from(owed);
        if owed > 0 {
            chance.note(&|| format!("{name} pays {owed} movement action{} owed", plural(owed)));
        }
        let mut new_owed = 0i32;
        if left < 0 {
            new_owed = -left;
            left = 0;
        }
        let last = self.gaps.len() as u8;
        while left > 0 && s.end.is_none() {
            let at = match who {
                Who::Quarry => s.quarry_at,
                Who::Pursuer => s.pursuer_at,
            };
            if at >= last {
                // Only the quarry stands on the last location with actions to spend: it leaves the track.
                s.quarry_at = last + 1;
                s.end = Some(ESCAPED);
                chance.note(&|| {
                    format!("{name} moves on from the last location and is out of sight")
                });
                break;
            }
            let gap = if s.broken & (1 << at) != 0 {
                Gap::Clear
            } else {
                self.gaps[usize::from(at)].clone()
            };
            let moved = match gap {
                Gap::Clear => {
                    left -= 1;
                    chance.note(&|| format!("{name} runs on to location {}", at + 2));
                    true
                }
                Gap::Hazard(level) => {
                    let bonus = (left - 1).clamp(0, plan.bonus);
                    left -= 1 + bonus;
                    let what = format!(
                        "against the {} hazard between locations {} and {}",
                        level.name(),
                        at + 1,
                        at + 2
                    );
                    let check = Percentile {
                        skill: r.skill,
                        bonus,
                    };
                    let ok = chance.roll(name, &what, &check) >= level as i64;
                    if !ok {
                        let lost =
                            chance.roll(name, "for movement actions lost", &Die { sides: 3 });
                        left -= lost as i32;
                        if left < 0 {
                            new_owed += -left;
                            left = 0;
                        }
                        chance.note(&|| {
                            format!(
                                "{name} stumbles through and loses {lost} movement action{}",
                                plural(lost as u8)
                            )
                        });
                    }
                    true
                }
                Gap::Barrier(level, hp) => {
                    left -= 1;
                    if plan.ram && r.build > 0 {
                        let what = format!(
                            "to ram the barrier between locations {} and {} ({hp} hit points)",
                            at + 1,
                            at + 2
                        );
                        let dmg = chance.roll(
                            name,
                            &what,
                            &Sum {
                                n: r.build,
                                sides: 10,
                                at_least: Some(i64::from(hp)),
                            },
                        );
                        if dmg == 1 {
                            s.broken |= 1 << at;
                            chance.note(&|| format!("{name} smashes through"));
                            true
                        } else {
                            s.end = Some(match who {
                                Who::Quarry => QUARRY_WRECKED,
                                Who::Pursuer => PURSUER_WRECKED,
                            });
                            chance.note(&|| {
                                format!("the barrier holds and {name}'s vehicle is wrecked")
                            });
                            false
                        }
                    } else {
                        let what = format!(
                            "against the {} barrier between locations {} and {}",
                            level.name(),
                            at + 1,
                            at + 2
                        );
                        let ok = chance.roll(
                            name,
                            &what,
                            &Percentile {
                                skill: r.skill,
                                bonus: 0,
                            },
                        ) >= level as i64;
                        if !ok {
                            chance.note(&|| format!("{name} is held up at the barrier"));
                        }
                        ok
                    }
                }
            };
            if moved {
                match who {
                    Who::Quarry => s.quarry_at += 1,
                    Who::Pursuer => {
                        s.pursuer_at += 1;
                        if s.pursuer_at >= s.quarry_at {
                            s.end = Some(CAUGHT);
                            chance.note(&|| "the pursuer reaches the quarry's location".into());
                        }
                    }
                }
            }
        }
        let new_owed = new_owed.min(255) as u8;
        match who {
            Who::Quarry => s.quarry_owed = new_owed,
            Who::Pursuer => s.pursuer_owed = new_owed,
        }
    }
}

fn plural(n: u8) -> &'static str {
    if n == 1 { "" } else { "s" }
}

impl System for Coc {
    type State = State;

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: "coc".into(),
            name: "Call of Cthulhu-style chase".into(),
            unit: Unit::new("round", "rounds"),
            endings: vec![
                Ending::new(
                    "outpaced",
                    "The quarry is faster after the speed rolls and simply escapes",
                ),
                Ending::new(
                    "escaped",
                    "The quarry leaves the end of the track, out of sight",
                ),
                Ending::new("caught", "The pursuer reaches the quarry's location"),
                Ending::new(
                    "quarry-wrecked",
                    "The quarry's vehicle is wrecked on a barrier",
                ),
                Ending::new(
                    "pursuer-wrecked",
                    "The pursuer's vehicle is wrecked on a barrier",
                ),
            ],
            policies: policies(),
            rulings: rulings(),
        }
    }

    fn start(&self, chance: &mut dyn Chance) -> State {
        let speed = |chance: &mut dyn Chance, who: &str, r: &Runner| -> i32 {
            let o = chance.roll(
                who,
                "for speed",
                &Percentile {
                    skill: r.speed,
                    bonus: 0,
                },
            );
            match o {
                3 => r.mov + 1,
                0 => r.mov - 1,
                _ => r.mov,
            }
        };
        let q = speed(chance, "the quarry", &self.quarry);
        let p = speed(chance, "the pursuer", &self.pursuer);
        let slow = q.min(p);
        chance.note(&|| format!("adjusted MOV: quarry {q}, pursuer {p}"));
        State {
            quarry_at: self.range,
            pursuer_at: 0,
            quarry_actions: (1 + q - slow) as u8,
            pursuer_actions: (1 + p - slow) as u8,
            quarry_owed: 0,
            pursuer_owed: 0,
            broken: 0,
            end: (q > p).then_some(OUTPACED),
        }
    }

    fn ending(&self, s: &State) -> Option<usize> {
        s.end.map(usize::from)
    }

    fn step(&self, state: &State, policy: usize, chance: &mut dyn Chance) -> State {
        let mut s = state.clone();
        let order = if self.quarry_first() {
            [Who::Quarry, Who::Pursuer]
        } else {
            [Who::Pursuer, Who::Quarry]
        };
        for (i, who) in order.into_iter().enumerate() {
            if s.end.is_some() {
                break;
            }
            let plan = self.plan(policy, &s, who, i == 0);
            self.turn(&mut s, who, plan, chance);
        }
        s
    }

    fn describe(&self, s: &State) -> String {
        let n = self.gaps.len() + 1;
        let q = if usize::from(s.quarry_at) >= n {
            "off the track".to_string()
        } else {
            format!("at location {} of {n}", s.quarry_at + 1)
        };
        let owed = |o: u8| {
            if o > 0 {
                format!(", owing {o}")
            } else {
                String::new()
            }
        };
        format!(
            "quarry {q} ({} movement action{}{}); pursuer at location {} ({} movement action{}{})",
            s.quarry_actions,
            plural(s.quarry_actions),
            owed(s.quarry_owed),
            s.pursuer_at + 1,
            s.pursuer_actions,
            plural(s.pursuer_actions),
            owed(s.pursuer_owed)
        )
    }

    fn max_units(&self) -> u32 {
        self.rounds
    }
}

/// Locations on the kit's seeded track, and the stream its rolls come from (as `blockprint kit coc`).
pub const LOCATIONS: usize = 10;
pub const TRACK_STREAM: u64 = 0x0063_6f63 << 32;

fn level_of(tag: &str) -> Option<Level> {
    match tag {
        "regular" => Some(Level::Regular),
        "hard" => Some(Level::Hard),
        "extreme" => Some(Level::Extreme),
        _ => None,
    }
}

/// The kit's seeded track (ruling `coc.ruling.track`): the same rolls, in the same order, from the same
/// ChaCha20 stream as the kit's `track-seeded` page, so `--track-seed N` is the track `kit coc --seed N`
/// prints.
pub fn seeded_track(lib: &Library, seed: u64) -> Result<Vec<Gap>, String> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    rng.set_stream(TRACK_STREAM);
    let tag = |table: &str, row: usize, of: &[&str]| -> String {
        lib.table(table)
            .and_then(|t| t.rows.get(row))
            .and_then(|r| r.tags.iter().find(|g| of.contains(&g.value.as_str())))
            .map(|g| g.value.clone())
            .unwrap_or_default()
    };
    let mut gaps = Vec::new();
    for _ in 1..LOCATIONS {
        let level = roll_table(lib, "coc.hazard.random", &mut rng).map_err(|e| e.to_string())?;
        let t = tag(
            "coc.hazard.random",
            level.row,
            &["clear", "regular", "hard", "extreme"],
        );
        let Some(l) = level_of(&t) else {
            gaps.push(Gap::Clear);
            continue;
        };
        let kind = roll_table(lib, "coc.track.obstacle", &mut rng).map_err(|e| e.to_string())?;
        let barrier = tag("coc.track.obstacle", kind.row, &["hazard", "barrier"]) == "barrier";
        let table = if barrier {
            "coc.barrier.sample"
        } else {
            "coc.hazard.foot"
        };
        let what = roll_table(lib, table, &mut rng).map_err(|e| e.to_string())?;
        if barrier {
            let hp = lib
                .lookup("coc.barrier.hp")
                .and_then(|lk| lk.entries.iter().find(|e| e.key.value == what.result))
                .and_then(|e| match e.value.value {
                    blockprint_content::EntryValue::Integer(n) => u32::try_from(n).ok(),
                    blockprint_content::EntryValue::Text(_) => None,
                })
                .ok_or_else(|| {
                    format!(
                        "barrier `{}` has no hit points in coc.barrier.hp",
                        what.result
                    )
                })?;
            gaps.push(Gap::Barrier(l, hp));
        } else {
            gaps.push(Gap::Hazard(l));
        }
    }
    Ok(gaps)
}

/// `clear,regular,hard-barrier:15,…` → gaps.
pub fn parse_track(text: &str) -> Result<Vec<Gap>, OptionError> {
    let err = |m: String| OptionError::new("--track", m);
    let mut gaps = Vec::new();
    for part in text.split(',').map(str::trim) {
        let (kind, hp) = match part.split_once(':') {
            Some((k, h)) => (k.trim(), Some(h.trim())),
            None => (part, None),
        };
        let gap = match (kind.to_ascii_lowercase().as_str(), hp) {
            ("clear", None) => Gap::Clear,
            ("regular", None) => Gap::Hazard(Level::Regular),
            ("hard", None) => Gap::Hazard(Level::Hard),
            ("extreme", None) => Gap::Hazard(Level::Extreme),
            (b @ ("regular-barrier" | "hard-barrier" | "extreme-barrier"), Some(h)) => {
                let hp: u32 = h
                    .parse()
                    .ok()
                    .filter(|&n| (1..=1000).contains(&n))
                    .ok_or_else(|| {
                        err(format!(
                            "`{h}` in `{part}` is not a barrier's hit points (1 to 1000)"
                        ))
                    })?;
                let level = level_of(b.trim_end_matches("-barrier")).unwrap_or(Level::Regular);
                Gap::Barrier(level, hp)
            }
            (b, None) if b.ends_with("-barrier") => {
                return Err(err(format!(
                    "barrier `{part}` needs its hit points: `{part}:10`"
                )));
            }
            _ => {
                return Err(err(format!(
                    "`{part}` is not a gap (clear, regular, hard, extreme, or regular-barrier:HP, hard-barrier:HP, extreme-barrier:HP)"
                )));
            }
        };
        gaps.push(gap);
    }
    if gaps.len() < 2 || gaps.len() > 30 {
        return Err(err(format!(
            "a track needs 2 to 30 gaps (3 to 31 locations); this one has {}",
            gaps.len()
        )));
    }
    Ok(gaps)
}

/// `chase … coc` options.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The quarry's MOV (before the speed roll).
    #[arg(long, default_value_t = 8, allow_hyphen_values = true, value_parser = clap::value_parser!(i32).range(1..=30))]
    pub quarry_mov: i32,
    /// The pursuer's MOV.
    #[arg(long, default_value_t = 8, allow_hyphen_values = true, value_parser = clap::value_parser!(i32).range(1..=30))]
    pub pursuer_mov: i32,
    /// The quarry's speed-roll skill: CON on foot, Drive Auto driving.
    #[arg(long, default_value_t = 50, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=99))]
    pub quarry_speed: u32,
    /// The pursuer's speed-roll skill.
    #[arg(long, default_value_t = 50, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=99))]
    pub pursuer_speed: u32,
    /// The quarry's skill at hazards and barriers (Dodge, Climb, Drive Auto …).
    #[arg(long, default_value_t = 50, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=99))]
    pub quarry_skill: u32,
    /// The pursuer's skill at hazards and barriers.
    #[arg(long, default_value_t = 50, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=99))]
    pub pursuer_skill: u32,
    /// The quarry's DEX (the higher moves first).
    #[arg(long, default_value_t = 50, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=200))]
    pub quarry_dex: u32,
    /// The pursuer's DEX.
    #[arg(long, default_value_t = 50, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=200))]
    pub pursuer_dex: u32,
    /// The quarry's vehicle Build (0: on foot); rams barriers under `--policy ram`.
    #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub quarry_build: u32,
    /// The pursuer's vehicle Build.
    #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub pursuer_build: u32,
    /// Opening range in locations (the rules: two, one for a tenser chase).
    #[arg(long, default_value_t = 2, allow_hyphen_values = true, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub range: u8,
    /// The kit's seeded track: the one `blockprint kit coc --seed N` prints.
    #[arg(long, default_value_t = 1, allow_hyphen_values = true, value_parser = clap::value_parser!(u64).range(0..=(1u64 << 53) - 1), conflicts_with = "track")]
    pub track_seed: u64,
    /// A track of your own: its gaps in order, e.g. `clear,regular,hard-barrier:15,extreme,clear`.
    #[arg(long, value_name = "GAPS")]
    pub track: Option<String>,
    /// Call the chase off after this many rounds (its chance is reported as an ending).
    #[arg(long, default_value_t = MAX_ROUNDS, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_ROUNDS)))]
    pub rounds: u32,
}

impl Args {
    fn system(
        &self,
        lib: &Library,
        pursuer_mov: i32,
        skill: Option<u32>,
    ) -> Result<Coc, OptionError> {
        let gaps = match &self.track {
            Some(t) => parse_track(t)?,
            None => seeded_track(lib, self.track_seed)
                .map_err(|e| OptionError::new("--track-seed", e))?,
        };
        let runner = |mov, speed, sk: u32, dex, build| Runner {
            mov,
            speed,
            skill: skill.unwrap_or(sk),
            dex,
            build,
        };
        Ok(Coc {
            quarry: runner(
                self.quarry_mov,
                self.quarry_speed,
                self.quarry_skill,
                self.quarry_dex,
                self.quarry_build,
            ),
            pursuer: runner(
                pursuer_mov,
                self.pursuer_speed,
                self.pursuer_skill,
                self.pursuer_dex,
                self.pursuer_build,
            ),
            gaps,
            range: self.range,
            rounds: self.rounds,
            best: std::sync::OnceLock::new(),
        })
    }

    /// The system these options describe (what `build` wraps).
    pub fn to_system(&self, lib: &Library) -> Result<Coc, OptionError> {
        self.system(lib, self.pursuer_mov, None)
    }

    fn track_words(&self, c: &Coc) -> String {
        let gaps: Vec<String> = c.gaps.iter().map(Gap::words).collect();
        let from = match &self.track {
            Some(_) => "given track".to_string(),
            None => format!("the kit's seeded track {}", self.track_seed),
        };
        format!(
            "{from}, {} locations: {}",
            c.gaps.len() + 1,
            gaps.join(", ")
        )
    }
}

fn runner_words(name: &str, r: &Runner) -> String {
    let mut w = format!(
        "{name} MOV {}, speed roll {}%, skill {}%, DEX {}",
        r.mov, r.speed, r.skill, r.dex
    );
    if r.build > 0 {
        w.push_str(&format!(", vehicle Build {}", r.build));
    }
    w
}

/// The chase the options describe.
pub fn build(a: &Args, lib: &Library) -> Result<Box<dyn Chase>, OptionError> {
    let system = a.system(lib, a.pursuer_mov, None)?;
    let setup = format!(
        "{}; {}; opening range {}; {}",
        runner_words("quarry", &system.quarry),
        runner_words("pursuer", &system.pursuer),
        system.range,
        a.track_words(&system)
    );
    Ok(Box::new(Built { system, setup }))
}

/// The options at their defaults, as `chase odds coc` with none given.
pub fn default_args() -> Result<Args, OptionError> {
    crate::model::defaults("coc")
}

/// The kit's "Chase odds" page ([`crate::page`]): the grid with the default options on the seeded track
/// the kit prints for `track_seed` (`blockprint kit coc --seed N`).
pub fn kit_page(
    lib: &Library,
    game: &str,
    track_seed: u64,
) -> Result<serde_json::Value, OptionError> {
    let mut a = default_args()?;
    a.track_seed = track_seed;
    let g = grid(&a, lib, None)?;
    Ok(crate::page::data(
        &g,
        game,
        &format!(
            "blockprint chase odds coc --track-seed {track_seed} --pursuer-mov 9 --quarry-skill 60 --policy best"
        ),
    ))
}

/// The grid's MOV differences (pursuer's MOV minus the quarry's) and skill values.
pub const GRID_MOV_DIFF: [i32; 5] = [-2, -1, 0, 1, 2];
pub const GRID_SKILLS: [u32; 5] = [30, 40, 50, 60, 70];

/// MOV difference × skill value (both sides' hazard skill) on the track of `a`: the chance the pursuer
/// catches the quarry. The other options of `a` apply to every cell.
pub fn grid(a: &Args, lib: &Library, policy: Option<&str>) -> Result<Grid, OptionError> {
    let probe = a.system(lib, a.pursuer_mov, None)?;
    let info = probe.info();
    let p = policy_index(&info, policy)?;
    let mut cells = Vec::new();
    for &d in &GRID_MOV_DIFF {
        let mut row = Vec::new();
        for &sk in &GRID_SKILLS {
            let system = a.system(lib, (a.quarry_mov + d).max(1), Some(sk))?;
            let chase = Built {
                system,
                setup: String::new(),
            };
            row.push(Grid::cell(&chase, p, "caught", Limits::default()));
        }
        cells.push(row);
    }
    Ok(Grid {
        system: info.id.clone(),
        system_name: info.name.clone(),
        title: "Chase odds: how often the pursuer catches the quarry".into(),
        headline: info.endings[usize::from(CAUGHT)].clone(),
        policy: info.policies[p].clone(),
        unit: info.unit.clone(),
        rows_label: "MOV difference".into(),
        cols_label: "Skill at hazards (both sides)".into(),
        tables: vec![GridTable {
            caption: String::new(),
            rows: GRID_MOV_DIFF
                .iter()
                .map(|d| format!("MOV {d:+}").replace('-', "−"))
                .collect(),
            cols: GRID_SKILLS.iter().map(|s| format!("{s}%")).collect(),
            cells,
        }],
        notes: vec![
            format!(
                "MOV difference: the pursuer’s MOV less the quarry’s, before the speed rolls. Quarry MOV {}, speed rolls at {}% and {}%, DEX {} and {}, opening range {}.",
                a.quarry_mov, a.quarry_speed, a.pursuer_speed, a.quarry_dex, a.pursuer_dex, a.range
            ),
            format!("Track: {}.", a.track_words(&probe)),
        ],
        rulings: info.rulings,
    })
}
