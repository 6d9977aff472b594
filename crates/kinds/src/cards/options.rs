//! The options of the card kinds, `deck` and `cards`: the layout flags both share, the decks or players
//! each takes, and the PNG pass `--png DIR` adds after the PDF.

use std::path::PathBuf;

use serde::Serialize;

use super::layout::{self, CardSize, Duplex};
use super::{CARDS, CardOptions, CardsKind, DECK, DeckKind};
use crate::error::{Opt, Problem};
use crate::{Checked, Kind, Request};
use blockprint_content::error::{Error, Result};
use blockprint_render::Engine;

/// The bleed of `--single` when `--bleed` is not given: 1/8 in, what print-on-demand services ask for.
pub const SINGLE_BLEED: i64 = layout::INCH / 8;

/// The layout options of `deck` and `cards` (flags on the command line, an object in JSON).
#[derive(Debug, Clone, clap::Args, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct LayoutOptions {
    /// Card size: poker (2.5 × 3.5 in, 63 × 88 mm), bridge (2.25 × 3.5 in, 57 × 89 mm), tarot
    /// (70 × 120 mm), mini (1.75 × 2.5 in, 44 × 63 mm), or WxH such as 63x88mm or 2.5x3.5in. The
    /// reference cards need a bridge card at least: on a smaller one (mini) they print on bridge cards.
    #[arg(
        long,
        default_value = "poker",
        value_name = "SIZE",
        allow_hyphen_values = true
    )]
    #[schemars(title = "Card size", description = "poker (63 × 88 mm), bridge (57 × 89 mm), tarot (70 × 120 mm), mini (44 × 63 mm), or width x height such as 63x88mm or 2.5x3.5in. The reference cards need a bridge card at least: on a smaller one (mini) they print on bridge cards.", extend("x-suggest" = ["poker", "bridge", "tarot", "mini"], "examples" = ["bridge"]))]
    pub card_size: String,
    /// Space between cards on a sheet: 0 (cards share their cut lines) or a length such as 3mm.
    #[arg(
        long,
        default_value = "0",
        value_name = "LENGTH",
        allow_hyphen_values = true
    )]
    #[schemars(title = "Space between cards", description = "0, so neighbouring cards share a cut line, or a length such as 3mm.", extend("examples" = ["3mm"]))]
    pub gutter: String,
    /// Bleed around each card: its colour runs this far past the cut (0, 3mm, 0.125in). Default: 0 on
    /// sheets, 0.125in with --single. A home printer cannot print to the edge of the paper, so sheets
    /// have no bleed and nine poker cards fit on A4 or Letter (3 mm bleed leaves six, or four on
    /// Letter); instead each card's colour stops 3 mm inside the cut, framed by paper, so a cut or a
    /// duplex shift that wanders a millimetre never shows a sliver of colour. Print-on-demand services
    /// print full bleed and want 1/8 in past the trim, which --single gives unless told otherwise.
    #[arg(long, value_name = "LENGTH", allow_hyphen_values = true)]
    #[schemars(title = "Bleed", description = "How far each card's colour runs past its cut line, such as 3mm. Blank: none on sheets (home printers cannot print to the paper's edge), 1/8 inch on one card per page.", extend("examples" = ["3mm"]))]
    pub bleed: Option<String>,
    /// The edge of the paper the printer cannot reach; cards stay inside it.
    #[arg(
        long,
        default_value = "5mm",
        value_name = "LENGTH",
        allow_hyphen_values = true
    )]
    #[schemars(title = "Printer margin", description = "The strip along the paper's edge your printer cannot reach; the cards and their cut marks stay inside it.", extend("examples" = ["6mm"]))]
    pub printer_margin: String,
    /// Columns × rows per sheet, such as 3x3 (default: as many as fit).
    #[arg(long, value_name = "CxR", allow_hyphen_values = true)]
    #[schemars(title = "Cards per sheet", description = "Columns x rows, such as 3x3. Blank: as many as fit.", extend("examples" = ["2x2"]))]
    pub grid: Option<String>,
    /// How the printer turns the sheet for the backs: long (mirror columns), short (mirror rows) or none.
    #[arg(long, value_enum, default_value = "long")]
    #[schemars(
        title = "Two-sided printing",
        description = "How your printer turns the sheet to print the backs."
    )]
    pub duplex: Duplex,
    /// Start with a front/back test sheet to measure the printer's duplex offset.
    #[arg(long)]
    #[schemars(
        title = "Alignment test sheet first",
        description = "Start with a front and back test sheet that shows how far your printer shifts the backs."
    )]
    pub alignment_page: bool,
    /// Move every back by X right and Y down (negative: left, up), e.g. 1.5mm,-0.5mm.
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    #[schemars(title = "Shift the backs", description = "Move every back right and down by this much to match your printer (negative: left and up), such as 1.5mm,-0.5mm.", extend("examples" = ["1mm,-0.5mm"]))]
    pub back_offset: Option<String>,
    /// One card per page at trim + bleed, fronts and backs interleaved, with TrimBox and BleedBox (for
    /// print-on-demand services); 1/8 in bleed unless --bleed says otherwise.
    #[arg(long, conflicts_with_all = ["grid", "alignment_page"])]
    #[schemars(
        title = "One card per page",
        description = "For print-on-demand services: each card at its cut size plus bleed, fronts and backs in turn. Cards per sheet and the alignment sheet do not apply."
    )]
    pub single: bool,
    /// Also write one PNG per card face into DIR at 300 dpi, trim + bleed, laid out as --single lays
    /// out a card (1/8 in bleed unless --bleed says otherwise; poker: 825 × 1125 px).
    #[arg(long, value_name = "DIR")]
    #[schemars(title = "Card pictures", description = "Also a PNG picture of every card face at 300 dpi, for a virtual tabletop or a print service.", extend("x-output-folder" = "png"))]
    pub png: Option<PathBuf>,
}

impl LayoutOptions {
    /// The card options these flags give (usage errors name the flag and the fix).
    pub fn options(&self) -> Result<CardOptions> {
        let length = |option: Opt, v: &str| {
            layout::parse_length(v, false).ok_or_else(|| -> Error {
                Problem::Length {
                    option,
                    given: v.to_owned(),
                    negative: v.trim_start().starts_with(['-', '\u{2212}']),
                }
                .into()
            })
        };
        // Everything is checked before anything is written: a PNG folder that is a file would fail only
        // after the PDFs were made.
        if let Some(dir) = &self.png
            && dir.exists()
            && !dir.is_dir()
        {
            return Err(Problem::PngIsFile { path: dir.clone() }.into());
        }
        let card = CardSize::parse(&self.card_size)?;
        let gutter = length(Opt::Gutter, &self.gutter)?;
        let bleed = match &self.bleed {
            Some(b) => length(Opt::Bleed, b)?,
            // Print-on-demand cards want 1/8 in of bleed; home sheets cannot print it (see --bleed).
            None if self.single => SINGLE_BLEED,
            None => 0,
        };
        let margin = length(Opt::PrinterMargin, &self.printer_margin)?;
        if bleed > 20 * layout::MM || gutter > 50 * layout::MM || margin > 50 * layout::MM {
            return Err(Problem::LayoutLimits.into());
        }
        let grid = match &self.grid {
            None => None,
            Some(g) => {
                let parsed = g
                    .to_ascii_lowercase()
                    .split_once(['x', '×'])
                    .and_then(|(c, r)| {
                        Some((c.trim().parse::<u32>().ok()?, r.trim().parse::<u32>().ok()?))
                    })
                    .filter(|&(c, r)| (1..=20).contains(&c) && (1..=20).contains(&r));
                Some(parsed.ok_or_else(|| Problem::Grid { given: g.clone() })?)
            }
        };
        let back_offset = match &self.back_offset {
            None => (0, 0),
            Some(o) => {
                let bad = || -> Error { Problem::BackOffset { given: o.clone() }.into() };
                let (x, y) = o.split_once(',').ok_or_else(bad)?;
                let x = layout::parse_length(x, true).ok_or_else(bad)?;
                let y = layout::parse_length(y, true).ok_or_else(bad)?;
                if x.abs() > 20 * layout::MM || y.abs() > 20 * layout::MM {
                    return Err(Problem::BackOffsetRange { given: o.clone() }.into());
                }
                (x, y)
            }
        };
        if self.single && (self.grid.is_some() || self.alignment_page) {
            return Err(Problem::SingleWith.into());
        }
        Ok(CardOptions {
            card,
            gutter,
            bleed,
            margin,
            grid,
            duplex: self.duplex,
            back_offset,
            alignment_page: self.alignment_page,
            single: self.single,
        })
    }
}

/// The options of `make deck` (and of `blockprint deck`, its alias).
#[derive(Debug, Clone, clap::Args, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct DeckOptions {
    /// Deck ids (default: every deck).
    #[schemars(title = "Decks", description = "Which decks to print. None chosen: every deck.", extend("x-choices" = "decks"))]
    pub ids: Vec<String>,
    #[command(flatten)]
    #[schemars(
        title = "Card layout",
        description = "How the cards sit on the paper and how they are cut and printed."
    )]
    pub layout: LayoutOptions,
}

/// The options of `make cards` (and of `blockprint cards`, its alias).
#[derive(Debug, Clone, clap::Args, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct CardsOptions {
    /// The game: bbb (Block by Block).
    #[schemars(title = "Game", description = "Whose table cards to print. Blank: Block by Block, the only game with table cards.", extend("x-choices" = "games", "x-none" = "Block by Block"))]
    pub game: Option<String>,
    /// Players: how many sets of approach cards (investigators' and NPCs').
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=12))]
    #[schemars(range(min = 1, max = 12))]
    #[schemars(title = "Players", description = "How many sets of approach cards to print, one per player, 1 to 12.", extend("examples" = [5]))]
    pub players: u32,
    #[command(flatten)]
    #[schemars(
        title = "Card layout",
        description = "How the cards sit on the paper and how they are cut and printed."
    )]
    pub layout: LayoutOptions,
}

/// The registered deck kind: every deck, default layout.
pub static DECK_DEF: crate::Declared<DeckOptions> = crate::Declared {
    base: &DECK,
    configure: configure_deck,
    after: Some(deck_pngs),
    rolls: false,
};

/// The registered cards kind: default layout, four players.
pub static CARDS_DEF: crate::Declared<CardsOptions> = crate::Declared {
    base: &CARDS,
    configure: configure_cards,
    after: Some(cards_pngs),
    rolls: false,
};

fn configure_deck(cx: &Checked, o: &DeckOptions) -> Result<Box<dyn Kind>> {
    Ok(Box::new(deck_kind(cx, o, o.layout.options()?)?))
}

fn deck_kind(cx: &Checked, o: &DeckOptions, opts: CardOptions) -> Result<DeckKind> {
    if cx.lib.decks.is_empty() {
        return Err(Problem::NoDecks {
            source: cx.source.to_string(),
        }
        .into());
    }
    for id in &o.ids {
        if cx.lib.deck(id).is_none() {
            let all: Vec<&str> = cx.lib.decks.iter().map(|d| d.id.value.as_str()).collect();
            return Err(Problem::NoSuchDeck {
                given: id.clone(),
                decks: all.into_iter().map(str::to_owned).collect(),
            }
            .into());
        }
    }
    let ids = (!o.ids.is_empty()).then(|| o.ids.clone());
    Ok(DECK.with(opts, ids))
}

fn configure_cards(_cx: &Checked, o: &CardsOptions) -> Result<Box<dyn Kind>> {
    Ok(Box::new(cards_kind(o, o.layout.options()?)?))
}

fn cards_kind(o: &CardsOptions, opts: CardOptions) -> Result<CardsKind> {
    if let Some(g) = &o.game
        && g != "bbb"
    {
        return Err(Problem::NoTableCards { game: g.clone() }.into());
    }
    Ok(CARDS.with(opts, o.players))
}

fn deck_pngs(
    cx: &Checked,
    o: &DeckOptions,
    engine: &Engine,
    req: &Request,
    quiet: bool,
    sink: &dyn crate::sink::Sink,
) -> Result<()> {
    let Some(dir) = &o.layout.png else {
        return Ok(());
    };
    let singles = deck_kind(cx, o, single(&o.layout.options()?, &o.layout))?;
    write_pngs(&singles, cx, engine, req, dir, quiet, sink)
}

fn cards_pngs(
    cx: &Checked,
    o: &CardsOptions,
    engine: &Engine,
    req: &Request,
    quiet: bool,
    sink: &dyn crate::sink::Sink,
) -> Result<()> {
    let Some(dir) = &o.layout.png else {
        return Ok(());
    };
    let singles = cards_kind(o, single(&o.layout.options()?, &o.layout))?;
    write_pngs(&singles, cx, engine, req, dir, quiet, sink)
}

/// One PNG per card front and one per distinct back: each document laid out as single cards (trim +
/// bleed) and rendered at 300 dpi, into `DIR/<document>/`: `001-front.png` … and `back.png` (or
/// `back-1.png`, `back-2.png` when a document has several backs).
fn write_pngs(
    single_kind: &dyn Kind,
    cx: &Checked,
    engine: &Engine,
    req: &Request,
    dir: &std::path::Path,
    quiet: bool,
    sink: &dyn crate::sink::Sink,
) -> Result<()> {
    let out = blockprint_render::output::Output::new(dir);
    for i in 0..single_kind.count(cx, req)? {
        let doc = single_kind.document(cx, req, i)?;
        let typeset = engine.typeset(
            &format!("{}.typ", doc.template),
            &single_kind.pdf_data(&doc),
        )?;
        let pngs = blockprint_render::cards::pngs(&typeset, 300.0)
            .map_err(|e| blockprint_content::error::Bug::system("draw the card pictures", e))?;
        let names = png_names(&doc.data);
        let mut files = Vec::new();
        for (name, bytes) in names.iter().zip(pngs) {
            if let Some(name) = name {
                files.push((format!("{}/{name}", doc.stem), bytes));
            }
        }
        out.write_all(&files).map_err(|e| Error::io(dir, e))?;
        if !quiet {
            sink.event(crate::sink::Event::Wrote(format!(
                "wrote {} PNG files into {}",
                files.len(),
                dir.join(&doc.stem).display()
            )));
        }
    }
    Ok(())
}

/// The file name of each page of a single-card document: fronts numbered, each distinct back once.
fn png_names(data: &serde_json::Value) -> Vec<Option<String>> {
    let pages = data["layout"]["pages"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut backs: Vec<u64> = Vec::new();
    for p in &pages {
        if p["side"] == "back"
            && let Some(f) = p["cards"][0]["face"].as_u64()
            && !backs.contains(&f)
        {
            backs.push(f);
        }
    }
    let mut seen = Vec::new();
    let mut n = 0;
    pages
        .iter()
        .map(|p| {
            let face = p["cards"][0]["face"].as_u64().unwrap_or(0);
            if p["side"] == "front" {
                n += 1;
                Some(format!("{n:03}-front.png"))
            } else if seen.contains(&face) {
                None
            } else {
                seen.push(face);
                Some(if backs.len() == 1 {
                    "back.png".to_owned()
                } else {
                    format!("back-{}.png", seen.len())
                })
            }
        })
        .collect()
}

/// The options of the PNG pass: the same cards, one per page.
fn single(opts: &CardOptions, args: &LayoutOptions) -> CardOptions {
    CardOptions {
        single: true,
        // One card a page has --single's bleed: 1/8 in unless --bleed is given.
        bleed: if args.bleed.is_some() {
            opts.bleed
        } else {
            SINGLE_BLEED
        },
        grid: None,
        alignment_page: false,
        ..opts.clone()
    }
}
