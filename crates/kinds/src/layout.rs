//! Layout kinds: a `templates/<kind>/kind.toml` in, a document kind out that lays out checked content with
//! no Rust of its own (reference sheets, blank forms, trackers). The file names the kind's template and the
//! content it shows; what it shows is also what it requires, so `blockprint check` reports anything missing.
//!
//! ```toml
//! name = "tables"                  # command-line and folder name
//! about = "every table with exact odds"
//! title = "Tables and references"  # PDF title
//! template = "tables"              # tables.typ (PDF) and/or tables.md.j2 (Markdown) beside this file
//! formats = ["md", "json"]         # what `build` makes; json writes exactly what the templates see
//! [shows]                          # all = true, or lists of ids
//! tables = ["bbb.homicide.district"]
//! ```
//!
//! The templates see `paper`, `generator`, `content_version`, `source`, `title` and the shown `tables`
//! (with exact odds), `lookups`, `decks`, `npcs` and `editorial` fills — the shapes `blockprint tables
//! --json` prints.

use serde::Deserialize;

use super::{Checked, Document, Kind, Request, Requirements};
use crate::data;
use crate::error::Problem;
use blockprint_content::error::Result;
use blockprint_render::{Format, Templates};

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    name: String,
    about: String,
    title: String,
    template: Option<String>,
    stem: Option<String>,
    formats: Vec<Format>,
    #[serde(default)]
    shows: Shows,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Shows {
    #[serde(default)]
    all: bool,
    #[serde(default)]
    tables: Vec<String>,
    #[serde(default)]
    lookups: Vec<String>,
    #[serde(default)]
    decks: Vec<String>,
    #[serde(default)]
    npcs: bool,
}

/// A layout kind read from its `kind.toml`.
#[derive(Debug, Clone)]
pub struct LayoutKind {
    pub name: String,
    /// Where the spec was read from, for messages.
    pub file: String,
    folder: String,
    spec: Spec,
    info: crate::KindInfo,
}

/// Every `<kind>/kind.toml` among the templates, in folder order.
pub fn discover(templates: &Templates) -> Result<Vec<LayoutKind>> {
    let mut out = Vec::new();
    for (path, f) in &templates.files {
        let Some(folder) = path.strip_suffix("/kind.toml") else {
            continue;
        };
        if folder.contains('/') {
            continue;
        }
        let spec: Spec = toml::from_str(&f.text).map_err(|e| Problem::KindToml {
            file: f.shown_as.clone(),
            line: e
                .span()
                .map(|s| f.text[..s.start.min(f.text.len())].matches('\n').count() + 1),
            message: e.message().to_owned(),
        })?;
        let template = spec.template.clone().unwrap_or_else(|| spec.name.clone());
        for fmt in &spec.formats {
            let needed = match fmt {
                Format::Pdf => Some(format!("{folder}/{template}.typ")),
                Format::Md => Some(format!("{folder}/{template}.md.j2")),
                Format::Json => None,
                Format::Csv | Format::Txt => {
                    return Err(Problem::KindFormat {
                        file: f.shown_as.clone(),
                        format: serde_json::to_value(fmt).unwrap_or_default().to_string(),
                    }
                    .into());
                }
            };
            if let Some(n) = needed
                && !templates.files.contains_key(&n)
            {
                return Err(Problem::KindTemplate {
                    file: f.shown_as.clone(),
                    format: serde_json::to_value(fmt).unwrap_or_default().to_string(),
                    template: n,
                }
                .into());
            }
        }
        let valid = !spec.name.is_empty()
            && spec
                .name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !valid {
            return Err(Problem::KindName {
                file: f.shown_as.clone(),
                name: spec.name.clone(),
            }
            .into());
        }
        // A layout kind writes into a folder of its own name; its requirements are the user's own lists,
        // so they are checked on any content.
        let info = crate::KindInfo {
            name: spec.name.clone().into(),
            title: spec.title.clone().into(),
            about: spec.about.clone().into(),
            folder: spec.name.clone().into(),
            formats: spec.formats.clone().into(),
            papers: &crate::Paper::ALL,
            rolls: false,
            requires_always: true,
        };
        out.push(LayoutKind {
            name: spec.name.clone(),
            file: f.shown_as.clone(),
            folder: folder.to_owned(),
            spec,
            info,
        });
    }
    Ok(out)
}

impl LayoutKind {
    fn template(&self) -> String {
        format!(
            "{}/{}",
            self.folder,
            self.spec.template.as_deref().unwrap_or(&self.spec.name)
        )
    }
}

impl Kind for LayoutKind {
    fn info(&self) -> &crate::KindInfo {
        &self.info
    }
    fn requires(&self) -> Requirements {
        let s = &self.spec.shows;
        Requirements {
            tables: s.tables.clone(),
            lookups: s.lookups.clone(),
            decks: s.decks.clone(),
            ..Requirements::default()
        }
    }
    fn count(&self, _cx: &Checked, _req: &Request) -> Result<usize> {
        Ok(1)
    }
    fn document(&self, cx: &Checked, req: &Request, _i: usize) -> Result<Document> {
        let r = data::reference(&cx.lib, &cx.report)
            .ok_or_else(|| crate::error::unchecked("has no odds for some table"))?;
        let s = &self.spec.shows;
        let pick = |ids: &[String], all: Vec<serde_json::Value>| -> serde_json::Value {
            if s.all {
                return all.into();
            }
            ids.iter()
                .filter_map(|id| all.iter().find(|v| v["id"] == id.as_str()).cloned())
                .collect::<Vec<_>>()
                .into()
        };
        let mut m = super::meta(cx, req);
        m.insert("title".into(), self.spec.title.clone().into());
        m.insert("tables".into(), pick(&s.tables, values(&r.tables)));
        m.insert("lookups".into(), pick(&s.lookups, values(&r.lookups)));
        m.insert("decks".into(), pick(&s.decks, values(&r.decks)));
        let npcs = if s.all || s.npcs {
            values(&r.npcs)
        } else {
            vec![]
        };
        m.insert("npcs".into(), npcs.into());
        let editorial = if s.all {
            values(&r.editorial)
        } else {
            let shown: Vec<&String> = s.tables.iter().chain(&s.lookups).chain(&s.decks).collect();
            values(&r.editorial)
                .into_iter()
                .filter(|f| shown.iter().any(|id| f["id"] == id.as_str()))
                .collect()
        };
        m.insert("editorial".into(), editorial.into());
        Ok(Document::new(
            self.spec.stem.clone().unwrap_or_else(|| self.name.clone()),
            self.template(),
            self.spec.title.clone(),
            m.into(),
        )
        .audience(crate::Audience::Gm))
    }
}

/// A list of serializable values as JSON values.
fn values<T: serde::Serialize>(v: &[T]) -> Vec<serde_json::Value> {
    v.iter()
        .map(|x| serde_json::to_value(x).unwrap_or_default())
        .collect()
}
