//! The `blockprint` binary: parse the command line and hand it to the library.

use std::process::ExitCode;

use clap::Parser;

// typst allocates and frees many small objects while it lays out; with the system allocator, malloc and
// page faults were about 12 % of the SRD's time (perf). mimalloc serves them from thread-local pages.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    blockprint::cli::run(blockprint::cli::Cli::parse())
}
