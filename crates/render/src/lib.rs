//! Rendering: documents in, files out. [`Engine`] holds the templates (typst for PDF, minijinja for
//! Markdown) once per process; [`driver`] streams a kind's documents through it to disk on a pool of plain
//! threads, keeps the output folder's manifest, and makes the combined files ([`merge`]); [`output`] writes
//! atomically; [`pages`] checks every laid-out page. This is the only crate that links typst; nothing in it
//! knows a particular kind.

pub mod cache;
pub mod cards;
pub mod driver;
mod engine;
pub mod error;
pub mod fonts;
pub mod form;
pub mod manifest;
pub mod markdown;
pub mod merge;
pub mod output;
pub mod pages;
pub mod pdf;
pub mod wrap;

use include_dir::{Dir, include_dir};

pub use engine::{Engine, TemplateFile, Templates};

/// The templates compiled into the binary.
pub static TEMPLATES: Dir<'static> = include_dir!("$BLOCKPRINT_TEMPLATES_DIR");

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

pub use blockprint_kind::error::KindError;
/// Where a run reports what it did: see [`blockprint_kind::sink`].
pub use blockprint_kind::sink;
pub use blockprint_kind::{Format, Paper};
