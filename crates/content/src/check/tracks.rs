//! Chase tracks (`[[track]]`): every track's spaces numbered one after another, every challenge's + path
//! leading ahead of the next space and its − path at or behind its own, neither to a space the track lacks
//! nor the + path past a gate; at least one exit; every start on a space, and a start for each side.
//! Track ids are checked like every other id (`bad_id`, `duplicate_id`).

use std::collections::BTreeMap;

use crate::diag::{Diagnostic, Kind};
use crate::{Library, Side, Track};

pub(super) fn check(lib: &Library, out: &mut Vec<Diagnostic>) {
    ids(lib, out);
    for t in &lib.tracks {
        track(lib, t, out);
    }
}

/// Track ids: valid, and unique among tracks and every other item.
fn ids(lib: &Library, out: &mut Vec<Diagnostic>) {
    let others: BTreeMap<&str, &crate::Located<String>> = lib
        .tables
        .iter()
        .map(|t| &t.id)
        .chain(lib.lookups.iter().map(|l| &l.id))
        .chain(lib.decks.iter().map(|d| &d.id))
        .chain(lib.npcs.iter().map(|n| &n.id))
        .chain(lib.books.iter().map(|b| &b.id))
        .chain(lib.rulings.iter().map(|r| &r.id))
        .chain(lib.kits.iter().map(|k| &k.id))
        .map(|id| (id.value.as_str(), id))
        .collect();
    let mut seen: BTreeMap<&str, &crate::Located<String>> = BTreeMap::new();
    for t in &lib.tracks {
        let id = &t.id;
        if !super::ids::valid_id(&id.value) {
            out.push(
                Diagnostic::error(Kind::BadId, &lib.sources, &id.loc, format!("`{}` is not a valid id", id.value))
                    .with_table(&id.value)
                    .with_hint("use lowercase letters, digits, `.`, `_` and `-`, starting with a letter, e.g. `rbf.track.tenderloin`"),
            );
        }
        let first = seen
            .get(id.value.as_str())
            .or_else(|| others.get(id.value.as_str()));
        match first {
            Some(first) => {
                let (path, line) = (lib.file_of(&first.loc), lib.line_of(&first.loc));
                out.push(
                    Diagnostic::error(
                        Kind::DuplicateId,
                        &lib.sources,
                        &id.loc,
                        format!("track id `{}` is already used at {path}:{line}", id.value),
                    )
                    .with_table(&id.value)
                    .with_hint("ids are unique across all content; rename one of them"),
                );
            }
            None => {
                seen.insert(&id.value, id);
            }
        }
    }
}

fn track(lib: &Library, t: &Track, out: &mut Vec<Diagnostic>) {
    let id = t.id.value.as_str();
    let err = |kind, loc: &crate::diag::Loc, msg: String, hint: String| {
        Diagnostic::error(kind, &lib.sources, loc, msg)
            .with_table(id)
            .with_hint(hint)
    };
    let Some(first) = t.spaces.first() else {
        out.push(err(
            Kind::TrackOrder,
            &t.id.loc,
            format!("track `{id}` has no spaces"),
            "list the spaces in running order as `[[track.space]]` tables with `n = 0`, `n = 1` …"
                .into(),
        ));
        return;
    };
    // Numbered one after another from the first space's number (0 or more).
    let start = first.n.value;
    let mut ordered = true;
    if start < 0 {
        ordered = false;
        out.push(err(
            Kind::TrackOrder,
            &first.n.loc,
            format!("track `{id}` starts at space {start}; spaces are numbered from 0 up"),
            "number the first space 0 (or 1) and count up by one".into(),
        ));
    }
    for (i, s) in t.spaces.iter().enumerate() {
        let want = start.saturating_add(i as i64);
        if ordered && s.n.value != want {
            ordered = false;
            out.push(err(
                Kind::TrackOrder,
                &s.n.loc,
                format!(
                    "space {} of track `{id}` is out of order: the space after {} must be {want}",
                    s.n.value,
                    want - 1
                ),
                format!("list the spaces in running order, numbered one after another: `n = {want}` here"),
            ));
        }
    }
    if !ordered {
        // Paths and starts name spaces by number; with the numbering broken they cannot be checked.
        return;
    }
    let last = start + t.spaces.len() as i64 - 1;
    let exists = |n: i64| (start..=last).contains(&n);
    let range = format!("{start}–{last}");
    for s in &t.spaces {
        let Some(c) = &s.challenge else { continue };
        let n = s.n.value;
        let p = c.plus.value;
        if !exists(p) {
            out.push(err(
                Kind::TrackPath,
                &c.plus.loc,
                format!("the + path of challenge `{}` on space {n} leads to space {p}, which track `{id}` does not have (spaces {range})", c.title),
                "point `plus` at a space of the track ahead of the challenge".into(),
            ));
        } else if p <= n + 1 {
            out.push(err(
                Kind::TrackPath,
                &c.plus.loc,
                format!("the + path of challenge `{}` on space {n} leads to space {p}, which is no shortcut: the default path already reaches space {}", c.title, n + 1),
                format!("the + path skips spaces: give `plus` a space after {}", n + 1),
            ));
        } else if let Some(g) = t
            .spaces
            .iter()
            .find(|g| g.gate.is_some() && g.n.value > n && g.n.value < p)
        {
            out.push(err(
                Kind::TrackPath,
                &c.plus.loc,
                format!(
                    "the + path of challenge `{}` on space {n} leads past the gate on space {}",
                    c.title, g.n.value
                ),
                format!(
                    "every runner stops at a gate: end the + path at space {} or before",
                    g.n.value
                ),
            ));
        }
        let m = c.minus.value;
        if !exists(m) {
            out.push(err(
                Kind::TrackPath,
                &c.minus.loc,
                format!("the − path of challenge `{}` on space {n} leads to space {m}, which track `{id}` does not have (spaces {range})", c.title),
                "point `minus` at a space of the track at or behind the challenge".into(),
            ));
        } else if m > n {
            out.push(err(
                Kind::TrackPath,
                &c.minus.loc,
                format!("the − path of challenge `{}` on space {n} leads to space {m}, ahead of the challenge; the − path is the longer way", c.title),
                format!("give `minus` the challenge's own space ({n}) or one behind it"),
            ));
        }
        if s.exit.is_some() {
            out.push(err(
                Kind::TrackPath,
                &c.loc,
                format!("space {n} of track `{id}` is an exit and holds challenge `{}`: a runner who reaches an exit has left the track", c.title),
                "move the challenge to a space before the exit".into(),
            ));
        }
    }
    if !t.spaces.iter().any(|s| s.exit.is_some()) {
        out.push(err(
            Kind::TrackExit,
            &t.id.loc,
            format!("track `{id}` has no exit"),
            "give a space an `[track.space.exit]` with a `title` (usually the last space)".into(),
        ));
    }
    for s in &t.starts {
        let n = s.space.value;
        if !exists(n) {
            out.push(err(
                Kind::TrackStart,
                &s.space.loc,
                format!(
                    "{} starts on space {n}, which track `{id}` does not have (spaces {range})",
                    s.who
                ),
                format!("start every runner on a space from {start} to {last}"),
            ));
        } else if t.spaces.iter().any(|x| x.n.value == n && x.exit.is_some()) {
            out.push(err(
                Kind::TrackStart,
                &s.space.loc,
                format!("{} starts on space {n}, an exit of track `{id}`", s.who),
                "start runners before the exit".into(),
            ));
        }
    }
    for (side, name, a) in [
        (Side::Pursuer, "pursuer", "a"),
        (Side::Evader, "evader", "an"),
    ] {
        if !t.starts.iter().any(|s| s.side == side) {
            out.push(err(
                Kind::TrackStart,
                &t.id.loc,
                format!("track `{id}` has no start for {a} {name}"),
                format!("add `[[track.start]]` with `who`, `side = \"{name}\"` and `space`"),
            ));
        }
    }
}
