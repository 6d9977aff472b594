//! The document kinds' errors, typed: what went wrong ([`Problem`], with its data, not a sentence), a
//! stable code for each (`kinds-…`) and the exit status it maps to (1 when the content is at fault, 2 for
//! a bad option or a file in the way, 70 for a bug in blockprint). Every message is worded here, once.
//! A message that speaks of a kind's options names each through a function of [`Opt`]: the kinds' own
//! words by default ("the card size", [`Problem`]'s `Display`), the command line's flags
//! (`--card-size`) when the command line asks ([`Problem::message`] with its naming function), the
//! studio's form labels when it does. A problem travels in the shared error as a
//! [`Coded`](blockprint_content::error::Coded) (`?` converts it), keeping its code, status and options.
//! The codes are listed in `docs/errors.md`.
//!
//! ```
//! use blockprint_kinds::error::{Opt, Problem};
//! let p = Problem::Grid { given: "3y".into() };
//! assert_eq!(p.code(), "kinds-grid");
//! assert_eq!(p.to_string(), "the cards per sheet `3y`: give columns x rows, each 1 to 20, such as 3x3");
//! let flag = |o: Opt| format!("--{}", o.id().replace('_', "-"));
//! assert_eq!(p.message(&flag), "--grid `3y`: give columns x rows, each 1 to 20, such as 3x3");
//! ```

use std::fmt;
use std::path::PathBuf;

use crate::cards::layout::mm;

/// An option of a kind, as the kinds name it. [`Opt::id`] is the name of its argument (the clap id, the
/// key in the kind's JSON options), from which the command line spells its flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Opt {
    /// `case`: the year of the case numbers.
    Year,
    /// `case`: how many cases the year holds.
    YearCases,
    /// `deck`, `cards`: the card size.
    CardSize,
    Gutter,
    Bleed,
    PrinterMargin,
    Grid,
    BackOffset,
    AlignmentPage,
    Single,
    Png,
    /// `detective`: fillable PDF forms.
    Fillable,
    /// Every kind: which formats to write.
    Format,
    /// `npc`: the level.
    Level,
    /// `npc`: the class.
    Class,
    /// The export target (`export`'s, which picks the `export-…` kind).
    To,
}

impl Opt {
    /// Every option.
    pub const ALL: [Opt; 16] = [
        Opt::Year,
        Opt::YearCases,
        Opt::CardSize,
        Opt::Gutter,
        Opt::Bleed,
        Opt::PrinterMargin,
        Opt::Grid,
        Opt::BackOffset,
        Opt::AlignmentPage,
        Opt::Single,
        Opt::Png,
        Opt::Fillable,
        Opt::Format,
        Opt::Level,
        Opt::Class,
        Opt::To,
    ];

    /// The option's argument id (`card_size`): its clap id and its key in the kind's JSON options.
    pub fn id(self) -> &'static str {
        match self {
            Opt::Year => "year",
            Opt::YearCases => "year_cases",
            Opt::CardSize => "card_size",
            Opt::Gutter => "gutter",
            Opt::Bleed => "bleed",
            Opt::PrinterMargin => "printer_margin",
            Opt::Grid => "grid",
            Opt::BackOffset => "back_offset",
            Opt::AlignmentPage => "alignment_page",
            Opt::Single => "single",
            Opt::Png => "png",
            Opt::Fillable => "fillable",
            Opt::Format => "format",
            Opt::Level => "level",
            Opt::Class => "class",
            Opt::To => "to",
        }
    }

    /// The option in words: "the card size".
    pub fn words(self) -> &'static str {
        match self {
            Opt::Year => "the year",
            Opt::YearCases => "the cases in the year",
            Opt::CardSize => "the card size",
            Opt::Gutter => "the space between cards",
            Opt::Bleed => "the bleed",
            Opt::PrinterMargin => "the printer's margin",
            Opt::Grid => "the cards per sheet",
            Opt::BackOffset => "the shift of the backs",
            Opt::AlignmentPage => "the alignment sheet",
            Opt::Single => "one card per page",
            Opt::Png => "the card pictures' folder",
            Opt::Fillable => "fillable forms",
            Opt::Format => "the formats",
            Opt::Level => "the level",
            Opt::Class => "the class",
            Opt::To => "export to",
        }
    }
}

/// Why a card size cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardSizeFault {
    /// Neither a named size nor `WxH`.
    Shape,
    /// A side that is not a length.
    NotLength(String),
    /// A side shorter than 20 mm or longer than 400 mm.
    Range,
}

/// Cards that do not fit on the paper: what was asked and what the paper leaves (lengths in µm).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fit {
    /// The grid asked for (`None`: as many as fit, and not one did).
    pub grid: Option<(u32, u32)>,
    /// The card size's name (`poker`, `63x88mm`) and its width and height.
    pub card: String,
    pub card_w: i64,
    pub card_h: i64,
    pub bleed: i64,
    pub gutter: i64,
    /// What the cards need.
    pub need_w: i64,
    pub need_h: i64,
    pub paper: String,
    pub margin: i64,
    /// What the paper leaves inside the margins.
    pub room_w: i64,
    pub room_h: i64,
    /// The largest grid that fits (0 × 0 when not one card does).
    pub largest: (u32, u32),
}

/// Why a table cannot be exported to Roll20.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Roll20Refusal {
    /// Its dice fall more equally likely ways than Roll20's weights add up to.
    Weight { dice: String, ways: String },
    /// A result uses a character that is TableExport's code for another.
    Code { why: String, ch: String },
    /// A result rolls dice Roll20 does not have.
    Roll { expr: String, why: String },
}

/// What is wrong, with the data to say so.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    // Options (exit 2).
    /// A year's cases fewer than the batch's last case number.
    YearCasesBelowLast { given: u32, last: u32 },
    /// A year outside the calendar.
    Year { given: i32, first: i32, last: i32 },
    /// A year's cases outside 1 to `max`.
    YearCases { given: u32, max: u32 },
    /// Options the command line parsed that do not read as the kind's options (clap's words).
    Args { message: String },
    /// JSON options that are not an object.
    OptionsNotObject { kind: String, given: String },
    /// A JSON option the kind does not have.
    NoSuchOption {
        kind: String,
        option: String,
        known: Vec<String>,
    },
    /// A JSON option's value of the wrong type (serde's words).
    OptionsValue { kind: String, message: String },
    /// A length option that is not a length.
    Length {
        option: Opt,
        given: String,
        negative: bool,
    },
    /// A card pictures' folder that is a file.
    PngIsFile { path: PathBuf },
    /// A card size that cannot be used.
    CardSize { given: String, fault: CardSizeFault },
    /// Bleed past 20 mm, a gutter or printer margin past 50 mm.
    LayoutLimits,
    /// Cards per sheet that are not `CxR`, each 1 to 20.
    Grid { given: String },
    /// A shift of the backs that is not `X,Y`.
    BackOffset { given: String },
    /// A shift of the backs past 20 mm.
    BackOffsetRange { given: String },
    /// One card per page with a grid or an alignment sheet.
    SingleWith,
    /// Cards that do not fit on the paper.
    DoesNotFit(Box<Fit>),
    /// A deck id the content does not have.
    NoSuchDeck { given: String, decks: Vec<String> },
    /// Table cards for a game other than Block by Block.
    NoTableCards { game: String },
    /// Fillable forms without PDF among the formats.
    FillableWithoutPdf,
    /// A level-0 NPC with a class.
    LevelZeroClass,
    /// A class the content does not have; `classes` are the ones it has, as the user may spell them.
    NoSuchClass {
        wanted: String,
        classes: Vec<String>,
    },
    /// A deck exported anywhere but Foundry VTT.
    DeckNotFoundry { id: String },
    /// An id that is no table or deck; `hint` is the nearest id, if any.
    NoTableOrDeck { id: String, hint: Option<String> },
    /// The Ready/Bolt/Flow odds card on a paper it does not print on.
    OddsCardPaper { paper: String },
    /// A folder without a campaign.
    NoCampaign { dir: PathBuf },
    /// A folder whose campaign state is gone but whose previous state is there.
    CampaignStateGone {
        dir: PathBuf,
        state: &'static str,
        previous: PathBuf,
        /// What the previous state holds, in words.
        holds: String,
        /// The command that restores it.
        restore: String,
    },
    /// Two layout kinds (or a layout kind and a built-in one) of the same name.
    KindExists { file: String, name: String },
    /// A layout kind's `kind.toml` that does not read (toml's words).
    KindToml {
        file: String,
        line: Option<usize>,
        message: String,
    },
    /// A layout kind listing a format only blockprint's exports write.
    KindFormat { file: String, format: String },
    /// A layout kind listing a format whose template is not there.
    KindTemplate {
        file: String,
        format: String,
        template: String,
    },
    /// A layout kind's name that is not lowercase letters, digits and `-`.
    KindName { file: String, name: String },

    // The content (exit 1).
    /// No `[[book]]`.
    NoBook,
    /// No `[[kit]]` of the game.
    NoKit { game: String },
    /// A kit without a prose page it prints.
    NoKitPage {
        game: String,
        page: String,
        folder: String,
    },
    /// A kit's prose page without a part the kit prints.
    KitPageHeading {
        file: String,
        missing: String,
        headings: Vec<String>,
    },
    /// Something a kind needs that the content lacks (the checker names it too).
    Needs { kind: String, what: String },
    /// Dice the content gives that cannot be rolled (in `at`, when said).
    Dice {
        at: Option<String>,
        expr: String,
        message: String,
    },
    /// A row or cell of the content that cannot be read as the kind needs it.
    BadRow { at: String, why: String },
    /// A reference card label the prose page lacks.
    CardLabel {
        page: String,
        name: String,
        what: String,
        names: Vec<String>,
    },
    /// A prose page naming a slot the cards do not compute.
    UnknownSlot {
        page: String,
        slot: String,
        as_what: String,
    },
    /// Storypath's pool die that cannot be rolled.
    PoolDie { at: String, die: i64, target: i64 },
    /// A table Roll20 cannot take.
    Roll20 {
        table: String,
        at: String,
        row: String,
        refusal: Roll20Refusal,
    },
    /// A table the CSV pipe form (Foundry's rolls) cannot carry.
    CsvPipe {
        table: String,
        at: String,
        why: String,
    },
    /// A table Foundry VTT cannot roll as the content does.
    Foundry {
        table: String,
        at: String,
        why: String,
    },
    /// Two tables whose exports would share a name.
    SlugClash {
        first: String,
        first_at: String,
        second: String,
        second_at: String,
        slug: String,
    },
    /// No decks at all.
    NoDecks { source: String },
    /// No stock NPCs at all.
    NoStockNpcs,
    /// A kit's chase page its content cannot carry (the chase's own error).
    KitChase(blockprint_chase::OptionError),

    // Bugs in blockprint (exit 70).
    /// Checked content without something the checker guarantees.
    Unchecked { what: String },
    /// A document number past a kind's count.
    NoDocument {
        kind: String,
        index: usize,
        count: usize,
    },
    /// An export that does not read back as the content reads; nothing was written.
    ExportCheck {
        export: String,
        item: String,
        why: String,
    },
    /// Something that cannot be written (JSON, CSV, a PDF's boxes), in its library's words.
    Write { what: String, message: String },
    /// An options struct without defaults.
    Defaults { message: String },
    /// Anything else that cannot happen.
    Invariant { what: String },
}

impl Problem {
    /// Every code, in the order `docs/errors.md` lists them.
    pub const CODES: [&'static str; 54] = [
        "kinds-year-cases-below-last",
        "kinds-year",
        "kinds-year-cases",
        "kinds-args",
        "kinds-options-not-object",
        "kinds-no-such-option",
        "kinds-options-value",
        "kinds-length",
        "kinds-png-is-file",
        "kinds-card-size",
        "kinds-layout-limits",
        "kinds-grid",
        "kinds-back-offset",
        "kinds-back-offset-range",
        "kinds-single-with",
        "kinds-does-not-fit",
        "kinds-no-such-deck",
        "kinds-no-table-cards",
        "kinds-fillable-without-pdf",
        "kinds-level-zero-class",
        "kinds-no-such-class",
        "kinds-deck-not-foundry",
        "kinds-no-table-or-deck",
        "kinds-odds-card-paper",
        "kinds-no-campaign",
        "kinds-campaign-state-gone",
        "kinds-kind-exists",
        "kinds-kind-toml",
        "kinds-kind-format",
        "kinds-kind-template",
        "kinds-kind-name",
        "kinds-no-book",
        "kinds-no-kit",
        "kinds-no-kit-page",
        "kinds-kit-page-heading",
        "kinds-needs",
        "kinds-dice",
        "kinds-bad-row",
        "kinds-card-label",
        "kinds-unknown-slot",
        "kinds-pool-die",
        "kinds-roll20",
        "kinds-csv-pipe",
        "kinds-foundry",
        "kinds-slug-clash",
        "kinds-no-decks",
        "kinds-no-stock-npcs",
        "kinds-kit-chase",
        "kinds-unchecked",
        "kinds-no-document",
        "kinds-export-check",
        "kinds-write",
        "kinds-defaults",
        "kinds-invariant",
    ];

    /// The problem's stable code (kebab case, `kinds-…`).
    pub fn code(&self) -> &'static str {
        match self {
            Problem::YearCasesBelowLast { .. } => "kinds-year-cases-below-last",
            Problem::Year { .. } => "kinds-year",
            Problem::YearCases { .. } => "kinds-year-cases",
            Problem::Args { .. } => "kinds-args",
            Problem::OptionsNotObject { .. } => "kinds-options-not-object",
            Problem::NoSuchOption { .. } => "kinds-no-such-option",
            Problem::OptionsValue { .. } => "kinds-options-value",
            Problem::Length { .. } => "kinds-length",
            Problem::PngIsFile { .. } => "kinds-png-is-file",
            Problem::CardSize { .. } => "kinds-card-size",
            Problem::LayoutLimits => "kinds-layout-limits",
            Problem::Grid { .. } => "kinds-grid",
            Problem::BackOffset { .. } => "kinds-back-offset",
            Problem::BackOffsetRange { .. } => "kinds-back-offset-range",
            Problem::SingleWith => "kinds-single-with",
            Problem::DoesNotFit(_) => "kinds-does-not-fit",
            Problem::NoSuchDeck { .. } => "kinds-no-such-deck",
            Problem::NoTableCards { .. } => "kinds-no-table-cards",
            Problem::FillableWithoutPdf => "kinds-fillable-without-pdf",
            Problem::LevelZeroClass => "kinds-level-zero-class",
            Problem::NoSuchClass { .. } => "kinds-no-such-class",
            Problem::DeckNotFoundry { .. } => "kinds-deck-not-foundry",
            Problem::NoTableOrDeck { .. } => "kinds-no-table-or-deck",
            Problem::OddsCardPaper { .. } => "kinds-odds-card-paper",
            Problem::NoCampaign { .. } => "kinds-no-campaign",
            Problem::CampaignStateGone { .. } => "kinds-campaign-state-gone",
            Problem::KindExists { .. } => "kinds-kind-exists",
            Problem::KindToml { .. } => "kinds-kind-toml",
            Problem::KindFormat { .. } => "kinds-kind-format",
            Problem::KindTemplate { .. } => "kinds-kind-template",
            Problem::KindName { .. } => "kinds-kind-name",
            Problem::NoBook => "kinds-no-book",
            Problem::NoKit { .. } => "kinds-no-kit",
            Problem::NoKitPage { .. } => "kinds-no-kit-page",
            Problem::KitPageHeading { .. } => "kinds-kit-page-heading",
            Problem::Needs { .. } => "kinds-needs",
            Problem::Dice { .. } => "kinds-dice",
            Problem::BadRow { .. } => "kinds-bad-row",
            Problem::CardLabel { .. } => "kinds-card-label",
            Problem::UnknownSlot { .. } => "kinds-unknown-slot",
            Problem::PoolDie { .. } => "kinds-pool-die",
            Problem::Roll20 { .. } => "kinds-roll20",
            Problem::CsvPipe { .. } => "kinds-csv-pipe",
            Problem::Foundry { .. } => "kinds-foundry",
            Problem::SlugClash { .. } => "kinds-slug-clash",
            Problem::NoDecks { .. } => "kinds-no-decks",
            Problem::NoStockNpcs => "kinds-no-stock-npcs",
            Problem::KitChase(_) => "kinds-kit-chase",
            Problem::Unchecked { .. } => "kinds-unchecked",
            Problem::NoDocument { .. } => "kinds-no-document",
            Problem::ExportCheck { .. } => "kinds-export-check",
            Problem::Write { .. } => "kinds-write",
            Problem::Defaults { .. } => "kinds-defaults",
            Problem::Invariant { .. } => "kinds-invariant",
        }
    }

    /// The exit status a command ends with: 1 when the content is at fault, 2 for a bad option (or a
    /// folder in the way), 70 for a bug in blockprint.
    pub fn exit_code(&self) -> u8 {
        match self {
            Problem::NoBook
            | Problem::NoKit { .. }
            | Problem::NoKitPage { .. }
            | Problem::KitPageHeading { .. }
            | Problem::Needs { .. }
            | Problem::Dice { .. }
            | Problem::BadRow { .. }
            | Problem::CardLabel { .. }
            | Problem::UnknownSlot { .. }
            | Problem::PoolDie { .. }
            | Problem::Roll20 { .. }
            | Problem::CsvPipe { .. }
            | Problem::Foundry { .. }
            | Problem::SlugClash { .. }
            | Problem::NoDecks { .. }
            | Problem::NoStockNpcs => 1,
            // A kit's own chase is content: its fault is the content's, unless it is a bug.
            Problem::KitChase(e) if e.exit_code() == 70 => 70,
            Problem::KitChase(_) => 1,
            Problem::Unchecked { .. }
            | Problem::NoDocument { .. }
            | Problem::ExportCheck { .. }
            | Problem::Write { .. }
            | Problem::Defaults { .. }
            | Problem::Invariant { .. } => 70,
            _ => 2,
        }
    }

    /// The options the message names (a front that shows its own names for them can check it knows
    /// each).
    pub fn options(&self) -> Vec<Opt> {
        match self {
            Problem::YearCasesBelowLast { .. } | Problem::YearCases { .. } => vec![Opt::YearCases],
            Problem::Year { .. } => vec![Opt::Year],
            Problem::Length { option, .. } => vec![*option],
            Problem::PngIsFile { .. } => vec![Opt::Png],
            Problem::CardSize { .. } => vec![Opt::CardSize],
            Problem::LayoutLimits => vec![Opt::Bleed, Opt::Gutter, Opt::PrinterMargin],
            Problem::Grid { .. } => vec![Opt::Grid],
            Problem::BackOffset { .. } | Problem::BackOffsetRange { .. } => vec![Opt::BackOffset],
            Problem::SingleWith => vec![Opt::Single, Opt::Grid, Opt::AlignmentPage],
            Problem::DoesNotFit(f) if f.largest.0 > 0 && f.largest.1 > 0 => {
                vec![Opt::Grid, Opt::Bleed, Opt::Gutter, Opt::PrinterMargin]
            }
            Problem::DoesNotFit(_) => {
                vec![Opt::CardSize, Opt::Bleed, Opt::Gutter, Opt::PrinterMargin]
            }
            Problem::FillableWithoutPdf => vec![Opt::Fillable, Opt::Format],
            Problem::LevelZeroClass => vec![Opt::Level, Opt::Class],
            Problem::DeckNotFoundry { .. } => vec![Opt::To],
            Problem::Roll20 { .. } | Problem::Foundry { .. } => vec![Opt::To],
            _ => Vec::new(),
        }
    }

    /// The message, each option named by `name` (the command line passes its flags, `--card-size`);
    /// `Display` names them in the kinds' own words.
    pub fn message(&self, name: &dyn Fn(Opt) -> String) -> String {
        match self {
            Problem::YearCasesBelowLast { given, last } => format!(
                "{} {given} is less than the last case number of this batch ({last}); give at least {last}",
                name(Opt::YearCases)
            ),
            Problem::Year { given, first, last } => format!(
                "{} {given}: the calendar runs from {first} to {last}",
                name(Opt::Year)
            ),
            Problem::YearCases { given, max } => format!(
                "{} {given}: a year holds 1 to {max} cases",
                name(Opt::YearCases)
            ),
            Problem::Args { message } => message.clone(),
            Problem::OptionsNotObject { kind, given } => format!(
                "the options of `{kind}` are an object of option names and values, not {given}"
            ),
            Problem::NoSuchOption {
                kind,
                option,
                known,
            } => format!(
                "`{kind}` has no option `{option}`; {}",
                if known.is_empty() {
                    "it takes none".to_owned()
                } else {
                    format!("the options there are: {}", known.join(", "))
                }
            ),
            Problem::OptionsValue { kind, message } => {
                format!("the options of `{kind}`: {message}")
            }
            Problem::Length {
                option,
                given,
                negative: true,
            } => format!(
                "{} `{given}`: a length cannot be negative; give 0 or more, such as 3mm",
                name(*option)
            ),
            Problem::Length { option, given, .. } => format!(
                "{} `{given}`: give a length such as 0, 3mm, 0.125in or 9pt",
                name(*option)
            ),
            Problem::PngIsFile { path } => format!(
                "{} `{}` is a file, not a folder; give a folder (it is made if missing)",
                name(Opt::Png),
                path.display()
            ),
            Problem::CardSize { given, fault } => {
                let help = "give poker, bridge, tarot, mini or a size WxH such as 63x88mm or 2.5x3.5in";
                let opt = name(Opt::CardSize);
                match fault {
                    CardSizeFault::Shape => format!("{opt} `{given}`: {help}"),
                    CardSizeFault::NotLength(side) => {
                        format!("{opt} `{given}`: `{side}` is not a length; {help}")
                    }
                    CardSizeFault::Range => {
                        format!("{opt} `{given}`: each side must be between 20 mm and 400 mm")
                    }
                }
            }
            Problem::LayoutLimits => format!(
                "{} is at most 20mm, {} and {} at most 50mm",
                name(Opt::Bleed),
                name(Opt::Gutter),
                name(Opt::PrinterMargin)
            ),
            Problem::Grid { given } => format!(
                "{} `{given}`: give columns x rows, each 1 to 20, such as 3x3",
                name(Opt::Grid)
            ),
            Problem::BackOffset { given } => format!(
                "{} `{given}`: give X,Y lengths such as 1.5mm,-0.5mm (X right, Y down)",
                name(Opt::BackOffset)
            ),
            Problem::BackOffsetRange { given } => format!(
                "{} `{given}`: each offset is at most 20mm",
                name(Opt::BackOffset)
            ),
            Problem::SingleWith => format!(
                "{} prints one card per page: leave out {} and {}",
                name(Opt::Single),
                name(Opt::Grid),
                name(Opt::AlignmentPage)
            ),
            Problem::DoesNotFit(f) => does_not_fit(f, name),
            Problem::NoSuchDeck { given, decks } => format!(
                "`{given}` names no deck in the content\n  = help: the decks are: {}",
                if decks.is_empty() {
                    "(none)".to_owned()
                } else {
                    decks.join(", ")
                }
            ),
            Problem::NoTableCards { game } => {
                format!("`{game}`: blockprint has table cards for bbb (Block by Block) only")
            }
            Problem::FillableWithoutPdf => format!(
                "{} writes PDF forms: add pdf to {} (or leave {} out)",
                name(Opt::Fillable),
                name(Opt::Format),
                name(Opt::Format)
            ),
            Problem::LevelZeroClass => format!(
                "{} 0 makes a run-of-the-mill NPC, who has no class; leave out {} or give a level of 1 or more",
                name(Opt::Level),
                name(Opt::Class)
            ),
            Problem::NoSuchClass { wanted, classes } => format!(
                "there is no class `{wanted}`; the classes are {}",
                classes.join(", ")
            ),
            Problem::DeckNotFoundry { id } => format!(
                "`{id}` is a deck; decks export to Foundry only ({} foundry)",
                name(Opt::To)
            ),
            Problem::NoTableOrDeck { id, hint } => format!(
                "`{id}` names no table or deck in the content\n  = help: {}",
                match hint {
                    Some(hint) => format!("{hint} (`blockprint tables` lists every table id)"),
                    None => "`blockprint tables` lists every table id".into(),
                }
            ),
            Problem::OddsCardPaper { paper } => {
                format!("the Ready/Bolt/Flow odds card prints on a4 or letter, not {paper}")
            }
            Problem::NoCampaign { dir } => format!(
                "{} holds no campaign ({} is missing); start one with `blockprint campaign new {}`",
                dir.display(),
                crate::campaign::STATE_FILE,
                dir.display()
            ),
            Problem::CampaignStateGone {
                dir,
                state,
                previous,
                holds,
                restore,
            } => format!(
                "{} holds no {state}, but its previous state is in {}: {holds}. Whatever was recorded after that \
                 was only in {state}. Restore the previous state with\n    {restore}\nand run again what came after it \
                 (`blockprint campaign new` refuses this folder, so that no new campaign replaces this one's backup)",
                dir.display(),
                previous.display(),
            ),
            Problem::KindExists { file, name } => format!(
                "{file}: a document kind named `{name}` exists already; choose another `name`"
            ),
            Problem::KindToml {
                file,
                line,
                message,
            } => match line {
                Some(l) => format!("{file}:{l}: {message}"),
                None => format!("{file}: {message}"),
            },
            Problem::KindFormat { file, format } => format!(
                "{file}: `formats` may list \"pdf\", \"md\" and \"json\"; {format} files come only from blockprint's own exports"
            ),
            Problem::KindTemplate {
                file,
                format,
                template,
            } => format!(
                "{file}: `formats` lists {format} but there is no template `{template}`; add it or drop the format"
            ),
            Problem::KindName { file, name } => format!(
                "{file}: `name = \"{name}\"` must be lowercase letters, digits and `-`"
            ),
            Problem::NoBook => "the content has no `[[book]]`, so there is no SRD to make (`blockprint init DIR` writes the built-in content, whose bbb/srd/book.toml is an example)".into(),
            Problem::NoKit { game } => {
                format!("the content has no `[[kit]]` with `id = \"{game}\"`")
            }
            Problem::NoKitPage {
                game,
                page,
                folder,
            } => format!(
                "the `{game}` kit has no prose page `{page}`: list it in the kit's `pages` and write it as {folder}{page}.md (`blockprint init DIR` writes the built-in one)"
            ),
            Problem::KitPageHeading {
                file,
                missing,
                headings,
            } => format!(
                "{file} has no heading `## …` with the anchor `{missing}`, which the kit prints; its headings: {}",
                headings
                    .iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Problem::Needs { kind, what } => format!(
                "the `{kind}` generator needs `{what}`, which the content lacks (`blockprint check` names it)"
            ),
            Problem::Dice { at, expr, message } => match at {
                Some(at) => format!("`{at}`: `{expr}`: {message}"),
                None => format!("`{expr}`: {message}"),
            },
            Problem::BadRow { at, why } => format!("{at}: {why}"),
            Problem::CardLabel {
                page,
                name,
                what,
                names,
            } => format!(
                "{page}: the part `## Card labels` has no list item `- **{name}:** …`, the words {what} (it needs {})",
                names
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Problem::UnknownSlot {
                page,
                slot,
                as_what,
            } => format!(
                "{page} names `{slot}` as {as_what}, which the cards do not compute (edit the code span, or restore the page from the built-in content: `blockprint init DIR` writes it)"
            ),
            Problem::PoolDie { at, die, target } => format!(
                "{at}: a pool die must have 2 to 1000 sides and succeed on a number it can show (got d{die}, {target}+)"
            ),
            Problem::Roll20 {
                table,
                at,
                row,
                refusal,
            } => {
                let to = name(Opt::To);
                let (why, help) = match refusal {
                    Roll20Refusal::Weight { dice, ways } => (
                        format!(
                            "rolls `{dice}`, which falls {ways} equally likely ways: more weight than Roll20 takes ({})",
                            crate::export::roll20::MAX_TOTAL_WEIGHT
                        ),
                        format!(
                            "roll fewer dice or dice with fewer sides, or export the table to Foundry or CSV (`{to} foundry`, `{to} csv`)"
                        ),
                    ),
                    Roll20Refusal::Code { why, ch } => (
                        why.clone(),
                        format!("write `{ch}` itself; the export writes it in TableExport's code"),
                    ),
                    Roll20Refusal::Roll { expr, why } => (
                        format!("rolls `{{{expr}}}`, with {why}"),
                        format!(
                            "write dice Roll20 has (a plain `1d100` with a note for a bonus or penalty die), or export the table to CSV (`{to} csv`)"
                        ),
                    ),
                };
                format!(
                    "table `{table}` ({at}) cannot be exported to Roll20: its row at {row} {why}\n  = help: {help}"
                )
            }
            Problem::CsvPipe { table, at, why } => format!(
                "table `{table}` ({at}) cannot be written in the CSV pipe form, whose rolls are Foundry VTT's: {why}\n  = help: write dice Foundry rolls the same way (`!` for dice that explode into separate dice)"
            ),
            Problem::Foundry { table, at, why } => {
                let to = name(Opt::To);
                format!(
                    "table `{table}` ({at}) cannot be exported to Foundry VTT: {why}\n  = help: export it to Roll20 or CSV (`{to} roll20`, `{to} csv`), or write dice Foundry rolls the same way (`!` for dice that explode into separate dice)"
                )
            }
            Problem::SlugClash {
                first,
                first_at,
                second,
                second_at,
                slug,
            } => format!(
                "tables `{first}` ({first_at}) and `{second}` ({second_at}) would both export as `{slug}`, since exports write `.` as `_`\n  = help: rename one of the two ids"
            ),
            Problem::NoDecks { source } => format!("the content in {source} has no decks"),
            Problem::NoStockNpcs => "the content has no stock NPCs (`[[npc]]`)".into(),
            Problem::KitChase(e) => e.to_string(),
            Problem::Unchecked { what } => format!("checked content {what}"),
            Problem::NoDocument { kind, index, count } => {
                format!("`{kind}` has no document {index}: it makes {count}")
            }
            Problem::ExportCheck { export, item, why } => format!(
                "the {export} export of {item} does not read back as the content reads: {why}; nothing was written"
            ),
            Problem::Write { what, message } => format!("cannot write {what}: {message}"),
            Problem::Defaults { message } => {
                format!("an options struct has no defaults: {message}")
            }
            Problem::Invariant { what } => what.clone(),
        }
    }
}

/// The message of [`Problem::DoesNotFit`]: what the cards need, what the paper leaves, and the fix.
fn does_not_fit(f: &Fit, name: &dyn Fn(Opt) -> String) -> String {
    let what = format!(
        "{} {} card{} ({} × {} mm{}{}) need {} × {} mm, but {} with {} mm printer margins leaves {} × {} mm",
        match f.grid {
            Some((c, r)) => format!("a {c}×{r} grid of"),
            None => "one".into(),
        },
        f.card,
        if f.grid.is_some() { "s" } else { "" },
        mm(f.card_w),
        mm(f.card_h),
        if f.bleed > 0 {
            format!(" + {} mm bleed", mm(f.bleed))
        } else {
            String::new()
        },
        if f.gutter > 0 {
            format!(", {} mm gutter", mm(f.gutter))
        } else {
            String::new()
        },
        mm(f.need_w),
        mm(f.need_h),
        f.paper,
        mm(f.margin),
        mm(f.room_w),
        mm(f.room_h),
    );
    let (bleed, gutter, margin) = (
        name(Opt::Bleed),
        name(Opt::Gutter),
        name(Opt::PrinterMargin),
    );
    let help = match f.largest {
        (fc, fr) if fc > 0 && fr > 0 => format!(
            "the largest grid that fits is {fc}×{fr} ({} cards a page): pass {} {fc}x{fr} or leave {} out, or make {bleed}, {gutter} or {margin} smaller",
            fc * fr,
            name(Opt::Grid),
            name(Opt::Grid)
        ),
        _ => format!(
            "not one card fits: choose a smaller {}, or make {bleed}, {gutter} or {margin} smaller",
            name(Opt::CardSize)
        ),
    };
    format!("{what}\n  = help: {help}")
}

/// The message in the kinds' own words: "the card size `huge`: …".
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(&|o| o.words().to_owned()))
    }
}

impl std::error::Error for Problem {}

/// How the shared error carries a problem: its code, exit status and options (by id), the message
/// with the options named a front's way (the command line: `--card-size`).
impl blockprint_content::error::Coded for Problem {
    fn code(&self) -> &'static str {
        Problem::code(self)
    }

    fn exit_code(&self) -> u8 {
        Problem::exit_code(self)
    }

    fn options(&self) -> Vec<&'static str> {
        Problem::options(self).into_iter().map(Opt::id).collect()
    }

    fn named(&self, name: &dyn Fn(&'static str) -> String) -> String {
        self.message(&|o| name(o.id()))
    }
}

/// A value as JSON for a document's data; failing is a bug ([`Problem::Write`]).
pub(crate) fn json<T: serde::Serialize + ?Sized>(
    what: &str,
    value: &T,
) -> blockprint_content::error::Result<serde_json::Value> {
    serde_json::to_value(value).map_err(|e| write(what, e))
}

/// A value as pretty JSON text, with a final newline; failing is a bug ([`Problem::Write`]).
pub(crate) fn json_text<T: serde::Serialize + ?Sized>(
    what: &str,
    value: &T,
) -> blockprint_content::error::Result<String> {
    Ok(serde_json::to_string_pretty(value).map_err(|e| write(what, e))? + "\n")
}

/// [`Problem::Write`] of `what`, with its library's words.
pub(crate) fn write(what: &str, e: impl fmt::Display) -> blockprint_content::error::Error {
    Problem::Write {
        what: what.to_owned(),
        message: e.to_string(),
    }
    .into()
}

/// [`Problem::Unchecked`]: checked content that `what` (lacks table `x`).
pub(crate) fn unchecked(what: impl Into<String>) -> blockprint_content::error::Error {
    Problem::Unchecked { what: what.into() }.into()
}

/// [`Problem::Invariant`].
pub(crate) fn invariant(what: impl Into<String>) -> blockprint_content::error::Error {
    Problem::Invariant { what: what.into() }.into()
}

/// [`Problem::NoDocument`].
pub(crate) fn no_document(
    kind: impl Into<String>,
    index: usize,
    count: usize,
) -> blockprint_content::error::Error {
    Problem::NoDocument {
        kind: kind.into(),
        index,
        count,
    }
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One problem of each kind (the match below fails to compile when a kind is added and not here).
    fn one_of_each() -> Vec<Problem> {
        let s = String::new;
        let all = vec![
            Problem::YearCasesBelowLast { given: 3, last: 7 },
            Problem::Year {
                given: 1800,
                first: 1900,
                last: 2100,
            },
            Problem::YearCases { given: 0, max: 9 },
            Problem::Args { message: s() },
            Problem::OptionsNotObject {
                kind: s(),
                given: s(),
            },
            Problem::NoSuchOption {
                kind: s(),
                option: s(),
                known: vec![],
            },
            Problem::OptionsValue {
                kind: s(),
                message: s(),
            },
            Problem::Length {
                option: Opt::Gutter,
                given: s(),
                negative: true,
            },
            Problem::PngIsFile { path: "x".into() },
            Problem::CardSize {
                given: s(),
                fault: CardSizeFault::Range,
            },
            Problem::LayoutLimits,
            Problem::Grid { given: s() },
            Problem::BackOffset { given: s() },
            Problem::BackOffsetRange { given: s() },
            Problem::SingleWith,
            Problem::DoesNotFit(Box::new(Fit {
                grid: None,
                card: "tarot".into(),
                card_w: 70_000,
                card_h: 120_000,
                bleed: 0,
                gutter: 0,
                need_w: 70_000,
                need_h: 120_000,
                paper: "a5".into(),
                margin: 50_000,
                room_w: 48_000,
                room_h: 110_000,
                largest: (0, 0),
            })),
            Problem::NoSuchDeck {
                given: s(),
                decks: vec![],
            },
            Problem::NoTableCards { game: s() },
            Problem::FillableWithoutPdf,
            Problem::LevelZeroClass,
            Problem::NoSuchClass {
                wanted: s(),
                classes: vec![],
            },
            Problem::DeckNotFoundry { id: s() },
            Problem::NoTableOrDeck {
                id: s(),
                hint: None,
            },
            Problem::OddsCardPaper { paper: s() },
            Problem::NoCampaign { dir: "x".into() },
            Problem::CampaignStateGone {
                dir: "x".into(),
                state: "campaign.toml",
                previous: "x".into(),
                holds: s(),
                restore: s(),
            },
            Problem::KindExists {
                file: s(),
                name: s(),
            },
            Problem::KindToml {
                file: s(),
                line: Some(1),
                message: s(),
            },
            Problem::KindFormat {
                file: s(),
                format: s(),
            },
            Problem::KindTemplate {
                file: s(),
                format: s(),
                template: s(),
            },
            Problem::KindName {
                file: s(),
                name: s(),
            },
            Problem::NoBook,
            Problem::NoKit { game: s() },
            Problem::NoKitPage {
                game: s(),
                page: s(),
                folder: s(),
            },
            Problem::KitPageHeading {
                file: s(),
                missing: s(),
                headings: vec![],
            },
            Problem::Needs {
                kind: s(),
                what: s(),
            },
            Problem::Dice {
                at: None,
                expr: s(),
                message: s(),
            },
            Problem::BadRow { at: s(), why: s() },
            Problem::CardLabel {
                page: s(),
                name: s(),
                what: s(),
                names: vec![],
            },
            Problem::UnknownSlot {
                page: s(),
                slot: s(),
                as_what: s(),
            },
            Problem::PoolDie {
                at: s(),
                die: 1,
                target: 2,
            },
            Problem::Roll20 {
                table: s(),
                at: s(),
                row: s(),
                refusal: Roll20Refusal::Weight {
                    dice: s(),
                    ways: s(),
                },
            },
            Problem::CsvPipe {
                table: s(),
                at: s(),
                why: s(),
            },
            Problem::Foundry {
                table: s(),
                at: s(),
                why: s(),
            },
            Problem::SlugClash {
                first: s(),
                first_at: s(),
                second: s(),
                second_at: s(),
                slug: s(),
            },
            Problem::NoDecks { source: s() },
            Problem::NoStockNpcs,
            Problem::KitChase(blockprint_chase::OptionError::new(
                blockprint_chase::Opt::Track,
                blockprint_chase::Problem::NoTracks,
            )),
            Problem::Unchecked { what: s() },
            Problem::NoDocument {
                kind: s(),
                index: 3,
                count: 2,
            },
            Problem::ExportCheck {
                export: s(),
                item: s(),
                why: s(),
            },
            Problem::Write {
                what: s(),
                message: s(),
            },
            Problem::Defaults { message: s() },
            Problem::Invariant { what: s() },
        ];
        for p in &all {
            match p {
                Problem::YearCasesBelowLast { .. }
                | Problem::Year { .. }
                | Problem::YearCases { .. }
                | Problem::Args { .. }
                | Problem::OptionsNotObject { .. }
                | Problem::NoSuchOption { .. }
                | Problem::OptionsValue { .. }
                | Problem::Length { .. }
                | Problem::PngIsFile { .. }
                | Problem::CardSize { .. }
                | Problem::LayoutLimits
                | Problem::Grid { .. }
                | Problem::BackOffset { .. }
                | Problem::BackOffsetRange { .. }
                | Problem::SingleWith
                | Problem::DoesNotFit(_)
                | Problem::NoSuchDeck { .. }
                | Problem::NoTableCards { .. }
                | Problem::FillableWithoutPdf
                | Problem::LevelZeroClass
                | Problem::NoSuchClass { .. }
                | Problem::DeckNotFoundry { .. }
                | Problem::NoTableOrDeck { .. }
                | Problem::OddsCardPaper { .. }
                | Problem::NoCampaign { .. }
                | Problem::CampaignStateGone { .. }
                | Problem::KindExists { .. }
                | Problem::KindToml { .. }
                | Problem::KindFormat { .. }
                | Problem::KindTemplate { .. }
                | Problem::KindName { .. }
                | Problem::NoBook
                | Problem::NoKit { .. }
                | Problem::NoKitPage { .. }
                | Problem::KitPageHeading { .. }
                | Problem::Needs { .. }
                | Problem::Dice { .. }
                | Problem::BadRow { .. }
                | Problem::CardLabel { .. }
                | Problem::UnknownSlot { .. }
                | Problem::PoolDie { .. }
                | Problem::Roll20 { .. }
                | Problem::CsvPipe { .. }
                | Problem::Foundry { .. }
                | Problem::SlugClash { .. }
                | Problem::NoDecks { .. }
                | Problem::NoStockNpcs
                | Problem::KitChase(_)
                | Problem::Unchecked { .. }
                | Problem::NoDocument { .. }
                | Problem::ExportCheck { .. }
                | Problem::Write { .. }
                | Problem::Defaults { .. }
                | Problem::Invariant { .. } => {}
            }
        }
        all
    }

    #[test]
    fn every_problem_has_its_own_listed_code_and_an_exit_status() {
        let codes: Vec<&str> = one_of_each().iter().map(Problem::code).collect();
        assert_eq!(codes, Problem::CODES);
        let mut unique = codes.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), codes.len(), "a code is used twice");
        for p in one_of_each() {
            assert!([1, 2, 70].contains(&p.exit_code()), "{}", p.code());
            // The kinds' own words name no flag.
            assert!(!p.to_string().contains("--"), "{}: {p}", p.code());
            // Every option the message names is listed, and no other.
            let named = std::cell::RefCell::new(Vec::new());
            p.message(&|o| {
                named.borrow_mut().push(o);
                String::new()
            });
            let ids = |os: Vec<Opt>| {
                let mut ids: Vec<&str> = os.into_iter().map(Opt::id).collect();
                ids.sort_unstable();
                ids.dedup();
                ids
            };
            assert_eq!(ids(named.into_inner()), ids(p.options()), "{}", p.code());
        }
    }

    #[test]
    fn the_exit_statuses_by_family() {
        let exits: Vec<(&str, u8)> = one_of_each()
            .iter()
            .map(|p| (p.code(), p.exit_code()))
            .collect();
        let of = |code: &str| exits.iter().find(|(c, _)| *c == code).unwrap().1;
        for code in [
            "kinds-grid",
            "kinds-no-such-option",
            "kinds-no-campaign",
            "kinds-kind-toml",
        ] {
            assert_eq!(of(code), 2, "{code}");
        }
        for code in [
            "kinds-no-kit",
            "kinds-roll20",
            "kinds-needs",
            "kinds-kit-chase",
        ] {
            assert_eq!(of(code), 1, "{code}");
        }
        for code in [
            "kinds-unchecked",
            "kinds-write",
            "kinds-no-document",
            "kinds-invariant",
        ] {
            assert_eq!(of(code), 70, "{code}");
        }
        // A bug in a kit's chase is a bug.
        let bug = Problem::KitChase(blockprint_chase::OptionError::new(
            blockprint_chase::Opt::System,
            blockprint_chase::Problem::Defaults {
                message: "x".into(),
            },
        ));
        assert_eq!(bug.exit_code(), 70);
    }

    #[test]
    fn a_message_per_family_in_words_and_with_flags() {
        let flag = |o: Opt| format!("--{}", o.id().replace('_', "-"));
        // An option: the library's words, the command line's flags.
        let p = Problem::LayoutLimits;
        assert_eq!(
            p.to_string(),
            "the bleed is at most 20mm, the space between cards and the printer's margin at most 50mm"
        );
        assert_eq!(
            p.message(&flag),
            "--bleed is at most 20mm, --gutter and --printer-margin at most 50mm"
        );
        assert_eq!((p.code(), p.exit_code()), ("kinds-layout-limits", 2));
        // The content.
        let p = Problem::NoKit { game: "rbf".into() };
        assert_eq!(
            p.to_string(),
            "the content has no `[[kit]]` with `id = \"rbf\"`"
        );
        assert_eq!((p.code(), p.exit_code()), ("kinds-no-kit", 1));
        // A bug.
        let p = Problem::NoDocument {
            kind: "kit-rbf".into(),
            index: 9,
            count: 4,
        };
        assert_eq!(p.to_string(), "`kit-rbf` has no document 9: it makes 4");
        assert_eq!((p.code(), p.exit_code()), ("kinds-no-document", 70));
        // Through the shared error: its code, status and option kept; the library's words, or a
        // front's names for the options.
        let e = blockprint_content::error::Error::from(Problem::Grid { given: "3y".into() });
        assert_eq!(
            (e.code(), e.exit_code(), e.options()),
            ("kinds-grid", 2, vec!["grid"])
        );
        assert_eq!(
            e.to_string(),
            "error: the cards per sheet `3y`: give columns x rows, each 1 to 20, such as 3x3"
        );
        assert_eq!(
            e.render(|id| format!("--{}", id.replace('_', "-"))),
            "error: --grid `3y`: give columns x rows, each 1 to 20, such as 3x3"
        );
        assert!(matches!(e.typed::<Problem>(), Some(Problem::Grid { .. })));
        let bug = blockprint_content::error::Error::from(Problem::Invariant { what: "x".into() });
        assert_eq!(
            bug.to_string(),
            "internal error (a bug in blockprint, please report it): x"
        );
    }

    #[test]
    fn every_option_is_an_argument_of_some_kind() {
        // `format` is every kind's (the command line's own flag) and `to` the `export` command's,
        // which picks the `export-…` kind; the rest are the kinds' own options.
        let mut ids: Vec<String> = vec!["format".into(), "to".into()];
        for def in crate::RUST_KINDS {
            let cmd = def.args(clap::Command::new("kind"));
            ids.extend(cmd.get_arguments().map(|a| a.get_id().to_string()));
        }
        for o in Opt::ALL {
            assert!(
                ids.iter().any(|id| id == o.id()),
                "{o:?}: no argument `{}`",
                o.id()
            );
        }
    }
}
