//! Answers as data: what a question gives, worked out once, for the command line to print as text or
//! JSON and the studio to show as HTML.

use blockprint_chase::{self as chase, Limits, Odds, OddsOptions, OptionError, SystemArgs};
use blockprint_content::Library;

/// The chase answer (`chase odds`, the studio's Chase page): the system's options in words, then every
/// ending's chance and the length (what `chase odds --json` prints).
#[derive(Debug, serde::Serialize)]
pub struct ChaseOdds {
    pub setup: String,
    #[serde(flatten)]
    pub odds: Odds,
}

/// The chase answer for a system's options, a policy (`None`: the system's first) and a simulation seed,
/// reading the track tables from `lib`. A bad option or policy is the error to show.
pub fn chase_odds(
    system: &SystemArgs,
    options: &OddsOptions,
    lib: &Library,
) -> Result<ChaseOdds, OptionError> {
    let c = system.build(lib)?;
    let p = chase::policy_index(&c.info(), options.policy.as_deref())?;
    let odds = chase::odds(c.as_ref(), p, Limits::default(), options.seed);
    Ok(ChaseOdds {
        setup: c.setup(),
        odds,
    })
}
