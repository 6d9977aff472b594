//! The studio, `blockprint serve`: a local web page where a GM makes, previews and downloads every kind,
//! looks up the tables, the odds of any dice expression and a whole chase's odds, and runs a campaign's
//! weeks.
//!
//! It is a module of this package rather than a crate of its own because it stands on [`Project`] (the
//! library entry point, which lives here) and on nothing the command line does not already use.
//!
//! Safe by default: it listens on 127.0.0.1 (`--host` elsewhere prints a warning); a request whose
//! `Host` is not a loopback name or an IP address with the bound port is refused (a DNS-rebinding page
//! names the attacker's domain); anything that changes state (making files, rolling into the session's
//! log) needs the per-run token the page carries; bodies are bounded, and so are the makes that run at
//! once; files are served only from inside the output folder ([`make::resolve`]). Every page is rendered
//! by minijinja with HTML escaping on, so content, file names and diagnostics show as text.

mod campaign;
mod chase;
mod dice;
mod make;
mod watch;

pub use make::{Refused, resolve};

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use minijinja::Environment;
use serde::Serialize;

use crate::app::Event;
use crate::error::{Bug, Error, Result};
use crate::front_error::FrontError;
use crate::project::Project;

/// The largest request body (a make's options, a roll): 64 KiB.
pub const MAX_BODY: usize = 64 * 1024;

/// How `serve` runs.
#[derive(Clone)]
pub struct Options {
    pub content: Option<PathBuf>,
    pub templates: Option<PathBuf>,
    /// The fonts every make sets text in (`serve --font-path DIR`): the built-in ones and the folders'.
    /// The page offers no font folder of its own: a folder is a path on the studio's machine, and on a
    /// shared studio a page must not make it read any file it names.
    pub fonts: Arc<crate::render::fonts::Fonts>,
    /// Where makes write: each make into a folder of its own below it.
    pub out: PathBuf,
    /// The address to listen on (an IP address, or `localhost`).
    pub host: String,
    /// 0 takes a free port (printed).
    pub port: u16,
    /// Open the page in the default browser.
    pub open: bool,
    /// Makes that may run at once; one more is refused until one ends.
    pub max_jobs: usize,
    /// The campaign folder the Campaign page opens first.
    pub campaign: Option<PathBuf>,
    /// The one folder campaign folders must be in (`--campaigns`); beyond loopback, `<out>/campaigns`
    /// when not given.
    pub campaigns: Option<PathBuf>,
    /// The server's own log: that it started, where it listens, that it stops, and the warnings a make
    /// has beside those its page shows (the command line passes its terminal).
    pub log: Arc<dyn crate::app::Sink>,
}

/// The name a browser sends for this server.
const TOKEN_HEADER: &str = "x-blockprint-token";

/// What every request shares.
pub(crate) struct App {
    token: String,
    port: u16,
    content: Option<PathBuf>,
    templates: Option<PathBuf>,
    /// The fonts of `--font-path` ([`Options::fonts`]).
    fonts: Arc<crate::render::fonts::Fonts>,
    /// The output folder, made and canonical.
    out: PathBuf,
    project: RwLock<Arc<Loaded>>,
    pages: Environment<'static>,
    jobs: make::Jobs,
    /// Chase and dice-odds questions being worked out now, at most [`chase::MAX_QUESTIONS`].
    questions: Arc<tokio::sync::Semaphore>,
    rolls: Mutex<Vec<dice::Logged>>,
    /// Author mode: what the last reload found, for the pages listening on `/events`.
    changes: tokio::sync::watch::Sender<watch::Change>,
    /// The campaign folder the Campaign page opens first (`--campaign`).
    campaign: Option<PathBuf>,
    /// The server's log ([`Options::log`]).
    log: Arc<dyn crate::app::Sink>,
    /// Set on Ctrl-C: every live-update stream ends and every connection closes after its answer.
    stopping: tokio::sync::watch::Sender<bool>,
    /// The folder every campaign folder must be in (canonical), when confined.
    campaign_root: Option<PathBuf>,
    /// Beyond loopback: the address other machines open (`http://192.168.1.20:7878/`).
    shared_url: Option<String>,
}

/// The content and templates as last read: the project, or why it could not be opened.
pub(crate) struct Loaded {
    project: std::result::Result<Project, String>,
}

impl App {
    /// A campaign folder the page names, as the studio may use it: as given when campaigns are not
    /// confined; else inside the campaigns' root folder (a relative name is taken from it), or refused.
    pub(crate) fn campaign_dir(&self, dir: &str) -> std::result::Result<String, String> {
        let Some(root) = &self.campaign_root else {
            return Ok(dir.to_owned());
        };
        confined(root, Path::new(dir.trim())).map(|p| p.display().to_string())
    }

    fn loaded(&self) -> Arc<Loaded> {
        match self.project.read() {
            Ok(p) => p.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }

    /// Render one of the studio's pages (its templates escape every value as HTML).
    fn page(&self, name: &str, ctx: minijinja::Value) -> Response {
        match self.pages.get_template(name).and_then(|t| {
            t.render(minijinja::context! {
                token => &self.token,
                shared_url => &self.shared_url,
                campaign_root => self.campaign_root.as_ref().map(|r| r.display().to_string()),
                ..ctx
            })
        }) {
            Ok(html) => Html(html).into_response(),
            Err(e) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the studio could not draw its page {name}: {e:#}"),
            )
                .into_response(),
        }
    }
}

/// `dir` inside `root` (canonical): a relative `dir` is taken from `root`; `..` is refused, and so is a
/// folder whose nearest existing part leads out of `root` (a symbolic link included).
pub(crate) fn confined(root: &Path, dir: &Path) -> std::result::Result<PathBuf, String> {
    let outside = || {
        format!(
            "the campaign folder `{}` is outside {}, the one folder this studio keeps campaigns in \
             (--campaigns); give a folder name inside it, such as 1976",
            dir.display(),
            root.display()
        )
    };
    if dir.as_os_str().is_empty() {
        return Err("give the campaign folder (the one holding campaign.toml)".into());
    }
    if dir
        .components()
        .any(|c| matches!(c, std::path::Component::ParentDir))
    {
        return Err(outside());
    }
    let full = if dir.is_absolute() {
        dir.to_owned()
    } else {
        root.join(dir)
    };
    let mut probe = full.as_path();
    let real = loop {
        if let Ok(real) = probe.canonicalize() {
            break real;
        }
        match probe.parent() {
            Some(p) => probe = p,
            None => return Err(outside()),
        }
    };
    if !real.starts_with(root) {
        return Err(outside());
    }
    Ok(full)
}

/// The address this machine is reached at on its network (the one a packet to the internet would
/// leave from; nothing is sent), for the page to show players when the studio listens on every address.
fn lan_address() -> Option<IpAddr> {
    let s = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    s.connect("192.0.2.1:9").ok()?;
    let ip = s.local_addr().ok()?.ip();
    (!ip.is_unspecified() && !ip.is_loopback()).then_some(ip)
}

/// An error as the studio's pages show it. They show the command line of what they run, so an option a
/// typed error speaks of is named as that command line names it: `--` and its id with dashes (the
/// forms' fields carry the same names).
pub(crate) fn shown(e: &Error) -> String {
    e.render(option_name)
}

/// What the studio's pages call the option whose id is `id`: as the command line they show names it,
/// `--` and the id with dashes (the forms' fields carry the same names). An event's line that speaks
/// of options ([`crate::app::Event::named`]) names them so too.
pub(crate) fn option_name(id: &str) -> String {
    format!("--{}", id.replace('_', "-"))
}

/// Run the studio until Ctrl-C.
pub fn serve(opts: Options) -> Result<()> {
    let host: IpAddr = match opts.host.as_str() {
        "localhost" => IpAddr::from([127, 0, 0, 1]),
        h => h
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse()
            .map_err(|_| {
                Error::from(FrontError::Host {
                    given: h.to_owned(),
                })
            })?,
    };
    // A folder given that is not there is refused before any progress line, naming the folder.
    for (option, dir) in [("content", &opts.content), ("templates", &opts.templates)] {
        if let Some(d) = dir
            && !d.is_dir()
        {
            return Err(FrontError::NoFolder {
                option,
                dir: d.clone(),
            }
            .into());
        }
    }
    std::fs::create_dir_all(&opts.out).map_err(|e| Error::io(&opts.out, e))?;
    let out = opts
        .out
        .canonicalize()
        .map_err(|e| Error::io(&opts.out, e))?;
    let listener = std::net::TcpListener::bind(SocketAddr::new(host, opts.port)).map_err(|e| {
        Error::from(FrontError::Listen {
            address: SocketAddr::new(host, opts.port).to_string(),
            message: e.to_string(),
            in_use: e.kind() == std::io::ErrorKind::AddrInUse,
        })
    })?;
    listener
        .set_nonblocking(true)
        .map_err(|e| Bug::system("set up the listening socket", e))?;
    let port = listener
        .local_addr()
        .map_err(|e| Bug::system("read the listening address", e))?
        .port();
    // Beyond loopback, campaign folders are confined to one folder: the page (and its token) is open to
    // every machine that reaches the address.
    let campaign_root = match (&opts.campaigns, host.is_loopback()) {
        (Some(root), _) => Some(root.clone()),
        (None, false) => Some(out.join("campaigns")),
        (None, true) => None,
    };
    let campaign_root = match campaign_root {
        Some(root) => {
            std::fs::create_dir_all(&root).map_err(|e| Error::io(&root, e))?;
            Some(root.canonicalize().map_err(|e| Error::io(&root, e))?)
        }
        None => None,
    };
    if let (Some(root), Some(first)) = (&campaign_root, &opts.campaign) {
        confined(root, first).map_err(|why| FrontError::CampaignOutside { why })?;
    }
    let shared_url = (!host.is_loopback()).then(|| {
        let ip = if host.is_unspecified() {
            lan_address().unwrap_or(host)
        } else {
            host
        };
        match ip {
            IpAddr::V6(h) => format!("http://[{h}]:{port}/"),
            IpAddr::V4(h) => format!("http://{h}:{port}/"),
        }
    });
    if !host.is_loopback() {
        opts.log.event(Event::Warning(format!(
            "warning: --host {host}: the studio is open to every machine that can reach this address. Anyone \
             there can open the page, make files in {}, roll on your tables and run the campaigns in {}. \
             Leave --host out to keep it to this machine.",
            out.display(),
            campaign_root
                .as_ref()
                .map(|r| r.display().to_string())
                .unwrap_or_default()
        )));
    }
    opts.log.event(Event::Note(
        "studio: reading the content and templates …".into(),
    ));
    let project = open(
        opts.content.as_deref(),
        opts.templates.as_deref(),
        &opts.fonts,
    );
    let app = Arc::new(App {
        token: token()?,
        port,
        content: opts.content.clone(),
        templates: opts.templates.clone(),
        fonts: opts.fonts.clone(),
        out,
        project: RwLock::new(Arc::new(project)),
        pages: pages()?,
        jobs: make::Jobs::new(opts.max_jobs.max(1)),
        questions: Arc::new(tokio::sync::Semaphore::new(chase::MAX_QUESTIONS)),
        rolls: Mutex::new(Vec::new()),
        changes: tokio::sync::watch::Sender::new(watch::Change::default()),
        campaign: opts.campaign.clone(),
        log: opts.log.clone(),
        stopping: tokio::sync::watch::Sender::new(false),
        campaign_root,
        shared_url: shared_url.clone(),
    });
    // Author mode: the folders given are watched, and every save reloads the project.
    let watched: Vec<PathBuf> = [&opts.content, &opts.templates]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let _watcher = watch::start(app.clone(), watched.clone()).map_err(|e| FrontError::Watch {
        folders: join_paths(&watched),
        message: e.to_string(),
    })?;
    if !watched.is_empty() {
        app.log.event(Event::Note(format!(
            "studio: watching {} (every save is checked and shown in the page)",
            join_paths(&watched)
        )));
    }
    let shown = if host.is_unspecified() || host.is_loopback() {
        "127.0.0.1".to_owned()
    } else {
        match host {
            IpAddr::V6(h) => format!("[{h}]"),
            IpAddr::V4(h) => h.to_string(),
        }
    };
    let url = format!("http://{shown}:{port}/");
    app.log.event(Event::Note(format!(
        "studio: {url} (output in {}; Ctrl-C stops it)",
        app.out.display()
    )));
    if let Some(shared) = &shared_url {
        app.log
            .event(Event::Note(format!("studio: other machines open {shared}")));
    }
    if opts.open {
        open_browser(&url, app.log.as_ref());
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Bug::system("start the studio's runtime", e))?;
    let jobs_app = app.clone();
    runtime.block_on(listen(listener, app))?;
    // No half-written file: a make that is running finishes (the driver writes each file whole and
    // renames it into place) before the process ends.
    let running = jobs_app.jobs.running();
    if running > 0 {
        jobs_app.log.event(Event::Note(format!(
            "studio: stopping; waiting for {running} running make{} to finish …",
            if running == 1 { "" } else { "s" }
        )));
    }
    runtime.block_on(async {
        tokio::select! {
            _ = jobs_app.jobs.wait_all() => {}
            _ = tokio::signal::ctrl_c() => {
                jobs_app.log.event(Event::Note(
                    "studio: stopped at once (a second Ctrl-C); a make cut short leaves no file half-written, \
                     but its folder may lack files"
                        .into(),
                ));
                std::process::exit(130);
            }
        }
    });
    runtime.shutdown_timeout(std::time::Duration::from_secs(5));
    jobs_app.log.event(Event::Note("studio: stopped".into()));
    Ok(())
}

/// How long a request's head may take to arrive whole; a connection that sends part of one and stops is
/// closed after it.
const HEAD_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// How long a request's body may take to arrive whole (the bodies are small: [`MAX_BODY`] at most).
const BODY_TIME: std::time::Duration = std::time::Duration::from_secs(20);

/// Connections open at once; one more is closed as it comes, until one ends.
pub const MAX_CONNECTIONS: usize = 256;

/// How long Ctrl-C waits for open connections to end (the live-update streams end at once) before they
/// are dropped; a running make is still waited for after.
const CLOSE_TIME: std::time::Duration = std::time::Duration::from_millis(1500);

/// Serve until Ctrl-C: each connection on hyper's HTTP/1 builder with a header read timeout, at most
/// [`MAX_CONNECTIONS`] at once. On Ctrl-C the live-update streams end, every connection is asked to close
/// after its answer, and any still open after [`CLOSE_TIME`] is dropped. A second Ctrl-C stops at once.
async fn listen(listener: std::net::TcpListener, app: Arc<App>) -> Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let listener =
        tokio::net::TcpListener::from_std(listener).map_err(|e| Bug::system("listen", e))?;
    let router = router(app.clone());
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    let mut open = tokio::task::JoinSet::new();
    let stop = app.stopping.subscribe();
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    loop {
        tokio::select! {
            _ = &mut ctrl_c => break,
            Some(_) = open.join_next(), if !open.is_empty() => {}
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let Ok(slot) = slots.clone().try_acquire_owned() else {
                    drop(stream);
                    continue;
                };
                let service = hyper_util::service::TowerToHyperService::new(router.clone());
                let mut stop = stop.clone();
                open.spawn(async move {
                    let _slot = slot;
                    let conn = hyper::server::conn::http1::Builder::new()
                        .timer(TokioTimer::new())
                        .header_read_timeout(HEAD_TIME)
                        .serve_connection(TokioIo::new(stream), service);
                    tokio::pin!(conn);
                    tokio::select! {
                        _ = conn.as_mut() => {}
                        _ = async { let _ = stop.wait_for(|s| *s).await; } => {
                            conn.as_mut().graceful_shutdown();
                            let _ = conn.await;
                        }
                    }
                });
            }
        }
    }
    app.stopping.send_replace(true);
    let second = tokio::signal::ctrl_c();
    tokio::select! {
        _ = second => {
            app.log.event(Event::Note("studio: stopped at once (a second Ctrl-C)".into()));
            std::process::exit(130);
        }
        _ = async {
            let _ = tokio::time::timeout(CLOSE_TIME, async {
                while open.join_next().await.is_some() {}
            })
            .await;
        } => {}
    }
    open.abort_all();
    Ok(())
}

/// A future that ends when the studio stops (Ctrl-C): a live-update stream ends with it.
pub(crate) fn stopped(app: &App) -> impl std::future::Future<Output = ()> + Send + 'static {
    let mut rx = app.stopping.subscribe();
    async move {
        let _ = rx.wait_for(|s| *s).await;
    }
}

fn join_paths(p: &[PathBuf]) -> String {
    p.iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" and ")
}

/// A fresh token for this run: 128 random bits, hex.
fn token() -> Result<String> {
    let mut buf = [0u8; 16];
    getrandom::fill(&mut buf).map_err(|e| Bug::system("draw the studio's token at random", e))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

fn open(
    content: Option<&Path>,
    templates: Option<&Path>,
    fonts: &Arc<crate::render::fonts::Fonts>,
) -> Loaded {
    Loaded {
        project: Project::open(content, templates)
            .map(|p| p.with_fonts(fonts.clone()))
            .map_err(|e| e.to_string()),
    }
}

fn open_browser(url: &str, log: &dyn crate::app::Sink) {
    let tries: &[&[&str]] = if cfg!(target_os = "macos") {
        &[&["open"]]
    } else if cfg!(windows) {
        &[&["cmd", "/C", "start", ""]]
    } else {
        &[&["xdg-open"], &["sensible-browser"]]
    };
    for t in tries {
        let mut cmd = std::process::Command::new(t[0]);
        cmd.args(&t[1..])
            .arg(url)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        if cmd.spawn().is_ok() {
            return;
        }
    }
    log.event(Event::Warning(format!(
        "warning: --open: found no program to open a browser with; open {url} yourself"
    )));
}

/// The pages, compiled into the binary.
fn pages() -> Result<Environment<'static>> {
    let mut env = Environment::new();
    for (name, src) in [
        ("base.html", include_str!("assets/base.html")),
        ("make.html", include_str!("assets/make.html")),
        ("job.html", include_str!("assets/job.html")),
        ("odds.html", include_str!("assets/odds.html")),
        ("chase.html", include_str!("assets/chase.html")),
        ("tables.html", include_str!("assets/tables.html")),
        ("roll.html", include_str!("assets/roll.html")),
        ("diagnostics.html", include_str!("assets/diagnostics.html")),
        ("campaign.html", include_str!("assets/campaign.html")),
        (
            "campaign-status.html",
            include_str!("assets/campaign-status.html"),
        ),
        (
            "campaign-new.html",
            include_str!("assets/campaign-new.html"),
        ),
    ] {
        env.add_template(name, src).map_err(|e| FrontError::Page {
            page: name,
            message: format!("{e:#}"),
        })?;
    }
    env.add_filter("pct", |x: f64| format!("{:.2}%", x * 100.0));
    env.add_filter("size", |n: u64| human_size(n));
    Ok(env)
}

fn human_size(n: u64) -> String {
    if n < 1024 {
        format!("{n} B")
    } else if n < 1024 * 1024 {
        format!("{:.1} KB", n as f64 / 1024.0)
    } else {
        format!("{:.1} MB", n as f64 / (1024.0 * 1024.0))
    }
}

pub(crate) fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(make::page))
        .route("/make", post(make::start))
        .route("/jobs/{id}", get(make::job_page))
        .route("/jobs/{id}/events", get(make::events))
        .route("/jobs/{id}/preview/{n}", get(make::preview))
        .route("/jobs/{id}/zip", get(make::zip))
        .route("/files/{*path}", get(make::file))
        .route("/odds", get(dice::odds))
        .route("/chase", get(chase::page))
        .route("/tables", get(dice::tables))
        .route("/roll", post(dice::roll))
        .route("/campaign", get(campaign::page))
        .route("/campaign/new", post(campaign::new))
        .route("/campaign/packet", get(campaign::packet))
        .route("/campaign/{action}", post(campaign::act))
        .route("/events", get(watch::events))
        .route("/diagnostics", get(watch::diagnostics))
        .route("/assets/studio.js", get(script))
        .route("/assets/studio.css", get(style))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

/// Every request passes here first: the Host check, then the token for anything but a read.
async fn guard(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    if !host_allowed(req.headers(), app.port) {
        return refuse(
            StatusCode::MISDIRECTED_REQUEST,
            "this studio answers only to requests for localhost or an IP address of this machine with its port \
             (a page on another site cannot reach it through a name of its own)",
        );
    }
    let reads = matches!(*req.method(), Method::GET | Method::HEAD);
    if !reads {
        let given = req
            .headers()
            .get(TOKEN_HEADER)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        if !same(given.as_bytes(), app.token.as_bytes()) {
            return refuse(
                StatusCode::FORBIDDEN,
                "this action needs the studio's token, which only its own page carries: reload the page",
            );
        }
    }
    // A body is read whole here, within its time, so a request that stops halfway holds nothing.
    let req = if reads {
        req
    } else {
        let (parts, body) = req.into_parts();
        match tokio::time::timeout(BODY_TIME, axum::body::to_bytes(body, MAX_BODY + 1)).await {
            Err(_) => {
                return refuse(
                    StatusCode::REQUEST_TIMEOUT,
                    &format!(
                        "the request's body did not arrive within {} seconds",
                        BODY_TIME.as_secs()
                    ),
                );
            }
            Ok(Err(_)) => {
                return refuse(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    &format!("a request's body is at most {MAX_BODY} bytes"),
                );
            }
            Ok(Ok(bytes)) => Request::from_parts(parts, axum::body::Body::from(bytes)),
        }
    };
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'self'; frame-ancestors 'none'",
        ),
    );
    res
}

/// Whether the `Host` header names this server: `localhost` or an IP address, with the bound port.
/// A DNS-rebinding attack reaches the port through a name of the attacker's, which is refused.
pub(crate) fn host_allowed(headers: &HeaderMap, port: u16) -> bool {
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let (name, p) = match host.rsplit_once(':') {
        Some((n, p)) if !n.is_empty() && !p.contains(']') => (n, p),
        _ => return false,
    };
    if p.parse::<u16>().ok() != Some(port) {
        return false;
    }
    let name = name.to_ascii_lowercase();
    if name == "localhost" {
        return true;
    }
    let bare = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .unwrap_or(&name);
    bare.parse::<IpAddr>().is_ok()
}

/// Equal byte strings, compared in time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// What a form shows of one of a command's arguments, read from clap's definition: its help (the short
/// one, else the long), its defaults joined by commas, and its visible possible values with their help.
pub(crate) struct ArgView {
    /// What a GM calls the option ([`label_of`]).
    pub label: String,
    pub help: String,
    pub default: String,
    pub choices: Vec<(String, String)>,
}

/// What a GM calls an option, from its documentation rather than its flag: the help's first clause
/// without its article ("The quarry's MOV (before the speed roll)" → "Quarry's MOV"), or, when the
/// help opens with a long sentence, the option's name in words ("policy" → "Policy").
pub(crate) fn label_of(help: &str, name: &str) -> String {
    let clause = help.split(['(', ':', ';', '[']).next().unwrap_or_default();
    let clause = clause.trim().trim_end_matches('.').trim();
    let clause = clause.strip_prefix("The ").unwrap_or(clause);
    let words = if !clause.is_empty() && clause.chars().count() <= 48 && !clause.contains('`') {
        clause.to_owned()
    } else {
        name.replace(['-', '_'], " ")
    };
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => words,
    }
}

pub(crate) fn arg_view(a: &clap::Arg) -> ArgView {
    let help = a
        .get_help()
        .or(a.get_long_help())
        .map(|h| h.to_string())
        .unwrap_or_default();
    let name = a
        .get_long()
        .map(str::to_owned)
        .unwrap_or_else(|| a.get_id().to_string());
    ArgView {
        label: label_of(&help, &name),
        help,
        default: a
            .get_default_values()
            .iter()
            .map(|v| v.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(","),
        choices: a
            .get_possible_values()
            .iter()
            .filter(|p| !p.is_hide_set())
            .map(|p| {
                let help = p.get_help().map(|h| h.to_string()).unwrap_or_default();
                (p.get_name().to_owned(), help)
            })
            .collect(),
    }
}

/// The body of a POST that is asked as JSON, or the refusal naming what was asked (`what`, say "a roll")
/// and why its body could not be read (with the status axum gives: 400, 413, 415 or 422).
#[expect(
    clippy::result_large_err,
    reason = "the refusal is the response axum sends at once, as its own extractors return it"
)]
pub(crate) fn json_body<T>(
    body: std::result::Result<axum::Json<T>, axum::extract::rejection::JsonRejection>,
    what: &str,
) -> std::result::Result<T, Response> {
    body.map(|axum::Json(b)| b).map_err(|e| {
        refuse(
            e.status(),
            &format!("{what} is asked as JSON: {}", e.body_text()),
        )
    })
}

pub(crate) fn refuse(code: StatusCode, message: &str) -> Response {
    (
        code,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{message}\n"),
    )
        .into_response()
}

async fn script() -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("assets/studio.js"),
    )
        .into_response()
}

async fn style() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("assets/studio.css"),
    )
        .into_response()
}

/// The content's diagnostics, as the page shows them: each with its place and the rendered text.
#[derive(Serialize)]
pub(crate) struct Shown {
    errors: usize,
    warnings: usize,
    /// `file:line:col: message` of each, errors first.
    items: Vec<String>,
    /// The errors' places, and the warnings', apart.
    error_items: Vec<String>,
    warning_items: Vec<String>,
    /// The diagnostics as the command line renders them (source lines and carets), every one.
    rendered: String,
    /// The errors alone, and the warnings alone, rendered so.
    rendered_errors: String,
    rendered_warnings: String,
}

pub(crate) fn diagnostics(project: &Project) -> Shown {
    let ds = &project.report().diagnostics;
    let sources = &project.lib().sources;
    let place =
        |d: &crate::diag::Diagnostic| format!("{}:{}:{}: {}", d.file, d.line, d.column, d.message);
    let (errors, warnings): (Vec<_>, Vec<_>) = ds
        .iter()
        .filter(|d| d.is_error() || d.is_warning())
        .cloned()
        .partition(|d| d.is_error());
    Shown {
        errors: errors.len(),
        warnings: warnings.len(),
        items: errors.iter().chain(&warnings).map(place).collect(),
        error_items: errors.iter().map(place).collect(),
        warning_items: warnings.iter().map(place).collect(),
        rendered: crate::diag::render_text(ds, sources),
        rendered_errors: crate::diag::render_text(&errors, sources),
        rendered_warnings: crate::diag::render_text(&warnings, sources),
    }
}
