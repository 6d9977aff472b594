//! Rendering: documents in, files out. [`Engine`] holds the templates (typst for PDF, minijinja for
//! Markdown) once per process; [`driver`] streams a kind's documents through it to disk on a pool of plain
//! threads, keeps the output folder's manifest, and makes the combined files ([`merge`]); [`data`] builds
//! the values reference templates see; [`output`] writes atomically.

pub mod cards;
pub mod data;
pub mod driver;
mod engine;
pub mod export;
pub mod fonts;
pub mod form;
pub mod manifest;
pub mod markdown;
pub mod merge;
pub mod output;
pub mod pages;
pub mod pdf;
pub mod srd;
pub mod wrap;

use include_dir::{Dir, include_dir};
use serde::Serialize;

pub use engine::{Engine, TemplateFile, Templates};

/// The templates compiled into the binary.
pub static TEMPLATES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/templates");

/// Every embedded template file, in every kind's folder: (path relative to `templates/` with `/`, file).
pub fn template_files() -> Vec<(String, &'static include_dir::File<'static>)> {
    fn walk(
        dir: &'static Dir<'static>,
        out: &mut Vec<(String, &'static include_dir::File<'static>)>,
    ) {
        for f in dir.files() {
            out.push((f.path().to_string_lossy().replace('\\', "/"), f));
        }
        for d in dir.dirs() {
            walk(d, out);
        }
    }
    let mut out = Vec::new();
    walk(&TEMPLATES, &mut out);
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Paper sizes the templates know. On the command line and in the templates' data they are spelled
/// `a4`, `letter`, `a5` and `us-trade` (6 × 9 in, the common trade paperback and zine size).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Paper {
    A4,
    Letter,
    A5,
    UsTrade,
}

impl Paper {
    /// Every paper size, in the order `--help` lists them.
    pub const ALL: [Paper; 4] = [Paper::A4, Paper::Letter, Paper::A5, Paper::UsTrade];

    /// The spelling on the command line and in the data: `a4`, `letter`, `a5`, `us-trade`.
    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
            Paper::A5 => "a5",
            Paper::UsTrade => "us-trade",
        }
    }
}

/// Kinds of file a document renders to. `csv` and `txt` files are written by the kind itself
/// ([`crate::generators::Kind::files`]): the exports for other tools.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Pdf,
    Md,
    Json,
    Csv,
    Txt,
}
