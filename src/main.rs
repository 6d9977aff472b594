//! The `blockprint` binary: parse the command line and hand it to the library.

use std::io::Write;
use std::process::ExitCode;

use clap::error::ErrorKind;

// typst allocates and frees many small objects while it lays out; with the system allocator, malloc and
// page faults were about 12 % of the SRD's time (perf). mimalloc serves them from thread-local pages.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    no_transparent_huge_pages();
    // The command line as clap sees it, completed at run time: the grouped top-level help and the
    // document kinds the registry knows (see cli::help).
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // `--color` is read before parsing, so clap's own help and errors follow it too.
    let color = blockprint::cli::term::choice_in(&args);
    blockprint::cli::term::init(color);
    let mut cmd = blockprint::cli::help::command_for(&args).color(color);
    let args = blockprint::cli::make::old_make_order(&cmd, &args).unwrap_or(args);
    match cmd.try_get_matches_from_mut(&args) {
        Ok(m) => blockprint::cli::run_matches(&m),
        Err(e) if e.kind() == ErrorKind::DisplayVersion => print_version(),
        Err(e) => match blockprint::cli::numbers::explain(&cmd, &args, &e)
            .or_else(|| blockprint::cli::make::foreign_option(&cmd, &args, &e))
        {
            // A number the option does not take, named with its range; an option of another kind
            // given to this one, named with the options this one takes.
            Some(text) => {
                blockprint::cli::term::eprint(&text);
                ExitCode::from(2)
            }
            None => e.exit(),
        },
    }
}

/// `blockprint --version` (and `-V`): the version, the git commit the binary was built from (see
/// build.rs) and the version of the content compiled into it, on one line so scripts can quote it:
/// `blockprint 0.1.0 (commit 3a01790c12ab, content 7efbb03a8752)`. The content version is the fingerprint
/// the library stamps on every manifest and page, computed here from the built-in content (about 10 ms).
fn print_version() -> ExitCode {
    let content = match blockprint::content::load(&blockprint::content::ContentRoot::Embedded) {
        Ok((lib, _)) => lib.version,
        Err(e) => {
            blockprint::cli::term::eprint(&format!(
                "error: cannot read the built-in content: {e}\n"
            ));
            return ExitCode::from(70);
        }
    };
    let line = format!(
        "blockprint {} (commit {}, content {content})\n",
        env!("CARGO_PKG_VERSION"),
        env!("BLOCKPRINT_COMMIT"),
    );
    let mut out = std::io::stdout().lock();
    match out.write_all(line.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // `blockprint --version | head -c 10`: the reader has what it wanted.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            blockprint::cli::term::eprint(&format!("error: cannot write to stdout: {e}\n"));
            ExitCode::from(2)
        }
    }
}

/// mimalloc asks Linux for transparent huge pages. A run as short as ours touches only part of each 2 MB
/// page, yet the kernel clears all of it on the first touch (perf: `clear_page_erms` under
/// `do_huge_pmd_anonymous_page`, up to 18 % of a short case batch). Without them the SRD peaks about
/// 60 MB lower (233 against 295 MB) and `build` 63 MB lower; time is neutral to better (two sets of 8
/// alternating SRD runs: 1.18 -> 1.03 s and 1.21 -> 1.19 s). Pages already mapped are left as they are.
fn no_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes one integer flag and touches no memory of ours; an error (an old
    // kernel) only leaves the default in place.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}
