//! The dice-odds answer (`odds`, the studio's Odds page), worked out once for both fronts: an expression
//! read, its exact distribution, the chance of each question asked of it, and a contest against a second
//! expression with its draws placed as asked. The fronts present it (text or JSON; HTML) and show a
//! [`BadDice`] with a caret under its place ([`blockprint_dice::caret`]), each in its own medium.

use std::ops::Range;

use blockprint_dice::question::Op;
use blockprint_dice::{self as dice, BigRational, Dist, Expr, Side};

/// Which of the asked expressions a fault is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The expression asked about (the attacker of a contest).
    Expression,
    /// The expression it is rolled against (the defender).
    Against,
}

/// A dice expression that cannot be read or worked out: which one, its text, the bytes at fault, what
/// is wrong and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadDice {
    pub field: Field,
    pub source: String,
    /// The bytes of `source` at fault; `None` when the fault is the two expressions' difference, which
    /// has no place in either text.
    pub span: Option<Range<usize>>,
    pub message: String,
    pub hint: Option<String>,
}

impl BadDice {
    fn dist(field: Field, source: &str, e: dice::DistError) -> BadDice {
        BadDice {
            field,
            source: source.to_owned(),
            // The sub-expression at fault, or the whole expression when it is not known.
            span: Some(e.span.map_or(0..source.len(), |s| s.start..s.end)),
            message: e.message,
            hint: e.hint,
        }
    }
}

/// Read `source` as a dice expression.
pub fn read(field: Field, source: &str) -> Result<Expr, BadDice> {
    dice::parse(source).map_err(|e| BadDice {
        field,
        source: source.to_owned(),
        span: Some(e.offset..e.offset + e.len),
        message: e.message,
        hint: e.hint,
    })
}

/// The exact distribution of `expr`, or why it cannot be worked out (too much work, too many values).
pub fn distribution(field: Field, expr: &Expr) -> Result<Dist, BadDice> {
    expr.distribution()
        .map_err(|e| BadDice::dist(field, expr.source(), e))
}

/// One question's answer: the chance that a roll of the distribution compares with `value` as `op` asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chance {
    pub op: Op,
    pub value: BigRational,
    pub probability: BigRational,
}

/// The chance of each question, in the order asked.
pub fn chances(dist: &Dist, questions: &[(Op, BigRational)]) -> Vec<Chance> {
    questions
        .iter()
        .map(|(op, value)| Chance {
            op: *op,
            value: value.clone(),
            probability: dist.probability_where(|x| op.test(x, value)),
        })
        .collect()
}

/// `first` rolled against `second`: both distributions and the distribution of their difference.
pub fn contest(first: &Expr, second: &Expr) -> Result<dice::Contest, BadDice> {
    dice::contest(first, second).map_err(|(side, e)| match side {
        Side::First => BadDice::dist(Field::Expression, first.source(), e),
        Side::Second => BadDice::dist(Field::Against, second.source(), e),
        Side::Difference => BadDice {
            field: Field::Against,
            source: second.source().to_owned(),
            span: None,
            message: e.message,
            hint: e.hint,
        },
    })
}

/// Where a contest's draws go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Draws {
    /// Draws on their own.
    Apart,
    /// A draw is the defender's (a loss for the attacker).
    Defender,
    /// A draw is the attacker's (a win).
    Attacker,
}

/// A contest's outcome with its draws placed: `draw` only when they stand apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub win: BigRational,
    pub draw: Option<BigRational>,
    pub loss: BigRational,
}

/// The chances of winning, drawing and losing `c`, the draws placed as `draws` says.
pub fn outcome(c: &dice::Contest, draws: Draws) -> Outcome {
    match draws {
        Draws::Apart => Outcome {
            win: c.win.clone(),
            draw: Some(c.draw.clone()),
            loss: c.loss.clone(),
        },
        Draws::Defender => Outcome {
            win: c.win.clone(),
            draw: None,
            loss: &c.loss + &c.draw,
        },
        Draws::Attacker => Outcome {
            win: &c.win + &c.draw,
            draw: None,
            loss: c.loss.clone(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn questions_and_a_contest_are_answered_exactly() {
        let d6 = read(Field::Expression, "1d6").unwrap();
        let dist = distribution(Field::Expression, &d6).unwrap();
        let asked = [(Op::Ge, r(5, 1)), (Op::Le, r(2, 1))];
        let got: Vec<BigRational> = chances(&dist, &asked)
            .into_iter()
            .map(|c| c.probability)
            .collect();
        assert_eq!(got, [r(1, 3), r(1, 3)]);
        let other = read(Field::Against, "1d6").unwrap();
        let c = contest(&d6, &other).unwrap();
        assert_eq!(
            outcome(&c, Draws::Apart),
            Outcome {
                win: r(5, 12),
                draw: Some(r(1, 6)),
                loss: r(5, 12)
            }
        );
        assert_eq!(outcome(&c, Draws::Defender).loss, r(7, 12));
        assert_eq!(outcome(&c, Draws::Attacker).win, r(7, 12));
    }

    #[test]
    fn a_bad_expression_names_its_field_and_place() {
        let bad = read(Field::Against, "2d6+x").unwrap_err();
        assert_eq!(bad.field, Field::Against);
        assert_eq!(bad.source, "2d6+x");
        assert_eq!(bad.span, Some(4..5));
    }
}
