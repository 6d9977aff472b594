//! Generators: checked content and a request in, documents out — one [`Kind`] per document kind. A kind is
//! pure: no I/O, no clock, randomness only from the request's seed and the item's number, so item `i` is the
//! same alone, in a batch, on another thread or on another machine. The renderers in [`blockprint_render`] turn
//! each [`Document`] into files; the driver there streams a kind's documents to disk.
//!
//! Adding a kind: a module here plus one line in [`RUST_KINDS`], and its templates under
//! `templates/<kind>/`. A kind that only lays out checked content needs no Rust at all: a
//! `templates/<kind>/kind.toml` (see [`layout`]) names its template and the content it shows.

pub mod campaign;
pub mod cards;
pub mod case;
pub mod data;
pub mod detective;
pub mod error;
pub mod export;
pub mod fuzzing;
pub mod kits;
pub mod layout;
pub mod npc;
pub mod registry;
pub mod sheet;
pub mod srd;

pub use blockprint_kind::*;
pub use registry::{Declared, KindDef, KindOptions, NoOptions, Plain, Registry};

/// The built-in kinds written in Rust, in the order `build` runs them. One line registers a kind: a
/// kind without options as `&Plain(kind)`, one with options as the `Declared` static its module defines.
pub static RUST_KINDS: &[&dyn KindDef] = &[
    &case::DEF,
    &Plain(srd::SrdKind),
    &detective::DEF,
    &npc::DEF,
    &Plain(sheet::SheetKind),
    &cards::DECK_DEF,
    &cards::CARDS_DEF,
    &export::FOUNDRY_DEF,
    &export::FOUNDRY_V12_DEF,
    &export::ROLL20_DEF,
    &export::CSV_DEF,
    &Plain(kits::coc::CocKit),
    &Plain(kits::urban_world::UrbanWorldKit),
    &Plain(kits::storypath::StorypathKit),
    &Plain(kits::bbb::BbbKit),
    &Plain(kits::rbf::RbfKit),
];
