//! The one path from files on disk to files written: [`Project::open`] reads and checks the content and
//! finds every document kind (the built-in ones and those a templates folder adds); [`Project::make`]
//! makes kinds with their options; [`Project::build`] makes every kind the content offers. The command
//! line, the tests and the studio all go through it, so the requirement checks always run.
//!
//! What a run has to say (the seed it chose, the kinds a build skipped, each "wrote …" line, warnings)
//! goes to the [`Sink`] the caller passes; nothing here prints.
//!
//! ```no_run
//! use blockprint_app::project::{Batch, Output, Project};
//! use blockprint_app::Collector;
//! let project = Project::open(None, None)?;
//! let output = Output::new("out");
//! let news = Collector::default();
//! project.make(&[("case", serde_json::json!({}))], &Batch { count: 3, ..Batch::default() }, &output, &news)?;
//! project.build(&Batch::default(), &output, &news)?;
//! # Ok::<(), blockprint_content::error::Error>(())
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::error::AppError;
use blockprint_content::check::Report;
use blockprint_content::diag::{self, Diagnostic};
use blockprint_content::error::{Bug, Error, Result};
use blockprint_content::{ContentRoot, Library};
use blockprint_kind::sink::{Event, Line, Part, Sink};
use blockprint_kinds::{Checked, Kind, KindDef, Registry, Request};
use blockprint_render::fonts::Fonts;
use blockprint_render::{Engine, Format, Paper, Templates, driver, manifest};

/// The highest item number (case YYYY-99999). Every number a batch makes must be one `--first-number`
/// accepts, since each case prints its key (`--first-number N`) to make it again.
pub const MAX_NUMBER: u32 = 99_999;

/// What to roll: the batch a kind's items belong to. Kinds that roll nothing ignore it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    /// The batch seed; `None` continues the batch in the output folder, or starts one with a fresh seed
    /// (announced to the sink).
    pub seed: Option<u64>,
    /// Number of the first item.
    pub first_number: u32,
    /// How many items a rolled kind makes.
    pub count: u32,
}

impl Default for Batch {
    fn default() -> Self {
        Batch {
            seed: None,
            first_number: 1,
            count: 1,
        }
    }
}

/// Where and how files are written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// Output folder; each kind writes into its own folder below it.
    pub out: PathBuf,
    pub paper: Paper,
    /// Threads that typeset at once (`None`: `RAYON_NUM_THREADS`, else every core).
    pub jobs: Option<u32>,
    /// No "wrote …" lines.
    pub quiet: bool,
    /// Replace another batch's files instead of refusing.
    pub force: bool,
    /// Which formats to write (empty: every format the kind makes).
    pub formats: Vec<Format>,
    /// The command line, for the manifest (without `--out`).
    pub command: String,
}

impl Output {
    /// Every format, A4, all cores, into `out`.
    pub fn new(out: impl Into<PathBuf>) -> Self {
        Output {
            out: out.into(),
            paper: Paper::A4,
            jobs: None,
            quiet: false,
            force: false,
            formats: Vec::new(),
            command: "blockprint".into(),
        }
    }
}

/// Content, templates and document kinds, read and checked once.
pub struct Project {
    root: ContentRoot,
    templates: Templates,
    registry: Registry,
    /// The content and its report; kinds see it only once it has no errors.
    cx: Checked,
    /// Shared with the project a [`Project::reload`] opens when the templates are the same, so typst's
    /// caches (and the fonts it has read) carry over.
    engine: OnceLock<Arc<Engine>>,
    /// The fonts its engine sets text in: the embedded ones, and those of `--font-path` folders.
    fonts: Arc<Fonts>,
}

/// The line announcing a fresh seed that makes `what` again: `seed: 7 (regenerate this batch with the
/// seed 7)`, the command line's `… with --seed 7`.
pub(crate) fn fresh_seed(seed: u64, what: &str) -> Line {
    Line::new(
        format!("seed: {seed} (regenerate {what} with the seed {seed})"),
        vec![
            Part::Text(format!("seed: {seed} (regenerate {what} with ")),
            Part::Option(SEED),
            Part::Text(format!(" {seed})")),
        ],
    )
}

/// The line announcing the seed of the batch in `dir` that a run continues.
fn continued_seed(seed: u64, dir: &Path) -> Line {
    let head = format!("seed: {seed} (continuing the batch in {}; ", dir.display());
    Line::new(
        format!("{head}give a seed to start another)"),
        vec![
            Part::Text(format!("{head}pass ")),
            Part::Option(SEED),
            Part::Text(" to start another)".into()),
        ],
    )
}

/// The seed option's id.
pub(crate) const SEED: &str = "seed";

impl Project {
    /// Read the content (the built-in content, or a folder) and the templates (the built-in ones, with a
    /// folder laid over them), find every document kind, and check the content with what every kind it
    /// offers requires. Content errors do not fail here: [`Project::report`] holds them, and making
    /// anything is refused while there are any. I/O and template-folder errors fail.
    pub fn open(content: Option<&Path>, templates: Option<&Path>) -> Result<Self> {
        let mut t = Templates::builtin();
        if let Some(dir) = templates {
            t = t.overlay(dir)?;
        }
        let registry = Registry::new(&t)?;
        Self::with_registry(
            ContentRoot::from_option(content.map(Path::to_path_buf)),
            t,
            registry,
        )
    }

    /// [`Project::open`] with a registry of one's own (an embedder's kinds, a test's).
    pub fn with_registry(
        root: ContentRoot,
        templates: Templates,
        registry: Registry,
    ) -> Result<Self> {
        let (lib, mut report) =
            blockprint_content::check::load_and_check(&root).map_err(|e| Error::Io {
                path: PathBuf::from(root.label()),
                source: e,
            })?;
        for k in registry.kinds() {
            blockprint_content::check::requires::check(
                &lib,
                k.name(),
                &k.requires(),
                k.requires_always(),
                &mut report.diagnostics,
            );
        }
        diag::sort(&mut report.diagnostics);
        let source = root.label();
        Ok(Project {
            root,
            templates,
            registry,
            cx: Checked {
                lib,
                report,
                source,
            },
            engine: OnceLock::new(),
            fonts: Arc::default(),
        })
    }

    /// This project setting text in `fonts` too (read with [`Fonts::load`] from `--font-path` folders),
    /// after the embedded ones.
    pub fn with_fonts(mut self, fonts: Arc<Fonts>) -> Self {
        self.fonts = fonts;
        self.engine = OnceLock::new();
        self
    }

    /// The fonts this project sets text in.
    pub fn fonts(&self) -> &Arc<Fonts> {
        &self.fonts
    }

    /// Read the content and the templates again (after an author saved a file): a new project, which
    /// keeps this one's typesetting engine when the templates and the table titles are unchanged, so a
    /// document typeset again is typeset incrementally (typst lays out again only what changed) instead of
    /// from nothing. A change to any template, or to a table's title (which the Markdown templates link
    /// by), gets a fresh engine.
    pub fn reload(&self, content: Option<&Path>, templates: Option<&Path>) -> Result<Self> {
        let mut t = Templates::builtin();
        if let Some(dir) = templates {
            t = t.overlay(dir)?;
        }
        let registry = Registry::new(&t)?;
        let same_templates = same_templates(&t, &self.templates);
        let project = Self::with_registry(
            ContentRoot::from_option(content.map(Path::to_path_buf)),
            t,
            registry,
        )?
        .with_fonts(self.fonts.clone());
        if same_templates
            && titles(&project.cx.lib) == titles(&self.cx.lib)
            && let Some(engine) = self.engine.get()
        {
            let _ = project.engine.set(engine.clone());
        }
        Ok(project)
    }

    /// Whether this project typesets with `other`'s engine (the one [`Project::reload`] kept).
    pub fn shares_engine(&self, other: &Project) -> bool {
        match (self.engine.get(), other.engine.get()) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// Only the content, for commands that read tables: no kind and no requirement.
    pub fn tables(content: Option<&Path>) -> Result<Self> {
        Self::with_registry(
            ContentRoot::from_option(content.map(Path::to_path_buf)),
            Templates::builtin(),
            Registry::empty(),
        )
    }

    /// Every kind this project knows.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The loaded content.
    pub fn lib(&self) -> &Library {
        &self.cx.lib
    }

    /// The checker's report: every diagnostic of the content and of what its kinds require.
    pub fn report(&self) -> &Report {
        &self.cx.report
    }

    /// Where the content came from.
    pub fn root(&self) -> &ContentRoot {
        &self.root
    }

    /// The checked content, with what the `requested` kinds require checked even where the content
    /// offers none of it; any error refuses, with every diagnostic located.
    pub fn checked(&self, requested: &[&dyn Kind]) -> Result<&Checked> {
        let mut errors: Vec<Diagnostic> = self
            .cx
            .report
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect();
        let mut extra = Vec::new();
        for k in requested {
            let reqs = k.requires();
            // Offered kinds were checked when the project opened.
            let seen = self.registry.kinds().any(|r| r.name() == k.name())
                && (k.requires_always() || reqs.touched_by(&self.cx.lib));
            if !seen {
                blockprint_content::check::requires::check(
                    &self.cx.lib,
                    k.name(),
                    &reqs,
                    true,
                    &mut extra,
                );
            }
        }
        errors.extend(extra.into_iter().filter(Diagnostic::is_error));
        if errors.is_empty() {
            return Ok(&self.cx);
        }
        diag::sort(&mut errors);
        Err(Error::Content {
            count: errors.len(),
            root: self.root.label(),
            rendered: diag::render_text(&errors, &self.cx.lib.sources),
            diagnostics: errors,
        })
    }

    /// The checked content itself, for a caller that keeps it without the project (as
    /// [`Project::checked`] with nothing requested).
    pub fn into_checked(self) -> Result<Checked> {
        self.checked(&[])?;
        Ok(self.cx)
    }

    /// [`Project::checked`] for the kinds named `names` (each must be registered).
    pub fn checked_names(&self, names: &[&str]) -> Result<&Checked> {
        let mut kinds = Vec::new();
        for n in names {
            kinds.push(self.def(n)?.base());
        }
        self.checked(&kinds)
    }

    /// The one typesetting engine of this project, made on first use.
    pub fn engine(&self) -> Result<&Engine> {
        if let Some(e) = self.engine.get() {
            return Ok(e);
        }
        let engine = Arc::new(Engine::with_fonts(
            self.templates.clone(),
            titles(&self.cx.lib),
            self.fonts.clone(),
        )?);
        Ok(self.engine.get_or_init(|| engine))
    }

    /// The registered kind named `name`, or a usage error listing the kinds.
    pub fn def(&self, name: &str) -> Result<&dyn KindDef> {
        self.registry.def(name).ok_or_else(|| {
            Error::from(AppError::NoKind {
                name: name.to_owned(),
                kinds: self.registry.kinds().map(|k| k.name().to_owned()).collect(),
            })
        })
    }

    /// Make kinds by name, each with its options (JSON, read over the kind's defaults), on one content
    /// check and one engine: into `output.out/<folder>/`. Returns what each kind's run did, in order.
    pub fn make(
        &self,
        kinds: &[(&str, Value)],
        batch: &Batch,
        output: &Output,
        sink: &dyn Sink,
    ) -> Result<Vec<driver::Report>> {
        let mut defs = Vec::new();
        for (name, _) in kinds {
            defs.push(self.def(name)?);
        }
        let bases: Vec<&dyn Kind> = defs.iter().map(|d| d.base()).collect();
        let cx = self.checked(&bases)?;
        let mut jobs = Vec::new();
        for (def, (_, options)) in defs.iter().zip(kinds) {
            let kind = def.configure(cx, options)?;
            // A configured kind may read more than its base (random NPCs need more than stock ones).
            let mut extra = Vec::new();
            blockprint_content::check::requires::check(
                &cx.lib,
                kind.name(),
                &kind.requires(),
                true,
                &mut extra,
            );
            extra.retain(Diagnostic::is_error);
            if !extra.is_empty() {
                return Err(Error::Content {
                    count: extra.len(),
                    root: self.root.label(),
                    rendered: diag::render_text(&extra, &cx.lib.sources),
                    diagnostics: extra,
                });
            }
            let formats = formats(kind.as_ref(), &output.formats)?;
            kind.check_formats(&formats)?;
            let req = self.request(kind.as_ref(), batch, output, sink)?;
            if kind.count(cx, &req)? == 0 {
                return Err(AppError::NothingToMake {
                    kind: kind.name().to_owned(),
                }
                .into());
            }
            jobs.push((*def, options, kind, req, formats));
        }
        let engine = self.engine()?;
        let mut reports = Vec::new();
        for (def, options, kind, req, formats) in jobs {
            reports.push(driver::run(
                kind.as_ref(),
                cx,
                &req,
                engine,
                &driver_options(output, formats),
                sink,
            )?);
            def.after(cx, options, engine, &req, output.quiet, sink)?;
        }
        Ok(reports)
    }

    /// Every kind the content offers, as `build` makes it, in registration order; one seed for every
    /// kind that rolls, so one printed seed makes the whole build again. When kinds fail, the others
    /// are made all the same; each failure but the first is sent to `sink`, with a line naming them all,
    /// and the first is returned.
    pub fn build(&self, batch: &Batch, output: &Output, sink: &dyn Sink) -> Result<()> {
        self.build_with(batch, &[], output, sink)
    }

    /// [`Project::build`] with options for some kinds (JSON by kind name, read over the kind's defaults,
    /// as [`Project::make`] takes them: `build --year 1980` gives the case kind its year); every other
    /// kind is made as `build` makes it.
    pub fn build_with(
        &self,
        batch: &Batch,
        options: &[(&str, Value)],
        output: &Output,
        sink: &dyn Sink,
    ) -> Result<()> {
        let cx = self.checked(&[])?;
        let engine = self.engine()?;
        let batch = &Batch {
            seed: Some(self.build_seed(batch, output, sink)),
            ..batch.clone()
        };
        let mut kinds: Vec<Box<dyn Kind + '_>> = Vec::new();
        for def in self.registry.defs() {
            kinds.push(match options.iter().find(|(n, _)| *n == def.info().name) {
                Some((_, o)) => def.configure(cx, o)?,
                None => Box::new(def.base()),
            });
        }
        for (name, _) in options {
            self.def(name)?;
        }
        let mut runs = Vec::new();
        for kind in kinds.iter().map(|k| k.as_ref()) {
            // `build --paper a5` makes every kind that prints on A5 (the SRD, the tables) and says which
            // it left out; `case --paper a5` alone is refused by `request`.
            if !kind.papers().contains(&output.paper) {
                let sizes: Vec<&str> = kind.papers().iter().map(|p| p.name()).collect();
                if !output.quiet {
                    sink.event(Event::Skipped(format!(
                        "skipped {}: it prints on {}, not {}",
                        kind.name(),
                        sizes.join(" or "),
                        output.paper.name()
                    )));
                }
                continue;
            }
            let offered = kind.requires_always() || kind.requires().touched_by(&cx.lib);
            let req = self.request(kind, batch, output, sink)?;
            let count = if offered { kind.count(cx, &req) } else { Ok(0) };
            // A kind that cannot say what it makes has failed; the others are made all the same.
            let count = match count {
                Ok(n) => n,
                Err(e) => {
                    runs.push((kind, req, Some(e)));
                    continue;
                }
            };
            if count == 0 {
                if !output.quiet {
                    sink.event(Event::Skipped(format!(
                        "skipped {}: the content offers nothing for it",
                        kind.name()
                    )));
                }
                continue;
            }
            runs.push((kind, req, None));
        }
        // Kinds write into folders of their own, so two run at once: the SRD's one long compile no
        // longer leaves a core idle while the small kinds wait behind it. Each kind's files are what it
        // makes alone.
        let jobs = output
            .jobs
            .map_or_else(driver::default_jobs, |j| j as usize);
        let workers = jobs.clamp(1, 2);
        // The threads are shared between the two: each kind's items typeset on its worker's share of
        // `jobs` (one each on two cores), not on `jobs` threads of its own. Two kinds on two threads each
        // ran four compiles on two cores, which cost about 0.1 s more CPU a warm build (8 alternating
        // runs, issue 36) and 30 to 50 MB more memory, for no less wall time.
        let share = |w: usize| (jobs / workers + usize::from(w < jobs % workers)).max(1);
        let next = std::sync::atomic::AtomicUsize::new(0);
        // One kind's failure never stops the others: every kind is made, and the failures are reported
        // at the end in registration order (the first is the error returned, and its exit code the run's).
        let failed: std::sync::Mutex<Vec<(usize, Error)>> = std::sync::Mutex::new(Vec::new());
        let mut early = Vec::new();
        let runs: Vec<(&dyn Kind, Request)> = runs
            .into_iter()
            .enumerate()
            .map(|(i, (kind, req, e))| {
                if let Some(e) = e {
                    early.push((i, e));
                }
                (kind, req)
            })
            .collect();
        std::thread::scope(|scope| {
            for w in 0..workers {
                let (next, runs, early, failed) = (&next, &runs, &early, &failed);
                scope.spawn(move || {
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((kind, req)) = runs.get(i) else {
                            break;
                        };
                        if early.iter().any(|(j, _)| *j == i) {
                            continue;
                        }
                        let opts = driver::Options {
                            jobs: share(w),
                            ..driver_options(output, kind.formats().to_vec())
                        };
                        if let Err(e) = driver::run(kind, cx, req, engine, &opts, sink)
                            && let Ok(mut f) = failed.lock()
                        {
                            f.push((i, e));
                        }
                    }
                });
            }
        });
        let mut failed = failed.into_inner().map_err(|_| Bug::Panicked {
            what: "a build worker",
        })?;
        failed.extend(early);
        failed.sort_by_key(|(i, _)| *i);
        let mut failed = failed.into_iter();
        let Some((first_i, first)) = failed.next() else {
            return Ok(());
        };
        // The summary names each failed kind with the first line of its error; every error but the
        // first is printed in full before it, and the first after it, as the run's error.
        let mut lines = vec![summary_line(runs[first_i].0, &first)];
        for (i, e) in failed {
            sink.event(Event::Failed(e.to_string()));
            lines.push(summary_line(runs[i].0, &e));
        }
        if lines.len() > 1 || runs.len() > 1 {
            sink.event(Event::Note(format!(
                "build made {} of {} kinds; {} failed (the error below is the first):\n{}",
                runs.len() - lines.len(),
                runs.len(),
                lines.len(),
                lines.join("\n")
            )));
        }
        Err(first)
    }

    /// The seed of a build: the given one, else the seed of the first batch already in the output
    /// folder (a rerun continues it), else a fresh one, announced.
    fn build_seed(&self, batch: &Batch, output: &Output, sink: &dyn Sink) -> u64 {
        if let Some(s) = batch.seed {
            return s;
        }
        for kind in self.registry.kinds().filter(|k| k.rolls()) {
            let dir = output.out.join(kind.folder());
            if let Some(s) = manifest::existing_batch(&dir).and_then(|b| b["seed"].as_u64()) {
                if !output.quiet {
                    sink.event(Event::Seed(continued_seed(s, &dir)));
                }
                return s;
            }
        }
        let s = blockprint_content::roll::fresh_seed();
        sink.event(Event::Seed(fresh_seed(s, "this build")));
        s
    }

    /// The request for a kind: the given seed, the seed of the batch already in the kind's folder (so a
    /// rerun without `--seed` resumes it), or a fresh one announced to `sink`.
    pub fn request(
        &self,
        kind: &dyn Kind,
        batch: &Batch,
        output: &Output,
        sink: &dyn Sink,
    ) -> Result<Request> {
        let count = batch.count;
        let last = u64::from(batch.first_number) + u64::from(count.max(1)) - 1;
        if kind.rolls() && last > u64::from(MAX_NUMBER) {
            return Err(AppError::PastHighestNumber {
                first: batch.first_number,
                count,
                last,
                max: MAX_NUMBER,
            }
            .into());
        }
        if !kind.papers().contains(&output.paper) {
            return Err(AppError::Paper {
                kind: kind.name().to_owned(),
                papers: kind.papers().iter().map(|p| p.name()).collect(),
                given: output.paper.name(),
            }
            .into());
        }
        let seed = match batch.seed {
            Some(s) => s,
            None if !kind.rolls() => 0,
            None => {
                let dir = output.out.join(kind.folder());
                match manifest::existing_batch(&dir).and_then(|b| b["seed"].as_u64()) {
                    Some(s) => {
                        if !output.quiet {
                            sink.event(Event::Seed(continued_seed(s, &dir)));
                        }
                        s
                    }
                    None => {
                        let s = blockprint_content::roll::fresh_seed();
                        sink.event(Event::Seed(fresh_seed(s, "this batch")));
                        s
                    }
                }
            }
        };
        Ok(Request {
            seed,
            paper: output.paper,
            first: batch.first_number,
            count,
        })
    }
}

/// Table ids and their titles, as the engine's Markdown templates link them.
fn titles(lib: &Library) -> BTreeMap<String, String> {
    lib.tables
        .iter()
        .map(|t| (t.id.value.clone(), t.title.clone()))
        .collect()
}

/// The same template files, each with the same text from the same place.
fn same_templates(a: &Templates, b: &Templates) -> bool {
    a.files.len() == b.files.len()
        && a.files.iter().zip(&b.files).all(|((na, fa), (nb, fb))| {
            na == nb && fa.text == fb.text && fa.builtin == fb.builtin && fa.shown_as == fb.shown_as
        })
}

/// The formats to write: the requested ones (each one the kind makes), or all the kind makes.
fn formats(kind: &dyn Kind, requested: &[Format]) -> Result<Vec<Format>> {
    if requested.is_empty() {
        return Ok(kind.formats().to_vec());
    }
    let unsupported: Vec<Format> = requested
        .iter()
        .copied()
        .filter(|f| !kind.formats().contains(f))
        .collect();
    if !unsupported.is_empty() {
        return Err(AppError::Formats {
            kind: kind.name().to_owned(),
            makes: kind.formats().to_vec(),
            not: unsupported,
        }
        .into());
    }
    Ok(requested.to_vec())
}

/// `pdf, md, json`.
pub fn format_list(formats: &[Format]) -> String {
    formats
        .iter()
        .map(|f| {
            serde_json::to_value(f)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn driver_options(output: &Output, formats: Vec<Format>) -> driver::Options {
    let jobs = output
        .jobs
        .map_or_else(driver::default_jobs, |j| j as usize);
    driver::share_cores(jobs);
    driver::Options {
        out: output.out.clone(),
        formats,
        jobs,
        quiet: output.quiet,
        force: output.force,
        command: output.command.clone(),
    }
}

/// One failed kind in `build`'s summary: its name and the first line of its error.
fn summary_line(kind: &dyn Kind, e: &Error) -> String {
    let text = e.to_string();
    let first = text.lines().next().unwrap_or_default();
    let first = first.strip_prefix("error: ").unwrap_or(first);
    format!("  {}: {first}", kind.name())
}
