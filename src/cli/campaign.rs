//! `blockprint campaign …`: the squad's year between sessions ([`crate::campaign`]). Every command loads
//! `DIR/campaign.toml`, replays its log with the new command at the end (a command that does not fit where
//! the campaign stands is a usage error naming what to run instead), writes the case packets through the
//! driver, and only then replaces the state file (the old one is kept as `campaign.prev.toml`).
//!
//! A command holds the campaign folder's lock (`DIR/.blockprint.lock`) from before it reads the state until
//! it has written it, so two commands run at once on one campaign both land, one after the other: the
//! second waits (and says so after a moment) rather than being refused, since two players' scripts or two
//! terminals should both get their command recorded, and each command takes a second or less. A `[setup]`
//! changed after the campaign began is refused, naming the change, unless `--rewrite-history` is given.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::ContentArg;
use crate::campaign::kind::{CampaignCases, PlanKind, StatusKind};
use crate::campaign::{self, Campaign, Member, Relation, STATE_FILE, Setup, Step, file};
use crate::error::{Error, Result};
use crate::generators::detective::DetectiveKind;
use crate::generators::{Checked, Kind, Request};
use crate::render::output::{FolderLock, LOCK_FILE, lock_folder};
use crate::render::{Engine, Format, Paper, driver, manifest};

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
pub(super) fn run(cmd: CampaignCommand) -> Result<()> {
    match cmd {
        CampaignCommand::New(a) => new(None, &a, &mut Terminal),
        CampaignCommand::Week(c) => step(None, &c, Step::Week, &mut Terminal),
        CampaignCommand::Close { common, case } => {
            step(None, &common, Step::Close { case }, &mut Terminal)
        }
        CampaignCommand::Month(c) => step(None, &c, Step::Month, &mut Terminal),
        CampaignCommand::Year { common, top_brass } => step(
            None,
            &common,
            Step::Year {
                top_brass: top_brass
                    .into_iter()
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty())
                    .collect(),
            },
            &mut Terminal,
        ),
        CampaignCommand::Mend {
            common,
            detective,
            relationship,
        } => step(
            None,
            &common,
            Step::Mend {
                detective,
                relationship,
            },
            &mut Terminal,
        ),
        CampaignCommand::Undo(c) => undo(None, &c, &mut Terminal),
        CampaignCommand::Status { common, format } => status(&common, &format),
        CampaignCommand::Plan {
            common,
            weeks,
            format,
        } => plan(&common, weeks, &format),
        CampaignCommand::Packets(c) => {
            let _lock = lock(&c.dir)?;
            let project = context(&c.content)?;
            let cx = project.checked_names(&["case", "detective"])?;
            let loaded = load(&c, cx, &mut Terminal)?;
            let engine = project.engine()?;
            if settle(engine, cx, &c, &loaded)? {
                return Ok(());
            }
            sheets(engine, cx, &loaded.camp, c.quiet, false, &mut Terminal)?;
            packets(engine, cx, &loaded.camp, c.quiet)
        }
    }
}

/// Where a command's messages go: the terminal (the command line), or a list the studio shows in its
/// Campaign page. Either way they are the same lines.
pub(crate) trait Say {
    /// A line of what the command did (stdout on the terminal).
    fn out(&mut self, line: String);
    /// A diagnostic or a note, newline included (stderr on the terminal).
    fn err(&mut self, text: String);
    /// Whether this is the terminal, where the driver prints its own progress and "wrote …" lines.
    fn terminal(&self) -> bool {
        false
    }
}

/// The command line's [`Say`]: stdout and stderr.
struct Terminal;

impl Say for Terminal {
    fn out(&mut self, line: String) {
        outln!("{line}");
    }
    fn err(&mut self, text: String) {
        eprint!("{text}");
    }
    fn terminal(&self) -> bool {
        true
    }
}

/// Run the driver for the campaign. On the terminal it prints as it always does (its progress bar, its
/// "wrote …" line); for another [`Say`] it runs quietly and the "wrote …" line goes there instead.
fn drive(
    kind: &dyn Kind,
    cx: &Checked,
    req: &Request,
    engine: &Engine,
    opts: &driver::Options,
    say: &mut dyn Say,
) -> Result<driver::Report> {
    if say.terminal() {
        return driver::run(kind, cx, req, engine, opts, &super::term::Terminal);
    }
    let quiet = driver::Options {
        quiet: true,
        ..opts.clone()
    };
    let report = driver::run(kind, cx, req, engine, &quiet, &super::term::Terminal)?;
    if !opts.quiet {
        say.err(format!("{}\n", report.wrote(kind.name())));
    }
    Ok(report)
}

/// Hold the campaign folder's lock for the rest of the command (see the module's note). A folder without
/// a state file is not locked: the command is refused without writing anything there.
fn lock(dir: &Path) -> Result<Option<FolderLock>> {
    if !dir.join(STATE_FILE).is_file() {
        return Ok(None);
    }
    lock_folder(dir, &super::term::Terminal)
        .map(Some)
        .map_err(|e| Error::io(dir.join(LOCK_FILE), e))
}

/// The project of the content and templates (the campaign reads what the case and detective kinds need).
fn context(content: &ContentArg) -> Result<crate::project::Project> {
    crate::project::Project::open(content.content.as_deref(), content.templates.as_deref())
}

/// A loaded campaign, and when `--rewrite-history` accepted a changed setup, what the rewrite needs.
struct Loaded {
    camp: Campaign,
    rewrite: Option<Rewrite>,
}

/// A history rewritten with a changed setup.
struct Rewrite {
    /// The campaign as it stood before the change (kept as `campaign.prev.toml`).
    previous: String,
    /// Its derived state, when its log replayed with the recorded setup (the packets written from it).
    before: Option<campaign::Derived>,
}

impl Loaded {
    /// The state the packets on disk were written from, if known.
    fn on_disk(&self) -> Option<&campaign::Derived> {
        match &self.rewrite {
            Some(r) => r.before.as_ref(),
            None => Some(&self.camp.derived),
        }
    }
    fn previous(&self) -> Option<&str> {
        self.rewrite.as_ref().map(|r| r.previous.as_str())
    }
}

/// Load and replay the campaign; an invalid state file is reported at its place (exit 1), and so is a
/// setup changed after the campaign began, unless `--rewrite-history` accepts it.
fn load(c: &Common, cx: &Checked, say: &mut dyn Say) -> Result<Loaded> {
    let change = match file::load(&c.dir, &cx.lib) {
        Ok(camp) => {
            if c.rewrite_history {
                say.err(
                    "--rewrite-history: the setup is the one the campaign was recorded with; there is nothing to rewrite\n"
                        .into(),
                );
            }
            return Ok(Loaded {
                camp,
                rewrite: None,
            });
        }
        Err(file::LoadError::Io(e)) => return Err(e),
        Err(file::LoadError::State(s)) => {
            say.err(s.rendered);
            return Err(Error::Rules(s.summary));
        }
        Err(file::LoadError::SetupChanged(change)) => change,
    };
    if !c.rewrite_history {
        say.err(change.error.rendered);
        return Err(Error::Rules(change.error.summary));
    }
    let derived = change.after.clone().map_err(|e| {
        Error::Rules(format!(
            "cannot rewrite the history with the changed setup ({}): {e}; nothing was written",
            change.what()
        ))
    })?;
    let state = c.dir.join(STATE_FILE);
    // The campaign as it stood before the change: worked out again from the recorded setup and the log
    // when both are known, else the file as it is.
    let previous = match (&change.recorded, &change.before) {
        (Some(recorded), Some(before)) => file::render(&cx.lib, recorded, &change.steps, before)?,
        _ => std::fs::read_to_string(&state).map_err(|e| Error::io(&state, e))?,
    };
    say.err(format!(
        "rewriting the history with the changed setup: {}: {}; the campaign as it stood before is kept in {}\n",
        change.what(),
        change.consequences(false),
        c.dir.join(campaign::PREVIOUS_FILE).display()
    ));
    let change = *change;
    Ok(Loaded {
        camp: Campaign {
            dir: c.dir.clone(),
            setup: change.setup,
            steps: change.steps,
            derived,
        },
        rewrite: Some(Rewrite {
            previous,
            before: change.before,
        }),
    })
}

/// For a command that writes no state of its own (`status`, `plan`, `packets`): when the history is being
/// rewritten, write the sheets and packets again and save the rewritten state. Returns whether it did
/// (so `packets` has nothing left to do).
fn settle(engine: &Engine, cx: &Checked, c: &Common, loaded: &Loaded) -> Result<bool> {
    if loaded.rewrite.is_none() {
        return Ok(false);
    }
    let camp = &loaded.camp;
    forget_changed(&c.dir, loaded.on_disk(), &camp.derived);
    sheets(engine, cx, camp, c.quiet, true, &mut Terminal)?;
    packets(engine, cx, camp, c.quiet)?;
    let text = file::render(&cx.lib, &camp.setup, &camp.steps, &camp.derived)?;
    file::save_keeping(&c.dir, &text, loaded.previous())?;
    Ok(true)
}

/// What `campaign new` takes (its options as the command line reads them).
#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// The campaign folder (created if needed; must not hold a campaign yet).
    pub dir: PathBuf,
    /// The year the campaign starts in (case numbers YYYY-NN).
    #[arg(long, default_value_t = 1976, value_parser = clap::value_parser!(i32).range(1900..=2100))]
    pub year: i32,
    /// Campaign seed: every roll of the campaign comes from it. A random one is chosen and printed when
    /// left out.
    #[arg(long, value_parser = super::seed_parser())]
    pub seed: Option<u64>,
    /// The squad by name, comma-separated; `Name=assignment` gives a detective's least-wanted
    /// assignment (otherwise it is rolled on the content's table and logged).
    #[arg(
        long,
        value_name = "NAMES",
        required_unless_present = "roll",
        conflicts_with = "roll"
    )]
    pub detectives: Option<String>,
    /// Roll N detectives with the detective generator instead (their sheets go to DIR/detectives/).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=campaign::MAX_SQUAD as i64))]
    pub roll: Option<u32>,
    /// Paper size of the packets, sheets and status.
    #[arg(long, value_enum, ignore_case = true, default_value = "a4")]
    pub paper: Paper,
    /// Which files each case packet (and rolled detective sheet) is written as, comma-separated; `none`
    /// writes none.
    #[arg(long, value_delimiter = ',', default_value = "pdf,md,json")]
    pub packets: Vec<String>,
    #[command(flatten)]
    pub content: ContentArg,
    /// Print no "wrote …" lines.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `campaign new` as its command line, clap's own definition: what the studio draws its form from.
pub(crate) fn new_command() -> clap::Command {
    super::help::subcommand(&["campaign", "new"])
}

/// The words after `blockprint campaign new` read as the command line reads them, or the command line's
/// own error text.
pub(crate) fn parse_new(args: &[String]) -> std::result::Result<NewArgs, String> {
    match super::help::parse_line(&["campaign", "new"], args)?.command {
        super::Command::Campaign {
            command: CampaignCommand::New(a),
        } => Ok(a),
        _ => Err("error: not a `campaign new` command line\n".into()),
    }
}

/// Start a campaign (see [`step`] for `project`). The fresh seed's line and the "wrote …" lines are said
/// on `say`'s stderr, what was begun on its stdout.
pub(crate) fn new(
    project: Option<&crate::project::Project>,
    a: &NewArgs,
    say: &mut dyn Say,
) -> Result<()> {
    let NewArgs {
        dir,
        year,
        seed,
        detectives,
        roll,
        paper,
        packets,
        content,
        quiet,
    } = a;
    let (dir, year, seed, roll, paper, quiet) =
        (dir.as_path(), *year, *seed, *roll, *paper, *quiet);
    // What can be refused before a seed is chosen (and printed) is refused first.
    refuse_occupied(dir, None, seed.is_none())?;
    let mut formats = Vec::new();
    for p in packets {
        match p.trim().to_lowercase().as_str() {
            "none" => {}
            "pdf" => formats.push(Format::Pdf),
            "md" => formats.push(Format::Md),
            "json" => formats.push(Format::Json),
            other => {
                return Err(Error::Usage(format!(
                    "--packets takes pdf, md, json or none, not `{other}`"
                )));
            }
        }
    }
    formats.sort();
    formats.dedup();
    let members = match detectives {
        Some(list) => parse_members(list)?,
        None => Vec::new(),
    };
    let opened;
    let project = match project {
        Some(p) => p,
        None => {
            opened = context(content)?;
            &opened
        }
    };
    let cx = project.checked_names(&["case", "detective"])?;
    check_assignments(&cx.lib, &members)?;
    // A fresh seed is announced only once the setup is known to be good: a refused `campaign new` prints
    // no seed to regenerate it with.
    let fresh = seed.is_none();
    let seed = seed.unwrap_or_else(crate::roll::fresh_seed);
    let setup = Setup {
        year,
        seed,
        paper,
        packets: formats,
        detectives: members,
        roll: roll.unwrap_or(0),
    };
    campaign::validate_setup(&setup).map_err(|e| Error::Usage(e.0))?;
    let derived = campaign::replay(&cx.lib, &setup, &[]).map_err(|(_, e)| Error::Rules(e.0))?;
    if fresh {
        say.err(format!(
            "seed: {seed} (regenerate this campaign with --seed {seed})\n"
        ));
    }
    refuse_occupied(dir, Some((&setup, &derived)), true)?;
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let _lock = lock_folder(dir, &super::term::Terminal).map_err(|e| Error::io(dir.join(LOCK_FILE), e))?;
    // Again, now that no other command can be writing here.
    refuse_occupied(dir, Some((&setup, &derived)), true)?;
    let c = Campaign {
        dir: dir.to_owned(),
        setup,
        steps: Vec::new(),
        derived,
    };
    let engine = project.engine()?;
    sheets(engine, cx, &c, quiet, false, say)?;
    packets_of(engine, cx, &c, quiet, say)?;
    let text = file::render(&cx.lib, &c.setup, &c.steps, &c.derived)?;
    file::save(dir, &text)?;
    say.out(format!(
        "campaign {} begun in {} (seed {})",
        c.setup.year,
        dir.display(),
        c.setup.seed
    ));
    for d in &c.derived.detectives {
        let case = c
            .derived
            .cases
            .iter()
            .find(|k| k.lead == d.name)
            .map(|k| format!("{} (came in {})", k.number, k.came_in))
            .unwrap_or_default();
        say.out(format!(
            "  {}{}: starting case {case}; least-wanted assignment ({}): {}",
            d.name,
            d.class
                .as_deref()
                .map(|c| format!(", {c}"))
                .unwrap_or_default(),
            d.assignment_from,
            d.assignment
        ));
    }
    report(&c, 0, say);
    Ok(())
}

/// The campaign's own folders: what a folder that held a campaign still holds when its state is gone.
const CAMPAIGN_FOLDERS: [(&str, &str); 4] = [
    ("cases", "case packets"),
    ("detectives", "detective sheets"),
    ("status", "status sheets"),
    ("plan", "a plan of weeks"),
];

/// Refuse to begin a campaign in `dir` when it holds one, its backup or its files (which a new campaign
/// would overwrite), saying what is there and what to do. With `folders`, the campaign's folders are
/// looked at too: with `start` (the setup to begin and what it works out to), files that a `campaign
/// new` of this very setup left when it was stopped are no obstacle (it finishes them); without it,
/// anything in them is.
fn refuse_occupied(
    dir: &Path,
    start: Option<(&Setup, &campaign::Derived)>,
    folders: bool,
) -> Result<()> {
    if dir.join(STATE_FILE).exists() {
        return Err(Error::Usage(format!(
            "{} already holds a campaign; carry on with `blockprint campaign week {}`, or choose another folder to start a new one",
            dir.display(),
            dir.display()
        )));
    }
    let prev = dir.join(campaign::PREVIOUS_FILE);
    let mut found = Vec::new();
    if prev.exists() {
        found.push(format!("{}, its previous state", prev.display()));
    }
    // A backup refuses the folder whatever else is there; then everything there is named.
    let folders = folders || !found.is_empty();
    for (name, what) in CAMPAIGN_FOLDERS.iter().filter(|_| folders) {
        let folder = dir.join(name);
        let Ok(rd) = std::fs::read_dir(&folder) else {
            continue;
        };
        let entries: Vec<std::fs::DirEntry> = rd
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name() != LOCK_FILE)
            .collect();
        if entries.is_empty() {
            continue;
        }
        let batch = manifest::existing_batch(&folder);
        let of_campaign = batch
            .as_ref()
            .is_some_and(|b| b["options"]["campaign_seed"].is_u64());
        let cases: Vec<String> = entries
            .iter()
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        // What a stopped `campaign new` of this setup wrote: its own starting packets and sheets.
        let resumable = start.is_some_and(|(setup, derived)| match *name {
            "cases" => {
                batch.as_ref().is_some_and(|b| {
                    b["options"]["campaign_seed"] == setup.seed
                        && b["options"]["campaign_year"] == setup.year
                }) && cases
                    .iter()
                    .all(|n| derived.cases.iter().any(|c| &c.number == n))
            }
            "detectives" => {
                setup.roll > 0
                    && batch
                        .as_ref()
                        .is_some_and(|b| b["seed"] == campaign::detective_batch_seed(setup.seed))
            }
            _ => false,
        });
        if resumable {
            continue;
        }
        let count = if *name == "cases" && !cases.is_empty() {
            format!(
                "{} case{}",
                cases.len(),
                if cases.len() == 1 { "" } else { "s" }
            )
        } else {
            format!(
                "{} entr{}",
                entries.len(),
                if entries.len() == 1 { "y" } else { "ies" }
            )
        };
        found.push(format!(
            "{} holds {what}{} ({count})",
            folder.display(),
            if of_campaign { " of a campaign" } else { "" }
        ));
    }
    if found.is_empty() {
        return Ok(());
    }
    let restore = if prev.exists() {
        format!(
            "To go on with that campaign, put its previous state back:\n    {}\n",
            file::restore_command(dir)
        )
    } else {
        String::new()
    };
    Err(Error::Usage(format!(
        "{} holds another campaign's files but no {STATE_FILE}:\n{}\nA new campaign here would overwrite them. {restore}To start a new campaign, choose another folder (a new or empty one).",
        dir.display(),
        found
            .iter()
            .map(|f| format!("  - {f}"))
            .collect::<Vec<_>>()
            .join("\n")
    )))
}

/// `A, B=harbour patrol, C` → members.
fn parse_members(list: &str) -> Result<Vec<Member>> {
    let mut out = Vec::new();
    for item in list.split(',') {
        let (name, assignment) = match item.split_once('=') {
            Some((n, a)) => (n.trim(), Some(a.trim().to_owned())),
            None => (item.trim(), None),
        };
        if name.is_empty() {
            return Err(Error::Usage(format!(
                "--detectives has an empty name in `{list}`; separate names with single commas"
            )));
        }
        out.push(Member {
            name: name.to_owned(),
            assignment,
        });
    }
    Ok(out)
}

/// Apply one command at the end of the log. The command line opens the content and templates of `c`
/// once it holds the folder's lock; the studio passes the `project` it has open.
pub(crate) fn step(
    project: Option<&crate::project::Project>,
    c: &Common,
    s: Step,
    say: &mut dyn Say,
) -> Result<()> {
    let _lock = lock(&c.dir)?;
    let opened;
    let project = match project {
        Some(p) => p,
        None => {
            opened = context(&c.content)?;
            &opened
        }
    };
    let cx = project.checked_names(&["case", "detective"])?;
    let loaded = load(c, cx, say)?;
    let old = &loaded.camp;
    let mut steps = old.steps.clone();
    steps.push(s);
    let derived =
        campaign::replay(&cx.lib, &old.setup, &steps).map_err(|(_, e)| Error::Usage(e.0))?;
    let new = Campaign {
        dir: c.dir.clone(),
        setup: old.setup.clone(),
        steps,
        derived,
    };
    let engine = project.engine()?;
    forget_changed(&c.dir, loaded.on_disk(), &new.derived);
    if loaded.rewrite.is_some() {
        sheets(engine, cx, &new, c.quiet, true, say)?;
    }
    packets_of(engine, cx, &new, c.quiet, say)?;
    let text = file::render(&cx.lib, &new.setup, &new.steps, &new.derived)?;
    file::save_keeping(&c.dir, &text, loaded.previous())?;
    report(&new, new.steps.len() as u32, say);
    Ok(())
}

/// Take back the last command (see [`step`] for `project`).
pub(crate) fn undo(
    project: Option<&crate::project::Project>,
    c: &Common,
    say: &mut dyn Say,
) -> Result<()> {
    let _lock = lock(&c.dir)?;
    let opened;
    let project = match project {
        Some(p) => p,
        None => {
            opened = context(&c.content)?;
            &opened
        }
    };
    let cx = project.checked_names(&["case", "detective"])?;
    let loaded = load(c, cx, say)?;
    let mut camp = loaded.camp.clone();
    let Some(last) = camp.steps.pop() else {
        return Err(Error::Usage(format!(
            "there is nothing to undo: no command has been run since `campaign new`; to start again, begin a new campaign in another folder (`blockprint campaign new` refuses {}, which holds this one)",
            c.dir.display()
        )));
    };
    camp.derived = campaign::replay(&cx.lib, &camp.setup, &camp.steps)
        .map_err(|(_, e)| Error::Bug(format!("a log that replayed no longer does: {}", e.0)))?;
    let engine = project.engine()?;
    forget_changed(&c.dir, loaded.on_disk(), &camp.derived);
    if loaded.rewrite.is_some() {
        sheets(engine, cx, &camp, c.quiet, true, say)?;
    }
    packets_of(engine, cx, &camp, c.quiet, say)?;
    let text = file::render(&cx.lib, &camp.setup, &camp.steps, &camp.derived)?;
    file::save_keeping(&c.dir, &text, loaded.previous())?;
    say.out(format!(
        "undid command {} (`{}`)",
        camp.steps.len() + 1,
        last.describe()
    ));
    report(&camp, u32::MAX, say);
    Ok(())
}

/// Say what command `n` rolled and what comes next.
fn report(c: &Campaign, n: u32, say: &mut dyn Say) {
    for r in c.derived.rolls.iter().filter(|r| r.command == n) {
        let pct = campaign::parse_fraction(&r.odds)
            .map(|f| campaign::percent(&f))
            .unwrap_or_default();
        say.out(format!(
            "{}: {} = {} (odds {} = {pct} of {}) → {}",
            r.purpose, r.dice, r.result, r.odds, r.odds_of, r.outcome
        ));
    }
    if n != 0 && n != u32::MAX {
        for m in c.derived.months.iter().filter(|m| {
            c.derived.calendar.as_ref().is_some_and(|cal| {
                m.year == cal.year && m.month == cal.months_closed && m.roll.is_none()
            })
        }) {
            say.out(format!("{}: {}", m.detective, m.outcome));
        }
    }
    if let Some(cal) = &c.derived.calendar {
        say.out(format!("next: {}", cal.next));
    }
}

fn driver_options(dir: &Path, formats: Vec<Format>, quiet: bool, what: &str) -> driver::Options {
    driver::Options {
        out: dir.to_owned(),
        formats,
        jobs: driver::default_jobs(),
        quiet,
        force: false,
        command: format!("blockprint campaign {what}"),
    }
}

/// The request the campaign's kinds run with.
fn request(c: &Campaign, seed: u64, count: u32) -> Request {
    Request {
        seed,
        paper: c.setup.paper,
        first: 1,
        count,
    }
}

/// The rolled detectives' sheets (DIR/detectives/), when the squad was rolled. With `replace` (a rewritten
/// history) the sheets of another batch there are replaced rather than refused.
fn sheets(
    engine: &Engine,
    cx: &Checked,
    c: &Campaign,
    quiet: bool,
    replace: bool,
    say: &mut dyn Say,
) -> Result<()> {
    if c.setup.roll == 0 || c.setup.packets.is_empty() {
        return Ok(());
    }
    let kind = DetectiveKind::batch(None, false);
    let req = request(
        c,
        campaign::detective_batch_seed(c.setup.seed),
        c.setup.roll,
    );
    drive(
        &kind,
        cx,
        &req,
        engine,
        &driver::Options {
            force: replace,
            ..driver_options(&c.dir, c.setup.packets.clone(), quiet, "new")
        },
        say,
    )
    .map(drop)
}

/// Every case packet (DIR/cases/); packets of cases an undo took back are removed.
fn packets(engine: &Engine, cx: &Checked, c: &Campaign, quiet: bool) -> Result<()> {
    packets_of(engine, cx, c, quiet, &mut Terminal)
}

fn packets_of(
    engine: &Engine,
    cx: &Checked,
    c: &Campaign,
    quiet: bool,
    say: &mut dyn Say,
) -> Result<()> {
    if c.setup.packets.is_empty() {
        return Ok(());
    }
    let kind = CampaignCases {
        campaign: c.clone(),
    };
    let n = kind.count(cx, &request(c, 0, 1))? as u32;
    drive(
        &kind,
        cx,
        &request(c, c.setup.seed, n),
        engine,
        &driver_options(&c.dir, c.setup.packets.clone(), quiet, "packets"),
        say,
    )?;
    prune(&c.dir.join(kind.folder()), c)
}

/// Remove the packets of cases whose lead, date or roll changed (a reassignment, an undo and another
/// course, a rewritten history), so the driver writes them again instead of keeping the files it wrote
/// before; with `old` unknown, every packet is written again.
fn forget_changed(dir: &Path, old: Option<&campaign::Derived>, new: &campaign::Derived) {
    for k in &new.cases {
        let changed = old.is_none_or(|old| {
            old.cases.iter().any(|o| {
                o.number == k.number
                    && (o.lead != k.lead || o.came_in != k.came_in || o.seed != k.seed)
            })
        });
        if changed {
            let _ = std::fs::remove_dir_all(dir.join("cases").join(&k.number));
        }
    }
}

/// Remove the files of cases no longer on the books (taken back by `undo`) and their manifest entries.
fn prune(folder: &Path, c: &Campaign) -> Result<()> {
    let path = folder.join(manifest::MANIFEST);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(());
    };
    let Ok(mut m) = serde_json::from_str::<manifest::Manifest>(&text) else {
        return Ok(());
    };
    let keep: std::collections::BTreeSet<&str> =
        c.derived.cases.iter().map(|k| k.number.as_str()).collect();
    let gone: Vec<String> = m
        .files
        .keys()
        .filter(|rel| {
            rel.split_once('/')
                .is_some_and(|(top, _)| !keep.contains(top))
        })
        .cloned()
        .collect();
    if gone.is_empty() {
        return Ok(());
    }
    for rel in &gone {
        m.files.remove(rel);
        let p = folder.join(rel);
        let _ = std::fs::remove_file(&p);
        if let Some(parent) = p.parent() {
            let _ = std::fs::remove_dir(parent);
        }
    }
    let text = serde_json::to_string_pretty(&m).map_err(|e| Error::Bug(e.to_string()))? + "\n";
    crate::render::output::write_atomic(&path, text.as_bytes()).map_err(|e| Error::io(&path, e))
}

fn status(c: &Common, formats: &[Format]) -> Result<()> {
    let started = Instant::now();
    let _lock = lock(&c.dir)?;
    let project = context(&c.content)?;
    let cx = project.checked_names(&["case", "detective"])?;
    let loaded = load(c, cx, &mut Terminal)?;
    let engine = project.engine()?;
    settle(engine, cx, c, &loaded)?;
    let camp = &loaded.camp;
    let status = crate::campaign::kind::status(cx, camp)?;
    let kind = StatusKind { status };
    driver::run(
        &kind,
        cx,
        &request(camp, camp.setup.seed, 1),
        engine,
        &driver_options(&c.dir, formats.to_vec(), c.quiet, "status"),
        &super::term::Terminal,
    )?;
    if !c.quiet {
        eprintln!(
            "status of {} in {:.2} s",
            c.dir.display(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

fn plan(c: &Common, weeks: u32, formats: &[Format]) -> Result<()> {
    let _lock = lock(&c.dir)?;
    let project = context(&c.content)?;
    let cx = project.checked_names(&["case", "detective"])?;
    let loaded = load(c, cx, &mut Terminal)?;
    let engine = project.engine()?;
    settle(engine, cx, c, &loaded)?;
    let camp = &loaded.camp;
    let plan = crate::campaign::kind::plan(camp, weeks)?;
    outln!(
        "the next {} weeks bring {} new case{} (each week {} ≤ {}, odds {})",
        plan.weeks.len(),
        plan.new_cases,
        if plan.new_cases == 1 { "" } else { "s" },
        plan.die,
        plan.at_most,
        plan.odds
    );
    let kind = PlanKind { plan };
    driver::run(
        &kind,
        cx,
        &request(camp, camp.setup.seed, 1),
        engine,
        &driver_options(&c.dir, formats.to_vec(), c.quiet, "plan"),
        &super::term::Terminal,
    )
    .map(drop)
}

/// A least-wanted assignment given at `campaign new` names a row of the content's assignment table
/// (letter case and spaces aside); a slip of the keyboard is refused with the nearest row.
fn check_assignments(lib: &crate::content::Library, members: &[campaign::Member]) -> Result<()> {
    let table = crate::roll::detective::ASSIGNMENT;
    let Some(t) = lib.table(table) else {
        return Ok(());
    };
    let norm = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let rows: Vec<&str> = t.rows.iter().map(|r| r.result.value.as_str()).collect();
    for m in members {
        let Some(given) = m.assignment.as_deref() else {
            continue;
        };
        if rows.iter().any(|r| norm(r) == norm(given)) {
            continue;
        }
        let nearest = rows
            .iter()
            .min_by_key(|r| edit_distance(&norm(r), &norm(given)))
            .copied()
            .unwrap_or_default();
        return Err(Error::Usage(format!(
            "`{}`'s least-wanted assignment `{given}` is not one of {table}\n  = help: did you mean `{nearest}`? \
             The assignments are: {}",
            m.name,
            rows.join("; ")
        )));
    }
    Ok(())
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
