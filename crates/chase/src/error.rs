//! The chase crate's errors, typed: which option was bad ([`Opt`], in the chase's own terms) and what is
//! wrong with it ([`Problem`], with its data, not a sentence), each problem with a stable code and the
//! exit status it maps to. Every message is worded here, once ([`Problem`]'s `Display`); a front names
//! the option its own way: the command line by its flag (`--quarry-pool`), the studio by its field, and
//! this crate, for anyone else, in words ("the quarry's pool"). The codes are listed in `docs/errors.md`.
//!
//! ```
//! use blockprint_chase::error::{Opt, OptionError, Problem};
//! let e = OptionError::new(Opt::Reach, Problem::Reach { got: 4 });
//! assert_eq!(e.code(), "chase-reach");
//! assert_eq!(e.to_string(), "invalid value for a Strike's reach: a Strike reaches 1 to 3 spaces, not 4");
//! assert_eq!(e.named("--reach"), "invalid value for --reach: a Strike reaches 1 to 3 spaces, not 4");
//! ```

use std::fmt;

/// A chase option, as the chase names it. [`Opt::id`] is the name of its argument (the clap id, the
/// studio's form field), from which the command line spells its flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Opt {
    /// The system itself (its options' defaults).
    System,
    Policy,
    Track,
    TrackSeed,
    /// Urban World: the quarry's leader.
    Quarry,
    /// Urban World: the pursuers' leader.
    Pursuer,
    Rungs,
    Start,
    QuarryPool,
    PursuerPool,
    Laps,
    QuarryLaps,
    PursuerLaps,
    QuarryHeadStart,
    PursuerHeadStart,
    Limit,
    Hazard,
    Reach,
    PursuerStart,
    EvaderStart,
    PursuerTokens,
    EvaderTokens,
    QuarryMods,
    PursuerMods,
}

impl Opt {
    /// Every option.
    pub const ALL: [Opt; 24] = [
        Opt::System,
        Opt::Policy,
        Opt::Track,
        Opt::TrackSeed,
        Opt::Quarry,
        Opt::Pursuer,
        Opt::Rungs,
        Opt::Start,
        Opt::QuarryPool,
        Opt::PursuerPool,
        Opt::Laps,
        Opt::QuarryLaps,
        Opt::PursuerLaps,
        Opt::QuarryHeadStart,
        Opt::PursuerHeadStart,
        Opt::Limit,
        Opt::Hazard,
        Opt::Reach,
        Opt::PursuerStart,
        Opt::EvaderStart,
        Opt::PursuerTokens,
        Opt::EvaderTokens,
        Opt::QuarryMods,
        Opt::PursuerMods,
    ];

    /// The option's argument id (`quarry_pool`): its clap id and the studio's field name.
    pub fn id(self) -> &'static str {
        match self {
            Opt::System => "system",
            Opt::Policy => "policy",
            Opt::Track => "track",
            Opt::TrackSeed => "track_seed",
            Opt::Quarry => "quarry",
            Opt::Pursuer => "pursuer",
            Opt::Rungs => "rungs",
            Opt::Start => "start",
            Opt::QuarryPool => "quarry_pool",
            Opt::PursuerPool => "pursuer_pool",
            Opt::Laps => "laps",
            Opt::QuarryLaps => "quarry_laps",
            Opt::PursuerLaps => "pursuer_laps",
            Opt::QuarryHeadStart => "quarry_head_start",
            Opt::PursuerHeadStart => "pursuer_head_start",
            Opt::Limit => "limit",
            Opt::Hazard => "hazard",
            Opt::Reach => "reach",
            Opt::PursuerStart => "pursuer_start",
            Opt::EvaderStart => "evader_start",
            Opt::PursuerTokens => "pursuer_tokens",
            Opt::EvaderTokens => "evader_tokens",
            Opt::QuarryMods => "quarry_mods",
            Opt::PursuerMods => "pursuer_mods",
        }
    }

    /// The option in words: "the quarry's pool".
    pub fn words(self) -> &'static str {
        match self {
            Opt::System => "the chase system",
            Opt::Policy => "the policy",
            Opt::Track => "the track",
            Opt::TrackSeed => "the seeded track",
            Opt::Quarry => "the quarry's leader",
            Opt::Pursuer => "the pursuers' leader",
            Opt::Rungs => "the ladder's rungs",
            Opt::Start => "the starting rung",
            Opt::QuarryPool => "the quarry's pool",
            Opt::PursuerPool => "the pursuer's pool",
            Opt::Laps => "the laps needed",
            Opt::QuarryLaps => "the quarry's laps",
            Opt::PursuerLaps => "the pursuer's laps",
            Opt::QuarryHeadStart => "the quarry's Head Start",
            Opt::PursuerHeadStart => "the pursuer's Head Start",
            Opt::Limit => "the interval limit",
            Opt::Hazard => "the Hazard",
            Opt::Reach => "a Strike's reach",
            Opt::PursuerStart => "the pursuer's starting space",
            Opt::EvaderStart => "the evader's starting space",
            Opt::PursuerTokens => "the pursuer's Sprint Tokens",
            Opt::EvaderTokens => "the evader's Sprint Tokens",
            Opt::QuarryMods => "the quarry's modifiers",
            Opt::PursuerMods => "the pursuer's modifiers",
        }
    }
}

/// Why a Rush, Blast and Fall track cannot carry a chase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrackFault {
    TooShort,
    NoExit,
    /// The + path of the challenge on this space leads to no space ahead of the next one.
    PlusPath(i64),
    /// The − path of the challenge on this space leads to no space at or behind it.
    MinusPath(i64),
    /// This space is an exit and holds a challenge.
    ExitChallenge(i64),
    /// The track's first space is its exit.
    FirstIsExit(i64),
}

impl fmt::Display for TrackFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrackFault::TooShort => f.write_str("a track needs at least two spaces"),
            TrackFault::NoExit => f.write_str("it has no exit, so the evader can never get away"),
            TrackFault::PlusPath(n) => write!(
                f,
                "the + path of the challenge on space {n} does not lead to a space ahead of the next one"
            ),
            TrackFault::MinusPath(n) => write!(
                f,
                "the − path of the challenge on space {n} does not lead to a space at or behind it"
            ),
            TrackFault::ExitChallenge(n) => write!(f, "space {n} is an exit and holds a challenge"),
            TrackFault::FirstIsExit(n) => write!(f, "its first space ({n}) is the exit"),
        }
    }
}

/// What is wrong with an option's value, with the data to say so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A number outside its range: `what` runs from `lo` to `hi`.
    Range {
        what: &'static str,
        lo: i64,
        hi: i64,
        got: i64,
    },
    /// Urban World's `npc:N` whose N is not a number.
    NpcPoints { given: String },
    /// Urban World's `npc:N` with N outside 1 to 3.
    NpcPointsRange { given: String, points: u32 },
    /// A leader's stat that is neither a modifier nor `npc:N`.
    LeaderStat { given: String },
    /// A leader's stat modifier outside −3 to +3.
    LeaderStatRange { given: String },
    /// A ladder's rungs outside 1 to `max`.
    Rungs { max: u32, got: u32 },
    /// A starting rung that is not on the ladder.
    LadderStart { rungs: u32, got: u32 },
    /// A policy the system does not have.
    NoPolicy {
        system: String,
        given: String,
        policies: Vec<String>,
    },
    /// A policy past a question's budget even for the simulation.
    TooBig { policy: String, reason: String },
    /// The question was cancelled.
    Cancelled,
    /// The system's own defaults do not parse (a bug).
    Defaults { message: String },
    /// A Rush, Blast and Fall track that cannot carry a chase.
    BadTrack { track: String, fault: TrackFault },
    /// A track id the content does not have.
    NoSuchTrack { given: String, tracks: Vec<String> },
    /// The content has no track at all.
    NoTracks,
    /// A Strike's reach outside 1 to 3.
    Reach { got: i64 },
    /// A starting space that is not on the track.
    StartOffTrack {
        space: i64,
        track: String,
        first: i64,
        last: i64,
    },
    /// A runner starting on the exit.
    StartOnExit { space: i64 },
    /// Sprint Tokens outside 0 to `max`.
    Tokens { max: u32, got: u32 },
    /// No exit ahead of the evader's start.
    NoExitAhead { space: i64, track: String },
    /// A modifier that is not `NAME=VALUE`.
    ModSyntax { part: String },
    /// A modifier's name that is no chase attribute.
    ModAttribute { name: String },
    /// An attribute given twice.
    ModTwice {
        part: String,
        attribute: &'static str,
        first: String,
    },
    /// A modifier's value that is not a whole number.
    ModNumber { text: String },
    /// A modifier outside −5 to +5.
    ModRange { got: i32 },
    /// A barrier's hit points that are not 1 to 1000.
    BarrierHp { hp: String, part: String },
    /// A barrier without its hit points.
    BarrierNeedsHp { part: String },
    /// A gap that is none of the gaps.
    Gap { part: String },
    /// A track of fewer than 2 or more than 30 gaps.
    TrackLength { gaps: usize },
    /// A barrier the seeded track rolled that has no hit points in `coc.barrier.hp` (a content error).
    NoBarrierHp { barrier: String },
    /// A table the option rolls on that the content lacks (a content error).
    MissingTable { table: String },
    /// Another failure to roll on the content's tables (a content error), as the content crate says it.
    Roll { message: String },
}

impl Problem {
    /// Every code, in the order `docs/errors.md` lists them.
    pub const CODES: [&'static str; 31] = [
        "chase-range",
        "chase-npc-points",
        "chase-npc-points-range",
        "chase-leader-stat",
        "chase-leader-stat-range",
        "chase-rungs",
        "chase-ladder-start",
        "chase-no-policy",
        "chase-too-big",
        "chase-cancelled",
        "chase-defaults",
        "chase-bad-track",
        "chase-no-such-track",
        "chase-no-tracks",
        "chase-reach",
        "chase-start-off-track",
        "chase-start-on-exit",
        "chase-tokens",
        "chase-no-exit-ahead",
        "chase-mod-syntax",
        "chase-mod-attribute",
        "chase-mod-twice",
        "chase-mod-number",
        "chase-mod-range",
        "chase-barrier-hp",
        "chase-barrier-needs-hp",
        "chase-gap",
        "chase-track-length",
        "chase-no-barrier-hp",
        "chase-missing-table",
        "chase-roll",
    ];

    /// The problem's stable code (kebab case, `chase-…`).
    pub fn code(&self) -> &'static str {
        match self {
            Problem::Range { .. } => "chase-range",
            Problem::NpcPoints { .. } => "chase-npc-points",
            Problem::NpcPointsRange { .. } => "chase-npc-points-range",
            Problem::LeaderStat { .. } => "chase-leader-stat",
            Problem::LeaderStatRange { .. } => "chase-leader-stat-range",
            Problem::Rungs { .. } => "chase-rungs",
            Problem::LadderStart { .. } => "chase-ladder-start",
            Problem::NoPolicy { .. } => "chase-no-policy",
            Problem::TooBig { .. } => "chase-too-big",
            Problem::Cancelled => "chase-cancelled",
            Problem::Defaults { .. } => "chase-defaults",
            Problem::BadTrack { .. } => "chase-bad-track",
            Problem::NoSuchTrack { .. } => "chase-no-such-track",
            Problem::NoTracks => "chase-no-tracks",
            Problem::Reach { .. } => "chase-reach",
            Problem::StartOffTrack { .. } => "chase-start-off-track",
            Problem::StartOnExit { .. } => "chase-start-on-exit",
            Problem::Tokens { .. } => "chase-tokens",
            Problem::NoExitAhead { .. } => "chase-no-exit-ahead",
            Problem::ModSyntax { .. } => "chase-mod-syntax",
            Problem::ModAttribute { .. } => "chase-mod-attribute",
            Problem::ModTwice { .. } => "chase-mod-twice",
            Problem::ModNumber { .. } => "chase-mod-number",
            Problem::ModRange { .. } => "chase-mod-range",
            Problem::BarrierHp { .. } => "chase-barrier-hp",
            Problem::BarrierNeedsHp { .. } => "chase-barrier-needs-hp",
            Problem::Gap { .. } => "chase-gap",
            Problem::TrackLength { .. } => "chase-track-length",
            Problem::NoBarrierHp { .. } => "chase-no-barrier-hp",
            Problem::MissingTable { .. } => "chase-missing-table",
            Problem::Roll { .. } => "chase-roll",
        }
    }

    /// The exit status a command ends with: 1 when the content is at fault (a table it lacks, a roll
    /// it cannot make), 2 for a bad option, 70 for a bug in blockprint.
    pub fn exit_code(&self) -> u8 {
        match self {
            Problem::NoBarrierHp { .. } | Problem::MissingTable { .. } | Problem::Roll { .. } => 1,
            Problem::Defaults { .. } => 70,
            _ => 2,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Range { what, lo, hi, got } => {
                write!(f, "{what} runs from {lo} to {hi}, not {got}")
            }
            Problem::NpcPoints { given } => {
                write!(
                    f,
                    "`{given}`: NPC points are a whole number from 1 to 3 (npc:2)"
                )
            }
            Problem::NpcPointsRange { given, points } => {
                write!(
                    f,
                    "`{given}`: an NPC party has 1 to 3 points in a stat, not {points}"
                )
            }
            Problem::LeaderStat { given } => write!(
                f,
                "`{given}`: give the leader's stat as a modifier from −3 to +3 (+2, -1), or npc:N for an all-NPC party"
            ),
            Problem::LeaderStatRange { given } => {
                write!(
                    f,
                    "`{given}`: a Dungeon World stat modifier runs from −3 to +3"
                )
            }
            Problem::Rungs { max, got } => write!(
                f,
                "a ladder has 1 to {max} rungs between Escape! and Capture!, not {got}"
            ),
            Problem::LadderStart { rungs, got } => write!(
                f,
                "the chase starts on one of the ladder's rungs, 1 to {rungs} (1 is next to Escape!), not {got}"
            ),
            Problem::NoPolicy {
                system,
                given,
                policies,
            } => write!(
                f,
                "{system} has no policy `{given}`; its policies are: {}",
                policies.join(", ")
            ),
            Problem::TooBig { policy, reason } => write!(
                f,
                "`{policy}` cannot be worked out for this chase within a question's budget ({reason}); the other policies are answered, by a simulation where the exact answer is out of reach"
            ),
            Problem::Cancelled => crate::Cancelled.fmt(f),
            Problem::Defaults { message } => f.write_str(message),
            Problem::BadTrack { track, fault } => write!(f, "track `{track}`: {fault}"),
            Problem::NoSuchTrack { given, tracks } => write!(
                f,
                "the content has no track `{given}`; its tracks are: {}",
                if tracks.is_empty() {
                    "none".to_owned()
                } else {
                    tracks.join(", ")
                }
            ),
            Problem::NoTracks => f.write_str("the content has no [[track]] to run a chase on"),
            Problem::Reach { got } => write!(f, "a Strike reaches 1 to 3 spaces, not {got}"),
            Problem::StartOffTrack {
                space,
                track,
                first,
                last,
            } => write!(
                f,
                "space {space} is not on track `{track}` (spaces {first} to {last})"
            ),
            Problem::StartOnExit { space } => write!(
                f,
                "space {space} is the exit: a runner there has left the track"
            ),
            Problem::Tokens { max, got } => write!(
                f,
                "a runner starts with 0 to {max} Sprint Tokens, not {got}"
            ),
            Problem::NoExitAhead { space, track } => {
                write!(f, "no exit lies ahead of space {space} on track `{track}`")
            }
            Problem::ModSyntax { part } => write!(f, "`{part}` is not NAME=VALUE (e.g. dex=2)"),
            Problem::ModAttribute { name } => {
                write!(f, "`{name}` is no chase attribute (wis, cha, dex, int)")
            }
            Problem::ModTwice {
                part,
                attribute,
                first,
            } => write!(
                f,
                "`{part}` gives {attribute} a second time (after `{first}`): give each attribute once"
            ),
            Problem::ModNumber { text } => write!(f, "`{text}` is not a whole number"),
            Problem::ModRange { got } => write!(f, "a modifier of {got} is outside -5 to +5"),
            Problem::BarrierHp { hp, part } => write!(
                f,
                "`{hp}` in `{part}` is not a barrier's hit points (1 to 1000)"
            ),
            Problem::BarrierNeedsHp { part } => {
                write!(f, "barrier `{part}` needs its hit points: `{part}:10`")
            }
            Problem::Gap { part } => write!(
                f,
                "`{part}` is not a gap (clear, regular, hard, extreme, or regular-barrier:HP, hard-barrier:HP, extreme-barrier:HP)"
            ),
            Problem::TrackLength { gaps } => write!(
                f,
                "a track needs 2 to 30 gaps (3 to 31 locations); this one has {gaps}"
            ),
            Problem::NoBarrierHp { barrier } => {
                write!(f, "barrier `{barrier}` has no hit points in coc.barrier.hp")
            }
            Problem::MissingTable { table } => write!(f, "no table `{table}`"),
            Problem::Roll { message } => f.write_str(message),
        }
    }
}

/// A bad option: which, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionError {
    pub option: Opt,
    pub problem: Problem,
}

impl OptionError {
    pub fn new(option: Opt, problem: Problem) -> Self {
        OptionError { option, problem }
    }

    /// The problem's stable code ([`Problem::code`]).
    pub fn code(&self) -> &'static str {
        self.problem.code()
    }

    /// The exit status it maps to ([`Problem::exit_code`]).
    pub fn exit_code(&self) -> u8 {
        self.problem.exit_code()
    }

    /// The message with the option called `name` (the command line passes its flag, `--track`).
    pub fn named(&self, name: &str) -> String {
        format!("invalid value for {name}: {}", self.problem)
    }
}

/// The message in the chase's own words: `invalid value for the quarry's pool: …`.
impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.named(self.option.words()))
    }
}

impl std::error::Error for OptionError {}

/// How it travels in the shared error ([`blockprint_content::error::Error::Typed`]): its problem's code
/// and exit status, the option by its id.
impl blockprint_content::error::Coded for OptionError {
    fn code(&self) -> &'static str {
        self.problem.code()
    }

    fn exit_code(&self) -> u8 {
        self.problem.exit_code()
    }

    fn options(&self) -> Vec<&'static str> {
        vec![self.option.id()]
    }

    fn named(&self, name: &dyn Fn(&'static str) -> String) -> String {
        OptionError::named(self, &name(self.option.id()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One problem of each kind (the match below fails to compile when a kind is added and not here).
    fn one_of_each() -> Vec<Problem> {
        let s = String::new;
        let all = vec![
            Problem::Range {
                what: "x",
                lo: 1,
                hi: 2,
                got: 3,
            },
            Problem::NpcPoints { given: s() },
            Problem::NpcPointsRange {
                given: s(),
                points: 4,
            },
            Problem::LeaderStat { given: s() },
            Problem::LeaderStatRange { given: s() },
            Problem::Rungs { max: 9, got: 0 },
            Problem::LadderStart { rungs: 3, got: 4 },
            Problem::NoPolicy {
                system: s(),
                given: s(),
                policies: vec![],
            },
            Problem::TooBig {
                policy: s(),
                reason: s(),
            },
            Problem::Cancelled,
            Problem::Defaults { message: s() },
            Problem::BadTrack {
                track: s(),
                fault: TrackFault::NoExit,
            },
            Problem::NoSuchTrack {
                given: s(),
                tracks: vec![],
            },
            Problem::NoTracks,
            Problem::Reach { got: 4 },
            Problem::StartOffTrack {
                space: 9,
                track: s(),
                first: 1,
                last: 5,
            },
            Problem::StartOnExit { space: 5 },
            Problem::Tokens { max: 3, got: 4 },
            Problem::NoExitAhead {
                space: 5,
                track: s(),
            },
            Problem::ModSyntax { part: s() },
            Problem::ModAttribute { name: s() },
            Problem::ModTwice {
                part: s(),
                attribute: "Wisdom",
                first: s(),
            },
            Problem::ModNumber { text: s() },
            Problem::ModRange { got: 6 },
            Problem::BarrierHp { hp: s(), part: s() },
            Problem::BarrierNeedsHp { part: s() },
            Problem::Gap { part: s() },
            Problem::TrackLength { gaps: 1 },
            Problem::NoBarrierHp { barrier: s() },
            Problem::MissingTable { table: s() },
            Problem::Roll { message: s() },
        ];
        for p in &all {
            match p {
                Problem::Range { .. }
                | Problem::NpcPoints { .. }
                | Problem::NpcPointsRange { .. }
                | Problem::LeaderStat { .. }
                | Problem::LeaderStatRange { .. }
                | Problem::Rungs { .. }
                | Problem::LadderStart { .. }
                | Problem::NoPolicy { .. }
                | Problem::TooBig { .. }
                | Problem::Cancelled
                | Problem::Defaults { .. }
                | Problem::BadTrack { .. }
                | Problem::NoSuchTrack { .. }
                | Problem::NoTracks
                | Problem::Reach { .. }
                | Problem::StartOffTrack { .. }
                | Problem::StartOnExit { .. }
                | Problem::Tokens { .. }
                | Problem::NoExitAhead { .. }
                | Problem::ModSyntax { .. }
                | Problem::ModAttribute { .. }
                | Problem::ModTwice { .. }
                | Problem::ModNumber { .. }
                | Problem::ModRange { .. }
                | Problem::BarrierHp { .. }
                | Problem::BarrierNeedsHp { .. }
                | Problem::Gap { .. }
                | Problem::TrackLength { .. }
                | Problem::NoBarrierHp { .. }
                | Problem::MissingTable { .. }
                | Problem::Roll { .. } => {}
            }
        }
        all
    }

    #[test]
    fn every_problem_has_its_own_listed_code_and_an_exit_status() {
        let codes: Vec<&str> = one_of_each().iter().map(Problem::code).collect();
        assert_eq!(codes, Problem::CODES);
        let mut unique = codes.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), codes.len(), "a code is used twice");
        for p in one_of_each() {
            assert!([1, 2, 70].contains(&p.exit_code()), "{}", p.code());
            assert!(!p.to_string().contains("--"), "{}: {p}", p.code());
        }
    }

    #[test]
    fn the_library_names_an_option_in_words_and_a_front_by_its_own_name() {
        let e = OptionError::new(
            Opt::QuarryPool,
            Problem::Range {
                what: "a pool (Skill + Attribute dice)",
                lo: 1,
                hi: 20,
                got: 0,
            },
        );
        assert_eq!(
            e.to_string(),
            "invalid value for the quarry's pool: a pool (Skill + Attribute dice) runs from 1 to 20, not 0"
        );
        assert_eq!(
            e.named("--quarry-pool"),
            "invalid value for --quarry-pool: a pool (Skill + Attribute dice) runs from 1 to 20, not 0"
        );
        assert_eq!((e.code(), e.exit_code()), ("chase-range", 2));
    }
}
