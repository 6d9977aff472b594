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

pub mod file;

pub use file::Campaign;

use jiff::civil::Date;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};

use crate::content::Library;
use crate::render::{Format, Paper};
use crate::roll::calendar::DateTime;

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
    rand::Rng::next_u64(&mut stream(seed, purpose, index)) & crate::roll::case::MAX_SEED
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

/// A command that cannot be applied where the campaign stands: what is wrong and how to go on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepError(pub String);

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
pub fn recruits(lib: &Library, setup: &Setup) -> Result<Vec<Recruit>, StepError> {
    if setup.roll > 0 {
        let batch = detective_batch_seed(setup.seed);
        return (1..=setup.roll)
            .map(|number| {
                let (d, _) = crate::roll::detective::roll_detective(
                    lib,
                    &crate::roll::detective::DetectiveRequest {
                        batch_seed: batch,
                        number,
                        class: None,
                    },
                )
                .map_err(|e| StepError(format!("cannot roll detective {number}: {}", e.0)))?;
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
pub fn validate_setup(setup: &Setup) -> Result<(), StepError> {
    if !(1900..=2100).contains(&setup.year) {
        return Err(StepError(format!(
            "the year {} is outside 1900–2100",
            setup.year
        )));
    }
    if setup.seed > crate::roll::case::MAX_SEED {
        return Err(StepError(format!(
            "the seed {} is not below 2^53",
            setup.seed
        )));
    }
    if !matches!(setup.paper, Paper::A4 | Paper::Letter) {
        return Err(StepError(format!(
            "the campaign's packets and sheets print on a4 or letter, not {}",
            setup.paper.name()
        )));
    }
    if setup
        .packets
        .iter()
        .any(|f| !matches!(f, Format::Pdf | Format::Md | Format::Json))
    {
        return Err(StepError(
            "case packets are written as pdf, md or json".into(),
        ));
    }
    match (setup.detectives.len(), setup.roll) {
        (0, 0) => {
            return Err(StepError(
                "the squad is empty: name its detectives (--detectives \"A,B\") or roll some (--roll N)"
                    .into(),
            ));
        }
        (n, r) if n > 0 && r > 0 => {
            return Err(StepError(
                "name the detectives or roll them, not both".into(),
            ));
        }
        (n, r) if n.max(r as usize) > MAX_SQUAD => {
            return Err(StepError(format!(
                "a squad of {} is more than {MAX_SQUAD} detectives",
                n.max(r as usize)
            )));
        }
        _ => {}
    }
    let mut seen: Vec<String> = Vec::new();
    for m in &setup.detectives {
        let name = m.name.trim();
        if name.is_empty() {
            return Err(StepError("a detective's name is empty".into()));
        }
        if name != m.name || name.chars().any(char::is_control) {
            return Err(StepError(format!(
                "the name `{}` has spaces at an end or control characters",
                m.name.escape_debug()
            )));
        }
        if seen.iter().any(|s| s.eq_ignore_ascii_case(name)) {
            return Err(StepError(format!(
                "two detectives are called `{name}`; give each a different name"
            )));
        }
        seen.push(name.to_owned());
        if m.assignment.as_deref().is_some_and(|a| a.trim().is_empty()) {
            return Err(StepError(format!("`{name}`'s assignment is empty")));
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
) -> Result<(i64, BigRational), StepError> {
    let bad = |m: String| StepError(format!("cannot roll `{dice}`: {m}"));
    let e = crate::dice::parse(dice).map_err(|e| bad(e.message))?;
    let r = e.roll(rng).map_err(|e| bad(e.message))?;
    let dist = e.distribution().map_err(|e| bad(e.message))?;
    let limit = BigRational::from_integer(BigInt::from(at_most));
    let odds = dist.probability_where(|v| *v <= limit);
    let v = r.value.to_integer().to_i64().unwrap_or(0);
    Ok((v, odds))
}

/// The new-case check of week `week` of `year`: the d6 result and whether a case comes in. The same
/// whether rolled by `week` or pre-rolled by `plan`.
pub fn new_case_check(seed: u64, year: i32, week: u32) -> Result<(i64, bool), StepError> {
    let mut rng = stream(seed, WEEK, week_index(year, week));
    let (v, _) = roll_at_most(NEW_CASE_DIE, &mut rng, NEW_CASE_AT_MOST)?;
    Ok((v, v <= NEW_CASE_AT_MOST))
}

/// The exact chance that a week brings a new case (1/3 with the rules' 1d6, 1–2).
pub fn new_case_odds() -> BigRational {
    crate::dice::parse(NEW_CASE_DIE)
        .ok()
        .and_then(|e| e.distribution().ok())
        .map(|d| {
            let limit = BigRational::from_integer(BigInt::from(NEW_CASE_AT_MOST));
            d.probability_where(|v| *v <= limit)
        })
        .unwrap_or_default()
}

/// Month (1–12) and week of the month (1–4) of week `week` (1–48) of the year.
pub fn month_of(week: u32) -> (u32, u32) {
    let w = week.clamp(1, WEEKS_PER_YEAR) - 1;
    (w / WEEKS_PER_MONTH + 1, w % WEEKS_PER_MONTH + 1)
}

/// The days week `week` (1–48) of `year` covers: first and last date (house ruling: 1–7, 8–14, 15–21, 22
/// to the end of the month).
pub fn week_days(year: i32, week: u32) -> Result<(Date, Date), StepError> {
    let (month, k) = month_of(week);
    let bad = |e: jiff::Error| StepError(format!("no calendar for {year}: {e}"));
    let first = Date::new(year as i16, month as i8, (1 + 7 * (k - 1)) as i8).map_err(bad)?;
    let last_day = if k == WEEKS_PER_MONTH {
        first.days_in_month()
    } else {
        (7 * k) as i8
    };
    let last = Date::new(year as i16, month as i8, last_day).map_err(bad)?;
    Ok((first, last))
}

/// `15–21 January` or `22–31 December`.
pub fn week_span(year: i32, week: u32) -> String {
    match week_days(year, week) {
        Ok((a, b)) => format!(
            "{}–{} {}",
            a.day(),
            b.day(),
            MONTH_NAMES[(a.month() - 1) as usize]
        ),
        Err(_) => String::new(),
    }
}

/// `minute` minutes after the start of `date`.
fn at(date: Date, minute: i64) -> Result<DateTime, StepError> {
    DateTime::new(
        i64::from(date.year()),
        date.month() as u32,
        date.day() as u32,
        0,
        0,
    )
    .and_then(|t| t.plus_minutes(minute))
    .ok_or_else(|| StepError(format!("no calendar for {}", date.year())))
}

/// When the case of week `week` comes in: a five-minute mark of the week's days, drawn from stream
/// (`DATE`, week), never before `after` (the case numbered before it).
pub fn case_arrival(
    seed: u64,
    year: i32,
    week: u32,
    after: Option<DateTime>,
) -> Result<DateTime, StepError> {
    let (first, last) = week_days(year, week)?;
    let start = at(first, 0)?.minutes;
    let end = at(last, 24 * 60)?.minutes;
    let lo = after.map_or(start, |a| (a.minutes + 5).max(start));
    let lo = lo + (5 - lo.rem_euclid(5)) % 5;
    let marks = (end - lo) / 5;
    if marks <= 0 {
        return Err(StepError(format!(
            "no time is left in week {week} of {year} for another case"
        )));
    }
    let mut rng = stream(seed, DATE, week_index(year, week));
    let k = rand::RngExt::random_range(&mut rng, 0..marks);
    DateTime::from_minutes(lo + 5 * k).ok_or_else(|| StepError(format!("no calendar for {year}")))
}

/// When the starting cases come in: `count` five-minute marks of the campaign's first day, in order.
pub fn starting_arrivals(seed: u64, year: i32, count: usize) -> Result<Vec<DateTime>, StepError> {
    let (first, _) = week_days(year, 1)?;
    let mut rng = stream(seed, START, year as u64);
    let mut marks: Vec<i64> = (0..count)
        .map(|_| rand::RngExt::random_range(&mut rng, 0..24 * 12))
        .collect();
    marks.sort_unstable();
    marks.into_iter().map(|m| at(first, 5 * m)).collect()
}

fn stamp(t: DateTime) -> String {
    format!("{} {}", t.date(), t.time())
}

/// Read back a [`stamp`]: `1976-01-17 14:05`.
pub fn parse_stamp(s: &str) -> Option<DateTime> {
    let (d, t) = s.split_once(' ')?;
    let mut dp = d.split('-');
    let (y, m, dd) = (
        dp.next()?.parse().ok()?,
        dp.next()?.parse().ok()?,
        dp.next()?.parse().ok()?,
    );
    let (h, mi) = t.split_once(':')?;
    DateTime::new(y, m, dd, h.parse().ok()?, mi.parse().ok()?)
}

/// The state while replaying.
struct Play<'a> {
    lib: &'a Library,
    setup: &'a Setup,
    d: Derived,
    /// The log position being applied (1-based; 0 for the setup).
    command: u32,
}

/// Work out the state a setup and a log lead to. An error names the step (0-based index into `steps`,
/// `None` for the setup) and why it cannot be applied.
pub fn replay(
    lib: &Library,
    setup: &Setup,
    steps: &[Step],
) -> Result<Derived, (Option<usize>, StepError)> {
    validate_setup(setup).map_err(|e| (None, e))?;
    let mut p = Play {
        lib,
        setup,
        d: Derived::default(),
        command: 0,
    };
    p.start().map_err(|e| (None, e))?;
    for (i, s) in steps.iter().enumerate() {
        p.command = i as u32 + 1;
        p.apply(s).map_err(|e| (Some(i), e))?;
    }
    p.set_next();
    Ok(p.d)
}

impl Play<'_> {
    fn cal(&self) -> &Calendar {
        self.d
            .calendar
            .as_ref()
            .expect("the calendar is set at the start")
    }
    fn cal_mut(&mut self) -> &mut Calendar {
        self.d
            .calendar
            .as_mut()
            .expect("the calendar is set at the start")
    }

    fn roll(
        &mut self,
        purpose: &str,
        stream: String,
        dice: &str,
        result: i64,
        odds: &BigRational,
        odds_of: &str,
        outcome: String,
    ) {
        self.d.rolls.push(Roll {
            command: self.command,
            purpose: purpose.into(),
            stream,
            dice: dice.into(),
            result,
            odds: fraction(odds),
            odds_of: odds_of.into(),
            outcome,
        });
    }

    fn start(&mut self) -> Result<(), StepError> {
        let year = self.setup.year;
        self.d.calendar = Some(Calendar {
            year,
            week: 0,
            months_closed: 0,
            next: String::new(),
        });
        let recruits = recruits(self.lib, self.setup)?;
        for (i, r) in recruits.into_iter().enumerate() {
            let (assignment, from) = match (&r.assignment, &r.sheet) {
                (Some(a), Some(_)) => (a.clone(), "sheet"),
                (Some(a), None) => (a.clone(), "given"),
                (None, _) => {
                    let mut rng = stream(self.setup.seed, ASSIGNMENT, i as u64);
                    let t = crate::roll::roll_table(
                        self.lib,
                        crate::roll::detective::ASSIGNMENT,
                        &mut rng,
                    )
                    .map_err(|e| {
                        StepError(format!("cannot roll {}'s assignment: {}", r.name, e.0))
                    })?;
                    let odds = self.row_odds(&t);
                    self.roll(
                        "least-wanted assignment",
                        format!("assignment {i}"),
                        &t.dice,
                        t.roll,
                        &odds,
                        &format!("row {}", t.on),
                        format!("{}: {}", r.name, t.text),
                    );
                    (t.text, "rolled")
                }
            };
            self.d.detectives.push(Detective {
                name: r.name,
                class: r.class,
                assignment,
                assignment_from: from.into(),
                sheet: r.sheet,
                commanding_officer_name: r.commanding_officer,
                commissioner_name: r.commissioner,
                commanding_officer_strained: false,
                commissioner_strained: false,
                on_squad: true,
                left: None,
            });
        }
        // Every detective starts with one open case, received on the campaign's first day.
        let times = starting_arrivals(self.setup.seed, year, self.d.detectives.len())?;
        let names: Vec<String> = self.d.detectives.iter().map(|d| d.name.clone()).collect();
        for (name, t) in names.into_iter().zip(times) {
            self.add_case(name, true, 1, t);
        }
        Ok(())
    }

    fn row_odds(&self, t: &crate::roll::TableRoll) -> BigRational {
        let Some(dist) = crate::dice::parse(&t.dice)
            .ok()
            .and_then(|e| e.distribution().ok())
        else {
            return BigRational::zero();
        };
        let max = dist.max().to_integer().to_i64().unwrap_or(0);
        match crate::content::text::parse_on(&t.on, max) {
            Ok(range) => dist.probability_where(|v| {
                v.is_integer() && v.to_integer().to_i64().is_some_and(|v| range.contains(v))
            }),
            Err(_) => BigRational::zero(),
        }
    }

    fn add_case(&mut self, lead: String, starting: bool, week: u32, t: DateTime) -> String {
        let year = self.cal().year;
        let n = self.d.cases.iter().filter(|c| c.year == year).count() as u32 + 1;
        let number = format!("{year}-{n:02}");
        self.d.cases.push(Case {
            number: number.clone(),
            year,
            n,
            seed: crate::roll::case::case_seed(case_batch_seed(self.setup.seed, year), n),
            lead: lead.clone(),
            received_by: lead,
            starting,
            week,
            came_in: stamp(t),
            status: "open".into(),
            closed_year: None,
            closed_week: None,
            closed_by: None,
        });
        number
    }

    fn open_count(&self, name: &str) -> usize {
        self.d
            .cases
            .iter()
            .filter(|c| c.is_open() && c.lead == name)
            .count()
    }

    /// The detective on the squad with the fewest open cases; ties broken by a roll on `rng_of` (logged).
    fn pick_lead(
        &mut self,
        purpose: &str,
        stream_name: String,
        rng: &mut ChaCha20Rng,
        what: &str,
    ) -> Result<Option<String>, StepError> {
        let on: Vec<String> = self
            .d
            .detectives
            .iter()
            .filter(|d| d.on_squad)
            .map(|d| d.name.clone())
            .collect();
        let Some(fewest) = on.iter().map(|n| self.open_count(n)).min() else {
            return Ok(None);
        };
        let tied: Vec<String> = on
            .into_iter()
            .filter(|n| self.open_count(n) == fewest)
            .collect();
        if tied.len() == 1 {
            return Ok(tied.into_iter().next());
        }
        let dice = format!("1d{}", tied.len());
        let (v, odds) = roll_at_most(&dice, rng, 1)?;
        let chosen = tied[(v.max(1) as usize - 1).min(tied.len() - 1)].clone();
        self.roll(
            purpose,
            stream_name,
            &dice,
            v,
            &odds,
            "each of the tied detectives",
            format!(
                "{what}: {} tied on {fewest} open case{} ({}); {chosen} leads",
                tied.len(),
                if fewest == 1 { "" } else { "s" },
                tied.join(", ")
            ),
        );
        Ok(Some(chosen))
    }

    fn apply(&mut self, step: &Step) -> Result<(), StepError> {
        match step {
            Step::Week => self.week(),
            Step::Close { case } => self.close(case),
            Step::Month => self.month(),
            Step::Year { top_brass } => self.year(top_brass),
            Step::Mend {
                detective,
                relationship,
            } => self.mend(detective, *relationship),
        }
    }

    fn week(&mut self) -> Result<(), StepError> {
        let Calendar {
            year,
            week,
            months_closed,
            ..
        } = self.cal().clone();
        if week >= WEEKS_PER_YEAR {
            return Err(StepError(format!(
                "all {WEEKS_PER_YEAR} weeks of {year} have been played; end the year with `blockprint campaign year DIR` first"
            )));
        }
        if week >= WEEKS_PER_MONTH * (months_closed + 1) {
            let m = months_closed + 1;
            return Err(StepError(format!(
                "{} {year} has had its {WEEKS_PER_MONTH} weeks; close the month with `blockprint campaign month DIR` first",
                MONTH_NAMES[(m - 1) as usize]
            )));
        }
        if !self.d.detectives.iter().any(|d| d.on_squad) {
            return Err(StepError(
                "nobody is left on the squad, so no case can have a lead; start a new campaign"
                    .into(),
            ));
        }
        let w = week + 1;
        self.cal_mut().week = w;
        let mut rng = stream(self.setup.seed, WEEK, week_index(year, w));
        let (v, odds) = roll_at_most(NEW_CASE_DIE, &mut rng, NEW_CASE_AT_MOST)?;
        let (month, k) = month_of(w);
        let label = format!(
            "week {w} of {year} ({}, week {k}: {})",
            MONTH_NAMES[(month - 1) as usize],
            week_span(year, w)
        );
        if v > NEW_CASE_AT_MOST {
            self.roll(
                "new-case check",
                format!("week {year}/{w}"),
                NEW_CASE_DIE,
                v,
                &odds,
                "a new case (1–2)",
                format!("{label}: no new case"),
            );
            return Ok(());
        }
        let after = self
            .d
            .cases
            .iter()
            .filter(|c| c.year == year)
            .filter_map(|c| parse_stamp(&c.came_in))
            .max();
        let t = case_arrival(self.setup.seed, year, w, after)?;
        let mut lead_rng = stream(self.setup.seed, LEAD, week_index(year, w));
        let next_number = format!(
            "{year}-{:02}",
            self.d.cases.iter().filter(|c| c.year == year).count() + 1
        );
        let lead = self
            .pick_lead(
                "lead tie-break",
                format!("lead {year}/{w}"),
                &mut lead_rng,
                &format!("case {next_number}"),
            )?
            .unwrap_or_default();
        // The check is logged before the tie-break it led to.
        let tie = self
            .d
            .rolls
            .pop_if(|r| r.purpose == "lead tie-break" && r.command == self.command);
        let number = self.add_case(lead.clone(), false, w, t);
        self.roll(
            "new-case check",
            format!("week {year}/{w}"),
            NEW_CASE_DIE,
            v,
            &odds,
            "a new case (1–2)",
            format!(
                "{label}: case {number} comes in {} {}, lead {lead}",
                t.weekday(),
                stamp(t)
            ),
        );
        self.d.rolls.extend(tie);
        Ok(())
    }

    fn close(&mut self, number: &str) -> Result<(), StepError> {
        let Calendar {
            year,
            week,
            months_closed,
            ..
        } = self.cal().clone();
        let Some(i) = self.d.cases.iter().position(|c| c.number == number.trim()) else {
            let open: Vec<&str> = self
                .d
                .cases
                .iter()
                .filter(|c| c.is_open())
                .map(|c| c.number.as_str())
                .collect();
            return Err(StepError(format!(
                "there is no case {number}; the open cases are {}",
                if open.is_empty() {
                    "none".to_owned()
                } else {
                    open.join(", ")
                }
            )));
        };
        if !self.d.cases[i].is_open() {
            let c = &self.d.cases[i];
            return Err(StepError(format!(
                "case {} was already closed (week {} of {}); `blockprint campaign undo DIR` takes back a close entered by mistake",
                c.number,
                c.closed_week.unwrap_or(0),
                c.closed_year.unwrap_or(year)
            )));
        }
        if week == 0 {
            return Err(StepError(format!(
                "no week of {year} has started; start one with `blockprint campaign week DIR`, then close the case"
            )));
        }
        if week <= WEEKS_PER_MONTH * months_closed {
            return Err(StepError(format!(
                "{} {year} has been closed; start the next week with `blockprint campaign week DIR`, then close the case",
                MONTH_NAMES[(months_closed - 1) as usize]
            )));
        }
        let c = &mut self.d.cases[i];
        c.status = "closed".into();
        c.closed_year = Some(year);
        c.closed_week = Some(week);
        c.closed_by = Some(c.lead.clone());
        Ok(())
    }

    fn mend(&mut self, name: &str, r: Relation) -> Result<(), StepError> {
        let d = self.find(name)?;
        let strained = match r {
            Relation::CommandingOfficer => &mut d.commanding_officer_strained,
            Relation::Commissioner => &mut d.commissioner_strained,
        };
        if !*strained {
            return Err(StepError(format!(
                "{}'s relationship with the {} is not strained",
                d.name,
                r.title()
            )));
        }
        *strained = false;
        Ok(())
    }

    fn find(&mut self, name: &str) -> Result<&mut Detective, StepError> {
        let names: Vec<String> = self.d.detectives.iter().map(|d| d.name.clone()).collect();
        self.d
            .detectives
            .iter_mut()
            .find(|d| d.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                StepError(format!(
                    "there is no detective `{name}` on the squad's books; the detectives are {}",
                    names.join(", ")
                ))
            })
    }

    /// Cases `name` received and closed in `month` of `year` (a month of 0 counts the whole year).
    fn counts(&self, name: Option<&str>, year: i32, month: u32) -> (u32, u32) {
        let in_month = |y: i32, w: u32| y == year && (month == 0 || month_of(w).0 == month);
        let received = self
            .d
            .cases
            .iter()
            .filter(|c| name.is_none_or(|n| c.received_by == n) && in_month(c.year, c.week))
            .count() as u32;
        let closed = self
            .d
            .cases
            .iter()
            .filter(|c| {
                name.is_none_or(|n| c.closed_by.as_deref() == Some(n))
                    && matches!((c.closed_year, c.closed_week), (Some(y), Some(w)) if in_month(y, w))
            })
            .count() as u32;
        (received, closed)
    }

    fn month(&mut self) -> Result<(), StepError> {
        let Calendar {
            year,
            week,
            months_closed,
            ..
        } = self.cal().clone();
        if months_closed >= MONTHS_PER_YEAR {
            return Err(StepError(format!(
                "every month of {year} is closed; end the year with `blockprint campaign year DIR`"
            )));
        }
        let m = months_closed + 1;
        let due = WEEKS_PER_MONTH * m;
        if week < due {
            let left = due - week;
            return Err(StepError(format!(
                "{} {year} has had {} of its {WEEKS_PER_MONTH} weeks; play the rest first (`blockprint campaign week DIR`, {left} more time{})",
                MONTH_NAMES[(m - 1) as usize],
                WEEKS_PER_MONTH - left,
                if left == 1 { "" } else { "s" }
            )));
        }
        self.cal_mut().months_closed = m;
        let month_name = MONTH_NAMES[(m - 1) as usize];
        for i in 0..self.d.detectives.len() {
            if !self.d.detectives[i].on_squad {
                continue;
            }
            let name = self.d.detectives[i].name.clone();
            let (received, closed) = self.counts(Some(&name), year, m);
            let rate = (received > 0)
                .then(|| BigRational::new(BigInt::from(closed), BigInt::from(received)));
            // The year-to-date average of the monthly rates that exist (this month's included).
            let mut rates: Vec<BigRational> = self
                .d
                .months
                .iter()
                .filter(|r| r.year == year && r.detective == name)
                .filter_map(|r| r.rate.as_deref().and_then(parse_fraction))
                .collect();
            rates.extend(rate.clone());
            let average = (!rates.is_empty()).then(|| {
                rates.iter().fold(BigRational::zero(), |a, b| a + b)
                    / BigRational::from_integer(BigInt::from(rates.len()))
            });
            let mut result = MonthResult {
                year,
                month: m,
                detective: name.clone(),
                received,
                closed,
                rate: rate.as_ref().map(fraction),
                average: average.as_ref().map(fraction),
                target: None,
                roll: None,
                outcome: "no roll: no month of the year has a closure rate yet (house ruling bbb.ruling.empty_month)".into(),
            };
            if let Some(avg) = &average {
                let target = target_of(avg);
                let index = ((week_index(year, 0) / 64) << 12) | (u64::from(m) << 8) | i as u64;
                let mut rng = stream(self.setup.seed, MONTH, index);
                let (v, odds) = roll_at_most(PERCENT_DIE, &mut rng, i64::from(target))?;
                let outcome = if v <= i64::from(target) {
                    format!("kept: the commanding officer is satisfied ({v} ≤ {target})")
                } else {
                    format!(
                        "failed ({v} > {target}): {}",
                        self.strain(i, year, month_name)
                    )
                };
                result.target = Some(target);
                result.roll = Some(v as u32);
                result.outcome = outcome.clone();
                self.roll(
                    "paperwork: commanding officer",
                    format!("month {year}/{m}/{i}"),
                    PERCENT_DIE,
                    v,
                    &odds,
                    &format!("the relationship holds (≤ {target})"),
                    format!(
                        "{name}, {month_name} {year}: average {} → {outcome}",
                        percent(avg)
                    ),
                );
            }
            self.d.months.push(result);
        }
        self.reassign(&format!("{month_name} {year}"))?;
        Ok(())
    }

    /// A failed paperwork roll: strain the commanding officer; already strained → the commissioner;
    /// already strained → off the squad. What happened, in words.
    fn strain(&mut self, i: usize, year: i32, when: &str) -> String {
        let d = &mut self.d.detectives[i];
        if !d.commanding_officer_strained {
            d.commanding_officer_strained = true;
            "the relationship with the commanding officer is strained".into()
        } else if !d.commissioner_strained {
            d.commissioner_strained = true;
            "the commanding officer was already strained, so it goes upstairs: the relationship with the commissioner is strained".into()
        } else {
            d.on_squad = false;
            d.left = Some(format!(
                "{when} {year}: thrown off the squad to {}",
                d.assignment
            ));
            format!(
                "both relationships were already strained: off the squad, to {}",
                d.assignment
            )
        }
    }

    /// Hand the open cases of detectives who left the squad to those still on it, one by one in case
    /// order, each to the one with the fewest open cases (`bbb.ruling.campaign_reassign`).
    fn reassign(&mut self, when: &str) -> Result<(), StepError> {
        let gone: Vec<String> = self
            .d
            .detectives
            .iter()
            .filter(|d| !d.on_squad)
            .map(|d| d.name.clone())
            .collect();
        for i in 0..self.d.cases.len() {
            let c = &self.d.cases[i];
            if !c.is_open() || !gone.contains(&c.lead) {
                continue;
            }
            let index = week_index(c.year, 0) * 1024 + u64::from(c.n);
            let (number, from) = (c.number.clone(), c.lead.clone());
            let mut rng = stream(self.setup.seed, REASSIGN, index);
            let what = format!("case {number}, from {from} ({when})");
            if let Some(lead) = self.pick_lead(
                "reassignment tie-break",
                format!("reassign {number}"),
                &mut rng,
                &what,
            )? {
                self.d.cases[i].lead = lead;
            }
        }
        Ok(())
    }

    fn year(&mut self, top_brass: &[String]) -> Result<(), StepError> {
        let Calendar {
            year,
            months_closed,
            ..
        } = self.cal().clone();
        if months_closed < MONTHS_PER_YEAR {
            return Err(StepError(format!(
                "{year} is not over: {months_closed} of its {MONTHS_PER_YEAR} months are closed; play on with `blockprint campaign week DIR` and `blockprint campaign month DIR`"
            )));
        }
        for n in top_brass {
            let d = self.find(n)?;
            if !d.on_squad {
                return Err(StepError(format!(
                    "{} is no longer on the squad, so there is no demotion roll to get out of",
                    d.name
                )));
            }
        }
        let (sr, sc) = self.counts(None, year, 0);
        let squad = (sr > 0).then(|| BigRational::new(BigInt::from(sc), BigInt::from(sr)));
        for i in 0..self.d.detectives.len() {
            if !self.d.detectives[i].on_squad {
                continue;
            }
            let name = self.d.detectives[i].name.clone();
            let (r, c) = self.counts(Some(&name), year, 0);
            let personal = (r > 0).then(|| BigRational::new(BigInt::from(c), BigInt::from(r)));
            let rates: Vec<&BigRational> = squad.iter().chain(personal.iter()).collect();
            let chance = (!rates.is_empty()).then(|| {
                rates.iter().fold(BigRational::zero(), |a, b| a + *b)
                    / BigRational::from_integer(BigInt::from(rates.len()))
            });
            let mut result = YearResult {
                year,
                detective: name.clone(),
                squad_rate: squad.as_ref().map(fraction),
                personal_rate: personal.as_ref().map(fraction),
                chance: chance.as_ref().map(fraction),
                target: None,
                roll: None,
                outcome: "no roll: neither the squad nor the detective received a new case this year (house ruling bbb.ruling.campaign_year_rates)".into(),
            };
            if let Some(ch) = &chance {
                let target = target_of(ch);
                let index = ((year as u64) << 8) | i as u64;
                let mut rng = stream(self.setup.seed, YEAR, index);
                let (v, odds) = roll_at_most(PERCENT_DIE, &mut rng, i64::from(target))?;
                let wants_out = top_brass
                    .iter()
                    .any(|n| n.trim().eq_ignore_ascii_case(&name));
                let outcome = if v <= i64::from(target) {
                    format!("kept: not demoted ({v} ≤ {target})")
                } else {
                    let d = &mut self.d.detectives[i];
                    if wants_out && !d.commissioner_strained {
                        d.commissioner_strained = true;
                        format!(
                            "failed ({v} > {target}), but the top brass is leaned on: the relationship with the commissioner is strained and the detective stays"
                        )
                    } else {
                        d.on_squad = false;
                        d.left = Some(format!("end of {year}: demoted to {}", d.assignment));
                        let why = if wants_out {
                            " (the relationship with the top brass was already strained)"
                        } else {
                            ""
                        };
                        format!("failed ({v} > {target}): demoted, to {}{why}", d.assignment)
                    }
                };
                result.target = Some(target);
                result.roll = Some(v as u32);
                result.outcome = outcome.clone();
                self.roll(
                    "year end: demotion",
                    format!("year {year}/{i}"),
                    PERCENT_DIE,
                    v,
                    &odds,
                    &format!("not demoted (≤ {target})"),
                    format!("{name}, end of {year}: chance {} → {outcome}", percent(ch)),
                );
            }
            self.d.years.push(result);
        }
        self.reassign(&format!("end of {year}"))?;
        let cal = self.cal_mut();
        cal.year = year + 1;
        cal.week = 0;
        cal.months_closed = 0;
        Ok(())
    }

    fn set_next(&mut self) {
        let c = self.cal().clone();
        let next = if !self.d.detectives.iter().any(|d| d.on_squad) {
            "nothing: nobody is left on the squad".to_owned()
        } else if c.months_closed == MONTHS_PER_YEAR {
            format!("year: the end of {}", c.year)
        } else if c.week == WEEKS_PER_MONTH * (c.months_closed + 1) {
            format!(
                "month: the end of {} {}",
                MONTH_NAMES[c.months_closed as usize], c.year
            )
        } else {
            let w = c.week + 1;
            let (m, k) = month_of(w);
            format!(
                "week {w} of {} ({}, week {k}: {})",
                c.year,
                MONTH_NAMES[(m - 1) as usize],
                week_span(c.year, w)
            )
        };
        self.cal_mut().next = next;
    }
}

/// What the log would give next: the commands that can run now (for messages).
pub fn open_cases(d: &Derived) -> Vec<&Case> {
    d.cases.iter().filter(|c| c.is_open()).collect()
}
