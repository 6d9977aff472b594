//! The `blockprint` binary: parse the command line and hand it to the library.

use std::process::ExitCode;

use clap::Parser;

// typst allocates and frees many small objects while it lays out; with the system allocator, malloc and
// page faults were about 12 % of the SRD's time (perf). mimalloc serves them from thread-local pages.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    no_transparent_huge_pages();
    blockprint::cli::run(blockprint::cli::Cli::parse())
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
