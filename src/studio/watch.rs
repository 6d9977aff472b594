//! Author mode: the content and templates folders are watched (`notify`); on every save the project is
//! opened again (content read and checked, templates laid over the built-in ones; the typesetting engine
//! and its caches are kept when no template changed), the open preview is typeset again, and every page listening on `/events` is told, so it shows the new diagnostics and
//! preview without a reload.

use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use notify::Watcher;
use serde::Serialize;

use super::App;

/// What the pages are told after a save.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub(crate) struct Change {
    /// Counts the reloads of this run (0: none yet).
    pub generation: u64,
    pub errors: usize,
    pub warnings: usize,
    /// The make whose preview was typeset again, if any.
    pub preview: Option<u32>,
    /// Milliseconds from the save being seen to the new preview (or diagnostics) being ready.
    pub millis: u64,
    /// A save was seen and the studio is checking and typesetting again; the rest is the last reload's.
    pub updating: bool,
}

/// Watch `dirs`; each burst of changes reloads the project. The watcher lives as long as the value.
pub(crate) fn start(
    app: Arc<App>,
    dirs: Vec<PathBuf>,
) -> notify::Result<Option<notify::RecommendedWatcher>> {
    if dirs.is_empty() {
        return Ok(None);
    }
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if let Ok(ev) = res
            && !matches!(ev.kind, notify::EventKind::Access(_))
        {
            let _ = tx.send(());
        }
    })?;
    for d in &dirs {
        watcher.watch(d, notify::RecursiveMode::Recursive)?;
    }
    std::thread::spawn(move || {
        while rx.recv().is_ok() {
            let seen = Instant::now();
            // An editor's save is several events (write, rename, chmod): wait for the burst to end.
            while rx.recv_timeout(Duration::from_millis(60)).is_ok() {}
            reload(&app, seen);
        }
    });
    Ok(Some(watcher))
}

/// Open the project again, typeset the latest preview again, and tell the pages.
fn reload(app: &App, seen: Instant) {
    app.changes.send_modify(|c| c.updating = true);
    // The project as it stands keeps its engine (and typst's caches) when no template changed.
    let loaded = Arc::new(match &app.loaded().project {
        Ok(p) => super::Loaded {
            project: p
                .reload(app.content.as_deref(), app.templates.as_deref())
                .map_err(|e| e.to_string()),
        },
        Err(_) => super::open(app.content.as_deref(), app.templates.as_deref(), &app.fonts),
    });
    let (errors, warnings) = match &loaded.project {
        Ok(p) => {
            let d = super::diagnostics(p);
            (d.errors, d.warnings)
        }
        Err(_) => (1, 0),
    };
    match app.project.write() {
        Ok(mut p) => *p = loaded,
        Err(p) => *p.into_inner() = loaded,
    }
    let preview = if errors == 0 {
        super::make::refresh_latest(app)
    } else {
        None
    };
    let millis = u64::try_from(seen.elapsed().as_millis()).unwrap_or(u64::MAX);
    app.changes.send_modify(|c| {
        *c = Change {
            generation: c.generation + 1,
            errors,
            warnings,
            preview,
            millis,
            updating: false,
        };
    });
}

/// GET /events: a `change` event after every reload, for as long as the page is open.
pub(crate) async fn events(State(app): State<Arc<App>>) -> Response {
    let rx = app.changes.subscribe();
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.changed().await.ok()?;
        let c = rx.borrow_and_update().clone();
        let ev = Event::default()
            .event("change")
            .json_data(&c)
            .unwrap_or_else(|_| Event::default().event("change"));
        Some((Ok::<_, Infallible>(ev), rx))
    });
    let stream = stream.take_until(super::stopped(&app));
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// GET /diagnostics: the diagnostics block of the pages, as it is now.
pub(crate) async fn diagnostics(State(app): State<Arc<App>>) -> Response {
    let loaded = app.loaded();
    let (problem, diagnostics) = match &loaded.project {
        Ok(p) => (None, Some(super::diagnostics(p))),
        Err(e) => (Some(e.clone()), None),
    };
    app.page(
        "diagnostics.html",
        minijinja::context! {
            problem,
            diagnostics => minijinja::value::Serde(&diagnostics),
        },
    )
}
