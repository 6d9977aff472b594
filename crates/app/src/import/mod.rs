//! `blockprint import`: a GM's tables from Foundry VTT, Roll20 or a spreadsheet in, content out — each
//! table a TOML file of its own under the content folder, with its title, dice, ranges and the source's
//! text exactly as the source has it.
//!
//! - **Foundry VTT**: RollTable documents as JSON, schema v12 (`text`, `documentCollection`/`documentId`)
//!   or v13 (`name`, `description`, `documentUuid`), one file or a folder of them (an exported compendium
//!   or blockprint's own `export/foundry-v13/`). The formula is read in Foundry's notation (`1d6x` is
//!   blockprint's `1d6!`, `4df` its `4dF`); ranges are kept; `[[1d6]]` rolls become `{1d6}` and a link
//!   to another imported table (`@UUID[RollTable.<id>]{Title}`, or a `document` result) a `{table:ID}`.
//! - **Roll20**: the chat commands of the TableExport script (`!import-table`, `!import-table-item`).
//!   Roll20 draws by weight alone, so the weights become ranges of one die with as many faces as the
//!   weights add up to (`1d36` for a 2d6 table's 36 ways): exact odds. A die no dice bag holds gets a
//!   note saying so.
//! - **CSV**: blockprint's own (`range_start,range_end,result`, and `tables.csv` with
//!   `table_id,title,dice` in front, and the pipe form `01-04|result`), and the common shapes
//!   `weight,result` and `range,result` (a header names the columns; without one, `range,result`).
//!
//! Nothing is written unless every table imports and the content folder with the new files passes the
//! checker; then each file is written atomically. A formula blockprint cannot read, a weight that is not
//! a positive number, a table id the folder already has or a file the folder already holds is refused
//! with the file, the table and the fix (exit 1; an unreadable file exits 2).
//!
//! Round trip: `export` then `import` then `export` gives the same files byte for byte. Ids come back
//! from the names the exports write (a Foundry `_id` is matched against the ids its file name allows),
//! and a source holding several tables (a Roll20 file, `tables.csv`) is written to a folder of its own
//! with numbered files, so the tables keep their order.
//!
//! Each format has its reader (`foundry`, `roll20`, `spreadsheet`), which turns a file into drafts; this
//! module reads formulas and inline rolls, resolves links between tables, checks and writes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::error::AppError;
use blockprint_content::error::{Error, Result};
use blockprint_content::{ContentRoot, diag::Diagnostic};
use blockprint_kinds::export;

mod foundry;
mod roll20;
mod spreadsheet;

/// The formats `import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Foundry,
    Roll20,
    Csv,
}

impl Format {
    fn label(self) -> &'static str {
        match self {
            Format::Foundry => "Foundry VTT RollTable",
            Format::Roll20 => "Roll20 TableExport",
            Format::Csv => "CSV",
        }
    }
}

/// One table written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedTable {
    pub id: String,
    pub title: String,
    pub dice: String,
    pub rows: usize,
    /// The file written, relative to the content folder.
    pub file: String,
    /// The source file it came from, as given.
    pub source: String,
    /// A note the import added (a die no dice bag holds), if any.
    pub note: Option<String>,
}

/// What an import did.
#[derive(Debug, Clone, Default)]
pub struct Imported {
    pub tables: Vec<ImportedTable>,
    /// Files of a Foundry folder that are no RollTable (a Cards deck, a manifest), left alone.
    pub skipped: Vec<String>,
}

/// A table read from a source, before it has an id.
#[derive(Debug, Clone)]
struct Draft {
    /// The name the source gives it (for messages): a Foundry or Roll20 name, a CSV table id or file.
    name: String,
    /// The id the source implies, if it implies a valid one.
    id: Option<String>,
    title: String,
    dice: String,
    note: Option<String>,
    rows: Vec<(String, String)>,
    /// The source file, as given, and its file name for `imported`.
    source: String,
    file_name: String,
    format: Format,
    /// For a source holding several tables: its stem (the folder the tables go to) and the position.
    group: Option<(String, usize)>,
    /// Foundry: the document's `_id`, so links to it resolve.
    foundry_id: Option<String>,
    /// A note the import adds (a die no dice bag holds).
    added_note: Option<String>,
}

fn refuse(source: &str, table: &str, why: impl std::fmt::Display, fix: &str) -> Error {
    AppError::ImportRefused {
        source: source.to_owned(),
        table: Some(table.to_owned()),
        why: why.to_string(),
        fix: fix.to_owned(),
    }
    .into()
}

fn refuse_file(source: &str, why: impl std::fmt::Display, fix: &str) -> Error {
    AppError::ImportRefused {
        source: source.to_owned(),
        table: None,
        why: why.to_string(),
        fix: fix.to_owned(),
    }
    .into()
}

/// Import `files` of `format` into the content folder `into` (made when missing).
pub fn import(format: Format, files: &[PathBuf], into: &Path) -> Result<Imported> {
    if files.is_empty() {
        return Err(AppError::ImportNoFiles.into());
    }
    let mut drafts = Vec::new();
    let mut skipped = Vec::new();
    for path in files {
        match format {
            Format::Foundry => foundry::files(path, &mut drafts, &mut skipped)?,
            Format::Roll20 => roll20::file(path, &mut drafts)?,
            Format::Csv => spreadsheet::file(path, &mut drafts)?,
        }
    }
    if drafts.is_empty() {
        return Err(AppError::ImportNoTable {
            files: files.iter().map(|p| p.display().to_string()).collect(),
            format: format.label(),
        }
        .into());
    }
    // The folder's content as it is: ids taken, files there.
    let root = ContentRoot::Dir(into.to_path_buf());
    let existing: Vec<(String, Vec<u8>)> = if into.exists() {
        root.files().map_err(|e| Error::Io {
            path: into.to_path_buf(),
            source: e,
        })?
    } else {
        Vec::new()
    };
    let (lib, _) = blockprint_content::load_files(existing.clone());
    let mut taken: BTreeMap<String, String> = lib
        .tables
        .iter()
        .map(|t| (t.id.value.clone(), lib.file_of(&t.id.loc).to_owned()))
        .chain(
            lib.lookups
                .iter()
                .map(|l| (l.id.value.clone(), lib.file_of(&l.id.loc).to_owned())),
        )
        .chain(
            lib.decks
                .iter()
                .map(|d| (d.id.value.clone(), lib.file_of(&d.id.loc).to_owned())),
        )
        .collect();
    // Ids: the source's when it gives a valid one (refused when the folder has it), else one made from
    // the name, made unique.
    let mut ids = Vec::with_capacity(drafts.len());
    let mut ours: BTreeSet<String> = BTreeSet::new();
    for d in &drafts {
        let id = match &d.id {
            Some(id) => {
                if let Some(file) = taken.get(id) {
                    return Err(AppError::ImportTaken {
                        source: d.source.clone(),
                        table: d.name.clone(),
                        taken: format!(
                            "the content folder {} already has a table `{id}` ({file})",
                            into.display()
                        ),
                        or: "rename or remove that table first",
                    }
                    .into());
                }
                if !ours.insert(id.clone()) {
                    return Err(refuse(
                        &d.source,
                        &d.name,
                        format!("another table of this import is also `{id}`"),
                        "import the two sources into different content folders, or rename one of the tables in its source",
                    ));
                }
                id.clone()
            }
            None => {
                let base = slugify(&d.name);
                let mut id = base.clone();
                let mut n = 2;
                while taken.contains_key(&id) || ours.contains(&id) {
                    id = format!("{base}_{n}");
                    n += 1;
                }
                ours.insert(id.clone());
                id
            }
        };
        ids.push(id);
    }
    for id in &ids {
        taken.insert(id.clone(), String::new());
    }
    // Links between Foundry documents: `_id` to the imported id and title.
    let by_foundry_id: BTreeMap<String, (String, String)> = drafts
        .iter()
        .zip(&ids)
        .filter_map(|(d, id)| {
            d.foundry_id
                .clone()
                .map(|f| (f, (id.clone(), d.title.clone())))
        })
        .collect();
    // The files: one per table; a source of several tables gets a folder with numbered files.
    let group_sizes: BTreeMap<(String, String), usize> =
        drafts.iter().fold(BTreeMap::new(), |mut m, d| {
            if let Some((g, _)) = &d.group {
                *m.entry((d.source.clone(), g.clone())).or_insert(0) += 1;
            }
            m
        });
    let mut planned: Vec<(String, Vec<u8>)> = Vec::new();
    let mut written = Vec::new();
    let mut rels: BTreeSet<String> = BTreeSet::new();
    for (d, id) in drafts.iter().zip(&ids) {
        let rows = d
            .rows
            .iter()
            .map(|(on, text)| Ok((on.clone(), resolve_links(text, &by_foundry_id, d)?)))
            .collect::<Result<Vec<_>>>()?;
        let slug = id.replace('.', "_");
        let rel = match &d.group {
            Some((g, i)) => {
                let n = group_sizes[&(d.source.clone(), g.clone())];
                let width = n.to_string().len().max(2);
                format!("{}/{:0width$}-{slug}.toml", slugify(g), i + 1)
            }
            None => format!("{slug}.toml"),
        };
        if !rels.insert(rel.clone()) || into.join(&rel).exists() {
            return Err(AppError::ImportTaken {
                source: d.source.clone(),
                table: d.name.clone(),
                taken: format!("{} already exists", into.join(&rel).display()),
                or: "move that file away first",
            }
            .into());
        }
        let note = match (&d.note, &d.added_note) {
            (Some(a), Some(b)) => Some(format!("{a}\n\n{b}")),
            (a, b) => a.clone().or(b.clone()),
        };
        let imported = format!("{}, {}", d.format.label(), d.file_name);
        let text = toml_table(id, &d.title, &d.dice, note.as_deref(), &imported, &rows);
        planned.push((rel.clone(), text.into_bytes()));
        written.push(ImportedTable {
            id: id.clone(),
            title: d.title.clone(),
            dice: d.dice.clone(),
            rows: rows.len(),
            file: rel,
            source: d.source.clone(),
            note: d.added_note.clone(),
        });
    }
    // The folder with the new files must pass the checker, as far as the new files go.
    let mut all = existing;
    all.extend(planned.iter().cloned());
    all.sort_by(|a, b| a.0.cmp(&b.0));
    let (lib, load_diags) = blockprint_content::load_files(all);
    let report = blockprint_content::check::run(&lib, load_diags);
    let new: BTreeMap<&str, &ImportedTable> =
        written.iter().map(|t| (t.file.as_str(), t)).collect();
    let faults: Vec<&Diagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| d.is_error() && new.contains_key(d.file.as_str()))
        .collect();
    if let Some(first) = faults.first() {
        let t = new[first.file.as_str()];
        let draft = drafts
            .iter()
            .zip(&ids)
            .find(|(_, id)| **id == t.id)
            .map(|(d, _)| d);
        let name = draft.map_or(t.id.as_str(), |d| d.name.as_str());
        return Err(AppError::ImportTable {
            source: t.source.clone(),
            table: name.to_owned(),
            problem: first.message.clone(),
            more: faults.len() - 1,
            hint: first.hint.clone(),
        }
        .into());
    }
    for (rel, bytes) in &planned {
        let path = into.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::Io {
                path: dir.to_path_buf(),
                source: e,
            })?;
        }
        blockprint_render::output::write_atomic(&path, bytes).map_err(|e| Error::Io {
            path: path.clone(),
            source: e,
        })?;
    }
    Ok(Imported {
        tables: written,
        skipped,
    })
}

/// An id made from a name: lowercase ASCII letters and digits, other runs as `_`.
fn slugify(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('_') {
            s.push('_');
        }
    }
    let s = s.trim_matches(['_', '.', '-']).to_owned();
    if s.starts_with(|c: char| c.is_ascii_lowercase()) {
        s
    } else if s.is_empty() {
        "table".into()
    } else {
        format!("table_{s}")
    }
}

fn valid_id(id: &str) -> bool {
    id.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-'))
}

/// A title from a name made for machines (`bbb_homicide_district` → `Bbb homicide district`).
fn title_of(name: &str) -> String {
    let words = name.replace('_', " ");
    let mut c = words.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => words,
    }
}

fn quote(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

/// The TOML of one imported table.
fn toml_table(
    id: &str,
    title: &str,
    dice: &str,
    note: Option<&str>,
    imported: &str,
    rows: &[(String, String)],
) -> String {
    let mut s = String::from("[[table]]\n");
    s.push_str(&format!("id = {}\n", quote(id)));
    s.push_str(&format!("title = {}\n", quote(title)));
    s.push_str(&format!("dice = {}\n", quote(dice)));
    if let Some(n) = note {
        s.push_str(&format!("note = {}\n", quote(n)));
    }
    s.push_str(&format!("imported = {}\n", quote(imported)));
    s.push_str("rows = [\n");
    for (on, result) in rows {
        s.push_str(&format!(
            "  {{ on = {}, result = {} }},\n",
            quote(on),
            quote(result)
        ));
    }
    s.push_str("]\n");
    s
}

fn on(lo: i64, hi: i64) -> String {
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}-{hi}")
    }
}

/// Dice a reader's bag holds.
const COMMON_DICE: [u64; 9] = [2, 3, 4, 6, 8, 10, 12, 20, 100];

/// What weights become: the dice, the rows (`on`, result) and a note when the die is uncommon.
type Weighted = (String, Vec<(String, String)>, Option<String>);

/// Rows from weights: ranges of one die with as many faces as the weights add up to (after scaling
/// fractional weights to the least whole numbers), and a note when no common die has that many faces.
fn weighted(source: &str, table: &str, items: Vec<(String, String)>) -> Result<Weighted> {
    // Weights as exact fractions, scaled by the least common multiple of their denominators.
    let mut parsed = Vec::new();
    for (w, text) in items {
        let (num, den) = decimal(&w).ok_or_else(|| {
            refuse(
                source,
                table,
                format!("the weight `{w}` of `{text}` is not a number"),
                "give every result a weight that is a positive number (1, 2, 0.5)",
            )
        })?;
        if num == 0 {
            return Err(refuse(
                source,
                table,
                format!("`{text}` has the weight {w}, so it can never come up"),
                "give it a weight above 0, or delete it",
            ));
        }
        parsed.push((num, den, text));
    }
    let lcm = parsed.iter().fold(1u64, |a, (_, d, _)| lcm(a, *d));
    let mut lo = 1i64;
    let mut rows = Vec::new();
    for (num, den, text) in parsed {
        let w = i64::try_from(num * (lcm / den)).unwrap_or(i64::MAX);
        rows.push((on(lo, lo + w - 1), text));
        lo += w;
    }
    let n = lo - 1;
    let note = (!COMMON_DICE.contains(&(n as u64))).then(|| {
        format!(
            "The weights add up to {n}, so this table is rolled on one die of {n} faces, which no common die has: roll 1d{n} with a dice app, or roll a larger die and roll again above {n}."
        )
    });
    Ok((format!("1d{n}"), rows, note))
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn lcm(a: u64, b: u64) -> u64 {
    a / gcd(a, b) * b
}

/// A non-negative decimal as a fraction `(numerator, denominator)`, at most six places.
fn decimal(s: &str) -> Option<(u64, u64)> {
    let s = s.trim();
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 6
        || int.len() > 12
    {
        return None;
    }
    let den = 10u64.pow(frac.len() as u32);
    let num = int.parse::<u64>().unwrap_or(0) * den + frac.parse::<u64>().unwrap_or(0);
    let g = gcd(num, den).max(1);
    Some((num / g, den / g))
}

/// A formula in Foundry's notation as blockprint writes it: `x` (explode) as `!`, `df` as `dF`, an
/// inline `/r` dropped. `None` when blockprint cannot read the result.
fn from_foundry(f: &str) -> std::result::Result<String, String> {
    let f = f.trim();
    let f = f
        .strip_prefix("/roll ")
        .or_else(|| f.strip_prefix("/r "))
        .unwrap_or(f);
    let chars: Vec<char> = f.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut in_dice = false;
    while i < chars.len() {
        let c = chars[i];
        if c == 'd' || c == 'D' {
            in_dice = true;
            out.push('d');
            if matches!(chars.get(i + 1), Some('f' | 'F')) {
                out.push('F');
                i += 2;
                continue;
            }
        } else if in_dice && c == 'x' {
            if chars.get(i + 1) == Some(&'o') {
                return Err("`xo` (explode once), which blockprint does not have".into());
            }
            out.push('!');
        } else {
            if !(c.is_ascii_digit() || c.is_ascii_alphabetic() || matches!(c, '<' | '>' | '=')) {
                in_dice = false;
            }
            out.push(c);
        }
        i += 1;
    }
    checked_dice(&out)
}

/// A formula in Roll20's notation as blockprint writes it: a target after the dice (`5d6>6`, Roll20's
/// "at least") as counting successes (`5d6cs>=6`), `{3d6!}>6` likewise. An explosion on a chosen face
/// (`1d6!>5`) and anything else blockprint cannot read is refused.
fn from_roll20(f: &str) -> std::result::Result<String, String> {
    let chars: Vec<char> = f.trim().chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '{' | '}' => {}
            '>' | '<' | '=' => {
                if i > 0 && chars[i - 1] == '!' {
                    return Err(
                        "an explosion on chosen faces (`!>N`), which blockprint does not have: its `!` explodes on the highest face".into(),
                    );
                }
                out.push_str(match c {
                    '>' => "cs>=",
                    '<' => "cs<=",
                    _ => "cs=",
                });
            }
            _ => out.push(c),
        }
        i += 1;
    }
    if chars.contains(&'{') && !chars.iter().any(|c| matches!(c, '>' | '<' | '=')) {
        return Err("a group of rolls (`{…}`), which blockprint does not have".into());
    }
    checked_dice(&out)
}

fn checked_dice(expr: &str) -> std::result::Result<String, String> {
    match blockprint_dice::parse(expr) {
        Ok(e) => match e.distribution() {
            Ok(_) => Ok(expr.to_owned()),
            Err(err) => Err(format!("`{expr}`: {}", err.message)),
        },
        Err(err) => Err(format!(
            "`{expr}` is not dice blockprint reads: {}",
            err.message
        )),
    }
}

/// A text with `[[…]]` inline rolls as blockprint's `{…}`, each formula read by `formula`; a Roll20
/// table roll `[[1t[name]]]` as a reference (a `{table:…}` placeholder resolved later).
fn inline_rolls(
    text: &str,
    formula: fn(&str) -> std::result::Result<String, String>,
) -> std::result::Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("[[") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        // The roll ends at the first `]]` that closes it (a Roll20 `1t[name]` holds one `]`).
        let end = if let Some(name) = after.strip_prefix("1t[") {
            name.find("]]]").map(|e| e + 3 + 3)
        } else {
            after.find("]]").map(|e| e + 2)
        };
        let Some(end) = end else {
            return Err(format!("`[[` without its `]]` in `{text}`"));
        };
        let inner = &after[..end - 2];
        if let Some(name) = inner.strip_prefix("1t[").and_then(|n| n.strip_suffix(']')) {
            out.push_str(&format!("{{table20:{name}}}"));
        } else {
            out.push('{');
            out.push_str(&formula(inner)?);
            out.push('}');
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Turn the placeholders left by reading a source into references: `{table20:NAME}` (a Roll20 table
/// roll, by table name) and `{foundry:ID}` (a Foundry link, by document id), to the imported table's id;
/// a link to a table this import does not hold keeps the title it shows.
fn resolve_links(
    text: &str,
    by_foundry: &BTreeMap<String, (String, String)>,
    d: &Draft,
) -> Result<String> {
    // A Foundry `document` result: the linked table's title in the text becomes the reference.
    let owned;
    let text = match text
        .strip_prefix("{docref:")
        .and_then(|r| r.split_once('}'))
    {
        Some((fid, shown)) => {
            owned = match by_foundry.get(fid) {
                Some((id, title)) if !title.is_empty() => match shown.rfind(title.as_str()) {
                    Some(at) => format!(
                        "{}{{table:{id}}}{}",
                        &shown[..at],
                        &shown[at + title.len()..]
                    ),
                    None => shown.to_owned(),
                },
                _ => shown.to_owned(),
            };
            owned.as_str()
        }
        None => text,
    };
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("{table20:").or_else(|| rest.find("{foundry:")) {
        let start = [rest.find("{table20:"), rest.find("{foundry:")]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(start);
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let end = after.find('}').unwrap_or(after.len() - 1);
        let inner = &after[1..end];
        if let Some(name) = inner.strip_prefix("table20:") {
            let id = if valid_id(name) {
                name.to_owned()
            } else {
                slugify(name)
            };
            out.push_str(&format!("{{table:{id}}}"));
        } else if let Some(rest_id) = inner.strip_prefix("foundry:") {
            let (fid, title) = rest_id.split_once('|').unwrap_or((rest_id, ""));
            match by_foundry.get(fid) {
                Some((id, _)) => out.push_str(&format!("{{table:{id}}}")),
                None => out.push_str(title),
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    let _ = d;
    Ok(out)
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::Io {
        path: path.to_path_buf(),
        source: e,
    })
}
