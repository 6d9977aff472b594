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

mod build;
mod case;
mod check;
mod init;
mod odds;
mod roll;
mod srd;
mod tables;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::check::Report;
use crate::content::{ContentRoot, Library};
use crate::diag;

/// Printable material and references for Block by Block and its chase systems.
#[derive(Debug, Parser)]
#[command(name = "blockprint", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check content: every table covered exactly once, every reference resolved, every deck complete.
    Check {
        #[command(flatten)]
        content: ContentArg,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
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
    Odds {
        /// A dice expression: 3d6, 4d6kh3, 2d10kl1, 1d6!, 5d6cs>=6, 4dF, d%, 1d6/2, (1d4+1)*2 …
        expr: String,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
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
    /// Roll new homicide cases and write their packets: case.pdf, case.md and case.json per case.
    Case {
        #[command(flatten)]
        content: ContentArg,
        #[command(flatten)]
        packet: PacketArgs,
        /// How many cases.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        count: u32,
        /// Which kinds of file to write, comma-separated.
        #[arg(long, value_enum, value_delimiter = ',', default_value = "pdf,md,json")]
        format: Vec<crate::render::packet::Format>,
    },
    /// Render the SRD booklet: PDF, one Markdown file, and a Markdown book for mdBook.
    Srd {
        #[command(flatten)]
        content: ContentArg,
        /// Output folder.
        #[arg(long, value_name = "DIR", default_value = "out")]
        out: PathBuf,
        /// Paper size of the PDF.
        #[arg(long, value_enum, default_value = "a4")]
        paper: crate::render::packet::Paper,
        /// Which kinds of file to write, comma-separated.
        #[arg(long, value_enum, value_delimiter = ',', default_value = "pdf,md")]
        format: Vec<crate::render::packet::Format>,
    },
    /// Build everything blockprint makes from the content into the output folder: the tables reference
    /// and a batch of case packets.
    Build {
        #[command(flatten)]
        content: ContentArg,
        #[command(flatten)]
        packet: PacketArgs,
        /// How many sample cases.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        count: u32,
    },
    /// Write the built-in content into DIR for editing; read it back with `--content DIR`.
    Init {
        /// A folder that does not exist yet or is empty.
        dir: PathBuf,
    },
}

#[derive(Debug, clap::Args)]
pub struct ContentArg {
    /// Read content from this folder instead of the built-in content.
    #[arg(long, value_name = "DIR")]
    pub content: Option<PathBuf>,
}

/// Options of every command that writes case packets.
#[derive(Debug, clap::Args)]
pub struct PacketArgs {
    /// Batch seed; a random seed is chosen and printed when left out. Case N of a batch is the same
    /// whether rolled alone or with others.
    #[arg(long, value_parser = seed_parser())]
    pub seed: Option<u64>,
    /// Year of the case numbers (YYYY-NN).
    #[arg(long, default_value_t = 1976, value_parser = clap::value_parser!(i32).range(1900..=2100))]
    pub year: i32,
    /// Number of the first case (the NN of YYYY-NN).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=9_999))]
    pub first_number: u32,
    /// Output folder.
    #[arg(long, value_name = "DIR", default_value = "out")]
    pub out: PathBuf,
    /// Paper size of the PDFs.
    #[arg(long, value_enum, default_value = "a4")]
    pub paper: crate::render::packet::Paper,
}

/// Seeds are whole numbers below 2^53, so JSON readers everywhere keep them exact.
fn seed_parser() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(0..=crate::roll::case::MAX_SEED)
}

/// The given seed, or a fresh one announced on stderr so the output can be regenerated.
fn seed_or_fresh(seed: Option<u64>, what: &str) -> u64 {
    seed.unwrap_or_else(|| {
        let s = crate::roll::fresh_seed();
        eprintln!("seed: {s} (regenerate these {what} with --seed {s})");
        s
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// How a command ended.
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
pub fn run(cli: Cli) -> Status {
    match cli.command {
        Command::Check {
            content,
            format,
            verbose,
        } => check::run(&root(content), format, verbose),
        Command::Tables { content, json } => tables::run(&root(content), json),
        Command::Odds { expr, json } => odds::run(&expr, json),
        Command::Roll {
            expr,
            table,
            seed,
            count,
            content,
            json,
        } => match table {
            Some(id) => roll::table(&root(content), &id, seed, count, json),
            None => roll::expr(expr.as_deref().unwrap_or_default(), seed, count, json),
        },
        Command::Case {
            content,
            packet,
            count,
            format,
        } => {
            let out = crate::render::output::Output::new(&packet.out);
            case::run(&root(content), &case_options(&packet, count, format), &out)
        }
        Command::Srd {
            content,
            out,
            paper,
            format,
        } => {
            let root = root(content);
            match checked(&root) {
                Ok((lib, report)) => srd::write_srd(
                    &lib,
                    &report,
                    paper,
                    &format,
                    &crate::render::output::Output::new(out),
                ),
                Err(s) => s,
            }
        }
        Command::Build {
            content,
            packet,
            count,
        } => {
            let out = crate::render::output::Output::new(&packet.out);
            let formats = vec![
                crate::render::packet::Format::Pdf,
                crate::render::packet::Format::Md,
                crate::render::packet::Format::Json,
            ];
            build::run(&root(content), &case_options(&packet, count, formats), &out)
        }
        Command::Init { dir } => init::run(&dir),
    }
}

fn case_options(
    p: &PacketArgs,
    count: u32,
    formats: Vec<crate::render::packet::Format>,
) -> case::CaseOptions {
    case::CaseOptions {
        seed: p.seed,
        count,
        year: p.year,
        first_number: p.first_number,
        paper: p.paper,
        formats,
    }
}

fn root(arg: ContentArg) -> ContentRoot {
    ContentRoot::from_option(arg.content)
}

/// Load and check content for a command that needs it. On errors the diagnostics go to stderr and the
/// command stops with the status to return.
fn checked(root: &ContentRoot) -> Result<(Library, Report), Status> {
    let (lib, report) = match crate::check::load_and_check(root) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", root.label());
            return Err(Status::Io);
        }
    };
    if report.errors() > 0 {
        let errors: Vec<_> = report
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect();
        eprint!("{}", diag::render_text(&errors, &lib.sources));
        eprintln!(
            "error: {} content error(s) in {}; fix them (see `blockprint check`) and run again",
            errors.len(),
            root.label()
        );
        return Err(Status::Rules);
    }
    Ok((lib, report))
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
