//! The application's errors, typed ([`AppError`]): what a use case refuses, with its data, a stable code
//! (`app-…`) and the exit status it maps to. Every message is worded here, once ([`AppError::message`]).
//! A message that speaks of an option names it through a function of its id: the application's own
//! words by default ("the first number", `Display`), a front's names when the front asks (the command
//! line's flags, `--first-number`, through [`Coded::named`]). The codes are listed in `docs/errors.md`.

use std::fmt;
use std::path::PathBuf;

use blockprint_content::error::Coded;
use blockprint_kind::Format;
use blockprint_kinds::campaign::{ReplayError, StepProblem};

/// The option ids the application's messages and notes speak of, and its words for each.
pub const OPTIONS: [(&str, &str); 9] = [
    ("first_number", "the first number"),
    ("count", "the number of items"),
    ("paper", "the paper size"),
    ("packets", "the case packets' formats"),
    ("detectives", "the detectives"),
    ("roll", "the detectives to roll"),
    ("seed", "the seed"),
    ("rewrite_history", "rewriting the history"),
    ("into", "the content folder to import into"),
];

/// The application's words for an option id.
fn words(id: &'static str) -> String {
    OPTIONS
        .iter()
        .find(|(i, _)| *i == id)
        .map_or(id, |(_, w)| w)
        .to_owned()
}

#[derive(Debug, Clone, PartialEq)]
pub enum AppError {
    /// A kind name the registry does not have.
    NoKind { name: String, kinds: Vec<String> },
    /// A kind the content offers nothing to make.
    NothingToMake { kind: String },
    /// A batch whose numbers would run past the highest number an item can carry.
    PastHighestNumber {
        first: u32,
        count: u32,
        last: u64,
        max: u32,
    },
    /// A paper the kind does not print on.
    Paper {
        kind: String,
        papers: Vec<&'static str>,
        given: &'static str,
    },
    /// Formats the kind does not make.
    Formats {
        kind: String,
        makes: Vec<Format>,
        not: Vec<Format>,
    },
    /// A campaign packet format that is none of pdf, md, json or none.
    Packets { given: String },
    /// A list of detectives with an empty name.
    EmptyName { list: String },
    /// A least-wanted assignment that is no row of the assignment table.
    Assignment {
        member: String,
        given: String,
        table: String,
        /// "did you mean `…`?", when a row is near.
        hint: Option<String>,
        rows: Vec<String>,
    },
    /// A folder that holds a campaign already.
    HoldsCampaign { dir: PathBuf },
    /// A folder that holds another campaign's files but no state file.
    ForeignFiles {
        dir: PathBuf,
        state_file: &'static str,
        found: Vec<String>,
        /// The command that puts the previous state back, when there is one.
        restore: Option<String>,
    },
    /// `undo` with no command since `campaign new`.
    NothingToUndo { dir: PathBuf },
    /// A campaign whose history cannot be worked out again with its changed setup (`what` changed,
    /// `why` the log does not replay with it).
    RewriteHistory { what: String, why: ReplayError },
    /// A campaign log that replayed when it was loaded and no longer does (a bug).
    Replay { problem: StepProblem },
    /// A campaign state file that cannot be used (its one-line summary; the located report went to
    /// the sink before).
    CampaignState { summary: String },
    /// `import` with no file.
    ImportNoFiles,
    /// Import sources that hold no table.
    ImportNoTable {
        files: Vec<String>,
        format: &'static str,
    },
    /// An import source (or one of its tables) that cannot be read as its format says.
    ImportRefused {
        source: String,
        table: Option<String>,
        why: String,
        fix: String,
    },
    /// An imported table whose id or file the content folder has already.
    ImportTaken {
        source: String,
        table: String,
        /// What is there already.
        taken: String,
        /// The other way out: "rename or remove that table first".
        or: &'static str,
    },
    /// An imported table that would not pass the checker.
    ImportTable {
        source: String,
        table: String,
        problem: String,
        /// How many more problems the imported tables have.
        more: usize,
        hint: Option<String>,
    },
}

impl AppError {
    /// Every code, in the order `docs/errors.md` lists them.
    pub const CODES: [&'static str; 19] = [
        "app-no-kind",
        "app-nothing-to-make",
        "app-past-highest-number",
        "app-paper",
        "app-formats",
        "app-packets",
        "app-empty-name",
        "app-assignment",
        "app-holds-campaign",
        "app-foreign-files",
        "app-nothing-to-undo",
        "app-rewrite-history",
        "app-replay",
        "app-campaign-state",
        "app-import-no-files",
        "app-import-no-table",
        "app-import-refused",
        "app-import-taken",
        "app-import-table",
    ];

    /// The message, each option called what `name` gives for its id.
    pub fn message(&self, name: &dyn Fn(&'static str) -> String) -> String {
        match self {
            AppError::NoKind { name: kind, kinds } => format!(
                "there is no document kind `{kind}`; the kinds are: {}",
                kinds.join(", ")
            ),
            AppError::NothingToMake { kind } => {
                format!("the content offers nothing for `{kind}` to make")
            }
            AppError::PastHighestNumber {
                first,
                count,
                last,
                max,
            } => {
                let (n, c) = (name("first_number"), name("count"));
                format!(
                    "{n} {first} with {c} {count} would number items up to {last}, past {max}, the highest number \
                     {n} takes (each item prints `{n} N` to make it again)\n  = help: lower {n} to {} or less, or {c}",
                    u64::from(*max) + 1 - u64::from((*count).max(1)),
                )
            }
            AppError::Paper {
                kind,
                papers,
                given,
            } => format!(
                "`{kind}` prints on {}, not {given} ({})",
                papers.join(" or "),
                name("paper")
            ),
            AppError::Formats { kind, makes, not } => format!(
                "`{kind}` makes {}, not {}",
                crate::project::format_list(makes),
                crate::project::format_list(not)
            ),
            AppError::Packets { given } => format!(
                "{} takes pdf, md, json or none, not `{given}`",
                name("packets")
            ),
            AppError::EmptyName { list } => format!(
                "{} has an empty name in `{list}`; separate names with single commas",
                name("detectives")
            ),
            AppError::Assignment {
                member,
                given,
                table,
                hint,
                rows,
            } => format!(
                "`{member}`'s least-wanted assignment `{given}` is not one of {table}\n  = help: {}The assignments are: {}",
                hint.as_ref().map(|h| format!("{h} ")).unwrap_or_default(),
                rows.join("; ")
            ),
            AppError::HoldsCampaign { dir } => format!(
                "{} already holds a campaign; carry on with `blockprint campaign week {}`, or choose another folder to start a new one",
                dir.display(),
                dir.display()
            ),
            AppError::ForeignFiles {
                dir,
                state_file,
                found,
                restore,
            } => format!(
                "{} holds another campaign's files but no {state_file}:\n{}\nA new campaign here would overwrite them. {}To start a new campaign, choose another folder (a new or empty one).",
                dir.display(),
                found
                    .iter()
                    .map(|f| format!("  - {f}"))
                    .collect::<Vec<_>>()
                    .join("\n"),
                restore
                    .as_ref()
                    .map(|r| format!(
                        "To go on with that campaign, put its previous state back:\n    {r}\n"
                    ))
                    .unwrap_or_default()
            ),
            AppError::NothingToUndo { dir } => format!(
                "there is nothing to undo: no command has been run since `campaign new`; to start again, begin a new campaign in another folder (`blockprint campaign new` refuses {}, which holds this one)",
                dir.display()
            ),
            AppError::RewriteHistory { what, why } => {
                // The options the campaign's problem speaks of by a front's names, when it has
                // its own; else in the campaign's words.
                let why = if why.problem.options().iter().all(|id| name(id) == words(id)) {
                    why.to_string()
                } else {
                    why.named(name)
                };
                format!(
                    "cannot rewrite the history with the changed setup ({what}): {why}; nothing was written"
                )
            }
            AppError::Replay { problem } => {
                format!("a log that replayed no longer does: {problem}")
            }
            AppError::CampaignState { summary } => summary.clone(),
            AppError::ImportNoFiles => "name at least one file to import".to_owned(),
            AppError::ImportNoTable { files, format } => format!(
                "{}: no table to import\n  = help: name the {format} files (or, for Foundry, a folder of them) that hold the tables",
                files.join(", ")
            ),
            AppError::ImportRefused {
                source,
                table,
                why,
                fix,
            } => match table {
                Some(t) => format!("{source}: table `{t}`: {why}\n  = help: {fix}"),
                None => format!("{source}: {why}\n  = help: {fix}"),
            },
            AppError::ImportTaken {
                source,
                table,
                taken,
                or,
            } => {
                // The folder option by a front's name, when it has one of its own.
                let into = name("into");
                let named = if into == words("into") {
                    String::new()
                } else {
                    format!(" (`{into}`)")
                };
                format!(
                    "{source}: table `{table}`: {taken}\n  = help: import into another content folder{named}, or {or}"
                )
            }
            AppError::ImportTable {
                source,
                table,
                problem,
                more,
                hint,
            } => {
                let mut msg = format!("{source}: table `{table}` cannot be imported: {problem}");
                if *more > 0 {
                    msg.push_str(&format!(
                        " (and {more} more problem(s) in the imported tables)"
                    ));
                }
                msg.push_str(&format!(
                    "\n  = help: {}; fix the table in its source and import again (nothing was written)",
                    hint.as_deref().unwrap_or(
                        "the ranges must cover every total of the dice exactly once"
                    )
                ));
                msg
            }
        }
    }
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(&words))
    }
}

impl std::error::Error for AppError {}

impl Coded for AppError {
    fn code(&self) -> &'static str {
        match self {
            AppError::NoKind { .. } => "app-no-kind",
            AppError::NothingToMake { .. } => "app-nothing-to-make",
            AppError::PastHighestNumber { .. } => "app-past-highest-number",
            AppError::Paper { .. } => "app-paper",
            AppError::Formats { .. } => "app-formats",
            AppError::Packets { .. } => "app-packets",
            AppError::EmptyName { .. } => "app-empty-name",
            AppError::Assignment { .. } => "app-assignment",
            AppError::HoldsCampaign { .. } => "app-holds-campaign",
            AppError::ForeignFiles { .. } => "app-foreign-files",
            AppError::NothingToUndo { .. } => "app-nothing-to-undo",
            AppError::RewriteHistory { .. } => "app-rewrite-history",
            AppError::Replay { .. } => "app-replay",
            AppError::CampaignState { .. } => "app-campaign-state",
            AppError::ImportNoFiles => "app-import-no-files",
            AppError::ImportNoTable { .. } => "app-import-no-table",
            AppError::ImportRefused { .. } => "app-import-refused",
            AppError::ImportTaken { .. } => "app-import-taken",
            AppError::ImportTable { .. } => "app-import-table",
        }
    }

    /// 1 when the content (or an imported source) is at fault, 70 for a bug, 2 for the rest.
    fn exit_code(&self) -> u8 {
        match self {
            AppError::NothingToMake { .. }
            | AppError::RewriteHistory { .. }
            | AppError::CampaignState { .. }
            | AppError::ImportNoTable { .. }
            | AppError::ImportRefused { .. }
            | AppError::ImportTaken { .. }
            | AppError::ImportTable { .. } => 1,
            AppError::Replay { .. } => 70,
            _ => 2,
        }
    }

    fn options(&self) -> Vec<&'static str> {
        match self {
            AppError::PastHighestNumber { .. } => vec!["first_number", "count"],
            AppError::Paper { .. } => vec!["paper"],
            AppError::Packets { .. } => vec!["packets"],
            AppError::EmptyName { .. } => vec!["detectives"],
            AppError::ImportTaken { .. } => vec!["into"],
            AppError::RewriteHistory { why, .. } => why.problem.options(),
            _ => Vec::new(),
        }
    }

    fn named(&self, name: &dyn Fn(&'static str) -> String) -> String {
        self.message(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_of_each() -> Vec<AppError> {
        let s = String::new;
        vec![
            AppError::NoKind {
                name: s(),
                kinds: vec![],
            },
            AppError::NothingToMake { kind: s() },
            AppError::PastHighestNumber {
                first: 99998,
                count: 3,
                last: 100_000,
                max: 99999,
            },
            AppError::Paper {
                kind: "case".into(),
                papers: vec!["a4", "letter"],
                given: "a5",
            },
            AppError::Formats {
                kind: s(),
                makes: vec![Format::Pdf],
                not: vec![Format::Csv],
            },
            AppError::Packets { given: s() },
            AppError::EmptyName { list: s() },
            AppError::Assignment {
                member: s(),
                given: s(),
                table: s(),
                hint: None,
                rows: vec![],
            },
            AppError::HoldsCampaign { dir: "x".into() },
            AppError::ForeignFiles {
                dir: "x".into(),
                state_file: "campaign.toml",
                found: vec![],
                restore: None,
            },
            AppError::NothingToUndo { dir: "x".into() },
            AppError::RewriteHistory {
                what: s(),
                why: ReplayError {
                    command: None,
                    problem: StepProblem::EmptySquad,
                },
            },
            AppError::Replay {
                problem: StepProblem::SquadGone,
            },
            AppError::CampaignState { summary: s() },
            AppError::ImportNoFiles,
            AppError::ImportNoTable {
                files: vec![],
                format: "CSV",
            },
            AppError::ImportRefused {
                source: s(),
                table: None,
                why: s(),
                fix: s(),
            },
            AppError::ImportTaken {
                source: s(),
                table: s(),
                taken: s(),
                or: "move that file away first",
            },
            AppError::ImportTable {
                source: s(),
                table: s(),
                problem: s(),
                more: 0,
                hint: None,
            },
        ]
    }

    #[test]
    fn every_error_has_its_listed_code_and_names_options_only_through_the_front() {
        let codes: Vec<&str> = one_of_each().iter().map(Coded::code).collect();
        assert_eq!(codes, AppError::CODES);
        for e in one_of_each() {
            assert!(!e.to_string().contains("--"), "{}: {e}", e.code());
            for id in e.options() {
                assert!(OPTIONS.iter().any(|(i, _)| *i == id), "{id}");
            }
        }
    }

    #[test]
    fn a_taken_table_names_the_folder_option_only_where_a_front_names_it() {
        let e = AppError::ImportTaken {
            source: "t.csv".into(),
            table: "t".into(),
            taken: "content/t.toml already exists".into(),
            or: "move that file away first",
        };
        let head = "t.csv: table `t`: content/t.toml already exists\n  = help: import into another content folder";
        assert_eq!(
            e.to_string(),
            format!("{head}, or move that file away first")
        );
        assert_eq!(
            e.named(&|id| format!("--{id}")),
            format!("{head} (`--into`), or move that file away first")
        );
    }

    #[test]
    fn a_history_that_cannot_be_rewritten_names_the_campaign_options_only_where_a_front_does() {
        let e = AppError::RewriteHistory {
            what: "seed 1 → 2".into(),
            why: ReplayError {
                command: None,
                problem: StepProblem::EmptySquad,
            },
        };
        let head = "cannot rewrite the history with the changed setup (seed 1 → 2): this setup cannot \
                    start a campaign: the squad is empty: name its detectives";
        assert_eq!(
            e.to_string(),
            format!("{head} or roll some; nothing was written")
        );
        let flag = |id: &str| format!("--{}", id.replace('_', "-"));
        assert_eq!(
            e.named(&flag),
            format!("{head} (--detectives \"A,B\") or roll some (--roll N); nothing was written")
        );
        assert_eq!(
            (e.code(), e.exit_code(), e.options()),
            ("app-rewrite-history", 1, vec!["detectives", "roll"])
        );
    }

    #[test]
    fn the_application_words_an_option_and_the_command_line_flags_it() {
        let e = AppError::PastHighestNumber {
            first: 99998,
            count: 3,
            last: 100_000,
            max: 99999,
        };
        let flag = |id: &str| format!("--{}", id.replace('_', "-"));
        assert_eq!(
            e.named(&flag),
            "--first-number 99998 with --count 3 would number items up to 100000, past 99999, the highest number \
             --first-number takes (each item prints `--first-number N` to make it again)\n  = help: lower --first-number \
             to 99997 or less, or --count"
        );
        assert!(
            e.to_string()
                .starts_with("the first number 99998 with the number of items 3 would number")
        );
        assert_eq!((e.code(), e.exit_code()), ("app-past-highest-number", 2));
    }
}
