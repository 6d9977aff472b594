//! Whole-chase odds: for given participants, the chance of each way a chase can end and how long it lasts,
//! for Block by Block and the chase systems the kits cover. `blockprint chase odds|play|table` is a thin
//! shell over this crate (src/cli/chase.rs); the kits' "Chase odds" pages read [`Grid`]s from it.
//!
//! # The model
//! A system with its options applied is a [`System`]: [`start`](System::start) gives the state before the
//! first unit, [`ending`](System::ending) says whether a state has ended (and how), and
//! [`step`](System::step) plays ONE unit (round, beat, interval) from a state, under a named policy,
//! drawing every random thing from a [`Chance`]: [`Chance::roll`] for dice (through a [`Check`], which knows
//! its exact outcome distribution, how to roll it face by face and how to read faces), [`Chance::draw`] for
//! a card off a deck of n, [`Chance::pick`] for anything else with exact weights, and [`Chance::note`] for
//! a line of narration in the log. The same `step` drives all three engines:
//!
//! - [`exact::solve`] enumerates every combination of chance results of a unit (re-running `step` once
//!   per combination), merges equal next states (after [`System::canonical`]) and carries the exact
//!   probability mass forward unit by unit: each ending's chance as a fraction and the length
//!   distribution. It counts its work on a [`budget::Meter`] and stops past its [`Budget`] (work and
//!   distinct states), or when the question is cancelled.
//! - [`sim::simulate`] samples `step` from a ChaCha20 seed (dice rolled face by face) for a run count,
//!   within the budget's own work limit for simulations; [`odds`] falls back to it, labelled with its
//!   runs, seed, the reason and 99 % intervals, only when the exact solver stops past its budget.
//! - [`sim::play`] samples one chase and logs every roll (dice, faces, result), draw, pick and note, with
//!   the position after each unit ([`System::describe`]); [`sim::replay`] re-runs the rules on a log's
//!   recorded results and checks every event and position.
//!
//! A chase still running after [`System::max_units`] units is called off (ending
//! [`model::LIMIT_ENDING`]), so every computation is finite; its chance is reported like any ending.
//!
//! # Adding a system (how part B plugs in)
//! 1. A module `src/<system>.rs`, or a folder `src/<system>/` once it outgrows one file (as `bbb/`, `coc/`
//!    and `rbf/`: the rules in `mod.rs`, the rolls in `dice.rs`, the options in `options.rs`, the grid and
//!    kit page in `grid.rs`), declared below with `pub mod`, with:
//!    - a state type (`Clone + Eq + Hash + Debug`, small: the exact solver stores each distinct one);
//!    - a `#[derive(clap::Args)]` struct of its options. Range checks go in `value_parser`s where clap can
//!      say them; anything else is checked in `build` and returned as an [`OptionError`] naming the
//!      option (`--pool`), which the command line prints and exits 2 with;
//!    - `impl System for YourSystem`: `info()` lists the endings, policies (the first is the default; the
//!      `--policy` names) and the house [`Ruling`]s the model rests on; `start`, `ending`, `step`,
//!      `describe`, `max_units` as above. Use a [`Check`] for every roll (see `bbb::SixesCheck` for one);
//!      `step` must be deterministic given what `Chance` returns, and must use only `chance` for randomness;
//!    - `pub fn build(args: &Args, lib: &Library) -> Result<Box<dyn Chase>, OptionError>` returning
//!      `Box::new(Built { system, setup })` (`setup` says the options in words, for the log);
//!    - `pub fn grid(args: &Args, lib: &Library, policy: Option<&str>) -> Result<Grid, OptionError>`: the
//!      issue's match-ups, one [`odds`] per cell, through [`Grid::cell`].
//! 2. One variant in [`SystemArgs`] and one arm in each of its two `match`es (`build`, `grid`).
//! 3. Tests in tests/chase.rs: [`exact_vs_sim`]-style agreement, a hand-worked case, play/replay.
//!
//! Best play: a system that can afford it computes its best policy itself (value iteration over its own
//! states in `build`) and offers it as a named policy whose text says so.

pub mod bbb;
pub mod budget;
pub mod coc;
pub mod error;
pub mod exact;
pub mod model;
pub mod odds;
pub mod page;
pub mod rbf;
pub mod sim;
pub mod storypath;
pub mod urban_world;

use blockprint_content::Library;
use serde::{Deserialize, Serialize};

pub use budget::{Budget, Cancel, Cancelled, Stop};
pub use exact::TooBig;
pub use model::{
    Chance, Check, Ending, Event, LIMIT_ENDING, Opt, OptionError, P, Policy, Problem, Ruling,
    System, SystemInfo, Unit, policy_index,
};
pub use odds::{EndingOdds, Length, Method, Odds};
pub use sim::{PlayLog, Step};

/// Chases a fallback simulation runs.
pub const SIM_RUNS: u64 = 100_000;
/// Chases per simulated cell of a grid (a 99 % interval of about ±1.3 points at 50 %).
pub const GRID_SIM_RUNS: u64 = 10_000;
/// The seed of a fallback simulation when none is given (so the same question gives the same answer).
pub const SIM_SEED: u64 = 1;

/// A system with its options applied, whatever its state type: what the command line and the kits use.
pub trait Chase {
    fn info(&self) -> SystemInfo;
    /// The options in words: "quarry level 2 (10 Hot Pursuit), pursuer level 3 (10 Hot Pursuit)".
    fn setup(&self) -> String;
    fn exact(&self, policy: usize, budget: &Budget) -> Result<Odds, Stop>;
    fn simulate(
        &self,
        policy: usize,
        runs: u64,
        seed: u64,
        reason: &str,
        budget: &Budget,
    ) -> Result<Odds, Stop>;
    fn play(&self, policy: usize, seed: u64, budget: &Budget) -> Result<PlayLog, Stop>;
    fn replay(&self, policy: usize, log: &PlayLog) -> Result<(), String>;
}

/// A [`System`] as a [`Chase`].
pub struct Built<S: System> {
    pub system: S,
    pub setup: String,
}

impl<S: System> Chase for Built<S> {
    fn info(&self) -> SystemInfo {
        self.system.info()
    }

    fn setup(&self) -> String {
        self.setup.clone()
    }

    fn exact(&self, policy: usize, budget: &Budget) -> Result<Odds, Stop> {
        exact::solve(&self.system, policy, budget)
    }

    fn simulate(
        &self,
        policy: usize,
        runs: u64,
        seed: u64,
        reason: &str,
        budget: &Budget,
    ) -> Result<Odds, Stop> {
        sim::simulate(&self.system, policy, runs, seed, reason, budget)
    }

    fn play(&self, policy: usize, seed: u64, budget: &Budget) -> Result<PlayLog, Stop> {
        sim::play(&self.system, policy, seed, &self.setup, budget)
    }

    fn replay(&self, policy: usize, log: &PlayLog) -> Result<(), String> {
        sim::replay(&self.system, policy, log)
    }
}

/// Exact odds when the exact solver stays within `budget`; otherwise a labelled simulation of up to
/// [`SIM_RUNS`] chases from `seed` (default [`SIM_SEED`]) within the budget's simulation work. An error
/// when the question was cancelled, or when even the simulation cannot start (a policy whose
/// preparation is past the budget: best play on a chase too big to plan).
pub fn odds(
    chase: &dyn Chase,
    policy: usize,
    budget: &Budget,
    seed: Option<u64>,
) -> Result<Odds, Stop> {
    odds_with_runs(chase, policy, budget, seed, SIM_RUNS)
}

/// [`odds`] with `runs` chases when it has to simulate.
pub fn odds_with_runs(
    chase: &dyn Chase,
    policy: usize,
    budget: &Budget,
    seed: Option<u64>,
    runs: u64,
) -> Result<Odds, Stop> {
    match chase.exact(policy, budget) {
        Ok(o) => Ok(o),
        Err(Stop::Cancelled) => Err(Stop::Cancelled),
        Err(Stop::TooBig(too_big)) => chase.simulate(
            policy,
            runs,
            seed.unwrap_or(SIM_SEED),
            &format!("exact needs {}", too_big.reason),
            budget,
        ),
    }
}

/// A question [`odds`] could not answer, as the option error to show: past the budget even for the
/// simulation (a policy that cannot be prepared), or cancelled.
pub fn refusal(stop: &Stop, policy: &str) -> OptionError {
    match stop {
        Stop::TooBig(t) => OptionError::new(
            Opt::Policy,
            Problem::TooBig {
                policy: policy.to_owned(),
                reason: t.reason.clone(),
            },
        ),
        Stop::Cancelled => OptionError::new(Opt::Policy, Problem::Cancelled),
    }
}

/// The match-up grid of a system: what `chase table` prints and the kits' "Chase odds" page shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Grid {
    pub system: String,
    pub system_name: String,
    pub title: String,
    /// What every cell gives: the chance of this ending.
    pub headline: Ending,
    pub policy: Policy,
    pub unit: Unit,
    /// What the rows and columns are ("Quarry level", "Pursuer level").
    pub rows_label: String,
    pub cols_label: String,
    /// One table per value of the third axis (if any).
    pub tables: Vec<GridTable>,
    /// What the grid assumes, in words.
    pub notes: Vec<String>,
    pub rulings: Vec<Ruling>,
}

/// One table of a [`Grid`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GridTable {
    /// "Starting Hot Pursuit 10" (empty when the grid has one table).
    pub caption: String,
    pub rows: Vec<String>,
    pub cols: Vec<String>,
    /// `cells[row][col]`.
    pub cells: Vec<Vec<Cell>>,
}

/// One match-up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// The headline ending's chance in percent (3 decimals).
    pub percent: f64,
    /// Exact fraction, when exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fraction: Option<String>,
    /// 99 % interval in percent, when simulated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<(f64, f64)>,
    /// Chases simulated, when simulated (from seed [`SIM_SEED`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs: Option<u64>,
    pub exact: bool,
    /// Mean length in the system's unit.
    pub mean_length: f64,
}

impl Grid {
    /// The cell of one match-up: [`odds`] of `chase` under the default [`Budget`], read for
    /// `headline`; past the budget even for a simulation (best play too big to plan), the reason.
    pub fn cell(chase: &dyn Chase, policy: usize, headline: &str) -> Result<Cell, OptionError> {
        Grid::cell_with_runs(chase, policy, headline, SIM_RUNS)
    }

    /// [`Grid::cell`] with `runs` chases when it has to simulate (a grid of many simulated cells must
    /// stay within its time: see [`GRID_SIM_RUNS`]).
    pub fn cell_with_runs(
        chase: &dyn Chase,
        policy: usize,
        headline: &str,
        runs: u64,
    ) -> Result<Cell, OptionError> {
        let o = odds_with_runs(chase, policy, &Budget::default(), None, runs)
            .map_err(|stop| refusal(&stop, &chase.info().policies[policy].id))?;
        let e = o.endings.iter().find(|e| e.id == headline);
        Ok(Cell {
            percent: e.map_or(0.0, |e| e.percent),
            fraction: e.and_then(|e| e.fraction.clone()),
            interval: e.and_then(|e| e.interval),
            runs: match o.method {
                Method::Simulated { runs, .. } => Some(runs),
                Method::Exact { .. } => None,
            },
            exact: o.is_exact(),
            mean_length: o.length.mean,
        })
    }
}

/// A system's policies for its `--help`: each with what it does, the first marked as the default.
pub fn policy_help(policies: &[Policy]) -> String {
    let mut out = String::from("Policies (--policy):");
    for (i, p) in policies.iter().enumerate() {
        let default = if i == 0 { " (the default)" } else { "" };
        out.push_str(&format!("\n  {}{default}: {}", p.id, p.text));
    }
    out
}

/// The systems, each with its options: `chase odds SYSTEM [options]`.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum SystemArgs {
    /// Block by Block's card chase: Hot Pursuit, the road-ahead deck, slowing down to escape.
    #[command(name = "bbb", visible_alias = "block-by-block", after_help = policy_help(&bbb::policies()))]
    Bbb(bbb::Args),
    /// The Call of Cthulhu-style chase: speed rolls, locations, movement actions, hazards and barriers.
    #[command(name = "coc", visible_alias = "call-of-cthulhu", after_help = policy_help(&coc::policies()))]
    Coc(coc::Args),
    /// Urban World (Dungeon World): the chase ladder, 2d6 + stat for hold, hold spent on the ladder.
    #[command(name = "urban-world", visible_alias = "uw", after_help = policy_help(&urban_world::policies()))]
    UrbanWorld(urban_world::Args),
    /// Ready/Bolt/Flow, one against one: spaces, Sprint Tokens, the five actions, stuns and restraint.
    #[command(name = "rbf", visible_alias = "ready-bolt-flow", after_help = policy_help(&rbf::policies()))]
    Rbf(rbf::Args),
    /// Storypath: laps needed, each side's pool, the interval limit and the chase modifiers.
    #[command(name = "storypath", visible_alias = "sp", after_help = policy_help(&storypath::policies()))]
    Storypath(storypath::Args),
}

/// The options `chase odds` takes beside the system's own, defined once: the command line flattens them
/// into `chase odds`, the studio's Chase page draws its form from [`odds_command`] and reads it with
/// [`parse_odds`].
#[derive(Debug, Clone, Default, clap::Args)]
pub struct OddsOptions {
    /// How the players make the choices the rules leave open (each system lists its policies; the
    /// first is the default).
    #[arg(long, global = true)]
    pub policy: Option<String>,
    /// Seed of the simulation when the exact answer is out of reach (default 1).
    #[arg(long, global = true, value_parser = clap::value_parser!(u64).range(0..=blockprint_content::roll::case::MAX_SEED))]
    pub seed: Option<u64>,
}

/// `chase odds` as a command of its own: the systems, each with its options, and [`OddsOptions`].
#[derive(Debug, clap::Parser)]
#[command(
    name = "odds",
    bin_name = "blockprint chase odds",
    no_binary_name = true
)]
struct OddsLine {
    #[command(subcommand)]
    system: SystemArgs,
    #[command(flatten)]
    options: OddsOptions,
}

/// `chase odds`'s definition (built, so each system shows the shared options too), for a page that draws
/// its form from it.
pub fn odds_command() -> clap::Command {
    use clap::CommandFactory;
    // A negative number is an option's value, as on the command line (blockprint_content::numbers).
    let mut cmd =
        blockprint_content::numbers::harden(OddsLine::command().color(clap::ColorChoice::Never));
    cmd.build();
    cmd
}

/// The words after `blockprint chase odds` (`["bbb", "--quarry-level=2"]`) read as the command line reads
/// them: the system's options and the shared ones, or the parser's own error text.
pub fn parse_odds(words: &[String]) -> Result<(SystemArgs, OddsOptions), String> {
    use clap::FromArgMatches;
    let cmd = odds_command();
    cmd.clone()
        .try_get_matches_from(words)
        .and_then(|m| OddsLine::from_arg_matches(&m))
        .map(|l| (l.system, l.options))
        .map_err(|e| {
            // A number out of its option's range in the command line's words.
            let args: Vec<std::ffi::OsString> = words.iter().map(Into::into).collect();
            blockprint_content::numbers::explain(&cmd, &args, &e)
                .unwrap_or_else(|| e.render().to_string())
        })
}

impl SystemArgs {
    /// The system with these options applied.
    pub fn build(&self, lib: &Library) -> Result<Box<dyn Chase>, OptionError> {
        match self {
            SystemArgs::Bbb(a) => bbb::build(a, lib),
            SystemArgs::Coc(a) => coc::build(a, lib),
            SystemArgs::UrbanWorld(a) => urban_world::build(a, lib),
            SystemArgs::Rbf(a) => rbf::build(a, lib),
            SystemArgs::Storypath(a) => storypath::build(a, lib),
        }
    }

    /// The system's match-up grid (its own options other than the grid's axes apply to every cell).
    pub fn grid(&self, lib: &Library, policy: Option<&str>) -> Result<Grid, OptionError> {
        match self {
            SystemArgs::Bbb(a) => bbb::grid(a, lib, policy),
            SystemArgs::Coc(a) => coc::grid(a, lib, policy),
            SystemArgs::UrbanWorld(a) => urban_world::grid(a, lib, policy),
            SystemArgs::Rbf(a) => rbf::grid(a, lib, policy),
            SystemArgs::Storypath(a) => storypath::grid(a, lib, policy),
        }
    }
}

#[cfg(test)]
mod tests;
