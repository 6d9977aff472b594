//! Build script: finds the `templates/` and `fonts/` folders this crate compiles in (`TEMPLATES` in
//! src/lib.rs, `FONTS` in src/fonts.rs) and passes their paths to the compiler as
//! `BLOCKPRINT_TEMPLATES_DIR` and `BLOCKPRINT_FONTS_DIR`.
//!
//! Both folders live at the top of the repository, where they are edited. `crates/render/templates` and
//! `crates/render/fonts` are symbolic links to them, so that `cargo package` packs the files themselves
//! into this crate (Cargo follows the links) and the published crate builds from its own contents. A
//! checkout made without symbolic links (git on Windows with `core.symlinks` off turns each link into a
//! small text file) still builds: the script then takes `../../templates` and `../../fonts` directly.

use std::env;
use std::path::PathBuf;

fn main() {
    let templates = asset_dir("templates");
    let fonts = asset_dir("fonts");
    println!(
        "cargo::rustc-env=BLOCKPRINT_TEMPLATES_DIR={}",
        templates.display()
    );
    println!("cargo::rustc-env=BLOCKPRINT_FONTS_DIR={}", fonts.display());
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
