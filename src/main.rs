//! The `blockprint` binary: parse the command line and hand it to the library.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    blockprint::cli::run(blockprint::cli::Cli::parse())
}
