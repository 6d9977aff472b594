//! Chase kits: one document kind per game (`kit-coc`, `kit-rbf` …), each a module here, its templates under
//! `templates/kit-<game>/` and its content under `content/<game>/` with a `[[kit]]` naming the source and
//! licence. `blockprint kit GAME` runs the kind `kit-GAME`; `build` runs every kit like any other kind.
//! Every page of a kit carries [`about`]: where its rules come from, their licence, and the game's
//! editorial fills and house rulings.

pub mod coc;
pub mod rbf;
pub mod rbf_odds;
pub mod rbf_track;

use std::collections::BTreeMap;

use serde::Serialize;

use super::Checked;
use crate::error::Problem;
use blockprint_content::error::Result;
use blockprint_content::game;
use blockprint_content::prose::{self, Block, Inline};

/// A kit's whole-chase odds page (`blockprint_chase::<game>::kit_page`), made by `make` or read from the
/// user's cache folder ([`blockprint_render::cache`]). The page reads nothing but the content and the
/// chase's own options, so it is kept under the content's fingerprint, the kit's `name`, `extra` (what
/// else chose the chase: the seeded track's seed) and the build of blockprint: the Block by Block grid's
/// 750,000 simulated chases and Storypath's exact solution are worked out once per content and build,
/// not once per run. A page that would not read back as the same JSON is not kept.
pub(crate) fn odds_page(
    cx: &Checked,
    name: &str,
    extra: &[u8],
    make: impl FnOnce() -> std::result::Result<serde_json::Value, blockprint_chase::OptionError>,
) -> Result<serde_json::Value> {
    const SPACE: &str = "odds";
    let key = blockprint_render::cache::key(&[
        b"chase odds page",
        name.as_bytes(),
        cx.lib.version.as_bytes(),
        extra,
    ]);
    if let Some(page) = blockprint_render::cache::get(SPACE, &key)
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
    {
        return Ok(page);
    }
    let page = make().map_err(Problem::KitChase)?;
    if let Ok(bytes) = serde_json::to_vec(&page)
        && serde_json::from_slice::<serde_json::Value>(&bytes).is_ok_and(|back| back == page)
    {
        blockprint_render::cache::put(SPACE, &key, &bytes);
    }
    Ok(page)
}

/// What every kit page prints about its game: the `[[kit]]` entry, and the fills and rulings whose ids
/// belong to the game.
#[derive(Debug, Clone, Serialize)]
pub struct About {
    pub game: String,
    pub title: String,
    pub source: String,
    pub licence: String,
    pub attribution: Option<String>,
    pub editorial: Option<String>,
    /// Every `editorial` fill in the game's tables, lookups and decks.
    pub fills: Vec<Fill>,
    pub rulings: Vec<Ruling>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Fill {
    /// The table, lookup or deck.
    pub id: String,
    /// Its title, which paper prints (the id stays in the Markdown, as an anchor).
    pub title: String,
    /// The row (`on`) or entry (`key`); empty for the item as a whole.
    pub at: String,
    pub result: String,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Ruling {
    pub id: String,
    pub title: String,
    pub ruling: String,
    pub reason: Option<String>,
}

/// The kit of `game` as printed, or `None` when the content has no `[[kit]]` for it (a kind lists the
/// game in its [`super::Requirements::kits`], so checked content always has it).
pub fn about(cx: &Checked, g: &str) -> Option<About> {
    let kit = cx.lib.kit(g)?;
    Some(About {
        game: g.to_owned(),
        title: String::from(&kit.title),
        source: String::from(&kit.source),
        licence: String::from(&kit.licence),
        attribution: kit.attribution.as_deref().map(String::from),
        editorial: kit.editorial.as_deref().map(String::from),
        fills: cx
            .report
            .editorial
            .iter()
            .filter(|f| game(&f.id) == g)
            .map(|f| Fill {
                id: f.id.clone(),
                title: item_title(cx, &f.id),
                at: f.at.clone(),
                result: String::from(&f.result),
                reason: String::from(&f.reason),
            })
            .collect(),
        rulings: cx
            .lib
            .rulings
            .iter()
            .filter(|r| game(&r.id.value) == g)
            .map(|r| Ruling {
                id: r.id.value.clone(),
                title: String::from(&r.title),
                ruling: String::from(&r.ruling),
                reason: r.reason.as_deref().map(String::from),
            })
            .collect(),
    })
}

/// The title of the table, lookup, deck or chart `id` (the id itself when none has it).
pub fn item_title(cx: &Checked, id: &str) -> String {
    let lib = &cx.lib;
    lib.table(id)
        .map(|t| String::from(&t.title))
        .or_else(|| lib.lookup(id).map(|l| String::from(&l.title)))
        .or_else(|| lib.deck(id).map(|d| String::from(&d.title)))
        .or_else(|| lib.chart(id).map(|c| String::from(&c.title)))
        .unwrap_or_else(|| id.to_owned())
}

/// A kit page's prose: `content/<game>/kit/<slug>.md` (listed in the `[[kit]]`'s `pages`), parsed by the
/// same reader as the SRD's chapters and split at its `##` headings into parts the templates place by
/// anchor. The PDF (templates/common/kit-prose.typ) and the Markdown (templates/common/kit-prose.md.j2)
/// render the same blocks, so each sentence is written once.
#[derive(Debug, Clone, Serialize)]
pub struct Prose {
    pub slug: String,
    /// The page's front matter title.
    pub title: String,
    /// What comes before the first `##` heading.
    pub lead: Vec<Block>,
    /// Each `##` heading's part, by the heading's anchor.
    pub parts: BTreeMap<String, Part>,
    /// The parts' anchors in page order.
    pub order: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Part {
    /// Its place on the page, 0 for the first `##` (templates order the parts by it: a PDF's data has
    /// break opportunities in long strings, so anchors are looked up only as written in the template).
    pub index: usize,
    pub anchor: String,
    /// The heading as plain text, and as inlines.
    pub title: String,
    pub heading: Vec<Inline>,
    /// Everything up to the next `##` heading (`###` headings stay inside).
    pub blocks: Vec<Block>,
}

/// The requirement that `game`'s kit has the prose page `slug` with a `##` heading for every anchor in
/// `needs`: a kind declares it with the same list it passes to [`prose`], so `check` refuses what
/// [`prose`] would.
pub fn prose_needs(game: &str, slug: &str, needs: &[&str]) -> (String, String, Vec<String>) {
    (
        game.to_owned(),
        slug.to_owned(),
        needs.iter().map(|a| (*a).to_owned()).collect(),
    )
}

/// The prose page `slug` of `game`'s kit, with every part in `needs` (the anchors its templates place):
/// a page or part the content lacks is a clear error naming the file to edit.
pub fn prose(cx: &Checked, g: &str, slug: &str, needs: &[&str]) -> Result<Prose> {
    let kit = cx
        .lib
        .kit(g)
        .ok_or_else(|| Problem::NoKit { game: g.into() })?;
    // Where the kit's pages are: `kit/` beside the TOML that holds the `[[kit]]`.
    let folder = cx
        .lib
        .sources
        .get(kit.id.loc.file)
        .and_then(|f| f.path.rsplit_once('/'))
        .map_or_else(|| "kit/".to_owned(), |(dir, _)| format!("{dir}/kit/"));
    let page = kit.page(slug).ok_or_else(|| Problem::NoKitPage {
        game: g.into(),
        page: slug.into(),
        folder: folder.clone(),
    })?;
    let parsed = prose::parse(&page.body, slug);
    let mut out = Prose {
        slug: slug.to_owned(),
        title: page.title.clone(),
        lead: Vec::new(),
        parts: BTreeMap::new(),
        order: Vec::new(),
    };
    let mut current: Option<Part> = None;
    for b in parsed.blocks {
        match b {
            Block::Heading {
                level: 2,
                anchor,
                content,
            } => {
                if let Some(p) = current.take() {
                    out.order.push(p.anchor.clone());
                    out.parts.insert(p.anchor.clone(), p);
                }
                current = Some(Part {
                    index: out.order.len(),
                    anchor,
                    title: prose::plain(&content),
                    heading: content,
                    blocks: Vec::new(),
                });
            }
            other => match current.as_mut() {
                Some(p) => p.blocks.push(other),
                None => out.lead.push(other),
            },
        }
    }
    if let Some(p) = current.take() {
        out.order.push(p.anchor.clone());
        out.parts.insert(p.anchor.clone(), p);
    }
    if let Some(missing) = needs.iter().find(|a| !out.parts.contains_key(**a)) {
        return Err(Problem::KitPageHeading {
            file: format!("{folder}{slug}.md"),
            missing: (*missing).to_owned(),
            headings: out.order.clone(),
        }
        .into());
    }
    Ok(out)
}

pub mod bbb;
pub mod storypath;
pub mod urban_world;
pub mod uwsp;
