//! `blockprint odds EXPR`: the exact distribution of a dice expression, as a table with bars or as JSON.
//!
//! The table reads like AnyDice's "normal", "at least" and "at most" views side by side: every value with
//! its chance of exactly, at least and at most that value, each as a fraction and a percentage, after the
//! mean (exact and decimal) and the standard deviation (decimal, with the exact variance). Questions
//! (`--at-least 15`, `--compare ">= 15"`) print one exact chance; `--vs` rolls two expressions against
//! each other through the exact distribution of their difference.

use num_rational::BigRational;
use num_traits::{Signed, Zero};
use serde::Serialize;

use crate::app::odds::{self, BadDice, Draws, Field};
use crate::dice::caret::escaped;
use crate::dice::question::{Op, parse_number, parse_question};
use crate::dice::{self, Dist, Expr};

use super::Status;

/// Where the draws of a contest go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Ties {
    /// List draws on their own.
    Show,
    /// A draw counts as a loss for the attacker (the defender wins ties).
    Defender,
    /// A draw counts as a win for the attacker.
    Attacker,
}

/// What `odds` was asked besides the expression.
pub(super) struct Options {
    pub json: bool,
    pub at_least: Vec<String>,
    pub at_most: Vec<String>,
    pub compare: Vec<String>,
    pub vs: Option<String>,
    pub ties: Ties,
    /// The questions in the order they were asked ([`order_of`]); empty when not known.
    pub order: Vec<(Asked, String)>,
}

#[derive(Serialize)]
struct OddsOut {
    expr: String,
    outcomes: Vec<OutcomeOut>,
    mean: String,
    mean_approx: f64,
    variance: String,
    variance_approx: f64,
    /// The standard deviation, the square root of the variance, to 5 decimal places.
    sd_approx: f64,
    /// Probability mass of exploding sequences cut off at the depth cap; only present for exploding dice.
    #[serde(skip_serializing_if = "Option::is_none")]
    capped: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    questions: Vec<QuestionOut>,
}

#[derive(Serialize)]
struct OutcomeOut {
    value: String,
    probability: String,
    approx: f64,
    at_least: String,
    at_least_approx: f64,
    at_most: String,
    at_most_approx: f64,
}

#[derive(Serialize)]
struct QuestionOut {
    /// The comparison as asked, normalised: `">= 15"`.
    question: String,
    op: &'static str,
    value: String,
    probability: String,
    approx: f64,
}

#[derive(Serialize)]
struct ChanceOut {
    probability: String,
    approx: f64,
}

#[derive(Serialize)]
struct ContestOut {
    expr: String,
    vs: String,
    ties: Ties,
    win: ChanceOut,
    /// Present when draws are shown on their own (`--ties show`).
    #[serde(skip_serializing_if = "Option::is_none")]
    draw: Option<ChanceOut>,
    loss: ChanceOut,
    /// The distribution of `expr - vs`.
    margin: OddsOut,
    first: OddsOut,
    second: OddsOut,
}

/// A message with the expression and a caret line under `span` ([`dice::caret`]: control characters
/// escaped).
fn located(kind: &str, src: &str, span: dice::Span, message: &str, hint: Option<&str>) -> String {
    dice::caret::render(kind, src, span.start..span.end, message, hint)
}

/// Warn on stderr about count-successes targets no die can meet or every die meets (shared with `roll`).
pub(super) fn warn_success_targets(expr: &Expr) {
    for w in expr.success_warnings() {
        eprint!(
            "{}",
            located(
                "warning[success_target]",
                expr.source(),
                w.span,
                &w.message,
                Some(&w.hint)
            )
        );
    }
}

fn parse_or_report(field: Field, src: &str) -> Result<Expr, Status> {
    odds::read(field, src).map_err(|b| {
        report(&b);
        Status::Rules
    })
}

/// Report `bad` on stderr: the expression with a caret under its place, or, for a fault of the two
/// expressions' difference (which has no place in either), the message and its help.
fn report(bad: &BadDice) {
    match &bad.span {
        Some(span) => eprint!(
            "{}",
            dice::caret::render(
                "error[bad_dice]",
                &bad.source,
                span.clone(),
                &bad.message,
                bad.hint.as_deref()
            )
        ),
        None => {
            eprintln!("error[bad_dice]: {}", escaped(&bad.message));
            if let Some(h) = &bad.hint {
                eprintln!("  = help: {h}");
            }
        }
    }
}

/// Which question option a value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Asked {
    AtLeast,
    AtMost,
    Compare,
}

/// The question options of `odds` in the order they stood on the command line (`--at-least`,
/// `--at-most` and `--compare` values), read from clap's indices before the matches become
/// [`Options`], whose lists lose the order between them; empty when `m` does not run `odds`.
pub(super) fn order_of(m: &clap::ArgMatches) -> Vec<(Asked, String)> {
    let Some(("odds", sub)) = m.subcommand() else {
        return Vec::new();
    };
    let mut asked: Vec<(usize, Asked, String)> = Vec::new();
    for (id, kind) in [
        ("at_least", Asked::AtLeast),
        ("at_most", Asked::AtMost),
        ("compare", Asked::Compare),
    ] {
        if let (Some(at), Some(values)) = (sub.indices_of(id), sub.get_many::<String>(id)) {
            asked.extend(at.zip(values).map(|(i, v)| (i, kind, v.clone())));
        }
    }
    asked.sort_by_key(|(i, _, _)| *i);
    asked.into_iter().map(|(_, k, v)| (k, v)).collect()
}

/// The questions in the order asked: `opts.order` when it holds these very values, otherwise every
/// `--at-least`, then every `--at-most`, then every `--compare`.
fn asked_in_order(opts: &Options) -> Vec<(Asked, String)> {
    let grouped: Vec<(Asked, String)> = opts
        .at_least
        .iter()
        .map(|v| (Asked::AtLeast, v.clone()))
        .chain(opts.at_most.iter().map(|v| (Asked::AtMost, v.clone())))
        .chain(opts.compare.iter().map(|v| (Asked::Compare, v.clone())))
        .collect();
    let mut seen = opts.order.clone();
    let mut want = grouped.clone();
    seen.sort();
    want.sort();
    if seen == want {
        opts.order.clone()
    } else {
        grouped
    }
}

pub(super) fn run(src: &str, opts: &Options) -> Status {
    // Questions are checked before any work, so a typo is a usage error (exit 2) at once.
    let mut questions: Vec<(Op, BigRational)> = Vec::new();
    for (kind, text) in asked_in_order(opts) {
        match kind {
            Asked::AtLeast => match parse_number(&text) {
                Ok(v) => questions.push((Op::Ge, v)),
                Err(e) => return usage(&format!("--at-least: {e}")),
            },
            Asked::AtMost => match parse_number(&text) {
                Ok(v) => questions.push((Op::Le, v)),
                Err(e) => return usage(&format!("--at-most: {e}")),
            },
            Asked::Compare => match parse_question(&text) {
                Ok(x) => questions.push(x),
                Err(e) => return usage(&format!("--compare: {e}")),
            },
        }
    }
    let expr = match parse_or_report(Field::Expression, src) {
        Ok(e) => e,
        Err(s) => return s,
    };
    if let Some(other) = &opts.vs {
        let defender = match parse_or_report(Field::Against, other) {
            Ok(e) => e,
            Err(s) => return s,
        };
        warn_success_targets(&expr);
        warn_success_targets(&defender);
        return contest(&expr, &defender, opts);
    }
    warn_success_targets(&expr);
    let dist = match odds::distribution(Field::Expression, &expr) {
        Ok(d) => d,
        Err(b) => {
            report(&b);
            return Status::Rules;
        }
    };
    let mut out = odds_out(src, &dist);
    out.questions = odds::chances(&dist, &questions)
        .into_iter()
        .map(|c| QuestionOut {
            question: format!("{} {}", c.op.symbol(), dice::fraction_reduced(&c.value)),
            op: c.op.symbol(),
            value: dice::fraction_reduced(&c.value),
            approx: dice::approx(&c.probability),
            probability: dice::fraction_reduced(&c.probability),
        })
        .collect();
    if opts.json {
        return stream_json(&out);
    }
    let mut text = header(&out);
    if out.questions.is_empty() {
        // A wide table goes out as it is written, never whole in memory.
        let mut w = Chunked::new();
        w.push_str(&text);
        write_table(&out, &mut w);
        if let Some(c) = &out.capped {
            w.push_str(&cap_note(c));
        }
        w.flush_now();
        return Status::Ok;
    } else {
        for q in &out.questions {
            text.push_str(&format!(
                "P({} {}) = {}\n",
                out.expr.trim(),
                q.question,
                chance(&q.probability, q.approx)
            ));
        }
    }
    if let Some(c) = &out.capped {
        text.push_str(&cap_note(c));
    }
    outp!("{text}");
    Status::Ok
}

fn usage(message: &str) -> Status {
    eprintln!("error: {}", escaped(message));
    Status::Io
}

fn cap_note(c: &str) -> String {
    format!(
        "exploding dice are followed for at most {} extra rolls per die; the sequences cut off there (their last face counts as rolled) have probability {c}\n",
        dice::EXPLODE_CAP
    )
}

/// `3/5 ≈ 0.6 (60.000%)`; `1 (100.000%)` for a whole number.
fn chance(fraction: &str, approx: f64) -> String {
    if fraction.contains('/') {
        format!("{fraction} ≈ {approx} ({:.3}%)", approx * 100.0)
    } else {
        format!("{fraction} ({:.3}%)", approx * 100.0)
    }
}

/// Everything the text and JSON outputs print about one distribution.
fn odds_out(src: &str, dist: &Dist) -> OddsOut {
    let capped = dist.capped();
    let mean = dist.mean();
    let variance = dist.variance();
    OddsOut {
        expr: src.to_owned(),
        outcomes: {
            // One row at a time, so only the printed strings are held, never every row's fractions too.
            let mut v = Vec::with_capacity(dist.len());
            dist.for_each_row(|r| {
                let t = dice::row_text(&r);
                v.push(OutcomeOut {
                    value: t.value,
                    probability: t.exactly.fraction,
                    approx: t.exactly.approx,
                    at_least: t.at_least.fraction,
                    at_least_approx: t.at_least.approx,
                    at_most: t.at_most.fraction,
                    at_most_approx: t.at_most.approx,
                })
            });
            v
        },
        mean: dice::fraction_reduced(&mean),
        mean_approx: dice::approx(&mean),
        variance: dice::fraction_reduced(&variance),
        variance_approx: dice::approx(&variance),
        sd_approx: dice::sqrt_approx(&variance),
        capped: (!capped.is_zero()).then(|| dice::fraction_reduced(&capped)),
        questions: Vec::new(),
    }
}

/// `21/2 ≈ 10.5`, or `10` for a whole number.
fn exact_or_approx(frac: &str, approx: f64) -> String {
    if frac.contains('/') {
        format!("{frac} ≈ {approx}")
    } else {
        frac.to_owned()
    }
}

/// `3d6   mean 21/2 ≈ 10.5` and, aligned under `mean`, `sd ≈ 2.95804   variance 35/4 ≈ 8.75`.
fn header(out: &OddsOut) -> String {
    let pad = " ".repeat(out.expr.chars().count());
    format!(
        "{}   mean {}\n{pad}   sd ≈ {}   variance {}\n",
        out.expr,
        exact_or_approx(&out.mean, out.mean_approx),
        out.sd_approx,
        exact_or_approx(&out.variance, out.variance_approx),
    )
}

/// One line of a contest's summary: `attacker  2dF   mean 0   sd ≈ 1.1547   variance 4/3 ≈ 1.33333`.
fn summary(label: &str, label_w: usize, expr_w: usize, out: &OddsOut) -> String {
    let pad = " ".repeat(expr_w.saturating_sub(out.expr.trim().chars().count()));
    format!(
        "{label:<label_w$}  {}{pad}   mean {}   sd ≈ {}   variance {}\n",
        out.expr.trim(),
        exact_or_approx(&out.mean, out.mean_approx),
        out.sd_approx,
        exact_or_approx(&out.variance, out.variance_approx),
    )
}

/// The value table: exactly / at least / at most, each a fraction and a percentage, then a bar.
/// Output written to stdout in pieces of about 64 KB, so a wide table or its JSON is never held whole.
struct Chunked(Vec<u8>);

impl Chunked {
    fn new() -> Chunked {
        Chunked(Vec::with_capacity(1 << 16))
    }
    fn push_str(&mut self, s: &str) {
        self.0.extend_from_slice(s.as_bytes());
        if self.0.len() >= 1 << 16 {
            self.flush_now();
        }
    }
    fn flush_now(&mut self) {
        if !self.0.is_empty() {
            super::write_stdout(&String::from_utf8_lossy(&self.0));
            self.0.clear();
        }
    }
}

impl std::io::Write for Chunked {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(buf);
        if self.0.len() >= 1 << 16 {
            // A chunk may end inside a character; write up to the last whole one.
            let cut = match std::str::from_utf8(&self.0) {
                Ok(_) => self.0.len(),
                Err(e) => e.valid_up_to(),
            };
            let rest = self.0.split_off(cut);
            self.flush_now();
            self.0 = rest;
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Print `v` as pretty JSON with a final newline, streamed.
fn stream_json(v: &impl Serialize) -> Status {
    let mut w = Chunked::new();
    if let Err(e) = serde_json::to_writer_pretty(&mut w, v) {
        eprintln!("error: cannot write JSON: {e}");
        return Status::Io;
    }
    w.push_str("\n");
    w.flush_now();
    Status::Ok
}

/// Every value's row with its bars, written into `s` as it goes.
fn write_table(out: &OddsOut, s: &mut Chunked) {
    let width = |f: &dyn Fn(&OutcomeOut) -> usize, min: usize| {
        out.outcomes.iter().map(f).max().unwrap_or(1).max(min)
    };
    let v_w = width(&|o| o.value.chars().count(), 5);
    let e_w = width(&|o| o.probability.len(), 7);
    let l_w = width(&|o| o.at_least.len(), 8);
    let m_w = width(&|o| o.at_most.len(), 7);
    let top = out.outcomes.iter().map(|o| o.approx).fold(0.0, f64::max);
    s.push_str(&format!(
        "{:>v_w$}  {:>e_w$} {:>9}  {:>l_w$} {:>9}  {:>m_w$} {:>9}\n",
        "value", "exactly", "%", "at least", "%", "at most", "%"
    ));
    for o in &out.outcomes {
        let bar = if top > 0.0 {
            (o.approx / top * 30.0).round() as usize
        } else {
            0
        };
        let line = format!(
            "{:>v_w$}  {:>e_w$} {:>8.3}%  {:>l_w$} {:>8.3}%  {:>m_w$} {:>8.3}%  {}",
            o.value,
            o.probability,
            o.approx * 100.0,
            o.at_least,
            o.at_least_approx * 100.0,
            o.at_most,
            o.at_most_approx * 100.0,
            "█".repeat(bar)
        );
        // no trailing spaces when the bar is empty
        s.push_str(line.trim_end());
        s.push_str("\n");
    }
}

fn chance_out(p: &BigRational) -> ChanceOut {
    ChanceOut {
        probability: dice::fraction_reduced(p),
        approx: dice::approx(p),
    }
}

fn contest(attacker: &Expr, defender: &Expr, opts: &Options) -> Status {
    let c = match odds::contest(attacker, defender) {
        Ok(c) => c,
        Err(b) => {
            report(&b);
            return Status::Rules;
        }
    };
    let (a, b) = (attacker.source().trim(), defender.source().trim());
    let odds::Outcome { win, draw, loss } = odds::outcome(
        &c,
        match opts.ties {
            Ties::Show => Draws::Apart,
            Ties::Defender => Draws::Defender,
            Ties::Attacker => Draws::Attacker,
        },
    );
    let margin_src = format!("({a}) - ({b})");
    let out = ContestOut {
        expr: attacker.source().to_owned(),
        vs: defender.source().to_owned(),
        ties: opts.ties,
        win: chance_out(&win),
        draw: draw.as_ref().map(chance_out),
        loss: chance_out(&loss),
        margin: odds_out(&margin_src, &c.margin),
        first: odds_out(attacker.source(), &c.first),
        second: odds_out(defender.source(), &c.second),
    };
    if opts.json {
        return super::print_json(&out);
    }
    let mut text = format!("{a} against {b}\n");
    let (win_op, loss_op) = match opts.ties {
        Ties::Show => (">", "<"),
        Ties::Defender => (">", "<="),
        Ties::Attacker => (">=", "<"),
    };
    let mut lines = vec![("win", format!("P({a} {win_op} {b})"), &out.win)];
    if let Some(d) = &out.draw {
        lines.push(("draw", format!("P({a} = {b})"), d));
    }
    lines.push(("loss", format!("P({a} {loss_op} {b})"), &out.loss));
    let w = lines
        .iter()
        .map(|(_, q, _)| q.chars().count())
        .max()
        .unwrap_or(0);
    for (name, q, ch) in &lines {
        let pad = " ".repeat(w - q.chars().count());
        text.push_str(&format!(
            "{name:<4}  {q}{pad} = {}\n",
            chance(&ch.probability, ch.approx)
        ));
    }
    match opts.ties {
        Ties::Show => {}
        Ties::Defender => text.push_str("draws count for the defender\n"),
        Ties::Attacker => text.push_str("draws count for the attacker\n"),
    }
    let sides = [
        ("attacker", &out.first),
        ("defender", &out.second),
        ("margin", &out.margin),
    ];
    let expr_w = sides
        .iter()
        .map(|(_, o)| o.expr.trim().chars().count())
        .max()
        .unwrap_or(0);
    for (label, side) in sides {
        text.push_str(&summary(label, 8, expr_w, side));
    }
    let capped = c.margin.capped();
    if !capped.is_zero() && !capped.is_negative() {
        text.push_str(&cap_note(&dice::fraction_reduced(&capped)));
    }
    outp!("{text}");
    Status::Ok
}
