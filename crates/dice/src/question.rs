//! Questions asked of a distribution, as a user types them: a number (`15`, `-2`, `7/2`) and a comparison
//! (`>= 15`, `≠ 7`). The command line's `odds --at-least/--at-most/--compare` reads them here, so every
//! front end (the studio's odds page too) accepts the same spellings.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

/// A comparison operator of a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Ge,
    Gt,
    Le,
    Lt,
    Eq,
    Ne,
}

impl Op {
    /// How the operator is written: `>=`, `>`, `<=`, `<`, `=`, `!=`.
    pub fn symbol(self) -> &'static str {
        match self {
            Op::Ge => ">=",
            Op::Gt => ">",
            Op::Le => "<=",
            Op::Lt => "<",
            Op::Eq => "=",
            Op::Ne => "!=",
        }
    }

    /// Whether `x` compares so with `n`.
    pub fn test(self, x: &BigRational, n: &BigRational) -> bool {
        match self {
            Op::Ge => x >= n,
            Op::Gt => x > n,
            Op::Le => x <= n,
            Op::Lt => x < n,
            Op::Eq => x == n,
            Op::Ne => x != n,
        }
    }
}

/// A number in a question: a whole number or a fraction `p/q`, with `-` (or `−`) for negatives.
pub fn parse_number(text: &str) -> Result<BigRational, String> {
    let t = text.trim();
    let (negative, rest) = match t.chars().next() {
        Some(c @ ('-' | '\u{2212}' | '\u{2013}')) => (true, t[c.len_utf8()..].trim_start()),
        _ => (false, t),
    };
    let bad = || {
        format!(
            "`{text}` is not a number: write a whole number such as `15` or `-2`, or a fraction such as `7/2`"
        )
    };
    let digits = |s: &str| -> Result<BigInt, String> {
        let s = s.trim();
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 1000 {
            return Err(bad());
        }
        s.parse::<BigInt>().map_err(|_| bad())
    };
    let value = match rest.split_once('/') {
        Some((p, q)) => {
            let q = digits(q)?;
            if q.is_zero() {
                return Err(format!("`{text}` divides by zero"));
            }
            BigRational::new(digits(p)?, q)
        }
        None => BigRational::from_integer(digits(rest)?),
    };
    Ok(if negative { -value } else { value })
}

/// `">= 15"`, `">15"`, `"≥ 15"`, `"!= 7"` … into an operator and a number.
pub fn parse_question(text: &str) -> Result<(Op, BigRational), String> {
    let t = text.trim_start();
    let table: [(&str, Op); 11] = [
        (">=", Op::Ge),
        ("<=", Op::Le),
        ("!=", Op::Ne),
        ("==", Op::Eq),
        ("\u{2265}", Op::Ge),
        ("\u{2264}", Op::Le),
        ("\u{2260}", Op::Ne),
        ("<>", Op::Ne),
        (">", Op::Gt),
        ("<", Op::Lt),
        ("=", Op::Eq),
    ];
    for (sym, op) in table {
        if let Some(rest) = t.strip_prefix(sym) {
            return Ok((op, parse_number(rest)?));
        }
    }
    Err(format!(
        "`{text}` is not a comparison: write an operator (`>=`, `>`, `<=`, `<`, `=` or `!=`) and a number, e.g. `>= 15`"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }

    #[test]
    fn numbers_and_questions() {
        assert_eq!(parse_number("15"), Ok(q(15, 1)));
        assert_eq!(parse_number(" -2 "), Ok(q(-2, 1)));
        assert_eq!(parse_number("\u{2212}2"), Ok(q(-2, 1)));
        assert_eq!(parse_number("7/2"), Ok(q(7, 2)));
        assert!(parse_number("1/0").is_err());
        assert!(parse_number("x").is_err());
        assert!(parse_number("1.5").is_err());
        assert!(parse_number("").is_err());
        assert_eq!(parse_question(">= 15"), Ok((Op::Ge, q(15, 1))));
        assert_eq!(parse_question(">15"), Ok((Op::Gt, q(15, 1))));
        assert_eq!(parse_question("<=4"), Ok((Op::Le, q(4, 1))));
        assert_eq!(parse_question("< -1"), Ok((Op::Lt, q(-1, 1))));
        assert_eq!(parse_question("= 7"), Ok((Op::Eq, q(7, 1))));
        assert_eq!(parse_question("== 7"), Ok((Op::Eq, q(7, 1))));
        assert_eq!(parse_question("!= 7"), Ok((Op::Ne, q(7, 1))));
        assert_eq!(parse_question("\u{2265} 3"), Ok((Op::Ge, q(3, 1))));
        assert!(parse_question("15").is_err());
        assert!(parse_question(">= x").is_err());
    }
}
