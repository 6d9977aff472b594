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
use crate::exact::TooBig;
use crate::model::{
    Chance, Check, Ending, Opt, OptionError, P, Policy, Problem, Ruling, System, SystemInfo, Unit,
    applies, are_dice, policy_index, roll_dice,
};
use crate::{Built, Chase, Grid, GridTable};

mod best;
mod dice;
mod grid;
mod options;
mod track;

pub use best::*;
pub use dice::*;
pub use grid::*;
pub use options::*;
pub use track::*;

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
    /// The best plans, worked out the first time the `best` policy plays, or why they could not be
    /// within a question's budget (kept, so the simulation does not try again).
    pub best: std::sync::OnceLock<Result<BestPlans, TooBig>>,
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

/// The index of the `best` policy.
const BEST: usize = 3;

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
            "Always costs 1D3 movement actions, taken from what the character has left this round; the rest are owed and come off its next round, and whatever that round cannot pay off carries on to the round after, until all are paid. Damage to the character or vehicle is not tracked, since it never changes anyone's movement.",
            "The rules leave the harm and the delay to the Keeper (\"likely to slow\"); the model takes the delay every time. Their example of an owed action only reduces the next round, and nothing in them writes off a debt the next round cannot pay.",
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
            "A barrier broken down stays down for everyone after; its debris is not a new hazard. The vehicle that broke it is not worn down: the damage it takes (half the barrier's hit points) and any impairment are left out, so its every ram strikes with its full Build.",
            "The rules say debris may be a hazard and leave it to the Keeper. The model keeps to movement: lost Build touches only the same vehicle's later rams and driving rolls, and it leaves damage out everywhere else too (see the failed hazard).",
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
        applies("coc.chase.ruling.order");
        self.quarry.dex >= self.pursuer.dex
    }

    /// The plan a named policy gives a side.
    fn plan(&self, policy: usize, s: &State, who: Who, first: bool) -> Plan {
        match policy {
            1 => PLANS[2],
            2 => PLANS[3],
            BEST => {
                let best = self.best();
                let table = if first { &best.first } else { &best.second };
                table.get(s).copied().unwrap_or(PLANS[0])
            }
            _ => PLANS[0],
        }
        .for_runner(self.runner(who))
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
        // Owed actions come off this round; what it cannot pay carries on.
        applies("coc.chase.ruling.hazard_loss");
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
                applies("coc.chase.ruling.ending");
                // Only the quarry stands on the last location with actions to spend: it leaves the track.
                s.quarry_at = last + 1;
                s.end = Some(ESCAPED);
                chance.note(&|| {
                    format!("{name} moves on from the last location and is out of sight")
                });
                break;
            }
            // A barrier broken down stays down, and its debris is no hazard.
            applies("coc.chase.ruling.rammed");
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
                    applies("coc.chase.ruling.one_skill");
                    let check = Percentile {
                        skill: r.skill,
                        bonus,
                    };
                    let ok = chance.roll(name, &what, &check) >= level as i64;
                    if !ok {
                        applies("coc.chase.ruling.hazard_loss");
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
                        applies("coc.chase.ruling.rammed");
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
                            applies("coc.chase.ruling.ending");
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

    /// Best play (policy 3) plans every position first, within the meter.
    fn prepare(&self, policy: usize, meter: &mut crate::budget::Meter) -> Result<(), crate::Stop> {
        if policy == BEST {
            self.prepare_best(meter)?;
        }
        Ok(())
    }
}
