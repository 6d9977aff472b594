//! Lookups and NPCs: keys unique, values of the lookup's kind, elapsed-time bands in order, and every NPC's
//! class a key of the lookup with `role = "class"`.

use blockprint_dice as dice;
use std::collections::BTreeMap;

use crate::diag::{Diagnostic, Kind};
use crate::{EntryValue, Library, ValueKind};

use super::coverage::point_into;

pub(super) fn check(lib: &Library, dists: &mut super::Dists, out: &mut Vec<Diagnostic>) {
    for l in &lib.lookups {
        let id = &l.id.value;
        let mut keys: BTreeMap<&str, usize> = BTreeMap::new();
        for e in &l.entries {
            if let Some(first) = keys.get(e.key.value.as_str()) {
                out.push(
                    Diagnostic::error(
                        Kind::DuplicateKey,
                        &lib.sources,
                        &e.key.loc,
                        format!(
                            "key `{}` is already in lookup `{id}` (line {first})",
                            e.key.value
                        ),
                    )
                    .with_table(id)
                    .with_hint("keys of a lookup are unique; rename or merge the entries"),
                );
            } else {
                keys.insert(&e.key.value, lib.line_of(&e.key.loc));
            }
            match (l.kind, &e.value.value) {
                (ValueKind::Integer, EntryValue::Integer(_))
                | (ValueKind::Text, EntryValue::Text(_)) => {}
                (ValueKind::Dice, EntryValue::Text(s)) => {
                    // Dice lookups are rolled (e.g. Break thresholds), so a divisor must never be 0.
                    if let Ok(parsed) = dice::parse(s) {
                        let located = crate::Located {
                            value: s.clone(),
                            loc: e.value.loc.clone(),
                        };
                        let what = format!("`{s}` for `{}`", e.key.value);
                        for d in
                            super::inline::success_target_warnings(lib, &located, &parsed, 0, &what)
                        {
                            out.push(d.with_table(id));
                        }
                        if let Some(d) =
                            super::inline::zero_divisor_diagnostic(lib, &located, &parsed, 0, &what)
                        {
                            out.push(d.with_table(id));
                        } else if let Err(err) = &*dists.of(s, &parsed) {
                            // The reference cards and the kits print a dice lookup's exact odds.
                            out.push(
                                Diagnostic::error(
                                    Kind::BadDice,
                                    &lib.sources,
                                    &e.value.loc,
                                    format!("{what}: {}", err.message),
                                )
                                .with_table(id)
                                .with_hint(err.hint.clone().unwrap_or_else(|| {
                                    "a dice lookup's exact odds are printed; use fewer dice or dice with fewer sides".to_owned()
                                })),
                            );
                        } else if !rolls_whole(s, &parsed, dists) {
                            // Rolled values are used as counts (a Break threshold), so they must be whole.
                            out.push(
                                Diagnostic::error(
                                    Kind::BadDice,
                                    &lib.sources,
                                    &e.value.loc,
                                    format!("{what}: can roll values that are not whole numbers"),
                                )
                                .with_table(id)
                                .with_hint("a dice lookup's values are rolled and used as whole numbers; drop the `/` or round inside the table that uses it"),
                            );
                        }
                    }
                    if let Err(err) = dice::parse(s) {
                        let loc = point_into(lib, &e.value.loc, s, err.offset, err.len);
                        out.push(
                            Diagnostic::error(
                                Kind::BadDice,
                                &lib.sources,
                                &loc,
                                format!("`{s}` for `{}`: {}", e.key.value, err.message),
                            )
                            .in_dice(s, err.offset..err.offset + err.len)
                            .with_table(id)
                            .with_hint(
                                err.hint.clone().unwrap_or_else(|| {
                                    "write a dice expression such as `1d8` or `1d6!`".to_owned()
                                }),
                            ),
                        );
                    }
                }
                (kind, v) => {
                    let want = match kind {
                        ValueKind::Integer => "a whole number, e.g. `value = 15`",
                        ValueKind::Dice => "a dice expression in quotes, e.g. `value = \"1d8\"`",
                        ValueKind::Text => "text in quotes",
                    };
                    out.push(
                        Diagnostic::error(
                            Kind::BadValue,
                            &lib.sources,
                            &e.value.loc,
                            format!(
                                "lookup `{id}` has `kind = \"{}\"` but `{}` has value `{v}`",
                                kind_name(kind),
                                e.key.value
                            ),
                        )
                        .with_table(id)
                        .with_hint(format!("write {want}, or change the lookup's `kind`")),
                    );
                }
            }
        }
        bands(lib, l, out);
    }
    npcs(lib, out);
    keys_of(lib, out);
}

/// Tables with `keys_of = "<lookup>"`: the lookup exists and every row's result is one of its keys.
fn keys_of(lib: &Library, out: &mut Vec<Diagnostic>) {
    for t in &lib.tables {
        let Some(target) = &t.keys_of else { continue };
        let Some(lookup) = lib.lookup(&target.value) else {
            out.push(
                Diagnostic::error(
                    Kind::UnknownReference,
                    &lib.sources,
                    &target.loc,
                    format!("`keys_of = \"{}\"` names no lookup", target.value),
                )
                .with_table(&t.id.value)
                .with_hint("name the id of a `[[lookup]]`, or remove `keys_of`"),
            );
            continue;
        };
        for row in &t.rows {
            if !lookup
                .entries
                .iter()
                .any(|e| e.key.value == row.result.value)
            {
                out.push(
                    Diagnostic::error(
                        Kind::UnknownReference,
                        &lib.sources,
                        &row.result.loc,
                        format!(
                            "result `{}` is not a key of lookup `{}`",
                            row.result.value, lookup.id.value
                        ),
                    )
                    .with_table(&t.id.value)
                    .with_hint(format!(
                        "use one of {}",
                        lookup
                            .entries
                            .iter()
                            .map(|e| format!("`{}`", e.key.value))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                );
            }
        }
    }
}

fn kind_name(k: ValueKind) -> &'static str {
    match k {
        ValueKind::Dice => "dice",
        ValueKind::Integer => "integer",
        ValueKind::Text => "text",
    }
}

/// `up_to_hours` bands: when any entry has one, they rise strictly and only the last entry may leave it out.
fn bands(lib: &Library, l: &crate::Lookup, out: &mut Vec<Diagnostic>) {
    if l.entries.iter().all(|e| e.up_to_hours.is_none()) {
        return;
    }
    let mut prev: Option<f64> = None;
    let last = l.entries.len() - 1;
    for (i, e) in l.entries.iter().enumerate() {
        match &e.up_to_hours {
            Some(h) => {
                if !(h.value > 0.0 && h.value.is_finite()) || prev.is_some_and(|p| h.value <= p) {
                    out.push(
                        Diagnostic::error(
                            Kind::BadBand,
                            &lib.sources,
                            &h.loc,
                            format!(
                                "band `{}` ends at {} hours, not after the band before it",
                                e.key.value, h.value
                            ),
                        )
                        .with_table(&l.id.value)
                        .with_hint("list bands from shortest to longest with rising `up_to_hours`"),
                    );
                }
                prev = Some(h.value);
            }
            None if i != last => out.push(
                Diagnostic::error(
                    Kind::BadBand,
                    &lib.sources,
                    &e.key.loc,
                    format!(
                        "band `{}` has no `up_to_hours` but is not the last band",
                        e.key.value
                    ),
                )
                .with_table(&l.id.value)
                .with_hint("give every band but the last an `up_to_hours`"),
            ),
            None => {}
        }
    }
}

fn npcs(lib: &Library, out: &mut Vec<Diagnostic>) {
    if lib.npcs.is_empty() {
        return;
    }
    let classes = lib.lookup_with_role("class");
    for n in &lib.npcs {
        let known = classes.is_some_and(|c| c.entries.iter().any(|e| e.key.value == n.class.value));
        if !known {
            let hint = match classes {
                Some(c) => format!(
                    "use one of {} (the keys of lookup `{}`)",
                    c.entries
                        .iter()
                        .map(|e| format!("`{}`", e.key.value))
                        .collect::<Vec<_>>()
                        .join(", "),
                    c.id.value
                ),
                None => {
                    "add a lookup with `role = \"class\"` whose keys are the classes".to_owned()
                }
            };
            out.push(
                Diagnostic::error(
                    Kind::UnknownReference,
                    &lib.sources,
                    &n.class.loc,
                    format!(
                        "NPC `{}` has class `{}`, which is not a class",
                        n.id.value, n.class.value
                    ),
                )
                .with_table(&n.id.value)
                .with_hint(hint),
            );
        }
    }
}

/// Whether a dice expression rolls whole numbers only. Its distribution is known to work out: the
/// caller reports an expression whose distribution does not first.
fn rolls_whole(text: &str, expr: &dice::Expr, dists: &mut super::Dists) -> bool {
    expr.is_integer_valued()
        || dists
            .of(text, expr)
            .as_ref()
            .as_ref()
            .is_ok_and(|d| d.integer_outcomes().is_some())
}
