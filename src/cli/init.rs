//! `blockprint init DIR` and `blockprint init --update DIR` ([`crate::app::init`]): what was written, on
//! stderr, as every command says it.

use std::path::Path;

use super::Status;

pub(super) fn run(dir: &Path, quiet: bool) -> Status {
    match crate::app::init::write_all(dir) {
        Ok(_) if quiet => Status::Ok,
        Ok(n) => {
            eprintln!(
                "wrote {n} files to {}; check them with `blockprint check --content {}`",
                dir.display(),
                dir.display()
            );
            Status::Ok
        }
        Err(e) => {
            eprintln!("error: {e}");
            Status::Io
        }
    }
}

/// `init --update DIR`: every line says what was added; a folder with nothing to add says so.
pub(super) fn update(dir: &Path, quiet: bool) -> Status {
    match crate::app::init::add_missing(dir) {
        Ok(added) => {
            if !quiet {
                for line in &added {
                    eprintln!("{line}");
                }
                if added.is_empty() {
                    eprintln!(
                        "{} lacks no built-in file and no part a generator prints; nothing written",
                        dir.display()
                    );
                } else {
                    eprintln!(
                        "check it with `blockprint check --content {}`",
                        dir.display()
                    );
                }
            }
            Status::Ok
        }
        Err(e) => {
            eprintln!("error: {e}");
            Status::Io
        }
    }
}
