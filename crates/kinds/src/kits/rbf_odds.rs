//! The Ready/Bolt/Flow odds card: the exact chances of the game's Fudge-dice contests, worked out by the
//! dice engine from the rolls in content (`rbf.odds.rolls`: advantaged `1dF+1`, neutral `2dF`,
//! disadvantaged `1dF-1`), never sampled. One page: what one roll gives, every contest of one roll against
//! another with draws shown, the Strike tables where a draw goes to the defender, and the cells of the
//! source's own printed tables (`[[claimed_odds]]`) that disagree with the exact odds.
//!
//! [`document`] is one of the documents of the `kit-rbf` kind ([`super::rbf`]).

use blockprint_dice as dice;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use serde::Serialize;

use crate::error::{Problem, json, unchecked};
use crate::{Checked, Document, Request};
use blockprint_content::check::claims::{self, Rounding};
use blockprint_content::error::{Error, Result};
use blockprint_render::Paper;

/// The paper sizes the card is laid out for.
pub const PAPERS: [Paper; 2] = [Paper::A4, Paper::Letter];

/// The lookup naming each way to roll and its dice, in the card's order.
pub const ROLLS: &str = "rbf.odds.rolls";

/// A chance as the card prints it.
#[derive(Debug, Clone, Serialize)]
pub struct Chance {
    /// Reduced fraction: `31/81`.
    pub fraction: String,
    /// Percentage to one decimal: `38.3%`.
    pub percent: String,
}

fn chance(p: &BigRational) -> Chance {
    Chance {
        fraction: dice::fraction_reduced(p),
        percent: claims::percent_text(&Rounding::Nearest.apply(p, 1), 1),
    }
}

/// One way to roll.
#[derive(Debug, Clone, Serialize)]
pub struct Mode {
    pub label: String,
    pub dice: String,
}

/// What one roll of each mode gives: one row per total, one cell per mode (`None`: that mode cannot roll it).
#[derive(Debug, Clone, Serialize)]
pub struct SingleRow {
    /// The total, signed: `+2`, `0`, `−1`.
    pub value: String,
    pub cells: Vec<Option<Chance>>,
}

/// One roll against another, draws shown.
#[derive(Debug, Clone, Serialize)]
pub struct Versus {
    pub win: Chance,
    pub draw: Chance,
    pub loss: Chance,
}

/// A Strike: the attacker's chance to land it (higher than the defence; a draw goes to the defender).
#[derive(Debug, Clone, Serialize)]
pub struct Strike {
    pub hit: Chance,
    pub miss: Chance,
}

/// A row of a mode-against-mode grid: the row's mode against every column mode.
#[derive(Debug, Clone, Serialize)]
pub struct GridRow<T> {
    pub mode: String,
    pub cells: Vec<T>,
}

/// A printed table of the source checked against the exact odds.
#[derive(Debug, Clone, Serialize)]
pub struct ClaimCheck {
    pub id: String,
    pub title: String,
    pub printed_in: Option<String>,
    pub rounded: String,
    pub cells: usize,
    pub agree: usize,
    pub disagree: usize,
    pub wrong: Vec<claims::Cell>,
}

/// Everything the odds card prints.
#[derive(Debug, Clone, Serialize)]
pub struct OddsCard {
    pub title: String,
    pub modes: Vec<Mode>,
    pub single: Vec<SingleRow>,
    /// Rows: side A's roll; columns: side B's roll.
    pub versus: Vec<GridRow<Versus>>,
    /// Rows: the attacker's roll; columns: the defender's roll.
    pub strike: Vec<GridRow<Strike>>,
    pub claims: Vec<ClaimCheck>,
    /// Cells of every claimed table, and how many disagree.
    pub claimed_cells: usize,
    pub claimed_wrong: usize,
}

/// [`Problem::Dice`] of the card's rolls (`rbf.odds.rolls`).
fn bad_dice(expr: String, message: String) -> Error {
    Problem::Dice {
        at: Some(ROLLS.into()),
        expr,
        message,
    }
    .into()
}

/// `+2`, `0`, `−1`, `+1/2`.
fn signed(v: &BigRational) -> String {
    let text = dice::fraction_reduced(&v.abs());
    if v.is_zero() {
        text
    } else if *v > BigRational::zero() {
        format!("+{text}")
    } else {
        format!("\u{2212}{text}")
    }
}

/// The card's content, computed exactly.
pub fn card(cx: &Checked) -> Result<OddsCard> {
    let lookup = cx
        .lib
        .lookup(ROLLS)
        .ok_or_else(|| super::uwsp::missing("kit-rbf", ROLLS))?;
    let mut modes = Vec::new();
    let mut exprs = Vec::new();
    let mut dists = Vec::new();
    for e in &lookup.entries {
        let src = e.value.value.to_string();
        let expr = dice::parse(&src).map_err(|err| bad_dice(src.clone(), err.message))?;
        let dist = expr
            .distribution()
            .map_err(|err| bad_dice(src.clone(), err.message))?;
        modes.push(Mode {
            label: e.key.value.clone(),
            dice: src,
        });
        exprs.push(expr);
        dists.push(dist);
    }
    let mut values: Vec<BigRational> = dists
        .iter()
        .flat_map(|d| d.outcomes().into_iter().map(|(v, _)| v))
        .collect();
    values.sort();
    values.dedup();
    values.reverse();
    let single = values
        .iter()
        .map(|v| SingleRow {
            value: signed(v),
            cells: dists
                .iter()
                .map(|d| {
                    let p = d.probability(v);
                    (!p.is_zero()).then(|| chance(&p))
                })
                .collect(),
        })
        .collect();
    let mut versus = Vec::new();
    let mut strike = Vec::new();
    for (i, a) in exprs.iter().enumerate() {
        let mut vrow = Vec::new();
        let mut srow = Vec::new();
        for b in &exprs {
            let c = dice::contest(a, b).map_err(|(_, err)| {
                bad_dice(
                    format!("{} against {}", a.source(), b.source()),
                    err.message,
                )
            })?;
            vrow.push(Versus {
                win: chance(&c.win),
                draw: chance(&c.draw),
                loss: chance(&c.loss),
            });
            srow.push(Strike {
                hit: chance(&c.win),
                miss: chance(&(&c.draw + &c.loss)),
            });
        }
        versus.push(GridRow {
            mode: modes[i].label.clone(),
            cells: vrow,
        });
        strike.push(GridRow {
            mode: modes[i].label.clone(),
            cells: srow,
        });
    }
    let mut claims_out = Vec::new();
    for c in &cx.lib.claimed_odds {
        if blockprint_content::game(&c.id.value) != "rbf" {
            continue;
        }
        let v = claims::verify(&cx.lib, c).ok_or_else(|| {
            unchecked(format!(
                "has claimed odds `{}` that cannot be verified",
                c.id.value
            ))
        })?;
        claims_out.push(ClaimCheck {
            id: v.id,
            title: v.title,
            printed_in: v.printed_in,
            rounded: v.rounded,
            cells: v.cells.len(),
            agree: v.agree,
            disagree: v.disagree,
            wrong: v.cells.into_iter().filter(|x| !x.agrees).collect(),
        });
    }
    Ok(OddsCard {
        title: "Ready/Bolt/Flow: contest odds".into(),
        claimed_cells: claims_out.iter().map(|c| c.cells).sum(),
        claimed_wrong: claims_out.iter().map(|c| c.disagree).sum(),
        modes,
        single,
        versus,
        strike,
        claims: claims_out,
    })
}

/// The odds card document (stem `rbf-odds`, template `kit-rbf/odds`): the metadata, `about` (the kit's
/// source, licence, attribution, fills and rulings) and the [`card`].
pub fn document(cx: &Checked, req: &Request) -> Result<Document> {
    if !PAPERS.contains(&req.paper) {
        return Err(Problem::OddsCardPaper {
            paper: req.paper.name().into(),
        }
        .into());
    }
    let mut about = super::about(cx, "rbf")
        .ok_or_else(|| super::uwsp::missing("kit-rbf", "[[kit]] id = \"rbf\""))?;
    // One page: the card lists only the fills of its own content (the rolls, the claimed tables). Its
    // introduction states when a roll is advantaged; the kit's rulings, general note and track notes are
    // printed on the sprint-track page and the pages they concern.
    about.fills.retain(|f| {
        f.id.starts_with("rbf.odds") || cx.lib.claimed_odds.iter().any(|c| c.id.value == f.id)
    });
    about.editorial = None;
    about.rulings.clear();
    let card = card(cx)?;
    let mut m = crate::meta(cx, req);
    m.insert(
        "about".into(),
        json("the odds card's source and licence", &about)?,
    );
    m.insert("card".into(), json("the odds card", &card)?);
    Ok(
        Document::new("rbf-odds", "kit-rbf/odds", card.title.clone(), m.into())
            .audience(crate::Audience::Gm)
            .bookmark(card.title),
    )
}
