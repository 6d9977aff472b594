//! The Ready/Bolt/Flow kit's drawn chase tracks (`track-<id>` documents of `blockprint kit rbf`): one
//! per `[[track]]` of the content, its spaces in rows with the challenges' paths drawn over them, the
//! legend (paths, gates and exits, starts) and a page of the features to narrate. Headings, path leads,
//! marks and the editorial lines are made here once, for the PDF and the Markdown alike.

use serde::Serialize;

use super::About;
use super::rbf::*;
use crate::error::json;
use crate::{Checked, Document, Request};
use blockprint_content::error::Result;
use blockprint_content::{Side, Track};
use blockprint_render::Paper;

/// A start position as printed: who, on which side, grouped per space.
#[derive(Debug, Clone, Serialize)]
pub struct StartOut {
    pub who: String,
    pub side: Side,
    pub space: i64,
}

/// A chip under a space: how many of one side start there.
#[derive(Debug, Clone, Serialize)]
pub struct Chip {
    pub side: Side,
    pub count: usize,
    pub label: String,
}

/// A space as drawn: its place in the wrapped rows.
#[derive(Debug, Clone, Serialize)]
pub struct SpaceOut {
    pub n: i64,
    pub name: String,
    pub row: usize,
    pub col: usize,
    /// Index into the track's challenges.
    pub challenge: Option<usize>,
    pub gate: Option<usize>,
    pub exit: Option<usize>,
    pub chips: Vec<Chip>,
}

/// A challenge as drawn and described.
#[derive(Debug, Clone, Serialize)]
pub struct ChallengeOut {
    /// `C1`, `C2` … in running order.
    pub label: String,
    pub space: i64,
    pub title: String,
    pub text: String,
    pub plus: i64,
    /// Spaces the + path skips.
    pub skip: i64,
    pub minus: i64,
    /// Spaces the − path loses against the default path.
    pub loss: i64,
    pub damage: u32,
    pub plus_text: String,
    pub default_text: String,
    pub minus_text: String,
    pub editorial: bool,
    /// The words both outputs print, made once here: the feature page's heading
    /// (`C1 · space 6 · Mural work crew †`, the dagger on an editorial fill) and the lead of each path's
    /// line (`+1 → space 8`, `Default → space 7`, `−1 → space 6, damage 2`); the drawing's marks
    /// (`+1 → 8`, `−1 → 6`, `2 dmg`), which the Markdown's table of spaces prints too.
    pub heading: String,
    pub plus_head: String,
    pub default_head: String,
    pub minus_head: String,
    pub plus_mark: String,
    pub minus_mark: String,
    pub damage_mark: String,
    /// Where the challenge and its path ends are drawn (index of the space).
    pub at: usize,
    pub plus_at: usize,
    pub minus_at: usize,
}

/// A gate or exit as described.
#[derive(Debug, Clone, Serialize)]
pub struct FeatureOut {
    pub label: String,
    pub space: i64,
    pub title: String,
    pub text: String,
    pub editorial: bool,
    /// `Gate` or `Exit`: the drawing's tag on the space (set in capitals) and the table's feature.
    pub tag: String,
    /// The feature page's heading: `Gate 1 · space 15 · Construction zone gate`.
    pub heading: String,
}

/// What a track page sees.
#[derive(Debug, Clone, Serialize)]
pub struct TrackData {
    #[serde(flatten)]
    pub meta: serde_json::Map<String, serde_json::Value>,
    pub about: About,
    /// How a round runs and how a chase ends: the prose page `round` (content/rbf/kit/round.md).
    pub prose: super::Prose,
    pub id: String,
    pub title: String,
    pub note: Option<String>,
    pub editorial: Option<String>,
    /// Spaces per row of the drawing.
    pub per_row: usize,
    pub rows: usize,
    pub spaces: Vec<SpaceOut>,
    pub challenges: Vec<ChallengeOut>,
    pub gates: Vec<FeatureOut>,
    pub exits: Vec<FeatureOut>,
    pub starts: Vec<StartOut>,
    /// The legend's starts, as both outputs print them: `Player 1 (pursuer, space 0); …`.
    pub starts_line: String,
    /// The heading of the feature page: `<title>: the features`.
    pub features_title: String,
    /// The legend's label before the starts, and the feature page's heading over the editorial notes.
    pub starts_title: String,
    pub editorial_title: String,
    /// The track's editorial fills of single spaces, one line each as printed under the track's own
    /// note: `space 6 (Mural work crew): <why>`.
    pub fill_notes: Vec<String>,
}

/// Spaces per row of a drawn track on `paper` (landscape pages, 20 mm a space).
pub fn per_row(paper: Paper) -> usize {
    match paper {
        Paper::Letter => 12,
        _ => 13,
    }
}

/// Break `n` spaces into rows of at most `most`, ending a row early (never emptying it) rather than
/// splitting a challenge's span (from its − path's end to its + path's end) across two rows.
pub fn rows(n: usize, most: usize, spans: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let most = most.max(1);
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        let mut end = (i + most).min(n);
        if end < n {
            // A span straddles the break when it starts before `end` and ends at or after it.
            if let Some(start) = spans
                .iter()
                .filter(|&&(a, b)| a < end && b >= end && a > i)
                .map(|&(a, _)| a)
                .min()
            {
                end = start;
            }
        }
        out.push((i, end));
        i = end;
    }
    out
}

fn track_doc(cx: &Checked, req: &Request, t: &Track) -> Result<Document> {
    let q = |s: &Option<String>| s.as_deref().map(String::from).unwrap_or_default();
    let first = t.spaces.first().map_or(0, |s| s.n.value);
    let idx = |n: i64| usize::try_from(n - first).unwrap_or(0);
    let mut challenges = Vec::new();
    let mut gates = Vec::new();
    let mut exits = Vec::new();
    let mut spaces = Vec::new();
    for (i, s) in t.spaces.iter().enumerate() {
        let n = s.n.value;
        let challenge = s.challenge.as_ref().map(|c| {
            let label = format!("C{}", challenges.len() + 1);
            let title = String::from(&c.title);
            let (plus, minus) = (c.plus.value, c.minus.value);
            let (skip, loss) = (plus - n - 1, n + 1 - minus);
            challenges.push(ChallengeOut {
                heading: format!("{label} · space {n} · {title}{}", dagger(&c.editorial)),
                plus_head: format!("+{skip} → space {plus}"),
                default_head: format!("Default → space {}", n + 1),
                minus_head: format!("−{loss} → space {minus}, damage {}", c.damage),
                plus_mark: format!("+{skip} → {plus}"),
                minus_mark: format!("−{loss} → {minus}"),
                damage_mark: format!("{} dmg", c.damage),
                label,
                space: n,
                title,
                text: q(&c.text),
                plus,
                skip,
                minus,
                loss,
                damage: c.damage,
                plus_text: q(&c.plus_text),
                default_text: q(&c.default_text),
                minus_text: q(&c.minus_text),
                editorial: c.editorial.is_some(),
                at: i,
                plus_at: idx(c.plus.value),
                minus_at: idx(c.minus.value),
            });
            challenges.len() - 1
        });
        let feature = |f: &blockprint_content::Feature, list: &mut Vec<FeatureOut>, tag: &str| {
            let k = list.len() + 1;
            let title = String::from(&f.title);
            list.push(FeatureOut {
                label: format!("{}{k}", &tag[..1]),
                heading: format!("{tag} {k} · space {n} · {title}{}", dagger(&f.editorial)),
                tag: tag.to_owned(),
                space: n,
                title,
                text: q(&f.text),
                editorial: f.editorial.is_some(),
            });
            list.len() - 1
        };
        let gate = s.gate.as_ref().map(|g| feature(g, &mut gates, "Gate"));
        let exit = s.exit.as_ref().map(|g| feature(g, &mut exits, "Exit"));
        let mut chips = Vec::new();
        for side in [Side::Pursuer, Side::Evader] {
            let count = t
                .starts
                .iter()
                .filter(|x| x.side == side && x.space.value == n)
                .count();
            if count > 0 {
                let what = side_word(side);
                chips.push(Chip {
                    side,
                    count,
                    label: format!("{count} {what}{}", if count == 1 { "" } else { "s" }),
                });
            }
        }
        spaces.push(SpaceOut {
            n,
            name: q(&s.name),
            row: 0,
            col: 0,
            challenge,
            gate,
            exit,
            chips,
        });
    }
    let spans: Vec<(usize, usize)> = challenges
        .iter()
        .map(|c| (c.minus_at.min(c.at), c.plus_at.max(c.at)))
        .collect();
    let most = per_row(req.paper);
    let breaks = rows(spaces.len(), most, &spans);
    for (r, &(a, b)) in breaks.iter().enumerate() {
        for (c, s) in spaces[a..b].iter_mut().enumerate() {
            (s.row, s.col) = (r, c);
        }
    }
    let starts_line = t
        .starts
        .iter()
        .map(|s| format!("{} ({}, space {})", s.who, side_word(s.side), s.space.value))
        .collect::<Vec<_>>()
        .join("; ")
        + ".";
    let title = String::from(&t.title);
    let about = about(cx)?;
    let fill_notes = about
        .fills
        .iter()
        .filter(|f| f.id == t.id.value && !f.at.is_empty())
        .map(|f| format!("{} ({}): {}", f.at, f.result, f.reason))
        .collect();
    let data = TrackData {
        meta: crate::meta(cx, req),
        about,
        prose: super::prose(cx, GAME, ROUND_PAGE, &ROUND)?,
        id: t.id.value.clone(),
        features_title: format!("{title}: the features"),
        starts_title: "Starts".into(),
        editorial_title: "Editorial notes †".into(),
        fill_notes,
        starts_line,
        title,
        note: t.note.as_deref().map(String::from),
        editorial: t.editorial.as_deref().map(String::from),
        per_row: most,
        rows: breaks.len(),
        spaces,
        challenges,
        gates,
        exits,
        starts: t
            .starts
            .iter()
            .map(|s| StartOut {
                who: String::from(&s.who),
                side: s.side,
                space: s.space.value,
            })
            .collect(),
    };
    let title = format!("Chase track: {}", data.title);
    Ok(Document::new(
        format!("track-{}", crate::export::slug(&t.id.value)),
        "kit-rbf/track",
        title,
        json("a track sheet's data", &data)?,
    )
    .audience(crate::Audience::Gm))
}

/// ` †` after the heading of an editorial fill.
fn dagger<T>(editorial: &Option<T>) -> &'static str {
    if editorial.is_some() { " †" } else { "" }
}

/// A side as the track's legend names it.
fn side_word(side: Side) -> &'static str {
    match side {
        Side::Pursuer => "pursuer",
        Side::Evader => "evader",
    }
}

/// One drawn track per `[[track]]` of the content, in content order.
pub(super) fn tracks(cx: &Checked, req: &Request) -> Result<Vec<Document>> {
    cx.lib
        .tracks
        .iter()
        .map(|t| track_doc(cx, req, t))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::rows;

    #[test]
    fn rows_wrap_and_keep_challenges_whole() {
        assert_eq!(rows(5, 13, &[]), vec![(0, 5)]);
        assert_eq!(rows(26, 13, &[]), vec![(0, 13), (13, 26)]);
        // A challenge on 12 whose + path reaches 14 moves the break back to 12.
        assert_eq!(rows(26, 13, &[(12, 14)]), vec![(0, 12), (12, 25), (25, 26)]);
        // A span starting the row cannot move the break (the row would be empty).
        assert_eq!(
            rows(20, 5, &[(0, 9)]),
            vec![(0, 5), (5, 10), (10, 15), (15, 20)]
        );
    }
}
