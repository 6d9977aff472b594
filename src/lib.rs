//! blockprint: printable material for *Block by Block* and the chase systems beside it.
//!
//! The pipeline is a chain of crates, each depending only on those before it (Cargo refuses a cycle):
//! 1. [`dice`] (`blockprint-dice`) parses dice notation, rolls it with a seeded ChaCha generator and computes
//!    exact distributions;
//! 2. [`content`] (`blockprint-content`) loads TOML tables, lookups, decks and NPCs into a
//!    [`content::Library`], [`check`]s them (coverage, references, decks) into located [`diag`]nostics,
//!    and [`roll`]s tables with a named, seeded generator; [`error`] is the one error type;
//! 3. `blockprint-kind` is the contract of a document kind ([`generators::Kind`], [`generators::Document`],
//!    [`generators::Request`], [`render::Format`], [`render::Paper`]);
//! 4. [`render`] (`blockprint-render`, the only crate that links typst) renders documents to PDF and
//!    Markdown and streams a kind's documents to disk;
//! 5. [`chase`] (`blockprint-chase`, beside the kinds) holds the chase systems' rules as state machines:
//!    whole-chase odds, a chase played out from a seed, a system's grid of match-ups;
//! 6. [`generators`] (`blockprint-kinds`) holds every document kind and the registry; [`campaign`] keeps a
//!    squad's year between sessions;
//! 7. [`app`] (`blockprint-app`) is what blockprint does, once for every front: [`project`], the one path
//!    from files on disk to files written ([`project::Project`]), reporting through a [`app::Sink`];
//! 8. this crate: the two fronts over it, [`cli`] (the command line) and [`studio`] (the local web page).
//!
//! The module paths below are the library's public face: each re-exports the crate that holds the stage.

pub mod cli;
pub mod front_error;
pub mod studio;

pub use blockprint_app as app;
pub use blockprint_app::project;
pub use blockprint_chase as chase;
pub use blockprint_content as content;
pub use blockprint_content::{check, diag, error, roll};
pub use blockprint_dice as dice;
pub use blockprint_kinds as generators;
pub use blockprint_kinds::campaign;

/// Rendering: the renderers of `blockprint-render`, and the reference data and exports that the kinds
/// build for them.
pub mod render {
    pub use blockprint_kinds::srd::book as srd;
    pub use blockprint_kinds::{data, export};
    pub use blockprint_render::*;

    /// Fillable forms: the renderer's form code and the detective's field values.
    pub mod form {
        pub use blockprint_kinds::detective::detective_values;
        pub use blockprint_render::form::*;
    }
}
