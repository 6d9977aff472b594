//! `blockprint case`: roll K homicide cases from a batch seed and write their packets under `--out`.

use crate::content::ContentRoot;
use crate::render::output::Output;
use crate::render::packet::{self, Format, Paper};
use crate::roll::case;

use super::Status;

/// Options shared by `case` and `build`.
pub(super) struct CaseOptions {
    pub seed: Option<u64>,
    pub count: u32,
    pub year: i32,
    pub first_number: u32,
    pub paper: Paper,
    pub formats: Vec<Format>,
}

pub(super) fn run(root: &ContentRoot, opts: &CaseOptions, out: &Output) -> Status {
    let (lib, _) = match super::checked(root) {
        Ok(x) => x,
        Err(s) => return s,
    };
    write_cases(&lib, opts, out)
}

/// Roll and write the cases of a checked library.
pub(super) fn write_cases(
    lib: &crate::content::Library,
    opts: &CaseOptions,
    out: &Output,
) -> Status {
    let missing = case::missing_requirements(lib);
    if !missing.is_empty() {
        for m in &missing {
            eprintln!("error: the case roller needs {m}, which the content lacks");
        }
        eprintln!(
            "  = help: `blockprint init DIR` writes the built-in content, which has all of them, for comparison"
        );
        return Status::Rules;
    }
    let seed = super::seed_or_fresh(opts.seed, "case packets");
    let cases = match case::roll_batch(lib, seed, opts.year, opts.first_number, opts.count) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return Status::Rules;
        }
    };
    let mut formats = opts.formats.clone();
    formats.sort();
    formats.dedup();
    let files = match packet::render(&cases, seed, &lib.version, opts.paper, &formats) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return Status::Rules;
        }
    };
    if let Err(e) = out.write_all(&files) {
        eprintln!("error: {e}");
        return Status::Io;
    }
    eprintln!(
        "wrote {} case{} ({} files) to {}",
        cases.len(),
        if cases.len() == 1 { "" } else { "s" },
        files.len(),
        out.root().join("cases").display()
    );
    Status::Ok
}
