//! The command line as clap sees it: the derived [`Cli`](super::Cli) plus what only the run knows. The
//! top-level help lists the commands grouped by purpose (clap lists subcommands in one block, so the
//! groups are written here, as cargo writes its own), and the help of `build` and `make` lists the
//! document kinds of the registry, the built-in ones and those a `--templates DIR` on the same command
//! line adds. The completion scripts and manual pages are generated from this same command.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::StyledStr;
use clap::{Command, CommandFactory};

use crate::generators::Registry;
use crate::render::Templates;

/// The commands of `blockprint --help` by purpose, in the order shown. Every subcommand is in exactly
/// one group (a test compares this with the commands clap knows); one missing here would still be
/// shown, under "Other commands".
pub const GROUPS: &[(&str, &[&str])] = &[
    (
        "Make files",
        &[
            "build",
            "make",
            "case",
            "srd",
            "detective",
            "npc",
            "sheet",
            "deck",
            "cards",
            "kit",
            "export",
        ],
    ),
    (
        "Look things up",
        &["tables", "odds", "chase", "roll", "draw", "verify-odds"],
    ),
    ("Studio", &["serve"]),
    ("Content", &["check", "init", "import"]),
    ("Campaign", &["campaign"]),
    ("Shell", &["completions", "manpage"]),
];

/// The whole command line for a run with these arguments (the program's name first): the registry's
/// kinds come from the built-in templates and a `--templates DIR` among `args`, if it can be read (if
/// not, the command itself reports why when it runs).
pub fn command_for(args: &[OsString]) -> Command {
    super::numbers::harden(with_registry(super::Cli::command(), &registry(args)))
}

/// [`command_for`] with the built-in kinds only: what completion scripts and manual pages describe.
pub fn command() -> Command {
    command_for(&[])
}

/// The names of the built-in kinds, in registration order (what `make KIND` completes).
pub fn kind_names() -> Vec<String> {
    registry(&[]).kinds().map(|k| k.name().to_owned()).collect()
}

/// The kinds a run with `args` knows: built in, plus those of its `--templates DIR` when it reads.
fn registry(args: &[OsString]) -> Registry {
    let mut templates = Templates::builtin();
    if let Some(dir) = templates_arg(args)
        && let Ok(t) = templates.clone().overlay(&dir)
    {
        templates = t;
    }
    Registry::new(&templates).unwrap_or_else(|_| Registry::empty())
}

/// `cmd` with the groups of the top-level help and the registry's kinds in `build` and `make` help.
/// (`mut_subcommands` rather than `mut_subcommand`, which would move the command to the end of the
/// list and panic if it were renamed.)
fn with_registry(cmd: Command, registry: &Registry) -> Command {
    let cmd = super::chase::with_system_help(super::make::add_commands(cmd, registry));
    let kinds = kind_list(registry);
    let cmd = cmd.mut_subcommands(|c| {
        let lead = match c.get_name() {
            "build" => {
                "Every kind below whose content is present, each in all its formats, into its folder \
                 under --out (a kind with nothing to make, or not printed on the --paper given, is skipped \
                 with a note):"
            }
            "make" => "KIND is one of these (formats; folder under --out):",
            _ => return c,
        };
        let text = section(&c, "Kinds", lead, &kinds);
        c.after_help(text)
    });
    let groups = grouped_commands(&cmd);
    let template = root_template(&cmd);
    cmd.help_template(template).after_help(groups)
}

/// `(name, what it makes)` of every kind, in registration order.
fn kind_list(registry: &Registry) -> Vec<(String, String)> {
    registry
        .kinds()
        .map(|k| {
            (
                k.name().to_owned(),
                format!(
                    "{} ({}; {}/)",
                    k.about(),
                    crate::project::format_list(k.formats()),
                    k.folder()
                ),
            )
        })
        .collect()
}

/// A help section: a heading, a sentence, then one aligned line per `(name, text)`.
fn section(cmd: &Command, heading: &str, lead: &str, rows: &[(String, String)]) -> StyledStr {
    let styles = cmd.get_styles();
    let (h, l) = (styles.get_header(), styles.get_literal());
    let width = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut s = format!("{h}{heading}:{h:#}\n  {lead}\n");
    for (name, text) in rows {
        s.push_str(&format!(
            "  {l}{name}{l:#}{:pad$}  {text}\n",
            "",
            pad = width - name.len()
        ));
    }
    StyledStr::from(s)
}

/// The top level: usage, the command groups (the "after help", placed before the options as clap
/// places its one command list), the options, and where a command's own help is.
fn root_template(cmd: &Command) -> StyledStr {
    let styles = cmd.get_styles();
    let (h, l) = (styles.get_header(), styles.get_literal());
    StyledStr::from(format!(
        "{{before-help}}{{about-with-newline}}\n{{usage-heading}} {{usage}}{{after-help}}\n\n\
         {h}Options:{h:#}\n{{options}}\n\n\
         `{l}blockprint help{l:#} COMMAND` or `{l}blockprint{l:#} COMMAND {l}--help{l:#}` shows a command's options.\n"
    ))
}

/// The top-level command list, one block per purpose.
fn grouped_commands(cmd: &Command) -> StyledStr {
    let styles = cmd.get_styles();
    let (h, l) = (styles.get_header(), styles.get_literal());
    let subs: Vec<&Command> = cmd
        .get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help")
        .collect();
    let width = subs.iter().map(|c| c.get_name().len()).max().unwrap_or(0);
    let line = |c: &Command| {
        let about = c.get_about().map(|a| a.to_string()).unwrap_or_default();
        let name = c.get_name();
        format!(
            "  {l}{name}{l:#}{:pad$}  {about}",
            "",
            pad = width - name.len()
        )
    };
    let mut blocks: Vec<String> = Vec::new();
    for (heading, names) in GROUPS {
        let rows: Vec<String> = names
            .iter()
            .filter_map(|n| subs.iter().find(|c| c.get_name() == *n))
            .map(|c| line(c))
            .collect();
        if !rows.is_empty() {
            blocks.push(format!("{h}{heading}:{h:#}\n{}", rows.join("\n")));
        }
    }
    let others: Vec<String> = subs
        .iter()
        .filter(|c| {
            !GROUPS
                .iter()
                .any(|(_, names)| names.contains(&c.get_name()))
        })
        .map(|c| line(c))
        .collect();
    if !others.is_empty() {
        blocks.push(format!("{h}Other commands:{h:#}\n{}", others.join("\n")));
    }
    StyledStr::from(blocks.join("\n\n"))
}

/// The folder of a `--templates DIR` (or `--templates=DIR`) before any `--`.
fn templates_arg(args: &[OsString]) -> Option<PathBuf> {
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        let s = a.to_string_lossy();
        if s == "--" {
            return None;
        }
        if s == "--templates" {
            return it.next().map(PathBuf::from);
        }
        if let Some(v) = s.strip_prefix("--templates=") {
            return Some(PathBuf::from(v));
        }
    }
    None
}
