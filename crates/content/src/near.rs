//! "Did you mean": the one way blockprint guesses what a user meant when a name is not found (a table
//! id in `roll`, `check`, `export`; a least-wanted assignment in a campaign), so every front suggests
//! the same thing for the same slip.

/// Edit distance (Levenshtein, in characters) between `a` and `b`.
pub fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The candidate the user most likely meant by `given`, compared without regard to case and runs of
/// spaces: the nearest by edit distance when it is within half of `given`'s length plus two, else the
/// first that holds `given` or is held by it (a table named by the end of its id: `gunshot` for
/// `bbb.homicide.gunshot`). Ties go to the earlier candidate. `None` when nothing is near.
pub fn nearest<'a>(given: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let norm = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let g = norm(given);
    if g.is_empty() {
        return None;
    }
    let limit = g.chars().count() / 2 + 2;
    let mut best: Option<(usize, &str)> = None;
    let mut holding: Option<&str> = None;
    for c in candidates {
        let n = norm(c);
        let d = distance(&g, &n);
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
        if holding.is_none() && (n.contains(&g) || g.contains(&n)) && !n.is_empty() {
            holding = Some(c);
        }
    }
    best.map(|(_, c)| c).or(holding)
}

/// `did you mean `x`?` for the candidate [`nearest`] finds, or `None`.
pub fn did_you_mean<'a>(
    given: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    nearest(given, candidates).map(|n| format!("did you mean `{n}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_edits_in_characters() {
        assert_eq!(distance("", ""), 0);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("gunshot", "gunshots"), 1);
        assert_eq!(distance("é", "e"), 1);
        assert_eq!(distance("bbb.homicide.distrct", "bbb.homicide.district"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("abc", "abc"), 0);
    }

    #[test]
    fn the_nearest_is_a_slip_then_a_part_of_the_id() {
        let ids = [
            "bbb.homicide.gunshot",
            "bbb.homicide.district",
            "bbb.name.first",
        ];
        assert_eq!(
            nearest("bbb.homicide.gunshto", ids),
            Some("bbb.homicide.gunshot")
        );
        // A part of the id, too far to be a slip.
        assert_eq!(nearest("district", ids), Some("bbb.homicide.district"));
        assert_eq!(nearest("nothing-like-it", ids), None);
        assert_eq!(nearest("", ids), None);
        // Case and spaces do not count.
        assert_eq!(
            nearest("Desk  Duty", ["desk duty", "patrol"]),
            Some("desk duty")
        );
        assert_eq!(
            did_you_mean("patrl", ["desk duty", "patrol"]).as_deref(),
            Some("did you mean `patrol`?")
        );
    }
}
