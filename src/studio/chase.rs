//! The Chase page: pick a chase system, set its options in a form drawn from `chase odds SYSTEM`'s own
//! definition ([`crate::chase::odds_command`], which the command line flattens: names, help, defaults,
//! possible values; the policies from the system itself), and read the same answer
//! ([`crate::app::answers::chase_odds`]) `blockprint chase odds SYSTEM … --json` gives: every ending's chance
//! (exact fraction, or the simulation's label, runs and 99 % interval), the length in the system's unit,
//! the policy and the house rulings. A bad option shows the command line's error text.
//!
//! A GET with the options in the query: nothing changes state, so no token is needed. The answer is
//! worked out under the command line's budget ([`blockprint_chase::Budget`]: exact within its work,
//! otherwise a seeded simulation within its own), at most [`MAX_QUESTIONS`] chase and dice-odds
//! questions at once (beyond that: 429 with words), and it stops as soon as the client goes away: the
//! handler holds a guard that raises the budget's cancel flag when hyper drops the request (a closed
//! connection), and the solver checks the flag as it counts its work, so no core works for no one.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Serialize;

use super::{App, refuse};
use crate::app::answers::{ChaseOdds, Unanswered, chase_odds};
use crate::chase::{odds_command, parse_odds};
use blockprint_chase::{Budget, Cancel};

/// Chase and dice-odds questions worked out at once, at most (one a core of the machines the studio is
/// measured on); one more is refused with 429 and words until one has its answer.
pub(crate) const MAX_QUESTIONS: usize = 2;

/// Raises its flag when dropped: held by a request's handler, so a request hyper drops (its client went
/// away) cancels the question it started.
pub(crate) struct CancelOnDrop(pub(crate) Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// A slot for one more question, or `None` when [`MAX_QUESTIONS`] are being worked out (then
/// [`busy`] is the answer).
pub(crate) fn question_slot(app: &App) -> Option<tokio::sync::OwnedSemaphorePermit> {
    app.questions.clone().try_acquire_owned().ok()
}

/// The refusal of a question past [`MAX_QUESTIONS`]: 429 with words.
pub(crate) fn busy() -> Response {
    refuse(
        StatusCode::TOO_MANY_REQUESTS,
        &format!(
            "{MAX_QUESTIONS} chase or odds questions are being worked out already, the most at once; ask again when one has its answer"
        ),
    )
}

/// Options of `chase odds` the page does not offer: output and content are the studio's own business.
const NOT_OFFERED: [&str; 5] = ["json", "content", "check_pages", "color", "help"];
/// Bar width in SVG units (the bar of 100 %).
const BAR_W: f64 = 100.0;

/// A system the page offers.
#[derive(Debug, Serialize)]
struct SystemView {
    name: String,
    about: String,
}

/// One choice of a select.
#[derive(Debug, Serialize)]
struct Choice {
    value: String,
    help: String,
}

/// One option of the form, as the command line defines it.
#[derive(Debug, Serialize)]
struct Field {
    /// The long name without dashes (`quarry-level`): the query's key.
    name: String,
    /// What a GM calls it (from its help, not its flag).
    label: String,
    help: String,
    /// `flag` (a checkbox), `choice` (a select) or `text`.
    kind: &'static str,
    default: String,
    choices: Vec<Choice>,
    /// What the query gave (empty: the default).
    value: String,
    /// The choice a select shows: the one given when it is one of them, otherwise the default.
    selected: String,
}

/// One ending as the page shows it.
#[derive(Debug, Serialize)]
struct EndingView {
    id: String,
    label: String,
    percent: String,
    fraction: Option<String>,
    interval: Option<(String, String)>,
    /// Bar width, in SVG units of [`BAR_W`].
    width: f64,
}

#[derive(Debug, Serialize)]
struct AnswerView {
    system_name: String,
    setup: String,
    policy_id: String,
    policy_text: String,
    exact: bool,
    states: Option<u64>,
    runs: Option<u64>,
    seed: Option<u64>,
    reason: Option<String>,
    endings: Vec<EndingView>,
    unit_one: String,
    unit_many: String,
    mean: String,
    mean_fraction: Option<String>,
    median: u64,
    p90: u64,
    called_off: Option<String>,
    /// Title, ruling, why.
    rulings: Vec<(String, String, String)>,
}

fn view(a: &ChaseOdds) -> AnswerView {
    let o = &a.odds;
    let (exact, states, runs, seed, reason) = match &o.method {
        blockprint_chase::Method::Exact { states } => {
            (true, Some(*states as u64), None, None, None)
        }
        blockprint_chase::Method::Simulated { runs, seed, reason } => {
            (false, None, Some(*runs), Some(*seed), Some(reason.clone()))
        }
    };
    let l = &o.length;
    AnswerView {
        system_name: o.system_name.clone(),
        setup: a.setup.clone(),
        policy_id: o.policy.id.clone(),
        policy_text: o.policy.text.clone(),
        exact,
        states,
        runs,
        seed,
        reason,
        endings: o
            .endings
            .iter()
            .map(|e| EndingView {
                id: e.id.clone(),
                label: e.label.clone(),
                percent: format!("{:.3}%", e.percent),
                fraction: e.fraction.clone(),
                interval: e
                    .interval
                    .map(|(lo, hi)| (format!("{lo:.3}%"), format!("{hi:.3}%"))),
                width: (e.percent.clamp(0.0, 100.0) / 100.0 * BAR_W * 10.0).round() / 10.0,
            })
            .collect(),
        unit_one: l.unit.one.clone(),
        unit_many: l.unit.many.clone(),
        mean: format!("{:.3}", l.mean),
        mean_fraction: l.mean_fraction.clone(),
        median: l.median,
        p90: l.p90,
        called_off: o
            .endings
            .iter()
            .any(|e| e.id == blockprint_chase::LIMIT_ENDING)
            .then(|| l.unit.count(l.limit)),
        rulings: o
            .rulings
            .iter()
            .map(|r| (r.title.clone(), r.ruling.clone(), r.reason.clone()))
            .collect(),
    }
}

/// The systems `chase odds` knows, in its order.
fn systems(odds: &clap::Command) -> Vec<SystemView> {
    odds.get_subcommands()
        .filter(|c| c.get_name() != "help")
        .map(|c| SystemView {
            name: c.get_name().to_owned(),
            about: c.get_about().map(|a| a.to_string()).unwrap_or_default(),
        })
        .collect()
}

/// The form of `system`: its arguments in the command line's order, each with what the query gave.
/// `--policy` lists the system's policies (`policies`: id and text, the first the default).
fn fields(
    cmd: &clap::Command,
    q: &[(String, String)],
    policies: &[(String, String)],
) -> Vec<Field> {
    cmd.get_arguments()
        .filter(|a| !a.is_hide_set() && !NOT_OFFERED.contains(&a.get_id().as_str()))
        .filter_map(|a| {
            let name = a.get_long()?.to_owned();
            let flag = matches!(a.get_action(), clap::ArgAction::SetTrue);
            let view = super::arg_view(a);
            let mut choices: Vec<Choice> = view
                .choices
                .into_iter()
                .filter(|_| !flag)
                .map(|(value, help)| Choice { value, help })
                .collect();
            let mut default = view.default;
            if name == "policy" && !policies.is_empty() {
                choices = policies
                    .iter()
                    .map(|(id, text)| Choice {
                        value: id.clone(),
                        help: text.clone(),
                    })
                    .collect();
                default = policies[0].0.clone();
            }
            let value = q
                .iter()
                .rev()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            let selected = if choices.iter().any(|c| c.value == value) {
                value.clone()
            } else {
                default.clone()
            };
            Some(Field {
                selected,
                label: view.label,
                help: view.help,
                kind: if flag {
                    "flag"
                } else if choices.is_empty() {
                    "text"
                } else {
                    "choice"
                },
                default: if flag { String::new() } else { default },
                choices,
                value,
                name,
            })
        })
        .collect()
}

/// The command line the query stands for: the system, then each option given, in the form's order
/// (every value as `--name=value`, so a value starting with a dash stays a value). An unknown key is
/// refused with the reason.
fn command_line(
    system: &str,
    fields: &[Field],
    q: &[(String, String)],
) -> Result<Vec<String>, String> {
    if let Some((k, _)) = q
        .iter()
        .find(|(k, _)| k != "system" && !fields.iter().any(|f| f.name == *k))
    {
        return Err(format!(
            "error: the Chase page has no option `{k}`; the options of `chase odds {system}` are the form's"
        ));
    }
    let mut args = vec![system.to_owned()];
    for f in fields {
        for (_, v) in q.iter().filter(|(k, _)| *k == f.name) {
            match (f.kind, v.as_str()) {
                ("flag", "on") => args.push(format!("--{}", f.name)),
                ("flag", "") => {}
                (_, "") => {}
                (_, v) => args.push(format!("--{}={v}", f.name)),
            }
        }
    }
    Ok(args)
}

/// `w` as one word of a POSIX shell's command line: as it is when it is plain, otherwise in single quotes.
fn shell_word(w: &str) -> String {
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=.,:/+@%".contains(c))
    {
        w.to_owned()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// What the page shows below the form.
#[derive(Debug, Default, Serialize)]
struct Shown {
    system: Option<String>,
    about: String,
    fields: Vec<Field>,
    answer: Option<AnswerView>,
    error: Option<String>,
    /// The command line that gives the same answer.
    command: Option<String>,
}

fn work_out(app: &App, q: &[(String, String)], cancel: Cancel) -> Shown {
    let odds = odds_command();
    let Some(system) = q
        .iter()
        .find(|(k, _)| k == "system")
        .map(|(_, v)| v.clone())
    else {
        return Shown::default();
    };
    let mut shown = Shown {
        system: Some(system.clone()),
        ..Shown::default()
    };
    let Some(cmd) = odds
        .get_subcommands()
        .find(|c| c.get_name() == system || c.get_all_aliases().any(|a| a == system))
    else {
        shown.error = Some(format!(
            "error: `chase odds` has no system `{system}`; pick one of the systems above"
        ));
        return shown;
    };
    shown.system = Some(cmd.get_name().to_owned());
    shown.about = cmd.get_about().map(|a| a.to_string()).unwrap_or_default();
    let loaded = app.loaded();
    let project = match &loaded.project {
        Ok(p) => p,
        Err(e) => {
            shown.error = Some(format!("the content cannot be read: {e}"));
            return shown;
        }
    };
    let lib = match project.checked(&[]) {
        Ok(cx) => &cx.lib,
        Err(e) => {
            shown.error = Some(e.to_string());
            return shown;
        }
    };
    // The policies are the system's own: read from it built with its defaults.
    let policies: Vec<(String, String)> = parse_odds(&[cmd.get_name().to_owned()])
        .ok()
        .and_then(|(s, _)| s.build(lib).ok())
        .map(|c| {
            c.info()
                .policies
                .into_iter()
                .map(|p| (p.id, p.text))
                .collect()
        })
        .unwrap_or_default();
    shown.fields = fields(cmd, q, &policies);
    let args = match command_line(cmd.get_name(), &shown.fields, q) {
        Ok(a) => a,
        Err(e) => {
            shown.error = Some(e);
            return shown;
        }
    };
    let budget = Budget::with_cancel(cancel);
    let answer = parse_odds(&args).and_then(|(s, options)| {
        chase_odds(&s, &options, lib, &budget).map_err(|e| match e {
            // The option named by its field's long name, as the page's command line spells it.
            Unanswered::Refused(e) => {
                let field = e.option.id().replace('_', "-");
                match shown.fields.iter().find(|f| f.name == field) {
                    Some(f) => format!("error: {}", e.named(&format!("--{}", f.name))),
                    None => format!("error: {e}"),
                }
            }
            // No one reads it: the client has gone.
            Unanswered::Cancelled => e.to_string(),
        })
    });
    match answer {
        Ok(a) => {
            shown.answer = Some(view(&a));
            let words: Vec<String> = args.iter().map(|w| shell_word(w)).collect();
            shown.command = Some(format!("blockprint chase odds {}", words.join(" ")));
        }
        Err(e) => shown.error = Some(e.trim_end().to_owned()),
    }
    shown
}

/// GET /chase?system=bbb&quarry-level=2&policy=swerve: the Chase page.
pub(crate) async fn page(
    State(app): State<Arc<App>>,
    q: Result<Query<Vec<(String, String)>>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let q = match q {
        Ok(Query(q)) => q,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, &e.body_text()),
    };
    // The form alone (no system asked) costs nothing; a question takes a slot for as long as it is
    // worked out, even after its client has gone (until the solver sees the flag).
    let permit = if q.iter().any(|(k, _)| k == "system") {
        match question_slot(&app) {
            Some(p) => Some(p),
            None => return busy(),
        }
    } else {
        None
    };
    let cancel = Cancel::new();
    let _guard = CancelOnDrop(cancel.clone());
    let worker = app.clone();
    let shown = match tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work_out(&worker, &q, cancel)
    })
    .await
    {
        Ok(s) => s,
        Err(e) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    };
    let odds = odds_command();
    app.page(
        "chase.html",
        minijinja::context! {
            current => "chase",
            systems => minijinja::value::Serde(&systems(&odds)),
            shown => minijinja::value::Serde(&shown),
            bar_w => BAR_W,
        },
    )
}
