//! The Odds page (a dice expression's exact distribution as an SVG chart, at least / at most, a contest
//! against a second expression, the caret under a bad expression) and the Tables page (every table with
//! each row's exact odds as a bar; seeded rolls, sub-tables rolled through, and the session's roll log).

use std::sync::Arc;

use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use num_rational::BigRational;
use serde::{Deserialize, Serialize};

use super::{App, refuse};
// Control characters written as escapes (`\u{1b}`), as the command line shows them.
use crate::app::odds::{self, BadDice, Field};
use crate::dice;
use crate::dice::caret::escaped;
use crate::roll::{self, TableRoll};

/// Values a chart draws at most; a wider distribution is listed but not drawn.
const MAX_BARS: usize = 2000;
/// Rows the value table lists at most.
const MAX_ROWS: usize = 500;
/// Rolls the session's log keeps (the newest).
const MAX_LOG: usize = 200;
/// Chart size in SVG units.
const CHART_W: f64 = 760.0;
const CHART_H: f64 = 200.0;
const CHART_LEFT: f64 = 64.0;

/// What the Odds page was asked.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct OddsQuery {
    #[serde(default)]
    expr: String,
    #[serde(default)]
    vs: String,
    #[serde(default)]
    at_least: String,
    #[serde(default)]
    at_most: String,
}

/// A bad expression: the message, the expression (control characters escaped) and the caret line.
#[derive(Debug, Serialize, PartialEq)]
pub(crate) struct Bad {
    which: &'static str,
    message: String,
    hint: Option<String>,
    source: String,
    /// Spaces up to the fault, then one `^` per character of it.
    caret: String,
}

#[derive(Debug, Serialize)]
struct Bar {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    label: String,
    pct: String,
}

#[derive(Debug, Serialize)]
struct Tick {
    x: f64,
    label: String,
}

#[derive(Debug, Serialize)]
struct Outcome {
    value: String,
    exactly: String,
    exactly_pct: f64,
    at_least: String,
    at_least_pct: f64,
    at_most: String,
    at_most_pct: f64,
}

#[derive(Debug, Serialize)]
struct Chance {
    question: String,
    fraction: String,
    approx: f64,
}

#[derive(Debug, Serialize)]
struct Distribution {
    expr: String,
    mean: String,
    mean_approx: f64,
    sd_approx: f64,
    bars: Vec<Bar>,
    ticks: Vec<Tick>,
    top_pct: String,
    drawn: bool,
    outcomes: Vec<Outcome>,
    values: usize,
    listed: bool,
}

#[derive(Debug, Serialize)]
struct Contest {
    win: Chance,
    draw: Chance,
    loss: Chance,
    defender: Distribution,
}

#[derive(Debug, Default, Serialize)]
struct Answer {
    dist: Option<Distribution>,
    contest: Option<Contest>,
    chances: Vec<Chance>,
    bad: Vec<Bad>,
}

/// The bad-expression report for `src` with the fault at byte `start..end`.
pub(crate) fn bad(
    which: &'static str,
    src: &str,
    start: usize,
    end: usize,
    message: &str,
    hint: Option<&str>,
) -> Bad {
    let l = dice::caret::locate(src, start..end, message, hint);
    Bad {
        which,
        message: l.message,
        hint: l.hint,
        source: l.source,
        caret: l.caret,
    }
}

/// The page's report of a [`BadDice`]: its field in words, and a caret under its place (the whole
/// second expression for a fault of the two together).
fn bad_dice(b: BadDice) -> Bad {
    let which = match b.field {
        Field::Expression => "expression",
        Field::Against => "against",
    };
    let span = b.span.unwrap_or(0..b.source.len());
    bad(
        which,
        &b.source,
        span.start,
        span.end,
        &b.message,
        b.hint.as_deref(),
    )
}

fn chance(question: String, p: &BigRational) -> Chance {
    Chance {
        question,
        fraction: dice::fraction_reduced(p),
        approx: dice::approx(p),
    }
}

fn distribution(src: &str, d: &dice::Dist) -> Distribution {
    let rows = d.rows();
    let n = rows.len();
    let top = rows
        .iter()
        .map(|r| dice::approx(&r.exactly))
        .fold(0.0, f64::max);
    let drawn = n <= MAX_BARS && top > 0.0;
    let bw = (CHART_W - CHART_LEFT) / n.max(1) as f64;
    let mut bars = Vec::new();
    let mut ticks = Vec::new();
    if drawn {
        for (i, r) in rows.iter().enumerate() {
            let a = dice::approx(&r.exactly);
            let h = a / top * CHART_H;
            let label = dice::fraction_reduced(&r.value);
            bars.push(Bar {
                x: CHART_LEFT + i as f64 * bw + bw * 0.1,
                y: CHART_H - h + 10.0,
                w: (bw * 0.8).max(0.5),
                h,
                pct: format!("{:.3}%", a * 100.0),
                label,
            });
        }
        let step = n.div_ceil(12).max(1);
        for (i, r) in rows.iter().enumerate() {
            if i % step == 0 || i + 1 == n {
                ticks.push(Tick {
                    x: CHART_LEFT + (i as f64 + 0.5) * bw,
                    label: dice::fraction_reduced(&r.value),
                });
            }
        }
        // The last tick would crowd the one before it.
        if ticks.len() >= 2 && (ticks[ticks.len() - 1].x - ticks[ticks.len() - 2].x) < 30.0 {
            let last = ticks.len() - 2;
            ticks.remove(last);
        }
    }
    let listed = n <= MAX_ROWS;
    let outcomes = if listed {
        rows.iter()
            .map(|r| {
                let t = dice::row_text(r);
                Outcome {
                    value: t.value,
                    exactly: t.exactly.fraction,
                    exactly_pct: t.exactly.approx,
                    at_least: t.at_least.fraction,
                    at_least_pct: t.at_least.approx,
                    at_most: t.at_most.fraction,
                    at_most_pct: t.at_most.approx,
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let mean = d.mean();
    Distribution {
        expr: escaped(src),
        mean: dice::fraction_reduced(&mean),
        mean_approx: dice::approx(&mean),
        sd_approx: dice::sqrt_approx(&d.variance()),
        bars,
        ticks,
        top_pct: format!("{:.2}%", top * 100.0),
        drawn,
        outcomes,
        values: n,
        listed,
    }
}

/// Work out what the Odds page shows (on a blocking thread: a distribution may take up to a second).
fn answer(q: &OddsQuery) -> Answer {
    let mut a = Answer::default();
    let src = q.expr.trim_end();
    if src.trim().is_empty() {
        return a;
    }
    let expr = match odds::read(Field::Expression, src) {
        Ok(e) => e,
        Err(b) => {
            a.bad.push(bad_dice(b));
            return a;
        }
    };
    let dist = match odds::distribution(Field::Expression, &expr) {
        Ok(d) => d,
        Err(b) => {
            a.bad.push(bad_dice(b));
            return a;
        }
    };
    for (field, text, op) in [
        ("at least", q.at_least.trim(), dice::question::Op::Ge),
        ("at most", q.at_most.trim(), dice::question::Op::Le),
    ] {
        if text.is_empty() {
            continue;
        }
        match dice::question::parse_number(text) {
            Ok(n) => {
                for c in odds::chances(&dist, &[(op, n)]) {
                    a.chances.push(chance(
                        format!("{field} {}", dice::fraction_reduced(&c.value)),
                        &c.probability,
                    ));
                }
            }
            Err(e) => a.bad.push(bad(field, text, 0, text.len(), &e, None)),
        }
    }
    let vs = q.vs.trim_end();
    if !vs.trim().is_empty() {
        match odds::read(Field::Against, vs).and_then(|other| odds::contest(&expr, &other)) {
            Ok(c) => {
                let o = odds::outcome(&c, odds::Draws::Apart);
                a.contest = Some(Contest {
                    win: chance("higher".into(), &o.win),
                    draw: chance("equal".into(), o.draw.as_ref().unwrap_or(&c.draw)),
                    loss: chance("lower".into(), &o.loss),
                    defender: distribution(vs, &c.second),
                });
            }
            Err(b) => a.bad.push(bad_dice(b)),
        }
    }
    a.dist = Some(distribution(src, &dist));
    a
}

/// GET /odds?expr=3d6&vs=&at_least=&at_most=: the Odds page.
pub(crate) async fn odds(State(app): State<Arc<App>>, Query(q): Query<OddsQuery>) -> Response {
    // A question shares the chase page's cap on questions at once (the dice engine bounds its own work).
    let Some(permit) = super::chase::question_slot(&app) else {
        return super::chase::busy();
    };
    let (q, answer) = match tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let a = answer(&q);
        (q, a)
    })
    .await
    {
        Ok(x) => x,
        Err(e) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    };
    app.page(
        "odds.html",
        minijinja::context! {
            current => "odds",
            expr => q.expr,
            vs => q.vs,
            at_least => q.at_least,
            at_most => q.at_most,
            answer => minijinja::value::Serde(&answer),
            chart_w => CHART_W,
            chart_h => CHART_H,
            chart_left => CHART_LEFT,
        },
    )
}

/// A roll in the session's log.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Logged {
    n: usize,
    title: String,
    seed: u64,
    roll: TableRoll,
}

/// GET /tables: every table with its rows' exact odds, a Roll button each, and the session's log.
pub(crate) async fn tables(State(app): State<Arc<App>>) -> Response {
    let loaded = app.loaded();
    let (tables, problem, diagnostics) = match &loaded.project {
        Ok(p) => match crate::render::data::tables(p.lib(), p.report()) {
            Some(t) => (t, None, Some(super::diagnostics(p))),
            None => (
                Vec::new(),
                Some(
                    "the content has errors, so its tables have no odds yet: see below".to_owned(),
                ),
                Some(super::diagnostics(p)),
            ),
        },
        Err(e) => (Vec::new(), Some(e.clone()), None),
    };
    #[derive(Serialize)]
    struct TableView {
        table: crate::render::data::TableData,
        /// Each row's bar, as a share of the widest row.
        widths: Vec<f64>,
        /// Each row's result as HTML: its text escaped, each `{table:ID}` a link to that table.
        results: Vec<String>,
    }
    let titles: std::collections::HashMap<String, String> = tables
        .iter()
        .map(|t| (t.id.clone(), t.title.clone()))
        .collect();
    let views: Vec<TableView> = tables
        .into_iter()
        .map(|t| {
            let top = t.rows.iter().map(|r| r.approx).fold(0.0, f64::max);
            let widths = t
                .rows
                .iter()
                .map(|r| {
                    if top > 0.0 {
                        (r.approx / top * 1000.0).round() / 10.0
                    } else {
                        0.0
                    }
                })
                .collect();
            let results = t.rows.iter().map(|r| linked(&r.result, &titles)).collect();
            TableView {
                table: t,
                widths,
                results,
            }
        })
        .collect();
    let log: Vec<Logged> = app
        .rolls
        .lock()
        .map(|l| l.iter().rev().cloned().collect())
        .unwrap_or_default();
    app.page(
        "tables.html",
        minijinja::context! {
            current => "tables",
            tables => minijinja::value::Serde(&views),
            problem,
            diagnostics => minijinja::value::Serde(&diagnostics),
            log => minijinja::value::Serde(&log),
        },
    )
}

/// A row's result as HTML: the text escaped, and each `{table:ID}` of a table on the page a link to it
/// named by its title (`{table:ID}` of no such table stays as written, escaped).
pub(crate) fn linked(text: &str, titles: &std::collections::HashMap<String, String>) -> String {
    use crate::content::text::{Piece, pieces};
    let esc = |s: &str| minijinja::HtmlEscape(s).to_string();
    // A text the checker would refuse (an unmatched brace) is shown as written.
    let Ok(parts) = pieces(text) else {
        return esc(text);
    };
    // The braces around the piece whose inside starts at byte `at`, as written.
    let raw = |at: usize| {
        let open = text[..at].rfind('{').unwrap_or(at);
        let close = text[at..].find('}').map_or(text.len(), |c| at + c + 1);
        &text[open..close]
    };
    parts
        .iter()
        .map(|p| match p {
            Piece::Text(t) => esc(t),
            Piece::Table { id, at } => match titles.get(*id) {
                Some(title) => format!(
                    "<a class=\"table-link\" href=\"#t-{}\">{}</a>",
                    esc(id),
                    esc(title)
                ),
                None => esc(raw(*at)),
            },
            Piece::Roll { at, .. } => esc(raw(*at)),
        })
        .collect()
}

/// What the page sends to roll a table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RollRequest {
    table: String,
    #[serde(default)]
    seed: Option<u64>,
}

/// POST /roll: roll a table (seeded; a fresh seed when none is given), sub-tables rolled through; the
/// roll joins the session's log and comes back as the log's new entry.
pub(crate) async fn roll(
    State(app): State<Arc<App>>,
    body: Result<Json<RollRequest>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let req = match super::json_body(body, "a roll") {
        Ok(req) => req,
        Err(refused) => return refused,
    };
    let seed = match req.seed {
        Some(s) if s > roll::case::MAX_SEED => {
            return refuse(
                StatusCode::BAD_REQUEST,
                &format!(
                    "seed {s}: a seed is a whole number up to {}",
                    roll::case::MAX_SEED
                ),
            );
        }
        Some(s) => s,
        None => roll::fresh_seed(),
    };
    let loaded = app.loaded();
    let project = match &loaded.project {
        Ok(p) => p,
        Err(e) => {
            return refuse(
                StatusCode::CONFLICT,
                &format!("the content cannot be read: {e}"),
            );
        }
    };
    let cx = match project.checked(&[]) {
        Ok(cx) => cx,
        Err(e) => return refuse(StatusCode::CONFLICT, &e.to_string()),
    };
    let Some(table) = cx.lib.table(&req.table) else {
        return refuse(
            StatusCode::NOT_FOUND,
            &format!("there is no table `{}`", req.table),
        );
    };
    let title = table.title.clone();
    let rolled = match roll::roll_table(&cx.lib, &req.table, &mut roll::rng(seed)) {
        Ok(r) => r,
        Err(e) => return refuse(StatusCode::UNPROCESSABLE_ENTITY, &e.to_string()),
    };
    let entry = {
        let Ok(mut log) = app.rolls.lock() else {
            return refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the roll log is poisoned",
            );
        };
        let n = log.last().map_or(1, |l| l.n + 1);
        let entry = Logged {
            n,
            title,
            seed,
            roll: rolled,
        };
        log.push(entry.clone());
        if log.len() > MAX_LOG {
            let extra = log.len() - MAX_LOG;
            log.drain(..extra);
        }
        entry
    };
    app.page(
        "roll.html",
        minijinja::context! { entry => minijinja::value::Serde(&entry) },
    )
}
