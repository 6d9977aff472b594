//! `blockprint campaign …`: the squad's year between sessions, as [`crate::app::campaign`] runs it (the
//! locking, the replay, the refusals, the packets and the state file are there). This module reads the
//! command line, opens the project and prints what the command did on stdout; its notes, seeds and
//! "wrote …" lines go to stderr through the terminal sink.

use std::path::PathBuf;

use super::{ContentArg, FontArgs};
use crate::app::campaign::{self as session, Folder, NewOptions, Relation, Step};
use crate::error::Result;
use crate::render::Format;

#[derive(Debug, clap::Subcommand)]
pub enum CampaignCommand {
    /// Start a campaign in DIR: the squad, each detective's starting case (with its packet) and
    /// DIR/campaign.toml, the state file every other command reads and extends.
    New(NewArgs),
    /// Start the next week: the new-case check (1d6, a case on 1–2), and when a case comes in its lead
    /// (fewest open cases; ties rolled), number, date and packet.
    Week(Common),
    /// Record a case closed this week (by its lead).
    Close {
        #[command(flatten)]
        common: Common,
        /// The case number, e.g. 1976-07.
        case: String,
    },
    /// End the month: each detective's closure rate, the year-to-date average and the d100 roll for the
    /// commanding officer, with the cascade on a failure.
    Month(Common),
    /// End the year: squad and personal closure rates averaged, the d100 demotion rolls; the calendar
    /// moves on to the next year.
    Year {
        #[command(flatten)]
        common: Common,
        /// Detectives (comma-separated) who, failing the demotion roll, strain their relationship with the
        /// top brass to stay (when it is still good).
        #[arg(long, value_delimiter = ',', value_name = "NAMES")]
        top_brass: Vec<String>,
    },
    /// Record a strained relationship repaired in play (a downtime scene).
    Mend {
        #[command(flatten)]
        common: Common,
        /// The detective's name.
        detective: String,
        /// Which relationship: co (the commanding officer) or commissioner.
        #[arg(value_enum)]
        relationship: Relation,
    },
    /// Take back the last command (its rolls come out the same when it is run again).
    Undo(Common),
    /// Write the status: a caseload sheet per detective and the squad calendar, with the rates so far,
    /// into DIR/status/.
    Status {
        #[command(flatten)]
        common: Common,
        /// Which files to write, comma-separated.
        #[arg(long, value_enum, value_delimiter = ',', default_value = "pdf,md,json")]
        format: Vec<Format>,
    },
    /// Pre-roll the coming weeks' new-case checks (the same rolls `week` will make) for print, into
    /// DIR/plan/.
    Plan {
        #[command(flatten)]
        common: Common,
        /// How many weeks, from the next one on.
        #[arg(long, default_value_t = 48, value_parser = clap::value_parser!(u32).range(1..=480))]
        weeks: u32,
        /// Which files to write, comma-separated.
        #[arg(long, value_enum, value_delimiter = ',', default_value = "pdf,md")]
        format: Vec<Format>,
    },
    /// Write every case packet (and rolled detective sheet) of the campaign again.
    Packets(Common),
}

/// What every command on an existing campaign takes.
#[derive(Debug, clap::Args)]
pub struct Common {
    /// The campaign folder (holding campaign.toml).
    pub dir: PathBuf,
    #[command(flatten)]
    pub content: ContentArg,
    #[command(flatten)]
    pub fonts: FontArgs,
    /// Print no "wrote …" lines.
    #[arg(long, short)]
    pub quiet: bool,
    /// Accept a [setup] in campaign.toml that was changed after the campaign began: the whole log is
    /// replayed with it, so recorded rolls, cases and packets may all change (the command says how many).
    /// The campaign as it stood before is kept in campaign.prev.toml. Without it such a change is refused.
    #[arg(long)]
    pub rewrite_history: bool,
}

/// Run a campaign command.
pub(super) fn run(cmd: CampaignCommand, sink: &super::term::Terminal) -> Result<()> {
    let said = match cmd {
        CampaignCommand::New(a) => {
            let project = open(&a.content, &a.fonts)?;
            session::new(&project, &a.options, a.quiet, sink)?
        }
        CampaignCommand::Week(c) => step(&c, Step::Week, sink)?,
        CampaignCommand::Close { common, case } => step(&common, Step::Close { case }, sink)?,
        CampaignCommand::Month(c) => step(&c, Step::Month, sink)?,
        CampaignCommand::Year { common, top_brass } => step(
            &common,
            Step::Year {
                top_brass: top_brass
                    .into_iter()
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty())
                    .collect(),
            },
            sink,
        )?,
        CampaignCommand::Mend {
            common,
            detective,
            relationship,
        } => step(
            &common,
            Step::Mend {
                detective,
                relationship,
            },
            sink,
        )?,
        CampaignCommand::Undo(c) => session::undo(&open(&c.content, &c.fonts)?, &folder(&c), sink)?,
        CampaignCommand::Status { common, format } => {
            session::status(
                &open(&common.content, &common.fonts)?,
                &folder(&common),
                &format,
                sink,
            )?;
            Vec::new()
        }
        CampaignCommand::Plan {
            common,
            weeks,
            format,
        } => session::plan(
            &open(&common.content, &common.fonts)?,
            &folder(&common),
            weeks,
            &format,
            sink,
        )?,
        CampaignCommand::Packets(c) => {
            session::packets(&open(&c.content, &c.fonts)?, &folder(&c), sink)?;
            Vec::new()
        }
    };
    for line in said {
        outln!("{line}");
    }
    Ok(())
}

fn step(c: &Common, s: Step, sink: &super::term::Terminal) -> Result<Vec<String>> {
    session::step(&open(&c.content, &c.fonts)?, &folder(c), s, sink)
}

/// The campaign folder of a command and how it runs.
fn folder(c: &Common) -> Folder {
    Folder {
        dir: c.dir.clone(),
        quiet: c.quiet,
        rewrite_history: c.rewrite_history,
    }
}

/// The project of the content, templates and fonts (the campaign reads what the case and detective kinds
/// need).
fn open(content: &ContentArg, fonts: &FontArgs) -> Result<crate::project::Project> {
    let fonts = fonts.load()?;
    Ok(
        crate::project::Project::open(content.content.as_deref(), content.templates.as_deref())?
            .with_fonts(fonts),
    )
}

/// What `campaign new` takes: its options (defined with the campaign, so the studio's form reads the same
/// definition), the content and quiet.
#[derive(Debug, clap::Args)]
pub struct NewArgs {
    #[command(flatten)]
    pub options: NewOptions,
    #[command(flatten)]
    pub content: ContentArg,
    #[command(flatten)]
    pub fonts: FontArgs,
    /// Print no "wrote …" lines.
    #[arg(long, short)]
    pub quiet: bool,
}
