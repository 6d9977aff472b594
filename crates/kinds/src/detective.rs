//! Detectives: checked content and a batch request in; per detective the character sheet filled in (PDF,
//! the `sheet/character` template the blank sheet uses, see [`PDF_TEMPLATE`]; with `fillable` also a
//! filled, still-editable form), a Markdown sheet and JSON, then `index.md`. Detective
//! `first + i` of a batch is rolled from its own ChaCha20 stream, so any index range reproduces exactly
//! the same files. The registered kind makes the four pregenerated detectives `build` ships, one per
//! class from a fixed seed; `blockprint detective` makes batches ([`DetectiveKind::batch`]).

use serde::Serialize;
use serde_json::json;

use super::{Checked, Collect, Document, Index, Kind, Request, Requirements};
use blockprint_content::error::{Error, Result};
use blockprint_content::roll::detective::{self as roller, Detective, DetectiveRequest};
use blockprint_render::Format;

/// The typst template of the character sheet: the same source as the blank sheet, with the detective's
/// values typed in.
pub const PDF_TEMPLATE: &str = "sheet/character";
/// The formats a detective is written in.
pub const FORMATS: &[Format] = &[Format::Pdf, Format::Md, Format::Json];

/// Which detectives a run makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Set {
    /// One per class (in the class lookup's order), each from its class's showcase seed
    /// ([`roller::SHOWCASE_SEEDS`]).
    Pregenerated,
    /// `count` detectives of the request's batch, the class rolled or the one given.
    Batch { class: Option<String> },
}

/// The detective kind: the pregenerated set (registered) or a batch.
pub struct DetectiveKind {
    pub set: Set,
    /// Also write each sheet as a filled, still-editable PDF form (`<stem>-fillable.pdf`).
    pub fillable: bool,
}

/// The four pregenerated detectives, made by `build` and `make detective --pregenerated`.
/// Their sheets come with fillable copies, for groups that keep sheets on screen.
pub static PREGENERATED: DetectiveKind = DetectiveKind {
    set: Set::Pregenerated,
    fillable: true,
};

impl DetectiveKind {
    /// A batch of detectives, the class rolled (`None`) or given (a key of the class lookup).
    pub fn batch(class: Option<String>, fillable: bool) -> Self {
        DetectiveKind {
            set: Set::Batch { class },
            fillable,
        }
    }
}

/// The options of `make detective` (and of `blockprint detective`, its alias).
#[derive(Debug, Clone, clap::Args, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Options {
    /// The class (fighter, rogue, scholar, hotshot); rolled with even odds when left out.
    #[arg(long)]
    #[schemars(title = "Class", description = "Make every detective of this class. Blank: each one's class is rolled, every class with even odds.", extend("x-choices" = "classes", "x-none" = "Any class, rolled"))]
    pub class: Option<String>,
    /// Also write each character sheet as a filled, still-editable PDF form
    /// (`<stem>-fillable.pdf`, the field names of the blank sheet's fillable copy).
    #[arg(long)]
    #[schemars(
        title = "Fillable copies",
        description = "Also write each character sheet as a filled PDF form that can still be edited."
    )]
    pub fillable: bool,
    /// The four pregenerated detectives, one per class, as `build` makes them (into `pregenerated/`,
    /// with fillable copies); --seed, --count and --first-number do not apply.
    #[arg(long, conflicts_with_all = ["class", "fillable"])]
    #[schemars(
        title = "The four ready-made detectives",
        description = "One detective of each class, the same every time, as the full set makes them. How many, seed, class and fillable copies do not apply."
    )]
    pub pregenerated: bool,
}

/// The registered detective kind: `build` makes the pregenerated set, `make detective` a batch.
pub static DEF: crate::Declared<Options> = crate::Declared {
    base: &PREGENERATED,
    configure,
    after: None,
    rolls: true,
};

fn configure(cx: &Checked, o: &Options) -> Result<Box<dyn Kind>> {
    if o.pregenerated {
        return Ok(Box::new(&PREGENERATED));
    }
    let class = o
        .class
        .as_deref()
        .map(|c| class_named(&cx.lib, c))
        .transpose()?;
    Ok(Box::new(DetectiveKind::batch(class, o.fillable)))
}

/// Everything the detective generator reads from content.
pub fn requirements() -> Requirements {
    Requirements {
        tables: vec![
            roller::MODIFIER.into(),
            roller::ASSIGNMENT.into(),
            roller::TAGLINE.into(),
            roller::TIER_SWAP.into(),
        ]
        .into_iter()
        .chain(names())
        .collect(),
        lookups: vec![roller::ATTRIBUTES.into(), roller::RELATIONSHIPS.into()],
        row_tags: vec![
            (roller::TIER_SWAP.into(), vec!["swap".into(), "keep".into()]),
            name_tags().0,
            name_tags().1,
        ],
        class_tables: vec![roller::BACKGROUND.into()],
        class_lookups: vec![(roller::FORCED.into(), Some(roller::ATTRIBUTES.into()))],
        keys: roller::ATTRIBUTE_KEYS
            .iter()
            .map(|k| (roller::ATTRIBUTES.to_owned(), (*k).to_owned()))
            .collect(),
        modifier_tables: vec![(roller::MODIFIER.into(), 3, 18)],
        ..Requirements::default()
    }
}

/// The name tables every named character needs (gender, heritage, then first names and surnames).
pub fn names() -> Vec<String> {
    let mut v = vec![
        roller::NAME_GENDER.to_owned(),
        roller::NAME_HERITAGE.to_owned(),
    ];
    for e in blockprint_content::roll::case::ETHNICITY_TAGS {
        for g in ["male", "female", "surname"] {
            v.push(format!("bbb.names.{e}.{g}"));
        }
    }
    v
}

/// The tags the gender and heritage tables' rows must carry.
pub fn name_tags() -> ((String, Vec<String>), (String, Vec<String>)) {
    let s = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
    (
        (
            roller::NAME_GENDER.into(),
            s(&blockprint_content::roll::case::GENDER_TAGS),
        ),
        (
            roller::NAME_HERITAGE.into(),
            s(&blockprint_content::roll::case::ETHNICITY_TAGS),
        ),
    )
}

/// What `<stem>.json` holds: where the detective came from, then the detective.
#[derive(Serialize)]
struct File<'a> {
    number: u32,
    seed: u64,
    batch_seed: u64,
    content_version: &'a str,
    generator: String,
    rerun: &'a str,
    detective: &'a Detective,
}

impl DetectiveKind {
    /// The request of item `i`: (batch seed, number, class).
    fn item(&self, cx: &Checked, req: &Request, i: usize) -> Result<DetectiveRequest> {
        Ok(match &self.set {
            Set::Pregenerated => {
                let classes = roller::classes(&cx.lib).map_err(Error::from)?;
                let class = classes
                    .entries
                    .get(i)
                    .map(|e| e.key.value.clone())
                    .ok_or_else(|| {
                        crate::error::no_document("detective", i, classes.entries.len())
                    })?;
                DetectiveRequest {
                    batch_seed: roller::pregenerated_seed(&class),
                    number: i as u32 + 1,
                    class: Some(class),
                }
            }
            Set::Batch { class } => DetectiveRequest {
                batch_seed: req.seed,
                number: req.first + i as u32,
                class: class.clone(),
            },
        })
    }
}

/// The file name of a class: lower case, letters and digits.
fn slug(class: &str) -> String {
    class
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The pregenerated set: one detective per class, the same every time (`build` makes it).
pub static PREGENERATED_INFO: crate::KindInfo = crate::KindInfo::new(
    "detective",
    "detectives by the rules' character creation, or the showcase set: one of each class, the same every time",
    "pregenerated",
    FORMATS,
)
.titled("Detectives")
.papers(crate::HOME_PAPERS);

/// A batch of detectives rolled from a seed. The sheet lays out A4 and Letter.
pub static BATCH_INFO: crate::KindInfo = crate::KindInfo::new(
    "detective",
    "detectives rolled by the rules' character creation",
    "detectives",
    FORMATS,
)
.titled("Detectives")
.papers(crate::HOME_PAPERS)
.rolls();

impl Kind for DetectiveKind {
    fn info(&self) -> &crate::KindInfo {
        match self.set {
            Set::Pregenerated => &PREGENERATED_INFO,
            Set::Batch { .. } => &BATCH_INFO,
        }
    }
    fn requires(&self) -> Requirements {
        requirements()
    }
    fn check_formats(&self, formats: &[Format]) -> Result<()> {
        if self.fillable && matches!(self.set, Set::Batch { .. }) && !formats.contains(&Format::Pdf)
        {
            return Err(crate::error::Problem::FillableWithoutPdf.into());
        }
        Ok(())
    }
    fn count(&self, cx: &Checked, req: &Request) -> Result<usize> {
        Ok(match self.set {
            Set::Pregenerated => roller::classes(&cx.lib).map_or(0, |c| c.entries.len()),
            Set::Batch { .. } => req.count as usize,
        })
    }

    fn document(&self, cx: &Checked, req: &Request, i: usize) -> Result<Document> {
        let item = self.item(cx, req, i)?;
        let (det, seed) = roller::roll_detective(&cx.lib, &item)?;
        let stem = match (&self.set, &item.class) {
            (Set::Pregenerated, _) => format!("detective-{}", slug(&det.class)),
            (Set::Batch { .. }, None) => format!("detective-{:05}", item.number),
            (Set::Batch { .. }, Some(c)) => format!("detective-{:05}-{}", item.number, slug(c)),
        };
        let mut rerun = format!(
            "detective --seed {} --first-number {} --count 1",
            item.batch_seed, item.number
        );
        if let Some(c) = &item.class {
            rerun.push_str(&format!(" --class {}", c.to_lowercase()));
        }
        let bug = |e: serde_json::Error| crate::error::write("a detective's data", e);
        let file = File {
            number: item.number,
            seed,
            batch_seed: item.batch_seed,
            content_version: &cx.lib.version,
            generator: format!("blockprint {}", env!("CARGO_PKG_VERSION")),
            rerun: &rerun,
            detective: &det,
        };
        let pretty = serde_json::to_string_pretty(&file).map_err(bug)? + "\n";
        // What the blank sheet sees, with the detective filled in.
        let mut data = match super::sheet::character_data(
            cx,
            req,
            serde_json::to_value(&det).map_err(bug)?,
        )? {
            serde_json::Value::Object(m) => m,
            _ => {
                return Err(crate::error::invariant(
                    "the character sheet's data is not an object",
                ));
            }
        };
        data.insert("batch_seed".into(), item.batch_seed.into());
        data.insert("number".into(), item.number.into());
        data.insert("seed".into(), seed.into());
        data.insert("rerun".into(), rerun.clone().into());
        data.insert("fillable".into(), self.fillable.into());
        Ok(Document::new(
            stem,
            PDF_TEMPLATE,
            format!("{} — {} detective", det.name, det.class),
            data.into(),
        )
        .audience(crate::Audience::Player)
        .json(pretty)
        .bookmark(format!("{} ({})", det.name, det.class))
        .summary(json!({
            "number": item.number,
            "name": det.name,
            "class": det.class,
            "hp": det.hp.max,
            "forced": det.forced,
            "background": det.backgrounds.first().map(|b| b.text.clone()),
        })))
    }

    fn markdown(
        &self,
        _cx: &Checked,
        engine: &dyn crate::Markdown,
        doc: &Document,
    ) -> Result<Vec<(String, Vec<u8>)>> {
        let text = engine.markdown("detective/detective.md.j2", &doc.data)?;
        Ok(vec![(format!("{}.md", doc.stem), text.into_bytes())])
    }

    fn collect(&self) -> Collect {
        Collect {
            index: Some(Index {
                rel: "index.md".into(),
                head: "detective/index.md.j2".into(),
                row: "detective/index-row.md.j2".into(),
            }),
            merges: vec![],
        }
    }

    fn head(&self, cx: &Checked, req: &Request) -> serde_json::Map<String, serde_json::Value> {
        let mut data = super::meta(cx, req);
        match &self.set {
            Set::Pregenerated => {
                data.insert("pregenerated".into(), true.into());
                // Each class has its own seed: the index lists them.
                let seeds: serde_json::Map<String, serde_json::Value> = roller::SHOWCASE_SEEDS
                    .iter()
                    .map(|&(c, s)| (c.to_owned(), s.into()))
                    .collect();
                data.insert("showcase_seeds".into(), seeds.into());
            }
            Set::Batch { class } => {
                data.insert("pregenerated".into(), false.into());
                data.insert("batch_seed".into(), req.seed.into());
                data.insert("first".into(), req.first.into());
                data.insert("count".into(), req.count.into());
                data.insert(
                    "class".into(),
                    class.as_ref().map(|c| c.to_lowercase()).into(),
                );
            }
        }
        data
    }
}

/// The character sheet's field values for a detective (the `detective` kind's `<Detective>` JSON; see
/// `/work/contract-detective.md` and the README's list of field names). Missing parts are left out.
pub fn detective_values(
    detective: &serde_json::Value,
) -> Vec<(String, blockprint_render::form::FieldValue)> {
    let t = |s: String| blockprint_render::form::FieldValue::Text(s);
    let mut out = Vec::new();
    let mut text = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            out.push((k.to_owned(), t(v)));
        }
    };
    let d = detective;
    let s = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    text("name", s(&d["name"]));
    text("class", s(&d["class"]));
    text("level", s(&d["level"]));
    text("xp", s(&d["xp"]));
    if let Some(attrs) = d["attributes"].as_array() {
        for a in attrs {
            let Some(key) = a["key"].as_str() else {
                continue;
            };
            text(key, s(&a["score"]));
            text(&format!("{key}_mod"), a["modifier"].as_i64().map(signed));
        }
    }
    text("hp_max", s(&d["hp"]["max"]));
    // A new detective starts at full HP.
    text("hp_current", s(&d["hp"]["max"]));
    if let Some(bs) = d["backgrounds"].as_array() {
        for b in bs {
            if let (Some(level), Some(body)) = (b["level"].as_u64(), b["text"].as_str()) {
                let class = b["class"]
                    .as_str()
                    .map(|c| format!(" ({c})"))
                    .unwrap_or_default();
                text(
                    &format!("background_{level}"),
                    Some(format!("{body}{class}")),
                );
            }
        }
    }
    text("assignment", s(&d["assignment"]));
    text("tagline", s(&d["tagline"]));
    let mut checks = Vec::new();
    if let Some(rs) = d["relationships"].as_array() {
        for (i, r) in rs.iter().enumerate().take(5) {
            let k = i + 1;
            text(&format!("rel_{k}_tier"), s(&r["tier"]));
            text(&format!("rel_{k}_name"), s(&r["name"]));
            if let Some(strained) = r["strained"].as_bool() {
                checks.push((
                    format!("rel_{k}_good"),
                    blockprint_render::form::FieldValue::Check(!strained),
                ));
                checks.push((
                    format!("rel_{k}_strained"),
                    blockprint_render::form::FieldValue::Check(strained),
                ));
            }
        }
    }
    if let Some(xp) = d["xp"].as_u64() {
        for i in 1..=xp.min(XP_BOXES) {
            checks.push((
                format!("xp_{i}"),
                blockprint_render::form::FieldValue::Check(true),
            ));
        }
    }
    out.extend(checks);
    out
}

/// How many boxes the character sheet's xp track has.
pub const XP_BOXES: u64 = 20;

/// `+1`, `−1`, `0`, as the sheet prints modifiers.
fn signed(n: i64) -> String {
    match n {
        n if n > 0 => format!("+{n}"),
        n if n < 0 => format!("−{}", -n),
        _ => "0".into(),
    }
}

/// The content's class that `wanted` names (any case), for the class option of detectives and NPCs; a
/// name the content has no class for is refused with the classes it has.
pub(crate) fn class_named(lib: &blockprint_content::Library, wanted: &str) -> Result<String> {
    if let Some(key) = roller::find_class(lib, wanted)? {
        return Ok(key);
    }
    let classes = roller::classes(lib)?
        .entries
        .iter()
        .map(|e| e.key.value.to_lowercase())
        .collect();
    Err(crate::error::Problem::NoSuchClass {
        wanted: wanted.to_owned(),
        classes,
    }
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    use blockprint_render::form::FieldValue;

    #[test]
    fn detective_values_follow_the_contract() {
        let d = serde_json::json!({
            "name": "Ana Ruiz", "class": "Fighter", "level": 1, "xp": 2,
            "attributes": [{ "key": "str", "score": 13, "modifier": 1 }, { "key": "dex", "score": 7, "modifier": -1 }],
            "hp": { "max": 9 },
            "backgrounds": [{ "level": 1, "class": "Fighter", "text": "a boxer" }],
            "relationships": [{ "tier": 1, "role": "Detective partner", "name": "Walt", "strained": true }],
            "assignment": "the evidence locker", "tagline": "It never rains."
        });
        let v: BTreeMap<String, FieldValue> = detective_values(&d).into_iter().collect();
        let text = |k: &str| v.get(k).cloned();
        assert_eq!(text("str_mod"), Some(FieldValue::Text("+1".into())));
        assert_eq!(text("dex_mod"), Some(FieldValue::Text("−1".into())));
        assert_eq!(text("hp_max"), Some(FieldValue::Text("9".into())));
        assert_eq!(text("hp_current"), Some(FieldValue::Text("9".into())));
        assert_eq!(
            text("background_1"),
            Some(FieldValue::Text("a boxer (Fighter)".into()))
        );
        assert_eq!(text("rel_1_strained"), Some(FieldValue::Check(true)));
        assert_eq!(text("rel_1_good"), Some(FieldValue::Check(false)));
        assert_eq!(text("xp_2"), Some(FieldValue::Check(true)));
        assert_eq!(text("xp_3"), None);
    }
}
