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
    keep_freed_memory_a_while();
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

/// mimalloc hands memory that has been free for a second back to the kernel (its purge delay), and
/// typst frees and allocates again hundreds of megabytes while it lays out: each page handed back is
/// zeroed by the kernel on its next touch. A warm `build` took 170 000 page faults, a third of them
/// for memory handed back and taken again; `clear_page_erms` under those faults was about a tenth of its
/// CPU (perf). With a delay of ten seconds a burst of work (a `build`, a batch) reuses what it freed:
/// 108 000 faults, 0.1-0.2 s less system time, the peak 40 MB higher; the studio, idle between
/// requests, still hands memory back ten seconds after a job. `MIMALLOC_PURGE_DELAY` set by the user
/// is left as it is.
fn keep_freed_memory_a_while() {
    // mimalloc's `mi_option_purge_delay` (libmimalloc-sys names every option but this one): the 16th
    // of its options in mimalloc 2 and 3. Set only where it reads the documented default (1000 ms), so a
    // mimalloc whose options are numbered otherwise is left alone.
    const PURGE_DELAY: std::ffi::c_int = 15;
    unsafe extern "C" {
        fn mi_option_get(option: std::ffi::c_int) -> std::ffi::c_long;
        fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
    }
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    // SAFETY: both take an option's number and a plain value; mimalloc is the global allocator and
    // reads its options at run time, so changing one here is what its own API is for.
    unsafe {
        if mi_option_get(PURGE_DELAY) == 1000 {
            mi_option_set(PURGE_DELAY, 10_000);
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
