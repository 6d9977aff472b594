//! blockprint: printable material for *Block by Block* and the chase systems beside it.
//!
//! The pipeline, one module per stage:
//! 1. [`content`] loads TOML tables, lookups, decks and NPCs (embedded or from `--content DIR`) into a [`content::Library`];
//! 2. [`dice`] parses dice notation, rolls it with a seeded ChaCha generator and computes exact distributions;
//! 3. [`check`] proves the content sound (coverage, references, decks) and reports [`diag::Diagnostic`]s;
//! 4. [`roll`] rolls tables with a named, seeded ChaCha20 generator, recording which row produced what;
//! 5. [`render`] turns checked content into documents (Markdown through minijinja) written atomically;
//! 6. [`cli`] turns commands into calls of the stages above and prints their results.

pub mod check;
pub mod cli;
pub mod content;
pub mod diag;
pub mod dice;
pub mod render;
pub mod roll;
