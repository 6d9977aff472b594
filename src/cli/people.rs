//! `blockprint detective` and `blockprint npc`: options in, a configured detective or NPC kind run
//! through the same driver as every other kind (into `--out/detectives/` and `--out/npcs/`).

use super::{BatchArgs, ContentArg, OutputArgs};
use crate::error::{Error, Result};
use crate::generators::Kind;
use crate::generators::detective::DetectiveKind;
use crate::generators::npc::NpcKind;
use crate::render::{Format, driver};
use crate::roll::npc::{NpcOptions, Role};

/// Seed and numbering of a batch of people.
#[derive(Debug, clap::Args)]
pub struct PeopleBatch {
    /// Batch seed. Without it, a run continues the batch already in the output folder, or starts a new
    /// one with a random seed that it prints. Item N of a batch is the same whether made alone or with others.
    #[arg(long, value_parser = super::seed_parser())]
    pub seed: Option<u64>,
    /// Number of the first item: `--first-number 501 --count 500` makes exactly the second half of
    /// `--count 1000`, so a big batch can be split across machines.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=i64::from(super::MAX_NUMBER)))]
    pub first_number: u32,
}

impl PeopleBatch {
    fn args(&self) -> BatchArgs {
        BatchArgs {
            seed: self.seed,
            year: 1976,
            first_number: self.first_number,
            year_cases: None,
        }
    }
}

/// `blockprint detective`.
pub(super) fn detective(
    content: &ContentArg,
    batch: &PeopleBatch,
    output: &OutputArgs,
    count: u32,
    class: Option<&str>,
    fillable: bool,
    formats: &[Format],
) -> Result<()> {
    if fillable && !formats.contains(&Format::Pdf) {
        return Err(Error::Usage(
            "--fillable writes PDF forms: add pdf to --format (or leave --format out)".into(),
        ));
    }
    run("detective", content, batch, output, count, formats, |cx| {
        let class = class
            .map(|c| crate::roll::detective::find_class(&cx.lib, c).map_err(Error::Usage))
            .transpose()?;
        Ok(Box::new(DetectiveKind::batch(class, fillable)))
    })
}

/// `blockprint npc`.
#[allow(clippy::too_many_arguments)]
pub(super) fn npc(
    content: &ContentArg,
    batch: &PeopleBatch,
    output: &OutputArgs,
    count: u32,
    stock: bool,
    role: Option<Role>,
    class: Option<&str>,
    level: Option<u32>,
    formats: &[Format],
) -> Result<()> {
    if level == Some(0) && class.is_some() {
        return Err(Error::Usage(
            "--level 0 makes a run-of-the-mill NPC, who has no class; leave out --class or give a level of 1 or more".into(),
        ));
    }
    run("npc", content, batch, output, count, formats, |cx| {
        if stock {
            if cx.lib.npcs.is_empty() {
                return Err(Error::Rules(
                    "the content has no stock NPCs (`[[npc]]`)".into(),
                ));
            }
            return Ok(Box::new(NpcKind::stock()));
        }
        let class = class
            .map(|c| crate::roll::detective::find_class(&cx.lib, c).map_err(Error::Usage))
            .transpose()?;
        Ok(Box::new(NpcKind::random(NpcOptions { role, class, level })))
    })
}

/// Check the content (with the kind's requirements always), build the kind from the checked content,
/// and run it.
fn run(
    name: &str,
    content: &ContentArg,
    batch: &PeopleBatch,
    output: &OutputArgs,
    count: u32,
    formats: &[Format],
    make: impl FnOnce(&crate::generators::Checked) -> Result<Box<dyn Kind>>,
) -> Result<()> {
    let (templates, registry) = super::kinds(content)?;
    let root = super::root(content);
    // Asking for the registered kind of the same name checks its requirements even on content that lacks
    // all of them; the configured kind's own (random NPCs need more than stock ones) are checked below.
    let cx = super::checked(&root, &registry, &[name])?;
    let kind = make(&cx)?;
    let extra = {
        let mut v = Vec::new();
        crate::check::requires::check(&cx.lib, kind.name(), &kind.requires(), true, &mut v);
        v
    };
    if !extra.is_empty() {
        return Err(Error::Content {
            count: extra.len(),
            root: root.label(),
            rendered: crate::diag::render_text(&extra, &cx.lib.sources),
            diagnostics: extra,
        });
    }
    let req = super::make::request(kind.as_ref(), &batch.args(), output, count)?;
    let engine = super::make::engine(templates, &cx)?;
    let unsupported: Vec<Format> = formats
        .iter()
        .copied()
        .filter(|f| !kind.formats().contains(f))
        .collect();
    if !unsupported.is_empty() {
        let names = |fs: &[Format]| {
            fs.iter()
                .map(|f| {
                    serde_json::to_value(f)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_owned))
                        .unwrap_or_default()
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(Error::Usage(format!(
            "`{}` makes {}, not {}",
            kind.name(),
            names(kind.formats()),
            names(&unsupported)
        )));
    }
    driver::run(
        kind.as_ref(),
        &cx,
        &req,
        &engine,
        &super::make::options(output, formats.to_vec()),
    )
    .map(drop)
}
