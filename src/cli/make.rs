//! `blockprint case`, `srd`, `make KIND` and `build`: one loop for every document kind. Options in; the
//! kind's files under `--out/<folder>/` out, through the driver in [`crate::render::driver`].

use std::collections::BTreeMap;

use super::{BatchArgs, ContentArg, OutputArgs};
use crate::error::{Error, Result};
use crate::generators::{Checked, Kind, Request};
use crate::render::{Engine, Format, driver, manifest};

/// Make one kind by name.
pub(super) fn one(
    name: &str,
    content: &ContentArg,
    batch: &BatchArgs,
    output: &OutputArgs,
    count: u32,
    formats: &[Format],
) -> Result<()> {
    many(&[name], content, batch, output, count, formats)
}

/// Make several kinds by name (`kit all`), on one content check and one engine.
pub(super) fn many(
    names: &[&str],
    content: &ContentArg,
    batch: &BatchArgs,
    output: &OutputArgs,
    count: u32,
    formats: &[Format],
) -> Result<()> {
    let (templates, registry) = super::kinds(content)?;
    let mut kinds = Vec::new();
    for name in names {
        kinds.push(registry.get(name).ok_or_else(|| {
            let names: Vec<&str> = registry.kinds().map(|k| k.name()).collect();
            Error::Usage(format!(
                "there is no document kind `{name}`; the kinds are: {}",
                names.join(", ")
            ))
        })?);
    }
    let root = super::root(content);
    let cx = super::checked(&root, &registry, names)?;
    let mut jobs = Vec::new();
    for kind in kinds {
        let name = kind.name();
        let req = request(kind, batch, output, count)?;
        if kind.count(&cx, &req)? == 0 {
            return Err(Error::Rules(format!(
                "the content offers nothing for `{name}` to make"
            )));
        }
        let formats = if formats.is_empty() {
            kind.formats().to_vec()
        } else {
            let unsupported: Vec<&Format> = formats
                .iter()
                .filter(|f| !kind.formats().contains(f))
                .collect();
            if !unsupported.is_empty() {
                return Err(Error::Usage(format!(
                    "`{name}` makes {}, not {}",
                    format_list(kind.formats()),
                    format_list(&unsupported.into_iter().copied().collect::<Vec<_>>())
                )));
            }
            formats.to_vec()
        };
        jobs.push((kind, req, formats));
    }
    let engine = engine(templates, &cx)?;
    for (kind, req, formats) in jobs {
        driver::run(kind, &cx, &req, &engine, &options(output, formats))?;
    }
    Ok(())
}

/// The seed of a build: `--seed`, else the seed of the first batch already in the output folder (a rerun
/// continues it), else a fresh one, printed.
fn build_seed(
    registry: &crate::generators::Registry,
    batch: &BatchArgs,
    output: &OutputArgs,
) -> u64 {
    if let Some(s) = batch.seed {
        return s;
    }
    for kind in registry.kinds().filter(|k| k.rolls()) {
        let dir = output.out.join(kind.folder());
        if let Some(s) = manifest::existing_batch(&dir).and_then(|b| b["seed"].as_u64()) {
            if !output.quiet {
                eprintln!(
                    "seed: {s} (continuing the batch in {}; pass --seed to start another)",
                    dir.display()
                );
            }
            return s;
        }
    }
    let s = crate::roll::fresh_seed();
    eprintln!("seed: {s} (regenerate this build with --seed {s})");
    s
}

/// Every kind the content offers, in registration order.
pub(super) fn build(
    content: &ContentArg,
    batch: &BatchArgs,
    output: &OutputArgs,
    count: u32,
) -> Result<()> {
    let (templates, registry) = super::kinds(content)?;
    let root = super::root(content);
    let cx = super::checked(&root, &registry, &[])?;
    let engine = engine(templates, &cx)?;
    // One batch seed for every kind that rolls (the cases, the seeded chase track), so one printed seed
    // makes the whole build again.
    let batch = &BatchArgs {
        seed: Some(build_seed(&registry, batch, output)),
        ..*batch
    };
    let mut runs = Vec::new();
    for kind in registry.kinds() {
        // `build --paper a5` makes every kind that prints on A5 (the SRD, the tables) and says which it
        // left out; `case --paper a5` alone is refused by `request`.
        if !kind.papers().contains(&output.paper) {
            let sizes: Vec<&str> = kind.papers().iter().map(|p| p.name()).collect();
            eprintln!(
                "skipped {}: it prints on {}, not {}",
                kind.name(),
                sizes.join(" or "),
                output.paper.name()
            );
            continue;
        }
        let offered = kind.requires_always() || kind.requires().touched_by(&cx.lib);
        let req = request(kind, batch, output, count)?;
        if !offered || kind.count(&cx, &req)? == 0 {
            if !output.quiet {
                eprintln!("skipped {}: the content offers nothing for it", kind.name());
            }
            continue;
        }
        runs.push((kind, req));
    }
    // Kinds write into folders of their own, so two run at once: the SRD's one long compile no longer
    // leaves a core idle while the small kinds wait behind it. Each kind's files are what it makes alone.
    let opts = options(output, Vec::new());
    let workers = opts.jobs.clamp(1, 2);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failed: std::sync::Mutex<Option<Error>> = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let stop = failed.lock().map_or(true, |f| f.is_some());
                    let Some((kind, req)) = runs.get(i).filter(|_| !stop) else {
                        break;
                    };
                    let opts = options(output, kind.formats().to_vec());
                    if let Err(e) = driver::run(*kind, &cx, req, &engine, &opts)
                        && let Ok(mut f) = failed.lock()
                    {
                        f.get_or_insert(e);
                    }
                }
            });
        }
    });
    match failed.into_inner() {
        Ok(Some(e)) => Err(e),
        Ok(None) => Ok(()),
        Err(_) => Err(Error::Bug("a build worker panicked".into())),
    }
}

/// `make --list`.
pub(super) fn list(content: &ContentArg) -> Result<()> {
    let (_, registry) = super::kinds(content)?;
    for k in registry.kinds() {
        outln!(
            "{:<10} {} ({}; into <out>/{}/)",
            k.name(),
            k.about(),
            format_list(k.formats()),
            k.folder()
        );
    }
    Ok(())
}

fn format_list(formats: &[Format]) -> String {
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

pub(super) fn engine(templates: crate::render::Templates, cx: &Checked) -> Result<Engine> {
    let titles: BTreeMap<String, String> = cx
        .lib
        .tables
        .iter()
        .map(|t| (t.id.value.clone(), t.title.clone()))
        .collect();
    Engine::new(templates, titles)
}

/// The request for a kind: the given seed, the seed of the batch already in the kind's folder (so a
/// rerun without `--seed` resumes it), or a fresh one announced on stderr.
pub(super) fn request(
    kind: &dyn Kind,
    batch: &BatchArgs,
    output: &OutputArgs,
    count: u32,
) -> Result<Request> {
    let last = u64::from(batch.first_number) + u64::from(count.max(1)) - 1;
    if kind.rolls() && last > u64::from(super::MAX_NUMBER) {
        return Err(Error::Usage(format!(
            "--first-number {} with --count {count} would number items up to {last}, past {max}, the highest number \
             --first-number takes (each item prints `--first-number N` to make it again)\n  = help: lower --first-number \
             to {} or less, or --count",
            batch.first_number,
            u64::from(super::MAX_NUMBER) + 1 - u64::from(count.max(1)),
            max = super::MAX_NUMBER,
        )));
    }
    if !kind.papers().contains(&output.paper) {
        let sizes: Vec<&str> = kind.papers().iter().map(|p| p.name()).collect();
        return Err(Error::Usage(format!(
            "`{}` prints on {}, not {} (--paper)",
            kind.name(),
            sizes.join(" or "),
            output.paper.name()
        )));
    }
    let seed = match batch.seed {
        Some(s) => s,
        None if !kind.rolls() => 0,
        None => {
            let dir = output.out.join(kind.folder());
            match manifest::existing_batch(&dir).and_then(|b| b["seed"].as_u64()) {
                Some(s) => {
                    if !output.quiet {
                        eprintln!(
                            "seed: {s} (continuing the batch in {}; pass --seed to start another)",
                            dir.display()
                        );
                    }
                    s
                }
                None => {
                    let s = crate::roll::fresh_seed();
                    eprintln!("seed: {s} (regenerate this batch with --seed {s})");
                    s
                }
            }
        }
    };
    let last = batch.first_number.saturating_add(count - 1);
    let year_cases = match batch.year_cases {
        Some(n) if n < last && kind.rolls() => {
            return Err(Error::Usage(format!(
                "--year-cases {n} is less than the last case number of this batch ({last}); give at least {last}"
            )));
        }
        Some(n) => n,
        None => crate::roll::case::CaseRequest::default_year_cases(batch.first_number, count),
    };
    Ok(Request {
        seed,
        paper: output.paper,
        first: batch.first_number,
        count,
        year: batch.year,
        year_cases,
    })
}

pub(super) fn options(output: &OutputArgs, formats: Vec<Format>) -> driver::Options {
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
        command: command_line(),
    }
}

/// The command line as typed (arguments with spaces quoted), for the manifest. `--out` is left out: the
/// manifest lives in that folder, and the same run into another folder writes the same manifest.
fn command_line() -> String {
    let mut words = vec!["blockprint".to_owned()];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--out" {
            args.next();
            continue;
        }
        if a.starts_with("--out=") {
            continue;
        }
        if a.is_empty()
            || a.chars()
                .any(|c| c.is_whitespace() || c == '\'' || c == '"')
        {
            words.push(format!("'{}'", a.replace('\'', "'\\''")));
        } else {
            words.push(a);
        }
    }
    words.join(" ")
}
