//! Dice notation in, parsed expressions, seeded rolls and exact distributions out.
//!
//! ```text
//! let expr = parse("4d6kh3")?;
//! let dist = expr.distribution()?;   // exact probabilities, BigRational
//! let roll = expr.roll(&mut rng)?;   // value + breakdown "4d6kh3 [6, 5, 3, (1)] = 14"
//! ```
//!
//! Accepted notation (Foundry VTT / Roll20 habits): `3d6`, `d8`, `1D6`, `d%`, `4dF`, integer constants,
//! `+ - * /` (division is exact, giving fractions), unary minus, parentheses and whitespace between
//! tokens. Dice modifiers (any letter case): `!` explode (every extra roll a die of its own, as Roll20,
//! Foundry VTT's `x` and rpg-dice-roller read it), `!!` compound (the extra rolls add into the die
//! that exploded, Roll20's and rpg-dice-roller's `!!`), `khN`/`klN`/`kN` keep highest/lowest
//! (N defaults to 1), `dhN`/`dlN` drop highest/lowest, `cs>=N` / `cs>N` / `cs<=N` / `cs<N` / `cs=N` /
//! `csN` count successes. Modifiers apply in the order explode, keep/drop, count successes, whatever
//! order they are written in. See [`parse`](mod@parse) for the grammar.
//!
//! Limits: at most [`MAX_DICE`] dice per term, [`MAX_SIDES`] sides, [`MAX_NODES`] parts per
//! expression, constants up to `i64::MAX`. Working out a distribution is bounded by one work budget
//! ([`WORK_LIMIT`] units, estimated before each step; see [`dist`](mod@dist)), [`MEMORY_LIMIT`] bytes
//! and [`MAX_SUPPORT`] distinct values; an expression beyond them gives a [`DistError`] naming the
//! sub-expression, in well under a second.
//!
//! # The explode cap
//! A die showing its maximum is rolled again (one more die in the pool for `!`, added into the die
//! for `!!`), repeatedly, but at most
//! [`EXPLODE_CAP`] extra rolls are made per die. If the last allowed extra roll shows the maximum it
//! just counts its face value. Distributions therefore still sum to exactly 1, and
//! [`Dist::capped`] tells how much probability sits on such cut-off chains (for `1d6!` it is
//! `(1/6)^21`). Rolls use exactly the same rule, so every roll is a value of the distribution.

pub mod caret;
pub mod dist;
pub mod format;
pub mod parse;
pub mod question;
pub mod roll;
pub mod words;

pub use dist::{Dist, DistError, DistErrorKind, MAX_SUPPORT, MEMORY_LIMIT, Row, Side, WORK_LIMIT};
pub use format::{Chance, RowText, approx, fraction, fraction_reduced, row_text, sqrt_approx};
pub use num_rational::BigRational;
pub use parse::{
    BinOp, CmpOp, Compare, DiceTerm, Keep, KeepKind, MAX_DICE, MAX_NODES, MAX_PERCENTILE_EXTRA,
    MAX_SIDES, Node, NodeKind, ParseError, Percentile, Sides, Span,
};
pub use roll::Rolled;

/// Most extra rolls one exploding die may make.
pub const EXPLODE_CAP: u32 = 20;

/// A parsed dice expression: the source text and its syntax tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    source: String,
    root: Node,
}

/// Parse dice notation; on failure the error points at the offending bytes of `src`.
pub fn parse(src: &str) -> Result<Expr, ParseError> {
    let root = parse::parse_tree(src)?;
    Ok(Expr {
        source: src.to_string(),
        root,
    })
}

impl Expr {
    /// The text as parsed (spans in the tree are byte offsets into it).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The root of the syntax tree.
    pub fn root(&self) -> &Node {
        &self.root
    }

    /// Exact distribution of the expression's value.
    pub fn distribution(&self) -> Result<Dist, DistError> {
        dist::distribution_of(&self.root, &self.source)
    }

    /// Exact distribution and the work units it was charged (at most [`WORK_LIMIT`]).
    pub fn distribution_with_work(&self) -> Result<(Dist, u64), DistError> {
        dist::distribution_and_work(&self.root, &self.source)
    }

    /// The first divisor that can be 0, as an error whose `span` points at it; `None` when every
    /// divisor is certainly nonzero, so that [`roll`](Self::roll) succeeds for every seed.
    ///
    /// Cheap for ordinary notation (a divisor such as `2` or `1d4` is accepted by its range alone);
    /// bounded by [`WORK_LIMIT`] in all cases.
    pub fn zero_divisor(&self) -> Option<DistError> {
        dist::find_zero_divisor(&self.root, &self.source)
    }

    /// Roll once with `rng`. Fails only when a divisor rolls 0 (never when [`zero_divisor`](Self::zero_divisor) is `None`).
    pub fn roll<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Result<Rolled, DistError> {
        roll::roll_tree(&self.root, &self.source, rng)
    }

    /// Count-successes targets that no face of the die can meet, or that every face meets: `3d6cs>7`
    /// always counts 0, `3d6cs>=1` always counts 3. Such a term is legal but almost surely a typo.
    pub fn success_warnings(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        success_warnings(&self.root, &self.source, &mut out);
        out
    }

    /// Whether every value is certainly an integer.
    ///
    /// A cheap syntactic check: dice-free sub-expressions are evaluated exactly, and any other `/`
    /// counts as possibly fractional. So `6/2+1d4` is integer-valued, while `(2d6*2)/2` is reported as
    /// not integer-valued even though it happens to be (use [`Dist::integer_outcomes`] for the exact answer).
    pub fn is_integer_valued(&self) -> bool {
        integer_valued(&self.root)
    }

    /// Bounds on the values, by interval arithmetic, without working out the distribution: exact for
    /// sums of dice and constants, possibly wider when a term appears on both sides of a subtraction or
    /// a division. `None` when a division by a range holding 0 makes the value unbounded.
    pub fn bounds(&self) -> Option<(num_rational::BigRational, num_rational::BigRational)> {
        dist::range(&self.root)
    }
}

/// A doubtful but legal piece of an expression, located in its source.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    /// The dice term at fault (byte offsets into the parsed text).
    pub span: Span,
    pub message: String,
    pub hint: String,
}

/// The exact outcome of one expression against another.
#[derive(Debug, Clone)]
pub struct Contest {
    /// Distribution of the first expression (the attacker).
    pub first: Dist,
    /// Distribution of the second expression (the defender).
    pub second: Dist,
    /// Distribution of first minus second, the convolution of the two.
    pub margin: Dist,
    /// P(first > second).
    pub win: BigRational,
    /// P(first = second).
    pub draw: BigRational,
    /// P(first < second).
    pub loss: BigRational,
}

/// Roll `first` against `second`, independently: the exact distribution of `first - second` and from it
/// the chances that the first is higher, equal or lower. All three distributions share one work budget;
/// an error says which side it belongs to ([`Side::Difference`] for the combination itself).
pub fn contest(first: &Expr, second: &Expr) -> Result<Contest, (Side, DistError)> {
    let (a, b, margin) =
        dist::contest((&first.root, &first.source), (&second.root, &second.source))?;
    let zero = BigRational::from_integer(0.into());
    let win = margin.probability_where(|v| *v > zero);
    let draw = margin.probability(&zero);
    let loss = margin.probability_where(|v| *v < zero);
    Ok(Contest {
        first: a,
        second: b,
        margin,
        win,
        draw,
        loss,
    })
}

/// The faces one die of `term` can show, as (lowest, highest, membership test).
fn face_range(term: &DiceTerm) -> (i64, i64, Box<dyn Fn(i64) -> bool>, String) {
    match (term.sides, term.percentile) {
        (_, Some(_)) => (
            1,
            100,
            Box::new(|v| (1..=100).contains(&v)),
            "a d100 (1 to 100)".into(),
        ),
        (Sides::Fudge, _) => (
            -1,
            1,
            Box::new(|v| (-1..=1).contains(&v)),
            "a fudge die (-1, 0 or +1)".into(),
        ),
        (Sides::Num(s), _) if term.explode && term.compound && s >= 2 => {
            let s = i64::from(s);
            let top = s * i64::from(EXPLODE_CAP + 1);
            // A chain of k maxima then a non-maximum r reads k*s + r; a full chain reads its sum.
            (
                1,
                top,
                Box::new(move |v| (1..=top).contains(&v) && (v % s != 0 || v == top)),
                format!("an exploding d{s} (1 to {top})"),
            )
        }
        (Sides::Num(s), _) => {
            let s = i64::from(s);
            (
                1,
                s,
                Box::new(move |v| (1..=s).contains(&v)),
                format!("a d{s} (1 to {s})"),
            )
        }
    }
}

fn success_warnings(node: &Node, src: &str, out: &mut Vec<Warning>) {
    match &node.kind {
        NodeKind::Int(_) => {}
        NodeKind::Dice(term) => {
            let Some(cmp) = term.success else { return };
            let (lo, hi, member, die) = face_range(term);
            let v = cmp.value;
            let (any, all) = match cmp.op {
                CmpOp::Ge => (hi >= v, lo >= v),
                CmpOp::Gt => (hi > v, lo > v),
                CmpOp::Le => (lo <= v, hi <= v),
                CmpOp::Lt => (lo < v, hi < v),
                CmpOp::Eq => (member(v), lo == v && hi == v),
            };
            let op = match cmp.op {
                CmpOp::Ge => ">=",
                CmpOp::Gt => ">",
                CmpOp::Le => "<=",
                CmpOp::Lt => "<",
                CmpOp::Eq => "=",
            };
            let text = src.get(node.span.start..node.span.end).unwrap_or("");
            let (kept, _) = term.kept();
            if !any {
                out.push(Warning {
                    span: node.span,
                    message: format!(
                        "`{text}` can never count a success: no face of {die} is {op} {v}, so it always counts 0"
                    ),
                    hint: "check the comparison and its number: `cs>=6` counts the dice showing 6 or more".into(),
                });
            } else if all && kept > 0 && !dist::separate_pool(term) {
                out.push(Warning {
                    span: node.span,
                    message: format!(
                        "`{text}` always counts every die: each face of {die} is {op} {v}, so it always counts {kept}"
                    ),
                    hint: format!("check the comparison and its number; if every die should count, write {kept} instead"),
                });
            }
        }
        NodeKind::Group(inner) | NodeKind::Neg(inner) => success_warnings(inner, src, out),
        NodeKind::Binary { lhs, rhs, .. } => {
            success_warnings(lhs, src, out);
            success_warnings(rhs, src, out);
        }
    }
}

fn integer_valued(node: &Node) -> bool {
    if let Some(v) = parse::const_value(node) {
        return v.is_integer();
    }
    match &node.kind {
        NodeKind::Int(_) | NodeKind::Dice(_) => true,
        NodeKind::Group(inner) | NodeKind::Neg(inner) => integer_valued(inner),
        NodeKind::Binary { op: BinOp::Div, .. } => false,
        NodeKind::Binary { lhs, rhs, .. } => integer_valued(lhs) && integer_valued(rhs),
    }
}

impl std::fmt::Display for Expr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.source)
    }
}

impl std::str::FromStr for Expr {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_valued() {
        for (src, want) in [
            ("3d6", true),
            ("2d6+3*2", true),
            ("6/2+1d4", true),
            ("-(1d4)*2", true),
            ("1d6/2", false),
            ("1d6+1/2", false),
            ("(2d6*2)/2", false), // conservative: any `/` with dice counts as possibly fractional
            ("7/2", false),
        ] {
            assert_eq!(parse(src).unwrap().is_integer_valued(), want, "{src}");
        }
    }

    #[test]
    fn expr_keeps_its_source() {
        let e = parse(" 4d6KH3 ").unwrap();
        assert_eq!(e.source(), " 4d6KH3 ");
        assert_eq!(e.to_string(), " 4d6KH3 ");
        let again: Expr = " 4d6KH3 ".parse().unwrap();
        assert_eq!(again, e);
    }

    #[test]
    fn fuzzish_inputs_never_panic() {
        let inputs = [
            "",
            "d",
            "1d0",
            "99999999999999999999d6",
            "1d6kh",
            "((",
            "1d6!!!",
            ")",
            "-",
            "--",
            "1d",
            "d!",
            "dF!",
            "1d6cs",
            "1d6cs>",
            "1d6cs>=-",
            "1d6k-",
            "1dF%",
            "1d%%",
            "1d6/",
            "/2",
            "*",
            "1d6**2",
            "1d6 // 2",
            "é",
            "1d6é",
            "1d6kh3kl",
            "4d6!k!",
            "0",
            "-0",
            "0/1d6",
            "1d6/(1d6-1d6)",
            "1000d6kh1000",
            "1d10000!kh1",
            "2d1",
            "\u{0}",
            "1d6\n+\n1",
            "1d6\u{a0}+1",
            "((((1))))",
            "1--1",
            "1-(-1)",
            "9223372036854775807*9223372036854775807",
        ];
        for src in inputs {
            let Ok(e) = parse(src) else { continue };
            let Ok(d) = e.distribution() else { continue };
            let mut rng = <rand_chacha::ChaCha20Rng as rand::SeedableRng>::seed_from_u64(0);
            if let Ok(r) = e.roll(&mut rng) {
                assert!(
                    d.probability(&r.value) > BigRational::from_integer(0.into()),
                    "{src}"
                );
            }
        }
    }
}
