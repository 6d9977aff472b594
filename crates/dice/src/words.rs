//! Dice notation said in words, for paper that players read: an expression in, a phrase out (`2d10kl1`
//! is "the lower of two d10"), plain notation every player reads (`1d6`, `2d6+1`) kept as written. The
//! chase kits and the reference cards both print table results through [`spoken_result`].

use super::{BinOp, CmpOp, DiceTerm, Node, NodeKind, Sides};

const NUMBER_WORDS: [&str; 11] = [
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
];

/// A small count in words (`two`), a larger one in figures.
pub fn count_words(n: u32) -> String {
    NUMBER_WORDS
        .get(n as usize)
        .map_or_else(|| n.to_string(), |w| (*w).to_owned())
}

/// Whether `expr` is plain notation every player reads (`1d6`, `2d6+1`, `d20`, `3`): dice of numbered
/// sides with no keep, drop, explode, success count or bonus dice.
pub fn plain_dice(node: &Node) -> bool {
    use NodeKind as K;
    match &node.kind {
        K::Int(_) => true,
        K::Dice(t) => {
            matches!(t.sides, Sides::Num(n) if n != 100)
                && !t.explode
                && t.keep.is_none()
                && t.success.is_none()
                && t.percentile.is_none()
        }
        K::Group(n) | K::Neg(n) => plain_dice(n),
        K::Binary { op, lhs, rhs } => {
            matches!(op, BinOp::Add | BinOp::Sub) && plain_dice(lhs) && plain_dice(rhs)
        }
    }
}

/// Dice notation said in words for player-facing paper: `2d10kl1` is "the lower of two d10", `2dF+3`
/// "two Fudge dice plus 3", `4d6kh3` "the highest three of four d6", `d%b1` "percentile dice with one
/// bonus die", `3d6!` "three exploding d6", `5d10cs>=8` "the number of five d10 showing 8 or more".
/// Plain notation (`1d6`, `2d6+1`) is returned as written (it is how players say it). `None` when
/// the text is not dice notation.
pub fn dice_words(expr: &str) -> Option<String> {
    let e = super::parse(expr).ok()?;
    if plain_dice(e.root()) {
        return Some(expr.trim().to_owned());
    }
    Some(node_words(e.root()))
}

fn node_words(node: &Node) -> String {
    use NodeKind as K;
    match &node.kind {
        K::Int(n) => n.to_string(),
        K::Dice(t) => term_words(t),
        K::Group(n) => node_words(n),
        K::Neg(n) => format!("minus {}", node_words(n)),
        K::Binary { op, lhs, rhs } => {
            let word = match op {
                BinOp::Add => "plus",
                BinOp::Sub => "minus",
                BinOp::Mul => "times",
                BinOp::Div => "divided by",
            };
            format!("{} {word} {}", node_words(lhs), node_words(rhs))
        }
    }
}

fn term_words(t: &DiceTerm) -> String {
    let n = t.count;
    let die = |k: u32| -> String {
        match t.sides {
            Sides::Fudge => {
                if k == 1 {
                    "Fudge die".into()
                } else {
                    "Fudge dice".into()
                }
            }
            Sides::Num(100) => {
                if k == 1 {
                    "percentile die".into()
                } else {
                    "percentile dice".into()
                }
            }
            Sides::Num(s) => format!("d{s}"),
        }
    };
    if let Some(p) = t.percentile {
        let kind = if p.penalty { "penalty" } else { "bonus" };
        let plural = if p.extra == 1 { "die" } else { "dice" };
        return format!(
            "percentile dice with {} {kind} {plural}",
            count_words(p.extra)
        );
    }
    let explode = if t.explode { "exploding " } else { "" };
    let dice = format!("{} {explode}{}", count_words(n), die(n));
    let kept = match t.keep {
        None => dice,
        Some(_) => {
            let (k, high) = t.kept();
            let (one, many) = if high {
                ("higher", "highest")
            } else {
                ("lower", "lowest")
            };
            match (n, k) {
                (2, 1) => format!("the {one} of {dice}"),
                (_, 1) => format!("the {many} of {dice}"),
                _ => format!("the {many} {} of {dice}", count_words(k)),
            }
        }
    };
    // Only with keep/drop or `cs` does it matter whether extra rolls are dice of their own (`!`) or
    // add into the die that exploded (`!!`).
    let kept = if crate::dist::separate_pool(t) {
        format!("{kept} (every extra roll a die of its own)")
    } else if t.compound && (t.keep.is_some() || t.success.is_some()) {
        format!("{kept} (extra rolls added into the die that exploded)")
    } else {
        kept
    };
    match t.success {
        None => kept,
        Some(c) => {
            let cmp = match c.op {
                CmpOp::Ge => format!("{} or more", c.value),
                CmpOp::Gt => format!("more than {}", c.value),
                CmpOp::Le => format!("{} or less", c.value),
                CmpOp::Lt => format!("less than {}", c.value),
                CmpOp::Eq => format!("exactly {}", c.value),
            };
            format!("the number of {kept} showing {cmp}")
        }
    }
}

/// A result text with its `{dice}` spans for player-facing paper: the braces dropped, and notation
/// players do not read said in words ([`dice_words`]): `Lose {2d10kl1} points` is printed `Lose the lower
/// of two d10 points` (as the chase reference cards say it), `Lose {1d6} points` stays `Lose 1d6 points`.
pub fn spoken_result(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(len) = rest[open..].find('}') else {
            break;
        };
        let inner = &rest[open + 1..open + len];
        out.push_str(&rest[..open]);
        match dice_words(inner) {
            Some(w) => out.push_str(&w),
            None => out.push_str(inner),
        }
        rest = &rest[open + len + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_are_said_in_words_where_notation_is_not_plain() {
        let words = |e: &str| dice_words(e).unwrap();
        assert_eq!(words("2d10kl1"), "the lower of two d10");
        assert_eq!(words("2d20kh1"), "the higher of two d20");
        assert_eq!(words("4d6kh3"), "the highest three of four d6");
        assert_eq!(words("2dF+3"), "two Fudge dice plus 3");
        assert_eq!(words("1d6"), "1d6");
        assert_eq!(words("2d6 - 1"), "2d6 - 1");
        assert_eq!(dice_words("2d"), None);
        assert_eq!(
            spoken_result("Lose {2d10kl1} points from STR/DEX/CON"),
            "Lose the lower of two d10 points from STR/DEX/CON"
        );
        assert_eq!(
            spoken_result("a Scholar of level {1d6}"),
            "a Scholar of level 1d6"
        );
    }
}
