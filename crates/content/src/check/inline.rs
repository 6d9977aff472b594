//! Inline rolls and references: every `{EXPR}` in a result or text value parses as dice, every `{table:ID}`
//! names an existing table, and no chain of references leads back to its start.

use blockprint_dice as dice;
use std::collections::BTreeMap;

use crate::diag::{Diagnostic, Kind};
use crate::text::{Piece, pieces};
use crate::{EntryValue, Library, Located, ValueKind};

use super::coverage::point_into;

pub(super) fn check(lib: &Library, out: &mut Vec<Diagnostic>) {
    // Which tables each table's rows refer to, for the cycle check.
    let mut edges: Edges = BTreeMap::new();
    for t in &lib.tables {
        for row in &t.rows {
            for (id, at) in text(lib, &t.id.value, &row.result, out) {
                edges
                    .entry(&t.id.value)
                    .or_default()
                    .push((id, &row.result, at));
            }
        }
    }
    for l in lib.lookups.iter().filter(|l| l.kind == ValueKind::Text) {
        for e in &l.entries {
            if let EntryValue::Text(s) = &e.value.value {
                let located = Located {
                    value: s.clone(),
                    loc: e.value.loc.clone(),
                };
                text(lib, &l.id.value, &located, out);
            }
        }
    }
    cycles(lib, &edges, out);
}

/// Check one text; returns the table ids it references that exist, with their byte offsets.
fn text<'a>(
    lib: &Library,
    owner: &str,
    s: &'a Located<String>,
    out: &mut Vec<Diagnostic>,
) -> Vec<(&'a str, usize)> {
    let mut refs = Vec::new();
    let parts = match pieces(&s.value) {
        Ok(p) => p,
        Err(e) => {
            out.push(
                Diagnostic::error(Kind::UnbalancedBrace, &lib.sources, &point_into(lib, &s.loc, &s.value, e.at, 1), e.message)
                    .with_table(owner)
                    .with_hint("braces hold an inline roll `{1d6}` or a reference `{table:ID}`; close or remove this one"),
            );
            return refs;
        }
    };
    for p in parts {
        match p {
            Piece::Text(_) => {}
            Piece::Roll { expr, at } => match dice::parse(expr) {
                Err(e) => {
                    let loc = point_into(lib, &s.loc, &s.value, at + e.offset, e.len);
                    let hint = e.hint.clone().unwrap_or_else(|| "an inline roll is a dice expression such as `{1d6}` or `{3d6}`; a reference is `{table:ID}`".to_owned());
                    out.push(
                        Diagnostic::error(
                            Kind::BadDice,
                            &lib.sources,
                            &loc,
                            format!("inline roll `{{{expr}}}`: {}", e.message),
                        )
                        .in_dice(expr, e.offset..e.offset + e.len)
                        .with_table(owner)
                        .with_hint(hint),
                    );
                }
                // It parses; it must also roll for every seed, so no divisor may be 0.
                Ok(parsed) => {
                    let what = format!("inline roll `{{{expr}}}`");
                    if let Some(d) = zero_divisor_diagnostic(lib, s, &parsed, at, &what) {
                        out.push(d.with_table(owner));
                    }
                    for d in success_target_warnings(lib, s, &parsed, at, &what) {
                        out.push(d.with_table(owner));
                    }
                }
            },
            Piece::Table { id, at } => {
                if lib.table(id).is_some() {
                    refs.push((id, at));
                } else {
                    let loc = point_into(lib, &s.loc, &s.value, at, id.len());
                    out.push(
                        Diagnostic::error(
                            Kind::UnknownReference,
                            &lib.sources,
                            &loc,
                            format!("`{{table:{id}}}` names no table"),
                        )
                        .with_table(owner)
                        .with_hint(suggest(lib, id)),
                    );
                }
            }
        }
    }
    refs
}

/// A `bad_dice` diagnostic for a divisor of `expr` that can be 0, pointing at the divisor inside the
/// string value `s`; `at` is the byte offset of the expression in the value, `what` names it at the
/// start of the message. Shared with the other
/// places content names dice (table dice, dice lookups), since all of them are rolled.
pub(super) fn zero_divisor_diagnostic(
    lib: &Library,
    s: &Located<String>,
    expr: &dice::Expr,
    at: usize,
    what: &str,
) -> Option<Diagnostic> {
    let e = expr.zero_divisor()?;
    let span = e.span.unwrap_or(dice::Span {
        start: 0,
        end: expr.source().len(),
    });
    let loc = point_into(
        lib,
        &s.loc,
        &s.value,
        at + span.start,
        span.end - span.start,
    );
    let hint = e
        .hint
        .unwrap_or_else(|| "make sure no divisor can be 0".to_owned());
    let message = format!("{what}: {}", e.message);
    Some(
        Diagnostic::error(Kind::BadDice, &lib.sources, &loc, message)
            .in_dice(expr.source(), span.start..span.end)
            .with_hint(hint),
    )
}

/// `bad_dice` warnings for count-successes targets of `expr` that no die can meet or every die meets
/// (`3d6cs>7`), each pointing at its dice term inside the string value `s`; `at` and `what` as for
/// [`zero_divisor_diagnostic`]. Legal, so only a warning, but almost surely a slip.
pub(super) fn success_target_warnings(
    lib: &Library,
    s: &Located<String>,
    expr: &dice::Expr,
    at: usize,
    what: &str,
) -> Vec<Diagnostic> {
    expr.success_warnings()
        .into_iter()
        .map(|w| {
            let loc = point_into(
                lib,
                &s.loc,
                &s.value,
                at + w.span.start,
                w.span.end - w.span.start,
            );
            Diagnostic::warning(
                Kind::BadDice,
                &lib.sources,
                &loc,
                format!("{what}: {}", w.message),
            )
            .in_dice(expr.source(), w.span.start..w.span.end)
            .with_hint(w.hint)
        })
        .collect()
}

/// Suggest the closest existing table id ([`crate::near`]).
fn suggest(lib: &Library, id: &str) -> String {
    match crate::near::did_you_mean(id, lib.tables.iter().map(|t| t.id.value.as_str())) {
        Some(hint) => format!("{hint} (`blockprint tables` lists every id)"),
        None => "check the id; `blockprint tables` lists every table id".to_owned(),
    }
}

type Edges<'a> = BTreeMap<&'a str, Vec<(&'a str, &'a Located<String>, usize)>>;

/// Report each reference that closes a cycle (depth-first search, in id order for stable output).
fn cycles(lib: &Library, edges: &Edges, out: &mut Vec<Diagnostic>) {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Active,
        Done,
    }
    fn visit<'a>(
        node: &'a str,
        edges: &Edges<'a>,
        marks: &mut BTreeMap<&'a str, Mark>,
        path: &mut Vec<&'a str>,
        lib: &Library,
        out: &mut Vec<Diagnostic>,
    ) {
        marks.insert(node, Mark::Active);
        path.push(node);
        for &(next, s, at) in edges.get(node).map(Vec::as_slice).unwrap_or(&[]) {
            match marks.get(next) {
                Some(Mark::Active) => {
                    let from = path.iter().position(|n| *n == next).unwrap_or(0);
                    let chain: Vec<&str> = path[from..].iter().copied().chain([next]).collect();
                    let loc = point_into(lib, &s.loc, &s.value, at, next.len());
                    out.push(
                        Diagnostic::error(Kind::ReferenceCycle, &lib.sources, &loc, format!("references loop: {}", chain.join(" → ")))
                            .with_table(node)
                            .with_hint("a table may not lead back to itself; break the loop by removing one reference"),
                    );
                }
                Some(Mark::Done) => {}
                None => visit(next, edges, marks, path, lib, out),
            }
        }
        path.pop();
        marks.insert(node, Mark::Done);
    }
    let mut marks = BTreeMap::new();
    for &node in edges.keys() {
        if !marks.contains_key(node) {
            visit(node, edges, &mut marks, &mut Vec::new(), lib, out);
        }
    }
}
