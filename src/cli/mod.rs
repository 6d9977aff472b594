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

pub(crate) mod campaign;
mod cards;
pub mod chase;
mod check;
pub mod help;
mod import;
mod init;
pub mod make;
pub mod numbers;
pub(crate) mod odds;
mod roll;
mod serve;
mod shell;
mod tables;
pub mod term;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::check::Report;
use crate::content::{ContentRoot, Library};

use crate::front_error::FrontError;
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
    /// place and text, and the command exits with 1. For make (and its aliases), build, campaign and
    /// serve; a command that typesets nothing refuses it.
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

/// The formats `blockprint import` reads.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ImportFrom {
    /// Foundry VTT RollTable JSON (v12 or v13), one table per file, or a folder of them.
    Foundry,
    /// Roll20: the `!import-table` commands of the TableExport script.
    Roll20,
    /// CSV: weight,result; range,result; range_start,range_end,result; blockprint's tables.csv; the
    /// pipe form `01-04|result`.
    Csv,
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
    /// instead of listing the table (answered in the order they were asked); `--vs` rolls the expression
    /// against a second one.
    Odds {
        /// A dice expression: 3d6, 4d6kh3, 2d10kl1, 1d6!, 3d6!kh2, 1d6!!, 5d6cs>=6, 4dF, d%, d%b1, 1d6/2, -1d6 …
        #[arg(allow_hyphen_values = true)]
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
    /// Make one document kind by name, with its options: `blockprint make KIND --help` lists them.
    #[command(
        subcommand_required = false,
        arg_required_else_help = true,
        args_conflicts_with_subcommands = true
    )]
    Make {
        /// List every document kind and what it makes.
        #[arg(long)]
        list: bool,
        /// With --list: print JSON instead of text (each kind's name, what it makes, its formats, its
        /// folder under --out, its papers and whether it rolls).
        #[arg(long, requires = "list")]
        json: bool,
        #[command(flatten)]
        content: ContentArg,
    },
    /// Make every document kind the content offers, each in all its formats, into the output folder.
    Build {
        #[command(flatten)]
        content: ContentArg,
        #[command(flatten)]
        batch: BatchArgs,
        #[command(flatten)]
        case: crate::generators::case::Options,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        fonts: FontArgs,
        /// How many sample cases (and items of every other rolled kind).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        count: u32,
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
    /// Whole-chase odds for Block by Block and the chase systems: who gets away, how often and how fast
    /// (`chase odds`), one chase played out from a seed (`chase play`), a system's match-up grid
    /// (`chase table`).
    Chase {
        #[command(subcommand)]
        command: chase::ChaseCommand,
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
    /// Open the studio: a local web page to make, preview and download every kind, roll on the tables
    /// and work out the odds of any dice.
    Serve(serve::ServeArgs),
    /// Import tables from Foundry VTT (RollTable JSON, v12 or v13: files or a folder), Roll20
    /// (TableExport commands) or CSV into a content folder, one TOML file per table.
    Import {
        /// The format of the files: foundry, roll20 or csv.
        #[arg(value_enum)]
        from: ImportFrom,
        /// The files (for foundry, also folders of RollTable JSON files).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The content folder the tables go into (made when missing; may already hold content).
        #[arg(long, value_name = "CONTENT_DIR")]
        into: PathBuf,
        /// Print no line per table written.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Write the built-in content into DIR for editing; read it back with `--content DIR`.
    Init {
        /// A folder that does not exist yet or is empty (with --update: a content folder made before).
        dir: PathBuf,
        /// Bring a content folder an older blockprint wrote up to date: write the built-in files it
        /// lacks, and add to its kit pages the `##` parts the generators print that a page lacks (at its
        /// end, as the built-in content words them). Nothing the folder holds is changed otherwise.
        #[arg(long)]
        update: bool,
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

/// The option of every command that typesets or draws: fonts of the user's own, for the characters the
/// built-in fonts lack.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct FontArgs {
    /// Also set text in the fonts of this folder (.ttf, .otf, .ttc and .otc files, subfolders too), after
    /// the built-in fonts: for characters they lack, such as Chinese, Japanese or Korean. Give it again
    /// for more folders.
    #[arg(long = "font-path", value_name = "DIR")]
    pub font_path: Vec<PathBuf>,
}

impl FontArgs {
    /// The fonts to typeset with: the built-in ones and those of the folders given (each refused when it
    /// is not there or holds no font).
    pub fn load(&self) -> crate::error::Result<std::sync::Arc<crate::render::fonts::Fonts>> {
        crate::render::fonts::Fonts::load(&self.font_path).map(std::sync::Arc::new)
    }
}

/// Options of every command that rolls a batch (a case batch's year is the case kind's own option).
#[derive(Debug, clap::Args)]
pub struct BatchArgs {
    /// Batch seed. Without it, a run continues the batch already in the output folder, or starts a new
    /// one with a random seed that it prints. Item N of a batch is the same whether made alone or with others.
    #[arg(long, value_parser = seed_parser())]
    pub seed: Option<u64>,
    /// Number of the first item (the NN of YYYY-NN): `--first-number 501 --count 500` makes exactly the
    /// second half of `--count 1000`, so a big batch can be split across machines.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_NUMBER)))]
    pub first_number: u32,
}

pub use crate::project::MAX_NUMBER;

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

impl Status {
    /// The status of an error's exit code: 1 for content and rules, 2 for the rest.
    fn from_exit(code: u8) -> Self {
        if code == 1 { Status::Rules } else { Status::Io }
    }
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

/// Run a command line as clap matched it: the commands the registry defines (`make KIND`, its aliases,
/// `kit`, `export`) from the matches, every other command through [`Cli`].
pub fn run_matches(m: &clap::ArgMatches) -> ExitCode {
    use clap::FromArgMatches;
    if let Some((name, sub)) = m.subcommand()
        && match name {
            "make" => sub.subcommand().is_some(),
            "kit" | "export" => true,
            n => make::ALIASES.contains(&n),
        }
    {
        let check_pages = m.get_flag("check_pages");
        if let Some(color) = m.get_one::<clap::ColorChoice>("color") {
            term::init(*color);
        }
        return with_page_check(check_pages, |term| match make::dispatch(name, sub, term) {
            Some(r) => done(r),
            None => fail(
                &FrontError::NoCommand {
                    name: name.to_owned(),
                }
                .into(),
            ),
        });
    }
    let order = odds::order_of(m);
    match Cli::from_arg_matches(m) {
        Ok(cli) => run_in_order(cli, order),
        Err(e) => e.exit(),
    }
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    run_in_order(cli, Vec::new())
}

/// Run a parsed command line whose `odds` questions were asked in `order` ([`odds::order_of`]).
fn run_in_order(cli: Cli, order: Vec<(odds::Asked, String)>) -> ExitCode {
    term::init(cli.color);
    let command = cli.command;
    if cli.check_pages
        && let Some(name) = typesets_nothing(&command)
    {
        return fail(
            &FrontError::CheckPagesUnused {
                command: name.to_owned(),
            }
            .into(),
        );
    }
    with_page_check(cli.check_pages, move |term| {
        run_command(command, order, term)
    })
}

/// The name of `command` when it typesets no page, so that `--check-pages` would check nothing.
fn typesets_nothing(command: &Command) -> Option<&'static str> {
    Some(match command {
        Command::Check { .. } => "check",
        Command::Tables { .. } => "tables",
        Command::Odds { .. } => "odds",
        Command::Roll { .. } => "roll",
        Command::Draw { .. } => "draw",
        Command::Chase { .. } => "chase",
        Command::VerifyOdds { .. } => "verify-odds",
        Command::Init { .. } => "init",
        Command::Import { .. } => "import",
        Command::Completions { .. } => "completions",
        Command::Manpage { .. } => "manpage",
        Command::Make { .. }
        | Command::Build { .. }
        | Command::Campaign { .. }
        | Command::Serve(_) => return None,
    })
}

/// Run `f` with the run's terminal, and with `--check-pages`, check every page it typesets: each fault
/// is listed at the end and the run ends with 1.
fn with_page_check(
    check_pages: bool,
    f: impl FnOnce(&std::sync::Arc<term::Terminal>) -> ExitCode,
) -> ExitCode {
    let term = std::sync::Arc::new(term::Terminal::checking_pages(check_pages));
    let code = f(&term);
    let found = term.page_faults();
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

fn run_command(
    command: Command,
    order: Vec<(odds::Asked, String)>,
    term: &std::sync::Arc<term::Terminal>,
) -> ExitCode {
    let status = match command {
        Command::Check {
            content,
            json,
            format,
            verbose,
        } => {
            let json = check::json_flag(json, format);
            check::run(&content, json, verbose)
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
                order,
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
        Command::Make {
            list,
            json,
            content,
        } => {
            if list {
                return done(make::list(&content, json));
            }
            return fail(&FrontError::NoKindNamed.into());
        }
        Command::Build {
            content,
            batch,
            case,
            output,
            fonts,
            count,
        } => {
            return done(make::build(
                &content,
                &batch,
                &case,
                &output,
                &fonts,
                count,
                term.as_ref(),
            ));
        }
        Command::Draw {
            id,
            seed,
            count,
            content,
            json,
        } => cards::draw(&id, seed, count, &content, json),
        Command::Chase { command } => chase::run(command),
        Command::Campaign { command } => return done(campaign::run(command, term.as_ref())),
        Command::Serve(args) => return done(serve::run(args, term.clone())),
        Command::Import {
            from,
            files,
            into,
            quiet,
        } => import::run(from, &files, &into, quiet),
        Command::Init { dir, quiet, update } if update => init::update(&dir, quiet),
        Command::Init { dir, quiet, .. } => init::run(&dir, quiet),
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
    eprintln!("{}", shown(e));
    ExitCode::from(e.exit_code())
}

/// The flag that sets the option whose id is `id` (a typed error's [`crate::error::Coded::options`], a
/// clap argument id): `--` and the id with dashes (`paper_size` is `--paper-size`). The one place the
/// command line names the libraries' options; they word them in their own terms.
pub fn flag(id: &str) -> String {
    format!("--{}", id.replace('_', "-"))
}

/// An error as the command line shows it: the library's message with its option named by [`flag`].
pub fn shown(e: &crate::error::Error) -> String {
    e.render(flag)
}

fn root(arg: &ContentArg) -> ContentRoot {
    ContentRoot::from_option(arg.content.clone())
}

/// The given seed, or a fresh one announced on stderr so the output can be regenerated.
fn seed_or_fresh(seed: Option<u64>, what: &str) -> u64 {
    seed.unwrap_or_else(|| {
        let s = crate::roll::fresh_seed();
        eprintln!("seed: {s} (regenerate these {what} with --seed {s})");
        s
    })
}

/// Load and check content for a command that reads tables without rendering (`tables`, `roll --table`,
/// `draw`, `verify-odds`): the project of the content alone, no kind. On errors the diagnostics go to
/// stderr and the command stops with the status to return.
fn checked_tables(root: &ContentRoot) -> Result<(Library, Report), Status> {
    let project = crate::project::Project::with_registry(
        root.clone(),
        Templates::builtin(),
        crate::generators::Registry::empty(),
    );
    match project.and_then(crate::project::Project::into_checked) {
        Ok(cx) => Ok((cx.lib, cx.report)),
        Err(e) => {
            eprintln!("{}", shown(&e));
            Err(Status::from_exit(e.exit_code()))
        }
    }
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

/// A dice expression that failed to parse, shown with a caret under the place (control characters
/// escaped: see [`crate::dice::caret`]).
fn expr_error(src: &str, e: &crate::dice::ParseError) -> String {
    crate::dice::caret::render(
        "error[bad_dice]",
        src,
        e.offset..e.offset + e.len,
        &e.message,
        e.hint.as_deref(),
    )
}
