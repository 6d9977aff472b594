//! Rendering: checked content in, documents out. [`data`] builds the values templates see (and nothing else),
//! [`markdown`] renders them through minijinja templates embedded from `templates/`, and [`output`] writes
//! files atomically under one output folder.

pub mod data;
pub mod markdown;
pub mod output;
pub mod packet;
pub mod pdf;
pub mod srd;

use include_dir::{Dir, include_dir};

/// The templates compiled into the binary.
pub static TEMPLATES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/templates");

/// Every embedded template file, in every kind's folder: (path relative to `templates/` with `/`, file).
pub fn template_files() -> Vec<(String, &'static include_dir::File<'static>)> {
    fn walk(dir: &'static Dir<'static>, out: &mut Vec<(String, &'static include_dir::File<'static>)>) {
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
