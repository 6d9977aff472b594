//! The campaign tracker: the rules' calendar between sessions. A campaign is a pure function of its setup
//! (year, seed, squad) and its command log: [`replay`] applies the log step by step and yields everything
//! a group needs to see (the calendar position, every case with its lead and dates, every roll with its
//! odds, the monthly and yearly closure rates and their consequences). The state file
//! ([`file`]) stores the setup, the log and that derived state; every command replays the log, so
//! `undo` is dropping the last entry.
//!
//! Every roll draws from its own ChaCha20 stream of the campaign seed, named by a purpose and an index
//! ([`stream`]): the new-case check of week `w` of year `y` is stream (`WEEK`, `y`·64 + `w`), whatever
//! came before it. So [`new_case_check`] can pre-roll a year's checks for `plan`, and a command rerun
//! after an undo rolls exactly what it rolled the first time.
//!
//! The calendar: four weeks to a month and twelve months to a year (48 weeks), as the rules count them.
//! Week `k` of a month covers days 1–7, 8–14, 15–21 and 22 to the month's end (house ruling
//! `bbb.ruling.campaign_weeks`).

mod calendar;
pub mod file;
pub mod kind;
mod options;
mod problem;
mod replay;

pub use calendar::{case_arrival, month_of, parse_stamp, starting_arrivals, week_days, week_span};
pub use file::Campaign;
pub use options::NewOptions;
pub use problem::{ReplayError, StepProblem};
pub use replay::replay;

use jiff::civil::Date;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};

use blockprint_content::Library;
use blockprint_content::roll::calendar::DateTime;
use blockprint_render::{Format, Paper};

/// The state file in a campaign folder, and the previous good state kept beside it.
pub const STATE_FILE: &str = "campaign.toml";
pub const PREVIOUS_FILE: &str = "campaign.prev.toml";

pub const WEEKS_PER_MONTH: u32 = 4;
pub const MONTHS_PER_YEAR: u32 = 12;
pub const WEEKS_PER_YEAR: u32 = WEEKS_PER_MONTH * MONTHS_PER_YEAR;
/// The weekly check: a new case comes in on [`NEW_CASE_AT_MOST`] or less.
pub const NEW_CASE_DIE: &str = "1d6";
pub const NEW_CASE_AT_MOST: i64 = 2;
/// The closure-rate rolls.
pub const PERCENT_DIE: &str = "1d100";
/// The most detectives a squad can have.
pub const MAX_SQUAD: usize = 50;

/// Stream purposes (the high 32 bits of a stream number; the detective and NPC generators use 1–3).
pub const WEEK: u64 = 16;
pub const LEAD: u64 = 17;
pub const DATE: u64 = 18;
pub const MONTH: u64 = 19;
pub const YEAR: u64 = 20;
pub const CASES: u64 = 21;
pub const DETECTIVES: u64 = 22;
pub const ASSIGNMENT: u64 = 23;
pub const REASSIGN: u64 = 24;
pub const START: u64 = 25;

pub const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The generator of stream (`purpose`, `index`) of the campaign seed.
pub fn stream(seed: u64, purpose: u64, index: u64) -> ChaCha20Rng {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    rng.set_stream((purpose << 32) | (index & 0xffff_ffff));
    rng
}

/// A seed derived from stream (`purpose`, `index`) (below 2^53, as every printed seed).
pub fn derived_seed(seed: u64, purpose: u64, index: u64) -> u64 {
    rand::Rng::next_u64(&mut stream(seed, purpose, index))
        & blockprint_content::roll::case::MAX_SEED
}

/// The index of week `week` of `year` in the per-week streams.
pub fn week_index(year: i32, week: u32) -> u64 {
    (year as u64) * 64 + u64::from(week)
}

/// The seed of the campaign's case batch of `year`: its packets are cases of that batch.
pub fn case_batch_seed(seed: u64, year: i32) -> u64 {
    derived_seed(seed, CASES, year as u64)
}

/// The seed of the batch the `--roll` detectives come from (detective N is number N of it).
pub fn detective_batch_seed(seed: u64) -> u64 {
    derived_seed(seed, DETECTIVES, 0)
}

/// How a campaign starts: `campaign new`'s options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub year: i32,
    pub seed: u64,
    pub paper: Paper,
    /// Which files each case packet is written as.
    pub packets: Vec<Format>,
    /// The squad by name (empty when rolled).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub detectives: Vec<Member>,
    /// How many detectives to roll (0 when named).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub roll: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A detective named at `campaign new`, with their least-wanted assignment if the player gave it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Member {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assignment: Option<String>,
}

/// One command of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum Step {
    /// Start the next week: the new-case check.
    Week,
    /// A case closed this week.
    Close { case: String },
    /// End of month: closure rates and the commanding-officer rolls.
    Month,
    /// End of year: the demotion rolls; `top_brass` names who strains the top brass to stay.
    Year {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        top_brass: Vec<String>,
    },
    /// A strained relationship repaired in play (downtime): `relationship` is `commanding_officer` or
    /// `commissioner`.
    Mend {
        detective: String,
        relationship: Relation,
    },
}

impl Step {
    /// The command line that makes this step.
    pub fn describe(&self) -> String {
        match self {
            Step::Week => "week".into(),
            Step::Close { case } => format!("close {case}"),
            Step::Month => "month".into(),
            Step::Year { top_brass } if top_brass.is_empty() => "year".into(),
            Step::Year { top_brass } => format!("year --top-brass \"{}\"", top_brass.join(",")),
            Step::Mend {
                detective,
                relationship,
            } => format!("mend \"{detective}\" {}", relationship.word()),
        }
    }
}

/// The two relationships the paperwork rules strain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// The commanding officer (squad supervisor).
    #[value(name = "co")]
    CommandingOfficer,
    /// The commissioner or top brass.
    Commissioner,
}

impl Relation {
    pub fn word(self) -> &'static str {
        match self {
            Relation::CommandingOfficer => "co",
            Relation::Commissioner => "commissioner",
        }
    }
    pub fn title(self) -> &'static str {
        match self {
            Relation::CommandingOfficer => "commanding officer",
            Relation::Commissioner => "commissioner",
        }
    }
}

/// Where the calendar stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calendar {
    pub year: i32,
    /// Weeks of `year` started so far (0–48).
    pub week: u32,
    /// Months of `year` closed by `campaign month` (0–12).
    pub months_closed: u32,
    /// What comes next, for people: `week 5 (February, week 1)`.
    pub next: String,
}

/// A detective and where they stand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Detective {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// Where they land if they are thrown off the squad.
    pub assignment: String,
    /// Whether the assignment was `given` at `campaign new`, `rolled` on the content's table, or comes
    /// from the detective's `sheet`.
    pub assignment_from: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sheet: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commanding_officer_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commissioner_name: Option<String>,
    pub commanding_officer_strained: bool,
    pub commissioner_strained: bool,
    pub on_squad: bool,
    /// Why and when they left the squad.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left: Option<String>,
}

/// A case on the squad's books.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// `1976-07`.
    pub number: String,
    pub year: i32,
    pub n: u32,
    /// The case's own seed (its packet is case `n` of [`case_batch_seed`]).
    pub seed: u64,
    pub lead: String,
    /// Who was lead when it came in (whose month it counts as received in).
    pub received_by: String,
    /// A starting case (every detective begins with one).
    pub starting: bool,
    /// Week of `year` it came in (starting cases: week 1).
    pub week: u32,
    /// `1976-01-17 14:05`.
    pub came_in: String,
    /// `open` or `closed`.
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed_year: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed_week: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed_by: Option<String>,
}

impl Case {
    pub fn is_open(&self) -> bool {
        self.status == "open"
    }
}

/// One detective's month.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonthResult {
    pub year: i32,
    pub month: u32,
    pub detective: String,
    pub received: u32,
    pub closed: u32,
    /// Closed ÷ received as a fraction; none in a month with no new case (`bbb.ruling.empty_month`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<String>,
    /// The year-to-date average of the monthly rates that exist.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average: Option<String>,
    /// Rolls at or under this keep the relationship (the average as a whole percentage, at most 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<u32>,
    pub outcome: String,
}

/// One detective's year-end demotion roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct YearResult {
    pub year: i32,
    pub detective: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub squad_rate: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub personal_rate: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chance: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<u32>,
    pub outcome: String,
}

/// One roll and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roll {
    /// The command of the log that made it (1-based; 0 is `campaign new`).
    pub command: u32,
    pub purpose: String,
    /// The stream of the campaign seed it drew from: `week 1976/3`.
    pub stream: String,
    pub dice: String,
    pub result: i64,
    /// The exact chance of the outcome named in `odds_of`.
    pub odds: String,
    pub odds_of: String,
    pub outcome: String,
}

/// Everything the log works out to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Derived {
    pub calendar: Option<Calendar>,
    pub detectives: Vec<Detective>,
    pub cases: Vec<Case>,
    pub months: Vec<MonthResult>,
    pub years: Vec<YearResult>,
    pub rolls: Vec<Roll>,
}

/// A detective as the squad starts with them (from the setup and, for rolled ones, the generator).
#[derive(Debug, Clone, PartialEq)]
pub struct Recruit {
    pub name: String,
    pub class: Option<String>,
    pub assignment: Option<String>,
    pub sheet: Option<String>,
    pub commanding_officer: Option<String>,
    pub commissioner: Option<String>,
}

/// The squad of a setup: named detectives as given, rolled ones from the detective generator.
pub fn recruits(lib: &Library, setup: &Setup) -> Result<Vec<Recruit>, StepProblem> {
    if setup.roll > 0 {
        let batch = detective_batch_seed(setup.seed);
        return (1..=setup.roll)
            .map(|number| {
                let (d, _) = blockprint_content::roll::detective::roll_detective(
                    lib,
                    &blockprint_content::roll::detective::DetectiveRequest {
                        batch_seed: batch,
                        number,
                        class: None,
                    },
                )
                .map_err(|source| StepProblem::RollDetective { number, source })?;
                let rel = |word: &str| {
                    d.relationships
                        .iter()
                        .find(|r| r.role.to_lowercase().contains(word))
                        .map(|r| r.name.clone())
                };
                Ok(Recruit {
                    commanding_officer: rel("commanding"),
                    commissioner: rel("commissioner"),
                    name: d.name,
                    class: Some(d.class),
                    assignment: Some(d.assignment),
                    sheet: Some(format!("detectives/detective-{number:05}.pdf")),
                })
            })
            .collect();
    }
    Ok(setup
        .detectives
        .iter()
        .map(|m| Recruit {
            name: m.name.clone(),
            class: None,
            assignment: m.assignment.clone(),
            sheet: None,
            commanding_officer: None,
            commissioner: None,
        })
        .collect())
}

/// Check a setup's values (the ones serde cannot): what is wrong, for a usage error or a diagnostic.
pub fn validate_setup(setup: &Setup) -> Result<(), StepProblem> {
    if !(1900..=2100).contains(&setup.year) {
        return Err(StepProblem::Year { year: setup.year });
    }
    if setup.seed > blockprint_content::roll::case::MAX_SEED {
        return Err(StepProblem::Seed { seed: setup.seed });
    }
    if !matches!(setup.paper, Paper::A4 | Paper::Letter) {
        return Err(StepProblem::Paper {
            paper: setup.paper.name().to_owned(),
        });
    }
    if setup
        .packets
        .iter()
        .any(|f| !matches!(f, Format::Pdf | Format::Md | Format::Json))
    {
        return Err(StepProblem::Packets);
    }
    match (setup.detectives.len(), setup.roll) {
        (0, 0) => return Err(StepProblem::EmptySquad),
        (n, r) if n > 0 && r > 0 => return Err(StepProblem::NamedAndRolled),
        (n, r) if n.max(r as usize) > MAX_SQUAD => {
            return Err(StepProblem::SquadSize {
                size: n.max(r as usize),
                max: MAX_SQUAD,
            });
        }
        _ => {}
    }
    let mut seen: Vec<String> = Vec::new();
    for m in &setup.detectives {
        let name = m.name.trim();
        if name.is_empty() {
            return Err(StepProblem::EmptyName);
        }
        if name != m.name || name.chars().any(char::is_control) {
            return Err(StepProblem::NameSpaces {
                name: m.name.clone(),
            });
        }
        if seen.iter().any(|s| s.eq_ignore_ascii_case(name)) {
            return Err(StepProblem::SameName {
                name: name.to_owned(),
            });
        }
        seen.push(name.to_owned());
        if m.assignment.as_deref().is_some_and(|a| a.trim().is_empty()) {
            return Err(StepProblem::EmptyAssignment {
                name: name.to_owned(),
            });
        }
    }
    Ok(())
}

/// A fraction as written in the state file: `2/3`, `1`, `0`.
pub fn fraction(r: &BigRational) -> String {
    if r.is_integer() {
        r.to_integer().to_string()
    } else {
        format!("{}/{}", r.numer(), r.denom())
    }
}

/// A fraction as a percentage for people: `66.67%`, `100%`.
pub fn percent(r: &BigRational) -> String {
    let p = r * BigRational::from_integer(BigInt::from(100));
    if p.is_integer() {
        format!("{}%", p.to_integer())
    } else {
        let hundredths = (p * BigRational::from_integer(BigInt::from(100)))
            .round()
            .to_integer();
        let v = hundredths.to_i64().unwrap_or(0);
        format!("{}.{:02}%", v / 100, (v % 100).abs())
    }
}

/// Parse `a/b` or `a` (a fraction the state file holds).
pub fn parse_fraction(s: &str) -> Option<BigRational> {
    let (n, d) = s.split_once('/').unwrap_or((s, "1"));
    let n: BigInt = n.trim().parse().ok()?;
    let d: BigInt = d.trim().parse().ok()?;
    (!d.is_zero()).then(|| BigRational::new(n, d))
}

/// The d100 target of a rate: the highest roll that succeeds (the rate as a whole percentage, rounded
/// down, at most 100).
pub fn target_of(rate: &BigRational) -> u32 {
    let p = (rate * BigRational::from_integer(BigInt::from(100)))
        .floor()
        .to_integer();
    p.to_u32()
        .unwrap_or(if p.is_zero() { 0 } else { 100 })
        .min(100)
}

/// Roll `dice` on `rng` with the exact dice engine; (result, exact chance of a result ≤ `at_most`).
fn roll_at_most(
    dice: &str,
    rng: &mut ChaCha20Rng,
    at_most: i64,
) -> Result<(i64, BigRational), StepProblem> {
    let bad = |message: String| StepProblem::Dice {
        dice: dice.to_owned(),
        message,
    };
    let e = blockprint_dice::parse(dice).map_err(|e| bad(e.message))?;
    let r = e.roll(rng).map_err(|e| bad(e.message))?;
    let dist = e.distribution().map_err(|e| bad(e.message))?;
    let limit = BigRational::from_integer(BigInt::from(at_most));
    let odds = dist.probability_where(|v| *v <= limit);
    let v = r.value.to_integer().to_i64().unwrap_or(0);
    Ok((v, odds))
}

/// The new-case check of week `week` of `year`: the d6 result and whether a case comes in. The same
/// whether rolled by `week` or pre-rolled by `plan`.
pub fn new_case_check(seed: u64, year: i32, week: u32) -> Result<(i64, bool), StepProblem> {
    let mut rng = stream(seed, WEEK, week_index(year, week));
    let (v, _) = roll_at_most(NEW_CASE_DIE, &mut rng, NEW_CASE_AT_MOST)?;
    Ok((v, v <= NEW_CASE_AT_MOST))
}

/// The exact chance that a week brings a new case (1/3 with the rules' 1d6, 1–2).
pub fn new_case_odds() -> BigRational {
    blockprint_dice::parse(NEW_CASE_DIE)
        .ok()
        .and_then(|e| e.distribution().ok())
        .map(|d| {
            let limit = BigRational::from_integer(BigInt::from(NEW_CASE_AT_MOST));
            d.probability_where(|v| *v <= limit)
        })
        .unwrap_or_default()
}

/// What the log would give next: the commands that can run now (for messages).
pub fn open_cases(d: &Derived) -> Vec<&Case> {
    d.cases.iter().filter(|c| c.is_open()).collect()
}
