//! blockprint's integration tests: one test binary (`autotests = false` in Cargo.toml), one module per
//! area, so that touching one file relinks one executable instead of one per area. Every run of the
//! `blockprint` binary goes through [`support`] (`support::bp()`), and every golden file is compared
//! through `support::golden_files`, which masks the content version.
//!
//! Run one area with a filter: `cargo test --release --test main kits::` (or `kits::rbf::`,
//! `dice::bounds::`); `cargo test --release --test main -- --list` lists them all.

mod support;

mod build;
mod cache;
mod campaign;
mod cards;
mod case;
mod chase;
mod chase_small;
mod check;
mod cli;
mod cli_surface;
mod contract;
mod detective;
mod dice;
mod export;
mod font_path;
mod fonts;
mod form_scripts;
mod frequencies;
mod fronts;
mod goldens;
mod hostile;
mod import;
mod install;
mod kits;
mod make_surface;
mod npc;
mod numbers;
mod odds;
mod own_tables;
mod pages;
mod pipeline;
mod places;
mod reliability;
mod robust;
mod sheet;
mod srd;
mod studio;
mod tagged;
mod templates;
mod version;
mod wrong_output;
