//! Charts (`[[chart]]`): at least one column, column names unique and not blank, every declared numeric
//! column one of the columns, every row exactly one cell per column, numeric cells numbers.

use std::collections::BTreeSet;

use crate::Library;
use crate::diag::{Diagnostic, Kind};

/// The most rows a chart may have (as for tables, [`crate::MAX_ROWS`]-like bound on the work).
const MAX_CHART_ROWS: usize = 10_000;

pub(super) fn check(lib: &Library, out: &mut Vec<Diagnostic>) {
    for c in &lib.charts {
        let id = &c.id.value;
        let cols = &c.columns.value;
        if cols.is_empty() {
            out.push(
                Diagnostic::error(
                    Kind::BadValue,
                    &lib.sources,
                    &c.columns.loc,
                    format!("chart `{id}` has no columns"),
                )
                .with_table(id)
                .with_hint("name its columns, e.g. `columns = [\"Vehicle\", \"MOV\"]`"),
            );
            continue;
        }
        let mut seen = BTreeSet::new();
        for col in cols {
            if col.value.trim().is_empty() {
                out.push(
                    Diagnostic::error(
                        Kind::BadValue,
                        &lib.sources,
                        &col.loc,
                        format!("chart `{id}` has a blank column name"),
                    )
                    .with_table(id)
                    .with_hint("give every column a heading"),
                );
            } else if !seen.insert(col.value.as_str()) {
                out.push(
                    Diagnostic::error(
                        Kind::DuplicateKey,
                        &lib.sources,
                        &col.loc,
                        format!("column `{}` is named twice in chart `{id}`", col.value),
                    )
                    .with_table(id)
                    .with_hint("column names of a chart are unique; rename one of them"),
                );
            }
        }
        let mut numeric = Vec::new();
        for n in &c.numeric {
            match c.column(&n.value) {
                Some(i) => numeric.push(i),
                None => out.push(
                    Diagnostic::error(
                        Kind::UnknownReference,
                        &lib.sources,
                        &n.loc,
                        format!(
                            "`numeric` names `{}`, which is not a column of chart `{id}`",
                            n.value
                        ),
                    )
                    .with_table(id)
                    .with_hint(format!(
                        "use one of the column names: {}",
                        cols.iter()
                            .map(|c| format!("`{}`", c.value))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                ),
            }
        }
        if c.rows.value.len() > MAX_CHART_ROWS {
            out.push(
                Diagnostic::error(
                    Kind::Schema,
                    &lib.sources,
                    &c.rows.loc,
                    format!(
                        "chart `{id}` has {} rows, more than {MAX_CHART_ROWS}",
                        c.rows.value.len()
                    ),
                )
                .with_table(id)
                .with_hint("split it into several charts"),
            );
            continue;
        }
        for r in &c.rows.value {
            if r.cells.len() != cols.len() {
                out.push(
                    Diagnostic::error(
                        Kind::BadValue,
                        &lib.sources,
                        &r.loc,
                        format!(
                            "a row of chart `{id}` has {} cell{} but the chart has {} column{}",
                            r.cells.len(),
                            if r.cells.len() == 1 { "" } else { "s" },
                            cols.len(),
                            if cols.len() == 1 { "" } else { "s" },
                        ),
                    )
                    .with_table(id)
                    .with_hint(format!(
                        "write one cell per column, in order: {}",
                        cols.iter()
                            .map(|c| c.value.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                );
                continue;
            }
            for &i in &numeric {
                let cell = r.cells[i].trim();
                if cell.parse::<f64>().map_or(true, |v| !v.is_finite()) {
                    out.push(
                        Diagnostic::error(
                            Kind::BadValue,
                            &lib.sources,
                            &r.loc,
                            format!(
                                "column `{}` of chart `{id}` is numeric but a row has `{cell}` there",
                                cols[i].value
                            ),
                        )
                        .with_table(id)
                        .with_hint(
                            "write a number (`13`, `0.5`), or take the column out of `numeric`",
                        ),
                    );
                }
            }
        }
    }
}
