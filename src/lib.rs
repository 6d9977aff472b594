//! blockprint: printable material for *Block by Block* and the chase systems beside it.
//!
//! The pipeline, one module per stage:
//! 1. [`content`] loads TOML tables, lookups, decks and NPCs (embedded or from `--content DIR`) into a [`content::Library`];
//! 2. [`dice`] parses dice notation, rolls it with a seeded ChaCha generator and computes exact distributions;
//! 3. [`check`] proves the content sound (coverage, references, decks) and reports [`diag::Diagnostic`]s;
//! 4. [`roll`] rolls tables with a named, seeded ChaCha20 generator, recording which row produced what;
//! 5. [`generators`] turns checked content and a request into documents, one [`generators::Kind`] per document kind;
//! 6. [`render`] renders documents to PDF (typst) and Markdown (minijinja) and streams them to disk;
//! 7. [`campaign`] keeps a squad's year between sessions: a setup and a command log replayed into the calendar, cases and rolls;
//! 8. [`cli`] turns commands into calls of the stages above; [`error`] maps every failure to an exit code.

pub mod campaign;
pub mod check;
pub mod cli;
pub mod content;
pub mod diag;
pub mod dice;
pub mod error;
pub mod generators;
pub mod render;
pub mod roll;
