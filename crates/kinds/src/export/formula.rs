//! Dice notation for other tools: a parsed expression in, the same expression as Foundry VTT or Roll20
//! write it out. Counts are always written (`d8` → `1d8`, `d%` → `1d100`), modifiers come in the order
//! the dice engine applies them (explode, keep/drop, count successes), whatever order the content wrote.
//!
//! | blockprint | Foundry VTT | Roll20 |
//! |---|---|---|
//! | `1d6!` | `1d6x` | `1d6!` |
//! | `4d6kh3`, `dl1` … | `4d6kh3`, `dl1` … | the same |
//! | `5d6cs>=6` | `5d6cs>=6` | `5d6>6` (Roll20's `>` means "at least") |
//! | `4dF` | `4df` | `4dF` |

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
    if t.explode {
        s.push(if d == Dialect::Foundry { 'x' } else { '!' });
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
        assert_eq!(both("4dF"), ("4df".into(), "4dF".into()));
        assert_eq!(
            both("3d6kh2cs>=6"),
            ("3d6kh2cs>=6".into(), "3d6kh2>6".into())
        );
        assert_eq!(both("5d6cs>4"), ("5d6cs>4".into(), "5d6>5".into()));
        assert_eq!(both("(1d4+1)*2"), ("(1d4+1)*2".into(), "(1d4+1)*2".into()));
        assert_eq!(both("1d6 - -1"), ("1d6-(-1)".into(), "1d6-(-1)".into()));
        assert_eq!(both("1d6/2"), ("1d6/2".into(), "1d6/2".into()));
    }
}
