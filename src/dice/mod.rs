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
//! tokens. Dice modifiers (any letter case): `!` explode, `khN`/`klN`/`kN` keep highest/lowest
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
//! A die showing its maximum is rolled again and the new face added, repeatedly, but at most
//! [`EXPLODE_CAP`] extra rolls are made per die. If the last allowed extra roll shows the maximum it
//! just counts its face value. Distributions therefore still sum to exactly 1, and
//! [`Dist::capped`] tells how much probability sits on such cut-off chains (for `1d6!` it is
//! `(1/6)^21`). Rolls use exactly the same rule, so every roll is a value of the distribution.

pub mod dist;
pub mod format;
pub mod parse;
pub mod roll;

pub use dist::{Dist, DistError, DistErrorKind, MAX_SUPPORT, MEMORY_LIMIT, WORK_LIMIT};
pub use format::{approx, fraction, fraction_reduced};
pub use num_rational::BigRational;
pub use parse::{
    BinOp, CmpOp, Compare, DiceTerm, Keep, KeepKind, MAX_DICE, MAX_NODES, MAX_SIDES, Node,
    NodeKind, ParseError, Sides, Span,
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

    /// Whether every value is certainly an integer.
    ///
    /// A cheap syntactic check: dice-free sub-expressions are evaluated exactly, and any other `/`
    /// counts as possibly fractional. So `6/2+1d4` is integer-valued, while `(2d6*2)/2` is reported as
    /// not integer-valued even though it happens to be (use [`Dist::integer_outcomes`] for the exact answer).
    pub fn is_integer_valued(&self) -> bool {
        integer_valued(&self.root)
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
