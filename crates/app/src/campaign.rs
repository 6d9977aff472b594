//! The campaign session: a squad's year between sessions ([`blockprint_kinds::campaign`]), as every front
//! runs it. Every command loads `DIR/campaign.toml`, replays its log with the new command at the end (a
//! command that does not fit where the campaign stands is a usage error naming what to run instead),
//! writes the case packets through the driver, and only then replaces the state file (the old one is
//! kept as `campaign.prev.toml`).
//!
//! A command holds the campaign folder's lock (`DIR/.blockprint.lock`) from before it reads the state until
//! it has written it, so two commands run at once on one campaign both land, one after the other: the
//! second waits (and says so after a moment) rather than being refused, since two players' scripts or two
//! terminals should both get their command recorded, and each command takes a second or less. A `[setup]`
//! changed after the campaign began is refused, naming the change, unless the folder's `rewrite_history`
//! accepts it.
//!
//! What a command did comes back as lines (the command line prints them on stdout, the studio lists
//! them); its notes, seeds and "wrote …" lines go to the [`Sink`].

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::error::AppError;
use blockprint_content::Library;
use blockprint_content::error::{Bug, Error, Result};
use blockprint_kind::sink::{Event, Line, Part, Sink};
use blockprint_kinds::campaign::kind::{CampaignCases, PlanKind, Status, StatusKind};
use blockprint_kinds::campaign::{self, Campaign, Member, STATE_FILE, Setup, file};
use blockprint_kinds::detective::DetectiveKind;
use blockprint_kinds::{Checked, Kind, Request};
use blockprint_render::output::{FolderLock, LOCK_FILE, lock_folder};
use blockprint_render::{Engine, Format, driver, manifest};

pub use blockprint_kinds::campaign::{NewOptions, Relation, Step};

use crate::project::Project;

/// An existing campaign and how to run a command on it.
#[derive(Debug, Clone)]
pub struct Folder {
    /// The campaign folder (holding campaign.toml).
    pub dir: PathBuf,
    /// No "wrote …" lines.
    pub quiet: bool,
    /// Accept a `[setup]` changed after the campaign began: the whole log is replayed with it, so
    /// recorded rolls, cases and packets may all change (the command says how many). The campaign as it
    /// stood before is kept in campaign.prev.toml.
    pub rewrite_history: bool,
}

impl Folder {
    /// The campaign in `dir`, run as a command that is not quiet and rewrites no history.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Folder {
            dir: dir.into(),
            quiet: false,
            rewrite_history: false,
        }
    }
}

/// The id of the option that accepts a changed setup ([`Folder::rewrite_history`]).
pub const REWRITE_HISTORY: &str = "rewrite_history";

/// A state file's located report as a sink's note (without the newline the report ends with); its help
/// may name an option, which the front names its way.
fn located(report: Line) -> Event {
    Event::OptionNote {
        warning: false,
        line: report.without_newline(),
    }
}

/// Hold the campaign folder's lock for the rest of the command (see the module's note). A folder without
/// a state file is not locked: the command is refused without writing anything there.
fn lock(dir: &Path, sink: &dyn Sink) -> Result<Option<FolderLock>> {
    if !dir.join(STATE_FILE).is_file() {
        return Ok(None);
    }
    lock_folder(dir, sink)
        .map(Some)
        .map_err(|e| Error::io(dir.join(LOCK_FILE), e))
}

/// The content as the campaign reads it: what the case and detective kinds need, checked.
fn checked(project: &Project) -> Result<&Checked> {
    project.checked_names(&["case", "detective"])
}

/// A loaded campaign, and when `rewrite_history` accepted a changed setup, what the rewrite needs.
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
/// setup changed after the campaign began, unless `rewrite_history` accepts it.
fn load(f: &Folder, cx: &Checked, sink: &dyn Sink) -> Result<Loaded> {
    let change = match file::load(&f.dir, &cx.lib) {
        Ok(camp) => {
            if f.rewrite_history {
                let rest = ": the setup is the one the campaign was recorded with; there is nothing to rewrite";
                sink.event(Event::OptionNote {
                    warning: false,
                    line: Line::new(
                        format!("rewriting the history{rest}"),
                        vec![Part::Option(REWRITE_HISTORY), Part::Text(rest.into())],
                    ),
                });
            }
            return Ok(Loaded {
                camp,
                rewrite: None,
            });
        }
        Err(file::LoadError::Io(e)) => return Err(e),
        Err(file::LoadError::State(s)) => {
            sink.event(located(s.rendered));
            return Err(AppError::CampaignState { summary: s.summary }.into());
        }
        Err(file::LoadError::SetupChanged(change)) => change,
    };
    if !f.rewrite_history {
        sink.event(located(change.error.rendered.clone()));
        return Err(AppError::CampaignState {
            summary: change.error.summary,
        }
        .into());
    }
    let derived = change
        .after
        .clone()
        .map_err(|why| AppError::RewriteHistory {
            what: change.what(),
            why,
        })?;
    let state = f.dir.join(STATE_FILE);
    // The campaign as it stood before the change: worked out again from the recorded setup and the log
    // when both are known, else the file as it is.
    let previous = match (&change.recorded, &change.before) {
        (Some(recorded), Some(before)) => file::render(&cx.lib, recorded, &change.steps, before)?,
        _ => std::fs::read_to_string(&state).map_err(|e| Error::io(&state, e))?,
    };
    sink.event(Event::Note(format!(
        "rewriting the history with the changed setup: {}: {}; the campaign as it stood before is kept in {}",
        change.what(),
        change.consequences(false),
        f.dir.join(campaign::PREVIOUS_FILE).display()
    )));
    let change = *change;
    Ok(Loaded {
        camp: Campaign {
            dir: f.dir.clone(),
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
fn settle(
    engine: &Engine,
    cx: &Checked,
    f: &Folder,
    loaded: &Loaded,
    sink: &dyn Sink,
) -> Result<bool> {
    if loaded.rewrite.is_none() {
        return Ok(false);
    }
    let camp = &loaded.camp;
    forget_changed(&f.dir, loaded.on_disk(), &camp.derived);
    sheets(engine, cx, camp, f.quiet, true, sink)?;
    packets_of(engine, cx, camp, f.quiet, sink)?;
    let text = file::render(&cx.lib, &camp.setup, &camp.steps, &camp.derived)?;
    file::save_keeping(&f.dir, &text, loaded.previous())?;
    Ok(true)
}

/// Start a campaign: the squad, each detective's starting case (with its packet) and DIR/campaign.toml.
/// A fresh seed's line and the "wrote …" lines go to `sink`; the lines returned say what was begun.
pub fn new(project: &Project, o: &NewOptions, quiet: bool, sink: &dyn Sink) -> Result<Vec<String>> {
    let NewOptions {
        dir,
        year,
        seed,
        detectives,
        roll,
        paper,
        packets,
    } = o;
    let (dir, year, seed, roll, paper) = (dir.as_path(), *year, *seed, *roll, *paper);
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
                return Err(AppError::Packets {
                    given: other.to_owned(),
                }
                .into());
            }
        }
    }
    formats.sort();
    formats.dedup();
    let members = match detectives {
        Some(list) => parse_members(list)?,
        None => Vec::new(),
    };
    let cx = checked(project)?;
    check_assignments(&cx.lib, &members)?;
    // A fresh seed is announced only once the setup is known to be good: a refused `campaign new` prints
    // no seed to regenerate it with.
    let fresh = seed.is_none();
    let seed = seed.unwrap_or_else(blockprint_content::roll::fresh_seed);
    let setup = Setup {
        year,
        seed,
        paper,
        packets: formats,
        detectives: members,
        roll: roll.unwrap_or(0),
    };
    campaign::validate_setup(&setup)?;
    let derived = campaign::replay(&cx.lib, &setup, &[]).map_err(|e| e.problem)?;
    if fresh {
        sink.event(Event::Seed(crate::project::fresh_seed(
            seed,
            "this campaign",
        )));
    }
    refuse_occupied(dir, Some((&setup, &derived)), true)?;
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let _lock = lock_folder(dir, sink).map_err(|e| Error::io(dir.join(LOCK_FILE), e))?;
    // Again, now that no other command can be writing here.
    refuse_occupied(dir, Some((&setup, &derived)), true)?;
    let c = Campaign {
        dir: dir.to_owned(),
        setup,
        steps: Vec::new(),
        derived,
    };
    let engine = project.engine()?;
    sheets(engine, cx, &c, quiet, false, sink)?;
    packets_of(engine, cx, &c, quiet, sink)?;
    let text = file::render(&cx.lib, &c.setup, &c.steps, &c.derived)?;
    file::save(dir, &text)?;
    let mut said = vec![format!(
        "campaign {} begun in {} (seed {})",
        c.setup.year,
        dir.display(),
        c.setup.seed
    )];
    for d in &c.derived.detectives {
        let case = c
            .derived
            .cases
            .iter()
            .find(|k| k.lead == d.name)
            .map(|k| format!("{} (came in {})", k.number, k.came_in))
            .unwrap_or_default();
        said.push(format!(
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
    report(&c, 0, &mut said);
    Ok(said)
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
        return Err(AppError::HoldsCampaign {
            dir: dir.to_path_buf(),
        }
        .into());
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
    Err(AppError::ForeignFiles {
        dir: dir.to_path_buf(),
        state_file: STATE_FILE,
        found,
        restore: prev.exists().then(|| file::restore_command(dir)),
    }
    .into())
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
            return Err(AppError::EmptyName {
                list: list.to_owned(),
            }
            .into());
        }
        out.push(Member {
            name: name.to_owned(),
            assignment,
        });
    }
    Ok(out)
}

/// Apply one command (`week`, `close`, `month`, `year`, `mend`) at the end of the log; the lines say what
/// it rolled and what comes next.
pub fn step(project: &Project, f: &Folder, s: Step, sink: &dyn Sink) -> Result<Vec<String>> {
    let _lock = lock(&f.dir, sink)?;
    let cx = checked(project)?;
    let loaded = load(f, cx, sink)?;
    let old = &loaded.camp;
    let mut steps = old.steps.clone();
    steps.push(s);
    let derived = campaign::replay(&cx.lib, &old.setup, &steps).map_err(|e| e.problem)?;
    let new = Campaign {
        dir: f.dir.clone(),
        setup: old.setup.clone(),
        steps,
        derived,
    };
    let engine = project.engine()?;
    forget_changed(&f.dir, loaded.on_disk(), &new.derived);
    if loaded.rewrite.is_some() {
        sheets(engine, cx, &new, f.quiet, true, sink)?;
    }
    packets_of(engine, cx, &new, f.quiet, sink)?;
    let text = file::render(&cx.lib, &new.setup, &new.steps, &new.derived)?;
    file::save_keeping(&f.dir, &text, loaded.previous())?;
    let mut said = Vec::new();
    report(&new, new.steps.len() as u32, &mut said);
    Ok(said)
}

/// Take back the last command (its rolls come out the same when it is run again).
pub fn undo(project: &Project, f: &Folder, sink: &dyn Sink) -> Result<Vec<String>> {
    let _lock = lock(&f.dir, sink)?;
    let cx = checked(project)?;
    let loaded = load(f, cx, sink)?;
    let mut camp = loaded.camp.clone();
    let Some(last) = camp.steps.pop() else {
        return Err(AppError::NothingToUndo { dir: f.dir.clone() }.into());
    };
    camp.derived = campaign::replay(&cx.lib, &camp.setup, &camp.steps)
        .map_err(|e| AppError::Replay { problem: e.problem })?;
    let engine = project.engine()?;
    forget_changed(&f.dir, loaded.on_disk(), &camp.derived);
    if loaded.rewrite.is_some() {
        sheets(engine, cx, &camp, f.quiet, true, sink)?;
    }
    packets_of(engine, cx, &camp, f.quiet, sink)?;
    let text = file::render(&cx.lib, &camp.setup, &camp.steps, &camp.derived)?;
    file::save_keeping(&f.dir, &text, loaded.previous())?;
    let mut said = vec![format!(
        "undid command {} (`{}`)",
        camp.steps.len() + 1,
        last.describe()
    )];
    report(&camp, u32::MAX, &mut said);
    Ok(said)
}

/// What command `n` rolled and what comes next.
fn report(c: &Campaign, n: u32, said: &mut Vec<String>) {
    for r in c.derived.rolls.iter().filter(|r| r.command == n) {
        let pct = campaign::parse_fraction(&r.odds)
            .map(|f| campaign::percent(&f))
            .unwrap_or_default();
        said.push(format!(
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
            said.push(format!("{}: {}", m.detective, m.outcome));
        }
    }
    if let Some(cal) = &c.derived.calendar {
        said.push(format!("next: {}", cal.next));
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
    sink: &dyn Sink,
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
    driver::run(
        &kind,
        cx,
        &req,
        engine,
        &driver::Options {
            force: replace,
            ..driver_options(&c.dir, c.setup.packets.clone(), quiet, "new")
        },
        sink,
    )
    .map(drop)
}

/// Every case packet (DIR/cases/); packets of cases an undo took back are removed.
fn packets_of(
    engine: &Engine,
    cx: &Checked,
    c: &Campaign,
    quiet: bool,
    sink: &dyn Sink,
) -> Result<()> {
    if c.setup.packets.is_empty() {
        return Ok(());
    }
    let kind = CampaignCases {
        campaign: c.clone(),
    };
    let n = kind.count(cx, &request(c, 0, 1))? as u32;
    driver::run(
        &kind,
        cx,
        &request(c, c.setup.seed, n),
        engine,
        &driver_options(&c.dir, c.setup.packets.clone(), quiet, "packets"),
        sink,
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
    let text = serde_json::to_string_pretty(&m).map_err(|e| Bug::json("the manifest", e))? + "\n";
    blockprint_render::output::write_atomic(&path, text.as_bytes()).map_err(|e| Error::io(&path, e))
}

/// Write every case packet (and rolled detective sheet) of the campaign again.
pub fn packets(project: &Project, f: &Folder, sink: &dyn Sink) -> Result<()> {
    let _lock = lock(&f.dir, sink)?;
    let cx = checked(project)?;
    let loaded = load(f, cx, sink)?;
    let engine = project.engine()?;
    if settle(engine, cx, f, &loaded, sink)? {
        return Ok(());
    }
    sheets(engine, cx, &loaded.camp, f.quiet, false, sink)?;
    packets_of(engine, cx, &loaded.camp, f.quiet, sink)
}

/// The folder locked (the lock held while the result lives), its campaign loaded and its packets settled:
/// where status and plan start.
fn open_settled<'p>(
    project: &'p Project,
    f: &Folder,
    sink: &dyn Sink,
) -> Result<(Option<FolderLock>, &'p Checked, Loaded, &'p Engine)> {
    let held = lock(&f.dir, sink)?;
    let cx = checked(project)?;
    let loaded = load(f, cx, sink)?;
    let engine = project.engine()?;
    settle(engine, cx, f, &loaded, sink)?;
    Ok((held, cx, loaded, engine))
}

/// Write the status (a caseload sheet per detective and the squad calendar, with the rates so far) into
/// DIR/status/ in `formats`.
pub fn status(project: &Project, f: &Folder, formats: &[Format], sink: &dyn Sink) -> Result<()> {
    let started = Instant::now();
    let (_lock, cx, loaded, engine) = open_settled(project, f, sink)?;
    let camp = &loaded.camp;
    let status = campaign::kind::status(cx, camp)?;
    let kind = StatusKind { status };
    driver::run(
        &kind,
        cx,
        &request(camp, camp.setup.seed, 1),
        engine,
        &driver_options(&f.dir, formats.to_vec(), f.quiet, "status"),
        sink,
    )?;
    if !f.quiet {
        sink.event(Event::Note(format!(
            "status of {} in {:.2} s",
            f.dir.display(),
            started.elapsed().as_secs_f64()
        )));
    }
    Ok(())
}

/// Pre-roll the coming `weeks` weeks' new-case checks (the same rolls `week` will make) for print, into
/// DIR/plan/ in `formats`; the line returned sums them up.
pub fn plan(
    project: &Project,
    f: &Folder,
    weeks: u32,
    formats: &[Format],
    sink: &dyn Sink,
) -> Result<Vec<String>> {
    let (_lock, cx, loaded, engine) = open_settled(project, f, sink)?;
    let camp = &loaded.camp;
    let plan = campaign::kind::plan(camp, weeks)?;
    let said = vec![format!(
        "the next {} weeks bring {} new case{} (each week {} ≤ {}, odds {})",
        plan.weeks.len(),
        plan.new_cases,
        if plan.new_cases == 1 { "" } else { "s" },
        plan.die,
        plan.at_most,
        plan.odds
    )];
    let kind = PlanKind { plan };
    driver::run(
        &kind,
        cx,
        &request(camp, camp.setup.seed, 1),
        engine,
        &driver_options(&f.dir, formats.to_vec(), f.quiet, "plan"),
        sink,
    )?;
    Ok(said)
}

/// What a folder holds, read without its lock (the state file is only ever replaced whole): for a front
/// that shows where a campaign stands.
#[derive(Debug)]
pub enum Look {
    /// The folder holds no campaign.toml.
    Missing,
    /// The campaign, where it stands.
    Status(Box<Status>),
    /// The content cannot be read for it, or its state is not valid (the located diagnostic, whose help
    /// may name an option).
    Problem(Line),
    /// Its `[setup]` was changed after it began (the located diagnostic); only a command with
    /// `rewrite_history` accepts that.
    SetupChanged(Line),
}

/// Read the campaign in `dir` as it stands.
pub fn look(project: &Project, dir: &Path) -> Look {
    if !dir.join(STATE_FILE).is_file() {
        return Look::Missing;
    }
    let cx = match checked(project) {
        Ok(cx) => cx,
        Err(e) => return Look::Problem(e.to_string().into()),
    };
    let camp = match file::load(dir, &cx.lib) {
        Ok(c) => c,
        Err(file::LoadError::Io(e)) => return Look::Problem(e.to_string().into()),
        Err(file::LoadError::State(s)) => return Look::Problem(s.rendered),
        Err(file::LoadError::SetupChanged(c)) => return Look::SetupChanged(c.error.rendered),
    };
    match campaign::kind::status(cx, &camp) {
        Ok(s) => Look::Status(Box::new(s)),
        Err(e) => Look::Problem(e.to_string().into()),
    }
}

/// A least-wanted assignment given at `campaign new` names a row of the content's assignment table
/// (letter case and spaces aside); a slip of the keyboard is refused with the nearest row.
fn check_assignments(lib: &Library, members: &[Member]) -> Result<()> {
    let table = blockprint_content::roll::detective::ASSIGNMENT;
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
        return Err(AppError::Assignment {
            member: m.name.clone(),
            given: given.to_owned(),
            table: table.to_owned(),
            hint: blockprint_content::near::did_you_mean(given, rows.iter().copied()),
            rows: rows.iter().map(|r| (*r).to_owned()).collect(),
        }
        .into());
    }
    Ok(())
}
