//! `make KIND`, the commands that are its aliases, and `build`: one command per registered kind, generated
//! from the registry (its options struct gives the kind's flags, [`MakeArgs`] the flags every command that
//! makes files shares), and one call of [`Project`] per run.
//!
//! The aliases are the names people already use: `case`, `srd`, `detective`, `npc`, `sheet`, `deck` and
//! `cards` are `make <the same name>`, command for command; `kit GAME` is `make kit-GAME` (`kit all`:
//! every kit); `export --to TARGET` is `make export-TARGET`.

use clap::builder::TypedValueParser;
use clap::{ArgMatches, Args, Command, FromArgMatches};
use serde_json::Value;

use super::term::Terminal;
use super::{BatchArgs, ContentArg, FontArgs, OutputArgs};
use crate::error::{Bug, Error, Result};
use crate::front_error::FrontError;
use crate::generators::{KindDef, Registry};
use crate::project::{Batch, Output, Project};
use crate::render::Format;

/// The commands that are `make <same name>`.
pub const ALIASES: &[&str] = &["case", "srd", "detective", "npc", "sheet", "deck", "cards"];

// What every command that makes files takes besides the kind's own options. (A plain comment: a doc
// comment here would become the about line of every kind's command.)
#[derive(Debug, clap::Args)]
pub struct MakeArgs {
    #[command(flatten)]
    pub content: ContentArg,
    #[command(flatten)]
    pub output: OutputArgs,
    #[command(flatten)]
    pub fonts: FontArgs,
    /// Which kinds of file to write, comma-separated (default: every format the kind makes).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub format: Vec<Format>,
}

// What a command of a kind that rolls takes besides: which batch, and which of its items. A kind that
// rolls nothing has none of these, so `sheet --seed 3` is refused rather than ignored.
#[derive(Debug, clap::Args)]
pub struct RollArgs {
    #[command(flatten)]
    pub batch: BatchArgs,
    /// How many items.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub count: u32,
}

/// The batch a command's matches ask for: its seed and items when the command has them (a kind that
/// rolls), else the one item of a kind that rolls nothing.
fn batch_of(m: &ArgMatches) -> Result<Batch> {
    if !matches!(m.try_get_one::<u32>("count"), Ok(Some(_))) {
        return Ok(Batch::default());
    }
    let r = RollArgs::from_arg_matches(m).map_err(arguments)?;
    Ok(Batch {
        seed: r.batch.seed,
        first_number: r.batch.first_number,
        count: r.count,
    })
}

impl MakeArgs {
    fn output(&self) -> Output {
        output(&self.output, self.format.clone())
    }

    fn project(&self) -> Result<Project> {
        let fonts = self.fonts.load()?;
        Ok(Project::open(
            self.content.content.as_deref(),
            self.content.templates.as_deref(),
        )?
        .with_fonts(fonts))
    }
}

/// The output options as the project takes them.
pub(super) fn output(o: &OutputArgs, formats: Vec<Format>) -> Output {
    Output {
        out: o.out.clone(),
        paper: o.paper,
        jobs: o.jobs,
        quiet: o.quiet,
        force: o.force,
        formats,
        command: command_line(),
    }
}

/// `make <kind>` for one registered kind: its options first, then the batch's when it rolls, then the
/// options every kind shares. An option of another kind is no option of this one (see [`foreign_option`]).
pub fn kind_command(name: &str, def: &dyn KindDef) -> Command {
    let cmd = Command::new(name.to_owned()).next_help_heading(format!("Options of {name}"));
    let mut cmd = def.args(cmd);
    if def.rolls() {
        cmd = RollArgs::augment_args(cmd.next_help_heading("Options of every kind that rolls"));
    }
    let cmd = cmd.next_help_heading("Options of every kind");
    // `--format` offers the formats this kind makes, so clap refuses another with the list.
    let formats = def
        .info()
        .formats
        .iter()
        .filter_map(clap::ValueEnum::to_possible_value);
    let parser = clap::builder::PossibleValuesParser::new(formats)
        .map(|s| <Format as clap::ValueEnum>::from_str(&s, false).unwrap_or(Format::Pdf));
    // The about line last: a flattened struct's doc comment would replace it.
    MakeArgs::augment_args(cmd)
        .mut_arg("format", |a| a.value_parser(parser))
        .about(sentence(&def.info().about))
}

/// A kind's about line as a command's: capitalised like the other commands' help.
fn sentence(about: &str) -> String {
    let mut c = about.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The games of `kit GAME`: every registered kind named `kit-GAME`, in registration order.
pub fn kit_games(registry: &Registry) -> Vec<String> {
    registry
        .kinds()
        .filter_map(|k| k.name().strip_prefix("kit-").map(str::to_owned))
        .collect()
}

/// The export targets of `export --to`: every registered kind named `export-TARGET`, without the
/// Foundry generations (`--foundry-version` picks one).
fn export_targets(registry: &Registry) -> Vec<String> {
    registry
        .kinds()
        .filter_map(|k| k.name().strip_prefix("export-").map(str::to_owned))
        .filter(|t| !t.starts_with("foundry-v"))
        .collect()
}

/// The commands the registry defines: `make`'s subcommands, the aliases, `kit` and `export`.
pub fn add_commands(cmd: Command, registry: &Registry) -> Command {
    let kinds: Vec<Command> = registry
        .defs()
        .map(|d| kind_command(&d.info().name, d))
        .collect();
    let mut cmd = cmd.mut_subcommands(|c| {
        if c.get_name() == "make" {
            kinds.iter().fold(c, |c, k| c.subcommand(k.clone()))
        } else {
            c
        }
    });
    for alias in ALIASES {
        if let Some(k) = kinds.iter().find(|k| k.get_name() == *alias) {
            cmd = cmd.subcommand(k.clone());
        }
    }
    let games = kit_games(registry);
    if !games.is_empty() {
        let mut values: Vec<String> = games.clone();
        values.push("all".into());
        let kit = Command::new("kit")
            .arg(
                clap::Arg::new("game")
                    .required(true)
                    .value_parser(clap::builder::PossibleValuesParser::new(values))
                    .help("Which game's kit (`all`: every kit)"),
            )
            .next_help_heading("Options of every kind");
        // `kit all` makes the kits that roll too; `kit GAME` of one that rolls nothing refuses these
        // options when it runs (see `kit`).
        let kit = RollArgs::augment_args(kit.next_help_heading("Options of a kit that rolls"))
            .next_help_heading("Options of every kind");
        cmd = cmd.subcommand(MakeArgs::augment_args(kit).about(
            "Make a chase kit into --out/kits/<game>/: track sheets, reference cards and tables with \
             their exact odds (`make kit-GAME`; `all`: every kit)",
        ));
    }
    let targets = export_targets(registry);
    if let Some(def) = registry.def("export-csv") {
        let export = Command::new("export")
            .arg(
                clap::Arg::new("to")
                    .long("to")
                    .required(true)
                    .value_parser(clap::builder::PossibleValuesParser::new(targets))
                    .help("What to export for"),
            )
            .arg(
                clap::Arg::new("foundry_version")
                    .long("foundry-version")
                    .value_name("12|13")
                    .value_parser(clap::value_parser!(u8).range(12..=13))
                    .help("Foundry VTT's schema generation: 13 (default) or 12"),
            )
            .next_help_heading("Options of export");
        let export = def.args(export).next_help_heading("Options of every kind");
        cmd = cmd.subcommand(MakeArgs::augment_args(export).about(
            "Export tables (and, for Foundry, decks) for a virtual tabletop or a spreadsheet, into \
             --out/export/<target>/ (`make export-TARGET`)",
        ));
    }
    cmd
}

/// The old spelling `make [OPTIONS] KIND [OPTIONS]` (options before the kind), which `make` took before
/// each kind had a command of its own: the arguments with the kind moved to just after `make`, and a
/// deprecation note on stderr. It keeps working for one release. Options of `make` itself (`--list`)
/// and arguments already in the new order are left as they are.
pub fn old_make_order(
    cmd: &Command,
    args: &[std::ffi::OsString],
) -> Option<Vec<std::ffi::OsString>> {
    let at = args.iter().position(|a| a == "make")?;
    let make = cmd.find_subcommand("make")?;
    let first = args.get(at + 1)?.to_str()?;
    if !first.starts_with('-') || first == "--list" || first == "-h" || first == "--help" {
        return None;
    }
    // Any kind's command knows which shared options take a value (`--out DIR`) and which do not.
    let example = make.get_subcommands().next()?;
    let takes_value = |flag: &str| {
        let name = flag.trim_start_matches('-');
        let name = name.split('=').next().unwrap_or(name);
        !flag.contains('=')
            && example
                .get_arguments()
                .chain(cmd.get_arguments())
                .find(|a| {
                    a.get_long() == Some(name)
                        || (name.len() == 1
                            && a.get_short().map(String::from).as_deref() == Some(name))
                })
                .is_some_and(|a| a.get_action().takes_values())
    };
    let mut i = at + 1;
    while let Some(a) = args.get(i).and_then(|a| a.to_str()) {
        if a == "--" {
            return None;
        }
        if a.starts_with('-') {
            i += if takes_value(a) { 2 } else { 1 };
            continue;
        }
        make.find_subcommand(a)?;
        let mut out = args.to_vec();
        let kind = out.remove(i);
        out.insert(at + 1, kind.clone());
        super::term::eprint(&format!(
            "warning: options before the kind are deprecated; write `blockprint make {} [OPTIONS]`\n",
            kind.to_string_lossy()
        ));
        return Some(out);
    }
    None
}

/// Run a command the registry defines, if `name` is one: `make KIND`, an alias, `kit` or `export`; its
/// news goes to `term`.
pub fn dispatch(name: &str, m: &ArgMatches, term: &Terminal) -> Option<Result<()>> {
    match name {
        "make" => {
            let (kind, sub) = m.subcommand()?;
            Some(make(&[kind.to_owned()], None, sub, term))
        }
        "kit" => Some(kit(m, term)),
        "export" => Some(export(m, term)),
        n if ALIASES.contains(&n) => Some(make(&[n.to_owned()], None, m, term)),
        _ => None,
    }
}

/// Make `kinds` with the options parsed from `m` (the same options for each), or with `options`.
fn make(kinds: &[String], options: Option<Value>, m: &ArgMatches, term: &Terminal) -> Result<()> {
    let args = MakeArgs::from_arg_matches(m).map_err(arguments)?;
    let project = args.project()?;
    let mut jobs = Vec::new();
    for name in kinds {
        let def = project.def(name)?;
        let options = match &options {
            Some(o) => o.clone(),
            None => def.options_from_args(m)?,
        };
        jobs.push((name.as_str(), options));
    }
    // A paper given to kinds that lay nothing out on paper (`export-csv --paper letter`) would be
    // ignored: refused instead. (A kind that makes PDFs keeps it with `--format json`: its document
    // data names the paper the PDF would be laid out on.)
    if m.value_source("paper") == Some(clap::parser::ValueSource::CommandLine) {
        let mut pdf = false;
        for (name, _) in &jobs {
            pdf |= project.def(name)?.info().formats.contains(&Format::Pdf);
        }
        if !pdf {
            let what = match kinds {
                [one] => format!("`{one}` makes no PDF"),
                _ => "none of these kinds makes a PDF".to_owned(),
            };
            return Err(FrontError::PaperUnused { what }.into());
        }
    }
    // A batch's options given where nothing rolls (`detective --pregenerated --seed 3`, `kit
    // urban-world --count 2`) would be ignored: refused instead.
    let given: Vec<&'static str> = ["seed", "first_number", "count"]
        .into_iter()
        .filter(|id| m.value_source(id) == Some(clap::parser::ValueSource::CommandLine))
        .collect();
    let rolls_any = || -> Result<bool> {
        let names: Vec<&str> = jobs.iter().map(|(n, _)| *n).collect();
        let cx = project.checked_names(&names)?;
        for (name, options) in &jobs {
            if project.def(name)?.configure(cx, options)?.rolls() {
                return Ok(true);
            }
        }
        Ok(false)
    };
    if !given.is_empty() && !rolls_any()? {
        let what = match kinds {
            [one] => format!("`{one}` with these options rolls nothing"),
            _ => "none of these kinds rolls".to_owned(),
        };
        return Err(FrontError::BatchUnused { what, given }.into());
    }
    project
        .make(&jobs, &batch_of(m)?, &args.output(), term)
        .map(drop)
}

/// `kit GAME`: `make kit-GAME`, or every kit.
fn kit(m: &ArgMatches, term: &Terminal) -> Result<()> {
    let game = m.get_one::<String>("game").cloned().unwrap_or_default();
    let kinds: Vec<String> = if game == "all" {
        let args = MakeArgs::from_arg_matches(m).map_err(arguments)?;
        kit_games(args.project()?.registry())
            .into_iter()
            .map(|g| format!("kit-{g}"))
            .collect()
    } else {
        vec![format!("kit-{game}")]
    };
    make(&kinds, None, m, term)
}

/// `export --to TARGET [--foundry-version N] [IDS…]`: `make export-TARGET [IDS…]`.
fn export(m: &ArgMatches, term: &Terminal) -> Result<()> {
    let to = m.get_one::<String>("to").cloned().unwrap_or_default();
    let version = m.get_one::<u8>("foundry_version").copied();
    let kind = match (to.as_str(), version) {
        ("foundry", None | Some(13)) => "export-foundry".to_owned(),
        ("foundry", Some(12)) => "export-foundry-v12".to_owned(),
        ("foundry", Some(v)) => {
            return Err(FrontError::FoundryVersion { given: v }.into());
        }
        (_, Some(_)) => {
            return Err(FrontError::FoundryVersionOnly.into());
        }
        (t, None) => format!("export-{t}"),
    };
    // The alias takes the CSV export's flags, which are every export's and --excel.
    if kind != "export-csv" && m.try_get_one::<bool>("excel").ok().flatten() == Some(&true) {
        return Err(FrontError::ExcelOnly.into());
    }
    make(&[kind], None, m, term)
}

/// `make --list` (with `--json`, the same as JSON).
pub(super) fn list(content: &ContentArg, json: bool) -> Result<()> {
    let project = Project::open(content.content.as_deref(), content.templates.as_deref())?;
    if json {
        let kinds: Vec<Value> = project
            .registry()
            .defs()
            .map(|d| {
                let k = d.info();
                serde_json::json!({
                    "name": k.name,
                    "title": k.title,
                    "about": k.about,
                    "formats": k.formats,
                    "folder": k.folder,
                    "papers": k.papers,
                    "rolls": d.rolls(),
                })
            })
            .collect();
        return match super::print_json(&kinds) {
            super::Status::Ok => Ok(()),
            _ => Err(FrontError::Output {
                what: "the list as JSON",
            }
            .into()),
        };
    }
    let width = project
        .registry()
        .kinds()
        .map(|k| k.name().len())
        .max()
        .unwrap_or(0);
    for k in project.registry().kinds() {
        outln!(
            "{:<width$} {} ({}; into <out>/{}/)",
            k.name(),
            k.about(),
            crate::project::format_list(k.formats()),
            k.folder()
        );
    }
    Ok(())
}

/// `build`: every kind the content offers, the case kind with the year given.
pub(super) fn build(
    content: &ContentArg,
    batch: &BatchArgs,
    case: &crate::generators::case::Options,
    output: &OutputArgs,
    fonts: &FontArgs,
    count: u32,
    term: &Terminal,
) -> Result<()> {
    let fonts = fonts.load()?;
    let project =
        Project::open(content.content.as_deref(), content.templates.as_deref())?.with_fonts(fonts);
    let batch = Batch {
        seed: batch.seed,
        first_number: batch.first_number,
        count,
    };
    let case = serde_json::to_value(case).map_err(|e| Bug::json("the case", e))?;
    project.build_with(
        &batch,
        &[(&crate::generators::case::INFO.name, case)],
        &self::output(output, Vec::new()),
        term,
    )
}

/// The error for an option given to a kind's command (`make KIND`, an alias, `kit`, `export`) that this
/// kind does not take but another command that makes files does (`sheet --year 1980`): it names the
/// kind, the commands that take the option and the options the kind takes. `None` for any other error,
/// which clap reports itself.
pub fn foreign_option(
    cmd: &Command,
    args: &[std::ffi::OsString],
    e: &clap::Error,
) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(given)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let flag = given
        .split('=')
        .next()
        .unwrap_or(given)
        .strip_prefix("--")?;
    // The command the arguments name: the first word that is a command, then a kind of `make`.
    let words: Vec<String> = args
        .iter()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let top = words.iter().find_map(|w| cmd.find_subcommand(w))?;
    let (kind, path) = if top.get_name() == "make" {
        let kind = words.iter().find_map(|w| top.find_subcommand(w))?;
        (kind, format!("make {}", kind.get_name()))
    } else if top.get_name() == "kit"
        || top.get_name() == "export"
        || ALIASES.contains(&top.get_name())
    {
        (top, top.get_name().to_owned())
    } else {
        return None;
    };
    let takes = |c: &Command| c.get_arguments().any(|a| a.get_long() == Some(flag));
    let make = cmd.find_subcommand("make")?;
    let others: Vec<&str> = make
        .get_subcommands()
        .chain(cmd.find_subcommand("build"))
        .filter(|c| c.get_name() != kind.get_name() && takes(c))
        .map(Command::get_name)
        .collect();
    if others.is_empty() {
        return None;
    }
    let own: Vec<String> = kind
        .get_arguments()
        .filter(|a| {
            !a.is_hide_set() && !["help", "color", "check_pages"].contains(&a.get_id().as_str())
        })
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect();
    let name = kind.get_name();
    let what = if name == "kit" || name == "export" {
        format!("`{name}`")
    } else {
        format!("the {name} kind")
    };
    let others = match others.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => others.join(""),
    };
    Some(format!(
        "error: {what} takes no --{flag} ({others} {} it)\n  = note: the options of `blockprint {path}` are {}\n  \
         = help: `blockprint {path} --help` says what each does\n",
        if others.contains(" and ") {
            "take"
        } else {
            "takes"
        },
        own.join(", ")
    ))
}

/// The command line as typed (arguments with spaces quoted), for the manifest. `--out` is left out: the
/// manifest lives in that folder, and the same run into another folder writes the same manifest.
pub(super) fn command_line() -> String {
    let mut words = vec!["blockprint".to_owned()];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--out" {
            args.next();
            continue;
        }
        if a.starts_with("--out=") {
            continue;
        }
        if a.is_empty()
            || a.chars()
                .any(|c| c.is_whitespace() || c == '\'' || c == '"')
        {
            words.push(format!("'{}'", a.replace('\'', "'\\''")));
        } else {
            words.push(a);
        }
    }
    words.join(" ")
}

/// Arguments clap parsed that do not read back as the command's: its message, typed.
fn arguments(e: clap::Error) -> Error {
    FrontError::Arguments {
        message: e.to_string(),
    }
    .into()
}
