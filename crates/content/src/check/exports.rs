//! What no export could write, refused at its place (`unexportable`), so that every table `check`
//! accepts is written by every export ([`crate::carry`] lists what each format cannot carry and how
//! the rest is carried): dice Foundry VTT or Roll20 would roll differently, in a table's `dice` or an
//! inline roll of its results; odds that need more Roll20 weight than Roll20 takes; a result holding
//! one of Roll20's TableExport escape codes.

use std::collections::BTreeMap;

use blockprint_dice as dice;

use super::coverage::{TableOdds, point_into};
use crate::Library;
use crate::carry;
use crate::diag::{Diagnostic, Kind};
use crate::text::{Piece, pieces};

const DICE_HINT: &str = "write dice that Foundry VTT and Roll20 roll as the content does: `!` (extra rolls as dice of their own) for `!!`, `4dF` without `cs`, a plain `1d100` with a note for a bonus or penalty die";

pub(super) fn check(lib: &Library, odds: &BTreeMap<String, TableOdds>, out: &mut Vec<Diagnostic>) {
    for t in &lib.tables {
        let id = &t.id.value;
        if let Some(why) = dice::parse(&t.dice.value)
            .ok()
            .and_then(|e| carry::export_dice(e.root()))
        {
            out.push(
                Diagnostic::error(
                    Kind::Unexportable,
                    &lib.sources,
                    &t.dice.loc,
                    format!(
                        "table `{id}` rolls `{}` with {why}, so its export would roll differently",
                        t.dice.value
                    ),
                )
                .with_table(id)
                .with_hint(DICE_HINT),
            );
        } else if let Some(o) = odds.get(id)
            && o.ways > num_bigint::BigInt::from(carry::ROLL20_MAX_WEIGHT)
        {
            out.push(
                Diagnostic::error(
                    Kind::Unexportable,
                    &lib.sources,
                    &t.dice.loc,
                    format!(
                        "table `{id}` rolls `{}`, which falls {} equally likely ways; Roll20 draws an item by its weight alone, and weights adding up to more than {} do not fit it",
                        t.dice.value,
                        o.ways,
                        carry::ROLL20_MAX_WEIGHT
                    ),
                )
                .with_table(id)
                .with_hint("roll fewer dice or dice with fewer sides (seven d20 fit, eight do not)"),
            );
        }
        for row in &t.rows {
            let r = &row.result;
            for p in pieces(&r.value).unwrap_or_default() {
                let Piece::Roll { expr, at } = p else {
                    continue;
                };
                let Some(why) = dice::parse(expr)
                    .ok()
                    .and_then(|e| carry::export_dice(e.root()))
                else {
                    continue;
                };
                let loc = point_into(lib, &r.loc, &r.value, at, expr.len());
                out.push(
                    Diagnostic::error(
                        Kind::Unexportable,
                        &lib.sources,
                        &loc,
                        format!(
                            "inline roll `{{{expr}}}` uses {why}, so the table's export would roll it differently"
                        ),
                    )
                    .with_table(id)
                    .with_hint(DICE_HINT),
                );
            }
            if let Some((at, code, ch)) = carry::table_export_code(&r.value) {
                let loc = point_into(lib, &r.loc, &r.value, at, code.len());
                out.push(
                    Diagnostic::error(
                        Kind::Unexportable,
                        &lib.sources,
                        &loc,
                        format!(
                            "the result holds `{code}`, which Roll20's TableExport script reads back as `{ch}`"
                        ),
                    )
                    .with_table(id)
                    .with_hint(format!("write `{ch}` itself; the Roll20 export writes it in that code")),
                );
            }
        }
    }
}
