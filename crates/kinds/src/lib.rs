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
pub mod export;
pub mod kits;
pub mod layout;
pub mod npc;
pub mod sheet;
pub mod srd;

pub use blockprint_kind::*;

use blockprint_content::error::Result;

/// The built-in kinds written in Rust, in the order `build` runs them. One line registers a kind.
pub static RUST_KINDS: &[&dyn Kind] = &[
    &case::CaseKind,
    &srd::SrdKind,
    &detective::PREGENERATED,
    &npc::STOCK,
    &sheet::SheetKind,
    &cards::DECK,
    &cards::CARDS,
    &export::FOUNDRY,
    &export::FOUNDRY_V12,
    &export::ROLL20,
    &export::CSV,
    &kits::coc::KIT,
    &kits::urban_world::KIT,
    &kits::storypath::KIT,
    &kits::bbb::KIT,
    &kits::rbf::KIT,
];

/// Every kind this process knows: the Rust kinds and the layout kinds found in the templates.
pub struct Registry {
    kinds: Vec<Entry>,
}

impl Registry {
    /// The built-in Rust kinds plus one layout kind per `kind.toml` among `templates`.
    pub fn new(templates: &blockprint_render::Templates) -> Result<Self> {
        let mut kinds: Vec<Entry> = RUST_KINDS.iter().map(|k| Entry::Static(*k)).collect();
        for spec in layout::discover(templates)? {
            if kinds.iter().any(|k| k.get().name() == spec.name) {
                return Err(blockprint_content::error::Error::Usage(format!(
                    "{}: a document kind named `{}` exists already; choose another `name`",
                    spec.file, spec.name
                )));
            }
            kinds.push(Entry::Owned(Box::new(spec)));
        }
        Ok(Registry { kinds })
    }

    /// No kinds at all (for commands that only read tables).
    pub fn empty() -> Self {
        Registry { kinds: Vec::new() }
    }

    /// Add a kind (for embedders and tests): one registration line.
    pub fn register(&mut self, kind: Box<dyn Kind>) {
        self.kinds.push(Entry::Owned(kind));
    }

    pub fn kinds(&self) -> impl Iterator<Item = &dyn Kind> {
        self.kinds.iter().map(Entry::get)
    }

    pub fn get(&self, name: &str) -> Option<&dyn Kind> {
        self.kinds().find(|k| k.name() == name)
    }
}

/// A registered kind: built in (static) or added at run time.
enum Entry {
    Static(&'static dyn Kind),
    Owned(Box<dyn Kind>),
}

impl Entry {
    fn get(&self) -> &dyn Kind {
        match self {
            Entry::Static(k) => *k,
            Entry::Owned(k) => k.as_ref(),
        }
    }
}
