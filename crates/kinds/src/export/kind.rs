//! Export kinds: checked tables and decks in, files for other tools out — one kind per target, each in
//! its own folder under `<out>/export/` with its own manifest, so `build` makes them all and
//! `blockprint export --to …` remakes one. The formats themselves live in [`crate::export`].
//!
//! | kind | folder | documents |
//! |---|---|---|
//! | `export-foundry` | `export/foundry-v13/` | `tables/<slug>.json` per table, `cards/<slug>.json` per deck and its card pictures in `cards/<slug>/` |
//! | `export-foundry-v12` | `export/foundry-v12/` | the same in Foundry VTT v12's schema |
//! | `export-roll20` | `export/roll20/` | `tables.txt`: TableExport chat commands for every table |
//! | `export-csv` | `export/csv/` | `<slug>.csv` and `pipe/<slug>.csv` per table, then `tables.csv` |

use crate::error::{Problem, invariant, no_document};
use crate::export::{self, foundry::Version, slug};
use crate::{Checked, Document, Kind, Pictures, Request, Requirements};
use blockprint_content::error::Result;
use blockprint_render::Format;

/// Which tool an export kind writes for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Foundry(Version),
    Roll20,
    Csv,
}

/// One export target, over every table and deck or over the ones named.
#[derive(Debug, Clone)]
pub struct ExportKind {
    info: &'static crate::KindInfo,
    target: Target,
    /// Table and deck ids to export; `None` for all.
    ids: Option<Vec<String>>,
    /// CSV: start each comma-separated file with a UTF-8 byte-order mark (`--excel`).
    excel: bool,
}

/// What the `export-foundry` kind is; every table and deck of any content is exported, so its requirements
/// are checked on any content.
pub static FOUNDRY_INFO: crate::KindInfo = crate::KindInfo::new(
    "export-foundry",
    "Foundry VTT v13 RollTable JSON per table and Cards JSON per deck",
    "export/foundry-v13",
    &[Format::Json],
)
.titled("Foundry VTT v13 tables and decks")
.requires_always();
pub static FOUNDRY: ExportKind = ExportKind {
    info: &FOUNDRY_INFO,
    target: Target::Foundry(Version::V13),
    ids: None,
    excel: false,
};
/// What the `export-foundry-v12` kind is; every table and deck of any content is exported, so its requirements
/// are checked on any content.
pub static FOUNDRY_V12_INFO: crate::KindInfo = crate::KindInfo::new(
    "export-foundry-v12",
    "Foundry VTT v12 RollTable JSON per table and Cards JSON per deck",
    "export/foundry-v12",
    &[Format::Json],
)
.titled("Foundry VTT v12 tables and decks")
.requires_always();
pub static FOUNDRY_V12: ExportKind = ExportKind {
    info: &FOUNDRY_V12_INFO,
    target: Target::Foundry(Version::V12),
    ids: None,
    excel: false,
};
/// What the `export-roll20` kind is; every table and deck of any content is exported, so its requirements
/// are checked on any content.
pub static ROLL20_INFO: crate::KindInfo = crate::KindInfo::new(
    "export-roll20",
    "Roll20 TableExport chat commands for every table, one file to paste",
    "export/roll20",
    &[Format::Txt],
)
.titled("Roll20 tables")
.requires_always();
pub static ROLL20: ExportKind = ExportKind {
    info: &ROLL20_INFO,
    target: Target::Roll20,
    ids: None,
    excel: false,
};
/// What the `export-csv` kind is; every table and deck of any content is exported, so its requirements
/// are checked on any content.
pub static CSV_INFO: crate::KindInfo = crate::KindInfo::new(
    "export-csv",
    "CSV per table, every table in tables.csv, and the pipe form importers read",
    "export/csv",
    &[Format::Csv],
)
.titled("Spreadsheet tables (CSV)")
.requires_always();
pub static CSV: ExportKind = ExportKind {
    info: &CSV_INFO,
    target: Target::Csv,
    ids: None,
    excel: false,
};

impl ExportKind {
    /// The registered kind for `target`.
    pub fn registered(target: Target) -> &'static ExportKind {
        match target {
            Target::Foundry(Version::V13) => &FOUNDRY,
            Target::Foundry(Version::V12) => &FOUNDRY_V12,
            Target::Roll20 => &ROLL20,
            Target::Csv => &CSV,
        }
    }

    /// The same kind limited to `ids` (tables and decks).
    pub fn only(&self, ids: Vec<String>) -> ExportKind {
        ExportKind {
            ids: Some(ids),
            ..self.clone()
        }
    }

    /// With `--excel`, a comma-separated file behind a UTF-8 byte-order mark: Excel on Windows reads a
    /// file without one in the system's ANSI code page (`−4` shows as `âˆ’4`). The bytes after it are
    /// unchanged; the pipe files, which an importer reads, never get one.
    fn bom(&self, bytes: Vec<u8>) -> Vec<u8> {
        if !self.excel {
            return bytes;
        }
        let mut out = "\u{feff}".as_bytes().to_vec();
        out.extend(bytes);
        out
    }

    fn ids(&self) -> Option<&[String]> {
        self.ids.as_deref()
    }

    fn table_ids<'c>(&self, cx: &'c Checked) -> Vec<&'c str> {
        cx.lib
            .tables
            .iter()
            .map(|t| t.id.value.as_str())
            .filter(|id| self.ids().is_none_or(|ids| ids.iter().any(|i| i == id)))
            .collect()
    }

    fn deck_count(&self, cx: &Checked) -> usize {
        match self.target {
            Target::Foundry(_) => export::decks(cx, self.ids()).len(),
            _ => 0,
        }
    }
}

impl Kind for ExportKind {
    fn info(&self) -> &crate::KindInfo {
        self.info
    }
    fn requires(&self) -> Requirements {
        Requirements::default()
    }
    fn count(&self, cx: &Checked, _req: &Request) -> Result<usize> {
        let ids = self.table_ids(cx);
        let mut seen = std::collections::BTreeMap::new();
        for id in &ids {
            if let Some(other) = seen.insert(slug(id), *id) {
                let at = |id: &str| {
                    cx.lib
                        .table(id)
                        .map(|t| {
                            format!(
                                "{}:{}",
                                cx.lib.file_of(&t.id.loc),
                                cx.lib.line_of(&t.id.loc)
                            )
                        })
                        .unwrap_or_default()
                };
                return Err(Problem::SlugClash {
                    first: other.to_string(),
                    first_at: at(other),
                    second: id.to_string(),
                    second_at: at(id),
                    slug: slug(id),
                }
                .into());
            }
        }
        // A table the target would read differently is refused before anything is written.
        for id in &ids {
            match self.target {
                Target::Foundry(_) => export::foundry::refuse(&export::table(cx, id)?)?,
                Target::Roll20 => export::roll20::refuse(&export::table(cx, id)?)?,
                Target::Csv => export::csv::pipe_refuse(&export::table(cx, id)?)?,
            }
        }
        let tables = ids.len();
        Ok(match self.target {
            Target::Foundry(_) => tables + self.deck_count(cx),
            Target::Roll20 => usize::from(tables > 0),
            Target::Csv if tables == 0 => 0,
            Target::Csv => tables + 1,
        })
    }
    fn document(&self, cx: &Checked, _req: &Request, i: usize) -> Result<Document> {
        let ids = self.table_ids(cx);
        let doc = |stem: String, title: String, data: serde_json::Value, json: Option<String>| {
            let doc = Document::new(stem, "", title, data).audience(crate::Audience::Gm);
            match json {
                Some(json) => doc.json(json),
                None => doc,
            }
        };
        let files = |list: Vec<(String, Vec<u8>)>| -> Result<serde_json::Value> {
            let list: Vec<(String, String)> = list
                .into_iter()
                .map(|(rel, bytes)| {
                    Ok((
                        rel,
                        String::from_utf8(bytes)
                            .map_err(|e| crate::error::write("an export as text", e))?,
                    ))
                })
                .collect::<Result<_>>()?;
            Ok(serde_json::json!({ "files": list }))
        };
        match self.target {
            Target::Foundry(version) => {
                if let Some(id) = ids.get(i) {
                    let t = export::table(cx, id)?;
                    let json = export::foundry::roll_table(&cx.lib, &t, version)?;
                    return Ok(doc(
                        format!("tables/{}", slug(id)),
                        t.title,
                        serde_json::Value::Null,
                        Some(json),
                    ));
                }
                let decks = export::decks(cx, self.ids());
                let d = decks
                    .get(i - ids.len())
                    .ok_or_else(|| no_document(&*self.info.name, i, ids.len() + decks.len()))?;
                let json = export::foundry::cards(d)?;
                // The deck's id, for its pictures ([`Kind::pictures`]).
                Ok(doc(
                    format!("cards/{}", slug(&d.id)),
                    d.title.clone(),
                    serde_json::json!({ "deck": d.id }),
                    Some(json),
                ))
            }
            Target::Roll20 => {
                let tables = ids
                    .iter()
                    .map(|id| export::table(cx, id))
                    .collect::<Result<Vec<_>>>()?;
                let text = export::roll20::commands(&tables)?;
                Ok(doc(
                    "tables".into(),
                    "Roll20 tables".into(),
                    files(vec![("tables.txt".into(), text.into_bytes())])?,
                    None,
                ))
            }
            Target::Csv => {
                if let Some(id) = ids.get(i) {
                    let t = export::table(cx, id)?;
                    let mut list = vec![(
                        format!("{}.csv", slug(id)),
                        self.bom(export::csv::table(&t)?),
                    )];
                    if let Some(pipe) = export::csv::pipe(&cx.lib, &t)? {
                        list.push((export::csv::pipe_name(&t), pipe));
                    }
                    return Ok(doc(slug(id), t.title, files(list)?, None));
                }
                let tables = ids
                    .iter()
                    .map(|id| export::table(cx, id))
                    .collect::<Result<Vec<_>>>()?;
                Ok(doc(
                    "tables".into(),
                    "Every table".into(),
                    files(vec![(
                        "tables.csv".into(),
                        self.bom(export::csv::combined(&tables)?),
                    )])?,
                    None,
                ))
            }
        }
    }
    /// The tables this run writes in part, and why: the pipe form cannot write totals below 1.
    fn warnings(&self, cx: &Checked, _req: &Request) -> Result<Vec<String>> {
        let mut out = Vec::new();
        for id in self.table_ids(cx) {
            let left_out = match self.target {
                Target::Roll20 => None,
                Target::Csv => export::csv::pipe_left_out(&export::table(cx, id)?),
                Target::Foundry(_) => None,
            };
            out.extend(left_out);
        }
        Ok(out)
    }
    /// A Foundry deck's card pictures, which its JSON refers to.
    fn pictures(&self, cx: &Checked, req: &Request, doc: &Document) -> Result<Option<Pictures>> {
        match (self.target, doc.data["deck"].as_str()) {
            (Target::Foundry(_), Some(id)) => export::foundry::pictures(cx, req, id).map(Some),
            _ => Ok(None),
        }
    }
    fn files(&self, _cx: &Checked, doc: &Document, f: Format) -> Result<Vec<(String, Vec<u8>)>> {
        if !self.formats().contains(&f) {
            return Err(invariant(format!(
                "`{}` asked for {f:?} files",
                self.info.name
            )));
        }
        doc.data["files"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|pair| match (pair[0].as_str(), pair[1].as_str()) {
                (Some(rel), Some(text)) => Ok((rel.to_owned(), text.as_bytes().to_vec())),
                _ => Err(invariant(format!(
                    "export document `{}` holds a malformed file",
                    doc.stem
                ))),
            })
            .collect()
    }
}

/// The options of `make export-foundry`, `export-foundry-v12` and `export-roll20` (and of
/// `blockprint export`, their alias).
#[derive(Debug, Clone, clap::Args, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Options {
    /// Table or deck ids to export (default: all); tables they refer to come along.
    #[schemars(title = "Tables and decks", description = "Which to export; the tables they roll on come along. None chosen: all of them.", extend("x-choices" = "tables-and-decks"))]
    pub ids: Vec<String>,
}

/// The options of `make export-csv`: those of every export, and the byte-order mark Excel wants.
#[derive(Debug, Clone, clap::Args, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct CsvOptions {
    /// Table or deck ids to export (default: all); tables they refer to come along.
    #[schemars(title = "Tables and decks", description = "Which to export; the tables they roll on come along. None chosen: all of them.", extend("x-choices" = "tables-and-decks"))]
    pub ids: Vec<String>,
    /// Begin each comma-separated file with a UTF-8 byte-order mark, so that Excel on Windows reads it
    /// as UTF-8; nothing else in the files changes.
    #[arg(long)]
    #[serde(default)]
    #[schemars(
        title = "For Excel",
        description = "Mark the files as UTF-8 so that Excel on Windows shows accents and symbols right."
    )]
    pub excel: bool,
}

/// What every export's options give: the ids, and whether CSV files begin with a byte-order mark.
trait ExportOptions {
    fn ids(&self) -> &[String];
    fn excel(&self) -> bool;
}

impl ExportOptions for Options {
    fn ids(&self) -> &[String] {
        &self.ids
    }
    fn excel(&self) -> bool {
        false
    }
}

impl ExportOptions for CsvOptions {
    fn ids(&self) -> &[String] {
        &self.ids
    }
    fn excel(&self) -> bool {
        self.excel
    }
}

/// One registered export kind: its base, and the two functions that configure it and print its notes.
macro_rules! export_def {
    ($def:ident, $kind:ident, $options:ty, $configure:ident, $notes:ident) => {
        pub static $def: crate::Declared<$options> = crate::Declared {
            base: &$kind,
            configure: $configure,
            after: Some($notes),
            rolls: false,
        };
        fn $configure(cx: &Checked, o: &$options) -> Result<Box<dyn Kind>> {
            configure(&$kind, cx, o)
        }
        fn $notes(
            cx: &Checked,
            o: &$options,
            _engine: &blockprint_render::Engine,
            _req: &Request,
            quiet: bool,
            sink: &dyn crate::sink::Sink,
        ) -> Result<()> {
            notes(&$kind, cx, o.ids(), quiet, sink)
        }
    };
}

export_def!(
    FOUNDRY_DEF,
    FOUNDRY,
    Options,
    configure_foundry,
    notes_foundry
);
export_def!(
    FOUNDRY_V12_DEF,
    FOUNDRY_V12,
    Options,
    configure_foundry_v12,
    notes_foundry_v12
);
export_def!(ROLL20_DEF, ROLL20, Options, configure_roll20, notes_roll20);
export_def!(CSV_DEF, CSV, CsvOptions, configure_csv, notes_csv);

/// The kind over every table and deck, or over the ones named and the tables they refer to.
fn configure(kind: &ExportKind, cx: &Checked, o: &dyn ExportOptions) -> Result<Box<dyn Kind>> {
    let kind = ExportKind {
        excel: o.excel(),
        ..kind.clone()
    };
    if o.ids().is_empty() {
        return Ok(Box::new(kind));
    }
    let ids = selection(&cx.lib, kind.target, o.ids(), &mut Vec::new())?;
    Ok(Box::new(kind.only(ids)))
}

/// Which tables came along because a named one refers to them (after the files, unless quiet).
fn notes(
    kind: &ExportKind,
    cx: &Checked,
    ids: &[String],
    quiet: bool,
    sink: &dyn crate::sink::Sink,
) -> Result<()> {
    if quiet || ids.is_empty() {
        return Ok(());
    }
    let mut notes = Vec::new();
    selection(&cx.lib, kind.target, ids, &mut notes)?;
    for n in notes {
        sink.event(crate::sink::Event::Note(n));
    }
    Ok(())
}

/// The ids to export: each named table or deck, then every table a named table references (directly or
/// through others), so no exported link points at a table left behind.
fn selection(
    lib: &blockprint_content::Library,
    target: Target,
    ids: &[String],
    notes: &mut Vec<String>,
) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for id in ids {
        if lib.table(id).is_some() {
        } else if lib.deck(id).is_some() {
            if !matches!(target, Target::Foundry(_)) {
                return Err(Problem::DeckNotFoundry { id: id.clone() }.into());
            }
        } else {
            let ids = lib
                .tables
                .iter()
                .map(|t| t.id.value.as_str())
                .chain(lib.decks.iter().map(|d| d.id.value.as_str()));
            return Err(Problem::NoTableOrDeck {
                id: id.clone(),
                hint: blockprint_content::near::did_you_mean(id, ids),
            }
            .into());
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
                    .flat_map(|r| crate::export::references(&r.result.value))
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        for r in referenced {
            if !out.contains(&r) {
                notes.push(format!("also exporting `{r}`: `{}` refers to it", out[k]));
                out.push(r);
            }
        }
        k += 1;
    }
    Ok(out)
}
