//! Dice notation for other tools: a parsed expression in, the same expression as Foundry VTT or Roll20
//! write it out. Counts are always written (`d8` → `1d8`, `d%` → `1d100`), modifiers come in the order
//! the dice engine applies them (explode, keep/drop, count successes), whatever order the content wrote.
//!
//! | blockprint | Foundry VTT | Roll20 |
//! |---|---|---|
//! | `1d6!` | `1d6x` | `1d6!` |
//! | `1d6!!` | none: refused ([`foundry_refusal`]) | `1d6!!` |
//! | `4d6kh3`, `dl1` … | `4d6kh3`, `dl1` … | the same |
//! | `5d6cs>=6` | `5d6cs>=6` | `5d6>6` (Roll20's `>` means "at least") |
//! | `3d6!cs>=6` | `3d6xcs>=6` | `{3d6!}>6` (after `!`, a comparison would be the explosion point) |
//! | `4dF` | `4df` | `4dF` |
//! | `4dFcs>=1` | none: refused | `4dF>1` |
//!
//! `!` means the same in all three: every extra roll is a die of its own (Roll20's Dice Reference,
//! "Exploding Dice"; Foundry VTT's `x`, "Dice Modifiers"). `!!` adds the extra rolls into the die that
//! exploded (Roll20's "Compounding Dice"); Foundry VTT has no such modifier, nor `cs` on its Fate die
//! (`FateDie.MODIFIERS` in its v13 API: `r rr k kh kl d dh dl` only), nor bonus/penalty dice, so a
//! formula with one of them is never handed to Foundry.

use blockprint_dice::{CmpOp, DiceTerm, Node, NodeKind, Sides};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Foundry,
    Roll20,
}

/// The expression in Foundry VTT's roll notation.
pub fn foundry(node: &Node) -> String {
    write(node, Dialect::Foundry)
}

/// Why Foundry VTT cannot roll `node` as blockprint does, naming the first part at fault; `None` when
/// [`foundry`] writes it faithfully. The one list is [`blockprint_content::carry::foundry_dice`], which
/// `check` reads too.
pub fn foundry_refusal(node: &Node) -> Option<String> {
    blockprint_content::carry::foundry_dice(node)
}

/// Why Roll20 cannot roll `node` as blockprint does ([`blockprint_content::carry::roll20_dice`]).
pub fn roll20_refusal(node: &Node) -> Option<String> {
    blockprint_content::carry::roll20_dice(node)
}

/// The expression in Roll20's roll notation.
pub fn roll20(node: &Node) -> String {
    write(node, Dialect::Roll20)
}

fn write(node: &Node, d: Dialect) -> String {
    match &node.kind {
        NodeKind::Int(n) => n.to_string(),
        NodeKind::Dice(t) => term(t, d),
        NodeKind::Group(inner) => format!("({})", write(inner, d)),
        NodeKind::Neg(inner) => format!("-{}", write(inner, d)),
        NodeKind::Binary { op, lhs, rhs } => {
            let r = write(rhs, d);
            // `1d6 - -1` written without spaces would read as `--`; keep the sign in parentheses.
            let r = if matches!(rhs.kind, NodeKind::Neg(_)) {
                format!("({r})")
            } else {
                r
            };
            format!("{}{}{r}", write(lhs, d), op.symbol())
        }
    }
}

fn term(t: &DiceTerm, d: Dialect) -> String {
    let mut s = t.count.to_string();
    match (t.sides, d) {
        (Sides::Num(n), _) => s.push_str(&format!("d{n}")),
        (Sides::Fudge, Dialect::Foundry) => s.push_str("df"),
        (Sides::Fudge, Dialect::Roll20) => s.push_str("dF"),
    }
    match (t.explode, t.compound, d) {
        (false, _, _) => {}
        (true, false, Dialect::Foundry) => s.push('x'),
        (true, false, Dialect::Roll20) => s.push('!'),
        // Foundry has no compounding; `foundry_refusal` keeps such a formula from it.
        (true, true, _) => s.push_str("!!"),
    }
    if let Some(k) = t.keep {
        s.push_str(&format!("{}{}", k.kind.suffix(), k.n));
    }
    // Neither tool has bonus/penalty dice; keep the modifier so the formula is refused there rather
    // than silently read as a plain d100.
    if let Some(p) = t.percentile {
        s.push_str(&p.suffix());
    }
    if let Some(c) = t.success {
        let v = c.value;
        // Roll20 reads a comparison right after `!` as the explosion point (`3d6!>6` explodes on 6 and
        // sums), so exploding dice that count successes are a group with the target outside it:
        // `{3d6!}>6`, Roll20's documented form, checks each die of a single-roll group.
        if t.explode && d == Dialect::Roll20 {
            s = format!("{{{s}}}");
        }
        match d {
            Dialect::Foundry => {
                let op = match c.op {
                    CmpOp::Ge => ">=",
                    CmpOp::Gt => ">",
                    CmpOp::Le => "<=",
                    CmpOp::Lt => "<",
                    CmpOp::Eq => "=",
                };
                s.push_str(&format!("cs{op}{v}"));
            }
            // Roll20's target numbers are inclusive: `>5` counts fives and sixes.
            Dialect::Roll20 => s.push_str(&match c.op {
                CmpOp::Ge => format!(">{v}"),
                CmpOp::Gt => format!(">{}", v.saturating_add(1)),
                CmpOp::Le => format!("<{v}"),
                CmpOp::Lt => format!("<{}", v.saturating_sub(1)),
                CmpOp::Eq => format!("={v}"),
            }),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    fn both(src: &str) -> (String, String) {
        let e = blockprint_dice::parse(src).unwrap();
        (super::foundry(e.root()), super::roll20(e.root()))
    }

    #[test]
    fn notation_is_normalised() {
        assert_eq!(both("d%"), ("1d100".into(), "1d100".into()));
        assert_eq!(both("d8"), ("1d8".into(), "1d8".into()));
        assert_eq!(both("2D6"), ("2d6".into(), "2d6".into()));
        assert_eq!(both("1d6!"), ("1d6x".into(), "1d6!".into()));
        assert_eq!(both("3d6!kh2"), ("3d6xkh2".into(), "3d6!kh2".into()));
        assert_eq!(both("3d6!!kh2").1, "3d6!!kh2");
        assert_eq!(both("4dF"), ("4df".into(), "4dF".into()));
        assert_eq!(
            both("3d6kh2cs>=6"),
            ("3d6kh2cs>=6".into(), "3d6kh2>6".into())
        );
        assert_eq!(both("5d6cs>4"), ("5d6cs>4".into(), "5d6>5".into()));
        // Exploding and counting: Roll20's group form, so `>6` is the target, not the explosion point.
        assert_eq!(both("3d6!cs>=6"), ("3d6xcs>=6".into(), "{3d6!}>6".into()));
        assert_eq!(both("3d6!cs=6").1, "{3d6!}=6");
        assert_eq!(both("3d6!cs<=2").1, "{3d6!}<2");
        assert_eq!(both("3d6!!cs>=6").1, "{3d6!!}>6");
        assert_eq!(both("3d6!kh2cs>=6").1, "{3d6!kh2}>6");
        assert_eq!(both("(1d4+1)*2"), ("(1d4+1)*2".into(), "(1d4+1)*2".into()));
        assert_eq!(both("1d6 - -1"), ("1d6-(-1)".into(), "1d6-(-1)".into()));
        assert_eq!(both("1d6/2"), ("1d6/2".into(), "1d6/2".into()));
    }

    #[test]
    fn foundry_refuses_what_it_would_read_differently() {
        let why = |src: &str| super::foundry_refusal(blockprint_dice::parse(src).unwrap().root());
        for ok in ["1d6!", "3d6!kh2", "5d6!cs>=6", "4dF", "4dFkh2", "2d6+1d6!"] {
            assert_eq!(why(ok), None, "{ok}");
        }
        assert!(why("1d6!!").unwrap().starts_with("compounding dice (`!!`"));
        assert!(why("2+(3d6!!kh2)").unwrap().starts_with("compounding dice"));
        assert!(
            why("4dFcs>=1")
                .unwrap()
                .starts_with("counting successes on Fudge dice")
        );
        assert!(why("d%b1").unwrap().starts_with("bonus or penalty dice"));
    }
}
