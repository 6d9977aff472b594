//! Storypath chases (the action-adventure chapter): a chase run as a complex action. Each interval both
//! sides roll their pool; each success left after the hazard is one lap (the kit's house ruling
//! `sp.ruling.laps`). The first side to reach its laps needed catches its quarry or gets away; if the
//! interval limit comes first, neither has.
//!
//! The state is the interval, each side's laps, and whether each has picked something up on the way
//! (Snatch and Grab). The chase modifiers of the kit: Head Start (an Enhancement on a side's first
//! interval), Hazard (a Complication every interval) and Snatch and Grab (one success for 1e later).

use blockprint_dice::words::count_words;
use rand_chacha::ChaCha20Rng;

use blockprint_content::{EntryValue, Library};

use crate::model::{
    Chance, Check, Ending, Opt, OptionError, P, Policy, Problem, Ruling, System, SystemInfo, Unit,
    applies, are_dice, policy_index, roll_dice,
};
use crate::{Built, Chase, Grid, GridTable};

mod grid;
mod options;

pub use grid::*;
pub use options::*;

/// The pool dice of the kit's house ruling `sp.ruling.pool`: d10s, 8 or more succeeds.
pub const DIE: u32 = 10;
pub const SUCCEEDS_ON: u32 = 8;
/// Pool sizes the options take.
pub const POOLS: std::ops::RangeInclusive<u32> = 1..=20;
/// Laps the options take.
pub const LAPS: std::ops::RangeInclusive<u32> = 1..=20;
/// Interval limits the options take.
pub const LIMITS: std::ops::RangeInclusive<u32> = 1..=40;
/// Ratings of Head Start (1–3e) and Hazard (1–3c); 0 is none.
pub const RATINGS: std::ops::RangeInclusive<u32> = 0..=3;

/// Who wins when both sides complete their laps in the same interval (`--ties`): the chapter is silent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Ties {
    /// The side further past its laps needed; the quarry when that is equal too.
    #[default]
    Surplus,
    /// The quarry, always.
    Quarry,
    /// The pursuers, always.
    Pursuer,
}

impl Ties {
    /// The ruling's sentence for this choice.
    pub fn ruling(self) -> &'static str {
        match self {
            Ties::Surplus => {
                "When both sides complete their laps in the same interval, the side further past its laps needed wins; if that is equal too, the quarry gets away."
            }
            Ties::Quarry => {
                "When both sides complete their laps in the same interval, the quarry gets away, however far past their need the pursuers went."
            }
            Ties::Pursuer => {
                "When both sides complete their laps in the same interval, the pursuers catch the quarry, however far past its need the quarry went."
            }
        }
    }
}

/// The house rulings of the model, beside the kit's own (mixed actions, foot speed): (id, title, ruling,
/// reason). The pool, the laps and the tie are said with the chase's own dice and `--ties`
/// ([`Storypath::rulings`]); these are the same for every chase.
pub const RULINGS: [(&str, &str, &str, &str); 4] = [
    (
        "sp.chase.ruling.limit",
        "The interval limit is its own ending",
        "When the interval limit passes with neither side done, the chase ends there, and the odds report it as its own ending.",
        "The chapter makes the limit a place of safety for a quarry or the point where pursuit overwhelms a runner, depending on the story: which side it favours is the GM's to say.",
    ),
    (
        "sp.chase.ruling.head-start",
        "Head Start helps the first interval",
        "Head Start is an Enhancement on its side's first interval only: it adds its rating to a roll with at least one success.",
        "The modifier applies to an interval begun before the other side can react, which is the first; Enhancements add to a roll that succeeds.",
    ),
    (
        "sp.chase.ruling.hazard",
        "A Hazard lies across every interval",
        "A Hazard's Complication faces both sides every interval; buying it off costs its rating in successes, which are then not laps. Its Injury does not slow the runner.",
        "The chapter rates the Hazard but not where it lies; a course-wide hazard is the plainest reading, and Injury Conditions are outside the chase's count.",
    ),
    (
        "sp.chase.ruling.snatch",
        "When a side snatches and grabs",
        "Snatch and Grab costs one success, taken when at least two are left after the hazard; the item then gives 1e (one more success on a roll with at least one) every later interval.",
        "The chapter prices it at one success and says the item gives 1e; keeping one success back for a lap is the sensible moment to take it.",
    ),
];

/// The exact solver's work for a chase, estimated before it starts: the states it may reach (laps of
/// each side, intervals, the four ways Snatch and Grab items can stand) times the rolls of an interval.
/// Measured: about 180 000 take a second of CPU, so beyond [`EXACT_WORK`] the chase is simulated.
pub fn exact_work(s: &Storypath) -> u64 {
    let (q, p) = (u64::from(s.quarry.laps) + 1, u64::from(s.pursuer.laps) + 1);
    let rolls = (u64::from(s.quarry.pool) + 1) * (u64::from(s.pursuer.pool) + 1);
    q * p * 4 * u64::from(s.limit) * rolls
}

/// The most [`exact_work`] solved exactly (about half a second of CPU).
pub const EXACT_WORK: u64 = 100_000;

/// A pool of d10s counting 8s, 9s and 10s. Its odds come from the dice engine; a roll throws the dice.
#[derive(Debug, Clone)]
pub struct Pool {
    pub dice: u32,
    pub die: u32,
    pub target: u32,
    outcomes: Vec<(P, i64)>,
}

impl Pool {
    pub fn new(dice: u32, die: u32, target: u32) -> Pool {
        let expr = format!("{dice}d{die}cs>={target}");
        let outcomes = crate::model::outcomes(&expr);
        Pool {
            dice,
            die,
            target,
            outcomes,
        }
    }
}

impl Check for Pool {
    fn describe(&self) -> String {
        format!(
            "{} d{}, each {} or more a success",
            count_words(self.dice),
            self.die,
            self.target
        )
    }
    fn outcomes(&self) -> Vec<(P, i64)> {
        self.outcomes.clone()
    }
    fn roll(&self, rng: &mut ChaCha20Rng) -> (Vec<i64>, i64) {
        let faces = roll_dice(rng, self.dice, self.die);
        let n = self.judge(&faces).unwrap_or(0);
        (faces, n)
    }
    fn judge(&self, faces: &[i64]) -> Option<i64> {
        if !are_dice(faces, self.dice, self.die) {
            return None;
        }
        Some(
            faces
                .iter()
                .filter(|&&f| f >= i64::from(self.target))
                .count() as i64,
        )
    }
    fn outcome_label(&self, outcome: i64) -> String {
        match outcome {
            0 => "no successes".into(),
            1 => "1 success".into(),
            n => format!("{n} successes"),
        }
    }
}

/// One side of the chase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Side {
    pub pool: u32,
    pub laps: u32,
    pub head_start: u32,
}

/// Where a chase stands.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct State {
    /// Intervals played.
    pub t: u32,
    /// Laps made, quarry then pursuers.
    pub laps: [u32; 2],
    /// Whether each side has its Snatch and Grab item.
    pub gear: [bool; 2],
    /// The ending reached (index into the endings), if any.
    pub done: Option<usize>,
}

pub fn policies() -> Vec<Policy> {
    vec![
        Policy::new(
            "buy-off",
            "Each side buys off the hazard with its first successes; the rest are laps.",
        ),
        Policy::new(
            "press-on",
            "Nobody buys off the hazard: every success is a lap, and the runner takes the hazard's Injury. As the odds do not count Injuries, this is best play for the race itself.",
        ),
        Policy::new(
            "snatch",
            "As buy-off, and each side spends one success on Snatch and Grab the first time it has two or more left, for 1e on every later roll.",
        ),
    ]
}

/// A Storypath chase.
#[derive(Debug, Clone)]
pub struct Storypath {
    pub quarry: Side,
    pub pursuer: Side,
    pub limit: u32,
    pub hazard: u32,
    /// Who wins a dead heat (`--ties`).
    pub ties: Ties,
    pools: [Pool; 2],
}

fn check(
    option: Opt,
    what: &'static str,
    v: u32,
    r: &std::ops::RangeInclusive<u32>,
) -> Result<(), OptionError> {
    if r.contains(&v) {
        Ok(())
    } else {
        Err(OptionError::new(
            option,
            Problem::Range {
                what,
                lo: i64::from(*r.start()),
                hi: i64::from(*r.end()),
                got: i64::from(v),
            },
        ))
    }
}

impl Storypath {
    /// A chase between two sides with `limit` intervals and a hazard of rating `hazard` (0: none),
    /// pools of d`die` succeeding on `target` or more.
    pub fn new(
        quarry: Side,
        pursuer: Side,
        limit: u32,
        hazard: u32,
    ) -> Result<Storypath, OptionError> {
        Storypath::with_dice(quarry, pursuer, limit, hazard, DIE, SUCCEEDS_ON)
    }

    /// As [`new`](Self::new) with pools of d`die` succeeding on `target` or more.
    pub fn with_dice(
        quarry: Side,
        pursuer: Side,
        limit: u32,
        hazard: u32,
        die: u32,
        target: u32,
    ) -> Result<Storypath, OptionError> {
        for (opts, s) in [
            [Opt::QuarryPool, Opt::QuarryLaps, Opt::QuarryHeadStart],
            [Opt::PursuerPool, Opt::PursuerLaps, Opt::PursuerHeadStart],
        ]
        .into_iter()
        .zip([quarry, pursuer])
        {
            check(opts[0], "a pool (Skill + Attribute dice)", s.pool, &POOLS)?;
            check(opts[1], "the laps needed", s.laps, &LAPS)?;
            check(opts[2], "a Head Start's rating", s.head_start, &RATINGS)?;
        }
        check(Opt::Limit, "the interval limit", limit, &LIMITS)?;
        check(Opt::Hazard, "a Hazard's rating", hazard, &RATINGS)?;
        Ok(Storypath {
            quarry,
            pursuer,
            limit,
            hazard,
            ties: Ties::default(),
            pools: [
                Pool::new(quarry.pool, die, target),
                Pool::new(pursuer.pool, die, target),
            ],
        })
    }

    /// The house rulings this chase rests on: its dice, one success one lap, its tie rule, then
    /// [`RULINGS`].
    pub fn rulings(&self) -> Vec<Ruling> {
        let (die, target) = (self.pools[0].die, self.pools[0].target);
        let mut v = vec![
            Ruling::new(
                "sp.chase.ruling.pool",
                "Dice pools",
                &format!(
                    "A pool is one d{die} per dot of Skill plus Attribute, and every die showing {target} or more is one success."
                ),
                "The chapter counts successes but never names the die or the number that succeeds; the kit's house ruling on dice pools decides it: d10s, 8 or more, the Storypath System's own convention.",
            ),
            Ruling::new(
                "sp.chase.ruling.laps",
                "One success, one lap",
                "Each interval both sides roll their pool once; every success left after Enhancements, the Hazard and Snatch and Grab is one lap, and the first side to make its laps needed wins.",
                "The chapter calls laps the milestones of a complex action, each a successful stretch, but never says how successes become laps; one per success lets the laps needed measure the distance (the kit's house ruling).",
            ),
            Ruling::new(
                "sp.chase.ruling.same-interval",
                "Both sides finish in the same interval",
                self.ties.ruling(),
                match self.ties {
                    Ties::Surplus => {
                        "The chapter does not say. Surplus laps measure how far ahead a side finished; the pursued party wins a dead heat, as in the other chase rules of the kits. The odds can also be asked with every tie going to the quarry, or to the pursuers."
                    }
                    _ => {
                        "The chapter does not say; this answer was asked with every tie going to one side. Unless asked, the side further past its laps needed wins, and the quarry a dead heat."
                    }
                },
            ),
        ];
        v.extend(
            RULINGS
                .iter()
                .map(|(id, t, r, why)| Ruling::new(id, t, r, why)),
        );
        v
    }

    fn side(&self, i: usize) -> Side {
        if i == 0 { self.quarry } else { self.pursuer }
    }

    /// One side's interval: roll, enhancements, hazard, Snatch and Grab. Returns (laps, gear).
    fn interval(&self, i: usize, s: &State, policy: usize, chance: &mut dyn Chance) -> (u32, bool) {
        let who = if i == 0 { "the quarry" } else { "the pursuit" };
        let side = self.side(i);
        applies("sp.chase.ruling.pool");
        let rolled = u32::try_from(chance.roll(who, "its pool", &self.pools[i])).unwrap_or(0);
        let mut n = rolled;
        // What happened, for the log (worded only when a log is kept).
        let (mut head, mut item, mut bought, mut snatched) = (0, false, None, false);
        if n >= 1 {
            if s.t == 0 && side.head_start > 0 {
                applies("sp.chase.ruling.head-start");
                n += side.head_start;
                head = side.head_start;
            }
            if s.gear[i] {
                n += 1;
                item = true;
            }
        }
        if self.hazard > 0 && policy != 1 {
            applies("sp.chase.ruling.hazard");
            bought = Some(n >= self.hazard);
            n = n.saturating_sub(self.hazard);
        }
        let mut gear = s.gear[i];
        if policy == 2 && !gear && n >= 2 {
            applies("sp.chase.ruling.snatch");
            n -= 1;
            gear = true;
            snatched = true;
        }
        applies("sp.chase.ruling.laps");
        let total = s.laps[i] + n;
        let hazard = self.hazard;
        chance.note(&|| {
            let mut notes: Vec<String> = Vec::new();
            if head > 0 {
                notes.push(format!("Head Start adds {head}"));
            }
            if item {
                notes.push("their grabbed item adds 1".into());
            }
            match bought {
                Some(true) => notes.push(format!("{} bought off the hazard", count_words(hazard))),
                Some(false) => notes.push(
                    "too few successes to buy off the hazard: they take its Injury and make no lap"
                        .into(),
                ),
                None if hazard > 0 => {
                    notes.push("they press on through the hazard and take its Injury".into())
                }
                None => {}
            }
            if snatched {
                notes.push("one spent on Snatch and Grab".into());
            }
            let extra = if notes.is_empty() {
                String::new()
            } else {
                format!(" ({})", notes.join("; "))
            };
            format!(
                "{who}: {} lap{}{extra}, {total} of {}",
                n,
                if n == 1 { "" } else { "s" },
                side.laps
            )
        });
        (total, gear)
    }
}

impl System for Storypath {
    type State = State;

    fn info(&self) -> SystemInfo {
        SystemInfo {
            id: "storypath".into(),
            name: "Storypath".into(),
            unit: Unit::new("interval", "intervals"),
            endings: vec![
                Ending::new(
                    "escaped",
                    "The quarry completes its laps first and gets away",
                ),
                Ending::new(
                    "caught",
                    "The pursuers complete their laps first and catch the quarry",
                ),
                Ending::new("limit", "The interval limit comes with neither side done"),
            ],
            policies: policies(),
            rulings: self.rulings(),
        }
    }

    fn start(&self, _chance: &mut dyn Chance) -> State {
        State {
            t: 0,
            laps: [0, 0],
            gear: [false, false],
            done: None,
        }
    }

    fn ending(&self, s: &State) -> Option<usize> {
        s.done
    }

    fn step(&self, s: &State, policy: usize, chance: &mut dyn Chance) -> State {
        let (lq, gq) = self.interval(0, s, policy, chance);
        let (lp, gp) = self.interval(1, s, policy, chance);
        let (nq, np) = (self.quarry.laps, self.pursuer.laps);
        let t = s.t + 1;
        let done = match (lq >= nq, lp >= np) {
            (true, false) => Some(0),
            (false, true) => Some(1),
            (true, true) => {
                applies("sp.chase.ruling.same-interval");
                let pursuers = match self.ties {
                    Ties::Surplus => lp - np > lq - nq,
                    Ties::Quarry => false,
                    Ties::Pursuer => true,
                };
                Some(usize::from(pursuers))
            }
            (false, false) if t >= self.limit => {
                applies("sp.chase.ruling.limit");
                Some(2)
            }
            (false, false) => None,
        };
        // Laps past the need change nothing once a side is done: cap them so states merge.
        State {
            t,
            laps: [lq.min(nq), lp.min(np)],
            gear: [gq, gp],
            done,
        }
    }

    fn describe(&self, s: &State) -> String {
        let when = if s.t == 0 {
            format!("before the first of {} intervals", self.limit)
        } else {
            format!("after interval {} of {}", s.t, self.limit)
        };
        let head = format!(
            "{when}: quarry {} of {} laps, pursuers {} of {}",
            s.laps[0], self.quarry.laps, s.laps[1], self.pursuer.laps
        );
        match s.done {
            Some(0) => format!("{head}; the quarry gets away"),
            Some(1) => format!("{head}; the pursuers catch the quarry"),
            Some(_) => format!("{head}; the interval limit is reached"),
            None => head,
        }
    }

    fn max_units(&self) -> u32 {
        self.limit
    }

    fn too_big(&self) -> Option<String> {
        let work = exact_work(self);
        (work > EXACT_WORK).then(|| {
            format!(
                "about {work} state-and-roll combinations (laps {} and {}, {} intervals, pools {} and {}), more than {EXACT_WORK}",
                self.quarry.laps, self.pursuer.laps, self.limit, self.quarry.pool, self.pursuer.pool
            )
        })
    }
}
