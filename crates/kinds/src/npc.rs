//! NPC cards: checked content and a request in; sheets of [`PER_SHEET`] index cards (PDF, cut lines),
//! Markdown stat lines and JSON per sheet, then `index.md` and `cards.pdf` (every sheet, merged). Random
//! NPC `n` is rolled from its own stream and sits on sheet `(n - 1) / PER_SHEET`, so a batch split at a
//! multiple of [`PER_SHEET`] makes exactly the same files as the whole, and any split the same NPCs.
//! The registered kind makes the stock NPCs `build` ships (HP from a fixed seed); `blockprint npc` makes
//! batches of witnesses and suspects, or the stock NPCs with a seed of one's own.

use serde::Serialize;
use serde_json::json;

use super::{Checked, Collect, Document, Index, Kind, Merge, PdfPart, Request, Requirements};
use blockprint_content::error::Result;
use blockprint_content::roll::detective::PREGENERATED_SEED;
use blockprint_content::roll::npc::{self as roller, Npc, NpcOptions};

/// Cards on a sheet: two columns of four 99 × 66 mm cards (see `templates/npc/cards.typ`).
pub const PER_SHEET: u32 = 8;

/// Which NPCs a run makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Set {
    /// The stock NPCs with HP from [`PREGENERATED_SEED`] (`build`, `make npc`).
    StockFixed,
    /// The stock NPCs with HP from the request's seed (`npc --stock`).
    Stock,
    /// `count` random witnesses and suspects.
    Random(NpcOptions),
}

pub struct NpcKind {
    pub set: Set,
}

/// The stock NPC cards `build` makes.
pub static STOCK: NpcKind = NpcKind {
    set: Set::StockFixed,
};

/// Everything the NPC generator reads from content.
pub fn requirements() -> Requirements {
    let (g, h) = super::detective::name_tags();
    Requirements {
        tables: [
            blockprint_content::roll::case::VICTIMS,
            blockprint_content::roll::case::WITNESS,
            blockprint_content::roll::case::SUSPECT_PROFILE,
            blockprint_content::roll::case::SUSPECT_COOPERATION,
            roller::NOTABILITY,
            roller::LEVEL,
            roller::MASTERY,
        ]
        .into_iter()
        .map(str::to_owned)
        .chain(super::detective::names())
        .collect(),
        row_tags: vec![
            (
                roller::NOTABILITY.into(),
                vec!["ordinary".into(), "notable".into()],
            ),
            g,
            h,
        ],
        int_results: vec![roller::LEVEL.into()],
        class_lookups: vec![("bbb.class.hit_die".into(), None)],
        ..Requirements::default()
    }
}

/// What a sheet's `<stem>.json` holds.
#[derive(Serialize)]
struct File<'a> {
    batch_seed: u64,
    content_version: &'a str,
    generator: String,
    /// The numbers of the NPCs on the sheet (random NPCs), first and last.
    first: Option<u32>,
    last: Option<u32>,
    rerun: &'a str,
    npcs: &'a [Npc],
}

fn slug(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The options of `make npc` (and of `blockprint npc`, its alias).
#[derive(Debug, Clone, clap::Args, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Options {
    /// The stock NPCs of the content, their HP rolled with the seed.
    #[arg(long, conflicts_with_all = ["role", "class", "level"])]
    #[schemars(
        title = "The stock NPCs",
        description = "The content's stock NPCs, their hit points rolled. Role, class and level do not apply."
    )]
    pub stock: bool,
    /// The stock NPCs with the HP the SRD prints, as `build` makes them (into `stock-npcs/`); --seed,
    /// --count and --first-number do not apply.
    #[arg(long, conflicts_with_all = ["stock", "role", "class", "level"])]
    #[schemars(
        title = "The stock NPCs as the rules print them",
        description = "The stock NPCs with the hit points the rules book prints. How many, seed, role, class and level do not apply."
    )]
    pub pregenerated: bool,
    /// Witnesses or suspects only (default: each is either, with even odds).
    #[arg(long, value_enum)]
    #[schemars(title = "Role", description = "Make only witnesses or only suspects. Blank: each NPC is either, with even odds.", extend("x-none" = "Either, rolled"))]
    pub role: Option<roller::Role>,
    /// The class of every NPC (makes them notable); rolled with even odds when left out.
    #[arg(long)]
    #[schemars(title = "Class", description = "Give every NPC this class, which makes them notable. Blank: rolled, every class with even odds.", extend("x-choices" = "classes", "x-none" = "Any class, rolled"))]
    pub class: Option<String>,
    /// The level of every NPC: 0 is run-of-the-mill (no class, 1 HP).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=20))]
    #[schemars(range(max = 20))]
    #[schemars(title = "Level", description = "The level of every NPC, 0 to 20; 0 is an ordinary person with no class and 1 hit point. Blank: rolled.", extend("examples" = [3]))]
    pub level: Option<u32>,
}

/// The registered NPC kind: `build` makes the stock NPCs with fixed HP, `make npc` random ones.
pub static DEF: crate::Declared<Options> = crate::Declared {
    base: &STOCK,
    configure,
    after: None,
    rolls: true,
};

fn configure(cx: &Checked, o: &Options) -> Result<Box<dyn Kind>> {
    if o.pregenerated {
        return Ok(Box::new(&STOCK));
    }
    if o.level == Some(0) && o.class.is_some() {
        return Err(crate::error::Problem::LevelZeroClass.into());
    }
    if o.stock {
        if cx.lib.npcs.is_empty() {
            return Err(crate::error::Problem::NoStockNpcs.into());
        }
        return Ok(Box::new(NpcKind::stock()));
    }
    let class = o
        .class
        .as_deref()
        .map(|c| crate::detective::class_named(&cx.lib, c))
        .transpose()?;
    Ok(Box::new(NpcKind::random(NpcOptions {
        role: o.role,
        class,
        level: o.level,
    })))
}

impl NpcKind {
    /// A kind making the stock NPCs with the request's seed.
    pub fn stock() -> Self {
        NpcKind { set: Set::Stock }
    }
    /// A kind making random witnesses and suspects.
    pub fn random(opts: NpcOptions) -> Self {
        NpcKind {
            set: Set::Random(opts),
        }
    }

    fn seed(&self, req: &Request) -> u64 {
        match self.set {
            Set::StockFixed => PREGENERATED_SEED,
            _ => req.seed,
        }
    }

    /// The first sheet of the request and the numbers (1-based) on sheet `i` of the run.
    fn numbers(&self, cx: &Checked, req: &Request, i: usize) -> (u32, u32) {
        match self.set {
            Set::StockFixed | Set::Stock => {
                let n = cx.lib.npcs.len() as u32;
                let lo = i as u32 * PER_SHEET + 1;
                (lo, (lo + PER_SHEET - 1).min(n))
            }
            Set::Random(_) => {
                let last = req.first + req.count.max(1) - 1;
                let sheet = (req.first - 1) / PER_SHEET + i as u32;
                let lo = (sheet * PER_SHEET + 1).max(req.first);
                (lo, (sheet * PER_SHEET + PER_SHEET).min(last))
            }
        }
    }

    /// The file name prefix for the options (`suspects-fighter-l3`).
    fn prefix(&self) -> String {
        match &self.set {
            Set::StockFixed | Set::Stock => "stock".into(),
            Set::Random(o) => {
                let mut p = match o.role {
                    None => "npcs",
                    Some(roller::Role::Witness) => "witnesses",
                    Some(roller::Role::Suspect) => "suspects",
                }
                .to_owned();
                if let Some(c) = &o.class {
                    p.push_str(&format!("-{}", slug(c)));
                }
                if let Some(l) = o.level {
                    p.push_str(&format!("-l{l}"));
                }
                p
            }
        }
    }

    fn rerun(&self, req: &Request, lo: u32, hi: u32) -> String {
        match &self.set {
            Set::StockFixed => "make npc --pregenerated".into(),
            Set::Stock => format!("npc --stock --seed {}", req.seed),
            Set::Random(o) => {
                let mut s = format!(
                    "npc --seed {} --first-number {lo} --count {}",
                    req.seed,
                    hi - lo + 1
                );
                if let Some(r) = o.role {
                    s.push_str(&format!(" --role {}", r.word()));
                }
                if let Some(c) = &o.class {
                    s.push_str(&format!(" --class {}", c.to_lowercase()));
                }
                if let Some(l) = o.level {
                    s.push_str(&format!(" --level {l}"));
                }
                s
            }
        }
    }
}

/// The stock NPCs with their HP rolled once from a fixed seed (`build` makes them).
pub static STOCK_INFO: crate::KindInfo = crate::KindInfo::new(
    "npc",
    "NPC cards: random witnesses and suspects, or the stock NPCs as the SRD prints them",
    "stock-npcs",
    crate::PDF_MD_JSON,
)
.titled("NPC cards")
.papers(crate::HOME_PAPERS);

/// NPCs from a seed: random witnesses and suspects, or the stock NPCs' HP. The card sheet lays out A4
/// and Letter.
pub static RANDOM_INFO: crate::KindInfo = crate::KindInfo::new(
    "npc",
    "NPC cards: stock NPCs or random witnesses and suspects",
    "npcs",
    crate::PDF_MD_JSON,
)
.titled("NPC cards")
.papers(crate::HOME_PAPERS)
.rolls();

impl Kind for NpcKind {
    fn info(&self) -> &crate::KindInfo {
        match self.set {
            Set::StockFixed => &STOCK_INFO,
            _ => &RANDOM_INFO,
        }
    }
    /// Every set declares what random NPCs need, so `check` (which sees the registered stock kind)
    /// reports it and whatever passes `check` also rolls `blockprint npc`.
    fn requires(&self) -> Requirements {
        requirements()
    }
    fn count(&self, cx: &Checked, req: &Request) -> Result<usize> {
        Ok(match self.set {
            Set::StockFixed | Set::Stock => cx.lib.npcs.len().div_ceil(PER_SHEET as usize),
            Set::Random(_) => {
                let last = req.first + req.count.max(1) - 1;
                ((last - 1) / PER_SHEET - (req.first - 1) / PER_SHEET + 1) as usize
            }
        })
    }

    fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document> {
        let (lo, hi) = self.numbers(cx, req, i);
        let seed = self.seed(req);
        let npcs = (lo..=hi)
            .map(|n| match &self.set {
                Set::StockFixed | Set::Stock => roller::roll_stock(&cx.lib, seed, n as usize - 1),
                Set::Random(o) => roller::roll_random(&cx.lib, seed, n, o),
            })
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let random = matches!(self.set, Set::Random(_));
        let stem = if random {
            format!("{}-{lo:05}-{hi:05}", self.prefix())
        } else {
            format!("stock-{}", i + 1)
        };
        let rerun = self.rerun(req, lo, hi);
        let bug = |e: serde_json::Error| crate::error::write("the NPCs' data", e);
        let file = File {
            batch_seed: seed,
            content_version: &cx.lib.version,
            generator: format!("blockprint {}", env!("CARGO_PKG_VERSION")),
            first: random.then_some(lo),
            last: random.then_some(hi),
            rerun: &rerun,
            npcs: &npcs,
        };
        let pretty = serde_json::to_string_pretty(&file).map_err(bug)? + "\n";
        let numbered: Vec<serde_json::Value> = npcs
            .iter()
            .zip(lo..)
            .map(|(n, k)| {
                let mut v = serde_json::to_value(n).unwrap_or_default();
                if let Some(o) = v.as_object_mut() {
                    o.insert(
                        "number".into(),
                        if random {
                            k.into()
                        } else {
                            serde_json::Value::Null
                        },
                    );
                }
                v
            })
            .collect();
        let mut data = super::meta(cx, req);
        data.insert("batch_seed".into(), seed.into());
        data.insert("rerun".into(), rerun.clone().into());
        data.insert("npcs".into(), numbered.into());
        let title = if random {
            format!("NPC cards {lo}–{hi}")
        } else {
            "Stock NPC cards".to_owned()
        };
        Ok(Document::new(stem, "npc/cards", title.clone(), data.into())
            .audience(crate::Audience::Player)
            .json(pretty)
            .bookmark(title.clone())
            .summary(json!({
                "first": lo,
                "last": hi,
                "random": random,
                "names": npcs.iter().map(|n| n.name.clone()).collect::<Vec<_>>(),
            }))
            .parts(vec![PdfPart {
                name: "cards".into(),
                title,
                audience: crate::Audience::Player,
            }]))
    }

    fn collect(&self) -> Collect {
        Collect {
            index: Some(Index {
                rel: "index.md".into(),
                head: "npc/index.md.j2".into(),
                row: "npc/index-row.md.j2".into(),
            }),
            merges: vec![Merge {
                rel: "cards.pdf".into(),
                title: "NPC cards".into(),
                about: "every sheet of cards, to print and cut".into(),
                part: "cards".into(),
                audience: crate::Audience::Player,
                pad_to_even: false,
            }],
        }
    }

    fn head(&self, cx: &Checked, req: &Request) -> serde_json::Map<String, serde_json::Value> {
        let mut data = super::meta(cx, req);
        data.insert("batch_seed".into(), self.seed(req).into());
        data.insert("random".into(), matches!(self.set, Set::Random(_)).into());
        data.insert("per_sheet".into(), PER_SHEET.into());
        let last = req.first + req.count.max(1) - 1;
        data.insert("rerun".into(), self.rerun(req, req.first, last).into());
        data
    }
}
