//! `blockprint check`: load and check content; diagnostics and a summary line out.

use crate::content::ContentRoot;
use crate::diag;

use super::{Format, Status};

/// Whether to print JSON: `--json`, or the old spelling `--format json|text`, which still works for one
/// release and says on stderr what to write instead.
pub(super) fn json_flag(json: bool, format: Option<Format>) -> bool {
    match format {
        None => json,
        Some(Format::Json) => {
            eprintln!("warning: --format json is deprecated; use --json");
            true
        }
        Some(Format::Text) => {
            eprintln!(
                "warning: --format text is deprecated; text is what check prints without --json"
            );
            false
        }
    }
}

/// `blockprint check`: the project's report (the content's diagnostics and what every kind it offers
/// requires), as text or JSON.
pub(super) fn run(content: &super::ContentArg, json: bool, verbose: bool) -> Status {
    let label = ContentRoot::from_option(content.content.clone()).label();
    let project = match crate::project::Project::open(
        content.content.as_deref(),
        content.templates.as_deref(),
    ) {
        Ok(p) => p,
        Err(crate::error::Error::Io { path, source }) if path.as_os_str() == label.as_str() => {
            eprintln!("error: cannot read {label}: {source}");
            return Status::Io;
        }
        Err(e) => {
            eprintln!("{}", super::shown(&e));
            return Status::from_exit(e.exit_code());
        }
    };
    let (lib, report) = (project.lib(), project.report());
    if json {
        let mut v = diag::render_json(&report.diagnostics);
        v["summary"] = serde_json::json!({
            "tables": report.stats.tables,
            "outcomes": report.stats.outcomes,
            "lookups": report.stats.lookups,
            "decks": report.stats.decks,
            "npcs": report.stats.npcs,
            "editorial": report.editorial,
        });
        if super::print_json(&v) != Status::Ok {
            return Status::Io;
        }
    } else {
        outp!(
            "{}",
            diag::render_text_styled(&report.diagnostics, &lib.sources, super::term::stdout())
        );
        let s = &report.stats;
        outln!(
            "checked {} ({} covered), {}, {}, {} in {}: {}, {}, {}{}{}",
            count(s.tables, "table"),
            count(s.outcomes, "outcome"),
            count(s.lookups, "lookup"),
            count(s.decks, "deck"),
            count(s.npcs, "NPC"),
            label,
            count(report.errors(), "error"),
            count(report.warnings(), "warning"),
            match report.notes() {
                0 => String::new(),
                n => format!("{}, ", count(n, "note")),
            },
            count(report.editorial.len(), "editorial fill"),
            if verbose || report.editorial.is_empty() {
                ""
            } else {
                " (--verbose lists them)"
            }
        );
        if verbose {
            for f in &report.editorial {
                let at = if f.at.is_empty() {
                    String::new()
                } else {
                    format!(" {}", f.at)
                };
                let result = if f.result.is_empty() {
                    String::new()
                } else {
                    format!(" = {}", f.result)
                };
                outln!(
                    "  editorial {}{at}{result} ({}:{}): {}",
                    f.id,
                    f.file,
                    f.line,
                    f.reason
                );
            }
        }
    }
    if report.errors() > 0 {
        Status::Rules
    } else {
        Status::Ok
    }
}

/// `1 table`, `2 tables`.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
