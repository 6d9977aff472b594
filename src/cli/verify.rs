//! `blockprint verify-odds [IDS]`: every `[[claimed_odds]]` table of the content (the odds a source prints)
//! worked out exactly by the dice engine, rounded as the source rounds, and every printed cell that
//! disagrees listed at its place in the content file. Text by default, `--json` for every cell.
//!
//! Exit status: 0 with the report, whatever it finds; with `--strict`, 1 when a cell disagrees. Content
//! that does not check out, or holds no claimed tables, exits 1; an unknown id 2.

use serde::Serialize;

use super::Status;
use crate::check::claims::{self, Verified};
use crate::content::ContentRoot;

#[derive(Serialize)]
struct Out<'a> {
    content_version: &'a str,
    tables: Vec<Verified>,
    cells: usize,
    agree: usize,
    disagree: usize,
}

pub(super) fn run(root: &ContentRoot, ids: &[String], json: bool, strict: bool) -> Status {
    let (lib, _report) = match super::checked_tables(root) {
        Ok(x) => x,
        Err(s) => return s,
    };
    if lib.claimed_odds.is_empty() {
        eprintln!(
            "error: {} has no `[[claimed_odds]]` tables to verify\n  = help: add one (content/README.md, section \"Kits\", shows the keys), or run without --content to check the built-in ones",
            root.label()
        );
        return Status::Rules;
    }
    for id in ids {
        if !lib.claimed_odds.iter().any(|c| &c.id.value == id) {
            let known: Vec<&str> = lib
                .claimed_odds
                .iter()
                .map(|c| c.id.value.as_str())
                .collect();
            eprintln!(
                "error: there is no claimed odds table `{id}`; the content has: {}",
                known.join(", ")
            );
            return Status::Io;
        }
    }
    let mut tables = Vec::new();
    for c in &lib.claimed_odds {
        if !ids.is_empty() && !ids.contains(&c.id.value) {
            continue;
        }
        match claims::verify(&lib, c) {
            Some(v) => tables.push(v),
            None => {
                // The checker passed this claim, so it reads; not reading now is a bug.
                eprintln!(
                    "error: internal: claimed odds `{}` checked but cannot be verified",
                    c.id.value
                );
                return Status::Rules;
            }
        }
    }
    let cells = tables.iter().map(|t| t.cells.len()).sum();
    let agree = tables.iter().map(|t| t.agree).sum();
    let out = Out {
        content_version: &lib.version,
        cells,
        agree,
        disagree: cells - agree,
        tables,
    };
    let status = if json {
        super::print_json(&out)
    } else {
        outp!("{}", text(&out));
        Status::Ok
    };
    if status == Status::Ok && strict && out.disagree > 0 {
        eprintln!(
            "error: {} printed cell{} disagree{} with the exact odds (--strict)",
            out.disagree,
            if out.disagree == 1 { "" } else { "s" },
            if out.disagree == 1 { "s" } else { "" }
        );
        return Status::Rules;
    }
    status
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The text report: per table, its summary and each disagreeing cell located in the content file.
fn text(out: &Out) -> String {
    let mut s = String::new();
    for t in &out.tables {
        s.push_str(&format!("{}: {}\n", t.id, t.title));
        match &t.printed_in {
            Some(p) => s.push_str(&format!("  printed in {p}; {}\n", t.rounded)),
            None => s.push_str(&format!("  {}\n", t.rounded)),
        }
        if t.disagree == 0 {
            s.push_str(&format!(
                "  {}: every one agrees with the exact odds\n",
                plural(t.cells.len(), "cell", "cells")
            ));
        } else {
            s.push_str(&format!(
                "  {}: {} agree, {} disagree{}\n",
                plural(t.cells.len(), "cell", "cells"),
                t.agree,
                t.disagree,
                if t.disagree == 1 { "s" } else { "" }
            ));
        }
        for c in t.cells.iter().filter(|c| !c.agrees) {
            s.push_str(&format!(
                "  {}:{}:{}: row `{}`, column `{}` ({} against {}): printed {}, exact {} ({}) rounds to {}\n",
                c.file,
                c.line,
                c.col,
                c.row_label,
                c.column_label,
                c.a,
                c.b,
                c.printed,
                c.exact,
                c.exact_percent,
                c.rounded
            ));
        }
        s.push('\n');
    }
    s.push_str(&format!(
        "{} in {}: {} agree with the exact odds, {} disagree{}\n",
        plural(out.cells, "printed cell", "printed cells"),
        plural(out.tables.len(), "table", "tables"),
        out.agree,
        out.disagree,
        if out.disagree == 1 { "s" } else { "" }
    ));
    s
}
