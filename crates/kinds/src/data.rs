//! Template data: a checked [`Library`] and its [`Report`] in, serializable values with exact odds out.
//! The same values feed `tables --json`, the Markdown reference and (later) typst documents.

use blockprint_dice as dice;
use serde::Serialize;

use blockprint_content::check::{self, Report};
use blockprint_content::text::smart_quotes;
use blockprint_content::{EntryValue, Library, SUITS};

#[derive(Debug, Clone, Serialize)]
pub struct TableData {
    pub id: String,
    pub title: String,
    pub dice: String,
    pub file: String,
    pub line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub editorial: Option<String>,
    pub rows: Vec<RowData>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RowData {
    pub on: String,
    pub result: String,
    /// Exact probability as a reduced fraction string.
    pub probability: String,
    /// The same, rounded to 5 decimal places.
    pub approx: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub editorial: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct LookupData {
    pub id: String,
    pub title: String,
    pub key: String,
    pub value: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub editorial: Option<String>,
    pub entries: Vec<EntryData>,
}

#[derive(Debug, Clone, Serialize)]
pub struct EntryData {
    pub key: String,
    pub value: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub editorial: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DeckData {
    pub id: String,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub editorial: Option<String>,
    /// One entry per rank: the rank and its four cards in suit order.
    pub ranks: Vec<(String, Vec<String>)>,
    /// Suit names and meanings in print order.
    pub suits: Vec<(String, String)>,
}

#[derive(Debug, Clone, Serialize)]
pub struct NpcData {
    pub id: String,
    pub name: String,
    pub class: String,
    pub level: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mastery: Option<String>,
}

/// Everything the reference documents show.
#[derive(Debug, Clone, Serialize)]
pub struct Reference {
    pub tables: Vec<TableData>,
    pub lookups: Vec<LookupData>,
    pub decks: Vec<DeckData>,
    pub npcs: Vec<NpcData>,
    pub editorial: Vec<check::Fill>,
}

/// Every table with exact odds per row, in content order. `None` when the report has no odds for a table
/// (the library did not pass the checker).
pub fn tables(lib: &Library, report: &Report) -> Option<Vec<TableData>> {
    lib.tables
        .iter()
        .map(|t| {
            let rows = t
                .rows
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let p = check::row_probability(report, &t.id.value, i)?;
                    Some(RowData {
                        on: r.on.value.clone(),
                        result: r.result.value.clone(),
                        probability: dice::fraction(p),
                        approx: dice::approx(p),
                        editorial: r.editorial.clone(),
                    })
                })
                .collect::<Option<Vec<_>>>()?;
            Some(TableData {
                id: t.id.value.clone(),
                title: t.title.clone(),
                dice: t.dice.value.clone(),
                file: lib.file_of(&t.id.loc).to_owned(),
                line: lib.line_of(&t.id.loc),
                note: t.note.clone(),
                editorial: t.editorial.clone(),
                rows,
            })
        })
        .collect()
}

/// A table's texts as the documents print them: curly quotes in its title, results, note and remarks
/// (`tables --json` keeps the content's own characters).
fn typeset_table(mut t: TableData) -> TableData {
    t.title = smart_quotes(&t.title);
    t.note = t.note.as_deref().map(smart_quotes);
    t.editorial = t.editorial.as_deref().map(smart_quotes);
    for r in &mut t.rows {
        r.result = smart_quotes(&r.result);
        r.editorial = r.editorial.as_deref().map(smart_quotes);
    }
    t
}

/// Tables, lookups, decks, NPCs and the editorial fills of a checked library, their texts with curly
/// quotes ([`smart_quotes`]) for the PDF and Markdown documents.
pub fn reference(lib: &Library, report: &Report) -> Option<Reference> {
    reference_as(lib, report, true)
}

/// [`reference`] with the content's own characters (straight quotes kept) when `typeset` is false: for a
/// kind whose Markdown and JSON show the content exactly and whose PDF alone sets curly quotes.
pub fn reference_as(lib: &Library, report: &Report, typeset: bool) -> Option<Reference> {
    let q = |s: &str| {
        if typeset {
            smart_quotes(s)
        } else {
            s.to_owned()
        }
    };
    let qo = |s: &Option<String>| s.as_deref().map(q);
    Some(Reference {
        tables: tables(lib, report)?
            .into_iter()
            .map(|t| if typeset { typeset_table(t) } else { t })
            .collect(),
        lookups: lib
            .lookups
            .iter()
            .map(|l| LookupData {
                id: l.id.value.clone(),
                title: q(&l.title),
                key: q(&l.key),
                value: q(&l.value),
                note: qo(&l.note),
                editorial: qo(&l.editorial),
                entries: l
                    .entries
                    .iter()
                    .map(|e| EntryData {
                        key: e.key.value.clone(),
                        value: match &e.value.value {
                            EntryValue::Integer(n)
                                if *n > 0 && l.value.to_lowercase().contains("modifier") =>
                            {
                                format!("+{n}")
                            }
                            v => q(&v.to_string()),
                        },
                        note: qo(&e.note),
                        editorial: qo(&e.editorial),
                    })
                    .collect(),
            })
            .collect(),
        decks: lib
            .decks
            .iter()
            .map(|d| DeckData {
                id: d.id.value.clone(),
                title: q(&d.title),
                note: qo(&d.note),
                editorial: qo(&d.editorial),
                ranks: d
                    .rank_names()
                    .into_iter()
                    .enumerate()
                    .map(|(i, rank)| {
                        let cards = d
                            .cards
                            .iter()
                            .map(|s| s.value.get(i).map(|c| q(&c.value)).unwrap_or_default())
                            .collect();
                        (rank.to_string(), cards)
                    })
                    .collect(),
                suits: SUITS
                    .iter()
                    .zip([
                        &d.suits.hearts,
                        &d.suits.clubs,
                        &d.suits.diamonds,
                        &d.suits.spades,
                    ])
                    .map(|(s, m)| (s.to_string(), q(m)))
                    .collect(),
            })
            .collect(),
        npcs: lib
            .npcs
            .iter()
            .map(|n| NpcData {
                id: n.id.value.clone(),
                name: q(&n.name),
                class: n.class.value.clone(),
                level: n.level,
                mastery: qo(&n.mastery),
            })
            .collect(),
        editorial: report
            .editorial
            .iter()
            .map(|f| check::Fill {
                result: q(&f.result),
                reason: q(&f.reason),
                ..f.clone()
            })
            .collect(),
    })
}
