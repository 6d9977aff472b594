//! Answers as data: what a question gives, worked out once, for the command line to print as text or
//! JSON and the studio to show as HTML. Every question runs under a [`Budget`] (the same for both
//! fronts): exact within its work, otherwise a seeded simulation within its own, and stopped as soon as
//! the budget's cancel flag is raised (the studio raises it when its client goes away).

use blockprint_chase::{self as chase, Budget, Odds, OddsOptions, OptionError, Stop, SystemArgs};
use blockprint_content::Library;

/// The chase answer (`chase odds`, the studio's Chase page): the system's options in words, then every
/// ending's chance and the length (what `chase odds --json` prints).
#[derive(Debug, serde::Serialize)]
pub struct ChaseOdds {
    pub setup: String,
    #[serde(flatten)]
    pub odds: Odds,
}

/// Why a question has no answer.
#[derive(Debug)]
pub enum Unanswered {
    /// A bad option or policy, or a policy that cannot be worked out within the budget: the error to
    /// show (the command line exits 2 with it).
    Refused(OptionError),
    /// The asker raised the budget's cancel flag; no one is waiting.
    Cancelled,
}

impl std::fmt::Display for Unanswered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unanswered::Refused(e) => e.fmt(f),
            Unanswered::Cancelled => chase::Cancelled.fmt(f),
        }
    }
}

impl From<OptionError> for Unanswered {
    fn from(e: OptionError) -> Self {
        Unanswered::Refused(e)
    }
}

/// The chase answer for a system's options, a policy (`None`: the system's first) and a simulation seed,
/// reading the track tables from `lib`, within `budget`.
pub fn chase_odds(
    system: &SystemArgs,
    options: &OddsOptions,
    lib: &Library,
    budget: &Budget,
) -> Result<ChaseOdds, Unanswered> {
    let c = system.build(lib)?;
    let p = chase::policy_index(&c.info(), options.policy.as_deref())?;
    let odds = chase::odds(c.as_ref(), p, budget, options.seed).map_err(|stop| match stop {
        Stop::Cancelled => Unanswered::Cancelled,
        stop => Unanswered::Refused(chase::refusal(&stop, &c.info().policies[p].id)),
    })?;
    Ok(ChaseOdds {
        setup: c.setup(),
        odds,
    })
}
