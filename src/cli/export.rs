//! `blockprint export --to foundry|roll20|csv [IDS…]`: the export kind for one target, over every table
//! and deck or the ones named (and the tables they reference), through the same driver as `make`, into
//! `--out/export/<target>/`.

use super::{ContentArg, OutputArgs};
use crate::error::{Error, Result};
use crate::generators::export::{ExportKind, Target};
use crate::generators::{Kind, Request};
use crate::render::driver;
use crate::render::export::foundry::Version;

/// What to export for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum To {
    /// Foundry VTT: RollTable JSON per table, Cards JSON per deck.
    Foundry,
    /// Roll20: chat commands for the TableExport API script.
    Roll20,
    /// CSV per table, tables.csv with every table, and the pipe form.
    Csv,
}

pub(super) fn run(
    to: To,
    foundry_version: Option<u8>,
    ids: &[String],
    content: &ContentArg,
    output: &OutputArgs,
) -> Result<()> {
    let target = match (to, foundry_version) {
        (To::Foundry, None | Some(13)) => Target::Foundry(Version::V13),
        (To::Foundry, Some(12)) => Target::Foundry(Version::V12),
        (To::Foundry, Some(v)) => {
            return Err(Error::Usage(format!(
                "--foundry-version {v}: give 12 or 13"
            )));
        }
        (_, Some(_)) => {
            return Err(Error::Usage(
                "--foundry-version applies to --to foundry only; leave it out".into(),
            ));
        }
        (To::Roll20, None) => Target::Roll20,
        (To::Csv, None) => Target::Csv,
    };
    let (templates, registry) = super::kinds(content)?;
    let root = super::root(content);
    let cx = super::checked(&root, &registry, &[])?;
    let registered = ExportKind::registered(target);
    let kind = if ids.is_empty() {
        registered.clone()
    } else {
        registered.only(selection(&cx.lib, target, ids, output.quiet)?)
    };
    let req = Request {
        seed: 0,
        paper: output.paper,
        first: 1,
        count: 1,
        year: 1976,
        year_cases: 1,
    };
    if kind.count(&cx, &req)? == 0 {
        return Err(Error::Rules(format!(
            "the content in {} has no tables{} to export",
            cx.source,
            if matches!(target, Target::Foundry(_)) {
                " or decks"
            } else {
                ""
            }
        )));
    }
    let engine = super::make::engine(templates, &cx)?;
    driver::run(
        &kind,
        &cx,
        &req,
        &engine,
        &super::make::options(output, kind.formats().to_vec()),
    )
    .map(drop)
}

/// The ids to export: each named table or deck, then every table a named table references (directly or
/// through others), so no exported link points at a table left behind.
fn selection(
    lib: &crate::content::Library,
    target: Target,
    ids: &[String],
    quiet: bool,
) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for id in ids {
        if lib.table(id).is_some() {
        } else if lib.deck(id).is_some() {
            if !matches!(target, Target::Foundry(_)) {
                return Err(Error::Usage(format!(
                    "`{id}` is a deck; decks export to Foundry only (--to foundry)"
                )));
            }
        } else {
            let near = lib
                .tables
                .iter()
                .map(|t| &t.id.value)
                .chain(lib.decks.iter().map(|d| &d.id.value))
                .find(|t| t.ends_with(id.as_str()) || t.contains(id.as_str()));
            let hint = match near {
                Some(n) => {
                    format!("did you mean `{n}`? (`blockprint tables` lists every table id)")
                }
                None => "`blockprint tables` lists every table id".into(),
            };
            return Err(Error::Usage(format!(
                "`{id}` names no table or deck in the content\n  = help: {hint}"
            )));
        }
        if !out.contains(id) {
            out.push(id.clone());
        }
    }
    let mut k = 0;
    while k < out.len() {
        let referenced: Vec<String> = lib
            .table(&out[k])
            .map(|t| {
                t.rows
                    .iter()
                    .flat_map(|r| crate::render::export::references(&r.result.value))
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        for r in referenced {
            if !out.contains(&r) {
                if !quiet {
                    eprintln!("also exporting `{r}`: `{}` refers to it", out[k]);
                }
                out.push(r);
            }
        }
        k += 1;
    }
    Ok(out)
}
