//! `blockprint chase odds|play|table SYSTEM [options]`: whole-chase odds, a chase played out from a seed,
//! and a system's grid of match-ups, from the `blockprint-chase` crate. Bad options (a policy the system
//! does not have, a track that is no track) exit 2 naming the option, as clap's own range checks do.

use std::path::PathBuf;

use blockprint_chase::{self as chase, Chase, Event, Grid, Odds, PlayLog, SystemArgs};
use clap::{Subcommand, ValueEnum};

use crate::content::ContentRoot;

use super::Status;

/// What `chase play --format` prints (and `chase table --format`, the old spelling of its `--json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ChaseFormat {
    Md,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum ChaseCommand {
    /// The chance of every way a chase can end, and how long it lasts (mean, median, 90th percentile),
    /// exact where the state space allows and otherwise a labelled seeded simulation with 99 % intervals.
    Odds {
        #[command(subcommand)]
        system: SystemArgs,
        /// The policy and the simulation's seed (defined with the systems, for the studio's form too).
        #[command(flatten)]
        options: chase::OddsOptions,
        /// Print JSON instead of text.
        #[arg(long, global = true)]
        json: bool,
        /// Read content from this folder instead of the built-in content (what each system reads of it:
        /// `chase odds SYSTEM --help`).
        #[arg(long, global = true, value_name = "DIR")]
        content: Option<PathBuf>,
    },
    /// One chase played out from a seed: every roll with its dice, every card, every position.
    Play {
        #[command(subcommand)]
        system: SystemArgs,
        /// The seed: the same seed gives the same chase, byte for byte.
        #[arg(long, global = true, value_parser = super::seed_parser())]
        seed: Option<u64>,
        /// How the players make the choices the rules leave open (see the system's --help).
        #[arg(long, global = true)]
        policy: Option<String>,
        /// Print the log as JSON instead of Markdown.
        #[arg(long, global = true, conflicts_with = "format")]
        json: bool,
        /// What to print: md (a log to read), json, or both (`md,json`), in that order.
        #[arg(
            long,
            global = true,
            value_enum,
            value_delimiter = ',',
            default_value = "md"
        )]
        format: Vec<ChaseFormat>,
        /// Read content from this folder instead of the built-in content (what each system reads of it:
        /// `chase play SYSTEM --help`).
        #[arg(long, global = true, value_name = "DIR")]
        content: Option<PathBuf>,
    },
    /// The system's grid of typical match-ups (the kits' "Chase odds" page).
    Table {
        #[command(subcommand)]
        system: SystemArgs,
        /// How the players make the choices the rules leave open (see the system's --help).
        #[arg(long, global = true)]
        policy: Option<String>,
        /// Print JSON instead of the grid as Markdown tables.
        #[arg(long, global = true)]
        json: bool,
        /// The old spelling of `--json` (`--format json`), kept for one release; `--format` names output
        /// file formats on the commands that write files.
        #[arg(long, global = true, value_enum, hide = true, conflicts_with = "json")]
        format: Option<ChaseFormat>,
        /// Read content from this folder instead of the built-in content (what each system reads of it:
        /// `chase table SYSTEM --help`).
        #[arg(long, global = true, value_name = "DIR")]
        content: Option<PathBuf>,
    },
}

/// What `--content` gives each system, for its own `--help` (`chase odds|play|table SYSTEM --help`):
/// the content it reads. `None` for a name that is no system; a system added without a line here fails
/// `cli_surface::every_chase_system_has_its_own_help`.
pub fn content_help(system: &str) -> Option<&'static str> {
    Some(match system {
        "bbb" => {
            "Read content from this folder instead of the built-in content. It is checked first, but \
             Block by Block's card chase reads none of it: its deck and its odds are the rules' own"
        }
        "coc" => {
            "Read content from this folder instead of the built-in content: the hazard, obstacle and \
             barrier tables the seeded track is rolled on (--track-seed) and the barriers' hit points"
        }
        "urban-world" => {
            "Read content from this folder instead of the built-in content. It is checked first, but \
             the Urban World chase ladder reads none of it: its moves and its odds are the rules' own"
        }
        "rbf" => {
            "Read content from this folder instead of the built-in content: its chase tracks \
             ([[track]]), one of which --track names (default: the kit's own track)"
        }
        "storypath" => {
            "Read content from this folder instead of the built-in content: the pool dice of the \
             kit's house ruling (the sp.pool_dice lookup; without it a d10 succeeding on 8 or more)"
        }
        _ => return None,
    })
}

/// `cmd` (the whole command line) with each chase system's own `--content` help under `chase odds`,
/// `chase play` and `chase table` (the option is shared, what it reads is the system's).
pub(crate) fn with_system_help(cmd: clap::Command) -> clap::Command {
    cmd.mut_subcommands(|c| {
        if c.get_name() != "chase" {
            return c;
        }
        c.mut_subcommands(|verb| {
            let shared = verb
                .get_arguments()
                .find(|a| a.get_id() == "content")
                .cloned();
            let Some(shared) = shared else {
                return verb;
            };
            verb.mut_subcommands(|system| match content_help(system.get_name()) {
                Some(text) => system.arg(shared.clone().help(text)),
                None => system,
            })
        })
    })
}

/// The flag that sets a chase option ([`super::flag`] of its id: `quarry_pool` is `--quarry-pool`); the
/// chase crate words its options ([`chase::error::Opt`]) in its own terms.
pub fn flag(opt: chase::Opt) -> String {
    super::flag(opt.id())
}

/// A chase option error on stderr, the option named by its flag; the status its problem maps to (2 for
/// a bad value, 1 for content at fault).
fn option_error(e: &chase::OptionError) -> Status {
    eprintln!("error: {}", e.named(&flag(e.option)));
    Status::from_exit(e.exit_code())
}

/// [`option_error`] for a question on `content`: a table the system rolls on that the content folder
/// lacks is named with the folder and the fix on the first line (exit 1, a content error), not as a
/// bad value of the option that reached for it.
fn content_error(e: &chase::OptionError, content: &Option<PathBuf>) -> Status {
    let (Some(dir), chase::Problem::MissingTable { table }) = (content, &e.problem) else {
        return option_error(e);
    };
    let own = if e.option == chase::Opt::TrackSeed {
        format!(
            ", or give a track of your own with {} GAPS",
            flag(chase::Opt::Track)
        )
    } else {
        String::new()
    };
    eprintln!(
        "error: the content in {} has no table `{table}`, which {} rolls on\n  = help: add it (`blockprint init --update {}` adds the built-in tables a folder lacks){own}",
        dir.display(),
        flag(e.option),
        dir.display()
    );
    Status::Rules
}

fn library(content: &Option<PathBuf>) -> Result<crate::content::Library, Status> {
    super::checked_tables(&ContentRoot::from_option(content.clone())).map(|(lib, _)| lib)
}

fn built(system: &SystemArgs, content: &Option<PathBuf>) -> Result<Box<dyn Chase>, Status> {
    let lib = library(content)?;
    system.build(&lib).map_err(|e| content_error(&e, content))
}

pub(super) fn run(command: ChaseCommand) -> Status {
    match command {
        ChaseCommand::Odds {
            system,
            options,
            json,
            content,
        } => {
            let lib = match library(&content) {
                Ok(l) => l,
                Err(s) => return s,
            };
            let budget = chase::Budget::default();
            let a = match crate::app::answers::chase_odds(&system, &options, &lib, &budget) {
                Ok(a) => a,
                Err(crate::app::answers::Unanswered::Refused(e)) => {
                    return content_error(&e, &content);
                }
                Err(e @ crate::app::answers::Unanswered::Cancelled) => {
                    eprintln!("error: {e}");
                    return Status::Io;
                }
            };
            if json {
                return super::print_json(&a);
            }
            outp!("{}", odds_text(&a.odds, &a.setup));
            Status::Ok
        }
        ChaseCommand::Play {
            system,
            seed,
            policy,
            json,
            format,
            content,
        } => {
            let format = if json {
                vec![ChaseFormat::Json]
            } else {
                format
            };
            let c = match built(&system, &content) {
                Ok(c) => c,
                Err(s) => return s,
            };
            let p = match chase::policy_index(&c.info(), policy.as_deref()) {
                Ok(p) => p,
                Err(e) => return option_error(&e),
            };
            let seed = super::seed_or_fresh(seed, "rolls and cards");
            let log = match c.play(p, seed, &chase::Budget::default()) {
                Ok(log) => log,
                Err(stop) => return option_error(&chase::refusal(&stop, &c.info().policies[p].id)),
            };
            let mut first = true;
            for f in format {
                if !first {
                    outp!("\n");
                }
                first = false;
                match f {
                    ChaseFormat::Md => outp!("{}", play_markdown(&log)),
                    ChaseFormat::Json => {
                        let s = super::print_json(&log);
                        if s != Status::Ok {
                            return s;
                        }
                    }
                }
            }
            Status::Ok
        }
        ChaseCommand::Table {
            system,
            policy,
            json,
            format,
            content,
        } => {
            let json = match format {
                None => json,
                Some(ChaseFormat::Json) => {
                    eprintln!("warning: --format json is deprecated; use --json");
                    true
                }
                Some(ChaseFormat::Md) => {
                    eprintln!(
                        "warning: --format md is deprecated; Markdown is what chase table prints without --json"
                    );
                    false
                }
            };
            let lib = match library(&content) {
                Ok(l) => l,
                Err(s) => return s,
            };
            let g = match system.grid(&lib, policy.as_deref()) {
                Ok(g) => g,
                Err(e) => return option_error(&e),
            };
            if json {
                return super::print_json(&g);
            }
            outp!("{}", grid_markdown(&g));
            Status::Ok
        }
    }
}

fn pct(x: f64) -> String {
    format!("{x:.3} %")
}

/// `chase odds` as text.
pub fn odds_text(o: &Odds, setup: &str) -> String {
    let mut out = format!("{}: {setup}\n", o.system_name);
    out.push_str(&format!("Policy `{}`: {}\n", o.policy.id, o.policy.text));
    match &o.method {
        chase::Method::Exact { states } => out.push_str(&format!(
            "Exact: worked out over {states} distinct states.\n\n"
        )),
        chase::Method::Simulated { runs, seed, reason } => out.push_str(&format!(
            "SIMULATED, not exact: {runs} chases from seed {seed}, each chance with its 99 % interval ({reason}).\n\n"
        )),
    }
    let w = o
        .endings
        .iter()
        .map(|e| e.label.chars().count())
        .max()
        .unwrap_or(0);
    for e in &o.endings {
        let pad = " ".repeat(w - e.label.chars().count());
        let mut line = format!("  {}{pad}  {:>9}", e.label, pct(e.percent));
        if let Some(f) = &e.fraction {
            line.push_str(&format!("  {}", short_fraction(f)));
        }
        if let Some((lo, hi)) = e.interval {
            line.push_str(&format!("  (99 %: {lo:.3} to {hi:.3})"));
        }
        out.push_str(&line);
        out.push('\n');
    }
    let l = &o.length;
    // The limit is news only when some chase reaches it.
    let called_off = if o.endings.iter().any(|e| e.id == chase::LIMIT_ENDING) {
        format!(" (called off after {})", l.unit.count(l.limit))
    } else {
        String::new()
    };
    out.push_str(&format!(
        "\nLength in {}: mean {:.3}{}, median {}, 90th percentile {}{called_off}.\n",
        l.unit.many,
        l.mean,
        l.mean_fraction
            .as_ref()
            .map_or(String::new(), |f| format!(" ({})", short_fraction(f))),
        l.median,
        l.p90,
    ));
    out.push_str("\nHouse rulings of this model (what the source leaves open, and why):\n");
    for r in &o.rulings {
        out.push_str(&format!(
            "  - {}: {} Why: {}\n",
            r.title, r.ruling, r.reason
        ));
    }
    out
}

/// A fraction as text, or a pointer to the JSON when it is too long to read.
fn short_fraction(f: &str) -> String {
    if f.len() <= 32 {
        f.to_string()
    } else {
        format!("exact, {} digits: see --json", f.len())
    }
}

/// One logged event as a line of the log.
fn event_line(e: &Event) -> String {
    match e {
        Event::Roll {
            who,
            what,
            dice,
            faces,
            result,
            ..
        } => {
            let faces: Vec<String> = faces.iter().map(i64::to_string).collect();
            format!(
                "{who} rolls {what}: {dice}, [{}]: {result}",
                faces.join(", ")
            )
        }
        Event::Draw { who, what, .. } => format!("{who} deals {what}"),
        Event::Pick { what, index } => format!("{what}: choice {}", index + 1),
        Event::Note { text } => text.clone(),
    }
}

/// `chase play` as Markdown.
pub fn play_markdown(log: &PlayLog) -> String {
    let mut out = format!(
        "# {}: a chase played from seed {}\n\n",
        log.system_name, log.seed
    );
    out.push_str(&format!("{}.\n\n", capitalise(&log.setup)));
    out.push_str(&format!(
        "Policy `{}`: {}\n",
        log.policy.id, log.policy.text
    ));
    for step in &log.steps {
        if step.unit == 0 {
            out.push_str("\n## Before the chase\n\n");
        } else {
            out.push_str(&format!(
                "\n## {} {}\n\n",
                capitalise(&log.unit.one),
                step.unit
            ));
        }
        for e in &step.events {
            // A draw is followed by the note naming the card; the draw line itself says who dealt.
            if matches!(e, Event::Draw { .. }) {
                continue;
            }
            out.push_str(&format!("- {}\n", capitalise(&event_line(e))));
        }
        out.push_str(&format!("\n*Position:* {}\n", step.position));
    }
    out.push_str(&format!(
        "\n**{}** after {}.\n",
        log.ending_label,
        log.unit.count(log.length)
    ));
    if !log.rulings.is_empty() {
        out.push_str("\n## House rulings of this model\n\n");
        for r in &log.rulings {
            out.push_str(&format!(
                "- **{}.** {} *Why: {}*\n",
                r.title, r.ruling, r.reason
            ));
        }
    }
    out
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// `chase table` as Markdown.
pub fn grid_markdown(g: &Grid) -> String {
    let mut out = format!("# {} — {}\n\n", g.system_name, g.title);
    out.push_str(&format!(
        "Each cell, in percent: {} (`{}`). Policy `{}`: {}\n",
        g.headline.label, g.headline.id, g.policy.id, g.policy.text
    ));
    for n in &g.notes {
        out.push_str(&format!("{n}\n"));
    }
    for t in &g.tables {
        out.push('\n');
        if !t.caption.is_empty() {
            out.push_str(&format!("## {}\n\n", t.caption));
        }
        // The corner names both axes: rows down, columns across.
        out.push_str(&format!(
            "| {} ↓ · {} → | {} |\n",
            g.rows_label,
            g.cols_label,
            t.cols.join(" | ")
        ));
        out.push_str(&format!("|---|{}\n", "---:|".repeat(t.cols.len())));
        for (name, row) in t.rows.iter().zip(&t.cells) {
            let cells: Vec<String> = row
                .iter()
                .map(|c| {
                    if c.exact {
                        format!("{:.1} %", c.percent)
                    } else {
                        format!("≈{:.1} %", c.percent)
                    }
                })
                .collect();
            out.push_str(&format!("| {name} | {} |\n", cells.join(" | ")));
        }
    }
    if g.tables
        .iter()
        .any(|t| t.cells.iter().flatten().any(|c| !c.exact))
    {
        out.push_str(&format!(
            "\n≈ Simulated, not exact: {} chases per cell (99 % interval about ±1.3 points at 50 %).\n",
            chase::GRID_SIM_RUNS
        ));
    }
    out.push_str("\nHouse rulings:\n\n");
    for r in &g.rulings {
        out.push_str(&format!(
            "- **{}.** {} *Why: {}*\n",
            r.title, r.ruling, r.reason
        ));
    }
    out
}
