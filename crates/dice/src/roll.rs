//! A parsed dice syntax tree and a random number generator in; a [`Rolled`] value with a readable
//! breakdown out.
//!
//! Rolling consumes the generator in a fixed order (terms left to right, dice one after another, each
//! die's explosion chain finished before the next die), and draws every face with
//! `random_range(1..=sides)` on `u32`, which is portable across platforms. So the same seed always
//! gives the same roll. Explosions follow the same [`EXPLODE_CAP`] as the distribution.

use std::fmt::Write as _;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use rand::{Rng, RngExt};
use serde::Serializer;

use super::EXPLODE_CAP;
use super::dist::{DistError, zero_divisor_error};
use super::format::fraction;
use super::parse::{BinOp, DiceTerm, Keep, KeepKind, Node, NodeKind, Sides};

/// One roll of an expression: its value and a breakdown such as `4d6kh3 [6, 5, 3, (1)] = 14`.
///
/// In the breakdown, dropped dice are in parentheses, an exploded die shows its chain as `6!+4` (or,
/// when `!` meets keep/drop or `cs`, each roll as a die of its own: `6!, 4`), and dice counted as
/// successes by `cs` carry a `*`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Rolled {
    #[serde(serialize_with = "serialize_fraction")]
    pub value: BigRational,
    pub detail: String,
}

fn serialize_fraction<S: Serializer>(value: &BigRational, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&fraction(value))
}

/// Roll a whole syntax tree; `src` is the text its spans point into.
pub(crate) fn roll_tree<R: Rng + ?Sized>(
    root: &Node,
    src: &str,
    rng: &mut R,
) -> Result<Rolled, DistError> {
    let mut detail = String::new();
    let value = roll_node(root, src, rng, &mut detail)?;
    detail.push_str(" = ");
    detail.push_str(&fraction(&value));
    Ok(Rolled { value, detail })
}

fn roll_node<R: Rng + ?Sized>(
    node: &Node,
    src: &str,
    rng: &mut R,
    out: &mut String,
) -> Result<BigRational, DistError> {
    let text = src.get(node.span.start..node.span.end).unwrap_or("");
    match &node.kind {
        NodeKind::Int(n) => {
            let _ = write!(out, "{n}");
            Ok(BigRational::from_integer(BigInt::from(*n)))
        }
        NodeKind::Dice(term) => Ok(BigRational::from_integer(BigInt::from(roll_dice(
            term, text, rng, out,
        )))),
        NodeKind::Group(inner) => {
            out.push('(');
            let v = roll_node(inner, src, rng, out)?;
            out.push(')');
            Ok(v)
        }
        NodeKind::Neg(inner) => {
            out.push('-');
            Ok(-roll_node(inner, src, rng, out)?)
        }
        NodeKind::Binary { op, lhs, rhs } => {
            let a = roll_node(lhs, src, rng, out)?;
            let _ = write!(out, " {} ", op.symbol());
            let b = roll_node(rhs, src, rng, out)?;
            Ok(match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                BinOp::Div => {
                    if b.is_zero() {
                        return Err(zero_divisor_error(src, rhs.span, "rolled 0"));
                    }
                    a / b
                }
            })
        }
    }
}

/// Roll a percentile die with bonus or penalty dice: the units die (0-9) first, then `extra + 1` tens
/// dice (00-90). Each tens die with the units die reads as one result (00 with 0 is 100); a bonus keeps
/// the lowest result, a penalty the highest (ties keep the earlier die). Shown as
/// `d%b1 [tens 30, (70); units 4]`, the tens not used in parentheses.
fn roll_percentile<R: Rng + ?Sized>(
    term: &DiceTerm,
    p: super::parse::Percentile,
    label: &str,
    rng: &mut R,
    out: &mut String,
) -> i64 {
    let units = i64::from(rng.random_range(1..=10u32)) - 1;
    let tens: Vec<i64> = (0..=p.extra)
        .map(|_| i64::from(rng.random_range(1..=10u32)) - 1)
        .collect();
    let read = |t: i64| {
        if t == 0 && units == 0 {
            100
        } else {
            10 * t + units
        }
    };
    let mut chosen = 0;
    for (i, t) in tens.iter().enumerate() {
        let better = if p.penalty {
            read(*t) > read(tens[chosen])
        } else {
            read(*t) < read(tens[chosen])
        };
        if better {
            chosen = i;
        }
    }
    let result = read(tens[chosen]);
    let (value, star) = match term.success {
        Some(cmp) if cmp.test(result) => (1, "*"),
        Some(_) => (0, ""),
        None => (result, ""),
    };
    let shown: Vec<String> = tens
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if i == chosen {
                format!("{t}0{star}")
            } else {
                format!("({t}0)")
            }
        })
        .collect();
    let _ = write!(out, "{label} [tens {}; units {units}]", shown.join(", "));
    value
}

/// Roll one die including its explosion chain; returns the faces shown, in order.
fn roll_one<R: Rng + ?Sized>(term: &DiceTerm, rng: &mut R) -> Vec<i64> {
    match term.sides {
        Sides::Fudge => vec![i64::from(rng.random_range(1..=3u32)) - 2],
        Sides::Num(s) => {
            let mut face = rng.random_range(1..=s);
            let mut chain = vec![i64::from(face)];
            let mut extra = 0;
            while term.explode && face == s && extra < EXPLODE_CAP {
                face = rng.random_range(1..=s);
                chain.push(i64::from(face));
                extra += 1;
            }
            chain
        }
    }
}

/// Roll a dice term, append its breakdown to `out` and return its value.
fn roll_dice<R: Rng + ?Sized>(term: &DiceTerm, label: &str, rng: &mut R, out: &mut String) -> i64 {
    if let Some(p) = term.percentile {
        return roll_percentile(term, p, label, rng, out);
    }
    let chains: Vec<Vec<i64>> = (0..term.count).map(|_| roll_one(term, rng)).collect();
    if super::dist::separate_pool(term) {
        return pool_dice(term, &chains, label, out);
    }
    let totals: Vec<i64> = chains.iter().map(|c| c.iter().sum()).collect();
    let (k, highest) = term.kept();
    let mut kept = vec![true; totals.len()];
    if (k as usize) < totals.len() {
        // Stable order by value, preferred dice first; ties keep the earlier die.
        let mut order: Vec<usize> = (0..totals.len()).collect();
        if highest {
            order.sort_by(|&a, &b| totals[b].cmp(&totals[a]));
        } else {
            order.sort_by(|&a, &b| totals[a].cmp(&totals[b]));
        }
        for &i in &order[k as usize..] {
            kept[i] = false;
        }
    }
    let mut value = 0i64;
    let mut shown = Vec::with_capacity(chains.len());
    for ((chain, total), keep) in chains.iter().zip(&totals).zip(&kept) {
        let mut text = chain
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join("!+");
        if *keep {
            match term.success {
                Some(cmp) => {
                    if cmp.test(*total) {
                        value += 1;
                        text.push('*');
                    }
                }
                None => value += total,
            }
        } else {
            text = format!("({text})");
        }
        shown.push(text);
    }
    let _ = write!(out, "{label} [{}]", shown.join(", "));
    value
}

/// `!` with keep/drop or `cs`: every roll of every chain is a die of its own, shown in rolling order
/// as `6!` (it exploded) or `4`; keep/drop picks from all of them (ties keep the earlier roll).
fn pool_dice(term: &DiceTerm, chains: &[Vec<i64>], label: &str, out: &mut String) -> i64 {
    let pool: Vec<i64> = chains.iter().flatten().copied().collect();
    let Sides::Num(s) = term.sides else {
        return 0;
    };
    let top = i64::from(s);
    let len = pool.len() as u32;
    let (k, highest) = match term.keep {
        None => (len, true),
        Some(Keep { kind, n }) => match kind {
            KeepKind::KeepHighest => (n.min(len), true),
            KeepKind::KeepLowest => (n.min(len), false),
            KeepKind::DropLowest => (len.saturating_sub(n), true),
            KeepKind::DropHighest => (len.saturating_sub(n), false),
        },
    };
    let mut order: Vec<usize> = (0..pool.len()).collect();
    if highest {
        order.sort_by(|&a, &b| pool[b].cmp(&pool[a]));
    } else {
        order.sort_by(|&a, &b| pool[a].cmp(&pool[b]));
    }
    let mut kept = vec![false; pool.len()];
    for &i in &order[..k as usize] {
        kept[i] = true;
    }
    // A roll explodes when it shows the maximum and is not the last link of a chain cut off by the cap.
    let mut explodes = Vec::with_capacity(pool.len());
    for chain in chains {
        for (i, face) in chain.iter().enumerate() {
            explodes.push(*face == top && i + 1 < chain.len());
        }
    }
    let mut value = 0i64;
    let mut shown = Vec::with_capacity(pool.len());
    for ((face, keep), boom) in pool.iter().zip(&kept).zip(&explodes) {
        let mut text = face.to_string();
        if *boom {
            text.push('!');
        }
        if *keep {
            match term.success {
                Some(cmp) => {
                    if cmp.test(*face) {
                        value += 1;
                        text.push('*');
                    }
                }
                None => value += face,
            }
        } else {
            text = format!("({text})");
        }
        shown.push(text);
    }
    let _ = write!(out, "{label} [{}]", shown.join(", "));
    value
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    use super::*;
    use crate::parse;

    fn rolls(src: &str, seed: u64, times: usize) -> Vec<Rolled> {
        let expr = parse(src).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        (0..times).map(|_| expr.roll(&mut rng).unwrap()).collect()
    }

    /// The dice shown inside the first `[...]` of a breakdown.
    fn shown_dice(detail: &str) -> Vec<String> {
        let open = detail.find('[').unwrap();
        let close = detail.find(']').unwrap();
        detail[open + 1..close]
            .split(", ")
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn same_seed_same_rolls() {
        for src in [
            "3d6",
            "4d6kh3",
            "1d6!+2",
            "4dF",
            "3d6kh2cs>=6",
            "1d6/2",
            "2d20kl1 - (1d4)*2",
        ] {
            assert_eq!(rolls(src, 7, 50), rolls(src, 7, 50), "{src}");
        }
        // a different seed gives a different sequence
        assert_ne!(rolls("10d6", 1, 20), rolls("10d6", 2, 20));
    }

    #[test]
    fn rolls_stay_in_the_support() {
        for src in [
            "3d6",
            "d%",
            "4d6kh3",
            "4d6dl1",
            "4d6dh1",
            "2d10kl1",
            "1d6!",
            "2d6!kh1",
            "4dF",
            "5d6cs>=6",
            "3d6kh2cs>=6",
            "1d6/2",
            "(1d4)*2",
            "2d6+3",
            "1d3-1",
            "-1d8+1d4",
            "2d2!cs>=3",
            "3d6!kh2",
            "3d6!!kh2",
            "5d6!cs>=6",
            "4d4!dl2",
            "3d4!dh1cs>=3",
            "12/(1d3)",
            "d%b1",
            "d%p2",
            "d%b2cs<=40",
            "2d6\u{2212}1",
        ] {
            let expr = parse(src).unwrap();
            let dist = expr.distribution().unwrap();
            let mut rng = ChaCha20Rng::seed_from_u64(2024);
            for _ in 0..3000 {
                let r = expr.roll(&mut rng).unwrap();
                assert!(
                    dist.probability(&r.value) > BigRational::zero(),
                    "{src}: rolled {}",
                    r.detail
                );
                assert!(
                    r.detail.ends_with(&format!(" = {}", fraction(&r.value))),
                    "{}",
                    r.detail
                );
            }
        }
    }

    #[test]
    fn keep_breakdown_matches_value() {
        for r in rolls("4d6kh3", 11, 500) {
            let dice = shown_dice(&r.detail);
            assert!(r.detail.starts_with("4d6kh3 ["), "{}", r.detail);
            assert_eq!(dice.len(), 4);
            let dropped: Vec<i64> = dice
                .iter()
                .filter(|d| d.starts_with('('))
                .map(|d| d[1..d.len() - 1].parse().unwrap())
                .collect();
            let kept: Vec<i64> = dice
                .iter()
                .filter(|d| !d.starts_with('('))
                .map(|d| d.parse().unwrap())
                .collect();
            assert_eq!(dropped.len(), 1, "{}", r.detail);
            assert!(kept.iter().all(|&k| k >= dropped[0]), "{}", r.detail);
            assert_eq!(
                BigRational::from_integer(kept.iter().sum::<i64>().into()),
                r.value
            );
        }
    }

    #[test]
    fn separate_explosions_are_dice_of_their_own() {
        // `!` with keep: every roll is shown as a die, an exploding one as `4!`; the kept ones add up.
        let mut saw = false;
        for r in rolls("2d4!kh1", 9, 400) {
            let dice = shown_dice(&r.detail);
            assert!(dice.len() >= 2, "{}", r.detail);
            let kept: Vec<i64> = dice
                .iter()
                .filter(|d| !d.starts_with('('))
                .map(|d| d.trim_end_matches('!').parse().unwrap())
                .collect();
            assert_eq!(kept.len(), 1, "{}", r.detail);
            assert_eq!(BigRational::from_integer(kept[0].into()), r.value);
            saw |= dice.len() > 2;
        }
        assert!(saw, "400 rolls of 2d4!kh1 should explode at least once");
        let expr = parse("1d4!kh1").unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        let r = (0..200)
            .map(|_| expr.roll(&mut rng).unwrap())
            .find(|r| shown_dice(&r.detail).len() > 1)
            .unwrap();
        assert!(r.detail.starts_with("1d4!kh1 [4!, "), "{}", r.detail);
        assert_eq!(r.value, BigRational::from_integer(4.into()));
    }

    #[test]
    fn explosion_chains_are_shown() {
        let mut saw_chain = false;
        for r in rolls("1d4!", 5, 500) {
            let dice = shown_dice(&r.detail);
            let links: Vec<&str> = dice[0].split('+').collect();
            // every link but the last shows the maximum followed by `!`
            for link in &links[..links.len() - 1] {
                assert_eq!(*link, "4!", "{}", r.detail);
            }
            assert!(!links[links.len() - 1].ends_with('!'));
            let sum: i64 = links
                .iter()
                .map(|l| l.trim_end_matches('!').parse::<i64>().unwrap())
                .sum();
            assert_eq!(BigRational::from_integer(sum.into()), r.value);
            saw_chain |= links.len() > 1;
        }
        assert!(saw_chain, "500 rolls of 1d4! should explode at least once");
    }

    #[test]
    fn successes_are_marked() {
        for r in rolls("5d6cs>=5", 3, 200) {
            let dice = shown_dice(&r.detail);
            let marked = dice.iter().filter(|d| d.ends_with('*')).count() as i64;
            assert_eq!(
                BigRational::from_integer(marked.into()),
                r.value,
                "{}",
                r.detail
            );
            for d in dice {
                let face: i64 = d.trim_end_matches('*').parse().unwrap();
                assert_eq!(d.ends_with('*'), face >= 5, "{}", r.detail);
            }
        }
    }

    #[test]
    fn breakdown_of_a_compound_expression() {
        let r = &rolls("(1d4)*2 + 3", 9, 1)[0];
        assert!(r.detail.starts_with("(1d4 ["), "{}", r.detail);
        assert!(r.detail.contains("]) * 2 + 3 = "), "{}", r.detail);
        let fudge = &rolls("4dF", 9, 1)[0];
        for d in shown_dice(&fudge.detail) {
            assert!(["-1", "0", "1"].contains(&d.as_str()), "{}", fudge.detail);
        }
    }

    #[test]
    fn division_by_a_rolled_zero_is_an_error() {
        let expr = parse("1d6/(1d2-1)").unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        let results: Vec<_> = (0..100).map(|_| expr.roll(&mut rng)).collect();
        assert!(results.iter().any(|r| r.is_err()));
        assert!(results.iter().any(|r| r.is_ok()));
        let e = results.into_iter().find_map(Result::err).unwrap();
        assert!(e.message.contains("division by zero"), "{e}");
    }

    #[test]
    fn serializes_value_as_fraction() {
        let r = Rolled {
            value: BigRational::new(BigInt::from(-3), BigInt::from(6)),
            detail: "x".into(),
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"value":"-1/2","detail":"x"}"#
        );
    }

    #[test]
    fn percentile_breakdown_reads_its_dice() {
        for src in ["d%b1", "d%b2", "d%p1", "d%p3"] {
            let penalty = src.contains('p');
            for r in rolls(src, 11, 300) {
                // `d%b2 [tens (60), 10, (30); units 3] = 13`
                let inner = &r.detail[r.detail.find('[').unwrap() + 1..r.detail.find(']').unwrap()];
                let (tens, units) = inner
                    .strip_prefix("tens ")
                    .unwrap()
                    .split_once("; units ")
                    .unwrap();
                let units: i64 = units.parse().unwrap();
                let read = |t: &str| {
                    let t: i64 = t.trim_matches(|c| c == '(' || c == ')').parse().unwrap();
                    if t == 0 && units == 0 { 100 } else { t + units }
                };
                let all: Vec<i64> = tens.split(", ").map(read).collect();
                let kept: Vec<i64> = tens
                    .split(", ")
                    .filter(|t| !t.starts_with('('))
                    .map(read)
                    .collect();
                assert_eq!(kept.len(), 1, "{}", r.detail);
                let want = if penalty {
                    all.iter().max()
                } else {
                    all.iter().min()
                };
                assert_eq!(Some(&kept[0]), want, "{}", r.detail);
                assert_eq!(
                    r.value,
                    BigRational::from_integer(BigInt::from(kept[0])),
                    "{}",
                    r.detail
                );
                assert_eq!(all.len(), src[3..].parse::<usize>().unwrap() + 1);
            }
        }
    }
}
