//! `blockprint import foundry|roll20|csv FILE… --into DIR`: the use case is `blockprint_app::import`;
//! this front names what it wrote, one line per table, and maps errors to exit codes.

use std::path::{Path, PathBuf};

use crate::app::import::{self, Format};

use super::{ImportFrom, Status};

pub(super) fn run(from: ImportFrom, files: &[PathBuf], into: &Path, quiet: bool) -> Status {
    let format = match from {
        ImportFrom::Foundry => Format::Foundry,
        ImportFrom::Roll20 => Format::Roll20,
        ImportFrom::Csv => Format::Csv,
    };
    match import::import(format, files, into) {
        Ok(done) => {
            if !quiet {
                for t in &done.tables {
                    eprintln!(
                        "imported `{}` ({}, {} rows) from {} into {}",
                        t.id,
                        t.dice,
                        t.rows,
                        t.source,
                        into.join(&t.file).display()
                    );
                    if let Some(n) = &t.note {
                        eprintln!("  note: {n}");
                    }
                }
                if !done.skipped.is_empty() {
                    eprintln!(
                        "left alone {} file(s) that hold no RollTable (the first: {})",
                        done.skipped.len(),
                        done.skipped[0]
                    );
                }
                eprintln!(
                    "imported {} table(s); check them with `blockprint check --content {}`",
                    done.tables.len(),
                    into.display()
                );
            }
            Status::Ok
        }
        Err(e) => {
            eprintln!("{}", super::shown(&e));
            Status::from_exit(e.exit_code())
        }
    }
}
