//! The Make page: every registered kind with an options form built from its JSON Schema; a make runs
//! in-process on the project's one engine, reports its progress as server-sent events, and leaves page
//! previews (PNG through typst-render), its files and a zip of its folder. Each make writes into a folder
//! of its own under the output folder, `<n>-<kind>`.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use axum::Json;
use axum::extract::{Path as UrlPath, Request, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{App, refuse};
use crate::error::{Bug, Error, Result};
use crate::front_error::FrontError;
use crate::project::{Batch, Output};
use crate::render::{Format, Paper};

/// The most items one make may ask for.
pub const MAX_COUNT: u32 = 1000;
/// Pages of the first document shown as previews.
pub const MAX_PREVIEWS: usize = 12;
/// Preview resolution: an A4 page 910 pixels wide, readable on screen.
const PREVIEW_DPI: f64 = 110.0;

/// The makes of this run.
pub(crate) struct Jobs {
    max: usize,
    slots: Arc<tokio::sync::Semaphore>,
    list: Mutex<BTreeMap<u32, Arc<Job>>>,
    /// Guards choosing a new folder number.
    next: AtomicU32,
}

impl Jobs {
    pub(crate) fn new(max: usize) -> Self {
        Jobs {
            max,
            slots: Arc::new(tokio::sync::Semaphore::new(max)),
            list: Mutex::new(BTreeMap::new()),
            next: AtomicU32::new(0),
        }
    }

    /// Makes running now.
    pub(crate) fn running(&self) -> usize {
        self.max - self.slots.available_permits()
    }

    /// A slot for work that typesets outside a make (a campaign command), if one is free.
    pub(crate) fn try_slot(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        self.slots.clone().try_acquire_owned().ok()
    }

    /// Wait until no make runs.
    pub(crate) async fn wait_all(&self) {
        let n = u32::try_from(self.max).unwrap_or(u32::MAX);
        let _ = self.slots.acquire_many(n).await;
    }

    fn get(&self, id: u32) -> Option<Arc<Job>> {
        self.list.lock().ok()?.get(&id).cloned()
    }

    fn all(&self) -> Vec<Arc<Job>> {
        self.list
            .lock()
            .map(|l| l.values().rev().cloned().collect())
            .unwrap_or_default()
    }
}

/// One make.
pub(crate) struct Job {
    id: u32,
    kind: String,
    /// What a GM calls the kind (`Case packets`).
    title: String,
    /// Its folder under the output folder.
    folder: String,
    seed: Option<u64>,
    count: u32,
    /// The options it was made with (author mode typesets its preview again with them).
    options: Value,
    paper_size: Paper,
    state: tokio::sync::watch::Sender<Progress>,
    made: Mutex<Made>,
    /// What the make warned about (a table an export leaves out, a character no font has, a page
    /// fault): shown in its page.
    warnings: Mutex<Vec<String>>,
}

/// A make's sink: its warnings and page faults go to its page; its notes (seeds, "wrote …") are the
/// page's facts already, and progress is counted from the files written. Pages are checked when the
/// server's log asks for it (`serve --check-pages`), and each fault goes to the log as well.
struct JobSink<'a> {
    job: &'a Job,
    log: &'a dyn crate::app::Sink,
}

impl crate::app::Sink for JobSink<'_> {
    fn checks_pages(&self) -> bool {
        self.log.checks_pages()
    }

    fn event(&self, e: crate::app::Event) {
        use crate::app::Event;
        if let Event::PageFault(_) = &e {
            self.log.event(e.clone());
        }
        let warning = match e {
            Event::Warning(t) | Event::Failed(t) | Event::PageFault(t) => t,
            Event::OptionNote {
                warning: true,
                line,
            } => line.named(&super::option_name),
            _ => return,
        };
        if let Ok(mut w) = self.job.warnings.lock()
            && !w.contains(&warning)
        {
            w.push(warning);
        }
    }
}

/// Where a make is, as the events report it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Progress {
    /// `queued`, `typesetting`, `previews`, `done` or `failed`.
    phase: &'static str,
    /// Documents written so far, of `total`.
    done: usize,
    total: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// A failed make's stable error code (`docs/errors.md`), for whoever reads the events as data.
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'static str>,
}

/// A PNG file's bytes.
type Png = Vec<u8>;
/// Each preview's PNG, with the hash of the page it was drawn from.
type Previews = Vec<(u128, Png)>;

#[derive(Default)]
struct Made {
    /// Each preview's PNG, with the hash of the page it was drawn from.
    previews: Previews,
    /// Pages of the previewed document.
    pages: usize,
    /// Where each page of the previewed document is: its PDF (relative to the output folder) and
    /// its page there.
    links: Vec<(String, usize)>,
    /// How often author mode typeset the preview again.
    version: u64,
    /// Why the last attempt to typeset it again failed.
    error: Option<String>,
    /// The make's PDFs as one file to print.
    print: Option<PrintView>,
}

/// What the page offers to print a make at once: the print file of its PDFs (or its one PDF).
#[derive(Clone, Serialize)]
struct PrintView {
    href: String,
    /// How many documents it holds.
    documents: usize,
    /// Its pages, blanks for duplex included (0 when it is a document's own PDF).
    pages: usize,
}

impl Job {
    fn set(&self, f: impl FnOnce(&mut Progress)) {
        self.state.send_modify(f);
    }
}

/// What the page sends to make something.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MakeRequest {
    kind: String,
    #[serde(default)]
    options: Value,
    #[serde(default = "one")]
    count: u32,
    /// Any JSON value, so that a seed too big for a number is refused in words, not by the JSON reader.
    #[serde(default)]
    seed: Option<Value>,
    #[serde(default)]
    paper: Option<String>,
}

fn one() -> u32 {
    1
}

/// One input of an options form.
#[derive(Debug, Serialize)]
pub(crate) struct Field {
    /// The option's place in the options JSON, dotted: `layout.card_size`.
    path: String,
    /// The option's name in words (its schema's `title`), else its key with spaces.
    label: String,
    help: String,
    /// `checkbox`, `select`, `multi` (a list chosen from choices), `number`, `list`, `text`, `folder` (a
    /// checkbox that writes into a folder of the make's own) or `group` (a nested object, with `children`).
    input: &'static str,
    choices: Vec<(String, String)>,
    /// What a blank choice means (`Any class, rolled`), for an option that may be left out.
    none: String,
    /// Values offered as the field is typed (a card size's names).
    suggest: Vec<String>,
    /// One valid value, shown as an example (and the value a test fills in).
    example: String,
    value: String,
    checked: bool,
    nullable: bool,
    /// For a `list`: whether its items are numbers.
    numbers: bool,
    /// For a `number`: its bounds, if the schema gives them.
    min: Option<i64>,
    max: Option<i64>,
    /// The paths of the options this one cannot be given with (the command line's conflicts).
    conflicts: Vec<String>,
    children: Vec<Field>,
}

/// What a form needs beyond the schema: the content's choices (`x-choices` names a list: `classes`,
/// `decks`, `tables-and-decks`, `games`) and the options each option conflicts with.
pub(crate) struct FormFacts<'a> {
    pub lib: &'a crate::content::Library,
    /// Option key → the keys it conflicts with, both ways.
    pub conflicts: BTreeMap<String, Vec<String>>,
}

/// The choices a content list offers a form, each a value and its words.
pub(crate) fn content_choices(lib: &crate::content::Library, list: &str) -> Vec<(String, String)> {
    match list {
        "classes" => crate::roll::detective::classes(lib)
            .map(|c| {
                c.entries
                    .iter()
                    .map(|e| (e.key.value.to_lowercase(), e.key.value.clone()))
                    .collect()
            })
            .unwrap_or_default(),
        "decks" => lib
            .decks
            .iter()
            .map(|d| (d.id.value.clone(), d.title.clone()))
            .collect(),
        "tables-and-decks" => lib
            .tables
            .iter()
            .map(|t| (t.id.value.clone(), t.title.clone()))
            .chain(
                lib.decks
                    .iter()
                    .map(|d| (d.id.value.clone(), format!("{} (deck)", d.title))),
            )
            .collect(),
        "games" => vec![("bbb".to_owned(), "Block by Block".to_owned())],
        _ => Vec::new(),
    }
}

/// The facts of one kind's form.
fn facts<'a>(
    project: &'a crate::project::Project,
    def: &dyn crate::generators::KindDef,
) -> FormFacts<'a> {
    FormFacts {
        lib: project.lib(),
        conflicts: conflicts(def),
    }
}

/// Every option key a kind's flags conflict with, both ways (clap declares each conflict on one side).
pub(crate) fn conflicts(def: &dyn crate::generators::KindDef) -> BTreeMap<String, Vec<String>> {
    let mut cmd = def.args(clap::Command::new("form").no_binary_name(true));
    cmd.build();
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for a in cmd.get_arguments() {
        for c in cmd.get_arg_conflicts_with(a) {
            for (x, y) in [(a.get_id(), c.get_id()), (c.get_id(), a.get_id())] {
                let list = out.entry(x.to_string()).or_default();
                if !list.iter().any(|k| k == y.as_str()) {
                    list.push(y.to_string());
                }
            }
        }
    }
    for list in out.values_mut() {
        list.sort();
    }
    out
}

/// The schema a `$ref` points at (`#/$defs/Name`), or the schema itself.
fn deref<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.rsplit('/').next().unwrap_or_default();
        return root
            .get("$defs")
            .and_then(|d| d.get(name))
            .unwrap_or(&Value::Null);
    }
    // `Option<Enum>`: anyOf [{ "$ref" }, { "type": "null" }].
    if let Some(any) = schema.get("anyOf").and_then(Value::as_array)
        && let Some(r) = any.iter().find(|s| s.get("$ref").is_some())
    {
        return deref(root, r);
    }
    schema
}

fn types(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    match schema.get("type") {
        Some(Value::String(t)) => out.push(t.clone()),
        Some(Value::Array(ts)) => {
            out.extend(ts.iter().filter_map(|t| t.as_str().map(str::to_owned)))
        }
        _ => {}
    }
    if let Some(any) = schema.get("anyOf").and_then(Value::as_array) {
        for s in any {
            out.extend(types(s));
        }
    }
    out
}

/// A value as a form field shows it.
fn shown(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(shown).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// The form of an options schema, each input holding its default.
pub(crate) fn fields(
    root: &Value,
    schema: &Value,
    defaults: &Value,
    prefix: &str,
    facts: &FormFacts,
) -> Vec<Field> {
    let schema = deref(root, schema);
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (k, v) in props {
        let path = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        let target = deref(root, v);
        let default = defaults.get(k).unwrap_or(&Value::Null);
        let text = |key: &str| {
            v.get(key)
                .or_else(|| target.get(key))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let help = text("description");
        // A `$ref`'s target is titled with its type's name (`LayoutOptions`): only the property's own
        // title is words.
        let label = v
            .get("title")
            .and_then(Value::as_str)
            .map_or_else(|| k.replace('_', " "), str::to_owned);
        let mut field = Field {
            path: path.clone(),
            label,
            help,
            input: "text",
            choices: Vec::new(),
            none: text("x-none"),
            suggest: v
                .get("x-suggest")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default(),
            example: v
                .get("examples")
                .and_then(Value::as_array)
                .and_then(|a| a.first())
                .map(shown)
                .unwrap_or_default(),
            value: shown(default),
            checked: default.as_bool() == Some(true),
            nullable: false,
            numbers: false,
            min: v
                .get("minimum")
                .or_else(|| target.get("minimum"))
                .and_then(Value::as_i64),
            max: v
                .get("maximum")
                .or_else(|| target.get("maximum"))
                .and_then(Value::as_i64),
            conflicts: facts
                .conflicts
                .get(k.as_str())
                .map(|c| {
                    c.iter()
                        .map(|c| {
                            if prefix.is_empty() {
                                c.clone()
                            } else {
                                format!("{prefix}.{c}")
                            }
                        })
                        .collect()
                })
                .unwrap_or_default(),
            children: Vec::new(),
        };
        let mut ts = types(v);
        ts.extend(types(target));
        field.nullable = ts.iter().any(|t| t == "null");
        let listed = v.get("x-choices").and_then(Value::as_str);
        if target.get("properties").is_some() {
            field.input = "group";
            field.children = fields(root, target, default, &path, facts);
        } else if v.get("x-output-folder").is_some() {
            field.input = "folder";
        } else if let Some(list) = listed {
            field.choices = content_choices(facts.lib, list);
            field.input = if ts.iter().any(|t| t == "array") {
                "multi"
            } else {
                "select"
            };
        } else if let Some(consts) = target.get("oneOf").and_then(Value::as_array) {
            field.input = "select";
            field.choices = consts
                .iter()
                .filter_map(|c| {
                    let value = c.get("const").and_then(Value::as_str)?;
                    let about = c
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or(value);
                    Some((value.to_owned(), about.to_owned()))
                })
                .collect();
        } else if let Some(values) = target.get("enum").and_then(Value::as_array) {
            field.input = "select";
            field.choices = values
                .iter()
                .filter_map(Value::as_str)
                .map(|s| (s.to_owned(), s.to_owned()))
                .collect();
        } else if ts.iter().any(|t| t == "boolean") {
            field.input = "checkbox";
        } else if ts.iter().any(|t| t == "integer" || t == "number") {
            field.input = "number";
        } else if ts.iter().any(|t| t == "array") {
            field.input = "list";
            let items = deref(root, v.get("items").unwrap_or(&Value::Null));
            field.numbers = types(items).iter().any(|t| t == "integer" || t == "number");
        }
        out.push(field);
    }
    out
}

#[derive(Serialize)]
struct KindView {
    name: String,
    /// What a GM calls it (`Case packets`).
    title: String,
    about: String,
    formats: String,
    /// Each paper the kind prints on, its name and its words; empty for a kind that makes no PDF.
    papers: Vec<(String, String)>,
    rolls: bool,
    fields: Vec<Field>,
}

#[derive(Serialize)]
struct JobView {
    id: u32,
    kind: String,
    folder: String,
    phase: &'static str,
    done: usize,
    total: usize,
    error: Option<String>,
    seed: Option<u64>,
    count: u32,
    paper: String,
    previews: Vec<Preview>,
    pages: usize,
    files: Vec<FileView>,
    preview_error: Option<String>,
    /// What the make warned about.
    warnings: Vec<String>,
    /// The make's PDFs as one file to print, once it is done.
    print: Option<PrintView>,
}

#[derive(Serialize)]
struct Preview {
    src: String,
    pdf: Option<String>,
    page: usize,
}

#[derive(Serialize)]
struct FileView {
    name: String,
    href: String,
    size: u64,
}

/// GET /: the Make page.
pub(crate) async fn page(State(app): State<Arc<App>>) -> Response {
    let loaded = app.loaded();
    let (kinds, problem, diagnostics) = match &loaded.project {
        Ok(project) => {
            let mut kinds = Vec::new();
            for def in project.registry().defs() {
                let info = def.info();
                let schema = def.schema();
                let defaults = def.defaults().unwrap_or(Value::Null);
                kinds.push(KindView {
                    name: info.name.to_string(),
                    title: info.title.to_string(),
                    about: info.about.to_string(),
                    formats: in_words(&info.formats),
                    papers: if info.formats.contains(&Format::Pdf) {
                        info.papers
                            .iter()
                            .map(|p| (p.name().to_owned(), p.words().to_owned()))
                            .collect()
                    } else {
                        Vec::new()
                    },
                    rolls: def.rolls(),
                    fields: fields(&schema, &schema, &defaults, "", &facts(project, def)),
                });
            }
            (kinds, None, Some(super::diagnostics(project)))
        }
        Err(e) => (Vec::new(), Some(e.clone()), None),
    };
    let jobs: Vec<JobView> = app
        .jobs
        .all()
        .iter()
        .map(|j| view(&app, j, false))
        .collect();
    app.page(
        "make.html",
        minijinja::context! {
            current => "make",
            kinds => minijinja::value::Serde(&kinds),
            problem,
            diagnostics => minijinja::value::Serde(&diagnostics),
            jobs => minijinja::value::Serde(&jobs),
            out => app.out.display().to_string(),
            max_count => MAX_COUNT,
            watching => [&app.content, &app.templates]
                .into_iter()
                .flatten()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(" and "),
        },
    )
}

/// Formats as a reader names them, in a list: `PDF, Markdown and JSON`.
fn in_words(formats: &[Format]) -> String {
    let words: Vec<&str> = formats.iter().map(|f| f.words()).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => (*last).to_owned(),
        None => String::new(),
    }
}

fn view(app: &App, job: &Job, files: bool) -> JobView {
    let p = job.state.borrow().clone();
    let made = job.made.lock();
    let (previews, pages, links, version, preview_error) = match &made {
        Ok(m) => (
            m.previews.len(),
            m.pages,
            m.links.clone(),
            m.version,
            m.error.clone(),
        ),
        Err(_) => (0, 0, Vec::new(), 0, None),
    };
    let print = made.as_ref().ok().and_then(|m| m.print.clone());
    drop(made);
    JobView {
        id: job.id,
        kind: job.title.clone(),
        folder: job.folder.clone(),
        phase: p.phase,
        done: p.done,
        total: p.total,
        error: p.error,
        seed: job.seed,
        count: job.count,
        paper: job.paper_size.words().to_owned(),
        previews: (0..previews)
            .map(|i| Preview {
                src: format!("/jobs/{}/preview/{}?v={version}", job.id, i + 1),
                pdf: links.get(i).map(|(p, n)| format!("{}#page={n}", href(p))),
                page: i + 1,
            })
            .collect(),
        pages,
        files: if files && p.phase == "done" {
            list(&app.out, &job.folder)
        } else {
            Vec::new()
        },
        preview_error,
        warnings: job.warnings.lock().map(|w| w.clone()).unwrap_or_default(),
        print,
    }
}

/// `p` relative to `base`, its parts joined by `/` (as the page's links and the zip name them), or
/// `None` when `p` is not under `base`.
fn slashed(base: &Path, p: &Path) -> Option<String> {
    let parts: Vec<String> = p
        .strip_prefix(base)
        .ok()?
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

/// `/files/…` for a path relative to the output folder, each part percent-encoded.
fn href(rel: &str) -> String {
    let parts: Vec<String> = rel
        .split('/')
        .map(|p| percent_encoding::utf8_percent_encode(p, SEGMENT).to_string())
        .collect();
    format!("/files/{}", parts.join("/"))
}

/// What a path segment keeps as it is: letters, digits and `-._~`.
const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Every file a make wrote, relative to the output folder, in order.
fn list(out: &Path, folder: &str) -> Vec<FileView> {
    let mut found = Vec::new();
    walk(&out.join(folder), &mut found);
    found.sort();
    found
        .into_iter()
        .filter_map(|p| {
            let rel = slashed(out, &p)?;
            let size = std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0);
            Some(FileView {
                // Without the make's own folder.
                name: rel
                    .split_once('/')
                    .map_or(rel.as_str(), |(_, r)| r)
                    .to_owned(),
                href: href(&rel),
                size,
            })
        })
        .collect()
}

/// Files under `dir`, hidden ones (locks, journals) left out; symbolic links are not followed.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        if e.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let Ok(t) = e.file_type() else { continue };
        if t.is_dir() {
            walk(&e.path(), out);
        } else if t.is_file() {
            out.push(e.path());
        }
    }
}

/// POST /make: start a make; answers `{"job": N}` at once, or why it cannot start.
pub(crate) async fn start(
    State(app): State<Arc<App>>,
    body: std::result::Result<Json<MakeRequest>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let req = match super::json_body(body, "a make") {
        Ok(req) => req,
        Err(refused) => return refused,
    };
    if !(1..=MAX_COUNT).contains(&req.count) {
        return refuse(
            StatusCode::BAD_REQUEST,
            &format!("count {}: make 1 to {MAX_COUNT} at a time", req.count),
        );
    }
    let seed = match req.seed.as_ref().map(seed_of).transpose() {
        Ok(s) => s,
        Err(why) => return refuse(StatusCode::BAD_REQUEST, &why),
    };
    let paper = match req.paper.as_deref() {
        None | Some("") => Paper::A4,
        Some(p) => match <Paper as clap::ValueEnum>::from_str(p, true) {
            Ok(p) => p,
            Err(_) => return refuse(StatusCode::BAD_REQUEST, &format!("there is no paper `{p}`")),
        },
    };
    let loaded = app.loaded();
    let (rolls, schema, title) = match &loaded.project {
        Ok(p) => match p.registry().def(&req.kind) {
            Some(d) => (d.rolls(), d.schema(), d.info().title.to_string()),
            None => {
                return refuse(
                    StatusCode::NOT_FOUND,
                    &format!("there is no document kind `{}`", req.kind),
                );
            }
        },
        Err(e) => {
            return refuse(
                StatusCode::CONFLICT,
                &format!("the content or templates cannot be read: {e}"),
            );
        }
    };
    if let Err(e) = confine(&schema, &req.options, &app.out, "") {
        return refuse(StatusCode::BAD_REQUEST, &super::shown(&e));
    }
    let Ok(permit) = app.jobs.slots.clone().try_acquire_owned() else {
        return refuse(
            StatusCode::TOO_MANY_REQUESTS,
            &format!(
                "{} makes are running already, the most at once; wait for one to finish",
                app.jobs.max
            ),
        );
    };
    let seed = rolls.then(|| seed.unwrap_or_else(crate::roll::fresh_seed));
    let job = match new_job(&app, &req, &title, seed, paper, &schema) {
        Ok(j) => j,
        Err(e) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    };
    let id = job.id;
    let run_app = app.clone();
    let run_job = job.clone();
    tokio::spawn(async move {
        let j = run_job.clone();
        let ran = tokio::task::spawn_blocking(move || {
            let r = make(&run_app, &run_job, &req, paper);
            drop(permit);
            r
        })
        .await;
        let failed = match ran {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some((super::shown(&e), e.code())),
            Err(e) => Some((
                format!("the make stopped on an internal error: {e}"),
                "bug-panicked",
            )),
        };
        j.set(|p| match failed {
            Some(e) => {
                p.phase = "failed";
                p.error = Some(e.0);
                p.code = Some(e.1);
            }
            None => p.phase = "done",
        });
    });
    (StatusCode::ACCEPTED, Json(serde_json::json!({ "job": id }))).into_response()
}

/// A seed as the page sends it (a number, or its digits as text), or why it is not one, in words.
fn seed_of(v: &Value) -> std::result::Result<u64, String> {
    let max = crate::roll::case::MAX_SEED;
    let text = match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.trim().to_owned(),
        _ => String::new(),
    };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "the seed `{}` is not a whole number: give one from 0 to {max}, such as 42",
            crate::dice::caret::escaped(&text)
        ));
    }
    match text.parse::<u64>() {
        Ok(s) if s <= max => Ok(s),
        _ => Err(format!(
            "the seed {text} is too big: a seed is a whole number from 0 to {max}"
        )),
    }
}

/// A kind's name as a folder name: letters, digits, `-` and `_`, anything else `_`.
fn safe_name(kind: &str) -> String {
    kind.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn new_job(
    app: &App,
    req: &MakeRequest,
    title: &str,
    seed: Option<u64>,
    paper: Paper,
    schema: &Value,
) -> Result<Arc<Job>> {
    let mut list = app.jobs.list.lock().map_err(|_| Bug::Panicked {
        what: "a thread holding the studio's job list",
    })?;
    // The next number free in the output folder, so a new make never writes into an old one's folder,
    // nor into the folder another studio on the same output folder has just taken: the folder is made
    // here, and a number taken since the last look is skipped.
    let taken = |out: &Path| -> u32 {
        std::fs::read_dir(out)
            .map(|es| {
                es.flatten()
                    .filter_map(|e| {
                        let n = e.file_name().to_string_lossy().into_owned();
                        n.split_once('-').and_then(|(a, _)| a.parse::<u32>().ok())
                    })
                    .max()
                    .unwrap_or(0)
            })
            .unwrap_or(0)
    };
    std::fs::create_dir_all(&app.out).map_err(|source| Error::Io {
        path: app.out.clone(),
        source,
    })?;
    let mut id = app
        .jobs
        .next
        .load(Ordering::Relaxed)
        .max(taken(&app.out) + 1);
    let safe = safe_name(&req.kind);
    // Another make of the same number (a folder `5-srd` beside this `5-case`) is another studio's: the
    // name that sorts later steps aside, so two studios never share a number.
    let rival = |out: &Path, id: u32, mine: &str| {
        std::fs::read_dir(out).is_ok_and(|es| {
            es.flatten().any(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.split_once('-').is_some_and(|(a, _)| a == id.to_string()) && n.as_str() < mine
            })
        })
    };
    loop {
        let name = format!("{id}-{safe}");
        match std::fs::create_dir(app.out.join(&name)) {
            Ok(()) if !rival(&app.out, id, &name) => break,
            Ok(()) => {
                let _ = std::fs::remove_dir(app.out.join(&name));
                id += 1;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => id += 1,
            Err(source) => {
                return Err(Error::Io {
                    path: app.out.join(name),
                    source,
                });
            }
        }
    }
    app.jobs.next.store(id + 1, Ordering::Relaxed);
    let job = Arc::new(Job {
        id,
        kind: req.kind.clone(),
        title: title.to_owned(),
        folder: format!("{id}-{safe}"),
        seed,
        count: req.count,
        options: confine(
            schema,
            &req.options,
            &app.out.join(format!("{id}-{safe}")),
            "",
        )?,
        paper_size: paper,
        state: tokio::sync::watch::Sender::new(Progress {
            phase: "queued",
            done: 0,
            total: req.count as usize,
            error: None,
            code: None,
        }),
        made: Mutex::new(Made::default()),
        warnings: Mutex::new(Vec::new()),
    });
    list.insert(id, job.clone());
    Ok(job)
}

/// The options with every folder option (`x-output-folder` in the schema: where the card kinds write
/// their PNGs) turned from the page's yes or no into a folder inside the make's own: the page never names
/// a place on the machine, and a request that does is refused.
fn confine(root: &Value, options: &Value, folder: &Path, prefix: &str) -> Result<Value> {
    confine_at(root, root, options, folder, prefix)
}

fn confine_at(
    root: &Value,
    schema: &Value,
    options: &Value,
    folder: &Path,
    prefix: &str,
) -> Result<Value> {
    let schema = deref(root, schema);
    let (Some(props), Value::Object(given)) =
        (schema.get("properties").and_then(Value::as_object), options)
    else {
        return Ok(options.clone());
    };
    let mut out = given.clone();
    for (k, v) in props {
        let Some(value) = given.get(k) else { continue };
        let path = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        if let Some(name) = v.get("x-output-folder").and_then(Value::as_str) {
            let confined = match value {
                Value::Bool(true) => Value::String(folder.join(name).display().to_string()),
                Value::Bool(false) | Value::Null => Value::Null,
                _ => {
                    return Err(FrontError::YesOrNo { option: path }.into());
                }
            };
            out.insert(k.clone(), confined);
        } else if deref(root, v).get("properties").is_some() {
            out.insert(k.clone(), confine_at(root, v, value, folder, &path)?);
        }
    }
    Ok(Value::Object(out))
}

/// Run one make (on a blocking thread): the kind's files, then the previews of its first document.
fn make(app: &App, job: &Job, req: &MakeRequest, paper: Paper) -> Result<()> {
    let loaded = app.loaded();
    let project = loaded
        .project
        .as_ref()
        .map_err(|e| FrontError::Unreadable { message: e.clone() })?;
    let def = project.def(&req.kind)?;
    let cx = project.checked(&[def.base()])?;
    let options = &job.options;
    let kind = def.configure(cx, options)?;
    let batch = Batch {
        seed: Some(job.seed.unwrap_or(0)),
        count: req.count,
        ..Batch::default()
    };
    let mut output = Output::new(app.out.join(&job.folder));
    output.paper = paper;
    output.quiet = true;
    output.command = format!("blockprint serve (make {})", req.kind);
    let request = project.request(kind.as_ref(), &batch, &output, &crate::app::Silent)?;
    let total = kind.count(cx, &request)?;
    job.set(|p| {
        p.phase = "typesetting";
        p.total = total;
    });
    // Progress: the documents written so far, counted in the kind's folder while the driver works.
    let counted = if kind.formats().contains(&Format::Pdf) {
        "pdf"
    } else {
        "json"
    };
    let dir = output.out.join(kind.folder());
    let finished = std::sync::atomic::AtomicBool::new(false);
    let made = std::thread::scope(|s| {
        s.spawn(|| {
            while !finished.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(150));
                let mut files = Vec::new();
                walk(&dir, &mut files);
                let n = files
                    .iter()
                    .filter(|f| f.extension().is_some_and(|e| e == counted))
                    .count();
                job.set(|p| {
                    if p.phase == "typesetting" {
                        p.done = n.min(total);
                    }
                });
            }
        });
        let r = project.make(
            &[(req.kind.as_str(), options.clone())],
            &batch,
            &output,
            &JobSink {
                job,
                log: app.log.as_ref(),
            },
        );
        finished.store(true, Ordering::Relaxed);
        r
    });
    let reports = made?;
    job.set(|p| {
        p.done = total;
        p.phase = "previews";
    });
    if !kind.formats().contains(&Format::Pdf) || total == 0 {
        return Ok(());
    }
    let print = print_view(app, job, &reports)?;
    let (previews, pages, doc) = typeset_previews(project, kind.as_ref(), cx, &request, &[])?;
    let links = page_links(&app.out, &dir, &doc);
    if let Ok(mut m) = job.made.lock() {
        *m = Made {
            previews,
            pages,
            links,
            version: 0,
            error: None,
            print,
        };
    }
    Ok(())
}

/// The make's PDFs gathered into one print file in its folder ([`crate::app::print`]), or its one PDF.
fn print_view(
    app: &App,
    job: &Job,
    reports: &[crate::render::driver::Report],
) -> Result<Option<PrintView>> {
    let to = app.out.join(&job.folder).join(crate::app::print::FILE);
    let title = format!("{}: everything to print", job.title);
    let rel = |p: &Path| slashed(&app.out, p);
    Ok(match crate::app::print::print_file(reports, &to, &title)? {
        Some(stats) => rel(&to).map(|r| PrintView {
            href: href(&r),
            documents: stats.inputs,
            pages: stats.pages,
        }),
        None => reports
            .iter()
            .flat_map(|r| r.print.first())
            .next()
            .and_then(|(p, _)| rel(p))
            .map(|r| PrintView {
                href: href(&r),
                documents: 1,
                pages: 0,
            }),
    })
}

/// The first document of a configured kind, typeset on the project's engine: the PNGs of its first
/// pages (with the hash of each page they were drawn from), its page count and its stem. A page whose
/// hash is among `drawn` (the previews of the last time) is not drawn again: after a save most pages
/// come out as they were. The others are drawn on two threads.
fn typeset_previews(
    project: &crate::project::Project,
    kind: &dyn crate::generators::Kind,
    cx: &crate::generators::Checked,
    request: &crate::generators::Request,
    drawn: &[(u128, Vec<u8>)],
) -> Result<(Previews, usize, crate::generators::Document)> {
    let engine = project.engine()?;
    let doc = kind.document(cx, request, 0)?;
    let typeset = engine.typeset(&format!("{}.typ", doc.template), &kind.pdf_data(&doc))?;
    let pages = typeset.pages().len();
    let opts = typst_render::RenderOptions {
        pixel_per_pt: typst::utils::Scalar::new(PREVIEW_DPI / 72.0),
        ..Default::default()
    };
    let shown: Vec<_> = typeset.pages().iter().take(MAX_PREVIEWS).collect();
    let hashes: Vec<u128> = shown.iter().map(|p| typst::utils::hash128(*p)).collect();
    let mut previews: Vec<Option<Vec<u8>>> = hashes
        .iter()
        .map(|h| {
            drawn
                .iter()
                .find(|(d, _)| d == h)
                .map(|(_, png)| png.clone())
        })
        .collect();
    let todo: Vec<usize> = (0..shown.len())
        .filter(|i| previews[*i].is_none())
        .collect();
    let draw = |i: usize| -> Result<Vec<u8>> {
        typst_render::render(shown[i], &opts)
            .encode_png()
            .map_err(|e| {
                Error::from(Bug::Write {
                    what: "a preview".into(),
                    message: e.to_string(),
                })
            })
    };
    let halves: Vec<Vec<usize>> = vec![
        todo.iter().copied().step_by(2).collect(),
        todo.iter().copied().skip(1).step_by(2).collect(),
    ];
    let drawn_now: Vec<Result<Vec<(usize, Png)>>> = std::thread::scope(|scope| {
        let workers: Vec<_> = halves
            .iter()
            .map(|half| scope.spawn(|| half.iter().map(|&i| Ok((i, draw(i)?))).collect()))
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join().unwrap_or_else(|_| {
                    Err(Bug::Panicked {
                        what: "drawing a preview",
                    }
                    .into())
                })
            })
            .collect()
    });
    for half in drawn_now {
        for (i, png) in half? {
            previews[i] = Some(png);
        }
    }
    let previews = hashes
        .into_iter()
        .zip(previews)
        .map(|(h, png)| (h, png.unwrap_or_default()))
        .collect();
    Ok((previews, pages, doc))
}

/// Author mode: typeset the preview of the latest make that has one again, from the project as it
/// is now (its files stay as they were made). Returns that make's number.
pub(crate) fn refresh_latest(app: &App) -> Option<u32> {
    let job = app.jobs.all().into_iter().find(|j| {
        j.state.borrow().phase == "done" && j.made.lock().is_ok_and(|m| !m.previews.is_empty())
    })?;
    let loaded = app.loaded();
    let r = (|| -> Result<(Previews, usize)> {
        let project = loaded
            .project
            .as_ref()
            .map_err(|e| FrontError::Unreadable { message: e.clone() })?;
        let def = project.def(&job.kind)?;
        let cx = project.checked(&[def.base()])?;
        let kind = def.configure(cx, &job.options)?;
        let batch = Batch {
            seed: Some(job.seed.unwrap_or(0)),
            count: job.count,
            ..Batch::default()
        };
        let mut output = Output::new(app.out.join(&job.folder));
        output.paper = job.paper_size;
        output.quiet = true;
        let request = project.request(kind.as_ref(), &batch, &output, &crate::app::Silent)?;
        let drawn = job
            .made
            .lock()
            .map(|m| m.previews.clone())
            .unwrap_or_default();
        let (previews, pages, _) = typeset_previews(project, kind.as_ref(), cx, &request, &drawn)?;
        Ok((previews, pages))
    })();
    if let Ok(mut m) = job.made.lock() {
        m.version += 1;
        match r {
            Ok((previews, pages)) => {
                m.previews = previews;
                m.pages = pages;
                m.error = None;
            }
            Err(e) => m.error = Some(e.to_string()),
        }
    }
    Some(job.id)
}

/// Where each page of a written document is: `<stem>.pdf` page by page, or, for a document split into
/// parts, `<stem>-<part>.pdf` for as many pages as that file has, part after part.
fn page_links(out: &Path, dir: &Path, doc: &crate::generators::Document) -> Vec<(String, usize)> {
    let pages_of = |p: &Path| -> usize {
        std::fs::read(p)
            .ok()
            .and_then(|b| lopdf::Document::load_mem(&b).ok())
            .map_or(0, |d| d.get_pages().len())
    };
    let mut links = Vec::new();
    for name in doc.pdf_names() {
        let f = dir.join(name);
        let Some(r) = slashed(out, &f) else { continue };
        for n in 1..=pages_of(&f) {
            links.push((r.clone(), n));
        }
    }
    links
}

fn job_of(app: &App, id: &str) -> Option<Arc<Job>> {
    id.parse().ok().and_then(|id| app.jobs.get(id))
}

/// GET /jobs/N: a make's progress, previews and files (the part of the page the script swaps in).
pub(crate) async fn job_page(
    State(app): State<Arc<App>>,
    UrlPath(id): UrlPath<String>,
) -> Response {
    let Some(job) = job_of(&app, &id) else {
        return refuse(StatusCode::NOT_FOUND, "there is no such make in this run");
    };
    let job = view(&app, &job, true);
    app.page(
        "job.html",
        minijinja::context! { job => minijinja::value::Serde(&job) },
    )
}

/// GET /jobs/N/events: the make's progress as server-sent events, until it is done or failed.
pub(crate) async fn events(State(app): State<Arc<App>>, UrlPath(id): UrlPath<String>) -> Response {
    let Some(job) = job_of(&app, &id) else {
        return refuse(StatusCode::NOT_FOUND, "there is no such make in this run");
    };
    let rx = job.state.subscribe();
    let stream =
        futures_util::stream::unfold((rx, false, true), |(mut rx, over, first)| async move {
            if over {
                return None;
            }
            if !first && rx.changed().await.is_err() {
                return None;
            }
            let p = rx.borrow_and_update().clone();
            let end = p.phase == "done" || p.phase == "failed";
            let ev = Event::default()
                .event("progress")
                .json_data(&p)
                .unwrap_or_else(|_| Event::default().event("progress"));
            Some((Ok::<_, Infallible>(ev), (rx, end, false)))
        });
    let stream = stream.take_until(super::stopped(&app));
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// GET /jobs/N/preview/P: page P of the make's first document, as PNG.
pub(crate) async fn preview(
    State(app): State<Arc<App>>,
    UrlPath((id, n)): UrlPath<(String, String)>,
) -> Response {
    let Some(job) = job_of(&app, &id) else {
        return refuse(StatusCode::NOT_FOUND, "there is no such make in this run");
    };
    let png = n.parse::<usize>().ok().and_then(|n| {
        let m = job.made.lock().ok()?;
        m.previews
            .get(n.checked_sub(1)?)
            .map(|(_, png)| png.clone())
    });
    match png {
        Some(b) => ([(header::CONTENT_TYPE, "image/png")], b).into_response(),
        None => refuse(StatusCode::NOT_FOUND, "there is no such preview"),
    }
}

/// GET /jobs/N/zip: the make's folder as one zip.
pub(crate) async fn zip(State(app): State<Arc<App>>, UrlPath(id): UrlPath<String>) -> Response {
    let Some(job) = job_of(&app, &id) else {
        return refuse(StatusCode::NOT_FOUND, "there is no such make in this run");
    };
    if job.state.borrow().phase != "done" {
        return refuse(StatusCode::CONFLICT, "the make has not finished");
    }
    let dir = app.out.join(&job.folder);
    let folder = job.folder.clone();
    match tokio::task::spawn_blocking(move || zip_folder(&dir)).await {
        Ok(Ok(bytes)) => (
            [
                (header::CONTENT_TYPE, "application/zip".to_owned()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{folder}.zip\""),
                ),
            ],
            bytes,
        )
            .into_response(),
        Ok(Err(e)) => refuse(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

/// Every file under `dir` (hidden ones left out) in a zip, paths relative to `dir`, in order.
pub(crate) fn zip_folder(dir: &Path) -> Result<Vec<u8>> {
    let mut files = Vec::new();
    walk(dir, &mut files);
    files.sort();
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    for f in files {
        let name = slashed(dir, &f).ok_or_else(|| FrontError::Outside {
            file: f.clone(),
            dir: dir.to_path_buf(),
        })?;
        let bytes = std::fs::read(&f).map_err(|e| Error::io(&f, e))?;
        w.start_file(name, opts).map_err(zip_failed)?;
        std::io::Write::write_all(&mut w, &bytes).map_err(|e| Error::io(&f, e))?;
    }
    let cur = w.finish().map_err(zip_failed)?;
    Ok(cur.into_inner())
}

/// The zip archive could not be written (a bug: it is written in memory).
fn zip_failed(e: zip::result::ZipError) -> Error {
    Bug::Write {
        what: "the zip archive".into(),
        message: e.to_string(),
    }
    .into()
}

/// Why a path under `/files/` is refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// An empty part: `//`, a leading `/` (an absolute path) or a trailing one.
    Empty,
    /// A part that is not UTF-8 once decoded.
    Encoding,
    /// `.` or `..`.
    Dots,
    /// A separator, drive colon or NUL inside a part (`%2F`, `%5C`, `%00`).
    Separator,
    /// Not a file inside the output folder (missing, a folder, or a link that leads out).
    Outside,
}

/// The file a `/files/` path (as sent, still percent-encoded) names inside `out` (canonical), or why
/// it is refused. Each part is decoded on its own, so an encoded separator cannot make a new part.
pub fn resolve(out: &Path, raw: &str) -> std::result::Result<PathBuf, Refused> {
    let mut path = out.to_path_buf();
    for part in raw.split('/') {
        if part.is_empty() {
            return Err(Refused::Empty);
        }
        let decoded = percent_encoding::percent_decode_str(part)
            .decode_utf8()
            .map_err(|_| Refused::Encoding)?;
        if decoded == "." || decoded == ".." {
            return Err(Refused::Dots);
        }
        if decoded.contains(['/', '\\', '\0', ':']) {
            return Err(Refused::Separator);
        }
        path.push(decoded.as_ref());
    }
    let real = path.canonicalize().map_err(|_| Refused::Outside)?;
    if !real.starts_with(out) || !real.is_file() {
        return Err(Refused::Outside);
    }
    Ok(real)
}

/// GET /files/PATH: a file from inside the output folder.
pub(crate) async fn file(State(app): State<Arc<App>>, req: Request) -> Response {
    let raw = req
        .uri()
        .path()
        .strip_prefix("/files/")
        .unwrap_or_default()
        .to_owned();
    let path = match resolve(&app.out, &raw) {
        Ok(p) => p,
        Err(Refused::Outside) => {
            return refuse(
                StatusCode::NOT_FOUND,
                "there is no such file in the output folder",
            );
        }
        Err(why) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                &format!("a file is named by its path inside the output folder ({why:?} refused)"),
            );
        }
    };
    let bytes = match tokio::fs::read(&path).await {
        Ok(b) => b,
        Err(_) => return refuse(StatusCode::NOT_FOUND, "the file cannot be read"),
    };
    send(&path, bytes, req.uri().query() == Some("download"))
}

/// A file's bytes as an answer: its type by its extension (anything a browser would run, HTML or
/// SVG, as text), inline or as a download, under its own name.
pub(crate) fn send(path: &Path, bytes: Vec<u8>, download: bool) -> Response {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    // Anything that a browser would run (HTML, SVG) is sent as text: the output folder is data.
    let kind = match ext.as_str() {
        "pdf" => "application/pdf",
        "png" => "image/png",
        "json" => "application/json",
        "zip" => "application/zip",
        "csv" => "text/csv; charset=utf-8",
        "md" | "txt" | "typ" | "toml" | "html" | "svg" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().replace(['"', '\\', '\r', '\n'], "_"))
        .unwrap_or_default();
    let disposition = if download { "attachment" } else { "inline" };
    (
        [
            (header::CONTENT_TYPE, kind.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!(
                    "{disposition}; filename=\"{}\"",
                    name.replace(|c: char| !c.is_ascii(), "_")
                ),
            ),
        ],
        bytes,
    )
        .into_response()
}
