//! Fillable PDF forms: the form-field marks a template places (`#metadata((field: …, kind: …, w: …, h: …,
//! value: …)) <bp-field>` at the top-left corner of each box, see `templates/sheet/sheet-lib.typ`) in; the
//! same PDF with an AcroForm out, one widget exactly over each drawn box. typst cannot write form fields, so
//! the marks are read back from the compiled document ([`marks`]) and the widgets added with lopdf
//! ([`add_fields`]). A filled form keeps its fields editable: [`fill`] sets values on a fillable PDF and
//! draws each value into the field's appearance stream, so every viewer shows it (`/NeedAppearances false`).
//!
//! Text fields are multi-line. A mark with `area: true` (a notes box) is a field whose lines start at its
//! top (kept in the widget as `/BlockprintArea true`); other values stand in the middle of their box, as the
//! print copy places them. Their appearances draw the value as the print copy types it
//! (`form/layout.rs`): Courier Prime with the templates' fallbacks per grapheme (Noto Naskh Arabic, Noto Serif
//! Hebrew, Noto Serif, Noto Emoji), shaped (joined Arabic, placed marks), right-to-left runs in visual order,
//! at the print copy's size (the mark's `size`, kept in the widget as `/BlockprintSize`) or the first of its
//! smaller sizes that fits. The fonts are embedded once per PDF as Type0 fonts subset to the glyphs drawn,
//! with ToUnicode maps (`form/embed.rs`); every [`fill`] draws every text appearance again, so the subsets always
//! hold exactly the glyphs in use. For typing in a viewer the form's `/DA` and `/DR` name Courier Prime
//! whole, as a simple WinAnsi TrueType font: a viewer that regenerates an appearance while the user types
//! needs a font it can encode any typed Latin text in, which a subset cannot promise. Checkboxes have `/On`
//! and `/Off` appearances (a drawn cross, no font).
//! Fields are listed, and tabbed through, row by row: top to bottom, then left to right (`/Tabs /R`).

use std::collections::BTreeMap;

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, StringFormat};
use typst::foundations::{Label, Selector, Value};
use typst::introspection::{Introspector, MetadataElem};
use typst::utils::PicoStr;
use typst_layout::PagedDocument;

mod embed;
mod layout;

/// What a form field holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldValue {
    Text(String),
    Check(bool),
}

/// A text field or a checkbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    Text,
    Check,
}

/// One field as the template marked it: page (1-based), top-left corner and size in typst points (origin at
/// the page's top left), and the value the template typed into it, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    pub name: String,
    pub kind: FieldKind,
    pub page: usize,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    pub value: Option<FieldValue>,
    /// The print copy's font size for the value (pt), for text fields whose mark gives it.
    pub size: Option<f64>,
    /// A text field that is an area (a notes box): its lines start at the top instead of standing in the
    /// middle of the box.
    pub area: bool,
}

/// The font size a text field's value starts from when its mark gives none (the templates' default).
pub const DEFAULT_SIZE: f64 = 11.0;

/// The widget key that keeps a text field's starting font size, so [`fill`] draws at the print copy's size.
const SIZE_KEY: &str = "BlockprintSize";

/// The widget key that marks a text field as an area (`true`): [`fill`] draws its lines from the top.
const AREA_KEY: &str = "BlockprintArea";

/// One field read back from a PDF: name, kind, page (1-based), rectangle in PDF user space
/// `[x0, y0, x1, y1]` (origin bottom left), value, and whether it has a normal appearance stream.
#[derive(Debug, Clone, PartialEq)]
pub struct FormField {
    pub name: String,
    pub kind: FieldKind,
    pub page: usize,
    pub rect: [f64; 4],
    pub value: FieldValue,
    pub has_appearance: bool,
}

/// The label templates mark fields with.
pub const LABEL: &str = "bp-field";

/// Every field mark of a compiled document, in document order. Values lose the invisible break
/// opportunities [`super::wrap`] put into long strings.
pub fn marks(doc: &PagedDocument) -> Result<Vec<Mark>, String> {
    let Some(label) = Label::new(PicoStr::intern(LABEL)) else {
        return Ok(Vec::new());
    };
    let intro = doc.introspector();
    let mut out = Vec::new();
    for c in intro.query(&Selector::Label(label)) {
        let Some(meta) = c.to_packed::<MetadataElem>() else {
            continue;
        };
        let Value::Dict(d) = &meta.value else {
            return Err(format!(
                "a <{LABEL}> mark must hold a dictionary, not {:?}",
                meta.value
            ));
        };
        let text = |k: &str| match d.get(k) {
            Ok(Value::Str(s)) => Ok(s.to_string()),
            _ => Err(format!("a <{LABEL}> mark lacks the string `{k}`")),
        };
        let num = |k: &str| match d.get(k) {
            Ok(Value::Float(f)) => Ok(*f),
            Ok(Value::Int(i)) => Ok(*i as f64),
            _ => Err(format!("a <{LABEL}> mark lacks the number `{k}`")),
        };
        let name = text("field")?;
        let kind = match text("kind")?.as_str() {
            "text" => FieldKind::Text,
            "check" => FieldKind::Check,
            other => {
                return Err(format!(
                    "field `{name}`: kind must be \"text\" or \"check\", not \"{other}\""
                ));
            }
        };
        let value = match d.get("value") {
            Ok(Value::Str(s)) => Some(FieldValue::Text(
                s.chars().filter(|&c| c != super::wrap::BREAK).collect(),
            )),
            Ok(Value::Bool(b)) => Some(FieldValue::Check(*b)),
            _ => None,
        };
        let area = match d.get("area") {
            Ok(Value::Bool(b)) => *b,
            Ok(Value::None) | Err(_) => false,
            Ok(other) => {
                return Err(format!(
                    "field `{name}`: `area` must be true or false, not {other:?}"
                ));
            }
        };
        let Some(loc) = c.location() else { continue };
        let Some(pos) = intro.position(loc) else {
            return Err(format!("field `{name}` has no place on a page"));
        };
        out.push(Mark {
            name,
            kind,
            page: pos.page.get(),
            x: pos.point.x.to_pt(),
            y: pos.point.y.to_pt(),
            w: num("w")?,
            h: num("h")?,
            value,
            size: match d.get("size") {
                Ok(Value::Float(f)) if f.is_finite() && *f > 0.0 => Some(*f),
                Ok(Value::Int(i)) if *i > 0 => Some(*i as f64),
                _ => None,
            },
            area,
        });
    }
    let mut seen = std::collections::BTreeSet::new();
    for m in &out {
        if !seen.insert(m.name.as_str()) {
            return Err(format!("two form fields are named `{}`", m.name));
        }
    }
    Ok(out)
}

/// Whether any mark carries a value (then the fillable copy is typeset without the values on the page).
pub fn has_values(marks: &[Mark]) -> bool {
    marks.iter().any(|m| match &m.value {
        Some(FieldValue::Text(s)) => !s.is_empty(),
        Some(FieldValue::Check(b)) => *b,
        None => false,
    })
}

/// The marks in reading order, row by row: top to bottom, and left to right within a row. A row starts at
/// the topmost field not yet placed and takes every field whose middle lies within that field's height (a
/// small tick box beside a tall writing box belongs to its row).
fn row_order(marks: &[Mark]) -> Vec<&Mark> {
    let mut rest: Vec<&Mark> = marks.iter().collect();
    rest.sort_by(|a, b| {
        (a.page, a.y, a.x)
            .partial_cmp(&(b.page, b.y, b.x))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut out = Vec::with_capacity(rest.len());
    while let Some(first) = rest.first().copied() {
        let (top, bottom) = (first.y, first.y + first.h);
        let (mut row, others): (Vec<&Mark>, Vec<&Mark>) = rest.into_iter().partition(|m| {
            let mid = m.y + m.h / 2.0;
            m.page == first.page && mid >= top - 0.5 && mid <= bottom + 0.5
        });
        row.sort_by(|a, b| a.x.partial_cmp(&b.x).unwrap_or(std::cmp::Ordering::Equal));
        out.extend(row);
        rest = others;
    }
    out
}

/// The font resource name of the embedded Courier Prime in the form's default resources.
const FONT: &str = "CoPr";

/// `pdf` with an AcroForm: a field over every mark (values from the marks). Errors name what was wrong.
pub fn add_fields(pdf: &[u8], marks: &[Mark]) -> Result<Vec<u8>, String> {
    let mut doc = Document::load_mem(pdf).map_err(|e| format!("cannot read the PDF: {e}"))?;
    let pages = doc.get_pages();
    let font = add_font(&mut doc)?;
    let mut dr_fonts = Dictionary::new();
    dr_fonts.set(FONT, Object::Reference(font));
    let ordered = row_order(marks);
    let mut fields = Vec::new();
    let mut annots: BTreeMap<ObjectId, Vec<Object>> = BTreeMap::new();
    for m in ordered {
        let page_id = *pages.get(&(m.page as u32)).ok_or_else(|| {
            format!(
                "field `{}` is on page {}, which the PDF lacks",
                m.name, m.page
            )
        })?;
        let height = page_height(&doc, page_id)?;
        let rect = [m.x, height - m.y - m.h, m.x + m.w, height - m.y];
        let mut d = Dictionary::new();
        d.set("Type", Object::Name(b"Annot".to_vec()));
        d.set("Subtype", Object::Name(b"Widget".to_vec()));
        d.set("T", text_string(&m.name));
        d.set(
            "Rect",
            Object::Array(rect.iter().map(|&v| real(v)).collect()),
        );
        d.set("P", Object::Reference(page_id));
        d.set("F", Object::Integer(4));
        match m.kind {
            FieldKind::Text => {
                d.set("FT", Object::Name(b"Tx".to_vec()));
                // Multi-line; no spell check.
                d.set("Ff", Object::Integer((1 << 12) | (1 << 22)));
                d.set("DA", Object::string_literal(format!("/{FONT} 0 Tf 0 g")));
                d.set(SIZE_KEY, real(m.size.unwrap_or(DEFAULT_SIZE)));
                if m.area {
                    d.set(AREA_KEY, Object::Boolean(true));
                }
            }
            FieldKind::Check => {
                d.set("FT", Object::Name(b"Btn".to_vec()));
                d.set("DA", Object::string_literal("/ZaDb 0 Tf 0 g"));
                let mut mk = Dictionary::new();
                mk.set("CA", Object::string_literal("8"));
                d.set("MK", Object::Dictionary(mk));
            }
        }
        let value = match (&m.value, m.kind) {
            (Some(v), _) => v.clone(),
            (None, FieldKind::Text) => FieldValue::Text(String::new()),
            (None, FieldKind::Check) => FieldValue::Check(false),
        };
        let id = doc.add_object(Object::Dictionary(d));
        set_value(&mut doc, id, &value)?;
        fields.push(Object::Reference(id));
        annots
            .entry(page_id)
            .or_default()
            .push(Object::Reference(id));
    }
    for (page_id, refs) in annots {
        add_annots(&mut doc, page_id, refs)?;
    }
    let mut dr = Dictionary::new();
    dr.set("Font", Object::Dictionary(dr_fonts));
    let mut form = Dictionary::new();
    form.set("Fields", Object::Array(fields));
    form.set("DA", Object::string_literal(format!("/{FONT} 0 Tf 0 g")));
    form.set("DR", Object::Dictionary(dr));
    form.set("NeedAppearances", Object::Boolean(false));
    let form_id = doc.add_object(Object::Dictionary(form));
    doc.catalog_mut()
        .map_err(|e| format!("the PDF has no catalog: {e}"))?
        .set("AcroForm", Object::Reference(form_id));
    draw_text(&mut doc)?;
    drop_ua_claim(&mut doc);
    save(doc)
}

/// The XMP element by which typst declares a file PDF/UA-1.
const UA_CLAIM: &[u8] = b"<pdfuaid:part>1</pdfuaid:part>";

/// Takes typst's PDF/UA-1 claim out of the document's XMP metadata. The form fields added here are widget
/// annotations with no structure elements of their own and no alternative descriptions, which PDF/UA
/// requires of every field; a file that claimed the standard would mislead the software (and people) who
/// trust the claim. The file stays a tagged PDF with its language and title. README, "Accessibility".
fn drop_ua_claim(doc: &mut Document) {
    let Some(id) = doc
        .catalog()
        .ok()
        .and_then(|c| c.get(b"Metadata").ok())
        .and_then(|m| m.as_reference().ok())
    else {
        return;
    };
    let Ok(Object::Stream(stream)) = doc.get_object_mut(id) else {
        return;
    };
    // typst writes its XMP uncompressed, as PDF/A and PDF/UA ask; anything else is left as it is.
    if stream.dict.has(b"Filter") {
        return;
    }
    if let Some(at) = stream
        .content
        .windows(UA_CLAIM.len())
        .position(|w| w == UA_CLAIM)
    {
        let mut content = stream.content.clone();
        content.drain(at..at + UA_CLAIM.len());
        stream.set_content(content);
    }
}

/// A fillable PDF with `values` set (field name → value), each drawn into its field's appearance; the
/// fields stay editable. A name the form lacks, or a value of the wrong kind, is an error.
pub fn fill(pdf: &[u8], values: &[(String, FieldValue)]) -> Result<Vec<u8>, String> {
    let mut doc = Document::load_mem(pdf).map_err(|e| format!("cannot read the PDF: {e}"))?;
    let by_name = field_ids(&doc)?;
    form_font(&doc)?;
    for (name, value) in values {
        let &(id, kind) = by_name
            .get(name)
            .ok_or_else(|| format!("the form has no field `{name}`"))?;
        let fits = matches!(
            (kind, value),
            (FieldKind::Text, FieldValue::Text(_)) | (FieldKind::Check, FieldValue::Check(_))
        );
        if !fits {
            return Err(format!(
                "field `{name}` is a {kind:?} field; {value:?} does not fit it"
            ));
        }
        set_value(&mut doc, id, value)?;
    }
    // Every text appearance again, in one set of font subsets; the old appearances and subsets go.
    draw_text(&mut doc)?;
    doc.prune_objects();
    save(doc)
}

/// Every field of a PDF form with its page, rectangle, value and whether it has an appearance stream.
pub fn fields(pdf: &[u8]) -> Result<Vec<FormField>, String> {
    let doc = Document::load_mem(pdf).map_err(|e| format!("cannot read the PDF: {e}"))?;
    let page_of: BTreeMap<ObjectId, usize> = doc
        .get_pages()
        .into_iter()
        .map(|(n, id)| (id, n as usize))
        .collect();
    let mut out = Vec::new();
    for (name, (id, kind)) in field_ids(&doc)? {
        let d = doc.get_dictionary(id).map_err(|e| e.to_string())?;
        let page = d
            .get(b"P")
            .and_then(Object::as_reference)
            .ok()
            .and_then(|p| page_of.get(&p).copied())
            .unwrap_or(0);
        let rect = d
            .get(b"Rect")
            .and_then(Object::as_array)
            .map_err(|e| format!("field `{name}`: {e}"))?;
        let mut r = [0.0; 4];
        for (k, v) in rect.iter().take(4).enumerate() {
            r[k] = number(v);
        }
        let value = match kind {
            FieldKind::Text => FieldValue::Text(match d.get(b"V") {
                Ok(Object::String(bytes, _)) => decode_text(bytes),
                _ => String::new(),
            }),
            FieldKind::Check => {
                FieldValue::Check(matches!(d.get(b"V"), Ok(Object::Name(n)) if n == b"On"))
            }
        };
        let has_appearance = d
            .get(b"AP")
            .and_then(|ap| doc.dereference(ap))
            .ok()
            .and_then(|(_, ap)| ap.as_dict().ok())
            .is_some_and(|ap| ap.get(b"N").is_ok());
        out.push(FormField {
            name,
            kind,
            page,
            rect: r,
            value,
            has_appearance,
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

// ---------- inside the PDF ----------

fn real(v: f64) -> Object {
    Object::Real((v * 1000.0).round() as f32 / 1000.0)
}

fn number(o: &Object) -> f64 {
    match o {
        Object::Integer(i) => *i as f64,
        Object::Real(r) => f64::from(*r),
        _ => 0.0,
    }
}

fn save(mut doc: Document) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    doc.save_to(&mut out)
        .map_err(|e| format!("cannot write the PDF: {e}"))?;
    Ok(out)
}

/// A PDF text string: PDFDocEncoding for printable ASCII, UTF-16BE with a byte order mark otherwise.
fn text_string(s: &str) -> Object {
    if s.chars().all(|c| (' '..='~').contains(&c)) {
        Object::String(s.as_bytes().to_vec(), StringFormat::Literal)
    } else {
        let mut bytes = vec![0xFE, 0xFF];
        for u in s.encode_utf16() {
            bytes.extend_from_slice(&u.to_be_bytes());
        }
        Object::String(bytes, StringFormat::Hexadecimal)
    }
}

fn decode_text(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        let units: Vec<u16> = rest
            .chunks(2)
            .map(|c| u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]))
            .collect();
        String::from_utf16_lossy(&units)
    } else {
        bytes.iter().map(|&b| char::from(b)).collect()
    }
}

fn page_height(doc: &Document, page: ObjectId) -> Result<f64, String> {
    let mut id = page;
    for _ in 0..32 {
        let d = doc.get_dictionary(id).map_err(|e| e.to_string())?;
        if let Ok(mb) = d.get(b"MediaBox").and_then(|o| doc.dereference(o)) {
            let a = mb.1.as_array().map_err(|e| e.to_string())?;
            if a.len() == 4 {
                return Ok(number(&a[3]) - number(&a[1]));
            }
        }
        id = d
            .get(b"Parent")
            .and_then(Object::as_reference)
            .map_err(|_| "a page has no media box".to_owned())?;
    }
    Err("a page has no media box".into())
}

/// Append widget references to a page's `/Annots` (direct or referenced array) and set row tab order.
fn add_annots(doc: &mut Document, page: ObjectId, refs: Vec<Object>) -> Result<(), String> {
    let existing = doc
        .get_dictionary(page)
        .map_err(|e| e.to_string())?
        .get(b"Annots")
        .ok()
        .cloned();
    match existing {
        Some(Object::Reference(id)) => {
            let a = doc
                .get_object_mut(id)
                .and_then(Object::as_array_mut)
                .map_err(|e| e.to_string())?;
            a.extend(refs);
        }
        Some(Object::Array(mut a)) => {
            a.extend(refs);
            let d = doc.get_dictionary_mut(page).map_err(|e| e.to_string())?;
            d.set("Annots", Object::Array(a));
        }
        _ => {
            let d = doc.get_dictionary_mut(page).map_err(|e| e.to_string())?;
            d.set("Annots", Object::Array(refs));
        }
    }
    let d = doc.get_dictionary_mut(page).map_err(|e| e.to_string())?;
    d.set("Tabs", Object::Name(b"R".to_vec()));
    Ok(())
}

/// Every terminal field of the form by name (widgets merged with their fields, as [`add_fields`] writes).
fn field_ids(doc: &Document) -> Result<BTreeMap<String, (ObjectId, FieldKind)>, String> {
    let form = doc
        .catalog()
        .and_then(|c| c.get(b"AcroForm"))
        .and_then(|f| doc.dereference(f))
        .and_then(|(_, f)| f.as_dict())
        .map_err(|_| "the PDF has no form (no /AcroForm)".to_owned())?;
    let list = form
        .get(b"Fields")
        .and_then(|f| doc.dereference(f))
        .and_then(|(_, f)| f.as_array())
        .map_err(|_| "the form lists no /Fields".to_owned())?;
    let mut out = BTreeMap::new();
    for f in list {
        let id = f
            .as_reference()
            .map_err(|_| "a form field is not an indirect object".to_owned())?;
        let d = doc.get_dictionary(id).map_err(|e| e.to_string())?;
        let name = match d.get(b"T") {
            Ok(Object::String(b, _)) => decode_text(b),
            _ => return Err("a form field has no name (/T)".into()),
        };
        let kind = match d.get(b"FT") {
            Ok(Object::Name(n)) if n == b"Tx" => FieldKind::Text,
            Ok(Object::Name(n)) if n == b"Btn" => FieldKind::Check,
            _ => {
                return Err(format!(
                    "field `{name}` is neither a text field nor a checkbox"
                ));
            }
        };
        out.insert(name, (id, kind));
    }
    Ok(out)
}

/// The embedded font the form's default resources name.
fn form_font(doc: &Document) -> Result<ObjectId, String> {
    doc.catalog()
        .and_then(|c| c.get(b"AcroForm"))
        .and_then(|f| doc.dereference(f))
        .and_then(|(_, f)| f.as_dict())
        .and_then(|f| f.get(b"DR"))
        .and_then(|r| doc.dereference(r))
        .and_then(|(_, r)| r.as_dict())
        .and_then(|r| r.get(b"Font"))
        .and_then(|r| doc.dereference(r))
        .and_then(|(_, r)| r.as_dict())
        .and_then(|r| r.get(FONT.as_bytes()))
        .and_then(Object::as_reference)
        .map_err(|_| {
            format!("the form's resources have no font /{FONT}; was it made by blockprint?")
        })
}

/// The rectangle `[x0, y0, x1, y1]` of a widget.
fn widget_rect(d: &Dictionary) -> Result<[f64; 4], String> {
    let a = d
        .get(b"Rect")
        .and_then(Object::as_array)
        .map_err(|e| e.to_string())?;
    let [x0, y0, x1, y1] = a.as_slice() else {
        return Err("a form field's /Rect is not four numbers".into());
    };
    Ok([number(x0), number(y0), number(x1), number(y1)])
}

/// A form XObject `w` × `h` with `content`.
fn form_xobject(w: f64, h: f64, content: Vec<u8>, resources: Option<Dictionary>) -> Stream {
    let mut sd = Dictionary::new();
    sd.set("Type", Object::Name(b"XObject".to_vec()));
    sd.set("Subtype", Object::Name(b"Form".to_vec()));
    sd.set(
        "BBox",
        Object::Array(vec![real(0.0), real(0.0), real(w), real(h)]),
    );
    if let Some(r) = resources {
        sd.set("Resources", Object::Dictionary(r));
    }
    Stream::new(sd, content)
}

/// Set a field's value; a checkbox also gets its appearances (a text field's are drawn by [`draw_text`]).
fn set_value(doc: &mut Document, id: ObjectId, value: &FieldValue) -> Result<(), String> {
    match value {
        FieldValue::Text(s) => {
            let d = doc.get_dictionary_mut(id).map_err(|e| e.to_string())?;
            d.set("V", text_string(s));
        }
        FieldValue::Check(on) => {
            let [x0, y0, x1, y1] = widget_rect(doc.get_dictionary(id).map_err(|e| e.to_string())?)?;
            let (w, h) = ((x1 - x0).abs(), (y1 - y0).abs());
            let on_id = doc.add_object(form_xobject(w, h, cross(w, h), None));
            let off_id = doc.add_object(form_xobject(w, h, Vec::new(), None));
            let mut n = Dictionary::new();
            n.set("On", Object::Reference(on_id));
            n.set("Off", Object::Reference(off_id));
            let mut ap = Dictionary::new();
            ap.set("N", Object::Dictionary(n));
            let state = Object::Name(if *on { b"On".to_vec() } else { b"Off".to_vec() });
            let d = doc.get_dictionary_mut(id).map_err(|e| e.to_string())?;
            d.set("V", state.clone());
            d.set("AS", state);
            d.set("AP", Object::Dictionary(ap));
        }
    }
    Ok(())
}

/// Draw the appearance of every text field from its value (fields in name order), the glyphs of all of
/// them in one subset per font.
fn draw_text(doc: &mut Document) -> Result<(), String> {
    let faces = layout::faces()?;
    let mut fonts = embed::FontSet::new(faces.len());
    let mut drawn = Vec::new();
    for (name, (id, kind)) in field_ids(doc)? {
        if kind != FieldKind::Text {
            continue;
        }
        let d = doc.get_dictionary(id).map_err(|e| e.to_string())?;
        let [x0, y0, x1, y1] = widget_rect(d).map_err(|e| format!("field `{name}`: {e}"))?;
        let (w, h) = ((x1 - x0).abs(), (y1 - y0).abs());
        let value = match d.get(b"V") {
            Ok(Object::String(bytes, _)) => decode_text(bytes),
            _ => String::new(),
        };
        let size = match d.get(SIZE_KEY.as_bytes()) {
            Ok(o @ (Object::Integer(_) | Object::Real(_))) if number(o) > 0.0 => number(o),
            _ => DEFAULT_SIZE,
        };
        let area = matches!(d.get(AREA_KEY.as_bytes()), Ok(Object::Boolean(true)));
        let laid =
            layout::layout(&value, w, h, size, area).map_err(|e| format!("field `{name}`: {e}"))?;
        let (content, used) = embed::appearance(&laid, faces, &mut fonts, w, h)?;
        drawn.push((id, w, h, content, used));
    }
    let objects = fonts.embed(doc, faces)?;
    for (id, w, h, content, used) in drawn {
        let resources = if used.is_empty() {
            None
        } else {
            let mut f = Dictionary::new();
            for k in used {
                if let Some(font) = objects[k] {
                    f.set(faces[k].resource, Object::Reference(font));
                }
            }
            let mut r = Dictionary::new();
            r.set("Font", Object::Dictionary(f));
            Some(r)
        };
        let mut stream = form_xobject(w, h, content, resources);
        stream
            .compress()
            .map_err(|e| format!("cannot compress an appearance: {e}"))?;
        let n = doc.add_object(stream);
        let mut ap = Dictionary::new();
        ap.set("N", Object::Reference(n));
        let d = doc.get_dictionary_mut(id).map_err(|e| e.to_string())?;
        d.set("AP", Object::Dictionary(ap));
    }
    Ok(())
}

/// A checkbox's `/On` appearance: a cross drawn corner to corner, inset a little.
fn cross(w: f64, h: f64) -> Vec<u8> {
    let i = (w.min(h) * 0.18).max(1.0);
    format!(
        "q 0 g 0 G 1.2 w 1 J {i:.2} {i:.2} m {:.2} {:.2} l S {i:.2} {:.2} m {:.2} {i:.2} l S Q\n",
        w - i,
        h - i,
        h - i,
        w - i
    )
    .into_bytes()
}

/// The WinAnsi (cp1252) codes 0x80–0x9F.
const WIN_ANSI_EXTRA: [(char, u8); 27] = [
    ('€', 0x80),
    ('‚', 0x82),
    ('ƒ', 0x83),
    ('„', 0x84),
    ('…', 0x85),
    ('†', 0x86),
    ('‡', 0x87),
    ('ˆ', 0x88),
    ('‰', 0x89),
    ('Š', 0x8A),
    ('‹', 0x8B),
    ('Œ', 0x8C),
    ('Ž', 0x8E),
    ('‘', 0x91),
    ('’', 0x92),
    ('“', 0x93),
    ('”', 0x94),
    ('•', 0x95),
    ('–', 0x96),
    ('—', 0x97),
    ('˜', 0x98),
    ('™', 0x99),
    ('š', 0x9A),
    ('›', 0x9B),
    ('œ', 0x9C),
    ('ž', 0x9E),
    ('Ÿ', 0x9F),
];

/// Embed Courier Prime (regular) as a simple TrueType font with WinAnsi encoding; its widths are read from
/// the font.
fn add_font(doc: &mut Document) -> Result<ObjectId, String> {
    let file = super::fonts::FONTS
        .iter()
        .find(|f| f.path.ends_with("CourierPrime-Regular.ttf"))
        .ok_or("Courier Prime is not embedded")?;
    let face = ttf_parser::Face::parse(file.data, 0)
        .map_err(|e| format!("cannot read Courier Prime: {e}"))?;
    let upem = f64::from(face.units_per_em());
    let scale = |v: f64| (v * 1000.0 / upem).round() as i64;
    let widths: Vec<Object> = (32u8..=255)
        .map(|b| {
            let c = if (0x80..=0x9F).contains(&b) {
                WIN_ANSI_EXTRA
                    .iter()
                    .find(|(_, x)| *x == b)
                    .map(|(c, _)| *c)
            } else {
                Some(char::from(b))
            };
            let adv = c
                .and_then(|c| face.glyph_index(c))
                .and_then(|g| face.glyph_hor_advance(g))
                .map_or(600, |a| scale(f64::from(a)));
            Object::Integer(adv)
        })
        .collect();
    let bb = face.global_bounding_box();
    let mut file_dict = Dictionary::new();
    file_dict.set("Length1", Object::Integer(file.data.len() as i64));
    let mut stream = Stream::new(file_dict, file.data.to_vec());
    stream
        .compress()
        .map_err(|e| format!("cannot compress the font: {e}"))?;
    let file_id = doc.add_object(stream);
    let mut fd = Dictionary::new();
    fd.set("Type", Object::Name(b"FontDescriptor".to_vec()));
    fd.set("FontName", Object::Name(b"CourierPrime".to_vec()));
    fd.set("Flags", Object::Integer(1 | 32));
    fd.set(
        "FontBBox",
        Object::Array(
            [bb.x_min, bb.y_min, bb.x_max, bb.y_max]
                .iter()
                .map(|&v| Object::Integer(scale(f64::from(v))))
                .collect(),
        ),
    );
    fd.set("ItalicAngle", Object::Integer(0));
    fd.set("Ascent", Object::Integer(scale(f64::from(face.ascender()))));
    fd.set(
        "Descent",
        Object::Integer(scale(f64::from(face.descender()))),
    );
    fd.set(
        "CapHeight",
        Object::Integer(scale(f64::from(
            face.capital_height().unwrap_or(face.ascender()),
        ))),
    );
    fd.set("StemV", Object::Integer(80));
    fd.set("FontFile2", Object::Reference(file_id));
    let fd_id = doc.add_object(Object::Dictionary(fd));
    let mut f = Dictionary::new();
    f.set("Type", Object::Name(b"Font".to_vec()));
    f.set("Subtype", Object::Name(b"TrueType".to_vec()));
    f.set("BaseFont", Object::Name(b"CourierPrime".to_vec()));
    f.set("FirstChar", Object::Integer(32));
    f.set("LastChar", Object::Integer(255));
    f.set("Widths", Object::Array(widths));
    f.set("Encoding", Object::Name(b"WinAnsiEncoding".to_vec()));
    f.set("FontDescriptor", Object::Reference(fd_id));
    Ok(doc.add_object(Object::Dictionary(f)))
}
