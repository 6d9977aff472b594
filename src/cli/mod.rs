//! The command line: arguments in (clap derive), calls into the stages, text or JSON on stdout, diagnostics
//! on stderr, and an exit code: 0 success, 1 content/rule errors or a bad expression, 2 usage or I/O errors.

/// `println!` to stdout that ends the process quietly when the reader has gone (`blockprint tables | head`).
macro_rules! outln {
    ($($arg:tt)*) => { $crate::cli::write_stdout(&format!("{}\n", format_args!($($arg)*))) };
}
/// `print!` counterpart of [`outln!`].
macro_rules! outp {
    ($($arg:tt)*) => { $crate::cli::write_stdout(&format!($($arg)*)) };
}
/// `eprintln!` for the whole command line: these two shadow std's in every module below, so each
/// `error:`/`warning:` line any command prints is coloured on a terminal (see [`term`]) without each
/// call site knowing about colour.
macro_rules! eprintln {
    () => { $crate::cli::term::eprint("\n") };
    ($($arg:tt)*) => { $crate::cli::term::eprint(&format!("{}\n", format_args!($($arg)*))) };
}
/// `eprint!` counterpart of the `eprintln!` above.
macro_rules! eprint {
    ($($arg:tt)*) => { $crate::cli::term::eprint(&format!($($arg)*)) };
}

mod campaign;
mod cards;
mod check;
mod export;
pub mod help;
mod init;
mod make;
mod odds;
mod people;
mod roll;
mod shell;
mod tables;
pub mod term;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::check::Report;
use crate::content::{ContentRoot, Library};
use crate::diag;
use crate::generators::{Checked, Registry};
use crate::render::Templates;

/// Printable material and references for Block by Block and its chase systems.
#[derive(Debug, Parser)]
#[command(name = "blockprint", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Check every page typeset: no text over text or under a drawn line, none off the page, within 3 mm
    /// of its edge, across a card's trim or outside its box, none under 6 pt, no page but a document's last
    /// under a third full, no heading alone at a page's foot. Each fault is listed with its file, page,
    /// place and text, and the command exits with 1.
    #[arg(long, global = true)]
    pub check_pages: bool,
    /// When to colour errors, warnings and help: auto (on a terminal, unless NO_COLOR is set;
    /// CLICOLOR_FORCE=1 colours a pipe too), always or never.
    #[arg(
        long,
        global = true,
        value_name = "WHEN",
        value_enum,
        default_value_t = clap::ColorChoice::Auto
    )]
    pub color: clap::ColorChoice,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check content: every table covered exactly once, every reference resolved, every deck complete.
    Check {
        #[command(flatten)]
        content: ContentArg,
        /// Print JSON instead of text: every error and warning, and the summary.
        #[arg(long)]
        json: bool,
        /// The old spelling of `--json` (`--format json`), kept for one release; `--format` names output
        /// file formats on every other command.
        #[arg(long, value_enum, hide = true, conflicts_with = "json")]
        format: Option<Format>,
        /// List every editorial fill in the summary.
        #[arg(long, short)]
        verbose: bool,
    },
    /// List every table with its rows and each row's exact odds.
    Tables {
        #[command(flatten)]
        content: ContentArg,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Exact distribution of a dice expression, e.g. `blockprint odds 4d6kh3`.
    ///
    /// Exact arithmetic has a work bound: every step's cost (pairs of values a `*` or `/` combines,
    /// cells of a sum of dice, states of a keep/drop, printing every probability) is estimated before it
    /// runs and charged to a budget of 400 million work units per expression (roughly a nanosecond
    /// each); a distribution may also have at most 200 000 distinct values and take about 256 MB. An
    /// expression beyond that is refused (exit 1) in well under a second, naming the part at fault;
    /// use fewer or smaller dice, or split it and work the parts out separately.
    ///
    /// Each value is shown with its chance of exactly, at least and at most that value, after the mean
    /// and the standard deviation. `--at-least`, `--at-most` and `--compare` answer one question
    /// instead of listing the table (answers in that order: every `--at-least`, every `--at-most`, every
    /// `--compare`); `--vs` rolls the expression against a second one.
    Odds {
        /// A dice expression: 3d6, 4d6kh3, 2d10kl1, 1d6!, 5d6cs>=6, 4dF, d%, d%b1, 1d6/2, (1d4+1)*2 …
        expr: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// The chance of rolling at least N (repeatable); N is a whole number or a fraction `p/q`.
        #[arg(
            long,
            value_name = "N",
            allow_hyphen_values = true,
            conflicts_with = "vs"
        )]
        at_least: Vec<String>,
        /// The chance of rolling at most N (repeatable).
        #[arg(
            long,
            value_name = "N",
            allow_hyphen_values = true,
            conflicts_with = "vs"
        )]
        at_most: Vec<String>,
        /// The chance of a comparison such as ">= 15", "> 14", "< 5", "<= 4", "= 7" or "!= 7" (repeatable).
        #[arg(
            long,
            value_name = "OP N",
            allow_hyphen_values = true,
            conflicts_with = "vs"
        )]
        compare: Vec<String>,
        /// Roll EXPR (the attacker) against this expression (the defender): exact chances of a win
        /// (higher), a draw and a loss (lower).
        #[arg(long, value_name = "EXPR", allow_hyphen_values = true)]
        vs: Option<String>,
        /// With --vs: where draws go. `show` lists them; `defender` counts a draw as the defender's win,
        /// `attacker` as the attacker's.
        #[arg(long, value_enum, default_value_t = odds::Ties::Show, requires = "vs")]
        ties: odds::Ties,
    },
    /// Roll a dice expression or a table, seeded so any roll can be repeated.
    Roll {
        /// A dice expression (leave out when rolling a table).
        #[arg(required_unless_present = "table", conflicts_with = "table")]
        expr: Option<String>,
        /// Roll this table (by id) instead, following inline rolls and sub-tables.
        #[arg(long)]
        table: Option<String>,
        /// Seed for the ChaCha20 generator; a random seed is chosen and printed when left out.
        #[arg(long, value_parser = seed_parser())]
        seed: Option<u64>,
        /// How many rolls.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        count: u32,
        #[command(flatten)]
        content: ContentArg,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Roll new homicide cases and write their packets: per case a GM file and a player handout (PDF),
    /// Markdown and JSON; then index.md and the print files gm.pdf and handouts.pdf.
    Case {
        #[command(flatten)]
        content: ContentArg,
        #[command(flatten)]
        batch: BatchArgs,
        #[command(flatten)]
        output: OutputArgs,
        /// How many cases.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        count: u32,
        /// Which kinds of file to write, comma-separated.
        #[arg(long, value_enum, value_delimiter = ',', default_value = "pdf,md,json")]
        format: Vec<crate::render::Format>,
    },
    /// Roll detectives by the rules' character creation: per detective a Markdown sheet and JSON (with
    /// every roll listed), then index.md.
    Detective {
        #[command(flatten)]
        content: ContentArg,
        #[command(flatten)]
        batch: people::PeopleBatch,
        #[command(flatten)]
        output: OutputArgs,
        /// How many detectives.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        count: u32,
        /// The class (fighter, rogue, scholar, hotshot); rolled with even odds when left out.
        #[arg(long)]
        class: Option<String>,
        /// Also write each character sheet as a filled, still-editable PDF form
        /// (`<stem>-fillable.pdf`, the field names of the blank sheet's fillable copy).
        #[arg(long)]
        fillable: bool,
        /// Which kinds of file to write, comma-separated.
        #[arg(long, value_enum, value_delimiter = ',', default_value = "pdf,md,json")]
        format: Vec<crate::render::Format>,
    },
    /// Make NPC cards (eight to a page, with cut lines), Markdown stat lines and JSON: random witnesses
    /// and suspects, or the stock NPCs with `--stock`.
    Npc {
        #[command(flatten)]
        content: ContentArg,
        #[command(flatten)]
        batch: people::PeopleBatch,
        #[command(flatten)]
        output: OutputArgs,
        /// How many NPCs (ignored with --stock: every stock NPC is made).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        count: u32,
        /// The stock NPCs of the content, their HP rolled with the seed.
        #[arg(long, conflicts_with_all = ["role", "class", "level"])]
        stock: bool,
        /// Witnesses or suspects only (default: each is either, with even odds).
        #[arg(long, value_enum)]
        role: Option<crate::roll::npc::Role>,
        /// The class of every NPC (makes them notable); rolled with even odds when left out.
        #[arg(long)]
        class: Option<String>,
        /// The level of every NPC: 0 is run-of-the-mill (no class, 1 HP).
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=20))]
        level: Option<u32>,
        /// Which kinds of file to write, comma-separated.
        #[arg(long, value_enum, value_delimiter = ',', default_value = "pdf,md,json")]
        format: Vec<crate::render::Format>,
    },
    /// Render the SRD booklet: PDF, one Markdown file, and a Markdown book for mdBook.
    Srd {
        #[command(flatten)]
        content: ContentArg,
        #[command(flatten)]
        output: OutputArgs,
        /// Which kinds of file to write, comma-separated (json: exactly what the PDF template sees).
        #[arg(long, value_enum, value_delimiter = ',', default_value = "pdf,md")]
        format: Vec<crate::render::Format>,
    },
    /// Write the blank sheets: character sheet, caseload sheet and GM case sheet, each as a print PDF
    /// and a fillable PDF form (`<sheet>-fillable.pdf`) whose field names are listed in the README.
    Sheet {
        #[command(flatten)]
        content: ContentArg,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Make one document kind by name, e.g. `tables` or a kind of your own under `--templates DIR`.
    Make {
        /// The kind's name (`blockprint make --list` lists them).
        #[arg(required_unless_present = "list")]
        kind: Option<String>,
        /// List every document kind and what it makes.
        #[arg(long)]
        list: bool,
        #[command(flatten)]
        content: ContentArg,
        #[command(flatten)]
        batch: BatchArgs,
        #[command(flatten)]
        output: OutputArgs,
        /// How many items, for kinds that roll.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        count: u32,
        /// Which kinds of file to write (default: every format the kind makes).
        #[arg(long, value_enum, value_delimiter = ',')]
        format: Vec<crate::render::Format>,
    },
    /// Make a chase kit into `--out/kits/<game>/`: track sheets, reference cards and tables with their
    /// exact odds for Block by Block or one of the four chase systems published beside it.
    Kit {
        /// Which game's kit (`all`: every kit).
        #[arg(value_enum)]
        game: KitGame,
        #[command(flatten)]
        content: ContentArg,
        #[command(flatten)]
        batch: BatchArgs,
        #[command(flatten)]
        output: OutputArgs,
        /// Which kinds of file to write (default: PDF, Markdown and JSON).
        #[arg(long, value_enum, value_delimiter = ',')]
        format: Vec<crate::render::Format>,
    },
    /// Make every document kind the content offers, each in all its formats, into the output folder.
    Build {
        #[command(flatten)]
        content: ContentArg,
        #[command(flatten)]
        batch: BatchArgs,
        #[command(flatten)]
        output: OutputArgs,
        /// How many sample cases (and items of every other rolled kind).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        count: u32,
    },
    /// Export tables (and, for Foundry, decks) for a virtual tabletop or a spreadsheet, into
    /// `--out/export/<target>/`: Foundry VTT RollTable and Cards JSON, Roll20 TableExport chat commands,
    /// or CSV with the pipe form importers read. Every export is checked against the content first.
    Export {
        /// What to export for.
        #[arg(long, value_enum)]
        to: export::To,
        /// Foundry VTT's schema generation: 13 (default) or 12.
        #[arg(long, value_name = "12|13", value_parser = clap::value_parser!(u8).range(12..=13))]
        foundry_version: Option<u8>,
        /// Table or deck ids to export (default: all); tables they refer to come along.
        ids: Vec<String>,
        #[command(flatten)]
        content: ContentArg,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Print-and-play obstacle decks: sheets of fronts, each followed by its backs mirrored for duplex
    /// printing, with crop marks (or `--single` cards with TrimBox and BleedBox for print services), into
    /// `--out/cards/decks/`.
    Deck {
        /// Deck ids (default: every deck).
        ids: Vec<String>,
        #[command(flatten)]
        layout: cards::LayoutArgs,
        #[command(flatten)]
        content: ContentArg,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Reference cards (chase, interrogation, fights, legwork, the DA) and approach cards for the
    /// secret choice of an interrogation, one set per player, into `--out/cards/bbb/`.
    Cards {
        /// The game: bbb (Block by Block).
        game: Option<String>,
        /// Players: how many sets of approach cards (investigators' and NPCs').
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=12))]
        players: u32,
        #[command(flatten)]
        layout: cards::LayoutArgs,
        #[command(flatten)]
        content: ContentArg,
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Deal cards from a shuffled deck without replacement, seeded: each card with its suit's attribute
    /// and its damage (for a chase without physical cards).
    Draw {
        /// Deck id (or its last part, e.g. city_streets).
        id: String,
        /// Seed of the shuffle; a random one is chosen and printed when left out.
        #[arg(long, value_parser = seed_parser())]
        seed: Option<u64>,
        /// How many cards to deal.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
        count: u32,
        #[command(flatten)]
        content: ContentArg,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Keep a squad's year between sessions: the weekly new-case checks, leads, case packets, monthly
    /// closure rates and the year-end demotion rolls, in DIR/campaign.toml.
    Campaign {
        #[command(subcommand)]
        command: campaign::CampaignCommand,
    },
    /// Check the odds tables a source prints (`[[claimed_odds]]` in content) against the exact odds from
    /// the dice engine, rounded as the source rounds, and list every printed cell that disagrees.
    ///
    /// Exit status: 0 when the report is written, whatever it finds (a source's wrong cells are the
    /// report, not an error); with `--strict`, 1 when any printed cell disagrees. Content errors exit 1,
    /// usage and I/O errors 2.
    VerifyOdds {
        /// Claimed tables to check, by id (default: all).
        ids: Vec<String>,
        #[command(flatten)]
        content: ContentArg,
        /// Print JSON (every cell, agreeing or not) instead of text.
        #[arg(long)]
        json: bool,
        /// Exit 1 when any printed cell disagrees with the exact odds.
        #[arg(long)]
        strict: bool,
    },
    /// Write the built-in content into DIR for editing; read it back with `--content DIR`.
    Init {
        /// A folder that does not exist yet or is empty.
        dir: PathBuf,
        /// Print no "wrote …" line.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Print a completion script for your shell, e.g. `blockprint completions bash >
    /// ~/.local/share/bash-completion/completions/blockprint`.
    ///
    /// zsh: write `_blockprint` into a folder of your `$fpath`; fish: `blockprint completions fish >
    /// ~/.config/fish/completions/blockprint.fish`; PowerShell: add `blockprint completions powershell |
    /// Out-String | Invoke-Expression` to your profile; elvish: `eval (blockprint completions elvish | slurp)`
    /// in rc.elv.
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page `blockprint.1` (read it with `blockprint manpage | man -l -`), or write one
    /// page per command into a folder.
    ///
    /// With `--out DIR`: `blockprint.1`, `blockprint-check.1`, `blockprint-campaign-new.1` and so on, for a
    /// folder of your `MANPATH` such as `~/.local/share/man/man1`.
    Manpage {
        /// Write one page per command into this folder instead of printing `blockprint.1`.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Print no "wrote …" line.
        #[arg(long, short)]
        quiet: bool,
    },
}

#[derive(Debug, clap::Args)]
pub struct ContentArg {
    /// Read content from this folder instead of the built-in content.
    #[arg(long, value_name = "DIR")]
    pub content: Option<PathBuf>,
    /// Add (or replace) templates and document kinds from this folder, laid out like `templates/`
    /// (`<kind>/kind.toml`, `<kind>/<kind>.typ`, `<kind>/<kind>.md.j2`).
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,
}

/// Options of every command that rolls a batch.
#[derive(Debug, clap::Args)]
pub struct BatchArgs {
    /// Batch seed. Without it, a run continues the batch already in the output folder, or starts a new
    /// one with a random seed that it prints. Item N of a batch is the same whether made alone or with others.
    #[arg(long, value_parser = seed_parser())]
    pub seed: Option<u64>,
    /// Year of the case numbers (YYYY-NN).
    #[arg(long, default_value_t = 1976, value_parser = clap::value_parser!(i32).range(1900..=2100))]
    pub year: i32,
    /// Number of the first item (the NN of YYYY-NN): `--first-number 501 --count 500` makes exactly the
    /// second half of `--count 1000`, so a big batch can be split across machines.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_NUMBER)))]
    pub first_number: u32,
    /// How many cases the year holds: the year is cut into this many equal slots and case N comes in
    /// during slot N, so numbers follow the calendar (default: 17, about one case every three weeks as the
    /// rules' weekly 1d6 gives, or the batch's last number if higher). Give the same value to every part
    /// of a batch split across machines.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub year_cases: Option<u32>,
}

/// The highest item number (case YYYY-99999). Every number a batch makes must be one `--first-number`
/// accepts, since each case prints its key (`--first-number N`) to make it again.
pub const MAX_NUMBER: u32 = 99_999;

/// Options of every command that writes files.
#[derive(Debug, clap::Args)]
pub struct OutputArgs {
    /// Output folder; each kind writes into its own folder below it, with a manifest.json.
    #[arg(long, value_name = "DIR", default_value = "out")]
    pub out: PathBuf,
    /// Paper size of the PDFs.
    #[arg(long, value_enum, ignore_case = true, default_value = "a4")]
    pub paper: crate::render::Paper,
    /// Threads that typeset at once, typst's own parallel page layout included (default:
    /// RAYON_NUM_THREADS, else every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: Option<u32>,
    /// Print no "wrote …" lines (errors and warnings still go to stderr).
    #[arg(long, short)]
    pub quiet: bool,
    /// Replace another batch's files in the output folder instead of refusing.
    #[arg(long)]
    pub force: bool,
}

/// Seeds are whole numbers below 2^53, so JSON readers everywhere keep them exact.
fn seed_parser() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(0..=crate::roll::case::MAX_SEED)
}

/// `check --format`'s values, kept for one release as the old spelling of `check --json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// How a command ended (the commands that do not render).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Ok,
    /// Content or rule errors, or a bad dice expression.
    Rules,
    /// Usage or I/O errors.
    Io,
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> Self {
        ExitCode::from(match s {
            Status::Ok => 0,
            Status::Rules => 1,
            Status::Io => 2,
        })
    }
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    term::init(cli.color);
    if !cli.check_pages {
        return run_command(cli.command);
    }
    crate::render::pages::start();
    let code = run_command(cli.command);
    let found = crate::render::pages::take();
    if found.is_empty() {
        return code;
    }
    for line in &found {
        eprintln!("{line}");
    }
    eprintln!(
        "error: the page check found {} fault{} (the lines above: file, page, place in mm from the page's top left, fault, text)",
        found.len(),
        if found.len() == 1 { "" } else { "s" }
    );
    if code == ExitCode::SUCCESS {
        ExitCode::from(1)
    } else {
        code
    }
}

fn run_command(command: Command) -> ExitCode {
    let status = match command {
        Command::Check {
            content,
            json,
            format,
            verbose,
        } => {
            let json = check::json_flag(json, format);
            match kinds(&content) {
                Ok((_, registry)) => check::run(&root(&content), &registry, json, verbose),
                Err(e) => return fail(&e),
            }
        }
        Command::Tables { content, json } => tables::run(&root(&content), json),
        Command::Odds {
            expr,
            json,
            at_least,
            at_most,
            compare,
            vs,
            ties,
        } => odds::run(
            &expr,
            &odds::Options {
                json,
                at_least,
                at_most,
                compare,
                vs,
                ties,
            },
        ),
        Command::Roll {
            expr,
            table,
            seed,
            count,
            content,
            json,
        } => match table {
            Some(id) => roll::table(&root(&content), &id, seed, count, json),
            None => roll::expr(expr.as_deref().unwrap_or_default(), seed, count, json),
        },
        Command::Case {
            content,
            batch,
            output,
            count,
            format,
        } => return done(make::one("case", &content, &batch, &output, count, &format)),
        Command::Detective {
            content,
            batch,
            output,
            count,
            class,
            fillable,
            format,
        } => {
            return done(people::detective(
                &content,
                &batch,
                &output,
                count,
                class.as_deref(),
                fillable,
                &format,
            ));
        }
        Command::Npc {
            content,
            batch,
            output,
            count,
            stock,
            role,
            class,
            level,
            format,
        } => {
            return done(people::npc(
                &content,
                &batch,
                &output,
                count,
                stock,
                role,
                class.as_deref(),
                level,
                &format,
            ));
        }
        Command::Srd {
            content,
            output,
            format,
        } => {
            let batch = BatchArgs {
                seed: Some(0),
                year: 1976,
                first_number: 1,
                year_cases: None,
            };
            return done(make::one("srd", &content, &batch, &output, 1, &format));
        }
        Command::Sheet { content, output } => {
            let batch = BatchArgs {
                seed: Some(0),
                year: 1976,
                first_number: 1,
                year_cases: None,
            };
            return done(make::one(
                "sheet",
                &content,
                &batch,
                &output,
                1,
                &[crate::render::Format::Pdf],
            ));
        }
        Command::Make {
            kind,
            list,
            content,
            batch,
            output,
            count,
            format,
        } => {
            if list {
                return done(make::list(&content));
            }
            let kind = kind.unwrap_or_default();
            return done(make::one(&kind, &content, &batch, &output, count, &format));
        }
        Command::Kit {
            game,
            content,
            batch,
            output,
            format,
        } => {
            let names: Vec<String> = game.kinds().iter().map(|g| format!("kit-{g}")).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            return done(make::many(&names, &content, &batch, &output, 1, &format));
        }
        Command::Build {
            content,
            batch,
            output,
            count,
        } => return done(make::build(&content, &batch, &output, count)),
        Command::Export {
            to,
            foundry_version,
            ids,
            content,
            output,
        } => return done(export::run(to, foundry_version, &ids, &content, &output)),
        Command::Deck {
            ids,
            layout,
            content,
            output,
        } => return done(cards::deck(&ids, &layout, &content, &output)),
        Command::Cards {
            game,
            players,
            layout,
            content,
            output,
        } => {
            return done(cards::cards(
                game.as_deref(),
                players,
                &layout,
                &content,
                &output,
            ));
        }
        Command::Draw {
            id,
            seed,
            count,
            content,
            json,
        } => cards::draw(&id, seed, count, &content, json),
        Command::Campaign { command } => return done(campaign::run(command)),
        Command::Init { dir, quiet } => init::run(&dir, quiet),
        Command::Completions { shell } => shell::completions(shell),
        Command::Manpage { out, quiet } => shell::manpage(out.as_deref(), quiet),
        Command::VerifyOdds {
            ids,
            content,
            json,
            strict,
        } => verify::run(&root(&content), &ids, json, strict),
    };
    status.into()
}

/// The exit code of a finished command, printing its error.
fn done(r: crate::error::Result<()>) -> ExitCode {
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

fn fail(e: &crate::error::Error) -> ExitCode {
    eprintln!("{e}");
    ExitCode::from(e.exit_code())
}

fn root(arg: &ContentArg) -> ContentRoot {
    ContentRoot::from_option(arg.content.clone())
}

/// The templates (built in, plus `--templates`) and every document kind they and the code define.
fn kinds(arg: &ContentArg) -> crate::error::Result<(Templates, Registry)> {
    let mut templates = Templates::builtin();
    if let Some(dir) = &arg.templates {
        templates = templates.overlay(dir)?;
    }
    let registry = Registry::new(&templates)?;
    Ok((templates, registry))
}

/// Load and check content, including what every kind requires (`requested` kinds always, others only
/// when the content offers them).
fn load_checked(
    root: &ContentRoot,
    registry: &Registry,
    requested: &[&str],
) -> std::io::Result<(Library, Report)> {
    let (lib, mut report) = crate::check::load_and_check(root)?;
    for k in registry.kinds() {
        let always = requested.contains(&k.name()) || k.requires_always();
        crate::check::requires::check(
            &lib,
            k.name(),
            &k.requires(),
            always,
            &mut report.diagnostics,
        );
    }
    diag::sort(&mut report.diagnostics);
    Ok((lib, report))
}

/// The given seed, or a fresh one announced on stderr so the output can be regenerated.
fn seed_or_fresh(seed: Option<u64>, what: &str) -> u64 {
    seed.unwrap_or_else(|| {
        let s = crate::roll::fresh_seed();
        eprintln!("seed: {s} (regenerate these {what} with --seed {s})");
        s
    })
}

/// Load and check content for a command that reads tables without rendering (`tables`, `roll --table`):
/// on errors the diagnostics go to stderr and the command stops with the status to return.
fn checked_tables(root: &ContentRoot) -> Result<(Library, Report), Status> {
    match checked(root, &Registry::empty(), &[]) {
        Ok(cx) => Ok((cx.lib, cx.report)),
        Err(e) => {
            eprintln!("{e}");
            Err(if e.exit_code() == 1 {
                Status::Rules
            } else {
                Status::Io
            })
        }
    }
}

/// Load and check content for a command that renders; errors stop it.
fn checked(
    root: &ContentRoot,
    registry: &Registry,
    requested: &[&str],
) -> crate::error::Result<Checked> {
    let (lib, report) =
        load_checked(root, registry, requested).map_err(|e| crate::error::Error::Io {
            path: PathBuf::from(root.label()),
            source: e,
        })?;
    let errors: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect();
    if !errors.is_empty() {
        return Err(crate::error::Error::Content {
            count: errors.len(),
            root: root.label(),
            rendered: diag::render_text_styled(&errors, &lib.sources, term::stderr()),
            diagnostics: errors,
        });
    }
    let source = root.label();
    Checked::new(lib, report, source)
        .ok_or_else(|| crate::error::Error::Bug("checked content with errors".into()))
}

/// Write to stdout; a closed pipe ends the process with success, other failures with status 2.
pub(crate) fn write_stdout(s: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(s.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to stdout: {e}");
        std::process::exit(2);
    }
}

/// Print a value as pretty JSON with a trailing newline.
fn print_json(v: &impl serde::Serialize) -> Status {
    match serde_json::to_string_pretty(v) {
        Ok(s) => {
            outln!("{s}");
            Status::Ok
        }
        Err(e) => {
            eprintln!("error: cannot write JSON: {e}");
            Status::Io
        }
    }
}

/// A dice expression that failed to parse, shown with a caret under the place.
fn expr_error(src: &str, e: &crate::dice::ParseError) -> String {
    let col = src
        .get(..e.offset.min(src.len()))
        .map_or(e.offset, |s| s.chars().count());
    let width = src
        .get(e.offset.min(src.len())..(e.offset + e.len).min(src.len()))
        .map_or(1, |s| s.chars().count().max(1));
    let mut out = format!(
        "error[bad_dice]: {}\n  | {src}\n  | {}{}\n",
        e.message,
        " ".repeat(col),
        "^".repeat(width)
    );
    if let Some(h) = &e.hint {
        out.push_str(&format!("  = help: {h}\n"));
    }
    out
}

/// The games `blockprint kit` makes a kit for; the kit of game `g` is the document kind `kit-g`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum KitGame {
    /// Block by Block's card chase.
    Bbb,
    /// Call of Cthulhu-style chase (locations, hazards and barriers, MOV).
    Coc,
    /// Urban World chases for Dungeon World (the chase ladder).
    UrbanWorld,
    /// Ready/Bolt/Flow (action cards, sprint tokens, a Fudge-dice track).
    Rbf,
    /// Storypath chases (laps and intervals).
    Storypath,
    /// Every kit.
    All,
}

impl KitGame {
    /// The games this choice makes, in `kit all`'s order.
    fn kinds(self) -> &'static [&'static str] {
        const ALL: [&str; 5] = ["bbb", "coc", "urban-world", "rbf", "storypath"];
        match self {
            KitGame::Bbb => &ALL[0..1],
            KitGame::Coc => &ALL[1..2],
            KitGame::UrbanWorld => &ALL[2..3],
            KitGame::Rbf => &ALL[3..4],
            KitGame::Storypath => &ALL[4..5],
            KitGame::All => &ALL,
        }
    }
}
