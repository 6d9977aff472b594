//! The application layer: what blockprint does, once, for every front. The command line (`src/cli`) and
//! the studio (`src/studio`) are adapters over this crate: they parse their input, call it, and present
//! what it returns; neither holds a use case of its own, and this crate knows neither clap nor HTTP and
//! prints nothing. What a run has to say (files written, seeds, warnings, page faults) goes to the
//! [`Sink`] the caller passes.
//!
//! - [`project`]: the one path from files on disk to files written ([`project::Project`]);
//! - [`campaign`]: the campaign session (new, week, close, month, year, mend, undo, status, plan,
//!   packets) with its locking, replay and checks;
//! - [`import`]: tables from Foundry VTT, Roll20 and CSV into content files;
//! - [`init`]: the built-in content written out as a folder to edit, and such a folder brought up to date;
//! - [`answers`]: the answers the fronts show as data (the chase answer);
//! - [`odds`]: the dice-odds answer (a distribution, questions, a contest) and its bad-dice reports;
//! - [`print`]: one print file of everything a make wrote, each document starting on a front.

pub mod answers;
pub mod campaign;
pub mod error;
pub mod import;
pub mod init;
pub mod odds;
pub mod print;
pub mod project;

pub use blockprint_kind::sink::{self, Collector, Event, Silent, Sink};
pub use project::{Batch, Output, Project};
