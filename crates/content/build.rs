//! Build script: finds the `content/` folder this crate compiles in (`EMBEDDED`, src/load.rs) and passes its
//! path to the compiler as `BLOCKPRINT_CONTENT_DIR`.
//!
//! The folder lives at the top of the repository, where writers edit it. `crates/content/content` is a
//! symbolic link to it, so that `cargo package` packs the files themselves into this crate (Cargo follows
//! the link) and the published crate builds from its own contents. A checkout made without symbolic links
//! (git on Windows with `core.symlinks` off turns the link into a small text file) still builds: the script
//! then takes `../../content` directly.

use std::env;
use std::path::PathBuf;

fn main() {
    let dir = asset_dir("content");
    println!("cargo::rustc-env=BLOCKPRINT_CONTENT_DIR={}", dir.display());
}

/// `NAME` beside the manifest (a packaged crate, or a checkout with the link), else at the top of the
/// repository. Watching the folder makes a new file in it rebuild the crate, which the compiler alone
/// would miss (it only tracks the files it already read).
fn asset_dir(name: &str) -> PathBuf {
    let manifest =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let dir = [manifest.join(name), manifest.join("../..").join(name)]
        .into_iter()
        .find(|d| d.is_dir())
        .unwrap_or_else(|| {
            panic!(
                "the {name}/ folder is missing: looked for {} and {}",
                manifest.join(name).display(),
                manifest.join("../..").join(name).display()
            )
        });
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed={}", dir.display());
    dir
}
