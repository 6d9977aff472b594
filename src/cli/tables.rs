//! `blockprint tables`: every table with its rows and each row's exact probability, as text or JSON.

use crate::content::ContentRoot;
use crate::render::data;

use super::Status;

pub(super) fn run(root: &ContentRoot, json: bool) -> Status {
    let (lib, report) = match super::checked_tables(root) {
        Ok(x) => x,
        Err(s) => return s,
    };
    let Some(tables) = data::tables(&lib, &report) else {
        eprintln!(
            "error: content passed the checker but some table has no odds; please report this"
        );
        return Status::Rules;
    };
    if json {
        return super::print_json(&tables);
    }
    for t in &tables {
        outln!(
            "{} — {} ({})   {}:{}",
            t.id,
            t.title,
            t.dice,
            t.file,
            t.line
        );
        let on_w = t
            .rows
            .iter()
            .map(|r| r.on.chars().count())
            .max()
            .unwrap_or(0);
        let p_w = t
            .rows
            .iter()
            .map(|r| r.probability.len())
            .max()
            .unwrap_or(0);
        for r in &t.rows {
            let mark = if r.editorial.is_some() {
                " [editorial]"
            } else {
                ""
            };
            outln!(
                "  {:>on_w$}  {:>p_w$}  {:>7}  {}{mark}",
                r.on,
                r.probability,
                crate::render::markdown::pct(r.approx),
                r.result
            );
        }
        outln!("");
    }
    Status::Ok
}
