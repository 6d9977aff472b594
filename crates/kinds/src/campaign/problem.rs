//! What a campaign cannot do, typed ([`StepProblem`]): a setup that cannot start one, a command that
//! does not fit where the campaign stands, a roll the content or the calendar cannot give. Each has
//! its data, a stable code (`campaign-…`, listed in `docs/errors.md`) and the exit status it maps to
//! (2 for a setup or a command that cannot be used, 1 when the content is at fault, 70 for a bug);
//! the messages are worded here, once. The one message that speaks of options (an empty squad)
//! names them only where a front gives its own names for them ([`Coded::named`]: the command line's
//! `--detectives`); in the campaign's own words (`Display`, what a state file's report quotes) it
//! says what to do without naming an option.
//!
//! [`ReplayError`] is a problem where the log stands: the setup, or command N of the log.

use std::fmt;

use blockprint_content::error::Coded;
use blockprint_content::roll::RollError;

use super::{MONTH_NAMES, MONTHS_PER_YEAR, Relation, WEEKS_PER_MONTH, WEEKS_PER_YEAR};

/// Why a setup cannot start a campaign or a command cannot be applied where the campaign stands.
#[derive(Debug, Clone, PartialEq)]
pub enum StepProblem {
    /// A year outside 1900–2100.
    Year { year: i32 },
    /// A seed of 2^53 or more.
    Seed { seed: u64 },
    /// A paper other than A4 or Letter.
    Paper { paper: String },
    /// Packets in a format other than PDF, Markdown or JSON.
    Packets,
    /// No detective named and none rolled.
    EmptySquad,
    /// Detectives named and rolled.
    NamedAndRolled,
    /// More detectives than a squad holds.
    SquadSize { size: usize, max: usize },
    /// A detective without a name.
    EmptyName,
    /// A name with spaces at an end or control characters.
    NameSpaces { name: String },
    /// Two detectives of one name (letter case aside).
    SameName { name: String },
    /// A detective's least-wanted assignment given empty.
    EmptyAssignment { name: String },
    /// A rolled detective the content cannot roll.
    RollDetective { number: u32, source: RollError },
    /// A least-wanted assignment the content cannot roll.
    RollAssignment { name: String, source: RollError },
    /// A year the civil calendar does not have (`why`: the calendar's own reason, when it gives one).
    NoCalendar { year: i32, why: Option<String> },
    /// A week with no five-minute mark left for another case.
    WeekFull { week: u32, year: i32 },
    /// The campaign's own dice that cannot be rolled (a bug).
    Dice { dice: String, message: String },
    /// `week` when every week of the year has been played.
    YearPlayed { year: i32 },
    /// `week` when the month (1–12) has had its weeks and is not closed.
    MonthPlayed { month: u32, year: i32 },
    /// `week` with nobody left on the squad.
    SquadGone,
    /// `close` of a case the campaign does not have (`open`: the open cases).
    NoSuchCase { number: String, open: Vec<String> },
    /// `close` of a case closed before.
    CaseClosed {
        number: String,
        week: u32,
        year: i32,
    },
    /// `close` before the year's first week.
    NoWeek { year: i32 },
    /// `close` after the month (1–12) was closed and before the next week.
    MonthClosed { month: u32, year: i32 },
    /// `mend` of a relationship that is not strained.
    NotStrained { name: String, relation: Relation },
    /// A detective the squad's books do not have (`detectives`: those they have).
    NoSuchDetective {
        name: String,
        detectives: Vec<String>,
    },
    /// `month` when every month of the year is closed.
    YearClosed { year: i32 },
    /// `month` before the month (1–12) has had its weeks (`played` of them).
    MonthNotOver { month: u32, year: i32, played: u32 },
    /// `year` before its months are closed (`closed` of them).
    YearNotOver { year: i32, closed: u32 },
    /// A detective named for the top brass who is off the squad.
    OffSquad { name: String },
}

impl StepProblem {
    /// Every code, in the order `docs/errors.md` lists them.
    pub const CODES: [&'static str; 29] = [
        "campaign-year",
        "campaign-seed",
        "campaign-paper",
        "campaign-packets",
        "campaign-empty-squad",
        "campaign-named-and-rolled",
        "campaign-squad-size",
        "campaign-empty-name",
        "campaign-name-spaces",
        "campaign-same-name",
        "campaign-empty-assignment",
        "campaign-roll-detective",
        "campaign-roll-assignment",
        "campaign-no-calendar",
        "campaign-week-full",
        "campaign-dice",
        "campaign-year-played",
        "campaign-month-played",
        "campaign-squad-gone",
        "campaign-no-such-case",
        "campaign-case-closed",
        "campaign-no-week",
        "campaign-month-closed",
        "campaign-not-strained",
        "campaign-no-such-detective",
        "campaign-year-closed",
        "campaign-month-not-over",
        "campaign-year-not-over",
        "campaign-off-squad",
    ];

    /// The option ids (of `campaign new`) a message can speak of.
    pub const OPTIONS: [&'static str; 2] = ["detectives", "roll"];

    /// The message; with `name`, the options it speaks of are named as a front names them (the
    /// command line: `--detectives`), without it the campaign says what to do in its own words.
    fn message(&self, name: Option<&dyn Fn(&'static str) -> String>) -> String {
        let month = |m: u32| MONTH_NAMES[(m.clamp(1, 12) - 1) as usize];
        match self {
            StepProblem::Year { year } => format!("the year {year} is outside 1900–2100"),
            StepProblem::Seed { seed } => format!("the seed {seed} is not below 2^53"),
            StepProblem::Paper { paper } => {
                format!("the campaign's packets and sheets print on a4 or letter, not {paper}")
            }
            StepProblem::Packets => "case packets are written as pdf, md or json".into(),
            StepProblem::EmptySquad => match name {
                Some(name) => format!(
                    "the squad is empty: name its detectives ({} \"A,B\") or roll some ({} N)",
                    name("detectives"),
                    name("roll")
                ),
                None => "the squad is empty: name its detectives or roll some".into(),
            },
            StepProblem::NamedAndRolled => "name the detectives or roll them, not both".into(),
            StepProblem::SquadSize { size, max } => {
                format!("a squad of {size} is more than {max} detectives")
            }
            StepProblem::EmptyName => "a detective's name is empty".into(),
            StepProblem::NameSpaces { name } => format!(
                "the name `{}` has spaces at an end or control characters",
                name.escape_debug()
            ),
            StepProblem::SameName { name } => {
                format!("two detectives are called `{name}`; give each a different name")
            }
            StepProblem::EmptyAssignment { name } => format!("`{name}`'s assignment is empty"),
            StepProblem::RollDetective { number, source } => {
                format!("cannot roll detective {number}: {source}")
            }
            StepProblem::RollAssignment { name, source } => {
                format!("cannot roll {name}'s assignment: {source}")
            }
            StepProblem::NoCalendar { year, why } => match why {
                Some(why) => format!("no calendar for {year}: {why}"),
                None => format!("no calendar for {year}"),
            },
            StepProblem::WeekFull { week, year } => {
                format!("no time is left in week {week} of {year} for another case")
            }
            StepProblem::Dice { dice, message } => format!("cannot roll `{dice}`: {message}"),
            StepProblem::YearPlayed { year } => format!(
                "all {WEEKS_PER_YEAR} weeks of {year} have been played; end the year with `blockprint campaign year DIR` first"
            ),
            StepProblem::MonthPlayed { month: m, year } => format!(
                "{} {year} has had its {WEEKS_PER_MONTH} weeks; close the month with `blockprint campaign month DIR` first",
                month(*m)
            ),
            StepProblem::SquadGone => {
                "nobody is left on the squad, so no case can have a lead; start a new campaign"
                    .into()
            }
            StepProblem::NoSuchCase { number, open } => format!(
                "there is no case {number}; the open cases are {}",
                if open.is_empty() {
                    "none".to_owned()
                } else {
                    open.join(", ")
                }
            ),
            StepProblem::CaseClosed { number, week, year } => format!(
                "case {number} was already closed (week {week} of {year}); `blockprint campaign undo DIR` takes back a close entered by mistake"
            ),
            StepProblem::NoWeek { year } => format!(
                "no week of {year} has started; start one with `blockprint campaign week DIR`, then close the case"
            ),
            StepProblem::MonthClosed { month: m, year } => format!(
                "{} {year} has been closed; start the next week with `blockprint campaign week DIR`, then close the case",
                month(*m)
            ),
            StepProblem::NotStrained { name, relation } => format!(
                "{name}'s relationship with the {} is not strained",
                relation.title()
            ),
            StepProblem::NoSuchDetective { name, detectives } => format!(
                "there is no detective `{name}` on the squad's books; the detectives are {}",
                detectives.join(", ")
            ),
            StepProblem::YearClosed { year } => format!(
                "every month of {year} is closed; end the year with `blockprint campaign year DIR`"
            ),
            StepProblem::MonthNotOver {
                month: m,
                year,
                played,
            } => {
                let left = WEEKS_PER_MONTH.saturating_sub(*played);
                format!(
                    "{} {year} has had {played} of its {WEEKS_PER_MONTH} weeks; play the rest first (`blockprint campaign week DIR`, {left} more time{})",
                    month(*m),
                    if left == 1 { "" } else { "s" }
                )
            }
            StepProblem::YearNotOver { year, closed } => format!(
                "{year} is not over: {closed} of its {MONTHS_PER_YEAR} months are closed; play on with `blockprint campaign week DIR` and `blockprint campaign month DIR`"
            ),
            StepProblem::OffSquad { name } => format!(
                "{name} is no longer on the squad, so there is no demotion roll to get out of"
            ),
        }
    }
}

impl fmt::Display for StepProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(None))
    }
}

impl std::error::Error for StepProblem {}

impl Coded for StepProblem {
    fn code(&self) -> &'static str {
        match self {
            StepProblem::Year { .. } => "campaign-year",
            StepProblem::Seed { .. } => "campaign-seed",
            StepProblem::Paper { .. } => "campaign-paper",
            StepProblem::Packets => "campaign-packets",
            StepProblem::EmptySquad => "campaign-empty-squad",
            StepProblem::NamedAndRolled => "campaign-named-and-rolled",
            StepProblem::SquadSize { .. } => "campaign-squad-size",
            StepProblem::EmptyName => "campaign-empty-name",
            StepProblem::NameSpaces { .. } => "campaign-name-spaces",
            StepProblem::SameName { .. } => "campaign-same-name",
            StepProblem::EmptyAssignment { .. } => "campaign-empty-assignment",
            StepProblem::RollDetective { .. } => "campaign-roll-detective",
            StepProblem::RollAssignment { .. } => "campaign-roll-assignment",
            StepProblem::NoCalendar { .. } => "campaign-no-calendar",
            StepProblem::WeekFull { .. } => "campaign-week-full",
            StepProblem::Dice { .. } => "campaign-dice",
            StepProblem::YearPlayed { .. } => "campaign-year-played",
            StepProblem::MonthPlayed { .. } => "campaign-month-played",
            StepProblem::SquadGone => "campaign-squad-gone",
            StepProblem::NoSuchCase { .. } => "campaign-no-such-case",
            StepProblem::CaseClosed { .. } => "campaign-case-closed",
            StepProblem::NoWeek { .. } => "campaign-no-week",
            StepProblem::MonthClosed { .. } => "campaign-month-closed",
            StepProblem::NotStrained { .. } => "campaign-not-strained",
            StepProblem::NoSuchDetective { .. } => "campaign-no-such-detective",
            StepProblem::YearClosed { .. } => "campaign-year-closed",
            StepProblem::MonthNotOver { .. } => "campaign-month-not-over",
            StepProblem::YearNotOver { .. } => "campaign-year-not-over",
            StepProblem::OffSquad { .. } => "campaign-off-squad",
        }
    }

    /// 1 when the content cannot roll what the campaign needs, 70 for the campaign's own dice, 2 for
    /// a setup or command that cannot be used (and a calendar run out).
    fn exit_code(&self) -> u8 {
        match self {
            StepProblem::RollDetective { .. } | StepProblem::RollAssignment { .. } => 1,
            StepProblem::Dice { .. } => 70,
            _ => 2,
        }
    }

    fn options(&self) -> Vec<&'static str> {
        match self {
            StepProblem::EmptySquad => Self::OPTIONS.to_vec(),
            _ => Vec::new(),
        }
    }

    fn named(&self, name: &dyn Fn(&'static str) -> String) -> String {
        self.message(Some(name))
    }
}

/// A [`StepProblem`] where the log stands: the setup (`command` is `None`) or command N of the log
/// (1-based, with the command as the log describes it).
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayError {
    pub command: Option<(usize, String)>,
    pub problem: StepProblem,
}

impl ReplayError {
    /// The message with the options the problem speaks of named as a front names them
    /// ([`Coded::named`]).
    pub fn named(&self, name: &dyn Fn(&'static str) -> String) -> String {
        self.at(&self.problem.named(name))
    }

    /// Where the log stands, then `problem` (the problem's message).
    fn at(&self, problem: &str) -> String {
        match &self.command {
            None => format!("this setup cannot start a campaign: {problem}"),
            Some((n, step)) => {
                format!("command {n} of the log (`{step}`) cannot be applied: {problem}")
            }
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.at(&self.problem.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One problem of each kind (the match below fails to compile when a kind is added and not here).
    fn one_of_each() -> Vec<StepProblem> {
        let s = || "Ann".to_owned();
        let roll = || RollError::NoTable { table: "t".into() };
        let all = vec![
            StepProblem::Year { year: 1800 },
            StepProblem::Seed { seed: 1 << 53 },
            StepProblem::Paper { paper: "a5".into() },
            StepProblem::Packets,
            StepProblem::EmptySquad,
            StepProblem::NamedAndRolled,
            StepProblem::SquadSize { size: 51, max: 50 },
            StepProblem::EmptyName,
            StepProblem::NameSpaces { name: s() },
            StepProblem::SameName { name: s() },
            StepProblem::EmptyAssignment { name: s() },
            StepProblem::RollDetective {
                number: 1,
                source: roll(),
            },
            StepProblem::RollAssignment {
                name: s(),
                source: roll(),
            },
            StepProblem::NoCalendar {
                year: 10000,
                why: None,
            },
            StepProblem::WeekFull {
                week: 3,
                year: 1976,
            },
            StepProblem::Dice {
                dice: "1d0".into(),
                message: s(),
            },
            StepProblem::YearPlayed { year: 1976 },
            StepProblem::MonthPlayed {
                month: 1,
                year: 1976,
            },
            StepProblem::SquadGone,
            StepProblem::NoSuchCase {
                number: s(),
                open: vec![],
            },
            StepProblem::CaseClosed {
                number: s(),
                week: 2,
                year: 1976,
            },
            StepProblem::NoWeek { year: 1976 },
            StepProblem::MonthClosed {
                month: 1,
                year: 1976,
            },
            StepProblem::NotStrained {
                name: s(),
                relation: Relation::Commissioner,
            },
            StepProblem::NoSuchDetective {
                name: s(),
                detectives: vec![],
            },
            StepProblem::YearClosed { year: 1976 },
            StepProblem::MonthNotOver {
                month: 1,
                year: 1976,
                played: 3,
            },
            StepProblem::YearNotOver {
                year: 1976,
                closed: 11,
            },
            StepProblem::OffSquad { name: s() },
        ];
        for p in &all {
            match p {
                StepProblem::Year { .. }
                | StepProblem::Seed { .. }
                | StepProblem::Paper { .. }
                | StepProblem::Packets
                | StepProblem::EmptySquad
                | StepProblem::NamedAndRolled
                | StepProblem::SquadSize { .. }
                | StepProblem::EmptyName
                | StepProblem::NameSpaces { .. }
                | StepProblem::SameName { .. }
                | StepProblem::EmptyAssignment { .. }
                | StepProblem::RollDetective { .. }
                | StepProblem::RollAssignment { .. }
                | StepProblem::NoCalendar { .. }
                | StepProblem::WeekFull { .. }
                | StepProblem::Dice { .. }
                | StepProblem::YearPlayed { .. }
                | StepProblem::MonthPlayed { .. }
                | StepProblem::SquadGone
                | StepProblem::NoSuchCase { .. }
                | StepProblem::CaseClosed { .. }
                | StepProblem::NoWeek { .. }
                | StepProblem::MonthClosed { .. }
                | StepProblem::NotStrained { .. }
                | StepProblem::NoSuchDetective { .. }
                | StepProblem::YearClosed { .. }
                | StepProblem::MonthNotOver { .. }
                | StepProblem::YearNotOver { .. }
                | StepProblem::OffSquad { .. } => {}
            }
        }
        all
    }

    fn flag(id: &'static str) -> String {
        format!("--{}", id.replace('_', "-"))
    }

    #[test]
    fn every_problem_has_its_own_listed_code_and_names_options_only_through_a_front() {
        let codes: Vec<&str> = one_of_each().iter().map(Coded::code).collect();
        assert_eq!(codes, StepProblem::CODES);
        let mut unique = codes.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), codes.len(), "a code is used twice");
        for p in one_of_each() {
            assert!([1, 2, 70].contains(&p.exit_code()), "{}", p.code());
            // The campaign's own words name no flag (a command it quotes aside).
            let said = p.to_string();
            assert!(
                !said.contains("--") || said.contains("`blockprint "),
                "{}: {said}",
                p.code()
            );
            // Every option the message names through a front is listed, and no other.
            let named = std::cell::RefCell::new(Vec::new());
            p.named(&|id| {
                named.borrow_mut().push(id);
                flag(id)
            });
            assert_eq!(named.into_inner(), p.options(), "{}", p.code());
            for id in p.options() {
                assert!(StepProblem::OPTIONS.contains(&id), "{id}");
            }
        }
    }

    #[test]
    fn the_exit_statuses_by_family() {
        let exit = |code: &str| {
            one_of_each()
                .into_iter()
                .find(|p| p.code() == code)
                .unwrap()
                .exit_code()
        };
        // A setup that cannot start a campaign, a command that does not fit where it stands.
        for code in [
            "campaign-year",
            "campaign-empty-squad",
            "campaign-same-name",
            "campaign-month-played",
            "campaign-no-such-case",
            "campaign-no-such-detective",
            "campaign-year-not-over",
            "campaign-no-calendar",
        ] {
            assert_eq!(exit(code), 2, "{code}");
        }
        // The content cannot roll what the campaign needs.
        for code in ["campaign-roll-detective", "campaign-roll-assignment"] {
            assert_eq!(exit(code), 1, "{code}");
        }
        // The campaign's own dice.
        assert_eq!(exit("campaign-dice"), 70);
    }

    #[test]
    fn a_message_per_family_in_words_and_with_flags() {
        // A setup: the campaign's words say what to do, the command line names its flags.
        let p = StepProblem::EmptySquad;
        assert_eq!(
            p.to_string(),
            "the squad is empty: name its detectives or roll some"
        );
        assert_eq!(
            p.named(&flag),
            "the squad is empty: name its detectives (--detectives \"A,B\") or roll some (--roll N)"
        );
        assert_eq!(
            (p.code(), p.exit_code(), p.options()),
            ("campaign-empty-squad", 2, vec!["detectives", "roll"])
        );
        // A command where the campaign stands.
        let p = StepProblem::MonthNotOver {
            month: 2,
            year: 1976,
            played: 3,
        };
        assert_eq!(
            p.to_string(),
            "February 1976 has had 3 of its 4 weeks; play the rest first (`blockprint campaign week DIR`, 1 more time)"
        );
        assert_eq!(p.named(&flag), p.to_string());
        // The content.
        let p = StepProblem::RollAssignment {
            name: "Ann".into(),
            source: RollError::NoTable { table: "t".into() },
        };
        assert!(p.to_string().starts_with("cannot roll Ann's assignment: "));
        assert_eq!(p.exit_code(), 1);
        // Through the shared error, and where the log stands.
        let e = blockprint_content::error::Error::from(StepProblem::NoSuchCase {
            number: "1976-09".into(),
            open: vec!["1976-01".into(), "1976-02".into()],
        });
        assert_eq!((e.code(), e.exit_code()), ("campaign-no-such-case", 2));
        assert_eq!(
            e.render(flag),
            "error: there is no case 1976-09; the open cases are 1976-01, 1976-02"
        );
        let at = ReplayError {
            command: Some((2, "close 1976-03".into())),
            problem: StepProblem::NoSuchCase {
                number: "1976-03".into(),
                open: vec![],
            },
        };
        assert_eq!(
            at.to_string(),
            "command 2 of the log (`close 1976-03`) cannot be applied: there is no case 1976-03; the open cases are none"
        );
    }
}
