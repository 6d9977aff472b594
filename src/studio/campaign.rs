//! The Campaign page: open a campaign folder and see where the squad stands (the calendar, each
//! detective's caseload, the closure rates: what `campaign status` writes), and run `week`, `close`,
//! `month`, `year` and `undo` on it. The buttons run the campaign session ([`crate::app::campaign`]) with
//! the studio's open project, as the command line does: the same folder lock, the same replay and
//! refusals, the same packets and the same atomic write of the state file. A refusal is shown in the page
//! as text, with what the command noted.
//!
//! The New campaign form starts one as `blockprint campaign new` does: its fields are that command's
//! options ([`crate::campaign::NewOptions`], the definition the command line flattens: help, defaults,
//! choices), the form's values are read by the same definition, and [`crate::app::campaign::new`] runs
//! with the studio's open project.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use super::{App, refuse};
use crate::app::campaign::{self as session, Folder, Look, NewOptions, Step};
use crate::app::{Event, Sink};

/// Options of `campaign new` the form does not offer: the content, templates and fonts are the studio's
/// own, and the page always shows what was written.
const NOT_OFFERED: [&str; 7] = [
    "content",
    "templates",
    "font_path",
    "quiet",
    "check_pages",
    "color",
    "help",
];

/// One field of the New campaign form: an option (or the folder argument) of `campaign new`.
#[derive(Debug, Serialize)]
struct NewField {
    /// The long name (`detectives`), or the argument's id (`dir`): the key the page posts.
    name: String,
    /// What a GM calls it, from its help: `Squad by name`, `Campaign folder`.
    label: String,
    /// The folder: the one argument that is not an option.
    positional: bool,
    help: String,
    default: String,
    /// The possible values (a select); empty for a text field.
    choices: Vec<String>,
    /// What the field holds.
    value: String,
}

/// The form's fields in the command line's order, each holding what `given` has for it.
fn new_fields(
    cmd: &clap::Command,
    given: &std::collections::BTreeMap<String, String>,
) -> Vec<NewField> {
    cmd.get_arguments()
        .filter(|a| !a.is_hide_set() && !NOT_OFFERED.contains(&a.get_id().as_str()))
        .map(|a| {
            let positional = a.is_positional();
            let name = a
                .get_long()
                .map(str::to_owned)
                .unwrap_or_else(|| a.get_id().to_string());
            let view = super::arg_view(a);
            let label = view.label.clone();
            let (default, choices) = (view.default, view.choices);
            let choices: Vec<String> = choices.into_iter().map(|(name, _)| name).collect();
            let value = given.get(&name).cloned().unwrap_or_default();
            let value = if !choices.is_empty() && !choices.contains(&value) {
                default.clone()
            } else {
                value
            };
            NewField {
                help: view.help,
                name,
                label,
                positional,
                default,
                choices,
                value,
            }
        })
        .collect()
}

/// What the New campaign form shows: `campaign new`'s about line and its fields.
fn new_form(given: &std::collections::BTreeMap<String, String>) -> minijinja::Value {
    let cmd = NewOptions::command();
    minijinja::context! {
        new_about => cmd.get_about().map(|a| a.to_string()).unwrap_or_default(),
        new_fields => minijinja::value::Serde(new_fields(&cmd, given)),
    }
}

/// The words after `blockprint campaign new` the form's values stand for: each option given as
/// `--name=value` (so a value starting with a dash stays a value), in the command line's order, then the
/// folder after `--`. An empty field is left out (its default, or a fresh seed).
fn new_args(fields: &[NewField]) -> Vec<String> {
    let mut args: Vec<String> = fields
        .iter()
        .filter(|f| !f.positional && !f.value.trim().is_empty())
        .map(|f| format!("--{}={}", f.name, f.value.trim()))
        .collect();
    for f in fields.iter().filter(|f| f.positional) {
        if !f.value.trim().is_empty() {
            args.push("--".into());
            args.push(f.value.trim().to_owned());
        }
    }
    args
}

/// GET /campaign?dir=PATH: the page.
#[derive(Debug, Deserialize)]
pub(crate) struct Open {
    #[serde(default)]
    dir: Option<String>,
}

/// POST /campaign/{action}: what the page sends.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Action {
    dir: String,
    /// `close`: the case number.
    #[serde(default)]
    case: Option<String>,
    /// `year`: detectives who strain their tie with the top brass to stay, comma-separated.
    #[serde(default)]
    top_brass: Option<String>,
}

/// What a command said, collected for the page: the lines of what it did, and its notes (the seed it
/// chose, what it wrote, warnings), each a line of text.
#[derive(Default)]
struct Collected {
    out: Vec<String>,
    notes: std::sync::Mutex<Vec<String>>,
    /// The server's log: pages are checked when it asks for it (`serve --check-pages`), and each fault
    /// goes to it as well as to the notes.
    log: Option<Arc<dyn Sink>>,
}

impl Collected {
    /// The notes as one block of text, each line ended.
    fn noted(&self) -> String {
        self.notes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|l| format!("{l}\n"))
            .collect()
    }
}

impl Sink for Collected {
    fn checks_pages(&self) -> bool {
        self.log.as_ref().is_some_and(|l| l.checks_pages())
    }

    fn event(&self, e: Event) {
        if let (Event::PageFault(_), Some(log)) = (&e, &self.log) {
            log.event(e.clone());
        }
        if !matches!(e, Event::Progress { .. }) {
            self.notes
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(e.named(&super::option_name));
        }
    }
}

/// What the status block shows of a folder.
struct Seen {
    /// The folder as given, and as found.
    dir: String,
    shown: String,
    /// The status, when the folder holds a campaign that loads.
    status: Option<crate::campaign::kind::Status>,
    /// Why there is no status.
    problem: Option<String>,
    /// The folder holds no campaign.toml.
    missing: bool,
}

fn shown(dir: &Path) -> String {
    dir.canonicalize()
        .unwrap_or_else(|_| dir.to_owned())
        .display()
        .to_string()
}

/// Read the campaign in `dir` (without its lock: the state file is only ever replaced whole).
fn look(app: &App, dir: &str) -> Seen {
    let path = PathBuf::from(dir);
    let mut seen = Seen {
        dir: dir.to_owned(),
        shown: shown(&path),
        status: None,
        problem: None,
        missing: false,
    };
    let loaded = app.loaded();
    let project = match &loaded.project {
        Ok(p) => p,
        Err(e) if path.join(crate::campaign::STATE_FILE).is_file() => {
            seen.problem = Some(format!("the content or templates cannot be read: {e}"));
            return seen;
        }
        Err(_) => {
            seen.missing = true;
            return seen;
        }
    };
    match session::look(project, &path) {
        Look::Missing => seen.missing = true,
        Look::Status(s) => seen.status = Some(*s),
        Look::Problem(p) => seen.problem = Some(p.named(&super::option_name)),
        Look::SetupChanged(rendered) => {
            let rendered = rendered.named(&super::option_name);
            seen.problem = Some(format!(
                "{}\nThe command line can rewrite the history with the changed setup \
                 (`blockprint campaign status {} --rewrite-history`); the studio does not.",
                rendered.trim_end(),
                seen.shown
            ));
        }
    }
    seen
}

/// The campaign's case packets on disk: the numbers of the cases whose GM file is in `dir`'s packet
/// folder (a campaign writes each case's packet as the case comes in).
fn packets(seen: &Seen) -> Vec<String> {
    let cases = Path::new(&seen.dir).join(crate::campaign::kind::CASES_INFO.folder.as_ref());
    seen.status
        .iter()
        .flat_map(|s| s.detectives.iter())
        .flat_map(|d| d.cases.iter())
        .map(|c| c.number.clone())
        .filter(|n| cases.join(n).join(format!("{n}-gm.pdf")).is_file())
        .collect()
}

fn context(app: &App, seen: &Seen) -> minijinja::Value {
    let open_cases: Vec<(String, String)> = seen
        .status
        .iter()
        .flat_map(|s| s.detectives.iter())
        .flat_map(|d| d.cases.iter().filter(move |c| c.lead == d.name))
        .filter(|c| c.status == "open")
        .map(|c| {
            (
                c.number.clone(),
                format!("{} ({}, lead {})", c.number, c.victim, c.lead),
            )
        })
        .collect();
    let months: Vec<Vec<&crate::campaign::kind::WeekLine>> = seen
        .status
        .as_ref()
        .map(|s| {
            s.calendar
                .chunk_by(|a, b| a.month == b.month)
                .map(|w| w.iter().collect())
                .collect()
        })
        .unwrap_or_default();
    let last_command = seen.status.as_ref().map_or(0, |s| s.commands as u32);
    let last_rolls: Vec<&crate::campaign::kind::RollLine> = seen
        .status
        .iter()
        .flat_map(|s| s.rolls.iter())
        .filter(|r| r.command == last_command)
        .collect();
    minijinja::context! {
        current => "campaign",
        dir => &seen.dir,
        shown => &seen.shown,
        missing => seen.missing,
        problem => &seen.problem,
        status => minijinja::value::Serde(&seen.status),
        months => minijinja::value::Serde(&months),
        open_cases => open_cases,
        last_rolls => minijinja::value::Serde(&last_rolls),
        default_dir => app.campaign.as_ref().map(|d| d.display().to_string()),
        packets => packets(seen),
        packet_base => format!(
            "/campaign/packet?dir={}",
            percent_encoding::utf8_percent_encode(&seen.dir, percent_encoding::NON_ALPHANUMERIC)
        ),
    }
}

/// What GET /campaign/packet asks for: the campaign's folder, a case's number and which part.
#[derive(Deserialize)]
pub(crate) struct PacketQuery {
    dir: String,
    case: String,
    part: String,
}

/// GET /campaign/packet?dir=…&case=1976-01&part=gm|handout: a case's GM file or player handout, from the
/// packet folder of the campaign in `dir` (a folder the Campaign page may open), and nothing else.
pub(crate) async fn packet(State(app): State<Arc<App>>, Query(q): Query<PacketQuery>) -> Response {
    let dir = match app.campaign_dir(&q.dir) {
        Ok(d) => d,
        Err(why) => return refuse(StatusCode::FORBIDDEN, &why),
    };
    if !matches!(q.part.as_str(), "gm" | "handout") {
        return refuse(
            StatusCode::BAD_REQUEST,
            "a packet's part is `gm` (the GM file) or `handout` (the player handout)",
        );
    }
    let number = !q.case.is_empty()
        && q.case
            .split('-')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
    if !number {
        return refuse(
            StatusCode::BAD_REQUEST,
            "a case is named by its number, such as 1976-01",
        );
    }
    let root = PathBuf::from(&dir);
    let cases = root.join(crate::campaign::kind::CASES_INFO.folder.as_ref());
    let found = if root.join(crate::campaign::STATE_FILE).is_file() {
        cases.canonicalize().ok().and_then(|real| {
            super::make::resolve(&real, &format!("{0}/{0}-{1}.pdf", q.case, q.part)).ok()
        })
    } else {
        None
    };
    let Some(path) = found else {
        return refuse(
            StatusCode::NOT_FOUND,
            &format!("the campaign has no packet of case {}", q.case),
        );
    };
    match tokio::fs::read(&path).await {
        Ok(bytes) => super::make::send(&path, bytes, false),
        Err(_) => refuse(StatusCode::NOT_FOUND, "the packet cannot be read"),
    }
}

/// GET /campaign: the page, with the folder asked for (or the one `--campaign` named) opened.
pub(crate) async fn page(State(app): State<Arc<App>>, Query(q): Query<Open>) -> Response {
    let dir = q
        .dir
        .filter(|d| !d.trim().is_empty())
        .or_else(|| app.campaign.as_ref().map(|d| d.display().to_string()));
    let Some(dir) = dir else {
        return app.page(
            "campaign.html",
            minijinja::context! {
                current => "campaign",
                dir => "",
                nothing => true,
                ..new_form(&Default::default())
            },
        );
    };
    let dir = match app.campaign_dir(&dir) {
        Ok(d) => d,
        Err(why) => return refuse(StatusCode::FORBIDDEN, &why),
    };
    let app2 = app.clone();
    let seen = match tokio::task::spawn_blocking(move || look(&app2, &dir)).await {
        Ok(s) => s,
        Err(e) => {
            return refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                &format!("reading the campaign stopped on an internal error: {e}"),
            );
        }
    };
    // A folder with no campaign yet is the one the New form offers to start one in.
    let mut given = std::collections::BTreeMap::new();
    if seen.missing {
        given.insert("dir".to_owned(), seen.dir.clone());
    }
    let ctx = minijinja::context! { ..context(&app, &seen), ..new_form(&given) };
    app.page("campaign.html", ctx)
}

/// Run a campaign command `f` on a blocking thread with the studio's open project and a
/// sink for its lines; then the folder `dir` as it now stands, what the command said and how it ended.
/// A command types packets, so it takes one of the
/// make slots and the studio's bound on work at once holds: with none free, or on an internal error
/// (`what` names the work), the answer is the refusal to send.
async fn on_project(
    app: &Arc<App>,
    what: &'static str,
    dir: String,
    f: impl FnOnce(&crate::project::Project, &Collected) -> crate::error::Result<Vec<String>>
    + Send
    + 'static,
) -> Result<(Seen, Collected, crate::error::Result<()>), Response> {
    let Some(permit) = app.jobs.try_slot() else {
        return Err(refuse(
            StatusCode::TOO_MANY_REQUESTS,
            "the studio is busy with as many makes as it runs at once; try again when one has finished",
        ));
    };
    let run = app.clone();
    let ran = tokio::task::spawn_blocking(move || {
        let mut said = Collected {
            log: Some(run.log.clone()),
            ..Collected::default()
        };
        let loaded = run.loaded();
        let r = match &loaded.project {
            Ok(project) => f(project, &said),
            Err(e) => Err(crate::front_error::FrontError::Unreadable { message: e.clone() }.into()),
        };
        let r = r.map(|lines| said.out = lines);
        drop(permit);
        (look(&run, &dir), said, r)
    })
    .await;
    ran.map_err(|e| {
        refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            &format!("{what} stopped on an internal error: {e}"),
        )
    })
}

/// POST /campaign/new: start a campaign as `blockprint campaign new` does, from the New form's fields
/// (`{"dir": …, "year": …, "seed": …, …}`, the options' long names). Answers with the new campaign's
/// status block (200), or with the form again, the command line's refusal under it (409: nothing was
/// written).
pub(crate) async fn new(
    State(app): State<Arc<App>>,
    body: Result<
        Json<std::collections::BTreeMap<String, String>>,
        axum::extract::rejection::JsonRejection,
    >,
) -> Response {
    let mut given = match super::json_body(body, "a new campaign") {
        Ok(given) => given,
        Err(refused) => return refused,
    };
    // Beyond loopback the folder is one inside the campaigns' root (a name on the page is taken from it).
    if let Some(d) = given.get_mut("dir")
        && !d.trim().is_empty()
    {
        match app.campaign_dir(d) {
            Ok(inside) => *d = inside,
            Err(why) => return refuse(StatusCode::FORBIDDEN, &why),
        }
    }
    let cmd = NewOptions::command();
    let fields = new_fields(&cmd, &given);
    if let Some(k) = given.keys().find(|k| !fields.iter().any(|f| f.name == **k)) {
        return refuse(
            StatusCode::BAD_REQUEST,
            &format!(
                "the New campaign form has no field `{k}`; its fields are the options of `campaign new`"
            ),
        );
    }
    let refused_form = |text: String| {
        let ctx = minijinja::context! {
            new_open => true,
            new_refused => text,
            ..new_form(&given)
        };
        let mut res = app.page("campaign-new.html", ctx);
        if res.status() == StatusCode::OK {
            *res.status_mut() = StatusCode::CONFLICT;
        }
        res
    };
    // The options' own parser reads the values, as the command line's does: a bad year or seed, a
    // missing folder or squad is refused in its words.
    let options = match NewOptions::parse(&new_args(&fields)) {
        Ok(o) => o,
        Err(text) => return refused_form(text.trim_end().to_owned()),
    };
    let dir = options.dir.display().to_string();
    let ran = on_project(&app, "starting the campaign", dir, move |project, said| {
        session::new(project, &options, false, said)
    })
    .await;
    let (seen, said) = match ran {
        Ok((seen, said, Ok(()))) => (seen, said),
        Ok((_, said, Err(e))) => {
            return refused_form(
                format!("{}{}", said.noted(), super::shown(&e))
                    .trim_end()
                    .to_owned(),
            );
        }
        Err(refused) => return refused,
    };
    let noted = said.noted();
    let ctx = minijinja::context! {
        action => "new",
        said => said.out,
        noted => noted.lines().map(str::to_owned).collect::<Vec<_>>(),
        ..context(&app, &seen)
    };
    app.page("campaign-status.html", ctx)
}

/// A campaign refusal as the page says it: each command it names (`` `blockprint campaign month DIR` ``)
/// becomes the page's button for it ("the Month button"); `new` is the New campaign form.
pub(crate) fn for_the_page(text: &str) -> String {
    const AT: &str = "`blockprint campaign ";
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(AT) {
        let Some(len) = rest[at + 1..].find('`') else {
            break;
        };
        let command = &rest[at + AT.len()..at + 1 + len];
        let word = command.split_whitespace().next().unwrap_or_default();
        let button = match word {
            "week" => Some("the Week button"),
            "close" => Some("the Close button"),
            "month" => Some("the Month button"),
            "year" => Some("the Year button"),
            "undo" => Some("the Undo button"),
            "new" => Some("the New campaign form"),
            _ => None,
        };
        out.push_str(&rest[..at]);
        match button {
            Some(b) => out.push_str(b),
            None => out.push_str(&rest[at..at + 2 + len]),
        }
        rest = &rest[at + 2 + len..];
    }
    out.push_str(rest);
    out
}

/// POST /campaign/{action}: run `week`, `close`, `month`, `year` or `undo` on the folder, as the command
/// line does; answer with the status block as it now stands (200), or with the refusal above the status
/// as it stood (409).
pub(crate) async fn act(
    State(app): State<Arc<App>>,
    UrlPath(action): UrlPath<String>,
    body: Result<Json<Action>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let req = match super::json_body(body, "a campaign command") {
        Ok(req) => req,
        Err(refused) => return refused,
    };
    let step = match action.as_str() {
        "week" => Some(Step::Week),
        "month" => Some(Step::Month),
        "close" => match req.case.as_deref().map(str::trim) {
            Some(c) if !c.is_empty() => Some(Step::Close { case: c.to_owned() }),
            _ => {
                return refuse(
                    StatusCode::BAD_REQUEST,
                    "close needs the number of the case closed (e.g. 1976-07)",
                );
            }
        },
        "year" => Some(Step::Year {
            top_brass: req
                .top_brass
                .as_deref()
                .unwrap_or_default()
                .split(',')
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect(),
        }),
        "undo" => None,
        other => {
            return refuse(
                StatusCode::NOT_FOUND,
                &format!(
                    "there is no campaign command `{other}` here; the page runs week, close, month, year and undo"
                ),
            );
        }
    };
    if req.dir.trim().is_empty() {
        return refuse(
            StatusCode::BAD_REQUEST,
            "give the campaign folder (the one holding campaign.toml)",
        );
    }
    let dir = match app.campaign_dir(&req.dir) {
        Ok(d) => d,
        Err(why) => return refuse(StatusCode::FORBIDDEN, &why),
    };
    let folder = Folder {
        quiet: true,
        ..Folder::new(&dir)
    };
    let ran = on_project(
        &app,
        "the campaign command",
        dir,
        move |project, said| match step {
            Some(s) => session::step(project, &folder, s, said),
            None => session::undo(project, &folder, said),
        },
    )
    .await;
    let (seen, said, refused) = match ran {
        Ok((seen, said, r)) => {
            let refused = r
                .err()
                .map(|e| for_the_page(&format!("{}{}", said.noted(), super::shown(&e))));
            (seen, said.out, refused)
        }
        Err(refused) => return refused,
    };
    let code = if refused.is_some() {
        StatusCode::CONFLICT
    } else {
        StatusCode::OK
    };
    let ctx = minijinja::context! {
        action => action,
        said => said,
        refused => refused,
        ..context(&app, &seen)
    };
    let mut res = app.page("campaign-status.html", ctx);
    if res.status() == StatusCode::OK {
        *res.status_mut() = code;
    }
    res.into_response()
}
