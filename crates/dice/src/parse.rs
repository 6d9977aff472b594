//! Dice notation text in; a syntax tree with byte spans (or a [`ParseError`] pointing at the problem) out.
//!
//! The grammar is a small recursive-descent one:
//!
//! ```text
//! expr    := term (("+" | "-") term)*
//! term    := unary (("*" | "/") unary)*
//! unary   := "-" unary | primary
//! primary := INT | dice | "(" expr ")"
//! dice    := INT? ("d" | "D") (INT | "%" | "F") modifier*
//! modifier:= "!" | "!!" | ("kh" | "kl" | "k" | "dh" | "dl") INT? | "cs" (">=" | ">" | "<=" | "<" | "=")? INT
//!           | ("b" | "p") INT?            (bonus/penalty dice, on a single d100 only)
//! ```
//!
//! Text copied from a typeset booklet works too: the minus sign `−` (U+2212) and the en dash `–`
//! (U+2013) read as `-`, the multiplication sign `×` (U+00D7) as `*`, the division sign `÷` (U+00F7)
//! as `/`, and `≥` / `≤` (U+2265, U+2264) as `>=` / `<=` after `cs`. Spans stay byte offsets into the
//! text as given.
//!
//! A dice term is a single token: no whitespace inside it. Whitespace is allowed between all other tokens.

use std::fmt;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

/// Most dice one term may roll.
pub const MAX_DICE: u32 = 1000;
/// Most sides one die may have.
pub const MAX_SIDES: u32 = 10_000;
/// Most syntax nodes (numbers, dice terms, operators, parentheses) in one expression; this also bounds
/// the recursion depth of everything that walks the tree.
pub const MAX_NODES: usize = 256;

/// Half-open byte range `start..end` into the parsed text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// One node of the syntax tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub span: Span,
    pub kind: NodeKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// A non-negative integer constant.
    Int(i64),
    Dice(DiceTerm),
    /// A parenthesised sub-expression (kept so rolls can be shown with their parentheses).
    Group(Box<Node>),
    Neg(Box<Node>),
    Binary {
        op: BinOp,
        lhs: Box<Node>,
        rhs: Box<Node>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
}

impl BinOp {
    pub fn symbol(self) -> char {
        match self {
            BinOp::Add => '+',
            BinOp::Sub => '-',
            BinOp::Mul => '*',
            BinOp::Div => '/',
        }
    }
}

/// What kind of die is rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sides {
    /// Faces 1..=n (`d%` is stored as 100).
    Num(u32),
    /// Fudge die with faces -1, 0, +1.
    Fudge,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeepKind {
    KeepHighest,
    KeepLowest,
    DropHighest,
    DropLowest,
}

impl KeepKind {
    /// The modifier as written: `kh`, `kl`, `dh`, `dl` (Foundry and Roll20 read the same).
    pub fn suffix(self) -> &'static str {
        match self {
            KeepKind::KeepHighest => "kh",
            KeepKind::KeepLowest => "kl",
            KeepKind::DropHighest => "dh",
            KeepKind::DropLowest => "dl",
        }
    }
}

/// A keep/drop modifier as written (`kh3`, `dl1`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keep {
    pub kind: KeepKind,
    pub n: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    Ge,
    Gt,
    Le,
    Lt,
    Eq,
}

/// The comparison of a count-successes modifier (`cs>=6`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compare {
    pub op: CmpOp,
    pub value: i64,
}

impl Compare {
    pub fn test(&self, x: i64) -> bool {
        match self.op {
            CmpOp::Ge => x >= self.value,
            CmpOp::Gt => x > self.value,
            CmpOp::Le => x <= self.value,
            CmpOp::Lt => x < self.value,
            CmpOp::Eq => x == self.value,
        }
    }
}

/// Most bonus or penalty dice on one percentile roll.
pub const MAX_PERCENTILE_EXTRA: u32 = 100;

/// Bonus or penalty dice on a percentile roll (`d%b1`, `1d100p2`), as in Call of Cthulhu 7e: the d100 is
/// read as a units die (0-9) and `1 + extra` tens dice (00-90); a tens 00 with a units 0 reads 100.
/// Every tens die gives one candidate result with the shared units die; a bonus keeps the lowest
/// candidate, a penalty the highest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Percentile {
    /// `true` for penalty dice (`p`), `false` for bonus dice (`b`).
    pub penalty: bool,
    /// Extra tens dice rolled (at least 1).
    pub extra: u32,
}

impl Percentile {
    /// The modifier as written: `b2`, `p1`.
    pub fn suffix(self) -> String {
        format!("{}{}", if self.penalty { 'p' } else { 'b' }, self.extra)
    }
}

/// One dice term with its modifiers. Modifiers are applied in a fixed order whatever order they were
/// written in: explode, then keep/drop, then count successes.
///
/// `!` explodes into separate dice, as Roll20, Foundry VTT (`x`) and rpg-dice-roller read it: each
/// extra roll is one more die in the pool, so keep/drop and `cs` see every roll on its own. `!!`
/// compounds: a die's whole chain adds into that one die's value (Roll20's and rpg-dice-roller's `!!`).
/// Without keep/drop or `cs` the two give the same total.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceTerm {
    pub count: u32,
    pub sides: Sides,
    /// The die explodes (`!` or `!!`).
    pub explode: bool,
    /// The explosion compounds (`!!`): the chain is one die's value. Only set together with `explode`.
    pub compound: bool,
    pub keep: Option<Keep>,
    pub success: Option<Compare>,
    /// Bonus or penalty tens dice; only on a single `d%`/`d100`, without `!` or keep/drop.
    pub percentile: Option<Percentile>,
}

impl DiceTerm {
    /// How many dice survive keep/drop, and whether the survivors are the highest ones.
    pub fn kept(&self) -> (u32, bool) {
        match self.keep {
            None => (self.count, true),
            Some(Keep { kind, n }) => match kind {
                KeepKind::KeepHighest => (n, true),
                KeepKind::KeepLowest => (n, false),
                KeepKind::DropLowest => (self.count - n, true),
                KeepKind::DropHighest => (self.count - n, false),
            },
        }
    }
}

/// Why a piece of dice notation was rejected. `offset`/`len` are byte positions in the source.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    pub offset: usize,
    pub len: usize,
    pub message: String,
    pub hint: Option<String>,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)
    }
}

impl std::error::Error for ParseError {}

fn err(offset: usize, len: usize, message: impl Into<String>, hint: Option<&str>) -> ParseError {
    ParseError {
        offset,
        len,
        message: message.into(),
        hint: hint.map(str::to_string),
    }
}

/// Parse `src` into the root node of its syntax tree.
pub fn parse_tree(src: &str) -> Result<Node, ParseError> {
    let mut p = Parser {
        src,
        bytes: src.as_bytes(),
        pos: 0,
        depth: 0,
        nodes: 0,
    };
    p.skip_ws();
    if p.pos >= p.bytes.len() {
        return Err(err(
            src.len(),
            0,
            "empty dice expression",
            Some("write dice notation such as `3d6` or `1d20+2`"),
        ));
    }
    let root = p.expr()?;
    p.skip_ws();
    if p.pos < p.bytes.len() {
        return Err(p.unexpected("after the end of the expression"));
    }
    Ok(root)
}

/// Value of a subtree that contains no dice, computed exactly; `None` when it has dice
/// (or divides by zero, which the parser already rejects).
pub fn const_value(node: &Node) -> Option<BigRational> {
    match &node.kind {
        NodeKind::Int(n) => Some(BigRational::from_integer(BigInt::from(*n))),
        NodeKind::Dice(_) => None,
        NodeKind::Group(inner) => const_value(inner),
        NodeKind::Neg(inner) => const_value(inner).map(|v| -v),
        NodeKind::Binary { op, lhs, rhs } => {
            let a = const_value(lhs)?;
            let b = const_value(rhs)?;
            match op {
                BinOp::Add => Some(a + b),
                BinOp::Sub => Some(a - b),
                BinOp::Mul => Some(a * b),
                BinOp::Div => {
                    if b.is_zero() {
                        None
                    } else {
                        Some(a / b)
                    }
                }
            }
        }
    }
}

struct Parser<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
    nodes: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.pos + ahead).copied()
    }

    /// Byte length of a minus sign at the current position: `-`, or the minus sign `−` (U+2212) and the
    /// en dash `–` (U+2013) that typeset text prints for it; 0 when there is none.
    fn minus_len(&self) -> usize {
        let rest = &self.src[self.pos..];
        if rest.starts_with('-') {
            1
        } else if rest.starts_with('\u{2212}') || rest.starts_with('\u{2013}') {
            3
        } else {
            0
        }
    }

    /// The multiplicative operator at the current position and its byte length: `*` or `×` (U+00D7),
    /// `/` or `÷` (U+00F7).
    fn mul_op(&self) -> Option<(BinOp, usize)> {
        let rest = &self.src[self.pos..];
        match rest.chars().next()? {
            '*' => Some((BinOp::Mul, 1)),
            '\u{d7}' => Some((BinOp::Mul, 2)),
            '/' => Some((BinOp::Div, 1)),
            '\u{f7}' => Some((BinOp::Div, 2)),
            _ => None,
        }
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Count one more syntax node, refusing expressions that grow too large.
    fn node(&mut self, start: usize, end: usize, kind: NodeKind) -> Result<Node, ParseError> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(err(
                start,
                (end - start).max(1),
                format!(
                    "expression is too long: more than {MAX_NODES} numbers, dice terms and operators"
                ),
                Some("split the roll into several smaller expressions"),
            ));
        }
        Ok(Node {
            span: Span { start, end },
            kind,
        })
    }

    /// Guard against runaway recursion from deeply nested parentheses or unary minus chains.
    fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_NODES {
            return Err(err(
                self.pos,
                1,
                "expression is nested too deeply",
                Some("remove some parentheses or minus signs"),
            ));
        }
        Ok(())
    }

    /// Error for whatever token sits at the current position.
    fn unexpected(&self, context: &str) -> ParseError {
        let rest = &self.src[self.pos..];
        let Some(first) = rest.chars().next() else {
            return err(
                self.src.len(),
                0,
                format!("unexpected end of input {context}"),
                Some("finish the expression with a number, dice such as `1d6`, or `(`"),
            );
        };
        let len = if first.is_ascii_alphanumeric() {
            rest.bytes()
                .take_while(|b| b.is_ascii_alphanumeric())
                .count()
        } else {
            first.len_utf8()
        };
        let token = &rest[..len];
        let hint = match first {
            ')' => Some("remove it or add a matching `(` before it"),
            '(' | '0'..='9' | 'd' | 'D' => {
                Some("put an operator (`+`, `-`, `*` or `/`) between the two parts")
            }
            _ => Some(
                "dice notation uses numbers, `d`, modifiers, `+`, `-`, `*`, `/` and parentheses",
            ),
        };
        let message = if first == ')' {
            "unmatched `)`".to_string()
        } else {
            format!("unexpected `{token}` {context}")
        };
        err(self.pos, len, message, hint)
    }

    fn expr(&mut self) -> Result<Node, ParseError> {
        let mut lhs = self.term()?;
        loop {
            self.skip_ws();
            let (op, len) = match self.peek() {
                Some(b'+') => (BinOp::Add, 1),
                _ => match self.minus_len() {
                    0 => return Ok(lhs),
                    n => (BinOp::Sub, n),
                },
            };
            self.pos += len;
            let rhs = self.term()?;
            let (start, end) = (lhs.span.start, rhs.span.end);
            lhs = self.node(
                start,
                end,
                NodeKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
            )?;
        }
    }

    fn term(&mut self) -> Result<Node, ParseError> {
        let mut lhs = self.unary()?;
        loop {
            self.skip_ws();
            let Some((op, len)) = self.mul_op() else {
                return Ok(lhs);
            };
            self.pos += len;
            let rhs = self.unary()?;
            if op == BinOp::Div && const_value(&rhs).is_some_and(|v| v.is_zero()) {
                return Err(err(
                    rhs.span.start,
                    rhs.span.end - rhs.span.start,
                    "division by zero",
                    Some("divide by a number other than 0"),
                ));
            }
            let (start, end) = (lhs.span.start, rhs.span.end);
            lhs = self.node(
                start,
                end,
                NodeKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
            )?;
        }
    }

    fn unary(&mut self) -> Result<Node, ParseError> {
        self.skip_ws();
        let minus = self.minus_len();
        if minus > 0 {
            let start = self.pos;
            self.pos += minus;
            self.enter()?;
            let inner = self.unary()?;
            self.depth -= 1;
            let end = inner.span.end;
            return self.node(start, end, NodeKind::Neg(Box::new(inner)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Node, ParseError> {
        self.skip_ws();
        let start = self.pos;
        match self.peek() {
            Some(b'(') => {
                self.pos += 1;
                self.enter()?;
                let inner = self.expr()?;
                self.depth -= 1;
                self.skip_ws();
                if self.peek() != Some(b')') {
                    if self.pos >= self.bytes.len() {
                        return Err(err(start, 1, "unclosed `(`", Some("add a matching `)`")));
                    }
                    return Err(self.unexpected("inside parentheses"));
                }
                self.pos += 1;
                self.node(start, self.pos, NodeKind::Group(Box::new(inner)))
            }
            Some(b'0'..=b'9') => {
                let (value, _) = self.number()?;
                if matches!(self.peek(), Some(b'd' | b'D')) {
                    return self.dice(start, Some(value));
                }
                let value = i64::try_from(value).map_err(|_| self.too_large(start))?;
                self.node(start, self.pos, NodeKind::Int(value))
            }
            Some(b'd' | b'D') => self.dice(start, None),
            Some(b'+') => Err(err(
                start,
                1,
                "unexpected `+`",
                Some("a unary `+` is not supported; write the value without it"),
            )),
            _ => Err(self.unexpected("where a number, dice or `(` was expected")),
        }
    }

    fn too_large(&self, start: usize) -> ParseError {
        let text = &self.src[start..self.pos];
        err(
            start,
            self.pos - start,
            format!("number `{text}` is too large"),
            Some("use a smaller number"),
        )
    }

    /// Read a run of decimal digits at the current position. Fails on overflow of `u64`.
    fn number(&mut self) -> Result<(u64, Span), ParseError> {
        let start = self.pos;
        let mut value: Option<u64> = Some(0);
        while let Some(b @ b'0'..=b'9') = self.peek() {
            value = value
                .and_then(|v| v.checked_mul(10))
                .and_then(|v| v.checked_add(u64::from(b - b'0')));
            self.pos += 1;
        }
        let span = Span {
            start,
            end: self.pos,
        };
        match value {
            Some(v) => Ok((v, span)),
            None => Err(self.too_large(start)),
        }
    }

    /// Parse a dice term; the current position is at the `d`.
    fn dice(&mut self, start: usize, count: Option<u64>) -> Result<Node, ParseError> {
        let d_pos = self.pos;
        self.pos += 1;
        let count = match count {
            None => 1,
            Some(0) => {
                return Err(err(
                    start,
                    d_pos - start,
                    "dice count must be at least 1",
                    Some("roll at least one die, e.g. `1d6`"),
                ));
            }
            Some(n) if n > u64::from(MAX_DICE) => {
                return Err(err(
                    start,
                    d_pos - start,
                    format!("too many dice: at most {MAX_DICE} in one term"),
                    Some("use fewer dice"),
                ));
            }
            Some(n) => n as u32,
        };
        let sides = match self.peek() {
            Some(b'%') => {
                self.pos += 1;
                Sides::Num(100)
            }
            Some(b'f' | b'F') => {
                self.pos += 1;
                Sides::Fudge
            }
            Some(b'0'..=b'9') => {
                let (n, span) = self.number()?;
                if n == 0 {
                    return Err(err(
                        span.start,
                        span.end - span.start,
                        "dice must have at least 1 side",
                        Some("use `d2` or more"),
                    ));
                }
                if n > u64::from(MAX_SIDES) {
                    return Err(err(
                        span.start,
                        span.end - span.start,
                        format!("too many sides: at most {MAX_SIDES}"),
                        Some("use a smaller die"),
                    ));
                }
                Sides::Num(n as u32)
            }
            _ => {
                return Err(err(
                    d_pos,
                    1,
                    "`d` must be followed by the number of sides, `%` or `F`",
                    Some("write e.g. `d6`, `d%` or `dF`"),
                ));
            }
        };
        let mut term = DiceTerm {
            count,
            sides,
            explode: false,
            compound: false,
            keep: None,
            success: None,
            percentile: None,
        };
        let mut keep_text = String::new();
        let mut percentile_at: Option<Span> = None;
        loop {
            let mod_start = self.pos;
            match self.peek() {
                Some(b'!') => {
                    self.pos += 1;
                    let compound = self.peek() == Some(b'!');
                    if compound {
                        self.pos += 1;
                    }
                    if term.explode {
                        return Err(err(
                            mod_start,
                            self.pos - mod_start,
                            "modifier `!` repeated on one dice term",
                            Some(
                                "write one `!` (explode into separate dice) or one `!!` (compound into one die)",
                            ),
                        ));
                    }
                    if matches!(self.peek(), Some(b'p' | b'P')) {
                        return Err(err(
                            mod_start,
                            self.pos - mod_start + 1,
                            format!(
                                "penetrating dice (`{}`) are not supported",
                                &self.src[mod_start..self.pos + 1]
                            ),
                            Some(
                                "use `!` (explode into separate dice) or `!!` (compound into one die); a penetrating die subtracts 1 from each extra roll, which you can write out by hand",
                            ),
                        ));
                    }
                    term.explode = true;
                    term.compound = compound;
                    match sides {
                        Sides::Fudge => {
                            return Err(err(
                                mod_start,
                                1,
                                "fudge dice cannot explode",
                                Some("remove the `!`"),
                            ));
                        }
                        Sides::Num(1) => {
                            return Err(err(
                                mod_start,
                                1,
                                "`d1!` always explodes",
                                Some("a one-sided die always shows its maximum; remove the `!`"),
                            ));
                        }
                        Sides::Num(_) => {}
                    }
                }
                Some(b) if b.is_ascii_alphabetic() => {
                    let name = self.modifier_name()?;
                    let name_end = self.pos;
                    if name == "b" || name == "p" {
                        if term.percentile.is_some() {
                            return Err(err(
                                mod_start,
                                1,
                                "more than one bonus/penalty modifier on one dice term",
                                Some(
                                    "write one `bN` (bonus dice) or `pN` (penalty dice); a bonus and a penalty die cancel out",
                                ),
                            ));
                        }
                        let extra = if matches!(self.peek(), Some(b'0'..=b'9')) {
                            let (n, span) = self.number()?;
                            if n == 0 || n > u64::from(MAX_PERCENTILE_EXTRA) {
                                return Err(err(
                                    span.start,
                                    span.end - span.start,
                                    format!(
                                        "between 1 and {MAX_PERCENTILE_EXTRA} bonus or penalty dice, not {n}"
                                    ),
                                    Some(
                                        "write e.g. `d%b1` (one bonus die) or `d%p2` (two penalty dice); leave the modifier out for none",
                                    ),
                                ));
                            }
                            n as u32
                        } else {
                            1
                        };
                        term.percentile = Some(Percentile {
                            penalty: name == "p",
                            extra,
                        });
                        percentile_at = Some(Span {
                            start: mod_start,
                            end: self.pos,
                        });
                        continue;
                    }
                    if name == "cs" {
                        if term.success.is_some() {
                            return Err(err(
                                mod_start,
                                2,
                                "modifier `cs` repeated on one dice term",
                                Some("count successes only once per term"),
                            ));
                        }
                        term.success = Some(self.comparison(mod_start)?);
                    } else {
                        let kind = match name.as_str() {
                            "k" | "kh" => KeepKind::KeepHighest,
                            "kl" => KeepKind::KeepLowest,
                            "dh" => KeepKind::DropHighest,
                            _ => KeepKind::DropLowest,
                        };
                        let n = self.keep_count(&name)?;
                        let text = self.src[mod_start..self.pos].to_string();
                        if term.keep.is_some() {
                            return Err(err(
                                mod_start,
                                self.pos - mod_start,
                                format!(
                                    "more than one keep/drop modifier on one dice term (`{keep_text}` and `{text}`)"
                                ),
                                Some("use a single keep or drop modifier per term"),
                            ));
                        }
                        if n > count {
                            let verb =
                                if matches!(kind, KeepKind::KeepHighest | KeepKind::KeepLowest) {
                                    "keep"
                                } else {
                                    "drop"
                                };
                            return Err(err(
                                name_end,
                                (self.pos - name_end).max(1),
                                format!("cannot {verb} {n} dice out of {count}"),
                                Some("the count must be at most the number of dice rolled"),
                            ));
                        }
                        keep_text = text;
                        term.keep = Some(Keep { kind, n });
                    }
                }
                _ => break,
            }
        }
        if let Some(at) = percentile_at {
            let problem = if term.sides != Sides::Num(100) {
                Some("bonus and penalty dice apply to a percentile roll only")
            } else if term.count != 1 {
                Some("bonus and penalty dice apply to one percentile roll at a time")
            } else if term.explode {
                Some("a percentile roll with bonus or penalty dice cannot explode")
            } else if term.keep.is_some() {
                Some("a percentile roll with bonus or penalty dice cannot also keep or drop dice")
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(err(
                    at.start,
                    at.end - at.start,
                    format!("`{}`: {problem}", &self.src[start..self.pos]),
                    Some("write it on a single d100: `d%b1`, `1d100b2` or `d%p1`"),
                ));
            }
        }
        self.node(start, self.pos, NodeKind::Dice(term))
    }

    /// Read one modifier name (`kh`, `kl`, `k`, `dh`, `dl`, `cs`) at the current position.
    fn modifier_name(&mut self) -> Result<String, ParseError> {
        const KNOWN: [&str; 5] = ["kh", "kl", "dh", "dl", "cs"];
        let start = self.pos;
        let run: String = self.src[start..]
            .bytes()
            .take_while(|b| b.is_ascii_alphabetic())
            .map(|b| b.to_ascii_lowercase() as char)
            .collect();
        if let Some(name) = KNOWN.iter().find(|k| run.starts_with(*k)) {
            self.pos += 2;
            return Ok((*name).to_string());
        }
        if run.starts_with('b') || run.starts_with('p') {
            self.pos += 1;
            return Ok(run[..1].to_string());
        }
        if run.starts_with('k')
            && (run.len() == 1
                || run[1..].starts_with('k')
                || KNOWN.iter().any(|k| run[1..].starts_with(k)))
        {
            self.pos += 1;
            return Ok("k".to_string());
        }
        let hint = match run.chars().next() {
            Some('k') => "use `kh` (keep highest) or `kl` (keep lowest)",
            Some('d') => "use `dl` (drop lowest) or `dh` (drop highest)",
            Some('c') => "use `cs` followed by a comparison, e.g. `cs>=6`",
            _ => {
                "known modifiers are `!`, `kh`, `kl`, `k`, `dh`, `dl`, `cs`, and `b`/`p` on a d100"
            }
        };
        Err(err(
            start,
            run.len(),
            format!("unknown modifier `{}`", &self.src[start..start + run.len()]),
            Some(hint),
        ))
    }

    /// Optional count after a keep/drop modifier; missing means 1.
    fn keep_count(&mut self, name: &str) -> Result<u32, ParseError> {
        let minus = self.minus_len();
        if minus > 0 && matches!(self.peek_at(minus), Some(b'0'..=b'9')) {
            let s = self.pos;
            self.pos += minus;
            self.number()?;
            return Err(err(
                s,
                self.pos - s,
                format!("`{name}` count cannot be negative"),
                Some(
                    "write a count of 0 or more; to subtract afterwards, give the count first, e.g. `kh1-1`",
                ),
            ));
        }
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Ok(1);
        }
        let (n, span) = self.number()?;
        u32::try_from(n).map_err(|_| {
            err(
                span.start,
                span.end - span.start,
                format!("cannot keep or drop {n} dice"),
                Some("the count must be at most the number of dice rolled"),
            )
        })
    }

    /// The comparison after `cs`: an optional operator then an integer (negative only after an operator).
    fn comparison(&mut self, mod_start: usize) -> Result<Compare, ParseError> {
        let rest = &self.src[self.pos..];
        let op = match (self.peek(), self.peek_at(1)) {
            _ if rest.starts_with('\u{2265}') => {
                self.pos += 3;
                Some(CmpOp::Ge)
            }
            _ if rest.starts_with('\u{2264}') => {
                self.pos += 3;
                Some(CmpOp::Le)
            }
            (Some(b'>'), Some(b'=')) => {
                self.pos += 2;
                Some(CmpOp::Ge)
            }
            (Some(b'<'), Some(b'=')) => {
                self.pos += 2;
                Some(CmpOp::Le)
            }
            (Some(b'>'), _) => {
                self.pos += 1;
                Some(CmpOp::Gt)
            }
            (Some(b'<'), _) => {
                self.pos += 1;
                Some(CmpOp::Lt)
            }
            (Some(b'='), _) => {
                self.pos += 1;
                Some(CmpOp::Eq)
            }
            _ => None,
        };
        let minus = if op.is_some() { self.minus_len() } else { 0 };
        let negative = minus > 0;
        self.pos += minus;
        if !matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(err(
                mod_start,
                self.pos - mod_start,
                "`cs` needs a number to compare with",
                Some("write e.g. `cs>=6` or `cs6`"),
            ));
        }
        let num_start = self.pos - minus;
        let (n, _) = self.number()?;
        let value = i64::try_from(n).map_err(|_| self.too_large(num_start))?;
        Ok(Compare {
            op: op.unwrap_or(CmpOp::Eq),
            value: if negative { -value } else { value },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Canonical, fully parenthesised rendering of a tree, to check what was parsed.
    fn canon(node: &Node) -> String {
        match &node.kind {
            NodeKind::Int(n) => n.to_string(),
            NodeKind::Group(inner) => canon(inner),
            NodeKind::Neg(inner) => format!("-{}", canon(inner)),
            NodeKind::Binary { op, lhs, rhs } => {
                format!("({} {} {})", canon(lhs), op.symbol(), canon(rhs))
            }
            NodeKind::Dice(t) => {
                let mut s = format!("{}d", t.count);
                match t.sides {
                    Sides::Num(n) => s += &n.to_string(),
                    Sides::Fudge => s.push('F'),
                }
                if t.explode {
                    s.push_str(if t.compound { "!!" } else { "!" });
                }
                if let Some(k) = t.keep {
                    s += &format!("{}{}", k.kind.suffix(), k.n);
                }
                if let Some(p) = t.percentile {
                    s += &p.suffix();
                }
                if let Some(c) = t.success {
                    let op = match c.op {
                        CmpOp::Ge => ">=",
                        CmpOp::Gt => ">",
                        CmpOp::Le => "<=",
                        CmpOp::Lt => "<",
                        CmpOp::Eq => "=",
                    };
                    s += &format!("cs{op}{}", c.value);
                }
                s
            }
        }
    }

    #[test]
    fn accepted_forms() {
        let table: &[(&str, &str)] = &[
            ("3d6", "3d6"),
            ("d8", "1d8"),
            ("1D6", "1d6"),
            ("d%", "1d100"),
            ("1d100", "1d100"),
            ("1d6+1", "(1d6 + 1)"),
            ("1d3-1", "(1d3 - 1)"),
            ("2d6+3", "(2d6 + 3)"),
            ("1d6/2", "(1d6 / 2)"),
            ("2d10kl1", "2d10kl1"),
            ("4d6kh3", "4d6kh3"),
            ("4d6k3", "4d6kh3"),
            ("2d20kh", "2d20kh1"),
            ("2d20kl", "2d20kl1"),
            ("2d20k", "2d20kh1"),
            ("4d6dl1", "4d6dl1"),
            ("4d6dh1", "4d6dh1"),
            ("4d6dl", "4d6dl1"),
            ("4d6KH3", "4d6kh3"),
            ("4D6Dl1", "4d6dl1"),
            ("1d6!", "1d6!"),
            ("5d6cs>=6", "5d6cs>=6"),
            ("5d6cs>5", "5d6cs>5"),
            ("5d6cs<=2", "5d6cs<=2"),
            ("5d6cs<2", "5d6cs<2"),
            ("5d6cs=6", "5d6cs=6"),
            ("5d6cs6", "5d6cs=6"),
            ("5d6CS>=6", "5d6cs>=6"),
            ("4dF", "4dF"),
            ("2df", "2dF"),
            ("4dFcs>=-1", "4dFcs>=-1"),
            ("4dFkh2", "4dFkh2"),
            ("3d6kh2cs>=6", "3d6kh2cs>=6"),
            ("3d6cs>=6kh2", "3d6kh2cs>=6"),
            ("3d6!kh2", "3d6!kh2"),
            ("3d6!!kh2", "3d6!!kh2"),
            ("1d6!!", "1d6!!"),
            ("5d10kh2!!", "5d10!!kh2"),
            ("3d6!cs>=6", "3d6!cs>=6"),
            ("3d6kh2!", "3d6!kh2"),
            ("2d6kcs6", "2d6kh1cs=6"),
            ("(1d4)*2", "(1d4 * 2)"),
            ("1d4*2+1", "((1d4 * 2) + 1)"),
            ("1+1d4*2", "(1 + (1d4 * 2))"),
            ("2*(1d6+1)", "(2 * (1d6 + 1))"),
            ("-1d6", "-1d6"),
            ("--3", "--3"),
            ("1d6 - -2", "(1d6 - -2)"),
            ("10-2-3", "((10 - 2) - 3)"),
            ("12/2/3", "((12 / 2) / 3)"),
            ("  2d6 +\t3 ", "(2d6 + 3)"),
            (" ( 1d4 ) * 2", "(1d4 * 2)"),
            ("7", "7"),
            ("1000d6", "1000d6"),
            ("1d10000", "1d10000"),
            ("1d1", "1d1"),
            ("4d6kh0", "4d6kh0"),
            ("4d6dl4", "4d6dl4"),
            ("1d6kh", "1d6kh1"),
            ("9223372036854775807", "9223372036854775807"),
            // typeset minus sign, en dash, multiplication and division signs, ≥ and ≤
            ("2d6\u{2212}1", "(2d6 - 1)"),
            ("2d6 \u{2013} 1", "(2d6 - 1)"),
            ("\u{2212}1d4", "-1d4"),
            ("2\u{d7}1d4", "(2 * 1d4)"),
            ("1d6\u{f7}2", "(1d6 / 2)"),
            ("5d6cs\u{2265}6", "5d6cs>=6"),
            ("5d6cs\u{2264}2", "5d6cs<=2"),
            ("4dFcs>=\u{2212}1", "4dFcs>=-1"),
            ("1d6 \u{2212} \u{2212}2", "(1d6 - -2)"),
            // percentile bonus and penalty dice
            ("d%b1", "1d100b1"),
            ("1d100b2", "1d100b2"),
            ("d%p1", "1d100p1"),
            ("D%P2", "1d100p2"),
            ("d%b", "1d100b1"),
            ("d%b1cs<=50", "1d100b1cs<=50"),
            ("d%p1+5", "(1d100p1 + 5)"),
        ];
        for (src, want) in table {
            match parse_tree(src) {
                Ok(node) => assert_eq!(&canon(&node), want, "parsing {src:?}"),
                Err(e) => panic!("{src:?} should parse, got {e:?}"),
            }
        }
    }

    #[test]
    fn rejected_forms() {
        // (input, byte offset, fragment of the message)
        let table: &[(&str, usize, &str)] = &[
            ("", 0, "empty"),
            ("   ", 3, "empty"),
            ("d", 0, "`d` must be followed"),
            ("3d", 1, "`d` must be followed"),
            ("1d0", 2, "at least 1 side"),
            ("0d6", 0, "at least 1"),
            ("99999999999999999999d6", 0, "too large"),
            ("99999999999999999999", 0, "too large"),
            ("9223372036854775808", 0, "too large"),
            ("1001d6", 0, "too many dice"),
            ("1d10001", 2, "too many sides"),
            ("1d6!!!", 5, "`!` repeated"),
            ("1d6!kh1!!", 7, "`!` repeated"),
            ("4d6!p", 3, "penetrating dice (`!p`)"),
            ("4d6!!P1", 3, "penetrating dice (`!!P`)"),
            ("4dF!!", 3, "fudge dice cannot explode"),
            ("1d1!", 3, "`d1!` always explodes"),
            ("4dF!", 3, "fudge dice cannot explode"),
            ("1d6kx", 3, "unknown modifier `kx`"),
            ("1d6x", 3, "unknown modifier `x`"),
            ("1d6d1", 3, "unknown modifier `d`"),
            ("4d6kh5", 5, "cannot keep 5 dice out of 4"),
            ("4d6dl5", 5, "cannot drop 5 dice out of 4"),
            ("4d6kh-1", 5, "cannot be negative"),
            ("4d6kh99999999999", 5, "cannot keep or drop"),
            ("4d6kh3kh3", 6, "more than one keep/drop"),
            ("4d6kh3dl1", 6, "more than one keep/drop"),
            ("5d6cs6cs5", 6, "`cs` repeated"),
            ("5d6cs", 3, "`cs` needs a number"),
            ("5d6cs>=", 3, "`cs` needs a number"),
            ("5d6cs>=99999999999999999999", 7, "too large"),
            ("1d6 2", 4, "unexpected `2`"),
            ("1d6 x", 4, "unexpected `x`"),
            ("3 d6", 2, "unexpected `d6`"),
            ("1d6)", 3, "unmatched `)`"),
            ("((", 2, "unexpected end of input"),
            ("(1d6", 0, "unclosed `(`"),
            ("(1d6 x)", 5, "unexpected `x`"),
            ("()", 1, "unmatched `)`"),
            ("1d6+", 4, "unexpected end of input"),
            ("1d6++2", 4, "unexpected `+`"),
            ("+2", 0, "unexpected `+`"),
            ("1d6/0", 4, "division by zero"),
            ("1d6/(2-2)", 4, "division by zero"),
            ("2(1d6)", 1, "unexpected `(`"),
            ("1d6 é", 4, "unexpected `é`"),
            ("1d6#", 3, "unexpected `#`"),
            // byte offsets after a multi-byte sign still land on the right character
            ("2d6\u{2212}x", 6, "unexpected `x`"),
            ("2\u{d7}\u{d7}3", 3, "unexpected `\u{d7}`"),
            ("1d6\u{2212}", 6, "unexpected end of input"),
            ("4d6kh\u{2212}1", 5, "cannot be negative"),
            ("d%b0", 3, "between 1 and 100"),
            ("d%p101", 3, "between 1 and 100"),
            ("1d6b1", 3, "percentile roll only"),
            ("2d%b1", 3, "one percentile roll at a time"),
            ("d%!b1", 3, "cannot explode"),
            ("d%b1kh1", 2, "cannot also keep"),
            ("d%b1p1", 4, "more than one bonus/penalty"),
            ("4dFb1", 3, "percentile roll only"),
        ];
        for (src, offset, fragment) in table {
            match parse_tree(src) {
                Ok(node) => panic!("{src:?} should fail, parsed as {}", canon(&node)),
                Err(e) => {
                    assert_eq!(e.offset, *offset, "offset for {src:?}: {e:?}");
                    assert!(e.message.contains(fragment), "message for {src:?}: {e:?}");
                    assert!(
                        e.offset + e.len <= src.len(),
                        "span inside input for {src:?}"
                    );
                    assert!(
                        src.is_char_boundary(e.offset) && src.is_char_boundary(e.offset + e.len)
                    );
                    assert!(
                        e.len >= 1 || e.offset == src.len(),
                        "empty span only at the end: {src:?} {e:?}"
                    );
                    assert!(e.hint.is_some(), "hint for {src:?}");
                }
            }
        }
    }

    #[test]
    fn error_details() {
        let e = parse_tree("4d6kx").unwrap_err();
        assert_eq!((e.offset, e.len), (3, 2));
        assert_eq!(e.message, "unknown modifier `kx`");
        assert_eq!(
            e.hint.as_deref(),
            Some("use `kh` (keep highest) or `kl` (keep lowest)")
        );
        assert_eq!(e.to_string(), "unknown modifier `kx` at byte 3");
    }

    #[test]
    fn spans_cover_their_text() {
        let src = "2 * (1d6!kh1 + 3)";
        let node = parse_tree(src).unwrap();
        assert_eq!(
            node.span,
            Span {
                start: 0,
                end: src.len()
            }
        );
        let NodeKind::Binary { rhs, .. } = &node.kind else {
            panic!("expected a product")
        };
        assert_eq!(&src[rhs.span.start..rhs.span.end], "(1d6!kh1 + 3)");
        let NodeKind::Group(inner) = &rhs.kind else {
            panic!("expected a group")
        };
        let NodeKind::Binary { lhs, .. } = &inner.kind else {
            panic!("expected a sum")
        };
        assert_eq!(&src[lhs.span.start..lhs.span.end], "1d6!kh1");
    }

    #[test]
    fn huge_and_nested_inputs_fail_cleanly() {
        let deep = "(".repeat(100_000);
        assert!(parse_tree(&deep).is_err());
        let minus = "-".repeat(100_000) + "1";
        assert!(parse_tree(&minus).is_err());
        let long = vec!["1d6"; 1000].join("+");
        assert!(parse_tree(&long).unwrap_err().message.contains("too long"));
        let ok = vec!["1"; 100].join("+");
        assert!(parse_tree(&ok).is_ok());
    }
}
