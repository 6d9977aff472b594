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
