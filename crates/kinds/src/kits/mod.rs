//! Chase kits: one document kind per game (`kit-coc`, `kit-rbf` …), each a module here, its templates under
//! `templates/kit-<game>/` and its content under `content/<game>/` with a `[[kit]]` naming the source and
//! licence. `blockprint kit GAME` runs the kind `kit-GAME`; `build` runs every kit like any other kind.
//! Every page of a kit carries [`about`]: where its rules come from, their licence, and the game's
//! editorial fills and house rulings.

pub mod coc;
pub mod rbf;
pub mod rbf_odds;

use serde::Serialize;

use super::Checked;
use blockprint_content::game;

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

pub mod bbb;
pub mod storypath;
pub mod urban_world;
pub mod uwsp;
