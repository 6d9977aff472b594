//! The system-neutral model of a chase: a [`System`] says where a chase starts, when it has ended and how
//! one unit of it (a round, a beat, an interval) plays out; every random event of that unit goes through a
//! [`Chance`], which the exact solver enumerates, the simulator samples and `chase play` samples and logs.

use std::fmt::Debug;
use std::hash::Hash;

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use rand::RngExt;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};

use crate::budget::{Meter, Stop};

/// An exact probability.
pub type P = BigRational;

/// The unit a system measures a chase's length in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// "round"
    pub one: String,
    /// "rounds"
    pub many: String,
}

impl Unit {
    pub fn new(one: &str, many: &str) -> Self {
        Unit {
            one: one.into(),
            many: many.into(),
        }
    }

    /// "1 round", "3 rounds".
    pub fn count(&self, n: u64) -> String {
        format!("{n} {}", if n == 1 { &self.one } else { &self.many })
    }
}

/// One way a chase can end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    /// Short identifier: "escaped", "caught".
    pub id: String,
    /// What the GM reads: "The quarry escapes".
    pub label: String,
}

impl Ending {
    pub fn new(id: &str, label: &str) -> Self {
        Ending {
            id: id.into(),
            label: label.into(),
        }
    }
}

/// A decision the rules leave open, taken once for the model (and listed with the kit's rulings): the
/// same fields as a content `[[ruling]]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ruling {
    /// "bbb.chase.ruling.caught"
    pub id: String,
    pub title: String,
    /// What the model does.
    pub ruling: String,
    /// Why.
    pub reason: String,
}

impl Ruling {
    pub fn new(id: &str, title: &str, ruling: &str, reason: &str) -> Self {
        Ruling {
            id: id.into(),
            title: title.into(),
            ruling: ruling.into(),
            reason: reason.into(),
        }
    }
}

/// Marks the place where a model applies one of its house rulings, by the ruling's id:
/// `applies("bbb.chase.ruling.turns");`. It does nothing when the model runs; the crate's test
/// `every_ruling_is_cited_where_it_applies` reads each model's source and fails when a ruling the model
/// lists (and so prints with every answer) is cited nowhere, or a cited one is not listed.
#[inline(always)]
pub const fn applies(_ruling: &str) {}

/// A named way of making the choices the rules leave to the players.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Policy {
    /// What `--policy` takes: "cautious".
    pub id: String,
    /// What it does, in words.
    pub text: String,
}

impl Policy {
    pub fn new(id: &str, text: &str) -> Self {
        Policy {
            id: id.into(),
            text: text.into(),
        }
    }
}

/// What a system tells about itself: the same for every chase of the system, but for rulings that say
/// the chase's options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SystemInfo {
    /// The command-line name: "bbb".
    pub id: String,
    /// "Block by Block".
    pub name: String,
    pub unit: Unit,
    /// Every ending the system's own rules define. The framework adds one more, [`LIMIT_ENDING`], for a
    /// chase still running after [`System::max_units`].
    pub endings: Vec<Ending>,
    /// The policies; the first is the default.
    pub policies: Vec<Policy>,
    /// The house rulings the model rests on: every choice the source leaves open, each with its reason,
    /// printed with every answer. Some say the chase's own options (Storypath's dice and `--ties`).
    pub rulings: Vec<Ruling>,
}

/// The ending id of a chase cut off at [`System::max_units`].
pub const LIMIT_ENDING: &str = "called-off";

/// A chase system with its options applied (participants, track, …).
///
/// See the crate documentation for how to write one.
pub trait System {
    /// Everything a chase needs to remember between two units. Keep it small: the exact solver stores
    /// every distinct state it reaches.
    type State: Clone + Eq + Hash + Debug;

    fn info(&self) -> SystemInfo;

    /// The state before the first unit. May use `chance` (a speed roll, the first cards dealt).
    fn start(&self, chance: &mut dyn Chance) -> Self::State;

    /// `Some(i)` when the chase has ended with `info().endings[i]`.
    fn ending(&self, state: &Self::State) -> Option<usize>;

    /// Play one unit (round, beat, interval) from a state that has not ended, under policy `policy`
    /// (an index into `info().policies`). Every random event goes through `chance`; the function must be
    /// deterministic given what `chance` returns.
    fn step(&self, state: &Self::State, policy: usize, chance: &mut dyn Chance) -> Self::State;

    /// Where everyone stands, in words, for the `chase play` log.
    fn describe(&self, state: &Self::State) -> String;

    /// A chase still running after this many units is called off (ending [`LIMIT_ENDING`]); its chance
    /// is reported like any other ending. It keeps every computation finite.
    fn max_units(&self) -> u32;

    /// One representative of every state that plays out the same (cards of equal value swapped, say), so
    /// the exact solver stores fewer states. The simulator and `chase play` never call it. Default: the
    /// state itself.
    fn canonical(&self, state: Self::State) -> Self::State {
        state
    }

    /// `Some(reason)` when the state space is known to be beyond the exact solver's limits, so the
    /// answer goes straight to the labelled simulation instead of spending the budget to find out
    /// ("a 52-card deck dealt without replacement over 60 rounds"). Default: `None`, try.
    fn too_big(&self) -> Option<String> {
        None
    }

    /// Work a policy needs before its first unit can be played (best play's plans over every state),
    /// counted on `meter` and kept for `step`; an error when it is past the meter's limit or the
    /// question is cancelled. The exact solver, the simulator and `chase play` call it first. Default:
    /// nothing to do.
    fn prepare(&self, _policy: usize, _meter: &mut Meter) -> Result<(), Stop> {
        Ok(())
    }
}

/// A roll whose outcome the rules care about: how it is rolled, its exact distribution and how faces
/// are read. The outcome is a whole number the system interprets (1 success / 0 failure, a level of
/// success, a total).
pub trait Check: Debug {
    /// How it is rolled, in words a GM reads ("3 dice, a 6 succeeds, with advantage").
    fn describe(&self) -> String;
    /// Every outcome with its exact probability (each at most once, none with probability 0).
    fn outcomes(&self) -> Vec<(P, i64)>;
    /// Roll the dice: the faces shown and the outcome they give.
    fn roll(&self, rng: &mut ChaCha20Rng) -> (Vec<i64>, i64);
    /// The outcome the faces give, or `None` when they are not a legal roll of this check.
    fn judge(&self, faces: &[i64]) -> Option<i64>;
    /// The outcome in words ("success", "extreme success", "7").
    fn outcome_label(&self, outcome: i64) -> String;
}

/// The source of every random event of a chase.
pub trait Chance {
    /// Make a roll: `who` rolls `what` ("the quarry", "Dexterity against the obstacle").
    fn roll(&mut self, who: &str, what: &str, check: &dyn Check) -> i64;
    /// An equally likely choice among `n` (a card off a deck of `n`): 0..n. `n` must be at least 1.
    fn draw(&mut self, who: &str, what: &str, n: usize) -> usize;
    /// A card off a deck of `n = groups.iter().sum()` whose cards fall into groups of interchangeable ones
    /// (`groups[g]` cards each; for the rules, any card of a group is as good as another): returns the
    /// group and the member, as `draw` would with the cards in group order. The exact solver
    /// enumerates groups only (each with weight size/n, member 0), so equal cards cost one branch.
    fn draw_grouped(&mut self, who: &str, what: &str, groups: &[usize]) -> (usize, usize) {
        let n = groups.iter().sum();
        let mut i = self.draw(who, what, n);
        for (g, &size) in groups.iter().enumerate() {
            if i < size {
                return (g, i);
            }
            i -= size;
        }
        (groups.len() - 1, 0)
    }
    /// A choice by exact weights (summing to 1; zero weights are never chosen).
    fn pick(&mut self, what: &str, weights: &[P]) -> usize;
    /// A line for the log; only `chase play` calls the closure.
    fn note(&mut self, line: &dyn Fn() -> String);
}

/// One entry of a played chase's log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    Roll {
        who: String,
        what: String,
        dice: String,
        faces: Vec<i64>,
        outcome: i64,
        result: String,
    },
    Draw {
        who: String,
        what: String,
        index: usize,
        of: usize,
    },
    Pick {
        what: String,
        index: usize,
    },
    Note {
        text: String,
    },
}

pub use crate::error::{Opt, OptionError, Problem};

/// The index of `id` among `info.policies`, or an error naming the policy option and listing the choices.
pub fn policy_index(info: &SystemInfo, id: Option<&str>) -> Result<usize, OptionError> {
    let Some(id) = id else { return Ok(0) };
    info.policies
        .iter()
        .position(|p| p.id == id)
        .ok_or_else(|| {
            let names: Vec<&str> = info.policies.iter().map(|p| p.id.as_str()).collect();
            OptionError::new(
                Opt::Policy,
                Problem::NoPolicy {
                    system: info.name.clone(),
                    given: id.to_owned(),
                    policies: names.iter().map(|n| (*n).to_owned()).collect(),
                },
            )
        })
}

/// `n` dice of `sides` sides rolled one by one, each face 1 to `sides` (every system's plain dice).
pub fn roll_dice(rng: &mut ChaCha20Rng, n: u32, sides: u32) -> Vec<i64> {
    (0..n)
        .map(|_| i64::from(rng.random_range(1..=sides)))
        .collect()
}

/// Whether `faces` are a legal roll of `n` dice of `sides` sides (for [`Check::judge`]).
pub fn are_dice(faces: &[i64], n: u32, sides: u32) -> bool {
    faces.len() == n as usize && faces.iter().all(|f| (1..=i64::from(sides)).contains(f))
}

/// The exact outcomes of a dice expression the system itself writes (a pool, a Fudge roll, a stat roll):
/// each value with its chance, values of chance zero left out. Such an expression always parses and has a
/// small distribution; were it not to, there would be no outcomes.
pub fn outcomes(expr: &str) -> Vec<(P, i64)> {
    blockprint_dice::parse(expr)
        .ok()
        .and_then(|e| e.distribution().ok())
        .map(|d| d.outcomes())
        .unwrap_or_default()
        .into_iter()
        .filter(|(_, p)| !p.is_zero())
        .map(|(v, p)| (p, v.to_integer().to_i64().unwrap_or(0)))
        .collect()
}

/// A log line's first letter in capitals: "the pursuer" → "The pursuer".
pub fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// A system's options at their defaults, as the command line reads them with none given (`name` is the
/// system's command, for the error clap would give if a default failed its own check).
pub fn defaults<A: clap::Args + clap::FromArgMatches>(name: &str) -> Result<A, OptionError> {
    let bad = |e: clap::Error| {
        OptionError::new(
            Opt::System,
            Problem::Defaults {
                message: format!("{name}: {e}"),
            },
        )
    };
    let m = A::augment_args(clap::Command::new(name.to_owned()))
        .try_get_matches_from([name])
        .map_err(bad)?;
    A::from_arg_matches(&m).map_err(bad)
}
