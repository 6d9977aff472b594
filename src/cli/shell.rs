//! `blockprint completions SHELL` and `blockprint manpage`: files for the shell, generated from the same
//! clap definition the parser uses (so a new command or flag is in them as soon as it exists).

use std::path::Path;

use clap::Command;

use super::Status;

/// The name completions are registered for and manual pages are titled with.
const BIN: &str = "blockprint";

/// Print the completion script for `shell` on stdout. `make KIND` completes the registry's kinds.
pub(super) fn completions(shell: clap_complete::Shell) -> Status {
    // clap's `Str` takes `&'static str` (without its `string` feature); the names live until the
    // process ends a moment later.
    let kinds: Vec<&'static str> = super::help::kind_names()
        .into_iter()
        .map(|n| &*Box::leak(n.into_boxed_str()))
        .collect();
    let mut cmd = super::help::command().mut_subcommands(|c| {
        if c.get_name() != "make" {
            return c;
        }
        c.mut_args(|a| {
            if a.get_id() == "kind" {
                a.value_parser(clap::builder::PossibleValuesParser::new(
                    kinds.iter().copied(),
                ))
            } else {
                a
            }
        })
    });
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, BIN, &mut script);
    match String::from_utf8(script) {
        Ok(s) => {
            outp!("{s}");
            Status::Ok
        }
        Err(e) => {
            eprintln!("error: the {shell} completion script is not UTF-8: {e}");
            Status::Io
        }
    }
}

/// Print `blockprint.1` on stdout, or write one page per command and subcommand into `dir`
/// (`blockprint.1`, `blockprint-check.1`, `blockprint-campaign-new.1` …), each naming the pages of its
/// subcommands under SUBCOMMANDS.
pub(super) fn manpage(dir: Option<&Path>, quiet: bool) -> Status {
    let cmd = for_man(super::help::command());
    let Some(dir) = dir else {
        let mut page = Vec::new();
        if let Err(e) = clap_mangen::Man::new(cmd).render(&mut page) {
            eprintln!("error: cannot render the manual page: {e}");
            return Status::Io;
        }
        outp!("{}", ascii_roff(&page));
        return Status::Ok;
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        eprintln!("error: {}: {e}", dir.display());
        return Status::Io;
    }
    let mut written = Vec::new();
    if let Err(e) = write_pages(cmd, dir, &mut written) {
        eprintln!("error: {}: {e}", dir.display());
        return Status::Io;
    }
    if !quiet {
        eprintln!(
            "wrote {} manual pages into {} (blockprint.1 and one per command; read one with `man -l {}`)",
            written.len(),
            dir.display(),
            dir.join("blockprint.1").display()
        );
    }
    Status::Ok
}

/// The command as a manual page shows it: clap_mangen lists the subcommands itself, so the top-level
/// help's grouped list (its "after help") is left out, and `help` has no page.
fn for_man(cmd: Command) -> Command {
    let mut cmd = cmd.after_help(None::<&str>).disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// One page for `cmd` and, below it, for every visible subcommand: `blockprint-campaign-new.1`.
fn write_pages(cmd: Command, dir: &Path, written: &mut Vec<String>) -> std::io::Result<()> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_pages(sub.clone(), dir, written)?;
    }
    let man = clap_mangen::Man::new(cmd);
    let name = man.get_filename();
    let mut page = Vec::new();
    man.render(&mut page)?;
    std::fs::write(dir.join(&name), ascii_roff(&page))?;
    written.push(name);
    Ok(())
}

/// A page in ASCII: every other character (the help's `…`, `–`, `×`) written as roff's `\[uXXXX]`, so
/// any troff reads it, whatever encoding it assumes (groff without `preconv` takes bytes as Latin-1).
fn ascii_roff(page: &[u8]) -> String {
    let mut out = String::with_capacity(page.len());
    for c in String::from_utf8_lossy(page).chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&format!("\\[u{:04X}]", u32::from(c)));
        }
    }
    out
}
