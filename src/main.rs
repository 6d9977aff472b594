//! The `blockprint` binary: parse the command line and hand it to the library.

use std::process::ExitCode;

use clap::Parser;

// typst allocates and frees many small objects while it lays out; mimalloc serves them from thread-local
// pages, which makes every typeset document faster than with the system allocator (see scripts/bench.sh).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    blockprint::cli::run(blockprint::cli::Cli::parse())
}
