//! References by place: "the deck below", "the table above". A reader who turns to where the words point
//! must find the thing there; the SRD once printed "the deck below" under a deck set above it.
//!
//! Words alone cannot say what a "below" names, so templates declare both ends, and the rule compares
//! where they landed:
//! - `#metadata((refers: "below", to: "deck-1")) <bp-ref>` where the text refers (`"below"` or
//!   `"following"`: the thing comes later in reading order; `"above"` or `"preceding"`: earlier);
//! - `#metadata("deck-1") <bp-target>` at the top of the thing referred to (a table, a figure, a deck).
//!
//! Reading order on a page is column by column: a target in a column to the right of the reference is
//! after it, one in the same column is after it when it starts lower. A reference whose target is
//! missing is a fault too (a template that marks one end only would otherwise pass unseen).

use typst::foundations::{Label, Selector, Value};
use typst::introspection::{Introspector, MetadataElem};
use typst::utils::PicoStr;
use typst_layout::PagedDocument;

use super::{Fault, MM, Offence, offence};

/// Two marks whose x differ by less than this (points) stand in the same column.
const COLUMN: f64 = 10.0 * MM;

/// A mark's place: page (1-based), x, y (points from the page's top left).
type Place = (usize, f64, f64);

/// The marks of `label`: each one's value and place.
pub(super) fn marks(doc: &PagedDocument, label: &str) -> Vec<(Value, Place)> {
    let Some(label) = Label::new(PicoStr::intern(label)) else {
        return Vec::new();
    };
    let intro = doc.introspector();
    intro
        .query(&Selector::Label(label))
        .iter()
        .filter_map(|c| {
            let value = c.to_packed::<MetadataElem>()?.value.clone();
            let p = intro.position(c.location()?)?;
            Some((value, (p.page.get(), p.point.x.to_pt(), p.point.y.to_pt())))
        })
        .collect()
}

/// Whether `b` comes after `a` in reading order (later page; on one page a column to the right, or the
/// same column and no higher). A mark in a paragraph stands where the paragraph ends, so a target placed
/// right after the paragraph that names it shares its place: that is after it.
fn after(a: Place, b: Place) -> bool {
    if a.0 != b.0 {
        return b.0 > a.0;
    }
    if (b.1 - a.1).abs() >= COLUMN {
        return b.1 > a.1;
    }
    b.2 >= a.2 - 0.5
}

/// Every `<bp-ref>` whose `<bp-target>` is missing or lies the other way from where its words point.
pub fn check(doc: &PagedDocument, out: &mut Vec<Offence>) {
    let targets: Vec<(String, Place)> = marks(doc, "bp-target")
        .into_iter()
        .filter_map(|(v, p)| match v {
            Value::Str(s) => Some((s.to_string(), p)),
            _ => None,
        })
        .collect();
    for (value, at) in marks(doc, "bp-ref") {
        let Value::Dict(d) = value else { continue };
        let field = |k: &str| match d.get(k) {
            Ok(Value::Str(s)) => Some(s.to_string()),
            _ => None,
        };
        let (Some(refers), Some(to)) = (field("refers"), field("to")) else {
            continue;
        };
        let later = match refers.as_str() {
            "below" | "following" => true,
            "above" | "preceding" => false,
            _ => continue,
        };
        let what = match targets.iter().find(|(name, _)| *name == to) {
            None => Some(format!(
                "the text says “{refers}” but nothing it names is marked on the page (mark the thing with its name)"
            )),
            Some((_, t)) if after(at, *t) != later => Some(format!(
                "“{refers}” points {}: what it names is printed {} it, on p. {} (place it {refers} the text, or say where it is)",
                if later { "up" } else { "down" },
                if later { "before" } else { "after" },
                t.0
            )),
            Some(_) => None,
        };
        if let Some(what) = what {
            out.push(offence(at.0, (at.1, at.2), Fault::Reader, what, &to));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_order_runs_down_a_column_then_to_the_next_then_to_the_next_page() {
        let a = (2, 50.0, 400.0);
        assert!(after(a, (2, 52.0, 500.0)), "lower in the same column");
        assert!(!after(a, (2, 52.0, 300.0)), "higher in the same column");
        assert!(after(a, a), "right after the paragraph that names it");
        assert!(after(a, (2, 320.0, 100.0)), "the next column");
        assert!(!after(a, (2, 10.0 - COLUMN, 700.0)), "the column before");
        assert!(after(a, (3, 50.0, 10.0)) && !after(a, (1, 50.0, 700.0)));
    }
}
