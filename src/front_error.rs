//! The fronts' own errors, typed ([`FrontError`]): what the command line or the studio refuses before
//! it calls the application, with its data, a stable code (`cli-…`, `studio-…`) and the exit status it
//! maps to, each message worded here once. Options are named through their ids, as every crate's are
//! ([`Coded::named`]): both fronts show them as the command line's flags (the studio's pages show the
//! command line of what they run); `Display` words them without flags. The codes are listed in
//! `docs/errors.md`.

use std::fmt;
use std::path::PathBuf;

use crate::error::Coded;

/// The option ids the fronts' messages speak of, and their words for each.
pub const OPTIONS: [(&str, &str); 12] = [
    ("paper", "the paper size"),
    ("seed", "the seed"),
    ("first_number", "the first number"),
    ("count", "the number of items"),
    ("foundry_version", "the Foundry version"),
    ("to", "the export target"),
    ("excel", "the Excel option"),
    ("check_pages", "the page check"),
    ("host", "the address to listen on"),
    ("port", "the port"),
    ("campaign", "the campaign folder"),
    ("content", "the content folder"),
];

/// The fronts' words for an option id (`templates` has none of its own: "the templates folder").
fn words(id: &'static str) -> String {
    match OPTIONS.iter().find(|(i, _)| *i == id) {
        Some((_, w)) => (*w).to_owned(),
        None => format!("the {id} folder"),
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrontError {
    /// Arguments clap parsed that do not read back as the command's (clap's own message).
    Arguments { message: String },
    /// A paper given to kinds that make no PDF (`what`: "`export-csv` makes no PDF").
    PaperUnused { what: String },
    /// A batch's options (`given`, ids) given where nothing rolls.
    BatchUnused {
        what: String,
        given: Vec<&'static str>,
    },
    /// A Foundry version that is neither 12 nor 13.
    FoundryVersion { given: u8 },
    /// A Foundry version given for another target.
    FoundryVersionOnly,
    /// Excel's CSV asked of another target.
    ExcelOnly,
    /// Output that could not be written (the reason is printed above it).
    Output { what: &'static str },
    /// The page check asked of a command that typesets nothing.
    CheckPagesUnused { command: String },
    /// `make` without a kind.
    NoKindNamed,
    /// A subcommand the command line declares but does not run (a bug).
    NoCommand { name: String },
    /// A studio host that is no IP address.
    Host { given: String },
    /// A folder option (`content`, `templates`) naming no folder.
    NoFolder { option: &'static str, dir: PathBuf },
    /// The studio's address cannot be listened on.
    Listen {
        address: String,
        message: String,
        in_use: bool,
    },
    /// A campaign folder outside the folder campaigns are confined to (`why` says where it is).
    CampaignOutside { why: String },
    /// Folders the studio cannot watch.
    Watch { folders: String, message: String },
    /// The studio's content or templates that cannot be read.
    Unreadable { message: String },
    /// A kind's option the studio confines to the make's folder, given as something else than yes or no.
    YesOrNo { option: String },
    /// A file of a make's folder found outside it (a bug).
    Outside { file: PathBuf, dir: PathBuf },
    /// One of the studio's own pages that does not compile (a bug).
    Page { page: &'static str, message: String },
}

impl FrontError {
    /// Every code, in the order `docs/errors.md` lists them.
    pub const CODES: [&'static str; 19] = [
        "cli-arguments",
        "cli-paper-unused",
        "cli-batch-unused",
        "cli-foundry-version",
        "cli-foundry-version-only",
        "cli-excel-only",
        "cli-output",
        "cli-check-pages-unused",
        "cli-no-kind-named",
        "cli-no-command",
        "studio-host",
        "studio-no-folder",
        "studio-listen",
        "studio-campaign-outside",
        "studio-watch",
        "studio-unreadable",
        "studio-yes-or-no",
        "studio-outside",
        "studio-page",
    ];

    /// The message, each option called what `name` gives for its id.
    pub fn message(&self, name: &dyn Fn(&'static str) -> String) -> String {
        match self {
            FrontError::Arguments { message } => message.clone(),
            FrontError::PaperUnused { what } => {
                let p = name("paper");
                format!("{what}, so {p} has nothing to lay out\n  = help: leave {p} out")
            }
            FrontError::BatchUnused { what, given } => {
                let one = given.len() == 1;
                format!(
                    "{what}, so {} {} not apply; leave {} out",
                    given.iter().map(|id| name(id)).collect::<Vec<_>>().join(" and "),
                    if one { "does" } else { "do" },
                    if one { "it" } else { "them" },
                )
            }
            FrontError::FoundryVersion { given } => {
                format!("{} {given}: give 12 or 13", name("foundry_version"))
            }
            FrontError::FoundryVersionOnly => format!(
                "{} applies to {} foundry only; leave it out",
                name("foundry_version"),
                name("to")
            ),
            FrontError::ExcelOnly => format!(
                "{} applies to CSV only ({} csv); leave it out",
                name("excel"),
                name("to")
            ),
            FrontError::Output { what } => format!("cannot write {what}"),
            FrontError::CheckPagesUnused { command } => format!(
                "{} checks the pages a command typesets, and `blockprint {command}` typesets none; \
                 give it to make, build, campaign or serve",
                name("check_pages")
            ),
            FrontError::NoKindNamed => {
                "name the kind to make: `blockprint make KIND` (`blockprint make --list` lists them)"
                    .to_owned()
            }
            FrontError::NoCommand { name: command } => format!("`{command}` is no command"),
            FrontError::Host { given } => format!(
                "{} {given}: give an IP address to listen on (127.0.0.1, ::1, 0.0.0.0, 192.168.1.20 …)",
                name("host")
            ),
            FrontError::NoFolder { option, dir } => format!(
                "{} {}: no such folder\n  = help: give a folder that exists (`blockprint init DIR` writes the built-in content into a new one)",
                name(option),
                dir.display()
            ),
            FrontError::Listen {
                address,
                message,
                in_use,
            } => {
                let mut s = format!("cannot listen on {address}: {message}");
                if *in_use {
                    let p = name("port");
                    s.push_str(&format!(
                        " (another program uses that port: pass {p} N, or {p} 0 for any free one)"
                    ));
                }
                s
            }
            FrontError::CampaignOutside { why } => format!("{}: {why}", name("campaign")),
            FrontError::Watch { folders, message } => format!("cannot watch {folders}: {message}"),
            FrontError::Unreadable { message } => {
                format!("the content or templates cannot be read: {message}")
            }
            FrontError::YesOrNo { option } => format!(
                "the option {option} is a yes or no here: the studio writes into the make's own folder"
            ),
            FrontError::Outside { file, dir } => {
                format!("{} is outside {}", file.display(), dir.display())
            }
            FrontError::Page { page, message } => format!("the studio's page {page}: {message}"),
        }
    }
}

impl fmt::Display for FrontError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(&words))
    }
}

impl std::error::Error for FrontError {}

impl Coded for FrontError {
    fn code(&self) -> &'static str {
        match self {
            FrontError::Arguments { .. } => "cli-arguments",
            FrontError::PaperUnused { .. } => "cli-paper-unused",
            FrontError::BatchUnused { .. } => "cli-batch-unused",
            FrontError::FoundryVersion { .. } => "cli-foundry-version",
            FrontError::FoundryVersionOnly => "cli-foundry-version-only",
            FrontError::ExcelOnly => "cli-excel-only",
            FrontError::Output { .. } => "cli-output",
            FrontError::CheckPagesUnused { .. } => "cli-check-pages-unused",
            FrontError::NoKindNamed => "cli-no-kind-named",
            FrontError::NoCommand { .. } => "cli-no-command",
            FrontError::Host { .. } => "studio-host",
            FrontError::NoFolder { .. } => "studio-no-folder",
            FrontError::Listen { .. } => "studio-listen",
            FrontError::CampaignOutside { .. } => "studio-campaign-outside",
            FrontError::Watch { .. } => "studio-watch",
            FrontError::Unreadable { .. } => "studio-unreadable",
            FrontError::YesOrNo { .. } => "studio-yes-or-no",
            FrontError::Outside { .. } => "studio-outside",
            FrontError::Page { .. } => "studio-page",
        }
    }

    /// 70 for a bug, 2 for the rest (all are options or the system refusing).
    fn exit_code(&self) -> u8 {
        match self {
            FrontError::NoCommand { .. } | FrontError::Outside { .. } | FrontError::Page { .. } => {
                70
            }
            _ => 2,
        }
    }

    fn options(&self) -> Vec<&'static str> {
        match self {
            FrontError::PaperUnused { .. } => vec!["paper"],
            FrontError::BatchUnused { given, .. } => given.clone(),
            FrontError::FoundryVersion { .. } => vec!["foundry_version"],
            FrontError::FoundryVersionOnly => vec!["foundry_version", "to"],
            FrontError::ExcelOnly => vec!["excel", "to"],
            FrontError::CheckPagesUnused { .. } => vec!["check_pages"],
            FrontError::Host { .. } => vec!["host"],
            FrontError::NoFolder { option, .. } => vec![option],
            FrontError::Listen { in_use: true, .. } => vec!["port"],
            FrontError::CampaignOutside { .. } => vec!["campaign"],
            _ => Vec::new(),
        }
    }

    fn named(&self, name: &dyn Fn(&'static str) -> String) -> String {
        self.message(name)
    }
}

/// One error of each kind, in the order of [`FrontError::CODES`], for the fronts' tests (the root crate
/// has no unit tests: tests/fronts.rs checks them).
#[doc(hidden)]
pub fn one_of_each() -> Vec<FrontError> {
    let s = String::new;
    vec![
        FrontError::Arguments { message: s() },
        FrontError::PaperUnused { what: s() },
        FrontError::BatchUnused {
            what: s(),
            given: vec!["seed"],
        },
        FrontError::FoundryVersion { given: 11 },
        FrontError::FoundryVersionOnly,
        FrontError::ExcelOnly,
        FrontError::Output { what: "x" },
        FrontError::CheckPagesUnused { command: s() },
        FrontError::NoKindNamed,
        FrontError::NoCommand { name: s() },
        FrontError::Host { given: s() },
        FrontError::NoFolder {
            option: "content",
            dir: "x".into(),
        },
        FrontError::Listen {
            address: s(),
            message: s(),
            in_use: true,
        },
        FrontError::CampaignOutside { why: s() },
        FrontError::Watch {
            folders: s(),
            message: s(),
        },
        FrontError::Unreadable { message: s() },
        FrontError::YesOrNo { option: s() },
        FrontError::Outside {
            file: "x".into(),
            dir: "y".into(),
        },
        FrontError::Page {
            page: "x",
            message: s(),
        },
    ]
}
