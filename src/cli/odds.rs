//! `blockprint odds EXPR`: the exact distribution of a dice expression, as a table with bars or as JSON.

use serde::Serialize;

use crate::dice;

use super::Status;

#[derive(Serialize)]
struct OddsOut {
    expr: String,
    outcomes: Vec<OutcomeOut>,
    mean: String,
    /// Probability mass of exploding sequences cut off at the depth cap; only present for exploding dice.
    #[serde(skip_serializing_if = "Option::is_none")]
    capped: Option<String>,
}

#[derive(Serialize)]
struct OutcomeOut {
    value: String,
    probability: String,
    approx: f64,
}

pub(super) fn run(src: &str, json: bool) -> Status {
    let expr = match dice::parse(src) {
        Ok(e) => e,
        Err(e) => {
            eprint!("{}", super::expr_error(src, &e));
            return Status::Rules;
        }
    };
    let dist = match expr.distribution() {
        Ok(d) => d,
        Err(e) => {
            // Point at the sub-expression at fault, as for a parse error.
            let span = e.span.unwrap_or(dice::Span {
                start: 0,
                end: src.len(),
            });
            let located = dice::ParseError {
                offset: span.start,
                len: span.end - span.start,
                message: e.message,
                hint: e.hint,
            };
            eprint!("{}", super::expr_error(src, &located));
            return Status::Rules;
        }
    };
    let capped = dist.capped();
    let out = OddsOut {
        expr: src.to_owned(),
        outcomes: dist
            .outcomes()
            .iter()
            .map(|(v, p)| OutcomeOut {
                // Both are in lowest terms already: printing them needs no gcd.
                value: dice::fraction_reduced(v),
                probability: dice::fraction_reduced(p),
                approx: dice::approx(p),
            })
            .collect(),
        mean: dice::fraction_reduced(&dist.mean()),
        capped: (!num_traits::Zero::is_zero(&capped)).then(|| dice::fraction_reduced(&capped)),
    };
    if json {
        return super::print_json(&out);
    }
    let mean = dist.mean();
    drop(dist);
    if mean.is_integer() {
        outln!("{}   mean {}", out.expr, out.mean);
    } else {
        outln!("{}   mean {} ≈ {}", out.expr, out.mean, dice::approx(&mean));
    }
    let v_w = out
        .outcomes
        .iter()
        .map(|o| o.value.len())
        .max()
        .unwrap_or(1)
        .max(5);
    let p_w = out
        .outcomes
        .iter()
        .map(|o| o.probability.len())
        .max()
        .unwrap_or(1)
        .max(11);
    let top = out.outcomes.iter().map(|o| o.approx).fold(0.0, f64::max);
    outln!(
        "{:>v_w$}  {:>p_w$}  {:>8}",
        "value",
        "probability",
        "approx"
    );
    for o in &out.outcomes {
        let bar = if top > 0.0 {
            (o.approx / top * 30.0).round() as usize
        } else {
            0
        };
        outln!(
            "{:>v_w$}  {:>p_w$}  {:>7.3}%  {}",
            o.value,
            o.probability,
            o.approx * 100.0,
            "█".repeat(bar)
        );
    }
    if let Some(c) = &out.capped {
        outln!(
            "exploding dice are followed for at most {} extra rolls per die; the sequences cut off there (their last face counts as rolled) have probability {c}",
            dice::EXPLODE_CAP
        );
    }
    Status::Ok
}
