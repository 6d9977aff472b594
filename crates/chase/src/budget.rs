//! What one question may spend, and the flag that stops it when its asker goes away.
//!
//! Every answer (`chase odds`, a cell of `chase table` or of a kit's odds page, the studio's Chase page)
//! runs under a [`Budget`]. The exact solver counts its work in units of about 5 ns ([`Meter`]): 100 for
//! every run of a unit's rules it enumerates and 100 more per chance point in it, 20 per branch it keeps
//! (memory), one per machine word of every exact mass it carries forward, and one per outcome of every
//! sweep of best play's value iteration; past [`Budget::exact_work`] (or [`Budget::max_states`] distinct states) it stops and
//! the question is handed to the seeded simulation, which counts its own work (units played and chance
//! points sampled) against [`Budget::sim_work`] and says how many chases it ran. Work is counted, not
//! timed, so the same question gives the same answer on any machine and under any load; the two limits
//! are calibrated so that the worst question measured stays within the bound the README states (1 s of
//! CPU and 256 MB on the reference machine: `cargo run --release -p blockprint-chase --example
//! calibrate` prints the work and CPU of each benchmark question).
//!
//! The [`Cancel`] flag is shared with whoever asked: the studio raises it when the client's connection
//! goes away, and every meter checks it as it counts, so a question no one waits for stops within a few
//! milliseconds.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::exact::TooBig;

/// Work units the exact solver may spend by default: at most about 0.6 s of CPU on the reference machine
/// (2 shared cores, November 2026) for the dearest work measured by the calibration example (Block by
/// Block's swerves, whose runs cost the most per unit), leaving the rest of the second for the
/// simulation that takes over.
pub const EXACT_WORK: u64 = 40_000_000;
/// Distinct states the exact solver may keep (memory: well under 256 MB with their branches).
pub const MAX_STATES: usize = 20_000;
/// Work units a simulation may spend by default: about 0.3 s of CPU for the dearest measured (Block by
/// Block, 0.13 µs a unit played or roll made).
pub const SIM_WORK: u64 = 2_500_000;

/// A flag the asker raises to stop a question; clones share it.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn new() -> Self {
        Cancel::default()
    }

    /// Stop every computation that holds this flag.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A question stopped because its asker raised its [`Cancel`] flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cancelled;

impl fmt::Display for Cancelled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the question was cancelled: no one is waiting for its answer")
    }
}

impl std::error::Error for Cancelled {}

/// Why a computation stopped before its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// Past its budget: the reason in words.
    TooBig(TooBig),
    Cancelled,
}

impl From<TooBig> for Stop {
    fn from(t: TooBig) -> Self {
        Stop::TooBig(t)
    }
}

impl From<Cancelled> for Stop {
    fn from(_: Cancelled) -> Self {
        Stop::Cancelled
    }
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::TooBig(t) => f.write_str(&t.reason),
            Stop::Cancelled => Cancelled.fmt(f),
        }
    }
}

impl std::error::Error for Stop {}

/// What one question may spend.
#[derive(Debug, Clone)]
pub struct Budget {
    /// Work units of the exact solver (and of a system's own preparation, such as best play's plans).
    pub exact_work: u64,
    /// Distinct states the exact solver may keep.
    pub max_states: usize,
    /// Work units of the simulation.
    pub sim_work: u64,
    /// Raised by the asker to stop the question.
    pub cancel: Cancel,
    /// Work spent under this budget so far, exact and simulated (what the calibration example and the
    /// tests read).
    pub spent: Arc<AtomicU64>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            exact_work: EXACT_WORK,
            max_states: MAX_STATES,
            sim_work: SIM_WORK,
            cancel: Cancel::new(),
            spent: Arc::default(),
        }
    }
}

impl Budget {
    /// The default budget, stopped by `cancel`.
    pub fn with_cancel(cancel: Cancel) -> Self {
        Budget {
            cancel,
            ..Budget::default()
        }
    }

    /// A budget with no limit on work (tests and hand-worked checks); it can still be cancelled.
    pub fn unlimited() -> Self {
        Budget {
            exact_work: u64::MAX,
            max_states: usize::MAX,
            sim_work: u64::MAX,
            cancel: Cancel::new(),
            spent: Arc::default(),
        }
    }

    /// A meter of the exact solver's work against this budget (adding what it spends to
    /// [`Budget::spent`] when it is dropped).
    pub fn exact_meter(&self) -> Meter<'_> {
        Meter {
            spent: Some(&self.spent),
            ..Meter::new(self.exact_work, &self.cancel)
        }
    }

    /// Work spent under this budget so far.
    pub fn spent(&self) -> u64 {
        self.spent.load(Ordering::Relaxed)
    }
}

/// Work counted against a limit; checks the cancel flag as it counts.
#[derive(Debug)]
pub struct Meter<'a> {
    used: u64,
    limit: u64,
    cancel: &'a Cancel,
    spent: Option<&'a AtomicU64>,
}

impl Drop for Meter<'_> {
    fn drop(&mut self) {
        if let Some(s) = self.spent {
            s.fetch_add(self.used, Ordering::Relaxed);
        }
    }
}

impl<'a> Meter<'a> {
    pub fn new(limit: u64, cancel: &'a Cancel) -> Self {
        Meter {
            used: 0,
            limit,
            cancel,
            spent: None,
        }
    }

    /// Work spent so far.
    pub fn used(&self) -> u64 {
        self.used
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Count `units` of work: an error once past the limit or once the question is cancelled.
    pub fn spend(&mut self, units: u64) -> Result<(), Stop> {
        self.used = self.used.saturating_add(units);
        if self.used > self.limit {
            return Err(Stop::TooBig(self.too_big()));
        }
        if self.cancel.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        Ok(())
    }

    /// Whether the question was cancelled (read now).
    pub fn cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// The reason given when the limit is passed.
    pub fn too_big(&self) -> TooBig {
        TooBig {
            reason: format!(
                "more work than its budget of {} units (about 0.6 s of CPU)",
                self.limit
            ),
        }
    }
}
